/* check_checks.c: compute-sanitizer's checks in the simulator (sim/check.c, sim/racecheck.c,
 * sim/synccheck.c): racecheck finds the hazards of tests/checks/racy.cu (the kind, the pair of
 * instructions) in functional and timing mode, and stays silent on the same kernels with their
 * barrier; racecheck and synccheck together stay silent on every example (examples/kernels.txt,
 * a100 and h100, both modes) and on every function of every corpus listing (tests/corpus/,
 * tests/corpus/latency/: the generic launch of kernrun.c, functional) but the two that race
 * under that launch. A checked launch gives the outputs and cycles of the unchecked one.
 * tests/checks.sh covers fibersim and synccheck's findings. Files come from $FIBER_ROOT.
 */
#include "kernrun.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const archs[] = { "sm_80", "sm_90" };

/* the report stream of the checked runs: its text so far, then emptied */
static FILE *rep;

static const char *
report_text(void)
{
	static char buf[16384];
	size_t n;

	fflush(rep);
	rewind(rep);
	n = fread(buf, 1, sizeof buf - 1, rep);
	buf[n] = 0;
	if (freopen(NULL, "w+", rep) == NULL)
		abort();
	return buf;
}

static void
setup(void)
{
	rep = tmpfile();
	ck_assert_ptr_nonnull(rep);
	kr_set_checks(FIBER_CHECK_RACE | FIBER_CHECK_SYNC | FIBER_CHECK_INIT, rep);
}

static void
teardown(void)
{
	kr_set_checks(0, NULL);
	fclose(rep);
}

/* one kernel of racy.cu on 256 floats or ints (grid 2, block 256) */
static void
run_racy(const char *arch, fiberSimMode mode, const char *kernel, KRun *r)
{
	char path[1200], line[512];

	snprintf(path, sizeof path, "%s/tests/checks/racy.%s.sass", kr_root(), arch);
	if (strncmp(kernel, "norm", 4) == 0)
		snprintf(line, sizeof line, "checks %s 2,1,1 256,1,1 0 x:f32*[256]:in,y:f32*[256]:out,"
		         "n:i32=256", kernel);
	else if (strcmp(kernel, "publish_racy") == 0)
		snprintf(line, sizeof line, "checks %s 2,1,1 256,1,1 0 in:i32*[2]:in,out:i32*[512]:out",
		         kernel);
	else
		snprintf(line, sizeof line, "checks %s 2,1,1 256,1,1 0 out:i32*[2]:out", kernel);
	ck_assert_msg(kr_run_line(path, arch[3] == '8' ? "a100" : "h100", mode, line, r) == 0, "%s",
	              r->err);
	ck_assert_msg(r->status == FIBER_SUCCESS, "%s %s: %s", arch, kernel, r->err);
}

static const struct {
	const char *kernel;    /* of racy.cu */
	const char *kinds;     /* the kinds it must report ("" none), one of them at least */
} racy[] = {
	{ "norm_racy", "RAW WAR" },
	{ "norm_fixed", "" },
	{ "publish_racy", "RAW WAR" },
	{ "store_racy", "WAW" },
};

