/* liveness.c: live register units on entry to and exit from every block, as bitsets over the
 * first nunit units (passes.h numbering; NumArchUnit for SASS, NumUnit with FIBER's V0..V2047),
 * and the largest number of R registers live at one point.
 *
 * Internal subroutines are followed: a block that CALLs one also flows into its entry, and each
 * RET reachable from that entry flows into the return sites of every call to it (context-
 * insensitive), so values that the callee reads or that survive the call stay live across it.
 * Backward dataflow to a fixed point in post-order (live_solve, which SSA construction uses
 * too). Requires cfg_build; runs op_slots on
 * instructions that have no slots yet. Out-of-SSA and SSA forms alike (only slot registers).
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

/* extra successors for calls: xs[xo[b] .. xo[b+1]). The RETs of each subroutine are found
 * once (rs[ro[c] .. ro[c] + rn[c]) for entry block c), then joined to every return site. */
static void
call_edges(Fn *f, uint32_t **xo_, uint32_t **xs_)
{
	uint32_t nblk = f->nblk, *from = NULL, *to = NULL, n = 0, cap = 0;
	uint32_t *seen = xmalloc(nblk * sizeof *seen), *stk = xmalloc((nblk + 1) * sizeof *stk);
	uint32_t *xo = xmalloc((nblk + 1) * sizeof *xo), *xs;
	uint32_t *ro = xmalloc(nblk * sizeof *ro), *rn = xmalloc(nblk * sizeof *rn);
	uint32_t *rs = NULL, nrs = 0, crs = 0;

#define PUSH(v, len, cp, x) do { if (len == cp) { cp = cp ? 2 * cp : 64; \
		v = xrealloc(v, cp * sizeof *v); } v[len++] = (x); } while (0)
#define EDGE(a, b_) do { if (n == cap) { cap = cap ? 2 * cap : 64; \
		from = xrealloc(from, cap * sizeof *from); to = xrealloc(to, cap * sizeof *to); } \
		from[n] = (a); to[n++] = (b_); } while (0)
	for (uint32_t b = 0; b < nblk; b++) {
		Blk *c = cfg_callee(f, f->blk[b]);
		uint32_t sp = 0;
		if (!c || f->blk[b]->rpo == UINT32_MAX)
			continue;
		EDGE(b, c->id);
		if (!f->blk[b]->nsucc)
			continue;
		if (!seen[c->id]) {
			/* the RETs reachable from this entry, once per entry */
			uint32_t *mark = xmalloc(nblk * sizeof *mark);
			ro[c->id] = nrs;
			stk[sp++] = c->id;
			mark[c->id] = 1;
			while (sp) {
				Blk *x = f->blk[stk[--sp]];
				if (is_ret(f, x))
					PUSH(rs, nrs, crs, x->id);
				for (uint32_t k = 0; k < x->nsucc; k++)
					if (!mark[x->succ[k]->id]) {
						mark[x->succ[k]->id] = 1;
						stk[sp++] = x->succ[k]->id;
					}
			}
			rn[c->id] = nrs - ro[c->id];
			seen[c->id] = 1;
			free(mark);
		}
		/* every RET of the subroutine returns to b's fall-through */
		for (uint32_t k = 0; k < rn[c->id]; k++) {
			EDGE(rs[ro[c->id] + k], f->blk[b]->succ[0]->id);
		}
	}
#undef PUSH
#undef EDGE
	memset(xo, 0, (nblk + 1) * sizeof *xo);
	for (uint32_t k = 0; k < n; k++)
		xo[from[k] + 1]++;
	for (uint32_t b = 0; b < nblk; b++)
		xo[b + 1] += xo[b];
	xs = xmalloc((n + 1) * sizeof *xs);
	memset(seen, 0, nblk * sizeof *seen);
	for (uint32_t k = 0; k < n; k++)
		xs[xo[from[k]] + seen[from[k]]++] = to[k];
	free(from);
	free(to);
	free(seen);
	free(stk);
	free(ro);
	free(rn);
	free(rs);
	*xo_ = xo;
	*xs_ = xs;
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

/* the dataflow of every liveness in fiber (live_build here, and the pruned phis of ssa.c over
 * its own dense unit numbering): in = gen | (out & ~kill), out = the union of the successors' in,
 * to the least fixed point, backward in post-order. in and out (nblk sets of nword words each,
 * by block id) start empty; calls: follow internal subroutines (call and return edges) */
