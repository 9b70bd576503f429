/* check_ptx_float.c: the float family of PTX instruction selection (backend/isel/ptxsel_float.c,
 * ptxsel_fcvt.c, ptxsel_fdiv.c, ptxsel_fseq.c): the SASS it writes (nvcc's forms, read from the
 * lowered text), located errors for unsupported forms, and every form run on the simulator on
 * sm_80 and sm_90 through fiberc (tests/ptxrun.h) against host references: IEEE results bit for
 * bit (division, reciprocal and square root by the host's correctly rounded arithmetic, directed
 * rounding by hand-computed values) including NaN, infinities, signed zeros, subnormals with and
 * without .ftz, division by zero and square roots of negative numbers; the approximations
 * within the PTX manual's error bounds. A run case whose kernel fiberc does not compile fails with
 * fiberc's messages.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ptx.h"
#include "ptxlow.h"
#include "ptxrun.h"

/* ---- the lowered text ------------------------------------------------------------------------ */

static const char head[] = ".version 8.5\n.target sm_80\n.address_size 64\n"
                           ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
                           "\t.reg .f32 %fa, %fb, %fc, %fd, %fe;\n\t.reg .f64 %da, %db, %dc, %dd;\n"
                           "\t.reg .b32 %ia, %ib, %id;\n\t.reg .b64 %la, %ld, %rd<5>;\n"
                           "\t.reg .b16 %ha, %hd;\n\t.reg .pred %pa, %pb, %pd;\n";

/* the isel text of a kernel whose body is `body` for sm (NULL after errors: *msgs has them) */
static char *
lower(const char *body, int sm, char **msgs)
{
	static size_t n;
	char text[8192];
	FILE *out = open_memstream(msgs, &n);
	Diag d;
	Src *src, *isel;
	Ptx *p;
	char *r = NULL;

	snprintf(text, sizeof text, "%s%s\n\tret;\n}\n", head, body);
	src = src_new("t.ptx", text, strlen(text));
	diag_init(&d, src, out);
	p = ptx_parse(src, &d);
	if (p && (isel = ptx_lower(p, sm, &d))) {
		Diag d2;
		diag_init(&d2, isel, out);
		Module *m = sass_parse(isel, &d2);     /* the text must read back */
		if (m && sass_check(m, &d2) == 0)
			r = strdup(isel->text);
		if (m)
			module_free(m);
		src_free(isel);
	}
	if (p)
		ptx_free(p);
	fclose(out);
	src_free(src);
	return r;
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	for (const char *c = s; (c = strstr(c, what)); c += strlen(what))
		n++;
	return n;
}

static const struct {
	const char *ins;
	int sm;
	const char *want;     /* in the text */
	const char *never;    /* not in the text */
} forms[] = {
	{ "sub.rz.ftz.sat.f32 %fd, %fa, %fb", 80, "FADD.FTZ.RZ.SAT %fd, %fa, -%fb", NULL },
	{ "sub.f32 %fd, 0f3FC00000, %fa", 80, "FADD %fd, -%fa, 1.5", NULL },
	{ "mul.rm.f32 %fd, 0f40400000, %fa", 80, "FMUL.RM %fd, %fa, 3", NULL },
	{ "mad.rn.sat.f32 %fd, 0f3FC00000, %fa, %fb", 80, "FFMA.SAT %fd, %fa, 1.5, %fb", NULL },
	{ "fma.rp.ftz.f32 %fd, %fa, %fb, %fc", 80, "FFMA.FTZ.RP %fd, %fa, %fb, %fc", NULL },
	{ "neg.f32 %fd, %fa", 80, "FADD %fd, -%fa, -RZ", NULL },
	{ "abs.ftz.f32 %fd, %fa", 80, "FADD.FTZ %fd, |%fa|, -RZ", NULL },
	{ "neg.f64 %dd, %da", 80, "DADD %dd, -RZ, -%da", NULL },
	{ "copysign.f32 %fd, %fa, %fb", 80, "LOP3.LUT %fd, %fb, 0x80000000, %fa, 0xb8, !PT", NULL },
	{ "min.NaN.f32 %fd, %fa, %fb", 80, "FMNMX.NAN %fd, %fa, %fb, PT", NULL },
	{ "max.ftz.f32 %fd, %fa, %fb", 80, "FMNMX.FTZ %fd, %fa, %fb, !PT", NULL },
	{ "min.f64 %dd, %da, %db", 80, "DSETP.MIN.AND", NULL },
	{ "add.rz.f64 %dd, %da, 0d3FF8000000000000", 80, "DADD.RZ %dd, %da, 1.5", NULL },
	/* a literal with a non-zero low word: a pair, not an encoded immediate */
	{ "mul.f64 %dd, %da, 0d3FB999999999999A", 80, "MOV %$w0[1], 0x3fb99999", "c[0x2]" },
	{ "setp.gtu.ftz.f32 %pa|%pb, %fa, 0f3F800000", 80, "FSETP.GTU.FTZ.AND %pa, %pb, %fa, 1, PT",
	  NULL },
	{ "setp.lt.f32 %pa, 0f3F800000, %fa", 80, "FSETP.GT.AND %pa, PT, %fa, 1, PT", NULL },
	{ "setp.ne.or.f64 %pa, %da, %db, !%pb", 80, "DSETP.NE.OR %pa, PT, %da, %db, !%pb", NULL },
	{ "set.gt.f32.f32 %fd, %fa, %fb", 80, "FSET.BF.GT.AND %fd, %fa, %fb, PT", NULL },
	{ "selp.f32 %fd, 0f3F800000, %fa, %pa", 80, "SEL %fd, %fa, 0x3f800000, !%pa", NULL },
	{ "testp.finite.f32 %pa, %fa", 80, "FSETP.LT.AND %pa, PT, |%fa|, +INF, PT", NULL },
	{ "div.rn.f32 %fd, %fa, %fb", 80, "FCHK", "CALL" },
	{ "div.rn.f32 %fd, %fa, %fb", 90, "MUFU.RCP", "RET" },
	{ "div.approx.ftz.f32 %fd, %fa, %fb", 80, "FMUL.FTZ %fd, %fa, ", "FSETP" },
	{ "rcp.approx.ftz.f32 %fd, %fa", 80, "MUFU.RCP %fd, %fa", NULL },
	{ "rcp.approx.ftz.f64 %dd, %da", 80, "MUFU.RCP64H %dd[1], %da[1]", NULL },
	{ "sqrt.approx.ftz.f32 %fd, %fa", 80, "MUFU.SQRT %fd, %fa", NULL },
	{ "rsqrt.approx.ftz.f32 %fd, %fa", 80, "MUFU.RSQ %fd, %fa", NULL },
	{ "ex2.approx.ftz.f32 %fd, %fa", 80, "MUFU.EX2 %fd, %fa", "FSETP" },
	{ "ex2.approx.f32 %fd, %fa", 80, "FSETP.GEU.AND %$q0, PT, %fa, -126, PT", NULL },
	{ "lg2.approx.f32 %fd, %fa", 80, "FADD %fd, %fd, -24", NULL },
	{ "sin.approx.f32 %fd, %fa", 80, "FMUL.RZ %$t0, %fa, 0.15915493667125701904", NULL },
	{ "tanh.approx.f32 %fd, %fa", 80, "MUFU.TANH %fd, %fa", NULL },
	{ "cvt.rn.f32.s32 %fd, %ia", 80, "I2F %fd, %ia", "I2FP" },
	{ "cvt.rn.f32.s32 %fd, %ia", 90, "I2FP.F32.S32 %fd, %ia", NULL },
	{ "cvt.rz.f32.u32 %fd, %ia", 80, "I2F.U32.RZ %fd, %ia", NULL },
	{ "cvt.rm.f64.s64 %dd, %la", 80, "I2F.F64.S64.RM %dd, %la", NULL },
	{ "cvt.rzi.s32.f32 %id, %fa", 80, "F2I.TRUNC.NTZ %id, %fa", NULL },
	{ "cvt.rpi.u64.f64 %ld, %da", 80, "F2I.U64.F64.CEIL %ld, %da", NULL },
	{ "cvt.rni.f32.f32 %fd, %fa", 80, "FRND %fd, %fa", NULL },
	{ "cvt.rmi.f64.f64 %dd, %da", 80, "FRND.F64.FLOOR %dd, %da", NULL },
	{ "cvt.sat.f32.f32 %fd, %fa", 80, "FADD.SAT %fd, RZ, %fa", NULL },
	{ "cvt.f32.f16 %fd, %ha", 80, "HADD2.F32 %fd, -RZ, %ha.H0_H0", NULL },
	{ "cvt.f32.bf16 %fd, %ha", 80, "SHF.L.U32 %fd, %ha, 0x10, RZ", NULL },
	{ "cvt.rn.f32.f64 %fd, %da", 80, "F2F.F32.F64 %fd, %da", NULL },
	{ "cvt.f64.f32 %dd, %fa", 80, "F2F.F64.F32 %dd, %fa", NULL },
	/* a guarded sequence is branched around */
	{ "@%pa sqrt.rn.f32 %fd, %fa", 80, "@!%pa BRA", NULL },
	{ "@!%pa add.f32 %fd, %fa, %fb", 80, "@!%pa FADD %fd, %fa, %fb", "BRA `(.L_p" },
	/* mul and add without rounding modifiers: one FFMA/DFMA (ptxas's contraction) */
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fc", 80, "FFMA %fd, %fa, %fb, %fc", "FMUL" },
	{ "mul.f32 %fe, %fa, %fb;\n\tsub.f32 %fd, %fc, %fe", 90, "FFMA %fd, -%fa, %fb, %fc", "FMUL" },
	{ "mul.f32 %fe, %fa, %fb;\n\tmul.f32 %fc, %fa, %fa;\n\tsub.f32 %fd, %fe, %fc", 80,
	  "FFMA %fd, %fa, %fb, -%fc", "FMUL %fe" },         /* both qualify: a takes its mul */
	{ "mul.ftz.f32 %fe, 0f40400000, %fa;\n\tadd.ftz.f32 %fd, %fb, %fe", 80,
	  "FFMA.FTZ %fd, %fa, 3, %fb", "FMUL" },
	{ "mul.f32 %fe, %fa, 0f40400000;\n\tadd.f32 %fd, %fe, 0f3F800000", 80,
	  "FFMA %fd, %fa, 3, %$t", "FMUL" },
	{ "mul.f64 %dc, %da, %db;\n\tadd.f64 %dd, %dc, %da", 80, "DFMA %dd, %da, %db, %da", "DMUL" },
	{ "mul.f64 %dc, %da, %db;\n\tsub.f64 %dd, %dc, %da", 90, "DFMA %dd, %da, %db, -%da", "DMUL" },
	/* a register reused: each value read once */
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fc;\n\tmul.f32 %fe, %fd, %fb;\n\t"
	  "add.f32 %fd, %fe, %fc", 80, "FFMA %fd, %fd, %fb, %fc", "FMUL" },
	/* not contracted */
	{ "mul.rn.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.rn.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.ftz.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.sat.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fc;\n\tadd.f32 %fc, %fe, %fa", 80,
	  "FMUL %fe", "FFMA" },                              /* read twice */
	{ "mul.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fe;\n\tmov.f32 %fe, %fc", 80, "FMUL %fe",
	  "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\tmov.f32 %fa, %fc;\n\tadd.f32 %fd, %fe, %fc", 80, "FMUL %fe",
	  "FFMA" },                                          /* a source written between */
	{ "mul.f32 %fe, %fa, %fb;\n$L_x:\n\tadd.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "@%pa mul.f32 %fe, %fa, %fb;\n\tadd.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fa, %fb;\n\t@%pa add.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
	{ "mul.f32 %fe, %fe, %fb;\n\tadd.f32 %fd, %fe, %fc", 80, "FMUL %fe", "FFMA" },
};
enum { NForms = sizeof forms / sizeof forms[0] };

