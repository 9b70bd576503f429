/* mmabank.c: the pass mma-banks (docs/pass-mma-banks.md). It counts the operand-read conflicts
 * of the tensor-core instructions (HMMA, IMMA, BMMA, DMMA, QMMA) and of every instruction that
 * reads one of their operand registers, in the SIMT model and in the FIBER model, with the
 * functions the simulator charges them with (ir/banks.c), then lowers them: it moves whole
 * register groups of MMA operands to free registers of better banks and adds .reuse flags where
 * the next read of the same operand slot and bank is the same register.
 * Preconditions: CFG (blocks); physical registers (run it out of SSA: in SSA form it only counts
 * and adds .reuse flags, since a rename would have to follow the values). Renames only in a
 * kernel (an entry: a device function's registers are its callers' ABI) with no CALL, to
 * registers no instruction names, below the kernel's register count. f->plan NULL: it counts
 * and changes nothing.
 */
#include "fpasses.h"
#include "banks.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
	MaxR = 256,        /* R register numbers (RZ = 255 carries no value) */
	ReuseScan = 64,    /* instructions looked ahead for the next read of a slot and bank */
};

/* the static model: the figures of the configuration the plan was made for */
typedef struct Model {
	unsigned banks;    /* rf_banks */
	BankFiber fib;     /* the FIBER file */
	unsigned nsub;     /* sub-partitions */
	uint32_t wbase;    /* window of weft 0: base and registers */
	uint32_t wregs;
	const struct Reads *pre; /* every instruction's reads (Fn.ins order) with the input's
	                     register numbers, computed once; a rename map is applied to them */
} Model;

/* one instruction's bank reads, and the operand each slot is */
typedef struct Reads {
	BankReads r;
	uint8_t opnd[BankSlots];   /* operand index of slot s, 255 none */
} Reads;

typedef struct Count {
	unsigned simt, fiber;      /* conflicts of the counted instructions */
} Count;

typedef struct Buf {
	char *s;
	size_t n, cap;
} Buf;

static void
bprintf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			return;
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		b->cap = (b->cap + (size_t)k + 1) * 2;
		char *t = xmalloc(b->cap);
		if (b->s)
			memcpy(t, b->s, b->n + 1);
		free(b->s);
		b->s = t;
	}
}

static int
is_mma(const Ins *i)
{
	return i->op == OHMMA || i->op == OIMMA || i->op == OBMMA || i->op == ODMMA ||
	       i->op == OQMMA;
}

static int
is_rreg(Reg r)
{
	return RCLS(r) == RR && RNUM(r) < RegRZ;
}

/* the first source operand: past the leading definitions (the decoder's default split) */
static unsigned
first_src(const Ins *i)
{
	unsigned nd = optab[i->op].ndef;

	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SDef && i->slot[s].opnd != SlotGuard &&
		    i->slot[s].opnd + 1u > nd)
			nd = i->slot[s].opnd + 1u;
	return nd < i->nopnd ? nd : i->nopnd;
}

/* the SIMT bank reads of i, as the simulator's decoder and timing/sm.c collect them; map renames
 * R registers (NULL: none) */
static void
reads_of(const Ins *i, const uint8_t *map, Reads *out)
{
	uint8_t kind[MaxOpnd] = {0}, opi[MaxOpnd] = {0};
	uint16_t reg[MaxOpnd] = {0};
	unsigned n = 0;

	for (unsigned k = first_src(i); k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		unsigned c = RCLS(o->r[0]);
		kind[n] = BankSrcOther;
		reg[n] = 0;
		if (o->kind == OReg && c == RR) {
			kind[n] = BankSrcR;
			reg[n] = (uint16_t)RNUM(o->r[0]);
			if (map && reg[n] < RegRZ)
				reg[n] = map[reg[n]];
		} else if ((o->kind == OReg && c == RUR) || o->kind == OImm || o->kind == OFImm ||
		           o->kind == OCBank) {
			kind[n] = BankSrcSlot;
		}
		opi[n++] = (uint8_t)k;
	}
	bank_collect(kind, reg, n, &out->r);
	memset(out->opnd, 255, sizeof out->opnd);
	/* which operand is slot s: the s-th slot-taking source */
	for (unsigned k = 0, slot = 0; k < n && slot < BankSlots; k++)
		if (kind[k] != BankSrcOther)
			out->opnd[slot++] = opi[k];
}

