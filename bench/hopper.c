/* hopper.c: `make hopper-demo`: the Hopper examples against their CPU references on h100. The
 * TMA + wgmma GEMM (examples/hopper/gemm_tma_wgmma: warp-specialised, TMA into a 4-stage
 * mbarrier ring), the wgmma GEMM (examples/hopper/gemm_wgmma, HGMMA from cp.async-filled shared
 * memory) and the mma.sync GEMM (examples/gemm_tc, HMMA.16816) on the same inputs, in functional
 * and timing mode: outputs equal to a CPU GEMM (the inputs make every sum exact), cycles,
 * hazards, and each timing run's statistics written for `fibersim compare` (CPI stacks side by
 * side).
 *
 *   hopper --root DIR [--out DIR] [--size S] [--tma-listing FILE] [--swizzle none]
 * S = M = N = K, a multiple of 128 (default 256); --tma-listing runs the TMA GEMM from FILE (e.g.
 * fiberc's compile of gemm_tma_wgmma.sm_90a.ptx) instead of nvcc's listing, the others as usual;
 * --swizzle none encodes its tensor maps without the 128-byte swizzle its descriptors name (a
 * mutant for tests/hopper.sh: its output must differ).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"

typedef struct Gemm {
	const char *name;      /* what the report calls it */
	const char *listing;   /* under the root */
	const char *kernel;
	const char *stats;     /* file name of its timing statistics */
	int tile;              /* the CTA's square output tile (grid = S / tile squared) */
	unsigned threads;      /* threads per CTA */
	unsigned smem;         /* dynamic shared memory, bytes */
	int tma;               /* A and B given as 128-byte-swizzled tensor maps, not pointers */
} Gemm;

static Gemm gemms[] = {
	{"TMA+wgmma (64x128x16)", "examples/hopper/gemm_tma_wgmma.sm_90a.sass", "gemm_f16_tma_wgmma",
	 "hopper-tma-wgmma.json", 128, 288, 4 * 32768 + 1024, 1},
	{"wgmma (HGMMA.64x64x16)", "examples/hopper/gemm_wgmma.sm_90a.sass", "gemm_f16_wgmma",
	 "hopper-wgmma.json", 64, 128, 0, 0},
	{"mma.sync (HMMA.16816)", "examples/gemm_tc/gemm_tc.sm_90.sass", "gemm_f16_tc",
	 "hopper-mmasync.json", 64, 128, 0, 0},
};

/* exact small halves: k / 4 for k in -8..8 (binary16 bits) */
static uint16_t
half_of(int k)
{
	static const uint16_t pos[9] = {0, 0x3400, 0x3800, 0x3a00, 0x3c00, 0x3d00, 0x3e00, 0x3f00,
	                                0x4000};
	return k < 0 ? (uint16_t)(pos[-k] | 0x8000) : pos[k];
}

static int map_swizzle = FIBER_TENSOR_MAP_SWIZZLE_128B;  /* --swizzle none: a mutant */

/* an fp16 S x S row-major matrix at p through a bx x by box, 128-byte swizzle; 0 on success */
static int
map2d(fiberTensorMap *m, fiberDevicePtr p, int S, uint32_t bx, uint32_t by)
{
	uint64_t dim[2] = {(uint64_t)S, (uint64_t)S}, stride[1] = {(uint64_t)S * 2};
	uint32_t box[2] = {bx, by}, es[2] = {1, 1};

	return fiberTensorMapEncodeTiled(m, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, p, dim, stride,
	                                 box, es, 0, map_swizzle, 0, 0) !=
	       FIBER_SUCCESS;
}

