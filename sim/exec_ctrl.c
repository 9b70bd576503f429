/* exec_ctrl.c: control flow, convergence, CTA barriers, special registers and the instructions
 * that have no functional effect. One row per opcode family in ctrl_rows[] (STYLE habit 14).
 * Branch targets are instruction indices (decode.c); indirect targets (BRX, JMX, RET, CALL with
 * a register) are byte addresses looked up in Prog.addr_to_pc. CALL.REL.NOINC pushes nothing:
 * nvcc puts the return address in a register first (MOV R20, 0x10f0) and the callee returns
 * with RET.REL.NODEC R20 `(kernel)`, i.e. to R20 + the function's start (0).
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* DIns.mod bits of this file */
enum {
	CBraDiv = 1 << 0,      /* BRA.DIV: taken when the warp is diverged */
	CBraConv = 1 << 1,     /* BRA.CONV: taken when the warp is converged */
	CBraAny = 1 << 2,      /* BRA.U.ANY: every active lane goes if one lane's guard holds */
	CBraCond = 1 << 3,     /* BRA.U UPx: aux2 = operand index of the uniform condition */
	CReg = 1 << 4,         /* the target or mask is a register (src index in aux2) */
	CClear = 1 << 5,       /* BMOV.CLEAR */
	CArv = 1 << 6,         /* BAR.ARV: arrive without waiting */
	CCount = 1 << 7,       /* BAR: thread count operand present */
	CRel = 1 << 8,         /* BRX: relative to the next instruction */
	CExcl = 1 << 9,        /* WARPSYNC.EXCLUSIVE */
	CBraMask = 1 << 10,    /* BRA.DIV/.CONV URm: the member mask (src index in aux2 >> 8) */
	CCall = 1 << 11,       /* CALL Rn: a target outside the kernel may be a device-runtime
	                          routine (devcall.c) */
};

/* operand of a kind among the decoded ones; NULL if none */
static const DOp *
find_kind(const DIns *d, int kind)
{
	for (unsigned k = 0; k < d->ndst; k++)
		if (d->dst[k].kind == kind)
			return &d->dst[k];
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == kind)
			return &d->src[k];
	return NULL;
}

static int
only_mods(DecodeCtx *c, const Ins *i, const char *const *ok)
{
	for (unsigned k = 0; k < i->nmod; k++) {
		const char *m = mstr(c->fn->mod, i->mod[k]);
		unsigned j;
		for (j = 0; ok[j]; j++)
			if (strcmp(ok[j], m) == 0)
				break;
		if (!ok[j])
			return 0;
	}
	return 1;
}

/* the value of operand o in the first lane of mask (barrier ids, counts, uniform masks) */
static uint32_t
first_val(Exec *x, const DOp *o, uint32_t mask)
{
	uint32_t tmp[WarpSize];

	return sim_src(x, o, tmp)[__builtin_ctz(mask)];
}

/* byte address -> instruction index; -1 if it is none */
static inline int
addr_pc(Exec *x, uint64_t a, uint32_t *pc)
{
	const Prog *p = x->prog;

	if ((a & 15) || a / 16 >= p->naddr || p->addr_to_pc[a / 16] == UINT32_MAX)
		return -1;
	*pc = p->addr_to_pc[a / 16];
	return 0;
}

static void
bad_target(Exec *x, uint64_t a, unsigned lane)
{
	sim_fault(x, FaultIllegalInstr, lane,
	          "indirect branch to 0x%llx, which is not an instruction of the kernel",
	          (unsigned long long)a);
}

/* An indirect transfer of the lanes of m (the lowest first) to no instruction: a call of the
 * device runtime (__assertfail, vprintf: devcall.c) for every lane of m with the same target,
 * which then go on after the CALL; else an illegal-instruction fault. The lanes handled, 0
 * after a fault. */
