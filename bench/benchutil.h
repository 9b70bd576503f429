/* benchutil.h: what the simulator benchmarks (simbench.c, timebench.c) share: a monotonic clock,
 * a comparison for medians, fatal runtime errors, and device buffers of random fp16 values. */
#ifndef FIBER_BENCHUTIL_H
#define FIBER_BENCHUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "fiber.h"

double bench_now(void);                            /* seconds, monotonic */
int bench_cmpd(const void *a, const void *b);      /* qsort of doubles */
/* "PROG: WHAT: <the runtime's message>" and the load log on stderr, exit status 2 */
void bench_die(fiberDevice dev, const char *what) __attribute__((noreturn));
/* a device buffer of n bytes of normal fp16 values in [-4, 4), from seed */
fiberDevicePtr bench_f16_buffer(fiberDevice dev, size_t n, uint32_t seed);

extern const char *bench_prog;                     /* the program's name, for messages */

#endif /* FIBER_BENCHUTIL_H */
