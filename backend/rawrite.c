/* rawrite.c: the second half of regalloc (regalloc.c chose the registers): every virtual
 * register and predicate replaced by its register, the spill code around the instructions that
 * name a spilled one, identity copies (MOV R3, R3) deleted, the frame grown for the spill area,
 * and the register count and frame written where the listing states them (kinfo.c).
 *
 * Spill code, as nvcc writes it: `LDL[.64|.128] Rt, [R1+off]` before an instruction that reads a
 * spilled R value (or writes part of it under a guard), `STL[.64|.128] [R1+off], Rt` after one
 * that writes it; a spilled predicate lives in an R register h: `ISETP.NE.AND Pt, PT, Rh, RZ,
 * PT` before a read, `SEL Rh, RZ, 0x1, !Pt` after a write (h itself may be in memory: LDL/STL
 * around those). Offsets are from R1 after the prologue: the spill area follows the frame the
 * text already has; `IADD3 R1, R1, -FRAME, RZ` goes right after the stack pointer's
 * initialisation `MOV R1, c[0x0][0x28]` (added at the entry of a kernel that has none).
 */
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct W {
	RA *ra;
	Fn *f;
	Ins *pv;           /* inserted instructions of the block, by position */
	uint32_t *pos;     /* before which old instruction each goes */
	uint32_t npv, cpv, cpos;
	int base;          /* spill area offset from R1 */
	uint32_t a_ldl, a_stl, a_64, a_128, a_isetp, a_ne, a_and, a_sel, a_iadd3, a_imad, a_mov,
	         a_u32;
} W;

/* an instruction to insert before old instruction at: opcode name, modifiers, operands */
static void
put(W *w, uint32_t at, uint32_t name, const uint32_t *mod, unsigned nmod, const Opnd *op,
    unsigned nop, Loc loc)
{
	Module *m = w->f->mod;
	Ins *i;

	vgrow(&w->pv, &w->cpv, w->npv + 1, sizeof *w->pv);
	vgrow(&w->pos, &w->cpos, w->npv + 1, sizeof *w->pos);
	i = &w->pv[w->npv];
	memset(i, 0, sizeof *i);
	i->name = name;
	i->op = (uint16_t)op_lookup(mstr(m, name), atomlen(m->atoms, name));
	i->mod = arena_alloc(m->arena, (nmod + 1) * sizeof *i->mod);
	if (nmod)
		memcpy(i->mod, mod, nmod * sizeof *mod);
	i->nmod = (uint8_t)nmod;
	i->opnd = arena_alloc(m->arena, (nop + 1) * sizeof *i->opnd);
	memcpy(i->opnd, op, nop * sizeof *op);
	i->nopnd = (uint8_t)nop;
	i->addr = -1;
	i->loc = loc;
	w->pos[w->npv++] = at;
}

/* MOVs of registers first..first+n-1 to or from the spill pool's registers off / 4 .. (the
 * window target's spill area where rapool.c made it a pool) */
static void
pool_mov(W *w, uint32_t at, int store, Reg first, unsigned n, int off, Loc loc)
{
	const FPool *p = &w->f->pool[w->ra->win->spool - 1];

	for (unsigned e = 0; e < n; e++) {
		Opnd op[2], pr = mkreg(REG(RV, p->base + (unsigned)off / 4 + e));
		pr.flags |= FPoolRef | FHex;
		pr.atom = p->name;
		pr.imm = off / 4 + (int)e;
		op[store ? 0 : 1] = pr;
		op[store ? 1 : 0] = mkreg(reg_next(first, e));
		put(w, at, w->a_mov, NULL, 0, op, 2, loc);
	}
}

/* LDL/STL of registers first..first+n-1 (n 1, 2, 4) at offset off (MOVs where the spill area
 * is a pool) */
static void
ldst(W *w, uint32_t at, int store, Reg first, unsigned n, int off, Loc loc)
{
	uint32_t mod = n == 4 ? w->a_128 : w->a_64;
	Opnd op[2];

	if (w->ra->win && w->ra->win->spool) {
		pool_mov(w, at, store, first, n, off, loc);
		return;
	}
	if (store) {
		op[0] = mkmem(REG(RR, 1), off);
		op[1] = mkreg(first);
	} else {
		op[0] = mkreg(first);
		op[1] = mkmem(REG(RR, 1), off);
	}
	put(w, at, store ? w->a_stl : w->a_ldl, &mod, n > 1, op, 2, loc);
}

