/* ctrlbits.c: the ctrl-bits pass (docs/pass-ctrl-bits.md): stall counts, yield, read and write
 * scoreboards and wait masks for the instructions the passes created, so that fiberc's output
 * runs in control-bits mode with the timing model's hazard counter at 0.
 *
 * Requires: the CFG (blocks, succ/pred, rpo, the callee table), physical registers (run after
 * out-of-ssa; it reads slots, not SSA values), Fn.ins laid out (each block a slice of it: the
 * pass manager's relayout after the previous pass). Declares PChanges: it may insert NOPs.
 *
 * An instruction is new when ins_insert made it (IInserted) or when it has no control bits; the
 * others are nvcc's, whose bits are kept and only ever raised (a longer stall, more wait bits).
 * One forward scan per block keeps, per register unit (R, P, UR, UP, B), the cycle at which a
 * fixed-latency write becomes readable and, per scoreboard SB0..SB5, the events in flight with
 * the units each one writes (RAW, WAW) or still has to read (WAR); DEPBAR.LE SBx, N retires all
 * but the newest N events of SBx (nvcc's in-order assumption), a wait mask retires all. Block
 * entries merge their predecessors' exits (and, for internal subroutines, the call sites and the
 * returns) until nothing changes. Latencies: ir/latency.h.
 */
#include "codegen.h"
#include "latency.h"
#include "fenc.h"

#include <stdlib.h>
#include <string.h>

enum {
	NSb = 6,               /* SB0..SB5 */
	NU = NumArchUnit,      /* units tracked: the SASS registers */
	AgeNone = 255,         /* no pending event */
	MaxAge = 254,
	MaxStall = 15,         /* the stall field's range */
	MaxStallNoYield = 11,  /* with yield 0 a longer one stalls 1-2 cycles (hardware-facts.md) */
	DepbarStall = 4,       /* DEPBAR needs a stall of 4 to take effect (hardware-facts.md) */
	SbIncDelay = 1,        /* an SB increment lands a cycle after issue (sb_inc_delay) */
	WarAhead = 64,         /* instructions a load looks ahead for a write of its sources */
};

/* the kind of the events in flight on an SB, for sharing one SB among events of one kind
 * (a function whose instructions are all new: fiberc's PTX output) */
enum SbCls {
	ClsNone,               /* nothing in flight */
	ClsLong,               /* global, local, generic memory, atomics: hundreds of cycles */
	ClsShort,              /* shared memory, SHFL, LDSM, MUFU, S2R, conversions, ... */
	ClsRead,               /* the source read of a memory instruction (a read SB) */
	ClsMixed,              /* several kinds, or unknown: never shared */
};

/* the state at a block boundary, relative to it */
typedef struct Bst {
	uint8_t valid;
	uint8_t fresh;          /* SBs set by the last instruction less than 2 cycles before */
	uint8_t rem[NU];        /* a fixed-latency write of the unit: cycles still to pass */
	uint8_t rnew[NU];       /* that write is a new instruction's */
	uint8_t war[NU];        /* a read of the unit by a memory instruction without SBs: cycles */
	uint8_t pw[NU][NSb];    /* pending variable-latency write on SB s: its age (events issued on
	                         * s after it), AgeNone */
	uint8_t pr[NU][NSb];    /* pending read of the unit (WAR) */
	uint8_t npw[NU], npr[NU]; /* bit s: that pending write / read is a new instruction's */
	uint8_t cnt[NSb];       /* events pending on s, at most */
	uint8_t newage[NSb];    /* age of the newest new instruction's event on s, AgeNone */
	uint8_t sbcls[NSb];     /* SbCls of the events pending on s (ClsNone when cnt is 0) */
} Bst;

/* the state inside a block: absolute cycles and event numbers */
typedef struct Wst {
	uint32_t clk;           /* cycles since the block's start at which the instruction issues */
	uint8_t fresh;
	uint32_t rdy[NU];       /* a fixed write readable from this cycle */
	uint8_t rnew[NU];
	uint32_t warok[NU];     /* the unit may be written from this cycle */
	int32_t rpos[NU], wpos[NU]; /* the block positions of those writes and reads, -1 before */
	int32_t pw[NU][NSb], pr[NU][NSb]; /* event number, -1 none; pending if >= ret[s] */
	uint8_t npw[NU], npr[NU];
	int32_t ev[NSb];        /* the next event's number */
	int32_t ret[NSb];       /* the events before this one have completed */
	int32_t lastnew[NSb];   /* the newest new instruction's event, -1 */
	uint8_t sbcls[NSb];     /* SbCls of the events in flight on s (meaningful while pending) */
	uint32_t sblast[NSb];   /* the cycle of the newest event on s */
} Wst;

typedef struct Cx {
	Fn *f;
	int sm;
	Bst *in, *out;          /* per block id */
	Ctrl *orig;             /* per Fn.ins index: the control bits before the pass */
	uint8_t *isnew;         /* per Fn.ins index */
	uint8_t *nop;           /* per Fn.ins index: cycles of NOPs to insert before it */
	Blk **callee;           /* per block id: the subroutine entry its CALL enters, NULL */
	Blk **call;             /* the blocks that end in an internal CALL */
	uint32_t ncall;
	int share;              /* every instruction is new: events of one kind may share an SB */
	unsigned resv;          /* SBs that DEPBAR.LE counts (LDGDEPBAR's SB0): not shared out */
	Blk ***rets;            /* per subroutine entry block id: its RET blocks */
	uint32_t *nrets, *crets;
	Wst w;
	uint16_t act[NU];       /* the units some instruction of the function names, in order: the
	                         * only ones whose state can differ from empty (the loops over units
	                         * go over these; the others keep their empty values) */
	unsigned nact;
} Cx;

