/* raweb.c: what regalloc colours (regalloc.h): the live ranges of every register unit as
 * segments of points, split into webs, one node per web, with each node's references and the
 * copies that would vanish if two nodes shared a register.
 *
 *   1. units: R0..R254 and P0..P6 the text names (pre-coloured), one per register of each
 *      declaration;
 *   2. liveness per block (live_solve, with its internal-subroutine summaries) and, forward, what
 *      may have been written on entry to each block: a stretch where a value is live only as an
 *      undefined read (no write reaches it) occupies nothing;
 *   3. one backward walk per block makes the segments, each write starting one; union-find
 *      joins the segments of one value: across every block edge (and call and return edges of
 *      internal subroutines), a guarded write with the value it keeps, the registers of one
 *      tuple operand; a system call (CALL.ABS) reads its argument registers and R20:R21 and
 *      writes R4 (sys_reads);
 *   4. each class of the union-find over a declaration's units is a node; references and
 *      copies are found per instruction from the slots' segments.
 */
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

#define HAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)
#define ADD(s, u) ((s)[(u) >> 6] |= (uint64_t)1 << ((u) & 63))
#define DEL(s, u) ((s)[(u) >> 6] &= ~((uint64_t)1 << ((u) & 63)))

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

uint32_t
ra_new_node(RA *ra)
{
	vgrow(&ra->node, &ra->cnode, ra->nnode + 1, sizeof *ra->node);
	memset(&ra->node[ra->nnode], 0, sizeof *ra->node);
	ra->node[ra->nnode].col = -1;
	ra->node[ra->nnode].slot = -1;
	ra->node[ra->nnode].start = RaNone;
	ra->node[ra->nnode].home = RaNone;
	return ra->nnode++;
}

static int
isvirt(uint32_t u)
{
	return u >= RaVirt;
}

/* 0: an R unit, 1: a P unit */
static int
ucls(const RA *ra, uint32_t u)
{
	return u >= RaVirt ? u >= RaVirt + ra->nrv : u >= RaPhysP;
}

/* ---- the walk's state ------------------------------------------------------------------------ */

typedef struct Build {
	struct BSeg { uint32_t from, to, unit, par; } *s; /* segments (from RaNone until closed;
	                      dropped: undefined) and the union-find over them (par) */
	uint32_t ns, cs;
	uint32_t *outu, *outs, nout, coutu, couts; /* per block, the live-out (unit, segment) */
	uint32_t *inu, *ins, nin, cinu, cins;      /* per block, the live-in (unit, segment) */
	uint32_t *ob, *ib; /* nblk + 1: each block's range of them */
	uint32_t *sseg;    /* per global slot: the segment of its first unit, RaNone */
} Build;

static uint32_t
newseg(Build *B, uint32_t u, uint32_t from, uint32_t to)
{
	if (B->ns == B->cs)
		vgrow(&B->s, &B->cs, B->ns + 1, sizeof *B->s);
	B->s[B->ns] = (struct BSeg){ from, to, u, B->ns };
	return B->ns++;
}

static uint32_t
find(struct BSeg *s, uint32_t x)
{
	while (s[x].par != x) {
		s[x].par = s[s[x].par].par;
		x = s[x].par;
	}
	return x;
}

static void
unite(struct BSeg *s, uint32_t a, uint32_t b)
{
	a = find(s, a);
	b = find(s, b);
	if (a != b)
		s[a < b ? b : a].par = a < b ? a : b;
}

/* ---- 2. liveness ---------------------------------------------------------------------------- */

