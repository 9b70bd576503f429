/* weft.c: FIBER window placement in the slices of an SM's register file, pools, and the
 * empty/full bitmaps' bulk updates (weft.h).
 */
#include "weft.h"

#include <stdio.h>
#include <string.h>

enum { OwnFree, OwnWindow, OwnPool };

static void
set_empty(Sm *sm, uint32_t base, uint32_t n)
{
	for (uint32_t r = base; r < base + n && r < SmVRegs; r++)
		sm_busy_set(sm, r, BusyEmpty);
}

void
weft_reset(Sm *sm)
{
	memset(sm->rf_owner, OwnFree, sizeof sm->rf_owner);
	memset(sm->nwin, 0, sizeof sm->nwin);
	memset(sm->busy_e, 0xff, sizeof sm->busy_e);
	memset(sm->busy_f, 0, sizeof sm->busy_f);
	sm->busy_waiters = 0;
}

int
weft_pools(Sm *sm, const Fn *fn, char *why, size_t n)
{
	for (uint32_t k = 0; k < fn->npool; k++) {
		const FPool *p = &fn->pool[k];
		if (p->base + p->size > SmVRegs) {
			snprintf(why, n, "pool %s (V%u, %u registers) lies past V2047",
			         mstr(fn->mod, p->name), p->base, p->size);
			return -1;
		}
		for (uint32_t r = p->base; r < p->base + p->size; r++)
			if (sm->rf_owner[r] != OwnFree) {
				snprintf(why, n, "pool %s (V%u..V%u) overlaps V%u, already held",
				         mstr(fn->mod, p->name), p->base, p->base + p->size - 1, r);
				return -1;
			}
		memset(sm->rf_owner + p->base, OwnPool, p->size);
		memset(sm->rf + p->base, 0, (size_t)p->size * sizeof *sm->rf);
		set_empty(sm, p->base, p->size);
	}
	return 0;
}

int
weft_place(Sm *sm, uint32_t nsub, uint32_t slice_regs, uint32_t nreg, uint32_t weft,
           uint32_t *base, char *why, size_t n)
{
	uint32_t s, lo, hi, run = 0, best = 0, nfree = 0;

	if (!nsub)
		nsub = 4;
	if (!slice_regs)
		slice_regs = 512;
	s = weft % nsub;
	lo = s * slice_regs;
	hi = lo + slice_regs > SmVRegs ? SmVRegs : lo + slice_regs;
	if (!nreg) {
		*base = lo;
		return 0;
	}
	for (uint32_t r = lo; r < hi; r++) {
		if (sm->rf_owner[r] != OwnFree) {
			run = 0;
			continue;
		}
		nfree++;
		if (++run > best)
			best = run;
		if (run == nreg) {
			uint32_t b = r + 1 - nreg;
			memset(sm->rf_owner + b, OwnWindow, nreg);
			memset(sm->rf + b, 0, (size_t)nreg * sizeof *sm->rf);
			set_empty(sm, b, nreg);
			*base = b;
			sm->slice_regs = slice_regs;
			if (s < sizeof sm->nwin / sizeof *sm->nwin)
				sm->nwin[s]++;
			return 0;
		}
	}
	snprintf(why, n, "slice %u (V%u..V%u) has no %u free registers (%u free, largest run %u)",
	         s, lo, hi - 1, nreg, nfree, best);
	return -1;
}

void
weft_free(Sm *sm, uint32_t base, uint32_t nreg)
{
	uint32_t s = base / (sm->slice_regs ? sm->slice_regs : 512);

	if (base >= SmVRegs || !nreg)
		return;
	if (s < sizeof sm->nwin / sizeof *sm->nwin && sm->nwin[s])
		sm->nwin[s]--;
	if (base + nreg > SmVRegs)
		nreg = SmVRegs - base;
	memset(sm->rf_owner + base, OwnFree, nreg);
	set_empty(sm, base, nreg);
}

uint32_t
weft_used(const Sm *sm)
{
	uint32_t n = 0;

	for (uint32_t r = 0; r < SmVRegs; r++)
		n += sm->rf_owner[r] != OwnFree;
	return n;
}
