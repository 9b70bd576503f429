/* liveness.c: live register units on entry to and exit from every block, as bitsets over the
 * first nunit units (passes.h numbering; NumArchUnit for SASS, NumUnit with FIBER's V0..V2047),
 * and the largest number of R registers live at one point (pressure.c's walk).
 *
 * Internal subroutines (CALL.REL / RET in one listing) are followed through summaries
 * (docs/pass-liveness.md, "Calls"): a CALL's live-out is its callee's live-in as a function of
 * what is live at the return site, G | (X & P), so what the callee reads is live at the call and
 * what lives after it stays live across, unless the callee writes it on every path; inside a
 * subroutine, what is live after its RETs is the union over all its return sites, so values
 * live across any call of it are live through its body. Nested calls: summaries are iterated
 * together to a fixed point. Backward dataflow in post-order (live_solve, which SSA
 * construction uses too, without calls). Requires cfg_build; runs op_slots on instructions
 * that have no slots yet. Out-of-SSA and SSA forms alike (only slot registers).
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

int
live_has(const Live *l, const uint64_t *set, uint32_t u)
{
	return u < l->nunit && ((set[u >> 6] >> (u & 63)) & 1);
}

static void
set_add(uint64_t *s, int u, uint32_t nunit)
{
	if (u >= 0 && (uint32_t)u < nunit)
		s[u >> 6] |= (uint64_t)1 << (u & 63);
}

static void
set_del(uint64_t *s, int u, uint32_t nunit)
{
	if (u >= 0 && (uint32_t)u < nunit)
		s[u >> 6] &= ~((uint64_t)1 << (u & 63));
}

static int
is_ret(const Fn *f, const Blk *b)
{
	const Ins *i;

	if (!b->nins)
		return 0;
	i = &b->ins[b->nins - 1];
	return (i->op < NOp && (optab[i->op].flags & OFRet)) ||
	       strcmp(mstr(f->mod, i->name), "RET") == 0;
}

/* the internal subroutines of f, for the dataflow: per call block its callee entry and return
 * site, per RET block the return sites of every call of a subroutine that reaches it, and per
 * subroutine the blocks reachable from its entry (post-order) for its summary */
typedef struct Calls {
	uint32_t nblk;
	uint32_t *callee;  /* nblk: entry block id of the subroutine a block CALLs, or UINT32_MAX */
	uint8_t *guarded;  /* nblk: the CALL is predicated (the fall-through runs without it) */
	uint32_t *ro, *rs; /* return sites of RET block b: rs[ro[b] .. ro[b+1]) */
	uint32_t *ent;     /* the distinct subroutine entries, in call order */
	uint32_t nent;
	uint32_t *eo, *eb; /* blocks of subroutine k, post-order: eb[eo[k] .. eo[k+1]) */
	uint32_t *slot;    /* nblk: index k of a subroutine entry in ent, else UINT32_MAX */
	uint8_t *isret;    /* nblk: ends in RET */
} Calls;

#define PUSH(v, len, cp, x) do { if ((len) == (cp)) { (cp) = (cp) ? 2 * (cp) : 64; \
		(v) = xrealloc((v), (cp) * sizeof *(v)); } (v)[(len)++] = (x); } while (0)

/* blocks reachable from entry c through ordinary edges (a call's fall-through included, its
 * callee not), appended to *v in post-order; mark is nblk zeroed bytes, left set */
static void
region(Fn *f, uint32_t c, uint8_t *mark, uint32_t *stk, uint32_t *it, uint32_t **v, uint32_t *n,
       uint32_t *cap)
{
	uint32_t sp = 0;

	stk[sp] = c;
	it[sp++] = 0;
	mark[c] = 1;
	while (sp) {
		Blk *x = f->blk[stk[sp - 1]];
		if (it[sp - 1] < x->nsucc) {
			uint32_t s = x->succ[it[sp - 1]++]->id;
			if (!mark[s]) {
				mark[s] = 1;
				stk[sp] = s;
				it[sp++] = 0;
			}
		} else {
			PUSH(*v, *n, *cap, x->id);
			sp--;
		}
	}
}

