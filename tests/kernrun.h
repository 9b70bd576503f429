/* kernrun.h: running kernels through the runtime for the Check suites: one line of
 * examples/kernels.txt with its fixed inputs, or every function of a listing with generic
 * arguments; the result is every buffer after the run plus the run's statistics. */
#ifndef FIBER_TESTS_KERNRUN_H
#define FIBER_TESTS_KERNRUN_H

#include "fiber.h"

#include <stddef.h>
#include <stdint.h>

typedef struct KRun {
	int status;          /* fiberStatus of the launch (FIBER_SUCCESS or the fault's) */
	char *buf;           /* every buffer after the run, concatenated (malloc'd) */
	size_t n;            /* its bytes */
	uint64_t cycles;     /* timing mode: cycles of the launch */
	uint64_t hazards;    /* timing mode: hazards of the launch */
	char err[256];       /* fiberGetLastErrorMessage when status != FIBER_SUCCESS */
	uint64_t found;      /* what the checks of kr_set_checks found (fiberGetCheckCount) */
} KRun;

const char *kr_root(void);                 /* $FIBER_ROOT or "." */
int kr_read_lines(const char *path, char lines[][2048], int max); /* kernels.txt, no comments */
/* run one kernels.txt line on the listing at path; 0, or -1 if the module does not load (*r err) */
int kr_run_line(const char *path, const char *config, fiberSimMode mode, const char *line, KRun *r);
/* run function fn (index) of the listing at path: pointers to 1 MiB buffers of a fixed pattern,
 * 4-byte scalars 16, grid 2, block 128; name receives the function's name */
int kr_run_generic(const char *path, const char *config, fiberSimMode mode, unsigned fn,
                   char *name, size_t namesz, KRun *r);
int kr_function_count(const char *path, const char *config, unsigned *n);
/* the watchdog (warp instructions per launch) of the devices the runs open from now on; 0: the
 * configuration's own (2^28) */
void kr_set_watchdog(uint64_t n);
/* the checks (fiberDeviceSetChecks) of the devices the runs open from now on, their reports to
 * report (a FILE *; NULL: stderr); 0: none */
void kr_set_checks(unsigned checks, void *report);
void kr_free(KRun *r);
/* run the fiberc program ($FIBERC, else build/bin/fiberc) as `fiberc IN ARGS -o TMP`: the
 * temporary output's path (malloc'd; the caller unlinks it), or NULL with fiberc's messages in
 * err */
char *kr_fiberc(const char *in, const char *args, char *err, size_t errsz);

#endif
