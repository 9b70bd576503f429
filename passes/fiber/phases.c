/* phases.c: the `phases` pass of fiberc --mode=cuda-native. Cuts a kernel into phases (its
 * top-level loops and the straight-line code between them), classifies each by its instruction
 * mix (tensor, memory, vector, control: the opcode table's OpUnit), measures its register
 * pressure (R registers live at once), and chooses a fiber count per phase from the limits in
 * f->plan (weft contexts per sub-partition, registers per slice) and the work available. The one
 * transformation it makes is the split of an independent strided loop over m times the launch's
 * fibers (fibernum.c: SETFIBERNUM at the kernel's entry); it makes it only where the legality
 * proof of docs/pass-phases.md holds and the cost model predicts a gain, behind a run-time guard
 * for what only the launch knows (--fiber-runtime) or for loads of memory the loop may write
 * (versioning). Every phase records why (FPhase.why: the reason a phase is left alone, or the
 * guard's conditions of a split), which `fiberc --stats` and `--print-after=phases` show.
 *
 * Preconditions: CFG and dominators (PNeedCfg), SSA form with def-use chains (PNeedSsa), an
 * unedited function (Fn.ins indices name the blocks' instructions). Does nothing without
 * f->plan (outside the FIBER modes) and in fiber-native mode.
 */
#define _POSIX_C_SOURCE 200809L
#include "phases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	MaxSplit = 16,     /* largest expansion factor tried */
	MinTrips = 2,      /* iterations each fiber must keep (amortises SETFIBERNUM) */
	GridShare = 4,     /* a split by m gains with up to m / GridShare CTAs per SM (pass-phases.md) */
};

int
ins_index(const Fn *f, const Ins *i)
{
	if (!f->nins || i < f->ins || i >= f->ins + f->nins)
		return -1;
	return (int)(i - f->ins);
}

static uint32_t
blk_first(const Fn *f, const Blk *b)
{
	return b->nins ? (uint32_t)ins_index(f, &b->ins[0]) : 0;
}

/* ---- loops ---------------------------------------------------------------------------------- */

static int
loop_cmp(const void *a, const void *b)
{
	const Loop *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->last > y->last ? -1 : x->last < y->last;
}

int
loops_find(Fn *f, Loop **out)
{
	Loop *l = NULL;
	uint32_t n = 0, cap = 0, *stk = xmalloc((f->nblk + 1) * sizeof *stk);

	for (uint32_t h = 0; h < f->nblk; h++) {
		Blk *hd = f->blk[h];
		Loop lp = {0};
		uint32_t sp = 0;
		if (hd->rpo == UINT32_MAX)
			continue;
		for (uint32_t p = 0; p < hd->npred; p++) {
			Blk *b = hd->pred[p];
			if (b->rpo == UINT32_MAX || !dom_dominates(hd, b))
				continue;
			if (!lp.in) {
				lp.in = arena_alloc(f->mod->arena, f->nblk);
				lp.head = hd;
				lp.in[hd->id] = 1;
				lp.nblk = 1;
				lp.latch = b;
			} else if (lp.latch != b)
				lp.latch = NULL;
			if (!lp.in[b->id]) {
				lp.in[b->id] = 1;
				lp.nblk++;
				stk[sp++] = b->id;
			}
			while (sp) {
				Blk *x = f->blk[stk[--sp]];
				for (uint32_t q = 0; q < x->npred; q++) {
					Blk *y = x->pred[q];
					if (y->rpo == UINT32_MAX || lp.in[y->id])
						continue;
					lp.in[y->id] = 1;
					lp.nblk++;
					stk[sp++] = y->id;
				}
			}
		}
		if (!lp.in)
			continue;
		lp.first = UINT32_MAX;
		for (uint32_t b = 0; b < f->nblk; b++)
			if (lp.in[b] && f->blk[b]->nins) {
				uint32_t a = blk_first(f, f->blk[b]), e = a + f->blk[b]->nins;
				if (a < lp.first)
					lp.first = a;
				if (e > lp.last)
					lp.last = e;
			}
		vgrow(&l, &cap, n + 1, sizeof *l);
		l[n++] = lp;
	}
	free(stk);
	if (n)
		qsort(l, n, sizeof *l, loop_cmp);
	for (uint32_t k = 0; k < n; k++) {
		l[k].depth = 1;
		for (uint32_t j = 0; j < n; j++)
			if (j != k && l[j].in[l[k].head->id] && l[j].nblk > l[k].nblk)
				l[k].depth++;
	}
	*out = l;
	return (int)n;
}

