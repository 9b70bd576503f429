/* spawn.h: running a program for a benchmark: wall seconds, user + system seconds, peak RSS. */
#ifndef FIBER_BENCH_SPAWN_H
#define FIBER_BENCH_SPAWN_H

/* run argv[0] with argv (NULL-terminated), stdout and stderr as they are: its wall seconds and in
 * *cpu its user + system seconds; -1 if it could not run or exited with a failure */
double spawn_timed(char *const argv[], double *cpu);
double spawn_median(double *v, int n);   /* sorts v */

#endif
