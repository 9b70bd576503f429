/* rapin.c: the window target's registers that another weft reads (docs/pass-regalloc.md "The
 * window target"): a declaration read remotely (%x@W) or named by a busy-bit instruction
 * (DEPBAR.FULL/.EMPTY, SETBUSYBIT) keeps one register for the whole kernel, chosen before the
 * allocation and reserved from it (the reader is another weft: the local liveness cannot see
 * when it reads); after the allocation each remote read %x@W becomes V(base(W) + register).
 */
#include "regalloc.h"
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

static int
is_busy(const Fn *f, const Ins *i)
{
	return i->op == OSETBUSYBIT ||
	       (i->op == ODEPBAR && (ins_hasmod(i, f->mod, "FULL") || ins_hasmod(i, f->mod, "EMPTY")));
}

/* which declarations are pinned (pin[k] = 1), and the R registers the text names itself; -1
 * after an error: a remote read of a weft whose window is not at a known place */
static int
scan(Fn *f, Diag *d, uint8_t *pin, uint64_t phys[4])
{
	int sfn = fw_has_setfibernum(f), rc = 0;
	char s[64];

	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		if (!i->slot && op_slots(f, i) < 0)
			continue;
		for (unsigned j = 0; j < i->nslot; j++) {
			Reg r = i->slot[j].reg;
			if (RCLS(r) == RR && !reg_isconst(r) && !reg_isvirt(r))
				for (unsigned e = 0; e < i->slot[j].n && RNUM(r) + e < 255; e++)
					phys[(RNUM(r) + e) >> 6] |= (uint64_t)1 << ((RNUM(r) + e) & 63);
		}
		for (unsigned j = 0; j < i->nopnd; j++) {
			const FVReg *v;
			if (i->opnd[j].kind == ONone || !(v = vreg_of(f, i->opnd[j].r[0], NULL)) ||
			    v->cls == RP)
				continue;
			if ((i->opnd[j].flags & FVRemote) || is_busy(f, i))
				pin[v - f->vreg] = 1;
			if ((i->opnd[j].flags & FVRemote) && fw_weft_base(f, (int)i->opnd[j].imm, 1, 1,
			                                                  sfn) < 0) {
				vreg_spell(f, i->opnd[j].r[0], s, sizeof s);
				error_at(d, i->loc, "remote read '%s@%lld': weft %lld's window is not at a "
				         "known place (%s)", s, (long long)i->opnd[j].imm,
				         (long long)i->opnd[j].imm, f->npool || sfn ? "wefts past 3 move "
				         "with SETFIBERNUM" : "the kernel may share its SM with other CTAs; "
				         "a pool or SETFIBERNUM makes it own it");
				rc = -1;
			}
		}
	}
	return rc;
}

/* the lowest register r, aligned to the declaration, with r..r+size-1 in R0..R(limit-1) and
 * free in taken (R1 too where the text names it); -1 none */
static int
place(const FVReg *v, const uint64_t taken[4], int limit)
{
	unsigned al = v->size >= 4 ? 4 : v->size == 2 ? 2 : 1;

	for (unsigned r = 0; r + v->size <= (unsigned)limit; r += al) {
		unsigned e = 0;
		while (e < v->size && !((taken[(r + e) >> 6] >> ((r + e) & 63)) & 1))
			e++;
		if (e == v->size)
			return (int)r;
	}
	return -1;
}

int
ra_pin(Fn *f, Diag *d, RaWin *w, int limit)
{
	uint8_t *pin = xmalloc(f->nvreg + 1);
	int *col = xmalloc((f->nvreg + 1) * sizeof *col), rc;
	uint64_t taken[4] = {0};

	memset(pin, 0, f->nvreg + 1);
	rc = scan(f, d, pin, taken);
	for (uint32_t k = 0; k < f->nvreg; k++) {     /* in declaration order, as fiber-ra */
		const FVReg *v = &f->vreg[k];
		col[k] = -1;
		if (!pin[k])
			continue;
		if (rc < 0)
			break;
		if ((col[k] = place(v, taken, limit)) < 0) {
			error_at(d, v->loc, "no room for '%%%s' (%u register%s), which another weft reads "
			         "or whose busy bits carry a protocol: it keeps one register for the whole "
			         "kernel, and a window of %d has none left", mstr(f->mod, v->name), v->size,
			         v->size == 1 ? "" : "s", limit);
			rc = -1;
			break;
		}
		for (unsigned e = 0; e < v->size; e++) {
			unsigned r = (unsigned)col[k] + e;
			taken[r >> 6] |= (uint64_t)1 << (r & 63);
			w->pin[r >> 6] |= (uint64_t)1 << (r & 63);
			w->npin++;
		}
	}
	for (uint32_t k = 0; rc == 0 && w->npin && k < f->nins; k++) {   /* %x -> R(col) */
		Ins *i = &f->ins[k];
		int any = 0;
		for (unsigned j = 0; j < i->nopnd; j++)
			for (int fl = 0; fl < 3; fl++) {
				unsigned e = 0;
				const FVReg *v;
				if (i->opnd[j].kind == ONone || !(v = vreg_of(f, i->opnd[j].r[fl], &e)) ||
				    col[v - f->vreg] < 0)
					continue;
				i->opnd[j].r[fl] = REG(RR, (unsigned)col[v - f->vreg] + e);
				any = 1;
			}
		if (any) {
			i->slot = NULL;
			i->nslot = 0;
			op_slots(f, i);
		}
	}
	free(pin);
	free(col);
	return rc;
}

void
ra_remote(Fn *f, int n)
{
	int slice = f->plan && f->plan->slice_regs > 0 ? f->plan->slice_regs : FiberSliceRegs;
	int sfn = fw_has_setfibernum(f);

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			int any = 0;
			for (unsigned j = 0; j < i->nopnd; j++) {
				Opnd *o = &i->opnd[j];
				int base;
				if (o->kind != OReg || !(o->flags & FVRemote) || RCLS(o->r[0]) != RR ||
				    (base = fw_weft_base(f, (int)o->imm, n, slice, sfn)) < 0)
					continue;   /* ra_pin checked the place */
				o->r[0] = REG(RV, (unsigned)base + RNUM(o->r[0]));
				o->flags &= (uint16_t)~FVRemote;
				o->imm = 0;
				any = 1;
			}
			if (any) {
				i->slot = NULL;
				i->nslot = 0;
				op_slots(f, i);
			}
		}
}
