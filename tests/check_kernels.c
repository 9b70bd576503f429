/* check_kernels.c: every example kernel (examples/kernels.txt) run by the functional simulator
 * on its sm_80 and its sm_90 SASS, with deterministic inputs (tests/ref/gen.c), compared with a
 * CPU reference written from the mathematical definition in the kernel's .cu header
 * (tests/ref/). Each tolerance is derived in a comment next to it; u = 2^-24 is the unit
 * roundoff of fp32. Outputs are pre-filled with 0xff bytes (NaN in fp32 and fp16), so an element
 * the kernel never writes fails. Besides the kernels.txt configuration, some kernels run in a
 * second shape (ragged sizes: early-exiting warps, divergent loops; sincosf's large-argument
 * path; the cuobjdump listing with a packed parameter block). FIBER_KERNELS_VERBOSE=1 prints the
 * errors and instruction counts of passing cases too. The first test case ("ref") checks the
 * references themselves on hand-computed examples.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ref/ref.h"

Suite *kernels_suite(void);

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define LN2 0.69314718055994530942

/* ---------------------------------------------------------------------------------------------
 * The references on hand-computed cases.
 */

START_TEST(test_ref_f16)
{
	/* exact values, the largest finite, rounding at the top, subnormals, ties to even */
	ck_assert_uint_eq(f16_from_double(1.0), 0x3c00);
	ck_assert_uint_eq(f16_from_double(-2.0), 0xc000);
	ck_assert_uint_eq(f16_from_double(65504.0), 0x7bff);
	ck_assert_uint_eq(f16_from_double(65519.99), 0x7bff);
	ck_assert_uint_eq(f16_from_double(65520.0), 0x7c00);
	ck_assert_uint_eq(f16_from_double(-1e9), 0xfc00);
	ck_assert_uint_eq(f16_from_double(0x1p-24), 0x0001);
	ck_assert_uint_eq(f16_from_double(0x1p-25), 0x0000);      /* tie to even: 0 */
	ck_assert_uint_eq(f16_from_double(0x1.8p-24), 0x0002);   /* tie to even: 2 */
	ck_assert_uint_eq(f16_from_double(0x1.ffcp-15), 0x0400);  /* 1023.5 quanta: ties up to 1024 */
	ck_assert_uint_eq(f16_from_double(1.0 + 0x1p-11), 0x3c00);
	ck_assert_uint_eq(f16_from_double(1.0 + 0x3p-11), 0x3c02);
	ck_assert_uint_eq(f16_from_double(1.0 + 0x1.0001p-11), 0x3c01);
	ck_assert_uint_eq(f16_from_double(0.1), 0x2e66);
	ck_assert_uint_eq(f16_from_double(-0.0), 0x8000);
	ck_assert_uint_eq(f16_from_double(INFINITY), 0x7c00);
	ck_assert_uint_eq(f16_from_double(NAN) & 0x7e00, 0x7e00);
	ck_assert(isnan(f16_to_double(0x7e00)));
	ck_assert(f16_to_double(0xfc00) == -INFINITY);
	ck_assert(f16_to_double(0x0001) == 0x1p-24);
	ck_assert(f16_to_double(0x3555) == 0x1.554p-2);
	/* every finite pattern survives the round trip */
	for (unsigned h = 0; h < 0x10000; h++)
		if ((h & 0x7c00) != 0x7c00)
			ck_assert_uint_eq(f16_from_double(f16_to_double((uint16_t)h)), h);
	ck_assert(f16_ulp(1.0) == 0x1p-10);
	ck_assert(f16_ulp(0.999) == 0x1p-11);
	ck_assert(f16_ulp(1e-7) == 0x1p-24);
	ck_assert(f16_ulp(3000.0) == 2.0);
	/* bfloat16 */
	ck_assert_uint_eq(bf16_from_float(1.0f), 0x3f80);
	ck_assert_uint_eq(bf16_from_float(1.0f + 0x1p-8f), 0x3f80);     /* tie to even */
	ck_assert_uint_eq(bf16_from_float(1.0f + 0x3p-8f), 0x3f82);     /* tie to even, up */
	ck_assert_uint_eq(bf16_from_float(1.0f + 0x1.02p-8f), 0x3f81);
	ck_assert_uint_eq(bf16_from_float(0x1.fffffep127f), 0x7f80);   /* overflows to inf */
	ck_assert_uint_eq(bf16_from_float(-INFINITY), 0xff80);
	ck_assert_uint_eq(bf16_from_float(NAN) & 0x7fc0, 0x7fc0);
	ck_assert(bf16_to_float(0x4049) == 3.140625f);
}
END_TEST

START_TEST(test_ref_rng)
{
	/* pcg32_srandom_r(&rng, 42, 54), the first outputs of the PCG reference demo */
	static const uint32_t want[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293};
	Rng r;
	float a[64], b[64];
	uint16_t h[4096];
	uint8_t q[4096];

	rng_seed(&r, 42, 54);
	for (size_t i = 0; i < NELEM(want); i++)
		ck_assert_uint_eq(rng_u32(&r), want[i]);
	gen_f32(a, 64, 7, -1.0, 1.0);
	gen_f32(b, 64, 7, -1.0, 1.0);
	ck_assert(memcmp(a, b, sizeof a) == 0);
	gen_f32(b, 64, 8, -1.0, 1.0);
	ck_assert(memcmp(a, b, sizeof a) != 0);
	gen_f16(h, NELEM(h), 3, -2.0, 2.0);
	for (size_t i = 0; i < NELEM(h); i++)
		ck_assert(fabs(f16_to_double(h[i])) <= 2.0);
	gen_u4(q, NELEM(q), 5);
	{
		int seen[16] = {0};
		for (size_t i = 0; i < NELEM(q); i++)
			seen[q[i]]++;
		for (int i = 0; i < 16; i++)
			ck_assert_int_gt(seen[i], 0);
	}
}
END_TEST

static void
ck_near(double got, double want, double tol)
{
	ck_assert_msg(fabs(got - want) <= tol, "got %.17g, want %.17g", got, want);
}

START_TEST(test_ref_rows)
{
	float x[2] = {0.0f, (float)LN2};
	double y[2];
	uint16_t hx[2] = {f16_from_double(3.0), f16_from_double(4.0)};
	uint16_t hw[2] = {f16_from_double(1.0), f16_from_double(2.0)};

	/* softmax([0, ln 2]) = [1/3, 2/3] (ln 2 rounded to fp32: 2e-8 relative) */
	ref_softmax(x, y, 1, 2);
	ck_near(y[0], 1.0 / 3, 1e-8);
	ck_near(y[1], 2.0 / 3, 1e-8);
	/* a second row, shifted by 100: same result (max subtracted) */
	{
		float x2[4] = {5.0f, 5.0f, 100.0f, 100.0f};
		double y2[4];
		ref_softmax(x2, y2, 2, 2);
		ck_near(y2[0], 0.5, 1e-15);
		ck_near(y2[3], 0.5, 1e-15);
	}
	/* RMSNorm of [3, 4], w = [1, 2], eps = 0: mean square 12.5, y = [3, 8] / sqrt(12.5) */
	ref_rmsnorm(hx, hw, y, 1, 2, 0.0);
	ck_near(y[0], 3.0 / sqrt(12.5), 1e-15);
	ck_near(y[1], 8.0 / sqrt(12.5), 1e-15);
}
END_TEST

