/* check_fibermech.c: one micro-kernel per mechanism of the FIBER SM (docs/fiber-sm.md): each
 * kernel's cycles or statistic against the figure its documented parameters give, so that a
 * test fails when timing/fsm.c, fread.c or fnors.c drift from the page. Inline listings without
 * encodings (the register scoreboard), the instruction cache off, a100-fiber with the edits each
 * test names. Most expectations are differences between two kernels that differ in the mechanism
 * only, so that they follow from the mechanism's parameters and nothing else.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "timing.h"

typedef struct MRun {
	Src *src;              /* the listing */
	Module *m;             /* parsed */
	Diag d;                /* its diagnostics, to err */
	FILE *errf;            /* memory stream of err */
	char *err;             /* diagnostics text */
	size_t nerr;           /* its length */
	Gpu *g;                /* the device (a100-fiber's semantics) */
	SimModule *sm;         /* the loaded module */
	uint64_t out;          /* device buffer: 512 words, parameter 0 */
	SimTStats st;          /* the launch's statistics */
	SimFault f;            /* its fault, if any */
} MRun;

static const char *mcfg = "a100-fiber";   /* the configuration of mrun's launches */

/* kernel `kern` (header dirs, body) on mcfg with edits set (NULL-terminated), one CTA of
 * nthreads: the launch's return code */
