/* regalloc.c: the pass regalloc (docs/pass-regalloc.md): the virtual registers (.vreg) and
 * predicates (.vpred) of lowered PTX onto R0..R254 and P0..P6, with spills to local memory.
 *
 *   1. references: every slot that names a virtual register, per declaration (a node); the
 *      copies (MOV, IMAD.MOV.U32 d, RZ, RZ, s) as colouring preferences;
 *   2. liveness over units (R0..R254 and P0..P6 the text names: pre-coloured; one unit per
 *      register of each declaration), with live_solve and its internal-subroutine summaries;
 *      a forward "may be defined" pass drops what is live only as an undefined read;
 *   3. live ranges as segments of points (regalloc.h), from one backward walk per block;
 *   4. colouring: nodes by first point, each at a copy partner's register if that is free, else
 *      the lowest free register aligned for its size (2: even, 4 and more: multiple of 4),
 *      against a per-point occupancy of the registers (exact for holes and tuples, and linear in
 *      the points a node occupies: chunks of RaChunk points carry their union);
 *   5. spilling: a node that finds no register within maxreg goes to memory (a predicate to an R
 *      register, which may go to memory in turn); each of its references then uses a
 *      temporary that lives at that instruction only; colour again (rounds) until all fit;
 *   6. rawrite.c writes the registers, the spill code (LDL/STL at [R1+off], ISETP/SEL for
 *      predicates), the frame and the register count.
 *
 * Preconditions: the CFG (cfg_build); not SSA; slots computable (op_slots). Physical R and P
 * registers the text names keep their place. A function without virtual registers is left as
 * it is.
 */
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

#define HAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)
#define ADD(s, u) ((s)[(u) >> 6] |= (uint64_t)1 << ((u) & 63))
#define DEL(s, u) ((s)[(u) >> 6] &= ~((uint64_t)1 << ((u) & 63)))

/* ---- units --------------------------------------------------------------------------------- */

int
ra_unit(const RA *ra, Reg r)
{
	unsigned n = RNUM(r);

	switch (RCLS(r)) {
	case RR:
		if (n < RaPhysR)
			return (int)n;
		if (n >= RegVirt && n - RegVirt < ra->nrv)
			return (int)(RaVirt + n - RegVirt);
		return -1;
	case RP:
		if (n < 7)
			return (int)(RaPhysP + n);
		if (n >= RegVirt && n - RegVirt < ra->npv)
			return (int)(RaVirt + ra->nrv + n - RegVirt);
		return -1;
	default:
		return -1;
	}
}

static int
isvirt_unit(uint32_t u)
{
	return u >= RaVirt;
}

static uint32_t
new_node(RA *ra)
{
	vgrow(&ra->node, &ra->cnode, ra->nnode + 1, sizeof *ra->node);
	memset(&ra->node[ra->nnode], 0, sizeof *ra->node);
	ra->node[ra->nnode].col = -1;
	ra->node[ra->nnode].slot = -1;
	ra->node[ra->nnode].start = UINT32_MAX;
	ra->node[ra->nnode].home = UINT32_MAX;
	return ra->nnode++;
}

/* ---- 1. references and copies -------------------------------------------------------------- */

int
ra_copy_of(const Fn *f, const Ins *i, Reg *d, Reg *s)
{
	const Opnd *o = i->opnd;
	int k;

	if (i->guarded || !i->nopnd || o[0].kind != OReg || RCLS(o[0].r[0]) != RR)
		return 0;
	if (i->op == OMOV && i->nopnd == 2 && i->nmod == 0)
		k = 1;
	else if (i->op == OIMAD && i->nopnd == 4 && i->nmod >= 1 && i->nmod <= 2 &&
	         ins_hasmod(i, f->mod, "MOV") && (i->nmod == 1 || ins_hasmod(i, f->mod, "U32")) &&
	         o[1].kind == OReg && o[1].r[0] == REG(RR, RegRZ) && !o[1].flags &&
	         o[2].kind == OReg && o[2].r[0] == REG(RR, RegRZ) && !o[2].flags)
		k = 3;
	else
		return 0;
	if (o[k].kind != OReg || RCLS(o[k].r[0]) != RR || reg_isconst(o[k].r[0]) ||
	    (o[k].flags & ~FReuse) || o[k].sfx[0] || (o[0].flags & ~FReuse) || o[0].sfx[0])
		return 0;
	*d = o[0].r[0];
	*s = o[k].r[0];
	return 1;
}

/* the nodes of the declarations, their references (by node, in instruction order) and the copy
 * pairs; -1 after an error */
