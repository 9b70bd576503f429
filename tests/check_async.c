/* check_async.c: Hopper's mbarriers and bulk copies (sim/async.c, sim/exec_sync.c) on nvcc 13's
 * sm_90a SASS of examples/hopper/async_copy.cu: a bulk copy in and out, a producer/consumer
 * pipeline over a 4-stage ring, the mbarrier operations' answers, each against a CPU reference
 * and equal in functional and timing mode; the misuses fault as mbarrier misuse with a message
 * that says which; in timing mode a copy's completion is seen when it completes (a longer L2
 * latency delays the kernel by at least the difference); a wait no arrival can complete is a
 * deadlock fault at once. Each test runs on ptxas's listing and on fiberc's compile of the same
 * kernels' PTX (async_copy.sm_90a.ptx, backend/isel/ptxsel_async90.c); test_async_fiberc_same
 * compares the two programs' buffers. Files come from $FIBER_ROOT.
 */
#define _POSIX_C_SOURCE 200809L
#include "fiber.h"
#include "kernrun.h"
#include "ptx.h"
#include "ptxlow.h"

#include <check.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Tile = 1024 };

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* the listing the tests load: ptxas's (0) or fiberc's compile of the PTX (1) */
static int use_fiberc;

/* a device on h100 in the mode asked (set: configuration key=value settings, NULL-ended, or
 * NULL), the module
 * loaded, kernel name looked up */
static fiberDevice
open_kernel(int timed, const char *const *set, const char *name, fiberFunction *f)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;
	char *tmp = NULL, err[4096];

	if (use_fiberc) {
		snprintf(path, sizeof path, "%s/examples/hopper/async_copy.sm_90a.ptx", root());
		tmp = kr_fiberc(path, "--arch=sm_90a", err, sizeof err);
		ck_assert_msg(tmp != NULL, "fiberc: %s", err);
		snprintf(path, sizeof path, "%s", tmp);
	} else {
		snprintf(path, sizeof path, "%s/examples/hopper/async_copy.sm_90a.sass", root());
	}
	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, timed ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL),
	                 FIBER_SUCCESS);
	for (; set && *set; set++)
		ck_assert_msg(fiberDeviceSetConfigValue(d, *set) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(d));
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	if (tmp)
		unlink(tmp);
	free(tmp);
	ck_assert_msg(fiberModuleGetFunction(f, m, name) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	return d;
}

/* n floats of a fixed pseudo-random sequence in [-4, 4) */
static void
fill(float *v, unsigned n, unsigned seed)
{
	uint32_t s = seed * 2654435761u + 1;
	for (unsigned k = 0; k < n; k++) {
		s = s * 1664525u + 1013904223u;
		v[k] = (float)(s >> 8) / (float)(1 << 24) * 8.0f - 4.0f;
	}
}

/* run kernel name on in (nin floats) into out (nout floats); extra: an int parameter or -1;
 * the cycles (0 functional) */
