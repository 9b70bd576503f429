/* check_parse.c: the SASS parser (frontend/sass/sass.y, build.c, nvinfo.c): every operand form into
 * the right Opnd fields, instruction structure (guard, modifiers, encodings, labels), the
 * cuobjdump format, .nv.info metadata of a real listing (tests/golden/saxpy.*), and the SSA
 * annotations of IR text.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "parse.h"
#include "ptx.h"
#include "ptxlow.h"

static Module *
parse_text(const char *text, Diag *d, Src **src)
{
	*src = src_new("t.sass", text, strlen(text));
	diag_init(d, *src, stderr);
	return sass_parse(*src, d);
}

/* one instruction in a minimal listing: `.section .text.k`, label `k:`, then the line */
static Module *
parse_ins(const char *ins, Src **src)
{
	char *text;
	size_t n = strlen(ins) + 256;
	Module *m;
	Diag d;

	text = malloc(n);
	snprintf(text, n, "\t.section\t.text.k,\"ax\",@progbits\nk:\n.L_x_1:\n"
	         "        /*0000*/                   %s\n.L_x_2:\n", ins);
	m = parse_text(text, &d, src);
	free(text);
	return m;
}

static char *
golden_path(const char *name)
{
	const char *root = getenv("FIBER_ROOT");
	size_t n = (root ? strlen(root) : 1) + strlen(name) + 32;
	char *p = malloc(n);

	snprintf(p, n, "%s/tests/golden/%s", root ? root : ".", name);
	return p;
}

static Module *
parse_golden(const char *name, Src **src)
{
	char *path = golden_path(name);
	Diag d;
	Module *m;

	diag_init(&d, NULL, stderr);
	*src = src_read(path, &d);
	free(path);
	ck_assert_ptr_nonnull(*src);
	d.src = *src;
	m = sass_parse(*src, &d);
	ck_assert_int_eq(d.nerr, 0);
	return m;
}

/* ---- operands ---------------------------------------------------------------------------- */

#define R(n) REG(RR, n)
#define UR(n) REG(RUR, n)
#define P(n) REG(RP, n)