/* the remote-read conflicts of i's V sources for weft 0 (FIBER model) */
/* the reads of instruction k under rename map (NULL: none), from the precomputed ones (a map is
 * one-to-one, so the repeated-register rule of bank_collect is unchanged by it) */
static void
read_mapped(const Model *m, uint32_t k, const uint8_t *map, Reads *r)
{
	*r = m->pre[k];
	if (map)
		for (unsigned q = 0; q < r->r.n; q++)
			r->r.reg[q] = map[r->r.reg[q]];
}

static unsigned
remote_of(const Model *m, const Ins *i)
{
	BankRemote rr;
	int any = 0;

	for (unsigned s = 0; s < i->nslot && !any; s++)
		any = i->slot[s].kind == SUse && RCLS(i->slot[s].reg) == RV &&
		      i->slot[s].opnd != SlotGuard;
	if (!any)
		return 0;      /* no absolute source: nothing crosses the crossbar */
	any = 0;
	bank_remote_start(&rr);
	for (unsigned s = 0; s < i->nslot; s++) {
		const Slot *sl = &i->slot[s];
		if (sl->kind != SUse || RCLS(sl->reg) != RV || sl->opnd == SlotGuard)
			continue;
		for (unsigned j = 0; j < sl->n; j++)
			bank_remote_read(&m->fib, &rr, RNUM(sl->reg) + j, 0, m->wbase, m->wregs);
		any = 1;
	}
	return any && rr.remote ? bank_remote_end(&m->fib, &rr) : 0;
}

/* the reuse flags of i (its control bits'), with the added ones */
static unsigned
flags_of(const Ins *i, const uint8_t *add, uint32_t k)
{
	return i->ctrl.has ? (i->ctrl.reuse | (add ? add[k] : 0u)) : 0u;
}

/* the conflicts of the counted instructions (cnt[k], by Fn.ins index) of block bk with rename map
 * and added reuse flags; per instruction into simt[k] / fiber[k] when not NULL. The reuse cache
 * starts empty in each block and is one warp's (the static model: no other warp interleaves). */
static Count
count_block(Fn *f, Blk *bk, const Model *m, const uint8_t *cnt, const uint8_t *map,
            const uint8_t *add, uint8_t *simt, uint8_t *fiber)
{
	Count c = {0, 0};
	BankReuse cache;

	bank_reuse_clear(&cache);
	for (uint32_t j = 0; j < bk->nins; j++) {
		Ins *i = &bk->ins[j];
		uint32_t k = (uint32_t)(i - f->ins);
		Reads r;
		read_mapped(m, k, map, &r);
		unsigned s = bank_simt_conflicts(&r.r, m->banks, 1, &cache, 0, flags_of(i, add, k), NULL);
		unsigned v = s + remote_of(m, i);
		if (simt)
			simt[k] = (uint8_t)(s > 255 ? 255 : s);
		if (fiber)
			fiber[k] = (uint8_t)(v > 255 ? 255 : v);
		if (cnt[k]) {
			c.simt += s;
			c.fiber += v;
		}
	}
	return c;
}

static Count
count(Fn *f, const Model *m, const uint8_t *cnt, const uint8_t *map, const uint8_t *add,
      uint8_t *simt, uint8_t *fiber)
{
	Count c = {0, 0};

	for (uint32_t b = 0; b < f->nblk; b++) {
		Count x = count_block(f, f->blk[b], m, cnt, map, add, simt, fiber);
		c.simt += x.simt;
		c.fiber += x.fiber;
	}
	return c;
}

/* count() over the blocks blk[0..n-1] only: a rename of one group changes only the blocks that
 * name a register of it */
static Count
count_some(Fn *f, Blk **blk, uint32_t n, const Model *m, const uint8_t *cnt, const uint8_t *map)
{
	Count c = {0, 0};

	for (uint32_t b = 0; b < n; b++) {
		Count x = count_block(f, blk[b], m, cnt, map, NULL, NULL, NULL);
		c.simt += x.simt;
		c.fiber += x.fiber;
	}
	return c;
}