/* the elements set in mask (of a node of size n, aligned al) loaded or stored in the widest
 * aligned pieces: register t + e <-> [R1 + off + 4e] */
static void
pieces(W *w, uint32_t at, int store, const uint64_t *mask, unsigned n, unsigned al, Reg t,
       int off, Loc loc)
{
	for (unsigned e = 0; e < n;) {
		unsigned width = 1;
		if (!((mask[e >> 6] >> (e & 63)) & 1)) {
			e++;
			continue;
		}
		for (unsigned cand = al; cand > 1; cand /= 2) {
			unsigned k = 0;
			if (e % cand || e + cand > n)
				continue;
			while (k < cand && ((mask[(e + k) >> 6] >> ((e + k) & 63)) & 1))
				k++;
			if (k == cand) {
				width = cand;
				break;
			}
		}
		ldst(w, at, store, reg_next(t, e), width, off + 4 * (int)e, loc);
		e += width;
	}
}

/* the register of node x's element e at instruction g */
static Reg
where(const RA *ra, const RaNode *x, unsigned e, uint32_t g)
{
	if (x->spilled) {
		int r = ra_refs_at(ra, x, g);
		const RaNode *t = &ra->node[ra->ref[r].temp];
		return REG(x->cls, (unsigned)t->col + e);
	}
	return REG(x->cls, (unsigned)x->col + e);
}

/* the spill code of instruction g (old index k of its block): loads and predicate reloads
 * before it, stores after it */
static void
spill_code(W *w, uint32_t g, uint32_t k, const Ins *i)
{
	RA *ra = w->ra;
	uint32_t seen[256], nseen = 0;

	for (unsigned j = 0; j < i->nslot; j++) {
		uint32_t n = ra->snode[ra->slot0[g] + j];
		if (n == RaNone || !ra->node[n].spilled)
			continue;
		unsigned q = 0;
		while (q < nseen && seen[q] != n)
			q++;
		if (q < nseen)
			continue;
		seen[nseen++] = n;
	}
	for (int post = 0; post < 2; post++)
		for (unsigned q = 0; q < nseen; q++) {
			const RaNode *x = &ra->node[seen[q]];
			const RaRef *r = &ra->ref[ra_refs_at(ra, x, g)];
			uint64_t ld[2] = {0}, st[2] = {0};
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				int u = ra_unit(ra, s->reg);
				if (u < 0 || ra->snode[ra->slot0[g] + j] != seen[q])
					continue;
				for (unsigned m = 0; m < s->n; m++) {
					unsigned e = (unsigned)u - x->unit + m;
					if (s->kind == SDef)
						st[e >> 6] |= (uint64_t)1 << (e & 63);
					if (s->kind != SDef)
						ld[e >> 6] |= (uint64_t)1 << (e & 63);
				}
			}
			if (x->cls == RR) {
				Reg t = where(ra, x, 0, g);
				if (!post)
					pieces(w, k, 0, ld, x->size, x->align, t, w->base + x->slot, i->loc);
				else
					pieces(w, k + 1, 1, st, x->size, x->align, t, w->base + x->slot, i->loc);
				continue;
			}
			/* a predicate through its home h: ISETP before a read, SEL after a write */
			const RaNode *h = &ra->node[x->home];
			Reg rh = where(ra, h, 0, g), pt = where(ra, x, 0, g);
			if (!post && (r->fl & (RfUse | RfOld))) {
				uint32_t mods[2] = { w->a_ne, w->a_and };
				Opnd op[5] = { mkreg(pt), mkreg(REG(RP, RegPT)), mkreg(rh),
				               mkreg(REG(RR, RegRZ)), mkreg(REG(RP, RegPT)) };
				if (h->spilled)
					ldst(w, k, 0, rh, 1, w->base + h->slot, i->loc);
				put(w, k, w->a_isetp, mods, 2, op, 5, i->loc);
			}
			if (post && (r->fl & RfDef)) {
				Opnd op[4] = { mkreg(rh), mkreg(REG(RR, RegRZ)), mkimm(1), mkreg(pt) };
				op[3].flags = FLNot;
				put(w, k + 1, w->a_sel, NULL, 0, op, 4, i->loc);
				if (h->spilled)
					ldst(w, k + 1, 1, rh, 1, w->base + h->slot, i->loc);
			}
		}
}