START_TEST(test_race_found)
{
	const char *arch = archs[_i % 2];
	fiberSimMode mode = _i / 2 % 2 ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
	unsigned k = (unsigned)_i / 4;
	const char *txt;
	KRun r;

	run_racy(arch, mode, racy[k].kernel, &r);
	txt = report_text();
	if (!*racy[k].kinds) {
		ck_assert_msg(r.found == 0, "%s %s: %s", arch, racy[k].kernel, txt);
		ck_assert_ptr_nonnull(strstr(txt, "RACECHECK SUMMARY: 0 hazards displayed"));
	} else {
		char kinds[32], *save = NULL;
		int seen = 0;
		ck_assert_msg(r.found > 0, "%s %s: nothing found", arch, racy[k].kernel);
		ck_assert_ptr_nonnull(strstr(txt, "========= Error: Race reported between "));
		snprintf(kinds, sizeof kinds, "%s", racy[k].kinds);
		for (char *t = strtok_r(kinds, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char want[40];
			snprintf(want, sizeof want, ", %s]", t);
			seen |= strstr(txt, want) != NULL;
		}
		ck_assert_msg(seen, "%s %s: none of %s in\n%s", arch, racy[k].kernel, racy[k].kinds, txt);
		ck_assert_ptr_nonnull(strstr(txt, "in block (0,0,0)"));
	}
	kr_free(&r);
}
END_TEST

/* a checked launch computes what an unchecked one does */
START_TEST(test_race_same_outputs)
{
	KRun a, b;

	run_racy(archs[_i], FIBER_MODE_TIMING, "norm_fixed", &a);
	kr_set_checks(0, NULL);
	run_racy(archs[_i], FIBER_MODE_TIMING, "norm_fixed", &b);
	kr_set_checks(FIBER_CHECK_RACE | FIBER_CHECK_SYNC | FIBER_CHECK_INIT, rep);
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_int_eq(memcmp(a.buf, b.buf, a.n), 0);
	ck_assert_uint_eq(a.cycles, b.cycles);
	kr_free(&a);
	kr_free(&b);
}
END_TEST

START_TEST(test_race_examples_silent)
{
	static char lines[64][2048];
	const char *arch = archs[_i % 2];
	fiberSimMode mode = _i / 2 ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
	char path[1600], kl[1200];
	int n;

	snprintf(kl, sizeof kl, "%s/examples/kernels.txt", kr_root());
	n = kr_read_lines(kl, lines, 64);
	ck_assert_int_ge(n, 10);
	for (int k = 0; k < n; k++) {
		char dir[64];
		KRun r;
		if (sscanf(lines[k], "%63s", dir) != 1)
			continue;
		snprintf(path, sizeof path, "%s/examples/%s/%s.%s.sass", kr_root(), dir, dir, arch);
		ck_assert_msg(kr_run_line(path, arch[3] == '8' ? "a100" : "h100", mode, lines[k], &r) == 0,
		              "%s", r.err);
		ck_assert_msg(r.status == FIBER_SUCCESS, "%s: %s", lines[k], r.err);
		ck_assert_msg(r.found == 0, "%s %s: %s", arch, lines[k], report_text());
		report_text();
		kr_free(&r);
	}
}
END_TEST

/* Every function of every corpus listing, generic arguments (grid 2, block 128): whatever it
 * computes or faults on, racecheck reports nothing, but on the two kernels that race under this
 * launch, which it must report: */
static const struct {
	const char *kernel;
	const char *why;
} corpus_racy[] = {
	{ "k_syncwarp", "semantics.cu: written for one warp (its s[32] is indexed by the lane); with "
	                "128 threads four warps store to the same words" },
	{ "lat_mem_shared", "latency/mem.cu, a latency microbenchmark: its loop stores into sm[] "
	                    "that other warps read, with only __syncwarp() between" },
};

static int
expected_racy(const char *name)
{
	for (size_t k = 0; k < sizeof corpus_racy / sizeof corpus_racy[0]; k++)
		if (strcmp(name, corpus_racy[k].kernel) == 0)
			return 1;
	return 0;
}

static void
corpus_dir(const char *sub, unsigned *nrun)
{
	char dir[1200];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof dir, "%s/tests/corpus%s", kr_root(), sub);
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[1600];
		unsigned nfn = 0;
		if (len < 6 || strcmp(e->d_name + len - 5, ".sass") != 0)
			continue;
		const char *cfg = strstr(e->d_name, ".sm_9") ? "h100" : "a100";
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (kr_function_count(path, cfg, &nfn) < 0)
			continue;
		for (unsigned f = 0; f < nfn; f++) {
			char name[128];
			KRun r;
			if (kr_run_generic(path, cfg, FIBER_MODE_FUNCTIONAL, f, name, sizeof name, &r) < 0)
				continue;
			if (expected_racy(name))
				ck_assert_msg(r.found > 0, "%s %s: a race under this launch, not found",
				              e->d_name, name);
			else
				ck_assert_msg(r.found == 0, "%s %s: %s", e->d_name, name, report_text());
			report_text();
			kr_free(&r);
			(*nrun)++;
		}
	}
	closedir(d);
}

START_TEST(test_race_corpus_silent)
{
	unsigned n = 0;

	kr_set_watchdog(1u << 22);
	corpus_dir("", &n);
	corpus_dir("/latency", &n);
	kr_set_watchdog(0);
	ck_assert_uint_ge(n, 40);
}
END_TEST

/* initcheck through the API: what the host writes, what the kernel reads, tracking turned off */
START_TEST(test_init_api)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr in, scratch, out;
	int host[256];
	void *params[3] = { &in, &scratch, &out };
	const unsigned g[3] = { 2, 1, 1 }, b[3] = { 128, 1, 1 };
	uint64_t n = 0;

	for (int k = 0; k < 256; k++)
		host[k] = k;
	snprintf(path, sizeof path, "%s/tests/checks/uninit.%s.sass", kr_root(), archs[_i]);
	ck_assert_int_eq(fiberDeviceCreate(&d, archs[_i][3] == '8' ? "a100" : "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetChecks(d, 8), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetChecks(d, FIBER_CHECK_INIT), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetOutput(d, NULL, rep), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, path), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "add_scratch"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &in, sizeof host), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &scratch, sizeof host), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &out, sizeof host), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, in, host, sizeof host), FIBER_SUCCESS);
	/* scratch never written: every thread's read is a finding */
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_SUCCESS);
	ck_assert_int_eq(fiberGetCheckCount(d, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, 256);
	ck_assert_ptr_nonnull(strstr(report_text(), "Uninitialized __global__ memory read of size 4"));
	/* half of it written by the host: the other half's reads */
	ck_assert_int_eq(fiberMemcpyHtoD(d, scratch, host, sizeof host / 2), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_SUCCESS);
	ck_assert_int_eq(fiberGetCheckCount(d, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, 128);
	report_text();
	/* off, then on: the maps are forgotten (the allocations are no longer tracked) */
	ck_assert_int_eq(fiberDeviceSetChecks(d, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetChecks(d, FIBER_CHECK_INIT), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_SUCCESS);
	ck_assert_int_eq(fiberGetCheckCount(d, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, 0);
	report_text();
	fiberDeviceDestroy(d);
}
END_TEST

Suite *
checks_suite(void)
{
	Suite *s = suite_create("checks");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_race_found, 0, 4 * (int)(sizeof racy / sizeof racy[0]));
	tcase_add_loop_test(tc, test_race_same_outputs, 0, 2);
	tcase_add_loop_test(tc, test_race_examples_silent, 0, 4);
	tcase_add_test(tc, test_race_corpus_silent);
	tcase_add_loop_test(tc, test_init_api, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
