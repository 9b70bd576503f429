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

#include <stdlib.h>
#include <string.h>

/* the most fibers SETFIBERNUM i may leave: its immediate count; for a count from a register,
 * the .maxfibers reserved (the launch's t threads where none is: a run-time count beyond the
 * reserved contexts faults, fiber-isa.md section 2) */
static long
most_count(const Fn *f, const Ins *i, long t)
{
	if (i->nopnd && i->opnd[0].kind == OImm)
		return (long)i->opnd[0].imm;
	return f->info.maxfibers > t ? f->info.maxfibers : t;
}

/* the registers of slice 0 (the fullest) that the wefts past the launch bound's (*wl of them),
 * made by SETFIBERNUMs, take at the windows the program wrote (their caps, or those
 * infer_windows found): where the launch bound is known and every SETFIBERNUM that may make
 * such a weft has a window operand; -1 otherwise (one window for all) */
static long
new_regs(const Fn *f, int nsub, long *wl)
{
	long t = 1, most = 0, regs = 0;

	for (int k = 0; k < 3; k++) {
		int m = f->info.max_threads[k] > 0 ? f->info.max_threads[k] : f->info.reqntid[k];
		if (m <= 0)
			return -1;
		t *= m;
	}
	*wl = (t + 31) / 32;
	for (uint32_t k = 0; k < f->nins; k++) {
		const Ins *i = &f->ins[k];
		long c = i->op == OSETFIBERNUM ? most_count(f, i, t) : 0;
		if (i->op != OSETFIBERNUM || (c + 31) / 32 <= *wl)
			continue;            /* makes no weft past the launched ones */
		if (i->nopnd < 2 || i->opnd[1].kind != OImm)
			return -1;
		most = c > most ? c : most;
	}
	if (!most)
		return -1;
	for (long w = 0; w < (most + 31) / 32; w += nsub) {
		long win = 0;
		if (w < *wl)
			continue;
		for (uint32_t k = 0; k < f->nins; k++) {
			const Ins *i = &f->ins[k];
			if (i->op == OSETFIBERNUM && i->nopnd > 1 && i->opnd[1].kind == OImm &&
			    (most_count(f, i, t) + 31) / 32 > w && i->opnd[1].imm > win)
				win = (long)i->opnd[1].imm;
		}
		regs += win;
	}
	return regs;
}

/* the most registers a weft's window may have: 255 (R0..R254), the lower of .maxnreg and
 * --maxrregcount, and what the fullest slice leaves after its pools to each of its wefts (a
 * quarter of the launch bound's, at least one); with windows per phase (new_regs), what it
 * leaves each launched weft after the new wefts' windows as the program capped them */
