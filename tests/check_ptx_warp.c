/* check_ptx_warp.c: instruction selection of the warp family (backend/isel/ptxsel_warp.c): the SASS
 * each form lowers to (ptx_lower_text, in process), the located errors of the forms not
 * selected, and small nvcc-style kernels compiled by fiberc and run on the simulator for sm_80
 * and sm_90 with expectations from a CPU reference of the PTX ISA's definitions: shfl.sync in
 * every mode with several widths, clamps, register and immediate b and c, and a divergent mask;
 * vote, match, redux and activemask on chosen lane data; CTA barriers with exchanges through
 * shared memory, bar.red, bar.arrive; elect.sync (sm_90); nanosleep, trap, pmevent.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxrun.h"
#include "ptxsel_test.h"

static const char *const arches[] = { "sm_80", "sm_90" };

/* ---- selected SASS and errors ------------------------------------------------------------ */

/* a kernel k(.param .u32 k_param_0) with registers %r0..%r63, %rd0..%rd15, %p0..%p7 whose body
 * is `body` after %r1 = k_param_0 and %r2 = %tid.x */
static char *
small_kernel(int sm, const char *body)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, ".version 8.5\n.target sm_%d\n.address_size 64\n\n"
	        ".visible .entry k(.param .u32 k_param_0, .param .u64 k_param_1)\n{\n"
	        "\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<16>;\n\t.reg .pred %%p<8>;\n"
	        "\t.shared .align 16 .b8 sm[1024];\n"
	        "\tld.param.u32 %%r1, [k_param_0];\n\tld.param.u64 %%rd1, [k_param_1];\n"
	        "\tmov.u32 %%r2, %%tid.x;\n%s\tret;\n}\n", sm, body);
	fclose(f);
	return s;
}

/* body (in small_kernel) lowers for sm to the lines of want, in order */
static void
lowers_to(int sm, const char *body, const char *want)
{
	char *ptx = small_kernel(sm, body);

	psel_lowers_to(ptx, sm, want);
	free(ptx);
}

/* body does not lower for sm: the message contains `where` (the body starts on line 14 of the
 * kernel text) and `why` */
static void
fails_with(int sm, const char *body, const char *where, const char *why)
{
	char *ptx = small_kernel(sm, body);

	psel_fails(ptx, sm, where, why);
	free(ptx);
}

START_TEST(isel_shfl)
{
	/* immediate b and c as SHFL immediates; c's bits beyond clamp and segment mask dropped */
	lowers_to(80, "\tshfl.sync.idx.b32 %r3|%p1, %r2, 3, 31, -1;\n",
	          "SHFL.IDX %p1, %r3, %r2, 0x3, 0x1f");
	lowers_to(80, "\tshfl.sync.bfly.b32 %r3, %r2, 33, 0xffff, -1;\n",
	          "SHFL.BFLY PT, %r3, %r2, 0x1, 0x1f1f");
	lowers_to(90, "\tshfl.sync.down.b32 %r3|%p2, %r2, %r1, 4127, -1;\n",
	          "SHFL.DOWN %p2, %r3, %r2, %r1, 0x101f");
	lowers_to(80, "\tshfl.sync.up.b32 %r3|_, %r2, 1, %r1, -1;\n",
	          "SHFL.UP PT, %r3, %r2, 0x1, %r1");
	/* a mask other than -1: WARPSYNC first */
	lowers_to(80, "\tshfl.sync.idx.b32 %r3, %r2, 0, 31, %r1;\n",
	          "WARPSYNC %r1\nSHFL.IDX PT, %r3, %r2, 0x0, 0x1f");
	lowers_to(80, "\tshfl.sync.idx.b32 %r3, %r2, 0, 31, 0xffff;\n",
	          "WARPSYNC 0xffff\nSHFL.IDX PT, %r3, %r2, 0x0, 0x1f");
	/* an immediate a goes through a register */
	lowers_to(80, "\tshfl.sync.idx.b32 %r3, 7, 0, 31, -1;\n", "SHFL.IDX PT, %r3, %$t0, 0x0, 0x1f");
}
END_TEST

