/* weftset.c: which wefts can execute each block and instruction (passes.h, WSet).
 *
 * Preconditions: a CFG (cfg_build + dom_build). With SSA form (f->in_ssa) the conditions are
 * read from the values; without it every reachable block gets every weft.
 *
 * A forward dataflow over the CFG. The entry block gets the launch's wefts (every weft 0..255,
 * or 0..ceil(threads/32)-1 when .nv.info's REQNTID gives the CTA size); an edge carries the wefts
 * that may take it; a block gets the union over its incoming edges. What narrows a set (exactly
 * these patterns; everything else keeps the set as it is, which is always sound):
 *
 *   values   S2R Rd, SR_FIBERID                    weft w: Rd in [32w, 32w+31]
 *            S2R Rd, SR_TID.X                      the same, only when REQNTID says the CTA is
 *                                                  1-D (y = z = 1) and no fiber ID reaches
 *                                                  blockDim.x (no SETFIBERNUM, or .maxfibers <=
 *                                                  blockDim.x): else TID.X != fiber ID
 *            MOV Rd, imm | Rs; RZ is 0             constants and copies
 *            SHF.R.U32.HI / .S32.HI Rd, RZ, imm, Rs   Rs >> imm
 *            SHF.L.U32 Rd, Rs, imm, RZ             Rs << imm
 *            LOP3.LUT Rd, Rs, imm, RZ, 0xc0 | 0x30, !PT    Rs & imm, Rs & ~imm
 *            IMAD[.MOV|.IADD|.SHL|.U32] Rd, a, b, c   a*b + c with a or b a constant
 *            IADD3 Rd, a, b, c (negations allowed)  a + b + c
 *            phi                                   the union of its arguments (a loop's phi,
 *                                                  whose argument is not known yet, is unknown)
 *            each as an interval per weft of 32-bit values in [0, 2^31); a guarded definition
 *            or a value outside that range is unknown
 *   preds    ISETP.{LT,LE,GT,GE,EQ,NE}[.U32].{AND,OR} Pd, PT, a, b, Pc
 *            per weft: may some lane see Pd true, may some see it false; Pc = PT for .AND, !PT
 *            for .OR, or a known predicate
 *   control  @P BRA L     L gets the wefts where P may be true, the fall-through those where it
 *                         may be false (@!P swaps); a weft whose lanes differ goes both ways
 *            @P EXIT      the wefts where P may be false continue; EXIT: none continue
 *            @P any       the instruction itself runs in the wefts where P may be true
 *            SETFIBERNUM imm[, n]   after it exactly wefts 0..ceil(imm/32)-1 run (survivors and
 *                         new wefts alike); with a UR count, every weft
 *
 * New wefts of a SETFIBERNUM start with a zeroed window and false predicates: a value whose
 * definition can reach a SETFIBERNUM is joined with 0 (false) for every weft.
 * The dump (weftset_dump) is one comment line per block: `// wefts bb3: 1 (from bb0 @P0 taken)`.
 */
#include "fpasses.h"

#include <stdlib.h>
#include <string.h>

enum { VLo = 0, VHi = 0x7fffffff };

/* an abstract register value: unknown, a constant, or an interval per weft */
typedef struct AV {
	uint8_t known;
	uint8_t isconst;
	int64_t c;
	int64_t *lo, *hi;  /* WsMaxWeft entries when known && !isconst */
} AV;

typedef struct PV {
	uint8_t known;
	WSet t, f;         /* wefts where some lane may see it true / false */
} PV;

struct Weftset {
	Fn *f;
	WSet *in;          /* per block id */
	WSet **edge;       /* per block id: one set per successor */
	WSet **at;         /* per block id: one set per instruction */
	AV *av;            /* per SSA value */
	PV *pv;
	uint32_t nval;
	uint8_t *crosses;  /* per block id: a SETFIBERNUM is reachable from its end */
};

/* ---------------------------------------------------------------------------------------------
 * Sets.
 */
static WSet
ws_all(void)
{
	WSet s;

	memset(&s, 0xff, sizeof s);
	return s;
}

