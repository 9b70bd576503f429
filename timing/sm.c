/* sm.c: the generic SM core of the cycle-level model. An SM has sub-partitions (processing
 * blocks), each with a warp scheduler that issues at most one instruction per cycle from its
 * resident warps (GTO or loose round-robin), execution pipes with an initiation interval and an
 * L0 instruction cache. A warp may issue when its own conditions hold (TWarp.ready_at: its stall
 * count, the SM model's conditions (smmodel.h: control bits or a register scoreboard in the SIMT
 * model, simt.c), an instruction fetch) and its pipe (or the MIO) accepts. Issuing runs the
 * instruction through sim_step, so values are computed at issue; memory instructions are then
 * timed by smmem.c from the addresses they recorded, and the model records what the issue leaves
 * behind. Cycles in which a sub-partition does not issue are charged to the reason of its first
 * warp in scheduling order (the CPI stack). Time advances cycle by cycle while anything issues
 * and jumps to the next possible issue otherwise. Also here: the timing view of each
 * instruction (TIns: register units, pipe, latency), built once per launch. Where a warp slot
 * sits, a CTA's start and end, a CTA-wide release other than a barrier's, warps the model holds
 * and wake-ups after an issue are the SM model's (smmodel.h); the cycle loop has two copies, one
 * for models with a hook after every issue, so that the other calls and tests nothing there.
 */
#include "smmodel.h"
#include "async.h"
#include "mma.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>

const char *const cpi_name[NCpi] = {
#define CPI(e, key, meaning) [Cpi##e] = key,
#include "cpireasons.h"
#undef CPI
};

const char *const cpi_meaning[NCpi] = {
#define CPI(e, key, meaning) [Cpi##e] = meaning,
#include "cpireasons.h"
#undef CPI
};

/* ---------------------------------------------------------------------------------------------
 * The timing view of each instruction.
 */
static void
add_unit(uint16_t *v, uint8_t *n, unsigned cap, unsigned u)
{
	for (unsigned k = 0; k < *n; k++)
		if (v[k] == u)
			return;
	if (*n < cap)
		v[(*n)++] = (uint16_t)u;
}

/* the register units an operand names */
static void
opnd_units(const DOp *o, uint16_t *v, uint8_t *n, unsigned cap, int is_dst)
{
	unsigned cnt;

	switch (o->kind) {
	case DR:
		if (o->reg == RegRZ)
			return;
		cnt = o->n ? o->n : 1;
		if ((o->flags & DFWide) && cnt < 2)
			cnt = 2;
		for (unsigned k = 0; k < cnt && o->reg + k < RegRZ; k++)
			add_unit(v, n, cap, UnitR + o->reg + k);
		return;
	case DP:
		if (o->reg != RegPT)
			add_unit(v, n, cap, UnitOfP + o->reg);
		return;
	case DUR:
		if (o->reg == RegURZ)
			return;
		cnt = o->n ? o->n : 1;
		for (unsigned k = 0; k < cnt && o->reg + k < RegURZ; k++)
			add_unit(v, n, cap, UnitOfUR + o->reg + k);
		return;
	case DUP:
		if (o->reg != RegUPT)
			add_unit(v, n, cap, UnitOfUP + o->reg);
		return;
	case DMem:
	case DCBank:
		if (is_dst)
			return;
		if (!(o->flags & DFVreg) && o->reg < RegRZ) {   /* a V base has no unit of the warp */
			add_unit(v, n, cap, UnitR + o->reg);
			if (o->kind == DMem && (o->flags & DFWide) && o->reg + 1u < RegRZ)
				add_unit(v, n, cap, UnitR + o->reg + 1u);
		}
		if ((o->flags & DFUreg) && o->ureg < RegURZ) {
			add_unit(v, n, cap, UnitOfUR + o->ureg);
			if ((o->flags & DFUWide) && o->ureg + 1u < RegURZ)
				add_unit(v, n, cap, UnitOfUR + o->ureg + 1u);
		}
		return;
	default:
		return;
	}
}

static unsigned
div_up(unsigned a, unsigned b)
{
	return b ? (a + b - 1) / b : a;
}

/* a tensor-core instruction: its shape and types were decoded once (ir/mma.h, exec_tensor.c;
 * an unknown shape fails the load). The pipe is busy 2 m n k / (rate / sub-partitions) cycles at
 * the rate of its input type; the latency is its row's key scaled by the operand volume
 * m n k x bits(A) relative to HMMA.16816's, as nvcc's schedules do (lat_mma_key, ir/latency.c;
 * docs/calibration.md). A warpgroup MMA (HGMMA, ...: exec_gmma.c) is issued by each of the
 * warpgroup's four warps, one per sub-partition, each for its 16 rows: m = 16, N from aux2; it
 * completes its pipe time plus the tensor pipe's latency (lat_hmma) after issue
 * (docs/sim-wgmma.md). */
