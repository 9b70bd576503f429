/* gen.c: deterministic inputs for the kernel tests. PCG32 (M. O'Neill, pcg32_random_r, XSH-RR
 * output) seeded per buffer, so every buffer is reproducible on its own and independent of the
 * order in which the test fills them.
 */
#include "ref.h"

void
rng_seed(Rng *r, uint64_t seed, uint64_t stream)
{
	r->state = 0;
	r->inc = (stream << 1) | 1;
	rng_u32(r);
	r->state += seed;
	rng_u32(r);
}

uint32_t
rng_u32(Rng *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted, rot;

	r->state = old * 6364136223846793005ULL + r->inc;
	xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	rot = (uint32_t)(old >> 59);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

double
rng_uniform(Rng *r, double lo, double hi)
{
	uint64_t b = ((uint64_t)rng_u32(r) << 21) ^ (rng_u32(r) >> 11);   /* 53 bits */

	return lo + (hi - lo) * ((double)b * 0x1p-53);
}

void
gen_f32(float *v, size_t n, uint64_t seed, double lo, double hi)
{
	Rng r;

	rng_seed(&r, seed, 1);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)rng_uniform(&r, lo, hi);
}

void
gen_f16(uint16_t *v, size_t n, uint64_t seed, double lo, double hi)
{
	Rng r;

	rng_seed(&r, seed, 2);
	for (size_t i = 0; i < n; i++)
		v[i] = f16_from_double(rng_uniform(&r, lo, hi));
}

void
gen_u4(uint8_t *v, size_t n, uint64_t seed)
{
	Rng r;

	rng_seed(&r, seed, 3);
	for (size_t i = 0; i < n; i++)
		v[i] = rng_u32(&r) >> 28;
}

/* w4a16_gemv.cu: word qweight[row][kw] holds q[row][8 kw + j] in bits 4j .. 4j+3 */
void
pack_int4(const uint8_t *q, uint32_t *qweight, int n, int k)
{
	for (int r = 0; r < n; r++)
		for (int kw = 0; kw < k / 8; kw++) {
			uint32_t w = 0;
			for (int j = 0; j < 8; j++)
				w |= (uint32_t)(q[(size_t)r * k + 8 * kw + j] & 15) << (4 * j);
			qweight[(size_t)r * (k / 8) + kw] = w;
		}
}
