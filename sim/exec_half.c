/* exec_half.c: FP16x2 and BF16x2 SIMD semantics: HADD2, HMUL2, HFMA2 (.MMA is the same
 * operation on another pipe), HMNMX2, HSET2, HSETP2 and their 32I forms, with the .F32 result
 * form (one binary32), .BF16_V2, operand selectors (.H0_H0 .H1_H1 .F32), per-half - and |x|,
 * .FTZ, .SAT, .RELU. Each half is computed exactly and rounded once to nearest even (HFMA2 is
 * fused). A pair of float literals is printed high half first: `HADD2 R3, R2, 2, 1` adds
 * {2.0, 1.0} (encoding 0x40003c00).
 */
#include <string.h>

#include "alu.h"

/* DIns.mod bits of this file */
enum {
	HBf16 = 1 << 0,        /* .BF16_V2: bfloat16 halves */
	HF32 = 1 << 1,         /* .F32: the result is one binary32 (of the low halves) */
	HFtz = 1 << 2,         /* .FTZ */
	HSat = 1 << 3,         /* .SAT: clamp to [0, 1], NaN gives +0 */
	HRelu = 1 << 4,        /* .RELU: negative results give +0, NaN the canonical NaN */
	HNan = 1 << 5,         /* HMNMX2.NAN: a NaN operand gives the canonical NaN */
	HBool = 1 << 6,        /* HSET2.BF: 1.0 for true (else 0xffff) */
	HHand = 1 << 7,        /* HSETP2.H_AND: both halves' results ANDed */
};

enum { HAdd, HMul, HFma, HMnmx, HSet, HSetp };

/* one source operand: the 32-bit values and where its two halves sit */
typedef struct HSrc {
	const uint32_t *v;     /* 32 lane values (a register row or a temporary) */
	unsigned slo, shi;     /* shifts of the low and high half: 0/16, 0/0 (.H0_H0), 16/16 */
	uint32_t and, xor;     /* |x| and -x on a half */
} HSrc;

static inline int
h_isnan(uint32_t h, int bf)
{
	return bf ? bf16_isnan(h) : f16_isnan(h);
}

static inline float
h_to_f32(uint32_t h, int bf)
{
	return f32_of(bf ? h << 16 : f16_bits_to_f32(h));
}

static inline uint32_t
h_ftz(uint32_t h, int bf)
{
	uint32_t e = bf ? 0x7f80u : 0x7c00u;

	return (h & e) ? h : h & 0x8000u;
}

/* source o; .F32 converts the binary32 toward zero, flushing subnormals, into tmp */
static void
hsrc(Exec *x, const DOp *o, int bf, uint32_t tmp[WarpSize], HSrc *h)
{
	h->v = alu_src(x, o, tmp);
	h->and = (o->flags & DFAbs) ? 0x7fffu : 0xffffu;
	h->xor = (o->flags & DFNeg) ? 0x8000u : 0;
	switch (o->sel) {
	case SelH0H0:
		h->slo = h->shi = 0;
		break;
	case SelH1H1:
		h->slo = h->shi = 16;
		break;
	case SelF32:
		for (unsigned l = 0; l < WarpSize; l++)
			tmp[l] = (uint32_t)fp_from_f64(bf ? FpBF16 : FpF16, (double)f32_of(h->v[l]), RmRZ,
			                               FpFtz);
		h->v = tmp;
		h->slo = h->shi = 0;
		break;
	default:
		h->slo = 0;
		h->shi = 16;
		break;
	}
}

static inline uint32_t
hlo(const HSrc *h, unsigned l)
{
	return (((h->v[l] >> h->slo) & 0xffffu) & h->and) ^ h->xor;
}

static inline uint32_t
hhi(const HSrc *h, unsigned l)
{
	return (((h->v[l] >> h->shi) & 0xffffu) & h->and) ^ h->xor;
}

/* a*b + c of three halves rounded to odd in binary64: the product is exact, the sum's error
 * (TwoSum) sets the last bit. Rounding that once more to binary32 (nearest) or to odd binary32
 * and then to 16 bits (nearest) is exact-once (53 >= 24 + 2, 24 >= 11 + 2). */