/* union-find over R registers: the registers one slot covers move together */
static unsigned
find(uint16_t *up, unsigned r)
{
	while (up[r] != r)
		r = up[r] = up[up[r]];
	return r;
}

static unsigned
pow2ceil(unsigned n)
{
	unsigned p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* add .reuse flags: slot s of read r in i where the next read of slot s and the same bank in the
 * block (within ReuseScan instructions) is of r, with no write to r between, and the hit lowers
 * the block's counted conflicts (a flag only turns the next read of its slot and bank into a hit:
 * each is tried in program order and kept when it helps); returns flags added (into add[]) */
/* the counted conflicts (simt + fiber) of instruction k read with cache, which it updates */
static unsigned
conf_step(Fn *f, const Model *m, const uint8_t *cnt, const uint8_t *map, const uint8_t *add,
          uint32_t k, BankReuse *cache)
{
	const Ins *i = &f->ins[k];
	Reads r;
	read_mapped(m, k, map, &r);
	unsigned sc = bank_simt_conflicts(&r.r, m->banks, 1, cache, 0, flags_of(i, add, k), NULL);

	return cnt[k] ? 2 * sc + remote_of(m, i) : 0;
}

static int
reuse_flags(Fn *f, const Model *m, const uint8_t *cnt, const uint8_t *map, uint8_t *add)
{
	int n = 0;
	uint32_t most = 0;
	BankReuse *st;      /* st[j]: the cache before instruction j of the block */
	unsigned *cs;       /* cs[j]: the counted conflicts of instruction j */

	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->nins > most)
			most = f->blk[b]->nins;
	st = xmalloc((most + 1) * sizeof *st);
	cs = xmalloc((most + 1) * sizeof *cs);
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		uint32_t base = (uint32_t)(bk->ins - f->ins);
		bank_reuse_clear(&st[0]);
		for (uint32_t j = 0; j < bk->nins; j++) {
			st[j + 1] = st[j];
			cs[j] = conf_step(f, m, cnt, map, add, base + j, &st[j + 1]);
		}
		for (uint32_t j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			uint32_t k = base + j;
			Reads r;
			if (!i->ctrl.has)
				continue;
			read_mapped(m, k, map, &r);
			for (unsigned q = 0; q < r.r.n; q++) {
				unsigned reg = r.r.reg[q], slot = r.r.slot[q];
				unsigned bank = bank_simt_of(reg, 0, m->banks);
				uint32_t hit = 0;
				int stop = 0;
				if ((i->ctrl.reuse | add[k]) >> slot & 1)
					continue;
				for (uint32_t t = j + 1; t < bk->nins && t <= j + ReuseScan && !stop; t++) {
					Ins *x = &bk->ins[t];
					Reads xr;
					read_mapped(m, (uint32_t)(x - f->ins), map, &xr);
					for (unsigned p = 0; p < xr.r.n; p++)
						if (xr.r.slot[p] == slot &&
						    bank_simt_of(xr.r.reg[p], 0, m->banks) == bank) {
							hit = xr.r.reg[p] == reg ? t : 0;
							stop = 1;
						}
					for (unsigned s = 0; s < x->nslot && !stop; s++) {
						const Slot *sl = &x->slot[s];
						unsigned lo = is_rreg(sl->reg) ? RNUM(sl->reg) : MaxR;
						if (sl->kind != SDef || lo == MaxR)
							continue;
						for (unsigned w = 0; w < sl->n && lo + w < MaxR; w++)
							if ((map ? map[lo + w] : lo + w) == reg)
								stop = 1;
					}
				}
				if (!hit || !cnt[base + hit])
					continue;
				/* recount from j with the flag, until the cache is again what it was
				 * without it: the rest of the block counts the same */
				add[k] |= (uint8_t)(1u << slot);
				BankReuse c = st[j];
				long delta = 0;
				uint32_t t = j, end;
				unsigned nc[ReuseScan + 2];
				for (;;) {
					nc[t - j] = conf_step(f, m, cnt, map, add, base + t, &c);
					delta += (long)nc[t - j] - (long)cs[t];
					t++;
					if (t >= bk->nins || (t > hit && memcmp(&c, &st[t], sizeof c) == 0) ||
					    t - j > ReuseScan)
						break;
				}
				end = t;
				if (end < bk->nins && memcmp(&c, &st[end], sizeof c) != 0) {
					/* did not settle within the window: count the rest too */
					for (; t < bk->nins; t++) {
						BankReuse tmp = c;
						delta += (long)conf_step(f, m, cnt, map, add, base + t, &tmp) - (long)cs[t];
						c = tmp;
					}
					if (delta < 0) {   /* accepted: the block's states from j on */
						for (uint32_t u = j; u < bk->nins; u++) {
							st[u + 1] = st[u];
							cs[u] = conf_step(f, m, cnt, map, add, base + u, &st[u + 1]);
						}
					}
				} else if (delta < 0) {
					BankReuse w = st[j];
					for (uint32_t u = j; u < end; u++) {
						cs[u] = nc[u - j];
						conf_step(f, m, cnt, map, add, base + u, &w);
						st[u + 1] = w;
					}
				}
				if (delta < 0)
					n++;
				else
					add[k] &= (uint8_t)~(1u << slot);
			}
		}
	}
	free(st);
	free(cs);
	return n;
}

