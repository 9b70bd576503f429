/* check_simtensor.c: tests of sim/exec_tensor.c (HMMA, IMMA, BMMA, DMMA, LDSM, STSM, MOVM) and
 * sim/exec_warp.c (SHFL, VOTE, VOTEU, MATCH, REDUX, ELECT), on the one-warp machine of
 * check_simmem.c. The mma tests place matrices into registers with the fragment tables of the
 * PTX ISA written out per shape below (element i of a thread's fragment: row and column), not
 * with the simulator's tile rule, and compare D with a plain triple loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ir.h"
#include "simcfg.h"

/* check_simmem.c */
typedef struct Smt Smt;
Smt *smt_new(const char *body, uint32_t smem, uint32_t frame);
int smt_decodes(const char *body);
void smt_free(Smt *t);
int smt_exec(Smt *t, unsigned k, uint32_t mask);
uint32_t *smt_r(Smt *t, unsigned r);
Warp *smt_warp(Smt *t);
uint8_t *smt_smem(Smt *t);

static uint32_t
f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float
u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* exact small values to half and bfloat16 (the tests use values these represent exactly) */
static uint16_t
f2h(float f)
{
	int e;
	float m;

	if (f == 0)
		return signbit(f) ? 0x8000 : 0;
	if (isinf(f))
		return f < 0 ? 0xfc00 : 0x7c00;
	m = frexpf(fabsf(f), &e);               /* f = m 2^e, m in [0.5, 1) */
	if (e - 1 < -14)                        /* subnormal: units of 2^-24 */
		return (uint16_t)((f < 0 ? 0x8000 : 0) | (uint16_t)ldexpf(fabsf(f), 24));
	return (uint16_t)((f < 0 ? 0x8000 : 0) | (e - 1 + 15) << 10 |
	                  ((uint32_t)ldexpf(m, 11) & 0x3ff));
}

static uint16_t
f2bf(float f)
{
	return (uint16_t)(f2u(f) >> 16);
}

/* ---------------------------------------------------------------------------------------------
 * PTX fragment tables: fragment element i of lane (g = lane >> 2, t = lane % 4) of operand
 * 'A', 'B' or 'C' (C and D), for each shape, as the ISA's "Matrix Fragments for mma.mMnNkK"
 * sections give them.
 */
typedef struct Frag {
	const char *name;      /* the shape and types */
	unsigned m, n, k;      /* shape */
	unsigned abits;        /* bits per A and B element */
	unsigned cbits;        /* bits per C and D element */
	void (*pos)(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col);
} Frag;

