/* fibernum.c: the SETFIBERNUM split of an independent strided loop, for the phases pass
 * (phases.c). split_check proves a loop splittable or says why not; split_apply rewrites the
 * kernel so that m times the launch's fibers share the loop's iterations:
 *
 *   entry:      (count = m x blockDim.x*y*z in a UR)  SETFIBERNUM URc, nreg
 *               j = SR_FIBERID / T (binary search, m a power of two); Rjs = j*S; Rd = (m-1)*S
 *   original prefix, run by every fiber (new fibers recompute every value from their TID.X/Y,
 *   which equal those of the thread t they copy, and CTAID)
 *   preheader:  i0 += Rjs;  @(Rjs != 0 && i0 >= N) EXIT
 *   loop:       ... i += S; i += Rd ... (while i < N)
 *   exit:       EXIT (only)
 *
 * A loop the compiler cannot decide alone (a bound from a parameter, a grid-stride loop, the
 * grid without --fiber-grid, loads of memory the loop may write) gets a guard before SETFIBERNUM
 * (guard_emit: uniform registers, constant bank only): when a condition fails the count is the
 * launch's and (m-1)*S is 0, so the threads run the input's loop (versioning, as LLVM's loop
 * versioning, on the ranges of the loop's p[i] accesses).
 *
 * Fiber f = t + j*T runs the iterations k = j, j+m, j+2m, ... of thread t. The proof that this
 * computes exactly what the input computes, and the conditions checked here, are in
 * docs/pass-phases.md. New instructions carry no encoding words (ctrl-bits gives them control
 * bits); their new values live in registers above the kernel's register count (2 of them).
 *
 * Preconditions: CFG, dominators, SSA with def-use chains; the loop as found by loops_find on
 * the unedited function. split_apply edits blocks only (Fn.ins is stale until relayout).
 */
#include "phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MaxDepth = 24 };

typedef struct Cx {
	Fn *f;
	const Loop *l;
	uint8_t *body;     /* per block: the loop, or a subroutine it calls */
	uint32_t iv;
} Cx;

/* ---- operands and values -------------------------------------------------------------------- */

static const char *
opname(const Fn *f, const Ins *i)
{
	return mstr(f->mod, i->name);
}

static int
hasmod(const Fn *f, const Ins *i, const char *m)
{
	return ins_hasmod(i, f->mod, m);
}

static int
is_rz(const Opnd *o)
{
	return o->kind == OReg && (o->r[0] == REG(RR, RegRZ) || o->r[0] == REG(RUR, RegURZ)) &&
	       !(o->flags & (FNeg | FNot));
}

static int
is_pt(const Opnd *o)
{
	return o->kind == OReg && o->r[0] == REG(RP, RegPT) && !(o->flags & (FLNot | FNot));
}

/* SSA value read by operand k, register m of its field 0; 0 if none */
static uint32_t
useval(const Ins *i, unsigned k, unsigned m)
{
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SUse && i->slot[s].opnd == k && i->slot[s].field == 0 &&
		    m < i->slot[s].n && i->slot[s].v)
			return i->slot[s].v[m];
	return 0;
}

static uint32_t
guardval(const Ins *i)
{
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].opnd == SlotGuard && i->slot[s].v)
			return i->slot[s].v[0];
	return 0;
}

static Ins *
vdef(const Fn *f, uint32_t v)
{
	return v && v < f->nval ? f->val[v].def : NULL;
}

/* value v is defined outside the loop body (an entry value, or in a block before it) */
static int
outside(const Cx *x, uint32_t v)
{
	const Val *a = &x->f->val[v];

	return !a->blk || !x->body[a->blk->id] || (!a->def && !a->phi);
}

static int
op_is(const Fn *f, const Ins *i, int op, const char *m0)
{
	return i && i->op == op && (!m0 ? i->nmod == 0 : i->nmod >= 1 &&
	       strcmp(mstr(f->mod, i->mod[0]), m0) == 0);
}

/* a pure copy of a register or constant: MOV d, s or IMAD.MOV.U32 d, RZ, RZ, s: its source */
static int
copy_src(const Fn *f, const Ins *i)
{
	if (!i || i->guarded)
		return -1;
	if (i->op == OMOV && i->nmod == 0 && i->nopnd == 2)
		return 1;
	if (op_is(f, i, OIMAD, "MOV") && i->nopnd == 4 && is_rz(&i->opnd[1]) && is_rz(&i->opnd[2]))
		return 3;
	return -1;
}

/* the fp16 bits of a float immediate exactly representable in fp16; -1 if not */
static int32_t
half_bits(const Opnd *o)
{
	double v, a, fr;
	int e;
	int32_t b;

	if (o->kind == OImm)
		return o->imm == 0 ? 0 : -1;
	if (o->kind != OFImm || (o->flags & (FNeg | FAbs)))
		return -1;
	v = o->fimm;
	a = v < 0 ? -v : v;
	if (a == 0)
		return v == 0 && !signbit(v) ? 0 : -1;
	fr = frexp(a, &e);                      /* a = fr * 2^e, fr in [0.5, 1) */
	if (e - 1 < -14)                        /* subnormal: a = bits * 2^-24 */
		b = (int32_t)ldexp(a, 24);
	else
		b = (int32_t)(((e - 1 + 15) << 10) | (int32_t)((fr * 2 - 1) * 1024));
	if (e - 1 > 15 || (e - 1 < -14 ? ldexp((double)b, -24) != a
	                   : ldexp(1.0 + (b & 0x3ff) / 1024.0, e - 1) != a))
		return -1;
	return (v < 0 ? 0x8000 : 0) | b;
}

/* the 32-bit constant value v holds (an immediate copy, or nvcc's constant load HFMA2.MMA R,
 * -RZ, RZ, hi, lo), in *k; -1 if not a constant */
static int
cst32(const Fn *f, uint32_t v, int64_t *k)
{
	Ins *i = vdef(f, v);
	int s = copy_src(f, i);
	int32_t hi, lo;

	if (s < 0 && i && !i->guarded && i->op == OHFMA2 && i->nmod == 1 && hasmod(f, i, "MMA") &&
	    i->nopnd == 5 && i->opnd[1].kind == OReg && i->opnd[1].r[0] == REG(RR, RegRZ) &&
	    is_rz(&i->opnd[2]) && (hi = half_bits(&i->opnd[3])) >= 0 &&
	    (lo = half_bits(&i->opnd[4])) >= 0) {
		*k = (int32_t)((uint32_t)hi << 16 | (uint32_t)lo);
		return 0;
	}
	if (s < 0 || i->opnd[s].kind != OImm)
		return -1;
	*k = (int32_t)i->opnd[s].imm;
	return 0;
}

/* operand k of i is a word of constant bank 0 with no index (directly, or through copies,
 * ULDC/LDC/UMOV): its offset; -1 if not */
static int
param_word(const Fn *f, const Ins *i, unsigned k, int depth)
{
	const Opnd *o = &i->opnd[k];
	Ins *d;
	int s;

	if (depth > 6 || (o->flags & (FNeg | FNot | FAbs)))
		return -1;
	if (o->kind == OCBank && o->r[0] == RNone && !(o->flags & FCx) && o->imm2 == 0 &&
	    o->imm >= 0 && o->imm % 4 == 0)
		return (int)o->imm;
	if (o->kind != OReg || o->sfx[0] || !(d = vdef(f, useval(i, k, 0))) || d->guarded)
		return -1;
	if ((d->op == OULDC || d->op == OLDC || d->op == OUMOV) && d->nmod == 0 && d->nopnd == 2)
		return param_word(f, d, 1, depth + 1);
	if ((d->op == OULDC || d->op == OLDC) && d->nmod == 1 && hasmod(f, d, "64") &&
	    d->nopnd == 2 && (s = param_word(f, d, 1, depth + 1)) >= 0) {
		uint32_t v = useval(i, k, 0);   /* a word of ULDC.64: which one */
		for (unsigned t = 0; t < d->nslot; t++)
			if (d->slot[t].kind == SDef && d->slot[t].v)
				for (unsigned m = 0; m < d->slot[t].n && m < 2; m++)
					if (d->slot[t].v[m] == v)
						return s + 4 * (int)m;
		return -1;
	}
	if ((s = copy_src(f, d)) >= 0)
		return param_word(f, d, (unsigned)s, depth + 1);
	return -1;
}

