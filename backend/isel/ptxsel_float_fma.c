/* ptxsel_float_fma.c: ptxas's contraction of a mul and an add without rounding modifiers into
 * one fused multiply-add, for the float family (ptxsel_float.h).
 *
 * The PTX ISA (add, sub, mul: "Rounding modifiers") lets the code generator optimise add, sub
 * and mul.f32/.f64 written without a rounding modifier aggressively: a mul/add sequence may
 * become a fused multiply-add, which rounds once. ptxas does it, so its results differ from
 * FMUL + FADD in the last bit; to compute what nvcc's SASS computes the selection does the same.
 * The rule, read from nvcc's listings (examples/rope, flash_decoding, tests/corpus/fmath):
 *
 *   mul{.ftz}.fT m, x, y   ...   add|sub{.ftz}.fT d, a, b     (T = 32 or 64, both unguarded,
 *                                                              no .rn/.rz/.rm/.rp, no .sat)
 *   with the value of m read only there (as a or b of the add; in the same basic block, x and y
 *   not written between, .ftz alike)  ->  FFMA{.FTZ} / DFMA d, x, y, +-c
 *
 * "Read only there": m is read once in the whole function, or (a register reused, PTX not in
 * SSA form) written again further down the block before any other read.
 *
 * When a and b both qualify, a takes the mul (nvcc: `sub.f32 d, m1, m2` is FFMA d, x1, y1, -m2).
 * A mul read more than once stays an FMUL (rope's log polynomial, flash_decoding's exp sum).
 * The plan is made once per function (its first float add or mul asks for it) and lives in
 * w->fam until the function is done.
 */
#include "ptxsel_float.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FcCands = 32 };         /* candidate muls tracked at once in a block */

/* one register: its declaration and the operand's name (an element of a %f<N> range) */
typedef struct FcKey {
	const PtxVar *decl;
	uint32_t atom;
} FcKey;

/* a contraction: the mul and the add that takes it as operand k (1 or 2) */
typedef struct FcPair {
	const PtxIns *mul, *add;
	int k;
} FcPair;

/* the plan of one function */
typedef struct FcFn {
	const PtxFunc *fn;
	FcPair *pair;
	uint32_t npair, cpair;
	const PtxIns **hins;       /* open addressing: mul or add -> slot in hidx */
	uint32_t *hidx;            /* pair index + 1 */
	uint32_t hcap;
	struct FcFn *next;
} FcFn;

/* the read counts of a function's registers, while its plan is made */
typedef struct FcUse {
	FcKey *key;
	uint32_t *n;
	uint32_t cap, used;
} FcUse;