static uint32_t
devcall(Exec *x, uint64_t a, uint32_t m, const uint32_t *v, uint64_t base)
{
	unsigned l = (unsigned)__builtin_ctz(m);
	uint32_t same = 0;

	for (uint32_t k = m; k; k &= k - 1)
		if (((base + v[__builtin_ctz(k)]) & 0xffffffffu) == a)
			same |= 1u << __builtin_ctz(k);
	if (a < SimDevcallBase || !sim_devcall(x, a, same)) {
		sim_fault(x, FaultIllegalInstr, l, "a call of 0x%llx, which is neither an instruction "
		          "of the kernel nor a routine of the device runtime (__assertfail, vprintf)",
		          (unsigned long long)a);
		return 0;
	}
	if (x->fault->kind != FaultNone)
		return 0;
	sim_set_pc(x, same, x->pc + 1);
	return same;
}

/* ---------------------------------------------------------------------------------------------
 * Branches, calls, exits.
 */
static void
exec_bra(Exec *x, const DIns *d, uint32_t mask)
{
	Warp *w = x->w;
	uint32_t live;

	if (d->mod & CBraCond) {
		if (!(sim_pred(x, &d->src[d->aux2 & 0xff]) & 1))
			return;
	}
	if (d->mod & (CBraDiv | CBraConv)) {
		/* converged: every live lane of the member mask (~URZ: the warp) executes this
		 * branch, its guard true (nvcc guards it with R2UR's per-lane "differs" predicate to
		 * split lanes of different masks: docs/sim.md) */
		live = w->present & ~w->exited;
		if (d->mod & CBraMask) {
			const DOp *o = &d->src[d->aux2 >> 8];
			uint32_t mk = first_val(x, o, mask);
			live &= (o->flags & DFNot) ? ~mk : mk;
		}
		if (((live & ~mask) ? CBraDiv : CBraConv) != (d->mod & (CBraDiv | CBraConv)))
			return;
	}
	if (d->mod & CBraAny)
		mask = x->active;
	sim_set_pc(x, mask, d->aux);
}

/* BRX Rn imm (next + R + imm), JMX Rn imm (R + imm), CALL Rn `(f)` and RET Rn `(f)` (R + f) */
static void
exec_brx(Exec *x, const DIns *d, uint32_t mask)
{
	const DOp *r = &d->src[d->aux2];
	uint32_t tmp[WarpSize], *v = sim_src(x, r, tmp), pc, done;
	uint64_t base = (uint64_t)(int64_t)(int32_t)d->aux + ((d->mod & CRel) ? d->addr + 16u : 0);

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t a = (base + v[l]) & 0xffffffffu;
		if (addr_pc(x, a, &pc) == 0) {
			sim_set_pc(x, 1u << l, pc);
			continue;
		}
		if (!(d->mod & CCall)) {
			bad_target(x, a, l);
			return;
		}
		if ((done = devcall(x, a, m, v, base)) == 0)
			return;
		m &= ~(done & ~(1u << l));    /* the lanes that made the same call */
	}
}

static void
exec_exit(Exec *x, const DIns *d, uint32_t mask)
{
	(void)d;
	sim_exit_lanes(x, mask);
}

static void
exec_trap(Exec *x, const DIns *d, uint32_t mask)
{
	sim_fault(x, FaultTrap, (unsigned)__builtin_ctz(mask),
	          "BPT.TRAP 0x%x: __trap(), or __brkpt() with no debugger (nvcc compiles both to this "
	          "instruction)", d->aux);
}

static int
target_of(DecodeCtx *c, const Ins *i, DIns *d)
{
	const DOp *t = find_kind(d, DLabel);

	if (!t)
		return sim_unsupported(c, i);
	d->aux = (uint32_t)t->imm;
	return 0;
}

