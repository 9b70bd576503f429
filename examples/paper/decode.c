/* decode.c: the FlashDecoding workload of the paper table: flash_decode.cu's split kernel and
 * its combine kernel, the inputs, the two launches and the CPU reference, which checks every
 * partial (m, l, o) the split kernel wrote and every output whose partials were all written.
 * Shape integers: arg[0] batch, arg[1] heads (KV heads = heads), arg[2] cached keys (a multiple
 * of 32 x splits), arg[3] splits. */
#include "paper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	HeadDim = 128,                /* the kernels' head dimension */
	Threads = 128,                /* threads per CTA, every kernel (the FIBER one's launch) */
	FiberWefts = 16,              /* flash_decode_fiber.cu's NW: wefts of its split phase,
	                                 and flash_decode_busy_fiber.cu's split wefts */
	BusyThreads = (FiberWefts + 1) * 32, /* flash_decode_busy_fiber.cu's launch: + the combine weft */
};

/* which kernels dec_exec launches */
enum {
	DecSimt,                      /* flash_decode.cu: split + combine, two launches */
	DecFiber,                     /* flash_decode_fiber.cu: SETFIBERNUM phases */
	DecBusy,                      /* flash_decode_busy_fiber.cu: a resident combine weft, pools and
	                                 busy bits */
};

static uint64_t
dec_ctas(const Shape *s)
{
	return (uint64_t)s->arg[0] * (uint64_t)s->arg[1] * (uint64_t)s->arg[3];
}

/* 1 if a float the kernel should have written still holds the 0xff fill */
static int
unwritten(const float *x)
{
	uint32_t u;
	memcpy(&u, x, 4);
	return u == 0xffffffffu;
}

/* count one comparison: err is |got - ref| over its tolerance */
static void
count(Check *chk, double err)
{
	if (!(err <= 1))
		chk->bad++;
	if (err > chk->worst || err != err)
		chk->worst = err != err ? INFINITY : err;
	chk->checked++;
}

/* the partials and outputs of one (batch, head); s2: seq doubles of scratch */
static void
dec_check_bh(const uint16_t *q, const uint16_t *k, const uint16_t *v, const float *po,
             const float *pml, const uint16_t *out, const Shape *s, double *s2, Check *chk)
{
	int seq = s->arg[2], splits = s->arg[3], chunk = seq / splits, complete = 1;
	double scale = 1 / sqrt((double)HeadDim) * 1.4426950408889634, o[HeadDim];

	for (int j = 0; j < seq; j++) {
		double acc = 0;
		for (int d = 0; d < HeadDim; d++)
			acc += (double)h2f(q[d]) * h2f(k[(size_t)j * HeadDim + d]);
		s2[j] = acc * scale;
	}
	for (int c = 0; c < splits; c++) {
		double m = -INFINITY, l = 0;
		if (unwritten(&pml[2 * c])) {
			complete = 0;
			continue;
		}
		for (int j = c * chunk; j < (c + 1) * chunk; j++)
			m = fmax(m, s2[j]);
		memset(o, 0, sizeof o);
		for (int j = c * chunk; j < (c + 1) * chunk; j++) {
			double p = exp2(s2[j] - m);
			l += p;
			for (int d = 0; d < HeadDim; d++)
				o[d] += p * h2f(v[(size_t)j * HeadDim + d]);
		}
		count(chk, fabs(pml[2 * c] - m) / 1e-3);
		count(chk, fabs(pml[2 * c + 1] - l) / (1e-3 * l));
		for (int d = 0; d < HeadDim; d++)
			count(chk, fabs(po[(size_t)c * HeadDim + d] - o[d] / l) /
			           (1e-4 + 1e-3 * fabs(o[d] / l)));
	}
	if (!complete || out[0] == 0xffff)
		return;
	double m = -INFINITY, l = 0;
	for (int j = 0; j < seq; j++)
		m = fmax(m, s2[j]);
	memset(o, 0, sizeof o);
	for (int j = 0; j < seq; j++) {
		double p = exp2(s2[j] - m);
		l += p;
		for (int d = 0; d < HeadDim; d++)
			o[d] += p * h2f(v[(size_t)j * HeadDim + d]);
	}
	for (int d = 0; d < HeadDim; d++)
		count(chk, fabs(h2f(out[d]) - o[d] / l) / (4e-4 + 4e-3 * fabs(o[d] / l)));
}

/* inputs, launches, check: flash_decode.cu's two kernels, or (kind DecFiber, DecBusy)
 * flash_decode_fiber.cu's or flash_decode_busy_fiber.cu's fused persistent kernel on min(B x H, SMs)
 * CTAs, which write the same partials and outputs */
