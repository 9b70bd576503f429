/* launch.c: the timing driver's launch: the CTA dispatcher and the epoch loop. SMs are
 * simulated one epoch (SimTiming.epoch cycles) at a time, independently of each other; at the end of an epoch the
 * memory system merges what every SM did (smmem.c), faults, the watchdog and deadlocks are checked,
 * and free CTA slots get the next CTAs in SM order. Nothing an SM does during an epoch depends on
 * another SM's progress in it, so SMs may be simulated by several host threads and the result is
 * the same for any number. Sampling simulates a subset and extrapolates. What kind of SM runs the
 * CTAs is the configuration's model (smmodel.h: occupancy, readiness, issue); this file and sm.c
 * call it through its table only. sim_launch_timed runs in phases over a Run: setup, sampling,
 * the host threads, the epoch loop (run_epoch, epoch_check, dispatch, skip_idle_epochs), the
 * statistics (finish_stats).
 */
#define _POSIX_C_SOURCE 200809L
#include "smmodel.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MaxThreads = 256, PollEpochs = 16 /* epochs between two polls of Gpu.poll */ };

void
simtstats_free(SimTStats *s)
{
	if (!s)
		return;
	free(s->sm);
	s->sm = NULL;
	s->nsm = 0;
	free(s->hazard_rows);
	s->hazard_rows = NULL;
	s->nhazard_rows = 0;
	free(s->pc_addr);
	free(s->pc_op);
	free(s->pc_cycles);
	s->pc_addr = NULL;
	s->pc_op = NULL;
	s->pc_cycles = NULL;
	s->npc = 0;
	free(s->fiber_tl);
	s->fiber_tl = NULL;
	s->nfiber_tl = 0;
}

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* global atomics make results depend on the order SMs reach them */
static int
has_global_atomics(const Prog *p)
{
	for (uint32_t k = 0; k < p->nins; k++) {
		unsigned op = p->ins[k].op;
		if (op == OATOMG || op == OATOM || op == ORED || op == OREDG)
			return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Host threads: worker t simulates SMs t, t + n, t + 2n, ... of every epoch.
 */
typedef struct Pool Pool;
struct Pool {
	TLaunch *L;
	unsigned n;
	uint64_t end;
	int quit;
	void (*job)(Pool *, unsigned); /* what every thread does next: its share of the SMs */
	uint32_t nmake;                /* make_share: SMs 0 .. nmake - 1 are made */
	uint64_t ev_limit;             /* ... with this trace budget */
	pthread_barrier_t start, stop;
	pthread_t th[MaxThreads];
};

typedef struct Worker {
	Pool *pool;
	unsigned id;
} Worker;

static void
run_share(Pool *pl, unsigned id)
{
	for (uint32_t i = id; i < pl->L->nsm; i += pl->n)
		if (pl->L->sms[i]) {
			tsm_run(pl->L->sms[i], pl->end);
			pl->L->sms[i]->stuck = tsm_stuck(pl->L->sms[i]);  /* for epoch_check */
		}
}

/* with clusters: worker t simulates GPCs t, t + n, ..., each GPC's SMs in cycle order */
static void
run_gpcs(Pool *pl, unsigned id)
{
	for (uint32_t g = id; g < pl->L->ngpc; g += pl->n)
		tcl_run_gpc(pl->L, g, pl->end);
}

static void *
worker(void *arg)
{
	Worker *wk = arg;
	Pool *pl = wk->pool;

	for (;;) {
		pthread_barrier_wait(&pl->start);
		if (pl->quit)
			break;
		pl->job(pl, wk->id);
		pthread_barrier_wait(&pl->stop);
	}
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * The launch.
 */
/* the CPI stack by instruction: the SMs' in SM order (sums: the same for any thread count) */
static void
collect_pcs(TLaunch *L, SimTStats *st)
{
	const Prog *k = L->prog;
	size_t n = (size_t)k->nins * NCpi;

	st->npc = k->nins;
	st->pc_addr = xmalloc(k->nins * sizeof *st->pc_addr);
	st->pc_op = xmalloc(k->nins * sizeof *st->pc_op);
	st->pc_cycles = xmalloc(n * sizeof *st->pc_cycles);
	for (uint32_t pc = 0; pc < k->nins; pc++) {
		st->pc_addr[pc] = k->ins[pc].addr;
		st->pc_op[pc] = op_name(k->ins[pc].op);
	}
	for (uint32_t i = 0; i < L->nsm; i++)
		if (L->sms[i])
			for (size_t j = 0; j < n; j++)
				st->pc_cycles[j] += L->sms[i]->pc_cycles[j];
}

static void
collect(TLaunch *L, SimTStats *st)
{
	st->nsm = L->cfg->nsm;
	st->sm = xmalloc(st->nsm * sizeof *st->sm);
	memset(st->sm, 0, st->nsm * sizeof *st->sm);
	for (uint32_t i = 0; i < L->nsm; i++) {
		TSm *s = L->sms[i];
		SimSmStats *ss = &st->sm[i];
		if (!s)
			continue;
		*ss = s->st;
		for (uint32_t p = 0; p < L->nsub; p++)
			for (unsigned r = 0; r < NCpi; r++)
				ss->cpi[r] += s->sub[p].cpi[r];
		for (unsigned r = 0; r < NCpi; r++)
			st->cpi[r] += ss->cpi[r];
		st->warp_instructions += s->st.warp_instructions;
		st->thread_instructions += s->thread_instr;
		st->tensor_busy += s->tensor_busy;
		if (s->last_done > st->cycles)
			st->cycles = s->last_done;
		smmem_stats(s->mem, st);
	}
	memsys_stats(L->mem, st);
	L->model->stats(L, st);
	if (L->pc_stats)
		collect_pcs(L, st);
	/* an SM ran to the end of the last epoch: what lies past the kernel's end was idle */
	for (uint32_t i = 0; i < L->nsm; i++) {
		TSm *s = L->sms[i];
		uint64_t excess;
		if (s && s->now < st->cycles) {
			/* the last stores drained after the last epoch: no warp was resident */
			st->sm[i].cpi[CpiIdle] += (st->cycles - s->now) * L->nsub;
			st->cpi[CpiIdle] += (st->cycles - s->now) * L->nsub;
		}
		if (!s || s->now <= st->cycles)
			continue;
		excess = (s->now - st->cycles) * L->nsub;
		excess = excess < st->sm[i].cpi[CpiIdle] ? excess : st->sm[i].cpi[CpiIdle];
		st->sm[i].cpi[CpiIdle] -= excess;
		st->cpi[CpiIdle] -= excess;
	}
	/* SMs that never received a CTA (and those not simulated when sampling) were idle */
	for (uint32_t i = 0; i < st->nsm; i++)
		if (i >= L->nsm || !L->sms[i]) {
			st->sm[i].cpi[CpiIdle] = st->cycles * L->nsub;
			st->cpi[CpiIdle] += st->cycles * L->nsub;
		}
}

/* trace spans in time order: start, then SM, then warp slot (a total order: one warp's spans do
 * not overlap) */
static int
ev_cmp(const void *a, const void *b)
{
	const TraceEv *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->warp < y->warp ? -1 : x->warp > y->warp;
}

/* The trace budget is shared by the SMs that record: every SM records until, at the end of an
 * epoch, the SMs together hold the budget (trace_budget); then all stop. The spans are merged,
 * sorted by time and cut to the budget, so the earliest spans are kept, whichever SMs they
 * come from, and the same for any thread count (epoch ends are the same). */
static void
trace_budget(TLaunch *L, uint64_t limit, uint64_t *ev_limit)
{
	uint64_t total = 0;

	if (!L->trace || !*ev_limit)
		return;
	for (uint32_t i = 0; i < L->nsm; i++)
		if (L->sms[i])
			total += L->sms[i]->nev;
	if (total < limit)
		return;
	*ev_limit = 0;
	for (uint32_t i = 0; i < L->nsm; i++)
		if (L->sms[i])
			L->sms[i]->ev_limit = L->sms[i]->nev;
}

static void
trace_collect(TLaunch *L, TraceBuf *tb)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < L->nsm; i++)
		if (L->sms[i])
			total += L->sms[i]->nev;
	if (tb->cap < tb->n + total) {
		tb->cap = tb->n + total;
		tb->ev = xrealloc(tb->ev, (tb->cap ? tb->cap : 1) * sizeof *tb->ev);
	}
	for (uint32_t i = 0; i < L->nsm; i++) {
		TSm *s = L->sms[i];
		if (!s)
			continue;
		tb->dropped += s->ev_dropped;
		if (s->nev)            /* an SM made but given no CTA (clusters) has recorded nothing */
			memcpy(tb->ev + tb->n, s->ev, s->nev * sizeof *s->ev);
		tb->n += s->nev;
	}
	qsort(tb->ev, tb->n, sizeof *tb->ev, ev_cmp);
	if (tb->n > tb->limit) {
		tb->dropped += tb->n - tb->limit;
		tb->n = tb->limit;
	}
}

/* An estimate of the relative error of a sampled cycle count, from what the sample cannot see
 * (docs/sim-timing.md "Sampling"); load(n, m) is the most CTAs an SM runs when n CTAs go to m
 * SMs, ceil(n / m), within the first wave.
 * - CTAs (all SMs, the first nsim CTAs): below one wave the sample leaves the SMs less to do
 *   than the full run's first wave: the larger of 1 - nsim / first (throughput-bound: time
 *   follows the work) and 1 - load(nsim, sms) / load(first, sms) (the most loaded SM decides).
 *   From one wave on the extrapolation counts whole waves; the estimate is its distance from
 *   counting by CTAs (a partial last wave).
 * - SMs (M SMs with their share): the full GPU's end lies between the sample's earliest and
 *   latest SM finish (its tail may run faster with the whole GPU's bandwidth), so up to
 *   (latest - earliest) / earliest over; and under by 1 - load(nsim, M) / load(ctas, sms) when
 *   the full GPU's most loaded SM has more CTAs than the sample's. */
static double
sample_error(const TLaunch *L, uint64_t nsim, int by_ctas)
{
	double slots = (double)L->ctas_per_sm * L->nsm, all = (double)L->lc.nctas, s = (double)nsim;
	double full_sms = (double)L->cfg->nsm, e = 0, v;

	if (by_ctas) {
		double first = all < slots ? all : slots;
		if (s < first) {
			e = 1 - s / first;
			v = 1 - ceil(s / L->nsm) / ceil(first / L->nsm);
			e = v > e ? v : e;
		} else {
			double whole = ceil(all / slots) / ceil(s / slots), exact = all / s;
			e = fabs(whole - exact) / whole;
		}
	} else {
		uint64_t lo = TNever, hi = 0;
		double full_slots = (double)L->ctas_per_sm * full_sms;
		double first = all < full_slots ? all : full_slots, mine = s < slots ? s : slots;
		for (uint32_t i = 0; i < L->nsm; i++) {
			const TSm *sm = L->sms[i];
			if (!sm || !sm->st.ctas)
				continue;
			lo = sm->last_done < lo ? sm->last_done : lo;
			hi = sm->last_done > hi ? sm->last_done : hi;
		}
		if (hi && lo)
			e = (double)(hi - lo) / (double)lo;
		v = 1 - ceil(mine / L->nsm) / ceil(first / full_sms);
		e = v > e ? v : e;
	}
	return e;
}

/* SM i, made when it first receives a CTA: idle SMs cost nothing */
TSm *
tlaunch_sm(TLaunch *L, uint32_t i, uint64_t now, uint64_t ev_limit)
{
	if (!L->sms[i]) {
		L->sms[i] = tsm_new(L, i);
		L->sms[i]->now = now;
		L->sms[i]->ev_limit = ev_limit;
		for (uint32_t p = 0; p < L->nsub; p++)
			L->sms[i]->sub[p].cpi[CpiIdle] = now;
	}
	return L->sms[i];
}

/* a share of the SMs the first CTAs go to, made on every host thread: an SM's state is its own
 * (tsm_new reads the launch and writes only the new SM), and making it (zeroing its register
 * file, shared memory, warp slots) is the largest serial part of a short launch */
static void
make_share(Pool *pl, unsigned id)
{
	for (uint32_t i = id; i < pl->nmake; i += pl->n)
		tlaunch_sm(pl->L, i, 0, pl->ev_limit);
}

/* free CTA slots take the next CTAs, in SM order (a slot's CTA starts after the previous one
 * left plus the launch latency, and not before cycle at) */
static void
dispatch(TLaunch *L, uint64_t *next, uint64_t nrun, uint64_t at, uint64_t ev_limit)
{
	if (L->ngpc) {             /* whole clusters on the SMs of one GPC */
		tcl_dispatch(L, next, nrun, at, ev_limit);
		return;
	}
	for (uint32_t i = 0; i < L->nsm && *next < nrun; i++) {
		TSm *s = tlaunch_sm(L, i, at, ev_limit);
		while (s->nfree && !s->admit_hold && *next < nrun)
			tsm_start_cta(s, (*next)++, at);
	}
}

/* a timed launch in progress: what its phases share */
typedef struct Run {
	TLaunch L;
	SimConfig cfg;             /* the configuration; sampling SMs scales its bandwidths */
	Gpu *g;
	const TimingOpts *o;
	SimTStats *st;
	SimFault *fault;
	Pool pl;                   /* the host threads */
	Worker wk[MaxThreads];
	unsigned nthreads;
	uint64_t next;             /* the next CTA to dispatch */
	uint64_t nrun;             /* CTAs simulated (fewer when sampling) */
	uint64_t end;              /* the end of the current epoch */
	uint64_t ev_limit;         /* trace events an SM may record (trace_budget) */
	uint64_t polls;            /* epochs since the launch began, for Gpu.poll */
	SmMem **mems;              /* the SMs' memory models, for the epoch merge */
} Run;

/* the launch checked and begun (launch_begin), the model and the instruction view chosen: 0, or
 * -1 with the fault filled and nothing left to free */
static int
setup(Run *r, SimModule *sm, const Prog *k, const LaunchParams *lp)
{
	TLaunch *L = &r->L;
	const TimingOpts *o = r->o;
	SimFault *fault = r->fault;

	L->model = sm_model_of(&r->cfg);
	if (launch_begin(r->g, sm, k, lp, fault, &L->lc, L->model->occupancy) < 0)
		return -1;
	L->step = sim_stepper(&L->lc.x);
	if (L->lc.fiber != L->model->fiber) {
		fault->kind = FaultInternal;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': the device %s the FIBER "
		         "semantics that SM model '%s' %s (make the device from the configuration: "
		         "simcfg_gpu)", sim_fault_name(FaultInternal), k->name,
		         L->lc.fiber ? "has" : "lacks", L->model->name,
		         L->model->fiber ? "needs" : "does not run with");
		launch_end(&L->lc);
		return -1;
	}
	if (L->lc.cooperative && ((o->sample_sms && o->sample_sms < (uint32_t)r->cfg.nsm) ||
	                          (o->sample_ctas && o->sample_ctas < L->lc.nctas))) {
		fault->kind = FaultLimit;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': a cooperative launch cannot "
		         "be sampled: its grid barrier needs every CTA of the grid",
		         sim_fault_name(FaultLimit), k->name);
		launch_end(&L->lc);
		return -1;
	}
	if (L->lc.nrank > 1 && o->sample_sms && o->sample_sms < (uint32_t)r->cfg.nsm) {
		fault->kind = FaultLimit;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': a launch with clusters of "
		         "more than one CTA cannot be sampled by SMs yet, only by CTAs "
		         "(docs/sim-cluster.md)", sim_fault_name(FaultLimit), k->name);
		launch_end(&L->lc);
		return -1;
	}
	L->cfg = &r->cfg;
	L->t = &r->cfg.t;
	L->prog = k;
	L->nsub = r->cfg.t.subpartitions ? r->cfg.t.subpartitions : 4;
	if (L->nsub > MaxSub)
		L->nsub = MaxSub;
	L->ctas_per_sm = L->lc.ctas_per_sm;
	if (!L->ctas_per_sm) {
		fault->kind = FaultLimit;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': a CTA of %u warps with %u "
		         "registers per thread and %u bytes of shared memory does not fit an SM of "
		         "configuration '%s' (%s)", sim_fault_name(FaultLimit), k->name, L->lc.nwarp,
		         L->lc.nreg_alloc, L->lc.smem_user, r->cfg.name ? r->cfg.name : "?",
		         L->lc.occ_limit);
		launch_end(&L->lc);
		return -1;
	}
	if (L->lc.nrank > 1 && tcl_setup(L, fault) < 0) {
		launch_end(&L->lc);
		return -1;
	}
	L->trace = o->trace && o->trace->limit;
	L->pc_stats = o->pc_stats;
	tins_build(L);
	L->model->launch(L);
	return 0;
}

