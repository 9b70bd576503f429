/* edit.c: editing a function's instructions in place: insert, delete and replace an
 * instruction of a block, reorder a block (ins_permute), and relayout, which rebuilds Fn.ins from
 * the blocks in layout order.
 *
 * Between edits every consumer still iterates contiguous arrays: a block that is edited gets an
 * array of its own (copy on write, in the module's arena) and Fn.ins is stale until
 * fn_relayout; the pointers into instruction storage (Val.def, Use.ins) are patched whenever an
 * instruction moves. What refers to instructions by index is pinned at the first edit as
 * (block, position) and moved with the edits: the extra labels (Fn.xlabel) and the directives
 * between instructions (Item.off). Labels belong to the position where a block starts: an
 * instruction inserted at position 0 takes over the labels there (branches to the block run
 * it), and the labels of a deleted instruction go to the one that follows. The instruction a
 * label named at the first edit is remembered too: when relayout finds that a label no longer
 * names it (the .nv.info attributes of the backend use labels as instruction offsets, e.g.
 * EIATTR_EXIT_INSTR_OFFSETS `.L_x_3@srel`), the instruction gets a new label and the pair is
 * recorded in Edit.ren for the backend (backend/layout.c) to rewrite those references.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct Pin {
	uint32_t blk;      /* block id */
	uint32_t pos;      /* position in the block; nins: the end of the block */
	uint32_t atom;     /* the label (labels and identities) */
	uint32_t item;     /* item index (directives) */
} Pin;

enum { PinXlabel, PinItem, PinIdent, NPinKind };

struct Edit {
	int active;        /* pins are valid (an edit since the last relayout) */
	Ins **own;         /* per block id: the block's own array, NULL while it is a slice */
	uint32_t *cap;     /* per block id: room in own */
	Pin *pin[NPinKind]; /* xlabels, items between instructions, label identities */
	uint32_t npin[NPinKind];
	uint32_t cpin[NPinKind];
	uint32_t nblk;     /* blocks own and cap are sized for */
	uint32_t nlabel;   /* labels made by relayout, for unique names */
	uint32_t *ren;     /* pairs (old label, new label or 0 if its instruction was deleted) */
	uint32_t nren, cren;
};

static void
pin_add(Edit *e, int kind, Pin p)
{
	vgrow(&e->pin[kind], &e->cpin[kind], e->npin[kind] + 1, sizeof p);
	e->pin[kind][e->npin[kind]++] = p;
}

/* (block, position) of instruction index k of Fn.ins; k == nins: the end of the last block.
 * blk: NULL, or the block holding each instruction (blk_of), which makes it O(1) */
static Pin
pin_at(const Fn *f, uint32_t k, const uint32_t *blk)
{
	Pin p = {0};

	if (blk && k < f->nins && blk[k] != UINT32_MAX)
		return (Pin){.blk = blk[k], .pos = k - (uint32_t)(f->blk[blk[k]]->ins - f->ins)};
	for (uint32_t b = 0; b < f->nblk; b++) {
		const Blk *x = f->blk[b];
		uint32_t base = x->ins ? (uint32_t)(x->ins - f->ins) : 0;
		if (x->nins && k >= base && k < base + x->nins)
			return (Pin){.blk = b, .pos = k - base};
		if (x->ins && k == base + x->nins)
			p = (Pin){.blk = b, .pos = x->nins}; /* the end of the block before k */
	}
	return p;
}

/* the block of each instruction of Fn.ins (the blocks are its slices here), UINT32_MAX none */
static uint32_t *
blk_of(const Fn *f)
{
	uint32_t *blk = xmalloc((f->nins + 1) * sizeof *blk);

	memset(blk, 0xff, (f->nins + 1) * sizeof *blk);
	for (uint32_t b = f->nblk; b-- > 0;) {      /* the first block holding k wins */
		const Blk *x = f->blk[b];
		if (!x->ins || !x->nins || x->ins < f->ins || x->ins >= f->ins + f->nins)
			continue;
		for (uint32_t k = 0, base = (uint32_t)(x->ins - f->ins); k < x->nins && base + k < f->nins; k++)
			blk[base + k] = b;
	}
	return blk;
}

