/* outssa.c: leaving SSA form. Values keep their physical register, so for a kernel that no pass
 * renamed, dropping the phis is exact and nothing is inserted (it re-emits byte-identically).
 *
 * Where a pass renamed, copies are inserted (after Boissinot et al., "Revisiting Out-of-SSA
 * Translation for Correctness, Code Quality, and Efficiency", CGO 2009):
 *   - a phi argument that is a value of another register (or not the one its register holds at
 *     the end of the predecessor) becomes a copy at the end of that predecessor, before its
 *     branch; all the copies of one edge form one parallel copy. A predecessor with several
 *     successors (a critical edge) takes the copies only if their destinations are dead on
 *     entry to its other successors;
 *   - an operand that reads a value held in another register gets a copy into the register it
 *     names, just before the instruction (one parallel copy per instruction).
 * The source must still be held in its own register at that point; a value whose register was
 * overwritten is an error, as is a definition of a value of another register.
 * A parallel copy is sequentialised: a copy whose destination no other copy reads goes first;
 * what is left are cycles, broken with a scratch register of the class that liveness
 * (liveness.c) says is free there (within the registers the function already uses), or else by
 * swapping without one. Copies by class, as nvcc writes them:
 *   R   MOV d, s               swap: 3 x LOP3.LUT a, a, b, RZ, 0x96, !PT (a ^= b; b ^= a; ...)
 *   P   PLOP3.LUT d, PT, s, PT, PT, 0x80, 0x0         swap: PLOP3.LUT with 0x3c (a ^ b)
 *   UR  UMOV d, s              swap: 3 x ULOP3.LUT a, a, b, URZ, 0x96, !UPT
 *   UP  UPLOP3.LUT d, UPT, s, UPT, UPT, 0x80, 0x0     swap: UPLOP3.LUT with 0x3c
 *   B, V  no copy instruction: an error.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	Reg dst, src;
} Copy;

/* one parallel copy, inserted before instruction pos of b */
typedef struct {
	Blk *b;
	uint32_t pos;
	uint32_t first, n; /* copies in Out.copy */
} Group;

typedef struct {
	Fn *f;             /* the function */
	Diag *d;           /* where problems go */
	uint32_t *cur;     /* unit -> value reaching through the register, 0 none */
	uint32_t *logu;    /* undo log: unit */
	uint32_t *logv;    /* undo log: previous value */
	uint32_t nlog;     /* log entries used */
	uint32_t clog;     /* log entries allocated */
	Copy *copy;        /* the copies of every group */
	uint32_t ncopy, ccopy;
	Group *grp;        /* parallel copies to insert */
	uint32_t ngrp, cgrp;
	Live *live;        /* liveness, for critical edges (built when first needed) */
	int err;           /* a problem was reported */
} Out;

