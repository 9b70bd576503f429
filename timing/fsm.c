/* fsm.c: the FIBER SM, the second model of smmodel.h (sm_model = fiber; docs/fiber-sm.md, each
 * mechanism with its parameter, source and bias; docs/sim-timing.md "The FIBER SM"). A weft is a
 * warp: its dependences on its own registers are the SIMT model's (control bits or the register
 * scoreboard, simt.c, called through sm_model_simt), and the SM's scoreboard is kept by absolute
 * register (TSm.rready), so a V source (of its own window or another weft's) waits for the write
 * to it in flight (fiber_ready). What FIBER adds: the operand path (fread.c: every read through
 * its slice's shared read ports, another slice's through the crossbar, whose latency delays the
 * operand and so the results, while conflict cycles hold the weft); the busy-bit instructions,
 * bitmap operations that read no register data; SETFIBERNUM's release, window zeroing and
 * context start; the fiber_rs = 0 ablation (fnors.c); the occupancy; the statistics and SM 0's
 * timeline. Its events, which change which wefts are resident, are here too (the SM core calls
 * them through the table).
 */
#include "fsm.h"
#include "weft.h"

#include <stdlib.h>
#include <string.h>

static uint64_t
round_up(uint64_t v, uint64_t unit)
{
	return unit ? (v + unit - 1) / unit * unit : v;
}

/* the FIBER model's occupancy (docs/fiber-sm.md "Occupancy", "SM ownership"): weft contexts
 * per sub-partition (fiber_contexts, each CTA counting the launch's wefts, weft w in
 * sub-partition w % nsub; 0 CTAs if ceil(max(.maxfibers, threads)/32) wefts could not fit even
 * alone), registers per slice (fiber_slice_regs: the launch's windows of nreg_alloc registers),
 * shared memory and max_ctas_per_sm as on the SIMT SM; a kernel with a pool owns its SM (one
 * CTA, limit "fiber"), one with SETFIBERNUM is admitted as any kernel (a grow the SM cannot
 * hold waits: grow_retry). Without GpuConfig.fiber (a configuration built by hand) the SIMT
 * calculator's. */
static uint32_t
fiber_occupancy(const GpuConfig *c, const LaunchCx *lc, const char **limit)
{
	uint64_t nsub = c->nsub ? c->nsub : 4, ctx = c->fiber_contexts ? c->fiber_contexts : 64;
	uint64_t slice = c->fiber_slice_regs ? c->fiber_slice_regs : 512;
	uint64_t best = c->max_ctas_per_sm, v, wsub, rsub;
	uint64_t smem = round_up((uint64_t)lc->smem_user + c->smem_reserved_per_cta, c->smem_alloc_unit);

	if (!c->fiber)
		return sm_model_simt.occupancy(c, lc, limit);
	*limit = "ctas";
	wsub = ((lc->nweft ? lc->nweft : lc->nwarp) + nsub - 1) / nsub; /* sub-partition 0: most */
	if (!wsub)
		wsub = 1;
	rsub = (uint64_t)(lc->nwarp + nsub - 1) / nsub * lc->nreg_alloc;
	if (wsub > ctx || rsub > slice) {
		*limit = wsub > ctx ? "contexts" : "registers";
		return 0;
	}
	if (!lc->fiber_solo)   /* the contexts its launch takes; a grow takes more when it runs */
		wsub = (lc->nwarp + nsub - 1) / nsub ? (lc->nwarp + nsub - 1) / nsub : 1;
	if ((v = ctx / wsub) < best) {
		best = v;
		*limit = "contexts";
	}
	if (rsub && (v = slice / rsub) < best) {
		best = v;
		*limit = "registers";
	}
	if (smem && (v = c->smem_per_sm / smem) < best) {
		best = v;
		*limit = "shared";
	}
	if (lc->fiber_solo && best > 1) {
		best = 1;
		*limit = "fiber";
	}
	return (uint32_t)best;
}

