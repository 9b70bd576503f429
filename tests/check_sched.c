/* check_sched.c: the list scheduler (backend/sched.c, docs/pass-sched.md).
 *
 * - order: hand-written blocks whose schedule is known: two independent loads hoisted above an
 *   arithmetic chain; a store never passes a load of its space (and does pass one of another
 *   space); nothing crosses BAR.SYNC or a labelled instruction; a branch stays last;
 *   collectives keep their order; the pressure guard interleaves loads with their uses once
 *   the limit is reached; an nvcc listing loses its control bits when anything moved and
 *   keeps them when nothing did; SSA values follow the moved instructions.
 * - speed: a generated 100,000-instruction function is scheduled in well under 0.1 s (-O2).
 * - examples: every kernel of examples/kernels.txt, nvcc's sm_80 listing on a100 and sm_90 on
 *   h100, through sched and ctrl-bits (with the default rule and with every list schedule
 *   kept): outputs identical to the unscheduled listing's, hazards 0 in timing mode.
 *   FIBER_SCHED_VERBOSE=1 prints the cycles per kernel: nvcc's bits, ctrl-bits alone (the bits
 *   cleared, nothing moved), sched + ctrl-bits. And every function of tests/corpus with generic
 *   arguments, every list schedule kept: the same status and buffers (functional mode).
 */
#define _DEFAULT_SOURCE
#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "codegen.h"
#include "backend.h"
#include "fiber.h"
#include "kernrun.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- listings ---------------------------------------------------------------------------- */

typedef struct {
	Src *src;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Module *m;
	Fn *f;
} Lst;

static void
lst_text(Lst *l, const char *name, const char *text)
{
	memset(l, 0, sizeof *l);
	l->errf = open_memstream(&l->err, &l->nerr);
	diag_init(&l->d, NULL, l->errf);
	l->src = src_new(name, text, strlen(text));
	l->d.src = l->src;
	l->m = sass_parse(l->src, &l->d);
	fflush(l->errf);
	ck_assert_msg(l->m != NULL, "%s: %s", name, l->err);
	ck_assert_msg(sass_check(l->m, &l->d) == 0, "%s: %s", name, l->err);
	l->f = l->m->fn[0];
	ck_assert_int_eq(cfg_build(l->f, &l->d), 0);
	dom_build(l->f);
}

static void
lst_close(Lst *l)
{
	module_free(l->m);
	src_free(l->src);
	fclose(l->errf);
	free(l->err);
}

/* the position in Fn.ins of the first instruction whose text contains s, -1 if none */
static int
at(const Fn *f, const char *s)
{
	char buf[512];

	for (uint32_t k = 0; k < f->nins; k++) {
		fmt_ins(buf, sizeof buf, f, &f->ins[k], 0);
		if (strstr(buf, s))
			return (int)k;
	}
	return -1;
}

static int
run(Lst *l, int max_live, int always, SchedStats *st)
{
	SchedOpts o;
	int rc;

	sched_opts_default(&o);
	o.max_live = max_live;
	o.always = always;
	rc = sched_fn(l->f, &o, st, &l->d);
	fflush(l->errf);
	ck_assert_msg(rc >= 0, "%s", l->err);
	return rc;
}

#define HEAD(regs) \
	"\t.target\tsm_80\n\t.elftype\t@\"ET_EXEC\"\n\t.section\t.text.k,\"ax\",@progbits\n" \
	"\t.vreg\t\t" regs "\nk:\n.text.k:\n"
#define I(s) "        " s " ;\n"

/* ---- order --------------------------------------------------------------------------------- */

/* the loads' addresses are ready 4 cycles after the IMADs; a chain of four IADD3s is in front
 * of them in the text. The loads (200 cycles) go right after the first IADD3 (the only thing
 * ready while the IMADs finish), above the rest of the chain */
static const char loads_txt[] = HEAD("%a,%b,%c,%d,%e,%p[2],%q[2],%x,%y,%z")
	I("S2R %a, SR_TID.X")
	I("IMAD.WIDE %p, %a, 0x4, RZ")
	I("IMAD.WIDE %q, %a, 0x8, RZ")
	I("IADD3 %b, %a, 0x1, RZ")
	I("IADD3 %c, %b, 0x2, RZ")
	I("IADD3 %d, %c, 0x3, RZ")
	I("IADD3 %e, %d, 0x4, RZ")
	I("LDG.E %x, [%p.64]")
	I("LDG.E %y, [%q.64]")
	I("FADD %z, %x, %y")
	I("IADD3 %z, %z, %e, RZ")
	I("STG.E [%p.64], %z")
	I("EXIT");

