/* check_ssa.c: tests of ir/ssa.c (phi placement, renaming, versions, old values of predicated
 * definitions, multi-register slots, def-use chains, leaving SSA) and of the passes dce-phi and
 * liveness. Functions come from the SASS builder of check_cfg.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "passes.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);
int irt_cfg(Irt *t);

/* CFG, dominators, SSA and def-use chains, checked by the verifier */
static Irt *
lift(const char *text)
{
	Irt *t = irt_new(text);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(ssa_build(irt_fn(t), irt_diag(t)), 0);
	ssa_uses(irt_fn(t));
	ck_assert_msg(verify_fn(irt_fn(t), irt_diag(t)) == 0, "%s", irt_errors(t));
	return t;
}

/* "R2<3>" for value v */
static const char *
vn(Fn *f, uint32_t v, char *buf)
{
	char r[16];

	if (!v)
		return strcpy(buf, "-");
	reg_name(f->val[v].reg, r, sizeof r);
	sprintf(buf, "%s<%u>", r, f->val[v].ver);
	return buf;
}

/* the slot of kind `kind` of instruction idx whose first register is `reg` */
static Slot *
slot_of(Fn *f, uint32_t idx, int kind, const char *reg)
{
	Ins *i = &f->ins[idx];
	char r[16];

	for (unsigned j = 0; j < i->nslot; j++) {
		reg_name(i->slot[j].reg, r, sizeof r);
		if (i->slot[j].kind == kind && strcmp(r, reg) == 0)
			return &i->slot[j];
	}
	return NULL;
}

/* the values of that slot, "R2<1> R3<1>" */
static const char *
slotvals(Fn *f, uint32_t idx, int kind, const char *reg, char *buf)
{
	Slot *sl = slot_of(f, idx, kind, reg);
	char v[32];

	if (!sl)
		return "none";
	buf[0] = 0;
	for (unsigned m = 0; m < sl->n; m++)
		sprintf(buf + strlen(buf), "%s%s", m ? " " : "", vn(f, sl->v[m], v));
	return buf;
}

/* "R2<3> = phi(R2<1>, R2<2>)" for every phi of block b, one per line */
static const char *
phis(Fn *f, uint32_t b, char *buf)
{
	char v[32];

	buf[0] = 0;
	for (Phi *p = f->blk[b]->phi; p; p = p->link) {
		sprintf(buf + strlen(buf), "%s = phi(", vn(f, p->to, v));
		for (uint32_t k = 0; k < p->narg; k++)
			sprintf(buf + strlen(buf), "%s%s", k ? ", " : "", vn(f, p->arg[k], v));
		strcat(buf, ")\n");
	}
	return buf;
}

static uint32_t
nphi(Fn *f)
{
	uint32_t n = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (Phi *p = f->blk[b]->phi; p; p = p->link)
			n++;
	return n;
}

#define USES(t, idx, reg, want) do { char b_[256]; \
	ck_assert_str_eq(slotvals(irt_fn(t), idx, SUse, reg, b_), want); } while (0)
#define DEFS(t, idx, reg, want) do { char b_[256]; \
	ck_assert_str_eq(slotvals(irt_fn(t), idx, SDef, reg, b_), want); } while (0)
#define OLDS(t, idx, reg, want) do { char b_[256]; \
	ck_assert_str_eq(slotvals(irt_fn(t), idx, SOld, reg, b_), want); } while (0)
#define PHIS(t, b, want) do { char b_[1024]; \
	ck_assert_str_eq(phis(irt_fn(t), b, b_), want); } while (0)

/* index of p in b->pred */
static uint32_t
predindex_of(const Blk *b, const Blk *p)
{
	for (uint32_t k = 0; k < b->npred; k++)
		if (b->pred[k] == p)
			return k;
	return 0;
}

static const char diamond[] =
	"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"   /* 0 */
	"@P0 BRA `(.L_1) ;\n"                   /* 1 */
	"MOV R2, R0 ;\n"                        /* 2 */
	"BRA `(.L_2) ;\n"                       /* 3 */
	".L_1:\n"
	"MOV R2, R1 ;\n"                        /* 4 */
	".L_2:\n"
	"STG.E [R4.64], R2 ;\n"                 /* 5 */
	"EXIT ;\n";                             /* 6 */

