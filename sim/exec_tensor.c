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

#include "fp.h"
#include "sim.h"

static const uint32_t zeros[WarpSize];

/* lane values of R<r>; RZ reads 0 */
static inline const uint32_t *
rreg(Exec *x, unsigned r)
{
	return r == RegRZ ? zeros : sim_reg(x, r);
}

/* register k of operand o (RZ stays RZ) */
static inline const uint32_t *
oreg(Exec *x, const DOp *o, unsigned k)
{
	return o->reg == RegRZ ? zeros : sim_reg(x, o->reg + k);
}

/* operand k is a general register covering n registers */
static int
reg_opnd(DecodeCtx *c, const Ins *i, unsigned k, unsigned n, DOp *o)
{
	const Opnd *p;

	if (k >= i->nopnd)
		return sim_unsupported_why(c, i, "missing operand");
	p = &i->opnd[k];
	if (p->kind != OReg || RCLS(p->r[0]) != RR)
		return sim_unsupported_why(c, i, "expected a general register");
	memset(o, 0, sizeof *o);
	o->kind = DR;
	o->reg = (uint16_t)RNUM(p->r[0]);
	o->n = (uint8_t)n;
	if (o->reg != RegRZ && o->reg + n > RegRZ)
		return sim_unsupported_why(c, i, "register range past R254");
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Element conversions.
 */
/* IEEE half to double, exactly (bit manipulation: this is on the HMMA fast path) */
static inline double
h2d(uint32_t h)
{
	uint32_t sgn = (h & 0x8000) << 16, mag = (h & 0x7fff) << 13;

	if (mag >= 0x0f800000u)       /* Inf, NaN */
		return f32_of(sgn | 0x7f800000u | (mag & 0x007fe000u));
	/* the magnitude bits as a binary32 are the value times 2^-112 (normal or subnormal);
	 * the product is exact */
	return f32_of(f32_bits(f32_of(mag) * 0x1p112f) | sgn);
}


/* ---------------------------------------------------------------------------------------------
 * MMA: HMMA, IMMA, BMMA, DMMA. dst[0] D, src[0] A, src[1] B, src[2] C (RZ: zero).
 * aux: M | N << 8 | K << 16; mod: the operand types and flags below.
 */
enum ElemType {
	EF16, EBF16, ETF32, ES8, EU8, ES4, EU4, EB1, EF64, EF32, ES32, EE4M3, EE5M2, NElem
};

static const struct { const char *name; uint8_t bits; } elems[NElem] = {
	[EF16] = {"F16", 16}, [EBF16] = {"BF16", 16}, [ETF32] = {"TF32", 32}, [ES8] = {"S8", 8},
	[EU8] = {"U8", 8}, [ES4] = {"S4", 4}, [EU4] = {"U4", 4}, [EB1] = {"B1", 1},
	[EF64] = {"F64", 64}, [EF32] = {"F32", 32}, [ES32] = {"S32", 32}, [EE4M3] = {"E4M3", 8},
	[EE5M2] = {"E5M2", 8},
};

/* mod: A type bits 0..3, B type bits 4..7, accumulator type bits 8..11, flags above */
enum {
	MSat = 1 << 12,        /* IMMA .SAT: clamp to int32 */
	MXor = 1 << 13,        /* BMMA .XOR.POPC (else .AND.POPC) */
};

#define ATY(d) ((d)->mod & 15)
#define BTY(d) ((d)->mod >> 4 & 15)
#define CTY(d) ((d)->mod >> 8 & 15)

enum { MaxM = 16, MaxN = 8, MaxK = 256 };

/* element e (bits wide) of register word w, sign-extended for signed types */
static inline int32_t
ielem(uint32_t w, unsigned ty, unsigned e)
{
	switch (ty) {
	case ES8: return (int8_t)(w >> 8 * e);
	case EU8: return (uint8_t)(w >> 8 * e);
	case ES4: return (int32_t)(w << (28 - 4 * e)) >> 28;
	default: return (int32_t)(w >> 4 * e & 15);
	}
}

static inline double
felem(uint32_t w, unsigned ty, unsigned e)
{
	switch (ty) {
	case EF16: return h2d(w >> 16 * e & 0xffff);
	case EBF16: return f32_of((w >> 16 * e & 0xffff) << 16);
	case EE4M3: return fp_to_f64(FpE4M3, w >> 8 * e & 0xff);
	case EE5M2: return fp_to_f64(FpE5M2, w >> 8 * e & 0xff);
	default: return f32_of(w & 0xffffe000u);   /* tf32: the top 19 bits */
	}
}

/* row of A register i of lane group g (M rows) */
static inline unsigned
arow(unsigned M, unsigned i, unsigned g)
{
	return M == 16 ? g + 8 * (i & 1) : g;
}

/* first column of A register i for thread t, in elements of epr per register */
static inline unsigned
acol(unsigned M, unsigned i, unsigned t, unsigned epr)
{
	return ((M == 16 ? i >> 1 : i) * 4 + t) * epr;
}

/* row and column of the 32-bit accumulator register i of lane (g, t) */
static inline unsigned
crow(unsigned M, unsigned i, unsigned g)
{
	return M == 16 ? g + 8 * (i >> 1) : g;
}

static inline unsigned
ccol(unsigned i, unsigned t)
{
	return 2 * t + (i & 1);
}

/* the accumulator C of the 32-bit types (raw words) into c[M][N] */
static inline __attribute__((always_inline)) void
gather_c32(Exec *x, const DIns *d, unsigned M, uint32_t c[MaxM][MaxN])
{
	unsigned nc = M * 8 / 32;

	for (unsigned i = 0; i < nc; i++) {
		const uint32_t *r = oreg(x, &d->src[2], i);
		for (unsigned l = 0; l < WarpSize; l++)
			c[crow(M, i, l >> 2)][ccol(i, l & 3)] = r[l];
	}
}

/* write D (raw 32-bit words dv[M][N]) to the executing lanes */
static inline __attribute__((always_inline)) void
scatter_d32(Exec *x, const DIns *d, unsigned M, uint32_t dv[MaxM][MaxN], uint32_t mask)
{
	unsigned nd = M * 8 / 32, r = d->dst[0].reg;

	if (r == RegRZ)
		return;
	for (unsigned i = 0; i < nd; i++) {
		uint32_t *o = sim_reg(x, r + i);
		if (mask == ~0u) {
			for (unsigned l = 0; l < WarpSize; l++)
				o[l] = dv[crow(M, i, l >> 2)][ccol(i, l & 3)];
			continue;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			o[l] = dv[crow(M, i, l >> 2)][ccol(i, l & 3)];
		}
	}
}

/* the A (rows = M) or B (rows = N, the fragment of B^T) operand of an HMMA/QMMA: nreg
 * registers from o, elements of type ty (a constant after inlining) into x[row][k] */
static inline __attribute__((always_inline)) void
gather_f(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, double (*v)[32])
{
	unsigned epr = 32 / elems[ty].bits;

	for (unsigned i = 0; i < nreg; i++) {
		const uint32_t *r = oreg(x, o, i);
		for (unsigned l = 0; l < WarpSize; l++) {
			double *p = &v[arow(M, i, l >> 2)][acol(M, i, l & 3, epr)];
			for (unsigned e = 0; e < epr; e++)
				p[e] = felem(r[l], ty, e);
		}
	}
}

static void
gather_any(Exec *x, const DOp *o, unsigned M, unsigned nreg, unsigned ty, double (*v)[32])
{
	/* the common shapes with M and nreg constants: fixed index arithmetic, unrolled loops */
	if (ty == EF16 && M == 16 && nreg == 4)
		gather_f(x, o, 16, 4, EF16, v);
	else if (ty == EF16 && M == 8 && nreg == 2)
		gather_f(x, o, 8, 2, EF16, v);
	else if (ty == EF16 && M == 16 && nreg == 2)
		gather_f(x, o, 16, 2, EF16, v);
	else if (ty == EF16 && M == 8 && nreg == 1)
		gather_f(x, o, 8, 1, EF16, v);
	else if (ty == EBF16 && M == 16 && nreg == 4)
		gather_f(x, o, 16, 4, EBF16, v);
	else if (ty == EBF16 && M == 8 && nreg == 2)
		gather_f(x, o, 8, 2, EBF16, v);
	else switch (ty) {
	case EF16: gather_f(x, o, M, nreg, EF16, v); break;
	case EBF16: gather_f(x, o, M, nreg, EBF16, v); break;
	case ETF32: gather_f(x, o, M, nreg, ETF32, v); break;
	default: gather_f(x, o, M, nreg, ty, v); break;
	}
}

/* two doubles side by side (SSE2): each lane an independent IEEE sum, as the scalar code */
typedef double V2d __attribute__((vector_size(16)));

static void
ex_hmma(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, aty = ATY(d), bty = BTY(d);
	unsigned epr = 32 / elems[aty].bits, na = M * K / (32 * epr), nb = 8 * K / (32 * epr);
	double a[MaxM][32], bt[MaxN][32], b[32][MaxN], c[MaxM][MaxN];
	uint32_t dv[MaxM][MaxN];

	/* B is gathered transposed (row n = column n of B): its fragment is A's with M = 8 */
	gather_any(x, &d->src[0], M, na, aty, a);
	gather_any(x, &d->src[1], 8, nb, bty, bt);
	if (CTY(d) == EF32) {
		uint32_t cw[MaxM][MaxN];
		if (M == 16)
			gather_c32(x, d, 16, cw);
		else
			gather_c32(x, d, M, cw);
		for (unsigned m = 0; m < M; m++)
			for (unsigned n = 0; n < 8; n++)
				c[m][n] = f32_of(cw[m][n]);
	} else {
		for (unsigned i = 0; i < 2; i++) {
			const uint32_t *r = oreg(x, &d->src[2], i);
			for (unsigned l = 0; l < WarpSize; l++)
				for (unsigned e = 0; e < 2; e++)
					c[(l >> 2) + 8 * i][2 * (l & 3) + e] = h2d(r[l] >> 16 * e & 0xffff);
		}
	}
	/* B row-major (b[k][n]): the eight column sums of a row of D are one vector */
	for (unsigned k = 0; k < K; k++)
		for (unsigned n = 0; n < MaxN; n++)
			b[k][n] = bt[n][k];
	for (unsigned m = 0; m < M; m++) {
		/* each element: the products in ascending k, then C; the eight columns are eight
		 * independent sums, side by side */
		V2d s01 = {0, 0}, s23 = {0, 0}, s45 = {0, 0}, s67 = {0, 0}, bk;
		double s[MaxN];
		for (unsigned k = 0; k < K; k++) {
			V2d av = {a[m][k], a[m][k]};
			memcpy(&bk, &b[k][0], sizeof bk);
			s01 += av * bk;
			memcpy(&bk, &b[k][2], sizeof bk);
			s23 += av * bk;
			memcpy(&bk, &b[k][4], sizeof bk);
			s45 += av * bk;
			memcpy(&bk, &b[k][6], sizeof bk);
			s67 += av * bk;
		}
		memcpy(&s[0], &s01, sizeof s01);
		memcpy(&s[2], &s23, sizeof s23);
		memcpy(&s[4], &s45, sizeof s45);
		memcpy(&s[6], &s67, sizeof s67);
		for (unsigned n = 0; n < MaxN; n++) {
			double v = s[n] + c[m][n];
			if (CTY(d) == EF32)
				dv[m][n] = isnan(v) ? F32_CNAN : f32_bits((float)v);
			else
				dv[m][n] = (uint32_t)fp_from_f64(FpF16, v, RmRN, 0);
		}
	}
	if (CTY(d) == EF32) {
		if (M == 16)
			scatter_d32(x, d, 16, dv, mask);
		else
			scatter_d32(x, d, M, dv, mask);
		return;
	}
	if (d->dst[0].reg == RegRZ)
		return;
	for (unsigned i = 0; i < 2; i++) {
		uint32_t *o = sim_reg(x, d->dst[0].reg + i);
		for (uint32_t mm = mask; mm; mm &= mm - 1) {
			unsigned l = (unsigned)__builtin_ctz(mm), g = l >> 2, t = l & 3;
			o[l] = dv[g + 8 * i][2 * t] | dv[g + 8 * i][2 * t + 1] << 16;
		}
	}
}

static void
ex_imma(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, aty = ATY(d), bty = BTY(d);
	unsigned epr = 32 / elems[aty].bits, na = M * K / (32 * epr), nb = 8 * K / (32 * epr);
	int32_t a[MaxM][64], b[64][MaxN];
	uint32_t c[MaxM][MaxN], dv[MaxM][MaxN];

	for (unsigned i = 0; i < na; i++) {
		const uint32_t *r = oreg(x, &d->src[0], i);
		for (unsigned l = 0; l < WarpSize; l++)
			for (unsigned e = 0; e < epr; e++)
				a[arow(M, i, l >> 2)][acol(M, i, l & 3, epr) + e] = ielem(r[l], aty, e);
	}
	for (unsigned j = 0; j < nb; j++) {
		const uint32_t *r = oreg(x, &d->src[1], j);
		for (unsigned l = 0; l < WarpSize; l++)
			for (unsigned e = 0; e < epr; e++)
				b[(j * 4 + (l & 3)) * epr + e][l >> 2] = ielem(r[l], bty, e);
	}
	gather_c32(x, d, M, c);
	for (unsigned m = 0; m < M; m++) {
		int64_t acc[MaxN];
		for (unsigned n = 0; n < MaxN; n++)
			acc[n] = (int32_t)c[m][n];
		for (unsigned k = 0; k < K; k++)
			for (unsigned n = 0; n < MaxN; n++)
				acc[n] += a[m][k] * b[k][n];   /* |a b| <= 2^15: exact in int32 */
		for (unsigned n = 0; n < MaxN; n++) {
			int64_t v = acc[n];
			if (d->mod & MSat)
				v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
			dv[m][n] = (uint32_t)v;
		}
	}
	scatter_d32(x, d, M, dv, mask);
}

static void
ex_bmma(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, na = M * K / 1024, nb = 8 * K / 1024;
	uint32_t a[MaxM][MaxK / 32], b[MaxN][MaxK / 32], c[MaxM][MaxN], dv[MaxM][MaxN];

	for (unsigned i = 0; i < na; i++) {
		const uint32_t *r = oreg(x, &d->src[0], i);
		for (unsigned l = 0; l < WarpSize; l++)
			a[arow(M, i, l >> 2)][acol(M, i, l & 3, 1)] = r[l];
	}
	for (unsigned j = 0; j < nb; j++) {
		const uint32_t *r = oreg(x, &d->src[1], j);
		for (unsigned l = 0; l < WarpSize; l++)
			b[l >> 2][j * 4 + (l & 3)] = r[l];
	}
	gather_c32(x, d, M, c);
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < 8; n++) {
			uint32_t s = c[m][n];
			for (unsigned w = 0; w < K / 32; w++)
				s += sim_popc(d->mod & MXor ? a[m][w] ^ b[n][w] :
				                                                  a[m][w] & b[n][w]);
			dv[m][n] = s;
		}
	scatter_d32(x, d, M, dv, mask);
}