static int
refs(RA *ra)
{
	Fn *f = ra->f;
	uint32_t *cnt, *at, nr = 0, scratch[256], sfl[256];
	RaRef *tmp = NULL;
	uint32_t ctmp = 0, *tnode = NULL, ctn = 0;

	for (uint32_t k = 0; k < f->nvreg; k++) {
		const FVReg *v = &f->vreg[k];
		uint32_t n = new_node(ra);
		RaNode *x = &ra->node[n];
		x->cls = v->cls == RP ? RP : RR;
		x->kind = NkDecl;
		x->size = v->size;
		x->align = v->size < 4 ? v->size : 4;
		x->decl = k;
		x->unit = (uint32_t)ra_unit(ra, REG(x->cls, v->base));
		for (uint32_t e = 0; e < v->size; e++)
			ra->unode[x->unit + e] = n;
	}
	for (uint32_t g = 0; g < ra->nins; g++) {
		Ins *i = ra->ins[g];
		unsigned ns = 0;
		Reg cd, cs;
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *s = &i->slot[j];
			int u = ra_unit(ra, s->reg);
			uint32_t n, fl;
			if (u < 0 || !isvirt_unit((uint32_t)u))
				continue;
			if (s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote)) {
				error_at(ra->d, i->loc, "regalloc does not place remote reads (%%x@W): "
				         "fiber-ra does");
				return -1;
			}
			n = ra->unode[u];
			fl = s->kind == SUse ? RfUse : s->kind == SOld ? RfOld : RfDef;
			if (s->kind == SDef && s->n > 1)
				fl |= RfWide;
			unsigned q = 0;
			while (q < ns && scratch[q] != n)
				q++;
			if (q == ns) {
				scratch[ns] = n;
				sfl[ns++] = 0;
			}
			sfl[q] |= fl;
		}
		/* an operand the opcode table gives no slot (it neither reads nor writes it): still
		 * rewritten, as a read */
		for (unsigned j = 0; j <= i->nopnd; j++)
			for (int fl = 0; fl < 3; fl++) {
				Reg r = j < i->nopnd ? (i->opnd[j].kind != ONone ? i->opnd[j].r[fl] : RNone)
				                     : (fl == 0 && i->guarded ? i->guard.r[0] : RNone);
				int u = ra_unit(ra, r);
				unsigned q = 0;
				if (u < 0 || !isvirt_unit((uint32_t)u))
					continue;
				while (q < ns && scratch[q] != ra->unode[u])
					q++;
				if (q == ns && ns < 256) {
					scratch[ns] = ra->unode[u];
					sfl[ns++] = RfUse;
				}
			}
		for (unsigned q = 0; q < ns; q++) {
			vgrow(&tmp, &ctmp, nr + 1, sizeof *tmp);
			vgrow(&tnode, &ctn, nr + 1, sizeof *tnode);
			tmp[nr] = (RaRef){ .ins = g, .fl = (uint8_t)sfl[q], .temp = UINT32_MAX };
			tnode[nr++] = scratch[q];
		}
		if (ra_copy_of(f, i, &cd, &cs)) {
			int ud = ra_unit(ra, cd), us = ra_unit(ra, cs);
			if (ud >= 0 && us >= 0 && (isvirt_unit((uint32_t)ud) || isvirt_unit((uint32_t)us))) {
				for (int side = 0; side < 2; side++) {
					uint32_t me = (uint32_t)(side ? us : ud), other = (uint32_t)(side ? ud : us);
					if (!isvirt_unit(me))
						continue;
					vgrow(&ra->pair, &ra->cpair, ra->npair * 3 + 3, sizeof *ra->pair);
					ra->pair[ra->npair * 3] = ra->unode[me];
					ra->pair[ra->npair * 3 + 1] = me - ra->node[ra->unode[me]].unit;
					ra->pair[ra->npair * 3 + 2] = other;
					ra->npair++;
				}
			}
		}
	}
	/* by node, keeping instruction order */
	cnt = xmalloc((ra->nnode + 1) * sizeof *cnt);
	at = xmalloc((ra->nnode + 1) * sizeof *at);
	memset(cnt, 0, (ra->nnode + 1) * sizeof *cnt);
	for (uint32_t k = 0; k < nr; k++)
		cnt[tnode[k]]++;
	for (uint32_t n = 0, sum = 0; n < ra->nnode; n++) {
		ra->node[n].ref = at[n] = sum;
		ra->node[n].nref = cnt[n];
		sum += cnt[n];
	}
	vgrow(&ra->ref, &ra->cref, nr + 1, sizeof *ra->ref);
	for (uint32_t k = 0; k < nr; k++)
		ra->ref[at[tnode[k]]++] = tmp[k];
	ra->nref = nr;
	free(cnt);
	free(at);
	free(tmp);
	free(tnode);
	return 0;
}

int
ra_refs_at(const RA *ra, const RaNode *v, uint32_t g)
{
	uint32_t lo = v->ref, hi = v->ref + v->nref;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (ra->ref[mid].ins < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->ref + v->nref && ra->ref[lo].ins == g ? (int)lo : -1;
}

/* ---- 2. liveness ---------------------------------------------------------------------------- */

/* gen (read before written) and kill (written) of every block; dk: written at all */
static void
block_sets(RA *ra, uint32_t nw, uint64_t *gen, uint64_t *kill)
{
	Fn *f = ra->f;

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		uint64_t *g = gen + (size_t)b * nw, *kl = kill + (size_t)b * nw;
		for (uint32_t k = x->nins; k-- > 0;) {
			const Ins *i = &x->ins[k];
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				int u = ra_unit(ra, s->reg);
				if (s->kind != SDef || u < 0)
					continue;
				for (unsigned m = 0; m < s->n; m++)
					DEL(g, (uint32_t)u + m), ADD(kl, (uint32_t)u + m);
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				int u = ra_unit(ra, s->reg);
				if (s->kind == SDef || u < 0)
					continue;
				for (unsigned m = 0; m < s->n; m++)
					ADD(g, (uint32_t)u + m);
			}
		}
	}
}

/* may be defined on entry to each block (forward, union over the predecessors): the entry
 * block has nothing virtual defined; a block without predecessors (a subroutine's entry, dead
 * code) and the return site of an internal call everything */
