/* check_fibercuda.c: FIBER-native kernels written in CUDA C++ with fiber_device.cuh (issue 21,
 * docs/fiber-cuda.md). The committed PTX of examples/fiber-cuda (nvcc -ptx of the .cu beside it)
 * is compiled by fiberc --mode=fiber-native for sm_80 and sm_90 and run on a100-fiber and
 * h100-fiber, functional and timing, against CPU references: one kernel per intrinsic and the
 * worked example of the page; then the located errors of misuse, on PTX written here.
 */
#define _DEFAULT_SOURCE
#include "ptxrun.h"
#include "ref/ref.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *arch, *config; } tgt[] = {
	{ "sm_80", "a100-fiber" },
	{ "sm_90", "h100-fiber" },
};

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}

/* loop index i: target i / 2, functional (even) or timing (odd) */
static void
setup_run(PrRun *r, int i, unsigned block)
{
	memset(r, 0, sizeof *r);
	r->arch = tgt[i / 2].arch;
	r->config = tgt[i / 2].config;
	r->opts = "--mode=fiber-native";
	r->mode = i % 2 ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
	r->block[0] = block;
}

/* run kernel k of examples/fiber-cuda/FILE.ptx; fails the test on an error or a hazard */
static void
run_ok(const char *file, const char *k, PrRun *r, PrArg *a, unsigned n)
{
	char path[256];
	char *ptx;

	snprintf(path, sizeof path, "examples/fiber-cuda/%s.ptx", file);
	ptx = slurp(path);
	ck_assert_msg(pr_run(ptx, k, r, a, n) == 0, "%s %s on %s (%s): %s", file, k, r->config,
	              r->mode == FIBER_MODE_TIMING ? "timing" : "functional", r->err);
	ck_assert_msg(r->hazards == 0, "%s: %llu hazards", k, (unsigned long long)r->hazards);
	if (r->mode == FIBER_MODE_TIMING)
		ck_assert_uint_gt(r->cycles, 0);
	free(ptx);
}

static PrArg
buf(void *p, size_t n)
{
	return (PrArg){ .kind = PrBuf, .data = p, .bytes = n };
}

static PrArg
u32(uint32_t v)
{
	return (PrArg){ .kind = PrU32, .u = v };
}

START_TEST(set_count)
{
	uint32_t out[160];
	PrRun r;
	PrArg a[1] = { buf(out, sizeof out) };

	memset(out, 0xee, sizeof out);
	setup_run(&r, _i, 32);
	run_ok("intrinsics", "k_count", &r, a, 1);
	for (unsigned i = 0; i < 128; i++)
		ck_assert_msg(out[i] == 1000 * i + 128, "out[%u] = %u", i, out[i]);
	ck_assert_uint_eq(out[128], 32);
	ck_assert_uint_eq(out[129], 0xeeeeeeeeu);
}
END_TEST

START_TEST(set_count_window)
{
	uint32_t out[128];
	PrRun r;
	PrArg a[1] = { buf(out, sizeof out) };

	memset(out, 0xee, sizeof out);
	setup_run(&r, _i, 32);
	run_ok("intrinsics", "k_window", &r, a, 1);
	for (unsigned i = 0; i < 96; i++)
		ck_assert_msg(out[i] == 3 * i + i / 32, "out[%u] = %u", i, out[i]);
	ck_assert_uint_eq(out[96], 0xeeeeeeeeu);
}
END_TEST

START_TEST(set_count_runtime)
{
	uint32_t out[256];
	const uint32_t n = 200;
	PrRun r;
	PrArg a[2] = { buf(out, sizeof out), u32(n) };

	memset(out, 0xee, sizeof out);
	setup_run(&r, _i, 32);
	run_ok("intrinsics", "k_runtime_count", &r, a, 2);
	for (unsigned i = 0; i < n; i++)
		ck_assert_msg(out[i] == n, "out[%u] = %u", i, out[i]);
	ck_assert_uint_eq(out[n], 32);
	ck_assert_uint_eq(out[n + 1], 0xeeeeeeeeu);
}
END_TEST

/* weft 0 -> weft 1 through a slot, `rounds` times; the timing run of 8 rounds takes longer than
 * one of 1 (every round waits for the consumer's release) */
