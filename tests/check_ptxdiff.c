/* check_ptxdiff.c: the differential test of fiber's PTX code generator (issue 11). For every
 * example kernel (examples/kernels.txt) on sm_80 and sm_90, nvcc's listing and the listing fiberc
 * compiles from the example's PTX run on a100 / h100 in timing mode with the same inputs: both
 * launches must succeed, every buffer afterwards must be bit-identical (fiberc selects the
 * sequences nvcc selects, so the arithmetic is the same; docs/ptx-codegen.md), and fiberc's output
 * must show no hazard. For every corpus PTX file (tests/corpus/NAME.ptx) fiberc compiles it, and
 * then every function of nvcc's listing gives the same status and buffers in fiberc's (functional
 * mode, generic arguments: kernrun.h), or fiberc refuses it with located `is not supported yet`
 * errors. A refused listing or a function that differs is a failure unless tests/ptxdiff.xfail
 * lists it (then an expected failure, printed as an `XFAIL` line that `make check` counts); a
 * listed one that no longer fails is a failure too.
 */
#define _DEFAULT_SOURCE
#include "kernrun.h"
#include "xfail.h"
#include "fiber.h"

#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char lines[32][2048];
static int nlines;

/* fiberc IN --arch=ARCH -o (temporary file): kernrun.h's kr_fiberc */
static char *
compile(const char *in, const char *arch, char *err, size_t errsz)
{
	char args[64];

	snprintf(args, sizeof args, "--arch=%s", arch);
	return kr_fiberc(in, args, err, errsz);
}

static const struct { const char *sfx, *config; } arch[] = {
	{"sm_80", "a100"},
	{"sm_90", "h100"},
};

START_TEST(example_ptx_differential)
{
	int a = _i % 2, k = _i / 2;
	char dir[64], sym[128], sass[1024], ptx[1024], err[4096];
	KRun want, got;
	char *out;

	ck_assert_int_lt(k, nlines);
	ck_assert_int_eq(sscanf(lines[k], "%63s %127s", dir, sym), 2);
	snprintf(sass, sizeof sass, "%s/examples/%s/%s.%s.sass", kr_root(), dir, dir, arch[a].sfx);
	snprintf(ptx, sizeof ptx, "%s/examples/%s/%s.%s.ptx", kr_root(), dir, dir, arch[a].sfx);
	out = compile(ptx, arch[a].sfx, err, sizeof err);
	ck_assert_msg(out != NULL, "fiberc %s failed:\n%s", ptx, err);
	ck_assert_msg(kr_run_line(sass, arch[a].config, FIBER_MODE_TIMING, lines[k], &want) == 0, "%s",
	              want.err);
	ck_assert_msg(kr_run_line(out, arch[a].config, FIBER_MODE_TIMING, lines[k], &got) == 0, "%s",
	              got.err);
	ck_assert_msg(want.status == FIBER_SUCCESS, "%s: %s", sass, want.err);
	ck_assert_msg(got.status == FIBER_SUCCESS, "fiberc's listing of %s: %s", ptx, got.err);
	ck_assert_uint_eq(want.n, got.n);
	size_t first = want.n;
	for (size_t j = 0; j < want.n && first == want.n; j++)
		if (want.buf[j] != got.buf[j])
			first = j;
	ck_assert_msg(first == want.n, "%s (%s): fiberc's listing computes other buffers than nvcc's "
	              "(first difference at byte %zu)", lines[k], arch[a].sfx, first);
	ck_assert_msg(got.hazards == 0, "%s: %llu hazards in fiberc's listing", ptx,
	              (unsigned long long)got.hazards);
	fprintf(stderr, "ptxdiff: %s %s: nvcc %llu cycles, fiberc %llu (%.3f)\n", sym, arch[a].sfx,
	        (unsigned long long)want.cycles, (unsigned long long)got.cycles,
	        want.cycles ? (double)got.cycles / (double)want.cycles : 0.0);
	kr_free(&want);
	kr_free(&got);
	unlink(out);
	free(out);
}
END_TEST

/* the corpus runs' watchdog: every corpus function finishes within 6,000 warp instructions with
 * the generic arguments but semantics' k_syncwarp, whose loop count (in[0], 403,769,859 with
 * kernrun's pattern) ends both listings at the watchdog before it writes anything; at the default
 * 2^28 that took ~25 s per listing (minutes under SAN), at 2^20 it is the same outcome at once */
enum { CorpusWatchdog = 1 << 20 };

enum { MaxCorpus = 64 };
static char corpus[MaxCorpus][1300];
static int ncorpus, nfound;            /* the listings kept, and found (more than kept: a failure) */

static XList xlist;

