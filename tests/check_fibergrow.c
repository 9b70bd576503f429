/* check_fibergrow.c: SM ownership on the FIBER SM when SETFIBERNUM grows the fiber count
 * (docs/fiber-sm.md, "SM ownership"; timing/fsm.c, sim/exec_fiber.c fnum_release): a kernel whose
 * run-time-count SETFIBERNUM never runs, or runs without growing, is admitted as a kernel
 * without SETFIBERNUM; one whose CTA grows past what the SM holds waits for the SM's other CTAs
 * to end, no CTA is admitted meanwhile, and the outputs are those of the functional driver
 * (one CTA at a time); an immediate count above the launch, or V sources beside SETFIBERNUM,
 * still own the SM; CTAs that all wait to grow are a named deadlock, never a hang.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "timing.h"
#include "fsrun.h"

typedef FsRun GRun;

static const char *gcfg = "a100-fiber";  /* grun's configuration */

/* kernel `kern` (dirs in its header) on gcfg with the edits set, grid CTAs of nthreads,
 * out = 512 words of 0xdeadbeef; timed, or functional when timed is 0 (fsrun.h) */
static int
grun(GRun *r, const char *dirs, const char *body, uint32_t grid, uint32_t nthreads,
     const char *const *set, int timed)
{
	return fs_run(r, gcfg, dirs, body, grid, nthreads, set, timed);
}

static void
gdone(GRun *r)
{
	fs_done(r);
}

/* the count in UR4: 0x200 for CTA 0 (UR7 the launch's 0x40 for the others), the SETFIBERNUM
 * line in between, then every fiber of CTA 0 stores fiber id + 0x1000 to out[id] (the others
 * leave: they store nothing); R120 makes the windows 121 registers (128 at the launch) */
#define GROW(count, setfibernum) \
	"        S2UR UR5, SR_CTAID.X ;\n" \
	"        UMOV UR6, " count " ;\n" \
	"        UMOV UR7, 0x40 ;\n" \
	"        UISETP.EQ.U32.AND UP0, UPT, UR5, URZ, UPT ;\n" \
	"        USEL UR4, UR6, UR7, UP0 ;\n" \
	"        MOV R120, RZ ;\n" \
	setfibernum \
	"        S2UR UR5, SR_CTAID.X ;\n" \
	"        ISETP.NE.U32.AND P0, PT, RZ, UR5, PT ;\n" \
	"    @P0 EXIT ;\n" \
	"        S2R R0, SR_FIBERID ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n" \
	"        IADD3 R6, R0, 0x1000, RZ ;\n" \
	"        STG.E [R2.64], R6 ;\n" \
	"        EXIT ;\n"

/* a SETFIBERNUM from a register that never runs (a uniform branch over it), one that runs
 * without growing, and a NOP in its place: the same CTAs per SM (more than one: before this
 * rule a kernel with SETFIBERNUM owned its SM), the same cycles for the branch and the NOP, the
 * same outputs; and the SIMT SM's CTAs per SM */
