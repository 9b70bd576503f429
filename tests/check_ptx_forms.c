/* check_ptx_forms.c: forms of PTX that Triton and nvcc write and the selection once refused
 * (issue 23): a single register in braces as a load's or store's data, packs and unpacks with
 * immediate elements (`mov.b32 %f1, {0, %rs1}`: __bfloat162float), the special register WARP_SZ,
 * `call.uni __assertfail` (a device assert) as nvcc's SASS calls it, a kernel refused alone (the
 * others lowered, its error located and the kernel named), and the
 * .target checked against the architecture table, and address arithmetic folded into memory
 * offsets (lwfold.c). Kernels run on the simulator (tests/ptxrun.h)
 * on sm_80 and sm_90 with hand-computed results. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxrun.h"
#include "ptxsel_test.h"
#include "lwpriv.h"

static const char *const arch_of[2] = { "sm_80", "sm_90" };

/* a kernel k(out, in) on target sm_80 around body, with registers of every size; %rd1 (out) and
 * %rd2 (in) are the global addresses, each defined once */
static char *
forms_kernel(const char *body)
{
	static const char fmt[] =
	    ".version 8.5\n.target sm_80\n.address_size 64\n"
	    ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n"
	    "{\n"
	    "\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<16>;\n\t.reg .b32 %%r<32>;\n\t.reg .f32 %%f<16>;\n"
	    "\t.reg .b64 %%rd<16>;\n"
	    "\tld.param.u64 %%rd14, [k_param_0];\n\tld.param.u64 %%rd15, [k_param_1];\n"
	    "\tcvta.to.global.u64 %%rd1, %%rd14;\n\tcvta.to.global.u64 %%rd2, %%rd15;\n"
	    "%s"
	    "\tret;\n"
	    "}\n";
	size_t n = sizeof fmt + strlen(body) + 16;
	char *s = malloc(n);

	snprintf(s, n, fmt, body);
	return s;
}

/* body run by one thread on arch: out (n words) from in (16 words) */
static void
run_forms(int arch, const char *body, const uint32_t *in, uint32_t *out, unsigned n)
{
	char *ptx = forms_kernel(body);
	uint32_t inb[16];
	PrRun r = { .arch = arch_of[arch], .config = arch ? "h100" : "a100", .block = { 1 } };
	PrArg a[2] = {
		{ .kind = PrBuf, .data = out, .bytes = n * 4 },
		{ .kind = PrBuf, .data = inb, .bytes = sizeof inb },
	};

	memcpy(inb, in, sizeof inb);
	memset(out, 0xee, n * 4);
	ck_assert_msg(pr_run(ptx, "k", &r, a, 2) == 0, "%s:\n%s\n%s", arch_of[arch], r.err, ptx);
	free(ptx);
}

/* `ld.global.b32 {%r1}, [..]` and `st.global.b32 [..], {%r1}`: Triton's masked accesses */
START_TEST(test_run_braced_scalar)
{
	static const char body[] =
	    "\tmov.pred %p1, -1;\n"
	    "\tmov.u32 %r1, 0x0;\n"
	    "\t@%p1 ld.global.b32 { %r1 }, [ %rd2 + 4 ];\n"
	    "\tld.global.v2.b32 { %r2, %r3 }, [ %rd2 + 8 ];\n"
	    "\tadd.s32 %r4, %r1, %r3;\n"
	    "\tld.global.b16 {%rs1}, [%rd2 + 16];\n"
	    "\t@%p1 st.global.b32 [ %rd1 + 0 ], { %r4 };\n"
	    "\tst.global.b16 [ %rd1 + 4 ], { %rs1 };\n"
	    "\tst.global.b16 [ %rd1 + 6 ], { %rs1 };\n";
	uint32_t in[16] = { 0, 0x1000, 0, 0x0234, 0xbeefcafe };
	uint32_t out[2];

	run_forms(_i, body, in, out, 2);
	ck_assert_uint_eq(out[0], 0x1234);
	ck_assert_uint_eq(out[1], 0xcafecafe);
}
END_TEST

