/* check_smmodel.c: the SM-model seam of the timing layer (timing/smmodel.h) and the functional
 * driver's resident set (sim/launch.c): the model table (lookup by name, the sm_model key, an
 * unknown model is a configuration error naming the choices, the hooks each model fills, where
 * each places its warp slots); occupancy through the model against
 * the CUDA occupancy calculator's rule for every built-in configuration and several block shapes;
 * the register scoreboard keyed by absolute register (a read of a register pending in another
 * warp waits) and reg_bank; the resident scheduler (order, SM-wide barrier release, faults) and a
 * multi-CTA kernel giving the same outputs with one CTA resident and with the model's occupancy.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "launch.h"
#include "smmodel.h"

static const char *const builtins[] = {"a100", "h100", "b200"};

/* ---------------------------------------------------------------------------------------------
 * The table.
 */
START_TEST(test_model_lookup)
{
	SimConfig c;

	ck_assert_ptr_eq(sm_model_find("simt"), &sm_model_simt);
	ck_assert_ptr_null(sm_model_find("mta"));
	ck_assert_ptr_null(sm_model_find(""));
	ck_assert_str_eq(sm_models[SmModelSimt]->name, "simt");
	for (unsigned k = 0; k < NSmModel; k++) {
		ck_assert_ptr_nonnull(sm_models[k]);
		ck_assert_ptr_eq(sm_model_find(sm_models[k]->name), sm_models[k]);
	}
	/* every built-in configuration runs the SIMT SM */
	for (unsigned i = 0; i < sizeof builtins / sizeof *builtins; i++) {
		ck_assert_int_eq(simcfg_builtin(&c, builtins[i]), 0);
		ck_assert_ptr_eq(sm_model_of(&c), &sm_model_simt);
		ck_assert_ptr_eq((void *)sim_model_occupancy(&c), (void *)sm_model_simt.occupancy);
	}
}
END_TEST

START_TEST(test_model_hooks)
{
	/* a model fills these rows: the generic driver calls them without checking */
	for (unsigned k = 0; k < NSmModel; k++) {
		const SmModel *m = sm_models[k];
		SimConfig c;
		char kv[64], err[256] = "";
		ck_assert_ptr_nonnull(m->occupancy);
		ck_assert_ptr_nonnull(m->launch);
		ck_assert_ptr_nonnull(m->slot_sub);
		ck_assert_ptr_nonnull(m->warp_start);
		ck_assert_ptr_nonnull(m->ready);
		ck_assert_ptr_nonnull(m->operand_bubbles);
		ck_assert_ptr_nonnull(m->issue);
		ck_assert_ptr_nonnull(m->blocked);
		ck_assert_ptr_nonnull(m->stats);
		/* a hold is honoured only by the loop that calls issued */
		ck_assert_int_eq(m->hold != NULL, m->issued != NULL);
		/* the functional view made from a configuration has the model's FIBER semantics */
		ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
		snprintf(kv, sizeof kv, "sm_model = %s", m->name);
		ck_assert_msg(simcfg_set(&c, kv, err, sizeof err) == 0, "%s", err);
		ck_assert_int_eq(simcfg_gpu(&c).fiber, m->fiber);
	}
	/* the SIMT SM's events: none after an issue (its cycle loop calls nothing there), no
	 * CTA-wide release of its own; the FIBER SM's: all */
	ck_assert_int_eq(sm_model_simt.fiber, 0);
	ck_assert_ptr_null(sm_model_simt.issued);
	ck_assert_ptr_null(sm_model_simt.released);
	ck_assert_int_eq(sm_model_fiber.fiber, 1);
	ck_assert_ptr_nonnull(sm_model_fiber.issued);
	ck_assert_ptr_nonnull(sm_model_fiber.released);
	ck_assert_ptr_nonnull(sm_model_fiber.sm_new);
	ck_assert_ptr_nonnull(sm_model_fiber.cta_start);
	ck_assert_ptr_nonnull(sm_model_fiber.cta_end);
}
END_TEST

/* warp slots: round-robin over the sub-partitions on the SIMT SM; on the FIBER SM weft w of each
 * CTA in sub-partition w % nsub (its window in that slice) */