static uint64_t
run(int timed, const char *const *set, const char *name, unsigned grid, unsigned block,
    const float *in, unsigned nin, float *out, unsigned nout, int extra)
{
	fiberFunction f;
	fiberDevice d = open_kernel(timed, set, name, &f);
	fiberDevicePtr din, dout;
	void *params[3] = { &din, &dout, &extra };
	const unsigned g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
	fiberStats st;

	ck_assert_int_eq(fiberMalloc(d, &din, nin * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, nout * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, nin * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0, nout * 4), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, nout * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	ck_assert_uint_eq(st.hazards, 0);
	fiberDeviceDestroy(d);
	return st.cycles;
}

/* bulk_copy: out = in * 2 + 1 per 4 KiB tile, through a bulk copy in, an mbarrier and a bulk
 * store out */
START_TEST(test_async_bulk_copy)
{
	static float in[4 * Tile], out[2][4 * Tile];
	use_fiberc = _i;
	fill(in, 4 * Tile, 1);
	for (int timed = 0; timed < 2; timed++) {
		run(timed, NULL, "bulk_copy", 4, 128, in, 4 * Tile, out[timed], 4 * Tile, -1);
		for (unsigned k = 0; k < 4 * Tile; k++)
			ck_assert_msg(out[timed][k] == in[k] * 2.0f + 1.0f, "%s: out[%u] = %g, want %g",
			              timed ? "timing" : "functional", k, out[timed][k], in[k] * 2.0f + 1.0f);
	}
}
END_TEST

/* pipeline: 4 CTAs of 8 tiles each; out = in * in + 1 */
START_TEST(test_async_pipeline)
{
	use_fiberc = _i;
	enum { N = 4 * 8 * Tile };
	static float in[N], out[2][N];

	fill(in, N, 2);
	for (int timed = 0; timed < 2; timed++) {
		run(timed, NULL, "pipeline", 4, 160, in, N, out[timed], N, 8);
		for (unsigned k = 0; k < N; k++) {
			float want = fmaf(in[k], in[k], 1.0f);  /* nvcc contracts v * v + 1 to FFMA */
			ck_assert_msg(out[timed][k] == want, "%s: out[%u] = %.9g, want %.9g",
			              timed ? "timing" : "functional", k, out[timed][k], want);
		}
	}
}
END_TEST

/* a copy completes lat_tma + bytes / bandwidth after its start, and the waiting warps see it
 * then: 4,635 more cycles of copy latency delay bulk_copy by at least 4,000 cycles (its loads go
 * through the copy; its store is the CTA's last act) */
START_TEST(test_async_completion_cycle)
{
	static const char *const slow_l2[] = { "lat_tma=5000", NULL };
	static float in[Tile], out[Tile];
	uint64_t base, slow;
	use_fiberc = _i;
	fill(in, Tile, 3);
	base = run(1, NULL, "bulk_copy", 1, 128, in, Tile, out, Tile, -1);
	slow = run(1, slow_l2, "bulk_copy", 1, 128, in, Tile, out, Tile, -1);
	ck_assert_msg(base > 0 && slow >= base + 4000, "cycles %llu -> %llu",
	              (unsigned long long)base, (unsigned long long)slow);
	for (unsigned k = 0; k < Tile; k++)
		ck_assert(out[k] == in[k] * 2.0f + 1.0f);
}
END_TEST

/* mbar_forms with count 5: pending counts of the states arrive returns, test_wait by state and
 * by parity, expect_tx/complete_tx holding a phase open, arrive_drop lowering the count */
START_TEST(test_async_mbar_forms)
{
	static const uint64_t want[11] = { 5, 0, 4, 0, 1, 0, 5, 4, 4, 0, 1 };
	int timed = _i % 2;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 2, open_kernel(timed, NULL, "mbar_forms", &f));
	fiberDevicePtr dout;
	uint64_t out[11];
	int k = 5;
	void *params[2] = { &dout, &k };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };

	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0xff, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (unsigned j = 0; j < 11; j++)
		ck_assert_msg(out[j] == want[j], "out[%u] = %llu, want %llu", j,
		              (unsigned long long)out[j], (unsigned long long)want[j]);
	fiberDeviceDestroy(d);
}
END_TEST

