/* fwphase.c: which code a weft made by each SETFIBERNUM may run (docs/pass-regalloc.md "A window
 * per phase"): its phase (from the SETFIBERNUM to the next ones) and, where it may survive the
 * next SETFIBERNUM, the phases after it. The registers that code names must lie in the window
 * the SETFIBERNUM gives its new wefts: the window allocator caps them, fw_fix_setfibernum
 * writes the window from them.
 */
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

/* wefts of a count: ceil(c / 32) */
static long
wefts_of(long c)
{
	return (c + 31) / 32;
}

/* the fewest wefts a phase can start with: SETFIBERNUM p's immediate count, the required block
 * size at the entry (p < 0); 1 where only a bound is known (a launch may be smaller than its
 * bound, a uniform register any count) */
static long
least_wefts(const Fn *f, const Ins *p)
{
	long t = 1;

	if (p)
		return p->nopnd && p->opnd[0].kind == OImm && p->opnd[0].imm > 0 ?
		       wefts_of((long)p->opnd[0].imm) : 1;
	for (int k = 0; k < 3; k++) {
		if (f->info.reqntid[k] <= 0)
			return 1;
		t *= f->info.reqntid[k];
	}
	return wefts_of(t);
}

/* the most wefts SETFIBERNUM i leaves (its immediate count, else every weft) */
static long
most_wefts(const Ins *i)
{
	return i->nopnd && i->opnd[0].kind == OImm && i->opnd[0].imm > 0 ?
	       wefts_of((long)i->opnd[0].imm) : FiberMaxFibers / 32;
}

/* from instruction `from` of block b on, mark in row[] (global indices) what a weft runs until
 * a SETFIBERNUM it does not survive: one it survives is crossed where the weft w survives it
 * (w < its most wefts; w < 0: never crossed). reach[k] is set for each SETFIBERNUM k met */
static void
walk(const Fn *f, const FwPhases *ph, Blk *b, uint32_t from, long w, uint8_t *row, uint8_t *reach)
{
	uint8_t *seen = xmalloc(f->nblk + 1);
	uint32_t *stk = xmalloc((f->nblk + 2) * sizeof *stk), sp = 0;

	memset(seen, 0, f->nblk + 1);
	for (;;) {
		uint32_t k = from, stop = 0;
		for (; k < b->nins && !stop; k++) {
			const Ins *i = &b->ins[k];
			row[ph->g0[b->id] + k] = 1;
			if (i->op != OSETFIBERNUM)
				continue;
			for (uint32_t s = 0; s < ph->n; s++)
				if (ph->at[s] == ph->g0[b->id] + k)
					reach[s] = 1;
			stop = w < 0 || w >= most_wefts(i);
		}
		Blk *c = stop ? NULL : cfg_callee(f, b);
		if (c && !seen[c->id]) {
			seen[c->id] = 1;
			stk[sp++] = c->id;
		}
		for (uint32_t q = 0; !stop && q < b->nsucc; q++)
			if (!seen[b->succ[q]->id]) {
				seen[b->succ[q]->id] = 1;
				stk[sp++] = b->succ[q]->id;
			}
		if (!sp)
			break;
		b = f->blk[stk[--sp]];
		from = 0;
	}
	free(seen);
	free(stk);
}

int
fw_phases(Fn *f, FwPhases *ph)
{
	uint8_t *row, *reach;
	long *least;

	memset(ph, 0, sizeof *ph);
	ph->g0 = xmalloc((f->nblk + 1) * sizeof *ph->g0);
	for (uint32_t b = 0; b < f->nblk; b++) {
		ph->g0[b] = ph->nins;
		ph->nins += f->blk[b]->nins;
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++)
			ph->n += f->blk[b]->ins[k].op == OSETFIBERNUM;
	ph->at = xmalloc((ph->n + 1) * sizeof *ph->at);
	ph->ins = xmalloc((ph->n + 1) * sizeof *ph->ins);
	ph->in = xmalloc(((size_t)ph->n * ph->nins + 1) * sizeof *ph->in);
	memset(ph->in, 0, (size_t)ph->n * ph->nins + 1);
	for (uint32_t b = 0, s = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++)
			if (f->blk[b]->ins[k].op == OSETFIBERNUM) {
				ph->at[s] = ph->g0[b] + k;
				ph->ins[s++] = &f->blk[b]->ins[k];
			}
	if (!ph->n || !f->nrpo)
		return 0;
	/* the fewest wefts before each SETFIBERNUM: over the phases that reach it (the entry's,
	 * each SETFIBERNUM's), the fewest they start with; its lowest new weft is that many */
	least = xmalloc((ph->n + 1) * sizeof *least);
	row = xmalloc(ph->nins + 1);
	reach = xmalloc(ph->n + 1);
	for (uint32_t s = 0; s < ph->n; s++)
		least[s] = FiberMaxFibers / 32;
	for (long p = -1; p < (long)ph->n; p++) {
		const Ins *pi = p < 0 ? NULL : ph->ins[p];
		Blk *b = f->rpo[0];
		uint32_t from = 0;
		memset(reach, 0, ph->n + 1);
		if (pi) {
			uint32_t g = ph->at[p];
			for (b = f->blk[0]; ph->g0[b->id] + b->nins <= g; b = f->blk[b->id + 1])
				;
			from = g - ph->g0[b->id] + 1;
		}
		walk(f, ph, b, from, -1, row, reach);
		for (uint32_t s = 0; s < ph->n; s++)
			if (reach[s] && least_wefts(f, pi) < least[s])
				least[s] = least_wefts(f, pi);
	}
	for (uint32_t s = 0; s < ph->n; s++) {
		uint32_t g = ph->at[s];
		Blk *b = f->blk[0];
		while (ph->g0[b->id] + b->nins <= g)
			b = f->blk[b->id + 1];
		walk(f, ph, b, g - ph->g0[b->id] + 1, least[s], ph->in + (size_t)s * ph->nins, reach);
	}
	free(least);
	free(row);
	free(reach);
	return 0;
}

void
fw_phases_free(FwPhases *ph)
{
	free(ph->g0);
	free(ph->at);
	free(ph->ins);
	free(ph->in);
	memset(ph, 0, sizeof *ph);
}
