/* rawin.c: the pass regalloc-window (docs/pass-regalloc.md "The window target"): regalloc's
 * allocator (webs, pressure spills, colouring, copy coalescing, virtual predicates, spill code)
 * aimed at a FIBER weft's window instead of ptxas's register count, for every --mode=fiber-native
 * pipeline (.vfsass and PTX). The budget is what the fullest slice leaves each weft of the launch
 * bound; registers other wefts read are pinned first (rapin.c); two colouring orders are tried
 * and the smaller window kept; the window written into the listing is one past the highest R
 * the allocated code names.
 */
#include "regalloc.h"
#include "fpasses.h"

#include <string.h>

/* the most registers a weft's window may have: 255 (R0..R254), the lower of .maxnreg and
 * --maxrregcount, and what the fullest slice leaves after its pools to each of its wefts (a
 * quarter of the launch bound's, at least one) */
static int
budget(const Fn *f, long *threads)
{
	const FPlan *p = f->plan;
	int slice = p && p->slice_regs > 0 ? p->slice_regs : FiberSliceRegs;
	int nsub = p && p->nsub > 0 ? p->nsub : 4, n = 255;
	long t = 1, most = 0, per;

	for (int k = 0; k < 3; k++)
		t *= f->info.max_threads[k] > 0 ? f->info.max_threads[k] :
		     f->info.reqntid[k] > 0 ? f->info.reqntid[k] : 1;
	if (f->info.maxfibers > t)
		t = f->info.maxfibers;
	*threads = t;
	if (f->info.maxreg > 0 && f->info.maxreg < n)
		n = f->info.maxreg;
	for (int sl = 0; sl < nsub; sl++) {          /* the fullest slice's pools */
		long pooled = 0;
		for (uint32_t k = 0; k < f->npool; k++)
			pooled += f->pool[k].slice == sl ? f->pool[k].size : 0;
		if (pooled > most)
			most = pooled;
	}
	per = (((t + 31) / 32) + nsub - 1) / nsub;
	if ((slice - most) / per < n)
		n = (int)((slice - most) / per);
	return n;
}

/* one past the highest R register the function's code names (its window) */
static int
window_of(Fn *f)
{
	int top = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (!i->slot && op_slots(f, i) < 0)
				continue;
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				if (RCLS(s->reg) == RR && !reg_isconst(s->reg) && !reg_isvirt(s->reg) &&
				    (int)(RNUM(s->reg) + s->n) > top)
					top = (int)(RNUM(s->reg) + s->n);
			}
		}
	return top;
}

/* one past the highest register the allocation solved in ra names (its colours and the
 * physical registers of the text), or a large number if it spills (any spill costs more than
 * registers) */
static int
solved_window(const RA *ra)
{
	int hi = -1;

	if (ra->nspill)
		return 1 << 20;
	for (uint32_t r = 0; r < RaPhysR; r++)
		if ((ra->physr[r >> 6] >> (r & 63)) & 1)
			hi = (int)r > hi ? (int)r : hi;
	for (uint32_t n = 0; n < ra->nnode; n++) {
		const RaNode *x = &ra->node[n];
		if (x->cls == RR && !x->spilled && x->col >= 0 && x->col + x->size - 1 > hi)
			hi = x->col + x->size - 1;
	}
	return hi + 1;
}

/* set up and solve ra for a limit of maxreg; -1 after an error */
static int
solve(RA *ra, int maxreg)
{
	ra_free(ra);
	return ra_setup(ra, maxreg) < 0 || ra_solve(ra) < 0 ? -1 : 0;
}

/* allocate f's virtual registers into R0..R(maxreg-1). R1 is a register like the others (where
 * the code names it, its live ranges are pre-coloured as any physical register's) unless spill
 * code (addressed by R1) turns out needed: then from the start again with R1 reserved. Two
 * colouring orders, regalloc's (by first point) and fiber-ra's (larger first), neither better
 * everywhere (flash_attn: 148 against 157; a pair and a quad read by each other: 12 against 8):
 * the smaller window wins, by first point on a tie */
static int
allocate(Fn *f, Diag *d, RaWin *win, int maxreg)
{
	RA ra = { .f = f, .d = d, .win = win };
	int copies = 0, rc = -1, first;

	win->tuples_first = 1;
	if (solve(&ra, maxreg) < 0)
		goto out;
	first = solved_window(&ra);
	win->tuples_first = 0;
	if (solve(&ra, maxreg) < 0)
		goto out;
	if (first < solved_window(&ra)) {
		win->tuples_first = 1;
		if (solve(&ra, maxreg) < 0)
			goto out;
	}
	if (!win->r1 && ra.nspill) {
		if (win->pin[0] & 2) {
			error_at(d, f->loc, "the window of %d registers needs spill code, addressed by R1, "
			         "but R1 holds a register that another weft reads (setting R1 in the "
			         "program, IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28], keeps it off R1)", maxreg);
			goto out;
		}
		win->r1 = 1;
		if (solve(&ra, maxreg) < 0)
			goto out;
	}
	rc = ra_rewrite(&ra, &copies);
out:
	ra_free(&ra);
	return rc;
}

int
pass_regalloc_window(Fn *f, Diag *d)
{
	RaWin win = {0};
	long threads = 1;
	int maxreg = budget(f, &threads), vregs = (int)f->nvreg;

	if (!f->nvreg)
		return PassUnchanged;    /* physical registers only: the program's own window */
	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	if (maxreg < 8) {
		error_at(d, f->loc, "a window of %d registers is too small to allocate into (at least "
		         "8): %ld threads per CTA and the pools leave %d per weft in a slice", maxreg,
		         threads, maxreg);
		return -1;
	}
	if (ra_pin(f, d, &win, maxreg) < 0 || allocate(f, d, &win, maxreg) < 0)
		return -1;
	f->nvreg = 0;
	win.window = window_of(f);
	if (win.window < 1)
		win.window = 1;
	if (f->plan && fw_check_slices(f, d, win.window, fw_has_setfibernum(f), "the registers the "
	                                 "program names itself need that window") < 0)
		return -1;
	ra_remote(f, win.window);
	if (fw_fix_setfibernum(f, d) < 0)
		return -1;
	kinfo_regcount(f, win.window);
	if (f->plan) {
		f->plan->window = win.window;
		f->plan->vregs = vregs;
	}
	return 0;
}
