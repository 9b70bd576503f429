/* ptxprint.c: the PTX AST printed back as PTX text, in nvcc's layout (tabs, one statement a
 * line). What it prints parses to the same AST, so print, parse, print gives the same text (the
 * round-trip tests); comments and blank lines are not kept. Also small queries on the AST.
 */
#include "ptx.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *
ptx_str(const Ptx *p, uint32_t a)
{
	return atomstr(p->atoms, a);
}

const char *
ptx_space_name(int space)
{
	static const char *const name[NPtxSpace] = {
		[PsNoSpace] = "", [PsReg] = ".reg", [PsSreg] = ".sreg", [PsConst] = ".const",
		[PsGlobal] = ".global", [PsLocal] = ".local", [PsParam] = ".param",
		[PsShared] = ".shared", [PsTex] = ".tex",
	};

	return space >= 0 && space < NPtxSpace ? name[space] : "";
}

int
ptx_ins_hasmod(const Ptx *p, const PtxIns *i, const char *mod)
{
	for (uint32_t k = 0; k < i->nmod; k++)
		if (strcmp(ptx_str(p, i->mod[k]), mod) == 0)
			return 1;
	return 0;
}

uint32_t
ptx_count_ins(const Ptx *p)
{
	uint32_t n = 0;

	for (uint32_t f = 0; f < p->nfn; f++)
		for (uint32_t k = 0; k < p->fn[f]->nst; k++)
			n += p->fn[f]->st[k].kind == PsIns;
	return n;
}

static void
print_link(FILE *out, unsigned link)
{
	if (link & PlExtern)
		fputs(".extern ", out);
	if (link & PlVisible)
		fputs(".visible ", out);
	if (link & PlWeak)
		fputs(".weak ", out);
	if (link & PlCommon)
		fputs(".common ", out);
}

/* a decimal float that the scanner reads back as a float: it has a '.' or an exponent */
static void
print_fdec(FILE *out, double v)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.17g", v);
	fputs(buf, out);
	if (!strpbrk(buf, ".eEn"))
		fputs(".0", out);
}

/* v as written: neg says a '-' was written (the magnitude is then -v) */
static void
print_int(FILE *out, int64_t v, int neg, int hex, int usfx)
{
	uint64_t mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	fprintf(out, hex ? "%s0x%" PRIX64 : "%s%" PRIu64, neg ? "-" : "", mag);
	if (usfx)
		fputc('U', out);
}

static void
print_expr(FILE *out, const Ptx *p, const PtxExpr *e)
{
	switch (e->kind) {
	case PeInt:
		print_int(out, e->ival, e->ival < 0, e->hex, e->usfx);
		break;
	case PeF32:
		fprintf(out, "0f%08" PRIX32, (uint32_t)e->ival);
		break;
	case PeF64:
		fprintf(out, "0d%016" PRIX64, (uint64_t)e->ival);
		break;
	case PeFDec:
		print_fdec(out, e->fval);
		break;
	case PeSym:
		fputs(ptx_str(p, e->atom), out);
		break;
	case PeGeneric:
		fprintf(out, "generic(%s)", ptx_str(p, e->atom));
		break;
	case PeList:
		fputc('{', out);
		for (uint32_t k = 0; k < e->nsub; k++) {
			if (k)
				fputs(", ", out);
			print_expr(out, p, e->sub[k]);
		}
		fputc('}', out);
		break;
	case PeAdd:
		print_expr(out, p, e->sub[0]);
		fputc('+', out);
		print_expr(out, p, e->sub[1]);
		break;
	}
}

/* the attributes of a declaration: `.param .u64 .ptr .global .align 16` (no name) */
static void
print_dattrs(FILE *out, const Ptx *p, const PtxVar *v)
{
	print_link(out, v->link);
	fputs(ptx_space_name(v->space), out);
	if (v->link & PlPtr) {
		fprintf(out, " .%s .ptr", ptx_str(p, v->type));
		if (v->ptrspace)
			fprintf(out, " %s", ptx_space_name(v->ptrspace));
		if (v->ptralign)
			fprintf(out, " .align %u", v->ptralign);
		return;
	}
	if (v->align)
		fprintf(out, " .align %u", v->align);
	if (v->vec)
		fprintf(out, " .v%u", v->vec);
	if (v->type)
		fprintf(out, " .%s", ptx_str(p, v->type));
}

