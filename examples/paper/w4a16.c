/* w4a16.c: the W4A16 workloads of the paper table: w4a16_gemm.cu (Marlin-class) as the FFN's
 * gate/up projection with SiLU(gate) * up fused (silu_mul = 1) and as its down projection, and
 * awq_gemm.cu (the same with AWQ's zero points); the weights' offline packing (pack_b), the
 * inputs, the launch and the CPU reference.
 * Shape integers: arg[0] M (tokens), arg[1] N (weight columns; gate and up together when fused),
 * arg[2] K (multiple of 128), arg[3] silu_mul, arg[4] 1: AWQ zero points (awq_gemm). */
#include "paper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	TileM = 64,                   /* rows per CTA */
	TileN = 128,                  /* weight columns per CTA */
	TileK = 64,                   /* K per packed block */
	Group = 128,                  /* quantisation group along K */
	Threads = 256,                /* threads per CTA */
	SmemBytes = 50176,            /* 4 stages of A, packed weights and scales */
	AwqSmemBytes = 50432,         /* ... and the zero points */
};

static uint64_t
w4_ctas(const Shape *s)
{
	return (uint64_t)(s->arg[1] / TileN) * (uint64_t)((s->arg[0] + TileM - 1) / TileM);
}

/* the kernel's weight layout (w4a16_gemm.cu's header): q[k][n] (0..15) into 32-bit words */
static void
pack_b(const uint8_t *q, int N, int K, uint32_t *out)
{
	for (int kt = 0; kt < K / TileK; kt++)
		for (int nt = 0; nt < N / TileN; nt++) {
			uint32_t *blk = out + ((size_t)kt * (N / TileN) + nt) * 1024;
			for (int ks = 0; ks < 4; ks++)
				for (int wn = 0; wn < 4; wn++)
					for (int p = 0; p < 2; p++)
						for (int lane = 0; lane < 32; lane++) {
							int t = lane % 4, c = lane / 4, k0 = kt * TileK + ks * 16;
							uint32_t w = 0;
							for (int h = 0; h < 2; h++) {
								size_t n = (size_t)nt * TileN + wn * 32 + p * 16 + h * 8 + c;
								w |= (uint32_t)q[(size_t)(k0 + 2 * t) * N + n] << (4 * (0 + 2 * h));
								w |= (uint32_t)q[(size_t)(k0 + 2 * t + 1) * N + n] << (4 * (4 + 2 * h));
								w |= (uint32_t)q[(size_t)(k0 + 2 * t + 8) * N + n] << (4 * (1 + 2 * h));
								w |= (uint32_t)q[(size_t)(k0 + 2 * t + 9) * N + n] << (4 * (5 + 2 * h));
							}
							blk[((ks * 4 + wn) * 2 + p) * 32 + lane] = w;
						}
		}
}

/* dot(A[m][:], W[:][n]) in double, W transposed as floats wt[n][k] */
static double
dot(const float *a, const float *wt, int K)
{
	double acc = 0;
	for (int k = 0; k < K; k++)
		acc += (double)a[k] * wt[k];
	return acc;
}

/* compare the elements the kernel wrote (an unwritten one keeps the 0xffff fill) */
static void
w4_check(const float *a, const float *wt, const uint16_t *c, const Shape *s, Check *chk)
{
	int M = s->arg[0], N = s->arg[1], K = s->arg[2], silu = s->arg[3], W = silu ? N / 2 : N;

	chk->expected = (uint64_t)M * (uint64_t)W;
	for (int m = 0; m < M; m++)
		for (int j = 0; j < W; j++) {
			uint16_t got = c[(size_t)m * W + j];
			double ref;
			if (got == 0xffff)
				continue;
			if (silu) {
				int nt = j / 64, r = j % 64, n = nt * 128 + (r / 16) * 32 + ((r % 16) / 8) * 16 + r % 8;
				double g = dot(a + (size_t)m * K, wt + (size_t)n * K, K);
				double u = dot(a + (size_t)m * K, wt + (size_t)(n + 8) * K, K);
				ref = g / (1 + exp(-g)) * u;
			} else
				ref = dot(a + (size_t)m * K, wt + (size_t)j * K, K);
			double err = fabs((double)h2f(got) - ref) / (1e-3 + 2e-3 * fabs(ref));
			if (!(err <= 1))
				chk->bad++;
			if (err > chk->worst || err != err)
				chk->worst = err != err ? INFINITY : err;
			chk->checked++;
		}
}

