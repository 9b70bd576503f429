/* sched.c: the sched pass (docs/pass-sched.md): a list scheduler per basic block that reorders
 * instructions to hide latency, run on virtual registers before register allocation (fiberc's
 * PTX pipeline), or on any listing through --passes.
 *
 * Requires: the CFG (blocks, succ/pred, rpo); Fn.ins laid out (each block a slice of it: the
 * pass manager's relayout after the previous pass). Slots are filled here where missing. SSA
 * form is not needed; when present, the values that point at a moved instruction follow it (a
 * block is reordered by ir/edit.c's ins_permute).
 * Registers are told apart by (class, number), never by unit: virtual ones have none.
 *
 * Per block: a dependence DAG (registers RAW, WAR, WAW; memory by space; barriers, labelled
 * instructions and the block's terminator that nothing crosses; collectives in order), the
 * longest latency-weighted path from each instruction to the block's end, then a cycle-driven
 * list schedule: of the instructions whose operands are ready, the longest path first, then
 * long latency, then the original order; a guard keeps the live virtual R registers at or under
 * a limit (200) by preferring instructions that end live ranges once it is reached. The new order
 * is kept only when the model's cycle estimate beats the original order's. A function with
 * control bits (nvcc SASS) in which anything moved loses all of them: run ctrl-bits after it.
 * Linear in the instructions and their operands, but for the heaps (n log n).
 */
#include "codegen.h"
#include "latency.h"

#include <stdlib.h>
#include <string.h>

enum {
	NKey = 1 << 16,        /* register keys: the Reg value, class << 12 | number */
	SpG = 1, SpS = 2, SpL = 4, /* memory spaces that may alias: global, shared, local */
	NSp = 3,
	PickWidth = 16,        /* candidates the pressure guard compares from each queue */
	NSb = 6,               /* scoreboards SB0..SB5 */
	OrderLat = 1,          /* an ordering edge (WAR, WAW, memory, barrier): issue after */
	MaxHeight = (1 << 27) - 1,
	DefaultMaxLive = 200,  /* live virtual R registers the guard allows (of R0..R254) */
};

/* the kinds of scoreboard events (ctrl-bits' SbCls: one SB is shared by events of one kind) */
enum { SbFree, SbLong, SbShort, SbRead };

/* node kinds (bits) */
enum {
	KBar = 1,              /* nothing crosses it */
	KColl = 2,             /* collective: in order with the other collectives */
	KLong = 4,             /* long latency: loads, MUFU, MMA, S2R, SHFL */
	KSb = 8,               /* holds a scoreboard (ctrl-bits gives it one of six) */
	KLate = 16,            /* KSb, reads its sources late: a write to one waits for the SB */
};

typedef struct Node {
	uint32_t succ;         /* first out-edge in cdst/clat (by source) */
	uint32_t nsucc;
	uint32_t npred;        /* predecessors not yet scheduled */
	uint32_t height;       /* cycles from its issue to the block's end, longest path */
	uint32_t early;        /* earliest issue its scheduled predecessors allow */
	uint32_t kuse;         /* its distinct virtual R keys in kpool (dense ids): nuse read, */
	uint16_t nuse, ndef;   /* then ndef written */
	uint16_t lat;          /* result latency (an estimate when variable) */
	uint16_t occ;          /* KSb: cycles until its scoreboard's event completes */
	int8_t sbq;            /* KSb: the scoreboard it took in the model, -1 */
	uint8_t sbc;           /* KSb: the kind of its event (SbLong, SbShort, SbRead) */
	uint32_t sbg;          /* KSb: the generation of sbq it joined */
	uint32_t pfirst, npsb; /* its KSb predecessors through registers (they wait on those) */
	uint8_t kind;
	uint8_t ld, st;        /* memory spaces read, written */
} Node;

typedef struct Heap {
	uint64_t *k;           /* max-heap; the node is the low 32 bits, inverted */
	uint32_t n;
} Heap;

typedef struct Sx {
	Fn *f;
	int sm;
	const SchedOpts *o;
	uint8_t *pin;          /* per Fn.ins index: a label or a directive is there */
	/* register keys: an entry is valid for the block whose stamp it carries */
	uint32_t *kstamp;
	int32_t *kdef;         /* last writer in the block */
	int32_t *khead;        /* readers since: a list in rnode/rnext */
	uint32_t stamp;
	int32_t *rnode, *rnext;
	uint32_t nr, cr;
	/* memory, barriers, collectives */
	int32_t laststore[NSp];
	int32_t *loads[NSp];   /* loads since the last store of the space */
	uint32_t nloads[NSp];
	int32_t lastbar, lastcoll;
	uint32_t *since;       /* nodes since the last barrier */
	uint32_t nsince;
	/* per block, sized for the largest */
	uint32_t cap;
	Node *node;
	uint32_t *esrc, *edst; /* edges as found (one per pair) */
	uint16_t *elat;
	uint8_t *ereg;         /* the edge is a register dependence */
	uint32_t ne, ce;
	uint32_t *cdst;        /* the same by source */
	uint16_t *clat;
	uint32_t cc;
	uint32_t *emark;       /* per node: 1 + the target of its last edge */
	uint32_t *eidx;        /* per node: that edge */
	uint32_t *order;       /* the schedule: node indices */
	uint32_t *ident;       /* the original order */
	uint32_t *scratch;     /* per node */
	Heap avail, avsb, pend; /* ready: without a scoreboard, with one; waiting for operands */
	uint32_t sbdone[NSb];  /* the model of ctrl-bits' scoreboards: when the events complete, */
	uint8_t sbcls[NSb];    /* their kind (0: retired, free), */
	uint32_t sbgen[NSb];   /* a count of the retirements, */
	uint32_t sblast[NSb];  /* and when the newest issued */
	uint32_t *psb;         /* the KSb predecessors, by node (pfirst) */
	uint32_t cpsb;
	uint64_t *pick;
	/* pressure: the function's virtual R keys, densely numbered, and liveness over them */
	uint32_t *dense;       /* per key: 1 + dense id, 0 if not a virtual R register */
	uint32_t ndense;
	uint32_t nw;           /* words per set */
	uint64_t *in, *out;    /* per block id */
	const uint64_t *bin, *bout; /* the block's */
	int32_t *rem;          /* per dense id: uses left in the block */
	uint8_t *live;
	uint32_t *kpool;
	uint32_t nk, ck;
	int count;             /* live virtual R registers now */
	int peak;
} Sx;