START_TEST(test_sched_loads_hoisted)
{
	Lst l;
	SchedStats st;

	lst_text(&l, "loads", loads_txt);
	ck_assert_int_eq(run(&l, 200, 0, &st), 0);
	ck_assert_int_eq(at(l.f, "LDG.E %x"), 4);
	ck_assert_int_eq(at(l.f, "LDG.E %y"), 5);
	ck_assert_int_eq(at(l.f, "IADD3 %b"), 3);
	ck_assert_int_eq(at(l.f, "IADD3 %c"), 6);
	ck_assert_int_eq(at(l.f, "EXIT"), 12);
	ck_assert_uint_eq(st.blocks, 1);
	ck_assert_uint_eq(st.changed, 1);
	ck_assert_uint_eq(st.moved, 5);   /* two loads up, three IADD3s down */
	ck_assert_uint_lt(st.est_after, st.est_before);
	/* again: the schedule is its own fixed point, nothing moves */
	ck_assert_int_eq(run(&l, 200, 0, &st), PassUnchanged);
	lst_close(&l);
}
END_TEST

/* the store STS feeds (through memory) a load whose result starts a long chain: the store's
 * path is the longest, but it cannot pass the earlier LDS of the same space. The same
 * kernel with the store and the second load in global memory: the STG goes first */
#define STORE_TXT(ST, LD, A) HEAD("%a,%b,%c,%x,%y,%z,%u,%v,%p[2]") \
	I("S2R %a, SR_TID.X") \
	I("MOV %y, 0x5") \
	I("LDS %x, [%a]") \
	I(ST " [" A "+0x80], %y") \
	I(LD " %z, [" A "+0x100]") \
	I("MUFU.RCP %u, %z") \
	I("MUFU.RCP %v, %u") \
	I("FADD %c, %v, %x") \
	I("STS [%a+0x200], %c") \
	I("EXIT")
static const char store_shared_txt[] = STORE_TXT("STS", "LDS", "%a");
static const char store_global_txt[] = STORE_TXT("STG.E", "LDG.E", "%p.64");

