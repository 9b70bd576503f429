/* gpu.c: the device and the functional driver. A SimModule is a Module placed on a Gpu: every
 * kernel decoded once (sim_decode), module-scope variables (.nv.global, .nv.global.init) in
 * global memory, constant banks built from .nv.constantN[.<kernel>] data with their symbol
 * relocations (`.dword tab` is the device address of tab). sim_launch checks the launch like
 * the CUDA driver, lays out constant bank 0 (docs/sim.md) and runs the CTAs one after another
 * on one SM, stepping warps with sim_step (warp.c) in a fixed round-robin order, so that a run
 * is deterministic. The timing driver of the next issue will reuse sim_step.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

enum {
	Quantum = 1024,        /* instructions a warp runs before the next warp's turn */
	Bank0Min = 0x400,      /* bytes of constant bank 0 at least */
};

/* driver words of constant bank 0 */
enum {
	C0Ntid = 0x0,          /* blockDim.x, .y, .z */
	C0Nctaid = 0xc,        /* gridDim.x, .y, .z */
	C0SharedWin = 0x18,    /* 64-bit: generic address of shared offset 0 */
	C0LocalWin = 0x20,     /* 64-bit: generic address of local offset 0 */
	C0StackTop = 0x28,     /* local bytes per thread: the initial stack pointer R1 */
	C0DescSm80 = 0x118,    /* 64-bit global memory descriptor (ULDC.64 UR4, c[0x0][0x118]) */
	C0DescSm90 = 0x208,
};

typedef struct Sym {
	uint32_t name;         /* atom */
	uint64_t addr;         /* device address */
} Sym;

typedef struct KEnt {
	Prog *prog;            /* decoded kernel */
	uint8_t *cb[NumCBanks];    /* its banks: per-kernel .nv.constantN.<fn>, else the module's */
	uint32_t cbsize[NumCBanks];
	uint32_t bank0;        /* bytes of .nv.constant0.<fn> */
} KEnt;

struct SimModule {
	Gpu *gpu;              /* device it is loaded on */
	Module *m;             /* the listing */
	KEnt *k;               /* kernels */
	uint32_t nk;
	uint8_t *cb[NumCBanks];    /* module-wide banks (.nv.constantN) */
	uint32_t cbsize[NumCBanks];
	uint8_t **owned;       /* per-kernel bank buffers to free */
	uint32_t nowned, cowned;
	Sym *sym;              /* module-scope variables */
	uint32_t nsym, csym;
	uint64_t *galloc;      /* global allocations of the module */
	uint32_t ngalloc, cgalloc;
};

void
simconfig_default(SimConfig *c, int sm)
{
	memset(c, 0, sizeof *c);
	c->sm = sm >= 90 ? 90 : 80;
	c->name = c->sm == 90 ? "h100" : "a100";
	c->nsm = c->sm == 90 ? 132 : 108;
	c->max_threads_per_block = 1024;
	c->max_smem_per_block = c->sm == 90 ? 227 * 1024 : 163 * 1024;
	c->regs_per_sm = SmVRegs * WarpSize;
	c->watchdog = (uint64_t)1 << 32;
}

Gpu *
gpu_new(const SimConfig *c)
{
	Gpu *g = xmalloc(sizeof *g);

	g->cfg = *c;
	if (!g->cfg.watchdog)
		g->cfg.watchdog = (uint64_t)1 << 32;
	if (!g->cfg.regs_per_sm || g->cfg.regs_per_sm > SmVRegs * WarpSize)
		g->cfg.regs_per_sm = SmVRegs * WarpSize;
	g->next_base = SimGlobalBase;
	g->sm.rf = xmalloc(SmVRegs * sizeof *g->sm.rf);
	return g;
}

void
gpu_free(Gpu *g)
{
	if (!g)
		return;
	for (uint32_t k = 0; k < g->nalloc; k++) {
		free(g->alloc[k]->data);
		free(g->alloc[k]);
	}
	free(g->alloc);
	free(g->sm.rf);
	free(g);
}

/* ---------------------------------------------------------------------------------------------
 * Module-scope data: the directives of data sections as bytes.
 */
