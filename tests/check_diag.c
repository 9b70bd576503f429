/* check_diag.c: golden diagnostics of the SASS front end (STYLE habit 12). Each case holds a bad
 * input and the exact first two lines of the report: `file:line:col: error: message` and the
 * caret line under the source line. sass_parse must return NULL, never crash, and stop after
 * MaxErrors.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

#define TEXT "\t.section\t.text.k,\"ax\",@progbits\nk:\n"
#define INS "        /*0000*/                   "

static const struct {
	const char *name;  /* the class of bad input */
	const char *text;  /* the input (may hold NULs: len) */
	size_t len;
	const char *line1; /* the first line of the report */
	const char *caret; /* the caret line (the third line of the report) */
} gold[] = {
#define G(name, text, l1, caret) { name, text, sizeof text - 1, l1, caret }
	G("truncated file", TEXT INS "IMAD R2, R3, ",
	  "t.sass:3:49: error: unexpected end of line, expected an operand",
	  "      |                                                 ^"),
	G("truncated directive", "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n        /*0000*/ \t.byte\t0x04,",
	  "t.sass:2:30: error: unexpected end of line, expected an expression",
	  "      |                              ^"),
	G("binary garbage", "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00",
	  "t.sass:1:1: error: stray byte 0x7f in input",
	  "      | ^"),
	G("unknown directive", "\t.target\tsm_90\n\t.frobnicate\t1\n",
	  "t.sass:2:2: error: unknown directive '.frobnicate'",
	  "      |  ^~~~~~~~~~~"),
	G("register out of range", TEXT INS "IMAD R300, R7, UR4, R0 ;\n",
	  "t.sass:3:41: error: register 'R300' out of range (R0..R254, RZ)",
	  "      |                                         ^~~~"),
	G("predicate out of range", TEXT "        /*0000*/               @P9 EXIT ;\n",
	  "t.sass:3:33: error: register 'P9' out of range (P0..P6, PT)",
	  "      |                                 ^~"),
	G("uniform register out of range", TEXT INS "ULDC UR70, c[0x0][0x0] ;\n",
	  "t.sass:3:41: error: register 'UR70' out of range (UR0..UR62, URZ)",
	  "      |                                         ^~~~"),
	G("barrier out of range", TEXT INS "BSSY B16, `(k) ;\n",
	  "t.sass:3:41: error: register 'B16' out of range (B0..B15)",
	  "      |                                         ^~~"),
	G("constant bank without offset", TEXT INS "LDC R1, c[0x0] ;\n",
	  "t.sass:3:44: error: malformed constant bank: expected 'c[BANK][OFFSET]'",
	  "      |                                            ^~~~~~"),
	G("constant bank unclosed", TEXT INS "LDC R1, c[0x0][0x160 ;\n",
	  "t.sass:3:57: error: unexpected ';', expected '-', '+' or ']'",
	  "      |                                                         ^"),
	G("constant bank with a register bank", TEXT INS "LDC R1, c[R2][0x160] ;\n",
	  "t.sass:3:46: error: malformed constant bank: the bank must be a number",
	  "      |                                              ^~"),
	G("undefined label", TEXT INS "BRA `(.L_x_9) ;\n",
	  "t.sass:3:40: error: undefined label '.L_x_9'",
	  "      |                                        ^~~~~~~~~"),
	G("duplicate label", TEXT ".L_x_1:\n.L_x_1:\n" INS "EXIT ;\n",
	  "t.sass:4:1: error: duplicate label '.L_x_1'",
	  "      | ^~~~~~"),
	G("empty file", "",
	  "t.sass:1:1: error: no SASS listing in the input (no section, no function)",
	  "      | ^"),
	G("NUL bytes", TEXT "\0\0 NOP ;\n",
	  "t.sass:3:1: error: stray NUL byte in input",
	  "      | ^"),
	G("instruction outside code", "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n" INS "EXIT ;\n",
	  "t.sass:2:36: error: instruction outside a .text section",
	  "      |                                    ^~~~"),
	G("unterminated comment", TEXT INS "EXIT ; /* 0x000",
	  "t.sass:3:43: error: unterminated comment",
	  "      |                                           ^~"),
	G("bad guard", TEXT "        /*0000*/               @R1 EXIT ;\n",
	  "t.sass:3:32: error: the guard must be a predicate (P0..P6, PT, UP0..UP6, UPT)",
	  "      |                                ^~~"),
	G("SSA annotation on a constant", TEXT INS "MOV R1<1>, RZ<3> ;\n",
	  "t.sass:3:49: error: 'RZ' is a constant and takes no SSA annotation",
	  "      |                                                 ^~~"),
	G("negative constant-bank offset", TEXT INS "LDC R1, c[0x0][-0x10] ;\n",
	  "t.sass:3:51: error: constant-bank offset -0x10 is negative",
	  "      |                                                   ^~~~~"),
	G("constant-bank offset past the bank", TEXT INS "LDC R1, c[0x0][0xffffffff] ;\n",
	  "t.sass:3:51: error: constant-bank offset 0xffffffff is past the end of the bank "
	  "(64 KB: 0x0..0xffff)",
	  "      |                                                   ^~~~~~~~~~"),
	G("unaligned constant-bank offset", TEXT INS "FFMA R1, R2, c[0x0][0x162], R3 ;\n",
	  "t.sass:3:49: error: constant-bank offset 0x162 is not aligned to the 4-byte access of 'FFMA'",
	  "      |                                                 ^~~~~~~~~~~~~"),
	G("unaligned 64-bit constant load", TEXT INS "LDC.64 R2, c[0x0][0x164] ;\n",
	  "t.sass:3:47: error: constant-bank offset 0x164 is not aligned to the 8-byte access of 'LDC'",
	  "      |                                               ^~~~~~~~~~~~~"),
	G("unsupported architecture", "\t.target\tsm_75\n" TEXT INS "EXIT ;\n",
	  "t.sass:1:10: error: unsupported architecture 'sm_75' (fiber reads sm_80, sm_86, sm_89, "
	  "sm_90, sm_90a)",
	  "      |          ^~~~~"),
	G("unknown special register", TEXT INS "S2R R0, SR_TID.W ;\n",
	  "t.sass:3:44: error: unknown special register 'SR_TID.W'",
	  "      |                                            ^~~~~~~~"),
	G("branch to a label of another kernel", TEXT ".L_x_1:\n" INS "EXIT ;\n"
	  "\t.section\t.text.j,\"ax\",@progbits\nj:\n" INS "BRA `(.L_x_1) ;\n",
	  "t.sass:7:40: error: label '.L_x_1' is in 'k': a branch cannot leave 'j'",
	  "      |                                        ^~~~~~~~~"),
#undef G
};

