/* exec_tensor.c: semantics of the warp-level tensor-core instructions: HMMA (f16, bf16, tf32
 * inputs; f32 or f16 accumulators), QMMA (fp8 e4m3/e5m2 inputs), IMMA (s8/u8/s4/u4), BMMA (b1
 * AND/XOR with popc), DMMA (f64), and the matrix moves LDSM (ldmatrix), STSM (stmatrix) and MOVM
 * (movmatrix), with the per-lane fragment layouts of the PTX ISA ("Matrix Fragments for
 * mma.mMnNkK", ldmatrix, movmatrix).
 *
 * Layouts (g = lane >> 2, t = lane % 4, e the element within a 32-bit register, epr = 32 / bits
 * elements per register). Every A, B fragment is a grid of tiles of 8 rows x 128 bits, one
 * register per lane per tile, lane (g, t) holding row g, bits 32t..32t+31 of the tile:
 *   A (M x K, row-major), register i: row g + 8 (i & 1) when M = 16 (else g),
 *                                     col ((M = 16 ? i >> 1 : i) * 4 + t) * epr + e
 *   B (K x N, column-major), register j: col g, row (j * 4 + t) * epr + e
 *   C, D with 32-bit elements, register i: row g + 8 (i >> 1) (M = 16) or g, col 2t + (i & 1)
 *   C, D with f16 elements, register i, half e: row g + 8 i, col 2t + e
 *   f64 (DMMA), element i (a register pair): A row g + 8 (i & 1) (M = 16) or g,
 *   col t + 4 (M = 16 ? i >> 1 : i); B col g, row t + 4 j; C, D as the 32-bit case.
 * These reproduce the PTX tables, e.g. m16n8k16 f16 A: a0,a1 (g, 2t+{0,1}), a2,a3 (g+8, ...),
 * a4..a7 the same at col + 8; m16n8k8 tf32 A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4).
 *
 * Numerics of HMMA and QMMA: the products of f16, bf16, tf32 and fp8 operands are exact; they
 * are summed in double in ascending k, C is added, and the sum is rounded once to the
 * accumulator type (nearest even; a NaN result is the canonical 0x7fffffff / 0x7fff). With 53
 * bits for at most 32 + 1 terms of at most 24 bits, D is C + sum(a*b) correctly rounded, but
 * for a double rounding when the terms span more than about 30 binades. The hardware (A100;
 * Fasi et al., "Numerical behavior of NVIDIA tensor cores", 2021) aligns the terms to the
 * largest exponent and truncates, so hardware results can differ in the last bits: compare with
 * a tolerance of (K + 1) ulps of the largest |term| (fp32 ulp = 2^-23 relative) per instruction.
 * TF32 operands use the top 19 bits of the register (the 13 low mantissa bits are ignored, as
 * by the hardware; cvt.rna.tf32 rounds before). IMMA sums exactly and wraps modulo 2^32, or
 * clamps the exact sum with .SAT. DMMA is a chain of IEEE fused multiply-adds in ascending k
 * from C.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alu.h"
#include "mma.h"

/* the AVX2 variant of HMMA sums with fused multiply-adds (sums_fma) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HMMA_FMA 1
#include <immintrin.h>
#else
#define HMMA_FMA 0
#endif

/* ---------------------------------------------------------------------------------------------
 * MMA: HMMA, QMMA, IMMA, BMMA, DMMA. dst[0] D, src[0] A, src[1] B, src[2] C (RZ: zero).
 * aux: M | N << 8 | K << 16; mod: the operand types and flags below.
 *
 * Each operand is read once per instruction into a dense matrix, one tile row (the 128 bits of
 * lanes 4g..4g+3 in one register) at a time: A as a[m][k], B as b[k][p], C and D as [m][p], the
 * columns in the order p = 0..7 <-> n = 0, 2, 4, 6, 1, 3, 5, 7 of the accumulator registers:
 * lanes 4g..4g+3 of registers 2h and 2h+1 hold the even and the odd columns of row g + 8h. A row
 * of sums is then two vectors of four columns, each added to and stored as four consecutive lanes
 * of one register. Tile rows are read as bytes in memory order, which is the element order on
 * the little-endian hosts that the simulator runs on (ex_ldsm makes the same assumption).
 */
/* mod: A type bits 0..3, B type bits 4..7, accumulator type bits 8..11, flags above */
enum {
	MSat = 1 << 12,        /* IMMA .SAT: clamp to int32 */
	MXor = 1 << 13,        /* BMMA .XOR.POPC (else .AND.POPC) */
};

#define ATY(d) ((d)->mod & 15)
#define BTY(d) ((d)->mod >> 4 & 15)
#define CTY(d) ((d)->mod >> 8 & 15)

enum {
	MaxM = 16, MaxN = 8, MaxK = 256,
	MaxKf = 32,            /* K of HMMA and QMMA */
	MaxKi = 64,            /* K of IMMA */
	MaxKd = 16,            /* K of DMMA */
	NAcc = MaxM * MaxN / WarpSize, /* registers of a 32-bit accumulator */
};

/* GCC and Clang vectors: each lane one IEEE operation, as the scalar code would do it */
typedef uint8_t V8b __attribute__((vector_size(8)));
typedef uint16_t V8h __attribute__((vector_size(16)));
typedef uint32_t V4u __attribute__((vector_size(16)));
typedef float V4f __attribute__((vector_size(16)));
typedef double V2d __attribute__((vector_size(16)));
typedef double V4d __attribute__((vector_size(32)));
typedef uint32_t V8u __attribute__((vector_size(32)));
typedef int32_t V8i __attribute__((vector_size(32)));
typedef float V8f __attribute__((vector_size(32)));

#define INLINE static inline __attribute__((always_inline))

/* column p of the accumulator order (above) of column n, and back */
INLINE unsigned pcol(unsigned n) { return (n & 1) * 4 + (n >> 1); }
INLINE unsigned ncol(unsigned p) { return 2 * (p & 3) + (p >> 2); }

/* first row and column of tile i of an M-row fragment whose tile rows are width elements: the
 * tiles of M = 16 go down, then across */
