/* ssa.c: SSA form over architectural register units (leaving it: outssa.c; def-use chains and
 * ssa_release are IR upkeep, in ir/defuse.c).
 *
 * Every 32-bit register unit (R0..R254, P0..P6, UR0..UR62, UP0..UP6, B0..B15, and the FIBER
 * vector registers V0..V2047) is a variable; a slot covering n registers gets n values. Phis are
 * placed by Cytron et al.'s iterated dominance frontiers, pruned by liveness (a phi only where
 * its register is live on entry), so big unrolled kernels get phis only where values really
 * merge. Renaming walks the dominator tree; versions count per register in that walk (phis first,
 * then instructions in order); the value on entry is version 0, made only when a use has no
 * reaching definition. SOld slots read the reaching value. An internal subroutine (cfg.c) is a
 * tree of its own, walked after the kernel's: there R7<0> stands for R7 as the caller left it,
 * so values on entry are one per register, attached to the entry block and dominating all.
 * Requires cfg_build and dom_build (run here if missing); op_slots is run on instructions
 * without slots. Memory: the phis and their arguments are one malloc whose base is
 * f->val[0].phi; the def-use arrays one malloc at f->val[0].use (value 0 is otherwise unused).
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	Fn *f;             /* the function */
	uint32_t nu;       /* units used in the function */
	int32_t *cu;       /* unit -> compact index, -1 unused */
	Reg *ureg;         /* compact index -> register */
	uint32_t nw;       /* 64-bit words per unit set */
	uint64_t *def;     /* per block id: units defined */
	uint64_t *use;     /* per block id: units read before any definition in the block */
	uint64_t *in;      /* per block id: units live on entry */
	uint32_t ndefu;    /* unit definitions in reachable blocks */
	/* renaming */
	uint32_t *cur;     /* compact -> reaching value, 0 none */
	uint32_t *entry;   /* compact -> value on entry (version 0), 0 not made yet */
	uint32_t *ver;     /* compact -> last version given */
	uint32_t *logu;    /* undo log: unit */
	uint32_t *logv;    /* undo log: previous value */
	uint32_t nlog;
} S;

#define SETHAS(set, c) (((set)[(c) >> 6] >> ((c) & 63)) & 1)
#define SETADD(set, c) ((set)[(c) >> 6] |= (uint64_t)1 << ((c) & 63))

/* slots for every instruction, each with a value array (zero in unreachable code, where no
 * value is given); then the units that reachable code uses, numbered densely in unit order */
static int
slots_units(S *s, Diag *d)
{
	Fn *f = s->f;
	uint8_t *seen = xmalloc(NumUnit);
	int rc = 0;

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		int live = x->rpo != UINT32_MAX;
		for (uint32_t k = 0; k < x->nins; k++) {
			Ins *i = &x->ins[k];
			if (!i->slot && op_slots(f, i) < 0) {
				error_at(d, i->loc, "cannot work out the registers that '%s' reads and writes",
				         mstr(f->mod, i->name));
				rc = -1;
				continue;
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (!sl->v)
					sl->v = arena_alloc(f->mod->arena, (sl->n ? sl->n : 1) * sizeof *sl->v);
				else if (!live)
					memset(sl->v, 0, sl->n * sizeof *sl->v);
				if (live)
					for (unsigned m = 0; m < sl->n; m++) {
						int u = reg_unit(reg_next(sl->reg, m));
						if (u >= 0)
							seen[u] = 1;
					}
			}
		}
	}
	s->cu = xmalloc(NumUnit * sizeof *s->cu);
	s->ureg = xmalloc(NumUnit * sizeof *s->ureg);
	for (int u = 0; u < NumUnit; u++) {
		s->cu[u] = -1;
		if (seen[u]) {
			Reg r = u < UnitP ? REG(RR, u) : u < UnitUR ? REG(RP, u - UnitP) :
			        u < UnitUP ? REG(RUR, u - UnitUR) : u < UnitB ? REG(RUP, u - UnitUP) :
			        u < UnitV ? REG(RB, u - UnitB) : REG(RV, u - UnitV);
			s->ureg[s->nu] = r;
			s->cu[u] = (int32_t)s->nu++;
		}
	}
	free(seen);
	s->nw = (s->nu + 63) / 64;
	if (!s->nw)
		s->nw = 1;
	return rc;
}

