/* exec_float.c: FP32 and FP64 semantics: FADD, FMUL, FFMA (and their 32I forms) in the four
 * rounding modes with .FTZ and .SAT, FMNMX, FSEL, FSET, FSETP, FCHK, FRND, MUFU, and DADD, DMUL,
 * DFMA, DMNMX, DSETP. Arithmetic is IEEE-754 exact (one rounding; FFMA is fused); NaN results
 * are the canonical NaN; MUFU is a correctly rounded evaluation of the function the hardware
 * approximates (docs/sim-numerics.md). Round-to-nearest runs on the host's arithmetic; FP32
 * directed modes round in software (the exact result as a double-double, stepped once), FP64
 * ones switch the host's rounding mode around their loop (fp.c).
 */
#include <math.h>
#include <string.h>

#include "alu.h"

/* DIns.mod bits of this file */
enum {
	FFtz = 1 << 0,         /* .FTZ: subnormal inputs and results become signed zeros */
	FSat = 1 << 1,         /* .SAT: clamp to [0, 1], NaN gives +0 */
	FRmShift = 2,          /* bits 2..3: rounding mode RmRN.. */
	FBf = 1 << 4,          /* FSET.BF: 1.0 for true (else all ones) */
	FNan = 1 << 5,         /* FMNMX.NAN: a NaN operand gives the canonical NaN */
	F64 = 1 << 6,          /* FRND.F64 */
	FMinMax = 1 << 7,      /* DSETP.MIN/.MAX: aux is 1 for MIN, 0 for MAX */
};

#define RM_OF(mod) ((int)(((mod) >> FRmShift) & 3))

/* float literals: exact bits (alu.c) in place of dop_from's binary32 rounding */
static void
fix_fimm(const Ins *i, DIns *d, int f64)
{
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DImm && (d->src[k].flags & DFFimm))
			d->src[k].imm = f64 ? (int64_t)alu_fimm64(i, d->ndst + (int)k)
			                    : (int64_t)alu_fimm32(i, d->ndst + (int)k);
}

/* result post-processing of FADD/FMUL/FFMA: canonical NaN, .FTZ, .SAT (branch-free) */
static inline uint32_t
fpost(uint32_t u, uint32_t mod)
{
	uint32_t nan = f32_isnan(u), sub = !(u & 0x7f800000u);

	if (mod & FFtz)
		u = sub ? u & 0x80000000u : u;
	if (mod & FSat) {
		uint32_t neg = u >> 31;
		u = u > 0x3f800000u ? 0x3f800000u : u;
		return neg | nan ? 0 : u;
	}
	return nan ? F32_CNAN : u;
}

/* ---------------------------------------------------------------------------------------------
 * FADD Rd, a, b;  FMUL Rd, a, b;  FFMA Rd, a, b, c   (and *32I)
 */
enum { OpAdd, OpMul, OpFma };

/* operand bits with -x, |x| (and .FTZ) applied, as floats */
static inline void
fopnd(const DOp *o, const uint32_t *v, int ftz, float *f)
{
	uint32_t and, xor, keep = ftz ? 0x80000000u : ~0u;

	alu_fsign(o, &and, &xor);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t u = (v[l] & and) ^ xor;
		f[l] = f32_of((u & 0x7f800000u) ? u : u & keep);
	}
}

/* Directed rounding: the exact result as a binary64 sum s + e (the product of two binary32
 * is exact; TwoSum gives the sum's error), rounded to nearest binary32 and stepped once when
 * that went the wrong way (fp.h's f32_round_dd, branch-free here); an exact zero sum is -0 in
 * .RM unless both addends are +0 (IEEE 754). Called with a constant op. */