INLINE void
tile_at(unsigned M, unsigned i, unsigned width, unsigned *row, unsigned *col)
{
	*row = M == 16 ? 8 * (i & 1) : 0;
	*col = (M == 16 ? i >> 1 : i) * width;
}

/* binary16 (the low 16 bits of each lane) to binary32, exactly: the magnitude bits placed in a
 * binary32 are the value times 2^-112, normal or subnormal, so one exact product */
INLINE void
f16x8(const V8u *h, V8f *out)
{
	V8u sgn = (*h & 0x8000) << 16, mag = (*h & 0x7fff) << 13;
	V8u fin = (V8u)((V8f)mag * 0x1p112f) | sgn;
	V8u inf = (V8u)(mag >= 0x0f800000u);    /* Inf, NaN */

	*out = (V8f)((fin & ~inf) | ((sgn | 0x7f800000u | (mag & 0x007fe000u)) & inf));
}

/* fp8 E4M3 (bias 7, no infinities, S.1111.111 is NaN) to binary32 by the same scaling */
INLINE void
e4m3x8(const V8u *b, V8f *out)
{
	V8u sgn = (*b & 0x80) << 24, mag = (*b & 0x7f) << 20;
	V8u fin = (V8u)((V8f)mag * 0x1p120f) | sgn;
	V8u nan = (V8u)(mag == 0x7fu << 20);

	*out = (V8f)((fin & ~nan) | (F32_CNAN & nan));
}

/* four binary32 to out[0], out[st], ... out[3 st] as doubles */
INLINE void
put4(const float *f, double *out, unsigned st)
{
	V4f h;
	V4d v;

	memcpy(&h, f, sizeof h);
	v = __builtin_convertvector(h, V4d);
	if (st == 1) {
		memcpy(out, &v, sizeof v);
		return;
	}
	for (unsigned e = 0; e < 4; e++)
		out[e * st] = v[e];
}

INLINE void
put8(const V8f *f, double *out, unsigned st)
{
	put4((const float *)f, out, st);
	put4((const float *)f + 4, out + 4 * st, st);
}

/* the elements of the float type ty in a tile row w as 128 / bits doubles, exactly (TF32: the
 * top 19 bits of each word), to out[0], out[st], ... */
INLINE void
row_f(const uint32_t *w, unsigned ty, double *out, unsigned st)
{
	V8h h;
	V8b b;
	V4u u;
	V8u e;
	V8f f;

	switch (ty) {
	case EF16:
	case EBF16:
		memcpy(&h, w, sizeof h);
		e = __builtin_convertvector(h, V8u);
		if (ty == EF16)
			f16x8(&e, &f);
		else
			f = (V8f)(e << 16);
		put8(&f, out, st);
		break;
	case ETF32:
		memcpy(&u, w, sizeof u);
		u &= 0xffffe000u;
		put4((const float *)&u, out, st);
		break;
	default:               /* E4M3, E5M2 (the high byte of a binary16) */
		for (unsigned k = 0; k < 2; k++) {
			memcpy(&b, (const uint8_t *)w + 8 * k, sizeof b);
			e = __builtin_convertvector(b, V8u);
			if (ty == EE4M3) {
				e4m3x8(&e, &f);
			} else {
				e <<= 8;
				f16x8(&e, &f);
			}
			put8(&f, out + 8 * k * st, st);
		}
	}
}

/* the A (rows = M) operand of an HMMA/QMMA, nreg tiles of elements of type ty (a constant
 * after inlining) from o, into v as a[m][k] (MaxKf columns); or, with trans, the B operand,
 * whose tiles are those of B^T (M = 8 rows n), into v as b[k][pcol(n)] */
INLINE void
gather_f(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, double *v, int trans)
{
	for (unsigned i = 0; i < nreg; i++) {
		const uint32_t *r = sim_tuple_src(x, o, i);
		unsigned row, col;
		tile_at(M, i, 128 / mma_elem_bits(ty), &row, &col);
		for (unsigned g = 0; g < 8; g++)
			if (trans)
				row_f(r + 4 * g, ty, &v[col * MaxN + pcol(row + g)], MaxN);
			else
				row_f(r + 4 * g, ty, &v[(row + g) * MaxKf + col], 1);
	}
}

INLINE void
gather_any(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, double *v, int trans)
{
	switch (ty) {
	case EF16: gather_f(x, o, M, nreg, EF16, v, trans); break;
	case EBF16: gather_f(x, o, M, nreg, EBF16, v, trans); break;
	case ETF32: gather_f(x, o, M, nreg, ETF32, v, trans); break;
	case EE4M3: gather_f(x, o, M, nreg, EE4M3, v, trans); break;
	default: gather_f(x, o, M, nreg, EE5M2, v, trans); break;
	}
}

/* the n registers of an accumulator C into c[i][lane] (RZ: zeros): D may overlap them */
INLINE void
read_c(Exec *x, const DIns *d, unsigned n, uint32_t (*c)[WarpSize])
{
	for (unsigned i = 0; i < n; i++)
		memcpy(c[i], sim_tuple_src(x, &d->src[2], i), sizeof c[i]);
}

/* the n registers dv[i][lane] of D to the executing lanes */
static void
write_d(Exec *x, const DIns *d, unsigned n, uint32_t (*dv)[WarpSize], uint32_t mask)
{
	if (d->dst[0].reg == RegRZ)
		return;
	for (unsigned i = 0; i < n; i++) {
		uint32_t *o = sim_vreg(x, &d->dst[0], i);
		if (mask == ~0u) {
			memcpy(o, dv[i], sizeof dv[i]);
			continue;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			o[l] = dv[i][l];
		}
	}
}

/* the register and lane of the 32-bit accumulator element [m][p] */
INLINE unsigned acc_reg(unsigned m, unsigned p) { return 2 * (m >> 3) + (p >> 2); }
INLINE unsigned acc_lane(unsigned m, unsigned p) { return 4 * (m & 7) + (p & 3); }

/* s[m][p] = the products a[m][k] b[k][p] summed in ascending k from +0, each an IEEE double
 * sum as a scalar loop would do it; eight vectors of two sums in flight, which the generic build
 * (SSE2, NEON) keeps in registers (the AVX2 build: sums_fma) */