static const struct {
	const char *ins;   /* the instruction */
	int k;             /* operand checked */
	int kind;          /* OpndKind */
	Reg r0, r1, r2;    /* register fields */
	const char *sfx0;  /* suffix of field 0, "" none */
	int flags;         /* Opnd.flags */
	int64_t imm;       /* imm (OImm, OMem and OCBank offset, OLabel address, OSbSet mask) */
	int64_t imm2;      /* OCBank bank */
	const char *atom;  /* OSReg, OExpr, OFImm, OLabel, OSbSet text; "" none */
} ops[] = {
	{ "IMAD.WIDE.U32 R2, R7.reuse, 0x4, R2 ;", 1, OReg, R(7), 0, 0, "", FReuse, 0, 0, "" },
	{ "IMAD.WIDE.U32 R2, R7.reuse, 0x4, R2 ;", 2, OImm, 0, 0, 0, "", FHex, 4, 0, "" },
	{ "IMAD.MOV.U32 R12, RZ, RZ, -0x800000 ;", 3, OImm, 0, 0, 0, "", FHex, -0x800000, 0, "" },
	{ "MOV R1, RZ ;", 1, OReg, REG(RR, RegRZ), 0, 0, "", 0, 0, 0, "" },
	{ "LDC R1, c[0x0][0x160] ;", 1, OCBank, 0, 0, 0, "", FHex, 0x160, 0, "" },
	{ "LDC R1, c[0x3][R2+0x10] ;", 1, OCBank, R(2), 0, 0, "", FHex, 0x10, 3, "" },
	{ "LDC R1, cx[UR4][R0+0x8] ;", 1, OCBank, R(0), UR(4), 0, "", FCx | FHex, 8, 0, "" },
	{ "LDC R1, c[0x0][RZ] ;", 1, OCBank, REG(RR, RegRZ), 0, 0, "", 0, 0, 0, "" },
	{ "FSETP.GTU.AND P0, PT, |c[0x0][0x160]|, 1, PT ;", 2, OCBank, 0, 0, 0, "", FAbs | FHex, 0x160, 0, "" },
	{ "LDG.E R0, [R2.64] ;", 1, OMem, R(2), 0, 0, "64", 0, 0, 0, "" },
	{ "LDG.E R0, [R2.64+0x10] ;", 1, OMem, R(2), 0, 0, "64", FHex, 0x10, 0, "" },
	{ "LDS R0, [R2+UR4+0x10] ;", 1, OMem, R(2), UR(4), 0, "", FHex, 0x10, 0, "" },
	{ "LDS R0, [UR4+0x10] ;", 1, OMem, UR(4), 0, 0, "", FHex, 0x10, 0, "" },
	{ "LDS R0, [R0.X4+UR4+0x100] ;", 1, OMem, R(0), UR(4), 0, "X4", FHex, 0x100, 0, "" },
	{ "LDS R0, [R2.U32+UR4] ;", 1, OMem, R(2), UR(4), 0, "U32", 0, 0, 0, "" },
	{ "STL [R1+-0x4], R0 ;", 0, OMem, R(1), 0, 0, "", FHex | FPlusNeg, -4, 0, "" },
	{ "LDS R0, [RZ] ;", 1, OMem, REG(RR, RegRZ), 0, 0, "", 0, 0, 0, "" },
	{ "LDS R0, [0x10] ;", 1, OMem, 0, 0, 0, "", FHex, 0x10, 0, "" },
	{ "LDG.E R0, desc[UR4][R2.64+0x10] ;", 1, OMem, R(2), 0, UR(4), "64", FDesc | FHex, 0x10, 0, "" },
	{ "HGMMA.64x16x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;", 1, OMem, 0, 0, UR(4), "", FDesc | FSpell2, 0, 0, "" },
	{ "HGMMA.64x16x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;", 3, OReg, REG(RUP, RegUPT), 0, 0, "", FLNot, 0, 0, "" },
	{ "HGMMA.64x16x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;", 4, OExpr, 0, 0, 0, "", 0, 0, 0, "gsb0" },
	{ "FADD R0, R0, 1.5 ;", 2, OFImm, 0, 0, 0, "", 0, 0, 0, "1.5" },
	{ "FSEL R0, R0, -INF , !P2 ;", 2, OFImm, 0, 0, 0, "", 0, 0, 0, "-INF" },
	{ "FSEL R0, R0, -INF , !P2 ;", 3, OReg, P(2), 0, 0, "", FLNot, 0, 0, "" },
	{ "FSETP.GTU.FTZ.AND P0, PT, |R18|, +INF , PT ;", 3, OFImm, 0, 0, 0, "", 0, 0, 0, "+INF" },
	{ "MUFU.RSQ R0, -QNAN  ;", 1, OFImm, 0, 0, 0, "", 0, 0, 0, "-QNAN" },
	{ "FFMA R0, -R2, 1.4426950216293334961, -R3 ;", 2, OFImm, 0, 0, 0, "", 0, 0, 0, "1.4426950216293334961" },
	{ "FFMA R0, R2, 5.9604644775390625e-08, R3 ;", 2, OFImm, 0, 0, 0, "", 0, 0, 0, "5.9604644775390625e-08" },
	{ "FSETP.GE.AND P0, PT, |R7|, 105615, PT ;", 3, OFImm, 0, 0, 0, "", 0, 0, 0, "105615" },
	{ "FFMA R0, -R2, 1.4426950216293334961, -R3 ;", 1, OReg, R(2), 0, 0, "", FNeg, 0, 0, "" },
	{ "FADD R0, -|R2|, |R3| ;", 1, OReg, R(2), 0, 0, "", FNeg | FAbs, 0, 0, "" },
	{ "FADD R0, -|R2|, |R3|.reuse ;", 2, OReg, R(3), 0, 0, "", FAbs | FReuse, 0, 0, "" },
	{ "LOP3.LUT R0, RZ, ~R2, RZ, 0x33, !PT ;", 2, OReg, R(2), 0, 0, "", FNot, 0, 0, "" },
	{ "BRA.DIV ~URZ, `(.L_x_2) ;", 0, OReg, REG(RUR, RegURZ), 0, 0, "", FNot, 0, 0, "" },
	{ "HADD2.F32 R0, -RZ, R2.H0_H0 ;", 2, OReg, R(2), 0, 0, "H0_H0", 0, 0, 0, "" },
	{ "HADD2 R0, R4.reuse.H0_H0, R2.H1 ;", 1, OReg, R(4), 0, 0, "H0_H0", FReuse, 0, 0, "" },
	{ "HADD2 R0, R4.reuse.H0_H0, R2.H1 ;", 2, OReg, R(2), 0, 0, "H1", 0, 0, 0, "" },
	{ "F2F.F16.F32 R0, R3.F32 ;", 1, OReg, R(3), 0, 0, "F32", 0, 0, 0, "" },
	{ "PRMT R0, R2.B1, 0x7610, R0 ;", 1, OReg, R(2), 0, 0, "B1", 0, 0, 0, "" },
	{ "S2R R6, SR_TID.X ;", 1, OSReg, 0, 0, 0, "", 0, 0, 0, "SR_TID.X" },
	{ "S2UR UR4, SR_CgaCtaId ;", 1, OSReg, 0, 0, 0, "", 0, 0, 0, "SR_CgaCtaId" },
	{ "CS2R R4, SR_CLOCKLO ;", 1, OSReg, 0, 0, 0, "", 0, 0, 0, "SR_CLOCKLO" },
	{ "CS2R R10, SRZ ;", 1, OSReg, 0, 0, 0, "", 0, 0, 0, "SRZ" },
	{ "S2R R5, SR_LANEID ;", 1, OSReg, 0, 0, 0, "", 0, 0, 0, "SR_LANEID" },
	{ "BRA `(.L_x_2) ;", 0, OLabel, 0, 0, 0, "", 0, 0x10, 0, ".L_x_2" },
	{ "BSSY B1, `(.L_x_1) ;", 0, OReg, REG(RB, 1), 0, 0, "", 0, 0, 0, "" },
	{ "BSSY B15, `(.L_x_1) ;", 1, OLabel, 0, 0, 0, "", 0, 0, 0, ".L_x_1" },
	{ "RET.REL.NODEC R10 `(k) ;", 1, OLabel, 0, 0, 0, "", FSpell0, 0, 0, "k" },
	{ "DEPBAR.LE SB0, 0x1 ;", 0, OExpr, 0, 0, 0, "", 0, 0, 0, "SB0" },
	{ "DEPBAR {5,4} ;", 0, OSbSet, 0, 0, 0, "", 0, (1 << 5) | (1 << 4), 0, "5,4" },
	{ "R2P PR, R2, 0x7f ;", 0, OExpr, 0, 0, 0, "", 0, 0, 0, "PR" },
	{ "ISETP.NE.AND P0, PT, R2, UR4, PT ;", 3, OReg, UR(4), 0, 0, "", 0, 0, 0, "" },
	{ "VOTEU.ANY UR4, UPT, PT ;", 1, OReg, REG(RUP, RegUPT), 0, 0, "", 0, 0, 0, "" },
	{ "PLOP3.LUT P0, PT, P0, P1, PT, 0xe0, 0x0 ;", 2, OReg, P(0), 0, 0, "", 0, 0, 0, "" },
	/* nvcc 13: a selector after the bars, and after a .reuse there */
	{ "HSETP2.GEU.AND P1, PT, |R20|.reuse.H0_H0, 8.5e-06, 8.5e-06, PT ;", 2, OReg, R(20), 0, 0,
	  "H0_H0", FAbs | FReuse | FSpell1, 0, 0, "" },
	{ "HSETP2.GT.AND P0, PT, |R20|.H0_H0, RZ.H0_H0, PT ;", 2, OReg, R(20), 0, 0, "H0_H0",
	  FAbs | FSpell1, 0, 0, "" },
	{ "HSETP2.GT.AND P0, PT, |R20.H1_H1|, RZ.H0_H0, PT ;", 2, OReg, R(20), 0, 0, "H1_H1", FAbs,
	  0, 0, "" },
	/* nvcc 13 wgmma: a transposed operand, gdesc[UR].tnspA/.tnspB (the suffix in sfx[0]) */
	{ "HGMMA.64x32x16.F16 R88, gdesc[UR8].tnspB, R88, gsb0 ;", 1, OMem, 0, 0, UR(8), "tnspB",
	  FDesc | FSpell2, 0, 0, "" },
	{ "HGMMA.64x16x16.F32.BF16 R24, R32, gdesc[UR8].tnspA, R24, gsb0 ;", 2, OMem, 0, 0, UR(8),
	  "tnspA", FDesc | FSpell2, 0, 0, "" },
	/* a symbol of the toolchain, not a label: kept, address -1 */
	{ "UMOV UR5, `(.nv.unified.texrefDescSize) ;", 1, OLabel, 0, 0, 0, "", 0, -1, 0,
	  ".nv.unified.texrefDescSize" },
	{ "BRX R6 -0x150 (*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*);", 1, OImm, 0, 0, 0, "", FHex | FSpell0,
	  -0x150, 0, "" },
};