/* the first edit since the last relayout: pin what refers to instructions by index */
static Edit *
edit_begin(Fn *f)
{
	Edit *e = f->edit;

	if (!e)
		e = f->edit = xmalloc(sizeof *e);
	if (e->active)
		return e;
	if (!e->own || e->nblk != f->nblk) {
		/* the CFG was (re)built since: no block owns an array */
		free(e->own);
		free(e->cap);
		e->own = xmalloc((f->nblk + 1) * sizeof *e->own);
		e->cap = xmalloc((f->nblk + 1) * sizeof *e->cap);
		e->nblk = f->nblk;
	}
	e->active = 1;
	memset(e->npin, 0, sizeof e->npin);
	uint32_t *blk = blk_of(f);
	for (uint32_t k = 0; k < f->nxlabel; k++) {
		Pin p = pin_at(f, f->xlabel[2 * k], blk);
		p.atom = f->xlabel[2 * k + 1];
		pin_add(e, PinXlabel, p);
		p.atom = f->xlabel[2 * k + 1];
		if (f->xlabel[2 * k] < f->nins)
			pin_add(e, PinIdent, p);
	}
	for (uint32_t k = 0; f->text && k < f->text->nitem; k++)
		if (f->text->item[k].off >= 0) {
			Pin p = pin_at(f, (uint32_t)f->text->item[k].off, blk);
			p.item = k;
			pin_add(e, PinItem, p);
		}
	for (uint32_t k = 0; k < f->nins; k++)
		if (f->ins[k].label) {
			Pin p = pin_at(f, k, blk);
			p.atom = f->ins[k].label;
			pin_add(e, PinIdent, p);
		}
	free(blk);
	return e;
}

/* the instruction at from moved to to: patch the definitions and uses that point at it */
static void
moved(Fn *f, Ins *from, Ins *to)
{
	if (from == to || !f->val)
		return;
	for (unsigned j = 0; j < to->nslot; j++) {
		const Slot *sl = &to->slot[j];
		for (unsigned m = 0; sl->v && m < sl->n; m++) {
			uint32_t v = sl->v[m];
			if (!v || v >= f->nval)
				continue;
			Val *x = &f->val[v];
			if (sl->kind == SDef) {
				if (x->def == from)
					x->def = to;
				continue;
			}
			for (uint32_t u = 0; u < x->nuse; u++)
				if (!x->use[u].isphi && x->use[u].ins == from)
					x->use[u].ins = to;
		}
	}
}

/* make room for n instructions in b's own array (copied from its slice the first time) */
static void
own(Fn *f, Edit *e, Blk *b, uint32_t n)
{
	Ins *old = b->ins, *a;

	if (e->own[b->id] && e->cap[b->id] >= n)
		return;
	e->cap[b->id] = n < 8 ? 8 : 2 * n;
	a = arena_alloc(f->mod->arena, e->cap[b->id] * sizeof *a);
	if (b->nins)
		memcpy(a, old, b->nins * sizeof *a);
	for (uint32_t k = 0; k < b->nins; k++)
		moved(f, &old[k], &a[k]);
	b->ins = e->own[b->id] = a;
}

/* the function has slots (op_slots has run on it): new instructions need them too */
static int
has_slots(const Fn *f)
{
	if (f->in_ssa)
		return 1;
	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->nins)
			return f->blk[b]->ins[0].slot != NULL || f->blk[b]->ins[0].nslot;
	return 0;
}

/* a copy of proto in the arena, with slots (and, in SSA form, a new value per definition) */
static int
make_ins(Fn *f, Ins *i, const Ins *proto)
{
	*i = *proto;
	i->mod = NULL;
	if (proto->nmod) {
		i->mod = arena_alloc(f->mod->arena, proto->nmod * sizeof *i->mod);
		memcpy(i->mod, proto->mod, proto->nmod * sizeof *i->mod);
	}
	i->opnd = arena_alloc(f->mod->arena, (proto->nopnd + 1) * sizeof *i->opnd);
	if (proto->nopnd)
		memcpy(i->opnd, proto->opnd, proto->nopnd * sizeof *i->opnd);
	i->slot = NULL;
	i->nslot = 0;
	i->label = 0;
	i->flags &= (uint8_t)~IExtraLabel;
	if (!has_slots(f))
		return 0;
	if (op_slots(f, i) < 0)
		return -1;
	for (unsigned j = 0; j < i->nslot; j++) {
		Slot *sl = &i->slot[j];
		if (!sl->v)
			sl->v = arena_alloc(f->mod->arena, (sl->n ? sl->n : 1) * sizeof *sl->v);
		for (unsigned m = 0; f->in_ssa && sl->kind == SDef && m < sl->n; m++)
			sl->v[m] = ins_newdef(f, i, j, m);
	}
	return 0;
}

