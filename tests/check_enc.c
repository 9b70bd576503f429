/* check_enc.c: the instruction encoding in the IR (ir/enc.h): the control field of every word of
 * the bundled listings decodes into Ins.ctrl and packs back to the same word; an instruction a
 * test builds, with control bits set, is printed with them and timed by them; a kernel where one
 * instruction has no encoding words keeps the control bits of the others; a listing whose word
 * contradicts its text (FMUL over an FFMA word) is a located error where fiberc and the runtime
 * load it; SET_RD and SET_IMM32 change their field only; a float literal's exact bits live in the
 * operand, so a rewritten operand is what the simulator computes with. And the MMA modifiers (ir/mma.h): the record of every tensor-core form
 * of the bundled listings, the opcode table's fragment widths and the simulator's decoded shape
 * and types agree with it.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"
#include "frontend.h"
#include "mma.h"
#include "timing.h"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct Run {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
} Run;

static Run *
parse(const char *name, const char *text)
{
	Run *r = calloc(1, sizeof *r);

	r->src = src_new(name, text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	return r;
}

static const char *
errors(Run *r)
{
	fflush(r->errf);
	return r->err ? r->err : "";
}

static void
done(Run *r)
{
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* the module printed as a listing into *buf (malloc'd) */
static void
printed(Module *m, char **buf, size_t *n)
{
	FILE *f = open_memstream(buf, n);

	print_module(f, m, 0, NULL);
	fclose(f);
}

/* control field: stall, yield (1: yield, bit 0), write SB, read SB (7: none), wait mask */
static uint64_t
w1(unsigned stall, int yield, unsigned wsb, unsigned rsb, unsigned wait)
{
	uint64_t c = stall | (yield ? 0u : 1u) << 4 | wsb << 5 | rsb << 8 | wait << 11;
	return c << 41;
}

static const char head[] = "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n";

/* an instruction line with its two words, or without words when enc is 0 */
static size_t
line(char *b, size_t cap, int enc, uint32_t addr, const char *text, uint64_t e0, uint64_t e1)
{
	if (!enc)
		return (size_t)snprintf(b, cap, "        /*%04x*/ %s ;\n", addr, text);
	return (size_t)snprintf(b, cap, "        /*%04x*/ %s ; /* 0x%016llx */\n"
	                        "                  /* 0x%016llx */\n", addr, text,
	                        (unsigned long long)e0, (unsigned long long)e1);
}

/* ---- round trip over the bundled listings --------------------------------------------------- */

/* every word 1 of every bundled listing: decoded into Ins.ctrl, the printer's word is the word
 * read; and the fields are the bits the diagram says */
START_TEST(test_enc_roundtrip_listings)
{
	const char *root = getenv("FIBER_ROOT");
	char cmd[1024], path[1024];
	FILE *ls;
	uint64_t nword = 0;
	int nfile = 0;

	snprintf(cmd, sizeof cmd, "cd '%s' && ls examples/*/*.sass examples/*/*/*.sass "
	         "tests/corpus/*.sass bench/*.sass tests/golden/*.sass tests/ir/*.sass 2>/dev/null",
	         root ? root : ".");
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(path, sizeof path, ls)) {
		char full[2048];
		Diag d;
		Src *src;
		Module *m;
		path[strcspn(path, "\n")] = 0;
		snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
		diag_init(&d, NULL, stderr);
		ck_assert_ptr_nonnull(src = src_read(full, &d));
		d.src = src;
		m = sass_parse(src, &d);
		ck_assert_msg(m != NULL, "%s", path);
		for (uint32_t k = 0; k < m->nfn; k++)
			for (uint32_t j = 0; j < m->fn[k]->nins; j++) {
				const Ins *i = &m->fn[k]->ins[j];
				uint64_t c;
				ck_assert_int_eq(i->ctrl.has, i->nenc == 2);
				if (i->nenc < 2)
					continue;
				c = i->enc[1] >> 41;
				ck_assert_uint_eq(i->ctrl.stall, c & 15);
				ck_assert_uint_eq(i->ctrl.yield, c >> 4 & 1);
				ck_assert_uint_eq(i->ctrl.wsb, c >> 5 & 7);
				ck_assert_uint_eq(i->ctrl.rsb, c >> 8 & 7);
				ck_assert_uint_eq(i->ctrl.wait, c >> 11 & 63);
				ck_assert_uint_eq(i->ctrl.reuse, c >> 17 & 15);
				ck_assert_msg(enc_emit_word(i, 1) == i->enc[1] && enc_emit_word(i, 0) ==
				              i->enc[0], "%s: instruction %u", path, j);
				nword++;
			}
		module_free(m);
		src_free(src);
		nfile++;
	}
	pclose(ls);
	ck_assert_int_gt(nfile, 30);
	ck_assert_uint_gt(nword, 10000);
}
END_TEST