/* run g on a fresh h100 device in mode; 0 when C equals ref */
static int
run(const char *root, const char *outdir, const Gemm *g, fiberSimMode mode, int S,
    const uint16_t *a, const uint16_t *b, const float *ref, float *c)
{
	char path[1024];
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr da, db, dc;
	fiberStats st;
	fiberTensorMap ta, tb;
	size_t nh = (size_t)S * S;
	unsigned grid[3] = {(unsigned)(S / g->tile), (unsigned)(S / g->tile), 1};
	unsigned block[3] = {g->threads, 1, 1};
	void *params[6] = {&da, &db, &dc, &S, &S, &S};
	size_t bad = 0;

	snprintf(path, sizeof path, "%s%s%s", g->listing[0] == '/' ? "" : root,
	         g->listing[0] == '/' ? "" : "/", g->listing);
	if (fiberDeviceCreate(&dev, "h100") != FIBER_SUCCESS)
		return -1;
	if (g->tma) {
		params[0] = &ta;
		params[1] = &tb;
	}
	fiberDeviceSetMode(dev, mode);
	if (fiberModuleLoadFile(&mod, dev, path) != FIBER_SUCCESS ||
	    fiberModuleGetFunction(&fn, mod, g->kernel) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &da, nh * 2) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &db, nh * 2) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &dc, nh * 4) != FIBER_SUCCESS ||
	    fiberMemcpyHtoD(dev, da, a, nh * 2) != FIBER_SUCCESS ||
	    fiberMemcpyHtoD(dev, db, b, nh * 2) != FIBER_SUCCESS ||
	    (g->tma && (map2d(&ta, da, S, 64, g->tile) || map2d(&tb, db, S, 64, 64))) ||
	    fiberLaunchKernel(fn, grid, block, g->smem, params) != FIBER_SUCCESS ||
	    fiberMemcpyDtoH(dev, c, dc, nh * 4) != FIBER_SUCCESS) {
		fprintf(stderr, "hopper: %s: %s\n", g->name, fiberGetLastErrorMessage(dev));
		fiberDeviceDestroy(dev);
		return -1;
	}
	for (size_t i = 0; i < nh; i++)
		bad += c[i] != ref[i];
	fiberGetStats(dev, &st);
	if (mode == FIBER_MODE_TIMING) {
		snprintf(path, sizeof path, "%s/%s", outdir, g->stats);
		fiberWriteStatsJSON(dev, path);
		printf("  %-24s timing:     %7llu cycles, %llu warp instructions, %llu hazards, "
		       "output %s\n", g->name, (unsigned long long)st.cycles,
		       (unsigned long long)st.warp_instructions, (unsigned long long)st.hazards,
		       bad ? "DIFFERS from the CPU reference" : "equals the CPU reference");
	} else {
		printf("  %-24s functional: %llu warp instructions, output %s\n", g->name,
		       (unsigned long long)st.warp_instructions,
		       bad ? "DIFFERS from the CPU reference" : "equals the CPU reference");
	}
	fiberDeviceDestroy(dev);
	return bad || (mode == FIBER_MODE_TIMING && st.hazards) ? -1 : 0;
}

int
main(int argc, char **argv)
{
	const char *root = ".", *outdir = ".";
	int S = 256, fail = 0;
	uint16_t *a, *b;
	float *ref, *c;
	int *ai, *bi;
	uint32_t rng = 12345;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--root"))
			root = argv[i + 1];
		else if (!strcmp(argv[i], "--out"))
			outdir = argv[i + 1];
		else if (!strcmp(argv[i], "--size"))
			S = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--swizzle"))
			map_swizzle = strcmp(argv[i + 1], "none") ? FIBER_TENSOR_MAP_SWIZZLE_128B :
			              FIBER_TENSOR_MAP_SWIZZLE_NONE;
		else if (!strcmp(argv[i], "--tma-listing"))
			gemms[0].listing = argv[i + 1];
	}
	if (S < 128 || S > 4096 || S % 128) {
		fprintf(stderr, "hopper: --size is a multiple of 128 from 128 to 4096\n");
		return 2;
	}
	a = malloc((size_t)S * S * 2);
	b = malloc((size_t)S * S * 2);
	ai = malloc((size_t)S * S * sizeof *ai);
	bi = malloc((size_t)S * S * sizeof *bi);
	ref = calloc((size_t)S * S, 4);
	c = malloc((size_t)S * S * 4);
	if (!a || !b || !ai || !bi || !ref || !c)
		return 1;
	for (size_t i = 0; i < (size_t)S * S; i++) {
		rng = rng * 1103515245u + 12345u;
		ai[i] = (int)(rng >> 16) % 17 - 8;
		rng = rng * 1103515245u + 12345u;
		bi[i] = (int)(rng >> 16) % 17 - 8;
		a[i] = half_of(ai[i]);
		b[i] = half_of(bi[i]);
	}
	/* C = A B in integers (units of 1/16), exact in float up to S = 4096 */
	for (int m = 0; m < S; m++)
		for (int n = 0; n < S; n++) {
			long s = 0;
			for (int k = 0; k < S; k++)
				s += (long)ai[(size_t)m * S + k] * bi[(size_t)k * S + n];
			ref[(size_t)m * S + n] = (float)s / 16.0f;
		}
	printf("== GEMM %d x %d x %d, fp16 in, fp32 out, h100 (TMA: grid %d x %d of 288 threads; "
	       "the others %d x %d of 128)\n", S, S, S, S / 128, S / 128, S / 64, S / 64);
	for (size_t g = 0; g < sizeof gemms / sizeof gemms[0]; g++) {
		fail |= run(root, outdir, &gemms[g], FIBER_MODE_FUNCTIONAL, S, a, b, ref, c);
		fail |= run(root, outdir, &gemms[g], FIBER_MODE_TIMING, S, a, b, ref, c);
	}
	free(a);
	free(b);
	free(ai);
	free(bi);
	free(ref);
	free(c);
	return fail ? 1 : 0;
}
