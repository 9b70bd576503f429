/* check_simgmma.c: tests of sim/exec_gmma.c (HGMMA, QGMMA, IGMMA, WARPGROUP) on nvcc 13's own
 * sm_90a SASS of examples/hopper/wgmma.cu: one kernel per wgmma.mma_async form, run through the
 * runtime with shared-memory images laid out here, from the PTX ISA's canonical layouts written
 * as CuTe shapes and strides (no swizzle, 32, 64, 128-byte swizzle; K-major and MN-major), the
 * register fragments from the ISA's figures, and D compared with a CPU reference, bit for bit
 * (the inputs are chosen so that every sum is exact: the layouts, not the rounding, are tested
 * here; docs/sim-wgmma.md), in functional and timing mode.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernrun.h"
#include "sim.h"

/* check_simmem.c: the one-warp machine */
typedef struct Smt Smt;
Smt *smt_new(const char *body, uint32_t smem, uint32_t frame);
Smt *smt_new_rc(const char *body, int regcount);
uint32_t *smt_r(Smt *t, unsigned r);
void smt_free(Smt *t);
int smt_exec(Smt *t, unsigned k, uint32_t mask);
Warp *smt_warp(Smt *t);

enum { ImgBytes = 98304, BOff = 16384, Threads = 128, MaxN = 256 };

/* a kernel of wgmma.cu: its form (gen_wgmma.py's table) */
typedef struct GForm {
	const char *name;
	char d;                /* accumulator: 'f' f32, 'h' f16, 'i' s32 */
	const char *at, *bt;   /* "f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8" */
	unsigned n;
	int areg;              /* A from registers */
	int sa, sb;            /* imm-scale-a, imm-scale-b */
	int ta, tb;            /* M-major A, N-major B */
} GForm;

static GForm forms[64];
static unsigned nforms;

static void
add_form(const char *name, char d, const char *at, const char *bt, unsigned n, int areg, int sa,
         int sb, int ta, int tb)
{
	forms[nforms++] = (GForm){ name, d, at, bt, n, areg, sa, sb, ta, tb };
}

static void
init_forms(void)
{
	static char names[32][24];

	if (nforms)
		return;
	for (unsigned n = 8; n <= 256; n += 8) {
		snprintf(names[n / 8 - 1], sizeof names[0], "k_h_f32_n%u", n);
		add_form(names[n / 8 - 1], 'f', "f16", "f16", n, 0, 1, 1, 0, 0);
	}
	add_form("k_h_f32_n64_tb", 'f', "f16", "f16", 64, 0, 1, 1, 0, 1);
	add_form("k_h_f32_n64_ta", 'f', "f16", "f16", 64, 0, 1, 1, 1, 0);
	add_form("k_h_f32_n64_tab", 'f', "f16", "f16", 64, 0, 1, 1, 1, 1);
	add_form("k_h_f32_n256_tab", 'f', "f16", "f16", 256, 0, 1, 1, 1, 1);
	add_form("k_h_f16_n8", 'h', "f16", "f16", 8, 0, 1, 1, 0, 0);
	add_form("k_h_f16_n64_tab", 'h', "f16", "f16", 64, 0, 1, 1, 1, 1);
	add_form("k_h_f16_n256", 'h', "f16", "f16", 256, 0, 1, 1, 0, 0);
	add_form("k_b_f32_n32_nega", 'f', "bf16", "bf16", 32, 0, -1, 1, 0, 1);
	add_form("k_b_f32_n128_negb", 'f', "bf16", "bf16", 128, 0, 1, -1, 1, 0);
	add_form("k_h_f32_n64_ra", 'f', "f16", "f16", 64, 1, 1, 1, 0, 0);
	add_form("k_b_f32_n96_ra_tb", 'f', "bf16", "bf16", 96, 1, 1, -1, 0, 1);
	add_form("k_t_f32_n64", 'f', "tf32", "tf32", 64, 0, 1, 1, 0, 0);
	add_form("k_t_f32_n32_ra", 'f', "tf32", "tf32", 32, 1, 1, 1, 0, 0);
	add_form("k_q_f32_n64_e4e5", 'f', "e4m3", "e5m2", 64, 0, 1, 1, 0, 0);
	add_form("k_q_f16_n32_e5e4", 'h', "e5m2", "e4m3", 32, 0, 1, 1, 0, 0);
	add_form("k_i_s32_n64_s8s8", 'i', "s8", "s8", 64, 0, 1, 1, 0, 0);
	add_form("k_i_s32_n48_u8s8_ra", 'i', "u8", "s8", 48, 1, 1, 1, 0, 0);
}

static unsigned
ebytes(const char *t)
{
	return !strcmp(t, "tf32") ? 4 : t[1] == '1' || t[0] == 'b' ? 2 : 1;
}

/* ---------------------------------------------------------------------------------------------
 * Values: small random numbers every type holds exactly, as their bits, and their value.
 */
static uint32_t rng = 1;

static unsigned
rnd(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 16) % n;
}