START_TEST(test_parse_operand)
{
	Src *src;
	Module *m = parse_ins(ops[_i].ins, &src);
	const Opnd *o;

	ck_assert_msg(m != NULL, "'%s' did not parse", ops[_i].ins);
	ck_assert_int_gt(m->fn[0]->ins[0].nopnd, ops[_i].k);
	o = &m->fn[0]->ins[0].opnd[ops[_i].k];
	ck_assert_int_eq(o->kind, ops[_i].kind);
	ck_assert_int_eq(o->r[0], ops[_i].r0);
	ck_assert_int_eq(o->r[1], ops[_i].r1);
	ck_assert_int_eq(o->r[2], ops[_i].r2);
	ck_assert_str_eq(mstr(m, o->sfx[0]), ops[_i].sfx0);
	ck_assert_int_eq(o->flags, ops[_i].flags);
	if (o->kind == OImm || o->kind == OMem || o->kind == OCBank || o->kind == OLabel || o->kind == OSbSet)
		ck_assert_int_eq(o->imm, ops[_i].imm);
	ck_assert_int_eq(o->imm2, ops[_i].imm2);
	ck_assert_str_eq(mstr(m, o->atom), ops[_i].atom);
	module_free(m);
	src_free(src);
}
END_TEST

START_TEST(test_parse_float_values)
{
	Src *src;
	Module *m = parse_ins("FSEL R0, -QNAN , +INF , 0.5 ;", &src);
	const Ins *i;

	ck_assert_ptr_nonnull(m);
	i = &m->fn[0]->ins[0];
	ck_assert(isnan(i->opnd[1].fimm));
	ck_assert(isinf(i->opnd[2].fimm) && i->opnd[2].fimm > 0);
	ck_assert(i->opnd[3].fimm == 0.5);
	module_free(m);
	src_free(src);
}
END_TEST

/* ---- instructions ------------------------------------------------------------------------ */

START_TEST(test_parse_instruction_fields)
{
	static const char text[] =
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"k:\n"
		"        /*0000*/              @!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;"
		"  /* 0x0000000402047981 */\n"
		"                                                                   /* 0x000ea2000c1e9d00 */\n"
		"        /*0010*/                   BRA `(.L_x_0);   /* 0xfffffffc00fc7947 */\n"
		"        /*0020*/                   FOOBAR.X R1, R2 ;\n"
		".L_x_0:\n";
	Src *src;
	Diag d;
	Module *m = parse_text(text, &d, &src);
	const Fn *f;
	const Ins *i;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->nfn, 1);
	f = m->fn[0];
	ck_assert_str_eq(mstr(m, f->name), "k");
	ck_assert_int_eq(f->nins, 3);
	i = &f->ins[0];
	ck_assert_int_eq(i->guarded, 1);
	ck_assert_int_eq(i->guard.r[0], P(0));
	ck_assert_int_eq(i->guard.flags, FLNot);
	ck_assert_str_eq(mstr(m, i->name), "LDG");
	ck_assert_int_eq(i->op, op_lookup("LDG", 3));
	ck_assert_int_eq(i->nmod, 3);
	ck_assert_str_eq(mstr(m, i->mod[0]), "E");
	ck_assert_str_eq(mstr(m, i->mod[1]), "128");
	ck_assert_str_eq(mstr(m, i->mod[2]), "CONSTANT");
	ck_assert_int_eq(i->nenc, 2);
	ck_assert_uint_eq(i->enc[0], 0x0000000402047981ull);
	ck_assert_uint_eq(i->enc[1], 0x000ea2000c1e9d00ull);
	ck_assert_int_eq(i->addr, 0);
	i = &f->ins[1];
	ck_assert_int_eq(i->flags & INoSemi, INoSemi);
	ck_assert_int_eq(i->nenc, 1);
	ck_assert_int_eq(i->opnd[0].imm, 0x30);          /* .L_x_0 is after the last instruction */
	ck_assert_int_eq(f->endlabel, mintern(m, ".L_x_0"));
	i = &f->ins[2];
	ck_assert_int_eq(i->op, Ounknown);                /* kept with its operands */
	ck_assert_str_eq(mstr(m, i->name), "FOOBAR");
	ck_assert_int_eq(i->nopnd, 2);
	ck_assert_int_eq(i->nenc, 0);
	module_free(m);
	src_free(src);
}
END_TEST