/* a busy-bit instruction: SETBUSYBIT, DEPBAR.FULL/.EMPTY (DEPBAR.LE names an SB set) */
static int
is_busy_op(const DIns *d)
{
	return d->op == OSETBUSYBIT ||
	       (d->op == ODEPBAR && d->nsrc && (d->src[0].kind == DR || d->src[0].kind == DV));
}

/* the SIMT choices; which instructions read V registers (TIns.vsrc 1: the operand path of
 * fread.c), which are busy-bit waits (vsrc 2: bitmap tests that read no register data, but the
 * bits turn Full at the write's completion) and which the model holds */
static void
fiber_launch(TLaunch *L)
{
	sm_model_simt.launch(L);
	for (uint32_t pc = 0; pc < L->prog->nins; pc++) {
		const DIns *d = &L->prog->ins[pc];
		uint32_t first;
		if (is_busy_op(d)) {
			L->ti[pc].vsrc = d->op == ODEPBAR ? 2 : 0;
			/* fiber_fs = 0: a DEPBAR.FULL/.EMPTY that did not block waits for the CTA
			 * (fiber_hold) */
			L->ti[pc].hold = d->op == ODEPBAR && !L->t->fiber_fs;
			continue;
		}
		for (unsigned k = 0; k < d->nsrc; k++)
			if (fread_vregs(&d->src[k], &first))
				L->ti[pc].vsrc = 1;
	}
}

/* the weft's window (Warp.nreg registers, placed by weft_place: it may end where another
 * weft's begins) and its own units start ready, with no operand delay pending; with
 * fiber_rs = 0 it has loaded nothing */
static void
fiber_warp_start(TSm *s, TWarp *tw)
{
	FSm *f = s->mx;
	uint32_t nreg = tw->w ? tw->w->nreg : s->L->lc.nreg_alloc, lo = treg(tw, UnitOfP);

	if (tw->rbase + nreg > SmVRegs)
		nreg = tw->rbase < SmVRegs ? SmVRegs - tw->rbase : 0;
	memset(&s->rready[tw->rbase], 0, nreg * sizeof *s->rready);
	memset(&s->rcls[tw->rbase], 0, nreg);
	memset(&f->late[tw->rbase], 0, nreg);
	memset(&s->rready[lo], 0, NWarpUnit * sizeof *s->rready);
	memset(&s->rcls[lo], 0, NWarpUnit);
	memset(&f->late[lo], 0, NWarpUnit);
	f->late_until[tw->slot] = 0;
	if (f->copy)
		for (unsigned k = 0; k < FCopies; k++)
			f->copy[(size_t)tw->slot * FCopies + k].reg = UINT32_MAX;
	if (s->L->hazard_check && !tw->hz.prod)
		thaz_warp_new(&tw->hz);
	thaz_warp_reset(&tw->hz);
	tw->remote_until = 0;
}

/* ---------------------------------------------------------------------------------------------
 * Warp slots, CTAs and SM 0's timeline.
 */
/* weft w of a CTA is in sub-partition w % nsub, its window in that slice */
static uint32_t
fiber_slot_sub(const TLaunch *L, uint32_t slot)
{
	uint32_t nweft = L->lc.nweft ? L->lc.nweft : L->lc.nwarp;

	return slot % nweft % L->nsub;
}

/* every register free and Empty, the pools reserved; the model's state (FSm) */
static void
fiber_sm_new(TSm *s)
{
	TLaunch *L = s->L;
	uint32_t nweft = L->lc.nweft ? L->lc.nweft : L->lc.nwarp;
	FSm *f = xmalloc(sizeof *f);       /* zeroed */

	fiber_sm_begin(&L->lc, &s->x);
	f->nslot = L->ctas_per_sm * nweft;
	f->late = xmalloc(SmVRegs + UnitOfP + (size_t)f->nslot * NWarpUnit);
	f->late_until = xmalloc(f->nslot * sizeof *f->late_until);
	for (uint32_t pc = 0; pc < L->prog->nins; pc++)
		f->vreads |= L->ti[pc].vsrc == 1;
	s->mx = f;
	if (!L->t->fiber_rs)
		fnors_new(s, f);
}