static SchedOpts opts = { .max_live = DefaultMaxLive };

void
sched_opts_default(SchedOpts *o)
{
	memset(o, 0, sizeof *o);
	o->max_live = DefaultMaxLive;
}

void
sched_set_opts(const SchedOpts *o)
{
	opts = *o;
}

/* ---- heaps ------------------------------------------------------------------------------- */

static void
heap_push(Heap *h, uint64_t key)
{
	uint32_t i = h->n++;

	while (i) {
		uint32_t p = (i - 1) / 2;
		if (h->k[p] >= key)
			break;
		h->k[i] = h->k[p];
		i = p;
	}
	h->k[i] = key;
}

static uint64_t
heap_pop(Heap *h)
{
	uint64_t top = h->k[0], x = h->k[--h->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->k[c + 1] > h->k[c])
			c++;
		if (h->k[c] <= x)
			break;
		h->k[i] = h->k[c];
		i = c;
	}
	if (h->n)
		h->k[i] = x;
	return top;
}

static uint32_t
key_node(uint64_t k)
{
	return UINT32_MAX - (uint32_t)k;
}

/* the ready nodes are two heaps: those that take a scoreboard apart, so that the best one
 * that does not is at hand */
static uint32_t
avail_n(const Sx *c)
{
	return c->avail.n + c->avsb.n;
}

static Heap *
avail_top(Sx *c)
{
	if (!c->avsb.n)
		return &c->avail;
	if (!c->avail.n)
		return &c->avsb;
	return c->avsb.k[0] > c->avail.k[0] ? &c->avsb : &c->avail;
}

/* priority: the longest path, then long latency, then the original order */
static uint64_t
prio_key(const Node *x, uint32_t n)
{
	uint64_t h = x->height < MaxHeight ? x->height : MaxHeight;

	return h << 36 | (uint64_t)!!(x->kind & KLong) << 35 | (UINT32_MAX - n);
}

/* waiting for its operands: the earliest first */
static uint64_t
pend_key(const Node *x, uint32_t n)
{
	return (uint64_t)(UINT32_MAX - x->early) << 32 | (UINT32_MAX - n);
}

static void
avail_push(Sx *c, uint32_t v)
{
	heap_push(c->node[v].kind & KSb ? &c->avsb : &c->avail, prio_key(&c->node[v], v));
}

/* ---- what an instruction is -------------------------------------------------------------- */

/* the latency of i's result: the fixed latency of ir/latency.h, else an estimate of the
 * variable one from configs/a100.cfg (docs/pass-sched.md) */
static unsigned
lat_of(const Sx *c, const Ins *i)
{
	const OpInfo *o = &optab[i->op];
	unsigned cyc;
	int k = lat_kind(c->f->mod, i, c->sm, &cyc);

	if (k == LatFixed)
		return cyc;
	if (k == LatNone)
		return OrderLat;
	if (o->flags & OFLoad) {
		if (o->flags & (OFGlobal | OFGeneric | OFApprox))
			return 200;            /* lat_l2: a first touch misses L1 */
		if (o->flags & OFLocal)
			return 33;             /* lat_l1 */
		if (o->flags & OFConst)
			return 26;             /* lat_const */
		return 23;                 /* lat_lds (LDS, LDSM) */
	}
	switch (o->unit) {
	case UMufu: return 18;         /* lat_mufu */
	case UConv: return 18;         /* lat_conv */
	case UDouble: return 2 * lat_planned(LkFp64); /* sm_8x: scoreboarded FP64 */
	case UTensor: return 38;       /* lat_dmma */
	case UUniform: return 6;       /* R2UR on sm_8x */
	default: break;
	}
	if (i->op == OSHFL || i->op == OMATCH || i->op == OMOVM)
		return 23;                 /* lat_shfl */
	if (i->op == OREDUX || i->op == OCREDUX)
		return 13;                 /* lat_vote */
	return 20;                     /* lat_s2r, and the rest of the variable ones */
}

/* reads a clock: in order with everything */
static int
reads_clock(const Fn *f, const Ins *i)
{
	if (i->op != OS2R && i->op != OCS2R && i->op != OS2UR)
		return 0;
	for (unsigned k = 0; k < i->nopnd; k++)
		if (i->opnd[k].kind == OSReg) {
			const char *s = mstr(f->mod, i->opnd[k].atom);
			if (!strncmp(s, "SR_CLOCK", 8) || !strncmp(s, "SR_GLOBALTIMER", 14))
				return 1;
		}
	return 0;
}

/* .STRONG, .MMIO, .VOLATILE: a load in order with every access of its spaces, as a store */
static int
strong(const Fn *f, const Ins *i)
{
	return ins_hasmod(i, f->mod, "STRONG") || ins_hasmod(i, f->mod, "MMIO") ||
	       ins_hasmod(i, f->mod, "VOLATILE");
}

static unsigned
spaces(uint32_t fl)
{
	unsigned s = 0;

	if (fl & OFGlobal)
		s |= SpG;
	if (fl & OFShared)
		s |= SpS;
	if (fl & OFLocal)
		s |= SpL;
	if (fl & OFGeneric)
		s |= SpG | SpS | SpL;
	return s;
}

