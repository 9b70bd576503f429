/* exec_fiber.c: the FIBER instructions (docs/fiber-isa.md, docs/sim.md "FIBER"):
 * SETBUSYBIT.FULL/.EMPTY reg[, n] and DEPBAR.FULL/.EMPTY reg[, n] on the SM's empty/full
 * bitmaps (Sm.busy_e/busy_f), SETFIBERNUM count[, nreg] (the CTA's wefts gather, then the fiber
 * count changes: wefts retire or are created with new windows, weft.c), the busy-bit wake-up
 * and the deadlock text. In SIMT mode (Exec.fiber 0) each faults with FaultIllegalInstr.
 */
#include "weft.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BFull = 1u << 0, BAbs = 1u << 1 };   /* DIns.mod of the busy-bit forms */

static const char *
opname(const DIns *d)
{
	if (d->op == OSETFIBERNUM)
		return "SETFIBERNUM";
	if (d->op == OSETBUSYBIT)
		return d->mod & BFull ? "SETBUSYBIT.FULL" : "SETBUSYBIT.EMPTY";
	return d->mod & BFull ? "DEPBAR.FULL" : "DEPBAR.EMPTY";
}

static int
need_fiber(Exec *x, const DIns *d, uint32_t mask)
{
	if (x->fiber)
		return 0;
	sim_fault(x, FaultIllegalInstr, (unsigned)__builtin_ctz(mask), "%s needs a FIBER "
	          "configuration (sm_model = fiber)", opname(d));
	return 1;
}

/* the absolute registers of a busy-bit form: first and count; -1 after a fault */
static int
busy_range(Exec *x, const DIns *d, const Warp *w, uint32_t *first, uint32_t mask)
{
	uint32_t n = d->aux, r = d->src[0].reg;

	if (d->mod & BAbs) {
		*first = r;
		if (r + n <= SmVRegs)
			return 0;
	} else {
		*first = w->rbase + r;
		if (r + n <= w->nreg)
			return 0;
	}
	if (d->mod & BAbs)
		sim_fault(x, FaultIllegalInstr, (unsigned)__builtin_ctz(mask | 1u << 31), "%s: %u "
		          "registers from V%u lie outside V0..V2047", opname(d), n, r);
	else
		sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask | 1u << 31), "%s: %u registers "
		          "from R%u lie outside weft %u's window of %u registers (V%u..V%u) at PC 0x%04x",
		          opname(d), n, r, w->id, w->nreg, w->rbase, w->rbase + w->nreg - 1, d->addr);
	return -1;
}

static int
busy_holds(const Sm *sm, uint32_t first, uint32_t n, int full)
{
	for (uint32_t r = first; r < first + n; r++)
		if (sm_busy_get(sm, r) != (full ? BusyFull : BusyEmpty))
			return 0;
	return 1;
}

/* a FIBER instruction of a form the simulator refuses: a located error naming the problem (the
 * verifier, ir/fverify.c, reports the same at load unless fibersim runs --no-verify) */
