/* verify.c: check that a function's CFG and SSA form are well formed.
 *
 * Always (once cfg_build has run): the blocks cover f->ins in order, succ and pred agree, preds
 * are sorted by id, rpo numbers match f->rpo, and control instructions end their blocks.
 * In SSA form also: slots are what op_slots computes, every value is defined once and in the
 * register its slot or phi names, every use is dominated by its definition (a phi argument at the
 * end of its predecessor), phis have one argument per predecessor.
 * Always, even before cfg_build: no instruction writes a source-only register (a V destination).
 * Every problem is an error "verifier: ..." at the instruction (or phi) concerned; returns -1 if
 * there was any. Requires dom_build for the dominance checks.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	Fn *f;             /* the function */
	Diag *d;           /* where problems go */
	int nerr;          /* problems found */
	uint8_t *ndef;     /* per value: definitions seen (saturating) */
} V;

static void
bad(V *v, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
bad(V *v, Loc loc, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	error_at(v->d, loc, "verifier: %s", buf);
	v->nerr++;
}

static const char *
vstr(const Fn *f, uint32_t x, char *buf, size_t n)
{
	char r[16];

	if (!x || x >= f->nval) {
		snprintf(buf, n, "value %u", x);
		return buf;
	}
	reg_name(f->val[x].reg, r, sizeof r);
	snprintf(buf, n, "%s<%u>", r, f->val[x].ver);
	return buf;
}

static const char *
rstr(Reg r, char *buf, size_t n)
{
	reg_name(r, buf, n);
	return buf;
}


static int
is_unit(Reg r)
{
	return reg_unit(r) >= 0;
}

static void
structure(V *v)
{
	Fn *f = v->f;
	Ins *at = f->ins;
	char s[32];

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		Loc loc = x->nins ? x->ins[0].loc : f->loc;
		if (x->id != b)
			bad(v, loc, "bb%u has id %u", b, x->id);
		if (x->nins && x->ins != at)
			bad(v, loc, "bb%u does not start where bb%u ends", b, b ? b - 1 : 0);
		if (x->nins)
			at = x->ins + x->nins;
		for (uint32_t k = 0; k + 1 < x->nins; k++)
			if (cfg_ends_block(f, &x->ins[k]))
				bad(v, x->ins[k].loc, "control instruction in the middle of bb%u", b);
		for (uint32_t k = 0; k < x->nsucc; k++) {
			Blk *y = x->succ[k];
			uint32_t n = 0, m = 0;
			for (uint32_t j = 0; j < x->nsucc; j++)
				n += x->succ[j] == y;
			for (uint32_t j = 0; j < y->npred; j++)
				m += y->pred[j] == x;
			if (n != m)
				bad(v, loc, "bb%u -> bb%u: %u succ edges but %u pred edges", b, y->id, n, m);
		}
		for (uint32_t k = 0; k < x->npred; k++) {
			Blk *p = x->pred[k];
			uint32_t n = 0;
			for (uint32_t j = 0; j < p->nsucc; j++)
				n += p->succ[j] == x;
			if (!n)
				bad(v, loc, "bb%u lists bb%u as a predecessor, which does not go there",
				    b, p->id);
			if (k && x->pred[k - 1]->id >= p->id)
				bad(v, loc, "predecessors of bb%u are not sorted by id", b);
		}
		if (x->rpo != UINT32_MAX && (x->rpo >= f->nrpo || f->rpo[x->rpo] != x))
			bad(v, loc, "bb%u: rpo number %u does not match f->rpo", b, x->rpo);
	}
	if (f->nblk && f->nins && at != f->ins + f->nins) {
		snprintf(s, sizeof s, "%u", (unsigned)(at - f->ins));
		bad(v, f->loc, "blocks cover %s of %u instructions", s, f->nins);
	}
	for (uint32_t r = 0; r < f->nrpo; r++)
		if (f->rpo[r]->rpo != r)
			bad(v, f->loc, "f->rpo[%u] is bb%u, numbered %u", r, f->rpo[r]->id, f->rpo[r]->rpo);
}

