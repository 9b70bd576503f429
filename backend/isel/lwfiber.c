/* lwfiber.c: what a FIBER `setfibernum` needs from the PTX function around it (ptxsel_fiber.c
 * selects the instruction itself): the CTA-uniform values read after it, computed again for the
 * new fibers, whose windows start zeroed; which registers are uniform over the CTA; and the
 * refusal of a setfibernum that a fiber-dependent branch may make divergent. All of it on the PTX
 * text of the function (docs/isel-fiber.md, "After setfibernum").
 */
#include "ptxlow.h"

#include <stdlib.h>
#include <string.h>

/* ---- what new fibers need after a setfibernum ----------------------------------------------
 * A new fiber starts after SETFIBERNUM with a zeroed window, but nvcc computes values once and
 * keeps them in registers across the call (the parameters at the entry, N / 64 before a loop).
 * Every register that an instruction after the setfibernum (in text order) reads, that is
 * written exactly once in the function, before it, is computed again right after SETFIBERNUM
 * when its value is the same for every fiber of the CTA: its definition (and theirs, back to the
 * parameters) is a pure instruction on kernel parameters, CTA coordinates and sizes, immediates
 * and variable addresses. A fiber-dependent value live across the call (from %fiberid or %tid)
 * cannot be: a located error (compute it after the call). The survivors recompute the same
 * values; the cost is one instruction per definition per setfibernum. */

enum { RmUnknown, RmYes, RmNo, RmBusy };   /* rematerialisation state of a statement */

/* the registers operand o writes (a destination: a name, a vector or pair of them): f(atom) */
static int
dst_has(const PtxOpnd *o, uint32_t atom)
{
	if (o->kind == PoName)
		return o->what == PwReg && o->atom == atom;
	if (o->kind == PoVec || o->kind == PoPair || o->kind == PoList)
		for (uint32_t k = 0; k < o->nsub; k++)
			if (dst_has(&o->sub[k], atom))
				return 1;
	return 0;
}

/* instruction i writes register atom */
static int
writes(const Ptx *p, const PtxIns *i, uint32_t atom)
{
	if (!i->nopnd)
		return 0;
	if (ptx_op_writes_first(i->row) || !strcmp(ptx_str(p, i->op), "call"))
		return dst_has(&i->opnd[0], atom);
	return 0;
}

/* operand o (a source) reads register atom */
static int
src_has(const PtxOpnd *o, uint32_t atom)
{
	if (o->kind == PoName)
		return o->what == PwReg && o->atom == atom;
	for (uint32_t k = 0; k < o->nsub; k++)
		if (src_has(&o->sub[k], atom))
			return 1;
	return 0;
}

static int
reads(const Ptx *p, const PtxIns *i, uint32_t atom)
{
	int first = ptx_op_writes_first(i->row) || !strcmp(ptx_str(p, i->op), "call");

	for (uint32_t k = first && i->nopnd ? 1 : 0; k < i->nopnd; k++)
		if (src_has(&i->opnd[k], atom))
			return 1;
	return 0;
}

/* the statement that writes register atom, when exactly one does and it is before `at`; -1 */
static int
single_def(const Ptx *p, const PtxFunc *fn, uint32_t atom, uint32_t at)
{
	int def = -1;

	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (!i || !writes(p, i, atom))
			continue;
		if (def >= 0 || s >= at)
			return -1;
		def = (int)s;
	}
	return def;
}

/* a pure instruction whose value is uniform over the CTA, given uniform register sources */
static int
pure_uniform(const Ptx *p, const PtxIns *i)
{
	static const char *const ops[] = {
		"mov", "cvta", "add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "not",
		"neg", "div", "rem", "min", "max", "cvt", "selp", "setp", "abs", NULL
	};
	const char *op = ptx_str(p, i->op);
	int k;

	if (i->guard || !i->nopnd || i->opnd[0].kind != PoName)
		return 0;
	if (!strcmp(op, "ld"))
		return ptx_ins_hasmod(p, i, "param");
	for (k = 0; ops[k] && strcmp(ops[k], op); k++)
		;
	if (!ops[k])
		return 0;
	for (uint32_t n = 1; n < i->nopnd; n++) {
		const PtxOpnd *o = &i->opnd[n];
		if (o->kind == PoName && o->what == PwSreg) {
			const char *r = ptx_str(p, o->atom);
			if (strcmp(r, "%ctaid") && strcmp(r, "%nctaid") && strcmp(r, "%ntid"))
				return 0;
		} else if (o->kind != PoName && o->kind != PoImm && o->kind != PoF32 &&
		           o->kind != PoF64 && o->kind != PoFDec) {
			return 0;
		}
	}
	return 1;
}