START_TEST(isel_vote_match_redux)
{
	lowers_to(80, "\tvote.sync.ballot.b32 %r3, %p1, -1;\n"
	          "\tvote.sync.any.pred %p2, !%p1, -1;\n\tvote.sync.all.pred %p3, %p1, %r1;\n"
	          "\tvote.sync.uni.pred %p4, %p1, -1;\n\tactivemask.b32 %r4;\n",
	          "VOTE.ANY %r3, PT, %p1\nVOTE.ANY %p2, !%p1\nWARPSYNC %r1\nVOTE.ALL %p3, %p1\n"
	          "VOTE.EQ %p4, %p1\nVOTE.ANY %r4, PT, PT");
	lowers_to(80, "\tmov.b64 %rd2, {%r1, %r2};\n\tmatch.any.sync.b32 %r3, %r2, -1;\n"
	          "\tmatch.all.sync.b32 %r4|%p1, %r2, -1;\n\tmatch.any.sync.b64 %r5, %rd2, -1;\n"
	          "\tmatch.all.sync.b64 %r6, %rd2, 0xff;\n",
	          "MATCH.ANY %r3, %r2\nMATCH.ALL %p1, %r4, %r2\nMATCH.ANY.U64 %r5, %rd2\n"
	          "WARPSYNC 0xff\nMATCH.ALL.U64 PT, %r6, %rd2");
	lowers_to(90, "\tredux.sync.add.u32 %r3, %r2, -1;\n\tredux.sync.min.s32 %r4, %r2, -1;\n"
	          "\tredux.sync.max.u32 %r5, %r2, -1;\n\tredux.sync.and.b32 %r6, %r2, -1;\n"
	          "\tredux.sync.or.b32 %r7, %r2, -1;\n\tredux.sync.xor.b32 %r8, %r2, %r1;\n",
	          "REDUX.SUM UR10, %r2\nMOV %r3, UR10\nREDUX.MIN.S32 UR10, %r2\nMOV %r4, UR10\n"
	          "REDUX.MAX UR10, %r2\nMOV %r5, UR10\nREDUX UR10, %r2\nMOV %r6, UR10\n"
	          "REDUX.OR UR10, %r2\nMOV %r7, UR10\nWARPSYNC %r1\nREDUX.XOR UR10, %r2\n"
	          "MOV %r8, UR10");
	lowers_to(90, "\telect.sync %r3|%p1, -1;\n\telect.sync _|%p2, %r1;\n",
	          "ELECT %p1, UR10, PT\nMOV %r3, UR10\nWARPSYNC %r1\nELECT %p2, URZ, PT");
}
END_TEST

START_TEST(isel_barriers)
{
	lowers_to(80, "\tbar.sync 0;\n\tbar.sync 1, 64;\n\tbarrier.sync.aligned 3;\n"
	          "\tbarrier.sync %r1, %r2;\n\tbar.arrive 2, 64;\n\tbarrier.arrive %r1, 128;\n"
	          "\tbar.cta.sync 4;\n",
	          "BAR.SYNC.DEFER_BLOCKING 0x0\nBAR.SYNC.DEFER_BLOCKING 0x1, 0x40\n"
	          "BAR.SYNC.DEFER_BLOCKING 0x3\nBAR.SYNC.DEFER_BLOCKING %r1, %r2\nBAR.ARV 0x2, 0x40\n"
	          "BAR.ARV %r1, 0x80\nBAR.SYNC.DEFER_BLOCKING 0x4");
	lowers_to(90, "\tbar.red.popc.u32 %r3, 0, %p1;\n"
	          "\tbar.red.and.pred %p2, 1, !%p1;\n\tbar.red.or.pred %p3, 2, 64, %p1;\n",
	          "BAR.RED.POPC.DEFER_BLOCKING 0x0, %p1\nB2R.RESULT %r3\n"
	          "BAR.RED.AND.DEFER_BLOCKING 0x1, !%p1\nB2R.RESULT RZ, %p2\n"
	          "BAR.RED.OR.DEFER_BLOCKING 0x2, 0x40, %p1\nB2R.RESULT RZ, %p3");
	lowers_to(80, "\tbar.warp.sync -1;\n\tbar.warp.sync %r1;\n\tbar.warp.sync 65535;\n",
	          "WARPSYNC 0xffffffff\nWARPSYNC %r1\nWARPSYNC 0xffff");
	lowers_to(90, "\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
	          "\tbarrier.cluster.arrive.relaxed.aligned;\n",
	          "MEMBAR.ALL.GPU\nERRBAR\nCGAERRBAR\nUCGABAR_ARV\nUCGABAR_WAIT\nCCTL.IVALL\n"
	          "UCGABAR_ARV");
	lowers_to(80, "\tnanosleep.u32 100;\n\tnanosleep.u32 %r1;\n\tpmevent 1;\n\ttrap;\n"
	          "\tbrkpt;\n", "NANOSLEEP 0x64\nNANOSLEEP %r1\nNOP\nBPT.TRAP 0x1\nBPT.TRAP 0x1");
}
END_TEST