/* an exact small value of type t: *bits its encoding, returns its value */
static double
pick(const char *t, uint32_t *bits)
{
	int v = (int)rnd(7) - 3;                /* -3..3 */
	double x = v;

	if (!strcmp(t, "f16")) {
		static const uint16_t h[7] = { 0xc200, 0xc000, 0xbc00, 0, 0x3c00, 0x4000, 0x4200 };
		*bits = h[v + 3];
	} else if (!strcmp(t, "bf16")) {
		static const uint16_t h[7] = { 0xc040, 0xc000, 0xbf80, 0, 0x3f80, 0x4000, 0x4040 };
		*bits = h[v + 3];
	} else if (!strcmp(t, "tf32")) {
		float f = (float)v;
		memcpy(bits, &f, 4);
		*bits |= rnd(0x2000);               /* low 13 bits: ignored by the tensor core */
	} else if (!strcmp(t, "e4m3") || !strcmp(t, "e5m2")) {
		/* sign, an exponent of a few binades, any mantissa: value from the format's rule */
		int e4 = t[1] == '4', mb = e4 ? 3 : 2, bias = e4 ? 7 : 15;
		unsigned s = rnd(2), e = (unsigned)bias - 2 + rnd(5), m = rnd(1u << mb);
		*bits = s << 7 | e << mb | m;
		x = ldexp(1.0 + m / (double)(1 << mb), (int)e - bias) * (s ? -1 : 1);
	} else if (!strcmp(t, "s8")) {
		v = (int)rnd(256) - 128;
		*bits = (uint8_t)v;
		x = v;
	} else {                                /* u8 */
		*bits = rnd(256);
		x = *bits;
	}
	return x;
}

/* ---------------------------------------------------------------------------------------------
 * The canonical layouts of the PTX ISA ("Shared Memory Matrix Layout", "Canonical Layouts") as
 * CuTe layouts in bytes: element (mn, k) of an MN x K operand, elements of eb bytes, T = 16 / eb,
 * W the swizzle width (16: none):
 *   K-major  none  ((8,m),(T,2k)):((16,SBO),(eb,LBO))
 *   K-major  W     ((8,m),(T,2k)):((W,SBO),(eb,16))
 *   MN-major none  ((T,1,m),(8,k)):((eb,16,SBO),(16,LBO))
 *   MN-major W     ((T,W/16,m),(8,k)):((eb,16,LBO),(W,SBO))
 * then Swizzle<log2(W/16),4,3> on the byte offset (the buffers are 1024-byte aligned). A
 * K-major swizzled operand is laid out W bytes wide, as a kernel's K tile is, and the wgmma reads
 * its k-block j (32 bytes) through a descriptor whose start is 32 j bytes into the rows, as
 * CUTLASS's descriptor iterator steps along K.
 */
typedef struct Lay {
	int mnmajor;
	unsigned w;            /* 16, 32, 64, 128 */
	unsigned lbo, sbo;     /* bytes */
	unsigned kblk;         /* K-major swizzled: the 32-byte k-block the descriptor starts at */
} Lay;

static unsigned
lay_off(const Lay *l, unsigned eb, unsigned mn, unsigned k)
{
	unsigned t = 16 / eb, off, b;

	if (!l->mnmajor && l->w == 16) {
		unsigned i0 = mn % 8, i1 = mn / 8, j0 = k % t, j1 = k / t;
		off = i0 * 16 + i1 * l->sbo + j0 * eb + j1 * l->lbo;
	} else if (!l->mnmajor) {
		unsigned i0 = mn % 8, i1 = mn / 8, j0 = k % t, j1 = k / t;
		off = i0 * l->w + i1 * l->sbo + j0 * eb + j1 * 16;
	} else if (l->w == 16) {
		unsigned i0 = mn % t, i2 = mn / t, j0 = k % 8, j1 = k / 8;
		off = i0 * eb + i2 * l->sbo + j0 * 16 + j1 * l->lbo;
	} else {
		unsigned i0 = mn % t, i1 = mn / t % (l->w / 16), i2 = mn / t / (l->w / 16);
		unsigned j0 = k % 8, j1 = k / 8;
		off = i0 * eb + i1 * 16 + i2 * l->lbo + j0 * l->w + j1 * l->sbo;
	}
	for (b = 0; (16u << b) < l->w; b++)
		;
	return off ^ ((off >> 7) & ((1u << b) - 1)) << 4;
}

/* the layout of variant v (0..7) of an MN x K operand with K bytes 32 */
static Lay
lay_pick(unsigned v, int mnmajor, unsigned mn, unsigned eb)
{
	static const unsigned ws[4] = { 16, 32, 64, 128 };
	Lay l = { mnmajor, ws[v % 4], 0, 0, 0 };
	int spread = v >= 4;

	if (!mnmajor && l.w == 16) {         /* core matrices of 128 bytes */
		l.lbo = spread ? 128 * (mn / 8) : 128;
		l.sbo = spread ? 128 : 256;
	} else if (!mnmajor) {
		l.lbo = 16;                      /* unused */
		l.sbo = 8 * l.w * (spread ? 2 : 1);
		l.kblk = (v + mn / 8) % (l.w / 32);
	} else if (l.w == 16) {
		l.sbo = spread ? 256 : 128;
		l.lbo = 128 * (mn * eb / 16) * (spread ? 2 : 1);
	} else {
		unsigned blocks = (mn * eb + l.w - 1) / l.w;
		l.sbo = 8 * l.w;
		l.lbo = 2 * 8 * l.w;
		if (spread) {                    /* the K groups after all the MN blocks */
			l.lbo = 8 * l.w;
			l.sbo = 8 * l.w * blocks;
		}
	}
	return l;
}

static uint64_t
desc_of(const Lay *l, unsigned start)
{
	uint64_t mode = l->w == 128 ? 1 : l->w == 64 ? 2 : l->w == 32 ? 3 : 0;

	start += 32 * l->kblk;
	return (uint64_t)(start >> 4) | (uint64_t)(l->lbo >> 4) << 16 | (uint64_t)(l->sbo >> 4) << 32 |
	       mode << 62;
}

/* ---------------------------------------------------------------------------------------------
 * One run: A (64 x K), B (N x K), C, the reference, the launch, the comparison.
 */