/* ---- pressure ------------------------------------------------------------------------------- */

/* R registers live before each instruction: FPlan.pressure when the pressure pass made it,
 * else computed here from passes/liveness.c's block sets */
static int *
pressure(Fn *f)
{
	int *pr = xmalloc((f->nins + 1) * sizeof *pr);
	uint32_t ur = (uint32_t)reg_unit(REG(RR, 0)), nr = RegLimitR;
	Live *lv;
	uint64_t *cur;

	if (f->plan && f->plan->pressure && f->plan->npressure == f->nins) {
		memcpy(pr, f->plan->pressure, f->nins * sizeof *pr);
		return pr;
	}
	memset(pr, 0, (f->nins + 1) * sizeof *pr);
	if (!(lv = live_build(f, NumArchUnit)))
		return pr;
	cur = xmalloc(lv->nword * sizeof *cur);
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		memcpy(cur, lv->out + (size_t)b * lv->nword, lv->nword * sizeof *cur);
		for (uint32_t k = bk->nins; k-- > 0;) {
			Ins *i = &bk->ins[k];
			int idx = ins_index(f, i), cnt = 0;
			for (unsigned s = 0; s < i->nslot; s++)
				for (unsigned m = 0; i->slot[s].kind == SDef && !i->guarded &&
				     m < i->slot[s].n; m++) {
					int u = reg_unit(reg_next(i->slot[s].reg, m));
					if (u >= 0 && u < NumArchUnit)   /* V units: not in the sets */
						cur[u >> 6] &= ~((uint64_t)1 << (u & 63));
				}
			for (unsigned s = 0; s < i->nslot; s++)
				for (unsigned m = 0; i->slot[s].kind != SDef && m < i->slot[s].n; m++) {
					int u = reg_unit(reg_next(i->slot[s].reg, m));
					if (u >= 0 && u < NumArchUnit)
						cur[u >> 6] |= (uint64_t)1 << (u & 63);
				}
			for (uint32_t u = ur; u < ur + nr; u++)
				cnt += (int)((cur[u >> 6] >> (u & 63)) & 1);
			if (idx >= 0)
				pr[idx] = cnt;
		}
	}
	free(cur);
	live_free(lv);
	return pr;
}

/* ---- the phase table ------------------------------------------------------------------------ */

typedef struct Mix {
	int tensor, mem, vec, ctl, n;
} Mix;

static Mix
mix_of(const Fn *f, uint32_t a, uint32_t e)
{
	Mix x = {0};

	for (uint32_t k = a; k < e && k < f->nins; k++) {
		const Ins *i = &f->ins[k];
		int u = i->op < NOp ? optab[i->op].unit : UNone;
		x.n++;
		switch (u) {
		case UTensor: x.tensor++; break;
		case ULsu: x.mem++; break;
		case UInt: case UFma: case UHalf: case UDouble: case UMufu: case UConv: x.vec++; break;
		default: x.ctl++; break;
		}
	}
	return x;
}

static int
kind_of(Mix x)
{
	if (x.tensor)
		return PhTensor;
	if (x.vec + x.mem < 4)
		return PhControl;
	if (2 * x.mem >= x.vec)
		return PhMemory;
	return PhVector;
}

static int
maxlive_of(const int *pr, uint32_t a, uint32_t e)
{
	int m = 0;

	for (uint32_t k = a; k < e; k++)
		if (pr[k] > m)
			m = pr[k];
	return m;
}

/* the largest m (a power of two, at most MaxSplit) whose fibers fit the weft contexts and the
 * slice registers, and, where the trip count is known (an immediate bound, a block stride),
 * keep MinTrips iterations each without overflow; 0 if none */
static int
fit_m(const FPlan *p, const Split *s, int nreg, int64_t trips)
{
	int best = 0;

	for (int m = 2; m <= MaxSplit; m *= 2) {
		int64_t wefts = ((int64_t)m * s->tmax + 31) / 32, per = (wefts + p->nsub - 1) / p->nsub;
		if (per > p->contexts || per * nreg > p->slice_regs)
			break;
		if (trips >= 0 && (trips < (int64_t)m * MinTrips ||
		    s->bound + (int64_t)m * s->tmax + s->tmax > INT32_MAX))
			break;
		best = m;
	}
	return best;
}