START_TEST(isel_errors)
{
	fails_with(80, "\tshfl.bfly.b32 %r3, %r2, 1, 31;\n", "k.ptx:14:2: error: 'shfl.bfly.b32' is "
	           "not supported yet", "without .sync");
	fails_with(80, "\tvote.ballot.b32 %r3, %p1;\n", "k.ptx:14:2: error:", "without .sync");
	fails_with(80, "\tshfl.sync.idx.b64 %rd3, %rd1, 0, 31, -1;\n", "k.ptx:14:2: error:", ".b32 only");
	fails_with(80, "\telect.sync %r3|%p1, -1;\n", "k.ptx:14:2: error: 'elect.sync' is not supported "
	           "yet", "sm_90");
	fails_with(80, "\tbarrier.cluster.arrive;\n", "k.ptx:14:2: error:", "sm_90");
	fails_with(80, "\tbar.sync 16;\n", "k.ptx:14:11: error:", "past 15");
	fails_with(80, "\tbar.sync 0, 48;\n", "k.ptx:14:14: error:", "multiple of 32");
	fails_with(80, "\tbar.red.popc.u32 %r3, 0, %r2;\n", "k.ptx:14:", "must be a predicate");
	fails_with(80, "\tmatch.any.sync.b32 %r3|%p1, %r2, -1;\n", "k.ptx:14:", "no predicate");
	fails_with(90, "\tredux.sync.add.b32 %r3, %r2, -1;\n", "k.ptx:14:2: error:", ".u32 or .s32");
	/* operands of the wrong kind */
	fails_with(80, "\tshfl.sync.idx.b32 %r3, %p1, 1, 31, -1;\n", "k.ptx:14:25: error:",
	           "operand 1 must be a 32-bit register or an immediate");
	fails_with(80, "\tshfl.sync.idx.b32 %r3|%r4, %r2, 1, 31, -1;\n", "k.ptx:14:20: error:",
	           "a pair d|p with a predicate p");
	fails_with(80, "\tvote.sync.all.pred %r3, %p1, -1;\n", "k.ptx:14:21: error:",
	           "operand 0 must be a predicate");
	fails_with(80, "\tmatch.any.sync.b64 %r3, %r2, -1;\n", "k.ptx:14:26: error:",
	           "operand 1 must be a 64-bit register");
	fails_with(80, "\tbar.sync %p1;\n", "k.ptx:14:11: error:", "32-bit register or an immediate");
	fails_with(80, "\tbar.warp.sync %rd1;\n", "k.ptx:14:16: error:", "32-bit register");
	fails_with(80, "\tshfl.sync.idx.b32 %r3, %r2, 1, 31, %p1;\n", "k.ptx:14:37: error:",
	           "operand 4 must be a 32-bit register");
}
END_TEST

/* ---- running kernels ------------------------------------------------------------------------
 * The kernels load %r2 = in[tid] and %r5 = in[64 + tid], run a body, and store %r50..%r53 to
 * out[tid], out[64 + tid], out[128 + tid], out[192 + tid] (set to 0 before the body). */
enum { NIn = 128, NOut = 256 };

static char *
run_kernel(const char *arch, const char *decls, const char *body)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, ".version 8.5\n.target %s\n.address_size 64\n\n"
	        ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	        "\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<16>;\n\t.reg .pred %%p<8>;\n%s"
	        "\tld.param.u64 %%rd1, [k_param_0];\n\tld.param.u64 %%rd2, [k_param_1];\n"
	        "\tcvta.to.global.u64 %%rd3, %%rd1;\n\tcvta.to.global.u64 %%rd4, %%rd2;\n"
	        "\tmov.u32 %%r1, %%tid.x;\n\tmul.wide.u32 %%rd5, %%r1, 4;\n"
	        "\tadd.s64 %%rd6, %%rd4, %%rd5;\n\tld.global.u32 %%r2, [%%rd6];\n"
	        "\tld.global.u32 %%r5, [%%rd6+256];\n"
	        "\tmov.u32 %%r50, 0;\n\tmov.u32 %%r51, 0;\n\tmov.u32 %%r52, 0;\n\tmov.u32 %%r53, 0;\n"
	        "%s"
	        "\tadd.s64 %%rd7, %%rd3, %%rd5;\n\tst.global.u32 [%%rd7], %%r50;\n"
	        "\tst.global.u32 [%%rd7+256], %%r51;\n\tst.global.u32 [%%rd7+512], %%r52;\n"
	        "\tst.global.u32 [%%rd7+768], %%r53;\n\tret;\n}\n", arch, decls ? decls : "", body);
	fclose(f);
	return s;
}

/* run body on arch with `threads` threads (one CTA) on in[]; out[] filled; 0, or -1 with the
 * error in err */
static int
run(const char *arch, unsigned threads, const char *decls, const char *body, const uint32_t *in,
    uint32_t *out, char *err, size_t nerr)
{
	char *ptx = run_kernel(arch, decls, body);
	uint32_t inb[NIn];
	PrRun r = { .arch = arch, .config = strcmp(arch, "sm_90") ? "a100" : "h100",
	            .block = { threads } };
	PrArg a[2] = {
		{ .kind = PrBuf, .data = out, .bytes = NOut * 4 },
		{ .kind = PrBuf, .data = inb, .bytes = NIn * 4 },
	};
	int rc;

	memcpy(inb, in, sizeof inb);
	memset(out, 0xee, NOut * 4);
	rc = pr_run(ptx, "k", &r, a, 2);
	if (err)
		snprintf(err, nerr, "%s", r.err);
	if (rc == 0 && r.hazards)
		rc = -1, snprintf(err, nerr, "%llu hazards", (unsigned long long)r.hazards);
	free(ptx);
	return rc;
}

