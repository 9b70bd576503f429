/* build.c: the grammar's actions. They turn statements into sections, items, functions and
 * instructions of the Module, check registers, constant banks, labels and directives, and keep
 * the SSA annotations of IR text aside (SsaNotes) for sass_apply_ssa.
 *
 * Text sections: Section.item holds the directives and labels before the first instruction with
 * Item.off = -1; a directive or label found between instructions (nvcc's internal subroutines:
 * `.type $__internal_0_$...,@function`) is kept with Item.off = the index of the instruction it
 * precedes (Fn.nins if after the last). Labels right before an instruction are Ins.label (the
 * first) and Fn.xlabel (the others); a label after the last instruction is Fn.endlabel.
 * Operands are built in opnd.c.
 */
#include "parse.h"
#include "sass.tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---------------------------------------------------------------------- */

int
too_many(Ctx *cx)
{
	int max = cx->d->maxerr ? cx->d->maxerr : MaxErrors;

	return cx->d->nerr >= max;
}

/* ---- labels -------------------------------------------------------------------------------- */

static uint32_t
lab_find(Ctx *cx, uint32_t a)
{
	if (!cx->nlslot)
		return 0;
	for (uint32_t k = (a * 2654435761u) & (cx->nlslot - 1);; k = (k + 1) & (cx->nlslot - 1)) {
		uint32_t x = cx->lslot[k];
		if (!x || cx->lab[x - 1].atom == a)
			return x;
	}
}

static void
lab_insert(Ctx *cx, uint32_t a, uint32_t x)
{
	uint32_t k;

	if ((cx->nlab + 1) * 2 > cx->nlslot) {
		uint32_t n = cx->nlslot ? cx->nlslot * 2 : 256;
		free(cx->lslot);
		cx->lslot = xmalloc(n * sizeof *cx->lslot);
		cx->nlslot = n;
		for (uint32_t j = 0; j + 1 < x; j++) {
			for (k = (cx->lab[j].atom * 2654435761u) & (n - 1); cx->lslot[k]; k = (k + 1) & (n - 1))
				;
			cx->lslot[k] = j + 1;
		}
	}
	for (k = (a * 2654435761u) & (cx->nlslot - 1); cx->lslot[k]; k = (k + 1) & (cx->nlslot - 1))
		;
	cx->lslot[k] = x;
}

/* record a definition; returns its index + 1, 0 if it is a duplicate (reported) */
static uint32_t
lab_define(Ctx *cx, uint32_t a, Loc loc)
{
	uint32_t x = lab_find(cx, a);

	if (x) {
		error_at(cx->d, loc, "duplicate label '%s'", mstr(cx->m, a));
		if (!too_many(cx) || cx->d->nerr == (cx->d->maxerr ? cx->d->maxerr : MaxErrors))
			note_at(cx->d, cx->lab[x - 1].loc, "'%s' was defined here", mstr(cx->m, a));
		return 0;
	}
	vgrow(&cx->lab, &cx->clab, cx->nlab + 1, sizeof *cx->lab);
	cx->lab[cx->nlab] = (LabDef){ a, NULL, 0, loc };
	cx->nlab++;
	lab_insert(cx, a, cx->nlab);
	return cx->nlab;
}

/* ---- sections and functions ------------------------------------------------------------- */

