/* dom.c: dominators (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", 2001),
 * the dominator tree with DFS numbers for O(1) dominance queries, and dominance frontiers.
 *
 * Requires cfg_build. The reachable blocks may form several trees: the entry's, and one per
 * internal subroutine (see cfg.c); a block reached from two of them is dominated by neither and
 * starts a tree of its own. The iteration runs over a virtual root above all trees (number 0),
 * which makes that case need no special code. Unreachable blocks get idom NULL, no children,
 * no frontier, and dominate (and are dominated by) nothing but themselves.
 * Memory: one malloc for the child and frontier arrays, whose base is f->blk[0]->dom (the
 * children of bb0 come first); cfg_free and the next dom_build release it.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

enum { Undef = UINT32_MAX };

/* common ancestor of a and b (numbers: rpo + 1, 0 the virtual root) */
static uint32_t
intersect(const uint32_t *idom, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (a > b)
			a = idom[a];
		while (b > a)
			b = idom[b];
	}
	return a;
}

/* roots of the trees: reachable blocks with no reachable predecessor */
static int
isroot(const Blk *b)
{
	for (uint32_t k = 0; k < b->npred; k++)
		if (b->pred[k]->rpo != UINT32_MAX)
			return 0;
	return 1;
}

static void
idoms(Fn *f, uint32_t *idom)
{
	uint32_t n = f->nrpo;
	int changed = 1;

	idom[0] = 0;
	for (uint32_t k = 0; k < n; k++)
		idom[k + 1] = isroot(f->rpo[k]) ? 0 : Undef;
	while (changed) {
		changed = 0;
		for (uint32_t k = 0; k < n; k++) {
			Blk *b = f->rpo[k];
			uint32_t nd = Undef;
			if (idom[k + 1] == 0 && isroot(b))
				continue;
			for (uint32_t j = 0; j < b->npred; j++) {
				uint32_t p = b->pred[j]->rpo;
				if (p == UINT32_MAX || idom[p + 1] == Undef)
					continue;
				nd = nd == Undef ? p + 1 : intersect(idom, p + 1, nd);
			}
			if (nd != Undef && idom[k + 1] != nd) {
				idom[k + 1] = nd;
				changed = 1;
			}
		}
	}
}

/* frontier of b gets y unless already there (additions for one y are consecutive) */
static void
front_add(Blk *b, Blk *y, uint32_t *cnt, uint32_t *last, int fill)
{
	if (last[b->id] == y->id + 1)
		return;
	last[b->id] = y->id + 1;
	if (fill)
		b->front[b->nfront++] = y;
	else
		cnt[b->id]++;
}

static void
frontiers(Fn *f, uint32_t *cnt, uint32_t *last, int fill)
{
	memset(last, 0, f->nblk * sizeof *last);
	for (uint32_t k = 0; k < f->nrpo; k++) {
		Blk *y = f->rpo[k];
		if (y->npred < 2)
			continue;
		for (uint32_t j = 0; j < y->npred; j++) {
			Blk *r = y->pred[j];
			if (r->rpo == UINT32_MAX)
				continue;
			for (; r && r != y->idom; r = r->idom)
				front_add(r, y, cnt, last, fill);
		}
	}
}

void
dom_build(Fn *f)
{
	uint32_t n = f->nrpo, nblk = f->nblk, *idom, *cnt, *last, nchild = 0, nfront = 0, t = 0;
	Blk **mem, **stk;
	uint32_t *pos, sp;

	if (!nblk)
		return;
	free(f->blk[0]->dom);
	for (uint32_t b = 0; b < nblk; b++) {
		Blk *x = f->blk[b];
		x->idom = NULL;
		x->dom = x->front = NULL;
		x->ndom = x->nfront = 0;
		x->pre = x->post = UINT32_MAX;
	}
	idom = xmalloc((n + 1) * sizeof *idom);
	idoms(f, idom);
	for (uint32_t k = 0; k < n; k++)
		if (idom[k + 1]) {
			f->rpo[k]->idom = f->rpo[idom[k + 1] - 1];
			nchild++;
		}
	free(idom);

	cnt = xmalloc(nblk * sizeof *cnt);
	last = xmalloc(nblk * sizeof *last);
	frontiers(f, cnt, last, 0);
	for (uint32_t b = 0; b < nblk; b++)
		nfront += cnt[b];
	/* children counts, then one allocation: children of bb0, bb1, ..., then the frontiers */
	for (uint32_t b = 0; b < nblk; b++)
		if (f->blk[b]->idom)
			f->blk[b]->idom->ndom++;
	mem = xmalloc(((size_t)nchild + nfront + 1) * sizeof *mem);
	{
		Blk **c = mem, **fr = mem + nchild;
		for (uint32_t b = 0; b < nblk; b++) {
			Blk *x = f->blk[b];
			x->dom = c;
			c += x->ndom;
			x->ndom = 0;
			x->front = fr;
			fr += cnt[b];
		}
	}
	for (uint32_t b = 0; b < nblk; b++) {
		Blk *x = f->blk[b];
		if (x->idom)
			x->idom->dom[x->idom->ndom++] = x;
	}
	frontiers(f, cnt, last, 1);
	free(cnt);
	free(last);

	/* pre/post numbers: one counter, trees in rpo order of their roots, children by id */
	stk = xmalloc((nblk + 1) * sizeof *stk);
	pos = xmalloc((nblk + 1) * sizeof *pos);
	for (uint32_t k = 0; k < n; k++) {
		Blk *r = f->rpo[k];
		if (r->idom)
			continue;
		sp = 0;
		stk[sp] = r;
		pos[sp++] = 0;
		r->pre = t++;
		while (sp) {
			Blk *b = stk[sp - 1];
			if (pos[sp - 1] < b->ndom) {
				Blk *c = b->dom[pos[sp - 1]++];
				c->pre = t++;
				stk[sp] = c;
				pos[sp++] = 0;
			} else {
				b->post = t++;
				sp--;
			}
		}
	}
	free(stk);
	free(pos);
}

int
dom_dominates(const Blk *a, const Blk *b)
{
	if (a == b)
		return 1;
	if (a->pre == UINT32_MAX || b->pre == UINT32_MAX)
		return 0;
	return a->pre <= b->pre && b->post <= a->post;
}