/* index of p in b->pred (sorted by id) */
static uint32_t
predindex(const Blk *b, const Blk *p)
{
	uint32_t lo = 0, hi = b->npred;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (b->pred[mid]->id < p->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
out_push(Out *o, uint32_t u, uint32_t v)
{
	if (o->nlog == o->clog) {
		o->clog = o->clog ? 2 * o->clog : 1024;
		o->logu = xrealloc(o->logu, o->clog * sizeof *o->logu);
		o->logv = xrealloc(o->logv, o->clog * sizeof *o->logv);
	}
	o->logu[o->nlog] = u;
	o->logv[o->nlog++] = o->cur[u];
	o->cur[u] = v;
}

static void
vname(const Fn *f, uint32_t v, char *buf, size_t n)
{
	char r[16];

	if (!v || v >= f->nval) {
		snprintf(buf, n, "value %u", v);
		return;
	}
	reg_name(f->val[v].reg, r, sizeof r);
	snprintf(buf, n, "%s<%u>", r, f->val[v].ver);
}

/* does register r hold value v where cur reaches (the value on entry if nothing defined r)? */
static int
holds(const Out *o, Reg r, uint32_t v)
{
	const Fn *f = o->f;
	int u = reg_unit(r);
	uint32_t want;

	if (u < 0 || !v || v >= f->nval || f->val[v].reg != r)
		return 0;
	want = o->cur[u];
	return want ? v == want : !f->val[v].def && !f->val[v].phi;
}

/* v is read through register r: fine (0), needs the copy r <- (v's register) (1), or is
 * reported (-1) */
static int
out_check(Out *o, Loc loc, Reg r, uint32_t v, const char *what)
{
	Fn *f = o->f;
	int u = reg_unit(r);
	char a[32], b[32], rn[16], sn[16];

	if (u < 0 || holds(o, r, v))
		return 0;
	if (v && v < f->nval && f->val[v].reg != r && holds(o, f->val[v].reg, v))
		return 1;
	reg_name(r, rn, sizeof rn);
	vname(f, v, a, sizeof a);
	if (!v || v >= f->nval) {
		error_at(o->d, loc, "cannot leave SSA: %s of %s has no value", what, rn);
	} else if (f->val[v].reg != r) {
		reg_name(f->val[v].reg, sn, sizeof sn);
		error_at(o->d, loc, "cannot leave SSA: %s of %s is %s, but %s no longer holds it "
		         "there", what, rn, a, sn);
	} else {
		uint32_t want = o->cur[u];
		vname(f, want, b, sizeof b);
		error_at(o->d, loc, "cannot leave SSA: %s reads %s but %s is what %s holds there, "
		         "and no other register holds %s", what, a, want ? b : "the value on entry",
		         rn, a);
	}
	o->err = 1;
	return -1;
}

/* a new group before instruction pos of b */
static Group *
group_new(Out *o, Blk *b, uint32_t pos)
{
	vgrow(&o->grp, &o->cgrp, o->ngrp + 1, sizeof *o->grp);
	o->grp[o->ngrp] = (Group){.b = b, .pos = pos, .first = o->ncopy};
	return &o->grp[o->ngrp++];
}

static void
copy_add(Out *o, Group *g, Reg dst, Reg src)
{
	for (uint32_t k = g->first; k < g->first + g->n; k++)
		if (o->copy[k].dst == dst)
			return;   /* the same register twice in one instruction */
	vgrow(&o->copy, &o->ccopy, o->ncopy + 1, sizeof *o->copy);
	o->copy[o->ncopy++] = (Copy){dst, src};
	g->n++;
}

/* the copies for the operands of instruction k of b */
static void
out_uses(Out *o, Blk *b, uint32_t k)
{
	Fn *f = o->f;
	Ins *i = &b->ins[k];
	Group *g = NULL;

	for (unsigned j = 0; j < i->nslot; j++) {
		Slot *sl = &i->slot[j];
		if (sl->kind == SDef || !sl->v)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			Reg r = reg_next(sl->reg, m);
			uint32_t v = sl->v[m];
			if (out_check(o, i->loc, r, v, "an operand") != 1)
				continue;
			if (!g)
				g = group_new(o, b, k);
			copy_add(o, g, r, f->val[v].reg);
		}
	}
	if (!g)
		return;
	/* an operand read as it is must not be overwritten by a copy for another one */
	for (unsigned j = 0; j < i->nslot; j++) {
		Slot *sl = &i->slot[j];
		if (sl->kind == SDef || !sl->v)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			Reg r = reg_next(sl->reg, m);
			if (!holds(o, r, sl->v[m]))
				continue;
			for (uint32_t c = g->first; c < g->first + g->n; c++)
				if (o->copy[c].dst == r) {
					char rn[16];
					reg_name(r, rn, sizeof rn);
					error_at(o->d, i->loc, "cannot leave SSA: %s is read as it is and must "
					         "also receive a copy for another operand", rn);
					o->err = 1;
				}
		}
	}
	/* after the copies, the destinations hold the values read */
	for (unsigned j = 0; j < i->nslot; j++) {
		Slot *sl = &i->slot[j];
		if (sl->kind == SDef || !sl->v)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			Reg r = reg_next(sl->reg, m);
			uint32_t v = sl->v[m];
			if (v && v < f->nval && f->val[v].reg != r && reg_unit(r) >= 0)
				out_push(o, (uint32_t)reg_unit(r), v);
		}
	}
}

