/* ptx.y: the grammar of PTX modules (ISA 8.x/9.x, as nvcc 13 writes them).
 *
 * module    = { header | declaration | function | section | pragma }
 * function  = linkage* (.entry | .func) [ '(' params ')' ] NAME [ '(' params ')' ] [.noreturn]
 *             perf* ( body | ';' )
 * body      = '{' { statement } '}'
 * statement = label ':' | declaration | instruction ';' | '{' { statement } '}' | .loc | .pragma
 *           | label ':' .callprototype ...
 * instruction = [ '@' ['!'] pred ] WORD [ operand { ',' operand } ]
 * operand   = name | '!' name | name '|' name | number | '-' number | float | '_'
 *           | '{' operands '}' | '[' address ']' | '(' [ operands ] ')'
 *
 * The parser knows no opcode: ptx_check (ptxcheck.c) gives them meaning. Operands are indices
 * into the context's operand stack; a nested list is collapsed into one operand when it closes.
 * Errors recover at the next ';' (or '}'), so one run reports up to MaxErrors. The actions are
 * in ptxast.c.
 */
%code requires {
#include "ptxparse.h"
}

%code provides {
int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, yyscan_t scanner);
}

%code {
#include <stdlib.h>
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
ptx_yyerror(Loc *loc, yyscan_t scanner, PCtx *cx, const char *msg)
{
	(void)scanner;
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "input nested too deeply for the parser (its stack limit)";
	error_at(cx->d, *loc, "%s", msg);
}

static PNum
nonum(void)
{
	PNum n = { 0, 0, 0 };

	return n;
}
}

%define api.prefix {ptx_yy}
%define api.token.prefix {TOK_}
%define api.pure full
%define api.value.type union
%define api.location.type {Loc}
%define parse.error custom
%locations
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {PCtx *cx}
%expect 0

%token <PStr> WORD "name"
%token <PStr> DOTWORD "directive or modifier"
%token <PStr> PERF "performance directive"
%token <PStr> STRING "string"
%token <PStr> FLOAT "float"
%token <PNum> NUM "number"
%token <uint64_t> F32 "0f float"
%token <uint64_t> F64 "0d float"
%token SINK "'_'"
%token VERSION "'.version'"
%token TARGET "'.target'"
%token ADDRSIZE "'.address_size'"
%token FILE "'.file'"
%token LOC "'.loc'"
%token PRAGMA "'.pragma'"
%token SECTION "'.section'"
%token ENTRY "'.entry'"
%token FUNC "'.func'"
%token VISIBLE "'.visible'"
%token EXTERN "'.extern'"
%token WEAK "'.weak'"
%token COMMON "'.common'"
%token REG "'.reg'"
%token SREG "'.sreg'"
%token PARAM "'.param'"
%token SHARED "'.shared'"
%token GLOBAL "'.global'"
%token CONST "'.const'"
%token LOCAL "'.local'"
%token TEX "'.tex'"
%token ALIGN "'.align'"
%token CALLPROTO "'.callprototype'"
%token NORETURN "'.noreturn'"

%type <uint32_t> opnd vlist vlist_opt addr pname mark pmark
%type <PtxExpr *> init einit
%type <int64_t> off

%%

module
	: %empty
	| module top
	;

top
	: VERSION FLOAT			{ pb_version(cx, $2, @$); }
	| TARGET targets
	| ADDRSIZE NUM			{ pb_addrsize(cx, $2, @$); }
	| FILE NUM STRING		{ pb_file(cx, $2, $3, 0, nonum(), nonum(), @$); }
	| FILE NUM STRING ',' NUM ',' NUM
					{ pb_file(cx, $2, $3, 2, $5, $7, @$); }
	| PRAGMA STRING ';'		{ pb_toppragma(cx, $2, @$); }
	| decl				{ pb_decl(cx, @1); if (pb_too_many(cx)) YYABORT; }
	| linkage decl			{ pb_decl(cx, @2); if (pb_too_many(cx)) YYABORT; }
	| function			{ if (pb_too_many(cx)) YYABORT; }
	| linkage function		{ if (pb_too_many(cx)) YYABORT; }
	| section
	| error ';'			{ yyerrok; cx->link = 0; if (pb_too_many(cx)) YYABORT; }
	| error '}'			{ yyerrok; cx->link = 0; pb_fend(cx, 0, @2);
					  if (pb_too_many(cx)) YYABORT; }
	;

targets
	: WORD				{ pb_target(cx, $1, @1); }
	| targets ',' WORD		{ pb_target(cx, $3, @3); }
	;

linkage
	: link
	| linkage link
	;