typedef struct DataCx {
	SimModule *sm;         /* module being loaded */
	Diag *d;               /* errors */
	uint8_t *buf;          /* output, NULL while sizing */
	uint64_t base;         /* device address of byte 0 (global sections), 0 otherwise */
	int define;            /* labels define symbols (sizing pass of a global section) */
	int nerr;
} DataCx;

static const Sym *
sym_find(const SimModule *sm, uint32_t name)
{
	for (uint32_t k = 0; k < sm->nsym; k++)
		if (sm->sym[k].name == name)
			return &sm->sym[k];
	return NULL;
}

/* value of a data expression; 0 after reporting an error */
static uint64_t
eval(DataCx *c, const Expr *e, Loc loc)
{
	const Sym *s;

	switch (e->kind) {
	case ENum:
		return (uint64_t)e->num;
	case ESym:
		if ((s = sym_find(c->sm, e->atom)))
			return s->addr;
		if (module_fn(c->sm->m, mstr(c->sm->m, e->atom)))
			return 0;    /* a function: offset 0 of its own section */
		for (uint32_t f = 0; f < c->sm->m->nfn; f++) {
			const Fn *fn = c->sm->m->fn[f];
			for (uint32_t k = 0; k < fn->nins; k++)
				if (fn->ins[k].label == e->atom)
					return fn->ins[k].addr >= 0 ? (uint64_t)fn->ins[k].addr : 16 * k;
		}
		if (c->buf) {
			error_at(c->d, loc, "relocation against unknown symbol '%s'",
			         mstr(c->sm->m, e->atom));
			c->nerr++;
		}
		return 0;
	case EAdd:
		return eval(c, e->a, loc) + eval(c, e->b, loc);
	case ESub:
		return eval(c, e->a, loc) - eval(c, e->b, loc);
	default:
		if (c->buf) {
			error_at(c->d, loc, "unsupported expression in module data");
			c->nerr++;
		}
		return 0;
	}
}

static void
put(DataCx *c, uint64_t off, uint64_t v, unsigned n)
{
	if (c->buf)
		for (unsigned k = 0; k < n; k++)
			c->buf[off + k] = (uint8_t)(v >> (8 * k));
}

/* bytes of section s; fills c->buf when set */
static uint64_t
data_walk(DataCx *c, const Section *s)
{
	Module *m = c->sm->m;
	uint64_t off = 0;

	for (uint32_t k = 0; k < s->nitem; k++) {
		const Item *it = &s->item[k];
		const char *name = mstr(m, it->name);
		unsigned w = 0;

		if (it->kind == ILabel) {
			if (c->define && !sym_find(c->sm, it->name) && name[0] != '.') {
				vgrow(&c->sm->sym, &c->sm->csym, c->sm->nsym + 1, sizeof *c->sm->sym);
				c->sm->sym[c->sm->nsym++] = (Sym){ it->name, c->base + off };
			}
			continue;
		}
		if (it->kind != IDir)
			continue;
		if (it->off >= 0)
			off = (uint64_t)it->off;
		if (strcmp(name, ".byte") == 0)
			w = 1;
		else if (strcmp(name, ".short") == 0)
			w = 2;
		else if (strcmp(name, ".word") == 0)
			w = 4;
		else if (strcmp(name, ".dword") == 0)
			w = 8;
		if (w) {
			for (uint32_t a = 0; a < it->narg; a++, off += w)
				put(c, off, eval(c, it->arg[a], it->loc), w);
		} else if (strcmp(name, ".zero") == 0 && it->narg >= 1 && it->arg[0]->kind == ENum) {
			off += (uint64_t)it->arg[0]->num;
		} else if (strcmp(name, ".string") == 0 && it->narg == 1 && it->arg[0]->kind == EStr) {
			const char *str = mstr(m, it->arg[0]->atom);
			size_t n = strlen(str) + 1;
			if (c->buf)
				memcpy(c->buf + off, str, n);
			off += n;
		} else if (strcmp(name, ".align") == 0 && it->narg >= 1 && it->arg[0]->kind == ENum &&
		           it->arg[0]->num > 0) {
			uint64_t al = (uint64_t)it->arg[0]->num;
			off = (off + al - 1) / al * al;
		}
	}
	return off;
}

/* .nv.constantN.<fn>: the kernel it belongs to, or NULL for a module-wide bank */
static const char *
bank_owner(const Module *m, const Section *s)
{
	const char *n = mstr(m, s->name), *p = n + strlen(".nv.constant");

	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '.' ? p + 1 : NULL;
}