/* labels, and directives between instructions (nvcc's internal subroutines) */
START_TEST(test_parse_labels_and_subroutines)
{
	static const char text[] =
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"\t.align\t128\n"
		"        .global         k\n"
		"k:\n"
		".text.k:\n"
		"        /*0000*/                   CALL.REL.NOINC `($k$sub) ;\n"
		".L_x_1:\n"
		".L_x_2:\n"
		"        /*0010*/                   EXIT ;\n"
		"        .type           $k$sub,@function\n"
		"$k$sub:\n"
		"        /*0020*/                   RET.REL.NODEC R20 `(k) ;\n"
		".L_x_3:\n";
	Src *src;
	Diag d;
	Module *m = parse_text(text, &d, &src);
	const Fn *f;
	const Section *s;
	uint32_t mid = 0;

	ck_assert_ptr_nonnull(m);
	f = m->fn[0];
	s = f->text;
	ck_assert_int_eq(f->nins, 3);
	ck_assert_int_eq(f->ins[0].opnd[0].imm, 0x20);
	ck_assert_int_eq(f->ins[1].label, mintern(m, ".L_x_1"));
	ck_assert_int_eq(f->ins[1].flags & IExtraLabel, IExtraLabel);
	ck_assert_int_eq(f->nxlabel, 1);
	ck_assert_int_eq(f->xlabel[0], 1);
	ck_assert_int_eq(f->xlabel[1], mintern(m, ".L_x_2"));
	ck_assert_int_eq(f->ins[2].label, mintern(m, "$k$sub"));
	ck_assert_int_eq(f->endlabel, mintern(m, ".L_x_3"));
	for (uint32_t k = 0; k < s->nitem; k++)
		if (s->item[k].off == 2) {
			ck_assert_str_eq(mstr(m, s->item[k].name), ".type");
			mid++;
		}
	ck_assert_int_eq(mid, 1);
	ck_assert_int_eq(f->ins[2].opnd[1].imm, 0);      /* `(k): the function's own address */
	module_free(m);
	src_free(src);
}
END_TEST

/* nvdisasm's branch-target list after an indirect branch: kept with the instruction, checked
 * against the labels, and used by the CFG as the exact successors */
START_TEST(test_parse_branch_targets)
{
	static const char text[] =
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"k:\n"
		"        /*0000*/                   BRX R6 -0x10                  "
		"(*\"BRANCH_TARGETS .L_x_2,.L_x_1\"*);         /* 0xfffffff006007949 */\n"
		"                                                           /* 0x000fea000383ffff */\n"
		".L_x_1:\n"
		"        /*0010*/                   EXIT ;\n"
		".L_x_9:\n"
		"        /*0020*/                   NOP ;\n"
		".L_x_2:\n"
		"        /*0030*/                   EXIT ;\n";
	Src *src;
	Diag d;
	Module *m = parse_text(text, &d, &src);
	Fn *f;
	const Ins *i;
	const Targets *t;

	ck_assert_ptr_nonnull(m);
	f = m->fn[0];
	i = &f->ins[0];
	ck_assert_int_eq(i->nopnd, 2);
	ck_assert_int_eq(i->flags & INoSemi, INoSemi);
	ck_assert_int_eq(i->nenc, 2);
	t = i->targets;
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(mstr(m, t->text), "\"BRANCH_TARGETS .L_x_2,.L_x_1\"");
	ck_assert_int_eq(t->n, 2);
	ck_assert_int_eq(t->label[0], mintern(m, ".L_x_2"));
	ck_assert_int_eq(t->label[1], mintern(m, ".L_x_1"));
	ck_assert_ptr_null(f->ins[1].targets);
	/* the successors are the two listed labels, not .L_x_9 */
	ck_assert_int_eq(cfg_build(f, &d), 0);
	ck_assert_int_eq(f->blk[0]->nsucc, 2);
	for (uint32_t k = 0; k < f->blk[0]->nsucc; k++) {
		const Ins *first = f->blk[0]->succ[k]->ins;
		ck_assert(first == &f->ins[1] || first == &f->ins[3]);
	}
	module_free(m);
	src_free(src);
}
END_TEST

/* listings that must be refused, with the first message */
static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n BRX R6 -0x10 (*\"BRANCH_TARGETS .L_x_7\"*);\n",
	  "t.sass:3:33: error: undefined label '.L_x_7'" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n BRX R6 (*\"BRANCH_TARGETS k,,k\"*) ;\n",
	  "t.sass:3:29: error: empty label in a branch-target list" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n BRX R6 (*\"BRANCH_TARGETS k\" ;\n",
	  "t.sass:3:9: error: unterminated '(*' annotation" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n HADD2 R0, |R2.reuse|.H0_H0, R1 ;\n",
	  "t.sass:3:22: error: unexpected suffix '.H0_H0' after '|...|'" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n FADD R0, |R2|.reuse.reuse, R1 ;\n",
	  "t.sass:3:15: error: unexpected suffix '.reuse.reuse' after '|...|'" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n LDG.E R0, desc[UR4][R2.64].tnspB ;\n",
	  "t.sass:3:28: error: unexpected directive or suffix, expected ';'" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n LDC R0, c[0x0].tnspB ;\n",
	  "t.sass:3:16: error: unexpected suffix '.tnspB' after 'c[...]'" },
	{ "\t.section\t.text.k,\"ax\",@progbits\nk:\n MOV R0, `(sym) ;\n",
	  "t.sass:3:10: error: undefined label 'sym'" },
};

START_TEST(test_parse_refused)
{
	Src *src;
	Diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	Module *m;

	src = src_new("t.sass", bad[_i].text, strlen(bad[_i].text));
	diag_init(&d, src, out);
	m = sass_parse(src, &d);
	fclose(out);
	ck_assert_ptr_null(m);
	ck_assert_msg(strncmp(buf, bad[_i].msg, strlen(bad[_i].msg)) == 0, "got '%s', want '%s'",
	              buf, bad[_i].msg);
	free(buf);
	src_free(src);
}
END_TEST

/* a label operand that names a symbol of the module (.type, .global, a section) is no error */
START_TEST(test_parse_symbol_operand)
{
	static const char text[] =
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"k:\n"
		"        /*0000*/                   MOV R0, `(tex_sym) ;\n"
		"        /*0010*/                   MOV R1, `(.nv.constant3) ;\n"
		"\t.section\t.nv.constant3,\"a\",@progbits\n"
		"\t.align\t4\n"
		"//--------------------- SYMBOLS --------------------------\n"
		"\t.type\t\ttex_sym,@object\n";
	Src *src;
	Diag d;
	Module *m = parse_text(text, &d, &src);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->fn[0]->ins[0].opnd[1].kind, OLabel);
	ck_assert_int_eq(m->fn[0]->ins[0].opnd[1].imm, -1);
	ck_assert_int_eq(m->fn[0]->ins[1].opnd[1].imm, -1);
	module_free(m);
	src_free(src);
}
END_TEST

