/* hopper.c: `make hopper-demo`: the Hopper examples against their CPU references on h100. The
 * wgmma GEMM (examples/hopper/gemm_wgmma, HGMMA from cp.async-filled shared memory) and the
 * mma.sync GEMM (examples/gemm_tc, HMMA.16816) on the same inputs, in functional and timing
 * mode: outputs equal to a CPU GEMM (the inputs make every sum exact), cycles, hazards, and each
 * timing run's statistics written for `fibersim compare` (CPI stacks side by side).
 *
 *   hopper --root DIR [--out DIR] [--size S]     (S = M = N = K, a multiple of 64; default 256)
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
} Gemm;

static const Gemm gemms[] = {
	{"wgmma (HGMMA.64x64x16)", "examples/hopper/gemm_wgmma.sm_90a.sass", "gemm_f16_wgmma",
	 "hopper-wgmma.json"},
	{"mma.sync (HMMA.16816)", "examples/gemm_tc/gemm_tc.sm_90.sass", "gemm_f16_tc",
	 "hopper-mmasync.json"},
};

/* exact small halves: k / 4 for k in -8..8 (binary16 bits) */
static uint16_t
half_of(int k)
{
	static const uint16_t pos[9] = {0, 0x3400, 0x3800, 0x3a00, 0x3c00, 0x3d00, 0x3e00, 0x3f00,
	                                0x4000};
	return k < 0 ? (uint16_t)(pos[-k] | 0x8000) : pos[k];
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
	size_t nh = (size_t)S * S;
	unsigned grid[3] = {(unsigned)S / 64, (unsigned)S / 64, 1}, block[3] = {128, 1, 1};
	void *params[6] = {&da, &db, &dc, &S, &S, &S};
	size_t bad = 0;

	snprintf(path, sizeof path, "%s/%s", root, g->listing);
	if (fiberDeviceCreate(&dev, "h100") != FIBER_SUCCESS)
		return -1;
	fiberDeviceSetMode(dev, mode);
	if (fiberModuleLoadFile(&mod, dev, path) != FIBER_SUCCESS ||
	    fiberModuleGetFunction(&fn, mod, g->kernel) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &da, nh * 2) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &db, nh * 2) != FIBER_SUCCESS ||
	    fiberMalloc(dev, &dc, nh * 4) != FIBER_SUCCESS ||
	    fiberMemcpyHtoD(dev, da, a, nh * 2) != FIBER_SUCCESS ||
	    fiberMemcpyHtoD(dev, db, b, nh * 2) != FIBER_SUCCESS ||
	    fiberLaunchKernel(fn, grid, block, 0, params) != FIBER_SUCCESS ||
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
	}
	if (S < 64 || S > 4096 || S % 64) {
		fprintf(stderr, "hopper: --size is a multiple of 64 from 64 to 4096\n");
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
	printf("== GEMM %d x %d x %d, fp16 in, fp32 out, h100 (grid %d x %d, 128 threads)\n", S, S, S,
	       S / 64, S / 64);
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