static inline double
h_fma_d(uint32_t ha, uint32_t hb, uint32_t hc, uint32_t md)
{
	int bf = (md & HBf16) != 0;
	double a, b, c, p, s, bb, e;
	uint64_t u;

	if (md & HFtz) {
		ha = h_ftz(ha, bf);
		hb = h_ftz(hb, bf);
		hc = h_ftz(hc, bf);
	}
	a = h_to_f32(ha, bf);
	b = h_to_f32(hb, bf);
	c = h_to_f32(hc, bf);
	p = a * b;
	s = p + c;
	bb = s - p;
	e = (p - (s - bb)) + (c - bb);
	u = f64_bits(s);
	if (e != 0 && e == e && !(u & 1))
		u += ((e > 0) == (s > 0)) ? 1 : (uint64_t)-1;
	return f64_of(u);
}

/* the half result of a binary32 value: one rounding (add and mul in binary32 are already
 * exact-once for 16-bit operands: 24 >= 2 * 11 + 2), then .FTZ, .SAT, .RELU */
static inline uint32_t
h_out(float f, uint32_t md)
{
	int bf = (md & HBf16) != 0;
	uint32_t r = bf ? f32_to_bf16_rn(f32_bits(f)) : f32_to_f16_rn(f32_bits(f));

	if (md & (HFtz | HSat | HRelu)) {
		uint32_t one = bf ? 0x3f80u : 0x3c00u;
		if (h_isnan(r, bf))
			return (md & HSat) ? 0 : r;
		if (md & HFtz)
			r = h_ftz(r, bf);
		if (md & HSat)
			r = (r & 0x8000u) ? 0 : r > one ? one : r;
		if ((md & HRelu) && (r & 0x8000u) && (r & 0x7fffu))
			r = 0;
	}
	return r;
}

/* the binary32 result of .F32 forms */
static inline uint32_t
f_out(float f, uint32_t md)
{
	uint32_t r = f32_bits(f);

	if (f != f)
		return (md & HSat) ? 0 : F32_CNAN;
	if (md & HFtz)
		r = f32_ftz(r);
	if (md & HSat)
		r = (r & 0x80000000u) ? 0 : r > 0x3f800000u ? 0x3f800000u : r;
	if ((md & HRelu) && (r & 0x80000000u) && (r & 0x7fffffffu))
		r = 0;
	return r;
}

/* a + b, a * b in binary32 (exact-once for halves), a*b + c rounded to odd binary32 */
static inline float
h_op(int op, uint32_t a, uint32_t b, uint32_t c, uint32_t md)
{
	int bf = (md & HBf16) != 0;

	if (op == HFma)
		return f64_to_f32_odd(h_fma_d(a, b, c, md));
	if (md & HFtz) {
		a = h_ftz(a, bf);
		b = h_ftz(b, bf);
	}
	if (op == HAdd)
		return h_to_f32(a, bf) + h_to_f32(b, bf);
	return h_to_f32(a, bf) * h_to_f32(b, bf);
}

/* min/max of two halves (p: min) with the NaN rule of FMNMX */
static inline uint32_t
h_mnmx(uint32_t a, uint32_t b, int pmin, uint32_t md)
{
	int bf = (md & HBf16) != 0;
	uint32_t cnan = bf ? BF16_CNAN : F16_CNAN;
	float fa, fb;

	if (md & HFtz) {
		a = h_ftz(a, bf);
		b = h_ftz(b, bf);
	}
	if (h_isnan(a, bf) || h_isnan(b, bf)) {
		if ((md & HNan) || (h_isnan(a, bf) && h_isnan(b, bf)))
			return cnan;
		return h_isnan(a, bf) ? b : a;
	}
	fa = h_to_f32(a, bf);
	fb = h_to_f32(b, bf);
	if (fa == fb)
		return pmin ? (a & 0x7fffu) | ((a | b) & 0x8000u) : (a & 0x7fffu) | (a & b & 0x8000u);
	return ((fa < fb) == pmin) ? a : b;
}

