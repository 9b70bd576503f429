/* racecheck.c: shared-memory hazards between threads (fibersim --racecheck). Each byte of a
 * CTA's shared memory has a shadow cell: its last write and up to two reads from different
 * warps, each with the CTA's barrier generation, the warp's tick, the warp, lane and instruction.
 * The generation grows whenever a CTA barrier completes or a fence runs (check.c), so two
 * accesses of different warps in the same generation are not ordered: a read after another
 * thread's write (RAW), a write after its read (WAR) or write (WAW) is a hazard. Lanes of one warp
 * are not ordered either (sm_70+): each warp counts its memory instructions and warp barriers
 * (its tick) and keeps per lane the tick of its last warp barrier, so two accesses of different
 * lanes are ordered only if both lanes passed a warp barrier after the earlier one. A slot that
 * takes a new CTA goes on from the generation it had, so the old cells never match. Atomics are
 * not hazards, nor the lanes of one instruction among themselves.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

typedef struct RcAcc {
	uint32_t gen;          /* barrier generation of the access; 0: none */
	uint32_t pc;           /* instruction index */
	uint32_t tick;         /* its warp's tick (RcWarp) when it ran */
	uint16_t warp;         /* warp in the CTA */
	uint8_t lane;          /* lane in the warp */
	uint8_t pad;           /* unused */
} RcAcc;

typedef struct RcWarp {
	uint32_t tick;         /* memory instructions and warp barriers the warp ran in this CTA */
	uint32_t sync[WarpSize]; /* per lane, the tick of the last warp barrier it passed */
} RcWarp;

typedef struct RcCell {
	RcAcc w;               /* the last write */
	RcAcc r[2];            /* reads of the current generation by two different warps */
} RcCell;

struct ChkCta {
	Cta *cta;              /* the slot */
	uint32_t gen;          /* the CTA's barrier generation (continues across the slot's CTAs) */
	uint32_t size;         /* bytes of shared memory shadowed */
	uint32_t nwarp;        /* warps of the CTA, entries of warp[] */
	RcWarp *warp;          /* per warp, the ordering of its lanes */
	RcCell *cell;          /* one per byte */
	uint8_t *polled;       /* per byte, 1: read by a load that polls a flag (check.c) */
};

static const char *const kind_name[] = {
	[ChkRaw] = "RAW",
	[ChkWar] = "WAR",
	[ChkWaw] = "WAW",
};

const char *
race_kind_name(int kind)
{
	return kind >= 0 && kind <= ChkWaw ? kind_name[kind] : "?";
}

ChkCta *
race_cta_new(Cta *c, uint32_t size)
{
	ChkCta *s = xmalloc(sizeof *s);

	s->cta = c;
	s->gen = 0;
	s->size = size;
	s->cell = calloc(size ? size : 1, sizeof *s->cell);
	s->polled = calloc(size ? size : 1, 1);
	if (!s->cell || !s->polled)
		die("racecheck: out of memory for %u bytes of shared memory", size);
	s->nwarp = 0;
	s->warp = NULL;
	return s;
}

Cta *
race_cta_of(const ChkCta *s)
{
	return s->cta;
}

void
race_cta_start(ChkCta *s, const Cta *c)
{
	if (c->smem_size > s->size) {   /* a launch's CTAs all have the same size: not expected */
		free(s->cell);
		free(s->polled);
		s->cell = calloc(c->smem_size, sizeof *s->cell);
		s->polled = calloc(c->smem_size, 1);
		if (!s->cell || !s->polled)
			die("racecheck: out of memory for %u bytes of shared memory", c->smem_size);
		s->size = c->smem_size;
		s->gen = 0;
	}
	s->gen += 2;   /* past the last generation of the slot's previous CTA */
	if (c->nwarp > s->nwarp) {
		free(s->warp);
		s->warp = xmalloc((size_t)c->nwarp * sizeof *s->warp);
		s->nwarp = c->nwarp;
	}
	memset(s->warp, 0, (size_t)s->nwarp * sizeof *s->warp);   /* old cells: older gen */
}

/* the ordering state of warp w, grown if the CTA has more warps than at its start */
static RcWarp *
warp_of(ChkCta *s, uint32_t w)
{
	if (w >= s->nwarp) {
		s->warp = xrealloc(s->warp, ((size_t)w + 1) * sizeof *s->warp);
		memset(s->warp + s->nwarp, 0, ((size_t)w + 1 - s->nwarp) * sizeof *s->warp);
		s->nwarp = w + 1;
	}
	return &s->warp[w];
}

