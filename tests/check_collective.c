/* check_collective.c: WARPSYNC.COLLECTIVE (sim/warp.c sim_collective, docs/sim.md "Collective
 * regions") on nvcc's SASS of tests/collective/collective.cu: shuffles, butterflies, ballots and
 * reductions whose lanes wait at different copies of the region (the two sides of a divergent
 * branch) or have exited, against CPU references, on sm_90 (regions) and sm_80 (nvcc's shared
 * subroutine: the same answers), functional and timing, and on the FIBER SM (fiberc
 * --mode=cuda-native, h100-fiber); racecheck, synccheck and initcheck are
 * silent on them; a lane that never arrives faults.
 */
#include "kernrun.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Grid = 4, Block = 128, N = Grid * Block };

static const char *const archs[] = { "sm_90", "sm_80" };

/* collective.cu's mix */
static uint32_t
mix(uint32_t i)
{
	i = i * 2654435761u + 12345u;
	return i ^ (i >> 13);
}

/* the reference of one kernel: out[g] for the warp whose first thread is w0 */
typedef void RefFn(uint32_t w0, uint32_t out[32]);

static void
ref_shfl(uint32_t w0, uint32_t out[32])
{
	uint32_t val[32], src[32];

	for (uint32_t l = 0; l < 32; l++) {
		uint32_t v = mix(w0 + l);
		val[l] = v & 1 ? v : v ^ 0x55u;
		src[l] = v & 1 ? (l + 1) & 31 : (l + 7) & 31;
	}
	for (uint32_t l = 0; l < 32; l++)
		out[l] = mix(w0 + l) & 1 ? val[src[l]] * 3 + l : val[src[l]] ^ 0xabcu;
}

static void
ref_bfly(uint32_t w0, uint32_t out[32])
{
	uint32_t s[32], t[32];

	for (uint32_t l = 0; l < 32; l++) {
		uint32_t v = mix(w0 + l) & 0xffff;
		s[l] = v & 2 ? v : 3 * v + 1;
	}
	for (uint32_t o = 16; o; o >>= 1) {
		for (uint32_t l = 0; l < 32; l++)
			t[l] = s[l] + s[l ^ o];
		memcpy(s, t, sizeof s);
	}
	memcpy(out, s, sizeof s);
}

static void
ref_vote(uint32_t w0, uint32_t out[32])
{
	uint32_t ballot = 0, sum = 0;

	for (uint32_t l = 0; l < 32; l++) {
		uint32_t v = mix(w0 + l);
		ballot |= (uint32_t)((v & 4 ? v & 8 : v & 16) != 0) << l;
		sum += v & 4 ? v & 0xff : (v >> 8) & 0xff;
	}
	for (uint32_t l = 0; l < 32; l++)
		out[l] = ballot + sum;
}

static void
ref_exited(uint32_t w0, uint32_t out[32])
{
	uint32_t val[24], src[24];

	for (uint32_t l = 0; l < 24; l++) {
		uint32_t v = mix(w0 + l);
		val[l] = v & 1 ? v : v + 1;
		src[l] = v & 1 ? (l + 3) % 24 : (l + 5) % 24;
	}
	for (uint32_t l = 0; l < 32; l++)
		out[l] = l < 24 ? val[src[l]] : 0;
}

static const struct {
	const char *kernel;    /* of collective.cu */
	RefFn *ref;
} kernels[] = {
	{ "coll_shfl_sites", ref_shfl },
	{ "coll_bfly_sites", ref_bfly },
	{ "coll_vote_sites", ref_vote },
	{ "coll_exited", ref_exited },
};

/* kernel of the listing at path on config */
static void
run_on(const char *path, const char *config, fiberSimMode mode, const char *kernel, KRun *r)
{
	char line[256];

	snprintf(line, sizeof line, "collective %s %d,1,1 %d,1,1 0 out:u32*[%d]:out", kernel, Grid,
	         Block, N);
	ck_assert_msg(kr_run_line(path, config, mode, line, r) == 0, "%s", r->err);
}

static void
run(const char *arch, fiberSimMode mode, const char *kernel, KRun *r)
{
	char path[1200];

	snprintf(path, sizeof path, "%s/tests/collective/collective.%s.sass", kr_root(), arch);
	run_on(path, arch[3] == '9' ? "h100" : "a100", mode, kernel, r);
}

/* out against the reference of kernel k */
static void
check_out(const KRun *r, unsigned k, const char *what)
{
	uint32_t ref[32];

	ck_assert_msg(r->status == FIBER_SUCCESS, "%s %s: %s", what, kernels[k].kernel, r->err);
	ck_assert_uint_eq(r->n, N * 4);
	for (uint32_t w0 = 0; w0 < N; w0 += 32) {
		kernels[k].ref(w0, ref);
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t got;
			memcpy(&got, r->buf + 4 * (w0 + l), 4);
			ck_assert_msg(got == ref[l], "%s %s: thread %u: 0x%x, expected 0x%x", what,
			              kernels[k].kernel, w0 + l, got, ref[l]);
		}
	}
}