static uint64_t
sendrecv(int i, int rounds)
{
	uint32_t in[264], out[264];
	PrRun r;
	PrArg a[3] = { buf(in, sizeof in), buf(out, sizeof out), u32((uint32_t)rounds) };

	for (unsigned k = 0; k < 264; k++)
		in[k] = k * 7 + 3;
	memset(out, 0xee, sizeof out);
	setup_run(&r, i, 64);
	run_ok("intrinsics", "k_sendrecv", &r, a, 3);
	for (int k = 0; k < 32 * rounds; k++)
		ck_assert_msg(out[k] == 2 * in[k] + 1 + (uint32_t)(k / 32), "rounds %d: out[%d] = %u",
		              rounds, k, out[k]);
	ck_assert_uint_eq(out[32 * rounds], 0xeeeeeeeeu);
	return r.cycles;
}

START_TEST(send_recv)
{
	uint64_t one = sendrecv(_i, 1), eight = sendrecv(_i, 8);

	if (_i % 2)
		ck_assert_msg(eight > one, "8 rounds %llu cycles, 1 round %llu",
		              (unsigned long long)eight, (unsigned long long)one);
}
END_TEST

START_TEST(slot_peek)
{
	uint32_t out[128];
	PrRun r;
	PrArg a[1] = { buf(out, sizeof out) };

	setup_run(&r, _i, 128);
	run_ok("intrinsics", "k_slot_peek", &r, a, 1);
	for (unsigned i = 0; i < 128; i++)
		ck_assert_msg(out[i] == 100 * ((i / 32 + 1) % 4) + i % 32, "out[%u] = %u", i, out[i]);
}
END_TEST

START_TEST(pool)
{
	uint32_t in[128], out[128];
	PrRun r;
	PrArg a[2] = { buf(in, sizeof in), buf(out, sizeof out) };

	for (unsigned k = 0; k < 128; k++)
		in[k] = k * k + 11;
	setup_run(&r, _i, 128);
	run_ok("intrinsics", "k_pool", &r, a, 2);
	for (unsigned i = 0; i < 128; i++) {
		unsigned l = i % 32;
		ck_assert_msg(out[i] == in[l] + in[32 + l] + in[64 + l] + in[96 + l] + i,
		              "out[%u] = %u", i, out[i]);
	}
}
END_TEST

/* f16 bits of small integers (exact): 0..7 and their negatives */
static uint16_t
h16(int v)
{
	static const uint16_t pos[8] = { 0x0000, 0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600,
	                                 0x4700 };
	return v < 0 ? (uint16_t)(pos[-v] | 0x8000) : pos[v];
}

START_TEST(pool_mma)
{
	uint16_t A[64 * 16], Bt[8 * 16];
	int av[64 * 16], bv[8 * 16];
	float C[64 * 8];
	PrRun r;
	PrArg a[3] = { buf(A, sizeof A), buf(Bt, sizeof Bt), buf(C, sizeof C) };

	for (int k = 0; k < 64 * 16; k++)
		av[k] = (k * 5 + 1) % 15 - 7, A[k] = h16(av[k]);
	for (int k = 0; k < 8 * 16; k++)
		bv[k] = (k * 3 + 2) % 15 - 7, Bt[k] = h16(bv[k]);
	setup_run(&r, _i, 128);
	run_ok("intrinsics", "k_mma_pool", &r, a, 3);
	for (int m = 0; m < 64; m++)
		for (int n = 0; n < 8; n++) {
			int s = 0;
			for (int k = 0; k < 16; k++)
				s += av[m * 16 + k] * bv[n * 16 + k];
			ck_assert_msg(C[m * 8 + n] == (float)s, "C[%d][%d] = %g, want %d", m, n,
			              (double)C[m * 8 + n], s);
		}
}
END_TEST

/* the worked example of docs/fiber-cuda.md */
START_TEST(tour)
{
	enum { N = 512 };
	float x[N], y[32], z[N];
	PrRun r;
	PrArg a[4] = { buf(x, sizeof x), buf(y, sizeof y), buf(z, sizeof z), u32(N) };

	for (int k = 0; k < N; k++)
		x[k] = (float)((k * 37) % 101 - 50) * 0.03125f;
	setup_run(&r, _i, 64);
	run_ok("tour", "tour", &r, a, 4);
	for (int l = 0; l < 32; l++) {
		float s = 2.0f * x[l];
		ck_assert_msg(y[l] == s + x[32 + l], "y[%d] = %g", l, (double)y[l]);
	}
	for (int i = 0; i < N; i++)
		ck_assert_msg(z[i] == x[i] * x[32 + i % 32], "z[%d] = %g", i, (double)z[i]);
}
END_TEST