typedef struct Run {
	fiberDevice dev;
	fiberModule mod;
	fiberDevicePtr img, ar, cd;
} Run;

static void
run_open(Run *r, fiberSimMode mode, const char *path)
{
	ck_assert_int_eq(fiberDeviceCreate(&r->dev, "h100"), FIBER_SUCCESS);
	fiberDeviceSetMode(r->dev, mode);
	ck_assert_msg(fiberModuleLoadFile(&r->mod, r->dev, path) == FIBER_SUCCESS, "%s: %s", path,
	              fiberGetLastErrorMessage(r->dev));
	ck_assert_int_eq(fiberMalloc(r->dev, &r->img, ImgBytes), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(r->dev, &r->ar, 4 * 4 * Threads), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(r->dev, &r->cd, 4 * MaxN / 2 * Threads), FIBER_SUCCESS);
}

/* the element of a 32-byte K row of type t at index k: bits */
static void
put_elem(uint8_t *img, unsigned off, unsigned eb, uint32_t bits)
{
	memcpy(img + off, &bits, eb);
}

/* binary16 of v, rounded to nearest even (the reference's one rounding) */
static uint16_t
to_f16(double v)
{
	double a = fabs(v), q;
	unsigned sign = signbit(v) ? 0x8000 : 0;
	int e;

	if (a == 0)
		return (uint16_t)sign;
	frexp(a, &e);
	e--;                                   /* a = 1.x 2^e */
	if (e < -14)
		return (uint16_t)(sign | (unsigned)rint(ldexp(a, 24)));
	q = rint(ldexp(a, 10 - e));
	if (q == 2048) {
		q = 1024;
		e++;
	}
	ck_assert_msg(e <= 15, "reference %g overflows binary16", v);
	return (uint16_t)(sign | (unsigned)(e + 15) << 10 | ((unsigned)q - 1024));
}

/* the accumulation tests (test_gmma_grouped): while on, every element of A is a (encoding
 * abits), of B b (bbits), C is c, and D must be want (derived by hand in the test) */
typedef struct Ovr {
	int on;
	double a, b, c, want;
	uint32_t abits, bbits;
} Ovr;
static Ovr ovr;

