/* async.c: effects that complete after the instruction that started them (Hopper's bulk copies
 * and the mbarrier transaction bytes they complete) and the sm_90 mbarrier word. The functional
 * driver applies an effect at once; the timing driver queues it on the SM with its completion
 * cycle and drains it when a warp next looks at an mbarrier, or when its CTA ends. The bytes a
 * copy reads are read at issue in both, so both drivers write the same values.
 */
#include "async.h"

#include <stdlib.h>
#include <string.h>

SimAsync *
sim_async(Sm *s)
{
	if (!s->async)
		s->async = xmalloc(sizeof *s->async);
	return s->async;
}

void
sim_async_timing(Sm *s, uint32_t lat, uint32_t bytes_per_clk)
{
	SimAsync *a = sim_async(s);

	a->lat = lat;
	a->bytes_per_clk = bytes_per_clk ? bytes_per_clk : 1;
}

void
sim_async_free(Sm *s)
{
	SimAsync *a = s->async;

	if (!a)
		return;
	for (uint32_t k = 0; k < a->n; k++)
		free(a->q[k].data);
	free(a->q);
	free(a);
	s->async = NULL;
}

void
sim_async_settle(Exec *x)
{
	if (x->timing && x->sm->async && x->sm->async->n)
		sim_async_drain(x, x->now, NULL);
}

uint64_t
sim_async_last(const Sm *s, const Warp *w)
{
	uint64_t last = 0;

	for (uint32_t k = 0; s->async && k < s->async->n; k++)
		if (s->async->q[k].w == w && s->async->q[k].at > last)
			last = s->async->q[k].at;
	return last;
}

uint64_t
sim_async_next(const Sm *s)
{
	return s->async && s->async->n ? s->async->q[0].at : 0;
}

/* ---------------------------------------------------------------------------------------------
 * The mbarrier word. Fields (async.h); nvcc's mbarrier.init writes it with SYNCS.EXCH.64 as
 * (2^20 - count) << 1 | (2^20 - count) << 43, and its pending_count reads 2^20 - [62:43].
 */
enum { MbarMax = (1 << 20) - 1 };

static inline uint32_t mb_expected(uint64_t v) { return (1u << 20) - (uint32_t)(v >> 1 & 0xfffff); }
static inline uint32_t mb_pending(uint64_t v) { return (uint32_t)(-(v >> 43 & 0xfffff)) & 0xfffff; }
static inline int64_t
mb_tx(uint64_t v)
{
	int64_t t = (int64_t)(v >> 21 & 0x1fffff);
	return t >= 1 << 20 ? t - (1 << 21) : t;
}

static inline uint64_t
mb_make(unsigned phase, uint32_t expected, uint32_t pending, int64_t tx)
{
	return (uint64_t)(phase & 1) << 63 | (uint64_t)(((1u << 20) - pending) & 0xfffff) << 43 |
	       ((uint64_t)tx & 0x1fffff) << 21 | (uint64_t)(((1u << 20) - expected) & 0xfffff) << 1;
}

