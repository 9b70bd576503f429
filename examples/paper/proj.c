/* proj.c: the projection-GEMM workload of the paper table: gemm_f16.cu (C = A W^T, fp16, the
 * QKV projection of Llama-2-7B), its inputs, launch and CPU reference (every element written).
 * Shape integers: arg[0] M (tokens), arg[1] N (multiple of 128), arg[2] K (multiple of 64). */
#include "paper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum {
	TileM = 128,                  /* rows per CTA */
	TileN = 128,                  /* columns per CTA */
	Threads = 256,                /* threads per CTA */
	SmemBytes = 98304,            /* 3 stages of A and W tiles */
};

static uint64_t
proj_ctas(const Shape *s)
{
	return (uint64_t)(s->arg[1] / TileN) * (uint64_t)((s->arg[0] + TileM - 1) / TileM);
}

static void
proj_check(const float *a, const float *w, const uint16_t *c, const Shape *s, Check *chk)
{
	int M = s->arg[0], N = s->arg[1], K = s->arg[2];

	chk->expected = (uint64_t)M * (uint64_t)N;
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			uint16_t got = c[(size_t)m * N + n];
			double ref = 0;
			if (got == 0xffff)
				continue;
			for (int k = 0; k < K; k++)
				ref += (double)a[(size_t)m * K + k] * w[(size_t)n * K + k];
			double err = fabs((double)h2f(got) - ref) / (1e-3 + 2e-3 * fabs(ref));
			if (!(err <= 1))
				chk->bad++;
			if (err > chk->worst || err != err)
				chk->worst = err != err ? INFINITY : err;
			chk->checked++;
		}
}

static int
proj_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	int M = s->arg[0], N = s->arg[1], K = s->arg[2], rc = -1;
	size_t na = (size_t)M * K, nw = (size_t)N * K, nc = (size_t)M * N;
	uint16_t *ha = malloc(na * 2), *hw = malloc(nw * 2), *hc = malloc(nc * 2);
	float *af = malloc(na * sizeof(float)), *wf = malloc(nw * sizeof(float));
	fiberDevicePtr da = 0, dw = 0, dc = 0;
	unsigned grid[3] = {(unsigned)(N / TileN), (unsigned)((M + TileM - 1) / TileM), 1};
	unsigned block[3] = {Threads, 1, 1};
	fiberFunction fn;
	fiberStatus st;

	if (get_fn(dev, mod, "gemm_f16", &fn, chk))
		goto out;
	if (!ha || !hw || !hc || !af || !wf) {
		snprintf(chk->fault, sizeof chk->fault, "out of host memory");
		goto out;
	}
	rng_seed(0x5eed0004u + (uint64_t)M * 131u + (uint64_t)N * 7u + (uint64_t)K);
	for (size_t k = 0; k < na; k++)
		af[k] = h2f(ha[k] = f2h(rng_uniform(-1, 1)));
	for (size_t k = 0; k < nw; k++)
		wf[k] = h2f(hw[k] = f2h(rng_uniform(-0.05f, 0.05f)));
	if ((st = fiberMalloc(dev, &da, na * 2)) || (st = fiberMalloc(dev, &dw, nw * 2)) ||
	    (st = fiberMalloc(dev, &dc, nc * 2)) || (st = fiberMemcpyHtoD(dev, da, ha, na * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dw, hw, nw * 2)) || (st = fiberMemset(dev, dc, 0xff, nc * 2))) {
		fail(dev, chk, st, "device memory");
		goto out;
	}
	void *params[] = {&da, &dw, &dc, &M, &N, &K};
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
	proj_check(af, wf, hc, s, chk);
	rc = 0;
out:
	fiberFree(dev, da);
	fiberFree(dev, dw);
	fiberFree(dev, dc);
	free(ha);
	free(hw);
	free(hc);
	free(af);
	free(wf);
	return rc;
}

const Work work_proj = {
	"projection GEMM (QKV)", "gemm_f16",
	"CUTLASS-class sm_80 GEMM (128x128x64, 3-stage cp.async, swizzled ldmatrix, mma.sync)",
	{"", "~1", "~1"}, proj_run, proj_ctas,
};