/* the copies of the edge b -> x for the phis of x */
static void
out_edge(Out *o, Blk *b, Blk *x)
{
	Fn *f = o->f;
	Group *g = NULL;
	uint32_t j = predindex(x, b), pos = b->nins;

	if (b->nins && cfg_ends_block(f, &b->ins[b->nins - 1]))
		pos = b->nins - 1;
	for (Phi *p = x->phi; p; p = p->link) {
		if (j >= p->narg || out_check(o, p->loc, p->reg, p->arg[j], "a phi argument") != 1)
			continue;
		if (!g)
			g = group_new(o, b, pos);
		copy_add(o, g, p->reg, f->val[p->arg[j]].reg);
	}
	if (!g)
		return;
	for (uint32_t k = 0; k < o->ngrp - 1; k++)
		if (o->grp[k].b == b && o->grp[k].pos == pos) {
			error_at(o->d, x->phi->loc, "cannot leave SSA: bb%u needs two parallel copies "
			         "before its last instruction; split an edge", b->id);
			o->err = 1;
			return;
		}
	/* a critical edge: the copies run on the way to the other successors too */
	for (uint32_t s = 0; s < b->nsucc && b->nsucc > 1; s++) {
		Blk *y = b->succ[s];
		if (y == x)
			continue;
		if (!o->live)
			o->live = live_build(f, NumArchUnit);
		for (uint32_t c = g->first; c < g->first + g->n; c++) {
			int u = reg_unit(o->copy[c].dst);
			if (u >= 0 && live_has(o->live, o->live->in + (size_t)y->id * o->live->nword,
			                       (uint32_t)u)) {
				char rn[16];
				reg_name(o->copy[c].dst, rn, sizeof rn);
				error_at(o->d, x->phi->loc, "cannot leave SSA: the copy into %s on the edge "
				         "bb%u -> bb%u would also reach bb%u, which reads %s; split the edge",
				         rn, b->id, x->id, y->id, rn);
				o->err = 1;
			}
		}
	}
	/* a terminator that reads a register the copies write */
	if (pos < b->nins) {
		const Ins *t = &b->ins[pos];
		for (unsigned k = 0; k < t->nslot; k++)
			for (unsigned m = 0; t->slot[k].kind != SDef && m < t->slot[k].n; m++)
				for (uint32_t c = g->first; c < g->first + g->n; c++)
					if (reg_next(t->slot[k].reg, m) == o->copy[c].dst) {
						error_at(o->d, t->loc, "cannot leave SSA: the branch reads a "
						         "register that a copy before it writes");
						o->err = 1;
					}
	}
}

static void
out_blk(Out *o, Blk *b)
{
	Fn *f = o->f;

	for (Phi *p = b->phi; p; p = p->link) {
		if (p->to && p->to < f->nval && f->val[p->to].reg != p->reg) {
			char rn[16];
			reg_name(p->reg, rn, sizeof rn);
			error_at(o->d, p->loc, "cannot leave SSA: a phi of %s defines a value of another "
			         "register", rn);
			o->err = 1;
		}
		if (reg_unit(p->reg) >= 0)
			out_push(o, (uint32_t)reg_unit(p->reg), p->to);
	}
	for (uint32_t k = 0; k < b->nins; k++) {
		Ins *i = &b->ins[k];
		out_uses(o, b, k);
		for (unsigned j = 0; j < i->nslot; j++) {
			Slot *sl = &i->slot[j];
			if (sl->kind != SDef || !sl->v)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				Reg r = reg_next(sl->reg, m);
				uint32_t v = sl->v[m];
				int u = reg_unit(r);
				if (u < 0)
					continue;
				if (!v || v >= f->nval || f->val[v].reg != r) {
					char rn[16];
					reg_name(r, rn, sizeof rn);
					error_at(o->d, i->loc, "cannot leave SSA: the definition of %s is a "
					         "value of another register", rn);
					o->err = 1;
				}
				out_push(o, (uint32_t)u, v);
			}
		}
	}
	for (uint32_t k = 0; k < b->nsucc; k++)
		if (b->succ[k]->phi)
			out_edge(o, b, b->succ[k]);
}

