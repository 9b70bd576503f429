/* check_pass.c: the pass manager (ir/pass.c): it builds the CFG and SSA form a pass needs (SSA
 * through PassOpts.make_ssa, as driver/passlist.c gives it), prints the IR before and after a
 * named pass or after every pass, verifies after each pass that changes the IR (catching a pass
 * that breaks it), lays out again a function a pass edited, and times each pass.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "passes.h"

typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);

static const char loop[] =
	"MOV R0, RZ ;\n"
	".L_0:\n"
	"IADD3 R0, R0, 0x1, RZ ;\n"
	"ISETP.NE.AND P0, PT, R0, 0x10, PT ;\n"
	"@P0 BRA `(.L_0) ;\n"
	"EXIT ;\n";

/* what the test passes saw */
static int saw_cfg, saw_ssa, saw_uses, runs;

static int
p_look(Fn *f, Diag *d)
{
	saw_cfg = f->blk != NULL;
	saw_ssa = f->in_ssa;
	saw_uses = 0;
	for (uint32_t v = 1; f->in_ssa && v < f->nval; v++)
		saw_uses += (int)f->val[v].nuse;
	runs++;
	return 0;
}

/* breaks the IR: a phi argument that is no value */
static int
p_break(Fn *f, Diag *d)
{
	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->phi) {
			f->blk[b]->phi->arg[0] = 0;
			return 0;
		}
	return 0;
}

/* an edit: a NOP at the start of the first block with instructions */
static int
p_nop(Fn *f, Diag *d)
{
	Ins nop;

	memset(&nop, 0, sizeof nop);
	nop.op = (uint16_t)op_lookup("NOP", 3);
	nop.name = mintern(f->mod, "NOP");
	nop.addr = -1;
	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->nins)
			return ins_insert(f, f->blk[b], 0, &nop) ? 0 : -1;
	return -1;
}

/* spins for about 2 ms */
static int
p_slow(Fn *f, Diag *d)
{
	double t0 = now_seconds();

	while (now_seconds() - t0 < 0.002)
		;
	return 0;
}

static int
p_fail(Fn *f, Diag *d)
{
	error_plain(d, "the pass says no");
	return -1;
}

static const Pass look_plain = {"look", "looks", 0, p_look};
static const Pass look_cfg = {"look-cfg", "looks", PNeedCfg, p_look};
static const Pass look_ssa = {"look-ssa", "looks", PNeedSsa, p_look};
static const Pass breaker = {"break", "breaks a phi", PNeedSsa | PChanges, p_break};
static const Pass breaker_quiet = {"break-quiet", "breaks, says it changed nothing", PNeedSsa,
                                   p_break};
static const Pass nop_pass = {"nop", "inserts a NOP", PNeedCfg | PChanges, p_nop};
static const Pass slow = {"slow", "takes time", 0, p_slow};
static const Pass failing = {"fail", "fails", 0, p_fail};

static PassOpts
opts(FILE *dump)
{
	PassOpts o;

	memset(&o, 0, sizeof o);
	o.dump = dump;
	o.make_ssa = pass_ssa;
	return o;
}

START_TEST(prepare_builds_what_is_needed)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l1[] = {&look_plain}, *l2[] = {&look_cfg}, *l3[] = {&look_ssa};

	ck_assert_int_eq(pass_run(irt_fn(t), l1, 1, &o, irt_diag(t)), 0);
	ck_assert_int_eq(saw_cfg, 0);
	ck_assert_int_eq(pass_run(irt_fn(t), l2, 1, &o, irt_diag(t)), 0);
	ck_assert_int_eq(saw_cfg, 1);
	ck_assert_int_eq(saw_ssa, 0);
	ck_assert_int_eq(pass_run(irt_fn(t), l3, 1, &o, irt_diag(t)), 0);
	ck_assert_int_eq(saw_ssa, 1);
	ck_assert_int_gt(saw_uses, 0);
	irt_free(t);
}
END_TEST

/* the pass manager knows no pass: without make_ssa, a pass that needs SSA is refused */
START_TEST(prepare_without_ssa_builder)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l[] = {&look_ssa};

	o.make_ssa = NULL;
	runs = 0;
	ck_assert_int_eq(pass_run(irt_fn(t), l, 1, &o, irt_diag(t)), -1);
	ck_assert_int_eq(runs, 0);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "PassOpts.make_ssa"));
	irt_free(t);
}
END_TEST

