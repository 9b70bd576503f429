/* regalloc.c: the pass regalloc (docs/pass-regalloc.md): the virtual registers (.vreg) and
 * predicates (.vpred) of lowered PTX onto R0..R254 and P0..P6, with spills to local memory.
 *
 *   1. raweb.c: live ranges as segments of points, split into webs (the nodes), references,
 *      copies;
 *   2. spill decisions by pressure: a sweep over the points; where more registers are taken
 *      than there are, the node whose next reference is farthest for what spilling it costs
 *      goes (to memory; a predicate to an R register, which may go to memory in turn); each of
 *      its references then uses a temporary that lives at that instruction only;
 *   3. colouring: nodes by first point, each at a copy partner's register if that is free, else
 *      the lowest free register aligned for its size (2: even, 4 and more: multiple of 4),
 *      against a per-point occupancy of the registers (exact for holes and tuples, and linear in
 *      the points a node occupies: chunks of RaChunk points carry their union); what still finds
 *      no register (alignment, fragmentation) is spilled and all is coloured again (rounds);
 *   4. rawrite.c writes the registers, the spill code, the frame and the register count.
 *
 * Preconditions: the CFG (cfg_build); not SSA; slots computable (op_slots). Physical R and P
 * registers the text names keep their place; R1 (the stack pointer) is never given to a
 * virtual register. A function without virtual registers is left as it is.
 */
#include "regalloc.h"
#include "arch.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>

#define HAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)
#define ADD(s, u) ((s)[(u) >> 6] |= (uint64_t)1 << ((u) & 63))
#define DEL(s, u) ((s)[(u) >> 6] &= ~((uint64_t)1 << ((u) & 63)))

#define HAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)

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
	uint64_t f0 = F[0], f1 = 0, f2 = 0, f3 = 0;

	if (w == 4)
		f1 = F[1], f2 = F[2], f3 = F[3];
	while (a <= b) {
		uint32_t c = a / RaChunk, ce = c * RaChunk + RaChunk - 1;
		const uint64_t *x;
		if (a == c * RaChunk && ce <= b) {          /* the whole chunk */
			x = o->any + (size_t)c * w;
			f0 |= x[0];
			if (w == 4)
				f1 |= x[1], f2 |= x[2], f3 |= x[3];
		} else {
			uint32_t e = ce < b ? ce : b;
			x = o->full + (size_t)c * w;
			f0 |= x[0];
			if (w == 4) {
				f1 |= x[1], f2 |= x[2], f3 |= x[3];
				for (x = o->pt + (size_t)a * 4; a <= e; a++, x += 4)
					f0 |= x[0], f1 |= x[1], f2 |= x[2], f3 |= x[3];
			} else {
				for (x = o->pt + a; a <= e; a++, x++)
					f0 |= x[0];
			}
		}
		if (ce >= b)
			break;
		a = ce + 1;
	}
	F[0] = f0;
	if (w == 4)
		F[1] = f1, F[2] = f2, F[3] = f3;
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
	u = x->e0 + (x->kind == NkHome ? 0 : e);
	*n = ra->eoff[u + 1] - ra->eoff[u];
	return ra->seg + ra->eoff[u];
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

/* the SIMT target's cap on R node x under setmaxnreg (RA.cap): one past the highest register
 * the least count over every point where x is live allows (count - 2: ptxas's convention, the
 * count is the highest R + 3), 256 none */
static int
live_cap(const RA *ra, const RaNode *x)
{
	int c = 256;

	for (uint32_t e = 0; e < x->size; e++) {
		uint32_t n;
		const RaSeg *s = x->kind == NkTemp ? &x->tseg : node_segs(ra, x, e, &n);
		if (x->kind == NkTemp)
			n = 1;
		for (uint32_t k = 0; k < n; k++)
			for (uint32_t g = s[k].from / 2; g <= s[k].to / 2 && g < ra->nins; g++)
				if (ra->cap[g] && ra->cap[g] - 2 < c)
					c = ra->cap[g] - 2;
	}
	return c;
}

/* the window target's cap on R node x: the least window of the phases whose instructions
 * name it (RaWin.cap), 256 none */
static int
node_cap(const RA *ra, const RaNode *x)
{
	const uint8_t *cap = ra->win ? ra->win->cap : ra->cap;
	int c = 256;

	if (!cap || x->cls != RR)
		return 256;
	if (!ra->win)
		return live_cap(ra, x);
	if (x->kind == NkTemp)
		return cap[x->tseg.from / 2] ? cap[x->tseg.from / 2] : 256;
	for (uint32_t k = 0; k < x->nref; k++) {
		int v = cap[ra->ref[x->ref + k].ins];
		if (v && v < c)
			c = v;
	}
	return c;
}

/* the registers node x cannot start at: bit c set when some element e would meet a value in
 * register c + e, run into a reserved register or past the limit (or its phase's cap) */