/* kind bits, memory spaces and latency of i; pinned: a label or a directive is at it; last: the
 * block's last instruction */
static void
classify(const Sx *c, const Ins *i, int pinned, int last, Node *x)
{
	const OpInfo *o = &optab[i->op < NOp ? i->op : Ounknown];
	uint32_t fl = o->flags;
	const uint32_t bar = OFBarrier | OFSync | OFCall | OFConv | OFAtomic | OFFiber | OFApprox |
	                     OFTerm | OFBranch | OFExit | OFRet;

	x->kind = 0;
	x->ld = x->st = 0;
	if (pinned || (last && cfg_ends_block(c->f, i)) || i->op == Ounknown || i->op >= NOp ||
	    (fl & bar) || !i->slot)
		x->kind |= KBar;
	switch (i->op) {
	case OLEPC: case OULEPC:           /* the value is the instruction's own address */
	case OSETLMEMBASE: case OGETLMEMBASE:
	case OYIELD: case OPREEXIT: case OB2R:
		x->kind |= KBar;
		break;
	default:
		break;
	}
	if (reads_clock(c->f, i))
		x->kind |= KBar;
	if (fl & OFCollective)
		x->kind |= KColl;
	if (i->op == OLDGSTS) {
		x->ld = SpG;
		x->st = SpS;
	} else {
		if (fl & OFLoad)
			x->ld = (uint8_t)spaces(fl);
		if (fl & OFStore)
			x->st = (uint8_t)spaces(fl);
		if ((fl & OFLoad) && x->ld && strong(c->f, i))
			x->st |= x->ld;
		/* cache control, prefetches, QSPC: memory without a load or a store flag */
		if (o->unit == ULsu && !(fl & (OFLoad | OFStore)) && spaces(fl))
			x->kind |= KBar;
	}
	x->lat = (uint16_t)lat_of(c, i);
	if (x->lat >= 14 || o->unit == UTensor)
		x->kind |= KLong;
	if (!(x->kind & KBar) && i->slot) {
		unsigned cyc, def = 0, use = 0;
		for (unsigned j = 0; j < i->nslot; j++) {
			if (reg_isconst(i->slot[j].reg) || i->slot[j].opnd == SlotGuard)
				continue;
			def |= i->slot[j].kind == SDef;
			use |= i->slot[j].kind != SDef;
		}
		/* ctrl-bits: a write scoreboard until the result, or a read one until the sources
		 * are read (LatWarRead) */
		if (lat_kind(c->f->mod, i, c->sm, &cyc) == LatVar && (def || (use && lat_late_read(i)))) {
			x->kind |= KSb;
			x->occ = def ? x->lat : LatWarRead;
			x->sbc = !def ? SbRead : (fl & (OFGlobal | OFLocal | OFGeneric | OFAtomic)) ||
			         i->op == OLDGSTS ? SbLong : SbShort;
			if (lat_late_read(i))
				x->kind |= KLate;
		}
	}
}

/* ---- the dependence graph ------------------------------------------------------------------ */

/* an edge src -> dst of latency lat; reg: a register dependence */
static void
edge_(Sx *c, int32_t src, uint32_t dst, unsigned lat, int reg)
{
	if (src < 0 || (uint32_t)src == dst)
		return;
	if (c->emark[src] == dst + 1) {   /* every edge into dst is made while dst is read */
		uint32_t e = c->eidx[src];
		if (c->elat[e] < lat)
			c->elat[e] = (uint16_t)lat;
		c->ereg[e] |= (uint8_t)reg;
		return;
	}
	if (c->ne == c->ce) {
		c->ce = c->ce ? 2 * c->ce : 1024;
		c->esrc = xrealloc(c->esrc, c->ce * sizeof *c->esrc);
		c->edst = xrealloc(c->edst, c->ce * sizeof *c->edst);
		c->elat = xrealloc(c->elat, c->ce * sizeof *c->elat);
		c->ereg = xrealloc(c->ereg, c->ce * sizeof *c->ereg);
	}
	c->emark[src] = dst + 1;
	c->eidx[src] = c->ne;
	c->esrc[c->ne] = (uint32_t)src;
	c->edst[c->ne] = dst;
	c->elat[c->ne] = (uint16_t)lat;
	c->ereg[c->ne] = (uint8_t)reg;
	c->ne++;
	c->node[dst].npred++;
}

static void
edge(Sx *c, int32_t src, uint32_t dst, unsigned lat)
{
	edge_(c, src, dst, lat, 0);
}

static void
key_touch(Sx *c, uint32_t k)
{
	if (c->kstamp[k] != c->stamp) {
		c->kstamp[k] = c->stamp;
		c->kdef[k] = -1;
		c->khead[k] = -1;
	}
}

static void
reader_add(Sx *c, uint32_t k, uint32_t n)
{
	if (c->nr == c->cr) {
		c->cr = c->cr ? 2 * c->cr : 1024;
		c->rnode = xrealloc(c->rnode, c->cr * sizeof *c->rnode);
		c->rnext = xrealloc(c->rnext, c->cr * sizeof *c->rnext);
	}
	c->rnode[c->nr] = (int32_t)n;
	c->rnext[c->nr] = c->khead[k];
	c->khead[k] = (int32_t)c->nr++;
}

/* dense id d among kpool[from..] */
static int
kpool_has(const Sx *c, uint32_t from, uint32_t d)
{
	for (uint32_t k = from; k < c->nk; k++)
		if (c->kpool[k] == d)
			return 1;
	return 0;
}

/* the registers of node n (instruction i): edges from their last writer (RAW, with its
 * latency), and for a write from the readers since and the last writer (WAR, WAW) */
