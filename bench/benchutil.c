/* benchutil.c: helpers shared by the simulator benchmarks (benchutil.h). */
#define _POSIX_C_SOURCE 200809L

#include "benchutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
bench_cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
bench_die(fiberDevice dev, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n%s", bench_prog, what, fiberGetLastErrorMessage(dev),
	        dev ? fiberGetLastErrorLog(dev) : "");
	exit(2);
}

fiberDevicePtr
bench_f16_buffer(fiberDevice dev, size_t n, uint32_t seed)
{
	fiberDevicePtr p;
	uint16_t *h;

	if (fiberMalloc(dev, &p, n) != FIBER_SUCCESS)
		bench_die(dev, "malloc");
	if (!(h = malloc(n ? n : 1)))
		bench_die(dev, "host memory");
	for (size_t i = 0; i < n / 2; i++) {
		seed = seed * 1664525u + 1013904223u;
		/* sign, exponent 13..16 (2^-2 .. 2^1), random mantissa: a normal fp16 value */
		h[i] = (uint16_t)(((seed >> 16) & 0x8000) | (0x3400 + ((seed >> 8) & 0x0fff)));
	}
	if (fiberMemcpyHtoD(dev, p, h, n) != FIBER_SUCCESS)
		bench_die(dev, "copy");
	free(h);
	return p;
}
