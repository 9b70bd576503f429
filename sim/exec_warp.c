/* exec_warp.c: semantics of the warp-collective instructions: SHFL (IDX, UP, DOWN, BFLY with
 * the clamp and segment mask of PTX shfl.sync), VOTE and VOTEU (ALL, ANY, EQ and the ballot),
 * MATCH (ANY, ALL, 32 and 64 bits), REDUX (SUM, MIN, MAX, AND, OR, XOR into a uniform register)
 * and ELECT. `mask` is the set of lanes that execute the instruction together: votes, matches
 * and reductions are over those lanes; a shuffle reads the source lane's register whether or not
 * that lane is active (PTX leaves that case undefined; the register file is what the hardware
 * reads).
 */
#include <string.h>

#include "sim.h"

/* the register class of operand k, or RNone if it is not a register */
static unsigned
cls(const Ins *i, unsigned k)
{
	return k < i->nopnd && i->opnd[k].kind == OReg ? RCLS(i->opnd[k].r[0]) : RNone;
}

/* the mode modifier: the index of the first modifier found in names, or -1 */
static int
modeof(DecodeCtx *c, const Ins *i, const char *const *names, unsigned nnames, int dflt)
{
	int mode = dflt;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		unsigned j;
		for (j = 0; j < nnames && strcmp(s, names[j]); j++)
			;
		if (j == nnames)
			return -2;                 /* unknown modifier */
		mode = (int)j;
	}
	return mode;
}

/* write v to uniform register r unless it is URZ */
static inline void
wur(Exec *x, unsigned r, uint32_t v)
{
	if (r != RegURZ)
		x->w->ur[r] = v;
}

/* write v to uniform predicate p unless it is UPT */
static inline void
wup(Exec *x, unsigned p, int v)
{
	if (p != RegUPT)
		x->w->up[p] = (uint8_t)v;
}

/* ---------------------------------------------------------------------------------------------
 * SHFL.mode Pd, Rd, Ra, b, c: dst[0] Rd, dst[1] Pd, src[0] Ra, src[1] b, src[2] c; mod: mode.
 * b is the source lane or offset, c packs the clamp (bits 0..4) and the segment mask (bits
 * 8..12), exactly PTX shfl.sync's c: `__shfl_down_sync(m, v, 2, 16)` is `SHFL.DOWN PT, R7, R4,
 * 0x2, 0x101f`. Per PTX: maxLane = (lane & seg) | (clamp & ~seg), minLane = lane & seg;
 *   IDX:  j = minLane | (b & ~seg), valid if j <= maxLane
 *   UP:   j = lane - b,             valid if j >= maxLane
 *   DOWN: j = lane + b,             valid if j <= maxLane
 *   BFLY: j = lane ^ b,             valid if j <= maxLane
 * an invalid j reads the lane's own value; Pd is the validity.
 */
enum { ShIdx, ShUp, ShDown, ShBfly };

/* the source lane of lane for mode (a constant after inlining); *ok the validity */
static inline __attribute__((always_inline)) int
shfl_src(unsigned mode, int lane, uint32_t bw, uint32_t cw, int *ok)
{
	int bv = (int)(bw & 0x1f), cl = (int)(cw & 0x1f), seg = (int)(cw >> 8 & 0x1f);
	int maxl = (lane & seg) | (cl & ~seg), j;

	switch (mode) {
	case ShIdx: j = (lane & seg) | (bv & ~seg); *ok = j <= maxl; break;
	case ShUp: j = lane - bv; *ok = j >= maxl; break;
	case ShDown: j = lane + bv; *ok = j <= maxl; break;
	default: j = lane ^ bv; *ok = j <= maxl; break;
	}
	return *ok ? j : lane;
}

static inline __attribute__((always_inline)) void
shfl_mode(Exec *x, const DIns *d, uint32_t mask, unsigned mode)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], out[WarpSize], valid = 0;
	const uint32_t *a = sim_src(x, &d->src[0], ta);
	const uint32_t *b = sim_src(x, &d->src[1], tb);
	const uint32_t *c = sim_src(x, &d->src[2], tc);
	int ok;

	for (uint32_t m = mask; m; m &= m - 1) {
		int lane = (int)(unsigned)__builtin_ctz(m);
		out[lane] = a[shfl_src(mode, lane, b[lane], c[lane], &ok)];
		valid |= (uint32_t)ok << lane;
	}
	sim_dst(x, &d->dst[0], out, mask);
	sim_dst_pred(x, &d->dst[1], valid, mask);
}

