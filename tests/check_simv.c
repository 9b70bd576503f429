/* check_simv.c: FIBER V operands in the simulator (sim_vreg, sim/sim.h). Each snippet runs one
 * CTA of two warps: every thread first fills registers with values of its thread index, the CTA
 * meets at a barrier, and then every thread reads registers through V numbers. The CTA's window
 * starts at vector register 0 of the SM, and warp w's registers are the window at
 * w * nreg_alloc (the register count rounded up to 8: docs/sim.md), so V8 is warp 0's R8: warp 1
 * must see warp 0's values, not its own. Families covered: FADD, IMAD, LDG (V address), STG (V
 * data), SHFL, MATCH, HMMA (V A and B fragments), R2UR. A V destination and a V range past
 * V2047 must be load errors. Both drivers run each launch and must agree (as in check_simcore.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
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
	SimModule *sm;         /* loaded module, NULL if loading failed */
	const Prog *k;         /* kernel `kern` */
	uint64_t out;          /* output buffer */
	uint32_t nout;         /* its words */
} Run;

static const char header[] = "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n";

static const char *
errors(Run *r)
{
	fflush(r->errf);
	return r->err ? r->err : "";
}

static Run *
load(const char *body)
{
	Run *r = calloc(1, sizeof *r);
	size_t nh = strlen(header), nb = strlen(body);
	char *buf = malloc(nh + nb + 1);
	SimConfig c;

	memcpy(buf, header, nh);
	memcpy(buf + nh, body, nb + 1);
	r->src = src_new("test.sass", buf, nh + nb);
	free(buf);
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", errors(r));
	simconfig_default(&c, 80);
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

static void
fill_out(Run *r)
{
	uint32_t *fill = malloc(r->nout * 4);

	for (uint32_t k = 0; k < r->nout; k++)
		fill[k] = 0xdeadbeef;
	ck_assert_int_eq(gpu_write(r->g, r->out, fill, r->nout * 4), 0);
	free(fill);
}

/* one CTA of 64 threads with out = nout words; the timing driver runs it first, then the
 * functional driver, and they must leave the same output. nreg: the register count the snippet
 * is written for (its V numbers of warp 1 depend on it) */
static void
launch(Run *r, uint32_t nout, int nreg)
{
	LaunchParams lp = { { 1, 1, 1 }, { 64, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	uint32_t *timed = malloc(nout * 4), *func = malloc(nout * 4);
	SimStats st;
	SimTStats tst;
	SimFault f, tf;
	int trc, rc;
	SimConfig c;

	ck_assert_msg(r->sm && r->k, "the snippet does not load:\n%s", errors(r));
	ck_assert_int_eq(r->k->nreg, nreg);
	ck_assert_int_eq(gpu_malloc(r->g, nout * 4, &r->out), 0);
	r->nout = nout;
	lp.params = &r->out;
	fill_out(r);
	simconfig_default(&c, 80);
	trc = sim_launch_timed(r->g, &c, r->sm, r->k, &lp, NULL, &tst, &tf);
	simtstats_free(&tst);
	ck_assert_msg(trc == 0, "timing driver: %s", tf.msg);
	ck_assert_int_eq(gpu_read(r->g, r->out, timed, nout * 4), 0);
	fill_out(r);
	rc = sim_launch(r->g, r->sm, r->k, &lp, &st, &f);
	ck_assert_msg(rc == 0, "functional driver: %s", f.msg);
	ck_assert_int_eq(gpu_read(r->g, r->out, func, nout * 4), 0);
	ck_assert_msg(memcmp(timed, func, nout * 4) == 0,
	              "the timing driver's output differs from the functional driver's");
	free(timed);
	free(func);
}

static uint32_t
word(Run *r, uint32_t k)
{
	uint32_t v;

	ck_assert_int_eq(gpu_read(r->g, r->out + 4 * k, &v, 4), 0);
	return v;
}

static uint32_t
fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* R0 = tid, R2:R3 = &out[tid], R4:R5 = out */
#define PROLOGUE \
	"        S2R R0, SR_TID.X ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
#define BARRIER "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"

/* FADD with a V source of warp 0's window (V8) and one of warp 1's (V24: nreg 16, so warp 1's
 * window starts at V16): every thread computes the same sum */
START_TEST(test_fadd)
{
	Run *r = load(PROLOGUE
	              "        I2F R8, R0 ;\n"
	              "        MOV R15, RZ ;\n"
	              BARRIER
	              "        FADD R6, V8, V24 ;\n"
	              "        FADD R7, V8, 0.5 ;\n"
	              "        FADD R6, R6, R7 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 16);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t l = t % 32;
		float want = ((float)l + (float)(32 + l)) + ((float)l + 0.5f);
		ck_assert_msg(word(r, t) == fbits(want), "thread %u: 0x%08x, want %g", t, word(r, t),
		              (double)want);
	}
	done(r);
}
END_TEST

/* IMAD a*b + c with a and b from warp 0's window and c the thread's own R0 */
START_TEST(test_imad)
{
	Run *r = load(PROLOGUE
	              "        IADD3 R8, R0, 0x100, RZ ;\n"
	              "        IADD3 R9, R0, R0, RZ ;\n"
	              BARRIER
	              "        IMAD R6, V8, V9, R0 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 10);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t l = t % 32;
		ck_assert_uint_eq(word(r, t), (l + 0x100) * (2 * l) + t);
	}
	done(r);
}
END_TEST

/* MOV Rd, V<n> (it was "unsupported instruction 'MOV'" while IMAD.MOV.U32 and IADD3 took the
 * same source): every thread adds warp 0's R8 (V8) and warp 1's R8 (V24: nreg 10 rounds to 16,
 * so warp 1's window starts at V16) */
START_TEST(test_mov)
{
	Run *r = load(PROLOGUE
	              "        IADD3 R8, R0, 0x300, RZ ;\n"
	              "        MOV R9, RZ ;\n"
	              BARRIER
	              "        MOV R6, V8 ;\n"
	              "        MOV R7, V24 ;\n"
	              "        IADD3 R6, R6, R7, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 10);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t l = t % 32;
		ck_assert_uint_eq(word(r, t), (l + 0x300) + (32 + l + 0x300));
	}
	done(r);
}
END_TEST

/* LDG through a V address pair: warp 1 loads from the addresses warp 0 computed */
START_TEST(test_ldg_address)
{
	Run *r = load(PROLOGUE
	              "        IMAD R6, R0, 0x7, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        MOV R10, R2 ;\n"
	              "        MOV R11, R3 ;\n"
	              BARRIER
	              "        LDG.E R7, [V10.64] ;\n"
	              "        LDG.E R8, [V10.64+0x4] ;\n"
	              BARRIER
	              "        IADD3 R7, R7, R8, RZ ;\n"
	              "        STG.E [R2.64], R7 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 12);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t l = t % 32;
		ck_assert_uint_eq(word(r, t), 7 * l + 7 * (l + 1));
	}
	done(r);
}
END_TEST

/* STG with V data: each thread stores warp 0's R8 of its lane */
START_TEST(test_stg_data)
{
	Run *r = load(PROLOGUE
	              "        IMAD R8, R0, 0x5, 0x1 ;\n"
	              BARRIER
	              "        STG.E [R2.64], V8 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 9);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), 5 * (t % 32) + 1);
	done(r);
}
END_TEST

/* SHFL of a V value: lane 3 of warp 0's R8 to every thread */
START_TEST(test_shfl)
{
	Run *r = load(PROLOGUE
	              "        IMAD R8, R0, 0xb, RZ ;\n"
	              BARRIER
	              "        SHFL.IDX PT, R6, V8, 0x3, 0x1f ;\n"
	              "        SHFL.DOWN PT, R7, V8, 0x1, 0x1f ;\n"
	              "        IADD3 R6, R6, R7, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 9);
	for (uint32_t t = 0; t < 64; t++) {
		uint32_t l = t % 32, down = l < 31 ? l + 1 : l;
		ck_assert_uint_eq(word(r, t), 33 + 11 * down);
	}
	done(r);
}
END_TEST

/* HMMA with A and B fragments from warp 0's window: every warp computes D = A*B twice, once
 * from V8..V11, V12..V13 and once from its own R8..R11, R12..R13, and stores both (8 words per
 * thread). Warp 1's V product must be warp 0's R product, and differ from its own. */
START_TEST(test_hmma_fragments)
{
	Run *r = load("        S2R R0, SR_TID.X ;\n"
	              "        MOV R4, c[0x0][0x160] ;\n"
	              "        MOV R5, c[0x0][0x164] ;\n"
	              "        IMAD.WIDE.U32 R2, R0, 0x20, R4 ;\n"
	              "        IADD3 R8, R0, 0x3c003c00, RZ ;\n"
	              "        IADD3 R9, R0, 0x3c103c00, RZ ;\n"
	              "        IADD3 R10, R0, 0x3c203c00, RZ ;\n"
	              "        IADD3 R11, R0, 0x3c303c00, RZ ;\n"
	              "        IADD3 R12, R0, 0x40003c00, RZ ;\n"
	              "        IADD3 R13, R0, 0x3c003800, RZ ;\n"
	              BARRIER
	              "        HMMA.16816.F32 R16, V8, V12, RZ ;\n"
	              "        HMMA.16816.F32 R20, R8, R12, RZ ;\n"
	              "        STG.E.128 [R2.64], R16 ;\n"
	              "        STG.E.128 [R2.64+0x10], R20 ;\n"
	              "        EXIT ;\n");
	int differs = 0;

	launch(r, 64 * 8, 24);
	for (uint32_t l = 0; l < 32; l++)
		for (uint32_t k = 0; k < 4; k++) {
			uint32_t v0 = word(r, 8 * l + k), r0 = word(r, 8 * l + 4 + k);
			uint32_t v1 = word(r, 8 * (32 + l) + k), r1 = word(r, 8 * (32 + l) + 4 + k);
			ck_assert_msg(v0 == r0, "warp 0 lane %u D[%u]: V 0x%08x, R 0x%08x", l, k, v0, r0);
			ck_assert_msg(v1 == r0, "warp 1 lane %u D[%u]: V 0x%08x, warp 0's R 0x%08x", l, k,
			              v1, r0);
			ck_assert_msg(r0 != 0xdeadbeef, "lane %u D[%u] not written", l, k);
			differs |= r1 != r0;
		}
	ck_assert_msg(differs, "warp 1's own product equals warp 0's: the test does not tell");
	done(r);
}
END_TEST

/* R2UR from a V register: the value of the first executing lane of warp 0's R8 */
START_TEST(test_r2ur)
{
	Run *r = load(PROLOGUE
	              "        IADD3 R8, R0, 0x40, RZ ;\n"
	              BARRIER
	              "        R2UR UR4, V8 ;\n"
	              "        IADD3 R6, R0, UR4, RZ ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 9);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), t + 0x40);
	done(r);
}
END_TEST

/* MATCH.ANY of a V value: warp 0's R8 is 0 in every lane (warp 1's own differs per lane), so
 * every thread's mask is the whole warp */
START_TEST(test_match)
{
	Run *r = load(PROLOGUE
	              "        SHF.R.U32.HI R9, RZ, 0x5, R0 ;\n"
	              "        LOP3.LUT R10, R0, 0x1f, RZ, 0xc0, !PT ;\n"
	              "        IMAD R8, R9, R10, RZ ;\n"
	              BARRIER
	              "        MATCH.ANY R6, V8 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n");

	launch(r, 64, 11);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_uint_eq(word(r, t), 0xffffffffu);
	done(r);
}
END_TEST

/* a V destination is refused when the kernel is loaded, whatever the family */
START_TEST(test_v_destination_rejected)
{
	static const char *const ins[] = {
		"        IADD3 V5, R0, R1, RZ ;\n",
		"        FADD V100, R0, R1 ;\n",
		"        LDG.E V6, [R2.64] ;\n",
		"        HMMA.16816.F32 V16, R8, R12, RZ ;\n",
		"        SHFL.IDX PT, V6, R8, 0x3, 0x1f ;\n",
		"        MOV V2047, R0 ;\n",
	};

	for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++) {
		char body[256];
		Run *r;
		snprintf(body, sizeof body, "%s        EXIT ;\n", ins[k]);
		r = load(body);
		ck_assert_msg(r->sm == NULL || r->k == NULL, "'%s' loads", ins[k]);
		ck_assert_msg(strstr(errors(r), "test.sass:3:9: error: '") &&
		              strstr(errors(r), "' is a destination of '") &&
		              strstr(errors(r), "but V registers are source operands only"),
		              "'%s': %s", ins[k], errors(r));
		done(r);
	}
}
END_TEST

/* a V operand range past the register file is a load error, not a read past it, also where
 * only the opcode makes the operand a tuple (IMAD.WIDE's addend, an MMA fragment) */
START_TEST(test_v_range_rejected)
{
	static const char *const ins[] = {
		"        LDG.E R6, [V2047.64] ;\n",
		"        STG.E.64 [R2.64], V2047 ;\n",
		"        HMMA.16816.F32 R16, V2046, R12, RZ ;\n",
	};

	for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++) {
		char body[256];
		Run *r;
		snprintf(body, sizeof body, "%s        EXIT ;\n", ins[k]);
		r = load(body);
		ck_assert_msg(r->sm == NULL || r->k == NULL, "'%s' loads", ins[k]);
		ck_assert_msg(strstr(errors(r), "test.sass:3:9: error: ") &&
		              strstr(errors(r), "past V2047"), "'%s': %s", ins[k], errors(r));
		done(r);
	}
	{
		Run *r = load("        IMAD.WIDE R6, R0, 0x4, V2047 ;\n        EXIT ;\n");
		ck_assert_msg(r->sm == NULL || r->k == NULL, "IMAD.WIDE with V2047 loads");
		ck_assert_msg(strstr(errors(r), "test.sass:3:9: error: 'V2047' begins a 2-register "
		                     "operand of 'IMAD', which runs past V2047"), "%s", errors(r));
		done(r);
	}
	/* the last register itself is fine */
	{
		Run *r = load("        FADD R6, V2047, V0 ;\n        EXIT ;\n");
		ck_assert_msg(r->sm && r->k, "%s", errors(r));
		done(r);
	}
}
END_TEST

Suite *
simv_suite(void)
{
	Suite *s = suite_create("simv");
	TCase *rd = tcase_create("read");
	TCase *rej = tcase_create("reject");

	tcase_add_test(rd, test_fadd);
	tcase_add_test(rd, test_imad);
	tcase_add_test(rd, test_mov);
	tcase_add_test(rd, test_ldg_address);
	tcase_add_test(rd, test_stg_data);
	tcase_add_test(rd, test_shfl);
	tcase_add_test(rd, test_hmma_fragments);
	tcase_add_test(rd, test_r2ur);
	tcase_add_test(rd, test_match);
	tcase_add_test(rej, test_v_destination_rejected);
	tcase_add_test(rej, test_v_range_rejected);
	suite_add_tcase(s, rd);
	suite_add_tcase(s, rej);
	return s;
}
