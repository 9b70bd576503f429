/* check_ptx.c: the PTX front end (frontend/ptx/ptx.l, ptx.y, ptxast.c, ptxprint.c, ptxcheck.c):
 * the AST of a hand-written module (counts of functions, parameters, registers, instructions per
 * opcode), every operand form, golden diagnostics (file:line:col, message, caret), and every
 * committed nvcc PTX file (examples/, tests/corpus/) parsing, checking and printing back to text
 * that parses to the same AST (print, parse, print: identical).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

/* a small module in nvcc's style: an entry calling a device function, shared memory, an
 * initialised global, a loop, a predicated branch, a call sequence and an inline-asm block */
static const char small[] =
    ".version 9.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    "\n"
    ".global .align 4 .b8 tbl[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
    ".const .align 4 .f32 scale = 0f3F800000;\n"
    "\n"
    ".func  (.param .b32 func_retval0) sq(\n"
    "\t.param .b32 sq_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<3>;\n"
    "\tld.param.u32 \t%r1, [sq_param_0];\n"
    "\tmul.lo.s32 \t%r2, %r1, %r1;\n"
    "\tst.param.b32 \t[func_retval0+0], %r2;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 k_param_0,\n"
    "\t.param .u32 k_param_1\n"
    ")\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    "\t.shared .align 4 .b8 s[512];\n"
    "\t.reg .pred \t%p<3>;\n"
    "\t.reg .f32 \t%f<4>;\n"
    "\t.reg .b32 \t%r<8>;\n"
    "\t.reg .b64 \t%rd<5>;\n"
    "\t.loc\t1 5 0\n"
    "\tld.param.u64 \t%rd1, [k_param_0];\n"
    "\tld.param.u32 \t%r1, [k_param_1];\n"
    "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
    "\tmov.u32 \t%r2, %tid.x;\n"
    "\tsetp.ge.s32 \t%p1, %r2, %r1;\n"
    "\t@%p1 bra \t$L__BB1_3;\n"
    "\tmul.wide.s32 \t%rd3, %r2, 4;\n"
    "\tadd.s64 \t%rd4, %rd2, %rd3;\n"
    "$L__BB1_2:\n"
    "\t.pragma \"nounroll\";\n"
    "\tld.global.nc.v2.f32 \t{%f1, %f2}, [%rd4+-8];\n"
    "\tfma.rn.ftz.f32 \t%f3, %f1, 0f3F800000, %f2;\n"
    "\tst.global.f32 \t[%rd4], %f3;\n"
    "\tadd.s32 \t%r2, %r2, -1;\n"
    "\tsetp.ne.s32 \t%p2, %r2, 0;\n"
    "\t@!%p2 bra.uni \t$L__BB1_2;\n"
    "\tmov.u32 \t%r3, s;\n"
    "\tst.shared.u32 \t[s+4], %r3;\n"
    "\tshfl.sync.bfly.b32 \t%r4|%p2, %r3, 16, 31, -1;\n"
    "\t{ // callseq 0, 0\n"
    "\t.param .b32 param0;\n"
    "\tst.param.b32 \t[param0+0], %r4;\n"
    "\t.param .b32 retval0;\n"
    "\tcall.uni (retval0), \n\tsq, \n\t(\n\tparam0\n\t);\n"
    "\tld.param.b32 \t%r5, [retval0+0];\n"
    "\t} // callseq 0\n"
    "\t{ .reg .b32 t; mov.b32 t, 0x7FU; and.b32 %r6, %r5, t; }\n"
    "\tmov.b64 \t%rd3, {%r5, %r6};\n"
    "\tmov.b64 \t{_, %r7}, %rd3;\n"
    "$L__BB1_3:\n"
    "\tret;\n"
    "}\n"
    "\t.file\t1 \"/tmp/k.cu\"\n";

static Ptx *
parse(const char *text, size_t len, Src **src, char **msgs)
{
	static size_t n;
	FILE *out = open_memstream(msgs, &n);
	Diag d;
	Ptx *p;

	*src = src_new("t.ptx", text, len);
	diag_init(&d, *src, out);
	p = ptx_parse(*src, &d);
	fclose(out);
	return p;
}

