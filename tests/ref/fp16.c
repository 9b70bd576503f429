/* fp16.c: binary16 and bfloat16 conversions for the references. Conversion from double rounds
 * once, to nearest even, by scaling to the target's quantum and using nearbyint (the default
 * rounding mode is round-to-nearest-even); subnormals, overflow to infinity and NaN follow IEEE
 * 754. bfloat16 rounds the float's bit pattern (RNE on the low 16 bits).
 */
#include <math.h>
#include <string.h>

#include "ref.h"

uint16_t
f16_from_double(double x)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x), m;
	int e;

	if (isnan(x))
		return sign | 0x7e00;
	if (a >= 65520.0)                   /* 65504 + half an ulp rounds up to infinity */
		return sign | 0x7c00;
	if (a < 0x1p-14) {                  /* subnormal: quantum 2^-24; 1024 is the least normal */
		m = nearbyint(a * 0x1p24);
		return sign | (uint16_t)m;
	}
	frexp(a, &e);                       /* a in [2^(e-1), 2^e) */
	e -= 1;
	m = nearbyint(ldexp(a, 10 - e));    /* 1024 .. 2048 */
	if (m == 2048.0) {
		m = 1024.0;
		e++;
	}
	if (e > 15)
		return sign | 0x7c00;
	return sign | (uint16_t)((e + 15) << 10) | (uint16_t)(m - 1024.0);
}

double
f16_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	int m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(m + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

double
f16_ulp(double x)
{
	double a = fabs(x);
	int e;

	if (a < 0x1p-14)
		return 0x1p-24;
	if (a >= 32768.0)
		return 32.0;
	frexp(a, &e);
	return ldexp(1.0, e - 11);
}

uint16_t
bf16_from_float(float x)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x40);     /* quiet NaN, sign kept */
	u += 0x7fffu + ((u >> 16) & 1);              /* ties to even; overflow carries to inf */
	return (uint16_t)(u >> 16);
}

float
bf16_to_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}