static uint32_t
hash2(const void *p, uint32_t a)
{
	uint64_t x = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull ^ (uint64_t)a * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

static int
key_of(const PtxOpnd *o, FcKey *k)
{
	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return 0;
	k->decl = o->decl;
	k->atom = o->atom;
	return 1;
}

static int
key_eq(FcKey a, FcKey b)
{
	return a.decl == b.decl && a.atom == b.atom;
}

static uint32_t *
use_slot(FcUse *u, FcKey k)
{
	if (u->used * 2 + 2 > u->cap) {
		FcUse old = *u;
		u->cap = old.cap ? old.cap * 2 : 256;
		u->key = xmalloc(u->cap * sizeof *u->key);
		u->n = xmalloc(u->cap * sizeof *u->n);
		u->used = 0;
		for (uint32_t j = 0; j < old.cap; j++)
			if (old.key[j].decl) {
				*use_slot(u, old.key[j]) = old.n[j];
			}
		free(old.key);
		free(old.n);
	}
	uint32_t h = hash2(k.decl, k.atom) & (u->cap - 1);
	while (u->key[h].decl && !key_eq(u->key[h], k))
		h = (h + 1) & (u->cap - 1);
	if (!u->key[h].decl) {
		u->key[h] = k;
		u->used++;
	}
	return &u->n[h];
}

/* count the reads of every register operand in o (def: o is a destination) */
static void
count_reads(FcUse *u, const PtxOpnd *o, int def)
{
	FcKey k;

	if (!def && key_of(o, &k))
		++*use_slot(u, k);
	for (unsigned j = 0; j < o->nsub; j++)
		count_reads(u, &o->sub[j], def && o->kind != PoAddr);
}

static int
has_mod(const Lw *w, const PtxIns *i, const char *m)
{
	for (unsigned j = 0; j < i->nmod; j++)
		if (!strcmp(ptx_str(w->p, i->mod[j]), m))
			return 1;
	return 0;
}

/* 32 or 64 for an add, sub or mul (want: "mul" or NULL for add/sub) of type f32/f64 with only
 * .ftz besides the type, unguarded; else 0 */
static int
plain_arith(const Lw *w, const PtxIns *i, int mul)
{
	const char *op = ptx_str(w->p, i->op);
	int bits = 0;

	if (i->guard || i->nopnd != 3)
		return 0;
	if (mul ? strcmp(op, "mul") != 0 : strcmp(op, "add") != 0 && strcmp(op, "sub") != 0)
		return 0;
	for (unsigned j = 0; j < i->nmod; j++) {
		const char *m = ptx_str(w->p, i->mod[j]);
		if (!strcmp(m, "f32") && !bits)
			bits = 32;
		else if (!strcmp(m, "f64") && !bits)
			bits = 64;
		else if (strcmp(m, "ftz") != 0)
			return 0;
	}
	return bits;
}

/* a candidate: an unguarded plain mul whose result is read once, not taken yet */
typedef struct FcCand {
	const PtxIns *mul;
	FcKey d, src[2];
	int nsrc, bits, ftz;
} FcCand;

static void
cand_drop(FcCand *c, int *n, int j)
{
	c[j] = c[--*n];
}

/* every register operand in o that is written (def) or read: drop the candidates it ends */
static void
kill_by(FcCand *c, int *n, const PtxOpnd *o, int def)
{
	FcKey k;

	if (key_of(o, &k))
		for (int j = *n - 1; j >= 0; j--) {
			int hit = key_eq(c[j].d, k);
			for (int s = 0; def && s < c[j].nsrc; s++)
				hit |= key_eq(c[j].src[s], k);
			if (hit)
				cand_drop(c, n, j);
		}
	for (unsigned j = 0; j < o->nsub; j++)
		kill_by(c, n, &o->sub[j], def && o->kind != PoAddr);
}

static int
is_branch(const Lw *w, const PtxIns *i)
{
	static const char *const ops[] = { "bra", "brx", "ret", "exit", "call", "trap", NULL };
	const char *op = ptx_str(w->p, i->op);

	for (int j = 0; ops[j]; j++)
		if (!strcmp(op, ops[j]))
			return 1;
	return 0;
}

/* how o mentions register k: 1 read, 2 written, 3 both */
static int
mentions(const PtxOpnd *o, FcKey k, int def)
{
	FcKey r;
	int m = 0;

	if (key_of(o, &r) && key_eq(r, k))
		m |= def ? 2 : 1;
	for (unsigned j = 0; j < o->nsub; j++)
		m |= mentions(&o->sub[j], k, def && o->kind != PoAddr);
	return m;
}

/* register k, read at statement s, is written again further down its basic block before any
 * other read: the value read at s has no other reader (the register is reused, as in PTX that
 * is not in SSA form) */
static int
dead_after(const Lw *w, const PtxFunc *fn, uint32_t s, FcKey k)
{
	if (mentions(&fn->st[s].ins->opnd[0], k, 1) & 2)
		return 1;          /* the add itself writes it */
	for (uint32_t t = s + 1; t < fn->nst; t++) {
		const PtxStmt *st = &fn->st[t];
		if (st->kind == PsLabel)
			return 0;
		if (st->kind != PsIns)
			continue;
		const PtxIns *i = st->ins;
		int m = 0, wf = ptx_op_writes_first(i->row);
		for (unsigned o = 0; o < i->nopnd; o++)
			m |= mentions(&i->opnd[o], k, o == 0 && wf);
		if (i->guard && (m & 2))
			return 0;      /* a guarded write may leave the old value */
		if (m)
			return m == 2;
		const char *op = ptx_str(w->p, i->op);
		if (!i->guard && (!strcmp(op, "ret") || !strcmp(op, "exit") || !strcmp(op, "trap")))
			return 1;      /* the function ends: every register is dead */
		if (strcmp(op, "call") != 0 && is_branch(w, i))
			return 0;
	}
	return 0;
}

static void
plan_add(FcFn *f, const PtxIns *mul, const PtxIns *add, int k)
{
	vgrow(&f->pair, &f->cpair, f->npair + 1, sizeof *f->pair);
	f->pair[f->npair++] = (FcPair){ mul, add, k };
}

static void
plan_index(FcFn *f)
{
	f->hcap = 16;
	while (f->hcap < 4 * f->npair + 4)
		f->hcap *= 2;
	f->hins = xmalloc(f->hcap * sizeof *f->hins);
	f->hidx = xmalloc(f->hcap * sizeof *f->hidx);
	for (uint32_t p = 0; p < f->npair; p++)
		for (int r = 0; r < 2; r++) {
			const PtxIns *i = r ? f->pair[p].add : f->pair[p].mul;
			uint32_t h = hash2(i, 0) & (f->hcap - 1);
			while (f->hins[h])
				h = (h + 1) & (f->hcap - 1);
			f->hins[h] = i;
			f->hidx[h] = p + 1;
		}
}

static FcFn *
plan_make(Lw *w, const PtxFunc *fn)
{
	FcFn *f = xmalloc(sizeof *f);
	FcUse u = {0};
	FcCand c[FcCands];
	int n = 0;

	f->fn = fn;
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].ins;
		if (fn->st[s].kind != PsIns)
			continue;
		int wf = ptx_op_writes_first(i->row);
		for (unsigned k = 0; k < i->nopnd; k++)
			count_reads(&u, &i->opnd[k], k == 0 && wf);
	}
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxStmt *st = &fn->st[s];
		if (st->kind == PsLabel)
			n = 0;
		if (st->kind != PsIns)
			continue;
		const PtxIns *i = st->ins;
		int bits = plain_arith(w, i, 0), ftz = has_mod(w, i, "ftz");
		FcKey k;
		for (int o = 1; bits && o <= 2; o++) {
			if (!key_of(&i->opnd[o], &k))
				continue;
			int j;
			for (j = 0; j < n; j++)
				if (key_eq(c[j].d, k) && c[j].bits == bits && c[j].ftz == ftz)
					break;
			if (j < n) {
				FcKey other;
				int twice = key_of(&i->opnd[3 - o], &other) && key_eq(other, k);
				int once = !twice && (*use_slot(&u, k) == 1 || dead_after(w, fn, s, k));
				if (once)
					plan_add(f, c[j].mul, i, o);
				cand_drop(c, &n, j);
				if (once)
					break;
			}
		}
		int wf = ptx_op_writes_first(i->row);
		for (unsigned o = 0; o < i->nopnd; o++)
			kill_by(c, &n, &i->opnd[o], o == 0 && wf);
		if (is_branch(w, i)) {
			n = 0;
			continue;
		}
		if ((bits = plain_arith(w, i, 1)) && key_of(&i->opnd[0], &k)) {
			FcCand m = { .mul = i, .d = k, .bits = bits, .ftz = has_mod(w, i, "ftz") };
			int self = 0;
			for (int o = 1; o <= 2; o++)
				if (key_of(&i->opnd[o], &m.src[m.nsrc])) {
					self |= key_eq(m.src[m.nsrc], k);
					m.nsrc++;
				}
			if (!self) {
				if (n == FcCands)
					cand_drop(c, &n, 0);
				c[n++] = m;
			}
		}
	}
	free(u.key);
	free(u.n);
	plan_index(f);
	return f;
}

