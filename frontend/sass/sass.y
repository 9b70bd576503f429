/* sass.y: the grammar of SASS listings (nvdisasm with -hex, cuobjdump -sass) and fiber IR text.
 *
 * A listing is a sequence of lines; each line is one statement: a label; a directive, with an
 * optional offset comment; an instruction (optional offset comment, optional guard, opcode with
 * modifiers, operands, ';', optional encoding comment), the second encoding word on a line of its
 * own; an nvinfo comment; a cuobjdump header; or (IR text) a phi. The common instruction lines
 * come from the scanner already built, as one INSLINE token (fastline.c); the rules below read
 * every other line. Errors recover at the end of the line, so one run reports up to MaxErrors.
 * The actions are in build.c; the parser is opcode-agnostic.
 *
 * Operand spelling details kept in Opnd.flags (see ir.h for the others):
 *   FSpell0   the operand follows the previous one after a blank, not a comma
 *             (`RET.REL.NODEC R10 `(fn)`, cuobjdump's `RET.REL.NODEC R10 0x0`)
 *   FSpell1   OReg: `.reuse` was written after the selector (`R2.H0_H0.reuse`; the usual
 *             nvdisasm order is `R2.reuse.H0_H0`); OReg with FAbs and without FSpell2: the
 *             selector follows the bars (`|R20|.reuse.H0_H0`, `|R20|.H0_H0`); OLabel:
 *             cuobjdump's bare address `0x1b0`
 *   FSpell2   OReg with FAbs: `.reuse` inside the bars (`|R2.reuse|`); OMem: `gdesc[UR4]`, a
 *             descriptor with no address part (HGMMA), whose `.tnspA`/`.tnspB` suffix is sfx[0]
 * Decimal numbers in operands are float immediates (nvdisasm prints integers in hex): OFImm
 * with the spelling in atom. Words that are neither registers nor SR_* are OExpr (SB0, gsb0, PR).
 */
%code requires {
#include "parse.h"
}

%code provides {
int sass_yylex(SASS_YYSTYPE *lval, SASS_YYLTYPE *lloc, yyscan_t scanner);
}