START_TEST(test_ref_elem)
{
	/* RoPE, one token at pos 1, one head, dhead 4: pair 0 turns by 1 rad, pair 1 by
	 * 10000^(-2/4) = 0.01 rad */
	float q[4] = {1.0f, 0.0f, 0.0f, 2.0f};
	uint16_t k[4], g[3], u[3];
	double qo[4], ko[4], o[3];

	for (int i = 0; i < 4; i++)
		k[i] = f16_from_double(q[i]);
	ref_rope(q, k, qo, ko, 1, 1, 4, 1, 10000.0);
	ck_near(qo[0], cos(1.0), 1e-15);
	ck_near(qo[1], sin(1.0), 1e-15);
	ck_near(qo[2], -2.0 * sin(0.01), 1e-15);
	ck_near(qo[3], 2.0 * cos(0.01), 1e-15);
	for (int i = 0; i < 4; i++)
		ck_near(ko[i], qo[i], 0.0);
	/* token 1 of two is at position pos_offset + 1 */
	{
		float q2[8] = {0, 0, 0, 0, 1, 0, 0, 0};
		uint16_t k2[8] = {0};
		double qo2[8], ko2[8];
		ref_rope(q2, k2, qo2, ko2, 2, 1, 4, 2, 10000.0);
		ck_near(qo2[4], cos(3.0), 1e-15);
		ck_near(qo2[5], sin(3.0), 1e-15);
	}
	/* SiLU gate: silu(0) = 0, silu(1) = 1/(1 + 1/e), silu(-1) = -1/(1 + e) */
	g[0] = f16_from_double(0.0);
	g[1] = f16_from_double(1.0);
	g[2] = f16_from_double(-1.0);
	u[0] = u[1] = u[2] = f16_from_double(2.0);
	ref_silu_mul(g, u, o, 3);
	ck_near(o[0], 0.0, 0.0);
	ck_near(o[1], 2.0 / (1.0 + exp(-1.0)), 1e-15);
	ck_near(o[2], -2.0 / (1.0 + exp(1.0)), 1e-15);
}
END_TEST

START_TEST(test_ref_gemm)
{
	/* [1 2; 3 4] [5 6; 7 8] = [19 22; 43 50]; |products| sums [19 22; 43 50] too */
	double av[4] = {1, 2, 3, 4}, bv[4] = {5, 6, 7, 8}, want[4] = {19, 22, 43, 50};
	uint16_t a[4], b[4];
	double c[4], ca[4];

	for (int i = 0; i < 4; i++) {
		a[i] = f16_from_double(av[i]);
		b[i] = f16_from_double(bv[i]);
	}
	ref_gemm(a, b, c, ca, 2, 2, 2);
	for (int i = 0; i < 4; i++) {
		ck_near(c[i], want[i], 0.0);
		ck_near(ca[i], want[i], 0.0);
	}
	/* a 1x3 by 3x1 with a negative term: 1*1 + (-2)*3 + 0.5*4 = -3, |.| sum 9 */
	{
		uint16_t a2[3], b2[3];
		double v[3] = {1, -2, 0.5}, w[3] = {1, 3, 4};
		for (int i = 0; i < 3; i++) {
			a2[i] = f16_from_double(v[i]);
			b2[i] = f16_from_double(w[i]);
		}
		ref_gemm(a2, b2, c, ca, 1, 1, 3);
		ck_near(c[0], -3.0, 0.0);
		ck_near(ca[0], 9.0, 0.0);
	}
}
END_TEST

START_TEST(test_ref_w4a16)
{
	/* packing: q[0..7] = 1..8 -> 0x87654321 (nibble j of the word is element 8 kw + j) */
	uint8_t q[2 * 128];
	uint32_t w[2 * 16];
	uint16_t s[2], z[2], x[128];
	double y[2], ya[2];

	for (int j = 0; j < 8; j++)
		q[j] = (uint8_t)(j + 1);
	pack_int4(q, w, 1, 8);
	ck_assert_uint_eq(w[0], 0x87654321u);
	/* one group of 128 per row: row 0 all q = 1 except q[0] = 15, q[9] = 3, zero 1, scale 0.5,
	 * x = 1: y = 0.5 (14 + 2) = 8; row 1 all q = 0, zero 8, scale 0.25, x alternating +-1: 0 */
	memset(q, 1, 128);
	q[0] = 15;
	q[9] = 3;
	memset(q + 128, 0, 128);
	pack_int4(q, w, 2, 128);
	s[0] = f16_from_double(0.5);
	z[0] = f16_from_double(1.0);
	s[1] = f16_from_double(0.25);
	z[1] = f16_from_double(8.0);
	for (int i = 0; i < 128; i++)
		x[i] = f16_from_double(i & 1 ? -1.0 : 1.0);
	ref_w4a16(w, s, z, x, y, ya, 2, 128);
	/* row 0 with alternating x: element 0 (+) 7, element 9 (-) 1, the others 0 */
	ck_near(y[0], 7.0 - 1.0, 0.0);
	ck_near(ya[0], 8.0, 0.0);
	ck_near(y[1], 0.0, 0.0);
	ck_near(ya[1], 128 * 2.0, 0.0);
	for (int i = 0; i < 128; i++)
		x[i] = f16_from_double(1.0);
	ref_w4a16(w, s, z, x, y, ya, 1, 128);
	ck_near(y[0], 8.0, 0.0);
}
END_TEST

