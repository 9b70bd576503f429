/* check_simfiber.c: FIBER semantics in the functional simulator (sim/exec_fiber.c, sim/weft.c,
 * docs/sim.md "FIBER"): window placement in slices (base(w) = 512*(w%4) + (w/4)*nreg, checked
 * through V reads of other wefts' windows), pools at the top of their slice, SETFIBERNUM up and
 * down (new fibers' SR_FIBERID / SR_TID, survivors keep registers, SR_FIBERNUM), fiber_dp = 0,
 * a producer/consumer pair on empty/full bits, first-fit windows of new wefts, lanes regrown
 * after a shrink, the faults (divergent SETFIBERNUM, a count beyond the reserved fibers, counts
 * that differ, R operands past a new weft's window, a busy-bit deadlock's report with a weft at
 * BAR.SYNC, a pool written from another slice, FIBER code in SIMT mode), and a SIMT kernel giving
 * the same output with fiber = 1. Functional driver only:
 * the FIBER timing model is timing/'s.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "sim.h"
#include "timing.h"

typedef struct Run {
	Src *src;
	Module *m;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;
	SimModule *sm;
	const Prog *k;
	uint64_t out;
	uint32_t nout;
	SimFault f;
} Run;

static const char *
errors(Run *r)
{
	fflush(r->errf);
	return r->err ? r->err : "";
}

static uint32_t contexts = 0;     /* fiber_contexts of the next load (0: the default) */

/* a kernel `kern`: dirs (.maxfibers, .pool) in its section header, then body; fiber: the
 * configuration's mode, dp: fiber_dp */
static Run *
load(const char *dirs, const char *body, int fiber, int dp)
{
	Run *r = calloc(1, sizeof *r);
	char *buf = malloc(strlen(dirs) + strlen(body) + 128);
	SimConfig c;
	GpuConfig gc;
	size_t n;

	n = (size_t)sprintf(buf, "\t.section\t.text.kern,\"ax\",@progbits\n%skern:\n%s", dirs, body);
	r->src = src_new("test.fsass", buf, n);
	free(buf);
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", errors(r));
	simconfig_default(&c, 80);
	gc = simcfg_gpu(&c);
	gc.fiber = fiber;
	gc.fiber_dp = dp;
	gc.fiber_contexts = contexts;
	gc.occupancy = NULL;
	r->g = gpu_new(gc);
	r->sm = sim_module_load(r->g, r->m, &r->d);
	ck_assert_msg(r->sm != NULL, "the kernel does not load:\n%s", errors(r));
	r->k = sim_module_kernel(r->sm, "kern");
	ck_assert_ptr_nonnull(r->k);
	return r;
}

