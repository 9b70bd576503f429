/* bench_fiberc.c: throughput and memory of fiber's lifting pipeline on one listing.
 * In process (linked with libfiber.a): src_read (the file read as fiberc reads it: mapped) and
 * sass_parse, cfg_build + dom_build, ssa_build, verify_fn, ssa_out and print_module(PrintSass)
 * into a memory stream, REPS times; it prints the median time of each stage, instructions per
 * second, the peak RSS growth (getrusage ru_maxrss) and the module arena per instruction, against
 * the targets (1,000,000 instructions/s on one core, under 500 bytes of peak memory per
 * instruction). With --fiberc it also times the fiberc binary end to end (FILE --emit=sass
 * -o /dev/null: start-up, reading, checks, passes, writing, exit), median of FIBERC_REPS runs of
 * wall time (the target's figure) and of user + system time (less inflated on a loaded
 * machine), and takes its peak RSS.
 *
 * With --mode MODE (cuda-native) the fiberc binary runs `FILE --mode=MODE -o /dev/null`, the
 * FIBER pass pipeline, against that mode's target (500,000 instructions/s, issue 10).
 *
 *   bench_fiberc [-r REPS] [--fiberc PATH] [-R FIBERC_REPS] [--mode MODE] [--strict] FILE
 */
#define _DEFAULT_SOURCE           /* wait4 */
#define _POSIX_C_SOURCE 200809L

#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "spawn.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

enum {
	MaxReps = 101,     /* repetitions accepted by -r and -R */
	TargetRate = 1000000, /* instructions per second on one core */
	TargetBytes = 500, /* bytes of peak memory per instruction */
	TargetModeRate = 500000, /* fiberc --mode=cuda-native, instructions per second */
};

enum Stage { SParse, SCfg, SSsa, SVerify, SOut, SEmit, STotal, NStage };

static const char *const stagename[NStage] = {
	"parse", "cfg + dom", "ssa", "verify", "out-of-ssa", "emit", "total",
};

extern char **environ;

