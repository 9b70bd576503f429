/* dcephi.c: the dce-phi pass: remove the phis whose value no instruction needs, directly or
 * through other phis (so dead cycles of phis go too). The values they defined stay in f->val,
 * marked deleted (blk, phi and def NULL).
 * Requires SSA form; recomputes the def-use chains.
 */
#include "passes.h"

#include <stdlib.h>

int
pass_dce_phi(Fn *f, Diag *d)
{
	uint8_t *need;
	uint32_t *work, nwork = 0;

	(void)d;
	if (!f->in_ssa)
		return 0;
	need = xmalloc(f->nval + 1);
	work = xmalloc((f->nval + 1) * sizeof *work);
	/* roots: values an instruction reads */
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		for (uint32_t k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (sl->kind == SDef || !sl->v)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					uint32_t v = sl->v[m];
					if (v && v < f->nval && !need[v]) {
						need[v] = 1;
						work[nwork++] = v;
					}
				}
			}
		}
	}
	/* a needed phi needs its arguments */
	while (nwork) {
		Phi *p = f->val[work[--nwork]].phi;
		if (!p)
			continue;
		for (uint32_t k = 0; k < p->narg; k++) {
			uint32_t v = p->arg[k];
			if (v && v < f->nval && !need[v]) {
				need[v] = 1;
				work[nwork++] = v;
			}
		}
	}
	for (uint32_t b = 0; b < f->nblk; b++) {
		Phi **pp = &f->blk[b]->phi;
		while (*pp) {
			Phi *p = *pp;
			if (p->to < f->nval && need[p->to]) {
				pp = &p->link;
				continue;
			}
			*pp = p->link;
			if (p->to && p->to < f->nval) {
				f->val[p->to].phi = NULL;
				f->val[p->to].blk = NULL;
				f->val[p->to].def = NULL;
			}
		}
	}
	free(need);
	free(work);
	ssa_uses(f);
	return 0;
}