/* run and fail the test on an error */
static void
run_ok(const char *arch, unsigned threads, const char *decls, const char *body,
       const uint32_t *in, uint32_t *out)
{
	char err[4096];
	int rc = run(arch, threads, decls, body, in, out, err, sizeof err);

	ck_assert_msg(rc == 0, "%s: %s\n%s", arch, err, body);
}

/* ---- shfl.sync -------------------------------------------------------------------------------
 * The PTX ISA's definition (shfl.sync): bval = b[4:0], cval = c[4:0], segmask = c[12:8],
 * maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask; up: j = lane - bval,
 * valid j >= maxLane; down: j = lane + bval, valid j <= maxLane; bfly: j = lane ^ bval, valid
 * j <= maxLane; idx: j = minLane | (bval & ~segmask), valid j <= maxLane; an invalid j reads the
 * lane's own value; p is the validity. */
enum { Idx, Up, Down, Bfly };
static const char *const shfl_mode[] = { "idx", "up", "down", "bfly" };

static uint32_t
ref_shfl(int mode, const uint32_t *a, int lane, uint32_t b, uint32_t c, int *p)
{
	int bv = (int)(b & 31), cv = (int)(c & 31), seg = (int)(c >> 8 & 31);
	int maxl = (lane & seg) | (cv & ~seg), minl = lane & seg, j;

	switch (mode) {
	case Up: j = lane - bv; *p = j >= maxl; break;
	case Down: j = lane + bv; *p = j <= maxl; break;
	case Bfly: j = lane ^ bv; *p = j <= maxl; break;
	default: j = minl | (bv & ~seg); *p = j <= maxl; break;
	}
	return a[*p ? j : lane];
}

static void
shfl_in(uint32_t *in)
{
	for (int l = 0; l < NIn; l++)
		in[l] = 100u + (uint32_t)l * 7u;
	for (int l = 0; l < 32; l++)
		in[64 + l] = (uint32_t)l * 37u + 5u;   /* per-lane b: values past 31 too */
}

/* one shuffle of mode with b, c immediates or registers (regs), on arch; checks d and p */
static void
shfl_case(const char *arch, int mode, uint32_t b, uint32_t c, int regs)
{
	uint32_t in[NIn], out[NOut];
	char body[512];

	shfl_in(in);
	if (regs)
		snprintf(body, sizeof body, "\tmov.u32 %%r10, %u;\n\tmov.u32 %%r11, %u;\n"
		         "\tshfl.sync.%s.b32 %%r50|%%p1, %%r2, %%r10, %%r11, -1;\n"
		         "\tselp.u32 %%r51, 1, 0, %%p1;\n", b, c, shfl_mode[mode]);
	else
		snprintf(body, sizeof body, "\tshfl.sync.%s.b32 %%r50|%%p1, %%r2, %u, %u, -1;\n"
		         "\tselp.u32 %%r51, 1, 0, %%p1;\n", shfl_mode[mode], b, c);
	run_ok(arch, 32, NULL, body, in, out);
	for (int l = 0; l < 32; l++) {
		int p;
		uint32_t d = ref_shfl(mode, in, l, b, c, &p);
		ck_assert_msg(out[l] == d && out[64 + l] == (uint32_t)p,
		              "%s shfl.%s b=%u c=0x%x %s lane %d: d %u p %u, want %u %d", arch,
		              shfl_mode[mode], b, c, regs ? "(registers)" : "", l, out[l], out[64 + l],
		              d, p);
	}
}

/* every mode, the widths 32, 16, 8, 4 as CUDA packs them (c = (32 - width) << 8, | 0x1f but for
 * up), a clamp without segments, immediates and registers */
START_TEST(run_shfl_modes)
{
	static const unsigned widths[] = { 32, 16, 8, 4 };
	const char *arch = arches[_i];

	for (int mode = 0; mode < 4; mode++) {
		for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
			uint32_t c = (32u - widths[k]) << 8 | (mode == Up ? 0 : 0x1f);
			uint32_t b = mode == Idx ? 3 : mode == Bfly ? 2 : 1 + (uint32_t)k;
			shfl_case(arch, mode, b, c, k & 1);
		}
		shfl_case(arch, mode, 3, mode == Up ? 12 : 12, 0);   /* clamp 12, no segments */
	}
	/* b past 31 and c with bits outside its fields: only b[4:0], c[4:0], c[12:8] count */
	shfl_case(arch, Bfly, 33, 0xe01f, 0);
	shfl_case(arch, Down, 35, 0xffff181f, 1);
}
END_TEST

