/* fplan.c: the FIBER compilation state of a function (FPlan, ir.h): made by the driver before
 * the FIBER passes run, filled by them, printed by `fiberc --stats`.
 */
#include "ir.h"

#include <string.h>

FPlan *
fplan_new(Fn *f, int mode)
{
	FPlan *p = arena_alloc(f->mod->arena, sizeof *p);

	p->mode = mode;
	p->contexts = 64;
	p->slice_regs = FiberSliceRegs;
	p->nsub = 4;
	p->banks = 2;
	p->fiber_banks = 2;
	p->read_ports = 1;
	p->maxlive = -1;
	p->window = f->info.regcount;
	f->plan = p;
	return p;
}

void
fplan_phase_add(Fn *f, const FPhase *ph)
{
	FPlan *p = f->plan;
	FPhase *n;

	if (!p)
		return;
	n = arena_alloc(f->mod->arena, (p->nphase + 1) * sizeof *n);
	if (p->nphase)
		memcpy(n, p->phase, p->nphase * sizeof *n);
	n[p->nphase++] = *ph;
	p->phase = n;
}
