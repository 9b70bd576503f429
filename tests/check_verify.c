/* check_verify.c: tests of ir/verify.c. Each case lifts a small function to SSA, breaks one
 * rule by hand, and expects -1 with the right "verifier: ..." message at the right line.
 */
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

static const char diamond[] =
	"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"   /* 0, line 3 */
	"@P0 BRA `(.L_1) ;\n"                   /* 1 */
	"MOV R2, R0 ;\n"                        /* 2, line 5 */
	"BRA `(.L_2) ;\n"                       /* 3 */
	".L_1:\n"
	"MOV R2, R1 ;\n"                        /* 4, line 8 */
	".L_2:\n"
	"STG.E [R4.64], R2 ;\n"                 /* 5, line 10 */
	"EXIT ;\n";                             /* 6 */

static Irt *
lift(const char *text)
{
	Irt *t = irt_new(text);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(ssa_build(irt_fn(t), irt_diag(t)), 0);
	ck_assert_msg(verify_fn(irt_fn(t), irt_diag(t)) == 0, "%s", irt_errors(t));
	return t;
}

/* the slot of kind k of instruction idx whose first register is reg */
static Slot *
slot(Fn *f, uint32_t idx, int k, const char *reg)
{
	Ins *i = &f->ins[idx];
	char r[16];

	for (unsigned j = 0; j < i->nslot; j++) {
		reg_name(i->slot[j].reg, r, sizeof r);
		if (i->slot[j].kind == k && strcmp(r, reg) == 0)
			return &i->slot[j];
	}
	ck_abort_msg("no such slot");
	return NULL;
}

#define FAILS(t, msg) do { \
	ck_assert_int_eq(verify_fn(irt_fn(t), irt_diag(t)), -1); \
	ck_assert_msg(strstr(irt_errors(t), msg) != NULL, "want '%s' in:\n%s", msg, irt_errors(t)); \
} while (0)

START_TEST(test_verify_ok)
{
	Irt *t = lift(diamond);

	ck_assert_str_eq(irt_errors(t), "");
	irt_free(t);
}
END_TEST

/* the store in bb3 reads R2<1>, defined in bb1, which does not dominate bb3 */
START_TEST(test_verify_dominance)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	slot(f, 5, SUse, "R2")->v[0] = slot(f, 2, SDef, "R2")->v[0];
	FAILS(t, "test.sass:10:1: error: verifier: an operand reads R2<1>, whose definition does "
	         "not dominate it");
	irt_free(t);
}
END_TEST

/* in one block, a use before its definition */
START_TEST(test_verify_use_before_def)
{
	Irt *t = lift("MOV R3, R2 ;\nMOV R2, 0x1 ;\nEXIT ;\n");
	Fn *f = irt_fn(t);

	slot(f, 0, SUse, "R2")->v[0] = slot(f, 1, SDef, "R2")->v[0];
	FAILS(t, "test.sass:3:1: error: verifier: an operand reads R2<1>, whose definition does "
	         "not dominate it");
	irt_free(t);
}
END_TEST

START_TEST(test_verify_phi_arity)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	f->blk[3]->phi->narg = 1;
	FAILS(t, "verifier: phi R2<3> has 1 arguments for 2 predecessors of bb3");
	irt_free(t);
}
END_TEST

/* a phi argument must be defined at the end of its predecessor */
START_TEST(test_verify_phi_arg_dominance)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);
	Phi *p = f->blk[3]->phi;
	uint32_t a = p->arg[0];

	p->arg[0] = p->arg[1];   /* R2<2> from bb2 on the edge from bb1 */
	p->arg[1] = a;
	FAILS(t, "verifier: a phi argument reads R2<2>, whose definition does not dominate it");
	irt_free(t);
}
END_TEST

START_TEST(test_verify_double_def)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	slot(f, 4, SDef, "R2")->v[0] = slot(f, 2, SDef, "R2")->v[0];
	FAILS(t, "verifier: R2<1> is defined more than once");
	irt_free(t);
}
END_TEST

START_TEST(test_verify_wrong_register)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	slot(f, 5, SUse, "R2")->v[0] = slot(f, 0, SUse, "R0")->v[0];   /* R0<0> for R2 */
	FAILS(t, "test.sass:10:1: error: verifier: an operand of R2 is R0<0>, a value of another "
	         "register");
	irt_free(t);
}
END_TEST

/* the slot layout must be the opcode table's */
START_TEST(test_verify_slot_layout)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	slot(f, 5, SUse, "R4")->n = 1;   /* [R4.64] covers two registers */
	FAILS(t, "test.sass:10:1: error: verifier: slot ");
	irt_free(t);
}
END_TEST

START_TEST(test_verify_cfg_asymmetric)
{
	Irt *t = irt_new(diamond);
	Fn *f = irt_fn(t);

	ck_assert_int_eq(irt_cfg(t), 0);
	f->blk[3]->npred = 1;   /* forget bb2 */
	FAILS(t, "verifier: bb2 -> bb3: 1 succ edges but 0 pred edges");
	irt_free(t);
}
END_TEST

/* a control instruction in the middle of a block */
START_TEST(test_verify_terminator)
{
	Irt *t = irt_new(diamond);
	Fn *f = irt_fn(t);

	ck_assert_int_eq(irt_cfg(t), 0);
	f->ins[5].name = mintern(f->mod, "EXIT");
	f->ins[5].op = (uint16_t)op_lookup("EXIT", 4);
	FAILS(t, "test.sass:10:1: error: verifier: control instruction in the middle of bb3");
	irt_free(t);
}
END_TEST

/* a value whose definition was deleted is still read */
START_TEST(test_verify_deleted)
{
	Irt *t = lift(diamond);
	Fn *f = irt_fn(t);

	f->val[f->blk[3]->phi->to].blk = NULL;
	f->blk[3]->phi = NULL;
	FAILS(t, "verifier: an operand reads R2<3>, which was deleted");
	irt_free(t);
}
END_TEST

/* CFG only (no SSA): a function with every control form verifies */
START_TEST(test_verify_cfg_only)
{
	Irt *t = irt_new(
		"BSSY B0, `(.L_x_1) ;\n"
		"@P0 BRA `(.L_x_0) ;\n"
		"CALL.REL.NOINC `(sub) ;\n"
		".L_x_0:\n"
		"BSYNC B0 ;\n"
		".L_x_1:\n"
		"@P1 EXIT ;\n"
		"EXIT ;\n"
		"sub:\n"
		"RET.REL.NODEC R2 `(kern) ;\n"
		".L_x_9:\n"
		"BRA `(.L_x_9);\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(verify_fn(irt_fn(t), irt_diag(t)), 0);
	ck_assert_int_eq(ssa_build(irt_fn(t), irt_diag(t)), 0);
	ck_assert_int_eq(verify_fn(irt_fn(t), irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

Suite *
verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_verify_ok);
	tcase_add_test(tc, test_verify_dominance);
	tcase_add_test(tc, test_verify_use_before_def);
	tcase_add_test(tc, test_verify_phi_arity);
	tcase_add_test(tc, test_verify_phi_arg_dominance);
	tcase_add_test(tc, test_verify_double_def);
	tcase_add_test(tc, test_verify_wrong_register);
	tcase_add_test(tc, test_verify_slot_layout);
	tcase_add_test(tc, test_verify_cfg_asymmetric);
	tcase_add_test(tc, test_verify_terminator);
	tcase_add_test(tc, test_verify_deleted);
	tcase_add_test(tc, test_verify_cfg_only);
	suite_add_tcase(s, tc);
	return s;
}