START_TEST(test_ref_attn)
{
	/* d = 1, q = 1, keys 0 and 1, scale ln 2: scores [0, ln 2], P = [1/3, 2/3];
	 * V = [3, 6]: O = 1 + 4 = 5 */
	uint16_t q[2] = {f16_from_double(1.0), f16_from_double(1.0)};
	uint16_t k[2] = {f16_from_double(0.0), f16_from_double(1.0)};
	uint16_t v[2] = {f16_from_double(3.0), f16_from_double(-6.0)};
	double o[2], oa[2], sm[2], po[2], pm[2], pl[2];

	v[1] = f16_from_double(6.0);
	ref_attention(q, k, v, o, oa, sm, 1, 2, 1, LN2, 0);
	ck_near(o[0], 5.0, 1e-14);
	ck_near(oa[0], 5.0, 1e-14);
	ck_near(sm[0], 1.0, 0.0);
	/* causal, two queries: query 0 sees key 0 only (O = 3), query 1 both (O = 5) */
	ref_attention(q, k, v, o, NULL, NULL, 2, 2, 1, LN2, 1);
	ck_near(o[0], 3.0, 0.0);
	ck_near(o[1], 5.0, 1e-14);
	/* |V| weighting: V = [3, -6] gives O = 1 - 4 = -3 and sum P|V| = 5 */
	v[1] = f16_from_double(-6.0);
	ref_attention(q, k, v, o, oa, NULL, 1, 2, 1, LN2, 0);
	ck_near(o[0], -3.0, 1e-14);
	ck_near(oa[0], 5.0, 1e-14);
	/* flash-decoding partials with one key per split: m_i = s_i, l_i = 1, o_i = V_i; the
	 * combine formula of flash_decoding.cu gives the attention output back */
	ref_decode_partial(q, k, v, po, pm, pl, 2, 1, 1, LN2);
	ck_near(pm[0], 0.0, 0.0);
	ck_near(pm[1], LN2, 1e-16);
	ck_near(pl[0], 1.0, 0.0);
	ck_near(pl[1], 1.0, 0.0);
	ck_near(po[0], 3.0, 0.0);
	ck_near(po[1], -6.0, 0.0);
	{
		double mm = fmax(pm[0], pm[1]), l = 0.0, acc = 0.0;
		for (int i = 0; i < 2; i++) {
			l += pl[i] * exp(pm[i] - mm);
			acc += po[i] * exp(pm[i] - mm);
		}
		ck_near(acc / l, -3.0, 1e-14);
	}
	/* one split of both keys: m = ln 2, l = 1/2 + 1 */
	ref_decode_partial(q, k, v, po, pm, pl, 2, 2, 1, LN2);
	ck_near(pm[0], LN2, 1e-16);
	ck_near(pl[0], 1.5, 1e-15);
	ck_near(po[0], 1.5 - 6.0, 1e-14);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The kernels on the simulator, through the runtime library (runtime/fiber.h).
 */
#include "fiber.h"
#include "ptxrun.h"

typedef struct Dev {
	fiberDevice dev;   /* a fresh device per case: a100 for sm_80, h100 or b200 for sm_90 */
	fiberModule mod;   /* examples/<dir>/<dir>.sm_<arch>.sass */
	int arch;          /* 80 or 90 */
	const char *config; /* a100, h100, b200 */
	char what[96];     /* "gemm_f16_tc sm_80", for messages */
	size_t nbad;       /* elements out of tolerance over every output checked */
	int verbose;       /* FIBER_KERNELS_VERBOSE: report passing outputs too */
} Dev;

static void
dev_open(Dev *v, const char *dir, const char *sfx, const char *what, int arch,
         const char *config)
{
	const char *root = getenv("FIBER_ROOT");
	char path[512];
	fiberStatus st;

	memset(v, 0, sizeof *v);
	v->arch = arch;
	v->config = config;
	v->verbose = getenv("FIBER_KERNELS_VERBOSE") && *getenv("FIBER_KERNELS_VERBOSE") != '0';
	snprintf(v->what, sizeof v->what, "%s sm_%d on %s", what, arch, config);
	snprintf(path, sizeof path, "%s/examples/%s/%s.sm_%d%s.sass", root ? root : ".", dir, dir,
	         arch, sfx);
	st = fiberDeviceCreate(&v->dev, config);
	ck_assert_msg(st == FIBER_SUCCESS, "%s: device: %s", v->what, fiberGetLastErrorMessage(NULL));
	st = fiberModuleLoadFile(&v->mod, v->dev, path);
	if (st != FIBER_SUCCESS)          /* the first diagnostics of the log (1 KB) */
		fprintf(stderr, "kernels: %s: %s\n%.1024s\n", v->what,
		        fiberGetLastErrorMessage(v->dev), fiberGetLastErrorLog(v->dev));
	ck_assert_msg(st == FIBER_SUCCESS, "%s: loading %s: %s", v->what, path,
	              fiberGetLastErrorMessage(v->dev));
}

/* the same for the listing fiberc compiles from examples/<dir>/<dir>.sm_<arch>.ptx (issue 11),
 * run in mode (functional or timing) */
static void
dev_open_ptx(Dev *v, const char *dir, const char *what, int arch, const char *config,
             fiberSimMode mode)
{
	const char *root = getenv("FIBER_ROOT");
	char path[512], arch_s[16], *ptx, *sass;
	PrRun r = {0};
	FILE *f;
	long n;

	memset(v, 0, sizeof *v);
	v->arch = arch;
	v->config = config;
	v->verbose = getenv("FIBER_KERNELS_VERBOSE") && *getenv("FIBER_KERNELS_VERBOSE") != '0';
	snprintf(v->what, sizeof v->what, "%s sm_%d from PTX on %s (%s)", what, arch, config,
	         mode == FIBER_MODE_FUNCTIONAL ? "functional" : "timing");
	snprintf(path, sizeof path, "%s/examples/%s/%s.sm_%d.ptx", root ? root : ".", dir, dir, arch);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: cannot read %s", v->what, path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	ptx = malloc((size_t)n + 1);
	ptx[fread(ptx, 1, (size_t)n, f)] = 0;
	fclose(f);
	snprintf(arch_s, sizeof arch_s, "sm_%d", arch);
	r.arch = arch_s;
	sass = pr_compile(ptx, &r);
	free(ptx);
	if (!sass)
		fprintf(stderr, "kernels: %s: %.2048s\n", v->what, r.err);
	ck_assert_msg(sass != NULL, "%s: fiberc failed (messages on stderr)", v->what);
	ck_assert(fiberDeviceCreate(&v->dev, config) == FIBER_SUCCESS);
	fiberDeviceSetMode(v->dev, mode);
	fiberStatus st = fiberModuleLoadData(&v->mod, v->dev, sass, strlen(sass), path);
	if (st != FIBER_SUCCESS)
		fprintf(stderr, "kernels: %s: %s\n%.1024s\n", v->what,
		        fiberGetLastErrorMessage(v->dev), fiberGetLastErrorLog(v->dev));
	free(sass);
	ck_assert_msg(st == FIBER_SUCCESS, "%s: loading fiberc's listing: %s", v->what,
	              fiberGetLastErrorMessage(v->dev));
}

static void
dev_close(Dev *v)
{
	fiberStats s;

	/* every example runs in timing mode (the default) and reports cycles */
	ck_assert_int_eq(fiberGetStats(v->dev, &s), FIBER_SUCCESS);
	ck_assert_msg(s.launches > 0 && s.cycles > 0 && s.cycles < s.warp_instructions * 1000,
	              "%s: %llu cycles for %llu warp instructions", v->what,
	              (unsigned long long)s.cycles, (unsigned long long)s.warp_instructions);
	/* nvcc's control bits never read a register before the model's latency for it: the
	 * configured fixed latencies agree with the compiler's */
	ck_assert_msg(s.hazards == 0, "%s: %llu hazards", v->what, (unsigned long long)s.hazards);

	if (v->verbose && fiberGetStats(v->dev, &s) == FIBER_SUCCESS)
		fprintf(stderr, "kernels: %s: %llu launches, %llu warp instructions, %llu thread "
		        "instructions\n", v->what, (unsigned long long)s.launches,
		        (unsigned long long)s.warp_instructions,
		        (unsigned long long)s.thread_instructions);
	fiberDeviceDestroy(v->dev);
}

/* a device buffer holding n bytes of host (NULL: 0xff bytes, NaN in fp32 and fp16) */
static fiberDevicePtr
dev_buf(Dev *v, const void *host, size_t n)
{
	fiberDevicePtr p;

	ck_assert_msg(fiberMalloc(v->dev, &p, n) == FIBER_SUCCESS, "%s: malloc %zu: %s", v->what,
	              n, fiberGetLastErrorMessage(v->dev));
	if (host)
		ck_assert(fiberMemcpyHtoD(v->dev, p, host, n) == FIBER_SUCCESS);
	else
		ck_assert(fiberMemset(v->dev, p, 0xff, n) == FIBER_SUCCESS);
	return p;
}

static void
dev_get(Dev *v, void *host, fiberDevicePtr p, size_t n)
{
	ck_assert_msg(fiberMemcpyDtoH(v->dev, host, p, n) == FIBER_SUCCESS, "%s: read back: %s",
	              v->what, fiberGetLastErrorMessage(v->dev));
}

/* launch kernel with a 1-D block, params[i] pointing at parameter i's value */
static void
dev_launch(Dev *v, const char *kernel, unsigned gx, unsigned gy, unsigned bx, void **params)
{
	unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, 1, 1};
	fiberFunction fn;
	fiberFault f;
	fiberStatus st;

	st = fiberModuleGetFunction(&fn, v->mod, kernel);
	ck_assert_msg(st == FIBER_SUCCESS, "%s: no kernel %s", v->what, kernel);
	st = fiberLaunchKernel(fn, grid, block, 0, params);
	if (st != FIBER_SUCCESS) {
		memset(&f, 0, sizeof f);
		fiberGetLastFault(v->dev, &f);
		fprintf(stderr, "kernels: %s: %s: %s; fault: %s\n", v->what, kernel,
		        fiberGetLastErrorMessage(v->dev), f.message);
	}
	ck_assert_msg(st == FIBER_SUCCESS, "%s: launch %s: %s", v->what, kernel,
	              fiberGetLastErrorMessage(v->dev));
}

/* the same with the parameter block as the kernel reads it (a listing without .nv.info) */
static void
dev_launch_packed(Dev *v, const char *kernel, unsigned gx, unsigned bx, const void *pb,
                  size_t size)
{
	unsigned grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
	fiberFunction fn;
	fiberStatus st;

	st = fiberModuleGetFunction(&fn, v->mod, kernel);
	ck_assert_msg(st == FIBER_SUCCESS, "%s: no kernel %s", v->what, kernel);
	st = fiberLaunchKernelPacked(fn, grid, block, 0, pb, size);
	ck_assert_msg(st == FIBER_SUCCESS, "%s: launch %s: %s", v->what, kernel,
	              fiberGetLastErrorMessage(v->dev));
}