static void
tensor_timing(const TLaunch *L, const DIns *d, TIns *ti)
{
	const SimTiming *t = L->t;
	unsigned m = MMA_M(d->aux), n = MMA_N(d->aux), k = MMA_K(d->aux), aty = MMA_ATY(d->mod);
	unsigned rate, bits = mma_elem_bits(aty), wg = d->op >= OHGMMA && d->op <= OBGMMA;
	unsigned macs;
	uint64_t vol;

	if (wg) {
		m = 16;
		n = d->aux2;
	}
	macs = m * n * k;
	vol = (uint64_t)macs * bits;
	ti->cls = TcTensor;
	ti->lat = (uint16_t)simcfg_lat(t, wg ? LkHmma : lat_mma_key(optab[d->op].key, vol));
	if (!macs) {
		ti->ii = 1;
		return;
	}
	switch (d->op) {
	case OIMMA: rate = bits == 4 ? t->tensor_ops_i4 : t->tensor_ops_i8; break;
	case OIGMMA: rate = t->tensor_ops_i8; break;
	case OBMMA: case OBGMMA: rate = t->tensor_ops_b1; break;
	case ODMMA: rate = t->tensor_flops_f64; break;
	case OQMMA: case OQGMMA:
		rate = t->tensor_flops_f8 ? t->tensor_flops_f8 : 2 * t->tensor_flops_f16;
		break;
	default: rate = aty == ETF32 ? t->tensor_flops_tf32 : t->tensor_flops_f16; break;
	}
	rate = div_up(rate, L->nsub);
	ti->ii = (uint16_t)(rate ? div_up(2 * macs, rate) : 1);
	if (!ti->ii)
		ti->ii = 1;
	if (wg)
		ti->lat = (uint16_t)(ti->lat + ti->ii);
}

/* pipe, initiation interval, latency and class of a non-memory instruction: the pipe and its
 * width by the row's unit, the latency by the row's key (ir/ops.h) in the configuration, the
 * class by the row's: a scoreboard (TcLong) guards what LVar rows write */
static void
alu_timing(const TLaunch *L, const DIns *d, TIns *ti)
{
	const SimTiming *t = L->t;
	const OpInfo *o = &optab[d->op];
	unsigned lanes = 32, lat;
	uint8_t pipe = PMisc;

	switch (d->unit) {
	case UInt: pipe = PInt; lanes = t->int_lanes; break;
	case UFma: pipe = PFp32; lanes = t->fp32_lanes; break;
	case UHalf: pipe = PFp16; lanes = t->fp16_lanes; break;
	case UDouble: pipe = PFp64; lanes = t->fp64_lanes; break;
	case UMufu: pipe = PMufu; lanes = t->mufu_lanes; break;
	case UConv: pipe = PConv; lanes = t->conv_lanes; break;
	case UUniform: pipe = PUniform; lanes = 32 / (t->uniform_ii ? t->uniform_ii : 1); break;
	case UBranch: pipe = PBranch; lanes = 32 / (t->branch_ii ? t->branch_ii : 1); break;
	case UTensor:
		ti->pipe = PTensor;
		tensor_timing(L, d, ti);
		return;
	default: pipe = PMisc; break;     /* S2R, CS2R, VOTE, REDUX, POPC, ... */
	}
	lat = simcfg_lat(t, o->key);
	ti->pipe = pipe;
	ti->ii = (uint16_t)(lanes ? div_up(32, lanes) : 1);
	ti->lat = (uint16_t)(lat ? lat : 1);
	ti->cls = (uint8_t)(o->lat == LVar ? TcLong : TcFixed);
}

/* register unit u of ti's sources is read late cycles after issue */
static void
late_unit(TIns *ti, unsigned u, unsigned late)
{
	for (unsigned k = 0; k < ti->nsrc; k++)
		if (ti->src[k] == u)
			ti->src_late[k] = (uint8_t)late;
}

/* a store's data operand o */
static void
store_data_late(TIns *ti, const DOp *o)
{
	unsigned cnt = o->n ? o->n : 1;

	if (o->reg == RegRZ)
		return;
	if ((o->flags & DFWide) && cnt < 2)
		cnt = 2;
	for (unsigned k = 0; k < cnt && o->reg + k < RegRZ; k++)
		late_unit(ti, o->reg + k, StoreDataLate);
}

static void
depbar_opnds(const DIns *d, TIns *ti)
{
	int seen_sb = 0;

	ti->depbar_sb = 255;
	for (unsigned k = 0; k < d->nsrc; k++) {
		const DOp *o = &d->src[k];
		if (o->kind == DSbSet && !seen_sb) {
			ti->depbar_sb = (uint8_t)(o->reg < NSb ? o->reg : 0);
			seen_sb = 1;
		} else if (o->kind == DSbSet) {
			ti->depbar_mask = (uint8_t)(o->imm & 0x3f);
		} else if (o->kind == DImm) {
			ti->depbar_n = (uint8_t)(o->imm > 63 ? 63 : o->imm < 0 ? 0 : o->imm);
		}
	}
}

