/* exec_conv.c: conversions: I2F and I2FP (integer to F16/BF16/F32/F64 in the four rounding
 * modes), F2I (to 8..64-bit integers, saturating, NaN to 0), F2F (between F16, BF16, F32, F64
 * with one rounding), F2FP (two binary32 values packed into an F16/BF16 pair, the first source
 * in the high half; fp8 packing and unpacking), I2I and I2IP (saturating integer narrowing).
 * Every conversion rounds exactly once (fp_round in fp.c).
 */
#include <math.h>
#include <string.h>

#include "alu.h"

/* type modifiers */
enum Ty {
	TyS8, TyU8, TyS16, TyU16, TyS32, TyU32, TyS64, TyU64,
	TyF16, TyBF16, TyF32, TyF64, TyE4M3, TyE5M2, NTy
};

static const char *const tyname[NTy] = {
	"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64",
	"F16", "BF16", "F32", "F64", "E4M3", "E5M2",
};

static int
ty_isint(int t)
{
	return t <= TyU64;
}

static int
ty_bits(int t)
{
	static const uint8_t b[NTy] = { 8, 8, 16, 16, 32, 32, 64, 64, 16, 16, 32, 64, 8, 8 };

	return b[t];
}

static int
ty_signed(int t)
{
	return t == TyS8 || t == TyS16 || t == TyS32 || t == TyS64;
}

static int
ty_fmt(int t)
{
	switch (t) {
	case TyF16: return FpF16;
	case TyBF16: return FpBF16;
	case TyF64: return FpF64;
	case TyE4M3: return FpE4M3;
	case TyE5M2: return FpE5M2;
	default: return FpF32;
	}
}

/* the modifiers of a conversion: type names in order, the rest in names (bits) */
typedef struct ConvMods {
	int ty[3];             /* type modifiers in the order written */
	int nty;
	AluMods m;             /* the others */
} ConvMods;

static int
conv_mods(DecodeCtx *c, const Ins *i, const char *const *names, int flags, ConvMods *cm)
{
	Ins copy = *i;
	uint32_t mods[MaxMod];

	cm->nty = 0;
	copy.nmod = 0;
	copy.mod = mods;
	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		int t;
		for (t = 0; t < NTy; t++)
			if (strcmp(s, tyname[t]) == 0)
				break;
		if (t < NTy && cm->nty < 3)
			cm->ty[cm->nty++] = t;
		else
			copy.mod[copy.nmod++] = i->mod[k];
	}
	if (alu_mods(c, &copy, names, flags | AmQuiet, &cm->m) < 0)
		return sim_unsupported(c, i);
	return 0;
}

/* the value of a narrow source: .H1 / .B1.. selectors pick the bits */
static inline uint32_t
field(uint32_t v, unsigned sel, int bits)
{
	unsigned sh = sel == SelH1 || sel == SelH1H1 ? 16 : sel >= SelB0 && sel <= SelB3
	              ? 8 * (sel - SelB0) : 0;

	v >>= sh;
	return bits >= 32 ? v : v & ((1u << bits) - 1);
}

/* ---------------------------------------------------------------------------------------------
 * I2F[.dst][.src][.rm] Rd, a;  I2FP.F32.S32|U32[.rm] Rd, a
 */
