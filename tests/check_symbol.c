/* check_symbol.c: module-scope variables from the host (runtime/symbol.c): fiberModuleGetGlobal,
 * fiberMemcpyToSymbol and fiberMemcpyFromSymbol on tests/corpus/symbols.cu (a __constant__ array
 * and two __device__ variables) at sm_80 and sm_90: sizes and addresses, values a launch reads
 * and writes, a second launch seeing new values, and the errors (unknown names list the
 * module's variables, ranges that do not fit). Files come from $FIBER_ROOT.
 */
#include "fiber.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

static fiberModule
load(fiberDevice *d, int arch)
{
	char path[1200];
	fiberModule m;

	snprintf(path, sizeof path, "%s/tests/corpus/symbols.sm_%d.sass", root(), arch);
	ck_assert_int_eq(fiberDeviceCreate(d, arch == 90 ? "h100" : "a100"), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, *d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(*d));
	return m;
}

/* apply(x, y, n) over n = 64 with x[i] = i; y back in y */
static void
run_apply(fiberDevice d, fiberModule m, float *y)
{
	float x[64];
	int n = 64;
	fiberFunction f;
	fiberDevicePtr dx, dy;
	unsigned g[3] = {1, 1, 1}, b[3] = {64, 1, 1};
	void *params[3] = {&dx, &dy, &n};

	for (int i = 0; i < 64; i++)
		x[i] = (float)i;
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "apply"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dx, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dy, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, dx, x, sizeof x), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, y, dy, sizeof x), FIBER_SUCCESS);
	fiberFree(d, dx);
	fiberFree(d, dy);
}

START_TEST(test_symbol_round_trip)
{
	int arch = _i ? 90 : 80, bias = 10, got = 0;
	unsigned counter = 5, count = 0;
	float coef[8], y[64], back[8];
	fiberDevice d;
	fiberModule m = load(&d, arch);
	fiberDevicePtr p;
	size_t size;
	const char *name;

	ck_assert_int_eq(fiberModuleGetGlobalCount(m, &count), FIBER_SUCCESS);
	ck_assert_uint_eq(count, 3);
	ck_assert_int_eq(fiberModuleGetGlobalName(m, 0, &name), FIBER_SUCCESS);
	ck_assert_str_eq(name, "coef");
	ck_assert_int_eq(fiberModuleGetGlobal(&p, &size, m, "coef"), FIBER_SUCCESS);
	ck_assert_uint_eq(size, 32);
	ck_assert_uint_eq(p, 0);   /* constant bank 3: no device address */
	ck_assert_int_eq(fiberModuleGetGlobal(&p, &size, m, "counter"), FIBER_SUCCESS);
	ck_assert_uint_eq(size, 4);
	ck_assert_uint_ne(p, 0);
	for (int k = 0; k < 8; k++)
		coef[k] = 0.5f * (float)(k + 1);
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "coef", coef, sizeof coef, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "bias", &bias, sizeof bias, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "counter", &counter, sizeof counter, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyFromSymbol(m, "coef", back, sizeof back, 0), FIBER_SUCCESS);
	ck_assert_int_eq(memcmp(back, coef, sizeof coef), 0);
	run_apply(d, m, y);
	for (int i = 0; i < 64; i++)
		ck_assert_msg(y[i] == (float)i * coef[i & 7] + 10.0f, "sm_%d y[%d] = %g", arch, i, y[i]);
	/* the kernel's atomicAdd, read back by name and by address */
	ck_assert_int_eq(fiberMemcpyFromSymbol(m, "counter", &counter, sizeof counter, 0), FIBER_SUCCESS);
	ck_assert_uint_eq(counter, 5 + 64);
	ck_assert_int_eq(fiberModuleGetGlobal(&p, NULL, m, "bias"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, &got, p, sizeof got), FIBER_SUCCESS);
	ck_assert_int_eq(got, 10);
	/* part of the array, then a second launch sees it */
	coef[7] = -3.0f;
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "coef", &coef[7], 4, 28), FIBER_SUCCESS);
	run_apply(d, m, y);
	ck_assert_msg(y[15] == 15.0f * -3.0f + 10.0f, "y[15] = %g after the second write", y[15]);
	ck_assert_msg(y[14] == 14.0f * coef[6] + 10.0f, "y[14] = %g", y[14]);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_symbol_errors)
{
	fiberDevice d;
	fiberModule m = load(&d, 80), s;
	float buf[10] = {0};
	char path[1200];
	const char *msg;

	ck_assert_int_eq(fiberMemcpyToSymbol(m, "nope", buf, 4, 0), FIBER_ERROR_NOT_FOUND);
	msg = fiberGetLastErrorMessage(d);
	ck_assert_msg(strstr(msg, "no variable named 'nope'") && strstr(msg, "coef (__constant__, 32 bytes)")
	              && strstr(msg, "bias (__device__, 4 bytes)"), "%s", msg);
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "coef", buf, 36, 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "'coef' is 32 bytes"));
	ck_assert_int_eq(fiberMemcpyFromSymbol(m, "coef", buf, 8, 28), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMemcpyToSymbol(m, "coef", NULL, 4, 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberModuleGetGlobal(NULL, NULL, m, NULL), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMemcpyToSymbol(NULL, "coef", buf, 4, 0), FIBER_ERROR_INVALID_HANDLE);
	/* a module without variables says so */
	snprintf(path, sizeof path, "%s/examples/softmax/softmax.sm_80.sass", root());
	ck_assert_int_eq(fiberModuleLoadFile(&s, d, path), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetGlobal(NULL, NULL, s, "coef"), FIBER_ERROR_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "it has none"));
	fiberDeviceDestroy(d);
}
END_TEST

Suite *
symbol_suite(void)
{
	Suite *s = suite_create("symbol");
	TCase *tc = tcase_create("symbol");

	tcase_add_loop_test(tc, test_symbol_round_trip, 0, 2);
	tcase_add_test(tc, test_symbol_errors);
	suite_add_tcase(s, tc);
	return s;
}
