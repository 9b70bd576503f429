/* fiberregs.c: the `fiber-regs` pass of fiberc --mode=cuda-native: register windows in the
 * 2048-entry file. In CUDA-native mode every weft runs the same code, so a weft's window is the
 * kernel's register count (highest R register used + 1), the same for the launch's wefts and
 * for the wefts a SETFIBERNUM creates; the pass
 *   - grows KInfo.regcount to cover the registers the phases pass added (above the input's
 *     count) and writes it back where the listing keeps it (`.sectioninfo @"SHI_REGISTERS=N"`,
 *     EIATTR_REGCOUNT in .nv.info), so the output's window is what it uses;
 *   - sets the nreg operand of every SETFIBERNUM to that window (registers the new wefts need);
 *   - writes KInfo.maxfibers and a `.maxfibers N` directive in the .text header when fibers were
 *     added (reserving the weft contexts SETFIBERNUM will fill);
 *   - fills FPlan.window, FPlan.maxfibers and each phase's nreg.
 * Values leave SSA later through the out-of-ssa pass (passes/outssa.c) in the registers chosen
 * here: nothing is renamed.
 *
 * Preconditions: blocks (PNeedCfg); f->plan (does nothing without it); after `phases`.
 */
#include "phases.h"

#include <stdlib.h>
#include <string.h>

/* highest R register number used + 1, over the function's blocks */
static int
regs_used(const Fn *f)
{
	int hi = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned s = 0; s < i->nslot; s++) {
				const Slot *sl = &i->slot[s];
				if (RCLS(sl->reg) == RR && RNUM(sl->reg) != RegRZ &&
				    (int)(RNUM(sl->reg) + sl->n) > hi)
					hi = (int)(RNUM(sl->reg) + sl->n);
			}
		}
	return hi;
}

/* `.sectioninfo @"SHI_REGISTERS=N"` and EIATTR_REGCOUNT follow KInfo.regcount */
static void
write_regcount(Fn *f, int n)
{
	Module *m = f->mod;
	char buf[64];

	for (uint32_t k = 0; f->text && k < f->text->nitem; k++) {
		Item *it = &f->text->item[k];
		if (it->kind == IDir && !strcmp(mstr(m, it->name), ".sectioninfo") && it->narg == 1 &&
		    it->arg[0]->kind == EAttr &&
		    !strncmp(mstr(m, it->arg[0]->atom), "SHI_REGISTERS=", 14)) {
			Expr *e = arena_alloc(m->arena, sizeof *e);
			*e = *it->arg[0];
			snprintf(buf, sizeof buf, "SHI_REGISTERS=%d", n);
			e->atom = mintern(m, buf);
			it->arg = arena_alloc(m->arena, sizeof *it->arg);
			it->arg[0] = e;
		}
	}
	for (uint32_t s = 0; s < m->nsec; s++) {
		Section *sc = m->sec[s];
		if (sc->kind != SecInfo)
			continue;
		for (uint32_t k = 0; k < sc->nitem; k++) {
			Item *it = &sc->item[k];
			if (it->kind != INvinfo || strcmp(mstr(m, it->name), "EIATTR_REGCOUNT"))
				continue;
			for (uint32_t j = k + 1; j + 1 < sc->nitem && j < k + 12; j++) {
				Item *w = &sc->item[j], *v = &sc->item[j + 1];
				if (w->kind == INvinfo)
					break;
				if (w->kind == IDir && w->narg == 1 && w->arg[0]->kind == EFunc &&
				    w->arg[0]->a && w->arg[0]->a->kind == ESym && w->arg[0]->a->atom == f->name &&
				    v->kind == IDir && v->narg == 1 && v->arg[0]->kind == ENum) {
					Expr *e = arena_alloc(m->arena, sizeof *e);
					*e = *v->arg[0];
					e->num = n;
					v->arg = arena_alloc(m->arena, sizeof *v->arg);
					v->arg[0] = e;
					break;
				}
			}
		}
	}
}

/* `.maxfibers N` after the header's .sectioninfo (or first, after .section) */
static void
write_maxfibers(Fn *f, int n)
{
	Module *m = f->mod;
	Section *s = f->text;
	uint32_t at = 0;
	Item *it;
	Expr *e;

	if (!s)
		return;
	for (uint32_t k = 0; k < s->nitem; k++) {
		Item *x = &s->item[k];
		if (x->kind == IDir && x->off < 0 && !strcmp(mstr(m, x->name), ".maxfibers")) {
			x->arg[0]->num = n;
			return;
		}
		if (x->kind == IDir && x->off < 0 && (!strcmp(mstr(m, x->name), ".section") ||
		    !strcmp(mstr(m, x->name), ".sectioninfo")))
			at = k + 1;
	}
	section_item(m, s);              /* room for one more */
	memmove(&s->item[at + 1], &s->item[at], (s->nitem - 1 - at) * sizeof *s->item);
	it = &s->item[at];
	memset(it, 0, sizeof *it);
	it->kind = IDir;
	it->name = mintern(m, ".maxfibers");
	it->off = -1;
	e = arena_alloc(m->arena, sizeof *e);
	e->kind = ENum;
	e->num = n;
	it->arg = arena_alloc(m->arena, sizeof *it->arg);
	it->arg[0] = e;
	it->narg = 1;
}

int
pass_fiber_regs(Fn *f, Diag *d)
{
	FPlan *p = f->plan;
	int n, used;

	(void)d;
	if (!p || !f->blk)
		return 0;
	used = regs_used(f);
	n = f->info.regcount > used ? f->info.regcount : used;
	if (p->setfibernum) {
		if (n != f->info.regcount) {
			f->info.regcount = n;
			write_regcount(f, n);
		}
		for (uint32_t b = 0; b < f->nblk; b++)
			for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
				Ins *i = &f->blk[b]->ins[k];
				if (i->op == OSETFIBERNUM && i->nopnd == 2 && i->opnd[1].kind == OImm)
					i->opnd[1].imm = n;
			}
		if (p->maxfibers > 0 && p->maxfibers > f->info.maxfibers) {
			f->info.maxfibers = p->maxfibers;
			write_maxfibers(f, p->maxfibers);
		}
	}
	p->window = n;
	if (f->info.maxfibers > 0)
		p->maxfibers = f->info.maxfibers;
	for (uint32_t k = 0; k < p->nphase; k++)
		p->phase[k].nreg = n;
	return 0;
}