/* sampling: fewer SMs with their share of the CTAs and of the bandwidth, or fewer CTAs */
static void
sample_setup(Run *r)
{
	TLaunch *L = &r->L;
	const TimingOpts *o = r->o;
	SimConfig *cfg = &r->cfg;

	L->nsm = (uint32_t)cfg->nsm;
	r->nrun = L->lc.nctas;
	if (o->sample_sms && o->sample_sms < L->nsm) {
		uint32_t full = L->nsm;
		L->nsm = o->sample_sms;
		r->nrun = (L->lc.nctas * (uint64_t)L->nsm + full - 1) / full;
		cfg->t.dram_bytes_per_clk = (uint32_t)((uint64_t)cfg->t.dram_bytes_per_clk * L->nsm / full);
		cfg->t.l2_bytes_per_clk = (uint32_t)((uint64_t)cfg->t.l2_bytes_per_clk * L->nsm / full);
		if (!cfg->t.dram_bytes_per_clk)
			cfg->t.dram_bytes_per_clk = 1;
		if (!cfg->t.l2_bytes_per_clk)
			cfg->t.l2_bytes_per_clk = 1;
	}
	if (o->sample_ctas && o->sample_ctas < r->nrun) {
		uint32_t n = L->lc.nrank;         /* whole clusters: the first ones */
		r->nrun = (o->sample_ctas + n - 1) / n * n;
		if (r->nrun > L->lc.nctas)
			r->nrun = L->lc.nctas;
	}
}