/* the fields pack into the field they came from, bits 21..22 of the control field untouched */
START_TEST(test_enc_fields_pack)
{
	Ins i;
	Ctrl c;

	memset(&i, 0, sizeof i);
	i.nenc = 2;
	i.enc[0] = 0x0000000402047981ull;
	i.enc[1] = 0x000ea2000c1e9d00ull | 3ull << 62;     /* bits 21..22 of the field set */
	i.ctrl = enc_ctrl(i.enc[1]);
	ck_assert_uint_eq(i.ctrl.stall, 1);
	ck_assert_uint_eq(i.ctrl.yield, 1);
	ck_assert_uint_eq(i.ctrl.wsb, 2);
	ck_assert_uint_eq(i.ctrl.rsb, 7);
	ck_assert_uint_eq(i.ctrl.wait, 0);
	ck_assert_uint_eq(enc_emit_word(&i, 1), i.enc[1]);
	c = i.ctrl;
	c.stall = 9;
	c.wait = 0x21;
	c.reuse = 5;
	enc_set_ctrl(&i, c);
	ck_assert_uint_eq(enc_emit_word(&i, 1) >> 41, 9u | 1u << 4 | 2u << 5 | 7u << 8 | 0x21u << 11 |
	                  5u << 17 | 3u << 21);
	ck_assert_uint_eq(enc_emit_word(&i, 1) & ((1ull << 41) - 1), i.enc[1] & ((1ull << 41) - 1));
	ck_assert_uint_eq(enc_emit_word(&i, 0), i.enc[0]);
}
END_TEST

/* the word accessors write their field and nothing else: SET_RD and SET_IMM32 on word 0 */
START_TEST(test_enc_word_setters)
{
	uint64_t w = 0x0000000402047981ull;

	SET_RD(w, 0x1ff);                 /* 8 bits: the ninth is dropped */
	ck_assert_uint_eq(w, 0x0000000402ff7981ull);
	ck_assert_uint_eq(GET_RD(w), 0xff);
	SET_IMM32(w, 0xdeadbeefu);
	ck_assert_uint_eq(w, 0xdeadbeef02ff7981ull);
	ck_assert_uint_eq(GET_IMM32(w), 0xdeadbeefu);
	ck_assert_uint_eq(GET_OPCODE(w), 0x181);
}
END_TEST

/* ---- an instruction built by a test: printed and timed with its control bits --------------- */

/* clock, IADD3 x3, clock: the distance is the three stall counts plus the first clock's */
static char *
stall_kernel(unsigned stall)
{
	static const char *const body[] = {
		"S2R R0, SR_TID.X", "MOV R4, c[0x0][0x160]", "MOV R5, c[0x0][0x164]",
		"IMAD.WIDE.U32 R2, R0, 0x4, R4", "CS2R R6, SR_CLOCKLO", "IADD3 R8, R8, 0x1, RZ",
		"IADD3 R8, R8, 0x1, RZ", "IADD3 R8, R8, 0x1, RZ", "CS2R R10, SR_CLOCKLO",
		"IADD3 R12, R10, -R6, RZ", "STG.E [R2.64], R12", "EXIT",
	};
	static const unsigned st[] = { 1, 1, 4, 4, 1, 0, 0, 0, 4, 5, 1, 5 };
	char *b = malloc(8192);
	size_t n = (size_t)snprintf(b, 8192, "%s", head);

	for (unsigned k = 0; k < sizeof body / sizeof body[0]; k++) {
		unsigned s = st[k] ? st[k] : stall;
		uint64_t e1 = k == 0 ? w1(1, 0, 0, 7, 0) : k == 3 ? w1(4, 0, 7, 7, 1) : w1(s, 0, 7, 7, 0);
		n += line(b + n, 8192 - n, 1, 16 * k, body[k], 0, e1);
	}
	return b;
}

