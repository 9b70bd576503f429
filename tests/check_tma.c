/* check_tma.c: the tensor memory accelerator (sim/exec_tma.c, sim/tmap.c) and its host side
 * (fiberTensorMapEncodeTiled) on nvcc 13's sm_90a SASS of examples/hopper/tma_copy.cu: 2D boxes
 * in and out with out-of-bounds fill and clipping, read through the 128-byte swizzle; a 3D box
 * with element strides and both fills; a producer warp feeding four consumer warps through a
 * ring of mbarriers; each against a CPU reference and equal in functional and timing mode. The
 * encoder refuses what cuTensorMapEncodeTiled refuses, and a launch with a map that is not one,
 * or of the wrong rank, faults as a bad tensor map. The kernels run from ptxas's listing and from
 * fiberc's compile of tma_copy.sm_90a.ptx (backend/isel/ptxsel_async90.c): _i's last factor picks
 * the listing. Files come from $FIBER_ROOT.
 */
#include "fiber.h"
#include "kernrun.h"

#include <check.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* the listing the tests load: ptxas's (0) or fiberc's compile of the PTX (1) */
static int use_fiberc;

static fiberDevice
open_kernel(int timed, const char *name, fiberFunction *f)
{
	char path[1200], err[4096], *tmp = NULL;
	fiberDevice d;
	fiberModule m;

	snprintf(path, sizeof path, "%s/examples/hopper/tma_copy.sm_90a.%s", root(),
	         use_fiberc ? "ptx" : "sass");
	if (use_fiberc) {
		tmp = kr_fiberc(path, "--arch=sm_90a", err, sizeof err);
		ck_assert_msg(tmp != NULL, "fiberc: %s", err);
		snprintf(path, sizeof path, "%s", tmp);
	}
	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, timed ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL),
	                 FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	if (tmp)
		unlink(tmp);
	free(tmp);
	ck_assert_msg(fiberModuleGetFunction(f, m, name) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	return d;
}

/* the launch on d read no register before its producer's latency (timing mode) */
static void
no_hazards(fiberDevice d)
{
	fiberStats st;

	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	ck_assert_uint_eq(st.hazards, 0);
}

static void
fill(float *v, unsigned n, unsigned seed)
{
	uint32_t s = seed * 2654435761u + 1;
	for (unsigned k = 0; k < n; k++) {
		s = s * 1664525u + 1013904223u;
		v[k] = (float)(s >> 8) / (float)(1 << 24) * 8.0f - 4.0f;
	}
}

/* a 2D f32 map of w x h (dense rows) with a bx x by box */
static void
map2d(fiberTensorMap *m, fiberDevicePtr p, uint64_t w, uint64_t h, uint32_t bx, uint32_t by,
      int swizzle)
{
	uint64_t dim[2] = { w, h }, stride[1] = { w * 4 };
	uint32_t box[2] = { bx, by }, es[2] = { 1, 1 };

	ck_assert_msg(fiberTensorMapEncodeTiled(m, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p, dim,
	                                        stride, box, es, FIBER_TENSOR_MAP_INTERLEAVE_NONE,
	                                        swizzle, FIBER_TENSOR_MAP_L2_PROMOTION_L2_128B,
	                                        FIBER_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == FIBER_SUCCESS,
	              "%s", fiberGetLastErrorMessage(NULL));
}

/* tma_tile over a 100 x 50 matrix (boxes of 32 x 16 hang over both edges), in each mode, with
 * no swizzle and the 128-byte one: out = in * 2 + 1 everywhere, nothing past the matrix */
START_TEST(test_tma_tile)
{
	enum { W = 100, H = 50 };
	static float in[W * H], out[W * H + 64];
	int timed = _i / 2 % 2, swz = _i % 2 ? 3 : 0;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 4, open_kernel(timed, "tma_tile", &f));
	fiberDevicePtr din, dout;
	fiberTensorMap mi, mo;
	void *params[3] = { &mi, &mo, &swz };
	const unsigned g[3] = { 4, 4, 1 }, b[3] = { 128, 1, 1 };

	fill(in, W * H, 4);
	ck_assert_int_eq(fiberMalloc(d, &din, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0x7f, sizeof out), FIBER_SUCCESS);
	map2d(&mi, din, W, H, 32, 16, swz ? FIBER_TENSOR_MAP_SWIZZLE_128B : 0);
	map2d(&mo, dout, W, H, 32, 16, 0);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (unsigned k = 0; k < W * H; k++)
		ck_assert_msg(out[k] == in[k] * 2.0f + 1.0f, "out[%u] = %g, want %g", k, out[k],
		              in[k] * 2.0f + 1.0f);
	for (unsigned k = W * H; k < W * H + 64; k++) {
		uint32_t u;
		memcpy(&u, &out[k], 4);
		ck_assert_msg(u == 0x7f7f7f7fu, "a clipped box wrote past the matrix at %u", k);
	}
	no_hazards(d);
	fiberDeviceDestroy(d);
}
END_TEST