/* run form f with layout variants va (A) and vb (B), scale-d sd; returns 0 or fails */
static void
run_form(Run *r, const GForm *f, unsigned va, unsigned vb, int sd)
{
	static uint8_t img[ImgBytes];
	static double A[64][32], B[MaxN][32];
	static uint32_t ar[4 * Threads], cd[MaxN / 2 * Threads], want[MaxN / 2 * Threads];
	static uint8_t used[ImgBytes];
	unsigned eb = ebytes(f->at), K = 32 / eb, N = f->n, nreg = f->d == 'h' ? N / 4 : N / 2;
	Lay la = lay_pick(va, f->ta, 64, eb), lb = lay_pick(vb, f->tb, N, eb);
	fiberFunction fn;
	uint64_t da = desc_of(&la, 0), db = desc_of(&lb, BOff);
	unsigned char pb[48];
	unsigned grid[3] = { 1, 1, 1 }, block[3] = { Threads, 1, 1 };
	size_t off, size;
	fiberStats s0, s1;

	memset(img, 0xff, sizeof img);     /* NaN or -1 wherever a wrong address reads */
	memset(used, 0, sizeof used);
	memset(ar, 0, sizeof ar);
	for (unsigned m = 0; m < 64; m++)
		for (unsigned k = 0; k < K; k++) {
			uint32_t bits;
			A[m][k] = pick(f->at, &bits) * f->sa;
			if (ovr.on) {
				A[m][k] = ovr.a;
				bits = ovr.abits;
			}
			if (f->areg) {
				/* the figures of the ISA: element e of lane (g, t) of warp w, 4 registers */
				unsigned w = m / 16, g = m % 8, hi = m % 16 / 8, e, t, reg, byte;
				if (eb == 2) {                 /* k16: a(2t+j, +8): e = 2 (k / 8) 2 + ... */
					t = k % 8 / 2;
					e = (k / 8) * 4 + hi * 2 + k % 2;
				} else if (eb == 4) {          /* k8: a0 (g, t) a1 (g+8, t) a2 (g, t+4) ... */
					t = k % 4;
					e = (k / 4) * 2 + hi;
				} else {                       /* k32: a(4t + j) rows g, g+8, cols +16 */
					t = k % 16 / 4;
					e = (k / 16) * 8 + hi * 4 + k % 4;
				}
				reg = e * eb / 4;
				byte = e * eb % 4;
				memcpy((uint8_t *)&ar[(w * 32 + g * 4 + t) * 4 + reg] + byte, &bits, eb);
			} else {
				unsigned o = lay_off(&la, eb, m, k + la.kblk * K);
				ck_assert_msg(o + eb <= BOff && !used[o], "test layout A overlaps at %u", o);
				used[o] = 1;
				put_elem(img, o, eb, bits);
			}
		}
	for (unsigned n = 0; n < N; n++)
		for (unsigned k = 0; k < K; k++) {
			uint32_t bits;
			unsigned o = lay_off(&lb, eb, n, k + lb.kblk * K) + BOff;
			B[n][k] = pick(f->bt, &bits) * f->sb;
			if (ovr.on) {
				B[n][k] = ovr.b;
				bits = ovr.bbits;
			}
			ck_assert_msg(o + eb <= ImgBytes && !used[o], "test layout B overlaps at %u", o);
			used[o] = 1;
			put_elem(img, o, eb, bits);
		}
	/* C and the reference D, in the accumulator fragment: element i of lane (g, t) of warp w
	 * is row 16w + g + 8 ((i >> 1) & 1), column 8 (i >> 2) + 2t + (i & 1); f16: two a register */
	for (unsigned th = 0; th < Threads; th++)
		for (unsigned i = 0; i < N / 2; i++) {
			unsigned w = th / 32, g = th % 32 / 4, t = th % 4;
			unsigned m = 16 * w + g + 8 * ((i >> 1) & 1), n = 8 * (i >> 2) + 2 * t + (i & 1);
			int c = (int)rnd(17) - 8;
			double s = 0;
			uint32_t cb, db2;
			for (unsigned k = 0; k < K; k++)
				s += A[m][k] * B[n][k];
			if (sd)
				s += c;
			if (f->d == 'f') {
				float fc = ovr.on ? (float)ovr.c : (float)c;
				float fd = ovr.on ? (float)ovr.want : (float)s;
				memcpy(&cb, &fc, 4);
				memcpy(&db2, &fd, 4);
			} else if (f->d == 'i') {
				cb = (uint32_t)c;
				db2 = (uint32_t)(int64_t)s;
			} else {
				cb = to_f16(c);
				db2 = to_f16(s);
			}
			if (f->d == 'h') {
				unsigned sh = 16 * (i & 1);
				uint32_t *pc = &cd[(i / 2) * Threads + th], *pw = &want[(i / 2) * Threads + th];
				*pc = (*pc & ~(0xffffu << sh)) | cb << sh;
				*pw = (*pw & ~(0xffffu << sh)) | db2 << sh;
			} else {
				cd[i * Threads + th] = cb;
				want[i * Threads + th] = db2;
			}
		}
	ck_assert_int_eq(fiberModuleGetFunction(&fn, r->mod, f->name), FIBER_SUCCESS);
	fiberMemcpyHtoD(r->dev, r->img, img, ImgBytes);
	fiberMemcpyHtoD(r->dev, r->ar, ar, sizeof ar);
	fiberMemcpyHtoD(r->dev, r->cd, cd, 4 * nreg * Threads);
	memset(pb, 0, sizeof pb);
	memcpy(pb, &r->img, 8);
	memcpy(pb + 8, &da, 8);
	memcpy(pb + 16, &db, 8);
	memcpy(pb + 24, &r->ar, 8);
	memcpy(pb + 32, &r->cd, 8);
	memcpy(pb + 40, &sd, 4);
	ck_assert_int_eq(fiberFuncGetParamInfo(fn, 5, &off, &size), FIBER_SUCCESS);
	ck_assert_uint_eq(off, 40);
	fiberGetStats(r->dev, &s0);
	ck_assert_msg(fiberLaunchKernelPacked(fn, grid, block, ImgBytes + 1024, pb, 44) ==
	              FIBER_SUCCESS, "%s: %s", f->name, fiberGetLastErrorMessage(r->dev));
	fiberGetStats(r->dev, &s1);
	ck_assert_msg(s1.hazards == s0.hazards, "%s: %llu hazards", f->name,
	              (unsigned long long)(s1.hazards - s0.hazards));
	fiberMemcpyDtoH(r->dev, cd, r->cd, 4 * nreg * Threads);
	for (unsigned i = 0; i < nreg * Threads; i++)
		ck_assert_msg(cd[i] == want[i], "%s A layout %u B layout %u sd %d: register %u thread %u:"
		              " 0x%08x, want 0x%08x", f->name, va, vb, sd, i / Threads, i % Threads,
		              cd[i], want[i]);
}

/* the forms of wgmma_isel.cu (gen_wgmma.py --isel): what fiberc selects, N up to 64, 96, 128 */
static int
isel_form(const GForm *f)
{
	return (!strcmp(f->at, "f16") || !strcmp(f->at, "bf16")) &&
	       (f->n <= 64 || f->n == 96 || f->n == 128);
}

/* every form (isel: those of isel_form) of the listing at path, A and B in layouts (v, v + 1)
 * for v = 0..nv-1 (MN-major only for 16-bit types), scale-d 0 once per form */
static void
run_all(fiberSimMode mode, unsigned nv, const char *path, int isel)
{
	Run r;
	unsigned ran = 0;

	init_forms();
	run_open(&r, mode, path);
	for (unsigned k = 0; k < nforms; k++) {
		if (isel && !isel_form(&forms[k]))
			continue;
		for (unsigned v = 0; v < nv; v++)
			run_form(&r, &forms[k], v, (v + 1) % 8, v != 2);
		ran++;
	}
	ck_assert_uint_eq(ran, isel ? 19 : nforms);
	fiberDeviceDestroy(r.dev);
}

static const char *
nvcc_listing(void)
{
	static char path[512];

	snprintf(path, sizeof path, "%s/examples/hopper/wgmma.sm_90a.sass", kr_root());
	return path;
}

START_TEST(test_gmma_functional)
{
	run_all(FIBER_MODE_FUNCTIONAL, 8, nvcc_listing(), 0);
}
END_TEST

START_TEST(test_gmma_timing)
{
	run_all(FIBER_MODE_TIMING, 2, nvcc_listing(), 0);
}
END_TEST

/* one form by name, on a device with configuration changes set (NULL-terminated), every
 * element of A a, of B b, C c, every D want (ovr); both modes */
