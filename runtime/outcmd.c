/* outcmd.c: the command lines of `fibersim compare`, `annotate` and `cpi-svg` (driver/fibersim.c
 * dispatches to them): options, reading the files, and the output on standard output or, with
 * -o FILE, through outfile.c (a temporary file beside FILE renamed over it on success), so a
 * failed run never leaves half a file or destroys the old one. Exit status: 0, 1 bad input, 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "outputs.h"
#include "outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ExitOk = 0, ExitUser = 1, ExitUsage = 2 };
enum { MaxInput = 1 << 30 };   /* bytes of an input file */

static int
error(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("fibersim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!fp) {
		error(ExitUser, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;
		if (n + 65536 + 1 > cap) {
			char *nb;
			cap = cap ? 2 * cap : 65536 * 2;
			if (cap > (size_t)MaxInput + 65536 + 1 || !(nb = realloc(buf, cap))) {
				error(ExitUser, "'%s' is too large", path);
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 65536, fp);
		n += got;
		if (got < 65536)
			break;
	}
	if (ferror(fp)) {
		error(ExitUser, "cannot read '%s': %s", path, strerror(errno));
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* where the output goes: stdout, or FILE through outfile.c (a temporary file beside it renamed
 * on success; a device or /dev/stdout written in place, never removed) */
typedef struct Output {
	const char *path;          /* NULL: standard output */
	OutFile f;
	FILE *fp;
} Output;

static int
output_open(Output *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	if (outfile_open(&o->f, path) < 0) {
		error(ExitUser, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	o->path = path;
	o->fp = o->f.fp;
	return 0;
}

/* ok: keep the output (commit it to path); else drop it. The exit status. */
static int
output_close(Output *o, int ok)
{
	if (!o->path) {
		int failed = fflush(o->fp) != 0 || ferror(o->fp);
		return ok && !failed ? ExitOk : failed ? error(ExitUser, "cannot write the output") : ExitUser;
	}
	if (!ok) {
		outfile_abort(&o->f);
		return ExitUser;
	}
	if (outfile_commit(&o->f) < 0)
		return error(ExitUser, "cannot write '%s': %s", o->path, strerror(errno));
	return ExitOk;
}

static void
compare_usage(FILE *out)
{
	fprintf(out,
	    "usage: fibersim compare A.json B.json [--json] [--any-kernel] [-o OUT]\n"
	    "\n"
	    "Two statistics files of 'fibersim run --stats' side by side, launch by launch: cycles and\n"
	    "the speedup of B over A, IPC, occupancy, caches, DRAM, coalescing, the CPI stack of each\n"
	    "with the difference in points, and the configuration keys that differ.\n"
	    "\n"
	    "  --json        the comparison as JSON (docs/sim-stats.md)\n"
	    "  --any-kernel  compare launches of kernels with different names (two versions)\n"
	    "  -o OUT        write to OUT instead of standard output\n");
}

static void
annotate_usage(FILE *out)
{
	fprintf(out,
	    "usage: fibersim annotate STATS.json FILE.sass [--launch K] [--top N] [-o OUT]\n"
	    "\n"
	    "The SASS listing of the launch's kernel with, beside each instruction, the warp\n"
	    "instructions issued, the stall cycles charged to warps waiting at it, their share of\n"
	    "all stall cycles and the largest stall reason; then the N hottest instructions.\n"
	    "\n"
	    "  --launch K    the launch (index in the statistics' kernels); default: the only one\n"
	    "  --top N       list the N instructions with most stall cycles after it (default 10,\n"
	    "                0: none)\n"
	    "  -o OUT        write to OUT instead of standard output\n");
}

/* a decimal option value 0..max */
static int
number(const char *opt, const char *v, long max, long *out)
{
	char *e;
	long x;

	errno = 0;
	x = v ? strtol(v, &e, 10) : 0;
	if (!v || !*v || *e || errno || x < 0 || x > max)
		return error(ExitUsage, "%s needs a number 0..%ld, not '%s'", opt, max, v ? v : "");
	*out = x;
	return 0;
}

int
out_compare_command(int argc, char **argv)
{
	const char *in[2] = {NULL, NULL}, *outp = NULL;
	int json = 0, any = 0, nin = 0, status;
	char *text[2] = {NULL, NULL}, err[1024];
	size_t len[2];
	Output o;

	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			compare_usage(stdout);
			return ExitOk;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--any-kernel") == 0) {
			any = 1;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (k + 1 >= argc || !*argv[k + 1] || outp) {
				error(ExitUsage, outp ? "-o given more than once" : "-o needs a file name");
				goto usage;
			}
			outp = argv[++k];
		} else if (a[0] == '-' && a[1]) {
			error(ExitUsage, "unknown option '%s'", a);
			goto usage;
		} else if (nin == 2 || !*a) {
			error(ExitUsage, *a ? "more than two statistics files" : "empty file name");
			goto usage;
		} else {
			in[nin++] = a;
		}
	}
	if (nin != 2) {
		error(ExitUsage, "compare needs two statistics files, A.json and B.json");
		goto usage;
	}
	for (int k = 0; k < 2; k++)
		if (!(text[k] = read_file(in[k], &len[k]))) {
			free(text[0]);
			return ExitUser;
		}
	if (output_open(&o, outp) < 0) {
		free(text[0]);
		free(text[1]);
		return ExitUser;
	}
	status = out_compare(text[0], len[0], in[0], text[1], len[1], in[1], json, any, o.fp, err,
	                     sizeof err);
	free(text[0]);
	free(text[1]);
	if (status < 0) {
		output_close(&o, 0);
		return error(ExitUser, "%s", err);
	}
	return output_close(&o, 1);
usage:
	compare_usage(stderr);
	return ExitUsage;
}

int
out_annotate_command(int argc, char **argv)
{
	const char *in[2] = {NULL, NULL}, *outp = NULL;
	long launch = -1, top = 10;
	int nin = 0, status;
	char *text[2] = {NULL, NULL}, err[1024];
	size_t len[2];
	Output o;

	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			annotate_usage(stdout);
			return ExitOk;
		} else if (strcmp(a, "--launch") == 0 || strcmp(a, "--top") == 0) {
			if (number(a, k + 1 < argc ? argv[k + 1] : NULL, a[2] == 'l' ? 1000000000L : 100000L,
			           a[2] == 'l' ? &launch : &top) != 0)
				goto usage;
			k++;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (k + 1 >= argc || !*argv[k + 1] || outp) {
				error(ExitUsage, outp ? "-o given more than once" : "-o needs a file name");
				goto usage;
			}
			outp = argv[++k];
		} else if (a[0] == '-' && a[1]) {
			error(ExitUsage, "unknown option '%s'", a);
			goto usage;
		} else if (nin == 2 || !*a) {
			error(ExitUsage, *a ? "more than two files" : "empty file name");
			goto usage;
		} else {
			in[nin++] = a;
		}
	}
	if (nin != 2) {
		error(ExitUsage, "annotate needs STATS.json and FILE.sass");
		goto usage;
	}
	for (int k = 0; k < 2; k++)
		if (!(text[k] = read_file(in[k], &len[k]))) {
			free(text[0]);
			return ExitUser;
		}
	if (output_open(&o, outp) < 0) {
		free(text[0]);
		free(text[1]);
		return ExitUser;
	}
	status = out_annotate(text[0], len[0], text[1], len[1], in[1], launch, (unsigned)top, o.fp,
	                      err, sizeof err);
	free(text[0]);
	free(text[1]);
	if (status < 0) {
		output_close(&o, 0);
		return error(ExitUser, "%s: %s", in[0], err);
	}
	return output_close(&o, 1);
usage:
	annotate_usage(stderr);
	return ExitUsage;
}

static void
svg_usage(FILE *out)
{
	fprintf(out,
	    "usage: fibersim cpi-svg A.json [B.json] -o OUT.svg [--idle | --no-idle] [--per-sm]\n"
	    "           [--title TEXT]\n"
	    "\n"
	    "Draw the CPI stack of each timed launch of A.json (written by 'fibersim run --stats'), and\n"
	    "of B.json beside it, as an SVG stacked bar chart: each reason's share of the\n"
	    "sub-partition cycles, with each launch's kernel, cycles and configuration.\n"
	    "\n"
	    "  -o OUT.svg    where the chart goes (required)\n"
	    "  --idle        keep the idle share (default: left out when it is most of a stack)\n"
	    "  --no-idle     always leave it out\n"
	    "  --per-sm      one bar per SM that had warps (for launches of a few CTAs)\n"
	    "  --title TEXT  the chart's title (default: the first file's name)\n");
}

int
out_cpi_svg_command(int argc, char **argv)
{
	const char *in[2] = {NULL, NULL}, *outp = NULL;
	CpiSvgOpts so = {-1, 0, NULL};
	int nin = 0, status;
	char *text[2] = {NULL, NULL}, err[1024];
	size_t len[2];
	Output o;

	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			svg_usage(stdout);
			return ExitOk;
		} else if (strcmp(a, "--idle") == 0 || strcmp(a, "--no-idle") == 0) {
			so.idle = a[2] == 'i';
		} else if (strcmp(a, "--per-sm") == 0) {
			so.per_sm = 1;
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--title") == 0) {
			const char **dst = strcmp(a, "--title") == 0 ? &so.title : &outp;
			if (k + 1 >= argc || !*argv[k + 1] || *dst) {
				error(ExitUsage, *dst ? "%s given more than once" : "%s needs a value", a);
				goto usage;
			}
			*dst = argv[++k];
		} else if (a[0] == '-' && a[1]) {
			error(ExitUsage, "unknown option '%s'", a);
			goto usage;
		} else if (nin == 2 || !*a) {
			error(ExitUsage, *a ? "more than two statistics files" : "empty file name");
			goto usage;
		} else {
			in[nin++] = a;
		}
	}
	if (!nin || !outp) {
		error(ExitUsage, !nin ? "no STATS.json" : "-o OUT.svg is required");
		goto usage;
	}
	for (int k = 0; k < nin; k++)
		if (!(text[k] = read_file(in[k], &len[k]))) {
			free(text[0]);
			return ExitUser;
		}
	if (output_open(&o, outp) < 0) {
		free(text[0]);
		free(text[1]);
		return ExitUser;
	}
	status = out_cpi_svg((const char *const *)text, len, in, nin, &so, o.fp, err, sizeof err);
	free(text[0]);
	free(text[1]);
	if (status < 0) {
		output_close(&o, 0);
		if (nin == 1)
			return error(ExitUser, "'%s': %s", in[0], err);
		return error(ExitUser, "%s", err);
	}
	return output_close(&o, 1);
usage:
	svg_usage(stderr);
	return ExitUsage;
}
