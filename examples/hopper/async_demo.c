/* async_demo.c: `make hopper-demo`'s asynchronous-copy entries (examples/hopper/async_copy.mk): the
 * kernels of async_copy.cu and tma_copy.cu (nvcc 13 sm_90a listings) on h100 through libfiberrt,
 * in functional and timing mode, each output against a CPU reference; prints the cycles.
 *
 *   async_demo [FIBER_ROOT]        exit 0 when every output equals its reference
 */
#include "fiber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Tile = 1024, W = 100, H = 50, Rows = 256, Cols = 64 };

static const char *root = ".";
static int failed;

static void
fill(float *v, unsigned n, unsigned seed)
{
	uint32_t s = seed * 2654435761u + 1;
	for (unsigned k = 0; k < n; k++) {
		s = s * 1664525u + 1013904223u;
		v[k] = (float)(s >> 8) / (float)(1 << 24) * 8.0f - 4.0f;
	}
}

static void
must(fiberStatus s, fiberDevice d, const char *what)
{
	if (s == FIBER_SUCCESS)
		return;
	fprintf(stderr, "async_demo: %s: %s\n", what, fiberGetLastErrorMessage(d));
	exit(1);
}

/* a device in the mode asked, with kernel name of examples/hopper/file loaded */
static fiberDevice
open_kernel(int timed, const char *file, const char *name, fiberFunction *f)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;

	snprintf(path, sizeof path, "%s/examples/hopper/%s", root, file);
	must(fiberDeviceCreate(&d, "h100"), NULL, "h100");
	must(fiberDeviceSetMode(d, timed ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL), d, "mode");
	must(fiberModuleLoadFile(&m, d, path), d, path);
	must(fiberModuleGetFunction(f, m, name), d, name);
	return d;
}

/* print one line: the kernel, the mode, its cycles, whether out equals want (n floats) */
static void
report(fiberDevice d, const char *name, int timed, const float *out, const float *want, unsigned n)
{
	fiberStats st;
	unsigned bad = 0;

	fiberGetStats(d, &st);
	for (unsigned k = 0; k < n; k++)
		bad += memcmp(&out[k], &want[k], 4) != 0;
	printf("  %-13s %-10s %8llu cycles  %s\n", name, timed ? "timing" : "functional",
	       (unsigned long long)st.cycles, bad ? "DIFFERS from the CPU reference" :
	       "equal to the CPU reference");
	failed |= bad != 0;
}

/* async_copy.cu's pipeline: 4 CTAs of 8 tiles, out = in * in + 1 (FFMA) */
static void
pipeline(int timed)
{
	enum { N = 4 * 8 * Tile };
	static float in[N], out[N], want[N];
	fiberFunction f;
	fiberDevice d = open_kernel(timed, "async_copy.sm_90a.sass", "pipeline", &f);
	fiberDevicePtr din, dout;
	int tiles = 8;
	void *params[3] = { &din, &dout, &tiles };
	const unsigned g[3] = { 4, 1, 1 }, b[3] = { 160, 1, 1 };

	fill(in, N, 2);
	for (unsigned k = 0; k < N; k++)
		want[k] = fmaf(in[k], in[k], 1.0f);
	must(fiberMalloc(d, &din, sizeof in), d, "malloc");
	must(fiberMalloc(d, &dout, sizeof out), d, "malloc");
	must(fiberMemcpyHtoD(d, din, in, sizeof in), d, "copy");
	must(fiberLaunchKernel(f, g, b, 0, params), d, "pipeline");
	must(fiberMemcpyDtoH(d, out, dout, sizeof out), d, "copy");
	report(d, "pipeline", timed, out, want, N);
	fiberDeviceDestroy(d);
}

/* a 2D f32 map of w x h with a bx x by box */
static void
map2d(fiberTensorMap *m, fiberDevicePtr p, uint64_t w, uint64_t h, uint32_t bx, uint32_t by,
      int swizzle)
{
	uint64_t dim[2] = { w, h }, stride[1] = { w * 4 };
	uint32_t box[2] = { bx, by }, es[2] = { 1, 1 };

	must(fiberTensorMapEncodeTiled(m, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p, dim, stride, box,
	                               es, 0, swizzle, 0, 0), NULL, "tensor map");
}