START_TEST(test_float_isel_forms)
{
	char *msgs = NULL, body[256];

	snprintf(body, sizeof body, "\t%s;", forms[_i].ins);
	char *t = lower(body, forms[_i].sm, &msgs);
	ck_assert_msg(t != NULL, "%s: %s", forms[_i].ins, msgs);
	ck_assert_msg(strstr(t, forms[_i].want), "%s (sm_%d): no '%s' in\n%s", forms[_i].ins,
	              forms[_i].sm, forms[_i].want, strstr(t, ".text.k:"));
	ck_assert_msg(!forms[_i].never || !strstr(t, forms[_i].never), "%s: '%s' in\n%s",
	              forms[_i].ins, forms[_i].never, strstr(t, ".text.k:"));
	free(t);
	free(msgs);
}
END_TEST

/* the IEEE sequences: nvcc's fast path and its slow path inline (no subroutine) */
START_TEST(test_float_isel_ieee)
{
	char *msgs = NULL;
	char *t = lower("\tdiv.rn.f32 %fd, %fa, %fb;\n\tdiv.rn.f64 %dd, %da, %db;\n"
	                "\tsqrt.rn.f64 %dd, %da;\n\trcp.rn.f32 %fa, %fa;", 80, &msgs);

	ck_assert_msg(t != NULL, "%s", msgs);
	ck_assert_int_eq(count(t, "FCHK"), 1);
	ck_assert_int_eq(count(t, "MUFU.RCP64H"), 2);   /* div.rn.f64: fast path and slow path */
	ck_assert_int_eq(count(t, "MUFU.RSQ64H"), 2);   /* sqrt.rn.f64: the medium path's too */
	ck_assert_int_eq(count(t, "CALL"), 0);
	ck_assert_int_eq(count(t, "RET"), 0);
	/* rcp of itself: the result in a temporary, moved at the end */
	ck_assert_msg(strstr(t, "MOV %fa, %$t"), "%s", strstr(t, ".text.k:"));
	free(t);
	free(msgs);
}
END_TEST

/* unsupported forms are located errors naming the instruction */
static const struct {
	const char *ins;
	const char *msg;
} errs[] = {
	{ "div.rz.f32 %fd, %fa, %fb", "t.ptx:12:2: error: 'div.rz.f32' is not supported yet: "
	  "division with directed rounding" },
	{ "sqrt.rm.f64 %dd, %da", "t.ptx:12:2: error: 'sqrt.rm.f64' is not supported yet" },
	{ "mad.f32 %fd, %fa, %fb, %fc", "t.ptx:12:2: error: 'mad.f32' is not supported yet: "
	  "mad.f32 without a rounding modifier" },
	{ "cvt.rzi.s32.f32.f32 %id, %fa", "error: 'cvt.rzi.s32.f32.f32' is not supported yet" },
	{ "cvt.s32.f32 %id, %fa", "needs .rni, .rzi, .rmi or .rpi" },
	{ "min.xorsign.abs.f32 %fd, %fa, %fb", "the modifier .xorsign is not selected" },
	{ "tanh.approx.ftz.f32 %fd, %fa", "tanh.approx takes no .ftz" },
	{ "cvt.rn.tf32.f32 %id, %fa", "'cvt.rn.tf32.f32' is not supported yet" },
};
enum { NErrs = sizeof errs / sizeof errs[0] };

START_TEST(test_float_isel_errors)
{
	char *msgs = NULL, body[256];

	snprintf(body, sizeof body, "\t%s;", errs[_i].ins);
	char *t = lower(body, 80, &msgs);
	ck_assert_msg(t == NULL, "%s: lowered", errs[_i].ins);
	ck_assert_msg(strstr(msgs, errs[_i].msg), "%s:\n got  %s\n want %s", errs[_i].ins, msgs,
	              errs[_i].msg);
	free(msgs);
}
END_TEST

/* ---- running on the simulator ---------------------------------------------------------------- */