static int
bad_form(DecodeCtx *c, const Ins *i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
bad_form(DecodeCtx *c, const Ins *i, const char *fmt, ...)
{
	char name[64], why[256];
	int len = snprintf(name, sizeof name, "%s", mstr(c->fn->mod, i->name));
	va_list ap;

	for (unsigned k = 0; k < i->nmod && len < (int)sizeof name; k++)
		len += snprintf(name + len, sizeof name - (size_t)len, ".%s", mstr(c->fn->mod, i->mod[k]));
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	error_at(c->diag, i->loc, "%s: %s", name, why);
	return -1;
}

/* operand k of i is a float literal (a decimal number in SASS): the located error, which says
 * how to write it */
static int
bad_decimal(DecodeCtx *c, const Ins *i, unsigned k, const char *what)
{
	const Opnd *o = &i->opnd[k];
	double v = o->kind == OFImm ? o->fimm : 0;

	if (v >= 0 && v < 1e6 && v == (double)(long)v)
		return bad_form(c, i, "%s '%s' is a decimal literal, which SASS reads as the float %g: "
		                "write it in hex (0x%lx)", what, mstr(c->fn->mod, o->atom), v, (long)v);
	return bad_form(c, i, "%s '%s' is a float literal: it must be a hex integer", what,
	                o->kind == OFImm ? mstr(c->fn->mod, o->atom) : "?");
}

static void exec_depbar(Exec *x, const DIns *d, uint32_t mask);
static void exec_setbusy(Exec *x, const DIns *d, uint32_t mask);

int
sim_dec_busy(DecodeCtx *c, const Ins *i, DIns *d)
{
	int full = sim_hasmod(c, i, "FULL"), empty = sim_hasmod(c, i, "EMPTY");

	if (full == empty || i->nmod != 1)
		return sim_unsupported_why(c, i, "takes .FULL or .EMPTY");
	if (sim_dec_opnds(c, i, d, 0) < 0)
		return -1;
	if (d->nsrc < 1 || d->nsrc > 2 || (d->src[0].kind != DR && d->src[0].kind != DV) ||
	    (d->src[0].kind == DR && d->src[0].reg == RegRZ) ||
	    (d->nsrc == 2 && d->src[1].kind != DImm))
		return bad_form(c, i, "takes reg[, n]: a register R<n>, V<n> or pool operand and "
		                "an immediate count");
	if (d->nsrc == 2 && (d->src[1].flags & DFFimm) && i->nopnd > 1)
		return bad_decimal(c, i, 1, "the register count");
	d->aux = d->nsrc == 2 ? (uint32_t)d->src[1].imm : 1;
	if (d->nsrc == 2 && (d->src[1].imm < 1 || d->src[1].imm > 32))
		return bad_form(c, i, "count n must be 1..32");
	if (i->guarded)
		return bad_form(c, i, "a guard is refused (FIBER synchronisation is unconditional)");
	d->mod = (full ? BFull : 0) | (d->src[0].kind == DV ? BAbs : 0);
	d->exec = i->op == OSETBUSYBIT ? exec_setbusy : exec_depbar;
	return 0;
}

static void
exec_depbar(Exec *x, const DIns *d, uint32_t mask)
{
	Warp *w = x->w;
	uint32_t first;

	if (need_fiber(x, d, mask) || busy_range(x, d, w, &first, mask) < 0)
		return;
	if (busy_holds(x->sm, first, d->aux, d->mod & BFull))
		return;
	sim_hold(x, mask);
	if (!w->wait_busy)
		x->sm->busy_waiters++;
	w->wait_busy |= mask;
}

static void
exec_setbusy(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t first;

	if (need_fiber(x, d, mask) || busy_range(x, d, x->w, &first, mask) < 0)
		return;
	for (uint32_t r = first; r < first + d->aux; r++)
		sm_busy_set(x->sm, r, d->mod & BFull ? BusyFull : BusyEmpty);
}


int
fiber_busy_recheck(Exec *x, Warp *w)
{
	uint32_t left = w->wait_busy, woke = 0;

	while (left) {
		unsigned l = (unsigned)__builtin_ctz(left);
		uint32_t pc = w->pc[l], grp = 0, first;
		const DIns *d = &x->prog->ins[pc];
		for (uint32_t m = left; m; m &= m - 1)
			if (w->pc[__builtin_ctz(m)] == pc)
				grp |= 1u << __builtin_ctz(m);
		left &= ~grp;
		first = d->mod & BAbs ? d->src[0].reg : w->rbase + d->src[0].reg;
		if (!busy_holds(x->sm, first, d->aux, d->mod & BFull))
			continue;
		w->wait_busy &= ~grp;
		woke |= grp;
		sim_wake(x, w, grp);
	}
	if (woke && !w->wait_busy && x->sm->busy_waiters)
		x->sm->busy_waiters--;
	return woke != 0;
}

void
fiber_mark_full(Exec *x, const DIns *d)
{
	for (unsigned k = 0; k < d->ndst; k++) {
		const DOp *o = &d->dst[k];
		uint32_t n, r;
		if (o->flags & DFPoolDst)
			r = o->reg;                 /* a pool register (fiber_pool_exec checked it) */
		else if (o->kind != DR || o->reg == RegRZ)
			continue;
		else
			r = x->w->rbase + o->reg;
		n = o->n ? o->n : 1;
		for (uint32_t j = 0; j < n && r + j < SmVRegs; j++)
			sm_busy_set(x->sm, r + j, BusyFull);
	}
}

/* the registers past its window that operand o names, as the first and one past the last R
 * number, or 0 when none: R destinations and sources (RZ reads 0, a pool destination is
 * absolute), an address's base register and a constant bank's index register (not V<n>) */
static int
past_window(const DOp *o, uint32_t nreg, uint32_t *lo, uint32_t *hi)
{
	uint32_t n;

	if (o->flags & (DFVreg | DFPoolDst) || o->reg == RegRZ)
		return 0;
	if (o->kind == DR)
		n = o->n ? o->n : 1;
	else if (o->kind == DMem)
		n = o->flags & DFWide ? 2 : 1;
	else if (o->kind == DCBank)
		n = 1;
	else
		return 0;
	if (o->reg + n <= nreg)
		return 0;
	*lo = o->reg;
	*hi = o->reg + n;
	return 1;
}

int
fiber_window_check(Exec *x, const DIns *d, uint32_t mask)
{
	const Warp *w = x->w;
	unsigned lane = (unsigned)__builtin_ctz(mask);
	uint32_t lo, hi;

	for (unsigned k = 0; k < d->ndst; k++)
		if (past_window(&d->dst[k], w->nreg, &lo, &hi)) {
			sim_fault(x, FaultFiber, lane, "remote write: weft %u writes R%u%s at PC 0x%04x, "
			          "past its window of %u registers (R0..R%u = V%u..V%u): the register "
			          "belongs to another weft, a pool or no one, and a weft writes only its "
			          "window or a pool of its slice", w->id, hi - 1, hi - lo > 1 ? " (a tuple)"
			          : "", d->addr, w->nreg, w->nreg - 1, w->rbase, w->rbase + w->nreg - 1);
			return -1;
		}
	for (unsigned k = 0; k < d->nsrc; k++)
		if (past_window(&d->src[k], w->nreg, &lo, &hi)) {
			sim_fault(x, FaultFiber, lane, "weft %u reads R%u%s at PC 0x%04x, past its window "
			          "of %u registers (R0..R%u = V%u..V%u): a register outside the window is "
			          "read by its absolute number, V<n>", w->id, hi - 1, hi - lo > 1 ?
			          " (a tuple)" : "", d->addr, w->nreg, w->nreg - 1, w->rbase,
			          w->rbase + w->nreg - 1);
			return -1;
		}
	return 0;
}

/* the pool of fn that holds absolute register r, or NULL */
static const FPool *
pool_of(const Fn *fn, uint32_t r)
{
	for (uint32_t k = 0; k < fn->npool; k++)
		if (r >= fn->pool[k].base && r < fn->pool[k].base + fn->pool[k].size)
			return &fn->pool[k];
	return NULL;
}

void
fiber_pool_exec(Exec *x, const DIns *d, uint32_t mask)
{
	const GpuConfig *g = &x->gpu->cfg;
	uint32_t nsub = g->nsub ? g->nsub : 4, sr = g->fiber_slice_regs ? g->fiber_slice_regs : 512;
	DIns c = *d;

	for (unsigned k = 0; k < c.ndst; k++) {
		DOp *o = &c.dst[k];
		if (!(o->flags & DFPoolDst))
			continue;
		if (!x->fiber || o->reg / sr != x->w->id % nsub || o->reg < x->w->rbase) {
			if (!x->fiber)
				sim_fault(x, FaultIllegalInstr, 0, "a pool destination at 0x%04x needs a "
				          "FIBER configuration (sm_model = fiber)", d->addr);
			else {
				const FPool *p = pool_of(x->prog->fn, o->reg);
				sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask), "remote write: weft %u "
				          "(sub-partition %u) writes pool %s[%u] (slice %u, V%u) at PC 0x%04x; a "
				          "pool is written only by the wefts of its own slice", x->w->id,
				          x->w->id % nsub, p ? mstr(x->prog->fn->mod, p->name) : "?",
				          p ? o->reg - p->base : 0, o->reg / sr, o->reg, d->addr);
			}
			return;
		}
		o->reg = (uint16_t)(o->reg - x->w->rbase);
		o->flags &= (uint16_t)~DFPoolDst;
	}
	x->prog->pool_exec[d->pc](x, &c, mask);
}

