/* check_lex.c: the SASS scanner (frontend/sass/sass.l) on its own: token kinds, values and locations
 * for every lexical form nvdisasm and cuobjdump print, and the errors it reports itself.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sass.tab.h"

typedef struct Lx {
	Ctx cx;            /* parse context the scanner reads */
	Diag d;            /* diagnostics, into buf */
	Src *src;          /* the text */
	yyscan_t sc;       /* scanner */
	char *buf;         /* diagnostics text */
	size_t len;
	FILE *out;
} Lx;

static void
lx_open(Lx *l, const char *text, size_t n)
{
	memset(l, 0, sizeof *l);
	l->out = open_memstream(&l->buf, &l->len);
	l->src = src_new("t.sass", text, n);
	diag_init(&l->d, l->src, l->out);
	l->cx.m = module_new();
	l->cx.d = &l->d;
	l->cx.text = l->src->text;
	l->cx.len = (uint32_t)n;
	l->cx.badreg = UINT32_MAX;
	l->sc = lex_open(&l->cx);
}

static void
lx_close(Lx *l)
{
	lex_close(l->sc);
	module_free(l->cx.m);
	src_free(l->src);
	fclose(l->out);
	free(l->buf);
}

static int
lx_next(Lx *l, SASS_YYSTYPE *v, Loc *loc)
{
	return sass_yylex(v, loc, l->sc);
}

/* ---- token kinds ----------------------------------------------------------------------------- */

static const struct {
	const char *text;
	int tok[12];       /* expected kinds, ending at 0 (the end-of-file NL is included) */
} kinds[] = {
	{ "LDG.E.128.CONSTANT R4, [R2.64+0x10] ;",
	  { TOK_WORD, TOK_WORD, ',', '[', TOK_WORD, '+', TOK_HEX, ']', ';', TOK_NL, 0 } },
	{ "@!P0 BRA `(.L_x_1) ;", { '@', '!', TOK_WORD, TOK_WORD, TOK_LABELREF, ';', TOK_NL, 0 } },
	{ "FSEL R0, R1, -INF , !P2 ;",
	  { TOK_WORD, TOK_WORD, ',', TOK_WORD, ',', '-', TOK_WORD, ',', '!', TOK_WORD, ';', TOK_NL } },
	{ "FMUL R0, R7.reuse, 0.63661974668502807617 ;",
	  { TOK_WORD, TOK_WORD, ',', TOK_WORD, ',', TOK_FLOAT, ';', TOK_NL, 0 } },
	{ "5.9604644775390625e-08 105615 1e+10", { TOK_FLOAT, TOK_DEC, TOK_FLOAT, TOK_NL, 0 } },
	{ "|R2|.reuse", { '|', TOK_WORD, '|', TOK_DOTWORD, TOK_NL, 0 } },
	{ "DEPBAR {5,4} ;", { TOK_WORD, '{', TOK_DEC, ',', TOK_DEC, '}', ';', TOK_NL, 0 } },
	{ "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"",
	  { TOK_DOTWORD, TOK_DOTWORD, ',', TOK_STRING, ',', '@', TOK_STRING, TOK_NL, 0 } },
	{ "/*0004*/ \t.word\tindex@(softmax_rows)",
	  { TOK_ADDR, TOK_DOTWORD, TOK_WORD, '@', '(', TOK_WORD, ')', TOK_NL, 0 } },
	{ ".word .L_x_0@srel", { TOK_DOTWORD, TOK_DOTWORD, '@', TOK_WORD, TOK_NL, 0 } },
	{ ".L_x_1:\n$__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath:",
	  { TOK_LABEL, TOK_NL, TOK_LABEL, TOK_NL, 0 } },
	{ "\t//----- nvinfo : EIATTR_KPARAM_INFO\n\t//   ....[0]....", { TOK_NVINFO, TOK_NL, TOK_NL, 0 } },
	{ "//--------------------- SYMBOLS --------------------------", { TOK_SYMBOLS, TOK_NL, 0 } },
	{ "\tcode for sm_80\n\t\tFunction : _Z3foov\n\t\t..........",
	  { TOK_CODEFOR, TOK_NL, TOK_FUNCTION, TOK_NL, TOK_DOTS, TOK_NL, 0 } },
	{ "MOV R7<3>, R2<5,1>.64 old(R7<2>) def(P0<1>) use(UR4<1,1>) ;",
	  { TOK_WORD, TOK_WORD, '<', TOK_DEC, '>', ',', TOK_WORD, '<', TOK_DEC, ',', TOK_DEC, '>' } },
	{ "R7<5> = phi(bb1: R7<2>)",
	  { TOK_WORD, '<', TOK_DEC, '>', '=', TOK_PHI, TOK_WORD, ':', TOK_WORD, '<', TOK_DEC, '>' } },
	{ "HGMMA.64x16x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;",
	  { TOK_WORD, TOK_WORD, ',', TOK_WORD, '[', TOK_WORD, ']', ',', TOK_WORD, ',', '!', TOK_WORD } },
	{ "/* a comment */ NOP; // another", { TOK_WORD, ';', TOK_NL, 0 } },
	{ "BRX R6 -0x150 (*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*);",
	  { TOK_WORD, TOK_WORD, '-', TOK_HEX, TOK_TARGETS, ';', TOK_NL, 0 } },
};