void
tins_build(TLaunch *L)
{
	const Prog *p = L->prog;

	L->ti = xmalloc((p->nins + 1) * sizeof *L->ti);
	memset(L->ti, 0, (p->nins + 1) * sizeof *L->ti);
	for (uint32_t pc = 0; pc <= p->nins; pc++) {
		const DIns *d = &p->ins[pc];
		TIns *ti = &L->ti[pc];
		unsigned flags = optab[d->op].flags;

		for (unsigned k = 0; k < d->nsrc; k++)
			opnd_units(&d->src[k], ti->src, &ti->nsrc, MaxTSrc, 0);
		for (unsigned k = 0; k < d->ndst; k++) {
			opnd_units(&d->dst[k], ti->dst, &ti->ndst, MaxTDst, 1);
			if (d->dst[k].kind == DMem || d->dst[k].kind == DCBank)
				opnd_units(&d->dst[k], ti->src, &ti->nsrc, MaxTSrc, 0);
		}
		if (d->guard >= 0)
			add_unit(ti->src, &ti->nsrc, MaxTSrc,
			         (d->guard_uniform ? UnitOfUP : UnitOfP) + (unsigned)d->guard);
		{   /* the sources that read banks (RZ is BankRZ: _Static_assert in tcore.h) */
			uint8_t bk[MaxSrc];
			uint16_t br[MaxSrc];
			for (unsigned k = 0; k < d->nsrc; k++) {
				const DOp *o = &d->src[k];
				bk[k] = o->kind == DR ? BankSrcR :
				        o->kind == DImm || o->kind == DCBank || o->kind == DUR ? BankSrcSlot
				                                                           : BankSrcOther;
				br[k] = o->reg;
			}
			bank_collect(bk, br, d->nsrc, &ti->bank);
		}
		if (d->op == ODEPBAR) {
			ti->kind = KDepbar;
			ti->pipe = PMisc;
			ti->ii = 1;
			ti->lat = 1;
			depbar_opnds(d, ti);
		} else if (d->op == OLDGDEPBAR) {
			ti->kind = KLdgdepbar;
			ti->pipe = PMio;
			ti->cls = TcMem;
			ti->ii = 1;
		} else if (d->op == OLDGSTS) {
			ti->kind = KLdgsts;
			ti->pipe = PMio;
			ti->cls = TcMem;
			ti->ii = 1;
		} else if (d->op == OWARPGROUP && d->aux == 1) {
			ti->kind = KWgDepbar;      /* WARPGROUP.DEPBAR.LE gsb0, N (exec_gmma.c) */
			ti->pipe = PMisc;
			ti->ii = 1;
			ti->lat = 1;
			ti->depbar_n = (uint8_t)(d->aux2 > 63 ? 63 : d->aux2);
		} else if (d->op == OMEMBAR) {
			ti->kind = KMembar;
			ti->pipe = PMio;
			ti->cls = TcMem;
			ti->ii = 1;
		} else if (d->unit == ULsu && (flags & (OFLoad | OFStore | OFAtomic))) {
			if ((flags & OFStore) && !(flags & (OFLoad | OFAtomic)))
				for (unsigned k = 0; k < d->nsrc; k++)
					if (d->src[k].kind == DR)
						store_data_late(ti, &d->src[k]);
			ti->kind = KMem;
			ti->pipe = PMio;
			ti->cls = TcMem;
			ti->ii = 1;
		} else if (d->unit == ULsu) {
			ti->kind = KMio;
			ti->pipe = PMio;
			ti->cls = TcLong;
			ti->ii = 1;
			ti->lat = (uint16_t)simcfg_lat(L->t, optab[d->op].key);   /* SHFL's, MATCH's, ... */
		} else {
			ti->kind = d->op >= OHGMMA && d->op <= OBGMMA ? KGmma : KAlu;
			alu_timing(L, d, ti);
			/* IMAD.WIDE writes its low half a cycle before the high half: nvcc's schedules
			 * read it after lat_imad - 1 */
			ti->wide_lo_early = (d->op == OIMAD || d->op == OIMUL) && d->ndst &&
			                    d->dst[0].kind == DR && d->dst[0].n == 2 && ti->lat > 1;
			/* and reads the high half of its 64-bit addend WideCLate cycles after the rest */
			if (ti->wide_lo_early && d->nsrc > 2 && d->src[2].kind == DR &&
			    d->src[2].reg < RegRZ - 1 && (d->src[2].n == 2 || (d->src[2].flags & DFWide)))
				late_unit(ti, d->src[2].reg + 1u, WideCLate);
		}
		if (ti->kind != KAlu && !ti->lat)
			ti->lat = 1;
	}
}

/* ---------------------------------------------------------------------------------------------
 * SMs.
 */
/* vector registers of an SM's storage (Sm.rf, and the scoreboard's R part before the warps'
 * own units): the SM's 2048, or more for a setmaxnreg kernel whose warps name registers past
 * REGCOUNT (LaunchCx.nreg_win: storage the hardware finds in the CTA's pool) */
static size_t
sm_nvreg(const TLaunch *L)
{
	size_t n = (size_t)L->ctas_per_sm * L->lc.nwarp * L->lc.nreg_win;

	return L->lc.fiber || n < SmVRegs ? SmVRegs : n;
}

