/* spawn.c: running a program for a benchmark (spawn.h). */
#define _DEFAULT_SOURCE           /* wait4 */
#define _POSIX_C_SOURCE 200809L

#include "spawn.h"
#include "ir.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

double
spawn_timed(char *const argv[], double *cpu)
{
	double t0 = now_seconds();
	pid_t pid;
	int st;
	struct rusage ru;

	if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
		fprintf(stderr, "bench: cannot run %s\n", argv[0]);
		return -1;
	}
	if (wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench: %s %s failed\n", argv[0], argv[1] ? argv[1] : "");
		return -1;
	}
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec * 1e-6;
	return now_seconds() - t0;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
spawn_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmpd);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