/* tma_box3: a 20 x 10 x 4 f32 tensor holding its own indices, box 8 x 4 x 2 with element strides
 * 1 x 2 x 1 at (14, 7, 3): 8 x 2 x 2 elements, x 20.. and z 4 outside (zeros, or NaN) */
START_TEST(test_tma_box3)
{
	static float in[800];
	float out[32];
	int timed = _i / 2 % 2, nan_fill = _i % 2, x = 14, y = 7, z = 3;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 4, open_kernel(timed, "tma_box3", &f));
	fiberDevicePtr din, dout;
	fiberTensorMap m;
	uint64_t dim[3] = { 20, 10, 4 }, stride[2] = { 80, 800 };
	uint32_t box[3] = { 8, 4, 2 }, es[3] = { 1, 2, 1 };
	void *params[5] = { &m, &dout, &x, &y, &z };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };

	for (unsigned k = 0; k < 800; k++)
		in[k] = (float)k;
	ck_assert_int_eq(fiberMalloc(d, &din, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberTensorMapEncodeTiled(&m, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, din, dim,
	                                           stride, box, es, 0, 0, 0, nan_fill), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (unsigned k = 0; k < 32; k++) {
		unsigned i0 = k % 8, i1 = k / 8 % 2, i2 = k / 16;
		unsigned gx = x + i0, gy = y + 2 * i1, gz = z + i2;
		int in_bounds = gx < 20 && gy < 10 && gz < 4;
		if (in_bounds)
			ck_assert_msg(out[k] == (float)(gz * 200 + gy * 20 + gx), "out[%u] = %g", k, out[k]);
		else if (nan_fill)
			ck_assert_msg(isnan(out[k]), "out[%u] = %g, want NaN", k, out[k]);
		else
			ck_assert_msg(out[k] == 0.0f && !signbit(out[k]), "out[%u] = %g, want 0", k, out[k]);
	}
	fiberDeviceDestroy(d);
}
END_TEST

/* tma_pipeline: 4 CTAs of 8 tiles of 8 x 64; sums[r] as the warp computes it (lane l adds
 * row[l] and row[l + 32], then the butterfly of __shfl_xor_sync 16, 8, 4, 2, 1) */
START_TEST(test_tma_pipeline)
{
	enum { Rows = 256, Cols = 64 };
	static float in[Rows * Cols];
	float sums[Rows];
	int timed = _i % 2, tiles = 8;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 2, open_kernel(timed, "tma_pipeline", &f));
	fiberDevicePtr din, dsum;
	fiberTensorMap m;
	void *params[3] = { &m, &dsum, &tiles };
	const unsigned g[3] = { 4, 1, 1 }, b[3] = { 160, 1, 1 };

	fill(in, Rows * Cols, 5);
	ck_assert_int_eq(fiberMalloc(d, &din, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dsum, sizeof sums), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, sizeof in), FIBER_SUCCESS);
	map2d(&m, din, Cols, Rows, Cols, 8, 0);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, sums, dsum, sizeof sums), FIBER_SUCCESS);
	for (unsigned r = 0; r < Rows; r++) {
		float v[32], t[32];
		for (unsigned l = 0; l < 32; l++)
			v[l] = in[r * Cols + l] + in[r * Cols + 32 + l];
		for (unsigned o = 16; o; o /= 2) {
			for (unsigned l = 0; l < 32; l++)
				t[l] = v[l] + v[l ^ o];
			memcpy(v, t, sizeof v);
		}
		ck_assert_msg(sums[r] == v[0], "%s: sums[%u] = %.9g, want %.9g",
		              timed ? "timing" : "functional", r, sums[r], v[0]);
	}
	no_hazards(d);
	fiberDeviceDestroy(d);
}
END_TEST

