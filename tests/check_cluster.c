/* check_cluster.c: sm_90 thread-block clusters (sim/cluster.c) on nvcc 13's sm_90a SASS of
 * examples/hopper/cluster.cu, launched with fiberLaunchKernelEx: every cluster special register
 * of every CTA against the CUDA definitions, distributed shared memory read and written through
 * mapa, a remote mbarrier arrival, the cluster barrier; CPU references for each. A rank outside
 * the cluster faults naming it, a shape that breaks CUDA's rules is refused, a launch without a
 * cluster sees %is_explicit_cluster 0 and one CTA per cluster. Files come from $FIBER_ROOT.
 */
#include "fiber.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* an h100 device (functional mode), the module loaded, kernel name looked up */
static fiberDevice
open_kernel(const char *name, fiberFunction *f)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;

	snprintf(path, sizeof path, "%s/examples/hopper/cluster.sm_90a.sass", root());
	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_FUNCTIONAL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_msg(fiberModuleGetFunction(f, m, name) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	return d;
}

static fiberLaunchConfig
config(unsigned gx, unsigned gy, unsigned gz, unsigned block, unsigned cx, unsigned cy,
       unsigned cz)
{
	fiberLaunchConfig c;

	memset(&c, 0, sizeof c);
	c.grid[0] = gx, c.grid[1] = gy, c.grid[2] = gz;
	c.block[0] = block, c.block[1] = 1, c.block[2] = 1;
	c.cluster[0] = cx, c.cluster[1] = cy, c.cluster[2] = cz;
	return c;
}

/* cluster_ids on grid g with clusters cl (all 0: none): each CTA's row against CUDA's
 * definitions (ranks x-major in a cluster, clusters x-major over the grid) */
static void
ids_case(const unsigned g[3], const unsigned cl[3])
{
	fiberFunction f;
	fiberDevice d = open_kernel("cluster_ids", &f);
	fiberLaunchConfig c = config(g[0], g[1], g[2], 32, cl[0], cl[1], cl[2]);
	unsigned n = g[0] * g[1] * g[2], e = cl[0] || cl[1] || cl[2];
	unsigned cd[3] = { e ? cl[0] : 1, e ? cl[1] : 1, e ? cl[2] : 1 };
	uint32_t *out = malloc(n * 64);
	fiberDevicePtr dout;
	void *params[1] = { &dout };

	ck_assert_int_eq(fiberMalloc(d, &dout, n * 64), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0xff, n * 64), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernelEx(&c, f, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, n * 64), FIBER_SUCCESS);
	for (unsigned z = 0; z < g[2]; z++)
		for (unsigned y = 0; y < g[1]; y++)
			for (unsigned x = 0; x < g[0]; x++) {
				unsigned cta = x + g[0] * (y + g[1] * z), b[3] = { x, y, z };
				const uint32_t *row = out + cta * 16;
				uint32_t want[16];
				for (int k = 0; k < 3; k++) {
					want[2 + k] = b[k] % cd[k];
					want[5 + k] = cd[k];
					want[8 + k] = b[k] / cd[k];
					want[11 + k] = g[k] / cd[k];
				}
				want[0] = want[2] + cd[0] * (want[3] + cd[1] * want[4]);
				want[1] = cd[0] * cd[1] * cd[2];
				want[14] = e;
				want[15] = cta;
				for (int k = 0; k < 16; k++)
					ck_assert_msg(row[k] == want[k], "CTA (%u,%u,%u) word %d: %u, want %u", x, y,
					              z, k, row[k], want[k]);
			}
	free(out);
	fiberDeviceDestroy(d);
}

START_TEST(test_cluster_ids)
{
	static const unsigned g[][3] = { { 4, 2, 2 }, { 8, 1, 1 }, { 6, 4, 1 }, { 4, 2, 2 } };
	static const unsigned cl[][3] = { { 2, 2, 1 }, { 8, 1, 1 }, { 3, 1, 1 }, { 0, 0, 0 } };

	ids_case(g[_i], cl[_i]);
}
END_TEST

/* dsmem_ring: out = own * (rank + 1) + the next rank's * (rank + 2 mod n) */
START_TEST(test_cluster_dsmem_ring)
{
	fiberFunction f;
	fiberDevice d = open_kernel("dsmem_ring", &f);
	enum { G = 8, C = 4 };
	fiberLaunchConfig c = config(G, 1, 1, 96, C, 1, 1);
	float *in = malloc(G * N * 4), *out = malloc(G * N * 4);
	fiberDevicePtr din, dout;
	void *params[2] = { &din, &dout };

	for (unsigned k = 0; k < G * N; k++)
		in[k] = (float)((k * 37) % 101) - 50.0f;
	ck_assert_int_eq(fiberMalloc(d, &din, G * N * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, G * N * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, din, in, G * N * 4), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernelEx(&c, f, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, G * N * 4), FIBER_SUCCESS);
	for (unsigned cta = 0; cta < G; cta++) {
		unsigned r = cta % C, p = (r + 1) % C, pc = cta - r + p;
		for (unsigned i = 0; i < N; i++) {
			float want = in[cta * N + i] * (float)(r + 1) + in[pc * N + i] * (float)(p + 1);
			ck_assert_msg(out[cta * N + i] == want, "CTA %u [%u]: %g, want %g", cta, i,
			              (double)out[cta * N + i], (double)want);
		}
	}
	free(in);
	free(out);
	fiberDeviceDestroy(d);
}
END_TEST

