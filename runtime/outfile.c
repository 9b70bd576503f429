/* outfile.c: output files through a temporary file in the same folder, renamed on success
 * (outfile.h). Never removes what it did not create: the target is only ever replaced by
 * rename(), and only when it is a regular file (or does not exist yet); anything else is written
 * in place. The temporary files still open are listed for outfile_cleanup_signal.
 */
#define _XOPEN_SOURCE 700
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MaxLive = 16, MaxTries = 100 };

/* the temporary files open now, for the signal handler; a slot is claimed by a non-NULL value */
static _Atomic(char *) live[MaxLive];
static atomic_uint counter;

static int
claim(char *tmp)
{
	for (int k = 0; k < MaxLive; k++) {
		char *expect = NULL;
		if (atomic_compare_exchange_strong(&live[k], &expect, tmp))
			return k;
	}
	return -1;      /* more than MaxLive at once: not cleaned up on a signal, still correct */
}

static void
release(OutFile *o)
{
	if (o->slot >= 0)
		atomic_store(&live[o->slot], NULL);
	o->slot = -1;
}

void
outfile_cleanup_signal(void)
{
	for (int k = 0; k < MaxLive; k++) {
		char *t = atomic_exchange(&live[k], NULL);
		if (t)
			unlink(t);
	}
}

/* paths that name the process's own descriptors or devices: written in place */
static int
special_path(const char *p)
{
	return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

/* "DIR/.BASE.N.tmp" beside dest, created exclusively (mode 0666 less the umask, as fopen's) */
static int
make_temp(OutFile *o, const struct stat *old)
{
	const char *slash = strrchr(o->dest, '/');
	size_t dlen = slash ? (size_t)(slash - o->dest) + 1 : 0, n = strlen(o->dest) + 48;
	const char *base = o->dest + dlen;
	int fd = -1;

	if (!(o->tmp = malloc(n)))
		return -1;
	for (int t = 0; t < MaxTries && fd < 0; t++) {
		snprintf(o->tmp, n, "%.*s.%s.%ld.%u.tmp", (int)dlen, o->dest, base, (long)getpid(),
		         atomic_fetch_add(&counter, 1));
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		errno = e;
		return -1;
	}
	o->slot = claim(o->tmp);
	if (old)
		(void)fchmod(fd, old->st_mode & 07777);     /* a replaced file keeps its permissions */
	if (!(o->fp = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		outfile_abort(o);
		errno = e;
		return -1;
	}
	return 0;
}

int
outfile_open(OutFile *o, const char *path)
{
	struct stat st;
	int exists;

	memset(o, 0, sizeof *o);
	o->slot = -1;
	if (!path || !*path) {
		errno = ENOENT;
		return -1;
	}
	exists = stat(path, &st) == 0;
	if (special_path(path) || (exists && !S_ISREG(st.st_mode)) ||
	    (!exists && lstat(path, &st) == 0)) {
		/* a device, FIFO, /dev/stdout, or a link to nothing yet: in place, never removed */
		if (exists && S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		return (o->fp = fopen(path, "w")) ? 0 : -1;
	}
	/* a regular file through links: replace the file the links lead to, keep the links */
	o->dest = exists ? realpath(path, NULL) : NULL;
	if (!o->dest && !(o->dest = strdup(path)))
		return -1;
	if (make_temp(o, exists ? &st : NULL) == 0)
		return 0;
	if (exists && (errno == EACCES || errno == EROFS) && access(path, W_OK) == 0) {
		/* a writable file in a folder we cannot write: in place, as there is no other way */
		free(o->dest);
		o->dest = NULL;
		return (o->fp = fopen(path, "w")) ? 0 : -1;
	}
	{
		int e = errno;
		free(o->dest);
		o->dest = NULL;
		errno = e;
	}
	return -1;
}

int
outfile_flush(OutFile *o)
{
	if (o->fp && (fflush(o->fp) != 0 || ferror(o->fp))) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

int
outfile_commit(OutFile *o)
{
	int failed = 0, e = 0;

	if (!o->fp)
		return 0;
	if (fflush(o->fp) != 0 || ferror(o->fp)) {
		failed = 1;
		e = errno ? errno : EIO;
	}
	if (fclose(o->fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->fp = NULL;
	if (!failed && o->tmp && rename(o->tmp, o->dest) != 0) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		outfile_abort(o);
		errno = e;
		return -1;
	}
	release(o);
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
	return 0;
}

void
outfile_abort(OutFile *o)
{
	if (o->fp)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp)
		unlink(o->tmp);
	release(o);
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
}