/* gen (read before written) and kill (written) of every block */
static void
block_sets(RA *ra, uint32_t nw, uint64_t *gen, uint64_t *kill)
{
	Fn *f = ra->f;

	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		uint64_t *g = gen + (size_t)b * nw, *kl = kill + (size_t)b * nw;
		for (uint32_t k = x->nins; k-- > 0;) {
			const Ins *i = &x->ins[k];
			const int32_t *su = ra->sunit + ra->slot0[ra->gblk[b] + k];
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				int u = su[j];
				if (s->kind != SDef || u < 0)
					continue;
				for (unsigned m = 0; m < s->n; m++)
					DEL(g, (uint32_t)u + m), ADD(kl, (uint32_t)u + m);
			}
			for (unsigned j = 0; j < i->nslot; j++) {
				const Slot *s = &i->slot[j];
				int u = su[j];
				if (s->kind == SDef || u < 0)
					continue;
				for (unsigned m = 0; m < s->n; m++)
					ADD(g, (uint32_t)u + m);
			}
		}
	}
}

/* may be written on entry to each block (forward, union over the predecessors): at the entry
 * nothing virtual; everything on entry to a block without predecessors (a subroutine's entry,
 * dead code) and after an internal call */
static void
maydef(RA *ra, uint32_t nw, const uint64_t *kill, uint64_t *din)
{
	Fn *f = ra->f;
	Blk *entry = f->nrpo ? f->rpo[0] : NULL;
	uint64_t *dout = xmalloc(((size_t)f->nblk * nw + 1) * sizeof *dout);
	int changed = 1;

	memset(din, 0xff, (size_t)f->nblk * nw * sizeof *din);
	for (uint32_t r = 0; r < f->nrpo; r++) {
		Blk *b = f->rpo[r];
		if (b->npred || b == entry)
			memset(din + (size_t)b->id * nw, 0, nw * sizeof *din);
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t w = 0; w < nw; w++)
			dout[(size_t)b * nw + w] = din[(size_t)b * nw + w] | kill[(size_t)b * nw + w];
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

/* ---- 3. segments and webs -------------------------------------------------------------------- */

/* one backward walk over block b (live on exit: out) */
/* the window target only: source slot j of i (first slot s0) names exactly the registers of a
 * wide result of i (same unit, same width): the result may take the source's registers, in
 * place (HMMA %acc, %a, %b, %acc), as fiber-ra allows; the SIMT target keeps them apart */
static int
in_place(const RA *ra, const Ins *i, uint32_t s0, unsigned j)
{
	for (unsigned q = 0; q < i->nslot; q++)
		if (i->slot[q].kind == SDef && i->slot[q].n > 1 && i->slot[q].n == i->slot[j].n &&
		    ra->sunit[s0 + q] == ra->sunit[s0 + j])
			return 1;
	return 0;
}

/* instruction i writes R register r (a physical one: the text's own) */
static int
writes_r(const Ins *i, unsigned r)
{
	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		if (sl->kind == SDef && RCLS(sl->reg) == RR && RNUM(sl->reg) <= r &&
		    r < RNUM(sl->reg) + sl->n)
			return 1;
	}
	return 0;
}

/* instruction k of block x is a system call, `CALL.ABS.NOINC R2` (ptxsyscall.c), not the
 * CALL.REL of an internal subroutine */
static int
is_syscall(const Fn *f, const Blk *x, uint32_t k)
{
	return x->ins[k].op == OCALL && ins_hasmod(&x->ins[k], f->mod, "ABS");
}

/* the ABI registers system call k of block x reads besides its operand R2:R3 (the CUDA
 * convention, docs/ptx-codegen.md "Device functions"): the return address R20:R21, and those
 * argument registers R4..R13 an instruction of the block writes before the LEPC that precedes
 * the call (selection writes exactly its routine's arguments there; the writes between the LEPC
 * and the CALL are the return address's temporaries). Their units into u (at most 12), the
 * count returned. */
static unsigned
sys_reads(const Blk *x, uint32_t k, uint32_t *u)
{
	uint32_t lepc = k;
	unsigned n = 0;

	while (lepc > 0 && x->ins[lepc].op != OLEPC)
		lepc--;
	if (x->ins[lepc].op != OLEPC)
		lepc = k;                   /* no LEPC: whatever the block writes before the CALL */
	for (unsigned r = 4; r <= 13; r++)
		for (uint32_t j = 0; j < lepc; j++)
			if (writes_r(&x->ins[j], r)) {
				u[n++] = r;
				break;
			}
	u[n++] = 20;
	u[n++] = 21;
	return n;
}

