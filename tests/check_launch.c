/* check_launch.c: what the launch gives a kernel beyond its parameters, run on nvcc's code
 * (tests/corpus/coop.cu and rsmem.cu, sm_80 and sm_90): the driver's reserved shared memory per CTA, which
 * cooperative groups wider than a warp keep their barrier and scratch in (tiled_partition<64>,
 * <128>, <256> with cg::reduce and sync, against CPU references, functional and timing), and
 * the cooperative launch: this_grid().sync() in a two-phase reduction, the co-residency check
 * and what a plain launch of the same kernel does; the error estimate of sampled timing runs.
 * Files come from $FIBER_ROOT.
 */
#define _POSIX_C_SOURCE 200809L
#include "fiber.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

enum { Block = 256, Reserved = 1024, CgScratch = 288 };

static const char *
path_of(const char *rel)
{
	static char buf[1024];
	const char *r = getenv("FIBER_ROOT");

	snprintf(buf, sizeof buf, "%s/%s", r && *r ? r : ".", rel);
	return buf;
}

typedef struct Run {
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	int arch;
} Run;

/* kernel name of tests/corpus/<file>.sm_<arch>.sass on the arch's device, in mode */
static Run
open_run(const char *file, int arch, const char *name, int functional)
{
	Run r = { NULL, NULL, NULL, arch };
	char rel[256];

	snprintf(rel, sizeof rel, "tests/corpus/%s.sm_%d.sass", file, arch);
	ck_assert_int_eq(fiberDeviceCreate(&r.d, arch == 90 ? "h100" : "a100"), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&r.m, r.d, path_of(rel)) == FIBER_SUCCESS, "%s\n%s",
	              fiberGetLastErrorMessage(r.d), fiberGetLastErrorLog(r.d));
	ck_assert_int_eq(fiberModuleGetFunction(&r.f, r.m, name), FIBER_SUCCESS);
	if (functional)
		ck_assert_int_eq(fiberDeviceSetMode(r.d, FIBER_MODE_FUNCTIONAL), FIBER_SUCCESS);
	return r;
}

static fiberDevicePtr
dev_buf(Run *r, const void *data, size_t n)
{
	fiberDevicePtr p;

	ck_assert_int_eq(fiberMalloc(r->d, &p, n), FIBER_SUCCESS);
	if (data)
		ck_assert_int_eq(fiberMemcpyHtoD(r->d, p, data, n), FIBER_SUCCESS);
	else
		ck_assert_int_eq(fiberMemset(r->d, p, 0xa5, n), FIBER_SUCCESS);
	return p;
}

static int
input(unsigned i)
{
	return (int)((i * 7u) % 17u) - 3;
}

/* ---------------------------------------------------------------------------------------------
 * Reserved shared memory: %reserved_smem_offset_begin, _end, _cap, _0, _1 as the kernel reads
 * them (sm_80: SR_SMEMSZ and c[0x0][0x114], 0x120, 0x124; sm_90: constants and c[0x0][0x68],
 * 0x6c). The region is 1 KiB inside the CTA's window, clear of user shared memory (sm_80: from
 * 0, sm_90: from 0x400, where nvcc places it), and cooperative groups' scratch (288 bytes at
 * offset_1) fits in it.
 */