/* idx with a per-lane source lane from a register (values past 31), width 8 */
START_TEST(run_shfl_lane_reg)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	shfl_in(in);
	run_ok(arch, 32, NULL, "\tshfl.sync.idx.b32 %r50|%p1, %r2, %r5, 6175, -1;\n"
	       "\tselp.u32 %r51, 1, 0, %p1;\n\tshfl.sync.idx.b32 %r52, %r2, %r5, 31, -1;\n",
	       in, out);
	for (int l = 0; l < 32; l++) {
		int p, p2;
		uint32_t d = ref_shfl(Idx, in, l, in[64 + l], 6175, &p);
		uint32_t d2 = ref_shfl(Idx, in, l, in[64 + l], 31, &p2);
		ck_assert_msg(out[l] == d && out[64 + l] == (uint32_t)p && out[128 + l] == d2,
		              "%s lane %d: %u %u %u, want %u %d %u", arch, l, out[l], out[64 + l],
		              out[128 + l], d, p, d2);
	}
}
END_TEST

/* a shuffle of the lanes 0..15 only (a divergent branch, membermask 0xffff): a butterfly
 * within them; the other lanes keep 0 */
START_TEST(run_shfl_divergent)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	shfl_in(in);
	run_ok(arch, 32, NULL, "\tsetp.ge.u32 %p2, %r1, 16;\n\t@%p2 bra $L__skip;\n"
	       "\tshfl.sync.bfly.b32 %r50, %r2, 5, 31, 0xffff;\n\tmov.u32 %r51, 0xffff;\n"
	       "\tshfl.sync.up.b32 %r52|%p1, %r2, 2, 0, %r51;\n\tselp.u32 %r53, 1, 0, %p1;\n"
	       "$L__skip:\n", in, out);
	for (int l = 0; l < 32; l++) {
		int p = 0, p2 = 0;
		uint32_t d = l < 16 ? ref_shfl(Bfly, in, l, 5, 31, &p) : 0;
		uint32_t d2 = l < 16 ? ref_shfl(Up, in, l, 2, 0, &p2) : 0;
		ck_assert_msg(out[l] == d && out[128 + l] == d2 && out[192 + l] == (l < 16 && p2 ? 1u : 0u),
		              "%s lane %d: %u %u %u, want %u %u", arch, l, out[l], out[128 + l],
		              out[192 + l], d, d2);
	}
}
END_TEST

/* ---- vote, match, redux, activemask --------------------------------------------------------- */

static const char vote_body[] =
    "\tsetp.ne.u32 %p1, %r2, 0;\n"
    "\tvote.sync.ballot.b32 %r50, %p1, -1;\n"
    "\tvote.sync.ballot.b32 %r51, !%p1, -1;\n"
    "\tvote.sync.any.pred %p2, %p1, -1;\n"
    "\tvote.sync.all.pred %p3, %p1, -1;\n"
    "\tvote.sync.uni.pred %p4, %p1, -1;\n"
    "\tvote.sync.all.pred %p5, !%p1, -1;\n"
    "\tselp.u32 %r10, 1, 0, %p2;\n\tselp.u32 %r11, 2, 0, %p3;\n"
    "\tselp.u32 %r12, 4, 0, %p4;\n\tselp.u32 %r13, 8, 0, %p5;\n"
    "\tadd.s32 %r14, %r10, %r11;\n\tadd.s32 %r15, %r12, %r13;\n\tadd.s32 %r52, %r14, %r15;\n"
    "\tactivemask.b32 %r53;\n";

START_TEST(run_vote)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	for (int set = 0; set < 4; set++) {
		uint32_t ballot = 0;
		for (int l = 0; l < 32; l++) {
			in[l] = set == 0 ? l % 3 == 0 : set == 1 ? 5 : set == 2 ? l == 7 : 0;
			ballot |= (uint32_t)(in[l] != 0) << l;
		}
		run_ok(arch, 32, NULL, vote_body, in, out);
		uint32_t flags = (ballot != 0) | (ballot == ~0u) << 1 |
		                 (ballot == 0 || ballot == ~0u) << 2 | (ballot == 0) << 3;
		for (int l = 0; l < 32; l++)
			ck_assert_msg(out[l] == ballot && out[64 + l] == ~ballot && out[128 + l] == flags &&
			              out[192 + l] == ~0u, "%s set %d lane %d: %x %x %u %x, want %x %u",
			              arch, set, l, out[l], out[64 + l], out[128 + l], out[192 + l], ballot,
			              flags);
	}
}
END_TEST

/* activemask and a ballot in a branch taken by the lanes 0..7 (membermask 0xff) */
START_TEST(run_vote_divergent)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	for (int l = 0; l < NIn; l++)
		in[l] = (uint32_t)(l & 1);
	run_ok(arch, 32, NULL, "\tsetp.ge.u32 %p2, %r1, 8;\n\t@%p2 bra $L__skip;\n"
	       "\tactivemask.b32 %r50;\n\tsetp.ne.u32 %p1, %r2, 0;\n"
	       "\tvote.sync.ballot.b32 %r51, %p1, 0xff;\n\tvote.sync.all.pred %p3, %p1, 0xff;\n"
	       "\tselp.u32 %r52, 1, 2, %p3;\n$L__skip:\n", in, out);
	for (int l = 0; l < 32; l++)
		ck_assert_msg(out[l] == (l < 8 ? 0xffu : 0) && out[64 + l] == (l < 8 ? 0xaau : 0) &&
		              out[128 + l] == (l < 8 ? 2u : 0), "%s lane %d: %x %x %u", arch, l,
		              out[l], out[64 + l], out[128 + l]);
}
END_TEST