/* the system call at instruction g writes its result R4 at 2g+1 (what reads R4 after it reads
 * the routine's result, not the argument); live holds what is live after it */
static void
sys_def(Build *B, uint64_t *live, uint32_t *open, uint32_t g, int nl[2])
{
	const uint32_t v = 4;

	if (HAS(live, v)) {
		B->s[open[v]].from = 2 * g + 1;
		nl[0]--;
		DEL(live, v);
	}
}

/* system call k of block x at instruction g: its ABI reads at 2g (sys_reads) */
static void
sys_uses(Build *B, const Blk *x, uint32_t k, uint64_t *live, uint32_t *open, uint32_t g,
         int nl[2])
{
	uint32_t u[12];
	unsigned n = sys_reads(x, k, u);

	for (unsigned m = 0; m < n; m++)
		if (!HAS(live, u[m])) {
			ADD(live, u[m]);
			nl[0]++;
			open[u[m]] = newseg(B, u[m], RaNone, 2 * g);
		}
}

static void
walk(RA *ra, Build *B, Blk *x, const uint64_t *out, const uint64_t *din, uint64_t *live,
     uint32_t nw, uint32_t *open, uint32_t *defid, uint32_t *defg)
{
	Fn *f = ra->f;
	uint32_t g0 = ra->gblk[x->id], glast = g0 + x->nins - 1;

	B->ob[x->id] = B->nout;
	B->ib[x->id] = B->nin;
	if (!x->nins)
		return;
	memcpy(live, out, nw * sizeof *live);
	int nl[2] = {0, 0};          /* units live now (R1 aside), R and P: for RA.maxlive */
	for (uint32_t w = 0; w < nw; w++)
		for (uint64_t y = live[w]; y; y &= y - 1) {
			uint32_t u = w * 64 + (uint32_t)__builtin_ctzll(y);
			nl[ucls(ra, u)] += u != 1;
			open[u] = newseg(B, u, RaNone, 2 * glast + 1);
			if (isvirt(u)) {
				if (B->nout == B->coutu) {
					vgrow(&B->outu, &B->coutu, B->nout + 1, sizeof *B->outu);
					vgrow(&B->outs, &B->couts, B->nout + 1, sizeof *B->outs);
				}
				B->outu[B->nout] = u;
				B->outs[B->nout++] = open[u];
			}
		}
	for (uint32_t k = x->nins; k-- > 0;) {
		const Ins *i = &x->ins[k];
		uint32_t g = g0 + k, s0 = ra->slot0[g];
		int dn[2] = {0, 0};
		for (unsigned j = 0; j < i->nslot; j++)
			if (i->slot[j].kind == SDef && ra->sunit[s0 + j] >= 0)
				dn[ucls(ra, (uint32_t)ra->sunit[s0 + j])] += i->slot[j].n;
		for (int c = 0; c < 2; c++)
			if (nl[c] + dn[c] > ra->maxlive[c])
				ra->maxlive[c] = nl[c] + dn[c];
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *sl = &i->slot[j];
			int u = ra->sunit[s0 + j];
			uint32_t dp = sl->n > 1 ? 2 * g : 2 * g + 1, id0 = RaNone;
			if (sl->kind != SDef || u < 0)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				uint32_t v = (uint32_t)u + m, id;
				if (HAS(live, v)) {
					id = open[v];
					B->s[id].from = dp;
				} else {
					id = newseg(B, v, dp, 2 * g + 1);
				}
				if (HAS(live, v))
					nl[ucls(ra, v)] -= v != 1;
				DEL(live, v);
				defid[v] = id;
				defg[v] = g;
				if (m == 0)
					B->sseg[s0 + j] = id0 = id;
				else if (isvirt(v))
					unite(B->s, id0, id);     /* one tuple operand: one node */
			}
		}
		int sys = is_syscall(f, x, k);
		if (sys)
			sys_def(B, live, open, g, nl);
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *sl = &i->slot[j];
			int u = ra->sunit[s0 + j];
			if (sl->kind == SDef || u < 0)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				uint32_t v = (uint32_t)u + m;
				if (!HAS(live, v)) {
					ADD(live, v);
					nl[ucls(ra, v)] += v != 1;
					open[v] = newseg(B, v, RaNone, 2 * g);
				}
				if (m == 0)
					B->sseg[s0 + j] = open[v];
				else if (isvirt(v))
					unite(B->s, B->sseg[s0 + j], open[v]);
				if (sl->kind == SOld && defg[v] == g && isvirt(v))
					unite(B->s, open[v], defid[v]);  /* a guarded write keeps the value */
				else if (ra->win && defg[v] == g && isvirt(v) && in_place(ra, i, s0, j))
					unite(B->s, open[v], defid[v]);  /* window target: D = C in place */
			}
		}
		if (sys)
			sys_uses(B, x, k, live, open, g, nl);
		for (int c = 0; c < 2; c++)
			if (nl[c] + dn[c] > ra->maxlive[c])
				ra->maxlive[c] = nl[c] + dn[c];
		if (sys && !ra->win) {
			vgrow(&ra->sclob, &ra->csclob, ra->nsclob + 1, sizeof *ra->sclob);
			ra->sclob[ra->nsclob++] = 2 * g + 1;
		} else if ((optab[i->op].flags & OFCall) && !(k + 1 == x->nins && cfg_callee(f, x))) {
			vgrow(&ra->clob, &ra->cclob, ra->nclob + 1, sizeof *ra->clob);
			ra->clob[ra->nclob++] = 2 * g + 1;
		}
	}
	for (uint32_t w = 0; w < nw; w++)
		for (uint64_t y = live[w]; y; y &= y - 1) {
			uint32_t u = w * 64 + (uint32_t)__builtin_ctzll(y);
			if (isvirt(u) && !HAS(din, u))
				continue;          /* undefined here: dropped (from stays RaNone) */
			B->s[open[u]].from = 2 * g0;
			if (isvirt(u)) {
				if (B->nin == B->cinu) {
					vgrow(&B->inu, &B->cinu, B->nin + 1, sizeof *B->inu);
					vgrow(&B->ins, &B->cins, B->nin + 1, sizeof *B->ins);
				}
				B->inu[B->nin] = u;
				B->ins[B->nin++] = open[u];
			}
		}
}

