/* ref.h: CPU references for the example kernels (examples/<k>/<k>.cu), written from the
 * mathematical definition in each .cu header and computed in double; fp16/bf16 conversions with
 * round-to-nearest-even; deterministic input generators (PCG32, fixed seeds).
 *
 * A reference returns the exact (double) result before any output rounding; where the kernel's
 * error grows with the magnitude of the terms it sums, it also returns that magnitude (the sum
 * of |terms|), from which tests/check_kernels.c derives its tolerances.
 */
#ifndef FIBER_REF_H
#define FIBER_REF_H

#include <stddef.h>
#include <stdint.h>

typedef struct Rng Rng;

/* PCG32 (O'Neill, pcg32_random_r): 64-bit state, odd increment selecting the stream */
struct Rng {
	uint64_t state;    /* LCG state */
	uint64_t inc;      /* stream increment, odd */
};

/* fp16.c: IEEE binary16 and bfloat16, round to nearest even, NaN and infinities kept */
uint16_t f16_from_double(double x);
double f16_to_double(uint16_t h);
double f16_ulp(double x);                  /* spacing of binary16 values at |x| (2^-24 min) */
uint16_t bf16_from_float(float x);
float bf16_to_float(uint16_t h);

/* gen.c */
void rng_seed(Rng *r, uint64_t seed, uint64_t stream);
uint32_t rng_u32(Rng *r);
double rng_uniform(Rng *r, double lo, double hi);  /* [lo, hi), 53-bit resolution */
void gen_f32(float *v, size_t n, uint64_t seed, double lo, double hi);
void gen_f16(uint16_t *v, size_t n, uint64_t seed, double lo, double hi); /* rounded to fp16 */
void gen_u4(uint8_t *v, size_t n, uint64_t seed);  /* integers 0..15 */
void pack_int4(const uint8_t *q, uint32_t *qweight, int n, int k); /* w4a16 storage order */

/* ref_rows.c: row softmax (fp32), RMSNorm (fp16 in, exact result) */
void ref_softmax(const float *x, double *y, int rows, int cols);
void ref_rmsnorm(const uint16_t *x, const uint16_t *w, double *y, int rows, int hidden,
                 double eps);

/* ref_elem.c: RoPE (GPT-J interleaved pairs) on fp32 q and fp16 k, SiLU-gated product */
void ref_rope(const float *q, const uint16_t *k, double *q_out, double *k_out, int tokens,
              int heads, int dhead, int pos_offset, double theta_base);
void ref_silu_mul(const uint16_t *gate, const uint16_t *up, double *out, int n);
/* ref_bias.c: examples/bias_silu, y = silu(x + bias) over rows x hidden fp32 */
void ref_bias_silu(const float *x, const float *bias, double *y, int rows, int hidden);

/* ref_gemm.c: C = A B (fp16 row-major in), and the W4A16 GEMV; *abs: sum of |products| */
void ref_gemm(const uint16_t *a, const uint16_t *b, double *c, double *cabs, int m, int n, int k);
void ref_w4a16(const uint32_t *qweight, const uint16_t *scales, const uint16_t *zeros,
               const uint16_t *x, double *y, double *yabs, int n, int k);

/* ref_attn.c: exact attention O = softmax(scale Q K^T [causal]) V for nq queries against nkv
 * keys, head dim d, fp16 row-major Q [nq x d], K and V [nkv x d]. oabs[i][c] = sum_j P_ij |V_jc|
 * (the size of O's terms); smax[i] = max_j sum_c |Q_ic K_jc| (the size of a score's terms).
 * Either of oabs, smax may be NULL. Causal masks key j > query i. */
void ref_attention(const uint16_t *q, const uint16_t *k, const uint16_t *v, double *o,
                   double *oabs, double *smax, int nq, int nkv, int d, double scale, int causal);
/* flash-decoding partials of one head, per split of `chunk` keys: m_i, l_i and o_i[d]
 * (unnormalised), exactly as flash_decoding.cu defines them; q [d], k and v [seq x d]. */
void ref_decode_partial(const uint16_t *q, const uint16_t *k, const uint16_t *v, double *part_o,
                        double *part_m, double *part_l, int seq, int chunk, int d, double scale);

#endif /* FIBER_REF_H */