static void
ex_dmma(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned M = d->aux & 0xff, K = d->aux >> 16, na = M * K / 32, nb = 8 * K / 32;
	unsigned nc = M * 8 / 32, r = d->dst[0].reg;
	double a[MaxM][16], b[16][MaxN], c[MaxM][MaxN];

	for (unsigned i = 0; i < na; i++) {
		const uint32_t *lo = oreg(x, &d->src[0], 2 * i), *hi = oreg(x, &d->src[0], 2 * i + 1);
		for (unsigned l = 0; l < WarpSize; l++)
			a[arow(M, i, l >> 2)][(l & 3) + 4 * (M == 16 ? i >> 1 : i)] =
			    f64_of(lo[l] | (uint64_t)hi[l] << 32);
	}
	for (unsigned j = 0; j < nb; j++) {
		const uint32_t *lo = oreg(x, &d->src[1], 2 * j), *hi = oreg(x, &d->src[1], 2 * j + 1);
		for (unsigned l = 0; l < WarpSize; l++)
			b[(l & 3) + 4 * j][l >> 2] = f64_of(lo[l] | (uint64_t)hi[l] << 32);
	}
	for (unsigned i = 0; i < nc; i++) {
		const uint32_t *lo = oreg(x, &d->src[2], 2 * i), *hi = oreg(x, &d->src[2], 2 * i + 1);
		for (unsigned l = 0; l < WarpSize; l++)
			c[crow(M, i, l >> 2)][ccol(i, l & 3)] = f64_of(lo[l] | (uint64_t)hi[l] << 32);
	}
	for (unsigned m = 0; m < M; m++)
		for (unsigned n = 0; n < 8; n++) {
			double s = c[m][n];
			for (unsigned k = 0; k < K; k++)
				s = fma(a[m][k], b[k][n], s);
			c[m][n] = s;
		}
	if (r == RegRZ)
		return;
	for (unsigned i = 0; i < nc; i++) {
		uint32_t *lo = sim_reg(x, r + 2 * i), *hi = sim_reg(x, r + 2 * i + 1);
		for (uint32_t mm = mask; mm; mm &= mm - 1) {
			unsigned l = (unsigned)__builtin_ctz(mm);
			uint64_t v = f64_bits(c[crow(M, i, l >> 2)][ccol(i, l & 3)]);
			if (f64_isnan(v))
				v = F64_CNAN;
			lo[l] = (uint32_t)v;
			hi[l] = (uint32_t)(v >> 32);
		}
	}
}