static void
done(Run *r)
{
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* one CTA of nthreads, out = nout words of 0xdeadbeef; the launch's return code */
static int
launch(Run *r, uint32_t nthreads, uint32_t nout)
{
	LaunchParams lp = { { 1, 1, 1 }, { nthreads, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	uint32_t *fill = malloc(nout * 4);
	SimStats st;

	ck_assert_int_eq(gpu_malloc(r->g, nout * 4, &r->out), 0);
	r->nout = nout;
	for (uint32_t k = 0; k < nout; k++)
		fill[k] = 0xdeadbeef;
	ck_assert_int_eq(gpu_write(r->g, r->out, fill, nout * 4), 0);
	free(fill);
	lp.params = &r->out;
	return sim_launch(r->g, r->sm, r->k, &lp, &st, &r->f);
}

static uint32_t
word(Run *r, uint32_t k)
{
	uint32_t v;

	ck_assert_int_eq(gpu_read(r->g, r->out + 4 * k, &v, 4), 0);
	return v;
}

/* s with its first from replaced by to (malloc'd) */
static char *
subst(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	char *o = malloc(strlen(s) + strlen(to) + 1);

	ck_assert_ptr_nonnull(p);
	memcpy(o, s, (size_t)(p - s));
	strcpy(o + (p - s), to);
	strcat(o, p + strlen(from));
	return o;
}

/* R0 = fiber ID, R2:R3 = &out[R0] */
#define PROLOGUE \
	"        S2R R0, SR_FIBERID ;\n" \
	"        MOV R4, c[0x0][0x160] ;\n" \
	"        MOV R5, c[0x0][0x164] ;\n" \
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"

/* 8 wefts of 7 registers: weft 5 is the second window of slice 1 (V519 = its R0), weft 6 the
 * second of slice 2 (V1031); a pool at the top of slice 0 leaves slice 0's windows alone and
 * starts Empty */
START_TEST(test_placement)
{
	Run *r = load("\t.pool\tkv, 16\n", PROLOGUE
	              "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	              "        DEPBAR.EMPTY kv[3], 0x4 ;\n"
	              "        IADD3 R6, V519, V1031, V7 ;\n"
	              "        STG.E [R2.64], R6 ;\n"
	              "        EXIT ;\n", 1, 1);
	int rc;

	ck_assert_int_eq(r->k->nreg, 7);
	rc = launch(r, 256, 256);
	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 256; t++) {
		uint32_t l = t % 32;
		/* V7 is weft 4's R0: the second window of slice 0 */
		ck_assert_msg(word(r, t) == (160 + l) + (192 + l) + (128 + l), "fiber %u: %u", t,
		              word(r, t));
	}
	done(r);
}
END_TEST

static const char updown[] = PROLOGUE
	"        IADD3 R8, R0, 0x1000, RZ ;\n"
	"        SETFIBERNUM 0x80 ;\n"
	"        S2R R0, SR_FIBERID ;\n"
	"        S2R R1, SR_FIBERNUM ;\n"
	"        S2R R7, SR_TID.Z ;\n"
	"        MOV R4, c[0x0][0x160] ;\n"
	"        MOV R5, c[0x0][0x164] ;\n"
	"        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	"        IADD3 R6, R8, R1, RZ ;\n"
	"        STG.E [R2.64], R6 ;\n"
	"        STG.E [R2.64+0x400], R7 ;\n"
	"        SETFIBERNUM 0x28 ;\n"
	"        S2R R1, SR_FIBERNUM ;\n"
	"        IADD3 R6, R0, R1, RZ ;\n"
	"        STG.E [R2.64+0x200], R6 ;\n"
	"        EXIT ;\n";

/* 64 fibers grow to 128 (the new ones compute from SR_FIBERID, their R8 is 0, their SR_TID.Y
 * is ID / 64: blockDim is 64 x 1 x 1) and shrink to 40 (only fibers 0..39 store the second value) */
START_TEST(test_setfibernum)
{
	Run *r = load("\t.maxfibers\t128\n", updown, 1, 1);
	int rc = launch(r, 64, 384);

	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 128; t++) {
		ck_assert_msg(word(r, t) == (t < 64 ? 0x1000 + t + 128 : 128), "fiber %u: 0x%x", t,
		              word(r, t));
		ck_assert_uint_eq(word(r, 256 + t), t / 64);
		ck_assert_msg(word(r, 128 + t) == (t < 40 ? t + 40 : 0xdeadbeef), "fiber %u second: "
		              "0x%x", t, word(r, 128 + t));
	}
	done(r);
}
END_TEST

/* the count from a UR, and a partial weft (40 threads: weft 1 holds 8) grows: fibers 40..63
 * are new lanes of a surviving weft (their R8 is 0) */
START_TEST(test_setfibernum_ur_partial)
{
	char *body = subst(updown, "        SETFIBERNUM 0x80 ;\n",
	                   "        UMOV UR4, 0x80 ;\n        SETFIBERNUM UR4 ;\n");
	Run *r;
	int rc;

	r = load("\t.maxfibers\t128\n", body, 1, 1);
	free(body);
	rc = launch(r, 40, 384);
	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 128; t++) {
		ck_assert_msg(word(r, t) == (t < 40 ? 0x1000 + t + 128 : 128), "fiber %u: 0x%x", t,
		              word(r, t));
		ck_assert_uint_eq(word(r, 256 + t), t / 40);
	}
	done(r);
}
END_TEST

/* fiber_dp = 0: SETFIBERNUM only synchronises; the count stays 64 */
START_TEST(test_dp0)
{
	Run *r = load("\t.maxfibers\t128\n", updown, 1, 0);
	int rc = launch(r, 64, 384);

	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 128; t++) {
		ck_assert_uint_eq(word(r, t), t < 64 ? 0x1000 + t + 64 : 0xdeadbeef);
		ck_assert_uint_eq(word(r, 128 + t), t < 64 ? t + 64 : 0xdeadbeef);
	}
	done(r);
}
END_TEST

/* weft 0 produces R10 three times (DEPBAR.EMPTY R10 before each write), weft 1 (slice 1) reads
 * it as V10 after DEPBAR.FULL V10 and releases it with SETBUSYBIT.EMPTY V10: it sums all three
 * values 3l + 0, 3l + 1, 3l + 2 (without the handshake it would see the last one thrice) */