static char mode_arg[64];   /* "--mode=MODE", or "" */

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(const double *v, int n)
{
	double s[MaxReps];

	memcpy(s, v, (size_t)n * sizeof *s);
	qsort(s, (size_t)n, sizeof *s, cmpd);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static long
maxrss_kib(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return ru.ru_maxrss;
}

/* one run of the pipeline; fills t[stage] in seconds; returns -1 after reporting */
static int
run_once(const char *path, char *obuf, size_t ocap, double *t, uint64_t *nins, size_t *arena,
         size_t *outlen)
{
	double t0 = now_seconds(), t1;
	Diag d;
	Src *src;
	Module *m;
	FILE *out;
	int rc = 0;

	diag_init(&d, NULL, stderr);
	if (!(src = src_read(path, &d)))
		return -1;
	d.src = src;
	m = sass_parse(src, &d);
	t1 = now_seconds();
	t[SParse] = t1 - t0;
	if (!m || d.nerr) {
		fprintf(stderr, "bench_fiberc: %s does not parse\n", path);
		if (m)
			module_free(m);
		src_free(src);
		return -1;
	}
	for (int s = SCfg; s < STotal; s++)
		t[s] = 0;
	*nins = 0;
	for (uint32_t k = 0; k < m->nfn && rc == 0; k++) {
		Fn *f = m->fn[k];
		double a = now_seconds(), b, c, e, g;

		*nins += f->nins;
		if (cfg_build(f, &d) < 0) {
			rc = -1;
			break;
		}
		dom_build(f);
		b = now_seconds();
		rc = ssa_build(f, &d);
		c = now_seconds();
		if (rc == 0)
			rc = verify_fn(f, &d);
		e = now_seconds();
		if (rc == 0)
			rc = ssa_out(f, &d);
		g = now_seconds();
		t[SCfg] += b - a;
		t[SSsa] += c - b;
		t[SVerify] += e - c;
		t[SOut] += g - e;
	}
	if (rc < 0) {
		fprintf(stderr, "bench_fiberc: the pipeline failed on %s\n", path);
		module_free(m);
		src_free(src);
		return -1;
	}
	t0 = now_seconds();
	if (!(out = fmemopen(obuf, ocap, "w")))
		die("fmemopen: %s", strerror(errno));
	print_module(out, m, PrintSass, NULL);
	fflush(out);
	*outlen = (size_t)ftell(out);
	fclose(out);
	t[SEmit] = now_seconds() - t0;
	*arena = arena_bytes(m->arena);
	module_free(m);
	src_free(src);
	t[STotal] = 0;
	for (int s = SParse; s < STotal; s++)
		t[STotal] += t[s];
	if (*outlen + 1 >= ocap) {
		fprintf(stderr, "bench_fiberc: output buffer too small (%zu bytes)\n", ocap);
		return -1;
	}
	return 0;
}

/* wall time of one `fiberc FILE --emit=sass -o /dev/null`, and in *cpu its user + system time
 * (what a loaded machine does not inflate as much); -1 if it failed */
static double
run_fiberc(const char *fiberc, const char *path, double *cpu)
{
	char *argv[] = {(char *)fiberc, (char *)path,
	                mode_arg[0] ? mode_arg : (char *)"--emit=sass", (char *)"-o",
	                (char *)"/dev/null", NULL};

	return spawn_timed(argv, cpu);
}

static const char *
verdict(int ok)
{
	return ok ? "ok" : "MISSED";
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench_fiberc [-r REPS] [--fiberc PATH] [-R FIBERC_REPS] [--strict] "
	        "FILE\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *path = NULL, *fiberc = NULL;
	int reps = 7, freps = 5, strict = 0, missed = 0;
	double t[MaxReps][NStage], col[MaxReps], med[NStage], ft[MaxReps], fcpu[MaxReps];
	size_t len, ocap, arena = 0, outlen = 0;
	uint64_t nins = 0;
	long rss0, rss1, frss;
	char *obuf;
	struct stat st;

	for (int k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-r") == 0 && k + 1 < argc)
			reps = atoi(argv[++k]);
		else if (strcmp(argv[k], "-R") == 0 && k + 1 < argc)
			freps = atoi(argv[++k]);
		else if (strcmp(argv[k], "--fiberc") == 0 && k + 1 < argc)
			fiberc = argv[++k];
		else if (strcmp(argv[k], "--mode") == 0 && k + 1 < argc)
			snprintf(mode_arg, sizeof mode_arg, "--mode=%s", argv[++k]);
		else if (strcmp(argv[k], "--strict") == 0)
			strict = 1;
		else if (argv[k][0] == '-' || path)
			usage();
		else
			path = argv[k];
	}
	if (!path || reps < 1 || reps > MaxReps || freps < 1 || freps > MaxReps)
		usage();
	/* fiberc runs first, while this process is small: a spawned child's ru_maxrss can include
	 * its parent's resident pages from before the exec */
	if (fiberc)
		for (int r = 0; r < freps; r++)
			if ((ft[r] = run_fiberc(fiberc, path, &fcpu[r])) < 0)
				return 1;
	frss = fiberc ? maxrss_kib(RUSAGE_CHILDREN) : 0;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "bench_fiberc: cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	len = (size_t)st.st_size;
	/* the output buffer is touched before the baseline so that it does not count */
	ocap = 4 * len + (1 << 20);
	obuf = xmalloc(ocap);
	memset(obuf, 1, ocap);
	rss0 = maxrss_kib(RUSAGE_SELF);
	for (int r = 0; r < reps; r++)
		if (run_once(path, obuf, ocap, t[r], &nins, &arena, &outlen) < 0)
			return 1;
	rss1 = maxrss_kib(RUSAGE_SELF);
	for (int s = 0; s < NStage; s++) {
		for (int r = 0; r < reps; r++)
			col[r] = t[r][s];
		med[s] = median(col, reps);
	}

	printf("bench_fiberc: %s: %llu instructions, %zu bytes in, %zu bytes out, %d runs\n", path,
	       (unsigned long long)nins, len, outlen, reps);
	printf("  %-34s %14s\n", "stage (median)", "seconds");
	for (int s = 0; s < NStage; s++)
		printf("  %-34s %14.4f\n", stagename[s], med[s]);
	printf("\n  %-34s %14s %14s  %s\n", "figure", "measured", "target", "");
	{
		double rate = med[STotal] > 0 ? nins / med[STotal] : 0;
		double rss_per = nins ? (rss1 - rss0) * 1024.0 / nins : 0;
		double arena_per = nins ? (double)arena / nins : 0;
		int ok;

		ok = rate >= TargetRate;
		missed += !ok;
		printf("  %-34s %14.0f %14s  %s\n", "in-process instructions/s", rate, ">= 1000000",
		       verdict(ok));
		printf("  %-34s %14.4f %14s\n", "in-process seconds (median)", med[STotal], "");
		ok = rss_per < TargetBytes;
		missed += !ok;
		printf("  %-34s %14.0f %14s  %s\n", "peak RSS growth, bytes/instruction", rss_per,
		       "< 500", verdict(ok));
		printf("  %-34s %14ld %14s\n", "peak RSS growth, KiB", rss1 - rss0, "");
		ok = arena_per < TargetBytes;
		missed += !ok;
		printf("  %-34s %14.0f %14s  %s\n", "module arena, bytes/instruction", arena_per,
		       "< 500", verdict(ok));
	}
	if (fiberc) {
		double fmed, frate, frss_per;

		double target = mode_arg[0] ? TargetModeRate : TargetRate;
		char what[96], tgt[32];

		fmed = median(ft, freps);
		frate = fmed > 0 ? nins / fmed : 0;
		snprintf(what, sizeof what, "fiberc %s end to end, instr/s",
		         mode_arg[0] ? mode_arg : "--emit=sass");
		snprintf(tgt, sizeof tgt, ">= %.0f", target);
		printf("  %-34s %14.0f %14s  %s\n", what, frate, tgt, verdict(frate >= target));
		printf("  %-34s %14.4f %14s\n", "fiberc end to end, seconds (median)", fmed, "");
		printf("  %-34s %14.4f %14s\n", "fiberc user + system seconds", median(fcpu, freps), "");
		frss_per = nins ? frss * 1024.0 / nins : 0;
		printf("  %-34s %14.0f %14s  %s\n", "fiberc peak RSS, bytes/instruction", frss_per,
		       "< 500", verdict(frss_per < TargetBytes));
		missed += (frate < target) + (frss_per >= TargetBytes);
	}
	free(obuf);
	if (missed)
		printf("bench_fiberc: %d figure%s missed %s target\n", missed, missed > 1 ? "s" : "",
		       missed > 1 ? "their" : "its");
	return strict && missed ? 1 : 0;
}