START_TEST(test_ssa_diamond)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	ck_assert(f->in_ssa);
	USES(t, 0, "R0", "R0<0>");          /* values on entry are version 0 */
	DEFS(t, 2, "R2", "R2<1>");
	DEFS(t, 4, "R2", "R2<2>");
	PHIS(t, 3, "R2<3> = phi(R2<1>, R2<2>)\n");
	ck_assert_uint_eq(nphi(f), 1);
	USES(t, 5, "R2", "R2<3>");
	USES(t, 5, "R4", "R4<0> R5<0>");
	ck_assert_ptr_eq(f->val[f->blk[3]->phi->to].phi, f->blk[3]->phi);
	ck_assert_ptr_eq(f->val[f->blk[3]->phi->to].blk, f->blk[3]);
	irt_free(t);
}
END_TEST

/* pruned: P0 is defined in the loop but not live on entry to its header: no phi */
START_TEST(test_ssa_loop)
{
	Irt *t = lift(
		"MOV R0, RZ ;\n"                        /* 0 */
		".L_0:\n"
		"IADD3 R0, R0, 0x1, RZ ;\n"             /* 1 */
		"ISETP.NE.AND P0, PT, R0, 0x10, PT ;\n" /* 2 */
		"@P0 BRA `(.L_0) ;\n"                   /* 3 */
		"STG.E [R4.64], R0 ;\n"                 /* 4 */
		"EXIT ;\n");

	PHIS(t, 1, "R0<2> = phi(R0<1>, R0<3>)\n");
	ck_assert_uint_eq(nphi(irt_fn(t)), 1);
	USES(t, 1, "R0", "R0<2>");
	DEFS(t, 1, "R0", "R0<3>");
	USES(t, 3, "P0", "P0<1>");
	USES(t, 4, "R0", "R0<3>");
	irt_free(t);
}
END_TEST

START_TEST(test_ssa_nested_loops)
{
	Irt *t = lift(
		"MOV R0, RZ ;\n"
		".L_outer:\n"
		"MOV R1, RZ ;\n"
		".L_inner:\n"
		"IADD3 R1, R1, 0x1, RZ ;\n"
		"ISETP.NE.AND P0, PT, R1, 0x8, PT ;\n"
		"@P0 BRA `(.L_inner) ;\n"
		"IADD3 R0, R0, 0x1, RZ ;\n"
		"ISETP.NE.AND P1, PT, R0, 0x8, PT ;\n"
		"@P1 BRA `(.L_outer) ;\n"
		"EXIT ;\n");

	PHIS(t, 1, "R0<2> = phi(R0<1>, R0<3>)\n");
	PHIS(t, 2, "R1<2> = phi(R1<1>, R1<3>)\n");
	ck_assert_uint_eq(nphi(irt_fn(t)), 2);
	irt_free(t);
}
END_TEST

/* a predicated definition reads the old value (SOld), which is what reaches it */
START_TEST(test_ssa_predicated)
{
	Irt *t = lift(
		"MOV R2, 0x1 ;\n"           /* 0 */
		"@P0 MOV R2, R3 ;\n"        /* 1 */
		"@!P0 IADD3 R2, R2, 0x1, RZ ;\n" /* 2 */
		"STG.E [R4.64], R2 ;\n"     /* 3 */
		"EXIT ;\n");

	DEFS(t, 0, "R2", "R2<1>");
	DEFS(t, 1, "R2", "R2<2>");
	OLDS(t, 1, "R2", "R2<1>");
	USES(t, 1, "P0", "P0<0>");     /* the guard */
	OLDS(t, 2, "R2", "R2<2>");
	DEFS(t, 2, "R2", "R2<3>");
	USES(t, 3, "R2", "R2<3>");
	irt_free(t);
}
END_TEST