/* shape modifier "16816" or "16x8x16" into M, N, K; 0 if it is not a shape of the family */
static int
shapeof(const char *s, int op, unsigned *M, unsigned *N, unsigned *K)
{
	static const struct { const char *name; uint16_t m, n, k; int op; } t[] = {
		{"16816", 16, 8, 16, OHMMA}, {"1688", 16, 8, 8, OHMMA}, {"1684", 16, 8, 4, OHMMA},
		{"8816", 8, 8, 16, OIMMA}, {"16816", 16, 8, 16, OIMMA}, {"16832", 16, 8, 32, OIMMA},
		{"8832", 8, 8, 32, OIMMA}, {"16864", 16, 8, 64, OIMMA}, {"88128", 8, 8, 128, OBMMA},
		{"168128", 16, 8, 128, OBMMA}, {"168256", 16, 8, 256, OBMMA}, {"884", 8, 8, 4, ODMMA},
		{"16832", 16, 8, 32, OQMMA}, {"16816", 16, 8, 16, OQMMA},
	};
	unsigned a, b, c;
	int len = 0;

	for (unsigned k = 0; k < sizeof t / sizeof t[0]; k++)
		if (t[k].op == op && strcmp(s, t[k].name) == 0) {
			*M = t[k].m;
			*N = t[k].n;
			*K = t[k].k;
			return 1;
		}
	if (sscanf(s, "%ux%ux%u%n", &a, &b, &c, &len) == 3 && s[len] == 0) {
		*M = a;
		*N = b;
		*K = c;
		return 1;
	}
	return 0;
}