/* grow an arena array (the notes live as long as the module) */
static void *
agrow(Ctx *cx, void *p, uint32_t *cap, uint32_t n, size_t sz)
{
	void *q;

	if (n <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	q = aalloc(cx, *cap * sz);
	if (p)
		memcpy(q, p, (size_t)(n - 1) * sz);
	return q;
}

/* the SSA notes of f (Fn.fe), made on first use */
static SsaNotes *
notes_of(Ctx *cx, Fn *f)
{
	if (!f->fe)
		f->fe = aalloc(cx, sizeof(SsaNotes));
	return f->fe;
}

/* the end of a function's code: trailing labels, pending phis */
static void
end_fn(Ctx *cx)
{
	Fn *f = cx->fn;

	if (!f)
		return;
	for (uint32_t k = 0; k < cx->nplab; k++) {
		LabDef *l = &cx->lab[cx->plab[k] - 1];
		l->at = f->nins;
		if (k == 0 && cx->in_code) {
			f->endlabel = l->atom;
		} else {
			Item *it = section_item(cx->m, f->text);
			it->kind = ILabel;
			it->name = l->atom;
			it->off = cx->in_code ? (int32_t)f->nins : -1;
			it->loc = l->loc;
		}
	}
	cx->nplab = 0;
	for (uint32_t k = 0; k < cx->npphi; k++)
		error_at(cx->d, cx->pphi[k].loc, "phi after the last instruction of '%s'",
		         mstr(cx->m, f->name));
	cx->npphi = 0;
	cx->fn = NULL;
	cx->in_code = 0;
	cx->encfn = NULL;
}

static void
new_fn(Ctx *cx, Section *s, uint32_t name, Loc loc)
{
	Fn *f = fn_new(cx->m, name);

	f->text = s;
	f->loc = loc;
	s->fn = f;
	cx->fn = f;
	cx->in_code = 0;
}

static Section *
new_section(Ctx *cx, uint32_t name, Loc loc)
{
	Section *s = section_add(cx->m, name);
	const char *n = mstr(cx->m, name);

	s->loc = loc;
	if (hasprefix(n, ".text.")) {
		s->kind = SecText;
	} else if (strcmp(n, ".nv.info") == 0 || hasprefix(n, ".nv.info.")) {
		s->kind = SecInfo;
	} else if (hasprefix(n, ".nv.constant") && n[12] >= '0' && n[12] <= '9') {
		s->kind = SecConst;
		s->bank = atoi(n + 12);
	} else if (hasprefix(n, ".nv.shared.")) {
		s->kind = SecShared;
	} else if (strcmp(n, ".nv.global") == 0 || hasprefix(n, ".nv.global.")) {
		s->kind = SecGlobal;
	}
	return s;
}

/* ---- directives ------------------------------------------------------------------------- */

enum DirWhere { DwModule, DwSection, DwItem };

static const struct {
	const char *name;
	uint8_t where;     /* DirWhere */
	int8_t nargs;      /* exact argument count, -1 any, -2 at least one */
} dirtab[] = {
	{".target", DwModule, -2}, {".headerflags", DwModule, -2}, {".elftype", DwModule, -2},
	{".section", DwSection, -2},
	{".sectionflags", DwItem, 1}, {".sectioninfo", DwItem, 1}, {".sectionentsize", DwItem, 1},
	{".align", DwItem, 1}, {".global", DwItem, 1}, {".weak", DwItem, 1}, {".local", DwItem, 1},
	{".type", DwItem, 2}, {".size", DwItem, -2}, {".other", DwItem, 2},
	{".byte", DwItem, -2}, {".short", DwItem, -2}, {".word", DwItem, -2}, {".dword", DwItem, -2},
	{".zero", DwItem, 1}, {".string", DwItem, -2}, {".tkinfo", DwItem, 0},
	{".maxfibers", DwItem, 1}, {".pool", DwItem, -2},       /* FIBER (.fsass) */
	{".vreg", DwItem, -2}, {".vpred", DwItem, -2},          /* FIBER-native virtual registers */
};
enum { NDir = sizeof dirtab / sizeof dirtab[0] };

void
b_arg(Ctx *cx, Expr *e)
{
	vgrow(&cx->arg, &cx->carg, cx->narg + 1, sizeof *cx->arg);
	cx->arg[cx->narg++] = e;
}

/* the text after a directive's name, trimmed: `.target sm_90` -> "sm_90" */
static uint32_t
rest_of_line(Ctx *cx, Str name)
{
	uint32_t a = name.off + name.len, b = a;

	while (b < cx->len && cx->text[b] != '\n')
		b++;
	while (a < b && (cx->text[a] == ' ' || cx->text[a] == '\t'))
		a++;
	while (b > a && (cx->text[b - 1] == ' ' || cx->text[b - 1] == '\t' || cx->text[b - 1] == '\r'))
		b--;
	return atom(cx->m->atoms, cx->text + a, b - a);
}

int
sass_arch_ok(int sm, int suffix)
{
	const Arch *a = arch_find(sm, suffix);

	return a && (a->support & ArchReads);
}

/* where the argument of a directive starts on its line (for a caret under `sm_75`) */
static Loc
arg_loc(Ctx *cx, Str name)
{
	uint32_t a = name.off + name.len, b;

	while (a < cx->len && (cx->text[a] == ' ' || cx->text[a] == '\t'))
		a++;
	for (b = a; b < cx->len && cx->text[b] != '\n' && cx->text[b] != ' ' && cx->text[b] != '\t'
	     && cx->text[b] != '\r'; b++)
		;
	return (Loc){ a, b };
}

static void
module_dir(Ctx *cx, const char *n, Str name)
{
	Module *m = cx->m;
	uint32_t a = rest_of_line(cx, name);
	const char *t = mstr(m, a), *p;
	char archs[128];

	if (strcmp(n, ".target") == 0) {
		m->target = a;
		arch_list(archs, sizeof archs, ArchReads, ", ", ", ");
		if (sm_of_string(t, &m->sm, &m->sm_suffix) < 0) {
			m->sm = 0;
			error_at(cx->d, arg_loc(cx, name), "unsupported architecture '%s' (fiber reads %s)",
			         t, archs);
		} else if (!sass_arch_ok(m->sm, m->sm_suffix)) {
			warn_at(cx->d, arg_loc(cx, name), "architecture '%s' is not one fiber supports (%s); "
			        "its listing is read as if it were", t, archs);
		}
	} else if (strcmp(n, ".headerflags") == 0) {
		if (!m->headerflags)
			m->headerflags = a;
		if (!m->sm && (p = strstr(t, "EF_CUDA_SM")) && p[10] >= '0' && p[10] <= '9')
			m->sm = atoi(p + 10);
	} else {
		m->elftype = a;
	}
}

static Item *
add_item(Ctx *cx, int kind, uint32_t name, Loc loc)
{
	Item *it;

	/* labels waiting for an instruction stand before a directive found between instructions */
	if (cx->fn && cx->in_code && cx->sec == cx->fn->text)
		for (uint32_t k = 0; k < cx->nplab; k++) {
			LabDef *l = &cx->lab[cx->plab[k] - 1];
			l->at = cx->fn->nins;
			it = section_item(cx->m, cx->sec);
			it->kind = ILabel;
			it->name = l->atom;
			it->off = (int32_t)cx->fn->nins;
			it->loc = l->loc;
		}
	cx->nplab = 0;
	it = section_item(cx->m, cx->sec);
	it->kind = (uint8_t)kind;
	it->name = name;
	it->loc = loc;
	if (cx->fn && cx->in_code && cx->sec == cx->fn->text)
		it->off = (int32_t)cx->fn->nins;
	return it;
}

/* FIBER: `.maxfibers N` and `.pool NAME, SIZE[, SLICE]` in a function's .text header (kept as
 * items for the printer; here they fill KInfo.maxfibers and Fn.pool). A pool lies at the top of
 * its slice, the pools of a slice stacked downward in declaration order. */
static void
fiber_dir(Ctx *cx, const char *n, Loc loc)
{
	Fn *f = cx->fn;
	Expr **a = cx->arg;

	if (!f || cx->sec != f->text || cx->in_code) {
		error_at(cx->d, loc, "'%s' belongs in a function's .text section, before its code", n);
		return;
	}
	if (strcmp(n, ".maxfibers") == 0) {
		if (a[0]->kind != ENum || a[0]->num < 1 || a[0]->num > FiberMaxFibers) {
			error_at(cx->d, loc, "'.maxfibers' takes a fiber count 1..%d (64 contexts x 4 "
			         "sub-partitions x 32 fibers)", FiberMaxFibers);
			return;
		}
		f->info.maxfibers = (int)a[0]->num;
		return;
	}
	if (cx->narg < 2 || cx->narg > 3 || a[0]->kind != ESym || a[1]->kind != ENum
	    || (cx->narg == 3 && a[2]->kind != ENum)) {
		error_at(cx->d, loc, "'.pool' takes NAME, SIZE[, SLICE]");
		return;
	}
	int64_t size = a[1]->num, slice = cx->narg == 3 ? a[2]->num : 0, used = 0;
	if (slice < 0 || slice > 3) {
		error_at(cx->d, loc, "pool slice %lld out of range (0..3)", (long long)slice);
		return;
	}
	for (uint32_t k = 0; k < f->npool; k++) {
		if (f->pool[k].name == a[0]->atom) {
			error_at(cx->d, loc, "duplicate pool '%s'", mstr(cx->m, a[0]->atom));
			note_at(cx->d, f->pool[k].loc, "'%s' is declared here", mstr(cx->m, a[0]->atom));
			return;
		}
		if (f->pool[k].slice == slice)
			used += f->pool[k].size;
	}
	if (size < 1 || used + size > FiberSliceRegs) {
		error_at(cx->d, loc, "pool '%s' of %lld registers overflows slice %lld (%lld of %d "
		         "registers already pooled)", mstr(cx->m, a[0]->atom), (long long)size,
		         (long long)slice, (long long)used, FiberSliceRegs);
		return;
	}
	FPool *p = realloc(f->pool, (f->npool + 1) * sizeof *f->pool);
	if (!p)
		abort();
	f->pool = p;
	p = &f->pool[f->npool++];
	p->name = a[0]->atom;
	p->size = (uint32_t)size;
	p->slice = (int)slice;
	p->base = (uint32_t)(FiberSliceRegs * slice + FiberSliceRegs - used - size);
	p->loc = loc;
}

/* FIBER-native: `.vreg %a, %acc[4], ...` in a function's .text header: each name a virtual
 * register of 1 register or a tuple of SIZE (a power of two up to 128), numbered from RegVirt
 * in declaration order, each aligned to min(SIZE, 4) so that the numbers keep the alignment
 * rules of R tuples (docs/fiber-isa.md, "Virtual registers"); `.vpred %p1, %p2, ...` (pred 1):
 * each name a virtual predicate, REG(RP, RegVirt + k). The R declarations stay before the
 * predicates in Fn.vreg (vreg_of's binary search); Ctx.vname finds a name in O(1). */
static void
vreg_dir(Ctx *cx, Loc loc, int pred)
{
	Fn *f = cx->fn;
	const char *dir = pred ? ".vpred" : ".vreg";

	if (!f || cx->sec != f->text || cx->in_code) {
		error_at(cx->d, loc, "'%s' belongs in a function's .text section, before its code", dir);
		return;
	}
	for (uint32_t k = 0; k < cx->narg; k++) {
		const Expr *e = cx->arg[k];
		const char *t = e->kind == ESym ? mstr(cx->m, e->atom) : "";
		uint32_t len = e->kind == ESym ? atomlen(cx->m->atoms, e->atom) : 0, nl = 1, size = 1;
		uint32_t np = vreg_npred(f), at = pred ? f->nvreg : f->nvreg - np;
		unsigned next = RegVirt, al;
		while (nl < len && t[nl] != '[' && t[nl] != '@' && t[nl] != '.')
			nl++;
		if (len < 2 || t[0] != '%' || (nl < len && (t[nl] != '[' || pred))) {
			if (pred)
				error_at(cx->d, loc, "'.vpred' takes virtual predicates: %%NAME (argument %u "
				         "is not one)", k + 1);
			else
				error_at(cx->d, loc, "'.vreg' takes virtual registers: %%NAME or "
				         "%%NAME[SIZE] (argument %u is not one)", k + 1);
			return;
		}
		if (nl < len) {
			size = 0;
			for (uint32_t j = nl + 1; j < len && t[j] != ']'; j++)
				size = size > 1000 ? size : size * 10 + (uint32_t)(t[j] - '0');
			if (t[len - 1] != ']' || size < 1 || size > 128 || (size & (size - 1))) {
				error_at(cx->d, loc, "'.vreg %s': a tuple size is 1, 2, 4, 8, 16, 32, 64 or "
				         "128 registers", t);
				return;
			}
		}
		uint32_t name = atom(cx->m->atoms, t + 1, nl - 1);
		if (name < cx->cvname && cx->vname[name].fn == f) {
			error_at(cx->d, loc, "duplicate virtual register '%%%s'", mstr(cx->m, name));
			note_at(cx->d, cx->vname[name].loc, "'%%%s' is declared here", mstr(cx->m, name));
			return;
		}
		if (at)
			next = f->vreg[at - 1].cls == (pred ? RP : RR) ?
			       f->vreg[at - 1].base + f->vreg[at - 1].size : RegVirt;
		al = size < 4 ? size : 4;
		next = (next + al - 1) / al * al;
		if (next + size > RegVirtEnd) {
			error_at(cx->d, loc, "too many virtual %s (at most %d %s in all)",
			         pred ? "predicates" : "registers", RegVirtEnd - RegVirt,
			         pred ? "predicates" : "registers");
			return;
		}
		/* capacity: the next power of two of nvreg (at least 8): grow when that is full */
		if (f->nvreg >= 8 && !(f->nvreg & (f->nvreg - 1))) {
			FVReg *nv = aalloc(cx, 2 * f->nvreg * sizeof *nv);
			memcpy(nv, f->vreg, f->nvreg * sizeof *nv);
			f->vreg = nv;
		} else if (!f->vreg) {
			f->vreg = aalloc(cx, 8 * sizeof *f->vreg);
		}
		if (at < f->nvreg)      /* an R declaration after predicates: before them */
			memmove(&f->vreg[at + 1], &f->vreg[at], (f->nvreg - at) * sizeof *f->vreg);
		f->nvreg++;
		FVReg *nv = &f->vreg[at];
		nv->name = name;
		nv->base = (uint16_t)next;
		nv->size = (uint16_t)size;
		nv->loc = loc;
		nv->cls = pred ? RP : RR;
		if (name >= cx->cvname) {
			uint32_t old = cx->cvname;
			vgrow(&cx->vname, &cx->cvname, name + 1, sizeof *cx->vname);
			memset(cx->vname + old, 0, (cx->cvname - old) * sizeof *cx->vname);
		}
		cx->vname[name] = (VName){ f, REG(nv->cls, next), (uint16_t)size, loc };
	}
}

void
b_directive(Ctx *cx, Str name, Loc loc, int64_t off)
{
	uint32_t a = intern(cx, name), k;
	const char *n = mstr(cx->m, a);
	Item *it;

	cx->encfn = NULL;
	for (k = 0; k < NDir; k++)
		if (strcmp(dirtab[k].name, n) == 0)
			break;
	if (k == NDir) {
		error_at(cx->d, loc, "unknown directive '%s'", n);
		goto out;
	}
	if ((dirtab[k].nargs >= 0 && cx->narg != (uint32_t)dirtab[k].nargs)
	    || (dirtab[k].nargs == -2 && cx->narg == 0)) {
		error_at(cx->d, loc, "'%s' takes %s argument%s", n,
		         dirtab[k].nargs == 0 ? "no" : dirtab[k].nargs == 1 ? "one" :
		         dirtab[k].nargs == 2 ? "two" : "at least one", dirtab[k].nargs == 1 ? "" : "s");
		goto out;
	}
	switch (dirtab[k].where) {
	case DwModule:
		module_dir(cx, n, name);
		goto out;
	case DwSection:
		if (cx->arg[0]->kind != ESym) {
			error_at(cx->d, loc, "'.section' needs a section name");
			goto out;
		}
		end_fn(cx);
		cx->sec = new_section(cx, cx->arg[0]->atom, loc);
		if (cx->sec->kind == SecText)
			new_fn(cx, cx->sec, atomz(cx->m->atoms, mstr(cx->m, cx->arg[0]->atom) + 6), loc);
		break;
	default:
		if (!cx->sec) {
			error_at(cx->d, loc, "directive '%s' outside a section", n);
			goto out;
		}
		break;
	}
	if (strcmp(n, ".maxfibers") == 0 || strcmp(n, ".pool") == 0)
		fiber_dir(cx, n, loc);
	else if (strcmp(n, ".vreg") == 0 || strcmp(n, ".vpred") == 0)
		vreg_dir(cx, loc, n[2] == 'p');
	it = add_item(cx, IDir, a, loc);
	if (off >= 0)
		it->off = (int32_t)off;
	it->narg = cx->narg;
	it->arg = aalloc(cx, cx->narg * sizeof *it->arg);
	memcpy(it->arg, cx->arg, cx->narg * sizeof *it->arg);
out:
	cx->narg = 0;
}

/* ---- expressions ------------------------------------------------------------------------ */

static Expr *
expr_new(Ctx *cx, int kind)
{
	Expr *e = aalloc(cx, sizeof *e);

	e->kind = (uint8_t)kind;
	return e;
}

Expr *
b_num(Ctx *cx, uint64_t v, int hexdigits, int neg, Loc loc)
{
	Expr *e;

	(void)loc;
	/* `.byte 0xNN` lists are most of a listing's data: share their expressions */
	if (hexdigits == 2 && !neg && v < 256 && cx->bytecache[v])
		return cx->bytecache[v];
	e = expr_new(cx, ENum);
	e->hex = (uint8_t)(hexdigits > 255 ? 255 : hexdigits);
	e->num = neg ? -(int64_t)v : (int64_t)v;
	if (hexdigits == 2 && !neg && v < 256)
		cx->bytecache[v] = e;
	return e;
}

Expr *
b_str(Ctx *cx, Str s)
{
	Expr *e = expr_new(cx, EStr);

	e->atom = atom(cx->m->atoms, cx->text + s.off + 1, s.len - 2);
	return e;
}

Expr *
b_sym(Ctx *cx, Str s)
{
	Expr *e = expr_new(cx, ESym);

	e->atom = intern(cx, s);
	return e;
}

Expr *
b_attr(Ctx *cx, Str s, int quoted)
{
	Expr *e = expr_new(cx, EAttr);

	e->quoted = (uint8_t)quoted;
	e->atom = quoted ? atom(cx->m->atoms, cx->text + s.off + 1, s.len - 2) : intern(cx, s);
	return e;
}

Expr *
b_func(Ctx *cx, Str name, Expr *arg, int postfix)
{
	Expr *e = expr_new(cx, EFunc);

	e->atom = intern(cx, name);
	e->quoted = (uint8_t)postfix;
	e->a = arg;
	return e;
}

Expr *
b_bin(Ctx *cx, int kind, Expr *a, Expr *b)
{
	Expr *e = expr_new(cx, kind);

	e->a = a;
	e->b = b;
	return e;
}

/* ---- other statements ------------------------------------------------------------------- */

void
b_label(Ctx *cx, Str name, Loc loc)
{
	uint32_t a = intern(cx, name), x;

	cx->encfn = NULL;
	loc = sloc(name);
	if (!cx->sec) {
		error_at(cx->d, loc, "label '%s' outside a section", mstr(cx->m, a));
		return;
	}
	if (!(x = lab_define(cx, a, loc)))
		return;
	if (cx->fn && cx->sec == cx->fn->text) {
		cx->lab[x - 1].fn = cx->fn;
		if (cx->in_code) {
			vgrow(&cx->plab, &cx->cplab, cx->nplab + 1, sizeof *cx->plab);
			cx->plab[cx->nplab++] = x;
			return;
		}
	}
	add_item(cx, ILabel, a, loc);
}

void
b_nvinfo(Ctx *cx, Str name, Loc loc)
{
	cx->encfn = NULL;
	if (!cx->sec) {
		error_at(cx->d, loc, "nvinfo comment outside a section");
		return;
	}
	add_item(cx, INvinfo, intern(cx, name), loc);
}

void
b_symbols(Ctx *cx, Loc loc)
{
	end_fn(cx);
	cx->sec = new_section(cx, atomz(cx->m->atoms, "SYMBOLS"), loc);
	cx->sec->kind = SecSymbols;
}

/* `code for sm_80` opens a cuobjdump listing */
void
b_codefor(Ctx *cx, Str line, Loc loc)
{
	const char *s = cx->text + line.off, *p = memchr(s, 'c', line.len);
	uint32_t k = (uint32_t)(p - s) + 9, e = line.len;
	char buf[32], archs[128];

	(void)loc;
	end_fn(cx);
	cx->sec = NULL;
	while (e > k && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	cx->m->format = FmtCuobjdump;
	cx->m->cuobj_arch = atom(cx->m->atoms, s + k, e - k);
	snprintf(buf, sizeof buf, "%.*s", (int)(e - k), s + k);
	if (!cx->m->sm && sm_of_string(buf, &cx->m->sm, &cx->m->sm_suffix) < 0) {
		cx->m->sm = 0;
		arch_list(archs, sizeof archs, ArchReads, ", ", ", ");
		error_at(cx->d, (Loc){ line.off + k, line.off + e }, "unsupported architecture '%s' "
		         "(fiber reads %s)", buf, archs);
	}
}

/* `Function : name` starts a cuobjdump function (its section is synthetic: .text.name) */
void
b_function(Ctx *cx, Str line, Loc loc)
{
	const char *s = cx->text + line.off, *p = memchr(s, ':', line.len);
	uint32_t k = (uint32_t)(p - s) + 1, e = line.len, name;
	char *sec;
	size_t n;

	end_fn(cx);
	while (k < e && (s[k] == ' ' || s[k] == '\t'))
		k++;
	while (e > k && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	if (k == e) {
		error_at(cx->d, loc, "'Function :' without a name");
		cx->sec = NULL;
		return;
	}
	if (cx->m->format != FmtCuobjdump) {
		error_at(cx->d, loc, "'Function :' outside a cuobjdump listing (no 'code for' line)");
		cx->sec = NULL;
		return;
	}
	name = atom(cx->m->atoms, s + k, e - k);
	n = e - k + 7;
	sec = xmalloc(n);
	snprintf(sec, n, ".text.%.*s", (int)(e - k), s + k);
	cx->sec = new_section(cx, atomz(cx->m->atoms, sec), loc);
	free(sec);
	new_fn(cx, cx->sec, name, (Loc){ line.off + k, line.off + e });
}

void
b_endfunc(Ctx *cx, Loc loc)
{
	if (!cx->fn || cx->m->format != FmtCuobjdump)
		error_at(cx->d, loc, "'..........' outside a cuobjdump function");
	end_fn(cx);
	cx->sec = NULL;
}

void
b_enc2(Ctx *cx, uint64_t enc, Loc loc)
{
	Fn *f = cx->encfn;

	if (!f) {
		error_at(cx->d, loc, "encoding comment without an instruction");
		return;
	}
	f->ins[cx->encins].enc[1] = enc;
	f->ins[cx->encins].nenc = 2;
	f->ins[cx->encins].ctrl = enc_ctrl(enc);    /* decoded here once (enc.h) */
	cx->encfn = NULL;
}

/* `(*"BRANCH_TARGETS .L_x_22,.L_x_23"*)` after an indirect branch (text: between the stars): kept
 * for b_ins; another annotation keeps its text only */
void
b_targets(Ctx *cx, Str text, Loc loc)
{
	static const char pre[] = "\"BRANCH_TARGETS ";
	const char *s = cx->text + text.off;
	uint32_t n = text.len, k = sizeof pre - 1;

	(void)loc;
	cx->hastgt = 1;
	cx->tgttext = intern(cx, text);
	cx->ntgt = 0;
	if (n < k + 1 || memcmp(s, pre, k) != 0 || s[n - 1] != '"')
		return;
	while (k < n - 1) {
		uint32_t b = k;
		while (k < n - 1 && s[k] != ',')
			k++;
		if (k == b) {
			error_at(cx->d, (Loc){ text.off + b, text.off + b + 1 },
			         "empty label in a branch-target list");
		} else {
			vgrow(&cx->tgtlab, &cx->ctgt, cx->ntgt + 1, sizeof *cx->tgtlab);
			cx->tgtloc = xrealloc(cx->tgtloc, cx->ctgt * sizeof *cx->tgtloc);
			cx->tgtlab[cx->ntgt] = atom(cx->m->atoms, s + b, k - b);
			cx->tgtloc[cx->ntgt++] = (Loc){ text.off + b, text.off + k };
		}
		k++;       /* the comma */
	}
}

void
b_insreset(Ctx *cx)
{
	cx->nopnd = 0;
	cx->opover = 0;
	cx->npann = 0;
	cx->guarded = 0;
	cx->nterm = 0;
	cx->not = 0;
	cx->ntt = 0;
	cx->narg = 0;
	cx->nvbuf = 0;
	cx->nparg = 0;
	cx->encfn = NULL;
	cx->hastgt = 0;
	cx->ntgt = 0;
}

/* split an opcode word into its name and modifiers: 0, or -1 after reporting too many (the
 * first MaxMod are kept) */
static int
split_opcode(Ctx *cx, Str opcode, OpWord *w)
{
	const char *s = cx->text + opcode.off;
	uint32_t k = 0;

	while (k < opcode.len && s[k] != '.')
		k++;
	w->name = atom(cx->m->atoms, s, k);
	w->op = (uint16_t)op_lookup(s, k);
	w->nmod = 0;
	while (k < opcode.len) {
		uint32_t b = ++k;
		while (k < opcode.len && s[k] != '.')
			k++;
		if (w->nmod == MaxMod) {
			error_at(cx->d, (Loc){ opcode.off + b - 1, opcode.off + k },
			         "too many modifiers (at most %d)", MaxMod);
			return -1;
		}
		w->mod[w->nmod++] = atom(cx->m->atoms, s + b, k - b);
	}
	return 0;
}

/* the split opcode word, from the words seen (most instructions repeat one) */
static OpWord
opword(Ctx *cx, Str opcode)
{
	uint32_t a = intern(cx, opcode);
	OpWord w;

	if (a < cx->copwof && cx->opwof[a])
		return cx->opw[cx->opwof[a] - 1];
	if (split_opcode(cx, opcode, &w) == 0) {
		vgrow(&cx->opw, &cx->copw, cx->nopw + 1, sizeof *cx->opw);
		vgrow(&cx->opwof, &cx->copwof, a + 1, sizeof *cx->opwof);
		cx->opw[cx->nopw++] = w;
		cx->opwof[a] = cx->nopw;
	}
	return w;
}

/* bytes an instruction reads from a constant bank: LDC and ULDC by their size modifier, FP64
 * arithmetic 8, 1 (not known) when a modifier names an 8- or 16-bit type, otherwise 4 */
static unsigned
bank_width(Ctx *cx, const OpWord *w)
{
	static const char *const narrow[] = { "U8", "S8", "U16", "S16", "F16", "BF16", "16", "8" };
	int ldc = w->op == OLDC || w->op == OULDC;

	if (w->op == ODADD || w->op == ODMUL || w->op == ODFMA || w->op == ODSETP || w->op == ODMNMX)
		return 8;
	for (uint32_t k = 0; k < w->nmod; k++) {
		const char *m = mstr(cx->m, w->mod[k]);
		for (size_t j = 0; j < sizeof narrow / sizeof narrow[0]; j++)
			if (strcmp(m, narrow[j]) == 0)
				return 1;
		if (ldc && strcmp(m, "64") == 0)
			return 8;
		if (ldc && strcmp(m, "128") == 0)
			return 16;
	}
	return 4;
}

/* constant-bank offsets without a register are aligned to the access */
static void
bank_align(Ctx *cx, const OpWord *w)
{
	unsigned width = 0;

	for (uint32_t j = 0; j < cx->nopnd; j++) {
		const Opnd *o = &cx->op[j];
		if (o->kind != OCBank || (o->r[0] && !reg_isconst(o->r[0])) || o->imm < 0 ||
		    o->imm > 0xffff)
			continue;
		if (!width)
			width = bank_width(cx, w);
		if (o->imm % width)
			error_at(cx->d, cx->oploc[j], "constant-bank offset 0x%llx is not aligned to the "
			         "%u-byte access of '%s'", (unsigned long long)o->imm, width,
			         mstr(cx->m, w->name));
	}
}

void
b_ins(Ctx *cx, Str opcode, int64_t addr, int nosemi, int nenc, uint64_t enc, Loc loc)
{
	Loc oploc = sloc(opcode);
	uint32_t idx;
	Fn *f = cx->fn;
	OpWord w;
	Ins *i;

	if (!f || cx->sec != f->text) {
		error_at(cx->d, oploc, "instruction outside a .text section");
		b_insreset(cx);
		return;
	}
	w = opword(cx, opcode);
	bank_align(cx, &w);
	i = fn_append(f);
	idx = f->nins - 1;
	i->name = w.name;
	i->op = w.op;
	i->nmod = w.nmod;
	if (w.nmod) {
		i->mod = aalloc(cx, w.nmod * sizeof *i->mod);
		memcpy(i->mod, w.mod, w.nmod * sizeof *i->mod);
	}
	i->nopnd = (uint8_t)cx->nopnd;
	i->opnd = aalloc(cx, cx->nopnd * sizeof *i->opnd);
	memcpy(i->opnd, cx->op, cx->nopnd * sizeof *i->opnd);
	if (cx->guarded) {
		i->guarded = 1;
		i->guard = guard_of(&cx->guard);
	}
	if (nosemi)
		i->flags |= INoSemi;
	i->nenc = (uint8_t)nenc;
	i->enc[0] = enc;
	/* a float literal's exact bits are those of the word's immediate field (enc.h): the text
	 * spelling may round them (a binary64 or NaN payload); from here on the operand holds them */
	for (uint32_t j = 0; nenc && j < i->nopnd; j++)
		if (i->opnd[j].kind == OFImm) {
			i->opnd[j].imm2 = (int32_t)GET_IMM32(enc);
			i->opnd[j].flags |= FImmBits;
		}
	i->addr = addr;
	i->loc = loc;
	for (uint32_t j = 0; j < cx->nplab; j++) {
		LabDef *l = &cx->lab[cx->plab[j] - 1];
		l->at = idx;
		if (j == 0) {
			i->label = l->atom;
			continue;
		}
		i->flags |= IExtraLabel;
		f->xlabel = xrealloc(f->xlabel, (f->nxlabel + 1) * 2 * sizeof *f->xlabel);
		f->xlabel[2 * f->nxlabel] = idx;
		f->xlabel[2 * f->nxlabel + 1] = l->atom;
		f->nxlabel++;
	}
	cx->nplab = 0;
	for (uint32_t j = 0; j < i->nopnd; j++)
		if (i->opnd[j].kind == OLabel) {
			vgrow(&cx->ref, &cx->cref, cx->nref + 1, sizeof *cx->ref);
			cx->ref[cx->nref++] = (LabRef){ f, idx, (uint8_t)j, i->opnd[j].atom, cx->oploc[j] };
		}
	if (cx->hastgt) {
		Targets *t = aalloc(cx, sizeof *t);
		t->text = cx->tgttext;
		t->n = cx->ntgt;
		t->label = aalloc(cx, cx->ntgt * sizeof *t->label);
		for (uint32_t j = 0; j < cx->ntgt; j++) {
			t->label[j] = cx->tgtlab[j];
			vgrow(&cx->ref, &cx->cref, cx->nref + 1, sizeof *cx->ref);
			cx->ref[cx->nref++] = (LabRef){ f, idx, RefTarget, cx->tgtlab[j], cx->tgtloc[j] };
		}
		i->targets = t;
	}
	if (cx->npann || cx->npphi) {
		SsaNotes *n = notes_of(cx, f);
		for (uint32_t j = 0; j < cx->npann; j++) {
			if (cx->pann[j].opnd == PendOpnd)
				continue;
			n->ann = agrow(cx, n->ann, &n->cann, n->nann + 1, sizeof *n->ann);
			n->ann[n->nann] = cx->pann[j];
			n->ann[n->nann++].ins = idx;
		}
		for (uint32_t j = 0; j < cx->npphi; j++) {
			n->phi = agrow(cx, n->phi, &n->cphi, n->nphi + 1, sizeof *n->phi);
			n->phi[n->nphi] = cx->pphi[j];
			n->phi[n->nphi++].before = idx;
		}
		cx->npphi = 0;
	}
	b_insreset(cx);
	cx->in_code = 1;
	cx->encfn = nenc == 1 ? f : NULL;
	cx->encins = idx;
}

/* ---- phi lines -------------------------------------------------------------------------- */

void
b_phiarg(Ctx *cx, Str blk, Loc bloc, uint32_t x, Loc loc)
{
	const Opnd val = cx->ot[x];
	const char *s = cx->text + blk.off;
	SsaAnn *a = cx->npann ? &cx->pann[cx->npann - 1] : NULL;
	uint64_t b = 0;

	if (blk.len < 3 || s[0] != 'b' || s[1] != 'b' || blk.len > 12) {
		error_at(cx->d, bloc, "expected a block name such as 'bb3'");
		return;
	}
	for (uint32_t k = 2; k < blk.len; k++) {
		if (s[k] < '0' || s[k] > '9') {
			error_at(cx->d, bloc, "expected a block name such as 'bb3'");
			return;
		}
		b = b * 10 + (uint64_t)(s[k] - '0');
	}
	if (val.kind != OReg || !a || a->opnd != PendOpnd || a->reg != val.r[0] || a->n != 1) {
		error_at(cx->d, loc, "a phi argument is one register unit with a version, e.g. R7<2>");
		return;
	}
	cx->npann--;
	/* the phi being read is the last pending one; its def annotation is pann[0] */
	if (!cx->npann || cx->pann[0].reg != val.r[0]) {
		error_at(cx->d, loc, "phi argument of another register than the phi's");
		return;
	}
	vgrow(&cx->parg, &cx->cparg, cx->nparg + 1, sizeof *cx->parg);
	cx->parg[cx->nparg++] = (PhiArg){ (uint32_t)b, a->ver[0], (Loc){ bloc.start, loc.end } };
}

void
b_phi(Ctx *cx, uint32_t x, Loc loc)
{
	const Opnd def = cx->ot[x];
	SsaPhiText *p;
	uint32_t n = cx->nparg;

	cx->encfn = NULL;
	cx->nparg = 0;
	if (!cx->fn || cx->sec != cx->fn->text) {
		error_at(cx->d, loc, "phi outside a .text section");
		b_insreset(cx);
		return;
	}
	if (def.kind != OReg || cx->npann != 1 || cx->pann[0].n != 1) {
		if (!cx->d->nerr)
			error_at(cx->d, loc, "a phi defines one register unit with a version, e.g. R7<5>");
		b_insreset(cx);
		return;
	}
	vgrow(&cx->pphi, &cx->cpphi, cx->npphi + 1, sizeof *cx->pphi);
	p = &cx->pphi[cx->npphi++];
	memset(p, 0, sizeof *p);
	p->reg = def.r[0];
	p->ver = cx->pann[0].ver[0];
	p->narg = n;
	p->blk = aalloc(cx, n * sizeof *p->blk);
	p->aver = aalloc(cx, n * sizeof *p->aver);
	p->aloc = aalloc(cx, n * sizeof *p->aloc);
	for (uint32_t k = 0; k < n; k++) {
		p->blk[k] = cx->parg[k].blk;
		p->aver[k] = cx->parg[k].ver;
		p->aloc[k] = cx->parg[k].loc;
	}
	p->loc = loc;
	cx->has_ssa = 1;
	b_insreset(cx);
}

/* ---- the end ------------------------------------------------------------------------------ */

/* byte address of instruction index k of f (k == nins: just after the last) */
static int64_t
addr_of(const Fn *f, uint32_t k)
{
	if (k < f->nins)
		return f->ins[k].addr >= 0 ? f->ins[k].addr : 16 * (int64_t)k;
	if (f->nins == 0)
		return 0;
	return addr_of(f, f->nins - 1) + 16;
}

/* cuobjdump prints branch targets as addresses: give them labels so that the CFG sees them */
static int
is_branchy(const Module *m, const Ins *i)
{
	static const char *const names[] = {
		"BRA", "JMP", "CALL", "RET", "BSSY", "SSY", "PBK", "PCNT", "CAL", "JCAL", "PRET",
	};
	const char *n = mstr(m, i->name);

	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strcmp(n, names[k]) == 0)
			return 1;
	return strcmp(n, "WARPSYNC") == 0 && ins_hasmod(i, m, "COLLECTIVE");
}

static void
cuobj_labels(Ctx *cx, Fn *f)
{
	char buf[64];

	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		Opnd *o;
		int64_t t;
		uint32_t lo, hi, a;

		if (!i->nopnd || !is_branchy(cx->m, i))
			continue;
		o = &i->opnd[i->nopnd - 1];
		if (o->kind != OImm || !(o->flags & FHex) || o->imm < 0)
			continue;
		t = o->imm;
		o->kind = OLabel;
		o->flags = (uint16_t)((o->flags & FSpell0) | FSpell1);
		if (t == 0 && strcmp(mstr(cx->m, i->name), "RET") == 0) {
			o->atom = f->name;
			continue;
		}
		snprintf(buf, sizeof buf, ".L_%s_%llx", "cuobj", (unsigned long long)t);
		a = atomz(cx->m->atoms, buf);
		o->atom = a;
		if (t == addr_of(f, f->nins)) {
			if (!f->endlabel)
				f->endlabel = a;
			o->atom = f->endlabel;
			continue;
		}
		lo = 0;
		hi = f->nins;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (addr_of(f, mid) < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == f->nins || addr_of(f, lo) != t) {
			error_at(cx->d, i->loc, "branch target 0x%llx is not an instruction of '%s'",
			         (unsigned long long)t, mstr(cx->m, f->name));
			continue;
		}
		if (!f->ins[lo].label)
			f->ins[lo].label = a;
		o->atom = f->ins[lo].label;
	}
}

static int
cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* a is a symbol of the module: a section, a name given to .type, .global, .weak, .local, .size or
 * .other, or one of the toolchain's `.nv.*` symbols (.nv.unified.texrefDescSize) */
static int
is_symbol(Ctx *cx, uint32_t a)
{
	static const char *const dirs[] = { ".type", ".global", ".weak", ".local", ".size", ".other" };
	Module *m = cx->m;

	if (strncmp(mstr(m, a), ".nv.", 4) == 0)
		return 1;
	if (!cx->syms) {          /* once: every symbol name, sorted */
		uint32_t d[sizeof dirs / sizeof dirs[0]], n = 0, c = 0;
		for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
			d[k] = atomz(m->atoms, dirs[k]);
		for (uint32_t k = 0; k < m->nsec; k++) {
			Section *s = m->sec[k];
			vgrow(&cx->syms, &c, n + 1, sizeof *cx->syms);
			cx->syms[n++] = s->name;
			for (uint32_t j = 0; j < s->nitem; j++) {
				Item *it = &s->item[j];
				if (it->kind != IDir || !it->narg || it->arg[0]->kind != ESym)
					continue;
				for (size_t q = 0; q < sizeof d / sizeof d[0]; q++)
					if (it->name == d[q]) {
						vgrow(&cx->syms, &c, n + 1, sizeof *cx->syms);
						cx->syms[n++] = it->arg[0]->atom;
						break;
					}
			}
		}
		qsort(cx->syms, n, sizeof *cx->syms, cmpu32);
		cx->nsyms = n;
	}
	return bsearch(&a, cx->syms, cx->nsyms, sizeof *cx->syms, cmpu32) != NULL;
}

/* the label operand r of i is a place to jump to within the function: a branch, a listed
 * target of an indirect branch, the reconvergence point of BSSY or WARPSYNC.COLLECTIVE (not a
 * call, nor RET's function name) */
static int
jumps(const Ins *i, const LabRef *r)
{
	return r->opnd == RefTarget || (i->op < NOp && (optab[i->op].flags & OFBranch)) ||
	       i->op == OBSSY || i->op == OWARPSYNC;
}

void
b_finish(Ctx *cx)
{
	Module *m = cx->m;

	end_fn(cx);
	for (uint32_t k = 0; k < cx->nref; k++) {
		LabRef *r = &cx->ref[k];
		uint32_t x = lab_find(cx, r->atom);
		if (!x) {
			/* an operand may name a symbol or a section rather than a label (`UMOV UR5,
			 * `(.nv.unified.texrefDescSize)`): kept as it is, address -1 */
			if (r->opnd != RefTarget && is_symbol(cx, r->atom))
				continue;
			error_at(cx->d, r->loc, "undefined label '%s'", mstr(m, r->atom));
			if (too_many(cx))
				return;
			continue;
		}
		if (cx->lab[x - 1].fn && cx->lab[x - 1].fn != r->fn && jumps(&r->fn->ins[r->ins], r)) {
			error_at(cx->d, r->loc, "label '%s' is in '%s': a branch cannot leave '%s'",
			         mstr(m, r->atom), mstr(m, cx->lab[x - 1].fn->name), mstr(m, r->fn->name));
			note_at(cx->d, cx->lab[x - 1].loc, "'%s' is defined here", mstr(m, r->atom));
			if (too_many(cx))
				return;
			continue;
		}
		if (r->opnd != RefTarget && cx->lab[x - 1].fn)
			r->fn->ins[r->ins].opnd[r->opnd].imm = addr_of(cx->lab[x - 1].fn, cx->lab[x - 1].at);
	}
	if (m->format == FmtCuobjdump)
		for (uint32_t k = 0; k < m->nfn; k++)
			cuobj_labels(cx, m->fn[k]);
	if (m->nsec == 0 && m->nfn == 0 && !cx->d->nerr)
		error_at(cx->d, (Loc){ 0, 0 }, "no SASS listing in the input (no section, no function)");
	m->has_ssa = cx->has_ssa;
	if (!cx->d->nerr)
		nvinfo_decode(m, cx->d);
}

void
b_free(Ctx *cx)
{
	free(cx->pann);
	free(cx->vbuf);
	free(cx->plab);
	free(cx->lab);
	free(cx->lslot);
	free(cx->ref);
	free(cx->arg);
	free(cx->pphi);
	free(cx->parg);
	free(cx->tgtlab);
	free(cx->tgtloc);
	free(cx->syms);
	free(cx->opw);
	free(cx->opwof);
	free(cx->vname);
}