%code {
#include <string.h>

/* a rule's location spans its symbols; an empty rule sits at the end of what precedes it */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                      \
	do {                                                             \
		if (N) {                                                 \
			(Cur).start = YYRHSLOC(Rhs, 1).start;            \
			(Cur).end = YYRHSLOC(Rhs, N).end;                \
		} else {                                                 \
			(Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;  \
		}                                                        \
	} while (0)

static void
sass_yyerror(Loc *loc, yyscan_t scanner, Ctx *cx, const char *msg)
{
	(void)scanner;
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "input nested too deeply for the parser (its stack limit)";
	error_at(cx->d, *loc, "%s", msg);
}

static Str
span(Loc a, Loc b)
{
	return (Str){ a.end, b.start > a.end ? b.start - a.end : 0 };
}
}

%define api.prefix {sass_yy}
%define api.token.prefix {TOK_}
%define api.pure full
%define api.value.type union
%define api.location.type {Loc}
%define parse.error custom
%define parse.lac none
%locations
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {Ctx *cx}
%expect 0

%token NL "end of line"
%token <Str> WORD "name"
%token <Str> DOTWORD "directive or suffix"
%token <Str> LABEL "label definition"
%token <Str> LABELREF "label reference"
%token <Str> TARGETS "branch-target annotation"
%token <Str> STRING "string"
%token <Str> FLOAT "float"
%token <Str> NVINFO "nvinfo comment"
%token <Str> CODEFOR "'code for'"
%token <Str> FUNCTION "'Function :'"
%token <uint64_t> HEX "hex number"
%token <uint64_t> DEC "number"
%token <uint64_t> ENC "encoding comment"
%token <uint64_t> ENDENC "';' and encoding comment"
%token <uint64_t> ENC2 "second encoding line"
%token <uint64_t> ADDR "offset comment"
%token INSLINE "instruction"
%token SYMBOLS "SYMBOLS header"
%token DOTS "'..........'"
%token OLD "'old('"
%token DEFP "'def('"
%token USEP "'use('"
%token PHI "'phi('"

%type <uint32_t> xopnd base xbase regword absop juxt mterm
%type <Str> icore
%type <Expr *> expr

%%

file
	: %empty
	| file line
	;

line
	: NL
	| ENC2				{ b_enc2(cx, $1, @1); }
	| stmt NL			{ if (too_many(cx)) YYABORT; }
	| stmt ENC2			{ b_enc2(cx, $2, @2); if (too_many(cx)) YYABORT; }
	| insline NL			{ if (too_many(cx)) YYABORT; }
	| insline ENC2			{ b_enc2(cx, $2, @2); if (too_many(cx)) YYABORT; }
	| INSLINE			{ if (too_many(cx)) YYABORT; }
	| error NL			{ yyerrok; b_insreset(cx); if (too_many(cx)) YYABORT; }
	| error ENC2			{ yyerrok; b_insreset(cx); if (too_many(cx)) YYABORT; }
	;

stmt
	: LABEL				{ b_label(cx, $1, @1); }
	| WORD ':'			{ b_label(cx, $1, @1); }
	| DOTWORD ':'			{ b_label(cx, $1, @1); }
	| DOTWORD args_opt		{ b_directive(cx, $1, @1, -1); }
	| ADDR DOTWORD args_opt		{ b_directive(cx, $2, @2, (int64_t)$1); }
	| ENC				{ b_enc2(cx, $1, @1); }
	| NVINFO			{ b_nvinfo(cx, $1, @1); }
	| SYMBOLS			{ b_symbols(cx, @1); }
	| CODEFOR			{ b_codefor(cx, $1, @1); }
	| FUNCTION			{ b_function(cx, $1, @1); }
	| DOTS				{ b_endfunc(cx, @1); }
	| phi				{ }
	;

/* ---- directives: `.section .text.k,"ax",@progbits`, `.short (.L_3 - .L_2)` ---------------- */

args_opt
	: %empty
	| args
	;

args
	: expr				{ b_arg(cx, $1); }
	| args ',' expr			{ b_arg(cx, $3); }
	;

expr
	: HEX				{ $$ = b_num(cx, $1, (int)(@1.end - @1.start - 2), 0, @1); }
	| DEC				{ $$ = b_num(cx, $1, 0, 0, @1); }
	| '-' HEX			{ $$ = b_num(cx, $2, (int)(@2.end - @2.start - 2), 1, @$); }
	| '-' DEC			{ $$ = b_num(cx, $2, 0, 1, @$); }
	| STRING			{ $$ = b_str(cx, $1); }
	| WORD				{ $$ = b_sym(cx, $1); }
	| DOTWORD			{ $$ = b_sym(cx, $1); }
	| '@' WORD			{ $$ = b_attr(cx, $2, 0); }
	| '@' STRING			{ $$ = b_attr(cx, $2, 1); }
	| WORD '@' '(' expr ')'		{ $$ = b_func(cx, $1, $4, 0); }
	| WORD '@' WORD			{ $$ = b_func(cx, $3, b_sym(cx, $1), 1); }
	| DOTWORD '@' WORD		{ $$ = b_func(cx, $3, b_sym(cx, $1), 1); }
	| '(' expr '-' expr ')'		{ $$ = b_bin(cx, ESub, $2, $4); }
	| '(' expr '+' expr ')'		{ $$ = b_bin(cx, EAdd, $2, $4); }
	;

/* ---- instructions: `@!P0 IMAD.WIDE.U32 R2, R7.reuse, 0x4, R2 ;` and the encoding comment -- */

/* an instruction line (few rules on this path: it is most of a listing) */
insline
	: icore ';'			{ b_ins(cx, $1, -1, @2.start == @1.end, 0, 0, @$); }
	| icore ';' ENC			{ b_ins(cx, $1, -1, @2.start == @1.end, 1, $3, @$); }
	| icore ENDENC			{ b_ins(cx, $1, -1, @2.start == @1.end, 1, $2, @$); }
	| ADDR icore ';'		{ b_ins(cx, $2, (int64_t)$1, @3.start == @2.end, 0, 0,
					        (Loc){ @2.start, @$.end }); }
	| ADDR icore ';' ENC		{ b_ins(cx, $2, (int64_t)$1, @3.start == @2.end, 1, $4,
					        (Loc){ @2.start, @$.end }); }
	| ADDR icore ENDENC		{ b_ins(cx, $2, (int64_t)$1, @3.start == @2.end, 1, $3,
					        (Loc){ @2.start, @$.end }); }
	;

/* the opcode word; @icore spans the guard, the operands and a branch-target annotation */
icore
	: WORD
	| WORD opnds
	| WORD olds
	| WORD opnds olds
	| WORD opnds TARGETS		{ b_targets(cx, $3, @3); }
	| WORD opnds olds TARGETS	{ b_targets(cx, $4, @4); }
	| guard WORD			{ $$ = $2; }
	| guard WORD opnds		{ $$ = $2; }
	| guard WORD olds		{ $$ = $2; }
	| guard WORD opnds olds		{ $$ = $2; }
	| guard WORD opnds TARGETS	{ $$ = $2; b_targets(cx, $4, @4); }
	| guard WORD opnds olds TARGETS	{ $$ = $2; b_targets(cx, $5, @5); }
	;

guard
	: '@' regword			{ b_guard(cx, $2, 0, @$); }
	| '@' '!' regword		{ b_guard(cx, $3, 1, @$); }
	;

/* a plain register is the common operand: it reduces straight into the list */
opnds
	: regword			{ b_opnd(cx, $1, @1, 0); }
	| xopnd				{ b_opnd(cx, $1, @1, 0); }
	| opnds ',' regword		{ b_opnd(cx, $3, @3, 0); }
	| opnds ',' xopnd		{ b_opnd(cx, $3, @3, 0); }
	| opnds juxt			{ b_opnd(cx, $2, @2, 1); }
	;

/* an operand written after a blank instead of a comma */
juxt
	: LABELREF			{ $$ = b_labelref(cx, $1, @1); }
	| HEX				{ $$ = b_imm(cx, $1, @1); }
	| '-' HEX			{ $$ = b_prefix(cx, '-', b_imm(cx, $2, @2), @$); }
	;

olds
	: old
	| olds old
	;

/* pseudo-operands of IR text: registers read or written that no operand names */
old
	: OLD regword ')'		{ b_pseudo(cx, AnnOld, $2, @2); }
	| DEFP regword ')'		{ b_pseudo(cx, AnnDef, $2, @2); }
	| USEP regword ')'		{ b_pseudo(cx, AnnUse, $2, @2); }
	;

/* operands are indices into the instruction's scratch (cx->ot): small parser values */
xopnd
	: xbase
	| '-' base			{ $$ = b_prefix(cx, '-', $2, @$); }
	| '~' base			{ $$ = b_prefix(cx, '~', $2, @$); }
	| '!' base			{ $$ = b_prefix(cx, '!', $2, @$); }
	| '+' base			{ $$ = b_prefix(cx, '+', $2, @$); }
	| absop
	| '-' absop			{ $$ = b_prefix(cx, '-', $2, @$); }
	;

absop
	: '|' base '|'			{ $$ = b_abs(cx, $2, (Str){ 0, 0 }, @3); }
	| '|' base '|' DOTWORD		{ $$ = b_abs(cx, $2, $4, @4); }
	;

base
	: regword
	| xbase
	;

xbase
	: WORD '[' mterm ']'		{ $$ = b_bank(cx, $1, @1, $3, 0, (Str){ 0, 0 }, @$); }
	| WORD '[' mterm ']' DOTWORD	{ $$ = b_bank(cx, $1, @1, $3, 0, $5, @$); }
	| WORD '[' mterm ']' '[' maddr ']'
					{ $$ = b_bank(cx, $1, @1, $3, 1, (Str){ 0, 0 }, @$); }
	| '[' maddr ']'			{ $$ = b_addr(cx, @$); }
	| HEX				{ $$ = b_imm(cx, $1, @1); }
	| DEC				{ $$ = b_float(cx, @1); }
	| FLOAT				{ $$ = b_float(cx, @1); }
	| LABELREF			{ $$ = b_labelref(cx, $1, @1); }
	| '{' sblist '}'		{ $$ = b_sbset(cx, span(@1, @3), @$); }
	;

sblist
	: DEC
	| sblist ',' DEC
	;

/* a register (or special register, or named operand) with its SSA annotation and suffixes:
 * no empty rules, so that a plain register costs few reductions */
regword
	: WORD				{ $$ = b_word(cx, $1, @1, 0, @1, (Str){ 0, 0 }); }
	| WORD DOTWORD			{ $$ = b_word(cx, $1, @1, 0, @1, $2); }
	| WORD ann			{ $$ = b_word(cx, $1, @1, 1, @2, (Str){ 0, 0 }); }
	| WORD ann DOTWORD		{ $$ = b_word(cx, $1, @1, 1, @2, $3); }
	;

ann
	: '<' vlist '>'
	;

vlist
	: DEC				{ b_vbegin(cx); b_vadd(cx, $1, @1); }
	| vlist ',' DEC			{ b_vadd(cx, $3, @3); }
	;

maddr
	: mterm				{ cx->nterm = 0; b_tadd(cx, $1, 0); }
	| maddr '+' mterm		{ b_tadd(cx, $3, 1); }
	| maddr '-' HEX			{ b_tadd(cx, b_tnum(cx, $3, 1, 1, @3), 0); }
	;

mterm
	: regword			{ $$ = b_treg(cx, $1, @1); }
	| HEX				{ $$ = b_tnum(cx, $1, 1, 0, @1); }
	| DEC				{ $$ = b_tnum(cx, $1, 0, 0, @1); }
	| '-' HEX			{ $$ = b_tnum(cx, $2, 1, 1, @$); }
	;

/* ---- IR text: `R7<5> = phi(bb1: R7<2>, bb3: R7<4>) ;` -------------------------------------- */

phi
	: regword '=' PHI phiargs ')' ';'
					{ b_phi(cx, $1, @$); }
	;

phiargs
	: phiarg
	| phiargs ',' phiarg
	;

phiarg
	: WORD ':' regword		{ b_phiarg(cx, $1, @1, $3, @3); }
	| LABEL regword			{ b_phiarg(cx, $1, @1, $2, @2); }
	;

%%

/* a token's name for messages: bison's alias without its double quotes */
static const char *
tokname(yysymbol_kind_t k, char *buf, size_t n)
{
	const char *s = yysymbol_name(k);
	size_t len = strlen(s);

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		snprintf(buf, n, "%.*s", (int)(len - 2), s + 1);
		return buf;
	}
	return s;
}