/* ---- copy instructions ------------------------------------------------------------------ */

/* append to list[] the instruction name/mods/operands of one copy or one xor step (a ^= b) */
typedef struct {
	const char *name;  /* "MOV", "LOP3" */
	int lut;           /* has the .LUT modifier */
	Opnd op[7];
	int nop;
} Step;

static int
step_copy(Step *s, Reg d, Reg src)
{
	memset(s, 0, sizeof *s);
	switch (RCLS(d)) {
	case RR:
	case RUR:
		s->name = RCLS(d) == RR ? "MOV" : "UMOV";
		s->op[0] = mkreg(d);
		s->op[1] = mkreg(src);
		s->nop = 2;
		return 0;
	case RP:
	case RUP: {
		Reg t = RCLS(d) == RP ? REG(RP, RegPT) : REG(RUP, RegUPT);
		s->name = RCLS(d) == RP ? "PLOP3" : "UPLOP3";
		s->lut = 1;
		s->op[0] = mkreg(d);
		s->op[1] = mkreg(t);
		s->op[2] = mkreg(src);
		s->op[3] = mkreg(t);
		s->op[4] = mkreg(t);
		s->op[5] = mkimm(0x80);
		s->op[6] = mkimm(0);
		s->nop = 7;
		return 0;
	}
	default:
		return -1;
	}
}

/* a = a ^ b */
static int
step_xor(Step *s, Reg a, Reg b)
{
	memset(s, 0, sizeof *s);
	s->lut = 1;
	switch (RCLS(a)) {
	case RR:
	case RUR:
		s->name = RCLS(a) == RR ? "LOP3" : "ULOP3";
		s->op[0] = mkreg(a);
		s->op[1] = mkreg(a);
		s->op[2] = mkreg(b);
		s->op[3] = mkreg(RCLS(a) == RR ? REG(RR, RegRZ) : REG(RUR, RegURZ));
		s->op[4] = mkimm(0x96);
		s->op[5] = mkreg(RCLS(a) == RR ? REG(RP, RegPT) : REG(RUP, RegUPT));
		s->op[5].flags = FLNot;
		s->nop = 6;
		return 0;
	case RP:
	case RUP: {
		Reg t = RCLS(a) == RP ? REG(RP, RegPT) : REG(RUP, RegUPT);
		s->name = RCLS(a) == RP ? "PLOP3" : "UPLOP3";
		s->op[0] = mkreg(a);
		s->op[1] = mkreg(t);
		s->op[2] = mkreg(a);
		s->op[3] = mkreg(b);
		s->op[4] = mkreg(t);
		s->op[5] = mkimm(0x3c);
		s->op[6] = mkimm(0);
		s->nop = 7;
		return 0;
	}
	default:
		return -1;
	}
}

static int
emit_step(Fn *f, Blk *b, uint32_t *pos, const Step *s)
{
	Ins i;
	uint32_t lut;

	memset(&i, 0, sizeof i);
	i.op = (uint16_t)op_lookup(s->name, strlen(s->name));
	i.name = mintern(f->mod, s->name);
	if (s->lut) {
		lut = mintern(f->mod, "LUT");
		i.mod = &lut;        /* ins_insert copies it */
		i.nmod = 1;
	}
	i.opnd = (Opnd *)s->op;
	i.nopnd = (uint8_t)s->nop;
	i.addr = -1;
	if (!ins_insert(f, b, *pos, &i))
		return -1;
	(*pos)++;
	return 0;
}