/* cuTensorMapEncodeTiled's rules: each broken one is refused with a message naming it */
START_TEST(test_tma_encode_rules)
{
	static const struct {
		unsigned rank;         /* tensorRank */
		uint64_t addr;         /* globalAddress */
		uint64_t stride;       /* globalStrides[0] */
		uint32_t box0;         /* boxDim[0] */
		uint32_t es0;          /* elementStrides[0] */
		int type, swizzle, oob;
		const char *want;      /* in the message; NULL: accepted */
	} rows[] = {
		{ 2, 0x1000, 256, 32, 1, 7, 0, 0, NULL },
		{ 0, 0x1000, 256, 32, 1, 7, 0, 0, "tensorRank 0" },
		{ 6, 0x1000, 256, 32, 1, 7, 0, 0, "tensorRank 6" },
		{ 2, 0x1008, 256, 32, 1, 7, 0, 0, "globalAddress 0x1008 is not 16-byte aligned" },
		{ 2, 0x1000, 260, 32, 1, 7, 0, 0, "globalStrides[0] = 260" },
		{ 2, 0x1000, 256, 0, 1, 7, 0, 0, "boxDim[0] = 0" },
		{ 2, 0x1000, 256, 257, 1, 7, 0, 0, "boxDim[0] = 257" },
		{ 2, 0x1000, 256, 32, 9, 7, 0, 0, "elementStrides[0] = 9" },
		{ 2, 0x1000, 256, 2, 1, 7, 0, 0, "boxDim[0] * element size = 8 bytes" },
		{ 2, 0x1000, 256, 32, 1, 7, 2, 0, "a 64-byte swizzle takes at most 64" },
		{ 2, 0x1000, 256, 32, 1, 3, 0, 1, "needs a floating-point type" },
		{ 2, 0x1000, 256, 32, 1, 13, 0, 0, "tensorDataType 13" },
	};
	const unsigned k = (unsigned)_i;
	uint64_t dim[2] = { 64, 64 }, stride[1] = { rows[k].stride };
	uint32_t box[2] = { rows[k].box0, 8 }, es[2] = { rows[k].es0, 1 };
	fiberTensorMap m;
	fiberStatus s = fiberTensorMapEncodeTiled(&m, rows[k].type, rows[k].rank, rows[k].addr, dim,
	                                          stride, box, es, 0, rows[k].swizzle, 0, rows[k].oob);

	if (!rows[k].want) {
		ck_assert_int_eq(s, FIBER_SUCCESS);
		return;
	}
	ck_assert_int_eq(s, FIBER_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(NULL), rows[k].want), "%s",
	              fiberGetLastErrorMessage(NULL));
}
END_TEST

/* a map that is not one (zeros), and a 2D map given to a 3D copy, fault as bad tensor maps */
START_TEST(test_tma_bad_map)
{
	int timed = _i / 2 % 2, wrong_rank = _i % 2, x = 0;
	fiberFunction f;
	fiberDevice d = (use_fiberc = _i / 4, open_kernel(timed, "tma_box3", &f));
	fiberDevicePtr dout;
	fiberTensorMap m;
	void *params[5] = { &m, &dout, &x, &x, &x };
	const unsigned g[3] = { 1, 1, 1 }, b[3] = { 32, 1, 1 };
	fiberFault fault;

	ck_assert_int_eq(fiberMalloc(d, &dout, 4096), FIBER_SUCCESS);
	memset(&m, 0, sizeof m);
	if (wrong_rank)
		map2d(&m, dout, 32, 32, 8, 4, 0);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(d, &fault), FIBER_SUCCESS);
	ck_assert_int_eq(fault.kind, FIBER_FAULT_TENSOR_MAP);
	ck_assert_str_eq(fault.name, "bad tensor map");
	ck_assert_msg(strstr(fault.message, wrong_rank ? "a 3D copy with a tensor map of rank 2" :
	                     "not a tensor map"), "%s", fault.message);
	fiberDeviceDestroy(d);
}
END_TEST

Suite *
tma_suite(void)
{
	Suite *s = suite_create("tma");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_tma_tile, 0, 8);
	tcase_add_loop_test(tc, test_tma_box3, 0, 8);
	tcase_add_loop_test(tc, test_tma_pipeline, 0, 4);
	tcase_add_loop_test(tc, test_tma_encode_rules, 0, 12);
	tcase_add_loop_test(tc, test_tma_bad_map, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}