/* ---- the fast path for instruction lines (fastline.c) against the grammar ------------------ */

static void
same_opnd(const Opnd *a, const Opnd *b, const char *what)
{
	ck_assert_msg(a->kind == b->kind && a->flags == b->flags && a->r[0] == b->r[0] &&
	              a->r[1] == b->r[1] && a->r[2] == b->r[2] && a->sfx[0] == b->sfx[0] &&
	              a->sfx[1] == b->sfx[1] && a->sfx[2] == b->sfx[2] && a->atom == b->atom &&
	              a->imm == b->imm && a->imm2 == b->imm2 &&
	              (a->fimm == b->fimm || (isnan(a->fimm) && isnan(b->fimm))), "%s differs", what);
}

/* two parses of one text give the same module (atoms compare as numbers: same interning order) */
static void
same_module(const Module *a, const Module *b, const char *file)
{
	ck_assert_int_eq(a->nfn, b->nfn);
	ck_assert_int_eq(a->nsec, b->nsec);
	for (uint32_t k = 0; k < a->nsec; k++) {
		ck_assert_int_eq(a->sec[k]->nitem, b->sec[k]->nitem);
		for (uint32_t j = 0; j < a->sec[k]->nitem; j++) {
			const Item *x = &a->sec[k]->item[j], *y = &b->sec[k]->item[j];
			ck_assert(x->kind == y->kind && x->name == y->name && x->off == y->off &&
			          x->narg == y->narg && x->loc.start == y->loc.start);
		}
	}
	for (uint32_t k = 0; k < a->nfn; k++) {
		const Fn *f = a->fn[k], *g = b->fn[k];
		ck_assert_int_eq(f->nins, g->nins);
		ck_assert_int_eq(f->endlabel, g->endlabel);
		ck_assert_int_eq(f->nxlabel, g->nxlabel);
		for (uint32_t j = 0; j < 2 * f->nxlabel; j++)
			ck_assert_int_eq(f->xlabel[j], g->xlabel[j]);
		for (uint32_t j = 0; j < f->nins; j++) {
			const Ins *x = &f->ins[j], *y = &g->ins[j];
			ck_assert_msg(x->op == y->op && x->nopnd == y->nopnd && x->nmod == y->nmod &&
			              x->nenc == y->nenc && x->guarded == y->guarded && x->flags == y->flags &&
			              x->name == y->name && x->label == y->label && x->addr == y->addr &&
			              x->enc[0] == y->enc[0] && x->enc[1] == y->enc[1] &&
			              x->loc.start == y->loc.start && x->loc.end == y->loc.end &&
			              (!x->nmod || memcmp(x->mod, y->mod, x->nmod * sizeof *x->mod) == 0) &&
			              !x->targets == !y->targets,
			              "%s: instruction %u of %s differs", file, j, mstr(a, f->name));
			if (x->guarded) {
				Opnd gx = guard_opnd(&x->guard), gy = guard_opnd(&y->guard);
				same_opnd(&gx, &gy, "guard");
			}
			for (uint32_t o = 0; o < x->nopnd; o++)
				same_opnd(&x->opnd[o], &y->opnd[o], "operand");
		}
	}
}

/* the listing at path, parsed with the fast path and without: the same module, the same
 * messages; returns the instructions */
static uint32_t
both_ways(const char *path, const char *text, size_t len, int want_err)
{
	Src *s1 = src_new(path, text, len), *s2 = src_new(path, text, len);
	char *b1 = NULL, *b2 = NULL;
	size_t n1 = 0, n2 = 0;
	FILE *o1 = open_memstream(&b1, &n1), *o2 = open_memstream(&b2, &n2);
	Diag d1, d2;
	Module *m1, *m2;
	uint32_t nins = 0;

	diag_init(&d1, s1, o1);
	diag_init(&d2, s2, o2);
	m1 = sass_parse_opts(s1, &d1, 0);
	m2 = sass_parse_opts(s2, &d2, ParseNoFast);
	fclose(o1);
	fclose(o2);
	ck_assert_msg(strcmp(b1, b2) == 0, "%s: fast path says\n%s\ngrammar says\n%s", path, b1, b2);
	ck_assert_int_eq(d1.nerr, d2.nerr);
	ck_assert_msg(want_err < 0 || (want_err ? d1.nerr > 0 : d1.nerr == 0), "%s: %s", path, b1);
	ck_assert(!m1 == !m2);
	if (m1) {
		same_module(m1, m2, path);
		for (uint32_t k = 0; k < m1->nfn; k++)
			nins += m1->fn[k]->nins;
	}
	module_free(m1);
	module_free(m2);
	src_free(s1);
	src_free(s2);
	free(b1);
	free(b2);
	return nins;
}