/* run the parser on text; returns the report */
static char *
report(const char *text, size_t len, int *nerr, Module **out)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	Src *src = src_new("t.sass", text, len);
	Diag d;
	Module *m;

	diag_init(&d, src, f);
	m = sass_parse(src, &d);
	*nerr = d.nerr;
	*out = m;
	module_free(m);
	src_free(src);
	fclose(f);
	return buf;
}

START_TEST(test_diag_golden)
{
	int nerr;
	Module *m;
	char *r = report(gold[_i].text, gold[_i].len, &nerr, &m), *l2, *l3, *end;

	ck_assert_msg(m == NULL, "%s: the module was returned", gold[_i].name);
	ck_assert_int_ge(nerr, 1);
	l2 = strchr(r, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2++ = 0;
	ck_assert_msg(strcmp(r, gold[_i].line1) == 0, "%s:\n got  '%s'\n want '%s'", gold[_i].name, r,
	              gold[_i].line1);
	l3 = strchr(l2, '\n');
	ck_assert_ptr_nonnull(l3);
	l3++;
	end = strchr(l3, '\n');
	if (end)
		*end = 0;
	ck_assert_msg(strcmp(l3, gold[_i].caret) == 0, "%s:\n got  '%s'\n want '%s'", gold[_i].name,
	              l3, gold[_i].caret);
	free(r);
}
END_TEST

/* a 1 MB line: one clean diagnostic, the source line shown cut around the caret */
START_TEST(test_diag_overlong_line)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 2), *r, *l2;
	int nerr;
	Module *m;

	memset(text, 'x', n);
	text[n] = '\n';
	text[n + 1] = 0;
	r = report(text, n + 1, &nerr, &m);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(nerr, 1);
	l2 = strchr(r, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2++ = 0;
	ck_assert_str_eq(r, "t.sass:1:1048577: error: unexpected end of line, expected ';'");
	ck_assert_uint_lt(strlen(l2), 400);
	free(r);
	free(text);
}
END_TEST