static int
dec_bra(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ok[] = { "U", "ANY", "DIV", "CONV", NULL };

	if (!only_mods(c, i, ok) || target_of(c, i, d) < 0)
		return sim_unsupported(c, i);
	d->exec = exec_bra;
	if (sim_hasmod(c, i, "DIV"))
		d->mod |= CBraDiv;
	if (sim_hasmod(c, i, "CONV"))
		d->mod |= CBraConv;
	if (sim_hasmod(c, i, "ANY"))
		d->mod |= CBraAny;
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DUP || d->src[k].kind == DP) {
			d->mod |= CBraCond;
			d->aux2 = (d->aux2 & ~0xffu) | k;
		} else if (d->src[k].kind == DUR && (d->mod & (CBraDiv | CBraConv))) {
			d->mod |= CBraMask;
			d->aux2 = (d->aux2 & 0xffu) | k << 8;
		}
	return 0;
}

/* the register operand of an indirect transfer: index in src, or -1 */
static int
reg_src(const DIns *d)
{
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DR || d->src[k].kind == DUR)
			return (int)k;
	return -1;
}

static int
dec_brx(DecodeCtx *c, const Ins *i, DIns *d)
{
	const DOp *im = find_kind(d, DImm);
	int r = reg_src(d);

	if (i->nmod || r < 0)
		return sim_unsupported(c, i);
	d->exec = exec_brx;
	d->aux2 = (uint32_t)r;
	d->aux = im ? (uint32_t)im->imm : 0;
	if (i->op == OBRX || i->op == OBRXU)
		d->mod |= CRel;
	return 0;
}

static int
dec_jmp(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || target_of(c, i, d) < 0)
		return sim_unsupported(c, i);
	d->exec = exec_bra;
	return 0;
}

/* CALL.REL.NOINC `(target)`, CALL.ABS.NOINC, CALL.REL.NOINC Rn `(f)`; RET.REL.NODEC Rn `(f)` */
static int
dec_call(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const okc[] = { "REL", "ABS", "NOINC", NULL };
	static const char *const okr[] = { "REL", "ABS", "NODEC", NULL };
	int r = reg_src(d);
	const DOp *t = find_kind(d, DLabel), *im = find_kind(d, DImm);
	int ret = i->op == ORET;

	if (!only_mods(c, i, ret ? okr : okc) || !sim_hasmod(c, i, ret ? "NODEC" : "NOINC"))
		return sim_unsupported(c, i);
	if (r < 0) {
		if (ret)
			return sim_unsupported(c, i);
		if (t) {
			d->aux = (uint32_t)t->imm;
			d->exec = exec_bra;
			return 0;
		}
		if (!im)
			return sim_unsupported(c, i);
		/* a raw offset: relative to the next instruction */
		{
			int64_t a = (sim_hasmod(c, i, "ABS") ? 0 : d->addr + 16) + im->imm;
			if (a < 0 || a % 16 || (uint64_t)a / 16 >= c->prog->naddr)
				return sim_unsupported(c, i);
			if (c->prog->addr_to_pc[a / 16] == UINT32_MAX)
				return sim_unsupported(c, i);
			d->aux = c->prog->addr_to_pc[a / 16];
		}
		d->exec = exec_bra;
		return 0;
	}
	d->exec = exec_brx;
	d->aux2 = (uint32_t)r;
	if (!ret)
		d->mod |= CCall;
	if (t)
		d->aux = c->fn->nins && t->imm < c->fn->nins && c->fn->ins[t->imm].addr >= 0
		         ? (uint32_t)c->fn->ins[t->imm].addr : 16u * (uint32_t)t->imm;
	else
		d->aux = im ? (uint32_t)im->imm : 0;
	return 0;
}

static int
dec_exit(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod && !(i->nmod == 1 && sim_hasmod(c, i, "KEEPREFCOUNT")))
		return sim_unsupported(c, i);
	d->exec = exec_exit;
	return 0;
}