START_TEST(test_parse_fast_listings)
{
	const char *root = getenv("FIBER_ROOT");
	char cmd[1024], path[1024];
	FILE *ls;
	int nfile = 0;

	snprintf(cmd, sizeof cmd, "cd '%s' && ls examples/*/*.sass tests/corpus/*.sass "
	         "tests/golden/*.sass tests/ir/*.sass 2>/dev/null", root ? root : ".");
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(path, sizeof path, ls)) {
		char full[2048];
		Diag d;
		Src *src;
		path[strcspn(path, "\n")] = 0;
		snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
		diag_init(&d, NULL, stderr);
		src = src_read(full, &d);
		ck_assert_ptr_nonnull(src);
		ck_assert_int_gt(both_ways(path, src->text, src->len, 0), 0);
		src_free(src);
		nfile++;
	}
	pclose(ls);
	ck_assert_int_gt(nfile, 30);
}
END_TEST

/* the checks fiberc runs after the parse (sass_check) accept every bundled listing of nvcc
 * output: the encoding table (frontend/sass/encop.c) agrees with each instruction's family and
 * destination register, no
 * register tuple is misaligned; and the table is used: most instructions have a family in it */
START_TEST(test_parse_check_listings)
{
	const char *root = getenv("FIBER_ROOT");
	char cmd[1024], path[1024];
	FILE *ls;
	int nfile = 0;
	uint64_t nins = 0, nknown = 0, ndest = 0;

	snprintf(cmd, sizeof cmd, "cd '%s' && ls examples/*/*.sass tests/corpus/*.sass bench/*.sass "
	         "tests/golden/*.sass tests/ir/*.sass 2>/dev/null", root ? root : ".");
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
		src = src_read(full, &d);
		ck_assert_ptr_nonnull(src);
		d.src = src;
		m = sass_parse(src, &d);
		ck_assert_msg(m != NULL, "%s", path);
		ck_assert_msg(sass_check(m, &d) == 0 && d.nerr == 0 && d.nwarn == 0, "%s", path);
		for (uint32_t k = 0; k < m->nfn; k++)
			for (uint32_t j = 0; j < m->fn[k]->nins; j++) {
				const Ins *i = &m->fn[k]->ins[j];
				int known, self;
				if (!i->nenc)
					continue;
				nins++;
				enc_family(i->op, i->enc[0], &known, &self);
				nknown += known && self;
				ndest += known && self && enc_dest(i->op) && i->nopnd &&
				         i->opnd[0].kind == OReg;
			}
		module_free(m);
		src_free(src);
		nfile++;
	}
	pclose(ls);
	ck_assert_int_gt(nfile, 30);
	ck_assert_msg(nknown * 100 >= nins * 99, "%llu of %llu instructions in the table",
	              (unsigned long long)nknown, (unsigned long long)nins);
	ck_assert_msg(ndest * 2 >= nins, "%llu of %llu destinations checked", (unsigned long long)ndest,
	              (unsigned long long)nins);
}
END_TEST

/* lines the fast path reads and the grammar reports on, and lines it leaves to the grammar */
static const char *const fastlines[] = {
	"MOV R300, R1 ;",
	"@P9 MOV R3, R1 ;",
	"@R1 MOV R3, R1 ;",
	"LDC R1, c[0x40][0x0] ;",
	"LDC R1, c[R2][0x0] ;",
	"LDC R1, c[0x0] ;",
	"LDG.E R0, [R2+R3+R4] ;",
	"LDG.E R0, [R2+0x4+0x8] ;",
	"LDG.E R0, [SR_TID.X] ;",
	"LDG.E R0, desc[R4][R2.64] ;",
	"LDG.E R0, desc[UR4] ;",
	"LDG.E R0, foo[UR4] ;",
	"MOV R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17, R18 ;",
	"IMAD.A.B.C.D.E.F.G.H.I.J.K.L.M R1, R2, R3, R4 ;",
	"BRA `(.L_nowhere) ;",
	"MOV R1, 0x10000000000000000 ;",
	"MOV R1, 99999999999999999999 ;",
	"MOV R1, 0x10g ;",
	"MOV R1, R2 R3 ;",
	"MOV R1, R2,, ;",
	"MOV R1, R2. ;",
	"MOV R1 ;  /* 0x0000000000000000 */ trailing",
	"MOV R1, |R2| ;",
	"MOV R1, R2<1> ;",
	"MOV R1, -0x10, ~R2, !P0, -R3.reuse, 1.5e-3, -2, `(k) ;",
	"NOP; // comment",
	"NOP;",
	"@!PT NOP ;",
	"MOV R1, R2 ;\n    /* 0x0000000000000000 */\r",
	"MOV R1, R2 ;\n    /* 0x0000000000000000 */ ;\n",
	"MOV R1, R2 ;\n    /* 0x0000000000000000 */\n  /* 0x0000000000000000 */\n",
	"MOV R1, R2 ;\r",
	"MOV R1, R2 ;\n.L_x_5:\n",
	"MOV R1, R2 ; /* 0x0000000000000000 */",
	"MOV R1, R2 ; /*  0x0 */",
};

START_TEST(test_parse_fast_lines)
{
	char text[512];
	int n = snprintf(text, sizeof text, "\t.section\t.text.k,\"ax\",@progbits\nk:\n"
	                 "        /*0000*/                   %s   /* 0x000000000000794d */\n"
	                 "                                   /* 0x000fea0003800000 */\n"
	                 "        /*0010*/                   EXIT ;\n", fastlines[_i]);

	both_ways("t.sass", text, (size_t)n, -1);
}
END_TEST