uint32_t
ins_newdef(Fn *f, Ins *i, unsigned slot, unsigned m)
{
	Reg r = reg_next(i->slot[slot].reg, m);
	uint32_t ver = 0, v;

	if (reg_unit(r) < 0)
		return 0;
	for (uint32_t k = 1; k < f->nval; k++)
		if (f->val[k].reg == r && f->val[k].ver >= ver)
			ver = f->val[k].ver + 1;
	v = fn_newval(f, r, ver);
	f->val[v].def = i;
	i->slot[slot].v[m] = v;
	return v;
}

/* the use (i, slot, m) leaves the list of value v */
static void
use_drop(Fn *f, uint32_t v, const Ins *i, unsigned slot, unsigned m)
{
	Val *x;

	if (!v || v >= f->nval)
		return;
	x = &f->val[v];
	for (uint32_t u = 0; u < x->nuse; u++)
		if (!x->use[u].isphi && x->use[u].ins == i && x->use[u].slot == slot &&
		    x->use[u].idx == m) {
			x->use[u] = x->use[--x->nuse];
			return;
		}
}

static void
use_add(Fn *f, uint32_t v, Ins *i, unsigned slot, unsigned m)
{
	Val *x;

	if (!v || v >= f->nval)
		return;
	x = &f->val[v];
	if (x->nuse == x->cuse) {
		/* use arrays are slices of one pool (defuse.c): a longer one goes to the arena */
		uint32_t c = x->cuse ? 2 * x->cuse : 4;
		Use *a = arena_alloc(f->mod->arena, c * sizeof *a);
		if (x->nuse)
			memcpy(a, x->use, x->nuse * sizeof *a);
		x->use = a;
		x->cuse = c;
	}
	x->use[x->nuse++] = (Use){.ins = i, .slot = (uint16_t)slot, .idx = (uint16_t)m};
}

void
ins_setuse(Fn *f, Ins *i, unsigned slot, unsigned m, uint32_t v)
{
	Slot *sl = &i->slot[slot];

	use_drop(f, sl->v[m], i, slot, m);
	sl->v[m] = v;
	use_add(f, v, i, slot, m);
}

/* every use by i leaves the def-use chains */
static void
drop_uses(Fn *f, Ins *i)
{
	for (unsigned j = 0; j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].v && i->slot[j].kind != SDef && m < i->slot[j].n; m++)
			use_drop(f, i->slot[j].v[m], i, j, m);
}

static void
add_uses(Fn *f, Ins *i)
{
	for (unsigned j = 0; j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].v && i->slot[j].kind != SDef && m < i->slot[j].n; m++)
			use_add(f, i->slot[j].v[m], i, j, m);
}

Ins *
ins_insert(Fn *f, Blk *b, uint32_t at, const Ins *proto)
{
	Edit *e;
	Ins tmp;

	if (!f->blk || at > b->nins)
		return NULL;
	if (make_ins(f, &tmp, proto) < 0)
		return NULL;
	tmp.flags |= IInserted;
	e = edit_begin(f);
	own(f, e, b, b->nins + 1);
	for (uint32_t k = b->nins; k > at; k--) {
		b->ins[k] = b->ins[k - 1];
		moved(f, &b->ins[k - 1], &b->ins[k]);
	}
	b->ins[at] = tmp;
	b->nins++;
	for (unsigned j = 0; j < tmp.nslot; j++)
		for (unsigned m = 0; tmp.slot[j].kind == SDef && tmp.slot[j].v && m < tmp.slot[j].n; m++)
			if (tmp.slot[j].v[m])
				f->val[tmp.slot[j].v[m]].def = &b->ins[at], f->val[tmp.slot[j].v[m]].blk = b;
	if (at == 0 && b->nins > 1) {
		/* the labels of the block's start name the new first instruction */
		Ins *old = &b->ins[1];
		b->ins[0].label = old->label;
		b->ins[0].flags |= old->flags & IExtraLabel;
		old->label = 0;
		old->flags &= (uint8_t)~IExtraLabel;
	}
	for (int kind = 0; kind < NPinKind; kind++)
		for (uint32_t k = 0; k < e->npin[kind]; k++) {
			Pin *p = &e->pin[kind][k];
			if (p->blk == b->id && p->pos != UINT32_MAX &&
			    (p->pos > at || (p->pos == at && (kind == PinIdent || at > 0))))
				p->pos++;
		}
	return &b->ins[at];
}