/* ---- the examples against nvcc's SIMT versions ---------------------------------------------
 * Loop index: example (i / 2: 0 the FFN tile, 1 the GEMM with a SiLU epilogue) and target (i % 2:
 * sm_80 a100 / a100-fiber, sm_90 h100 / h100-fiber). The SIMT version is nvcc's committed SASS,
 * the FIBER-native one fiberc's compile of the committed PTX; both run in timing mode against the
 * CPU reference, without hazards, and print their cycles ("fiber-cuda: ..." lines, which `make
 * fiber-cuda-demo` tabulates). The sizes: FIBERCUDA_GEMM=M,N,K (default 128,128,64) and
 * FIBERCUDA_GRID (the persistent GEMM's CTAs, default 2: two tiles each; `sm`: one per SM, at
 * most one per tile). */

static const struct { const char *sfx, *simt, *fiber; } ex_tgt[] = {
	{ "sm_80", "a100", "a100-fiber" },
	{ "sm_90", "h100", "h100-fiber" },
};

/* a listing's text, NULL-terminated (the test fails if it does not read) */
static char *
listing(const char *path)
{
	return slurp(path);
}

/* run sass (a listing's text) on config in timing mode; fails the test on an error or hazard */
static uint64_t
time_listing(const char *what, const char *sass, const char *k, const char *config,
             unsigned grid, unsigned block, PrArg *a, unsigned n)
{
	PrRun r = { .config = config, .mode = FIBER_MODE_TIMING, .grid = { grid }, .block = { block } };

	ck_assert_msg(pr_launch(sass, k, &r, a, n) == 0, "%s on %s: %s", what, config, r.err);
	ck_assert_msg(r.hazards == 0, "%s on %s: %llu hazards", what, config,
	              (unsigned long long)r.hazards);
	return r.cycles;
}

/* fiberc --mode=fiber-native of examples/fiber-cuda/FILE.ptx for arch, as a listing's text */
static char *
fiber_listing(const char *file, const char *arch)
{
	char path[256];
	char *ptx, *sass;
	PrRun r = { .arch = arch, .opts = "--mode=fiber-native" };

	snprintf(path, sizeof path, "examples/fiber-cuda/%s.ptx", file);
	ptx = slurp(path);
	sass = pr_compile(ptx, &r);
	ck_assert_msg(sass != NULL, "%s for %s: %s", path, arch, r.err);
	free(ptx);
	return sass;
}

static size_t
over_tol(const char *what, const double *got, const double *ref, const double *tol, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		if (!(fabs(got[i] - ref[i]) <= tol[i]) && bad++ < 4)
			fprintf(stderr, "fiber-cuda: %s [%zu] = %.9g, want %.9g (tol %.3g)\n", what, i,
			        got[i], ref[i], tol[i]);
	return bad;
}

static void
ffn_example(int t)
{
	enum { N2 = 1024, N = 2 * N2 };
	static uint16_t g[N], u[N], o[N];
	static double got[N], ref[N], tol[N];
	char path[256], what[64];
	uint64_t cyc[2];

	gen_f16(g, N, 401, -6.0, 6.0);
	gen_f16(u, N, 402, -2.0, 2.0);
	ref_silu_mul(g, u, ref, N);
	for (int i = 0; i < N; i++)
		tol[i] = 0x1p-20 * fabs(ref[i]) + 0.5 * f16_ulp(fabs(ref[i]) * (1 + 0x1p-20));
	for (int v = 0; v < 2; v++) {
		char *sass;
		PrArg a[4] = { buf(g, sizeof g), buf(u, sizeof u), buf(o, sizeof o), u32(N2) };
		memset(o, 0xff, sizeof o);
		if (v == 0) {
			snprintf(path, sizeof path, "examples/silu_ffn/silu_ffn.%s.sass", ex_tgt[t].sfx);
			sass = listing(path);
		} else {
			sass = fiber_listing("silu_ffn_fiber", ex_tgt[t].sfx);
		}
		snprintf(what, sizeof what, "silu_ffn %s %s", v ? "fiber" : "simt", ex_tgt[t].sfx);
		cyc[v] = time_listing(what, sass, "silu_mul_f16", v ? ex_tgt[t].fiber : ex_tgt[t].simt,
		                      4, v ? 64 : 256, a, 4);
		for (int i = 0; i < N; i++)
			got[i] = f16_to_double(o[i]);
		ck_assert_msg(over_tol(what, got, ref, tol, N) == 0, "%s: outputs outside the bound",
		              what);
		free(sass);
	}
	fprintf(stderr, "fiber-cuda: silu_ffn %s simt %s %llu fiber %s %llu\n", ex_tgt[t].sfx,
	        ex_tgt[t].simt, (unsigned long long)cyc[0], ex_tgt[t].fiber,
	        (unsigned long long)cyc[1]);
}

