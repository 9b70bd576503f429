/* check_fiber_kernels.c: the FIBER-native kernels (examples/fiber-native/kernels.txt) run by the
 * functional simulator on a100-fiber and h100-fiber, compared with the CPU reference of the SIMT
 * example they stand for (tests/ref/), with the tolerances of tests/check_kernels.c (derived
 * there: the same arithmetic, rounded the same way). silu_mul_fiber also runs with fiber_dp = 0
 * (SETFIBERNUM synchronises but keeps the launch's count; the kernel divides its work by
 * SR_FIBERNUM, so the output must not change). Outputs are pre-filled with 0xff bytes (NaN), so
 * an element no fiber writes fails.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref.h"

Suite *fiber_kernels_suite(void);

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#include "fiber.h"

typedef struct FDev {
	fiberDevice dev;
	fiberModule mod;
	char what[128];   /* "silu_mul_fiber on a100-fiber fiber_dp=0", for messages */
} FDev;

static void
fdev_open(FDev *v, const char *file, const char *config, const char *set)
{
	const char *root = getenv("FIBER_ROOT");
	char path[512];
	fiberStatus st;

	memset(v, 0, sizeof *v);
	snprintf(v->what, sizeof v->what, "%s on %s%s%s", file, config, set ? " " : "",
	         set ? set : "");
	snprintf(path, sizeof path, "%s/examples/fiber-native/%s.sm_%d.fsass", root ? root : ".", file,
	         strncmp(config, "h100", 4) == 0 ? 90 : 80);
	ck_assert_msg(fiberDeviceCreate(&v->dev, config) == FIBER_SUCCESS, "%s: device: %s",
	              v->what, fiberGetLastErrorMessage(NULL));
	ck_assert(fiberDeviceSetMode(v->dev, FIBER_MODE_FUNCTIONAL) == FIBER_SUCCESS);
	if (set)
		ck_assert_msg(fiberDeviceSetConfigValue(v->dev, set) == FIBER_SUCCESS, "%s: %s",
		              v->what, fiberGetLastErrorMessage(v->dev));
	st = fiberModuleLoadFile(&v->mod, v->dev, path);
	if (st != FIBER_SUCCESS)
		fprintf(stderr, "fiber-kernels: %s: %s\n%.1024s\n", v->what,
		        fiberGetLastErrorMessage(v->dev), fiberGetLastErrorLog(v->dev));
	ck_assert_msg(st == FIBER_SUCCESS, "%s: loading %s: %s", v->what, path,
	              fiberGetLastErrorMessage(v->dev));
}

static fiberDevicePtr
fdev_buf(FDev *v, const void *host, size_t n)
{
	fiberDevicePtr p;

	ck_assert(fiberMalloc(v->dev, &p, n) == FIBER_SUCCESS);
	if (host)
		ck_assert(fiberMemcpyHtoD(v->dev, p, host, n) == FIBER_SUCCESS);
	else
		ck_assert(fiberMemset(v->dev, p, 0xff, n) == FIBER_SUCCESS);
	return p;
}

static void
fdev_launch(FDev *v, const char *kernel, unsigned gx, unsigned gy, unsigned bx, void **params)
{
	unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, 1, 1};
	fiberFunction fn;
	fiberFault f;
	fiberStatus st;

	ck_assert_msg(fiberModuleGetFunction(&fn, v->mod, kernel) == FIBER_SUCCESS,
	              "%s: no kernel %s", v->what, kernel);
	st = fiberLaunchKernel(fn, grid, block, 0, params);
	if (st != FIBER_SUCCESS) {
		memset(&f, 0, sizeof f);
		fiberGetLastFault(v->dev, &f);
		fprintf(stderr, "fiber-kernels: %s: %s; fault: %s\n", v->what,
		        fiberGetLastErrorMessage(v->dev), f.message);
	}
	ck_assert_msg(st == FIBER_SUCCESS, "%s: launch: %s", v->what,
	              fiberGetLastErrorMessage(v->dev));
}