/* per block: units defined, units read before being defined */
static void
local_sets(S *s)
{
	Fn *f = s->f;
	size_t sz = (size_t)f->nblk * s->nw;

	s->def = xmalloc(sz * sizeof *s->def);
	s->use = xmalloc(sz * sizeof *s->use);
	s->in = xmalloc(sz * sizeof *s->in);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		uint64_t *def = s->def + (size_t)b->id * s->nw, *use = s->use + (size_t)b->id * s->nw;
		for (uint32_t k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind == SDef)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					if (u >= 0 && !SETHAS(def, s->cu[u]))
						SETADD(use, s->cu[u]);
				}
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind != SDef)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					if (u >= 0) {
						SETADD(def, s->cu[u]);
						s->ndefu++;
					}
				}
			}
		}
	}
}

/* live-in sets over the dense units, by liveness.c's solver (without call edges: SSA does not
 * model what a subroutine reads across its call) */
static void
liveness(S *s)
{
	Fn *f = s->f;
	uint64_t *out = xmalloc(((size_t)f->nblk * s->nw + 1) * sizeof *out);

	live_solve(f, s->nw, s->use, s->def, s->in, out, 0);
	free(out);
}

/* pruned phi placement; returns the number of phis */
static uint32_t
place(S *s)
{
	Fn *f = s->f;
	uint32_t nu = s->nu, nw = s->nw, nblk = f->nblk, *start, *list, *fill, *work;
	uint32_t *phimark, *workmark, nphi = 0, cap = 0, *pb = NULL, *pu = NULL, nargs = 0;
	Phi *pool, ***tail;
	uint32_t *args;

	/* blocks defining each unit, grouped by unit */
	start = xmalloc((nu + 1) * sizeof *start);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		const uint64_t *def = s->def + (size_t)f->rpo[r]->id * nw;
		for (uint32_t w = 0; w < nw; w++)
			for (uint64_t x = def[w]; x; x &= x - 1)
				start[w * 64 + (uint32_t)__builtin_ctzll(x) + 1]++;
	}
	for (uint32_t c = 0; c < nu; c++)
		start[c + 1] += start[c];
	list = xmalloc((start[nu] + 1) * sizeof *list);
	fill = xmalloc((nu + 1) * sizeof *fill);
	memcpy(fill, start, nu * sizeof *fill);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		uint32_t id = f->rpo[r]->id;
		const uint64_t *def = s->def + (size_t)id * nw;
		for (uint32_t w = 0; w < nw; w++)
			for (uint64_t x = def[w]; x; x &= x - 1)
				list[fill[w * 64 + (uint32_t)__builtin_ctzll(x)]++] = id;
	}
	free(fill);

	work = xmalloc((nblk + 1) * sizeof *work);
	phimark = xmalloc(nblk * sizeof *phimark);
	workmark = xmalloc(nblk * sizeof *workmark);
	for (uint32_t c = 0; c < nu; c++) {
		uint32_t nwork = 0;
		for (uint32_t k = start[c]; k < start[c + 1]; k++) {
			workmark[list[k]] = c + 1;
			work[nwork++] = list[k];
		}
		while (nwork) {
			Blk *x = f->blk[work[--nwork]];
			for (uint32_t k = 0; k < x->nfront; k++) {
				uint32_t y = x->front[k]->id;
				if (phimark[y] == c + 1 || !SETHAS(s->in + (size_t)y * nw, c))
					continue;
				phimark[y] = c + 1;
				if (nphi == cap) {
					cap = cap ? 2 * cap : 256;
					pb = xrealloc(pb, cap * sizeof *pb);
					pu = xrealloc(pu, cap * sizeof *pu);
				}
				pb[nphi] = y;
				pu[nphi++] = c;
				nargs += f->blk[y]->npred;
				if (workmark[y] != c + 1) {
					workmark[y] = c + 1;
					work[nwork++] = y;
				}
			}
		}
	}
	free(start);
	free(list);
	free(work);
	free(phimark);
	free(workmark);

	/* one allocation; each block's phis in unit order */
	pool = xmalloc(nphi * sizeof *pool + nargs * sizeof *args + 1);
	args = (uint32_t *)(pool + nphi);
	f->val[0].phi = pool;
	tail = xmalloc(nblk * sizeof *tail);
	for (uint32_t b = 0; b < nblk; b++)
		tail[b] = &f->blk[b]->phi;
	for (uint32_t k = 0; k < nphi; k++) {
		Phi *p = &pool[k];
		Blk *b = f->blk[pb[k]];
		p->reg = s->ureg[pu[k]];
		p->arg = args;
		p->narg = b->npred;
		args += b->npred;
		p->loc = b->nins ? b->ins[0].loc : f->loc;
		*tail[b->id] = p;
		tail[b->id] = &p->link;
	}
	free(tail);
	free(pb);
	free(pu);
	return nphi;
}