static inline unsigned
h_rel(uint32_t a, uint32_t b, uint32_t md)
{
	int bf = (md & HBf16) != 0;

	if (md & HFtz) {
		a = h_ftz(a, bf);
		b = h_ftz(b, bf);
	}
	return alu_frel(h_to_f32(a, bf), h_to_f32(b, bf));
}

/* a half as binary32 / a binary32 to a half, branch-free (the lane loops vectorize) */
static inline float
hf(uint32_t h, int bf)
{
	return bf ? f32_of(h << 16) : f16_to_f32_bf(h);
}

static inline uint32_t
fh(float f, int bf)
{
	return bf ? f32_to_bf16_bf(f) : f32_to_f16_bf(f);
}

/* a*b + c of binary16 operands given as binary32, rounded to odd binary32: the product is
 * exact (22 bits), nothing overflows, so TwoSum gives the sum's error, which sets the last
 * bit; a final rounding to 11 bits is then exact-once (24 >= 11 + 2) */
static inline float
fma_odd16(float a, float b, float c)
{
	float p = a * b, t = p + c, bb = t - p, e = (p - (t - bb)) + (c - bb);
	uint32_t u = f32_bits(t);
	uint32_t odd = ((uint32_t)(e != 0) & (uint32_t)(e == e)) & ~u & 1;
	uint32_t away = (uint32_t)(e > 0) ^ (uint32_t)(t <= 0);

	return f32_of(u + odd * (2 * away - 1));
}

/* the same for bfloat16 operands, whose products leave binary32's range: in binary64 */
static inline float
fma_odd_bf16(float a, float b, float c)
{
	double p = (double)a * b, s = p + c, bb = s - p, e = (p - (s - bb)) + (c - bb);
	uint64_t u = f64_bits(s);
	uint64_t odd = ((uint64_t)(e != 0) & (uint64_t)(e == e)) & ~u & 1;
	uint64_t away = (uint64_t)(e > 0) ^ (uint64_t)(s <= 0);

	return f64_to_f32_odd(f64_of(u + odd * (2 * away - 1)));
}

/* the lane loop of one operation and format: called with constants, so that each copy is
 * straight-line code */
typedef struct HLoop {
	const uint32_t *v[3];  /* sources */
	unsigned lo[3], hi[3]; /* shifts of their low and high halves */
	uint32_t and[3], xor[3]; /* |x|, -x */
} HLoop;

static inline __attribute__((always_inline)) void
hloop(const HLoop *h, int op, int bf, int f32out, uint32_t *restrict r)
{
	const uint32_t *restrict va = h->v[0], *restrict vb = h->v[1], *restrict vc = h->v[2];
	unsigned la = h->lo[0], ha = h->hi[0], lb = h->lo[1], hb = h->hi[1];
	unsigned lc = h->lo[2], hc = h->hi[2];
	uint32_t an = h->and[0], ax = h->xor[0], bn = h->and[1], bx = h->xor[1];
	uint32_t cn = h->and[2], cx = h->xor[2];

#define HLANE(v, s, n, x) hf(((((v)[l] >> (s)) & 0xffffu) & (n)) ^ (x), bf)
	for (unsigned l = 0; l < WarpSize; l++) {
		float alo = HLANE(va, la, an, ax), blo = HLANE(vb, lb, bn, bx);
		float ahi = HLANE(va, ha, an, ax), bhi = HLANE(vb, hb, bn, bx), lo, hi;
		if (op == HAdd) {
			lo = alo + blo;
			hi = ahi + bhi;
		} else if (op == HMul) {
			lo = alo * blo;
			hi = ahi * bhi;
		} else if (!bf) {
			lo = fma_odd16(alo, blo, HLANE(vc, lc, cn, cx));
			hi = fma_odd16(ahi, bhi, HLANE(vc, hc, cn, cx));
		} else {
			lo = fma_odd_bf16(alo, blo, HLANE(vc, lc, cn, cx));
			hi = fma_odd_bf16(ahi, bhi, HLANE(vc, hc, cn, cx));
		}
		if (f32out)
			r[l] = lo != lo ? F32_CNAN : f32_bits(lo);
		else
			r[l] = fh(hi, bf) << 16 | fh(lo, bf);
	}
#undef HLANE
}

