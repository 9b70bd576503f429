/* timebench.c: speed of the timing simulator, through the runtime library, on an a100 (or h100)
 * device: a tensor-core GEMM (examples/gemm_tc at 512^3), FlashAttention-2 forward
 * (examples/flash_attn, one head, seq 2048), a memory-bound float4 axpy (bench/stream.cu, 2 x
 * 16 MiB), the SiLU-gated product (examples/silu_ffn, 2^21 elements) and one FIBER-native kernel
 * on the FIBER configuration (examples/fiber-native/gemm_silu, C = silu(A B) at 2048 x 128 x 64).
 * For each it prints the median over REPS launches of simulated warp instructions and simulated
 * cycles per wall second on one host thread, the same with --threads N (and whether every
 * statistic is identical), the functional simulator's rate, then the targets of issue 24 (one
 * thread: median over the four SIMT workloads >= 5M warp instructions/s, none below 2.5M; N
 * threads >= 1.7x on attention and GEMM; functional >= 20M on attention and GEMM), the FIBER SM
 * model (a100-fiber / h100-fiber) against the SIMT model on the same kernels (within 1.2x), and
 * the error of the two sampling extrapolations against the full run.
 *
 *   timebench [-r REPS] [-t THREADS] [--root DIR] [--arch 80|90] [-k KIND]
 *   timebench --once timing|functional [-k KIND] [-t THREADS] [--config NAME]
 * --once: one launch of each selected workload and nothing else, its figures on one line (wall and
 * CPU seconds of the launch; for callgrind and perf, and scripts/timebench-ab.sh, which compares
 * two builds in one run).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "benchutil.h"
#include "fiber.h"

const char *bench_prog = "timebench";

enum {
	MaxReps = 101,
	TargetRate = 5000000,    /* warp instructions per second, timing mode, one core: median */
	MinRate = 2500000,       /* ... and the slowest SIMT workload */
	FuncRate = 20000000,     /* functional mode, attention and GEMM */
};
#define TargetSpeedup 1.7        /* N threads against one, attention and GEMM */
#define FiberRatio 1.2           /* the FIBER SM's wall time against the SIMT model's, at most */

typedef struct Work {
	const char *name;
	const char *kind;
	const char *file;        /* relative to the root, %d = architecture */
	const char *kernel;
	int fiber;               /* a FIBER-native listing: runs on the FIBER configuration */
	unsigned grid[3], block[3];
	size_t (*setup)(fiberDevice dev, void **params, fiberDevicePtr *bufs);
} Work;

static int32_t pi[4];
static float pf[2];

/* gemm_f16_tc(A, B, C, M, N, K), 512^3: 8 x 8 CTAs of 4 warps */
static size_t
setup_gemm(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t nab = 512 * 512 * 2, nc = 512 * 512 * 4;

	bufs[0] = bench_f16_buffer(dev, nab, 5);
	bufs[1] = bench_f16_buffer(dev, nab, 6);
	bufs[2] = bench_f16_buffer(dev, nc, 7);
	pi[0] = pi[1] = pi[2] = 512;
	for (int k = 0; k < 3; k++)
		params[k] = &bufs[k];
	params[3] = &pi[0];
	params[4] = &pi[1];
	params[5] = &pi[2];
	return 2 * nab + nc;
}

/* flash_attn_fwd(Q, K, V, O, seq, scale, causal), seq 2048: 32 CTAs of 4 warps */
static size_t
setup_attn(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t nqkv = 2048 * 64 * 2, no = 2048 * 64 * 4;

	bufs[0] = bench_f16_buffer(dev, nqkv, 11);
	bufs[1] = bench_f16_buffer(dev, nqkv, 12);
	bufs[2] = bench_f16_buffer(dev, nqkv, 13);
	bufs[3] = bench_f16_buffer(dev, no, 14);
	pi[0] = 2048;
	pf[0] = 0.125f;
	pi[1] = 0;
	for (int k = 0; k < 4; k++)
		params[k] = &bufs[k];
	params[4] = &pi[0];
	params[5] = &pf[0];
	params[6] = &pi[1];
	return 3 * nqkv + no;
}

/* stream_axpy(x, y, a, n4): 2^20 float4, 256 blocks of 256 threads */
static size_t
setup_stream(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t n = (size_t)16 << 20;

	bufs[0] = bench_f16_buffer(dev, n, 8);
	bufs[1] = bench_f16_buffer(dev, n, 9);
	pf[0] = 0.5f;
	pi[0] = 1 << 20;
	params[0] = &bufs[0];
	params[1] = &bufs[1];
	params[2] = &pf[0];
	params[3] = &pi[0];
	return 2 * n;
}