static inline __attribute__((always_inline)) void
fdirected(const float *fa, const float *fb, const float *fc, float *f, int op, int rm)
{
	uint32_t up = rm == RmRP, dn = rm == RmRM, rz = rm == RmRZ;

	for (unsigned l = 0; l < WarpSize; l++) {
		double p = op == OpAdd ? (double)fa[l] : (double)fa[l] * fb[l];
		double q = op == OpAdd ? (double)fb[l] : op == OpFma ? (double)fc[l] : 0.0;
		double s = p + q, bb = s - p, e = (p - (s - bb)) + (q - bb), diff;
		uint32_t u, neg, mag, gup, gdn, sup, sdn, stepped, zero;
		float g;

		e = op == OpMul || e != e ? 0.0 : e;
		s = op == OpMul ? p : s;
		g = (float)s;
		diff = (s - (double)g) + e;
		u = f32_bits(g);
		neg = u >> 31;
		mag = (uint32_t)((u & 0x7fffffffu) != 0);
		gup = (uint32_t)(diff > 0);
		gdn = (uint32_t)(diff < 0);
		/* a step toward +inf (sup) or -inf (sdn); toward zero is one of them by the sign */
		sup = (up & gup) | (rz & gup & neg & mag);
		sdn = (dn & gdn) | (rz & gdn & ~neg & mag);
		stepped = mag ? u + 2 * (sup ^ neg) - 1 : 0x80000001u ^ (sup << 31);
		u ^= (u ^ stepped) & -(sup | sdn);
		zero = (uint32_t)(s == 0) & (uint32_t)(e == 0) & (uint32_t)(op != OpMul) &
		       ~((uint32_t)(f64_bits(p) == 0) & (uint32_t)(f64_bits(q) == 0));
		u ^= (u ^ 0x80000000u) & -(dn & zero);
		f[l] = f32_of(u);
	}
}

/* Staged: operands to floats, one loop per operation (the host's arithmetic in its mode),
 * then NaN canonicalisation, .FTZ and .SAT on the bits. */
ALU_BODY(exec_farith)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize], md = d->mod;
	float fa[WarpSize], fb[WarpSize], fc[WarpSize], f[WarpSize];
	int rm = RM_OF(md), op = (int)d->aux, ftz = (md & FFtz) != 0;
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	if (md == 0) {                           /* the common case in one pass */
		const uint32_t *a = alu_src(x, &d->src[0], ta);
		const uint32_t *b = alu_src(x, &d->src[1], tb);
		uint32_t m[6] = { ~0u, 0, ~0u, 0, ~0u, 0 };
		alu_fsign(&d->src[0], &m[0], &m[1]);
		alu_fsign(&d->src[1], &m[2], &m[3]);
		if (op == OpAdd) {
			ALU_IVDEP
			for (unsigned l = 0; l < WarpSize; l++) {
				float v = f32_of((a[l] & m[0]) ^ m[1]) + f32_of((b[l] & m[2]) ^ m[3]);
				r[l] = v != v ? F32_CNAN : f32_bits(v);
			}
		} else if (op == OpMul) {
			ALU_IVDEP
			for (unsigned l = 0; l < WarpSize; l++) {
				float v = f32_of((a[l] & m[0]) ^ m[1]) * f32_of((b[l] & m[2]) ^ m[3]);
				r[l] = v != v ? F32_CNAN : f32_bits(v);
			}
		} else {
			/* the host's fused multiply-add: an instruction in the AVX2+FMA variant, the
			 * C library's exact fmaf in the baseline one */
			const uint32_t *c = alu_src(x, &d->src[2], tc);
			alu_fsign(&d->src[2], &m[4], &m[5]);
			ALU_IVDEP
			for (unsigned l = 0; l < WarpSize; l++) {
				float v = __builtin_fmaf(f32_of((a[l] & m[0]) ^ m[1]),
				                         f32_of((b[l] & m[2]) ^ m[3]), f32_of((c[l] & m[4]) ^ m[5]));
				r[l] = v != v ? F32_CNAN : f32_bits(v);
			}
		}
		alu_out_done(x, &d->dst[0], r, rt, mask);
		return;
	}
	fopnd(&d->src[0], alu_src(x, &d->src[0], ta), ftz, fa);
	fopnd(&d->src[1], alu_src(x, &d->src[1], tb), ftz, fb);
	if (op == OpFma)
		fopnd(&d->src[2], alu_src(x, &d->src[2], tc), ftz, fc);
	if (rm == RmRN) {                        /* inline arithmetic only in the host's mode */
		if (op == OpAdd) {
			for (unsigned l = 0; l < WarpSize; l++)
				f[l] = fa[l] + fb[l];
		} else if (op == OpMul) {
			for (unsigned l = 0; l < WarpSize; l++)
				f[l] = fa[l] * fb[l];
		} else {
			for (unsigned l = 0; l < WarpSize; l++)
				f[l] = __builtin_fmaf(fa[l], fb[l], fc[l]);
		}
	} else {
		if (op == OpAdd)
			fdirected(fa, fb, fc, f, OpAdd, rm);
		else if (op == OpMul)
			fdirected(fa, fb, fc, f, OpMul, rm);
		else
			fdirected(fa, fb, fc, f, OpFma, rm);
	}
	if ((md & (FFtz | FSat)) == 0) {
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = f[l] != f[l] ? F32_CNAN : f32_bits(f[l]);
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = fpost(f32_bits(f[l]), md);
	}
	alu_out_done(x, &d->dst[0], r, rt, mask);
}
ALU_VARIANTS(exec_farith)

