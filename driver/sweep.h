/* sweep.h: `fibersim sweep`, many runs of fibersim from one spec file (docs/sweep.md). The spec
 * reader (sweepspec.c) turns the text into a Spec and the Spec into points, each a fibersim run
 * command line; the runner (sweeprun.c) runs them as child processes, locally or as a Slurm
 * array task (sweepslurm.c), one record per point; the writers read the records back into
 * results.csv, results.json (sweepout.c) and report.html (sweephtml.c). Private to the driver.
 */
#ifndef FIBER_SWEEP_H
#define FIBER_SWEEP_H

#include <stddef.h>
#include <stdio.h>

typedef struct SwWord SwWord;
typedef struct SwLine SwLine;
typedef struct SwAxis SwAxis;
typedef struct SwPoint SwPoint;
typedef struct Spec Spec;
typedef struct SwResult SwResult;

enum {
	SwMaxPoints = 100000,      /* points of one sweep (a cross product grows fast) */
	SwMaxWords = 4096,         /* words of one logical line */
	SwMaxErrors = 20,          /* diagnostics of one spec before the reader gives up */
};

/* a word of a spec line, where it starts (for a located error) */
struct SwWord {
	char *text;                /* unquoted */
	int line, col;             /* 1-based */
};

/* a `workload` or `config` line: a name and the words that go onto fibersim's command line */
struct SwLine {
	char *name;                /* the workload's or configuration's name */
	SwWord *w;                 /* workload: FILE ARG...; config: ARG... (after its variables) */
	size_t n;                  /* how many */
	char **var, **val;         /* its VAR=VALUE variables, in order */
	size_t nvar;               /* how many */
	int line;                  /* where it was written */
};

/* a `param` (a ${NAME} substitution) or a `set` (a --set KEY=VALUE) axis and its values */
struct SwAxis {
	char *name;                /* the param's name or the configuration key */
	char **val;                /* its values, the first the reference (sensitivity bands) */
	size_t n;                  /* how many */
	int is_set;                /* 1 a `set` line, 0 a `param` line */
	int line;                  /* where it was written */
};

/* one run: its name, what it is made of, and its fibersim run arguments (without the binary and
 * without --stats, --quiet, which the runner adds), or with a `program` line that program's
 * words followed by those arguments */
struct SwPoint {
	char *name;                /* unique; its files are DIR/points/NAME.* */
	size_t workload, config;   /* index into Spec.wl, Spec.cfg */
	char **aval;               /* the value of each axis (Spec.ax order) */
	char **argv;               /* FILE ARG... */
	size_t argc;               /* how many */
};

struct Spec {
	char *path;                /* the spec file */
	char *title;               /* `sweep NAME`, or the file's base name */
	char *baseline;            /* `baseline NAME`: a configuration or a point; NULL: the first
	                              configuration */
	SwLine *wl, *cfg;          /* workloads, configurations */
	size_t nwl, ncfg;          /* how many of each */
	SwAxis *ax;                /* params and sets, in the order written */
	size_t nax;                /* how many */
	SwPoint *pt;               /* the points: listed ones, or else the cross product */
	size_t npt;                /* how many */
	int listed;                /* 1: the points came from `point` lines */
	char **prog;               /* `program WORD...`: what each point runs instead of `fibersim
	                              run` (then each point's argv starts with these words) */
	size_t nprog;              /* how many (0: fibersim run) */
};

/* sweepspec.c: read the spec text (name: for diagnostics) and expand its points. 0, or -1 with
 * the located diagnostics ("FILE:LINE:COL: error: ...", one a line) in err */
int spec_parse(const char *name, const char *text, size_t len, Spec *s, char *err, size_t n);
void spec_free(Spec *s);
/* the point named name, or -1 */
long spec_find(const Spec *s, const char *name);
/* the point's command line, words joined by spaces, shell-quoted where needed (malloc'd) */
char *spec_command(const SwPoint *p);

/* a point's outcome, from its record and statistics (sweepout.c) */
enum SwStatus {
	SwMissing,                 /* no record: not run yet (or its Slurm task has not run) */
	SwOk,                      /* fibersim exited 0 */
	SwFailed,                  /* fibersim exited non-zero or was killed */
};