int
ins_delete(Fn *f, Blk *b, uint32_t at)
{
	Edit *e;
	Ins *i;

	if (!f->blk || at >= b->nins)
		return -1;
	i = &b->ins[at];
	for (unsigned j = 0; f->in_ssa && j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].kind == SDef && i->slot[j].v && m < i->slot[j].n; m++) {
			uint32_t v = i->slot[j].v[m];
			if (v && v < f->nval && f->val[v].nuse)
				return -1;   /* a value it defines is still read */
		}
	e = edit_begin(f);
	own(f, e, b, b->nins);
	i = &b->ins[at];
	drop_uses(f, i);
	for (unsigned j = 0; f->in_ssa && j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].kind == SDef && i->slot[j].v && m < i->slot[j].n; m++)
			if (i->slot[j].v[m] && i->slot[j].v[m] < f->nval)
				f->val[i->slot[j].v[m]].def = NULL;
	if (i->label) {
		/* its label goes to the next instruction, or stays as an extra label at the position */
		if (at + 1 < b->nins && !b->ins[at + 1].label)
			b->ins[at + 1].label = i->label;
		else
			pin_add(e, PinXlabel, (Pin){.blk = b->id, .pos = at, .atom = i->label});
	}
	for (uint32_t k = at; k + 1 < b->nins; k++) {
		b->ins[k] = b->ins[k + 1];
		moved(f, &b->ins[k + 1], &b->ins[k]);
	}
	b->nins--;
	for (int kind = 0; kind < NPinKind; kind++)
		for (uint32_t k = 0; k < e->npin[kind]; k++) {
			Pin *p = &e->pin[kind][k];
			if (p->blk != b->id || p->pos == UINT32_MAX || p->pos < at)
				continue;
			if (p->pos > at)
				p->pos--;
			else if (kind == PinIdent)
				p->pos = UINT32_MAX;   /* the instruction it named is gone */
		}
	return 0;
}

/* b rebuilt in one go, as the ins_insert and ins_delete calls it stands for would leave it, in
 * time linear in the block and the pins (a register allocator inserts spill code and deletes
 * coalesced copies by the thousand: one call per instruction would be quadratic). Before old
 * instruction k (k = 0..nins, nins: the end) go nadd[k] copies of add[k][0..), inserted as
 * ins_insert inserts them; old instruction k goes where drop[k]. Labels and pins move as with
 * those calls: what is inserted at the block's start takes its labels, elsewhere a label stays
 * with its instruction; a dropped instruction's label goes to the next one. */