/* with cps CTAs on an SM, one of them grown to m x tmax fibers (windows of nreg) fits beside the
 * others at their launch's size (tmax threads): the first CTA to grow never waits for another
 * that waits too (docs/fiber-sm.md, "SM ownership": CTAs that all wait to grow deadlock) */
static int
fits_beside(const FPlan *p, const Split *s, int m, int cps, int nreg)
{
	int64_t per = (((int64_t)m * s->tmax + 31) / 32 + p->nsub - 1) / p->nsub;
	int64_t own = ((s->tmax + 31) / 32 + p->nsub - 1) / p->nsub;

	return per + (int64_t)(cps - 1) * own <= p->contexts &&
	       (per + (int64_t)(cps - 1) * own) * nreg <= p->slice_regs;
}

/* the cost model: the largest m that fits (fit_m), and what the inserted code must check at run
 * time where the compiler does not know it (s->guard_trips: the trip count; s->guard_grid: the
 * grid, without --fiber-grid); 0 (and *why) when no gain is predicted. */
static int
choose_m(Fn *f, Split *s, int nreg, const char **why)
{
	FPlan *p = f->plan;
	int64_t trips = -1;
	int best, cps, nsm = p->nsm > 0 ? p->nsm : 108;

	if (!s->start_tid) {
		*why = "trip count unknown (the start is not threadIdx.x or blockIdx.x*blockDim.x+threadIdx.x)";
		return 0;
	}
	if (!s->nload) {
		*why = "no global loads in the loop: no memory latency for more fibers to hide";
		return 0;
	}
	if (!s->grid_stride && s->bound_off < 0 && s->start_tid == 1)
		trips = s->bound / s->tmax;  /* thread blockDim.x-1 at blockDim.x = tmax: the fewest */
	else if (!p->runtime) {
		/* the guard's fallback (N < (2m+1)*S) costs about 40 instructions per weft and
		 * SETFIBERNUM: more than 2% of a launch with one iteration per thread, even with a
		 * branch around the split code (measured on silu_mul_f16, docs/pass-phases.md
		 * section 10): only on request */
		*why = s->grid_stride ? "trip count unknown (grid-stride loop): split at run time with "
		                        "fiberc --fiber-runtime"
		     : "trip count unknown (bound from a parameter): split at run time with "
		       "fiberc --fiber-runtime";
		return 0;
	}
	if (!(best = fit_m(p, s, nreg, trips))) {
		*why = trips >= 0 && trips < 2 * MinTrips ? "trip count too small (fewer than 4 iterations per thread)"
		     : "no room: two fibers per thread exceed the weft contexts or slice registers";
		return 0;
	}
	s->guard_trips = trips < 0;
	/* after SETFIBERNUM an SM runs one CTA at a time: the CTAs per SM of the largest grid
	 * must stay within best / GridShare (measured on bias_silu: m = 16 gains up to about 7) */
	if (p->grid <= 0 && !p->runtime) {
		*why = "grid size unknown: SETFIBERNUM makes one CTA per SM, a large grid could be "
		       "slower (fiberc --fiber-grid=N, or --fiber-runtime to check it at run time)";
		return 0;
	}
	if (p->grid <= 0) {
		/* checked at run time: at most one CTA per SM. A larger grid falls back to the
		 * launch's fibers but still owns its SMs (the model's rule is static): slower */
		s->guard_grid = nsm;
		return best;
	}
	cps = (p->grid + nsm - 1) / nsm;
	if (cps > 1 && cps * GridShare > best) {   /* one CTA per SM: SIMT has no more */
		*why = "grid too large: its CTAs per SM, one at a time after SETFIBERNUM, outweigh "
		       "the extra fibers";
		return 0;
	}
	if (cps > 1) {
		/* several CTAs share an SM: a grown one must fit beside the others, and the hint
		 * must hold at run time (gridDim = (g, 1, 1), g <= it; else the launch's fibers) */
		while (best >= 2 && !fits_beside(p, s, best, cps, nreg))
			best /= 2;
		if (best < 2 || cps * GridShare > best) {
			*why = "grid too large: a grown CTA would not fit beside the SM's other CTAs";
			return 0;
		}
		s->guard_grid = p->grid;
	}
	return best;
}

/* what a split phase's inserted code checks at run time (its decision in the phase table), or
 * NULL when the compiler proved everything: the guard falls back to the launch's fibers */