static int
dec_bpt(DecodeCtx *c, const Ins *i, DIns *d)
{
	const DOp *im = find_kind(d, DImm);

	if (i->nmod != 1 || !sim_hasmod(c, i, "TRAP"))
		return sim_unsupported(c, i);
	d->aux = im ? (uint32_t)im->imm : 0;
	d->exec = exec_trap;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Convergence barriers and WARPSYNC.
 */
static void
exec_bssy(Exec *x, const DIns *d, uint32_t mask)
{
	x->w->bmask[d->aux] = mask;
}

static void
exec_bsync(Exec *x, const DIns *d, uint32_t mask)
{
	sim_bsync(x, d->aux, mask);
}

static void
exec_break(Exec *x, const DIns *d, uint32_t mask)
{
	if (d->mod & CBraCond)
		mask &= sim_pred(x, &d->src[d->aux2]);
	x->w->bmask[d->aux] &= ~mask;
	sim_conv_check(x);
}

static void
exec_bmov_from(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t v[WarpSize];

	for (unsigned l = 0; l < WarpSize; l++)
		v[l] = x->w->bmask[d->aux];
	sim_dst(x, &d->dst[0], v, mask);
	if (d->mod & CClear)
		x->w->bmask[d->aux] = 0;
}

static void
exec_bmov_to(Exec *x, const DIns *d, uint32_t mask)
{
	x->w->bmask[d->aux] = first_val(x, &d->src[d->aux2], mask);
}

static int
bar_num(DecodeCtx *c, const Ins *i, DIns *d)
{
	const DOp *b = find_kind(d, DB);

	if (!b || b->reg >= NumB)
		return sim_unsupported(c, i);
	d->aux = b->reg;
	return 0;
}

static int
dec_bssy(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || bar_num(c, i, d) < 0)
		return -1;
	d->exec = exec_bssy;
	return 0;
}

static int
dec_bsync(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ok[] = { "RECONVERGENT", NULL };

	if (!only_mods(c, i, ok))
		return sim_unsupported(c, i);
	if (bar_num(c, i, d) < 0)
		return -1;
	d->exec = exec_bsync;
	return 0;
}

static int
dec_break(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || bar_num(c, i, d) < 0)
		return sim_unsupported(c, i);
	for (unsigned k = 0; k < d->nsrc; k++)
		if (d->src[k].kind == DP) {
			d->mod |= CBraCond;
			d->aux2 = k;
		}
	d->exec = exec_break;
	return 0;
}

static int
dec_bmov(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ok[] = { "32", "CLEAR", NULL };

	sim_dec_opnds(c, i, d, 1);
	if (!only_mods(c, i, ok) || !sim_hasmod(c, i, "32") || d->nsrc != 1)
		return sim_unsupported(c, i);
	if (d->dst[0].kind == DB && (d->src[0].kind == DR || d->src[0].kind == DImm ||
	                             d->src[0].kind == DUR)) {
		d->aux = d->dst[0].reg;
		d->aux2 = 0;
		d->exec = exec_bmov_to;
	} else if (d->dst[0].kind == DR && d->src[0].kind == DB) {
		d->aux = d->src[0].reg;
		if (sim_hasmod(c, i, "CLEAR"))
			d->mod |= CClear;
		d->exec = exec_bmov_from;
	} else {
		return sim_unsupported(c, i);
	}
	if (d->aux >= NumB)
		return sim_unsupported(c, i);
	return 0;
}

static void
exec_warpsync(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t tmp[WarpSize], all[WarpSize];
	const uint32_t *m;

	if (d->mod & CReg) {
		m = sim_src(x, &d->src[d->aux2], tmp);
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			all[l] = d->aux;
		m = all;
	}
	sim_warpsync(x, m, mask, (d->mod & CExcl) ? WsExcl : WsPlain);
}

/* WARPSYNC.COLLECTIVE Rn, `(L): aux = L */
static void
exec_collective(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t tmp[WarpSize];

	sim_collective(x, sim_src(x, &d->src[d->aux2], tmp), mask, d->aux);
}