/* the number of the n elements outside their tolerance; the first few are printed */
static size_t
fcmp(const FDev *v, const double *got, const double *ref, const double *tol, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		if (!(fabs(got[i] - ref[i]) <= tol[i]) && bad++ < 4)
			fprintf(stderr, "fiber-kernels: %s [%zu] = %.9g, want %.9g (tol %.3g)\n",
			        v->what, i, got[i], ref[i], tol[i]);
	return bad;
}

static double
half_tol(double ref, double e32)
{
	return e32 + 0.5 * f16_ulp(fabs(ref) + e32);
}

/* silu_mul_fiber and silu_mul_fwd: out = silu(gate) * up, 1024 half2, grid 4 x 64 fibers */
static size_t
run_silu(FDev *v)
{
	enum { N2 = 1024, N = 2 * N2 };
	int32_t n2 = N2;
	uint16_t g[N], u[N], o[N];
	double got[N], ref[N], tol[N];
	fiberDevicePtr dg, du, dout;

	gen_f16(g, N, 401, -6.0, 6.0);
	gen_f16(u, N, 402, -2.0, 2.0);
	dg = fdev_buf(v, g, sizeof g);
	du = fdev_buf(v, u, sizeof u);
	dout = fdev_buf(v, NULL, sizeof o);
	fdev_launch(v, "silu_mul_f16", 4, 1, 64, (void *[]){&dg, &du, &dout, &n2});
	ck_assert(fiberMemcpyDtoH(v->dev, o, dout, sizeof o) == FIBER_SUCCESS);
	ref_silu_mul(g, u, ref, N);
	/* check_kernels.c's bound (2^-20 relative before the fp16 rounding) covers silu_mul_fwd's
	 * MUFU.EX2 / MUFU.RCP too: each within 2 ulp, 1 + e within 2.5 ulp, the two products one
	 * rounding each: <= 6.5 ulp ~ 2^-20.3 */
	for (int i = 0; i < N; i++) {
		tol[i] = half_tol(ref[i], 0x1p-20 * fabs(ref[i]));
		got[i] = f16_to_double(o[i]);
	}
	return fcmp(v, got, ref, tol, N);
}

/* gemm_shared_b and gemm_pool_b: C = A B, 128 x 128 x 64, grid 16 x 2 x 128 fibers */
static size_t
run_gemm(FDev *v)
{
	enum { M = 128, Nn = 128, K = 64 };
	int32_t m = M, n = Nn, k = K;
	static uint16_t a[M * K], b[K * Nn];
	static float c[M * Nn];
	static double got[M * Nn], ref[M * Nn], cabs[M * Nn], tol[M * Nn];
	fiberDevicePtr da, db, dc;

	gen_f16(a, M * K, 501, -1.0, 1.0);
	gen_f16(b, K * Nn, 502, -1.0, 1.0);
	da = fdev_buf(v, a, sizeof a);
	db = fdev_buf(v, b, sizeof b);
	dc = fdev_buf(v, NULL, sizeof c);
	fdev_launch(v, "gemm_f16_tc", 16, 2, 128, (void *[]){&da, &db, &dc, &m, &n, &k});
	ck_assert(fiberMemcpyDtoH(v->dev, c, dc, sizeof c) == FIBER_SUCCESS);
	ref_gemm(a, b, ref, cabs, M, Nn, K);
	/* as check_kernels.c: K 2^-23 sum |a b| for the fp32 partial sums, twice that allowed */
	for (int i = 0; i < M * Nn; i++) {
		tol[i] = K * 0x1p-22 * cabs[i];
		got[i] = c[i];
	}
	return fcmp(v, got, ref, tol, M * Nn);
}