static void
forbidden(const RA *ra, const RaNode *x, uint64_t *F)
{
	const RaOcc *o = &ra->occ[x->cls == RP];
	unsigned w = o->w;
	const uint64_t *res = ra->res[x->cls == RP];
	uint64_t Fe[4];

	for (unsigned q = 0; q < w; q++)
		F[q] = 0;
	for (uint32_t e = 0; e < x->size; e++) {
		uint32_t n;
		const RaSeg *s = node_segs(ra, x, e, &n);
		memcpy(Fe, res, w * sizeof *Fe);
		for (uint32_t k = 0; k < n; k++)
			occ_or(o, s[k].from, s[k].to, Fe);
		shr(Fe, w, e);
		for (unsigned q = 0; q < w; q++)
			F[q] |= Fe[q];
	}
	if (ra->win ? ra->win->cap != NULL : ra->cap != NULL)
		for (int c = node_cap(ra, x) - (int)x->size + 1; c < 256; c++)
			if (c >= 0)
				ADD(F, (unsigned)c);
}

static int
fits(const uint64_t *F, const RaNode *x, int c)
{
	return c >= 0 && c % x->align == 0 && c < 256 && !HAS(F, (unsigned)c);
}

/* the R registers x would overwrite while an instruction shortly before its first point may
 * still be reading them: those that memory instructions, SHFL and LDSM read after issue
 * (lat_late_read), shifted as forbidden() shifts, so bit c: x at c would meet one. A write there
 * waits on the reader's scoreboard (a load's read of its address lasts as long as the memory
 * pipe is backed up); ptxas gives such a value another register. G[k]: the reads of the
 * RaLateWin >> k instructions before (k = 0..RaLateLevels-1: the widest window first) */
static void
late_reads(const RA *ra, const RaNode *x, uint64_t G[][4])
{
	uint32_t g0 = x->start / 2, lo = 0, hi = ra->nlate;
	uint64_t R[4] = {0};

	while (lo < hi) {             /* the first late reader at or after g0 */
		uint32_t mid = (lo + hi) / 2;
		if (ra->lateg[mid] < g0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int k = RaLateLevels - 1; k >= 0; k--) {
		uint32_t w = (uint32_t)(RaLateWin >> k), from = g0 > w ? g0 - w : 0;
		for (; lo > 0 && ra->lateg[lo - 1] >= from; lo--) {
			uint32_t g = ra->lateg[lo - 1];
			for (uint32_t q = ra->slot0[g]; q < ra->slot0[g + 1]; q++) {
				const RaNode *y = ra->snode[q] == RaNone ? NULL : &ra->node[ra->snode[q]];
				if (!y || y->cls == RP || y->col < 0 || y->spilled)
					continue;
				for (unsigned e = 0; e < y->size && y->col + (int)e < 256; e++)
					ADD(R, (unsigned)y->col + e);
			}
		}
		memset(G[k], 0, 4 * sizeof *G[k]);
		if (!(R[0] | R[1] | R[2] | R[3]))
			continue;
		for (uint32_t e = 0; e < x->size; e++) {
			uint64_t Re[4];
			memcpy(Re, R, sizeof Re);
			shr(Re, 4, e);
			for (unsigned q = 0; q < 4; q++)
				G[k][q] |= Re[q];
		}
	}
}

/* the lowest register in the complement of F that x's alignment allows and below `below`
 * registers (x whole); -1 none */
static int
lowest_free(const RaNode *x, unsigned w, const uint64_t *F, int below)
{
	for (unsigned q = 0; q < w; q++) {
		uint64_t free_ = ~F[q];
		if (x->align == 2)
			free_ &= 0x5555555555555555ull;
		else if (x->align == 4)
			free_ &= 0x1111111111111111ull;
		if (free_) {
			int c = (int)(q * 64 + (unsigned)__builtin_ctzll(free_));
			return c + (int)x->size <= below ? c : -1;
		}
	}
	return -1;
}

/* R0..R(n-1) in use: the registers below the end of their allocation granule (the count is the
 * highest R + 3, allocated by RaGranule registers a thread: reg_alloc_unit, configs/a100.cfg),
 * which a choice among them leaves the occupancy as it is */
static int
granule_top(int n)
{
	return (n + 2 + RaGranule - 1) / RaGranule * RaGranule - 2;
}

/* the register for node x: a copy partner's if free, else, with hi >= 0, among R0..R(hi-1)
 * the lowest free one that no late read holds in the widest window that leaves one
 * (late_reads: the least recently read, roughly), else the lowest free one; -1 none */
static int
choose(const RA *ra, const RaNode *x, uint32_t n, const uint64_t *F, int hi)
{
	unsigned w = ra->occ[x->cls == RP].w;

	/* a copy partner's register; or, for a partner not coloured yet, where one of its own
	 * partners would put it (the other side of a chain of copies, one step ahead) */
	for (int depth = 0; depth < 2; depth++)
		for (uint32_t p = ra->pairof[n]; p < ra->pairof[n + 1]; p++) {
			uint32_t e = ra->pair[4 * p + 1], pn = ra->pair[4 * p + 2], pe = ra->pair[4 * p + 3];
			int pc = -1;
			if (pn == RaNone) {
				pc = depth ? -1 : (int)pe;      /* a register of the text */
			} else if (!depth) {
				const RaNode *y = &ra->node[pn];
				if (y->col >= 0 && !y->spilled)
					pc = y->col + (int)pe;
			} else if (ra->node[pn].col < 0 && pn < ra->nnode) {
				for (uint32_t q = ra->pairof[pn]; q < ra->pairof[pn + 1] && pc < 0; q++) {
					uint32_t e2 = ra->pair[4 * q + 1], qn = ra->pair[4 * q + 2];
					int at = -1;
					if (qn == n)
						continue;
					if (qn == RaNone)
						at = (int)ra->pair[4 * q + 3];
					else if (ra->node[qn].col >= 0 && !ra->node[qn].spilled)
						at = ra->node[qn].col + (int)ra->pair[4 * q + 3];
					if (at >= 0)
						pc = at - (int)e2 + (int)pe;   /* pn's start, then its element pe */
				}
			}
			if (pc >= 0 && fits(F, x, pc - (int)e))
				return pc - (int)e;
		}
	if (x->cls == RR && hi >= 0) {
		uint64_t G[RaLateLevels][4];
		int c;
		late_reads(ra, x, G);
		for (int k = 0; k < RaLateLevels; k++) {
			for (unsigned q = 0; q < w; q++)
				G[k][q] |= F[q];
			if ((c = lowest_free(x, w, G[k], hi)) >= 0)
				return c;
		}
	}
	return lowest_free(x, w, F, 256);
}

/* the nodes to colour (ord[0..n)) by first point, larger first where they start together,
 * else in node order: counting sorts (stable), by size then by start; the window target may ask
 * for larger first, then node order (RaWin.tuples_first: fiber-ra's order) */
static void
sort_nodes(const RA *ra, uint32_t *ord, uint32_t n)
{
	uint32_t npt = 2 * ra->nins + 3, *cnt = xmalloc((npt + 1) * sizeof *cnt);
	uint32_t *tmp = xmalloc((n + 1) * sizeof *tmp), bysz[130] = {0};

	for (uint32_t k = 0; k < n; k++)
		bysz[128 - (ra->node[ord[k]].size > 128 ? 128 : ra->node[ord[k]].size) + 1]++;
	for (unsigned z = 0; z < 129; z++)
		bysz[z + 1] += bysz[z];
	for (uint32_t k = 0; k < n; k++)
		tmp[bysz[128 - (ra->node[ord[k]].size > 128 ? 128 : ra->node[ord[k]].size)]++] = ord[k];
	if (ra->win && ra->win->tuples_first) {
		memcpy(ord, tmp, n * sizeof *ord);
		free(cnt);
		free(tmp);
		return;
	}
	memset(cnt, 0, (npt + 1) * sizeof *cnt);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t st = ra->node[tmp[k]].start;
		cnt[(st == RaNone ? npt - 1 : st) + 1]++;
	}
	for (uint32_t p = 0; p < npt; p++)
		cnt[p + 1] += cnt[p];
	for (uint32_t k = 0; k < n; k++) {
		uint32_t st = ra->node[tmp[k]].start;
		ord[cnt[st == RaNone ? npt - 1 : st]++] = tmp[k];
	}
	free(cnt);
	free(tmp);
}

