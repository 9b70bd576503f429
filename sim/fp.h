/* fp.h: exact IEEE-754 helpers for the simulator's arithmetic (exec_float.c, exec_half.c,
 * exec_conv.c): bit casts, flush-to-zero, one correctly rounded conversion from an exact value
 * to binary64/32/16, bfloat16, tf32 and the two fp8 formats in every rounding mode, and
 * directed-rounding arithmetic. What is exact and what is not: docs/sim-numerics.md.
 * Built on libm only; assumes the host is IEEE-754 binary32/binary64 with SSE-style arithmetic
 * (FLT_EVAL_METHOD 0) in round-to-nearest outside fp_setround().
 */
#ifndef FIBER_FP_H
#define FIBER_FP_H

#include <stdint.h>
#include <string.h>

/* rounding modes, in the order of the SASS modifiers .RN .RZ .RM .RP */
enum FpRm {
	RmRN,                  /* to nearest, ties to even (the default) */
	RmRZ,                  /* toward zero */
	RmRM,                  /* toward minus infinity */
	RmRP,                  /* toward plus infinity */
};

/* formats fp_round can produce */
enum FpFmt {
	FpF16,                 /* binary16: 1-5-10 */
	FpBF16,                /* bfloat16: 1-8-7 */
	FpTF32,                /* tf32: 1-8-10, kept in the top 19 bits of a binary32 */
	FpF32,                 /* binary32: 1-8-23 */
	FpF64,                 /* binary64: 1-11-52 */
	FpE4M3,                /* fp8 e4m3 (OCP): no infinity, 0x7f/0xff NaN, max 448 */
	FpE5M2,                /* fp8 e5m2 (OCP): IEEE-like, max 57344 */
	NFpFmt
};

/* fp_round flags */
enum FpFlag {
	FpFtz = 1 << 0,        /* a subnormal result becomes a zero of the same sign */
	FpSatFinite = 1 << 1,  /* overflow and infinity give the largest finite value (.SATFINITE) */
};

/* canonical NaNs that NVIDIA hardware produces (docs/sim-numerics.md) */
#define F32_CNAN 0x7fffffffu
#define F16_CNAN 0x7fffu
#define BF16_CNAN 0x7fffu
#define F64_CNAN 0x7fffffffffffffffull