void
live_solve(Fn *f, uint32_t nw, const uint64_t *gen, const uint64_t *kill, uint64_t *in_,
           uint64_t *out_, int calls)
{
	uint32_t *xo = NULL, *xs = NULL;
	int changed = 1;

	if (calls) {
		call_edges(f, &xo, &xs);
	} else {
		xo = xmalloc((f->nblk + 1) * sizeof *xo);   /* no extra edges */
		memset(xo, 0, (f->nblk + 1) * sizeof *xo);
	}
	while (changed) {
		changed = 0;
		for (uint32_t r = f->nrpo; r-- > 0;) {
			Blk *b = f->rpo[r];
			uint64_t *in = in_ + (size_t)b->id * nw, *out = out_ + (size_t)b->id * nw;
			const uint64_t *g = gen + (size_t)b->id * nw, *kl = kill + (size_t)b->id * nw;
			for (uint32_t k = 0; k < b->nsucc + (xo[b->id + 1] - xo[b->id]); k++) {
				uint32_t s = k < b->nsucc ? b->succ[k]->id : xs[xo[b->id] + k - b->nsucc];
				const uint64_t *si = in_ + (size_t)s * nw;
				for (uint32_t w = 0; w < nw; w++)
					out[w] |= si[w];
			}
			for (uint32_t w = 0; w < nw; w++) {
				uint64_t x = g[w] | (out[w] & ~kl[w]);
				if (x != in[w]) {
					in[w] = x;
					changed = 1;
				}
			}
		}
	}
	free(xo);
	free(xs);
}

Live *
live_build(Fn *f, uint32_t nunit)
{
	Live *l;
	uint32_t nw, nblk = f->nblk;
	uint64_t *gen, *kill, *tmp;

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
	tmp = xmalloc(nw * sizeof *tmp);
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
	/* register pressure: at every point, the live set, and what is live after an instruction
	 * together with what it writes; the number of live R registers is kept as bits change */
	l->maxr = 0;
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		int n = 0;
		memcpy(tmp, l->out + (size_t)b->id * nw, nw * sizeof *tmp);
		for (uint32_t w = 0; w < 4 && w < nw; w++)
			n += __builtin_popcountll(tmp[w]);
		if (n > l->maxr)
			l->maxr = n;
		for (uint32_t k = b->nins; k-- > 0;) {
			const Ins *i = &b->ins[k];
			int extra = 0;
			/* defs: those not live still occupy a register at this instruction */
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *sl = &i->slot[j];
				if (sl->kind != SDef || RCLS(sl->reg) != RR)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					if (u >= 0 && (uint32_t)u < nunit && !((tmp[u >> 6] >> (u & 63)) & 1))
						extra++;
				}
			}
			if (n + extra > l->maxr)
				l->maxr = n + extra;
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *sl = &i->slot[j];
				if (sl->kind != SDef)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					if (u >= 0 && (uint32_t)u < nunit && ((tmp[u >> 6] >> (u & 63)) & 1)) {
						tmp[u >> 6] &= ~((uint64_t)1 << (u & 63));
						n -= u < UnitP;
					}
				}
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *sl = &i->slot[j];
				if (sl->kind == SDef)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					int u = reg_unit(reg_next(sl->reg, m));
					if (u >= 0 && (uint32_t)u < nunit && !((tmp[u >> 6] >> (u & 63)) & 1)) {
						tmp[u >> 6] |= (uint64_t)1 << (u & 63);
						n += u < UnitP;
					}
				}
			}
			if (n > l->maxr)
				l->maxr = n;
		}
	}
	free(gen);
	free(kill);
	free(tmp);
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

/* liveness: compute the sets; warn when more registers are live than the kernel declares */
int
pass_liveness(Fn *f, Diag *d)
{
	Live *l;

	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	l = live_build(f, NumArchUnit);
	if (f->info.regcount > 0 && l->maxr > f->info.regcount)
		warn_at(d, f->loc, "%d registers are live at once in '%s', which declares %d",
		        l->maxr, mstr(f->mod, f->name), f->info.regcount);
	live_free(l);
	return 0;
}