int
ins_splice(Fn *f, Blk *b, Ins *const *add, const uint32_t *nadd, const uint8_t *drop)
{
	uint32_t old = b->nins, n = 0, j = 0, *at, *first;
	Ins *a, *src = b->ins;
	Edit *e;

	if (!f->blk)
		return -1;
	for (uint32_t k = 0; k <= old; k++) {
		n += nadd ? nadd[k] : 0;
		n += k < old && !(drop && drop[k]);
	}
	for (uint32_t k = 0; drop && k < old; k++) {
		const Ins *i = &src[k];
		for (unsigned q = 0; drop[k] && f->in_ssa && q < i->nslot; q++)
			for (unsigned m = 0; i->slot[q].kind == SDef && i->slot[q].v && m < i->slot[q].n; m++) {
				uint32_t v = i->slot[q].v[m];
				if (v && v < f->nval && f->val[v].nuse)
					return -1;   /* a value it defines is still read */
			}
	}
	e = edit_begin(f);
	a = arena_alloc(f->mod->arena, (n + 1) * sizeof *a);
	at = xmalloc((old + 1) * sizeof *at);     /* new index of old k (dropped: what follows) */
	first = xmalloc((old + 1) * sizeof *first); /* new index of the first insert before k */
	for (uint32_t k = 0; k <= old; k++) {
		first[k] = j;
		for (uint32_t q = 0; nadd && q < nadd[k]; q++) {
			if (make_ins(f, &a[j], &add[k][q]) < 0) {
				free(at);
				free(first);
				return -1;   /* nothing is linked yet: the arena keeps the copies */
			}
			a[j].flags |= IInserted;
			j++;
		}
		at[k] = j;
		if (k < old && !(drop && drop[k])) {
			a[j] = src[k];
			moved(f, &src[k], &a[j]);
			j++;
		}
	}
	for (uint32_t k = 0; k < old; k++) {
		if (!(drop && drop[k]))
			continue;
		drop_uses(f, &src[k]);
		for (unsigned q = 0; f->in_ssa && q < src[k].nslot; q++)
			for (unsigned m = 0; src[k].slot[q].kind == SDef && src[k].slot[q].v &&
			     m < src[k].slot[q].n; m++)
				if (src[k].slot[q].v[m] && src[k].slot[q].v[m] < f->nval)
					f->val[src[k].slot[q].v[m]].def = NULL;
	}
	for (uint32_t q = 0; q < n; q++)
		for (unsigned s = 0; f->in_ssa && (a[q].flags & IInserted) && s < a[q].nslot; s++)
			for (unsigned m = 0; a[q].slot[s].kind == SDef && a[q].slot[s].v && m < a[q].slot[s].n; m++)
				if (a[q].slot[s].v[m])
					f->val[a[q].slot[s].v[m]].def = &a[q];
	/* the labels of the block's start name what is inserted there */
	if (nadd && nadd[0] && n > nadd[0] && old && !(drop && drop[0])) {
		a[0].label = a[at[0]].label;
		a[0].flags |= a[at[0]].flags & IExtraLabel;
		a[at[0]].label = 0;
		a[at[0]].flags &= (uint8_t)~IExtraLabel;
	}
	for (uint32_t k = 0; k < old; k++) {
		uint32_t to = at[k];
		if (!(drop && drop[k]) || !src[k].label)
			continue;
		/* a dropped instruction's label: to the next instruction, or an extra label there */
		if (k == 0 && nadd && nadd[0])
			to = first[0];
		if (to < n && !a[to].label)
			a[to].label = src[k].label;
		else
			pin_add(e, PinXlabel, (Pin){.blk = b->id, .pos = to, .atom = src[k].label});
	}
	for (int kind = 0; kind < NPinKind; kind++)
		for (uint32_t q = 0; q < e->npin[kind]; q++) {
			Pin *p = &e->pin[kind][q];
			if (p->blk != b->id || p->pos == UINT32_MAX)
				continue;
			if (p->pos >= old)
				p->pos = p->pos == old ? n : p->pos;
			else if (kind == PinIdent)
				p->pos = drop && drop[p->pos] ? UINT32_MAX : at[p->pos];
			else if (p->pos > 0 || !(nadd && nadd[0]))
				p->pos = at[p->pos];
			/* else: at the block's start, before what is inserted there */
		}
	free(at);
	free(first);
	e->own[b->id] = a;
	e->cap[b->id] = n + 1;
	b->ins = a;
	b->nins = n;
	return 0;
}

/* the positions of b that something pins by index: xlabels and directives (Fn.xlabel and
 * Item.off while b is a slice of Fn.ins, the edit's pins during an edit), NULL if none */
static uint8_t *
pinned_positions(const Fn *f, const Blk *b)
{
	const Edit *e = f->edit;
	uint8_t *at = NULL;
	uint32_t base;

	if (e && e->active) {
		for (int kind = 0; kind < NPinKind; kind++)
			for (uint32_t k = 0; k < e->npin[kind]; k++) {
				const Pin *p = &e->pin[kind][k];
				if (p->blk != b->id || p->pos >= b->nins)
					continue;
				if (!at)
					at = xmalloc(b->nins);
				at[p->pos] = 1;
			}
		return at;
	}
	if (!b->ins || b->ins < f->ins || b->ins >= f->ins + f->nins)
		return NULL;
	base = (uint32_t)(b->ins - f->ins);
	for (uint32_t k = 0; k < f->nxlabel + (f->text ? f->text->nitem : 0); k++) {
		int64_t x = k < f->nxlabel ? (int64_t)f->xlabel[2 * k]
		                           : f->text->item[k - f->nxlabel].off;
		if (x < base || x >= (int64_t)base + b->nins)
			continue;
		if (!at)
			at = xmalloc(b->nins);
		at[x - base] = 1;
	}
	return at;
}

/* b's instructions in a new order: the instruction at position p is the one that was at
 * order[p]. In place, in b's own array or its slice of Fn.ins: the block keeps its length, so
 * Fn.ins stays laid out and this is no edit (fn_edited does not change, relayout has nothing to
 * do). Addresses stay with the positions, as relayout would give them. Pinned positions (a
 * label, an extra label or a directive there) must keep their instruction. Returns the number
 * of instructions that moved; -1, with nothing changed, when order is not a permutation of
 * 0..nins-1 or moves a pinned instruction. */