/* packs and unpacks with immediates: __bfloat162float is `mov.b32 %f1, {0, %rs1}` */
START_TEST(test_run_pack_imm)
{
	static const char body[] =
	    "\tld.global.u16 %rs1, [%rd2];\n"                 /* bf16 1.5: 0x3fc0 */
	    "\tmov.b32 %f1, {0, %rs1};\n"
	    "\tadd.f32 %f2, %f1, %f1;\n"
	    "\tst.global.f32 [%rd1], %f2;\n"
	    "\tmov.b32 %r1, {%rs1, 0x7f};\n"
	    "\tst.global.u32 [%rd1+4], %r1;\n"
	    "\tld.global.u32 %r2, [%rd2+4];\n"
	    "\tmov.b64 %rd3, {%r2, 5};\n"
	    "\tst.global.u64 [%rd1+8], %rd3;\n"
	    "\tmov.b32 {%rs2, %rs3}, 0x12345678;\n"
	    "\tmov.b32 %r3, {%rs3, %rs2};\n"
	    "\tst.global.u32 [%rd1+16], %r3;\n"
	    "\tmov.b64 {%r4, %r5}, 0x1111222233334444;\n"
	    "\tst.global.u32 [%rd1+20], %r4;\n"
	    "\tst.global.u32 [%rd1+24], %r5;\n"
	    "\tmov.b64 %rd4, {%rs1, 1, %rs1, 2};\n"
	    "\tst.global.u64 [%rd1+32], %rd4;\n"
	    "\tmov.b64 {%rs4, _, _, %rs5}, %rd4;\n"
	    "\tmov.b32 %r6, {%rs5, %rs4};\n"
	    "\tst.global.u32 [%rd1+40], %r6;\n";
	uint32_t in[16] = { 0x3fc0, 0xdeadbeef };
	uint32_t out[11];

	run_forms(_i, body, in, out, 11);
	ck_assert_uint_eq(out[0], 0x40400000u);          /* 3.0f */
	ck_assert_uint_eq(out[1], 0x007f3fc0u);
	ck_assert_uint_eq(out[2], 0xdeadbeefu);
	ck_assert_uint_eq(out[3], 5);
	ck_assert_uint_eq(out[4], 0x56781234u);
	ck_assert_uint_eq(out[5], 0x33334444u);
	ck_assert_uint_eq(out[6], 0x11112222u);
	ck_assert_uint_eq(out[8], 0x00013fc0u);
	ck_assert_uint_eq(out[9], 0x00023fc0u);
	ck_assert_uint_eq(out[10], 0x3fc00002u);
}
END_TEST

/* warpSize: `mov.u32 %r1, WARP_SZ` and WARP_SZ as an operand */
START_TEST(test_run_warp_sz)
{
	static const char body[] =
	    "\tmov.u32 %r1, WARP_SZ;\n"
	    "\tld.global.u32 %r2, [%rd2];\n"
	    "\tadd.s32 %r3, %r2, WARP_SZ;\n"
	    "\tst.global.u32 [%rd1], %r1;\n"
	    "\tst.global.u32 [%rd1+4], %r3;\n";
	uint32_t in[16] = { 10 };
	uint32_t out[2];

	run_forms(_i, body, in, out, 2);
	ck_assert_uint_eq(out[0], 32);
	ck_assert_uint_eq(out[1], 42);
}
END_TEST

/* a function with more registers than CompactUnits is lowered with one virtual register per
 * colour of an interval colouring (lwcolour.c); a value defined before a loop and read only at
 * its head (%r5) stays live around the loop (widen_loops), or a register of the 2,500-long chain
 * in the body would take its colour and the second iteration would read that instead */
START_TEST(test_run_compact_loop)
{
	enum { Chain = 2500 };
	static const char head[] =
	    ".version 8.5\n.target sm_80\n.address_size 64\n"
	    ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<2600>;\n\t.reg .b64 %rd<16>;\n"
	    "\tld.param.u64 %rd14, [k_param_0];\n\tld.param.u64 %rd15, [k_param_1];\n"
	    "\tcvta.to.global.u64 %rd1, %rd14;\n\tcvta.to.global.u64 %rd2, %rd15;\n"
	    "\tld.global.u32 %r1, [%rd2];\n\tld.global.u32 %r5, [%rd2+4];\n"
	    "\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
	    "$L_loop:\n\tadd.s32 %r10, %r3, %r5;\n";
	static const char tail[] =
	    "\tadd.s32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n\t@%p1 bra $L_loop;\n"
	    "\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
	size_t cap = sizeof head + sizeof tail + 40 * (Chain + 1), n;
	char *ptx = malloc(cap);
	uint32_t inb[16] = { 5, 7 }, out = 0xeeeeeeeeu;
	PrRun r = { .arch = "sm_80", .config = "a100", .block = { 1 } };
	PrArg a[2] = {
		{ .kind = PrBuf, .data = &out, .bytes = 4 },
		{ .kind = PrBuf, .data = inb, .bytes = sizeof inb },
	};

	n = (size_t)snprintf(ptx, cap, "%s", head);
	for (int k = 1; k < Chain; k++)
		n += (size_t)snprintf(ptx + n, cap - n, "\tadd.s32 %%r%d, %%r%d, 1;\n", 10 + k, 9 + k);
	n += (size_t)snprintf(ptx + n, cap - n, "\tadd.s32 %%r2, %%r2, %%r%d;\n%s", 9 + Chain, tail);
	ck_assert_uint_lt(n, cap);
	ck_assert_msg(pr_run(ptx, "k", &r, a, 2) == 0, "%s", r.err);
	/* sum over i < 5 of i + 7 + 2499 */
	ck_assert_uint_eq(out, 10 + 5 * (7 + Chain - 1));
	free(ptx);
}
END_TEST