ALU_BODY(exec_i2f)
{
	int dt = (int)(d->aux & 0xff), st = (int)(d->aux >> 8), rm = (int)d->aux2;
	int fmt = ty_fmt(dt), sb = ty_bits(st), sg = ty_signed(st);
	uint64_t v[WarpSize];

	if (sb == 32 && (fmt == FpF32 || fmt == FpF64) && (rm == RmRN || fmt == FpF64) &&
	    d->src[0].sel == SelNone) {             /* the host's conversions: exact-once */
		uint32_t t[WarpSize], r[WarpSize];
		const uint32_t *a = alu_src(x, &d->src[0], t);
		if (fmt == FpF32) {
			if (sg)
				for (unsigned l = 0; l < WarpSize; l++)
					r[l] = f32_bits((float)(int32_t)a[l]);
			else
				for (unsigned l = 0; l < WarpSize; l++)
					r[l] = f32_bits((float)a[l]);
			sim_dst(x, &d->dst[0], r, mask);
			return;
		}
		if (sg)
			for (unsigned l = 0; l < WarpSize; l++)
				v[l] = f64_bits((double)(int32_t)a[l]);
		else
			for (unsigned l = 0; l < WarpSize; l++)
				v[l] = f64_bits((double)a[l]);
		alu_dst64(x, &d->dst[0], v, mask);
		return;
	}
	if (sb == 64) {
		alu_src64(x, &d->src[0], v);
	} else {
		uint32_t t[WarpSize];
		const uint32_t *a = alu_src(x, &d->src[0], t);
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t f = field(a[l], d->src[0].sel, sb);
			if (sg && sb < 32 && (f >> (sb - 1)) & 1)
				f |= ~0u << sb;
			v[l] = sg ? (uint64_t)(int64_t)(int32_t)f : f;
		}
	}
	if (rm == RmRN && fmt == FpF32 && sb <= 32) {       /* the host's conversion is exact-once */
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = f32_bits(sg ? (float)(int64_t)v[l] : (float)(uint32_t)v[l]);
	} else if (fmt == FpF64 && sb <= 32) {             /* exact */
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = f64_bits(sg ? (double)(int64_t)v[l] : (double)(uint32_t)v[l]);
	} else {
		for (unsigned l = 0; l < WarpSize; l++) {
			int neg = sg && (int64_t)v[l] < 0;
			uint64_t mag = neg ? -v[l] : v[l];
			v[l] = fp_from_int(fmt, mag, neg, rm, 0);
		}
	}
	if (dt == TyF64) {
		alu_dst64(x, &d->dst[0], v, mask);
	} else {
		uint32_t r[WarpSize];
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = (uint32_t)v[l];
		sim_dst(x, &d->dst[0], r, mask);
	}
}
ALU_VARIANTS(exec_i2f)

