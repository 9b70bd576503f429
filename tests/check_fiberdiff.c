/* check_fiberdiff.c: the differential test of fiberc's CUDA-native mode (issue 10). For every
 * example kernel (examples/kernels.txt, sm_80 and sm_90 listings) and every function of every
 * corpus listing (tests/corpus/, tests/corpus/latency/), the input SASS runs on the SIMT SM (a100,
 * h100) and `fiberc --mode=cuda-native`'s output on the FIBER SM (a100-fiber, h100-fiber): the
 * launch status and every buffer afterwards must be identical. Examples run in timing mode, where
 * fiberc's output must also show no hazard (its control bits are right) and take at most 2% more
 * cycles than the input; corpus functions (generic arguments, see kernrun.h) run functionally.
 * fiberc is the binary $FIBERC (build/bin/fiberc), run as a user would; for an example it is told
 * the launch's grid (--fiber-grid, which the phases pass needs to split a loop: bias_silu).
 */
#define _DEFAULT_SOURCE
#include "kernrun.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char lines[32][2048];
static int nlines;

/* fiberc --mode=cuda-native IN EXTRA -o (temporary file): kernrun.h's kr_fiberc */
static char *
compile(const char *in, const char *extra, char *err, size_t errsz)
{
	char args[512];

	snprintf(args, sizeof args, "--mode=cuda-native %s", extra);
	return kr_fiberc(in, args, err, errsz);
}

static const struct { const char *sfx, *simt, *fiber; } arch[] = {
	{"sm_80", "a100", "a100-fiber"},
	{"sm_90", "h100", "h100-fiber"},
};

START_TEST(example_differential)
{
	int a = _i % 2, k = _i / 2;
	char dir[64], sym[128], in[1024], err[4096], grid[64];
	unsigned g[3];
	KRun want, got;
	char *out;

	ck_assert_int_lt(k, nlines);
	ck_assert_int_eq(sscanf(lines[k], "%63s %127s %u,%u,%u", dir, sym, &g[0], &g[1], &g[2]), 5);
	snprintf(in, sizeof in, "%s/examples/%s/%s.%s.sass", kr_root(), dir, dir, arch[a].sfx);
	/* the launch's grid, as a user who knows it tells fiberc (docs/pass-phases.md): the largest
	 * of the listing's kernels (flash_decoding has two) */
	unsigned most = g[0] * g[1] * g[2];
	for (int j = 0; j < nlines; j++) {
		char d2[64], s2[128];
		unsigned h[3];
		if (sscanf(lines[j], "%63s %127s %u,%u,%u", d2, s2, &h[0], &h[1], &h[2]) == 5 &&
		    strcmp(d2, dir) == 0 && h[0] * h[1] * h[2] > most)
			most = h[0] * h[1] * h[2];
	}
	snprintf(grid, sizeof grid, "--fiber-grid=%u", most);
	out = compile(in, grid, err, sizeof err);
	ck_assert_msg(out != NULL, "fiberc --mode=cuda-native %s failed:\n%s", in, err);
	ck_assert_msg(kr_run_line(in, arch[a].simt, FIBER_MODE_TIMING, lines[k], &want) == 0, "%s",
	              want.err);
	ck_assert_msg(kr_run_line(out, arch[a].fiber, FIBER_MODE_TIMING, lines[k], &got) == 0, "%s",
	              got.err);
	ck_assert_msg(want.status == FIBER_SUCCESS, "%s on %s: %s", in, arch[a].simt, want.err);
	ck_assert_msg(got.status == FIBER_SUCCESS, "fiberc's %s on %s: %s", in, arch[a].fiber,
	              got.err);
	ck_assert_uint_eq(want.n, got.n);
	ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0,
	              "%s: fiberc's output on %s computes other buffers than the input on %s", lines[k],
	              arch[a].fiber, arch[a].simt);
	ck_assert_msg(got.hazards == 0, "%s: %llu hazards in fiberc's output on %s", in,
	              (unsigned long long)got.hazards, arch[a].fiber);
	ck_assert_msg(got.cycles * 100 <= want.cycles * 102,
	              "%s: fiberc's output takes %llu cycles on %s, the input %llu on %s (> 2%%)", in,
	              (unsigned long long)got.cycles, arch[a].fiber, (unsigned long long)want.cycles,
	              arch[a].simt);
	kr_free(&want);
	kr_free(&got);
	unlink(out);
	free(out);
}
END_TEST