TSm *
tsm_new(TLaunch *L, unsigned id)
{
	const SimTiming *t = L->t;
	uint32_t nweft = L->lc.nweft ? L->lc.nweft : L->lc.nwarp, nslot = L->ctas_per_sm * nweft;
	uint32_t nper[MaxSub] = {0}; /* each sub-partition's slots */
	size_t nunit;
	TSm *s = xmalloc(sizeof *s);  /* xmalloc's memory is zeroed: so is everything below */

	s->L = L;
	s->id = id;
	s->x = L->lc.x;
	s->x.fault = &s->fault;
	s->x.sm = &s->sm;
	s->x.mlog = &s->mlog;
	s->x.timing = s;
	s->x.smid = id;
	s->x.nsm = L->cfg->nsm;
	s->sm.rf = xmalloc(sm_nvreg(L) * sizeof *s->sm.rf);
	sim_async_timing(&s->sm, t->lat_tma, t->l2_sm_bytes_per_clk);
	s->mem = smmem_new(L->mem, L->cfg, id);
	s->tw = xmalloc(nslot * sizeof *s->tw);
	for (uint32_t k = 0; k < nslot; k++) {
		TWarp *tw = &s->tw[k];
		tw->slot = k;
		tw->sub = L->model->slot_sub(L, k);
		nper[tw->sub]++;
	}
	nunit = sm_nvreg(L) + UnitOfP + (size_t)nslot * NWarpUnit;
	s->rready = xmalloc(nunit * sizeof *s->rready);
	s->rcls = xmalloc(nunit);
	for (uint32_t p = 0; p < L->nsub; p++) {
		TSub *u = &s->sub[p];
		u->warps = xmalloc(nper[p] * sizeof *u->warps);
		u->ready = xmalloc(nper[p] * sizeof *u->ready);
		u->why = xmalloc(nper[p]);
		ifetch_init(u, t);
		bank_reuse_clear(&u->reuse);
	}
	s->cta = xmalloc(L->ctas_per_sm * sizeof *s->cta);
	for (uint32_t c = 0; c < L->ctas_per_sm; c++) {
		TCta *tc = &s->cta[c];
		tc->c.warp = xmalloc(nweft * sizeof *tc->c.warp);
		tc->c.smem = xmalloc(L->lc.smem_size ? L->lc.smem_size : 1);
		tc->c.lmem = xmalloc(L->prog->stack_size ? (size_t)L->prog->stack_size *
		                     nweft * WarpSize : 1);
		tc->rbase = c * L->lc.nwarp * L->lc.nreg_win;
		tc->slot0 = c * nweft;
		tc->sm = s;
	}
	if (L->model->sm_new)
		L->model->sm_new(s);
	s->nfree = L->ctas_per_sm;
	s->ev_limit = 0;
	/* the CPI stack by instruction: calloc'd, so the pages of instructions never charged are
	 * never touched */
	if (L->pc_stats)
		s->pc_cycles = xmalloc((size_t)L->prog->nins * NCpi * sizeof *s->pc_cycles);
	return s;
}

void
tsm_free(TSm *s)
{
	TLaunch *L;
	uint32_t nslot;

	if (!s)
		return;
	L = s->L;
	nslot = L->ctas_per_sm * (L->lc.nweft ? L->lc.nweft : L->lc.nwarp);
	for (uint32_t k = 0; k < nslot; k++)
		thaz_warp_free(&s->tw[k].hz);
	free(s->rready);
	free(s->rcls);
	thaz_sm_free(&s->hz);
	for (uint32_t p = 0; p < L->nsub; p++) {
		free(s->sub[p].warps);
		free(s->sub[p].ready);
		free(s->sub[p].why);
		ifetch_free(&s->sub[p]);
	}
	for (uint32_t c = 0; c < L->ctas_per_sm; c++) {
		free(s->cta[c].c.warp);
		free(s->cta[c].c.smem);
		free(s->cta[c].c.lmem);
	}
	smmem_free(s->mem);
	free(s->pc_cycles);
	if (L->model->sm_free)
		L->model->sm_free(s);
	free(s->cta);
	free(s->tw);
	free(s->sm.rf);
	sim_async_free(&s->sm);
	free(s->ev);
	free(s);
}

/* ---------------------------------------------------------------------------------------------
 * Readiness of a warp's next instruction.
 */
static void
fetch_check(TSm *s, TWarp *tw, const DIns *d, uint64_t now, uint64_t *t, uint8_t *why)
{
	TSub *u = &s->sub[tw->sub];
	uint64_t at;

	if (!u->nlines)
		return;
	at = ifetch(u, s->L->t, d->addr, now);
	if (at > now && at > *t) {
		*t = at;
		*why = CpiFetch;
	}
}

/* when tw's next instruction may issue: its stall count, the model's conditions, the fetch */
static void
compute_ready(TSm *s, TWarp *tw, uint64_t now)
{
	const TLaunch *L = s->L;
	const DIns *d = &L->prog->ins[tw->next_pc];
	uint64_t t = tw->stall_until;
	uint8_t why = tw->yielded ? CpiYield : CpiStall;

	t = L->model->ready(s, tw, now, t, &why);
	fetch_check(s, tw, d, now, &t, &why);
	tsm_set_ready(s, tw, t, why);
}

/* ---------------------------------------------------------------------------------------------
 * Trace spans.
 */
static void
trace_emit(TSm *s, TWarp *tw, uint64_t start, uint64_t end, unsigned why, uint32_t pc,
           uint32_t count)
{
	TraceEv *e;

	if (end <= start)
		return;
	if (s->nev >= s->ev_limit) {
		s->ev_dropped++;
		return;
	}
	if (s->nev == s->cev) {
		s->cev = s->cev ? 2 * s->cev : 1024;
		s->ev = xrealloc(s->ev, s->cev * sizeof *s->ev);
	}
	e = &s->ev[s->nev++];
	e->start = start;
	e->dur = end - start;
	e->sm = s->id;
	e->warp = tw->slot;
	e->cta = (uint32_t)tw->tc->linear;
	e->reason = (uint16_t)why;
	e->pad = 0;
	e->pc = pc;
	e->count = count;
}