static int
dec_exec(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk, int kind)
{
	int B = s->arg[0], H = s->arg[1], seq = s->arg[2], splits = s->arg[3], rc = -1;
	int chunk = seq / splits;
	size_t nq = (size_t)B * H * HeadDim, nkv = nq * seq, npo = nq * splits;
	size_t nml = (size_t)B * H * splits * 2;
	uint16_t *hq = malloc(nq * 2), *hk = malloc(nkv * 2), *hv = malloc(nkv * 2);
	uint16_t *ho = malloc(nq * 2);
	float *hpo = malloc(npo * 4), *hml = malloc(nml * 4);
	double *s2 = malloc(sizeof *s2 * (size_t)seq);
	fiberDevicePtr dq = 0, dk = 0, dv = 0, dpo = 0, dml = 0, dout = 0;
	float scale = 1.0f / sqrtf((float)HeadDim);
	unsigned g1[3] = {(unsigned)splits, (unsigned)H, (unsigned)B}, g2[3] = {(unsigned)H,
	                                                                       (unsigned)B, 1};
	unsigned block[3] = {kind == DecBusy ? BusyThreads : Threads, 1, 1};
	int fiber = kind != DecSimt;
	fiberFunction split, combine, fused;
	fiberDeviceProps props;
	fiberStatus st;

	if (fiber ? get_fn(dev, mod, kind == DecBusy ? "flash_decode_busy" : "flash_decode_fiber",
	                   &fused, chk) :
	    get_fn(dev, mod, "flash_decode_split", &split, chk) ||
	    get_fn(dev, mod, "flash_decode_combine", &combine, chk))
		goto out;
	if (fiber && (FiberWefts % splits || chunk % (8 * FiberWefts / splits))) {
		snprintf(chk->fault, sizeof chk->fault, "flash_decode_%s: %d splits of %d keys do "
		         "not divide among %d wefts", kind == DecBusy ? "busy" : "fiber", splits, chunk,
		         FiberWefts);
		goto out;
	}
	if (!hq || !hk || !hv || !ho || !hpo || !hml || !s2) {
		snprintf(chk->fault, sizeof chk->fault, "out of host memory");
		goto out;
	}
	rng_seed(0x5eed0003u + (uint64_t)seq * 17u + (uint64_t)B * 5u + (uint64_t)H);
	for (size_t k = 0; k < nq; k++)
		hq[k] = f2h(rng_uniform(-2, 2));
	for (size_t k = 0; k < nkv; k++)
		hk[k] = f2h(rng_uniform(-2, 2));
	for (size_t k = 0; k < nkv; k++)
		hv[k] = f2h(rng_uniform(-1, 1));
	if ((st = fiberMalloc(dev, &dq, nq * 2)) || (st = fiberMalloc(dev, &dk, nkv * 2)) ||
	    (st = fiberMalloc(dev, &dv, nkv * 2)) || (st = fiberMalloc(dev, &dpo, npo * 4)) ||
	    (st = fiberMalloc(dev, &dml, nml * 4)) || (st = fiberMalloc(dev, &dout, nq * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dq, hq, nq * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dk, hk, nkv * 2)) ||
	    (st = fiberMemcpyHtoD(dev, dv, hv, nkv * 2)) || (st = fiberMemset(dev, dpo, 0xff, npo * 4)) ||
	    (st = fiberMemset(dev, dml, 0xff, nml * 4)) || (st = fiberMemset(dev, dout, 0xff, nq * 2))) {
		fail(dev, chk, st, "device memory");
		goto out;
	}
	void *p1[] = {&dq, &dk, &dv, &dpo, &dml, &seq, &chunk, &scale};
	void *p2[] = {&dpo, &dml, &dout, &splits};
	int items = B * H;
	void *p3[] = {&dq, &dk, &dv, &dpo, &dml, &dout, &items, &seq, &chunk, &splits, &scale};
	fiberDeviceGetProperties(dev, &props);
	unsigned g3[3] = {(unsigned)(items < props.sm_count ? items : props.sm_count), 1, 1};
	if (fiber ? (st = fiberLaunchKernel(fused, g3, block, 0, p3)) :
	    ((st = fiberLaunchKernel(split, g1, block, 0, p1)) ||
	     (st = fiberLaunchKernel(combine, g2, block, 0, p2)))) {
		fail(dev, chk, st, "launch");
		goto out;
	}
	if ((st = fiberMemcpyDtoH(dev, ho, dout, nq * 2)) ||
	    (st = fiberMemcpyDtoH(dev, hpo, dpo, npo * 4)) ||
	    (st = fiberMemcpyDtoH(dev, hml, dml, nml * 4))) {
		fail(dev, chk, st, "reading the outputs");
		goto out;
	}
	if (chk->corrupt)
		hpo[npo / 2] += 1.0f;     /* the checker's self-test */
	chk->expected = (uint64_t)B * H * ((uint64_t)splits * (HeadDim + 2) + HeadDim);
	for (size_t bh = 0; bh < (size_t)B * H; bh++)
		dec_check_bh(hq + bh * HeadDim, hk + bh * seq * HeadDim, hv + bh * seq * HeadDim,
		             hpo + bh * splits * HeadDim, hml + bh * splits * 2, ho + bh * HeadDim, s,
		             s2, chk);
	rc = 0;
out:
	fiberFree(dev, dq);
	fiberFree(dev, dk);
	fiberFree(dev, dv);
	fiberFree(dev, dpo);
	fiberFree(dev, dml);
	fiberFree(dev, dout);
	free(hq);
	free(hk);
	free(hv);
	free(ho);
	free(hpo);
	free(hml);
	free(s2);
	return rc;
}

static int
dec_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	return dec_exec(dev, mod, s, chk, DecSimt);
}

static int
dec_fiber_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	return dec_exec(dev, mod, s, chk, DecFiber);
}

static int
dec_busy_run(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk)
{
	return dec_exec(dev, mod, s, chk, DecBusy);
}

const Work work_flash_decode = {
	"FlashDecoding", "flash_decode",
	"FlashDecoding-class split-K decode + combine (CUDA cores, 16-byte read-only loads, "
	"4 keys in flight per lane)",
	{"1.12", "", ""}, dec_run, dec_ctas,
};

const FiberWork fiber_flash_decode = {
	&work_flash_decode, "flash_decode_fiber",
	"split and combine fused, persistent: split phase on 512 fibers (SETFIBERNUM), combine on "
	"128 (docs/paper-table.md)",
	dec_fiber_run,
};

const FiberWork fiber_flash_decode_busy = {
	&work_flash_decode, "flash_decode_busy_fiber",
	"split and combine fused, persistent, no SM-wide sync: 16 split wefts publish each item "
	"into pools (busy bits), a resident combine weft takes them (docs/paper-table.md)",
	dec_busy_run,
};