START_TEST(test_sched_store_after_load)
{
	Lst l;

	lst_text(&l, "store", store_shared_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_lt(at(l.f, "LDS %x"), at(l.f, "STS [%a+0x80]"));
	ck_assert_int_lt(at(l.f, "STS [%a+0x80]"), at(l.f, "LDS %z"));
	lst_close(&l);
	/* another space: no order between the LDS and the STG */
	lst_text(&l, "store-global", store_global_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_lt(at(l.f, "STG.E [%p.64+0x80]"), at(l.f, "LDS %x"));
	ck_assert_int_lt(at(l.f, "STG.E [%p.64+0x80]"), at(l.f, "LDG.E %z"));
	lst_close(&l);
}
END_TEST

/* a load after BAR.SYNC stays after it, though it is ready first and its path the longest; so
 * it does after a clock read; without either it goes to the top */
#define BAR_TXT(B) HEAD("%a,%b,%c,%d,%x,%p[2],%t[2]") \
	I("S2R %a, SR_TID.X") \
	I("IADD3 %b, %a, 0x1, RZ") \
	I("IADD3 %c, %b, 0x1, RZ") \
	B \
	I("LDG.E %x, [%p.64]") \
	I("FADD %d, %x, %c") \
	I("STG.E [%p.64], %d") \
	I("EXIT")
static const char bar_txt[] = BAR_TXT(I("BAR.SYNC.DEFER_BLOCKING 0x0"));
static const char nobar_txt[] = BAR_TXT("");
static const char clock_txt[] = BAR_TXT(I("CS2R %t, SR_CLOCKLO"));

START_TEST(test_sched_barrier)
{
	Lst l;

	lst_text(&l, "bar", bar_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_eq(at(l.f, "BAR.SYNC"), 3);
	ck_assert_int_eq(at(l.f, "LDG.E %x"), 4);
	lst_close(&l);
	/* a clock read is in order with everything */
	lst_text(&l, "clock", clock_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_eq(at(l.f, "CS2R %t"), 3);
	ck_assert_int_eq(at(l.f, "LDG.E %x"), 4);
	lst_close(&l);
	lst_text(&l, "nobar", nobar_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_eq(at(l.f, "LDG.E %x"), 0);
	lst_close(&l);
}
END_TEST

/* an unreferenced label inside a block stays on its instruction, and nothing crosses it: the
 * load goes right after it, not to the top */
static const char label_txt[] = HEAD("%a,%b,%c,%d,%e,%x,%p[2]")
	I("S2R %a, SR_TID.X")
	I("IADD3 %b, %a, 0x1, RZ")
	".L_x_9:\n"
	I("IADD3 %c, %b, 0x1, RZ")
	I("IADD3 %e, %c, 0x1, RZ")
	I("LDG.E %x, [%p.64]")
	I("FADD %d, %x, %e")
	I("STG.E [%p.64], %d")
	I("EXIT");

START_TEST(test_sched_label)
{
	Lst l;

	lst_text(&l, "label", label_txt);
	ck_assert_uint_eq(l.f->nblk, 1);
	run(&l, 200, 1, NULL);
	ck_assert_int_eq(at(l.f, "IADD3 %c"), 2);
	ck_assert_str_eq(mstr(l.m, l.f->ins[2].label), ".L_x_9");
	ck_assert_int_eq(at(l.f, "LDG.E %x"), 3);
	ck_assert_int_eq(at(l.f, "IADD3 %e"), 4);
	lst_close(&l);
}
END_TEST

/* the branch is ready at once and S2R's consumers are not: without its pin it would fill the
 * wait. Guarded (its predicate from the ISETP) or not, it stays last */
#define BRA_TXT(G) HEAD("%a,%b,%c") \
	I("S2R %a, SR_TID.X") \
	I("ISETP.GT.AND P0, PT, %a, 0x3, PT") \
	I("IADD3 %b, %a, 0x1, RZ") \
	I("IADD3 %c, %b, 0x1, RZ") \
	I("STS [%b], %c") \
	I(G "BRA `(.L_x_1)") \
	".L_x_1:\n" \
	I("EXIT")
static const char bra_txt[] = BRA_TXT("");
static const char gbra_txt[] = BRA_TXT("@P0 ");

START_TEST(test_sched_branch_last)
{
	static const char *const txt[] = {bra_txt, gbra_txt};

	for (int k = 0; k < 2; k++) {
		Lst l;
		lst_text(&l, "bra", txt[k]);
		ck_assert_uint_eq(l.f->blk[0]->nins, 6);
		run(&l, 200, 1, NULL);
		ck_assert_int_eq(at(l.f, "BRA"), 5);
		ck_assert_int_eq(at(l.f, "EXIT"), 6);
		lst_close(&l);
	}
}
END_TEST

/* two SHFLs: the second one's chain is longer, yet they keep their order; the VOTE as well */
static const char coll_txt[] = HEAD("%a,%b,%c,%d,%e,%f,%g")
	I("S2R %a, SR_TID.X")
	I("SHFL.BFLY PT, %b, %a, 0x1, 0x1f")
	I("VOTE.ANY %g, PT, PT")
	I("SHFL.BFLY PT, %c, %a, 0x2, 0x1f")
	I("MUFU.RCP %d, %c")
	I("MUFU.RCP %e, %d")
	I("FADD %f, %e, %b")
	I("IADD3 %f, %f, %g, RZ")
	I("STS [%a], %f")
	I("EXIT");

START_TEST(test_sched_collectives)
{
	Lst l;

	lst_text(&l, "coll", coll_txt);
	run(&l, 200, 1, NULL);
	ck_assert_int_lt(at(l.f, "SHFL.BFLY PT, %b"), at(l.f, "VOTE.ANY"));
	ck_assert_int_lt(at(l.f, "VOTE.ANY"), at(l.f, "SHFL.BFLY PT, %c"));
	lst_close(&l);
}
END_TEST

/* six 128-bit loads (as many as ctrl-bits has scoreboards), each summed into an accumulator:
 * the list schedule puts every load first (24 registers + the address + the accumulator live
 * at once); with a limit of 12 the guard lets at most 12 be live: loads and their uses
 * interleave */
static const char press_txt[] = HEAD("%a,%p[2],%s,%v0[4],%v1[4],%v2[4],%v3[4],%v4[4],%v5[4]")
	I("S2R %a, SR_TID.X")
	I("IMAD.WIDE %p, %a, 0x10, RZ")
	I("MOV %s, RZ")
#define L(n) I("LDG.E.128 %v" #n ", [%p.64+0x" #n "00]") \
	I("FADD %s, %s, %v" #n) I("FADD %s, %s, %v" #n "[1]") \
	I("FADD %s, %s, %v" #n "[2]") I("FADD %s, %s, %v" #n "[3]")
	L(0) L(1) L(2) L(3) L(4) L(5)
#undef L
	I("STG.E [%p.64], %s")
	I("EXIT");

START_TEST(test_sched_pressure_guard)
{
	Lst l;
	SchedStats st;
	int last = -1, inter = 0;

	lst_text(&l, "free", press_txt);
	run(&l, 0, 1, &st);
	for (int n = 0; n < 6; n++) {
		char s[32];
		snprintf(s, sizeof s, "LDG.E.128 %%v%d,", n);
		ck_assert_int_lt(at(l.f, s), at(l.f, "FADD"));  /* every load before the first use */
	}
	ck_assert_int_eq(st.peak_live, 27);                  /* 6 x 4 + %p + %s */
	lst_close(&l);
	lst_text(&l, "guard", press_txt);
	run(&l, 12, 1, &st);
	ck_assert_int_le(st.peak_live, 12);
	ck_assert_int_ge(st.peak_live, 11);                  /* the guard lets it fill up */
	/* some load comes after a use of an earlier one */
	for (uint32_t k = 0; k < l.f->nins; k++)
		if (l.f->ins[k].op == OLDG)
			inter |= last >= 0 && (uint32_t)last < k;
		else if (l.f->ins[k].op == OFADD && last < 0)
			last = (int)k;
	ck_assert_int_eq(inter, 1);
	lst_close(&l);
}
END_TEST

/* eight independent loads and their uses: ctrl-bits has six scoreboards and, in a function of
 * new instructions, puts a seventh load on the SB of the last one (events of one kind share an
 * SB, docs/pass-ctrl-bits.md), so nothing waits: the schedule issues the eight loads, then the
 * uses in order */
static const char sb_txt[] = HEAD("%a,%p[2],%s,%v0,%v1,%v2,%v3,%v4,%v5,%v6,%v7")
	I("S2R %a, SR_TID.X")
	I("IMAD.WIDE %p, %a, 0x10, RZ")
	I("MOV %s, RZ")
#define L(n) I("LDG.E %v" #n ", [%p.64+0x" #n "00]") I("FADD %s, %s, %v" #n)
	L(0) L(1) L(2) L(3) L(4) L(5) L(6) L(7)
#undef L
	I("STG.E [%p.64], %s")
	I("EXIT");

START_TEST(test_sched_scoreboards)
{
	Lst l;
	int first = -1, before = 0;

	lst_text(&l, "sb", sb_txt);
	run(&l, 0, 1, NULL);
	for (uint32_t k = 0; k < l.f->nins; k++)
		if (l.f->ins[k].op == OFADD && first < 0)
			first = (int)k;
		else if (l.f->ins[k].op == OLDG && first < 0)
			before++;
	ck_assert_int_eq(before, 8);
	ck_assert_int_eq(at(l.f, "FADD %s, %s, %v0"), first);
	ck_assert_int_eq(at(l.f, "LDG.E %v7"), first - 1);
	lst_close(&l);
}
END_TEST

/* an nvcc listing (encodings, control bits): when something moves every instruction loses its
 * bits (one word left, no control field); when nothing moves the bits stay */
static const char nvcc_txt[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   S2R R0, SR_TID.X ;     /* 0x0000000000007919 */\n"
	"                                                          /* 0x000e220000002100 */\n"
	"        /*0010*/                   IADD3 R2, R0, 0x1, RZ ;/* 0x0000000100027810 */\n"
	"                                                          /* 0x001fca0007ffe0ff */\n"
	"        /*0020*/                   MOV R5, 0x3 ;          /* 0x0000000300057802 */\n"
	"                                                          /* 0x000fe20000000f00 */\n"
	"        /*0030*/                   STG.E [R2.64], R5 ;    /* 0x0000000502007986 */\n"
	"                                                          /* 0x000fe2000c101904 */\n"
	"        /*0040*/                   EXIT ;                 /* 0x000000000000794d */\n"
	"                                                          /* 0x000fea0003800000 */\n";

static const char nvcc_chain_txt[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   S2R R0, SR_TID.X ;     /* 0x0000000000007919 */\n"
	"                                                          /* 0x000e220000002100 */\n"
	"        /*0010*/                   IADD3 R2, R0, 0x1, RZ ;/* 0x0000000100027810 */\n"
	"                                                          /* 0x001fca0007ffe0ff */\n"
	"        /*0020*/                   STG.E [R2.64], R0 ;    /* 0x0000000002007986 */\n"
	"                                                          /* 0x000fe2000c101904 */\n"
	"        /*0030*/                   EXIT ;                 /* 0x000000000000794d */\n"
	"                                                          /* 0x000fea0003800000 */\n";

START_TEST(test_sched_control_bits)
{
	Lst l;
	SchedStats st;

	lst_text(&l, "nvcc", nvcc_txt);
	ck_assert_uint_eq(l.f->ins[2].ctrl.has, 1);
	ck_assert_int_eq(run(&l, 200, 0, &st), 0);
	/* the MOV fills the S2R's wait */
	ck_assert_int_eq(at(l.f, "MOV R5"), 1);
	ck_assert_int_eq(at(l.f, "IADD3 R2"), 2);
	ck_assert_int_eq(st.cleared, 1);
	for (uint32_t k = 0; k < l.f->nins; k++) {
		ck_assert_uint_eq(l.f->ins[k].ctrl.has, 0);
		ck_assert_uint_le(l.f->ins[k].nenc, 1);
		ck_assert_int_eq(l.f->ins[k].addr, 16 * (int64_t)k);
	}
	/* ctrl-bits gives every one bits again */
	ck_assert_int_eq(pass_ctrl_bits(l.f, &l.d), 0);
	for (uint32_t k = 0; k < l.f->nins; k++)
		ck_assert_uint_eq(l.f->ins[k].ctrl.has, 1);
	lst_close(&l);
	/* a chain: nothing moves, nvcc's bits stay */
	lst_text(&l, "nvcc-chain", nvcc_chain_txt);
	ck_assert_int_eq(run(&l, 200, 0, &st), PassUnchanged);
	ck_assert_int_eq(st.cleared, 0);
	for (uint32_t k = 0; k < l.f->nins; k++) {
		ck_assert_uint_eq(l.f->ins[k].ctrl.has, 1);
		ck_assert_uint_eq(l.f->ins[k].nenc, 2);
	}
	lst_close(&l);
}
END_TEST

/* the same listing in SSA form: after sched the values' definitions and uses point at the
 * moved instructions (the verifier checks dominance through them) */
START_TEST(test_sched_ssa)
{
	Lst l;

	lst_text(&l, "ssa", nvcc_txt);
	ck_assert_int_eq(pass_ssa(l.f, &l.d), 0);
	ck_assert_int_eq(run(&l, 200, 0, NULL), 0);
	ssa_uses(l.f);
	ck_assert_msg(verify_fn(l.f, &l.d) == 0, "%s", l.err);
	for (uint32_t v = 1; v < l.f->nval; v++)
		if (l.f->val[v].def) {
			const Ins *i = l.f->val[v].def;
			int found = 0;
			for (unsigned j = 0; j < i->nslot; j++)
				for (unsigned m = 0; i->slot[j].kind == SDef && m < i->slot[j].n; m++)
					found |= i->slot[j].v[m] == v;
			ck_assert_msg(found, "value %u: its definition does not define it", v);
		}
	lst_close(&l);
}
END_TEST

/* an internal call's return point moves with what is inserted before it: `MOV R2, 0x30` (the
 * instruction after the CALL, with nvcc's encoding) becomes 0x40 after a NOP goes in front of
 * the block; the same immediate elsewhere (the IADD3) is not an address and stays */
static const char call_txt[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   IADD3 R3, R3, 0x30, RZ ;\n"
	"        /*0010*/                   MOV R2, 0x30 ;       /* 0x0000003000027802 */\n"
	"                                                         /* 0x000fc60000000f00 */\n"
	"        /*0020*/                   CALL.REL.NOINC `(sub) ;\n"
	"        /*0030*/                   EXIT ;\n"
	"sub:\n"
	"        /*0040*/                   RET.REL.NODEC R2 `(k) ;\n";

START_TEST(test_relayout_return_address)
{
	Lst l;
	Ins nop;

	lst_text(&l, "call", call_txt);
	ck_assert_ptr_nonnull(cfg_callee(l.f, l.f->blk[0]));
	memset(&nop, 0, sizeof nop);
	nop.op = ONOP;
	nop.name = mintern(l.m, "NOP");
	nop.addr = -1;
	ck_assert_ptr_nonnull(ins_insert(l.f, l.f->blk[0], 0, &nop));
	fn_relayout(l.f);
	ck_assert_int_eq(at(l.f, "CALL"), 3);
	ck_assert_int_eq(l.f->ins[2].opnd[1].imm, 0x40);
	ck_assert_uint_eq(GET_IMM32(l.f->ins[2].enc[0]), 0x40);
	ck_assert_uint_eq(GET_OPCODE(l.f->ins[2].enc[0]), GET_OPCODE(0x0000003000027802ull));
	ck_assert_int_eq(l.f->ins[1].opnd[2].imm, 0x30);
	lst_close(&l);
}
END_TEST

/* ---- a large function ---------------------------------------------------------------------- */

/* 100,000 instructions in 100 loops of one block of 1,000: global loads, arithmetic on them,
 * shared stores, over 3,000 virtual registers: every block reordered, the model's estimate lower.
 * The time is printed, not asserted (a wall-clock limit fails on a loaded machine): the
 * scheduler's speed is a `make bench` figure (bench_ptxc, fiberc PTX -> SASS) */
START_TEST(test_sched_speed)
{
	enum { NBlk = 100, PerBlk = 1000 };
	size_t cap = 64u << 20, n = 0;
	char *t = malloc(cap);
	Lst l;
	SchedStats st;
	double t0, dt;

	n += (size_t)snprintf(t + n, cap - n, "\t.target\tsm_80\n\t.elftype\t@\"ET_EXEC\"\n"
	                      "\t.section\t.text.k,\"ax\",@progbits\n\t.vreg\t\t%%p[2]");
	for (int k = 0; k < 3000; k++)
		n += (size_t)snprintf(t + n, cap - n, ",%%r%d", k);
	n += (size_t)snprintf(t + n, cap - n, "\nk:\n.text.k:\n        S2R %%r0, SR_TID.X ;\n"
	                      "        IMAD.WIDE %%p, %%r0, 0x4, RZ ;\n");
	for (int b = 0; b < NBlk; b++) {
		n += (size_t)snprintf(t + n, cap - n, ".L_b%d:\n", b);
		for (int k = 0; k < PerBlk - 2; k += 4) {
			int r = 1 + (b * PerBlk + k) % 2990;
			n += (size_t)snprintf(t + n, cap - n,
			                      "        LDG.E %%r%d, [%%p.64+0x%x] ;\n"
			                      "        FFMA %%r%d, %%r%d, %%r%d, %%r%d ;\n"
			                      "        IADD3 %%r%d, %%r%d, %%r%d, RZ ;\n"
			                      "        STS [%%r0+0x%x], %%r%d ;\n",
			                      r, 4 * k, r + 1, r, r, r, r + 2, r + 1, r, 4 * k, r + 2);
		}
		n += (size_t)snprintf(t + n, cap - n, "        ISETP.NE.AND P0, PT, %%r0, RZ, PT ;\n"
		                      "        @P0 BRA `(.L_b%d) ;\n", b);
	}
	n += (size_t)snprintf(t + n, cap - n, "        EXIT ;\n");
	lst_text(&l, "speed", t);
	free(t);
	ck_assert_uint_ge(l.f->nins, 100000);
	t0 = now_seconds();
	run(&l, 200, 0, &st);
	dt = now_seconds() - t0;
	fprintf(stderr, "sched: %u instructions, %u blocks (%u changed, %u moved) in %.4f s; "
	        "model cycles %llu -> %llu\n", l.f->nins, l.f->nblk, st.changed, st.moved, dt,
	        (unsigned long long)st.est_before, (unsigned long long)st.est_after);
	ck_assert_uint_gt(st.moved, 0);
	ck_assert_uint_lt(st.est_after, st.est_before);
	lst_close(&l);
}
END_TEST

/* ---- the examples -------------------------------------------------------------------------- */

/* what sched does to a function's control bits when something moved, but nothing moves: the
 * baseline of ctrl-bits alone */
static void
clear_only(Fn *f)
{
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		memset(&i->ctrl, 0, sizeof i->ctrl);
		for (unsigned j = 0; j < i->nopnd; j++)
			i->opnd[j].flags &= (uint16_t)~FReuse;
		if (i->nenc > 1) {
			i->nenc = 1;
			i->slot = NULL;
			i->nslot = 0;
			op_slots(f, i);
		}
	}
}

/* the listing at path scheduled (o; NULL: only its bits cleared) and given control bits, in a
 * temporary file (malloc'd) */
static char *
scheduled_copy(const char *path, const SchedOpts *o, SchedStats *tot)
{
	char *out = malloc(64), *text;
	FILE *fp;
	Lst l;
	size_t n;
	int fd;

	strcpy(out, "/tmp/fiber-sched-XXXXXX.sass");
	fd = mkstemps(out, 5);
	ck_assert_int_ge(fd, 0);
	fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "%s", path);
	text = malloc(1 << 22);
	n = fread(text, 1, (1 << 22) - 1, fp);
	text[n] = 0;
	fclose(fp);
	memset(&l, 0, sizeof l);
	l.errf = open_memstream(&l.err, &l.nerr);
	diag_init(&l.d, NULL, l.errf);
	l.src = src_new(path, text, n);
	l.d.src = l.src;
	free(text);
	l.m = sass_parse(l.src, &l.d);
	ck_assert_ptr_nonnull(l.m);
	for (uint32_t k = 0; k < l.m->nfn; k++) {
		Fn *f = l.m->fn[k];
		SchedStats st = {0};
		ck_assert_int_eq(cfg_build(f, &l.d), 0);
		dom_build(f);
		if (o)
			ck_assert_int_ge(sched_fn(f, o, &st, &l.d), 0);
		else
			clear_only(f);
		ck_assert_int_eq(pass_ctrl_bits(f, &l.d), 0);
		fn_relayout(f);
		tot->blocks += st.blocks;
		tot->changed += st.changed;
		tot->moved += st.moved;
		tot->est_before += st.est_before;
		tot->est_after += st.est_after;
	}
	fp = fdopen(fd, "w");
	fflush(l.errf);
	ck_assert_msg(emit_sass(fp, l.m, NULL, &l.d) == 0, "%s", l.err ? l.err : "");
	fclose(fp);
	lst_close(&l);
	return out;
}

static KRun
run_line(const char *path, const char *config, const char *line)
{
	KRun r;

	ck_assert_msg(kr_run_line(path, config, FIBER_MODE_TIMING, line, &r) == 0, "%s", r.err);
	ck_assert_msg(r.status == FIBER_SUCCESS, "%s: %s", path, r.err);
	return r;
}

static char lines[16][2048];

START_TEST(test_sched_examples)
{
	static const struct { const char *sfx, *config; } arch[] = {{"sm_80", "a100"},
	                                                            {"sm_90", "h100"}};
	int verbose = getenv("FIBER_SCHED_VERBOSE") && *getenv("FIBER_SCHED_VERBOSE") != '0';
	char path[1024], dir[64];
	int nlines;
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	SchedStats dflt = {0}, all = {0};

	snprintf(path, sizeof path, "%s/examples/kernels.txt", kr_root());
	nlines = kr_read_lines(path, lines, 16);
	ck_assert_int_gt(nlines, 0);
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < nlines; k++) {
			SchedOpts o;
			SchedStats s1 = {0}, s2 = {0}, s3 = {0};
			char *p1, *p2, *p3;
			KRun want, got, got2, base;
			sscanf(lines[k], "%63s", dir);
			snprintf(path, sizeof path, "%s/examples/%s/%s.%s.sass", kr_root(), dir, dir,
			         arch[a].sfx);
			sched_opts_default(&o);
			p1 = scheduled_copy(path, &o, &s1);
			o.always = 1;
			p2 = scheduled_copy(path, &o, &s2);
			p3 = scheduled_copy(path, NULL, &s3);
			want = run_line(path, arch[a].config, lines[k]);
			base = run_line(p3, arch[a].config, lines[k]);
			got = run_line(p1, arch[a].config, lines[k]);
			got2 = run_line(p2, arch[a].config, lines[k]);
			ck_assert_uint_eq(want.hazards, 0);
			ck_assert_uint_eq(want.n, got.n);
			ck_assert_uint_eq(want.n, got2.n);
			ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0, "%s %s: other results "
			              "after sched", lines[k], arch[a].sfx);
			ck_assert_msg(memcmp(want.buf, got2.buf, want.n) == 0, "%s %s: other results "
			              "after sched (every schedule kept)", lines[k], arch[a].sfx);
			ck_assert_msg(memcmp(want.buf, base.buf, want.n) == 0, "%s %s: other results "
			              "with the bits cleared", lines[k], arch[a].sfx);
			ck_assert_msg(got.hazards == 0 && got2.hazards == 0 && base.hazards == 0,
			              "%s %s: hazards %llu, %llu, %llu", dir, arch[a].sfx,
			              (unsigned long long)got.hazards, (unsigned long long)got2.hazards,
			              (unsigned long long)base.hazards);
			if (verbose)
				fprintf(stderr, "sched: %-15s %s: %3u/%3u blocks changed, %4u moved; cycles: "
				        "nvcc %6llu, ctrl-bits alone %6llu, sched %6llu (model %llu -> %llu), "
				        "every schedule kept %6llu (%u moved)\n", dir, arch[a].sfx,
				        s1.changed, s1.blocks, s1.moved, (unsigned long long)want.cycles,
				        (unsigned long long)base.cycles, (unsigned long long)got.cycles,
				        (unsigned long long)s1.est_before, (unsigned long long)s1.est_after,
				        (unsigned long long)got2.cycles, s2.moved);
			c0 += want.cycles;
			c1 += got.cycles;
			c2 += got2.cycles;
			c3 += base.cycles;
			dflt.moved += s1.moved;
			all.moved += s2.moved;
			kr_free(&want);
			kr_free(&got);
			kr_free(&got2);
			kr_free(&base);
			unlink(p1);
			unlink(p2);
			unlink(p3);
			free(p1);
			free(p2);
			free(p3);
		}
	if (verbose)
		fprintf(stderr, "sched: cycles %llu nvcc, %llu ctrl-bits alone, %llu sched, %llu every "
		        "schedule kept\n", (unsigned long long)c0, (unsigned long long)c3,
		        (unsigned long long)c1, (unsigned long long)c2);
	ck_assert_uint_gt(all.moved, 0);   /* the stress run moves instructions */
}
END_TEST

/* every function of every corpus listing (tests/corpus, both architectures), run with
 * kernrun's generic arguments in functional mode: the same status and buffers with every list
 * schedule kept */
START_TEST(test_sched_corpus)
{
	static const char *const sfx[] = {"sm_80", "sm_90"};
	char cmd[1200], path[1024];
	FILE *ls;
	int nfn = 0;
	uint32_t moved = 0;

	snprintf(cmd, sizeof cmd, "ls %s/tests/corpus/*.sass", kr_root());
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(path, sizeof path, ls)) {
		SchedOpts o;
		SchedStats st = {0};
		unsigned n = 0;
		char *p;
		int a = strstr(path, sfx[1]) != NULL;
		path[strcspn(path, "\n")] = 0;
		if (kr_function_count(path, a ? "h100" : "a100", &n) < 0)
			continue;            /* what the runtime does not load (sm_89, sm_90a) */
		sched_opts_default(&o);
		o.always = 1;
		p = scheduled_copy(path, &o, &st);
		moved += st.moved;
		if (getenv("FIBER_SCHED_VERBOSE"))
			fprintf(stderr, "sched: %s: %u functions, %u instructions moved\n", path, n,
			        st.moved);
		for (unsigned k = 0; k < n; k++) {
			char name[256];
			KRun want, got;
			ck_assert_int_eq(kr_run_generic(path, a ? "h100" : "a100", FIBER_MODE_FUNCTIONAL, k,
			                                name, sizeof name, &want), 0);
			ck_assert_int_eq(kr_run_generic(p, a ? "h100" : "a100", FIBER_MODE_FUNCTIONAL, k,
			                                name, sizeof name, &got), 0);
			ck_assert_msg(want.status == got.status, "%s %s: status %d, scheduled %d (%s)",
			              path, name, want.status, got.status, got.err);
			ck_assert_msg(want.n == got.n && memcmp(want.buf, got.buf, want.n) == 0,
			              "%s %s: other results after sched", path, name);
			kr_free(&want);
			kr_free(&got);
			nfn++;
		}
		unlink(p);
		free(p);
	}
	pclose(ls);
	if (getenv("FIBER_SCHED_VERBOSE"))
		fprintf(stderr, "sched: corpus: %d functions, %u instructions moved\n", nfn, moved);
	ck_assert_int_gt(nfn, 20);
	ck_assert_uint_gt(moved, 0);
}
END_TEST

Suite *
sched_suite(void)
{
	Suite *s = suite_create("sched");
	TCase *o = tcase_create("order"), *sp = tcase_create("speed"), *e = tcase_create("examples");

	tcase_add_test(o, test_sched_loads_hoisted);
	tcase_add_test(o, test_sched_store_after_load);
	tcase_add_test(o, test_sched_barrier);
	tcase_add_test(o, test_sched_label);
	tcase_add_test(o, test_sched_branch_last);
	tcase_add_test(o, test_sched_collectives);
	tcase_add_test(o, test_sched_pressure_guard);
	tcase_add_test(o, test_sched_scoreboards);
	tcase_add_test(o, test_sched_control_bits);
	tcase_add_test(o, test_sched_ssa);
	tcase_add_test(o, test_relayout_return_address);
	tcase_set_timeout(sp, 120);
	tcase_add_test(sp, test_sched_speed);
	tcase_set_timeout(e, 900);
	tcase_add_test(e, test_sched_examples);
	tcase_add_test(e, test_sched_corpus);
	suite_add_tcase(s, o);
	suite_add_tcase(s, sp);
	suite_add_tcase(s, e);
	return s;
}
