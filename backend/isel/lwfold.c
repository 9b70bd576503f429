/* lwfold.c: address arithmetic folded as ptxas does (issue 23). An address fold: a register d
 * defined once, unguarded, by `add.s64 d, b, imm` (.u64; .s32/.u32 for .shared addresses) and
 * otherwise used only as the base of ld/st addresses `[d+off]` is not computed: those addresses
 * are `[b+imm+off]` (lw_addr asks lw_fold_of) and the add writes nothing (lw_fold_skip). A wide
 * fold: `mul.wide.s32 t, a, b` (.u32) whose t is used only by adds `add.s64 d, c, t` makes each
 * of them one `IMAD.WIDE d, a, b, c` (the mad.wide row, lw_fold_wide) and writes nothing. The
 * registers the folded instruction reads (b; a and b) must have at most one definition in the
 * function, so that they hold at the fold the value they had at the add or mul. Functions lowered
 * by colour (lwcolour.c) are left alone: a colour's live ranges would be extended past what the
 * colouring saw.
 */
#include "lwpriv.h"

#include <stdlib.h>
#include <string.h>

enum {
	MaxFoldOff = 1 << 22,   /* |imm| and |off| below this: the sum fits the 24-bit offset */
};

/* one PTX register of the function (a declaration and its name) and what the scan saw of it */
typedef struct Seen {
	const PtxVar *decl;     /* its declaration */
	uint32_t atom;          /* its name ("%rd12") */
	uint32_t any;           /* appearances as an operand, anywhere */
	uint32_t def;           /* appearances in operand 0 (a possible definition) */
	uint32_t addr64;        /* bases of ld/st addresses in the global or generic space */
	uint32_t addr32;        /* bases of ld/st addresses in the shared space */
	int64_t maxoff;         /* the largest |offset| of those addresses */
	const PtxIns *mulwide;  /* the mul.wide that defines it (fold_mulwide), NULL none */
	uint32_t wideuse;       /* adds that would absorb that mul.wide (plan_wide's first round) */
} Seen;

/* the scan's table: the registers seen, found by an open-addressing hash of (decl, atom) */
typedef struct Scan {
	Seen *s;                /* the registers seen */
	uint32_t n, cap;        /* how many, and the room for them */
	uint32_t *hash;         /* index + 1 into s, 0 empty */
	uint32_t hcap;          /* slots of hash, a power of 2, at least twice n */
} Scan;

static uint32_t
seen_hash(const PtxVar *decl, uint32_t atom)
{
	return (uint32_t)(atom * 2654435761u) ^ (uint32_t)((uintptr_t)decl >> 4) * 40503u;
}

static Seen *
seen_of(Scan *sc, const PtxOpnd *o)
{
	uint32_t h;

	if (2 * (sc->n + 1) > sc->hcap) {          /* grow: rehash every register */
		sc->hcap = sc->hcap ? 2 * sc->hcap : 256;
		free(sc->hash);
		sc->hash = xmalloc(sc->hcap * sizeof *sc->hash);
		memset(sc->hash, 0, sc->hcap * sizeof *sc->hash);
		for (uint32_t k = 0; k < sc->n; k++) {
			for (h = seen_hash(sc->s[k].decl, sc->s[k].atom); sc->hash[h & (sc->hcap - 1)]; h++)
				;
			sc->hash[h & (sc->hcap - 1)] = k + 1;
		}
	}
	for (h = seen_hash(o->decl, o->atom); sc->hash[h & (sc->hcap - 1)]; h++) {
		Seen *s = &sc->s[sc->hash[h & (sc->hcap - 1)] - 1];
		if (s->atom == o->atom && s->decl == o->decl)
			return s;
	}
	vgrow(&sc->s, &sc->cap, sc->n + 1, sizeof *sc->s);
	sc->s[sc->n] = (Seen){ .decl = o->decl, .atom = o->atom };
	sc->hash[h & (sc->hcap - 1)] = sc->n + 1;
	return &sc->s[sc->n++];
}

/* the space an ld/st names: 1 global or generic, 2 shared, 0 another (const, local, param) */
static int
ldst_space(const Ptx *p, const PtxIns *i)
{
	const char *op = ptx_str(p, i->op);

	if (strcmp(op, "ld") && strcmp(op, "st") && strcmp(op, "ldu"))
		return 0;
	for (uint32_t m = 0; m < i->nmod; m++) {
		const char *s = ptx_str(p, i->mod[m]);
		if (!strcmp(s, "global"))
			return 1;
		if (!strcmp(s, "shared") || !strcmp(s, "shared::cta"))
			return 2;
		if (!strcmp(s, "const") || !strcmp(s, "local") || !strcmp(s, "param") ||
		    !strncmp(s, "shared::", 8))
			return 0;
	}
	return 1;                     /* generic */
}