/* HADD2, HMUL2, HFMA2 with no modifier but .BF16_V2 (and .F32 for HADD2/HMUL2) */
ALU_BODY(exec_harith_plain)
{
	static const uint32_t zero[WarpSize];
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	int op = (int)d->aux, bf = (d->mod & HBf16) != 0, f32out = (d->mod & HF32) != 0;
	HSrc a, b, c = { zero, 0, 0, 0xffffu, 0 };
	HLoop h;

	hsrc(x, &d->src[0], bf, ta, &a);
	hsrc(x, &d->src[1], bf, tb, &b);
	if (op == HFma)
		hsrc(x, &d->src[2], bf, tc, &c);
	h = (HLoop){ { a.v, b.v, c.v }, { a.slo, b.slo, c.slo }, { a.shi, b.shi, c.shi },
	             { a.and, b.and, c.and }, { a.xor, b.xor, c.xor } };
	switch (op * 4 + bf * 2 + f32out) {
	case HAdd * 4: hloop(&h, HAdd, 0, 0, r); break;
	case HAdd * 4 + 1: hloop(&h, HAdd, 0, 1, r); break;
	case HAdd * 4 + 2: hloop(&h, HAdd, 1, 0, r); break;
	case HAdd * 4 + 3: hloop(&h, HAdd, 1, 1, r); break;
	case HMul * 4: hloop(&h, HMul, 0, 0, r); break;
	case HMul * 4 + 1: hloop(&h, HMul, 0, 1, r); break;
	case HMul * 4 + 2: hloop(&h, HMul, 1, 0, r); break;
	case HMul * 4 + 3: hloop(&h, HMul, 1, 1, r); break;
	case HFma * 4: hloop(&h, HFma, 0, 0, r); break;
	default: hloop(&h, HFma, 1, 0, r); break;
	}
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_harith_plain)

/* HADD2, HMUL2, HFMA2 */
static void
exec_harith(Exec *x, const DIns *d, uint32_t mask)
{
	static const uint32_t zero[WarpSize];
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize], md = d->mod;
	int op = (int)d->aux, bf = (md & HBf16) != 0;
	HSrc a, b, c = { zero, 0, 0, 0xffffu, 0 };

	hsrc(x, &d->src[0], bf, ta, &a);
	hsrc(x, &d->src[1], bf, tb, &b);
	if (op == HFma)
		hsrc(x, &d->src[2], bf, tc, &c);
	if (md & HF32) {                         /* one binary32 from the low halves */
		for (unsigned l = 0; l < WarpSize; l++) {
			float f = op == HFma ? (float)h_fma_d(hlo(&a, l), hlo(&b, l), hlo(&c, l), md)
			                     : h_op(op, hlo(&a, l), hlo(&b, l), 0, md);
			r[l] = f_out(f, md);
		}
	} else {
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t lo = h_out(h_op(op, hlo(&a, l), hlo(&b, l), hlo(&c, l), md), md);
			uint32_t hi = h_out(h_op(op, hhi(&a, l), hhi(&b, l), hhi(&c, l), md), md);
			r[l] = hi << 16 | lo;
		}
	}
	sim_dst(x, &d->dst[0], r, mask);
}

