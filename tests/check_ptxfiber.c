/* check_ptxfiber.c: the differential test of plain CUDA through the FIBER-native path (issue 21,
 * item 5): every example kernel's PTX and every corpus PTX file compiled with `fiberc
 * --mode=fiber-native` (regalloc-window: one weft per warp, the window from the pressure) runs on
 * a100-fiber / h100-fiber and must give nvcc's listing's status and buffers on a100 / h100.
 * Examples run in timing mode with their fixed inputs (and no hazard), also with a budget of 48
 * registers a weft (spilling what needs more); corpus functions in
 * functional mode with generic arguments (kernrun.h). What fiberc refuses, or a function whose
 * outputs differ, must be listed in tests/ptxfiber.xfail (printed as XFAIL lines); a listed one
 * that no longer fails is a failure too.
 */
#define _DEFAULT_SOURCE
#include "kernrun.h"
#include "xfail.h"
#include "fiber.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char lines[32][2048];
static int nlines;

static const struct { const char *sfx, *simt, *fiber; } arch[] = {
	{"sm_80", "a100", "a100-fiber"},
	{"sm_90", "h100", "h100-fiber"},
};

/* fiberc --mode=fiber-native --arch=ARCH IN -o (temporary file) */
static char *
compile(const char *in, const char *archs, char *err, size_t errsz)
{
	char args[128];

	snprintf(args, sizeof args, "--mode=fiber-native --arch=%s", archs);
	return kr_fiberc(in, args, err, errsz);
}

START_TEST(example_fiber_native)
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
	ck_assert_msg(out != NULL, "fiberc --mode=fiber-native %s failed:\n%s", ptx, err);
	ck_assert_msg(kr_run_line(sass, arch[a].simt, FIBER_MODE_TIMING, lines[k], &want) == 0, "%s",
	              want.err);
	ck_assert_msg(kr_run_line(out, arch[a].fiber, FIBER_MODE_TIMING, lines[k], &got) == 0, "%s",
	              got.err);
	ck_assert_msg(want.status == FIBER_SUCCESS, "%s on %s: %s", sass, arch[a].simt, want.err);
	ck_assert_msg(got.status == FIBER_SUCCESS, "fiberc's fiber-native %s on %s: %s", ptx,
	              arch[a].fiber, got.err);
	ck_assert_uint_eq(want.n, got.n);
	ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0, "%s (%s): the fiber-native listing on "
	              "%s computes other buffers than nvcc's on %s", lines[k], arch[a].sfx,
	              arch[a].fiber, arch[a].simt);
	ck_assert_msg(got.hazards == 0, "%s: %llu hazards in the fiber-native listing on %s", ptx,
	              (unsigned long long)got.hazards, arch[a].fiber);
	fprintf(stderr, "ptxfiber: %s %s: nvcc on %s %llu cycles, fiber-native on %s %llu (%.3f)\n",
	        sym, arch[a].sfx, arch[a].simt, (unsigned long long)want.cycles, arch[a].fiber,
	        (unsigned long long)got.cycles,
	        want.cycles ? (double)got.cycles / (double)want.cycles : 0.0);
	kr_free(&want);
	kr_free(&got);
	unlink(out);
	free(out);
}
END_TEST

/* the most SHI_REGISTERS=N of the listing at path, and its STL instructions (the kernel's own
 * local stores, and spill code); -1 if it does not read */
static int
window_of(const char *path, int *stl)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	int most = -1, n;

	*stl = 0;
	if (!f)
		return -1;
	while (fgets(buf, sizeof buf, f)) {
		const char *w = strstr(buf, "SHI_REGISTERS=");
		if (w && sscanf(w + 14, "%d", &n) == 1 && n > most)
			most = n;
		*stl += strstr(buf, " STL ") != NULL;
	}
	fclose(f);
	return most;
}

/* the same with a budget of 48 registers a weft (--maxrregcount=48, below what the slice leaves
 * each weft of any example's launch bound): what needs more spills to local memory (gemm_tc's
 * window is 103, flash_attn's 148), stays within 48, and still gives nvcc's buffers with no
 * hazard */
