/* simt.c: the SIMT SM, the first model of smmodel.h and the default (sm_model = simt): today's
 * NVIDIA SM as docs/sim-timing.md describes it. A warp's next instruction waits, in control-bits
 * mode, for the compiler's stall count and yield bit, its wait mask on the dependence counters
 * SB0-SB5 and DEPBAR bounds, with the hazard block counting reads nvcc's schedule makes before the
 * modelled latency; in scoreboard mode (a listing without encodings, or ctrl_mode = scoreboard)
 * for a register scoreboard of its sources and destinations. Both read the SM's register
 * scoreboard (TSm.rready), kept by absolute register so that a register can be read by another
 * warp. Its operands are read through two register banks with the reuse cache; occupancy is the
 * CUDA occupancy calculator's (warps, threads, registers, shared memory, CTAs).
 */
#include "smmodel.h"

#include <string.h>

static const uint8_t cls_why[] = {
	[TcFixed] = CpiStall, [TcMem] = CpiWaitMem, [TcLong] = CpiWaitLong,
	[TcTensor] = CpiWaitTensor,
};

static uint64_t
round_up(uint64_t v, uint64_t unit)
{
	return unit ? (v + unit - 1) / unit * unit : v;
}

/* resident CTAs per SM from warps, threads, registers and shared memory (the driver's 1 KiB
 * reserve per CTA included), and what limits them; 0 if one CTA does not fit */
static uint32_t
simt_occupancy(const GpuConfig *c, const LaunchCx *lc, const char **limit)
{
	const GpuConfig *t = c;    /* the figures: copies of the timing keys (simcfg_gpu) */
	uint64_t nwarp = lc->nwarp, best = t->max_ctas_per_sm, v;
	uint64_t regs_warp = round_up((uint64_t)lc->nreg_alloc * WarpSize, t->reg_alloc_unit);
	uint64_t smem = round_up((uint64_t)lc->smem_user + t->smem_reserved_per_cta, t->smem_alloc_unit);

	*limit = "ctas";
	if ((v = t->max_warps_per_sm / nwarp) < best) {
		best = v;
		*limit = "warps";
	}
	if ((v = t->max_threads_per_sm / (nwarp * WarpSize)) < best) {
		best = v;
		*limit = "threads";
	}
	if ((v = c->regs_per_sm / (regs_warp * nwarp)) < best) {
		best = v;
		*limit = "registers";
	}
	if (smem && (v = t->smem_per_sm / smem) < best) {
		best = v;
		*limit = "shared";
	}
	return (uint32_t)best;
}

/* control bits when some instruction carries them (auto); *mixed: some others do not, and are
 * timed by the register scoreboard one by one (uses_bits) */
static int
ctrl_mode(const SimConfig *c, const Prog *p, int *mixed)
{
	uint32_t n = 0;

	*mixed = 0;
	if (c->t.ctrl_mode == CtrlBits || c->t.ctrl_mode == CtrlScoreboard)
		return (int)c->t.ctrl_mode;
	for (uint32_t k = 0; k < p->nins; k++)
		n += CTRL_HAS(p->ins[k].ctrl);
	*mixed = n && n < p->nins;
	return n ? CtrlBits : CtrlScoreboard;
}

/* the instruction is timed by its control bits; else by the register scoreboard (a kernel
 * without encodings, or in a mixed kernel an instruction without control bits) */
static int
uses_bits(const TLaunch *L, const DIns *d)
{
	return L->ctrl == CtrlBits && (!L->ctrl_mixed || CTRL_HAS(d->ctrl));
}

static void
simt_launch(TLaunch *L)
{
	L->ctrl = ctrl_mode(L->cfg, L->prog, &L->ctrl_mixed);
	L->hazard_check = L->ctrl == CtrlBits;
}

/* warp slots round-robin over the sub-partitions */
static uint32_t
simt_slot_sub(const TLaunch *L, uint32_t slot)
{
	return slot % L->nsub;
}

