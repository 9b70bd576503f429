/* cluster.c: thread-block clusters of more than one CTA in timing mode (docs/sim-cluster.md).
 * A cluster's CTAs start together on the SMs of one GPC; the SMs of a GPC are simulated on one
 * host thread in cycle order, so that remote shared memory accesses, remote mbarrier arrivals
 * and the cluster barrier happen in the order of their cycles, the same for any thread count.
 * Remote accesses complete after lat_dsmem, the cluster barrier's waiters go on lat_cluster_bar
 * after the last arrival, on every SM; an ended CTA's slot is held until its cluster has ended.
 */
#include "smmodel.h"

#include <stdio.h>

/* the SMs of GPC g: [*lo, *hi), contiguous and nearly equal */
static void
gpc_range(const TLaunch *L, uint32_t g, uint32_t *lo, uint32_t *hi)
{
	*lo = (uint32_t)((uint64_t)g * L->nsm / L->ngpc);
	*hi = (uint32_t)((uint64_t)(g + 1) * L->nsm / L->ngpc);
}

int
tcl_setup(TLaunch *L, SimFault *f)
{
	uint32_t nsm = (uint32_t)L->cfg->nsm, g = L->t->gpcs ? L->t->gpcs : 1;
	uint32_t most;

	if (g > nsm)
		g = nsm;
	most = (nsm + g - 1) / g;             /* the largest GPC (gpc_range) */
	if ((uint64_t)most * L->ctas_per_sm < L->lc.nrank) {
		f->kind = FaultLimit;
		snprintf(f->msg, sizeof f->msg, "%s: kernel '%s': a cluster of %u CTAs does not fit "
		         "a GPC of %u SMs at %u CTAs each (configuration keys sms, gpcs)",
		         sim_fault_name(FaultLimit), L->prog->name, L->lc.nrank, most, L->ctas_per_sm);
		return -1;
	}
	L->ngpc = g;
	L->gpc_next = 0;
	return 0;
}

static uint32_t
free_slots(const TLaunch *L, uint32_t i)
{
	return L->sms[i] ? L->sms[i]->nfree : L->ctas_per_sm;
}

/* SMs for the ranks of the next cluster in the first GPC, from gpc_next on, with enough free
 * slots: each rank on the SM with the most free slots left (the lowest number on a tie), so
 * that ranks go to distinct SMs while they can. 0 if no GPC has room. */
static int
place(TLaunch *L, uint32_t *pick)
{
	uint32_t n = L->lc.nrank;

	for (uint32_t k = 0; k < L->ngpc; k++) {
		uint32_t g = (L->gpc_next + k) % L->ngpc, lo, hi, total = 0;
		uint32_t left[1024];              /* sms <= 1024 (timing/config.c) */
		gpc_range(L, g, &lo, &hi);
		for (uint32_t i = lo; i < hi; i++)
			total += left[i - lo] = free_slots(L, i);
		if (total < n)
			continue;
		for (uint32_t r = 0; r < n; r++) {
			uint32_t best = lo;
			for (uint32_t i = lo; i < hi; i++)
				if (left[i - lo] > left[best - lo])
					best = i;
			left[best - lo]--;
			pick[r] = best;
		}
		L->gpc_next = (g + 1) % L->ngpc;
		return 1;
	}
	return 0;
}

void
tcl_dispatch(TLaunch *L, uint64_t *next, uint64_t nrun, uint64_t at, uint64_t ev_limit)
{
	uint32_t n = L->lc.nrank, pick[ClusterCap];
	TCta *tc[ClusterCap];

	while (*next + n <= nrun && place(L, pick)) {
		uint64_t cluster = *next / n;
		for (uint32_t r = 0; r < n; r++)
			tc[r] = tsm_start_cta(tlaunch_sm(L, pick[r], at, ev_limit),
			                      cluster_member(&L->lc.lp, cluster, r), at);
		for (uint32_t r = 0; r < n; r++) {
			tc[r]->ended = 0;
			tc[r]->c.rank = r;
			tc[r]->c.nrank = n;
			tc[r]->c.peer = tc[r]->peer;
			for (uint32_t q = 0; q < n; q++) {
				tc[r]->peer[q] = &tc[q]->c;
				tc[r]->tpeer[q] = tc[q];
			}
		}
		*next += n;
	}
}