/* ---- SETFIBERNUM ---------------------------------------------------------------------------- */

static uint32_t
lanes_for(uint32_t count, uint32_t k)
{
	uint64_t first = (uint64_t)k * WarpSize;

	if (count <= first)
		return 0;
	return count - first >= WarpSize ? ~0u : (1u << (count - first)) - 1;
}

/* lanes of surviving weft w that a grow brings (back): new fibers, as those of a new weft:
 * their lane of every window register zero, their predicates false (a lane trimmed by an
 * earlier shrink keeps nothing of its old fiber; docs/fiber-isa.md section 3) */
static void
lanes_new(Sm *sm, Warp *w, uint32_t lanes)
{
	if (!lanes)
		return;
	for (uint32_t r = 0; r < w->nreg && w->rbase + r < SmVRegs; r++)
		for (uint32_t m = lanes; m; m &= m - 1)
			sm->rf[w->rbase + r][__builtin_ctz(m)] = 0;
	for (unsigned p = 0; p < RegPT; p++)
		w->p[p] &= ~lanes;
}

/* the windows of the wefts a release to nw wefts brings (dormant wefts below nw), placed in
 * weft order into base[] with a weft context each (Sm.nwin against fiber_contexts): 0, or -1
 * with none placed, *bad the weft that did not fit and why filled (docs/fiber-sm.md, "SM
 * ownership") */