static int
budget(const Fn *f, long *threads)
{
	const FPlan *p = f->plan;
	int slice = p && p->slice_regs > 0 ? p->slice_regs : FiberSliceRegs;
	int nsub = p && p->nsub > 0 ? p->nsub : 4, n = 255;
	long t = 1, most = 0, per, wl = 0, nr = new_regs(f, nsub, &wl);

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
	if (nr >= 0) {
		per = (wl + nsub - 1) / nsub;
		most += nr;
	}
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

/* solve ra in both colouring orders, regalloc's (by first point) and fiber-ra's (larger first),
 * neither better everywhere (flash_attn: 148 against 157; a pair and a quad read by each other:
 * 12 against 8), leaving the smaller window solved (by first point on a tie); -1 after an error
 * or, in a trial (RaWin.trial), where neither order colours without spilling (RaWin.failed) */
static int
pick(RA *ra, int maxreg)
{
	RaWin *win = ra->win;
	int first = 1 << 30, ok;

	win->tuples_first = 1;
	win->failed = 0;
	ok = solve(ra, maxreg) == 0;
	if (!ok && !win->failed)
		return -1;
	if (ok)
		first = solved_window(ra);
	win->failed = 0;
	win->tuples_first = 0;
	if (solve(ra, maxreg) < 0) {
		if (!win->failed || !ok)
			return -1;
		win->failed = 0;
		win->tuples_first = 1;
		return solve(ra, maxreg);
	}
	if (first < solved_window(ra)) {
		win->tuples_first = 1;
		return solve(ra, maxreg);
	}
	return 0;
}

/* allocate f's virtual registers into R0..R(maxreg-1) (each instruction's into its phase's
 * window, RaWin.cap). R1 is a register like the others (where the code names it, its live
 * ranges are pre-coloured as any physical register's) unless spill code (addressed by R1) turns
 * out needed: then from the start again with R1 reserved */
static int
allocate(Fn *f, Diag *d, RaWin *win, int maxreg)
{
	Diag quiet = *d;
	RA ra = { .f = f, .d = &quiet, .win = win };
	int copies = 0, rc = -1, clean;

	/* first as the search's trials do (the order that colours without a spill; without the
	 * trial, an order that must spill under a phase's cap may fail where the other fits) */
	quiet.nerr = 0;
	quiet.maxerr = -1;
	win->trial = 1;
	clean = pick(&ra, maxreg) == 0 && !ra.nspill;
	win->trial = 0;
	win->failed = 0;
	ra.d = d;
	if (!clean && pick(&ra, maxreg) < 0)
		goto out;
	if (!win->r1 && ra.nspill && !ra_pool_spill(&ra)) {
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

/* each instruction's cap: the least of the windows n[s] of the SETFIBERNUMs whose new wefts may
 * run it (0: none) */
static void
fill_caps(const FwPhases *ph, const int *n, uint8_t *cap)
{
	memset(cap, 0, ph->nins + 1);
	for (uint32_t s = 0; s < ph->n; s++)
		for (uint32_t g = 0; n[s] > 0 && g < ph->nins; g++)
			if (ph->in[(size_t)s * ph->nins + g] && (!cap[g] || cap[g] > n[s]))
				cap[g] = (uint8_t)n[s];
}

/* the allocation of the current caps as a trial: its window, or -1 where it needs a spill (its
 * errors are not reported: the allocation that follows reports them) */
static int
trial(Fn *f, Diag *d, RaWin *win, int maxreg)
{
	Diag quiet = *d;
	RA ra = { .f = f, .d = &quiet, .win = win };
	int w = -1;

	quiet.nerr = 0;
	quiet.maxerr = -1;           /* verror_at: past maxerr, nothing printed */

	win->trial = 1;
	if (pick(&ra, maxreg) == 0 && !ra.nspill)
		w = solved_window(&ra);
	win->trial = 0;
	win->failed = 0;
	ra_free(&ra);
	return w;
}

/* one past the highest R register of the text (not virtual) that the new wefts of SETFIBERNUM
 * s may name: no cap can go below it */
static int
text_regs(Fn *f, const FwPhases *ph, uint32_t s)
{
	int top = 1;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			if (!ph->in[(size_t)s * ph->nins + ph->g0[b] + k])
				continue;
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *x = &i->slot[j];
				if (RCLS(x->reg) == RR && !reg_isconst(x->reg) && !reg_isvirt(x->reg) &&
				    !(x->opnd < i->nopnd && (i->opnd[x->opnd].flags & FVRemote)) &&
				    (int)(RNUM(x->reg) + x->n) > top)
					top = (int)(RNUM(x->reg) + x->n);
			}
		}
	return top;
}

/* a window per phase (docs/pass-regalloc.md "A window per phase"): the registers the new wefts
 * of each SETFIBERNUM may name are capped at the nreg the program wrote (0: none yet, a window
 * infer_windows asks for), and, where the allocation needs no spill, at the least window
 * (binary search, SETFIBERNUMs in order) with which it still colours without spilling and
 * without a larger kernel window; win->cap is left set for the allocation (caps: ph.nins + 1
 * bytes, the caller frees) and each SETFIBERNUM's cap in found[s] (NULL: not wanted). -1 where
 * the first allocation spills (no caps then: one window for all, as regalloc alone) */
static int
phase_windows(Fn *f, Diag *d, RaWin *win, int maxreg, FwPhases *ph, uint8_t *cap, int *found)
{
	int *n = xmalloc((ph->n + 1) * sizeof *n), whole;

	for (uint32_t s = 0; s < ph->n; s++) {
		const Ins *i = ph->ins[s];
		n[s] = i->nopnd > 1 && i->opnd[1].kind == OImm && i->opnd[1].imm > 0 ?
		       (int)(i->opnd[1].imm < 255 ? i->opnd[1].imm : 255) : 0;
	}
	fill_caps(ph, n, cap);
	win->cap = cap;
	whole = trial(f, d, win, maxreg);
	if (whole < 0) {     /* spills, or a written window too small: one window for all, as
		                        regalloc alone (fw_fix_setfibernum names a window too small) */
		memset(cap, 0, ph->nins + 1);
		free(n);
		return -1;
	}
	for (uint32_t s = 0; whole > 0 && s < ph->n; s++) {
		const Ins *i = ph->ins[s];
		int lo = text_regs(f, ph, s), hi = n[s] && n[s] < whole ? n[s] : whole;
		if (i->nopnd < 2 || i->opnd[1].kind != OImm)
			continue;        /* no window operand: the new wefts get the kernel's */
		if (lo > hi)
			lo = hi;
		while (lo < hi) {
			int mid = (lo + hi) / 2, w;
			n[s] = mid;
			fill_caps(ph, n, cap);
			w = trial(f, d, win, maxreg);
			if (w > 0 && w <= whole)
				hi = mid;
			else
				lo = mid + 1;
		}
		n[s] = hi;
	}
	fill_caps(ph, n, cap);
	for (uint32_t s = 0; found && s < ph->n; s++)
		found[s] = n[s];
	free(n);
	return 0;
}

/* each SETFIBERNUM without a window operand (fiber_set_count<C>(), fiber_set_count(c)) gets
 * one, 0 (to be found by infer_windows), marked in inf[s]; how many */
static uint32_t
add_windows(Fn *f, const FwPhases *ph, uint8_t *inf)
{
	uint32_t k = 0;

	for (uint32_t s = 0; s < ph->n; s++) {
		Ins *i = ph->ins[s];
		Opnd *o;
		inf[s] = i->nopnd == 1;
		if (!inf[s])
			continue;
		o = arena_alloc(f->mod->arena, 3 * sizeof *o);
		o[0] = i->opnd[0];
		o[1] = mkimm(0);
		i->opnd = o;
		i->nopnd = 2;
		i->slot = NULL;
		i->nslot = 0;
		k++;
	}
	return k;
}

/* set the window operands infer_windows added to their values in n (NULL: 0), or take them
 * away again (drop) */
static void
set_windows(const FwPhases *ph, const uint8_t *inf, const int *n, int drop)
{
	for (uint32_t s = 0; s < ph->n; s++)
		if (inf[s]) {
			ph->ins[s]->nopnd = drop ? 1 : 2;
			ph->ins[s]->opnd[1].imm = n ? n[s] : 0;
		}
}

/* with the windows n as caps, does the allocation at maxreg succeed (spill code allowed; its
 * errors are not reported: the allocation that follows reports them)? caps left set */
static int
spill_ok(Fn *f, Diag *d, RaWin *win, int maxreg, FwPhases *ph, uint8_t *cap, const int *n)
{
	Diag quiet = *d;
	RA ra = { .f = f, .d = &quiet, .win = win };
	int ok;

	quiet.nerr = 0;
	quiet.maxerr = -1;
	fill_caps(ph, n, cap);
	win->cap = cap;
	ok = pick(&ra, maxreg) == 0;
	ra_free(&ra);
	return ok;
}

/* after the allocation (which made the instructions anew): a window operand infer_windows
 * added (inf[s], SETFIBERNUMs in layout order) that is the kernel's window goes (the new wefts
 * get that window without one) */
static void
drop_kernel_windows(Fn *f, const uint8_t *inf, int window)
{
	uint32_t s = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (i->op != OSETFIBERNUM)
				continue;
			if (inf[s++] && i->nopnd == 2 && i->opnd[1].imm >= window)
				i->nopnd = 1;
		}
}