static int
dec_farith(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "SAT", NULL };
	AluMods m;
	int op = i->op == OFADD || i->op == OFADD32I ? OpAdd
	       : i->op == OFMUL || i->op == OFMUL32I ? OpMul : OpFma;

	if (alu_mods(c, i, names, AmRnd, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != (op == OpFma ? 3 : 2) || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 0);
	d->mod = m.bits | (uint32_t)(m.rm < 0 ? RmRN : m.rm) << FRmShift;
	d->aux = (uint32_t)op;
	d->exec = ALU_PICK(exec_farith);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * FMNMX[.FTZ][.NAN] Rd, a, b, p: p ? min : max;  FSEL Rd, a, b, p: p ? a : b
 */
ALU_BODY(exec_fmnmx)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize], ua[WarpSize], ub[WarpSize], aa, ax, ba, bx;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	uint32_t p = sim_pred(x, &d->src[2]), md = d->mod, keep = (md & FFtz) ? 0x80000000u : ~0u;

	alu_fsign(&d->src[0], &aa, &ax);
	alu_fsign(&d->src[1], &ba, &bx);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t u = (a[l] & aa) ^ ax, v = (b[l] & ba) ^ bx;
		ua[l] = (u & 0x7f800000u) ? u : u & keep;
		ub[l] = (v & 0x7f800000u) ? v : v & keep;
	}
	if (p == 0 || p == ~0u) {                /* PT / !PT: one direction for the warp */
		int pmin = p != 0;
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_fmnmx(ua[l], ub[l], pmin);
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_fmnmx(ua[l], ub[l], (int)((p >> l) & 1));
	}
	if (md & FNan)
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = f32_isnan(ua[l]) || f32_isnan(ub[l]) ? F32_CNAN : r[l];
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_fmnmx)

ALU_BODY(exec_fsel)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize], aa, ax, ba, bx;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	uint32_t p = sim_pred(x, &d->src[2]);

	alu_fsign(&d->src[0], &aa, &ax);
	alu_fsign(&d->src[1], &ba, &bx);
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (p >> l) & 1 ? (a[l] & aa) ^ ax : (b[l] & ba) ^ bx;
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_fsel)