static void
reg_deps(Sx *c, const Ins *i, uint32_t n)
{
	Node *x = &c->node[n];

	x->kuse = c->nk;
	x->nuse = x->ndef = 0;
	for (int w = 0; w < 2; w++)
		for (unsigned j = 0; j < i->nslot; j++) {
			const Slot *sl = &i->slot[j];
			if ((sl->kind == SDef) != w)
				continue;
			for (unsigned m = 0; m < sl->n; m++) {
				Reg r = reg_next(sl->reg, m);
				uint32_t k = r, d;
				if (RCLS(r) == RNone || reg_isconst(r))
					continue;
				key_touch(c, k);
				if (!w) {
					int32_t p = c->kdef[k];
					if (p >= 0)
						edge_(c, p, n, c->node[p].lat, 1);
					reader_add(c, k, n);
				} else {
					for (int32_t e = c->khead[k]; e >= 0; e = c->rnext[e]) {
						const Node *rd = &c->node[c->rnode[e]];
						edge_(c, c->rnode[e], n,
						      rd->kind & KLate ? LatWarRead : OrderLat, 1);
					}
					c->khead[k] = -1;
					edge_(c, c->kdef[k], n, OrderLat, 1);
					c->kdef[k] = (int32_t)n;
				}
				d = c->dense[k];
				if (!d || kpool_has(c, w ? x->kuse + x->nuse : x->kuse, d - 1))
					continue;
				vgrow(&c->kpool, &c->ck, c->nk + 1, sizeof *c->kpool);
				c->kpool[c->nk++] = d - 1;
				if (w)
					x->ndef++;
				else
					x->nuse++;
			}
		}
}

/* the edges into node n (instruction i) */
static void
deps(Sx *c, const Ins *i, uint32_t n)
{
	Node *x = &c->node[n];

	if (x->kind & KBar) {
		/* after everything since the last barrier; everything after it depends on it, so
		 * what came before needs no more edges */
		for (uint32_t k = 0; k < c->nsince; k++)
			edge(c, (int32_t)c->since[k], n, OrderLat);
		edge(c, c->lastbar, n, OrderLat);
		c->nsince = 0;
		c->lastbar = (int32_t)n;
		c->lastcoll = -1;
		for (int s = 0; s < NSp; s++) {
			c->laststore[s] = -1;
			c->nloads[s] = 0;
		}
	} else {
		edge(c, c->lastbar, n, OrderLat);
		c->since[c->nsince++] = n;
		if (x->kind & KColl) {
			edge(c, c->lastcoll, n, OrderLat);
			c->lastcoll = (int32_t)n;
		}
		/* memory: loads after the last store of each space they read; stores after it and
		 * after every load since */
		for (int s = 0; s < NSp; s++) {
			if (x->ld >> s & 1) {
				edge(c, c->laststore[s], n, OrderLat);
				if (!(x->st >> s & 1))
					c->loads[s][c->nloads[s]++] = (int32_t)n;
			}
			if (x->st >> s & 1) {
				edge(c, c->laststore[s], n, OrderLat);
				for (uint32_t k = 0; k < c->nloads[s]; k++)
					edge(c, c->loads[s][k], n, OrderLat);
				c->nloads[s] = 0;
				c->laststore[s] = (int32_t)n;
			}
		}
	}
	reg_deps(c, i, n);
}

/* room for a block of n instructions */
static void
reserve(Sx *c, uint32_t n)
{
	if (n <= c->cap)
		return;
	c->cap = n < 64 ? 64 : 2 * n;
	free(c->node);
	free(c->emark);
	free(c->eidx);
	free(c->order);
	free(c->ident);
	free(c->scratch);
	free(c->since);
	free(c->avail.k);
	free(c->avsb.k);
	free(c->pend.k);
	for (int s = 0; s < NSp; s++) {
		free(c->loads[s]);
		c->loads[s] = xmalloc(c->cap * sizeof *c->loads[s]);
	}
	c->node = xmalloc(c->cap * sizeof *c->node);
	c->emark = xmalloc(c->cap * sizeof *c->emark);
	c->eidx = xmalloc(c->cap * sizeof *c->eidx);
	c->order = xmalloc(c->cap * sizeof *c->order);
	c->ident = xmalloc(c->cap * sizeof *c->ident);
	for (uint32_t k = 0; k < c->cap; k++)
		c->ident[k] = k;
	c->scratch = xmalloc(c->cap * sizeof *c->scratch);
	c->since = xmalloc(c->cap * sizeof *c->since);
	c->avail.k = xmalloc(c->cap * sizeof *c->avail.k);
	c->avsb.k = xmalloc(c->cap * sizeof *c->avsb.k);
	c->pend.k = xmalloc(c->cap * sizeof *c->pend.k);
}