START_TEST(test_lex_kinds)
{
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;

	lx_open(&l, kinds[_i].text, strlen(kinds[_i].text));
	for (int k = 0; k < 12; k++) {
		int t = lx_next(&l, &v, &loc);
		ck_assert_msg(t == kinds[_i].tok[k], "'%s': token %d is %d, expected %d", kinds[_i].text, k,
		              t, kinds[_i].tok[k]);
		if (t == 0)
			break;
	}
	ck_assert_int_eq(l.d.nerr, 0);
	lx_close(&l);
}
END_TEST

/* ---- values and locations -------------------------------------------------------------------- */

START_TEST(test_lex_instruction_line)
{
	static const char text[] =
		"        /*0040*/                   SHF.R.U32.HI R7, RZ, 0x5, R6 ;"
		"                                      /* 0x00000005ff077819 */\n"
		"                                                                                   "
		"                    /* 0x000fe20000011606 */\n";
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;

	lx_open(&l, text, strlen(text));
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_ADDR);
	ck_assert_uint_eq(v.TOK_ADDR, 0x40);
	ck_assert_uint_eq(loc.start, 8);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_WORD);
	ck_assert_uint_eq(loc.start, 35);
	ck_assert_uint_eq(v.TOK_WORD.len, 12);
	for (int k = 0; k < 4; k++)
		lx_next(&l, &v, &loc);                     /* R7 , RZ , */
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_HEX);
	ck_assert_uint_eq(v.TOK_HEX, 5);
	lx_next(&l, &v, &loc);
	lx_next(&l, &v, &loc);                             /* , R6 */
	/* ';' and the encoding word are one token; the next line's word ends the line */
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_ENDENC);
	ck_assert_uint_eq(v.TOK_ENDENC, 0x00000005ff077819ull);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_ENC2);
	ck_assert_uint_eq(v.TOK_ENC2, 0x000fe20000011606ull);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_NL);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_NL);   /* end of file */
	ck_assert_int_eq(lx_next(&l, &v, &loc), 0);
	ck_assert_int_eq(l.d.nerr, 0);
	lx_close(&l);
}
END_TEST

/* in a text section the same line is read at once (fastline.c): one token, the instruction
 * built */