START_TEST(example_fiber_native_spill)
{
	int a = _i % 2, k = _i / 2, stl, stl0, win, full;
	char dir[64], sym[128], sass[1024], ptx[1024], err[4096], args[128];
	KRun want, got;
	char *out, *wide;

	ck_assert_int_lt(k, nlines);
	ck_assert_int_eq(sscanf(lines[k], "%63s %127s", dir, sym), 2);
	snprintf(sass, sizeof sass, "%s/examples/%s/%s.%s.sass", kr_root(), dir, dir, arch[a].sfx);
	snprintf(ptx, sizeof ptx, "%s/examples/%s/%s.%s.ptx", kr_root(), dir, dir, arch[a].sfx);
	snprintf(args, sizeof args, "--mode=fiber-native --arch=%s --maxrregcount=48",
	         arch[a].sfx);
	out = kr_fiberc(ptx, args, err, sizeof err);
	ck_assert_msg(out != NULL, "fiberc %s %s failed:\n%s", ptx, args, err);
	wide = compile(ptx, arch[a].sfx, err, sizeof err);
	ck_assert_msg(wide != NULL, "fiberc --mode=fiber-native %s failed:\n%s", ptx, err);
	full = window_of(wide, &stl0);
	win = window_of(out, &stl);
	ck_assert_msg(win > 0 && win <= 48, "%s: a window of %d past the budget of 48", ptx, win);
	ck_assert_msg(full <= 48 ? stl == stl0 && win == full : stl > stl0, "%s: a window of %d "
	              "unbudgeted (%d STL), %d with a budget of 48 (%d STL)", ptx, full, stl0, win,
	              stl);
	ck_assert_msg(kr_run_line(sass, arch[a].simt, FIBER_MODE_TIMING, lines[k], &want) == 0, "%s",
	              want.err);
	ck_assert_msg(kr_run_line(out, arch[a].fiber, FIBER_MODE_TIMING, lines[k], &got) == 0, "%s",
	              got.err);
	ck_assert_msg(got.status == FIBER_SUCCESS, "%s (budget 48) on %s: %s", ptx, arch[a].fiber,
	              got.err);
	ck_assert_uint_eq(want.n, got.n);
	ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0, "%s (%s): with a budget of 48 the "
	              "fiber-native listing computes other buffers than nvcc's", lines[k],
	              arch[a].sfx);
	ck_assert_msg(got.hazards == 0, "%s: %llu hazards with a budget of 48", ptx,
	              (unsigned long long)got.hazards);
	fprintf(stderr, "ptxfiber: %s %s: window %d, budget 48: %d, %d spill stores, %llu cycles on "
	        "%s\n", sym, arch[a].sfx, full, win, stl - stl0, (unsigned long long)got.cycles,
	        arch[a].fiber);
	kr_free(&want);
	kr_free(&got);
	unlink(out);
	unlink(wide);
	free(out);
	free(wide);
}
END_TEST

/* ---- the corpus ---------------------------------------------------------------------------- */

enum { MaxCorpus = 64, CorpusWatchdog = 1 << 20 };
static char corpus[MaxCorpus][1300];
static int ncorpus, nfound;

static XList xl;             /* tests/ptxfiber.xfail (the format of tests/ptxdiff.xfail) */

/* every entry names a corpus listing, and every listing was kept */
START_TEST(corpus_xfail_list)
{
	ck_assert_msg(xl.err[0] == 0, "%s", xl.err);
	ck_assert_msg(ncorpus > 0 && nfound == ncorpus, "%d corpus PTX files, %d kept", nfound,
	              ncorpus);
	for (int k = 0; k < xl.n; k++) {
		int found = 0;
		for (int j = 0; j < ncorpus && !found; j++) {
			const char *b = strrchr(corpus[j], '/') + 1;
			found = strlen(b) == strlen(xl.e[k].listing) + 4 &&
			        !strncmp(b, xl.e[k].listing, strlen(xl.e[k].listing));
		}
		ck_assert_msg(found, "tests/ptxfiber.xfail:%d: no corpus listing tests/corpus/%s.ptx",
		              xl.e[k].line, xl.e[k].listing);
	}
}
END_TEST

