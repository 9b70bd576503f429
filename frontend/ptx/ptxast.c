/* ptxast.c: the constructors the PTX grammar (ptx.y) calls. Operands, expressions and names are
 * gathered on the context's scratch stacks and copied into the module arena when their
 * instruction, list or declaration closes; an opcode word is split at its dots once and the split
 * is shared by every instruction that spells it alike. The printer is ptxprint.c.
 */
#include "ptxparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* push one element onto a scratch stack: PUSH(cx->os, cx->nos, cx->cos) */
#define PUSH(v, n, c) (vgrow(&(v), &(c), (n) + 1, sizeof *(v)), &(v)[(n)++])

static void *
acopy(PCtx *cx, const void *src, size_t n)
{
	void *p;

	if (n == 0)
		return NULL;
	p = arena_alloc(cx->p->arena, n);
	memcpy(p, src, n);
	return p;
}

int
pb_too_many(PCtx *cx)
{
	int max = cx->d->maxerr ? cx->d->maxerr : MaxErrors;

	return cx->d->nerr >= max;
}

static PtxTop *
top_add(PCtx *cx, int kind, Loc loc)
{
	PtxTop *t = PUSH(cx->top, cx->ntop, cx->ctop);

	memset(t, 0, sizeof *t);
	t->kind = (uint8_t)kind;
	t->loc = loc;
	return t;
}

static PtxStmt *
stmt_add(PCtx *cx, int kind, Loc loc)
{
	PtxStmt *s = PUSH(cx->st, cx->nst, cx->cst);

	memset(s, 0, sizeof *s);
	s->kind = (uint8_t)kind;
	s->loc = loc;
	return s;
}

/* ---- module header ------------------------------------------------------------------------- */

void
pb_version(PCtx *cx, PStr v, Loc loc)
{
	const char *s = cx->text + v.off, *e = s + v.len;
	uint32_t maj = 0, min = 0;

	while (s < e && *s != '.')
		maj = maj * 10 + (uint32_t)(*s++ - '0');
	for (s++; s < e && *s >= '0' && *s <= '9'; s++)
		min = min * 10 + (uint32_t)(*s - '0');
	if (s != e || maj > 99 || min > 99)
		error_at(cx->d, ploc(v), "malformed PTX version '%.*s'", (int)v.len, cx->text + v.off);
	cx->p->vmajor = maj;
	cx->p->vminor = min;
	cx->p->vloc = loc;
}

void
pb_target(PCtx *cx, PStr w, Loc loc)
{
	Ptx *p = cx->p;
	char buf[32];

	if (p->ntarget == 4) {
		error_at(cx->d, loc, "too many .target words (at most 4)");
		return;
	}
	p->target[p->ntarget++] = pintern(cx, w);
	if (p->ntarget == 1) {
		p->tloc = loc;
		snprintf(buf, sizeof buf, "%.*s", (int)(w.len < 31 ? w.len : 31), cx->text + w.off);
		if (sm_of_string(buf, &p->sm, &p->sm_suffix) < 0)
			p->sm = p->sm_suffix = 0;
	}
}

void
pb_addrsize(PCtx *cx, PNum n, Loc loc)
{
	if (n.v != 32 && n.v != 64)
		error_at(cx->d, loc, ".address_size must be 32 or 64");
	cx->p->addrsize = (uint32_t)n.v;
}

void
pb_file(PCtx *cx, PNum num, PStr path, int nextra, PNum a, PNum b, Loc loc)
{
	PtxFile *f = PUSH(cx->file, cx->nfile, cx->cfile);
	PtxTop *t;

	memset(f, 0, sizeof *f);
	f->num = (uint32_t)num.v;
	f->path = pintern(cx, path);
	f->nextra = (uint8_t)nextra;
	f->extra[0] = a.v;
	f->extra[1] = b.v;
	f->loc = loc;
	t = top_add(cx, PtFile, loc);
	t->atom = cx->nfile - 1;
}

void
pb_toppragma(PCtx *cx, PStr s, Loc loc)
{
	top_add(cx, PtPragma, loc)->atom = pintern(cx, s);
}

/* ---- declarations ----------------------------------------------------------------------------- */

void
pb_link(PCtx *cx, int bit)
{
	cx->link |= (uint32_t)bit;
}