static Ptx *
parse_ok(const char *text, Src **src)
{
	char *msgs = NULL;
	Ptx *p = parse(text, strlen(text), src, &msgs);

	ck_assert_msg(p != NULL, "parse failed:\n%s", msgs);
	free(msgs);
	return p;
}

static const PtxFunc *
fn_named(const Ptx *p, const char *name)
{
	for (uint32_t k = 0; k < p->nfn; k++)
		if (strcmp(ptx_str(p, p->fn[k]->name), name) == 0)
			return p->fn[k];
	return NULL;
}

static const PtxIns *
nth_ins(const PtxFunc *f, uint32_t n)
{
	for (uint32_t k = 0; k < f->nst; k++)
		if (f->st[k].kind == PsIns && n-- == 0)
			return f->st[k].ins;
	return NULL;
}

static uint32_t
count_op(const Ptx *p, const PtxFunc *f, const char *op)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < f->nst; k++)
		n += f->st[k].kind == PsIns && strcmp(ptx_str(p, f->st[k].ins->op), op) == 0;
	return n;
}

/* registers a function declares: a range %r<N> counts N */
static uint32_t
count_regs(const PtxFunc *f)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < f->nst; k++)
		if (f->st[k].kind == PsDecl)
			for (uint32_t j = 0; j < f->st[k].nvar; j++)
				if (f->st[k].var[j].space == PsReg)
					n += f->st[k].var[j].range ? f->st[k].var[j].range : 1;
	return n;
}

static char *
print_text(const Ptx *p)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	ptx_print(out, p);
	fclose(out);
	return buf;
}

START_TEST(test_ptx_module_counts)
{
	Src *src;
	Ptx *p = parse_ok(small, &src);
	const PtxFunc *k = fn_named(p, "k"), *sq = fn_named(p, "sq");

	ck_assert_uint_eq(p->vmajor, 9);
	ck_assert_uint_eq(p->vminor, 0);
	ck_assert_int_eq(p->sm, 80);
	ck_assert_uint_eq(p->addrsize, 64);
	ck_assert_uint_eq(p->nfn, 2);
	ck_assert_uint_eq(p->nfile, 1);
	ck_assert_str_eq(ptx_str(p, p->file[0].path), "/tmp/k.cu");
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(sq);
	ck_assert_int_eq(k->entry, 1);
	ck_assert_int_eq(sq->entry, 0);
	ck_assert_uint_eq(k->link, PlVisible);
	ck_assert_uint_eq(k->nparam, 2);
	ck_assert_uint_eq(k->nret, 0);
	ck_assert_uint_eq(sq->nparam, 1);
	ck_assert_uint_eq(sq->nret, 1);
	ck_assert_str_eq(ptx_str(p, sq->ret[0].name), "func_retval0");
	ck_assert_str_eq(ptx_str(p, k->param[0].type), "u64");
	ck_assert_uint_eq(k->nattr, 1);
	ck_assert_str_eq(ptx_str(p, k->attr[0].name), ".maxntid");
	ck_assert_uint_eq(k->attr[0].nval, 3);
	ck_assert_uint_eq(k->attr[0].val[0], 128);
	/* %p<3> %f<4> %r<8> %rd<5> and the inline block's t */
	ck_assert_uint_eq(count_regs(k), 3 + 4 + 8 + 5 + 1);
	ck_assert_uint_eq(count_regs(sq), 3);
	ck_assert_uint_eq(ptx_count_ins(p), 4 + 25);
	ck_assert_uint_eq(count_op(p, k, "ld"), 4);
	ck_assert_uint_eq(count_op(p, k, "st"), 3);
	ck_assert_uint_eq(count_op(p, k, "mov"), 5);
	ck_assert_uint_eq(count_op(p, k, "bra"), 2);
	ck_assert_uint_eq(count_op(p, k, "setp"), 2);
	ck_assert_uint_eq(count_op(p, k, "call"), 1);
	ck_assert_uint_eq(count_op(p, k, "ret"), 1);
	ck_assert_uint_eq(count_op(p, sq, "mul"), 1);
	/* top-level items: two variables, two functions, one .file */
	ck_assert_uint_eq(p->ntop, 5);
	ck_assert_int_eq(p->top[0].kind, PtVar);
	ck_assert_int_eq(p->top[0].var[0].dim[0], 8);
	ck_assert_int_eq(p->top[0].var[0].align, 4);
	ck_assert_int_eq(p->top[0].var[0].init->kind, PeList);
	ck_assert_uint_eq(p->top[0].var[0].init->nsub, 8);
	ck_assert_int_eq(p->top[1].var[0].space, PsConst);
	ck_assert_int_eq(p->top[1].var[0].init->kind, PeF32);
	ck_assert_int_eq(p->top[1].var[0].init->ival, 0x3F800000);
	ptx_free(p);
	src_free(src);
}
END_TEST