INLINE void
sums_f(unsigned M, unsigned K, double (*a)[MaxKf], double (*b)[MaxN], double (*s)[MaxN])
{
	for (unsigned m = 0; m < M; m += 2) {
		V2d s00 = {0}, s01 = {0}, s02 = {0}, s03 = {0}, s10 = {0}, s11 = {0}, s12 = {0}, s13 = {0};
		for (unsigned k = 0; k < K; k++) {
			V2d b0, b1, b2, b3;
			double e0 = a[m][k], e1 = a[m + 1][k];
			memcpy(&b0, &b[k][0], sizeof b0);
			memcpy(&b1, &b[k][2], sizeof b1);
			memcpy(&b2, &b[k][4], sizeof b2);
			memcpy(&b3, &b[k][6], sizeof b3);
			s00 += (V2d){e0, e0} * b0;
			s01 += (V2d){e0, e0} * b1;
			s02 += (V2d){e0, e0} * b2;
			s03 += (V2d){e0, e0} * b3;
			s10 += (V2d){e1, e1} * b0;
			s11 += (V2d){e1, e1} * b1;
			s12 += (V2d){e1, e1} * b2;
			s13 += (V2d){e1, e1} * b3;
		}
		memcpy(&s[m][0], &s00, sizeof s00);
		memcpy(&s[m][2], &s01, sizeof s01);
		memcpy(&s[m][4], &s02, sizeof s02);
		memcpy(&s[m][6], &s03, sizeof s03);
		memcpy(&s[m + 1][0], &s10, sizeof s10);
		memcpy(&s[m + 1][2], &s11, sizeof s11);
		memcpy(&s[m + 1][4], &s12, sizeof s12);
		memcpy(&s[m + 1][6], &s13, sizeof s13);
	}
}

#if HMMA_FMA
/* sums_f of the AVX2 build with fused multiply-adds, four rows of eight sums in flight: every
 * product of two HMMA/QMMA operands is exact in double (at most 11 + 11 significant bits, and
 * exponents far inside double's range), so fma(a, b, s), which rounds s + a b once, rounds
 * exactly what s + a * b rounds: the same sums, bit for bit, in half the operations. Called,
 * not inlined: the baseline variant may not inline a function of another target. */
__attribute__((target("avx2,fma"))) INLINE void
sums_fma_body(unsigned M, unsigned K, double (*a)[MaxKf], double (*b)[MaxN], double (*s)[MaxN])
{
	for (unsigned m = 0; m < M; m += 4) {
		__m256d s00 = _mm256_setzero_pd(), s01 = s00, s10 = s00, s11 = s00, s20 = s00,
		        s21 = s00, s30 = s00, s31 = s00;
#pragma GCC unroll 16
		for (unsigned k = 0; k < K; k++) {
			__m256d b0 = _mm256_loadu_pd(&b[k][0]), b1 = _mm256_loadu_pd(&b[k][4]), e;
			e = _mm256_broadcast_sd(&a[m][k]);
			s00 = _mm256_fmadd_pd(e, b0, s00);
			s01 = _mm256_fmadd_pd(e, b1, s01);
			e = _mm256_broadcast_sd(&a[m + 1][k]);
			s10 = _mm256_fmadd_pd(e, b0, s10);
			s11 = _mm256_fmadd_pd(e, b1, s11);
			e = _mm256_broadcast_sd(&a[m + 2][k]);
			s20 = _mm256_fmadd_pd(e, b0, s20);
			s21 = _mm256_fmadd_pd(e, b1, s21);
			e = _mm256_broadcast_sd(&a[m + 3][k]);
			s30 = _mm256_fmadd_pd(e, b0, s30);
			s31 = _mm256_fmadd_pd(e, b1, s31);
		}
		_mm256_storeu_pd(&s[m][0], s00);
		_mm256_storeu_pd(&s[m][4], s01);
		_mm256_storeu_pd(&s[m + 1][0], s10);
		_mm256_storeu_pd(&s[m + 1][4], s11);
		_mm256_storeu_pd(&s[m + 2][0], s20);
		_mm256_storeu_pd(&s[m + 2][4], s21);
		_mm256_storeu_pd(&s[m + 3][0], s30);
		_mm256_storeu_pd(&s[m + 3][4], s31);
	}
}

__attribute__((target("avx2,fma"), noinline)) static void
sums_fma(unsigned M, unsigned K, double (*a)[MaxKf], double (*b)[MaxN], double (*s)[MaxN])
{
	sums_fma_body(M, K, a, b, s);
}
#endif

/* HMMA, QMMA: each element of D is the products in ascending k summed in double from +0, then
 * C added and the sum rounded once */