static int
place_globals(SimModule *sm, Diag *d)
{
	Module *m = sm->m;

	for (uint32_t k = 0; k < m->nsec; k++) {
		Section *s = m->sec[k];
		DataCx c = { sm, d, NULL, 0, 0, 0 };
		uint64_t size, addr;
		Alloc *a;

		if (s->kind != SecGlobal)
			continue;
		size = data_walk(&c, s);
		if (gpu_malloc(sm->gpu, size, &addr) < 0) {
			error_at(d, s->loc, "out of device memory for '%s'", mstr(m, s->name));
			return -1;
		}
		vgrow(&sm->galloc, &sm->cgalloc, sm->ngalloc + 1, sizeof *sm->galloc);
		sm->galloc[sm->ngalloc++] = addr;
		a = sm->gpu->alloc[sm->gpu->nalloc - 1];
		a->name = mstr(m, s->name);
		c.base = addr;
		c.define = 1;
		c.buf = a->data;
		data_walk(&c, s);
		if (c.nerr)
			return -1;
	}
	return 0;
}

static uint8_t *
bank_build(SimModule *sm, const Section *s, Diag *d, uint32_t *size)
{
	DataCx c = { sm, d, NULL, 0, 0, 0 };
	uint64_t n = data_walk(&c, s);
	uint8_t *buf;

	if (n > CBankSize) {
		error_at(d, s->loc, "constant bank '%s' is larger than 64 KiB", mstr(sm->m, s->name));
		return NULL;
	}
	buf = xmalloc(n ? (size_t)n : 1);
	c.buf = buf;
	data_walk(&c, s);
	if (c.nerr) {
		free(buf);
		return NULL;
	}
	vgrow(&sm->owned, &sm->cowned, sm->nowned + 1, sizeof *sm->owned);
	sm->owned[sm->nowned++] = buf;
	*size = (uint32_t)n;
	return buf;
}

static int
place_banks(SimModule *sm, Diag *d)
{
	Module *m = sm->m;

	for (uint32_t k = 0; k < m->nsec; k++) {
		Section *s = m->sec[k];
		const char *owner;
		uint32_t size;
		uint8_t *buf;

		if (s->kind != SecConst || s->bank < 0 || s->bank >= NumCBanks)
			continue;
		owner = bank_owner(m, s);
		if (!(buf = bank_build(sm, s, d, &size)))
			return -1;
		if (!owner) {
			sm->cb[s->bank] = buf;
			sm->cbsize[s->bank] = size;
			continue;
		}
		for (uint32_t j = 0; j < sm->nk; j++) {
			if (strcmp(sm->k[j].prog->name, owner) != 0)
				continue;
			if (s->bank == 0) {
				sm->k[j].bank0 = size;
			} else {
				sm->k[j].cb[s->bank] = buf;
				sm->k[j].cbsize[s->bank] = size;
			}
		}
	}
	for (uint32_t j = 0; j < sm->nk; j++)
		for (unsigned b = 1; b < NumCBanks; b++)
			if (!sm->k[j].cb[b]) {
				sm->k[j].cb[b] = sm->cb[b];
				sm->k[j].cbsize[b] = sm->cbsize[b];
			}
	return 0;
}

SimModule *
sim_module_load(Gpu *g, Module *m, Diag *d)
{
	SimModule *sm = xmalloc(sizeof *sm);
	int any_entry = 0, nerr = d->nerr, sm_arch = m->sm ? m->sm : g->cfg.sm;

	sm->gpu = g;
	sm->m = m;
	for (uint32_t k = 0; k < m->nfn; k++)
		any_entry |= m->fn[k]->info.is_entry;
	sm->k = xmalloc((m->nfn ? m->nfn : 1) * sizeof *sm->k);
	for (uint32_t k = 0; k < m->nfn; k++) {
		Prog *p;
		if (any_entry && !m->fn[k]->info.is_entry)
			continue;
		if (!(p = sim_decode(m->fn[k], sm_arch, d)))
			continue;
		sm->k[sm->nk++].prog = p;
	}
	if (d->nerr == nerr && place_globals(sm, d) == 0)
		place_banks(sm, d);
	if (d->nerr != nerr) {
		sim_module_free(sm);
		return NULL;
	}
	return sm;
}