/* windows from pressure for the SETFIBERNUMs without one (inf[s]; docs/pass-regalloc.md "A
 * window for a SETFIBERNUM without one"): the budget of the launched wefts depends on the new
 * wefts' windows and those on the budget, so from the budget with no new-weft windows down:
 * phase_windows finds each such window at a budget, the budget those windows leave is
 * computed, until it is no lower (at most 6 rounds); where the first allocation spills or the
 * rounds do not settle, the operands go and the new wefts get the kernel's window (one budget
 * for all, as before). The budget, caps left set as phase_windows leaves them; *threads as
 * budget() sets it */
static int
infer_windows(Fn *f, Diag *d, RaWin *win, int maxreg, FwPhases *ph, uint8_t *cap,
              const uint8_t *inf, long *threads)
{
	int *n = xmalloc((ph->n + 1) * sizeof *n), nb = -1;

	for (int round = 0; round < 6; round++) {
		set_windows(ph, inf, NULL, 0);
		if (phase_windows(f, d, win, maxreg, ph, cap, n) < 0) {
			/* the budget the last round's windows leave needs spills even uncapped: keep
			 * those windows (n, still set: the budget was computed from them) where the
			 * allocation then succeeds, spills and all, rather than one window for all */
			if (round && spill_ok(f, d, win, maxreg, ph, cap, n)) {
				set_windows(ph, inf, n, 0);
				free(n);
				return maxreg;
			}
			break;
		}
		set_windows(ph, inf, n, 0);
		nb = budget(f, threads);
		if (nb >= maxreg) {
			free(n);
			return maxreg;       /* the windows found leave the budget they were found at */
		}
		maxreg = nb;
		if (maxreg < 8)
			break;
	}
	free(n);
	set_windows(ph, inf, NULL, 1);
	maxreg = budget(f, threads);
	if (maxreg >= 8 && ph->n)
		phase_windows(f, d, win, maxreg, ph, cap, NULL);
	return maxreg;
}