/* every output word against the reference */
START_TEST(test_collective_outputs)
{
	const char *arch = archs[_i % 2];
	fiberSimMode mode = _i / 2 % 2 ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
	unsigned k = (unsigned)_i / 4;
	char what[64];
	KRun r;

	snprintf(what, sizeof what, "%s %s", arch, mode == FIBER_MODE_TIMING ? "timing" : "functional");
	run(arch, mode, kernels[k].kernel, &r);
	check_out(&r, k, what);
	kr_free(&r);
}
END_TEST

/* the FIBER SM: fiberc --mode=cuda-native of the sm_90 listing on h100-fiber (timed), where a
 * weft's fibers gather at the regions as a warp's threads do */
START_TEST(test_collective_fiber)
{
	char in[1200], err[1024], *path;

	snprintf(in, sizeof in, "%s/tests/collective/collective.sm_90.sass", kr_root());
	path = kr_fiberc(in, "--mode=cuda-native", err, sizeof err);
	ck_assert_msg(path != NULL, "%s", err);
	for (unsigned k = 0; k < sizeof kernels / sizeof *kernels; k++) {
		KRun r;
		run_on(path, "h100-fiber", FIBER_MODE_TIMING, kernels[k].kernel, &r);
		check_out(&r, k, "h100-fiber");
		kr_free(&r);
	}
	remove(path);
	free(path);
}
END_TEST

/* compute-sanitizer's three checks are silent on the regions (no race, no barrier misuse, no
 * uninitialised read) and leave the outputs as an unchecked run gives them */
START_TEST(test_collective_checked)
{
	const char *arch = archs[_i % 2];
	unsigned k = (unsigned)_i / 2;
	FILE *rep = tmpfile();
	char txt[4096];
	size_t n;
	KRun a, b;

	ck_assert_ptr_nonnull(rep);
	run(arch, FIBER_MODE_FUNCTIONAL, kernels[k].kernel, &a);
	kr_set_checks(FIBER_CHECK_RACE | FIBER_CHECK_SYNC | FIBER_CHECK_INIT, rep);
	run(arch, FIBER_MODE_FUNCTIONAL, kernels[k].kernel, &b);
	kr_set_checks(0, NULL);
	rewind(rep);
	n = fread(txt, 1, sizeof txt - 1, rep);
	txt[n] = 0;
	fclose(rep);
	ck_assert_msg(b.status == FIBER_SUCCESS && b.found == 0, "%s %s: %s", arch,
	              kernels[k].kernel, txt);
	ck_assert_ptr_nonnull(strstr(txt, "SYNCCHECK SUMMARY: 0 errors"));
	ck_assert_uint_eq(a.n, b.n);
	ck_assert(memcmp(a.buf, b.buf, a.n) == 0);
	kr_free(&a);
	kr_free(&b);
}
END_TEST

/* the inputs split every warp between the two sides (else the regions would not be crossed) */
START_TEST(test_collective_inputs_split)
{
	for (uint32_t w0 = 0; w0 < N; w0 += 32) {
		uint32_t odd = 0, two = 0, four = 0;
		for (uint32_t l = 0; l < 32; l++) {
			odd += mix(w0 + l) & 1;
			two += (mix(w0 + l) & 2) != 0;
			four += (mix(w0 + l) & 4) != 0;
		}
		ck_assert(odd > 0 && odd < 32 && two > 0 && two < 32 && four > 0 && four < 32);
	}
}
END_TEST

/* lane 3 waits at a CTA barrier while the rest of its warp waits for it at the shuffle
 * (undefined in PTX): a deadlock fault, in both modes. On sm_90 the others wait at the
 * WARPSYNC.COLLECTIVE (lane 3's WARPSYNC.ALL before the barrier is another kind); on sm_80 the
 * subroutine's plain WARPSYNC pairs with that WARPSYNC.ALL, and they wait at the BSYNC after it */
START_TEST(test_collective_missing_member)
{
	const char *arch = archs[_i % 2];
	fiberSimMode mode = _i / 2 ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
	KRun r;

	run(arch, mode, "coll_missing", &r);
	ck_assert_msg(r.status != FIBER_SUCCESS, "%s: no fault", arch);
	ck_assert_msg(strstr(r.err, "deadlock") && strstr(r.err, arch[3] == '9' ? "31 at WARPSYNC.COLLECTIVE" :
	                                                   "31 at BSYNC"), "%s: %s", arch, r.err);
	kr_free(&r);
}
END_TEST

Suite *
collective_suite(void)
{
	Suite *s = suite_create("collective");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_collective_outputs, 0, 4 * (int)(sizeof kernels / sizeof *kernels));
	tcase_add_test(tc, test_collective_fiber);
	tcase_add_loop_test(tc, test_collective_checked, 0, 2 * (int)(sizeof kernels / sizeof *kernels));
	tcase_add_test(tc, test_collective_inputs_split);
	tcase_add_loop_test(tc, test_collective_missing_member, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
