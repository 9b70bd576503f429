/* check_phaseguard.c: the run-time guard of the phases pass's split (docs/pass-phases.md,
 * "Run-time guard"), end to end on examples/llm_train's gelu_fwd (a grid-stride loop, bound n a
 * parameter, loads without .CONSTANT: versioned on its pointer ranges), compiled by
 * `fiberc --mode=cuda-native --fiber-runtime` with no launch information, against nvcc's listing:
 *   - a launch where every condition holds: bit-identical output, faster (sm_80 and sm_90);
 *   - out = inp + S (S = blockDim.x*gridDim.x elements): the ranges overlap and each thread's
 *     iteration k+1 reads what its iteration k wrote (race-free, ordered only within a thread):
 *     a split would read stale values; the guard falls back and the output is the input's;
 *   - a grid of more CTAs than SMs, and an n too small for two iterations per copy: the guard
 *     falls back, bit-identical output.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"
#include "ref/ref.h"

Suite *phaseguard_suite(void);

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");

	return r ? r : ".";
}

static const char *arch = "sm_80";   /* the listing: sm_80 (a100) or sm_90 (h100) */

/* fiberc's cuda-native output of the listing, into *text */
static size_t
compile(char **text)
{
	char cmd[1024], path[512];
	const char *fc = getenv("FIBERC");
	FILE *p;
	size_t len = 0, cap = 0, n;

	snprintf(path, sizeof path, "%s/examples/llm_train/llm_train.%s.sass", root(), arch);
	snprintf(cmd, sizeof cmd, "%s '%s' --mode=cuda-native --fiber-runtime",
	         fc ? fc : "build/bin/fiberc", path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	*text = NULL;
	do {
		if (len + 65536 > cap)
			*text = realloc(*text, cap = 2 * cap + 65536);
		n = fread(*text + len, 1, cap - len, p);
		len += n;
	} while (n);
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_uint_gt(len, 0);
	return len;
}

typedef struct Run {
	unsigned grid;     /* CTAs (block 128) */
	int n;             /* elements */
	int shift;         /* out = inp + shift elements (0: separate buffers) */
} Run;

/* gelu_fwd(out, inp, n) on config from the listing (text, or the nvcc file): the output
 * elements into y (n of them), cycles */
static void
launch(const char *config, const char *text, size_t len, const Run *r, const float *x,
       float *y, uint64_t *cycles)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr din, dout, dbuf;
	fiberStats st;
	char path[512];
	unsigned grid[3] = {r->grid, 1, 1}, block[3] = {128, 1, 1};
	void *params[] = {&dout, &din, (void *)&r->n};
	size_t total = (size_t)r->n + (size_t)r->shift;
	fiberStatus s;

	ck_assert(fiberDeviceCreate(&dev, config) == FIBER_SUCCESS);
	snprintf(path, sizeof path, "%s/examples/llm_train/llm_train.%s.sass", root(), arch);
	s = text ? fiberModuleLoadData(&mod, dev, text, len, "llm_train.fsass")
	         : fiberModuleLoadFile(&mod, dev, path);
	ck_assert_msg(s == FIBER_SUCCESS, "%s: load: %s\n%.2000s", config,
	              fiberGetLastErrorMessage(dev), fiberGetLastErrorLog(dev));
	ck_assert(fiberModuleGetFunction(&fn, mod, "gelu_fwd") == FIBER_SUCCESS);
	ck_assert(fiberMalloc(dev, &dbuf, 2 * total * 4) == FIBER_SUCCESS);
	ck_assert(fiberMemcpyHtoD(dev, dbuf, x, total * 4) == FIBER_SUCCESS);
	din = dbuf;
	dout = r->shift ? dbuf + (fiberDevicePtr)r->shift * 4 : dbuf + total * 4;
	s = fiberLaunchKernel(fn, grid, block, 0, params);
	ck_assert_msg(s == FIBER_SUCCESS, "%s: launch: %s", config, fiberGetLastErrorMessage(dev));
	ck_assert(fiberMemcpyDtoH(dev, y, dout, (size_t)r->n * 4) == FIBER_SUCCESS);
	ck_assert(fiberGetStats(dev, &st) == FIBER_SUCCESS);
	*cycles = st.cycles;
	fiberDeviceDestroy(dev);
}

/* nvcc's listing on a100 (h100) against fiberc's output on a100-fiber (h100-fiber):
 * bit-identical; the cycles */
static void
same(const Run *r, uint64_t *c0, uint64_t *c1)
{
	size_t total = (size_t)r->n + (size_t)r->shift, len;
	float *x = malloc(total * 4), *y0 = malloc((size_t)r->n * 4), *y1 = malloc((size_t)r->n * 4);
	char *text;

	gen_f32(x, total, 0x9e1u, -3.0, 3.0);
	len = compile(&text);
	launch(arch[3] == '9' ? "h100" : "a100", NULL, 0, r, x, y0, c0);
	launch(arch[3] == '9' ? "h100-fiber" : "a100-fiber", text, len, r, x, y1, c1);
	for (int i = 0; i < r->n; i++)
		ck_assert_msg(memcmp(&y0[i], &y1[i], 4) == 0, "grid %u n %d shift %d: [%d] %g, %g",
		              r->grid, r->n, r->shift, i, y0[i], y1[i]);
	if (r->shift) {   /* the chain: out[i] = gelu(out[i - S]) within a thread, checked once */
		double v = x[0];
		for (int i = 0; i < r->n; i += r->shift) {
			v = 0.5 * v * (1.0 + tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
			ck_assert_msg(fabs(y1[i] - v) <= 1e-4 + 1e-4 * fabs(v), "[%d] = %g, want %g", i,
			              y1[i], v);
			v = y1[i];
		}
	}
	free(text);
	free(x), free(y0), free(y1);
}

START_TEST(guard_holds)
{
	Run r = {8, 16384, 0};
	uint64_t c0, c1;

	arch = "sm_80";

	same(&r, &c0, &c1);
	ck_assert_msg(c1 * 2 < c0, "%llu cycles on a100-fiber, %llu on a100: no gain",
	              (unsigned long long)c1, (unsigned long long)c0);
}
END_TEST

START_TEST(guard_holds_h100)
{
	Run r = {8, 16384, 0};
	uint64_t c0, c1;

	arch = "sm_90";
	same(&r, &c0, &c1);
	ck_assert_msg(c1 * 100 < c0 * 80, "%llu cycles on h100-fiber, %llu on h100: no gain",
	              (unsigned long long)c1, (unsigned long long)c0);
}
END_TEST

START_TEST(guard_overlap)
{
	Run r = {8, 16384, 8 * 128};   /* out = inp + S */
	uint64_t c0, c1;

	arch = "sm_80";

	same(&r, &c0, &c1);
}
END_TEST

START_TEST(guard_grid_and_trips)
{
	Run big = {216, 27648 * 2, 0}, few = {8, 4096, 0};   /* 2 CTAs per SM; 4 per thread */
	uint64_t c0, c1;

	arch = "sm_80";

	same(&big, &c0, &c1);
	same(&few, &c0, &c1);
}
END_TEST

Suite *
phaseguard_suite(void)
{
	Suite *s = suite_create("phaseguard");
	TCase *tc = tcase_create("phaseguard");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, guard_holds);
	tcase_add_test(tc, guard_holds_h100);
	tcase_add_test(tc, guard_overlap);
	tcase_add_test(tc, guard_grid_and_trips);
	suite_add_tcase(s, tc);
	return s;
}
