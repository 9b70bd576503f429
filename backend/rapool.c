/* rapool.c: spilling to a pool (docs/pass-regalloc.md "Spilling to a pool"), the window target's
 * spill home where it is legal and cheaper than local memory: a kernel that already owns its SM
 * (a SETFIBERNUM or a pool) and never runs more than one weft keeps its spill slots in a pool of
 * slice 0 (registers no window uses) instead of the stack: MOV to and from the pool in place of
 * STL/LDL, no stack pointer, no frame.
 */
#include "regalloc.h"
#include "fpasses.h"
#include "fenc.h"

#include <string.h>

/* the most threads the kernel may ever run at once: the launch bound's, .maxfibers and every
 * SETFIBERNUM count; -1 where one is not known (no launch bound, a count from a register) */
static long
most_fibers(const Fn *f)
{
	long t = 1;

	for (int k = 0; k < 3; k++) {
		int m = f->info.max_threads[k] > 0 ? f->info.max_threads[k] : f->info.reqntid[k];
		if (m <= 0)
			return -1;
		t *= m;
	}
	if (f->info.maxfibers > t)
		t = f->info.maxfibers;
	for (uint32_t k = 0; k < f->nins; k++) {
		const Ins *i = &f->ins[k];
		if (i->op != OSETFIBERNUM)
			continue;
		if (!i->nopnd || i->opnd[0].kind != OImm)
			return -1;
		if (i->opnd[0].imm > t)
			t = (long)i->opnd[0].imm;
	}
	return t;
}

/* `.pool NAME, SIZE` in f's .text header, after .sectioninfo (before the code), and in f->pool */
static void
declare(Fn *f, uint32_t name, uint32_t size, uint32_t base)
{
	Module *m = f->mod;
	Section *s = f->text;
	FPool *p = xrealloc(f->pool, (f->npool + 1) * sizeof *f->pool);
	uint32_t at = 0;
	Item it = { .kind = IDir, .off = -1, .narg = 2, .loc = f->loc };

	f->pool = p;
	p = &f->pool[f->npool++];
	memset(p, 0, sizeof *p);
	p->name = name;
	p->size = size;
	p->slice = 0;
	p->base = base;
	p->loc = f->loc;
	if (!s)
		return;
	it.name = mintern(m, ".pool");
	it.arg = arena_alloc(m->arena, 3 * sizeof *it.arg);
	it.arg[0] = arena_alloc(m->arena, sizeof *it.arg[0]);
	it.arg[0]->kind = ESym;
	it.arg[0]->atom = name;
	it.arg[1] = arena_alloc(m->arena, sizeof *it.arg[1]);
	it.arg[1]->kind = ENum;
	it.arg[1]->num = size;
	for (uint32_t j = 0; j < s->nitem; j++)
		if (s->item[j].kind == IDir && strcmp(mstr(m, s->item[j].name), ".sectioninfo") == 0)
			at = j + 1;
	section_item(m, s);
	memmove(&s->item[at + 1], &s->item[at], (s->nitem - 1 - at) * sizeof *s->item);
	s->item[at] = it;
}

int
ra_pool_spill(RA *ra)
{
	Fn *f = ra->f;
	int slice = f->plan && f->plan->slice_regs > 0 ? f->plan->slice_regs : FiberSliceRegs;
	uint32_t pooled = 0, size = (uint32_t)ra->frame / 4, name;
	long most = most_fibers(f);

	if (!ra->win || !ra->frame || (f->plan && f->plan->spill_local))
		return 0;
	if (!f->npool && !fw_has_setfibernum(f))
		return 0;            /* a pool would make it own its SM: fewer CTAs, not cheaper */
	if (most < 1 || most > 32)
		return 0;            /* more than one weft: a pool register is one weft's only */
	for (uint32_t k = 0; k < f->npool; k++)
		pooled += f->pool[k].slice == 0 ? f->pool[k].size : 0;
	/* beside the weft's window (at most maxreg) and the other pools, in the upper half of
	 * the slice, which a pool destination must be (fverify, fiber-encoding.md) */
	if ((long)size + pooled + ra->maxreg > slice || (long)size + pooled > slice - FencPoolBase)
		return 0;
	name = mintern(f->mod, "fiber_spill");
	for (uint32_t k = 0; k < f->npool; k++)
		if (f->pool[k].name == name)
			return 0;
	declare(f, name, size, (uint32_t)slice - pooled - size);
	ra->win->spool = (int)f->npool;
	if (f->plan)
		f->plan->spill_pool = (int)size;
	ra->frame = 0;           /* the slots (RaNode.slot / 4) are the pool's registers */
	return 1;
}