static void
report(Buf *rb, Fn *f, const Model *m, const uint8_t *map, const uint8_t *add,
       const uint8_t *sb, const uint8_t *fb, const uint8_t *sa, const uint8_t *fa)
{
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		Reads r;
		if (!is_mma(i))
			continue;
		reads_of(i, NULL, &r);
		if (i->addr >= 0)
			bprintf(rb, "//   /*%04llx*/", (unsigned long long)i->addr);
		else
			bprintf(rb, "//   #%u", (unsigned)k);
		bprintf(rb, " %s", mstr(f->mod, i->name));
		for (unsigned q = 0; q < i->nmod; q++)
			bprintf(rb, ".%s", mstr(f->mod, i->mod[q]));
		for (unsigned s = 0; s < BankSlots; s++) {
			static const char slotname[] = "ABC";
			unsigned q, reg;
			if (r.opnd[s] == 255)
				continue;
			for (q = 0; q < r.r.n && r.r.slot[q] != s; q++)
				;
			if (q == r.r.n) {
				const Opnd *o = &i->opnd[r.opnd[s]];
				bprintf(rb, "  %c %s", slotname[s],
				        o->kind == OReg && RNUM(o->r[0]) == RegRZ ? "RZ" : "-");
				continue;
			}
			reg = r.r.reg[q];
			bprintf(rb, "  %c R%u b%u", slotname[s], reg, bank_simt_of(reg, 0, m->banks));
			if (map[reg] != reg)
				bprintf(rb, "->R%u b%u", map[reg], bank_simt_of(map[reg], 0, m->banks));
			if ((flags_of(i, NULL, k) | add[k]) >> s & 1)
				bprintf(rb, "%s", add[k] >> s & 1 ? " +reuse" : " reuse");
		}
		bprintf(rb, "   simt %u -> %u  fiber %u -> %u\n", sb[k], sa[k], fb[k], fa[k]);
	}
}

/* the static model of the plan's configuration (defaults without a plan) */
static void
model_of(const Fn *f, const FPlan *p, Model *m)
{
	memset(m, 0, sizeof *m);
	m->banks = p && p->banks > 0 ? (unsigned)p->banks : 2;
	m->fib.slice_regs = p && p->slice_regs > 0 ? (unsigned)p->slice_regs : FiberSliceRegs;
	m->fib.banks = p && p->fiber_banks > 0 ? (unsigned)p->fiber_banks : 2;
	m->fib.ports = p && p->read_ports > 0 ? (unsigned)p->read_ports : 1;
	m->fib.xbar_width = 1;
	m->nsub = p && p->nsub > 0 ? (unsigned)p->nsub : 4;
	m->wregs = p && p->window > 0 ? (uint32_t)p->window
	                              : f->info.regcount > 0 ? (uint32_t)f->info.regcount : MaxR;
	m->wbase = bank_fiber_window(&m->fib, 0, m->nsub, m->wregs);
}