static void
print_dname(FILE *out, const Ptx *p, const PtxVar *v)
{
	fputs(ptx_str(p, v->name), out);
	if (v->range)
		fprintf(out, "<%u>", v->range);
	for (uint32_t k = 0; k < v->ndim; k++)
		if (v->dim[k] < 0)
			fputs("[]", out);
		else
			fprintf(out, "[%d]", v->dim[k]);
	if (v->init) {
		fputs(" = ", out);
		print_expr(out, p, v->init);
	}
}

/* one declaration statement: attributes of the first name, then every name */
static void
print_decl(FILE *out, const Ptx *p, const PtxVar *v, uint32_t n)
{
	print_dattrs(out, p, &v[0]);
	fputs(" \t", out);
	for (uint32_t k = 0; k < n; k++) {
		if (k)
			fputs(", ", out);
		print_dname(out, p, &v[k]);
	}
	fputs(";\n", out);
}

static void
print_params(FILE *out, const Ptx *p, const PtxVar *v, uint32_t n, const char *sep)
{
	fputc('(', out);
	for (uint32_t k = 0; k < n; k++) {
		fputs(k ? "," : "", out);
		fputs(sep, out);
		print_dattrs(out, p, &v[k]);
		fputc(' ', out);
		print_dname(out, p, &v[k]);
	}
	if (n && *sep)
		fputc('\n', out);
	fputc(')', out);
}

static void
print_opnd(FILE *out, const Ptx *p, const PtxOpnd *o)
{
	switch (o->kind) {
	case PoName:
		if (o->neg)
			fputc('!', out);
		fputs(ptx_str(p, o->atom), out);
		if (o->sfx)
			fprintf(out, ".%s", ptx_str(p, o->sfx));
		break;
	case PoImm:
		print_int(out, o->ival, o->neg, o->hex, o->usfx);
		break;
	case PoF32:
		fprintf(out, "0f%08" PRIX32, (uint32_t)o->ival);
		break;
	case PoF64:
		fprintf(out, "0d%016" PRIX64, (uint64_t)o->ival);
		break;
	case PoFDec:
		print_fdec(out, o->fval);
		break;
	case PoSink:
		fputc('_', out);
		break;
	case PoVec:
	case PoList:
		fputc(o->kind == PoVec ? '{' : '(', out);
		for (uint32_t k = 0; k < o->nsub; k++) {
			if (k)
				fputs(", ", out);
			print_opnd(out, p, &o->sub[k]);
		}
		fputc(o->kind == PoVec ? '}' : ')', out);
		break;
	case PoPair:
		print_opnd(out, p, &o->sub[0]);
		fputc('|', out);
		print_opnd(out, p, &o->sub[1]);
		break;
	case PoAddr:
		fputc('[', out);
		if (o->nsub)
			print_opnd(out, p, &o->sub[0]);
		if (o->hasoff)
			fprintf(out, "+%" PRId64, o->ival);
		for (uint32_t k = 1; k < o->nsub; k++) {
			fputs(", ", out);
			print_opnd(out, p, &o->sub[k]);
		}
		fputc(']', out);
		break;
	}
}

void
ptx_print_ins(FILE *out, const Ptx *p, const PtxIns *i)
{
	if (i->guard)
		fprintf(out, "@%s%s ", i->guard == 2 ? "!" : "", ptx_str(p, i->gpred));
	fputs(ptx_str(p, i->op), out);
	for (uint32_t k = 0; k < i->nmod; k++)
		fprintf(out, ".%s", ptx_str(p, i->mod[k]));
	for (uint32_t k = 0; k < i->nopnd; k++) {
		fputs(k ? ", " : " \t", out);
		print_opnd(out, p, &i->opnd[k]);
	}
	fputc(';', out);
}

static void
indent(FILE *out, int depth)
{
	for (int k = 0; k < depth; k++)
		fputc('\t', out);
}