/* one flattened statistic: "kernels.0.cycles" and its text as it goes into the CSV */
typedef struct SwStat {
	char *key;                 /* dotted path */
	char *val;                 /* a number as written, a string unquoted; "" null */
	double num;                /* the number, or 0 */
	int is_num;                /* 1 a JSON number */
} SwStat;

struct SwResult {
	int status;                /* SwStatus */
	int exit;                  /* fibersim's exit status; 128 + N killed by signal N */
	double seconds;            /* wall time of the run */
	char *error;               /* the last line fibersim wrote on standard error, or NULL */
	char *host;                /* where it ran */
	SwStat *st;                /* the flattened statistics, in the file's order */
	size_t nst;                /* how many */
};

/* sweepout.c: s written as a JSON string (NULL: "") */
void sw_put_json_str(FILE *f, const char *s);

/* sweeprun.c: the fibersim binary the points run (default "fibersim", found on PATH) */
void sw_set_program(const char *path);
/* where a point's files go (DIR/points/NAME.EXT) */
char *sw_point_path(const char *dir, const char *name, const char *ext);
/* run the points idx[0..n) with jobs child processes at once, skipping those already done;
 * progress: draw a progress line on standard error. 0 every point ok, 3 one or more failed,
 * 130 interrupted (the rest stays to be resumed), 1 an error (message on standard error) */
int sw_run_points(const Spec *s, const char *dir, const size_t *idx, size_t n, int jobs,
                  int progress);
/* the point is done: its record says exit 0 for the same command, and its statistics exist */
int sw_point_done(const Spec *s, const char *dir, size_t i);

/* sweepout.c: read every point's record and statistics; results.csv and results.json into dir.
 * 0, or -1 with a message in err */
int sw_load_results(const Spec *s, const char *dir, SwResult *r);
void sw_free_results(SwResult *r, size_t n);
const SwStat *sw_stat(const SwResult *r, const char *key);
int sw_write_tables(const Spec *s, const char *dir, const SwResult *r, char *err, size_t n);
/* the statistic a number names as the run's length: "cycles", or NaN when missing */
double sw_cycles(const SwResult *r);

/* sweephtml.c: report.html into dir */
int sw_write_report(const Spec *s, const char *dir, const SwResult *r, char *err, size_t n);
/* the index of point i's baseline point, or -1 (none run, or the point is its own) */
long sw_baseline_of(const Spec *s, size_t i);
/* the baseline's cycles over point i's (1 for a baseline point), NaN without both */
double sw_speedup(const Spec *s, const SwResult *r, size_t i);

/* sweepslurm.c */
typedef struct SlurmOpts {
	const char *partition, *time, *account;  /* sbatch options, NULL: the cluster's default */
	const char **extra;        /* --sbatch-arg words, passed on as they are */
	size_t nextra;             /* how many */
	unsigned chunk;            /* points per array task */
	unsigned poll;             /* --wait: seconds between squeue polls */
} SlurmOpts;
/* write DIR/slurm/job.sh and pending.txt (holding DIR's lock; what: for sw_lock) and submit with
 * sbatch; 0 or an exit status */
int sw_slurm_submit(const Spec *s, const char *spec_path, const char *dir, const SlurmOpts *o,
                    const char *what);
/* array task task of a submission: run its chunk of pending.txt; 0, 3 or an exit status */
int sw_slurm_task(const Spec *s, const char *dir, unsigned task, unsigned chunk);
/* --wait: poll squeue until the submitted job has left it; 0, or 1 with a message printed */
int sw_slurm_wait(const char *dir, unsigned poll);

/* sweeplock.c: hold DIR/sweep.lock, exclusively (a local run, a submission) or shared (array
 * tasks, --collect); what: the holder's command, which a sweep refused names. A descriptor for
 * sw_unlock, or -1 after a message (another sweep holds it) */
int sw_lock(const char *dir, int shared, const char *what);
void sw_unlock(int fd, int shared);
/* sweepslurm.c: 1 with the job id in id while DIR's submitted job is still in Slurm's queue */
int sw_slurm_queued(const char *dir, char *id, size_t n);

/* sweepcmd.c: `fibersim sweep ...` (argv after the command word); its exit status */
int sweep_command(int argc, char **argv);

#endif /* FIBER_SWEEP_H */
