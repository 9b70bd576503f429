/* fp.c: correctly rounded conversions and directed-rounding arithmetic for the simulator.
 *
 * fp_round is the one rounding routine: it takes an exact value, sign * (mant + sticky) * 2^exp
 * where sticky says that nonzero bits lie below mant's last bit, and produces the bits of the
 * nearest (or directed) value of a format, with the format's overflow, subnormal and flush
 * rules. Every conversion (f64 to f16, s64 to f32, ...) goes through it, so each rounds once.
 * The arithmetic helpers are out of line on purpose: their callers change the rounding mode.
 */
#include <fenv.h>
#include <math.h>

#include "fp.h"

static const double TwoPi = 6.28318530717958647692528676655900577;

/* a format: exponent and fraction widths, and how it treats infinity */
typedef struct FmtInfo {
	int ebits;             /* exponent field */
	int mbits;             /* fraction field */
	int noinf;             /* e4m3: the all-ones exponent holds numbers, overflow is NaN */
	uint64_t maxenc;       /* encoding of the largest finite magnitude */
	uint64_t nan;          /* canonical NaN */
} FmtInfo;

static const FmtInfo fmtinfo[NFpFmt] = {
	[FpF16] = { 5, 10, 0, 0x7bff, F16_CNAN },
	[FpBF16] = { 8, 7, 0, 0x7f7f, BF16_CNAN },
	[FpTF32] = { 8, 10, 0, 0x3fbff, 0x3ffff },
	[FpF32] = { 8, 23, 0, 0x7f7fffff, F32_CNAN },
	[FpF64] = { 11, 52, 0, 0x7fefffffffffffffull, F64_CNAN },
	[FpE4M3] = { 4, 3, 1, 0x7e, 0x7f },
	[FpE5M2] = { 5, 2, 0, 0x7b, 0x7f },
};

uint64_t
fp_nan(int fmt)
{
	return fmtinfo[fmt].nan;
}