/* the corpus file's name without folder and .ptx */
static void
listing_of(const char *path, char *name, size_t n)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	snprintf(name, n, "%.*s", (int)(strlen(b) > 4 ? strlen(b) - 4 : 0), b);
}

/* the path of corpus listing `name`, or NULL */
static const char *
corpus_path(const char *name)
{
	for (int j = 0; j < ncorpus; j++) {
		char c[256];
		listing_of(corpus[j], c, sizeof c);
		if (!strcmp(c, name))
			return corpus[j];
	}
	return NULL;
}

/* why list l is not usable ("" when it is): it does not read, or an entry names no corpus
 * listing */
static void
xlist_check(const XList *l, char *why, size_t n)
{
	snprintf(why, n, "%s", l->err);
	for (int k = 0; k < l->n && !why[0]; k++)
		if (!corpus_path(l->e[k].listing))
			snprintf(why, n, "%s:%d: no corpus listing tests/corpus/%s.ptx", l->path, l->e[k].line,
			         l->e[k].listing);
}

/* append a line to errs (a case's unexpected outcomes) */
static void
unexpected(char *errs, size_t n, const char *fmt, ...)
{
	size_t len = strlen(errs);
	va_list ap;

	if (len + 2 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(errs + len, n - len - 1, fmt, ap);
	va_end(ap);
	strcat(errs, "\n");
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* nvcc's function f of sass against fiberc's function of the same name in out: why[0] == 0 when
 * they agree, else what differs; -1 if nvcc's listing does not run it (why says why) */
static int
compare_fn(const char *sass, const char *out, const char *config, unsigned f, char *name,
           size_t namesz, char *why, size_t whysz)
{
	KRun want, got;
	char gname[256];
	int g;

	why[0] = 0;
	memset(&got, 0, sizeof got);
	if (kr_run_generic(sass, config, FIBER_MODE_FUNCTIONAL, f, name, namesz, &want) != 0) {
		snprintf(why, whysz, "nvcc's listing, function %u: %s", f, want.err);
		kr_free(&want);
		return -1;
	}
	g = xlist_fn_index(out, config, name);
	if (g < 0)
		snprintf(why, whysz, "fiberc's listing has no kernel %s", name);
	else if (kr_run_generic(out, config, FIBER_MODE_FUNCTIONAL, (unsigned)g, gname, sizeof gname,
	                        &got) != 0)
		snprintf(why, whysz, "fiberc's listing: %s", got.err);
	else if (want.status != got.status)
		snprintf(why, whysz, "nvcc's listing ends with '%s', fiberc's with '%s'",
		         want.status ? want.err : "success", got.status ? got.err : "success");
	else if (want.n != got.n || memcmp(want.buf, got.buf, want.n) != 0)
		snprintf(why, whysz, "fiberc's listing computes other buffers than nvcc's");
	kr_free(&want);
	kr_free(&got);
	return 0;
}

/* fiberc refused the listing at in with messages err: its entry `LISTING *` must be in l with a
 * reason that is part of err, and no entry of a function of it (which cannot run); the XFAIL line
 * goes to xf (NULL: nowhere) */
static int
refused(XList *l, const char *in, const char *listing, const char *err, FILE *xf, char *errs,
        size_t n)
{
	XFail *whole = xlist_find(l, listing, "*");

	if (!strstr(err, "is not supported yet") || !strstr(err, ".ptx:")) {
		unexpected(errs, n, "fiberc %s failed with something else than an unsupported form:\n"
		           "%.1500s", in, err);
		return 0;
	}
	if (!whole) {
		unexpected(errs, n, "fiberc refuses %s, which %s does not list:\n%.1500s", in, l->path,
		           err);
		return 0;
	}
	whole->seen = 1;
	for (int k = 0; k < l->n; k++)
		if (!strcmp(l->e[k].listing, listing) && &l->e[k] != whole)
			unexpected(errs, n, "%s:%d: %s %s does not run: fiberc refuses the listing", l->path,
			           l->e[k].line, listing, l->e[k].fn);
	if (!strstr(err, whole->reason)) {
		unexpected(errs, n, "%s:%d: fiberc refuses %s, but no longer with '%s' (update the "
		           "entry):\n%.1500s", l->path, whole->line, listing, whole->reason, err);
		return 0;
	}
	if (xf)
		fprintf(xf, "XFAIL ptxdiff %s *: %s\n", listing, whole->reason);
	return 1;
}

/* the differential of corpus file in against the expected failures l: fiberc compiles it and each
 * function of nvcc's listing computes the same in fiberc's, or l lists the difference. Returns the
 * number of expected failures met, each printed to xf (NULL: nowhere) as the XFAIL line that
 * `make check` counts (scripts/run-tests.sh); every unexpected outcome is a line of errs */
static int
corpus_outcome(const char *in, XList *l, FILE *xf, char *errs, size_t n)
{
	char sass[1300], err[8192], name[256], listing[256], archs[16];
	const char *dot = strrchr(in, '.'), *sm = strstr(in, ".sm_"), *config;
	unsigned nfn = 0;
	int nx = 0;
	XFail *whole;
	char *out;

	if (!dot || !sm || dot < sm) {
		unexpected(errs, n, "%s: not NAME.sm_XX.ptx", in);
		return 0;
	}
	listing_of(in, listing, sizeof listing);
	snprintf(archs, sizeof archs, "%.*s", (int)(dot - sm - 1), sm + 1);
	snprintf(sass, sizeof sass, "%.*s.sass", (int)(dot - in), in);
	if (!(out = compile(in, archs, err, sizeof err)))
		return refused(l, in, listing, err, xf, errs, n);
	if ((whole = xlist_find(l, listing, "*"))) {
		whole->seen = 1;
		unexpected(errs, n, "%s:%d: fiberc compiles %s now: remove `%s *` from the list", l->path,
		           whole->line, listing, listing);
	}
	config = strstr(archs, "sm_9") ? "h100" : "a100";
	kr_set_watchdog(CorpusWatchdog);
	if (access(sass, R_OK) != 0 || kr_function_count(sass, config, &nfn) != 0)
		unexpected(errs, n, "nvcc's listing %s does not load on %s: nothing to compare with",
		           sass, config);
	for (unsigned f = 0; f < nfn; f++) {
		char why[1024];
		XFail *x;

		if (compare_fn(sass, out, config, f, name, sizeof name, why, sizeof why) < 0) {
			unexpected(errs, n, "%s", why);
			continue;
		}
		if ((x = xlist_find(l, listing, name))) {
			x->seen = 1;
			if (why[0]) {
				if (xf)
					fprintf(xf, "XFAIL ptxdiff %s %s: %s\n", listing, name, x->reason);
				nx++;
			} else {
				unexpected(errs, n, "%s:%d: %s %s gives nvcc's buffers now: remove it from the "
				           "list", l->path, x->line, listing, name);
			}
		} else if (why[0]) {
			unexpected(errs, n, "%s %s: %s", in, name, why);
		}
	}
	kr_set_watchdog(0);
	for (int k = 0; k < l->n; k++)
		if (!strcmp(l->e[k].listing, listing) && !l->e[k].seen)
			unexpected(errs, n, "%s:%d: nvcc's listing %s has no function %s", l->path,
			           l->e[k].line, sass, l->e[k].fn);
	fprintf(stderr, "ptxdiff: %s: compiled, %u functions compared with nvcc's\n", listing, nfn);
	unlink(out);
	free(out);
	return nx;
}

/* the committed list reads, every entry names a corpus listing, and every listing was kept */
START_TEST(corpus_xfail_list)
{
	char why[2048];

	ck_assert_msg(ncorpus > 0, "no tests/corpus/*.ptx under %s", kr_root());
	ck_assert_msg(nfound == ncorpus, "%d corpus PTX files, only %d kept: raise MaxCorpus", nfound,
	              ncorpus);
	xlist_check(&xlist, why, sizeof why);
	ck_assert_msg(why[0] == 0, "%s", why);
}
END_TEST

START_TEST(corpus_ptx)
{
	char errs[3000] = "";

	corpus_outcome(corpus[_i], &xlist, stderr, errs, sizeof errs);
	ck_assert_msg(errs[0] == 0, "%s", errs);
}
END_TEST

/* the list itself can fail: made-up lists against two small listings (bits.sm_80: k_bits differs,
 * k_uniform and k_branch agree; tex.sm_80 is refused), each with the expected failures it must
 * count and a part of the unexpected outcome it must report ("" none); their XFAIL lines are not
 * printed (make check would count them) */
static const struct {
	const char *listing, *list, *want;
	int nx;
} mutants[] = {
	{ "bits.sm_80", "bits.sm_80 k_bits r\n", "", 1 },
	{ "bits.sm_80", "# nothing\n\n", "bits.sm_80.ptx k_bits: fiberc's listing computes other "
	  "buffers than nvcc's", 0 },
	{ "bits.sm_80", "bits.sm_80 k_bits r\nbits.sm_80 k_uniform r\n", "m:2: bits.sm_80 k_uniform "
	  "gives nvcc's buffers now: remove it from the list", 1 },
	{ "bits.sm_80", "bits.sm_80 k_bits r\nbits.sm_80 k_gone r\n", "m:2: nvcc's listing", 1 },
	{ "bits.sm_80", "bits.sm_80 * r\nbits.sm_80 k_bits r\n", "m:1: fiberc compiles bits.sm_80 "
	  "now: remove `bits.sm_80 *` from the list", 1 },
	{ "tex.sm_80", "tex.sm_80 * 'tex.1d.v4.f32.s32' is not supported yet\n", "", 1 },
	{ "tex.sm_80", "", "fiberc refuses", 0 },
	{ "tex.sm_80", "tex.sm_80 * 'tex.9d' is not supported yet\n", "m:1: fiberc refuses tex.sm_80, "
	  "but no longer with ''tex.9d' is not supported yet' (update the entry)", 0 },
	{ "tex.sm_80", "tex.sm_80 * 'tex.1d.v4.f32.s32'\ntex.sm_80 k_tex r\n", "m:2: tex.sm_80 k_tex "
	  "does not run: fiberc refuses the listing", 1 },
};

START_TEST(corpus_xfail_mutants)
{
	char errs[3000] = "", list[256];
	const char *in = corpus_path(mutants[_i].listing);
	XList *l = calloc(1, sizeof *l);
	FILE *f;
	int nx;

	ck_assert_msg(in != NULL, "no corpus listing %s", mutants[_i].listing);
	snprintf(list, sizeof list, "%s", mutants[_i].list);
	f = fmemopen(list, strlen(list) + 1, "r");
	xlist_read(l, f, "m");
	fclose(f);
	ck_assert_msg(l->err[0] == 0, "%s", l->err);
	nx = corpus_outcome(in, l, NULL, errs, sizeof errs);
	ck_assert_int_eq(nx, mutants[_i].nx);
	if (mutants[_i].want[0])
		ck_assert_msg(strstr(errs, mutants[_i].want) != NULL, "want '%s' in:\n%s",
		              mutants[_i].want, errs);
	else
		ck_assert_msg(errs[0] == 0, "%s", errs);
	free(l);
}
END_TEST

/* malformed lists: the reader says where */
static const struct {
	const char *list, *want;
} bad_lists[] = {
	{ "bits.sm_80 k_bits\n", "m:1: not `LISTING FUNCTION REASON`" },
	{ "# c\nbits.sm_80 k_bits a\nbits.sm_80 k_bits b\n", "m:3: bits.sm_80 k_bits is listed on "
	  "line 2 too" },
	{ "nothere.sm_80 k r\n", "m:1: no corpus listing tests/corpus/nothere.sm_80.ptx" },
};

START_TEST(corpus_xfail_malformed)
{
	char list[256], why[2048];
	XList *l = calloc(1, sizeof *l);
	FILE *f;

	snprintf(list, sizeof list, "%s", bad_lists[_i].list);
	f = fmemopen(list, strlen(list) + 1, "r");
	xlist_read(l, f, "m");
	fclose(f);
	xlist_check(l, why, sizeof why);
	ck_assert_msg(strstr(why, bad_lists[_i].want) != NULL, "want '%s', got '%s'", bad_lists[_i].want,
	              why);
	xlist_read(l, NULL, "/nonexistent/ptxdiff.xfail");
	ck_assert_str_eq(l->err, "cannot read /nonexistent/ptxdiff.xfail");
	free(l);
}
END_TEST

Suite *
ptxdiff_suite(void)
{
	Suite *s = suite_create("ptxdiff");
	TCase *tc = tcase_create("examples");
	char path[1024];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "%s/examples/kernels.txt", kr_root());
	nlines = kr_read_lines(path, lines, 32);
	if (nlines < 0)
		nlines = 0;
	/* no line read: one case, which fails (k < nlines) */
	tcase_add_loop_test(tc, example_ptx_differential, 0, 2 * (nlines > 0 ? nlines : 1));
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	snprintf(path, sizeof path, "%s/tests/corpus", kr_root());
	if ((d = opendir(path))) {
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);
			if (n > 4 && strcmp(e->d_name + n - 4, ".ptx") == 0 && nfound++ < MaxCorpus)
				snprintf(corpus[ncorpus++], sizeof corpus[0], "%s/%s", path, e->d_name);
		}
		closedir(d);
	}
	qsort(corpus, (size_t)ncorpus, sizeof corpus[0], cmp_str);
	snprintf(path, sizeof path, "%s/tests/ptxdiff.xfail", kr_root());
	{
		FILE *f = fopen(path, "r");
		xlist_read(&xlist, f, path);
		if (f)
			fclose(f);
	}
	tc = tcase_create("corpus");
	tcase_add_test(tc, corpus_xfail_list);
	tcase_add_loop_test(tc, corpus_xfail_malformed, 0, sizeof bad_lists / sizeof bad_lists[0]);
	tcase_add_loop_test(tc, corpus_xfail_mutants, 0, sizeof mutants / sizeof mutants[0]);
	tcase_add_loop_test(tc, corpus_ptx, 0, ncorpus);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