static Calls *
calls_build(Fn *f)
{
	uint32_t nblk = f->nblk;
	Calls *c = xmalloc(sizeof *c);
	uint8_t *mark = xmalloc(nblk + 1);
	uint32_t *stk = xmalloc((nblk + 1) * sizeof *stk), *it = xmalloc((nblk + 1) * sizeof *it);
	uint32_t *from = NULL, *to = NULL, n = 0, cap = 0, capt = 0, ne = 0, cape = 0, nb = 0, capb = 0;

	c->nblk = nblk;
	c->callee = xmalloc((nblk + 1) * sizeof *c->callee);
	c->slot = xmalloc((nblk + 1) * sizeof *c->slot);
	c->guarded = xmalloc(nblk + 1);
	c->isret = xmalloc(nblk + 1);
	c->ent = NULL;
	c->eb = NULL;
	for (uint32_t b = 0; b < nblk; b++) {
		c->callee[b] = c->slot[b] = UINT32_MAX;
		c->isret[b] = is_ret(f, f->blk[b]);
	}
	for (uint32_t b = 0; b < nblk; b++) {
		Blk *x = f->blk[b], *e = cfg_callee(f, x);
		const Ins *ci;
		if (!e || x->rpo == UINT32_MAX)
			continue;
		ci = &x->ins[x->nins - 1];
		c->callee[b] = e->id;
		c->guarded[b] = ci->guarded && !(reg_isconst(ci->guard.r[0]) &&
		                                 !(ci->guard.flags & (FLNot | FNot)));
		if (c->slot[e->id] == UINT32_MAX) {
			c->slot[e->id] = ne;
			PUSH(c->ent, ne, cape, e->id);
		}
	}
	c->nent = ne;
	c->eo = xmalloc((ne + 1) * sizeof *c->eo);
	for (uint32_t k = 0; k < ne; k++) {
		c->eo[k] = nb;
		memset(mark, 0, nblk);
		region(f, c->ent[k], mark, stk, it, &c->eb, &nb, &capb);
	}
	c->eo[ne] = nb;
	/* return edges: every RET of a subroutine returns to the fall-through of each call to it */
	for (uint32_t b = 0; b < nblk; b++) {
		uint32_t k;
		if (c->callee[b] == UINT32_MAX || !f->blk[b]->nsucc)
			continue;
		k = c->slot[c->callee[b]];
		for (uint32_t j = c->eo[k]; j < c->eo[k + 1]; j++)
			if (c->isret[c->eb[j]]) {
				uint32_t nt = n;
				PUSH(from, n, cap, c->eb[j]);
				PUSH(to, nt, capt, f->blk[b]->succ[0]->id);
			}
	}
	c->ro = xmalloc((nblk + 1) * sizeof *c->ro);
	memset(c->ro, 0, (nblk + 1) * sizeof *c->ro);
	for (uint32_t k = 0; k < n; k++)
		c->ro[from[k] + 1]++;
	for (uint32_t b = 0; b < nblk; b++)
		c->ro[b + 1] += c->ro[b];
	c->rs = xmalloc((n + 1) * sizeof *c->rs);
	memset(it, 0, nblk * sizeof *it);
	for (uint32_t k = 0; k < n; k++)
		c->rs[c->ro[from[k]] + it[from[k]]++] = to[k];
	free(from);
	free(to);
	free(mark);
	free(stk);
	free(it);
	return c;
}
#undef PUSH

static void
calls_free(Calls *c)
{
	if (!c)
		return;
	free(c->callee);
	free(c->slot);
	free(c->guarded);
	free(c->isret);
	free(c->ro);
	free(c->rs);
	free(c->ent);
	free(c->eo);
	free(c->eb);
	free(c);
}

/* out of block b: the union of its successors' in, except
 *  - a block that CALLs subroutine k: G_k | (in(return site) & P_k), the callee's summary applied
 *    to what is live after the call (plus in(return site) itself if the CALL is predicated);
 *  - a RET block: ret (a fixed set) when given, else the union of its return sites' in. */
static void
block_out(const Fn *f, const Calls *c, uint32_t nw, const uint64_t *in_, const uint64_t *G,
          const uint64_t *P, const uint64_t *ret, uint32_t b, uint64_t *out)
{
	const Blk *x = f->blk[b];

	memset(out, 0, nw * sizeof *out);
	if (c && c->callee[b] != UINT32_MAX) {
		uint32_t k = c->slot[c->callee[b]];
		const uint64_t *g = G + (size_t)k * nw, *p = P + (size_t)k * nw;
		const uint64_t *s = x->nsucc ? in_ + (size_t)x->succ[0]->id * nw : NULL;
		for (uint32_t w = 0; w < nw; w++)
			out[w] = g[w] | (s ? s[w] & (c->guarded[b] ? ~(uint64_t)0 : p[w]) : 0);
		return;
	}
	if (c && c->isret[b]) {
		if (ret) {
			memcpy(out, ret, nw * sizeof *out);
		} else {
			for (uint32_t j = c->ro[b]; j < c->ro[b + 1]; j++)
				for (uint32_t w = 0; w < nw; w++)
					out[w] |= in_[(size_t)c->rs[j] * nw + w];
		}
		return;
	}
	for (uint32_t k = 0; k < x->nsucc; k++) {
		const uint64_t *si = in_ + (size_t)x->succ[k]->id * nw;
		for (uint32_t w = 0; w < nw; w++)
			out[w] |= si[w];
	}
}