static void
bst_empty(Bst *s)
{
	memset(s, 0, sizeof *s);
	memset(s->pw, AgeNone, sizeof s->pw);
	memset(s->pr, AgeNone, sizeof s->pr);
	memset(s->newage, AgeNone, sizeof s->newage);
	s->valid = 1;
}

/* what nothing is known about: every unit may be in flight on every SB */
static void
bst_top(Bst *s)
{
	bst_empty(s);
	memset(s->rem, (int)lat_max_fixed(), sizeof s->rem);
	memset(s->war, LatWarRead, sizeof s->war);
	memset(s->pw, 0, sizeof s->pw);
	memset(s->pr, 0, sizeof s->pr);
	memset(s->cnt, 1, sizeof s->cnt);
	memset(s->sbcls, ClsMixed, sizeof s->sbcls);
	s->fresh = (1u << NSb) - 1;
}

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* a |= b; 1 if a changed */
static int
bst_merge(const Cx *c, Bst *a, const Bst *b)
{
	int ch = 0;

	if (!b->valid)
		return 0;
	if (!a->valid) {
		*a = *b;
		return 1;
	}
#define JOIN(x, y, op) do { uint8_t v_ = (uint8_t)op(x, y); ch |= v_ != (x); (x) = v_; } while (0)
#define OR(x, y) ((x) | (y))
	JOIN(a->fresh, b->fresh, OR);
	for (unsigned i = 0; i < c->nact; i++) {
		unsigned u = c->act[i];
		JOIN(a->rem[u], b->rem[u], MAX);
		JOIN(a->rnew[u], b->rnew[u], OR);
		JOIN(a->war[u], b->war[u], MAX);
		JOIN(a->npw[u], b->npw[u], OR);
		JOIN(a->npr[u], b->npr[u], OR);
		for (unsigned s = 0; s < NSb; s++) {
			JOIN(a->pw[u][s], b->pw[u][s], MIN);
			JOIN(a->pr[u][s], b->pr[u][s], MIN);
		}
	}
	for (unsigned s = 0; s < NSb; s++) {
		uint8_t ca = a->cnt[s] ? a->sbcls[s] : ClsNone, cb = b->cnt[s] ? b->sbcls[s] : ClsNone;
		uint8_t nc = ca == ClsNone ? cb : cb == ClsNone || ca == cb ? ca : ClsMixed;
		ch |= nc != a->sbcls[s];
		a->sbcls[s] = nc;
		JOIN(a->cnt[s], b->cnt[s], MAX);
		JOIN(a->newage[s], b->newage[s], MIN);
	}
#undef JOIN
#undef OR
	return ch;
}

static void
w_load(const Cx *c, Wst *w, const Bst *s)
{
	w->clk = 0;
	w->fresh = s->fresh;
	for (unsigned q = 0; q < NSb; q++) {
		w->ev[q] = 256;
		w->ret[q] = 256 - s->cnt[q];
		w->lastnew[q] = s->newage[q] == AgeNone ? -1 : 255 - s->newage[q];
		w->sbcls[q] = s->sbcls[q];
		w->sblast[q] = 0;
	}
	for (unsigned i = 0; i < c->nact; i++) {
		unsigned u = c->act[i];
		w->rdy[u] = s->rem[u];
		w->rnew[u] = s->rnew[u];
		w->warok[u] = s->war[u];
		w->rpos[u] = w->wpos[u] = -1;
		w->npw[u] = s->npw[u];
		w->npr[u] = s->npr[u];
		for (unsigned q = 0; q < NSb; q++) {
			w->pw[u][q] = s->pw[u][q] == AgeNone ? -1 : 255 - s->pw[u][q];
			w->pr[u][q] = s->pr[u][q] == AgeNone ? -1 : 255 - s->pr[u][q];
		}
	}
}

static uint8_t
age_of(const Wst *w, unsigned q, int32_t idx)
{
	int32_t cnt = w->ev[q] - w->ret[q];

	if (idx < 0 || idx < w->ret[q])
		return AgeNone;
	return (uint8_t)MIN(w->ev[q] - 1 - idx, MIN(cnt, MaxAge + 1) - 1);
}

static void
w_store(const Cx *c, const Wst *w, Bst *s)
{
	s->valid = 1;
	s->fresh = w->fresh;
	for (unsigned q = 0; q < NSb; q++) {
		s->cnt[q] = (uint8_t)MIN(w->ev[q] - w->ret[q], MaxAge + 1);
		s->newage[q] = age_of(w, q, w->lastnew[q]);
		s->sbcls[q] = s->cnt[q] ? w->sbcls[q] : ClsNone;
	}
	for (unsigned i = 0; i < c->nact; i++) {
		unsigned u = c->act[i];
		s->rem[u] = (uint8_t)(w->rdy[u] > w->clk ? MIN(w->rdy[u] - w->clk, 255) : 0);
		s->rnew[u] = s->rem[u] ? w->rnew[u] : 0;
		s->war[u] = (uint8_t)(w->warok[u] > w->clk ? MIN(w->warok[u] - w->clk, 255) : 0);
		s->npw[u] = s->npr[u] = 0;
		for (unsigned q = 0; q < NSb; q++) {
			s->pw[u][q] = age_of(w, q, w->pw[u][q]);
			s->pr[u][q] = age_of(w, q, w->pr[u][q]);
			if (s->pw[u][q] != AgeNone)
				s->npw[u] |= w->npw[u] & (1u << q);
			if (s->pr[u][q] != AgeNone)
				s->npr[u] |= w->npr[u] & (1u << q);
		}
	}
}