static double *
from_f32(const float *x, size_t n)
{
	double *d = malloc(sizeof *d * n);

	for (size_t i = 0; i < n; i++)
		d[i] = x[i];
	return d;
}

static double *
from_f16(const uint16_t *x, size_t n)
{
	double *d = malloc(sizeof *d * n);

	for (size_t i = 0; i < n; i++)
		d[i] = f16_to_double(x[i]);
	return d;
}

/* bound for an fp16 output whose fp32 value before rounding is within e32 of the exact ref:
 * rounding adds at most half an fp16 ulp at |value| <= |ref| + e32 */
static double
half_tol(double ref, double e32)
{
	return e32 + 0.5 * f16_ulp(fabs(ref) + e32);
}

/* compare n outputs with the reference, element i within tol[i]; report on failure (always
 * with FIBER_KERNELS_VERBOSE) the largest absolute and relative errors and the first misses */
static void
cmp_out(Dev *v, const char *name, const double *got, const double *ref, const double *tol,
        size_t n)
{
	size_t bad = 0, worst = 0, shown = 0;
	double maxabs = 0.0, maxrel = 0.0, ratio = 0.0;

	for (size_t i = 0; i < n; i++) {
		double err = fabs(got[i] - ref[i]);
		if (isnan(err))
			err = INFINITY;
		if (!(err <= tol[i]))
			bad++;
		maxabs = fmax(maxabs, err);
		if (ref[i] != 0.0)
			maxrel = fmax(maxrel, err / fabs(ref[i]));
		if (err / tol[i] > ratio) {       /* NaN (0/0) is never larger */
			ratio = err / tol[i];
			worst = i;
		}
	}
	if (bad || v->verbose)
		fprintf(stderr, "kernels: %s %s: %zu/%zu out of tolerance; max abs err %.3g, max rel "
		        "err %.3g, max err/tol %.3g at [%zu] (got %.9g, want %.9g, tol %.3g)\n",
		        v->what, name, bad, n, maxabs, maxrel, ratio, worst, got[worst], ref[worst],
		        tol[worst]);
	for (size_t i = 0; i < n && bad && shown < 4; i++)
		if (!(fabs(got[i] - ref[i]) <= tol[i])) {
			fprintf(stderr, "kernels: %s %s[%zu] = %.9g, want %.9g (tol %.3g)\n", v->what,
			        name, i, got[i], ref[i], tol[i]);
			shown++;
		}
	v->nbad += bad;
}

static void
dev_done(Dev *v)
{
	size_t bad = v->nbad;
	char what[96];

	memcpy(what, v->what, sizeof what);
	dev_close(v);
	ck_assert_msg(bad == 0, "%s: %zu output elements out of tolerance (details on stderr)",
	              what, bad);
}

/* ---- softmax ---------------------------------------------------------------------------- */
enum { SoftmaxExample, SoftmaxRagged, SoftmaxCuobjdump };

static void
run_softmax(Dev *v, int variant)
{
	enum { N = 2048 };
	/* the example, and a ragged shape: 7 rows (the last CTA's fourth warp leaves at once),
	 * 100 columns (lanes 4..31 skip each loop's last trip: divergent loops) */
	int ragged = variant == SoftmaxRagged;
	int32_t rows = ragged ? 7 : 8, cols = ragged ? 100 : 256;
	int n = rows * cols;
	float x[N], y[N];
	double *got, ref[N], tol[N];
	fiberDevicePtr dx, dy;

	gen_f32(x, (size_t)n, 101, -4.0, 4.0);
	dx = dev_buf(v, x, sizeof x[0] * n);
	dy = dev_buf(v, NULL, sizeof y[0] * n);
	if (variant == SoftmaxCuobjdump) {
		/* no .nv.info: the packed block x, y (8 bytes each), rows, cols at 0, 8, 16, 20 */
		uint8_t pb[24];
		memcpy(pb, &dx, 8);
		memcpy(pb + 8, &dy, 8);
		memcpy(pb + 16, &rows, 4);
		memcpy(pb + 20, &cols, 4);
		dev_launch_packed(v, "softmax_rows", (unsigned)(rows + 3) / 4, 128, pb, sizeof pb);
	} else {
		dev_launch(v, "softmax_rows", (unsigned)(rows + 3) / 4, 1, 128,
		           (void *[]){&dx, &dy, &rows, &cols});
	}
	dev_get(v, y, dy, sizeof y[0] * n);
	ref_softmax(x, ref, rows, cols);
	/* fp32 throughout. The row sum adds 8 terms per lane then 5 shuffle levels: 13 roundings,
	 * <= 13u relative (all terms positive); expf is within 2 ulp (<= 4u), the division 1/s
	 * is correctly rounded (u) and the product adds u: |y - ref| <= (4 + 13 + 4 + 2)u |ref| =
	 * 23u ~ 2^-19.5 relative. Allow 2^-17 (4x margin for MUFU.EX2's own error). */
	for (int i = 0; i < n; i++)
		tol[i] = 0x1p-17 * ref[i];
	got = from_f32(y, n);
	cmp_out(v, "y", got, ref, tol, n);
	free(got);
}


/* ---- RMSNorm ---------------------------------------------------------------------------- */
static void
run_rmsnorm(Dev *v, int ragged)
{
	enum { N = 4096, W = 1024 };
	/* the example, and 3 rows of 1000 with 96 threads: 3 warps (red[] partly read), and the
	 * grid-stride loops over 500 pairs end at different trips for different lanes */
	int32_t hidden = ragged ? 1000 : 1024;
	unsigned rows = ragged ? 3 : 4, block = ragged ? 96 : 256;
	int n = (int)rows * hidden;
	float eps = 1e-6f;
	uint16_t x[N], w[W], y[N];
	double *got, ref[N], tol[N];
	fiberDevicePtr dx, dw, dy;

	gen_f16(x, (size_t)n, 201, -2.0, 2.0);
	gen_f16(w, (size_t)hidden, 202, 0.5, 1.5);
	dx = dev_buf(v, x, sizeof x[0] * n);
	dw = dev_buf(v, w, sizeof w[0] * hidden);
	dy = dev_buf(v, NULL, sizeof y[0] * n);
	dev_launch(v, "rmsnorm_f16", rows, 1, block, (void *[]){&dx, &dw, &dy, &hidden, &eps});
	dev_get(v, y, dy, sizeof y[0] * n);
	ref_rmsnorm(x, w, ref, (int)rows, hidden, eps);
	/* fp32 before the final rounding: the sum of squares (positive terms) takes 4 fmas per
	 * thread (12 with 96 threads), 5 shuffle levels and 5 more over the warp partials,
	 * <= 22u; rsqrtf is within 2 ulp (4u) and halves the sum's error: 15u; two products: 2u.
	 * So the fp32 value is within 17u ~ 2^-19.9 of ref, relative; allow 2^-18, then the fp16
	 * rounding (half_tol). */
	for (int i = 0; i < n; i++)
		tol[i] = half_tol(ref[i], 0x1p-18 * fabs(ref[i]));
	got = from_f16(y, n);
	cmp_out(v, "y", got, ref, tol, n);
	free(got);
}


/* ---- RoPE ------------------------------------------------------------------------------- */
enum { RopeExample, RopeLargeArg, RopeFast };