/* the SASS selected is ptxas's for the same PTX: __bfloat162float one PRMT (nvcc's listing of
 * `b[i] = __bfloat162float(a[i])`: PRMT R2, RZ, 0x5410, R2), WARP_SZ an immediate, the braced
 * scalar a plain load and store */
START_TEST(test_isel_forms)
{
	char *k = forms_kernel("\tld.global.u16 %rs1, [%rd2];\n\tmov.b32 %f1, {0, %rs1};\n"
	                       "\tld.global.b32 {%r1}, [%rd2+8];\n\tadd.s32 %r2, %r1, WARP_SZ;\n"
	                       "\tst.global.b32 [%rd1+4], {%r2};\n");
	psel_lowers_to(k, 80, "LDG.E.U16 %rs1, [%rd2.64]\nPRMT %f1, RZ, 0x5410, %rs1\n"
	               "LDG.E %r1, [%rd2.64+0x8]\nIADD3 %r2, %r1, 0x20, RZ\nSTG.E [%rd1.64+0x4], %r2");
	free(k);
}
END_TEST

/* located errors of the forms around these: element counts and sizes */
START_TEST(test_isel_form_errors)
{
	char *k = forms_kernel("\tld.global.b32 {%r1, %r2}, [%rd2];\n");
	psel_fails(k, 80, "k.ptx:15:16: error:", "takes a vector of 1 elements");
	free(k);
	k = forms_kernel("\tld.global.v2.b32 {%r1}, [%rd2];\n");
	psel_fails(k, 80, "k.ptx:15:19: error:", "takes a vector of 2 elements");
	free(k);
	k = forms_kernel("\tmov.b32 %r1, {%r2, %rs1};\n");
	psel_fails(k, 80, "k.ptx:15:15: error:", "element 0 must be a 16-bit register or an immediate");
	free(k);
	k = forms_kernel("\tmov.b32 %r1, {%rs1, %rs2, %rs3};\n");
	psel_fails(k, 80, "k.ptx:15:15: error:", "packing 3 elements into .b32");
	free(k);
}
END_TEST

/* two kernels, the second with a form that is not selected: the first is lowered, the second
 * refused with its error located and a note naming it; --kernel lowers one alone */
START_TEST(test_isel_refuse_one)
{
	static const char ptx[] =
	    ".version 8.5\n.target sm_80\n.address_size 64\n"
	    ".visible .entry good(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n\tret;\n}\n"
	    ".visible .entry bad(.param .u64 p)\n{\n\t.reg .b64 %rd<4>;\n"
	    "\tcvta.param.u64 %rd1, %rd2;\n\tret;\n}\n";
	char *msgs = NULL;
	size_t nmsg = 0;
	FILE *out = open_memstream(&msgs, &nmsg);
	Src *src = src_new("k.ptx", ptx, strlen(ptx));
	Diag d;
	Ptx *p;

	diag_init(&d, src, out);
	p = ptx_parse(src, &d);
	ck_assert_ptr_nonnull(p);
	PtxLower o = { .sm = 80 };
	Src *l = ptx_lower_opts(p, &o, &d);
	fflush(out);
	ck_assert_msg(l != NULL, "%s", msgs);
	ck_assert_uint_eq(o.nkernel, 1);
	ck_assert_uint_eq(o.nrefused, 1);
	ck_assert_ptr_nonnull(strstr(l->text, ".text.good"));
	ck_assert_ptr_null(strstr(l->text, ".text.bad"));
	ck_assert_msg(strstr(msgs, "k.ptx:13:2: error: 'cvta.param.u64' is not supported yet") != NULL,
	              "%s", msgs);
	ck_assert_msg(strstr(msgs, "k.ptx:10:17: note: kernel 'bad' is refused (1 error)") != NULL,
	              "%s", msgs);
	src_free(l);
	/* --kernel=good: nothing refused; --kernel=bad: nothing left; --kernel=none: an error */
	o = (PtxLower){ .sm = 80, .kernel = "good" };
	l = ptx_lower_opts(p, &o, &d);
	ck_assert(l != NULL && o.nkernel == 1 && o.nrefused == 0);
	src_free(l);
	o = (PtxLower){ .sm = 80, .kernel = "bad" };
	ck_assert_ptr_null(ptx_lower_opts(p, &o, &d));
	ck_assert_uint_eq(o.nrefused, 1);
	o = (PtxLower){ .sm = 80, .kernel = "none" };
	ck_assert_ptr_null(ptx_lower_opts(p, &o, &d));
	fflush(out);
	ck_assert_msg(strstr(msgs, "error: no kernel named 'none' in the module") != NULL, "%s", msgs);
	ptx_free(p);
	fclose(out);
	free(msgs);
	src_free(src);
}
END_TEST