link
	: VISIBLE			{ pb_link(cx, PlVisible); }
	| EXTERN			{ pb_link(cx, PlExtern); }
	| WEAK				{ pb_link(cx, PlWeak); }
	| COMMON			{ pb_link(cx, PlCommon); }
	;

/* ---- declarations: `.shared .align 4 .b8 s[128];`, `.reg .b32 %r<5>, %x;` ---------------- */

decl
	: space dattrs dnames ';'
	;

space
	: REG				{ pb_dstart(cx, PsReg); }
	| SREG				{ pb_dstart(cx, PsSreg); }
	| PARAM				{ pb_dstart(cx, PsParam); }
	| SHARED			{ pb_dstart(cx, PsShared); }
	| GLOBAL			{ pb_dstart(cx, PsGlobal); }
	| CONST				{ pb_dstart(cx, PsConst); }
	| LOCAL				{ pb_dstart(cx, PsLocal); }
	| TEX				{ pb_dstart(cx, PsTex); }
	;

dattrs
	: %empty
	| dattrs DOTWORD		{ pb_dword(cx, $2, @2); }
	| dattrs ALIGN NUM		{ pb_dalign(cx, $3, @$); }
	| dattrs GLOBAL			{ pb_dword(cx, (PStr){ @2.start, 7 }, @2); }
	| dattrs SHARED			{ pb_dword(cx, (PStr){ @2.start, 7 }, @2); }
	| dattrs CONST			{ pb_dword(cx, (PStr){ @2.start, 6 }, @2); }
	| dattrs LOCAL			{ pb_dword(cx, (PStr){ @2.start, 6 }, @2); }
	;

dnames
	: dname
	| dnames ',' dname
	;

dname
	: dhead
	| dhead '=' init		{ pb_dinit(cx, $3); }
	;

dhead
	: pname
	| pname '<' NUM '>'		{ pb_drange(cx, $3, @3); }
	| dhead '[' NUM ']'		{ pb_ddim(cx, 1, $3, @3); }
	| dhead '[' ']'			{ pb_ddim(cx, 0, nonum(), @2); }
	;

pname
	: WORD				{ pb_dname(cx, $1, @1); $$ = 0; }
	| SINK				{ pb_dname(cx, (PStr){ @1.start, 1 }, @1); $$ = 0; }
	;

/* initialisers: numbers, floats, names, generic(name), name+offset, nested {lists} */
init
	: einit
	| '{' mark elist '}'		{ $$ = pb_elist(cx, $2, @$); }
	| '{' '}'			{ $$ = pb_elist(cx, pb_emark(cx), @$); }
	;

mark
	: %empty			{ $$ = pb_emark(cx); }
	;

elist
	: init				{ pb_epush(cx, $1); }
	| elist ',' init		{ pb_epush(cx, $3); }
	;

einit
	: NUM				{ $$ = pb_eint(cx, $1, 0, @$); }
	| '-' NUM			{ $$ = pb_eint(cx, $2, 1, @$); }
	| F32				{ $$ = pb_efloat(cx, PeF32, $1, (PStr){ 0, 0 }, @$); }
	| F64				{ $$ = pb_efloat(cx, PeF64, $1, (PStr){ 0, 0 }, @$); }
	| FLOAT				{ $$ = pb_efloat(cx, PeFDec, 0, $1, @$); }
	| '-' FLOAT			{ $$ = pb_efloat(cx, PeFDec, 1, $2, @$); }
	| WORD				{ $$ = pb_esym(cx, $1, 0, @$); }
	| DOTWORD			{ $$ = pb_esym(cx, $1, 0, @$); }
	| DOTWORD '+' NUM		{ $$ = pb_eadd(cx, pb_esym(cx, $1, 0, @1), pb_eint(cx, $3, 0, @3), @$); }
	| WORD '(' WORD ')'		{ $$ = pb_esym(cx, $3, pstreq(cx, $1, "generic") ? 1 : -1, @$); }
	| WORD '+' NUM			{ $$ = pb_eadd(cx, pb_esym(cx, $1, 0, @1), pb_eint(cx, $3, 0, @3), @$); }
	;

/* ---- functions ------------------------------------------------------------------------------ */

function
	: fhead fattrs body		{ pb_fend(cx, 1, @$); }
	| fhead fattrs ';'		{ pb_fend(cx, 0, @$); }
	;

fhead
	: fkind WORD			{ pb_fname(cx, $2, @2); }
	| fkind WORD fparams		{ pb_fname(cx, $2, @2); pb_fparams(cx, 0); }
	| fkind rparams WORD		{ pb_fname(cx, $3, @3); }
	| fkind rparams WORD fparams	{ pb_fname(cx, $3, @3); pb_fparams(cx, 0); }
	;