void
tcl_run_gpc(TLaunch *L, uint32_t g, uint64_t end)
{
	uint32_t lo, hi;
	uint64_t c = TNever;

	gpc_range(L, g, &lo, &hi);
	for (uint32_t i = lo; i < hi; i++)
		if (L->sms[i] && L->sms[i]->now < c)
			c = L->sms[i]->now;
	/* one cycle of every SM in turn; where no warp of the GPC can issue before cycle ev, no
	 * SM can reach another: each runs to ev alone */
	while (c < end) {
		uint64_t ev = TNever, to;
		for (uint32_t i = lo; i < hi; i++)
			if (L->sms[i]) {
				tsm_run(L->sms[i], c + 1);
				if (L->sms[i]->fault.kind != FaultNone)
					goto out;
				ev = tsm_next_event(L->sms[i]) < ev ? tsm_next_event(L->sms[i]) : ev;
			}
		c++;
		if (ev <= c)
			continue;
		to = ev < end ? ev : end;
		for (uint32_t i = lo; i < hi; i++)
			if (L->sms[i])
				tsm_run(L->sms[i], to);
		c = to;
	}
out:
	for (uint32_t i = lo; i < hi; i++)
		if (L->sms[i])
			L->sms[i]->stuck = tsm_stuck(L->sms[i]);   /* for epoch_check */
}

/* the rank a shared address of a tc lane names: bits 31:24; 0 is the CTA's own for shared::cta
 * (LDS, STS, ATOMS) and rank 0 for a generic address (sim/mem.c, shared_at) */
static int
remote_acc(const MemAcc *a, const TCta *tc)
{
	for (uint32_t m = a->mask; m; m &= m - 1) {
		uint64_t v = a->addr[__builtin_ctz(m)], r;
		if (a->space == MSShared)
			r = v >> 24 ? v >> 24 : tc->c.rank;
		else if (a->space == MSGeneric && v - SimSharedWindow < SimWindowSize)
			r = (v - SimSharedWindow) >> 24;
		else
			continue;
		if (r != tc->c.rank)
			return 1;
	}
	return 0;
}

uint64_t
tcl_remote(const TSm *s, const TCta *tc, uint64_t start)
{
	for (unsigned k = 0; k < s->mlog.n && k < 2; k++)
		if (remote_acc(&s->mlog.acc[k], tc))
			return start + s->L->t->lat_dsmem;
	return 0;
}

void
tcl_barrier(TCta *tc, uint64_t now)
{
	for (uint32_t r = 0; r < tc->c.nrank; r++) {
		TCta *p = tc->tpeer[r];
		if (p->busy && !p->ended)
			tsm_barrier_released(p->sm, p, now, p->sm->L->t->lat_cluster_bar);
	}
}

void
tcl_cta_done(TCta *tc, uint64_t now)
{
	tc->ended = 1;
	for (uint32_t r = 0; r < tc->c.nrank; r++)
		if (!tc->tpeer[r]->ended)
			return;
	for (uint32_t r = 0; r < tc->c.nrank; r++) {
		TCta *p = tc->tpeer[r];
		p->ended = 0;
		tsm_cta_free(p->sm, p, now);
	}
}

/* every warp of tc is blocked or done (tsm_stuck's test) */
static int
blocked(const TCta *tc)
{
	for (uint32_t k = 0; k < tc->c.nwarp; k++) {
		const TWarp *tw = &tc->sm->tw[tc->slot0 + k];
		if (tw->next_pc != PeekDone && tw->next_pc != PeekBlocked)
			return 0;
	}
	return 1;
}

int
tcl_stuck(const TCta *tc)
{
	for (uint32_t r = 0; r < tc->c.nrank; r++) {
		const TCta *p = tc->tpeer[r];
		if (!p->ended && !blocked(p))
			return 0;
	}
	return 1;
}