START_TEST(test_grow_unrun)
{
	static const char *const one[] = {"sms=1", NULL};
	const char *skip = "        BRA `(.L_over) ;\n        SETFIBERNUM UR4 ;\n.L_over:\n";
	const char *same = "        SETFIBERNUM UR7 ;\n";
	const char *nop = "        BRA `(.L_over) ;\n        NOP ;\n.L_over:\n";
	char kb[2048], ks[2048], kn[2048];
	GRun b, s, n;

	snprintf(kb, sizeof kb, GROW("0x200", "%s"), skip);
	snprintf(ks, sizeof ks, GROW("0x200", "%s"), same);
	snprintf(kn, sizeof kn, GROW("0x200", "%s"), nop);
	ck_assert_msg(grun(&b, "\t.maxfibers\t512\n", kb, 8, 64, one, 1) == 0, "%s", b.f.msg);
	ck_assert_msg(grun(&s, "\t.maxfibers\t512\n", ks, 8, 64, one, 1) == 0, "%s", s.f.msg);
	ck_assert_msg(grun(&n, "\t.maxfibers\t512\n", kn, 8, 64, one, 1) == 0, "%s", n.f.msg);
	ck_assert_uint_eq(n.st.ctas_per_sm, 4);         /* 512 / 128-register windows */
	ck_assert_str_eq(n.st.occupancy_limit, "registers");
	ck_assert_uint_eq(b.st.ctas_per_sm, n.st.ctas_per_sm);
	ck_assert_str_eq(b.st.occupancy_limit, n.st.occupancy_limit);
	ck_assert_uint_eq(s.st.ctas_per_sm, n.st.ctas_per_sm);
	ck_assert_uint_eq(b.st.cycles, n.st.cycles);
	ck_assert_uint_eq(b.st.fiber_setfibernum, 0);
	ck_assert_uint_eq(s.st.fiber_setfibernum, 8);   /* it ran, once per CTA, and grew none */
	for (uint32_t t = 0; t < 512; t++) {
		uint32_t want = t < 64 ? 0x1000 + t : 0xdeadbeef;
		ck_assert_uint_eq(b.val[t], want);
		ck_assert_uint_eq(s.val[t], want);
		ck_assert_uint_eq(n.val[t], want);
	}
	gdone(&b);
	gdone(&s);
	gdone(&n);
	/* with 128 threads (a weft in each slice, as SIMT spreads its warps) the skipped
	 * SETFIBERNUM gets the SIMT SM's occupancy for the same kernel without it (a100) */
	ck_assert_msg(grun(&b, "\t.maxfibers\t512\n", kb, 8, 128, one, 1) == 0, "%s", b.f.msg);
	gcfg = "a100";              /* the NOP kernel with SR_TID.X (= the fiber id here) */
	memcpy(strstr(kn, "SR_FIBERID"), "SR_TID.X  ", 10);
	ck_assert_msg(grun(&n, "", kn, 8, 128, one, 1) == 0, "%s", n.f.msg);
	gcfg = "a100-fiber";
	ck_assert_uint_eq(n.st.ctas_per_sm, 4);         /* 65536 / (128 x 128) registers */
	ck_assert_uint_eq(b.st.ctas_per_sm, n.st.ctas_per_sm);
	ck_assert_int_eq(memcmp(b.val, n.val, sizeof b.val), 0);
	gdone(&b);
	gdone(&n);
}
END_TEST

/* CTA 0 grows to 512 fibers (16 wefts, 4 windows of 121 registers in each slice: 484 of 512)
 * while three other CTAs hold a window in slices 0 and 1: it waits until they have ended, the
 * two CTAs left are not admitted meanwhile, and it grows alone; the outputs are the functional
 * driver's */
START_TEST(test_grow_after_drain)
{
	/* epochs of 4 cycles: the wait spans epoch ends, where a CTA whose wefts all wait is
	 * not a deadlock while another CTA of the SM runs */
	static const char *const one[] = {"sms=1", "epoch=4", NULL};
	char k[2048];
	GRun t, f;
	uint32_t peak = 0, at = 0, full = UINT32_MAX;

	snprintf(k, sizeof k, GROW("0x200", "%s"), "        SETFIBERNUM UR4 ;\n");
	ck_assert_msg(grun(&t, "\t.maxfibers\t512\n", k, 6, 64, one, 1) == 0, "%s", t.f.msg);
	ck_assert_msg(grun(&f, "\t.maxfibers\t512\n", k, 6, 64, one, 0) == 0, "%s", f.f.msg);
	ck_assert_int_eq(memcmp(t.val, f.val, sizeof t.val), 0);
	for (uint32_t i = 0; i < 512; i++)
		ck_assert_uint_eq(t.val[i], 0x1000 + i);
	ck_assert_uint_eq(t.st.ctas_per_sm, 4);
	ck_assert_uint_eq(t.st.fiber_setfibernum, 6);
	for (uint32_t i = 0; i < t.st.nfiber_tl; i++) {
		uint32_t fib = t.st.fiber_tl[i].fibers;
		if (fib == 4 * 64 && full == UINT32_MAX)
			full = i;                          /* the four first CTAs resident */
		if (fib > peak) {
			peak = fib;
			at = i;
		}
	}
	ck_assert_uint_eq(peak, 512);                  /* CTA 0 grown, and no other CTA */
	ck_assert_uint_ne(full, UINT32_MAX);
	ck_assert_uint_lt(full, at);
	/* from the four CTAs to the grow: only CTAs leaving (none admitted); the grow comes when
	 * the last other CTA leaves (the same cycle: CTA 0 and that one before it) */
	for (uint32_t i = full + 1; i < at; i++)
		ck_assert_uint_le(t.st.fiber_tl[i].fibers, t.st.fiber_tl[i - 1].fibers);
	ck_assert_uint_le(t.st.fiber_tl[at - 1].fibers, 2 * 64);
	/* CTAs 4 and 5 only after CTA 0 ended: the fibers drop below 512 to at most 2 x 64 */
	for (uint32_t i = at + 1; i < t.st.nfiber_tl; i++)
		ck_assert_uint_le(t.st.fiber_tl[i].fibers, 2 * 64);
	gdone(&t);
	gdone(&f);
}
END_TEST