START_TEST(test_producer_consumer)
{
	Run *r = load("", PROLOGUE
	              "        MOV R12, RZ ;\n"
	              "        MOV R14, RZ ;\n"
	              "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	              "    @P0 BRA `(.L_cons) ;\n"
	              ".L_prod:\n"
	              "        DEPBAR.EMPTY R10 ;\n"
	              "        IMAD R10, R0, 0x3, R12 ;\n"
	              "        IADD3 R12, R12, 0x1, RZ ;\n"
	              "        ISETP.LT.U32.AND P1, PT, R12, 0x3, PT ;\n"
	              "    @P1 BRA `(.L_prod) ;\n"
	              "        EXIT ;\n"
	              ".L_cons:\n"
	              "        DEPBAR.FULL V10 ;\n"
	              "        IADD3 R14, R14, V10, RZ ;\n"
	              "        SETBUSYBIT.EMPTY V10 ;\n"
	              "        IADD3 R12, R12, 0x1, RZ ;\n"
	              "        ISETP.LT.U32.AND P1, PT, R12, 0x3, PT ;\n"
	              "    @P1 BRA `(.L_cons) ;\n"
	              "        STG.E [R2.64], R14 ;\n"
	              "        EXIT ;\n", 1, 1);
	int rc = launch(r, 64, 64);

	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t l = 0; l < 32; l++) {
		ck_assert_uint_eq(word(r, l), 0xdeadbeef);
		ck_assert_msg(word(r, 32 + l) == 9 * l + 3, "lane %u: %u", l, word(r, 32 + l));
	}
	done(r);
}
END_TEST

/* run body with 64 threads, expecting fault kind with text in its message */
static void
faults(const char *dirs, const char *body, int fiber, int kind, const char *text)
{
	Run *r = load(dirs, body, fiber, 1);
	int rc = launch(r, 64, 64);

	ck_assert_int_ne(rc, 0);
	ck_assert_msg(r->f.kind == kind, "kind %d, want %d: %s", r->f.kind, kind, r->f.msg);
	ck_assert_msg(strstr(r->f.msg, text), "'%s' not in: %s", text, r->f.msg);
	done(r);
}