/* HMNMX2, HSET2, HSETP2 */
static void
exec_half(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize], md = d->mod, pc = 0, p = 0, t0 = 0, t1 = 0;
	int op = (int)d->aux, bf = (md & HBf16) != 0;
	HSrc ha, hb;

	hsrc(x, &d->src[0], bf, ta, &ha);
	hsrc(x, &d->src[1], bf, tb, &hb);
	if (op == HMnmx)
		p = sim_pred(x, &d->src[2]);
	else
		pc = sim_pred(x, &d->src[2]);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t alo = hlo(&ha, l), ahi = hhi(&ha, l), blo = hlo(&hb, l), bhi = hhi(&hb, l);
		if (op == HMnmx) {
			int pmin = (int)((p >> l) & 1);
			r[l] = h_mnmx(ahi, bhi, pmin, md) << 16 | h_mnmx(alo, blo, pmin, md);
		} else {
			t0 |= (uint32_t)((d->aux2 & h_rel(alo, blo, md)) != 0) << l;
			t1 |= (uint32_t)((d->aux2 & h_rel(ahi, bhi, md)) != 0) << l;
		}
	}
	if (op == HSetp) {
		int bop = (int)(d->mod >> 16);
		if (md & HHand) {
			uint32_t t = t0 & t1;
			sim_dst_pred(x, &d->dst[0], alu_bop(bop, t, pc), mask);
			if (d->ndst > 1)
				sim_dst_pred(x, &d->dst[1], alu_bop(bop, ~t, pc), mask);
		} else {
			sim_dst_pred(x, &d->dst[0], alu_bop(bop, t0, pc), mask);
			if (d->ndst > 1)
				sim_dst_pred(x, &d->dst[1], alu_bop(bop, t1, pc), mask);
		}
		return;
	}
	if (op == HSet) {
		int bop = (int)(d->mod >> 16);
		uint32_t one = (md & HBool) ? (bf ? 0x3f80u : 0x3c00u) : 0xffffu;
		t0 = alu_bop(bop, t0, pc);
		t1 = alu_bop(bop, t1, pc);
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = ((t1 >> l) & 1 ? one << 16 : 0) | ((t0 >> l) & 1 ? one : 0);
	}
	sim_dst(x, &d->dst[0], r, mask);
}

/* HADD2/HMUL2/HFMA2 whose sources are all immediates or RZ (`HFMA2.MMA R2, -RZ, RZ, 1, 1`,
 * nvcc's constant load): the result, folded at decode time into aux2, written to every lane */