/* the DAG of block b (base: its first Fn.ins index), by source, with heights */
static void
build(Sx *c, Blk *b, uint32_t base)
{
	uint32_t n = b->nins;

	c->stamp++;
	c->nr = c->ne = c->nk = 0;
	c->nsince = 0;
	c->lastbar = c->lastcoll = -1;
	for (int s = 0; s < NSp; s++) {
		c->laststore[s] = -1;
		c->nloads[s] = 0;
	}
	memset(c->emark, 0, n * sizeof *c->emark);
	for (uint32_t k = 0; k < n; k++) {
		Ins *i = &b->ins[k];
		Node *x = &c->node[k];
		memset(x, 0, sizeof *x);
		x->sbq = -1;
		if (!i->slot)
			op_slots(c->f, i);   /* a malformed one is a barrier (classify) */
		classify(c, i, c->pin[base + k], k + 1 == n, x);
		deps(c, i, k);
	}
	/* by source */
	if (c->ne > c->cc) {
		c->cc = 2 * c->ne;
		c->cdst = xrealloc(c->cdst, c->cc * sizeof *c->cdst);
		c->clat = xrealloc(c->clat, c->cc * sizeof *c->clat);
	}
	for (uint32_t e = 0; e < c->ne; e++)
		c->node[c->esrc[e]].nsucc++;
	for (uint32_t k = 0, at = 0; k < n; k++) {
		c->node[k].succ = at;
		c->scratch[k] = at;
		at += c->node[k].nsucc;
	}
	for (uint32_t e = 0; e < c->ne; e++) {
		uint32_t at = c->scratch[c->esrc[e]]++;
		c->cdst[at] = c->edst[e];
		c->clat[at] = c->elat[e];
	}
	/* the scoreboard predecessors, by target */
	for (uint32_t k = 0; k < n; k++)
		c->node[k].npsb = 0;
	for (uint32_t e = 0; e < c->ne; e++)
		c->node[c->edst[e]].npsb += c->ereg[e] && (c->node[c->esrc[e]].kind & KSb);
	for (uint32_t k = 0, at = 0; k < n; k++) {
		c->node[k].pfirst = at;
		c->scratch[k] = at;
		at += c->node[k].npsb;
	}
	vgrow(&c->psb, &c->cpsb, c->ne + 1, sizeof *c->psb);
	for (uint32_t e = 0; e < c->ne; e++)
		if (c->ereg[e] && (c->node[c->esrc[e]].kind & KSb))
			c->psb[c->scratch[c->edst[e]]++] = c->esrc[e];
	/* heights: every edge goes forward in the original order */
	for (uint32_t k = n; k-- > 0;) {
		Node *x = &c->node[k];
		uint32_t h = x->lat ? x->lat : 1;
		for (uint32_t e = x->succ; e < x->succ + x->nsucc; e++) {
			uint32_t t = c->clat[e] + c->node[c->cdst[e]].height;
			h = t > h ? t : h;
		}
		x->height = h;
	}
}

/* ---- register pressure ------------------------------------------------------------------- */

static int
bit(const uint64_t *s, uint32_t u)
{
	return s ? (int)(s[u >> 6] >> (u & 63) & 1) : 0;
}

/* the virtual R keys of the function, densely numbered, and their liveness */
static void
live_prepare(Sx *c)
{
	Fn *f = c->f;
	uint64_t *gen, *kill;
	size_t sz;

	for (uint32_t bi = 0; bi < f->nblk; bi++)
		for (uint32_t k = 0; k < f->blk[bi]->nins; k++) {
			Ins *i = &f->blk[bi]->ins[k];
			if (!i->slot)
				op_slots(f, i);   /* a guard is a slot too, on EXIT and BRA */
			for (unsigned j = 0; j < i->nslot; j++)
				for (unsigned m = 0; m < i->slot[j].n; m++) {
					Reg r = reg_next(i->slot[j].reg, m);
					if (reg_isvirt(r) && !c->dense[r])
						c->dense[r] = ++c->ndense;
				}
		}
	if (!c->ndense)
		return;
	c->nw = (c->ndense + 63) / 64;
	sz = ((size_t)f->nblk * c->nw + 1) * sizeof(uint64_t);
	gen = xmalloc(sz);
	kill = xmalloc(sz);
	c->in = xmalloc(sz);
	c->out = xmalloc(sz);
	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		uint64_t *g = gen + (size_t)b->id * c->nw, *kl = kill + (size_t)b->id * c->nw;
		for (uint32_t k = b->nins; k-- > 0;) {
			const Ins *i = &b->ins[k];
			for (int w = 1; w >= 0; w--)
				for (unsigned j = 0; j < i->nslot; j++) {
					const Slot *sl = &i->slot[j];
					if ((sl->kind == SDef) != w)
						continue;
					for (unsigned m = 0; m < sl->n; m++) {
						uint32_t d = c->dense[reg_next(sl->reg, m)];
						if (!d--)
							continue;
						if (w) {
							g[d >> 6] &= ~(1ull << (d & 63));
							kl[d >> 6] |= 1ull << (d & 63);
						} else {
							g[d >> 6] |= 1ull << (d & 63);
						}
					}
				}
		}
	}
	live_solve(f, c->nw, gen, kill, c->in, c->out, 1);
	free(gen);
	free(kill);
	c->rem = xmalloc(c->ndense * sizeof *c->rem);
	c->live = xmalloc(c->ndense);
}

/* the block's pressure state before its first instruction */
static void
press_reset(Sx *c, uint32_t n)
{
	c->count = 0;
	if (!c->ndense)
		return;
	for (uint32_t w = 0; w < c->nw; w++)
		c->count += __builtin_popcountll(c->bin[w]);
	for (uint32_t k = 0; k < c->nk; k++) {
		uint32_t u = c->kpool[k];
		c->rem[u] = 0;
		c->live[u] = (uint8_t)bit(c->bin, u);
	}
	for (uint32_t v = 0; v < n; v++)
		for (uint32_t k = 0; k < c->node[v].nuse; k++)
			c->rem[c->kpool[c->node[v].kuse + k]]++;
	c->peak = c->count;
}

/* the change in live virtual R registers if node v issued now */
static int
delta(const Sx *c, uint32_t v)
{
	const Node *x = &c->node[v];
	const uint32_t *use = c->kpool + x->kuse, *def = use + x->nuse;
	int d = 0;

	for (uint32_t k = 0; k < x->nuse; k++)
		if (c->live[use[k]] && c->rem[use[k]] == 1 && !bit(c->bout, use[k]))
			d--;
	for (uint32_t k = 0; k < x->ndef; k++) {
		uint32_t u = def[k];
		int32_t left = c->rem[u];
		int live = c->live[u];
		for (uint32_t j = 0; j < x->nuse; j++)
			if (use[j] == u) {
				left--;
				live = live && (left > 0 || bit(c->bout, u));
			}
		if (!live && (left > 0 || bit(c->bout, u)))
			d++;
	}
	return d;
}