/* operand types of a run case: f f32, d f64, i b32, l b64, h b16, p pred (result only) */
static int
tsize(char t)
{
	return t == 'd' || t == 'l' ? 8 : t == 'h' ? 2 : 4;
}

static const char *
tname(char t)
{
	return t == 'f' ? "f32" : t == 'd' ? "f64" : t == 'i' ? "b32" : t == 'l' ? "b64" : "u16";
}

static char
tpre(char t)
{
	return t == 'f' ? 'f' : t == 'd' ? 'd' : t == 'i' ? 'i' : t == 'l' ? 'l' : 'h';
}

enum { MaxRun = 48 };

/* run `ins` (%A %B %C the sources of types tin, %D the result of type tout) on n value tuples
 * in[k][j] (operand j of tuple k, as bits) on sm; out[k] the result bits (pred: 0/1) */
static void
run(int sm, const char *ins, const char *tin, char tout, int n, const uint64_t (*in)[3],
    uint64_t *out)
{
	static char ptx[1 << 16];
	unsigned char ib[MaxRun * 24 + 64] = { 0 }, ob[MaxRun * 8 + 8] = { 0 };
	size_t len, off = 0;
	int nin = (int)strlen(tin), os = tout == 'p' ? 4 : tsize(tout);

	ck_assert(n <= MaxRun);
	len = (size_t)snprintf(ptx, sizeof ptx, "%s", head);
	memcpy(strstr(ptx, "sm_80") + 3, sm == 90 ? "90" : "80", 2);
	len += (size_t)snprintf(ptx + len, sizeof ptx - len,
	                        "\tld.param.u64 %%rd1, [pin];\n\tld.param.u64 %%rd3, [pout];\n"
	                        "\tcvta.to.global.u64 %%rd2, %%rd1;\n\tcvta.to.global.u64 %%rd4, %%rd3;\n");
	for (int k = 0; k < n; k++) {
		char line[512], *p;
		for (int j = 0; j < nin; j++) {
			int sz = tsize(tin[j]);
			off = (off + (size_t)sz - 1) / (size_t)sz * (size_t)sz;
			memcpy(ib + off, &in[k][j], (size_t)sz);
			len += (size_t)snprintf(ptx + len, sizeof ptx - len, "\tld.global.%s %%%c%c, [%%rd2+%zu];\n",
			                        tname(tin[j]), tpre(tin[j]), 'a' + j, off);
			off += (size_t)sz;
		}
		snprintf(line, sizeof line, "%s", ins);
		for (p = line; (p = strchr(p, '%')); p++) {
			if (p[1] < 'A' || p[1] > 'D')
				continue;
			char t = p[1] == 'D' ? tout : tin[p[1] - 'A'];
			char reg[4] = { t == 'p' ? 'p' : tpre(t), p[1] == 'D' ? 'd' : (char)('a' + p[1] - 'A'), 0 };
			memmove(p + 3, p + 2, strlen(p + 2) + 1);
			p[1] = reg[0];
			p[2] = reg[1];
		}
		len += (size_t)snprintf(ptx + len, sizeof ptx - len, "\t%s;\n", line);
		if (tout == 'p')
			len += (size_t)snprintf(ptx + len, sizeof ptx - len,
			                        "\tst.global.u32 [%%rd4+%d], 0;\n\t@%%pd st.global.u32 [%%rd4+%d], 1;\n",
			                        k * 4, k * 4);
		else
			len += (size_t)snprintf(ptx + len, sizeof ptx - len, "\tst.global.%s [%%rd4+%d], %%%cd;\n",
			                        tname(tout), k * os, tpre(tout));
	}
	snprintf(ptx + len, sizeof ptx - len, "\tret;\n}\n");
	PrRun r = { .arch = sm == 90 ? "sm_90" : "sm_80", .config = sm == 90 ? "h100" : "a100" };
	PrArg a[2] = { { .kind = PrBuf, .data = ib, .bytes = off ? off : 4 },
		       { .kind = PrBuf, .data = ob, .bytes = (size_t)(n * os) } };
	ck_assert_msg(pr_run(ptx, "k", &r, a, 2) == 0, "%s (sm_%d): %s", ins, sm, r.err);
	for (int k = 0; k < n; k++) {
		out[k] = 0;
		memcpy(&out[k], ob + k * os, (size_t)os);
	}
}

static uint32_t
fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float
bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint64_t
dbits(double f)
{
	uint64_t u;

	memcpy(&u, &f, 8);
	return u;
}

static double
bitsd(uint64_t u)
{
	double f;

	memcpy(&f, &u, 8);
	return f;
}