/* m16n8k16 .f16/.bf16 */
static void
pos_16816_h(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = (i == 0 || i == 1 || i == 4 || i == 5) ? g : g + 8;
		*col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
		break;
	case 'B':
		*row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m16n8k8 .f16/.bf16 */
static void
pos_1688_h(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
		break;
	case 'B':
		*row = t * 2 + i;
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m16n8k8 .tf32 */
static void
pos_1688_tf32(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i == 0 || i == 2 ? g : g + 8;
		*col = i < 2 ? t : t + 4;
		break;
	case 'B':
		*row = i == 0 ? t : t + 4;
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m16n8k4 .tf32 */
static void
pos_1684_tf32(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i == 0 ? g : g + 8;
		*col = t;
		break;
	case 'B':
		*row = t;
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m16n8k32 .s8/.u8 */
static void
pos_16832_i8(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i < 4 || (i >= 8 && i < 12) ? g : g + 8;
		*col = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
		break;
	case 'B':
		*row = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m16n8k16 .s8/.u8 */
static void
pos_16816_i8(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i < 4 ? g : g + 8;
		*col = t * 4 + (i & 3);
		break;
	case 'B':
		*row = t * 4 + i;
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m8n8k16 .s8/.u8 */
static void
pos_8816_i8(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = g;
		*col = t * 4 + i;
		break;
	case 'B':
		*row = t * 4 + i;
		*col = g;
		break;
	default:
		*row = g;
		*col = t * 2 + i;
	}
}

/* m16n8k64 .s4/.u4 */
static void
pos_16864_i4(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i < 8 || (i >= 16 && i < 24) ? g : g + 8;
		*col = t * 8 + (i & 7) + (i >= 16 ? 32 : 0);
		break;
	case 'B':
		*row = t * 8 + (i & 7) + (i >= 8 ? 32 : 0);
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m8n8k32 .s4/.u4 */
static void
pos_8832_i4(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = g;
		*col = t * 8 + i;
		break;
	case 'B':
		*row = t * 8 + i;
		*col = g;
		break;
	default:
		*row = g;
		*col = t * 2 + i;
	}
}

/* m8n8k128 .b1 */
static void
pos_88128_b1(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = g;
		*col = t * 32 + i;
		break;
	case 'B':
		*row = t * 32 + i;
		*col = g;
		break;
	default:
		*row = g;
		*col = t * 2 + i;
	}
}

/* m16n8k256 .b1 */
static void
pos_168256_b1(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = i < 32 || (i >= 64 && i < 96) ? g : g + 8;
		*col = t * 32 + (i & 31) + (i >= 64 ? 128 : 0);
		break;
	case 'B':
		*row = t * 32 + (i & 31) + (i >= 32 ? 128 : 0);
		*col = g;
		break;
	default:
		*row = i < 2 ? g : g + 8;
		*col = t * 2 + (i & 1);
	}
}

/* m8n8k4 .f64 */
static void
pos_884_f64(int op, unsigned g, unsigned t, unsigned i, unsigned *row, unsigned *col)
{
	switch (op) {
	case 'A':
		*row = g;
		*col = t;
		break;
	case 'B':
		*row = t;
		*col = g;
		break;
	default:
		*row = g;
		*col = t * 2 + i;
	}
}

/* place element bits v (bits wide) as fragment element i of lane l, registers from r */
static void
put_elem(Smt *t, unsigned r, unsigned l, unsigned i, unsigned bits, uint64_t v)
{
	unsigned bit = i * bits;

	if (bits == 64) {
		smt_r(t, r + 2 * i)[l] = (uint32_t)v;
		smt_r(t, r + 2 * i + 1)[l] = (uint32_t)(v >> 32);
		return;
	}
	smt_r(t, r + bit / 32)[l] &= ~((bits == 32 ? ~0u : (1u << bits) - 1) << bit % 32);
	smt_r(t, r + bit / 32)[l] |= (uint32_t)v << bit % 32;
}

static uint64_t
get_elem(Smt *t, unsigned r, unsigned l, unsigned i, unsigned bits)
{
	unsigned bit = i * bits;

	if (bits == 64)
		return smt_r(t, r + 2 * i)[l] | (uint64_t)smt_r(t, r + 2 * i + 1)[l] << 32;
	return smt_r(t, r + bit / 32)[l] >> bit % 32 & (bits == 32 ? ~0u : (1u << bits) - 1);
}

/* distribute the M x K matrix a (op 'A'), K x N b ('B') or M x N c ('C') in element bits
 * (enc(value) gives them) over the registers from r */
static void
place(Smt *t, const Frag *f, int op, unsigned r, const double *mat, uint64_t (*enc)(double))
{
	unsigned rows = op == 'B' ? f->k : f->m, cols = op == 'A' ? f->k : f->n;
	unsigned bits = op == 'C' ? f->cbits : f->abits, nel = rows * cols / 32;

	for (unsigned l = 0; l < WarpSize; l++)
		for (unsigned i = 0; i < nel; i++) {
			unsigned row, col;
			f->pos(op, l >> 2, l & 3, i, &row, &col);
			ck_assert(row < rows && col < cols);
			put_elem(t, r, l, i, bits, enc(mat[row * cols + col]));
		}
}

static uint64_t enc_f16(double v) { return f2h((float)v); }
static uint64_t enc_bf16(double v) { return f2bf((float)v); }
static uint64_t enc_f32(double v) { return f2u((float)v); }
static uint64_t enc_i(double v) { return (uint64_t)(int64_t)v; }
static uint64_t enc_f64(double v) { uint64_t u; memcpy(&u, &v, 8); return u; }
/* fp8 of the exact test values: e4m3 (bias 7), e5m2 (bias 15) */
static uint64_t
enc_fp8(double v, int mbits, int bias)
{
	int e;
	double m;
	uint64_t s = v < 0 ? 0x80 : 0;

	if (v == 0)
		return s;
	m = frexp(fabs(v), &e);                 /* |v| = m 2^e, m in [0.5, 1) */
	return s | (uint64_t)(e - 1 + bias) << mbits | ((uint64_t)ldexp(m, mbits + 1) & ((1u << mbits) - 1));
}
static uint64_t enc_e4m3(double v) { return enc_fp8(v, 3, 7); }
static uint64_t enc_e5m2(double v) { return enc_fp8(v, 2, 15); }
/* tf32: an fp32 value whose 13 low bits the tensor core must ignore */
static uint64_t enc_tf32(double v) { return f2u((float)v) | 0x1555; }

static double
dec_f16(uint64_t h)
{
	int e = (int)(h >> 10 & 0x1f);
	double m = (double)(h & 0x3ff);
	double v = e ? ldexp(m + 1024, e - 25) : ldexp(m, -24);

	return h & 0x8000 ? -v : v;
}

typedef struct MmaCase {
	const char *ins;       /* the instruction: D = R4.., A = R20.., B = R40.., C = R60.. or RZ */
	Frag f;
	uint64_t (*enca)(double);
	uint64_t (*encc)(double);
	int sgn_a, sgn_b;      /* integer types: signed */
	int kind;              /* 0 float, 1 int, 2 b1 xor, 3 b1 and */
	int sat;               /* IMMA .SAT */
	uint64_t (*encb)(double); /* B when it differs from A (else NULL) */
} MmaCase;

static const MmaCase mma_cases[] = {
	{"HMMA.16816.F32 R4, R20, R40, R60 ;", {"16816.f32.f16", 16, 8, 16, 16, 32, pos_16816_h},
	 enc_f16, enc_f32, 0, 0, 0, 0, NULL},
	{"HMMA.16816.F16 R4, R20.reuse, R40, R60 ;", {"16816.f16.f16", 16, 8, 16, 16, 16, pos_16816_h},
	 enc_f16, enc_f16, 0, 0, 0, 0, NULL},
	{"HMMA.16816.F32.BF16 R4, R20, R40, R60 ;", {"16816.f32.bf16", 16, 8, 16, 16, 32, pos_16816_h},
	 enc_bf16, enc_f32, 0, 0, 0, 0, NULL},
	{"HMMA.1688.F32 R4, R20, R40, R60 ;", {"1688.f32.f16", 16, 8, 8, 16, 32, pos_1688_h},
	 enc_f16, enc_f32, 0, 0, 0, 0, NULL},
	{"HMMA.1688.F16 R4, R20, R40, R60 ;", {"1688.f16.f16", 16, 8, 8, 16, 16, pos_1688_h},
	 enc_f16, enc_f16, 0, 0, 0, 0, NULL},
	{"HMMA.1688.F32.BF16 R4, R20, R40, R60 ;", {"1688.f32.bf16", 16, 8, 8, 16, 32, pos_1688_h},
	 enc_bf16, enc_f32, 0, 0, 0, 0, NULL},
	{"HMMA.1688.F32.TF32 R4, R20, R40, R60 ;", {"1688.f32.tf32", 16, 8, 8, 32, 32, pos_1688_tf32},
	 enc_tf32, enc_f32, 0, 0, 0, 0, NULL},
	{"HMMA.1684.F32.TF32 R4, R20, R40, R60 ;", {"1684.f32.tf32", 16, 8, 4, 32, 32, pos_1684_tf32},
	 enc_tf32, enc_f32, 0, 0, 0, 0, NULL},
	{"IMMA.16832.S8.S8 R4, R20.ROW, R40.COL, R60 ;", {"16832.s8", 16, 8, 32, 8, 32, pos_16832_i8},
	 enc_i, enc_i, 1, 1, 1, 0, NULL},
	{"IMMA.16832.U8.S8.SAT R4, R20.ROW, R40.COL, R60 ;", {"16832.u8s8", 16, 8, 32, 8, 32,
	 pos_16832_i8}, enc_i, enc_i, 0, 1, 1, 1, NULL},
	{"IMMA.16816.U8.U8 R4, R20.ROW, R40.COL, R60 ;", {"16816.u8", 16, 8, 16, 8, 32, pos_16816_i8},
	 enc_i, enc_i, 0, 0, 1, 0, NULL},
	{"IMMA.8816.S8.S8 R4, R20.ROW, R40.COL, R60 ;", {"8816.s8", 8, 8, 16, 8, 32, pos_8816_i8},
	 enc_i, enc_i, 1, 1, 1, 0, NULL},
	{"IMMA.16864.S4.S4 R4, R20.ROW, R40.COL, R60 ;", {"16864.s4", 16, 8, 64, 4, 32, pos_16864_i4},
	 enc_i, enc_i, 1, 1, 1, 0, NULL},
	{"IMMA.8832.U4.U4 R4, R20.ROW, R40.COL, R60 ;", {"8832.u4", 8, 8, 32, 4, 32, pos_8832_i4},
	 enc_i, enc_i, 0, 0, 1, 0, NULL},
	{"BMMA.88128.XOR.POPC R4, R20.ROW, R40.COL, R60 ;", {"88128.b1", 8, 8, 128, 1, 32,
	 pos_88128_b1}, enc_i, enc_i, 0, 0, 2, 0, NULL},
	{"BMMA.168256.AND.POPC R4, R20.ROW, R40.COL, R60 ;", {"168256.b1", 16, 8, 256, 1, 32,
	 pos_168256_b1}, enc_i, enc_i, 0, 0, 3, 0, NULL},
	{"DMMA.884 R4, R20, R40, R60 ;", {"884.f64", 8, 8, 4, 64, 64, pos_884_f64},
	 enc_f64, enc_f64, 0, 0, 0, 0, NULL},
	/* fp8 fragments are those of 8-bit integers */
	{"QMMA.16832.F32.E4M3.E4M3 R4, R20.ROW, R40.COL, R60 ;", {"16832.e4m3", 16, 8, 32, 8, 32,
	 pos_16832_i8}, enc_e4m3, enc_f32, 0, 0, 0, 0, NULL},
	{"QMMA.16832.F32.E5M2.E4M3 R4, R20.ROW, R40.COL, RZ ;", {"16832.e5m2", 16, 8, 32, 8, 32,
	 pos_16832_i8}, enc_e5m2, enc_f32, 0, 0, 0, 0, enc_e4m3},
};

/* deterministic test values: small integers (exact in every format), or signed/unsigned
 * integers of the element width */
static double
val(unsigned seed, unsigned bits, int sgn, int isfloat)
{
	uint32_t h = seed * 2654435761u;

	h ^= h >> 15;
	if (isfloat)
		return (double)((int)(h % 9) - 4) * (h & 0x10000 ? 0.5 : 1);
	if (bits == 1)
		return h >> 7 & 1;
	if (sgn)
		return (double)((int)(h % (1u << bits)) - (1 << (bits - 1)));
	return (double)(h % (1u << bits));
}

START_TEST(test_mma)
{
	const MmaCase *c = &mma_cases[_i];
	const Frag *f = &c->f;
	Smt *t = smt_new(c->ins, 0, 0);
	static double a[16 * 256], b[256 * 8], cc[16 * 8];
	int isf = c->kind == 0;

	for (unsigned k = 0; k < f->m * f->k; k++)
		a[k] = val(k + 1, f->abits, c->sgn_a, isf);
	for (unsigned k = 0; k < f->k * f->n; k++)
		b[k] = val(k + 1000, f->abits, c->sgn_b, isf);
	for (unsigned k = 0; k < f->m * f->n; k++)
		cc[k] = strstr(c->ins, "RZ ;") ? 0 : isf ? (double)((int)k % 7 - 3) * 0.25 : c->sat && k % 2 ? 2147483000.0 - k :
		        (double)((int)k * 1234567 % 100000 - 50000);
	place(t, f, 'A', 20, a, c->enca);
	place(t, f, 'B', 40, b, c->encb ? c->encb : c->enca);
	place(t, f, 'C', 60, cc, c->encc);
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++)
		for (unsigned i = 0; i < f->m * f->n / 32; i++) {
			unsigned row, col;
			double want, got;
			int64_t iw;
			f->pos('C', l >> 2, l & 3, i, &row, &col);
			want = cc[row * f->n + col];
			for (unsigned k = 0; k < f->k; k++) {
				double x = a[row * f->k + k], y = b[k * f->n + col];
				if (c->kind == 2)
					want += (double)((int)x ^ (int)y);
				else if (c->kind == 3)
					want += (double)((int)x & (int)y);
				else
					want += x * y;
			}
			if (c->kind == 0) {
				uint64_t e = get_elem(t, 4, l, i, f->cbits);
				got = f->cbits == 16 ? dec_f16(e) : f->cbits == 32 ? u2f((uint32_t)e) :
				      (memcpy(&got, &e, 8), got);
				ck_assert_msg(got == want, "%s lane %u elem %u (%u,%u): %g, want %g", c->ins, l,
				              i, row, col, got, want);
				continue;
			}
			iw = (int64_t)want;
			if (c->sat)
				iw = iw > INT32_MAX ? INT32_MAX : iw < INT32_MIN ? INT32_MIN : iw;
			ck_assert_msg((uint32_t)get_elem(t, 4, l, i, 32) == (uint32_t)iw,
			              "%s lane %u elem %u (%u,%u): %d, want %d", c->ins, l, i, row, col,
			              (int)get_elem(t, 4, l, i, 32), (int)(uint32_t)iw);
		}
	smt_free(t);
}
END_TEST

/* random element bits of every class (normal values of a narrow or of the whole exponent range,
 * zeros of both signs, subnormals, now and then an infinity or a NaN; TF32 with junk in its low
 * 13 bits) through the float MMAs, against a reference of the documented numerics: the exact
 * products summed in double in ascending k from +0, C added and the sum rounded once (DMMA: a
 * chain of fused multiply-adds from C), NaN results canonical */
typedef struct RType {
	uint64_t (*enc)(double);   /* the case's encoder names the type */
	unsigned bits, ebits;
	double (*dec)(uint64_t);
} RType;

static double dec_h(uint64_t h) { return (h & 0x7c00) == 0x7c00 ? (h & 0x3ff ? NAN : h & 0x8000 ? -INFINITY : INFINITY) : dec_f16(h); }
static double dec_bf(uint64_t h) { return u2f((uint32_t)h << 16); }
static double dec_tf(uint64_t w) { return u2f((uint32_t)w & 0xffffe000u); }
static double dec_f(uint64_t w) { return u2f((uint32_t)w); }
static double dec_d(uint64_t w) { double v; memcpy(&v, &w, 8); return v; }
static double dec_e5(uint64_t b) { return dec_h(b << 8); }
static double
dec_e4(uint64_t b)
{
	unsigned e = b >> 3 & 15, m = b & 7;
	double v = e == 15 && m == 7 ? NAN : e ? ldexp(8 + m, (int)e - 10) : ldexp(m, -9);

	return b & 0x80 ? -v : v;
}

static const RType rtypes[] = {
	{enc_f16, 16, 5, dec_h}, {enc_bf16, 16, 8, dec_bf}, {enc_tf32, 32, 8, dec_tf},
	{enc_f32, 32, 8, dec_f}, {enc_e4m3, 8, 4, dec_e4}, {enc_e5m2, 8, 5, dec_e5},
	{enc_f64, 64, 11, dec_d},
};

static const RType *
rtype(uint64_t (*enc)(double))
{
	for (unsigned k = 0; k < sizeof rtypes / sizeof rtypes[0]; k++)
		if (rtypes[k].enc == enc)
			return &rtypes[k];
	ck_abort_msg("no random elements for this type");
	return NULL;
}

static uint64_t
rnd64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* random element bits of type rt; wide: exponents over the whole finite range, else near 1 */
static uint64_t
relem(const RType *rt, int wide, uint64_t *s)
{
	uint64_t r = rnd64(s), r2 = rnd64(s);
	unsigned mbits = rt->bits - 1 - rt->ebits, emax = (1u << rt->ebits) - 1, bias = emax / 2;
	uint64_t sign = (r & 1) << (rt->bits - 1), mant = (r >> 1) & ((1ull << mbits) - 1), e;
	unsigned cls = r2 % 64;

	if (cls == 0)
		e = emax, mant = 0;                   /* infinity (E4M3: 256) */
	else if (cls == 1)
		e = emax, mant |= 1;                  /* NaN (E4M3: a normal, unless mant is 7) */
	else if (cls < 6)
		e = 0, mant = cls < 4 ? 0 : mant;     /* zero, subnormal */
	else
		e = wide ? 1 + r2 / 64 % (emax - 1) : bias - 2 + r2 / 64 % 5;
	return sign | e << mbits | mant;
}

/* v rounded to the nearest binary16, ties to even (the reference of the f16 accumulators) */
static uint64_t
ref_f16(double v)
{
	int e;
	double q;

	if (isnan(v))
		return 0x7fff;
	if (fabs(v) >= 65520)                   /* 65504 + half an ulp */
		return signbit(v) ? 0xfc00 : 0x7c00;
	if (v == 0)
		return signbit(v) ? 0x8000 : 0;
	frexp(v, &e);                           /* |v| in [2^(e-1), 2^e) */
	q = ldexp(1, (e - 1 < -14 ? -14 : e - 1) - 10);
	return f2h((float)(nearbyint(v / q) * q));
}

START_TEST(test_mma_random)
{
	static uint64_t a[16 * 32], b[32 * 8], cc[16 * 8];
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (unsigned ci = 0; ci < sizeof mma_cases / sizeof mma_cases[0]; ci++) {
		const MmaCase *c = &mma_cases[ci];
		const Frag *f = &c->f;
		const RType *ra, *rb, *rc;
		int noc = strstr(c->ins, "RZ ;") != NULL;

		if (c->kind != 0)
			continue;
		ra = rtype(c->enca);
		rb = rtype(c->encb ? c->encb : c->enca);
		rc = rtype(c->encc);
		for (unsigned trial = 0; trial < 8; trial++) {
			Smt *t = smt_new(c->ins, 0, 0);
			for (unsigned k = 0; k < f->m * f->k; k++)
				a[k] = relem(ra, trial & 1, &seed);
			for (unsigned k = 0; k < f->k * f->n; k++)
				b[k] = relem(rb, trial & 2, &seed);
			for (unsigned k = 0; k < f->m * f->n; k++)
				cc[k] = noc ? 0 : relem(rc, trial & 4, &seed);
			for (unsigned l = 0; l < WarpSize; l++) {
				unsigned row, col;
				for (unsigned i = 0; i < f->m * f->k / 32; i++) {
					f->pos('A', l >> 2, l & 3, i, &row, &col);
					put_elem(t, 20, l, i, f->abits, a[row * f->k + col]);
				}
				for (unsigned i = 0; i < f->k * f->n / 32; i++) {
					f->pos('B', l >> 2, l & 3, i, &row, &col);
					put_elem(t, 40, l, i, f->abits, b[row * f->n + col]);
				}
				for (unsigned i = 0; i < f->m * f->n / 32; i++) {
					f->pos('C', l >> 2, l & 3, i, &row, &col);
					put_elem(t, 60, l, i, f->cbits, cc[row * f->n + col]);
				}
			}
			ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
			for (unsigned l = 0; l < WarpSize; l++)
				for (unsigned i = 0; i < f->m * f->n / 32; i++) {
					unsigned row, col;
					double s = 0, cv;
					uint64_t want, got;
					f->pos('C', l >> 2, l & 3, i, &row, &col);
					cv = noc ? 0 : rc->dec(cc[row * f->n + col]);
					if (f->cbits == 64) {
						s = cv;
						for (unsigned k = 0; k < f->k; k++)
							s = fma(ra->dec(a[row * f->k + k]), rb->dec(b[k * f->n + col]), s);
						want = isnan(s) ? 0x7fffffffffffffffull : enc_f64(s);
					} else {
						for (unsigned k = 0; k < f->k; k++)
							s += ra->dec(a[row * f->k + k]) * rb->dec(b[k * f->n + col]);
						s += cv;
						want = f->cbits == 16 ? ref_f16(s) : isnan(s) ? 0x7fffffff : f2u((float)s);
					}
					got = get_elem(t, 4, l, i, f->cbits);
					ck_assert_msg(got == want, "%s trial %u lane %u elem %u (%u,%u): 0x%llx, want 0x%llx",
					              c->ins, trial, l, i, row, col, (unsigned long long)got,
					              (unsigned long long)want);
				}
			smt_free(t);
		}
	}
}
END_TEST

/* C = RZ reads zeros; lanes outside the mask keep D; D may overlap A */
START_TEST(test_mma_rz_mask)
{
	Smt *t = smt_new("HMMA.16816.F32 R20, R20, R40, RZ ;", 0, 0);
	const Frag *f = &mma_cases[0].f;
	static double a[16 * 16], b[16 * 8];
	uint32_t keep[4];

	for (unsigned k = 0; k < 256; k++)
		a[k] = k / 16 == k % 16;              /* identity */
	for (unsigned k = 0; k < 128; k++)
		b[k] = (double)k - 64;
	place(t, f, 'A', 20, a, enc_f16);
	place(t, f, 'B', 40, b, enc_f16);
	for (unsigned r = 0; r < 4; r++)
		keep[r] = smt_r(t, 20 + r)[31];
	ck_assert_int_eq(smt_exec(t, 0, 0x7fffffff), FaultNone);
	/* identity rows 0..15 times B: D = B's rows; D is 16 x 8 but B is 16 x 8 too */
	for (unsigned l = 0; l < 31; l++)
		for (unsigned i = 0; i < 4; i++) {
			unsigned row, col;
			f->pos('C', l >> 2, l & 3, i, &row, &col);
			ck_assert_float_eq(u2f(smt_r(t, 20 + i)[l]), (float)b[row * 8 + col]);
		}
	for (unsigned r = 0; r < 4; r++)
		ck_assert_uint_eq(smt_r(t, 20 + r)[31], keep[r]);
	smt_free(t);
}
END_TEST

/* numerics: the products and C are summed exactly and rounded once; NaN is canonical */
START_TEST(test_hmma_rounding)
{
	Smt *t = smt_new("HMMA.1688.F32 R4, R20, R40, R60 ;", 0, 0);
	const Frag *f = &mma_cases[3].f;
	static double a[16 * 8], b[8 * 8], c[16 * 8];

	/* row 0: three products 2^-13 * 2^-12 = 2^-25 added to 1: 1 + 1.5 2^-24 rounds to 1 + 2^-23
	 * (an fp32 chain would give 1); row 1: inf * 2^-12 is inf, inf * 0 is NaN */
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(c, 0, sizeof c);
	for (unsigned k = 0; k < 3; k++) {
		a[0 * 8 + k] = ldexp(1, -13);
		b[k * 8 + 0] = ldexp(1, -12);
	}
	c[0] = 1;
	a[1 * 8 + 0] = INFINITY;
	place(t, f, 'A', 20, a, enc_f16);
	place(t, f, 'B', 40, b, enc_f16);
	place(t, f, 'C', 60, c, enc_f32);
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[0], 0x3f800001);   /* lane 0 c0: (0, 0) */
	ck_assert_uint_eq(smt_r(t, 4)[4], 0x7f800000);   /* lane 4 c0: (1, 0) */
	ck_assert_uint_eq(smt_r(t, 5)[4], 0x7fffffff);   /* lane 4 c1: (1, 1) */
	smt_free(t);
	/* f16 accumulators: 2048 + 1 ties to even 2048 (0x6800), 2048 + 3 to 2052 (0x6802); NaN is
	 * 0x7fff; 65504 + 16 overflows to infinity */
	t = smt_new("HMMA.1688.F16 R4, R20, R40, R60 ;", 0, 0);
	f = &mma_cases[4].f;
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	memset(c, 0, sizeof c);
	a[0] = 1;
	b[0] = 1;
	b[1] = 3;
	c[0] = c[1] = 2048;
	a[1 * 8 + 2] = INFINITY;                /* row 1: inf * 1, inf * 0 */
	b[2 * 8 + 0] = 1;
	c[2 * 8 + 0] = 65504;
	a[2 * 8 + 1] = 4;
	b[1 * 8 + 0] = 4;
	place(t, f, 'A', 20, a, enc_f16);
	place(t, f, 'B', 40, b, enc_f16);
	place(t, f, 'C', 60, c, enc_f16);
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[0], 0x68026800);   /* lane 0: (0, 0), (0, 1) */
	ck_assert_uint_eq(smt_r(t, 4)[4], 0x7fff7c00);   /* lane 4: (1, 0) inf, (1, 1) NaN */
	ck_assert_uint_eq(smt_r(t, 4)[8] & 0xffff, 0x7c00);  /* lane 8: (2, 0) */
	smt_free(t);
}
END_TEST