START_TEST(test_ptx_operand_forms)
{
	Src *src;
	Ptx *p = parse_ok(small, &src);
	const PtxFunc *k = fn_named(p, "k");
	const PtxIns *i;
	const PtxOpnd *o;

	/* ld.param.u64 %rd1, [k_param_0]: a parameter address */
	i = nth_ins(k, 0);
	ck_assert_str_eq(ptx_str(p, i->op), "ld");
	ck_assert_uint_eq(i->nmod, 2);
	ck_assert_str_eq(ptx_str(p, i->mod[0]), "param");
	ck_assert_int_eq(i->opnd[0].what, PwReg);
	o = &i->opnd[1];
	ck_assert_int_eq(o->kind, PoAddr);
	ck_assert_int_eq(o->hasoff, 0);
	ck_assert_int_eq(o->sub[0].what, PwVar);
	ck_assert_int_eq(o->sub[0].decl->space, PsParam);
	/* mov.u32 %r2, %tid.x: a special register with its component */
	o = &nth_ins(k, 3)->opnd[1];
	ck_assert_str_eq(ptx_str(p, o->atom), "%tid");
	ck_assert_str_eq(ptx_str(p, o->sfx), "x");
	ck_assert_int_eq(o->what, PwSreg);
	/* @%p1 bra $L__BB1_3 */
	i = nth_ins(k, 5);
	ck_assert_int_eq(i->guard, 1);
	ck_assert_str_eq(ptx_str(p, i->gpred), "%p1");
	ck_assert_int_eq(i->opnd[0].what, PwLabel);
	/* ld.global.nc.v2.f32 {%f1, %f2}, [%rd4+-8] */
	i = nth_ins(k, 8);
	ck_assert_uint_eq(i->nmod, 4);
	ck_assert_int_eq(ptx_ins_hasmod(p, i, "nc"), 1);
	ck_assert_int_eq(i->opnd[0].kind, PoVec);
	ck_assert_uint_eq(i->opnd[0].nsub, 2);
	ck_assert_int_eq(i->opnd[1].kind, PoAddr);
	ck_assert_int_eq(i->opnd[1].hasoff, 1);
	ck_assert_int_eq(i->opnd[1].ival, -8);
	/* fma.rn.ftz.f32 %f3, %f1, 0f3F800000, %f2 */
	o = &nth_ins(k, 9)->opnd[2];
	ck_assert_int_eq(o->kind, PoF32);
	ck_assert_int_eq(o->ival, 0x3F800000);
	/* add.s32 %r2, %r2, -1 */
	o = &nth_ins(k, 11)->opnd[2];
	ck_assert_int_eq(o->kind, PoImm);
	ck_assert_int_eq(o->ival, -1);
	/* @!%p2 bra.uni */
	ck_assert_int_eq(nth_ins(k, 13)->guard, 2);
	/* st.shared.u32 [s+4]: a variable plus an offset */
	o = &nth_ins(k, 15)->opnd[0];
	ck_assert_int_eq(o->sub[0].what, PwVar);
	ck_assert_int_eq(o->sub[0].decl->space, PsShared);
	ck_assert_int_eq(o->ival, 4);
	/* shfl.sync.bfly.b32 %r4|%p2, ... */
	o = &nth_ins(k, 16)->opnd[0];
	ck_assert_int_eq(o->kind, PoPair);
	ck_assert_int_eq(o->sub[1].decl->space, PsReg);
	/* call.uni (retval0), sq, (param0) */
	i = nth_ins(k, 18);
	ck_assert_str_eq(ptx_str(p, i->op), "call");
	ck_assert_uint_eq(i->nopnd, 3);
	ck_assert_int_eq(i->opnd[0].kind, PoList);
	ck_assert_int_eq(i->opnd[1].what, PwFunc);
	ck_assert_int_eq(i->opnd[2].kind, PoList);
	ck_assert_int_eq(i->opnd[2].sub[0].what, PwVar);
	/* the inline block: mov.b32 t, 0x7FU (a bare register name) */
	i = nth_ins(k, 20);
	ck_assert_int_eq(i->opnd[0].what, PwReg);
	ck_assert_int_eq(i->opnd[1].hex, 1);
	ck_assert_int_eq(i->opnd[1].usfx, 1);
	ck_assert_int_eq(i->opnd[1].ival, 0x7f);
	/* mov.b64 {_, %r7}, %rd3 */
	o = &nth_ins(k, 23)->opnd[0];
	ck_assert_int_eq(o->sub[0].kind, PoSink);
	ptx_free(p);
	src_free(src);
}
END_TEST

