/* exec_sync.c: Hopper's mbarrier and bulk copies as nvcc 13 emits them for sm_90a: SYNCS.EXCH.64
 * (mbarrier.init), SYNCS.ARRIVE.TRANS64.* (arrive, arrive with a count, arrive_drop, expect_tx,
 * complete_tx), SYNCS.PHASECHK.TRANS64[.TRYWAIT] (test_wait, try_wait, with parity or a state),
 * SYNCS.CCTL.IV (inval), UBLKCP (cp.async.bulk global <-> shared) and UTMACMDFLUSH (bulk
 * commit_group). The mbarrier word and the pending copies are async.c's; docs/sim.md.
 */
#include "async.h"

#include <string.h>

/* SYNCS.ARRIVE.TRANS64 forms: arrivals and transaction bytes (mod) */
enum {
	ArvOne = 1 << 0,       /* A1..: one arrival */
	ArvReg = 1 << 1,       /* AR..: the register operand is the arrival count */
	TxReg = 1 << 2,        /* ..TR: the register operand is expect_tx bytes */
	TxDone = 1 << 3,       /* ..TX: the register operand is complete_tx bytes */
	ArvDrop = 1 << 4,      /* .OPTOUT: arrive_drop */
	PhTry = 1 << 5,        /* PHASECHK.TRYWAIT */
};
enum { MbarRetry = 32 };   /* timing: cycles a failed try_wait sleeps when nothing is in flight
                              (an assumption: docs/sim-timing.md, "Asynchronous copies") */

/* a shared::cta or shared::cluster address (a CTA's rank in bits 24 and up: nvcc's
 * ULEA UR, SR_CgaCtaId, off, 0x18) of a copy's operand as an offset in the issuing CTA's shared
 * memory; UINT64_MAX after a fault. A copy's shared operands are the issuing CTA's (another
 * rank's, multicast included, is not modelled yet: docs/sim-cluster.md). */
static uint64_t
sh_off(Exec *x, uint64_t a, unsigned lane)
{
	const Cta *c = x->cta;

	if (a >> 24 == 0)
		return a;
	if (c->peer && a >> 24 == c->rank)
		return a & 0xffffffu;
	if (c->peer)
		sim_fault(x, FaultOOB, lane, "shared::cluster address 0x%llx names CTA rank %llu: a "
		          "bulk copy or TMA operand in another CTA of the cluster is not supported",
		          (unsigned long long)a, (unsigned long long)(a >> 24));
	else
		sim_fault(x, FaultOOB, lane, "shared::cluster address 0x%llx names CTA rank %llu of "
		          "a cluster of one CTA", (unsigned long long)a, (unsigned long long)(a >> 24));
	return UINT64_MAX;
}

/* the 8-byte mbarrier at memory operand o for lane; NULL after a fault. In an explicit cluster
 * it may be another CTA's (mbarrier.arrive.shared::cluster): sim_shared resolves the rank, and
 * the owner's mbar_epoch moves so that its deadlock check sees the change. */
static uint8_t *
mbar_at(Exec *x, const DOp *o, unsigned lane)
{
	uint64_t a = sim_addr(x, o, lane) & 0xffffffffu;
	Cta *c = x->cta;

	if (!c->peer) {
		a = sh_off(x, a, lane);
		return a == UINT64_MAX ? NULL : sim_shared(x, a, 8, lane, 1);
	}
	if (a >> 24 < c->nrank && c->peer[a >> 24] != c)
		c->peer[a >> 24]->mbar_epoch++;
	return sim_shared_cluster(x, a, 8, lane, 1);
}

/* the low or high word (hi) of a 64-bit source: a register pair or uniform pair */
static uint32_t
src_word(Exec *x, const DOp *o, unsigned lane, unsigned hi)
{
	if (o->kind == DR)
		return o->reg == RegRZ ? 0 : sim_vreg(x, o, hi)[lane];
	if (o->kind == DUR)
		return o->reg == RegURZ || o->reg + hi >= RegURZ ? 0 : x->w->ur[o->reg + hi];
	return hi ? 0 : (uint32_t)o->imm;
}

