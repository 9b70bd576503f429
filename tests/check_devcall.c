/* check_devcall.c: the device runtime through the C API (sim/devcall.c, runtime/devio.c): the
 * kernels of tests/devcall/devcall.cu on sm_80 and sm_90, functional and timed, with the output
 * streams of fiberDeviceSetOutput: printf's text and a failing assert's line land in the streams
 * given, the launch fails with FIBER_FAULT_ASSERT, the device runs the next launch normally, and
 * a second launch prints only its own text. tests/devcall.sh covers fibersim and every path.
 * Files come from $FIBER_ROOT.
 */
#include "fiber.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const archs[] = { "sm_80", "sm_90" };

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* the text written to f so far (static buffer) */
static const char *
text_of(FILE *f)
{
	static char buf[8192];
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	return buf;
}

/* a launch of say_then_check on 64 ints (in[neg] = -5 unless neg < 0) in grid 2 x 32 */
static fiberStatus
launch(fiberFunction f, fiberDevice d, int neg, int *out)
{
	int in[64];
	fiberDevicePtr din, dout;
	int n = 64;
	void *params[3] = { &din, &dout, &n };
	const unsigned g[3] = { 2, 1, 1 }, b[3] = { 32, 1, 1 };
	fiberStatus s;

	for (int k = 0; k < 64; k++)
		in[k] = k;
	if (neg >= 0)
		in[neg] = -5;
	ck_assert_int_eq(fiberMalloc(d, &din, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0, sizeof in), FIBER_SUCCESS);
	s = fiberLaunchKernel(f, g, b, 0, params);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof in), FIBER_SUCCESS);
	fiberFree(d, din);
	fiberFree(d, dout);
	return s;
}

START_TEST(test_devcall_streams)
{
	const char *arch = archs[_i / 2];
	int timed = _i % 2, out[64];
	char path[1200];
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	fiberFault fault;
	FILE *po = tmpfile(), *pr = tmpfile();

	ck_assert_ptr_nonnull(po);
	ck_assert_ptr_nonnull(pr);
	snprintf(path, sizeof path, "%s/tests/devcall/devcall.%s.sass", root(), arch);
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, timed ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL),
	                 FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetOutput(d, po, pr), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "say_then_check"), FIBER_SUCCESS);

	/* thread 5 of block 1 fails */
	ck_assert_int_eq(launch(f, d, 37, out), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(d, &fault), FIBER_SUCCESS);
	ck_assert_int_eq(fault.kind, FIBER_FAULT_ASSERT);
	ck_assert_str_eq(fault.name, "device-side assert");
	ck_assert_str_eq(text_of(po), "block 0 starts\nblock 1 starts\n");
	ck_assert_str_eq(text_of(pr), "devcall.cu:39: void say_then_check(const int *, int *, int): "
	                 "block: [1,0,0], thread: [5,0,0] Assertion `in[i] >= 0 && \"inputs are "
	                 "non-negative\"` failed.\n");

	/* the next launch runs, and prints only its own text (new streams) */
	fclose(po);
	fclose(pr);
	po = tmpfile();
	pr = tmpfile();
	ck_assert_ptr_nonnull(po);
	ck_assert_ptr_nonnull(pr);
	ck_assert_int_eq(fiberDeviceSetOutput(d, po, pr), FIBER_SUCCESS);
	ck_assert_int_eq(launch(f, d, -1, out), FIBER_SUCCESS);
	for (int k = 0; k < 64; k++)
		ck_assert_int_eq(out[k], k);
	ck_assert_str_eq(text_of(po), "block 0 starts\nblock 1 starts\n");
	ck_assert_str_eq(text_of(pr), "");
	fiberDeviceDestroy(d);
	fclose(po);
	fclose(pr);
}
END_TEST

START_TEST(test_devcall_bad_device)
{
	ck_assert_int_eq(fiberDeviceSetOutput(NULL, stdout, stderr), FIBER_ERROR_INVALID_HANDLE);
}
END_TEST

Suite *
devcall_suite(void)
{
	Suite *s = suite_create("devcall");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_devcall_streams, 0, 4);
	tcase_add_test(tc, test_devcall_bad_device);
	suite_add_tcase(s, tc);
	return s;
}
