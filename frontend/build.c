/* build.c: the grammar's actions. They turn statements into sections, items, functions and
 * instructions of the Module, check registers, constant banks, labels and directives, and keep
 * the SSA annotations of IR text aside (SsaNotes) for sass_apply_ssa.
 *
 * Text sections: Section.item holds the directives and labels before the first instruction with
 * Item.off = -1; a directive or label found between instructions (nvcc's internal subroutines:
 * `.type $__internal_0_$...,@function`) is kept with Item.off = the index of the instruction it
 * precedes (Fn.nins if after the last). Labels right before an instruction are Ins.label (the
 * first) and Fn.xlabel (the others); a label after the last instruction is Fn.endlabel.
 */
#include "parse.h"
#include "sass.tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { ISsaNotes = 3 };   /* hidden Item kind: the function's SsaNotes (arg points to them) */

/* ---- small helpers ---------------------------------------------------------------------- */

static uint32_t
intern(Ctx *cx, Str s)
{
	return atom(cx->m->atoms, cx->text + s.off, s.len);
}

static Loc
sloc(Str s)
{
	return (Loc){ s.off, s.off + s.len };
}

static int
streq(Ctx *cx, Str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && memcmp(cx->text + s.off, lit, n) == 0;
}

int
too_many(Ctx *cx)
{
	int max = cx->d->maxerr ? cx->d->maxerr : MaxErrors;

	return cx->d->nerr >= max;
}