/* the registers of instruction g, through its slots (each names an operand's register, and
 * every operand the table reads or writes has one); -1 after an error: a virtual register left
 * (an operand the table does not cover) or a remote read */
static int
rewrite_ins(W *w, uint32_t g, Ins *i)
{
	RA *ra = w->ra;

	for (unsigned j = 0; j < i->nslot; j++) {
		Slot *s = &i->slot[j];
		uint32_t n = ra->snode[ra->slot0[g] + j];
		Reg *r;
		if (s->opnd == SlotGuard)
			r = &i->guard.r[0];
		else if (s->opnd < i->nopnd && s->field < 3)
			r = &i->opnd[s->opnd].r[s->field];
		else
			continue;
		if (s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote) && reg_isvany(*r))
			continue;               /* reported below */
		if (n != RaNone && reg_isvany(*r)) {
			const RaNode *x = &ra->node[n];
			*r = where(ra, x, (unsigned)ra_unit(ra, *r) - x->unit, g);
		}
		s->reg = *r;
	}
	for (unsigned j = 0; j <= i->nopnd; j++)
		for (int fl = 0; fl < 3; fl++) {
			Reg r = j < i->nopnd ? (i->opnd[j].kind != ONone ? i->opnd[j].r[fl] : RNone)
			                     : (fl == 0 && i->guarded ? i->guard.r[0] : RNone);
			if (!reg_isvany(r))
				continue;
			if (j < i->nopnd && (i->opnd[j].flags & FVRemote))
				error_at(ra->d, i->loc, "regalloc does not place remote reads (%%x@W): "
				         "fiber-ra does");
			else
				error_at(ra->d, i->loc, "regalloc: operand %u of '%s' names a virtual "
				         "register that the opcode table neither reads nor writes there",
				         j + 1, mstr(w->f->mod, i->name));
			return -1;
		}
	return 0;
}

/* i is the stack pointer's initialisation as selection writes it, IMAD.MOV.U32 R1, RZ, RZ,
 * c[0x0][0x28] (sm_80) or LDC R1, c[0x0][0x28] (sm_90), unguarded: it reads nothing computed, so
 * it may move to the top of the entry block */
static int
is_sp_init(const Fn *f, const Ins *i)
{
	const Opnd *c = &i->opnd[i->nopnd - 1];

	if (i->guarded || !i->nopnd || i->opnd[0].kind != OReg || i->opnd[0].r[0] != REG(RR, 1) ||
	    c->kind != OCBank || c->imm2 != 0 || c->imm != 0x28 || c->r[0] != RNone)
		return 0;
	if (i->op == OLDC)
		return i->nopnd == 2 && i->nmod == 0;
	return i->op == OIMAD && i->nopnd == 4 && ins_hasmod(i, f->mod, "MOV") &&
	       i->opnd[1].kind == OReg && i->opnd[1].r[0] == REG(RR, RegRZ) &&
	       i->opnd[2].kind == OReg && i->opnd[2].r[0] == REG(RR, RegRZ);
}

/* i lowers the stack pointer by a constant, as a frame's prologue does: `IADD3 R1, R1, -n, RZ`
 * or, on sm_90, `VIADD R1, R1, -n` (the immediate a 32-bit two's complement, 0xfffffff8 for -8):
 * n, else -1 */
static int64_t
frame_adj(const Ins *i)
{
	const Opnd *o = i->opnd;
	int64_t v;

	if (i->guarded || i->nopnd < 3 || o[0].kind != OReg || o[0].r[0] != REG(RR, 1) ||
	    o[1].kind != OReg || o[1].r[0] != REG(RR, 1) || o[2].kind != OImm)
		return -1;
	if (i->op == OIADD3 && i->nopnd == 4 && o[3].kind == OReg &&
	    o[3].r[0] == REG(RR, RegRZ) && o[2].imm <= 0)
		return -o[2].imm;
	if (i->op != OVIADD || i->nopnd != 3 || i->nmod)
		return -1;
	v = o[2].imm >= 0x80000000 && o[2].imm <= 0xffffffff ? o[2].imm - 0x100000000 : o[2].imm;
	return v <= 0 && v > -0x80000000LL ? -v : -1;
}

/* the frame: where the stack pointer is set in the entry block; the spill area's offset from
 * R1 (after what the text's frame has) and the new frame size; *moved: the initialisation to
 * drop, when a spilled register is referenced before it and it can move to the top (then
 * *init is none: frame_code writes it first). -1 after an error */