static int
grow_place(Exec *x, Cta *c, uint32_t nw, uint32_t nreg, uint32_t *base, uint32_t *bad, char *why,
           size_t n)
{
	const GpuConfig *g = &x->gpu->cfg;
	uint32_t ctx = g->fiber_contexts ? g->fiber_contexts : 64, nsub = g->nsub ? g->nsub : 4;
	uint32_t k;

	for (k = 0; k < nw && k < c->nwarp; k++) {
		if (!c->warp[k].dormant)
			continue;
		if (weft_place(x->sm, g->nsub, g->fiber_slice_regs, nreg, k, &base[k], why, n) < 0)
			break;
		if (nreg && k % nsub < 8 && x->sm->nwin[k % nsub] > ctx) {
			snprintf(why, n, "sub-partition %u has no free weft context (%u of %u held)",
			         k % nsub, ctx, ctx);
			weft_free(x->sm, base[k], nreg);
			break;
		}
	}
	if (k >= nw || k >= c->nwarp)
		return 0;
	*bad = k;
	while (k--)
		if (c->warp[k].dormant)
			weft_free(x->sm, base[k], nreg);
	return -1;
}

/* every weft has arrived: change the fiber count to count (new wefts' windows nreg). A grow
 * whose windows or contexts the SM cannot hold while other CTAs are resident on it
 * (Sm.nresident, timing) waits (Cta.fnum_wait, no release) for fiber_grow_retry; alone, it
 * faults. */
static void
fnum_release(Exec *x, Cta *c, uint32_t count, uint32_t nreg)
{
	const GpuConfig *g = &x->gpu->cfg;
	uint32_t nw, nthreads = 0, nexited = 0, *base, bad = 0;
	char why[160];

	if (!g->fiber_dp)
		count = c->nfibers;
	if (count < 1 || count > c->maxfibers) {
		sim_fault(x, FaultFiber, 0, "SETFIBERNUM %u: count beyond the %u fibers reserved for the "
		          "CTA (.maxfibers, else the launch's threads; %u weft contexts of %u per "
		          "sub-partition)", count, c->maxfibers, c->nwarp, g->fiber_contexts ?
		          g->fiber_contexts : 64);
		return;
	}
	nw = (count + WarpSize - 1) / WarpSize;
	base = xmalloc(c->nwarp * sizeof *base);
	if (grow_place(x, c, nw, nreg, base, &bad, why, sizeof why) < 0) {
		free(base);
		if (x->sm->nresident > 1) {
			c->fnum_wait = 1;        /* the other CTAs drain first */
			return;
		}
		c->fnum_wait = 0;
		sim_fault(x, FaultFiber, 0, "SETFIBERNUM %u: weft %u's window of %u registers does "
		          "not fit: %s", count, bad, nreg, why);
		return;
	}
	c->fnum_wait = 0;
	for (uint32_t k = 0; k < c->nwarp; k++) {
		Warp *w = &c->warp[k];
		uint32_t lanes = lanes_for(count, k), wpc;
		if (k >= nw) {
			if (w->dormant)
				continue;
			weft_free(x->sm, w->rbase, w->nreg);   /* retired: its fibers end as by EXIT */
			sim_warp_init(w, k, 0, 0, 0);
			w->dormant = 1;
			continue;
		}
		if (w->dormant) {
			wpc = x->pc;                  /* new wefts start after this SETFIBERNUM */
			sim_warp_init(w, k, lanes, base[k], nreg);
		} else {
			uint32_t held = w->wait_fnum;
			wpc = held ? w->pc[__builtin_ctz(held)] : x->pc;
			w->wait_fnum = 0;
			w->exited &= lanes;
			lanes_new(x->sm, w, lanes & ~w->present);
			w->present = lanes;          /* trimmed to count, or grown in a partial weft */
		}
		for (uint32_t m = lanes; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			uint64_t t = (uint64_t)k * WarpSize + l;
			w->pc[l] = wpc + 1;
			w->tid[l][0] = (uint32_t)(t % x->ntid[0]);
			w->tid[l][1] = (uint32_t)(t / x->ntid[0] % x->ntid[1]);
			w->tid[l][2] = (uint32_t)(t / ((uint64_t)x->ntid[0] * x->ntid[1]));
		}
		w->uni = 1;
		w->upc = wpc + 1;
		if (w == x->w)
			w->dirty = 1;
	}
	for (uint32_t k = 0; k < c->nwarp; k++) {
		nthreads += sim_popc(c->warp[k].present);
		nexited += sim_popc(c->warp[k].present & c->warp[k].exited);
	}
	c->nthreads = nthreads;
	c->nexited = nexited;
	free(base);
	c->nfibers = count;
	c->fiber_gen++;
	c->fnum_count = 0;
	x->bar_progress = 1;
}