static void
fiber_sm_free(TSm *s)
{
	FSm *f = s->mx;

	free(s->ftl);
	if (!f)
		return;
	fnors_free(f);
	free(f->late);
	free(f->late_until);
	free(f);
}

/* SM 0's fibers (the resident CTAs' counts) and registers of windows and pools at cycle now, if
 * they changed */
static void
timeline_sample(TSm *s, uint64_t now)
{
	uint32_t fibers = 0, regs = weft_used(&s->sm);

	if (s->id)
		return;
	for (uint32_t c = 0; c < s->L->ctas_per_sm; c++)
		if (s->cta[c].busy)
			fibers += s->cta[c].c.nfibers;
	if (s->nftl && s->ftl[s->nftl - 1].fibers == fibers && s->ftl[s->nftl - 1].regs == regs)
		return;
	if (s->nftl && s->ftl[s->nftl - 1].cycle == now) {
		s->ftl[s->nftl - 1].fibers = fibers;
		s->ftl[s->nftl - 1].regs = regs;
		return;
	}
	if (s->nftl == s->cftl) {
		s->cftl = s->cftl ? 2 * s->cftl : 16;
		s->ftl = xrealloc(s->ftl, s->cftl * sizeof *s->ftl);
	}
	s->ftl[s->nftl++] = (SimFiberSample){now, fibers, regs};
}

/* SM ownership (docs/fiber-sm.md): the SM admits no new CTA while one of its CTAs waits at a
 * growing SETFIBERNUM (Cta.fnum_wait) or runs more fibers than its launch's threads */
static void
admit_update(TSm *s)
{
	s->admit_hold = 0;
	for (uint32_t c = 0; c < s->L->ctas_per_sm; c++) {
		const TCta *tc = &s->cta[c];
		if (tc->busy && (tc->c.fnum_wait || tc->c.nfibers > s->L->lc.nthreads))
			s->admit_hold = 1;
	}
}

static void
fiber_cta_start(TSm *s, TCta *tc, uint64_t start)
{
	tc->fgen = tc->c.fiber_gen;
	s->sm.nresident++;
	timeline_sample(s, start);
}

static void repartition(TSm *s, TCta *tc, TWarp *issuer, uint64_t now);

/* its windows and contexts freed: a CTA of the SM waiting to grow tries again (the oldest
 * slot first) */
static void
fiber_cta_end(TSm *s, TCta *tc, uint64_t now)
{
	cta_end(&s->L->lc, &s->x, &tc->c);
	if (s->sm.nresident)
		s->sm.nresident--;
	for (uint32_t c = 0; c < s->L->ctas_per_sm; c++) {
		TCta *o = &s->cta[c];
		if (o->busy && o != tc && o->c.fnum_wait && fiber_grow_retry(&s->x, &o->c))
			repartition(s, o, NULL, now);
	}
	admit_update(s);
	timeline_sample(s, now + 1);
}

/* ---------------------------------------------------------------------------------------------
 * Waits: SETFIBERNUM, busy bits, fiber_fs = 0.
 */
static unsigned
fiber_blocked(TSm *s, TWarp *tw, uint64_t now)
{
	const Warp *w = tw->w;

	tw->busy_from = now;
	if (w->wait_fnum && tw->tc->c.fnum_wait)
		admit_update(s);       /* a grow that waits for the SM's other CTAs */
	return w->wait_bar ? CpiBarrier : w->wait_busy ? CpiBusyWait
	     : w->wait_fnum ? CpiFiberSync : CpiSync;
}

/* the cycles after the release at which a new weft of window nreg in sub-partition sub starts:
 * its window zeroed through its slice's write ports (fiber_banks x fiber_write_ports registers
 * per cycle; the new windows of a slice in weft order: *zeroed counts them) and its context
 * started (fiber_ctx_start_cycles per new weft of the sub-partition, in order: *started) */
