/* check_tfiber.c: the FIBER SM timing model (timing/fsm.c, sm_model = fiber): the FIBER
 * configurations and keys (configs/NAME-fiber.cfg, turning the model on for any configuration), and
 * on inline listings (no encodings: the register scoreboard) the figures the model charges: remote
 * reads, crossbar and read-port conflicts, the CPI reason remote_read, the fiber_rs = 0 loads
 * through shared memory, each key changing its statistic, the timeline; values identical to the SIMT
 * model, and a kernel without V sources timed exactly as on the SIMT model. With the functional
 * FIBER state: windows by slice, the FIBER occupancy, CTAs reusing freed windows, SETFIBERNUM
 * (count, cycles, fiber_sync, timeline; fiber_dp = 0), busy-bit waits (busy_wait,
 * fiber_busy_wake, fiber_fs = 0) and their deadlock. A device whose FIBER semantics disagree
 * with the configuration's model is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "timing.h"
#include "fsrun.h"

typedef struct Run {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;
	SimModule *sm;
	const Prog *k;
	uint64_t out;
	SimTStats st;
	SimFault f;
	uint32_t val[128];
} Run;

/* 4 warps (block 128), each storing R12 to out[tid]; body computes R12 */
static void
listing(char *buf, size_t n, const char *body)
{
	snprintf(buf, n,
	         "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	         "        S2R R0, SR_TID.X ;\n"
	         "        MOV R4, c[0x0][0x160] ;\n"
	         "        MOV R5, c[0x0][0x164] ;\n"
	         "        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	         "        MOV R12, R0 ;\n"
	         "%s"
	         "        STG.E [R2.64], R12 ;\n"
	         "        EXIT ;\n", body);
}