static void
run_rope(Dev *v, int variant)
{
	enum { N = 1024 };
	int32_t tokens = 4, heads = 4, dhead = 64, pos_offset = 3;
	float theta = 10000.0f, q[N], qo[N];
	uint16_t k[N], ko[N];
	double *got, qref[N], kref[N], tol[N], e32;
	fiberDevicePtr dq, dqo, dk, dko;
	int n;

	if (variant == RopeExample) {
		/* |x0|, |x1| <= 1 and |a| = pos inv_freq <= 6 (pos <= 6, inv_freq <= 1). powf is
		 * within 4 ulp and the product pos * inv_freq rounds once: |da| <= 6 * 4.5 * 2^-23
		 * = 3.2e-6; sincosf adds 2 ulp (<= 1.2e-7): |ds|, |dc| <= 3.4e-6, and
		 * out = x0 c - x1 s (two roundings, <= 1.2e-7) is off by <= 7e-6. Allow 1e-5. */
		e32 = 1e-5;
	} else if (variant == RopeLargeArg) {
		/* Not the kernels.txt shape: 32 tokens of one head with dhead = 16, so that each warp
		 * holds 4 tokens (8 pairs each). theta_base = 2^32 makes inv_freq = 2^(-4i) (powf
		 * is exact on these powers of two; a 1-ulp miss would show as an error of ~0.1) and
		 * a = pos 2^(-4i) exact in fp32. pos ~ 4e6 puts a > 105615 (sincosf's Payne-Hanek
		 * reduction through __cudart_i2opi_f and a per-thread local array) for i = 0, 1 and
		 * the fast path for the other lanes of the warp: divergence, and local arrays that
		 * differ between lanes (different pos, different mantissas). sincosf is within 2 ulp
		 * (<= 1.2e-7 absolute), the output adds two roundings: <= 4.8e-7; allow 1e-6. */
		tokens = 32;
		heads = 1;
		dhead = 16;
		pos_offset = 4000000;
		theta = 0x1p32f;
		e32 = 1e-6;
	} else {
		/* __powf = MUFU.EX2(e * MUFU.LG2(theta)): |e lg2 theta| <= 13.3 carries <= 13.3 *
		 * 2^-22 + 2^-21 = 3.6e-6 absolute error, so inv_freq is within 2.5e-6 relative and
		 * |da| <= 6 * 2.5e-6 = 1.5e-5. __sincosf scales a by 1/(2 pi) (FMUL.RZ, 2^-24
		 * revolutions = 3.7e-7 rad) before MUFU.SIN/COS (<= 2^-21.4 absolute on a turn):
		 * |ds|, |dc| <= 1.6e-5, out within 3.3e-5. Allow 5e-5. */
		e32 = 5e-5;
	}
	n = tokens * heads * dhead;
	gen_f32(q, (size_t)n, 301, -1.0, 1.0);
	gen_f16(k, (size_t)n, 302, -1.0, 1.0);
	dq = dev_buf(v, q, sizeof q[0] * n);
	dqo = dev_buf(v, NULL, sizeof qo[0] * n);
	dk = dev_buf(v, k, sizeof k[0] * n);
	dko = dev_buf(v, NULL, sizeof ko[0] * n);
	dev_launch(v, variant == RopeFast ? "rope_qk_fast" : "rope_qk", 4, 1, 128,
	           (void *[]){&dq, &dqo, &dk, &dko, &tokens, &heads, &dhead, &pos_offset, &theta});
	dev_get(v, qo, dqo, sizeof qo[0] * n);
	dev_get(v, ko, dko, sizeof ko[0] * n);
	ref_rope(q, k, qref, kref, tokens, heads, dhead, pos_offset, theta);
	for (int i = 0; i < n; i++)
		tol[i] = e32;
	got = from_f32(qo, n);
	cmp_out(v, "q_out", got, qref, tol, n);
	free(got);
	/* k: the same fp32 computation, then rounded to fp16 */
	for (int i = 0; i < n; i++)
		tol[i] = half_tol(kref[i], e32);
	got = from_f16(ko, n);
	cmp_out(v, "k_out", got, kref, tol, n);
	free(got);
}

/* ---- SiLU-gated FFN ---------------------------------------------------------------------- */
static void
run_silu(Dev *v, int variant)
{
	enum { N2 = 1024, N = 2 * N2 };
	int32_t n2 = N2;
	uint16_t g[N], u[N], o[N];
	double *got, ref[N], tol[N];
	fiberDevicePtr dg, du, dout;

	gen_f16(g, N, 401, -6.0, 6.0);
	gen_f16(u, N, 402, -2.0, 2.0);
	dg = dev_buf(v, g, sizeof g);
	du = dev_buf(v, u, sizeof u);
	dout = dev_buf(v, NULL, sizeof o);
	dev_launch(v, "silu_mul_f16", 4, 1, 256, (void *[]){&dg, &du, &dout, &n2});
	dev_get(v, o, dout, sizeof o);
	ref_silu_mul(g, u, ref, N);
	/* fp32 g / (1 + expf(-g)) * u: expf within 2 ulp, so 1 + e is within 2.5 ulp of
	 * 1 + exp(-g) (relative, e >= 0), the division is correctly rounded and the product
	 * rounds once: <= 3.5 ulp = 7u ~ 2^-21.2 relative before the fp16 rounding. Allow 2^-20. */
	for (int i = 0; i < N; i++)
		tol[i] = half_tol(ref[i], 0x1p-20 * fabs(ref[i]));
	got = from_f16(o, N);
	cmp_out(v, "out", got, ref, tol, N);
	free(got);
	(void)variant;
}

/* ---- tensor-core GEMM -------------------------------------------------------------------- */
static void
run_gemm(Dev *v, int variant)
{
	enum { M = 128, Nn = 128, K = 64 };
	int32_t m = M, n = Nn, k = K;
	static uint16_t a[M * K], b[K * Nn];
	static float c[M * Nn];
	static double ref[M * Nn], cabs[M * Nn], tol[M * Nn];
	double *got;
	fiberDevicePtr da, db, dc;

	gen_f16(a, M * K, 501, -1.0, 1.0);
	gen_f16(b, K * Nn, 502, -1.0, 1.0);
	da = dev_buf(v, a, sizeof a);
	db = dev_buf(v, b, sizeof b);
	dc = dev_buf(v, NULL, sizeof c);
	dev_launch(v, "gemm_f16_tc", 2, 2, 128, (void *[]){&da, &db, &dc, &m, &n, &k});
	dev_get(v, c, dc, sizeof c);
	ref_gemm(a, b, ref, cabs, M, Nn, K);
	/* fp16 products are exact in fp32; the K = 64 products are summed in fp32 in some order
	 * (HMMA: 4 k16 steps, each an internal sum). Each partial sum is rounded or, as tensor
	 * cores do, truncated: at most one fp32 ulp (2^-23 relative) of a partial sum bounded by
	 * sum |a b|, so |C - ref| <= K 2^-23 sum_k |a_mk b_kn|. Allow twice that. */
	for (int i = 0; i < M * Nn; i++)
		tol[i] = K * 0x1p-22 * cabs[i];
	got = from_f32(c, M * Nn);
	cmp_out(v, "C", got, ref, tol, M * Nn);
	free(got);
	(void)variant;
}