START_TEST(run_match)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];
	const char *body =
	    "\tmatch.any.sync.b32 %r50, %r2, -1;\n"
	    "\tmatch.all.sync.b32 %r51|%p1, %r2, -1;\n\tselp.u32 %r10, 1, 0, %p1;\n"
	    "\tmov.b64 %rd8, {%r2, %r5};\n"
	    "\tmatch.any.sync.b64 %r52, %rd8, -1;\n"
	    "\tmatch.all.sync.b64 %r11|%p2, %rd8, -1;\n\tselp.u32 %r12, 2, 0, %p2;\n"
	    "\tadd.s32 %r13, %r10, %r12;\n\txor.b32 %r53, %r11, %r13;\n";

	for (int set = 0; set < 3; set++) {
		for (int l = 0; l < 32; l++) {
			in[l] = set == 0 ? (uint32_t)(l % 3) : set == 1 ? 9u : (uint32_t)(l / 8);
			in[64 + l] = set == 1 ? 0u : (uint32_t)(l & 1);   /* the high words */
		}
		int all32 = 1, all64 = 1;
		for (int l = 1; l < 32; l++) {
			all32 &= in[l] == in[0];
			all64 &= in[l] == in[0] && in[64 + l] == in[64];
		}
		run_ok(arch, 32, NULL, body, in, out);
		for (int l = 0; l < 32; l++) {
			uint32_t any32 = 0, any64 = 0;
			for (int m = 0; m < 32; m++) {
				any32 |= (uint32_t)(in[m] == in[l]) << m;
				any64 |= (uint32_t)(in[m] == in[l] && in[64 + m] == in[64 + l]) << m;
			}
			uint32_t a32 = all32 ? ~0u : 0, a64 = all64 ? ~0u : 0;
			uint32_t mix = a64 ^ ((uint32_t)all32 + 2u * (uint32_t)all64);
			ck_assert_msg(out[l] == any32 && out[64 + l] == a32 && out[128 + l] == any64 &&
			              out[192 + l] == mix, "%s set %d lane %d: %x %x %x %x, want %x %x %x %x",
			              arch, set, l, out[l], out[64 + l], out[128 + l], out[192 + l], any32,
			              a32, any64, mix);
		}
	}
}
END_TEST

START_TEST(run_redux)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	for (int set = 0; set < 2; set++) {
		uint32_t sum = 0, umin = ~0u, umax = 0, and = ~0u, or = 0, xor = 0;
		int32_t smin = INT32_MAX, smax = INT32_MIN;
		for (int l = 0; l < 32; l++) {
			uint32_t v = set ? (uint32_t)l * 0x9e3779b9u : (uint32_t)(l * 3 - 40);
			if (set && l == 9)
				v = 0x80000000u;
			in[l] = v;
			sum += v, and &= v, or |= v, xor ^= v;
			umin = v < umin ? v : umin, umax = v > umax ? v : umax;
			smin = (int32_t)v < smin ? (int32_t)v : smin;
			smax = (int32_t)v > smax ? (int32_t)v : smax;
		}
		run_ok(arch, 32, NULL, "\tredux.sync.add.u32 %r50, %r2, -1;\n"
		       "\tredux.sync.min.u32 %r51, %r2, -1;\n\tredux.sync.max.s32 %r52, %r2, -1;\n"
		       "\tredux.sync.xor.b32 %r53, %r2, -1;\n", in, out);
		for (int l = 0; l < 32; l++)
			ck_assert_msg(out[l] == sum && out[64 + l] == umin && out[128 + l] == (uint32_t)smax &&
			              out[192 + l] == xor, "%s set %d lane %d: %x %x %x %x", arch, set, l,
			              out[l], out[64 + l], out[128 + l], out[192 + l]);
		run_ok(arch, 32, NULL, "\tredux.sync.min.s32 %r50, %r2, -1;\n"
		       "\tredux.sync.max.u32 %r51, %r2, -1;\n\tredux.sync.and.b32 %r52, %r2, -1;\n"
		       "\tredux.sync.or.b32 %r53, %r2, -1;\n", in, out);
		for (int l = 0; l < 32; l++)
			ck_assert_msg(out[l] == (uint32_t)smin && out[64 + l] == umax && out[128 + l] == and &&
			              out[192 + l] == or, "%s set %d lane %d: %x %x %x %x", arch, set, l,
			              out[l], out[64 + l], out[128 + l], out[192 + l]);
	}
	/* add.s32, and a sum over the lanes 16..31 alone (a branch, membermask 0xffff0000) */
	for (int l = 0; l < 32; l++)
		in[l] = (uint32_t)(l * l) - 100u;
	run_ok(arch, 32, NULL, "\tredux.sync.add.s32 %r50, %r2, -1;\n"
	       "\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra $L__skip;\n"
	       "\tredux.sync.add.u32 %r51, %r2, 0xffff0000;\n$L__skip:\n", in, out);
	uint32_t all = 0, hi = 0;
	for (int l = 0; l < 32; l++)
		all += in[l], hi += l >= 16 ? in[l] : 0;
	for (int l = 0; l < 32; l++)
		ck_assert_msg(out[l] == all && out[64 + l] == (l >= 16 ? hi : 0), "%s lane %d: %x %x",
		              arch, l, out[l], out[64 + l]);
}
END_TEST