static void
plans_free(Lw *w)
{
	for (FcFn *f = w->fam, *nx; f; f = nx) {
		nx = f->next;
		free(f->pair);
		free(f->hins);
		free(f->hidx);
		free(f);
	}
	w->fam = NULL;
	w->fam_free = NULL;
}

/* the contraction w->ins takes part in, NULL if none */
static const FcPair *
pair_of(Lw *w)
{
	FcFn *f;

	if (w->fam_free && w->fam_free != plans_free)
		return NULL;       /* another family's state: none of ours */
	for (f = w->fam; f && f->fn != w->fn; f = f->next)
		;
	if (!f) {
		f = plan_make(w, w->fn);
		f->next = w->fam;
		w->fam = f;
		w->fam_free = plans_free;
	}
	uint32_t h = hash2(w->ins, 0) & (f->hcap - 1);
	while (f->hins[h] && f->hins[h] != w->ins)
		h = (h + 1) & (f->hcap - 1);
	return f->hins[h] ? &f->pair[f->hidx[h] - 1] : NULL;
}

int
fs_fma_folded(Lw *w)
{
	const FcPair *p = pair_of(w);

	return p && p->mul == w->ins;
}

/* the operand text negated (a register, a float literal) */
static const char *
negate(const char *s)
{
	static char buf[4][LwStr + 2];
	static unsigned pos;
	char *b = buf[pos++ % 4];

	snprintf(b, sizeof buf[0], "%s%s", s[0] == '-' ? "" : "-",
	         s[0] == '-' || s[0] == '+' ? s + 1 : s);
	return b;
}

int
fs_fma_add(Lw *w)
{
	const FcPair *p = pair_of(w);
	const PtxIns *add = w->ins;

	if (!p || p->add != add)
		return 0;
	int sub = !strcmp(ptx_str(w->p, add->op), "sub"), f64 = lw_tclass(lw_type(w)) == TcF64;
	const char *x, *y, *c, *d = lw_reg(w, 0);
	/* the mul's sources, read as operands of the mul */
	w->ins = p->mul;
	if (f64) {
		x = fs_f64src(w, 1, 1);
		y = fs_f64src(w, 2, 1);
		if (!fs_isreg(x) && !fs_isreg(y))
			x = fs_f64src(w, 1, 0);
	} else {
		x = lw_src(w, 1);
		y = lw_src(w, 2);
		if (!fs_isreg(x) && !fs_isreg(y))
			x = lw_rsrc(w, 1);
	}
	w->ins = add;
	if (!fs_isreg(x)) {
		const char *t = x;
		x = y;
		y = t;
	}
	int ck = 3 - p->k;
	if (f64)
		c = fs_f64src(w, ck, fs_isreg(y));
	else
		c = fs_isreg(y) ? lw_src(w, ck) : lw_rsrc(w, ck);
	if (sub && p->k == 1)
		c = negate(c);
	if (sub && p->k == 2)
		x = negate(x);
	if (f64)
		lw_emit(w, "DFMA %s, %s, %s, %s", d, x, y, c);
	else
		lw_emit(w, "FFMA%s %s, %s, %s, %s", has_mod(w, add, "ftz") ? ".FTZ" : "", d, x, y, c);
	return 1;
}