static WSet
ws_range(unsigned n)
{
	WSet s = {{0}};

	for (unsigned w = 0; w < n && w < WsMaxWeft; w++)
		s.w[w / 64] |= 1ull << (w % 64);
	return s;
}

static WSet
ws_and(WSet a, const WSet *b)
{
	for (int k = 0; k < WsWords; k++)
		a.w[k] &= b->w[k];
	return a;
}

static int
ws_or(WSet *a, const WSet *b)
{
	int ch = 0;

	for (int k = 0; k < WsWords; k++) {
		ch |= (a->w[k] | b->w[k]) != a->w[k];
		a->w[k] |= b->w[k];
	}
	return ch;
}

int
wset_has(const WSet *s, unsigned w)
{
	return w < WsMaxWeft && (s->w[w / 64] >> (w % 64) & 1);
}

int
wset_count(const WSet *s)
{
	int n = 0;

	for (int k = 0; k < WsWords; k++)
		n += __builtin_popcountll(s->w[k]);
	return n;
}

int
wset_first(const WSet *s)
{
	for (int k = 0; k < WsWords; k++)
		if (s->w[k])
			return k * 64 + __builtin_ctzll(s->w[k]);
	return -1;
}

int
wset_fmt(char *buf, size_t n, const WSet *s)
{
	size_t at = 0;
	int c = wset_count(s);

	if (c == WsMaxWeft)
		return snprintf(buf, n, "all");
	if (c == 0)
		return snprintf(buf, n, "none");
	buf[0] = 0;
	for (unsigned w = 0; w < WsMaxWeft && at < n; w++) {
		unsigned e = w;
		if (!wset_has(s, w))
			continue;
		while (e + 1 < WsMaxWeft && wset_has(s, e + 1))
			e++;
		at += (size_t)snprintf(buf + at, n - at, e == w ? "%s%u" : e == w + 1 ? "%s%u,%u" :
		                       "%s%u-%u", at ? "," : "", w, e);
		w = e;
	}
	return (int)at;
}

/* ---------------------------------------------------------------------------------------------
 * Values.
 */
static int
hasmod(const Fn *f, const Ins *i, const char *m)
{
	return ins_hasmod(i, f->mod, m);
}

/* the SSA value that operand k (field 0) of i reads, 0 none */
static uint32_t
useval(const Ins *i, unsigned k)
{
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SUse && i->slot[s].opnd == k && i->slot[s].field == 0 &&
		    i->slot[s].n == 1 && i->slot[s].v)
			return i->slot[s].v[0];
	return 0;
}

/* the value i defines with operand k, 0 none */
static uint32_t
defval(const Ins *i, unsigned k)
{
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SDef && i->slot[s].opnd == k && i->slot[s].n == 1 &&
		    i->slot[s].v)
			return i->slot[s].v[0];
	return 0;
}

/* operand k of i for weft w: [lo, hi]; 0 unknown */
static int
opnd_at(const Weftset *ws, const Ins *i, unsigned k, unsigned w, int64_t *lo, int64_t *hi)
{
	const Opnd *o = &i->opnd[k];
	int64_t a, b;

	if (k >= i->nopnd)
		return 0;
	if (o->kind == OImm) {
		*lo = *hi = o->imm;
		return o->imm >= -(1ll << 31) && o->imm <= 0xffffffffll;
	}
	if (o->kind != OReg || RCLS(o->r[0]) != RR || (o->flags & (FNot | FAbs)))
		return 0;
	if (o->r[0] == REG(RR, RegRZ)) {
		a = b = 0;
	} else {
		uint32_t v = useval(i, k);
		const AV *x = v && v < ws->nval ? &ws->av[v] : NULL;
		if (!x || !x->known)
			return 0;
		if (x->isconst)
			a = b = x->c;
		else
			a = x->lo[w], b = x->hi[w];
	}
	if (o->flags & FNeg) {
		int64_t t = a;
		a = -b, b = -t;
	}
	*lo = a, *hi = b;
	return 1;
}

