/* rawin.c: the pass regalloc-window (docs/pass-regalloc.md "The window target"): regalloc's
 * allocator (webs, pressure spills, colouring, copy coalescing, virtual predicates, spill code)
 * aimed at a FIBER weft's window instead of ptxas's register count, for PTX compiled with
 * --mode=fiber-native. The budget is what a slice leaves each weft of the launch bound; the
 * window written into the listing is one past the highest R the allocated code names.
 */
#include "regalloc.h"

#include <string.h>

/* the most registers a weft's window may have: 255 (R0..R254), the lower of .maxnreg and
 * --maxrregcount, and, with a launch bound, a slice's registers shared by its wefts */
static int
budget(const Fn *f, long *threads)
{
	const FPlan *p = f->plan;
	int slice = p && p->slice_regs > 0 ? p->slice_regs : FiberSliceRegs;
	int nsub = p && p->nsub > 0 ? p->nsub : 4, n = 255;
	long t = 1;

	for (int k = 0; k < 3; k++)
		t *= f->info.max_threads[k] > 0 ? f->info.max_threads[k] :
		     f->info.reqntid[k] > 0 ? f->info.reqntid[k] : 1;
	if (f->info.maxfibers > t)
		t = f->info.maxfibers;
	*threads = t;
	if (f->info.maxreg > 0 && f->info.maxreg < n)
		n = f->info.maxreg;
	if (t > 1) {
		long wefts = (t + 31) / 32, per = (wefts + nsub - 1) / nsub;
		if (slice / per < n)
			n = (int)(slice / per);
	}
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

int
pass_regalloc_window(Fn *f, Diag *d)
{
	RaWin win = { .r1 = 1 };
	RA ra = { .f = f, .d = d, .win = &win };
	long threads = 1;
	int maxreg = budget(f, &threads), copies = 0, rc = -1, vregs = (int)f->nvreg;

	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	if (maxreg < 8) {
		error_at(d, f->loc, "a window of %d registers is too small to allocate into (at least "
		         "8): %ld threads per CTA leave %d per weft in a slice", maxreg, threads, maxreg);
		return -1;
	}
	if (f->nvreg) {
		if (ra_setup(&ra, maxreg) < 0 || ra_solve(&ra) < 0 || ra_rewrite(&ra, &copies) < 0)
			goto out;
		f->nvreg = 0;
	}
	win.window = window_of(f);
	if (win.window < 1)
		win.window = 1;
	kinfo_regcount(f, win.window);
	if (f->plan) {
		f->plan->window = win.window;
		f->plan->vregs = vregs;
	}
	rc = 0;
out:
	ra_free(&ra);
	return rc;
}