/* the same value on both sides of an edge from block a to block b */
static void
join_edge(Build *B, uint32_t a, uint32_t b)
{
	uint32_t p = B->ob[a], pe = B->ob[a + 1], q = B->ib[b], qe = B->ib[b + 1];

	while (p < pe && q < qe) {
		if (B->outu[p] < B->inu[q])
			p++;
		else if (B->outu[p] > B->inu[q])
			q++;
		else
			unite(B->s, B->outs[p++], B->ins[q++]);
	}
}

/* the RET blocks of the subroutine entered at block e */
static uint32_t
rets(Fn *f, Blk *e, uint32_t *out, uint8_t *seen, uint32_t *stk)
{
	uint32_t n = 0, sp = 0;

	memset(seen, 0, f->nblk);
	seen[e->id] = 1;
	stk[sp++] = e->id;
	while (sp) {
		Blk *b = f->blk[stk[--sp]];
		if (b->nins && b->ins[b->nins - 1].op == ORET)
			out[n++] = b->id;
		for (uint32_t s = 0; s < b->nsucc; s++)
			if (!seen[b->succ[s]->id]) {
				seen[b->succ[s]->id] = 1;
				stk[sp++] = b->succ[s]->id;
			}
	}
	return n;
}

/* ---- 4. nodes, references, copies -------------------------------------------------------- */

