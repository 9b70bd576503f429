/* hazard.c: the hazard block of the timing model's control-bits mode. An instruction that reads
 * a register (R, P, UR, UP) before its producer's modelled latency (TSm.rready) is a hazard: nvcc's
 * stall counts say the hardware has the value sooner than the configuration does (a latency too
 * long), or the model tracks the dependency wrongly. Besides the count (SimTStats.hazards), each
 * hazard is kept as a (producer pc, consumer pc, latency, distance) pair, where the distance is
 * what nvcc's schedule gave: the sum of the stall counts the warp issued from the producer up to
 * the consumer (0 counting as 1). thaz_collect groups the pairs of every SM by producer opcode
 * with modifiers, consumer opcode, latency and distance (SimTStats.hazard_rows; docs/sim-stats.md
 * hazards_by_opcode, docs/calibration.md for how they are used).
 */
#include "tcore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
thaz_warp_new(THazWarp *h)
{
	h->prod = xmalloc(NRegUnit * sizeof *h->prod);
	h->issued = xmalloc(NRegUnit * sizeof *h->issued);
	h->enc = xmalloc(NRegUnit * sizeof *h->enc);
	thaz_warp_reset(h);
}

void
thaz_warp_free(THazWarp *h)
{
	free(h->prod);
	free(h->issued);
	free(h->enc);
	memset(h, 0, sizeof *h);
}

void
thaz_warp_reset(THazWarp *h)
{
	if (!h->prod)
		return;
	memset(h->prod, 0, NRegUnit * sizeof *h->prod);
	memset(h->issued, 0, NRegUnit * sizeof *h->issued);
	memset(h->enc, 0, NRegUnit * sizeof *h->enc);
	h->enc_now = 0;
}

void
thaz_sm_free(THazSm *h)
{
	free(h->v);
	memset(h, 0, sizeof *h);
}

static void
add_pair(THazSm *h, uint32_t prod, uint32_t cons, uint32_t lat, uint32_t stall)
{
	for (uint32_t k = 0; k < h->n; k++) {
		THazPair *p = &h->v[k];
		if (p->prod == prod && p->cons == cons && p->lat == lat && p->stall == stall) {
			p->count++;
			return;
		}
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->v = xrealloc(h->v, h->cap * sizeof *h->v);
	}
	h->v[h->n++] = (THazPair){prod, cons, lat, stall, 1};
}

/* u is the accumulator of a warpgroup MMA (a source it also writes): wgmma chained into one
 * accumulator keeps it in the tensor core (docs/sim-wgmma.md), so reading it there while the
 * previous wgmma is in flight is no hazard */
static int
gmma_acc(const TIns *ti, unsigned u)
{
	for (unsigned k = 0; k < ti->ndst; k++)
		if (ti->dst[k] == u)
			return 1;
	return 0;
}

void
thaz_read(TSm *s, TWarp *tw, uint32_t pc, uint64_t now)
{
	const TIns *ti = &s->L->ti[pc];
	const THazWarp *h = &tw->hz;
	uint32_t seen[MaxTSrc];
	unsigned nseen = 0;

	for (unsigned k = 0; k < ti->nsrc; k++) {
		unsigned u = ti->src[k], j;
		uint64_t ready = s->rready[treg(tw, u)];
		if (ready <= now + ti->src_late[k] || (ti->kind == KGmma && gmma_acc(ti, u)))
			continue;
		if (!nseen)
			s->hazards++;
		if (!h->prod)
			return;
		/* one row per producer: a register pair of one producer is one read */
		for (j = 0; j < nseen && seen[j] != h->prod[u]; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = h->prod[u];
		add_pair(&s->hz, h->prod[u], pc, (uint32_t)ready - h->issued[u],
		         h->enc_now - h->enc[u]);
	}
}

void
thaz_write(TWarp *tw, const TIns *ti, uint32_t pc, uint64_t now, unsigned stall)
{
	THazWarp *h = &tw->hz;

	if (!h->prod)
		return;
	for (unsigned k = 0; k < ti->ndst; k++) {
		unsigned u = ti->dst[k];
		if (u < NRegUnit) {
			h->prod[u] = pc;
			h->issued[u] = (uint32_t)now;
			h->enc[u] = h->enc_now;
		}
	}
	h->enc_now += stall ? stall : 1;
}

/* "IMAD.WIDE.U32": the opcode as written and its modifiers */
static void
ins_text(const Prog *p, uint32_t pc, int mods, char *buf, size_t n)
{
	const Ins *in = p->ins[pc].ir;
	size_t len;

	if (!in) {
		snprintf(buf, n, "%s", optab[p->ins[pc].op].name);
		return;
	}
	snprintf(buf, n, "%s", mstr(p->fn->mod, in->name));
	for (unsigned k = 0; mods && k < in->nmod; k++) {
		len = strlen(buf);
		snprintf(buf + len, n - len, ".%s", mstr(p->fn->mod, in->mod[k]));
	}
}

static int
row_order(const void *a, const void *b)
{
	const SimHazard *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if ((c = strcmp(x->producer, y->producer)) || (c = strcmp(x->consumer, y->consumer)))
		return c;
	if (x->latency != y->latency)
		return x->latency < y->latency ? -1 : 1;
	if (x->stall != y->stall)
		return x->stall < y->stall ? -1 : 1;
	return 0;
}

void
thaz_collect(const TLaunch *L, SimTStats *st)
{
	const Prog *p = L->prog;
	SimHazard *rows = NULL;
	uint32_t n = 0, cap = 0;

	for (uint32_t i = 0; i < L->nsm; i++) {
		const TSm *s = L->sms[i];
		if (!s)
			continue;
		for (uint32_t k = 0; k < s->hz.n; k++) {
			const THazPair *q = &s->hz.v[k];
			SimHazard r;
			uint32_t j;
			memset(&r, 0, sizeof r);
			ins_text(p, q->prod, 1, r.producer, sizeof r.producer);
			ins_text(p, q->cons, 0, r.consumer, sizeof r.consumer);
			r.latency = q->lat;
			r.stall = q->stall;
			r.count = q->count;
			r.producer_addr = p->ins[q->prod].addr;
			r.consumer_addr = p->ins[q->cons].addr;
			for (j = 0; j < n; j++)
				if (!strcmp(rows[j].producer, r.producer) &&
				    !strcmp(rows[j].consumer, r.consumer) && rows[j].latency == r.latency &&
				    rows[j].stall == r.stall)
					break;
			if (j < n) {
				/* the example: the lowest pair of addresses, whatever the SM order */
				if (r.producer_addr < rows[j].producer_addr ||
				    (r.producer_addr == rows[j].producer_addr &&
				     r.consumer_addr < rows[j].consumer_addr)) {
					rows[j].producer_addr = r.producer_addr;
					rows[j].consumer_addr = r.consumer_addr;
				}
				rows[j].count += r.count;
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				rows = xrealloc(rows, cap * sizeof *rows);
			}
			rows[n++] = r;
		}
	}
	if (n)
		qsort(rows, n, sizeof *rows, row_order);
	st->hazard_rows = rows;
	st->nhazard_rows = n;
}