void
pb_dstart(PCtx *cx, int space)
{
	memset(&cx->dv, 0, sizeof cx->dv);
	cx->dv.space = (uint8_t)space;
	cx->dtyped = 0;
}

static int
space_of(PCtx *cx, PStr w)
{
	static const struct { const char *s; int sp; } tab[] = {
		{ ".global", PsGlobal }, { ".shared", PsShared }, { ".const", PsConst },
		{ ".local", PsLocal }, { ".param", PsParam },
	};

	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
		if (pstreq(cx, w, tab[k].s))
			return tab[k].sp;
	return -1;
}

/* a word of a declaration: `.v4`, `.ptr`, the pointee space after `.ptr`, or the type */
void
pb_dword(PCtx *cx, PStr w, Loc loc)
{
	PtxVar *v = &cx->dv;
	int sp;

	if (pstreq(cx, w, ".v2") || pstreq(cx, w, ".v4") || pstreq(cx, w, ".v8")) {
		v->vec = (uint8_t)(cx->text[w.off + 2] - '0');
	} else if (pstreq(cx, w, ".ptr")) {
		v->link |= PlPtr;
	} else if ((v->link & PlPtr) && (sp = space_of(cx, w)) >= 0) {
		v->ptrspace = (uint8_t)sp;
	} else if (cx->dtyped) {
		error_at(cx->d, loc, "a second type '%.*s' in one declaration", (int)w.len,
		         cx->text + w.off);
	} else {
		v->type = atom(cx->p->atoms, cx->text + w.off + 1, w.len - 1);
		cx->dtyped = 1;
	}
}

void
pb_dalign(PCtx *cx, PNum n, Loc loc)
{
	if (n.v == 0 || (n.v & (n.v - 1)) || n.v > (1u << 20))
		error_at(cx->d, loc, "alignment must be a power of two");
	if (cx->dv.link & PlPtr)
		cx->dv.ptralign = (uint32_t)n.v;
	else
		cx->dv.align = (uint32_t)n.v;
}

void
pb_dname(PCtx *cx, PStr name, Loc loc)
{
	PtxVar *v = PUSH(cx->vs, cx->nvs, cx->cvs);

	*v = cx->dv;
	v->link |= (uint8_t)cx->link;
	v->name = pintern(cx, name);
	v->loc = loc;
	if (!cx->dtyped && cx->dv.space != PsNoSpace)
		error_at(cx->d, loc, "declaration of '%.*s' has no type", (int)name.len,
		         cx->text + name.off);
}

void
pb_drange(PCtx *cx, PNum n, Loc loc)
{
	PtxVar *v = &cx->vs[cx->nvs - 1];

	if (n.v == 0 || n.v > (1u << 24))
		error_at(cx->d, loc, "register range must be 1..16777216");
	v->range = (uint32_t)n.v;
}

void
pb_ddim(PCtx *cx, int has, PNum n, Loc loc)
{
	PtxVar *v = &cx->vs[cx->nvs - 1];

	if (v->ndim == PtxMaxDim) {
		error_at(cx->d, loc, "more than %d array dimensions", PtxMaxDim);
		return;
	}
	if (has && n.v > INT32_MAX)
		error_at(cx->d, loc, "array size too large");
	v->dim[v->ndim++] = has ? (int32_t)n.v : -1;
}

void
pb_dinit(PCtx *cx, PtxExpr *e)
{
	cx->vs[cx->nvs - 1].init = e;
}

/* one declaration statement is complete: in a function body a PsDecl, else a PtVar */
void
pb_decl(PCtx *cx, Loc loc)
{
	PtxVar *v = acopy(cx, cx->vs, cx->nvs * sizeof *cx->vs);

	if (cx->fnc) {
		PtxStmt *s = stmt_add(cx, PsDecl, loc);
		s->var = v;
		s->nvar = cx->nvs;
	} else {
		PtxTop *t = top_add(cx, PtVar, loc);
		t->var = v;
		t->nvar = cx->nvs;
	}
	cx->nvs = 0;
	cx->nes = 0;
	cx->link = 0;
}

/* ---- expressions ------------------------------------------------------------------------------- */

static PtxExpr *
enew(PCtx *cx, int kind, Loc loc)
{
	PtxExpr *e = arena_alloc(cx->p->arena, sizeof *e);

	e->kind = (uint8_t)kind;
	e->loc = loc;
	return e;
}