/* IMAD.WIDE defines R2 and R3 as two values; a later use of R2 alone reads the first */
START_TEST(test_ssa_multireg)
{
	Irt *t = lift(
		"IMAD.WIDE R2, R7, 0x4, R4 ;\n"  /* 0 */
		"MOV R6, R2 ;\n"                 /* 1 */
		"MOV R3, RZ ;\n"                 /* 2 */
		"LDG.E R8, [R2.64] ;\n"          /* 3 */
		"EXIT ;\n");
	Fn *f = irt_fn(t);

	DEFS(t, 0, "R2", "R2<1> R3<1>");
	USES(t, 1, "R2", "R2<1>");
	DEFS(t, 2, "R3", "R3<2>");
	USES(t, 3, "R2", "R2<1> R3<2>");    /* partial overlap is exact */
	ck_assert_uint_eq(f->val[slot_of(f, 0, SDef, "R2")->v[1]].nuse, 0);   /* R3<1>: dead */
	irt_free(t);
}
END_TEST

/* convergence barriers are values too; BSSY/BSYNC regions need no phi */
START_TEST(test_ssa_bssy)
{
	Irt *t = lift(
		"BSSY B0, `(.L_x_1) ;\n"                 /* 0 */
		"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"    /* 1 */
		"@P0 BRA `(.L_x_0) ;\n"                  /* 2 */
		"MOV R2, R0 ;\n"                         /* 3 */
		".L_x_0:\n"
		"BSYNC B0 ;\n"                           /* 4 */
		".L_x_1:\n"
		"STG.E [R4.64], R2 ;\n"                  /* 5 */
		"EXIT ;\n");

	DEFS(t, 0, "B0", "B0<1>");
	USES(t, 4, "B0", "B0<1>");
	PHIS(t, 2, "R2<2> = phi(R2<0>, R2<1>)\n");
	ck_assert_uint_eq(nphi(irt_fn(t)), 1);
	irt_free(t);
}
END_TEST

/* unreachable code keeps no values; a subroutine reads the values on entry too */
START_TEST(test_ssa_unreachable_and_subroutine)
{
	Irt *t = lift(
		"MOV R2, 0x40 ;\n"                          /* 0 */
		"STG.E [R4.64], R13 ;\n"                    /* 1 */
		"CALL.REL.NOINC `(sub) ;\n"                 /* 2 */
		"EXIT ;\n"                                  /* 3 */
		"sub:\n"
		"MOV R8, R13 ;\n"                           /* 4 */
		"RET.REL.NODEC R2 `(kern) ;\n"              /* 5 */
		".L_x_5:\n"
		"MOV R9, R13 ;\n"                           /* 6 */
		"BRA `(.L_x_5);\n");                        /* 7 */
	Fn *f = irt_fn(t);
	uint32_t v;

	USES(t, 1, "R13", "R13<0>");
	USES(t, 4, "R13", "R13<0>");   /* in the subroutine: R13 as the caller left it */
	v = slot_of(f, 4, SUse, "R13")->v[0];
	ck_assert_ptr_null(f->val[v].def);
	ck_assert_ptr_eq(f->val[v].blk, f->blk[0]);
	USES(t, 6, "R13", "-");
	DEFS(t, 6, "R9", "-");
	irt_free(t);
}
END_TEST