/* known enough to be worth a per-weft loop: every operand in ks is an immediate, RZ or known */
static int
opnds_known(const Weftset *ws, const Ins *i, const unsigned *ks, int n)
{
	for (int j = 0; j < n; j++) {
		int64_t lo, hi;
		if (!opnd_at(ws, i, ks[j], 0, &lo, &hi))
			return 0;
	}
	return 1;
}

static void
av_alloc(Weftset *ws, AV *x)
{
	Arena *a = ws->f->mod->arena;

	x->known = 1;
	x->isconst = 0;
	x->lo = arena_alloc(a, WsMaxWeft * sizeof *x->lo);
	x->hi = arena_alloc(a, WsMaxWeft * sizeof *x->hi);
}

/* lowest and highest x & m over x in [lo, hi] (0 <= lo <= hi < 2^31, m >= 0) */
static void
and_range(int64_t lo, int64_t hi, int64_t m, int64_t *rlo, int64_t *rhi)
{
	uint64_t d = (uint64_t)(lo ^ hi), low;

	if (!d) {
		*rlo = *rhi = lo & m;
		return;
	}
	low = (2ull << (63 - __builtin_clzll(d))) - 1;   /* the bits at and below the highest
	                                                    that differs */
	*rlo = (int64_t)((uint64_t)lo & ~low & (uint64_t)m);
	*rhi = *rlo | (int64_t)(low & (uint64_t)m);
}

/* evaluate a register definition for weft w; 0 unknown */
static int
eval(const Weftset *ws, const Ins *i, unsigned w, int64_t *lo, int64_t *hi)
{
	const Fn *f = ws->f;
	int64_t a0, a1, b0, b1, c0, c1;

	switch (i->op) {
	case OS2R:
		*lo = 32ll * w, *hi = 32ll * w + 31;
		return 1;
	case OMOV:
		return opnd_at(ws, i, 1, w, lo, hi);
	case OSHF:
		if (i->nopnd != 4 || !opnd_at(ws, i, 2, w, &b0, &b1) || b0 != b1 || b0 < 0 || b0 > 31)
			return 0;
		if (hasmod(f, i, "R") && hasmod(f, i, "HI") &&
		    (hasmod(f, i, "U32") || hasmod(f, i, "S32")) && !hasmod(f, i, "W")) {
			if (!opnd_at(ws, i, 1, w, &a0, &a1) || a0 || a1 || !opnd_at(ws, i, 3, w, &c0, &c1) ||
			    c0 < 0)
				return 0;
			*lo = c0 >> b0, *hi = c1 >> b0;
			return 1;
		}
		if (hasmod(f, i, "L") && hasmod(f, i, "U32") && !hasmod(f, i, "HI") &&
		    !hasmod(f, i, "W")) {
			if (!opnd_at(ws, i, 3, w, &c0, &c1) || c0 || c1 || !opnd_at(ws, i, 1, w, &a0, &a1) ||
			    a0 < 0)
				return 0;
			*lo = a0 << b0, *hi = a1 << b0;
			return 1;
		}
		return 0;
	case OLOP3: {
		int64_t lut0, lut1, m;
		if (i->nopnd != 6 || !opnd_at(ws, i, 4, w, &lut0, &lut1) ||
		    !opnd_at(ws, i, 3, w, &c0, &c1) || c0 || c1 || !opnd_at(ws, i, 1, w, &a0, &a1) ||
		    !opnd_at(ws, i, 2, w, &b0, &b1) || b0 != b1 || a0 < 0 || a1 > VHi)
			return 0;
		if (lut0 == 0xc0)
			m = b0 & 0xffffffffll;
		else if (lut0 == 0x30)
			m = ~b0 & 0xffffffffll;
		else
			return 0;
		and_range(a0, a1, m, lo, hi);
		return 1;
	}
	case OIMAD:
		if (i->nopnd != 4 || hasmod(f, i, "HI") || hasmod(f, i, "WIDE") || hasmod(f, i, "X") ||
		    !opnd_at(ws, i, 1, w, &a0, &a1) || !opnd_at(ws, i, 2, w, &b0, &b1) ||
		    !opnd_at(ws, i, 3, w, &c0, &c1))
			return 0;
		if (b0 != b1) {
			int64_t t0 = a0, t1 = a1;
			a0 = b0, a1 = b1, b0 = t0, b1 = t1;
		}
		if (b0 != b1 || b0 < 0 || a0 < 0)
			return 0;
		*lo = a0 * b0 + c0, *hi = a1 * b0 + c1;
		return 1;
	case OIADD3:
		if (i->nopnd != 4 || !opnd_at(ws, i, 1, w, &a0, &a1) || !opnd_at(ws, i, 2, w, &b0, &b1) ||
		    !opnd_at(ws, i, 3, w, &c0, &c1))
			return 0;
		*lo = a0 + b0 + c0, *hi = a1 + b1 + c1;
		return 1;
	default:
		return 0;
	}
}

