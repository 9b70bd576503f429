/* check_simcore.c: the simulator core (sim/decode.c, warp.c, exec_ctrl.c, sreg.c, mem.c,
 * gpu.c, fault.c): decoding every example listing, independent thread scheduling on
 * hand-written SASS (divergence and reconvergence, per-lane loops, partial exits, subroutine
 * calls, CTA barriers), fault detection and messages (deadlock, watchdog, out-of-bounds,
 * misaligned, trap), the driver's constant bank 0, module-scope data and relocations.
 * Snippets are nvdisasm-style bodies of a kernel `kern` (sm_80), read by the real front end;
 * parameter 0 is always the output buffer `out` (c[0x0][0x160]).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "sim.h"
#include "timing.h"

typedef struct Run {
	Src *src;              /* the listing */
	Module *m;             /* parsed */
	Diag d;                /* diagnostics into err */
	FILE *errf;            /* memory stream behind err */
	char *err;             /* everything reported */
	size_t nerr;
	Gpu *g;                /* device */
	SimConfig cfg;         /* its configuration */
	SimModule *sm;         /* loaded module, NULL if loading failed */
	const Prog *k;         /* kernel `kern` */
	uint64_t out;          /* output buffer */
	uint32_t nout;         /* its words */
	SimStats st;           /* of the last launch */
	SimFault f;            /* of the last launch */
} Run;

static const char header[] = "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n";

static const char *
errors(Run *r)
{
	fflush(r->errf);
	return r->err ? r->err : "";
}

/* parse and load a listing; a body without `.section` gets the kern header */
static Run *
load(const char *text, uint64_t watchdog)
{
	Run *r = calloc(1, sizeof *r);
	int whole = strstr(text, ".section") != NULL;
	size_t nh = whole ? 0 : strlen(header), nb = strlen(text);
	char *buf = malloc(nh + nb + 1);
	SimConfig c;

	memcpy(buf, header, nh);
	memcpy(buf + nh, text, nb + 1);
	r->src = src_new("test.sass", buf, nh + nb);
	free(buf);
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", errors(r));
	simconfig_default(&c, 80);
	c.watchdog = watchdog;
	r->cfg = c;
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	if (r->sm)
		r->k = sim_module_kernel(r->sm, "kern");
	return r;
}

static void
done(Run *r)
{
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* every snippet must load: a family the simulator lacks is a failure, never a skip */
static int
loaded(Run *r)
{
	if (r->sm && r->k)
		return 1;
	ck_abort_msg("the snippet does not load:\n%s", errors(r));
	return 0;
}

/* out = nout words of 0xdeadbeef */
static void
fill_out(Run *r, uint32_t nout)
{
	uint32_t *fill = malloc(nout * 4);

	for (uint32_t k = 0; k < nout; k++)
		fill[k] = 0xdeadbeef;
	ck_assert_int_eq(gpu_write(r->g, r->out, fill, nout * 4), 0);
	free(fill);
}

/* launch with out = nout words filled with 0xdeadbeef; returns sim_launch's result. The timing
 * driver runs the same launch first: it must end the same way (success, or a fault of the same
 * kind) and leave the same output. */
static int
launch(Run *r, uint32_t gx, uint32_t bx, uint32_t by, uint32_t nout)
{
	LaunchParams lp = { { gx, 1, 1 }, { bx, by, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	uint32_t *timed = malloc(nout * 4), *func = malloc(nout * 4);
	SimTStats tst;
	SimFault tf;
	int trc, rc;

	ck_assert_int_eq(gpu_malloc(r->g, nout * 4, &r->out), 0);
	r->nout = nout;
	lp.params = &r->out;
	fill_out(r, nout);
	trc = sim_launch_timed(r->g, &r->cfg, r->sm, r->k, &lp, NULL, &tst, &tf);
	simtstats_free(&tst);
	ck_assert_int_eq(gpu_read(r->g, r->out, timed, nout * 4), 0);
	fill_out(r, nout);
	rc = sim_launch(r->g, r->sm, r->k, &lp, &r->st, &r->f);
	ck_assert_int_eq(gpu_read(r->g, r->out, func, nout * 4), 0);
	ck_assert_msg(trc == rc && tf.kind == r->f.kind, "timing driver: %d (%s), functional: %d (%s)",
	              trc, tf.msg, rc, r->f.msg);
	if (rc == 0)
		ck_assert_msg(memcmp(timed, func, nout * 4) == 0,
		              "the timing driver's output differs from the functional driver's");
	free(timed);
	free(func);
	return rc;
}

static uint32_t
word(Run *r, uint32_t k)
{
	uint32_t v;

	ck_assert_int_eq(gpu_read(r->g, r->out + 4 * k, &v, 4), 0);
	return v;
}

/* out[tid] address into R2:R3 (R0 = tid) */
#define PROLOGUE \
	"        S2R R0, SR_TID.X ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"

/* ---------------------------------------------------------------------------------------------
 * Decoding.
 */
static int
is_listing(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".sass") == 0;
}

/* every instruction of every example decodes, or the load reports exactly
 * `file:line:col: error: unsupported instruction '...'` lines */
static void
decode_dir(const char *dir, int *nfiles)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (!dp)
		return;
	while ((e = readdir(dp))) {
		char path[1100];
		Diag d;
		Src *s;
		Module *m;
		FILE *ef;
		char *err = NULL, *line;
		size_t nerr = 0;

		if (!is_listing(e->d_name))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		diag_init(&d, NULL, stderr);
		s = src_read(path, &d);
		ck_assert_ptr_nonnull(s);
		ef = open_memstream(&err, &nerr);
		diag_init(&d, s, ef);
		d.maxerr = 1 << 30;
		m = sass_parse(s, &d);
		ck_assert_msg(m != NULL, "%s does not parse", path);
		for (uint32_t k = 0; k < m->nfn; k++) {
			Prog *p = sim_decode(m->fn[k], m->sm ? m->sm : 80, &d);
			if (p) {
				ck_assert_uint_eq(p->nins, m->fn[k]->nins);
				for (uint32_t j = 0; j < p->nins; j++)
					ck_assert_ptr_nonnull(p->ins[j].exec);
			}
			prog_free(p);
		}
		fclose(ef);
		for (line = err; line && *line;) {
			char *nl = strchr(line, '\n'), *col = strstr(line, ": error: ");
			if (nl)
				*nl = 0;
			/* error lines; the source excerpt and caret lines that follow start with spaces */
			if (strncmp(line, path, strlen(path)) == 0 && !strstr(line, ": note: ")) {
				ck_assert_msg(col && strncmp(col, ": error: unsupported instruction '", 34) == 0,
				              "unexpected diagnostic: %s", line);
				/* the control family never rejects what nvcc emits */
				ck_assert_msg(!strstr(col, "'BRA") && !strstr(col, "'BSSY") &&
				              !strstr(col, "'BSYNC") && !strstr(col, "'EXIT") &&
				              !strstr(col, "'WARPSYNC") && !strstr(col, "'BAR") &&
				              !strstr(col, "'S2R") && !strstr(col, "'CALL") &&
				              !strstr(col, "'RET") && !strstr(col, "'CS2R"), "%s", line);
			}
			line = nl ? nl + 1 : NULL;
		}
		free(err);
		module_free(m);
		src_free(s);
		++*nfiles;
	}
	closedir(dp);
}

START_TEST(test_decode_examples)
{
	const char *root = getenv("FIBER_ROOT");
	char dir[512];
	int n = 0;
	DIR *dp;
	struct dirent *e;

	snprintf(dir, sizeof dir, "%s/examples", root ? root : ".");
	dp = opendir(dir);
	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp))) {
		char sub[800];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		decode_dir(sub, &n);
	}
	closedir(dp);
	snprintf(dir, sizeof dir, "%s/tests/corpus", root ? root : ".");
	decode_dir(dir, &n);
	ck_assert_int_ge(n, 16);
}
END_TEST

