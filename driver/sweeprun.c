/* sweeprun.c: running a sweep's points, each as a child process `fibersim run ARGS --quiet --stats
 * DIR/points/NAME.json` (or the spec's `program` with ARGS) (its standard error into NAME.log), JOBS at once. After each one a record
 * DIR/points/NAME.rec (exit status, wall time, host, command, last error line) is written through
 * a temporary file and renamed: a point is done when its record says exit 0 for the same command.
 * Ctrl-C (or SIGTERM) is passed on to the children; the points it stopped get no record.
 */
#define _POSIX_C_SOURCE 200809L
#include "json.h"
#include "outfile.h"
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

enum { MaxJobs = 256 };

static const char *program = "fibersim";
static volatile sig_atomic_t stop_sig;
static volatile pid_t kids[MaxJobs];

void
sw_set_program(const char *path)
{
	program = path;
}

/* pass the signal on to every running child; they stop and are not recorded */
static void
on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
	for (int i = 0; i < MaxJobs; i++)
		if (kids[i] > 0)
			kill(kids[i], sig);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

char *
sw_point_path(const char *dir, const char *name, const char *ext)
{
	size_t n = strlen(dir) + strlen(name) + strlen(ext) + 16;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/points/%s.%s", dir, name, ext);
	return p;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap && !(b = realloc(b, cap = 2 * cap + 4096)))
			abort();
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	b[n] = 0;
	*len = n;
	return b;
}

int
sw_point_done(const Spec *s, const char *dir, size_t i)
{
	const char *nm = s->pt[i].name;
	char *rec = sw_point_path(dir, nm, "rec"), *st = sw_point_path(dir, nm, "json");
	char *cmd = spec_command(&s->pt[i]), err[128], *text;
	size_t len;
	int done = 0;
	struct stat sb;

	if ((text = slurp(rec, &len))) {
		JVal *v = json_parse(text, len, err, sizeof err);
		const char *c = json_str(json_get(v, "command"));
		done = v && json_num(json_get(v, "exit"), -1) == 0 && c && strcmp(c, cmd) == 0 &&
		       stat(st, &sb) == 0;
		json_free(v);
		free(text);
	}
	free(rec);
	free(st);
	free(cmd);
	return done;
}

/* the last non-empty line of the point's log: fibersim's error */
static char *
last_line(const char *log)
{
	size_t len;
	char *t = slurp(log, &len), *e, *b;

	if (!t)
		return NULL;
	e = t + len;
	while (e > t && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' '))
		e--;
	*e = 0;
	b = e;
	while (b > t && b[-1] != '\n')
		b--;
	if (strlen(b) > 500)
		b[500] = 0;
	memmove(t, b, strlen(b) + 1);
	if (!*t) {
		free(t);
		return NULL;
	}
	return t;
}

static int
write_record(const Spec *s, const char *dir, size_t i, int status, double secs)
{
	const char *nm = s->pt[i].name;
	char *path = sw_point_path(dir, nm, "rec"), *log = sw_point_path(dir, nm, "log");
	char *cmd = spec_command(&s->pt[i]), *msg = status ? last_line(log) : NULL, host[256] = "";
	OutFile o;
	int rc = -1;

	gethostname(host, sizeof host - 1);
	if (outfile_open(&o, path) == 0) {
		fprintf(o.fp, "{\"name\": ");
		sw_put_json_str(o.fp, s->pt[i].name);
		fprintf(o.fp, ", \"exit\": %d, \"seconds\": %.3f, \"host\": ", status, secs);
		sw_put_json_str(o.fp, host);
		fprintf(o.fp, ",\n \"command\": ");
		sw_put_json_str(o.fp, cmd);
		fprintf(o.fp, ",\n \"error\": ");
		if (msg)
			sw_put_json_str(o.fp, msg);
		else
			fputs("null", o.fp);
		fprintf(o.fp, "}\n");
		rc = outfile_commit(&o);
	}
	if (rc < 0)
		fprintf(stderr, "fibersim: error: %s: %s\n", path, strerror(errno));
	free(path);
	free(log);
	free(cmd);
	free(msg);
	return rc;
}