INLINE void
hmma(Exec *x, const DIns *d, uint32_t mask, unsigned M, unsigned K, unsigned aty, unsigned bty,
     unsigned cty, int wide)
{
	unsigned na = M * K * mma_elem_bits(aty) / 1024, nb = 8 * K * mma_elem_bits(bty) / 1024;
	unsigned nd = cty == EF32 ? M / 4 : M / 8;
	double a[MaxM][MaxKf], b[MaxKf][MaxN], s[MaxM][MaxN];
	uint32_t c[NAcc][WarpSize], dv[NAcc][WarpSize];

	gather_any(x, &d->src[0], M, na, aty, &a[0][0], 0);
	gather_any(x, &d->src[1], 8, nb, bty, &b[0][0], 1);
	read_c(x, d, nd, c);
#if HMMA_FMA
	if (wide)
		sums_fma(M, K, a, b, s);
	else
#endif
		sums_f(M, K, a, b, s);
	if (cty == EF32) {
		/* lanes 4g..4g+3 of registers 2h and 2h+1: row g + 8h, p = 0..3 and 4..7 */
		for (unsigned m = 0; m < M; m++)
			for (unsigned q = 0; q < 2; q++) {
				unsigned i = acc_reg(m, 4 * q), l = acc_lane(m, 0);
				V4u cu, du, nan;
				V4d v;
				memcpy(&cu, &c[i][l], sizeof cu);
				memcpy(&v, &s[m][4 * q], sizeof v);
				v += __builtin_convertvector((V4f)cu, V4d);
				du = (V4u)__builtin_convertvector(v, V4f);
				nan = (V4u)((du & 0x7fffffffu) > 0x7f800000u);
				du = (du & ~nan) | (F32_CNAN & nan);
				memcpy(&dv[i][l], &du, sizeof du);
			}
	} else {
		/* register i, lane (g, t): row g + 8i, columns 2t (low half, p = t) and 2t + 1 */
		for (unsigned m = 0; m < M; m++) {
			unsigned i = m >> 3, l = 4 * (m & 7);
			V8u h;
			V8f f;
			double v[MaxN];
			for (unsigned t = 0; t < 4; t++) {
				h[t] = c[i][l + t] & 0xffff;
				h[4 + t] = c[i][l + t] >> 16;
			}
			f16x8(&h, &f);
			put8(&f, v, 1);
			for (unsigned p = 0; p < MaxN; p++)
				v[p] += s[m][p];
			for (unsigned t = 0; t < 4; t++)
				dv[i][l + t] = (uint32_t)fp_from_f64(FpF16, v[t], RmRN, 0) |
				               (uint32_t)fp_from_f64(FpF16, v[4 + t], RmRN, 0) << 16;
		}
	}
	write_d(x, d, nd, dv, mask);
}

/* the shapes and types as constants for HMMA.16816.F32 (f16 inputs), nvcc's usual choice */
INLINE void
hmma_any(Exec *x, const DIns *d, uint32_t mask, int wide)
{
	if (d->aux == (16 | 8 << 8 | 16 << 16) && d->mod == (EF16 | EF16 << 4 | EF32 << 8))
		hmma(x, d, mask, 16, 16, EF16, EF16, EF32, wide);
	else
		hmma(x, d, mask, d->aux & 0xff, d->aux >> 16, ATY(d), BTY(d), CTY(d), wide);
}

/* the two variants of alu.h's ALU_VARIANTS, for ALU_PICK, with the sums of their vector width */
static void
ex_hmma(Exec *x, const DIns *d, uint32_t mask)
{
	hmma_any(x, d, mask, 0);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx2,fma"))) static void
ex_hmma_avx2(Exec *x, const DIns *d, uint32_t mask)
{
	hmma_any(x, d, mask, 1);
}
#endif

#if HMMA_FMA
#include <cpuid.h>

/* HMMA.16816.F32 with f16 A and B (nvcc's usual MMA) in one function: hmma with the constants,
 * the operands converted by F16C (binary16 to binary32 is exact: the doubles of f16x8, a NaN
 * staying a NaN, which the result makes canonical), the sums of sums_fma, C read in place (all
 * of it is read before D is written) */
__attribute__((target("avx2,fma,f16c"), noinline)) static void
ex_hmma16816_f16(Exec *x, const DIns *d, uint32_t mask)
{
	double a[MaxM][MaxKf], b[MaxKf][MaxN], s[MaxM][MaxN];
	const uint32_t *c[NAcc];
	uint32_t dv[NAcc][WarpSize];

	/* A: register i, lanes 4g..4g+3: row 8 (i & 1) + g, columns 8 (i >> 1) .. + 7 */
	for (unsigned i = 0; i < 4; i++) {
		const uint32_t *r = sim_tuple_src(x, &d->src[0], i);
		double *row = &a[8 * (i & 1)][8 * (i >> 1)];
		for (unsigned g = 0; g < 8; g++, row += MaxKf) {
			__m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(r + 4 * g)));
			_mm256_storeu_pd(row, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
			_mm256_storeu_pd(row + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
		}
	}
	/* B: register i, lanes 4g..4g+3: column n = g, rows k = 8 i .. + 7, to b[k][pcol(n)] */
	for (unsigned i = 0; i < 2; i++) {
		const uint32_t *r = sim_tuple_src(x, &d->src[1], i);
		for (unsigned g = 0; g < 8; g++) {
			__m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(r + 4 * g)));
			__m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(f));
			__m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1));
			double *col = &b[8 * i][pcol(g)];
			_mm_storel_pd(col, _mm256_castpd256_pd128(lo));
			_mm_storeh_pd(col + MaxN, _mm256_castpd256_pd128(lo));
			_mm_storel_pd(col + 2 * MaxN, _mm256_extractf128_pd(lo, 1));
			_mm_storeh_pd(col + 3 * MaxN, _mm256_extractf128_pd(lo, 1));
			_mm_storel_pd(col + 4 * MaxN, _mm256_castpd256_pd128(hi));
			_mm_storeh_pd(col + 5 * MaxN, _mm256_castpd256_pd128(hi));
			_mm_storel_pd(col + 6 * MaxN, _mm256_extractf128_pd(hi, 1));
			_mm_storeh_pd(col + 7 * MaxN, _mm256_extractf128_pd(hi, 1));
		}
	}
	for (unsigned i = 0; i < NAcc; i++)
		c[i] = sim_tuple_src(x, &d->src[2], i);
	sums_fma_body(16, 16, a, b, s);
	/* hmma's EF32 case: register i, lanes 4g..4g+3 <- row 8 (i >> 1) + g, columns 4 (i & 1) .. */
	for (unsigned i = 0; i < NAcc; i++)
		for (unsigned g = 0; g < 8; g++) {
			__m256d v = _mm256_loadu_pd(&s[8 * (i >> 1) + g][4 * (i & 1)]);
			__m128i du, nan;
			v = _mm256_add_pd(v, _mm256_cvtps_pd(_mm_loadu_ps((const float *)&c[i][4 * g])));
			du = _mm_castps_si128(_mm256_cvtpd_ps(v));
			nan = _mm_cmpgt_epi32(_mm_and_si128(du, _mm_set1_epi32(0x7fffffff)),
			                      _mm_set1_epi32(0x7f800000));
			du = _mm_blendv_epi8(du, _mm_set1_epi32((int)F32_CNAN), nan);
			_mm_storeu_si128((__m128i *)&dv[i][4 * g], du);
		}
	write_d(x, d, NAcc, dv, mask);
}