/* a new value (what fn_newval does, without its checks: ssa_build reserved room for all) */
static inline uint32_t
newval(S *s, Reg r, uint32_t ver, Ins *def, Phi *phi, Blk *b)
{
	Fn *f = s->f;
	uint32_t v = f->nval++;

	if (v >= f->cval)
		die("ssa: value room miscounted");
	f->val[v] = (Val){.reg = r, .ver = ver, .def = def, .phi = phi, .blk = b};
	return v;
}

/* the value reaching a use of compact unit c */
static inline uint32_t
reaching(S *s, uint32_t c)
{
	if (s->cur[c])
		return s->cur[c];
	if (!s->entry[c])
		s->entry[c] = newval(s, s->ureg[c], 0, NULL, NULL, s->f->rpo[0]);
	return s->entry[c];
}

static inline void
push(S *s, uint32_t c, uint32_t v)
{
	s->logu[s->nlog] = c;
	s->logv[s->nlog++] = s->cur[c];
	s->cur[c] = v;
}

/* index of p in b->pred (sorted by id) */
static uint32_t
predindex(const Blk *b, const Blk *p)
{
	uint32_t lo = 0, hi = b->npred;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (b->pred[mid]->id < p->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
rename_blk(S *s, Blk *b)
{
	for (Phi *p = b->phi; p; p = p->link) {
		uint32_t c = (uint32_t)s->cu[reg_unit(p->reg)];
		p->to = newval(s, p->reg, ++s->ver[c], NULL, p, b);
		push(s, c, p->to);
	}
	for (uint32_t k = 0; k < b->nins; k++) {
		Ins *i = &b->ins[k];
		for (unsigned j = 0; j < i->nslot; j++) {
			Slot *sl = &i->slot[j];
			if (sl->kind == SDef)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				int u = reg_unit(reg_next(sl->reg, m));
				sl->v[m] = u >= 0 ? reaching(s, (uint32_t)s->cu[u]) : 0;
			}
		}
		for (unsigned j = 0; j < i->nslot; j++) {
			Slot *sl = &i->slot[j];
			if (sl->kind != SDef)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				Reg r = reg_next(sl->reg, m);
				int u = reg_unit(r);
				if (u < 0) {
					sl->v[m] = 0;
					continue;
				}
				sl->v[m] = newval(s, r, ++s->ver[s->cu[u]], i, NULL, b);
				push(s, (uint32_t)s->cu[u], sl->v[m]);
			}
		}
	}
	for (uint32_t k = 0; k < b->nsucc; k++) {
		Blk *x = b->succ[k];
		uint32_t j;
		if (!x->phi)
			continue;
		j = predindex(x, b);
		for (Phi *p = x->phi; p; p = p->link)
			p->arg[j] = reaching(s, (uint32_t)s->cu[reg_unit(p->reg)]);
	}
}