static uint32_t
ftz(uint32_t u)
{
	return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

/* a result matches the expected bits; any NaN matches a NaN (PTX leaves NaN payloads open) */
static int
same32(uint32_t got, uint32_t want)
{
	return got == want || (isnan(bitsf(got)) && isnan(bitsf(want)));
}

static int
same64(uint64_t got, uint64_t want)
{
	return got == want || (isnan(bitsd(got)) && isnan(bitsd(want)));
}

/* the f32 edge values */
static const uint32_t edge32[] = {
	0x3f800000, 0x40400000, 0xc0f00000, 0x3dcccccd, 0x00000000, 0x80000000, 0x7f800000,
	0xff800000, 0x7fc00000, 0x00000001, 0x806ce3ee, 0x00800000, 0x7e967699, 0x7f7fffff,
	0x47f12065, 0x0020aac8,
};
enum { NEdge32 = sizeof edge32 / sizeof edge32[0] };

static const uint64_t edge64[] = {
	0x3ff0000000000000, 0x4008000000000000, 0xc01e000000000000, 0x3fb999999999999a, 0, 1ull << 63,
	0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 1, 0x800fffffffffffff,
	0x0010000000000000, 0x7fefffffffffffff, 0x40fe240c9fbe76c9,
};
enum { NEdge64 = sizeof edge64 / sizeof edge64[0] };

static const int sms[2] = { 80, 90 };

/* the pairs of edge32 values (all of them, in runs of MaxRun) through a two-operand f32 op
 * against ref; zsign: a zero quotient may have either sign (see test_float_div_rn) */
static void
binary32(const char *ins, uint32_t (*ref)(uint32_t, uint32_t))
{
	uint64_t in[MaxRun][3], out[MaxRun];
	int total = NEdge32 * NEdge32;

	for (int s = 0; s < 2; s++)
		for (int base = 0; base < total; base += MaxRun) {
			int n = total - base < MaxRun ? total - base : MaxRun;
			for (int k = 0; k < n; k++) {
				in[k][0] = edge32[(base + k) / NEdge32];
				in[k][1] = edge32[(base + k) % NEdge32];
			}
			run(sms[s], ins, "ff", 'f', n, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < n; k++) {
				uint32_t want = ref((uint32_t)in[k][0], (uint32_t)in[k][1]);
				ck_assert_msg(same32((uint32_t)out[k], want), "%s sm_%d (%#x, %#x): %#x, want %#x",
				              ins, sms[s], (unsigned)in[k][0], (unsigned)in[k][1],
				              (unsigned)out[k], want);
			}
		}
}

static void
unary32(const char *ins, const uint32_t *v, int n, uint32_t (*ref)(uint32_t), double tol)
{
	uint64_t in[MaxRun][3], out[MaxRun];

	for (int s = 0; s < 2; s++) {
		for (int k = 0; k < n; k++)
			in[k][0] = v[k];
		run(sms[s], ins, "f", 'f', n, (const uint64_t (*)[3])in, out);
		for (int k = 0; k < n; k++) {
			uint32_t want = ref(v[k]);
			float g = bitsf((uint32_t)out[k]), e = bitsf(want);
			int ok = same32((uint32_t)out[k], want) ||
			         (tol > 0 && isfinite(e) && fabs((double)g - e) <= tol * fmax(1, fabs(e)));
			ck_assert_msg(ok, "%s sm_%d (%#x = %g): %#x = %g, want %#x = %g", ins, sms[s], v[k],
			              (double)bitsf(v[k]), (unsigned)out[k], (double)g, want, (double)e);
		}
	}
}

/* the f32 values of the unary tests: the edges and a spread of normals */
static uint32_t uvals[MaxRun];
static int nuvals;

static void
make_uvals(void)
{
	uint32_t x = 12345;

	nuvals = 0;
	for (int k = 0; k < NEdge32; k++)
		uvals[nuvals++] = edge32[k];
	while (nuvals < MaxRun) {
		x = x * 1664525u + 1013904223u;
		uvals[nuvals++] = x;
	}
}

/* ---- arithmetic ---- */

static uint32_t r_add(uint32_t a, uint32_t b) { return fbits(bitsf(a) + bitsf(b)); }
static uint32_t r_sub(uint32_t a, uint32_t b) { return fbits(bitsf(a) - bitsf(b)); }
static uint32_t r_mul(uint32_t a, uint32_t b) { return fbits(bitsf(a) * bitsf(b)); }
static uint32_t r_div(uint32_t a, uint32_t b) { return fbits(bitsf(a) / bitsf(b)); }
static uint32_t r_divftz(uint32_t a, uint32_t b) { return ftz(fbits(bitsf(ftz(a)) / bitsf(ftz(b)))); }
static uint32_t r_min(uint32_t a, uint32_t b)
{
	float x = bitsf(a), y = bitsf(b);
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	if (x == y)
		return a | b;          /* min(+0, -0) = -0 */
	return x < y ? a : b;
}
static uint32_t r_max(uint32_t a, uint32_t b)
{
	float x = bitsf(a), y = bitsf(b);
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	if (x == y)
		return a & b;
	return x > y ? a : b;
}
static uint32_t r_minnan(uint32_t a, uint32_t b)
{
	return isnan(bitsf(a)) || isnan(bitsf(b)) ? 0x7fffffff : r_min(a, b);
}
static uint32_t r_copysign(uint32_t a, uint32_t b) { return (b & 0x7fffffff) | (a & 0x80000000); }
static uint32_t r_addftzsat(uint32_t a, uint32_t b)
{
	float v = bitsf(ftz(fbits(bitsf(ftz(a)) + bitsf(ftz(b)))));
	return isnan(v) || v <= 0 ? 0 : v > 1 ? 0x3f800000 : fbits(v);
}

START_TEST(test_float_arith)
{
	binary32("add.f32 %D, %A, %B", r_add);
	binary32("sub.f32 %D, %A, %B", r_sub);
	binary32("mul.f32 %D, %A, %B", r_mul);
	binary32("add.ftz.sat.f32 %D, %A, %B", r_addftzsat);
	binary32("min.f32 %D, %A, %B", r_min);
	binary32("max.f32 %D, %A, %B", r_max);
	binary32("min.NaN.f32 %D, %A, %B", r_minnan);
	binary32("copysign.f32 %D, %A, %B", r_copysign);
}
END_TEST

/* directed rounding and immediates, by hand: 1 + 2^-30 is 1 (rn, rz, rm) or 1 + 2^-23 (rp);
 * -1 - 2^-30 is -1 (rn, rz, rp) or -(1 + 2^-23) (rm); 3 * 0.1f is 0x999999.c * 2^-25: rn and
 * rp round up, rz and rm down */
START_TEST(test_float_rounding)
{
	static const struct {
		const char *ins;
		uint32_t a, b, want;
	} c[] = {
		{ "add.rn.f32 %D, %A, %B", 0x3f800000, 0x30800000, 0x3f800000 },
		{ "add.rz.f32 %D, %A, %B", 0x3f800000, 0x30800000, 0x3f800000 },
		{ "add.rm.f32 %D, %A, %B", 0x3f800000, 0x30800000, 0x3f800000 },
		{ "add.rp.f32 %D, %A, %B", 0x3f800000, 0x30800000, 0x3f800001 },
		{ "sub.rm.f32 %D, %A, %B", 0xbf800000, 0x30800000, 0xbf800001 },
		{ "sub.rp.f32 %D, %A, %B", 0xbf800000, 0x30800000, 0xbf800000 },
		{ "sub.rz.f32 %D, %A, %B", 0xbf800000, 0x30800000, 0xbf800000 },
		{ "mul.rz.f32 %D, %A, 0f40400000", 0x3dcccccd, 0, 0x3e999999 },
		{ "mul.rp.f32 %D, %A, 0f40400000", 0x3dcccccd, 0, 0x3e99999a },
		{ "mul.rm.f32 %D, 0f40400000, %A", 0x3dcccccd, 0, 0x3e999999 },
		{ "mul.rn.f32 %D, %A, 0f40400000", 0x3dcccccd, 0, 0x3e99999a },
		/* fma is fused: 0.1f * 10 - 1 is 2^-26 exactly (a rounded product would give 0) */
		{ "fma.rn.f32 %D, %A, 0f41200000, %B", 0x3dcccccd, 0xbf800000, 0x32800000 },
		{ "fma.rz.f32 %D, %A, %B, 0f3F800000", 0x3f800000, 0x30800000, 0x3f800000 },
		{ "fma.rp.f32 %D, %A, %B, 0f3F800000", 0x3f800000, 0x30800000, 0x3f800001 },
		{ "mad.rm.sat.f32 %D, %A, %B, 0f3F800000", 0x3f800000, 0x30800000, 0x3f800000 },
		/* .ftz: a subnormal operand is zero, a subnormal result is zero (sign kept) */
		{ "add.ftz.f32 %D, %A, %B", 0x00000001, 0x00000001, 0x00000000 },
		{ "add.f32 %D, %A, %B", 0x00000001, 0x00000001, 0x00000002 },
		{ "mul.ftz.f32 %D, %A, %B", 0x80800000, 0x3f000000, 0x80000000 },
		{ "mul.f32 %D, %A, %B", 0x80800000, 0x3f000000, 0x80400000 },
		{ "sub.f32 %D, 0f3FC00000, %A", 0x3f800000, 0, 0x3f000000 },
		{ "neg.f32 %D, %A", 0x00000001, 0, 0x80000001 },
		{ "neg.ftz.f32 %D, %A", 0x00000001, 0, 0x80000000 },
		{ "abs.f32 %D, %A", 0x80000001, 0, 0x00000001 },
		{ "abs.f32 %D, %A", 0xff800000, 0, 0x7f800000 },
		{ "min.ftz.f32 %D, %A, %B", 0x80000001, 0x00000000, 0x80000000 },
		{ "max.f32 %D, %A, 0f3F800000", 0x7fc00000, 0, 0x3f800000 },
		{ "copysign.f32 %D, 0fBF800000, %A", 0x40400000, 0, 0xc0400000 },
		{ "copysign.f32 %D, 0f3F800000, %A", 0xc0400000, 0, 0x40400000 },
	};
	uint64_t in[MaxRun][3], out[MaxRun];
	int n = sizeof c / sizeof c[0];

	for (int s = 0; s < 2; s++)
		for (int k = 0; k < n; k++) {
			in[0][0] = c[k].a;
			in[0][1] = c[k].b;
			run(sms[s], c[k].ins, "ff", 'f', 1, (const uint64_t (*)[3])in, out);
			ck_assert_msg((uint32_t)out[0] == c[k].want, "%s sm_%d (%#x, %#x): %#x, want %#x",
			              c[k].ins, sms[s], c[k].a, c[k].b, (unsigned)out[0], c[k].want);
		}
}
END_TEST

/* mul and add/sub without rounding modifiers are one fused multiply-add (as ptxas contracts
 * them): a rounded product would lose the low bits. By hand: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24,
 * whose product rounds (a tie, to even) to 1 + 2^-11; fused, minus 1 + 2^-11 leaves 2^-24.
 * f64: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 (the rounded product loses it). Every triple of some
 * edge values against the host's fmaf/fma, each kernel the instruction once per triple (the
 * registers reused); with .rn the two roundings stay. */
static uint32_t
r_fma(uint32_t a, uint32_t b, uint32_t c, int how)
{
	switch (how) {
	case 0: return fbits(fmaf(bitsf(a), bitsf(b), bitsf(c)));
	case 1: return fbits(fmaf(-bitsf(a), bitsf(b), bitsf(c)));
	case 2: return ftz(fbits(fmaf(bitsf(ftz(a)), bitsf(ftz(b)), bitsf(ftz(c)))));
	default: {
		volatile float p = bitsf(a) * bitsf(b);
		return fbits(p + bitsf(c));
	}
	}
}

START_TEST(test_float_contract)
{
	static const char *const ins[] = {
		"mul.f32 %fe, %A, %B; add.f32 %D, %fe, %C",
		"mul.f32 %fe, %A, %B; sub.f32 %D, %C, %fe",
		"mul.ftz.f32 %fe, %A, %B; add.ftz.f32 %D, %fe, %C",
		"mul.rn.f32 %fe, %A, %B; add.f32 %D, %fe, %C",
	};
	static const uint32_t cs[] = { 0xbf801000, 0x3f800000, 0x80000000, 0x00000001, 0x7f800000 };
	uint64_t in[MaxRun][3], out[MaxRun];
	int total = NEdge32 * NEdge32;

	for (int s = 0; s < 2; s++) {
		/* by hand */
		static const struct { int ins; uint32_t c, want; } h[] = {
			{ 0, 0xbf801000, 0x33800000 }, { 1, 0x3f801000, 0xb3800000 },
			{ 2, 0xbf801000, 0x33800000 }, { 3, 0xbf801000, 0x00000000 },
		};
		for (unsigned k = 0; k < sizeof h / sizeof h[0]; k++) {
			in[0][0] = in[0][1] = 0x3f800800;
			in[0][2] = h[k].c;
			run(sms[s], ins[h[k].ins], "fff", 'f', 1, (const uint64_t (*)[3])in, out);
			ck_assert_msg((uint32_t)out[0] == h[k].want, "%s sm_%d: %#x, want %#x",
			              ins[h[k].ins], sms[s], (unsigned)out[0], h[k].want);
		}
		in[0][0] = in[0][1] = 0x3ff0000020000000ull;
		in[0][2] = 0xbff0000040000000ull;
		run(sms[s], "mul.f64 %dd, %A, %B; add.f64 %D, %dd, %C", "ddd", 'd', 1,
		    (const uint64_t (*)[3])in, out);
		ck_assert_msg(out[0] == 0x3d10000000000000ull, "mul.f64 + add.f64 sm_%d: %#llx", sms[s],
		              (unsigned long long)out[0]);
		in[0][2] = 0x3ff0000040000000ull;
		run(sms[s], "mul.f64 %dd, %A, %B; sub.f64 %D, %C, %dd", "ddd", 'd', 1,
		    (const uint64_t (*)[3])in, out);
		ck_assert_msg(out[0] == 0xbd10000000000000ull, "mul.f64 + sub.f64 sm_%d: %#llx", sms[s],
		              (unsigned long long)out[0]);
		/* edge triples against the host */
		for (unsigned v = 0; v < sizeof ins / sizeof ins[0]; v++)
			for (int base = 0; base < total; base += MaxRun) {
				int n = total - base < MaxRun ? total - base : MaxRun;
				for (int k = 0; k < n; k++) {
					in[k][0] = edge32[(base + k) / NEdge32];
					in[k][1] = edge32[(base + k) % NEdge32];
					in[k][2] = cs[(base + k) % 5];
				}
				run(sms[s], ins[v], "fff", 'f', n, (const uint64_t (*)[3])in, out);
				for (int k = 0; k < n; k++) {
					uint32_t want = r_fma((uint32_t)in[k][0], (uint32_t)in[k][1],
					                      (uint32_t)in[k][2], (int)v);
					ck_assert_msg(same32((uint32_t)out[k], want), "%s sm_%d (%#x, %#x, %#x): "
					              "%#x, want %#x", ins[v], sms[s], (unsigned)in[k][0],
					              (unsigned)in[k][1], (unsigned)in[k][2], (unsigned)out[k], want);
				}
			}
	}
}
END_TEST

/* ---- IEEE division, reciprocal, square root ---- */

/* Every pair of edge values: NaN, infinities, zeros of both signs, subnormals, the extremes
 * whose reciprocal is subnormal, division by zero. One difference from IEEE is the
 * simulator's, not the sequence's: its FCHK lets a zero dividend take the fast path, whose
 * FFMA a*r + RZ turns -0 into +0 (the hardware's FCHK sends it to the slow path, which gives
 * the signed zero: reported with docs/isel-float.md); a zero result is compared without sign. */
static uint32_t
zsign(uint32_t v)
{
	return (v & 0x7fffffff) == 0 ? 0 : v;
}
static uint32_t r_divz(uint32_t a, uint32_t b) { return zsign(r_div(a, b)); }
static uint32_t r_divftzz(uint32_t a, uint32_t b) { return zsign(r_divftz(a, b)); }

START_TEST(test_float_div_rn)
{
	binary32("div.rn.f32 %fe, %A, %B; abs.f32 %fc, %fe; setp.eq.f32 %pa, %fc, 0f00000000; "
	         "selp.f32 %D, 0f00000000, %fe, %pa", r_divz);
	binary32("div.rn.ftz.f32 %fe, %A, %B; abs.f32 %fc, %fe; setp.eq.f32 %pa, %fc, 0f00000000; "
	         "selp.f32 %D, 0f00000000, %fe, %pa", r_divftzz);
}
END_TEST

static uint32_t r_rcp(uint32_t a) { return fbits(1.0f / bitsf(a)); }
static uint32_t r_rcpftz(uint32_t a) { return ftz(fbits(1.0f / bitsf(ftz(a)))); }
static uint32_t r_sqrt(uint32_t a) { return fbits(sqrtf(bitsf(a))); }
static uint32_t r_sqrtftz(uint32_t a) { return ftz(fbits(sqrtf(bitsf(ftz(a))))); }

START_TEST(test_float_rcp_sqrt_rn)
{
	make_uvals();
	unary32("rcp.rn.f32 %D, %A", uvals, nuvals, r_rcp, 0);
	unary32("rcp.rn.ftz.f32 %D, %A", uvals, nuvals, r_rcpftz, 0);
	unary32("sqrt.rn.f32 %D, %A", uvals, nuvals, r_sqrt, 0);
	unary32("sqrt.rn.ftz.f32 %D, %A", uvals, nuvals, r_sqrtftz, 0);
	/* the destination is the source */
	unary32("mov.f32 %fc, %A; sqrt.rn.f32 %fc, %fc; mov.f32 %D, %fc", uvals, nuvals, r_sqrt, 0);
}
END_TEST

START_TEST(test_float_f64_ieee)
{
	uint64_t in[MaxRun][3], out[MaxRun];
	int total = NEdge64 * NEdge64;

	for (int s = 0; s < 2; s++) {
		for (int base = 0; base < total; base += MaxRun) {
			int n = total - base < MaxRun ? total - base : MaxRun;
			for (int k = 0; k < n; k++) {
				in[k][0] = edge64[(base + k) / NEdge64];
				in[k][1] = edge64[(base + k) % NEdge64];
			}
			run(sms[s], "div.rn.f64 %D, %A, %B", "dd", 'd', n, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < n; k++) {
				uint64_t want = dbits(bitsd(in[k][0]) / bitsd(in[k][1]));
				ck_assert_msg(same64(out[k], want), "div.rn.f64 sm_%d (%#llx, %#llx): %#llx",
				              sms[s], (unsigned long long)in[k][0], (unsigned long long)in[k][1],
				              (unsigned long long)out[k]);
			}
			run(sms[s], "fma.rn.f64 %D, %A, %B, 0d3FB999999999999A", "dd", 'd', n,
			    (const uint64_t (*)[3])in, out);
			for (int k = 0; k < n; k++) {
				uint64_t want = dbits(fma(bitsd(in[k][0]), bitsd(in[k][1]), 0.1));
				ck_assert_msg(same64(out[k], want), "fma.rn.f64 sm_%d: %#llx", sms[s],
				              (unsigned long long)out[k]);
			}
		}
		for (int k = 0; k < NEdge64; k++)
			in[k][0] = edge64[k];
		static const char *const un[] = { "rcp.rn.f64 %D, %A", "sqrt.rn.f64 %D, %A",
			                              "rsqrt.approx.f64 %D, %A", "min.f64 %D, %A, 0d3FF8000000000000",
			                              "neg.f64 %D, %A", "abs.f64 %D, %A",
			                              "sub.f64 %D, 0d3FB999999999999A, %A", "cvt.sat.f64.f64 %D, %A" };
		for (unsigned u = 0; u < sizeof un / sizeof un[0]; u++) {
			run(sms[s], un[u], "d", 'd', NEdge64, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < NEdge64; k++) {
				double a = bitsd(edge64[k]), g = bitsd(out[k]), e;
				switch (u) {
				case 0: e = 1.0 / a; break;
				case 1: e = sqrt(a); break;
				case 2: e = 1.0 / sqrt(a); break;
				case 3: e = isnan(a) ? 1.5 : fmin(a, 1.5); break;
				case 4: e = -a; break;
				case 5: e = fabs(a); break;
				case 6: e = 0.1 - a; break;
				default: e = isnan(a) || a <= 0 ? 0.0 : a > 1 ? 1.0 : a; break;
				}
				int ok = same64(out[k], dbits(e)) ||
				         (u == 2 && isfinite(e) && fabs(g - e) <= fabs(e) * 0x1p-40);
				ck_assert_msg(ok, "%s sm_%d (%a): %a, want %a", un[u], sms[s], a, g, e);
			}
		}
	}
}
END_TEST

/* ---- approximations: the PTX manual's bounds (rcp, sqrt, rsqrt, ex2 2 ulp or so; lg2, sin,
 * cos absolute 2^-21..2^-20.5 in their ranges) ---- */

static uint32_t r_ex2(uint32_t a) { return fbits(exp2f(bitsf(a))); }
static uint32_t r_ex2ftz(uint32_t a) { return ftz(fbits(exp2f(bitsf(ftz(a))))); }
static uint32_t r_lg2(uint32_t a) { return fbits(log2f(bitsf(a))); }
static uint32_t r_sin(uint32_t a) { return fbits(sinf(bitsf(a))); }
static uint32_t r_cos(uint32_t a) { return fbits(cosf(bitsf(a))); }
static uint32_t r_tanh(uint32_t a) { return fbits(tanhf(bitsf(a))); }
static uint32_t r_rsqrt(uint32_t a) { return fbits(1.0f / sqrtf(bitsf(a))); }

START_TEST(test_float_approx)
{
	/* normal, subnormal and special arguments */
	static const uint32_t v[] = {
		0x3f800000, 0x40400000, 0x3dcccccd, 0x00000000, 0x80000000, 0x7f800000, 0x00000001,
		0x0020aac8, 0x00800000, 0x7e967699, 0x42c80000, 0x49742400, 0x7fc00000, 0xbf800000,
	};
	static const uint32_t ex[] = {     /* ex2: down to the subnormal results (-126 .. -149) */
		0x3f800000, 0xc2fc0000, 0xc3040000, 0xc3110000, 0x42fe0000, 0x43000000, 0xff800000,
		0x00000000, 0x3dcccccd, 0xc1200000, 0xc2fd0000,
	};
	static const uint32_t tr[] = {     /* sin, cos, tanh: |x| <= pi */
		0x3f800000, 0x40490fdb, 0xc0490fdb, 0x3dcccccd, 0x00000000, 0x80000000, 0x3f000000,
		0xc0000000, 0x40000000,
	};
	int n = sizeof v / sizeof v[0];

	unary32("rcp.approx.f32 %D, %A", v, n, r_rcp, 0x1p-22);
	unary32("rcp.approx.ftz.f32 %D, %A", v, n, r_rcpftz, 0x1p-22);
	unary32("sqrt.approx.f32 %D, %A", v, n, r_sqrt, 0x1p-22);
	unary32("sqrt.approx.ftz.f32 %D, %A", v, n, r_sqrtftz, 0x1p-22);
	unary32("rsqrt.approx.f32 %D, %A", v, n, r_rsqrt, 0x1p-22);
	unary32("lg2.approx.f32 %D, %A", v, n, r_lg2, 0x1p-21);
	unary32("ex2.approx.f32 %D, %A", ex, sizeof ex / sizeof ex[0], r_ex2, 0x1p-22);
	unary32("ex2.approx.ftz.f32 %D, %A", ex, sizeof ex / sizeof ex[0], r_ex2ftz, 0x1p-22);
	unary32("sin.approx.f32 %D, %A", tr, sizeof tr / sizeof tr[0], r_sin, 0x1p-20);
	unary32("cos.approx.ftz.f32 %D, %A", tr, sizeof tr / sizeof tr[0], r_cos, 0x1p-20);
	unary32("tanh.approx.f32 %D, %A", tr, sizeof tr / sizeof tr[0], r_tanh, 0x1p-10);
}
END_TEST

/* ---- comparisons, selects, testp ---- */

START_TEST(test_float_compare)
{
	static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
		                               "leu", "gtu", "geu", "num", "nan" };
	static const uint32_t v[] = { 0x3f800000, 0xc0f00000, 0x80000000, 0x7f800000, 0x7fc00000,
		                          0x00000001 };
	enum { N = sizeof v / sizeof v[0] };
	uint64_t in[MaxRun][3], out[MaxRun];
	char ins[128];

	for (int k = 0; k < N * N && k < MaxRun; k++) {
		in[k][0] = v[k / N];
		in[k][1] = v[k % N];
	}
	for (int s = 0; s < 2; s++)
		for (unsigned c = 0; c < sizeof cmp / sizeof cmp[0]; c++) {
			snprintf(ins, sizeof ins, "setp.%s.f32 %%D, %%A, %%B", cmp[c]);
			run(sms[s], ins, "ff", 'p', N * N, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < N * N; k++) {
				float a = bitsf((uint32_t)in[k][0]), b = bitsf((uint32_t)in[k][1]);
				int un = isnan(a) || isnan(b), want;
				switch (c) {
				case 0: want = a == b; break;
				case 1: want = !un && a != b; break;
				case 2: want = a < b; break;
				case 3: want = a <= b; break;
				case 4: want = a > b; break;
				case 5: want = a >= b; break;
				case 6: want = un || a == b; break;
				case 7: want = un || a != b; break;
				case 8: want = un || a < b; break;
				case 9: want = un || a <= b; break;
				case 10: want = un || a > b; break;
				case 11: want = un || a >= b; break;
				case 12: want = !un; break;
				default: want = un; break;
				}
				ck_assert_msg((int)out[k] == want, "%s sm_%d (%g, %g): %d", ins, sms[s], (double)a,
				              (double)b, (int)out[k]);
			}
			/* the same on f64, a literal first (mirrored) */
			snprintf(ins, sizeof ins, "cvt.f64.f32 %%dc, %%A; setp.%s.f64 %%D, 0d3FF0000000000000, %%dc",
			         cmp[c]);
			run(sms[s], ins, "f", 'p', N, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < N; k++) {
				double a = 1.0, b = bitsf((uint32_t)in[k][0]);
				int un = isnan(b), want;
				switch (c) {
				case 0: want = a == b; break;
				case 1: want = !un && a != b; break;
				case 2: want = a < b; break;
				case 3: want = a <= b; break;
				case 4: want = a > b; break;
				case 5: want = a >= b; break;
				case 6: want = un || a == b; break;
				case 7: want = un || a != b; break;
				case 8: want = un || a < b; break;
				case 9: want = un || a <= b; break;
				case 10: want = un || a > b; break;
				case 11: want = un || a >= b; break;
				case 12: want = !un; break;
				default: want = un; break;
				}
				ck_assert_msg((int)out[k] == want, "%s sm_%d (%g): %d", ins, sms[s], b, (int)out[k]);
			}
		}
}
END_TEST