START_TEST(corpus_fiber_native)
{
	const char *in = corpus[_i], *b = strrchr(in, '/') + 1, *sm = strstr(b, ".sm_");
	char listing[256], archs[16], sass[1300], err[8192], name[256], gname[256];
	int sm9 = strstr(b, ".sm_9") != NULL;
	const char *simt = arch[sm9].simt, *fib = arch[sm9].fiber;
	unsigned nfn = 0;
	size_t nbad = 0;
	XFail *whole;
	char *out, errs[4096] = "";

	ck_assert_msg(sm != NULL, "%s: not NAME.sm_XX.ptx", in);
	snprintf(listing, sizeof listing, "%.*s", (int)strlen(b) - 4, b);
	snprintf(archs, sizeof archs, "%.*s", (int)(strlen(b) - 4 - (size_t)(sm + 1 - b)), sm + 1);
	snprintf(sass, sizeof sass, "%.*s.sass", (int)strlen(in) - 4, in);
	whole = xlist_find(&xl, listing, "*");
	if (!(out = compile(in, archs, err, sizeof err))) {
		ck_assert_msg(whole != NULL, "fiberc --mode=fiber-native refuses %s, which "
		              "tests/ptxfiber.xfail does not list:\n%.1500s", in, err);
		ck_assert_msg(strstr(err, ".ptx:") && strstr(err, whole->reason), "tests/ptxfiber.xfail:"
		              "%d: fiberc refuses %s, but not with '%s':\n%.1500s", whole->line, listing,
		              whole->reason, err);
		fprintf(stderr, "XFAIL ptxfiber %s *: %s\n", listing, whole->reason);
		return;
	}
	ck_assert_msg(whole == NULL, "tests/ptxfiber.xfail:%d: fiberc compiles %s now: remove the "
	              "entry", whole ? whole->line : 0, listing);
	kr_set_watchdog(CorpusWatchdog);
	ck_assert_msg(kr_function_count(sass, simt, &nfn) == 0 && nfn > 0, "nvcc's %s does not load "
	              "on %s", sass, simt);
	for (unsigned f = 0; f < nfn; f++) {
		KRun want, got;
		char why[1024] = "";
		int g;
		XFail *x;

		memset(&got, 0, sizeof got);
		ck_assert_msg(kr_run_generic(sass, simt, FIBER_MODE_FUNCTIONAL, f, name, sizeof name,
		                             &want) == 0, "%s: %s", sass, want.err);
		if ((g = xlist_fn_index(out, fib, name)) < 0)
			snprintf(why, sizeof why, "the fiber-native listing does not load on %s or has no "
			         "kernel %s", fib, name);
		else if (kr_run_generic(out, fib, FIBER_MODE_FUNCTIONAL, (unsigned)g, gname,
		                        sizeof gname, &got) != 0)
			snprintf(why, sizeof why, "the fiber-native listing: %s", got.err);
		else if (want.status != got.status)
			snprintf(why, sizeof why, "nvcc's listing ends with '%s' on %s, the fiber-native "
			         "one with '%s' on %s", want.status ? want.err : "success", simt,
			         got.status ? got.err : "success", fib);
		else if (want.n != got.n || memcmp(want.buf, got.buf, want.n) != 0)
			snprintf(why, sizeof why, "the fiber-native listing on %s computes other buffers "
			         "than nvcc's on %s", fib, simt);
		kr_free(&want);
		kr_free(&got);
		x = xlist_find(&xl, listing, name);
		if (why[0] && !x)
			snprintf(errs + nbad, sizeof errs - nbad, "%s %s: %s\n", in, name, why);
		else if (!why[0] && x)
			snprintf(errs + nbad, sizeof errs - nbad, "tests/ptxfiber.xfail:%d: %s %s gives "
			         "nvcc's outputs now: remove the entry\n", x->line, listing, name);
		else if (x)
			fprintf(stderr, "XFAIL ptxfiber %s %s: %s\n", listing, name, x->reason);
		nbad = strlen(errs);   /* what the lines so far took (snprintf truncates) */
	}
	kr_set_watchdog(0);
	ck_assert_msg(errs[0] == 0, "%s", errs);
	for (int k = 0; k < xl.n; k++)
		ck_assert_msg(strcmp(xl.e[k].listing, listing) || strcmp(xl.e[k].fn, "*") == 0 ||
		              xlist_fn_index(sass, simt, xl.e[k].fn) >= 0, "tests/ptxfiber.xfail:%d: nvcc's "
		              "listing %s has no function %s", xl.e[k].line, sass, xl.e[k].fn);
	unlink(out);
	free(out);
}
END_TEST

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

Suite *
ptxfiber_suite(void)
{
	Suite *s = suite_create("ptxfiber");
	TCase *tc = tcase_create("examples");
	char path[1024];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof path, "%s/examples/kernels.txt", kr_root());
	nlines = kr_read_lines(path, lines, 32);
	if (nlines < 0)
		nlines = 0;
	tcase_add_loop_test(tc, example_fiber_native, 0, 2 * (nlines > 0 ? nlines : 1));
	tcase_add_loop_test(tc, example_fiber_native_spill, 0, 2 * (nlines > 0 ? nlines : 1));
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
	snprintf(path, sizeof path, "%s/tests/ptxfiber.xfail", kr_root());
	{
		FILE *f = fopen(path, "r");
		xlist_read(&xl, f, path);
		if (f)
			fclose(f);
	}
	tc = tcase_create("corpus");
	tcase_add_test(tc, corpus_xfail_list);
	tcase_add_loop_test(tc, corpus_fiber_native, 0, ncorpus);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