START_TEST(test_launch_reserved_smem)
{
	static const unsigned dyn[] = { 0, 100, 4096 };
	int arch = _i / 3 ? 90 : 80;
	unsigned dsm = dyn[_i % 3], g[3] = { 1, 1, 1 }, b[3] = { 1, 1, 1 };
	Run r = open_run("rsmem", arch, "rsmem", 1);
	fiberDevicePtr out = dev_buf(&r, NULL, 20);
	uint32_t v[5], ustart = arch == 90 ? 0x400 : 0, uend = ustart + dsm;
	void *params[1] = { &out };

	ck_assert_msg(fiberLaunchKernel(r.f, g, b, dsm, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(r.d));
	ck_assert_int_eq(fiberMemcpyDtoH(r.d, v, out, sizeof v), FIBER_SUCCESS);
	/* begin, end, cap, offset_0, offset_1 */
	ck_assert_uint_eq(v[2] - v[0], Reserved);
	ck_assert_uint_eq(v[1], v[2]);
	ck_assert_uint_eq(v[3], v[0]);
	ck_assert_msg(v[4] >= v[0] && v[4] + CgScratch <= v[2], "offset_1 0x%x outside [0x%x, 0x%x)",
	              v[4], v[0], v[2]);
	ck_assert_msg(v[2] <= ustart || v[0] >= uend, "sm_%d: reserved [0x%x, 0x%x) overlaps user "
	              "shared memory [0x%x, 0x%x)", arch, v[0], v[2], ustart, uend);
	fiberDeviceDestroy(r.d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Tiles wider than a warp: cg::reduce and t.sync() of tiled_partition<N>, whose barrier and
 * per-warp scratch are in the reserved region (sum[tile] and each thread's right neighbour
 * within its tile, read after t.sync()). tred128 has no user shared memory at all.
 */
static const struct {
	const char *kernel;
	unsigned n;
	int nb;                   /* also checks the neighbour array */
} tiles[] = {
	{ "tile64", 64, 1 },
	{ "tile128", 128, 1 },
	{ "tile256", 256, 1 },
	{ "tred128", 128, 0 },
};

START_TEST(test_launch_cg_tiles)
{
	unsigned t = (unsigned)_i / 4, ctas = 4, n = ctas * Block;
	int arch = _i & 1 ? 90 : 80, functional = _i & 2;
	Run r;
	int in[4 * Block], sum[16], nb[4 * Block];
	fiberDevicePtr din, dsum, dnb;
	unsigned g[3] = { ctas, 1, 1 }, b[3] = { Block, 1, 1 };
	void *params[3] = { &din, &dsum, &dnb };

	r = open_run("coop", arch, tiles[t].kernel, functional);
	for (unsigned i = 0; i < n; i++)
		in[i] = input(i);
	din = dev_buf(&r, in, sizeof in);
	dsum = dev_buf(&r, NULL, sizeof sum);
	dnb = dev_buf(&r, NULL, sizeof nb);
	ck_assert_msg(fiberLaunchKernel(r.f, g, b, 0, params) == FIBER_SUCCESS, "sm_%d %s %s: %s",
	              arch, tiles[t].kernel, functional ? "functional" : "timing",
	              fiberGetLastErrorMessage(r.d));
	fiberMemcpyDtoH(r.d, sum, dsum, sizeof sum);
	fiberMemcpyDtoH(r.d, nb, dnb, sizeof nb);
	for (unsigned k = 0; k < n / tiles[t].n; k++) {
		int want = 0;
		for (unsigned i = 0; i < tiles[t].n; i++)
			want += in[k * tiles[t].n + i];
		ck_assert_msg(sum[k] == want, "sm_%d %s: sum[%u] = %d, want %d", arch, tiles[t].kernel,
		              k, sum[k], want);
	}
	for (unsigned i = 0; tiles[t].nb && i < n; i++) {
		unsigned base = i / tiles[t].n * tiles[t].n;
		int want = in[base + (i - base + 1) % tiles[t].n];
		ck_assert_msg(nb[i] == want, "sm_%d %s: nb[%u] = %d, want %d", arch, tiles[t].kernel,
		              i, nb[i], want);
	}
	fiberDeviceDestroy(r.d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Grid-wide synchronisation: gsum(in, partial, out, n) adds in[0..n) with a grid-stride loop
 * per CTA, this_grid().sync(), then CTA 0 adds the partials.
 */
static void
gsum(Run *r, unsigned ctas, int coop, fiberStatus want)
{
	int n = 40000, total = 0, got = -1;
	int *in = malloc((size_t)n * sizeof *in), *part = malloc(ctas * sizeof *part);
	fiberDevicePtr din, dpart, dout;
	unsigned g[3] = { ctas, 1, 1 }, b[3] = { Block, 1, 1 };
	void *params[4] = { &din, &dpart, &dout, &n };
	fiberStatus s;

	for (int i = 0; i < n; i++)
		total += in[i] = input((unsigned)i);
	din = dev_buf(r, in, (size_t)n * sizeof *in);
	dpart = dev_buf(r, NULL, ctas * sizeof *part);
	dout = dev_buf(r, NULL, sizeof got);
	s = (coop ? fiberLaunchCooperativeKernel : fiberLaunchKernel)(r->f, g, b, 0, params);
	ck_assert_msg(s == want, "sm_%d gsum of %u CTAs: %s", r->arch, ctas,
	              fiberGetLastErrorMessage(r->d));
	if (s == FIBER_SUCCESS) {
		fiberMemcpyDtoH(r->d, &got, dout, sizeof got);
		fiberMemcpyDtoH(r->d, part, dpart, ctas * sizeof *part);
		ck_assert_msg(got == total, "sm_%d gsum of %u CTAs: %d, want %d", r->arch, ctas, got,
		              total);
		for (unsigned c = 0; c < ctas; c++) {
			int want_part = 0;
			for (int i = (int)(c * Block); i < n; i += (int)(ctas * Block))
				for (int l = 0; l < Block && i + l < n; l++)
					want_part += in[i + l];
			ck_assert_msg(part[c] == want_part, "partial[%u] = %d, want %d", c, part[c],
			              want_part);
		}
	}
	free(in);
	free(part);
}

/* two CTAs per SM of the whole GPU, in both modes */
START_TEST(test_launch_grid_sync)
{
	int arch = _i & 1 ? 90 : 80, functional = _i & 2;
	Run r = open_run("coop", arch, "gsum", functional);
	fiberDeviceProps p;

	fiberDeviceGetProperties(r.d, &p);
	gsum(&r, 2 * (unsigned)p.sm_count, 1, FIBER_SUCCESS);
	fiberDeviceDestroy(r.d);
}
END_TEST

/* the functional cooperative runner polls the progress hook: a hook that asks to stop ends a
 * long grid (2^23 elements over 8 CTAs per SM) with FIBER_FAULT_INTERRUPTED, as run_cta does */
static int
stop_at_once(void *arg, const fiberProgress *p)
{
	unsigned *calls = arg;

	(*calls)++;
	return p->warp_instructions > 0;
}

START_TEST(test_launch_grid_sync_interrupt)
{
	Run r = open_run("coop", _i ? 90 : 80, "gsum", 1);
	int n = 1 << 23;
	fiberDevicePtr din, dpart, dout;
	fiberDeviceProps p;
	fiberFault f;
	unsigned calls = 0, g[3] = { 1, 1, 1 }, b[3] = { Block, 1, 1 };
	void *params[4] = { &din, &dpart, &dout, &n };

	fiberDeviceGetProperties(r.d, &p);
	g[0] = 8 * (unsigned)p.sm_count;
	ck_assert_int_eq(fiberMalloc(r.d, &din, (size_t)n * 4), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(r.d, din, 1, (size_t)n * 4), FIBER_SUCCESS);
	dpart = dev_buf(&r, NULL, g[0] * 4);
	dout = dev_buf(&r, NULL, 4);
	ck_assert_int_eq(fiberDeviceSetProgress(r.d, stop_at_once, &calls), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchCooperativeKernel(r.f, g, b, 0, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(r.d, &f), FIBER_SUCCESS);
	ck_assert_int_eq(f.kind, FIBER_FAULT_INTERRUPTED);
	ck_assert_uint_eq(calls, 1);
	fiberDeviceDestroy(r.d);
}
END_TEST

/* a plain launch gives no workspace: cooperative groups trap, as on the hardware */
START_TEST(test_launch_grid_sync_plain)
{
	Run r = open_run("coop", _i ? 90 : 80, "gsum", 1);
	fiberFault f;

	gsum(&r, 4, 0, FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(r.d, &f), FIBER_SUCCESS);
	ck_assert_int_eq(f.kind, FIBER_FAULT_TRAP);
	fiberDeviceDestroy(r.d);
}
END_TEST

/* every CTA must fit at once: 256 threads are 8 warps, 8 CTAs per SM of 64 warps; one more CTA
 * than that over the GPU is refused, exactly that many run (functional mode: the same check) */
START_TEST(test_launch_coop_too_large)
{
	int arch = _i ? 90 : 80;
	Run r = open_run("coop", arch, "gsum", 1);
	fiberDeviceProps p;
	fiberFault f;
	unsigned fit;

	fiberDeviceGetProperties(r.d, &p);
	fit = 8 * (unsigned)p.sm_count;
	gsum(&r, fit + 1, 1, FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(r.d, &f), FIBER_SUCCESS);
	ck_assert_int_eq(f.kind, FIBER_FAULT_LIMIT);
	ck_assert_msg(strstr(f.message, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE") &&
	              strstr(f.message, "limited by warps"), "%s", f.message);
	gsum(&r, fit, 1, FIBER_SUCCESS);
	fiberDeviceDestroy(r.d);
}
END_TEST

/* sampling would leave CTAs out of the grid barrier: refused */
START_TEST(test_launch_coop_no_sampling)
{
	Run r = open_run("coop", 80, "gsum", 0);
	fiberFault f;

	ck_assert_int_eq(fiberDeviceSetSampling(r.d, 8, 0), FIBER_SUCCESS);
	gsum(&r, 16, 1, FIBER_ERROR_LAUNCH_FAILED);
	fiberGetLastFault(r.d, &f);
	ck_assert_int_eq(f.kind, FIBER_FAULT_LIMIT);
	ck_assert_ptr_nonnull(strstr(f.message, "cannot be sampled"));
	fiberDeviceDestroy(r.d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Sampling reports an error estimate: a 256-CTA GEMM (examples/gemm_tc, 1024 x 1024 x 256, one
 * wave of 7 CTAs per SM on a100) sampled by CTAs (less than a wave, and more) and by SMs; the
 * estimate in the statistics JSON must cover the actual error against the full run, and is
 * null when nothing is sampled.
 */
static double
gemm_cycles(unsigned sms, unsigned ctas, double *err)
{
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr a, bm, c;
	fiberStats st;
	int mm = 1024, nn = 1024, kk = 256;
	unsigned g[3] = { 16, 16, 1 }, b[3] = { 128, 1, 1 };
	void *params[6] = { &a, &bm, &c, &mm, &nn, &kk };
	char path[] = "/tmp/fiber-launch-XXXXXX", *json, *p;
	FILE *fp;
	long n;
	int fd;

	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, path_of("examples/gemm_tc/gemm_tc.sm_80.sass")),
	                 FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "gemm_f16_tc"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &a, 1024 * 256 * 2), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &bm, 1024 * 256 * 2), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &c, 1024 * 1024 * 4), FIBER_SUCCESS);
	fiberMemset(d, a, 0, 1024 * 256 * 2);
	fiberMemset(d, bm, 0, 1024 * 256 * 2);
	ck_assert_int_eq(fiberDeviceSetSampling(d, sms, ctas), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	fiberGetStats(d, &st);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fiberWriteStatsJSON(d, path), FIBER_SUCCESS);
	close(fd);           /* the writer replaces the file (a temporary renamed): read it anew */
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	json = calloc((size_t)n + 1, 1);
	ck_assert_uint_eq(fread(json, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	remove(path);
	p = strstr(json, "\"error_estimate\": ");
	ck_assert_msg(p != NULL, "no sampling.error_estimate in the statistics");
	p += strlen("\"error_estimate\": ");
	if (strncmp(p, "null", 4) == 0)
		*err = -1;
	else
		*err = strtod(p, NULL);
	free(json);
	fiberDeviceDestroy(d);
	return (double)st.cycles;
}

START_TEST(test_launch_sample_error)
{
	static const unsigned cases[][2] = { { 0, 108 }, { 0, 216 }, { 8, 0 }, { 27, 0 } };
	double err, full = gemm_cycles(0, 0, &err);

	ck_assert_msg(err == -1, "unsampled run: error_estimate %g, want null", err);
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		double cyc = gemm_cycles(cases[k][0], cases[k][1], &err);
		double actual = (cyc - full) / full;
		ck_assert_msg(err >= 0 && err < 1, "sample (%u SMs, %u CTAs): estimate %g", cases[k][0],
		              cases[k][1], err);
		ck_assert_msg(actual <= err && -actual <= err, "sample (%u SMs, %u CTAs): %.0f cycles, "
		              "%+.1f%% from the full %.0f, estimate %.1f%%", cases[k][0], cases[k][1],
		              cyc, 100 * actual, full, 100 * err);
	}
}
END_TEST

Suite *
launch_suite(void)
{
	Suite *s = suite_create("launch");
	TCase *rsv = tcase_create("Reserved"), *grid = tcase_create("Grid");

	tcase_add_loop_test(rsv, test_launch_reserved_smem, 0, 6);
	tcase_add_loop_test(rsv, test_launch_cg_tiles, 0, 4 * (int)(sizeof tiles / sizeof tiles[0]));
	tcase_set_timeout(rsv, 120);
	suite_add_tcase(s, rsv);
	tcase_add_loop_test(grid, test_launch_grid_sync, 0, 4);
	tcase_add_loop_test(grid, test_launch_grid_sync_interrupt, 0, 2);
	tcase_add_loop_test(grid, test_launch_grid_sync_plain, 0, 2);
	tcase_add_loop_test(grid, test_launch_coop_too_large, 0, 2);
	tcase_add_test(grid, test_launch_coop_no_sampling);
	tcase_add_test(grid, test_launch_sample_error);
	tcase_set_timeout(grid, 120);
	suite_add_tcase(s, grid);
	return s;
}