/* the clock distance of kernel text on the a100 model, and its ctrl_mode */
static uint32_t
clocks(const char *text, int forced, int *mode)
{
	Run *r = parse("kern.sass", text);
	SimConfig c;
	Gpu *g;
	SimModule *sm;
	const Prog *k;
	LaunchParams lp = { { 1, 1, 1 }, { 32, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	TimingOpts o = {0};
	SimTStats st;
	SimFault f;
	uint64_t out;
	uint32_t v;

	simconfig_default(&c, 80);
	c.t.icache_bytes = 0;
	if (forced)
		c.t.ctrl_mode = (uint32_t)forced;
	g = gpu_new(simcfg_gpu(&c));
	sm = sim_module_load(g, r->m, &r->d);
	ck_assert_msg(sm != NULL, "load failed:\n%s", errors(r));
	ck_assert_ptr_nonnull(k = sim_module_kernel(sm, "kern"));
	ck_assert_int_eq(gpu_malloc(g, 32 * 4, &out), 0);
	lp.params = &out;
	memset(&st, 0, sizeof st);
	o.threads = 1;
	ck_assert_msg(sim_launch_timed(g, &c, sm, k, &lp, &o, &st, &f) == 0, "%s", f.msg);
	ck_assert_int_eq(gpu_read(g, out, &v, 4), 0);
	if (mode)
		*mode = st.ctrl_mode;
	simtstats_free(&st);
	sim_module_free(sm);
	gpu_free(g);
	done(r);
	return v;
}

/* a pass's instruction: appended to the function with control bits (stall 7), printed with them
 * in its encoding comment, read back with them, and timed by them */
START_TEST(test_enc_inserted_instruction)
{
	char *text = stall_kernel(2), *out = NULL, *again;
	size_t nout = 0;
	Run *r = parse("kern.sass", text);
	Fn *f = r->m->fn[0];
	Ins *i, *tmpl;
	Ctrl c;
	uint32_t base, edited;
	char want[64];
	const char *at, *hit, *next;

	/* the third IADD3 (index 7) is replaced by a copy built here, with stall 7 */
	tmpl = &f->ins[7];
	i = xmalloc(sizeof *i);
	memset(i, 0, sizeof *i);
	i->op = tmpl->op;
	i->name = tmpl->name;
	i->nopnd = tmpl->nopnd;
	i->opnd = tmpl->opnd;
	i->addr = tmpl->addr;
	i->loc = tmpl->loc;
	i->nenc = 2;
	i->enc[0] = tmpl->enc[0];
	c = tmpl->ctrl;
	c.stall = 7;
	c.wsb = 3;
	enc_set_ctrl(i, c);
	*tmpl = *i;
	free(i);
	printed(r->m, &out, &nout);
	/* the comment after the edited instruction carries the new field */
	at = strstr(out, "/*0070*/");
	ck_assert_ptr_nonnull(at);
	snprintf(want, sizeof want, "/* 0x%016llx */", (unsigned long long)(w1(7, 0, 3, 7, 0)));
	hit = strstr(at, want);
	next = strstr(at, "/*0080*/");
	ck_assert_msg(hit != NULL && next != NULL && hit < next, "%s not after the instruction:\n%s",
	              want, out);
	/* read back: the same fields; timed: the stall counts, the edited one included */
	again = strdup(out);
	{
		Run *r2 = parse("again.sass", again);
		ck_assert_uint_eq(r2->m->fn[0]->ins[7].ctrl.stall, 7);
		ck_assert_uint_eq(r2->m->fn[0]->ins[7].ctrl.wsb, 3);
		done(r2);
	}
	base = clocks(text, 0, NULL);
	edited = clocks(again, 0, NULL);
	ck_assert_uint_eq(base, 1 + 2 + 2 + 2);
	ck_assert_uint_eq(edited, 1 + 2 + 2 + 7);
	free(again);
	free(out);
	free(text);
	done(r);
}
END_TEST

/* ---- a mixed kernel: control bits where present -------------------------------------------- */

/* one IADD3 without encoding words among instructions with stall 6: the others keep their stall
 * counts; demoting the whole kernel to the register scoreboard (ctrl_mode = scoreboard) times
 * them all at the fixed latency instead */
START_TEST(test_enc_mixed_kernel)
{
	static const char *const body[] = {
		"S2R R0, SR_TID.X", "MOV R4, c[0x0][0x160]", "MOV R5, c[0x0][0x164]",
		"IMAD.WIDE.U32 R2, R0, 0x4, R4", "CS2R R6, SR_CLOCKLO", "IADD3 R8, R8, 0x1, RZ",
		"IADD3 R9, R9, 0x1, RZ", "IADD3 R8, R8, 0x1, RZ", "IADD3 R8, R8, 0x1, RZ",
		"CS2R R10, SR_CLOCKLO", "IADD3 R12, R10, -R6, RZ", "STG.E [R2.64], R12", "EXIT",
	};
	static const unsigned st[] = { 1, 1, 4, 4, 1, 6, 0, 6, 6, 4, 5, 1, 5 };
	char b[8192];
	size_t n = (size_t)snprintf(b, sizeof b, "%s", head);
	uint32_t mixed, demoted, all;
	int mode;
	SimConfig c;

	simconfig_default(&c, 80);
	for (unsigned k = 0; k < sizeof body / sizeof body[0]; k++) {
		uint64_t e1 = k == 0 ? w1(1, 0, 0, 7, 0) : k == 3 ? w1(4, 0, 7, 7, 1)
		                                         : w1(st[k] ? st[k] : 6, 0, 7, 7, 0);
		n += line(b + n, sizeof b - n, k != 6, 16 * k, body[k], 0, e1);
	}
	mixed = clocks(b, 0, &mode);
	ck_assert_int_eq(mode, CtrlBits);
	demoted = clocks(b, CtrlScoreboard, NULL);
	ck_assert_uint_ne(mixed, demoted);
	/* the clock's stall, three IADD3s of stall 6, and the unencoded one, which holds the warp
	 * until its result is ready (no wait mask covers it): the INT latency */
	ck_assert_uint_eq(mixed, 1 + 3 * 6 + (uint32_t)c.t.lat_int);
	/* with every instruction encoded (stall 6 for it too) */
	n = (size_t)snprintf(b, sizeof b, "%s", head);
	for (unsigned k = 0; k < sizeof body / sizeof body[0]; k++) {
		uint64_t e1 = k == 0 ? w1(1, 0, 0, 7, 0) : k == 3 ? w1(4, 0, 7, 7, 1)
		                                         : w1(st[k] ? st[k] : 6, 0, 7, 7, 0);
		n += line(b + n, sizeof b - n, 1, 16 * k, body[k], 0, e1);
	}
	all = clocks(b, 0, &mode);
	ck_assert_int_eq(mode, CtrlBits);
	ck_assert_uint_eq(all, 1 + 4 * 6);
}
END_TEST

/* ---- a word that contradicts its text ------------------------------------------------------- */

static const char fmul_over_ffma[] =
	"\t.section\t.text.kern,\"ax\",@progbits\n"
	"kern:\n"
	"        /*0000*/                   FMUL R83, R85, R2 ;       /* 0x0000000255537223 */\n"
	"                                                             /* 0x000fe20000000053 */\n"
	"        /*0010*/                   EXIT ;                    /* 0x000000000000794d */\n"
	"                                                             /* 0x000fea0003800000 */\n";

/* fiberc's checks and the load checks: an error at the opcode */
START_TEST(test_enc_mismatch_is_located)
{
	Run *r = parse("mix.sass", fmul_over_ffma);

	ck_assert_int_eq(sass_check_enc(r->m, &r->d), -1);
	ck_assert_msg(strstr(errors(r), "mix.sass:3:36: error: the encoding word 0x0000000255537223 "
	                     "is FFMA's (opcode bits 0x023), not FMUL's") != NULL, "%s", errors(r));
	done(r);
}
END_TEST

/* the runtime (what fibersim and libfiberrt load through) refuses it with the same message */
START_TEST(test_enc_mismatch_refused_at_load)
{
	fiberDevice d = NULL;
	fiberModule m = NULL;

	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleLoadData(&m, d, fmul_over_ffma, strlen(fmul_over_ffma),
	                                     "mix.sass"), FIBER_ERROR_INVALID_SOURCE);
	ck_assert_msg(strstr(fiberGetLastErrorLog(d), "mix.sass:3:36: error: the encoding word") !=
	              NULL, "%s", fiberGetLastErrorLog(d));
	fiberDeviceDestroy(d);
}
END_TEST

/* ---- float literals: the operand is the truth ------------------------------------------------ */

/* out[tid] = float(tid) + literal: FADD's word holds binary32 bits that its spelling rounds
 * (here the word holds 0.1f + 1 ulp, which the spelling "0.1" does not give) */
static char *
fadd_kernel(void)
{
	static const char *const body[] = {
		"S2R R0, SR_TID.X", "MOV R4, c[0x0][0x160]", "MOV R5, c[0x0][0x164]",
		"IMAD.WIDE.U32 R2, R0, 0x4, R4", "I2F.U32 R6, R0", "FADD R12, R6, 0.1",
		"STG.E [R2.64], R12", "EXIT",
	};
	char *b = malloc(8192);
	size_t n = (size_t)snprintf(b, 8192, "%s", head);

	for (unsigned k = 0; k < sizeof body / sizeof body[0]; k++) {
		uint64_t e0 = k == 5 ? (uint64_t)0x3dccccceu << 32 | 0x060c7421u : 0;
		n += line(b + n, 8192 - n, 1, 16 * k, body[k], e0, w1(k == 0 ? 2 : 6, 0, 7, 7, 0));
	}
	return b;
}

static uint32_t
run_out(Module *m, Diag *d, uint32_t lane)
{
	SimConfig c;
	Gpu *g;
	SimModule *sm;
	const Prog *k;
	LaunchParams lp = { { 1, 1, 1 }, { 32, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	SimStats st;
	SimFault f;
	uint64_t out;
	uint32_t v;

	simconfig_default(&c, 80);
	g = gpu_new(simcfg_gpu(&c));
	ck_assert_ptr_nonnull(sm = sim_module_load(g, m, d));
	ck_assert_ptr_nonnull(k = sim_module_kernel(sm, "kern"));
	ck_assert_int_eq(gpu_malloc(g, 32 * 4, &out), 0);
	lp.params = &out;
	memset(&st, 0, sizeof st);
	ck_assert_msg(sim_launch(g, sm, k, &lp, &st, &f) == 0, "%s", f.msg);
	ck_assert_int_eq(gpu_read(g, out + 4 * lane, &v, 4), 0);
	sim_module_free(sm);
	gpu_free(g);
	return v;
}

START_TEST(test_enc_immediate_in_operand)
{
	char *text = fadd_kernel();
	Run *r = parse("fadd.sass", text);
	Ins *i = &r->m->fn[0]->ins[5];
	Opnd *o = &i->opnd[2];
	float want;
	uint32_t bits;

	/* the front end put the word's bits into the operand */
	ck_assert_int_eq(o->kind, OFImm);
	ck_assert(o->flags & FImmBits);
	ck_assert_uint_eq((uint32_t)o->imm2, 0x3dccccceu);
	/* lane 0: 0 + the word's float, not the spelling's */
	ck_assert_uint_eq(run_out(r->m, &r->d, 0), 0x3dccccceu);
	/* the word's bits moved into the operand: rewriting the word changes nothing */
	i->enc[0] = (uint64_t)0x40400000u << 32 | (i->enc[0] & 0xffffffffu);
	ck_assert_uint_eq(run_out(r->m, &r->d, 0), 0x3dccccceu);
	/* a pass rewrites the operand to 2.5 (its exact bits: the value): lane 3 is 5.5 */
	o->fimm = 2.5;
	o->flags &= (uint16_t)~FImmBits;
	want = 5.5f;
	memcpy(&bits, &want, 4);
	ck_assert_uint_eq(run_out(r->m, &r->d, 3), bits);
	/* or to exact bits: 0x3f800001 (1 + 1 ulp) */
	o->imm2 = 0x3f800001;
	o->flags |= FImmBits;
	ck_assert_uint_eq(run_out(r->m, &r->d, 0), 0x3f800001u);
	free(text);
	done(r);
}
END_TEST

/* ---- MMA forms (ir/mma.h) ------------------------------------------------------------------- */

/* registers of operand k that op_slots gives (kind SDef or SUse, the operand's own field 0) */
static unsigned
slot_width(const Ins *i, unsigned k, int kind)
{
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].opnd == k && i->slot[j].field == 0 && i->slot[j].kind == kind)
			return i->slot[j].n;
	return 0;
}

/* registers of a fragment of elems elements of bits each (PTX ISA mma fragment layouts) */
static unsigned
frag(unsigned elems, unsigned bits)
{
	unsigned r = elems * bits / 32;
	return r < 1 ? 1 : r;
}

/* some forms by name, with the fragment registers of docs/opcodes.md (D, A, B) */
static const struct {
	const char *form;
	uint16_t m, n, k;
	uint8_t a, b, c, d, ra, rb;
} known_forms[] = {
	{"HMMA.16816.F32", 16, 8, 16, EF16, EF16, EF32, 4, 4, 2},
	{"HMMA.16816.F16", 16, 8, 16, EF16, EF16, EF16, 2, 4, 2},
	{"HMMA.1688.F32.TF32", 16, 8, 8, ETF32, ETF32, EF32, 4, 4, 2},
	{"HMMA.1684.F32.TF32", 16, 8, 4, ETF32, ETF32, EF32, 4, 2, 1},
	{"HMMA.SP.16832.F32", 16, 8, 32, EF16, EF16, EF32, 4, 4, 4},
	{"IMMA.16832.S8.S8", 16, 8, 32, ES8, ES8, ES32, 4, 4, 2},
	{"IMMA.16832.U8.S8.SAT", 16, 8, 32, EU8, ES8, ES32, 4, 4, 2},
	{"IMMA.8832.S4.S4", 8, 8, 32, ES4, ES4, ES32, 2, 1, 1},
	{"BMMA.168256.AND.POPC", 16, 8, 256, EB1, EB1, ES32, 4, 4, 2},
	{"DMMA.884", 8, 8, 4, EF64, EF64, EF64, 4, 2, 2},
	{"DMMA.8x8x4", 8, 8, 4, EF64, EF64, EF64, 4, 2, 2},
	{"DMMA.16x8x16", 16, 8, 16, EF64, EF64, EF64, 8, 16, 8},
	{"QMMA.16832.F32.E5M2.E4M3", 16, 8, 32, EE5M2, EE4M3, EF32, 4, 4, 2},
};

/* the text of i's opcode with its modifiers ("HMMA.16816.F32") */
static void
form_name(const Module *m, const Ins *i, char *b, size_t n)
{
	size_t at = (size_t)snprintf(b, n, "%s", op_name(i->op));
	for (unsigned k = 0; k < i->nmod && at < n; k++)
		at += (size_t)snprintf(b + at, n - at, ".%s", mstr(m, i->mod[k]));
}

static int
is_mma(int op)
{
	return op == OHMMA || op == OIMMA || op == OBMMA || op == ODMMA || op == OQMMA ||
	       op == OHGMMA || op == OIGMMA || op == OQGMMA || op == OBGMMA;
}

/* every MMA instruction of the bundled listings: its record is whole (a shape of its family, no
 * modifier left unread); the opcode table's widths are the PTX fragments of the record's shape
 * and widths; where the simulator decodes it, it keeps the record's shape and types; the forms
 * docs/opcodes.md lists have the types and widths it gives */
START_TEST(test_mma_forms_of_listings)
{
	const char *root = getenv("FIBER_ROOT");
	char cmd[1024], path[1024];
	FILE *ls;
	unsigned nform = 0, nsim = 0, nnamed = 0, seen[sizeof known_forms / sizeof known_forms[0]];

	memset(seen, 0, sizeof seen);
	snprintf(cmd, sizeof cmd, "cd '%s' && ls examples/*/*.sass examples/*/*/*.sass "
	         "tests/corpus/*.sass bench/*.sass tests/golden/*.sass tests/ir/*.sass 2>/dev/null",
	         root ? root : ".");
	ck_assert_ptr_nonnull(ls = popen(cmd, "r"));
	while (fgets(path, sizeof path, ls)) {
		char full[2048];
		Diag d;
		Src *src;
		Module *m;
		SimModule *sm = NULL;
		Gpu *g = NULL;
		SimConfig c;
		FILE *quiet = fopen("/dev/null", "w");
		path[strcspn(path, "\n")] = 0;
		snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
		diag_init(&d, NULL, stderr);
		ck_assert_ptr_nonnull(src = src_read(full, &d));
		d.src = src;
		ck_assert_ptr_nonnull(m = sass_parse(src, &d));
		for (uint32_t k = 0, any = 0; k < m->nfn && !any; k++)
			for (uint32_t j = 0; j < m->fn[k]->nins && !any; j++)
				any = is_mma(m->fn[k]->ins[j].op);
		simconfig_default(&c, m->sm >= 90 ? 90 : 80);
		g = gpu_new(simcfg_gpu(&c));
		diag_init(&d, src, quiet);
		sm = sim_module_load(g, m, &d);
		for (uint32_t k = 0; k < m->nfn; k++) {
			Fn *f = m->fn[k];
			const Prog *p = sm ? sim_module_kernel(sm, mstr(m, f->name)) : NULL;
			for (uint32_t j = 0; j < f->nins; j++) {
				Ins *i = &f->ins[j];
				MmaForm r;
				char name[128];
				unsigned M, N, K, dw, aw, bw;
				if (!is_mma(i->op))
					continue;
				nform++;
				form_name(m, i, name, sizeof name);
				mma_form(m, i, &r);
				ck_assert_msg(r.shaped == 1 && r.bad == 0, "%s: %s: shaped %d, bad %u", path,
				              name, r.shaped, r.bad);
				M = r.shape.m, N = r.shape.n, K = r.shape.k;
				if (!i->slot)
					ck_assert_int_eq(op_slots(f, i), 0);
				dw = slot_width(i, 0, SDef);
				if (i->op >= OHGMMA) {
					ck_assert_msg(dw == frag(M * N / 128, r.dbits), "%s: %s: D %u", path, name,
					              dw);
				} else if (i->op == OHMMA && M == 8 && K == 4) {
					ck_assert_uint_eq(dw, r.dbits == 32 ? 8 : 4);
				} else {
					aw = frag(M * K / 32, r.abits);
					if (r.sparse && aw > 1)
						aw /= 2;
					bw = frag(N * K / 32, r.bbits);
					ck_assert_msg(dw == frag(M * N / 32, r.dbits) &&
					              slot_width(i, 1, SUse) == aw && slot_width(i, 2, SUse) == bw,
					              "%s: %s: D %u A %u B %u", path, name, dw,
					              slot_width(i, 1, SUse), slot_width(i, 2, SUse));
				}
				for (unsigned q = 0; q < sizeof known_forms / sizeof known_forms[0]; q++) {
					if (strcmp(name, known_forms[q].form) != 0)
						continue;
					ck_assert_msg(M == known_forms[q].m && N == known_forms[q].n &&
					              K == known_forms[q].k && r.a == known_forms[q].a &&
					              r.b == known_forms[q].b && r.c == known_forms[q].c &&
					              r.d == r.c && dw == known_forms[q].d &&
					              slot_width(i, 1, SUse) == known_forms[q].ra &&
					              slot_width(i, 2, SUse) == known_forms[q].rb, "%s", name);
					seen[q] = 1;
				}
				/* the decoded instruction: the record's shape and types */
				if (p && i->op < OHGMMA && !r.sparse) {
					const DIns *di = &p->ins[j];
					ck_assert_ptr_eq(di->ir, i);
					ck_assert_uint_eq(di->aux, MMA_AUX(M, N, K));
					ck_assert_uint_eq(MMA_ATY(di->mod), r.a);
					ck_assert_uint_eq(di->mod >> 4 & 15, r.b);
					ck_assert_uint_eq(di->mod >> 8 & 15, r.c);
					nsim++;
				}
			}
		}
		sim_module_free(sm);
		gpu_free(g);
		fclose(quiet);
		module_free(m);
		src_free(src);
	}
	pclose(ls);
	for (unsigned q = 0; q < sizeof known_forms / sizeof known_forms[0]; q++) {
		ck_assert_msg(seen[q], "%s is not in the bundled listings", known_forms[q].form);
		nnamed++;
	}
	ck_assert_uint_gt(nform, 500);
	ck_assert_uint_gt(nsim, 300);
	ck_assert_uint_eq(nnamed, sizeof known_forms / sizeof known_forms[0]);
}
END_TEST

/* the record of forms no listing has: defaults, bad words, shapes of another family */
START_TEST(test_mma_form_records)
{
	static const char text[] =
		"\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
		"        /*0000*/ HMMA.1688.F16 R4, R8, R10, R4 ;\n"
		"        /*0010*/ IMMA.8816.U8 R4, R8, R10, R4 ;\n"
		"        /*0020*/ DMMA.884.FOO R4, R8, R10, R4 ;\n"
		"        /*0030*/ IMMA.884.S8.S8 R4, R8, R10, R4 ;\n"
		"        /*0040*/ HMMA.16x8 R4, R8, R10, R4 ;\n"
		"        /*0050*/ HGMMA.64x64x16.F16 R24, gdesc[UR4], RZ ;\n"
		"        /*0060*/ HMMA.16816.16816.F32 R4, R8, R10, R4 ;\n"
		"        /*0070*/ EXIT ;\n";
	Run *r = parse("mma.sass", text);
	Fn *f = r->m->fn[0];
	MmaForm x;

	mma_form(r->m, &f->ins[0], &x);       /* F16 accumulator, F16 inputs by default */
	ck_assert_int_eq(x.shaped, 1);
	ck_assert_uint_eq(x.c, EF16);
	ck_assert_uint_eq(x.a, EF16);
	ck_assert_uint_eq(x.cbits, 16);
	mma_form(r->m, &f->ins[1], &x);       /* B defaults to A's type */
	ck_assert_uint_eq(x.a, EU8);
	ck_assert_uint_eq(x.b, EU8);
	ck_assert_uint_eq(x.c, ES32);
	mma_form(r->m, &f->ins[2], &x);       /* FOO means nothing */
	ck_assert_int_eq(x.shaped, 1);
	ck_assert_uint_eq(x.bad, 2);
	ck_assert_uint_eq(x.badshape, 0);
	mma_form(r->m, &f->ins[3], &x);       /* 8x8x4 is not IMMA's */
	ck_assert_int_eq(x.shaped, -1);
	ck_assert_uint_eq(x.bad, 1);
	ck_assert_uint_eq(x.badshape, 1);
	mma_form(r->m, &f->ins[4], &x);       /* malformed */
	ck_assert_int_eq(x.shaped, -1);
	ck_assert_uint_eq(x.shape.m, 0);
	mma_form(r->m, &f->ins[5], &x);       /* warpgroup: any well-formed shape */
	ck_assert_int_eq(x.shaped, 1);
	ck_assert_uint_eq(x.shape.n, 64);
	ck_assert_uint_eq(x.dbits, 16);
	mma_form(r->m, &f->ins[6], &x);       /* a second shape */
	ck_assert_int_eq(x.shaped, 1);
	ck_assert_uint_eq(x.bad, 2);
	ck_assert_uint_eq(x.badshape, 0);
	done(r);
}
END_TEST

Suite *
enc_suite(void)
{
	Suite *s = suite_create("enc");
	TCase *t = tcase_create("encoding");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_enc_roundtrip_listings);
	tcase_add_test(t, test_enc_fields_pack);
	tcase_add_test(t, test_enc_word_setters);
	tcase_add_test(t, test_enc_inserted_instruction);
	tcase_add_test(t, test_enc_mixed_kernel);
	tcase_add_test(t, test_enc_mismatch_is_located);
	tcase_add_test(t, test_enc_mismatch_refused_at_load);
	tcase_add_test(t, test_enc_immediate_in_operand);
	suite_add_tcase(s, t);
	t = tcase_create("mma");
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_mma_forms_of_listings);
	tcase_add_test(t, test_mma_form_records);
	suite_add_tcase(s, t);
	return s;
}