static int
msb64(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/* Round sign * (mant + sticky) * 2^exp to fmt. sticky: the exact value is strictly above
 * mant * 2^exp in magnitude, by less than half a unit of mant's last bit (a caller with more
 * bits keeps one guard bit in mant). */
uint64_t
fp_round(int fmt, int neg, uint64_t mant, int exp, int sticky, int rm, int flags)
{
	const FmtInfo *f = &fmtinfo[fmt];
	int bias = (1 << (f->ebits - 1)) - 1, emin = 1 - bias, p = f->mbits + 1;
	uint64_t sign = (uint64_t)(neg != 0) << (f->ebits + f->mbits), m, rem = 0, half = 0;
	int e, q, shift, up = 0, inexact;

	if (mant == 0) {
		/* a sticky part alone is below every quantum: only a directed mode away from zero
		 * lifts it to the smallest subnormal */
		if (sticky && !(flags & FpFtz) && ((rm == RmRM && neg) || (rm == RmRP && !neg)))
			return sign | 1;
		return sign;
	}
	e = msb64(mant) + exp;                   /* value in [2^e, 2^(e+1)) */
	q = (e < emin ? emin : e) - f->mbits;    /* quantum of the result */
	shift = q - exp;
	if (shift <= 0) {
		m = mant << -shift;
		inexact = sticky;
	} else if (shift < 64) {
		m = mant >> shift;
		rem = mant & ((1ull << shift) - 1);
		half = 1ull << (shift - 1);
		inexact = rem != 0 || sticky;
	} else {
		m = 0;
		rem = mant;
		half = shift == 64 ? 1ull << 63 : 0; /* 0: rem is below half a quantum */
		inexact = 1;
	}
	switch (rm) {
	case RmRN:
		if (shift > 0 && half != 0)
			up = rem > half || (rem == half && (sticky || (m & 1)));
		else if (shift == 64)
			up = rem > half || (rem == half && sticky);
		break;
	case RmRZ:
		break;
	case RmRM:
		up = inexact && neg;
		break;
	case RmRP:
		up = inexact && !neg;
		break;
	}
	m += (uint64_t)up;
	if (m >> p) {                            /* carried into the next binade */
		m >>= 1;
		q++;
	}
	uint64_t enc;
	if (m >> f->mbits) {                     /* normal */
		int be = q + f->mbits + bias;
		if (be >= (1 << f->ebits))
			enc = UINT64_MAX;
		else
			enc = ((uint64_t)be << f->mbits) | (m & ((1ull << f->mbits) - 1));
	} else {                                 /* subnormal or zero */
		enc = m;
		if ((flags & FpFtz) && m)
			enc = 0;
	}
	if (enc > f->maxenc) {                   /* overflow */
		int tomax = (flags & FpSatFinite) || rm == RmRZ || (rm == RmRM && !neg) ||
		            (rm == RmRP && neg);
		if (tomax)
			return sign | f->maxenc;
		if (f->noinf)
			return sign | f->nan;
		return sign | ((uint64_t)((1 << f->ebits) - 1) << f->mbits);
	}
	return sign | enc;
}

uint64_t
fp_from_f64(int fmt, double v, int rm, int flags)
{
	const FmtInfo *f = &fmtinfo[fmt];
	uint64_t u = f64_bits(v), frac = u & 0xfffffffffffffull;
	int neg = (int)(u >> 63), be = (int)((u >> 52) & 0x7ff);
	uint64_t sign = (uint64_t)neg << (f->ebits + f->mbits);

	if (be == 0x7ff) {
		if (frac)
			return f->nan;
		if (flags & FpSatFinite)
			return sign | f->maxenc;
		if (f->noinf)
			return sign | f->nan;
		return sign | ((uint64_t)((1 << f->ebits) - 1) << f->mbits);
	}
	if (be == 0)
		return fp_round(fmt, neg, frac, -1074, 0, rm, flags);
	return fp_round(fmt, neg, frac | (1ull << 52), be - 1075, 0, rm, flags);
}

uint64_t
fp_from_int(int fmt, uint64_t mag, int neg, int rm, int flags)
{
	return fp_round(fmt, neg, mag, 0, 0, rm, flags);
}

/* exact value of an encoding (every format here fits in a double) */
double
fp_to_f64(int fmt, uint64_t bits)
{
	const FmtInfo *f = &fmtinfo[fmt];
	int bias = (1 << (f->ebits - 1)) - 1;
	uint64_t frac = bits & ((1ull << f->mbits) - 1);
	int be = (int)((bits >> f->mbits) & ((1u << f->ebits) - 1));
	int neg = (int)((bits >> (f->ebits + f->mbits)) & 1);
	double v;

	if (fmt == FpF64)
		return f64_of(bits);
	if (be == (1 << f->ebits) - 1 && !f->noinf)
		v = frac ? NAN : INFINITY;
	else if (f->noinf && be == (1 << f->ebits) - 1 && frac == ((1ull << f->mbits) - 1))
		v = NAN;
	else if (be == 0)
		v = ldexp((double)frac, 1 - bias - f->mbits);
	else
		v = ldexp((double)(frac | (1ull << f->mbits)), be - bias - f->mbits);
	return neg ? -v : v;
}

float
f16_to_f32(uint32_t h)
{
	uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return f32_of(s | 0x7f800000u | (m << 13));
	if (e == 0) {
		if (m == 0)
			return f32_of(s);
		/* subnormal: m * 2^-24, exact in binary32 */
		float v = (float)m * 0x1p-24f;
		return f32_of(s | f32_bits(v));
	}
	return f32_of(s | ((e + 112) << 23) | (m << 13));
}

float
bf16_to_f32(uint32_t h)
{
	return f32_of((h & 0xffffu) << 16);
}

uint32_t
f32_to_f16(float f, int rm)
{
	return (uint32_t)fp_from_f64(FpF16, (double)f, rm, 0);
}

uint32_t
f32_to_bf16(float f, int rm)
{
	return (uint32_t)fp_from_f64(FpBF16, (double)f, rm, 0);
}

void
fp_setround(int rm)
{
	static const int mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

	fesetround(mode[rm & 3]);
}




double
fp_add64(double a, double b)
{
	return a + b;
}

double
fp_mul64(double a, double b)
{
	return a * b;
}

double
fp_fma64(double a, double b, double c)
{
	return fma(a, b, c);
}


/* sin(2 pi x), cos(2 pi x): MUFU.SIN/COS take revolutions (nvcc multiplies by 1/(2 pi) first).
 * The reduction is exact (x - rint(x), then a quarter-turn symmetry), so multiples of a quarter
 * turn give exact zeros and ones; the double evaluation error is far below binary32's ulp. */
static double
sin_rev(double r)                           /* r in [-0.5, 0.5] */
{
	double a = fabs(r);

	if (a > 0.25)
		a = 0.5 - a;                         /* sin(pi - t) = sin(t); exact (Sterbenz) */
	a = a == 0 ? 0.0 : sin(TwoPi * a);
	return r < 0 || (r == 0 && signbit(r)) ? -a : a;
}

static double
sincos_rev(double x, int cosine)
{
	double r = x - rint(x);                  /* [-0.5, 0.5], exact */

	if (cosine)
		return sin_rev(0.25 - fabs(r));      /* cos(2 pi r) = sin(2 pi (1/4 - |r|)) */
	if (r == 0)
		return x * 0.0;                      /* sin(2 pi n) is +-0 with x's sign */
	return sin_rev(r);
}

/* one MUFU function on a flushed binary32 input, in binary64 */
static inline double
mufu_eval(int fn, double x)
{
	switch (fn) {
	case MufuCos: return isinf(x) ? NAN : sincos_rev(x, 1);
	case MufuSin: return isinf(x) ? NAN : sincos_rev(x, 0);
	case MufuEx2: return exp2(x);
	case MufuLg2: return x < 0 ? NAN : x == 0 ? -INFINITY : log2(x);
	case MufuRcp: return 1.0 / x;
	case MufuRsq: return x == 0 ? 1.0 / x : x < 0 ? NAN : 1.0 / sqrt(x);
	case MufuSqrt: return x < 0 ? NAN : sqrt(x);
	case MufuTanh: return tanh(x);
	default: return NAN;
	}
}

/* MUFU on binary32: inputs and outputs flushed to zero, results correctly rounded from a
 * double-precision evaluation (the hardware is approximate: docs/sim-numerics.md) */
uint32_t
fp_mufu(int fn, uint32_t xb)
{
	double r;

	if (f32_isnan(xb))
		return F32_CNAN;
	r = mufu_eval(fn, (double)f32_of(f32_ftz(xb)));
	if (r != r)
		return F32_CNAN;
	return f32_ftz(f32_bits((float)r));      /* the host's conversion rounds to nearest */
}

/* the same over n values */
void
fp_mufu_v(int fn, const uint32_t *in, uint32_t *out, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		uint32_t xb = in[k];
		double r = f32_isnan(xb) ? NAN : mufu_eval(fn, (double)f32_of(f32_ftz(xb)));
		out[k] = r != r ? F32_CNAN : f32_ftz(f32_bits((float)r));
	}
}

/* MUFU.RCP64H / RSQ64H: the seed of FP64 division and square root. The source is the high
 * word of a double (the low word taken as zero); the result is the high word of 1/x or
 * 1/sqrt(x), rounded to nearest at that width. Subnormal inputs count as zero. */
uint32_t
fp_mufu64h(int fn, uint32_t hi)
{
	double x = f64_of(f64_ftz((uint64_t)hi << 32)), r;
	uint64_t b;

	if (f64_isnan((uint64_t)hi << 32))
		return (uint32_t)(F64_CNAN >> 32);
	if (fn == MufuRcp64h)
		r = 1.0 / x;
	else
		r = x == 0 ? 1.0 / x : x < 0 ? NAN : 1.0 / sqrt(x);
	if (isnan(r))
		return (uint32_t)(F64_CNAN >> 32);
	b = f64_bits(r);
	if ((b & 0x7ff0000000000000ull) != 0x7ff0000000000000ull && (b & 0x80000000u))
		b += 0x100000000ull;                 /* round the dropped low word to nearest */
	b = f64_ftz(b & 0xffffffff00000000ull);
	return (uint32_t)(b >> 32);
}