/* mbar_misuse: mode 0 runs; modes 1-4 fault, each with its own message */
START_TEST(test_async_mbar_misuse)
{
	static const char *const want[5] = {
		NULL, "arrive of an mbarrier that is not initialised",
		"transaction count underflow: complete_tx of 32 bytes",
		"arrive with count 3 on the mbarrier at shared offset 0x",
		"arrive of an mbarrier that is not initialised (or was invalidated)",
	};
	int mode = _i % 5, timed = _i / 5 % 2;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 10, open_kernel(timed, NULL, "mbar_misuse", &f));
	void *params[1] = { &mode };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
	fiberStatus s = fiberLaunchKernel(f, g, b, 0, params);
	fiberFault fault;

	if (!want[mode]) {
		ck_assert_msg(s == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	} else {
		ck_assert_int_eq(s, FIBER_ERROR_LAUNCH_FAILED);
		ck_assert_int_eq(fiberGetLastFault(d, &fault), FIBER_SUCCESS);
		ck_assert_int_eq(fault.kind, FIBER_FAULT_MBARRIER);
		ck_assert_str_eq(fault.name, "mbarrier misuse");
		ck_assert_msg(strstr(fault.message, want[mode]), "%s", fault.message);
		/* ptxas places the barrier after the 1 KiB sm_90 reserves, fiberc at 0 */
		ck_assert_msg(mode != 3 || strstr(fault.message, use_fiberc ? "offset 0x0 with 2 "
		              "arrivals pending" : "offset 0x400 with 2 arrivals pending"), "%s",
		              fault.message);
	}
	fiberDeviceDestroy(d);
}
END_TEST

/* bulk_reduce: acc[i] = (1 + i) + i / 4 by an f32 add reduction, umax[i] = max(500, 7 i % 1000)
 * by a u32 max reduction, both modes */
START_TEST(test_async_bulk_reduce)
{
	int timed = _i % 2;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 2, open_kernel(timed, NULL, "bulk_reduce", &f));
	fiberDevicePtr dacc, dmax;
	static float acc[Tile];
	static uint32_t umax[Tile];
	void *params[2] = { &dacc, &dmax };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 128, 1, 1 };

	for (unsigned k = 0; k < Tile; k++) {
		acc[k] = 1.0f + (float)k;
		umax[k] = 500;
	}
	ck_assert_int_eq(fiberMalloc(d, &dacc, sizeof acc), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dmax, sizeof umax), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, dacc, acc, sizeof acc), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, dmax, umax, sizeof umax), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, acc, dacc, sizeof acc), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, umax, dmax, sizeof umax), FIBER_SUCCESS);
	for (unsigned k = 0; k < Tile; k++) {
		float want = (1.0f + (float)k) + (float)k * 0.25f;
		uint32_t wu = k * 7 % 1000 > 500 ? k * 7 % 1000 : 500;
		ck_assert_msg(acc[k] == want, "acc[%u] = %g, want %g", k, acc[k], want);
		ck_assert_msg(umax[k] == wu, "umax[%u] = %u, want %u", k, umax[k], wu);
	}
	fiberDeviceDestroy(d);
}
END_TEST

/* bulk_s2s: a bulk copy from shared to shared memory (UBLKCP.S.S) completing on an mbarrier */
START_TEST(test_async_bulk_s2s)
{
	int timed = _i % 2;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 2, open_kernel(timed, NULL, "bulk_s2s", &f));
	fiberDevicePtr dout;
	static uint32_t out[Tile];
	void *params[1] = { &dout };
	const unsigned g[3] = { 2, 1, 1 }, b[3] = { 128, 1, 1 };

	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (unsigned k = 0; k < Tile; k++)
		ck_assert_msg(out[k] == 3 * k, "out[%u] = %u", k, out[k]);
	fiberDeviceDestroy(d);
}
END_TEST

/* pipeline with 2 consumer warps (block 96) where its empty barriers expect 4: the producer's
 * wait can never complete, nor then the consumers'; a deadlock fault at once in both modes
 * (not a spin until the watchdog) */
START_TEST(test_async_deadlock)
{
	enum { N = 8 * Tile };
	static float in[N];
	int timed = _i % 2, tiles = 8;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 2, open_kernel(timed, NULL, "pipeline", &f));
	fiberDevicePtr din, dout;
	void *params[3] = { &din, &dout, &tiles };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 96, 1, 1 };
	fiberFault fault;
	fiberStats st;

	ck_assert_int_eq(fiberMalloc(d, &din, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(d, &fault), FIBER_SUCCESS);
	ck_assert_int_eq(fault.kind, FIBER_FAULT_DEADLOCK);
	ck_assert_msg(strstr(fault.message, "waits on an mbarrier phase"), "%s", fault.message);
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	/* fiberc's listing: the producer warp's other lanes stay live, waiting for lane 0's loop
	 * to reconverge (ptxas's exit at once), and the check counts them as able to arrive: the
	 * fault comes after ~204k warp instructions (ptxas's listing: ~1.1k) */
	ck_assert_msg(st.warp_instructions < (use_fiberc ? 400000u : 100000u),
	              "%llu warp instructions before the fault",
	              (unsigned long long)st.warp_instructions);
	fiberDeviceDestroy(d);
}
END_TEST