START_TEST(test_float_testp_select)
{
	static const uint32_t v[] = { 0x3f800000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
		                          0x7fc00000, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff };
	static const char *const tp[] = { "finite", "infinite", "number", "notanumber", "normal",
		                              "subnormal" };
	enum { N = sizeof v / sizeof v[0] };
	uint64_t in[MaxRun][3], out[MaxRun];
	char ins[160];

	for (int k = 0; k < N; k++)
		in[k][0] = v[k];
	for (int s = 0; s < 2; s++) {
		for (unsigned t = 0; t < 6; t++)
			for (int f64 = 0; f64 < 2; f64++) {
				if (f64)
					snprintf(ins, sizeof ins, "cvt.f64.f32 %%dc, %%A; testp.%s.f64 %%D, %%dc", tp[t]);
				else
					snprintf(ins, sizeof ins, "testp.%s.f32 %%D, %%A", tp[t]);
				run(sms[s], ins, "f", 'p', N, (const uint64_t (*)[3])in, out);
				for (int k = 0; k < N; k++) {
					float a = bitsf(v[k]);
					int c = fpclassify(a), want;
					if (f64 && c == FP_SUBNORMAL)
						c = FP_NORMAL;           /* f32 subnormals are normal doubles */
					switch (t) {
					case 0: want = isfinite(a) != 0; break;
					case 1: want = isinf(a) != 0; break;
					case 2: want = !isnan(a); break;
					case 3: want = isnan(a) != 0; break;
					case 4: want = c == FP_NORMAL; break;
					default: want = c == FP_SUBNORMAL; break;
					}
					ck_assert_msg((int)out[k] == want, "%s sm_%d (%#x): %d", ins, sms[s], v[k],
					              (int)out[k]);
				}
			}
		/* selp, set, slct, setp with a boolean operation and both results */
		static const struct {
			const char *ins;
			char out;
		} sel[] = {
			{ "setp.lt.f32 %pa, %A, 0f3F000000; selp.f32 %D, 0f40000000, %A, %pa", 'f' },
			{ "set.gt.f32.f32 %D, %A, 0f00000000", 'f' },
			{ "set.gtu.u32.f32 %D, %A, 0f00000000", 'i' },
			{ "slct.f32.f32 %D, 0f3F800000, %A, %A", 'f' },
			{ "setp.num.f32 %pa, %A, %A; setp.gt.and.f32 %D, %A, 0f00000000, !%pa", 'p' },
			{ "setp.ge.f32 %pb|%D, %A, 0f00000000", 'p' },
		};
		for (unsigned q = 0; q < sizeof sel / sizeof sel[0]; q++) {
			run(sms[s], sel[q].ins, "f", sel[q].out, N, (const uint64_t (*)[3])in, out);
			for (int k = 0; k < N; k++) {
				float a = bitsf(v[k]);
				uint32_t want;
				switch (q) {
				case 0: want = a < 0.5f ? 0x40000000 : v[k]; break;
				case 1: want = a > 0 ? 0x3f800000 : 0; break;
				case 2: want = isnan(a) || a > 0 ? 0xffffffff : 0; break;
				case 3: want = a >= 0 ? 0x3f800000 : v[k]; break;
				case 4: want = 0; break;     /* a number and !(a number) */
				default: want = !(a >= 0); break;
				}
				ck_assert_msg((uint32_t)out[k] == want, "%s sm_%d (%#x): %#x, want %#x", sel[q].ins,
				              sms[s], v[k], (unsigned)out[k], want);
			}
		}
	}
}
END_TEST