int
ins_permute(Fn *f, Blk *b, const uint32_t *order)
{
	uint32_t n = b->nins, moves = 0;
	uint8_t *seen, *atpin;
	Ins *a = b->ins, *t;

	if (!n)
		return 0;
	seen = xmalloc(n);
	atpin = pinned_positions(f, b);
	for (uint32_t p = 0; p < n; p++) {
		uint32_t q = order[p];
		int pinned = a[p].label || (a[p].flags & IExtraLabel) || (atpin && atpin[p]);
		if (q >= n || seen[q] || (q != p && pinned)) {
			free(seen);
			free(atpin);
			return -1;
		}
		seen[q] = 1;
	}
	free(seen);
	free(atpin);
	t = xrealloc(NULL, n * sizeof *t);   /* every entry is written: no need to clear it */
	for (uint32_t p = 0; p < n; p++) {
		t[p] = a[order[p]];
		t[p].addr = a[p].addr;
		moves += order[p] != p;
		moved(f, &a[order[p]], &t[p]);
	}
	memcpy(a, t, n * sizeof *a);
	for (uint32_t p = 0; p < n; p++)
		moved(f, &t[p], &a[p]);
	free(t);
	return (int)moves;
}

Ins *
ins_replace(Fn *f, Blk *b, uint32_t at, const Ins *proto)
{
	Ins tmp, *i;

	if (!f->blk || at >= b->nins)
		return NULL;
	if (make_ins(f, &tmp, proto) < 0)
		return NULL;
	own(f, edit_begin(f), b, b->nins);
	i = &b->ins[at];
	/* a value of the old instruction that is still read is defined by the new one in a slot
	 * of the same register; the new instruction's own fresh value for it is dropped */
	for (unsigned j = 0; f->in_ssa && j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].kind == SDef && i->slot[j].v && m < i->slot[j].n; m++) {
			uint32_t v = i->slot[j].v[m];
			int done = 0;
			if (!v || v >= f->nval)
				continue;
			f->val[v].def = NULL;
			if (!f->val[v].nuse)
				continue;
			for (unsigned jj = 0; !done && jj < tmp.nslot; jj++)
				for (unsigned mm = 0; !done && tmp.slot[jj].kind == SDef && mm < tmp.slot[jj].n; mm++)
					if (reg_next(tmp.slot[jj].reg, mm) == f->val[v].reg) {
						uint32_t fresh = tmp.slot[jj].v[mm];
						if (fresh && fresh < f->nval)
							f->val[fresh].def = NULL;
						tmp.slot[jj].v[mm] = v;
						done = 1;
					}
			if (!done) {
				f->val[v].def = i;
				return NULL;  /* nothing defines a value that is still read */
			}
		}
	drop_uses(f, i);
	tmp.label = i->label;
	tmp.flags = (uint8_t)((tmp.flags & ~IExtraLabel) | (i->flags & IExtraLabel));
	tmp.addr = i->addr;
	*i = tmp;
	for (unsigned j = 0; j < i->nslot; j++)
		for (unsigned m = 0; i->slot[j].kind == SDef && i->slot[j].v && m < i->slot[j].n; m++)
			if (i->slot[j].v[m] && i->slot[j].v[m] < f->nval)
				f->val[i->slot[j].v[m]].def = i, f->val[i->slot[j].v[m]].blk = b;
	add_uses(f, i);
	return i;
}

int
fn_edited(const Fn *f)
{
	return f->edit != NULL;
}

uint32_t
fn_renames(const Fn *f, const uint32_t **pairs)
{
	*pairs = f->edit ? f->edit->ren : NULL;
	return f->edit ? f->edit->nren : 0;
}

static void
lset_add(Module *e, uint32_t a)
{
	if (2 * (e->lcount + 1) > e->lcap) {
		uint32_t oc = e->lcap, *old = e->lset;
		e->lcap = oc ? 2 * oc : 1024;
		e->lset = xmalloc(e->lcap * sizeof *e->lset);
		e->lcount = 0;
		for (uint32_t k = 0; k < oc; k++)
			if (old[k])
				lset_add(e, old[k]);
		free(old);
	}
	uint32_t h = (a * 2654435761u) & (e->lcap - 1);
	while (e->lset[h] && e->lset[h] != a)
		h = (h + 1) & (e->lcap - 1);
	if (!e->lset[h]) {
		e->lset[h] = a;
		e->lcount++;
	}
}

static int
lset_has(const Module *e, uint32_t a)
{
	uint32_t h = (a * 2654435761u) & (e->lcap - 1);

	while (e->lset[h]) {
		if (e->lset[h] == a)
			return 1;
		h = (h + 1) & (e->lcap - 1);
	}
	return 0;
}