static void
exec_endcollective(Exec *x, const DIns *d, uint32_t mask)
{
	(void)d;
	sim_endcollective(x, mask);
}

static int
dec_endcollective(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod)
		return sim_unsupported(c, i);
	d->exec = exec_endcollective;
	return 0;
}

/* WARPSYNC imm | Rn | c[bank][off] (a mask parameter) | .ALL | .EXCLUSIVE Rn | .COLLECTIVE Rn,
 * `(end)` */
static int
dec_warpsync(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ok[] = { "ALL", "EXCLUSIVE", "COLLECTIVE", NULL };
	const DOp *im = find_kind(d, DImm);
	int r = reg_src(d);

	for (unsigned k = 0; r < 0 && k < d->nsrc; k++)
		if (d->src[k].kind == DCBank)
			r = (int)k;

	if (!only_mods(c, i, ok))
		return sim_unsupported(c, i);
	d->exec = exec_warpsync;
	if (sim_hasmod(c, i, "EXCLUSIVE"))
		d->mod |= CExcl;
	if (sim_hasmod(c, i, "COLLECTIVE")) {
		const DOp *t = find_kind(d, DLabel);
		if (r < 0 || !t || d->src[r].kind == DCBank || (d->mod & CExcl))
			return sim_unsupported(c, i);
		d->exec = exec_collective;
		d->aux = (uint32_t)t->imm;
		d->aux2 = (uint32_t)r;
		return 0;
	}
	if (sim_hasmod(c, i, "ALL")) {
		d->aux = ~0u;
	} else if (r >= 0) {
		d->mod |= CReg;
		d->aux2 = (uint32_t)r;
	} else if (im) {
		d->aux = (uint32_t)im->imm;
	} else {
		return sim_unsupported(c, i);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * CTA barriers: BAR.SYNC / BAR.ARV / BAR.RED.{POPC,AND,OR} id[, count][, P]. Arrivals count
 * threads; a barrier without a count waits for every thread of the CTA that has not exited
 * (exited threads count as arrived, as the hardware does for __syncthreads() after an early
 * return). B2R.RESULT reads the reduction.
 */
enum { BarNone, BarPopc, BarAnd, BarOr };

static void cga_check(Exec *x);

void
sim_bar_check(Exec *x)
{
	Cta *c = x->cta;

	cga_check(x);
	for (unsigned id = 0; id < 16; id++) {
		uint32_t expect, result;
		if (!c->bar_arrived[id])
			continue;
		expect = c->bar_expect[id] ? c->bar_expect[id] : c->nthreads - c->nexited;
		if (c->bar_arrived[id] < expect)
			continue;
		switch (c->bar_op[id]) {
		case BarPopc: result = c->bar_red[id]; break;
		case BarAnd: result = c->bar_red[id] == c->bar_arrived[id]; break;
		case BarOr: result = c->bar_red[id] != 0; break;
		default: result = 0; break;
		}
		c->bar_arrived[id] = 0;
		c->bar_expect[id] = 0;
		c->bar_red[id] = 0;
		c->bar_op[id] = BarNone;
		for (uint32_t k = 0; k < c->nwarp; k++) {
			Warp *w = &c->warp[k];
			uint32_t rel = 0;
			for (uint32_t m = w->wait_bar; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctz(m);
				if (w->bar_of[l] == id)
					rel |= 1u << l;
			}
			if (!rel)
				continue;
			w->wait_bar &= ~rel;
			w->bar_result = result;
			sim_wake(x, w, rel);
		}
		x->bar_progress = 1;
	}
}

/* the cluster barrier (barrier.cluster.arrive / wait): it completes when every live thread of
 * every CTA of the cluster has arrived (a CTA without an explicit cluster is its own); a lane
 * waits for the phase it arrived in. The counts are the rank 0 CTA's (cga_lead). Waiting lanes
 * are marked with barrier number CgaBar. */
enum { CgaBar = 16 };

static Cta *
cga_lead(Exec *x)
{
	return x->cta->peer ? x->cta->peer[0] : x->cta;
}

/* release the lanes of c's warps that wait at the cluster barrier */
static void
cga_release(Exec *x, Cta *c)
{
	for (uint32_t k = 0; k < c->nwarp; k++) {
		Warp *w = &c->warp[k];
		uint32_t rel = 0;
		for (uint32_t m = w->wait_bar; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			if (w->bar_of[l] == CgaBar)
				rel |= 1u << l;
		}
		if (rel) {
			w->wait_bar &= ~rel;
			sim_wake(x, w, rel);
		}
	}
}

static void
cga_check(Exec *x)
{
	Cta *c = cga_lead(x);
	uint32_t live = 0, n = x->cta->peer ? x->cta->nrank : 1;

	for (uint32_t r = 0; r < n; r++) {
		const Cta *p = x->cta->peer ? x->cta->peer[r] : x->cta;
		live += p->nthreads - p->nexited;
	}
	if (!c->cga_arrived || c->cga_arrived < live)
		return;
	c->cga_arrived = 0;
	c->cga_phase++;
	for (uint32_t r = 0; r < n; r++)
		cga_release(x, x->cta->peer ? x->cta->peer[r] : x->cta);
	x->bar_progress = 1;
}

static void
exec_cga_arv(Exec *x, const DIns *d, uint32_t mask)
{
	Cta *c = cga_lead(x);

	(void)d;
	for (uint32_t m = mask; m; m &= m - 1)
		x->w->cga_arv[__builtin_ctz(m)] = c->cga_phase + 1;
	c->cga_arrived += sim_popc(mask);
	cga_check(x);
}

static void
exec_cga_wait(Exec *x, const DIns *d, uint32_t mask)
{
	Warp *w = x->w;
	uint32_t wait = 0;

	(void)d;
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if (w->cga_arv[l] > cga_lead(x)->cga_phase)
			wait |= 1u << l;       /* its phase has not completed yet */
	}
	if (!wait)
		return;
	sim_hold(x, wait);
	w->wait_bar |= wait;
	for (uint32_t m = wait; m; m &= m - 1)
		w->bar_of[__builtin_ctz(m)] = CgaBar;
}

static int
dec_cga(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || i->nopnd)
		return sim_unsupported(c, i);
	d->exec = i->op == OUCGABAR_ARV ? exec_cga_arv : exec_cga_wait;
	return 0;
}

