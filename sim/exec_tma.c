/* exec_tma.c: the tensor memory accelerator as nvcc 13 emits it for sm_90a: UTMALDG.nD (cp.async
 * .bulk.tensor tile mode, global to shared, completing on an mbarrier), UTMASTG.nD (shared to
 * global, a bulk-group store), UTMAPF.L2.nD (prefetch) and UTMACCTL (tensor-map prefetch and
 * invalidate), for 1 to 5 dimensions, with the map's element strides, swizzle and out-of-bounds
 * fill. The map is fiber's 128-byte layout (tmap.c); the copies are async.c's pending effects.
 */
#include "async.h"
#include "tmap.h"

#include <stdlib.h>
#include <string.h>

enum { TmaLoad, TmaStore, TmaPrefetch };

/* the tensor map at the generic address in UR u, u+1 (a __grid_constant__ parameter or global
 * memory); -1 after a fault */
static int
read_map(Exec *x, unsigned u, unsigned lane, SimTmap *m)
{
	uint64_t a = x->w->ur[u] | (uint64_t)x->w->ur[u + 1] << 32;
	uint8_t b[TmapBytes];
	char why[200];

	if (a % 64) {
		sim_fault(x, FaultMisaligned, lane, "tensor map address 0x%llx is not 64-byte aligned",
		          (unsigned long long)a);
		return -1;
	}
	for (unsigned k = 0; k < TmapBytes; k += 8) {
		const uint8_t *p = sim_generic(x, a + k, 8, lane, 0);
		if (!p)
			return -1;
		memcpy(b + k, p, 8);
	}
	if (tmap_decode(b, m, why, sizeof why) == 0)
		return 0;
	sim_fault(x, FaultTensorMap, lane, "tensor map at 0x%llx: %s", (unsigned long long)a, why);
	return -1;
}

/* the byte offset o of a box in shared memory at s, swizzled on the address bits as the map
 * says: 16-byte chunk bits [4..6] xor row bits [7..9] (128 B), [4..5] ^ [7..8] (64 B), 4 ^ 7 */
static inline uint64_t
swz(const SimTmap *m, uint64_t s, uint64_t o)
{
	static const unsigned mask[] = { 0, 1, 3, 7 };
	uint64_t a = s + o;

	return a ^ ((a >> 7 & mask[m->swizzle]) << 4);
}

/* the out-of-bounds fill of one element: zeros, or a quiet NaN of the type (NAN_REQUEST_ZERO_FMA) */
static void
oob_fill(const SimTmap *m, uint8_t *p)
{
	memset(p, 0, m->esize);
	if (m->oob != TmOobNan)
		return;
	memset(p, 0xff, m->esize);
	p[m->esize - 1] = 0x7f;          /* all-ones but the sign: a quiet NaN in every format */
}

/* visit every element of the box at coordinates c: fn(ctx, element index, in bounds, global
 * address); -1 stops */
typedef int (*ElemFn)(void *ctx, uint64_t k, int in, uint64_t g);
static int
walk(const SimTmap *m, const int32_t c[TmapMaxRank], ElemFn fn, void *ctx)
{
	uint32_t cnt[TmapMaxRank], i[TmapMaxRank] = {0};
	uint64_t total = 1;

	for (unsigned d = 0; d < m->rank; d++) {
		cnt[d] = ((uint32_t)m->box[d] + m->estride[d] - 1) / m->estride[d];
		total *= cnt[d];
	}
	for (uint64_t k = 0; k < total; k++) {
		uint64_t g = m->addr;
		int in = 1;
		for (unsigned d = 0; d < m->rank; d++) {
			int64_t v = (int64_t)c[d] + (int64_t)i[d] * m->estride[d];
			if (v < 0 || (uint64_t)v >= m->dim[d])
				in = 0;
			else
				g += (uint64_t)v * m->stride[d];
		}
		if (fn(ctx, k, in, g) < 0)
			return -1;
		for (unsigned d = 0; d < m->rank && ++i[d] == cnt[d]; d++)
			i[d] = 0;
	}
	return 0;
}

typedef struct TmaCx {
	Exec *x;               /* the context */
	const SimTmap *m;      /* the map */
	uint64_t s;            /* shared offset of the box */
	uint8_t *buf;          /* the box as it lies in shared memory (from s) */
	uint32_t bytes;        /* its size */
	unsigned lane;         /* for faults */
} TmaCx;

static int
load_elem(void *v, uint64_t k, int in, uint64_t g)
{
	TmaCx *t = v;
	uint64_t o = swz(t->m, t->s, k * t->m->esize) - t->s;
	const uint8_t *p;

	if (o + t->m->esize > t->bytes) {
		sim_fault(t->x, FaultTensorMap, t->lane, "the swizzled box leaves its %u bytes at shared "
		          "offset 0x%llx", t->bytes, (unsigned long long)t->s);
		return -1;
	}
	if (!in) {
		oob_fill(t->m, t->buf + o);
		return 0;
	}
	if (!(p = sim_global(t->x, g, t->m->esize, t->lane, 0)))
		return -1;
	memcpy(t->buf + o, p, t->m->esize);
	return 0;
}