/* ---- FlashAttention-2 forward ------------------------------------------------------------ */
static void
run_flash_attn(Dev *v, int causal)
{
	enum { Seq = 128, D = 64, N = Seq * D };
	int32_t seq = Seq, causal_arg = causal;
	float scale = 0.125f;
	static uint16_t q[N], k[N], vv[N];
	static float o[N];
	static double ref[N], oabs[N], smax[Seq], tol[N];
	double *got;
	fiberDevicePtr dq, dk, dv, dout;

	gen_f16(q, N, 601, -2.0, 2.0);
	gen_f16(k, N, 602, -2.0, 2.0);
	gen_f16(vv, N, 603, -1.0, 1.0);
	dq = dev_buf(v, q, sizeof q);
	dk = dev_buf(v, k, sizeof k);
	dv = dev_buf(v, vv, sizeof vv);
	dout = dev_buf(v, NULL, sizeof o);
	dev_launch(v, "flash_attn_fwd", Seq / 64, 1, 128,
	           (void *[]){&dq, &dk, &dv, &dout, &seq, &scale, &causal_arg});
	dev_get(v, o, dout, sizeof o);
	ref_attention(q, k, vv, ref, oabs, smax, Seq, Seq, D, scale, causal);
	/* Three sources, relative to oabs = sum_j P_ij |V_jd| (the size of O's terms):
	 * - P is rounded to fp16 before P V: 2^-11 per term (probabilities <= 1; subnormal ones
	 *   err by <= 2^-25 each, <= 128 2^-25 |V|max / l <= 2^-18 absolute in all);
	 * - scores: 64 products summed in fp32 by the MMA (the GEMM bound, 64 2^-23 sum|q k|),
	 *   times scale log2 e (one more rounding): eps_i = scale 64 2^-22 smax_i in natural-log
	 *   units; the normalised weights move by <= 2 eps_i relative;
	 * - MUFU.EX2, the fp32 row sums and P V accumulation (128 terms, 2^-16) and the final
	 *   division: <= 2^-15 relative. */
	for (int i = 0; i < Seq; i++) {
		double eps = 0.125 * 64 * 0x1p-22 * smax[i];
		for (int d = 0; d < D; d++)
			tol[i * D + d] = (0x1p-11 + 0x1p-15 + 2 * eps) * oabs[i * D + d] + 0x1p-17;
	}
	got = from_f32(o, N);
	cmp_out(v, "O", got, ref, tol, N);
	free(got);
}

/* ---- W4A16 GEMV ------------------------------------------------------------------------- */
static void
run_w4a16(Dev *v, int ragged)
{
	enum { MaxN = 16, MaxK = 1024, MaxG = MaxK / 128 };
	/* the example, and N = 14 (the last CTA's warps 2 and 3 leave at once), K = 384 (48
	 * words: lanes 0..15 take two trips of the loop, lanes 16..31 one) */
	int32_t n = ragged ? 14 : 16, k = ragged ? 384 : 1024;
	int g = k / 128;
	static uint8_t q4[MaxN * MaxK];
	static uint32_t qw[MaxN * MaxK / 8];
	uint16_t sc[MaxN * MaxG], z[MaxN * MaxG], x[MaxK], y[MaxN];
	uint8_t zi[MaxN * MaxG];
	double *got, ref[MaxN], yabs[MaxN], tol[MaxN];
	fiberDevicePtr dqw, ds, dz, dx, dy;

	gen_u4(q4, (size_t)(n * k), 701);
	pack_int4(q4, qw, n, k);
	gen_f16(sc, (size_t)(n * g), 702, 0.005, 0.02);
	gen_u4(zi, (size_t)(n * g), 703);       /* integer zero points 0..15, as AWQ stores them */
	for (int i = 0; i < n * g; i++)
		z[i] = f16_from_double(zi[i]);
	gen_f16(x, (size_t)k, 704, -1.0, 1.0);
	dqw = dev_buf(v, qw, sizeof qw[0] * n * k / 8);
	ds = dev_buf(v, sc, sizeof sc[0] * n * g);
	dz = dev_buf(v, z, sizeof z[0] * n * g);
	dx = dev_buf(v, x, sizeof x[0] * k);
	dy = dev_buf(v, NULL, sizeof y[0] * n);
	dev_launch(v, "w4a16_gemv", (unsigned)(n + 3) / 4, 1, 128,
	           (void *[]){&dqw, &ds, &dz, &dx, &dy, &n, &k});
	dev_get(v, y, dy, sizeof y[0] * n);
	ref_w4a16(qw, sc, z, x, ref, yabs, n, k);
	/* q (via 1024 + q in fp16, exact) minus an integer z is exact, times an fp16 scale is
	 * exact in fp32 (<= 15 significant bits); each lane then chains <= 32 fmas and the warp
	 * adds 5 shuffle levels: <= 37u sum |w x| before the fp16 rounding. Allow 2^-18 = 64u. */
	for (int i = 0; i < n; i++)
		tol[i] = half_tol(ref[i], 0x1p-18 * yabs[i]);
	got = from_f16(y, n);
	cmp_out(v, "y", got, ref, tol, n);
	free(got);
}


/* ---- flash-decoding: partial + combine ------------------------------------------------- */
static void
run_flash_decoding(Dev *v, int ragged)
{
	enum { Heads = 2, Seq = 256, D = 128, Splits = 8 };    /* maxima */
	/* the example (256 keys in 4 splits of 64), and 200 keys in splits of 48: 5 splits, the
	 * last of 8 keys (warps 0..3 take 2 or 3 score rows; 8 of 128 threads in the max/sum) */
	int32_t seq = ragged ? 200 : 256, chunk = ragged ? 48 : 64;
	int32_t splits = (seq + chunk - 1) / chunk;
	float scale = 0.08838834764f;
	static uint16_t q[Heads * D], k[Heads * Seq * D], vv[Heads * Seq * D];
	static float po[Heads * Splits * D], pm[Heads * Splits], pl[Heads * Splits], out[Heads * D];
	static double rpo[Heads * Splits * D], rpm[Heads * Splits], rpl[Heads * Splits];
	static double ref[Heads * D], oabs[Heads * D], smax[Heads], tol[Heads * Splits * D];
	double *got, eps[Heads];
	fiberDevicePtr dq, dk, dv, dpo, dpm, dpl, dout;

	gen_f16(q, Heads * D, 801, -2.0, 2.0);
	gen_f16(k, (size_t)Heads * seq * D, 802, -2.0, 2.0);
	gen_f16(vv, (size_t)Heads * seq * D, 803, -1.0, 1.0);
	dq = dev_buf(v, q, sizeof q);
	dk = dev_buf(v, k, sizeof k[0] * Heads * seq * D);
	dv = dev_buf(v, vv, sizeof vv[0] * Heads * seq * D);
	dpo = dev_buf(v, NULL, sizeof po[0] * Heads * splits * D);
	dpm = dev_buf(v, NULL, sizeof pm[0] * Heads * splits);
	dpl = dev_buf(v, NULL, sizeof pl[0] * Heads * splits);
	dout = dev_buf(v, NULL, sizeof out);
	dev_launch(v, "flash_decode_partial", (unsigned)splits, Heads, 128,
	           (void *[]){&dq, &dk, &dv, &dpo, &dpm, &dpl, &seq, &chunk, &scale});
	dev_launch(v, "flash_decode_combine", Heads, 1, 128,
	           (void *[]){&dpo, &dpm, &dpl, &dout, &splits});
	dev_get(v, po, dpo, sizeof po[0] * Heads * splits * D);
	dev_get(v, pm, dpm, sizeof pm[0] * Heads * splits);
	dev_get(v, pl, dpl, sizeof pl[0] * Heads * splits);
	dev_get(v, out, dout, sizeof out);
	for (int h = 0; h < Heads; h++) {
		ref_decode_partial(q + h * D, k + (size_t)h * seq * D, vv + (size_t)h * seq * D,
		                   rpo + h * splits * D, rpm + h * splits, rpl + h * splits, seq, chunk,
		                   D, scale);
		ref_attention(q + h * D, k + (size_t)h * seq * D, vv + (size_t)h * seq * D,
		              ref + h * D, oabs + h * D, smax + h, 1, seq, D, scale, 0);
		/* a score: 4 products per lane (1 mul + 3 fmas) and 5 shuffle levels, <= 9u of
		 * sum |q k|, then times scale (u): eps = 16u scale smax bounds every score's error */
		eps[h] = 16 * 0x1p-24 * scale * smax[h];
	}
	/* partials first, to place an error before or after the combine. m: eps plus its own
	 * rounding. l: <= 64 terms exp(s - m), each within 2 eps (s and m) and 2 ulp of expf,
	 * summed in <= 10 roundings: (2 eps + 2^-18) l. o: the same weights times V (|V| <= 1),
	 * 64 chained fmas: (2 eps + 2^-17) l. */
	for (int i = 0; i < Heads * splits; i++)
		tol[i] = eps[i / splits] + 0x1p-23 * fabs(rpm[i]);
	got = from_f32(pm, (size_t)(Heads * splits));
	cmp_out(v, "part_m", got, rpm, tol, (size_t)(Heads * splits));
	free(got);
	for (int i = 0; i < Heads * splits; i++)
		tol[i] = (2 * eps[i / splits] + 0x1p-18) * rpl[i];
	got = from_f32(pl, (size_t)(Heads * splits));
	cmp_out(v, "part_l", got, rpl, tol, (size_t)(Heads * splits));
	free(got);
	for (int i = 0; i < Heads * splits * D; i++)
		tol[i] = (2 * eps[i / (splits * D)] + 0x1p-17) * rpl[i / D];
	got = from_f32(po, (size_t)(Heads * splits * D));
	cmp_out(v, "part_o", got, rpo, tol, (size_t)(Heads * splits * D));
	free(got);
	/* the output against exact attention over all keys: normalised weights move by
	 * <= 4 eps (scores, then the combine's rescaling of m_i), the rest (expf, fmas over 4
	 * splits, the division) by 2^-16 relative to oabs = sum_j P_j |V_jd| */
	for (int i = 0; i < Heads * D; i++)
		tol[i] = (4 * eps[i / D] + 0x1p-16) * oabs[i];
	got = from_f32(out, Heads * D);
	cmp_out(v, "out", got, ref, tol, Heads * D);
	free(got);
}