/* an edge from unreachable code brings the value on entry into a phi */
START_TEST(test_ssa_unreachable_pred)
{
	Irt *t = lift(
		"MOV R0, 0x1 ;\n"
		"@P0 BRA `(.L_1) ;\n"
		"MOV R0, 0x2 ;\n"
		".L_1:\n"
		"STG.E [R4.64], R0 ;\n"
		"EXIT ;\n"
		"MOV R0, 0x3 ;\n"          /* unreachable, falls into nothing: branches back */
		"BRA `(.L_1) ;\n");

	ck_assert_uint_eq(irt_fn(t)->blk[3]->rpo, UINT32_MAX);
	PHIS(t, 2, "R0<3> = phi(R0<1>, R0<2>, R0<0>)\n");
	ck_assert_int_eq(ssa_out(irt_fn(t), irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

START_TEST(test_ssa_uses)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);
	Phi *p = f->blk[3]->phi;
	Val *x;

	x = &f->val[p->to];
	ck_assert_uint_eq(x->nuse, 1);
	ck_assert_ptr_eq(x->use[0].ins, &f->ins[5]);
	ck_assert_uint_eq(x->use[0].isphi, 0);
	x = &f->val[p->arg[0]];
	ck_assert_uint_eq(x->nuse, 1);
	ck_assert_uint_eq(x->use[0].isphi, 1);
	ck_assert_ptr_eq(x->use[0].phi, p);
	ck_assert_uint_eq(x->use[0].idx, 0);
	x = &f->val[slot_of(f, 0, SUse, "R0")->v[0]];   /* R0<0>: ISETP and MOV */
	ck_assert_uint_eq(x->nuse, 2);
	ssa_uses(f);   /* again: the old arrays are freed */
	irt_free(t);
}
END_TEST

/* leaving SSA drops phis and values; building again gives the same numbering */
START_TEST(test_ssa_out_and_again)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);
	char before[1024], after[1024];

	phis(f, 3, before);
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), 0);
	ck_assert(!f->in_ssa);
	ck_assert_ptr_null(f->blk[3]->phi);
	ck_assert_uint_eq(slot_of(f, 5, SUse, "R2")->v[0], 0);
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	ck_assert_int_eq(ssa_build(f, irt_diag(t)), 0);
	phis(f, 3, after);
	ck_assert_str_eq(before, after);
	irt_free(t);
}
END_TEST

/* the text of instructions from..to-1 of f, one per line */
static const char *
texts(Fn *f, uint32_t from, uint32_t to, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (uint32_t i = from; i < to && i < f->nins && k < n; i++) {
		fmt_ins(buf + k, n - k, f, &f->ins[i], 0);
		k += strlen(buf + k);
		if (k + 1 < n) {
			buf[k++] = '\n';
			buf[k] = 0;
		}
	}
	return buf;
}

/* a phi argument of another register: a copy at the end of that predecessor */
START_TEST(test_ssa_out_phi_copy)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);
	char buf[512];

	f->blk[3]->phi->arg[1] = slot_of(f, 0, SUse, "R0")->v[0];   /* R0<0> into R2's phi */
	ck_assert_msg(ssa_out(f, irt_diag(t)) == 0, "%s", irt_errors(t));
	ck_assert(!f->in_ssa);
	ck_assert_uint_eq(f->nins, 8);
	ck_assert_str_eq(texts(f, 4, 6, buf, sizeof buf), "MOV R2, R1 ;\nMOV R2, R0 ;\n");
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

/* a phi argument whose register was overwritten on the way is not available anywhere */
START_TEST(test_ssa_out_needs_copy)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	f->blk[3]->phi->arg[1] = slot_of(f, 2, SDef, "R2")->v[0];   /* R2 of the other side */
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "no other register holds R2<1>"));
	ck_assert(f->in_ssa);
	irt_free(t);
}
END_TEST

/* two values exchanged across a loop: R2 and R3 swap places on the back edge */
static const char swaploop[] =
	"MOV R2, 0x1 ;\n"                       /* 0 */
	"MOV R3, 0x2 ;\n"                       /* 1 */
	"MOV R5, RZ ;\n"                        /* 2 */
	".L_0:\n"
	"IADD3 R2, R2, 0x1, RZ ;\n"             /* 3 */
	"IADD3 R3, R3, 0x2, RZ ;\n"             /* 4 */
	"%s"
	"STG.E [R6.64], R2 ;\n"                 /* 5 (+1) */
	"IADD3 R5, R5, 0x1, RZ ;\n"
	"ISETP.NE.AND P0, PT, R5, 0x10, PT ;\n"
	"@P0 BRA `(.L_0) ;\n"
	"EXIT ;\n";