/* ex_hmma16816_f16 where d is that MMA and the host has AVX2, FMA and F16C */
static int
hmma16816_f16_ok(const DIns *d)
{
	unsigned a, b, c, e;

	return d->aux == (16 | 8 << 8 | 16 << 16) && d->mod == (EF16 | EF16 << 4 | EF32 << 8) &&
	       __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
	       __get_cpuid(1, &a, &b, &c, &e) && (c & bit_F16C);
}
#endif

/* element e (bits wide) of register word w, sign-extended for signed types */
INLINE int32_t
ielem(uint32_t w, unsigned ty, unsigned e)
{
	switch (ty) {
	case ES8: return (int8_t)(w >> 8 * e);
	case EU8: return (uint8_t)(w >> 8 * e);
	case ES4: return (int32_t)(w << (28 - 4 * e)) >> 28;
	default: return (int32_t)(w >> 4 * e & 15);
	}
}

/* the A or B operand of an IMMA (as gather_f) */
INLINE void
gather_i(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, int32_t (*v)[MaxKi])
{
	unsigned epr = 32 / mma_elem_bits(ty);

	for (unsigned i = 0; i < nreg; i++) {
		const uint32_t *r = sim_tuple_src(x, o, i);
		unsigned row, col;
		tile_at(M, i, 4 * epr, &row, &col);
		for (unsigned g = 0; g < 8; g++)
			for (unsigned e = 0; e < 4 * epr; e++)
				v[row + g][col + e] = ielem(r[4 * g + e / epr], ty, e % epr);
	}
}

INLINE void
gather_int(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, int32_t (*v)[MaxKi])
{
	switch (ty) {
	case ES8: gather_i(x, o, M, nreg, ES8, v); break;
	case EU8: gather_i(x, o, M, nreg, EU8, v); break;
	case ES4: gather_i(x, o, M, nreg, ES4, v); break;
	default: gather_i(x, o, M, nreg, EU4, v); break;
	}
}

/* IMMA: the products sum exactly in int32 (at most 32 of magnitude at most 255^2, or 64 of
 * 15^2), C is added in int64, and the result wraps or, with .SAT, clamps */
ALU_BODY(ex_imma)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, aty = ATY(d), bty = BTY(d);
	unsigned na = M * K * mma_elem_bits(aty) / 1024, nb = 8 * K * mma_elem_bits(bty) / 1024;
	int32_t a[MaxM][MaxKi], bt[MaxN][MaxKi], b[MaxKi][MaxN];
	uint32_t c[NAcc][WarpSize], dv[NAcc][WarpSize];

	gather_int(x, &d->src[0], M, na, aty, a);
	gather_int(x, &d->src[1], 8, nb, bty, bt);
	for (unsigned k = 0; k < K; k++)
		for (unsigned n = 0; n < MaxN; n++)
			b[k][pcol(n)] = bt[n][k];
	read_c(x, d, M / 4, c);
	for (unsigned m = 0; m < M; m++) {
		V8i s = {0}, bk;
		for (unsigned k = 0; k < K; k++) {
			int32_t e = a[m][k];
			memcpy(&bk, b[k], sizeof bk);
			s += (V8i){e, e, e, e, e, e, e, e} * bk;
		}
		for (unsigned p = 0; p < MaxN; p++) {
			unsigned i = acc_reg(m, p), l = acc_lane(m, p);
			int64_t v = (int64_t)(int32_t)c[i][l] + s[p];
			if (d->mod & MSat)
				v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
			dv[i][l] = (uint32_t)v;
		}
	}
	write_d(x, d, M / 4, dv, mask);
}
ALU_VARIANTS(ex_imma)

static void
ex_bmma(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, na = M * K / 1024, nb = 8 * K / 1024;
	uint32_t a[MaxM][MaxK / 32], b[MaxN][MaxK / 32], c[NAcc][WarpSize], dv[NAcc][WarpSize];
	unsigned row, col;

	for (unsigned i = 0; i < na; i++) {
		tile_at(M, i, 4, &row, &col);
		for (unsigned g = 0; g < 8; g++)
			memcpy(&a[row + g][col], sim_tuple_src(x, &d->src[0], i) + 4 * g, 16);
	}
	for (unsigned j = 0; j < nb; j++)
		for (unsigned g = 0; g < 8; g++)
			memcpy(&b[g][4 * j], sim_tuple_src(x, &d->src[1], j) + 4 * g, 16);
	read_c(x, d, M / 4, c);
	for (unsigned m = 0; m < M; m++)
		for (unsigned p = 0; p < MaxN; p++) {
			unsigned i = acc_reg(m, p), l = acc_lane(m, p), n = ncol(p);
			uint32_t s = c[i][l];
			for (unsigned w = 0; w < K / 32; w++)
				s += sim_popc(d->mod & MXor ? a[m][w] ^ b[n][w] : a[m][w] & b[n][w]);
			dv[i][l] = s;
		}
	write_d(x, d, M / 4, dv, mask);
}

/* DMMA: element i of a lane is the register pair 2i, 2i+1; A tile i (8 rows of four doubles)
 * as the 128-bit tiles, B tile j rows 4j..4j+3 of B^T, C and D in the accumulator order. Each
 * element is a chain of fused multiply-adds in ascending k from C. */