/* tma_copy.cu's tma_tile: a 100 x 50 matrix in 32 x 16 boxes, loaded with the 128-byte swizzle */
static void
tile(int timed)
{
	static float in[W * H], out[W * H], want[W * H];
	fiberFunction f;
	fiberDevice d = open_kernel(timed, "tma_copy.sm_90a.sass", "tma_tile", &f);
	fiberDevicePtr din, dout;
	fiberTensorMap mi, mo;
	int swz = 3;
	void *params[3] = { &mi, &mo, &swz };
	const unsigned g[3] = { 4, 4, 1 }, b[3] = { 128, 1, 1 };

	fill(in, W * H, 4);
	for (unsigned k = 0; k < W * H; k++)
		want[k] = in[k] * 2.0f + 1.0f;
	must(fiberMalloc(d, &din, sizeof in), d, "malloc");
	must(fiberMalloc(d, &dout, sizeof out), d, "malloc");
	must(fiberMemcpyHtoD(d, din, in, sizeof in), d, "copy");
	map2d(&mi, din, W, H, 32, 16, FIBER_TENSOR_MAP_SWIZZLE_128B);
	map2d(&mo, dout, W, H, 32, 16, FIBER_TENSOR_MAP_SWIZZLE_NONE);
	must(fiberLaunchKernel(f, g, b, 0, params), d, "tma_tile");
	must(fiberMemcpyDtoH(d, out, dout, sizeof out), d, "copy");
	report(d, "tma_tile", timed, out, want, W * H);
	fiberDeviceDestroy(d);
}

/* tma_copy.cu's tma_pipeline: one TMA producer warp, four consumer warps summing rows */
static void
tma_pipeline(int timed)
{
	static float in[Rows * Cols], sums[Rows], want[Rows];
	fiberFunction f;
	fiberDevice d = open_kernel(timed, "tma_copy.sm_90a.sass", "tma_pipeline", &f);
	fiberDevicePtr din, dsum;
	fiberTensorMap m;
	int tiles = 8;
	void *params[3] = { &m, &dsum, &tiles };
	const unsigned g[3] = { 4, 1, 1 }, b[3] = { 160, 1, 1 };

	fill(in, Rows * Cols, 5);
	for (unsigned r = 0; r < Rows; r++) {       /* the warp's order: lane pairs, then xor 16..1 */
		float v[32], t[32];
		for (unsigned l = 0; l < 32; l++)
			v[l] = in[r * Cols + l] + in[r * Cols + 32 + l];
		for (unsigned o = 16; o; o /= 2) {
			for (unsigned l = 0; l < 32; l++)
				t[l] = v[l] + v[l ^ o];
			memcpy(v, t, sizeof v);
		}
		want[r] = v[0];
	}
	must(fiberMalloc(d, &din, sizeof in), d, "malloc");
	must(fiberMalloc(d, &dsum, sizeof sums), d, "malloc");
	must(fiberMemcpyHtoD(d, din, in, sizeof in), d, "copy");
	map2d(&m, din, Cols, Rows, Cols, 8, FIBER_TENSOR_MAP_SWIZZLE_NONE);
	must(fiberLaunchKernel(f, g, b, 0, params), d, "tma_pipeline");
	must(fiberMemcpyDtoH(d, sums, dsum, sizeof sums), d, "copy");
	report(d, "tma_pipeline", timed, sums, want, Rows);
	fiberDeviceDestroy(d);
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		root = argv[1];
	printf("== examples/hopper: mbarriers, bulk copies and TMA on h100 (nvcc 13 sm_90a SASS)\n");
	for (int timed = 0; timed < 2; timed++) {
		pipeline(timed);
		tile(timed);
		tma_pipeline(timed);
	}
	return failed;
}