static void
gemm_example(int t)
{
	int m = 128, n = 128, k = 64, grid = 2;
	const char *e = getenv("FIBERCUDA_GEMM");
	uint16_t *a, *b;
	float *c;
	double *got, *ref, *cabs, *tol;
	char path[256], what[64];
	uint64_t cyc[2];

	if (e)
		ck_assert_int_eq(sscanf(e, "%d,%d,%d", &m, &n, &k), 3);
	if ((e = getenv("FIBERCUDA_GRID")) && !strcmp(e, "sm")) {
		/* one CTA per SM (at most one per tile): the persistent launch */
		fiberDevice dev;
		fiberDeviceProps pr;
		ck_assert(fiberDeviceCreate(&dev, ex_tgt[t].fiber) == FIBER_SUCCESS);
		ck_assert(fiberDeviceGetProperties(dev, &pr) == FIBER_SUCCESS);
		fiberDeviceDestroy(dev);
		grid = (m / 64) * (n / 64) < pr.sm_count ? (m / 64) * (n / 64) : pr.sm_count;
	} else if (e) {
		grid = atoi(e);
	}
	ck_assert(m > 0 && n > 0 && k > 0 && m % 64 == 0 && n % 64 == 0 && k % 32 == 0 && grid > 0);
	a = malloc((size_t)m * k * 2);
	b = malloc((size_t)k * n * 2);
	c = malloc((size_t)m * n * 4);
	got = malloc((size_t)m * n * sizeof *got);
	ref = malloc((size_t)m * n * sizeof *ref);
	cabs = malloc((size_t)m * n * sizeof *cabs);
	tol = malloc((size_t)m * n * sizeof *tol);
	gen_f16(a, (size_t)m * k, 601, -1.0, 1.0);
	gen_f16(b, (size_t)k * n, 602, -1.0, 1.0);
	ref_gemm(a, b, ref, cabs, m, n, k);
	/* check_fiber_kernels.c's bound for gemm_silu */
	for (int i = 0; i < m * n; i++) {
		double x = ref[i];
		ref[i] = x / (1.0 + exp(-x));
		tol[i] = 1.1 * k * 0x1p-22 * cabs[i] + 0x1p-19 * fabs(ref[i]) + 0x1p-40;
	}
	for (int v = 0; v < 2; v++) {
		char *sass;
		PrArg arg[6] = { buf(a, (size_t)m * k * 2), buf(b, (size_t)k * n * 2),
		                 buf(c, (size_t)m * n * 4), u32((uint32_t)m), u32((uint32_t)n),
		                 u32((uint32_t)k) };
		memset(c, 0xff, (size_t)m * n * 4);
		snprintf(what, sizeof what, "gemm_silu %s %s", v ? "fiber" : "simt", ex_tgt[t].sfx);
		if (v == 0) {
			PrRun r = { .config = ex_tgt[t].simt, .mode = FIBER_MODE_TIMING,
			            .grid = { (unsigned)(n / 64), (unsigned)(m / 64) }, .block = { 128 } };
			snprintf(path, sizeof path, "examples/fiber-cuda/gemm_silu_simt.%s.sass",
			         ex_tgt[t].sfx);
			sass = listing(path);
			ck_assert_msg(pr_launch(sass, "gemm_silu_simt", &r, arg, 6) == 0, "%s: %s", what,
			              r.err);
			ck_assert_uint_eq(r.hazards, 0);
			cyc[v] = r.cycles;
		} else {
			sass = fiber_listing("gemm_silu_fiber", ex_tgt[t].sfx);
			cyc[v] = time_listing(what, sass, "gemm_silu_fiber", ex_tgt[t].fiber,
			                      (unsigned)grid, 128, arg, 6);
		}
		for (int i = 0; i < m * n; i++)
			got[i] = c[i];
		ck_assert_msg(over_tol(what, got, ref, tol, (size_t)m * n) == 0,
		              "%s: outputs outside the bound", what);
		free(sass);
	}
	fprintf(stderr, "fiber-cuda: gemm_silu %s simt %s %llu fiber %s %llu (%dx%dx%d, %d CTAs)\n",
	        ex_tgt[t].sfx, ex_tgt[t].simt, (unsigned long long)cyc[0], ex_tgt[t].fiber,
	        (unsigned long long)cyc[1], m, n, k, grid);
	free(a), free(b), free(c), free(got), free(ref), free(cabs), free(tol);
}