static void
grouped_case(const char *form, const char *const *set, double a, uint32_t abits, double b,
             uint32_t bbits, double c, double want)
{
	const GForm *f = NULL;

	init_forms();
	for (unsigned k = 0; k < nforms; k++)
		if (!strcmp(forms[k].name, form))
			f = &forms[k];
	ck_assert_msg(f != NULL, "no form %s", form);
	ovr = (Ovr){ 1, a, b, c, want, abits, bbits };
	for (int mode = 0; mode < 2; mode++) {
		Run r;
		run_open(&r, mode ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL, nvcc_listing());
		for (const char *const *p = set; p && *p; p++)
			ck_assert_msg(fiberDeviceSetConfigValue(r.dev, *p) == FIBER_SUCCESS, "%s: %s", *p,
			              fiberGetLastErrorMessage(r.dev));
		run_form(&r, f, 0, 1, 1);
		fiberDeviceDestroy(r.dev);
	}
	ovr.on = 0;
}

/* wgmma's accumulation in groups (mma_block, mma_bits, mma_bits_f8; docs/sim-wgmma.md), on
 * inputs where it and the exact sum differ. m64n8k16 f16 -> f32, every product 2^-13 x 2^-13
 * = 2^-26, C = 1: the exact sum 1 + 16 x 2^-26 = 1 + 2^-22 is a binary32; in one group of 16
 * products + C at 25 bits the unit is 2^-24 (C = 1 = 2^0 sets it) and every product truncates to
 * 0: D = 1; at 27 bits (unit 2^-26) every product survives: 1 + 2^-22 again. m64n64k32 e4m3 x
 * e5m2: products 2^-6 x 2^-6 = 2^-12, C = 1, exact 1 + 32 x 2^-12 = 1 + 2^-7; with groups of 16
 * at mma_bits_f8 12 (unit 2^-11) they vanish: 1; at 14 (unit 2^-13) they survive: 1 + 2^-7;
 * mma_bits does not apply to FP8 inputs when mma_bits_f8 is set. */
START_TEST(test_gmma_grouped)
{
	static const char *const g25[] = { "mma_block=16", "mma_bits=25", NULL };
	static const char *const g27[] = { "mma_block=16", "mma_bits=27", NULL };
	static const char *const f12[] = { "mma_block=16", "mma_bits=40", "mma_bits_f8=12", NULL };
	static const char *const f14[] = { "mma_block=16", "mma_bits=1", "mma_bits_f8=14", NULL };
	const double h = ldexp(1, -13), q = ldexp(1, -6);

	/* f16 2^-13: exponent field 2; e4m3 2^-6: field 1; e5m2 2^-6: field 9 */
	grouped_case("k_h_f32_n8", NULL, h, 0x0800, h, 0x0800, 1, 1 + ldexp(1, -22));
	grouped_case("k_h_f32_n8", g25, h, 0x0800, h, 0x0800, 1, 1);
	grouped_case("k_h_f32_n8", g27, h, 0x0800, h, 0x0800, 1, 1 + ldexp(1, -22));
	grouped_case("k_q_f32_n64_e4e5", NULL, q, 0x08, q, 0x24, 1, 1 + ldexp(1, -7));
	grouped_case("k_q_f32_n64_e4e5", f12, q, 0x08, q, 0x24, 1, 1);
	grouped_case("k_q_f32_n64_e4e5", f14, q, 0x08, q, 0x24, 1, 1 + ldexp(1, -7));
}
END_TEST

/* the same forms through fiberc's wgmma selection (backend/isel/ptxsel_wgmma.c), from nvcc's
 * PTX of wgmma_isel.cu: every layout, both modes */
START_TEST(test_gmma_isel)
{
	char in[512], err[2048], *tmp;

	snprintf(in, sizeof in, "%s/examples/hopper/wgmma_isel.sm_90a.ptx", kr_root());
	tmp = kr_fiberc(in, "--arch=sm_90a", err, sizeof err);
	ck_assert_msg(tmp != NULL, "fiberc: %s", err);
	run_all(FIBER_MODE_FUNCTIONAL, 8, tmp, 1);
	run_all(FIBER_MODE_TIMING, 1, tmp, 1);
	unlink(tmp);
	free(tmp);
}
END_TEST

/* the timing of wgmma (docs/sim-wgmma.md): a chain of 8 m64n256k16 per group is bound by the
 * tensor pipe at the configured rate, and WARPGROUP.DEPBAR waits for the groups: the kernel of
 * examples/microbench/wgmma.cu reaches 0.9 to 1.0 of 4096 FLOP per clock on h100 and its
 * accumulator is exact */
START_TEST(test_gmma_rate)
{
	char path[512];
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr out;
	long long o[20], t0 = INT64_MAX, t1 = 0, flop = 0;
	int iters = 4;
	void *params[2] = { &out, &iters };
	unsigned grid[3] = { 1, 1, 1 }, block[3] = { Threads, 1, 1 };
	fiberStats s0, s1;
	double rate;

	snprintf(path, sizeof path, "%s/examples/microbench/wgmma.sm_90a.sass", kr_root());
	ck_assert_int_eq(fiberDeviceCreate(&dev, "h100"), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&mod, dev, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(dev));
	ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, "tputwg_f16_n256"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(dev, &out, sizeof o), FIBER_SUCCESS);
	fiberGetStats(dev, &s0);
	ck_assert_msg(fiberLaunchKernel(fn, grid, block, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(dev));
	fiberGetStats(dev, &s1);
	ck_assert_uint_eq(s1.hazards, s0.hazards);
	fiberMemcpyDtoH(dev, o, out, sizeof o);
	for (unsigned w = 0; w < 4; w++) {
		ck_assert_msg(o[5 * w + 2] == 1, "warp %u: accumulator wrong", w);
		t0 = o[5 * w] < t0 ? o[5 * w] : t0;
		t1 = o[5 * w + 1] > t1 ? o[5 * w + 1] : t1;
		flop += o[5 * w + 3] * o[5 * w + 4];
	}
	rate = (double)flop / (double)(t1 - t0);
	ck_assert_msg(rate > 0.9 * 4096 && rate <= 4096, "%.0f FLOP/clk/SM", rate);
	fiberDeviceDestroy(dev);
}
END_TEST

