/* fiberra.c: fiber-ra, FIBER-native register allocation (docs/pass-fiber-ra.md): the virtual
 * registers of a `--mode=fiber-native` program (.vreg, docs/fiber-isa.md "Virtual registers")
 * onto the weft's window R0..R(n-1), with n as small as a greedy colouring finds.
 *
 *   1. liveness over dense units: R0..R254 (the registers the program names itself: pre-
 *      coloured) then one unit per declaration (a tuple is one unit), with live_solve and the
 *      internal-subroutine call edges;
 *   2. interference: a definition interferes with everything live after it; a tuple definition
 *      also with the other registers its instruction reads (no partial overlap of a wide result
 *      and a source); a *pinned* declaration (read remotely as %x@W, or named by a busy-bit
 *      instruction DEPBAR.FULL/.EMPTY, SETBUSYBIT) interferes with everything: another weft
 *      reads it, or its busy bits carry a protocol, at times the local liveness cannot see;
 *   3. colouring: pinned first, then larger tuples first, then in declaration order, each at the
 *      lowest register free of its neighbours and aligned (2: even, 4 and more: multiple of 4);
 *   4. rewriting: %x -> R(col), %x@W -> V(base(W) + col) with the one-CTA-per-SM placement of
 *      docs/fiber-isa.md section 2 (needs a pool or SETFIBERNUM, else an error), SETFIBERNUM's
 *      nreg -> the registers the code after it uses, the window n into KInfo.regcount,
 *      FPlan.window, EIATTR_REGCOUNT and SHI_REGISTERS; the .vreg directives go.
 * Errors (located): a window past R254, or windows and pools past a slice (no spilling).
 *
 * Preconditions: the CFG (cfg_build); not SSA (it runs before ssa: SSA then sees physical
 * registers only); slots computable (op_slots). Without f->plan or without virtual registers it
 * does nothing.
 */
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

enum { NPhys = 255 };  /* units 0..254: R0..R254; then one per declaration */

typedef struct RA {
	Fn *f;
	Diag *d;
	uint32_t nv;       /* declarations */
	uint32_t nunit;    /* NPhys + nv */
	uint32_t nw;       /* words per unit set */
	uint64_t *intf;    /* nv rows of nw words: what declaration v interferes with */
	uint8_t *pinned;   /* nv */
	uint8_t *used;     /* nv: named by some instruction */
	uint64_t phys[4];  /* R registers the program names itself */
	int *col;          /* nv: first register, -1 none */
} RA;

#define HAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)
#define ADD(s, u) ((s)[(u) >> 6] |= (uint64_t)1 << ((u) & 63))
#define DEL(s, u) ((s)[(u) >> 6] &= ~((uint64_t)1 << ((u) & 63)))

/* the units of slot s of i, into u[] (at most n), and whether a definition covers them whole;
 * remote reads (%x@W) are not local units */
static unsigned
slot_units(const RA *ra, const Ins *i, const Slot *s, uint32_t *u, int *whole)
{
	unsigned n = 0, e = 0;
	const FVReg *v;

	*whole = 1;
	if (RCLS(s->reg) != RR || reg_isconst(s->reg))
		return 0;
	if (s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote))
		return 0;
	if (!reg_isvirt(s->reg)) {
		for (unsigned m = 0; m < s->n && RNUM(s->reg) + m < NPhys; m++)
			u[n++] = RNUM(s->reg) + m;
		return n;
	}
	if (!(v = vreg_of(ra->f, s->reg, &e)))
		return 0;
	*whole = e == 0 && s->n >= v->size;
	u[0] = NPhys + (uint32_t)(v - ra->f->vreg);
	return 1;
}

static int
is_busy(const Fn *f, const Ins *i)
{
	return i->op == OSETBUSYBIT ||
	       (i->op == ODEPBAR && (ins_hasmod(i, f->mod, "FULL") || ins_hasmod(i, f->mod, "EMPTY")));
}