/* every label of the module (labels are the listing's, not a function's) into its set; the
 * blocks of a function are read when it has them: they are current during edits. The set is
 * the module's, so that the edits of two functions never make the same name */
static void
lset_build(Module *e, const Module *m)
{
	lset_add(e, UINT32_MAX);   /* makes the table */
	for (uint32_t n = 0; n < m->nfn; n++) {
		const Fn *f = m->fn[n];
		if (f->endlabel)
			lset_add(e, f->endlabel);
		lset_add(e, f->name);
		if (f->blk) {
			for (uint32_t b = 0; b < f->nblk; b++)
				for (uint32_t k = 0; k < f->blk[b]->nins; k++)
					if (f->blk[b]->ins[k].label)
						lset_add(e, f->blk[b]->ins[k].label);
		} else {
			for (uint32_t k = 0; k < f->nins; k++)
				if (f->ins[k].label)
					lset_add(e, f->ins[k].label);
		}
		for (uint32_t k = 0; k < f->nxlabel; k++)
			lset_add(e, f->xlabel[2 * k + 1]);
	}
	for (uint32_t n = 0; n < m->nsec; n++)
		for (uint32_t k = 0; k < m->sec[n]->nitem; k++)
			if (m->sec[n]->item[k].kind == ILabel)
				lset_add(e, m->sec[n]->item[k].name);
}

/* a label name no one uses */
static uint32_t
fresh_label(Fn *f, Edit *e)
{
	char buf[48];
	uint32_t a;

	if (!f->mod->lset)
		lset_build(f->mod, f->mod);
	do
		snprintf(buf, sizeof buf, ".L_x_e%u", e->nlabel++);
	while (lset_has(f->mod, a = mintern(f->mod, buf)));
	lset_add(f->mod, a);
	return a;
}

/* a fresh label at instruction k: its primary label if it has none, else an extra one */
static uint32_t
new_label(Fn *f, Edit *e, uint32_t k)
{
	uint32_t a = fresh_label(f, e);

	if (!f->ins[k].label) {
		f->ins[k].label = a;
		return a;
	}
	f->xlabel = xrealloc(f->xlabel, (f->nxlabel + 1) * 2 * sizeof *f->xlabel);
	f->xlabel[2 * f->nxlabel] = k;
	f->xlabel[2 * f->nxlabel + 1] = a;
	f->nxlabel++;
	f->ins[k].flags |= IExtraLabel;
	return a;
}

static void
rename_add(Edit *e, uint32_t from, uint32_t to)
{
	vgrow(&e->ren, &e->cren, 2 * (e->nren + 1), sizeof *e->ren);
	e->ren[2 * e->nren] = from;
	e->ren[2 * e->nren + 1] = to;
	e->nren++;
}

/* nvcc's internal calls, `MOV R2, 0x1a0 ; CALL.REL.NOINC `(sub)` ... `RET.REL.NODEC R2`: the
 * register holds the address of the return point, the instruction after the CALL, which moves
 * when instructions are inserted or deleted before it (ctrl-bits' NOPs): the immediate (and the
 * encoding word's) follows it to now */
static void
retaddr_move(Blk *x, int64_t now)
{
	const Ins *call;
	int64_t was;

	if (!x->nins)
		return;
	call = &x->ins[x->nins - 1];
	if (call->op != OCALL || call->addr < 0 || (was = call->addr + 16) == now)
		return;
	for (uint32_t k = 0; k + 1 < x->nins; k++) {
		Ins *i = &x->ins[k];
		Opnd *o = i->nopnd ? &i->opnd[i->nopnd - 1] : NULL;
		if (!o || o->kind != OImm || o->imm != was ||
		    !(i->op == OMOV || i->op == OMOV32I ||
		      (i->op == OIMAD && i->nopnd == 4 && i->opnd[1].r[0] == REG(RR, RegRZ) &&
		       i->opnd[2].r[0] == REG(RR, RegRZ))))
			continue;
		o->imm = now;
		if (i->nenc && GET_OPCODE(i->enc[0]))   /* nvcc's word; ctrl-bits' has no opcode */
			SET_IMM32(i->enc[0], (uint32_t)now);
	}
}