/* ---- conversions ---- */

START_TEST(test_float_cvt_int)
{
	static const uint32_t v[] = { 0x40200000, 0xc0200000, 0x40600000, 0x3effffff, 0x4f800000,
		                          0xcf000001, 0x7fc00000, 0xff800000, 0x00000001, 0x5f000000 };
	static const char *const md[] = { "rni", "rzi", "rmi", "rpi" };
	enum { N = sizeof v / sizeof v[0] };
	uint64_t in[MaxRun][3], out[MaxRun];
	char ins[128];

	for (int k = 0; k < N; k++)
		in[k][0] = v[k];
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < 4; m++)
			for (int t = 0; t < 4; t++) {
				static const char *const ty[] = { "s32", "u32", "s64", "u64" };
				snprintf(ins, sizeof ins, "cvt.%s.%s.f32 %%D, %%A", md[m], ty[t]);
				run(sms[s], ins, "f", t < 2 ? 'i' : 'l', N, (const uint64_t (*)[3])in, out);
				for (int k = 0; k < N; k++) {
					double a = bitsf(v[k]), r = m == 0 ? nearbyint(a) : m == 1 ? trunc(a)
					                                  : m == 2 ? floor(a) : ceil(a);
					double lo = t == 0 ? -0x1p31 : t == 2 ? -0x1p63 : 0;
					double hi = t == 0 ? 0x1p31 : t == 1 ? 0x1p32 : t == 2 ? 0x1p63 : 0x1p64;
					uint64_t want;
					if (isnan(a))
						want = 0;
					else if (r < lo)
						want = t == 0 ? 0x80000000u : t == 2 ? 1ull << 63 : 0;
					else if (r >= hi)
						want = t == 0 ? 0x7fffffff : t == 1 ? 0xffffffff : t == 2 ? (1ull << 63) - 1 : ~0ull;
					else
						want = t == 0 || t == 2 ? (uint64_t)(int64_t)r : (uint64_t)r;
					if (t < 2)
						want &= 0xffffffff;
					ck_assert_msg(out[k] == want, "%s sm_%d (%g): %#llx, want %#llx", ins, sms[s], a,
					              (unsigned long long)out[k], (unsigned long long)want);
				}
			}
}
END_TEST