/* declaration v interferes with unit u (both ways when u is a declaration) */
static void
edge(RA *ra, uint32_t a, uint32_t b)
{
	if (a == b)
		return;
	if (a >= NPhys)
		ADD(ra->intf + (size_t)(a - NPhys) * ra->nw, b);
	if (b >= NPhys)
		ADD(ra->intf + (size_t)(b - NPhys) * ra->nw, a);
}

/* what each instruction names: physical registers, used and pinned declarations */
static void
scan(RA *ra)
{
	Fn *f = ra->f;

	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		int busy = is_busy(f, i);
		if (!i->slot)
			op_slots(f, i);
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *s = &i->slot[j];
			unsigned e;
			const FVReg *v = vreg_of(f, s->reg, &e);
			if (v) {
				ra->used[v - f->vreg] = 1;
				if (busy || (s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote)))
					ra->pinned[v - f->vreg] = 1;
			} else if (RCLS(s->reg) == RR && !reg_isconst(s->reg)) {
				for (unsigned m = 0; m < s->n && RNUM(s->reg) + m < NPhys; m++)
					ADD(ra->phys, RNUM(s->reg) + m);
			}
		}
	}
}

/* liveness (live_solve) and interference over the reachable blocks */
static void
interfere(RA *ra)
{
	Fn *f = ra->f;
	uint32_t nw = ra->nw, nb = f->nblk, u[256], du[1024], u2[256];
	uint64_t *gen = xmalloc(((size_t)nb * nw + 1) * sizeof *gen);
	uint64_t *kill = xmalloc(((size_t)nb * nw + 1) * sizeof *kill);
	uint64_t *in = xmalloc(((size_t)nb * nw + 1) * sizeof *in);
	uint64_t *out = xmalloc(((size_t)nb * nw + 1) * sizeof *out);
	uint64_t *live = xmalloc(nw * sizeof *live);
	int whole;

	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		uint64_t *g = gen + (size_t)b->id * nw, *kl = kill + (size_t)b->id * nw;
		for (uint32_t k = b->nins; k-- > 0;) {
			const Ins *i = &b->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				unsigned n = slot_units(ra, i, &i->slot[j], u, &whole);
				if (i->slot[j].kind == SDef && whole)
					for (unsigned m = 0; m < n; m++)
						DEL(g, u[m]), ADD(kl, u[m]);
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				unsigned n = slot_units(ra, i, &i->slot[j], u, &whole);
				if (i->slot[j].kind != SDef)
					for (unsigned m = 0; m < n; m++)
						ADD(g, u[m]);
			}
		}
	}
	live_solve(f, nw, gen, kill, in, out, 1);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		memcpy(live, out + (size_t)b->id * nw, nw * sizeof *live);
		for (uint32_t k = b->nins; k-- > 0;) {
			const Ins *i = &b->ins[k];
			unsigned nd = 0;
			/* definitions against what is live after i, and against each other */
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				unsigned n;
				if (s->kind != SDef)
					continue;
				n = slot_units(ra, i, s, u, &whole);
				for (unsigned m = 0; m < n; m++) {
					for (uint32_t w = 0; w < nw; w++)
						for (uint64_t x = live[w]; x; x &= x - 1)
							edge(ra, u[m], w * 64 + (uint32_t)__builtin_ctzll(x));
					for (unsigned q = 0; q < nd; q++)
						edge(ra, u[m], du[q]);
					if (nd < sizeof du / sizeof du[0])
						du[nd++] = u[m];
				}
				/* a wide result overlaps no other source of its instruction */
				if (s->n > 1 && reg_isvirt(s->reg) && n)
					for (unsigned j2 = 0; j2 < i->nslot; j2++) {
						unsigned n2 = i->slot[j2].kind == SDef ? 0 :
						              slot_units(ra, i, &i->slot[j2], u2, &whole);
						for (unsigned q = 0; q < n2; q++)
							edge(ra, u[0], u2[q]);
					}
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				unsigned n = slot_units(ra, i, &i->slot[j], u, &whole);
				if (i->slot[j].kind == SDef && whole)
					for (unsigned m = 0; m < n; m++)
						DEL(live, u[m]);
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				unsigned n = slot_units(ra, i, &i->slot[j], u, &whole);
				if (i->slot[j].kind != SDef)
					for (unsigned m = 0; m < n; m++)
						ADD(live, u[m]);
			}
		}
	}
	/* read before any write on some path from the entry: a warning (its contents are
	 * whatever the window holds: zero at launch) */
	if (f->nrpo)
		for (uint32_t v = 0; v < ra->nv; v++)
			if (HAS(in + (size_t)f->rpo[0]->id * nw, NPhys + v) && !ra->pinned[v])
				warn_at(ra->d, f->vreg[v].loc, "virtual register '%%%s' may be read before "
				        "it is written", mstr(f->mod, f->vreg[v].name));
	/* pinned: against everything the program names */
	for (uint32_t v = 0; v < ra->nv; v++) {
		if (!ra->pinned[v] || !ra->used[v])
			continue;
		for (uint32_t p = 0; p < NPhys; p++)
			if (HAS(ra->phys, p))
				edge(ra, NPhys + v, p);
		for (uint32_t w = 0; w < ra->nv; w++)
			if (w != v && ra->used[w])
				edge(ra, NPhys + v, NPhys + w);
	}
	free(gen);
	free(kill);
	free(in);
	free(out);
	free(live);
}