static void
maydef(RA *ra, uint32_t nw, const uint64_t *kill, uint64_t *din)
{
	Fn *f = ra->f;
	Blk *entry = f->nrpo ? f->rpo[0] : NULL;
	uint64_t *dout = xmalloc(((size_t)f->nblk * nw + 1) * sizeof *dout);
	int changed = 1;

	memset(din, 0xff, (size_t)f->nblk * nw * sizeof *din);
	memset(dout, 0xff, (size_t)f->nblk * nw * sizeof *dout);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		if (b->npred || b == entry)
			memset(din + (size_t)b->id * nw, 0, nw * sizeof *din);
	}
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		uint64_t *o = dout + (size_t)b->id * nw;
		for (uint32_t w = 0; w < nw; w++)
			o[w] = din[(size_t)b->id * nw + w] | kill[(size_t)b->id * nw + w];
	}
	while (changed) {
		changed = 0;
		for (uint32_t r = 0; r < f->nrpo; r++) {
			Blk *b = f->rpo[r];
			uint64_t *in = din + (size_t)b->id * nw, *o = dout + (size_t)b->id * nw;
			if (!b->npred)
				continue;
			for (uint32_t w = 0; w < nw; w++) {
				uint64_t x = in[w];
				for (uint32_t p = 0; p < b->npred; p++)
					x |= cfg_callee(f, b->pred[p]) ? ~(uint64_t)0 :
					     dout[(size_t)b->pred[p]->id * nw + w];
				if (x != in[w]) {
					in[w] = x;
					changed = 1;
				}
				x |= kill[(size_t)b->id * nw + w];
				if (x != o[w]) {
					o[w] = x;
					changed = 1;
				}
			}
		}
	}
	free(dout);
}

/* ---- 3. segments ----------------------------------------------------------------------------- */

typedef struct USeg { uint32_t unit, from, to; } USeg;

static void
emit(USeg **s, uint32_t *n, uint32_t *cap, uint32_t u, uint32_t from, uint32_t to)
{
	vgrow(s, cap, *n + 1, sizeof **s);
	(*s)[(*n)++] = (USeg){ u, from, to };
}

/* the segments of every unit, from one backward walk per block over the live sets; an
 * undefined stretch (a read that no write can reach) is dropped for virtual units */
static int
segments(RA *ra)
{
	Fn *f = ra->f;
	uint32_t nw = (ra->nunit + 63) / 64, nb = f->nblk, ns = 0, cs = 0, *end, *cnt;
	uint64_t *gen = xmalloc(((size_t)nb * nw + 1) * sizeof *gen);
	uint64_t *kill = xmalloc(((size_t)nb * nw + 1) * sizeof *kill);
	uint64_t *in = xmalloc(((size_t)nb * nw + 1) * sizeof *in);
	uint64_t *out = xmalloc(((size_t)nb * nw + 1) * sizeof *out);
	uint64_t *din = xmalloc(((size_t)nb * nw + 1) * sizeof *din);
	uint64_t *live = xmalloc((nw + 1) * sizeof *live);
	USeg *s = NULL;

	block_sets(ra, nw, gen, kill);
	live_solve(f, nw, gen, kill, in, out, 1);
	maydef(ra, nw, kill, din);
	end = xmalloc((ra->nunit + 1) * sizeof *end);
	for (uint32_t b = 0; b < nb; b++) {
		Blk *x = f->blk[b];
		uint32_t g0 = ra->gblk[b], glast = g0 + x->nins - 1;
		const uint64_t *di = din + (size_t)b * nw;
		if (!x->nins)
			continue;
		memcpy(live, out + (size_t)b * nw, nw * sizeof *live);
		for (uint32_t w = 0; w < nw; w++)
			for (uint64_t y = live[w]; y; y &= y - 1)
				end[w * 64 + (uint32_t)__builtin_ctzll(y)] = 2 * glast + 1;
		for (uint32_t k = x->nins; k-- > 0;) {
			const Ins *i = &x->ins[k];
			uint32_t g = g0 + k;
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *sl = &i->slot[j];
				int u = ra_unit(ra, sl->reg);
				uint32_t dp = sl->n > 1 ? 2 * g : 2 * g + 1;
				if (sl->kind != SDef || u < 0)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					uint32_t v = (uint32_t)u + m;
					emit(&s, &ns, &cs, v, dp, HAS(live, v) ? end[v] : 2 * g + 1);
					DEL(live, v);
				}
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *sl = &i->slot[j];
				int u = ra_unit(ra, sl->reg);
				if (sl->kind == SDef || u < 0)
					continue;
				for (unsigned m = 0; m < sl->n; m++) {
					uint32_t v = (uint32_t)u + m;
					if (!HAS(live, v)) {
						ADD(live, v);
						end[v] = 2 * g;
					}
				}
			}
			if ((optab[i->op].flags & OFCall) && !(k + 1 == x->nins && cfg_callee(f, x))) {
				vgrow(&ra->clob, &ra->cclob, ra->nclob + 1, sizeof *ra->clob);
				ra->clob[ra->nclob++] = 2 * g + 1;
			}
		}
		for (uint32_t w = 0; w < nw; w++)
			for (uint64_t y = live[w]; y; y &= y - 1) {
				uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(y);
				if (!isvirt_unit(v) || HAS(di, v))
					emit(&s, &ns, &cs, v, 2 * g0, end[v]);
			}
	}
	/* by unit (counting sort), each unit's segments by point */
	cnt = xmalloc((ra->nunit + 2) * sizeof *cnt);
	memset(cnt, 0, (ra->nunit + 2) * sizeof *cnt);
	for (uint32_t k = 0; k < ns; k++)
		cnt[s[k].unit + 1]++;
	for (uint32_t u = 0; u < ra->nunit; u++)
		cnt[u + 1] += cnt[u];
	ra->useg = xmalloc((ra->nunit + 1) * sizeof *ra->useg);
	memcpy(ra->useg, cnt, (ra->nunit + 1) * sizeof *ra->useg);
	ra->seg = xmalloc((ns + 1) * sizeof *ra->seg);
	ra->nseg = ns;
	for (uint32_t k = ns; k-- > 0;)   /* the walk went backward: reversed, they ascend */
		ra->seg[cnt[s[k].unit]++] = (RaSeg){ s[k].from, s[k].to };
	/* the R registers the text names, and each node's first point and length */
	for (uint32_t u = 0; u < RaPhysR; u++)
		if (ra->useg[u + 1] > ra->useg[u])
			ADD(ra->physr, u);
	for (uint32_t n = 0; n < ra->nnode; n++) {
		RaNode *x = &ra->node[n];
		for (uint32_t e = 0; e < x->size; e++)
			for (uint32_t q = ra->useg[x->unit + e]; q < ra->useg[x->unit + e + 1]; q++) {
				if (ra->seg[q].from < x->start)
					x->start = ra->seg[q].from;
				x->len += ra->seg[q].to - ra->seg[q].from + 1;
			}
	}
	free(cnt);
	free(s);
	free(end);
	free(gen);
	free(kill);
	free(in);
	free(out);
	free(din);
	free(live);
	return 0;
}