/* the same lines, and lines with virtual registers, without offset comments (the SASS that the
 * PTX lowering writes): fast_bare reads them, or leaves them to the grammar */
static const char *const barelines[] = {
	"MOV %v1, %$x1[2] ;",
	"@!%q0 BRA `(.L_x) ;",
	"@%q0 MOV %x@1, %d2.64 ;",
	"LDG.E.128.CONSTANT %$x0, [%d2.64+-0x200] ;",
	"HMMA.16816.F32 %$x1, %$x0, %$w0, %$x1 ;",
	"SHFL.BFLY %q0, %v1, %v0, 0x1, 0x1f ;",
	"MOV %x[1]a, R1 ;",
	"MOV %x@1a, R1 ;",
	"MOV %x[a], R1 ;",
	"MOV %x[1, R1 ;",
	"MOV %x@, R1 ;",
	"MOV %1, R1 ;",
	"MOV %, R1 ;",
	"MOV %x., R1 ;",
	"MOV %x<1>, R1 ;",
	"MOV %x.reuse.64, c[0x0][%v1] ;",
	"FMUL %v1, %v0, 1.4426950216293335 ;",
	"MOV %v1, %v2 ;\n        MOV %v3, %v1 ;\n.L_p0:\n        EXIT ;",
	"MOV %v1, %v2 ;\n        // a comment\n        MOV %v3, %v1 ;",
	"MOV %v1, %v2 ;\n\t.align 4\n        MOV %v3, %v1 ;",
	"MOV %v1, %v2 ;\n    /* 0x0000000000000000 */\n        MOV %v3, %v1 ;",
	"MOV %v1, %v2 ;\n        /*0010*/ MOV %v3, %v1 ;",
	"MOV %v1, %v2 ; MOV %v3, %v1 ;",
};

START_TEST(test_parse_fast_bare_lines)
{
	char text[512];
	const char *l = _i < (int)(sizeof fastlines / sizeof fastlines[0]) ? fastlines[_i] :
	                barelines[_i - sizeof fastlines / sizeof fastlines[0]];
	int n = snprintf(text, sizeof text, "\t.section\t.text.k,\"ax\",@progbits\nk:\n"
	                 "        %s\n        EXIT ;\n", l);

	both_ways("t.sass", text, (size_t)n, -1);
}
END_TEST

/* every committed PTX file lowered for its own target (the text fiberc reads after selection),
 * read with the fast path and without: the same module */
START_TEST(test_parse_fast_lowered)
{
	const char *root = getenv("FIBER_ROOT");
	char cmd[1024], path[1024];
	FILE *ls;
	int nfile = 0;
	uint64_t nins = 0;
	FILE *quiet = fopen("/dev/null", "w");   /* the refused kernels' messages */

	ck_assert_ptr_nonnull(quiet);
	snprintf(cmd, sizeof cmd, "cd '%s' && ls examples/*/*.ptx bench/ptx/*/*.ptx tests/corpus/*.ptx 2>/dev/null",
	         root ? root : ".");
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(path, sizeof path, ls)) {
		char full[2048];
		Diag d;
		Src *src, *low;
		Ptx *p;
		PtxLower o = { 0 };
		path[strcspn(path, "\n")] = 0;
		snprintf(full, sizeof full, "%s/%s", root ? root : ".", path);
		diag_init(&d, NULL, quiet);
		src = src_read(full, &d);
		ck_assert_ptr_nonnull(src);
		d.src = src;
		p = ptx_parse(src, &d);
		ck_assert_msg(p != NULL, "%s", path);
		if ((low = ptx_lower_opts(p, &o, &d))) {
			nins += both_ways(path, low->text, low->len, 0);
			src_free(low);
			nfile++;
		}
		ptx_free(p);
		src_free(src);
	}
	pclose(ls);
	fclose(quiet);
	ck_assert_int_gt(nfile, 30);
	ck_assert_uint_gt(nins, 10000);
}
END_TEST

/* ---- cuobjdump and metadata -------------------------------------------------------------- */

START_TEST(test_parse_cuobjdump)
{
	Src *src;
	Module *m = parse_golden("saxpy.sm_80.cuobjdump.sass", &src);
	const Fn *f;
	const Ins *last;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->format, FmtCuobjdump);
	ck_assert_int_eq(m->sm, 80);
	ck_assert_str_eq(mstr(m, m->cuobj_arch), "sm_80");
	ck_assert_int_eq(m->nfn, 1);
	f = m->fn[0];
	ck_assert_str_eq(mstr(m, f->name), "_Z5saxpyfPKfPfi");
	ck_assert_int_gt(f->nins, 10);
	/* nvcc's trailing self-loop `BRA 0xf0`: an address operand that became a label */
	for (last = NULL, f = m->fn[0]; f && !last;)
		for (uint32_t k = 0; k < f->nins; k++)
			if (strcmp(mstr(m, f->ins[k].name), "BRA") == 0)
				last = &f->ins[k];
	ck_assert_ptr_nonnull(last);
	ck_assert_int_eq(last->opnd[0].kind, OLabel);
	ck_assert_int_eq(last->opnd[0].flags & FSpell1, FSpell1);
	ck_assert_int_eq(last->opnd[0].imm, last->addr);
	ck_assert_int_eq(last->label, last->opnd[0].atom);
	ck_assert_int_eq(last->nenc, 2);
	module_free(m);
	src_free(src);
}
END_TEST

static const struct {
	const char *file;
	int sm;
	int cbank_off;     /* EIATTR_PARAM_CBANK offset: 0x160 on sm_80, 0x210 on sm_90 */
} saxpy[] = {
	{ "saxpy.sm_80.sass", 80, 0x160 },
	{ "saxpy.sm_90.sass", 90, 0x210 },
};