static uint64_t
new_weft_start(const SimTiming *t, uint32_t nreg, uint64_t *zeroed, uint64_t *started)
{
	uint64_t ports = (uint64_t)(t->fiber_banks ? t->fiber_banks : 1) *
	                 (t->fiber_write_ports ? t->fiber_write_ports : 1);
	uint64_t z;

	*zeroed += nreg;
	*started += t->fiber_ctx_start_cycles;
	z = (*zeroed + ports - 1) / ports;
	return z > *started ? z : *started;
}

/* SETFIBERNUM released the CTA's wefts (Cta.fiber_gen moved) at now; issuer (the last arrival)
 * is re-peeked by the SM core. The survivors resume fiber_setfibernum_cycles after the release
 * (charged to fiber_sync); each new weft takes its slot in its sub-partition once its window is
 * zeroed and its context started (new_weft_start); the retired ones are done.
 * fiber.setfibernum_cycles adds each weft's cycles from its arrival to its resumption (to the
 * release for a retired one, nothing for a retired issuer) and each new weft's from the release
 * to its start. */
static void
repartition(TSm *s, TCta *tc, TWarp *issuer, uint64_t now)
{
	const TLaunch *L = s->L;
	const SimTiming *t = L->t;
	FSm *f = s->mx;
	uint64_t until = now + 1 + t->fiber_setfibernum_cycles;
	uint64_t zeroed[MaxSub] = {0}, started[MaxSub] = {0};

	tc->fgen = tc->c.fiber_gen;
	s->fx.setfibernum++;
	for (uint32_t k = 0; k < tc->c.nwarp; k++) {   /* the new wefts first: live stays > 0 */
		TWarp *tw = &s->tw[tc->slot0 + k];
		Warp *w = &tc->c.warp[k];
		uint64_t start;
		if (tw == issuer || tw->next_pc != PeekDone || w->dormant || !(w->present & ~w->exited))
			continue;
		start = until + new_weft_start(t, w->nreg, &zeroed[tw->sub], &started[tw->sub]);
		if (tsm_warp_begin(s, tc, tw, w, start, now, CpiFiberSync))
			s->fx.setfibernum_cycles += start - now;
		if (f->copy)
			fnors_sync(f, tw, start);
	}
	for (uint32_t k = 0; k < tc->c.nwarp; k++) {
		TWarp *tw = &s->tw[tc->slot0 + k];
		if (tw == issuer) {
			if (tw->stall_until < until)
				tw->stall_until = until;
			if (sim_peek(tw->w) != PeekDone)   /* not retired by its own release */
				s->fx.setfibernum_cycles += until - now;
			if (f->copy)
				fnors_sync(f, tw, until);
			continue;
		}
		if (tw->next_pc != PeekBlocked || tw->held)
			continue;
		tw->next_pc = sim_peek(tw->w);
		if (tw->next_pc == PeekBlocked)
			continue;
		if (tw->next_pc == PeekDone) {       /* retired */
			s->fx.setfibernum_cycles += now - tw->busy_from;
			tsm_warp_done(s, tw, now);
			continue;
		}
		s->fx.setfibernum_cycles += until - tw->busy_from;
		tsm_warp_wake(s, tw, now, until, CpiFiberSync);
		if (f->copy)
			fnors_sync(f, tw, until);
	}
	admit_update(s);
	timeline_sample(s, now);
}

/* a CTA-wide wait ended: SETFIBERNUM's if the CTA's fiber generation moved, else a barrier's */
static int
fiber_released(TSm *s, TCta *tc, TWarp *issuer, uint64_t now)
{
	FSm *f = s->mx;

	if (tc->c.fiber_gen == tc->fgen) {
		for (uint32_t k = 0; f->copy && k < tc->c.nwarp; k++)   /* a barrier's */
			fnors_sync(f, &s->tw[tc->slot0 + k], now + s->L->t->lat_bar);
		return 0;
	}
	repartition(s, tc, issuer, now);
	return 1;
}