/* examples/hopper/gemm_wgmma (cp.async into 128-byte swizzled stages, HGMMA.64x64x16 with
 * .tnspB, two k-tiles), from ptxas (_i 0) or from fiberc on the PTX (_i 1,
 * backend/isel/ptxsel_wgmma.c): C equals a CPU GEMM (exact inputs) in both modes, no hazards */
START_TEST(test_gmma_gemm)
{
	enum { S = 128 };
	static uint16_t a[S * S], b[S * S];
	static float c[S * S], ref[S * S];
	static int ai[S * S], bi[S * S];
	char path[512], in[512], err[2048], *tmp = NULL;
	int n = S;

	if (_i == 0) {
		snprintf(path, sizeof path, "%s/examples/hopper/gemm_wgmma.sm_90a.sass", kr_root());
	} else {
		snprintf(in, sizeof in, "%s/examples/hopper/gemm_wgmma.sm_90a.ptx", kr_root());
		tmp = kr_fiberc(in, "--arch=sm_90a", err, sizeof err);
		ck_assert_msg(tmp != NULL, "fiberc: %s", err);
		snprintf(path, sizeof path, "%s", tmp);
	}
	for (unsigned i = 0; i < S * S; i++) {
		ai[i] = (int)rnd(9) - 4;              /* halves k / 2 */
		bi[i] = (int)rnd(9) - 4;
		a[i] = to_f16(ai[i] / 2.0);
		b[i] = to_f16(bi[i] / 2.0);
	}
	for (unsigned m = 0; m < S; m++)
		for (unsigned j = 0; j < S; j++) {
			long s = 0;
			for (unsigned k = 0; k < S; k++)
				s += (long)ai[m * S + k] * bi[k * S + j];
			ref[m * S + j] = (float)s / 4.0f;
		}
	for (int mode = 0; mode < 2; mode++) {
		fiberDevice dev;
		fiberModule mod;
		fiberFunction fn;
		fiberDevicePtr da, db, dc;
		fiberStats st;
		void *params[6] = { &da, &db, &dc, &n, &n, &n };
		unsigned grid[3] = { S / 64, S / 64, 1 }, block[3] = { Threads, 1, 1 };

		ck_assert_int_eq(fiberDeviceCreate(&dev, "h100"), FIBER_SUCCESS);
		fiberDeviceSetMode(dev, mode ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
		ck_assert_msg(fiberModuleLoadFile(&mod, dev, path) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(dev));
		ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, "gemm_f16_wgmma"), FIBER_SUCCESS);
		fiberMalloc(dev, &da, sizeof a);
		fiberMalloc(dev, &db, sizeof b);
		fiberMalloc(dev, &dc, sizeof c);
		fiberMemcpyHtoD(dev, da, a, sizeof a);
		fiberMemcpyHtoD(dev, db, b, sizeof b);
		ck_assert_msg(fiberLaunchKernel(fn, grid, block, 0, params) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(dev));
		fiberMemcpyDtoH(dev, c, dc, sizeof c);
		fiberGetStats(dev, &st);
		ck_assert_uint_eq(st.hazards, 0);
		ck_assert(mode == 0 || st.cycles > 0);
		for (unsigned i = 0; i < S * S; i++)
			ck_assert_msg(c[i] == ref[i], "mode %d: C[%u][%u] = %g, want %g", mode, i / S, i % S,
			              c[i], ref[i]);
		fiberDeviceDestroy(dev);
	}
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
}
END_TEST

/* setmaxnreg's pool (exec_uniform.c): a warp of a kernel using R200 holds 201 registers per
 * thread; the CTA's pool starts empty, so TRY_ALLOC fails until a DEALLOC has filled it, and
 * takes only what the pool holds */
START_TEST(test_setmaxreg_pool)
{
	Smt *t = smt_new("MOV R200, RZ ;\n"
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8 ;\n"   /* +31 x 32: pool empty */
	                 "USETMAXREG.DEALLOC.CTAPOOL 0x28 ;\n"          /* 201 -> 40: +161 x 32 */
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP1, 0xe8 ;\n"   /* 40 -> 232: 192 x 32 */
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP2, 0xa0 ;\n"   /* 40 -> 160: 120 x 32 */
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP3, 0x50 ;\n"   /* below 160: no change */
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP4, 0xc9 ;\n"   /* 160 -> 201: 41 x 32 */
	                 "USETMAXREG.TRY_ALLOC.CTAPOOL UP5, 0xc8 ;\n",  /* 201 -> 200: no change */
	                 0, 0);
	Warp *w = smt_warp(t);

	for (unsigned k = 0; k < 6; k++)
		w->up[k] = 7;                        /* a value no result leaves */
	for (unsigned k = 1; k < 8; k++)
		ck_assert_int_eq(smt_exec(t, k, ~0u), FaultNone);
	ck_assert_uint_eq(w->up[0], 0);
	ck_assert_uint_eq(w->up[1], 0);
	ck_assert_uint_eq(w->up[2], 1);
	ck_assert_uint_eq(w->up[3], 1);
	ck_assert_uint_eq(w->up[4], 1);
	ck_assert_uint_eq(w->up[5], 1);
	ck_assert_uint_eq(w->maxnreg, 201);
	smt_free(t);
}
END_TEST