static void
trace_issue(TSm *s, TWarp *tw, uint64_t now, uint32_t addr)
{
	if (tw->tr_open && tw->tr_last + 1 == now) {
		tw->tr_last = now;
		tw->tr_count++;
		return;
	}
	if (tw->tr_open) {
		trace_emit(s, tw, tw->tr_start, tw->tr_last + 1, CpiIssue, tw->tr_pc, tw->tr_count);
		/* the stall span: the warp waited to issue the instruction it issues now */
		trace_emit(s, tw, tw->tr_last + 1, now, tw->tr_why, addr, 0);
	} else {
		/* the first issue: the wait since the CTA started (fetch, stall count) */
		trace_emit(s, tw, tw->tr_born, now, tw->tr_why, addr, 0);
	}
	tw->tr_open = 1;
	tw->tr_start = tw->tr_last = now;
	tw->tr_pc = addr;
	tw->tr_count = 1;
}

static void
trace_close(TSm *s, TWarp *tw)
{
	if (tw->tr_open)
		trace_emit(s, tw, tw->tr_start, tw->tr_last + 1, CpiIssue, tw->tr_pc, tw->tr_count);
	tw->tr_open = 0;
}

/* ---------------------------------------------------------------------------------------------
 * CTAs.
 */
static void
sub_add(TSub *u, TWarp *tw)
{
	tw->idx = u->n;            /* launched last: youngest */
	tw->in_sub = 1;
	u->warps[u->n] = tw;
	u->ready[u->n] = tw->ready_at;
	u->why[u->n] = tw->why;
	u->n++;
	u->wake = 0;
}

static void
sub_remove(TSub *u, TWarp *tw)
{
	uint32_t k = 0;

	while (k < u->n && u->warps[k] != tw)
		k++;
	if (k == u->n)
		return;
	memmove(&u->warps[k], &u->warps[k + 1], (u->n - k - 1) * sizeof *u->warps);
	memmove(&u->ready[k], &u->ready[k + 1], (u->n - k - 1) * sizeof *u->ready);
	memmove(&u->why[k], &u->why[k + 1], (u->n - k - 1) * sizeof *u->why);
	u->n--;
	for (uint32_t j = k; j < u->n; j++)
		u->warps[j]->idx = j;
	tw->in_sub = 0;
	if (u->greedy == tw)
		u->greedy = NULL;
	if (u->rr > k)
		u->rr--;
	u->wake = 0;
}

/* warp slot tw takes functional warp w of CTA tc (a new CTA's warp, or a weft SETFIBERNUM
 * created): its timing state reset, the slot, sub-partition and hazard block kept, stalled
 * until the given cycle, next_pc peeked */
static void
tw_start(TSm *s, TCta *tc, TWarp *tw, Warp *w, uint64_t stall_until)
{
	THazWarp hz = tw->hz;
	uint32_t slot = tw->slot, sub = tw->sub;

	memset(tw, 0, sizeof *tw);
	tw->hz = hz;
	tw->slot = slot;
	tw->sub = sub;
	tw->rbase = w->rbase;
	tw->ubase = sm_nvreg(s->L) + slot * NWarpUnit;
	tw->w = w;
	s->L->model->warp_start(s, tw);
	tw->tc = tc;
	tw->stall_until = stall_until;
	tw->next_pc = sim_peek(w);
}

int
tsm_warp_begin(TSm *s, TCta *tc, TWarp *tw, Warp *w, uint64_t stall_until, uint64_t now,
               unsigned why)
{
	tw_start(s, tc, tw, w, stall_until);
	if (tw->next_pc >= PeekBlocked)
		return 0;          /* an empty warp cannot happen: nthreads > 32 * k */
	compute_ready(s, tw, now);
	if (why != CpiStall && tw->why == CpiStall)
		tsm_set_ready(s, tw, tw->ready_at, why);
	tw->tr_born = now;
	tw->tr_why = tw->why;
	tc->live++;
	s->nlive++;
	sub_add(&s->sub[tw->sub], tw);
	return 1;
}

TCta *
tsm_start_cta(TSm *s, uint64_t linear, uint64_t start)
{
	TLaunch *L = s->L;
	TCta *tc = NULL;

	for (uint32_t c = 0; c < L->ctas_per_sm; c++)
		if (!s->cta[c].busy) {
			tc = &s->cta[c];
			break;
		}
	if (!tc)
		return NULL;
	if (tc->freed_at && tc->freed_at + L->t->cta_launch_latency > start)
		start = tc->freed_at + L->t->cta_launch_latency;
	tc->busy = 1;
	tc->linear = linear;
	tc->live = 0;
	s->nfree--;
	s->x.now = start;
	cta_start(&L->lc, &s->x, &tc->c, linear, tc->rbase);
	s->st.ctas++;
	for (uint32_t k = 0; k < tc->c.nwarp; k++)
		tsm_warp_begin(s, tc, &s->tw[tc->slot0 + k], &tc->c.warp[k], start, start, CpiStall);
	if (L->model->cta_start)
		L->model->cta_start(s, tc, start);
	return tc;
}

