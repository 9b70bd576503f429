/* launch.c: launching a kernel: the checks the CUDA driver makes, constant bank 0 as the driver
 * lays it out (docs/sim.md), the start of a CTA, the deadlock report, and the functional
 * driver: one SM holding as many CTAs resident as the occupancy allows (resident_run), each run
 * to its end (or to an SM-wide barrier) in grid order, warps stepped round-robin with sim_run
 * (warp.c), so that a run is deterministic. The timing driver (timing/launch.c) shares
 * everything but the loop.
 */
#include "launch.h"
#include "weft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
fault0(SimFault *f, int kind, const char *fmt, const char *kname, unsigned long long a,
       unsigned long long b)
{
	int n = snprintf(f->msg, sizeof f->msg, "%s: kernel '%s': ", sim_fault_name(kind), kname);

	f->kind = kind;
	snprintf(f->msg + n, sizeof f->msg - (size_t)n, fmt, a, b);
}

static int
check_launch(Gpu *g, const Prog *k, const LaunchParams *lp, SimFault *f, uint32_t nreg_alloc)
{
	const KInfo *in = &k->fn->info;
	uint64_t nthreads = (uint64_t)lp->block[0] * lp->block[1] * lp->block[2];
	uint64_t nwarp = (nthreads + WarpSize - 1) / WarpSize;
	uint64_t smem = (uint64_t)k->shared_static + lp->dyn_smem;
	uint64_t maxb = g->cfg.max_threads_per_block ? g->cfg.max_threads_per_block : 1024;

	if (maxb > 1024)
		maxb = 1024;
	if (!lp->grid[0] || !lp->grid[1] || !lp->grid[2] || !lp->block[0] || !lp->block[1] ||
	    !lp->block[2]) {
		fault0(f, FaultLimit, "grid and block dimensions must be at least 1%.0llu%.0llu",
		       k->name, 0, 0);
		return -1;
	}
	if (lp->grid[0] > 0x7fffffffu || lp->grid[1] > 65535 || lp->grid[2] > 65535) {
		fault0(f, FaultLimit, "grid (%llu, ...) exceeds the limits 2^31-1 x 65535 x 65535%.0llu",
		       k->name, lp->grid[0] > 0x7fffffffu ? lp->grid[0] : lp->grid[1] > 65535
		       ? lp->grid[1] : lp->grid[2], 0);
		return -1;
	}
	if (nthreads > maxb || lp->block[0] > 1024 || lp->block[1] > 1024 || lp->block[2] > 64) {
		fault0(f, FaultLimit, "a block of %llu threads exceeds the limit of %llu per block "
		       "(and 1024 x 1024 x 64 per dimension)", k->name, nthreads, maxb);
		return -1;
	}
	if (in->max_threads[0] && nthreads > (uint64_t)in->max_threads[0] *
	    (in->max_threads[1] ? in->max_threads[1] : 1) * (in->max_threads[2] ? in->max_threads[2] : 1)) {
		fault0(f, FaultLimit, "a block of %llu threads exceeds the kernel's __launch_bounds__ "
		       "of %llu", k->name, nthreads, (unsigned long long)in->max_threads[0] *
		       (in->max_threads[1] ? in->max_threads[1] : 1) *
		       (in->max_threads[2] ? in->max_threads[2] : 1));
		return -1;
	}
	if (in->reqntid[0] && (lp->block[0] != (uint32_t)in->reqntid[0] ||
	    lp->block[1] != (uint32_t)(in->reqntid[1] ? in->reqntid[1] : 1) ||
	    lp->block[2] != (uint32_t)(in->reqntid[2] ? in->reqntid[2] : 1))) {
		fault0(f, FaultLimit, "the kernel requires a block of exactly %llu x %llu (x ...) "
		       "threads (__cluster_dims__/reqntid)", k->name, (unsigned long long)in->reqntid[0],
		       (unsigned long long)(in->reqntid[1] ? in->reqntid[1] : 1));
		return -1;
	}
	if (smem > g->cfg.max_smem_per_block) {
		fault0(f, FaultLimit, "%llu bytes of shared memory (static + dynamic) exceed the "
		       "limit of %llu per block", k->name, smem, g->cfg.max_smem_per_block);
		return -1;
	}
	if (nwarp * nreg_alloc * WarpSize > g->cfg.regs_per_sm) {
		fault0(f, FaultLimit, "too many resources requested: %llu registers per thread x %llu "
		       "threads exceed the SM's register file", k->name,
		       (unsigned long long)(g->cfg.fiber ? k->nreg : k->nreg_launch), nthreads);
		return -1;
	}
	if (k->param_size >= 0 && lp->params_size != (uint32_t)k->param_size) {
		fault0(f, FaultBadArgs, "the kernel takes %llu bytes of parameters, the launch passed "
		       "%llu", k->name, (unsigned long long)k->param_size,
		       (unsigned long long)lp->params_size);
		return -1;
	}
	if ((uint64_t)k->param_base + lp->params_size > CBankSize ||
	    (lp->params_size && !lp->params)) {
		fault0(f, FaultBadArgs, "a parameter block of %llu bytes does not fit constant bank 0 "
		       "at 0x%llx", k->name, lp->params_size, (unsigned long long)k->param_base);
		return -1;
	}
	return 0;
}