START_TEST(test_mma_reject)
{
	static const char *const bad[] = {
		"HMMA.16816.F16.BF16 R4, R20, R40, R60 ;", "HMMA.884.F32.F16 R4, R20, R40, R60 ;",
		"HMMA.SP.16832.F32 R4, R20, R40, R60, R2, 0x0 ;", "IMMA.16832.S8.S4 R4, R20, R40, R60 ;",
		"IMMA.8864.S4.S4 R4, R20, R40, R60 ;", "LDSM.16.M88.3 R4, [R2] ;",
	};
	for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(!smt_decodes(bad[k]), "%s accepted", bad[k]);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * ldmatrix, stmatrix, movmatrix on a shared-memory image whose element (matrix m, row r,
 * column c) is 0x1000 m + 0x10 r + c, rows 48 bytes apart, matrices 0x200 apart.
 */
static uint16_t
elem(unsigned m, unsigned r, unsigned c)
{
	return (uint16_t)(0x1000 * m + 0x10 * r + c);
}

static uint32_t
rowaddr(unsigned m, unsigned r)
{
	return 0x100 + 0x200 * m + 48 * r;
}

static void
fill_image(uint8_t *s)
{
	for (unsigned m = 0; m < 4; m++)
		for (unsigned r = 0; r < 8; r++)
			for (unsigned c = 0; c < 8; c++)
				memcpy(s + rowaddr(m, r) + 2 * c, &(uint16_t){elem(m, r, c)}, 2);
}

/* lane l gives the address of row l % 8 of matrix l / 8; lanes past nm matrices give junk */
static void
set_rows(Smt *t, unsigned reg, unsigned nm, uint32_t base)
{
	for (unsigned l = 0; l < WarpSize; l++)
		smt_r(t, reg)[l] = l < 8 * nm ? rowaddr(l / 8, l % 8) - base : 0xfffff1;
}

START_TEST(test_ldsm)
{
	static const char *const ins[] = {
		"LDSM.16.M88 R4, [R2+0x10] ;", "LDSM.16.M88.2 R4, [R2+0x10] ;",
		"LDSM.16.M88.4 R4, [R2+0x10] ;", "LDSM.16.MT88 R4, [R2+0x10] ;",
		"LDSM.16.MT88.2 R4, [R2+0x10] ;", "LDSM.16.MT88.4 R4, [R2+UR4] ;",
	};
	unsigned nm = _i % 3 == 0 ? 1 : _i % 3 == 1 ? 2 : 4, tr = _i >= 3;
	Smt *t = smt_new(ins[_i], 4096, 0);

	fill_image(smt_smem(t));
	set_rows(t, 2, nm, 0x10);
	smt_warp(t)->ur[4] = 0x10;
	for (unsigned r = 4; r < 8; r++)
		for (unsigned l = 0; l < WarpSize; l++)
			smt_r(t, r)[l] = 0x5a5a5a5a;
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++) {
		unsigned g = l / 4, tt = l % 4;
		for (unsigned m = 0; m < 4; m++) {
			uint32_t want = !tr ? elem(m, g, 2 * tt) | (uint32_t)elem(m, g, 2 * tt + 1) << 16 :
			                      elem(m, 2 * tt, g) | (uint32_t)elem(m, 2 * tt + 1, g) << 16;
			if (m >= nm)
				want = 0x5a5a5a5a;
			ck_assert_msg(smt_r(t, 4 + m)[l] == want, "%s lane %u reg %u: 0x%08x, want 0x%08x",
			              ins[_i], l, m, smt_r(t, 4 + m)[l], want);
		}
	}
	/* a row address that is not 16-byte aligned */
	smt_r(t, 2)[5] += 8;
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultMisaligned);
	smt_free(t);
}
END_TEST