void
sim_module_free(SimModule *sm)
{
	if (!sm)
		return;
	for (uint32_t k = 0; k < sm->nk; k++)
		prog_free(sm->k[k].prog);
	for (uint32_t k = 0; k < sm->nowned; k++)
		free(sm->owned[k]);
	for (uint32_t k = 0; k < sm->ngalloc; k++)
		gpu_free_mem(sm->gpu, sm->galloc[k]);
	free(sm->owned);
	free(sm->galloc);
	free(sm->sym);
	free(sm->k);
	free(sm);
}

const Prog *
sim_module_kernel(const SimModule *sm, const char *name)
{
	for (uint32_t k = 0; k < sm->nk; k++)
		if (strcmp(sm->k[k].prog->name, name) == 0)
			return sm->k[k].prog;
	return NULL;
}

int
sim_module_symbol(const SimModule *sm, const char *name, uint64_t *addr)
{
	uint32_t a = mintern(sm->m, name);
	const Sym *s = sym_find(sm, a);

	if (!s)
		return -1;
	*addr = s->addr;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Launch.
 */
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
		       "threads exceed the SM's register file", k->name, (unsigned long long)k->nreg,
		       nthreads);
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
static void
deadlock(Exec *x, Cta *c)
{
	char buf[400];
	int n = 0;

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
		if (w->wait_warpsync && n < (int)sizeof buf) {
			l = (unsigned)__builtin_ctz(w->wait_warpsync);
			n += snprintf(buf + n, sizeof buf - (size_t)n,
			              " %u at WARPSYNC 0x%08x (PC 0x%04x)",
			              sim_popc(w->wait_warpsync), w->wsmask[l],
			              x->prog->ins[w->pc[l]].addr);
		}
	}
	x->w = NULL;
	sim_fault(x, FaultDeadlock, 0, "CTA (%u,%u,%u) can never continue: %s", c->ctaid[0],
	          c->ctaid[1], c->ctaid[2], buf);
}

/* run one CTA to completion: 0, or -1 with the fault filled */
static int
run_cta(Exec *x, Cta *c)
{
	for (;;) {
		int progress = 0, alldone = 1;
		for (uint32_t k = 0; k < c->nwarp; k++) {
			unsigned issued;
			int r;
			x->w = &c->warp[k];
			r = sim_run(x, Quantum, &issued);
			if (issued)
				progress = 1;
			if (r == StepFault)
				return -1;
			if (r != StepDone)
				alldone = 0;
		}
		if (alldone)
			return 0;
		if (!progress) {
			deadlock(x, c);
			return -1;
		}
	}
}

