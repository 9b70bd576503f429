/* simbench.c: throughput of the functional simulator, through the runtime library. Four
 * workloads on an a100 (sm_80) device: an ALU-bound FFMA/IMAD loop (bench/alu_loop.cu), a
 * memory-bound float4 axpy (bench/stream.cu, 32 MiB), the SiLU-gated product of
 * examples/silu_ffn scaled up by its grid (two loads and a store per expf/division sequence), and
 * the tensor-core GEMM of examples/gemm_tc at 256^3. Each is launched REPS times on one thread;
 * it prints the median simulated warp instructions per second and the peak RSS, against the
 * target of 20 million warp instructions per second on one core.
 *
 *   simbench [-r REPS] [--root DIR] [--arch 80|90] [-k KIND] [--strict]
 * -k: only the workloads of that kind (alu, memory, elementwise, tensor), e.g. under perf.
 * --strict: exit 1 when a workload is below the target (default: report only).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "benchutil.h"
#include "fiber.h"

const char *bench_prog = "simbench";

enum {
	MaxReps = 101,           /* repetitions accepted by -r */
	TargetRate = 20000000,   /* warp instructions per second on one core */
};

typedef struct Work Work;

/* one benchmark workload: a kernel of a listing and its launch */
struct Work {
	const char *name;        /* printed */
	const char *kind;        /* "ALU", "memory", "elementwise", "tensor" */
	const char *file;        /* listing, relative to the root, %d = architecture */
	const char *kernel;      /* symbol */
	unsigned grid[3];        /* launch */
	unsigned block[3];
	/* allocate and fill the buffers, set params; returns the bytes of device memory */
	size_t (*setup)(fiberDevice dev, void **params, fiberDevicePtr *bufs);
};

/* parameter values of the workloads (the launch reads them through params[]) */
static int32_t pi[4];

static long
peak_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* alu_loop(float *out, int iters): 64 blocks of 256 threads, 1024 iterations of 11 instructions */
static size_t
setup_alu(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t n = 64 * 256 * sizeof(float);

	bufs[0] = bench_f16_buffer(dev, n, 1);
	pi[0] = 1024;
	params[0] = &bufs[0];
	params[1] = &pi[0];
	return n;
}

/* stream_axpy(x, y, a, n4): 2^20 float4 (16 MiB per buffer), 256 blocks of 256 threads, 16
 * grid-stride iterations each */
static size_t
setup_stream(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	static float a = 0.5f;
	size_t n = (size_t)16 << 20;

	bufs[0] = bench_f16_buffer(dev, n, 8);
	bufs[1] = bench_f16_buffer(dev, n, 9);
	pi[0] = 1 << 20;
	params[0] = &bufs[0];
	params[1] = &bufs[1];
	params[2] = &a;
	params[3] = &pi[0];
	return 2 * n;
}

/* silu_mul_f16(gate, up, out, n2): 2^20 half2 pairs (4 MiB per buffer), 256 blocks of 256
 * threads, 16 grid-stride iterations each */
static size_t
setup_silu(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t n = (size_t)4 << 20;

	bufs[0] = bench_f16_buffer(dev, n, 2);
	bufs[1] = bench_f16_buffer(dev, n, 3);
	bufs[2] = bench_f16_buffer(dev, n, 4);
	pi[0] = 1 << 20;
	params[0] = &bufs[0];
	params[1] = &bufs[1];
	params[2] = &bufs[2];
	params[3] = &pi[0];
	return 3 * n;
}

/* gemm_f16_tc(A, B, C, M, N, K) with M = N = K = 256: 4 x 4 CTAs of 4 warps, 8 k-tiles */
static size_t
setup_gemm(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t nab = 256 * 256 * 2, nc = 256 * 256 * 4;

	bufs[0] = bench_f16_buffer(dev, nab, 5);
	bufs[1] = bench_f16_buffer(dev, nab, 6);
	bufs[2] = bench_f16_buffer(dev, nc, 7);
	pi[0] = pi[1] = pi[2] = 256;
	params[0] = &bufs[0];
	params[1] = &bufs[1];
	params[2] = &bufs[2];
	params[3] = &pi[0];
	params[4] = &pi[1];
	params[5] = &pi[2];
	return 2 * nab + nc;
}