/* the node of each web, the segments by node and element, the text's own by unit */
static void
webs(RA *ra, Build *B)
{
	uint32_t *rt = xmalloc((B->ns + 1) * sizeof *rt), *at, npseg = 0, nroot = 0;
	struct BSeg *S = B->s;

	/* each segment's root; a node per root of a virtual unit (made once: the count first) */
	for (uint32_t q = 0; q < B->ns; q++) {
		rt[q] = find(S, q);
		nroot += rt[q] == q && isvirt(S[q].unit);
	}
	vgrow(&ra->node, &ra->cnode, ra->nnode + nroot + 1, sizeof *ra->node);
	for (uint32_t q = 0; q < B->ns; q++) {
		uint32_t u = S[q].unit, n;
		if (!isvirt(u))
			continue;
		if (rt[q] != q) {
			rt[q] = rt[rt[q]];          /* the root's node (roots come first: lower index) */
			continue;
		}
		const FVReg *v = &ra->f->vreg[ra->udecl[u]];
		n = ra_new_node(ra);
		RaNode *x = &ra->node[n];
		x->cls = v->cls == RP ? RP : RR;
		x->kind = NkDecl;
		x->size = v->size;
		x->align = v->size < 4 ? v->size : 4;
		x->unit = (uint32_t)ra_unit(ra, REG(x->cls, v->base));
		x->e0 = ra->neoff;
		ra->neoff += x->size + 1u;
		rt[q] = n;
	}
	/* counting sort of the kept segments by (node, element) */
	ra->eoff = xmalloc((ra->neoff + 2) * sizeof *ra->eoff);
	memset(ra->eoff, 0, (ra->neoff + 2) * sizeof *ra->eoff);
	ra->upseg = xmalloc((RaVirt + 2) * sizeof *ra->upseg);
	memset(ra->upseg, 0, (RaVirt + 2) * sizeof *ra->upseg);
	for (uint32_t q = 0; q < B->ns; q++) {
		uint32_t u = S[q].unit;
		if (S[q].from == RaNone)
			continue;
		if (!isvirt(u)) {
			ra->upseg[u + 1]++;
			npseg++;
			continue;
		}
		const RaNode *x = &ra->node[rt[q]];
		ra->eoff[x->e0 + (u - x->unit) + 1]++;
	}
	for (uint32_t k = 0; k < ra->neoff; k++)
		ra->eoff[k + 1] += ra->eoff[k];
	for (uint32_t u = 0; u < RaVirt; u++)
		ra->upseg[u + 1] += ra->upseg[u];
	ra->nseg = ra->eoff[ra->neoff];
	ra->seg = xmalloc((ra->nseg + 1) * sizeof *ra->seg);
	ra->pseg = xmalloc((npseg + 1) * sizeof *ra->pseg);
	at = xmalloc((ra->neoff + RaVirt + 1) * sizeof *at);
	memcpy(at, ra->eoff, ra->neoff * sizeof *at);
	memcpy(at + ra->neoff, ra->upseg, RaVirt * sizeof *at);
	for (uint32_t q = B->ns; q-- > 0;) {     /* the walk went backward: ascending this way */
		uint32_t u = S[q].unit;
		if (S[q].from == RaNone)
			continue;
		if (!isvirt(u)) {
			ra->pseg[at[ra->neoff + u]++] = (RaSeg){ S[q].from, S[q].to };
			continue;
		}
		RaNode *x = &ra->node[rt[q]];
		ra->seg[at[x->e0 + (u - x->unit)]++] = (RaSeg){ S[q].from, S[q].to };
		if (S[q].from < x->start)
			x->start = S[q].from;
		x->len += S[q].to - S[q].from + 1;
	}
	for (uint32_t u = 0; u < RaPhysR; u++)
		if (ra->upseg[u + 1] > ra->upseg[u])
			ADD(ra->physr, u);
	/* each slot's node */
	for (uint32_t k = 0; k < ra->slot0[ra->nins]; k++)
		ra->snode[k] = B->sseg[k] == RaNone || !isvirt(S[B->sseg[k]].unit) ? RaNone :
		               rt[B->sseg[k]];
	free(at);
	free(rt);
}