ALU_BODY(ex_dmma)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, na = M * K / 32, nb = 8 * K / 32;
	double a[MaxM][MaxKd], bt[MaxN][MaxKd], b[MaxKd][MaxN], s[MaxN];
	uint32_t c[2 * NAcc][WarpSize], dv[2 * NAcc][WarpSize];

	for (unsigned i = 0; i < na; i++) {
		const uint32_t *lo = sim_tuple_src(x, &d->src[0], 2 * i);
		const uint32_t *hi = sim_tuple_src(x, &d->src[0], 2 * i + 1);
		unsigned row, col;
		tile_at(M, i, 4, &row, &col);
		for (unsigned l = 0; l < WarpSize; l++)
			a[row + (l >> 2)][col + (l & 3)] = f64_of(lo[l] | (uint64_t)hi[l] << 32);
	}
	for (unsigned j = 0; j < nb; j++) {
		const uint32_t *lo = sim_tuple_src(x, &d->src[1], 2 * j);
		const uint32_t *hi = sim_tuple_src(x, &d->src[1], 2 * j + 1);
		for (unsigned l = 0; l < WarpSize; l++)
			bt[l >> 2][4 * j + (l & 3)] = f64_of(lo[l] | (uint64_t)hi[l] << 32);
	}
	for (unsigned k = 0; k < K; k++)
		for (unsigned n = 0; n < MaxN; n++)
			b[k][pcol(n)] = bt[n][k];
	read_c(x, d, M / 2, c);
	for (unsigned m = 0; m < M; m++) {
		for (unsigned p = 0; p < MaxN; p++) {
			unsigned i = acc_reg(m, p), l = acc_lane(m, p);
			s[p] = f64_of(c[2 * i][l] | (uint64_t)c[2 * i + 1][l] << 32);
		}
		for (unsigned k = 0; k < K; k++)
			for (unsigned p = 0; p < MaxN; p++)
				s[p] = fma(a[m][k], b[k][p], s[p]);
		for (unsigned p = 0; p < MaxN; p++) {
			unsigned i = acc_reg(m, p), l = acc_lane(m, p);
			uint64_t v = f64_bits(s[p]);
			if (f64_isnan(v))
				v = F64_CNAN;
			dv[2 * i][l] = (uint32_t)v;
			dv[2 * i + 1][l] = (uint32_t)(v >> 32);
		}
	}
	write_d(x, d, M / 2, dv, mask);
}
ALU_VARIANTS(ex_dmma)

/* HMMA.16816.F32.BF16 R16, R12, R6, R16; IMMA.16832.U8.S8.SAT R16, R12.ROW, R6.COL, R16;
 * BMMA.168256.AND.POPC ...; DMMA.884 R20, R18, R24, R20 */