static void *
aalloc(Ctx *cx, size_t n)
{
	return arena_alloc(cx->m->arena, n);
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

static SsaNotes *
notes_of(Ctx *cx, Fn *f)
{
	Section *s = f->text;

	for (uint32_t k = s->nitem; k-- > 0;)
		if (s->item[k].kind == ISsaNotes)
			return (SsaNotes *)(void *)s->item[k].arg;
	Item *it = section_item(cx->m, s);
	SsaNotes *n = aalloc(cx, sizeof *n);
	it->kind = ISsaNotes;
	it->arg = (Expr **)(void *)n;
	return n;
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
	cx->lastfn = NULL;
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

static int
hasprefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
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

static void
module_dir(Ctx *cx, const char *n, Str name)
{
	Module *m = cx->m;
	uint32_t a = rest_of_line(cx, name);
	const char *t = mstr(m, a), *p;

	if (strcmp(n, ".target") == 0) {
		m->target = a;
		if (sm_of_string(t, &m->sm, &m->sm_suffix) < 0)
			m->sm = 0;
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
	char buf[32];

	(void)loc;
	end_fn(cx);
	cx->sec = NULL;
	while (e > k && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	cx->m->format = FmtCuobjdump;
	cx->m->cuobj_arch = atom(cx->m->atoms, s + k, e - k);
	snprintf(buf, sizeof buf, "%.*s", (int)(e - k), s + k);
	if (!cx->m->sm && sm_of_string(buf, &cx->m->sm, &cx->m->sm_suffix) < 0)
		cx->m->sm = 0;
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
	cx->encfn = NULL;
}

/* ---- SSA annotations ---------------------------------------------------------------------- */

void
b_vbegin(Ctx *cx)
{
	cx->nvbuf = 0;
}

void
b_vadd(Ctx *cx, uint64_t v, Loc loc)
{
	if (v > UINT32_MAX - 1) {
		error_at(cx->d, loc, "SSA version too large");
		v = 0;
	}
	if (cx->nvbuf == 255) {
		error_at(cx->d, loc, "too many versions in one annotation (at most 255)");
		return;
	}
	vgrow(&cx->vbuf, &cx->cvbuf, cx->nvbuf + 1, sizeof *cx->vbuf);
	cx->vbuf[cx->nvbuf++] = (uint32_t)v;
}

/* the annotation just read (cx->vbuf) belongs to register r */
static void
push_ann(Ctx *cx, Reg r, Loc loc)
{
	SsaAnn *s;

	vgrow(&cx->pann, &cx->cpann, cx->npann + 1, sizeof *cx->pann);
	s = &cx->pann[cx->npann++];
	memset(s, 0, sizeof *s);
	s->opnd = PendOpnd;
	s->n = (uint8_t)cx->nvbuf;
	s->reg = r;
	s->ver = aalloc(cx, cx->nvbuf * sizeof *s->ver);
	memcpy(s->ver, cx->vbuf, cx->nvbuf * sizeof *s->ver);
	s->loc = loc;
	cx->has_ssa = 1;
}

/* a fresh operand in the instruction's scratch */
static uint32_t
onew(Ctx *cx, int kind)
{
	uint32_t k = 63;

	if (cx->not < 64)
		k = cx->not++;
	else if (!cx->opover++)
		error_at(cx->d, (Loc){ cx->pos, cx->pos }, "instruction too long");
	memset(&cx->ot[k], 0, sizeof cx->ot[k]);
	cx->ot[k].kind = (uint8_t)kind;
	return k;
}

static uint32_t
tnew(Ctx *cx)
{
	uint32_t k = cx->ntt < 64 ? cx->ntt++ : 63;   /* 64 terms: reported as too many operands */

	memset(&cx->tt[k], 0, sizeof cx->tt[k]);
	return k;
}

/* ---- operands ------------------------------------------------------------------------------ */

static const char *
reg_range(const char *s)
{
	if (s[0] == 'U' && s[1] == 'R')
		return "UR0..UR62, URZ";
	if (s[0] == 'U' && s[1] == 'P')
		return "UP0..UP6, UPT";
	switch (s[0]) {
	case 'R': return "R0..R254, RZ";
	case 'P': return "P0..P6, PT";
	case 'B': return "B0..B15";
	default: return "V0..V2047";
	}
}

/* reg_parse with a fast path for R0..R254 (most operands) */
static int
regof(const char *s, uint32_t n, Reg *r)
{
	if (n >= 2 && n <= 4 && s[0] == 'R' && s[1] >= '1' && s[1] <= '9') {
		unsigned v = (unsigned)(s[1] - '0');
		uint32_t k;
		for (k = 2; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			v = v * 10 + (unsigned)(s[k] - '0');
		if (k == n) {
			if (v > NumR - 2)
				return -2;
			*r = REG(RR, v);
			return 0;
		}
	}
	if (n == 0 || !strchr("RPUBV", s[0]))
		return -1;
	return reg_parse(s, n, r);
}

/* a register, special register or named operand: `R2.reuse.H0_H0`, `R2<5,1>.64`, `SR_TID.X`;
 * hasann: the versions just read (cx->vbuf) follow the name */
uint32_t
b_word(Ctx *cx, Str w, Loc wloc, int hasann, Loc annloc, Str sfx)
{
	const char *s = cx->text + w.off;
	uint32_t k = 0, nsel = 0, selof[4], sellen[4], x;
	Opnd *o;
	Reg r;
	int rc;

	while (k < w.len && s[k] != '.')
		k++;
	rc = regof(s, k, &r);
	if (rc == -2) {
		error_at(cx->d, (Loc){ wloc.start, wloc.start + k }, "register '%.*s' out of range (%s)",
		         (int)k, s, reg_range(s));
		cx->badreg = wloc.start;
		x = onew(cx, OExpr);
		cx->ot[x].atom = intern(cx, w);
		return x;
	}
	if (rc < 0) {
		if (hasann)
			error_at(cx->d, annloc, "SSA annotation on '%.*s', which is not a register",
			         (int)w.len, s);
		if (sfx.len)
			error_at(cx->d, sloc(sfx), "unexpected suffix after '%.*s'", (int)w.len, s);
		if (k == w.len && (streq(cx, w, "INF") || streq(cx, w, "QNAN") || streq(cx, w, "NAN"))) {
			x = onew(cx, OFImm);
			cx->ot[x].fimm = s[0] == 'I' ? INFINITY : NAN;
		} else if (hasprefix(s, "SR_") || (k == 3 && memcmp(s, "SRZ", 3) == 0)) {
			x = onew(cx, OSReg);
		} else {
			x = onew(cx, OExpr);
		}
		cx->ot[x].atom = intern(cx, w);
		return x;
	}
	x = onew(cx, OReg);
	o = &cx->ot[x];
	o->r[0] = r;
	/* the suffix parts: in the word after the name, then in the word after the annotation */
	for (int part = 0; part < 2; part++) {
		const char *t = part ? cx->text + sfx.off : s + k;
		uint32_t n = part ? sfx.len : w.len - k, j = 0;
		while (j < n) {
			uint32_t b = ++j;                        /* skip the dot */
			while (j < n && t[j] != '.')
				j++;
			if (j - b == 5 && memcmp(t + b, "reuse", 5) == 0) {
				o->flags |= FReuse | (nsel ? FSpell1 : 0);
			} else if (nsel < 4) {
				selof[nsel] = (uint32_t)(t + b - cx->text);
				sellen[nsel++] = j - b;
			}
		}
	}
	if (nsel == 1) {
		o->sfx[0] = atom(cx->m->atoms, cx->text + selof[0], sellen[0]);
	} else if (nsel > 1) {
		char buf[128];
		int len = 0;
		for (uint32_t j = 0; j < nsel && len < (int)sizeof buf; j++)
			len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%.*s", j ? "." : "",
			                (int)sellen[j], cx->text + selof[j]);
		o->sfx[0] = atom(cx->m->atoms, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
	}
	if (hasann) {
		if (reg_isconst(r))
			error_at(cx->d, annloc, "'%.*s' is a constant and takes no SSA annotation",
			         (int)k, s);
		else
			push_ann(cx, r, (Loc){ wloc.start, annloc.end });
	}
	return x;
}

/* a float immediate, or a decimal number (nvdisasm prints integers in hex: decimals are floats) */
uint32_t
b_float(Ctx *cx, Loc loc)
{
	uint32_t x = onew(cx, OFImm);
	char buf[64];

	snprintf(buf, sizeof buf, "%.*s", (int)(loc.end - loc.start), cx->text + loc.start);
	cx->ot[x].fimm = strtod(buf, NULL);
	cx->ot[x].atom = atom(cx->m->atoms, cx->text + loc.start, loc.end - loc.start);
	return x;
}

uint32_t
b_imm(Ctx *cx, uint64_t v, Loc loc)
{
	uint32_t x = onew(cx, OImm);

	(void)loc;
	cx->ot[x].imm = (int64_t)v;
	cx->ot[x].flags = FHex;
	return x;
}

uint32_t
b_labelref(Ctx *cx, Str s, Loc loc)
{
	uint32_t x = onew(cx, OLabel);

	cx->ot[x].imm = -1;
	if (s.len == 0)
		error_at(cx->d, loc, "empty label reference");
	cx->ot[x].atom = intern(cx, s);
	return x;
}

uint32_t
b_sbset(Ctx *cx, Str inner, Loc loc)
{
	const char *s = cx->text + inner.off;
	uint32_t x = onew(cx, OSbSet);
	uint64_t v = 0;

	for (uint32_t k = 0; k < inner.len; k++) {
		if (s[k] >= '0' && s[k] <= '9') {
			v = v * 10 + (uint64_t)(s[k] - '0');
			if (v > 63) {
				error_at(cx->d, loc, "scoreboard number out of range (0..63)");
				v = 0;
			}
		}
		if (k + 1 == inner.len || s[k + 1] == ',') {
			cx->ot[x].imm |= (int64_t)(1ull << v);
			v = 0;
		}
	}
	cx->ot[x].atom = intern(cx, inner);
	return x;
}

uint32_t
b_prefix(Ctx *cx, int c, uint32_t x, Loc loc)
{
	Opnd *o = &cx->ot[x];
	char buf[96];

	switch (c) {
	case '-':
	case '+':
		if (o->kind == OImm && c == '-') {
			o->imm = -o->imm;
		} else if (o->kind == OFImm) {
			snprintf(buf, sizeof buf, "%c%s", c, mstr(cx->m, o->atom));
			o->atom = atomz(cx->m->atoms, buf);
			if (c == '-')
				o->fimm = -o->fimm;
		} else if (c == '-') {
			o->flags |= FNeg;
		} else {
			error_at(cx->d, loc, "'+' before an operand that is not a float");
		}
		break;
	case '~':
		o->flags |= FNot;
		break;
	default:
		o->flags |= FLNot;
		break;
	}
	return x;
}

uint32_t
b_abs(Ctx *cx, uint32_t x, Str sfx, Loc sfxloc)
{
	Opnd *o = &cx->ot[x];

	if (o->flags & FReuse)
		o->flags |= FSpell2;     /* `|R2.reuse|`: the hint inside the bars */
	o->flags |= FAbs;
	if (sfx.len) {
		if (streq(cx, sfx, ".reuse"))
			o->flags = (uint16_t)((o->flags | FReuse) & ~FSpell2);
		else
			error_at(cx->d, sfxloc, "unexpected suffix '%.*s' after '|...|'", (int)sfx.len,
			         cx->text + sfx.off);
	}
	return x;
}

void
b_tadd(Ctx *cx, uint32_t t, int plus)
{
	if (cx->nterm == sizeof cx->term / sizeof cx->term[0]) {
		error_at(cx->d, cx->tt[t].loc, "too many terms in an address");
		return;
	}
	cx->term[cx->nterm] = cx->tt[t];
	cx->term[cx->nterm++].plus = (uint8_t)plus;
}

uint32_t
b_treg(Ctx *cx, uint32_t x, Loc loc)
{
	uint32_t k = tnew(cx);
	Term *t = &cx->tt[k];
	const Opnd *o = &cx->ot[x];

	t->loc = loc;
	if (o->kind != OReg) {
		t->bad = 1;
		if (loc.start != cx->badreg)
			error_at(cx->d, loc, "expected a register or a number in an address");
		return k;
	}
	t->isreg = 1;
	t->r = o->r[0];
	t->sfx = o->sfx[0];
	t->flags = o->flags;
	return k;
}

uint32_t
b_tnum(Ctx *cx, uint64_t v, int hex, int neg, Loc loc)
{
	uint32_t k = tnew(cx);
	Term *t = &cx->tt[k];

	t->v = neg ? -(int64_t)v : (int64_t)v;
	t->hex = (uint8_t)hex;
	t->neg = (uint8_t)neg;
	t->loc = loc;
	return k;
}

/* registers and offset of an address, into r[0], r[1] and imm; -1 after reporting */
static int
fill_addr(Ctx *cx, Opnd *o, uint32_t maxreg, const char *what)
{
	uint32_t nreg = 0;
	int num = 0;

	for (uint32_t k = 0; k < cx->nterm; k++) {
		Term *t = &cx->term[k];
		if (t->isreg) {
			if (nreg == maxreg) {
				error_at(cx->d, t->loc, "%s: too many registers", what);
				return -1;
			}
			o->r[nreg] = t->r;
			o->sfx[nreg++] = t->sfx;
			o->flags |= t->flags & FReuse;
		} else if (!t->bad) {
			if (num++) {
				error_at(cx->d, t->loc, "%s: more than one offset", what);
				return -1;
			}
			o->imm = t->v;
			if (t->hex)
				o->flags |= FHex;
			if (t->neg && t->plus)
				o->flags |= FPlusNeg;
		}
	}
	return 0;
}

uint32_t
b_addr(Ctx *cx, Loc loc)
{
	uint32_t x = onew(cx, OMem);

	(void)loc;
	fill_addr(cx, &cx->ot[x], 2, "malformed address");
	return x;
}

/* `c[0x3][R2+0x10]`, `cx[UR4][R0+0x8]`, `desc[UR4][R2.64+0x10]`, `gdesc[UR4]` */
uint32_t
b_bank(Ctx *cx, Str w, Loc wloc, uint32_t ti, int twobr, Loc loc)
{
	int isc = streq(cx, w, "c"), iscx = streq(cx, w, "cx");
	uint32_t x = onew(cx, isc || iscx ? OCBank : OMem);
	Opnd *o = &cx->ot[x];
	Term idx = cx->tt[ti];

	if (!twobr)
		cx->nterm = 0;
	if (isc || iscx) {
		if (!twobr) {
			error_at(cx->d, loc, "malformed constant bank: expected '%s[BANK][OFFSET]'",
			         isc ? "c" : "cx");
			return x;
		}
		if (isc && idx.isreg) {
			error_at(cx->d, idx.loc, "malformed constant bank: the bank must be a number");
			return x;
		}
		if (iscx && (!idx.isreg || RCLS(idx.r) != RUR)) {
			error_at(cx->d, idx.loc, "malformed constant bank: 'cx' takes a uniform register");
			return x;
		}
		if (isc && (idx.neg || idx.v > 31)) {
			error_at(cx->d, idx.loc, "constant bank %lld out of range (0..31)", (long long)idx.v);
			return x;
		}
		if (isc) {
			o->imm2 = idx.v;
		} else {
			o->flags |= FCx;
			o->r[1] = idx.r;
		}
		fill_addr(cx, o, 1, "malformed constant bank");
		return x;
	}
	if (streq(cx, w, "desc") || streq(cx, w, "gdesc")) {
		int g = w.len == 5;
		if (!idx.isreg || RCLS(idx.r) != RUR) {
			error_at(cx->d, idx.loc, "malformed descriptor: expected a uniform register");
			return x;
		}
		if (g == twobr) {
			error_at(cx->d, loc, g ? "malformed descriptor: 'gdesc' takes no address"
			                       : "malformed descriptor: expected 'desc[UR][ADDRESS]'");
			return x;
		}
		o->flags |= FDesc | (g ? FSpell2 : 0);
		o->r[2] = idx.r;
		o->sfx[2] = idx.sfx;
		fill_addr(cx, o, 2, "malformed address");
		return x;
	}
	error_at(cx->d, wloc, "unknown operand '%.*s[...]'", (int)w.len, cx->text + w.off);
	return x;
}

/* place the pending annotations of the operand just read on its register fields */
static void
place_anns(Ctx *cx, const Opnd *o, uint8_t opnd)
{
	int used[3] = { 0, 0, 0 };

	for (uint32_t k = 0; k < cx->npann; k++) {
		SsaAnn *a = &cx->pann[k];
		if (a->opnd != PendOpnd || a->kind != AnnOpnd)
			continue;
		a->opnd = opnd;
		for (int f = 0; f < 3; f++)
			if (!used[f] && o->r[f] == a->reg && (o->kind != OReg || f == 0)) {
				used[f] = 1;
				a->field = (uint8_t)f;
				break;
			}
	}
}

void
b_opnd(Ctx *cx, uint32_t x, Loc loc, int nocomma)
{
	Opnd *o = &cx->ot[x];

	if (cx->nopnd == MaxOpnd) {
		if (!cx->opover++)
			error_at(cx->d, loc, "too many operands (at most %d)", MaxOpnd);
		return;
	}
	if (nocomma)
		o->flags |= FSpell0;
	if (cx->npann)
		place_anns(cx, o, (uint8_t)cx->nopnd);
	cx->op[cx->nopnd] = *o;
	cx->oploc[cx->nopnd++] = loc;
}

void
b_guard(Ctx *cx, uint32_t x, int neg, Loc loc)
{
	Opnd o = cx->ot[x];

	if (o.kind != OReg || (RCLS(o.r[0]) != RP && RCLS(o.r[0]) != RUP) || o.flags || o.sfx[0]) {
		if (loc.start + 1 + (uint32_t)neg == cx->badreg)
			return;
		error_at(cx->d, loc, "the guard must be a predicate (P0..P6, PT, UP0..UP6, UPT)");
		return;
	}
	if (neg)
		o.flags |= FLNot;
	if (cx->npann)
		place_anns(cx, &o, SlotGuard);
	cx->guard = o;
	cx->guarded = 1;
}

/* old(R7<2>), def(P0<3>), use(UR4<1,1>) */
void
b_pseudo(Ctx *cx, int kind, uint32_t x, Loc loc)
{
	static const char *const name[] = { "", "old", "def", "use" };
	SsaAnn *a = cx->npann ? &cx->pann[cx->npann - 1] : NULL;
	const Opnd *o = &cx->ot[x];

	if (o->kind != OReg) {
		error_at(cx->d, loc, "%s(...) takes a register", name[kind]);
		return;
	}
	if (!a || a->opnd != PendOpnd || a->reg != o->r[0]) {
		error_at(cx->d, loc, "%s(...) needs an SSA annotation such as %s(R7<2>)", name[kind],
		         name[kind]);
		return;
	}
	a->kind = (uint8_t)kind;
	a->opnd = 0;
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
	cx->lastfn = NULL;
}

void
b_ins(Ctx *cx, Str opcode, int64_t addr, int nosemi, int nenc, uint64_t enc, Loc loc)
{
	const char *s = cx->text + opcode.off;
	Loc oploc = sloc(opcode);
	uint32_t k = 0, idx;
	Fn *f = cx->fn;
	Ins *i;

	if (!f || cx->sec != f->text) {
		error_at(cx->d, oploc, "instruction outside a .text section");
		b_insreset(cx);
		return;
	}
	i = fn_append(f);
	idx = f->nins - 1;
	while (k < opcode.len && s[k] != '.')
		k++;
	i->name = atom(cx->m->atoms, s, k);
	i->op = (uint16_t)op_lookup(s, k);
	while (k < opcode.len) {
		uint32_t b = ++k;
		while (k < opcode.len && s[k] != '.')
			k++;
		if (i->nmod == MaxMod) {
			error_at(cx->d, (Loc){ oploc.start + b - 1, oploc.start + k },
			         "too many modifiers (at most %d)", MaxMod);
			break;
		}
		i->mod[i->nmod++] = atom(cx->m->atoms, s + b, k - b);
	}
	i->nopnd = (uint8_t)cx->nopnd;
	i->opnd = aalloc(cx, cx->nopnd * sizeof *i->opnd);
	memcpy(i->opnd, cx->op, cx->nopnd * sizeof *i->opnd);
	if (cx->guarded) {
		i->guarded = 1;
		i->guard = cx->guard;
	}
	if (nosemi)
		i->flags |= INoSemi;
	i->nenc = (uint8_t)nenc;
	i->enc[0] = enc;
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
			cx->ref[cx->nref++] = (LabRef){ f, idx, (uint8_t)j, cx->oploc[j] };
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
	cx->lastfn = f;
	cx->lastins = idx;
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
	cx->parg[cx->nparg++] = (PhiArg){ (uint32_t)b, a->ver[0], loc };
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

void
b_finish(Ctx *cx)
{
	Module *m = cx->m;

	end_fn(cx);
	for (uint32_t k = 0; k < cx->nref; k++) {
		LabRef *r = &cx->ref[k];
		Opnd *o = &r->fn->ins[r->ins].opnd[r->opnd];
		uint32_t x = lab_find(cx, o->atom);
		if (!x) {
			error_at(cx->d, r->loc, "undefined label '%s'", mstr(m, o->atom));
			if (too_many(cx))
				return;
			continue;
		}
		if (cx->lab[x - 1].fn)
			o->imm = addr_of(cx->lab[x - 1].fn, cx->lab[x - 1].at);
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
}