/* the forms fiberc does not select on sm_90a are located errors naming why (and a plain sm_90
 * target keeps sm_80's mbarrier words: the transaction forms are refused there) */
START_TEST(test_async_refused)
{
	static const struct { int sm; const char *body, *msg; } cases[] = {
		{ 90, "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;",
		  "transaction-count" },
		{ 0, "cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];", "its SYNCS form" },
		{ 0, "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];", "shared::cluster" },
		{ 0, "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], %r2, %r3;", "time limit" },
		{ 0, "mbarrier.arrive.b64 %rd1, [%rd2];", "generic address" },
		{ 0, "cp.async.bulk.prefetch.L2.global [%rd1], 16;", "bulk prefetches" },
		{ 0, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 24, "
		  "[%r2];", "multiple of 16" },
		{ 0, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [%rd1], [%r1], 16;",
		  "bulk reduction" },
		{ 0, "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
		  "[%r1], [%rd1, {%r2, %r3, %r4, %r5}], [%r6], {%rs1, %rs2};", "tile mode" },
		{ 0, "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
		  ".multicast::cluster [%r1], [%rd1, {%r2, %r3}], [%r6], %rs1;", "multicast" },
	};
	char ptx[2048], *msg = NULL;
	size_t nmsg = 0;
	FILE *f = open_memstream(&msg, &nmsg);
	Diag d;
	Src *src, *low = NULL;
	Ptx *p;

	snprintf(ptx, sizeof ptx, ".version 8.5\n.target sm_90%s\n.address_size 64\n"
	         ".visible .entry k()\n{\n\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<4>;\n"
	         "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\t%s\n\tret;\n}\n",
	         cases[_i].sm == 90 ? "" : "a", cases[_i].body);
	src = src_new("t.ptx", ptx, strlen(ptx));
	diag_init(&d, src, f);
	p = ptx_parse(src, &d);
	ck_assert_msg(p != NULL, "%s", ptx);
	low = ptx_lower(p, 90, &d);
	fclose(f);
	ck_assert_msg(low == NULL, "'%s' was selected", cases[_i].body);
	ck_assert_msg(msg && strstr(msg, "t.ptx:") && strstr(msg, "is not supported yet") &&
	              strstr(msg, cases[_i].msg), "'%s' not in: %s", cases[_i].msg, msg);
	free(msg);
	ptx_free(p);
	src_free(src);
}
END_TEST

Suite *
async_suite(void)
{
	Suite *s = suite_create("async");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	/* _i: the mode, then the listing (ptxas's, fiberc's) */
	tcase_add_loop_test(tc, test_async_bulk_copy, 0, 2);
	tcase_add_loop_test(tc, test_async_pipeline, 0, 2);
	tcase_add_loop_test(tc, test_async_completion_cycle, 0, 2);
	tcase_add_loop_test(tc, test_async_mbar_forms, 0, 4);
	tcase_add_loop_test(tc, test_async_mbar_misuse, 0, 20);
	tcase_add_loop_test(tc, test_async_deadlock, 0, 4);
	tcase_add_loop_test(tc, test_async_bulk_reduce, 0, 4);
	tcase_add_loop_test(tc, test_async_bulk_s2s, 0, 4);
	tcase_add_loop_test(tc, test_async_refused, 0, 10);
	suite_add_tcase(s, tc);
	return s;
}