/* S2R's source that gives the fiber ID (SR_TID.X only where it equals it) */
static int
fid_source(const Fn *f, const Ins *i, int tidx_ok)
{
	const char *s;

	if (i->nopnd != 2 || i->opnd[1].kind != OSReg)
		return 0;
	s = mstr(f->mod, i->opnd[1].atom);
	return strcmp(s, "SR_FIBERID") == 0 || (tidx_ok && strcmp(s, "SR_TID.X") == 0);
}

static void
def_reg(Weftset *ws, const Ins *i, int tidx_ok, int cross)
{
	const unsigned all[] = {1, 2, 3};
	uint32_t v;
	AV *x;
	int64_t lo, hi;
	int isconst = 1;
	int64_t c = 0;

	if (i->guarded || !i->nopnd || i->opnd[0].kind != OReg || RCLS(i->opnd[0].r[0]) != RR)
		return;
	v = defval(i, 0);
	if (!v || v >= ws->nval)
		return;
	if (i->op == OS2R ? !fid_source(ws->f, i, tidx_ok) :
	    !opnds_known(ws, i, all, i->op == OMOV ? 1 : i->nopnd - 1 < 3 ? i->nopnd - 1 : 3))
		return;
	x = &ws->av[v];
	av_alloc(ws, x);
	for (unsigned w = 0; w < WsMaxWeft; w++) {
		if (!eval(ws, i, w, &lo, &hi) || lo < VLo || hi > VHi || lo > hi) {
			x->known = 0;
			return;
		}
		if (cross)
			lo = lo < 0 ? lo : 0;
		x->lo[w] = lo, x->hi[w] = hi;
		if (w == 0)
			c = lo;
		isconst &= lo == c && hi == c;
	}
	if (isconst)
		x->isconst = 1, x->c = c;
}

static int
pv_of(const Weftset *ws, const Opnd *o, uint32_t v, WSet *t, WSet *fl)
{
	WSet none = {{0}};

	if (o->kind != OReg)
		return 0;
	if (o->r[0] == REG(RP, RegPT)) {
		*t = ws_all(), *fl = none;
	} else {
		if (!v || v >= ws->nval || !ws->pv[v].known)
			return 0;
		*t = ws->pv[v].t, *fl = ws->pv[v].f;
	}
	if (o->flags & (FLNot | FNot)) {
		WSet s = *t;
		*t = *fl, *fl = s;
	}
	return 1;
}