PtxExpr *
pb_eint(PCtx *cx, PNum n, int neg, Loc loc)
{
	PtxExpr *e;

	/* the many small numbers of .b8 lines share nodes (their Loc is the first one's) */
	if (!neg && !n.hex && !n.usfx && n.v < 256) {
		if (!cx->small[n.v]) {
			cx->small[n.v] = enew(cx, PeInt, loc);
			cx->small[n.v]->ival = (int64_t)n.v;
		}
		return cx->small[n.v];
	}
	e = enew(cx, PeInt, loc);
	e->ival = (int64_t)(neg ? 0 - n.v : n.v);
	e->hex = n.hex;
	e->usfx = n.usfx;
	return e;
}

static double
decfloat(PCtx *cx, PStr s)
{
	char buf[128];

	snprintf(buf, sizeof buf, "%.*s", (int)(s.len < 127 ? s.len : 127), cx->text + s.off);
	return strtod(buf, NULL);
}

/* kind PeF32/PeF64 with bits, or PeFDec with text s, negated when bits is 1 */
PtxExpr *
pb_efloat(PCtx *cx, int kind, uint64_t bits, PStr s, Loc loc)
{
	PtxExpr *e = enew(cx, kind, loc);

	if (kind == PeFDec)
		e->fval = bits ? -decfloat(cx, s) : decfloat(cx, s);
	else
		e->ival = (int64_t)bits;
	return e;
}

PtxExpr *
pb_esym(PCtx *cx, PStr s, int generic, Loc loc)
{
	PtxExpr *e = enew(cx, generic ? PeGeneric : PeSym, loc);

	if (generic < 0)
		error_at(cx->d, loc, "expected 'generic(name)' in an initialiser");
	e->atom = pintern(cx, s);
	return e;
}

PtxExpr *
pb_eadd(PCtx *cx, PtxExpr *a, PtxExpr *b, Loc loc)
{
	PtxExpr *e = enew(cx, PeAdd, loc);

	e->nsub = 2;
	e->sub = arena_alloc(cx->p->arena, 2 * sizeof *e->sub);
	e->sub[0] = a;
	e->sub[1] = b;
	return e;
}

uint32_t
pb_emark(PCtx *cx)
{
	return cx->nes;
}

void
pb_epush(PCtx *cx, PtxExpr *e)
{
	*PUSH(cx->es, cx->nes, cx->ces) = e;
}

PtxExpr *
pb_elist(PCtx *cx, uint32_t mark, Loc loc)
{
	PtxExpr *e = enew(cx, PeList, loc);

	e->nsub = cx->nes - mark;
	e->sub = acopy(cx, cx->es + mark, e->nsub * sizeof *e->sub);
	cx->nes = mark;
	return e;
}

/* ---- functions ---------------------------------------------------------------------------------- */

void
pb_fstart(PCtx *cx, int entry, Loc loc)
{
	PtxFunc *f = arena_alloc(cx->p->arena, sizeof *f);

	f->entry = (uint8_t)entry;
	f->link = (uint8_t)cx->link;
	f->loc = loc;
	cx->link = 0;
	cx->fnc = NULL;    /* parameters are not body declarations */
	cx->nvs = cx->nat = cx->nst = cx->nnum = 0;
	cx->depth = 0;
	cx->fopen = 1;
	/* kept aside until the body starts */
	*PUSH(cx->fn, cx->nfn, cx->cfn) = f;
}

static PtxFunc *
cur_fn(PCtx *cx)
{
	return cx->fn[cx->nfn - 1];
}

void
pb_fname(PCtx *cx, PStr name, Loc loc)
{
	PtxFunc *f = cur_fn(cx);

	f->name = pintern(cx, name);
	f->loc = loc;
}

void
pb_fparams(PCtx *cx, int ret)
{
	PtxFunc *f = cur_fn(cx);
	PtxVar *v = acopy(cx, cx->vs, cx->nvs * sizeof *cx->vs);

	if (ret) {
		f->ret = v;
		f->nret = cx->nvs;
	} else {
		f->param = v;
		f->nparam = cx->nvs;
	}
	cx->nvs = 0;
}

void
pb_fnoreturn(PCtx *cx)
{
	cur_fn(cx)->noreturn = 1;
}