START_TEST(test_lex_fast_line)
{
	static const char text[] =
		"        /*0040*/                   @!P1 SHF.R.U32.HI R7, RZ, 0x5, c[0x0][0x160] ;"
		"                                      /* 0x00000005ff077819 */\n"
		"                                                                                   "
		"                    /* 0x000fe20000011606 */\n"
		"        /*0050*/                   MOV R1, R2<3> ;\n";
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;
	Section *s;
	Fn *f;

	lx_open(&l, text, strlen(text));
	s = section_add(l.cx.m, mintern(l.cx.m, ".text.k"));
	s->kind = SecText;
	f = fn_new(l.cx.m, mintern(l.cx.m, "k"));
	f->text = s;
	s->fn = f;
	l.cx.sec = s;
	l.cx.fn = f;
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_INSLINE);
	ck_assert_uint_eq(loc.start, 8);
	ck_assert_int_eq(f->nins, 1);
	ck_assert_int_eq(f->ins[0].addr, 0x40);
	ck_assert_int_eq(f->ins[0].nopnd, 4);
	ck_assert_int_eq(f->ins[0].guarded, 1);
	ck_assert_int_eq(f->ins[0].nenc, 2);
	ck_assert_uint_eq(f->ins[0].enc[1], 0x000fe20000011606ull);
	/* an IR annotation: left to the grammar */
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_ADDR);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_WORD);
	ck_assert_int_eq(f->nins, 1);
	ck_assert_int_eq(l.d.nerr, 0);
	b_free(&l.cx);     /* what the instruction's actions allocated */
	lx_close(&l);
}
END_TEST

START_TEST(test_lex_numbers)
{
	static const char text[] = "0xffffffffffffffff 0x0 18446744073709551615 `(_Z3foov)";
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;

	lx_open(&l, text, strlen(text));
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_HEX);
	ck_assert_uint_eq(v.TOK_HEX, UINT64_MAX);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_HEX);
	ck_assert_uint_eq(v.TOK_HEX, 0);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_DEC);
	ck_assert_uint_eq(v.TOK_DEC, UINT64_MAX);
	ck_assert_int_eq(lx_next(&l, &v, &loc), TOK_LABELREF);
	ck_assert_uint_eq(v.TOK_LABELREF.len, 7);
	ck_assert_int_eq(memcmp(text + v.TOK_LABELREF.off, "_Z3foov", 7), 0);
	lx_close(&l);
}
END_TEST

/* ---- errors found by the scanner ------------------------------------------------------------- */

static const struct {
	const char *text;
	size_t len;        /* bytes (the text may hold NULs) */
	const char *msg;   /* the first line of the diagnostic */
} errs[] = {
#define E(text, msg) { text, sizeof text - 1, msg }
	E("MOV R1, \x01 ;", "t.sass:1:9: error: stray byte 0x01 in input"),
	E("MOV R1, \0 ;", "t.sass:1:9: error: stray NUL byte in input"),
	E("NOP ; /* unterminated", "t.sass:1:7: error: unterminated comment"),
	E(".string \"abc", "t.sass:1:9: error: missing terminating '\"' character"),
	E("BRA `(.L_x_1 ;", "t.sass:1:5: error: missing ')' after label reference"),
	E("MOV R1, 0x10000000000000000 ;", "t.sass:1:9: error: hex number too large (more than 64 bits)"),
	E("MOV R1, 99999999999999999999 ;", "t.sass:1:9: error: number too large (more than 64 bits)"),
	E("MOV R1, # ;", "t.sass:1:9: error: stray '#' in input"),
	E("\xff", "t.sass:1:1: error: stray byte 0xff in input"),
	E("BRX R6 (*\"BRANCH_TARGETS .L_x_1\" ;", "t.sass:1:8: error: unterminated '(*' annotation"),
#undef E
};

START_TEST(test_lex_errors)
{
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;
	int t, saw = 0;

	lx_open(&l, errs[_i].text, errs[_i].len);
	while ((t = lx_next(&l, &v, &loc)) != 0)
		saw |= t == TOK_SASS_YYerror;
	fflush(l.out);
	ck_assert_msg(saw, "no error token for '%s'", errs[_i].text);
	ck_assert_int_eq(l.d.nerr, 1);
	ck_assert_msg(strncmp(l.buf, errs[_i].msg, strlen(errs[_i].msg)) == 0, "got '%s', want '%s'",
	              l.buf, errs[_i].msg);
	lx_close(&l);
}
END_TEST

/* ---- long lines: linear work ---------------------------------------------------------------- */