/* colouring order: pinned first, then larger tuples, then declaration order */
static const RA *sort_ra;

static int
by_prio(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const RA *ra = sort_ra;

	if (ra->pinned[x] != ra->pinned[y])
		return ra->pinned[y] - ra->pinned[x];
	if (ra->f->vreg[x].size != ra->f->vreg[y].size)
		return ra->f->vreg[y].size - ra->f->vreg[x].size;
	return x < y ? -1 : x > y;
}

/* greedy colouring; -1 after an error (no window of R0..R254 holds the program) */
static int
colour(RA *ra, int *top)
{
	Fn *f = ra->f;
	uint32_t *ord = xmalloc((ra->nv + 1) * sizeof *ord), n = 0;
	int rc = 0;

	for (uint32_t v = 0; v < ra->nv; v++)
		if (ra->used[v])
			ord[n++] = v;
	sort_ra = ra;
	qsort(ord, n, sizeof *ord, by_prio);
	*top = 0;
	for (uint32_t p = 0; p < NPhys; p++)
		if (HAS(ra->phys, p))
			*top = (int)p + 1;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v = ord[k], size = f->vreg[v].size, al = size < 4 ? size : 4;
		const uint64_t *row = ra->intf + (size_t)v * ra->nw;
		uint64_t busy[4] = {0};
		int c = -1;
		for (uint32_t p = 0; p < NPhys; p++)
			if (HAS(row, p))
				ADD(busy, p);
		for (uint32_t w = 0; w < ra->nv; w++)
			if (ra->col[w] >= 0 && HAS(row, NPhys + w))
				for (uint32_t m = 0; m < f->vreg[w].size; m++)
					ADD(busy, (uint32_t)ra->col[w] + m);
		for (uint32_t b = 0; b + size <= NPhys && c < 0; b += al) {
			uint32_t m = 0;
			while (m < size && !HAS(busy, b + m))
				m++;
			if (m == size)
				c = (int)b;
		}
		if (c < 0) {
			error_at(ra->d, f->vreg[v].loc, "no room for virtual register '%%%s' (%u "
			         "register%s) in a window of R0..R254: too many values live at once "
			         "(fiber-ra does not spill)", mstr(f->mod, f->vreg[v].name), size,
			         size == 1 ? "" : "s");
			rc = -1;
			break;
		}
		ra->col[v] = c;
		if (c + (int)size > *top)
			*top = c + (int)size;
	}
	free(ord);
	return rc;
}