int
fiber_grow_retry(Exec *x, Cta *c)
{
	uint32_t gen = c->fiber_gen;

	if (!c->fnum_wait)
		return 0;
	x->cta = c;
	x->w = NULL;
	for (uint32_t k = 0; k < c->nwarp; k++)    /* the SETFIBERNUM the wefts wait at */
		if (c->warp[k].wait_fnum) {
			x->pc = c->warp[k].pc[__builtin_ctz(c->warp[k].wait_fnum)];
			break;
		}
	fnum_release(x, c, c->fnum_count, c->fnum_nreg);
	x->bar_progress = 0;
	return c->fiber_gen != gen;
}

static void
exec_setfibernum(Exec *x, const DIns *d, uint32_t mask)
{
	Warp *w = x->w;
	Cta *c = x->cta;
	uint32_t live = w->present & ~w->exited, count, nreg;

	if (need_fiber(x, d, mask))
		return;
	if (mask != live) {
		sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask), "SETFIBERNUM in divergent code: "
		          "weft %u lanes 0x%08x of 0x%08x at PC 0x%04x", w->id, mask, live, d->addr);
		return;
	}
	count = d->src[0].kind == DImm ? (uint32_t)d->src[0].imm
	      : d->src[0].reg == RegURZ ? 0 : w->ur[d->src[0].reg];
	nreg = d->nsrc > 1 ? (uint32_t)d->src[1].imm : (uint32_t)x->prog->nreg;
	if (count < 1 || count > c->maxfibers) {
		/* before the gathering: the weft that names it is the one at fault */
		if (count < 1)
			sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask), "SETFIBERNUM 0 (weft %u "
			          "at PC 0x%04x%s): the count must be at least 1", w->id, d->addr,
			          d->src[0].kind == DUR ? ", from a UR" : "");
		else
			sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask), "SETFIBERNUM %u: count "
			          "beyond the %u fibers reserved for the CTA (.maxfibers, else the launch's "
			          "threads; %u weft contexts of %u per sub-partition); weft %u at PC "
			          "0x%04x%s", count, c->maxfibers, c->nwarp, x->gpu->cfg.fiber_contexts ?
			          x->gpu->cfg.fiber_contexts : 64, w->id, d->addr,
			          d->src[0].kind == DUR ? ", the count from a UR" : "");
		return;
	}
	if (c->fnum_count && c->fnum_count != count) {
		sim_fault(x, FaultFiber, (unsigned)__builtin_ctz(mask), "SETFIBERNUM counts differ: weft "
		          "%u names %u, weft %u named %u", w->id, count, c->fnum_first, c->fnum_count);
		return;
	}
	if (!c->fnum_count) {
		c->fnum_count = count;
		c->fnum_nreg = nreg;
		c->fnum_first = w->id;
	}
	sim_hold(x, mask);
	w->wait_fnum = mask;
	for (uint32_t k = 0; k < c->nwarp; k++) {
		const Warp *o = &c->warp[k];
		uint32_t l = o->present & ~o->exited;
		if (!o->dormant && l && o->wait_fnum != l)
			return;                       /* not everyone is here yet */
	}
	fnum_release(x, c, count, c->fnum_nreg);
}