/* a new warp in the slot: its registers in the SM's scoreboard (its window and its predicate and
 * uniform registers) are ready, its hazard block is empty */
static void
simt_warp_start(TSm *s, TWarp *tw)
{
	uint32_t nreg = s->L->lc.nreg_win, lo = treg(tw, UnitOfP);

	memset(&s->rready[tw->rbase], 0, nreg * sizeof *s->rready);
	memset(&s->rcls[tw->rbase], 0, nreg);
	memset(&s->rready[lo], 0, NWarpUnit * sizeof *s->rready);
	memset(&s->rcls[lo], 0, NWarpUnit);
	if (s->L->hazard_check && !tw->hz.prod)
		thaz_warp_new(&tw->hz);
	thaz_warp_reset(&tw->hz);
}

/* a blocked warp waits at a CTA barrier or for its own lanes (BSYNC, WARPSYNC) */
static unsigned
simt_blocked(TSm *s, TWarp *tw, uint64_t now)
{
	return tw->w->wait_bar ? CpiBarrier : CpiSync;
}

/* ---------------------------------------------------------------------------------------------
 * Dependence counters.
 */
static void
sb_push(TWarp *tw, unsigned sb, uint64_t t, unsigned cls, uint64_t now)
{
	uint8_t n = tw->nsb[sb];
	uint64_t *v = tw->sb[sb];

	if (n == SbCap) {                    /* drop what has completed */
		uint8_t k = 0;
		for (uint8_t j = 0; j < n; j++)
			if (v[j] > now)
				v[k++] = v[j];
		n = k;
	}
	if (n == SbCap) {                    /* 64 in flight: merge into the earliest */
		uint8_t lo = 0;
		for (uint8_t j = 1; j < n; j++)
			if (v[j] < v[lo])
				lo = j;
		v[lo] = t > v[lo] ? t : v[lo];
	} else {
		v[n++] = t;
	}
	tw->nsb[sb] = n;
	tw->sbcls[sb] = (uint8_t)cls;
	tw->sb_last[sb] = now;
}

/* the latest pending completion on counter sb other than the newest event (pruned by sb_when) */
static uint64_t
sb_older(const TWarp *tw, unsigned sb)
{
	uint64_t m = 0;

	for (uint8_t j = 0; j + 1 < tw->nsb[sb]; j++)
		m = tw->sb[sb][j] > m ? tw->sb[sb][j] : m;
	return m;
}

/* cycle from which counter sb is at most le */
static uint64_t
sb_when(TWarp *tw, unsigned sb, unsigned le, uint64_t now)
{
	uint64_t *v = tw->sb[sb];
	uint8_t n = tw->nsb[sb], k = 0;

	for (uint8_t j = 0; j < n; j++)       /* prune completed events */
		if (v[j] > now)
			v[k++] = v[j];
	tw->nsb[sb] = n = k;
	if (n <= le)
		return now;
	if (le == 0) {
		uint64_t m = 0;
		for (uint8_t j = 0; j < n; j++)
			m = v[j] > m ? v[j] : m;
		return m;
	}
	/* the (le+1)-th largest: when it completes, le remain */
	{
		uint64_t tmp[SbCap];
		memcpy(tmp, v, n * sizeof *v);
		for (unsigned i = 0; i <= le; i++) {
			unsigned hi = i;
			for (unsigned j = i + 1; j < n; j++)
				if (tmp[j] > tmp[hi])
					hi = j;
			uint64_t sw = tmp[i];
			tmp[i] = tmp[hi];
			tmp[hi] = sw;
		}
		return tmp[le];
	}
}

/* ---------------------------------------------------------------------------------------------
 * Readiness: the wait mask on the counters and DEPBAR bounds (control bits), or the register
 * scoreboard of its sources and destinations.
 */