static void
exec_hconst(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t *r = sim_vreg(x, &d->dst[0], 0), v = d->aux2;

	if (mask == ~0u) {
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = v;
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (mask >> l) & 1 ? v : r[l];
}

/* run d's own semantics once on a one-register machine: the folded constant, or -1 when the
 * lanes disagree (they cannot: no source varies by lane) */
static int
half_fold(DIns *d)
{
	uint32_t rf[1][WarpSize];
	Sm sm = { 0 };
	Warp w = { 0 };
	Exec x = { 0 };
	DIns t = *d;

	memset(rf, 0, sizeof rf);
	sm.rf = rf;
	x.sm = &sm;
	x.w = &w;
	t.dst[0].reg = 0;
	t.exec(&x, &t, ~0u);
	for (unsigned l = 1; l < WarpSize; l++)
		if (rf[0][l] != rf[0][0])
			return -1;
	d->aux2 = rf[0][0];
	d->exec = exec_hconst;
	return 0;
}

/* Rebuild the sources: a pair of float literals becomes one 32-bit immediate. */
static int
half_srcs(DecodeCtx *c, const Ins *i, DIns *d, int bf)
{
	int ns = 0;

	for (int k = d->ndst; k < i->nopnd; k++) {
		if (ns == MaxSrc)
			return sim_unsupported(c, i);
		if (alu_is_fimm(i, k) && alu_is_fimm(i, k + 1)) {
			DOp *o = &d->src[ns++];
			memset(o, 0, sizeof *o);
			o->kind = DImm;
			o->n = 1;
			o->reg = RegRZ;
			o->ureg = o->udesc = RegURZ;
			o->imm = alu_fimm_pair(i, k, bf ? FpBF16 : FpF16);
			k++;
			continue;
		}
		if (alu_is_fimm(i, k))               /* one literal alone: not a form we know */
			return sim_unsupported(c, i);
		if (dop_from(c, i, k, &d->src[ns++]) < 0)
			return -1;
	}
	d->nsrc = (uint8_t)ns;
	for (int k = 0; k < ns; k++) {
		unsigned s = d->src[k].sel;
		if (s != SelNone && s != SelH0H0 && s != SelH1H1 && s != SelF32 && s != SelH1H0)
			return sim_unsupported(c, i);
	}
	return 0;
}

static int
dec_half(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "BF16_V2", "F32", "FTZ", "SAT", "RELU", "NAN", "BF",
	                                     "H_AND", "MMA", "F16_V2", "F16", NULL };
	static const char *const cmp_names[] = { "BF16_V2", "F32", "FTZ", "SAT", "RELU", "-", "BF",
	                                         "H_AND", "MMA", "F16_V2", "F16", NULL };
	AluMods m;
	int op, nin, setp = i->op == OHSETP2;

	switch (i->op) {
	case OHADD2: case OHADD2_32I: op = HAdd; nin = 2; break;
	case OHMUL2: case OHMUL2_32I: op = HMul; nin = 2; break;
	case OHFMA2: case OHFMA2_32I: op = HFma; nin = 3; break;
	case OHMNMX2: op = HMnmx; nin = 3; break;
	case OHSET2: op = HSet; nin = 3; break;
	default: op = HSetp; nin = 3; break;
	}
	/* .NAN is HMNMX2's propagation flag, but a compare of HSET2/HSETP2 */
	if (alu_mods(c, i, op == HSet || op == HSetp ? cmp_names : names,
	             (op == HSet || op == HSetp) ? AmCmp | AmBop : 0, &m) < 0)
		return -1;
	if (setp ? alu_split(c, i, d, 0) < 0 : alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (half_srcs(c, i, d, (m.bits & 1) != 0) < 0)
		return -1;
	d->mod = m.bits & 0xff;
	for (unsigned k = 0; k < d->nsrc; k++)  /* .F32 inputs feed half operations only */
		if (d->src[k].sel == SelF32 && (m.bits & HF32))
			return sim_unsupported(c, i);
	if (d->nsrc != nin || d->ndst < 1 || d->ndst > (setp ? 2 : 1))
		return sim_unsupported(c, i);
	if ((op == HSet || op == HSetp) != (m.cmp >= 0))
		return sim_unsupported(c, i);
	if ((m.bits & HNan) && op != HMnmx)
		return sim_unsupported(c, i);
	if ((m.bits & (HBool | HHand)) && op != HSet && op != HSetp)
		return sim_unsupported(c, i);
	if ((m.bits & (HF32 | HSat | HRelu)) && op > HFma)
		return sim_unsupported(c, i);
	if ((op == HMnmx || op == HSet || op == HSetp) && d->src[2].kind != DP &&
	    d->src[2].kind != DUP)
		return sim_unsupported(c, i);
	if (!setp && d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	d->aux = (uint32_t)op;
	d->aux2 = m.cmp < 0 ? 0 : (uint32_t)m.cmp;
	d->mod |= (uint32_t)(m.bop < 0 ? BopAnd : m.bop) << 16;
	d->exec = op <= HFma ? exec_harith : exec_half;
	if (op <= HFma && ((d->mod & ~(uint32_t)HBf16 & 0xff) == 0 ||
	                   ((d->mod & ~(uint32_t)HBf16 & 0xff) == HF32 && op != HFma))) {
		int f32sel = 0;
		for (unsigned k = 0; k < d->nsrc; k++)
			f32sel |= d->src[k].sel == SelF32;
		if (!f32sel)
			d->exec = ALU_PICK(exec_harith_plain);
	}
	if (op <= HFma && d->dst[0].reg != RegRZ) {
		int cst = 1;
		for (unsigned k = 0; k < d->nsrc; k++)
			cst &= d->src[k].kind == DImm || (d->src[k].kind == DR && d->src[k].reg == RegRZ);
		if (cst)
			(void)half_fold(d);
	}
	return 0;
}

void
sim_register_half(SimTab *t)
{
	static const uint16_t ops[] = { OHADD2, OHADD2_32I, OHMUL2, OHMUL2_32I, OHFMA2, OHFMA2_32I,
	                                OHMNMX2, OHSET2, OHSETP2 };

	for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++)
		t->dec[ops[k]] = dec_half;
}
