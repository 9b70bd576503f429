/* fread.c: the FIBER SM's operand path (docs/fiber-sm.md, "Reads"). Every register read goes
 * through a bank of the slice that holds it: the weft's own R sources after the SIMT reuse cache,
 * and every V source, of its own window or not. Each bank serves fiber_read_ports reads per cycle
 * to the four sub-partitions together (the read-port arbiter: a read it cannot serve waits for
 * the next free cycle, sub-partitions in index order within a cycle); a register of another
 * sub-partition's slice then goes through that slice's crossbar port, fiber_xbar_width registers
 * per cycle shared by every reader, and arrives fiber_xbar_latency cycles later. The reservations
 * are a ring of the next FRing cycles per SM (FSm.ring).
 */
#include "fsm.h"

#include <string.h>

static unsigned
max1(unsigned v)
{
	return v ? v : 1;
}

/* the ring entry of cycle c, emptied if it held another cycle */
static FPortCycle *
at(FSm *f, uint64_t c)
{
	FPortCycle *p = &f->ring[c % FRing];

	if (p->cycle != c) {
		memset(p, 0, sizeof *p);
		p->cycle = c;
	}
	return p;
}

/* the first cycle from c on at which bank b of slice sl has a free read port, taken; past the
 * ring (now + FRing) the read is not reserved */
static uint64_t
take_port(FSm *f, uint64_t now, uint64_t c, unsigned sl, unsigned b, unsigned ports)
{
	for (; c < now + FRing; c++) {
		FPortCycle *p = at(f, c);
		if (p->bank[sl][b] < ports) {
			p->bank[sl][b]++;
			return c;
		}
	}
	return c;
}

/* the first cycle from c on at which slice sl's crossbar port has room, taken */
static uint64_t
take_xbar(FSm *f, uint64_t now, uint64_t c, unsigned sl, unsigned width)
{
	for (; c < now + FRing; c++) {
		FPortCycle *p = at(f, c);
		if (p->xbar[sl] < width) {
			p->xbar[sl]++;
			return c;
		}
	}
	return c;
}

unsigned
fread_vregs(const DOp *o, uint32_t *first)
{
	unsigned n;

	if (o->kind == DV) {
		n = o->n ? o->n : 1;
		if ((o->flags & DFWide) && n < 2)
			n = 2;
	} else if ((o->kind == DMem || o->kind == DCBank) && (o->flags & DFVreg)) {
		n = o->kind == DMem && (o->flags & DFWide) ? 2 : 1;   /* a V address base */
	} else {
		return 0;
	}
	*first = o->reg;
	if (o->reg >= SmVRegs)
		return 0;
	return o->reg + n > SmVRegs ? (unsigned)(SmVRegs - o->reg) : n;
}

unsigned
fread_misses(const TSub *u, const TWarp *tw, const TIns *ti, const SimTiming *t)
{
	unsigned banks = t->rf_banks ? t->rf_banks : 1, miss = 0;

	if (banks > BankMax)
		banks = BankMax;
	for (unsigned k = 0; k < ti->bank.n; k++) {
		unsigned reg = ti->bank.reg[k], slot = ti->bank.slot[k], b = bank_simt_of(reg, 0, banks);
		if (!(t->rf_reuse && u->reuse.reg[slot][b] == reg && u->reuse.owner[slot][b] == tw->slot))
			miss |= 1u << k;
	}
	return miss;
}

void
fread_operands(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t now, unsigned miss,
               unsigned simt_bubble, FRead *r)
{
	const TLaunch *L = s->L;
	const SimTiming *t = L->t;
	const TIns *ti = &L->ti[pc];
	const DIns *d = &L->prog->ins[pc];
	BankFiber m = {t->fiber_slice_regs, t->fiber_banks, t->fiber_read_ports, t->fiber_xbar_width};
	unsigned ports = max1(t->fiber_read_ports), width = max1(t->fiber_xbar_width);
	unsigned rank[BankFiberMax] = {0};
	uint32_t lo = tw->rbase, hi = tw->rbase + (tw->w ? tw->w->nreg : L->lc.nreg_alloc);
	uint64_t last = now, arrive = now;

	memset(r, 0, sizeof *r);
	for (unsigned k = 0; k < ti->bank.n; k++) {   /* own R sources */
		uint32_t reg = tw->rbase + ti->bank.reg[k];
		unsigned b = bank_fiber_bank(&m, reg);
		uint64_t c;
		if (!(miss >> k & 1) || reg >= SmVRegs)
			continue;
		c = take_port(f, now, now, bank_fiber_slice(&m, reg), b, ports);
		if (c > now + rank[b]++)     /* later than the SIMT banks serialise it */
			r->rpa++;
		last = c > last ? c : last;
	}
	arrive = last;
	for (unsigned k = 0; ti->vsrc == 1 && k < d->nsrc; k++) {   /* V sources */
		uint32_t first;
		unsigned n = fread_vregs(&d->src[k], &first);
		for (unsigned j = 0; j < n; j++) {
			uint32_t reg = first + j;
			unsigned sl = bank_fiber_slice(&m, reg), b = bank_fiber_bank(&m, reg);
			int remote = reg < lo || reg >= hi;
			uint64_t c, x;
			r->remote += remote;
			if (remote && !t->fiber_rs)    /* through shared memory instead: fnors.c */
				continue;
			c = take_port(f, now, now, sl, b, ports);
			r->rpa += c > now;
			if (sl == tw->sub) {
				last = c > last ? c : last;
				arrive = c > arrive ? c : arrive;
				continue;
			}
			x = take_xbar(f, now, c, sl, width);
			r->xbar++;
			r->xwait += (unsigned)(x - c);
			last = x > last ? x : last;
			if (x + t->fiber_xbar_latency > arrive)
				arrive = x + t->fiber_xbar_latency;
		}
	}
	/* the conflict cycles (ports, crossbar slots) hold the weft as the SIMT bank bubble does;
	 * only the crossbar's latency beyond the last read delays the operand, and so the results */
	r->hold = last - now > simt_bubble ? (unsigned)(last - now) - simt_bubble : 0;
	r->delay = arrive > last ? (unsigned)(arrive - last) : 0;
}