static void
put32(uint8_t *b, uint32_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static void
put64(uint8_t *b, uint32_t off, uint64_t v)
{
	memcpy(b + off, &v, 8);
}

/* what the warps of a stuck CTA wait on, into the fault */
void
sim_deadlock(Exec *x, Cta *c)
{
	char buf[400];
	int n = 0;

	if (x->fiber) {
		int waits = 0;
		for (uint32_t k = 0; k < c->nwarp; k++)
			waits |= (c->warp[k].wait_busy | c->warp[k].wait_fnum) != 0;
		if (waits) {
			n = fiber_deadlock_text(x, c, buf, 0, (int)sizeof buf);
			x->w = NULL;
			sim_fault(x, FaultDeadlock, 0, "%s", buf);
			return;
		}
	}
	for (uint32_t k = 0; k < c->nwarp && n < (int)sizeof buf - 1; k++) {
		Warp *w = &c->warp[k];
		uint32_t live = w->present & ~w->exited, l;
		if (!live)
			continue;
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%swarp %u:", n ? "; " : "", w->id);
		if (w->wait_bar && n < (int)sizeof buf) {
			l = (unsigned)__builtin_ctz(w->wait_bar);
			if (w->bar_of[l] < 16)
				n += snprintf(buf + n, sizeof buf - (size_t)n, " %u at BAR %u (PC 0x%04x)",
				              sim_popc(w->wait_bar), w->bar_of[l], x->prog->ins[w->pc[l]].addr);
			else
				n += snprintf(buf + n, sizeof buf - (size_t)n,
				              " %u at UCGABAR_WAIT (PC 0x%04x)", sim_popc(w->wait_bar),
				              x->prog->ins[w->pc[l]].addr);
		}
		for (unsigned b = 0; b < 16 && n < (int)sizeof buf; b++)
			if (w->bwait[b]) {
				l = (unsigned)__builtin_ctz(w->bwait[b]);
				n += snprintf(buf + n, sizeof buf - (size_t)n,
				              " %u at BSYNC B%u (PC 0x%04x) waiting for lanes 0x%08x",
				              sim_popc(w->bwait[b]), b, x->prog->ins[w->pc[l]].addr,
				              w->bmask[b] & live & ~w->bwait[b]);
			}
		for (int co = 0; co < 2; co++) {
			uint32_t ws = w->wait_warpsync & (co ? w->wscoll : ~w->wscoll);
			if (!ws || n >= (int)sizeof buf)
				continue;
			l = (unsigned)__builtin_ctz(ws);
			n += snprintf(buf + n, sizeof buf - (size_t)n, " %u at WARPSYNC%s 0x%08x (PC 0x%04x)",
			              sim_popc(ws), co ? ".COLLECTIVE" : "", w->wsmask[l],
			              x->prog->ins[w->pc[l]].addr);
		}
	}
	x->w = NULL;
	sim_fault(x, FaultDeadlock, 0, "CTA (%u,%u,%u) can never continue: %s", c->ctaid[0],
	          c->ctaid[1], c->ctaid[2], buf);
}

/* the functional driver's polls of the progress hook (Gpu.poll) */
typedef struct Poll {
	Gpu *g;
	uint64_t next;         /* poll when Exec.ninstr reaches this (UINT64_MAX: no hook) */
	uint64_t ctas_done, ctas;
} Poll;

enum { PollInstr = 1 << 20 }; /* warp instructions between two polls */

/* 1 if the hook asks the launch to stop: FaultInterrupted is then filled */
static int
poll_stop(Exec *x, Poll *p)
{
	SimProgress pr = {0, x->ninstr, p->ctas_done, p->ctas};
	int n;

	p->next = x->ninstr + PollInstr;
	if (!p->g->poll(p->g->poll_arg, &pr))
		return 0;
	x->fault->kind = FaultInterrupted;
	n = snprintf(x->fault->msg, sizeof x->fault->msg, "%s: kernel '%s': stopped after %llu warp "
	             "instructions, %llu of %llu CTAs done", sim_fault_name(FaultInterrupted),
	             x->prog->name, (unsigned long long)x->ninstr, (unsigned long long)p->ctas_done,
	             (unsigned long long)p->ctas);
	(void)n;
	return 1;
}

/* The CTA's shared window with the 1 KiB the driver reserves (docs/sim.md), where the row puts it
 * (ir/arch.h ArchRsv): below user shared memory on sm_90, whose nvcc code places user shared
 * memory from 0x400 on (the reserved region is [0, 0x400), %reserved_smem_offset_begin and _cap
 * are the constants 0 and 0x400, and .nv.shared.<kernel> already counts the 1 KiB when the kernel
 * has shared variables); above it on sm_8x, where user shared memory starts at 0 and the region
 * is the top of the allocation (%reserved_smem_offset_begin is SR_SMEMSZ - c[0x0][0x114]). */
static void
smem_layout(LaunchCx *lc, const Prog *k, const Arch *a, uint32_t dyn)
{
	uint32_t st = (uint32_t)k->shared_static;

	lc->smem_user = st + dyn;
	lc->smem_rsv = 0;
	if (a->rsv == ArchRsvBelow) {
		/* the kernel's own bytes, without the reserve its section counts (occupancy adds the
		 * reserve once, GpuConfig.smem_reserved_per_cta) */
		if (st >= a->rsv_bytes)
			lc->smem_user = st - a->rsv_bytes + dyn;
		lc->smem_size = (st > a->rsv_bytes ? st : a->rsv_bytes) + dyn;
	} else {
		lc->smem_rsv = (lc->smem_user + a->rsv_align - 1) / a->rsv_align * a->rsv_align;
		lc->smem_size = lc->smem_rsv + a->rsv_bytes;
	}
}

/* the driver's words of constant bank 0 for the reserved shared memory */
static void
bank0_reserved(uint8_t *bank0, const LaunchCx *lc, const Arch *a)
{
	const ArchBank0 *l = a->bank0;

	if (l->rsv_size)
		put32(bank0, l->rsv_size, a->rsv_bytes);
	put32(bank0, l->rsv_end, lc->smem_rsv + a->rsv_bytes);
	put32(bank0, l->rsv1, (a->rsv == ArchRsvBelow ? (uint32_t)SimSharedWindow : 0) + lc->smem_rsv);
}

/* A cooperative launch (cuLaunchCooperativeKernel): the driver refuses a grid that cannot be
 * resident at once (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE), with the occupancy of the SM
 * model (launch_begin's occ), and hands the kernel a zeroed grid-sync workspace:
 * cooperative_groups' grid_workspace { wsSize; barrier; }, whose address nvcc reads from
 * c[0x0][0x8c]:c[0x0][0x90]
 * on sm_8x and c[0x0][0x44]:c[0x0][0x48] on sm_90. */
static int
coop_begin(Gpu *g, const Prog *k, LaunchCx *lc, SimFault *f)
{
	uint64_t fit = (uint64_t)lc->ctas_per_sm * (uint64_t)g->cfg.nsm;
	uint32_t ws[2] = { GridWsBytes, 0 };
	Alloc *a;

	if (lc->nctas > fit) {
		f->kind = FaultLimit;
		snprintf(f->msg, sizeof f->msg, "%s: kernel '%s': a cooperative launch of %u CTAs "
		         "exceeds the %llu that can be resident at once (%u per SM, limited by %s, x %d "
		         "SMs): CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", sim_fault_name(FaultLimit),
		         k->name, lc->nctas, (unsigned long long)fit, lc->ctas_per_sm, lc->occ_limit,
		         g->cfg.nsm);
		return -1;
	}
	if (gpu_malloc(g, GridWsBytes, &lc->grid_ws) < 0) {
		fault0(f, FaultInternal, "no device memory for the grid-sync workspace%.0llu%.0llu",
		       k->name, 0, 0);
		lc->grid_ws = 0;
		return -1;
	}
	a = g->alloc[g->nalloc - 1];
	a->name = "grid-sync workspace";
	free(a->init);              /* zeroed for the kernel: initialised, not tracked */
	a->init = NULL;
	memcpy(a->data, ws, sizeof ws);
	lc->cooperative = 1;
	return 0;
}

/* a round over a CTA's warps: what it saw */
typedef struct Round {
	int progress;          /* a warp issued */
	int alldone;           /* every warp has ended */
	int parked;            /* a warp is parked (it yielded) */
} Round;

/* run warp w of the CTA for up to quantum instructions, noting what the round saw: ResFault on a
 * fault (the fault filled), else 0 */
static int
run_warp(Exec *x, Warp *w, unsigned quantum, Poll *p, Round *rd)
{
	unsigned issued;
	int r;

	x->w = w;
	if (w->wait_busy)        /* FIBER: a busy-bit wait whose condition may hold */
		fiber_busy_recheck(x, w);
	if (w->parked) {         /* it yielded: it runs when no other warp can */
		rd->alldone = 0;
		rd->parked = 1;
		return 0;
	}
	r = sim_run(x, quantum, &issued);
	if (issued)
		rd->progress = 1;
	if (r == StepFault)
		return ResFault;
	if (r == StepYield)
		w->parked = 1;
	if (r != StepDone)
		rd->alldone = 0;
	if (x->ninstr >= p->next && poll_stop(x, p))
		return ResFault;
	return 0;
}

/* the end of a round over CTA c: ResDone, ResSmWait, ResFault (a deadlock, reported), or -1 to
 * run another round (parked warps released when nothing else could go on) */
static int
round_end(Exec *x, Cta *c, const Round *rd)
{
	if (rd->alldone)
		return ResDone;
	if (!rd->progress && rd->parked) {
		for (uint32_t k = 0; k < c->nwarp; k++)
			c->warp[k].parked = 0;
	} else if (!rd->progress && c->smbar_wait) {
		return ResSmWait;
	} else if (!rd->progress) {
		sim_deadlock(x, c);
		return ResFault;
	}
	return -1;
}

/* run one CTA until it ends (ResDone), waits at an SM-wide barrier with no warp able to go on
 * (ResSmWait), or faults (ResFault, the fault filled) */
static int
run_cta(Exec *x, Cta *c, Poll *p)
{
	for (;;) {
		Round rd = { 0, 1, 0 };
		int r;
		for (uint32_t k = 0; k < c->nwarp; k++)
			if (run_warp(x, &c->warp[k], Quantum, p, &rd))
				return ResFault;
		if ((r = round_end(x, c, &rd)) >= 0)
			return r;
	}
}

int
resident_run(uint32_t nslot, uint64_t nctas, const ResidentOps *ops, void *arg)
{
	uint32_t *fifo = xmalloc(nslot * sizeof *fifo);  /* resident slots, oldest CTA first */
	uint8_t *waits = xmalloc(nslot);                 /* by slot: at the SM-wide barrier */
	uint32_t n = 0;
	uint64_t next = 0;
	int rc = 0;

	for (; n < nslot && next < nctas; n++) {
		fifo[n] = n;
		waits[n] = 0;
		ops->start(arg, n, next++);
	}
	while (n && !rc) {
		uint32_t i = 0, slot;

		while (i < n && waits[fifo[i]])
			i++;
		if (i == n) {              /* every resident CTA waits at the barrier: release them */
			for (i = 0; i < n; i++) {
				waits[fifo[i]] = 0;
				ops->release(arg, fifo[i]);
			}
			continue;
		}
		slot = fifo[i];
		switch (ops->run(arg, slot)) {
		case ResDone:
			memmove(&fifo[i], &fifo[i + 1], (n - i - 1) * sizeof *fifo);
			n--;
			if (next < nctas) {
				ops->start(arg, slot, next++);
				waits[slot] = 0;
				fifo[n++] = slot;
			}
			break;
		case ResSmWait:
			waits[slot] = 1;
			break;
		default:
			rc = -1;
			break;
		}
	}
	free(fifo);
	free(waits);
	return rc;
}

int
launch_begin(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimFault *fault,
             LaunchCx *lc, SimOccupancyFn occ)
{
	const KEnt *ke = NULL;
	const Arch *a = arch_code(k->sm);
	uint32_t bank0_size;
	uint8_t *bank0;
	Exec *x = &lc->x;

	memset(lc, 0, sizeof *lc);
	memset(fault, 0, sizeof *fault);
	/* setmaxnreg: the launch allocates REGCOUNT (nreg_launch), the warps' storage covers every
	 * register the kernel names (docs/sim-wgmma.md); FIBER places windows of Prog.nreg */
	lc->nreg_win = ((uint32_t)k->nreg + 7) & ~7u;
	lc->nreg_alloc = g->cfg.fiber ? lc->nreg_win : ((uint32_t)k->nreg_launch + 7) & ~7u;
	lc->nthreads = (uint64_t)lp->block[0] * lp->block[1] * lp->block[2];
	for (uint32_t j = 0; j < sm->nk; j++)
		if (sm->k[j].prog == (k->orig ? k->orig : k))
			ke = &sm->k[j];
	if (!ke) {
		fault0(fault, FaultInternal, "not a kernel of this module%.0llu%.0llu", k->name, 0, 0);
		return -1;
	}
	if (check_launch(g, k, lp, fault, lc->nreg_alloc) < 0 ||
	    cluster_check(a, k, lp, g->cfg.fiber, fault) < 0)
		return -1;
	lc->lp = *lp;
	lc->lp.params = NULL;
	lc->nrank = cluster_explicit(lp) ? cluster_size(lp) : 1;
	lc->nwarp = (uint32_t)((lc->nthreads + WarpSize - 1) / WarpSize);
	lc->nweft = lc->nwarp;
	lc->fiber = g->cfg.fiber;
	if (lc->fiber) {
		uint64_t mx = (uint64_t)k->fn->info.maxfibers;
		uint32_t nsub = g->cfg.nsub ? g->cfg.nsub : 4;
		uint32_t ctx = g->cfg.fiber_contexts ? g->cfg.fiber_contexts : 64;
		if (mx > lc->nthreads)
			lc->nweft = (uint32_t)((mx + WarpSize - 1) / WarpSize);
		if ((lc->nweft + nsub - 1) / nsub > ctx) {
			fault0(fault, FaultLimit, "%llu wefts (.maxfibers or the threads, / 32) exceed the "
			       "%llu weft contexts of a sub-partition (fiber_contexts)", k->name, lc->nweft,
			       ctx);
			return -1;
		}
		/* docs/fiber-sm.md, "SM ownership": a pool owns the SM; so does SETFIBERNUM with an
		 * immediate count above the launch's threads (a grow known before the launch) or
		 * beside absolute registers (V sources, busy bits: a placement fixed by one CTA) */
		int grow = 0, vabs = 0;
		lc->fiber_solo = k->fn->npool != 0;
		for (uint32_t j = 0; j < k->nins; j++) {
			const DIns *d = &k->ins[j];
			vabs |= d->op == OSETBUSYBIT || (d->op == ODEPBAR && d->nsrc &&
			        (d->src[0].kind == DR || d->src[0].kind == DV));
			for (unsigned o = 0; o < d->nsrc; o++)
				vabs |= d->src[o].kind == DV;
			if (d->op != OSETFIBERNUM)
				continue;
			lc->fiber_grow = 1;
			if (d->nsrc && d->src[0].kind == DImm && (uint64_t)d->src[0].imm > lc->nthreads)
				grow = 1;
		}
		if (grow || (lc->fiber_grow && vabs))
			lc->fiber_solo = 1;
	}
	smem_layout(lc, k, a, lp->dyn_smem);
	lc->nctas = lp->grid[0] * lp->grid[1] * lp->grid[2];
	lc->occ_limit = "ctas";
	lc->ctas_per_sm = occ ? occ(&g->cfg, lc, &lc->occ_limit) : 1;
	if (lp->cooperative && coop_begin(g, k, lc, fault) < 0)
		return -1;

	/* constant bank 0 as the driver lays it out */
	bank0_size = ke->bank0 > Bank0Min ? ke->bank0 : Bank0Min;
	if ((uint32_t)k->param_base + lp->params_size > bank0_size)
		bank0_size = (uint32_t)k->param_base + lp->params_size;
	bank0 = xmalloc(bank0_size);
	memset(bank0, 0, bank0_size);
	for (int d = 0; d < 3; d++) {
		put32(bank0, C0Ntid + 4 * d, lp->block[d]);
		put32(bank0, C0Nctaid + 4 * d, lp->grid[d]);
	}
	put64(bank0, C0SharedWin, SimSharedWindow);
	put64(bank0, C0LocalWin, SimLocalWindow);
	if (a->bank0->param_win)
		put64(bank0, a->bank0->param_win, SimParamWindow + (uint64_t)k->param_base);
	put32(bank0, C0StackTop, (uint32_t)k->stack_size);
	put64(bank0, a->bank0->desc, 0x0000000000000000ull);
	bank0_reserved(bank0, lc, a);
	cluster_bank0(bank0, a, lp);
	if (lc->cooperative) {
		/* the grid-sync workspace's address: %envreg1 (high) and %envreg2 (low) */
		put32(bank0, a->bank0->grid_ws_hi, (uint32_t)(lc->grid_ws >> 32));
		put32(bank0, a->bank0->grid_ws_lo, (uint32_t)lc->grid_ws);
	}
	if (lp->params_size)
		memcpy(bank0 + k->param_base, lp->params, lp->params_size);
	lc->bank0 = bank0;

	x->gpu = g;
	x->prog = k;
	x->fault = fault;
	x->watchdog = g->cfg.watchdog ? g->cfg.watchdog : SimWatchdogDefault;
	x->cbank[0] = bank0;
	x->cbank_size[0] = bank0_size;
	for (unsigned b = 1; b < NumCBanks; b++) {
		x->cbank[b] = ke->cb[b];
		x->cbank_size[b] = ke->cb[b] ? ke->cbsize[b] : 0;
	}
	for (int d = 0; d < 3; d++) {
		x->ntid[d] = lp->block[d];
		x->nctaid[d] = lp->grid[d];
	}
	x->nsm = 1;
	x->fiber = (uint32_t)lc->fiber;
	return 0;
}

void
launch_end(LaunchCx *lc)
{
	free(lc->bank0);
	lc->bank0 = NULL;
	if (lc->grid_ws)
		gpu_free_mem(lc->x.gpu, lc->grid_ws);
	lc->grid_ws = 0;
}

int
fiber_sm_begin(LaunchCx *lc, Exec *x)
{
	char why[200];

	weft_reset(x->sm);
	if (weft_pools(x->sm, x->prog->fn, why, sizeof why) < 0) {
		x->w = NULL;
		sim_fault(x, FaultFiber, 0, "%s", why);
		return -1;
	}
	(void)lc;
	return 0;
}

/* FIBER: windows placed per weft in its slice (window size Prog.nreg), dormant contexts */
static void
cta_start_fiber(LaunchCx *lc, Exec *x, Cta *c)
{
	const GpuConfig *g = &x->gpu->cfg;
	uint32_t nreg = (uint32_t)x->prog->nreg;
	char why[160];

	c->nwarp = lc->nweft;
	c->nfibers = c->nthreads;
	if (x->prog->fn->info.maxfibers > 0 && (uint32_t)x->prog->fn->info.maxfibers > c->nthreads)
		c->maxfibers = (uint32_t)x->prog->fn->info.maxfibers;
	else
		c->maxfibers = c->nthreads;
	c->fiber_gen = 0;
	c->fnum_count = 0;
	for (uint32_t w = 0; w < lc->nweft; w++) {
		uint64_t first = (uint64_t)w * WarpSize;
		uint32_t n = first >= lc->nthreads ? 0 : lc->nthreads - first >= WarpSize ? WarpSize
		           : (uint32_t)(lc->nthreads - first), base = 0;
		Warp *wp = &c->warp[w];
		if (!n) {
			sim_warp_init(wp, w, 0, 0, 0);
			wp->dormant = 1;
			continue;
		}
		if (weft_place(x->sm, g->nsub, g->fiber_slice_regs, nreg, w, &base, why,
		               sizeof why) < 0) {
			sim_warp_init(wp, w, 0, 0, 0);
			wp->dormant = 1;
			if (x->fault->kind == FaultNone) {
				x->w = NULL;
				sim_fault(x, FaultFiber, 0, "CTA (%u,%u,%u) weft %u: its window of %u "
				          "registers does not fit: %s", c->ctaid[0], c->ctaid[1], c->ctaid[2],
				          w, nreg, why);
			}
			continue;
		}
		sim_warp_init(wp, w, n == WarpSize ? ~0u : (1u << n) - 1, base, nreg);
		for (uint32_t l = 0; l < n; l++) {
			uint64_t t = first + l;
			wp->tid[l][0] = (uint32_t)(t % x->ntid[0]);
			wp->tid[l][1] = (uint32_t)(t / x->ntid[0] % x->ntid[1]);
			wp->tid[l][2] = (uint32_t)(t / ((uint64_t)x->ntid[0] * x->ntid[1]));
		}
	}
}

void
cta_end(LaunchCx *lc, Exec *x, Cta *c)
{
	if (!lc->fiber)
		return;
	for (uint32_t w = 0; w < c->nwarp; w++)
		if (!c->warp[w].dormant && c->warp[w].nreg) {
			weft_free(x->sm, c->warp[w].rbase, c->warp[w].nreg);
			c->warp[w].nreg = 0;
			c->warp[w].dormant = 1;
		}
}

void
cta_start(LaunchCx *lc, Exec *x, Cta *c, uint64_t linear, uint32_t rbase)
{
	uint32_t gx = x->nctaid[0], gy = x->nctaid[1];
	uint32_t nwarp = lc->nwarp, nreg = lc->nreg_win;
	uint64_t nthreads = lc->nthreads;

	c->ctaid[0] = (uint32_t)(linear % gx);
	c->ctaid[1] = (uint32_t)(linear / gx % gy);
	c->ctaid[2] = (uint32_t)(linear / ((uint64_t)gx * gy));
	c->nthreads = (uint32_t)nthreads;
	c->nwarp = nwarp;
	c->smem_size = lc->smem_size;
	c->lsize = (uint32_t)x->prog->stack_size;
	c->nexited = 0;
	c->cga_arrived = 0;
	c->cga_phase = 0;
	c->rpool = 0;
	c->mbar_epoch = 0;
	c->rank = 0;
	c->nrank = 1;
	c->peer = NULL;
	memset(c->bar_arrived, 0, sizeof c->bar_arrived);
	memset(c->bar_expect, 0, sizeof c->bar_expect);
	memset(c->bar_red, 0, sizeof c->bar_red);
	memset(c->bar_op, 0, sizeof c->bar_op);
	memset(c->smem, 0, c->smem_size);
	if (c->lsize)
		memset(c->lmem, 0, (size_t)c->lsize * lc->nweft * WarpSize);
	c->chk = NULL;
	if (x->gpu->chk)
		sim_check_cta(x, c);
	if (lc->fiber) {
		cta_start_fiber(lc, x, c);
		return;
	}
	memset(x->sm->rf + rbase, 0, (size_t)nwarp * nreg * sizeof *x->sm->rf);
	for (uint32_t w = 0; w < nwarp; w++) {
		uint64_t first = (uint64_t)w * WarpSize;
		uint32_t n = nthreads - first >= WarpSize ? WarpSize : (uint32_t)(nthreads - first);
		Warp *wp = &c->warp[w];
		sim_warp_init(wp, w, n == WarpSize ? ~0u : (1u << n) - 1, rbase + w * nreg, nreg);
		for (uint32_t l = 0; l < n; l++) {
			uint64_t t = first + l;
			wp->tid[l][0] = (uint32_t)(t % x->ntid[0]);
			wp->tid[l][1] = (uint32_t)(t / x->ntid[0] % x->ntid[1]);
			wp->tid[l][2] = (uint32_t)(t / ((uint64_t)x->ntid[0] * x->ntid[1]));
		}
	}
}

/* A group of CTAs resident together in functional mode: a cooperative grid (every CTA; ids
 * NULL) or one cluster (ids: the CTAs' linear numbers by rank; Cta.peer set). Each CTA has its own
 * window of a register file sized for the group, the warps of all CTAs are stepped round-robin,
 * so that a CTA spinning on a grid or cluster barrier lets the others reach it; a warp that
 * yielded (a barrier's spin) is parked until no other warp of the group can issue, and the
 * progress hook is polled (Ctrl-C) as in run_cta. 0, or -1 with the fault filled. */
static int
run_group(LaunchCx *lc, Exec *x, Poll *pp, const uint64_t *ids, uint32_t n)
{
	uint32_t per = lc->nwarp * lc->nreg_win;
	Cta *cta = xmalloc((size_t)n * sizeof *cta);
	Cta **peer = xmalloc((size_t)n * sizeof *peer);
	uint8_t *done = xmalloc(n);
	uint64_t done0 = pp->ctas_done;
	Sm big;
	Poll poll = *pp;
	int rc = 0;

	if (lc->fiber) {
		free(cta);
		free(peer);
		free(done);
		fault0(x->fault, FaultLimit, "a cooperative launch is not supported with a FIBER "
		       "configuration (sm_model = fiber)%.0llu%.0llu", x->prog->name, 0, 0);
		return -1;
	}
	memset(cta, 0, (size_t)n * sizeof *cta);
	memset(done, 0, n);
	big.rf = xmalloc((size_t)(n * per > SmVRegs ? n * per : SmVRegs) * sizeof *big.rf); /* V0..V2047 */
	big.rf_used = n * per;
	big.cta = cta;
	big.ncta = n;
	x->sm = &big;
	for (uint32_t i = 0; i < n; i++) {
		cta[i].warp = xmalloc(lc->nwarp * sizeof *cta[i].warp);
		cta[i].smem = xmalloc(lc->smem_size ? lc->smem_size : 1);
		cta[i].lmem = xmalloc(x->prog->stack_size ? (size_t)x->prog->stack_size * lc->nwarp *
		                      WarpSize : 1);
		cta_start(lc, x, &cta[i], ids ? ids[i] : i, i * per);
		peer[i] = &cta[i];
		if (ids) {
			cta[i].rank = i;
			cta[i].nrank = n;
			cta[i].peer = peer;
		}
	}
	for (uint32_t left = n; left && !rc;) {
		int progress = 0, parked = 0;
		for (uint32_t i = 0; i < n && !rc; i++) {
			int alldone = 1;
			if (done[i])
				continue;
			x->cta = &cta[i];
			for (uint32_t k = 0; k < cta[i].nwarp; k++) {
				unsigned issued;
				int r;
				x->w = &cta[i].warp[k];
				if (x->w->parked) {  /* it yielded (a grid-barrier spin): runs when none can */
					alldone = 0;
					parked = 1;
					continue;
				}
				r = sim_run(x, Quantum, &issued);
				progress |= issued != 0;
				if (r == StepFault) {
					rc = -1;
					break;
				}
				if (r == StepYield)
					x->w->parked = 1;
				if (r != StepDone)
					alldone = 0;
				poll.ctas_done = done0 + n - left;
				if (x->ninstr >= poll.next && poll_stop(x, &poll)) {
					rc = -1;
					break;
				}
			}
			if (!rc && alldone) {
				done[i] = 1;
				left--;
			}
		}
		if (!rc && left && !progress && parked) {
			for (uint32_t i = 0; i < n; i++)
				for (uint32_t k = 0; k < cta[i].nwarp; k++)
					cta[i].warp[k].parked = 0;
			continue;
		}
		if (!rc && left && !progress) {
			for (uint32_t i = 0; i < n; i++)
				if (!done[i]) {
					x->cta = &cta[i];
					sim_deadlock(x, &cta[i]);
					break;
				}
			rc = -1;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		free(cta[i].warp);
		free(cta[i].smem);
		free(cta[i].lmem);
	}
	free(big.rf);
	free(cta);
	free(peer);
	free(done);
	x->sm = NULL;
	x->cta = NULL;
	pp->next = poll.next;
	pp->ctas_done = done0 + n;
	return rc;
}

/* a launch with clusters of more than one CTA in functional mode: each cluster's CTAs resident
 * together (run_group), one cluster after another. 0, or -1 with the fault filled. */
static int
run_clusters(LaunchCx *lc, Exec *x)
{
	uint32_t n = lc->nrank;
	uint64_t ids[8], nclusters = lc->nctas / n;   /* 8: cluster.c's ClusterMax */
	Poll poll = { x->gpu, x->gpu->poll ? PollInstr : UINT64_MAX, 0, lc->nctas };

	for (uint64_t c = 0; c < nclusters; c++) {
		for (uint32_t r = 0; r < n; r++)
			ids[r] = cluster_member(&lc->lp, c, r);
		if (run_group(lc, x, &poll, ids, n) < 0)
			return -1;
	}
	return 0;
}

/* the functional SM: the resident CTAs' buffers, each with its own register window */
typedef struct FuncSm {
	LaunchCx *lc;
	Exec *x;
	Poll *poll;
	Cta *cta;              /* by slot */
	uint32_t per;          /* vector registers of a CTA's window */
	uint64_t done;         /* CTAs finished */
	uint64_t rng;          /* run_cta_random's state (Gpu.warp_order), 0: round-robin */
} FuncSm;

/* xorshift64*: the next of a seeded sequence */
static uint64_t
rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* run_cta with the warp order as a variable (Gpu.warp_order: fibersim --warp-order): each round
 * visits the CTA's warps in a random order, each for a random quantum of 1 to Quantum
 * instructions, so that a kernel whose result depends on how warps interleave shows it; a
 * launch-time variant, chosen by fsm_run, the round-robin loop untouched */
static int
run_cta_random(Exec *x, Cta *c, Poll *p, uint64_t *rng)
{
	uint32_t order[1024];
	uint32_t nw = c->nwarp < 1024 ? c->nwarp : 1024;

	for (;;) {
		Round rd = { 0, 1, 0 };
		int r;
		for (uint32_t k = 0; k < nw; k++)
			order[k] = k;
		for (uint32_t k = nw; k > 1; k--) {
			uint32_t j = (uint32_t)(rng_next(rng) % k), t = order[k - 1];
			order[k - 1] = order[j];
			order[j] = t;
		}
		for (uint32_t i = 0; i < nw; i++)
			if (run_warp(x, &c->warp[order[i]], 1 + (unsigned)(rng_next(rng) % Quantum), p, &rd))
				return ResFault;
		if ((r = round_end(x, c, &rd)) >= 0)
			return r;
	}
}

static void
fsm_start(void *arg, uint32_t slot, uint64_t linear)
{
	FuncSm *f = arg;

	cta_start(f->lc, f->x, &f->cta[slot], linear, slot * f->per);
	f->cta[slot].smbar_wait = 0;
}

static int
fsm_run(void *arg, uint32_t slot)
{
	FuncSm *f = arg;
	int r;

	f->x->cta = &f->cta[slot];
	f->poll->ctas_done = f->done;
	if (f->x->fault->kind != FaultNone)   /* FIBER: a window did not fit (cta_start) */
		return ResFault;
	r = f->rng ? run_cta_random(f->x, &f->cta[slot], f->poll, &f->rng)
	           : run_cta(f->x, &f->cta[slot], f->poll);
	if (r == ResDone) {
		f->done++;
		cta_end(f->lc, f->x, &f->cta[slot]);
	}
	return r;
}

/* the SM-wide barrier lets the CTA of slot go on */
static void
fsm_release(void *arg, uint32_t slot)
{
	FuncSm *f = arg;

	f->cta[slot].smbar_wait = 0;
}

static const ResidentOps fsm_ops = { fsm_start, fsm_run, fsm_release };

int
sim_launch(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimStats *st,
           SimFault *fault)
{
	LaunchCx lc;
	Exec *x = &lc.x;
	FuncSm f;
	Poll poll;
	uint32_t nslot;
	uint32_t (*rf0)[WarpSize] = NULL;
	int rc = 0, ok;

	if (st)
		memset(st, 0, sizeof *st);
	if (launch_begin(g, sm, k, lp, fault, &lc, g->cfg.occupancy) < 0)
		return -1;
	if (lc.cooperative || lc.nrank > 1) {
		poll.g = g;
		poll.next = g->poll ? PollInstr : UINT64_MAX;
		poll.ctas_done = 0;
		poll.ctas = lc.nctas;
		rc = lc.cooperative ? run_group(&lc, x, &poll, NULL, lc.nctas) : run_clusters(&lc, x);
		if (st) {
			st->warp_instructions = x->ninstr;
			st->thread_instructions = x->nthread_instr;
		}
		launch_end(&lc);
		return rc;
	}
	/* as many CTAs resident as the occupancy allows (at least one: a CTA that would not fit an
	 * SM of the timing model still runs) and the register file holds */
	memset(&f, 0, sizeof f);
	f.per = lc.nwarp * lc.nreg_win;
	nslot = lc.ctas_per_sm ? lc.ctas_per_sm : 1;
	if (f.per && nslot > SmVRegs / f.per)
		nslot = SmVRegs / f.per ? SmVRegs / f.per : 1;
	if (lc.fiber_solo || lc.fiber_grow)
		nslot = 1;             /* FIBER: a pool (the kernel owns its SM) or SETFIBERNUM (the
		                          functional driver runs its CTAs one at a time: a grow never
		                          waits for another CTA; docs/fiber-sm.md, "SM ownership") */
	if (nslot > lc.nctas)
		nslot = lc.nctas;
	f.lc = &lc;
	f.x = x;
	f.poll = &poll;
	f.rng = g->warp_order ? g->warp_order * 0x9e3779b97f4a7c15ull | 1 : 0;
	f.cta = xmalloc(nslot * sizeof *f.cta);
	memset(f.cta, 0, nslot * sizeof *f.cta);
	for (uint32_t i = 0; i < nslot; i++) {
		f.cta[i].warp = xmalloc(lc.nweft * sizeof *f.cta[i].warp);
		f.cta[i].smem = xmalloc(lc.smem_size ? lc.smem_size : 1);
		f.cta[i].lmem = xmalloc(k->stack_size ? (size_t)k->stack_size * lc.nweft * WarpSize : 1);
	}
	x->sm = &g->sm;
	if ((uint64_t)nslot * f.per > SmVRegs) {
		/* setmaxnreg: storage for registers past REGCOUNT (nreg_win), for this launch */
		rf0 = g->sm.rf;
		g->sm.rf = xmalloc((size_t)nslot * f.per * sizeof *g->sm.rf);
	}
	ok = !lc.fiber || fiber_sm_begin(&lc, x) == 0;
	g->sm.cta = f.cta;
	g->sm.ncta = nslot;
	g->sm.rf_used = nslot * f.per;
	x->cta = &f.cta[0];
	poll.g = g;
	poll.next = g->poll ? PollInstr : UINT64_MAX;
	poll.ctas = lc.nctas;
	rc = ok ? resident_run(nslot, lc.nctas, &fsm_ops, &f) : -1;
	if (st) {
		st->cycles = 0;
		st->warp_instructions = x->ninstr;
		st->thread_instructions = x->nthread_instr;
	}
	g->sm.cta = NULL;
	g->sm.ncta = 0;
	g->sm.rf_used = 0;
	if (rf0) {
		free(g->sm.rf);
		g->sm.rf = rf0;
	}
	for (uint32_t i = 0; i < nslot; i++) {
		free(f.cta[i].warp);
		free(f.cta[i].smem);
		free(f.cta[i].lmem);
	}
	free(f.cta);
	launch_end(&lc);
	return rc;
}
