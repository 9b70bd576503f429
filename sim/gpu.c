/* gpu.c: the device and the functional driver. A SimModule is a Module placed on a Gpu: every
 * kernel decoded once (sim_decode), module-scope variables (.nv.global, .nv.global.init) in
 * global memory, constant banks built from .nv.constantN[.<kernel>] data with their symbol
 * relocations (`.dword tab` is the device address of tab). sim_launch checks the launch like
 * the CUDA driver, lays out constant bank 0 (docs/sim.md) and runs the CTAs on one SM, as many
 * resident at once as the device's occupancy allows, each to its end in grid order (launch.c). The timing driver (timing/launch.c, timing/sm.c) runs the same DIns.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "launch.h"

Gpu *
gpu_new(GpuConfig c)
{
	Gpu *g = xmalloc(sizeof *g);

	memset(g, 0, sizeof *g);
	g->cfg = c;
	if (!g->cfg.watchdog)
		g->cfg.watchdog = SimWatchdogDefault;
	if (!g->cfg.regs_per_sm || g->cfg.regs_per_sm > SmVRegs * WarpSize)
		g->cfg.regs_per_sm = SmVRegs * WarpSize;
	g->next_base = SimGlobalBase;
	g->sm.rf = xmalloc(SmVRegs * sizeof *g->sm.rf);
	return g;
}

void
gpu_set_config(Gpu *g, GpuConfig c)
{
	g->cfg = c;
	if (!g->cfg.watchdog)
		g->cfg.watchdog = SimWatchdogDefault;
	if (!g->cfg.regs_per_sm || g->cfg.regs_per_sm > SmVRegs * WarpSize)
		g->cfg.regs_per_sm = SmVRegs * WarpSize;
}

void
gpu_set_occupancy(Gpu *g, SimOccupancyFn fn)
{
	g->cfg.occupancy = fn;
}

void
gpu_free(Gpu *g)
{
	if (!g)
		return;
	for (uint32_t k = 0; k < g->nalloc; k++) {
		free(g->alloc[k]->data);
		free(g->alloc[k]->init);
		free(g->alloc[k]);
	}
	free(g->alloc);
	free(g->sm.rf);
	sim_devout_free(g);
	sim_check_free(g);
	free(g);
}

void
gpu_set_poll(Gpu *g, SimPollFn fn, void *arg)
{
	g->poll = fn;
	g->poll_arg = arg;
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
		{
			uint64_t a;
			if (sim_devcall_addr(mstr(c->sm->m, e->atom), &a) == 0)
				return a;    /* __assertfail, vprintf: the simulator's routine (devcall.c) */
		}
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
		w = data_dir_width(name);
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
		free(a->init);          /* module data is initialised by the loader: not tracked */
		a->init = NULL;
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

uint8_t *
sim_module_bank(SimModule *sm, unsigned bank, uint32_t *size)
{
	if (bank >= NumCBanks || !sm->cb[bank])
		return NULL;
	*size = sm->cbsize[bank];
	return sm->cb[bank];
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