/* what the pass knows of the function's R registers */
typedef struct Regs {
	uint8_t map[MaxR];     /* the rename: R<r> becomes R<map[r]> */
	uint8_t used[MaxR];    /* named by an instruction (or taken by a rename) */
	uint16_t up[MaxR];     /* union-find: the registers one slot covers share a root (find) */
	unsigned align[MaxR];  /* the alignment of a tuple that starts at r */
	unsigned limit;        /* a rename stays below this: the kernel's register count */
} Regs;

/* the register groups, their alignment and the registers named anywhere; returns the MMA
 * instructions, *why set when the function calls another (no rename then) */
static unsigned
scan_regs(Fn *f, Regs *g, const char **why)
{
	unsigned mma = 0;

	for (unsigned r = 0; r < MaxR; r++) {
		g->map[r] = (uint8_t)r;
		g->up[r] = (uint16_t)r;
		g->align[r] = 1;
		g->used[r] = 0;
	}
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		if (is_mma(i))
			mma++;
		if ((optab[i->op].flags & OFCall) && !(i->nopnd && i->opnd[0].kind == OLabel))
			*why = "the kernel calls another function";
		for (unsigned s = 0; s < i->nslot; s++) {
			const Slot *sl = &i->slot[s];
			unsigned lo = RNUM(sl->reg), n = sl->n ? sl->n : 1;
			if (!is_rreg(sl->reg))
				continue;
			for (unsigned w = 0; w < n && lo + w < RegRZ; w++) {
				g->used[lo + w] = 1;
				g->up[find(g->up, lo + w)] = (uint16_t)find(g->up, lo);
			}
			if (pow2ceil(n) > g->align[lo])
				g->align[lo] = pow2ceil(n);
		}
		for (unsigned o = 0; o < i->nopnd; o++)
			for (unsigned fl = 0; fl < 3; fl++)
				if (is_rreg(i->opnd[o].r[fl]))
					g->used[RNUM(i->opnd[o].r[fl])] = 1;
	}
	g->limit = f->info.regcount > 0 ? (unsigned)f->info.regcount : 0;
	if (!g->limit)
		for (unsigned r = 0; r < RegRZ; r++)
			if (g->used[r])
				g->limit = r + 1;
	if (g->limit > RegRZ)
		g->limit = RegRZ;
	return mma;
}

/* cnt[k]: instruction k is counted, an MMA or a reader of a register of an MMA operand's group */
static void
mark_counted(Fn *f, Regs *g, uint8_t *cnt)
{
	uint8_t ingroup[MaxR] = {0};

	memset(cnt, 0, f->nins);
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		if (!is_mma(i))
			continue;
		cnt[k] = 1;
		for (unsigned s = 0; s < i->nslot; s++)
			if (is_rreg(i->slot[s].reg))
				ingroup[find(g->up, RNUM(i->slot[s].reg))] = 1;
	}
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		for (unsigned s = 0; s < i->nslot && !cnt[k]; s++)
			if (i->slot[s].kind != SDef && is_rreg(i->slot[s].reg) &&
			    ingroup[find(g->up, RNUM(i->slot[s].reg))])
				cnt[k] = 1;
	}
}

/* bregs[b]: the R registers block b names (4 words of 64 bits), none if it counts nothing: a
 * group's trials are counted over the blocks that name one of its registers */
static void
block_regs(Fn *f, const uint8_t *cnt, uint64_t (*bregs)[4])
{
	memset(bregs, 0, (f->nblk ? f->nblk : 1) * sizeof *bregs);
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *bk = f->blk[b];
		int counted = 0;
		for (uint32_t j = 0; j < bk->nins; j++) {
			Ins *i = &bk->ins[j];
			counted |= cnt[i - f->ins];
			for (unsigned s = 0; s < i->nslot; s++)
				if (is_rreg(i->slot[s].reg)) {
					unsigned lo = RNUM(i->slot[s].reg), n = i->slot[s].n ? i->slot[s].n : 1;
					for (unsigned w = 0; w < n && lo + w < RegRZ; w++)
						bregs[b][(lo + w) / 64] |= 1ull << (lo + w) % 64;
				}
		}
		if (!counted)
			memset(bregs[b], 0, sizeof bregs[b]);   /* nothing it counts can change */
	}
}

