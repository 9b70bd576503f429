/* check_phases.c: the phases and fiber-regs passes (passes/fiber/phases.c, fibernum.c, fiberregs.c)
 * on real nvcc listings, through the same pipeline as fiberc --mode=cuda-native (cfg, ssa,
 * verify, liveness, phases, fiber-regs, out-of-ssa):
 *   - examples/bias_silu (a block-stride loop, bound 4096, 128 threads): split 16x, one
 *     SETFIBERNUM at the entry, .maxfibers 2048, two registers more;
 *   - every other example kernel: nothing inserted, every phase has a reason;
 *   - loops split behind a run-time guard (silu_mul_f16 on sm_90 and k_param, k_grid of
 *     tests/ir/pass-phases-guard.lst with --fiber-runtime, k_ldg without it; the guard runs in
 *     tests/check_phaseguard.c);
 *   - end to end (with the simulator): the input on a100/h100 and the output on
 *     a100-fiber/h100-fiber give bit-identical buffers, within the CPU reference's tolerance,
 *     no hazards, and the output is not more than 2% slower (it is several times faster); also
 *     with 96 threads (a partial last weft) and a 64 x 2 block.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "frontend.h"
#include "ir.h"
#include "passes.h"
#include "fpasses.h"
#include "ref/ref.h"

Suite *phases_suite(void);

static const Pass p_cfg = {"cfg", "", 0, pass_cfg};
static const Pass p_ssa = {"ssa", "", PNeedCfg | PMakeSsa, pass_ssa};
static const Pass p_verify = {"verify", "", PNeedCfg, pass_verify};
static const Pass p_live = {"liveness", "", PNeedCfg, pass_liveness};
static const Pass p_phases = {"phases", "", PNeedCfg | PNeedSsa | PChanges, pass_phases};
static const Pass p_regs = {"fiber-regs", "", PNeedCfg, pass_fiber_regs};
static const Pass p_out = {"out-of-ssa", "", PNeedSsa | PLeaveSsa | PChanges, pass_outssa};

static int runtime;   /* fiberc --fiber-runtime for the next compile */
static int grid_hint = 4;  /* fiberc --fiber-grid for the next compile */

typedef struct Comp {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
} Comp;

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");

	return r ? r : ".";
}

/* the listing at path (relative to the repository) through the passes of list */
static void
compile_with(Comp *c, const char *rel, const Pass *const *list, int nlist)
{
	PassOpts o;
	char path[512];

	memset(c, 0, sizeof *c);
	snprintf(path, sizeof path, "%s/%s", root(), rel);
	c->errf = open_memstream(&c->err, &c->nerr);
	diag_init(&c->d, NULL, c->errf);
	c->src = src_read(path, &c->d);
	ck_assert_msg(c->src != NULL, "cannot read %s", path);
	c->d.src = c->src;
	c->m = sass_parse(c->src, &c->d);
	fflush(c->errf);
	ck_assert_msg(c->m != NULL, "%s: parse failed: %s", rel, c->err ? c->err : "");
	memset(&o, 0, sizeof o);
	o.make_ssa = ssa_build;
	for (uint32_t k = 0; k < c->m->nfn; k++) {
		Fn *f = c->m->fn[k];
		FPlan *p = fplan_new(f, FModeCuda);
		p->grid = grid_hint;   /* 4: the examples' launches, at most 8 CTAs */
		p->runtime = runtime;
		ck_assert_msg(pass_run(f, (const Pass **)list, nlist, &o, &c->d) == 0,
		              "%s: %s: %s", rel, mstr(c->m, f->name), (fflush(c->errf), c->err));
	}
}

/* the listing through the cuda-native pipeline */
static void
compile(Comp *c, const char *rel)
{
	static const Pass *const list[] = {&p_cfg, &p_ssa, &p_verify, &p_live, &p_phases, &p_regs,
	                                   &p_out};

	compile_with(c, rel, list, (int)(sizeof list / sizeof list[0]));
}

static void
comp_free(Comp *c)
{
	module_free(c->m);
	src_free(c->src);
	fclose(c->errf);
	free(c->err);
}