/* ---- affine values: c*i + (loop invariant) -------------------------------------------------- */

typedef struct Aff {
	int ok;            /* understood */
	int64_t c;         /* coefficient of the induction value i (of sext(i) for 64-bit pairs) */
	int pure;          /* exactly c*i, no invariant part */
} Aff;

static const Aff Bad = {0, 0, 0}, Inv = {1, 0, 0};

static Aff aff32(const Cx *x, uint32_t v, int depth);

/* a source operand as a 32-bit affine value */
static Aff
aff_opnd(const Cx *x, const Ins *i, unsigned k, int depth)
{
	const Opnd *o = &i->opnd[k];
	Aff a;

	if (o->kind == OImm || (o->kind == OCBank && o->r[0] == RNone && !(o->flags & FCx)))
		return Inv;
	if (is_rz(o))
		return (Aff){1, 0, 1};
	if (o->kind != OReg || (o->flags & (FNot | FAbs)) || (o->sfx[0]))
		return Bad;
	a = aff32(x, useval(i, k, 0), depth + 1);
	if (a.ok && (o->flags & FNeg))
		a.c = -a.c;
	return a;
}

static int
pure_alu(const Ins *i)
{
	int u = i->op < NOp ? optab[i->op].unit : UNone;

	if (i->op >= NOp || (optab[i->op].flags & (OFLoad | OFStore | OFAtomic | OFBranch |
	    OFCollective | OFBarrier | OFConv | OFFiber)))
		return 0;
	return u == UInt || u == UFma || u == UHalf || u == UConv || u == UMufu || u == UDouble ||
	       u == UUniform;
}

/* every source of i is loop invariant */
static int
all_inv(const Cx *x, const Ins *i, int depth)
{
	for (unsigned s = 0; s < i->nslot; s++) {
		const Slot *sl = &i->slot[s];
		if (sl->kind == SDef)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			Aff a = sl->v ? aff32(x, sl->v[m], depth + 1) : Bad;
			if (!a.ok || a.c)
				return 0;
		}
	}
	return 1;
}

static Aff
aff32(const Cx *x, uint32_t v, int depth)
{
	const Fn *f = x->f;
	Ins *i;
	int s;

	if (!v || v >= f->nval || depth > MaxDepth)
		return Bad;
	if (v == x->iv)
		return (Aff){1, 1, 1};
	if (outside(x, v))
		return Inv;
	if (!(i = vdef(f, v)) || i->guarded)
		return Bad;       /* a phi inside the loop, or a conditional definition */
	if ((s = copy_src(f, i)) >= 0)
		return aff_opnd(x, i, (unsigned)s, depth);
	if (i->op == OIADD3 && !hasmod(f, i, "X") && i->nopnd >= 4) {
		unsigned k0 = i->nopnd - 3;   /* IADD3 d[, Pc[, Pc2]], a, b, c */
		Aff r = {1, 0, 1};
		for (unsigned k = k0; k < i->nopnd; k++) {
			Aff a = aff_opnd(x, i, k, depth);
			if (!a.ok)
				return Bad;
			r.c += a.c;
			r.pure &= a.pure;
		}
		return r;
	}
	if (pure_alu(i) && all_inv(x, i, depth))
		return Inv;
	return Bad;
}

static Aff aff64(const Cx *x, uint32_t lo, uint32_t hi, int depth);

/* a 64-bit source operand (a register pair R.64, a constant bank word pair, or an immediate) */
static Aff
aff64_opnd(const Cx *x, const Ins *i, unsigned k, int depth)
{
	const Opnd *o = &i->opnd[k];

	if (o->kind == OImm || (o->kind == OCBank && o->r[0] == RNone && !(o->flags & FCx)))
		return Inv;
	if (is_rz(o))
		return (Aff){1, 0, 1};
	if (o->kind != OReg || (o->flags & (FNeg | FNot | FAbs)))
		return Bad;
	return aff64(x, useval(i, k, 0), useval(i, k, 1), depth + 1);
}

/* the instruction defining both halves of a pair in one 64-bit slot, else NULL */
static Ins *
pair_def(const Fn *f, uint32_t lo, uint32_t hi)
{
	Ins *i = vdef(f, lo);

	return i && i == vdef(f, hi) ? i : NULL;
}

static Aff
aff64(const Cx *x, uint32_t lo, uint32_t hi, int depth)
{
	const Fn *f = x->f;
	Ins *i, *ih;
	Aff a, b;

	if (!lo || !hi || depth > MaxDepth)
		return Bad;
	a = aff32(x, lo, depth + 1);
	b = aff32(x, hi, depth + 1);
	if (a.ok && b.ok && !a.c && !b.c)
		return Inv;
	if ((i = pair_def(f, lo, hi)) && !i->guarded && i->op == OIMAD && hasmod(f, i, "WIDE") &&
	    i->nopnd == 4) {
		Aff p = aff_opnd(x, i, 1, depth), q, c = aff64_opnd(x, i, 3, depth);
		int64_t k = 0;
		const Opnd *ob = &i->opnd[2];
		if (!c.ok)
			return Bad;
		if (ob->kind == OImm)
			k = (int32_t)ob->imm, q = Inv;
		else if (ob->kind == OReg && !(ob->flags & ~FReuse) && cst32(f, useval(i, 2, 0), &k) == 0)
			q = Inv;
		else {
			q = aff_opnd(x, i, 2, depth);
			k = INT64_MIN;
		}
		if (!p.ok || !q.ok)
			return Bad;
		if (!p.c && !q.c)          /* invariant product */
			return (Aff){1, c.c, 0};
		/* signed wide: sext(a) * k exactly; unsigned wide of i is not affine in sext(i) */
		if (hasmod(f, i, "U32") || k == INT64_MIN || q.c || !p.pure || p.c != 1)
			return Bad;
		return (Aff){1, k + c.c, 0};
	}
	/* sext(i): lo = i, hi = SHF.R.S32.HI hi, RZ, 0x1f, i */
	ih = vdef(f, hi);
	if (a.ok && a.pure && a.c == 1 && ih && !ih->guarded && ih->op == OSHF &&
	    hasmod(f, ih, "R") && hasmod(f, ih, "S32") && hasmod(f, ih, "HI") && ih->nopnd == 4 &&
	    is_rz(&ih->opnd[1]) && ih->opnd[2].kind == OImm && ih->opnd[2].imm == 31) {
		Aff s = aff_opnd(x, ih, 3, depth);
		if (s.ok && s.pure && s.c == 1)
			return (Aff){1, 1, 1};
		return Bad;
	}
	/* x << k: SHF.L.U32 lo, xlo, k, RZ and SHF.L.U64.HI hi, xlo, k, xhi */
	if ((i = vdef(f, lo)) && ih && !i->guarded && !ih->guarded && i->op == OSHF &&
	    ih->op == OSHF && hasmod(f, i, "L") && hasmod(f, i, "U32") && hasmod(f, ih, "L") &&
	    hasmod(f, ih, "U64") && hasmod(f, ih, "HI") && i->nopnd == 4 && ih->nopnd == 4 &&
	    i->opnd[2].kind == OImm && ih->opnd[2].kind == OImm &&
	    i->opnd[2].imm == ih->opnd[2].imm && i->opnd[2].imm >= 0 && i->opnd[2].imm < 32 &&
	    is_rz(&i->opnd[3]) && useval(i, 1, 0) == useval(ih, 1, 0) && useval(i, 1, 0)) {
		Aff s = aff64(x, useval(i, 1, 0), useval(ih, 3, 0), depth + 1);
		if (!s.ok)
			return Bad;
		return (Aff){1, s.c * ((int64_t)1 << i->opnd[2].imm), 0};
	}
	/* x + y: IADD3 lo, Pc, xlo, ylo, RZ and IADD3.X hi, xhi, yhi, RZ, Pc, !PT */
	if ((i = vdef(f, lo)) && ih && !i->guarded && !ih->guarded && i->op == OIADD3 &&
	    ih->op == OIADD3 && !hasmod(f, i, "X") && hasmod(f, ih, "X") && i->nopnd == 5 &&
	    ih->nopnd == 6 && is_rz(&i->opnd[4]) && is_rz(&ih->opnd[3]) &&
	    useval(ih, 4, 0) && useval(ih, 4, 0) == i->slot[1].v[0] && i->slot[1].kind == SDef &&
	    i->slot[1].opnd == 1) {
		Aff s = Bad, t = Bad;
		/* each of the two sources: a register pair (R lo with R hi) or a constant pair */
		for (unsigned k = 2; k <= 3; k++) {
			const Opnd *ol = &i->opnd[k], *oh = &ih->opnd[k - 1];
			Aff r;
			if ((ol->flags | oh->flags) & (FNeg | FNot | FAbs))
				return Bad;
			if (ol->kind == OReg && oh->kind == OReg && !is_rz(ol))
				r = aff64(x, useval(i, k, 0), useval(ih, k - 1, 0), depth + 1);
			else if (ol->kind == OCBank && oh->kind == OCBank)
				r = Inv;
			else
				return Bad;
			if (k == 2)
				s = r;
			else
				t = r;
		}
		if (!s.ok || !t.ok)
			return Bad;
		return (Aff){1, s.c + t.c, 0};
	}
	return Bad;
}

