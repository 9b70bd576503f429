/* sweepcmd.c: the command line of `fibersim sweep` (docs/sweep.md): read the spec, then run its
 * points locally (-j N), list them (--list), submit them to Slurm (--slurm), run one array task
 * (--task, what the batch script calls), wait for the job (--wait) and collect (--collect); every
 * way but --list and --task ends by writing results.csv, results.json and report.html.
 * Exit status: 0 every point ok, 1 bad input, 2 usage, 3 a point failed or has no result, 128 +
 * the signal when interrupted.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MaxExtra = 32, MaxSpecBytes = 16 << 20 };

static void
sweep_usage(FILE *f)
{
	fputs("usage: fibersim sweep SPEC -o DIR [-j N] [--quiet]          run the points here\n"
	      "       fibersim sweep SPEC -o DIR --list                   the points and commands\n"
	      "       fibersim sweep SPEC -o DIR --slurm [--partition P] [--time T] [--account A]\n"
	      "                 [--chunk N] [--sbatch-arg ARG]... [--wait [--poll S]]\n"
	      "       fibersim sweep SPEC -o DIR --collect [--wait [--poll S]]\n"
	      "\n"
	      "Run fibersim once per point of the spec file SPEC (docs/sweep.md) and write\n"
	      "DIR/results.csv, DIR/results.json and DIR/report.html; each point's statistics, log\n"
	      "and record are in DIR/points/. Points already done (same command, exit 0) are skipped:\n"
	      "run the same command again to resume after Ctrl-C or a failure.\n"
	      "\n"
	      "  -o DIR            the results folder (shared by the cluster's nodes with --slurm)\n"
	      "  -j N              points run at once (default: the cores)\n"
	      "  --quiet           no progress lines\n"
	      "  --list            print each point's name and fibersim run command; run nothing\n"
	      "  --slurm           submit the points not done as a Slurm job array (sbatch)\n"
	      "  --partition P, --time T, --account A   sbatch's options of those names\n"
	      "  --chunk N         points per array task (default 1)\n"
	      "  --sbatch-arg ARG  one more sbatch argument, as it is (repeatable)\n"
	      "  --collect         write the results of the points done so far\n"
	      "  --wait            (with --slurm or --collect) poll squeue until the job is gone, then\n"
	      "                    collect\n"
	      "  --poll S          seconds between squeue polls (default 10)\n"
	      "\n"
	      "exit status: 0 every point ok, 1 bad input, 2 usage error, 3 a point failed or has no\n"
	      "             result yet, 130 interrupted (Ctrl-C)\n", f);
}

static char *
read_spec(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;

	if (!f)
		return NULL;
	if (!(b = malloc(MaxSpecBytes + 1)))
		abort();
	*len = fread(b, 1, MaxSpecBytes + 1, f);
	if (ferror(f) || *len > MaxSpecBytes) {
		if (!ferror(f))
			errno = EFBIG;
		fclose(f);
		free(b);
		return NULL;
	}
	fclose(f);
	b[*len] = 0;
	return b;
}

typedef struct SweepArgs {
	const char *spec, *dir;    /* SPEC, -o DIR */
	int jobs;                  /* -j N, 0: the cores */
	int quiet, list, slurm, collect, wait;  /* the flags of those names */
	long task;                 /* --task I, -1 none */
	SlurmOpts so;              /* --slurm's options, --chunk, --poll */
	const char *extra[MaxExtra];  /* --sbatch-arg words */
} SweepArgs;

/* an unsigned option value in [lo, hi]; -1 after a message */
static long
number(const char *opt, const char *v, long lo, long hi)
{
	char *e;
	long n;

	errno = 0;
	n = v ? strtol(v, &e, 10) : 0;
	if (!v || !*v || *e || errno || n < lo || n > hi) {
		fprintf(stderr, "fibersim: error: %s needs a number from %ld to %ld\n", opt, lo, hi);
		return -1;
	}
	return n;
}

/* 0, 1 for --help, -1 after a message */
static int
parse(int argc, char **argv, SweepArgs *a)
{
	long v;

	memset(a, 0, sizeof *a);
	a->task = -1;
	a->so.chunk = 1;
	a->so.poll = 10;
	a->so.extra = a->extra;
	for (int i = 0; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0)
			return 1;
		else if (strcmp(o, "--quiet") == 0)
			a->quiet = 1;
		else if (strcmp(o, "--list") == 0)
			a->list = 1;
		else if (strcmp(o, "--slurm") == 0)
			a->slurm = 1;
		else if (strcmp(o, "--collect") == 0)
			a->collect = 1;
		else if (strcmp(o, "--wait") == 0)
			a->wait = 1;
		else if (o[0] != '-' && !a->spec)
			a->spec = o;
		else if (strncmp(o, "-j", 2) == 0 && o[2]) {   /* -jN, as make takes it */
			if ((v = number("-j", o + 2, 1, 256)) < 0)
				return -1;
			a->jobs = (int)v;
		}
		else if (!val) {
			fprintf(stderr, "fibersim: error: unknown option or missing value: '%s'\n", o);
			return -1;
		} else {
			i++;
			if (strcmp(o, "-o") == 0)
				a->dir = val;
			else if (strcmp(o, "-j") == 0 && (v = number(o, val, 1, 256)) > 0)
				a->jobs = (int)v;
			else if (strcmp(o, "--chunk") == 0 && (v = number(o, val, 1, 100000)) > 0)
				a->so.chunk = (unsigned)v;
			else if (strcmp(o, "--poll") == 0 && (v = number(o, val, 1, 3600)) > 0)
				a->so.poll = (unsigned)v;
			else if (strcmp(o, "--task") == 0 && (v = number(o, val, 0, 10000000)) >= 0)
				a->task = v;
			else if (strcmp(o, "--partition") == 0)
				a->so.partition = val;
			else if (strcmp(o, "--time") == 0)
				a->so.time = val;
			else if (strcmp(o, "--account") == 0)
				a->so.account = val;
			else if (strcmp(o, "--sbatch-arg") == 0 && a->so.nextra < MaxExtra)
				a->extra[a->so.nextra++] = val;
			else {
				if (strcmp(o, "-j") && strcmp(o, "--chunk") && strcmp(o, "--poll") &&
				    strcmp(o, "--task"))
					fprintf(stderr, "fibersim: error: unknown option '%s'\n", o);
				return -1;
			}
		}
	}
	if (!a->spec || !a->dir) {
		fprintf(stderr, "fibersim: error: sweep needs SPEC and -o DIR\n");
		return -1;
	}
	if (a->slurm + a->collect + a->list + (a->task >= 0) > 1 ||
	    (a->wait && !a->slurm && !a->collect)) {
		fprintf(stderr, "fibersim: error: --slurm, --collect, --list and --task are separate "
		        "ways; --wait goes with --slurm or --collect\n");
		return -1;
	}
	return 0;
}