/* the host threads: as many as asked, at most one per SM with work, one with global atomics */
static void
threads_start(Run *r, const Prog *k)
{
	Pool *pl = &r->pl;
	unsigned nthreads = r->o->threads ? r->o->threads : 1;

	if (nthreads > MaxThreads)
		nthreads = MaxThreads;
	{
		/* the first round gives one CTA to each SM in order: the SMs with work */
		uint64_t busy = r->nrun < r->L.nsm ? r->nrun : r->L.nsm;
		if (nthreads > busy && busy) {
			nthreads = (unsigned)busy;
			r->st->threads_note = "fewer SMs have work (CTAs) than threads were asked for: "
			                      "one thread per SM with work";
		}
	}
	if (nthreads > 1 && has_global_atomics(k)) {
		nthreads = 1;
		r->st->threads_note = "global atomics: simulated on one thread so that their order, "
		                      "and so the results, do not depend on the thread count";
	}
	r->nthreads = nthreads;
	memset(pl, 0, sizeof *pl);
	pl->L = &r->L;
	pl->n = nthreads;
	if (nthreads > 1) {
		pthread_barrier_init(&pl->start, NULL, nthreads);
		pthread_barrier_init(&pl->stop, NULL, nthreads);
		for (unsigned t = 1; t < nthreads; t++) {
			r->wk[t].pool = pl;
			r->wk[t].id = t;
			pthread_create(&pl->th[t], NULL, worker, &r->wk[t]);
		}
	}
}