/* units free before instruction pos of b: not live there, and within what f already uses */
static void
free_units(Fn *f, Live *l, Blk *b, uint32_t pos, uint8_t *isfree)
{
	uint64_t *set = xmalloc(l->nword * sizeof *set);
	int maxr = -1, maxur = -1;

	memcpy(set, l->out + (size_t)b->id * l->nword, l->nword * sizeof *set);
	for (uint32_t k = b->nins; k-- > pos;) {
		const Ins *i = &b->ins[k];
		for (unsigned j = 0; j < i->nslot; j++)
			for (unsigned m = 0; i->slot[j].kind == SDef && m < i->slot[j].n; m++) {
				int u = reg_unit(reg_next(i->slot[j].reg, m));
				if (u >= 0 && u < NumArchUnit && !i->guarded)
					set[u >> 6] &= ~((uint64_t)1 << (u & 63));
			}
		for (unsigned j = 0; j < i->nslot; j++)
			for (unsigned m = 0; i->slot[j].kind != SDef && m < i->slot[j].n; m++) {
				int u = reg_unit(reg_next(i->slot[j].reg, m));
				if (u >= 0 && u < NumArchUnit)
					set[u >> 6] |= (uint64_t)1 << (u & 63);
			}
	}
	for (uint32_t x = 0; x < f->nblk; x++)
		for (uint32_t k = 0; k < f->blk[x]->nins; k++) {
			const Ins *i = &f->blk[x]->ins[k];
			for (unsigned j = 0; j < i->nslot; j++)
				for (unsigned m = 0; m < i->slot[j].n; m++) {
					int u = reg_unit(reg_next(i->slot[j].reg, m));
					if (u >= UnitR && u < UnitP && u > maxr)
						maxr = u;
					if (u >= UnitUR && u < UnitUP && u - UnitUR > maxur)
						maxur = u - UnitUR;
				}
		}
	if (f->info.regcount > 0 && f->info.regcount - 1 > maxr)
		maxr = f->info.regcount - 1;
	for (int u = 0; u < NumArchUnit; u++) {
		int in = (u < UnitP && u <= maxr) || (u >= UnitP && u < UnitUR && u - UnitP < RegPT) ||
		         (u >= UnitUR && u < UnitUP && u - UnitUR <= maxur) ||
		         (u >= UnitUP && u < UnitB && u - UnitUP < RegUPT);
		isfree[u] = in && !((set[u >> 6] >> (u & 63)) & 1);
	}
	free(set);
}

static Reg
unit_reg(int u)
{
	return u < UnitP ? REG(RR, u) : u < UnitUR ? REG(RP, u - UnitP) :
	       u < UnitUP ? REG(RUR, u - UnitUR) : REG(RUP, u - UnitUP);
}

/* sequentialise group g and insert it; -1 after reporting */
static int
emit_group(Out *o, const Group *g, Live *l)
{
	Fn *f = o->f;
	Copy *c = o->copy + g->first;
	uint32_t n = g->n, pos = g->pos;
	uint8_t *isfree = xmalloc(NumArchUnit);
	Step s;
	int rc = 0;

	for (uint32_t k = 0; k < n; k++) {
		Reg r[2] = {c[k].dst, c[k].src};
		for (int q = 0; q < 2; q++)
			if (RCLS(r[q]) != RR && RCLS(r[q]) != RP && RCLS(r[q]) != RUR &&
			    RCLS(r[q]) != RUP) {
				char rn[16];
				reg_name(r[q], rn, sizeof rn);
				error_at(o->d, g->pos < g->b->nins ? g->b->ins[g->pos].loc : f->loc,
				         "cannot leave SSA: a copy of %s is needed, but its register class "
				         "has no copy instruction", rn);
				free(isfree);
				return -1;
			}
	}
	free_units(f, l, g->b, g->pos, isfree);
	for (uint32_t k = 0; k < n; k++) {
		isfree[reg_unit(c[k].dst)] = 0;
		isfree[reg_unit(c[k].src)] = 0;
	}
	while (n) {
		uint32_t k, j;
		/* a copy whose destination no other copy reads */
		for (k = 0; k < n; k++) {
			for (j = 0; j < n && !(j != k && c[j].src == c[k].dst); j++)
				;
			if (j == n)
				break;
		}
		if (k < n) {
			if (c[k].dst != c[k].src) {
				step_copy(&s, c[k].dst, c[k].src);
				rc |= emit_step(f, g->b, &pos, &s);
			}
			c[k] = c[--n];
			continue;
		}
		/* only cycles are left: break the one through c[0] */
		int t = -1;
		for (int u = 0; u < NumArchUnit && t < 0; u++)
			if (isfree[u] && RCLS(unit_reg(u)) == RCLS(c[0].src))
				t = u;
		if (t >= 0) {
			/* tmp <- src; the copy reads tmp instead, so the one that writes src is ready */
			step_copy(&s, unit_reg(t), c[0].src);
			rc |= emit_step(f, g->b, &pos, &s);
			c[0].src = unit_reg(t);
			continue;
		}
		/* swap dst and src without a scratch: dst now holds src's value (c[0] is done) and
		 * src holds dst's, which the copy that read dst now reads from there */
		Reg a = c[0].dst, b = c[0].src;
		step_xor(&s, a, b);
		rc |= emit_step(f, g->b, &pos, &s);
		step_xor(&s, b, a);
		rc |= emit_step(f, g->b, &pos, &s);
		step_xor(&s, a, b);
		rc |= emit_step(f, g->b, &pos, &s);
		c[0] = c[--n];
		for (j = 0; j < n; j++)
			if (c[j].src == a)
				c[j].src = b;
		for (j = 0; j < n;)
			if (c[j].dst == c[j].src)
				c[j] = c[--n];
			else
				j++;
	}
	free(isfree);
	if (rc < 0)
		error_plain(o->d, "internal: the opcode table refused a copy instruction");
	return rc < 0 ? -1 : 0;
}

