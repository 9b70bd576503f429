/* fa3_demo.c: `make hopper-demo`'s attention entry (examples/hopper/fa3.mk): fa3_fwd.cu (TMA
 * producer warpgroup, two wgmma consumer warpgroups, setmaxnreg; nvcc 13 sm_90a) and the paper
 * table's mma.sync FlashAttention-2-class attn_fwd (examples/paper, sm_90) on the same inputs,
 * each in functional and timing mode, every output element against a double-precision CPU
 * reference; prints cycles, warp instructions and hazards. Then fa3_fwd on the b200
 * configuration, reporting what the simulator answers.
 *
 *   fa3_demo [--root DIR] [--heads H] [--kv-heads G] [--seq S] [--swizzle none|128]
 *            [--corrupt] [--only fa3] [--functional] [--stats DIR] [--listing FILE]
 * --stats writes each h100 timing run's statistics to DIR/hopper-fa3.json and
 * DIR/hopper-attn-mmasync.json (for `fibersim compare`); --listing runs fa3_fwd from FILE (a
 * fiberc compile of its PTX) instead of nvcc's listing.
 * --swizzle none encodes the maps without the swizzle the kernel's descriptors name (a mutant:
 * the check must fail); --corrupt changes one reference element (the check must fail).
 * Exit 0 when every output checked equals its reference within 4e-4 + 4e-3 |ref|.
 */
#include "fiber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HeadDim = 128 };

/* one run's inputs and the reference */
typedef struct Problem {
	int heads, kvh, seq;    /* query heads, KV heads, sequence length (queries = keys) */
	float scale;            /* 1 / sqrt(HeadDim) */
	uint16_t *q, *k, *v;    /* fp16 inputs, [heads or kvh][seq][HeadDim] */
	double *ref;            /* [heads][seq][HeadDim] */
} Problem;

static const char *root = ".", *statsdir, *listing;
static int swizzle = FIBER_TENSOR_MAP_SWIZZLE_128B;
static int failed;

static float
h2f(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) :
	          ldexpf((float)(m | 1024), e - 25);
	return h >> 15 ? -v : v;
}

/* binary16 of f in [-2, 2], to nearest (ties away: inputs only) */
static uint16_t
f2h(float f)
{
	uint16_t s = f < 0 ? 0x8000 : 0;
	float a = fabsf(f);
	int e;

	if (a < ldexpf(1, -14))
		return (uint16_t)(s | (uint16_t)lrintf(a * ldexpf(1, 24)));
	frexpf(a, &e);                           /* a = x 2^e, x in [0.5, 1) */
	int m = (int)lrintf(ldexpf(a, 11 - e));  /* 11 significant bits */
	if (m == 2048) {
		m = 1024;
		e++;
	}
	return (uint16_t)(s | (uint16_t)((e + 14) << 10) | (uint16_t)(m - 1024));
}

static void
fill(uint16_t *v, size_t n, uint32_t seed, float lo, float hi)
{
	uint32_t s = seed;
	for (size_t k = 0; k < n; k++) {
		s = s * 1664525u + 1013904223u;
		v[k] = f2h(lo + (hi - lo) * (float)(s >> 8) / (float)(1 << 24));
	}
}

/* the reference: softmax(scale Q K^T) V in double for every row */
static void
reference(Problem *p)
{
	int group = p->heads / p->kvh;
	double *s = malloc(sizeof *s * (size_t)p->seq);

	for (int h = 0; h < p->heads && s; h++)
		for (int i = 0; i < p->seq; i++) {
			const uint16_t *q = p->q + ((size_t)h * p->seq + i) * HeadDim;
			const size_t kv = (size_t)(h / group) * p->seq * HeadDim;
			double mx = -INFINITY, sum = 0, *out = p->ref + ((size_t)h * p->seq + i) * HeadDim;
			for (int j = 0; j < p->seq; j++) {
				double d = 0;
				for (int c = 0; c < HeadDim; c++)
					d += (double)h2f(q[c]) * h2f(p->k[kv + (size_t)j * HeadDim + c]);
				s[j] = d * p->scale;
				mx = fmax(mx, s[j]);
			}
			for (int c = 0; c < HeadDim; c++)
				out[c] = 0;
			for (int j = 0; j < p->seq; j++) {
				s[j] = exp(s[j] - mx);
				sum += s[j];
				for (int c = 0; c < HeadDim; c++)
					out[c] += s[j] * h2f(p->v[kv + (size_t)j * HeadDim + c]);
			}
			for (int c = 0; c < HeadDim; c++)
				out[c] /= sum;
		}
	free(s);
}

