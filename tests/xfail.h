/* xfail.h: the lists of expected failures of the corpus differentials (tests/ptxdiff.xfail,
 * tests/ptxfiber.xfail: `LISTING FUNCTION REASON`, one a line), read and looked up, and the index
 * of a kernel in a listing by name (fiberc keeps the PTX file's order, nvcc's listing has its own).
 */
#ifndef FIBER_TESTS_XFAIL_H
#define FIBER_TESTS_XFAIL_H

#include <stdio.h>

enum { MaxXfail = 64 };

/* an entry: `LISTING FUNCTION REASON` */
typedef struct XFail {
	char listing[64];   /* a corpus file's name without .ptx: "bits.sm_80" */
	char fn[128];       /* a function whose buffers differ from nvcc's, or "*": fiberc refuses it */
	char reason[1024];  /* why, to the end of the line; for "*", a part of fiberc's messages */
	int line;           /* its line in the list */
	int seen;           /* the differential met it */
} XFail;

/* a list of expected failures */
typedef struct XList {
	char path[1024];    /* where it was read from, for the messages */
	XFail e[MaxXfail];  /* the entries */
	int n;              /* how many */
	char err[2048];     /* why the list does not read (a malformed line, a duplicate), or "" */
} XList;

/* read a list from f (its name path; NULL: it could not be opened); blank and `#` lines are
 * skipped; a malformed line, a duplicate or too many entries leave the reason in l->err */
void xlist_read(XList *l, FILE *f, const char *path);
/* the entry of listing and fn, or NULL */
XFail *xlist_find(XList *l, const char *listing, const char *fn);
/* the index of kernel name in the listing at path loaded on configuration config, or -1 */
int xlist_fn_index(const char *path, const char *config, const char *name);

#endif