/* fiber_fs = 0: a DEPBAR.FULL/.EMPTY whose condition held waits for the CTA */
static void
fiber_hold(TSm *s, TWarp *tw, uint64_t now)
{
	tw->held_pc = tw->next_pc;
	tw->next_pc = PeekBlocked;
	tw->held = 1;
	s->nheld++;
	tsm_set_ready(s, tw, TNever, CpiBusyWait);
	tw->busy_from = now;
	tw->tr_why = tw->why;
}

/* fiber_fs = 0: every weft of the CTA not done is waiting (busy bits, barrier, SETFIBERNUM) */
static int
cta_all_wait(const TSm *s, const TCta *tc)
{
	for (uint32_t k = 0; k < tc->c.nwarp; k++) {
		uint32_t pc = s->tw[tc->slot0 + k].next_pc;
		if (pc != PeekDone && pc != PeekBlocked)
			return 0;
	}
	return 1;
}

/* weft tw waits at DEPBAR.FULL/.EMPTY: 1 if its condition holds now, with *at the cycle it wakes,
 * no earlier than its registers' writes complete (TSm.rready) + fiber_busy_wake, with
 * fiber_fs = 0 after lat_bar too; 0 if it still waits */
static int
busy_wake_at(TSm *s, TWarp *tw, uint64_t now, uint64_t *at)
{
	const SimTiming *t = s->L->t;
	Warp *w = tw->w;
	const DIns *d = &s->L->prog->ins[w->pc[__builtin_ctz(w->wait_busy)]];
	uint32_t first = d->src[0].kind == DV ? d->src[0].reg : w->rbase + d->src[0].reg;
	uint64_t a = now + 1;

	if (!fiber_busy_recheck(&s->x, w))
		return 0;
	for (uint32_t r = first; r < first + d->aux && r < SmVRegs; r++)
		if (s->rready[r] > a)
			a = s->rready[r];
	a += t->fiber_busy_wake;
	if (!t->fiber_fs && a < now + t->lat_bar + t->fiber_busy_wake)
		a = now + t->lat_bar + t->fiber_busy_wake;
	*at = a;
	tw->next_pc = sim_peek(w);
	return tw->next_pc < PeekBlocked;
}

/* after every issue: a register's state may have changed; wefts waiting at DEPBAR.FULL/.EMPTY
 * whose condition holds wake (busy_wake_at); with fiber_fs = 0 only when the whole CTA waits,
 * and the held wefts with them, after lat_bar + fiber_busy_wake */