static int
dec_setfibernum(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod)
		return sim_unsupported(c, i);
	if (sim_dec_opnds(c, i, d, 0) < 0)
		return -1;
	if (d->nsrc < 1 || d->nsrc > 2 || (d->src[0].kind != DImm && d->src[0].kind != DUR) ||
	    (d->nsrc == 2 && d->src[1].kind != DImm))
		return bad_form(c, i, "takes count[, nreg]: count an immediate or a UR, nreg an "
		                "immediate 1..255");
	for (unsigned k = 0; k < d->nsrc && k < i->nopnd; k++)
		if (d->src[k].kind == DImm && (d->src[k].flags & DFFimm))
			return bad_decimal(c, i, k, k ? "nreg" : "the count");
	if (d->src[0].kind == DImm && (d->src[0].imm < 1 || d->src[0].imm > FiberMaxFibers))
		return bad_form(c, i, "the count must be 1..8192");
	if (d->nsrc == 2 && (d->src[1].imm < 1 || d->src[1].imm > 255))
		return bad_form(c, i, "nreg must be 1..255");
	if (i->guarded)
		return bad_form(c, i, "a guard is refused (FIBER synchronisation is unconditional)");
	d->exec = exec_setfibernum;
	return 0;
}

static int
dec_setbusybit(DecodeCtx *c, const Ins *i, DIns *d)
{
	return sim_dec_busy(c, i, d);
}

void
sim_register_fiber(SimTab *t)
{
	t->dec[OSETFIBERNUM] = dec_setfibernum;
	t->dec[OSETBUSYBIT] = dec_setbusybit;
}

/* ---- deadlock text -------------------------------------------------------------------------- */

static const char *
state_name(int st)
{
	return st == BusyFull ? "full" : st == BusyEmpty ? "empty" : "busy";
}

/* printf at buf + *len, never past size (a long report is cut, not overrun) */
static void
put(char *buf, int *len, int size, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
put(char *buf, int *len, int size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, (size_t)(size - *len), fmt, ap);
	va_end(ap);
	*len = n < 0 ? *len : *len + n < size ? *len + n : size - 1;
}

int
fiber_deadlock_text(Exec *x, Cta *c, char *buf, int len, int size)
{
	int said = 0;

	for (uint32_t k = 0; k < c->nwarp && len < size - 1; k++) {
		const Warp *w = &c->warp[k];
		uint32_t live = w->present & ~w->exited, held = w->wait_busy | w->wait_fnum;
		char ins[96] = "";
		const DIns *d;
		if (w->dormant)
			continue;
		put(buf, &len, size, "%sweft %u of CTA %u", len ? "; " : "", k,
		    c->ctaid[0] + x->nctaid[0] * (c->ctaid[1] + x->nctaid[1] * c->ctaid[2]));
		if (!live) {
			put(buf, &len, size, " exited");
			continue;
		}
		if (held && held == w->wait_fnum && c->fnum_wait && !said++)
			put(buf, &len, size, " (the CTA waits to grow to %u fibers: the SM's other CTAs "
			    "hold the windows or contexts it needs)", c->fnum_count);
		if (!held)   /* a barrier or a convergence point: its PC and instruction too */
			held = w->wait_bar ? w->wait_bar : w->wait_bsync ? w->wait_bsync : w->wait_warpsync;
		if (!held) {
			put(buf, &len, size, " blocked");
			continue;
		}
		d = &x->prog->ins[w->pc[__builtin_ctz(held)]];
		if (d->ir)
			fmt_ins(ins, sizeof ins, x->prog->fn, d->ir, 0);
		for (size_t e = strlen(ins); e && (ins[e - 1] == ';' || ins[e - 1] == ' '); e--)
			ins[e - 1] = 0;
		put(buf, &len, size, " at 0x%04x %s", d->addr, ins);
		if (held == w->wait_bar && w->bar_of[__builtin_ctz(held)] < 16) {
			uint32_t b = w->bar_of[__builtin_ctz(held)];
			put(buf, &len, size, " (barrier %u: %u of %u threads arrived)", b, c->bar_arrived[b],
			    c->bar_expect[b] ? c->bar_expect[b] : c->nthreads - c->nexited);
		}
		if (w->wait_busy) {
			uint32_t first = d->mod & BAbs ? d->src[0].reg : w->rbase + d->src[0].reg;
			put(buf, &len, size, " (");
			for (uint32_t r = first; r < first + d->aux; r++)
				put(buf, &len, size, "%sV%u %s", r > first ? ", " : "", r,
				    state_name(sm_busy_get(x->sm, r)));
			put(buf, &len, size, ")");
		}
	}
	return len < size ? len : size - 1;
}