static int
frame(W *w, Blk *e, uint32_t *init, uint32_t *adj, uint32_t *moved, int *size)
{
	RA *ra = w->ra;
	Fn *f = w->f;
	int f0 = f->info.frame_size > 0 ? f->info.frame_size : 0, early = 0;

	*init = *adj = *moved = UINT32_MAX;
	for (uint32_t k = 0; k < e->nins; k++) {
		const Ins *i = &e->ins[k];
		int def = 0, use = 0;
		for (unsigned j = 0; j < i->nslot; j++)
			if (i->slot[j].reg == REG(RR, 1)) {
				def |= i->slot[j].kind == SDef;
				use |= i->slot[j].kind != SDef;
			}
		if (*init == UINT32_MAX) {
			early |= use;
			if (def)
				*init = k;
			continue;
		}
		if (!def && !use)
			continue;
		/* the first instruction after the initialisation that touches R1: the frame? */
		int64_t n = def ? frame_adj(i) : -1;
		if (n >= 0) {
			*adj = k;
			if (n > f0)
				f0 = (int)n;
		}
		break;
	}
	if (f0 > 0 && *adj == UINT32_MAX) {
		error_at(ra->d, f->loc, "regalloc: the function has a frame of %d bytes but no "
		         "`IADD3 R1, R1, -%d, RZ` after its stack pointer is set: no room for spills",
		         f0, f0);
		return -1;
	}
	if (*init == UINT32_MAX && !f->info.is_entry) {
		error_at(ra->d, f->loc, "regalloc: spilling in a device function that does not set "
		         "its stack pointer (R1) is not supported");
		return -1;
	}
	w->base = (f0 + 15) / 16 * 16;
	*size = (w->base + ra->frame + 15) / 16 * 16;
	/* nothing to spill before R1 is set */
	for (uint32_t n = 0; n < ra->nnode; n++) {
		const RaNode *x = &ra->node[n];
		uint32_t lim = ra->gblk[e->id] + (*init == UINT32_MAX ? 0 : *init + 1);
		if (!x->spilled || x->cls != RR || !x->nref || ra->ref[x->ref].ins >= lim ||
		    ra->ref[x->ref].ins < ra->gblk[e->id])
			continue;
		if (!early && *adj == UINT32_MAX && f0 == 0 && is_sp_init(f, &e->ins[*init])) {
			*moved = *init;        /* the scheduler moved it down: back to the top */
			*init = UINT32_MAX;
			return 0;
		}
		error_at(ra->d, ra->ins[ra->ref[x->ref].ins]->loc, "regalloc: a spilled register "
		         "is used before the stack pointer (R1) is set");
		return -1;
	}
	return 0;
}

/* the frame instructions at position at of the entry block: the stack pointer when the text
 * sets none, then IADD3 R1, R1, -size, RZ */
static void
frame_code(W *w, uint32_t at, int need_init, int size, Loc loc)
{
	Opnd op[4];

	if (need_init) {
		uint32_t mods[2] = { w->a_mov, w->a_u32 };
		op[0] = mkreg(REG(RR, 1));
		op[1] = op[2] = mkreg(REG(RR, RegRZ));
		op[3] = mkcbank(0, 0x28);
		put(w, at, w->a_imad, mods, 2, op, 4, loc);
	}
	op[0] = mkreg(REG(RR, 1));
	op[1] = mkreg(REG(RR, 1));
	op[2] = mkimm(-size);
	op[3] = mkreg(REG(RR, RegRZ));
	put(w, at, w->a_iadd3, NULL, 0, op, 4, loc);
}