static void
exec_bar(Exec *x, const DIns *d, uint32_t mask)
{
	Cta *c = x->cta;
	Warp *w = x->w;
	uint32_t id = first_val(x, &d->src[0], mask) & 15;
	uint32_t n = sim_popc(mask);

	c->bar_arrived[id] += n;
	if (d->mod & CCount)
		c->bar_expect[id] = first_val(x, &d->src[1], mask);
	if (d->aux != BarNone) {
		c->bar_op[id] = (uint8_t)d->aux;
		c->bar_red[id] += sim_popc(mask & sim_pred(x, &d->src[d->aux2]));
	}
	if (!(d->mod & CArv)) {
		sim_hold(x, mask);
		w->wait_bar |= mask;
		for (uint32_t m = mask; m; m &= m - 1)
			w->bar_of[__builtin_ctz(m)] = (uint8_t)id;
	}
	sim_bar_check(x);
}

static int
dec_bar(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ok[] = { "SYNC", "ARV", "RED", "POPC", "AND", "OR",
	                                  "DEFER_BLOCKING", "ALIGNED", NULL };
	unsigned nval = 0;

	if (!only_mods(c, i, ok) || !i->nmod)
		return sim_unsupported(c, i);
	sim_dec_opnds(c, i, d, 0);
	d->exec = exec_bar;
	if (sim_hasmod(c, i, "ARV"))
		d->mod |= CArv;
	if (sim_hasmod(c, i, "RED")) {
		d->aux = sim_hasmod(c, i, "POPC") ? BarPopc : sim_hasmod(c, i, "AND") ? BarAnd
		       : sim_hasmod(c, i, "OR") ? BarOr : BarNone;
		if (d->aux == BarNone)
			return sim_unsupported(c, i);
	} else if (!sim_hasmod(c, i, "SYNC") && !(d->mod & CArv)) {
		return sim_unsupported(c, i);
	}
	for (unsigned k = 0; k < d->nsrc; k++) {
		const DOp *o = &d->src[k];
		if (o->kind == DP) {
			d->aux2 = k;
			if (d->aux == BarNone)
				return sim_unsupported(c, i);
		} else if (o->kind == DImm || o->kind == DR || o->kind == DUR) {
			if (k != nval)
				return sim_unsupported(c, i);
			nval++;
		} else {
			return sim_unsupported(c, i);
		}
	}
	if (nval == 0 || nval > 2 || (d->aux != BarNone && d->src[d->aux2].kind != DP))
		return sim_unsupported(c, i);
	if (nval == 2)
		d->mod |= CCount;
	if ((d->mod & CArv) && nval != 2)
		return sim_unsupported(c, i);
	return 0;
}