int
sim_launch(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimStats *st,
           SimFault *fault)
{
	const KEnt *ke = NULL;
	uint32_t nreg_alloc = ((uint32_t)k->nreg + 7) & ~7u;
	uint64_t nthreads = (uint64_t)lp->block[0] * lp->block[1] * lp->block[2];
	uint32_t nwarp, bank0_size;
	Exec x;
	Cta cta;
	uint8_t *bank0;
	int rc = 0;

	memset(fault, 0, sizeof *fault);
	if (st)
		memset(st, 0, sizeof *st);
	for (uint32_t j = 0; j < sm->nk; j++)
		if (sm->k[j].prog == k)
			ke = &sm->k[j];
	if (!ke) {
		fault0(fault, FaultInternal, "not a kernel of this module%.0llu%.0llu", k->name, 0, 0);
		return -1;
	}
	if (check_launch(g, k, lp, fault, nreg_alloc) < 0)
		return -1;
	nwarp = (uint32_t)((nthreads + WarpSize - 1) / WarpSize);

	/* constant bank 0 as the driver lays it out */
	bank0_size = ke->bank0 > Bank0Min ? ke->bank0 : Bank0Min;
	if ((uint32_t)k->param_base + lp->params_size > bank0_size)
		bank0_size = (uint32_t)k->param_base + lp->params_size;
	bank0 = xmalloc(bank0_size);
	for (int d = 0; d < 3; d++) {
		put32(bank0, C0Ntid + 4 * d, lp->block[d]);
		put32(bank0, C0Nctaid + 4 * d, lp->grid[d]);
	}
	put64(bank0, C0SharedWin, SimSharedWindow);
	put64(bank0, C0LocalWin, SimLocalWindow);
	put32(bank0, C0StackTop, (uint32_t)k->stack_size);
	put64(bank0, k->sm >= 90 ? C0DescSm90 : C0DescSm80, 0x0000000000000000ull);
	if (lp->params_size)
		memcpy(bank0 + k->param_base, lp->params, lp->params_size);

	memset(&x, 0, sizeof x);
	x.gpu = g;
	x.prog = k;
	x.sm = &g->sm;
	x.fault = fault;
	x.watchdog = g->cfg.watchdog ? g->cfg.watchdog : (uint64_t)1 << 32;
	x.cbank[0] = bank0;
	x.cbank_size[0] = bank0_size;
	for (unsigned b = 1; b < NumCBanks; b++) {
		x.cbank[b] = ke->cb[b];
		x.cbank_size[b] = ke->cb[b] ? ke->cbsize[b] : 0;
	}
	for (int d = 0; d < 3; d++) {
		x.ntid[d] = lp->block[d];
		x.nctaid[d] = lp->grid[d];
	}

	memset(&cta, 0, sizeof cta);
	cta.nthreads = (uint32_t)nthreads;
	cta.nwarp = nwarp;
	cta.warp = xmalloc(nwarp * sizeof *cta.warp);
	cta.smem_size = (uint32_t)k->shared_static + lp->dyn_smem;
	cta.smem = xmalloc(cta.smem_size ? cta.smem_size : 1);
	cta.lsize = (uint32_t)k->stack_size;
	cta.lmem = xmalloc(cta.lsize ? (size_t)cta.lsize * nwarp * WarpSize : 1);
	g->sm.cta = &cta;
	g->sm.ncta = 1;
	g->sm.rf_used = nwarp * nreg_alloc;
	x.cta = &cta;

	for (uint32_t cz = 0; cz < lp->grid[2] && !rc; cz++)
	for (uint32_t cy = 0; cy < lp->grid[1] && !rc; cy++)
	for (uint32_t cx = 0; cx < lp->grid[0] && !rc; cx++) {
		cta.ctaid[0] = cx;
		cta.ctaid[1] = cy;
		cta.ctaid[2] = cz;
		cta.nexited = 0;
		cta.cga_arrived = 0;
		cta.cga_phase = 0;
		memset(cta.bar_arrived, 0, sizeof cta.bar_arrived);
		memset(cta.bar_expect, 0, sizeof cta.bar_expect);
		memset(cta.bar_red, 0, sizeof cta.bar_red);
		memset(cta.bar_op, 0, sizeof cta.bar_op);
		memset(cta.smem, 0, cta.smem_size);
		if (cta.lsize)
			memset(cta.lmem, 0, (size_t)cta.lsize * nwarp * WarpSize);
		memset(g->sm.rf, 0, (size_t)nwarp * nreg_alloc * sizeof *g->sm.rf);
		for (uint32_t w = 0; w < nwarp; w++) {
			uint64_t first = (uint64_t)w * WarpSize;
			uint32_t n = nthreads - first >= WarpSize ? WarpSize : (uint32_t)(nthreads - first);
			Warp *wp = &cta.warp[w];
			sim_warp_init(wp, w, n == WarpSize ? ~0u : (1u << n) - 1, w * nreg_alloc,
			              nreg_alloc);
			for (uint32_t l = 0; l < n; l++) {
				uint64_t t = first + l;
				wp->tid[l][0] = (uint32_t)(t % lp->block[0]);
				wp->tid[l][1] = (uint32_t)(t / lp->block[0] % lp->block[1]);
				wp->tid[l][2] = (uint32_t)(t / ((uint64_t)lp->block[0] * lp->block[1]));
			}
		}
		rc = run_cta(&x, &cta);
	}

	if (st) {
		st->cycles = 0;
		st->warp_instructions = x.ninstr;
		st->thread_instructions = x.nthread_instr;
	}
	g->sm.cta = NULL;
	g->sm.ncta = 0;
	g->sm.rf_used = 0;
	free(cta.warp);
	free(cta.smem);
	free(cta.lmem);
	free(bank0);
	return rc;
}