/* group root: moved to the base (lo + a multiple of its alignment, registers free and below the
 * limit) that lowers the count over the blocks naming it most, if any lowers it; some is
 * scratch for those blocks. Returns the registers renamed */
static unsigned
rename_group(Fn *f, const Model *m, const uint8_t *cnt, Regs *g, unsigned root,
             uint64_t (*bregs)[4], Blk **some)
{
	unsigned a = 1, best_d = 0, lo = MaxR, hi = 0, moved = 0;
	uint64_t gset[4] = {0};
	uint32_t nsome = 0;
	Count cur, best;

	for (unsigned r = 0; r < RegRZ; r++)
		if (g->used[r] && find(g->up, r) == root) {
			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
			if (g->align[r] > a)
				a = g->align[r];
		}
	for (unsigned r = 0; r < RegRZ; r++)
		if (g->used[r] && find(g->up, r) == root)
			gset[r / 64] |= 1ull << r % 64;
	for (uint32_t b = 0; b < f->nblk; b++)
		if ((bregs[b][0] & gset[0]) | (bregs[b][1] & gset[1]) |
		    (bregs[b][2] & gset[2]) | (bregs[b][3] & gset[3]))
			some[nsome++] = f->blk[b];
	best = cur = count_some(f, some, nsome, m, cnt, g->map);
	/* new bases t = lo + a multiple of the group's alignment */
	for (unsigned t = lo % a; t + (hi - lo) < g->limit; t += a) {
		unsigned dlt = t - lo, ok = 1, dist = t > lo ? t - lo : lo - t;
		uint8_t trial[MaxR];
		Count c;
		if (dist % m->banks == 0)
			continue;     /* the same banks (t == lo too): nothing to gain */
		memcpy(trial, g->map, sizeof trial);
		for (unsigned r = lo; r <= hi && ok; r++)
			if (g->used[r] && find(g->up, r) == root) {
				unsigned to = r + dlt;
				if (to >= g->limit || g->used[to])
					ok = 0;
				else
					trial[r] = (uint8_t)to;
			}
		if (!ok)
			continue;
		c = count_some(f, some, nsome, m, cnt, trial);
		if (c.simt + c.fiber < best.simt + best.fiber) {
			best = c;
			best_d = t;
		}
	}
	if (best.simt + best.fiber >= cur.simt + cur.fiber)
		return 0;
	for (unsigned r = lo; r <= hi; r++)
		if (g->used[r] && find(g->up, r) == root) {
			unsigned to = r + (best_d - lo);
			g->map[r] = (uint8_t)to;
			g->used[to] = 1;      /* taken now */
			moved++;
		}
	for (unsigned r = lo; r <= hi; r++)
		if (g->map[r] != r && find(g->up, r) == root)
			g->used[r] = 0;       /* free again: nothing names it any more */
	return moved;
}

/* each group of an MMA operand, in program order, renamed by rename_group; *groups: the groups
 * tried. Returns the registers renamed */
static unsigned
rename_groups(Fn *f, const Model *m, const uint8_t *cnt, Regs *g, unsigned *groups)
{
	uint8_t tried[MaxR] = {0};
	uint64_t (*bregs)[4] = xmalloc((f->nblk ? f->nblk : 1) * sizeof *bregs);
	Blk **some = xmalloc((f->nblk ? f->nblk : 1) * sizeof *some);
	unsigned moved = 0;

	block_regs(f, cnt, bregs);
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		if (!is_mma(i))
			continue;
		for (unsigned s = 0; s < i->nslot; s++) {
			unsigned root;
			if (!is_rreg(i->slot[s].reg))
				continue;
			root = find(g->up, RNUM(i->slot[s].reg));
			if (tried[root])
				continue;        /* tried already (another operand of the group) */
			tried[root] = 1;
			(*groups)++;
			moved += rename_group(f, m, cnt, g, root, bregs, some);
		}
	}
	free(bregs);
	free(some);
	return moved;
}

/* the IR changes: every R field of every operand and slot renamed by map (when moved), the
 * encoding words' register fields with them; the .reuse flags of add */