static void
scan_opnd(Scan *sc, const PtxOpnd *o, int def, int space)
{
	if (o->kind == PoName && o->what == PwReg && o->decl) {
		Seen *s = seen_of(sc, o);
		s->any++;
		s->def += def;
		return;
	}
	if (o->kind == PoAddr && o->nsub == 1 && o->sub[0].kind == PoName && o->sub[0].what == PwReg &&
	    o->sub[0].decl && space) {
		Seen *s = seen_of(sc, &o->sub[0]);
		int64_t off = o->hasoff ? llabs(o->ival) : 0;
		s->any++;
		if (space == 1)
			s->addr64++;
		else
			s->addr32++;
		if (off > s->maxoff)
			s->maxoff = off;
		return;
	}
	for (uint32_t k = 0; k < o->nsub; k++)
		scan_opnd(sc, &o->sub[k], def, 0);
}

/* the add's only modifier is s64/u64 (wide 1) or s32/u32 (wide 0): 1, else 0 */
static int
fold_add_type(const Ptx *p, const PtxIns *i, int *wide)
{
	const char *t = i->nmod == 1 ? ptx_str(p, i->mod[0]) : "";

	if (strcmp(t, "s64") && strcmp(t, "u64") && strcmp(t, "s32") && strcmp(t, "u32"))
		return 0;
	*wide = t[1] == '6';
	return 1;
}

/* `add.TYPE d, b, imm` with TYPE s64/u64 (wide 1) or s32/u32 (wide 0), unguarded: its d, else
 * NULL */
static const PtxOpnd *
fold_add(const Ptx *p, const PtxIns *i, int *wide)
{
	if (strcmp(ptx_str(p, i->op), "add") || i->guard || i->nmod != 1 || i->nopnd != 3 ||
	    !fold_add_type(p, i, wide))
		return NULL;
	if (i->opnd[0].kind != PoName || i->opnd[0].what != PwReg || i->opnd[1].kind != PoName ||
	    i->opnd[1].what != PwReg || i->opnd[2].kind != PoImm || !i->opnd[0].decl ||
	    !i->opnd[1].decl)
		return NULL;
	return &i->opnd[0];
}

/* `mul.wide.s32 t, a, b` (.u32), unguarded: its t, else NULL */
static const PtxOpnd *
fold_mulwide(const Ptx *p, const PtxIns *i)
{
	const char *m0, *m1;

	if (strcmp(ptx_str(p, i->op), "mul") || i->guard || i->nmod != 2 || i->nopnd != 3)
		return NULL;
	m0 = ptx_str(p, i->mod[0]);
	m1 = ptx_str(p, i->mod[1]);
	if (strcmp(m0, "wide") || (strcmp(m1, "s32") && strcmp(m1, "u32")))
		return NULL;
	if (i->opnd[0].kind != PoName || i->opnd[0].what != PwReg || !i->opnd[0].decl)
		return NULL;
	return &i->opnd[0];
}

/* operand o of a folded instruction keeps its value up to the fold: an immediate, or a register
 * defined at most once */
static int
steady(Scan *sc, const PtxOpnd *o)
{
	if (o->kind == PoImm)
		return 1;
	return o->kind == PoName && o->what == PwReg && o->decl && seen_of(sc, o)->def <= 1;
}

/* the operand of `add.s64 d, x, y` (1 or 2) whose register is made by a mul.wide that the add
 * can absorb: the t of that mul, the other operand a register that is not d; 0 none */
static int
wide_pick(Lw *w, Scan *sc, const PtxIns *i)
{
	int wide = 0;

	if (strcmp(ptx_str(w->p, i->op), "add") || i->guard || i->nmod != 1 || i->nopnd != 3 ||
	    !fold_add_type(w->p, i, &wide) || !wide)
		return 0;
	for (int k = 1; k <= 2; k++) {
		const PtxOpnd *t = &i->opnd[k], *c = &i->opnd[3 - k];
		if (t->kind != PoName || t->what != PwReg || !t->decl || c->kind != PoName ||
		    c->what != PwReg || !c->decl || (c->atom == i->opnd[0].atom &&
		    c->decl == i->opnd[0].decl))
			continue;
		const Seen *st = seen_of(sc, t);
		const PtxIns *m = st->mulwide;
		if (st->def != 1 || !m || !steady(sc, &m->opnd[1]) || !steady(sc, &m->opnd[2]))
			continue;
		return k;
	}
	return 0;
}