static void
press_apply(Sx *c, uint32_t v)
{
	const Node *x = &c->node[v];
	const uint32_t *use = c->kpool + x->kuse, *def = use + x->nuse;

	if (!c->ndense)
		return;
	for (uint32_t k = 0; k < x->nuse; k++) {
		uint32_t u = use[k];
		if (--c->rem[u] <= 0 && c->live[u] && !bit(c->bout, u)) {
			c->live[u] = 0;
			c->count--;
		}
	}
	for (uint32_t k = 0; k < x->ndef; k++) {
		uint32_t u = def[k];
		if (!c->live[u] && (c->rem[u] > 0 || bit(c->bout, u))) {
			c->live[u] = 1;
			c->count++;
		}
	}
	if (c->count > c->peak)
		c->peak = c->count;
}

/* ---- the schedule ------------------------------------------------------------------------ */

/* ctrl-bits' scoreboards (docs/pass-ctrl-bits.md): an instruction that waits on one retires
 * it; a new event takes a free one, SB5 first, else shares one whose events are of its kind
 * (the one used last), else the one used longest ago */
static void
sb_reset(Sx *c)
{
	memset(c->sbdone, 0, sizeof c->sbdone);
	memset(c->sbcls, SbFree, sizeof c->sbcls);
	memset(c->sbgen, 0, sizeof c->sbgen);
	memset(c->sblast, 0, sizeof c->sblast);
}

/* the scoreboard node v would take, and whether it must wait for it (*wait) */
static unsigned
sb_which(const Sx *c, uint32_t v, int *wait)
{
	const Node *x = &c->node[v];
	int best = -1;

	*wait = 0;
	for (int q = NSb - 1; q >= 0; q--)
		if (c->sbcls[q] == SbFree)
			return (unsigned)q;
	/* none free: one that v waits on anyway (a predecessor's) is free once it issues */
	for (uint32_t k = 0; k < x->npsb; k++) {
		const Node *p = &c->node[c->psb[x->pfirst + k]];
		if (p->sbq >= 0 && c->sbgen[p->sbq] == p->sbg)
			return (unsigned)p->sbq;
	}
	for (int q = NSb - 1; q >= 0; q--)
		if (c->sbcls[q] == x->sbc && (best < 0 || c->sblast[q] > c->sblast[best]))
			best = q;
	if (best >= 0)
		return (unsigned)best;
	for (int q = NSb - 1; q >= 0; q--)   /* shared: its events have most likely completed */
		if (best < 0 || c->sblast[q] < c->sblast[best])
			best = q;
	return (unsigned)best;
}

/* node v issues at t, or later when it must wait for a scoreboard: its predecessors' are
 * retired, it takes one */
static uint32_t
sb_issue(Sx *c, uint32_t v, uint32_t t)
{
	Node *x = &c->node[v];
	unsigned q;
	int wait;

	for (uint32_t k = 0; k < x->npsb; k++) {
		const Node *p = &c->node[c->psb[x->pfirst + k]];
		if (p->sbq >= 0 && c->sbgen[p->sbq] == p->sbg) {
			if (c->sbdone[p->sbq] > t)
				t = c->sbdone[p->sbq];   /* the wait is for every event of the SB */
			c->sbcls[p->sbq] = SbFree;
			c->sbgen[p->sbq]++;
		}
	}
	if (!(x->kind & KSb))
		return t;
	q = sb_which(c, v, &wait);
	if (wait) {
		if (c->sbdone[q] > t)
			t = c->sbdone[q];
		c->sbcls[q] = SbFree;
		c->sbgen[q]++;
	}
	if (c->sbcls[q] == SbFree || c->sbdone[q] < t + x->occ)
		c->sbdone[q] = t + x->occ;
	c->sbcls[q] = x->sbc;
	c->sblast[q] = t;
	x->sbq = (int8_t)q;
	x->sbg = c->sbgen[q];
	return t;
}

/* node v would wait for a scoreboard at cycle cyc */
static int
sb_stalls(const Sx *c, uint32_t v, uint32_t cyc)
{
	int wait;
	unsigned q;

	if (!(c->node[v].kind & KSb))
		return 0;
	q = sb_which(c, v, &wait);
	return wait && c->sbdone[q] > cyc;
}

/* the model's cycles for the block in the given order: in-order issue, one a cycle, each
 * instruction when its predecessors' latencies have passed; the end is the last result */
static uint64_t
estimate(Sx *c, uint32_t n, const uint32_t *order)
{
	uint32_t *early = c->scratch, cyc = 0;
	uint64_t end = 0;

	memset(early, 0, n * sizeof *early);
	sb_reset(c);
	for (uint32_t k = 0; k < n; k++) {
		const Node *x = &c->node[order[k]];
		uint32_t t = early[order[k]] > cyc ? early[order[k]] : cyc;
		t = sb_issue(c, order[k], t);
		cyc = t + 1;
		if (t + (uint64_t)(x->lat ? x->lat : 1) > end)
			end = t + (uint64_t)(x->lat ? x->lat : 1);
		for (uint32_t e = x->succ; e < x->succ + x->nsucc; e++)
			if (t + c->clat[e] > early[c->cdst[e]])
				early[c->cdst[e]] = t + c->clat[e];
	}
	return end;
}

/* the most live virtual R registers along an order */
static int
peak_of(Sx *c, uint32_t n, const uint32_t *order)
{
	press_reset(c, n);
	for (uint32_t k = 0; k < n && c->ndense; k++)
		press_apply(c, order[k]);
	return c->peak;
}