static int
pending(const Wst *w, int32_t idx, unsigned q)
{
	return idx >= 0 && idx >= w->ret[q];
}

/* the units an instruction reads and writes */
typedef struct Units {
	uint16_t use[64], def[64];
	uint8_t defg[64];       /* the write is conditional (a guard) */
	uint8_t useg[64];       /* the read is the guard's: made at issue, never late (nvcc writes
	                           the guard of a pending LDG at once: ISETP P2 after @!P2 LDG) */
	unsigned nuse, ndef;
} Units;

static void
units_of(const Ins *i, Units *x)
{
	x->nuse = x->ndef = 0;
	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		for (unsigned m = 0; m < sl->n; m++) {
			int u = reg_unit(reg_next(sl->reg, m));
			if (u < 0 || u >= NU)
				continue;
			if (sl->kind == SDef && x->ndef < 64) {
				x->defg[x->ndef] = i->guarded;
				x->def[x->ndef++] = (uint16_t)u;
			} else if (sl->kind != SDef && x->nuse < 64) {
				x->useg[x->nuse] = sl->opnd == SlotGuard;
				x->use[x->nuse++] = (uint16_t)u;
			}
		}
	}
}

static unsigned
eff(unsigned stall)
{
	return stall ? stall : 1;
}

/* i waits on the SBs of mask: their events complete */
static void
retire(Wst *w, unsigned mask)
{
	for (unsigned q = 0; q < NSb; q++)
		if (mask >> q & 1)
			w->ret[q] = w->ev[q];
}

/* an SB with nothing in flight, or (none) the one to wait on: SB5 down to SB0 */
static unsigned
free_sb(const Wst *w, unsigned avoid)
{
	for (int q = NSb - 1; q >= 0; q--)
		if (w->ev[q] == w->ret[q] && !(avoid >> q & 1))
			return (unsigned)q;
	for (int q = NSb - 1; q >= 0; q--)
		if (!(avoid >> q & 1))
			return (unsigned)q;
	return NSb - 1;
}

/* the kind of event a new variable-latency instruction's write puts on its SB */
static uint8_t
ev_cls(const Ins *i)
{
	const OpInfo *o = &optab[i->op];

	if (o->flags & (OFGlobal | OFLocal | OFGeneric | OFAtomic) || i->op == OLDGSTS)
		return ClsLong;
	return ClsShort;
}

/* sharing (c->share): the SB for a new event of kind cls, not in avoid. A write takes one with
 * nothing in flight (SB5 down), else one whose events are all of its kind, the one used last
 * (loads issued together are waited on together, as nvcc groups them), else the one used
 * longest ago (its events have most likely completed: whoever waits for the new event waits for
 * them too, which is correct, if maybe slower). A read (ClsRead) joins the read SB in flight
 * first (reads complete soon), then the same. *wait is set when nothing but avoid is left: the
 * instruction must then wait on the SB returned */
static unsigned
pick_sb(const Cx *c, const Wst *w, uint8_t cls, unsigned avoid, int *wait)
{
	int best = -1;

	*wait = 0;
	avoid |= c->resv;
	if (cls == ClsRead)
		for (int q = NSb - 1; q >= 0; q--)
			if (!(avoid >> q & 1) && w->ev[q] != w->ret[q] && w->sbcls[q] == ClsRead &&
			    (best < 0 || w->sblast[q] > w->sblast[best]))
				best = q;
	if (best >= 0)
		return (unsigned)best;
	for (int q = NSb - 1; q >= 0; q--)
		if (!(avoid >> q & 1) && w->ev[q] == w->ret[q])
			return (unsigned)q;
	for (int q = NSb - 1; q >= 0; q--)
		if (!(avoid >> q & 1) && w->sbcls[q] == cls &&
		    (best < 0 || w->sblast[q] > w->sblast[best]))
			best = q;
	if (best >= 0)
		return (unsigned)best;
	for (int q = NSb - 1; q >= 0; q--)
		if (!(avoid >> q & 1) && (best < 0 || w->sblast[q] < w->sblast[best]))
			best = q;
	if (best >= 0)
		return (unsigned)best;
	*wait = 1;
	return NSb - 1;
}

/* a later instruction of b, within WarAhead, writes a register that instruction k reads */
static int
war_ahead(const Blk *b, uint32_t k, const Units *x)
{
	for (uint32_t j = k + 1; j < b->nins && j <= k + WarAhead; j++) {
		const Ins *n = &b->ins[j];
		for (unsigned s = 0; s < n->nslot; s++) {
			const Slot *sl = &n->slot[s];
			if (sl->kind != SDef)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				int u = reg_unit(reg_next(sl->reg, m));
				for (unsigned t = 0; u >= 0 && t < x->nuse; t++)
					if (x->use[t] == (unsigned)u && !x->useg[t])
						return 1;
			}
		}
	}
	return 0;
}

