/* check_pressure.c: register pressure (passes/pressure.c) and liveness across internal calls
 * (passes/liveness.c): FPlan filled by the liveness pass, nested subroutine summaries worked by
 * hand, writes that nothing reads, loops as regions, the CSV, the listing's FIBER header line,
 * and the SVG writer (backend/pressuresvg.c).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "passes.h"
#include "backend.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
int irt_cfg(Irt *t);

/* kern calls sub1, which calls sub2. sub2 reads R2 and writes R3 on every path; sub1 reads
 * sub2's R3 and writes R4; both return through R20:R21 (live from the entry, never written).
 * Summaries: sub2 G = {R2 R20 R21}, P = all but R3; sub1 G = {R2 R20 R21}, P = all but R3, R4.
 * Before kern's CALL: G1 | ({R1 R4} & P1) = R1 R2 R20 R21. */
static const char nested[] =
	"MOV R1, 0x1 ;\n"                  /* 0  bb0 */
	"MOV R2, 0x2 ;\n"                  /* 1 */
	"CALL.REL.NOINC `(sub1) ;\n"       /* 2 */
	"IADD3 R5, R1, R4, RZ ;\n"         /* 3  bb1 */
	"STS [RZ], R5 ;\n"                 /* 4 */
	"EXIT ;\n"                         /* 5 */
	"sub1:\n"
	"CALL.REL.NOINC `(sub2) ;\n"       /* 6  bb2 */
	"IADD3 R4, R3, 0x1, RZ ;\n"        /* 7  bb3 */
	"RET.REL.NODEC R20 `(kern) ;\n"    /* 8 */
	"sub2:\n"
	"IADD3 R3, R2, 0x1, RZ ;\n"        /* 9  bb4 */
	"RET.REL.NODEC R20 `(kern) ;\n";   /* 10 */

START_TEST(test_pressure_plan_nested_calls)
{
	static const int want[] = {2, 3, 4, 2, 1, 0, 4, 4, 4, 4, 4};
	Irt *t = irt_new(nested);
	Fn *f = irt_fn(t);
	Live *l;

	ck_assert_int_eq(irt_cfg(t), 0);
	fplan_new(f, FModeCuda);
	ck_assert_int_eq(pass_liveness(f, irt_diag(t)), 0);
	ck_assert_uint_eq(f->plan->npressure, sizeof want / sizeof want[0]);
	for (uint32_t k = 0; k < f->plan->npressure; k++)
		ck_assert_msg(f->plan->pressure[k] == want[k], "instruction %u: %d live, want %d", k,
		              f->plan->pressure[k], want[k]);
	ck_assert_int_eq(f->plan->maxlive, 4);
	l = live_build(f, NumArchUnit);
	ck_assert(!live_has(l, l->out, 3));                 /* sub1 writes R3 (through sub2) */
	ck_assert(!live_has(l, l->out, 4));                 /* and R4: results, not live across */
	ck_assert(live_has(l, l->out, 1));                  /* R1 lives across the call */
	ck_assert(live_has(l, l->in + 2 * l->nword, 1));    /* and through sub1 */
	ck_assert(live_has(l, l->in + 4 * l->nword, 1));    /* and sub2, called from sub1 */
	ck_assert(!live_has(l, l->in + 4 * l->nword, 4));   /* R4 is written after sub2 returns */
	ck_assert_int_eq(l->maxr, 4);
	live_free(l);
	irt_free(t);
}
END_TEST

/* outside FIBER modes the pass computes the same figures and leaves f->plan alone */
START_TEST(test_pressure_no_plan)
{
	Irt *t = irt_new(nested);
	Fn *f = irt_fn(t);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(pass_liveness(f, irt_diag(t)), 0);
	ck_assert_ptr_null(f->plan);
	ck_assert_int_eq(live_max_regs(f), 4);
	irt_free(t);
}
END_TEST

/* IMAD.WIDE writes R4 and R5, which nothing reads: at that instruction R1 and both occupy a
 * register (maxlive 3) although at most 2 are live before any instruction */