/* run the listing with body on configuration c (with edits key=value, NULL-terminated) */
static void
run(Run *r, const char *body, const char *cfg, const char *const *set)
{
	char text[8192], err[512];
	SimConfig c;
	LaunchParams lp = { { 1, 1, 1 }, { 128, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };

	memset(r, 0, sizeof *r);
	listing(text, sizeof text, body);
	ck_assert_int_eq(simcfg_builtin(&c, cfg), 0);
	for (; set && *set; set++)
		ck_assert_msg(simcfg_set(&c, *set, err, sizeof err) == 0, "%s", err);
	c.t.icache_bytes = 0;
	r->src = src_new("tfiber.sass", text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "load failed:\n%s", r->err);
	r->k = sim_module_kernel(r->sm, "kern");
	ck_assert_ptr_nonnull(r->k);
	ck_assert_int_eq(gpu_malloc(r->g, 128 * 4, &r->out), 0);
	lp.params = &r->out;
	ck_assert_msg(sim_launch_timed(r->g, &c, r->sm, r->k, &lp, NULL, &r->st, &r->f) == 0, "%s",
	              r->f.msg);
	ck_assert_int_eq(gpu_read(r->g, r->out, r->val, sizeof r->val), 0);
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
}

/* sources in slices 1, 2, 3 (another sub-partition's slice for warp 0, whose sub-partition is 0)
 * and two reads of one bank of slice 1 (V600, V602: bank 0 of 2) */
static const char remote_body[] =
	"        FFMA R6, V600, V1100, V1600 ;\n"
	"        FADD R7, V600, V602 ;\n"
	"        IADD3 R12, R12, R6, R7 ;\n";

/* ---------------------------------------------------------------------------------------------
 * Configurations.
 */
START_TEST(test_tfiber_configs)
{
	static const char *const names[] = {"a100-fiber", "h100-fiber", "b200-fiber"};
	static const char *const bases[] = {"a100", "h100", "b200"};
	SimConfig f, b, s;
	char err[512], *text = NULL;
	size_t n = 0;
	FILE *mf;

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(simcfg_builtin(&f, names[i]), 0);
		ck_assert_int_eq(simcfg_builtin(&b, bases[i]), 0);
		ck_assert_uint_eq(f.t.sm_model, SmModelFiber);
		ck_assert_uint_eq(b.t.sm_model, SmModelSimt);
		ck_assert_uint_eq(f.t.fiber_contexts, 64);
		ck_assert_uint_eq(f.t.fiber_slice_regs, 512);
		ck_assert_uint_eq(f.t.fiber_dp + f.t.fiber_fs + f.t.fiber_rs, 3);
		ck_assert_uint_eq(b.t.fiber_contexts, 0);
		/* the base's keys, copied */
		ck_assert_uint_eq(f.nsm, b.nsm);
		ck_assert_uint_eq(f.t.lat_l2, b.t.lat_l2);
		ck_assert_uint_eq(f.t.dram_bytes_per_clk, b.t.dram_bytes_per_clk);
		ck_assert_msg(simcfg_check(&f, err, sizeof err) == 0, "%s", err);
		/* the key that turns the model on for any configuration brings the FIBER keys */
		s = b;
		ck_assert_msg(simcfg_set(&s, "sm_model=fiber", err, sizeof err) == 0, "%s", err);
		ck_assert_uint_eq(s.t.fiber_contexts, 64);
		ck_assert_uint_eq(s.t.fiber_xbar_latency, f.t.fiber_xbar_latency);
		ck_assert_uint_eq(s.t.fiber_rs, 1);
	}
	/* a file on a SIMT base: sm_model = fiber brings the values, the file's keys override them
	 * in whatever order */
	{
		const char *cfg = "fiber_rs = 0\nsm_model = fiber\nfiber_banks = 4\n";
		ck_assert_msg(simcfg_parse(&s, "t.cfg", cfg, strlen(cfg), err, sizeof err) == 0, "%s",
		              err);
		ck_assert_uint_eq(s.t.sm_model, SmModelFiber);
		ck_assert_uint_eq(s.t.fiber_rs, 0);
		ck_assert_uint_eq(s.t.fiber_banks, 4);
		ck_assert_uint_eq(s.t.fiber_contexts, 64);
	}
	/* out of range in FIBER mode */
	ck_assert_int_eq(simcfg_builtin(&f, "a100-fiber"), 0);
	ck_assert_int_eq(simcfg_set(&f, "fiber_read_ports=0", err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "fiber_read_ports"));
	ck_assert_int_eq(simcfg_set(&f, "fiber_dp=2", err, sizeof err), -1);
	/* a SIMT configuration prints no FIBER key, a FIBER one all of them */
	simcfg_builtin(&b, "a100");
	mf = open_memstream(&text, &n);
	simcfg_print(&b, mf);
	fclose(mf);
	ck_assert_ptr_null(strstr(text, "fiber_"));
	free(text);
	text = NULL;
	mf = open_memstream(&text, &n);
	simcfg_print(&f, mf);
	fclose(mf);
	ck_assert_ptr_nonnull(strstr(text, "\nfiber_xbar_width = 1"));
	ck_assert_ptr_nonnull(strstr(text, "\nsm_model = fiber"));
	free(text);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Timing.
 */
/* no V source: the FIBER model times the kernel exactly as the SIMT model */
START_TEST(test_tfiber_plain_same_as_simt)
{
	Run a, f;
	const char *body = "        IADD3 R12, R12, R0, RZ ;\n        FADD R12, R12, 1.5 ;\n";

	run(&a, body, "a100", NULL);
	run(&f, body, "a100-fiber", NULL);
	ck_assert_int_eq(a.st.fiber, 0);
	ck_assert_int_eq(f.st.fiber, 1);
	ck_assert_uint_eq(a.st.cycles, f.st.cycles);
	ck_assert_uint_eq(a.st.warp_instructions, f.st.warp_instructions);
	ck_assert_uint_eq(f.st.fiber_remote_reads, 0);
	ck_assert_int_eq(memcmp(a.val, f.val, sizeof a.val), 0);
	ck_assert_uint_eq(a.st.nfiber_tl, 0);
	ck_assert_uint_ge(f.st.nfiber_tl, 2);
	ck_assert_uint_eq(f.st.fiber_tl[0].cycle, 0);
	ck_assert_uint_eq(f.st.fiber_tl[0].fibers, 128);
	ck_assert_uint_eq(f.st.fiber_tl[f.st.nfiber_tl - 1].cycle, f.st.cycles);
	ck_assert_uint_eq(f.st.fiber_tl[f.st.nfiber_tl - 1].fibers, 0);
	done(&a);
	done(&f);
}
END_TEST

START_TEST(test_tfiber_remote_reads)
{
	Run a, f;

	run(&a, remote_body, "a100", NULL);
	run(&f, remote_body, "a100-fiber", NULL);
	ck_assert_int_eq(memcmp(a.val, f.val, sizeof a.val), 0);
	ck_assert_uint_eq(a.st.fiber_remote_reads, 0);
	/* 5 remote source registers per warp, 4 warps */
	ck_assert_uint_eq(f.st.fiber_remote_reads, 20);
	/* through the crossbar: every read of another sub-partition's slice; warp 0 (sub-partition
	 * 0) all 5, warp 1 (slice 1 is its own) V1100 and V1600, warps 2 and 3 4 each */
	ck_assert_uint_eq(f.st.fiber_xbar_reads, 5 + 2 + 4 + 4);
	/* V600 and V602 are bank 0 of slice 1, read by all four warps with one read port for the
	 * four sub-partitions together: the arbiter serialises reads in every warp */
	ck_assert_uint_ge(f.st.fiber_rpa_conflicts, 4);
	ck_assert_uint_gt(f.st.cpi[CpiRemoteRead], 0);
	ck_assert_uint_eq(a.st.cpi[CpiRemoteRead], 0);
	ck_assert_uint_gt(f.st.cycles, a.st.cycles);
	done(&a);
	done(&f);
}
END_TEST

/* a V source waits for the write to it in flight (MUFU: variable latency), which the SIMT model,
 * without a register unit for V, does not see */
START_TEST(test_tfiber_v_dependence)
{
	static const char body[] =
		"        I2F R9, R0 ;\n"
		"        MUFU.RCP R8, R9 ;\n"
		"        FADD R12, V8, 1 ;\n";
	Run a, f;

	run(&a, body, "a100", NULL);
	run(&f, body, "a100-fiber", NULL);
	ck_assert_uint_gt(f.st.cycles, a.st.cycles);
	ck_assert_uint_gt(f.st.cpi[CpiWaitLong], a.st.cpi[CpiWaitLong]);
	/* V8 is weft 0's own R8: a remote read for wefts 1-3 only, in slice 0 (weft 0's) */
	ck_assert_uint_eq(f.st.fiber_remote_reads, 3);
	done(&a);
	done(&f);
}
END_TEST

/* each key changes its statistic */
START_TEST(test_tfiber_keys)
{
	static const char *const rs0[] = {"fiber_rs=0", NULL};
	static const char *const ports2[] = {"fiber_read_ports=2", NULL};
	static const char *const ports8[] = {"fiber_read_ports=8", NULL};
	static const char *const wide[] = {"fiber_xbar_width=4", NULL};
	static const char *const slow[] = {"fiber_xbar_latency=20", NULL};
	Run f, r;

	run(&f, remote_body, "a100-fiber", NULL);
	run(&r, remote_body, "a100-fiber", rs0);
	/* each weft loads each remote value once (V600 for the FFMA serves the FADD): 4 a weft */
	ck_assert_uint_eq(r.st.fiber_rs_smem_reads, 16);
	ck_assert_uint_eq(f.st.fiber_rs_smem_reads, 0);
	ck_assert_uint_gt(r.st.cycles, f.st.cycles);
	ck_assert_int_eq(memcmp(f.val, r.val, sizeof f.val), 0);
	done(&r);
	/* the four warps read bank 0 of slice 1 (V600, V602) at once: two ports halve the
	 * conflicts, eight (every read of a cycle) remove them */
	run(&r, remote_body, "a100-fiber", ports2);
	ck_assert_uint_lt(r.st.fiber_rpa_conflicts, f.st.fiber_rpa_conflicts);
	done(&r);
	run(&r, remote_body, "a100-fiber", ports8);
	ck_assert_uint_eq(r.st.fiber_rpa_conflicts, 0);
	done(&r);
	run(&r, remote_body, "a100-fiber", wide);
	ck_assert_uint_eq(r.st.fiber_xbar_conflicts, 0);
	ck_assert_uint_le(r.st.cycles, f.st.cycles);
	done(&r);
	run(&r, remote_body, "a100-fiber", slow);
	ck_assert_uint_gt(r.st.cycles, f.st.cycles);
	done(&r);
	done(&f);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * FIBER state: SETFIBERNUM, busy-bit waits (kernels of tests/check_simfiber.c).
 */
typedef FsRun FRun;

static uint32_t fgrid = 1;  /* CTAs of frun's launches */

/* kernel `kern` with dirs in its header, fgrid CTAs of nthreads on a100-fiber with edits set,
 * timed (fsrun.h) */
static int
frun(FRun *r, const char *dirs, const char *body, uint32_t nthreads, const char *const *set)
{
	return fs_run(r, "a100-fiber", dirs, body, fgrid, nthreads, set, 1);
}

static void
fdone(FRun *r)
{
	fs_done(r);
}

#define PROLOGUE \
	"        S2R R0, SR_FIBERID ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"

/* 64 fibers grow to 128, then shrink to 40 */
static const char updown[] = PROLOGUE
	"        IADD3 R8, R0, 0x1000, RZ ;\n"
	"        SETFIBERNUM 0x80 ;\n"
	"        S2R R0, SR_FIBERID ;\n"
	"        S2R R1, SR_FIBERNUM ;\n"
	"        MOV R4, c[0x0][0x160] ;\n"
	"        MOV R5, c[0x0][0x164] ;\n"
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	"        IADD3 R6, R8, R1, RZ ;\n"
	"        STG.E [R2.64], R6 ;\n"
	"        SETFIBERNUM 0x28 ;\n"
	"        S2R R1, SR_FIBERNUM ;\n"
	"        IADD3 R6, R0, R1, RZ ;\n"
	"        STG.E [R2.64+0x200], R6 ;\n"
	"        EXIT ;\n";

/* weft 0 produces R10 three times, weft 1 consumes it as V10 (the handshake of busy bits) */
static const char prodcons[] = PROLOGUE
	"        MOV R12, RZ ;\n"
	"        MOV R14, RZ ;\n"
	"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	"    @P0 BRA `(.L_cons) ;\n"
	".L_prod:\n"
	"        DEPBAR.EMPTY R10 ;\n"
	"        MUFU.RCP R9, R0 ;\n"
	"        IMAD R10, R0, 0x3, R12 ;\n"
	"        IADD3 R12, R12, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R12, 0x3, PT ;\n"
	"    @P1 BRA `(.L_prod) ;\n"
	"        EXIT ;\n"
	".L_cons:\n"
	"        DEPBAR.FULL V10 ;\n"
	"        IADD3 R14, R14, V10, RZ ;\n"
	"        SETBUSYBIT.EMPTY V10 ;\n"
	"        IADD3 R12, R12, 0x1, RZ ;\n"
	"        ISETP.LT.U32.AND P1, PT, R12, 0x3, PT ;\n"
	"    @P1 BRA `(.L_cons) ;\n"
	"        STG.E [R2.64], R14 ;\n"
	"        EXIT ;\n";

/* SETFIBERNUM up and down: counted twice with its cycles, outputs right, the timeline's peak
 * is 128 fibers (4 wefts' windows), its last sample 0 at the end, fiber_sync charged */
START_TEST(test_tfiber_setfibernum)
{
	FRun r;
	int rc = frun(&r, "\t.maxfibers\t128\n", updown, 64, NULL);
	uint32_t peak = 0, peak_regs = 0, first_regs;

	ck_assert_msg(rc == 0, "%s", r.f.msg);
	for (uint32_t t = 0; t < 128; t++) {
		ck_assert_msg(r.val[t] == (t < 64 ? 0x1000 + t + 128 : 128), "fiber %u: 0x%x", t,
		              r.val[t]);
		ck_assert_uint_eq(r.val[128 + t], t < 40 ? t + 40 : 0xdeadbeef);
	}
	ck_assert_uint_eq(r.st.fiber_setfibernum, 2);
	ck_assert_uint_gt(r.st.fiber_setfibernum_cycles, 0);
	ck_assert_str_eq(r.st.occupancy_limit, "fiber");
	ck_assert_uint_ge(r.st.nfiber_tl, 4);
	ck_assert_uint_eq(r.st.fiber_tl[0].cycle, 0);
	ck_assert_uint_eq(r.st.fiber_tl[0].fibers, 64);
	first_regs = r.st.fiber_tl[0].regs;
	ck_assert_uint_gt(first_regs, 0);
	for (uint32_t k = 0; k < r.st.nfiber_tl; k++) {
		if (r.st.fiber_tl[k].fibers > peak)
			peak = r.st.fiber_tl[k].fibers;
		if (r.st.fiber_tl[k].regs > peak_regs)
			peak_regs = r.st.fiber_tl[k].regs;
		if (k)
			ck_assert_uint_ge(r.st.fiber_tl[k].cycle, r.st.fiber_tl[k - 1].cycle);
	}
	ck_assert_uint_eq(peak, 128);
	ck_assert_uint_eq(peak_regs, 2 * first_regs);     /* 4 windows, then 2 */
	ck_assert_uint_eq(r.st.fiber_tl[r.st.nfiber_tl - 1].fibers, 0);
	ck_assert_uint_eq(r.st.fiber_tl[r.st.nfiber_tl - 1].cycle, r.st.cycles);
	{
		int found = 0;
		for (uint32_t k = 1; k + 1 < r.st.nfiber_tl; k++)
			found |= r.st.fiber_tl[k].fibers == 40;
		ck_assert_msg(found, "no sample of 40 fibers");
	}
	ck_assert_uint_gt(r.st.cpi[CpiFiberSync], 0);
	fdone(&r);
}
END_TEST

/* the setfibernum key adds its cycles to every weft that resumes or starts; fiber_dp = 0 keeps
 * the count (64) in the timeline while still synchronising */
START_TEST(test_tfiber_setfibernum_keys)
{
	static const char *const cheap[] = {"fiber_setfibernum_cycles=0", NULL};
	static const char *const dear[] = {"fiber_setfibernum_cycles=500", NULL};
	static const char *const dp0[] = {"fiber_dp=0", NULL};
	FRun a, b, c;

	ck_assert_int_eq(frun(&a, "\t.maxfibers\t128\n", updown, 64, cheap), 0);
	ck_assert_int_eq(frun(&b, "\t.maxfibers\t128\n", updown, 64, dear), 0);
	ck_assert_uint_ge(b.st.cycles, a.st.cycles + 2 * 500);
	/* 500 more for each weft that resumes or starts after a release: 2 survivors and 2 new
	 * wefts at the first, 2 survivors at the second (the retired wefts end at the release);
	 * the waiting is the same in both runs */
	ck_assert_uint_eq(b.st.fiber_setfibernum_cycles, a.st.fiber_setfibernum_cycles + 6 * 500);
	ck_assert_int_eq(memcmp(a.val, b.val, sizeof a.val), 0);
	ck_assert_int_eq(frun(&c, "\t.maxfibers\t128\n", updown, 64, dp0), 0);
	ck_assert_uint_eq(c.st.fiber_setfibernum, 2);
	ck_assert_uint_eq(c.st.fiber_tl[0].fibers, 64);
	for (uint32_t k = 0; k < c.st.nfiber_tl; k++)   /* 64 until the CTA ends, then 0 */
		ck_assert_msg(c.st.fiber_tl[k].fibers == (k && c.st.fiber_tl[k].regs == 0 ? 0 : 64),
		              "sample %u: %u fibers, %u registers", k, c.st.fiber_tl[k].fibers,
		              c.st.fiber_tl[k].regs);
	for (uint32_t t = 0; t < 128; t++)
		ck_assert_uint_eq(c.val[t], t < 64 ? 0x1000 + t + 64 : 0xdeadbeef);
	fdone(&a);
	fdone(&b);
	fdone(&c);
}
END_TEST

/* producer/consumer: the consumer waits on busy bits (busy_wait charged, waits counted), the
 * sums right; fiber_busy_wake adds to each wait; fiber_fs = 0 costs more cycles */
START_TEST(test_tfiber_busy_wait)
{
	static const char *const wake0[] = {"fiber_busy_wake=0", NULL};
	static const char *const wake50[] = {"fiber_busy_wake=50", NULL};
	static const char *const fs0[] = {"fiber_fs=0", NULL};
	FRun a, b, c;

	ck_assert_msg(frun(&a, "", prodcons, 64, wake0) == 0, "%s", a.f.msg);
	for (uint32_t l = 0; l < 32; l++) {
		ck_assert_uint_eq(a.val[l], 0xdeadbeef);
		ck_assert_msg(a.val[32 + l] == 9 * l + 3, "lane %u: %u", l, a.val[32 + l]);
	}
	ck_assert_uint_gt(a.st.fiber_busy_waits, 0);
	ck_assert_uint_gt(a.st.fiber_busy_wait_cycles, 0);
	ck_assert_uint_gt(a.st.cpi[CpiBusyWait], 0);
	ck_assert_msg(frun(&b, "", prodcons, 64, wake50) == 0, "%s", b.f.msg);
	ck_assert_int_eq(memcmp(a.val, b.val, sizeof a.val), 0);
	ck_assert_uint_ge(b.st.fiber_busy_wait_cycles, a.st.fiber_busy_wait_cycles +
	                  50 * b.st.fiber_busy_waits);
	ck_assert_uint_gt(b.st.cycles, a.st.cycles);
	ck_assert_msg(frun(&c, "", prodcons, 64, fs0) == 0, "%s", c.f.msg);
	ck_assert_int_eq(memcmp(a.val, c.val, sizeof a.val), 0);
	ck_assert_uint_gt(c.st.cycles, a.st.cycles);
	fdone(&a);
	fdone(&b);
	fdone(&c);
}
END_TEST

/* a weft waiting on a register nobody writes: the deadlock names it */
START_TEST(test_tfiber_busy_deadlock)
{
	FRun r;

	ck_assert_int_ne(frun(&r, "", PROLOGUE
	                      "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	                      "    @P0 EXIT ;\n"
	                      "        DEPBAR.FULL V1000 ;\n"
	                      "        EXIT ;\n", 64, NULL), 0);
	ck_assert_int_eq(r.f.kind, FaultDeadlock);
	ck_assert_msg(strstr(r.f.msg, "V1000 empty") != NULL, "%s", r.f.msg);
	fdone(&r);
}
END_TEST

/* windows by slice: weft w in sub-partition w % 4 (weft 1's R10 is V522 with 64 threads) */
START_TEST(test_tfiber_placement)
{
	FRun r;

	ck_assert_msg(frun(&r, "", PROLOGUE
	                   "        MOV R10, R0 ;\n"
	                   "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	                   "        IADD3 R6, V522, RZ, RZ ;\n"
	                   "        STG.E [R2.64], R6 ;\n"
	                   "        EXIT ;\n", 64, NULL) == 0, "%s", r.f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(r.val[t], 32 + t % 32);
	ck_assert_uint_gt(r.st.fiber_remote_reads, 0);   /* weft 0 reads slice 1 */
	fdone(&r);
}
END_TEST

/* FIBER occupancy: weft contexts per sub-partition, registers per slice, one CTA for a kernel
 * with SETFIBERNUM (test_tfiber_setfibernum); a CTA whose wefts exceed the contexts does not fit */
START_TEST(test_tfiber_occupancy)
{
	static const char *const ctx4[] = {"fiber_contexts=4", NULL};
	static const char *const ctx1[] = {"fiber_contexts=1", NULL};
	static const char *const slice64[] = {"fiber_slice_regs=64", NULL};
	FRun a, b, c, d;
	const char *body = PROLOGUE "        STG.E [R2.64], R0 ;\n        EXIT ;\n";

	ck_assert_int_eq(frun(&a, "", body, 128, NULL), 0);
	ck_assert_int_eq(frun(&b, "", body, 128, ctx4), 0);
	ck_assert_uint_eq(b.st.ctas_per_sm, 4);            /* one weft per sub-partition per CTA */
	ck_assert_str_eq(b.st.occupancy_limit, "contexts");
	ck_assert_uint_gt(a.st.ctas_per_sm, b.st.ctas_per_sm);
	ck_assert_int_eq(frun(&c, "", body, 128, slice64), 0);
	ck_assert_str_eq(c.st.occupancy_limit, "registers");
	ck_assert_uint_eq(c.st.ctas_per_sm, 64 / ((c.k->nreg + 7) / 8 * 8));
	ck_assert_int_ne(frun(&d, "\t.maxfibers\t256\n", body, 128, ctx1), 0);
	ck_assert_int_eq(d.f.kind, FaultLimit);
	ck_assert_msg(strstr(d.f.msg, "contexts") != NULL, "%s", d.f.msg);
	fdone(&a);
	fdone(&b);
	fdone(&c);
	fdone(&d);
}
END_TEST

/* several CTAs per SM, one after another: each CTA's windows are freed when it ends and the next
 * CTA's are placed in them (the timeline never holds more than two CTAs' registers) */
START_TEST(test_tfiber_cta_reuse)
{
	static const char *const set[] = {"sms=1", "fiber_contexts=2", NULL};
	FRun r;
	uint32_t peak = 0, first;

	fgrid = 6;
	ck_assert_msg(frun(&r, "", PROLOGUE
	                   "        S2R R9, SR_CTAID.X ;\n"
	                   "        IMAD R1, R9, 0x40, R0 ;\n"
	                   "        IMAD.WIDE.U32 R2, R1, 0x4, R4 ;\n"
	                   "        IADD3 R6, R1, 0x7, RZ ;\n"
	                   "        STG.E [R2.64], R6 ;\n"
	                   "        EXIT ;\n", 64, set) == 0, "%s", r.f.msg);
	fgrid = 1;
	for (uint32_t t = 0; t < 6 * 64; t++)
		ck_assert_uint_eq(r.val[t], t + 7);
	/* 2 wefts: every CTA's weft 0 is in sub-partition 0, which holds 2 contexts */
	ck_assert_uint_eq(r.st.ctas_per_sm, 2);
	ck_assert_str_eq(r.st.occupancy_limit, "contexts");
	first = r.st.fiber_tl[0].regs;
	ck_assert_uint_eq(r.st.fiber_tl[0].fibers, 2 * 64);
	for (uint32_t k = 0; k < r.st.nfiber_tl; k++) {
		if (r.st.fiber_tl[k].regs > peak)
			peak = r.st.fiber_tl[k].regs;
		ck_assert_uint_le(r.st.fiber_tl[k].fibers, 2 * 64);
	}
	ck_assert_uint_eq(peak, first);
	ck_assert_uint_ge(r.st.nfiber_tl, 4);
	ck_assert_uint_eq(r.st.fiber_tl[r.st.nfiber_tl - 1].regs, 0);
	fdone(&r);
}
END_TEST

/* fiber_fs = 0: a DEPBAR.FULL whose register is already Full still waits for the CTA (weft 1's
 * loop, then its exit); with fiber_fs = 1 it costs an instruction */
START_TEST(test_tfiber_fs0_holds)
{
	static const char *const fs0[] = {"fiber_fs=0", NULL};
	static const char body[] = PROLOGUE
		"        MOV R12, RZ ;\n"
		"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
		"    @P0 BRA `(.L_loop) ;\n"
		"        MOV R10, R0 ;\n"
		"        DEPBAR.FULL R10 ;\n"
		"        STG.E [R2.64], R10 ;\n"
		"        EXIT ;\n"
		".L_loop:\n"
		"        IADD3 R12, R12, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P1, PT, R12, 0x40, PT ;\n"
		"    @P1 BRA `(.L_loop) ;\n"
		"        STG.E [R2.64], R12 ;\n"
		"        EXIT ;\n";
	FRun a, b;

	ck_assert_msg(frun(&a, "", body, 64, NULL) == 0, "%s", a.f.msg);
	ck_assert_msg(frun(&b, "", body, 64, fs0) == 0, "%s", b.f.msg);
	ck_assert_int_eq(memcmp(a.val, b.val, sizeof a.val), 0);
	ck_assert_uint_eq(a.val[3], 3);
	ck_assert_uint_eq(a.val[40], 0x40);
	ck_assert_uint_eq(a.st.fiber_busy_waits, 0);
	ck_assert_uint_eq(b.st.fiber_busy_waits, 1);
	ck_assert_uint_gt(b.st.fiber_busy_wait_cycles, 64);   /* the loop's 64 rounds at least */
	ck_assert_uint_gt(b.st.cpi[CpiBusyWait], 0);
	fdone(&a);
	fdone(&b);
}
END_TEST

/* the timing driver asks the model whether it is FIBER (SmModel.fiber): a device made from
 * another configuration than the launch's, with the other semantics, is refused, both ways */
START_TEST(test_tfiber_device_mismatch)
{
	static const char *const pairs[][2] = {{"a100", "a100-fiber"}, {"a100-fiber", "a100"}};
	char text[4096];

	listing(text, sizeof text, "");
	for (unsigned i = 0; i < 2; i++) {
		SimConfig dev, cfg;
		Src *src = src_new("tfiber.sass", text, strlen(text));
		Diag d;
		Module *m;
		Gpu *g;
		SimModule *sm;
		SimTStats st;
		SimFault f;
		uint64_t out;
		LaunchParams lp = { { 1, 1, 1 }, { 128, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };

		ck_assert_int_eq(simcfg_builtin(&dev, pairs[i][0]), 0);
		ck_assert_int_eq(simcfg_builtin(&cfg, pairs[i][1]), 0);
		diag_init(&d, src, stderr);
		m = sass_parse(src, &d);
		ck_assert_ptr_nonnull(m);
		g = gpu_new(simcfg_gpu(&dev));
		sm = sim_module_load(g, m, &d);
		ck_assert_ptr_nonnull(sm);
		ck_assert_int_eq(gpu_malloc(g, 128 * 4, &out), 0);
		lp.params = &out;
		memset(&f, 0, sizeof f);
		ck_assert_int_eq(sim_launch_timed(g, &cfg, sm, sim_module_kernel(sm, "kern"), &lp, NULL,
		                                  &st, &f), -1);
		ck_assert_int_eq(f.kind, FaultInternal);
		ck_assert_msg(strstr(f.msg, i ? "the device has the FIBER semantics that SM model "
		                                "'simt' does not run with"
		                              : "the device lacks the FIBER semantics that SM model "
		                                "'fiber' needs") != NULL, "%s", f.msg);
		/* with the device made from the launch's configuration it runs */
		simtstats_free(&st);
		sim_module_free(sm);
		gpu_free(g);
		g = gpu_new(simcfg_gpu(&cfg));
		sm = sim_module_load(g, m, &d);
		ck_assert_int_eq(gpu_malloc(g, 128 * 4, &out), 0);
		ck_assert_int_eq(sim_launch_timed(g, &cfg, sm, sim_module_kernel(sm, "kern"), &lp, NULL,
		                                  &st, &f), 0);
		simtstats_free(&st);
		sim_module_free(sm);
		gpu_free(g);
		module_free(m);
		src_free(src);
	}
}
END_TEST

Suite *
tfiber_suite(void)
{
	Suite *s = suite_create("tfiber");
	TCase *tc = tcase_create("tfiber");

	tcase_add_test(tc, test_tfiber_configs);
	tcase_add_test(tc, test_tfiber_plain_same_as_simt);
	tcase_add_test(tc, test_tfiber_remote_reads);
	tcase_add_test(tc, test_tfiber_keys);
	tcase_add_test(tc, test_tfiber_v_dependence);
	tcase_add_test(tc, test_tfiber_setfibernum);
	tcase_add_test(tc, test_tfiber_setfibernum_keys);
	tcase_add_test(tc, test_tfiber_busy_wait);
	tcase_add_test(tc, test_tfiber_busy_deadlock);
	tcase_add_test(tc, test_tfiber_placement);
	tcase_add_test(tc, test_tfiber_occupancy);
	tcase_add_test(tc, test_tfiber_cta_reuse);
	tcase_add_test(tc, test_tfiber_fs0_holds);
	tcase_add_test(tc, test_tfiber_device_mismatch);
	suite_add_tcase(s, tc);
	return s;
}