/* DEPBAR.LE SBx, N[, {mask}]: x and N, -1 if i is not one */
static int
depbar_le(const Fn *f, const Ins *i, unsigned *n, unsigned *mask)
{
	const char *a;

	*n = 0;
	*mask = 0;
	if (i->op != ODEPBAR || !i->nopnd || i->opnd[0].kind != OExpr)
		return -1;
	a = mstr(f->mod, i->opnd[0].atom);
	if (strncmp(a, "SB", 2) || a[2] < '0' || a[2] > '5' || a[3])
		return -1;
	for (unsigned k = 1; k < i->nopnd; k++)
		if (i->opnd[k].kind == OImm)
			*n = (unsigned)MIN(MAX(i->opnd[k].imm, 0), 63);
		else if (i->opnd[k].kind == OSbSet)
			*mask = (unsigned)i->opnd[k].imm & ((1u << NSb) - 1);
	return a[2] - '0';
}

/* give d more cycles before instruction k of b: raise the stalls of the instructions from lo
 * (the latest producer whose distance is short, or 0) up to it (the nearest first), else a NOP
 * before it */
static void
delay(Cx *c, Blk *b, uint32_t k, unsigned d, int32_t lo)
{
	uint32_t base = (uint32_t)(b->ins - c->f->ins);

	c->w.clk += d;
	c->w.fresh = 0;
	for (int32_t j = (int32_t)k - 1; j >= lo && j >= 0 && d; j--) {
		Ins *p = &b->ins[j];
		unsigned cap = p->ctrl.yield ? MaxStall : MaxStallNoYield, e = eff(p->ctrl.stall), add;
		if (e >= cap)
			continue;
		add = MIN(d, cap - e);
		p->ctrl.stall = e + add;
		p->flags |= ICtrlSet;
		d -= add;
		/* what issued after p issues add cycles later: so do its results and reads */
		for (unsigned i = 0; i < c->nact; i++) {
			unsigned u = c->act[i];
			if (c->w.rpos[u] > j)
				c->w.rdy[u] += add;
			if (c->w.wpos[u] > j)
				c->w.warok[u] += add;
		}
	}
	if (d)
		c->nop[base + k] = (uint8_t)MIN(c->nop[base + k] + d, 255);
}

enum {
	RewriteWindow = 12,    /* instructions looked ahead for a write of a load's sources */
	RsbFree = 3,           /* free SBs (besides the load's own) needed to spend one on its read */
};

/* does an instruction of b within RewriteWindow after position k write a source unit of x? */
static int
rewritten_soon(const Blk *b, uint32_t k, const Units *x)
{
	Units y;

	for (uint32_t j = k + 1; j < b->nins && j <= k + RewriteWindow; j++) {
		units_of(&b->ins[j], &y);
		for (unsigned d = 0; d < y.ndef; d++)
			for (unsigned u = 0; u < x->nuse; u++)
				if (y.def[d] == x->use[u] && !x->useg[u])
					return 1;
	}
	return 0;
}

/* what scan decides for one instruction */
typedef struct Step {
	int isnew;         /* a pass inserted it: its bits are this pass's to choose */
	int kind;          /* lat_kind: LatFixed, LatVar, ... */
	unsigned lat;      /* its latency */
	unsigned wait;     /* the scoreboards it waits for */
	unsigned wsb, rsb; /* the scoreboards it sets, SbNone none */
	unsigned need;     /* cycles the dependences it has on fixed latencies still ask */
	int32_t lo;        /* from where delay may raise stalls for them */
} Step;

/* the variable-latency dependences of i: RAW on its sources, WAW and WAR on its destinations
 * (an original instruction only on what new instructions set) */
static unsigned
var_waits(const Wst *w, const Units *x, int isnew)
{
	unsigned W = 0;

	for (unsigned j = 0; j < x->nuse; j++)
		for (unsigned q = 0; q < NSb; q++)
			if (pending(w, w->pw[x->use[j]][q], q) && (isnew || (w->npw[x->use[j]] >> q & 1)))
				W |= 1u << q;
	for (unsigned j = 0; j < x->ndef; j++)
		for (unsigned q = 0; q < NSb; q++) {
			unsigned u = x->def[j];
			if (pending(w, w->pw[u][q], q) && (isnew || (w->npw[u] >> q & 1)))
				W |= 1u << q;
			if (pending(w, w->pr[u][q], q) && (isnew || (w->npr[u] >> q & 1)))
				W |= 1u << q;
		}
	return W;
}

/* the scoreboards instruction k of b sets (st->wsb, st->rsb) and what choosing them adds to
 * its waits: a new instruction's by the pass's policy, an original one's as read */