/* ---- the checks ----------------------------------------------------------------------------- */

static const char *
why_fmt(Fn *f, const char *fmt, const char *a)
{
	char buf[160];

	snprintf(buf, sizeof buf, fmt, a);
	return mstr(f->mod, mintern(f->mod, buf));
}

/* fmt has two %s: the opcode and where it is (" in the loop", " before the loop") */
static const char *
why_at(Fn *f, const char *fmt, const char *op, int inloop)
{
	char buf[160];

	snprintf(buf, sizeof buf, fmt, op, inloop == 1 ? " in the loop" : inloop == 2 ?
	         " in a subroutine the loop calls" : " outside the loop");
	return mstr(f->mod, mintern(f->mod, buf));
}

static const char *
why_reg(Fn *f, const char *fmt, Reg r)
{
	char name[16];

	reg_name(r, name, sizeof name);
	return why_fmt(f, fmt, name);
}

/* bytes a store writes */
static int
store_width(const Fn *f, const Ins *i)
{
	if (hasmod(f, i, "128"))
		return 16;
	if (hasmod(f, i, "64"))
		return 8;
	if (hasmod(f, i, "U8") || hasmod(f, i, "S8"))
		return 1;
	if (hasmod(f, i, "U16") || hasmod(f, i, "S16"))
		return 2;
	return 4;
}

/* the blocks of the loop and of the subroutines it calls */
static void
body_blocks(Fn *f, const Loop *l, uint8_t *body)
{
	uint32_t *stk = xmalloc((f->nblk + 1) * sizeof *stk), sp = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		if (l->in[b]) {
			Blk *c = cfg_callee(f, f->blk[b]);
			body[b] = 1;
			if (c && !body[c->id] && !l->in[c->id]) {
				body[c->id] = 2;
				stk[sp++] = c->id;
			}
		}
	while (sp) {
		Blk *x = f->blk[stk[--sp]];
		Blk *c = cfg_callee(f, x);
		if (c && !body[c->id]) {
			body[c->id] = 2;
			stk[sp++] = c->id;
		}
		for (uint32_t s = 0; s < x->nsucc; s++)
			if (!body[x->succ[s]->id]) {
				body[x->succ[s]->id] = 2;
				stk[sp++] = x->succ[s]->id;
			}
	}
	free(stk);
}

static int
exit_block(const Blk *b)
{
	return b->nins && b->ins[0].op == OEXIT && !b->ins[0].guarded;
}

/* the stride factors of operand k of i: blockDim/gridDim words c[0x0][0x0..0x14] as operands,
 * copies of them (MOV, IMAD.MOV, ULDC, LDC) and products of them (IMAD/UIMAD x, y, RZ), at most
 * two in all, appended to off[*n]; 0 ok */
static int
stride_words(const Fn *f, const Ins *i, unsigned k, int *off, int *n, int depth)
{
	const Opnd *o = &i->opnd[k];
	Ins *d;
	int s;

	if ((o->flags & (FNeg | FNot | FAbs)) || depth > 6)
		return -1;
	if (o->kind == OCBank && o->r[0] == RNone && !(o->flags & FCx) && o->imm2 == 0 &&
	    o->imm >= 0 && o->imm <= 0x14 && o->imm % 4 == 0) {
		if (*n == 2)
			return -1;
		off[(*n)++] = (int)o->imm;
		return 0;
	}
	if (o->kind != OReg || o->sfx[0])
		return -1;
	d = vdef(f, useval(i, k, 0));
	if (!d || d->guarded)
		return -1;
	if ((d->op == OULDC || d->op == OLDC) && d->nmod == 0 && d->nopnd == 2)
		return stride_words(f, d, 1, off, n, depth + 1);
	if (d->op == OUMOV && d->nmod == 0 && d->nopnd == 2)
		return stride_words(f, d, 1, off, n, depth + 1);
	if ((s = copy_src(f, d)) >= 0)
		return stride_words(f, d, (unsigned)s, off, n, depth + 1);
	if ((d->op == OIMAD || d->op == OUIMAD) && d->nmod == 0 && d->nopnd == 4 &&
	    is_rz(&d->opnd[3]))
		return stride_words(f, d, 1, off, n, depth + 1) < 0 ? -1
		     : stride_words(f, d, 2, off, n, depth + 1);
	return -1;
}

/* i + S: the stride's factors into s->step_off; 0 ok */
static int
stride_of(Fn *f, const Ins *d, uint32_t iv, Split *s)
{
	int n = 0;

	s->step_off[0] = s->step_off[1] = -1;
	if (!d || d->guarded)
		return -1;
	if ((d->op == OIADD3 && d->nmod == 0 && d->nopnd == 4) ||
	    (d->op == OVIADD && d->nmod == 0 && d->nopnd == 3)) {
		int seen = 0;
		for (unsigned k = 1; k < d->nopnd; k++) {
			if (d->opnd[k].kind == OReg && !d->opnd[k].flags && useval(d, k, 0) == iv &&
			    !seen) {
				seen = 1;
				continue;
			}
			if (is_rz(&d->opnd[k]))
				continue;
			if (stride_words(f, d, k, s->step_off, &n, 0) < 0)
				return -1;
		}
		return seen && n ? 0 : -1;
	}
	if (d->op == OIMAD && d->nmod == 0 && d->nopnd == 4 && useval(d, 3, 0) == iv &&
	    !d->opnd[3].flags && stride_words(f, d, 1, s->step_off, &n, 0) == 0 &&
	    stride_words(f, d, 2, s->step_off, &n, 0) == 0)
		return 0;
	return -1;
}