static void
def_pred(Weftset *ws, const Ins *i, int cross)
{
	static const char *const cmp[] = {"LT", "LE", "GT", "GE", "EQ", "NE"};
	const Fn *f = ws->f;
	int c = -1, u = hasmod(f, i, "U32");
	WSet t = {{0}}, fl = {{0}}, qt, qf;
	uint32_t v;
	PV *p;

	if (i->op != OISETP || i->guarded || i->nopnd != 5 || hasmod(f, i, "EX") ||
	    i->opnd[1].kind != OReg || i->opnd[1].r[0] != REG(RP, RegPT))
		return;
	v = defval(i, 0);
	if (!v || v >= ws->nval)
		return;
	for (int k = 0; k < 6; k++)
		if (hasmod(f, i, cmp[k]))
			c = k;
	if (c < 0 || !pv_of(ws, &i->opnd[4], useval(i, 4), &qt, &qf))
		return;
	for (unsigned w = 0; w < WsMaxWeft; w++) {
		int64_t a0, a1, b0, b1;
		int mt = 1, mf = 1;
		if (opnd_at(ws, i, 2, w, &a0, &a1) && opnd_at(ws, i, 3, w, &b0, &b1)) {
			/* immediates: as the comparison reads them (values are in [0, 2^31)) */
			if (i->opnd[3].kind == OImm)
				b0 = b1 = u ? (int64_t)(uint32_t)b0 : (int64_t)(int32_t)(uint32_t)b0;
			if (i->opnd[2].kind == OImm)
				a0 = a1 = u ? (int64_t)(uint32_t)a0 : (int64_t)(int32_t)(uint32_t)a0;
			switch (c) {
			case 0: mt = a0 < b1, mf = a1 >= b0; break;
			case 1: mt = a0 <= b1, mf = a1 > b0; break;
			case 2: mt = a1 > b0, mf = a0 <= b1; break;
			case 3: mt = a1 >= b0, mf = a0 < b1; break;
			case 4: mt = a0 <= b1 && b0 <= a1, mf = !(a0 == a1 && b0 == b1 && a0 == b0); break;
			case 5: mf = a0 <= b1 && b0 <= a1, mt = !(a0 == a1 && b0 == b1 && a0 == b0); break;
			}
		}
		if (mt)
			t.w[w / 64] |= 1ull << (w % 64);
		if (mf)
			fl.w[w / 64] |= 1ull << (w % 64);
	}
	if (hasmod(f, i, "AND")) {
		t = ws_and(t, &qt);
		ws_or(&fl, &qf);
	} else if (hasmod(f, i, "OR")) {
		ws_or(&t, &qt);
		fl = ws_and(fl, &qf);
	} else {
		return;
	}
	if (cross) {
		WSet all = ws_all();
		ws_or(&fl, &all);
	}
	p = &ws->pv[v];
	p->known = 1, p->t = t, p->f = fl;
}

static void
phi_val(Weftset *ws, const Phi *ph)
{
	AV *x;
	int isreg = RCLS(ph->reg) == RR, ispred = RCLS(ph->reg) == RP;

	if (ph->to >= ws->nval || (!isreg && !ispred) || !ph->narg)
		return;
	for (uint32_t k = 0; k < ph->narg; k++) {
		uint32_t a = ph->arg[k];
		if (!a || a >= ws->nval || (isreg ? !ws->av[a].known : !ws->pv[a].known))
			return;
	}
	if (ispred) {
		PV *p = &ws->pv[ph->to];
		memset(p, 0, sizeof *p);
		for (uint32_t k = 0; k < ph->narg; k++) {
			ws_or(&p->t, &ws->pv[ph->arg[k]].t);
			ws_or(&p->f, &ws->pv[ph->arg[k]].f);
		}
		p->known = 1;
		return;
	}
	x = &ws->av[ph->to];
	av_alloc(ws, x);
	for (unsigned w = 0; w < WsMaxWeft; w++) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (uint32_t k = 0; k < ph->narg; k++) {
			const AV *a = &ws->av[ph->arg[k]];
			int64_t l = a->isconst ? a->c : a->lo[w], h = a->isconst ? a->c : a->hi[w];
			lo = l < lo ? l : lo, hi = h > hi ? h : hi;
		}
		x->lo[w] = lo, x->hi[w] = hi;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Control.
 */
static int
fnum_in(const Blk *b, uint32_t from)
{
	for (uint32_t k = from; k < b->nins; k++)
		if (b->ins[k].op == OSETFIBERNUM)
			return 1;
	return 0;
}

/* blocks from whose end a SETFIBERNUM can be reached */
static void
crossing(Weftset *ws)
{
	Fn *f = ws->f;
	uint8_t *reach = xmalloc(f->nblk);   /* b holds or reaches a SETFIBERNUM */
	int ch = 1;

	for (uint32_t b = 0; b < f->nblk; b++)
		reach[b] = (uint8_t)fnum_in(f->blk[b], 0);
	while (ch) {
		ch = 0;
		for (uint32_t b = 0; b < f->nblk; b++)
			for (uint32_t s = 0; s < f->blk[b]->nsucc && !reach[b]; s++)
				if (reach[f->blk[b]->succ[s]->id])
					reach[b] = 1, ch = 1;
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t s = 0; s < f->blk[b]->nsucc; s++)
			if (reach[f->blk[b]->succ[s]->id])
				ws->crosses[b] = 1;
	free(reach);
}

static int
guard_sets(const Weftset *ws, const Ins *i, WSet *t, WSet *fl)
{
	Opnd g = guard_opnd(&i->guard);
	uint32_t v = 0;

	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SUse && i->slot[s].opnd == SlotGuard && i->slot[s].v)
			v = i->slot[s].v[0];
	if (!i->guarded) {
		WSet none = {{0}};
		*t = ws_all(), *fl = none;
		return 1;
	}
	if (RCLS(g.r[0]) != RP || !pv_of(ws, &g, v, t, fl)) {
		*t = *fl = ws_all();
		return 0;
	}
	return 1;
}