/* ---- 4. occupancy and colouring ----------------------------------------------------------- */

static void
occ_init(RaOcc *o, unsigned w, uint32_t npt)
{
	o->w = w;
	o->npt = npt;
	o->nch = npt / RaChunk + 1;
	o->pt = xmalloc(((size_t)npt * w + 1) * sizeof *o->pt);
	o->any = xmalloc(((size_t)o->nch * w + 1) * sizeof *o->any);
	o->full = xmalloc(((size_t)o->nch * w + 1) * sizeof *o->full);
}

static void
occ_clear(RaOcc *o)
{
	memset(o->pt, 0, (size_t)o->npt * o->w * sizeof *o->pt);
	memset(o->any, 0, (size_t)o->nch * o->w * sizeof *o->any);
	memset(o->full, 0, (size_t)o->nch * o->w * sizeof *o->full);
}

static void
occ_free(RaOcc *o)
{
	free(o->pt);
	free(o->any);
	free(o->full);
}

/* F |= what is taken anywhere in points [a, b] */
static void
occ_or(const RaOcc *o, uint32_t a, uint32_t b, uint64_t *F)
{
	unsigned w = o->w;

	while (a <= b) {
		uint32_t c = a / RaChunk, ce = c * RaChunk + RaChunk - 1;
		if (a == c * RaChunk && ce <= b) {          /* the whole chunk */
			for (unsigned q = 0; q < w; q++)
				F[q] |= o->any[(size_t)c * w + q];
		} else {
			uint32_t e = ce < b ? ce : b;
			for (unsigned q = 0; q < w; q++)
				F[q] |= o->full[(size_t)c * w + q];
			for (uint32_t p = a; p <= e; p++)
				for (unsigned q = 0; q < w; q++)
					F[q] |= o->pt[(size_t)p * w + q];
		}
		if (ce >= b)
			break;
		a = ce + 1;
	}
}

/* register r taken over points [a, b] */
static void
occ_set(RaOcc *o, uint32_t a, uint32_t b, unsigned r)
{
	unsigned w = o->w, q = r >> 6;
	uint64_t bit = (uint64_t)1 << (r & 63);

	while (a <= b) {
		uint32_t c = a / RaChunk, ce = c * RaChunk + RaChunk - 1;
		o->any[(size_t)c * w + q] |= bit;
		if (a == c * RaChunk && ce <= b) {
			o->full[(size_t)c * w + q] |= bit;
		} else {
			uint32_t e = ce < b ? ce : b;
			for (uint32_t p = a; p <= e; p++)
				o->pt[(size_t)p * w + q] |= bit;
		}
		if (ce >= b)
			break;
		a = ce + 1;
	}
}

/* the segments of element e of node x */
static const RaSeg *
node_segs(const RA *ra, const RaNode *x, uint32_t e, uint32_t *n)
{
	uint32_t u;

	if (x->kind == NkTemp) {
		*n = 1;
		return &x->tseg;
	}
	u = x->kind == NkHome ? x->unit : x->unit + e;
	*n = ra->useg[u + 1] - ra->useg[u];
	return ra->seg + ra->useg[u];
}

/* F >>= k (w words) */
static void
shr(uint64_t *F, unsigned w, unsigned k)
{
	unsigned wq = k >> 6, b = k & 63;

	for (unsigned q = 0; q < w; q++) {
		uint64_t lo = q + wq < w ? F[q + wq] : ~(uint64_t)0;
		uint64_t hi = q + wq + 1 < w ? F[q + wq + 1] : ~(uint64_t)0;
		F[q] = b ? (lo >> b) | (hi << (64 - b)) : lo;
	}
}

/* the registers node x cannot start at: bit c set when some element e would meet a value in
 * register c + e, run into a reserved register or past the limit */