/* the guard: of the best PickWidth ready nodes, one that lets the fewest registers become
 * live (the first of the best); if each of them would add some, the best of the PickWidth that
 * are ready soonest when one adds fewer (the schedule then waits for it) */
static uint32_t
guard_pick(Sx *c)
{
	uint32_t na = 0, np = 0, best = 0;
	int bd = 0, from_pend = 0;
	uint64_t *pa = c->pick, *pp = c->pick + PickWidth;

	while (na < PickWidth && avail_n(c))
		pa[na++] = heap_pop(avail_top(c));
	for (uint32_t k = 0; k < na; k++) {
		int d = delta(c, key_node(pa[k]));
		if (!k || d < bd) {
			bd = d;
			best = k;
		}
	}
	if (bd > 0) {
		while (np < PickWidth && c->pend.n)
			pp[np++] = heap_pop(&c->pend);
		for (uint32_t k = 0; k < np; k++) {
			int d = delta(c, key_node(pp[k]));
			if (d < bd) {
				bd = d;
				best = k;
				from_pend = 1;
			}
		}
	}
	for (uint32_t k = 0; k < na; k++)
		if (from_pend || k != best)
			avail_push(c, key_node(pa[k]));
	for (uint32_t k = 0; k < np; k++)
		if (!from_pend || k != best)
			heap_push(&c->pend, pp[k]);
	return key_node(from_pend ? pp[best] : pa[best]);
}

/* when node v could issue at cycle cyc or later: its operands, and a scoreboard */
static uint32_t
sb_when(const Sx *c, uint32_t v, uint32_t cyc)
{
	const Node *x = &c->node[v];
	uint32_t t = x->early > cyc ? x->early : cyc;
	int wait;
	unsigned q;

	if (!(x->kind & KSb))
		return t;
	q = sb_which(c, v, &wait);
	return wait && c->sbdone[q] > t ? c->sbdone[q] : t;
}

/* the best ready node would wait for a scoreboard: the best ready one that takes none, if
 * any; else of the PickWidth ready soonest, before that wait is over, the one that can issue
 * first, one that takes no scoreboard at a tie (a use of a load frees its scoreboard), the
 * best of those; else that node */
static uint32_t
sb_pick(Sx *c, uint32_t cyc)
{
	uint64_t *pp = c->pick, top;
	uint32_t np = 0, bt, best = UINT32_MAX, v;
	uint64_t bk;
	int bw = 1;

	if (c->avail.n)
		return key_node(heap_pop(&c->avail));
	top = heap_pop(&c->avsb);
	v = key_node(top);
	bt = sb_when(c, v, cyc);
	bk = prio_key(&c->node[v], v);
	while (np < PickWidth && c->pend.n && c->node[key_node(c->pend.k[0])].early <= bt) {
		uint32_t t, u = key_node(pp[np++] = heap_pop(&c->pend));
		uint64_t pk = prio_key(&c->node[u], u);
		int w = sb_stalls(c, u, cyc);
		t = sb_when(c, u, cyc);
		if (t < bt || (t == bt && (w < bw || (w == bw && pk > bk)))) {
			bt = t;
			bw = w;
			bk = pk;
			best = np - 1;
		}
	}
	for (uint32_t k = 0; k < np; k++)
		if (k != best)
			heap_push(&c->pend, pp[k]);
	if (best == UINT32_MAX)
		return v;
	heap_push(&c->avsb, top);
	return key_node(pp[best]);
}

/* the list schedule of the block's n nodes into c->order */
static void
list_schedule(Sx *c, uint32_t n)
{
	uint32_t cyc = 0;
	int guard = c->o->max_live > 0 && c->ndense;

	c->avail.n = c->avsb.n = c->pend.n = 0;
	sb_reset(c);
	for (uint32_t v = 0; v < n; v++) {
		c->node[v].early = 0;
		if (!c->node[v].npred)
			heap_push(&c->pend, pend_key(&c->node[v], v));
	}
	press_reset(c, n);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v, t;
		if (!avail_n(c) && !c->pend.n)
			die("sched: nothing ready with %u of %u scheduled", k, n);
		if (!avail_n(c)) {
			uint32_t e = c->node[key_node(c->pend.k[0])].early;
			cyc = e > cyc ? e : cyc;
		}
		while (c->pend.n && c->node[key_node(c->pend.k[0])].early <= cyc) {
			v = key_node(heap_pop(&c->pend));
			avail_push(c, v);
		}
		v = key_node(avail_top(c)->k[0]);
		if (guard && c->count + delta(c, v) > c->o->max_live)
			v = guard_pick(c);
		else if (sb_stalls(c, v, cyc))
			v = sb_pick(c, cyc);
		else
			heap_pop(avail_top(c));
		t = c->node[v].early > cyc ? c->node[v].early : cyc;
		t = sb_issue(c, v, t);
		cyc = t + 1;
		c->order[k] = v;
		press_apply(c, v);
		for (uint32_t e = c->node[v].succ; e < c->node[v].succ + c->node[v].nsucc; e++) {
			Node *s = &c->node[c->cdst[e]];
			if (t + c->clat[e] > s->early)
				s->early = t + c->clat[e];
			if (!--s->npred)
				heap_push(&c->pend, pend_key(s, c->cdst[e]));
		}
	}
}

/* ---- the control bits after a move ------------------------------------------------------- */

/* i without its second encoding word: the slots that word gave (the sm_8x hidden desc[UR] of a
 * store, which the simulator ignores) go, the values of the others stay */