static Irt *
swapped(const char *extra)
{
	char text[1024];
	Irt *t;
	Fn *f;
	Phi *p2 = NULL, *p3 = NULL;
	Blk *h;

	snprintf(text, sizeof text, swaploop, extra);
	t = lift(text);
	f = irt_fn(t);
	h = f->blk[1];
	for (Phi *p = h->phi; p; p = p->link) {
		if (p->reg == REG(RR, 2))
			p2 = p;
		if (p->reg == REG(RR, 3))
			p3 = p;
	}
	ck_assert_ptr_nonnull(p2);
	ck_assert_ptr_nonnull(p3);
	uint32_t k = predindex_of(h, h);
	uint32_t a = p2->arg[k];
	p2->arg[k] = p3->arg[k];
	p3->arg[k] = a;
	return t;
}

START_TEST(test_ssa_out_swap_scratch)
{
	Irt *t = swapped("");
	Fn *f = irt_fn(t);
	char buf[512];

	ck_assert_msg(ssa_out(f, irt_diag(t)) == 0, "%s", irt_errors(t));
	/* R0 is free there: a three-move rotation through it, before the branch */
	ck_assert_str_eq(texts(f, 8, 12, buf, sizeof buf),
	                 "MOV R0, R3 ;\nMOV R3, R2 ;\nMOV R2, R0 ;\n@P0 BRA `(.L_0) ;\n");
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

START_TEST(test_ssa_out_swap_no_scratch)
{
	/* R0, R1 and R4 are read in the loop as well: every R up to R7 is live at the branch */
	Irt *t = swapped("IADD3 R4, R0, R1, R4 ;\n");
	Fn *f = irt_fn(t);
	char buf[512];

	ck_assert_msg(ssa_out(f, irt_diag(t)) == 0, "%s", irt_errors(t));
	ck_assert_str_eq(texts(f, 9, 13, buf, sizeof buf),
	                 "LOP3.LUT R2, R2, R3, RZ, 0x96, !PT ;\n"
	                 "LOP3.LUT R3, R3, R2, RZ, 0x96, !PT ;\n"
	                 "LOP3.LUT R2, R2, R3, RZ, 0x96, !PT ;\n"
	                 "@P0 BRA `(.L_0) ;\n");
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

/* an operand that reads a value held in another register: a copy just before it */
START_TEST(test_ssa_out_operand_copy)
{
	Irt *t = lift(
		"MOV R2, 0x1 ;\n"
		"ISETP.GE.AND P0, PT, R2, R1, PT ;\n"
		"SEL R3, R2, R1, P1 ;\n"
		"STG.E [R4.64], R3 ;\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);
	char buf[512];

	slot_of(f, 3, SUse, "R3")->v[0] = slot_of(f, 0, SDef, "R2")->v[0];  /* STG reads R2<1> */
	slot_of(f, 2, SUse, "P1")->v[0] = slot_of(f, 1, SDef, "P0")->v[0];  /* SEL reads P0<1> */
	ck_assert_msg(ssa_out(f, irt_diag(t)) == 0, "%s", irt_errors(t));
	ck_assert_str_eq(texts(f, 2, 6, buf, sizeof buf),
	                 "PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n"
	                 "SEL R3, R2, R1, P1 ;\n"
	                 "MOV R3, R2 ;\n"
	                 "STG.E [R4.64], R3 ;\n");
	irt_free(t);
}
END_TEST

/* convergence barriers have no copy instruction */
START_TEST(test_ssa_out_no_copy_class)
{
	Irt *t = lift(
		"BSSY B0, `(.L_1) ;\n"
		"MOV R2, 0x1 ;\n"
		".L_1:\n"
		"BSYNC B1 ;\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);

	slot_of(f, 2, SUse, "B1")->v[0] = slot_of(f, 0, SDef, "B0")->v[0];
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "has no copy instruction"));
	irt_free(t);
}
END_TEST

/* a use that reads a version other than the one its register holds there */
START_TEST(test_ssa_out_stale_use)
{
	Irt *t = lift(
		"MOV R2, 0x1 ;\n"
		"MOV R2, 0x2 ;\n"
		"STG.E [R4.64], R2 ;\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);

	slot_of(f, 2, SUse, "R2")->v[0] = slot_of(f, 0, SDef, "R2")->v[0];   /* R2<1> after R2<2> */
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "reads R2<1> but R2<2> is what R2 holds"));
	irt_free(t);
}
END_TEST

/* dce-phi: an unused phi and a dead cycle go, the used phi stays */
START_TEST(test_ssa_dce_phi)
{
	Irt *t = lift(
		"MOV R0, RZ ;\n"
		".L_0:\n"
		"IADD3 R0, R0, 0x1, RZ ;\n"
		"ISETP.NE.AND P0, PT, R0, 0x10, PT ;\n"
		"@P0 BRA `(.L_0) ;\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);
	Blk *h = f->blk[1];
	Phi *dead = calloc(2, sizeof *dead);
	uint32_t e = fn_newval(f, REG(RR, 9), 0), x, y;

	f->val[e].blk = f->blk[0];
	/* R9<1> = phi(R9<0>, R9<1>): a cycle through itself; R7<1> = phi(R7<0>, R7<0>): unused */
	x = fn_newval(f, REG(RR, 9), 1);
	y = fn_newval(f, REG(RR, 7), 1);
	uint32_t e7 = fn_newval(f, REG(RR, 7), 0);
	f->val[e7].blk = f->blk[0];
	uint32_t args[4] = {e, x, e7, e7};
	dead[0] = (Phi){.reg = REG(RR, 9), .to = x, .arg = args, .narg = 2, .link = &dead[1]};
	dead[1] = (Phi){.reg = REG(RR, 7), .to = y, .arg = args + 2, .narg = 2, .link = h->phi};
	f->val[x].phi = &dead[0];
	f->val[x].blk = h;
	f->val[y].phi = &dead[1];
	f->val[y].blk = h;
	h->phi = &dead[0];
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	ck_assert_uint_eq(nphi(f), 3);
	ck_assert_int_eq(pass_dce_phi(f, irt_diag(t)), 0);
	ck_assert_uint_eq(nphi(f), 1);
	ck_assert_uint_eq(h->phi->reg, REG(RR, 0));
	ck_assert_ptr_null(f->val[x].blk);
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), 0);
	irt_free(t);
	free(dead);
}
END_TEST