START_TEST(examples)
{
	if (_i / 2 == 0)
		ffn_example(_i % 2);
	else
		gemm_example(_i % 2);
}
END_TEST

/* docs/fiber-cuda.md's worked example is tour.cu from its #include on */
START_TEST(doc_example)
{
	char *doc = slurp("docs/fiber-cuda.md"), *cu = slurp("examples/fiber-cuda/tour.cu");
	char *b = strstr(doc, "```cuda\n"), *e, *src = strstr(cu, "#include");

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(src);
	b += 8;
	ck_assert_ptr_nonnull(e = strstr(b, "```"));
	ck_assert_msg((size_t)(e - b) == strlen(src) && memcmp(b, src, strlen(src)) == 0,
	              "docs/fiber-cuda.md's listing differs from examples/fiber-cuda/tour.cu");
	free(doc);
	free(cu);
}
END_TEST

/* ---- misuse: located errors --------------------------------------------------------------- */

static const char head[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n{\n"
	".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n";

/* compile body with fiberc options opts; the error text must contain want (and a "k.ptx:LINE:"
 * location) */
static void
refused_opts(const char *opts, const char *body, const char *want)
{
	char ptx[4096];
	PrRun r = { .arch = "sm_80", .opts = opts };
	char *out;

	snprintf(ptx, sizeof ptx, "%s%s\nret;\n}\n", head, body);
	out = pr_compile(ptx, &r);
	ck_assert_msg(out == NULL, "accepted:\n%s", body);
	ck_assert_msg(strstr(r.err, want) != NULL, "error for\n%s\nis\n%s\nwant '%s'", body, r.err,
	              want);
	ck_assert_msg(strstr(r.err, "k.ptx:") != NULL, "not located on the PTX: %s", r.err);
}

static void
refused(const char *body, const char *want)
{
	refused_opts("--mode=fiber-native", body, want);
}

START_TEST(errors)
{
	refused("ld.param.u32 %r1, [k_p1];\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 setfibernum.u32 64;",
	        "a guarded 'setfibernum'");
	refused("ldpool.b32 %r1, 3, 0;", "unknown pool 3");
	refused_opts("", "setfibernum.u32 64;", "'setfibernum' is a FIBER instruction: compile with "
	             "--mode=fiber-native");
	refused_opts("--mode=cuda-native", "stslot.b32 1, 5;", "'stslot' is a FIBER instruction");
	refused("declpool 1, 4, 0;\nldpool.b32 %r1, 1, 4;", "a pool offset 4 is out of range");
	refused("declpool 1, 4, 0;\nwaitpool.full.b32 1, 2, 4;", "past pool 1's 4");
	refused("declpool 1, 4, 0;\ndeclpool 1, 2, 0;", "pool 1 is declared twice");
	refused("declpool 1, 4, 7;", "a pool's slice 7 is out of range");
	refused("ld.param.u32 %r1, [k_p1];\nldslot.b32 %r2, 0, %r1;",
	        "a weft number must be a constant");
	refused("setfibernum.u32 64;\nldslot.b32 %r2, 0, 5;", "weft 5's window moves");
	refused("waitslot.b32 0;", "needs exactly one of .full and .empty");
	refused("stslot.b32 64, 1;", "a slot number 64 is out of range");
	refused("setfibernum.u32 0;", "fiber count 0 is out of range");
	refused("setfibernum.u32 64, 300;", "window size 300 is out of range");
	refused("setfibernum.u32 9000;", "fiber count 9000 is out of range");
	refused("ld.param.u64 %rd1, [k_p0];\nmov.u32 %r1, %fiberid;\nsetfibernum.u32 64;\n"
	        "st.global.u32 [%rd1], %r1;", "'%r1' is computed before this setfibernum and read "
	        "after it, and its value depends on the fiber");
	/* divergence: a branch on a fiber-dependent predicate over a setfibernum or back across it;
	 * one on a uniform predicate (a parameter) is accepted */
	refused("mov.u32 %r1, %fiberid;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 bra $L1;\n"
	        "setfibernum.u32 64;\n$L1:", "setfibernum in code that may be divergent: the branch "
	        "at line 11 (on '%p1', which depends on the fiber) jumps over it");
	refused("$L0:\nsetfibernum.u32 64;\nmov.u32 %r1, %fiberid;\nsetp.lt.u32 %p1, %r1, 7;\n"
	        "@%p1 bra $L0;", "(on '%p1', which depends on the fiber) loops back across it");
	{
		char ptx[1024], *out;
		PrRun r = { .arch = "sm_80", .opts = "--mode=fiber-native" };
		snprintf(ptx, sizeof ptx, "%sld.param.u32 %%r1, [k_p1];\nsetp.eq.u32 %%p1, %%r1, 0;\n"
		         "@%%p1 bra $L1;\nsetfibernum.u32 64;\n$L1:\nret;\n}\n", head);
		ck_assert_msg((out = pr_compile(ptx, &r)) != NULL, "a uniform branch is refused: %s",
		              r.err);
		free(out);
	}
	/* nreg is a cap: the code after it names more (located in the lowered listing) */
	{
		char ptx[1024];
		PrRun r = { .arch = "sm_80", .opts = "--mode=fiber-native" };
		snprintf(ptx, sizeof ptx, "%ssetfibernum.u32 64, 2;\nld.param.u64 %%rd1, [k_p0];\n"
		         "mov.u32 %%r1, %%fiberid;\nmul.wide.u32 %%rd2, %%r1, 4;\n"
		         "add.s64 %%rd3, %%rd1, %%rd2;\nst.global.u32 [%%rd3], %%r1;\nret;\n}\n", head);
		ck_assert_ptr_null(pr_compile(ptx, &r));
		ck_assert_msg(strstr(r.err, "k.ptx.isel:") && strstr(r.err, "SETFIBERNUM's window of 2 "
		              "registers for the new wefts is too small: the code after it needs"),
		              "%s", r.err);
	}
	refused("mmapool.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, "
	        "{%r1,%r2,%r3,%r4}, 0, 0, {%r1,%r2,%r3,%r4};", "m16n8k16.row.col.f32.f16.f16.f32 only");
	/* a window that cannot fit: 2048 fibers (16 wefts a slice) of a large window */
	refused("declpool 0, 256, 0;\nsetfibernum.u32 8192;", "the windows cannot fit: 8192 fibers "
	        "are 64 wefts in slice 0, which with its pools' 256 registers leaves 4");
	refused("declpool 0, 256, 2;\nmaxfibers 8192;", "leaves 4 a weft");
	refused("declpool 0, 256, 2;\ndeclpool 1, 250, 2;", "the pools of slice 2 take 506");
}
END_TEST

Suite *
fibercuda_suite(void)
{
	Suite *s = suite_create("fibercuda");
	TCase *t = tcase_create("intrinsics");
	TCase *e = tcase_create("errors");

	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, set_count, 0, 4);
	tcase_add_loop_test(t, set_count_window, 0, 4);
	tcase_add_loop_test(t, set_count_runtime, 0, 4);
	tcase_add_loop_test(t, send_recv, 0, 4);
	tcase_add_loop_test(t, slot_peek, 0, 4);
	tcase_add_loop_test(t, pool, 0, 4);
	tcase_add_loop_test(t, pool_mma, 0, 4);
	tcase_add_loop_test(t, tour, 0, 4);
	tcase_add_loop_test(t, examples, 0, 4);
	suite_add_tcase(s, t);
	tcase_add_test(e, errors);
	tcase_add_test(e, doc_example);
	suite_add_tcase(s, e);
	return s;
}