static int
count_op(const Fn *f, int op)
{
	int n = 0;

	for (uint32_t k = 0; k < f->nins; k++)
		n += f->ins[k].op == op;
	return n;
}

static void
check_split(const char *rel, int regs_in)
{
	Comp c;
	Fn *f;
	FPlan *p;
	int split = 0;

	compile(&c, rel);
	f = module_fn(c.m, "bias_silu_f32");
	ck_assert_ptr_nonnull(f);
	p = f->plan;
	ck_assert_int_eq(p->setfibernum, 1);
	ck_assert_int_eq(p->maxfibers, 2048);             /* 16 x __launch_bounds__(128) */
	ck_assert_int_eq(f->info.maxfibers, 2048);
	ck_assert_int_eq(f->info.regcount, regs_in + 2);  /* j*S and (m-1)*S */
	ck_assert_int_eq(p->window, regs_in + 2);
	ck_assert_int_eq(count_op(f, OSETFIBERNUM), 1);
	ck_assert_int_eq(f->ins[6].op, OSETFIBERNUM);     /* after the count's 6 uniform ops */
	ck_assert_int_eq((int)f->ins[6].opnd[1].imm, regs_in + 2);
	ck_assert_int_eq(f->ins[6].nenc, 0);              /* inserted: no encoding words */
	ck_assert_int_eq(count_op(f, OEXIT), 3);          /* the copies' guard in the preheader */
	for (uint32_t k = 0; k < p->nphase; k++) {
		if (!p->phase[k].why) {
			split++;
			ck_assert_int_eq(p->phase[k].fibers, 2048);
			ck_assert_int_eq(p->phase[k].in_loop, 1);
			ck_assert_int_eq(p->phase[k].kind, PhVector);
		} else
			ck_assert_int_eq(p->phase[k].fibers, 0);
	}
	ck_assert_int_eq(split, 1);
	comp_free(&c);
}

START_TEST(split_bias_silu_sm80)
{
	check_split("examples/bias_silu/bias_silu.sm_80.sass", 16);
}
END_TEST

START_TEST(split_bias_silu_sm90)
{
	check_split("examples/bias_silu/bias_silu.sm_90.sass", 18);
}
END_TEST

/* the examples whose loops cannot be split (or need not be): nothing is inserted and every
 * phase says why */
START_TEST(examples_left_alone)
{
	static const char *const ex[] = {"softmax", "rmsnorm", "rope", "silu_ffn", "gemm_tc",
	                                 "flash_attn", "w4a16_gemv", "flash_decoding"};
	static const char *const arch[] = {"sm_80", "sm_90"};

	for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++)
		for (int a = 0; a < 2; a++) {
			char rel[256];
			Comp c;
			snprintf(rel, sizeof rel, "examples/%s/%s.%s.sass", ex[e], ex[e], arch[a]);
			compile(&c, rel);
			for (uint32_t k = 0; k < c.m->nfn; k++) {
				Fn *f = c.m->fn[k];
				if (!f->plan || !f->info.is_entry)
					continue;
				ck_assert_msg(f->plan->setfibernum == 0, "%s: %s split", rel,
				              mstr(c.m, f->name));
				ck_assert_int_eq(count_op(f, OSETFIBERNUM), 0);
				ck_assert_msg(f->plan->nphase > 0, "%s: no phases", rel);
				for (uint32_t h = 0; h < f->plan->nphase; h++)
					ck_assert_msg(f->plan->phase[h].why != 0, "%s: %s phase %u has no reason",
					              rel, mstr(c.m, f->name), h);
			}
			comp_free(&c);
		}
}
END_TEST

/* the phases pass on FIBER-native listings, without the liveness pass before it: it computes
 * the pressure itself from the R units, and the V registers these listings name (not in the
 * liveness sets) are left out (they once indexed past the sets: an ASan report in SAN=1) */