START_TEST(test_ptx_statements)
{
	Src *src;
	Ptx *p = parse_ok(small, &src);
	const PtxFunc *k = fn_named(p, "k");
	uint32_t nbegin = 0, nend = 0, nlab = 0, nloc = 0, nprag = 0;

	for (uint32_t j = 0; j < k->nst; j++) {
		nbegin += k->st[j].kind == PsBegin;
		nend += k->st[j].kind == PsEnd;
		nlab += k->st[j].kind == PsLabel;
		nloc += k->st[j].kind == PsLoc;
		nprag += k->st[j].kind == PsPragma;
	}
	ck_assert_uint_eq(nbegin, 2);
	ck_assert_uint_eq(nend, 2);
	ck_assert_uint_eq(nlab, 2);
	ck_assert_uint_eq(nloc, 1);
	ck_assert_uint_eq(nprag, 1);
	ptx_free(p);
	src_free(src);
}
END_TEST

/* print, parse, print: the same text */
static void
roundtrip(const char *name, const char *text, size_t len)
{
	Src *s1, *s2;
	char *m1 = NULL, *m2 = NULL, *t1, *t2;
	Ptx *p1, *p2;

	p1 = parse(text, len, &s1, &m1);
	ck_assert_msg(p1 != NULL, "%s does not parse:\n%s", name, m1);
	t1 = print_text(p1);
	p2 = parse(t1, strlen(t1), &s2, &m2);
	ck_assert_msg(p2 != NULL, "%s: the printed text does not parse:\n%s", name, m2);
	t2 = print_text(p2);
	ck_assert_msg(strcmp(t1, t2) == 0, "%s: print, parse, print differs", name);
	ck_assert_uint_eq(ptx_count_ins(p1), ptx_count_ins(p2));
	ck_assert_uint_eq(p1->nfn, p2->nfn);
	free(t1);
	free(t2);
	free(m1);
	free(m2);
	ptx_free(p1);
	ptx_free(p2);
	src_free(s1);
	src_free(s2);
}

START_TEST(test_ptx_roundtrip_small)
{
	roundtrip("small", small, strlen(small));
}
END_TEST

/* edge values: the most negative immediate and offset (a fuzzer find: no signed overflow),
 * -G debug data lines naming sections, octal and binary numbers, decimal floats */
