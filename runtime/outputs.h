/* outputs.h: reading the statistics JSON back (fiberWriteStatsJSON): two runs side by side
 * (compare.c, `fibersim compare`), the CPI stack by instruction beside the SASS listing
 * (annotate.c, `fibersim annotate`), the CPI chart (cpisvg.c, `fibersim cpi-svg`), and their
 * command lines (outcmd.c). Private to the tree.
 */
#ifndef FIBER_OUTPUTS_H
#define FIBER_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

/* compare.c: the launches of two statistics files, pairwise in order, as a table (json 0) or as
 * JSON; any_kernel 1 allows kernels of different names (two versions of a kernel). 0, or -1 with
 * a one-line message in err (not statistics, different launches, a launch not timed). */
int out_compare(const char *a, size_t alen, const char *aname, const char *b, size_t blen,
                const char *bname, int json, int any_kernel, FILE *out, char *err, size_t n);

/* annotate.c: the listing of the launch's kernel (launch: index into "kernels", -1: the only
 * timed launch) with each instruction's issues, stall cycles, top reason and share; top: how
 * many of the hottest instructions to list after it (0: none). 0, or -1 with a message in err. */
int out_annotate(const char *stats, size_t slen, const char *sass, size_t len, const char *sname,
                 long launch, unsigned top, FILE *out, char *err, size_t n);

/* cpisvg.c: the CPI stacks of one or two statistics files as an SVG bar chart */
typedef struct CpiSvgOpts {
	int idle;                  /* 1 keep the idle share, 0 leave it out, -1 leave it out when it
	                              is more than half of a stack */
	int per_sm;                /* 1: a bar per SM with warps instead of per launch */
	const char *title;         /* NULL: the first file's name */
} CpiSvgOpts;
int out_cpi_svg(const char *const *json, const size_t *len, const char *const *names, int nfile,
                const CpiSvgOpts *o, FILE *out, char *err, size_t n);

/* outcmd.c: `fibersim compare ...` and `fibersim annotate ...` (argv after the command word);
 * the exit status: 0, 1 bad input, 2 usage */
int out_compare_command(int argc, char **argv);
int out_annotate_command(int argc, char **argv);
int out_cpi_svg_command(int argc, char **argv);

#endif /* FIBER_OUTPUTS_H */
