/* fwindow.c: what the allocators of FIBER windows share (fiber-ra, passes/fiber/fiberra.c, and
 * regalloc's window target, backend/rawin.c): the registers the code after a point names
 * (SETFIBERNUM's nreg), where weft W's window lies when the kernel owns its SM (a remote read's
 * V register), and whether the windows and pools of the launch bound fit each slice.
 */
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

/* the registers (window size) the code reachable from instruction at of block b uses: b from
 * at on, and every block reachable from there (successors, internal subroutines), b whole if
 * the code comes back to it; remote reads are not the window's */
static int
regs_after(Fn *f, Blk *b, uint32_t at)
{
	uint8_t *seen = xmalloc(f->nblk + 1);
	uint32_t *stk = xmalloc((f->nblk + 2) * sizeof *stk), sp = 0, from = at;
	Blk *x = b;
	int top = 0;

	memset(seen, 0, f->nblk + 1);
	for (;;) {
		for (uint32_t k = from; k < x->nins; k++) {
			const Ins *i = &x->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				if (RCLS(s->reg) == RR && !reg_isconst(s->reg) &&
				    !(s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote)) &&
				    (int)(RNUM(s->reg) + s->n) > top)
					top = (int)(RNUM(s->reg) + s->n);
			}
		}
		Blk *c = cfg_callee(f, x);
		if (c && !seen[c->id]) {
			seen[c->id] = 1;
			stk[sp++] = c->id;
		}
		for (uint32_t k = 0; k < x->nsucc; k++)
			if (!seen[x->succ[k]->id]) {
				seen[x->succ[k]->id] = 1;
				stk[sp++] = x->succ[k]->id;
			}
		if (!sp)
			break;
		x = f->blk[stk[--sp]];
		from = 0;
	}
	free(seen);
	free(stk);
	return top;
}

int
fw_has_setfibernum(const Fn *f)
{
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++)
			if (f->blk[b]->ins[k].op == OSETFIBERNUM)
				return 1;
	return 0;
}

int
fw_weft_base(const Fn *f, int w, int n, int slice, int has_sfn)
{
	if (!f->npool && !has_sfn)
		return -1;
	if (w >= 4 && has_sfn)
		return -1;
	return slice * (w % 4) + (w / 4) * n;
}

int
fw_fix_setfibernum(Fn *f, Diag *d)
{
	int rc = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (i->op != OSETFIBERNUM || i->nopnd < 2 || i->opnd[1].kind != OImm)
				continue;
			int need = regs_after(f, f->blk[b], k + 1);
			if (need > i->opnd[1].imm) {
				error_at(d, i->loc, "SETFIBERNUM's window of %lld registers for the new wefts is "
				         "too small: the code after it needs %d (one window per kernel: the "
				         "allocator does not fit a phase into a smaller one)",
				         (long long)i->opnd[1].imm, need);
				rc = -1;
			}
			i->opnd[1].imm = need > 0 ? need : 1;
		}
	return rc;
}

int
fw_check_slices(Fn *f, Diag *d, int n, int has_sfn, const char *why)
{
	FPlan *p = f->plan;
	long fibers = f->info.maxfibers, t = 1, wefts, per;
	int slice = p->slice_regs > 0 ? p->slice_regs : FiberSliceRegs;
	int nsub = p->nsub > 0 ? p->nsub : 4;

	for (int k = 0; k < 3; k++)
		t *= f->info.max_threads[k] > 0 ? f->info.max_threads[k] :
		     f->info.reqntid[k] > 0 ? f->info.reqntid[k] : 1;
	if (t > fibers)
		fibers = t;
	for (uint32_t k = 0; has_sfn && k < f->nins; k++)
		if (f->ins[k].op == OSETFIBERNUM && f->ins[k].nopnd && f->ins[k].opnd[0].kind == OImm &&
		    f->ins[k].opnd[0].imm > fibers)
			fibers = (long)f->ins[k].opnd[0].imm;
	wefts = (fibers + 31) / 32;
	per = (wefts + nsub - 1) / nsub;
	for (int s = 0; s < nsub; s++) {
		long pooled = 0;
		for (uint32_t k = 0; k < f->npool; k++)
			if (f->pool[k].slice == s)
				pooled += f->pool[k].size;
		if (per * n + pooled > slice) {
			error_at(d, f->loc, "the window of %d registers does not fit: %ld wefts per "
			         "slice x %d + %ld pooled = %ld > %d registers of slice %d (%s)", n, per,
			         n, pooled, per * n + pooled, slice, s, why);
			return -1;
		}
	}
	return 0;
}