START_TEST(test_ptx_roundtrip_edges)
{
	static const char text[] =
	    ".version 9.0\n.target sm_80\n.address_size 64\n"
	    ".visible .entry k()\n{\n\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<2>;\n"
	    "\tmov.b64 %rd1, -9223372036854775808;\n"
	    "\tld.global.u64 %rd2, [%rd1+-9223372036854775808];\n"
	    "\tmov.b64 %rd2, 0777;\n\tmov.b64 %rd2, 0b101U;\n"
	    "\tmov.f32 %f1, 1.5e3;\n\tmov.f32 %f1, -2.;\n\tret;\n}\n"
	    "\t.section\t.debug_info\n\t{\n.b32 .debug_abbrev\n.b32 .debug_loc+493\n.b8 0\n\t}\n";
	Src *src;
	Ptx *p;
	const PtxFunc *k;

	roundtrip("edges", text, strlen(text));
	p = parse_ok(text, &src);
	k = fn_named(p, "k");
	ck_assert_int_eq(nth_ins(k, 0)->opnd[1].ival, INT64_MIN);
	ck_assert_int_eq(nth_ins(k, 1)->opnd[1].ival, INT64_MIN);
	ck_assert_int_eq(nth_ins(k, 2)->opnd[1].ival, 0777);
	ck_assert_int_eq(nth_ins(k, 3)->opnd[1].ival, 5);
	ck_assert_double_eq(nth_ins(k, 4)->opnd[1].fval, 1500.0);
	ck_assert_double_eq(nth_ins(k, 5)->opnd[1].fval, -2.0);
	ck_assert_uint_eq(p->top[1].sec->nitem, 3);
	ptx_free(p);
	src_free(src);
}
END_TEST

/* every nvcc PTX file of the repository */
START_TEST(test_ptx_corpus)
{
	const char *root = getenv("FIBER_ROOT");
	char pat[2][4096];
	glob_t g;
	unsigned nfile = 0;

	snprintf(pat[0], sizeof pat[0], "%s/examples/*/*.ptx", root ? root : ".");
	snprintf(pat[1], sizeof pat[1], "%s/tests/corpus/*.ptx", root ? root : ".");
	ck_assert_int_eq(glob(pat[0], 0, NULL, &g), 0);
	ck_assert_int_eq(glob(pat[1], GLOB_APPEND, NULL, &g), 0);
	for (size_t k = 0; k < g.gl_pathc; k++) {
		Diag d;
		Src *src;
		diag_init(&d, NULL, stderr);
		src = src_read(g.gl_pathv[k], &d);
		ck_assert_ptr_nonnull(src);
		roundtrip(g.gl_pathv[k], src->text, src->len);
		src_free(src);
		nfile++;
	}
	/* 10 examples and 16 corpus files, most on two architectures */
	ck_assert_uint_ge(nfile, 40);
	globfree(&g);
}
END_TEST

/* ---- diagnostics ------------------------------------------------------------------------------ */

#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"
#define FN ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"