/* in = gen | (out & ~kill) over the blocks bl[0..n) (post-order), to the least fixed point;
 * gen NULL: none */
static void
flow(const Fn *f, const Calls *c, uint32_t nw, const uint64_t *gen, const uint64_t *kill,
     uint64_t *in_, uint64_t *out_, const uint64_t *G, const uint64_t *P, const uint64_t *ret,
     const uint32_t *bl, uint32_t n)
{
	int changed = 1;

	while (changed) {
		changed = 0;
		for (uint32_t r = 0; r < n; r++) {
			uint32_t b = bl[r];
			uint64_t *in = in_ + (size_t)b * nw, *out = out_ + (size_t)b * nw;
			const uint64_t *kl = kill + (size_t)b * nw;
			block_out(f, c, nw, in_, G, P, ret, b, out);
			for (uint32_t w = 0; w < nw; w++) {
				uint64_t x = (gen ? gen[(size_t)b * nw + w] : 0) | (out[w] & ~kl[w]);
				if (x != in[w]) {
					in[w] = x;
					changed = 1;
				}
			}
		}
	}
}

/* the summary of each subroutine k, as a function of X, what is live after its RETs:
 * live at its entry = G_k | (X & P_k). G_k is its entry's live set when nothing is live after
 * it; P_k the units that some path from the entry to a RET does not write. Nested calls use
 * the summaries of their callees, so all are iterated together until none changes. */
static void
summaries(const Fn *f, const Calls *c, uint32_t nw, const uint64_t *gen, const uint64_t *kill,
          uint64_t *G, uint64_t *P)
{
	size_t sz = ((size_t)f->nblk * nw + 1) * sizeof(uint64_t);
	uint64_t *in = xmalloc(sz), *out = xmalloc(sz), *zero = xmalloc(nw * sizeof *zero);
	uint64_t *ones = xmalloc(nw * sizeof *ones);
	int changed = 1;

	memset(ones, 0xff, nw * sizeof *ones);
	while (changed) {
		changed = 0;
		for (uint32_t k = 0; k < c->nent; k++) {
			const uint32_t *bl = c->eb + c->eo[k];
			uint32_t n = c->eo[k + 1] - c->eo[k], e = c->ent[k];
			for (int pass = 0; pass < 2; pass++) {
				uint64_t *dst = (pass ? P : G) + (size_t)k * nw;
				for (uint32_t j = 0; j < n; j++)
					memset(in + (size_t)bl[j] * nw, 0, nw * sizeof *in);
				flow(f, c, nw, pass ? NULL : gen, kill, in, out, G, P, pass ? ones : zero, bl, n);
				if (memcmp(dst, in + (size_t)e * nw, nw * sizeof *dst)) {
					memcpy(dst, in + (size_t)e * nw, nw * sizeof *dst);
					changed = 1;
				}
			}
		}
	}
	free(in);
	free(out);
	free(zero);
	free(ones);
}

/* the dataflow of every liveness in fiber (live_build here, and the pruned phis of ssa.c over
 * its own dense unit numbering): in = gen | (out & ~kill), out = the union of the successors' in,
 * to the least fixed point, backward in post-order. in and out (nblk sets of nword words each,
 * by block id) start empty. calls: follow internal subroutines (docs/pass-liveness.md): a CALL's
 * out is its callee's summary applied to what is live at its return site (what the callee reads,
 * and what lives across the call unless the callee writes it on every path); inside a
 * subroutine, what is live after its RETs is the union over its return sites, so values that
 * live across any call of it are live through its body. */
void
live_solve(Fn *f, uint32_t nw, const uint64_t *gen, const uint64_t *kill, uint64_t *in_,
           uint64_t *out_, int calls)
{
	Calls *c = calls ? calls_build(f) : NULL;
	uint64_t *G = NULL, *P = NULL;
	uint32_t *bl = xmalloc((f->nrpo + 1) * sizeof *bl);

	for (uint32_t r = 0; r < f->nrpo; r++)
		bl[r] = f->rpo[f->nrpo - 1 - r]->id;
	if (c && c->nent) {
		G = xmalloc(((size_t)c->nent * nw + 1) * sizeof *G);
		P = xmalloc(((size_t)c->nent * nw + 1) * sizeof *P);
		summaries(f, c, nw, gen, kill, G, P);

	} else if (c) {
		calls_free(c);
		c = NULL;
	}
	flow(f, c, nw, gen, kill, in_, out_, G, P, NULL, bl, f->nrpo);
	free(bl);
	free(G);
	free(P);
	calls_free(c);
}