/* silu_mul_f16(gate, up, out, n2): 2^20 half2 pairs, 256 blocks of 256 threads */
static size_t
setup_silu(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t n = (size_t)4 << 20;

	for (int k = 0; k < 3; k++) {
		bufs[k] = bench_f16_buffer(dev, n, 2 + (uint32_t)k);
		params[k] = &bufs[k];
	}
	pi[0] = 1 << 20;
	params[3] = &pi[0];
	return 3 * n;
}

/* gemm_f16_tc(A, B, C, M, N, K) of examples/fiber-native/gemm_silu (written for N = 128,
 * K = 64; one CTA = 64 x 8 of C), M = 2048: 16 x 32 CTAs of 4 warps */
static size_t
setup_gemm_silu(fiberDevice dev, void **params, fiberDevicePtr *bufs)
{
	size_t na = 2048 * 64 * 2, nb = 64 * 128 * 2, nc = 2048 * 128 * 4;

	bufs[0] = bench_f16_buffer(dev, na, 15);
	bufs[1] = bench_f16_buffer(dev, nb, 16);
	bufs[2] = bench_f16_buffer(dev, nc, 17);
	pi[0] = 2048;
	pi[1] = 128;
	pi[2] = 64;
	for (int k = 0; k < 3; k++)
		params[k] = &bufs[k];
	params[3] = &pi[0];
	params[4] = &pi[1];
	params[5] = &pi[2];
	return na + nb + nc;
}

static const Work works[] = {
	{"gemm_f16_tc 512^3", "tensor", "examples/gemm_tc/gemm_tc.sm_%d.sass", "gemm_f16_tc", 0,
	 {8, 8, 1}, {128, 1, 1}, setup_gemm},
	{"flash_attn_fwd seq 2048", "attention", "examples/flash_attn/flash_attn.sm_%d.sass",
	 "flash_attn_fwd", 0, {32, 1, 1}, {128, 1, 1}, setup_attn},
	{"stream_axpy float4 x 2^20", "memory", "bench/stream.sm_%d.sass", "stream_axpy", 0,
	 {256, 1, 1}, {256, 1, 1}, setup_stream},
	{"silu_mul_f16 x 2^21", "elementwise", "examples/silu_ffn/silu_ffn.sm_%d.sass",
	 "silu_mul_f16", 0, {256, 1, 1}, {256, 1, 1}, setup_silu},
	{"gemm_silu FIBER 2048x128x64", "fiber", "examples/fiber-native/gemm_silu.sm_%d.fsass",
	 "gemm_f16_tc", 1, {16, 32, 1}, {128, 1, 1}, setup_gemm_silu},
};

enum { NWorks = sizeof works / sizeof works[0] };

typedef struct Meas {
	double sec;              /* median wall seconds */
	double cpu;              /* median CPU seconds of the process (every thread) during the
	                            launch: what the simulation cost, less the other jobs' share
	                            of a busy host than the wall time */
	uint64_t wi, cycles;     /* of the last launch */
} Meas;

/* the process's CPU time in seconds (all its threads) */
static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* REPS launches of w on a fresh device in the given mode; the median */
static const char *device_name;  /* the configuration of the next measure (NULL: a100, h100) */

static Meas
measure(const Work *w, const char *root, int arch, int reps, fiberSimMode mode, unsigned threads,
        unsigned sample_sms, unsigned sample_ctas)
{
	char path[1024], rel[256];
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr bufs[8];
	void *params[8];
	double t[MaxReps], cpu[MaxReps];
	fiberStats s0, s1;
	Meas m = {0};

	snprintf(rel, sizeof rel, w->file, arch);
	snprintf(path, sizeof path, "%s/%s", root, rel);
	if (fiberDeviceCreate(&dev, device_name ? device_name : w->fiber ? arch == 80 ?
	                      "a100-fiber" : "h100-fiber" : arch == 80 ? "a100" : "h100") !=
	    FIBER_SUCCESS)
		bench_die(NULL, "device");
	if (fiberDeviceSetMode(dev, mode) != FIBER_SUCCESS ||
	    fiberDeviceSetThreads(dev, threads) != FIBER_SUCCESS ||
	    fiberDeviceSetSampling(dev, sample_sms, sample_ctas) != FIBER_SUCCESS)
		bench_die(dev, "device settings");
	if (fiberModuleLoadFile(&mod, dev, path) != FIBER_SUCCESS)
		bench_die(dev, path);
	if (fiberModuleGetFunction(&fn, mod, w->kernel) != FIBER_SUCCESS)
		bench_die(dev, w->kernel);
	w->setup(dev, params, bufs);
	for (int r = 0; r < reps; r++) {
		double t0, c0;

		fiberGetStats(dev, &s0);
		c0 = cpu_now();
		t0 = bench_now();
		if (fiberLaunchKernel(fn, w->grid, w->block, 0, params) != FIBER_SUCCESS)
			bench_die(dev, w->kernel);
		t[r] = bench_now() - t0;
		cpu[r] = cpu_now() - c0;
		fiberGetStats(dev, &s1);
		m.wi = s1.warp_instructions - s0.warp_instructions;
		m.cycles = s1.cycles - s0.cycles;
	}
	qsort(t, (size_t)reps, sizeof t[0], bench_cmpd);
	m.sec = t[reps / 2];
	qsort(cpu, (size_t)reps, sizeof cpu[0], bench_cmpd);
	m.cpu = cpu[reps / 2];
	fiberDeviceDestroy(dev);
	return m;
}

