/* check_sm.c: the cycle-level driver (timing/sm.c, timing/launch.c) on hand-written sm_80 SASS
 * whose encoding words carry chosen control bits: stall counts, the yield bit, write and read
 * scoreboards with wait masks, DEPBAR; the register scoreboard when a listing has no encodings;
 * pipe initiation intervals; register-bank conflicts and the reuse cache; occupancy; and, on the
 * example kernels, values identical to the functional driver, cycle counts identical for any
 * number of host threads, and a CPI stack that accounts for every sub-partition cycle.
 * Kernels time themselves with CS2R SR_CLOCKLO like the published microbenchmarks, so the tests
 * assert exact cycle distances that follow from the configuration.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "mma.h"
#include "timing.h"

/* control field: stall, yield (1: yield), write SB, read SB (7: none), wait mask, reuse */
static uint32_t
ctl(unsigned stall, int yield, unsigned wsb, unsigned rsb, unsigned wait, unsigned reuse)
{
	return stall | (yield ? 0u : 1u) << 4 | wsb << 5 | rsb << 8 | wait << 11 | reuse << 17;
}
#define C(s) ctl(s, 0, 7, 7, 0, 0)

typedef struct Text {
	char buf[16384];
	size_t n;
	uint32_t addr;
	int enc;                   /* write encoding words */
} Text;

/* one instruction with its control field */
static void
ins(Text *t, uint32_t ctrl, const char *fmt, ...)
{
	char body[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof body, fmt, ap);
	va_end(ap);
	if (t->enc)
		t->n += (size_t)snprintf(t->buf + t->n, sizeof t->buf - t->n,
		                         "        /*%04x*/ %s ; /* 0x0000000000000000 */\n"
		                         "                  /* 0x%016llx */\n", t->addr, body,
		                         (unsigned long long)ctrl << 41);
	else
		t->n += (size_t)snprintf(t->buf + t->n, sizeof t->buf - t->n, "        /*%04x*/ %s ;\n",
		                         t->addr, body);
	t->addr += 16;
	ck_assert_uint_lt(t->n, sizeof t->buf - 256);
}

static void
begin(Text *t, int enc)
{
	memset(t, 0, sizeof *t);
	t->enc = enc;
	t->n = (size_t)snprintf(t->buf, sizeof t->buf,
	                        "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n");
	/* R2:R3 = &out[tid] */
	ins(t, ctl(1, 0, 0, 7, 0, 0), "S2R R0, SR_TID.X");
	ins(t, C(1), "MOV R4, c[0x0][0x160]");
	ins(t, C(4), "MOV R5, c[0x0][0x164]");
	ins(t, ctl(4, 0, 7, 7, 1, 0), "IMAD.WIDE.U32 R2, R0, 0x4, R4");
}

/* store R12 to out[tid] and end */
static void
finish(Text *t)
{
	ins(t, C(1), "STG.E [R2.64], R12");
	ins(t, C(5), "EXIT");
}

typedef struct Run {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;
	SimConfig cfg;             /* its configuration */
	SimModule *sm;
	const Prog *k;
	uint64_t out;
	SimTStats st;
	SimFault f;
} Run;

/* the a100 configuration without the instruction cache (so that fetch never stalls) */
static void
config(SimConfig *c)
{
	simconfig_default(c, 80);
	c->t.icache_bytes = 0;
}