/* write the 64-bit values v[lane] to a register pair (RZ: nothing); URZ only for a uniform */
static void
dst64(Exec *x, const DOp *o, const uint64_t v[WarpSize], uint32_t mask)
{
	uint32_t lo[WarpSize], hi[WarpSize];
	DOp r = *o;

	if (o->kind != DR || o->reg == RegRZ)
		return;
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		lo[k] = (uint32_t)v[k];
		hi[k] = (uint32_t)(v[k] >> 32);
	}
	r.n = 1;
	r.flags &= (uint16_t)~DFWide;
	sim_dst(x, &r, lo, mask);
	r.reg++;
	sim_dst(x, &r, hi, mask);
}

/* SYNCS.EXCH.64 d, [addr], s: a 64-bit exchange in shared memory (nvcc's mbarrier.init) */
static void
ex_exch(Exec *x, const DIns *d, uint32_t mask)
{
	uint64_t old[WarpSize];

	sim_async_settle(x);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = mbar_at(x, &d->src[0], lane);
		uint64_t v = src_word(x, &d->src[1], lane, 0) |
		             (uint64_t)src_word(x, &d->src[1], lane, 1) << 32;
		if (!p)
			return;
		memcpy(&old[lane], p, 8);
		memcpy(p, &v, 8);
	}
	x->cta->mbar_epoch++;
	dst64(x, &d->dst[0], old, mask);
}

/* SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT].{A1T0,ART0,A1TR,A0TR,A0TX} d, [addr], s: each lane in
 * turn; d gets the state before its arrival (the phase test_wait compares) */
static void
ex_arrive(Exec *x, const DIns *d, uint32_t mask)
{
	uint64_t old[WarpSize];

	sim_async_settle(x);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = mbar_at(x, &d->src[0], lane);
		uint32_t r = src_word(x, &d->src[1], lane, 0);
		int err;

		if (!p)
			return;
		memcpy(&old[lane], p, 8);
		if (d->mod & (ArvOne | ArvReg))
			err = mbar_arrive(x, p, lane, d->mod & ArvReg ? r : 1,
			                  d->mod & TxReg ? (int64_t)r : 0, !!(d->mod & ArvDrop));
		else
			err = mbar_tx(x, p, lane, d->mod & TxDone ? -(int64_t)r : (int64_t)r);
		if (err)
			return;
	}
	dst64(x, &d->dst[0], old, mask);
}

static void ex_phasechk(Exec *x, const DIns *d, uint32_t mask);

/* a warp spins on its failed try_wait: it has not moved past it (its next instruction is the
 * try_wait, the retry branch after it, or another try_wait) */
static int
spinning(const Exec *x, const Warp *w)
{
	uint32_t pc = sim_peek(w);
	const DIns *n;

	if (w == x->w || pc == w->mbar_pc || pc == w->mbar_pc + 1)
		return 1;
	if (pc >= x->prog->nins)
		return 0;
	n = &x->prog->ins[pc];
	return (n->exec == ex_phasechk || (n->exec == sim_window_exec &&
	        x->prog->win_exec[pc] == ex_phasechk)) && (n->mod & PhTry);
}

/* every warp of the CTA either spins in a try_wait that failed with no barrier changed since, or
 * has every live lane blocked (BAR, BSYNC, WARPSYNC), and no copy of the CTA is in flight:
 * nothing can complete a phase, so the wait is a deadlock (a fault now rather than a spin until
 * the watchdog). 1 after the fault */