static void
ex_shfl(Exec *x, const DIns *d, uint32_t mask)
{
	switch (d->mod) {
	case ShIdx: shfl_mode(x, d, mask, ShIdx); break;
	case ShUp: shfl_mode(x, d, mask, ShUp); break;
	case ShDown: shfl_mode(x, d, mask, ShDown); break;
	default: shfl_mode(x, d, mask, ShBfly); break;
	}
}

/* SHFL.BFLY PT, R15, R0, 0x1, 0x1f; SHFL.DOWN PT, R0, R9, R11, R8 */
static int
dec_shfl(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const modes[] = {"IDX", "UP", "DOWN", "BFLY"};
	int mode = modeof(c, i, modes, 4, -1);

	if (mode < 0 || i->nmod != 1)
		return sim_unsupported_why(c, i, "expected one of IDX, UP, DOWN, BFLY");
	if (i->nopnd != 5)
		return sim_unsupported_why(c, i, "expected five operands");
	if (sim_reg_opnd(c, i, 0, RP, 1, &d->dst[1]) || sim_reg_opnd(c, i, 1, RR, 1, &d->dst[0]) ||
	    dop_from(c, i, 2, &d->src[0]) || dop_from(c, i, 3, &d->src[1]) ||
	    dop_from(c, i, 4, &d->src[2]))
		return -1;
	d->ndst = 2;
	d->nsrc = 3;
	d->mod = (uint32_t)mode;
	d->exec = ex_shfl;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * VOTE.mode [Rd,] Pd, Ps and VOTEU.mode [URd,] UPd, Ps: dst[0] the ballot register (DNone when
 * absent), dst[1] the predicate, src[0] Ps; mod: mode. The ballot is the set of executing lanes
 * whose Ps is true (`VOTE.ANY R0, PT, PT` is __activemask()); ALL: every executing lane's Ps is
 * true, ANY: some, EQ: all equal.
 */
enum { VAll, VAny, VEq };

static inline int
vote(unsigned mode, uint32_t ballot, uint32_t mask)
{
	switch (mode) {
	case VAll: return ballot == mask;
	case VAny: return ballot != 0;
	default: return ballot == 0 || ballot == mask;
	}
}

static void
ex_vote(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ballot = sim_pred(x, &d->src[0]) & mask, v[WarpSize];

	if (d->dst[0].kind == DR) {
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = ballot;
		sim_dst(x, &d->dst[0], v, mask);
	}
	sim_dst_pred(x, &d->dst[1], vote(d->mod, ballot, mask) ? mask : 0, mask);
}

static void
ex_voteu(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ballot = sim_pred(x, &d->src[0]) & mask;

	if (!mask)
		return;
	if (d->dst[0].kind == DUR)
		wur(x, d->dst[0].reg, ballot);
	wup(x, d->dst[1].reg, vote(d->mod, ballot, mask));
}

/* VOTE.ANY R15, PT, P1; VOTE.ALL P3, P3; VOTEU.ANY UR6, UPT, PT; VOTEU.ALL UP0, P1 */
static int
dec_vote(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const modes[] = {"ALL", "ANY", "EQ"};
	int u = i->op == OVOTEU, mode = modeof(c, i, modes, 3, -1);
	unsigned k = 0;

	if (mode < 0 || i->nmod != 1)
		return sim_unsupported_why(c, i, "expected one of ALL, ANY, EQ");
	if (i->nopnd != 2 && i->nopnd != 3)
		return sim_unsupported_why(c, i, "expected two or three operands");
	memset(&d->dst[0], 0, sizeof d->dst[0]);
	if (i->nopnd == 3 && sim_reg_opnd(c, i, k++, u ? RUR : RR, 1, &d->dst[0]))
		return -1;
	if (sim_reg_opnd(c, i, k++, u ? RUP : RP, 1, &d->dst[1]) ||
	    sim_reg_opnd(c, i, k, RP, 1, &d->src[0]))
		return -1;
	d->ndst = 2;
	d->nsrc = 1;
	d->mod = (uint32_t)mode;
	d->exec = u ? ex_voteu : ex_vote;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * MATCH.ANY[.U64] Rd, Ra and MATCH.ALL[.U64] Pd, Rd, Ra: dst[0] Rd, dst[1] Pd (DNone for ANY),
 * src[0] Ra (a pair for .U64); mod: MAll | MU64. ANY: Rd is the set of executing lanes whose
 * value equals this lane's; ALL: if every executing lane holds the same value, Rd is the set of
 * executing lanes and Pd is true, else Rd is 0 and Pd false.
 */
enum {
	MAll = 1 << 0,         /* .ALL (else .ANY) */
	MU64 = 1 << 1,         /* 64-bit values */
};

static void
ex_match(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t tlo[WarpSize], thi[WarpSize], out[WarpSize];
	const uint32_t *lo = sim_src(x, &d->src[0], tlo), *hi = tlo;
	uint64_t v[WarpSize];
	DOp o1;

	if (d->mod & MU64) {
		o1 = d->src[0];
		if (o1.reg != RegRZ || (o1.flags & DFVreg))
			o1.reg++;
		hi = sim_src(x, &o1, thi);
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		v[l] = lo[l] | (d->mod & MU64 ? (uint64_t)hi[l] << 32 : 0);
	}
	if (d->mod & MAll) {
		int eq = 1;
		for (uint32_t m = mask; m; m &= m - 1)
			eq &= v[(unsigned)__builtin_ctz(m)] == v[(unsigned)__builtin_ctz(mask)];
		for (unsigned l = 0; l < WarpSize; l++)
			out[l] = eq ? mask : 0;
		sim_dst(x, &d->dst[0], out, mask);
		sim_dst_pred(x, &d->dst[1], eq ? mask : 0, mask);
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint32_t same = 0;
		for (uint32_t n = mask; n; n &= n - 1)
			same |= (uint32_t)(v[(unsigned)__builtin_ctz(n)] == v[l]) << (unsigned)__builtin_ctz(n);
		out[l] = same;
	}
	sim_dst(x, &d->dst[0], out, mask);
}

/* MATCH.ANY R17, R12; MATCH.ALL.U64 P0, R20, R10 */
static int
dec_match(DecodeCtx *c, const Ins *i, DIns *d)
{
	uint32_t mod = 0;
	int any = 0;
	unsigned k = 0;

	for (unsigned j = 0; j < i->nmod; j++) {
		const char *s = mstr(c->fn->mod, i->mod[j]);
		if (strcmp(s, "ALL") == 0)
			mod |= MAll;
		else if (strcmp(s, "ANY") == 0)
			any = 1;
		else if (strcmp(s, "U64") == 0)
			mod |= MU64;
		else if (strcmp(s, "U32") != 0)
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (any == !!(mod & MAll))
		return sim_unsupported_why(c, i, "expected one of ANY, ALL");
	memset(&d->dst[1], 0, sizeof d->dst[1]);
	if (cls(i, 0) == RP && sim_reg_opnd(c, i, k++, RP, 1, &d->dst[1]))
		return -1;
	if (!(mod & MAll) && k)
		return sim_unsupported_why(c, i, "MATCH.ANY has no predicate");
	if (sim_reg_opnd(c, i, k++, RR, 1, &d->dst[0]) ||
	    sim_reg_opnd(c, i, k++, RR, mod & MU64 ? 2 : 1, &d->src[0]))
		return -1;
	if (k != i->nopnd)
		return sim_unsupported_why(c, i, "unexpected operands");
	d->ndst = 2;
	d->nsrc = 1;
	d->mod = mod;
	d->exec = ex_match;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * REDUX.op[.S32] URd, Ra: dst[0] URd (or an R register, every executing lane receiving the
 * result), src[0] Ra; mod: op | RSigned. The operation without a name is AND (`__reduce_and_sync`
 * is `REDUX UR10, R12`); MIN and MAX are unsigned unless .S32; SUM wraps.
 */
enum { RAnd, RSum, RMin, RMax, ROr, RXor };

enum {
	RSigned = 1 << 4,      /* .S32 */
};

static void
ex_redux(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], out[WarpSize], r;
	const uint32_t *a = sim_src(x, &d->src[0], ta);
	int sg = !!(d->mod & RSigned);

	if (!mask)
		return;
	r = a[(unsigned)__builtin_ctz(mask)];
	for (uint32_t m = mask & (mask - 1); m; m &= m - 1) {
		uint32_t v = a[(unsigned)__builtin_ctz(m)];
		switch (d->mod & 15) {
		case RAnd: r &= v; break;
		case RSum: r += v; break;
		case ROr: r |= v; break;
		case RXor: r ^= v; break;
		case RMin: r = (sg ? (int32_t)v < (int32_t)r : v < r) ? v : r; break;
		case RMax: r = (sg ? (int32_t)v > (int32_t)r : v > r) ? v : r; break;
		}
	}
	if (d->dst[0].kind == DUR) {
		wur(x, d->dst[0].reg, r);
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++)
		out[l] = r;
	sim_dst(x, &d->dst[0], out, mask);
}

/* REDUX.SUM UR4, R14; REDUX.MAX.S32 UR9, R12; REDUX UR10, R12 */
static int
dec_redux(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const ops[] = {"AND", "SUM", "MIN", "MAX", "OR", "XOR"};
	uint32_t mod = RAnd;
	int nops = 0;

	for (unsigned j = 0; j < i->nmod; j++) {
		const char *s = mstr(c->fn->mod, i->mod[j]);
		unsigned t;
		for (t = 0; t < 6 && strcmp(s, ops[t]); t++)
			;
		if (t < 6 && !nops++)
			mod = t;
		else if (strcmp(s, "S32") == 0)
			mod |= RSigned;
		else if (strcmp(s, "U32") != 0)
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (i->nopnd != 2)
		return sim_unsupported_why(c, i, "expected two operands");
	if (sim_reg_opnd(c, i, 0, cls(i, 0) == RUR ? RUR : RR, 1, &d->dst[0]) ||
	    sim_reg_opnd(c, i, 1, RR, 1, &d->src[0]))
		return -1;
	d->ndst = 1;
	d->nsrc = 1;
	d->mod = mod;
	d->exec = ex_redux;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * ELECT Pd, Rd, Ps (elect.sync): the leader is the lowest executing lane whose Ps is true; Pd is
 * true in the leader only; Rd (a UR, or an R written in every executing lane) receives the
 * leader's lane number. dst[0] Pd, dst[1] Rd, src[0] Ps. With no candidate, Pd is false and Rd is
 * left alone.
 */
static void
ex_elect(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t cand = sim_pred(x, &d->src[0]) & mask, out[WarpSize];
	unsigned lead;

	sim_dst_pred(x, &d->dst[0], cand ? cand & -cand : 0, mask);
	if (!cand)
		return;
	lead = (unsigned)__builtin_ctz(cand);
	if (d->dst[1].kind == DUR) {
		wur(x, d->dst[1].reg, lead);
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++)
		out[l] = lead;
	sim_dst(x, &d->dst[1], out, mask);
}

/* ELECT P0, URZ, PT */
static int
dec_elect(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod || i->nopnd != 3)
		return sim_unsupported_why(c, i, "expected ELECT Pd, URd, Ps");
	if (sim_reg_opnd(c, i, 0, RP, 1, &d->dst[0]) ||
	    sim_reg_opnd(c, i, 1, cls(i, 1) == RUR ? RUR : RR, 1, &d->dst[1]) ||
	    sim_reg_opnd(c, i, 2, RP, 1, &d->src[0]))
		return -1;
	d->ndst = 2;
	d->nsrc = 1;
	d->exec = ex_elect;
	c->split_ok = 1;
	return 0;
}

void
sim_register_warp(SimTab *t)
{
	t->dec[OSHFL] = dec_shfl;
	t->dec[OVOTE] = dec_vote;
	t->dec[OVOTEU] = dec_vote;
	t->dec[OMATCH] = dec_match;
	t->dec[OREDUX] = dec_redux;
	t->dec[OELECT] = dec_elect;
}
