/* calibrate.c: the timing model against published microbenchmark results. For each row of a
 * table (examples/microbench/published.txt: configuration, benchmark, kernel, launch, arguments,
 * published value and its source) it runs the microbenchmark kernel of examples/microbench/ on a
 * device of that configuration in timing mode, checks the values the kernel computed, derives the
 * measurement the way the source paper did (clock64() differences in the kernel, or the launch's
 * cycles for bandwidth) and prints simulated | published | ratio | within target. A report: the
 * exit status is 0 however far off the values are, 1 on errors (bad table, load or launch
 * failure, a kernel that computed a wrong value), 2 on bad usage. docs/calibration.md says more.
 *
 *   calibrate [--root DIR] [--table FILE] [--config NAME] [--only ID] [--markdown] [--functional]
 * --functional: run in functional mode, where clocks count warp instructions: the latency rows
 * then show instructions per chain step (about 1 when the chain is unrolled as it should be) and
 * the bandwidth rows show nothing; every value check still runs.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"

enum {
	MaxRows = 256,
	MaxArgs = 8,
	MaxLine = 1024,
	MmaFlop = 2 * 16 * 8 * 16, /* FLOP of one m16n8k16 MMA */
	MmaAcc = 8,              /* mma.cu NACC: independent accumulators per warp of mma_tput */
	MaxWarps = 32,
};

typedef struct Row Row;
typedef struct Bench Bench;
typedef struct Result Result;

/* one measurement of the table */
struct Row {
	int line;                /* in the table file, for messages */
	char config[32];         /* a100, h100, b200 */
	char id[48];             /* lat.ffma, mem.l2, ... */
	char kernel[32];         /* symbol in examples/microbench/ */
	int arch;                /* listing: 80 or 90 */
	unsigned grid;           /* CTAs; with grid_per_sm, CTAs per SM */
	int grid_per_sm;
	unsigned block;          /* threads per CTA */
	int nargs;
	char key[MaxArgs][16];   /* kernel arguments, key=value */
	unsigned long long val[MaxArgs];
	int has_pub;             /* 0: no published value */
	double pub_lo, pub_hi;   /* published value, or range */
	char unit[16];           /* cycles, GB/s, FLOP/clk/SM */
	int bandwidth_class;     /* tolerance 15% (bandwidth) or 10% (latency) */
	char source[256];
};

/* a device of one configuration and what runs on it */
struct Bench {
	fiberDevice dev;
	fiberDeviceProps props;
	const char *root;
	int functional;
	fiberModule mod[7][2];   /* per listing file and architecture (80, 90) */
};

/* what a row measured */
struct Result {
	double value;            /* in the row's unit; NAN: not measurable in this mode */
	char note[96];           /* e.g. bytes per clock, ratio to conflict-free */
};

/* a kernel's listing and how to run it and read its measurement; 0 or -1 (message printed) */
typedef struct Handler {
	const char *kernel;
	int file;                /* index in files[] */
	int (*run)(Bench *b, fiberFunction fn, const Row *r, Result *res);
} Handler;

/* wgmma and dsmem (sm_90a code, their listings *.sm_90a.sass) run on rows of arch 90 */
static const char *const files[] = {"alu", "memory", "mma", "bandwidth", "mma_shapes", "wgmma",
                                    "dsmem"};

static const char *const configs[] = {"a100", "h100", "b200"};

static int
fail(const Row *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "calibrate: %s %s: ", r->config, r->id);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int
fiber_fail(Bench *b, const Row *r, const char *what)
{
	fiberFault f;

	if (fiberGetLastFault(b->dev, &f) == FIBER_SUCCESS && f.kind != FIBER_FAULT_NONE)
		return fail(r, "%s: %s", what, f.message);
	return fail(r, "%s: %s", what, fiberGetLastErrorMessage(b->dev));
}

/* the value of argument key; -1 and a message when the row lacks it */
static int
arg(const Row *r, const char *key, unsigned long long *v)
{
	*v = 0;
	for (int i = 0; i < r->nargs; i++)
		if (!strcmp(r->key[i], key)) {
			*v = r->val[i];
			return 0;
		}
	return fail(r, "line %d: argument %s= missing", r->line, key);
}

/* --- device memory and launches ---------------------------------------------------------- */

static int
alloc(Bench *b, const Row *r, fiberDevicePtr *p, size_t n)
{
	if (fiberMalloc(b->dev, p, n) != FIBER_SUCCESS || fiberMemset(b->dev, *p, 0, n) != FIBER_SUCCESS)
		return fiber_fail(b, r, "device memory");
	return 0;
}