/* does the definition of value x dominate the instruction i of block b (i NULL: the end of b)? */
static int
dominates(const Fn *f, uint32_t x, const Blk *b, const Ins *i)
{
	const Val *val = &f->val[x];

	if (!val->blk)
		return 0;
	if (!val->def && !val->phi)
		return 1; /* the value on entry: of the kernel, or of a subroutine at its call */
	if (val->blk != b)
		return dom_dominates(val->blk, b);
	if (val->def && i)
		return val->def < i;
	return 1; /* a phi, the value on entry, or the end of the defining block */
}

static void
use(V *v, Loc loc, uint32_t x, Reg r, const Blk *b, const Ins *i, const char *what)
{
	Fn *f = v->f;
	char a[32], rr[16];

	if (!x || x >= f->nval) {
		bad(v, loc, "%s of %s has no value", what, rstr(r, rr, sizeof rr));
		return;
	}
	if (f->val[x].reg != r)
		bad(v, loc, "%s of %s is %s, a value of another register", what,
		    rstr(r, rr, sizeof rr), vstr(f, x, a, sizeof a));
	if (!f->val[x].blk)
		bad(v, loc, "%s reads %s, which was deleted", what, vstr(f, x, a, sizeof a));
	else if (!dominates(f, x, b, i))
		bad(v, loc, "%s reads %s, whose definition does not dominate it", what,
		    vstr(f, x, a, sizeof a));
}

static void
def(V *v, Loc loc, uint32_t x, Reg r, const Blk *b, const Ins *i, const Phi *p)
{
	Fn *f = v->f;
	char a[32], rr[16];

	if (!x || x >= f->nval) {
		bad(v, loc, "definition of %s has no value", rstr(r, rr, sizeof rr));
		return;
	}
	if (v->ndef[x] < 255)
		v->ndef[x]++;
	if (v->ndef[x] == 2)
		bad(v, loc, "%s is defined more than once", vstr(f, x, a, sizeof a));
	if (f->val[x].reg != r)
		bad(v, loc, "definition of %s is %s, a value of another register",
		    rstr(r, rr, sizeof rr), vstr(f, x, a, sizeof a));
	if (f->val[x].blk != b || f->val[x].def != i || f->val[x].phi != p)
		bad(v, loc, "%s does not point back to its definition", vstr(f, x, a, sizeof a));
}

/* the slots are exactly what op_slots computes now (compared in place: verifying allocates
 * nothing) */
static void
layout(V *v, Ins *i)
{
	unsigned k;
	int n = op_slots_cmp(v->f, i, &k);

	if (n < 0) {
		bad(v, i->loc, "op_slots rejects the instruction");
		return;
	}
	if ((unsigned)n != i->nslot) {
		bad(v, i->loc, "%u slots, but the opcode table gives %u", i->nslot, (unsigned)n);
		return;
	}
	if (k < (unsigned)n)
		bad(v, i->loc, "slot %u differs from what the opcode table gives", k);
}

static void
ssa(V *v)
{
	Fn *f = v->f;
	char a[32], rr[16];

	v->ndef = xmalloc(f->nval + 1);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		for (Phi *p = b->phi; p; p = p->link) {
			if (!is_unit(p->reg))
				bad(v, p->loc, "phi of %s, which is not a register unit",
				    rstr(p->reg, rr, sizeof rr));
			def(v, p->loc, p->to, p->reg, b, NULL, p);
			if (p->narg != b->npred)
				bad(v, p->loc, "phi %s has %u arguments for %u predecessors of bb%u",
				    vstr(f, p->to, a, sizeof a), p->narg, b->npred, b->id);
		}
		for (uint32_t k = 0; k < b->nins; k++) {
			Ins *i = &b->ins[k];
			layout(v, i);
			for (unsigned j = 0; j < i->nslot; j++) {
				Slot *sl = &i->slot[j];
				if (!sl->v) {
					bad(v, i->loc, "slot %u has no values", j);
					continue;
				}
				for (unsigned m = 0; m < sl->n; m++) {
					Reg rg = reg_next(sl->reg, m);
					if (!is_unit(rg)) {
						if (sl->v[m])
							bad(v, i->loc, "%s carries value %u", rstr(rg, rr, sizeof rr),
							    sl->v[m]);
					} else if (sl->kind == SDef)
						def(v, i->loc, sl->v[m], rg, b, i, NULL);
					else
						use(v, i->loc, sl->v[m], rg, b, i,
						    sl->kind == SOld ? "the old value" : "an operand");
				}
			}
		}
	}
	/* phi arguments: the definition dominates the end of the predecessor */
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		for (Phi *p = b->phi; p; p = p->link)
			for (uint32_t k = 0; k < p->narg && k < b->npred; k++) {
				Blk *pb = b->pred[k];
				if (pb->rpo == UINT32_MAX)
					continue; /* never executed: anything goes, 0 included */
				use(v, p->loc, p->arg[k], p->reg, pb, NULL, "a phi argument");
			}
	}
	/* values that claim a definition must have been seen at it; entry values at none */
	for (uint32_t x = 1; x < f->nval; x++) {
		Val *val = &f->val[x];
		if (!val->blk)
			continue;
		if ((val->def || val->phi) && !v->ndef[x])
			bad(v, val->def ? val->def->loc : val->phi->loc,
			    "%s is not defined where it says", vstr(f, x, a, sizeof a));
		if (!val->def && !val->phi && f->nrpo && val->blk != f->rpo[0])
			bad(v, f->loc, "value on entry %s belongs to bb%u, not to the entry block",
			    vstr(f, x, a, sizeof a), val->blk->id);
	}
	free(v->ndef);
}