/* setmaxnreg's window (exec_uniform.c, sim_window_exec): REGCOUNT 32 at launch; after a
 * DEALLOC to 24, R30 is outside the window (the named fault, and the MOV writes nothing); a
 * TRY_ALLOC back to 32 lets the warp name it again; R40 is past 32: the fault again. Only lanes
 * that execute are checked (mask 0). */
START_TEST(test_setmaxreg_window)
{
	Smt *t = smt_new_rc("USETMAXREG.DEALLOC.CTAPOOL 0x18 ;\n"          /* 32 -> 24 */
	                    "MOV R30, 0x5 ;\n"
	                    "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0x20 ;\n"   /* 24 -> 32 */
	                    "MOV R30, 0x7 ;\n"
	                    "MOV R40, 0x9 ;\n", 32);
	Warp *w = smt_warp(t);

	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	ck_assert_uint_eq(w->maxnreg, 24);
	ck_assert_int_eq(smt_exec(t, 1, 0), FaultNone);
	ck_assert_int_eq(smt_exec(t, 1, ~0u), FaultRegWindow);
	ck_assert_uint_eq(smt_r(t, 30)[0], 0);
	smt_free(t);
	t = smt_new_rc("USETMAXREG.DEALLOC.CTAPOOL 0x18 ;\n"
	               "MOV R30, 0x5 ;\n"
	               "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0x20 ;\n"
	               "MOV R30, 0x7 ;\n"
	               "MOV R40, 0x9 ;\n", 32);
	w = smt_warp(t);
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	ck_assert_int_eq(smt_exec(t, 2, ~0u), FaultNone);
	ck_assert_uint_eq(w->up[0], 1);
	ck_assert_uint_eq(w->maxnreg, 32);
	ck_assert_int_eq(smt_exec(t, 3, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 30)[31], 7);
	ck_assert_int_eq(smt_exec(t, 4, ~0u), FaultRegWindow);
	ck_assert_uint_eq(smt_r(t, 40)[0], 0);
	smt_free(t);
}
END_TEST

/* examples/hopper/setmaxnreg.cu (k_wspec): consumers setmaxnreg.inc 232 before the producer's
 * setmaxnreg.dec 40 in warp order; the retry loop ends once the producer has given its
 * registers back: every thread's output, in both modes */
START_TEST(test_setmaxreg_kernel)
{
	char path[512];
	static float in[384 * 48], out[384];
	int n = 3;

	snprintf(path, sizeof path, "%s/examples/hopper/setmaxnreg.sm_90a.sass", kr_root());
	for (unsigned i = 0; i < 384 * 48; i++)
		in[i] = (float)((int)rnd(17) - 8) / 8.0f;
	for (int mode = 0; mode < 2; mode++) {
		fiberDevice dev;
		fiberModule mod;
		fiberFunction fn;
		fiberDevicePtr dout, din;
		void *params[3] = { &dout, &din, &n };
		unsigned grid[3] = { 1, 1, 1 }, block[3] = { 384, 1, 1 };

		ck_assert_int_eq(fiberDeviceCreate(&dev, "h100"), FIBER_SUCCESS);
		fiberDeviceSetMode(dev, mode ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
		ck_assert_msg(fiberModuleLoadFile(&mod, dev, path) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(dev));
		ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, "k_wspec"), FIBER_SUCCESS);
		fiberMalloc(dev, &dout, sizeof out);
		fiberMalloc(dev, &din, sizeof in);
		fiberMemcpyHtoD(dev, din, in, sizeof in);
		ck_assert_msg(fiberLaunchKernel(fn, grid, block, 0, params) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(dev));
		fiberMemcpyDtoH(dev, out, dout, sizeof out);
		for (unsigned th = 0; th < 384; th++) {
			float want;
			if (th >= 256) {
				want = in[th];
			} else {
				float acc[48], s = 0;
				for (int i = 0; i < 48; i++)
					acc[i] = in[th + 384 * i];
				for (int k = 0; k < n; k++)
					for (int i = 0; i < 48; i++)
						acc[i] = fmaf(acc[i], 1.0001f, (float)(k + i));
				for (int i = 0; i < 48; i++)
					s += acc[i];
				want = s;
			}
			ck_assert_msg(out[th] == want, "mode %d thread %u: %.9g, want %.9g", mode, th,
			              out[th], want);
		}
		fiberDeviceDestroy(dev);
	}
}
END_TEST

/* examples/hopper/setmaxnreg_wide.cu (k_wide): REGCOUNT 168, consumers name R0-R203 after
 * setmaxnreg.inc 240. The launch allocates REGCOUNT (204 registers x 384 threads would not fit:
 * refused before register windows moved), every thread's output equals the CPU's in both modes
 * (_i 0); the mutant whose TRY_ALLOC asks for 168 (what the warp holds: no inc) faults with the
 * named fault at the first register past the window, in both modes (_i 1) */
