/* ramaxreg.c: setmaxnreg regions for regalloc's SIMT target (docs/pass-regalloc.md "setmaxnreg
 * regions"): after `USETMAXREG.DEALLOC.CTAPOOL N` a warp holds N registers a thread, after the
 * `USETMAXREG.TRY_ALLOC.CTAPOOL UPd, M` loop up to M. A forward walk over the CFG gives each
 * instruction the least count that may reach it (the kernel's own at the entry); regalloc keeps
 * every value live there in R0..R(count-3), ptxas's count convention.
 */
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

/* the count USETMAXREG i leaves the warp: its immediate; 0 if it has none */
static int
count_of(const Ins *i)
{
	for (unsigned k = i->nopnd; k-- > 0;)
		if (i->opnd[k].kind == OImm)
			return (int)i->opnd[k].imm;
	return 0;
}

/* ra->cap: per instruction g the least count reaching it, with `entry` at the function's
 * entry and every block without predecessors; *most: the largest count anywhere. NULL cap (and
 * *most = entry) when the function has no USETMAXREG. 0 after a located error, -1 otherwise */
int
ra_maxreg_caps(RA *ra, int entry, int *most)
{
	Fn *f = ra->f;
	uint8_t *cap, *out;
	int any = 0, changed = 1;

	*most = entry;
	for (uint32_t g = 0; g < ra->nins; g++)
		if (ra->ins[g]->op == OUSETMAXREG) {
			int n = count_of(ra->ins[g]);
			if (n < 8 || n > 256) {
				error_at(ra->d, ra->ins[g]->loc, "regalloc: USETMAXREG without a count "
				         "in 8..256");
				return -1;
			}
			any = 1;
			if (n > *most)
				*most = n > 255 ? 255 : n;
		}
	if (!any)
		return 0;
	cap = xmalloc(ra->nins + 1);
	out = xmalloc(f->nblk + 1);
	memset(cap, 0, ra->nins + 1);
	memset(out, 0, f->nblk + 1);          /* 0: not reached yet */
	while (changed) {                     /* counts only fall: at most (values) rounds */
		changed = 0;
		for (uint32_t b = 0; b < f->nblk; b++) {
			const Blk *x = f->blk[b];
			int cur = b == 0 || !x->npred ? entry : 0;
			for (uint32_t p = 0; p < x->npred; p++) {
				int o = out[x->pred[p]->id];
				if (o && (!cur || o < cur))
					cur = o;
			}
			if (!cur)
				continue;
			for (uint32_t k = 0, g = ra->gblk[b]; k < x->nins; k++, g++) {
				if (!cap[g] || cur < cap[g])
					cap[g] = (uint8_t)(cur > 255 ? 255 : cur);
				if (x->ins[k].op == OUSETMAXREG)
					cur = count_of(&x->ins[k]);
			}
			cur = cur > 255 ? 255 : cur;
			if (out[b] != cur && (!out[b] || cur < out[b])) {
				out[b] = (uint8_t)cur;
				changed = 1;
			}
		}
	}
	free(out);
	ra->cap = cap;
	return 0;
}