/* STSM writes back what LDSM read, plain and transposed; MOVM of the plain fragment is the
 * transposed fragment */
START_TEST(test_stsm_movm)
{
	Smt *t = smt_new("LDSM.16.M88.4 R4, [R2] ;\n"
	                 "STSM.16.M88.4 [R3+0x1000], R4 ;\n"
	                 "LDSM.16.MT88.2 R8, [R2] ;\n"
	                 "STSM.16.MT88.2 [R3+0x2000], R8 ;\n"
	                 "MOVM.16.MT88 R12, R5 ;\n"
	                 "LDSM.16.MT88.2 R14, [R2] ;", 0x3000, 0);
	uint8_t *s = smt_smem(t);

	fill_image(s);
	set_rows(t, 2, 4, 0);
	set_rows(t, 3, 4, 0);
	for (unsigned k = 0; k < 6; k++)
		ck_assert_int_eq(smt_exec(t, k, ~0u), FaultNone);
	for (unsigned m = 0; m < 4; m++)
		for (unsigned r = 0; r < 8; r++) {
			ck_assert_int_eq(memcmp(s + 0x1000 + rowaddr(m, r), s + rowaddr(m, r), 16), 0);
			if (m < 2)
				ck_assert_int_eq(memcmp(s + 0x2000 + rowaddr(m, r), s + rowaddr(m, r), 16), 0);
		}
	for (unsigned l = 0; l < WarpSize; l++)
		ck_assert_uint_eq(smt_r(t, 12)[l], smt_r(t, 15)[l]);
	smt_free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Warp collectives.
 */

/* the CUDA-level meaning of each shuffle, lane by lane: __shfl*_sync(v, b, width) */
static const struct {
	const char *ins;       /* SHFL P0, R4, R2, b, c */
	char mode;             /* i(dx) u(p) d(own) x(or) */
	int b, width;
} shfl_cases[] = {
	{"SHFL.IDX P0, R4, R2, 0x3, 0x1f ;", 'i', 3, 32},
	{"SHFL.IDX P0, R4, R2, 0x5, 0x181f ;", 'i', 5, 8},
	{"SHFL.IDX P0, R4, R2, 0x5, 0x1c1f ;", 'i', 5, 4},
	{"SHFL.UP P0, R4, R2, 0x1, RZ ;", 'u', 1, 32},
	{"SHFL.UP P0, R4, R2, 0x3, 0x1000 ;", 'u', 3, 16},
	{"SHFL.DOWN P0, R4, R2, 0x2, 0x1f ;", 'd', 2, 32},
	{"SHFL.DOWN P0, R4, R2, 0x2, 0x101f ;", 'd', 2, 16},
	{"SHFL.BFLY P0, R4, R2, 0x4, 0x1f ;", 'x', 4, 32},
	{"SHFL.BFLY P0, R4, R2, 0x4, 0x181f ;", 'x', 4, 8},
	{"SHFL.BFLY P0, R4, R2, 0x10, 0x1f ;", 'x', 16, 32},
};

START_TEST(test_shfl)
{
	Smt *t = smt_new(shfl_cases[_i].ins, 0, 0);
	int b = shfl_cases[_i].b, w = shfl_cases[_i].width;

	for (unsigned l = 0; l < WarpSize; l++)
		smt_r(t, 2)[l] = 100 + l;
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	for (int l = 0; l < WarpSize; l++) {
		int base = l / w * w, src, ok;
		switch (shfl_cases[_i].mode) {
		case 'i': src = base + b % w; ok = 1; break;
		case 'u': src = l - b; ok = src >= base; break;
		case 'd': src = l + b; ok = src < base + w; break;
		default: src = l ^ b; ok = src < base + w; break;
		}
		if (!ok)
			src = l;
		ck_assert_msg(smt_r(t, 4)[l] == 100u + (unsigned)src, "%s lane %d: %u, want %d",
		              shfl_cases[_i].ins, l, smt_r(t, 4)[l], 100 + src);
		ck_assert_msg((smt_warp(t)->p[0] >> l & 1) == (unsigned)ok, "%s lane %d: predicate",
		              shfl_cases[_i].ins, l);
	}
	smt_free(t);
}
END_TEST

/* register b and c, the clamp of IDX, a partial mask, Rd = Ra */
START_TEST(test_shfl_regs)
{
	Smt *t = smt_new("SHFL.IDX PT, R2, R2, R3, R5 ;\nSHFL.IDX P1, R4, R6, R3, 0xf ;", 0, 0);

	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 2)[l] = 100 + l;
		smt_r(t, 6)[l] = 100 + l;
		smt_r(t, 3)[l] = 31 - l;
		smt_r(t, 5)[l] = 0x1f;
	}
	ck_assert_int_eq(smt_exec(t, 0, 0x0000ffff), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++)
		ck_assert_uint_eq(smt_r(t, 2)[l], 100 + (l < 16 ? 31 - l : l));
	/* clamp 15: sources above 15 are out of range, the lane keeps its own value */
	ck_assert_int_eq(smt_exec(t, 1, ~0u), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++) {
		ck_assert_uint_eq(smt_r(t, 4)[l], 100 + (31 - l <= 15 ? 31 - l : l));
		ck_assert_uint_eq(smt_warp(t)->p[1] >> l & 1, 31 - l <= 15);
	}
	smt_free(t);
}
END_TEST