/* dominator-tree preorder walk of every tree, children in id order */
static void
rename_all(S *s)
{
	Fn *f = s->f;
	Blk **stk = xmalloc((f->nblk + 1) * sizeof *stk);
	uint32_t *pos = xmalloc((f->nblk + 1) * sizeof *pos);
	uint32_t *mark = xmalloc((f->nblk + 1) * sizeof *mark), sp;

	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *root = f->rpo[r];
		if (root->idom)
			continue;
		sp = 0;
		stk[sp] = root;
		pos[sp] = 0;
		mark[sp++] = s->nlog;
		rename_blk(s, root);
		while (sp) {
			Blk *b = stk[sp - 1];
			if (pos[sp - 1] < b->ndom) {
				Blk *c = b->dom[pos[sp - 1]++];
				stk[sp] = c;
				pos[sp] = 0;
				mark[sp++] = s->nlog;
				rename_blk(s, c);
			} else {
				sp--;
				while (s->nlog > mark[sp]) {
					s->nlog--;
					s->cur[s->logu[s->nlog]] = s->logv[s->nlog];
				}
			}
		}
	}
	free(stk);
	free(pos);
	free(mark);
}

int
ssa_build(Fn *f, Diag *d)
{
	S s = {.f = f};
	uint32_t nphi, need;

	if (!f->blk) {
		error_plain(d, "internal: ssa_build on '%s' before cfg_build", mstr(f->mod, f->name));
		return -1;
	}
	if (f->nblk && !f->blk[0]->dom)
		dom_build(f);
	ssa_release(f);
	f->in_ssa = 0;
	if (slots_units(&s, d) < 0) {
		free(s.cu);
		free(s.ureg);
		return -1;
	}
	local_sets(&s);
	liveness(&s);
	f->nval = 0;
	vgrow(&f->val, &f->cval, 2, sizeof *f->val);
	f->nval = 1;
	f->val[0].phi = NULL;
	f->val[0].use = NULL;
	nphi = place(&s);
	/* room for every value at once, exactly (vgrow would round up and zero it all) */
	need = 1 + s.ndefu + nphi + s.nu;
	if (f->cval < need) {
		f->val = xrealloc(f->val, need * sizeof *f->val);
		f->cval = need;
	}
	s.cur = xmalloc((s.nu + 1) * sizeof *s.cur);
	s.entry = xmalloc((s.nu + 1) * sizeof *s.entry);
	s.ver = xmalloc((s.nu + 1) * sizeof *s.ver);
	s.logu = xmalloc((s.ndefu + nphi + 1) * sizeof *s.logu);
	s.logv = xmalloc((s.ndefu + nphi + 1) * sizeof *s.logv);
	rename_all(&s);
	/* an edge from unreachable code carries the value on entry (never executed; this keeps
	 * every argument a real value, as the IR text reader expects) */
	for (uint32_t r = 0; r < f->nrpo; r++)
		for (Phi *p = f->rpo[r]->phi; p; p = p->link)
			for (uint32_t k = 0; k < p->narg; k++)
				if (!p->arg[k])
					p->arg[k] = reaching(&s, (uint32_t)s.cu[reg_unit(p->reg)]);
	f->in_ssa = 1;
	free(s.cu);
	free(s.ureg);
	free(s.def);
	free(s.use);
	free(s.in);
	free(s.cur);
	free(s.entry);
	free(s.ver);
	free(s.logu);
	free(s.logv);
	return 0;
}
