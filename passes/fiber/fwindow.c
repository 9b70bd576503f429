/* fwindow.c: what the allocator of FIBER windows (regalloc's window target, backend/rawin.c)
 * needs from the FIBER side: the registers the code a SETFIBERNUM's new wefts may run names
 * (its nreg, with fwphase.c), where weft W's window lies when the kernel owns its SM (a remote read's
 * V register), and whether the windows and pools of the launch bound fit each slice.
 */
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

/* one past the highest R register instruction i names (its window need; remote reads are not
 * the window's) */
static int
regs_of(const Ins *i)
{
	int top = 0;

	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *s = &i->slot[j];
		if (RCLS(s->reg) == RR && !reg_isconst(s->reg) &&
		    !(s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote)) &&
		    (int)(RNUM(s->reg) + s->n) > top)
			top = (int)(RNUM(s->reg) + s->n);
	}
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
	FwPhases ph;
	int rc = 0;

	fw_phases(f, &ph);
	for (uint32_t s = 0; s < ph.n; s++) {
		Ins *i = ph.ins[s];
		int need = 0;
		if (i->nopnd < 2 || i->opnd[1].kind != OImm)
			continue;
		for (uint32_t b = 0; b < f->nblk; b++)
			for (uint32_t k = 0; k < f->blk[b]->nins; k++)
				if (ph.in[(size_t)s * ph.nins + ph.g0[b] + k]) {
					int n = regs_of(&f->blk[b]->ins[k]);
					need = n > need ? n : need;
				}
		if (need > i->opnd[1].imm) {
			error_at(d, i->loc, "SETFIBERNUM's window of %lld registers for the new wefts is "
			         "too small: the code after it needs %d (what its new wefts may run)",
			         (long long)i->opnd[1].imm, need);
			rc = -1;
		}
		i->opnd[1].imm = need > 0 ? need : 1;
	}
	fw_phases_free(&ph);
	return rc;
}

/* the window of weft w (below wl: launched, n; else the largest nreg of the SETFIBERNUMs that
 * may make it, at most n) */
static int
weft_window(const FwPhases *ph, long w, long wl, int n)
{
	int most = 0;

	if (w < wl)
		return n;
	for (uint32_t s = 0; s < ph->n; s++) {
		const Ins *i = ph->ins[s];
		long c = i->nopnd && i->opnd[0].kind == OImm ? (long)i->opnd[0].imm : FiberMaxFibers;
		int r = i->nopnd > 1 && i->opnd[1].kind == OImm && i->opnd[1].imm < n ?
		        (int)i->opnd[1].imm : n;
		if ((c + 31) / 32 > w && r > most)
			most = r;
	}
	return most ? most : n;
}

int
fw_check_slices(Fn *f, Diag *d, int n, int has_sfn, const char *why)
{
	FPlan *p = f->plan;
	long fibers = f->info.maxfibers, t = 1, wl, states[2] = {0, 0};
	int slice = p->slice_regs > 0 ? p->slice_regs : FiberSliceRegs, known = 0, rc = 0;
	int nsub = p->nsub > 0 ? p->nsub : 4;
	FwPhases ph;

	for (int k = 0; k < 3; k++) {
		int m = f->info.max_threads[k] > 0 ? f->info.max_threads[k] : f->info.reqntid[k];
		known |= m > 0;
		t *= m > 0 ? m : 1;
	}
	if (t > fibers)
		fibers = t;
	memset(&ph, 0, sizeof ph);
	if (has_sfn)
		fw_phases(f, &ph);
	for (uint32_t s = 0; s < ph.n; s++)
		if (ph.ins[s]->nopnd && ph.ins[s]->opnd[0].kind == OImm &&
		    ph.ins[s]->opnd[0].imm > fibers)
			fibers = (long)ph.ins[s]->opnd[0].imm;
	/* the launched wefts have the kernel's window: all of them where the launch bound is not
	 * known; the states to check: the launch and the most wefts any SETFIBERNUM leaves */
	wl = known ? (t + 31) / 32 : (fibers + 31) / 32;
	states[0] = wl;
	states[1] = (fibers + 31) / 32;
	for (int st = 0; st < 2 && !rc; st++)
		for (int sl = 0; sl < nsub && !rc; sl++) {
			long pooled = 0, regs = 0, nw = 0;
			int lo = n;
			for (uint32_t k = 0; k < f->npool; k++)
				if (f->pool[k].slice == sl)
					pooled += f->pool[k].size;
			for (long w = sl; w < states[st]; w += nsub) {
				int x = weft_window(&ph, w, wl, n);
				regs += x;
				nw++;
				lo = x < lo ? x : lo;
			}
			if (regs + pooled <= slice)
				continue;
			if (lo == n)
				error_at(d, f->loc, "the window of %d registers does not fit: %ld wefts per "
				         "slice x %d + %ld pooled = %ld > %d registers of slice %d (%s)", n, nw,
				         n, pooled, regs + pooled, slice, sl, why);
			else
				error_at(d, f->loc, "the windows do not fit: %ld wefts in slice %d (%d "
				         "registers each where launched, %d and more where a SETFIBERNUM "
				         "makes them) take %ld + %ld pooled = %ld > %d registers (%s)", nw, sl,
				         n, lo, regs, pooled, regs + pooled, slice, why);
			rc = -1;
		}
	fw_phases_free(&ph);
	return rc;
}