static int
stuck(Exec *x, const DIns *d)
{
	const Cta *c = x->cta;
	const SimAsync *a = x->sm->async;

	if (c->nrank > 1)          /* another CTA of the cluster may arrive: the driver's no-progress
	                              check and the watchdog judge a cluster */
		return 0;
	for (uint32_t k = 0; a && k < a->n; k++)
		if (a->q[k].cta == c)
			return 0;
	for (uint32_t k = 0; k < c->nwarp; k++) {
		const Warp *w = &c->warp[k];
		uint32_t live = w->present & ~w->exited;
		uint32_t blocked = w->wait_bar | w->wait_bsync | w->wait_warpsync;
		if (!live || !(live & ~blocked))
			continue;
		if (w->mbar_fail != c->mbar_epoch + 1 || (live & ~blocked & ~w->mbar_lanes) ||
		    !spinning(x, w))
			return 0;
	}
	sim_fault(x, FaultDeadlock, (unsigned)__builtin_ctz(x->w->mbar_lanes), "every warp of CTA "
	          "(%u,%u,%u) waits on an mbarrier phase (try_wait at 0x%04x and others) or a "
	          "barrier, and no arrival or copy in flight can complete one", c->ctaid[0],
	          c->ctaid[1], c->ctaid[2], d->addr);
	return 1;
}

/* SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [addr], s: P where the barrier's phase differs from bit
 * 31 of s (a state's high word, or parity << 31): the phase s names has completed. A failed
 * try_wait lets the other warps run (functional) or sleeps until the SM's next completion
 * (timing) */
static void
ex_phasechk(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t done = 0;

	sim_async_settle(x);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = mbar_at(x, &d->src[0], lane);
		uint64_t v;

		if (!p || mbar_valid(x, p, lane, "test_wait"))
			return;
		memcpy(&v, p, 8);
		if ((v >> 63) != (src_word(x, &d->src[1], lane, 0) >> 31))
			done |= 1u << lane;
	}
	sim_dst_pred(x, &d->dst[0], done, mask);
	if (!(d->mod & PhTry))
		return;
	if (!(mask & ~done)) {
		x->w->mbar_fail = 0;
		return;
	}
	x->w->mbar_fail = x->cta->mbar_epoch + 1;
	x->w->mbar_lanes = mask & ~done;
	x->w->mbar_pc = x->pc;
	if (stuck(x, d))
		return;
	if (!x->timing) {
		sim_yield(x, mask & ~done);
	} else {
		uint64_t next = sim_async_next(x->sm), t = x->now + MbarRetry;
		x->wake_at = next > x->now && next < t ? next : t;
	}
}

/* SYNCS.CCTL.IV [addr]: mbarrier.inval; the word becomes 0, which no arrival accepts */
static void
ex_inval(Exec *x, const DIns *d, uint32_t mask)
{
	sim_async_settle(x);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = mbar_at(x, &d->src[0], lane);
		if (!p)
			return;
		memset(p, 0, 8);
	}
	x->cta->mbar_epoch++;
}