static void
exec_b2r(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t v[WarpSize];

	for (unsigned l = 0; l < WarpSize; l++)
		v[l] = x->w->bar_result;
	sim_dst(x, &d->dst[0], v, mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], x->w->bar_result ? ~0u : 0, mask);
}

static int
dec_b2r(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod != 1 || !sim_hasmod(c, i, "RESULT"))
		return sim_unsupported(c, i);
	if (sim_dec_opnds(c, i, d, i->nopnd) < 0 || d->ndst < 1 || d->ndst > 2 ||
	    d->dst[0].kind != DR || (d->ndst == 2 && d->dst[1].kind != DP))
		return sim_unsupported(c, i);
	d->exec = exec_b2r;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Special registers.
 */
static void
exec_s2r(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t v[WarpSize];
	int code = (int)d->src[0].imm;

	if (code == SRTidX) {
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = x->w->tid[l][0];
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = sim_sreg(x, code, l);
	}
	sim_dst(x, &d->dst[0], v, mask);
}

/* CS2R Rd(.64 pair unless .32), SR_CLOCKLO | SRZ | ... */
static void
exec_cs2r(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t lo[WarpSize], hi[WarpSize];
	int code = (int)d->src[0].imm;
	DOp o = d->dst[0];

	for (unsigned l = 0; l < WarpSize; l++) {
		lo[l] = sim_sreg(x, code, l);
		hi[l] = code == SRClockLo || code == SRClock64 ? (uint32_t)(x->ninstr >> 32)
		      : code == SRGlobalTimerLo || code == SRGlobalTimer
		        ? (uint32_t)((x->ninstr * 1000) >> 32) : 0;
	}
	sim_dst(x, &o, lo, mask);
	if (!d->aux && o.reg != RegRZ) {
		o.reg++;
		sim_dst(x, &o, hi, mask);
	}
}

