/* sweepslurm.c: a sweep on a Slurm cluster. --slurm writes the points not yet done into
 * DIR/slurm/pending.txt and a batch script DIR/slurm/job.sh, and submits it with sbatch as a job
 * array of one task per CHUNK points; each task runs `fibersim sweep SPEC -o DIR --task I --chunk
 * N`, which runs its points as the local runner does, into the same shared DIR. --wait polls
 * squeue until the job has left the queue; --collect (sweepcmd.c) then reads the records.
 */
#define _XOPEN_SOURCE 700
#include "outfile.h"
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* run argv (searched on PATH) with its standard output into out[0..n); its exit status, or -1 */
static int
capture(const char *const *argv, char *out, size_t n)
{
	int fd[2], st;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 1);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "fibersim: error: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while ((got = read(fd[0], out + len, n - 1 - len)) > 0 || (got < 0 && errno == EINTR))
		if (got > 0 && (len += (size_t)got) + 1 >= n)
			break;
	out[len] = 0;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* s in single quotes for sh */
static void
sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		fputs(*s == '\'' ? "'\\''" : (char[2]){*s, 0}, f);
	fputc('\'', f);
}

static char *
slurm_path(const char *dir, const char *file)
{
	size_t n = strlen(dir) + strlen(file) + 8;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/slurm/%s", dir, file);
	return p;
}

static int
write_job(const char *path, const char *self, const char *spec, const char *dir, unsigned chunk)
{
	OutFile o;

	if (outfile_open(&o, path) < 0)
		return -1;
	fputs("#!/bin/sh\n# written by fibersim sweep --slurm: array task $SLURM_ARRAY_TASK_ID runs its "
	      "chunk of\n# pending.txt beside this file into the shared results folder\n", o.fp);
	fprintf(o.fp, "#SBATCH --output=%s/slurm/task-%%A_%%a.out\n", dir);
	fputs("exec ", o.fp);
	sh_quote(o.fp, self);
	fputs(" sweep ", o.fp);
	sh_quote(o.fp, spec);
	fputs(" -o ", o.fp);
	sh_quote(o.fp, dir);
	fprintf(o.fp, " --task \"$SLURM_ARRAY_TASK_ID\" --chunk %u\n", chunk);
	if (outfile_commit(&o) < 0)
		return -1;
	return chmod(path, 0755);
}

/* how many of job id's array tasks squeue lists (0: gone, or no squeue) */
static int
queued_tasks(const char *id)
{
	const char *argv[] = {"squeue", "-h", "-j", id, "-o", "%i", NULL};
	char out[4096];
	int n = 0;

	if (capture(argv, out, sizeof out) != 0)
		return 0;                  /* squeue refuses a job it forgot */
	for (char *p = out; *p; p++)
		n += *p == '\n';
	return n;
}

/* DIR/slurm/jobid into id; 0, or -1 (errno set) */
static int
read_jobid(const char *dir, char *id, size_t n)
{
	char *path = slurm_path(dir, "jobid");
	FILE *f = fopen(path, "r");
	int rc = f && fgets(id, (int)n, f) ? 0 : -1;

	if (f && rc < 0)
		errno = EINVAL;            /* empty */
	if (f)
		fclose(f);
	free(path);
	if (rc == 0)
		id[strcspn(id, "\n")] = 0;
	return rc;
}

int
sw_slurm_queued(const char *dir, char *id, size_t n)
{
	return read_jobid(dir, id, n) == 0 && *id && queued_tasks(id) > 0;
}