/* statement s (before `at`) can be computed again: a pure uniform instruction whose register
 * sources are each written once, before `at`, by such a statement (memo: st) */
static int
remat(const Ptx *p, const PtxFunc *fn, uint32_t s, uint32_t at, uint8_t *st)
{
	const PtxIns *i = fn->st[s].ins;

	if (st[s] != RmUnknown)
		return st[s] == RmYes;
	st[s] = RmBusy;
	if (!pure_uniform(p, i)) {
		st[s] = RmNo;
		return 0;
	}
	for (uint32_t n = 1; n < i->nopnd; n++) {
		const PtxOpnd *o = &i->opnd[n];
		if (o->kind != PoName || o->what != PwReg)
			continue;
		int d = single_def(p, fn, o->atom, at);
		if (d < 0 || !remat(p, fn, (uint32_t)d, at, st)) {
			st[s] = RmNo;
			return 0;
		}
	}
	st[s] = RmYes;
	return 1;
}

/* mark statement s and the statements it reads from (all RmYes) for emission */
static void
mark(const Ptx *p, const PtxFunc *fn, uint32_t s, uint32_t at, uint8_t *emit)
{
	const PtxIns *i = fn->st[s].ins;

	if (emit[s])
		return;
	emit[s] = 1;
	for (uint32_t n = 1; n < i->nopnd; n++)
		if (i->opnd[n].kind == PoName && i->opnd[n].what == PwReg)
			mark(p, fn, (uint32_t)single_def(p, fn, i->opnd[n].atom, at), at, emit);
}

int
lw_fiber_reload(Lw *w)
{
	const PtxFunc *fn = w->fn;
	const PtxIns *self = w->ins;
	uint32_t at = 0;
	uint8_t *st, *emit;
	int rc = 0;

	while (at < fn->nst && !(fn->st[at].kind == PsIns && fn->st[at].ins == self))
		at++;
	lw_entry_prologue(w);
	st = xmalloc(fn->nst + 1);
	emit = xmalloc(fn->nst + 1);
	memset(st, 0, fn->nst + 1);
	memset(emit, 0, fn->nst + 1);
	for (uint32_t s = 0; s < at; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (!i || !i->nopnd || i->opnd[0].kind != PoName || i->opnd[0].what != PwReg ||
		    !writes(w->p, i, i->opnd[0].atom) || single_def(w->p, fn, i->opnd[0].atom, at) < 0)
			continue;
		uint32_t r = i->opnd[0].atom;
		int live = 0;
		for (uint32_t t = at + 1; t < fn->nst && !live; t++)
			live = fn->st[t].kind == PsIns && reads(w->p, fn->st[t].ins, r);
		if (!live)
			continue;
		if (remat(w->p, fn, s, at, st)) {
			mark(w->p, fn, s, at, emit);
		} else if (rc == 0) {
			rc = lw_error(w, "'%s' is computed before this setfibernum and read after it, and "
			              "its value depends on the fiber: the new fibers start with zeroed "
			              "registers; compute it after the call", ptx_str(w->p, r));
		}
	}
	for (uint32_t s = 0; s < at && rc == 0; s++) {
		if (!emit[s])
			continue;
		w->ins = fn->st[s].ins;
		const SelRow *row = ptxsel_lookup(w);
		if (!row || row->fn(w) < 0)
			rc = -1;
		w->ins = self;
	}
	free(st);
	free(emit);
	return rc;
}

/* ---- uniformity and divergence ------------------------------------------------------------
 * A register is uniform over the CTA when every instruction that writes it is pure_uniform on
 * uniform registers (an optimistic fixpoint: all start uniform, a write by anything else, or
 * from a non-uniform register, makes it not). Values that differ only through divergent control
 * flow are not seen (documented). A conditional branch on a non-uniform predicate that jumps
 * over the setfibernum (forward, from before it to past it) or back across it (a loop whose
 * exit the fibers may take at different times) may make it divergent: a located error. */

typedef struct {
	uint32_t *atom;    /* the registers the function writes */
	uint8_t *uni;      /* uniform? */
	uint32_t n;
} Uni;