static void
pick_sbs(Cx *c, Wst *w, Blk *b, uint32_t k, const Units *x, Step *st)
{
	Ins *i = &b->ins[k];

	if (st->isnew && i->op == OLDGDEPBAR) {
		st->wsb = 0;       /* the copy group's counter, as the scoreboard mode keeps it */
	} else if (st->isnew && st->kind == LatVar && c->share) {
		int wt = 0;
		retire(w, st->wait);
		if (x->ndef) {
			st->wsb = pick_sb(c, w, ev_cls(i), 0, &wt);
			if (wt)
				st->wait |= 1u << st->wsb;
			/* a load whose sources are soon overwritten: a read SB as well, so that the
			 * writer waits for the read, not for the data */
			if (lat_late_read(i) && x->nuse && war_ahead(b, k, x)) {
				st->rsb = pick_sb(c, w, ClsRead, 1u << st->wsb, &wt);
				if (wt)
					st->rsb = SbNone;   /* the read is tracked on the write SB */
			}
		} else if (lat_late_read(i) && x->nuse) {
			st->rsb = pick_sb(c, w, ClsRead, 0, &wt);
			if (wt)
				st->wait |= 1u << st->rsb;
		}
	} else if (st->isnew && st->kind == LatVar) {
		if (x->ndef) {
			retire(w, st->wait);
			st->wsb = free_sb(w, 0);
			/* a memory instruction whose sources are written again soon gets a read SB of
			 * its own when one is free, as nvcc gives it: that write then waits for the
			 * read, not for the load's data (an SB spent otherwise would make later loads
			 * wait for free ones) */
			if (lat_late_read(i) && x->nuse && rewritten_soon(b, k, x)) {
				unsigned q = free_sb(w, 1u << st->wsb), nfree = 0;
				for (unsigned t = 0; t < NSb; t++)
					nfree += t != st->wsb && w->ev[t] == w->ret[t];
				if (q != st->wsb && nfree >= RsbFree)
					st->rsb = q;
			}
		} else if (lat_late_read(i) && x->nuse) {
			retire(w, st->wait);
			st->rsb = free_sb(w, 0);
		}
	} else if (!st->isnew) {
		st->wsb = i->ctrl.wsb;
		st->rsb = i->ctrl.rsb;
	}
	if (!c->share) {
		/* a new event is kept alone on its SB (sharing: the waits above are all it needs) */
		if (st->wsb < NSb && !(st->isnew && i->op == OLDGDEPBAR) &&
		    (st->isnew ? w->ev[st->wsb] != w->ret[st->wsb]
		               : pending(w, w->lastnew[st->wsb], st->wsb)))
			st->wait |= 1u << st->wsb;
		if (st->rsb < NSb &&
		    (st->isnew ? w->ev[st->rsb] != w->ret[st->rsb]
		               : pending(w, w->lastnew[st->rsb], st->rsb)))
			st->wait |= 1u << st->rsb;
	}
}

/* the cycles the fixed-latency dependences of an instruction still need (RAW, WAW, and WAR on
 * a late read), into st->need and st->lo */
static void
fixed_waits(const Wst *w, const Units *x, Step *st)
{
	for (unsigned j = 0; j < x->nuse; j++) {
		unsigned u = x->use[j];
		if ((st->isnew || w->rnew[u]) && w->rdy[u] > w->clk) {
			st->need = MAX(st->need, w->rdy[u] - w->clk);
			st->lo = MAX(st->lo, w->rpos[u]);
		}
	}
	for (unsigned j = 0; j < x->ndef; j++) {
		unsigned u = x->def[j], at = w->clk + (st->kind == LatFixed ? st->lat : 0);
		if ((st->isnew || w->rnew[u]) && w->rdy[u] > at) {
			st->need = MAX(st->need, w->rdy[u] - at);
			st->lo = MAX(st->lo, w->rpos[u]);
		}
		if (st->isnew && w->warok[u] > w->clk) {
			st->need = MAX(st->need, w->warok[u] - w->clk);
			st->lo = MAX(st->lo, w->wpos[u]);
		}
	}
}

/* the state after instruction k issues: its results (ready times, write events), the events of
 * the scoreboards it sets, its late reads; returns the scoreboards set */
static unsigned
issue(Wst *w, const Ins *i, uint32_t k, const Units *x, const Step *st)
{
	unsigned set = 0, wsb = st->wsb, rsb = st->rsb;
	int isnew = st->isnew;

	for (unsigned j = 0; j < x->ndef; j++) {
		unsigned u = x->def[j];
		if (!x->defg[j]) {
			for (unsigned q = 0; q < NSb; q++)
				w->pw[u][q] = -1;
			w->npw[u] = 0;
			w->rdy[u] = w->clk;
			w->rnew[u] = 0;
		}
		if (st->kind == LatFixed && w->clk + st->lat >= w->rdy[u]) {
			w->rdy[u] = w->clk + st->lat;
			w->rnew[u] = (uint8_t)isnew;
			w->rpos[u] = (int32_t)k;
		}
	}
	if (wsb < NSb) {
		uint8_t cl = isnew && i->op != OLDGDEPBAR ? ev_cls(i) : ClsMixed;
		int32_t e = w->ev[wsb]++;
		w->sbcls[wsb] = e == w->ret[wsb] || w->sbcls[wsb] == cl ? cl : ClsMixed;
		w->sblast[wsb] = w->clk;
		set |= 1u << wsb;
		if (isnew)
			w->lastnew[wsb] = e;
		for (unsigned j = 0; j < x->ndef; j++) {
			w->pw[x->def[j]][wsb] = e;
			w->npw[x->def[j]] = (uint8_t)((w->npw[x->def[j]] & ~(1u << wsb)) |
			                              (unsigned)isnew << wsb);
		}
	}
	if (rsb < NSb && rsb != wsb) {
		uint8_t cl = isnew ? ClsRead : ClsMixed;
		int32_t e = w->ev[rsb]++;
		w->sbcls[rsb] = e == w->ret[rsb] || w->sbcls[rsb] == cl ? cl : ClsMixed;
		w->sblast[rsb] = w->clk;
		set |= 1u << rsb;
		if (isnew)
			w->lastnew[rsb] = e;
	}
	if (st->kind == LatVar && lat_late_read(i)) {
		unsigned q = rsb < NSb ? rsb : wsb;
		for (unsigned j = 0; j < x->nuse; j++) {
			unsigned u = x->use[j];
			if (x->useg[j])
				continue;
			if (q < NSb) {
				w->pr[u][q] = w->ev[q] - 1;
				w->npr[u] = (uint8_t)((w->npr[u] & ~(1u << q)) | (unsigned)isnew << q);
			} else {
				w->warok[u] = MAX(w->warok[u], w->clk + LatWarRead);
				w->wpos[u] = (int32_t)k;
			}
		}
	}
	return set;
}

