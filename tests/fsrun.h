/* fsrun.h: one hand-written FIBER SASS kernel `kern` run on the simulator for the Check suites
 * (check_tfiber.c, check_fibergrow.c): the text parsed and loaded on a built-in configuration
 * with `--set` edits, one 512-word output buffer (pre-filled with 0xdeadbeef) as its only
 * parameter, timed or functional. */
#ifndef FIBER_TESTS_FSRUN_H
#define FIBER_TESTS_FSRUN_H

#include <stdio.h>

#include "frontend.h"
#include "timing.h"

typedef struct FsRun {
	Src *src;            /* the kernel's text */
	Module *m;           /* parsed */
	Diag d;              /* its messages, into errf */
	FILE *errf;          /* memory stream over err */
	char *err;           /* parse and load messages */
	size_t nerr;         /* their bytes */
	Gpu *g;              /* the device */
	SimModule *sm;       /* the loaded module */
	const Prog *k;       /* kernel `kern` */
	uint64_t out;        /* the output buffer's device address */
	SimTStats st;        /* timed runs: the statistics (untouched by functional runs) */
	SimFault f;          /* the launch's fault */
	uint32_t val[512];   /* the output buffer after the run */
} FsRun;

/* `kern` with dirs in its header and body as its code, on configuration config with the edits
 * set (NULL-terminated, may be NULL), grid CTAs of nthreads; timed, or functional when timed is
 * 0; the launch's status (0 or the fault's) */
int fs_run(FsRun *r, const char *config, const char *dirs, const char *body, uint32_t grid,
           uint32_t nthreads, const char *const *set, int timed);
void fs_done(FsRun *r);

#endif
