/* ptxrun.h: compiling a PTX text with fiberc (the program, as a user runs it) and launching one
 * of its kernels on the simulator with given arguments, for the PTX code-generation suites. */
#ifndef FIBER_TESTS_PTXRUN_H
#define FIBER_TESTS_PTXRUN_H

#include "fiber.h"

#include <stddef.h>
#include <stdint.h>

enum PrKind { PrBuf, PrU32, PrU64, PrF32 };

typedef struct PrArg {
	int kind;          /* PrKind */
	void *data;        /* PrBuf: host bytes copied in before and back after the launch */
	size_t bytes;      /* PrBuf: their size */
	uint64_t u;        /* PrU32, PrU64: the value */
	float f;           /* PrF32: the value */
} PrArg;

typedef struct PrRun {
	const char *arch;  /* "sm_80" (default) or "sm_90" */
	const char *opts;  /* more fiberc options ("--mode=cuda-native"), or NULL */
	const char *config; /* simulator configuration ("a100", default) */
	fiberSimMode mode; /* FIBER_MODE_TIMING (0, the default) or FIBER_MODE_FUNCTIONAL */
	unsigned grid[3], block[3]; /* 0 entries count as 1 */
	unsigned smem;     /* dynamic shared memory bytes */
	uint64_t cycles, hazards; /* out: the launch's (timing mode) */
	char err[4096];    /* out: fiberc's messages or the launch's fault */
} PrRun;

/* the SASS fiberc writes for ptx (malloc'd), or NULL with r->err holding its messages */
char *pr_compile(const char *ptx, PrRun *r);
/* compile ptx and launch kernel with the n arguments a: 0, or -1 with r->err (a compile error,
 * a load error or the launch's fault: then the buffers hold what the run left) */
int pr_run(const char *ptx, const char *kernel, PrRun *r, PrArg *a, unsigned n);
/* the same for a listing's text (r->arch and r->opts unused) */
int pr_launch(const char *sass, const char *kernel, PrRun *r, PrArg *a, unsigned n);

#endif