/* defs and upward-exposed uses of one instruction applied backward: live = live - def + use */
static void
step(const Ins *i, uint64_t *live, uint32_t nunit)
{
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SDef)
			for (unsigned m = 0; m < i->slot[j].n; m++)
				set_del(live, reg_unit(reg_next(i->slot[j].reg, m)), nunit);
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind != SDef)
			for (unsigned m = 0; m < i->slot[j].n; m++)
				set_add(live, reg_unit(reg_next(i->slot[j].reg, m)), nunit);
}

Live *
live_sets(Fn *f, uint32_t nunit)
{
	Live *l;
	uint32_t nw, nblk = f->nblk;
	uint64_t *gen, *kill;

	if (!f->blk)
		return NULL;
	for (uint32_t k = 0; k < f->nins; k++)
		if (!f->ins[k].slot)
			op_slots(f, &f->ins[k]);
	l = xmalloc(sizeof *l);
	l->nunit = nunit;
	l->nword = nw = (nunit + 63) / 64 ? (nunit + 63) / 64 : 1;
	l->nblk = nblk;
	l->in = xmalloc(((size_t)nblk * nw + 1) * sizeof *l->in);
	l->out = xmalloc(((size_t)nblk * nw + 1) * sizeof *l->out);
	gen = xmalloc(((size_t)nblk * nw + 1) * sizeof *gen);
	kill = xmalloc(((size_t)nblk * nw + 1) * sizeof *kill);
	/* gen: read before written in the block; kill: written (backward over the block) */
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		uint64_t *g = gen + (size_t)b->id * nw, *kl = kill + (size_t)b->id * nw;
		for (uint32_t k = b->nins; k-- > 0;) {
			const Ins *i = &b->ins[k];
			step(i, g, nunit);
			for (unsigned j = 0; j < i->nslot; j++)
				if (i->slot[j].kind == SDef)
					for (unsigned m = 0; m < i->slot[j].n; m++)
						set_add(kl, reg_unit(reg_next(i->slot[j].reg, m)), nunit);
		}
	}
	live_solve(f, nw, gen, kill, l->in, l->out, 1);
	l->maxr = -1;
	free(gen);
	free(kill);
	return l;
}

/* the sets, and the most R registers live at one point: pressure.c's walk (Pressure.maxlive) */
Live *
live_build(Fn *f, uint32_t nunit)
{
	Live *l = live_sets(f, nunit);
	Pressure *p;

	if (!l)
		return NULL;
	p = pressure_build(f, l);
	l->maxr = p->maxlive;
	pressure_free(p);
	return l;
}

void
live_free(Live *l)
{
	if (!l)
		return;
	free(l->in);
	free(l->out);
	free(l);
}

static void
dump_set(FILE *out, const Live *l, const uint64_t *s)
{
	char buf[16];

	for (uint32_t u = 0; u < l->nunit; u++) {
		Reg r;
		if (!live_has(l, s, u))
			continue;
		r = u < UnitP ? REG(RR, u) : u < UnitUR ? REG(RP, u - UnitP) :
		    u < UnitUP ? REG(RUR, u - UnitUR) : u < UnitB ? REG(RUP, u - UnitUP) :
		    u < UnitV ? REG(RB, u - UnitB) : REG(RV, u - UnitV);
		reg_name(r, buf, sizeof buf);
		fprintf(out, " %s", buf);
	}
}

void
live_dump(FILE *out, const Fn *f, const Live *l)
{
	fprintf(out, "// liveness of %s: at most %d R registers live\n", mstr(f->mod, f->name),
	        l->maxr);
	for (uint32_t b = 0; b < l->nblk; b++) {
		if (f->blk[b]->rpo == UINT32_MAX)
			continue;
		fprintf(out, "// bb%u in:", b);
		dump_set(out, l, l->in + (size_t)b * l->nword);
		fprintf(out, "\n// bb%u out:", b);
		dump_set(out, l, l->out + (size_t)b * l->nword);
		fputc('\n', out);
	}
}

int
live_max_regs(Fn *f)
{
	Live *l = live_build(f, NumArchUnit);
	int n;

	if (!l)
		return -1;
	n = l->maxr;
	live_free(l);
	return n;
}