static void
forbidden(const RA *ra, const RaNode *x, uint64_t *F)
{
	const RaOcc *o = &ra->occ[x->cls == RP];
	unsigned w = o->w;
	uint64_t res[4] = {0}, Fe[4];

	if (x->cls == RR) {
		res[0] = 2;                                     /* R1: the stack pointer */
		for (unsigned r = (unsigned)ra->top + 1; r < 256; r++)
			ADD(res, r);
	} else {
		res[0] = ~(uint64_t)0x7f;                       /* P0..P6 */
	}
	for (unsigned q = 0; q < w; q++)
		F[q] = 0;
	for (uint32_t e = 0; e < x->size; e++) {
		uint32_t n;
		const RaSeg *s = node_segs(ra, x, e, &n);
		memcpy(Fe, res, sizeof Fe);
		for (uint32_t k = 0; k < n; k++)
			occ_or(o, s[k].from, s[k].to, Fe);
		shr(Fe, w, e);
		for (unsigned q = 0; q < w; q++)
			F[q] |= Fe[q];
	}
}

static int
fits(const uint64_t *F, const RaNode *x, int c)
{
	return c >= 0 && c % x->align == 0 && c < 256 && !HAS(F, (unsigned)c);
}

/* the register for node x: a copy partner's if free, else the lowest free one; -1 none */
static int
choose(const RA *ra, const RaNode *x, uint32_t n, const uint64_t *F)
{
	unsigned w = ra->occ[x->cls == RP].w;

	for (uint32_t p = ra->pairof[n]; p < ra->pairof[n + 1]; p++) {
		uint32_t e = ra->pair[3 * p + 1], pu = ra->pair[3 * p + 2];
		int pc = -1;
		if (!isvirt_unit(pu)) {
			pc = (int)pu;
		} else {
			const RaNode *y = &ra->node[ra->unode[pu]];
			if (y->col >= 0 && !y->spilled)
				pc = y->col + (int)(pu - y->unit);
		}
		if (pc >= 0 && fits(F, x, pc - (int)e))
			return pc - (int)e;
	}
	for (unsigned q = 0; q < w; q++) {
		uint64_t free_ = ~F[q];
		if (x->align == 2)
			free_ &= 0x5555555555555555ull;
		else if (x->align == 4)
			free_ &= 0x1111111111111111ull;
		if (free_)
			return (int)(q * 64 + (unsigned)__builtin_ctzll(free_));
	}
	return -1;
}

static const RA *sort_ra;