static int
elemof(const char *s)
{
	for (int k = 0; k < NElem; k++)
		if (strcmp(s, elems[k].name) == 0)
			return k;
	return -1;
}

/* HMMA.16816.F32.BF16 R16, R12, R6, R16; IMMA.16832.U8.S8.SAT R16, R12.ROW, R6.COL, R16;
 * BMMA.168256.AND.POPC ...; DMMA.884 R20, R18, R24, R20 */
static int
dec_mma(DecodeCtx *c, const Ins *i, DIns *d)
{
	int op = i->op, types[3], nt = 0, popc = 0, bop = -1;
	unsigned M = 0, N = 0, K = 0, aty, bty, cty, epr, na, nb, ncd, nc;
	uint32_t flags = 0;
	int shaped = 0;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		int e;
		if (!shaped && shapeof(s, op, &M, &N, &K))
			shaped = 1;
		else if ((e = elemof(s)) >= 0 && nt < 3)
			types[nt++] = e;
		else if (op == OIMMA && strcmp(s, "SAT") == 0)
			flags |= MSat;
		else if (op == OBMMA && (strcmp(s, "AND") == 0 || strcmp(s, "XOR") == 0))
			bop = s[0] == 'X';
		else if (op == OBMMA && strcmp(s, "POPC") == 0)
			popc = 1;
		else
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (!shaped)
		return sim_unsupported_why(c, i, "unknown shape");
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
		    elems[types[0]].bits != elems[types[1]].bits)
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
	if ((op == OIMMA || op == OBMMA || op == OQMMA) && K * elems[aty].bits != 128 &&
	    !(M == 16 && K * elems[aty].bits == 256))
		return sim_unsupported_why(c, i, "shape and types do not match");
	epr = 32 / elems[aty].bits;
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
	if (i->nopnd != 4 || reg_opnd(c, i, 0, ncd, &d->dst[0]) || reg_opnd(c, i, 1, na, &d->src[0]) ||
	    reg_opnd(c, i, 2, nb, &d->src[1]) || reg_opnd(c, i, 3, ncd, &d->src[2]))
		return i->nopnd != 4 ? sim_unsupported_why(c, i, "expected D, A, B, C") : -1;
	d->ndst = 1;
	d->nsrc = 3;
	d->aux = M | N << 8 | K << 16;
	d->mod = aty | bty << 4 | cty << 8 | flags;
	d->exec = op == OHMMA || op == OQMMA ? ex_hmma : op == OIMMA ? ex_imma :
	          op == OBMMA ? ex_bmma : ex_dmma;
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