uint32_t
ra_opnd_node(const RA *ra, uint32_t g, unsigned j, int fl)
{
	const Ins *i = ra->ins[g];

	for (unsigned q = 0; q < i->nslot; q++)
		if (i->slot[q].opnd == j && i->slot[q].field == fl && i->slot[q].kind != SOld)
			return ra->snode[ra->slot0[g] + q];
	return RaNone;
}

/* every node's references, in instruction order; the copies; -1 after an error */
static int
refs(RA *ra)
{
	uint32_t nn, *cnt, *last, *at;

	nn = ra->nnode;
	cnt = xmalloc((nn + 2) * sizeof *cnt);
	last = xmalloc((nn + 1) * sizeof *last);
	memset(cnt, 0, (nn + 2) * sizeof *cnt);
	memset(last, 0xff, (nn + 1) * sizeof *last);
	for (uint32_t g = 0; g < ra->nins; g++) {
		const Ins *i = ra->ins[g];
		for (unsigned j = 0; j < i->nslot; j++) {
			uint32_t n = ra->snode[ra->slot0[g] + j];
			if (n == RaNone || last[n] == g)
				continue;
			last[n] = g;
			cnt[n + 1]++;
		}
	}
	for (uint32_t n = 0; n < nn; n++) {
		cnt[n + 1] += cnt[n];
		ra->node[n].ref = cnt[n];
		ra->node[n].nref = cnt[n + 1] - cnt[n];
	}
	ra->nref = cnt[nn];
	vgrow(&ra->ref, &ra->cref, ra->nref + 1, sizeof *ra->ref);
	at = cnt;
	memset(last, 0xff, (nn + 1) * sizeof *last);
	for (uint32_t g = 0; g < ra->nins; g++) {
		const Ins *i = ra->ins[g];
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *s = &i->slot[j];
			uint32_t n = ra->snode[ra->slot0[g] + j], fl;
			if (n == RaNone)
				continue;
			fl = s->kind == SUse ? RfUse : s->kind == SOld ? RfOld : RfDef;
			if (s->kind == SDef && s->n > 1)
				fl |= RfWide;
			if (last[n] != g) {
				last[n] = g;
				ra->ref[at[n]++] = (RaRef){ .ins = g, .fl = 0, .temp = RaNone };
			}
			ra->ref[at[n] - 1].fl |= (uint8_t)fl;
		}
	}
	free(cnt);
	free(last);
	/* copies: a preference of each virtual side for the other's register */
	for (uint32_t g = 0; g < ra->nins; g++) {
		const Ins *i = ra->ins[g];
		Reg d, s;
		if (!ra_copy_of(ra->f, i, &d, &s))
			continue;
		int ud = ra_unit(ra, d), us = ra_unit(ra, s);
		uint32_t nd = ra_opnd_node(ra, g, 0, 0), ns = ra_opnd_node(ra, g, i->op == OMOV ? 1 : 3, 0);
		if (ud < 0 || us < 0 || (nd == RaNone && ns == RaNone))
			continue;
		for (int side = 0; side < 2; side++) {
			uint32_t me = side ? ns : nd, other = side ? nd : ns;
			int um = side ? us : ud, uo = side ? ud : us;
			if (me == RaNone)
				continue;
			vgrow(&ra->pair, &ra->cpair, 4 * ra->npair + 4, sizeof *ra->pair);
			uint32_t *q = ra->pair + 4 * ra->npair++;
			q[0] = me;
			q[1] = (uint32_t)um - ra->node[me].unit;
			q[2] = other;
			q[3] = other == RaNone ? (uint32_t)uo : (uint32_t)uo - ra->node[other].unit;
		}
	}
	return 0;
}