/* the latch's exit test: continue while ivn < bound */
static int
exit_test(Fn *f, const Loop *l, uint32_t ivn, Split *s)
{
	Blk *b = l->latch;
	Ins *br, *c;
	const char *cmp;
	int neg;
	int64_t k;

	if (!b->nins)
		return -1;
	br = &b->ins[b->nins - 1];
	if (br->op != OBRA || !br->guarded || br->nopnd != 1 || br->opnd[0].kind != OLabel)
		return -1;
	neg = (br->guard.flags & (FLNot | FNot)) != 0;
	c = vdef(f, guardval(br));
	if (!c || c->guarded || c->op != OISETP || c->nmod != 2 || c->nopnd != 5 ||
	    strcmp(mstr(f->mod, c->mod[1]), "AND") != 0 || !is_pt(&c->opnd[1]) ||
	    !is_pt(&c->opnd[4]) || c->opnd[2].kind != OReg || c->opnd[2].flags ||
	    useval(c, 2, 0) != ivn)
		return -1;
	s->bound_off = -1;
	if (c->opnd[3].kind != OImm && (s->bound_off = param_word(f, c, 3, 0)) < 0)
		return -1;
	/* the branch to the header is taken while ivn < bound */
	if (b->nsucc != 2 || (b->succ[0] != l->head && b->succ[1] != l->head))
		return -1;
	cmp = mstr(f->mod, c->mod[0]);
	k = s->bound_off < 0 ? (int32_t)c->opnd[3].imm : 0;
	if ((!strcmp(cmp, "LT") && !neg) || (!strcmp(cmp, "GE") && neg))
		s->bound = k;
	else if (s->bound_off < 0 && ((!strcmp(cmp, "LE") && !neg) || (!strcmp(cmp, "GT") && neg)))
		s->bound = k + 1;
	else
		return -1;
	return 0;
}

static int
live_phi(const Fn *f, uint32_t v, int depth)
{
	const Val *a = &f->val[v];

	if (depth > 8)
		return 1;
	for (uint32_t u = 0; u < a->nuse; u++) {
		if (!a->use[u].isphi)
			return 1;
		if (a->use[u].phi->to != v && live_phi(f, a->use[u].phi->to, depth + 1))
			return 1;
	}
	return 0;
}

static uint32_t
pred_index(const Blk *b, const Blk *p)
{
	for (uint32_t k = 0; k < b->npred; k++)
		if (b->pred[k] == p)
			return k;
	return UINT32_MAX;
}

/* the whole kernel: what every fiber runs (the prefix is run again by the new fibers) */
static const char *
kernel_check(Fn *f, const uint8_t *body, int *nvload)
{
	if (!f->info.is_entry)
		return "a device function, not a kernel";
	if (f->info.maxfibers > 0 || f->npool)
		return "already FIBER code (.maxfibers or pools)";
	if (f->info.frame_size > 0)
		return "uses local memory (a stack frame): new fibers' frames are not the threads'";
	if (f->blk[0]->npred)
		return "the entry block is a loop header: no SETFIBERNUM point before the loop";
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		if (bk->rpo == UINT32_MAX && !body[b])
			continue;
		for (uint32_t k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			uint32_t fl = i->op < NOp ? optab[i->op].flags : 0;
			const char *n = opname(f, i);
			if (i->op >= NOp || i->op == Ounknown)
				return why_fmt(f, "unknown opcode %s", n);
			if (fl & OFFiber)
				return "already FIBER code (a FIBER instruction)";
			if (fl & OFCollective)
				return why_at(f, "warp-collective %s%s: a weft would mix copies of threads", n, body[b]);
			if ((fl & OFBarrier) && i->op != OBSYNC)
				return why_at(f, "barrier %s%s", n, body[b]);
			if (fl & (OFShared | OFLocal | OFGeneric))
				return why_at(f, "%s%s: shared, local or generic memory", n, body[b]);
			if (fl & OFAtomic)
				return why_at(f, "atomic %s%s", n, body[b]);
			if ((fl & OFLoad) && (fl & OFGlobal) && !hasmod(f, i, "CONSTANT")) {
				if (body[b] != 1)
					return why_at(f, "%s without .CONSTANT%s: may read what the loop writes", n, body[b]);
				(*nvload)++;   /* versioned on a run-time check (access_check) */
			}
			if ((fl & OFLoad) && !(fl & (OFGlobal | OFConst)))
				return why_at(f, "load %s%s", n, body[b]);
			if ((fl & (OFStore)) && body[b] != 1)
				return why_fmt(f, "%s outside the loop: new fibers would store again", n);
			for (unsigned o = 0; o < i->nopnd; o++)
				if (i->opnd[o].kind == OSReg) {
					const char *sr = mstr(f->mod, i->opnd[o].atom);
					if (!strcmp(sr, "SR_TID.Z"))
						return "SR_TID.Z read (a new fiber's TID.Z differs from its thread's)";
					/* SR_CgaCtaId: the CTA's rank in its cluster, the same for
					 * a thread and its copies (one CTA) */
					if (strcmp(sr, "SR_TID.X") && strcmp(sr, "SR_TID.Y") &&
					    strncmp(sr, "SR_CTAID.", 9) && strcmp(sr, "SRZ") &&
					    strcmp(sr, "SR_CgaCtaId") && strcmp(sr, "SR_CGACTAID"))
						return why_fmt(f, "%s read (differs between a thread and its copies)",
						               sr);
				}
		}
	}
	return NULL;
}

/* the first register above every R register the function uses or declares */
int
split_base(const Fn *f)
{
	int n = f->info.regcount > 0 ? f->info.regcount : 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned t = 0; t < i->nslot; t++)
				if (RCLS(i->slot[t].reg) == RR && RNUM(i->slot[t].reg) != RegRZ &&
				    (int)(RNUM(i->slot[t].reg) + i->slot[t].n) > n)
					n = (int)(RNUM(i->slot[t].reg) + i->slot[t].n);
		}
	return n;
}

/* the loop leaves once, by the latch's test, into EXIT; NULL, or why not */
static const char *
exits_check(const Loop *l, const Fn *f)
{
	uint32_t nexit = 0;

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		if (!l->in[b])
			continue;
		for (uint32_t k = 0; k < bk->nins; k++)
			if (bk->ins[k].op < NOp && (optab[bk->ins[k].op].flags & (OFExit | OFRet)))
				return "an EXIT inside the loop (an early return): iterations depend on earlier ones";
		for (uint32_t k = 0; k < bk->nsucc; k++)
			if (!l->in[bk->succ[k]->id]) {
				nexit++;
				if (bk != l->latch)
					return "an exit besides the latch's test (a break)";
				if (!exit_block(bk->succ[k]))
					return "code after the loop (the exit is not EXIT)";
			}
	}
	return nexit != 1 ? "not one exit" : NULL;
}

/* value v, through copies, is S2R SR_name */
static int
is_sreg(const Fn *f, uint32_t v, const char *name)
{
	Ins *i = vdef(f, v);
	int k;

	while ((k = copy_src(f, i)) >= 0 && i->opnd[k].kind == OReg)
		i = vdef(f, useval(i, (unsigned)k, 0));
	return i && i->op == OS2R && i->nopnd == 2 && i->opnd[1].kind == OSReg && !i->guarded &&
	       !strcmp(mstr(f->mod, i->opnd[1].atom), name);
}

/* i's start: 1 SR_TID.X, 2 SR_CTAID.X * blockDim.x + SR_TID.X (IMAD, either order of the
 * product), 0 anything else */
static int
start_kind(const Fn *f, const Ins *i0)
{
	if (!i0 || i0->guarded)
		return 0;
	if (i0->op == OS2R && i0->nopnd == 2 && i0->opnd[1].kind == OSReg &&
	    !strcmp(mstr(f->mod, i0->opnd[1].atom), "SR_TID.X"))
		return 1;
	if (i0->op == OIMAD && i0->nmod == 0 && i0->nopnd == 4 && i0->opnd[3].kind == OReg &&
	    !i0->opnd[3].flags && is_sreg(f, useval(i0, 3, 0), "SR_TID.X"))
		for (unsigned a = 1; a <= 2; a++)
			if (i0->opnd[a].kind == OReg && !i0->opnd[a].flags &&
			    is_sreg(f, useval(i0, a, 0), "SR_CTAID.X") && param_word(f, i0, 3 - a, 0) == 0)
				return 2;
	return 0;
}