int
ra_rewrite(RA *ra, int *copies)
{
	Fn *f = ra->f;
	Module *m = f->mod;
	W w = { .ra = ra, .f = f };
	Blk *entry = f->nrpo ? f->rpo[0] : f->blk[0];
	uint32_t init = UINT32_MAX, adj = UINT32_MAX, moved = UINT32_MAX;
	int size = 0, rc = 0, hi = 1;
	Ins **add = NULL;
	uint32_t *nadd = NULL, cadd = 0, cnadd = 0, cdrop = 0;
	uint8_t *drop = NULL;

	w.a_ldl = mintern(m, "LDL");
	w.a_stl = mintern(m, "STL");
	w.a_64 = mintern(m, "64");
	w.a_128 = mintern(m, "128");
	w.a_isetp = mintern(m, "ISETP");
	w.a_ne = mintern(m, "NE");
	w.a_and = mintern(m, "AND");
	w.a_sel = mintern(m, "SEL");
	w.a_iadd3 = mintern(m, "IADD3");
	w.a_imad = mintern(m, "IMAD");
	w.a_mov = mintern(m, "MOV");
	w.a_u32 = mintern(m, "U32");
	*copies = 0;
	if (ra->frame && frame(&w, entry, &init, &adj, &moved, &size) < 0)
		return -1;
	kinfo_drop_vregs(f);   /* before any edit: edit.c pins the text's items by index */
	for (uint32_t b = 0; b < f->nblk && rc == 0; b++) {
		Blk *x = f->blk[b];
		uint32_t g0 = ra->gblk[b], kept = x->nins, fpos = init == UINT32_MAX ? 0 : init + 1;
		w.npv = 0;
		vgrow(&drop, &cdrop, x->nins + 1, sizeof *drop);
		memset(drop, 0, x->nins + 1);
		for (uint32_t k = 0; k < x->nins; k++) {
			Ins *i = &x->ins[k];
			Reg d, s;
			if (x == entry && ra->frame && k == fpos)
				frame_code(&w, k, init == UINT32_MAX, size, i->loc);
			if (x == entry && (k == adj || k == moved))
				drop[k] = 1, kept--;
			/* the stack pointer set again (after a SETFIBERNUM, lwfiber.c): the frame again,
			 * in place of the text's own adjustment after it */
			if (ra->frame && is_sp_init(f, i) && !(x == entry && (k == init || k == moved))) {
				if (k + 1 < x->nins && frame_adj(&x->ins[k + 1]) >= 0)
					drop[k + 1] = 1, kept--;
				frame_code(&w, k + 1, 0, size, i->loc);
			}
			spill_code(&w, g0 + k, k, i);
			if (rewrite_ins(&w, g0 + k, i) < 0) {
				rc = -1;
				break;
			}
			if (!drop[k] && ra_copy_of(f, i, &d, &s) && d == s && kept > 1) {
				drop[k] = 1;
				kept--;
				(*copies)++;
			}
			if (w.npv && w.pos[w.npv - 1] == k + 1 && cfg_ends_block(f, i)) {
				error_at(ra->d, i->loc, "regalloc: a spilled register is written by an "
				         "instruction that ends its block");
				rc = -1;
			}
		}
		if (x == entry && ra->frame && fpos == x->nins)
			frame_code(&w, fpos, init == UINT32_MAX, size, f->loc);
		vgrow(&add, &cadd, x->nins + 1, sizeof *add);
		vgrow(&nadd, &cnadd, x->nins + 1, sizeof *nadd);
		memset(nadd, 0, (x->nins + 1) * sizeof *nadd);
		for (uint32_t q = 0; q < w.npv; q++) {
			if (!nadd[w.pos[q]])
				add[w.pos[q]] = &w.pv[q];
			nadd[w.pos[q]]++;
		}
		if (rc == 0 && (w.npv || kept != x->nins) && ins_splice(f, x, add, nadd, drop) < 0) {
			error_at(ra->d, f->loc, "regalloc: internal: spill code refused by op_slots");
			rc = -1;
		}
	}
	free(add);
	free(nadd);
	free(drop);
	free(w.pv);
	free(w.pos);
	if (rc < 0)
		return -1;
	if (ra->frame) {
		int old = f->info.frame_size > 0 ? f->info.frame_size : 0;
		int ms = f->info.min_stack_size >= 0 ? f->info.min_stack_size + (size - old) : size;
		if (kinfo_frame(f, size, ms) < 0)
			warn_at(ra->d, f->loc, "regalloc: no .nv.info section to state the frame of %d "
			        "bytes the spills need", size);
	}
	/* the register count, as ptxas states it: the highest R used + 1, + 2 */
	for (uint32_t r = 0; r < RaPhysR; r++)
		if ((ra->physr[r >> 6] >> (r & 63)) & 1)
			hi = (int)r > hi ? (int)r : hi;
	for (uint32_t n = 0; n < ra->nnode; n++) {
		const RaNode *x = &ra->node[n];
		if (x->cls == RR && !x->spilled && x->col >= 0 && (x->nref || x->kind != NkDecl) &&
		    x->col + x->size - 1 > hi)
			hi = x->col + x->size - 1;
	}
	kinfo_regcount(f, hi + 3 > 255 ? 255 : hi + 3);
	return 0;
}