static int
launch(Bench *b, fiberFunction fn, const Row *r, unsigned grid, void **params, uint64_t *cycles)
{
	unsigned g[3] = {grid, 1, 1}, blk[3] = {r->block, 1, 1};
	fiberStats s0, s1;

	fiberGetStats(b->dev, &s0);
	if (fiberLaunchKernel(fn, g, blk, 0, params) != FIBER_SUCCESS)
		return fiber_fail(b, r, r->kernel);
	fiberGetStats(b->dev, &s1);
	if (cycles)
		*cycles = s1.cycles - s0.cycles;
	return 0;
}

static unsigned
grid_of(const Bench *b, const Row *r)
{
	return r->grid_per_sm ? r->grid * (unsigned)b->props.sm_count : r->grid;
}

/* launch a kernel (long long *out, int iters, unsigned x, unsigned y) on one CTA and read back
 * n words of out */
static int
run_out_iters_xy(Bench *b, fiberFunction fn, const Row *r, long long *out, size_t n)
{
	unsigned long long iters, x, y;
	fiberDevicePtr d;
	int32_t it;
	uint32_t xv, yv;
	void *params[4];

	if (arg(r, "iters", &iters) || arg(r, "x", &x) || arg(r, "y", &y) || alloc(b, r, &d, n * 8))
		return -1;
	it = (int32_t)iters;
	xv = (uint32_t)x;
	yv = (uint32_t)y;
	params[0] = &d;
	params[1] = &it;
	params[2] = &xv;
	params[3] = &yv;
	if (launch(b, fn, r, grid_of(b, r), params, NULL) ||
	    fiberMemcpyDtoH(b->dev, out, d, n * 8) != FIBER_SUCCESS)
		return fiber_fail(b, r, "output");
	fiberFree(b->dev, d);
	return 0;
}

/* --- alu.cu: dependent chains ---------------------------------------------------------------- */