fkind
	: ENTRY				{ pb_fstart(cx, 1, @1); }
	| FUNC				{ pb_fstart(cx, 0, @1); }
	;

rparams
	: fparams			{ pb_fparams(cx, 1); }
	;

fparams
	: '(' ')'
	| '(' params ')'
	;

params
	: param
	| params ',' param
	;

param
	: pspace dattrs pname
	| pspace dattrs pname '[' NUM ']'	{ pb_ddim(cx, 1, $5, @5); }
	| pspace dattrs pname '[' ']'		{ pb_ddim(cx, 0, nonum(), @4); }
	;

pspace
	: PARAM				{ pb_dstart(cx, PsParam); }
	| REG				{ pb_dstart(cx, PsReg); }
	;

fattrs
	: %empty
	| fattrs NORETURN		{ pb_fnoreturn(cx); }
	| fattrs PERF			{ pb_fattr(cx, $2, @2); }
	| fattrs PERF nums		{ pb_fattr(cx, $2, @$); }
	;

nums
	: NUM				{ pb_fnum(cx, $1, @1); }
	| nums ',' NUM			{ pb_fnum(cx, $3, @3); }
	;

body
	: '{' bstart stmts '}'
	;

bstart
	: %empty			{ pb_fbody(cx); }
	;

stmts
	: %empty
	| stmts stmt			{ if (pb_too_many(cx)) YYABORT; }
	;

stmt
	: WORD ':'			{ pb_label(cx, $1, @1); }
	| WORD ':' CALLPROTO pmark SINK fparams ';'
					{ pb_proto(cx, $1, $4, 0, $4, @$); }
	| WORD ':' CALLPROTO pmark fparams pmark SINK fparams ';'
					{ pb_proto(cx, $1, $4, 1, $6, @$); }
	| decl				{ pb_decl(cx, @1); }
	| ins ';'
	| '{'				{ pb_begin(cx, @1); } stmts '}' { pb_end(cx, @4); }
	| LOC NUM NUM NUM		{ pb_loc(cx, $2, $3, $4, @$); }
	| LOC NUM NUM NUM ',' WORD WORD ',' WORD NUM NUM NUM
					{ pb_loc(cx, $2, $3, $4, @$);
					  pb_locinl(cx, $6, $7, $9, $10, $11, $12, @6); }
	| PRAGMA STRING ';'		{ pb_pragma(cx, $2, @$); }
	| error ';'			{ yyerrok; pb_insreset(cx); }
	;

/* `.callprototype (.param .b32 _) _ (.param .b32 _)`: the return list, then `_`, then the
 * parameters; pb_proto splits the stacked names at the mark of each list */
pmark
	: %empty			{ $$ = pb_pmark(cx); }
	;

/* ---- instructions ---------------------------------------------------------------------------- */

ins
	: WORD				{ pb_ins(cx, $1, @1, @$); }
	| WORD opnds			{ pb_ins(cx, $1, @1, @$); }
	| guard WORD			{ pb_ins(cx, $2, @2, @$); }
	| guard WORD opnds		{ pb_ins(cx, $2, @2, @$); }
	;

guard
	: '@' WORD			{ pb_guard(cx, $2, 0, @$); }
	| '@' '!' WORD			{ pb_guard(cx, $3, 1, @$); }
	;

opnds
	: opnd
	| opnds ',' opnd
	;

opnd
	: WORD				{ $$ = pb_oname(cx, $1, 0, @$); }
	| '!' WORD			{ $$ = pb_oname(cx, $2, 1, @$); }
	| WORD '|' WORD			{ uint32_t m = pb_oname(cx, $1, 0, @1); pb_oname(cx, $3, 0, @3);
					  $$ = pb_olist(cx, PoPair, m, @$); }
	| SINK '|' WORD			{ uint32_t m = pb_osink(cx, @1); pb_oname(cx, $3, 0, @3);
					  $$ = pb_olist(cx, PoPair, m, @$); }
	| WORD '|' SINK			{ uint32_t m = pb_oname(cx, $1, 0, @1); pb_osink(cx, @3);
					  $$ = pb_olist(cx, PoPair, m, @$); }
	| NUM				{ $$ = pb_oimm(cx, $1, 0, @$); }
	| '-' NUM			{ $$ = pb_oimm(cx, $2, 1, @$); }
	| F32				{ $$ = pb_ofloat(cx, PoF32, $1, (PStr){ 0, 0 }, @$); }
	| F64				{ $$ = pb_ofloat(cx, PoF64, $1, (PStr){ 0, 0 }, @$); }
	| FLOAT				{ $$ = pb_ofloat(cx, PoFDec, 0, $1, @$); }
	| '-' FLOAT			{ $$ = pb_ofloat(cx, PoFDec, 1, $2, @$); }
	| SINK				{ $$ = pb_osink(cx, @$); }
	| '{' vlist '}'			{ $$ = pb_olist(cx, PoVec, $2, @$); }
	| '(' vlist_opt ')'		{ $$ = pb_olist(cx, PoList, $2, @$); }
	| '[' addr ']'			{ $$ = pb_oaddr(cx, $2, 0, 0, @$); }
	| '[' addr off ']'		{ $$ = pb_oaddr(cx, $2, 1, $3, @$); }
	| '[' addr ',' vlist ']'	{ $$ = pb_oaddr(cx, $2, 0, 0, @$); }
	;