static int
dec_mma(DecodeCtx *c, const Ins *i, DIns *d)
{
	int op = i->op, nt, popc, bop;
	const uint8_t *types;
	unsigned M, N, K, aty, bty, cty, epr, na, nb, ncd, nc, first;
	uint32_t flags = 0;
	MmaForm f;

	/* the modifiers, read once (ir/mma.h); the first the simulator cannot take fails the load:
	 * a bad shape, a word of no meaning, .SP, a fourth type or one it does not compute with */
	mma_form(c->fn->mod, i, &f);
	first = f.bad ? f.bad : 256;
	if (f.sparse && f.sparse < first)
		first = f.sparse;
	for (unsigned k = 0; k < f.ntype; k++)
		if ((k == 3 || !mma_elem_simulated(f.type[k])) && f.type_at[k] < first)
			first = f.type_at[k];
	if (first < 256) {
		if (first == f.bad && f.badshape) {
			char why[64];
			snprintf(why, sizeof why, "unknown shape '%s' for %s",
			         mstr(c->fn->mod, i->mod[first - 1]), optab[op].name);
			return sim_unsupported_why(c, i, why);
		}
		return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (f.shaped != 1)
		return sim_unsupported_why(c, i, "unknown shape");
	M = f.shape.m;
	N = f.shape.n;
	K = f.shape.k;
	nt = f.ntype;
	types = f.type;
	popc = f.popc;
	bop = f.bop;
	if (f.sat)
		flags |= MSat;
	switch (op) {
	case OHMMA:
		/* HMMA.<shape>.<accumulator>[.<inputs>]: inputs f16 unless BF16 or TF32 */
		if (nt < 1 || nt > 2 || (types[0] != EF32 && types[0] != EF16))
			return sim_unsupported_why(c, i, "expected an F32 or F16 accumulator");
		cty = (unsigned)types[0];
		aty = nt == 2 ? (unsigned)types[1] : EF16;
		if (aty != EF16 && aty != EBF16 && aty != ETF32)
			return sim_unsupported_why(c, i, "inputs are F16, BF16 or TF32");
		if ((aty == ETF32 ? K != 4 && K != 8 : K != 8 && K != 16) || (aty != EF16 && cty != EF32))
			return sim_unsupported_why(c, i, "shape and types do not match");
		bty = aty;
		break;
	case OQMMA:
		/* QMMA.<shape>.<accumulator>.<A>.<B>: fp8 inputs, the fragments of 8-bit IMMA */
		if (nt != 3 || (types[0] != EF32 && types[0] != EF16) || types[1] < EE4M3 ||
		    types[2] < EE4M3)
			return sim_unsupported_why(c, i, "expected QMMA.<shape>.F32|F16.E4M3|E5M2.E4M3|E5M2");
		cty = (unsigned)types[0];
		aty = (unsigned)types[1];
		bty = (unsigned)types[2];
		break;
	case OIMMA:
		if (nt != 2 || types[0] < ES8 || types[0] > EU4 || types[1] < ES8 || types[1] > EU4 ||
		    mma_elem_bits((unsigned)types[0]) != mma_elem_bits((unsigned)types[1]))
			return sim_unsupported_why(c, i, "expected two integer input types of one width");
		aty = (unsigned)types[0];
		bty = (unsigned)types[1];
		cty = ES32;
		break;
	case OBMMA:
		if (nt || !popc || bop < 0)
			return sim_unsupported_why(c, i, "expected .AND.POPC or .XOR.POPC");
		aty = bty = EB1;
		cty = ES32;
		if (bop)
			flags |= MXor;
		break;
	default:
		if (nt)
			return sim_unsupported_why(c, i, "unknown modifier");
		if (!((M == 8 && K == 4) || (M == 16 && (K == 4 || K == 8 || K == 16))))
			return sim_unsupported_why(c, i, "unknown shape");
		aty = bty = cty = EF64;
		break;
	}
	if (N != 8 || (M != 8 && M != 16) || K > MaxK)
		return sim_unsupported_why(c, i, "unknown shape");
	/* integer and b1 fragments: rows of 128 bits, or 256 bits when M = 16 */
	if ((op == OIMMA || op == OBMMA || op == OQMMA) && K * mma_elem_bits(aty) != 128 &&
	    !(M == 16 && K * mma_elem_bits(aty) == 256))
		return sim_unsupported_why(c, i, "shape and types do not match");
	epr = 32 / mma_elem_bits(aty);
	if (aty == EF64) {
		na = M * K / 16;
		nb = 8 * K / 16;
		ncd = nc = M * 8 / 16;
	} else {
		na = M * K / (32 * epr);
		nb = 8 * K / (32 * epr);
		nc = M * 8 / 32;
		ncd = cty == EF16 ? nc / 2 : nc;
	}
	if (i->nopnd != 4 || sim_reg_opnd(c, i, 0, RR, ncd, &d->dst[0]) ||
	    sim_reg_opnd(c, i, 1, RR, na, &d->src[0]) || sim_reg_opnd(c, i, 2, RR, nb, &d->src[1]) ||
	    sim_reg_opnd(c, i, 3, RR, ncd, &d->src[2]))
		return i->nopnd != 4 ? sim_unsupported_why(c, i, "expected D, A, B, C") : -1;
	d->ndst = 1;
	d->nsrc = 3;
	d->aux = MMA_AUX(M, N, K);
	d->mod = MMA_MOD(aty, bty, cty) | flags;
	d->exec = op == OHMMA || op == OQMMA ? ALU_PICK(ex_hmma) : op == OIMMA ? ALU_PICK(ex_imma) :
	          op == OBMMA ? ex_bmma : ALU_PICK(ex_dmma);
#if HMMA_FMA
	if (op == OHMMA && hmma16816_f16_ok(d))
		d->exec = ex_hmma16816_f16;
#endif
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Matrix moves. LDSM.16.M88[.2|.4] Rd, [addr] (ldmatrix .x1/.x2/.x4), .MT88 the transposed
 * form; STSM the same into memory (stmatrix); MOVM.16.MT88 Rd, Ra (movmatrix). Lanes 8m..8m+7
 * give the addresses of the 8 rows (16 bytes each) of matrix m. Lane (g, t) holds, in register
 * m, row g, columns 2t and 2t+1 of matrix m; transposed, row 2t (low half) and row 2t+1 (high
 * half) of column g. aux: matrices; mod: LTrans; aux2: the address mode (R + UR + imm, 32-bit).
 */
enum {
	LTrans = 1 << 0,       /* .MT88 */
};

/* the shared addresses [R + UR + imm] of lanes 0..n-1 (dop fields: reg, ureg, imm) */
static void
saddrs(Exec *x, const DOp *o, unsigned n, uint32_t *a)
{
	uint32_t base = (uint32_t)o->imm + (o->ureg != RegURZ ? x->w->ur[o->ureg] : 0);

	if (dop_hasreg(o)) {
		const uint32_t *r = sim_vreg(x, o, 0);
		for (unsigned l = 0; l < n; l++)
			a[l] = base + r[l];
	} else {
		for (unsigned l = 0; l < n; l++)
			a[l] = base;
	}
}

/* the 16 bytes of each row of the matrices, rows[8m + r]; -1 after a fault */
static int
row_ptrs(Exec *x, const DOp *o, unsigned nrow, int write, uint8_t *p[32])
{
	const Cta *c = x->cta;
	uint32_t a[WarpSize], any = 0, top = 0;

	saddrs(x, o, nrow, a);
	for (unsigned r = 0; r < nrow; r++) {
		any |= a[r];
		top = a[r] > top ? a[r] : top;
	}
	/* all aligned and inside the CTA's window, the usual case: no fault, no call */
	if (!(any & 15) && top < c->smem_size && 16 <= c->smem_size - top) {
		for (unsigned r = 0; r < nrow; r++)
			p[r] = c->smem + a[r];
		return 0;
	}
	for (unsigned r = 0; r < nrow; r++) {
		if (a[r] & 15) {
			sim_fault(x, FaultMisaligned, r,
			          "misaligned matrix row address 0x%x (16-byte rows) in shared memory", a[r]);
			return -1;
		}
		/* inside the CTA's window without a call; sim_shared reports the fault otherwise */
		if (a[r] < c->smem_size && 16 <= c->smem_size - a[r])
			p[r] = c->smem + a[r];
		else if (!(p[r] = sim_shared(x, a[r], 16, r, write)))
			return -1;
	}
	return 0;
}

/* record the row addresses of a matrix move for the timing model: lanes 0..nrow-1 give one
 * 16-byte row each, whatever the guard mask (mask only says whether the warp runs it) */
static void
rows_log(Exec *x, const DIns *d, uint32_t mask, unsigned kind)
{
	unsigned nrow = 8 * d->aux;
	uint32_t a32[WarpSize];
	uint64_t a[WarpSize];

	if (!mask)
		return;
	saddrs(x, &d->src[0], nrow, a32);
	for (unsigned r = 0; r < nrow; r++)
		a[r] = a32[r];
	sim_mlog(x, MSShared, kind, 16, 0, nrow >= WarpSize ? ~0u : (1u << nrow) - 1, a);
}

static void
ex_ldsm(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned nm = d->aux;
	uint8_t *p[32];
	uint32_t v[4][WarpSize];

	if (x->mlog)
		rows_log(x, d, mask, MKLoad);
	if (row_ptrs(x, &d->src[0], 8 * nm, 0, p))
		return;
	if (d->mod & LTrans) {
		/* lanes (g, t), g = 0..7: half g of rows 2t (low) and 2t + 1 (high) */
		for (unsigned m = 0; m < nm; m++)
			for (unsigned t = 0; t < 4; t++) {
				V8h lo, hi;
				V8u w;
				memcpy(&lo, p[8 * m + 2 * t], sizeof lo);
				memcpy(&hi, p[8 * m + 2 * t + 1], sizeof hi);
				w = __builtin_convertvector(lo, V8u) | __builtin_convertvector(hi, V8u) << 16;
				for (unsigned g = 0; g < 8; g++)
					v[m][4 * g + t] = w[g];
			}
	} else {
		/* lanes 4g..4g+3: the 16 bytes of row g, halves 2t and 2t + 1 the little-endian word
		 * at byte 4t */
		for (unsigned m = 0; m < nm; m++)
			for (unsigned g = 0; g < 8; g++)
				memcpy(&v[m][4 * g], p[8 * m + g], 16);
	}
	write_d(x, d, nm, v, mask);
}

static inline void
puthalf(uint8_t *row, unsigned col, uint32_t h)
{
	row[2 * col] = (uint8_t)h;
	row[2 * col + 1] = (uint8_t)(h >> 8);
}

static void
ex_stsm(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned nm = d->aux;
	uint8_t *p[32];

	if (x->mlog)
		rows_log(x, d, mask, MKStore);
	if (row_ptrs(x, &d->src[0], 8 * nm, 1, p))
		return;
	for (unsigned m = 0; m < nm; m++) {
		const uint32_t *s = sim_tuple_src(x, &d->src[1], m);
		for (unsigned l = 0; l < WarpSize; l++) {
			unsigned g = l >> 2, t = l & 3;
			if (d->mod & LTrans) {
				puthalf(p[8 * m + 2 * t], g, s[l] & 0xffff);
				puthalf(p[8 * m + 2 * t + 1], g, s[l] >> 16);
			} else {
				puthalf(p[8 * m + g], 2 * t, s[l] & 0xffff);
				puthalf(p[8 * m + g], 2 * t + 1, s[l] >> 16);
			}
		}
	}
}

/* movmatrix: lane (g, t) receives M[2t][g], M[2t+1][g], where lane L holds M[L >> 2][2 (L & 3)
 * + {0, 1}] */
static void
ex_movm(Exec *x, const DIns *d, uint32_t mask)
{
	const uint32_t *a = sim_tuple_src(x, &d->src[0], 0);
	uint32_t v[WarpSize];

	for (unsigned l = 0; l < WarpSize; l++) {
		unsigned g = l >> 2, t = l & 3, sh = 16 * (g & 1);
		v[l] = (a[8 * t + (g >> 1)] >> sh & 0xffff) | (a[8 * t + 4 + (g >> 1)] >> sh & 0xffff) << 16;
	}
	if (d->dst[0].reg == RegRZ)
		return;
	for (uint32_t mm = mask; mm; mm &= mm - 1)
		sim_vreg(x, &d->dst[0], 0)[(unsigned)__builtin_ctz(mm)] = v[(unsigned)__builtin_ctz(mm)];
}

/* LDSM.16.MT88.4 R4, [R8+0x1000]; STSM.16.M88.2 [R2+0x1000], R8; MOVM.16.MT88 R9, R5 */
static int
dec_ldsm(DecodeCtx *c, const Ins *i, DIns *d)
{
	int op = i->op, trans = -1, b16 = 0;
	unsigned nm = 1, k;
	const Opnd *p;
	DOp *o;

	for (k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		if (strcmp(s, "16") == 0 && !b16)
			b16 = 1;
		else if (strcmp(s, "M88") == 0 && trans < 0)
			trans = 0;
		else if (strcmp(s, "MT88") == 0 && trans < 0)
			trans = 1;
		else if ((strcmp(s, "2") == 0 || strcmp(s, "4") == 0) && op != OMOVM && nm == 1)
			nm = (unsigned)(s[0] - '0');
		else
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (!b16 || trans < 0 || (op == OMOVM && !trans))
		return sim_unsupported_why(c, i, "expected .16.M88 or .16.MT88");
	if (i->nopnd != 2)
		return sim_unsupported_why(c, i, "expected two operands");
	d->aux = nm;
	d->mod = trans ? LTrans : 0;
	if (op == OMOVM) {
		if (sim_reg_opnd(c, i, 0, RR, 1, &d->dst[0]) || sim_reg_opnd(c, i, 1, RR, 1, &d->src[0]))
			return -1;
		d->ndst = d->nsrc = 1;
		d->exec = ex_movm;
		c->split_ok = 1;
		return 0;
	}
	k = op == OLDSM ? 1 : 0;
	p = &i->opnd[k];
	if (p->kind != OMem)
		return sim_unsupported_why(c, i, "expected a shared-memory address");
	o = &d->src[0];
	memset(o, 0, sizeof *o);
	o->kind = DMem;
	o->reg = RegRZ;
	o->ureg = RegURZ;
	o->imm = p->imm;
	for (int f = 0; f < 2; f++) {
		if (((RCLS(p->r[f]) == RR && RNUM(p->r[f]) != RegRZ) || RCLS(p->r[f]) == RV) &&
		    !p->sfx[f]) {
			o->reg = (uint16_t)RNUM(p->r[f]);
			if (RCLS(p->r[f]) == RV)
				o->flags |= DFVreg;
		} else if (RCLS(p->r[f]) == RUR && RNUM(p->r[f]) != RegURZ) {
			o->ureg = (uint16_t)RNUM(p->r[f]);
			o->flags |= DFUreg;
		} else if (p->r[f] != RNone && !reg_isconst(p->r[f])) {
			return sim_unsupported_why(c, i, "unexpected address register");
		}
	}
	if (op == OLDSM) {
		if (sim_reg_opnd(c, i, 0, RR, nm, &d->dst[0]))
			return -1;
		d->ndst = 1;
		d->nsrc = 1;
		d->exec = ex_ldsm;
	} else {
		if (sim_reg_opnd(c, i, 1, RR, nm, &d->src[1]))
			return -1;
		d->ndst = 0;
		d->nsrc = 2;
		d->exec = ex_stsm;
	}
	c->split_ok = 1;
	return 0;
}

void
sim_register_tensor(SimTab *t)
{
	t->dec[OHMMA] = dec_mma;
	t->dec[OIMMA] = dec_mma;
	t->dec[OBMMA] = dec_mma;
	t->dec[ODMMA] = dec_mma;
	t->dec[OQMMA] = dec_mma;
	t->dec[OLDSM] = dec_ldsm;
	t->dec[OSTSM] = dec_ldsm;
	t->dec[OMOVM] = dec_ldsm;
}