static int
must(fiberStatus st, fiberDevice d, const char *what)
{
	if (st == FIBER_SUCCESS)
		return 0;
	printf("  %s: %s\n", what, fiberGetLastErrorMessage(d));
	return -1;
}

/* an fp16 map over rows x 128 at a: box 64 x 128, the swizzle asked for */
static int
map_rows(fiberTensorMap *m, fiberDevicePtr a, int rows)
{
	uint64_t dim[2] = {HeadDim, (uint64_t)rows}, stride[1] = {HeadDim * 2};
	uint32_t box[2] = {64, 128}, es[2] = {1, 1};

	return must(fiberTensorMapEncodeTiled(m, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, a, dim, stride,
	                                      box, es, 0, swizzle, 0, 0), NULL, "tensor map");
}

/* run the kernel (fa3: fa3_fwd, else attn_fwd) on arch in mode; checks and prints one line */
static void
run(const Problem *p, int fa3, const char *arch, int timed)
{
	char path[1200];
	const char *file = fa3 ? "examples/hopper/fa3_fwd.sm_90a.sass" :
	                   "examples/paper/attn_fwd.sm_90.sass";
	fiberDevice d;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr dq, dk, dv, dout;
	fiberTensorMap tq, tk, tv;
	fiberStats st;
	size_t nq = (size_t)p->heads * p->seq * HeadDim, nkv = (size_t)p->kvh * p->seq * HeadDim;
	uint16_t *o = malloc(nq * 2);
	int group = p->heads / p->kvh, causal = 0, seq = p->seq;
	float scale = p->scale;
	unsigned grid[3] = {(unsigned)(p->seq / 128), (unsigned)p->heads, 1};
	unsigned block[3] = {fa3 ? 384u : 256u, 1, 1};
	void *pa[8] = {&dq, &dk, &dv, &dout, &seq, &group, &scale, &causal};
	void *pf[7] = {&tq, &tk, &tv, &dout, &seq, &group, &scale};
	size_t bad = 0;
	double worst = 0;

	printf("  %-28s %-4s %-10s ", fa3 ? "fa3_fwd (TMA + wgmma)" : "attn_fwd (mma.sync, FA2)", arch,
	       timed ? "timing" : "functional");
	if (fa3 && listing)
		snprintf(path, sizeof path, "%s", listing);
	else
		snprintf(path, sizeof path, "%s/%s", root, file);
	if (!o || must(fiberDeviceCreate(&d, arch), NULL, arch)) {
		failed = 1;
		free(o);
		return;
	}
	fiberDeviceSetMode(d, timed ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
	if (must(fiberModuleLoadFile(&mod, d, path), d, "load") ||
	    must(fiberModuleGetFunction(&fn, mod, fa3 ? "fa3_fwd" : "attn_fwd"), d, "kernel") ||
	    must(fiberMalloc(d, &dq, nq * 2), d, "malloc") ||
	    must(fiberMalloc(d, &dk, nkv * 2), d, "malloc") ||
	    must(fiberMalloc(d, &dv, nkv * 2), d, "malloc") ||
	    must(fiberMalloc(d, &dout, nq * 2), d, "malloc") ||
	    must(fiberMemcpyHtoD(d, dq, p->q, nq * 2), d, "copy") ||
	    must(fiberMemcpyHtoD(d, dk, p->k, nkv * 2), d, "copy") ||
	    must(fiberMemcpyHtoD(d, dv, p->v, nkv * 2), d, "copy") ||
	    must(fiberMemset(d, dout, 0xff, nq * 2), d, "memset") ||
	    (fa3 && (map_rows(&tq, dq, p->heads * p->seq) || map_rows(&tk, dk, p->kvh * p->seq) ||
	             map_rows(&tv, dv, p->kvh * p->seq))) ||
	    must(fiberLaunchKernel(fn, grid, block, fa3 ? 164864 : 98304, fa3 ? pf : pa), d, "launch") ||
	    must(fiberMemcpyDtoH(d, o, dout, nq * 2), d, "copy")) {
		failed = 1;
		fiberDeviceDestroy(d);
		free(o);
		return;
	}
	for (size_t k = 0; k < nq; k++) {
		double err = fabs((double)h2f(o[k]) - p->ref[k]) / (4e-4 + 4e-3 * fabs(p->ref[k]));
		bad += !(err <= 1);
		if (!(err <= worst))
			worst = err;
	}
	fiberGetStats(d, &st);
	if (timed && statsdir && !strcmp(arch, "h100")) {
		snprintf(path, sizeof path, "%s/%s", statsdir, fa3 ? "hopper-fa3.json" :
		         "hopper-attn-mmasync.json");
		fiberWriteStatsJSON(d, path);
	}
	if (timed)
		printf("%8llu cycles, %8llu warp instructions, %llu hazards, ",
		       (unsigned long long)st.cycles, (unsigned long long)st.warp_instructions,
		       (unsigned long long)st.hazards);
	else
		printf("%8llu warp instructions, ", (unsigned long long)st.warp_instructions);
	printf("%s (worst %.3g of the tolerance)\n", bad ? "DIFFERS from the CPU reference" :
	       "equals the CPU reference", worst);
	failed |= bad != 0 || (timed && st.hazards);
	fiberDeviceDestroy(d);
	free(o);
}

int
main(int argc, char **argv)
{
	Problem p = {2, 2, 512, 0, NULL, NULL, NULL, NULL};
	int corrupt = 0, only_fa3 = 0, functional_only = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
		if (!strcmp(a, "--corrupt"))
			corrupt = 1;
		else if (!strcmp(a, "--functional"))
			functional_only = 1;
		else if (!strcmp(a, "--only") && !strcmp(v, "fa3") && ++i)
			only_fa3 = 1;
		else if (!strcmp(a, "--listing") && ++i)
			listing = v;
		else if (!strcmp(a, "--stats") && ++i)
			statsdir = v;
		else if (!strcmp(a, "--root") && ++i)
			root = v;
		else if (!strcmp(a, "--heads") && ++i)
			p.heads = atoi(v);
		else if (!strcmp(a, "--kv-heads") && ++i)
			p.kvh = atoi(v);
		else if (!strcmp(a, "--seq") && ++i)
			p.seq = atoi(v);
		else if (!strcmp(a, "--swizzle") && ++i)
			swizzle = !strcmp(v, "none") ? FIBER_TENSOR_MAP_SWIZZLE_NONE :
			          FIBER_TENSOR_MAP_SWIZZLE_128B;
		else {
			fprintf(stderr, "fa3_demo: bad argument '%s'\n", a);
			return 2;
		}
	}
	if (p.heads < 1 || p.kvh < 1 || p.heads % p.kvh || p.seq < 128 || p.seq % 128 ||
	    p.seq > 16384 || p.heads > 64) {
		fprintf(stderr, "fa3_demo: heads a multiple of kv-heads, seq a multiple of 128\n");
		return 2;
	}
	size_t nq = (size_t)p.heads * p.seq * HeadDim, nkv = (size_t)p.kvh * p.seq * HeadDim;
	p.scale = 1.0f / sqrtf((float)HeadDim);
	p.q = malloc(nq * 2);
	p.k = malloc(nkv * 2);
	p.v = malloc(nkv * 2);
	p.ref = malloc(nq * sizeof *p.ref);
	if (!p.q || !p.k || !p.v || !p.ref)
		return 1;
	fill(p.q, nq, 11, -2, 2);
	fill(p.k, nkv, 12, -2, 2);
	fill(p.v, nkv, 13, -1, 1);
	reference(&p);
	if (corrupt)
		p.ref[nq / 2] += 0.01;
	printf("== attention forward, %d query heads, %d KV heads, seq %d, head dim 128, fp16 "
	       "(grid %d x %d)\n", p.heads, p.kvh, p.seq, p.seq / 128, p.heads);
	for (int timed = 0; timed < 2 - functional_only; timed++) {
		run(&p, 1, "h100", timed);
		if (!only_fa3)
			run(&p, 0, "h100", timed);
	}
	if (!only_fa3) {
		int keep = failed;
		printf("== fa3_fwd (sm_90a) on the b200 configuration:\n");
		run(&p, 1, "b200", 0);
		run(&p, 1, "b200", 1);
		failed = keep;               /* reported, not required (docs/hopper-examples.md) */
	}
	free(p.q);
	free(p.k);
	free(p.v);
	free(p.ref);
	return failed;
}