static int
dec_s2r(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (d->ndst != 1 || d->nsrc != 1 || d->src[0].kind != DSReg)
		return sim_unsupported(c, i);
	if (i->op == OCS2R) {
		static const char *const ok[] = { "32", NULL };
		if (!only_mods(c, i, ok))
			return sim_unsupported(c, i);
		d->aux = sim_hasmod(c, i, "32");
		d->exec = exec_cs2r;
		return 0;
	}
	if (i->nmod)
		return sim_unsupported(c, i);
	if (i->op == OS2UR ? d->dst[0].kind != DUR : d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	d->exec = exec_s2r;
	return 0;
}

/* LEPC Rd: the byte address of this instruction, a 64-bit pair */
static void
exec_lepc(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t lo[WarpSize], hi[WarpSize];
	DOp o = d->dst[0];

	for (unsigned l = 0; l < WarpSize; l++) {
		lo[l] = d->addr;
		hi[l] = 0;
	}
	sim_dst(x, &o, lo, mask);
	if (o.reg != RegRZ) {
		o.reg++;
		sim_dst(x, &o, hi, mask);
	}
}

static int
dec_lepc(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || d->ndst != 1 || d->dst[0].kind != DR)
		return sim_unsupported(c, i);
	d->exec = exec_lepc;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * No functional effect: memory ordering (the functional model is sequentially consistent),
 * scoreboard waits (results are ready at once), cache control, scheduling hints.
 */
static void
exec_nop(Exec *x, const DIns *d, uint32_t mask)
{
	(void)x;
	(void)d;
	(void)mask;
}

static int
dec_nop(DecodeCtx *c, const Ins *i, DIns *d)
{
	(void)c;
	(void)i;
	d->exec = exec_nop;
	return 0;
}

/* DEPBAR.LE SB, n (scoreboards: timing only) as before; DEPBAR.FULL/.EMPTY reg[, n] are
 * FIBER busy-bit waits (exec_fiber.c) */
static int
dec_depbar(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (sim_hasmod(c, i, "FULL") || sim_hasmod(c, i, "EMPTY"))
		return sim_dec_busy(c, i, d);
	return dec_nop(c, i, d);
}

/* YIELD, NANOSLEEP: no value; the scheduler runs other lanes and warps first (sim_yield). The
 * timing driver also sleeps a NANOSLEEP's duration (timing/sm.c). */
static void
exec_yield(Exec *x, const DIns *d, uint32_t mask)
{
	(void)d;
	sim_yield(x, mask);
}

static int
dec_yield(DecodeCtx *c, const Ins *i, DIns *d)
{
	(void)c;
	(void)i;
	d->exec = exec_yield;
	return 0;
}

static const struct {
	uint16_t op;           /* opcode family */
	DecodeFn dec;          /* its decoder */
} ctrl_rows[] = {
	{ OBRA, dec_bra },
	{ OBRX, dec_brx },
	{ OBRXU, dec_brx },
	{ OJMP, dec_jmp },
	{ OJMX, dec_brx },
	{ OJMXU, dec_brx },
	{ OCALL, dec_call },
	{ ORET, dec_call },
	{ OEXIT, dec_exit },
	{ OKILL, dec_exit },
	{ OBPT, dec_bpt },
	{ OBSSY, dec_bssy },
	{ OBSYNC, dec_bsync },
	{ OBREAK, dec_break },
	{ OBMOV, dec_bmov },
	{ OWARPSYNC, dec_warpsync },
	{ OENDCOLLECTIVE, dec_endcollective },
	{ OBAR, dec_bar },
	{ OUCGABAR_ARV, dec_cga },
	{ OUCGABAR_WAIT, dec_cga },
	{ OB2R, dec_b2r },
	{ OS2R, dec_s2r },
	{ OCS2R, dec_s2r },
	{ OS2UR, dec_s2r },
	{ OLEPC, dec_lepc },
	{ OYIELD, dec_yield },
	{ ONANOSLEEP, dec_yield },
	{ ODEPBAR, dec_depbar },
	{ OLDGDEPBAR, dec_nop },
	{ OMEMBAR, dec_nop },
	{ OFENCE, dec_nop },
	{ OERRBAR, dec_nop },
	{ OCGAERRBAR, dec_nop },
	{ OCCTL, dec_nop },
	{ OCCTLL, dec_nop },
	{ OCCTLT, dec_nop },
	{ ONOP, dec_nop },
	{ OPREEXIT, dec_nop },
};

void
sim_register_ctrl(SimTab *t)
{
	for (unsigned k = 0; k < sizeof ctrl_rows / sizeof ctrl_rows[0]; k++)
		t->dec[ctrl_rows[k].op] = ctrl_rows[k].dec;
}