/* one 10 MB line of each kind that a single rule could read to its end: the tokens, and the bytes
 * the scanner reads again (Ctx.lexwork), which must stay a small multiple of the line; the time
 * is not measured (a 10 MB line took 4 s when flex re-read a long token at every 64 KiB refill,
 * and a line of "(*" was quadratic: each went to the end of the line looking for "*)") */
static const struct {
	const char *head;  /* the line starts with this */
	const char *fill;  /* then this, repeated up to LongLine bytes */
	int tok[4];        /* expected kinds, ending at 0 */
} longs[] = {
	{ "// ", "x", { TOK_NL, 0 } },
	{ "/* ", "x*", { TOK_SASS_YYerror, TOK_NL, 0 } },   /* unterminated comment */
	{ "/* ", "x*", { TOK_NL, 0 } },                     /* ... closed at the end of the line */
	{ "R", "1", { TOK_WORD, TOK_NL, 0 } },
	{ "SR_TID.X", "SR_TID.X", { TOK_WORD, TOK_NL, 0 } },
	{ "\"", "x", { TOK_SASS_YYerror, TOK_NL, 0 } },    /* missing '"' */
	{ "`(", "x", { TOK_SASS_YYerror, TOK_NL, 0 } },     /* missing ')' */
	{ "(*", "(*", { TOK_SASS_YYerror, TOK_NL, 0 } },    /* one error, the line skipped */
	{ "(*", "x", { TOK_TARGETS, TOK_NL, 0 } },           /* ... closed at the end of the line */
	{ "0x", "0", { TOK_HEX, TOK_NL, 0 } },
	{ "\x01", "\x01", { TOK_SASS_YYerror, TOK_NL, 0 } }, /* stray bytes: one error */
};

enum { LongLine = 10 << 20 };

START_TEST(test_lex_long_line)
{
	size_t h = strlen(longs[_i].head), f = strlen(longs[_i].fill), n = h;
	char *text = malloc(LongLine + 8);
	Lx l;
	SASS_YYSTYPE v;
	Loc loc;
	int k = 0, t;

	memcpy(text, longs[_i].head, h);
	while (n + f <= LongLine) {
		memcpy(text + n, longs[_i].fill, f);
		n += f;
	}
	if (_i == 2 || _i == 8) {          /* the closed ones */
		memcpy(text + n, _i == 2 ? "*/" : "*)", 2);
		n += 2;
	}
	lx_open(&l, text, n);
	while ((t = lx_next(&l, &v, &loc)) != 0 && k < 4) {
		ck_assert_msg(t == longs[_i].tok[k], "'%s...': token %d is %d, expected %d",
		              longs[_i].head, k, t, longs[_i].tok[k]);
		if (t == TOK_WORD)
			ck_assert_uint_eq(v.TOK_WORD.len, n);
		if (t == TOK_TARGETS)
			ck_assert_uint_eq(v.TOK_TARGETS.len, n - 4);
		k++;
	}
	ck_assert_int_eq(t, 0);
	ck_assert_int_eq(longs[_i].tok[k], 0);
	ck_assert_int_le(l.d.nerr, 1);
	ck_assert_msg(l.cx.lexwork <= 4 * (uint64_t)n, "'%s...': %llu bytes read again for %zu",
	              longs[_i].head, (unsigned long long)l.cx.lexwork, n);
	lx_close(&l);
	free(text);
}
END_TEST

Suite *
lex_suite(void)
{
	Suite *s = suite_create("lex");
	TCase *tc = tcase_create("Core");

	tcase_add_loop_test(tc, test_lex_kinds, 0, sizeof kinds / sizeof kinds[0]);
	tcase_add_test(tc, test_lex_instruction_line);
	tcase_add_test(tc, test_lex_numbers);
	tcase_add_test(tc, test_lex_fast_line);
	suite_add_tcase(s, tc);
	tc = tcase_create("Errors");
	tcase_add_loop_test(tc, test_lex_errors, 0, sizeof errs / sizeof errs[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Long");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_lex_long_line, 0, sizeof longs / sizeof longs[0]);
	suite_add_tcase(s, tc);
	return s;
}