START_TEST(fiber_native_pressure)
{
	static const char *const ex[] = {"gemm_pool_b", "gemm_shared_b", "gemm_silu",
	                                 "silu_mul_fiber", "silu_mul_fwd"};
	static const Pass *const list[] = {&p_cfg, &p_ssa, &p_phases};

	for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
		char rel[256];
		Comp c;
		int entries = 0;
		snprintf(rel, sizeof rel, "examples/fiber-native/%s.sm_80.fsass", ex[e]);
		compile_with(&c, rel, list, (int)(sizeof list / sizeof list[0]));
		for (uint32_t k = 0; k < c.m->nfn; k++) {
			Fn *f = c.m->fn[k];
			if (!f->info.is_entry)
				continue;
			entries++;
			ck_assert_msg(f->plan && f->plan->nphase > 0, "%s: no phases", rel);
		}
		ck_assert_int_gt(entries, 0);
		comp_free(&c);
	}
}
END_TEST

/* the loops of tests/ir/pass-phases-alone.lst, each left alone for its own reason */
START_TEST(reasons)
{
	static const struct { const char *fn, *why; } want[] = {
		{"k_scan", "loop-carried value R8"},
		{"k_lds", "LDS in the loop"},
		{"k_tidz", "SR_TID.Z read"},
		{"k_after", "code after the loop"},
		{"k_break", "an EXIT inside the loop"},
		{"k_scatter", "not affine"},
		{"k_few", "trip count too small"},
		{"k_bar", "barrier BAR"},
		{"k_shfl", "warp-collective SHFL"},
		{"k_overlap", "overlap"},
	};
	Comp c;

	compile(&c, "tests/ir/pass-phases-alone.lst");
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		Fn *f = module_fn(c.m, want[k].fn);
		int found = 0;
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(f->plan->setfibernum, 0);
		ck_assert_int_eq(f->info.regcount, 16);
		for (uint32_t h = 0; h < f->plan->nphase; h++) {
			const char *why = mstr(c.m, f->plan->phase[h].why);
			ck_assert_int_ne(f->plan->phase[h].why, 0);
			if (f->plan->phase[h].in_loop) {
				ck_assert_msg(strstr(why, want[k].why) != NULL, "%s: '%s', want '%s'",
				              want[k].fn, why, want[k].why);
				found = 1;
			}
		}
		ck_assert(found);
	}
	comp_free(&c);
}
END_TEST

/* loops the compiler cannot decide alone, split behind a run-time guard whose conditions the
 * phase's decision names: a parameter bound (k_param, silu_mul_f16 on sm_90), a grid-stride
 * loop (k_grid), both only with --fiber-runtime (left alone without it: the first test below),
 * loads of writable memory (k_ldg, adamw: versioned on their pointer ranges, each once) */
START_TEST(guarded)
{
	static const struct { const char *rel, *fn, *why; } want[] = {
		{"tests/ir/pass-phases-guard.lst", "k_param", "N >= (2m+1)*stride"},
		{"tests/ir/pass-phases-guard.lst", "k_grid", "N >= (2m+1)*stride"},
		{"tests/ir/pass-phases-guard.lst", "k_ldg", "2 pointer ranges disjoint"},
		{"examples/silu_ffn/silu_ffn.sm_90.sass", "silu_mul_f16", "N >= (2m+1)*stride"},
		{"examples/llm_train/llm_train.sm_80.sass", "adamw", "4 pointer ranges disjoint"},
	};

	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		Comp c;
		Fn *f;
		int found = 0;
		runtime = k != 2;   /* k_ldg's trip count is known: split without --fiber-runtime */
		compile(&c, want[k].rel);
		runtime = 0;
		f = module_fn(c.m, want[k].fn);
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(f->plan->setfibernum, 1);
		ck_assert_int_eq(count_op(f, OSETFIBERNUM), 1);
		ck_assert_int_ge(count_op(f, OUSEL), 2);   /* the guard's count and (m-1)*S */
		/* adamw's 7 accesses are 4 ranges: each of their 6 pairs checked once (a USEL each;
		 * every pair of accesses made 12) */
		if (!strcmp(want[k].fn, "adamw"))
			ck_assert_int_eq(count_op(f, OUSEL), 6 + 2);
		for (uint32_t h = 0; h < f->plan->nphase; h++)
			if (f->plan->phase[h].fibers) {
				const char *why = mstr(c.m, f->plan->phase[h].why);
				ck_assert_msg(strstr(why, "run-time guard") && strstr(why, want[k].why),
				              "%s: '%s', want '%s'", want[k].fn, why, want[k].why);
				/* --fiber-grid=4 was given: no grid condition at run time */
				ck_assert_msg(!strstr(why, "grid <="), "%s: '%s'", want[k].fn, why);
				found++;
			}
		ck_assert_int_eq(found, 1);
		comp_free(&c);
	}
}
END_TEST