/* fork and exec the point's run; its pid, or -1 */
static pid_t
start(const Spec *s, const char *dir, size_t i)
{
	const SwPoint *p = &s->pt[i];
	char *log = sw_point_path(dir, p->name, "log"), *st = sw_point_path(dir, p->name, "json");
	const char **argv = malloc((p->argc + 6) * sizeof *argv);
	pid_t pid;
	size_t k = 0;

	if (!argv)
		abort();
	if (!s->nprog) {            /* else the argv starts with the `program` line's words */
		argv[k++] = program;
		argv[k++] = "run";
	}
	memcpy(argv + k, p->argv, p->argc * sizeof *argv);
	k += p->argc;
	argv[k++] = "--quiet";
	argv[k++] = "--stats";
	argv[k++] = st;
	argv[k] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), in = open("/dev/null", O_RDONLY);
		setpgid(0, 0);             /* Ctrl-C reaches the sweep, which passes it on once */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (fd < 0)
			_exit(126);
		if (in >= 0)
			dup2(in, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (s->nprog)
			execvp(argv[0], (char *const *)argv);
		else
			execv(program, (char *const *)argv);
		dprintf(2, "fibersim: error: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	free(log);
	free(st);
	free(argv);
	return pid;
}

typedef struct Progress {
	size_t total, done, failed, skipped, running;  /* points: all, finished (skipped ones too),
	                                                  failed, already done, running now */
	double t0;                 /* the sweep's start */
	int tty, show;             /* standard error is a terminal; draw anything at all */
} Progress;

static void
progress(Progress *pg, const char *name, int status, double secs)
{
	int el = (int)(now() - pg->t0);

	if (!pg->show)
		return;
	if (pg->tty)
		fprintf(stderr, "\r\033[Ksweep: %zu/%zu done (%zu failed, %zu already done), %zu running, "
		        "%d:%02d", pg->done, pg->total, pg->failed, pg->skipped, pg->running, el / 60,
		        el % 60);
	else if (name)
		fprintf(stderr, "sweep: [%zu/%zu] %s %s (%.1f s)\n", pg->done, pg->total, name,
		        status ? "FAILED" : "ok", secs);
	if (pg->tty && name && status)
		fprintf(stderr, "\r\033[Ksweep: %s failed (exit %d): see its .log\n", name, status);
}

int
sw_run_points(const Spec *s, const char *dir, const size_t *idx, size_t n, int jobs, int show)
{
	struct {
		pid_t pid;             /* the child */
		size_t i;              /* its point */
		double t0;             /* when it started */
	} run[MaxJobs];
	struct sigaction sa, old_int, old_term;
	Progress pg = {n, 0, 0, 0, 0, now(), isatty(2), show};
	size_t next = 0;
	char *pdir = sw_point_path(dir, "", "");

	pdir[strlen(pdir) - 2] = 0;    /* DIR/points */
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || (mkdir(pdir, 0777) < 0 && errno != EEXIST)) {
		fprintf(stderr, "fibersim: error: %s: %s\n", pdir, strerror(errno));
		free(pdir);
		return 1;
	}
	free(pdir);
	jobs = jobs < 1 ? 1 : jobs > MaxJobs ? MaxJobs : jobs;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;      /* no SA_RESTART: waitpid returns on the signal */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (;;) {
		while (!stop_sig && pg.running < (size_t)jobs && next < n) {
			size_t i = idx[next++];
			if (sw_point_done(s, dir, i)) {
				pg.skipped++, pg.done++;
				continue;
			}
			pid_t pid = start(s, dir, i);
			if (pid < 0) {
				fprintf(stderr, "fibersim: error: fork: %s\n", strerror(errno));
				stop_sig = SIGTERM;
				break;
			}
			for (int k = 0; k < MaxJobs; k++)
				if (kids[k] == 0) {
					run[k].pid = pid, run[k].i = i, run[k].t0 = now();
					kids[k] = pid;
					break;
				}
			pg.running++;
			if (stop_sig)         /* the signal came before the pid was known */
				kill(pid, stop_sig);
		}
		progress(&pg, NULL, 0, 0);
		if (pg.running == 0)
			break;
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int k = 0; k < MaxJobs; k++) {
			if (kids[k] != pid)
				continue;
			int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			double secs = now() - run[k].t0;
			kids[k] = 0;
			pg.running--;
			if (stop_sig && (status == 128 + stop_sig || status == 128 + SIGINT ||
			                 status == 128 + SIGTERM)) {
				char *stats = sw_point_path(dir, s->pt[run[k].i].name, "json");
				remove(stats);    /* as far as it got: not a result */
				free(stats);
				break;
			}
			pg.done++;
			pg.failed += status != 0;
			write_record(s, dir, run[k].i, status, secs);
			progress(&pg, s->pt[run[k].i].name, status, secs);
			break;
		}
	}
	if (pg.tty && show)
		fputc('\n', stderr);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (stop_sig) {
		int sig = stop_sig;
		fprintf(stderr, "sweep: interrupted: %zu of %zu points done; run the same command again "
		        "to resume\n", pg.done, pg.total);
		stop_sig = 0;
		return 128 + sig;
	}
	return pg.failed ? 3 : 0;
}
