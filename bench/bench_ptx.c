/* bench_ptx.c: throughput of the PTX front end (issue 11: at least 1,000,000 PTX instructions
 * per second for the parser; 200,000/s for the whole PTX to SASS path). Reads FILE once, then
 * parses it R times with ptx_parse (scanner, parser, AST and ptx_check) and R times with
 * ptx_parse_only, and prints for each the fastest run's CPU time (this thread's, so that other
 * programs on a shared machine count less) and the median wall time, with instructions per
 * second and MB/s of the fastest.
 *
 *   bench_ptx [-r REPS] FILE.ptx
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include "ir.h"
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the median wall seconds of reps parses; *cpu the least CPU seconds of one; *nins the
 * instructions of the module */
static double
run(Src *src, int reps, int check, uint32_t *nins, double *cpu)
{
	double *t = malloc((size_t)reps * sizeof *t), med;

	*cpu = 1e30;
	for (int k = 0; k < reps; k++) {
		Diag d;
		double t0, c0;
		Ptx *p;
		diag_init(&d, src, stderr);
		t0 = now_seconds();
		c0 = cpu_seconds();
		p = check ? ptx_parse(src, &d) : ptx_parse_only(src, &d);
		c0 = cpu_seconds() - c0;
		t[k] = now_seconds() - t0;
		if (c0 < *cpu)
			*cpu = c0;
		if (!p) {
			fprintf(stderr, "bench_ptx: the input does not parse\n");
			exit(1);
		}
		*nins = ptx_count_ins(p);
		ptx_free(p);
	}
	qsort(t, (size_t)reps, sizeof *t, cmpd);
	med = t[reps / 2];
	free(t);
	return med;
}

int
main(int argc, char **argv)
{
	int reps = 7;
	const char *path = NULL;
	uint32_t nins = 0;
	double cpu;
	Diag d;
	Src *src;

	for (int k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-r") == 0 && k + 1 < argc)
			reps = atoi(argv[++k]);
		else
			path = argv[k];
	}
	if (!path || reps < 1) {
		fprintf(stderr, "usage: bench_ptx [-r REPS] FILE.ptx\n");
		return 2;
	}
	diag_init(&d, NULL, stderr);
	if (!(src = src_read(path, &d)))
		return 1;
	/* touch the text once so that the first timed run does not pay for the page faults */
	run(src, 1, 1, &nins, &cpu);
	for (int check = 0; check < 2; check++) {
		double t = run(src, reps, check, &nins, &cpu);
		printf("bench_ptx: %-14s %u instructions, %.2f MB: %.4f s CPU (best of %d; wall "
		       "median %.4f s): %.0f instructions/s, %.1f MB/s\n",
		       check ? "ptx_parse" : "ptx_parse_only", nins, (double)src->len / 1e6, cpu, reps, t,
		       nins / cpu, (double)src->len / 1e6 / cpu);
	}
	src_free(src);
	return 0;
}