/* ---- barriers ----------------------------------------------------------------------------- */

static const char shared_decl[] = "\t.shared .align 4 .b8 sm[512];\n";

/* sm[tid] = in[tid]; barrier; out = sm[(tid + 32) % 64]: the other warp's value */
START_TEST(run_bar_exchange)
{
	static const char *const bars[] = {
		"\tbar.sync 0;\n",
		"\tbarrier.sync.aligned 5, 64;\n",
		"\tmov.u32 %r30, 3;\n\tmov.u32 %r31, 64;\n\tbarrier.sync %r30, %r31;\n",
		"\tbar.warp.sync -1;\n\tbar.sync 0;\n\tbar.warp.sync %r40;\n",
	};
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];
	char body[1024];

	for (int l = 0; l < NIn; l++)
		in[l] = 1000u + (uint32_t)l;
	for (size_t b = 0; b < sizeof bars / sizeof bars[0]; b++) {
		snprintf(body, sizeof body, "\tmov.u32 %%r40, -1;\n\tmov.u32 %%r20, sm;\n"
		         "\tshl.b32 %%r21, %%r1, 2;\n\tadd.s32 %%r22, %%r20, %%r21;\n"
		         "\tst.shared.u32 [%%r22], %%r2;\n%s\tadd.s32 %%r23, %%r1, 32;\n"
		         "\tand.b32 %%r24, %%r23, 63;\n\tshl.b32 %%r25, %%r24, 2;\n"
		         "\tadd.s32 %%r26, %%r20, %%r25;\n\tld.shared.u32 %%r50, [%%r26];\n", bars[b]);
		run_ok(arch, 64, shared_decl, body, in, out);
		for (int t = 0; t < 64; t++)
			ck_assert_msg(out[t] == 1000u + (uint32_t)((t + 32) % 64), "%s barrier %zu thread %d: %u",
			              arch, b, t, out[t]);
	}
}
END_TEST

/* bar.red over two warps: popc, and, or, with a thread count and a negated predicate */
START_TEST(run_bar_red)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	for (int set = 0; set < 3; set++) {
		uint32_t popc = 0;
		for (int t = 0; t < 64; t++) {
			in[t] = set == 0 ? (uint32_t)(t % 5 == 0) : set == 1 ? 1u : (uint32_t)(t == 63);
			popc += in[t] != 0;
		}
		run_ok(arch, 64, NULL, "\tsetp.ne.u32 %p1, %r2, 0;\n"
		       "\tbar.red.popc.u32 %r50, 0, %p1;\n"
		       "\tbar.red.and.pred %p2, 1, %p1;\n\tselp.u32 %r10, 1, 0, %p2;\n"
		       "\tbar.red.or.pred %p3, 2, 64, %p1;\n\tselp.u32 %r11, 2, 0, %p3;\n"
		       "\tadd.s32 %r51, %r10, %r11;\n"
		       "\tbar.red.popc.u32 %r52, 3, 64, !%p1;\n", in, out);
		uint32_t flags = (popc == 64) | (popc != 0) << 1;
		for (int t = 0; t < 64; t++)
			ck_assert_msg(out[t] == popc && out[64 + t] == flags && out[128 + t] == 64 - popc,
			              "%s set %d thread %d: %u %u %u, want %u %u", arch, set, t, out[t],
			              out[64 + t], out[128 + t], popc, flags);
	}
}
END_TEST

/* producer and consumer: warp 0 writes and arrives at barrier 1, warp 1 waits there, reads */
START_TEST(run_bar_arrive)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];

	for (int l = 0; l < NIn; l++)
		in[l] = 7u * (uint32_t)l + 1u;
	run_ok(arch, 64, shared_decl,
	       "\tmov.u32 %r20, sm;\n\tsetp.ge.u32 %p1, %r1, 32;\n\t@%p1 bra $L__consumer;\n"
	       "\tshl.b32 %r21, %r1, 2;\n\tadd.s32 %r22, %r20, %r21;\n"
	       "\tst.shared.u32 [%r22], %r2;\n\tbar.arrive 1, 64;\n\tmov.u32 %r50, 1;\n"
	       "\tbra.uni $L__done;\n"
	       "$L__consumer:\n\tbar.sync 1, 64;\n\tadd.s32 %r23, %r1, -32;\n"
	       "\tshl.b32 %r24, %r23, 2;\n\tadd.s32 %r25, %r20, %r24;\n"
	       "\tld.shared.u32 %r50, [%r25];\n$L__done:\n", in, out);
	for (int t = 0; t < 64; t++)
		ck_assert_msg(out[t] == (t < 32 ? 1u : in[t - 32]), "%s thread %d: %u", arch, t, out[t]);
}
END_TEST