static int
dec_fmnmx(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "NAN", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 3 || d->dst[0].kind != DR ||
	    (d->src[2].kind != DP && d->src[2].kind != DUP))
		return sim_unsupported(c, i);
	fix_fimm(i, d, 0);
	d->mod = (m.bits & 1 ? FFtz : 0) | (m.bits & 2 ? FNan : 0);
	if (i->op == OFSEL) {
		if (m.bits)
			return sim_unsupported(c, i);
		d->exec = ALU_PICK(exec_fsel);
	} else {
		d->exec = ALU_PICK(exec_fmnmx);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * FSETP.cmp[.FTZ].bop Pd0, Pd1, a, b, Pc;  FSET[.BF].cmp[.FTZ].bop Rd, a, b, Pc
 */
/* eight lanes as GCC vectors: each lane the scalar operation (fcmp_lanes) */
typedef uint32_t FcV8u __attribute__((vector_size(32)));
typedef int32_t FcV8i __attribute__((vector_size(32)));
typedef float FcV8f __attribute__((vector_size(32)));
typedef uint8_t FcV8b __attribute__((vector_size(8)));

/* the compare of every lane, bit l for lane l: alu_fcmp of the operands with their sign
 * modifiers, a denormal flushed to a zero of its sign under .FTZ; eight lanes per vector, whose
 * 0/1 bytes one multiplication gathers into the top byte (byte l to bit 56 + l; no two partial
 * products meet). Inlined, so that the AVX2 variants get their own copy. */
static inline __attribute__((always_inline)) uint32_t
fcmp_lanes(Exec *x, const DIns *d)
{
	uint32_t ta[WarpSize], tb[WarpSize], aa, ax, ba, bx;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	unsigned code = d->aux;
	uint32_t ftz = (d->mod & FFtz) ? 0 : ~0u, t = 0;
	int32_t cl = -(int32_t)(code & 1), ce = -(int32_t)(code >> 1 & 1);
	int32_t cg = -(int32_t)(code >> 2 & 1), cu = -(int32_t)(code >> 3 & 1);

	alu_fsign(&d->src[0], &aa, &ax);
	alu_fsign(&d->src[1], &ba, &bx);
	for (unsigned v = 0; v < WarpSize / 8; v++) {
		FcV8u ua, ub, na, nb;
		FcV8i lt, eq, gt, r;
		FcV8b by;
		uint64_t w;
		memcpy(&ua, a + 8 * v, sizeof ua);
		memcpy(&ub, b + 8 * v, sizeof ub);
		ua = (ua & aa) ^ ax;
		ub = (ub & ba) ^ bx;
		na = (FcV8u)((ua & 0x7f800000u) != 0);
		nb = (FcV8u)((ub & 0x7f800000u) != 0);
		ua = (ua & na) | (ua & (0x80000000u | ftz) & ~na);
		ub = (ub & nb) | (ub & (0x80000000u | ftz) & ~nb);
		lt = (FcV8f)ua < (FcV8f)ub;
		eq = (FcV8f)ua == (FcV8f)ub;
		gt = (FcV8f)ua > (FcV8f)ub;
		r = (lt & cl) | (eq & ce) | (gt & cg) | (~(lt | eq | gt) & cu);
		by = __builtin_convertvector(r & 1, FcV8b);
		memcpy(&w, &by, sizeof w);
		t |= (uint32_t)((w * 0x0102040810204080ull) >> 56) << 8 * v;
	}
	return t;
}

ALU_BODY(exec_fsetp)
{
	uint32_t t = fcmp_lanes(x, d), pc = sim_pred(x, &d->src[2]);
	int bop = (int)d->aux2;

	sim_dst_pred(x, &d->dst[0], alu_bop(bop, t, pc), mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_bop(bop, ~t, pc), mask);
}
ALU_VARIANTS(exec_fsetp)

static void
exec_fset(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t t = alu_bop((int)d->aux2, fcmp_lanes(x, d), sim_pred(x, &d->src[2]));
	uint32_t one = (d->mod & FBf) ? 0x3f800000u : ~0u, r[WarpSize];

	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (t >> l) & 1 ? one : 0;
	sim_dst(x, &d->dst[0], r, mask);
}

static int
dec_fsetp(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "BF", NULL };
	AluMods m;
	int fset = i->op == OFSET;

	if (alu_mods(c, i, names, AmCmp | AmBop, &m) < 0 ||
	    (fset ? alu_split_n(c, i, d, 1) : alu_split(c, i, d, 0)) < 0)
		return -1;
	if (m.cmp < 0 || d->nsrc != 3 || d->ndst < 1 || d->ndst > 2 || (fset && d->ndst != 1) ||
	    (!fset && (m.bits & 2)))
		return sim_unsupported(c, i);
	fix_fimm(i, d, 0);
	d->mod = (m.bits & 1 ? FFtz : 0) | (m.bits & 2 ? FBf : 0);
	d->aux = (uint32_t)m.cmp;
	d->aux2 = (uint32_t)(m.bop < 0 ? BopAnd : m.bop);
	d->exec = fset ? exec_fset : ALU_PICK(exec_fsetp);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * FCHK[.DIVIDE] Pd, a, b: true when a / b needs the slow path of nvcc's division (see
 * docs/sim-numerics.md): b zero, subnormal, infinite or NaN, a subnormal, infinite or NaN, or
 * exponents such that the reciprocal or the quotient leaves the normal range. A superset of
 * the hardware's condition is harmless: the slow path is exact for every input.
 */
