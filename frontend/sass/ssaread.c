/* ssaread.c: the SSA form written in IR text, made real. After cfg_build, dom_build and op_slots,
 * sass_apply_ssa turns the annotations the parser kept (SsaNotes) into values: one Val per
 * (register unit, version), every Slot.v filled, phis built with their arguments in the block's
 * predecessor order. Version 0 of a register is its value on entry. Errors (a version defined
 * twice or used but never defined, an annotation whose count does not match the slot width, a
 * phi naming a block that is not a predecessor) are reported with error_at.
 *
 * Memory follows ssa.c: values in f->val, slot arrays from the module arena, the phis and their
 * arguments in one malloc whose base is f->val[0].phi (released by ssa_release / cfg_free).
 */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>


SsaNotes *
sass_notes(const Fn *f)
{
	return f->fe;
}

/* (register unit, version) -> value id, open addressing */
typedef struct VMap {
	uint64_t *key;     /* reg << 32 | ver, + 1 so that 0 is empty */
	uint32_t *val;     /* value ids */
	uint32_t n;        /* slots, a power of two */
	uint32_t used;     /* keys stored */
} VMap;

static uint32_t
vm_hash(uint64_t key, uint32_t n)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & (n - 1);
}

/* twice the slots (an annotation may hold up to 255 versions: the table cannot be sized from
 * the number of annotations) */
static void
vm_grow(VMap *t)
{
	uint64_t *key = t->key;
	uint32_t *val = t->val, n = t->n;

	t->n *= 2;
	t->key = xmalloc(t->n * sizeof *t->key);
	t->val = xmalloc(t->n * sizeof *t->val);
	for (uint32_t j = 0; j < n; j++)
		if (key[j]) {
			uint32_t k = vm_hash(key[j], t->n);
			while (t->key[k])
				k = (k + 1) & (t->n - 1);
			t->key[k] = key[j];
			t->val[k] = val[j];
		}
	free(key);
	free(val);
}

static uint32_t *
vm_slot(VMap *t, Reg r, uint32_t ver, int *found)
{
	uint64_t key = ((uint64_t)r << 32 | ver) + 1;
	uint32_t k;

	if (2 * (t->used + 1) > t->n)
		vm_grow(t);
	k = vm_hash(key, t->n);
	while (t->key[k] && t->key[k] != key)
		k = (k + 1) & (t->n - 1);
	*found = t->key[k] != 0;
	if (!*found) {
		t->key[k] = key;
		t->used++;
	}
	return &t->val[k];
}

static void
vm_init(VMap *t, uint32_t expect)
{
	t->n = 64;
	while (t->n < expect * 2)
		t->n *= 2;
	t->key = xmalloc(t->n * sizeof *t->key);
	t->val = xmalloc(t->n * sizeof *t->val);
	t->used = 0;
}

typedef struct R {
	Fn *f;             /* function */
	Diag *d;           /* diagnostics */
	VMap map;          /* values by register and version */
	Blk **blkof;       /* block of each instruction */
	int err;           /* an error was reported */
} R;

/* define (r, ver); returns its value, 0 after reporting a second definition */
static uint32_t
define(R *x, Reg r, uint32_t ver, Ins *def, Phi *phi, Blk *b, Loc loc)
{
	int found;
	uint32_t *slot = vm_slot(&x->map, r, ver, &found), v;
	char name[16];

	if (found) {
		reg_name(r, name, sizeof name);
		error_at(x->d, loc, "%s<%u> is defined more than once", name, ver);
		x->err = 1;
		return 0;
	}
	v = fn_newval(x->f, r, ver);
	x->f->val[v].def = def;
	x->f->val[v].phi = phi;
	x->f->val[v].blk = b;
	*slot = v;
	return v;
}