static const Work works[] = {
	{"alu_loop (FFMA/IMAD loop)", "ALU", "bench/alu_loop.sm_%d.sass", "alu_loop",
	 {64, 1, 1}, {256, 1, 1}, setup_alu},
	{"stream_axpy float4 x 2^20", "memory", "bench/stream.sm_%d.sass", "stream_axpy",
	 {256, 1, 1}, {256, 1, 1}, setup_stream},
	{"silu_mul_f16 x 2^21 elements", "elementwise", "examples/silu_ffn/silu_ffn.sm_%d.sass",
	 "silu_mul_f16", {256, 1, 1}, {256, 1, 1}, setup_silu},
	{"gemm_f16_tc 256^3", "tensor", "examples/gemm_tc/gemm_tc.sm_%d.sass", "gemm_f16_tc",
	 {4, 4, 1}, {128, 1, 1}, setup_gemm},
};

static void
usage(void)
{
	fprintf(stderr, "usage: simbench [-r REPS] [--root DIR] [--arch 80|90] [-k KIND] "
	        "[--strict]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *root = ".", *only = NULL;
	int reps = 5, arch = 80, strict = 0, below = 0;
	long rss0 = peak_rss_kb();

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
			arch = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--strict"))
			strict = 1;
		else
			usage();
	}
	if (reps < 1 || reps > MaxReps || (arch != 80 && arch != 90))
		usage();

	printf("simbench: functional simulator, sm_%d, one thread, median of %d launches; target "
	       ">= %d M warp instructions/s\n", arch, reps, TargetRate / 1000000);
	printf("  %-30s %-11s %12s %10s %10s %10s %9s\n", "workload", "kind", "warp instrs",
	       "seconds", "M winstr/s", "M thr/s", "peak RSS");
	for (size_t w = 0; w < sizeof works / sizeof works[0]; w++) {
		const Work *k = &works[w];
		char path[1024], rel[256];
		fiberDevice dev;
		fiberModule mod;
		fiberFunction fn;
		fiberStats s0, s1;
		fiberDevicePtr bufs[8];
		void *params[8];
		double t[MaxReps], rate;
		uint64_t wi = 0, ti = 0;
		size_t bytes;

		if (only && strcasecmp(only, k->kind))
			continue;
		snprintf(rel, sizeof rel, k->file, arch);
		snprintf(path, sizeof path, "%s/%s", root, rel);
		if (fiberDeviceCreate(&dev, arch == 80 ? "a100" : "h100") != FIBER_SUCCESS)
			bench_die(NULL, "device");
		if (fiberDeviceSetMode(dev, FIBER_MODE_FUNCTIONAL) != FIBER_SUCCESS)
			bench_die(dev, "functional mode");
		if (fiberModuleLoadFile(&mod, dev, path) != FIBER_SUCCESS)
			bench_die(dev, path);
		if (fiberModuleGetFunction(&fn, mod, k->kernel) != FIBER_SUCCESS)
			bench_die(dev, k->kernel);
		bytes = k->setup(dev, params, bufs);
		for (int r = 0; r < reps; r++) {
			double t0;

			fiberGetStats(dev, &s0);
			t0 = bench_now();
			if (fiberLaunchKernel(fn, k->grid, k->block, 0, params) != FIBER_SUCCESS)
				bench_die(dev, k->kernel);
			t[r] = bench_now() - t0;
			fiberGetStats(dev, &s1);
			wi = s1.warp_instructions - s0.warp_instructions;
			ti = s1.thread_instructions - s0.thread_instructions;
		}
		qsort(t, (size_t)reps, sizeof t[0], bench_cmpd);
		rate = wi / t[reps / 2];
		printf("  %-30s %-11s %12llu %10.4f %10.2f %10.1f %6ld MB   %s\n", k->name, k->kind,
		       (unsigned long long)wi, t[reps / 2], rate * 1e-6, ti / t[reps / 2] * 1e-6,
		       peak_rss_kb() / 1024, rate >= TargetRate ? "ok" : "BELOW TARGET");
		printf("  %-30s %-11s device memory %zu KB; peak RSS growth so far %ld KB\n", "", "",
		       bytes / 1024, peak_rss_kb() - rss0);
		below += rate < TargetRate;
		fiberDeviceDestroy(dev);
	}
	return strict && below ? 1 : 0;
}