static void
print_stmt(FILE *out, const Ptx *p, const PtxStmt *s, int *depth)
{
	switch (s->kind) {
	case PsIns:
		indent(out, *depth);
		ptx_print_ins(out, p, s->ins);
		fputc('\n', out);
		break;
	case PsLabel:
		fprintf(out, "%s:\n", ptx_str(p, s->atom));
		break;
	case PsDecl:
		indent(out, *depth);
		print_decl(out, p, s->var, s->nvar);
		break;
	case PsBegin:
		indent(out, *depth);
		fputs("{\n", out);
		++*depth;
		break;
	case PsEnd:
		--*depth;
		indent(out, *depth);
		fputs("}\n", out);
		break;
	case PsLoc:
		indent(out, *depth);
		fprintf(out, ".loc\t%u %u %u", s->dl.file, s->dl.line, s->dl.col);
		if (s->dl.fname)
			fprintf(out, ", function_name %s, inlined_at %u %u %u", ptx_str(p, s->dl.fname),
			        s->dl.ifile, s->dl.iline, s->dl.icol);
		fputc('\n', out);
		break;
	case PsPragma:
		indent(out, *depth);
		fprintf(out, ".pragma \"%s\";\n", ptx_str(p, s->atom));
		break;
	case PsProto:
		indent(out, *depth);
		fprintf(out, "%s : .callprototype ", ptx_str(p, s->proto->name));
		if (s->proto->nret) {
			print_params(out, p, s->proto->ret, s->proto->nret, "");
			fputc(' ', out);
		}
		fputs("_ ", out);
		print_params(out, p, s->proto->param, s->proto->nparam, "");
		fputs(";\n", out);
		break;
	}
}

static void
print_func(FILE *out, const Ptx *p, const PtxFunc *f)
{
	int depth = 1;

	print_link(out, f->link);
	fputs(f->entry ? ".entry " : ".func ", out);
	if (f->ret) {
		print_params(out, p, f->ret, f->nret, "");
		fputc(' ', out);
	}
	fputs(ptx_str(p, f->name), out);
	if (f->param)
		print_params(out, p, f->param, f->nparam, "\n\t");
	fputc('\n', out);
	if (f->noreturn)
		fputs(".noreturn\n", out);
	for (uint32_t k = 0; k < f->nattr; k++) {
		const PtxAttr *a = &f->attr[k];
		fputs(ptx_str(p, a->name), out);
		for (uint32_t j = 0; j < a->nval; j++)
			fprintf(out, "%s%u", j ? ", " : " ", a->val[j]);
		fputc('\n', out);
	}
	if (!f->body) {
		fputs(";\n\n", out);
		return;
	}
	fputs("{\n", out);
	for (uint32_t k = 0; k < f->nst; k++)
		print_stmt(out, p, &f->st[k], &depth);
	fputs("}\n\n", out);
}

static void
print_section(FILE *out, const Ptx *p, const PtxSection *s)
{
	fprintf(out, "\t.section\t%s\n\t{\n", ptx_str(p, s->name));
	for (uint32_t k = 0; k < s->nitem; k++) {
		const PtxData *d = &s->item[k];
		if (!d->type) {
			fprintf(out, "%s:\n", ptx_str(p, d->label));
			continue;
		}
		fprintf(out, ".%s ", ptx_str(p, d->type));
		for (uint32_t j = 0; j < d->nval; j++) {
			if (j)
				fputc(',', out);
			print_expr(out, p, d->val[j]);
		}
		fputc('\n', out);
	}
	fputs("\t}\n", out);
}

void
ptx_print(FILE *out, const Ptx *p)
{
	if (p->vloc.end)   /* written (a parsed module always has one, 0.0 included) */
		fprintf(out, ".version %u.%u\n", p->vmajor, p->vminor);
	if (p->ntarget) {
		fputs(".target ", out);
		for (uint32_t k = 0; k < p->ntarget; k++)
			fprintf(out, "%s%s", k ? ", " : "", ptx_str(p, p->target[k]));
		fputc('\n', out);
	}
	if (p->addrsize)
		fprintf(out, ".address_size %u\n", p->addrsize);
	fputc('\n', out);
	for (uint32_t k = 0; k < p->ntop; k++) {
		const PtxTop *t = &p->top[k];
		const PtxFile *f;
		switch (t->kind) {
		case PtFunc:
			print_func(out, p, t->func);
			break;
		case PtVar:
			print_decl(out, p, t->var, t->nvar);
			break;
		case PtSection:
			print_section(out, p, t->sec);
			break;
		case PtPragma:
			fprintf(out, ".pragma \"%s\";\n", ptx_str(p, t->atom));
			break;
		case PtFile:
			f = &p->file[t->atom];
			fprintf(out, "\t.file\t%u \"%s\"", f->num, ptx_str(p, f->path));
			if (f->nextra)
				fprintf(out, ", %" PRIu64 ", %" PRIu64, f->extra[0], f->extra[1]);
			fputc('\n', out);
			break;
		}
	}
}