static const struct {
	const char *name;  /* the class of bad input */
	const char *text;  /* the input */
	const char *line1; /* the first line of the report */
	const char *caret; /* the caret line */
} gold[] = {
	{ "unknown instruction", HDR FN "\tfoo.b32 %r1, %r2;\n}\n",
	  "t.ptx:8:2: error: unknown PTX instruction 'foo'",
	  "      |  ^~~" },
	{ "unknown modifier", HDR FN "\tadd.wat.s32 %r1, %r2, %r3;\n}\n",
	  "t.ptx:8:5: error: unknown modifier '.wat' for PTX instruction 'add'",
	  "      |     ^~~~" },
	{ "modifier of another instruction", HDR FN "\tmov.global.b32 %r1, %r2;\n}\n",
	  "t.ptx:8:5: error: unknown modifier '.global' for PTX instruction 'mov'",
	  "      |     ^~~~~~~" },
	{ "undeclared register", HDR FN "\tadd.s32 %r1, %q2, 1;\n}\n",
	  "t.ptx:8:15: error: use of undeclared register '%q2'",
	  "      |               ^~~" },
	{ "register outside its range", HDR FN "\tmov.b32 %r4, 0;\n}\n",
	  "t.ptx:8:10: error: use of undeclared register '%r4'",
	  "      |          ^~~" },
	{ "register used before its declaration", HDR
	  ".visible .entry k()\n{\n\tmov.b32 %r1, 0;\n\t.reg .b32 %r<4>;\n}\n",
	  "t.ptx:6:10: error: use of undeclared register '%r1'",
	  "      |          ^~~" },
	{ "register of a closed block", HDR FN "\t{ .reg .b32 t; mov.b32 t, 1; }\n\tmov.b32 %r1, t;\n}\n",
	  "t.ptx:9:15: error: use of undeclared identifier 't'",
	  "      |               ^" },
	{ "undefined label", HDR FN "\tbra $L__BB0_9;\n}\n",
	  "t.ptx:8:6: error: use of undeclared identifier '$L__BB0_9'",
	  "      |      ^~~~~~~~~" },
	{ "duplicate label", HDR FN "L1:\nL1:\n\tret;\n}\n",
	  "t.ptx:9:1: error: redefinition of label 'L1'",
	  "      | ^~" },
	{ "guard not a predicate", HDR FN "\t@%r1 ret;\n}\n",
	  "t.ptx:8:3: error: guard '%r1' is not a predicate register",
	  "      |   ^~~" },
	{ "operand count", HDR FN "\tadd.s32 %r1, %r2;\n}\n",
	  "t.ptx:8:2: error: 'add' takes 3 operands, 2 given",
	  "      |  ^~~~~~~~~~~~~~~~" },
	{ "immediate destination", HDR FN "\tadd.s32 5, %r2, %r3;\n}\n",
	  "t.ptx:8:10: error: destination of 'add' must be a register",
	  "      |          ^" },
	{ "setp into a non-predicate", HDR FN "\tsetp.eq.s32 %r1, %r2, %r3;\n}\n",
	  "t.ptx:8:14: error: destination of 'setp' must be a predicate register",
	  "      |              ^~~" },
	{ "ld without an address", HDR FN "\tld.global.u32 %r1, %r2;\n}\n",
	  "t.ptx:8:2: error: 'ld' needs an address operand [...]",
	  "      |  ^~~~~~~~~~~~~~~~~~~~~~" },
	{ "redeclared register", HDR FN "\t.reg .b32 %r<2>;\n}\n",
	  "t.ptx:8:12: error: redefinition of '%r'",
	  "      |            ^~" },
	{ "unknown type", HDR FN "\t.reg .q32 %x;\n}\n",
	  "t.ptx:8:12: error: unknown type '.q32' in the declaration of '%x'",
	  "      |            ^~" },
	{ "missing semicolon", HDR FN "\tadd.s32 %r1, %r2, %r3\n\tret;\n}\n",
	  "t.ptx:9:2: error: unexpected name, expected ';'",
	  "      |  ^~~" },
	{ "stray character", HDR FN "\tadd.s32 %r1, %r2, #3;\n}\n",
	  "t.ptx:8:20: error: stray '#' in input",
	  "      |                    ^" },
	{ "NUL byte", HDR FN "\t\0;\n}\n",
	  "t.ptx:8:2: error: stray NUL byte in input",
	  "      |  ^" },
	{ "unterminated string", HDR FN "\t.pragma \"nounroll;\n}\n",
	  "t.ptx:8:10: error: missing terminating '\"' character",
	  "      |          ^~~~~~~~~~" },
	{ "unterminated comment", HDR "/* open",
	  "t.ptx:4:1: error: unterminated comment",
	  "      | ^~" },
	{ "number too large", HDR FN "\tmov.b32 %r1, 99999999999999999999;\n}\n",
	  "t.ptx:8:15: error: integer constant is too large for 64 bits",
	  "      |               ^~~~~~~~~~~~~~~~~~~~" },
	{ "not PTX", "hello",
	  "t.ptx:1:1: error: unexpected name",
	  "      | ^~~~~" },
	{ "no version", ".target sm_80\n",
	  "t.ptx:1:1: error: not a PTX module: no .version directive",
	  "      | ^" },
	{ "unclosed body", HDR FN "\tret;\n",
	  "t.ptx:9:1: error: unexpected end of file",
	  "      | ^" },
};

/* the lines of a report: 1 the message, 3 the caret line */
static char *
report_line(const char *msgs, int n)
{
	const char *s = msgs;

	for (int k = 1; k < n && s; k++)
		if ((s = strchr(s, '\n')))
			s++;
	if (!s)
		return strdup("");
	return strndup(s, strcspn(s, "\n"));
}