/* .target against the architecture table (ir/arch.c): one fiberc does not generate for is a
 * located error; an older one compiles with --arch, as with ptxas -arch */
static void
target_case(const char *target, int sm, const char *why)
{
	char ptx[512], *msgs = NULL;
	size_t nmsg = 0;
	FILE *out = open_memstream(&msgs, &nmsg);
	Src *src;
	Diag d;
	Ptx *p;

	snprintf(ptx, sizeof ptx, ".version 8.5\n.target %s\n.address_size 64\n"
	         ".visible .entry k()\n{\n\tret;\n}\n", target);
	src = src_new("k.ptx", ptx, strlen(ptx));
	diag_init(&d, src, out);
	p = ptx_parse(src, &d);
	ck_assert_ptr_nonnull(p);
	PtxLower o = { .sm = sm };
	Src *l = ptx_lower_opts(p, &o, &d);
	fflush(out);
	if (why) {
		ck_assert_msg(l == NULL, ".target %s, sm %d: lowered", target, sm);
		ck_assert_msg(strstr(msgs, "k.ptx:2:9: error: ") && strstr(msgs, why), "%s", msgs);
	} else {
		ck_assert_msg(l != NULL, ".target %s, sm %d: %s", target, sm, msgs);
		src_free(l);
	}
	ptx_free(p);
	fclose(out);
	free(msgs);
	src_free(src);
}

START_TEST(test_isel_targets)
{
	target_case("sm_12", 0, "'.target sm_12' is not an architecture fiberc compiles");
	target_case("sm_12", 80, "before sm_20");
	target_case("sm_75", 0, "--arch=sm_80 compiles this PTX for sm_80");
	target_case("sm_75", 80, NULL);
	target_case("sm_52", 90, NULL);
	target_case("sm_100", 0, "fiberc does not generate code for sm_100");
	target_case("sm_90", 80, "the target is newer");
	target_case("sm_90a", 90, "need exactly that target");
	target_case("sm_90a", 0, NULL);
	target_case("sm_86", 0, NULL);
	target_case("compute_80", 0, "not an architecture fiberc compiles");
}
END_TEST

/* a device assert, as nvcc's PTX has it (tests/ptxbench/assert.cu): `call.uni __assertfail`
 * selected as nvcc's SASS does it (its listing of the same kernel: the arguments in R4..R13,
 * LDC.64 R2, c[0x4][R2] of the routine's .nv.constant4 slot, LEPC R14, the return address
 * LEPC + 0x80 into R20:R21, CALL.ABS.NOINC R2), the routine and the CALL named in .nv.info */
static const char assert_ptx[] =
    ".version 9.0\n.target sm_80\n.address_size 64\n"
    ".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n"
    "\t.param .b64 __assertfail_param_1,\n\t.param .b32 __assertfail_param_2,\n"
    "\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n"
    ".global .align 1 .b8 $str[4] = {97, 62, 48};\n"
    ".global .align 1 .b8 $str$1[5] = {97, 46, 99, 117};\n"
    ".global .align 1 .b8 __unnamed_1[2] = {107};\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<16>;\n"
    "\tld.param.u64 %rd3, [k_param_0];\n\tcvta.to.global.u64 %rd5, %rd3;\n"
    "\tld.global.u32 %r11, [%rd5];\n\tsetp.gt.s32 %p2, %r11, -1;\n\t@%p2 bra $L__BB0_3;\n"
    "\tmov.u64 %rd7, $str;\n\tcvta.global.u64 %rd8, %rd7;\n"
    "\tmov.u64 %rd9, $str$1;\n\tcvta.global.u64 %rd10, %rd9;\n"
    "\tmov.u64 %rd11, __unnamed_1;\n\tcvta.global.u64 %rd12, %rd11;\n"
    "\t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n"
    "\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd8;\n"
    "\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd10;\n"
    "\t.param .b32 param2;\n\tst.param.b32 [param2+0], 7;\n"
    "\t.param .b64 param3;\n\tst.param.b64 [param3+0], %rd12;\n"
    "\t.param .b64 param4;\n\tst.param.b64 [param4+0], 1;\n"
    "\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2, \n\tparam3, \n\tparam4\n\t);\n"
    "\t} // callseq 0\n"
    "$L__BB0_3:\n\tmov.u32 %r9, WARP_SZ;\n\tadd.s32 %r10, %r11, %r9;\n"
    "\tst.global.u32 [%rd5+4], %r10;\n\tret;\n}\n";

