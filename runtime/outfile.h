/* outfile.h: output files that a failed run never destroys (outfile.c). Private to the tree: used
 * by fiberc, fibersim and the runtime's writers (stats.c, trace.c); not installed.
 *
 * A regular file (or a new one) is written to a temporary file in the same folder and renamed
 * onto the target by outfile_commit, so that the target is either the complete new output or, on
 * any error, exactly what it was before. A symbolic link to a regular file keeps the link: the
 * file it points to is replaced. A target that is not a regular file (a character device such as
 * /dev/full or a terminal, a FIFO, a socket) or a path under /dev/ or /proc/ (/dev/stdout,
 * /dev/fd/N, which may point at the shell's redirection) is written directly and never removed.
 *
 *   OutFile o;
 *   if (outfile_open(&o, path) < 0) ... strerror(errno)
 *   fprintf(o.fp, ...);
 *   if (outfile_commit(&o) < 0) ... strerror(errno)      (or outfile_abort(&o) on an error)
 */
#ifndef FIBER_OUTFILE_H
#define FIBER_OUTFILE_H

#include <stdio.h>

typedef struct OutFile {
	FILE *fp;                  /* write the output here */
	char *dest;                /* the file the temporary one replaces; NULL when direct */
	char *tmp;                 /* the temporary file beside dest; NULL when direct */
	int slot;                  /* entry of tmp in the signal clean-up list, -1 none */
} OutFile;

/* 0, or -1 with errno set (nothing was created then) */
int outfile_open(OutFile *o, const char *path);
/* flush: 0, or -1 with errno set (a full disk or device shows here for a direct target); lets
 * a program that writes several files check them all before it commits any */
int outfile_flush(OutFile *o);
/* flush and close (both checked), then rename the temporary file onto the target: 0, or -1
 * with errno set and the target untouched (for a regular file). The temporary file is gone
 * either way. */
int outfile_commit(OutFile *o);
/* close and remove the temporary file; the target is untouched. Harmless on a closed OutFile. */
void outfile_abort(OutFile *o);
/* async-signal-safe: remove every temporary file still open (a signal handler calls it before
 * the process dies) */
void outfile_cleanup_signal(void);

#endif /* FIBER_OUTFILE_H */