/* the induction value: the header's live phi stepped by i += S (any other live phi is a value
 * carried from one iteration to the next), the exit test i + S < N, and whether i starts at
 * SR_TID.X (a copy of it), which bounds the trip count; into s. NULL, or why not */
static const char *
induction(Fn *f, const Loop *l, Cx *x, Split *s)
{
	Blk *h = l->head;
	uint32_t pidx = pred_index(h, s->pre), lidx = pred_index(h, l->latch);
	Ins *i0;
	int k;

	for (Phi *p = h->phi; p; p = p->link) {
		Split t = *s;
		Ins *di;
		if (!live_phi(f, p->to, 0))
			continue;
		di = vdef(f, p->arg[lidx]);
		if (!s->iv && RCLS(p->reg) == RR && di && x->body[f->val[p->arg[lidx]].blk->id] &&
		    stride_of(f, di, p->to, &t) == 0) {
			*s = t;
			s->iv = p->to;
			s->iv0 = p->arg[pidx];
			s->ivn = p->arg[lidx];
		}
	}
	for (Phi *p = h->phi; p; p = p->link)
		if (p->to != s->iv && live_phi(f, p->to, 0))
			return why_reg(f, s->iv ? "loop-carried value %s (a reduction or a recurrence)"
			                        : "loop-carried value %s: not i += blockDim (or "
			                          "blockDim*gridDim)", p->reg);
	if (!s->iv)
		return "no induction variable";
	x->iv = s->iv;
	s->grid_stride = s->step_off[0] >= 0xc || s->step_off[1] >= 0xc;
	if (exit_test(f, l, s->ivn, s) < 0)
		return "exit test is not i + S < N with N an immediate or a parameter";
	i0 = vdef(f, s->iv0);
	while ((k = copy_src(f, i0)) >= 0 && i0->opnd[k].kind == OReg)
		i0 = vdef(f, useval(i0, (unsigned)k, 0));
	s->start_tid = start_kind(f, i0);
	return NULL;
}

/* the body: loads read only, stores (STG in the loop's own blocks) at c*i + invariant through
 * one base and one address value, disjoint between iterations; counts into s. NULL, or why not */
static const char *
stores_check(Fn *f, Cx *x, Split *s)
{
	Reg sbase = RNone;
	int64_t lo = INT64_MAX, hi = INT64_MIN, coef = 0;
	uint32_t v0 = 0;

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		if (!x->body[b])
			continue;
		for (uint32_t k = 0; k < bk->nins; k++) {
			Ins *i = &bk->ins[k];
			uint32_t fl = i->op < NOp ? optab[i->op].flags : 0;
			Aff a;
			if ((fl & OFLoad) && (fl & OFGlobal))
				s->nload++;
			if (!(fl & OFStore))
				continue;
			s->nstore++;
			if (i->op != OSTG || i->opnd[0].kind != OMem || x->body[b] != 1)
				return why_fmt(f, "%s in the loop: not a global store in its body", opname(f, i));
			a = aff64(x, useval(i, 0, 0), useval(i, 0, 1), 0);
			if (!a.ok || !a.c)
				return "a store address not affine in the induction variable (iterations may collide)";
			if (sbase == RNone)
				sbase = i->opnd[0].r[0], coef = a.c;
			else if (i->opnd[0].r[0] != sbase || a.c != coef)
				return "stores through different addresses (they may overlap between iterations)";
			if (i->opnd[0].imm < lo)
				lo = i->opnd[0].imm;
			if (i->opnd[0].imm + store_width(f, i) > hi)
				hi = i->opnd[0].imm + store_width(f, i);
		}
	}
	if (!s->nstore)
		return "no store in the loop: nothing to split";
	if (hi - lo > (coef < 0 ? -coef : coef))
		return "stores of one iteration overlap the next one's";
	for (uint32_t b = 0; s->nstore > 1 && b < f->nblk; b++)
		for (uint32_t k = 0; x->body[b] == 1 && k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (i->op != OSTG)
				continue;
			if (!v0)
				v0 = useval(i, 0, 0);
			else if (useval(i, 0, 0) != v0)
				return "stores through different address values";
		}
	return NULL;
}

/* a global access p[i] through IMAD.WIDE addr, i, k, p with p the pointer parameter at
 * c[0x0][P] (as an operand, or a register pair loaded by LDC.64), k > 0 an immediate, and the
 * access within [0, k) of its element: into *a; 0 ok */
static int
access_of(const Cx *x, const Ins *i, VAcc *a)
{
	const Fn *f = x->f;
	unsigned k = 0;
	Ins *w, *b;
	int64_t sc = 0;
	Aff ix;

	while (k < i->nopnd && i->opnd[k].kind != OMem)
		k++;
	if (k == i->nopnd || i->opnd[k].r[0] == RNone)
		return -1;
	w = pair_def(f, useval(i, k, 0), useval(i, k, 1));
	if (!w || w->guarded || w->op != OIMAD || !hasmod(f, w, "WIDE") || hasmod(f, w, "U32") ||
	    w->nopnd != 4)
		return -1;
	ix = aff_opnd(x, w, 1, 0);
	if (!ix.ok || !ix.pure || ix.c != 1)
		return -1;
	if (w->opnd[2].kind == OImm)
		sc = (int32_t)w->opnd[2].imm;
	else if (w->opnd[2].kind != OReg || (w->opnd[2].flags & ~FReuse) ||
	         cst32(f, useval(w, 2, 0), &sc) < 0)
		return -1;
	if (sc <= 0 || i->opnd[k].imm < 0 || i->opnd[k].imm + store_width(f, i) > sc)
		return -1;
	a->k = sc;
	if ((a->poff = param_word(f, w, 3, 0)) >= 0)
		return 0;
	b = w->opnd[3].kind == OReg ? pair_def(f, useval(w, 3, 0), useval(w, 3, 1)) : NULL;
	if (!b || b->guarded || b->op != OLDC || b->nmod != 1 || !hasmod(f, b, "64") ||
	    b->nopnd != 2 || (a->poff = param_word(f, b, 1, 0)) < 0)
		return -1;
	return 0;
}

/* the loop's global accesses, for the run-time check of a versioned split: every load and
 * store of the body is p[i] (access_of); NULL, or why not */
static const char *
access_check(Cx *x, Split *s)
{
	Fn *f = x->f;

	s->nacc = 0;
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; x->body[b] && k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			uint32_t fl = i->op < NOp ? optab[i->op].flags : 0;
			VAcc a = {0};
			if (!(fl & (OFLoad | OFStore)) || !(fl & OFGlobal))
				continue;
			if (access_of(x, i, &a) < 0)
				return why_fmt(f, "%s address not p[i] with p a parameter: its range cannot "
				               "be checked at run time", opname(f, i));
			if (s->nacc == MaxVAcc)
				return "more than 16 memory accesses in the loop to check at run time";
			a.store = (fl & OFStore) != 0;
			s->acc[s->nacc++] = a;
		}
	return NULL;
}

/* the most threads of a CTA: the launch bounds (.reqntid, else .maxntid), 1024 without them */
static int
threads_max(const Fn *f)
{
	const int *n = f->info.reqntid[0] > 0 ? f->info.reqntid
	             : f->info.max_threads[0] > 0 ? f->info.max_threads : NULL;

	if (!n)
		return 1024;
	return n[0] * (n[1] > 0 ? n[1] : 1) * (n[2] > 0 ? n[2] : 1);
}