void
race_cta_free(ChkCta *s)
{
	if (!s)
		return;
	free(s->cell);
	free(s->polled);
	free(s->warp);
	free(s);
}

int
race_polled(const ChkCta *s, uint32_t a)
{
	return a < s->size && s->polled[a];
}

void
race_barrier(ChkCta *s)
{
	s->gen++;
}

void
race_warp_sync(ChkCta *s, uint32_t warp, uint32_t lanes)
{
	RcWarp *w;

	if (!lanes)
		return;
	w = warp_of(s, warp);
	w->tick++;
	for (uint32_t m = lanes; m; m &= m - 1)
		w->sync[__builtin_ctz(m)] = w->tick;
}

/* whether the earlier access e conflicts with one by lane `lane` of warp `warp` at tick `tick`
 * (both in the current generation): another warp's, or another lane's of the same warp by an
 * earlier instruction that the two lanes have not both passed a warp barrier since */
static int
unordered(const ChkCta *s, const RcAcc *e, uint32_t warp, unsigned lane, uint32_t tick)
{
	const RcWarp *w;

	if (e->warp != warp)
		return 1;
	if (e->lane == lane || e->tick == tick)
		return 0;
	w = &s->warp[warp];
	return w->sync[e->lane] <= e->tick || w->sync[lane] <= e->tick;
}

static void
hazard(Exec *x, int kind, const RcAcc *first, int first_write, uint32_t pc, unsigned lane,
       int write, uint32_t addr)
{
	ChkFind f;

	memset(&f, 0, sizeof f);
	f.kind = (uint8_t)kind;
	f.pc[0] = first->pc;
	f.pc[1] = pc;
	f.write[0] = (uint8_t)first_write;
	f.write[1] = (uint8_t)write;
	f.warp[0] = first->warp;
	f.warp[1] = x->w->id;
	f.lane[0] = first->lane;
	f.lane[1] = (uint8_t)lane;
	f.addr = addr;
	memcpy(f.cta, x->cta->ctaid, sizeof f.cta);
	sim_check_find(x, &f);
}

/* one lane's access of n bytes at shared offset a by the instruction of the warp's tick; one
 * hazard at most per access */
static void
lane_access(Exec *x, ChkCta *s, uint32_t pc, unsigned lane, uint32_t a, unsigned n, int write,
            uint32_t tick)
{
	uint32_t gen = s->gen, warp = x->w->id;
	RcAcc me = { gen, pc, tick, (uint16_t)warp, (uint8_t)lane, 0 };
	int found = 0;

	if (a >= s->size)
		return;
	if (n > s->size - a)
		n = s->size - a;
	for (uint32_t b = a; b < a + n; b++) {
		RcCell *c = &s->cell[b];
		if (!found && c->w.gen == gen && unordered(s, &c->w, warp, lane, tick)) {
			hazard(x, write ? ChkWaw : ChkRaw, &c->w, 1, pc, lane, write, b);
			found = 1;
		}
		if (write) {
			for (int k = 0; k < 2 && !found; k++)
				if (c->r[k].gen == gen && unordered(s, &c->r[k], warp, lane, tick)) {
					hazard(x, ChkWar, &c->r[k], 0, pc, lane, write, b);
					found = 1;
				}
			c->w = me;
		} else if (c->r[0].gen != gen || c->r[0].warp == warp) {
			c->r[0] = me;
		} else if (c->r[1].gen != gen || c->r[1].warp == warp) {
			c->r[1] = me;
		}
	}
}

/* the accesses of one instruction (check.c): shared ones, and generic ones in the shared window;
 * a load that polls a flag (spin) marks the bytes it reads, whose hazards are then not reported */
void
race_access(Exec *x, ChkCta *s, const DIns *d, const MemAcc *a, int spin)
{
	uint32_t tick;
	int write;

	if (a->kind == MKAtomic || a->kind == MKRed)
		return;
	if (a->space != MSShared && a->space != MSGeneric)
		return;
	tick = ++warp_of(s, x->w->id)->tick;
	write = a->kind == MKStore;
	for (uint32_t m = a->mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t ad = a->addr[l];
		if (a->space == MSGeneric) {
			if (ad - SimSharedWindow >= SimWindowSize)
				continue;
			ad -= SimSharedWindow;
		}
		if (ad >= s->size)
			continue;
		if (spin && !write) {
			memset(s->polled + ad, 1, a->size < s->size - ad ? a->size : s->size - ad);
			continue;
		}
		lane_access(x, s, d->pc, l, (uint32_t)ad, a->size, write, tick);
	}
}