/* the value used as (r, ver): version 0 is the value on entry, made on first use */
static uint32_t
use(R *x, Reg r, uint32_t ver, Loc loc)
{
	int found;
	uint32_t *slot = vm_slot(&x->map, r, ver, &found), v;
	char name[16];

	if (found)
		return *slot;
	if (ver != 0) {
		reg_name(r, name, sizeof name);
		error_at(x->d, loc, "%s<%u> is used but never defined", name, ver);
		x->err = 1;
		*slot = 0;
		return 0;
	}
	v = fn_newval(x->f, r, 0);
	x->f->val[v].blk = x->f->rpo && x->f->nrpo ? x->f->rpo[0] : x->f->blk[0];
	*slot = v;
	return v;
}

/* a use of an operand's register that the instruction also writes (`BREAK B1`): written as the
 * pseudo-operand use(), the operand's own annotation being the definition (as fmt.c prints it) */
static int
shadowed(const Ins *i, const Slot *sl)
{
	if (sl->kind != SUse || sl->field >= SlotImplicit)
		return 0;
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SDef && i->slot[s].opnd == sl->opnd &&
		    i->slot[s].field == sl->field)
			return 1;
	return 0;
}

/* the annotation kind a slot is written with: an operand's register, or a pseudo-operand */
static int
kind_of(const Ins *i, const Slot *sl)
{
	if (sl->kind == SOld)
		return AnnOld;
	if (sl->field >= SlotImplicit)
		return sl->kind == SDef ? AnnDef : AnnUse;
	return shadowed(i, sl) ? AnnUse : AnnOpnd;
}

/* the slot an annotation belongs to: by operand and field, or the k-th pseudo-operand slot */
static Slot *
slot_of(Ins *i, const SsaAnn *a, unsigned k)
{
	unsigned n = 0;

	for (unsigned s = 0; s < i->nslot; s++) {
		Slot *sl = &i->slot[s];
		if (kind_of(i, sl) != a->kind)
			continue;
		if (a->kind == AnnOpnd ? (sl->opnd == a->opnd && sl->field == a->field) : n++ == k)
			return sl;
	}
	return NULL;
}

static const SsaAnn *
ann_of(const Ins *i, const SsaAnn *a, uint32_t na, const Slot *sl, unsigned k)
{
	int kind = kind_of(i, sl);
	unsigned n = 0;

	for (uint32_t j = 0; j < na; j++) {
		if (a[j].kind != kind)
			continue;
		if (kind == AnnOpnd ? (a[j].opnd == sl->opnd && a[j].field == sl->field) : n++ == k)
			return &a[j];
	}
	return NULL;
}

/* instruction k is in a block that nothing reaches: ssa_build gives it no values (they print
 * as version 0), so its annotations are checked but define and read nothing */
static int
unreachable(const R *x, uint32_t k)
{
	return x->blkof[k] && x->blkof[k]->rpo == UINT32_MAX;
}