START_TEST(test_float_cvt_float)
{
	static const struct {
		const char *ins;
		const char *tin;
		char tout;
		uint64_t a, want;
	} c[] = {
		/* integers to floats in the four modes: 16777217 is between two floats */
		{ "cvt.rn.f32.s32 %D, %A", "i", 'f', 16777217, 0x4b800000 },
		{ "cvt.rp.f32.s32 %D, %A", "i", 'f', 16777217, 0x4b800001 },
		{ "cvt.rz.f32.s32 %D, %A", "i", 'f', 0xfeffffff, 0xcb800000 },
		{ "cvt.rm.f32.s32 %D, %A", "i", 'f', 0xfeffffff, 0xcb800001 },
		{ "cvt.rn.f32.u32 %D, %A", "i", 'f', 0xffffffff, 0x4f800000 },
		{ "cvt.rz.f32.u32 %D, %A", "i", 'f', 0xffffffff, 0x4f7fffff },
		{ "cvt.rn.sat.f32.s32 %D, %A", "i", 'f', 3, 0x3f800000 },
		{ "cvt.rn.f32.s64 %D, %A", "l", 'f', 0x8000000000000000, 0xdf000000 },
		{ "cvt.rn.f32.u64 %D, %A", "l", 'f', 0xffffffffffffffff, 0x5f800000 },
		{ "cvt.rn.f64.s32 %D, %A", "i", 'd', 0x80000000, 0xc1e0000000000000 },
		{ "cvt.rn.f64.u64 %D, %A", "l", 'd', 0x0020000000000001, 0x4340000000000000 },
		{ "cvt.rp.f64.u64 %D, %A", "l", 'd', 0x0020000000000001, 0x4340000000000001 },
		{ "cvt.rn.f32.s16 %D, %A", "h", 'f', 0xfffe, 0xc0000000 },
		{ "cvt.rn.f32.u16 %D, %A", "h", 'f', 0xfffe, 0x477ffe00 },
		{ "cvt.rn.f32.s8 %D, %A", "h", 'f', 0x0080, 0xc3000000 },
		{ "cvt.rn.f64.u8 %D, %A", "h", 'd', 0x01ff, 0x406fe00000000000 },
		/* between float types */
		{ "cvt.rn.f32.f64 %D, %A", "d", 'f', 0x3fb999999999999a, 0x3dcccccd },
		{ "cvt.rz.f32.f64 %D, %A", "d", 'f', 0x3fb999999999999a, 0x3dcccccc },
		{ "cvt.rm.f32.f64 %D, %A", "d", 'f', 0xbfb999999999999a, 0xbdcccccd },
		{ "cvt.rn.f32.f64 %D, %A", "d", 'f', 0x47efffffffffffff, 0x7f800000 },
		{ "cvt.rz.f32.f64 %D, %A", "d", 'f', 0x47efffffffffffff, 0x7f7fffff },
		{ "cvt.rn.f32.f64 %D, %A", "d", 'f', 0x3800000000000000, 0x00400000 },
		{ "cvt.rn.ftz.f32.f64 %D, %A", "d", 'f', 0xb800000000000000, 0x80000000 },
		{ "cvt.rn.sat.f32.f64 %D, %A", "d", 'f', 0xc000000000000000, 0 },
		{ "cvt.f64.f32 %D, %A", "f", 'd', 0x00000001, 0x36a0000000000000 },
		{ "cvt.ftz.f64.f32 %D, %A", "f", 'd', 0x80000001, 0x8000000000000000 },
		{ "cvt.sat.f64.f32 %D, %A", "f", 'd', 0x7fc00000, 0 },
		{ "cvt.f32.f16 %D, %A", "h", 'f', 0x0001, 0x33800000 },
		{ "cvt.f32.f16 %D, %A", "h", 'f', 0xfc00, 0xff800000 },
		{ "cvt.f64.f16 %D, %A", "h", 'd', 0xc000, 0xc000000000000000 },
		{ "cvt.f32.bf16 %D, %A", "h", 'f', 0x4049, 0x40490000 },
		{ "cvt.f64.bf16 %D, %A", "h", 'd', 0x0001, 0x37a0000000000000 },
		/* to an integral value */
		{ "cvt.rni.f32.f32 %D, %A", "f", 'f', 0x40200000, 0x40000000 },
		{ "cvt.rni.f32.f32 %D, %A", "f", 'f', 0xbf000000, 0x80000000 },
		{ "cvt.rpi.f32.f32 %D, %A", "f", 'f', 0x3dcccccd, 0x3f800000 },
		{ "cvt.rmi.f32.f32 %D, %A", "f", 'f', 0xbdcccccd, 0xbf800000 },
		{ "cvt.rzi.ftz.f32.f32 %D, %A", "f", 'f', 0x807fffff, 0x80000000 },
		{ "cvt.rpi.sat.f32.f32 %D, %A", "f", 'f', 0x3dcccccd, 0x3f800000 },
		{ "cvt.rzi.f64.f64 %D, %A", "d", 'd', 0xc00c000000000000, 0xc008000000000000 },
		{ "cvt.rni.f64.f64 %D, %A", "d", 'd', 0x4004000000000000, 0x4000000000000000 },
		{ "cvt.sat.f32.f32 %D, %A", "f", 'f', 0x7fc00000, 0 },
		{ "cvt.sat.f32.f32 %D, %A", "f", 'f', 0x40000000, 0x3f800000 },
		{ "cvt.ftz.f32.f32 %D, %A", "f", 'f', 0x00400000, 0 },
		{ "cvt.rna.tf32.f32 %D, %A", "f", 'i', 0x3f801000, 0x3f802000 },
		{ "cvt.rna.tf32.f32 %D, %A", "f", 'i', 0x3f800fff, 0x3f800000 },
		{ "cvt.rna.tf32.f32 %D, %A", "f", 'i', 0x7f800000, 0x7f800000 },
		/* float to integer of 16 bits, and from f64 and f16 */
		{ "cvt.rzi.s16.f32 %D, %A", "f", 'h', 0xc8000000, 0x8000 },
		{ "cvt.rni.u16.f64 %D, %A", "d", 'h', 0x40f0000000000000, 0xffff },
		{ "cvt.rzi.s32.f64 %D, %A", "d", 'i', 0xc00c000000000000, 0xfffffffd },
		{ "cvt.rni.s32.f16 %D, %A", "h", 'i', 0x4100, 0x2 },
	};
	uint64_t in[MaxRun][3], out[MaxRun];

	for (int s = 0; s < 2; s++)
		for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
			in[0][0] = c[k].a;
			run(sms[s], c[k].ins, c[k].tin, c[k].tout, 1, (const uint64_t (*)[3])in, out);
			ck_assert_msg(out[0] == c[k].want, "%s sm_%d (%#llx): %#llx, want %#llx", c[k].ins,
			              sms[s], (unsigned long long)c[k].a, (unsigned long long)out[0],
			              (unsigned long long)c[k].want);
		}
}
END_TEST