/* phis stay few in a loop that carries many registers: one per carried register */
START_TEST(test_ssa_phi_count_unrolled)
{
	enum { N = 200 };
	size_t cap = 64 * N * 3 + 512, n = 0;
	char *text = malloc(cap);
	Irt *t;

	for (int r = 0; r < N; r++)
		n += (size_t)snprintf(text + n, cap - n, "MOV R%d, RZ ;\n", r);
	n += (size_t)snprintf(text + n, cap - n, ".L_0:\n");
	for (int k = 0; k < 3; k++)       /* unrolled three times */
		for (int r = 0; r < N; r++)
			n += (size_t)snprintf(text + n, cap - n, "FADD R%d, R%d, R%d ;\n", r, r,
			                      (r + 1) % N);
	n += (size_t)snprintf(text + n, cap - n,
	                      "ISETP.NE.AND P0, PT, R0, R1, PT ;\n@P0 BRA `(.L_0) ;\nEXIT ;\n");
	t = lift(text);
	ck_assert_uint_eq(nphi(irt_fn(t)), N);
	irt_free(t);
	free(text);
}
END_TEST

START_TEST(test_ssa_liveness)
{
	Irt *t = irt_new(diamond);
	Fn *f = irt_fn(t);
	Live *l;

	ck_assert_int_eq(irt_cfg(t), 0);
	l = live_build(f, NumArchUnit);
	ck_assert_ptr_nonnull(l);
	ck_assert(live_has(l, l->in, 0));                   /* R0 into bb0 */
	ck_assert(live_has(l, l->in, 1));
	ck_assert(live_has(l, l->in, 4));                   /* R4, R5 for the store */
	ck_assert(!live_has(l, l->in, 2));                  /* R2 is written first */
	ck_assert(live_has(l, l->out + 1 * l->nword, 2));   /* R2 out of bb1 */
	ck_assert(!live_has(l, l->out + 1 * l->nword, 0));
	ck_assert(!live_has(l, l->in, UnitP + 0));          /* P0 written by ISETP */
	ck_assert_int_eq(l->maxr, 4);                       /* R0 R1 R4 R5 out of bb0 */
	ck_assert_int_eq(live_max_regs(f), 4);
	live_free(l);
	/* a wider set works the same */
	l = live_build(f, NumUnit);
	ck_assert_uint_eq(l->nword, (NumUnit + 63) / 64);
	ck_assert_int_eq(l->maxr, 4);
	live_free(l);
	ck_assert_int_eq(pass_liveness(f, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

/* liveness follows internal calls: what the subroutine reads is live before the CALL, and
 * what lives across the call stays live through the subroutine */
START_TEST(test_ssa_liveness_call)
{
	Irt *t = irt_new(
		"MOV R13, 0x1 ;\n"              /* bb0 */
		"MOV R6, 0x2 ;\n"
		"CALL.REL.NOINC `(sub) ;\n"
		"STG.E [R4.64], R6 ;\n"         /* bb1: R6 lives across the call */
		"EXIT ;\n"
		"sub:\n"
		"MOV R8, R13 ;\n"               /* bb2 */
		"RET.REL.NODEC R2 `(kern) ;\n");
	Fn *f = irt_fn(t);
	Live *l;

	ck_assert_int_eq(irt_cfg(t), 0);
	l = live_build(f, NumArchUnit);
	ck_assert(live_has(l, l->out, 13));                 /* read by the subroutine */
	ck_assert(live_has(l, l->out, 6));
	ck_assert(live_has(l, l->in + 2 * l->nword, 6));    /* through the subroutine */
	ck_assert(live_has(l, l->out + 2 * l->nword, 6));
	ck_assert(!live_has(l, l->in, 13));
	live_free(l);
	irt_free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Random programs, checked by execution: along random paths, every operand must carry the value
 * that the last definition on the path gave its register (a phi's value once the path enters the
 * phi's block), and the value on entry where the path has not written the register yet. This
 * checks phi placement, pruning and renaming against the semantics, not against themselves.
 */
static uint32_t
rnd(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

static char *
random_program(uint32_t seed, int nblk)
{
	size_t cap = 65536, n = 0;
	char *t = malloc(cap);

#define EMIT(...) (n += (size_t)snprintf(t + n, cap - n, __VA_ARGS__))
	for (int b = 0; b < nblk; b++) {
		int nins = 1 + (int)(rnd(&seed) % 4);
		EMIT(".L_%d:\n", b);
		for (int k = 0; k < nins; k++) {
			int x = (int)(rnd(&seed) % 8), y = (int)(rnd(&seed) % 8), z = (int)(rnd(&seed) % 8);
			switch (rnd(&seed) % 7) {
			case 0: EMIT("MOV R%d, 0x%d ;\n", x, b); break;
			case 1: EMIT("IADD3 R%d, R%d, R%d, RZ ;\n", x, y, z); break;
			case 2: EMIT("@P%d MOV R%d, R%d ;\n", (int)(rnd(&seed) % 2), x, y); break;
			case 3: EMIT("ISETP.NE.AND P%d, PT, R%d, RZ, PT ;\n", (int)(rnd(&seed) % 2), x); break;
			case 4: EMIT("IMAD.WIDE R%d, R%d, 0x4, R%d ;\n", x & 6, y, z & 6); break;
			case 5: EMIT("STG.E [R%d.64], R%d ;\n", x & 6, y); break;
			default: EMIT("@!P1 IADD3 R%d, R%d, 0x1, RZ ;\n", x, x); break;
			}
		}
		switch (rnd(&seed) % 6) {
		case 0: EMIT("@P0 BRA `(.L_%d) ;\n", (int)(rnd(&seed) % nblk)); break;
		case 1: EMIT("BRA `(.L_%d) ;\n", (int)(rnd(&seed) % nblk)); break;
		case 2: EMIT("@P1 EXIT ;\n"); break;
		case 3: if (b > nblk / 2) EMIT("EXIT ;\n"); break;
		default: break;
		}
	}
	EMIT("EXIT ;\n");
#undef EMIT
	return t;
}

/* walk one random path of at most n blocks, checking every operand and phi */
static void
run_path(Fn *f, uint32_t seed, int n)
{
	uint32_t cur[NumArchUnit] = {0};
	Blk *b = f->rpo[0], *from = NULL;

	for (int step = 0; b && step < n; step++) {
		for (Phi *p = b->phi; p; p = p->link) {
			int u = reg_unit(p->reg);
			uint32_t j = 0, a;
			while (j < b->npred && b->pred[j] != from)
				j++;
			ck_assert_uint_lt(j, b->npred);
			a = p->arg[j];
			if (cur[u])
				ck_assert_uint_eq(a, cur[u]);
			else
				ck_assert_msg(!f->val[a].def && !f->val[a].phi, "phi arg not the entry value");
		}
		for (Phi *p = b->phi; p; p = p->link)
			cur[reg_unit(p->reg)] = p->to;
		for (uint32_t k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind == SDef)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					uint32_t v = sl->v[m];
					ck_assert_uint_ne(v, 0);
					if (cur[u])
						ck_assert_msg(v == cur[u], "ins %u reads value %u, path holds %u",
						              (unsigned)(i - f->ins), v, cur[u]);
					else
						ck_assert_msg(!f->val[v].def && !f->val[v].phi,
						              "ins %u: not the value on entry", (unsigned)(i - f->ins));
				}
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind == SDef)
					for (unsigned m = 0; m < sl->n; m++)
						cur[reg_unit(reg_next(sl->reg, m))] = sl->v[m];
			}
		}
		from = b;
		b = b->nsucc ? b->succ[rnd(&seed) % b->nsucc] : NULL;
	}
}

START_TEST(test_ssa_random_programs)
{
	char *text = random_program(1000u + (uint32_t)_i, 4 + _i % 12);
	Irt *t = lift(text);
	Fn *f = irt_fn(t);
	char before[16384], after[16384];

	for (uint32_t p = 0; p < 20; p++)
		run_path(f, (uint32_t)_i * 77u + p, 60);
	before[0] = 0;
	for (uint32_t b = 0; b < f->nblk; b++)
		phis(f, b, before + strlen(before));
	ck_assert_int_eq(pass_dce_phi(f, irt_diag(t)), 0);
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), 0);
	/* rebuilding gives the same phis and numbering */
	ck_assert_int_eq(ssa_build(f, irt_diag(t)), 0);
	after[0] = 0;
	for (uint32_t b = 0; b < f->nblk; b++)
		phis(f, b, after + strlen(after));
	ck_assert_str_eq(before, after);
	irt_free(t);
	free(text);
}
END_TEST

