/* attn.c: the attention-forward workloads of the paper table (MHA, causal, GQA, MQA): one kernel,
 * attn_fwd.cu (FlashAttention-2-class), its inputs, its launch and its CPU reference.
 * Shape integers: arg[0] query heads, arg[1] KV heads, arg[2] sequence length (queries = keys,
 * a multiple of 128), arg[3] causal. The reference is computed in double for the rows the run
 * wrote (all of them unless the launch was sampled). */
#include "paper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	HeadDim = 128,                /* the kernel's head dimension */
	RowsPerCta = 128,             /* query rows per CTA */
	Threads = 256,                /* threads per CTA */
	SmemBytes = 98304,            /* dynamic shared memory per CTA */
};

static uint64_t
attn_ctas(const Shape *s)
{
	return (uint64_t)s->arg[0] * (uint64_t)(s->arg[2] / RowsPerCta);
}

/* the reference row O[h][i][:] in double over keys 0..nk-1; p: nk doubles of scratch */
static void
ref_row(const uint16_t *q, const uint16_t *k, const uint16_t *v, int nk, double scale, double *p,
        double *out)
{
	double mx = -INFINITY, sum = 0;

	for (int j = 0; j < nk; j++) {
		double acc = 0;
		for (int d = 0; d < HeadDim; d++)
			acc += (double)h2f(q[d]) * h2f(k[(size_t)j * HeadDim + d]);
		p[j] = acc * scale;
		if (p[j] > mx)
			mx = p[j];
	}
	for (int j = 0; j < nk; j++) {
		p[j] = exp(p[j] - mx);
		sum += p[j];
	}
	for (int d = 0; d < HeadDim; d++)
		out[d] = 0;
	for (int j = 0; j < nk; j++)
		for (int d = 0; d < HeadDim; d++)
			out[d] += p[j] * h2f(v[(size_t)j * HeadDim + d]);
	for (int d = 0; d < HeadDim; d++)
		out[d] /= sum;
}

/* compare the rows the kernel wrote (an unwritten row keeps the 0xffff fill) */
static void
attn_check(const uint16_t *hq, const uint16_t *hk, const uint16_t *hv, const uint16_t *ho,
           const Shape *s, float scale, Check *chk)
{
	int heads = s->arg[0], group = s->arg[0] / s->arg[1], seq = s->arg[2], causal = s->arg[3];
	double *p = malloc(sizeof *p * (size_t)seq), out[HeadDim];

	chk->expected = (uint64_t)heads * (uint64_t)seq * HeadDim;
	for (int h = 0; h < heads && p; h++)
		for (int i = 0; i < seq; i++) {
			const uint16_t *got = ho + ((size_t)h * seq + i) * HeadDim;
			const size_t kv = (size_t)(h / group) * seq * HeadDim;
			int written = 0;
			for (int d = 0; d < HeadDim; d++)
				written |= got[d] != 0xffff;
			if (!written)
				continue;
			ref_row(hq + ((size_t)h * seq + i) * HeadDim, hk + kv, hv + kv,
			        causal ? i + 1 : seq, scale, p, out);
			for (int d = 0; d < HeadDim; d++) {
				double tol = 4e-4 + 4e-3 * fabs(out[d]);
				double err = fabs((double)h2f(got[d]) - out[d]) / tol;
				if (!(err <= 1))
					chk->bad++;
				if (err > chk->worst || err != err)
					chk->worst = err != err ? INFINITY : err;
			}
			chk->checked += HeadDim;
		}
	if (!p)
		snprintf(chk->fault, sizeof chk->fault, "out of host memory for the reference");
	free(p);
}

static int
attn_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	int heads = s->arg[0], kvh = s->arg[1], seq = s->arg[2], causal = s->arg[3];
	int group = heads / kvh, rc = -1;
	size_t nq = (size_t)heads * seq * HeadDim, nkv = (size_t)kvh * seq * HeadDim;
	uint16_t *hq = malloc(nq * 2), *hk = malloc(nkv * 2), *hv = malloc(nkv * 2);
	uint16_t *ho = malloc(nq * 2);
	fiberDevicePtr dq = 0, dk = 0, dv = 0, dout = 0;
	float scale = 1.0f / sqrtf((float)HeadDim);
	unsigned grid[3] = {(unsigned)(seq / RowsPerCta), (unsigned)heads, 1};
	unsigned block[3] = {Threads, 1, 1};
	fiberStatus st;
	fiberFunction fn;

	if (get_fn(dev, mod, "attn_fwd", &fn, chk))
		goto out;
	if (!hq || !hk || !hv || !ho) {
		snprintf(chk->fault, sizeof chk->fault, "out of host memory");
		goto out;
	}
	rng_seed(0x5eed0001u + (uint64_t)seq * 31u + (uint64_t)heads);
	for (size_t k = 0; k < nq; k++)
		hq[k] = f2h(rng_uniform(-2, 2));
	for (size_t k = 0; k < nkv; k++)
		hk[k] = f2h(rng_uniform(-2, 2));
	for (size_t k = 0; k < nkv; k++)
		hv[k] = f2h(rng_uniform(-1, 1));
	if ((st = fiberMalloc(dev, &dq, nq * 2)) || (st = fiberMalloc(dev, &dk, nkv * 2)) ||
	    (st = fiberMalloc(dev, &dv, nkv * 2)) || (st = fiberMalloc(dev, &dout, nq * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dq, hq, nq * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dk, hk, nkv * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dv, hv, nkv * 2)) ||
	    (st = fiberMemset(dev, dout, 0xff, nq * 2))) {
		fail(dev, chk, st, "device memory");
		goto out;
	}
	void *params[] = {&dq, &dk, &dv, &dout, &seq, &group, &scale, &causal};
	if ((st = fiberLaunchKernel(fn, grid, block, SmemBytes, params))) {
		fail(dev, chk, st, "launch");
		goto out;
	}
	if ((st = fiberMemcpyDtoH(dev, ho, dout, nq * 2))) {
		fail(dev, chk, st, "reading the output");
		goto out;
	}
	if (chk->corrupt)
		ho[nq / 2] ^= 0x4000;     /* the checker's self-test: the top exponent bit */
	attn_check(hq, hk, hv, ho, s, scale, chk);
	rc = chk->fault[0] ? -1 : 0;
out:
	fiberFree(dev, dq);
	fiberFree(dev, dk);
	fiberFree(dev, dv);
	fiberFree(dev, dout);
	free(hq);
	free(hk);
	free(hv);
	free(ho);
	return rc;
}

#define ATTN_LABEL "FlashAttention-2-class (mma.sync, cp.async, ldmatrix, 128x64 tiles, 8 warps)"
const Work work_attn_fwd = {
	"attention forward", "attn_fwd", ATTN_LABEL, {"1.42", "1.57", "1.4"}, attn_run, attn_ctas,
};
const Work work_attn_causal = {
	"attention forward causal", "attn_fwd", ATTN_LABEL, {"1.42", "1.57", "1.4"}, attn_run,
	attn_ctas,
};
const Work work_attn_gqa = {
	"GQA attention", "attn_fwd", ATTN_LABEL, {"1.3-1.5", "1.3-1.5", "1.3-1.5"}, attn_run, attn_ctas,
};
const Work work_attn_mqa = {
	"MQA attention", "attn_fwd", ATTN_LABEL, {"1.3-1.5", "1.3-1.5", "1.3-1.5"}, attn_run, attn_ctas,
};