/* a guarded IEEE sequence runs only where its guard holds */
START_TEST(test_float_guarded)
{
	uint64_t in[MaxRun][3], out[MaxRun];
	static const uint32_t v[] = { 0x40800000, 0xc0800000, 0x00000001, 0x7f800000 };

	for (int k = 0; k < 4; k++)
		in[k][0] = v[k];
	for (int s = 0; s < 2; s++) {
		run(sms[s], "mov.f32 %D, 0f3F800000; setp.gt.f32 %pa, %A, 0f00000000; "
		    "@%pa sqrt.rn.f32 %D, %A", "f", 'f', 4, (const uint64_t (*)[3])in, out);
		static const uint32_t want[] = { 0x40000000, 0x3f800000, 0x1a3504f3, 0x7f800000 };
		for (int k = 0; k < 4; k++)
			ck_assert_msg((uint32_t)out[k] == want[k], "sm_%d (%#x): %#x", sms[s], v[k],
			              (unsigned)out[k]);
		run(sms[s], "mov.f32 %D, 0f3F800000; setp.gt.f32 %pa, %A, 0f00000000; "
		    "@!%pa div.rn.f32 %D, %D, %A", "f", 'f', 4, (const uint64_t (*)[3])in, out);
		static const uint32_t want2[] = { 0x3f800000, 0xbe800000, 0x3f800000, 0x3f800000 };
		for (int k = 0; k < 4; k++)
			ck_assert_msg((uint32_t)out[k] == want2[k], "sm_%d div (%#x): %#x", sms[s], v[k],
			              (unsigned)out[k]);
	}
}
END_TEST

Suite *
ptx_float_suite(void)
{
	Suite *s = suite_create("ptx_float");
	TCase *t = tcase_create("isel");
	TCase *r = tcase_create("run");

	tcase_add_loop_test(t, test_float_isel_forms, 0, NForms);
	tcase_add_test(t, test_float_isel_ieee);
	tcase_add_loop_test(t, test_float_isel_errors, 0, NErrs);
	suite_add_tcase(s, t);
	tcase_set_timeout(r, 300);
	tcase_add_test(r, test_float_arith);
	tcase_add_test(r, test_float_rounding);
	tcase_add_test(r, test_float_contract);
	tcase_add_test(r, test_float_div_rn);
	tcase_add_test(r, test_float_rcp_sqrt_rn);
	tcase_add_test(r, test_float_f64_ieee);
	tcase_add_test(r, test_float_approx);
	tcase_add_test(r, test_float_compare);
	tcase_add_test(r, test_float_testp_select);
	tcase_add_test(r, test_float_cvt_int);
	tcase_add_test(r, test_float_cvt_float);
	tcase_add_test(r, test_float_guarded);
	suite_add_tcase(s, r);
	return s;
}