#include "fiber.h"

enum { Rows = 4, Hidden = 4096, N = Rows * Hidden };

/* one run of bias_silu_f32 (grid 4, block bx x by) in timing mode: y, cycles, hazards */
static void
run(const char *config, const void *text, size_t len, const char *path, const float *x,
    const float *b, float *y, uint64_t *cycles, uint64_t *hazards, unsigned bx, unsigned by)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr dx, db, dy;
	fiberStats st;
	unsigned grid[3] = {Rows, 1, 1}, block[3] = {bx, by, 1};
	void *params[] = {&dx, &db, &dy};
	fiberStatus s;

	ck_assert(fiberDeviceCreate(&dev, config) == FIBER_SUCCESS);
	s = text ? fiberModuleLoadData(&mod, dev, text, len, "bias_silu.fsass")
	         : fiberModuleLoadFile(&mod, dev, path);
	ck_assert_msg(s == FIBER_SUCCESS, "%s: load: %s\n%.2000s", config,
	              fiberGetLastErrorMessage(dev), fiberGetLastErrorLog(dev));
	ck_assert(fiberModuleGetFunction(&fn, mod, "bias_silu_f32") == FIBER_SUCCESS);
	ck_assert(fiberMalloc(dev, &dx, N * 4) == FIBER_SUCCESS);
	ck_assert(fiberMalloc(dev, &db, Hidden * 4) == FIBER_SUCCESS);
	ck_assert(fiberMalloc(dev, &dy, N * 4) == FIBER_SUCCESS);
	ck_assert(fiberMemcpyHtoD(dev, dx, x, N * 4) == FIBER_SUCCESS);
	ck_assert(fiberMemcpyHtoD(dev, db, b, Hidden * 4) == FIBER_SUCCESS);
	ck_assert(fiberMemset(dev, dy, 0xff, N * 4) == FIBER_SUCCESS);
	s = fiberLaunchKernel(fn, grid, block, 0, params);
	ck_assert_msg(s == FIBER_SUCCESS, "%s: launch: %s", config, fiberGetLastErrorMessage(dev));
	ck_assert(fiberMemcpyDtoH(dev, y, dy, N * 4) == FIBER_SUCCESS);
	ck_assert(fiberGetStats(dev, &st) == FIBER_SUCCESS);
	*cycles = st.cycles;
	*hazards = st.hazards;
	fiberDeviceDestroy(dev);
}