START_TEST(test_ptx_diagnostics)
{
	const char *text = gold[_i].text;
	size_t len = strlen(text);
	char *msgs = NULL, *l1, *l3;
	Src *src;
	Ptx *p;

	/* the NUL case holds its NUL inside the text */
	if (strcmp(gold[_i].name, "NUL byte") == 0)
		len = sizeof(HDR FN "\t\0;\n}\n") - 1;
	p = parse(text, len, &src, &msgs);
	ck_assert_msg(p == NULL, "%s: parsed", gold[_i].name);
	l1 = report_line(msgs, 1);
	l3 = report_line(msgs, 3);
	ck_assert_msg(strcmp(l1, gold[_i].line1) == 0, "%s:\n got  %s\n want %s\n%s", gold[_i].name,
	              l1, gold[_i].line1, msgs);
	ck_assert_msg(strcmp(l3, gold[_i].caret) == 0, "%s:\n got  '%s'\n want '%s'", gold[_i].name,
	              l3, gold[_i].caret);
	free(l1);
	free(l3);
	free(msgs);
	src_free(src);
}
END_TEST

/* many errors: the parser stops after MaxErrors and never crashes */
START_TEST(test_ptx_error_limit)
{
	char *text = malloc(64 * 1024), *msgs = NULL;
	size_t n = 0;
	Src *src;

	int nerr = 0;

	n += (size_t)snprintf(text, 1024, "%s%s", HDR, FN);
	for (int k = 0; k < 200; k++)
		n += (size_t)sprintf(text + n, "\tfoo.b32 %%r1, %%r2;\n");
	n += (size_t)sprintf(text + n, "}\n");
	ck_assert_ptr_null(parse(text, n, &src, &msgs));
	for (const char *s = msgs; (s = strstr(s, ": error: ")); s++)
		nerr++;
	ck_assert_int_eq(nerr, MaxErrors);
	free(text);
	free(msgs);
	src_free(src);
}
END_TEST

START_TEST(test_ptx_table)
{
	static const char *const need[] = {
		"add", "sub", "mul", "mad", "div", "rem", "abs", "neg", "min", "max", "fma", "rcp",
		"sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "cvt", "cvta", "mov", "setp",
		"selp", "slct", "and", "or", "xor", "not", "cnot", "shl", "shr", "prmt", "bfe", "bfi",
		"lop3", "popc", "clz", "brev", "ld", "st", "ldu", "bra", "ret", "exit", "call", "bar",
		"barrier", "membar", "fence", "atom", "red", "shfl", "vote", "match", "redux",
		"activemask", "mma", "ldmatrix", "stmatrix", "cp", "mbarrier", "dp4a", "dp2a", "testp",
		"copysign", "nanosleep", "griddepcontrol", "elect",
	};

	for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
		ck_assert_msg(ptx_op_row(need[k], strlen(need[k])) >= 0, "%s missing", need[k]);
	ck_assert_int_eq(ptx_op_row("frob", 4), -1);
	ck_assert_str_eq(ptx_op_name(ptx_op_row("mma", 3)), "mma");
	ck_assert_uint_ge(ptx_nops(), 100);
}
END_TEST

Suite *
ptx_suite(void)
{
	Suite *s = suite_create("ptx");
	TCase *core = tcase_create("Core"), *diag = tcase_create("Diagnostics");
	TCase *corpus = tcase_create("Corpus");

	tcase_add_test(core, test_ptx_module_counts);
	tcase_add_test(core, test_ptx_operand_forms);
	tcase_add_test(core, test_ptx_statements);
	tcase_add_test(core, test_ptx_roundtrip_small);
	tcase_add_test(core, test_ptx_roundtrip_edges);
	tcase_add_test(core, test_ptx_table);
	tcase_add_loop_test(diag, test_ptx_diagnostics, 0, sizeof gold / sizeof gold[0]);
	tcase_add_test(diag, test_ptx_error_limit);
	tcase_add_test(corpus, test_ptx_corpus);
	tcase_set_timeout(corpus, 120);
	suite_add_tcase(s, core);
	suite_add_tcase(s, diag);
	suite_add_tcase(s, corpus);
	return s;
}