START_TEST(test_pressure_dead_writes)
{
	Irt *t = irt_new(
		"MOV R1, 0x1 ;\n"
		"MOV R2, 0x2 ;\n"
		"IMAD.WIDE R4, R1, R2, RZ ;\n"
		"STS [RZ], R1 ;\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);
	Live *l;
	Pressure *p;

	ck_assert_int_eq(irt_cfg(t), 0);
	l = live_sets(f, NumArchUnit);
	ck_assert_int_eq(l->maxr, -1);
	p = pressure_build(f, l);
	ck_assert_int_eq(p->max[PrR], 2);
	ck_assert_uint_eq(p->maxat, 2);
	ck_assert_int_eq(p->maxlive, 3);
	ck_assert_int_eq(p->live[3 * NPrCls + PrR], 1);
	pressure_free(p);
	live_free(l);
	irt_free(t);
}
END_TEST

static const char loop[] =
	"MOV R1, 0x1 ;\n"                  /* bb0 */
	"MOV R2, 0x0 ;\n"
	".L_x_0:\n"
	"IADD3 R2, R2, R1, RZ ;\n"         /* bb1: the loop */
	"ISETP.NE.AND P0, PT, R2, 0x10, PT ;\n"
	"@P0 BRA `(.L_x_0) ;\n"
	"STS [RZ], R2 ;\n"                 /* bb2 */
	"EXIT ;\n";

START_TEST(test_pressure_loops_and_classes)
{
	Irt *t = irt_new(loop);
	Fn *f = irt_fn(t);
	Live *l;
	Pressure *p;
	PLoop *lp;
	uint32_t n, h;

	ck_assert_int_eq(irt_cfg(t), 0);
	l = live_sets(f, NumArchUnit);
	p = pressure_build(f, l);
	n = pressure_loops(f, p, &lp);
	ck_assert_uint_eq(n, 1);
	h = p->blk[2];                                      /* the IADD3's block */
	ck_assert_uint_eq(lp[0].head, h);
	ck_assert_uint_eq(lp[0].nblk, 1);
	ck_assert_int_eq(lp[0].max, 2);
	ck_assert_int_eq(p->live[4 * NPrCls + PrP], 1);     /* P0 live before the BRA */
	ck_assert_int_eq(p->live[4 * NPrCls + PrR], 2);
	ck_assert_int_eq(p->max[PrP], 1);
	free(lp);
	pressure_free(p);
	live_free(l);
	irt_free(t);
}
END_TEST

static char *
capture_csv(Fn *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	Live *l = live_sets(f, NumArchUnit);
	Pressure *p = pressure_build(f, l);

	ck_assert_int_eq(pressure_csv(m, f, p, 1), 0);
	fclose(m);
	pressure_free(p);
	live_free(l);
	return buf;
}

START_TEST(test_pressure_csv_rows)
{
	Irt *t = irt_new(loop);
	char *s;
	int rows = 0;

	ck_assert_int_eq(irt_cfg(t), 0);
	s = capture_csv(irt_fn(t));
	ck_assert_ptr_nonnull(strstr(s, "\nindex,addr,block,opcode,r_live,p_live,ur_live,up_live\n"));
	ck_assert_ptr_nonnull(strstr(s, ",ISETP.NE.AND,2,0,0,0\n"));
	ck_assert_ptr_nonnull(strstr(s, ",BRA,2,1,0,0\n"));
	for (size_t k = 0; s[k]; k++)
		rows += s[k] == '\n' && s[k + 1] >= '0' && s[k + 1] <= '9';
	ck_assert_int_eq(rows, 7);
	free(s);
	irt_free(t);
}
END_TEST

/* the header's FIBER line: wefts from EIATTR_MAX_THREADS, times the window */
START_TEST(test_pressure_dump_cta)
{
	Irt *t = irt_new(loop);
	Fn *f = irt_fn(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	ck_assert_int_eq(irt_cfg(t), 0);
	f->info.max_threads[0] = 128;
	f->info.max_threads[1] = 1;
	m = open_memstream(&buf, &len);
	pressure_dump(m, f);
	fclose(m);
	ck_assert_msg(strstr(buf, "a CTA of 128 threads = 4 wefts needs 8 of the SM's 2048 vector "
	                     "registers (4 x 2)") != NULL, "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "(header; 1 blocks"));
	ck_assert_ptr_nonnull(strstr(buf, "IADD3 R2, R2, R1, RZ ;"));
	free(buf);
	irt_free(t);
}
END_TEST

START_TEST(test_pressure_svg_writer)
{
	static const int r[] = {0, 1, 3, 2, 0};
	static const uint32_t first[] = {0, 3};
	SvgPressure k = {"a<b>&c", 5, r, 4, 2, first};
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_int_eq(emit_pressure_svg(m, &k, 1), 0);
	fclose(m);
	ck_assert_ptr_nonnull(strstr(buf, "a&lt;b&gt;&amp;c: R registers live before each "
	                                  "instruction, max 3 (maxlive 4)"));
	ck_assert_ptr_nonnull(strstr(buf, "<polyline class=\"pressure\""));
	ck_assert_ptr_nonnull(strstr(buf, "class=\"block\""));
	ck_assert_ptr_null(strstr(buf, "a<b>"));
	ck_assert_str_eq(buf + len - 7, "</svg>\n");
	free(buf);
}
END_TEST

Suite *
pressure_suite(void)
{
	Suite *s = suite_create("pressure");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_pressure_plan_nested_calls);
	tcase_add_test(tc, test_pressure_no_plan);
	tcase_add_test(tc, test_pressure_dead_writes);
	tcase_add_test(tc, test_pressure_loops_and_classes);
	tcase_add_test(tc, test_pressure_csv_rows);
	tcase_add_test(tc, test_pressure_dump_cta);
	tcase_add_test(tc, test_pressure_svg_writer);
	suite_add_tcase(s, tc);
	return s;
}