/* the shared address of lane for [R + UR + imm] (dop fields: reg, ureg, imm) */
static inline uint32_t
saddr(Exec *x, const DOp *o, unsigned lane)
{
	uint32_t a = (uint32_t)o->imm;

	if (o->reg != RegRZ)
		a += sim_reg(x, o->reg)[lane];
	if (o->ureg != RegURZ)
		a += x->w->ur[o->ureg];
	return a;
}

/* the 16 bytes of each row of the matrices, rows[8m + r]; -1 after a fault */
static int
row_ptrs(Exec *x, const DOp *o, unsigned nrow, int write, uint8_t *p[32])
{
	for (unsigned r = 0; r < nrow; r++) {
		uint32_t a = saddr(x, o, r);
		if (a & 15) {
			sim_fault(x, FaultMisaligned, r,
			          "misaligned matrix row address 0x%x (16-byte rows) in shared memory", a);
			return -1;
		}
		if (!(p[r] = sim_shared(x, a, 16, r, write)))
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
	uint64_t a[WarpSize];

	if (!mask)
		return;
	for (unsigned r = 0; r < nrow; r++)
		a[r] = saddr(x, &d->src[0], r);
	sim_mlog(x, MSShared, kind, 16, 0, nrow >= WarpSize ? ~0u : (1u << nrow) - 1, a);
}

static inline uint32_t
half(const uint8_t *row, unsigned col)
{
	return (uint32_t)row[2 * col] | (uint32_t)row[2 * col + 1] << 8;
}

static void
ex_ldsm(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned nm = d->aux, r = d->dst[0].reg;
	uint8_t *p[32];
	uint32_t v[4][WarpSize];

	if (x->mlog)
		rows_log(x, d, mask, MKLoad);
	if (row_ptrs(x, &d->src[0], 8 * nm, 0, p))
		return;
	if (d->mod & LTrans) {
		for (unsigned m = 0; m < nm; m++)
			for (unsigned l = 0; l < WarpSize; l++) {
				unsigned g = l >> 2, t = l & 3;
				v[m][l] = half(p[8 * m + 2 * t], g) | half(p[8 * m + 2 * t + 1], g) << 16;
			}
	} else {
		/* halves 2t and 2t+1 of row g: the little-endian word at byte 4t */
		for (unsigned m = 0; m < nm; m++)
			for (unsigned l = 0; l < WarpSize; l++)
				memcpy(&v[m][l], p[8 * m + (l >> 2)] + 4 * (l & 3), 4);
	}
	if (r == RegRZ)
		return;
	for (unsigned m = 0; m < nm; m++) {
		uint32_t *o = sim_reg(x, r + m);
		if (mask == ~0u) {
			memcpy(o, v[m], sizeof v[m]);
			continue;
		}
		for (uint32_t mm = mask; mm; mm &= mm - 1)
			o[(unsigned)__builtin_ctz(mm)] = v[m][(unsigned)__builtin_ctz(mm)];
	}
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
		const uint32_t *s = oreg(x, &d->src[1], m);
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
	const uint32_t *a = oreg(x, &d->src[0], 0);
	uint32_t v[WarpSize];

	for (unsigned l = 0; l < WarpSize; l++) {
		unsigned g = l >> 2, t = l & 3, sh = 16 * (g & 1);
		v[l] = (a[8 * t + (g >> 1)] >> sh & 0xffff) | (a[8 * t + 4 + (g >> 1)] >> sh & 0xffff) << 16;
	}
	if (d->dst[0].reg == RegRZ)
		return;
	for (uint32_t mm = mask; mm; mm &= mm - 1)
		sim_reg(x, d->dst[0].reg)[(unsigned)__builtin_ctz(mm)] = v[(unsigned)__builtin_ctz(mm)];
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
		if (reg_opnd(c, i, 0, 1, &d->dst[0]) || reg_opnd(c, i, 1, 1, &d->src[0]))
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
		if (RCLS(p->r[f]) == RR && RNUM(p->r[f]) != RegRZ && !p->sfx[f]) {
			o->reg = (uint16_t)RNUM(p->r[f]);
		} else if (RCLS(p->r[f]) == RUR && RNUM(p->r[f]) != RegURZ) {
			o->ureg = (uint16_t)RNUM(p->r[f]);
			o->flags |= DFUreg;
		} else if (p->r[f] != RNone && !reg_isconst(p->r[f])) {
			return sim_unsupported_why(c, i, "unexpected address register");
		}
	}
	if (op == OLDSM) {
		if (reg_opnd(c, i, 0, nm, &d->dst[0]))
			return -1;
		d->ndst = 1;
		d->nsrc = 1;
		d->exec = ex_ldsm;
	} else {
		if (reg_opnd(c, i, 1, nm, &d->src[1]))
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