int
sw_slurm_submit(const Spec *s, const char *spec_path, const char *dir, const SlurmOpts *o,
                const char *what)
{
	char spec[PATH_MAX], adir[PATH_MAX], self[PATH_MAX], cwd[PATH_MAX], out[256];
	char *pending = slurm_path(dir, "pending.txt"), *job = slurm_path(dir, "job.sh");
	char *jobid = slurm_path(dir, "jobid"), *sdir = slurm_path(dir, "");
	size_t np = 0;
	ssize_t sl;
	OutFile f;
	int rc = 1, lk = -2;

	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || (mkdir(sdir, 0777) < 0 && errno != EEXIST) ||
	    !realpath(spec_path, spec) || !realpath(dir, adir) || !getcwd(cwd, sizeof cwd)) {
		fprintf(stderr, "fibersim: error: %s: %s\n", dir, strerror(errno));
		goto out;
	}
	/* the lock while pending.txt and job.sh are written, dropped before sbatch (its tasks take
	 * it shared); a job of this DIR still queued would run the same points */
	if ((lk = sw_lock(dir, 0, what)) < 0)
		goto out;
	if (sw_slurm_queued(dir, out, sizeof out)) {
		fprintf(stderr, "fibersim: error: job %s of %s is still in the queue: wait for it "
		        "(--collect --wait) or cancel it (scancel %s) first\n", out, dir, out);
		goto out;
	}
	if ((sl = readlink("/proc/self/exe", self, sizeof self - 1)) < 0) {
		fprintf(stderr, "fibersim: error: cannot find the fibersim binary: %s\n", strerror(errno));
		goto out;
	}
	self[sl] = 0;
	if (outfile_open(&f, pending) < 0)
		goto io;
	for (size_t i = 0; i < s->npt; i++)
		if (!sw_point_done(s, dir, i)) {
			fprintf(f.fp, "%s\n", s->pt[i].name);
			np++;
		}
	if (outfile_commit(&f) < 0 || write_job(job, self, spec, adir, o->chunk) < 0)
		goto io;
	sw_unlock(lk, 0);
	lk = -2;
	if (np == 0) {
		fprintf(stderr, "sweep: every point of %s is done: nothing to submit\n", spec_path);
		remove(jobid);
		rc = 0;
		goto out;
	}
	{
		char array[64], chdir[PATH_MAX + 16], part[300], tim[300], acc[300];
		const char *argv[16 + 64];
		size_t n = 0, tasks = (np + o->chunk - 1) / o->chunk;
		snprintf(array, sizeof array, "--array=0-%zu", tasks - 1);
		snprintf(chdir, sizeof chdir, "--chdir=%s", cwd);
		argv[n++] = "sbatch";
		argv[n++] = "--parsable";
		argv[n++] = array;
		argv[n++] = chdir;
		argv[n++] = "--job-name=fibersim-sweep";
		if (o->partition && snprintf(part, sizeof part, "--partition=%s", o->partition) > 0)
			argv[n++] = part;
		if (o->time && snprintf(tim, sizeof tim, "--time=%s", o->time) > 0)
			argv[n++] = tim;
		if (o->account && snprintf(acc, sizeof acc, "--account=%s", o->account) > 0)
			argv[n++] = acc;
		for (size_t k = 0; k < o->nextra && n < 16 + 62; k++)
			argv[n++] = o->extra[k];
		argv[n++] = job;
		argv[n] = NULL;
		int st = capture(argv, out, sizeof out);
		out[strcspn(out, ";\n")] = 0;
		if (st != 0 || !*out) {
			fprintf(stderr, "fibersim: error: sbatch failed (exit %d)%s%s\n", st, *out ? ": " : "",
			        out);
			goto out;
		}
		if (outfile_open(&f, jobid) < 0)
			goto io;
		fprintf(f.fp, "%s\n", out);
		if (outfile_commit(&f) < 0)
			goto io;
		fprintf(stderr, "sweep: submitted job %s: %zu array tasks for %zu points (%zu done "
		        "already); results into %s\n", out, tasks, np, s->npt - np, adir);
		rc = 0;
		goto out;
	}
io:
	fprintf(stderr, "fibersim: error: %s: %s\n", sdir, strerror(errno));
out:
	if (lk >= 0)
		sw_unlock(lk, 0);
	free(pending);
	free(job);
	free(jobid);
	free(sdir);
	return rc;
}

int
sw_slurm_task(const Spec *s, const char *dir, unsigned task, unsigned chunk)
{
	char *pending = slurm_path(dir, "pending.txt"), line[512];
	FILE *f = fopen(pending, "r");
	size_t *idx = malloc((chunk ? chunk : 1) * sizeof *idx), n = 0, k = 0;
	const char *cpus = getenv("SLURM_CPUS_PER_TASK");
	int rc;

	if (!f || !idx) {
		fprintf(stderr, "fibersim: error: %s: %s\n", pending, strerror(errno));
		free(pending);
		free(idx);
		return 1;
	}
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (k++ / chunk != task)
			continue;
		long i = spec_find(s, line);
		if (i < 0) {
			fprintf(stderr, "fibersim: error: %s: point '%s' is not in the spec (changed since "
			        "the submission?)\n", pending, line);
			fclose(f);
			free(pending);
			free(idx);
			return 1;
		}
		idx[n++] = (size_t)i;
	}
	fclose(f);
	free(pending);
	fprintf(stderr, "sweep: task %u: %zu points\n", task, n);
	rc = sw_run_points(s, dir, idx, n, cpus ? atoi(cpus) : 1, 1);
	free(idx);
	return rc;
}

int
sw_slurm_wait(const char *dir, unsigned poll)
{
	char id[64];
	int last = -1, n;

	if (read_jobid(dir, id, sizeof id) < 0) {
		int e = errno;
		char *path = slurm_path(dir, "jobid");
		if (e == ENOENT)           /* nothing was submitted: every point was done */
			fprintf(stderr, "sweep: no job to wait for (%s: none submitted)\n", path);
		else
			fprintf(stderr, "fibersim: error: %s: no submitted job (%s)\n", path,
			        e == EINVAL ? "empty" : strerror(e));
		free(path);
		return e == ENOENT ? 0 : 1;
	}
	while ((n = queued_tasks(id)) > 0) {
		if (n != last)
			fprintf(stderr, "sweep: job %s: %d array tasks pending or running\n", id, n);
		last = n;
		sleep(poll);
	}
	fprintf(stderr, "sweep: job %s has left the queue\n", id);
	return 0;
}