const char *
split_check(Fn *f, const Loop *l, Split *s)
{
	Cx x = {f, l, NULL, 0};
	Blk *h = l->head, *pre = NULL;
	const char *why = NULL;
	uint32_t np = 0;

	memset(s, 0, sizeof *s);
	s->loop = l;
	if (!f->in_ssa || !f->val)
		return "not in SSA form";
	if (!l->latch)
		return "several back edges (continue statements): not one strided loop";
	for (uint32_t p = 0; p < h->npred; p++)
		if (!l->in[h->pred[p]->id])
			pre = h->pred[p], np++;
	if (np != 1 || pre->nsucc != 1)
		return "no preheader (the loop is entered from several places)";
	s->pre = pre;
	x.body = xmalloc(f->nblk);
	memset(x.body, 0, f->nblk);
	body_blocks(f, l, x.body);
	if (!(why = kernel_check(f, x.body, &s->nvload)) && !(why = exits_check(l, f)) &&
	    !(why = induction(f, l, &x, s))) {
		/* loads of writable memory, or stores through several parameters: versioned on a
		 * run-time check that the ranges are disjoint (every access p[i]) */
		const char *ws = stores_check(f, &x, s);
		if (ws && !strstr(ws, "different"))
			why = ws;
		else if (s->nvload || ws) {
			why = access_check(&x, s);
			s->versioned = !why;
			s->nload = 0;
			for (int k = 0; k < s->nacc; k++)
				s->nload += !s->acc[k].store;
		}
	}
	if (!why && split_base(f) + 2 > RegLimitR)
		why = "no registers left above the kernel's for j*S and (m-1)*S";
	s->tmax = threads_max(f);
	if (!why && (s->step_off[0] != 0 || s->step_off[1] >= 0) && !s->grid_stride)
		why = "stride is not blockDim.x";
	if (!why && s->grid_stride && !(s->step_off[0] == 0 && s->step_off[1] == 0xc) &&
	    !(s->step_off[0] == 0xc && s->step_off[1] == 0))
		why = "stride is not blockDim.x * gridDim.x";
	if (!why && s->versioned && s->start_tid == 0)
		why = "versioned, but the start is not threadIdx.x or blockIdx.x*blockDim.x+threadIdx.x";
	free(x.body);
	return why;
}

/* ---- the rewrite ---------------------------------------------------------------------------- */

typedef struct Em {
	Fn *f;
	Blk *b;
	uint32_t at;       /* next position in b */
	uint32_t *cur;     /* per unit: the value a read of the register gets */
} Em;

/* insert `[@guard] NAME.MODS opnds` at e->at; uses read e->cur, defs update it */
static Ins *
emit(Em *e, const char *name, const char *mods, Reg guard, int gneg, int n, ...)
{
	Fn *f = e->f;
	Ins p = {0}, *i;
	Opnd o[8];
	uint32_t mv[MaxMod];
	va_list ap;
	char buf[64];
	unsigned nm = 0;

	va_start(ap, n);
	for (int k = 0; k < n; k++)
		o[k] = va_arg(ap, Opnd);
	va_end(ap);
	if (mods) {
		snprintf(buf, sizeof buf, "%s", mods);
		for (char *t = strtok(buf, "."); t && nm < MaxMod; t = strtok(NULL, "."))
			mv[nm++] = mintern(f->mod, t);
	}
	p.op = (uint16_t)op_lookup(name, strlen(name));
	p.name = mintern(f->mod, name);
	p.nopnd = (uint8_t)n;
	p.opnd = o;
	p.nmod = (uint8_t)nm;
	p.mod = mv;
	p.addr = -1;
	p.nenc = 0;
	if (guard != RNone) {
		p.guarded = 1;
		p.guard.kind = OReg;
		p.guard.flags = gneg ? FLNot : 0;
		p.guard.r[0] = guard;
	}
	if (!(i = ins_insert(f, e->b, e->at, &p)))
		return NULL;
	e->at++;
	for (unsigned s = 0; s < i->nslot; s++)
		for (unsigned m = 0; i->slot[s].kind != SDef && m < i->slot[s].n; m++) {
			int u = reg_unit(reg_next(i->slot[s].reg, m));
			if (u >= 0 && e->cur[u])
				ins_setuse(f, i, s, m, e->cur[u]);
		}
	for (unsigned s = 0; s < i->nslot; s++)
		for (unsigned m = 0; i->slot[s].kind == SDef && m < i->slot[s].n; m++) {
			int u = reg_unit(reg_next(i->slot[s].reg, m));
			if (u >= 0 && i->slot[s].v)
				e->cur[u] = i->slot[s].v[m];
		}
	return i;
}

#define E(e, name, mods, ...) \
	do { if (!emit(e, name, mods, RNone, 0, __VA_ARGS__)) goto fail; } while (0)
#define EG(e, g, neg, name, mods, ...) \
	do { if (!emit(e, name, mods, g, neg, __VA_ARGS__)) goto fail; } while (0)

/* registers (R, P, UR) with a value live into the kernel: the entry code must not clobber them */
static void
entry_live(const Fn *f, uint8_t *live)
{
	for (uint32_t v = 1; v < f->nval; v++)
		if (f->val[v].ver == 0 && f->val[v].nuse) {
			int u = reg_unit(f->val[v].reg);
			if (u >= 0)
				live[u] = 1;
		}
}

static Reg
pick(const uint8_t *live, uint8_t *taken, unsigned cls, int n)
{
	for (int k = 0; k < n; k++) {
		Reg r = REG(cls, k);
		int u = reg_unit(r);
		if (u >= 0 && !live[u] && !taken[u]) {
			taken[u] = 1;
			return r;
		}
	}
	return RNone;
}

/* a predicate free at the end of the preheader (not live into the header) */
static Reg
free_pred(Fn *f, Blk *h)
{
	Live *lv = live_build(f, NumArchUnit);
	Reg r = RNone;

	for (int k = 0; lv && k < 7 && r == RNone; k++)
		if (!live_has(lv, lv->in + (size_t)h->id * lv->nword, (uint32_t)reg_unit(REG(RP, k))))
			r = REG(RP, k);
	live_free(lv);
	return r;
}

/* a free even-aligned pair of class cls below n (a 64-bit destination) */
static Reg
pick_pair(const uint8_t *live, uint8_t *taken, unsigned cls, int n)
{
	for (int k = 2; k + 1 < n; k += 2) {
		int u = reg_unit(REG(cls, k)), v = reg_unit(REG(cls, k + 1));
		if (u >= 0 && v >= 0 && !live[u] && !taken[u] && !live[v] && !taken[v]) {
			taken[u] = taken[v] = 1;
			return REG(cls, k);
		}
	}
	return RNone;
}

/* the guard's uniform registers: N, S, a scratch, two pairs for the ends of two ranges, one for
 * a pointer; predicates: `bad` (a condition so far failed: each failing compare is ORed into
 * it, one instruction per condition), two scratch ones. `bad`, not `ok`: wefts that
 * SETFIBERNUM starts have their predicates false, that is, not bad (they exist only then) */
typedef struct SGuard {
	Reg n, s, t, ea, eb, pp, p1, p2, bad;
	int started;       /* bad holds a condition (the first compare ANDs with UPT) */
} SGuard;

static int
sguard_pick(SGuard *g, const uint8_t *live, uint8_t *taken, int versioned)
{
	Reg *r[] = {&g->n, &g->s, &g->t};

	for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
		if ((*r[k] = pick(live, taken, RUR, 63)) == RNone)
			return -1;
	g->ea = g->eb = g->pp = REG(RUR, RegURZ);
	if (versioned && ((g->ea = pick_pair(live, taken, RUR, 63)) == RNone ||
	    (g->eb = pick_pair(live, taken, RUR, 63)) == RNone ||
	    (g->pp = pick_pair(live, taken, RUR, 63)) == RNone))
		return -1;
	g->p1 = pick(live, taken, RUP, 7);
	g->p2 = pick(live, taken, RUP, 7);
	g->bad = pick(live, taken, RUP, 7);
	g->started = 0;
	return g->p1 == RNone || g->p2 == RNone || g->bad == RNone ? -1 : 0;
}