/* walk block b from its in set: the set at each instruction and on each edge; 1 if an edge
 * set grew */
static int
walk(Weftset *ws, Blk *b)
{
	WSet cur = ws->in[b->id], t, fl;
	int ch = 0;

	for (uint32_t k = 0; k < b->nins; k++) {
		Ins *i = &b->ins[k];
		guard_sets(ws, i, &t, &fl);
		ws->at[b->id][k] = ws_and(cur, &t);
		if (i->op == OBRA)
			continue;   /* a block's last: its edges, below */
		if (optab[i->op].flags & (OFExit | OFRet)) {
			cur = ws_and(cur, &fl);
		} else if (i->op == OSETFIBERNUM && !i->guarded && wset_count(&cur)) {
			const Opnd *c = i->nopnd ? &i->opnd[0] : NULL;
			cur = c && c->kind == OImm && c->imm >= 1 ?
			      ws_range((unsigned)((c->imm + 31) / 32)) : ws_all();
		}
	}
	for (uint32_t s = 0; s < b->nsucc; s++) {
		const Ins *last = b->nins ? &b->ins[b->nins - 1] : NULL;
		WSet e = cur;
		if (last && last->op == OBRA && last->guarded && b->nsucc == 2) {
			guard_sets(ws, last, &t, &fl);
			e = ws_and(cur, s == 0 ? &fl : &t);
		}
		ch |= ws_or(&ws->edge[b->id][s], &e);
	}
	return ch;
}

static WSet
entry_set(const Fn *f)
{
	const int *t = f->info.reqntid;

	if (t[0] > 0) {
		uint64_t n = (uint64_t)t[0] * (t[1] > 0 ? t[1] : 1) * (t[2] > 0 ? t[2] : 1);
		return ws_range((unsigned)((n + 31) / 32 < WsMaxWeft ? (n + 31) / 32 : WsMaxWeft));
	}
	return ws_all();
}

static int
tidx_exact(const Fn *f)
{
	const int *t = f->info.reqntid;
	int fnum = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		fnum |= fnum_in(f->blk[b], 0);
	if (t[0] <= 0 || t[1] > 1 || t[2] > 1)
		return 0;
	return !fnum || (f->info.maxfibers > 0 && f->info.maxfibers <= t[0]);
}