/* one block from its entry state to its exit state, setting the bits of its instructions: per
 * instruction its waits on variable latencies, the scoreboards it sets, the stalls its fixed
 * latencies need, then its effect on the state */
static void
scan(Cx *c, Blk *b)
{
	Wst *w = &c->w;
	uint32_t base = (uint32_t)(b->ins - c->f->ins);
	Units x;

	w_load(c, w, &c->in[b->id]);
	for (uint32_t k = 0; k < b->nins; k++) {
		Ins *i = &b->ins[k];
		uint32_t gi = base + k;
		Step st = { .isnew = c->isnew[gi], .wsb = SbNone, .rsb = SbNone, .lo = -1 };
		unsigned n, mask, set;
		int sbx;

		c->nop[gi] = 0;
		i->ctrl = c->orig[gi];
		i->flags &= (uint8_t)~ICtrlSet;
		if (st.isnew) {
			i->ctrl = (Ctrl){ .stall = 1, .yield = 1, .wsb = SbNone, .rsb = SbNone, .has = 1 };
			if (i->op == ODEPBAR)
				i->ctrl.stall = DepbarStall;
			i->flags |= ICtrlSet;
		}
		st.kind = lat_kind(c->f->mod, i, c->sm, &st.lat);
		units_of(i, &x);
		st.wait = var_waits(w, &x, st.isnew);
		pick_sbs(c, w, b, k, &x, &st);
		st.wait &= ~(unsigned)i->ctrl.wait;   /* what the pass adds (all of it for a new one) */
		if (st.wait)
			i->flags |= ICtrlSet;
		if (st.wait & w->fresh) {
			st.need = SbIncDelay;
			st.lo = (int32_t)k - 1;
		}
		st.wait |= i->ctrl.wait;
		i->ctrl.wait = st.wait & ((1u << NSb) - 1);
		retire(w, st.wait);
		if ((sbx = depbar_le(c->f, i, &n, &mask)) >= 0) {
			w->ret[sbx] = MAX(w->ret[sbx], w->ev[sbx] - (int32_t)n);
			retire(w, mask);
		}
		fixed_waits(w, &x, &st);
		if (st.need)
			delay(c, b, k, st.need, st.lo);
		set = issue(w, i, k, &x, &st);
		i->ctrl.wsb = st.wsb < NSb ? st.wsb : SbNone;
		i->ctrl.rsb = st.rsb < NSb ? st.rsb : SbNone;
		w->fresh = eff(i->ctrl.stall) <= SbIncDelay ? (uint8_t)set : 0;
		w->clk += eff(i->ctrl.stall);
	}
	w_store(c, w, &c->out[b->id]);
}

/* the RET blocks of the subroutine entered at e (seen, stk: scratch of nblk entries) */
static void
rets_of(Cx *c, Blk *e, uint8_t *seen, Blk **stk)
{
	Fn *f = c->f;
	uint32_t sp = 0;

	memset(seen, 0, f->nblk);
	stk[sp++] = e;
	seen[e->id] = 1;
	while (sp) {
		Blk *b = stk[--sp];
		if (b->nins && b->ins[b->nins - 1].op == ORET) {
			vgrow(&c->rets[e->id], &c->crets[e->id], c->nrets[e->id] + 1, sizeof(Blk *));
			c->rets[e->id][c->nrets[e->id]++] = b;
		}
		for (uint32_t s = 0; s < b->nsucc; s++)
			if (!seen[b->succ[s]->id]) {
				seen[b->succ[s]->id] = 1;
				stk[sp++] = b->succ[s];
			}
	}
}

/* the entry state of b: its predecessors', the call sites of a subroutine entry, the returns
 * of the subroutine a predecessor calls */