void
pb_fnum(PCtx *cx, PNum n, Loc loc)
{
	if (cx->nnum == 3) {
		error_at(cx->d, loc, "at most 3 values in a performance directive");
		return;
	}
	if (n.v > UINT32_MAX)
		error_at(cx->d, loc, "value too large");
	cx->nums[cx->nnum++] = (uint32_t)n.v;
}

void
pb_fattr(PCtx *cx, PStr name, Loc loc)
{
	PtxAttr *a = PUSH(cx->at, cx->nat, cx->cat);

	memset(a, 0, sizeof *a);
	a->name = pintern(cx, name);
	a->nval = (uint8_t)cx->nnum;
	memcpy(a->val, cx->nums, sizeof a->val);
	a->loc = loc;
	cx->nnum = 0;
	memset(cx->nums, 0, sizeof cx->nums);
}

void
pb_fbody(PCtx *cx)
{
	cx->fnc = cur_fn(cx);
	cx->fnc->body = 1;
	cx->depth = 1;
}

void
pb_fend(PCtx *cx, int body, Loc loc)
{
	PtxFunc *f;
	PtxTop *t;

	if (!cx->fopen)
		return;
	f = cur_fn(cx);
	f->attr = acopy(cx, cx->at, cx->nat * sizeof *cx->at);
	f->nattr = cx->nat;
	if (cx->fnc == f) {
		f->st = acopy(cx, cx->st, cx->nst * sizeof *cx->st);
		f->nst = cx->nst;
	}
	f->body = (uint8_t)(cx->fnc == f && body);
	t = top_add(cx, PtFunc, loc);
	t->func = f;
	cx->fnc = NULL;
	cx->fopen = 0;
	cx->nst = cx->nat = cx->nvs = cx->nos = cx->nes = 0;
	cx->depth = 0;
}

/* ---- statements ------------------------------------------------------------------------------------ */

void
pb_label(PCtx *cx, PStr name, Loc loc)
{
	stmt_add(cx, PsLabel, loc)->atom = pintern(cx, name);
}

void
pb_begin(PCtx *cx, Loc loc)
{
	stmt_add(cx, PsBegin, loc);
	cx->depth++;
}

void
pb_end(PCtx *cx, Loc loc)
{
	stmt_add(cx, PsEnd, loc);
	cx->depth--;
}

void
pb_loc(PCtx *cx, PNum f, PNum l, PNum c, Loc loc)
{
	PtxStmt *s = stmt_add(cx, PsLoc, loc);

	s->dl.file = (uint32_t)f.v;
	s->dl.line = (uint32_t)l.v;
	s->dl.col = (uint32_t)c.v;
}

void
pb_locinl(PCtx *cx, PStr w1, PStr fname, PStr w2, PNum f, PNum l, PNum c, Loc wloc)
{
	PtxStmt *s = &cx->st[cx->nst - 1];

	if (!pstreq(cx, w1, "function_name") || !pstreq(cx, w2, "inlined_at")) {
		error_at(cx->d, wloc, "expected 'function_name NAME, inlined_at F L C' after .loc");
		return;
	}
	s->dl.fname = pintern(cx, fname);
	s->dl.ifile = (uint32_t)f.v;
	s->dl.iline = (uint32_t)l.v;
	s->dl.icol = (uint32_t)c.v;
}

void
pb_pragma(PCtx *cx, PStr s, Loc loc)
{
	stmt_add(cx, PsPragma, loc)->atom = pintern(cx, s);
}

uint32_t
pb_pmark(PCtx *cx)
{
	return cx->nvs;
}

void
pb_proto(PCtx *cx, PStr name, uint32_t retmark, int hasret, uint32_t parmark, Loc loc)
{
	PtxProto *pr = arena_alloc(cx->p->arena, sizeof *pr);

	pr->name = pintern(cx, name);
	pr->loc = loc;
	if (hasret) {
		pr->nret = parmark - retmark;
		pr->ret = acopy(cx, cx->vs + retmark, pr->nret * sizeof *cx->vs);
	}
	pr->nparam = cx->nvs - parmark;
	pr->param = acopy(cx, cx->vs + parmark, pr->nparam * sizeof *cx->vs);
	cx->nvs = retmark;
	stmt_add(cx, PsProto, loc)->proto = pr;
}

/* ---- instructions ------------------------------------------------------------------------------------ */