static float
f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t
u32(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static double
f16(uint32_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	return h & 0x8000 ? -v : v;
}

/* the chain's final value after both passes, computed on the host; 0: no host reference (an
 * approximate MUFU, fp16 arithmetic) */
static int
chain_expect(const char *k, uint32_t x, uint32_t y, long long steps, unsigned long long *want)
{
	if (!strcmp(k, "lat_int")) {
		for (long long i = 0; i < steps; i++)   /* steps / 2 pairs per pass, two passes */
			x = (x + y) ^ y;
		*want = x;
	} else if (!strcmp(k, "lat_imad")) {
		uint32_t x0 = x;
		for (long long i = 0; i < 2 * steps; i++)
			x = x * y + x0;
		*want = x;
	} else if (!strcmp(k, "lat_ffma")) {
		float a = f32(x), c = f32(y);
		for (long long i = 0; i < 2 * steps; i++)
			a = fmaf(a, c, 0.5f);
		*want = u32(a);
	} else if (!strcmp(k, "lat_dfma")) {
		double d = x, e = 1.0 / y;
		uint64_t u;
		for (long long i = 0; i < 2 * steps; i++)
			d = fma(d, e, 0.5);
		memcpy(&u, &d, 8);
		*want = u;
	} else if (!strcmp(k, "lat_cvt")) {
		int32_t n = (int32_t)x;
		for (long long i = 0; i < steps; i++)
			n = (int32_t)truncf((float)n);
		*want = (uint32_t)n;
	} else
		return 0;
	return 1;
}

static int
run_chain(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	long long out[3];
	unsigned long long x, y, want;

	if (run_out_iters_xy(b, fn, r, out, 3) || arg(r, "x", &x) || arg(r, "y", &y))
		return -1;
	if (out[2] <= 0)
		return fail(r, "the kernel recorded no chain instructions");
	if (chain_expect(r->kernel, (uint32_t)x, (uint32_t)y, out[2], &want) &&
	    (unsigned long long)out[1] != want)
		return fail(r, "wrong chain value 0x%llx, expected 0x%llx", (unsigned long long)out[1],
		            want);
	res->value = (double)out[0] / out[2];
	snprintf(res->note, sizeof res->note, "chain of %lld", out[2]);
	return 0;
}

/* --- memory.cu: pointer chase, shared memory ------------------------------------------------- */

/* a chain of 8-byte pointers at base: the word at offset o holds base + (o + stride) % footprint */
static int
run_chase(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long fp, stride, warm, steps;
	fiberDevicePtr buf, d;
	uint64_t *h, want;
	long long out[3];
	int32_t w, s;
	void *params[4];

	if (arg(r, "footprint", &fp) || arg(r, "stride", &stride) || arg(r, "warm", &warm) ||
	    arg(r, "steps", &steps))
		return -1;
	if (stride < 8 || stride % 8 || fp % stride || fp < stride || steps % 16 || !steps)
		return fail(r, "line %d: need stride a multiple of 8 dividing footprint, steps a "
		            "multiple of 16", r->line);
	if (alloc(b, r, &buf, fp) || alloc(b, r, &d, sizeof out))
		return -1;
	if (!(h = calloc(fp / 8, 8)))
		return fail(r, "out of memory");
	for (uint64_t o = 0; o < fp; o += stride)
		h[o / 8] = buf + (o + stride) % fp;
	if (fiberMemcpyHtoD(b->dev, buf, h, fp) != FIBER_SUCCESS) {
		free(h);
		return fiber_fail(b, r, "copy");
	}
	free(h);
	w = (int32_t)warm;
	s = (int32_t)steps;
	params[0] = &d;
	params[1] = &buf;
	params[2] = &w;
	params[3] = &s;
	if (launch(b, fn, r, 1, params, NULL) ||
	    fiberMemcpyDtoH(b->dev, out, d, sizeof out) != FIBER_SUCCESS)
		return fiber_fail(b, r, "output");
	fiberFree(b->dev, buf);
	fiberFree(b->dev, d);
	want = buf + (warm + steps) * stride % fp;
	if ((uint64_t)out[1] != want)
		return fail(r, "the chase ended at 0x%llx, expected 0x%llx", (unsigned long long)out[1],
		            (unsigned long long)want);
	res->value = (double)out[0] / steps;
	snprintf(res->note, sizeof res->note, "%llu loads, %llu KiB", steps, fp / 1024);
	return 0;
}

/* lds_chase(out, stride, n, steps) or smem_bank(out, stride, steps): cycles per load; out[1]
 * (the word index reached) is checked against want */
static int
run_smem(Bench *b, fiberFunction fn, const Row *r, unsigned long long stride, double *cycles)
{
	unsigned long long n = 0, steps, want;
	fiberDevicePtr d;
	long long out[3];
	int32_t a[3];
	void *params[4];
	int lds = !strcmp(r->kernel, "lds_chase");

	if (arg(r, "steps", &steps) || (lds && arg(r, "n", &n)))
		return -1;
	if (steps % 16 || !steps || (lds && (n < 1 || n > 4096)))
		return fail(r, "line %d: need steps a multiple of 16, 1 <= n <= 4096", r->line);
	if (alloc(b, r, &d, sizeof out))
		return -1;
	a[0] = (int32_t)stride;
	a[1] = lds ? (int32_t)n : (int32_t)steps;
	a[2] = (int32_t)steps;
	params[0] = &d;
	params[1] = &a[0];
	params[2] = &a[1];
	params[3] = &a[2];
	if (launch(b, fn, r, 1, params, NULL) ||
	    fiberMemcpyDtoH(b->dev, out, d, sizeof out) != FIBER_SUCCESS)
		return fiber_fail(b, r, "output");
	fiberFree(b->dev, d);
	/* lds_chase: 16 untimed loads and the timed ones; smem_bank: lane 0 loops on word 0 */
	want = lds ? (16 + steps) * stride % n : 0;
	if ((unsigned long long)out[1] != want)
		return fail(r, "the chase ended at word %lld, expected %llu", out[1], want);
	*cycles = (double)out[0] / steps;
	return 0;
}

static int
run_lds(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long stride;

	if (arg(r, "stride", &stride) || run_smem(b, fn, r, stride, &res->value))
		return -1;
	return 0;
}

/* smem_bank at the row's stride and at stride 1: cycles per warp load, and their ratio */
static int
run_bank(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long stride;
	double base;

	if (arg(r, "stride", &stride))
		return -1;
	if (stride < 1 || stride > 32 || (stride & (stride - 1)))
		return fail(r, "line %d: stride must be 1, 2, 4, 8, 16 or 32", r->line);
	if (run_smem(b, fn, r, stride, &res->value) || run_smem(b, fn, r, 1, &base))
		return -1;
	snprintf(res->note, sizeof res->note, "%llu-way; x%.2f of conflict-free", stride,
	         res->value / base);
	return 0;
}

/* dsmem_chase(out, stride, n, steps) on a cluster of 2 CTAs of one thread (dsmem.cu): cycles
 * per load of rank 0 through rank 1's shared memory; out[1] is checked as lds_chase's */
static int
run_dsmem(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long stride, n, steps, want;
	fiberLaunchConfig c;
	fiberDevicePtr d;
	long long out[3];
	int32_t a[3];
	void *params[4];

	if (arg(r, "stride", &stride) || arg(r, "n", &n) || arg(r, "steps", &steps))
		return -1;
	if (steps % 16 || !steps || n < 1 || n > 4096)
		return fail(r, "line %d: need steps a multiple of 16, 1 <= n <= 4096", r->line);
	if (alloc(b, r, &d, sizeof out))
		return -1;
	a[0] = (int32_t)stride;
	a[1] = (int32_t)n;
	a[2] = (int32_t)steps;
	params[0] = &d;
	params[1] = &a[0];
	params[2] = &a[1];
	params[3] = &a[2];
	memset(&c, 0, sizeof c);
	c.grid[0] = 2, c.grid[1] = c.grid[2] = 1;
	c.block[0] = c.block[1] = c.block[2] = 1;
	c.cluster[0] = 2, c.cluster[1] = c.cluster[2] = 1;
	if (fiberLaunchKernelEx(&c, fn, params) != FIBER_SUCCESS ||
	    fiberMemcpyDtoH(b->dev, out, d, sizeof out) != FIBER_SUCCESS)
		return fiber_fail(b, r, r->kernel);
	fiberFree(b->dev, d);
	want = (16 + steps) * stride % n;
	if ((unsigned long long)out[1] != want)
		return fail(r, "the chase ended at word %lld, expected %llu", out[1], want);
	res->value = (double)out[0] / steps;
	snprintf(res->note, sizeof res->note, "%llu remote loads", steps);
	return 0;
}

/* --- mma.cu ---------------------------------------------------------------------------------- */

/* an accumulator element after n MMAs of all-a A and all-b B (low halves of x and y) from 0 */
static uint32_t
mma_expect(unsigned long long x, unsigned long long y, long long n)
{
	float acc = 0, add = (float)(16 * f16(x & 0xffff) * f16(y & 0xffff));

	for (long long i = 0; i < n; i++)
		acc += add;
	return u32(acc);
}

static int
run_mma_lat(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	long long out[3];
	unsigned long long x, y;
	uint32_t want;

	if (run_out_iters_xy(b, fn, r, out, 3) || arg(r, "x", &x) || arg(r, "y", &y))
		return -1;
	if (out[2] <= 0)
		return fail(r, "the kernel recorded no MMAs");
	want = mma_expect(x, y, 2 * out[2]);
	if ((uint32_t)out[1] != want)
		return fail(r, "accumulator %g, expected %g", f32((uint32_t)out[1]), f32(want));
	res->value = (double)out[0] / out[2];
	snprintf(res->note, sizeof res->note, "chain of %lld HMMA", out[2]);
	return 0;
}

/* FLOP per cycle of one SM: every warp's MMAs over the first start to the last end */
static int
run_mma_tput(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	long long out[4 * MaxWarps], t0 = INT64_MAX, t1 = INT64_MIN, mmas = 0;
	unsigned long long x, y;
	unsigned warps = r->block / 32;

	if (grid_of(b, r) != 1 || r->block % 32 || !warps || warps > MaxWarps)
		return fail(r, "line %d: mma_tput runs one CTA of 32 to %d x 32 threads", r->line,
		            MaxWarps);
	if (run_out_iters_xy(b, fn, r, out, 4 * warps) || arg(r, "x", &x) || arg(r, "y", &y))
		return -1;
	for (unsigned w = 0; w < warps; w++) {
		long long *o = out + 4 * w;
		uint32_t want = mma_expect(x, y, 2 * o[3] / MmaAcc);

		if (o[2] >> 32)
			return fail(r, "warp %u: its accumulators disagree", w);
		if ((uint32_t)o[2] != want)
			return fail(r, "warp %u: accumulator %g, expected %g", w, f32((uint32_t)o[2]),
			            f32(want));
		t0 = o[0] < t0 ? o[0] : t0;
		t1 = o[1] > t1 ? o[1] : t1;
		mmas += o[3];
	}
	if (t1 <= t0)
		return fail(r, "no time passed");
	res->value = (double)mmas * MmaFlop / (double)(t1 - t0);
	snprintf(res->note, sizeof res->note, "%u warps, %lld HMMA", warps, mmas);
	return 0;
}

/* --- mma_shapes.cu: tput_<shape> ------------------------------------------------------------- */

/* FLOP (or OP) per cycle of one SM of one tensor-core shape: out[5w..5w+4] = start, end, every
 * accumulator right, its MMAs, FLOP of one MMA */
static int
run_mma_shape(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	long long out[5 * MaxWarps], t0 = INT64_MAX, t1 = INT64_MIN, mmas = 0, flop = 0;
	unsigned long long iters;
	unsigned warps = r->block / 32;
	fiberDevicePtr d;
	int32_t it;
	void *params[2];

	if (grid_of(b, r) != 1 || r->block % 32 || !warps || warps > MaxWarps)
		return fail(r, "line %d: %s runs one CTA of 32 to %d x 32 threads", r->line, r->kernel,
		            MaxWarps);
	if (arg(r, "iters", &iters) || alloc(b, r, &d, 5 * warps * 8))
		return -1;
	it = (int32_t)iters;
	params[0] = &d;
	params[1] = &it;
	if (launch(b, fn, r, 1, params, NULL) ||
	    fiberMemcpyDtoH(b->dev, out, d, 5 * warps * 8) != FIBER_SUCCESS)
		return fiber_fail(b, r, "output");
	fiberFree(b->dev, d);
	for (unsigned w = 0; w < warps; w++) {
		const long long *o = out + 5 * w;
		if (o[2] != 1)
			return fail(r, "warp %u: an accumulator element is wrong", w);
		if (o[3] != 2 * (long long)iters * 8 || o[4] <= 0 || (w && o[4] != flop))
			return fail(r, "warp %u: recorded %lld MMAs of %lld FLOP", w, o[3], o[4]);
		flop = o[4];
		t0 = o[0] < t0 ? o[0] : t0;
		t1 = o[1] > t1 ? o[1] : t1;
		mmas += o[3];
	}
	if (t1 <= t0)
		return fail(r, "no time passed");
	res->value = (double)mmas * (double)flop / (double)(t1 - t0);
	snprintf(res->note, sizeof res->note, "%u warps, %lld MMAs of %lld", warps, mmas, flop);
	return 0;
}

/* --- bandwidth.cu ---------------------------------------------------------------------------- */

/* bytes over cycles: GB/s at the configuration's clock, and bytes per clock in the note */
static int
bandwidth(Bench *b, const Row *r, double bytes, uint64_t cycles, Result *res)
{
	if (b->functional)
		return 0;
	if (!cycles)
		return fail(r, "the launch took no cycles: is the timing model there?");
	if (!b->props.clock_mhz)
		return fail(r, "the configuration has no clock (clock_mhz)");
	res->value = bytes / cycles * b->props.clock_mhz / 1000.0;
	snprintf(res->note, sizeof res->note, "%.0f B/clk", bytes / cycles);
	return 0;
}

/* copy_f4(dst, src, n4): bytes=N per buffer; read + write counted */
static int
run_copy(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long bytes;
	fiberDevicePtr src, dst;
	float *h, *g;
	int32_t n4;
	uint64_t cycles;
	void *params[3];
	int bad;

	if (arg(r, "bytes", &bytes))
		return -1;
	if (!bytes || bytes % 16 || bytes / 16 > INT32_MAX)
		return fail(r, "line %d: bytes must be a multiple of 16 below 32 GiB", r->line);
	if (!(h = malloc(bytes)) || !(g = malloc(bytes))) {
		free(h);
		return fail(r, "out of memory");
	}
	for (size_t i = 0; i < bytes / 4; i++)
		h[i] = (float)(i % 65521);
	if (alloc(b, r, &src, bytes) || alloc(b, r, &dst, bytes) ||
	    fiberMemcpyHtoD(b->dev, src, h, bytes) != FIBER_SUCCESS) {
		free(h);
		free(g);
		return fiber_fail(b, r, "input");
	}
	n4 = (int32_t)(bytes / 16);
	params[0] = &dst;
	params[1] = &src;
	params[2] = &n4;
	bad = launch(b, fn, r, grid_of(b, r), params, &cycles) ||
	      fiberMemcpyDtoH(b->dev, g, dst, bytes) != FIBER_SUCCESS;
	bad = bad ? fiber_fail(b, r, "output") : memcmp(h, g, bytes) ? fail(r, "dst != src") : 0;
	free(h);
	free(g);
	fiberFree(b->dev, src);
	fiberFree(b->dev, dst);
	return bad ? -1 : bandwidth(b, r, 2.0 * bytes, cycles, res);
}

/* read_f4(out, src, n4, passes) over bytes=N of 1.0f; the sum of out[] must be passes x N / 4 */
static int
read_launch(Bench *b, fiberFunction fn, const Row *r, fiberDevicePtr src, int32_t n4,
            int32_t passes, uint64_t *cycles)
{
	unsigned grid = grid_of(b, r);
	size_t nt = (size_t)grid * r->block;
	fiberDevicePtr out;
	float *h;
	double sum = 0;
	void *params[4];

	if (alloc(b, r, &out, nt * 4))
		return -1;
	params[0] = &out;
	params[1] = &src;
	params[2] = &n4;
	params[3] = &passes;
	if (!(h = malloc(nt * 4)))
		return fail(r, "out of memory");
	if (launch(b, fn, r, grid, params, cycles) ||
	    fiberMemcpyDtoH(b->dev, h, out, nt * 4) != FIBER_SUCCESS) {
		free(h);
		return fiber_fail(b, r, "output");
	}
	for (size_t i = 0; i < nt; i++)
		sum += h[i];
	free(h);
	fiberFree(b->dev, out);
	if (sum != 4.0 * n4 * passes)
		return fail(r, "sum %.0f, expected %.0f", sum, 4.0 * n4 * passes);
	return 0;
}

/* passes=1: one cold pass, DRAM bandwidth; passes=P > 1: L2 bandwidth, (P - 1) x bytes over the
 * cycles a P-pass launch takes beyond a 1-pass one */
static int
run_read(Bench *b, fiberFunction fn, const Row *r, Result *res)
{
	unsigned long long bytes, passes;
	fiberDevicePtr src;
	uint64_t c1, cp = 0;
	float *h;
	int32_t n4;

	if (arg(r, "bytes", &bytes) || arg(r, "passes", &passes))
		return -1;
	if (!bytes || bytes % 16 || bytes / 16 > INT32_MAX || !passes || passes > 64)
		return fail(r, "line %d: bytes a multiple of 16, 1 <= passes <= 64", r->line);
	if (!(h = malloc(bytes)))
		return fail(r, "out of memory");
	for (size_t i = 0; i < bytes / 4; i++)
		h[i] = 1.0f;
	if (alloc(b, r, &src, bytes) || fiberMemcpyHtoD(b->dev, src, h, bytes) != FIBER_SUCCESS) {
		free(h);
		return fiber_fail(b, r, "input");
	}
	free(h);
	n4 = (int32_t)(bytes / 16);
	if (read_launch(b, fn, r, src, n4, 1, &c1) ||
	    (passes > 1 && read_launch(b, fn, r, src, n4, (int32_t)passes, &cp)))
		return -1;
	fiberFree(b->dev, src);
	if (passes == 1)
		return bandwidth(b, r, (double)bytes, c1, res);
	if (!b->functional && cp <= c1)
		return fail(r, "%llu passes took %llu cycles, not more than one pass (%llu)", passes,
		            (unsigned long long)cp, (unsigned long long)c1);
	return bandwidth(b, r, (double)(passes - 1) * bytes, cp - c1, res);
}

static const Handler handlers[] = {
	{"lat_int", 0, run_chain}, {"lat_imad", 0, run_chain}, {"lat_ffma", 0, run_chain},
	{"lat_hfma2", 0, run_chain}, {"lat_dfma", 0, run_chain}, {"lat_mufu", 0, run_chain},
	{"lat_cvt", 0, run_chain},
	{"chase_ca", 1, run_chase}, {"chase_cg", 1, run_chase},
	{"lds_chase", 1, run_lds}, {"smem_bank", 1, run_bank},
	{"mma_lat", 2, run_mma_lat}, {"mma_tput", 2, run_mma_tput},
	{"copy_f4", 3, run_copy}, {"read_f4", 3, run_read},
	{"dsmem_chase", 6, run_dsmem},
};

/* every tput_<shape> of mma_shapes.cu, every tputwg_<type> of wgmma.cu (the same record) */
static const Handler shape_handler = {"tput_", 4, run_mma_shape};
static const Handler wgmma_handler = {"tputwg_", 5, run_mma_shape};

static const Handler *
handler(const char *kernel)
{
	if (!strncmp(kernel, "tputwg_", 7))
		return &wgmma_handler;
	if (!strncmp(kernel, "tput_", 5))
		return &shape_handler;
	for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
		if (!strcmp(handlers[i].kernel, kernel))
			return &handlers[i];
	return NULL;
}

static int
known_config(const char *name)
{
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
		if (!strcmp(configs[c], name))
			return 1;
	return 0;
}

/* --- the table ------------------------------------------------------------------------------ */

/* the next |-separated field of *s, blanks trimmed */
static char *
field(char **s)
{
	char *f = *s, *e;

	if (!f)
		return NULL;
	if ((e = strchr(f, '|'))) {
		*e = 0;
		*s = e + 1;
	} else
		*s = NULL;
	while (isspace((unsigned char)*f))
		f++;
	for (e = f + strlen(f); e > f && isspace((unsigned char)e[-1]); e--)
		e[-1] = 0;
	return f;
}

static int
bad_row(const char *path, int line, const char *what)
{
	fprintf(stderr, "calibrate: %s:%d: %s\n", path, line, what);
	return -1;
}

/* config | id | kernel | arch | grid | block | args | published | unit | class | source */
static int
parse_row(char *s, const char *path, int line, Row *r)
{
	char *f[11], *a, *tok, *end;

	memset(r, 0, sizeof *r);
	r->line = line;
	for (int i = 0; i < 11; i++)
		if (!(f[i] = field(&s)))
			return bad_row(path, line, "expected 11 fields separated by |");
	if (s)
		return bad_row(path, line, "more than 11 fields");
	if (strlen(f[0]) >= sizeof r->config || strlen(f[1]) >= sizeof r->id ||
	    strlen(f[2]) >= sizeof r->kernel || strlen(f[8]) >= sizeof r->unit ||
	    strlen(f[10]) >= sizeof r->source)
		return bad_row(path, line, "a field is too long");
	strcpy(r->config, f[0]);
	if (!known_config(r->config))
		return bad_row(path, line, "configuration must be a100, h100 or b200");
	strcpy(r->id, f[1]);
	strcpy(r->kernel, f[2]);
	if (!handler(r->kernel))
		return bad_row(path, line, "unknown kernel");
	r->arch = (int)strtol(f[3], &end, 10);
	if (*end || (r->arch != 80 && r->arch != 90))
		return bad_row(path, line, "arch must be 80 or 90");
	r->grid = (unsigned)strtoul(f[4], &end, 10);
	r->grid_per_sm = !strcmp(end, "sm");
	if (!r->grid || (*end && !r->grid_per_sm))
		return bad_row(path, line, "grid must be N or Nsm (N per SM)");
	r->block = (unsigned)strtoul(f[5], &end, 10);
	if (!r->block || *end || r->block > 1024)
		return bad_row(path, line, "block must be 1 to 1024");
	for (a = f[6]; (tok = strtok(a, " ")); a = NULL) {
		char *eq = strchr(tok, '=');

		if (r->nargs == MaxArgs || !eq || eq == tok || eq - tok >= 16)
			return bad_row(path, line, "arguments are key=value, at most 8");
		*eq = 0;
		strcpy(r->key[r->nargs], tok);
		r->val[r->nargs] = strtoull(eq + 1, &end, 0);
		if (!eq[1] || *end)
			return bad_row(path, line, "an argument value is not a number");
		r->nargs++;
	}
	if (strcmp(f[7], "-")) {
		r->has_pub = 1;
		r->pub_lo = r->pub_hi = strtod(f[7], &end);
		if (*end == '-')
			r->pub_hi = strtod(end + 1, &end);
		if (*end || end == f[7] || r->pub_lo <= 0 || r->pub_hi < r->pub_lo)
			return bad_row(path, line, "published value must be V, LO-HI or -");
	}
	strcpy(r->unit, f[8]);
	if (strcmp(f[9], "latency") && strcmp(f[9], "bandwidth"))
		return bad_row(path, line, "class must be latency or bandwidth");
	r->bandwidth_class = !strcmp(f[9], "bandwidth");
	strcpy(r->source, f[10]);
	return 0;
}

static int
read_table(const char *path, Row *rows, int *n)
{
	char line[MaxLine];
	FILE *f = fopen(path, "r");
	int ln = 0, bad = 0;

	if (!f) {
		fprintf(stderr, "calibrate: cannot open %s\n", path);
		return -1;
	}
	*n = 0;
	while (fgets(line, sizeof line, f)) {
		char *s = line;

		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			bad = bad_row(path, ln, "line too long");
			break;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		if (*n == MaxRows) {
			bad = bad_row(path, ln, "too many rows");
			break;
		}
		if (parse_row(s, path, ln, &rows[*n]))
			bad = -1;
		else
			(*n)++;
	}
	fclose(f);
	return bad;
}

/* --- the report ------------------------------------------------------------------------------ */

static void
print_header(int markdown)
{
	if (markdown) {
		printf("| benchmark | config | simulated | published | ratio | within target? | source |\n");
		printf("|---|---|---|---|---|---|---|\n");
	} else
		printf("%-16s %-6s %-44s %-24s %-6s %-8s %s\n", "benchmark", "config", "simulated",
		       "published", "ratio", "target", "source");
}

static void
print_row(const Row *r, const Result *res, int ok, int functional, int markdown)
{
	char sim[192], pub[64], ratio[32], within[32];
	double tol = r->bandwidth_class ? 0.15 : 0.10, mid = (r->pub_lo + r->pub_hi) / 2;
	int measured = ok && !isnan(res->value);

	if (!ok)
		snprintf(sim, sizeof sim, "ERROR");
	else if (!measured)
		snprintf(sim, sizeof sim, "n/a (functional mode)");
	else
		snprintf(sim, sizeof sim, "%.*f %s%s%s%s", res->value < 100 ? 2 : 0, res->value,
		         functional && !strcmp(r->unit, "cycles") ? "instrs" : r->unit,
		         *res->note ? " (" : "", res->note, *res->note ? ")" : "");
	if (!r->has_pub)
		snprintf(pub, sizeof pub, "no published value");
	else if (r->pub_lo == r->pub_hi)
		snprintf(pub, sizeof pub, "%g %s", r->pub_lo, r->unit);
	else
		snprintf(pub, sizeof pub, "%g-%g %s", r->pub_lo, r->pub_hi, r->unit);
	snprintf(ratio, sizeof ratio, "-");
	snprintf(within, sizeof within, "-");
	if (r->has_pub && measured && !functional) {
		snprintf(ratio, sizeof ratio, "%.2f", res->value / mid);
		snprintf(within, sizeof within, "%s (%d%%)",
		         res->value >= r->pub_lo * (1 - tol) && res->value <= r->pub_hi * (1 + tol)
		         ? "yes" : "NO", (int)(tol * 100));
	}
	if (markdown)
		printf("| %s | %s | %s | %s | %s | %s | %s |\n", r->id, r->config, sim, pub, ratio,
		       within, r->source);
	else
		printf("%-16s %-6s %-44s %-24s %-6s %-8s %s\n", r->id, r->config, sim, pub, ratio,
		       within, r->source);
}

/* the kernel of a row, its listing loaded once per device */
static int
function_of(Bench *b, const Row *r, fiberFunction *fn)
{
	const Handler *h = handler(r->kernel);
	fiberModule *m = &b->mod[h->file][r->arch == 90];
	char path[2048];

	if (!*m) {
		snprintf(path, sizeof path, "%s/examples/microbench/%s.sm_%d%s.sass", b->root,
		         files[h->file], r->arch, h->file >= 5 ? "a" : "");
		if (fiberModuleLoadFile(m, b->dev, path) != FIBER_SUCCESS) {
			fprintf(stderr, "calibrate: %s: %s\n%s", path, fiberGetLastErrorMessage(b->dev),
			        fiberGetLastErrorLog(b->dev));
			*m = NULL;
			return -1;
		}
	}
	if (fiberModuleGetFunction(fn, *m, r->kernel) != FIBER_SUCCESS)
		return fail(r, "%s", fiberGetLastErrorMessage(b->dev));
	return 0;
}

/* every row of one configuration on a fresh device (none if no row is selected); the number of
 * rows that failed, -1 when the device could not be made */
static int
run_config(const char *config, const Row *rows, int n, const char *only, const char *root,
           int functional, int markdown)
{
	Bench b = {.root = root, .functional = functional};
	int failed = 0, any = 0;

	for (int i = 0; i < n; i++)
		any |= !strcmp(rows[i].config, config) && (!only || !strcmp(rows[i].id, only));
	if (!any)
		return 0;
	if (fiberDeviceCreate(&b.dev, config) != FIBER_SUCCESS) {
		fprintf(stderr, "calibrate: configuration %s: %s\n", config,
		        fiberGetLastErrorMessage(NULL));
		return -1;
	}
	if (fiberDeviceSetMode(b.dev, functional ? FIBER_MODE_FUNCTIONAL : FIBER_MODE_TIMING) !=
	    FIBER_SUCCESS || fiberDeviceGetProperties(b.dev, &b.props) != FIBER_SUCCESS) {
		fprintf(stderr, "calibrate: %s: %s\n", config, fiberGetLastErrorMessage(b.dev));
		fiberDeviceDestroy(b.dev);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const Row *r = &rows[i];
		Result res = {.value = NAN};
		fiberFunction fn;
		int ok;

		if (strcmp(r->config, config) || (only && strcmp(r->id, only)))
			continue;
		ok = !function_of(&b, r, &fn) && !handler(r->kernel)->run(&b, fn, r, &res);
		failed += !ok;
		print_row(r, &res, ok, functional, markdown);
		fflush(stdout);
	}
	fiberDeviceDestroy(b.dev);
	return failed;
}

static void
usage(void)
{
	fprintf(stderr, "usage: calibrate [--root DIR] [--table FILE] [--config NAME] [--only ID] "
	        "[--markdown] [--functional]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *root = ".", *table = NULL, *config = NULL, *only = NULL;
	char tpath[2048];
	static Row rows[MaxRows];
	int n, markdown = 0, functional = 0, errors = 0, matched = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root = argv[++i];
		else if (!strcmp(argv[i], "--table") && i + 1 < argc)
			table = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--markdown"))
			markdown = 1;
		else if (!strcmp(argv[i], "--functional"))
			functional = 1;
		else
			usage();
	}
	if (!table) {
		snprintf(tpath, sizeof tpath, "%s/examples/microbench/published.txt", root);
		table = tpath;
	}
	if (read_table(table, rows, &n))
		return 1;
	for (int i = 0; i < n; i++)
		matched += (!config || !strcmp(rows[i].config, config)) &&
		           (!only || !strcmp(rows[i].id, only));
	if (!matched) {
		fprintf(stderr, "calibrate: no row of %s matches%s%s%s%s\n", table,
		        config ? " --config " : "", config ? config : "", only ? " --only " : "",
		        only ? only : "");
		return 1;
	}
	if (functional)
		printf("functional mode: clocks count warp instructions; values are checked, nothing is "
		       "compared\n");
	print_header(markdown);
	for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
		int k;

		if (config && strcmp(config, configs[c]))
			continue;
		k = run_config(configs[c], rows, n, only, root, functional, markdown);
		errors += k < 0 ? 1 : k;
	}
	return errors ? 1 : 0;
}