/* where register r is spelt in instruction i's text, else the whole instruction */
static Loc
reg_loc(const Fn *f, const Ins *i, Reg r)
{
	const Src *src = f->mod ? f->mod->src : NULL;
	char name[16];
	size_t n;

	reg_name(r, name, sizeof name);
	n = strlen(name);
	if (!src || !src->text || i->loc.end > src->len)
		return i->loc;
	for (uint32_t a = i->loc.start; a + n <= i->loc.end; a++) {
		const char *t = src->text + a;
		if (memcmp(t, name, n) != 0 || (t[n] >= '0' && t[n] <= '9') ||
		    (a > i->loc.start && ((t[-1] >= 'A' && t[-1] <= 'Z') || t[-1] == '_')))
			continue;
		return (Loc){ a, a + (uint32_t)n };
	}
	return i->loc;
}

/* no instruction writes a register of a source-only class (V: another context's register) */
static void
destinations(V *v)
{
	Fn *f = v->f;
	uint32_t nb = f->blk ? f->nblk : 1;
	char s[16];

	for (uint32_t b = 0; b < nb; b++) {
		Ins *ins = f->blk ? f->blk[b]->ins : f->ins;
		uint32_t n = f->blk ? f->blk[b]->nins : f->nins;
		for (uint32_t k = 0; k < n; k++) {
			Ins *i = &ins[k];
			if (!i->slot && i->nopnd && op_slots(f, i) < 0)
				continue;  /* malformed: op_check's business (slots are computed as ssa.c does) */
			for (unsigned j = 0; j < i->nslot; j++) {
				Reg r = i->slot[j].reg;
				if (i->slot[j].kind != SDef || reg_writable(r))
					continue;
				/* FIBER: a pool is local to its slice: a weft of that sub-partition writes
				 * it through the slice's own write port; from another sub-partition the write
				 * is remote, which only the simulator can tell (FaultFiber) */
				if (i->slot[j].opnd < i->nopnd &&
				    (i->opnd[i->slot[j].opnd].flags & FPoolRef))
					continue;
				/* FIBER modes: remote-writes rewrites them, fverify.c rejects what is left */
				if (RCLS(r) == RV && f->plan)
					continue;
				reg_name(r, s, sizeof s);
				if (RCLS(r) == RV)   /* FIBER: another weft's register */
					bad(v, reg_loc(f, i, r), "'%s' is a destination, but V registers are "
					    "source operands only: a remote write (another weft's register; "
					    "destinations must be local (R), or a pool of the weft's own slice)",
					    s);
				else
					bad(v, reg_loc(f, i, r), "'%s' is a destination, but %s registers are "
					    "source operands only", s, regtab[RCLS(r)].prefix);
				break;
			}
		}
	}
}

int
verify_fn(Fn *f, Diag *d)
{
	V v = {.f = f, .d = d};

	v.nerr += fverify_fn(f, d);
	if (f->nvreg)     /* FIBER-native: fiber-ra leaves no virtual register */
		v.nerr += vreg_none(f, d) < 0;
	destinations(&v);
	if (!f->blk)
		return v.nerr ? -1 : 0;
	structure(&v);
	if (f->in_ssa && !v.nerr)
		ssa(&v);
	return v.nerr ? -1 : 0;
}