static void
threads_stop(Run *r)
{
	Pool *pl = &r->pl;

	if (r->nthreads <= 1)
		return;
	pl->quit = 1;
	pthread_barrier_wait(&pl->start);
	for (unsigned t = 1; t < r->nthreads; t++)
		pthread_join(pl->th[t], NULL);
	pthread_barrier_destroy(&pl->start);
	pthread_barrier_destroy(&pl->stop);
}

/* the L2's sets of part id of the epoch's merged accesses (memsys_epoch_begin gave as many
 * parts as there are threads) */
static void
apply_share(Pool *pl, unsigned id)
{
	memsys_epoch_apply(pl->L->mem, id);
}

/* every host thread does job on its share of the SMs, the caller's thread share 0 */
static void
pool_run(Run *r, void (*job)(Pool *, unsigned))
{
	r->pl.job = job;
	if (r->nthreads > 1) {
		pthread_barrier_wait(&r->pl.start);
		job(&r->pl, 0);
		pthread_barrier_wait(&r->pl.stop);
	} else {
		job(&r->pl, 0);
	}
}

/* every SM simulates the next epoch (on the host threads); then the memory system merges what
 * they did (its sets applied on the host threads) and the trace budget is checked */
static void
run_epoch(Run *r)
{
	TLaunch *L = &r->L;
	unsigned nm = 0;

	r->end += r->cfg.t.epoch ? r->cfg.t.epoch : 128;
	r->pl.end = r->end;
	pool_run(r, L->ngpc ? run_gpcs : run_share);
	for (uint32_t i = 0; i < L->nsm; i++)
		if (L->sms[i])
			r->mems[nm++] = L->sms[i]->mem;
	if (memsys_epoch_begin(L->mem, r->mems, nm, r->nthreads) > 1)
		pool_run(r, apply_share);
	else
		memsys_epoch_apply(L->mem, 0);
	memsys_epoch_finish(L->mem, r->mems, nm, r->end);
	trace_budget(L, L->trace ? r->o->trace->limit : 0, &r->ev_limit);
}