START_TEST(test_fault_divergent)
{
	faults("\t.maxfibers\t128\n", PROLOGUE
	       "        ISETP.LT.U32.AND P0, PT, R0, 0x10, PT ;\n"
	       "    @P0 BRA `(.L_x) ;\n"
	       "        SETFIBERNUM 0x80 ;\n"
	       ".L_x:\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "SETFIBERNUM in divergent code: weft 0 lanes 0xffff0000 of 0xffffffff at PC 0x0060");
}
END_TEST

START_TEST(test_fault_count)
{
	faults("", PROLOGUE "        SETFIBERNUM 0x80 ;\n        EXIT ;\n", 1, FaultFiber,
	       "SETFIBERNUM 128: count beyond the 64 fibers reserved");
	/* a count of 0 from a UR is named when the weft arrives (it was "counts differ ...
	 * 4294967295" when the next weft came) */
	faults("", PROLOGUE "        UMOV UR4, 0x0 ;\n        SETFIBERNUM UR4 ;\n        EXIT ;\n", 1,
	       FaultFiber, "SETFIBERNUM 0 (weft 0 at PC 0x0050, from a UR): the count must be at least 1");
}
END_TEST

/* slice 2 holds a pool of 500 registers: new weft 2's window of 20 does not fit */
START_TEST(test_fault_window)
{
	faults("\t.maxfibers\t128\n\t.pool\tbig, 500, 2\n", PROLOGUE
	       "        SETFIBERNUM 0x80, 0x14 ;\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "SETFIBERNUM 128: weft 2's window of 20 registers does not fit: slice 2 (V1024..V1535) "
	       "has no 20 free registers (12 free, largest run 12)");
}
END_TEST

/* .maxfibers 512: 16 wefts, 4 per sub-partition, over fiber_contexts = 2 */
START_TEST(test_fault_contexts)
{
	contexts = 2;
	faults("\t.maxfibers\t512\n", PROLOGUE "        EXIT ;\n", 1, FaultLimit,
	       "16 wefts (.maxfibers or the threads, / 32) exceed the 2 weft contexts of a "
	       "sub-partition (fiber_contexts)");
	contexts = 0;
}
END_TEST

START_TEST(test_fault_counts_differ)
{
	faults("\t.maxfibers\t128\n", PROLOGUE
	       "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	       "    @P0 BRA `(.L_x) ;\n"
	       "        SETFIBERNUM 0x40 ;\n"
	       "        EXIT ;\n"
	       ".L_x:\n"
	       "        SETFIBERNUM 0x60 ;\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "SETFIBERNUM counts differ: weft 1 names 96, weft 0 named 64");
}
END_TEST

START_TEST(test_fault_deadlock)
{
	faults("", PROLOGUE
	       "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	       "    @P0 EXIT ;\n"
	       "        DEPBAR.FULL V1000 ;\n"
	       "        EXIT ;\n", 1, FaultDeadlock,
	       "weft 0 of CTA 0 at 0x0060 DEPBAR.FULL V1000 (V1000 empty); weft 1 of CTA 0 exited");
}
END_TEST

/* a weft waiting at BAR.SYNC is reported with its PC, instruction and the barrier's count, beside
 * a weft waiting on a busy bit */
START_TEST(test_fault_deadlock_bar)
{
	faults("", PROLOGUE
	       "        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
	       "    @P0 BRA `(.L_x) ;\n"
	       "        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	       "        EXIT ;\n"
	       ".L_x:\n"
	       "        DEPBAR.FULL V1000 ;\n"
	       "        EXIT ;\n", 1, FaultDeadlock,
	       "weft 0 of CTA 0 at 0x0060 BAR.SYNC.DEFER_BLOCKING 0x0 (barrier 0: 32 of 64 threads "
	       "arrived); weft 1 of CTA 0 at 0x0080 DEPBAR.FULL V1000 (V1000 empty)");
}
END_TEST

/* new wefts' windows are placed first fit (docs/fiber-isa.md section 2): one launched weft with
 * a window of 16 (R15 is the highest register named), SETFIBERNUM 0x100, 0x28: weft 4 is slice
 * 0's second window, at V16, and weft 0 reads its R6 as V22. Naming R39 makes the kernel's
 * window 40 (the highest register named plus one, over SHI_REGISTERS), so weft 0 holds V0..V39
 * and weft 4 starts at V40: V22 is then weft 0's own R22, 0 */
static const char grow[] =
	"        MOV R15, RZ ;\n"
	"        SETFIBERNUM 0x100, 0x28 ;\n"
	PROLOGUE
	"        IADD3 R6, R0, 0x1000, RZ ;\n"
	"        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
	"        IADD3 R7, V22, RZ, RZ ;\n"
	"        STG.E [R2.64], R7 ;\n"
	"        EXIT ;\n";

START_TEST(test_first_fit)
{
	Run *r = load("\t.maxfibers\t256\n", grow, 1, 1);
	char *wide;
	int rc = launch(r, 32, 256);

	ck_assert_int_eq(r->k->nreg, 16);
	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 256; t++)
		ck_assert_msg(word(r, t) == 0x1000 + 128 + t % 32, "fiber %u: 0x%x", t, word(r, t));
	done(r);
	wide = subst(grow, "MOV R15, RZ", "MOV R39, RZ");
	r = load("\t.maxfibers\t256\n", wide, 1, 1);
	free(wide);
	rc = launch(r, 32, 256);
	ck_assert_int_eq(r->k->nreg, 40);
	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 256; t++)
		ck_assert_msg(word(r, t) == 0, "fiber %u: 0x%x", t, word(r, t));
	done(r);
}
END_TEST

/* a weft whose window (SETFIBERNUM's nreg, 8) is smaller than the registers the code names: a
 * write past it is a remote write, a read past it a read outside the window, both FaultFiber
 * naming the weft, the register, the PC and the window (wefts 0 and 1 keep the kernel's 13) */