START_TEST(test_vote)
{
	Smt *t = smt_new("VOTE.ANY R4, PT, P1 ;\nVOTE.ALL P2, P1 ;\nVOTE.ANY P3, !P1 ;\n"
	                 "VOTE.EQ P4, P1 ;\nVOTE.ALL R5, PT, PT ;\nVOTEU.ANY UR6, UP1, P1 ;\n"
	                 "VOTEU.ALL UP2, P1 ;", 0, 0);
	Warp *w = smt_warp(t);

	w->p[1] = 0x0000ff0f;
	for (unsigned k = 0; k < 7; k++)
		ck_assert_int_eq(smt_exec(t, k, 0x00ffff00), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[8], 0x0000ff00);
	ck_assert_uint_eq(smt_r(t, 4)[0], 0);              /* not executing */
	ck_assert_uint_eq(w->p[2], 0);
	ck_assert_uint_eq(w->p[3], 0x00ffff00);
	ck_assert_uint_eq(w->p[4], 0);
	ck_assert_uint_eq(smt_r(t, 5)[23], 0x00ffff00);   /* __activemask() */
	ck_assert_uint_eq(w->ur[6], 0x0000ff00);
	ck_assert_uint_eq(w->up[1], 1);
	ck_assert_uint_eq(w->up[2], 0);
	ck_assert_int_eq(smt_exec(t, 1, 0x0000ff00), FaultNone);
	ck_assert_uint_eq(w->p[2], 0x0000ff00);
	ck_assert_int_eq(smt_exec(t, 3, 0x00ff0000), FaultNone);
	ck_assert_uint_eq(w->p[4], 0x00ff0000);
	smt_free(t);
}
END_TEST