/* ---- elect, cluster barriers, nanosleep, pmevent, trap ------------------------------------ */

START_TEST(run_elect)
{
	uint32_t in[NIn], out[NOut];

	for (int l = 0; l < NIn; l++)
		in[l] = 0;
	run_ok("sm_90", 32, NULL, "\telect.sync %r50|%p1, -1;\n\tselp.u32 %r51, 1, 0, %p1;\n"
	       "\tsetp.lt.u32 %p2, %r1, 5;\n\t@%p2 bra $L__skip;\n"
	       "\telect.sync %r52|%p3, 0xffffffe0;\n\tselp.u32 %r53, 1, 0, %p3;\n$L__skip:\n",
	       in, out);
	for (int l = 0; l < 32; l++)
		ck_assert_msg(out[l] == 0 && out[64 + l] == (l == 0) && out[128 + l] == (l >= 5 ? 5u : 0) &&
		              out[192 + l] == (l == 5), "lane %d: %u %u %u %u", l, out[l], out[64 + l],
		              out[128 + l], out[192 + l]);
}
END_TEST

/* cluster barriers (sm_90; every CTA is alone in its cluster): two warps, twice, through
 * shared memory */
START_TEST(run_cluster)
{
	uint32_t in[NIn], out[NOut];

	for (int l = 0; l < NIn; l++)
		in[l] = 11u * (uint32_t)l;
	run_ok("sm_90", 64, shared_decl, "\tmov.u32 %r20, sm;\n\tshl.b32 %r21, %r1, 2;\n"
	       "\tadd.s32 %r22, %r20, %r21;\n\tst.shared.u32 [%r22], %r2;\n"
	       "\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
	       "\txor.b32 %r23, %r21, 128;\n\tadd.s32 %r24, %r20, %r23;\n"
	       "\tld.shared.u32 %r50, [%r24];\n"
	       "\tbarrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.acquire.aligned;\n",
	       in, out);
	for (int t = 0; t < 64; t++)
		ck_assert_msg(out[t] == 11u * (uint32_t)(t ^ 32), "thread %d: %u", t, out[t]);
}
END_TEST

START_TEST(run_misc)
{
	const char *arch = arches[_i];
	uint32_t in[NIn], out[NOut];
	char err[4096];

	for (int l = 0; l < NIn; l++)
		in[l] = 3u * (uint32_t)l;
	run_ok(arch, 32, NULL, "\tnanosleep.u32 100;\n\tnanosleep.u32 %r1;\n\tpmevent 2;\n"
	       "\tmov.u32 %r50, %r2;\n", in, out);
	for (int l = 0; l < 32; l++)
		ck_assert_uint_eq(out[l], 3u * (uint32_t)l);
	/* a trap in lane 5 only (in[5] == 77): the launch faults; without a 77 it runs */
	const char *body = "\tsetp.eq.u32 %p1, %r2, 77;\n\t@%p1 trap;\n\tmov.u32 %r50, %r2;\n";
	in[5] = 77;
	ck_assert_int_eq(run(arch, 32, NULL, body, in, out, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "BPT.TRAP") != NULL || strstr(err, "trap") != NULL, "%s", err);
	in[5] = 15;
	run_ok(arch, 32, NULL, body, in, out);
	ck_assert_uint_eq(out[5], 15);
}
END_TEST

Suite *
ptx_warp_suite(void)
{
	Suite *s = suite_create("ptx_warp");
	TCase *t = tcase_create("isel");
	TCase *r = tcase_create("run");

	tcase_add_test(t, isel_shfl);
	tcase_add_test(t, isel_vote_match_redux);
	tcase_add_test(t, isel_barriers);
	tcase_add_test(t, isel_errors);
	suite_add_tcase(s, t);
	tcase_set_timeout(r, 120);
	tcase_add_loop_test(r, run_shfl_modes, 0, 2);
	tcase_add_loop_test(r, run_shfl_lane_reg, 0, 2);
	tcase_add_loop_test(r, run_shfl_divergent, 0, 2);
	tcase_add_loop_test(r, run_vote, 0, 2);
	tcase_add_loop_test(r, run_vote_divergent, 0, 2);
	tcase_add_loop_test(r, run_match, 0, 2);
	tcase_add_loop_test(r, run_redux, 0, 2);
	tcase_add_loop_test(r, run_bar_exchange, 0, 2);
	tcase_add_loop_test(r, run_bar_red, 0, 2);
	tcase_add_loop_test(r, run_bar_arrive, 0, 2);
	tcase_add_test(r, run_elect);
	tcase_add_test(r, run_cluster);
	tcase_add_loop_test(r, run_misc, 0, 2);
	suite_add_tcase(s, r);
	return s;
}