START_TEST(test_fault_past_window)
{
	faults("\t.maxfibers\t128\n", PROLOGUE
	       "        SETFIBERNUM 0x80, 0x8 ;\n"
	       "        IADD3 R12, R0, 0x1, RZ ;\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "remote write: weft 2 writes R12 at PC 0x0050, past its window of 8 registers "
	       "(R0..R7 = V1024..V1031)");
	faults("\t.maxfibers\t128\n", PROLOGUE
	       "        SETFIBERNUM 0x80, 0x8 ;\n"
	       "        IADD3 R6, R12, 0x1, RZ ;\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "weft 2 reads R12 at PC 0x0050, past its window of 8 registers (R0..R7 = V1024..V1031)");
	faults("\t.maxfibers\t128\n", PROLOGUE
	       "        SETFIBERNUM 0x80, 0x8 ;\n"
	       "        IMAD.WIDE.U32 R8, R0, 0x4, R4 ;\n"
	       "        EXIT ;\n", 1, FaultFiber,
	       "remote write: weft 2 writes R9 (a tuple) at PC 0x0050, past its window of 8 registers");
}
END_TEST

/* lanes trimmed by a shrink and brought back by a grow are new fibers (docs/fiber-isa.md section
 * 3): fibers 40..63 start after the second SETFIBERNUM with a zeroed window (R8 = 0), the others
 * keep theirs; no .maxfibers is needed to grow back up to the launch's 64 threads */
START_TEST(test_regrow)
{
	Run *r = load("", PROLOGUE
	              "        IADD3 R8, R0, 0x1000, RZ ;\n"
	              "        SETFIBERNUM 0x28 ;\n"
	              "        SETFIBERNUM 0x40 ;\n"
	              "        S2R R0, SR_FIBERID ;\n"
	              "        MOV R4, c[0x0][0x160] ;\n"
	              "        MOV R5, c[0x0][0x164] ;\n"
	              "        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	              "        STG.E [R2.64], R8 ;\n"
	              "        EXIT ;\n", 1, 1);
	int rc = launch(r, 64, 64);

	ck_assert_msg(rc == 0, "%s", r->f.msg);
	for (uint32_t t = 0; t < 64; t++)
		ck_assert_msg(word(r, t) == (t < 40 ? 0x1000 + t : 0), "fiber %u: 0x%x", t, word(r, t));
	done(r);
}
END_TEST

START_TEST(test_fault_simt)
{
	faults("", "        SETBUSYBIT.FULL R1 ;\n        EXIT ;\n", 0, FaultIllegalInstr,
	       "SETBUSYBIT.FULL needs a FIBER configuration (sm_model = fiber)");
	faults("", PROLOGUE "        EXIT ;\n", 0, FaultIllegalInstr,
	       "SR_FIBERID needs a FIBER configuration (sm_model = fiber)");
	faults("", "        SETFIBERNUM 0x40 ;\n        EXIT ;\n", 0, FaultIllegalInstr,
	       "SETFIBERNUM needs a FIBER configuration");
}
END_TEST

/* a SIMT kernel (shared memory, a barrier, a shuffle, a loop, 3 CTAs of 96 threads) leaves the
 * same output with fiber = 1 (windows placed per slice) as with fiber = 0 */
/* a pool is local to its slice: weft 0 (sub-partition 0) fills pool kv (top of slice 0) through
 * four families (MOV, IADD3, FFMA, LDG), then every weft of the CTA reads it; weft 1
 * (sub-partition 1) writing it is a remote write */
START_TEST(test_pool_write)
{
	static const char body[] = PROLOGUE
		"        ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n"
		"        MOV R9, 0x40000000 ;\n"
		"        BSSY B0, `(.L_x_1) ;\n"
		"        @P0 BRA `(.L_x_1) ;\n"
		"        MOV kv[0], 0x7 ;\n"
		"        IADD3 kv[1], R0, 0x30, RZ ;\n"
		"        FFMA kv[2], R9, 0.5, R9 ;\n"
		"        LDG.E kv[3], [R4.64] ;\n"
		".L_x_1:\n"
		"        BSYNC B0 ;\n"
		"        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
		"        IADD3 R6, kv[0], kv[1], kv[3] ;\n"
		"        IADD3 R6, R6, kv[2], RZ ;\n"
		"        STG.E [R2.64+0x400], R6 ;\n"
		"        EXIT ;\n";
	Run *r = load("\t.pool\tkv, 16\n", body, 1, 1);
	int rc = launch(r, 128, 512);
	char *bad;

	ck_assert_msg(rc == 0, "%s", r->f.msg);
	/* lane l of every weft reads lane l of the pool, written by weft 0's fiber l: 7, l + 0x30,
	 * 2 * 0.5 + 2 = 3.0f, and out[l] (0xdeadbeef, loaded before any store to out[256..]) */
	for (uint32_t t = 0; t < 128; t++)
		ck_assert_msg(word(r, 256 + t) == 0x7u + (t % 32 + 0x30u) + 0xdeadbeefu + 0x40400000u,
		              "fiber %u: 0x%x", t, word(r, 256 + t));
	done(r);
	/* fibers 32..63 (weft 1, sub-partition 1) write instead */
	bad = subst(body, "ISETP.GE.U32.AND P0, PT, R0, 0x20, PT", "ISETP.LT.U32.AND P0, PT, R0, 0x20, PT");
	r = load("\t.pool\tkv, 16\n", bad, 1, 1);
	free(bad);
	ck_assert_int_ne(launch(r, 64, 512), 0);
	ck_assert_int_eq(r->f.kind, FaultFiber);
	ck_assert_msg(strstr(r->f.msg, "remote write: weft 1 (sub-partition 1) writes pool kv[0] "
	                     "(slice 0, V496) at PC 0x0080") != NULL, "%s", r->f.msg);
	done(r);
}
END_TEST

START_TEST(test_simt_same)
{
	static const char body[] =
		"        S2R R0, SR_TID.X ;\n"
		"        S2R R9, SR_CTAID.X ;\n"
		"        IMAD R1, R9, 0x60, R0 ;\n"
		"        MOV R4, c[0x0][0x160] ;\n"
		"        MOV R5, c[0x0][0x164] ;\n"
		"        IMAD.WIDE.U32 R2, R1, 0x4, R4 ;\n"
		"        IMAD R6, R1, 0x11, 0x5 ;\n"
		"        SHF.L.U32 R7, R0, 0x2, RZ ;\n"
		"        STS [R7], R6 ;\n"
		"        BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
		"        IADD3 R8, R0, 0x1, RZ ;\n"
		"        ISETP.GE.U32.AND P0, PT, R8, 0x60, PT ;\n"
		"    @P0 MOV R8, RZ ;\n"
		"        SHF.L.U32 R8, R8, 0x2, RZ ;\n"
		"        LDS R10, [R8] ;\n"
		"        SHFL.BFLY PT, R11, R10, 0x1, 0x1f ;\n"
		"        MOV R12, RZ ;\n"
		".L_loop:\n"
		"        IADD3 R10, R10, R11, RZ ;\n"
		"        IADD3 R12, R12, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P1, PT, R12, R0, PT ;\n"
		"    @P1 BRA `(.L_loop) ;\n"
		"        STG.E [R2.64], R10 ;\n"
		"        EXIT ;\n";
	uint32_t want[288];
	LaunchParams lp = { { 3, 1, 1 }, { 96, 1, 1 }, 384, NULL, 8, 0, { 0, 0, 0 } };

	for (int fiber = 0; fiber < 2; fiber++) {
		Run *r = load("", body, fiber, 1);
		uint32_t got[288];
		SimStats st;
		ck_assert_int_eq(gpu_malloc(r->g, sizeof got, &r->out), 0);
		memset(got, 0xee, sizeof got);
		ck_assert_int_eq(gpu_write(r->g, r->out, got, sizeof got), 0);
		lp.params = &r->out;
		ck_assert_msg(sim_launch(r->g, r->sm, r->k, &lp, &st, &r->f) == 0, "%s", r->f.msg);
		ck_assert_int_eq(gpu_read(r->g, r->out, got, sizeof got), 0);
		if (!fiber)
			memcpy(want, got, sizeof got);
		else
			ck_assert_msg(memcmp(want, got, sizeof got) == 0, "fiber = 1 differs");
		ck_assert_uint_ne(got[5], 0xeeeeeeee);
		done(r);
	}
}
END_TEST

Suite *
simfiber_suite(void)
{
	Suite *s = suite_create("simfiber");
	TCase *t = tcase_create("simfiber");

	tcase_add_test(t, test_placement);
	tcase_add_test(t, test_setfibernum);
	tcase_add_test(t, test_setfibernum_ur_partial);
	tcase_add_test(t, test_dp0);
	tcase_add_test(t, test_producer_consumer);
	tcase_add_test(t, test_fault_divergent);
	tcase_add_test(t, test_fault_count);
	tcase_add_test(t, test_fault_counts_differ);
	tcase_add_test(t, test_fault_window);
	tcase_add_test(t, test_fault_contexts);
	tcase_add_test(t, test_fault_deadlock);
	tcase_add_test(t, test_fault_deadlock_bar);
	tcase_add_test(t, test_first_fit);
	tcase_add_test(t, test_regrow);
	tcase_add_test(t, test_fault_past_window);
	tcase_add_test(t, test_fault_simt);
	tcase_add_test(t, test_pool_write);
	tcase_add_test(t, test_simt_same);
	suite_add_tcase(s, t);
	return s;
}