void
pb_guard(PCtx *cx, PStr reg, int neg, Loc loc)
{
	cx->guard = (uint8_t)(neg ? 2 : 1);
	cx->gpred = pintern(cx, reg);
	cx->gloc = loc;
}

/* the split of an opcode word, made once per distinct word */
static PWord *
split_word(PCtx *cx, PStr w, Loc wloc)
{
	uint32_t a = pintern(cx, w), mod[PtxMaxMod], nmod = 0, k;
	uint16_t off[PtxMaxMod];
	const char *s = cx->text + w.off;
	PWord *pw;

	if (a < cx->cowof && cx->owof[a])
		return &cx->ow[cx->owof[a] - 1];
	for (k = 0; k < w.len && s[k] != '.'; k++)
		;
	pw = PUSH(cx->ow, cx->now, cx->cow);
	pw->op = atom(cx->p->atoms, s, k);
	while (k < w.len) {
		uint32_t b = ++k;
		while (k < w.len && s[k] != '.')
			k++;
		if (nmod == PtxMaxMod) {
			error_at(cx->d, wloc, "more than %d modifiers", PtxMaxMod);
			break;
		}
		off[nmod] = (uint16_t)(b - 1 < 0xffff ? b - 1 : 0xffff);
		mod[nmod++] = atom(cx->p->atoms, s + b, k - b);
	}
	pw->nmod = (uint8_t)nmod;
	pw->mod = acopy(cx, mod, nmod * sizeof *mod);
	pw->modoff = acopy(cx, off, nmod * sizeof *off);
	if (a >= cx->cowof) {
		uint32_t old = cx->cowof;
		vgrow(&cx->owof, &cx->cowof, a + 1, sizeof *cx->owof);
		memset(cx->owof + old, 0, (cx->cowof - old) * sizeof *cx->owof);
	}
	cx->owof[a] = cx->now;
	return pw;
}

void
pb_ins(PCtx *cx, PStr word, Loc wloc, Loc loc)
{
	PtxIns *i = arena_alloc(cx->p->arena, sizeof *i);
	PWord *pw = split_word(cx, word, wloc);

	i->op = pw->op;
	i->row = -1;
	i->nmod = pw->nmod;
	i->mod = pw->mod;
	i->modoff = pw->modoff;
	i->oploc = wloc;
	i->loc = loc;
	i->guard = cx->guard;
	i->gpred = cx->gpred;
	i->gloc = cx->gloc;
	if (cx->nos > PtxMaxOpnd) {
		error_at(cx->d, cx->os[PtxMaxOpnd].loc, "more than %d operands", PtxMaxOpnd);
		cx->nos = PtxMaxOpnd;
	}
	i->nopnd = (uint8_t)cx->nos;
	i->opnd = acopy(cx, cx->os, cx->nos * sizeof *cx->os);
	if (cx->fnc)
		stmt_add(cx, PsIns, loc)->ins = i;
	pb_insreset(cx);
}

void
pb_insreset(PCtx *cx)
{
	cx->nos = 0;
	cx->nes = 0;
	cx->nvs = 0;
	cx->guard = 0;
	cx->gpred = 0;
}

static PtxOpnd *
onew(PCtx *cx, int kind, Loc loc)
{
	PtxOpnd *o = PUSH(cx->os, cx->nos, cx->cos);

	memset(o, 0, sizeof *o);
	o->kind = (uint8_t)kind;
	o->loc = loc;
	return o;
}

/* `%r7`, `!%p1`, `%tid.x` (the component after the first dot is sfx) */
uint32_t
pb_oname(PCtx *cx, PStr s, int neg, Loc loc)
{
	PtxOpnd *o = onew(cx, PoName, loc);
	const char *t = cx->text + s.off, *dot = memchr(t, '.', s.len);

	o->neg = (uint8_t)neg;
	if (dot) {
		o->atom = atom(cx->p->atoms, t, (size_t)(dot - t));
		o->sfx = atom(cx->p->atoms, dot + 1, s.len - (size_t)(dot - t) - 1);
	} else {
		o->atom = pintern(cx, s);
	}
	return cx->nos - 1;
}

uint32_t
pb_oimm(PCtx *cx, PNum n, int neg, Loc loc)
{
	PtxOpnd *o = onew(cx, PoImm, loc);

	o->ival = (int64_t)(neg ? 0 - n.v : n.v);   /* wraps, never overflows */
	o->neg = (uint8_t)neg;
	o->hex = n.hex;
	o->usfx = n.usfx;
	return cx->nos - 1;
}