/* the copy pairs by node, for choose() */
static void
index_pairs(RA *ra)
{
	uint32_t *cnt = xmalloc((ra->nnode + 2) * sizeof *cnt), *srt;

	memset(cnt, 0, (ra->nnode + 2) * sizeof *cnt);
	for (uint32_t p = 0; p < ra->npair; p++)
		cnt[ra->pair[4 * p] + 1]++;
	for (uint32_t n = 0; n < ra->nnode; n++)
		cnt[n + 1] += cnt[n];
	free(ra->pairof);
	ra->pairof = xmalloc((ra->nnode + 1) * sizeof *ra->pairof);
	memcpy(ra->pairof, cnt, (ra->nnode + 1) * sizeof *cnt);
	srt = xmalloc((4 * ra->npair + 1) * sizeof *srt);
	for (uint32_t p = 0; p < ra->npair; p++) {
		uint32_t at = cnt[ra->pair[4 * p]]++;
		memcpy(srt + 4 * at, ra->pair + 4 * p, 4 * sizeof *srt);
	}
	if (ra->npair)
		memcpy(ra->pair, srt, 4 * ra->npair * sizeof *srt);
	free(srt);
	free(cnt);
}

/* R register r keeps its value across a system call (CALL.ABS.NOINC to vprintf or
 * __assertfail): R16..R31 but the return address R20:R21, the CUDA ABI's callee-saved
 * registers as ptxas relies on them (nvcc's own code keeps its values in R16..R19 across
 * vprintf and __assertfail: tests/devcall, bench/ptx/checked; R22..R31 by the same convention,
 * an assumption docs/pass-regalloc.md states) */
int
ra_sys_saved(unsigned r)
{
	return r >= RaSysSaved0 && r <= RaSysSaved1 && r != 20 && r != 21;
}

/* one round: every node not spilled gets a register; the count of those that found none.
 * hi >= 0: a node without a copy partner avoids late reads within R0..R(hi-1) (choose) */