START_TEST(test_isel_assertfail)
{
	char *msgs = NULL, *t = psel_lower(assert_ptx, 80, &msgs);
	const char *want[] = {
		/* the .nv.info of the kernel: the routine, then the CALL's offset */
		"EIATTR_EXTERNS", ".word\tindex@(__assertfail)", "EIATTR_SYSCALL_OFFSETS",
		".word\t.L_sys0@srel",
		/* the arguments from R4: msg, file, line, function, charSize */
		"MOV R4, ", "MOV R5, ", "MOV R6, ", "MOV R7, ", "MOV R8, ", "MOV R10, ", "MOV R11, ",
		"MOV R12, ", "MOV R13, ",
		"MOV R2, 0x18 ;", "LDC.64 R2, c[0x4][R2] ;", "LEPC R14 ;", "MOV R9, 0x80 ;",
		"MOV R20, 0x0 ;", "MOV R21, 0x0 ;", "MOV R0, 0x0 ;",
		"IADD3 R20, P0, P1, -R20, R9, R14 ;", "IADD3.X R21, ~R0, R21, R15, P0, P1 ;",
		".L_sys0:", "CALL.ABS.NOINC R2 ;",
		/* the routine's address in the fourth slot of .nv.constant4, its symbol a function */
		".nv.constant4:", ".dword\t$str\n", ".dword\t$str$1\n", ".dword\t__unnamed_1\n",
		".dword\t__assertfail\n", ".type\t\t__assertfail,@function",
	};
	const char *at;

	ck_assert_msg(t != NULL, "%s", msgs);
	at = t;
	for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
		const char *hit = strstr(at, want[k]);
		ck_assert_msg(hit != NULL, "'%s' missing (or out of order) in:\n%s", want[k], t);
		at = hit + strlen(want[k]);
	}
	/* the 8 instructions from LEPC to the return point: LEPC + 0x80 is the one after CALL */
	at = strstr(t, "LEPC R14 ;");
	unsigned n = 0;
	for (const char *q = at; q < strstr(t, "CALL.ABS.NOINC R2 ;"); q++)
		n += *q == ';';
	ck_assert_uint_eq(n, 7);
	free(t);
	free(msgs);
}
END_TEST

/* device printf then assert, as nvcc's PTX has them (tests/devcall/devcall.cu's say_then_check):
 * `call.uni (retval0), vprintf, (param0, param1)` as nvcc's SASS calls it (the format in R4:R5,
 * the argument buffer in R6:R7, LEPC R8, the return offset in R11, the result from R4), each
 * routine a slot of .nv.constant4 in first-call order, EIATTR_EXTERNS naming both (vprintf
 * first, as nvcc lists them) and EIATTR_SYSCALL_OFFSETS both CALLs */