/* groups by block, then by position, last first (so inserting keeps the others' positions) */
static int
group_cmp(const void *a, const void *b)
{
	const Group *x = a, *y = b;

	if (x->b->id != y->b->id)
		return x->b->id < y->b->id ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos > y->pos ? -1 : 1;
	return 0;
}

int
ssa_out(Fn *f, Diag *d)
{
	Out o = {.f = f, .d = d};
	Blk **stk;
	uint32_t *pos, *mark, sp;
	int rc = 0;

	if (!f->in_ssa)
		return 0;
	o.cur = xmalloc(NumUnit * sizeof *o.cur);
	stk = xmalloc((f->nblk + 1) * sizeof *stk);
	pos = xmalloc((f->nblk + 1) * sizeof *pos);
	mark = xmalloc((f->nblk + 1) * sizeof *mark);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *root = f->rpo[r];
		if (root->idom)
			continue;
		sp = 0;
		stk[sp] = root;
		pos[sp] = 0;
		mark[sp++] = o.nlog;
		out_blk(&o, root);
		while (sp) {
			Blk *b = stk[sp - 1];
			if (pos[sp - 1] < b->ndom) {
				Blk *c = b->dom[pos[sp - 1]++];
				stk[sp] = c;
				pos[sp] = 0;
				mark[sp++] = o.nlog;
				out_blk(&o, c);
			} else {
				sp--;
				while (o.nlog > mark[sp]) {
					o.nlog--;
					o.cur[o.logu[o.nlog]] = o.logv[o.nlog];
				}
			}
		}
	}
	free(o.cur);
	free(o.logu);
	free(o.logv);
	free(stk);
	free(pos);
	free(mark);
	if (o.err) {
		rc = -1;
		goto out;
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			for (unsigned j = 0; j < i->nslot; j++)
				if (i->slot[j].v)
					memset(i->slot[j].v, 0, i->slot[j].n * sizeof *i->slot[j].v);
		}
	ssa_release(f);
	f->nval = 0;
	f->in_ssa = 0;
	if (o.ngrp) {
		if (!o.live)
			o.live = live_build(f, NumArchUnit);
		qsort(o.grp, o.ngrp, sizeof *o.grp, group_cmp);
		for (uint32_t k = 0; k < o.ngrp && rc == 0; k++)
			rc = emit_group(&o, &o.grp[k], o.live);
		fn_relayout(f);
	}
out:
	live_free(o.live);
	free(o.copy);
	free(o.grp);
	return rc;
}