static int
by_start(const void *a, const void *b)
{
	const RaNode *x = &sort_ra->node[*(const uint32_t *)a], *y = &sort_ra->node[*(const uint32_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return y->size - x->size;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* the copy pairs by node, for choose() */
static void
index_pairs(RA *ra)
{
	uint32_t *cnt = xmalloc((ra->nnode + 2) * sizeof *cnt), *srt;

	memset(cnt, 0, (ra->nnode + 2) * sizeof *cnt);
	for (uint32_t p = 0; p < ra->npair; p++)
		cnt[ra->pair[3 * p] + 1]++;
	for (uint32_t n = 0; n < ra->nnode; n++)
		cnt[n + 1] += cnt[n];
	free(ra->pairof);
	ra->pairof = xmalloc((ra->nnode + 1) * sizeof *ra->pairof);
	memcpy(ra->pairof, cnt, (ra->nnode + 1) * sizeof *cnt);
	srt = xmalloc((3 * ra->npair + 1) * sizeof *srt);
	for (uint32_t p = 0; p < ra->npair; p++) {
		uint32_t at = cnt[ra->pair[3 * p]]++;
		memcpy(srt + 3 * at, ra->pair + 3 * p, 3 * sizeof *srt);
	}
	memcpy(ra->pair, srt, 3 * ra->npair * sizeof *srt);
	free(srt);
	free(cnt);
}

/* one round: every node not spilled gets a register; the count of those that found none */
static uint32_t
colour(RA *ra)
{
	uint32_t *ord = xmalloc((ra->nnode + 1) * sizeof *ord), n = 0, nfail = 0;
	uint64_t F[4];

	occ_clear(&ra->occ[0]);
	occ_clear(&ra->occ[1]);
	for (uint32_t u = 0; u < RaVirt; u++)           /* pre-coloured: the text's own registers */
		for (uint32_t q = ra->useg[u]; q < ra->useg[u + 1]; q++)
			occ_set(&ra->occ[u >= RaPhysP], ra->seg[q].from, ra->seg[q].to,
			        u >= RaPhysP ? u - RaPhysP : u);
	for (uint32_t k = 0; k < ra->nclob; k++)       /* a call out of the function: all taken */
		for (unsigned r = 0; r < 256; r++) {
			occ_set(&ra->occ[0], ra->clob[k], ra->clob[k], r);
			if (r < 64)
				occ_set(&ra->occ[1], ra->clob[k], ra->clob[k], r);
		}
	index_pairs(ra);
	for (uint32_t k = 0; k < ra->nnode; k++) {
		RaNode *x = &ra->node[k];
		x->col = -1;
		x->failed = 0;
		if (!x->spilled && (x->nref || x->kind != NkDecl))
			ord[n++] = k;
	}
	sort_ra = ra;
	qsort(ord, n, sizeof *ord, by_start);
	for (uint32_t k = 0; k < n; k++) {
		RaNode *x = &ra->node[ord[k]];
		int c;
		if (x->start == UINT32_MAX) {
			x->col = 0;             /* only read, never written: any register (undefined) */
			continue;
		}
		forbidden(ra, x, F);
		c = choose(ra, x, ord[k], F);
		if (c < 0) {
			x->failed = 1;
			nfail++;
			continue;
		}
		x->col = c;
		for (uint32_t e = 0; e < x->size; e++) {
			uint32_t ns;
			const RaSeg *s = node_segs(ra, x, e, &ns);
			for (uint32_t q = 0; q < ns; q++)
				occ_set(&ra->occ[x->cls == RP], s[q].from, s[q].to, (unsigned)c + e);
		}
	}
	free(ord);
	ra->rounds++;
	return nfail;
}

/* ---- 5. spilling ------------------------------------------------------------------------------ */

static uint32_t
new_temp(RA *ra, uint8_t cls, uint16_t size, uint16_t align, uint32_t g, uint8_t fl)
{
	uint32_t t = new_node(ra);
	RaNode *x = &ra->node[t];

	x->cls = cls;
	x->kind = NkTemp;
	x->size = size;
	x->align = align;
	x->tseg.from = (fl & (RfUse | RfOld | RfWide)) ? 2 * g : 2 * g + 1;
	x->tseg.to = (fl & RfDef) ? 2 * g + 1 : 2 * g;
	x->start = x->tseg.from;
	x->len = x->tseg.to - x->tseg.from + 1;
	return t;
}

/* node n to memory (R) or to an R home (P); its references through temporaries */
static void
spill(RA *ra, uint32_t n)
{
	RaNode *x = &ra->node[n];

	x->spilled = 1;
	ra->nspill++;
	if (x->cls == RR) {
		int al = 4 * x->align;
		ra->frame = (ra->frame + al - 1) / al * al;
		x->slot = ra->frame;
		ra->frame += 4 * x->size;
	} else {
		uint32_t h = new_node(ra), r0 = ra->nref;
		x = &ra->node[n];
		RaNode *y = &ra->node[h];
		y->cls = RR;
		y->kind = NkHome;
		y->size = y->align = 1;
		y->unit = x->unit;
		y->start = x->start;
		y->len = x->len;
		vgrow(&ra->ref, &ra->cref, ra->nref + x->nref + 1, sizeof *ra->ref);
		for (uint32_t k = 0; k < x->nref; k++) {
			const RaRef *r = &ra->ref[x->ref + k];
			uint8_t fl = (uint8_t)(((r->fl & (RfUse | RfOld)) ? RfUse : 0) |
			                       ((r->fl & RfDef) ? RfDef : 0));
			ra->ref[ra->nref++] = (RaRef){ .ins = r->ins, .fl = fl, .temp = UINT32_MAX };
		}
		y->ref = r0;
		y->nref = x->nref;
		x->home = h;
	}
	for (uint32_t k = 0; k < ra->node[n].nref; k++) {
		RaNode *v = &ra->node[n];
		RaRef r = ra->ref[v->ref + k];
		uint32_t t = new_temp(ra, v->cls, v->size, v->align, r.ins, r.fl);
		ra->ref[ra->node[n].ref + k].temp = t;
	}
}

/* the next reference of node x after instruction g (UINT32_MAX none); *now: one at g */
static uint32_t
next_ref(const RA *ra, const RaNode *x, uint32_t g, int *now)
{
	uint32_t lo = x->ref, hi = x->ref + x->nref;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (ra->ref[mid].ins < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	*now = lo < x->ref + x->nref && ra->ref[lo].ins == g;
	lo += (uint32_t)*now;
	return lo < x->ref + x->nref ? ra->ref[lo].ins : UINT32_MAX;
}

/* how good a choice spilling x at instruction g is: the distance to its next reference (Belady)
 * over what spilling it everywhere costs (a load or store at each reference) */
static double
spill_score(const RA *ra, const RaNode *x, uint32_t g, uint32_t next)
{
	double dist = next == UINT32_MAX ? (double)(ra->nins + 1 - g) : (double)(next - g);

	return dist / (double)(x->nref + 1);
}

/* does node x occupy point p (some element)? */
static int
occupies(const RA *ra, const RaNode *x, uint32_t p)
{
	for (uint32_t e = 0; e < x->size; e++) {
		uint32_t n;
		const RaSeg *s = node_segs(ra, x, e, &n);
		for (uint32_t k = 0; k < n; k++)
			if (s[k].from <= p && p <= s[k].to)
				return 1;
	}
	return 0;
}

/* a temporary found no register: the node to spill instead, among those of its class that
 * occupy its point and have no reference there (the longest for its references); UINT32_MAX */
static uint32_t
victim(const RA *ra, const RaNode *t)
{
	uint32_t best = UINT32_MAX, g = t->tseg.from / 2;
	double score = -1;

	for (uint32_t n = 0; n < ra->nnode; n++) {
		const RaNode *x = &ra->node[n];
		if (x->kind == NkTemp || x->spilled || x->cls != t->cls || x->col < 0 ||
		    ra_refs_at(ra, x, g) >= 0)
			continue;
		if (!occupies(ra, x, t->tseg.from) && !occupies(ra, x, t->tseg.to))
			continue;
		int now;
		double sc = spill_score(ra, x, g, next_ref(ra, x, g, &now));
		if (sc > score) {
			score = sc;
			best = n;
		}
	}
	return best;
}

typedef struct Sweep {
	uint32_t *owner;   /* nunit: the node a virtual unit's register belongs to now */
	uint32_t *ucnt;    /* nunit: segments of the unit open at the point */
	int32_t *td[2];    /* per point: change of the temporaries' pressure (R, P) */
	uint32_t *act;     /* nodes holding a register at the point */
	uint32_t nact, cact;
	uint32_t *apos;    /* per node: its place in act + 1, 0 out */
	uint32_t *nlive;   /* per node: its units open */
	uint32_t cn;       /* per-node arrays' room */
	int pr[2];         /* registers taken at the point: R, P */
} Sweep;

static void
sw_room(RA *ra, Sweep *w)
{
	if (ra->nnode <= w->cn)
		return;
	uint32_t old = w->cn;
	w->cn = ra->nnode * 2 + 16;
	w->apos = xrealloc(w->apos, w->cn * sizeof *w->apos);
	w->nlive = xrealloc(w->nlive, w->cn * sizeof *w->nlive);
	memset(w->apos + old, 0, (w->cn - old) * sizeof *w->apos);
	memset(w->nlive + old, 0, (w->cn - old) * sizeof *w->nlive);
}

static void
sw_enter(Sweep *w, uint32_t n)
{
	if (w->apos[n])
		return;
	vgrow(&w->act, &w->cact, w->nact + 1, sizeof *w->act);
	w->act[w->nact++] = n;
	w->apos[n] = w->nact;
}

static void
sw_leave(Sweep *w, uint32_t n)
{
	uint32_t at = w->apos[n];

	if (!at)
		return;
	w->act[at - 1] = w->act[--w->nact];
	w->apos[w->act[at - 1]] = at;
	w->apos[n] = 0;
}

/* node n spilled at point p of the sweep: its register freed, its temporaries' pressure to come
 * (a predicate's register becomes its home's, an R one) */
static void
sw_spill(RA *ra, Sweep *w, uint32_t n, uint32_t p)
{
	uint8_t cls = ra->node[n].cls;
	uint32_t t0 = ra->nnode;

	spill(ra, n);
	sw_room(ra, w);
	sw_leave(w, n);
	if (cls == RP) {
		uint32_t h = ra->node[n].home, u = ra->node[n].unit;
		w->owner[u] = h;
		if (w->ucnt[u]) {
			w->pr[1]--;
			w->pr[0]++;
			w->nlive[h] = 1;
			sw_enter(w, h);
		}
	} else {
		const RaNode *x = &ra->node[n];
		uint32_t nu = x->kind == NkHome ? 1 : x->size;
		for (uint32_t e = 0; e < nu; e++)
			if (w->ucnt[x->unit + e])
				w->pr[0]--;
	}
	for (uint32_t t = t0; t < ra->nnode; t++) {
		const RaNode *x = &ra->node[t];
		int c = x->cls == RP;
		if (x->kind != NkTemp || x->tseg.to < p)
			continue;
		if (x->tseg.from <= p)
			w->pr[c] += x->size;
		else
			w->td[c][x->tseg.from] += x->size;
		w->td[c][x->tseg.to + 1] -= x->size;
	}
}

/* spill decisions before colouring, by pressure: a sweep over the points keeps the registers
 * taken (the text's own, the nodes', the temporaries'); where more are taken than there are
 * (R: R0..top without R1; P: P0..P6), the node whose next reference is farthest goes (Belady),
 * not one referenced at this very instruction if another will do */
static void
presspill(RA *ra)
{
	uint32_t npt = 2 * ra->nins + 2, *cnt, *ev;
	int cap[2] = { ra->top, 7 };
	Sweep w = {0};

	cnt = xmalloc((npt + 2) * sizeof *cnt);
	memset(cnt, 0, (npt + 2) * sizeof *cnt);
	for (uint32_t u = 0; u < ra->nunit; u++)
		for (uint32_t q = ra->useg[u]; u != 1 && q < ra->useg[u + 1]; q++) {
			cnt[ra->seg[q].from + 1]++;
			cnt[ra->seg[q].to + 2]++;
		}
	for (uint32_t p = 0; p <= npt; p++)
		cnt[p + 1] += cnt[p];
	ev = xmalloc((2 * (size_t)ra->nseg + 1) * sizeof *ev);  /* unit << 1 | start */
	for (uint32_t u = 0; u < ra->nunit; u++)
		for (uint32_t q = ra->useg[u]; u != 1 && q < ra->useg[u + 1]; q++) {
			ev[cnt[ra->seg[q].from]++] = u << 1 | 1;
			ev[cnt[ra->seg[q].to + 1]++] = u << 1;
		}
	/* cnt[p] is now the end of point p's events, cnt[p - 1] their start */
	w.owner = xmalloc((ra->nunit + 1) * sizeof *w.owner);
	memcpy(w.owner, ra->unode, ra->nunit * sizeof *w.owner);
	w.ucnt = xmalloc((ra->nunit + 1) * sizeof *w.ucnt);
	memset(w.ucnt, 0, (ra->nunit + 1) * sizeof *w.ucnt);
	for (int c = 0; c < 2; c++) {
		w.td[c] = xmalloc((npt + 2) * sizeof *w.td[c]);
		memset(w.td[c], 0, (npt + 2) * sizeof *w.td[c]);
	}
	sw_room(ra, &w);
	for (uint32_t p = 0; p < npt; p++) {
		w.pr[0] += w.td[0][p];
		w.pr[1] += w.td[1][p];
		for (uint32_t q = p ? cnt[p - 1] : 0; q < cnt[p]; q++) {
			uint32_t u = ev[q] >> 1, o = u < RaVirt ? UINT32_MAX : w.owner[u];
			int c = o != UINT32_MAX ? ra->node[o].cls == RP : u >= RaPhysP;
			if (o != UINT32_MAX && ra->node[o].spilled)
				continue;
			if (ev[q] & 1) {
				if (w.ucnt[u]++)
					continue;
				w.pr[c]++;
				if (o != UINT32_MAX && !w.nlive[o]++)
					sw_enter(&w, o);
			} else {
				if (!w.ucnt[u] || --w.ucnt[u])
					continue;
				w.pr[c]--;
				if (o != UINT32_MAX && !--w.nlive[o])
					sw_leave(&w, o);
			}
		}
		for (int c = 0; c < 2; c++)
			while (w.pr[c] > cap[c]) {
				uint32_t best = UINT32_MAX, g = p / 2;
				double bscore = -1;
				int bnow = 1;
				for (uint32_t k = 0; k < w.nact; k++) {
					const RaNode *x = &ra->node[w.act[k]];
					int now;
					uint32_t nx;
					double sc;
					if ((x->cls == RP) != c || x->spilled)
						continue;
					nx = next_ref(ra, x, g, &now);
					sc = spill_score(ra, x, g, nx);
					if (best == UINT32_MAX || (bnow && !now) || (bnow == now && sc > bscore)) {
						best = w.act[k];
						bscore = sc;
						bnow = now;
					}
				}
				if (best == UINT32_MAX)
					break;
				sw_spill(ra, &w, best, p);
			}
	}
	free(cnt);
	free(ev);
	free(w.owner);
	free(w.ucnt);
	free(w.td[0]);
	free(w.td[1]);
	free(w.act);
	free(w.apos);
	free(w.nlive);
}

/* colour, spill what does not fit, again; -1 after an error */
static int
allocate(RA *ra)
{
	for (;;) {
		uint32_t nfail = colour(ra), nn = ra->nnode, done = 0;
		if (!nfail)
			return 0;
		for (uint32_t n = 0; n < nn; n++) {
			RaNode *x = &ra->node[n];
			uint32_t v = n;
			if (!x->failed)
				continue;
			if (x->kind == NkTemp && (v = victim(ra, x)) == UINT32_MAX)
				continue;
			if (!ra->node[v].spilled) {
				spill(ra, v);
				done++;
			}
		}
		if (!done) {
			for (uint32_t n = 0; n < nn; n++)
				if (ra->node[n].failed) {
					const RaNode *x = &ra->node[n];
					error_at(ra->d, ra->ins[x->tseg.from / 2]->loc, "regalloc: this "
					         "instruction needs more %s registers than --maxrregcount=%d "
					         "leaves (R0..R%d without R1)", x->cls == RP ? "P" : "R",
					         ra->maxreg, ra->top);
					return -1;
				}
			return -1;
		}
	}
}

/* ---- the pass ------------------------------------------------------------------------------ */

static void
ra_free(RA *ra)
{
	free(ra->ins);
	free(ra->gblk);
	free(ra->unode);
	free(ra->seg);
	free(ra->useg);
	free(ra->node);
	free(ra->ref);
	free(ra->pair);
	free(ra->pairof);
	free(ra->clob);
	if (ra->occ[0].pt) {
		occ_free(&ra->occ[0]);
		occ_free(&ra->occ[1]);
	}
}

int
regalloc_run(Fn *f, Diag *d, int maxreg, RaStats *st)
{
	RA ra = { .f = f, .d = d, .maxreg = maxreg };
	int rc = -1, copies = 0;

	if (st)
		memset(st, 0, sizeof *st);
	if (!f->nvreg)
		return PassUnchanged;
	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	if (maxreg < 8 || maxreg > 255) {
		error_at(d, f->loc, "regalloc: a register limit of %d is out of range (8..255)", maxreg);
		return -1;
	}
	ra.top = maxreg - 3 > 254 ? 254 : maxreg - 3;
	for (uint32_t k = 0; k < f->nvreg; k++) {
		const FVReg *v = &f->vreg[k];
		uint32_t *n = v->cls == RP ? &ra.npv : &ra.nrv;
		if ((uint32_t)(v->base + v->size - RegVirt) > *n)
			*n = (uint32_t)(v->base + v->size - RegVirt);
	}
	ra.nunit = RaVirt + ra.nrv + ra.npv;
	ra.unode = xmalloc((ra.nunit + 1) * sizeof *ra.unode);
	memset(ra.unode, 0xff, (ra.nunit + 1) * sizeof *ra.unode);
	ra.gblk = xmalloc((f->nblk + 1) * sizeof *ra.gblk);
	for (uint32_t b = 0; b < f->nblk; b++) {
		ra.gblk[b] = ra.nins;
		ra.nins += f->blk[b]->nins;
	}
	ra.ins = xmalloc((ra.nins + 1) * sizeof *ra.ins);
	for (uint32_t b = 0, g = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (!i->slot && op_slots(f, i) < 0)
				goto out;
			ra.ins[g++] = i;
		}
	if (refs(&ra) < 0 || segments(&ra) < 0)
		goto out;
	occ_init(&ra.occ[0], 4, 2 * ra.nins + 2);
	occ_init(&ra.occ[1], 1, 2 * ra.nins + 2);
	presspill(&ra);
	if (allocate(&ra) < 0 || ra_rewrite(&ra, &copies) < 0)
		goto out;
	if (st) {
		st->regs = f->info.regcount;
		st->spilled = ra.nspill;
		st->frame = ra.frame;
		st->copies = copies;
		st->rounds = ra.rounds;
		st->vregs = (int)f->nvreg;
	}
	f->nvreg = 0;
	rc = 0;
out:
	ra_free(&ra);
	return rc;
}

int
pass_regalloc(Fn *f, Diag *d)
{
	return regalloc_run(f, d, f->info.maxreg > 0 && f->info.maxreg < 255 ? f->info.maxreg : 255,
	                    NULL);
}