uint32_t
pb_ofloat(PCtx *cx, int kind, uint64_t bits, PStr s, Loc loc)
{
	PtxOpnd *o = onew(cx, kind, loc);

	if (kind == PoFDec)
		o->fval = bits ? -decfloat(cx, s) : decfloat(cx, s);
	else
		o->ival = (int64_t)bits;
	return cx->nos - 1;
}

uint32_t
pb_osink(PCtx *cx, Loc loc)
{
	onew(cx, PoSink, loc);
	return cx->nos - 1;
}

uint32_t
pb_omark(PCtx *cx)
{
	return cx->nos;
}

/* the operands os[mark..] become the elements of one operand of kind at os[mark] */
uint32_t
pb_olist(PCtx *cx, int kind, uint32_t mark, Loc loc)
{
	uint32_t n = cx->nos - mark;
	PtxOpnd *sub;

	if (n > PtxMaxSub) {
		error_at(cx->d, loc, "more than %d elements in one operand", PtxMaxSub);
		n = PtxMaxSub;
	}
	sub = acopy(cx, cx->os + mark, n * sizeof *sub);
	cx->nos = mark;
	onew(cx, kind, loc);
	cx->os[mark].nsub = (uint16_t)n;
	cx->os[mark].sub = sub;
	return mark;
}

uint32_t
pb_oaddr(PCtx *cx, uint32_t mark, int hasoff, int64_t off, Loc loc)
{
	uint32_t k = pb_olist(cx, PoAddr, mark, loc);

	cx->os[k].hasoff = (uint8_t)hasoff;
	cx->os[k].ival = off;
	return k;
}

/* ---- sections ------------------------------------------------------------------------------------------ */

void
pb_secstart(PCtx *cx, PStr name, Loc loc)
{
	PtxTop *t = top_add(cx, PtSection, loc);

	t->sec = arena_alloc(cx->p->arena, sizeof *t->sec);
	t->sec->name = pintern(cx, name);
	t->sec->loc = loc;
	cx->ndt = 0;
	cx->nes = 0;
}

static PtxData *
data_add(PCtx *cx, Loc loc)
{
	PtxData *d = PUSH(cx->dt, cx->ndt, cx->cdt);

	memset(d, 0, sizeof *d);
	d->loc = loc;
	return d;
}

void
pb_seclabel(PCtx *cx, PStr name, Loc loc)
{
	data_add(cx, loc)->label = pintern(cx, name);
}

void
pb_secdata(PCtx *cx, PStr type, uint32_t mark, Loc loc)
{
	PtxData *d = data_add(cx, loc);

	d->type = atom(cx->p->atoms, cx->text + type.off + 1, type.len - 1);
	d->nval = cx->nes - mark;
	d->val = acopy(cx, cx->es + mark, d->nval * sizeof *d->val);
	cx->nes = mark;
}

void
pb_secend(PCtx *cx, Loc loc)
{
	PtxSection *s = NULL;

	for (uint32_t k = cx->ntop; k-- > 0;)
		if (cx->top[k].kind == PtSection) {
			s = cx->top[k].sec;
			break;
		}
	if (!s)
		return;
	s->item = acopy(cx, cx->dt, cx->ndt * sizeof *cx->dt);
	s->nitem = cx->ndt;
	s->loc.end = loc.end;
	cx->ndt = 0;
}

/* ---- the end ---------------------------------------------------------------------------------------------- */

void
pb_finish(PCtx *cx)
{
	Ptx *p = cx->p;

	p->top = acopy(cx, cx->top, cx->ntop * sizeof *cx->top);
	p->ntop = cx->ntop;
	p->fn = acopy(cx, cx->fn, cx->nfn * sizeof *cx->fn);
	p->nfn = cx->nfn;
	p->file = acopy(cx, cx->file, cx->nfile * sizeof *cx->file);
	p->nfile = cx->nfile;
}

void
pb_free(PCtx *cx)
{
	free(cx->os);
	free(cx->es);
	free(cx->vs);
	free(cx->st);
	free(cx->at);
	free(cx->dt);
	free(cx->top);
	free(cx->fn);
	free(cx->file);
	free(cx->ow);
	free(cx->owof);
}