void
tsm_cta_free(TSm *s, TCta *tc, uint64_t now)
{
	tc->busy = 0;
	tc->freed_at = now + 1;
	s->nfree++;
	if (s->L->model->cta_end)
		s->L->model->cta_end(s, tc, now);
}

void
tsm_warp_done(TSm *s, TWarp *tw, uint64_t now)
{
	TCta *tc = tw->tc;

	if (s->L->trace)
		trace_close(s, tw);
	sub_remove(&s->sub[tw->sub], tw);
	tw->next_pc = PeekDone;
	s->nlive--;
	/* the kernel is complete when its warps have exited and their memory operations (stores,
	 * reductions) have completed */
	if (now + 1 > s->last_done)
		s->last_done = now + 1;
	if (tw->mem_done > s->last_done)
		s->last_done = tw->mem_done;
	if (--tc->live == 0) {
		uint64_t async = sim_async_drain(&s->x, now, &tc->c);  /* its copies in flight */
		if (async > s->last_done)
			s->last_done = async;
		if (tc->c.peer)
			tcl_cta_done(tc, now);    /* the slot is held until its cluster has ended */
		else
			tsm_cta_free(s, tc, now);
	}
}

void
tsm_warp_wake(TSm *s, TWarp *tw, uint64_t now, uint64_t until, unsigned why)
{
	if (tw->stall_until < until)
		tw->stall_until = until;
	tw->yielded = 0;
	compute_ready(s, tw, now);
	if (tw->why == CpiStall)
		tsm_set_ready(s, tw, tw->ready_at, why);
	s->sub[tw->sub].wake = 0;
}

/* a CTA barrier released warps: those that can run again are ready after the barrier latency
 * lat (a warp the model holds stays held) */
void
tsm_barrier_released(TSm *s, TCta *tc, uint64_t now, uint32_t lat)
{
	for (uint32_t k = 0; k < tc->c.nwarp; k++) {
		TWarp *tw = &s->tw[tc->slot0 + k];
		if (tw->next_pc != PeekBlocked || tw->held)
			continue;
		tw->next_pc = sim_peek(tw->w);
		if (tw->next_pc == PeekBlocked)
			continue;
		if (tw->next_pc == PeekDone) {
			tsm_warp_done(s, tw, now);
			continue;
		}
		tsm_warp_wake(s, tw, now, now + lat, CpiBarrier);
	}
}

uint64_t
tsm_next_event(const TSm *s)
{
	uint64_t ev = TNever;

	for (uint32_t p = 0; p < s->L->nsub; p++) {
		const TSub *u = &s->sub[p];
		for (uint32_t k = 0; k < u->n; k++)
			ev = u->ready[k] < ev ? u->ready[k] : ev;
	}
	return ev;
}

/* a CTA waiting to grow at SETFIBERNUM (Cta.fnum_wait, the FIBER SM) is released by another CTA
 * of its SM ending: stuck only when every busy CTA of the SM waits so */
static int
grow_waits(const TSm *s, const TCta *tc)
{
	if (!tc->c.fnum_wait)
		return 0;
	for (uint32_t c = 0; c < s->L->ctas_per_sm; c++)
		if (s->cta[c].busy && !s->cta[c].c.fnum_wait)
			return 1;
	return 0;
}