static void
reslot(Fn *f, Ins *i)
{
	Slot *old = i->slot;
	unsigned nold = i->nslot, diff;
	int n = op_slots_cmp(f, i, &diff);

	if (n < 0 || ((unsigned)n == nold && diff == nold) || op_slots(f, i) < 0)
		return;
	for (unsigned j = 0; j < i->nslot; j++)
		for (unsigned k = 0; old && k < nold; k++) {
			const Slot *x = &old[k], *y = &i->slot[j];
			if (x->kind == y->kind && x->opnd == y->opnd && x->field == y->field &&
			    x->reg == y->reg && x->n == y->n && x->v) {
				memcpy(y->v, x->v, y->n * sizeof *y->v);
				break;
			}
		}
}

/* the control bits (and .reuse flags) of every instruction go: ctrl-bits chooses them again */
static void
clear_bits(Fn *f)
{
	for (uint32_t bi = 0; bi < f->nblk; bi++)
		for (uint32_t k = 0; k < f->blk[bi]->nins; k++) {
			Ins *i = &f->blk[bi]->ins[k];
			memset(&i->ctrl, 0, sizeof i->ctrl);
			for (unsigned j = 0; j < i->nopnd; j++)
				i->opnd[j].flags &= (uint16_t)~FReuse;
			if (i->nenc > 1) {
				i->nenc = 1;    /* the second word holds the control field */
				if (i->slot)
					reslot(f, i);
			}
		}
}

/* ---- the pass ---------------------------------------------------------------------------- */

static void
sx_free(Sx *c)
{
	free(c->pin);
	free(c->kstamp);
	free(c->kdef);
	free(c->khead);
	free(c->rnode);
	free(c->rnext);
	for (int s = 0; s < NSp; s++)
		free(c->loads[s]);
	free(c->since);
	free(c->node);
	free(c->esrc);
	free(c->edst);
	free(c->elat);
	free(c->ereg);
	free(c->psb);
	free(c->cdst);
	free(c->clat);
	free(c->emark);
	free(c->eidx);
	free(c->order);
	free(c->ident);
	free(c->scratch);
	free(c->avail.k);
	free(c->avsb.k);
	free(c->pend.k);
	free(c->pick);
	free(c->dense);
	free(c->in);
	free(c->out);
	free(c->rem);
	free(c->live);
	free(c->kpool);
}

int
sched_fn(Fn *f, const SchedOpts *o, SchedStats *st, Diag *d)
{
	Sx c;
	SchedStats dummy;
	int bits = 0;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (!f->blk || !f->nins)
		return 0;
	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		if (b->nins && (b->ins < f->ins || b->ins + b->nins > f->ins + f->nins)) {
			error_plain(d, "sched: the blocks of '%s' are not laid out (relayout after "
			            "editing)", mstr(f->mod, f->name));
			return -1;
		}
	}
	memset(&c, 0, sizeof c);
	c.f = f;
	c.sm = f->mod->sm;
	c.o = o;
	c.pin = xmalloc(f->nins + 1);
	for (uint32_t k = 0; k < f->nins; k++) {
		c.pin[k] = f->ins[k].label || (f->ins[k].flags & IExtraLabel);
		bits |= f->ins[k].ctrl.has;
	}
	for (uint32_t k = 0; k < f->nxlabel; k++)
		if (f->xlabel[2 * k] < f->nins)
			c.pin[f->xlabel[2 * k]] = 1;
	for (uint32_t k = 0; f->text && k < f->text->nitem; k++)
		if (f->text->item[k].off >= 0 && (uint32_t)f->text->item[k].off < f->nins)
			c.pin[f->text->item[k].off] = 1;

	c.kstamp = xmalloc(NKey * sizeof *c.kstamp);
	c.kdef = xmalloc(NKey * sizeof *c.kdef);
	c.khead = xmalloc(NKey * sizeof *c.khead);
	c.dense = xmalloc(NKey * sizeof *c.dense);
	c.pick = xmalloc(2 * PickWidth * sizeof *c.pick);
	live_prepare(&c);      /* the guard's, and the figures' */
	for (uint32_t bi = 0; bi < f->nblk; bi++) {
		Blk *b = f->blk[bi];
		uint32_t n = b->nins, base = (uint32_t)(b->ins - f->ins);
		uint64_t before, after;
		int pk0, pk1;
		if (n < 2)
			continue;
		reserve(&c, n);
		c.bin = c.ndense ? c.in + (size_t)b->id * c.nw : NULL;
		c.bout = c.ndense ? c.out + (size_t)b->id * c.nw : NULL;
		build(&c, b, base);
		st->blocks++;
		list_schedule(&c, n);
		after = estimate(&c, n, c.order);
		before = estimate(&c, n, c.ident);
		pk1 = peak_of(&c, n, c.order);
		pk0 = peak_of(&c, n, c.ident);
		if (after >= before && !o->always) {
			after = before;   /* the original order stays */
			pk1 = pk0;
		} else {
			/* addresses stay with the positions; labelled instructions are barriers,
			 * which keep their place */
			int mv = ins_permute(f, b, c.order);
			if (mv < 0) {
				error_plain(d, "sched: internal error: a labelled instruction of "
				            "'%s' would move", mstr(f->mod, f->name));
				sx_free(&c);
				return -1;
			}
			st->changed += mv > 0;
			st->moved += (uint32_t)mv;
		}
		st->est_before += before;
		st->est_after += after;
		st->peak_before = pk0 > st->peak_before ? pk0 : st->peak_before;
		st->peak_live = pk1 > st->peak_live ? pk1 : st->peak_live;
	}
	if (st->moved && bits) {
		clear_bits(f);
		st->cleared = 1;
		if (f->in_ssa)
			ssa_uses(f);    /* a use may have gone with its slot */
	}
	sx_free(&c);
	return st->moved ? 0 : PassUnchanged;
}

int
pass_sched(Fn *f, Diag *d)
{
	return sched_fn(f, &opts, NULL, d);
}