static uint32_t
colour(RA *ra, int hi)
{
	uint32_t *ord = xmalloc((ra->nnode + 1) * sizeof *ord), n = 0, nfail = 0;
	uint64_t F[4];

	occ_clear(&ra->occ[0]);
	occ_clear(&ra->occ[1]);
	for (uint32_t u = 0; u < RaVirt; u++)           /* pre-coloured: the text's own registers */
		for (uint32_t q = ra->upseg[u]; q < ra->upseg[u + 1]; q++)
			occ_set(&ra->occ[u >= RaPhysP], ra->pseg[q].from, ra->pseg[q].to,
			        u >= RaPhysP ? u - RaPhysP : u);
	for (uint32_t k = 0; k < ra->nclob; k++)       /* a call out of the function: all taken */
		for (unsigned r = 0; r < 256; r++) {
			occ_set(&ra->occ[0], ra->clob[k], ra->clob[k], r);
			if (r < 64)
				occ_set(&ra->occ[1], ra->clob[k], ra->clob[k], r);
		}
	for (uint32_t k = 0; k < ra->nsclob; k++)      /* a system call: all but what it saves */
		for (unsigned r = 0; r < 256; r++) {
			if (!ra_sys_saved(r))
				occ_set(&ra->occ[0], ra->sclob[k], ra->sclob[k], r);
			if (r < 64)
				occ_set(&ra->occ[1], ra->sclob[k], ra->sclob[k], r);
		}
	index_pairs(ra);
	if (!ra->lateg && !ra->win) {                  /* the late readers (late_reads), once */
		ra->lateg = xmalloc((ra->nins + 1) * sizeof *ra->lateg);
		for (uint32_t g = 0; g < ra->nins; g++)
			if (lat_late_read(ra->ins[g]))
				ra->lateg[ra->nlate++] = g;
	}
	for (uint32_t k = 0; k < ra->nnode; k++) {
		RaNode *x = &ra->node[k];
		x->col = -1;
		x->failed = 0;
		if (!x->spilled && (x->nref || x->kind != NkDecl))
			ord[n++] = k;
	}
	sort_nodes(ra, ord, n);
	for (uint32_t k = 0; k < n; k++) {
		RaNode *x = &ra->node[ord[k]];
		int c;
		if (x->start == RaNone) {
			x->col = 0;             /* only read, never written: any register (undefined) */
			continue;
		}
		forbidden(ra, x, F);
		c = choose(ra, x, ord[k], F, hi);
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
	ra->rounds += hi < 0;
	return nfail;
}

/* one past the highest R register a node was given */
static int
r_top(const RA *ra)
{
	int top = 0;

	for (uint32_t k = 0; k < ra->nnode; k++)
		if (ra->node[k].cls == RR && ra->node[k].col >= 0 && !ra->node[k].spilled &&
		    ra->node[k].col + (int)ra->node[k].size > top)
			top = ra->node[k].col + (int)ra->node[k].size;
	return top;
}

/* ---- 5. spilling ------------------------------------------------------------------------------ */

static uint32_t
new_temp(RA *ra, uint8_t cls, uint16_t size, uint16_t align, uint32_t g, uint8_t fl)
{
	uint32_t t = ra_new_node(ra);
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
	if (x->cls == RP) {     /* an R node gets its slot at the end (slots) */
		uint32_t h = ra_new_node(ra), r0 = ra->nref;
		x = &ra->node[n];
		RaNode *y = &ra->node[h];
		y->cls = RR;
		y->kind = NkHome;
		y->size = y->align = 1;
		y->unit = x->unit;
		y->e0 = x->e0;
		y->start = x->start;
		y->len = x->len;
		vgrow(&ra->ref, &ra->cref, ra->nref + x->nref + 1, sizeof *ra->ref);
		for (uint32_t k = 0; k < x->nref; k++) {
			const RaRef *r = &ra->ref[x->ref + k];
			uint8_t fl = (uint8_t)(((r->fl & (RfUse | RfOld)) ? RfUse : 0) |
			                       ((r->fl & RfDef) ? RfDef : 0));
			ra->ref[ra->nref++] = (RaRef){ .ins = r->ins, .fl = fl, .temp = RaNone };
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

/* the next reference of node x after instruction g (RaNone none); *now: one at g */
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
	return lo < x->ref + x->nref ? ra->ref[lo].ins : RaNone;
}

/* how good a choice spilling x at instruction g is: the distance to its next reference (Belady)
 * over what spilling it everywhere costs (a load or store at each reference) */
static double
spill_score(const RA *ra, const RaNode *x, uint32_t g, uint32_t next)
{
	double dist = next == RaNone ? (double)(ra->nins + 1 - g) : (double)(next - g);

	return dist / (double)(x->nref + 1);
}

/* the temporaries that found no register (t[0..nt), by point): for each, the node to spill
 * instead (best[k], RaNone none), among those of its class that hold a register at its points
 * and have no reference at its instruction, the best for spill_score. One pass over every
 * node's segments, each looking up the temporaries inside it (binary search): linear in the
 * segments and in the (temporary, node) pairs that meet */
static const RA *tsort_ra;

static int
by_tpoint(const void *a, const void *b)
{
	const RaNode *x = &tsort_ra->node[*(const uint32_t *)a];
	const RaNode *y = &tsort_ra->node[*(const uint32_t *)b];

	return x->tseg.from < y->tseg.from ? -1 : x->tseg.from > y->tseg.from;
}

static void
victims(const RA *ra, uint32_t *t, uint32_t nt, uint32_t *best)
{
	double *score = xmalloc((nt + 1) * sizeof *score);

	tsort_ra = ra;
	qsort(t, nt, sizeof *t, by_tpoint);
	for (uint32_t k = 0; k < nt; k++)
		best[k] = RaNone, score[k] = -1;
	for (uint32_t n = 0; n < ra->nnode; n++) {
		const RaNode *x = &ra->node[n];
		if (x->kind == NkTemp || x->spilled || x->col < 0)
			continue;
		for (uint32_t e = 0; e < x->size; e++) {
			uint32_t ns;
			const RaSeg *sg = node_segs(ra, x, e, &ns);
			for (uint32_t q = 0; q < ns; q++) {
				/* the first temporary whose points reach into [from, to] */
				uint32_t lo = 0, hi = nt;
				while (lo < hi) {
					uint32_t mid = (lo + hi) / 2;
					if (ra->node[t[mid]].tseg.to < sg[q].from)
						lo = mid + 1;
					else
						hi = mid;
				}
				for (uint32_t k = lo; k < nt && ra->node[t[k]].tseg.from <= sg[q].to; k++) {
					const RaNode *y = &ra->node[t[k]];
					uint32_t g = y->tseg.from / 2;
					int now;
					double sc;
					if (y->cls != x->cls || y->tseg.to < sg[q].from || best[k] == n)
						continue;
					sc = spill_score(ra, x, g, next_ref(ra, x, g, &now));
					if (!now && sc > score[k]) {
						score[k] = sc;
						best[k] = n;
					}
				}
			}
		}
	}
	free(score);
}

typedef struct Sweep {
	uint32_t *owner;   /* per node: the node its register belongs to now (a spilled predicate's:
	                      its home) */
	uint32_t *nlive;   /* per node: its segments open at the point */
	uint32_t *apos;    /* per node: its place in act + 1, 0 out */
	uint32_t cn;       /* per-node arrays' room */
	int32_t *td[2];    /* per point: change of the temporaries' pressure (R, P) */
	uint32_t *act;     /* nodes holding a register at the point */
	uint32_t nact, cact;
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
	w->owner = xrealloc(w->owner, w->cn * sizeof *w->owner);
	memset(w->apos + old, 0, (w->cn - old) * sizeof *w->apos);
	memset(w->nlive + old, 0, (w->cn - old) * sizeof *w->nlive);
	for (uint32_t n = old; n < w->cn; n++)
		w->owner[n] = n;
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
		uint32_t h = ra->node[n].home;
		w->owner[n] = h;
		w->pr[1] -= (int)w->nlive[n];
		w->pr[0] += (int)w->nlive[n];
		w->nlive[h] = w->nlive[n];
		if (w->nlive[h])
			sw_enter(w, h);
	} else {
		w->pr[0] -= (int)w->nlive[n];
	}
	w->nlive[n] = 0;
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
 * (R: R0..top without R1; P: P0..P6), the node whose next reference is farthest for what
 * spilling it costs goes (Belady, weighed), not one referenced at this very instruction if
 * another will do */
/* whether physical unit u's segments count in the pressure: not R1 (reserved), nor a register
 * the window target pinned (reserved too, taken off the capacity instead) */
static int
counted(const RA *ra, uint32_t u)
{
	return u != 1 && !(ra->win && u < RaPhysR && ((ra->win->pin[u >> 6] >> (u & 63)) & 1));
}

static void
presspill(RA *ra)
{
	uint32_t npt = 2 * ra->nins + 2, *cnt, *ev, *segnode, *psunit, nn = ra->nnode;
	uint32_t nps = ra->upseg[RaVirt];
	int cap[2] = { ra->top, 7 }, r1 = !ra->win || ra->win->r1;
	Sweep w = {0};

	/* events: a segment's start at its first point, its end after its last; id << 2 |
	 * physical << 1 | start */
	segnode = xmalloc((ra->nseg + 1) * sizeof *segnode);
	psunit = xmalloc((nps + 1) * sizeof *psunit);
	for (uint32_t n = 0; n < nn; n++)
		if (ra->node[n].kind == NkDecl)
			for (uint32_t q = ra->eoff[ra->node[n].e0];
			     q < ra->eoff[ra->node[n].e0 + ra->node[n].size]; q++)
				segnode[q] = n;
	for (uint32_t u = 0; u < RaVirt; u++)
		for (uint32_t q = ra->upseg[u]; q < ra->upseg[u + 1]; q++)
			psunit[q] = u;
	cnt = xmalloc((npt + 2) * sizeof *cnt);
	memset(cnt, 0, (npt + 2) * sizeof *cnt);
	for (uint32_t q = 0; q < ra->nseg; q++) {
		cnt[ra->seg[q].from + 1]++;
		cnt[ra->seg[q].to + 2]++;
	}
	for (uint32_t q = 0; q < nps; q++)
		if (counted(ra, psunit[q])) {
			cnt[ra->pseg[q].from + 1]++;
			cnt[ra->pseg[q].to + 2]++;
		}
	for (uint32_t p = 0; p <= npt; p++)
		cnt[p + 1] += cnt[p];
	ev = xmalloc((2 * (size_t)(ra->nseg + nps) + 1) * sizeof *ev);
	for (uint32_t q = 0; q < ra->nseg; q++) {
		ev[cnt[ra->seg[q].from]++] = q << 2 | 1;
		ev[cnt[ra->seg[q].to + 1]++] = q << 2;
	}
	for (uint32_t q = 0; q < nps; q++)
		if (counted(ra, psunit[q])) {
			ev[cnt[ra->pseg[q].from]++] = q << 2 | 3;
			ev[cnt[ra->pseg[q].to + 1]++] = q << 2 | 2;
		}
	/* cnt[p] is now the end of point p's events, cnt[p - 1] their start */
	for (int c = 0; c < 2; c++) {
		w.td[c] = xmalloc((npt + 2) * sizeof *w.td[c]);
		memset(w.td[c], 0, (npt + 2) * sizeof *w.td[c]);
	}
	sw_room(ra, &w);
	for (uint32_t p = 0; p < npt; p++) {
		w.pr[0] += w.td[0][p];
		w.pr[1] += w.td[1][p];
		for (uint32_t q = p ? cnt[p - 1] : 0; q < cnt[p]; q++) {
			uint32_t id = ev[q] >> 2, o;
			int start = ev[q] & 1, c;
			if (ev[q] & 2) {
				w.pr[psunit[id] >= RaPhysP] += start ? 1 : -1;
				continue;
			}
			o = w.owner[segnode[id]];
			if (ra->node[o].spilled)
				continue;
			c = ra->node[o].cls == RP;
			if (start) {
				w.pr[c]++;
				if (!w.nlive[o]++)
					sw_enter(&w, o);
			} else if (w.nlive[o]) {
				w.pr[c]--;
				if (!--w.nlive[o])
					sw_leave(&w, o);
			}
		}
		if (ra->win)                         /* a window: R0..top, R1 and pins aside */
			cap[0] = ra->top + 1 - r1 - ra->win->npin;
		for (int c = 0; c < 2; c++)
			while (w.pr[c] > cap[c]) {
				uint32_t best = RaNone, g = p / 2;
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
					if (best == RaNone || (bnow && !now) || (bnow == now && sc > bscore)) {
						best = w.act[k];
						bscore = sc;
						bnow = now;
					}
				}
				if (best == RaNone)
					break;
				sw_spill(ra, &w, best, p);
			}
	}
	free(cnt);
	free(ev);
	free(segnode);
	free(psunit);
	free(w.owner);
	free(w.td[0]);
	free(w.td[1]);
	free(w.act);
	free(w.apos);
	free(w.nlive);
}

/* the spill slots: spilled R nodes whose spans (first point to last) do not meet share one;
 * by first point, each takes a slot of its size that is free again (a heap by the point it
 * frees at, per size), else a new one at the end of the area */
typedef struct Slot2 { uint32_t end; int32_t off; } Slot2;

static void
heap_push(Slot2 *h, uint32_t *n, Slot2 v)
{
	uint32_t k = (*n)++;

	while (k && h[(k - 1) / 2].end > v.end) {
		h[k] = h[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	h[k] = v;
}

static Slot2
heap_pop(Slot2 *h, uint32_t *n)
{
	Slot2 top = h[0], v = h[--*n];
	uint32_t k = 0;

	for (;;) {
		uint32_t c = 2 * k + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].end < h[c].end)
			c++;
		if (h[c].end >= v.end)
			break;
		h[k] = h[c];
		k = c;
	}
	if (*n)
		h[k] = v;
	return top;
}

static void
slots(RA *ra)
{
	uint32_t *ord = xmalloc((ra->nnode + 1) * sizeof *ord), n = 0, *end;
	Slot2 *heap[8] = {0};
	uint32_t nh[8] = {0};

	end = xmalloc((ra->nnode + 1) * sizeof *end);
	for (uint32_t k = 0; k < ra->nnode; k++) {
		RaNode *x = &ra->node[k];
		if (!x->spilled || x->cls != RR)
			continue;
		end[k] = 0;
		for (uint32_t e = 0; e < x->size; e++) {
			uint32_t ns;
			const RaSeg *sg = node_segs(ra, x, e, &ns);
			for (uint32_t q = 0; q < ns; q++)
				end[k] = sg[q].to > end[k] ? sg[q].to : end[k];
		}
		if (x->start == RaNone)
			x->start = 0;
		ord[n++] = k;
	}
	sort_nodes(ra, ord, n);
	for (uint32_t k = 0; k < n; k++) {
		RaNode *x = &ra->node[ord[k]];
		unsigned c = (unsigned)__builtin_ctz(x->size);     /* sizes are powers of two */
		int al = 4 * x->align;
		if (c < 8 && nh[c] && heap[c][0].end < x->start) {
			Slot2 v = heap_pop(heap[c], &nh[c]);
			x->slot = v.off;
		} else {
			ra->frame = (ra->frame + al - 1) / al * al;
			x->slot = ra->frame;
			ra->frame += 4 * x->size;
		}
		if (c < 8) {
			if (!heap[c])
				heap[c] = xmalloc((n + 1) * sizeof *heap[c]);
			heap_push(heap[c], &nh[c], (Slot2){ end[ord[k]], x->slot });
		}
	}
	for (int c = 0; c < 8; c++)
		free(heap[c]);
	free(ord);
	free(end);
}

/* colour, spill what does not fit, again; -1 after an error */
static int
rounds(RA *ra, int hi)
{
	for (;;) {
		uint32_t nfail = colour(ra, hi), nn = ra->nnode, done = 0, nt = 0, *t, *best;
		if (!nfail)
			return 0;
		if (ra->win && ra->win->trial) {
			ra->win->failed = 1;     /* a trial of rawin.c's search: no spilling */
			return -1;
		}
		t = xmalloc((nfail + 1) * sizeof *t);
		best = xmalloc((nfail + 1) * sizeof *best);
		for (uint32_t n = 0; n < nn; n++)
			if (ra->node[n].failed && ra->node[n].kind == NkTemp)
				t[nt++] = n;
		victims(ra, t, nt, best);
		for (uint32_t n = 0; n < nn; n++)       /* a node that found none: itself */
			if (ra->node[n].failed && ra->node[n].kind != NkTemp && !ra->node[n].spilled) {
				spill(ra, n);
				done++;
			}
		for (uint32_t k = 0; k < nt; k++)        /* a temporary: the best to make room */
			if (best[k] != RaNone && !ra->node[best[k]].spilled) {
				spill(ra, best[k]);
				done++;
			}
		free(t);
		free(best);
		if (!done) {
			for (uint32_t n = 0; n < nn; n++)
				if (ra->node[n].failed) {
					const RaNode *x = &ra->node[n];
					uint32_t g = x->tseg.from / 2;
					if (x->cls == RP)
						error_at(ra->d, ra->ins[g]->loc, "regalloc: this "
						         "instruction needs more predicates than P0..P6");
					else if (ra->win)
						error_at(ra->d, ra->ins[g]->loc, "this instruction needs more "
						         "registers than a window of %d (R0..R%d%s) holds", ra->top + 1,
						         ra->top, ra->win->r1 ? " without R1" : "");
					else
						error_at(ra->d, ra->ins[g]->loc, "regalloc: this "
						         "instruction needs more registers than a limit of %d "
						         "(--maxrregcount, .maxnreg) leaves: R0..R%d without R1",
						         ra->maxreg, ra->top);
					return -1;
				}
			return -1;
		}
	}
}

/* colouring rounds with spills until all fit; then, on the SIMT target, a colouring that avoids
 * late reads (late_reads) within the registers of the allocation granules the first one took,
 * kept when it fits there; where the first had to spill (at the register limit), rounds that
 * avoid late reads up to the limit, spilling what they cannot place (the ones a reuse would
 * stall on cost more than the spills: flash_attn_fwd); else the first colouring again: kept
 * aside and put back, as colouring again would give it (colour is deterministic, and nothing
 * it reads changed), counted as the round it stands for */
static int
allocate(RA *ra)
{
	int hi, *first;
	uint32_t nn = ra->nnode;

	if (rounds(ra, -1) < 0)
		return -1;
	if (ra->win || !ra->nlate)
		return 0;
	hi = granule_top(r_top(ra));
	first = xmalloc((nn + 1) * sizeof *first);
	for (uint32_t k = 0; k < nn; k++)
		first[k] = ra->node[k].col;
	if (colour(ra, hi) == 0 && r_top(ra) <= hi) {
		free(first);
		return 0;
	}
	if (ra->nspill) {
		free(first);
		return rounds(ra, ra->top + 1);
	}
	for (uint32_t k = 0; k < nn; k++) {      /* the first colouring placed every node */
		ra->node[k].col = first[k];
		ra->node[k].failed = 0;
	}
	ra->rounds++;
	free(first);
	return 0;
}

/* ---- the pass ------------------------------------------------------------------------------ */

void
ra_free(RA *ra)
{
	free(ra->ins);
	free(ra->gblk);
	free(ra->udecl);
	free(ra->slot0);
	free(ra->snode);
	free(ra->sunit);
	free(ra->seg);
	free(ra->eoff);
	free(ra->pseg);
	free(ra->upseg);
	free(ra->node);
	free(ra->ref);
	free(ra->pair);
	free(ra->pairof);
	free(ra->clob);
	free(ra->sclob);
	free(ra->lateg);
	free(ra->cap);
	if (ra->occ[0].pt) {
		occ_free(&ra->occ[0]);
		occ_free(&ra->occ[1]);
	}
	{                                       /* ready for ra_setup again: f, d, win kept */
		Fn *f = ra->f;
		Diag *d = ra->d;
		RaWin *w = ra->win;
		memset(ra, 0, sizeof *ra);
		ra->f = f;
		ra->d = d;
		ra->win = w;
	}
}

int
ra_setup(RA *ra, int maxreg)
{
	Fn *f = ra->f;

	if (maxreg < 8 || maxreg > 255) {
		error_at(ra->d, f->loc, "regalloc: a register limit of %d is out of range (8..255)",
		         maxreg);
		return -1;
	}
	ra->maxreg = maxreg;
	ra->top = maxreg - 3 > 254 ? 254 : maxreg - 3;
	if (ra->win)
		ra->top = maxreg - 1 > 254 ? 254 : maxreg - 1;   /* a window: R0..R(maxreg-1) */
	if (!ra->win || ra->win->r1)
		ra->res[0][0] = 2;                  /* R1: the stack pointer */
	for (int k = 0; ra->win && k < 4; k++)
		ra->res[0][k] |= ra->win->pin[k];   /* the window target's pinned registers */
	for (unsigned r = (unsigned)ra->top + 1; r < 256; r++)
		ra->res[0][r >> 6] |= (uint64_t)1 << (r & 63);
	ra->res[1][0] = ~(uint64_t)0x7f;            /* P0..P6 */
	for (uint32_t k = 0; k < f->nvreg; k++) {
		const FVReg *v = &f->vreg[k];
		uint32_t *n = v->cls == RP ? &ra->npv : &ra->nrv;
		if ((uint32_t)(v->base + v->size - RegVirt) > *n)
			*n = (uint32_t)(v->base + v->size - RegVirt);
	}
	ra->nunit = RaVirt + ra->nrv + ra->npv;
	ra->udecl = xmalloc((ra->nunit + 1) * sizeof *ra->udecl);
	memset(ra->udecl, 0xff, (ra->nunit + 1) * sizeof *ra->udecl);
	for (uint32_t k = 0; k < f->nvreg; k++) {
		const FVReg *v = &f->vreg[k];
		int u = ra_unit(ra, REG(v->cls == RP ? RP : RR, v->base));
		for (uint32_t e = 0; u >= 0 && e < v->size; e++)
			ra->udecl[(uint32_t)u + e] = k;
	}
	ra->gblk = xmalloc((f->nblk + 1) * sizeof *ra->gblk);
	for (uint32_t b = 0; b < f->nblk; b++) {
		ra->gblk[b] = ra->nins;
		ra->nins += f->blk[b]->nins;
	}
	ra->ins = xmalloc((ra->nins + 1) * sizeof *ra->ins);
	for (uint32_t b = 0, g = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			if (!i->slot && op_slots(f, i) < 0)
				return -1;
			ra->ins[g++] = i;
		}
	return 0;
}

int
ra_solve(RA *ra)
{
	if (ra_build(ra) < 0)
		return -1;
	occ_init(&ra->occ[0], 4, 2 * ra->nins + 2);
	occ_init(&ra->occ[1], 1, 2 * ra->nins + 2);
	if (ra->maxlive[0] > ra->top || ra->maxlive[1] > 7 || ra->nclob || ra->nsclob ||
	    (ra->win && ra->maxlive[0] + ra->win->r1 + ra->win->npin > ra->top + 1))
		presspill(ra);      /* else the sweep would find room everywhere */
	if (allocate(ra) < 0)
		return -1;
	slots(ra);
	return 0;
}

int
regalloc_run(Fn *f, Diag *d, int maxreg, RaStats *st)
{
	RA ra = { .f = f, .d = d };
	int rc = -1, copies = 0, most = maxreg;

	if (st)
		memset(st, 0, sizeof *st);
	if (!f->nvreg)
		return PassUnchanged;
	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	if (ra_setup(&ra, maxreg) < 0 || ra_maxreg_caps(&ra, maxreg, &most) < 0)
		goto out;
	if (ra.cap && most - 3 > ra.top) {          /* setmaxnreg.inc: up to its count there */
		for (int r = ra.top + 1; r <= most - 3 && r < 255; r++)
			ra.res[0][r >> 6] &= ~((uint64_t)1 << (r & 63));
		ra.top = most - 3 > 254 ? 254 : most - 3;
	}
	if (ra_solve(&ra) < 0 || ra_rewrite(&ra, &copies) < 0)
		goto out;
	if (ra.cap)                                 /* the launch holds the entry's count */
		kinfo_regcount(f, maxreg);
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
ra_launch_limit(const Fn *f)
{
	const Arch *a = arch_code(f->mod ? f->mod->sm : 0);
	const int *n = f->info.reqntid[0] > 0 ? f->info.reqntid : f->info.max_threads;
	long t = 1, warps, per;

	if (n[0] <= 0 || !a->regs_sm || !a->reg_unit)
		return 255;
	for (int k = 0; k < 3; k++)
		t *= n[k] > 0 ? n[k] : 1;
	warps = (t + 31) / 32;
	per = (a->regs_sm / warps) / a->reg_unit * a->reg_unit / 32;
	return per > 255 ? 255 : (int)per;
}

int
pass_regalloc(Fn *f, Diag *d)
{
	int n = f->info.maxreg > 0 && f->info.maxreg < 255 ? f->info.maxreg : 255;
	int l = ra_launch_limit(f);

	return regalloc_run(f, d, l < n ? l : n, NULL);
}
