/* fnors.c: the FIBER SM's register-sharing ablation, fiber_rs = 0 (docs/fiber-sm.md, "RS
 * ablation"): the code a compiler would emit without register sharing, timed on the same SM.
 * A value another weft reads is stored to shared memory by its producer after the write (an STS
 * of the operand's registers: an issue slot and an MIO slot; visible lat_lds after the value is
 * ready) and loaded by each consumer (an LDS of at most four consecutive registers per operand:
 * an issue slot, an MIO slot, lat_lds plus the bytes at smem_banks x smem_bank_bytes per cycle),
 * the load hoisted as a compiler pipelines it: no earlier than the value is in shared memory and
 * the consumer's last synchronisation (a busy-bit wait, a barrier, SETFIBERNUM), and loaded once
 * per value (a weft keeps FCopies loaded registers; a register rewritten since is loaded again).
 * Synchronisation stays what the kernel has (busy bits or barriers): it is fiber_fs's, not
 * register sharing's. Which registers are shared is known from the program: those a V or pool
 * source names.
 */
#include "fsm.h"

#include <stdlib.h>
#include <string.h>

static unsigned
max1(unsigned v)
{
	return v ? v : 1;
}

void
fnors_new(TSm *s, FSm *f)
{
	const TLaunch *L = s->L;

	f->shared = xmalloc(SmVRegs);
	f->gen = xmalloc(SmVRegs * sizeof *f->gen);
	f->stored = xmalloc(SmVRegs * sizeof *f->stored);
	f->copy = xmalloc((size_t)f->nslot * FCopies * sizeof *f->copy);
	f->sync = xmalloc(f->nslot * sizeof *f->sync);
	for (size_t k = 0; k < (size_t)f->nslot * FCopies; k++)
		f->copy[k].reg = UINT32_MAX;
	for (uint32_t pc = 0; pc < L->prog->nins; pc++) {
		const DIns *d = &L->prog->ins[pc];
		if (L->ti[pc].vsrc != 1)
			continue;
		for (unsigned k = 0; k < d->nsrc; k++) {
			uint32_t first;
			unsigned n = fread_vregs(&d->src[k], &first);
			for (unsigned j = 0; j < n; j++)
				f->shared[first + j] = 1;
		}
	}
}

void
fnors_free(FSm *f)
{
	free(f->shared);
	free(f->gen);
	free(f->stored);
	free(f->copy);
	free(f->sync);
}

void
fnors_sync(FSm *f, const TWarp *tw, uint64_t t)
{
	if (t > f->sync[tw->slot])
		f->sync[tw->slot] = t;
}

/* the registers of destination o in the SM's file: a window register or a pool's */
static unsigned
dst_regs(const TWarp *tw, const DOp *o, uint32_t *first)
{
	unsigned n = o->n ? o->n : 1;

	if ((o->flags & DFWide) && n < 2)
		n = 2;
	if (o->kind == DV)
		*first = o->reg;
	else if (o->kind == DR && o->reg != RegRZ)
		*first = tw->rbase + o->reg;
	else
		return 0;
	return *first + n > SmVRegs ? (*first < SmVRegs ? SmVRegs - *first : 0) : n;
}

/* a load or store instruction of n registers: an MIO slot, and its cycles of shared-memory
 * bandwidth beyond the first */
static unsigned
smem_op(TSm *s, const TWarp *tw, unsigned n, uint64_t now)
{
	const SimTiming *t = s->L->t;
	unsigned bw = max1(t->smem_banks * t->smem_bank_bytes);

	smmem_mio_take(s->mem, tw->sub, now);
	return (n * WarpSize * 4 + bw - 1) / bw - 1;
}

unsigned
fnors_operands(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t now, FRead *r)
{
	const TLaunch *L = s->L;
	const SimTiming *t = L->t;
	const DIns *d = &L->prog->ins[pc];
	FCopy *copy = &f->copy[(size_t)tw->slot * FCopies];
	uint32_t lo = tw->rbase, hi = tw->rbase + (tw->w ? tw->w->nreg : L->lc.nreg_alloc);
	unsigned slots = 0;

	for (unsigned k = 0; L->ti[pc].vsrc == 1 && k < d->nsrc; k++) {   /* the loads */
		uint32_t first, need[4];
		unsigned n = fread_vregs(&d->src[k], &first), m = 0;
		for (unsigned j = 0; j <= n; j++) {
			uint32_t reg = first + j;
			if (j < n && (reg < lo || reg >= hi)) {
				FCopy *c = &copy[reg % FCopies];
				if (c->reg != reg || c->gen != f->gen[reg])
					need[m++] = reg;
			}
			if (m && (m == 4 || j == n)) {   /* one LDS of these */
				uint64_t from = f->sync[tw->slot], arrive;
				unsigned extra = smem_op(s, tw, m, now);
				for (unsigned i = 0; i < m; i++) {
					from = f->stored[need[i]] > from ? f->stored[need[i]] : from;
					copy[need[i] % FCopies] = (FCopy){need[i], f->gen[need[i]]};
				}
				arrive = from + t->lat_lds + extra;
				if (arrive > now && arrive - now > r->delay)
					r->delay = (unsigned)(arrive - now);
				s->fx.rs_smem_reads += m;
				slots++;
				m = 0;
			}
		}
	}
	for (unsigned k = 0; k < d->ndst; k++) {   /* the stores of shared results */
		uint32_t first;
		unsigned n = dst_regs(tw, &d->dst[k], &first), sh = 0;
		for (unsigned j = 0; j < n; j++)
			sh += f->shared[first + j];
		if (!sh)
			continue;
		for (unsigned j = 0; j < n; j += 4) {
			smem_op(s, tw, n - j < 4 ? n - j : 4, now);
			slots++;
		}
	}
	return slots;
}

void
fnors_issued(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t done)
{
	const DIns *d = &s->L->prog->ins[pc];

	for (unsigned k = 0; k < d->ndst; k++) {
		uint32_t first;
		unsigned n = dst_regs(tw, &d->dst[k], &first);
		for (unsigned j = 0; j < n; j++) {
			uint32_t reg = first + j;
			if (!f->shared[reg])
				continue;
			f->gen[reg]++;
			f->stored[reg] = done + s->L->t->lat_lds;
		}
	}
}