/* one row per case and architecture: examples/<dir>/<dir>.sm_<arch><sfx>.sass */
static const struct {
	const char *what;  /* name in messages */
	const char *dir;   /* examples/<dir> */
	const char *sfx;   /* listing name suffix, "" for the nvdisasm listings */
	void (*run)(Dev *v, int variant);
	int variant;       /* case-specific */
	int archs;         /* 1: sm_80 (a100), 2: sm_90 (h100 and b200) */
} kcase[] = {
	{"softmax_rows", "softmax", "", run_softmax, SoftmaxExample, 3},
	{"softmax_rows/ragged", "softmax", "", run_softmax, SoftmaxRagged, 3},
	{"softmax_rows/cuobjdump", "softmax", ".cuobjdump", run_softmax, SoftmaxCuobjdump, 1},
	{"rmsnorm_f16", "rmsnorm", "", run_rmsnorm, 0, 3},
	{"rmsnorm_f16/ragged", "rmsnorm", "", run_rmsnorm, 1, 3},
	{"rope_qk", "rope", "", run_rope, RopeExample, 3},
	{"rope_qk/large-arg", "rope", "", run_rope, RopeLargeArg, 3},
	{"rope_qk_fast", "rope", "", run_rope, RopeFast, 3},
	{"silu_mul_f16", "silu_ffn", "", run_silu, 0, 3},
	{"gemm_f16_tc", "gemm_tc", "", run_gemm, 0, 3},
	{"flash_attn_fwd", "flash_attn", "", run_flash_attn, 0, 3},
	{"flash_attn_fwd/causal", "flash_attn", "", run_flash_attn, 1, 3},
	{"w4a16_gemv", "w4a16_gemv", "", run_w4a16, 0, 3},
	{"w4a16_gemv/ragged", "w4a16_gemv", "", run_w4a16, 1, 3},
	{"flash_decode_partial+combine", "flash_decoding", "", run_flash_decoding, 0, 3},
	{"flash_decode_partial+combine/ragged", "flash_decoding", "", run_flash_decoding, 1, 3},
};

/* the loop test's rows: (case, architecture) pairs, filled by kernels_add_run */
static struct {
	uint8_t c;         /* index in kcase */
	uint8_t arch;      /* 80 or 90 */
	const char *config; /* a100, h100, b200 */
} krow[6 * NELEM(kcase)];   /* a100/h100/b200 and their -fiber twins */

START_TEST(test_kernel)
{
	Dev v;
	int c = krow[_i].c, arch = krow[_i].arch;

	dev_open(&v, kcase[c].dir, kcase[c].sfx, kcase[c].what, arch, krow[_i].config);
	kcase[c].run(&v, kcase[c].variant);
	dev_done(&v);
}
END_TEST

/* every example compiled from its PTX by fiberc (issue 11), on sm_80 (a100) and sm_90 (h100), in
 * functional and timing mode: the same references and tolerances as nvcc's listings, and in
 * timing mode no hazard (fiberc's control bits cover the model's latencies) */
static struct {
	uint8_t c, arch;
	uint8_t timing;
} prow[4 * NELEM(kcase)];

START_TEST(test_kernel_ptx)
{
	Dev v;
	int c = prow[_i].c, arch = prow[_i].arch;

	dev_open_ptx(&v, kcase[c].dir, kcase[c].what, arch, arch == 80 ? "a100" : "h100",
	             prow[_i].timing ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
	kcase[c].run(&v, kcase[c].variant);
	if (!prow[_i].timing) {
		/* dev_close's cycle and hazard checks are the timing mode's */
		size_t bad = v.nbad;
		char what[96];
		memcpy(what, v.what, sizeof what);
		fiberDeviceDestroy(v.dev);
		ck_assert_msg(bad == 0, "%s: %zu output elements out of tolerance (details on stderr)",
		              what, bad);
	} else {
		dev_done(&v);
	}
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The hazard corpus (tests/corpus/latency/, the tensor-core kernels of tests/corpus/mma.cu and
 * examples/microbench/mma_shapes.cu):
 * every kernel run once in timing mode, pointers to zero-filled buffers, 4-byte scalars 16. nvcc's
 * stall counts must never read a register before the configured latency of its producer
 * (docs/calibration.md derives the latencies from these schedules). b200 runs the sm_90 ones.
 */
static const struct { const char *file; const char *config; } hcase[] = {
	{"latency/int.sm_80", "a100"}, {"latency/int.sm_90", "h100"},
	{"latency/float.sm_80", "a100"}, {"latency/float.sm_90", "h100"},
	{"latency/double.sm_80", "a100"}, {"latency/double.sm_90", "h100"},
	{"latency/half.sm_80", "a100"}, {"latency/half.sm_90", "h100"},
	{"latency/conv.sm_80", "a100"}, {"latency/conv.sm_90", "h100"},
	{"latency/warp.sm_80", "a100"}, {"latency/warp.sm_90", "h100"},
	{"latency/atom.sm_80", "a100"}, {"latency/atom.sm_90", "h100"},
	{"latency/mem.sm_80", "a100"}, {"latency/mem.sm_90", "h100"},
	{"latency/uniform.sm_80", "a100"}, {"latency/uniform.sm_90", "h100"},
	{"latency/mma_chain.sm_80", "a100"}, {"latency/mma_chain.sm_90", "h100"},
	{"mma.sm_80", "a100"}, {"mma.sm_90", "h100"}, {"fp8.sm_89", "a100"},
	{"latency/int.sm_90", "b200"}, {"latency/float.sm_90", "b200"},
	{"latency/double.sm_90", "b200"}, {"latency/half.sm_90", "b200"},
	{"latency/conv.sm_90", "b200"}, {"latency/warp.sm_90", "b200"},
	{"latency/atom.sm_90", "b200"}, {"latency/mem.sm_90", "b200"},
	{"latency/uniform.sm_90", "b200"}, {"latency/mma_chain.sm_90", "b200"}, {"mma.sm_90", "b200"},
	/* every tensor-core shape nvcc emits (calibration microbenchmarks) */
	{"../../examples/microbench/mma_shapes.sm_80", "a100"},
	{"../../examples/microbench/mma_shapes.sm_90", "h100"},
};

START_TEST(test_hazard_corpus)
{
	const char *root = getenv("FIBER_ROOT");
	char path[512];
	fiberDevice dev;
	fiberModule mod;
	unsigned nfn = 0;

	snprintf(path, sizeof path, "%s/tests/corpus/%s.sass", root ? root : ".", hcase[_i].file);
	ck_assert_int_eq(fiberDeviceCreate(&dev, hcase[_i].config), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&mod, dev, path) == FIBER_SUCCESS, "%s: %s", path,
	              fiberGetLastErrorMessage(dev));
	ck_assert_int_eq(fiberModuleGetFunctionCount(mod, &nfn), FIBER_SUCCESS);
	ck_assert_uint_gt(nfn, 0);
	for (unsigned f = 0; f < nfn; f++) {
		const char *name;
		fiberFunction fn;
		unsigned np = 0, nh = 0, g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
		fiberDevicePtr ptr[16];
		uint64_t val[16];
		void *params[16];
		fiberStats s0, s1;

		ck_assert_int_eq(fiberModuleGetFunctionName(mod, f, &name), FIBER_SUCCESS);
		ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, name), FIBER_SUCCESS);
		ck_assert_int_eq(fiberFuncGetParamCount(fn, &np), FIBER_SUCCESS);
		ck_assert_uint_le(np, 16);
		for (unsigned k = 0; k < np; k++) {
			size_t off, size;
			ck_assert_int_eq(fiberFuncGetParamInfo(fn, k, &off, &size), FIBER_SUCCESS);
			ptr[k] = 0;
			val[k] = size == 4 ? 16 : 0;
			params[k] = &val[k];
			if (size == 8) {
				ck_assert_int_eq(fiberMalloc(dev, &ptr[k], 1 << 20), FIBER_SUCCESS);
				ck_assert_int_eq(fiberMemset(dev, ptr[k], 0, 1 << 20), FIBER_SUCCESS);
				val[k] = ptr[k];
			}
		}
		fiberGetStats(dev, &s0);
		ck_assert_msg(fiberLaunchKernel(fn, g, b, 0, params) == FIBER_SUCCESS, "%s %s: %s",
		              path, name, fiberGetLastErrorMessage(dev));
		fiberGetStats(dev, &s1);
		ck_assert_uint_gt(s1.cycles, s0.cycles);
		ck_assert_int_eq(fiberGetHazardCount(dev, &nh), FIBER_SUCCESS);
		for (unsigned k = 0; k < nh; k++) {
			fiberHazard h;
			ck_assert_int_eq(fiberGetHazard(dev, k, &h), FIBER_SUCCESS);
			fprintf(stderr, "hazards: %s %s on %s: %s -> %s (latency %u, stall %u) x%llu at "
			        "0x%04x\n", hcase[_i].file, name, hcase[_i].config, h.producer,
			        h.consumer, h.latency, h.stall, (unsigned long long)h.count,
			        h.consumer_pc);
		}
		ck_assert_msg(s1.hazards == s0.hazards, "%s %s on %s: %llu hazards", hcase[_i].file,
		              name, hcase[_i].config, (unsigned long long)(s1.hazards - s0.hazards));
		for (unsigned k = 0; k < np; k++)
			if (ptr[k])
				fiberFree(dev, ptr[k]);
	}
	fiberDeviceDestroy(dev);
}
END_TEST