START_TEST(test_setmaxreg_wide)
{
	static const char inc[] = "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xf0 ;";
	char path[512], *text, *at;
	static float in[256 * 200], out[384];
	int n = 3;
	long size;
	FILE *f;

	snprintf(path, sizeof path, "%s/examples/hopper/setmaxnreg_wide.sm_90a.sass", kr_root());
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = malloc((size_t)size + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	text[size] = 0;
	at = strstr(text, inc);
	ck_assert_msg(at != NULL, "no '%s' in the listing", inc);
	if (_i)
		memcpy(at + sizeof inc - 7, "0xa8", 4); /* "0xf0 ;" -> "0xa8 ;" */
	for (unsigned i = 0; i < 256 * 200; i++)
		in[i] = (float)((int)rnd(17) - 8) / 8.0f;
	for (int mode = 0; mode < 2; mode++) {
		fiberDevice dev;
		fiberModule mod;
		fiberFunction fn;
		fiberDevicePtr dout, din;
		fiberFault fault;
		void *params[3] = { &dout, &din, &n };
		unsigned grid[3] = { 1, 1, 1 }, block[3] = { 384, 1, 1 };
		fiberStatus rc;

		ck_assert_int_eq(fiberDeviceCreate(&dev, "h100"), FIBER_SUCCESS);
		fiberDeviceSetMode(dev, mode ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
		ck_assert_msg(fiberModuleLoadData(&mod, dev, text, (size_t)size, path) == FIBER_SUCCESS,
		              "%s", fiberGetLastErrorMessage(dev));
		ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, "k_wide"), FIBER_SUCCESS);
		fiberMalloc(dev, &dout, sizeof out);
		fiberMalloc(dev, &din, sizeof in);
		fiberMemcpyHtoD(dev, din, in, sizeof in);
		rc = fiberLaunchKernel(fn, grid, block, 0, params);
		if (_i) {
			ck_assert_int_eq(rc, FIBER_ERROR_LAUNCH_FAILED);
			ck_assert_int_eq(fiberGetLastFault(dev, &fault), FIBER_SUCCESS);
			ck_assert_int_eq(fault.kind, FIBER_FAULT_REG_WINDOW);
			ck_assert_str_eq(fault.name, "register outside the setmaxnreg window");
			ck_assert_msg(strstr(fault.message, "holds 168 registers per thread"), "%s",
			              fault.message);
			fiberDeviceDestroy(dev);
			continue;
		}
		ck_assert_msg(rc == FIBER_SUCCESS, "mode %d: %s", mode, fiberGetLastErrorMessage(dev));
		fiberMemcpyDtoH(dev, out, dout, sizeof out);
		for (unsigned th = 0; th < 384; th++) {
			float acc[200], want = 0;
			if (th >= 256) {
				want = in[th];
			} else {
				for (int i = 0; i < 200; i++)
					acc[i] = in[th + 256 * i];
				for (int k = 0; k < n; k++)
					for (int i = 0; i < 200; i++)
						acc[i] = acc[i] * 0.5f + (float)((k + i) & 7);
				for (int i = 0; i < 200; i++)
					want += acc[i];
			}
			ck_assert_msg(out[th] == want, "mode %d thread %u: %.9g, want %.9g", mode, th,
			              out[th], want);
		}
		fiberDeviceDestroy(dev);
	}
	free(text);
}
END_TEST

/* Triton 3.9's tutorial matmul and flash-attention forward for sm_90a (bench/ptx, tl.dot with
 * 4 warps: wgmma.mma_async with a predicate scale-d): ptxas's SASS and fiberc's compile of the
 * same PTX compute the same buffers, in timing mode on h100, without hazards (_i: the kernel) */
START_TEST(test_gmma_triton)
{
	static const char *const names[] = { "matmul_f16", "flash_attn_fwd" };
	char lines[32][2048], path[512], in[512], err[2048], *tmp;
	const char *line = NULL;
	KRun a, b;
	int n;

	snprintf(path, sizeof path, "%s/bench/ptx/kernels.txt", kr_root());
	n = kr_read_lines(path, lines, 32);
	for (int k = 0; k < n; k++)
		if (!strncmp(lines[k], names[_i], strlen(names[_i])) && lines[k][strlen(names[_i])] == ' ')
			line = lines[k];
	ck_assert_msg(line != NULL, "%s: no line for %s", path, names[_i]);
	snprintf(path, sizeof path, "%s/bench/ptx/%s/%s.sm_90.sass", kr_root(), names[_i], names[_i]);
	snprintf(in, sizeof in, "%s/bench/ptx/%s/%s.sm_90.ptx", kr_root(), names[_i], names[_i]);
	tmp = kr_fiberc(in, "", err, sizeof err);
	ck_assert_msg(tmp != NULL, "fiberc: %s", err);
	ck_assert_int_eq(kr_run_line(path, "h100", FIBER_MODE_TIMING, line, &a), 0);
	ck_assert_int_eq(kr_run_line(tmp, "h100", FIBER_MODE_TIMING, line, &b), 0);
	ck_assert_msg(a.status == FIBER_SUCCESS, "ptxas: %s", a.err);
	ck_assert_msg(b.status == FIBER_SUCCESS, "fiberc: %s", b.err);
	ck_assert_uint_eq(a.hazards, 0);
	ck_assert_uint_eq(b.hazards, 0);
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_msg(memcmp(a.buf, b.buf, a.n) == 0, "%s: fiberc's buffers differ from ptxas's",
	              names[_i]);
	kr_free(&a);
	kr_free(&b);
	unlink(tmp);
	free(tmp);
}
END_TEST

Suite *
simgmma_suite(void)
{
	Suite *s = suite_create("simgmma");
	TCase *tc = tcase_create("wgmma");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_gmma_functional);
	tcase_add_test(tc, test_gmma_timing);
	tcase_add_test(tc, test_gmma_grouped);
	tcase_add_test(tc, test_gmma_isel);
	tcase_add_test(tc, test_gmma_rate);
	tcase_add_loop_test(tc, test_gmma_gemm, 0, 2);
	tcase_add_loop_test(tc, test_gmma_triton, 0, 2);
	tcase_add_test(tc, test_setmaxreg_pool);
	tcase_add_test(tc, test_setmaxreg_window);
	tcase_add_test(tc, test_setmaxreg_kernel);
	tcase_add_loop_test(tc, test_setmaxreg_wide, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