/* the note after a branch to another kernel's label says where the label is */
START_TEST(test_diag_label_elsewhere)
{
	static const char text[] = TEXT ".L_x_1:\n" INS "EXIT ;\n"
		"\t.section\t.text.j,\"ax\",@progbits\nj:\n" INS "BRA `(.L_x_1) ;\n";
	int nerr;
	Module *m;
	char *r = report(text, sizeof text - 1, &nerr, &m);

	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(r, "\nt.sass:3:1: note: '.L_x_1' is defined here\n"), "%s", r);
	ck_assert_ptr_null(strstr(r, "never defined"));
	free(r);
}
END_TEST

/* 100,000 nested parentheses: the nesting limit, once, not the parser's "memory exhausted" */
START_TEST(test_diag_deep_nesting)
{
	enum { Depth = 100000 };
	static const char head[] = "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n\t.word\t";
	size_t n = sizeof head - 1;
	char *text = malloc(n + 6 * Depth + 8), *r, *l2;
	int nerr;
	Module *m;

	memcpy(text, head, n);
	memset(text + n, '(', Depth);
	n += Depth;
	text[n++] = '1';
	for (int k = 0; k < Depth; k++) {
		memcpy(text + n, " - 1)", 5);
		n += 5;
	}
	text[n++] = '\n';
	r = report(text, n, &nerr, &m);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(nerr, 1);
	l2 = strchr(r, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2 = 0;
	ck_assert_str_eq(r, "t.sass:2:208: error: parentheses nested too deeply (at most 200)");
	free(r);
	free(text);
}
END_TEST

/* a 1.6 MB special register name: one error, the name cut in the message */
START_TEST(test_diag_long_sreg)
{
	static const char head[] = TEXT INS "S2R R0, ";
	size_t n = sizeof head - 1;
	char *text = malloc(n + (1600 << 10) + 8), *r, *l2;
	int nerr;
	Module *m;

	memcpy(text, head, n);
	for (int k = 0; k < 200 << 10; k++) {
		memcpy(text + n, "SR_TID.X", 8);
		n += 8;
	}
	memcpy(text + n, " ;\n", 3);
	n += 3;
	r = report(text, n, &nerr, &m);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(nerr, 1);
	l2 = strchr(r, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2 = 0;
	ck_assert_str_eq(r, "t.sass:3:44: error: unknown special register "
	                 "'SR_TID.XSR_TID.XSR_TID.XSR_TID.XSR_TID.X...'");
	free(r);
	free(text);
}
END_TEST

/* ---- checks that need the opcode table (sass_check, run by fiberc after the parse) ------- */

static const struct {
	const char *name;
	const char *text;
	const char *line1;
	const char *caret;
} check_gold[] = {
	{ "unknown opcode", TEXT INS "FROB R1 ;\n",
	  "t.sass:3:36: error: unknown opcode 'FROB'",
	  "      |                                    ^~~~" },
	{ "uniform pair running into URZ", TEXT INS "ULDC.64 UR62, c[0x0][0x118] ;\n",
	  "t.sass:3:44: error: 'UR62' begins a 2-register operand, which runs into URZ",
	  "      |                                            ^~~~" },
	{ "quad running into RZ", TEXT INS "LDG.E.128 R252, [R4.64] ;\n",
	  "t.sass:3:46: error: 'R252' begins a 4-register operand, which runs into RZ",
	  "      |                                              ^~~~" },
	{ "odd register pair", TEXT INS "LDG.E.64 R3, [R4.64] ;\n",
	  "t.sass:3:45: error: 'R3' begins a 2-register operand: it must be a multiple of 2",
	  "      |                                             ^~" },
	{ "encoding of another opcode", TEXT INS "FMUL R1, R2, R3 ;  /* 0x0000000302017223 */\n",
	  "t.sass:3:36: error: the encoding word 0x0000000302017223 is FFMA's (opcode bits 0x023), "
	  "not FMUL's",
	  "      |                                    ^~~~" },
	{ "encoding of another destination", TEXT INS "IMAD R5, R2, R3, R4 ;  /* 0x0000000302077224 */\n",
	  "t.sass:3:41: error: the encoding word 0x0000000302077224 writes R7, not R5",
	  "      |                                         ^~" },
	{ "no kernel", "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n",
	  "t.sass:1:1: error: no kernel in the input (no '.text.<name>' section)",
	  "      | ^" },
};

START_TEST(test_diag_check)
{
	char *buf = NULL, *l2, *l3, *e;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	Src *src = src_new("t.sass", check_gold[_i].text, strlen(check_gold[_i].text));
	Diag d;
	Module *m;

	diag_init(&d, src, out);
	m = sass_parse(src, &d);
	ck_assert_msg(m != NULL, "%s: the parse failed", check_gold[_i].name);
	ck_assert_int_eq(sass_check(m, &d), -1);
	fclose(out);
	l2 = strchr(buf, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2++ = 0;
	ck_assert_msg(strcmp(buf, check_gold[_i].line1) == 0, "%s:\n got  '%s'\n want '%s'",
	              check_gold[_i].name, buf, check_gold[_i].line1);
	l3 = strchr(l2, '\n') + 1;
	if ((e = strchr(l3, '\n')))
		*e = 0;
	ck_assert_msg(strcmp(l3, check_gold[_i].caret) == 0, "%s:\n got  '%s'\n want '%s'",
	              check_gold[_i].name, l3, check_gold[_i].caret);
	free(buf);
	module_free(m);
	src_free(src);
}
END_TEST

/* errors are reported line after line, up to MaxErrors, then the parse stops */
START_TEST(test_diag_many_errors)
{
	size_t cap = 64 * 64 + 64, len;
	char *text = malloc(cap), *r;
	int nerr, lines = 0;
	Module *m;

	len = (size_t)snprintf(text, cap, "%s", TEXT);
	for (int k = 0; k < 60; k++)
		len += (size_t)snprintf(text + len, cap - len, "  IMAD R%d, R1 ;\n", 300 + k);
	r = report(text, len, &nerr, &m);
	ck_assert_ptr_null(m);
	ck_assert_int_ge(nerr, MaxErrors);
	ck_assert_int_le(nerr, MaxErrors + 1);
	for (char *p = r; (p = strstr(p, ": error: ")); p++)
		lines++;
	ck_assert_int_eq(lines, MaxErrors);
	ck_assert_ptr_nonnull(strstr(r, "R301"));
	free(r);
	free(text);
}
END_TEST

/* every prefix of a real listing, and every single-byte corruption of its first lines: no crash */
START_TEST(test_diag_never_crashes)
{
	static const char good[] =
		"\t.target\tsm_90\n\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n"
		"        /*0000*/ \t.byte\t0x04, 0x2f\n        /*0002*/ \t.short\t(.L_1 - .L_0)\n"
		".L_0:\n        /*0004*/ \t.word\tindex@(k)\n.L_1:\n"
		TEXT INS "@!P0 IMAD.WIDE.U32 R2, R7.reuse, 0x4, c[0x0][0x160] ;  /* 0x0000000402047981 */\n"
		"                                   /* 0x000ea2000c1e9d00 */\n"
		INS "LDG.E R0, desc[UR4][R2.64+-0x10] ;\n"
		INS "BRA `(k);\n";
	char buf[sizeof good];
	int nerr;
	Module *m;

	for (size_t n = 0; n < sizeof good; n++)
		free(report(good, n, &nerr, &m));
	for (size_t k = 0; k < sizeof good - 1; k += 3) {
		static const char bytes[] = { 0, '\n', ';', '[', '`', '"', '/', '*', '<', (char)0xff };
		for (size_t b = 0; b < sizeof bytes; b++) {
			memcpy(buf, good, sizeof good);
			buf[k] = bytes[b];
			free(report(buf, sizeof good - 1, &nerr, &m));
		}
	}
}
END_TEST

/* ---- IR text: errors found when the annotations become SSA values (sass_apply_ssa) -------- */

#define IR "\t.section\t.text.k,\"ax\",@progbits\nk:\n"
#define BR "  ISETP.NE.AND P0<1>, PT, R0<0>, RZ, PT ;\n  @P0<1> BRA `(.L_x_1) ;\n" \
	"  MOV R1<1>, R2<0> ;\n.L_x_1:\n"

static const struct {
	const char *name;
	const char *text;
	const char *line1;
	const char *caret;
} ssa_gold[] = {
	{ "version never defined", IR "  MOV R1<1>, R2<5> ;\n  EXIT ;\n",
	  "t.sass:3:14: error: R2<5> is used but never defined",
	  "      |              ^~~~~" },
	{ "count not matching the slot width", IR "  IMAD.WIDE R2<4>, R7<0>, 0x4, R2<0,0> ;\n  EXIT ;\n",
	  "t.sass:3:13: error: R2 covers 2 registers here, the annotation has 1 version",
	  "      |             ^~~~~" },
	{ "version defined twice", IR "  MOV R1<1>, R2<0> ;\n  MOV R1<1>, R2<0> ;\n  EXIT ;\n",
	  "t.sass:4:7: error: R1<1> is defined more than once",
	  "      |       ^~~~~" },
	{ "missing version", IR "  MOV R1<1>, R2 ;\n  EXIT ;\n",
	  "t.sass:3:3: error: R2 of 'MOV' has no SSA version (e.g. R2<1>)",
	  "      |   ^~~~~~~~~~~~~~~" },
	{ "unknown block", IR BR "  R1<2> = phi(bb0: R1<0>, bb9: R1<1>) ;\n  EXIT ;\n",
	  "t.sass:7:27: error: unknown block bb9 (the function has 3)",
	  "      |                           ^~~~~~~~~~" },
	{ "not a predecessor", IR BR "  R1<2> = phi(bb0: R1<0>, bb2: R1<1>) ;\n  EXIT ;\n",
	  "t.sass:7:27: error: bb2 is not a predecessor of bb2",
	  "      |                           ^~~~~~~~~~" },
	{ "missing phi argument", IR BR "  R1<2> = phi(bb0: R1<0>) ;\n  EXIT ;\n",
	  "t.sass:7:3: error: phi of R1 has no argument for predecessor bb1",
	  "      |   ^~~~~~~~~~~~~~~~~~~~~~~~~" },
	{ "phi inside a block", IR "  MOV R1<1>, R2<0> ;\n  R1<2> = phi(bb0: R1<1>) ;\n  EXIT ;\n",
	  "t.sass:4:3: error: a phi must stand before the first instruction of a block",
	  "      |   ^~~~~~~~~~~~~~~~~~~~~~~~~" },
};

START_TEST(test_diag_ssa)
{
	char *buf = NULL, *l2, *l3, *e;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	Src *src = src_new("t.sass", ssa_gold[_i].text, strlen(ssa_gold[_i].text));
	Diag d;
	Module *m;
	Fn *f;
	int rc = 0;

	diag_init(&d, src, out);
	m = sass_parse(src, &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->has_ssa, 1);
	f = m->fn[0];
	ck_assert_int_eq(cfg_build(f, &d), 0);
	dom_build(f);
	for (uint32_t k = 0; k < f->nins; k++)
		ck_assert_int_eq(op_slots(f, &f->ins[k]), 0);
	rc = sass_apply_ssa(f, &d);
	fclose(out);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(f->in_ssa, 0);
	l2 = strchr(buf, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2++ = 0;
	ck_assert_msg(strcmp(buf, ssa_gold[_i].line1) == 0, "%s:\n got  '%s'\n want '%s'",
	              ssa_gold[_i].name, buf, ssa_gold[_i].line1);
	l3 = strchr(l2, '\n') + 1;
	if ((e = strchr(l3, '\n')))
		*e = 0;
	ck_assert_msg(strcmp(l3, ssa_gold[_i].caret) == 0, "%s:\n got  '%s'\n want '%s'",
	              ssa_gold[_i].name, l3, ssa_gold[_i].caret);
	free(buf);
	module_free(m);
	src_free(src);
}
END_TEST

Suite *
diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("Golden");

	tcase_add_loop_test(tc, test_diag_golden, 0, sizeof gold / sizeof gold[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Limits");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_diag_overlong_line);
	tcase_add_test(tc, test_diag_many_errors);
	tcase_add_test(tc, test_diag_never_crashes);
	tcase_add_test(tc, test_diag_deep_nesting);
	tcase_add_test(tc, test_diag_long_sreg);
	tcase_add_test(tc, test_diag_label_elsewhere);
	suite_add_tcase(s, tc);
	tc = tcase_create("Check");
	tcase_add_loop_test(tc, test_diag_check, 0, sizeof check_gold / sizeof check_gold[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Ssa");
	tcase_add_loop_test(tc, test_diag_ssa, 0, sizeof ssa_gold / sizeof ssa_gold[0]);
	suite_add_tcase(s, tc);
	return s;
}