/* why the listing at path does not load: the message after "error: " */
static void
open_err(const char *path, const char *config, char *why, size_t n)
{
	char name[64];
	KRun r;
	const char *e;

	kr_run_generic(path, config, FIBER_MODE_FUNCTIONAL, 0, name, sizeof name, &r);
	e = strstr(r.err, "error: ");
	snprintf(why, n, "%s", e ? e + 7 : r.err);
	kr_free(&r);
}

/* the corpus listings: tests/corpus/NAME.sm_XX.sass and tests/corpus/latency/... */
static char corpus[128][1300];
static int ncorpus;

static void
scan(const char *sub)
{
	char path[1024];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof path, "%s/tests/corpus%s", kr_root(), sub);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)) && ncorpus < 128) {
		size_t n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".sass") == 0)
			snprintf(corpus[ncorpus++], sizeof corpus[0], "%s/%s", path, e->d_name);
	}
	closedir(d);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

START_TEST(corpus_differential)
{
	const char *in = corpus[_i];
	int sm90 = strstr(in, ".sm_90") != NULL || strstr(in, ".sm_100") != NULL;
	const char *simt = sm90 ? "h100" : "a100", *fib = sm90 ? "h100-fiber" : "a100-fiber";
	char err[4096], name[256];
	unsigned nfn = 0;
	char *out = compile(in, "", err, sizeof err);

	ck_assert_msg(out != NULL, "fiberc --mode=cuda-native %s failed:\n%s", in, err);
	if (kr_function_count(in, simt, &nfn) < 0) {
		/* the simulator does not run the input (tex, TMA listings): it must refuse fiberc's
		 * output for the same reason */
		char why_in[256], why_out[256];
		unsigned n2;
		ck_assert_int_eq(kr_function_count(in, simt, &nfn), -1);
		open_err(in, simt, why_in, sizeof why_in);
		ck_assert_msg(kr_function_count(out, fib, &n2) < 0, "%s does not load on %s, but "
		              "fiberc's output loads on %s", in, simt, fib);
		open_err(out, fib, why_out, sizeof why_out);
		ck_assert_msg(strcmp(why_in, why_out) == 0, "%s: refused with '%s', fiberc's output "
		              "with '%s'", in, why_in, why_out);
		unlink(out);
		free(out);
		return;
	}
	ck_assert_uint_gt(nfn, 0);
	for (unsigned f = 0; f < nfn; f++) {
		KRun want, got;

		ck_assert_int_eq(kr_run_generic(in, simt, FIBER_MODE_FUNCTIONAL, f, name, sizeof name,
		                                &want), 0);
		ck_assert_msg(kr_run_generic(out, fib, FIBER_MODE_FUNCTIONAL, f, name, sizeof name,
		                             &got) == 0, "%s: %s", in, got.err);
		ck_assert_msg(want.status == got.status, "%s %s: the input ends with '%s' on %s, fiberc's "
		              "output with '%s' on %s", in, name, want.status ? want.err : "success",
		              simt, got.status ? got.err : "success", fib);
		ck_assert_uint_eq(want.n, got.n);
		ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0, "%s %s: fiberc's output on %s "
		              "computes other buffers than the input on %s", in, name, fib, simt);
		kr_free(&want);
		kr_free(&got);
	}
	unlink(out);
	free(out);
}
END_TEST

Suite *
fiberdiff_suite(void)
{
	Suite *s = suite_create("fiberdiff");
	TCase *tc;
	char path[1024];

	snprintf(path, sizeof path, "%s/examples/kernels.txt", kr_root());
	nlines = kr_read_lines(path, lines, 32);
	if (nlines < 0)
		nlines = 0;
	scan("");
	scan("/latency");
	qsort(corpus, (size_t)ncorpus, sizeof corpus[0], cmp_str);
	tc = tcase_create("examples");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, example_differential, 0, 2 * (nlines > 0 ? nlines : 1));
	suite_add_tcase(s, tc);
	tc = tcase_create("corpus");
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, corpus_differential, 0, ncorpus > 0 ? ncorpus : 1);
	suite_add_tcase(s, tc);
	return s;
}