static int
w4_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	int M = s->arg[0], N = s->arg[1], K = s->arg[2], silu = s->arg[3], awq = s->arg[4], rc = -1;
	size_t na = (size_t)M * K, nw = (size_t)K * N, ns = (size_t)(K / Group) * N;
	size_t nc = (size_t)M * (silu ? N / 2 : N);
	uint16_t *ha = malloc(na * 2), *hs = malloc(ns * 2), *hc = malloc(nc * 2);
	uint8_t *hq = malloc(nw);
	uint32_t *hp = malloc(nw / 2), *hz = malloc(ns / 2 + 4);
	float *af = malloc(na * sizeof(float)), *wt = malloc(nw * sizeof(float));
	fiberDevicePtr da = 0, dq = 0, ds = 0, dc = 0, dz = 0;
	unsigned grid[3] = {(unsigned)(N / TileN), (unsigned)((M + TileM - 1) / TileM), 1};
	unsigned block[3] = {Threads, 1, 1};
	fiberStatus st;
	fiberFunction fn;

	if (get_fn(dev, mod, awq ? "awq_gemm" : "w4a16_gemm", &fn, chk))
		goto out;
	if (!ha || !hs || !hc || !hq || !hp || !hz || !af || !wt) {
		snprintf(chk->fault, sizeof chk->fault, "out of host memory");
		goto out;
	}
	rng_seed(0x5eed0002u + (uint64_t)M * 131u + (uint64_t)N * 7u + (uint64_t)K);
	for (size_t k = 0; k < na; k++) {
		ha[k] = f2h(rng_uniform(-1, 1));
		af[k] = h2f(ha[k]);
	}
	for (size_t k = 0; k < nw; k++)
		hq[k] = (uint8_t)(rng_uniform(0, 16));
	for (size_t k = 0; k < nw; k++)
		hq[k] &= 15;
	for (size_t k = 0; k < ns; k++)
		hs[k] = f2h(rng_uniform(0.005f, 0.02f));
	memset(hz, 0, ns / 2 + 4);
	for (size_t k = 0; awq && k < ns; k++)      /* zero point of group k / N, column k % N */
		hz[k / 8] |= (uint32_t)((int)rng_uniform(4, 12) & 15) << (4 * (k % 8));
	/* the weights the kernel multiplies by, transposed for the reference: fp16((q - 8) * s), or
	 * with zero points fp16(q * s + fp16(-z * s)) (one rounding: the kernel's HFMA2) */
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++) {
			size_t g = (size_t)(k / Group) * N + n;
			float sc = h2f(hs[g]), q = hq[(size_t)k * N + n];
			float z = (float)((hz[g / 8] >> (4 * (g % 8))) & 15);
			wt[(size_t)n * K + k] = awq ? h2f(f2h(q * sc + h2f(f2h(-z * sc))))
			                            : h2f(f2h((q - 8) * sc));
		}
	pack_b(hq, N, K, hp);
	if ((st = fiberMalloc(dev, &da, na * 2)) || (st = fiberMalloc(dev, &dq, nw / 2)) ||
	    (st = fiberMalloc(dev, &ds, ns * 2)) || (st = fiberMalloc(dev, &dc, nc * 2)) ||
	    (st = fiberMalloc(dev, &dz, ns / 2 + 4)) || (st = fiberMemcpyHtoD(dev, dz, hz, ns / 2 + 4)) ||
	    (st = fiberMemcpyHtoD(dev, da, ha, na * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dq, hp, nw / 2)) ||
	    (st = fiberMemcpyHtoD(dev, ds, hs, ns * 2)) || (st = fiberMemset(dev, dc, 0xff, nc * 2))) {
		fail(dev, chk, st, "device memory");
		goto out;
	}
	void *params[] = {&da, &dq, &ds, &dc, &M, &N, &K, &silu};
	void *awq_params[] = {&da, &dq, &ds, &dz, &dc, &M, &N, &K};
	if ((st = awq ? fiberLaunchKernel(fn, grid, block, AwqSmemBytes, awq_params)
	              : fiberLaunchKernel(fn, grid, block, SmemBytes, params))) {
		fail(dev, chk, st, "launch");
		goto out;
	}
	if ((st = fiberMemcpyDtoH(dev, hc, dc, nc * 2))) {
		fail(dev, chk, st, "reading the output");
		goto out;
	}
	if (chk->corrupt)
		hc[nc / 2] ^= 0x4000;   /* the top exponent bit */
	w4_check(af, wt, hc, s, chk);
	rc = 0;
out:
	fiberFree(dev, da);
	fiberFree(dev, dq);
	fiberFree(dev, ds);
	fiberFree(dev, dc);
	fiberFree(dev, dz);
	free(hz);
	free(ha);
	free(hs);
	free(hc);
	free(hq);
	free(hp);
	free(af);
	free(wt);
	return rc;
}

#define W4_LABEL "Marlin-class W4A16 (int4 dequantised in registers with LOP3, 4-stage cp.async, " \
	"ldmatrix, mma.sync, g128 fp16 scales; 64x128 tile)"
const Work work_w4a16_gateup = {
	"W4A16 FFN gate/up + SiLU*up", "w4a16_gemm", W4_LABEL, {"2.49", "1.7", "1.97"}, w4_run,
	w4_ctas,
};
const Work work_awq = {
	"AWQ W4A16 GEMM (zero points)", "awq_gemm",
	"Marlin-class W4A16 with AWQ zero points (LOP3 + HFMA2 with scaled zeros, 4-stage cp.async, "
	"mma.sync, g128)", {"2.33", "", ""}, w4_run, w4_ctas,
};
const Work work_w4a16_down = {
	"W4A16 FFN down", "w4a16_gemm", W4_LABEL, {"2.49", "1.7", "1.97"}, w4_run, w4_ctas,
};