Suite *
ssa_suite(void)
{
	Suite *s = suite_create("ssa");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_ssa_diamond);
	tcase_add_test(tc, test_ssa_out_phi_copy);
	tcase_add_test(tc, test_ssa_out_swap_scratch);
	tcase_add_test(tc, test_ssa_out_swap_no_scratch);
	tcase_add_test(tc, test_ssa_out_operand_copy);
	tcase_add_test(tc, test_ssa_out_no_copy_class);
	tcase_add_test(tc, test_ssa_loop);
	tcase_add_test(tc, test_ssa_nested_loops);
	tcase_add_test(tc, test_ssa_predicated);
	tcase_add_test(tc, test_ssa_multireg);
	tcase_add_test(tc, test_ssa_bssy);
	tcase_add_test(tc, test_ssa_unreachable_and_subroutine);
	tcase_add_test(tc, test_ssa_unreachable_pred);
	tcase_add_test(tc, test_ssa_uses);
	tcase_add_test(tc, test_ssa_out_and_again);
	tcase_add_test(tc, test_ssa_out_needs_copy);
	tcase_add_test(tc, test_ssa_out_stale_use);
	tcase_add_test(tc, test_ssa_dce_phi);
	tcase_add_test(tc, test_ssa_phi_count_unrolled);
	tcase_add_test(tc, test_ssa_liveness);
	tcase_add_test(tc, test_ssa_liveness_call);
	tcase_add_loop_test(tc, test_ssa_random_programs, 0, 200);
	suite_add_tcase(s, tc);
	return s;
}