static const char *
guard_text(Fn *f, const Split *s, uint32_t added)
{
	char buf[320];
	int n = 0;

	if (!s->guard_trips && !s->guard_grid && !s->versioned)
		return NULL;
	n = snprintf(buf, sizeof buf, "run-time guard (else the launch's fibers run the loop):");
	if (s->guard_trips)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " N >= (2m+1)*stride,");
	if (s->guard_grid)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " grid <= %d CTAs,", s->guard_grid);
	if (s->versioned) {
		VAcc u[MaxVAcc];
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %d pointer ranges disjoint,",
		              split_ranges(s, u));
	}
	/* what every launch pays, the guard holding or not (docs/pass-phases.md section 10) */
	n--;                   /* over the last condition's comma */
	snprintf(buf + n, sizeof buf - (size_t)n, "; %u instructions inserted (a failed guard "
	         "still runs most of them)", added);
	return mstr(f->mod, mintern(f->mod, buf));
}

static void
phase_add(Fn *f, uint32_t a, uint32_t e, int in_loop, const int *pr, int fibers, int nreg,
          const char *why)
{
	FPhase ph = {0};

	ph.first = a;
	ph.last = e;
	ph.kind = (uint8_t)kind_of(mix_of(f, a, e));
	ph.in_loop = (uint8_t)in_loop;
	ph.maxlive = maxlive_of(pr, a, e);
	ph.fibers = fibers;
	ph.nreg = nreg;
	ph.why = why ? mintern(f->mod, why) : 0;
	fplan_phase_add(f, &ph);
}

/* instructions in f's blocks */
static uint32_t
fn_count(const Fn *f)
{
	uint32_t n = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		n += f->blk[b]->nins;
	return n;
}

/* the phase table, for --print-after=phases (FPlan.report, printed after the IR) */
static void
report(Fn *f)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	if (!m)
		return;
	fplan_print(m, f);
	fclose(m);
	if (n)
		f->plan->report = arena_strndup(f->mod->arena, buf, n);
	free(buf);
}

int
pass_phases(Fn *f, Diag *d)
{
	FPlan *p = f->plan;
	Loop *lp = NULL;
	int nl, *pr, done = 0, nreg;
	uint32_t at = 0;

	if (!p || p->mode != FModeCuda || !f->blk || !f->nins || fn_edited(f))
		return PassUnchanged;
	nl = loops_find(f, &lp);
	pr = pressure(f);
	if (p->maxlive < 0)
		p->maxlive = maxlive_of(pr, 0, f->nins);
	nreg = split_base(f) > 0 ? split_base(f) : 1;
	for (int k = 0; k < nl; k++) {
		Loop *l = &lp[k];
		Split s = {0};
		const char *why = NULL, *gain = NULL;
		int fibers = 0, m = 0;
		uint32_t added = 0;
		if (l->depth != 1)
			continue;
		if (l->first > at)
			phase_add(f, at, l->first, 0, pr, 0, nreg,
			          "straight-line code: runs once per thread, no work to hand out");
		if (l->first < at) {        /* overlapping layout: counted with the previous phase */
			continue;
		}
		why = done ? "another loop of the kernel was split (one SETFIBERNUM split per kernel)"
		           : split_check(f, l, &s);
		if (!why) {
			m = choose_m(f, &s, nreg + 2, &why);
			if (m) {
				s.m = m;
				s.nreg = nreg + 2;
				added = fn_count(f);
				int r = split_apply(f, &s, d);
				added = fn_count(f) - added;
				if (r < 0) {
					free(pr);
					free(lp);
					return -1;
				}
				if (r > 0) {
					why = "no free registers below the kernel's for the SETFIBERNUM code";
					m = 0;
				} else {
					done = 1;
					fibers = m * s.tmax;
				}
			}
		}
		if (m)
			gain = guard_text(f, &s, added);
		phase_add(f, l->first, l->last, 1, pr, fibers, m ? s.nreg : nreg, m ? gain : why);
		at = l->last;
	}
	if (at < f->nins)
		phase_add(f, at, f->nins, 0, pr, 0, nreg,
		          nl ? "straight-line code: runs once per thread, no work to hand out"
		             : "no loop: every thread runs once, no work to hand out");
	free(pr);
	free(lp);
	report(f);
	return done ? 0 : PassUnchanged;
}