static uint64_t
simt_ready(TSm *s, TWarp *tw, uint64_t now, uint64_t t, uint8_t *whyp)
{
	const TLaunch *L = s->L;
	const DIns *d = &L->prog->ins[tw->next_pc];
	const TIns *ti = &L->ti[tw->next_pc];
	uint8_t why = *whyp;

	if (uses_bits(L, d)) {
		unsigned wait = CTRL_WAIT(d->ctrl);
		uint64_t t0 = t;     /* the earliest issue the stall count allows */
		for (unsigned sb = 0; wait; sb++, wait >>= 1) {
			uint64_t w;
			if (!(wait & 1) || !tw->nsb[sb])
				continue;
			w = sb_when(tw, sb, 0, now);
			/* an increment lands sb_inc_delay cycles after its issue: an instruction issued
			 * before that does not see it (too short a stall count, a hazard) */
			if (t0 <= tw->sb_last[sb] + L->t->sb_inc_delay && sb_older(tw, sb) <= t0)
				continue;
			if (w > t) {
				t = w;
				why = cls_why[tw->sbcls[sb]];
			}
		}
	} else {
		for (unsigned k = 0; k < ti->nsrc; k++) {
			uint32_t r = treg(tw, ti->src[k]);
			uint64_t w = s->rready[r];
			if (w > t) {
				t = w;
				why = cls_why[s->rcls[r]];
			}
		}
		for (unsigned k = 0; k < ti->ndst; k++) {
			uint32_t r = treg(tw, ti->dst[k]);
			uint64_t w = s->rready[r];
			if (w > t) {
				t = w;
				why = cls_why[s->rcls[r]];
			}
		}
	}
	if (ti->kind == KDepbar) {
		if (ti->depbar_sb != 255 && tw->nsb[ti->depbar_sb]) {
			uint64_t w = sb_when(tw, ti->depbar_sb, ti->depbar_n, now);
			if (w > t) {
				t = w;
				why = CpiWaitMem;
			}
		}
		for (unsigned sb = 0; sb < NSb; sb++)
			if ((ti->depbar_mask >> sb & 1) && tw->nsb[sb]) {
				uint64_t w = sb_when(tw, sb, 0, now);
				if (w > t) {
					t = w;
					why = CpiWaitMem;
				}
			}
	}
	if (ti->kind == KWgDepbar && tw->ngsb) {     /* WARPGROUP.DEPBAR.LE gsb0, N */
		uint64_t w = tsm_gsb_when(tw, ti->depbar_n, now);
		if (w > t) {
			t = w;
			why = CpiWaitTensor;
		}
	}
	*whyp = why;
	return t;
}

/* ---------------------------------------------------------------------------------------------
 * Issue.
 */
/* register-bank conflicts and the reuse cache (ir/banks.c): the bubble this instruction causes */
static unsigned
bank_bubble(TSm *s, TSub *u, TWarp *tw, const DIns *d, const TIns *ti)
{
	const SimTiming *t = s->L->t;
	unsigned hits = 0, conf = bank_simt_conflicts(&ti->bank, t->rf_banks, t->rf_reuse, &u->reuse,
	                                              tw->slot, CTRL_REUSE(d->ctrl), &hits);

	s->reuse_hits += hits;
	s->rf_conflicts += conf;
	return conf * t->rf_bank_bubble;
}


/* the hazard check of the read (control bits), then the banks */
static unsigned
simt_operand_bubbles(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now)
{
	const TLaunch *L = s->L;
	const TIns *ti = &L->ti[pc];

	if (L->hazard_check)
		thaz_read(s, tw, pc, now);
	return ti->bank.n ? bank_bubble(s, u, tw, &L->prog->ins[pc], ti) : 0;
}

/* control bits: the stall count, the yield bit, the counters the instruction increments, the
 * hazard block's producers; scoreboard: its destinations' ready cycles */