/* the register operands of every instruction: virtual -> window (or V for a remote read) */
static int
rewrite(RA *ra, int n, int has_sfn)
{
	Fn *f = ra->f;
	int slice = f->plan->slice_regs > 0 ? f->plan->slice_regs : FiberSliceRegs, rc = 0;
	char s[64];

	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		int any = 0;
		for (unsigned j = 0; j < i->nopnd; j++) {
			Opnd *o = &i->opnd[j];
			for (int fl = 0; fl < 3; fl++) {
				unsigned e = 0;
				const FVReg *v;
				if (o->kind == ONone || !(v = vreg_of(f, o->r[fl], &e)))
					continue;
				int c = ra->col[v - f->vreg];
				any = 1;
				if (fl == 0 && o->kind == OReg && (o->flags & FVRemote)) {
					int base = fw_weft_base(f, (int)o->imm, n, slice, has_sfn);
					if (base < 0) {
						vreg_spell(f, o->r[0], s, sizeof s);
						error_at(ra->d, i->loc, "remote read '%s@%lld': weft %lld's window "
						         "is not at a known place (%s)", s, (long long)o->imm,
						         (long long)o->imm, f->npool || has_sfn ? "wefts past 3 "
						         "move with SETFIBERNUM" : "the kernel may share its SM "
						         "with other CTAs; a pool or SETFIBERNUM makes it own it");
						rc = -1;
						continue;
					}
					o->r[0] = REG(RV, (unsigned)base + (unsigned)c + e);
					o->flags &= (uint16_t)~FVRemote;
					o->imm = 0;
				} else {
					o->r[fl] = REG(RR, (unsigned)c + e);
				}
			}
		}
		if (any) {
			i->slot = NULL;
			i->nslot = 0;
			op_slots(f, i);
		}
	}
	return rc;
}

int
pass_fiber_ra(Fn *f, Diag *d)
{
	RA ra = { .f = f, .d = d };
	int top = 0, rc = -1, has_sfn = 0;

	if (!f->plan || !f->nvreg)
		return 0;
	if (vreg_npred(f)) {
		const FVReg *p = &f->vreg[f->nvreg - vreg_npred(f)];
		error_at(d, p->loc, "fiber-ra places virtual R registers only: virtual predicate "
		         "'%%%s' needs the pass regalloc", mstr(f->mod, p->name));
		return -1;
	}
	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	ra.nv = f->nvreg;
	ra.nunit = NPhys + ra.nv;
	ra.nw = (ra.nunit + 63) / 64;
	ra.intf = xmalloc(((size_t)ra.nv * ra.nw + 1) * sizeof *ra.intf);
	ra.pinned = xmalloc(ra.nv + 1);
	ra.used = xmalloc(ra.nv + 1);
	ra.col = xmalloc((ra.nv + 1) * sizeof *ra.col);
	memset(ra.intf, 0, ((size_t)ra.nv * ra.nw + 1) * sizeof *ra.intf);
	memset(ra.pinned, 0, ra.nv + 1);
	memset(ra.used, 0, ra.nv + 1);
	for (uint32_t v = 0; v < ra.nv; v++)
		ra.col[v] = -1;
	for (uint32_t k = 0; k < f->nins; k++)
		has_sfn |= f->ins[k].op == OSETFIBERNUM;
	scan(&ra);
	interfere(&ra);
	if (colour(&ra, &top) < 0 ||
	    fw_check_slices(f, d, top, has_sfn, "fiber-ra does not spill: fewer live values, "
	                    "fibers or pooled registers") < 0 ||
	    rewrite(&ra, top, has_sfn) < 0 || fw_fix_setfibernum(f, d) < 0)
		goto out;
	kinfo_drop_vregs(f);
	kinfo_regcount(f, top);
	f->plan->window = top;
	for (uint32_t v = 0; v < ra.nv; v++)
		f->plan->vregs += ra.used[v];
	f->nvreg = 0;
	rc = 0;
out:
	free(ra.intf);
	free(ra.pinned);
	free(ra.used);
	free(ra.col);
	return rc;
}