START_TEST(test_match)
{
	Smt *t = smt_new("MATCH.ANY R4, R2 ;\nMATCH.ALL P0, R5, R2 ;\nMATCH.ANY.U64 R6, R2 ;\n"
	                 "MATCH.ALL.U64 P1, R7, R2 ;", 0, 0);
	Warp *w = smt_warp(t);

	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 2)[l] = l % 3;
		smt_r(t, 3)[l] = l % 2;
	}
	for (unsigned k = 0; k < 4; k++)
		ck_assert_int_eq(smt_exec(t, k, 0x0000003f), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[0], 0x09);           /* lanes 0, 3 */
	ck_assert_uint_eq(smt_r(t, 4)[4], 0x12);
	ck_assert_uint_eq(w->p[0] & 0x3f, 0);
	ck_assert_uint_eq(smt_r(t, 5)[2], 0);
	ck_assert_uint_eq(smt_r(t, 6)[0], 0x01);           /* (0,0) only at lane 0 among 0..5 */
	ck_assert_uint_eq(smt_r(t, 6)[1], 0x01u << 1);
	ck_assert_uint_eq(smt_r(t, 6)[2], 1u << 2);
	ck_assert_uint_eq(w->p[1] & 0x3f, 0);
	/* lanes 0, 6, 12: all value 0 (low), 0 (high) */
	ck_assert_int_eq(smt_exec(t, 1, 0x1041), FaultNone);
	ck_assert_uint_eq(w->p[0], 0x1041);
	ck_assert_uint_eq(smt_r(t, 5)[6], 0x1041);
	ck_assert_int_eq(smt_exec(t, 3, 0x1041), FaultNone);
	ck_assert_uint_eq(w->p[1], 0x1041);
	smt_free(t);
}
END_TEST