START_TEST(print_before_and_after)
{
	Irt *t = irt_new(loop);
	char *buf = NULL;
	size_t n = 0;
	FILE *dump = open_memstream(&buf, &n);
	PassOpts o = opts(dump);
	const Pass *l[] = {&look_cfg, &look_ssa};

	o.print_before = "look-ssa";
	o.print_after = "look-cfg";
	ck_assert_int_eq(pass_run(irt_fn(t), l, 2, &o, irt_diag(t)), 0);
	fclose(dump);
	char *a = strstr(buf, "// *** IR Dump After look-cfg (kern) ***");
	char *b = strstr(buf, "// *** IR Dump Before look-ssa (kern) ***");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert(a < b);
	ck_assert_ptr_null(strstr(buf, "After look-ssa"));
	/* the dump before look-ssa shows the SSA form the manager built for it */
	ck_assert_ptr_nonnull(strstr(b, "phi("));
	*b = 0;
	ck_assert_ptr_null(strstr(a, "phi("));
	free(buf);
	irt_free(t);
}
END_TEST

START_TEST(print_after_all)
{
	Irt *t = irt_new(loop);
	char *buf = NULL;
	size_t n = 0;
	FILE *dump = open_memstream(&buf, &n);
	PassOpts o = opts(dump);
	const Pass *l[] = {&look_plain, &look_cfg, &slow};

	o.print_all = 1;
	ck_assert_int_eq(pass_run(irt_fn(t), l, 3, &o, irt_diag(t)), 0);
	fclose(dump);
	ck_assert_ptr_nonnull(strstr(buf, "After look (kern)"));
	ck_assert_ptr_nonnull(strstr(buf, "After look-cfg (kern)"));
	ck_assert_ptr_nonnull(strstr(buf, "After slow (kern)"));
	ck_assert_ptr_null(strstr(buf, "Before"));
	free(buf);
	irt_free(t);
}
END_TEST

START_TEST(verify_each_catches_a_bad_pass)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l[] = {&breaker, &look_plain};

	o.verify_each = 1;
	runs = 0;
	ck_assert_int_eq(pass_run(irt_fn(t), l, 2, &o, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "IR is malformed after pass 'break'"));
	ck_assert_int_eq(runs, 0);   /* the list stops there */
	irt_free(t);
}
END_TEST

/* without --verify-each, or for a pass that declares no change, nothing is checked */
START_TEST(verify_each_off)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l1[] = {&breaker}, *l2[] = {&breaker_quiet};

	ck_assert_int_eq(pass_run(irt_fn(t), l1, 1, &o, irt_diag(t)), 0);
	irt_free(t);
	t = irt_new(loop);
	o.verify_each = 1;
	ck_assert_int_eq(pass_run(irt_fn(t), l2, 1, &o, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

/* a pass that edits: the manager lays Fn.ins out again, so the verifier sees one array */
START_TEST(edit_then_relayout)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l[] = {&nop_pass};
	Fn *f = irt_fn(t);
	uint32_t n = f->nins;

	o.verify_each = 1;
	ck_assert_msg(pass_run(f, l, 1, &o, irt_diag(t)) == 0, "%s", irt_errors(t));
	ck_assert_uint_eq(f->nins, n + 1);
	ck_assert_int_eq(f->ins[0].op, ONOP);
	ck_assert_ptr_eq(f->blk[0]->nins ? f->blk[0]->ins : f->blk[1]->ins, f->ins);
	irt_free(t);
}
END_TEST

START_TEST(timing_array)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l[] = {&look_plain, &slow};
	double time[2] = {0, 0};

	o.time = time;
	ck_assert_int_eq(pass_run(irt_fn(t), l, 2, &o, irt_diag(t)), 0);
	ck_assert(time[0] >= 0 && time[0] < 0.002);
	ck_assert(time[1] >= 0.002);
	/* accumulated over runs */
	double once = time[1];
	ck_assert_int_eq(pass_run(irt_fn(t), l, 2, &o, irt_diag(t)), 0);
	ck_assert(time[1] >= once + 0.002);
	irt_free(t);
}
END_TEST

START_TEST(failing_pass_stops)
{
	Irt *t = irt_new(loop);
	PassOpts o = opts(NULL);
	const Pass *l[] = {&failing, &look_plain};

	runs = 0;
	ck_assert_int_eq(pass_run(irt_fn(t), l, 2, &o, irt_diag(t)), -1);
	ck_assert_int_eq(runs, 0);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "the pass says no"));
	irt_free(t);
}
END_TEST

Suite *
pass_suite(void)
{
	Suite *s = suite_create("pass");
	TCase *tc = tcase_create("manager");

	tcase_add_test(tc, prepare_builds_what_is_needed);
	tcase_add_test(tc, prepare_without_ssa_builder);
	tcase_add_test(tc, print_before_and_after);
	tcase_add_test(tc, print_after_all);
	tcase_add_test(tc, verify_each_catches_a_bad_pass);
	tcase_add_test(tc, verify_each_off);
	tcase_add_test(tc, edit_then_relayout);
	tcase_add_test(tc, timing_array);
	tcase_add_test(tc, failing_pass_stops);
	suite_add_tcase(s, tc);
	return s;
}