/* check the annotations of instruction k (a[0..na)) against its slots, and define its values */
static void
ins_defs(R *x, uint32_t k, const SsaAnn *a, uint32_t na)
{
	Ins *i = &x->f->ins[k];
	unsigned nk[4] = { 0, 0, 0, 0 }, ns[4] = { 0, 0, 0, 0 };
	char name[16];

	for (uint32_t j = 0; j < na; j++) {
		const Slot *sl = slot_of(i, &a[j], nk[a[j].kind]++);
		reg_name(a[j].reg, name, sizeof name);
		if (!sl) {
			error_at(x->d, a[j].loc, a[j].kind == AnnOpnd ? "'%s' does not read or write %s here"
			         : a[j].kind == AnnOld ? "'%s' has no conditional definition to read old(%s)"
			         : "'%s' has no such implicit register: %s",
			         mstr(x->f->mod, i->name), name);
			x->err = 1;
		} else if (sl->reg != a[j].reg || sl->n != a[j].n) {
			error_at(x->d, a[j].loc, "%s covers %u register%s here, the annotation has %u version%s",
			         name, sl->n, sl->n == 1 ? "" : "s", a[j].n, a[j].n == 1 ? "" : "s");
			x->err = 1;
		}
	}
	for (unsigned s = 0; s < i->nslot; s++) {
		Slot *sl = &i->slot[s];
		const SsaAnn *an = ann_of(i, a, na, sl, ns[kind_of(i, sl)]++);
		if (!sl->v)
			sl->v = arena_alloc(x->f->mod->arena, (sl->n ? sl->n : 1) * sizeof *sl->v);
		if (reg_isconst(sl->reg) || RCLS(sl->reg) == RNone)
			continue;
		if (!an) {
			int kd = kind_of(i, sl);
			reg_name(sl->reg, name, sizeof name);
			error_at(x->d, i->loc, "%s%s%s of '%s' has no SSA version (e.g. %s%s<1>%s)",
			         kd == AnnOld ? "the old value of " : kd == AnnOpnd ? "" :
			         shadowed(i, sl) ? "the value read of " : "the implicit ", name, "",
			         mstr(x->f->mod, i->name), kd == AnnOld ? "old(" : kd == AnnDef ? "def(" :
			         kd == AnnUse ? "use(" : "", name, kd == AnnOpnd ? "" : ")");
			x->err = 1;
			continue;
		}
		if (sl->kind != SDef || an->n != sl->n || an->reg != sl->reg || unreachable(x, k))
			continue;
		for (unsigned u = 0; u < sl->n; u++) {
			Reg r = REG(RCLS(sl->reg), RNUM(sl->reg) + u);
			sl->v[u] = define(x, r, an->ver[u], i, NULL, x->blkof[k], an->loc);
		}
	}
}

static void
ins_uses(R *x, uint32_t k, const SsaAnn *a, uint32_t na)
{
	Ins *i = &x->f->ins[k];
	unsigned ns[4] = { 0, 0, 0, 0 };

	for (unsigned s = 0; s < i->nslot; s++) {
		Slot *sl = &i->slot[s];
		const SsaAnn *an = ann_of(i, a, na, sl, ns[kind_of(i, sl)]++);
		if (sl->kind == SDef || !an || an->n != sl->n || an->reg != sl->reg || unreachable(x, k))
			continue;
		for (unsigned u = 0; u < sl->n; u++)
			sl->v[u] = use(x, REG(RCLS(sl->reg), RNUM(sl->reg) + u), an->ver[u], an->loc);
	}
}

/* the non-empty block that starts at instruction k, or NULL */
static Blk *
block_at(const Fn *f, uint32_t k)
{
	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->nins && (uint32_t)(f->blk[b]->ins - f->ins) == k)
			return f->blk[b];
	return NULL;
}

static void
make_phis(R *x, const SsaNotes *n)
{
	Fn *f = x->f;
	size_t nargs = 0;
	Phi *pool, ***tail;
	uint32_t *args;
	Blk **at;

	if (!n->nphi)
		return;
	at = xmalloc(n->nphi * sizeof *at);
	for (uint32_t k = 0; k < n->nphi; k++) {
		const SsaPhiText *p = &n->phi[k];
		at[k] = block_at(f, p->before);
		if (!at[k]) {
			error_at(x->d, p->loc, "a phi must stand before the first instruction of a block");
			x->err = 1;
			continue;
		}
		nargs += at[k]->npred;
	}
	pool = xmalloc(n->nphi * sizeof *pool + nargs * sizeof *args + 1);
	args = (uint32_t *)(pool + n->nphi);
	vgrow(&f->val, &f->cval, 1, sizeof *f->val);
	if (f->nval == 0)
		f->nval = 1;            /* value 0 is "none"; it carries the phi pool */
	f->val[0].phi = pool;
	tail = xmalloc(f->nblk * sizeof *tail);
	for (uint32_t b = 0; b < f->nblk; b++) {
		f->blk[b]->phi = NULL;
		tail[b] = &f->blk[b]->phi;
	}
	for (uint32_t k = 0; k < n->nphi; k++) {
		const SsaPhiText *p = &n->phi[k];
		Phi *q = &pool[k];
		Blk *b = at[k];
		if (!b)
			continue;
		q->reg = p->reg;
		q->loc = p->loc;
		q->arg = args;
		q->narg = b->npred;
		args += b->npred;
		q->to = define(x, p->reg, p->ver, NULL, q, b, p->loc);
		*tail[b->id] = q;
		tail[b->id] = &q->link;
	}
	free(tail);
	free(at);
}

