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
	p->nsm = arch_code(f->mod->sm)->device->nsm;
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

/* the phase table (fiberc --print-after=PASS once the phases pass ran), one // line a phase */
void
fplan_print(FILE *out, const Fn *f)
{
	static const char *const kind[NPhaseKind] = {"tensor", "memory", "vector", "control"};
	const FPlan *p = f->plan;

	if (!p || !p->nphase)
		return;
	fprintf(out, "// phases of %s: %u (contexts %d per sub-partition, %d registers per slice, "
	        "window %d, maxfibers %d, SETFIBERNUM %d)\n", mstr(f->mod, f->name), p->nphase,
	        p->contexts, p->slice_regs, p->window, p->maxfibers, p->setfibernum);
	fprintf(out, "//   #  range         kind     loop  maxlive  fibers  nreg  decision\n");
	for (uint32_t k = 0; k < p->nphase; k++) {
		const FPhase *h = &p->phase[k];
		char rng[32], fib[16];
		snprintf(rng, sizeof rng, "[%u,%u)", h->first, h->last);
		if (h->fibers)
			snprintf(fib, sizeof fib, "%d", h->fibers);
		else
			snprintf(fib, sizeof fib, "launch");
		fprintf(out, "//  %2u  %-12s  %-7s  %-4s  %7d  %6s  %4d  %s%s%s\n", k, rng,
		        h->kind < NPhaseKind ? kind[h->kind] : "?", h->in_loop ? "yes" : "no", h->maxlive,
		        fib, h->nreg, h->fibers ? "split: SETFIBERNUM at entry" : "left alone: ",
		        h->fibers && h->why ? ", " : "", h->why ? mstr(f->mod, h->why) : "");
	}
}