TCta *
tsm_stuck(TSm *s)
{
	for (uint32_t c = 0; c < s->L->ctas_per_sm; c++) {
		TCta *tc = &s->cta[c];
		int all = tc->busy && tc->live && !grow_waits(s, tc);
		for (uint32_t k = 0; all && k < tc->c.nwarp; k++) {
			const TWarp *tw = &s->tw[tc->slot0 + k];
			if (tw->next_pc != PeekDone && tw->next_pc != PeekBlocked)
				all = 0;
		}
		if (all)
			return tc;
	}
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Issue.
 */

/* NANOSLEEP's duration in cycles (its operand in nanoseconds, for the warp's first live lane;
 * PTX bounds it to 1 ms) */
static uint64_t
sleep_cycles(TSm *s, Exec *x, const DIns *d)
{
	uint32_t tmp[WarpSize], live = x->w->present & ~x->w->exited;
	const uint32_t *v;
	uint64_t ns;

	if (!live || (d->src[0].kind != DImm && d->src[0].kind != DR && d->src[0].kind != DCBank &&
	              d->src[0].kind != DUR))
		return 0;
	v = sim_src(x, &d->src[0], tmp);
	ns = v[__builtin_ctz(live)];
	if (ns > 1000000)
		ns = 1000000;
	return ns * s->L->t->clock_mhz / 1000;
}

/* the wgmma groups of a warp (docs/sim-wgmma.md): an HGMMA completing at done joins the open
 * group; the one with gsb0 closes it, which WARPGROUP.DEPBAR.LE gsb0, N then counts */
static void
gsb_issue(TWarp *tw, uint64_t done, int close, uint64_t now)
{
	if (done > tw->gsb_open)
		tw->gsb_open = done;
	if (!close)
		return;
	if (tw->ngsb == SbCap)                /* the oldest has surely ended: drop the pending ones */
		(void)tsm_gsb_when(tw, SbCap, now);
	if (tw->ngsb < SbCap)
		tw->gsb[tw->ngsb++] = tw->gsb_open;
	tw->gsb_open = 0;
}

uint64_t
tsm_gsb_when(TWarp *tw, unsigned le, uint64_t now)
{
	uint64_t w = now;
	uint8_t n = 0;

	for (uint8_t j = 0; j < tw->ngsb; j++)  /* prune the groups that have ended */
		if (tw->gsb[j] > now)
			tw->gsb[n++] = tw->gsb[j];
	tw->ngsb = n;
	if (n <= le)
		return now;
	/* groups end in issue order (one pipe, in order): the (n - le)-th ends last of those that
	 * must end; take the largest of the first n - le to be safe */
	for (unsigned j = 0; j < n - le; j++)
		w = tw->gsb[j] > w ? tw->gsb[j] : w;
	return w;
}

/* tw issues its next instruction at cycle now: it runs (sim_step), its pipe, memory timing and
 * the model's issue, then what the warp does next. hooked, a constant in each copy of the cycle
 * loop: the model's hooks after every issue (SmModel.issued, .hold) */
static inline __attribute__((always_inline)) void
issue(TSm *s, TSub *u, TWarp *tw, uint64_t now, const int hooked)
{
	TLaunch *L = s->L;
	const SimTiming *t = L->t;
	uint32_t pc = tw->next_pc;
	const DIns *d = &L->prog->ins[pc];
	const TIns *ti = &L->ti[pc];
	Exec *x = &s->x;
	uint64_t done = now + ti->lat, src_read = now + 1, sleep = 0;
	unsigned bubble;
	int r;

	bubble = L->model->operand_bubbles(s, u, tw, pc, now);
	u->busy_until = now + 1 + bubble;
	u->bubble_pc = pc;
	tw->last_pc = pc;

	s->mlog.n = 0;
	s->mlog.warp = tw->slot;
	x->now = now;
	x->w = tw->w;
	x->cta = &tw->tc->c;
	if (d->op == ONANOSLEEP && d->nsrc)
		sleep = sleep_cycles(s, x, d);
	{
		uint64_t before = x->nthread_instr;
		r = L->step(x);
		s->thread_instr += x->nthread_instr - before;
	}
	s->st.warp_instructions++;
	if (L->trace)
		trace_issue(s, tw, now, d->addr);
	if (r == StepFault)
		return;

	switch (ti->kind) {
	case KMem:
	case KLdgsts:
		smmem_mio_take(s->mem, tw->sub, now);
		if (s->mlog.n) {
			MemTiming mt;
			smmem_access(s->mem, &s->mlog, now, &mt);
			done = mt.done;
			src_read = mt.src_read;
			if (mt.drained > tw->mem_done)
				tw->mem_done = mt.drained;
			if (tw->tc->c.peer) {     /* distributed shared memory (cluster.c) */
				uint64_t rd = tcl_remote(s, tw->tc, smmem_mio_start(s->mem));
				done = rd > done ? rd : done;
			}
		} else {
			done = src_read = smmem_mio_start(s->mem) + 1;
		}
		if (done > tw->mem_done)
			tw->mem_done = done;
		if (ti->kind == KLdgsts) {
			if (done > tw->ldgsts_done)
				tw->ldgsts_done = done;
		}
		break;
	case KMio:
		smmem_mio_take(s->mem, tw->sub, now);
		done = smmem_mio_start(s->mem) + ti->lat;
		src_read = smmem_mio_start(s->mem) + t->lat_src_read;
		break;
	case KMembar:
		done = tw->mem_done > now + 1 ? tw->mem_done : now + 1;
		break;
	case KLdgdepbar:
		done = tw->ldgsts_done > now + 1 ? tw->ldgsts_done : now + 1;
		tw->ldgsts_done = 0;
		break;
	case KGmma:
		gsb_issue(tw, done, d->mod & MMA_GROUP_END, now);
		break;
	default:
		break;
	}
	if (x->async_done) {       /* a bulk group's commit: its copies complete */
		if (x->async_done > src_read)
			src_read = x->async_done;
		x->async_done = 0;
	}
	if (ti->pipe != PMio)
		u->pipe_free[ti->pipe] = now + ti->ii;
	if (ti->pipe == PTensor)
		s->tensor_busy += ti->ii;

	L->model->issue(s, u, tw, pc, now, done, src_read);

	if (x->wake_at) {          /* a failed try_wait sleeps */
		if (x->wake_at > now + sleep)
			sleep = x->wake_at - now;
		x->wake_at = 0;
	}
	if (sleep && tw->stall_until < now + sleep)
		tw->stall_until = now + sleep;
	tw->next_pc = sim_peek(tw->w);
	if (x->bar_progress) {
		x->bar_progress = 0;
		if (d->op == OUCGABAR_ARV && tw->tc->c.peer)
			tcl_barrier(tw->tc, now);   /* the cluster's SMs (cluster.c) */
		else if (!L->model->released || !L->model->released(s, tw->tc, tw, now))
			tsm_barrier_released(s, tw->tc, now, t->lat_bar);
	}
	if (tw->next_pc == PeekDone) {
		tsm_warp_done(s, tw, now);
	} else if (tw->next_pc == PeekBlocked) {
		tsm_set_ready(s, tw, TNever, L->model->blocked(s, tw, now));
		tw->tr_why = tw->why;
	} else if (hooked && ti->hold) {
		L->model->hold(s, tw, now);
	} else {
		compute_ready(s, tw, now);
		if (sleep && tw->ready_at == tw->stall_until)
			tsm_set_ready(s, tw, tw->ready_at, CpiSync);
		tw->tr_why = tw->why;
	}
	if (hooked)
		L->model->issued(s, now);
}

/* one cycle of sub-partition u: issue if a warp can; else the reason and when to look again */
static inline __attribute__((always_inline)) unsigned
sub_cycle(TSm *s, TSub *u, unsigned p, uint64_t now, uint64_t *wake, uint32_t *wpc,
          const int hooked)
{
	const TLaunch *L = s->L;
	uint64_t next = TNever;
	int why = -1;
	uint32_t n = u->n;

	*wpc = NoPc;
	if (!n) {
		*wake = TNever;
		return CpiIdle;
	}
	if (u->busy_until > now) {
		*wake = u->busy_until;
		*wpc = u->bubble_pc;
		return CpiBankConflict;
	}
	if (u->wake > now) {
		*wake = u->wake;
		*wpc = u->wake_pc;
		return u->wake_why;
	}
	for (uint32_t i = 0; i <= n; i++) {
		uint32_t k;            /* index in u->warps of the candidate */
		TWarp *tw;
		const TIns *ti;
		uint64_t at;

		if (L->t->sched_policy == SchedGTO) {
			/* the greedy warp, then the others oldest first */
			if (i == 0) {
				if (!u->greedy)
					continue;
				k = u->greedy->idx;
			} else {
				k = i - 1;
				if (u->greedy && k == u->greedy->idx)
					continue;
			}
		} else {
			if (i == n)
				break;
			k = (u->rr + i) % n;
		}
		if (u->ready[k] > now) {
			if (u->ready[k] < next)
				next = u->ready[k];
			if (why < 0) {
				why = u->why[k];
				tw = u->warps[k];     /* a blocked warp waits at what it issued last */
				*wpc = tw->next_pc < L->prog->nins ? tw->next_pc : tw->last_pc;
			}
			continue;
		}
		tw = u->warps[k];
		ti = &L->ti[tw->next_pc];
		if (ti->pipe == PMio) {
			at = smmem_mio_ready(s->mem, p, now);
			if (at > now) {
				if (at < next)
					next = at;
				if (why < 0) {
					why = CpiMemThrottle;
					*wpc = tw->next_pc;
				}
				continue;
			}
		} else if (u->pipe_free[ti->pipe] > now) {
			at = u->pipe_free[ti->pipe];
			if (at < next)
				next = at;
			if (why < 0) {
				why = CpiPipe;
				*wpc = tw->next_pc;
			}
			continue;
		}
		if (L->t->sched_policy == SchedLRR)
			u->rr = k + 1;
		*wpc = tw->next_pc;
		issue(s, u, tw, now, hooked);
		u->wake = 0;
		return CpiIssue;
	}
	if (why < 0)
		why = CpiIdle;
	u->wake = next;
	u->wake_why = (uint8_t)why;
	u->wake_pc = *wpc;
	*wake = next;
	return (unsigned)why;
}

/* the cycle loop (tsm_run); hooked: as for issue */
static inline __attribute__((always_inline)) void
run_cycles(TSm *s, uint64_t end, const int hooked)
{
	TLaunch *L = s->L;
	uint32_t nsub = L->nsub;

	while (s->now < end) {
		uint64_t now = s->now, next = end, step;
		unsigned why[MaxSub];
		uint32_t wpc[MaxSub];
		int issued = 0;

		if (!s->nlive) {
			for (uint32_t p = 0; p < nsub; p++)
				s->sub[p].cpi[CpiIdle] += end - now;
			s->now = end;
			break;
		}
		for (uint32_t p = 0; p < nsub; p++) {
			uint64_t wake = TNever;
			why[p] = sub_cycle(s, &s->sub[p], p, now, &wake, &wpc[p], hooked);
			if (why[p] == CpiIssue)
				issued = 1;
			else if (wake < next)
				next = wake;
			if (s->fault.kind != FaultNone) {
				s->now = now + 1;
				return;
			}
		}
		step = issued || next <= now ? 1 : next - now;
		for (uint32_t p = 0; p < nsub; p++) {
			s->sub[p].cpi[why[p]] += step;
			if (wpc[p] < s->L->prog->nins && s->pc_cycles)   /* NoPc and stale PCs: none */
				s->pc_cycles[(size_t)wpc[p] * NCpi + why[p]] += step;
		}
		s->st.busy_cycles += step;
		s->now = now + step;
	}
}

static void
run_plain(TSm *s, uint64_t end)
{
	run_cycles(s, end, 0);
}

static void
run_hooked(TSm *s, uint64_t end)
{
	run_cycles(s, end, 1);
}

void
tsm_run(TSm *s, uint64_t end)
{
	if (s->L->model->issued)
		run_hooked(s, end);
	else
		run_plain(s, end);
}
