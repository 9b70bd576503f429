/* warp.c: Volta-and-later independent thread scheduling. Every thread has its own PC; sim_step
 * runs one instruction for the runnable threads of a warp that share the lowest PC (not waiting
 * at BSYNC, WARPSYNC or a CTA barrier, not exited). Lowest-PC-first lets the threads that are
 * behind catch up, so a warp split by a branch meets again where the paths join, and nvcc's
 * structured code (forward branches, loops as backward branches, BSSY/BSYNC around divergent
 * regions) always makes progress: the lowest group either moves forward or loops, and a loop
 * it runs alone ends by its own data. Threads that spin waiting for another thread of the same
 * warp (locks) would starve under that policy alone: lanes that executed YIELD or NANOSLEEP
 * (sim_yield) are passed over while other lanes can run, and after FairLimit consecutive
 * divergent issues the picker goes round-robin over the PC groups until the warp is converged
 * again. WARPSYNC waits for the lanes of the same mask; WARPSYNC.EXCLUSIVE then lets its groups
 * through one at a time (ws_release); WARPSYNC.COLLECTIVE gathers its group, wherever its lanes
 * arrived, into one collective region, and ENDCOLLECTIVE sends each lane back to its own label
 * (sim_collective; the reading is ours: docs/sim.md, "Collective regions").
 *
 * Fast path: while every runnable thread is at one PC (Warp.uni), Warp.upc is that PC and the
 * per-thread pc[] entries of those threads are stale; they are written back only when control
 * flow splits the warp (a branch, an exit, a wait). The FIBER semantics (Exec.fiber: an
 * instruction's R destinations become Full) are a second copy of the step and of the loop,
 * chosen once per sim_run call or once per launch (sim_stepper): the SIMT copy tests nothing.
 */
#include "weft.h"

#include <string.h>

enum { FairLimit = 1 << 16 };      /* divergent issues before round-robin */

void
sim_warp_init(Warp *w, uint32_t id, uint32_t present, uint32_t rbase, uint32_t nreg)
{
	memset(w, 0, sizeof *w);
	w->id = id;
	w->present = present;
	w->rbase = rbase;
	w->nreg = nreg;
	w->p[RegPT] = ~0u;
	w->up[RegUPT] = 1;
	w->uni = 1;
	w->upc = 0;
}

/* the lanes waiting. fiber 0 leaves out the FIBER waits (busy bits, SETFIBERNUM): in SIMT mode
 * they are never set, since their instructions fault first (exec_fiber.c need_fiber) */
static inline uint32_t
blocked_in(const Warp *w, const int fiber)
{
	return w->wait_bsync | w->wait_warpsync | w->wait_bar |
	       (fiber ? w->wait_busy | w->wait_fnum : 0);
}

static inline uint32_t
blocked(const Warp *w)
{
	return blocked_in(w, 1);
}

/* lowest PC among lanes (or round-robin after w->last_pc): the lanes there. Lanes that
 * yielded (YIELD, NANOSLEEP) are passed over while another lane can run. */
static uint32_t
pick(const Warp *w, uint32_t run, uint32_t *pcp)
{
	uint32_t best = UINT32_MAX, lanes = 0, m;

	if (run & ~w->yielded)
		run &= ~w->yielded;
	if (w->spin < FairLimit) {
		for (m = run; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			if (w->pc[l] < best) {
				best = w->pc[l];
				lanes = 1u << l;
			} else if (w->pc[l] == best) {
				lanes |= 1u << l;
			}
		}
	} else {
		uint32_t wrap = UINT32_MAX, wlanes = 0;
		for (m = run; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint32_t pc = w->pc[l];
			if (pc > w->last_pc && pc < best) {
				best = pc;
				lanes = 1u << l;
			} else if (pc == best) {
				lanes |= 1u << l;
			}
			if (pc < wrap) {
				wrap = pc;
				wlanes = 1u << l;
			} else if (pc == wrap) {
				wlanes |= 1u << l;
			}
		}
		if (!lanes) {
			best = wrap;
			lanes = wlanes;
		}
	}
	*pcp = best;
	return lanes;
}

/* after a split: are all runnable lanes at one PC again? */
static void
reunify(Warp *w)
{
	uint32_t run = w->present & ~w->exited & ~blocked(w), pc;

	if (!run)
		return;
	pc = w->pc[__builtin_ctz(run)];
	for (uint32_t m = run; m; m &= m - 1)
		if (w->pc[__builtin_ctz(m)] != pc)
			return;
	w->uni = 1;
	w->upc = pc;
	w->spin = 0;
	w->yielded = 0;
}