static int
dec_i2f(DecodeCtx *c, const Ins *i, DIns *d)
{
	ConvMods cm;
	int dt = TyF32, st = TyS32;

	if (conv_mods(c, i, NULL, AmRnd, &cm) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	for (int k = 0; k < cm.nty; k++) {
		if (!ty_isint(cm.ty[k]) && k == 0 && cm.ty[k] <= TyF64)
			dt = cm.ty[k];
		else if (ty_isint(cm.ty[k]))
			st = cm.ty[k];
		else
			return sim_unsupported(c, i);
	}
	if (cm.nty > 2 || d->nsrc != 1 || d->dst[0].kind != DR || (d->src[0].flags & ~DFReuse))
		return sim_unsupported(c, i);
	d->aux = (uint32_t)dt | (uint32_t)st << 8;
	d->aux2 = (uint32_t)(cm.m.rm < 0 ? RmRN : cm.m.rm);
	d->exec = ALU_PICK(exec_i2f);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * F2I[.FTZ][.dst][.src][.TRUNC|.FLOOR|.CEIL][.NTZ] Rd, a: round to an integer (default to
 * nearest even), saturate to the destination's range, NaN gives 0
 */
static inline double
rnd_int(double v, int rm)
{
	switch (rm) {
	case RmRZ: return trunc(v);
	case RmRM: return floor(v);
	case RmRP: return ceil(v);
	default: return rint(v);
	}
}

/* saturating double (integral) -> integer of the type; NaN gives 0 */
static inline uint64_t
f2i_sat(double v, int t)
{
	static const double lim[NTy] = {
		[TyS8] = 0x1p7, [TyU8] = 0x1p8, [TyS16] = 0x1p15, [TyU16] = 0x1p16,
		[TyS32] = 0x1p31, [TyU32] = 0x1p32, [TyS64] = 0x1p63, [TyU64] = 0x1p64,
	};
	double hi = lim[t];

	if (v != v)
		return 0;
	if (ty_signed(t)) {
		if (v < -hi)
			return (uint64_t)(INT64_MIN >> (64 - ty_bits(t)));
		if (v >= hi)
			return (uint64_t)(INT64_MAX >> (64 - ty_bits(t)));
		return (uint64_t)(int64_t)v;
	}
	if (v <= 0)
		return 0;
	if (v >= hi)
		return ty_bits(t) == 64 ? UINT64_MAX : (1ull << ty_bits(t)) - 1;
	return (uint64_t)v;
}

static void
exec_f2i(Exec *x, const DIns *d, uint32_t mask)
{
	int dt = (int)(d->aux & 0xff), st = (int)(d->aux >> 8), rm = (int)(d->aux2 & 3);
	int ftz = (d->aux2 & 4) != 0;
	uint64_t v[WarpSize], r[WarpSize];
	double aa = (d->src[0].flags & DFAbs) ? 1 : 0, sgn = (d->src[0].flags & DFNeg) ? -1 : 1;

	if (st == TyF32 && (dt == TyS32 || dt == TyU32) && !(d->src[0].flags & (DFAbs | DFNeg))) {
		uint32_t t[WarpSize], o[WarpSize];
		const uint32_t *a = alu_src(x, &d->src[0], t);
		float lo = dt == TyS32 ? -0x1p31f : 0.0f, hi = dt == TyS32 ? 0x1p31f : 0x1p32f;
		uint32_t vlo = dt == TyS32 ? 0x80000000u : 0, vhi = dt == TyS32 ? 0x7fffffffu : ~0u;
		for (unsigned l = 0; l < WarpSize; l++) {
			float f = f32_of(ftz ? f32_ftz(a[l]) : a[l]);
			if (rm != RmRZ)
				f = (float)rnd_int(f, rm);   /* integral binary32 values are exact */
			uint32_t iv = dt == TyS32 ? (uint32_t)(int32_t)(f >= lo && f < hi ? f : 0)
			                          : (uint32_t)(f >= lo && f < hi ? f : 0);
			iv = f < lo ? vlo : iv;
			iv = f >= hi ? vhi : iv;
			o[l] = f != f ? 0 : iv;
		}
		sim_dst(x, &d->dst[0], o, mask);
		return;
	}
	if (st == TyF64) {
		alu_src64(x, &d->src[0], v);
	} else {
		uint32_t t[WarpSize];
		const uint32_t *a = alu_src(x, &d->src[0], t);
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = a[l];
	}
	for (unsigned l = 0; l < WarpSize; l++) {
		double f;
		if (st == TyF64) {
			f = f64_of(ftz ? f64_ftz(v[l]) : v[l]);
		} else if (st == TyF32) {
			uint32_t u = (uint32_t)v[l];
			f = f32_of(ftz ? f32_ftz(u) : u);
		} else {
			uint32_t h = field((uint32_t)v[l], d->src[0].sel, 16);
			f = st == TyBF16 ? bf16_to_f32(h) : f16_to_f32(h);
		}
		if (aa != 0)
			f = fabs(f);
		f *= sgn;
		r[l] = f2i_sat(rm == RmRZ ? f : rnd_int(f, rm), dt);   /* the cast truncates */
		if (ty_bits(dt) < 32)                 /* narrow results are extended to 32 bits */
			r[l] = ty_signed(dt) ? (uint64_t)(int64_t)(int32_t)(uint32_t)r[l]
			                     : r[l] & ((1ull << ty_bits(dt)) - 1);
	}
	if (ty_bits(dt) == 64) {
		alu_dst64(x, &d->dst[0], r, mask);
	} else {
		uint32_t o[WarpSize];
		for (unsigned l = 0; l < WarpSize; l++)
			o[l] = (uint32_t)r[l];
		sim_dst(x, &d->dst[0], o, mask);
	}
}

static int
dec_f2i(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "NTZ", NULL };
	ConvMods cm;
	int dt = TyS32, st = TyF32, ni = 0, nf = 0;

	if (conv_mods(c, i, names, AmRound | AmRnd, &cm) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	for (int k = 0; k < cm.nty; k++) {
		if (ty_isint(cm.ty[k]) && !ni++)
			dt = cm.ty[k];
		else if ((cm.ty[k] == TyF16 || cm.ty[k] == TyBF16 || cm.ty[k] == TyF32 ||
		          cm.ty[k] == TyF64) && !nf++)
			st = cm.ty[k];
		else
			return sim_unsupported(c, i);
	}
	if (d->nsrc != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	d->aux = (uint32_t)dt | (uint32_t)st << 8;
	d->aux2 = (uint32_t)(cm.m.rm < 0 ? RmRN : cm.m.rm) | ((cm.m.bits & 1) ? 4u : 0);
	d->exec = exec_f2i;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * F2F.dst.src[.rm][.FTZ][.SAT] Rd, a
 */
enum { CvFtz = 1 << 0, CvSat = 1 << 1, CvRelu = 1 << 2, CvSatFin = 1 << 3 };

/* exact value of a source element of type t */
static inline double
src_val(uint64_t v, int t, int ftz)
{
	switch (t) {
	case TyF64: return f64_of(ftz ? f64_ftz(v) : v);
	case TyF32: return f32_of(ftz ? f32_ftz((uint32_t)v) : (uint32_t)v);
	case TyF16: return fp_to_f64(FpF16, ftz && !((v >> 10) & 0x1f) ? v & 0x8000 : v & 0xffff);
	default: return fp_to_f64(FpBF16, ftz && !((v >> 7) & 0xff) ? v & 0x8000 : v & 0xffff);
	}
}

/* one value to the format of type t, with .SAT and .RELU; NaN: the format's canonical NaN */
static inline uint64_t
to_fmt(double f, int t, int rm, uint32_t md)
{
	int fmt = ty_fmt(t);

	if (f != f)
		return (md & CvSat) ? 0 : fp_nan(fmt);
	if (md & CvSat)
		f = f < 0 ? 0 : f > 1 ? 1 : f;
	if ((md & CvRelu) && f < 0)
		f = 0;
	return fp_from_f64(fmt, f, rm, ((md & CvFtz) ? FpFtz : 0) | ((md & CvSatFin) ? FpSatFinite : 0));
}

static void
exec_f2f(Exec *x, const DIns *d, uint32_t mask)
{
	int dt = (int)(d->aux & 0xff), st = (int)(d->aux >> 8), rm = (int)(d->aux2 & 3);
	uint32_t md = d->mod;
	uint64_t v[WarpSize];

	if (st == TyF64) {
		alu_src64(x, &d->src[0], v);
	} else {
		uint32_t t[WarpSize];
		const uint32_t *a = alu_src(x, &d->src[0], t);
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = st == TyF32 ? a[l] : field(a[l], d->src[0].sel, 16);
	}
	for (unsigned l = 0; l < WarpSize; l++) {
		double f = src_val(v[l], st, (md & CvFtz) != 0);
		if (d->src[0].flags & DFAbs)
			f = fabs(f);
		if (d->src[0].flags & DFNeg)
			f = -f;
		v[l] = to_fmt(f, dt, rm, md);
	}
	if (dt == TyF64) {
		alu_dst64(x, &d->dst[0], v, mask);
	} else {
		uint32_t r[WarpSize];
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = (uint32_t)v[l];
		sim_dst(x, &d->dst[0], r, mask);
	}
}

static int
dec_f2f(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "FTZ", "SAT", "RELU", NULL };
	ConvMods cm;

	if (conv_mods(c, i, names, AmRnd, &cm) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (cm.nty != 2 || d->nsrc != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	for (int k = 0; k < 2; k++)
		if (cm.ty[k] < TyF16 || cm.ty[k] > TyF64)
			return sim_unsupported(c, i);
	d->mod = cm.m.bits;
	d->aux = (uint32_t)cm.ty[0] | (uint32_t)cm.ty[1] << 8;
	d->aux2 = (uint32_t)(cm.m.rm < 0 ? RmRN : cm.m.rm);
	d->exec = exec_f2f;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * F2FP[.BF16|.F16][.F32][.RELU][.SATFINITE].PACK_AB Rd, a, b: Rd = {cvt(a), cvt(b)}, a high
 * F2FP.SATFINITE.E4M3|E5M2.F32.PACK_AB_MERGE_C Rd, a, b, c: low 16 bits {cvt(a), cvt(b)} as
 *   fp8 (a in bits 8..15), high 16 bits from c
 * F2FP.F16.E4M3|E5M2.UNPACK_B Rd, a[.H1]: the two fp8 of a's low (high) half to two F16
 */
enum { FpPack, FpMerge, FpUnpack };

ALU_BODY(exec_f2fp)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta);
	int dt = (int)(d->aux & 0xff), form = (int)(d->aux >> 8), rm = (int)d->aux2;
	uint32_t md = d->mod, w = (uint32_t)ty_bits(dt), m = (1u << w) - 1;

	if (form == FpUnpack) {                  /* dt is the fp8 source type */
		int fmt = ty_fmt(dt);
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t h = field(a[l], d->src[0].sel, 16), out = 0;
			for (unsigned k = 0; k < 2; k++) {
				double f = fp_to_f64(fmt, (h >> (8 * k)) & 0xff);
				out |= (uint32_t)(f != f ? F16_CNAN : fp_from_f64(FpF16, f, RmRN, 0)) << (16 * k);
			}
			r[l] = out;
		}
		sim_dst(x, &d->dst[0], r, mask);
		return;
	}
	const uint32_t *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = form == FpMerge ? alu_src(x, &d->src[2], tc) : NULL;
	uint32_t aa, ax, ba, bx;
	alu_fsign(&d->src[0], &aa, &ax);
	alu_fsign(&d->src[1], &ba, &bx);
	if (form == FpPack && md == 0 && rm == RmRN && (dt == TyF16 || dt == TyBF16)) {
		if (dt == TyF16) {
			for (unsigned l = 0; l < WarpSize; l++)
				r[l] = f32_to_f16_bf(f32_of((a[l] & aa) ^ ax)) << 16 |
				       f32_to_f16_bf(f32_of((b[l] & ba) ^ bx));
		} else {
			for (unsigned l = 0; l < WarpSize; l++)
				r[l] = f32_to_bf16_bf(f32_of((a[l] & aa) ^ ax)) << 16 |
				       f32_to_bf16_bf(f32_of((b[l] & ba) ^ bx));
		}
		sim_dst(x, &d->dst[0], r, mask);
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++) {
		double fa = f32_of((a[l] & aa) ^ ax), fb = f32_of((b[l] & ba) ^ bx);
		uint32_t hi = (uint32_t)to_fmt(fa, dt, rm, md) & m, lo = (uint32_t)to_fmt(fb, dt, rm, md) & m;
		r[l] = hi << w | lo;
		if (form == FpMerge)
			r[l] |= c[l] & 0xffff0000u;
	}
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_f2fp)

static int
dec_f2fp(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "PACK_AB", "PACK_AB_MERGE_C", "UNPACK_B", "RELU",
	                                     "SATFINITE", "FTZ", NULL };
	ConvMods cm;
	int dt = TyF16, form, nin, fp8 = 0, f16 = 0;

	if (conv_mods(c, i, names, AmRnd, &cm) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (__builtin_popcount(cm.m.bits & 7) != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	form = cm.m.bits & 1 ? FpPack : cm.m.bits & 2 ? FpMerge : FpUnpack;
	for (int k = 0; k < cm.nty; k++) {
		if (cm.ty[k] == TyE4M3 || cm.ty[k] == TyE5M2) {
			dt = cm.ty[k];
			fp8++;
		} else if (cm.ty[k] == TyBF16 && form != FpUnpack) {
			dt = cm.ty[k];
		} else if (cm.ty[k] == TyF16) {
			f16++;
		} else if (cm.ty[k] != TyF32 || form == FpUnpack) {
			return sim_unsupported(c, i);
		}
	}
	/* UNPACK_B: F16 from fp8; PACK_AB_MERGE_C: to fp8; PACK_AB: to F16, BF16 or fp8 */
	if (fp8 > 1 || (form == FpUnpack && (!fp8 || f16 != 1)) || (form == FpMerge && !fp8) ||
	    (fp8 && f16 && form != FpUnpack))
		return sim_unsupported(c, i);
	nin = form == FpPack ? 2 : form == FpMerge ? 3 : 1;
	if (d->nsrc != nin)
		return sim_unsupported(c, i);
	for (int k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DImm && (d->src[k].flags & DFFimm))
			d->src[k].imm = alu_fimm32(i, d->ndst + k);
	d->mod = ((cm.m.bits & 8) ? CvRelu : 0) | ((cm.m.bits & 16) ? CvSatFin : 0) |
	         ((cm.m.bits & 32) ? CvFtz : 0);
	d->aux = (uint32_t)dt | (uint32_t)form << 8;
	d->aux2 = (uint32_t)(cm.m.rm < 0 ? RmRN : cm.m.rm);
	d->exec = ALU_PICK(exec_f2fp);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * I2I.dst.src[.SAT] Rd, a: narrow (saturating with .SAT, else wrapping), then extend to 32
 * bits by the destination's signedness.
 * I2IP.dst.S32.SAT Rd, a, b, c: both saturated; 8-bit: {c[15:0], a, b}; 16-bit: {a, b}
 */
static inline uint32_t
narrow(int64_t v, int t, int sat)
{
	int bits = ty_bits(t);
	int64_t lo = ty_signed(t) ? -(1ll << (bits - 1)) : 0;
	int64_t hi = ty_signed(t) ? (1ll << (bits - 1)) - 1 : (int64_t)((1ull << bits) - 1);

	if (sat)
		v = v < lo ? lo : v > hi ? hi : v;
	if (bits >= 32)
		return (uint32_t)v;
	v &= (1ll << bits) - 1;
	if (ty_signed(t) && (v >> (bits - 1)) & 1)
		v -= 1ll << bits;
	return (uint32_t)v;
}

static void
exec_i2i(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	int dt = (int)(d->aux & 0xff), st = (int)(d->aux >> 8), sat = (int)d->aux2;
	const uint32_t *a = alu_src(x, &d->src[0], ta);
	int sb = ty_bits(st);

	if (d->nsrc == 1) {
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t f = field(a[l], d->src[0].sel, sb);
			int64_t v = ty_signed(st) ? (sb < 32 && (f >> (sb - 1)) & 1 ? (int64_t)f - (1ll << sb)
			                                                            : (int64_t)(int32_t)f)
			                          : (int64_t)f;
			r[l] = narrow(v, dt, sat);
		}
		sim_dst(x, &d->dst[0], r, mask);
		return;
	}
	const uint32_t *b = alu_src(x, &d->src[1], tb), *c = alu_src(x, &d->src[2], tc);
	uint32_t w = (uint32_t)ty_bits(dt), m = (1u << w) - 1;
	for (unsigned l = 0; l < WarpSize; l++) {
		int64_t va = ty_signed(st) ? (int32_t)a[l] : (int64_t)a[l];
		int64_t vb = ty_signed(st) ? (int32_t)b[l] : (int64_t)b[l];
		uint32_t pa = narrow(va, dt, 1) & m, pb = narrow(vb, dt, 1) & m;
		r[l] = (pa << w) | pb;
		if (w == 8)
			r[l] |= c[l] << 16;
	}
	sim_dst(x, &d->dst[0], r, mask);
}

static int
dec_i2i(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "SAT", NULL };
	ConvMods cm;
	int ip = i->op == OI2IP;

	if (conv_mods(c, i, names, 0, &cm) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (cm.nty < 1 || cm.nty > 2 || d->dst[0].kind != DR || d->nsrc != (ip ? 3 : 1))
		return sim_unsupported(c, i);
	for (int k = 0; k < cm.nty; k++)
		if (!ty_isint(cm.ty[k]) || ty_bits(cm.ty[k]) > 32)
			return sim_unsupported(c, i);
	if (ip && (!(cm.m.bits & 1) || ty_bits(cm.ty[0]) > 16))
		return sim_unsupported(c, i);
	d->aux = (uint32_t)cm.ty[0] | (uint32_t)(cm.nty == 2 ? cm.ty[1] : TyS32) << 8;
	d->aux2 = cm.m.bits & 1;
	d->exec = exec_i2i;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Registration.
 */
static const struct {
	uint16_t op;           /* opcode family */
	DecodeFn dec;          /* its decoder */
} conv_rows[] = {
	{ OI2F, dec_i2f },
	{ OI2FP, dec_i2f },
	{ OF2I, dec_f2i },
	{ OF2F, dec_f2f },
	{ OF2FP, dec_f2fp },
	{ OI2I, dec_i2i },
	{ OI2IP, dec_i2i },
};

void
sim_register_conv(SimTab *t)
{
	for (unsigned k = 0; k < sizeof conv_rows / sizeof conv_rows[0]; k++)
		t->dec[conv_rows[k].op] = conv_rows[k].dec;
}