/* the condition (a cmp k), unsigned, must hold: bad = !(a cmp k) OR bad (AND UPT the first) */
static int
guard_cmp(Em *e, SGuard *g, const char *cmp, Opnd a, Opnd k)
{
	static const char *const neg[][2] = {{"LT", "GE"}, {"GE", "LT"}, {"LE", "GT"}, {"GT", "LE"},
	                                     {"EQ", "NE"}, {"NE", "EQ"}};
	const Opnd upt = mkreg(REG(RUP, RegUPT));
	const char *nc = NULL;
	char mods[32];
	int first = !g->started;

	for (size_t q = 0; q < sizeof neg / sizeof neg[0]; q++)
		if (strcmp(neg[q][0], cmp) == 0)
			nc = neg[q][1];
	if (!nc)
		return -1;
	g->started = 1;
	snprintf(mods, sizeof mods, "%s.U32.%s", nc, first ? "AND" : "OR");
	return emit(e, "UISETP", mods, RNone, 0, 5, mkreg(g->bad), upt, a, k,
	            first ? upt : mkreg(g->bad)) ? 0 : -1;
}

/* pair r = p + k*N: the end of access a's bytes over i in [0, N) (access_of keeps each access
 * inside [p + k*i, p + k*(i+1))); p into g->pp */
static int
guard_end(Em *e, const SGuard *g, const VAcc *a, Reg r)
{
	if (!emit(e, "ULDC", "64", RNone, 0, 2, mkreg(g->pp), mkcbank(0, a->poff)))
		return -1;
	return emit(e, "UIMAD", "WIDE.U32", RNone, 0, 4, mkreg(r), mkreg(g->n), mkimm(a->k),
	            mkreg(g->pp)) ? 0 : -1;
}

/* p2 = (ea <= pb) || (eb <= pa), 64-bit unsigned; it must hold (t = p2 ? 0 : 1; t == 0) */
static int
guard_disjoint(Em *e, SGuard *g, const VAcc *x, const VAcc *y)
{
	const Opnd upt = mkreg(REG(RUP, RegUPT)), urz = mkreg(REG(RUR, RegURZ));
	Opnd hia = mkreg(REG(RUR, RNUM(g->ea) + 1)), hib = mkreg(REG(RUR, RNUM(g->eb) + 1));
	Opnd hip = mkreg(REG(RUR, RNUM(g->pp) + 1));

	if (guard_end(e, g, x, g->ea) < 0 || guard_end(e, g, y, g->eb) < 0)
		return -1;
	/* g->pp holds y's pointer now */
	E(e, "UISETP", "LE.U32.AND", 5, mkreg(g->p1), upt, mkreg(g->ea), mkreg(g->pp), upt);
	E(e, "UISETP", "LE.U32.AND.EX", 6, mkreg(g->p1), upt, hia, hip, upt, mkreg(g->p1));
	E(e, "ULDC", "64", 2, mkreg(g->pp), mkcbank(0, x->poff));
	E(e, "UISETP", "LE.U32.AND", 5, mkreg(g->p2), upt, mkreg(g->eb), mkreg(g->pp), upt);
	E(e, "UISETP", "LE.U32.OR.EX", 6, mkreg(g->p2), upt, hib, hip, mkreg(g->p1), mkreg(g->p2));
	E(e, "USEL", NULL, 4, mkreg(g->t), urz, mkimm(1), mkreg(g->p2));
	return guard_cmp(e, g, "EQ", mkreg(g->t), urz);
fail:
	return -1;
}

int
split_ranges(const Split *s, VAcc *u)
{
	int n = 0;

	for (int a = 0; a < s->nacc; a++) {
		int j;
		for (j = 0; j < n && (u[j].poff != s->acc[a].poff || u[j].k != s->acc[a].k); j++)
			;
		if (j == n)
			u[n++] = s->acc[a];
		else
			u[j].store |= s->acc[a].store;
	}
	return n;
}

/* the run-time conditions of docs/pass-phases.md ("Run-time guard"), in the uniform datapath
 * before SETFIBERNUM: g->bad is true when one fails (then the launch's fibers run the input's
 * loop); m = 2^lg */
static int
guard_emit(Em *e, const Split *s, SGuard *g, int lg)
{
	const Opnd urz = mkreg(REG(RUR, RegURZ)), upt = mkreg(REG(RUP, RegUPT));
	const Opnd t = mkreg(g->t), n = mkreg(g->n);
	VAcc u[MaxVAcc];
	int nu;

	if (s->bound_off >= 0)
		E(e, "ULDC", NULL, 2, n, mkcbank(0, s->bound_off));
	else
		E(e, "UMOV", NULL, 2, n, mkimm(s->bound));
	E(e, "ULDC", NULL, 2, mkreg(g->s), mkcbank(0, 0x0));
	if (s->grid_stride || s->guard_grid || s->start_tid == 2) {
		/* S = blockDim.x * gridDim.x and the start blockIdx.x*blockDim.x+threadIdx.x do not
		 * wrap: 0 <= i (the ranges of versioning) */
		E(e, "ULDC", NULL, 2, t, mkcbank(0, 0xc));
		if (guard_cmp(e, g, "LT", t, mkimm(s->guard_grid ? s->guard_grid + 1 : 0x100000)) < 0)
			goto fail;
		if (s->grid_stride)
			E(e, "UIMAD", NULL, 4, mkreg(g->s), mkreg(g->s), t, urz);
	}
	for (int off = 0x10; s->guard_grid && off <= 0x14; off += 4) {   /* gridDim = (g, 1, 1) */
		E(e, "ULDC", NULL, 2, t, mkcbank(0, off));
		if (guard_cmp(e, g, "EQ", t, mkimm(1)) < 0)
			goto fail;
	}
	if (s->guard_trips) {   /* 1 <= N < 2^30, m*S <= 2^30, N >= (2m+1)*S */
		E(e, "UIADD3", NULL, 4, t, n, mkimm(-1), urz);
		if (guard_cmp(e, g, "LT", t, mkimm(0x3fffffff)) < 0 ||
		    guard_cmp(e, g, "LE", mkreg(g->s), mkimm(0x40000000 >> lg)) < 0)
			goto fail;
		E(e, "UIMAD", NULL, 4, t, mkreg(g->s), mkimm(2 * (1 << lg) + 1), urz);
		if (guard_cmp(e, g, "GE", n, t) < 0)
			goto fail;
	}
	/* versioned: every stored range against every other range (split_ranges: each (p, k)
	 * once, its accesses' ranges are the same) */
	nu = s->versioned ? split_ranges(s, u) : 0;
	for (int a = 0; a < nu; a++)
		for (int b = a + 1; b < nu; b++) {
			if (!u[a].store && !u[b].store)
				continue;
			if (guard_disjoint(e, g, &u[a], &u[b]) < 0)
				goto fail;
		}
	if (!g->started)   /* no condition: bad = false */
		E(e, "UISETP", "NE.U32.AND", 5, mkreg(g->bad), upt, urz, urz, upt);
	return 0;
fail:
	return -1;
}