/* "unexpected X, expected A, B or C" (the expected list only when it is short); ENDENC is ';'
 * followed by the encoding comment, so it is named ';' */
static int
yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, Ctx *cx)
{
	enum { Max = 6, All = 64 };
	yysymbol_kind_t exp[All];
	const char *name[All];
	char msg[512], b1[64], b2[All][64];
	int n = yypcontext_expected_tokens(ctx, exp, All), len, m = 0, word = 0, hex = 0, dot = 0;
	yysymbol_kind_t tok = yypcontext_token(ctx);

	(void)scanner;
	for (int k = 0; k < n; k++) {
		word |= exp[k] == YYSYMBOL_WORD;
		hex |= exp[k] == YYSYMBOL_HEX;
		dot |= exp[k] == YYSYMBOL_DOTWORD;
	}
	for (int k = 0; k < n; k++) {
		const char *s = exp[k] == YYSYMBOL_ENDENC ? "';'" : tokname(exp[k], b2[k], sizeof b2[k]);
		int dup = 0;
		for (int j = 0; j < m; j++)
			dup |= strcmp(name[j], s) == 0;
		if (!dup)
			name[m++] = s;
	}
	len = snprintf(msg, sizeof msg, "unexpected %s",
	               tok == YYSYMBOL_ENDENC ? "';'" : tokname(tok, b1, sizeof b1));
	if (word && hex) {
		snprintf(msg + len, sizeof msg - (size_t)len, ", expected %s",
		         dot ? "an expression" : "an operand");
	} else if (m > 0 && m < Max) {
		len += snprintf(msg + len, sizeof msg - (size_t)len, ", expected ");
		for (int k = 0; k < m && len < (int)sizeof msg; k++)
			len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s",
			                k == 0 ? "" : k == m - 1 ? " or " : ", ", name[k]);
	}
	error_at(cx->d, *yypcontext_location(ctx), "%s", msg);
	return 0;
}

Module *
sass_parse(Src *src, Diag *d)
{
	return sass_parse_opts(src, d, 0);
}

Module *
sass_parse_opts(Src *src, Diag *d, int flags)
{
	Ctx cx;
	yyscan_t sc;
	int nerr0 = d->nerr, rc;

	memset(&cx, 0, sizeof cx);
	cx.nofast = flags & ParseNoFast;
	cx.m = module_new();
	cx.m->src = src;
	cx.d = d;
	cx.text = src->text;
	cx.len = (uint32_t)src->len;
	cx.badreg = UINT32_MAX;
	sc = lex_open(&cx);
	rc = sass_yyparse(sc, &cx);
	lex_close(sc);
	if (rc == 0 && d->nerr == nerr0)
		b_finish(&cx);
	b_free(&cx);
	src_cold(src);     /* from now on the text is for diagnostics only */
	if (rc != 0 || d->nerr != nerr0) {
		module_free(cx.m);
		return NULL;
	}
	return cx.m;
}