enum { EpochGoOn, EpochDone, EpochFault };

/* after an epoch: a fault, the watchdog, max_cycles, the end of the launch, the host's poll, a
 * deadlock; EpochFault with the fault filled */
static int
epoch_check(Run *r, const Prog *k)
{
	TLaunch *L = &r->L;
	SimFault *fault = r->fault;
	uint64_t ninstr = 0;
	uint32_t live = 0;
	TSm *bad = NULL;

	for (uint32_t i = 0; i < L->nsm; i++) {
		TSm *s = L->sms[i];
		if (!s)
			continue;
		ninstr += s->st.warp_instructions;
		live += s->nlive;
		if (!bad && s->fault.kind != FaultNone)
			bad = s;
	}
	if (bad) {
		*fault = bad->fault;
		return EpochFault;
	}
	if (ninstr >= L->lc.x.watchdog) {
		fault->kind = FaultWatchdog;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': %llu warp instructions "
		         "issued without the kernel finishing (limit %llu: the configuration key "
		         "watchdog, fibersim --set watchdog=N)",
		         sim_fault_name(FaultWatchdog), k->name, (unsigned long long)ninstr,
		         (unsigned long long)L->lc.x.watchdog);
		return EpochFault;
	}
	if (r->cfg.t.max_cycles && r->end >= r->cfg.t.max_cycles) {
		fault->kind = FaultWatchdog;
		snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': %llu cycles without the "
		         "kernel finishing (limit %llu: the configuration key max_cycles, fibersim "
		         "--set max_cycles=N, 0 for none)", sim_fault_name(FaultWatchdog), k->name,
		         (unsigned long long)r->end, (unsigned long long)r->cfg.t.max_cycles);
		return EpochFault;
	}
	if (!live && r->next >= r->nrun)
		return EpochDone;
	if (r->g->poll && ++r->polls % PollEpochs == 0) {
		uint64_t resident = 0;
		SimProgress pr;
		for (uint32_t i = 0; i < L->nsm; i++)
			if (L->sms[i])
				resident += L->ctas_per_sm - L->sms[i]->nfree;
		pr = (SimProgress){r->end, ninstr, r->next - resident, r->nrun};
		if (r->g->poll(r->g->poll_arg, &pr)) {
			fault->kind = FaultInterrupted;
			snprintf(fault->msg, sizeof fault->msg, "%s: kernel '%s': stopped at cycle %llu "
			         "after %llu warp instructions, %llu of %llu CTAs done",
			         sim_fault_name(FaultInterrupted), k->name, (unsigned long long)r->end,
			         (unsigned long long)ninstr, (unsigned long long)pr.ctas_done,
			         (unsigned long long)r->nrun);
			return EpochFault;
		}
	}
	for (uint32_t i = 0; i < L->nsm; i++) {
		TCta *tc = L->sms[i] ? L->sms[i]->stuck : NULL;   /* run_share found it */
		if (tc && (!tc->c.peer || tcl_stuck(tc))) {  /* a cluster: every CTA of it */
			TSm *s = L->sms[i];
			s->x.cta = &tc->c;
			sim_deadlock(&s->x, &tc->c);
			*fault = s->fault;
			return EpochFault;
		}
	}
	return EpochGoOn;
}

