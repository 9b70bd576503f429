/* aqlm.c: the AQLM-style workload of the paper table: aqlm_gemm.cu (2 codebooks x 256 entries x
 * 8 weights, per-column fp16 scales), the codes' offline layout, the inputs, the launch and the
 * CPU reference (every element written).
 * Shape integers: arg[0] M, arg[1] N (multiple of 128), arg[2] K (multiple of 64). */
#include "paper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum {
	TileM = 64,                   /* rows per CTA */
	TileN = 128,                  /* columns per CTA */
	TileK = 64,                   /* K per block of codes */
	Entries = 256,                /* entries per codebook */
	Threads = 256,                /* threads per CTA */
	SmemBytes = 49152,            /* 4 stages of A and codes, and the codebooks */
};

static uint64_t
aqlm_ctas(const Shape *s)
{
	return (uint64_t)(s->arg[1] / TileN) * (uint64_t)((s->arg[0] + TileM - 1) / TileM);
}

/* the kernel's code layout (aqlm_gemm.cu's header); code[b][g][n]: book b, group g of 8 along K */
static void
pack_codes(const uint8_t *code, int N, int K, uint32_t *out)
{
	size_t plane = (size_t)(K / 8) * N;
	for (int kt = 0; kt < K / TileK; kt++)
		for (int nt = 0; nt < N / TileN; nt++) {
			uint32_t *blk = out + ((size_t)kt * (N / TileN) + nt) * 512;
			for (int ks = 0; ks < 4; ks++)
				for (int wn = 0; wn < 4; wn++)
					for (int j = 0; j < 4; j++)
						for (int c = 0; c < 8; c++) {
							size_t n = (size_t)nt * TileN + wn * 32 + j * 8 + c;
							size_t g = (size_t)kt * 8 + 2 * ks;
							blk[((ks * 4 + wn) * 4 + j) * 8 + c] =
								(uint32_t)code[g * N + n] |
								(uint32_t)code[plane + g * N + n] << 8 |
								(uint32_t)code[(g + 1) * N + n] << 16 |
								(uint32_t)code[plane + (g + 1) * N + n] << 24;
						}
		}
}

static int
aqlm_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	int M = s->arg[0], N = s->arg[1], K = s->arg[2], rc = -1;
	size_t na = (size_t)M * K, nw = (size_t)K * N, ncode = 2 * (nw / 8), nc = (size_t)M * N;
	uint16_t *ha = malloc(na * 2), *hs = malloc((size_t)N * 2), *hc = malloc(nc * 2);
	uint16_t *hcb = malloc(2 * Entries * 8 * 2);
	uint8_t *code = malloc(ncode);
	uint32_t *hp = malloc(ncode);
	float *af = malloc(na * sizeof(float)), *wt = malloc(nw * sizeof(float));
	fiberDevicePtr da = 0, dp = 0, dcb = 0, ds = 0, dc = 0;
	unsigned grid[3] = {(unsigned)(N / TileN), (unsigned)((M + TileM - 1) / TileM), 1};
	unsigned block[3] = {Threads, 1, 1};
	fiberFunction fn;
	fiberStatus st;

	if (get_fn(dev, mod, "aqlm_gemm", &fn, chk))
		goto out;
	if (!ha || !hs || !hc || !hcb || !code || !hp || !af || !wt) {
		snprintf(chk->fault, sizeof chk->fault, "out of host memory");
		goto out;
	}
	rng_seed(0x5eed0005u + (uint64_t)M * 131u + (uint64_t)N * 7u + (uint64_t)K);
	for (size_t k = 0; k < na; k++)
		af[k] = h2f(ha[k] = f2h(rng_uniform(-1, 1)));
	for (int k = 0; k < 2 * Entries * 8; k++)
		hcb[k] = f2h(rng_uniform(-1, 1));
	for (int n = 0; n < N; n++)
		hs[n] = f2h(rng_uniform(0.01f, 0.03f));
	for (size_t k = 0; k < ncode; k++)
		code[k] = (uint8_t)((int)rng_uniform(0, 256) & 255);
	/* the weights the kernel multiplies by: fp16(fp16(C0 + C1) * s), transposed */
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++) {
			size_t g = (size_t)(k / 8) * N + n;
			float e0 = h2f(hcb[code[g] * 8 + k % 8]);
			float e1 = h2f(hcb[(Entries + code[nw / 8 + g]) * 8 + k % 8]);
			wt[(size_t)n * K + k] = h2f(f2h(h2f(f2h(e0 + e1)) * h2f(hs[n])));
		}
	pack_codes(code, N, K, hp);
	if ((st = fiberMalloc(dev, &da, na * 2)) || (st = fiberMalloc(dev, &dp, ncode)) ||
	    (st = fiberMalloc(dev, &dcb, 2 * Entries * 8 * 2)) ||
	    (st = fiberMalloc(dev, &ds, (size_t)N * 2)) || (st = fiberMalloc(dev, &dc, nc * 2)) ||
	    (st = fiberMemcpyHtoD(dev, da, ha, na * 2)) || (st = fiberMemcpyHtoD(dev, dp, hp, ncode)) ||
	    (st = fiberMemcpyHtoD(dev, dcb, hcb, 2 * Entries * 8 * 2)) ||
	    (st = fiberMemcpyHtoD(dev, ds, hs, (size_t)N * 2)) ||
	    (st = fiberMemset(dev, dc, 0xff, nc * 2))) {
		fail(dev, chk, st, "device memory");
		goto out;
	}
	void *params[] = {&da, &dp, &dcb, &ds, &dc, &M, &N, &K};
	if ((st = fiberLaunchKernel(fn, grid, block, SmemBytes, params))) {
		fail(dev, chk, st, "launch");
		goto out;
	}
	if ((st = fiberMemcpyDtoH(dev, hc, dc, nc * 2))) {
		fail(dev, chk, st, "reading the output");
		goto out;
	}
	if (chk->corrupt)
		hc[nc / 2] ^= 0x4000;   /* the top exponent bit */
	chk->expected = nc;
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			uint16_t got = hc[(size_t)m * N + n];
			double ref = 0;
			if (got == 0xffff)
				continue;
			for (int k = 0; k < K; k++)
				ref += (double)af[(size_t)m * K + k] * wt[(size_t)n * K + k];
			double err = fabs((double)h2f(got) - ref) / (1e-3 + 2e-3 * fabs(ref));
			if (!(err <= 1))
				chk->bad++;
			if (err > chk->worst || err != err)
				chk->worst = err != err ? INFINITY : err;
			chk->checked++;
		}
	rc = 0;
out:
	fiberFree(dev, da);
	fiberFree(dev, dp);
	fiberFree(dev, dcb);
	fiberFree(dev, ds);
	fiberFree(dev, dc);
	free(ha);
	free(hs);
	free(hc);
	free(hcb);
	free(code);
	free(hp);
	free(af);
	free(wt);
	return rc;
}

const Work work_aqlm = {
	"AQLM GEMM (2x256x8 codebooks)", "aqlm_gemm",
	"W4A16-tile GEMM with AQLM 2x8 codebook lookup in shared memory (4-stage cp.async, "
	"ldmatrix, mma.sync)", {"1.88", "", ""}, aqlm_run, aqlm_ctas,
};
