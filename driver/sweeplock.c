/* sweeplock.c: one writer at a time in a sweep's folder. DIR/sweep.lock is held with a POSIX
 * record lock (fcntl) for as long as a sweep writes there: exclusively by a local run and by a
 * Slurm submission, shared by a Slurm job's array tasks and by --collect. The kernel drops the
 * lock when its holder dies, so a crash leaves no stale lock; the holder's pid, host, start and
 * command are in the file, which a clean exit empties (non-empty and unlocked: a crash).
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

/* the holder's line (read from fd) into buf, without its newline; "" if none */
static void
holder(int fd, char *buf, size_t n)
{
	ssize_t got = pread(fd, buf, n - 1, 0);

	buf[got > 0 ? got : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

int
sw_lock(const char *dir, int shared, const char *what)
{
	size_t n = strlen(dir) + 16;
	char *path = malloc(n), line[600], host[256] = "", when[32] = "";
	struct flock fl;
	time_t now = time(NULL);
	struct tm tm;
	int fd;

	if (!path)
		abort();
	snprintf(path, n, "%s/sweep.lock", dir);
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) ||
	    (fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		fprintf(stderr, "fibersim: error: %s: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	memset(&fl, 0, sizeof fl);
	fl.l_type = shared ? F_RDLCK : F_WRLCK;
	fl.l_whence = SEEK_SET;        /* l_start 0, l_len 0: the whole file */
	if (fcntl(fd, F_SETLK, &fl) < 0) {
		if (errno == EACCES || errno == EAGAIN) {
			holder(fd, line, sizeof line);
			fprintf(stderr, "fibersim: error: %s is in use by another sweep (%s); wait for it to "
			        "end, or give this one another -o DIR\n", dir, *line ? line :
			        "a Slurm task or --collect");
			close(fd);
			free(path);
			return -1;
		}
		/* a file system without record locks: go on unprotected, and say so */
		fprintf(stderr, "sweep: warning: %s: cannot lock (%s): nothing keeps a second sweep out "
		        "of %s\n", path, strerror(errno), dir);
		free(path);
		return fd;
	}
	holder(fd, line, sizeof line);
	if (*line && !shared)
		fprintf(stderr, "sweep: %s: the sweep that held it ended without releasing it (%s); its "
		        "unfinished points run again\n", path, line);
	if (!shared) {
		gethostname(host, sizeof host - 1);
		if (localtime_r(&now, &tm))
			strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
		snprintf(line, sizeof line, "pid %ld on %s since %s: %s\n", (long)getpid(), host, when,
		         what);
		if (ftruncate(fd, 0) < 0 || pwrite(fd, line, strlen(line), 0) < 0)
			fprintf(stderr, "sweep: warning: %s: %s\n", path, strerror(errno));
	}
	free(path);
	return fd;
}

void
sw_unlock(int fd, int shared)
{
	if (fd < 0)
		return;
	if (!shared && ftruncate(fd, 0) < 0)
		fprintf(stderr, "sweep: warning: sweep.lock: %s\n", strerror(errno));
	close(fd);                     /* drops the lock */
}