static inline float
f32_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint32_t
f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static inline double
f64_of(uint64_t u)
{
	double f;

	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint64_t
f64_bits(double f)
{
	uint64_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static inline int
f32_isnan(uint32_t u)
{
	return (u & 0x7fffffffu) > 0x7f800000u;
}

static inline int
f64_isnan(uint64_t u)
{
	return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

/* a subnormal becomes the zero of its sign */
static inline uint32_t
f32_ftz(uint32_t u)
{
	return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

static inline uint64_t
f64_ftz(uint64_t u)
{
	return (u & 0x7ff0000000000000ull) ? u : u & 0x8000000000000000ull;
}

static inline int
f16_isnan(uint32_t h)
{
	return (h & 0x7fffu) > 0x7c00u;
}

static inline int
bf16_isnan(uint32_t h)
{
	return (h & 0x7fffu) > 0x7f80u;
}

/* binary32 -> binary16, round to nearest even, on bits (NaN: the canonical NaN) */
static inline uint32_t
f32_to_f16_rn(uint32_t f)
{
	uint32_t s = (f >> 16) & 0x8000u, a = f & 0x7fffffffu, e, m, sh, r, rem, half;

	if (a >= 0x7f800000u)
		return a > 0x7f800000u ? F16_CNAN : s | 0x7c00u;
	if (a >= 0x477ff000u)                    /* >= 65520: rounds to infinity */
		return s | 0x7c00u;
	if (a >= 0x38800000u) {                  /* normal: rebias, round at bit 13 */
		m = a - 0x38000000u;
		return s | ((m + 0xfffu + ((m >> 13) & 1)) >> 13);
	}
	if (a <= 0x33000000u)                    /* <= 2^-25: zero (2^-25 ties to even) */
		return s;
	e = a >> 23;                             /* subnormal: units of 2^-24 */
	m = (a & 0x7fffffu) | 0x800000u;
	sh = 126 - e;
	r = m >> sh;
	rem = m & ((1u << sh) - 1);
	half = 1u << (sh - 1);
	return s | (r + (rem > half || (rem == half && (r & 1))));
}

/* binary32 -> bfloat16, round to nearest even (NaN: the canonical NaN) */
static inline uint32_t
f32_to_bf16_rn(uint32_t f)
{
	if ((f & 0x7fffffffu) > 0x7f800000u)
		return BF16_CNAN;
	return (f + 0x7fffu + ((f >> 16) & 1)) >> 16;
}

/* binary16 -> binary32, exact */
static inline uint32_t
f16_bits_to_f32(uint32_t h)
{
	uint32_t s = (h & 0x8000u) << 16, a = h & 0x7fffu;

	if (a >= 0x7c00u)
		return s | 0x7f800000u | ((a & 0x3ffu) << 13);
	if (a >= 0x400u)
		return s | ((a << 13) + 0x38000000u);
	if (a == 0)
		return s;
	/* subnormal: a * 2^-24, normalise */
	{
		int sh = __builtin_clz(a) - 21;      /* bring the leading one to bit 10 */
		return s | ((uint32_t)(113 - sh) << 23) | (((a << sh) & 0x3ffu) << 13);
	}
}

/* The same conversions without branches (the lane loops vectorize): subnormals go through
 * the host's binary32 addition in round-to-nearest (F. Giesen's "magic number" method). */
static inline float
f16_to_f32_bf(uint32_t h)
{
	uint32_t o = (h & 0x7fffu) << 13, e = o & 0x0f800000u, n, s, mi, ms;

	o += (127u - 15u) << 23;
	n = o + ((128u - 16u) << 23);            /* infinity, NaN */
	s = f32_bits(f32_of(o + (1u << 23)) - f32_of(113u << 23));   /* subnormal: renormalise */
	mi = -(uint32_t)(e == 0x0f800000u);
	ms = -(uint32_t)(e == 0);
	o = (n & mi) | (o & ~mi);
	o = (s & ms) | (o & ~ms);
	return f32_of(o | (h & 0x8000u) << 16);
}

static inline uint32_t
f32_to_f16_bf(float fl)
{
	uint32_t f = f32_bits(fl), sign = (f >> 16) & 0x8000u, a = f & 0x7fffffffu;
	uint32_t nan = -(uint32_t)(a > 0x7f800000u), big = -(uint32_t)(a >= ((127u + 16u) << 23));
	uint32_t small = -(uint32_t)(a < (113u << 23));
	uint32_t dmagic = ((127u - 15u) + (23u - 10u) + 1u) << 23;
	uint32_t sub = f32_bits(f32_of(a) + f32_of(dmagic)) - dmagic;
	uint32_t nrm = (a + ((15u - 127u) << 23) + 0xfffu + ((a >> 13) & 1)) >> 13;
	uint32_t inf = (F16_CNAN & nan) | (0x7c00u & ~nan);   /* NaN, or infinity/overflow */
	uint32_t o = (sub & small) | (nrm & ~small);

	o = (inf & big) | (o & ~big);
	return o | (sign & ~nan);
}

static inline uint32_t
f32_to_bf16_bf(float fl)
{
	uint32_t f = f32_bits(fl), r = (f + 0x7fffu + ((f >> 16) & 1)) >> 16;

	return (f & 0x7fffffffu) > 0x7f800000u ? BF16_CNAN : r;
}

/* a double to binary32 rounded to odd (truncate, then set the last bit when inexact): a later
 * rounding to a format of at most 22 bits is then exact-once */
static inline float
f64_to_f32_odd(double d)
{
	float f = (float)d;
	uint32_t b = f32_bits(f), inexact = (uint32_t)((double)f != d);
	uint32_t away = (uint32_t)((double)f > d) ^ (uint32_t)(d <= 0); /* away from zero: back */

	b -= inexact & away;
	return f32_of(b | inexact);
}

/* one binary32 step toward +infinity (up) or -infinity */
static inline uint32_t
f32_step(uint32_t u, int up)
{
	if ((u & 0x7fffffffu) == 0)
		return up ? 1u : 0x80000001u;
	return (!(u >> 31) == !!up) ? u + 1 : u - 1;
}

/* The exact value s + e (s its binary64 rounding to nearest, |e| <= half an ulp of s) rounded
 * to binary32 in a directed mode, without changing the host's mode: round to nearest, then
 * step once if that went the wrong way. An exact zero keeps s's sign (the caller fixes .RM). */
static inline uint32_t
f32_round_dd(double s, double e, int rm)
{
	float f = (float)s;
	uint32_t u = f32_bits(f);
	double diff = (s - (double)f) + e;       /* the sign of exact - f (s - f is exact) */

	if (rm == RmRM && diff < 0)
		u = f32_step(u, 0);
	else if (rm == RmRP && diff > 0)
		u = f32_step(u, 1);
	else if (rm == RmRZ && (u & 0x7fffffffu) && (diff < 0) != !!(u >> 31) && diff != 0)
		u = f32_step(u, (int)(u >> 31));
	return u;
}

/* fp.c */
uint64_t fp_round(int fmt, int neg, uint64_t mant, int exp, int sticky, int rm, int flags);
uint64_t fp_from_f64(int fmt, double v, int rm, int flags);
uint64_t fp_from_int(int fmt, uint64_t mag, int neg, int rm, int flags);
double fp_to_f64(int fmt, uint64_t bits);
uint64_t fp_nan(int fmt);                    /* the canonical NaN of a format */
float f16_to_f32(uint32_t h);                /* exact */
float bf16_to_f32(uint32_t h);               /* exact */
uint32_t f32_to_f16(float f, int rm);        /* one rounding; NaN: 0x7fff */
uint32_t f32_to_bf16(float f, int rm);       /* one rounding; NaN: 0x7fff */

/* Directed rounding of FP64: arithmetic between fp_setround(rm) and fp_setround(RmRN) rounds
 * in rm. The helpers live in fp.c so that no caller can fold or move them across the mode
 * change. (FP32 rounds in software: f32_round_dd.) */
void fp_setround(int rm);
double fp_add64(double a, double b);
double fp_mul64(double a, double b);
double fp_fma64(double a, double b, double c);

/* double-precision evaluations of the functions MUFU approximates, rounded once to binary32 */
uint32_t fp_mufu(int fn, uint32_t x);
void fp_mufu_v(int fn, const uint32_t *in, uint32_t *out, unsigned n);
uint32_t fp_mufu64h(int fn, uint32_t hi);   /* RCP64H, RSQ64H: high word in, high word out */

/* MUFU functions */
enum MufuFn {
	MufuCos, MufuSin, MufuEx2, MufuLg2, MufuRcp, MufuRsq, MufuRcp64h, MufuRsq64h, MufuSqrt,
	MufuTanh, NMufu
};

#endif /* FIBER_FP_H */