static inline uint32_t
fchk(uint32_t a, uint32_t b)
{
	int32_t ea = (int32_t)((a >> 23) & 0xff), eb = (int32_t)((b >> 23) & 0xff);
	uint32_t zero_a = (uint32_t)((a & 0x7fffffffu) == 0);
	uint32_t bad = (uint32_t)(eb == 0) | (uint32_t)(eb == 0xff) | (uint32_t)(ea == 0xff) |
	               (uint32_t)(ea == 0 && !zero_a);
	uint32_t range = (uint32_t)(eb >= 253) | (uint32_t)(eb <= 2) | (uint32_t)(ea - eb >= 126) |
	                 (uint32_t)(ea - eb <= -125) | (uint32_t)(ea >= 253);

	return bad | (range & ~zero_a);      /* a zero dividend: the fast path is exact */
}

ALU_BODY(exec_fchk)
{
	uint32_t ta[WarpSize], tb[WarpSize], t = 0;
	const uint32_t *restrict a = alu_src(x, &d->src[0], ta);
	const uint32_t *restrict b = alu_src(x, &d->src[1], tb);

	for (unsigned l = 0; l < WarpSize; l++)
		t |= fchk(a[l], b[l]) << l;
	sim_dst_pred(x, &d->dst[0], t, mask);
}
ALU_VARIANTS(exec_fchk)

static int
dec_fchk(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "DIVIDE", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 0) < 0)
		return -1;
	if (d->ndst != 1 || d->dst[0].kind != DP || d->nsrc != 2)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 0);
	d->exec = ALU_PICK(exec_fchk);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * FRND[.F64][.TRUNC|.FLOOR|.CEIL][.FTZ] Rd, a: round to an integral value (default: nearest
 * even)
 */
static inline double
rnd_int(double v, int rm)
{
	switch (rm) {
	case RmRZ: return trunc(v);
	case RmRM: return floor(v);
	case RmRP: return ceil(v);
	default: return rint(v);                 /* the host mode is round to nearest here */
	}
}

static void
exec_frnd(Exec *x, const DIns *d, uint32_t mask)
{
	int rm = RM_OF(d->mod);

	if (d->mod & F64) {
		uint64_t a[WarpSize], r[WarpSize], aa, ax;
		alu_src64(x, &d->src[0], a);
		alu_dsign(&d->src[0], &aa, &ax);
		for (unsigned l = 0; l < WarpSize; l++) {
			uint64_t u = (a[l] & aa) ^ ax;
			r[l] = f64_isnan(u) ? F64_CNAN : f64_bits(rnd_int(f64_of(u), rm));
		}
		alu_dst64(x, &d->dst[0], r, mask);
		return;
	}
	uint32_t ta[WarpSize], r[WarpSize], aa, ax;
	const uint32_t *a = alu_src(x, &d->src[0], ta);
	alu_fsign(&d->src[0], &aa, &ax);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t u = (a[l] & aa) ^ ax;
		if (d->mod & FFtz)
			u = f32_ftz(u);
		r[l] = f32_isnan(u) ? F32_CNAN : f32_bits((float)rnd_int(f32_of(u), rm));
	}
	sim_dst(x, &d->dst[0], r, mask);
}