static int
uni_find(const Uni *u, uint32_t atom)
{
	for (uint32_t k = 0; k < u->n; k++)
		if (u->atom[k] == atom)
			return (int)k;
	return -1;
}

/* the registers of destination operand o, added (once) to u */
static void
uni_add(Uni *u, const PtxOpnd *o)
{
	if (o->kind == PoName && o->what == PwReg && uni_find(u, o->atom) < 0) {
		u->atom[u->n] = o->atom;
		u->uni[u->n++] = 1;
	}
	if (o->kind == PoVec || o->kind == PoPair || o->kind == PoList)
		for (uint32_t k = 0; k < o->nsub; k++)
			uni_add(u, &o->sub[k]);
}

/* clear the registers of destination operand o; 1 if one was uniform */
static int
uni_clear(Uni *u, const PtxOpnd *o)
{
	int ch = 0, k;

	if (o->kind == PoName && o->what == PwReg && (k = uni_find(u, o->atom)) >= 0 && u->uni[k]) {
		u->uni[k] = 0;
		ch = 1;
	}
	if (o->kind == PoVec || o->kind == PoPair || o->kind == PoList)
		for (uint32_t s = 0; s < o->nsub; s++)
			ch |= uni_clear(u, &o->sub[s]);
	return ch;
}

/* a register never written in the function is uniform (a parameter's, or undefined) */
static int
is_uni(const Uni *u, uint32_t atom)
{
	int k = uni_find(u, atom);

	return k < 0 || u->uni[k];
}

static void
uni_solve(const Ptx *p, const PtxFunc *fn, Uni *u)
{
	size_t cap = 1;
	int changed = 1;

	for (uint32_t s = 0; s < fn->nst; s++)
		if (fn->st[s].kind == PsIns)
			cap += fn->st[s].ins->nopnd ? 16 : 0;
	u->atom = xmalloc(cap * sizeof *u->atom);
	u->uni = xmalloc(cap);
	u->n = 0;
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (i && i->nopnd && (ptx_op_writes_first(i->row) || !strcmp(ptx_str(p, i->op), "call")))
			uni_add(u, &i->opnd[0]);
	}
	while (changed) {
		changed = 0;
		for (uint32_t s = 0; s < fn->nst; s++) {
			const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
			if (!i || !i->nopnd ||
			    !(ptx_op_writes_first(i->row) || !strcmp(ptx_str(p, i->op), "call")))
				continue;
			int ok = pure_uniform(p, i);
			for (uint32_t n = 1; ok && n < i->nopnd; n++)
				if (i->opnd[n].kind == PoName && i->opnd[n].what == PwReg)
					ok = is_uni(u, i->opnd[n].atom);
			if (!ok)
				changed |= uni_clear(u, &i->opnd[0]);
		}
	}
}

/* the statement index of label atom in fn, -1 none */
static int
label_at(const PtxFunc *fn, uint32_t atom)
{
	for (uint32_t s = 0; s < fn->nst; s++)
		if (fn->st[s].kind == PsLabel && fn->st[s].atom == atom)
			return (int)s;
	return -1;
}

int
lw_fiber_divergent(Lw *w)
{
	const PtxFunc *fn = w->fn;
	uint32_t at = 0;
	Uni u;
	int rc = 0;

	while (at < fn->nst && !(fn->st[at].kind == PsIns && fn->st[at].ins == w->ins))
		at++;
	uni_solve(w->p, fn, &u);
	for (uint32_t s = 0; s < fn->nst && rc == 0; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (!i || !i->guard || strcmp(ptx_str(w->p, i->op), "bra") || !i->nopnd ||
		    i->opnd[i->nopnd - 1].kind != PoName || is_uni(&u, i->gpred))
			continue;
		int t = label_at(fn, i->opnd[i->nopnd - 1].atom);
		if (t < 0 || !((s < at && (uint32_t)t > at) || (s > at && (uint32_t)t < at)))
			continue;
		uint32_t line, col;
		src_linecol(w->p->src, i->loc.start, &line, &col);
		rc = lw_error(w, "setfibernum in code that may be divergent: the branch at line %u "
		              "(on '%s', which depends on the fiber) %s it; every weft must arrive "
		              "converged (docs/fiber-isa.md section 3)", (unsigned)line,
		              ptx_str(w->p, i->gpred), s < at ? "jumps over" : "loops back across");
	}
	free(u.atom);
	free(u.uni);
	return rc;
}