START_TEST(test_model_slot_sub)
{
	TLaunch L;

	memset(&L, 0, sizeof L);
	L.nsub = 4;
	L.lc.nwarp = 6;
	L.lc.nweft = 6;
	L.ctas_per_sm = 2;
	for (uint32_t k = 0; k < 12; k++) {
		ck_assert_uint_eq(sm_model_simt.slot_sub(&L, k), k % 4);
		ck_assert_uint_eq(sm_model_fiber.slot_sub(&L, k), k % 6 % 4);
	}
	ck_assert_uint_eq(sm_model_fiber.slot_sub(&L, 6), 0);   /* CTA 1's weft 0 */
	ck_assert_uint_eq(sm_model_simt.slot_sub(&L, 6), 2);
	L.lc.nweft = 0;            /* not set: the launch's warps */
	ck_assert_uint_eq(sm_model_fiber.slot_sub(&L, 7), 1);
}
END_TEST

START_TEST(test_model_key)
{
	SimConfig c;
	char err[256] = "";

	ck_assert_int_eq(simcfg_builtin(&c, "h100"), 0);
	/* each model's name is a value of the key, and selects it */
	for (unsigned k = 0; k < NSmModel; k++) {
		char kv[64];
		snprintf(kv, sizeof kv, "sm_model = %s", sm_models[k]->name);
		ck_assert_msg(simcfg_set(&c, kv, err, sizeof err) == 0, "%s", err);
		ck_assert_ptr_eq(sm_model_of(&c), sm_models[k]);
	}
	/* an unknown model is an error naming the choices, and changes nothing */
	ck_assert_int_eq(simcfg_set(&c, "sm_model=mta", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "'sm_model' must be simt or fiber, not 'mta'") != NULL, "%s", err);
	ck_assert_ptr_eq(sm_model_of(&c), sm_models[NSmModel - 1]);
	/* a configuration file may name it */
	{
		const char *text = "base = a100\nsm_model = simt\n";
		ck_assert_msg(simcfg_parse(&c, "m.cfg", text, strlen(text), err, sizeof err) == 0, "%s",
		              err);
		text = "base = a100\nsm_model = vliw\n";
		ck_assert_int_eq(simcfg_parse(&c, "m.cfg", text, strlen(text), err, sizeof err), -1);
		ck_assert_msg(strstr(err, "m.cfg:2:12: error: 'sm_model' must be simt") != NULL, "%s",
		              err);
	}
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Occupancy: the rule of the CUDA occupancy calculator, written out here on its own.
 */
/* the model's occupancy, as the functional simulator is given it */
static uint32_t
occ(const SimConfig *c, const LaunchCx *lc, const char **why)
{
	GpuConfig g = simcfg_gpu(c);

	ck_assert_ptr_eq((void *)g.occupancy, (void *)sm_model_of(c)->occupancy);
	return g.occupancy(&g, lc, why);
}

static uint64_t
up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

static uint32_t
reference(const SimConfig *c, uint32_t threads, uint32_t regs, uint32_t smem, const char **why)
{
	const SimTiming *t = &c->t;
	uint64_t warps = (threads + 31) / 32, r = up((regs + 7) / 8 * 8, 8);
	uint64_t lim[5], best = t->max_ctas_per_sm;
	const char *name[5] = {"warps", "threads", "registers", "shared", ""};

	lim[0] = t->max_warps_per_sm / warps;
	lim[1] = t->max_threads_per_sm / (warps * 32);
	lim[2] = c->regs_per_sm / (up(r * 32, t->reg_alloc_unit) * warps);
	lim[3] = up(smem + t->smem_reserved_per_cta, t->smem_alloc_unit);
	lim[3] = lim[3] ? t->smem_per_sm / lim[3] : best;
	*why = "ctas";
	for (int k = 0; k < 4; k++)
		if (lim[k] < best) {
			best = lim[k];
			*why = name[k];
		}
	return (uint32_t)best;
}

static const struct {
	uint32_t threads, regs, smem;
} shapes[] = {
	{32, 16, 0}, {64, 32, 0}, {128, 32, 0}, {256, 32, 0}, {256, 64, 0}, {256, 128, 0},
	{1024, 32, 0}, {1024, 64, 0}, {96, 40, 4096}, {128, 255, 0}, {128, 32, 48 * 1024},
	{512, 24, 16 * 1024}, {33, 8, 100}, {256, 72, 99 * 1024},
};

START_TEST(test_occupancy_model)
{
	for (unsigned i = 0; i < sizeof builtins / sizeof *builtins; i++) {
		SimConfig c;
		ck_assert_int_eq(simcfg_builtin(&c, builtins[i]), 0);
		for (unsigned s = 0; s < sizeof shapes / sizeof *shapes; s++) {
			LaunchCx lc;
			const char *want, *got = NULL;
			uint32_t n;
			memset(&lc, 0, sizeof lc);
			lc.nwarp = (shapes[s].threads + 31) / 32;
			lc.nreg_alloc = (shapes[s].regs + 7) & ~7u;
			lc.smem_user = shapes[s].smem;
			n = occ(&c, &lc, &got);
			ck_assert_msg(n == reference(&c, shapes[s].threads, shapes[s].regs, shapes[s].smem,
			                             &want) && strcmp(got, want) == 0,
			              "%s, %u threads x %u registers, %u bytes: %u (%s), want %u (%s)",
			              builtins[i], shapes[s].threads, shapes[s].regs, shapes[s].smem, n, got,
			              reference(&c, shapes[s].threads, shapes[s].regs, shapes[s].smem, &want),
			              want);
		}
	}
}
END_TEST

START_TEST(test_gpu_view)
{
	/* the functional simulator's view: the device keys, the clock, the model's occupancy and
	 * the figures it reads, copied from the timing keys */
	for (unsigned i = 0; i < sizeof builtins / sizeof *builtins; i++) {
		SimConfig c;
		GpuConfig g;
		ck_assert_int_eq(simcfg_builtin(&c, builtins[i]), 0);
		g = simcfg_gpu(&c);
		ck_assert_str_eq(g.name, c.name);
		ck_assert_int_eq(g.sm, c.sm);
		ck_assert_int_eq(g.nsm, c.nsm);
		ck_assert_uint_eq(g.max_threads_per_block, c.max_threads_per_block);
		ck_assert_uint_eq(g.max_smem_per_block, c.max_smem_per_block);
		ck_assert_uint_eq(g.regs_per_sm, c.regs_per_sm);
		ck_assert_uint_eq(g.watchdog, c.watchdog);
		ck_assert_uint_eq(g.clock_mhz, c.t.clock_mhz);
		ck_assert_uint_eq(g.max_warps_per_sm, c.t.max_warps_per_sm);
		ck_assert_uint_eq(g.max_threads_per_sm, c.t.max_threads_per_sm);
		ck_assert_uint_eq(g.max_ctas_per_sm, c.t.max_ctas_per_sm);
		ck_assert_uint_eq(g.reg_alloc_unit, c.t.reg_alloc_unit);
		ck_assert_uint_eq(g.smem_per_sm, c.t.smem_per_sm);
		ck_assert_uint_eq(g.smem_alloc_unit, c.t.smem_alloc_unit);
		ck_assert_uint_eq(g.smem_reserved_per_cta, c.t.smem_reserved_per_cta);
		ck_assert_ptr_eq((void *)g.occupancy, (void *)sm_model_simt.occupancy);
	}
}
END_TEST

START_TEST(test_occupancy_known)
{
	SimConfig c;
	LaunchCx lc;
	const char *why;

	/* a100: 64 warps, 2048 threads, 32 CTAs, 64 K registers per SM (the CUDA calculator) */
	ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
	memset(&lc, 0, sizeof lc);
	lc.nwarp = 8;
	lc.nreg_alloc = 32;
	ck_assert_uint_eq(occ(&c, &lc, &why), 8);
	ck_assert_str_eq(why, "warps");
	lc.nreg_alloc = 128;       /* 8 warps x 32 lanes x 128 = 32 K registers a CTA */
	ck_assert_uint_eq(occ(&c, &lc, &why), 2);
	ck_assert_str_eq(why, "registers");
	lc.nwarp = 1;
	lc.nreg_alloc = 16;
	ck_assert_uint_eq(occ(&c, &lc, &why), 32);
	ck_assert_str_eq(why, "ctas");
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The register scoreboard, by absolute register.
 */
typedef struct Loaded {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;
	SimModule *sm;
	const Prog *k;
} Loaded;

static Loaded *
load(const char *text, const SimConfig *c)
{
	Loaded *r = calloc(1, sizeof *r);

	r->src = src_new("smmodel.sass", text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	r->g = gpu_new(simcfg_gpu(c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "load failed:\n%s", r->err);
	r->k = sim_module_kernel(r->sm, "kern");
	ck_assert_ptr_nonnull(r->k);
	return r;
}

static void
unload(Loaded *r)
{
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* no encoding words: the SIMT model times it with its register scoreboard */
static const char scoreboard_text[] =
	"\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	"        /*0000*/ MUFU.RCP R5, R3 ;\n"
	"        /*0010*/ FADD R0, R1, R1 ;\n"
	"        /*0020*/ FADD R0, R2, R2 ;\n"
	"        /*0030*/ EXIT ;\n";

START_TEST(test_scoreboard_cross_warp)
{
	SimConfig c;
	Loaded *r;
	TLaunch L;
	TSm *s;
	TWarp *a, *b;
	uint64_t t, done;
	uint8_t why;

	ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
	r = load(scoreboard_text, &c);
	memset(&L, 0, sizeof L);
	L.cfg = &c;
	L.t = &c.t;
	L.prog = r->k;
	L.model = &sm_model_simt;
	L.nsub = 4;
	L.ctas_per_sm = 1;
	L.lc.nwarp = 2;
	L.lc.nreg_alloc = 8;
	L.lc.nreg_win = 8;
	tins_build(&L);
	L.model->launch(&L);
	ck_assert_int_eq(L.ctrl, CtrlScoreboard);
	L.mem = memsys_new(&c);
	s = tsm_new(&L, 0);

	/* warp A's window starts at 16; warp B's at 20 (overlapping, as FIBER's shared registers
	 * will): B's R1 is A's R5, absolute register 21 */
	a = &s->tw[0];
	b = &s->tw[1];
	a->rbase = 16;
	a->ubase = SmVRegs;
	b->rbase = 20;
	b->ubase = SmVRegs + NWarpUnit;
	L.model->warp_start(s, a);
	L.model->warp_start(s, b);

	/* A issues MUFU.RCP R5 at cycle 10, its result ready at done */
	done = 10 + c.t.lat_mufu;
	L.model->issue(s, &s->sub[0], a, 0, 10, done, 11);
	ck_assert_uint_eq(s->rready[treg(a, 5)], done);
	ck_assert_uint_eq(treg(a, 5), 21);
	ck_assert_uint_eq(treg(b, 1), 21);

	/* B's FADD R0, R1, R1 reads absolute 21: it waits for A's MUFU */
	b->next_pc = 1;
	why = CpiStall;
	t = L.model->ready(s, b, 12, 12, &why);
	ck_assert_uint_eq(t, done);
	ck_assert_uint_eq(why, CpiWaitLong);

	/* B's FADD R0, R2, R2 reads absolute 22, which nothing writes: no wait */
	b->next_pc = 2;
	why = CpiStall;
	t = L.model->ready(s, b, 12, 12, &why);
	ck_assert_uint_eq(t, 12);
	ck_assert_uint_eq(why, CpiStall);

	/* A's own predicate and uniform registers are not B's */
	ck_assert_uint_ne(treg(a, UnitOfP), treg(b, UnitOfP));

	/* a new warp in B's slot clears B's window only */
	L.model->warp_start(s, b);
	ck_assert_uint_eq(s->rready[21], 0);
	ck_assert_uint_eq(s->rready[treg(a, 0)], 0);

	tsm_free(s);
	memsys_free(L.mem);
	free(L.ti);
	unload(r);
}
END_TEST

START_TEST(test_reg_bank)
{
	/* the SIMT SM numbers banks by the window-relative register, whatever the window base */
	for (unsigned banks = 1; banks <= MaxBanks; banks++)
		for (uint32_t base = 0; base < 40; base += 3)
			for (uint32_t r = 0; r < 32; r++)
				ck_assert_uint_eq(reg_bank(&sm_model_simt, base + r, base, banks), r % banks);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The resident scheduler, with scripted CTAs.
 */
typedef struct Script {
	const char *const *plan; /* per CTA: what each run returns, 'd' done, 'w' wait, 'f' fault */
	uint64_t slot_cta[8];    /* the CTA each slot holds */
	unsigned step[16];       /* per CTA: runs so far */
	char log[512];
	size_t n;
} Script;

static void
say(Script *s, const char *fmt, unsigned a, unsigned b)
{
	s->n += (size_t)snprintf(s->log + s->n, sizeof s->log - s->n, fmt, a, b);
}

static void
sc_start(void *arg, uint32_t slot, uint64_t linear)
{
	Script *s = arg;

	s->slot_cta[slot] = linear;
	say(s, "start %u@%u ", (unsigned)linear, slot);
}

static int
sc_run(void *arg, uint32_t slot)
{
	Script *s = arg;
	unsigned cta = (unsigned)s->slot_cta[slot];
	char what = s->plan[cta][s->step[cta]++];

	s->n += (size_t)snprintf(s->log + s->n, sizeof s->log - s->n, "run %u%c ", cta, what);
	return what == 'd' ? ResDone : what == 'w' ? ResSmWait : ResFault;
}

static void
sc_release(void *arg, uint32_t slot)
{
	Script *s = arg;

	say(s, "release %u ", (unsigned)s->slot_cta[slot], 0);
}

static const ResidentOps script_ops = { sc_start, sc_run, sc_release };

START_TEST(test_resident_order)
{
	/* no SM-wide barrier: one CTA after another in grid order, a freed slot takes the next */
	static const char *const plan[] = {"d", "d", "d", "d", "d"};
	Script s = { plan, {0}, {0}, "", 0 };

	ck_assert_int_eq(resident_run(2, 5, &script_ops, &s), 0);
	ck_assert_str_eq(s.log, "start 0@0 start 1@1 run 0d start 2@0 run 1d start 3@1 run 2d "
	                 "start 4@0 run 3d run 4d ");
}
END_TEST

START_TEST(test_resident_sm_barrier)
{
	/* CTAs 1 and 2 wait at the SM-wide barrier: the others run on, and the two are released
	 * only when every resident CTA waits */
	static const char *const plan[] = {"d", "wd", "wwd", "d", "d"};
	Script s = { plan, {0}, {0}, "", 0 };

	ck_assert_int_eq(resident_run(3, 5, &script_ops, &s), 0);
	ck_assert_str_eq(s.log, "start 0@0 start 1@1 start 2@2 run 0d start 3@0 run 1w run 2w "
	                 "run 3d start 4@0 run 4d release 1 release 2 run 1d run 2w "
	                 "release 2 run 2d ");
}
END_TEST

START_TEST(test_resident_barrier_all)
{
	/* every CTA of a full SM waits: all are released together, then each runs on */
	static const char *const plan[] = {"wd", "wd", "wd"};
	Script s = { plan, {0}, {0}, "", 0 };

	ck_assert_int_eq(resident_run(3, 3, &script_ops, &s), 0);
	ck_assert_str_eq(s.log, "start 0@0 start 1@1 start 2@2 run 0w run 1w run 2w release 0 "
	                 "release 1 release 2 run 0d run 1d run 2d ");
}
END_TEST

START_TEST(test_resident_fault)
{
	static const char *const plan[] = {"d", "f", "d"};
	Script s = { plan, {0}, {0}, "", 0 };

	ck_assert_int_eq(resident_run(1, 3, &script_ops, &s), -1);
	ck_assert_str_eq(s.log, "start 0@0 run 0d start 1@0 run 1f ");
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The functional driver: the same outputs with one CTA resident and with the model's occupancy.
 * Each CTA writes its threads' values to shared memory, meets at BAR.SYNC, and stores the value
 * of the mirrored thread: out[ctaid * ntid + tid] = 3 ctaid + (ntid - 1 - tid) + R20, where R20
 * is never written (0 unless a window is shared).
 */
static const char resident_text[] =
	"\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	"        /*0000*/ S2R R0, SR_TID.X ;\n"
	"        /*0010*/ S2R R1, SR_CTAID.X ;\n"
	"        /*0020*/ MOV R4, c[0x0][0x160] ;\n"
	"        /*0030*/ MOV R5, c[0x0][0x164] ;\n"
	"        /*0040*/ IMAD R6, R1, c[0x0][0x0], R0 ;\n"
	"        /*0050*/ IMAD.WIDE.U32 R2, R6, 0x4, R4 ;\n"
	"        /*0060*/ IMAD R7, R1, 0x3, R0 ;\n"
	"        /*0070*/ IADD3 R7, R7, R20, RZ ;\n"
	"        /*0080*/ SHF.L.U32 R8, R0, 0x2, RZ ;\n"
	"        /*0090*/ STS [R8], R7 ;\n"
	"        /*00a0*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	"        /*00b0*/ IADD3 R10, -R0, c[0x0][0x0], RZ ;\n"
	"        /*00c0*/ IADD3 R10, R10, -0x1, RZ ;\n"
	"        /*00d0*/ SHF.L.U32 R10, R10, 0x2, RZ ;\n"
	"        /*00e0*/ LDS R9, [R10] ;\n"
	"        /*00f0*/ STG.E [R2.64], R9 ;\n"
	"        /*0100*/ EXIT ;\n";

enum { ResGrid = 70, ResBlock = 96 };

/* run the kernel; the outputs into out, the warp instructions returned */
static uint64_t
run_resident(SimOccupancyFn fn, uint32_t *out)
{
	SimConfig c;
	Loaded *r;
	uint64_t buf, n = (uint64_t)ResGrid * ResBlock;
	LaunchParams lp = { { ResGrid, 1, 1 }, { ResBlock, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	SimStats st;
	SimFault f;

	ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
	r = load(resident_text, &c);
	gpu_set_occupancy(r->g, fn);
	ck_assert_int_eq(gpu_malloc(r->g, n * 4, &buf), 0);
	lp.params = &buf;
	ck_assert_msg(sim_launch(r->g, r->sm, r->k, &lp, &st, &f) == 0, "%s", f.msg);
	ck_assert_int_eq(gpu_read(r->g, buf, out, n * 4), 0);
	unload(r);
	return st.warp_instructions;
}

START_TEST(test_resident_same_outputs)
{
	static uint32_t one[ResGrid * ResBlock], many[ResGrid * ResBlock];
	uint64_t n1, nm;
	SimConfig c;
	LaunchCx lc;
	const char *why;

	/* the model holds several of these CTAs at once, fewer than the grid */
	ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
	memset(&lc, 0, sizeof lc);
	lc.nwarp = ResBlock / 32;
	lc.nreg_alloc = 24;
	ck_assert_uint_gt(occ(&c, &lc, &why), 1);
	ck_assert_uint_lt(occ(&c, &lc, &why), ResGrid);

	n1 = run_resident(NULL, one);
	nm = run_resident(sim_model_occupancy(&c), many);
	ck_assert_uint_eq(n1, nm);
	for (uint32_t b = 0; b < ResGrid; b++)
		for (uint32_t t = 0; t < ResBlock; t++) {
			uint32_t i = b * ResBlock + t;
			/* the mirrored thread's value: 3 b + (ResBlock - 1 - t) */
			ck_assert_uint_eq(one[i], 3 * b + (ResBlock - 1 - t));
			ck_assert_uint_eq(many[i], one[i]);
		}
}
END_TEST

Suite *
smmodel_suite(void)
{
	Suite *s = suite_create("smmodel");
	TCase *tab = tcase_create("Table");
	TCase *oc = tcase_create("Occupancy");
	TCase *regs = tcase_create("Registers");
	TCase *res = tcase_create("Resident");

	tcase_add_test(tab, test_model_lookup);
	tcase_add_test(tab, test_model_hooks);
	tcase_add_test(tab, test_model_slot_sub);
	tcase_add_test(tab, test_model_key);
	tcase_add_test(oc, test_occupancy_model);
	tcase_add_test(oc, test_occupancy_known);
	tcase_add_test(oc, test_gpu_view);
	tcase_add_test(regs, test_scoreboard_cross_warp);
	tcase_add_test(regs, test_reg_bank);
	tcase_add_test(res, test_resident_order);
	tcase_add_test(res, test_resident_sm_barrier);
	tcase_add_test(res, test_resident_barrier_all);
	tcase_add_test(res, test_resident_fault);
	tcase_add_test(res, test_resident_same_outputs);
	suite_add_tcase(s, tab);
	suite_add_tcase(s, oc);
	suite_add_tcase(s, regs);
	suite_add_tcase(s, res);
	return s;
}