START_TEST(test_decode_unsupported_message)
{
	Run *r = load("        MOV R1, c[0x0][0x28] ;\n"
	              "        FROB R0, R1 ;\n"
	              "        EXIT ;\n", 0);

	ck_assert_ptr_null(r->sm);
	ck_assert_msg(strstr(errors(r), "test.sass:4:9: error: unsupported instruction 'FROB'"),
	              "%s", errors(r));
	done(r);
}
END_TEST

START_TEST(test_decode_operands)
{
	/* operand forms: selectors, constant banks with index, memory, labels, control bits */
	Run *r = load("        /*0000*/ BSSY B1, `(.L_x_1) ;   /* 0x0000084000017945 */\n"
	              "                                      /* 0x000fe20003800000 */\n"
	              "        /*0010*/ @!P2 BRA `(.L_x_1) ;  /* 0x0000001000009947 */\n"
	              "                                      /* 0x000fea0003800000 */\n"
	              ".L_x_1:\n"
	              "        /*0020*/ BSYNC B1 ;            /* 0x0000000000017941 */\n"
	              "                                      /* 0x000fea0003800000 */\n"
	              "        /*0030*/ S2R R7, SR_LANEID ;   /* 0x0000000000077919 */\n"
	              "                                      /* 0x000e280000000000 */\n"
	              "        /*0040*/ EXIT ;                /* 0x000000000000794d */\n"
	              "                                      /* 0x000fea0003800000 */\n", 0);
	const DIns *d;

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	d = &r->k->ins[0];
	ck_assert_int_eq(d->dst[0].kind, DB);
	ck_assert_int_eq(d->dst[0].reg, 1);
	ck_assert_int_eq(d->src[0].kind, DLabel);
	ck_assert_int_eq(d->src[0].imm, 2);
	ck_assert_uint_eq(CTRL_STALL(d->ctrl), 1);       /* 0x000fe2...: stall 1, yield 1 */
	ck_assert_uint_eq(CTRL_YIELD(d->ctrl), 1);
	ck_assert_uint_eq(CTRL_WSB(d->ctrl), 7);
	d = &r->k->ins[1];
	ck_assert_int_eq(d->guard, 2);
	ck_assert_int_eq(d->guard_not, 1);
	ck_assert_uint_eq(CTRL_STALL(d->ctrl), 5);
	d = &r->k->ins[3];
	ck_assert_int_eq(d->src[0].kind, DSReg);
	ck_assert_int_eq(d->src[0].imm, SRLaneId);
	ck_assert_uint_eq(CTRL_WSB(d->ctrl), 0);         /* S2R sets SB0 */
	ck_assert_uint_eq(r->k->addr_to_pc[0x40 / 16], 4);
	done(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Independent thread scheduling.
 */
START_TEST(test_its_ifelse_reconverges)
{
	Run *r = load(PROLOGUE
	              "        ISETP.GE.AND P0, PT, R0, 0x10, PT ;\n"
	              "        BSSY B0, `(.L_join) ;\n"
	              "    @P0 BRA `(.L_else) ;\n"
	              "        MOV R6, 0x1 ;\n"
	              "        BRA `(.L_join) ;\n"
	              ".L_else:\n"
	              "        MOV R6, 0x2 ;\n"
	              ".L_join:\n"
	              "        BSYNC B0 ;\n"
	              "        IADD3 R6, R6, 0x10, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l < 16 ? 0x11 : 0x12);
	/* 7 converged, then-path 2, else-path 1, BSYNC + 3 converged again (lowest PC first
	 * brings both halves to the BSYNC together) */
	ck_assert_uint_eq(r->st.warp_instructions, 14);
	ck_assert_uint_eq(r->st.thread_instructions, 7 * 32 + 2 * 16 + 16 + 4 * 32);
	done(r);
}
END_TEST

START_TEST(test_its_loop_per_lane_trip_count)
{
	Run *r = load(PROLOGUE
	              "        MOV R6, RZ ;\n"
	              "        MOV R7, RZ ;\n"
	              "        BSSY B0, `(.L_end) ;\n"
	              ".L_loop:\n"
	              "        ISETP.GE.AND P0, PT, R7, R0, PT ;\n"
	              "    @P0 BRA `(.L_end) ;\n"
	              "        IADD3 R7, R7, 0x1, RZ ;\n"
	              "        IADD3 R6, R6, R7, RZ ;\n"
	              "        BRA `(.L_loop) ;\n"
	              ".L_end:\n"
	              "        BSYNC B0 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l * (l + 1) / 2);
	/* the loop runs 32 times (lane 31), 5 instructions, plus the final test and branch */
	ck_assert_uint_eq(r->st.warp_instructions, 7 + 31 * 5 + 2 + 3);
	done(r);
}
END_TEST

START_TEST(test_its_partial_exit_and_barrier)
{
	/* lanes >= 8 of both warps exit; the rest meet at BAR.SYNC, which counts exited threads
	 * as arrived, and then store */
	Run *r = load(PROLOGUE
	              "        LOP3.LUT R8, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	              "        ISETP.GE.AND P0, PT, R8, 0x8, PT ;\n"
	              "    @P0 EXIT ;\n"
	              "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	              "        STG.E [R2.64], R0 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 64, 1, 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), (t & 31) < 8 ? t : 0xdeadbeef);
	done(r);
}
END_TEST

START_TEST(test_its_call_ret)
{
	/* a subroutine called by the lanes with odd tid only; the return address in R20 is the
	 * byte address of the instruction after the CALL (0x70) */
	Run *r = load(PROLOGUE                                     /* 0x00 .. 0x30 */
	              "        MOV R20, 0x70 ;\n"                  /* 0x40 */
	              "        LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n" /* 0x50 */
	              "    @P0 CALL.REL.NOINC `(.L_sub) ;\n"        /* 0x60 */
	              "        STG.E [R2.64], R0 ;\n"              /* 0x70 */
	              "        EXIT ;\n"                           /* 0x80 */
	              ".L_sub:\n"
	              "        IADD3 R0, R0, 0x64, RZ ;\n"         /* 0x90 */
	              "        RET.REL.NODEC R20 `(kern) ;\n", 0); /* 0xa0 */

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l & 1 ? l + 100 : l);
	done(r);
}
END_TEST

START_TEST(test_its_bar_sync_across_warps)
{
	/* every thread writes out[tid], waits at the barrier, then reads its partner in the other
	 * warp: without the barrier warp 0 would read before warp 1 has written */
	Run *r = load(PROLOGUE
	              "        IADD3 R6, R0, 0x1000, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	              "        LOP3.LUT R7, R0, 0x20, RZ, 0x3c, !PT ;\n"
	              "        IMAD.WIDE.U32 R8, R7, 0x4, R4 ;\n"
	              "        LDG.E R9, [R8.64] ;\n"
	              "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	              "        STG.E [R2.64], R9 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 64, 1, 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), 0x1000 + (t ^ 32));
	done(r);
}
END_TEST

START_TEST(test_its_bar_red_popc)
{
	Run *r = load(PROLOGUE
	              "        ISETP.LT.AND P0, PT, R0, 0x5, PT ;\n"
	              "        BAR.RED.POPC.DEFER_BLOCKING 0x0, P0 ;\n"
	              "        B2R.RESULT R6 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 64, 1, 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), 5);
	done(r);
}
END_TEST

START_TEST(test_its_warpsync_divergent)
{
	/* the halves take different paths and meet at a WARPSYNC at different PCs; BRA.DIV is
	 * taken while the warp is split and not once it is whole again */
	Run *r = load(PROLOGUE
	              "        MOV R6, RZ ;\n"
	              "        ISETP.GE.AND P0, PT, R0, 0x10, PT ;\n"
	              "    @P0 BRA `(.L_b) ;\n"
	              "        BRA.DIV ~URZ, `(.L_div_a) ;\n"
	              "        BRA `(.L_a) ;\n"
	              ".L_div_a:\n"
	              "        IADD3 R6, R6, 0x1, RZ ;\n"
	              ".L_a:\n"
	              "        WARPSYNC 0xffffffff ;\n"
	              "        BRA `(.L_join) ;\n"
	              ".L_b:\n"
	              "        WARPSYNC 0xffffffff ;\n"
	              ".L_join:\n"
	              "        BRA.DIV ~URZ, `(.L_bad) ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n"
	              ".L_bad:\n"
	              "        BPT.TRAP 0x1 ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l < 16 ? 1 : 0);
	done(r);
}
END_TEST

START_TEST(test_its_warpsync_same_mask)
{
	/* lanes 8..31 wait at WARPSYNC 0xffffffff while lanes 0..7 pass a WARPSYNC 0xff, then
	 * store; a lane waits for lanes at the same mask only (bar.warp.sync), so 8..31 must not
	 * go on before 0..7 arrive and must read their store */
	Run *r = load(PROLOGUE
	              "        ISETP.GE.AND P0, PT, R0, 0x8, PT ;\n"
	              "   @!P0 BRA `(.L_low) ;\n"
	              ".L_full:\n"
	              "        WARPSYNC 0xffffffff ;\n"
	              "        LDG.E R6, [R4.64+0x80] ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n"
	              ".L_low:\n"
	              "        WARPSYNC 0xff ;\n"
	              "        MOV R7, 0x7 ;\n"
	              "        STG.E [R4.64+0x80], R7 ;\n"
	              "        BRA `(.L_full) ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 33) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_msg(word(r, l) == 7, "lane %u read 0x%x", l, word(r, l));
	done(r);
}
END_TEST

START_TEST(test_its_warpsync_exclusive)
{
	/* nvcc's labeled_partition reduce: MATCH.ANY gives each lane its group (even, odd lanes);
	 * WARPSYNC.EXCLUSIVE lets one group at a time through to the REDUX and the move of its
	 * uniform result, so each group sums its own lane ids */
	Run *r = load(PROLOGUE
	              "        LOP3.LUT R8, R0, 0x1, RZ, 0xc0, !PT ;\n"
	              "        MATCH.ANY R5, R8 ;\n"
	              "        BSSY B0, `(.L_end) ;\n"
	              "        WARPSYNC.EXCLUSIVE R5 ;\n"
	              "        REDUX.SUM.S32 UR6, R0 ;\n"
	              "        IMAD.U32 R6, RZ, RZ, UR6 ;\n"
	              "        BSYNC B0 ;\n"
	              ".L_end:\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_msg(word(r, l) == (l & 1 ? 256u : 240u), "lane %u: %u", l, word(r, l));
	done(r);
}
END_TEST

START_TEST(test_its_collective_same_site)
{
	/* WARPSYNC.COLLECTIVE (sm_90 nvcc's slow path of a shuffle): lanes 16..31 reach the region
	 * first and wait; lanes 0..15 take a detour placed after it and come back; then the whole
	 * warp runs the SHFL.BFLY together and leaves at the label (docs/sim.md) */
	Run *r = load(PROLOGUE
	              "        MOV R6, R0 ;\n"
	              "        MOV R8, 0xffffffff ;\n"
	              "        MOV R9, 0x10 ;\n"
	              "        MOV R10, 0x1f ;\n"
	              "        ISETP.LT.AND P0, PT, R0, 0x10, PT ;\n"
	              "    @P0 BRA `(.L_detour) ;\n"
	              ".L_coll:\n"
	              "        WARPSYNC.COLLECTIVE R8, `(.L_after) ;\n"
	              "        SHFL.BFLY P1, R7, R6, R9, R10 ;\n"
	              "        ENDCOLLECTIVE ;\n"
	              ".L_after:\n"
	              "        STG.E [R2.64], R7 ;\n"
	              "        EXIT ;\n"
	              ".L_detour:\n"
	              "        IADD3 R6, R6, 0x100, RZ ;\n"
	              "        BRA `(.L_coll) ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++) {
		uint32_t src = l ^ 16;
		ck_assert_msg(word(r, l) == src + (src < 16 ? 0x100u : 0), "lane %u: 0x%x", l, word(r, l));
	}
	done(r);
}
END_TEST

START_TEST(test_fault_collective_unbalanced)
{
	/* ENDCOLLECTIVE without a WARPSYNC.COLLECTIVE, and one region entered inside another:
	 * nvcc never emits either; the simulator names them rather than guess */
	static const char *const body[] = {
		"        ENDCOLLECTIVE ;\n"
		"        EXIT ;\n",
		"        MOV R8, 0xffffffff ;\n"
		"        WARPSYNC.COLLECTIVE R8, `(.L_a) ;\n"
		"        WARPSYNC.COLLECTIVE R8, `(.L_a) ;\n"
		"        ENDCOLLECTIVE ;\n"
		".L_a:\n"
		"        EXIT ;\n",
	};
	static const char *const want[] = { "ENDCOLLECTIVE outside", "inside a collective region" };

	for (unsigned k = 0; k < 2; k++) {
		char text[512];
		Run *r;
		snprintf(text, sizeof text, "%s%s", PROLOGUE, body[k]);
		r = load(text, 0);
		ck_assert_msg(r->sm != NULL, "%s", errors(r));
		ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
		ck_assert_int_eq(r->f.kind, FaultIllegalInstr);
		ck_assert_msg(strstr(r->f.msg, want[k]), "%s", r->f.msg);
		done(r);
	}
}
END_TEST

START_TEST(test_its_r2ur_waterfall)
{
	/* ptxas's loop for a TMA store whose coordinates differ per lane (sm_90a, UTMASTG.2D
	 * replaced by recording the coordinates): R2UR takes the lowest waiting lane's (x, y),
	 * R2UR P / R2UR.OR P mark per lane whether its own differ, the lanes that matched drop out
	 * and BRA.U.ANY goes round while any is left. 16 distinct pairs: 16 rounds, and each lane's
	 * last recorded pair is its own */
	Run *r = load(PROLOGUE
	              "        LOP3.LUT R8, R0, 0x7, RZ, 0xc0, !PT ;\n"
	              "        SHF.R.U32.HI R9, RZ, 0x3, R0 ;\n"
	              "        LOP3.LUT R9, R9, 0x1, RZ, 0xc0, !PT ;\n"
	              "        MOV R10, RZ ;\n"
	              "        PLOP3.LUT P1, PT, PT, PT, PT, 0x80, 0x0 ;\n"
	              ".L_loop:\n"
	              "        PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
	              "    @P1 R2UR P0, UR6, R8 ;\n"
	              "        PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
	              "    @P1 R2UR.OR P0, UR5, R9 ;\n"
	              "    @P1 MOV R12, UR6 ;\n"
	              "    @P1 MOV R13, UR5 ;\n"
	              "    @P1 PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n"
	              "        IADD3 R10, R10, 0x1, RZ ;\n"
	              "    @P1 BRA.U.ANY `(.L_loop) ;\n"
	              "        LEA R10, R12, R10, 0x8 ;\n"
	              "        LEA R10, R13, R10, 0x10 ;\n"
	              "        STG.E [R2.64], R10 ;\n"
	              "        EXIT ;\n", 100000);

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_msg(word(r, l) == (16u | (l & 7) << 8 | (l >> 3 & 1) << 16), "lane %u: 0x%x",
		              l, word(r, l));
	done(r);
}
END_TEST

START_TEST(test_its_bra_div_mask)
{
	/* lanes 0..3 alone, the rest waiting elsewhere: BRA.DIV UR (0xf) is not taken, BRA.DIV
	 * ~URZ is, BRA.CONV UR (0x3) is; with a guard, the lanes whose guard holds are the ones
	 * that must cover the mask */
	Run *r = load(PROLOGUE
	              "        MOV R6, RZ ;\n"
	              "        ISETP.GE.AND P0, PT, R0, 0x4, PT ;\n"
	              "    @P0 BRA `(.L_rest) ;\n"
	              "        MOV R7, 0xf ;\n"
	              "        R2UR UR4, R7 ;\n"
	              "        BRA.DIV UR4, `(.L_div) ;\n"
	              "        IADD3 R6, R6, 0x1, RZ ;\n"
	              ".L_div:\n"
	              "        BRA.DIV ~URZ, `(.L_div2) ;\n"
	              "        IADD3 R6, R6, 0x10, RZ ;\n"
	              ".L_div2:\n"
	              "        MOV R8, 0x3 ;\n"
	              "        R2UR UR5, R8 ;\n"
	              "        BRA.CONV UR5, `(.L_conv) ;\n"
	              "        IADD3 R6, R6, 0x100, RZ ;\n"
	              ".L_conv:\n"
	              "        ISETP.LT.AND P1, PT, R0, 0x2, PT ;\n"
	              "    @P1 BRA.DIV UR4, `(.L_g) ;\n"
	              "        IADD3 R6, R6, 0x1000, RZ ;\n"
	              ".L_g:\n"
	              "        WARPSYNC 0xf ;\n"
	              ".L_rest:\n"
	              "        WARPSYNC 0xffffffff ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_msg(word(r, l) == (l < 2 ? 0x1u : l < 4 ? 0x1001u : 0u), "lane %u: 0x%x", l,
		              word(r, l));
	done(r);
}
END_TEST

START_TEST(test_its_bmov_and_break)
{
	/* BREAK takes the lanes that leave a loop early out of the barrier; BMOV saves and
	 * restores it around an inner region */
	Run *r = load(PROLOGUE
	              "        MOV R6, RZ ;\n"
	              "        BSSY B0, `(.L_end) ;\n"
	              ".L_loop:\n"
	              "        ISETP.GE.AND P0, PT, R6, R0, PT ;\n"
	              "    @P0 BREAK B0 ;\n"
	              "    @P0 BRA `(.L_out) ;\n"
	              "        BMOV.32.CLEAR R10, B0 ;\n"
	              "        BMOV.32 B0, R10 ;\n"
	              "        IADD3 R6, R6, 0x1, RZ ;\n"
	              "        ISETP.LT.AND P1, PT, R6, 0x3, PT ;\n"
	              "    @P1 BRA `(.L_loop) ;\n"
	              ".L_end:\n"
	              "        BSYNC B0 ;\n"
	              ".L_out:\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l < 3 ? l : 3);
	done(r);
}
END_TEST

START_TEST(test_its_brx_indirect)
{
	/* BRX Rn imm goes to next + Rn + imm: even lanes to 0xa0, odd lanes to 0xc0 */
	Run *r = load(PROLOGUE                                      /* 0x00 .. 0x30 */
	              "        LOP3.LUT R7, R0, 0x1, RZ, 0xc0, !PT ;\n"  /* 0x40 */
	              "        MOV R8, 0xa0 ;\n"                    /* 0x50 */
	              "        MOV R9, RZ ;\n"                      /* 0x60 */
	              "        IMAD.WIDE.U32 R6, R7, 0x20, R8 ;\n"  /* 0x70 */
	              "        BRX R6 -0x90 ;\n"                    /* 0x80 */
	              "        BPT.TRAP 0x1 ;\n"                    /* 0x90 */
	              "        MOV R10, 0x5 ;\n"                    /* 0xa0 */
	              "        BRA `(.L_st) ;\n"                    /* 0xb0 */
	              "        MOV R10, 0x9 ;\n"                    /* 0xc0 */
	              ".L_st:\n"
	              "        STG.E [R2.64], R10 ;\n"              /* 0xd0 */
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), l & 1 ? 9 : 5);
	done(r);
}
END_TEST

START_TEST(test_its_cluster_barrier)
{
	/* UCGABAR_ARV / UCGABAR_WAIT: a CTA alone in its cluster waits for all its threads */
	Run *r = load(PROLOGUE
	              "        STG.E [R2.64], R0 ;\n"
	              "        UCGABAR_ARV ;\n"
	              "        UCGABAR_WAIT ;\n"
	              "        LOP3.LUT R7, R0, 0x20, RZ, 0x3c, !PT ;\n"
	              "        IMAD.WIDE.U32 R8, R7, 0x4, R4 ;\n"
	              "        LDG.E R9, [R8.64] ;\n"
	              "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	              "        STG.E [R2.64], R9 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 1, 64, 1, 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), t ^ 32);
	done(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Faults.
 */
START_TEST(test_fault_deadlock_bar)
{
	/* a barrier for 64 threads in a block of 32 can never complete */
	Run *r = load("        BAR.SYNC.DEFER_BLOCKING 0x1, 0x40 ;\n"
	              "        EXIT ;\n", 0);

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultDeadlock);
	ck_assert_msg(strstr(r->f.msg, "deadlock: kernel 'kern'") && strstr(r->f.msg, "CTA (0,0,0)")
	              && strstr(r->f.msg, "warp 0: 32 at BAR 1 (PC 0x0000)"), "%s", r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_fault_deadlock_bsync)
{
	/* half the warp waits at BSYNC, the other half at a WARPSYNC for the whole warp */
	Run *r = load("        S2R R0, SR_TID.X ;\n"
	              "        ISETP.GE.AND P0, PT, R0, 0x10, PT ;\n"
	              "        BSSY B0, `(.L_j) ;\n"
	              "    @P0 BRA `(.L_j) ;\n"
	              "        WARPSYNC 0xffffffff ;\n"
	              ".L_j:\n"
	              "        BSYNC B0 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultDeadlock);
	ck_assert_msg(strstr(r->f.msg, "16 at BSYNC B0 (PC 0x0050) waiting for lanes 0x0000ffff") &&
	              strstr(r->f.msg, "16 at WARPSYNC 0xffffffff (PC 0x0040)"), "%s", r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_fault_watchdog)
{
	Run *r = load(".L_x_0:\n"
	              "        BRA `(.L_x_0) ;\n", 1000);

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultWatchdog);
	ck_assert_msg(strstr(r->f.msg, "watchdog: kernel 'kern'") &&
	              strstr(r->f.msg, "1000 warp instructions"), "%s", r->f.msg);
	ck_assert_uint_eq(r->st.warp_instructions, 1000);
	done(r);
}
END_TEST

START_TEST(test_fault_oob_message)
{
	/* out has 16 words; thread 20 writes 16 bytes past its end */
	Run *r = load(PROLOGUE
	              "        STG.E [R2.64], R0 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_int_eq(launch(r, 2, 32, 1, 16), -1);
	ck_assert_int_eq(r->f.kind, FaultOOB);
	ck_assert_msg(strstr(r->f.msg, "out-of-bounds access: kernel 'kern' CTA (0,0,0) warp 0 "
	                     "lane 16 thread (16,0,0) PC 0x0040 `STG.E [R2.64], R0 ;`: global "
	                     "write of 4 bytes at 0x7f0000000040 is 0 bytes after allocation #1 "
	                     "[0x7f0000000000, +64)"), "%s", r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_fault_misaligned)
{
	Run *r = load(PROLOGUE
	              "        STG.E [R2.64+0x2], R0 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_int_eq(launch(r, 1, 32, 1, 32), -1);
	ck_assert_int_eq(r->f.kind, FaultMisaligned);
	ck_assert_msg(strstr(r->f.msg, "lane 0 ") && strstr(r->f.msg, "not 4-byte aligned"), "%s",
	              r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_fault_trap_and_limits)
{
	Run *r = load("        BPT.TRAP 0x1 ;\n"
	              "        EXIT ;\n", 0);
	LaunchParams lp = { { 1, 1, 1 }, { 1025, 1, 1 }, 0, NULL, 0, 0, { 0, 0, 0 } };

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultTrap);
	ck_assert_msg(strstr(r->f.msg, "BPT.TRAP 0x1"), "%s", r->f.msg);
	ck_assert_int_eq(sim_launch(r->g, r->sm, r->k, &lp, &r->st, &r->f), -1);
	ck_assert_int_eq(r->f.kind, FaultLimit);
	ck_assert_msg(strstr(r->f.msg, "1025 threads"), "%s", r->f.msg);
	lp.block[0] = 32;
	lp.dyn_smem = 1u << 20;
	ck_assert_int_eq(sim_launch(r->g, r->sm, r->k, &lp, &r->st, &r->f), -1);
	ck_assert_int_eq(r->f.kind, FaultLimit);
	ck_assert_msg(strstr(r->f.msg, "shared memory"), "%s", r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_fault_ran_off_the_end)
{
	Run *r = load("        NOP ;\n", 0);

	ck_assert_msg(r->sm != NULL, "%s", errors(r));
	ck_assert_int_eq(launch(r, 1, 32, 1, 1), -1);
	ck_assert_int_eq(r->f.kind, FaultIllegalInstr);
	done(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Driver state: special registers, constant bank 0, module data, local memory.
 */
START_TEST(test_sreg_values)
{
	/* out[tid + 64 * k] = k-th special register, block 32 x 2, grid 2 (CTA 1 overwrites) */
	Run *r = load("        S2R R8, SR_TID.X ;\n"
	              "        S2R R1, SR_TID.Y ;\n"
	              "        MOV R9, RZ ;\n"
	              "        IMAD.WIDE.U32 R8, R1, 0x20, R8 ;\n"
	              "        MOV R4, c[0x0][0x160] ;\n"
	              "        MOV R5, c[0x0][0x164] ;\n"
	              "        IMAD.WIDE.U32 R2, R8, 0x4, R4 ;\n"
	              "        S2R R6, SR_LANEID ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        S2R R6, SR_LTMASK ;\n"
	              "        STG.E [R2.64+0x100], R6 ;\n"
	              "        S2R R6, SR_CTAID.X ;\n"
	              "        STG.E [R2.64+0x200], R6 ;\n"
	              "        MOV R6, c[0x0][0x4] ;\n"
	              "        STG.E [R2.64+0x300], R6 ;\n"
	              "        MOV R6, c[0x0][0xc] ;\n"
	              "        STG.E [R2.64+0x400], R6 ;\n"
	              "        CS2R R6, SRZ ;\n"
	              "        STG.E [R2.64+0x500], R7 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_msg(launch(r, 2, 32, 2, 6 * 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++) {
		ck_assert_uint_eq(word(r, t), t & 31);
		ck_assert_uint_eq(word(r, 64 + t), (1u << (t & 31)) - 1);
		ck_assert_uint_eq(word(r, 128 + t), 1);
		ck_assert_uint_eq(word(r, 192 + t), 2);
		ck_assert_uint_eq(word(r, 256 + t), 2);
		ck_assert_uint_eq(word(r, 320 + t), 0);
	}
	done(r);
}
END_TEST

START_TEST(test_local_memory)
{
	/* R1 = stack top from c[0x0][0x28]; each thread keeps a value in its own frame */
	Run *r = load("        MOV R1, c[0x0][0x28] ;\n"
	              "        IADD3 R1, R1, -0x10, RZ ;\n"
	              PROLOGUE
	              "        IADD3 R6, R0, 0x7, RZ ;\n"
	              "        STL [R1+0x4], R6 ;\n"
	              "        LDL R7, [R1+0x4] ;\n"
	              "        STG.E [R2.64], R7 ;\n"
	              "        EXIT ;\n", 0);

	if (!loaded(r)) {
		done(r);
		return;
	}
	/* the snippet has no .nv.info: give the kernel a frame by hand */
	((Prog *)r->k)->stack_size = 16;
	ck_assert_msg(launch(r, 1, 64, 1, 64) == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), t + 7);
	done(r);
}
END_TEST

static const char module_data[] =
	"\t.target\tsm_80\n"
	"\t.section\t.nv.constant4,\"a\",@progbits\n"
	"\t.align\t8\n"
	".nv.constant4:\n"
	"        /*0000*/ \t.dword\ttab\n"
	"        /*0008*/ \t.dword\tcounter\n"
	"\t.section\t.nv.constant3,\"a\",@progbits\n"
	".nv.constant3:\n"
	"        /*0000*/ \t.word\t0x00000005, 0x00000007\n"
	"\t.section\t.text.kern,\"ax\",@progbits\n"
	"kern:\n"
	PROLOGUE
	"        MOV R6, c[0x4][0x0] ;\n"
	"        MOV R7, c[0x4][0x4] ;\n"
	"        LDG.E R8, [R6.64+0x4] ;\n"
	"        MOV R9, c[0x3][0x4] ;\n"
	"        IADD3 R8, R8, R9, RZ ;\n"
	"        STG.E [R2.64], R8 ;\n"
	"        MOV R6, c[0x4][0x8] ;\n"
	"        MOV R7, c[0x4][0xc] ;\n"
	"        STG.E [R6.64], R0 ;\n"
	"        EXIT ;\n"
	"\t.section\t.nv.global.init,\"aw\",@progbits\n"
	"\t.align\t4\n"
	".nv.global.init:\n"
	"\t.type\t\ttab,@object\n"
	"tab:\n"
	"        /*0000*/ \t.byte\t0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00\n"
	"\t.section\t.nv.global,\"aw\",@nobits\n"
	".nv.global:\n"
	"\t.zero\t\t8\n"
	"counter:\n"
	"\t.zero\t\t4\n";

START_TEST(test_module_data_relocations)
{
	Run *r = load(module_data, 0);
	uint64_t a;
	uint32_t v;

	if (!loaded(r)) {
		done(r);
		return;
	}
	ck_assert_int_eq(sim_module_symbol(r->sm, "counter", &a), 0);
	ck_assert_msg(launch(r, 1, 32, 1, 32) == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++)
		ck_assert_uint_eq(word(r, l), 10 + 7);
	ck_assert_int_eq(gpu_read(r->g, a, &v, 4), 0);
	ck_assert_uint_eq(v, 31);                        /* the last lane's store wins */
	done(r);
}
END_TEST

START_TEST(test_mem_windows)
{
	/* generic addresses reach the CTA's shared memory and the thread's local window; faults
	 * name the nearest allocation, a freed one included */
	SimConfig c;
	Gpu *g;
	Exec x;
	Cta cta;
	Warp w;
	SimFault f;
	uint8_t smem[64], lmem[2 * 32 * 16];
	uint64_t a, b;

	simconfig_default(&c, 80);
	g = gpu_new(simcfg_gpu(&c));
	memset(&x, 0, sizeof x);
	memset(&cta, 0, sizeof cta);
	memset(&f, 0, sizeof f);
	sim_warp_init(&w, 1, ~0u, 0, 8);
	cta.smem = smem;
	cta.smem_size = sizeof smem;
	cta.lmem = lmem;
	cta.lsize = 16;
	cta.warp = &w;
	cta.nwarp = 1;
	x.gpu = g;
	x.cta = &cta;
	x.w = &w;
	x.prog = NULL;
	x.fault = &f;
	ck_assert_int_eq(gpu_malloc(g, 100, &a), 0);
	ck_assert_int_eq(gpu_malloc(g, 50, &b), 0);
	ck_assert_uint_eq(a, SimGlobalBase);
	ck_assert_uint_ge(b, a + 100 + 4096);
	ck_assert_ptr_eq(sim_generic(&x, SimSharedWindow + 8, 4, 0, 1), smem + 8);
	ck_assert_ptr_eq(sim_generic(&x, SimLocalWindow + 4, 4, 3, 0), lmem + (32 + 3) * 16 + 4);
	ck_assert_ptr_nonnull(sim_generic(&x, a + 96, 4, 0, 0));
	ck_assert_ptr_null(sim_generic(&x, a + 100, 4, 5, 0));
	ck_assert_int_eq(f.kind, FaultOOB);
	ck_assert_msg(strstr(f.msg, "global read of 4 bytes at 0x7f0000000064 is 0 bytes after "
	                     "allocation #1 [0x7f0000000000, +100)"), "%s", f.msg);
	memset(&f, 0, sizeof f);
	ck_assert_ptr_null(sim_shared(&x, 64, 4, 0, 0));
	ck_assert_msg(strstr(f.msg, "outside the CTA's 64 bytes of shared memory"), "%s", f.msg);
	memset(&f, 0, sizeof f);
	ck_assert_ptr_null(sim_local(&x, 16, 4, 0, 1));
	ck_assert_msg(strstr(f.msg, "local write") && strstr(f.msg, "16 bytes"), "%s", f.msg);
	memset(&f, 0, sizeof f);
	ck_assert_int_eq(gpu_free_mem(g, b), 0);
	ck_assert_int_eq(gpu_free_mem(g, b), -1);
	ck_assert_ptr_null(sim_global(&x, b + 8, 8, 0, 1));
	ck_assert_msg(strstr(f.msg, "inside allocation #2") && strstr(f.msg, "freed"), "%s", f.msg);
	memset(&f, 0, sizeof f);
	ck_assert_ptr_null(sim_global(&x, a + 2, 4, 0, 1));
	ck_assert_int_eq(f.kind, FaultMisaligned);
	ck_assert_int_eq(gpu_write(g, a + 90, smem, 20), -1);
	gpu_free(g);
}
END_TEST

Suite *
simcore_suite(void)
{
	Suite *s = suite_create("simcore");
	TCase *dec = tcase_create("Decode");
	TCase *its = tcase_create("ITS");
	TCase *flt = tcase_create("Faults");
	TCase *drv = tcase_create("Driver");

	tcase_set_timeout(dec, 120);
	tcase_add_test(dec, test_decode_examples);
	tcase_add_test(dec, test_decode_unsupported_message);
	tcase_add_test(dec, test_decode_operands);
	tcase_add_test(its, test_its_ifelse_reconverges);
	tcase_add_test(its, test_its_loop_per_lane_trip_count);
	tcase_add_test(its, test_its_partial_exit_and_barrier);
	tcase_add_test(its, test_its_call_ret);
	tcase_add_test(its, test_its_bar_sync_across_warps);
	tcase_add_test(its, test_its_bar_red_popc);
	tcase_add_test(its, test_its_warpsync_divergent);
	tcase_add_test(its, test_its_warpsync_same_mask);
	tcase_add_test(its, test_its_bra_div_mask);
	tcase_add_test(its, test_its_r2ur_waterfall);
	tcase_add_test(its, test_its_warpsync_exclusive);
	tcase_add_test(its, test_its_collective_same_site);
	tcase_add_test(its, test_its_bmov_and_break);
	tcase_add_test(its, test_its_brx_indirect);
	tcase_add_test(its, test_its_cluster_barrier);
	tcase_add_test(flt, test_fault_deadlock_bar);
	tcase_add_test(flt, test_fault_deadlock_bsync);
	tcase_add_test(flt, test_fault_watchdog);
	tcase_add_test(flt, test_fault_oob_message);
	tcase_add_test(flt, test_fault_misaligned);
	tcase_add_test(flt, test_fault_trap_and_limits);
	tcase_add_test(flt, test_fault_ran_off_the_end);
	tcase_add_test(flt, test_fault_collective_unbalanced);
	tcase_add_test(drv, test_sreg_values);
	tcase_add_test(drv, test_local_memory);
	tcase_add_test(drv, test_module_data_relocations);
	tcase_add_test(drv, test_mem_windows);
	suite_add_tcase(s, dec);
	suite_add_tcase(s, its);
	suite_add_tcase(s, flt);
	suite_add_tcase(s, drv);
	return s;
}