/* the hazard rows through the runtime: fiberGetHazard, the statistics JSON and the summary, with
 * lat_fp16 raised above nvcc's spacing of the half-precision chain */
START_TEST(test_hazard_rows_reported)
{
	const char *root = getenv("FIBER_ROOT");
	char path[512], jpath[] = "/tmp/fiber-hazard-XXXXXX", *text = NULL;
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr out, in;
	int n = 16, fd;
	void *params[3] = {&out, &in, &n};
	unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1}, nh = 0;
	fiberHazard h;
	fiberStats st;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/tests/corpus/latency/half.sm_80.sass", root ? root : ".");
	ck_assert_int_eq(fiberDeviceCreate(&dev, "a100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetConfigValue(dev, "lat_fp16=40"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleLoadFile(&mod, dev, path), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&fn, mod, "lat_half_chain"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(dev, &out, 4096), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(dev, &in, 4096), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(dev, in, 0, 4096), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernel(fn, g, b, 0, params), FIBER_SUCCESS);
	ck_assert_int_eq(fiberGetStats(dev, &st), FIBER_SUCCESS);
	ck_assert_uint_gt(st.hazards, 0);
	ck_assert_int_eq(fiberGetHazardCount(dev, &nh), FIBER_SUCCESS);
	ck_assert_uint_gt(nh, 0);
	ck_assert_int_eq(fiberGetHazard(dev, 0, &h), FIBER_SUCCESS);
	ck_assert_uint_eq(h.latency, 40);
	ck_assert_uint_lt(h.stall, 40);
	ck_assert_uint_gt(h.count, 0);
	ck_assert_int_eq(fiberGetHazard(dev, nh, &h), FIBER_ERROR_INVALID_VALUE);
	fd = mkstemp(jpath);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(fiberWriteStatsJSON(dev, jpath), FIBER_SUCCESS);
	f = fopen(jpath, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(getdelim(&text, &len, 0, f), 0);
	fclose(f);
	unlink(jpath);
	ck_assert_ptr_nonnull(strstr(text, "\"hazards_by_opcode\": [\n"));
	ck_assert_ptr_nonnull(strstr(text, "\"latency\": 40, \"stall\": "));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	ck_assert_int_eq(fiberPrintSummary(dev, f), FIBER_SUCCESS);
	fclose(f);
	ck_assert_msg(strstr(text, "hazards: ") && strstr(text, "(latency 40, stall "), "%s", text);
	free(text);
	fiberDeviceDestroy(dev);
}
END_TEST

static void
kernels_add_run(Suite *s)
{
	TCase *tc = tcase_create("run");
	int n = 0;

	for (size_t c = 0; c < NELEM(kcase); c++)
		for (int a = 0; a < 2; a++)
			if (kcase[c].archs & (1 << a)) {
				krow[n].c = (uint8_t)c;
				krow[n].config = a ? "h100" : "a100";
				krow[n++].arch = a ? 90 : 80;
				if (a) {          /* b200 runs the sm_90 listings */
					krow[n].c = (uint8_t)c;
					krow[n].config = "b200";
					krow[n++].arch = 90;
				}
				/* the FIBER SM with no FIBER feature used: the same kernels, the same
				 * references (docs/fiber-isa.md: plain SASS runs unchanged on wefts) */
				krow[n].c = (uint8_t)c;
				krow[n].config = a ? "h100-fiber" : "a100-fiber";
				krow[n++].arch = a ? 90 : 80;
				if (a) {
					krow[n].c = (uint8_t)c;
					krow[n].config = "b200-fiber";
					krow[n++].arch = 90;
				}
			}
	tcase_add_loop_test(tc, test_kernel, 0, n);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	tc = tcase_create("from PTX");
	n = 0;
	for (size_t c = 0; c < NELEM(kcase); c++)
		for (int a = 0; a < 2; a++)
			for (int t = 0; t < 2; t++)
				if ((kcase[c].archs & (1 << a)) && !kcase[c].sfx[0]) {
					prow[n].c = (uint8_t)c;
					prow[n].arch = a ? 90 : 80;
					prow[n++].timing = (uint8_t)t;
				}
	tcase_add_loop_test(tc, test_kernel_ptx, 0, n);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	tc = tcase_create("hazard corpus");
	tcase_add_loop_test(tc, test_hazard_corpus, 0, (int)NELEM(hcase));
	tcase_add_test(tc, test_hazard_rows_reported);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
}

Suite *
kernels_suite(void)
{
	Suite *s = suite_create("kernels");
	TCase *tc = tcase_create("ref");

	tcase_add_test(tc, test_ref_f16);
	tcase_add_test(tc, test_ref_rng);
	tcase_add_test(tc, test_ref_rows);
	tcase_add_test(tc, test_ref_elem);
	tcase_add_test(tc, test_ref_gemm);
	tcase_add_test(tc, test_ref_w4a16);
	tcase_add_test(tc, test_ref_attn);
	suite_add_tcase(s, tc);
	kernels_add_run(s);
	return s;
}