static void
usage(void)
{
	fprintf(stderr, "usage: timebench [-r REPS] [-t THREADS] [--root DIR] [--arch 80|90] "
	        "[-k KIND]\n       timebench --once timing|functional [-k KIND] [-t THREADS] "
	        "[--config NAME] [--root DIR] [--arch 80|90]\n");
	exit(2);
}

/* --once: one launch of each selected workload in the given mode */
static int
run_once(const char *root, int arch, const char *only, fiberSimMode mode, unsigned threads)
{
	for (size_t k = 0; k < NWorks; k++) {
		const Work *w = &works[k];
		Meas m;

		if (only && strcasecmp(only, w->kind))
			continue;
		m = measure(w, root, arch, 1, mode, threads, 0, 0);
		printf("%-27s %-11s %10llu wi %9llu cycles %9.6f s %8.2f M wi/s %9.6f cpu\n", w->name,
		       w->kind, (unsigned long long)m.wi, (unsigned long long)m.cycles, m.sec,
		       m.wi / m.sec * 1e-6, m.cpu);
	}
	return 0;
}

static double
median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof v[0], bench_cmpd);
	return n ? v[n / 2] : 0;
}

static int
is_target_kind(const Work *w)
{
	return !strcmp(w->kind, "tensor") || !strcmp(w->kind, "attention");
}

/* each workload: one thread, N threads, functional; then issue 24's targets */
static void
main_table(const char *root, int arch, const char *only, int reps, unsigned threads)
{
	double rate[NWorks], low = 1e30;
	int n = 0, ok_thr = 1, ok_fn = 1;

	printf("timebench: timing simulator, %s (sm_%d; the FIBER-native kernel on %s-fiber), "
	       "median of %d launches\n", arch == 80 ? "a100" : "h100", arch,
	       arch == 80 ? "a100" : "h100", reps);
	printf("  %-27s %-11s %10s %9s %8s %9s %9s | %2u thr: %8s %7s %5s | func %8s\n",
	       "workload", "kind", "warp instr", "cycles", "sec", "M wi/s", "M cyc/s", threads,
	       "M wi/s", "speedup", "same", "M wi/s");
	for (size_t k = 0; k < NWorks; k++) {
		const Work *w = &works[k];
		Meas one, many, fn;
		double sp;

		if (only && strcasecmp(only, w->kind))
			continue;
		one = measure(w, root, arch, reps, FIBER_MODE_TIMING, 1, 0, 0);
		many = measure(w, root, arch, reps, FIBER_MODE_TIMING, threads, 0, 0);
		fn = measure(w, root, arch, reps, FIBER_MODE_FUNCTIONAL, 1, 0, 0);
		sp = one.sec / many.sec;
		printf("  %-27s %-11s %10llu %9llu %8.3f %9.2f %9.3f | %2u thr: %8.2f %6.2fx %5s | "
		       "func %8.2f\n", w->name, w->kind, (unsigned long long)one.wi,
		       (unsigned long long)one.cycles, one.sec, one.wi / one.sec * 1e-6,
		       one.cycles / one.sec * 1e-6, threads, many.wi / many.sec * 1e-6, sp,
		       one.cycles == many.cycles && one.wi == many.wi ? "yes" : "NO",
		       fn.wi / fn.sec * 1e-6);
		if (!w->fiber) {
			rate[n] = one.wi / one.sec;
			low = rate[n] < low ? rate[n] : low;
			n++;
		}
		if (is_target_kind(w)) {
			ok_thr &= sp >= TargetSpeedup;
			ok_fn &= fn.wi / fn.sec >= FuncRate;
		}
	}
	if (!n)
		return;
	printf("targets (issue 24): one thread, median over the SIMT workloads %.2f M wi/s (>= %.1f: "
	       "%s), slowest %.2f (>= %.1f: %s); %u threads >= %.1fx on attention and GEMM: %s; "
	       "functional >= %.0f M on attention and GEMM: %s\n", median_of(rate, n) * 1e-6,
	       TargetRate * 1e-6, median_of(rate, n) >= TargetRate ? "ok" : "BELOW TARGET",
	       low * 1e-6, MinRate * 1e-6, low >= MinRate ? "ok" : "BELOW TARGET", threads,
	       TargetSpeedup, ok_thr ? "ok" : "BELOW TARGET", FuncRate * 1e-6,
	       ok_fn ? "ok" : "BELOW TARGET");
}

