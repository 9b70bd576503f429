/* check_remotewr.c: the weftset analysis (passes/fiber/weftset.c), the remote-writes pass
 * (passes/fiber/remotewr.c) and the FIBER verifier's remote-write errors (ir/fverify.c), on small
 * kernels built from text (check_cfg.c's Irt). FileCheck tests of the same are
 * tests/ir/pass-remote-writes*.lst and tests/ir/pass-fverify.lst.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "passes.h"
#include "fpasses.h"

Suite *remotewr_suite(void);

typedef struct Irt Irt;       /* check_cfg.c */
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);
int irt_cfg(Irt *t);

/* weft 0 writes V530 (weft 1's R18 with 24-register windows), weft 1 reads R18 */
static const char fwd[] =
	"SETFIBERNUM 0x40 ;\n"
	"S2R R0, SR_FIBERID ;\n"
	"ISETP.GE.AND P0, PT, R0, 0x20, PT ;\n"
	"@P0 BRA `(.L_1) ;\n"
	"IADD3 V530, R0, 0x64, RZ ;\n"
	"EXIT ;\n"
	".L_1:\n"
	"IADD3 R4, R18, 0x1, RZ ;\n"
	"EXIT ;\n";

/* the weft index by SHF, @P EXIT, and a test on it */
static const char idx[] =
	"SETFIBERNUM 0x80 ;\n"
	"S2R R0, SR_FIBERID ;\n"
	"SHF.R.U32.HI R1, RZ, 0x5, R0 ;\n"
	"ISETP.GE.U32.AND P0, PT, R1, 0x3, PT ;\n"
	"@P0 EXIT ;\n"
	"ISETP.NE.AND P1, PT, R1, 0x1, PT ;\n"
	"@P1 BRA `(.L_1) ;\n"
	"NOP ;\n"
	".L_1:\n"
	"EXIT ;\n";

static Fn *
fiber_fn(Irt *t, int regs)
{
	Fn *f = irt_fn(t);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(pass_ssa(f, irt_diag(t)), 0);
	f->info.regcount = regs;
	fplan_new(f, FModeFiber);
	return f;
}

START_TEST(wset_formats)
{
	WSet s;
	char b[64];

	memset(&s, 0, sizeof s);
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "none");
	ck_assert_int_eq(wset_first(&s), -1);
	s.w[0] = 0x27;   /* 0 1 2 5 */
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "0-2,5");
	ck_assert_int_eq(wset_count(&s), 4);
	s.w[0] = 0x18;
	s.w[3] = 1ull << 63;
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "3,4,255");
	ck_assert_int_eq(wset_has(&s, 255), 1);
	ck_assert_int_eq(wset_has(&s, 256), 0);
	memset(&s, 0xff, sizeof s);
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "all");
}
END_TEST

START_TEST(weftset_branches_and_exits)
{
	Irt *t = irt_new(idx);
	Fn *f = fiber_fn(t, 16);
	Weftset *ws = weftset_build(f);
	char b[64];
	WSet s;
	Blk *nop = NULL, *tail = NULL;

	for (uint32_t k = 0; k < f->nblk; k++) {
		if (f->blk[k]->nins && f->blk[k]->ins[0].op == ONOP)
			nop = f->blk[k];
		if (f->blk[k]->nins && f->blk[k]->ins[0].label)
			tail = f->blk[k];
	}
	ck_assert_ptr_nonnull(nop);
	ck_assert_ptr_nonnull(tail);
	s = weftset_blk(ws, nop);
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "1");
	s = weftset_blk(ws, tail);   /* wefts 0..3 after SETFIBERNUM 0x80, weft 3 exited */
	wset_fmt(b, sizeof b, &s);
	ck_assert_str_eq(b, "0-2");
	s = weftset_blk(ws, f->blk[0]);
	ck_assert_int_eq(wset_count(&s), WsMaxWeft);
	weftset_free(ws);
	irt_free(t);
}
END_TEST

/* without SSA no condition narrows: after SETFIBERNUM 0x80 every block gets wefts 0..3 */
START_TEST(weftset_without_ssa)
{
	Irt *t = irt_new(idx);
	Fn *f = irt_fn(t);
	Weftset *ws;

	ck_assert_int_eq(irt_cfg(t), 0);
	ws = weftset_build(f);
	for (uint32_t k = 1; k < f->nblk; k++) {
		WSet s = weftset_blk(ws, f->blk[k]);
		if (f->blk[k]->nins && f->blk[k]->ins[0].op == ONOP)
			ck_assert_int_eq(wset_count(&s), 4);
	}
	weftset_free(ws);
	irt_free(t);
}
END_TEST

START_TEST(rewrite_counts)
{
	Irt *t = irt_new(fwd);
	Fn *f = fiber_fn(t, 24);

	ck_assert_int_eq(pass_remote_writes(f, irt_diag(t)), 0);
	ck_assert_int_eq(f->plan->remote_writes, 1);
	ck_assert_int_eq(f->plan->busy_syncs, 2);
	ck_assert_int_eq(f->plan->remote_reads, 3);   /* DEPBAR.FULL, the read, SETBUSYBIT */
	ck_assert_int_eq(f->plan->rw_done, 1);
	ck_assert_int_eq(f->plan->nrw_why, 0);
	ck_assert_ptr_nonnull(strstr(f->plan->report, "rewritten: IADD3 R1 (V1) in weft 0"));
	fn_relayout(f);
	ssa_uses(f);
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);
	ck_assert_int_eq(fverify_plan(f, irt_diag(t)), 0);
	ck_assert_int_eq(ssa_out(f, irt_diag(t)), 0);
	irt_free(t);
}
END_TEST

/* windows too small for R18: V530 is no window register of the placement; left and rejected */
START_TEST(left_and_rejected)
{
	Irt *t = irt_new(fwd);
	Fn *f = fiber_fn(t, 8);

	ck_assert_int_eq(verify_fn(f, irt_diag(t)), 0);   /* before the pass: legal input */
	ck_assert_int_eq(pass_remote_writes(f, irt_diag(t)), 0);
	ck_assert_int_eq(f->plan->remote_writes, 0);
	ck_assert_int_eq(f->plan->nrw_why, 1);
	ck_assert_int_eq(fverify_plan(f, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "error: remote write: 'V530'"));
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "remote-writes left it: "));
	irt_free(t);
}
END_TEST

/* outside FIBER modes the pass does nothing, and verify.c keeps rejecting V destinations */
START_TEST(no_plan)
{
	Irt *t = irt_new(fwd);
	Fn *f = irt_fn(t);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(pass_ssa(f, irt_diag(t)), 0);
	ck_assert_int_eq(pass_remote_writes(f, irt_diag(t)), 0);
	ck_assert_int_eq(fverify_plan(f, irt_diag(t)), 0);
	ck_assert_int_eq(verify_fn(f, irt_diag(t)), -1);
	ck_assert_int_eq(pass_fverify(f, irt_diag(t)), -1);
	ck_assert_ptr_nonnull(strstr(irt_errors(t), "remote write"));
	irt_free(t);
}
END_TEST

Suite *
remotewr_suite(void)
{
	Suite *s = suite_create("remotewr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, wset_formats);
	tcase_add_test(tc, weftset_branches_and_exits);
	tcase_add_test(tc, weftset_without_ssa);
	tcase_add_test(tc, rewrite_counts);
	tcase_add_test(tc, left_and_rejected);
	tcase_add_test(tc, no_plan);
	suite_add_tcase(s, tc);
	return s;
}