/* the wide folds: `add.s64 d, x, y` with x or y the t of a mul.wide whose every other use is
 * such an add too (the index loads of two tensors share one `mul.wide`, as Triton writes them):
 * each add becomes its own IMAD.WIDE, as ptxas issues them, and t is never made, so neither
 * its two registers nor a carry chain per add are spent (the mul's operands, read again at each
 * add, are defined once: they hold the same value there) */
static void
plan_wide(Lw *w, Scan *sc)
{
	struct LwPriv *v = w->priv;
	const PtxFunc *fn = w->fn;

	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		int k = i ? wide_pick(w, sc, i) : 0;
		if (k)
			seen_of(sc, &i->opnd[k])->wideuse++;
	}
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		int k = i ? wide_pick(w, sc, i) : 0;
		if (!k)
			continue;
		const Seen *st = seen_of(sc, &i->opnd[k]);
		if (st->any != 1 + st->wideuse)
			continue;
		vgrow(&v->fold, &v->cfold, v->nfold + 1, sizeof *v->fold);
		v->fold[v->nfold++] = (LwFold){ .def = i, .mul = st->mulwide, .base = &i->opnd[3 - k] };
	}
}

void
lw_plan_fold(Lw *w)
{
	struct LwPriv *v = w->priv;
	const PtxFunc *fn = w->fn;
	Scan sc = {0};

	v->foldfn = fn;
	if (v->compact)
		return;
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (!i)
			continue;
		int space = ldst_space(w->p, i);
		for (uint32_t k = 0; k < i->nopnd; k++)
			scan_opnd(&sc, &i->opnd[k], k == 0, space);
		const PtxOpnd *mt = fold_mulwide(w->p, i);
		if (mt)
			seen_of(&sc, mt)->mulwide = i;
	}
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		int wide = 0;
		const PtxOpnd *d = i ? fold_add(w->p, i, &wide) : NULL;
		if (!d)
			continue;
		const Seen *sd = seen_of(&sc, d), *sb = seen_of(&sc, &i->opnd[1]);
		uint32_t uses = wide ? sd->addr64 : sd->addr32;
		int64_t imm = i->opnd[2].ival;
		if (sd->def != 1 || !uses || sd->any != 1 + uses || sb->def > 1 || sb == sd ||
		    (wide ? sd->addr32 : sd->addr64) || imm <= -MaxFoldOff || imm >= MaxFoldOff ||
		    sd->maxoff >= MaxFoldOff)
			continue;
		vgrow(&v->fold, &v->cfold, v->nfold + 1, sizeof *v->fold);
		v->fold[v->nfold++] = (LwFold){ .def = i, .decl = d->decl, .atom = d->atom,
		                                .base = &i->opnd[1], .imm = imm };
	}
	plan_wide(w, &sc);
	free(sc.s);
	free(sc.hash);
}

const LwFold *
lw_fold_of(const Lw *w, const PtxOpnd *o)
{
	const struct LwPriv *v = w->priv;

	if (w->fn != v->foldfn)
		return NULL;          /* an inlined body: its registers were not scanned */
	for (uint32_t k = 0; k < v->nfold; k++)
		if (!v->fold[k].mul && v->fold[k].atom == o->atom && v->fold[k].decl == o->decl)
			return &v->fold[k];
	return NULL;
}

int
lw_fold_skip(const Lw *w, const PtxIns *i)
{
	const struct LwPriv *v = w->priv;

	if (w->fn != v->foldfn)
		return 0;
	for (uint32_t k = 0; k < v->nfold; k++)
		if (v->fold[k].mul ? v->fold[k].mul == i : v->fold[k].def == i)
			return 1;
	return 0;
}

int
lw_fold_wide(Lw *w, const PtxIns *i)
{
	struct LwPriv *v = w->priv;
	const LwFold *f = NULL;

	for (uint32_t k = 0; k < v->nfold && w->fn == v->foldfn; k++)
		if (v->fold[k].mul && v->fold[k].def == i)
			f = &v->fold[k];
	if (!f)
		return 1;
	/* `mad.wide.s32 d, a, b, c` in place of the add, located at the add */
	PtxOpnd o[4] = { i->opnd[0], f->mul->opnd[1], f->mul->opnd[2], *f->base };
	PtxIns mad = *f->mul;
	mad.op = atomz(w->p->atoms, "mad");
	mad.opnd = o;
	mad.nopnd = 4;
	mad.loc = i->loc;
	mad.oploc = i->oploc;
	const PtxIns *was = w->ins;
	w->ins = &mad;
	w->tins = NULL;               /* lw_type's cache is by instruction address */
	const SelRow *row = ptxsel_lookup(w);
	int rc = row ? row->fn(w) : lw_error(w, "no selection row for mad.wide");
	w->tins = NULL;
	w->ins = was;
	return rc < 0 ? -1 : 0;
}