/* the FIBER SM model (sm_model = fiber) on the SIMT kernels: these use no FIBER feature, so the
 * cycles must be the same; its wall time within FiberRatio of the SIMT model's */
static void
fiber_table(const char *root, int arch, const char *only, int reps)
{
	printf("\nFIBER model: %s-fiber against %s, one thread, median of %d; target FIBER time <= "
	       "%.1f x SIMT\n", arch == 80 ? "a100" : "h100", arch == 80 ? "a100" : "h100", reps,
	       FiberRatio);
	printf("  %-27s %10s %10s %10s %7s %5s\n", "workload", "SIMT M wi/s", "FIBER M wi/s",
	       "cycles", "ratio", "same");
	for (size_t k = 0; k < NWorks; k++) {
		const Work *w = &works[k];
		Meas simt, fib;

		if ((only && strcasecmp(only, w->kind)) || w->fiber)
			continue;
		device_name = NULL;
		simt = measure(w, root, arch, reps, FIBER_MODE_TIMING, 1, 0, 0);
		device_name = arch == 80 ? "a100-fiber" : "h100-fiber";
		fib = measure(w, root, arch, reps, FIBER_MODE_TIMING, 1, 0, 0);
		device_name = NULL;
		printf("  %-27s %11.2f %12.2f %10llu %6.2fx %5s  %s\n", w->name,
		       simt.wi / simt.sec * 1e-6, fib.wi / fib.sec * 1e-6,
		       (unsigned long long)fib.cycles, fib.sec / simt.sec,
		       fib.cycles == simt.cycles && fib.wi == simt.wi ? "yes" : "NO",
		       fib.sec <= FiberRatio * simt.sec ? "ok" : "BELOW TARGET");
	}
}

int
main(int argc, char **argv)
{
	const char *root = ".", *only = NULL, *once = NULL;
	int reps = 3, arch = 80;
	unsigned threads = 2;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			threads = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--arch") && i + 1 < argc)
			arch = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--once") && i + 1 < argc)
			once = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			device_name = argv[++i];
		else
			usage();
	}
	if (reps < 1 || reps > MaxReps || (arch != 80 && arch != 90) || threads < 1 ||
	    threads > 256)
		usage();
	if (once) {
		if (strcmp(once, "timing") && strcmp(once, "functional"))
			usage();
		return run_once(root, arch, only, strcmp(once, "timing") ? FIBER_MODE_FUNCTIONAL :
		                FIBER_MODE_TIMING, threads);
	}

	main_table(root, arch, only, reps, threads);
	fiber_table(root, arch, only, reps);
	printf("\nsampling: extrapolated cycles against the full run (timing mode, one thread)\n");
	printf("  %-26s %10s | %-22s %10s %7s | %-14s %10s %7s\n", "workload", "full", "first CTAs",
	       "cycles", "error", "SMs", "cycles", "error");
	for (size_t k = 0; k < NWorks; k++) {
		const Work *w = &works[k];
		unsigned nctas = w->grid[0] * w->grid[1] * w->grid[2];
		unsigned cut = nctas / 2 ? nctas / 2 : 1, sms = 16;
		Meas full, sc, ss;

		if ((only && strcasecmp(only, w->kind)) || w->fiber)
			continue;
		full = measure(w, root, arch, 1, FIBER_MODE_TIMING, threads, 0, 0);
		sc = measure(w, root, arch, 1, FIBER_MODE_TIMING, threads, 0, cut);
		ss = measure(w, root, arch, 1, FIBER_MODE_TIMING, threads, sms, 0);
		printf("  %-26s %10llu | %4u of %4u CTAs        %10llu %+6.1f%% | %3u SMs        %10llu "
		       "%+6.1f%%\n", w->name, (unsigned long long)full.cycles, cut, nctas,
		       (unsigned long long)sc.cycles, 100.0 * ((double)sc.cycles - full.cycles) /
		       full.cycles, sms, (unsigned long long)ss.cycles,
		       100.0 * ((double)ss.cycles - full.cycles) / full.cycles);
	}
	return 0;
}