vlist_opt
	: %empty			{ $$ = pb_omark(cx); }
	| vlist
	;

vlist
	: opnd
	| vlist ',' opnd
	;

addr
	: WORD				{ $$ = pb_oname(cx, $1, 0, @$); }
	| NUM				{ $$ = pb_oimm(cx, $1, 0, @$); }
	| '-' NUM			{ $$ = pb_oimm(cx, $2, 1, @$); }
	;

off
	: '+' NUM			{ $$ = (int64_t)$2.v; }
	| '+' '-' NUM			{ $$ = (int64_t)(0 - $3.v); }
	| '-' NUM			{ $$ = (int64_t)(0 - $2.v); }
	;

/* ---- sections: `.section .debug_str { $L__info_string0: .b8 95,90,0 }` -------------------- */

section
	: SECTION DOTWORD '{'		{ pb_secstart(cx, $2, @2); } sitems '}' { pb_secend(cx, @$); }
	;

sitems
	: %empty
	| sitems WORD ':'		{ pb_seclabel(cx, $2, @2); }
	| sitems DOTWORD mark elist	{ pb_secdata(cx, $2, $3, @2); }
	| sitems DOTWORD mark elist ';'	{ pb_secdata(cx, $2, $3, @2); }
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

/* "unexpected X, expected A, B or C" (the expected list only when it is short) */
static int
yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, PCtx *cx)
{
	enum { Max = 5, All = 64 };
	yysymbol_kind_t exp[All];
	char msg[512], b1[64], b2[All][64];
	int n = yypcontext_expected_tokens(ctx, exp, All), len;
	yysymbol_kind_t tok = yypcontext_token(ctx);

	(void)scanner;
	len = snprintf(msg, sizeof msg, "unexpected %s", tokname(tok, b1, sizeof b1));
	if (n > 0 && n <= Max) {
		len += snprintf(msg + len, sizeof msg - (size_t)len, ", expected ");
		for (int k = 0; k < n && len < (int)sizeof msg; k++)
			len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s",
			                k == 0 ? "" : k == n - 1 ? " or " : ", ",
			                tokname(exp[k], b2[k], sizeof b2[k]));
	}
	error_at(cx->d, *yypcontext_location(ctx), "%s", msg);
	return 0;
}

Ptx *
ptx_parse_only(Src *src, Diag *d)
{
	PCtx cx;
	yyscan_t sc;
	int rc;

	memset(&cx, 0, sizeof cx);
	cx.p = xmalloc(sizeof *cx.p);
	cx.p->atoms = atoms_new();
	cx.p->arena = arena_new();
	cx.p->src = src;
	cx.d = d;
	cx.nerr0 = d->nerr;
	cx.text = src->text;
	cx.len = (uint32_t)src->len;
	sc = ptxlex_open(&cx);
	rc = ptx_yyparse(sc, &cx);
	ptxlex_close(sc);
	if (rc == 0 && d->nerr == cx.nerr0 && !cx.p->vloc.end)
		error_at(d, (Loc){ 0, 0 }, "not a PTX module: no .version directive");
	if (rc == 0 && d->nerr == cx.nerr0)
		pb_finish(&cx);
	pb_free(&cx);
	if (rc != 0 || d->nerr != cx.nerr0) {
		ptx_free(cx.p);
		return NULL;
	}
	return cx.p;
}

Ptx *
ptx_parse(Src *src, Diag *d)
{
	Ptx *p = ptx_parse_only(src, d);

	if (p && ptx_check(p, d) < 0) {
		ptx_free(p);
		return NULL;
	}
	return p;
}

void
ptx_free(Ptx *p)
{
	if (!p)
		return;
	atoms_free(p->atoms);
	arena_free(p->arena);
	free(p);
}
