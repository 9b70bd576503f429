/* check_parse.c: the SASS parser (frontend/sass.y, build.c, nvinfo.c): every operand form into
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
	suite_add_tcase(s, tc);
	return s;
}