/* nothing can happen for whole epochs (warps asleep or waiting on long memory latencies
 * everywhere): go straight to the epoch holding the next event */
static void
skip_idle_epochs(Run *r)
{
	uint64_t ev = TNever, ep = r->cfg.t.epoch ? r->cfg.t.epoch : 128;

	for (uint32_t i = 0; i < r->L.nsm; i++)
		if (r->L.sms[i]) {
			uint64_t e = tsm_next_event(r->L.sms[i]);
			ev = e < ev ? e : ev;
		}
	if (ev != TNever && ev >= r->end + ep)
		r->end += (ev - r->end) / ep * ep;
}

/* the statistics: collected from the SMs, the waves, and extrapolated when sampling */
static void
finish_stats(Run *r)
{
	TLaunch *L = &r->L;
	SimTStats *st = r->st;
	const TimingOpts *o = r->o;
	uint64_t slots = (uint64_t)L->ctas_per_sm * r->cfg.nsm;

	collect(L, st);
	if (L->trace)
		trace_collect(L, o->trace);
	st->ctas = L->lc.nctas;
	st->ctas_per_sm = L->ctas_per_sm;
	st->occupancy_limit = L->lc.occ_limit;
	st->waves = (uint32_t)((L->lc.nctas + slots - 1) / slots);
	st->ctas_simulated = (uint32_t)(r->next < r->nrun ? r->next : r->nrun);
	if (r->nrun < L->lc.nctas && st->ctas_simulated) {
		/* extrapolate: by waves of the whole GPU when CTAs were cut, by CTA count for the
		 * instruction totals */
		uint64_t sim_slots = (uint64_t)L->ctas_per_sm * L->nsm;
		uint64_t wsim = (st->ctas_simulated + sim_slots - 1) / sim_slots;
		uint64_t wall = (L->lc.nctas + slots - 1) / slots;
		double f = (double)L->lc.nctas / st->ctas_simulated;
		st->sampled = 1;
		if (o->sample_ctas && L->nsm == (uint32_t)r->cfg.nsm)
			st->cycles = wsim ? st->cycles * wall / wsim : st->cycles;
		st->sample_error = sample_error(L, st->ctas_simulated, L->nsm == (uint32_t)r->cfg.nsm);
		st->warp_instructions = (uint64_t)((double)st->warp_instructions * f);
		st->thread_instructions = (uint64_t)((double)st->thread_instructions * f);
	}
	st->threads = r->nthreads;
}