START_TEST(test_redux)
{
	static const struct { const char *ins; uint32_t want; } c[] = {
		{"REDUX.SUM UR4, R2 ;", 6},                /* -16 + 1 + 2 + 3 + 4 + 5 + 7 */
		{"REDUX.MIN UR4, R2 ;", 1},                /* unsigned: -16 is large */
		{"REDUX.MIN.S32 UR4, R2 ;", 0xfffffff0u},
		{"REDUX.MAX.S32 UR4, R2 ;", 7},
		{"REDUX.MAX UR4, R2 ;", 0xfffffff0u},
		{"REDUX UR4, R2 ;", 0},                    /* AND */
		{"REDUX.OR UR4, R2 ;", 0xfffffff7u},
		{"REDUX.XOR UR4, R2 ;", 0xfffffff0u ^ 1 ^ 2 ^ 3 ^ 4 ^ 5 ^ 7},
		{"REDUX.SUM.S32 R6, R2 ;", 6},
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		Smt *t = smt_new(c[k].ins, 0, 0);
		static const uint32_t v[] = {0xfffffff0u, 1, 2, 3, 4, 5, 7};

		for (unsigned l = 0; l < WarpSize; l++)
			smt_r(t, 2)[l] = l < 7 ? v[l] : 1000 + l;
		ck_assert_int_eq(smt_exec(t, 0, 0x7f), FaultNone);
		if (strstr(c[k].ins, "UR4"))
			ck_assert_msg(smt_warp(t)->ur[4] == c[k].want, "%s: 0x%x", c[k].ins,
			              smt_warp(t)->ur[4]);
		else
			ck_assert_uint_eq(smt_r(t, 6)[3], c[k].want);
		smt_free(t);
	}
}
END_TEST

START_TEST(test_elect)
{
	Smt *t = smt_new("ELECT P0, UR4, PT ;\nELECT P1, URZ, P2 ;", 0, 0);
	Warp *w = smt_warp(t);

	w->p[0] = w->p[1] = ~0u;
	ck_assert_int_eq(smt_exec(t, 0, 0xf0f0), FaultNone);
	ck_assert_uint_eq(w->p[0], ~0xf0f0u | 0x10);
	ck_assert_uint_eq(w->ur[4], 4);
	w->p[2] = 0xff00;
	ck_assert_int_eq(smt_exec(t, 1, 0xf0f0), FaultNone);
	ck_assert_uint_eq(w->p[1], ~0xf0f0u | 0x1000);
	smt_free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Whole nvcc kernels of tests/corpus, loaded and launched like a user program. A kernel that
 * does not load (an opcode family the simulator lacks) fails the test.
 */
typedef struct KRun {
	Src *src;              /* the listing */
	Module *m;             /* parsed */
	Diag d;                /* diagnostics into err */
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;                /* device */
	SimModule *sm;         /* loaded, NULL if loading failed */
	const Prog *k;         /* the kernel */
} KRun;

static KRun *
kload(const char *file, const char *kernel)
{
	const char *root = getenv("FIBER_ROOT");
	KRun *r = calloc(1, sizeof *r);
	char path[600];
	SimConfig c;

	snprintf(path, sizeof path, "%s/tests/corpus/%s", root ? root : ".", file);
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, NULL, r->errf);
	r->src = src_read(path, &r->d);
	ck_assert_msg(r->src != NULL, "cannot read %s", path);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	ck_assert_ptr_nonnull(r->m);
	simconfig_default(&c, r->m->sm >= 90 ? 90 : 80);
	c.watchdog = 2000000;
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	if (r->sm)
		r->k = sim_module_kernel(r->sm, kernel);
	if (!r->k) {
		fflush(r->errf);
		ck_abort_msg("%s: %s does not load (a failure, never a skip): %s", file, kernel,
		             r->err ? r->err : "no kernel");
	}
	return r;
}