static void
end_to_end(const char *rel, const char *simt, const char *fib, unsigned bx, unsigned by)
{
	float *x = malloc(N * sizeof *x), *b = malloc(Hidden * sizeof *b);
	float *y0 = malloc(N * sizeof *y0), *y1 = malloc(N * sizeof *y1);
	double *ref = malloc(N * sizeof *ref);
	uint64_t c0, c1, h0, h1;
	char path[512], *text = NULL;
	size_t len = 0, bad = 0;
	FILE *mem;
	Comp c;

	gen_f32(x, N, 0x5107, -8.0, 8.0);
	gen_f32(b, Hidden, 0xb1a5, -1.0, 1.0);
	ref_bias_silu(x, b, ref, Rows, Hidden);
	compile(&c, rel);
	mem = open_memstream(&text, &len);
	ck_assert_int_eq(emit_sass(mem, c.m, NULL, &c.d), 0);
	fclose(mem);
	snprintf(path, sizeof path, "%s/%s", root(), rel);
	run(simt, NULL, 0, path, x, b, y0, &c0, &h0, bx, by);
	run(fib, text, len, NULL, x, b, y1, &c1, &h1, bx, by);
	ck_assert_msg(memcmp(y0, y1, N * sizeof *y0) == 0, "%s: %s and %s outputs differ", rel,
	              simt, fib);
	for (size_t i = 0; i < N; i++)
		if (!(fabs(y1[i] - ref[i]) <= 1e-5 * fabs(ref[i]) + 1e-6) && bad++ < 4)
			fprintf(stderr, "phases: %s [%zu] = %.9g, want %.9g\n", rel, i, y1[i], ref[i]);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(h1, 0);
	/* never more than 2% slower; the split makes it several times faster */
	ck_assert_msg(c1 * 100 <= c0 * 102, "%s: %llu cycles on %s, %llu on %s", rel,
	              (unsigned long long)c1, fib, (unsigned long long)c0, simt);
	ck_assert_msg(c1 * 2 < c0, "%s: %llu cycles on %s, %llu on %s: no gain", rel,
	              (unsigned long long)c1, fib, (unsigned long long)c0, simt);
	free(text);
	comp_free(&c);
	free(x), free(b), free(y0), free(y1), free(ref);
}

START_TEST(end_to_end_a100)
{
	end_to_end("examples/bias_silu/bias_silu.sm_80.sass", "a100", "a100-fiber", 128, 1);
}
END_TEST

/* 96 threads: the last launched weft is partial, the copies' fibers start inside it; 64 x 2:
 * copies of a 2-D block (TID.X and TID.Y must be their threads', section 4 of the doc) */
START_TEST(end_to_end_odd_blocks)
{
	end_to_end("examples/bias_silu/bias_silu.sm_80.sass", "a100", "a100-fiber", 96, 1);
	end_to_end("examples/bias_silu/bias_silu.sm_80.sass", "a100", "a100-fiber", 64, 2);
}
END_TEST

START_TEST(end_to_end_h100)
{
	end_to_end("examples/bias_silu/bias_silu.sm_90.sass", "h100", "h100-fiber", 128, 1);
}
END_TEST

/* a --fiber-grid hint that puts several CTAs on an SM (432 on 108 SMs: 4): the split checks
 * the hint at run time (a larger grid would grow CTAs that wait for one another) and its grown
 * CTA fits beside three others at their launch's size; 2000 (19 per SM) is refused */
START_TEST(grid_hint_shared)
{
	Comp c;
	Fn *f;
	const char *why = NULL;

	grid_hint = 432;
	compile(&c, "examples/bias_silu/bias_silu.sm_80.sass");
	f = module_fn(c.m, "bias_silu_f32");
	ck_assert_int_eq(count_op(f, OSETFIBERNUM), 1);
	for (uint32_t h = 0; h < f->plan->nphase; h++)
		if (f->plan->phase[h].fibers)
			why = mstr(c.m, f->plan->phase[h].why);
	ck_assert_msg(why && strstr(why, "grid <= 432 CTAs"), "%s", why ? why : "(no split)");
	comp_free(&c);
	grid_hint = 2000;
	compile(&c, "examples/bias_silu/bias_silu.sm_80.sass");
	grid_hint = 4;
	f = module_fn(c.m, "bias_silu_f32");
	ck_assert_int_eq(count_op(f, OSETFIBERNUM), 0);
	comp_free(&c);
}
END_TEST

Suite *
phases_suite(void)
{
	Suite *s = suite_create("phases");
	TCase *tc = tcase_create("phases");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, split_bias_silu_sm80);
	tcase_add_test(tc, split_bias_silu_sm90);
	tcase_add_test(tc, examples_left_alone);
	tcase_add_test(tc, reasons);
	tcase_add_test(tc, guarded);
	tcase_add_test(tc, grid_hint_shared);
	tcase_add_test(tc, fiber_native_pressure);
	tcase_add_test(tc, end_to_end_a100);
	tcase_add_test(tc, end_to_end_h100);
	tcase_add_test(tc, end_to_end_odd_blocks);
	suite_add_tcase(s, tc);
	return s;
}