START_TEST(test_isel_vprintf)
{
	static const char ptx[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
	    "\t.param .b64 vprintf_param_1\n)\n;\n"
	    ".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n"
	    "\t.param .b64 __assertfail_param_1,\n\t.param .b32 __assertfail_param_2,\n"
	    "\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n"
	    ".global .align 1 .b8 $str[4] = {104, 105, 10};\n"
	    ".visible .entry k(.param .u64 k_param_0)\n{\n"
	    "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	    "\tld.param.u64 %rd1, [k_param_0];\n"
	    "\tmov.u64 %rd2, $str;\n\tcvta.global.u64 %rd3, %rd2;\n"
	    "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd3;\n"
	    "\t.param .b64 param1;\n\tst.param.b64 [param1+0], 0;\n"
	    "\t.param .b32 retval0;\n"
	    "\tcall.uni (retval0), vprintf, (param0, param1);\n"
	    "\tld.param.b32 %r1, [retval0+0];\n\t}\n"
	    "\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd3;\n"
	    "\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd3;\n"
	    "\t.param .b32 param2;\n\tst.param.b32 [param2+0], 7;\n"
	    "\t.param .b64 param3;\n\tst.param.b64 [param3+0], %rd3;\n"
	    "\t.param .b64 param4;\n\tst.param.b64 [param4+0], 1;\n"
	    "\tcall.uni __assertfail, (param0, param1, param2, param3, param4);\n\t}\n"
	    "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
	char *msgs = NULL, *t = psel_lower(ptx, 80, &msgs);
	const char *want[] = {
		"EIATTR_EXTERNS", ".word\tindex@(vprintf)", ".word\tindex@(__assertfail)",
		"EIATTR_SYSCALL_OFFSETS", ".word\t.L_sys0@srel", ".word\t.L_sys1@srel",
		/* vprintf: the format, the buffer, its slot (after $str's), LEPC R8 */
		"MOV R4, ", "MOV R5, ", "MOV R6, ", "MOV R7, ", "MOV R2, 0x8 ;",
		"LDC.64 R2, c[0x4][R2] ;", "LEPC R8 ;", "MOV R11, 0x80 ;", "MOV R20, 0x0 ;",
		"MOV R21, 0x0 ;", "MOV R0, 0x0 ;", "IADD3 R20, P0, P1, -R20, R11, R8 ;",
		"IADD3.X R21, ~R0, R21, R9, P0, P1 ;", ".L_sys0:", "CALL.ABS.NOINC R2 ;", ", R4 ;",
		/* __assertfail: its own slot, the third */
		"MOV R13, ", "MOV R2, 0x10 ;", "LEPC R14 ;", ".L_sys1:", "CALL.ABS.NOINC R2 ;",
		".nv.constant4:", ".dword\t$str\n", ".dword\tvprintf\n", ".dword\t__assertfail\n",
		".type\t\tvprintf,@function", ".type\t\t__assertfail,@function",
	};
	const char *at;

	ck_assert_msg(t != NULL, "%s", msgs);
	at = t;
	for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
		const char *hit = strstr(at, want[k]);
		ck_assert_msg(hit != NULL, "'%s' missing (or out of order) in:\n%s", want[k], t);
		at = hit + strlen(want[k]);
	}
	free(t);
	free(msgs);
}
END_TEST

/* a call of another routine declared without a body, and __assertfail declared otherwise: located
 * errors */