static void
entry(Cx *c, Blk *b, Bst *e)
{
	Fn *f = c->f;
	int any = 0;

	memset(e, 0, sizeof *e);
	if (b == f->blk[0]) {
		bst_empty(e);
		any = 1;
	}
	for (uint32_t p = 0; p < b->npred; p++) {
		Blk *q = b->pred[p], *callee = c->callee[q->id];
		bst_merge(c, e, &c->out[q->id]);
		any |= c->out[q->id].valid;
		for (uint32_t r = 0; callee && r < c->nrets[callee->id]; r++)
			bst_merge(c, e, &c->out[c->rets[callee->id][r]->id]);
	}
	for (uint32_t q = 0; q < c->ncall; q++)
		if (c->callee[c->call[q]->id] == b) {
			bst_merge(c, e, &c->out[c->call[q]->id]);
			any = 1;
		}
	if (!any && !b->npred && b != f->blk[0])
		bst_top(e);     /* unreachable, or entered in a way the CFG does not show */
	else if (!e->valid)
		bst_empty(e);   /* not reached yet in this round */
}

/* the words that carry i's control bits: a FIBER-native form's own encoding (ir/fenc.c);
 * else a first word without opcode bits (0x000: no family has them, so the front end checks
 * nothing against it) holding only a float literal's bits, and the control field in the second.
 * 0, or -1 when a float literal does not fit the 32-bit field: i keeps no words */
static int
words(Fn *f, Ins *i)
{
	uint64_t w[2] = {0, 0};
	char why[128];

	int native = i->op == OSETFIBERNUM || i->op == OSETBUSYBIT ||
	             (i->op == ODEPBAR && i->nopnd && i->opnd[0].kind == OReg);

	if (native && fenc_encode_m(i, f->mod, w, why, sizeof why) == 0) {
		i->enc[0] = w[0];
		i->enc[1] = w[1];
		i->nenc = 2;
		return 0;
	}
	w[0] = w[1] = 0;
	for (unsigned k = 0; k < i->nopnd; k++) {
		Opnd *o = &i->opnd[k];
		uint32_t bits;
		if (o->kind != OFImm)
			continue;
		if (o->flags & FImmBits) {
			bits = (uint32_t)o->imm2;
		} else if (optab[i->op].unit == UDouble) {
			union { double d; uint64_t u; } v = { o->fimm };
			if (v.u & 0xffffffffu)
				return -1;
			bits = (uint32_t)(v.u >> 32);
		} else if (optab[i->op].unit == UHalf) {
			return -1;
		} else {
			union { float x; uint32_t u; } v = { (float)o->fimm };
			if ((double)v.x != o->fimm)
				return -1;
			bits = v.u;
		}
		SET_IMM32(w[0], bits);
		o->imm2 = (int32_t)bits;
		o->flags |= FImmBits;
	}
	i->enc[0] = w[0];
	i->enc[1] = 0;
	i->nenc = 2;
	return 0;
}

static int
insert_nops(Cx *c)
{
	Fn *f = c->f;

	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		uint32_t base = (uint32_t)(b->ins - f->ins);
		uint8_t *need = NULL;
		if (!b->nins)
			continue;
		/* copy: inserting moves the block's array */
		need = xmalloc(b->nins);
		memcpy(need, c->nop + base, b->nins);
		for (uint32_t k = b->nins; k-- > 0;)
			for (unsigned d = need[k]; d;) {
				Ins nop;
				unsigned s = MIN(d, MaxStall);
				memset(&nop, 0, sizeof nop);
				nop.op = ONOP;
				nop.name = mintern(f->mod, "NOP");
				nop.addr = -1;
				nop.ctrl = (Ctrl){ .stall = s, .yield = 1, .wsb = SbNone, .rsb = SbNone,
				                   .has = 1 };
				nop.flags = ICtrlSet;
				Ins *p = ins_insert(f, b, k, &nop);
				if (!p) {
					free(need);
					return -1;
				}
				words(f, p);
				d -= s;
			}
		free(need);
	}
	return 0;
}