static Run *
load_cfg(const char *text, const SimConfig *c)
{
	Run *r = calloc(1, sizeof *r);

	r->src = src_new("timing.sass", text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	r->cfg = *c;
	r->g = gpu_new(simcfg_gpu(c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "load failed:\n%s", r->err);
	r->k = sim_module_kernel(r->sm, "kern");
	ck_assert_ptr_nonnull(r->k);
	return r;
}

static Run *
load(const char *text)
{
	SimConfig c;

	config(&c);
	return load_cfg(text, &c);
}

static int
launch(Run *r, uint32_t grid, uint32_t block, unsigned threads)
{
	LaunchParams lp = { { grid, 1, 1 }, { block, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	TimingOpts o = {0};

	if (!r->out)
		ck_assert_int_eq(gpu_malloc(r->g, (uint64_t)grid * block * 4 + 4, &r->out), 0);
	lp.params = &r->out;
	o.threads = threads;
	simtstats_free(&r->st);
	return sim_launch_timed(r->g, &r->cfg, r->sm, r->k, &lp, &o, &r->st, &r->f);
}

static uint32_t
word(Run *r, uint32_t k)
{
	uint32_t v;

	ck_assert_int_eq(gpu_read(r->g, r->out + 4 * k, &v, 4), 0);
	return v;
}

static void
done(Run *r)
{
	simtstats_free(&r->st);
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* clock before, body, clock after; R12 = the difference */
static uint32_t
timed(const char *what, int enc, void (*body)(Text *), const SimConfig *c, SimTStats *st)
{
	Text t;
	Run *r;
	uint32_t v;

	begin(&t, enc);
	ins(&t, C(1), "CS2R R6, SR_CLOCKLO");
	body(&t);
	ins(&t, C(4), "CS2R R10, SR_CLOCKLO");
	ins(&t, C(5), "IADD3 R12, R10, -R6, RZ");
	finish(&t);
	if (c)
		r = load_cfg(t.buf, c);
	else
		r = load(t.buf);
	ck_assert_msg(launch(r, 1, 32, 1) == 0, "%s: %s", what, r->f.msg);
	v = word(r, 0);
	if (st) {
		*st = r->st;
		r->st.sm = NULL;
		r->st.hazard_rows = NULL;
	}
	done(r);
	return v;
}

/* ---------------------------------------------------------------------------------------------
 * Control bits.
 */
static void
body_stalls(Text *t)
{
	for (int k = 0; k < 10; k++)
		ins(t, C(5), "IADD3 R8, R8, 0x1, RZ");
}

START_TEST(test_stall_counts)
{
	/* the first clock's own stall (1) plus 10 instructions of stall 5 */
	ck_assert_uint_eq(timed("stalls", 1, body_stalls, NULL, NULL), 1 + 10 * 5);
}
END_TEST

static void
body_yield(Text *t)
{
	for (int k = 0; k < 6; k++)
		ins(t, ctl(1, 1, 7, 7, 0, 0), "IADD3 R8, R8, 0x1, RZ");
}

START_TEST(test_yield_bit)
{
	SimConfig c;

	config(&c);
	/* a yield keeps the warp off the next cycle: each costs 1 + yield_bubble; the INT pipe
	 * (16 lanes, 2 cycles) does not limit it */
	ck_assert_uint_eq(timed("yield", 1, body_yield, &c, NULL), 1 + 6 * (1 + c.t.yield_bubble));
}
END_TEST

static void
body_pipe(Text *t)
{
	for (int k = 0; k < 8; k++)
		ins(t, C(1), "FFMA R%d, R0, R0, RZ", 14 + 2 * k);
}

START_TEST(test_pipe_initiation_interval)
{
	SimConfig c;
	unsigned ii;

	config(&c);
	ii = 32 / c.t.fp32_lanes;
	/* independent FFMAs with stall 1 issue every ii cycles; the closing clock (another pipe)
	 * follows the last one by its stall */
	ck_assert_uint_eq(timed("pipe", 1, body_pipe, &c, NULL), 1 + 7 * ii + 1);
	c.t.fp32_lanes = 32;
	ck_assert_uint_eq(timed("pipe", 1, body_pipe, &c, NULL), 1 + 7 + 1);
}
END_TEST

static void
body_none(Text *t)
{
	(void)t;
}

static void
body_banks(Text *t)
{
	/* R8, R10, R20 all in bank 0 of 2: two bubbles each */
	for (int k = 0; k < 4; k++)
		ins(t, C(1), "FFMA R%d, R8, R10, R20", 30 + 2 * k);
}

static void
body_reuse(Text *t)
{
	/* the same, with R8 and R10 kept in the reuse cache after the first */
	for (int k = 0; k < 4; k++)
		ins(t, ctl(1, 0, 7, 7, 0, 3), "FFMA R%d, R8.reuse, R10.reuse, R20", 30 + 2 * k);
}

START_TEST(test_register_banks_and_reuse)
{
	SimConfig c;
	uint32_t conflict, reused;
	uint64_t base;
	SimTStats st;

	config(&c);
	c.t.fp32_lanes = 32;       /* ii 1: only the banks limit issue */
	timed("none", 1, body_none, &c, &st);
	base = st.rf_bank_conflicts;   /* the prologue's and the epilogue's */
	simtstats_free(&st);
	conflict = timed("banks", 1, body_banks, &c, &st);
	ck_assert_uint_eq(st.rf_bank_conflicts - base, 4 * 2);
	simtstats_free(&st);
	/* each FFMA: 1 + 2 bubbles */
	ck_assert_uint_eq(conflict, 1 + 3 * 3 + 3);
	reused = timed("reuse", 1, body_reuse, &c, &st);
	ck_assert_uint_eq(st.reuse_hits, 3 * 2);
	simtstats_free(&st);
	/* the first still conflicts, the next three read one register from the bank */
	ck_assert_uint_eq(reused, 1 + 3 + 1 + 1 + 1);
	c.t.rf_reuse = 0;
	ck_assert_uint_eq(timed("reuse off", 1, body_reuse, &c, NULL), conflict);
}
END_TEST

static void
body_scoreboard_chain(Text *t)
{
	for (int k = 0; k < 10; k++)
		ins(t, C(1), "FFMA R8, R8, R8, R8");
}

START_TEST(test_register_scoreboard_without_encodings)
{
	SimConfig c;
	SimTStats st;
	uint32_t v;

	config(&c);
	c.t.rf_banks = 1;          /* no bank bubbles in this test */
	c.t.rf_bank_bubble = 0;
	v = timed("chain", 0, body_scoreboard_chain, &c, &st);
	ck_assert_int_eq(st.ctrl_mode, CtrlScoreboard);
	simtstats_free(&st);
	/* dependent FFMAs every lat_fp32; the clock does not depend on them */
	ck_assert_uint_eq(v, 1 + 9 * c.t.lat_fp32 + 1);
	c.t.lat_fp32 = 7;
	ck_assert_uint_eq(timed("chain", 0, body_scoreboard_chain, &c, NULL), 1 + 9 * 7 + 1);
}
END_TEST

static void
body_sb_wait(Text *t)
{
	/* MUFU writes SB3 (variable latency); the consumer waits on it (stall 2: the increment
	 * lands a cycle after issue) */
	ins(t, ctl(2, 0, 3, 7, 0, 0), "MUFU.RCP R8, R0");
	ins(t, ctl(1, 0, 7, 7, 1u << 3, 0), "FADD R9, R8, 1");
}

START_TEST(test_wait_mask_on_write_scoreboard)
{
	SimConfig c;
	SimTStats st;

	config(&c);
	/* clock, MUFU at +1, FADD at +1 + lat_mufu, clock one cycle later */
	ck_assert_uint_eq(timed("sb", 1, body_sb_wait, &c, &st), 1 + c.t.lat_mufu + 1);
	ck_assert_int_eq(st.ctrl_mode, CtrlBits);
	ck_assert_uint_eq(st.hazards, 0);
	ck_assert_uint_gt(st.cpi[CpiWaitLong], 0);
	simtstats_free(&st);
	c.t.lat_mufu = 40;
	ck_assert_uint_eq(timed("sb", 1, body_sb_wait, &c, NULL), 1 + 40 + 1);
}
END_TEST

static void
body_hazard(Text *t)
{
	/* MUFU's result read after 1 cycle without waiting: a control-bits hazard */
	ins(t, ctl(1, 0, 3, 7, 0, 0), "MUFU.RCP R8, R0");
	ins(t, C(1), "FADD R9, R8, 1");
}

static void
body_sb_too_soon(Text *t)
{
	/* the wait comes one cycle after the producer: its SB increment has not landed yet, so the
	 * FADD issues at once and reads R8 early (a hazard) */
	ins(t, ctl(1, 0, 3, 7, 0, 0), "MUFU.RCP R8, R0");
	ins(t, ctl(1, 0, 7, 7, 1u << 3, 0), "FADD R9, R8, 1");
}

START_TEST(test_hazard_count)
{
	SimConfig c;
	SimTStats st;

	config(&c);
	timed("hazard", 1, body_hazard, NULL, &st);
	ck_assert_uint_eq(st.hazards, 1);
	/* the row names the pair, the model's latency and the distance the stall counts gave */
	ck_assert_uint_eq(st.nhazard_rows, 1);
	ck_assert_str_eq(st.hazard_rows[0].producer, "MUFU.RCP");
	ck_assert_str_eq(st.hazard_rows[0].consumer, "FADD");
	ck_assert_uint_eq(st.hazard_rows[0].latency, c.t.lat_mufu);
	ck_assert_uint_eq(st.hazard_rows[0].stall, 1);
	ck_assert_uint_eq(st.hazard_rows[0].count, 1);
	ck_assert_uint_eq(st.hazard_rows[0].consumer_addr, st.hazard_rows[0].producer_addr + 16);
	simtstats_free(&st);
	ck_assert_uint_eq(c.t.sb_inc_delay, 1);
	ck_assert_uint_eq(timed("too soon", 1, body_sb_too_soon, &c, &st), 1 + 1 + 1);
	ck_assert_uint_eq(st.hazards, 1);
	simtstats_free(&st);
	c.t.sb_inc_delay = 0;      /* an increment seen at once: the FADD waits */
	ck_assert_uint_eq(timed("at once", 1, body_sb_too_soon, &c, &st), 1 + c.t.lat_mufu + 1);
	ck_assert_uint_eq(st.hazards, 0);
	simtstats_free(&st);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Hazard rules learnt from nvcc's schedules (docs/calibration.md) and tensor-core shapes.
 */
static void
body_wide_addend(Text *t)
{
	/* nvcc's sm_90 k_atom_s: the high half of IMAD.WIDE's addend written 2 cycles before */
	ins(t, C(4), "IMAD.MOV.U32 R8, RZ, RZ, 0x10");
	ins(t, C(2), "IADD3 R9, RZ, RZ, RZ");
	ins(t, C(4), "IMAD.WIDE R10, R0, 0x4, R8");
}

static void
body_wide_addend_1(Text *t)
{
	/* one cycle is too soon: read at 1 + 2 (IADD3 on the INT pipe, IMAD on the FMA pipe) */
	ins(t, C(4), "IMAD.MOV.U32 R8, RZ, RZ, 0x10");
	ins(t, C(1), "IADD3 R9, RZ, RZ, RZ");
	ins(t, C(4), "IMAD.WIDE R10, R0, 0x4, R8");
}

static void
body_vote(Text *t)
{
	/* VOTE is fixed latency: nvcc reads a ballot 4 cycles later */
	ins(t, C(4), "VOTE.ANY R8, PT, PT");
	ins(t, C(4), "POPC R9, R8");
}

static void
body_store_data(Text *t)
{
	/* a store reads its data a cycle after issue: FFMA (4) then STG 3 cycles later */
	ins(t, C(3), "FFMA R8, R0, R0, R0");
	ins(t, C(4), "STG.E [R2.64], R8");
}

static void
body_umov(Text *t)
{
	/* uniform moves: nvcc reads them 2 cycles later */
	ins(t, C(2), "ULDC UR4, c[0x0][0x160]");
	ins(t, C(4), "UIADD3 UR5, UR4, 0x1, URZ");
}

static void
body_umov_1(Text *t)
{
	ins(t, C(1), "ULDC UR4, c[0x0][0x160]");
	ins(t, C(4), "UIADD3 UR5, UR4, 0x1, URZ");
}

static void
body_pred_1(Text *t)
{
	/* predicates are checked too: ISETP's P0 read the next cycle */
	ins(t, C(1), "ISETP.GT.AND P0, PT, R0, 0x3, PT");
	ins(t, C(4), "@P0 IADD3 R8, R0, 0x1, RZ");
}

START_TEST(test_hazard_rules_from_nvcc)
{
	SimConfig c;
	SimTStats st;

	config(&c);
	timed("wide addend", 1, body_wide_addend, &c, &st);
	ck_assert_uint_eq(st.hazards, 0);
	simtstats_free(&st);
	timed("wide addend 1", 1, body_wide_addend_1, &c, &st);
	ck_assert_uint_eq(st.hazards, 1);
	ck_assert_str_eq(st.hazard_rows[0].producer, "IADD3");
	ck_assert_str_eq(st.hazard_rows[0].consumer, "IMAD");
	ck_assert_uint_eq(st.hazard_rows[0].stall, 1);
	simtstats_free(&st);
	timed("vote", 1, body_vote, &c, &st);
	ck_assert_uint_eq(st.hazards, 0);
	simtstats_free(&st);
	timed("store data", 1, body_store_data, &c, &st);
	ck_assert_uint_eq(st.hazards, 0);
	simtstats_free(&st);
	timed("umov", 1, body_umov, &c, &st);
	ck_assert_uint_eq(st.hazards, 0);
	simtstats_free(&st);
	timed("umov 1", 1, body_umov_1, &c, &st);
	ck_assert_uint_eq(st.hazards, 1);
	ck_assert_str_eq(st.hazard_rows[0].producer, "ULDC");
	ck_assert_uint_eq(st.hazard_rows[0].latency, c.t.lat_umov);
	simtstats_free(&st);
	timed("predicate", 1, body_pred_1, &c, &st);
	ck_assert_uint_eq(st.hazards, 1);
	ck_assert_str_eq(st.hazard_rows[0].producer, "ISETP.GT.AND");
	ck_assert_str_eq(st.hazard_rows[0].consumer, "IADD3");
	simtstats_free(&st);
}
END_TEST

START_TEST(test_mma_shape_spellings)
{
	MmaShape sh;

	ck_assert_int_eq(mma_shape_parse("16816", OHMMA, &sh), 1);
	ck_assert_uint_eq(sh.m, 16);
	ck_assert_uint_eq(sh.n, 8);
	ck_assert_uint_eq(sh.k, 16);
	ck_assert_int_eq(mma_shape_parse("884", ODMMA, &sh), 1);
	ck_assert_uint_eq(sh.m * 100 + sh.n * 10 + sh.k, 884);
	ck_assert_int_eq(mma_shape_parse("8x8x4", ODMMA, &sh), 1);
	ck_assert_uint_eq(sh.m * 100 + sh.n * 10 + sh.k, 884);
	ck_assert_int_eq(mma_shape_parse("16x8x16", ODMMA, &sh), 1);
	ck_assert_uint_eq(sh.k, 16);
	ck_assert_int_eq(mma_shape_parse("168256", OBMMA, &sh), 1);
	ck_assert_uint_eq(sh.k, 256);
	ck_assert_int_eq(mma_shape_parse("8816", OIMMA, &sh), 1);
	ck_assert_uint_eq(sh.m, 8);
	ck_assert_int_eq(mma_shape_parse("16832", OQMMA, &sh), 1);
	/* spelt as shapes but not the family's */
	ck_assert_int_eq(mma_shape_parse("8x8x8", ODMMA, &sh), -1);
	ck_assert_int_eq(mma_shape_parse("884", OIMMA, &sh), -1);
	ck_assert_int_eq(mma_shape_parse("16x8", ODMMA, &sh), -1);
	ck_assert_int_eq(mma_shape_parse("1x2x3x4", ODMMA, &sh), -1);
	/* not shapes at all */
	ck_assert_int_eq(mma_shape_parse("F32", OHMMA, &sh), 0);
	ck_assert_int_eq(mma_shape_parse("SAT", OIMMA, &sh), 0);
}
END_TEST

/* one MMA between the clocks; the tensor pipe's busy cycles */
static const char *mma_text;

static void
body_one_mma(Text *t)
{
	ins(t, ctl(1, 0, 4, 7, 0, 0), "%s", mma_text);
	ins(t, ctl(1, 0, 7, 7, 1u << 4, 0), "NOP");
}

/* on the a100 configuration (sm_80 code) with the tensor rates of arch's */
static uint64_t
mma_busy(const char *text, int arch)
{
	SimConfig c, r;
	SimTStats st;
	uint64_t busy;

	config(&c);
	simconfig_default(&r, arch);
	c.t.tensor_flops_f16 = r.t.tensor_flops_f16;
	c.t.tensor_flops_tf32 = r.t.tensor_flops_tf32;
	c.t.tensor_ops_i8 = r.t.tensor_ops_i8;
	c.t.tensor_ops_i4 = r.t.tensor_ops_i4;
	c.t.tensor_ops_b1 = r.t.tensor_ops_b1;
	c.t.tensor_flops_f64 = r.t.tensor_flops_f64;
	mma_text = text;
	timed(text, 1, body_one_mma, &c, &st);
	busy = st.tensor_busy;
	simtstats_free(&st);
	return busy;
}

START_TEST(test_tensor_shape_timing)
{
	SimConfig a, h;

	simconfig_default(&a, 80);
	simconfig_default(&h, 90);
	/* 2 m n k / (rate / 4): both spellings of m8n8k4 FP64, and m16n8k16 */
	ck_assert_uint_eq(mma_busy("DMMA.884 R16, R20, R22, R16", 90),
	                  2 * 8 * 8 * 4 / (h.t.tensor_flops_f64 / 4));
	ck_assert_uint_eq(mma_busy("DMMA.8x8x4 R16, R20, R22, R16", 90),
	                  2 * 8 * 8 * 4 / (h.t.tensor_flops_f64 / 4));
	ck_assert_uint_eq(mma_busy("DMMA.16x8x16 R32, R40, R56, R32", 90),
	                  2 * 16 * 8 * 16 / (h.t.tensor_flops_f64 / 4));
	/* each input type at its own rate */
	ck_assert_uint_eq(mma_busy("HMMA.1688.F32.TF32 R16, R20, R24, R16", 80),
	                  2 * 16 * 8 * 8 / (a.t.tensor_flops_tf32 / 4));
	ck_assert_uint_eq(mma_busy("HMMA.1688.F32 R16, R20, R24, R16", 80),
	                  2 * 16 * 8 * 8 / (a.t.tensor_flops_f16 / 4));
	ck_assert_uint_eq(mma_busy("IMMA.16864.S4.S4 R16, R20, R24, R16", 80),
	                  2 * 16 * 8 * 64 / (a.t.tensor_ops_i4 / 4));
	ck_assert_uint_eq(mma_busy("BMMA.168256.AND.POPC R16, R20, R24, R16", 80),
	                  2 * 16 * 8 * 256 / (a.t.tensor_ops_b1 / 4));
}
END_TEST

START_TEST(test_unknown_mma_shape_is_a_load_error)
{
	Text t;
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err = NULL;
	size_t nerr = 0;
	SimConfig c;
	Gpu *g;

	begin(&t, 1);
	ins(&t, C(1), "DMMA.8x8x8 R16, R20, R22, R16");
	finish(&t);
	src = src_new("timing.sass", t.buf, strlen(t.buf));
	errf = open_memstream(&err, &nerr);
	diag_init(&d, src, errf);
	m = sass_parse(src, &d);
	ck_assert_ptr_nonnull(m);
	config(&c);
	g = gpu_new(simcfg_gpu(&c));
	ck_assert_ptr_null(sim_module_load(g, m, &d));
	fflush(errf);
	/* located at the instruction (line 14: the header, 4 setup instructions of 2 lines) */
	ck_assert_msg(strstr(err, "timing.sass:") && strstr(err, "error:") &&
	              strstr(err, "unknown shape '8x8x8' for DMMA"), "%s", err);
	gpu_free(g);
	module_free(m);
	src_free(src);
	fclose(errf);
	free(err);
}
END_TEST

static void
body_depbar(Text *t)
{
	/* three MUFUs on SB2; DEPBAR.LE SB2, 0x1 waits until at most one is pending */
	ins(t, ctl(1, 0, 2, 7, 0, 0), "MUFU.RCP R8, R0");
	ins(t, ctl(1, 0, 2, 7, 0, 0), "MUFU.RCP R9, R0");
	ins(t, ctl(1, 0, 2, 7, 0, 0), "MUFU.RCP R11, R0");
	ins(t, C(4), "DEPBAR.LE SB2, 0x1");
}

START_TEST(test_depbar_le)
{
	SimConfig c;
	unsigned ii;

	config(&c);
	ii = 32 / c.t.mufu_lanes;
	/* MUFUs issue at +1, +1+ii, +1+2ii; the second completes at 1 + ii + lat_mufu, when
	 * one remains; DEPBAR issues then, the clock 4 cycles later */
	ck_assert_uint_eq(timed("depbar", 1, body_depbar, &c, NULL), 1 + ii + c.t.lat_mufu + 4);
}
END_TEST

static void
body_sleep(Text *t)
{
	ins(t, C(1), "NANOSLEEP 0x3e8");
}

START_TEST(test_nanosleep)
{
	SimConfig c;
	SimTStats st;

	config(&c);
	/* 1000 ns at the configured clock */
	ck_assert_uint_eq(timed("sleep", 1, body_sleep, &c, &st), 1 + 1000 * c.t.clock_mhz / 1000);
	ck_assert_uint_gt(st.cpi[CpiSync], 1000);
	simtstats_free(&st);
}
END_TEST

static void
body_sleep_loop(Text *t)
{
	/* 300 sleeps of 1 ms: 423 million cycles at 1410 MHz, which the driver must skip over
	 * rather than step through epoch by epoch */
	ins(t, C(4), "MOV R8, 0x12c");
	t->n += (size_t)snprintf(t->buf + t->n, sizeof t->buf - t->n, ".L_x_0:\n");
	ins(t, C(1), "NANOSLEEP 0xf4240");
	ins(t, C(4), "IADD3 R8, R8, -0x1, RZ");
	ins(t, C(13), "ISETP.NE.AND P0, PT, R8, RZ, PT");
	ins(t, C(5), "@P0 BRA `(.L_x_0)");
}

START_TEST(test_long_sleep_is_skipped)
{
	SimConfig c;
	uint64_t want;
	uint32_t v;

	config(&c);
	want = 300ull * 1000000 * c.t.clock_mhz / 1000;
	v = timed("sleep loop", 1, body_sleep_loop, &c, NULL);
	ck_assert_uint_ge(v, want);
	ck_assert_uint_lt(v, want + 300 * 100);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Occupancy, CPI stack, determinism with threads, values against the functional driver.
 */
START_TEST(test_cpi_stack_accounts_for_every_cycle)
{
	SimConfig c;
	SimTStats st;
	uint64_t sum = 0;

	config(&c);
	timed("cpi", 1, body_stalls, &c, &st);
	for (unsigned r = 0; r < NCpi; r++)
		sum += st.cpi[r];
	ck_assert_uint_eq(sum, st.cycles * (uint64_t)c.nsm * c.t.subpartitions);
	ck_assert_uint_eq(st.cpi[CpiIssue], st.warp_instructions);
	ck_assert_uint_eq(st.nsm, (uint32_t)c.nsm);
	simtstats_free(&st);
	timed("empty", 1, body_none, &c, &st);
	ck_assert_uint_gt(st.cycles, 0);
	simtstats_free(&st);
}
END_TEST

START_TEST(test_occupancy_limits)
{
	Text t;
	Run *r;

	begin(&t, 1);
	ins(&t, C(1), "MOV R12, R0");
	finish(&t);
	r = load(t.buf);
	/* 1024 threads = 32 warps per CTA: two CTAs fill the 64 warps */
	ck_assert_int_eq(launch(r, 4, 1024, 1), 0);
	ck_assert_uint_eq(r->st.ctas_per_sm, 2);
	ck_assert_str_eq(r->st.occupancy_limit, "warps");
	ck_assert_uint_eq(word(r, 1023), 1023);
	done(r);
	/* one warp per CTA: the 32-CTA limit */
	r = load(t.buf);
	ck_assert_int_eq(launch(r, 1, 32, 1), 0);
	ck_assert_uint_eq(r->st.ctas_per_sm, 32);
	ck_assert_str_eq(r->st.occupancy_limit, "ctas");
	done(r);
}
END_TEST

START_TEST(test_threads_are_deterministic)
{
	Text t;
	Run *r;
	SimTStats one;
	uint32_t *v1, *v2;
	enum { Grid = 300, Block = 96 };

	begin(&t, 1);
	ins(&t, C(1), "S2R R9, SR_CTAID.X");
	ins(&t, ctl(4, 0, 7, 7, 0, 0), "IMAD R12, R9, 0x61, R0");
	for (int k = 0; k < 20; k++)
		ins(&t, C(2), "IMAD R12, R12, 0x3, R%d", k & 1 ? 9 : 0);
	ins(&t, C(1), "S2R R13, SR_CLOCKLO");
	ins(&t, ctl(2, 0, 7, 7, 0, 0), "IMAD.WIDE.U32 R2, R9, 0x180, R2");
	finish(&t);
	r = load(t.buf);
	ck_assert_int_eq(launch(r, Grid, Block, 1), 0);
	one = r->st;
	r->st.sm = NULL;
	r->st.hazard_rows = NULL;
	v1 = malloc(Grid * Block * 4);
	v2 = malloc(Grid * Block * 4);
	ck_assert_int_eq(gpu_read(r->g, r->out, v1, Grid * Block * 4), 0);
	ck_assert_int_eq(gpu_write(r->g, r->out, v2, 0), 0);
	for (unsigned th = 2; th <= 5; th += 3) {
		ck_assert_int_eq(launch(r, Grid, Block, th), 0);
		ck_assert_uint_eq(r->st.threads, th);
		ck_assert_uint_eq(r->st.cycles, one.cycles);
		ck_assert_uint_eq(r->st.warp_instructions, one.warp_instructions);
		for (unsigned k = 0; k < NCpi; k++)
			ck_assert_uint_eq(r->st.cpi[k], one.cpi[k]);
		ck_assert_int_eq(gpu_read(r->g, r->out, v2, Grid * Block * 4), 0);
		ck_assert_int_eq(memcmp(v1, v2, Grid * Block * 4), 0);
	}
	/* the work spread over SMs: 300 CTAs on 108 SMs */
	ck_assert_uint_gt(one.cycles, 0);
	ck_assert_uint_eq(one.ctas, Grid);
	simtstats_free(&one);
	free(v1);
	free(v2);
	done(r);
}
END_TEST

START_TEST(test_global_atomics_run_on_one_thread)
{
	Text t;
	Run *r;

	begin(&t, 1);
	/* every CTA adds its thread index to out[tid]: the order of the additions is the SMs' */
	ins(&t, ctl(1, 0, 7, 0, 0, 0), "RED.E.ADD.STRONG.GPU [R2.64], R0");
	ins(&t, C(5), "EXIT");
	r = load(t.buf);
	ck_assert_int_eq(launch(r, 200, 64, 4), 0);
	ck_assert_uint_eq(r->st.threads, 1);
	ck_assert_ptr_nonnull(r->st.threads_note);
	ck_assert_uint_eq(word(r, 0), 0);
	ck_assert_uint_eq(word(r, 63), 200 * 63);
	ck_assert_uint_gt(r->st.cycles, 200);      /* RED goes to L2: longer than its latency */
	done(r);
}
END_TEST

START_TEST(test_deadlock_in_timing_mode)
{
	Text t;
	Run *r;

	begin(&t, 1);
	/* warp 0 waits at a barrier the other warp never reaches */
	ins(&t, C(1), "ISETP.NE.AND P0, PT, R0, RZ, PT");
	ins(&t, C(5), "@P0 EXIT");
	ins(&t, C(5), "BAR.SYNC 0x0, 0x40");
	ins(&t, C(1), "MOV R12, R0");
	finish(&t);
	r = load(t.buf);
	ck_assert_int_eq(launch(r, 1, 64, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultDeadlock);
	ck_assert_msg(strstr(r->f.msg, "BAR") != NULL, "%s", r->f.msg);
	done(r);
}
END_TEST

Suite *
timing_suite(void)
{
	Suite *s = suite_create("timing");
	TCase *ctl_bits = tcase_create("control bits");
	TCase *drv = tcase_create("driver");

	tcase_add_test(ctl_bits, test_stall_counts);
	tcase_add_test(ctl_bits, test_yield_bit);
	tcase_add_test(ctl_bits, test_pipe_initiation_interval);
	tcase_add_test(ctl_bits, test_register_banks_and_reuse);
	tcase_add_test(ctl_bits, test_register_scoreboard_without_encodings);
	tcase_add_test(ctl_bits, test_wait_mask_on_write_scoreboard);
	tcase_add_test(ctl_bits, test_hazard_count);
	tcase_add_test(ctl_bits, test_hazard_rules_from_nvcc);
	tcase_add_test(ctl_bits, test_mma_shape_spellings);
	tcase_add_test(ctl_bits, test_tensor_shape_timing);
	tcase_add_test(ctl_bits, test_unknown_mma_shape_is_a_load_error);
	tcase_add_test(ctl_bits, test_depbar_le);
	tcase_add_test(ctl_bits, test_nanosleep);
	tcase_add_test(ctl_bits, test_long_sleep_is_skipped);
	tcase_add_test(drv, test_cpi_stack_accounts_for_every_cycle);
	tcase_add_test(drv, test_occupancy_limits);
	tcase_add_test(drv, test_threads_are_deterministic);
	tcase_add_test(drv, test_global_atomics_run_on_one_thread);
	tcase_add_test(drv, test_deadlock_in_timing_mode);
	tcase_set_timeout(drv, 60);
	suite_add_tcase(s, ctl_bits);
	suite_add_tcase(s, drv);
	return s;
}