static void
simt_issue(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now, uint64_t done,
           uint64_t src_read)
{
	const TLaunch *L = s->L;
	const SimTiming *t = L->t;
	const DIns *d = &L->prog->ins[pc];
	const TIns *ti = &L->ti[pc];

	if (uses_bits(L, d)) {
		unsigned c = d->ctrl, stall = CTRL_STALL(c), wsb = CTRL_WSB(c), rsb = CTRL_RSB(c);
		tw->stall_until = now + (stall ? stall : 1);
		tw->yielded = 0;
		if (!CTRL_YIELD(c)) {
			if (tw->stall_until < now + 1 + t->yield_bubble)
				tw->stall_until = now + 1 + t->yield_bubble;
			tw->yielded = stall <= 1;
			u->greedy = NULL;
		} else {
			u->greedy = tw;
		}
		if (wsb < NSb)
			sb_push(tw, wsb, ti->kind == KLdgsts ? src_read : done, ti->cls, now);
		if (rsb < NSb)
			sb_push(tw, rsb, src_read, TcMem, now);
		if (L->hazard_check) {
			for (unsigned k = 0; k < ti->ndst; k++) {
				unsigned unit = ti->dst[k];
				uint32_t r = treg(tw, unit);
				/* a memory instruction's predicate (the global-or-not of a generic ATOM) is
				 * known at address translation: nvcc reads it 5 cycles later, unwaited */
				int pred = (unit >= UnitOfP && unit < UnitOfUR) || unit >= UnitOfUP;
				s->rready[r] = pred && ti->kind == KMem ? now + t->lat_int : done;
				s->rcls[r] = ti->cls;
			}
			if (ti->wide_lo_early)
				s->rready[treg(tw, ti->dst[0])] = done - 1;
			thaz_write(tw, ti, pc, now, stall);
		}
	} else {
		tw->stall_until = now + 1;
		tw->yielded = 0;
		u->greedy = tw;
		for (unsigned k = 0; k < ti->ndst; k++) {
			unsigned unit = ti->dst[k];
			uint32_t r = treg(tw, unit);
			/* a predicate of a fixed-latency producer reaches its consumers after lat_pred */
			int pred = (unit >= UnitOfP && unit < UnitOfUR) || unit >= UnitOfUP;
			s->rready[r] = pred && ti->kind == KAlu && ti->cls == TcFixed ? now + t->lat_pred
			                                                              : done;
			s->rcls[r] = ti->cls;
		}
		if (ti->wide_lo_early)
			s->rready[treg(tw, ti->dst[0])] = done - 1;
		/* in a mixed kernel no wait mask covers its results: the warp waits for them */
		for (unsigned k = 0; L->ctrl_mixed && k < ti->ndst; k++)
			if (tw->stall_until < s->rready[treg(tw, ti->dst[k])])
				tw->stall_until = s->rready[treg(tw, ti->dst[k])];
		/* the register sources of a store or LDGSTS may be overwritten once read */
		if (ti->kind == KLdgdepbar)
			sb_push(tw, 0, done, TcMem, now);
	}
}

static void
simt_stats(const TLaunch *L, SimTStats *st)
{
	for (uint32_t i = 0; i < L->nsm; i++) {
		const TSm *s = L->sms[i];
		if (!s)
			continue;
		st->hazards += s->hazards;
		st->rf_bank_conflicts += s->rf_conflicts;
		st->reuse_hits += s->reuse_hits;
	}
	thaz_collect(L, st);
	st->ctrl_mode = L->ctrl;
}

const SmModel sm_model_simt = {
	.name = "simt",
	.occupancy = simt_occupancy,
	.launch = simt_launch,
	.slot_sub = simt_slot_sub,
	.warp_start = simt_warp_start,
	.ready = simt_ready,
	.operand_bubbles = simt_operand_bubbles,
	.issue = simt_issue,
	.blocked = simt_blocked,
	.stats = simt_stats,
};