static int
store_elem(void *v, uint64_t k, int in, uint64_t g)
{
	TmaCx *t = v;
	uint64_t o = swz(t->m, t->s, k * t->m->esize) - t->s;

	if (o + t->m->esize > t->bytes) {
		sim_fault(t->x, FaultTensorMap, t->lane, "the swizzled box leaves its %u bytes at shared "
		          "offset 0x%llx", t->bytes, (unsigned long long)t->s);
		return -1;
	}
	if (!in)                         /* out-of-bounds elements are not written */
		return 0;
	if (!sim_global(t->x, g, t->m->esize, t->lane, 1))
		return -1;
	return sim_async_copy(t->x, PendToGlobal, g, UINT32_MAX, t->buf + o, t->m->esize);
}

/* UTMALDG.nD [URa: smem, mbarrier, coordinates], [URb: map]; UTMASTG.nD [URa: smem,
 * coordinates], [URb]; UTMAPF.L2.nD [URa: coordinates], [URb]. mod: TmaLoad/Store/Prefetch,
 * aux: n */
static void
ex_utma(Exec *x, const DIns *d, uint32_t mask)
{
	const uint32_t *ur = x->w->ur;
	unsigned a = d->src[0].ureg, lane = (unsigned)__builtin_ctz(mask | 1), nc = d->aux;
	unsigned first = d->mod == TmaLoad ? 2 : d->mod == TmaStore ? 1 : 0;
	SimTmap m;
	int32_t c[TmapMaxRank] = {0};
	TmaCx t = { .x = x, .m = &m, .lane = lane };
	uint64_t mb = UINT32_MAX;

	if (!mask || read_map(x, d->src[1].ureg, lane, &m))
		return;
	if (m.rank != nc) {
		sim_fault(x, FaultTensorMap, lane, "a %uD copy with a tensor map of rank %u", nc, m.rank);
		return;
	}
	for (unsigned k = 0; k < nc; k++)
		c[k] = (int32_t)ur[a + first + k];
	if (d->mod == TmaPrefetch)
		return;
	t.s = ur[a];
	if (t.s >> 24 || t.s % 128 || (d->mod == TmaLoad && (mb = ur[a + 1]) >> 24)) {
		sim_fault(x, t.s % 128 ? FaultMisaligned : FaultOOB, lane, "tensor copy shared address "
		          "0x%llx (mbarrier 0x%llx): must be a 128-byte aligned shared::cta address",
		          (unsigned long long)t.s, (unsigned long long)mb);
		return;
	}
	t.bytes = tmap_box_bytes(&m);
	if (!sim_shared(x, t.s, 1, lane, d->mod == TmaLoad) ||
	    !sim_shared(x, t.s + t.bytes - 1, 1, lane, d->mod == TmaLoad))
		return;
	if (d->mod == TmaLoad) {
		sim_async_settle(x);
		t.buf = xmalloc(t.bytes);
		if (walk(&m, c, load_elem, &t) == 0)
			sim_async_copy(x, PendToShared, t.s, (uint32_t)mb, t.buf, t.bytes);
		free(t.buf);
		return;
	}
	t.buf = x->cta->smem + t.s;
	walk(&m, c, store_elem, &t);
}

static int
dec_utma(DecodeCtx *c, const Ins *i, DIns *d)
{
	unsigned k = 0, n;
	const char *s;

	d->mod = i->op == OUTMALDG ? TmaLoad : i->op == OUTMASTG ? TmaStore : TmaPrefetch;
	if (d->mod == TmaPrefetch) {
		if (!i->nmod || strcmp(mstr(c->fn->mod, i->mod[0]), "L2"))
			return sim_unsupported(c, i);
		k = 1;
	}
	if (i->nmod != k + 1)
		return sim_unsupported_why(c, i, "tile mode without multicast only (no .IM2COL, "
		                           ".MULTICAST)");
	s = mstr(c->fn->mod, i->mod[k]);
	if (s[0] < '1' || s[0] > '5' || strcmp(s + 1, "D"))
		return sim_unsupported(c, i);
	n = (unsigned)(s[0] - '0');
	if (sim_dec_opnds(c, i, d, 0) || d->nsrc != 2)
		return sim_unsupported(c, i);
	for (unsigned j = 0; j < 2; j++)
		if (d->src[j].kind != DMem || !(d->src[j].flags & DFUreg) || d->src[j].reg != RegRZ ||
		    d->src[j].imm)
			return sim_unsupported_why(c, i, "a tensor copy's operands are [URn]");
	if (d->src[0].ureg + (d->mod == TmaLoad ? 2 : d->mod == TmaStore ? 1 : 0) + n > RegURZ ||
	    d->src[1].ureg + 1u >= RegURZ)
		return sim_unsupported(c, i);
	d->aux = n;
	d->exec = ex_utma;
	return 0;
}

/* UTMACCTL.PF [URb] / .IV [URb]: prefetch or invalidate a tensor map in the cache: no value */
static void
ex_nothing(Exec *x, const DIns *d, uint32_t mask)
{
	(void)x, (void)d, (void)mask;
}

static int
dec_utmacctl(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod != 1 || (!sim_hasmod(c, i, "PF") && !sim_hasmod(c, i, "IV")))
		return sim_unsupported(c, i);
	d->exec = ex_nothing;
	return 0;
}

void
sim_register_tma(SimTab *t)
{
	t->dec[OUTMALDG] = dec_utma;
	t->dec[OUTMASTG] = dec_utma;
	t->dec[OUTMAPF] = dec_utma;
	t->dec[OUTMACCTL] = dec_utmacctl;
}