START_TEST(test_isel_syscall_errors)
{
	static const char other[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".extern .func vprintf2\n(\n\t.param .b64 a\n)\n;\n"
	    ".visible .entry k()\n{\n\t{\n\t.param .b64 p;\n\tst.param.b64 [p], 0;\n"
	    "\tcall.uni vprintf2, (p);\n\t}\n\tret;\n}\n";
	static const char wrong[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".extern .func __assertfail\n(\n\t.param .b64 a\n)\n;\n"
	    ".visible .entry k()\n{\n\t{\n\t.param .b64 p;\n\tst.param.b64 [p], 0;\n"
	    "\tcall.uni __assertfail, (p);\n\t}\n\tret;\n}\n";
	/* vprintf declared without its result; vprintf's result not taken */
	static const char noret[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".extern .func vprintf\n(\n\t.param .b64 a,\n\t.param .b64 b\n)\n;\n"
	    ".visible .entry k()\n{\n\t{\n\t.param .b64 p;\n\tst.param.b64 [p], 0;\n"
	    "\tcall.uni vprintf, (p, p);\n\t}\n\tret;\n}\n";
	static const char dropped[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".extern .func (.param .b32 r) vprintf\n(\n\t.param .b64 a,\n\t.param .b64 b\n)\n;\n"
	    ".visible .entry k()\n{\n\t{\n\t.param .b64 p;\n\tst.param.b64 [p], 0;\n"
	    "\t.param .b32 r;\n\tcall.uni vprintf, (p, p);\n\t}\n\tret;\n}\n";

	psel_fails(other, 80, "k.ptx:14:11: error:", "a call of 'vprintf2', which has no body in this "
	           "module (of the system routines only vprintf and __assertfail are selected)");
	psel_fails(noret, 80, "k.ptx:15:11: error:", "a call of 'vprintf', which has no body");
	psel_fails(dropped, 80, "k.ptx:16:11: error:", "vprintf returns 1 .param result");
	psel_fails(wrong, 80, "k.ptx:14:11: error:", "a call of '__assertfail', which has no body");
}
END_TEST

/* address arithmetic folded into the memory offsets, as ptxas does (lwfold.c): `add.s64 d, b, imm`
 * used only as load and store addresses is not computed, the accesses are [b+imm+off]; a register
 * used otherwise too, or a base defined twice, keeps its add */
START_TEST(test_isel_fold)
{
	char *k = forms_kernel("\tadd.s64 %rd3, %rd2, 512;\n\tld.global.b32 {%r1}, [%rd3+4];\n"
	                       "\tadd.s64 %rd4, %rd1, 1024;\n\tst.global.u32 [%rd4], %r1;\n"
	                       "\tst.global.u32 [%rd4+-8], %r1;\n"
	                       "\tadd.s32 %r3, %r2, 16;\n\tld.shared.u32 %r4, [%r3];\n"
	                       "\tst.global.u32 [%rd1], %r4;\n");
	char *msgs = NULL, *t = psel_lower(k, 80, &msgs);

	ck_assert_msg(t != NULL, "%s", msgs);
	ck_assert_msg(strstr(t, "LDG.E %r1, [%rd2.64+0x204]") && strstr(t, "STG.E [%rd1.64+0x400], %r1") &&
	              strstr(t, "STG.E [%rd1.64+0x3f8], %r1") && strstr(t, "LDS %r4, [%r2+0x10]"),
	              "not folded:\n%s", t);
	const char *code = strstr(t, ".text.k:");   /* the instructions (the .vreg list is above) */
	ck_assert_msg(code && !strstr(code, "%rd3") && !strstr(code, "%rd4") && !strstr(code, "%r3,"),
	              "an add left:\n%s", t);
	free(t);
	free(msgs);
	free(k);
	/* %rd3 also stored as a value, %rd2 defined twice: both adds stay, nothing folded */
	k = forms_kernel("\tadd.s64 %rd3, %rd2, 512;\n\tld.global.u32 %r1, [%rd3];\n"
	                 "\tst.global.u64 [%rd1], %rd3;\n"
	                 "\tadd.s64 %rd4, %rd2, 8;\n\tmov.u64 %rd2, %rd1;\n\tld.global.u32 %r2, [%rd4];\n"
	                 "\tst.global.u32 [%rd1+8], %r2;\n");
	t = psel_lower(k, 80, &msgs);
	ck_assert_msg(t != NULL, "%s", msgs);
	ck_assert_msg(strstr(t, "LDG.E %r1, [%rd3.64]") && strstr(t, "LDG.E %r2, [%rd4.64]"),
	              "folded where it must not:\n%s", t);
	free(t);
	free(msgs);
	free(k);
}
END_TEST

/* the folded accesses compute what the adds did: loads and stores at b+imm+off, on the simulator */
START_TEST(test_run_fold)
{
	static const char body[] =
	    "\tadd.s64 %rd3, %rd2, 8;\n\tld.global.u32 %r1, [%rd3+4];\n"       /* in[3] */
	    "\tadd.s64 %rd4, %rd2, 32;\n\tld.global.v2.u32 {%r2, %r3}, [%rd4+-8];\n" /* in[6], in[7] */
	    "\tadd.s64 %rd5, %rd1, 4;\n\tst.global.u32 [%rd5], %r1;\n"
	    "\tst.global.v2.u32 [%rd5+4], {%r2, %r3};\n"
	    "\tadd.s64 %rd6, %rd1, 16;\n\tst.global.u32 [%rd6], %r1;\n";
	uint32_t in[16] = { 0, 1, 2, 0x33, 4, 5, 0x66, 0x77 };
	uint32_t out[5];

	run_forms(_i, body, in, out, 5);
	ck_assert_uint_eq(out[0], 0xeeeeeeeeu);
	ck_assert_uint_eq(out[1], 0x33);
	ck_assert_uint_eq(out[2], 0x66);
	ck_assert_uint_eq(out[3], 0x77);
	ck_assert_uint_eq(out[4], 0x33);
}
END_TEST

/* mul.wide + add.s64 as one IMAD.WIDE with the addend, as ptxas (lwfold.c); a product that only
 * adds use (Triton's index shared by two tensors) is one IMAD.WIDE per add and never made; one
 * also used as a value stays a mul.wide */
START_TEST(test_isel_fold_wide)
{
	char *k = forms_kernel("\tld.global.u32 %r1, [%rd2];\n\tmul.wide.s32 %rd3, %r1, 4;\n"
	                       "\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n"
	                       "\tmul.wide.u32 %rd5, %r2, 8;\n\tadd.s64 %rd6, %rd5, %rd1;\n"
	                       "\tst.global.u32 [%rd6], %r2;\n"
	                       "\tmul.wide.s32 %rd7, %r1, 4;\n\tadd.s64 %rd8, %rd1, %rd7;\n"
	                       "\tst.global.u64 [%rd8], %rd7;\n"
	                       "\tmul.wide.s32 %rd9, %r2, 2;\n\tadd.s64 %rd10, %rd1, %rd9;\n"
	                       "\tadd.s64 %rd11, %rd9, %rd2;\n\tst.global.u16 [%rd10], %rs1;\n"
	                       "\tst.global.u16 [%rd11], %rs1;\n");
	char *msgs = NULL, *text;

	psel_lowers_to(k, 80, "IMAD.WIDE %rd4, %r1, 0x4, %rd2\nLDG.E %r2, [%rd4.64]\n"
	               "IMAD.WIDE.U32 %rd6, %r2, 0x8, %rd1\nSTG.E [%rd6.64], %r2\n"
	               "IMAD.WIDE %rd7, %r1, 0x4, RZ\n"
	               "IMAD.WIDE %rd10, %r2, 0x2, %rd1\nIMAD.WIDE %rd11, %r2, 0x2, %rd2");
	text = psel_lower(k, 80, &msgs);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(!strstr(text, " %rd9,"), "the shared product is made:\n%s", text);
	free(text);
	free(msgs);
	free(k);
}
END_TEST

/* the folded IMAD.WIDE computes the add's address: out[in[0]] = in[in[0]] */
START_TEST(test_run_fold_wide)
{
	static const char body[] =
	    "\tld.global.u32 %r1, [%rd2];\n\tmul.wide.s32 %rd3, %r1, 4;\n"
	    "\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n"
	    "\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd5, %rd1;\n"
	    "\tst.global.u32 [%rd6], %r2;\n";
	/* the same with one product for both adds (two IMAD.WIDE, no mul) */
	static const char shared[] =
	    "\tld.global.u32 %r1, [%rd2];\n\tmul.wide.s32 %rd3, %r1, 4;\n"
	    "\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n"
	    "\tadd.s64 %rd6, %rd3, %rd1;\n\tst.global.u32 [%rd6], %r2;\n";
	uint32_t in[16] = { 3, 10, 20, 30, 40 };
	uint32_t out[5];

	run_forms(_i % 2, _i < 2 ? body : shared, in, out, 5);
	ck_assert_uint_eq(out[3], 30);
	ck_assert_uint_eq(out[2], 0xeeeeeeeeu);
	ck_assert_uint_eq(out[4], 0xeeeeeeeeu);
}
END_TEST

/* the selection's text writer (lw_buf_printf: its own conversions for %s %d %u %x %c %%, the
 * C library's for the rest and for long lines) writes what snprintf writes */
START_TEST(test_isel_printf)
{
	static char big[700];
	char want[1024];
	LwBuf b = { 0 };
	size_t at;

	memset(big, 'r', sizeof big - 1);
#define SAME(...)                                                                          \
	do {                                                                               \
		at = b.len;                                                                \
		snprintf(want, sizeof want, __VA_ARGS__);                                  \
		lw_buf_printf(&b, __VA_ARGS__);                                            \
		ck_assert_str_eq(b.s + at, want);                                          \
	} while (0)
	SAME("        IMAD %s, %s, 0x%x, %s ;", "%v1", "R2", 0xdeadbeefu, "RZ");
	SAME("%d %d %d %d %d", 0, -1, 7, INT32_MIN, INT32_MAX);
	SAME("%u %u %x %x", 0u, UINT32_MAX, 0u, UINT32_MAX);
	SAME("%c%c 100%% %s", 'P', '0', "");
	SAME("%04x %5d %-3s| %lx", 0x2au, 42, "a", 0x123456789ul);
	SAME("%s%s", big, "tail");
	SAME("%s", "trailing %");
	SAME("no conversion");
#undef SAME
	free(b.s);
}
END_TEST

Suite *
ptx_forms_suite(void)
{
	Suite *s = suite_create("ptx_forms");
	TCase *isel = tcase_create("isel"), *run_ = tcase_create("run");

	tcase_add_test(isel, test_isel_forms);
	tcase_add_test(isel, test_isel_form_errors);
	tcase_add_test(isel, test_isel_refuse_one);
	tcase_add_test(isel, test_isel_targets);
	tcase_add_test(isel, test_isel_assertfail);
	tcase_add_test(isel, test_isel_syscall_errors);
	tcase_add_test(isel, test_isel_vprintf);
	tcase_add_test(isel, test_isel_fold);
	tcase_add_test(isel, test_isel_fold_wide);
	tcase_add_test(isel, test_isel_printf);
	suite_add_tcase(s, isel);
	tcase_set_timeout(run_, 120);
	tcase_add_loop_test(run_, test_run_braced_scalar, 0, 2);
	tcase_add_loop_test(run_, test_run_pack_imm, 0, 2);
	tcase_add_loop_test(run_, test_run_warp_sz, 0, 2);
	tcase_add_loop_test(run_, test_run_fold, 0, 2);
	tcase_add_loop_test(run_, test_run_fold_wide, 0, 4);
	tcase_add_test(run_, test_run_compact_loop);
	suite_add_tcase(s, run_);
	return s;
}
