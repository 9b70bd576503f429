/* banks.c: the register-file conflict model (banks.h), shared by the timing layer's SIMT and
 * FIBER SMs and the pass mma-banks. SIMT: the sources in operand slots A, B, C are counted per
 * bank (window-relative register mod rf_banks) after the reuse cache; k reads of one bank are
 * k - 1 conflicts. FIBER: a read outside the weft's window goes to its slice's bank (register mod
 * fiber_slice_regs mod fiber_banks); reads of one bank beyond its read ports are read-port
 * conflicts, reads of other slices beyond the crossbar's width crossbar conflicts.
 */
#include "banks.h"

#include <string.h>

void
bank_collect(const uint8_t *kind, const uint16_t *reg, unsigned nsrc, BankReads *out)
{
	out->n = 0;
	for (unsigned k = 0, slot = 0; k < nsrc && slot < BankSlots; k++) {
		if (kind[k] == BankSrcOther)
			continue;
		if (kind[k] == BankSrcR && reg[k] != BankRZ && out->n < BankSlots &&
		    !(out->n > 0 && out->reg[0] == reg[k]) && !(out->n > 1 && out->reg[1] == reg[k])) {
			out->reg[out->n] = (uint8_t)reg[k];
			out->slot[out->n] = (uint8_t)slot;
			out->n++;
		}
		slot++;
	}
}

void
bank_reuse_clear(BankReuse *c)
{
	memset(c->reg, 0xff, sizeof c->reg);
	memset(c->owner, 0, sizeof c->owner);
}

unsigned
bank_simt_conflicts(const BankReads *r, unsigned banks, int reuse, BankReuse *c,
                    unsigned owner, unsigned flags, unsigned *hits)
{
	unsigned count[BankMax] = {0}, worst = 0;

	if (!banks)
		banks = 1;
	if (banks > BankMax)
		banks = BankMax;
	for (unsigned k = 0; k < r->n; k++) {
		/* bank_simt_of, without a division for a power of two (the timing layer's hot path) */
		unsigned reg = r->reg[k], slot = r->slot[k];
		unsigned b = banks & (banks - 1) ? reg % banks : reg & (banks - 1);
		int hit = reuse && c->reg[slot][b] == reg && c->owner[slot][b] == owner;
		if (hit) {
			if (hits)
				++*hits;
		} else if (++count[b] > worst) {
			worst = count[b];
		}
		if (!c)
			continue;
		if (reuse && (flags >> slot & 1)) {
			c->reg[slot][b] = (uint16_t)reg;
			c->owner[slot][b] = (uint16_t)owner;
		} else {
			c->reg[slot][b] = BankNoReg;
		}
	}
	return worst <= 1 ? 0 : worst - 1;
}

unsigned
bank_fiber_slice(const BankFiber *m, uint32_t reg)
{
	unsigned sr = m->slice_regs ? m->slice_regs : 512;

	return reg / sr % BankSlices;
}

unsigned
bank_fiber_bank(const BankFiber *m, uint32_t reg)
{
	unsigned sr = m->slice_regs ? m->slice_regs : 512, nb = m->banks ? m->banks : 1;

	return reg % sr % nb % BankFiberMax;
}

uint32_t
bank_fiber_window(const BankFiber *m, unsigned w, unsigned nsub, unsigned nreg)
{
	unsigned sr = m->slice_regs ? m->slice_regs : 512;

	if (!nsub)
		nsub = BankSlices;
	return sr * (w % nsub) + (w / nsub) * nreg;
}

void
bank_remote_start(BankRemote *r)
{
	memset(r, 0, sizeof *r);
}

void
bank_remote_read(const BankFiber *m, BankRemote *r, uint32_t reg, unsigned sub, uint32_t base,
                 uint32_t nreg)
{
	unsigned sl = bank_fiber_slice(m, reg), b = bank_fiber_bank(m, reg);

	if (reg >= base && reg < base + nreg)
		return;
	r->remote++;
	if (sl != sub)
		r->xbar++;
	if (++r->cnt[sl][b] > r->worst)
		r->worst = r->cnt[sl][b];
}

unsigned
bank_remote_end(const BankFiber *m, BankRemote *r)
{
	unsigned ports = m->ports ? m->ports : 1, width = m->xbar_width ? m->xbar_width : 1;

	r->rpa_conflicts = r->rpa_cycles = r->xbar_conflicts = 0;
	if (r->worst > ports) {
		r->rpa_conflicts = r->worst - ports;
		r->rpa_cycles = (r->worst + ports - 1) / ports - 1;
	}
	if (r->xbar > width)
		r->xbar_conflicts = (r->xbar - 1) / width;
	return r->rpa_conflicts + r->xbar_conflicts;
}
