/* defuse.c: upkeep of the SSA data structures that every consumer of SSA form needs (the pass
 * manager, the IR text reader, the edit API): def-use chains (ssa_uses) and releasing the phis
 * and chains (ssa_release). Building and leaving SSA form are passes (passes/ssa.c).
 */
#include "ir.h"

#include <stdlib.h>

void
ssa_release(Fn *f)
{
	if (f->val && f->cval) {
		free(f->val[0].phi);
		free(f->val[0].use);
		f->val[0].phi = NULL;
		f->val[0].use = NULL;
	}
	for (uint32_t b = 0; f->blk && b < f->nblk; b++)
		f->blk[b]->phi = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Def-use chains: one array for the whole function, sliced per value (cuse == nuse).
 */
/* count (pos NULL) or record every use in reachable code; cnt[v] counts the uses of value v,
 * pos[v] is where its next use goes in pool (small arrays, not the 48-byte Vals: the walk
 * touches the values in no particular order) */
static size_t
each_use(Fn *f, uint32_t *cnt, uint32_t *pos, Use *pool)
{
	size_t n = 0;

#define USE(V, UI, UP, US, UX) do { uint32_t v_ = (V); \
		if (v_ && v_ < f->nval) { \
			if (pos && (UP)) pool[pos[v_]++] = (Use){.phi = (UP), .idx = (uint16_t)(UX), .isphi = 1}; \
			else if (pos) pool[pos[v_]++] = (Use){.ins = (UI), .slot = (uint16_t)(US), \
			                                    .idx = (uint16_t)(UX)}; \
			else cnt[v_]++; \
			n++; \
		} } while (0)
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		for (Phi *p = b->phi; p; p = p->link)
			for (uint32_t k = 0; k < p->narg; k++)
				USE(p->arg[k], NULL, p, 0, k);
		for (uint32_t k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind == SDef || !sl->v)
					continue;
				for (unsigned m = 0; m < sl->n; m++)
					USE(sl->v[m], i, NULL, j, m);
			}
		}
	}
#undef USE
	return n;
}

void
ssa_uses(Fn *f)
{
	uint32_t *cnt, off = 0;
	Use *pool;
	size_t n;

	if (!f->in_ssa)
		return;
	if (!f->val) {
		/* SSA read from text for a function without any register value */
		vgrow(&f->val, &f->cval, 1, sizeof *f->val);
		f->nval = 1;
	}
	free(f->val[0].use);
	f->val[0].use = NULL;
	cnt = xmalloc((f->nval + 1) * sizeof *cnt);
	n = each_use(f, cnt, NULL, NULL);
	pool = xrealloc(NULL, (n + 1) * sizeof *pool);   /* no need to zero: filled below */
	f->val[0].use = pool;
	f->val[0].nuse = f->val[0].cuse = 0;
	for (uint32_t v = 1; v < f->nval; v++) {
		Val *x = &f->val[v];
		x->use = pool + off;
		x->nuse = x->cuse = cnt[v];
		cnt[v] = off;          /* from now on: where the next use of v goes */
		off += x->nuse;
	}
	each_use(f, NULL, cnt, pool);
	free(cnt);
}