static void
kfree(KRun *r)
{
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

static uint64_t
kbuf(KRun *r, const void *data, uint64_t n)
{
	uint64_t a;

	ck_assert_int_eq(gpu_malloc(r->g, n, &a), 0);
	if (data)
		ck_assert_int_eq(gpu_write(r->g, a, data, n), 0);
	return a;
}

/* the ldmatrix fragment of lane l, matrix m: rows at byte offsets row[8m + r] of image s */
static uint32_t
ref_ldm(const uint8_t *s, const uint32_t *row, unsigned m, unsigned l, int trans)
{
	unsigned g = l / 4, t = l % 4;
	uint16_t lo, hi;

	if (trans) {
		memcpy(&lo, s + row[8 * m + 2 * t] + 2 * g, 2);
		memcpy(&hi, s + row[8 * m + 2 * t + 1] + 2 * g, 2);
	} else {
		memcpy(&lo, s + row[8 * m + g] + 4 * t, 2);
		memcpy(&hi, s + row[8 * m + g] + 4 * t + 2, 2);
	}
	return lo | (uint32_t)hi << 16;
}

/* k_ldsm of mma.cu: ldmatrix .x4/.x2/.x1 .trans and movmatrix on a 64 x 64 image of halves */
START_TEST(test_kernel_ldsm)
{
	KRun *r = kload("mma.sm_80.sass", "k_ldsm");
	static uint16_t g[4096];
	uint32_t out[32], row[32], r4[4][32], x[2][32], y[32];
	uint64_t a[2];
	LaunchParams lp = {{1, 1, 1}, {32, 1, 1}, 0, a, sizeof a, 0, { 0, 0, 0 } };
	SimStats st;
	SimFault f;

	if (!r->k) {
		kfree(r);
		return;
	}
	for (unsigned k = 0; k < 4096; k++)
		g[k] = (uint16_t)(k * 2654435761u >> 13);
	a[0] = kbuf(r, NULL, sizeof out);
	a[1] = kbuf(r, g, sizeof g);
	ck_assert_msg(sim_launch(r->g, r->sm, r->k, &lp, &st, &f) == 0, "%s", f.msg);
	ck_assert_int_eq(gpu_read(r->g, a[0], out, sizeof out), 0);
	/* thread t's address: &s[(t & 15) * 64 + (t >> 4) * 8], plus the byte offset of each call */
	for (unsigned off = 0; off < 3; off++) {
		static const uint32_t offs[3] = {4096, 128, 256};
		for (unsigned t = 0; t < 32; t++)
			row[t] = 2 * ((t & 15) * 64 + (t >> 4) * 8) + offs[off];
		for (unsigned l = 0; l < 32; l++) {
			if (off == 0)
				for (unsigned m = 0; m < 4; m++)
					r4[m][l] = ref_ldm((const uint8_t *)g, row, m, l, 1);
			else if (off == 1)
				for (unsigned m = 0; m < 2; m++)
					x[m][l] = ref_ldm((const uint8_t *)g, row, m, l, 1);
			else
				y[l] = ref_ldm((const uint8_t *)g, row, 0, l, 1);
		}
	}
	for (unsigned l = 0; l < 32; l++) {
		/* movmatrix of r1: element (row i, col j) of the source is in lane 4i + j / 2 */
		unsigned gg = l / 4, t = l % 4;
		uint32_t mv = (r4[1][8 * t + gg / 2] >> 16 * (gg % 2) & 0xffff) |
		              (r4[1][4 * (2 * t + 1) + gg / 2] >> 16 * (gg % 2) & 0xffff) << 16;
		uint32_t want = r4[0][l] + r4[1][l] + r4[2][l] + r4[3][l] + x[0][l] + x[1][l] + y[l] + mv;
		ck_assert_msg(out[l] == want, "thread %u: 0x%08x, want 0x%08x", l, out[l], want);
	}
	kfree(r);
}
END_TEST

/* the sm_80 mbarrier as nvcc lowers it (misc.cu k_async): mbarrier.init(64) is an STS.64 of
 * 0x40000000 - 64, 0x80000000 - 64; each of 64 threads (two warps) arrives once, by ATOMS.ARRIVE.64
 * (token: the state before) or by ARRIVES.LDGSTSBAR.64 after a cp.async (token read before, as
 * no phase can complete without these arrivals), then spins on test_wait (the phase bit of word
 * 1 against the token's). The loops end only if the 64th arrival flips the phase. */
static const char mbar_kernel[] =
	"\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	"        S2R R0, SR_TID.X ;\n"
	"        MOV R8, c[0x0][0x160] ;\n"
	"        MOV R9, c[0x0][0x164] ;\n"
	"        ISETP.NE.AND P0, PT, R0, RZ, PT ;\n"
	"        ISETP.GE.AND P2, PT, R0, 0x20, PT ;\n"
	"   @!P0 MOV R2, 0x3fffffc0 ;\n"
	"   @!P0 MOV R3, 0x7fffffc0 ;\n"
	"   @!P0 STS.64 [0x100], R2 ;\n"
	"        IMAD.SHL.U32 R10, R0, 0x4, RZ ;\n"
	"        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	"    @P2 LDS R3, [0x104] ;\n"
	"    @P2 LDGSTS.E [R10], [R8.64] ;\n"
	"    @P2 ARRIVES.LDGSTSBAR.64 [URZ+0x100] ;\n"
	"   @!P2 ATOMS.ARRIVE.64 R2, [URZ+0x100] ;\n"
	".L_x_1:\n"
	"        LDS R4, [0x104] ;\n"
	"        YIELD ;\n"
	"        LOP3.LUT P1, RZ, R4, 0x80000000, R3, 0x48, !PT ;\n"
	"   @!P1 BRA `(.L_x_1) ;\n"
	"        IMAD.WIDE.U32 R6, R0, 0x4, R8 ;\n"
	"        STG.E [R6.64+0x4], R4 ;\n"
	"        EXIT ;\n";

START_TEST(test_kernel_mbarrier)
{
	KRun r = {0};
	uint32_t out[65];
	uint64_t a;
	LaunchParams lp = {{1, 1, 1}, {64, 1, 1}, 0x200, &a, sizeof a, 0, { 0, 0, 0 } };
	SimStats st;
	SimFault f;
	SimConfig c;

	r.src = src_new("mbar.sass", mbar_kernel, strlen(mbar_kernel));
	r.errf = open_memstream(&r.err, &r.nerr);
	diag_init(&r.d, r.src, r.errf);
	r.m = sass_parse(r.src, &r.d);
	ck_assert_ptr_nonnull(r.m);
	simconfig_default(&c, 80);
	c.watchdog = 1000000;
	r.g = gpu_new(simcfg_gpu(&c));
	r.sm = sim_module_load(r.g, r.m, &r.d);
	fflush(r.errf);
	ck_assert_msg(r.sm != NULL, "%s", r.err);
	r.k = sim_module_kernel(r.sm, "kern");
	memset(out, 0, sizeof out);
	a = kbuf(&r, out, sizeof out);
	ck_assert_msg(sim_launch(r.g, r.sm, r.k, &lp, &st, &f) == 0, "%s", f.msg);
	ck_assert_int_eq(gpu_read(r.g, a, out, sizeof out), 0);
	for (unsigned t = 0; t < 64; t++)
		ck_assert_msg(out[1 + t] == (0x80000000u | 0x7fffffc0u), "thread %u: 0x%x", t, out[1 + t]);
	sim_module_free(r.sm);
	gpu_free(r.g);
	module_free(r.m);
	src_free(r.src);
	fclose(r.errf);
	free(r.err);
}
END_TEST

Suite *
simtensor_suite(void)
{
	Suite *s = suite_create("simtensor");
	TCase *tc = tcase_create("mma");

	tcase_add_loop_test(tc, test_mma, 0, sizeof mma_cases / sizeof mma_cases[0]);
	tcase_add_test(tc, test_mma_random);
	tcase_add_test(tc, test_mma_rz_mask);
	tcase_add_test(tc, test_hmma_rounding);
	tcase_add_test(tc, test_mma_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("matrix");
	tcase_add_loop_test(tc, test_ldsm, 0, 6);
	tcase_add_test(tc, test_stsm_movm);
	suite_add_tcase(s, tc);
	tc = tcase_create("warp");
	tcase_add_loop_test(tc, test_shfl, 0, sizeof shfl_cases / sizeof shfl_cases[0]);
	tcase_add_test(tc, test_shfl_regs);
	tcase_add_test(tc, test_vote);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_redux);
	tcase_add_test(tc, test_elect);
	suite_add_tcase(s, tc);
	tc = tcase_create("kernels");
	tcase_add_test(tc, test_kernel_ldsm);
	tcase_add_test(tc, test_kernel_mbarrier);
	suite_add_tcase(s, tc);
	return s;
}