START_TEST(test_parse_nvinfo_saxpy)
{
	static const uint32_t off[4] = { 0, 8, 0x10, 0x18 }, size[4] = { 4, 8, 8, 4 };
	Src *src;
	Module *m = parse_golden(saxpy[_i].file, &src);
	const KInfo *k;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->sm, saxpy[_i].sm);
	ck_assert_int_eq(m->nfn, 1);
	k = &m->fn[0]->info;
	ck_assert_int_eq(k->is_entry, 1);
	ck_assert_int_eq(k->nparam, 4);
	for (uint32_t p = 0; p < 4; p++) {
		ck_assert_uint_eq(k->param[p].ordinal, p);
		ck_assert_uint_eq(k->param[p].offset, off[p]);
		ck_assert_uint_eq(k->param[p].size, size[p]);
	}
	ck_assert_int_eq(k->cbank_param_size, 0x1c);
	ck_assert_int_eq(k->param_cbank_off, saxpy[_i].cbank_off);
	ck_assert_int_eq(k->param_cbank_size, 0x1c);
	ck_assert_int_gt(k->regcount, 0);
	ck_assert_int_eq(k->frame_size, 0);
	ck_assert_int_eq(k->min_stack_size, 0);
	ck_assert_int_eq(k->maxreg, 0xff);
	ck_assert_int_eq(k->nexit, 2);
	for (uint32_t e = 0; e < k->nexit; e++) {
		uint32_t at = k->exit_off[e] / 16;
		ck_assert_uint_lt(at, m->fn[0]->nins);
		ck_assert_str_eq(mstr(m, m->fn[0]->ins[at].name), "EXIT");
	}
	module_free(m);
	src_free(src);
}
END_TEST

/* ---- IR text ------------------------------------------------------------------------------- */

START_TEST(test_parse_ssa_annotations)
{
	static const char text[] =
		"// fiber IR\n"
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"k:\n"
		"// bb0: entry\n"
		"        /*0000*/                   IMAD.WIDE R2<4,2>, R7<3>, 0x4, R2<3,1> ;\n"
		"        /*0010*/           @P0<1> IADD3 R7<3>, R7<2>, 0x1, RZ old(R7<2>) ;\n"
		".L_x_1:\n"
		"                                   R7<5> = phi(bb1: R7<2>, bb3: R7<4>) ;\n"
		"        /*0020*/                   LDG.E R0<1>, [R2<1,1>.64] use(UR4<1,1>) ;\n";
	Src *src;
	Diag d;
	Module *m = parse_text(text, &d, &src);
	const SsaNotes *n;
	const SsaAnn *a;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->has_ssa, 1);
	n = sass_notes(m->fn[0]);
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->nann, 10);
	a = &n->ann[0];                                   /* R2<4,2>: operand 0, two units */
	ck_assert_int_eq(a->ins, 0);
	ck_assert_int_eq(a->kind, AnnOpnd);
	ck_assert_int_eq(a->opnd, 0);
	ck_assert_int_eq(a->n, 2);
	ck_assert_int_eq(a->ver[0], 4);
	ck_assert_int_eq(a->ver[1], 2);
	a = &n->ann[3];                                   /* @P0<1> */
	ck_assert_int_eq(a->opnd, SlotGuard);
	ck_assert_int_eq(a->reg, P(0));
	a = &n->ann[6];                                   /* old(R7<2>) */
	ck_assert_int_eq(a->kind, AnnOld);
	ck_assert_int_eq(a->reg, R(7));
	ck_assert_int_eq(a->ver[0], 2);
	a = &n->ann[8];                                   /* [R2<1,1>.64] */
	ck_assert_int_eq(a->ins, 2);
	ck_assert_int_eq(a->opnd, 1);
	ck_assert_int_eq(a->field, 0);
	ck_assert_int_eq(n->ann[9].kind, AnnUse);
	ck_assert_int_eq(n->nphi, 1);
	ck_assert_int_eq(n->phi[0].before, 2);
	ck_assert_int_eq(n->phi[0].reg, R(7));
	ck_assert_int_eq(n->phi[0].ver, 5);
	ck_assert_int_eq(n->phi[0].narg, 2);
	ck_assert_int_eq(n->phi[0].blk[1], 3);
	ck_assert_int_eq(n->phi[0].aver[1], 4);
	/* the annotations are not part of the operands */
	ck_assert_int_eq(m->fn[0]->ins[1].nopnd, 4);
	module_free(m);
	src_free(src);
}
END_TEST

Suite *
parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("Operands");

	tcase_add_loop_test(tc, test_parse_operand, 0, sizeof ops / sizeof ops[0]);
	tcase_add_test(tc, test_parse_float_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("Core");
	tcase_add_test(tc, test_parse_instruction_fields);
	tcase_add_test(tc, test_parse_labels_and_subroutines);
	tcase_add_test(tc, test_parse_cuobjdump);
	tcase_add_loop_test(tc, test_parse_nvinfo_saxpy, 0, sizeof saxpy / sizeof saxpy[0]);
	tcase_add_test(tc, test_parse_ssa_annotations);
	tcase_add_test(tc, test_parse_branch_targets);
	tcase_add_test(tc, test_parse_symbol_operand);
	tcase_add_loop_test(tc, test_parse_refused, 0, sizeof bad / sizeof bad[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Fast");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_parse_fast_listings);
	tcase_add_test(tc, test_parse_check_listings);
	tcase_add_loop_test(tc, test_parse_fast_lines, 0, sizeof fastlines / sizeof fastlines[0]);
	tcase_add_loop_test(tc, test_parse_fast_bare_lines, 0,
	                    sizeof fastlines / sizeof fastlines[0] + sizeof barelines / sizeof barelines[0]);
	tcase_add_test(tc, test_parse_fast_lowered);
	suite_add_tcase(s, tc);
	return s;
}