static void
fiber_issued(TSm *s, uint64_t now)
{
	const TLaunch *L = s->L;
	const SimTiming *t = L->t;
	FSm *f = s->mx;

	for (uint32_t c = 0; c < L->ctas_per_sm && (s->sm.busy_waiters || s->nheld); c++) {
		TCta *tc = &s->cta[c];
		if (!tc->busy || (!t->fiber_fs && !cta_all_wait(s, tc)))
			continue;
		s->x.cta = &tc->c;
		s->x.w = NULL;         /* every waiter is another warp to sim_wake */
		for (uint32_t k = 0; k < tc->c.nwarp; k++) {
			TWarp *tw = &s->tw[tc->slot0 + k];
			uint64_t at;
			if (tw->held) {    /* its DEPBAR did not block; the CTA waits */
				tw->held = 0;
				s->nheld--;
				tw->next_pc = tw->held_pc;
				at = now + t->lat_bar + t->fiber_busy_wake;
			} else if (tw->next_pc != PeekBlocked || !tw->w->wait_busy ||
			           !busy_wake_at(s, tw, now, &at)) {
				continue;
			}
			s->fx.busy_waits++;
			s->fx.busy_wait_cycles += at - tw->busy_from;
			tsm_warp_wake(s, tw, now, at, CpiBusyWait);
			if (f->copy)
				fnors_sync(f, tw, at);
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Readiness, operands, issue.
 */
static const uint8_t cls_why[] = {
	[TcFixed] = CpiStall, [TcMem] = CpiWaitMem, [TcLong] = CpiWaitLong,
	[TcTensor] = CpiWaitTensor,
};

/* the SIMT conditions; a source whose producer's result an operand delay made late (control
 * bits cannot know it: the weft interlocks, as on a variable latency); a V source's write in
 * flight (by any weft: the SM's scoreboard is by absolute register); a busy-bit wait's registers
 * turning Full at their write's completion. A wait a remote read decides is charged to
 * remote_read. */
static uint64_t
fiber_ready(TSm *s, TWarp *tw, uint64_t now, uint64_t t, uint8_t *why)
{
	const TLaunch *L = s->L;
	const TIns *ti = &L->ti[tw->next_pc];
	FSm *f = s->mx;

	if (tw->remote_until > t) {
		t = tw->remote_until;
		*why = CpiRemoteRead;
	}
	t = sm_model_simt.ready(s, tw, now, t, why);
	if (f->late_until[tw->slot] > now) {
		for (unsigned k = 0; k < ti->nsrc; k++) {
			uint32_t r = treg(tw, ti->src[k]);
			if (f->late[r] && s->rready[r] >= t && s->rready[r] > now) {
				t = s->rready[r];
				*why = CpiRemoteRead;
			}
		}
	}
	if (ti->vsrc == 1) {
		const DIns *d = &L->prog->ins[tw->next_pc];
		for (unsigned k = 0; k < d->nsrc; k++) {
			uint32_t first;
			unsigned n = fread_vregs(&d->src[k], &first);
			for (unsigned j = 0; j < n; j++) {
				uint32_t r = first + j;
				if (s->rready[r] > t) {
					t = s->rready[r];
					*why = cls_why[s->rcls[r]];
				}
			}
		}
	} else if (ti->vsrc == 2) {
		const DIns *d = &L->prog->ins[tw->next_pc];
		uint32_t first = d->src[0].kind == DV ? d->src[0].reg : tw->rbase + d->src[0].reg;
		for (uint32_t r = first; r < first + d->aux && r < SmVRegs; r++)
			if (s->rready[r] > now && s->rready[r] + L->t->fiber_busy_wake > t) {
				t = s->rready[r] + L->t->fiber_busy_wake;
				*why = CpiBusyWait;
			}
	}
	if (t == tw->remote_until && t > now && *why == CpiStall)
		*why = CpiRemoteRead;
	return t;
}

/* the instruction's reads (fread.c): its conflict cycles hold the weft (remote_until), its
 * operand delay is kept for the issue; with fiber_rs = 0 the shared-memory loads and stores
 * that replace its remote reads take issue slots (the bubble, fnors.c) */
static unsigned
fiber_operand_bubbles(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now)
{
	const TLaunch *L = s->L;
	const TIns *ti = &L->ti[pc];
	FSm *f = s->mx;
	unsigned miss = 0, bubble;
	FRead r;

	f->pend_delay = 0;
	if (!f->vreads)            /* no V source in the program: the SIMT SM's reads */
		return sm_model_simt.operand_bubbles(s, u, tw, pc, now);
	miss = fread_misses(u, tw, ti, L->t);
	bubble = sm_model_simt.operand_bubbles(s, u, tw, pc, now);
	fread_operands(s, f, tw, pc, now, miss, bubble, &r);
	if (!L->t->fiber_rs)
		bubble += fnors_operands(s, f, tw, pc, now, &r);
	s->fx.remote_reads += r.remote;
	s->fx.rpa_conflicts += r.rpa;
	s->fx.xbar_conflicts += r.xwait;
	s->fx.xbar_reads += r.xbar;
	f->pend_delay = r.delay;
	if (r.hold && now + 1 + r.hold > tw->remote_until)
		tw->remote_until = now + 1 + r.hold;
	return bubble;
}

/* the SIMT issue with the results delay cycles late (the operand delay); they are marked late
 * for the weft's consumers (fiber_ready); the conflict cycles hold the weft */
static void
fiber_issue(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now, uint64_t done,
            uint64_t src_read)
{
	const TIns *ti = &s->L->ti[pc];
	FSm *f = s->mx;
	uint32_t delay = f->pend_delay;

	sm_model_simt.issue(s, u, tw, pc, now, done + delay, src_read);
	if (f->vreads) {
		const DIns *d = &s->L->prog->ins[pc];
		for (unsigned k = 0; k < ti->ndst; k++)
			f->late[treg(tw, ti->dst[k])] = delay != 0;
		for (unsigned k = 0; k < d->ndst; k++) {   /* a pool destination (no unit of the weft) */
			const DOp *o = &d->dst[k];
			unsigned n = o->n ? o->n : 1;
			for (unsigned j = 0; o->kind == DV && j < n && o->reg + j < SmVRegs; j++) {
				s->rready[o->reg + j] = done + delay;
				s->rcls[o->reg + j] = ti->cls;
			}
		}
		if (delay && done + delay > f->late_until[tw->slot])
			f->late_until[tw->slot] = done + delay;
		if (!s->L->t->fiber_rs)
			fnors_issued(s, f, tw, pc, done + delay);
	}
	if (f->copy && ti->vsrc == 2)           /* a busy-bit wait that did not block */
		fnors_sync(f, tw, now);
	if (tw->remote_until > now + 1 && tw->stall_until < tw->remote_until)
		tw->stall_until = tw->remote_until;
}

static void
fiber_stats(const TLaunch *L, SimTStats *st)
{
	sm_model_simt.stats(L, st);
	st->fiber = 1;
	for (uint32_t i = 0; i < L->nsm; i++) {
		const TSm *s = L->sms[i];
		if (!s)
			continue;
		st->fiber_remote_reads += s->fx.remote_reads;
		st->fiber_xbar_conflicts += s->fx.xbar_conflicts;
		st->fiber_rpa_conflicts += s->fx.rpa_conflicts;
		st->fiber_busy_waits += s->fx.busy_waits;
		st->fiber_busy_wait_cycles += s->fx.busy_wait_cycles;
		st->fiber_setfibernum += s->fx.setfibernum;
		st->fiber_setfibernum_cycles += s->fx.setfibernum_cycles;
		st->fiber_rs_smem_reads += s->fx.rs_smem_reads;
		st->fiber_xbar_reads += s->fx.xbar_reads;
	}
	/* the timeline of SM 0: its fibers and registers at the launch's start, each change (a CTA
	 * starting or ending, SETFIBERNUM) and the end */
	if (L->nsm && L->sms[0]) {
		const TSm *s = L->sms[0];
		uint32_t n = s->nftl;
		st->fiber_tl = xmalloc((n + 2) * sizeof *st->fiber_tl);
		if (!n || s->ftl[0].cycle)
			st->fiber_tl[st->nfiber_tl++] = (SimFiberSample){0, 0, 0};
		for (uint32_t k = 0; k < n; k++)
			st->fiber_tl[st->nfiber_tl++] = s->ftl[k];
		if (!n || s->ftl[n - 1].cycle < s->last_done)
			st->fiber_tl[st->nfiber_tl++] = (SimFiberSample){s->last_done, 0, 0};
	}
}

const SmModel sm_model_fiber = {
	.name = "fiber",
	.fiber = 1,
	.occupancy = fiber_occupancy,
	.launch = fiber_launch,
	.slot_sub = fiber_slot_sub,
	.sm_new = fiber_sm_new,
	.sm_free = fiber_sm_free,
	.cta_start = fiber_cta_start,
	.cta_end = fiber_cta_end,
	.warp_start = fiber_warp_start,
	.ready = fiber_ready,
	.operand_bubbles = fiber_operand_bubbles,
	.issue = fiber_issue,
	.blocked = fiber_blocked,
	.released = fiber_released,
	.issued = fiber_issued,
	.hold = fiber_hold,
	.stats = fiber_stats,
};