/* gemm_silu: C = silu(A B), 128 x 128 x 64, grid 16 x 2 x 128 fibers (512 in the epilogue) */
static size_t
run_gemm_silu(FDev *v)
{
	enum { M = 128, Nn = 128, K = 64 };
	int32_t m = M, n = Nn, k = K;
	static uint16_t a[M * K], b[K * Nn];
	static float c[M * Nn];
	static double got[M * Nn], ref[M * Nn], cabs[M * Nn], tol[M * Nn];
	fiberDevicePtr da, db, dc;

	gen_f16(a, M * K, 601, -1.0, 1.0);
	gen_f16(b, K * Nn, 602, -1.0, 1.0);
	da = fdev_buf(v, a, sizeof a);
	db = fdev_buf(v, b, sizeof b);
	dc = fdev_buf(v, NULL, sizeof c);
	fdev_launch(v, "gemm_f16_tc", 16, 2, 128, (void *[]){&da, &db, &dc, &m, &n, &k});
	ck_assert(fiberMemcpyDtoH(v->dev, c, dc, sizeof c) == FIBER_SUCCESS);
	ref_gemm(a, b, ref, cabs, M, Nn, K);
	/* the GEMM's bound (above) carried through silu, whose slope is within [-0.1, 1.1], plus the
	 * epilogue's MUFU.EX2 / MUFU.RCP (2 ulp each), 1 + e and two products: 2^-19 relative */
	for (int i = 0; i < M * Nn; i++) {
		double x = ref[i];
		ref[i] = x / (1.0 + exp(-x));
		tol[i] = 1.1 * K * 0x1p-22 * cabs[i] + 0x1p-19 * fabs(ref[i]) + 0x1p-40;
		got[i] = c[i];
	}
	return fcmp(v, got, ref, tol, M * Nn);
}

static const struct {
	const char *file;        /* examples/fiber-native/<file>.fsass */
	const char *config;
	const char *set;         /* a configuration key, or NULL */
	size_t (*run)(FDev *);
} fcase[] = {
	{"silu_mul_fiber", "a100-fiber", NULL, run_silu},
	{"silu_mul_fiber", "h100-fiber", NULL, run_silu},
	{"silu_mul_fiber", "a100-fiber", "fiber_dp=0", run_silu},
	{"silu_mul_fiber", "h100-fiber", "fiber_dp=0", run_silu},
	{"silu_mul_fwd", "a100-fiber", NULL, run_silu},
	{"silu_mul_fwd", "h100-fiber", NULL, run_silu},
	{"silu_mul_fwd", "a100-fiber", "fiber_fs=0", run_silu},
	{"gemm_shared_b", "a100-fiber", NULL, run_gemm},
	{"gemm_shared_b", "h100-fiber", NULL, run_gemm},
	/* gemm_pool_b and gemm_silu write a pool (docs/fiber-isa.md, "A pool is local to its
	 * slice") */
	{"gemm_pool_b", "a100-fiber", NULL, run_gemm},
	{"gemm_pool_b", "h100-fiber", NULL, run_gemm},
	{"gemm_pool_b", "a100-fiber", "sms=2", run_gemm},   /* 16 CTAs per SM reuse the pool */
	{"gemm_silu", "a100-fiber", NULL, run_gemm_silu},
	{"gemm_silu", "h100-fiber", NULL, run_gemm_silu},
	{"gemm_silu", "a100-fiber", "fiber_dp=0", run_gemm_silu},
	{"gemm_silu", "h100-fiber", "sms=3", run_gemm_silu},
};

START_TEST(test_fiber_kernel)
{
	FDev v;
	size_t bad;

	fdev_open(&v, fcase[_i].file, fcase[_i].config, fcase[_i].set);
	bad = fcase[_i].run(&v);
	fiberDeviceDestroy(v.dev);
	ck_assert_msg(bad == 0, "%s: %zu output elements out of tolerance", v.what, bad);
}
END_TEST

Suite *
fiber_kernels_suite(void)
{
	Suite *s = suite_create("fiber_kernels");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_fiber_kernel, 0, (int)NELEM(fcase));
	suite_add_tcase(s, tc);
	return s;
}