int
pass_regalloc_window(Fn *f, Diag *d)
{
	RaWin win = {0};
	FwPhases ph;
	uint8_t *cap, *inf;
	long threads = 1;
	int maxreg, vregs = (int)f->nvreg, rc = -1;

	if (!f->nvreg)
		return PassUnchanged;    /* physical registers only: the program's own window */
	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	fw_phases(f, &ph);
	cap = xmalloc(ph.nins + 1);
	inf = xmalloc(ph.n + 1);
	add_windows(f, &ph, inf);
	maxreg = budget(f, &threads);   /* windows still to find count as none: the most */
	if (maxreg < 8) {
		error_at(d, f->loc, "a window of %d registers is too small to allocate into (at least "
		         "8): %ld threads per CTA and the pools leave %d per weft in a slice", maxreg,
		         threads, maxreg);
		goto out;
	}
	/* pinned registers are the lowest free ones: a lower budget found below moves none */
	if (ra_pin(f, d, &win, maxreg) < 0)
		goto out;
	if (memchr(inf, 1, ph.n))
		maxreg = infer_windows(f, d, &win, maxreg, &ph, cap, inf, &threads);
	else if (ph.n)
		phase_windows(f, d, &win, maxreg, &ph, cap, NULL);
	if (maxreg < 8) {
		error_at(d, f->loc, "a window of %d registers is too small to allocate into (at least "
		         "8): %ld threads per CTA and the pools leave %d per weft in a slice", maxreg,
		         threads, maxreg);
		goto out;
	}
	rc = allocate(f, d, &win, maxreg);
	win.cap = NULL;
	if (rc < 0)
		goto out;
	rc = -1;
	f->nvreg = 0;
	win.window = window_of(f);
	if (win.window < 1)
		win.window = 1;
	ra_remote(f, win.window);
	if (fw_fix_setfibernum(f, d) < 0)
		goto out;
	drop_kernel_windows(f, inf, win.window);
	rc = 0;
out:
	fw_phases_free(&ph);
	free(cap);
	free(inf);
	if (rc < 0)
		return -1;
	if (f->plan && fw_check_slices(f, d, win.window, fw_has_setfibernum(f), "the registers the "
	                                 "program names itself need that window") < 0)
		return -1;
	kinfo_regcount(f, win.window);
	if (f->plan) {
		f->plan->window = win.window;
		f->plan->vregs = vregs;
	}
	return 0;
}