Weftset *
weftset_build(Fn *f)
{
	Weftset *ws = xmalloc(sizeof *ws);
	Arena *a = f->mod->arena;
	int tidx, ch = 1;
	WSet ent = entry_set(f), all = ws_all();

	ws->f = f;
	if (!f->blk)
		return ws;
	ws->in = xmalloc(f->nblk * sizeof *ws->in);
	ws->edge = xmalloc(f->nblk * sizeof *ws->edge);
	ws->at = xmalloc(f->nblk * sizeof *ws->at);
	ws->crosses = xmalloc(f->nblk);
	for (uint32_t b = 0; b < f->nblk; b++) {
		ws->edge[b] = arena_alloc(a, (f->blk[b]->nsucc + 1) * sizeof **ws->edge);
		ws->at[b] = arena_alloc(a, (f->blk[b]->nins + 1) * sizeof **ws->at);
	}
	crossing(ws);
	tidx = tidx_exact(f);
	/* values, in reverse post-order: definitions before uses but for loops' phis */
	if (f->in_ssa && f->val) {
		ws->nval = f->nval;
		ws->av = xmalloc(f->nval * sizeof *ws->av);
		ws->pv = xmalloc(f->nval * sizeof *ws->pv);
		for (uint32_t r = 0; r < f->nrpo; r++) {
			Blk *b = f->rpo[r];
			for (Phi *ph = b->phi; ph; ph = ph->link)
				phi_val(ws, ph);
			for (uint32_t k = 0; k < b->nins; k++) {
				int cross = fnum_in(b, k + 1) || ws->crosses[b->id];
				def_reg(ws, &b->ins[k], tidx, cross);
				def_pred(ws, &b->ins[k], cross);
			}
		}
	}
	/* blocks */
	while (ch) {
		ch = 0;
		for (uint32_t b = 0; b < f->nblk; b++) {
			Blk *x = f->blk[b];
			WSet in = {{0}};
			if (x->rpo == UINT32_MAX)
				continue;
			if (f->nrpo && x == f->rpo[0])
				in = ent;
			else if (!x->npred)
				in = all;   /* a subroutine's entry */
			for (uint32_t p = 0; p < x->npred; p++) {
				Blk *y = x->pred[p];
				for (uint32_t s = 0; s < y->nsucc; s++)
					if (y->succ[s] == x)
						ws_or(&in, &ws->edge[y->id][s]);
			}
			ws->in[b] = in;
		}
		for (uint32_t r = 0; r < f->nrpo; r++)
			ch |= walk(ws, f->rpo[r]);
	}
	return ws;
}

void
weftset_free(Weftset *ws)
{
	if (!ws)
		return;
	free(ws->in);
	free(ws->edge);
	free(ws->at);
	free(ws->crosses);
	free(ws->av);
	free(ws->pv);
	free(ws);
}

WSet
weftset_blk(const Weftset *ws, const Blk *b)
{
	WSet none = {{0}};

	return ws->in && b->rpo != UINT32_MAX ? ws->in[b->id] : none;
}

WSet
weftset_at(const Weftset *ws, const Blk *b, uint32_t k)
{
	WSet none = {{0}};

	return ws->at && b->rpo != UINT32_MAX && k < b->nins ? ws->at[b->id][k] : none;
}

WSet
weftset_edge(const Weftset *ws, const Blk *b, uint32_t s)
{
	WSet none = {{0}};

	return ws->edge && b->rpo != UINT32_MAX && s < b->nsucc ? ws->edge[b->id][s] : none;
}

int
weftset_pred(const Weftset *ws, uint32_t v, WSet *maytrue, WSet *mayfalse)
{
	if (!ws->pv || !v || v >= ws->nval || !ws->pv[v].known) {
		*maytrue = *mayfalse = ws_all();
		return 0;
	}
	*maytrue = ws->pv[v].t, *mayfalse = ws->pv[v].f;
	return 1;
}

void
weftset_dump(FILE *out, const Fn *f, const Weftset *ws)
{
	char buf[256];

	fprintf(out, "// weftset of %s: wefts that may run each block\n", mstr(f->mod, f->name));
	for (uint32_t b = 0; b < f->nblk; b++) {
		WSet s = weftset_blk(ws, f->blk[b]);
		wset_fmt(buf, sizeof buf, &s);
		fprintf(out, "// wefts bb%u: %s\n", b, buf);
	}
}