/* after the instruction at pc ran for active: where each lane goes next */
static inline void
advance(Exec *x, Warp *w, uint32_t pc, uint32_t active)
{
	uint32_t adv;

	if (!x->next_pc_set && !w->dirty) {
		if (w->uni) {
			w->upc = pc + 1;
			return;
		}
		for (uint32_t m = active; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = pc + 1;
		reunify(w);
		return;
	}
	if (x->jumped) {
		if (w->uni && !w->dirty && x->next_pc_set == active) {
			w->upc = x->jump;         /* a converged warp branched as a whole */
			return;
		}
		x->jumped = 0;
		for (uint32_t m = active; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = x->jump;
	}
	adv = active & ~x->next_pc_set;
	for (uint32_t m = adv; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = pc + 1;
	w->uni = 0;
	w->dirty = 0;
	reunify(w);
}

/* lanes of active whose guard predicate holds */
static inline uint32_t
guarded(const Warp *w, const DIns *d, uint32_t active)
{
	if (d->guard < 0)
		return active;
	if (!d->guard_uniform)
		return active & (d->guard_not ? ~w->p[d->guard] : w->p[d->guard]);
	return (w->up[d->guard] != 0) != (d->guard_not != 0) ? active : 0;
}

static int
watchdog(Exec *x, uint32_t active)
{
	sim_fault(x, FaultWatchdog, (unsigned)__builtin_ctz(active),
	          "%llu warp instructions issued without the kernel finishing (limit %llu: the "
	          "configuration key watchdog, fibersim --set watchdog=N)",
	          (unsigned long long)x->ninstr, (unsigned long long)x->watchdog);
	return StepFault;
}

/* The complete group of the lane l waiting at a WARPSYNC, 0 if it is not complete. A lane
 * waiting at WARPSYNC m is complete when every live lane of m waits at a WARPSYNC of the same
 * kind (plain, .EXCLUSIVE, .COLLECTIVE) with the same mask m (bar.warp.sync: "the same
 * membermask value"). */
static uint32_t
ws_group(const Warp *w, unsigned l)
{
	uint32_t live = w->present & ~w->exited, mk = w->wsmask[l];
	uint32_t ex = w->wsexcl >> l & 1, co = w->wscoll >> l & 1, grp = 0;

	if (mk & live & ~w->wait_warpsync)
		return 0;
	for (uint32_t m = w->wait_warpsync; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		if (w->wsmask[k] == mk && (w->wsexcl >> k & 1) == ex && (w->wscoll >> k & 1) == co)
			grp |= 1u << k;
	}
	return (mk & live & ~grp) ? 0 : grp;
}

static uint32_t
excl_ready(const Warp *w)
{
	for (uint32_t m = w->wsexcl & w->wait_warpsync; m; m &= m - 1) {
		uint32_t g = ws_group(w, (unsigned)__builtin_ctz(m));
		if (g)
			return g;
	}
	return 0;
}

/* A complete group g at WARPSYNC.COLLECTIVE: its lanes may wait at different instructions
 * (nvcc's copies of one collective region, sim_collective); all of them go on together
 * through the region of the lowest one, each with its own registers. */
static void
coll_gather(Warp *w, uint32_t g)
{
	uint32_t site = UINT32_MAX;

	for (uint32_t m = g; m; m &= m - 1)
		if (w->pc[__builtin_ctz(m)] < site)
			site = w->pc[__builtin_ctz(m)];
	for (uint32_t m = g; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = site;
	w->wscoll &= ~g;
}

/* Release the WARPSYNC waiters whose group is complete. Groups at WARPSYNC.EXCLUSIVE go one
 * at a time: each runs alone (REDUX over its own lanes) until it waits again (the BSYNC that
 * closes nvcc's region) or exits, then the next one goes. */
static void
ws_release(Exec *x, Warp *w)
{
	uint32_t rel = 0, done = 0, g;

	for (uint32_t m = w->wait_warpsync & ~w->wsexcl; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if ((done >> l) & 1)
			continue;
		g = ws_group(w, l);
		done |= g | 1u << l;
		rel |= g;
		if (g & w->wscoll)
			coll_gather(w, g);
	}
	w->wait_warpsync &= ~rel;
	sim_wake(x, w, rel);
	if (w->wsexcl && !(w->exrun & w->present & ~w->exited & ~blocked(w)) &&
	    (g = excl_ready(w))) {
		w->wait_warpsync &= ~g;
		w->wsexcl &= ~g;
		w->exrun = g;
		sim_wake(x, w, g);
	}
}

uint32_t
sim_peek(const Warp *w)
{
	uint32_t live = w->present & ~w->exited;
	uint32_t run = live & ~blocked(w), pc, g;

	if (!run && w->wsexcl && (g = excl_ready(w)))
		return w->pc[__builtin_ctz(g)] + 1; /* sim_step releases that group and runs it */
	if (!run)
		return live ? PeekBlocked : PeekDone;
	if (w->uni)
		return w->upc;
	pick(w, run, &pc);
	return pc;
}

/* one instruction of warp x->w (sim_step). fiber, a constant in each of the two copies below:
 * the FIBER semantics, where the instruction's R and pool destinations become Full (weft.h) */
static inline __attribute__((always_inline)) int
step(Exec *x, const int fiber)
{
	Warp *w = x->w;
	uint32_t live = w->present & ~w->exited;
	uint32_t run = live & ~blocked_in(w, fiber);
	uint32_t pc, active, mask;
	const DIns *d;

	if (!run && w->wsexcl && excl_ready(w)) {
		ws_release(x, w);
		w->dirty = 0;
		run = live & ~blocked_in(w, fiber);
	}
	if (!run)
		return live ? StepBlocked : StepDone;
	if (w->uni) {
		pc = w->upc;
		active = run;
	} else {
		active = pick(w, run, &pc);
		w->yielded &= ~active;
		w->spin++;
	}
	d = &x->prog->ins[pc];
	mask = guarded(w, d, active);
	x->pc = pc;
	x->active = active;
	x->next_pc_set = 0;
	x->jumped = 0;
	x->yield = 0;
	if (mask && !(fiber && w->nreg < (uint32_t)x->prog->nreg &&
	              fiber_window_check(x, d, mask) < 0)) {
		d->exec(x, d, mask);
		if (fiber)
			fiber_mark_full(x, d);
	}
	x->ninstr++;
	x->nthread_instr += sim_popc(active);
	w->ninstr++;
	w->last_pc = pc;
	if (x->fault->kind != FaultNone)
		return StepFault;
	if (x->ninstr >= x->watchdog)
		return watchdog(x, active);
	advance(x, w, pc, active);
	return StepIssued;
}

static int
step_simt(Exec *x)
{
	return step(x, 0);
}

static int
step_fiber(Exec *x)
{
	return step(x, 1);
}

SimStepFn
sim_stepper(const Exec *x)
{
	return x->fiber ? step_fiber : step_simt;
}

int
sim_step(Exec *x)
{
	return x->fiber ? step_fiber(x) : step_simt(x);
}

/* Up to quantum sim_steps of warp x->w, the same instructions in the same order, with the
 * converged case (every runnable lane at upc) run in a tight loop: while instructions neither
 * branch nor exit nor wait nor wake, the runnable lanes cannot change, so the loop only runs
 * the next instruction; Warp.ninstr and the thread count are added once at the end (nothing
 * reads them meanwhile). Stops early at a result other than StepIssued, which it returns;
 * *issued: instructions issued. fiber: as for step, a constant in each copy (sim_run). */
static inline __attribute__((always_inline)) int
run_quantum(Exec *x, unsigned quantum, unsigned *issued, const int fiber)
{
	Warp *w = x->w;
	const DIns *ins = x->prog->ins;
	const SimFault *f = x->fault;
	uint64_t nthr = 0;
	unsigned q = 0, fast = 0;
	int r = StepIssued;

	while (q < quantum) {
		uint32_t run = w->present & ~w->exited & ~blocked_in(w, fiber), pc, pop;
		const DIns *d;

		if (!w->uni || !run) {
			r = fiber ? step_fiber(x) : step_simt(x);
			if (r != StepIssued)
				break;
			q++;
			if (x->yield &&
			    (w->uni || !(w->present & ~w->exited & ~blocked_in(w, fiber) & ~w->yielded))) {
				r = StepYield;   /* every lane that can run yielded: other warps first */
				break;
			}
			continue;
		}
		pop = sim_popc(run);
		pc = w->upc;
		d = &ins[pc];
		x->active = run;
		for (;;) {
			uint32_t mask = guarded(w, d, run);

			x->pc = pc;
			x->next_pc_set = 0;
			x->jumped = 0;
			x->yield = 0;
			if (mask && !(fiber && w->nreg < (uint32_t)x->prog->nreg &&
			              fiber_window_check(x, d, mask) < 0)) {
				d->exec(x, d, mask);
				if (fiber)
					fiber_mark_full(x, d);
			}
			q++;
			fast++;
			nthr += pop;
			if (f->kind != FaultNone) {
				w->upc = pc;
				w->last_pc = pc;
				r = StepFault;
				goto out;
			}
			if (++x->ninstr >= x->watchdog) {
				w->upc = pc;
				w->last_pc = pc;
				r = watchdog(x, run);
				goto out;
			}
			if (x->next_pc_set || w->dirty || x->yield) {
				w->upc = pc;     /* not read meanwhile: only sim_step and advance read it */
				w->last_pc = pc;
				advance(x, w, pc, run);
				if (x->yield && w->uni) {
					r = StepYield;
					goto out;
				}
				break;
			}
			pc++;
			d++;
			if (q >= quantum) {
				w->upc = pc;
				w->last_pc = pc - 1;
				break;
			}
		}
	}
out:
	w->ninstr += fast;
	x->nthread_instr += nthr;
	*issued = q;
	return r;
}

/* the mode is chosen once a call, not once an instruction */
int
sim_run(Exec *x, unsigned quantum, unsigned *issued)
{
	return x->fiber ? run_quantum(x, quantum, issued, 1) : run_quantum(x, quantum, issued, 0);
}

void
sim_set_pc(Exec *x, uint32_t lanes, uint32_t pc)
{
	Warp *w = x->w;

	if (lanes == x->active && !x->next_pc_set && w->uni) {
		x->jump = pc;
		x->jumped = 1;
		x->next_pc_set = lanes;
		return;
	}
	if (x->jumped) {
		x->jumped = 0;
		for (uint32_t m = x->active; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = x->jump;
	}
	for (uint32_t m = lanes; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = pc;
	x->next_pc_set |= lanes;
}

/* a barrier or convergence wait: lanes stay at this PC until released */
void
sim_hold(Exec *x, uint32_t lanes)
{
	Warp *w = x->w;

	if (x->jumped) {
		x->jumped = 0;
		for (uint32_t m = x->active; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = x->jump;
	}
	for (uint32_t m = lanes; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = x->pc;
	x->next_pc_set |= lanes;
}

/* released lanes (their wait bits already cleared) continue after the instruction they waited
 * at. The warp leaves the uni fast path: for the warp being stepped, sim_step recomputes it
 * (dirty); for another warp, its runnable lanes' PCs are written back first. */
void
sim_wake(Exec *x, Warp *w, uint32_t lanes)
{
	if (!lanes)
		return;
	if (w != x->w && w->uni) {
		uint32_t run = w->present & ~w->exited & ~blocked(w) & ~lanes;
		for (uint32_t m = run; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = w->upc;
	}
	for (uint32_t m = lanes; m; m &= m - 1)
		w->pc[__builtin_ctz(m)]++;
	w->uni = 0;
	if (w == x->w)
		w->dirty = 1;
	else
		reunify(w);
}

void
sim_conv_check(Exec *x)
{
	Warp *w = x->w;
	uint32_t live = w->present & ~w->exited, rel;

	for (unsigned b = 0; b < 16 && w->wait_bsync; b++) {
		if (!w->bwait[b])
			continue;
		if ((w->bmask[b] & live & ~w->bwait[b]) == 0) {
			rel = w->bwait[b];
			w->wait_bsync &= ~rel;
			w->bwait[b] = 0;
			sim_wake(x, w, rel);
		}
	}
	if (w->wait_warpsync)
		ws_release(x, w);
}

/* BSYNC Bb: the lanes wait until every live lane registered in Bb waits too */
void
sim_bsync(Exec *x, unsigned b, uint32_t lanes)
{
	Warp *w = x->w;
	uint32_t live = w->present & ~w->exited;

	if ((w->bmask[b] & live & ~(lanes | w->bwait[b])) == 0 && !w->bwait[b])
		return;                      /* everyone is here: fall through together */
	sim_hold(x, lanes);
	w->bwait[b] |= lanes;
	w->wait_bsync |= lanes;
	sim_conv_check(x);
}

/* WARPSYNC m (bar.warp.sync m): a lane waits until every live lane of m waits at a WARPSYNC
 * with the same mask m; lanes at other masks do not count. WARPSYNC.EXCLUSIVE (nvcc's
 * labeled_partition and coalesced-group regions, docs/sim.md): the same, and then each group
 * of one mask runs alone, the others held, until it waits again or exits. */
void
sim_warpsync(Exec *x, const uint32_t masks[WarpSize], uint32_t lanes, int kind)
{
	const int exclusive = kind == WsExcl;
	Warp *w = x->w;
	uint32_t live = w->present & ~w->exited, m0 = masks[__builtin_ctz(lanes)], same = 1;

	for (uint32_t m = lanes; m; m &= m - 1)
		if (masks[__builtin_ctz(m)] != m0)
			same = 0;
	if (same && (m0 & live & ~lanes) == 0) {
		uint32_t other = 0;
		for (uint32_t m = w->wait_warpsync; m; m &= m - 1)
			if (w->wsmask[__builtin_ctz(m)] == m0)
				other = 1;
		/* an exclusive group goes on at once unless the last one released still runs */
		if (exclusive && (w->exrun & live & ~blocked(w) & ~lanes))
			other = 1;
		if (!other) {
			if (exclusive)
				w->exrun = lanes;
			return;                  /* the whole group is here: nothing to wait for */
		}
	}
	sim_hold(x, lanes);
	for (uint32_t m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		w->wsmask[l] = masks[l];
	}
	w->wait_warpsync |= lanes;
	if (exclusive)
		w->wsexcl |= lanes;
	else
		w->wsexcl &= ~lanes;
	if (kind == WsColl)
		w->wscoll |= lanes;
	else
		w->wscoll &= ~lanes;
	sim_conv_check(x);
}

/* WARPSYNC.COLLECTIVE m, `(L) ... ENDCOLLECTIVE ; L: (sm_90 nvcc: the slow path of a warp
 * collective whose lanes may be diverged; sm_80 calls one shared subroutine instead). Each
 * lane remembers L and waits as at WARPSYNC m (kind WsColl); when the group is complete its
 * lanes run one copy of the region together (coll_gather), and ENDCOLLECTIVE sends each lane
 * to its own L. A lane that enters a region while inside one, or ends one it did not enter,
 * faults: nvcc never nests them, and we do not guess what the hardware would do. */
void
sim_collective(Exec *x, const uint32_t masks[WarpSize], uint32_t lanes, uint32_t ret)
{
	Warp *w = x->w;

	if (lanes & w->incoll) {
		sim_fault(x, FaultIllegalInstr, (unsigned)__builtin_ctz(lanes & w->incoll),
		          "WARPSYNC.COLLECTIVE inside a collective region (no ENDCOLLECTIVE since the "
		          "last one)");
		return;
	}
	for (uint32_t m = lanes; m; m &= m - 1)
		w->collret[__builtin_ctz(m)] = ret;
	w->incoll |= lanes;
	sim_warpsync(x, masks, lanes, WsColl);
}

void
sim_endcollective(Exec *x, uint32_t lanes)
{
	Warp *w = x->w;

	if (lanes & ~w->incoll) {
		sim_fault(x, FaultIllegalInstr, (unsigned)__builtin_ctz(lanes & ~w->incoll),
		          "ENDCOLLECTIVE outside a collective region (the lane ran no "
		          "WARPSYNC.COLLECTIVE)");
		return;
	}
	w->incoll &= ~lanes;
	while (lanes) {
		uint32_t ret = w->collret[__builtin_ctz(lanes)], grp = 0;
		for (uint32_t m = lanes; m; m &= m - 1)
			if (w->collret[__builtin_ctz(m)] == ret)
				grp |= 1u << __builtin_ctz(m);
		sim_set_pc(x, grp, ret);
		lanes &= ~grp;
	}
}

/* YIELD, NANOSLEEP: lanes of a split warp let its other lanes go first (a lane spinning on a
 * flag that another lane of the warp sets); sim_run returns StepYield when no lane is left
 * that did not yield, and the functional driver runs the other warps first (launch.c). */
void
sim_yield(Exec *x, uint32_t lanes)
{
	x->yield = 1;
	if (!x->w->uni)
		x->w->yielded |= lanes;
}

void
sim_exit_lanes(Exec *x, uint32_t lanes)
{
	Warp *w = x->w;

	lanes &= w->present & ~w->exited;
	w->exited |= lanes;
	x->next_pc_set |= lanes;
	x->cta->nexited += sim_popc(lanes);
	sim_conv_check(x);
	sim_bar_check(x);
}