static inline uint64_t
mb_load(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

int
mbar_valid(Exec *x, const uint8_t *p, unsigned lane, const char *what)
{
	uint64_t v = mb_load(p);

	if (v >> 1 & 0xfffff)
		return 0;
	sim_fault(x, FaultMbarrier, lane, "%s of an mbarrier that is not initialised (or was "
	          "invalidated) at shared offset 0x%llx: word 0x%016llx", what,
	          (unsigned long long)(p - x->cta->smem), (unsigned long long)v);
	return -1;
}

/* store the state, completing the phase when no arrival and no byte is pending */
static void
mb_store(uint8_t *p, unsigned phase, uint32_t expected, uint32_t pending, int64_t tx)
{
	uint64_t v;

	if (pending == 0 && tx == 0) {
		phase ^= 1;
		pending = expected;
	}
	v = mb_make(phase, expected, pending, tx);
	memcpy(p, &v, 8);
}

/* a barrier of x's CTA changed: the deadlock check's epoch moves */
static inline void
changed(Exec *x)
{
	x->cta->mbar_epoch++;
}

static int
tx_range(Exec *x, const uint8_t *p, unsigned lane, int64_t tx)
{
	if (tx >= -MbarMax && tx <= MbarMax)
		return 0;
	sim_fault(x, FaultMbarrier, lane, "transaction count of the mbarrier at shared offset 0x%llx "
	          "leaves its range [-(2^20-1), 2^20-1]: %lld",
	          (unsigned long long)(p - x->cta->smem), (long long)tx);
	return -1;
}

int
mbar_arrive(Exec *x, uint8_t *p, unsigned lane, uint32_t cnt, int64_t tx, int drop)
{
	uint64_t v;
	uint32_t exp, pend;
	int64_t t;

	if (mbar_valid(x, p, lane, "arrive"))
		return -1;
	v = mb_load(p);
	exp = mb_expected(v);
	pend = mb_pending(v);
	t = mb_tx(v) + tx;
	if (cnt == 0 || cnt > pend) {
		sim_fault(x, FaultMbarrier, lane, "arrive with count %u on the mbarrier at shared offset "
		          "0x%llx with %u arrival%s pending", cnt,
		          (unsigned long long)(p - x->cta->smem), pend, pend == 1 ? "" : "s");
		return -1;
	}
	if (tx_range(x, p, lane, t))
		return -1;
	if (drop && exp > cnt)
		exp -= cnt;
	mb_store(p, (unsigned)(v >> 63), exp, pend - cnt, t);
	changed(x);
	return 0;
}

int
mbar_tx(Exec *x, uint8_t *p, unsigned lane, int64_t tx)
{
	uint64_t v;
	uint32_t pend;
	int64_t t;

	if (mbar_valid(x, p, lane, tx < 0 ? "complete_tx" : "expect_tx"))
		return -1;
	v = mb_load(p);
	pend = mb_pending(v);
	t = mb_tx(v) + tx;
	if (pend == 0 && t < 0) {
		sim_fault(x, FaultMbarrier, lane, "transaction count underflow: complete_tx of %lld "
		          "bytes on the mbarrier at shared offset 0x%llx that expects %lld and has no "
		          "arrival pending", (long long)-tx, (unsigned long long)(p - x->cta->smem),
		          (long long)mb_tx(v));
		return -1;
	}
	if (tx_range(x, p, lane, t))
		return -1;
	mb_store(p, (unsigned)(v >> 63), mb_expected(v), pend, t);
	changed(x);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Pending effects.
 */

/* *o = *o op *b for one 32-bit word of a bulk reduction (cp.reduce.async.bulk); f32 adds round
 * to nearest with subnormals kept, a NaN result is the canonical 0x7fffffff */
static void
red_word(uint8_t *o, const uint8_t *b, unsigned op)
{
	uint32_t x, y, r;
	float f, g;

	memcpy(&x, o, 4);
	memcpy(&y, b, 4);
	switch (op) {
	case RedAddF32:
		memcpy(&f, &x, 4);
		memcpy(&g, &y, 4);
		f = f + g;
		memcpy(&r, &f, 4);
		if ((r & 0x7f800000u) == 0x7f800000u && (r & 0x7fffffu))
			r = 0x7fffffffu;
		break;
	case RedAddU32: r = x + y; break;
	case RedMinU32: r = x < y ? x : y; break;
	case RedMaxU32: r = x > y ? x : y; break;
	case RedMinS32: r = (int32_t)x < (int32_t)y ? x : y; break;
	case RedMaxS32: r = (int32_t)x > (int32_t)y ? x : y; break;
	case RedAnd: r = x & y; break;
	case RedOr: r = x | y; break;
	default: r = x ^ y; break;
	}
	memcpy(o, &r, 4);
}

/* write e's bytes (x->cta is the CTA of e) */
static int
apply(Exec *x, const SimPend *e)
{
	uint8_t *p;

	/* the range was checked at issue (exec_sync.c's blk_ptr) */
	if (e->kind == PendRedGlobal) {
		if (!(p = sim_global(x, e->dst, 1, 0, 1)))
			return -1;
		for (uint32_t k = 0; k + 4 <= e->n; k += 4)
			red_word(p + k, e->data + k, e->mbar);
		return 0;
	}
	if (e->kind == PendToGlobal) {
		if (!(p = sim_global(x, e->dst, 1, 0, 1)))
			return -1;
		memcpy(p, e->data, e->n);
		return 0;
	}
	if (!(p = sim_shared(x, e->dst, 1, 0, 1)))
		return -1;
	memcpy(p, e->data, e->n);
	if (e->mbar == UINT32_MAX)
		return 0;
	if (!(p = sim_shared(x, e->mbar, 8, 0, 1)))
		return -1;
	return mbar_tx(x, p, 0, -(int64_t)e->n);
}

int
sim_async_copy(Exec *x, int kind, uint64_t dst, uint32_t mbar, const uint8_t *data, uint32_t n)
{
	SimAsync *a;
	SimPend e = { .kind = (uint8_t)kind, .cta = x->cta, .w = x->w, .dst = dst, .mbar = mbar,
	              .n = n };
	uint64_t start;

	if (!x->timing) {
		e.data = (uint8_t *)data;
		return apply(x, &e);
	}
	a = sim_async(x->sm);
	start = a->engine_free > x->now ? a->engine_free : x->now;
	a->engine_free = start + (n + a->bytes_per_clk - 1) / a->bytes_per_clk;
	e.at = a->engine_free + a->lat;
	if (a->n && e.at < a->q[a->n - 1].at)
		e.at = a->q[a->n - 1].at;       /* in order: one engine */
	memcpy(e.ctaid, x->cta->ctaid, sizeof e.ctaid);
	e.data = xmalloc(n ? n : 1);
	memcpy(e.data, data, n);
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->q = xrealloc(a->q, a->cap * sizeof *a->q);
	}
	a->q[a->n++] = e;
	return 0;
}

uint64_t
sim_async_drain(Exec *x, uint64_t now, const Cta *c)
{
	SimAsync *a = x->sm->async;
	Cta *cta = x->cta;
	Warp *w = x->w;
	uint64_t last = 0;
	uint32_t keep = 0;

	if (!a || !a->n)
		return 0;
	for (uint32_t k = 0; k < a->n; k++) {
		SimPend *e = &a->q[k];
		if (c ? e->cta != c : e->at > now) {
			a->q[keep++] = *e;
			continue;
		}
		x->cta = e->cta;
		x->w = NULL;            /* a fault names the CTA, not the warp now issuing */
		if (memcmp(e->ctaid, e->cta->ctaid, sizeof e->ctaid))
			sim_fault(x, FaultMbarrier, 0, "an asynchronous copy of CTA (%u,%u,%u) completed "
			          "after it ended", e->ctaid[0], e->ctaid[1], e->ctaid[2]);
		else
			apply(x, e);
		last = e->at > last ? e->at : last;
		free(e->data);
	}
	a->n = keep;
	x->cta = cta;
	x->w = w;
	return last;
}