int
pass_ctrl_bits(Fn *f, Diag *d)
{
	Cx c;
	uint32_t nnew = 0;
	Bst e;
	Blk **stk;
	uint8_t *seen, *todo;
	int changed, rounds = 0;

	if (!f->blk || !f->nins)
		return 0;
	for (uint32_t k = 0; k < f->nins; k++) {
		nnew += (f->ins[k].flags & IInserted) || !f->ins[k].ctrl.has;
	}
	if (!nnew)
		return 0;
	memset(&c, 0, sizeof c);
	c.f = f;
	c.sm = f->mod->sm;
	c.in = xmalloc(f->nblk * sizeof *c.in);
	c.out = xmalloc(f->nblk * sizeof *c.out);
	c.orig = xmalloc(f->nins * sizeof *c.orig);
	c.isnew = xmalloc(f->nins);
	c.nop = xmalloc(f->nins);
	stk = xmalloc((f->nblk + 1) * sizeof *stk);
	seen = xmalloc(f->nblk + 1);
	todo = xmalloc(f->nblk + 1);
	c.callee = xmalloc(f->nblk * sizeof *c.callee);
	c.call = xmalloc(f->nblk * sizeof *c.call);
	c.rets = xmalloc(f->nblk * sizeof *c.rets);
	c.nrets = xmalloc(f->nblk * sizeof *c.nrets);
	c.crets = xmalloc(f->nblk * sizeof *c.crets);
	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *x = cfg_callee(f, f->blk[bi]);
		c.callee[bi] = x;
		if (!x)
			continue;
		c.call[c.ncall++] = f->blk[bi];
		if (!c.nrets[x->id] && !c.crets[x->id])
			rets_of(&c, x, seen, stk);
		if (!c.crets[x->id])
			c.crets[x->id] = 1;   /* looked at: no RET */
	}
	c.share = nnew == f->nins;
	for (uint32_t k = 0; k < f->nins; k++) {
		unsigned n, mask;
		int x = depbar_le(f, &f->ins[k], &n, &mask);
		if (f->ins[k].op == OLDGDEPBAR)
			c.resv |= 1u;
		else if (x >= 0)
			c.resv |= 1u << x;
	}
	for (uint32_t k = 0; k < f->nins; k++) {
		if (!f->ins[k].slot)
			op_slots(f, &f->ins[k]);   /* the front end leaves @P0 EXIT's guard to us */
		c.orig[k] = f->ins[k].ctrl;
		c.isnew[k] = (f->ins[k].flags & IInserted) || !f->ins[k].ctrl.has;
	}
	{
		uint8_t used[NU] = {0};
		Units x;
		Bst z;
		for (uint32_t k = 0; k < f->nins; k++) {
			units_of(&f->ins[k], &x);
			for (unsigned j = 0; j < x.nuse; j++)
				used[x.use[j]] = 1;
			for (unsigned j = 0; j < x.ndef; j++)
				used[x.def[j]] = 1;
		}
		for (unsigned u = 0; u < NU; u++)
			if (used[u])
				c.act[c.nact++] = (uint16_t)u;
		/* the state of the other units: empty, once */
		unsigned na = c.nact;
		c.nact = NU;
		for (unsigned u = 0; u < NU; u++)
			c.act[u] = (uint16_t)u;
		bst_empty(&z);
		w_load(&c, &c.w, &z);
		c.nact = 0;
		for (unsigned u = 0; u < NU; u++)
			if (used[u])
				c.act[c.nact++] = (uint16_t)u;
		(void)na;
	}
	memset(todo, 1, f->nblk);
	do {
		changed = 0;
		for (uint32_t bi = 0; bi < f->nblk; bi++) {
			Blk *b = f->blk[bi];
			entry(&c, b, &e);
			if (bst_merge(&c, &c.in[b->id], &e))
				todo[b->id] = 1;
			if (!todo[b->id])
				continue;
			todo[b->id] = 0;
			scan(&c, b);
			changed = 1;
		}
		rounds++;
	} while (changed && rounds < 1000);
	if (changed) {
		error_plain(d, "ctrl-bits: the block states of '%s' did not settle",
		            mstr(f->mod, f->name));
		return -1;
	}
	for (uint32_t k = 0; k < f->nins; k++)
		if (c.isnew[k]) {
			Ins *i = &f->ins[k];
			for (unsigned j = 0; j < i->nopnd; j++)
				i->opnd[j].flags &= (uint16_t)~FReuse;
			i->ctrl.reuse = 0;
			if (words(f, i) < 0)
				i->nenc = 0;  /* kept in memory only: mixed mode (docs/pass-ctrl-bits.md) */
			i->flags |= IInserted;   /* its bits are the pass's: a later run chooses again */
			if (f->plan)
				f->plan->ctrl_set++;
		}
	if (insert_nops(&c) < 0) {
		error_plain(d, "ctrl-bits: cannot insert a NOP in '%s'", mstr(f->mod, f->name));
		return -1;
	}
	free(c.in);
	free(c.out);
	free(c.orig);
	free(c.isnew);
	free(c.nop);
	for (uint32_t bi = 0; bi < f->nblk; bi++)
		free(c.rets[bi]);
	free(c.rets);
	free(c.nrets);
	free(c.crets);
	free(c.callee);
	free(c.call);
	free(stk);
	free(seen);
	free(todo);
	return 0;
}

/* "[B0-2---:R-:W1:Y:S04]" in CuAssembler's spelling: the SBs waited on, the read and the write
 * SB, Y where the yield bit is 0, the stall count */
int
ctrl_bits_str(char *buf, size_t n, const Ctrl *c)
{
	char b[7];

	if (!c->has)
		return snprintf(buf, n, "[--------no-bits-----]");
	for (unsigned q = 0; q < NSb; q++)
		b[q] = c->wait >> q & 1 ? (char)('0' + q) : '-';
	b[NSb] = 0;
	return snprintf(buf, n, "[B%s:R%c:W%c:%c:S%02u]", b, c->rsb < NSb ? '0' + c->rsb : '-',
	                c->wsb < NSb ? '0' + c->wsb : '-', c->yield ? '-' : 'Y', c->stall);
}

/* --print-after=ctrl-bits: every instruction with its control bits; `*` marks those the pass
 * gave bits (new), `+` nvcc's whose stall or wait mask it raised */
void
ctrl_bits_dump(FILE *out, Fn *f)
{
	char cb[32], text[1024];

	fprintf(out, "%s:\n", mstr(f->mod, f->name));
	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		fprintf(out, "// bb%u\n", b->id);
		for (uint32_t k = 0; k < b->nins; k++) {
			const Ins *i = &b->ins[k];
			int isnew = (i->flags & IInserted) || !i->ctrl.has;
			ctrl_bits_str(cb, sizeof cb, &i->ctrl);
			fmt_ins(text, sizeof text, f, i, 0);
			fprintf(out, "        /*%04x*/ %s %c %s\n",
			        (unsigned)(16 * (uint32_t)(i - f->ins)), cb,
			        isnew ? '*' : (i->flags & ICtrlSet) ? '+' : ' ', text);
		}
	}
}