static void
apply(Fn *f, const uint8_t *map, unsigned moved, const uint8_t *add, int flags)
{
	for (uint32_t k = 0; moved && k < f->nins; k++) {
		Ins *i = &f->ins[k];
		for (unsigned o = 0; o < i->nopnd; o++)
			for (unsigned fl = 0; fl < 3; fl++) {
				Reg r = i->opnd[o].r[fl];
				if (is_rreg(r))
					i->opnd[o].r[fl] = REG(RR, map[RNUM(r)]);
			}
		for (unsigned s = 0; s < i->nslot; s++)
			if (is_rreg(i->slot[s].reg))
				i->slot[s].reg = REG(RR, map[RNUM(i->slot[s].reg)]);
		enc_remap(i, map);   /* the encoding words' register fields follow */
	}
	for (uint32_t k = 0; flags && k < f->nins; k++) {
		Ins *i = &f->ins[k];
		Reads r;
		if (!add[k])
			continue;
		reads_of(i, NULL, &r);
		i->ctrl.reuse |= add[k];
		for (unsigned s = 0; s < BankSlots; s++)
			if ((add[k] >> s & 1) && r.opnd[s] != 255)
				i->opnd[r.opnd[s]].flags |= FReuse;
	}
}

int
pass_mma_banks(Fn *f, Diag *d)
{
	FPlan *p = f->plan;
	Model m;
	Regs *g;
	uint8_t *cnt, *add, *sb, *fb, *sa, *fa;
	unsigned mma, groups = 0, moved = 0;
	int flags = 0;
	const char *why = NULL;
	Count before, after;
	Buf rb = {0}, head = {0};

	(void)d;
	if (!f->blk || !f->nins)
		return 0;
	model_of(f, p, &m);
	g = xmalloc(sizeof *g);
	mma = scan_regs(f, g, &why);
	if (!mma) {
		free(g);
		return 0;
	}
	cnt = xmalloc(f->nins);
	add = xmalloc(f->nins);
	sb = xmalloc(f->nins), fb = xmalloc(f->nins), sa = xmalloc(f->nins), fa = xmalloc(f->nins);
	mark_counted(f, g, cnt);
	Reads *pre = xmalloc(f->nins * sizeof *pre);   /* every instruction's reads, once */
	for (uint32_t k = 0; k < f->nins; k++)
		reads_of(&f->ins[k], NULL, &pre[k]);
	m.pre = pre;
	before = count(f, &m, cnt, NULL, NULL, sb, fb);

	/* renames: with a plan, out of SSA, in a kernel that calls no other function */
	if (p && f->in_ssa)
		why = "in SSA form";
	else if (p && !f->info.is_entry)
		why = "a device function (its registers are the ABI)";
	if (p && !why)
		moved = rename_groups(f, &m, cnt, g, &groups);
	memset(add, 0, f->nins);
	if (p)
		flags = reuse_flags(f, &m, cnt, g->map, add);
	after = count(f, &m, cnt, g->map, add, sa, fa);
	free(pre);
	if (p) {
		report(&rb, f, &m, g->map, add, sb, fb, sa, fa);   /* before the IR changes */
		apply(f, g->map, moved, add, flags);
		p->mma_ops = (int)mma;
		p->simt_conf_before = (int)before.simt;
		p->simt_conf_after = (int)after.simt;
		p->fiber_conf_before = (int)before.fiber;
		p->fiber_conf_after = (int)after.fiber;
		p->renamed = (int)moved;
		bprintf(&head, "// mma-banks %s: %u MMA instructions; conflicts SIMT %u -> %u, FIBER %u -> "
		        "%u; %u registers renamed (%u groups tried), %d .reuse flags added%s%s\n",
		        mstr(f->mod, f->name), mma, before.simt, after.simt, before.fiber, after.fiber,
		        moved, groups, flags, why ? "; not renamed: " : "", why ? why : "");
		if (rb.s) {
			char *t = arena_alloc(f->mod->arena, strlen(head.s) + rb.n + 1);
			memcpy(t, head.s, strlen(head.s));
			memcpy(t + strlen(head.s), rb.s, rb.n + 1);
			p->report = t;
		} else {
			p->report = arena_strndup(f->mod->arena, head.s, strlen(head.s));
		}
		free(head.s);
	}
	free(rb.s);
	free(g);
	free(cnt), free(add), free(sb), free(fb), free(sa), free(fa);
	return 0;
}