int
sim_launch_timed(Gpu *g, const SimConfig *c, SimModule *sm, const Prog *k,
                 const LaunchParams *lp, const TimingOpts *o, SimTStats *st, SimFault *fault)
{
	static const TimingOpts none = {0};
	Run *r = xmalloc(sizeof *r);
	TLaunch *L = &r->L;
	double t0 = wall_now();
	int rc = 0, ep;

	memset(st, 0, sizeof *st);
	r->cfg = *c;
	r->g = g;
	r->o = o ? o : &none;
	r->st = st;
	r->fault = fault;
	if (setup(r, sm, k, lp) < 0) {
		free(r);
		return -1;
	}
	sample_setup(r);
	L->mem = memsys_new(&r->cfg);
	L->sms = xmalloc(L->nsm * sizeof *L->sms);
	r->mems = xmalloc(L->nsm * sizeof *r->mems);
	r->ev_limit = L->trace ? UINT64_MAX : 0;  /* until trace_budget stops the recording */
	threads_start(r, k);

	/* the SMs of the first round made on the host threads; then breadth first: one CTA per
	 * SM, then a second, ... */
	r->pl.nmake = r->nrun < L->nsm ? (uint32_t)r->nrun : L->nsm;
	r->pl.ev_limit = r->ev_limit;
	pool_run(r, make_share);
	if (L->ngpc)
		tcl_dispatch(L, &r->next, r->nrun, 0, r->ev_limit);
	for (uint32_t n = 0; !L->ngpc && n < L->ctas_per_sm && r->next < r->nrun; n++)
		for (uint32_t i = 0; i < L->nsm && r->next < r->nrun; i++)
			tsm_start_cta(tlaunch_sm(L, i, 0, r->ev_limit), r->next++, 0);
	for (;;) {
		run_epoch(r);
		if ((ep = epoch_check(r, k)) != EpochGoOn) {
			rc = ep == EpochFault ? -1 : 0;
			break;
		}
		dispatch(L, &r->next, r->nrun, r->end, r->ev_limit);
		skip_idle_epochs(r);
	}
	threads_stop(r);
	finish_stats(r);
	st->wall_seconds = wall_now() - t0;

	for (uint32_t i = 0; i < L->nsm; i++)
		tsm_free(L->sms[i]);
	free(L->sms);
	free(r->mems);
	memsys_free(L->mem);
	free(L->ti);
	launch_end(&L->lc);
	free(r);
	return rc;
}