/* the phis' arguments, once every definition is known */
static void
phi_args(R *x, const SsaNotes *n)
{
	Fn *f = x->f;
	Phi *pool = n->nphi && f->val ? f->val[0].phi : NULL;
	char name[16];

	for (uint32_t k = 0; pool && k < n->nphi; k++) {
		const SsaPhiText *p = &n->phi[k];
		Phi *q = &pool[k];
		Blk *b = block_at(f, p->before);
		if (!b)
			continue;
		reg_name(p->reg, name, sizeof name);
		for (uint32_t a = 0; a < p->narg; a++) {
			uint32_t j;
			if (p->blk[a] >= f->nblk) {
				error_at(x->d, p->aloc[a], "unknown block bb%u (the function has %u)", p->blk[a],
				         f->nblk);
				x->err = 1;
				continue;
			}
			for (j = 0; j < b->npred && b->pred[j]->id != p->blk[a]; j++)
				;
			if (j == b->npred) {
				error_at(x->d, p->aloc[a], "bb%u is not a predecessor of bb%u", p->blk[a], b->id);
				x->err = 1;
				continue;
			}
			if (q->arg[j]) {
				error_at(x->d, p->aloc[a], "two arguments for predecessor bb%u", p->blk[a]);
				x->err = 1;
				continue;
			}
			q->arg[j] = use(x, p->reg, p->aver[a], p->aloc[a]);
		}
		for (uint32_t j = 0; j < b->npred; j++)
			if (!q->arg[j] && !x->err) {
				error_at(x->d, p->loc, "phi of %s has no argument for predecessor bb%u", name,
				         b->pred[j]->id);
				x->err = 1;
			}
	}
}

int
sass_apply_ssa(Fn *f, Diag *d)
{
	const SsaNotes *n = sass_notes(f);
	static const SsaNotes none;
	R x;
	uint32_t a0;

	if (!n)
		n = &none;
	if (!f->blk) {
		error_at(d, f->loc, "internal: sass_apply_ssa before cfg_build");
		return -1;
	}
	memset(&x, 0, sizeof x);
	x.f = f;
	x.d = d;
	if (f->val)
		ssa_release(f);
	f->nval = 0;
	vm_init(&x.map, n->nann + n->nphi + 16);
	x.blkof = xmalloc((f->nins + 1) * sizeof *x.blkof);
	for (uint32_t b = 0; b < f->nblk; b++) {
		uint32_t s = (uint32_t)(f->blk[b]->ins - f->ins);
		for (uint32_t k = 0; k < f->blk[b]->nins; k++)
			x.blkof[s + k] = f->blk[b];
	}
	make_phis(&x, n);
	/* definitions first (instructions in order; annotations are grouped by instruction) */
	a0 = 0;
	for (uint32_t k = 0; k < f->nins; k++) {
		uint32_t a1 = a0;
		while (a1 < n->nann && n->ann[a1].ins == k)
			a1++;
		ins_defs(&x, k, a1 > a0 ? n->ann + a0 : NULL, a1 - a0);   /* no annotations: ann may be NULL */
		a0 = a1;
	}
	a0 = 0;
	for (uint32_t k = 0; k < f->nins; k++) {
		uint32_t a1 = a0;
		while (a1 < n->nann && n->ann[a1].ins == k)
			a1++;
		ins_uses(&x, k, a1 > a0 ? n->ann + a0 : NULL, a1 - a0);
		a0 = a1;
	}
	phi_args(&x, n);
	free(x.map.key);
	free(x.map.val);
	free(x.blkof);
	if (x.err)
		return -1;
	f->in_ssa = 1;
	return 0;
}