/* results.csv, results.json, report.html; 0 every point ok, 3 not, 1 an error */
static int
collect(const Spec *s, const char *dir, int quiet)
{
	SwResult *r = calloc(s->npt ? s->npt : 1, sizeof *r);
	char err[512];
	size_t ok = 0, failed = 0;
	int rc;

	if (!r)
		abort();
	sw_load_results(s, dir, r);
	for (size_t i = 0; i < s->npt; i++) {
		ok += r[i].status == SwOk;
		failed += r[i].status == SwFailed;
	}
	if (sw_write_tables(s, dir, r, err, sizeof err) < 0 ||
	    sw_write_report(s, dir, r, err, sizeof err) < 0) {
		fprintf(stderr, "fibersim: error: %s\n", err);
		rc = 1;
	} else {
		if (!quiet || ok < s->npt)
			fprintf(stderr, "sweep: %zu points: %zu ok, %zu failed, %zu not run; %s/report.html\n",
			        s->npt, ok, failed, s->npt - ok - failed, dir);
		rc = ok == s->npt ? 0 : 3;
	}
	sw_free_results(r, s->npt);
	free(r);
	return rc;
}

static void
list(const Spec *s)
{
	for (size_t i = 0; i < s->npt; i++) {
		char *c = spec_command(&s->pt[i]);
		printf("%s\t%s%s\n", s->pt[i].name, s->nprog ? "" : "fibersim run ", c);
		free(c);
	}
}

static int
run_local(const Spec *s, const SweepArgs *a, const char *what)
{
	size_t *idx;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int rc, crc, lk = sw_lock(a->dir, 0, what);
	char id[64];

	if (lk < 0)
		return 1;
	if (sw_slurm_queued(a->dir, id, sizeof id)) {
		fprintf(stderr, "fibersim: error: job %s of %s is still in the queue: wait for it "
		        "(--collect --wait) or cancel it (scancel %s) first\n", id, a->dir, id);
		sw_unlock(lk, 0);
		return 1;
	}
	if (!(idx = malloc((s->npt ? s->npt : 1) * sizeof *idx)))
		abort();
	for (size_t i = 0; i < s->npt; i++)
		idx[i] = i;
	rc = sw_run_points(s, a->dir, idx, s->npt, a->jobs ? a->jobs : cores > 0 ? (int)cores : 1,
	                   !a->quiet);
	free(idx);
	crc = rc == 1 ? 1 : collect(s, a->dir, a->quiet);  /* also after Ctrl-C: what is done */
	sw_unlock(lk, 0);
	return rc ? rc : crc;
}

int
sweep_command(int argc, char **argv)
{
	SweepArgs a;
	Spec s;
	char *text, err[4096], self[PATH_MAX], what[PATH_MAX + 64];
	size_t len;
	ssize_t sl;
	int rc = parse(argc, argv, &a), lk = -1;

	if (rc) {
		if (rc > 0)
			sweep_usage(stdout);
		else
			fputs("fibersim: try 'fibersim sweep --help'\n", stderr);
		return rc > 0 ? 0 : 2;
	}
	if (!(text = read_spec(a.spec, &len))) {
		fprintf(stderr, "fibersim: error: %s: %s\n", a.spec, strerror(errno));
		return 1;
	}
	rc = spec_parse(a.spec, text, len, &s, err, sizeof err);
	free(text);
	if (rc < 0) {
		fputs(err, stderr);
		return 1;
	}
	if ((sl = readlink("/proc/self/exe", self, sizeof self - 1)) > 0) {
		self[sl] = 0;
		sw_set_program(self);
	}
	snprintf(what, sizeof what, "fibersim sweep %s -o %s%s", a.spec, a.dir,
	         a.slurm ? " --slurm" : "");
	if (a.list) {
		list(&s);
		rc = 0;
	} else if (a.task >= 0) {
		rc = (lk = sw_lock(a.dir, 1, what)) < 0 ? 1 :
		     sw_slurm_task(&s, a.dir, (unsigned)a.task, a.so.chunk);
		sw_unlock(lk, 1);
	} else if (a.slurm || a.collect) {
		rc = a.slurm ? sw_slurm_submit(&s, a.spec, a.dir, &a.so, what) : 0;
		if (rc == 0 && a.wait)
			rc = sw_slurm_wait(a.dir, a.so.poll);
		if (rc == 0 && (a.collect || a.wait))
			rc = (lk = sw_lock(a.dir, 1, what)) < 0 ? 1 : collect(&s, a.dir, a.quiet);
		sw_unlock(lk, 1);
	} else
		rc = run_local(&s, &a, what);
	spec_free(&s);
	return rc;
}
