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

/* an h100 device in functional (timing 0) or timing mode with the configuration changes set
 * (NULL-terminated; NULL: none), the module loaded, kernel name looked up */
static fiberDevice
open_kernel_set(const char *name, fiberFunction *f, int timing, const char *const *set)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;

	snprintf(path, sizeof path, "%s/examples/hopper/cluster.sm_90a.sass", root());
	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, timing ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL),
	                 FIBER_SUCCESS);
	for (; set && *set; set++)
		ck_assert_msg(fiberDeviceSetConfigValue(d, *set) == FIBER_SUCCESS, "%s: %s", *set,
		              fiberGetLastErrorMessage(d));
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_msg(fiberModuleGetFunction(f, m, name) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	return d;
}

static fiberDevice
open_kernel(const char *name, fiberFunction *f, int timing)
{
	return open_kernel_set(name, f, timing, NULL);
}

/* in timing mode: cycles counted, no hazard (nvcc's stall counts cover every latency) */
static void
check_timed(fiberDevice d, int timing)
{
	fiberStats st;

	if (!timing)
		return;
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	ck_assert_msg(st.cycles > 0, "no cycles in timing mode");
	ck_assert_msg(st.hazards == 0, "%llu hazards", (unsigned long long)st.hazards);
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
ids_case(const unsigned g[3], const unsigned cl[3], int timing)
{
	fiberFunction f;
	fiberDevice d = open_kernel("cluster_ids", &f, timing);
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
	check_timed(d, timing);
	free(out);
	fiberDeviceDestroy(d);
}

START_TEST(test_cluster_ids)
{
	static const unsigned g[][3] = { { 4, 2, 2 }, { 8, 1, 1 }, { 6, 4, 1 }, { 4, 2, 2 } };
	static const unsigned cl[][3] = { { 2, 2, 1 }, { 8, 1, 1 }, { 3, 1, 1 }, { 0, 0, 0 } };

	ids_case(g[_i / 2], cl[_i / 2], _i % 2);
}
END_TEST

/* dsmem_ring in mode timing (0: functional) with configuration changes set: out = own *
 * (rank + 1) + the next rank's * (rank + 2 mod n); the cycles (0 in functional mode) */
static uint64_t
ring_case(int timing, const char *const *set, unsigned threads)
{
	fiberFunction f;
	fiberDevice d = open_kernel_set("dsmem_ring", &f, timing, set);
	fiberStats st;

	if (threads)
		ck_assert_int_eq(fiberDeviceSetThreads(d, threads), FIBER_SUCCESS);
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
	check_timed(d, timing);
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	free(in);
	free(out);
	fiberDeviceDestroy(d);
	return st.cycles;
}

START_TEST(test_cluster_dsmem_ring)
{
	ring_case(_i, NULL, 0);
}
END_TEST

/* timing mode is deterministic: the same cycles again, and on 4 host threads (the two clusters
 * run on two GPCs, each GPC's SMs on one thread) */
START_TEST(test_cluster_timing_repeat)
{
	uint64_t a = ring_case(1, NULL, 1), b = ring_case(1, NULL, 1), c = ring_case(1, NULL, 4);

	ck_assert_msg(a == b && a == c, "cycles %llu, %llu, on 4 threads %llu",
	              (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
}
END_TEST

/* a remote shared memory access costs lat_dsmem, more than a local one: dsmem_ring's cycles
 * grow with lat_dsmem (at least by the growth of one remote load: the ring reads its
 * neighbour once per element, between two cluster barriers), and with lat_cluster_bar: by
 * more than one barrier's growth, at most two (the kernel's two barriers; stores still
 * draining at the second barrier's release hide part of its default latency) */
START_TEST(test_cluster_timing_remote)
{
	static const char *const local[] = { "lat_dsmem=29", NULL };   /* h100's lat_lds */
	static const char *const slow[] = { "lat_dsmem=2194", NULL };
	static const char *const bar[] = { "lat_cluster_bar=3214", NULL };
	uint64_t l = ring_case(1, local, 0), h = ring_case(1, NULL, 0), s = ring_case(1, slow, 0);
	uint64_t b = ring_case(1, bar, 0);

	ck_assert_msg(l < h && h + 2000 <= s, "cycles with lat_dsmem 29: %llu, 194: %llu, 2194: "
	              "%llu", (unsigned long long)l, (unsigned long long)h, (unsigned long long)s);
	ck_assert_msg(h + 3000 < b && b <= h + 2 * 3000, "cycles with lat_cluster_bar 214: %llu, 3214: %llu",
	              (unsigned long long)h, (unsigned long long)b);
}
END_TEST

/* a pointer chase of 512 dependent loads (examples/microbench: dsmem_chase through rank 1's
 * shared memory in a cluster of 2, lds_chase through the CTA's own) on h100 in timing mode:
 * cycles per load */
static double
chase(const char *file, const char *kernel, unsigned cluster)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr dout;
	fiberLaunchConfig c = config(cluster ? 2 : 1, 1, 1, 1, cluster, cluster ? 1 : 0,
	                             cluster ? 1 : 0);
	int32_t stride = 1, n = 256, steps = 512;
	void *params[4] = { &dout, &stride, &n, &steps };
	long long out[3];

	snprintf(path, sizeof path, "%s/examples/microbench/%s", root(), file);
	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, kernel), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernelEx(&c, f, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(out[1], (16 + 512) % 256);            /* the chase's last word */
	check_timed(d, 1);
	fiberDeviceDestroy(d);
	return (double)out[0] / steps;
}

/* a remote load costs lat_dsmem (194 on h100) plus the chain's two MOVs, a local one lat_lds
 * (29): the remote chase is within [194, 194 + 16] cycles per load, at least 150 more than the
 * local one */
START_TEST(test_cluster_timing_chase)
{
	double r = chase("dsmem.sm_90a.sass", "dsmem_chase", 2);
	double l = chase("memory.sm_90.sass", "lds_chase", 0);

	ck_assert_msg(r >= 194 && r <= 194 + 16 && r >= l + 150, "remote %.2f, local %.2f cycles "
	              "per load", r, l);
}
END_TEST

/* placement: with one SM per GPC a cluster's 4 CTAs share one SM (same outputs); a cluster
 * that no GPC can hold is refused, naming the keys */
START_TEST(test_cluster_timing_fit)
{
	static const char *const one[] = { "sms=4", "gpcs=4", NULL };
	static const char *const small[] = { "sms=8", "gpcs=4", "max_ctas_per_sm=1", NULL };
	fiberFunction f;
	fiberDevice d;
	fiberLaunchConfig c = config(8, 1, 1, 96, 4, 1, 1);
	fiberDevicePtr din, dout;
	void *params[2] = { &din, &dout };

	ck_assert_msg(ring_case(1, one, 0) > 0, "no cycles");
	d = open_kernel_set("dsmem_ring", &f, 1, small);
	ck_assert_int_eq(fiberMalloc(d, &din, 8 * N * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, 8 * N * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernelEx(&c, f, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), "a cluster of 4 CTAs does not fit a GPC "
	                     "of 2 SMs at 1 CTAs each"), "%s", fiberGetLastErrorMessage(d));
	fiberDeviceDestroy(d);
}
END_TEST

/* dsmem_store: each CTA receives what the previous rank stored into its shared memory */
START_TEST(test_cluster_dsmem_store)
{
	fiberFunction f;
	fiberDevice d = open_kernel("dsmem_store", &f, _i);
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
	check_timed(d, _i);
	free(out);
	fiberDeviceDestroy(d);
}
END_TEST

/* remote_arrive: rank 0 passes its mbarrier's phase only after every rank arrived, and then
 * holds every rank's id stored into its shared memory before the arrival */
START_TEST(test_cluster_remote_arrive)
{
	fiberFunction f;
	fiberDevice d = open_kernel("remote_arrive", &f, _i);
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
	check_timed(d, _i);
	fiberDeviceDestroy(d);
}
END_TEST

/* bad_rank: mapa to rank r in clusters of 2: rank 1 runs, rank 2 and 7 fault naming it */
START_TEST(test_cluster_bad_rank)
{
	static const unsigned rank[] = { 1, 2, 7 };
	fiberFunction f;
	fiberDevice d = open_kernel("bad_rank", &f, _i / 3);
	fiberLaunchConfig c = config(4, 1, 1, 32, 2, 1, 1);
	fiberDevicePtr dout;
	uint32_t r = rank[_i % 3];
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

/* shapes CUDA refuses fail saying why; in timing mode, a cluster launch sampled by SMs (not
 * built) */
START_TEST(test_cluster_refused)
{
	static const unsigned sh[][6] = {
		{ 6, 1, 1, 4, 1, 1 },      /* 6 is not a multiple of 4 */
		{ 16, 1, 1, 16, 1, 1 },    /* more than 8 CTAs */
		{ 4, 1, 1, 2, 0, 1 },      /* a zero dimension */
		{ 8, 1, 1, 4, 1, 1 },      /* timing mode, sampled by SMs */
	};
	static const char *const why[] = { "multiple of the cluster's", "more than 8 CTAs",
	                                   "at least 1", "cannot be sampled by SMs yet" };
	fiberFunction f;
	fiberDevice d = open_kernel("cluster_ids", &f, 0);
	const unsigned *v = sh[_i];
	fiberLaunchConfig c = config(v[0], v[1], v[2], 32, v[3], v[4], v[5]);
	fiberDevicePtr dout;
	void *params[1] = { &dout };

	ck_assert_int_eq(fiberMalloc(d, &dout, 64 * 16), FIBER_SUCCESS);
	if (_i == 3) {
		ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_TIMING), FIBER_SUCCESS);
		ck_assert_int_eq(fiberDeviceSetSampling(d, 2, 0), FIBER_SUCCESS);
	}
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
	/* loop index % 2 (bad_rank: / 3): 0 functional, 1 timing mode */
	tcase_add_loop_test(tc, test_cluster_ids, 0, 8);
	tcase_add_loop_test(tc, test_cluster_dsmem_ring, 0, 2);
	tcase_add_loop_test(tc, test_cluster_dsmem_store, 0, 2);
	tcase_add_loop_test(tc, test_cluster_remote_arrive, 0, 2);
	tcase_add_loop_test(tc, test_cluster_bad_rank, 0, 6);
	tcase_add_loop_test(tc, test_cluster_refused, 0, 4);
	tcase_add_test(tc, test_cluster_timing_repeat);
	tcase_add_test(tc, test_cluster_timing_remote);
	tcase_add_test(tc, test_cluster_timing_fit);
	tcase_add_test(tc, test_cluster_timing_chase);
	suite_add_tcase(s, tc);
	return s;
}