int
fn_relayout(Fn *f)
{
	Edit *e = f->edit;
	uint32_t n = 0, *base;
	Ins *a;

	if (!e || !e->active)
		return 0;
	base = xmalloc((f->nblk + 1) * sizeof *base);
	for (uint32_t b = 0; b < f->nblk; b++) {
		base[b] = n;
		n += f->blk[b]->nins;
	}
	base[f->nblk] = n;
	a = xmalloc((n + 1) * sizeof *a);
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		retaddr_move(x, 16 * (int64_t)(base[b] + x->nins));
		if (x->nins)
			memcpy(a + base[b], x->ins, x->nins * sizeof *a);
		for (uint32_t k = 0; k < x->nins; k++) {
			moved(f, &x->ins[k], &a[base[b] + k]);
			a[base[b] + k].flags &= (uint8_t)~IExtraLabel;
			a[base[b] + k].addr = 16 * (int64_t)(base[b] + k);
		}
		x->ins = a + base[b];
		e->own[b] = NULL;
	}
	free(f->ins);
	f->ins = a;
	f->nins = n;
	/* extra labels and directives at their new indices */
	f->xlabel = xrealloc(f->xlabel, (e->npin[PinXlabel] + 1) * 2 * sizeof *f->xlabel);
	f->nxlabel = 0;
	for (uint32_t k = 0; k < e->npin[PinXlabel]; k++) {
		const Pin *p = &e->pin[PinXlabel][k];
		uint32_t at = base[p->blk] + p->pos;
		if (at < n && !f->ins[at].label) {
			f->ins[at].label = p->atom;  /* the only label left there */
			continue;
		}
		if (at >= n && !f->endlabel) {
			f->endlabel = p->atom;
			continue;
		}
		f->xlabel[2 * f->nxlabel] = at;
		f->xlabel[2 * f->nxlabel + 1] = p->atom;
		f->nxlabel++;
		if (at < n)
			f->ins[at].flags |= IExtraLabel;
	}
	for (uint32_t k = 0; k < e->npin[PinItem]; k++) {
		const Pin *p = &e->pin[PinItem][k];
		f->text->item[p->item].off = (int32_t)(base[p->blk] + p->pos);
	}
	/* a label that no longer names the instruction it named: a new label for the instruction */
	uint32_t *lmap = NULL, lcap = 0;  /* label atom -> index + 1 pairs, made when first needed */
	for (uint32_t k = 0; k < e->npin[PinIdent]; k++) {
		const Pin *p = &e->pin[PinIdent][k];
		if (p->pos == UINT32_MAX) {
			rename_add(e, p->atom, 0);
			continue;
		}
		uint32_t at = base[p->blk] + p->pos;
		/* labels are unique: still on its instruction is the common case, O(1) */
		if (at < n && f->ins[at].label == p->atom)
			continue;
		if (!lmap) {
			lcap = 64;
			while (lcap < 4 * (n + f->nxlabel + 1))
				lcap *= 2;
			lmap = xmalloc(2 * lcap * sizeof *lmap);
			for (uint32_t j = 0; j < n + f->nxlabel; j++) {
				uint32_t la = j < n ? f->ins[j].label : f->xlabel[2 * (j - n) + 1];
				uint32_t idx = j < n ? j : f->xlabel[2 * (j - n)];
				if (!la)
					continue;
				uint32_t h = (la * 2654435761u) & (lcap - 1);
				while (lmap[2 * h] && lmap[2 * h] != la)
					h = (h + 1) & (lcap - 1);
				if (!lmap[2 * h]) {   /* the first: an instruction's label before an extra one */
					lmap[2 * h] = la;
					lmap[2 * h + 1] = idx + 1;
				}
			}
		}
		int64_t was = -1;
		uint32_t h = (p->atom * 2654435761u) & (lcap - 1);
		while (lmap[2 * h]) {
			if (lmap[2 * h] == p->atom) {
				was = (int64_t)lmap[2 * h + 1] - 1;
				break;
			}
			h = (h + 1) & (lcap - 1);
		}
		if (was != (int64_t)at)
			rename_add(e, p->atom, new_label(f, e, at));
	}
	free(lmap);
	free(base);
	e->active = 0;
	return 1;
}

void
edit_free(Fn *f)
{
	Edit *e = f->edit;

	if (!e)
		return;
	for (int kind = 0; kind < NPinKind; kind++)
		free(e->pin[kind]);
	free(e->own);
	free(e->cap);
	free(e->ren);
	free(e);
	f->edit = NULL;
}

uint32_t
ins_label(Fn *f, Blk *b, uint32_t at)
{
	Edit *e;

	if (at >= b->nins)
		return 0;
	if (b->ins[at].label)
		return b->ins[at].label;
	e = edit_begin(f);
	own(f, e, b, b->nins);
	b->ins[at].label = fresh_label(f, e);
	return b->ins[at].label;
}