static int
dec_frnd(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "F64", "F32", NULL };
	AluMods m;

	if (alu_mods(c, i, names, AmRound | AmRnd, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	fix_fimm(i, d, (m.bits & 2) != 0);
	d->mod = (m.bits & 1 ? FFtz : 0) | (m.bits & 2 ? F64 : 0) |
	         (uint32_t)(m.rm < 0 ? RmRN : m.rm) << FRmShift;
	d->exec = exec_frnd;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * MUFU.fn Rd, a
 */
/* four lanes of MUFU.EX2 as GCC vectors */
typedef double ExV4d __attribute__((vector_size(32)));
typedef int64_t ExV4l __attribute__((vector_size(32)));
typedef uint64_t ExV4ul __attribute__((vector_size(32)));
typedef float ExV4f __attribute__((vector_size(16)));
typedef uint32_t ExV4u __attribute__((vector_size(16)));
typedef int32_t ExV4i __attribute__((vector_size(16)));

/* 2^x for MUFU.EX2 in binary64, four lanes at once: 2^x = 2^n * 2^f, n = rint(x), |f| <= 1/2,
 * 2^f by its Taylor series to degree 13 (truncation below 2^-57, rounding about 2^-52: the
 * binary32 result is correctly rounded but for astronomically rare near-ties; it agrees with
 * libm's exp2 on every one of 2.7e9 inputs checked). in: the flushed binary32 inputs; each lane
 * the scalar operations in order (no contraction of p * f + c under -std=c11). */
static inline void
ex2x4(const uint32_t *in, uint32_t *out)
{
#define L 0.693147180559945309417232121458176568
	static const double c[14] = {
		1.0, L, L * L / 2, L * L * L / 6, L * L * L * L / 24, L * L * L * L * L / 120,
		L * L * L * L * L * L / 720, L * L * L * L * L * L * L / 5040,
		L * L * L * L * L * L * L * L / 40320, L * L * L * L * L * L * L * L * L / 362880,
		L * L * L * L * L * L * L * L * L * L / 3628800,
		L * L * L * L * L * L * L * L * L * L * L / 39916800,
		L * L * L * L * L * L * L * L * L * L * L * L / 479001600,
		L * L * L * L * L * L * L * L * L * L * L * L * L / 6227020800.0,
	};
#undef L
	ExV4f xf;
	ExV4d x, xc, t, n, f, p;
	ExV4l hi, lo;
	ExV4ul k;
	ExV4u r, fin, nan;

	memcpy(&xf, in, sizeof xf);
	x = __builtin_convertvector(xf, ExV4d);
	hi = x > 128.0;
	lo = x < -127.0;
	xc = (ExV4d)(((ExV4l)x & ~hi & ~lo) | ((ExV4l)(ExV4d){128.0, 128.0, 128.0, 128.0} & hi) |
	             ((ExV4l)(ExV4d){-127.0, -127.0, -127.0, -127.0} & lo));
	t = xc + 0x1.8p52;
	n = t - 0x1.8p52;
	f = xc - n;
	k = (ExV4ul)t - 0x4338000000000000ull;
	p = (ExV4d){c[13], c[13], c[13], c[13]};
#pragma GCC unroll 13
	for (int i = 12; i >= 0; i--)
		p = p * f + c[i];
	p *= (ExV4d)((k + 1023) << 52);
	r = (ExV4u)__builtin_convertvector(p, ExV4f);
	fin = (ExV4u)((r & 0x7f800000u) != 0);          /* f32_ftz */
	r = (r & fin) | (r & 0x80000000u & ~fin);
	nan = (ExV4u)(xf != xf);
	r = (r & ~nan) | (F32_CNAN & nan);
	memcpy(out, &r, sizeof r);
}

ALU_BODY(exec_mufu)
{
	uint32_t ta[WarpSize], r[WarpSize], in[WarpSize], aa, ax;
	const uint32_t *a = alu_src(x, &d->src[0], ta);
	int fn = (int)d->aux;

	alu_fsign(&d->src[0], &aa, &ax);
	for (unsigned l = 0; l < WarpSize; l++)
		in[l] = f32_ftz((a[l] & aa) ^ ax);
	switch (fn) {
	case MufuRcp64h:
	case MufuRsq64h:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = fp_mufu64h(fn, (a[l] & aa) ^ ax);
		break;
	case MufuRcp:                            /* binary32 division rounds once */
		for (unsigned l = 0; l < WarpSize; l++) {
			float v = 1.0f / f32_of(in[l]);
			r[l] = v != v ? F32_CNAN : f32_ftz(f32_bits(v));
		}
		break;
	case MufuEx2:
		for (unsigned l = 0; l < WarpSize; l += 4)
			ex2x4(in + l, r + l);
		break;
	case MufuSqrt:                           /* so does the square root */
		for (unsigned l = 0; l < WarpSize; l++) {
			float v = sqrtf(f32_of(in[l]));
			r[l] = v != v ? F32_CNAN : f32_ftz(f32_bits(v));
		}
		break;
	default:
		fp_mufu_v(fn, in, r, WarpSize);
		break;
	}
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_mufu)

static int
dec_mufu(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H",
	                                     "RSQ64H", "SQRT", "TANH", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (__builtin_popcount(m.bits) != 1 || d->nsrc != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 0);
	d->aux = (uint32_t)__builtin_ctz(m.bits);
	d->exec = ALU_PICK(exec_mufu);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * DADD Rd, a, b;  DMUL Rd, a, b;  DFMA Rd, a, b, c   (pairs; .RN .RZ .RM .RP)
 */
ALU_BODY(exec_darith)
{
	uint64_t a[WarpSize], b[WarpSize], c[WarpSize], r[WarpSize];
	uint64_t aa, ax, ba, bx, ca = ~0ull, cx = 0;
	double fa[WarpSize], fb[WarpSize], fc[WarpSize], f[WarpSize];
	int rm = RM_OF(d->mod), op = (int)d->aux;

	alu_src64(x, &d->src[0], a);
	alu_src64(x, &d->src[1], b);
	alu_dsign(&d->src[0], &aa, &ax);
	alu_dsign(&d->src[1], &ba, &bx);
	for (unsigned l = 0; l < WarpSize; l++) {
		fa[l] = f64_of((a[l] & aa) ^ ax);
		fb[l] = f64_of((b[l] & ba) ^ bx);
	}
	if (op == OpFma) {
		alu_src64(x, &d->src[2], c);
		alu_dsign(&d->src[2], &ca, &cx);
		for (unsigned l = 0; l < WarpSize; l++)
			fc[l] = f64_of((c[l] & ca) ^ cx);
	}
	if (rm == RmRN && op == OpAdd) {         /* inline arithmetic only in the host's mode */
		for (unsigned l = 0; l < WarpSize; l++)
			f[l] = fa[l] + fb[l];
	} else if (rm == RmRN && op == OpMul) {
		for (unsigned l = 0; l < WarpSize; l++)
			f[l] = fa[l] * fb[l];
	} else {
		if (rm != RmRN)
			fp_setround(rm);
		for (unsigned l = 0; l < WarpSize; l++)
			f[l] = op == OpAdd ? fp_add64(fa[l], fb[l]) : op == OpMul ? fp_mul64(fa[l], fb[l])
			     : fp_fma64(fa[l], fb[l], fc[l]);
		if (rm != RmRN)
			fp_setround(RmRN);
	}
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = f[l] != f[l] ? F64_CNAN : f64_bits(f[l]);
	alu_dst64(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_darith)

static int
dec_darith(DecodeCtx *c, const Ins *i, DIns *d)
{
	AluMods m;
	int op = i->op == ODADD ? OpAdd : i->op == ODMUL ? OpMul : OpFma;

	if (alu_mods(c, i, NULL, AmRnd, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != (op == OpFma ? 3 : 2) || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 1);
	d->mod = (uint32_t)(m.rm < 0 ? RmRN : m.rm) << FRmShift;
	d->aux = (uint32_t)op;
	d->exec = ALU_PICK(exec_darith);
	return 0;
}

/* DMNMX Rd, a, b, p */
static void
exec_dmnmx(Exec *x, const DIns *d, uint32_t mask)
{
	uint64_t a[WarpSize], b[WarpSize], r[WarpSize], aa, ax, ba, bx;
	uint32_t p = sim_pred(x, &d->src[2]);

	alu_src64(x, &d->src[0], a);
	alu_src64(x, &d->src[1], b);
	alu_dsign(&d->src[0], &aa, &ax);
	alu_dsign(&d->src[1], &ba, &bx);
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = alu_dmnmx((a[l] & aa) ^ ax, (b[l] & ba) ^ bx, (int)((p >> l) & 1));
	alu_dst64(x, &d->dst[0], r, mask);
}

static int
dec_dmnmx(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_mods(c, i, NULL, 0, &(AluMods){0}) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 3 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 1);
	d->exec = exec_dmnmx;
	return 0;
}

/* DSETP.cmp.bop Pd0, Pd1, a, b, Pc.
 * DSETP.MIN|MAX.bop Pd0, Pd1, a, b, Pc (nvcc's fmin/fmax on sm_8x): t = "a is the result"
 * (b is NaN, or a is below (above) b, -0 below +0), u = "both are NaN";
 * Pd0 = t bop Pc, Pd1 = u bop Pc */
static void
exec_dsetp(Exec *x, const DIns *d, uint32_t mask)
{
	uint64_t a[WarpSize], b[WarpSize], aa, ax, ba, bx;
	uint32_t pc = sim_pred(x, &d->src[2]), t = 0, u = 0;
	unsigned code = d->aux;
	int bop = (int)d->aux2;

	alu_src64(x, &d->src[0], a);
	alu_src64(x, &d->src[1], b);
	alu_dsign(&d->src[0], &aa, &ax);
	alu_dsign(&d->src[1], &ba, &bx);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint64_t ua = (a[l] & aa) ^ ax, ub = (b[l] & ba) ^ bx;
		if (d->mod & FMinMax) {
			int pmin = (int)code;
			uint32_t both = f64_isnan(ua) && f64_isnan(ub);
			uint32_t isa = !f64_isnan(ua) && alu_dmnmx(ua, ub, pmin) == ua;
			t |= isa << l;
			u |= both << l;
		} else {
			t |= (uint32_t)((code & alu_frel(f64_of(ua), f64_of(ub))) != 0) << l;
		}
	}
	if (!(d->mod & FMinMax))
		u = ~t;
	sim_dst_pred(x, &d->dst[0], alu_bop(bop, t, pc), mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_bop(bop, u, pc), mask);
}

static int
dec_dsetp(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "MIN", "MAX", NULL };
	AluMods m;

	if (alu_mods(c, i, names, AmCmp | AmBop, &m) < 0 || alu_split(c, i, d, 0) < 0)
		return -1;
	if ((m.cmp < 0) == (m.bits == 0) || __builtin_popcount(m.bits) > 1 || d->nsrc != 3 ||
	    d->ndst < 1 || d->ndst > 2)
		return sim_unsupported(c, i);
	fix_fimm(i, d, 1);
	d->mod = m.bits ? FMinMax : 0;
	d->aux = m.bits ? (m.bits == 1) : (uint32_t)m.cmp;
	d->aux2 = (uint32_t)(m.bop < 0 ? BopAnd : m.bop);
	d->exec = exec_dsetp;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Registration.
 */
static const struct {
	uint16_t op;           /* opcode family */
	DecodeFn dec;          /* its decoder */
} float_rows[] = {
	{ OFADD, dec_farith },
	{ OFADD32I, dec_farith },
	{ OFMUL, dec_farith },
	{ OFMUL32I, dec_farith },
	{ OFFMA, dec_farith },
	{ OFFMA32I, dec_farith },
	{ OFMNMX, dec_fmnmx },
	{ OFSEL, dec_fmnmx },
	{ OFSET, dec_fsetp },
	{ OFSETP, dec_fsetp },
	{ OFCHK, dec_fchk },
	{ OFRND, dec_frnd },
	{ OMUFU, dec_mufu },
	{ ODADD, dec_darith },
	{ ODMUL, dec_darith },
	{ ODFMA, dec_darith },
	{ ODMNMX, dec_dmnmx },
	{ ODSETP, dec_dsetp },
};

void
sim_register_float(SimTab *t)
{
	for (unsigned k = 0; k < sizeof float_rows / sizeof float_rows[0]; k++)
		t->dec[float_rows[k].op] = float_rows[k].dec;
}