/* an immediate count above the launch's threads is a grow known before the launch, and a V
 * source names a register by its place in the SM's file (one CTA's placement): with
 * SETFIBERNUM, either kernel owns its SM (one CTA, limit "fiber"), as before; the same V source
 * without SETFIBERNUM does not */
START_TEST(test_grow_owns)
{
	static const char *const one[] = {"sms=1", NULL};
	const char *v = "        IADD3 R9, V1, 0x1, RZ ;\n";
	char k[2048], kv[2048], kn[2048], sv[256];
	GRun t, u, n;

	snprintf(k, sizeof k, GROW("0x200", "%s"), "        SETFIBERNUM 0x80 ;\n");
	snprintf(sv, sizeof sv, "%s        SETFIBERNUM UR7 ;\n", v);
	snprintf(kv, sizeof kv, GROW("0x200", "%s"), sv);
	snprintf(kn, sizeof kn, GROW("0x200", "%s"), v);
	ck_assert_msg(grun(&t, "\t.maxfibers\t512\n", k, 2, 64, one, 1) == 0, "%s", t.f.msg);
	ck_assert_msg(grun(&u, "\t.maxfibers\t512\n", kv, 2, 64, one, 1) == 0, "%s", u.f.msg);
	ck_assert_msg(grun(&n, "\t.maxfibers\t512\n", kn, 2, 64, one, 1) == 0, "%s", n.f.msg);
	ck_assert_uint_eq(t.st.ctas_per_sm, 1);
	ck_assert_str_eq(t.st.occupancy_limit, "fiber");
	ck_assert_uint_eq(u.st.ctas_per_sm, 1);
	ck_assert_str_eq(u.st.occupancy_limit, "fiber");
	ck_assert_uint_eq(n.st.ctas_per_sm, 4);
	for (uint32_t i = 0; i < 128; i++)
		ck_assert_uint_eq(t.val[i], 0x1000 + i);
	for (uint32_t i = 0; i < 64; i++) {
		ck_assert_uint_eq(u.val[i], 0x1000 + i);
		ck_assert_uint_eq(n.val[i], 0x1000 + i);
	}
	gdone(&t);
	gdone(&u);
	gdone(&n);
}
END_TEST

/* every CTA grows to 512 fibers: the four resident CTAs all wait for one another, a named
 * deadlock (the fault names the grow), not a hang; functionally (a CTA at a time) it runs */
START_TEST(test_grow_deadlock)
{
	static const char *const one[] = {"sms=1", NULL};
	char k[2048];
	GRun t, f;

	snprintf(k, sizeof k, GROW("0x200", "%s"),
	         "        SETFIBERNUM UR6 ;\n");
	ck_assert_int_ne(grun(&t, "\t.maxfibers\t512\n", k, 4, 64, one, 1), 0);
	ck_assert_msg(strstr(t.f.msg, "the CTA waits to grow to 512 fibers") != NULL, "%s", t.f.msg);
	ck_assert_int_eq(t.f.kind, FaultDeadlock);
	ck_assert_msg(grun(&f, "\t.maxfibers\t512\n", k, 4, 64, one, 0) == 0, "%s", f.f.msg);
	gdone(&t);
	gdone(&f);
}
END_TEST

Suite *
fibergrow_suite(void)
{
	Suite *s = suite_create("fibergrow");
	TCase *tc = tcase_create("fibergrow");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_grow_unrun);
	tcase_add_test(tc, test_grow_after_drain);
	tcase_add_test(tc, test_grow_owns);
	tcase_add_test(tc, test_grow_deadlock);
	suite_add_tcase(s, tc);
	return s;
}