static int
mrun(MRun *r, const char *dirs, const char *body, uint32_t nthreads, const char *const *set)
{
	char text[16384], err[512];
	SimConfig c;
	LaunchParams lp = { { 1, 1, 1 }, { nthreads, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };

	memset(r, 0, sizeof *r);
	snprintf(text, sizeof text, "\t.section\t.text.kern,\"ax\",@progbits\n%skern:\n%s", dirs,
	         body);
	ck_assert_int_eq(simcfg_builtin(&c, mcfg), 0);
	for (; set && *set; set++)
		ck_assert_msg(simcfg_set(&c, *set, err, sizeof err) == 0, "%s", err);
	c.t.icache_bytes = 0;
	r->src = src_new("mech.fsass", text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "load failed:\n%s", r->err);
	ck_assert_int_eq(gpu_malloc(r->g, 512 * 4, &r->out), 0);
	lp.params = &r->out;
	return sim_launch_timed(r->g, &c, r->sm, sim_module_kernel(r->sm, "kern"), &lp, NULL,
	                        &r->st, &r->f);
}

static void
mdone(MRun *r)
{
	simtstats_free(&r->st);
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
}

/* run and insist it ran */
static void
mok(MRun *r, const char *dirs, const char *body, uint32_t nthreads, const char *const *set)
{
	int rc = mrun(r, dirs, body, nthreads, set);

	ck_assert_msg(rc == 0, "%s", r->f.msg);
}

/* body, n copies of line, tail: into buf */
static const char *
repeat(char *buf, size_t size, const char *head, const char *line, unsigned n, const char *tail)
{
	size_t at = (size_t)snprintf(buf, size, "%s", head);

	for (unsigned k = 0; k < n && at < size; k++)
		at += (size_t)snprintf(buf + at, size - at, "%s", line);
	if (at < size)
		snprintf(buf + at, size - at, "%s", tail);
	ck_assert_uint_lt(at, size);
	return buf;
}

#define HEAD \
	"        S2R R0, SR_FIBERID ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n" \
	"        MOV R10, RZ ;\n"
#define TAIL \
	"        STG.E [R2.64], R10 ;\n" \
	"        EXIT ;\n"

/* cycles of one weft running a chain of n `IADD3 R10, R10, <srcs>` (srcs: two sources; each link
 * needs the one before), with edits set */
static uint64_t
chain(const char *src, unsigned n, const char *const *set, SimTStats *st)
{
	char line[128], body[16384];
	MRun r;
	uint64_t cyc;

	snprintf(line, sizeof line, "        IADD3 R10, R10, %s ;\n", src);
	mok(&r, "", repeat(body, sizeof body, HEAD, line, n, TAIL), 32, set);
	cyc = r.st.cycles;
	if (st) {                             /* the counters; the timeline stays r's */
		*st = r.st;
		st->fiber_tl = NULL;
		st->nfiber_tl = 0;
	}
	mdone(&r);
	return cyc;
}

/* ---------------------------------------------------------------------------------------------
 * The crossbar: fiber_xbar_latency on the operand, not on the weft's next issue.
 */

/* a chain through a register of another sub-partition's slice (V601: slice 1, bank 1; weft 0 is
 * in sub-partition 0) against the same chain through its own slice (V9: its window's R9, bank
 * 1): each link's operand arrives fiber_xbar_latency later, so the chain of n is n x that
 * longer; a value read, one crossbar read, no conflict per link */
START_TEST(test_mech_xbar_operand_latency)
{
	static const char *const lat[][2] = {
		{"fiber_xbar_latency=0", NULL}, {"fiber_xbar_latency=2", NULL},
		{"fiber_xbar_latency=4", NULL}};
	const unsigned n = 32;

	for (unsigned k = 0; k < 3; k++) {
		SimTStats s;
		uint64_t local = chain("V9, RZ", n, lat[k], NULL);
		uint64_t remote = chain("V601, RZ", n, lat[k], &s);
		ck_assert_msg(remote == local + n * 2 * k, "latency %u: %llu cycles, local %llu",
		              2 * k, (unsigned long long)remote, (unsigned long long)local);
		ck_assert_uint_eq(s.fiber_remote_reads, n);
		ck_assert_uint_eq(s.fiber_xbar_reads, n);
		ck_assert_uint_eq(s.fiber_xbar_conflicts, 0);
		ck_assert_uint_eq(s.fiber_rpa_conflicts, 0);
	}
}
END_TEST

/* independent instructions with a remote source pipeline through the crossbar: n of them (8
 * destinations in turn, so no write waits for an earlier one), then one consumer of the last,
 * take fiber_xbar_latency more than the same with sources of the weft's own slice (the last
 * operand's delay), not n times it */
START_TEST(test_mech_xbar_pipelined)
{
	static const char *const lat4[] = {"fiber_xbar_latency=4", NULL};
	char body[2][16384], line[2][1024];
	const unsigned n = 8;
	MRun a, b;

	for (unsigned v = 0; v < 2; v++) {
		size_t at = 0;
		for (unsigned k = 0; k < 8; k++)
			at += (size_t)snprintf(line[v] + at, sizeof line[v] - at,
			                       "        IADD3 R%u, V%u, 0x1, RZ ;\n", 12 + k,
			                       v ? 9 : 601);
		repeat(body[v], sizeof body[v], HEAD, line[v], n,
		       "        IADD3 R10, R19, RZ, RZ ;\n" TAIL);
	}
	mok(&a, "", body[0], 32, lat4);
	mok(&b, "", body[1], 32, lat4);
	ck_assert_msg(a.st.cycles == b.st.cycles + 4, "remote %llu, local %llu",
	              (unsigned long long)a.st.cycles, (unsigned long long)b.st.cycles);
	ck_assert_uint_eq(a.st.fiber_remote_reads, 8 * n);
	ck_assert_uint_gt(a.st.cpi[CpiRemoteRead], 0);
	mdone(&a);
	mdone(&b);
}
END_TEST

/* n independent instructions, int and fp32 pipes in turn (each pipe takes one every 2 cycles,
 * so the weft could issue every cycle; eight destinations in turn, each written no sooner than
 * the write before it completes), each reading src[0] and src[1] (IADD3) or src[2] and src[3]
 * (FADD), on nthreads: the cycles that n more of them add (the slope, free of the edges) */
static uint64_t
stream(const char *const src[4], unsigned n, uint32_t nthreads, const char *const *set,
       SimTStats *st)
{
	char line[1024], body[32768];
	uint64_t cyc[2];

	for (unsigned k = 0; k < 2; k++) {
		MRun r;
		size_t at = 0;
		for (unsigned j = 0; j < 8; j++)
			at += (size_t)snprintf(line + at, sizeof line - at, j % 2 ?
			                       "        FADD R%u, %s, %s ;\n" :
			                       "        IADD3 R%u, %s, %s, RZ ;\n", 12 + j,
			                       src[j % 2 * 2], src[j % 2 * 2 + 1]);
		mok(&r, "", repeat(body, sizeof body, HEAD, line, (k + 1) * n / 8, TAIL), nthreads,
		    set);
		cyc[k] = r.st.cycles;
		if (k && st) {                /* the counters; the timeline stays r's */
			*st = r.st;
			st->fiber_tl = NULL;
			st->nfiber_tl = 0;
		}
		mdone(&r);
	}
	return cyc[1] - cyc[0];
}

/* fiber_xbar_width registers per cycle per slice port: two sources in one other slice (V601,
 * V602 in slice 1; V1601, V1602 in slice 3) share its port, the second a cycle later, a cycle of
 * hold on each instruction (n more cycles for n more instructions), against sources in two
 * slices each (no conflict: one instruction a cycle); a width of 2 carries both. The conflict
 * holds the weft but does not delay the operand: a chain of them times as the chain without */
START_TEST(test_mech_xbar_width)
{
	static const char *const w2[] = {"fiber_xbar_width=2", NULL};
	static const char *const one_src[4] = {"V601", "V602", "V1601", "V1602"};
	static const char *const two_src[4] = {"V601", "V1090", "V1601", "V1100"};
	const unsigned n = 64;
	SimTStats s;
	uint64_t one = stream(one_src, n, 32, NULL, &s), two = stream(two_src, n, 32, NULL, NULL);

	ck_assert_msg(two == n && one == 2 * n, "%u more instructions: %llu cycles in one slice, "
	              "%llu in two", n, (unsigned long long)one, (unsigned long long)two);
	ck_assert_uint_eq(s.fiber_xbar_conflicts, 2 * n);     /* the run of 2n */
	ck_assert_uint_eq(s.fiber_xbar_reads, 2 * 2 * n);
	ck_assert_uint_eq(stream(one_src, n, 32, w2, &s), n);
	ck_assert_uint_eq(s.fiber_xbar_conflicts, 0);
	ck_assert_uint_eq(chain("V601, V602", 16, NULL, NULL), chain("V601, V1090", 16, NULL, NULL));
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Read ports: every read, local or remote, R or V, through its slice's bank.
 */

/* a V source of the weft's own slice goes through the bank like an R source: V8 beside R10 (both
 * bank 0 of slice 0) costs what R8 beside R10 costs under the SIMT bank model (rf_bank_bubble
 * 1: one cycle an instruction), against V8 beside R11 (banks 0 and 1: one instruction a cycle) */
START_TEST(test_mech_port_local_v_as_r)
{
	static const char *const vsrc[4] = {"V8", "R10", "V9", "R11"};
	static const char *const rsrc[4] = {"R8", "R10", "R9", "R11"};
	static const char *const free_src[4] = {"V8", "R11", "V9", "R10"};
	const unsigned n = 64;
	SimTStats s;
	uint64_t v = stream(vsrc, n, 32, NULL, &s), r = stream(rsrc, n, 32, NULL, NULL);
	uint64_t f = stream(free_src, n, 32, NULL, NULL);

	ck_assert_msg(v == 2 * n && r == 2 * n && f == n, "%u more instructions: %llu cycles (V), "
	              "%llu (R), %llu (no conflict)", n, (unsigned long long)v,
	              (unsigned long long)r, (unsigned long long)f);
	ck_assert_uint_eq(s.fiber_remote_reads, 0);
}
END_TEST

/* fiber_read_ports per bank per cycle, for the four sub-partitions together: two wefts
 * (sub-partitions 0 and 1) each reading bank 0 of slice 2 (V1030, V1032) every cycle need two
 * reads a cycle of a bank with one port: 2 cycles an instruction, against 1 for one weft alone;
 * with two ports they time as one weft alone (slice 2's crossbar port carries 2 registers a
 * cycle here, so that it does not serialise them first; test_mech_xbar_shared) */
START_TEST(test_mech_port_shared)
{
	static const char *const p1[] = {"fiber_xbar_width=2", NULL};
	static const char *const p2[] = {"fiber_xbar_width=2", "fiber_read_ports=2", NULL};
	static const char *const src[4] = {"V1030", "RZ", "V1032", "1"};
	const unsigned n = 64;
	SimTStats s;
	uint64_t one = stream(src, n, 64, p1, &s), alone = stream(src, n, 32, p1, NULL);

	ck_assert_msg(alone == n && one == 2 * n, "%u more instructions: %llu cycles (two wefts), "
	              "%llu (alone)", n, (unsigned long long)one, (unsigned long long)alone);
	ck_assert_uint_ge(s.fiber_rpa_conflicts, 2 * n);
	ck_assert_uint_eq(stream(src, n, 64, p2, &s), n);
	ck_assert_uint_eq(s.fiber_rpa_conflicts, 0);
}
END_TEST

/* a slice's crossbar port serves the four sub-partitions together: two wefts (sub-partitions 0
 * and 1) reading slice 2 every cycle through a port of width 1 take 2 cycles an instruction
 * (with two read ports, so that the banks do not serialise them first); width 2: 1 */
START_TEST(test_mech_xbar_shared)
{
	static const char *const w1[] = {"fiber_read_ports=2", NULL};
	static const char *const w2[] = {"fiber_read_ports=2", "fiber_xbar_width=2", NULL};
	static const char *const src[4] = {"V1030", "RZ", "V1032", "1"};
	const unsigned n = 64;
	SimTStats s;

	ck_assert_uint_eq(stream(src, n, 64, w1, &s), 2 * n);
	ck_assert_uint_ge(s.fiber_xbar_conflicts, 2 * n);
	ck_assert_uint_eq(s.fiber_rpa_conflicts, 0);
	ck_assert_uint_eq(stream(src, n, 64, w2, &s), n);
	ck_assert_uint_eq(s.fiber_xbar_conflicts, 0);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Busy bits: bitmap operations beside the scoreboard, no register data read.
 */

/* DEPBAR.EMPTY and SETBUSYBIT over 16 registers of other slices (V600, V1100) cost what they
 * cost over 16 of the weft's own slice (V100): no value read, no crossbar, no read port */
START_TEST(test_mech_busy_bitmap)
{
	char body[2][16384];
	const char *ops[2] = {
		"        DEPBAR.EMPTY V600, 0x10 ;\n        SETBUSYBIT.EMPTY V1100, 0x10 ;\n",
		"        DEPBAR.EMPTY V100, 0x10 ;\n        SETBUSYBIT.EMPTY V100, 0x10 ;\n"};
	MRun far, near;

	mok(&far, "", repeat(body[0], sizeof body[0], HEAD, ops[0], 16, TAIL), 32, NULL);
	mok(&near, "", repeat(body[1], sizeof body[1], HEAD, ops[1], 16, TAIL), 32, NULL);
	ck_assert_uint_eq(far.st.cycles, near.st.cycles);
	ck_assert_uint_eq(far.st.fiber_remote_reads, 0);
	ck_assert_uint_eq(far.st.fiber_xbar_reads, 0);
	ck_assert_uint_eq(far.st.fiber_xbar_conflicts, 0);
	ck_assert_uint_eq(far.st.fiber_rpa_conflicts, 0);
	mdone(&far);
	mdone(&near);
}
END_TEST

/* DEPBAR.FULL on a register whose write is in flight (MUFU: variable latency) waits for the
 * write to complete and fiber_busy_wake more: 7 cycles of wake add exactly 7 */
START_TEST(test_mech_busy_wake)
{
	static const char *const w0[] = {"fiber_busy_wake=0", NULL};
	static const char *const w7[] = {"fiber_busy_wake=7", NULL};
	static const char body[] = HEAD
		"        I2F R9, R0 ;\n"
		"        MUFU.RCP R10, R9 ;\n"
		"        DEPBAR.FULL R10 ;\n"
		TAIL;
	MRun a, b;

	mok(&a, "", body, 32, w0);
	mok(&b, "", body, 32, w7);
	ck_assert_msg(b.st.cycles == a.st.cycles + 7, "wake 7: %llu, wake 0: %llu",
	              (unsigned long long)b.st.cycles, (unsigned long long)a.st.cycles);
	ck_assert_uint_eq(b.st.fiber_remote_reads, 0);
	mdone(&a);
	mdone(&b);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * SETFIBERNUM: the release, window zeroing, context start, and what its statistic counts.
 */

/* one weft grows to 12 (SETFIBERNUM 0x180): the survivor (weft 0, sub-partition 0) resumes
 * 1 + fiber_setfibernum_cycles after the release; new weft j of a sub-partition (j = 1, 2, 3 in
 * slot order: sub-partition 0 gets wefts 4 and 8, sub-partitions 1-3 three each) starts
 * max(ceil(j W / (fiber_banks x fiber_write_ports)), j x fiber_ctx_start_cycles) later, W its
 * window. fiber.setfibernum_cycles adds each weft's cycles from the release on (the only weft
 * arrives last and waits for nobody) */
static uint64_t
grow_expect(unsigned s, unsigned w, unsigned banks, unsigned ports, unsigned ctx)
{
	static const unsigned per_sub[4] = {2, 3, 3, 3};
	uint64_t sum = 12ull * (1 + s);

	for (unsigned p = 0; p < 4; p++)
		for (unsigned j = 1; j <= per_sub[p]; j++) {
			uint64_t z = (j * w + banks * ports - 1) / (banks * ports), c = (uint64_t)j * ctx;
			sum += z > c ? z : c;
		}
	return sum;
}

static const char grow[] = HEAD
	"        SETFIBERNUM 0x180 ;\n"
	"        S2R R0, SR_FIBERID ;\n"
	"        MOV R4, c[0x0][0x160] ;\n"
	"        MOV R5, c[0x0][0x164] ;\n"
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	"        IADD3 R10, R0, 0x5, RZ ;\n"
	TAIL;

START_TEST(test_mech_setfibernum_grow)
{
	static const char *const sets[][4] = {
		{NULL},
		{"fiber_ctx_start_cycles=10", NULL},
		{"fiber_write_ports=4", "fiber_setfibernum_cycles=0", NULL},
		{"fiber_ctx_start_cycles=0", "fiber_write_ports=8", "fiber_banks=4", NULL}};
	static const unsigned want[][4] = {   /* s, banks, write ports, context start */
		{24, 2, 1, 1}, {24, 2, 1, 10}, {0, 2, 4, 1}, {24, 4, 8, 0}};
	uint64_t cyc[4];

	for (unsigned k = 0; k < 4; k++) {
		MRun r;
		unsigned w;
		mok(&r, "\t.maxfibers\t384\n", grow, 32, sets[k]);
		w = r.st.fiber_tl[0].regs;        /* one weft's window at launch */
		ck_assert_uint_gt(w, 0);
		ck_assert_uint_eq(r.st.fiber_setfibernum, 1);
		ck_assert_msg(r.st.fiber_setfibernum_cycles ==
		              grow_expect(want[k][0], w, want[k][1], want[k][2], want[k][3]),
		              "set %u: %llu cycles, window %u, expected %llu", k,
		              (unsigned long long)r.st.fiber_setfibernum_cycles, w,
		              (unsigned long long)grow_expect(want[k][0], w, want[k][1], want[k][2],
		                                              want[k][3]));
		cyc[k] = r.st.cycles;
		mdone(&r);
	}
	/* dearer context starts, cheaper zeroing: the run's length moves the same way */
	ck_assert_uint_gt(cyc[1], cyc[0]);
	ck_assert_uint_lt(cyc[2], cyc[0]);
}
END_TEST

/* fiber.setfibernum_cycles counts the waiting: weft 1 works k more dependent links before its
 * SETFIBERNUM, which moves the release by the cycles the run grows (d); weft 0, arrived first,
 * waits d longer, the rest is the same, so the statistic grows by d exactly */
START_TEST(test_mech_setfibernum_wait)
{
	char body[2][16384];
	const char *pre =
		"        S2R R0, SR_FIBERID ;\n"
		"        MOV R10, RZ ;\n"
		"        ISETP.LT.U32.AND P0, PT, R0, 0x20, PT ;\n"
		"    @P0 BRA `(.L_sync) ;\n";
	const char *post =
		".L_sync:\n"
		"        SETFIBERNUM 0x40 ;\n"
		"        S2R R0, SR_FIBERID ;\n"
		"        MOV R4, c[0x0][0x160] ;\n"
		"        MOV R5, c[0x0][0x164] ;\n"
		"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
		TAIL;
	MRun a, b;
	uint64_t d;

	mok(&a, "\t.maxfibers\t64\n", repeat(body[0], sizeof body[0], pre,
	    "        IADD3 R10, R10, 0x1, RZ ;\n", 4, post), 64, NULL);
	mok(&b, "\t.maxfibers\t64\n", repeat(body[1], sizeof body[1], pre,
	    "        IADD3 R10, R10, 0x1, RZ ;\n", 104, post), 64, NULL);
	ck_assert_uint_gt(b.st.cycles, a.st.cycles);
	d = b.st.cycles - a.st.cycles;
	ck_assert_msg(b.st.fiber_setfibernum_cycles == a.st.fiber_setfibernum_cycles + d,
	              "%llu and %llu cycles at SETFIBERNUM, the run %llu longer",
	              (unsigned long long)b.st.fiber_setfibernum_cycles,
	              (unsigned long long)a.st.fiber_setfibernum_cycles, (unsigned long long)d);
	ck_assert_uint_ge(a.st.fiber_setfibernum_cycles, 2ull * 25);
	mdone(&a);
	mdone(&b);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The RS ablation and the occupancy decision.
 */

/* fiber_rs = 0 on a producer/consumer pair (weft 0 writes R10 three times, weft 1 reads it as
 * V10 under busy bits): the consumer loads each of the 3 values once from shared memory; each
 * value's way through shared memory costs at most its store becoming visible (lat_lds after the
 * value), its load (lat_lds, 128 bytes at 128 per cycle) and the two issue slots more than the
 * register path, and something more than nothing */
START_TEST(test_mech_rs_ablation)
{
	static const char *const rs0[] = {"fiber_rs=0", NULL};
	static const char body[] =
		"        S2R R0, SR_FIBERID ;\n"
		"        MOV R4, c[0x0][0x160] ;\n"
		"        MOV R5, c[0x0][0x164] ;\n"
		"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
		"        MOV R12, RZ ;\n"
		"        MOV R14, RZ ;\n"
		"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
		"    @P0 BRA `(.L_cons) ;\n"
		".L_prod:\n"
		"        DEPBAR.EMPTY R10 ;\n"
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
	SimConfig c;
	MRun a, b;
	uint64_t lds;

	ck_assert_int_eq(simcfg_builtin(&c, "a100-fiber"), 0);
	lds = c.t.lat_lds;
	mok(&a, "", body, 64, NULL);
	mok(&b, "", body, 64, rs0);
	ck_assert_uint_eq(a.st.fiber_rs_smem_reads, 0);
	ck_assert_uint_eq(b.st.fiber_rs_smem_reads, 3);
	ck_assert_uint_eq(a.st.fiber_remote_reads, 3);      /* values: the 3 reads of V10 */
	ck_assert_uint_gt(b.st.cycles, a.st.cycles);
	ck_assert_msg(b.st.cycles - a.st.cycles <= 3 * (2 * lds + 2), "rs=0 %llu, rs=1 %llu",
	              (unsigned long long)b.st.cycles, (unsigned long long)a.st.cycles);
	mdone(&a);
	mdone(&b);
}
END_TEST

/* the occupancy decision: a FIBER SM admits CTAs by weft contexts, slices, shared memory and CTA
 * slots, without the SIMT warp and thread limits; fiber_contexts = max_warps_per_sm /
 * subpartitions (16 on a100) gives it the SIMT SM's warp budget, so that the gain from contexts
 * can be told apart from the compiler's: 4-warp CTAs of a small kernel fit 32 (CTA slots) on
 * a100-fiber, 16 (warps) on a100 and on a100-fiber with 16 contexts */
START_TEST(test_mech_occupancy_split)
{
	static const char *const ctx16[] = {"fiber_contexts=16", NULL};
	static const char body[] =
		"        S2R R0, SR_TID.X ;\n"
		"        MOV R4, c[0x0][0x160] ;\n"
		"        MOV R5, c[0x0][0x164] ;\n"
		"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
		"        STG.E [R2.64], R0 ;\n"
		"        EXIT ;\n";
	MRun f, f16, s;

	mok(&f, "", body, 128, NULL);
	mok(&f16, "", body, 128, ctx16);
	mcfg = "a100";
	mok(&s, "", body, 128, NULL);
	mcfg = "a100-fiber";
	ck_assert_uint_eq(f.st.ctas_per_sm, 32);
	ck_assert_str_eq(f.st.occupancy_limit, "ctas");
	ck_assert_uint_eq(s.st.ctas_per_sm, 16);
	ck_assert_uint_eq(f16.st.ctas_per_sm, s.st.ctas_per_sm);
	ck_assert_str_eq(f16.st.occupancy_limit, "contexts");
	mdone(&f);
	mdone(&f16);
	mdone(&s);
}
END_TEST

Suite *
fibermech_suite(void)
{
	Suite *s = suite_create("fibermech");
	TCase *tc = tcase_create("fibermech");

	tcase_add_test(tc, test_mech_xbar_operand_latency);
	tcase_add_test(tc, test_mech_xbar_pipelined);
	tcase_add_test(tc, test_mech_xbar_width);
	tcase_add_test(tc, test_mech_port_local_v_as_r);
	tcase_add_test(tc, test_mech_port_shared);
	tcase_add_test(tc, test_mech_xbar_shared);
	tcase_add_test(tc, test_mech_busy_bitmap);
	tcase_add_test(tc, test_mech_busy_wake);
	tcase_add_test(tc, test_mech_setfibernum_grow);
	tcase_add_test(tc, test_mech_setfibernum_wait);
	tcase_add_test(tc, test_mech_rs_ablation);
	tcase_add_test(tc, test_mech_occupancy_split);
	suite_add_tcase(s, tc);
	return s;
}