int
split_apply(Fn *f, Split *s, Diag *d)
{
	const Loop *l = s->loop;
	Blk *h = l->head, *pre = s->pre;
	uint8_t *live = xmalloc(NumUnit), *taken = xmalloc(NumUnit);
	Em e = {f, f->blk[0], 0, xmalloc(NumUnit * sizeof(uint32_t))};
	const Opnd rz = mkreg(REG(RR, RegRZ)), urz = mkreg(REG(RUR, RegURZ)),
	           pt = mkreg(REG(RP, RegPT));
	Reg rf, rt, rh, rj, rs, rjs, rd, p0, ua, ub, pq, ri;
	int lg = 0, base = split_base(f);
	uint32_t jsv, rdv, pidx = pred_index(h, pre), nu = 0, at;
	Use *uses = NULL;
	Ins *di, *ni;
	SGuard g = {0};
	int guarded = s->guard_trips || s->guard_grid || s->versioned;

	while ((1 << lg) < s->m)
		lg++;
	memset(live, 0, NumUnit);
	memset(taken, 0, NumUnit);
	memset(e.cur, 0, NumUnit * sizeof(uint32_t));
	entry_live(f, live);
	pq = free_pred(f, h);
	rf = pick(live, taken, RR, base);
	rt = pick(live, taken, RR, base);
	rh = pick(live, taken, RR, base);
	rj = pick(live, taken, RR, base);
	rs = pick(live, taken, RR, base);
	p0 = pick(live, taken, RP, 7);
	ua = pick(live, taken, RUR, 63);
	ub = pick(live, taken, RUR, 63);
	rjs = REG(RR, base);
	rd = REG(RR, base + 1);
	if (rf == RNone || rt == RNone || rh == RNone || rj == RNone || rs == RNone ||
	    p0 == RNone || ua == RNone || ub == RNone || pq == RNone || base + 2 > RegLimitR ||
	    (guarded && sguard_pick(&g, live, taken, s->versioned) < 0)) {
		free(live);
		free(taken);
		free(e.cur);
		return 1;   /* nothing edited yet: the loop is left alone */
	}
	/* the fiber count, then SETFIBERNUM: every weft is there, converged (the first
	 * instruction of the kernel) */
	E(&e, "ULDC", NULL, 2, mkreg(ua), mkcbank(0, 0x0));
	E(&e, "ULDC", NULL, 2, mkreg(ub), mkcbank(0, 0x4));
	E(&e, "UIMAD", NULL, 4, mkreg(ua), mkreg(ua), mkreg(ub), urz);
	E(&e, "ULDC", NULL, 2, mkreg(ub), mkcbank(0, 0x8));
	E(&e, "UIMAD", NULL, 4, mkreg(ua), mkreg(ua), mkreg(ub), urz);
	if (guarded) {   /* a condition fails: SETFIBERNUM to the launch's count, no copies */
		if (guard_emit(&e, s, &g, lg) < 0)
			goto fail;
		E(&e, "USHF", "L.U32", 4, mkreg(ub), mkreg(ua), mkimm(lg), urz);
		E(&e, "USEL", NULL, 4, mkreg(ua), mkreg(ua), mkreg(ub), mkreg(g.bad));
	} else
		E(&e, "USHF", "L.U32", 4, mkreg(ua), mkreg(ua), mkimm(lg), urz);
	E(&e, "SETFIBERNUM", NULL, 2, mkreg(ua), mkimm(s->nreg));
	/* j = SR_FIBERID / T by binary search over the m copies */
	E(&e, "S2R", NULL, 2, mkreg(rf), mksreg(mintern(f->mod, "SR_FIBERID")));
	E(&e, "IMAD", "MOV.U32", 4, mkreg(rt), rz, rz, mkcbank(0, 0x0));
	E(&e, "IMAD", NULL, 4, mkreg(rt), mkreg(rt), mkcbank(0, 0x4), rz);
	E(&e, "IMAD", NULL, 4, mkreg(rt), mkreg(rt), mkcbank(0, 0x8), rz);
	E(&e, "IMAD", "MOV.U32", 4, mkreg(rj), rz, rz, rz);
	for (int b = lg - 1; b >= 0; b--) {
		Opnd nh = mkreg(rh);
		nh.flags |= FNeg;
		E(&e, "SHF", "L.U32", 4, mkreg(rh), mkreg(rt), mkimm(b), rz);
		E(&e, "ISETP", "GE.U32.AND", 5, mkreg(p0), pt, mkreg(rf), mkreg(rh), pt);
		EG(&e, p0, 0, "IADD3", NULL, 4, mkreg(rf), mkreg(rf), nh, rz);
		EG(&e, p0, 0, "IADD3", NULL, 4, mkreg(rj), mkreg(rj), mkimm(1 << b), rz);
	}
	/* S, j*S, (m-1)*S */
	E(&e, "IMAD", "MOV.U32", 4, mkreg(rs), rz, rz, mkcbank(0, s->step_off[0]));
	if (s->step_off[1] >= 0)
		E(&e, "IMAD", NULL, 4, mkreg(rs), mkreg(rs), mkcbank(0, s->step_off[1]), rz);
	E(&e, "IMAD", NULL, 4, mkreg(rjs), mkreg(rj), mkreg(rs), rz);
	if (guarded) {   /* (m-1)*S, or 0 when the guard failed (j is 0 then: no copies) */
		E(&e, "USEL", NULL, 4, mkreg(ub), urz, mkimm(s->m - 1), mkreg(g.bad));
		E(&e, "IMAD", NULL, 4, mkreg(rd), mkreg(rs), mkreg(ub), rz);
	} else
		E(&e, "IMAD", NULL, 4, mkreg(rd), mkreg(rs), mkimm(s->m - 1), rz);
	jsv = e.cur[reg_unit(rjs)];
	rdv = e.cur[reg_unit(rd)];
	/* preheader: i0 += j*S; copies whose first iteration is past the end leave */
	ri = f->val[s->iv0].reg;
	e.b = pre;
	e.at = pre->nins;
	if (pre->nins && (pre->ins[pre->nins - 1].op == OBRA || pre->ins[pre->nins - 1].op == OJMP))
		e.at--;
	e.cur[reg_unit(ri)] = s->iv0;
	E(&e, "IADD3", NULL, 4, mkreg(ri), mkreg(ri), mkreg(rjs), rz);
	E(&e, "ISETP", "GE.AND", 5, mkreg(pq), pt, mkreg(ri),
	  s->bound_off >= 0 ? mkcbank(0, s->bound_off) : mkimm(s->bound), pt);
	E(&e, "ISETP", "NE.AND", 5, mkreg(pq), pt, mkreg(rjs), rz, mkreg(pq));
	EG(&e, pq, 0, "EXIT", NULL, 0);
	for (Phi *p = h->phi; p; p = p->link)
		if (p->to == s->iv)
			p->arg[pidx] = e.cur[reg_unit(ri)];
	/* latch: i += S; i += (m-1)*S */
	di = vdef(f, s->ivn);
	at = 0;
	while (at < f->val[s->ivn].blk->nins && &f->val[s->ivn].blk->ins[at] != di)
		at++;
	e.b = f->val[s->ivn].blk;
	e.at = at + 1;
	uses = xmalloc((f->val[s->ivn].nuse + 1) * sizeof *uses);
	nu = f->val[s->ivn].nuse;
	memcpy(uses, f->val[s->ivn].use, nu * sizeof *uses);
	e.cur[reg_unit(f->val[s->ivn].reg)] = s->ivn;
	e.cur[reg_unit(rd)] = rdv;
	(void)jsv;
	if (!(ni = emit(&e, "IADD3", NULL, RNone, 0, 4, mkreg(f->val[s->ivn].reg),
	                mkreg(f->val[s->ivn].reg), mkreg(rd), rz)))
		goto fail;
	{
		uint32_t nv = e.cur[reg_unit(f->val[s->ivn].reg)];
		/* the uses as recorded before the insert: instructions moved, so find them again
		 * by block position through the use list of the value, which edit.c patches */
		free(uses);
		nu = f->val[s->ivn].nuse;
		uses = xmalloc((nu + 1) * sizeof *uses);
		memcpy(uses, f->val[s->ivn].use, nu * sizeof *uses);
		for (uint32_t u = 0; u < nu; u++) {
			if (uses[u].isphi) {
				uses[u].phi->arg[uses[u].idx] = nv;
				continue;
			}
			if (uses[u].ins == ni)
				continue;
			for (unsigned m = 0; m < uses[u].ins->slot[uses[u].slot].n; m++)
				if (uses[u].ins->slot[uses[u].slot].v[m] == s->ivn)
					ins_setuse(f, uses[u].ins, uses[u].slot, m, nv);
		}
	}
	f->plan->setfibernum++;
	f->plan->maxfibers = s->m * s->tmax;
	free(uses);
	free(live);
	free(taken);
	free(e.cur);
	return 0;
fail:
	if (!d->nerr)
		error_plain(d, "phases: could not insert the SETFIBERNUM code into '%s'",
		            mstr(f->mod, f->name));
	free(uses);
	free(live);
	free(taken);
	free(e.cur);
	return -1;
}