/* dsmem_store: each CTA receives what the previous rank stored into its shared memory */
START_TEST(test_cluster_dsmem_store)
{
	fiberFunction f;
	fiberDevice d = open_kernel("dsmem_store", &f);
	enum { G = 6, C = 3 };
	fiberLaunchConfig c = config(1, G, 1, 64, 1, C, 1);
	uint32_t *out = malloc(G * N * 4);
	fiberDevicePtr dout;
	void *params[1] = { &dout };

	ck_assert_int_eq(fiberMalloc(d, &dout, G * N * 4), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernelEx(&c, f, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, G * N * 4), FIBER_SUCCESS);
	for (unsigned cta = 0; cta < G; cta++) {
		unsigned r = cta % C, src = cta - r + (r + C - 1) % C;
		for (unsigned i = 0; i < N; i++)
			ck_assert_msg(out[cta * N + i] == src * 1000 + i, "CTA %u [%u]: %u, want %u", cta,
			              i, out[cta * N + i], src * 1000 + i);
	}
	free(out);
	fiberDeviceDestroy(d);
}
END_TEST

/* remote_arrive: rank 0 passes its mbarrier's phase only after every rank arrived, and then
 * holds every rank's id stored into its shared memory before the arrival */
START_TEST(test_cluster_remote_arrive)
{
	fiberFunction f;
	fiberDevice d = open_kernel("remote_arrive", &f);
	enum { G = 8, C = 4 };
	fiberLaunchConfig c = config(G, 1, 1, 64, C, 1, 1);
	uint32_t out[G * 16];
	fiberDevicePtr dout;
	void *params[1] = { &dout };

	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernelEx(&c, f, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (unsigned cta = 0; cta < G; cta++)
		for (unsigned k = 0; k < 16; k++) {
			uint32_t want = cta % C == 0 && k < C ? cta + k + 100 : 0;
			ck_assert_msg(out[cta * 16 + k] == want, "CTA %u word %u: %u, want %u", cta, k,
			              out[cta * 16 + k], want);
		}
	fiberDeviceDestroy(d);
}
END_TEST

/* bad_rank: mapa to rank r in clusters of 2: rank 1 runs, rank 2 and 7 fault naming it */
START_TEST(test_cluster_bad_rank)
{
	static const unsigned rank[] = { 1, 2, 7 };
	fiberFunction f;
	fiberDevice d = open_kernel("bad_rank", &f);
	fiberLaunchConfig c = config(4, 1, 1, 32, 2, 1, 1);
	fiberDevicePtr dout;
	uint32_t r = rank[_i];
	void *params[2] = { &dout, &r };
	fiberStatus s;
	char want[64];

	ck_assert_int_eq(fiberMalloc(d, &dout, 128), FIBER_SUCCESS);
	s = fiberLaunchKernelEx(&c, f, params);
	if (r < 2) {
		ck_assert_msg(s == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	} else {
		fiberFault ft;
		ck_assert_int_eq(s, FIBER_ERROR_LAUNCH_FAILED);
		fiberGetLastFault(d, &ft);
		ck_assert_int_eq(ft.kind, FIBER_FAULT_OUT_OF_BOUNDS);
		snprintf(want, sizeof want, "names CTA rank %u, outside the cluster of 2 CTAs", r);
		ck_assert_msg(strstr(fiberGetLastErrorMessage(d), want), "%s",
		              fiberGetLastErrorMessage(d));
	}
	fiberDeviceDestroy(d);
}
END_TEST

/* shapes CUDA refuses, and a cluster in timing mode (not built yet), fail saying why */
START_TEST(test_cluster_refused)
{
	static const unsigned sh[][6] = {
		{ 6, 1, 1, 4, 1, 1 },      /* 6 is not a multiple of 4 */
		{ 16, 1, 1, 16, 1, 1 },    /* more than 8 CTAs */
		{ 4, 1, 1, 2, 0, 1 },      /* a zero dimension */
		{ 8, 1, 1, 4, 1, 1 },      /* timing mode */
	};
	static const char *const why[] = { "multiple of the cluster's", "more than 8 CTAs",
	                                   "at least 1", "not supported in timing mode" };
	fiberFunction f;
	fiberDevice d = open_kernel("cluster_ids", &f);
	const unsigned *v = sh[_i];
	fiberLaunchConfig c = config(v[0], v[1], v[2], 32, v[3], v[4], v[5]);
	fiberDevicePtr dout;
	void *params[1] = { &dout };

	ck_assert_int_eq(fiberMalloc(d, &dout, 64 * 16), FIBER_SUCCESS);
	if (_i == 3)
		ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_TIMING), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernelEx(&c, f, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), why[_i]), "%s",
	              fiberGetLastErrorMessage(d));
	fiberDeviceDestroy(d);
}
END_TEST

Suite *
cluster_suite(void)
{
	Suite *s = suite_create("cluster");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_cluster_ids, 0, 4);
	tcase_add_test(tc, test_cluster_dsmem_ring);
	tcase_add_test(tc, test_cluster_dsmem_store);
	tcase_add_test(tc, test_cluster_remote_arrive);
	tcase_add_loop_test(tc, test_cluster_bad_rank, 0, 3);
	tcase_add_loop_test(tc, test_cluster_refused, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