static int
dec_syncs(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const struct { const char *name; uint8_t mod; } arv[] = {
		{ "A1T0", ArvOne }, { "ART0", ArvReg }, { "A1TR", ArvOne | TxReg },
		{ "A0TR", TxReg }, { "A0TX", TxDone },
	};
	const char *m0 = i->nmod ? mstr(c->fn->mod, i->mod[0]) : "";
	unsigned k = 1;

	if (!strcmp(m0, "EXCH") && i->nmod == 2 && sim_hasmod(c, i, "64")) {
		d->exec = ex_exch;
	} else if (!strcmp(m0, "CCTL") && i->nmod == 2 && sim_hasmod(c, i, "IV")) {
		if (sim_dec_opnds(c, i, d, 0))
			return sim_unsupported(c, i);
		d->exec = ex_inval;
		return d->nsrc == 1 && d->src[0].kind == DMem ? 0 : sim_unsupported(c, i);
	} else if ((!strcmp(m0, "ARRIVE") || !strcmp(m0, "PHASECHK")) && i->nmod >= 2 &&
	           !strcmp(mstr(c->fn->mod, i->mod[1]), "TRANS64")) {
		int arrive = m0[0] == 'A';
		d->mod = arrive ? ArvOne | TxReg : 0;
		for (k = 2; k < i->nmod; k++) {
			const char *s = mstr(c->fn->mod, i->mod[k]);
			unsigned j;
			if (arrive && !strcmp(s, "RED"))
				continue;
			if (arrive && !strcmp(s, "OPTOUT")) {
				d->mod |= ArvDrop;
				continue;
			}
			if (!arrive && !strcmp(s, "TRYWAIT")) {
				d->mod |= PhTry;
				continue;
			}
			for (j = 0; arrive && j < sizeof arv / sizeof arv[0]; j++)
				if (!strcmp(s, arv[j].name))
					break;
			if (!arrive || j == sizeof arv / sizeof arv[0])
				return sim_unsupported(c, i);
			d->mod = (d->mod & ArvDrop) | arv[j].mod;
		}
		d->exec = arrive ? ex_arrive : ex_phasechk;
	} else {
		return sim_unsupported(c, i);
	}
	if (sim_dec_opnds(c, i, d, 1) || d->nsrc != 2 || d->src[0].kind != DMem)
		return sim_unsupported(c, i);
	if (d->exec == ex_phasechk ? d->dst[0].kind != DP : d->dst[0].kind != DR &&
	    !(d->dst[0].kind == DUR && d->dst[0].reg == RegURZ))
		return sim_unsupported(c, i);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Bulk copies: UBLKCP.S.G [URs], [URg], URn copies URn * 16 bytes from global URg:URg+1 to
 * shared URs and completes them on the mbarrier at shared UR(s+1); UBLKCP.G.S [URg], [URs], URn
 * the other way (a bulk-group store: DEPBAR.LE SB0 after UTMACMDFLUSH waits for it). One copy
 * per issue: the uniform datapath runs it once for the warp, nvcc's ELECT loop once per thread.
 */
enum { BlkToShared = 1, BlkFromShared = 2 }; /* S.G; G.S; both: S.S */

/* the n bytes at a in global (g) or shared memory: 16-byte aligned, inside one allocation or
 * the CTA's shared memory; NULL after a fault */
static uint8_t *
blk_ptr(Exec *x, int g, uint64_t a, uint32_t n, unsigned lane, int write)
{
	uint8_t *p, *q;

	if (a % 16) {
		sim_fault(x, FaultMisaligned, lane, "bulk copy %s %s address 0x%llx is not 16-byte "
		          "aligned", write ? "destination" : "source", g ? "global" : "shared",
		          (unsigned long long)a);
		return NULL;
	}
	p = g ? sim_global(x, a, 1, lane, write) : sim_shared(x, a, 1, lane, write);
	if (!p)
		return NULL;
	q = g ? sim_global(x, a + n - 1, 1, lane, write) : sim_shared(x, a + n - 1, 1, lane, write);
	if (!q)
		return NULL;
	if (q != p + n - 1) {
		sim_fault(x, FaultOOB, lane, "bulk copy of %u bytes at 0x%llx spans two allocations", n,
		          (unsigned long long)a);
		return NULL;
	}
	return p;
}

static void
ex_ublkcp(Exec *x, const DIns *d, uint32_t mask)
{
	const uint32_t *ur = x->w->ur;
	unsigned a = d->src[0].ureg, b = d->src[1].ureg, lane = (unsigned)__builtin_ctz(mask | 1);
	uint32_t n = (d->src[2].reg == RegURZ ? 0 : ur[d->src[2].reg]) * 16;
	int tos = d->mod & BlkToShared;
	uint64_t g, s, mb = UINT32_MAX;
	const uint8_t *src;

	if (!mask || !n)
		return;
	if (d->mod == (BlkToShared | BlkFromShared)) {
		/* UBLKCP.S.S [URd, URmbar], [URs], URn: shared::cta to shared::cluster (rank 0) */
		s = sh_off(x, ur[a], lane);
		g = sh_off(x, ur[b], lane);
		mb = s == UINT64_MAX || g == UINT64_MAX ? UINT64_MAX : sh_off(x, ur[a + 1], lane);
		if (mb == UINT64_MAX)
			return;
		sim_async_settle(x);
		if (!blk_ptr(x, 0, s, n, lane, 1) || !(src = blk_ptr(x, 0, g, n, lane, 0)))
			return;
		sim_async_copy(x, PendToShared, s, (uint32_t)mb, src, n);
		return;
	}
	g = tos ? ur[b] | (uint64_t)ur[b + 1] << 32 : ur[a] | (uint64_t)ur[a + 1] << 32;
	s = sh_off(x, tos ? ur[a] : ur[b], lane);
	if (s == UINT64_MAX || (tos && (mb = sh_off(x, ur[a + 1], lane)) == UINT64_MAX))
		return;
	if (tos) {
		sim_async_settle(x);
		if (!blk_ptr(x, 0, s, n, lane, 1) || !(src = blk_ptr(x, 1, g, n, lane, 0)))
			return;
		sim_async_copy(x, PendToShared, s, (uint32_t)mb, src, n);
	} else {
		if (!blk_ptr(x, 1, g, n, lane, 1) || !(src = blk_ptr(x, 0, s, n, lane, 0)))
			return;
		sim_async_copy(x, PendToGlobal, g, UINT32_MAX, src, n);
	}
}

static int
dec_ublkcp(DecodeCtx *c, const Ins *i, DIns *d)
{
	int tos = i->nmod == 2 && !strcmp(mstr(c->fn->mod, i->mod[0]), "S") &&
	          !strcmp(mstr(c->fn->mod, i->mod[1]), "G");
	int tog = i->nmod == 2 && !strcmp(mstr(c->fn->mod, i->mod[0]), "G") &&
	          !strcmp(mstr(c->fn->mod, i->mod[1]), "S");
	int sts = i->nmod == 2 && !strcmp(mstr(c->fn->mod, i->mod[0]), "S") &&
	          !strcmp(mstr(c->fn->mod, i->mod[1]), "S");

	if ((!tos && !tog && !sts) || sim_dec_opnds(c, i, d, 0) || d->nsrc != 3)
		return sim_unsupported(c, i);
	for (unsigned k = 0; k < 2; k++)
		if (d->src[k].kind != DMem || !(d->src[k].flags & DFUreg) || d->src[k].reg != RegRZ ||
		    d->src[k].imm || d->src[k].ureg + 1u >= RegURZ)
			return sim_unsupported_why(c, i, "a bulk copy's addresses are [URn]");
	if (d->src[2].kind != DUR)
		return sim_unsupported(c, i);
	d->mod = sts ? BlkToShared | BlkFromShared : tos ? BlkToShared : 0;
	d->exec = ex_ublkcp;
	return 0;
}

/* UBLKRED.G.S.<op>.<type> [URg], [URs], URn: cp.reduce.async.bulk.global.shared::cta
 * .bulk_group: global[i] = global[i] op shared[i] over URn * 16 bytes of 32-bit words, at the
 * copy's completion; aux: the RedOp */
static void
ex_ublkred(Exec *x, const DIns *d, uint32_t mask)
{
	const uint32_t *ur = x->w->ur;
	unsigned a = d->src[0].ureg, lane = (unsigned)__builtin_ctz(mask | 1);
	uint32_t n = (d->src[2].reg == RegURZ ? 0 : ur[d->src[2].reg]) * 16;
	uint64_t g = ur[a] | (uint64_t)ur[a + 1] << 32, s;
	const uint8_t *src;

	if (!mask || !n || (s = sh_off(x, ur[d->src[1].ureg], lane)) == UINT64_MAX)
		return;
	if (!blk_ptr(x, 1, g, n, lane, 1) || !(src = blk_ptr(x, 0, s, n, lane, 0)))
		return;
	sim_async_copy(x, PendRedGlobal, g, d->aux, src, n);
}

static int
dec_ublkred(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const struct { const char *op, *ty; uint8_t red; } forms[] = {
		{ "ADD", "F32", RedAddF32 }, { "ADD", "U32", RedAddU32 }, { "MIN", "U32", RedMinU32 },
		{ "MAX", "U32", RedMaxU32 }, { "MIN", "S32", RedMinS32 }, { "MAX", "S32", RedMaxS32 },
		{ "AND", "U32", RedAnd }, { "OR", "U32", RedOr }, { "XOR", "U32", RedXor },
	};
	const char *m[5] = { "", "", "", "U32", "" };   /* nvcc leaves .U32 out: UBLKRED.G.S.MAX */
	unsigned k;

	for (k = 0; k < i->nmod && k < 5; k++)
		m[k] = mstr(c->fn->mod, i->mod[k]);
	if (i->nmod < 3 || i->nmod > 5 || strcmp(m[0], "G") || strcmp(m[1], "S") ||
	    (i->nmod == 5 && strcmp(m[4], "RN")))
		return sim_unsupported(c, i);
	for (k = 0; k < sizeof forms / sizeof forms[0]; k++)
		if (!strcmp(m[2], forms[k].op) && !strcmp(m[3], forms[k].ty) &&
		    (forms[k].red == RedAddF32) == (i->nmod == 5))
			break;
	if (k == sizeof forms / sizeof forms[0])
		return sim_unsupported_why(c, i, "32-bit reductions only");
	if (sim_dec_opnds(c, i, d, 0) || d->nsrc != 3 || d->src[2].kind != DUR)
		return sim_unsupported(c, i);
	for (unsigned j = 0; j < 2; j++)
		if (d->src[j].kind != DMem || !(d->src[j].flags & DFUreg) || d->src[j].reg != RegRZ ||
		    d->src[j].imm || d->src[j].ureg + 1u >= RegURZ)
			return sim_unsupported_why(c, i, "a bulk reduction's addresses are [URn]");
	d->aux = forms[k].red;
	d->exec = ex_ublkred;
	return 0;
}

/* UBLKPF.L2 [URg], URn: cp.async.bulk.prefetch.L2: no value */
static void
ex_ublkpf(Exec *x, const DIns *d, uint32_t mask)
{
	(void)x, (void)d, (void)mask;
}

static int
dec_ublkpf(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod != 1 || !sim_hasmod(c, i, "L2") || sim_dec_opnds(c, i, d, 0) || d->nsrc != 2 ||
	    d->src[0].kind != DMem)
		return sim_unsupported(c, i);
	d->exec = ex_ublkpf;
	return 0;
}

/* UTMACMDFLUSH: cp.async.bulk.commit_group; the copies are in flight already. Its read
 * scoreboard (SB0, which wait_group's DEPBAR.LE SB0 waits on) is released when the warp's copies
 * complete (timing) */
static void
ex_flush(Exec *x, const DIns *d, uint32_t mask)
{
	(void)d, (void)mask;
	if (x->timing)
		x->async_done = sim_async_last(x->sm, x->w);
}

static int
dec_flush(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || i->nopnd)
		return sim_unsupported(c, i);
	d->exec = ex_flush;
	return 0;
}

void
sim_register_sync(SimTab *t)
{
	t->dec[OSYNCS] = dec_syncs;
	t->dec[OUBLKCP] = dec_ublkcp;
	t->dec[OUBLKRED] = dec_ublkred;
	t->dec[OUBLKPF] = dec_ublkpf;
	t->dec[OUTMACMDFLUSH] = dec_flush;
}