int
ra_build(RA *ra)
{
	Fn *f = ra->f;
	uint32_t nw = (ra->nunit + 63) / 64, nb = f->nblk, nslot = 0;
	uint64_t *gen, *kill, *in, *out, *din, *live;
	uint32_t *open, *defid, *defg, *rl, *stk;
	uint8_t *seen;
	Build B = {0};
	int rc;

	ra->slot0 = xmalloc((ra->nins + 1) * sizeof *ra->slot0);
	for (uint32_t g = 0; g < ra->nins; g++) {
		ra->slot0[g] = nslot;
		nslot += ra->ins[g]->nslot;
	}
	ra->slot0[ra->nins] = nslot;
	ra->snode = xmalloc((nslot + 1) * sizeof *ra->snode);
	ra->sunit = xmalloc((nslot + 1) * sizeof *ra->sunit);
	for (uint32_t g = 0; g < ra->nins; g++)
		for (unsigned j = 0; j < ra->ins[g]->nslot; j++)
			ra->sunit[ra->slot0[g] + j] = (int32_t)ra_unit(ra, ra->ins[g]->slot[j].reg);
	B.sseg = xmalloc((nslot + 1) * sizeof *B.sseg);
	memset(B.sseg, 0xff, (nslot + 1) * sizeof *B.sseg);
	B.ob = xmalloc((nb + 1) * sizeof *B.ob);
	B.ib = xmalloc((nb + 1) * sizeof *B.ib);
	gen = xmalloc(((size_t)nb * nw + 1) * sizeof *gen);
	kill = xmalloc(((size_t)nb * nw + 1) * sizeof *kill);
	in = xmalloc(((size_t)nb * nw + 1) * sizeof *in);
	out = xmalloc(((size_t)nb * nw + 1) * sizeof *out);
	din = xmalloc(((size_t)nb * nw + 1) * sizeof *din);
	live = xmalloc((nw + 1) * sizeof *live);
	open = xmalloc((ra->nunit + 1) * sizeof *open);
	defid = xmalloc((ra->nunit + 1) * sizeof *defid);
	defg = xmalloc((ra->nunit + 1) * sizeof *defg);
	memset(defg, 0xff, (ra->nunit + 1) * sizeof *defg);
	block_sets(ra, nw, gen, kill);
	live_solve(f, nw, gen, kill, in, out, 1);
	/* a virtual register live on entry is read undefined somewhere: only then what may be
	 * defined where is needed (else: everything, everywhere) */
	if (f->nrpo && ra->nunit > RaVirt) {
		const uint64_t *e = in + (size_t)f->rpo[0]->id * nw;
		uint64_t any = e[RaVirt / 64] >> (RaVirt % 64);
		for (uint32_t w = RaVirt / 64 + 1; w < nw; w++)
			any |= e[w];
		if (any)
			maydef(ra, nw, kill, din);
		else
			memset(din, 0xff, (size_t)nb * nw * sizeof *din);
	}
	free(gen);
	free(kill);
	free(in);
	for (uint32_t b = 0; b < nb; b++)
		walk(ra, &B, f->blk[b], out + (size_t)b * nw, din + (size_t)b * nw, live, nw, open,
		     defid, defg);
	B.ob[nb] = B.nout;
	B.ib[nb] = B.nin;
	free(out);
	free(din);
	free(live);
	free(open);
	free(defid);
	free(defg);
	/* one value across every edge, call and return */
	rl = xmalloc((nb + 1) * sizeof *rl);
	stk = xmalloc((nb + 1) * sizeof *stk);
	seen = xmalloc(nb + 1);
	for (uint32_t b = 0; b < nb; b++) {
		Blk *x = f->blk[b];
		Blk *e = cfg_callee(f, x);
		for (uint32_t s = 0; s < x->nsucc; s++)
			join_edge(&B, b, x->succ[s]->id);
		if (!e)
			continue;
		join_edge(&B, b, e->id);
		if (x->nsucc)
			for (uint32_t k = 0, n = rets(f, e, rl, seen, stk); k < n; k++)
				join_edge(&B, rl[k], x->succ[0]->id);
	}
	free(rl);
	free(stk);
	free(seen);
	webs(ra, &B);
	rc = refs(ra);
	free(B.s);
	free(B.outu);
	free(B.outs);
	free(B.inu);
	free(B.ins);
	free(B.ob);
	free(B.ib);
	free(B.sseg);
	return rc;
}
