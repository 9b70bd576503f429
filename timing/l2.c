/* l2.c: the memory system shared by all SMs (MemSys): the L2 cache and DRAM, with a queueing
 * model of their bandwidth that is deterministic with any number of host threads
 * (docs/sim-memory.md).
 *
 * The L2 is sectored and set-associative with LRU replacement, write-back and write-allocate;
 * its lines are spread over l2_slices slices by a hash of the line address. Its tags change
 * only in memsys_epoch_end: the SMs' access logs of the epoch are merged in (cycle, SM,
 * sequence) order and applied, misses and dirty evictions become DRAM traffic, and the demand
 * of the epoch on each slice and on DRAM updates a backlog,
 *
 *	backlog' = max(0, backlog + demand - bandwidth x epoch cycles)
 *
 * whose drain time, backlog / bandwidth, delays every access of the next epoch.
 *
 * The merged accesses are applied by several host threads when the launch has them: accesses to
 * different sets are independent (an access's LRU stamp is its index in the merge order, as if
 * the stamp counted them one by one), so each thread applies the sets of its part and keeps its
 * own sums (L2Part), added up in memsys_epoch_finish: the same state for any number of parts.
 */
#include <stdlib.h>
#include <string.h>

#include "memsys.h"

/* the per-way state of a line other than its tag */
typedef struct L2Bits {
	uint32_t valid;        /* sectors present */
	uint32_t dirty;        /* sectors written since the fill */
} L2Bits;

/* an access of the epoch in merge order */
typedef struct Merged {
	uint64_t sector;
	uint32_t set;          /* index of the set's first way (< 2^31: l2_size <= 2^36) */
	uint16_t slice;
	uint16_t kind;         /* L2Kind */
} Merged;

enum {
	PrefetchAhead = 32,    /* the merge loads the L2 set of the access this far ahead */
	PartMin = 1024,        /* an epoch's accesses below which one thread applies them (a guess:
	                          about where half of their work outweighs a barrier round) */
};

/* one part's sums of the epoch (each part on its own host cache lines) */
typedef struct L2Part {
	_Alignas(64) uint64_t hits, misses;
	uint64_t dram_read, dram_write;
	uint64_t dram_demand;  /* bytes */
	uint64_t *slice_demand; /* bytes per slice */
} L2Part;

/* an entry of the fallback merge (qsort): which SM's which access */
typedef struct MergeKey {
	uint64_t cycle;
	uint32_t sm, seq;
} MergeKey;

struct MemSys {
	uint32_t sector;       /* bytes per sector */
	uint32_t spl, shift;   /* sectors per line (a power of two), its log2 */
	uint64_t nsets;
	uint32_t assoc;
	/* nsets x assoc ways, as three arrays: a lookup scans only the tags of its set */
	uint64_t *tag;         /* line address + 1; 0: invalid */
	uint64_t *lru;         /* stamp of the last use */
	L2Bits *bits;
	uint64_t stamp;        /* LRU clock */
	uint32_t nslice;
	uint64_t l2_bpc, dram_bpc; /* bytes per cycle, chip-wide */
	uint64_t *slice_backlog; /* bytes x nslice (a slice drains l2_bpc / nslice per cycle) */
	uint64_t *slice_demand;  /* bytes this epoch */
	uint64_t *slice_delay;   /* cycles, for the next epoch */
	uint64_t dram_backlog, dram_demand, dram_delay;
	uint64_t last_end;     /* end of the previous epoch */
	/* merge scratch, grown amortised */
	Merged *merged;        /* the epoch's accesses in (cycle, SM, sequence) order */
	size_t cmerged;
	uint32_t *count;       /* counting sort: entries per cycle of the epoch's range */
	size_t ccount;
	MergeKey *keys;        /* qsort fallback for a range too wide to count */
	size_t ckeys;
	uint64_t l2_hits, l2_misses, dram_read, dram_write;
	/* the epoch being applied (memsys_epoch_begin .. memsys_epoch_finish) */
	size_t nmerged;        /* accesses in merged[] still to apply */
	L2Part *part;          /* the parts' sums: npart used, cpart allocated (at least 1) */
	unsigned npart, cpart;
};

static uint64_t
max1(uint64_t v)
{
	return v ? v : 1;
}

/* a 64-bit mix (splitmix64's finaliser): set index in the low half, slice in the high half */
static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ x >> 31;
}

/* room for n parts' sums: how many there are room for (fewer when out of memory) */
static unsigned
parts_grow(MemSys *m, unsigned n)
{
	L2Part *p;

	if (n <= m->cpart)
		return n;
	if (!(p = aligned_alloc(_Alignof(L2Part), n * sizeof *p)))
		return m->cpart;
	if (m->cpart)
		memcpy(p, m->part, m->cpart * sizeof *p);
	free(m->part);
	m->part = p;
	for (; m->cpart < n; m->cpart++) {
		L2Part *q = &m->part[m->cpart];
		memset(q, 0, sizeof *q);
		if (!(q->slice_demand = calloc(m->nslice, sizeof *q->slice_demand)))
			break;
	}
	return m->cpart;
}

MemSys *
memsys_new(const SimConfig *c)
{
	const SimTiming *t = &c->t;
	MemSys *m = calloc(1, sizeof *m);
	uint64_t line;

	if (!m)
		return NULL;
	/* sizes are powers of two (config.c checks them) */
	m->sector = (uint32_t)max1(t->l1_sector);
	line = t->l2_line > m->sector ? t->l2_line : m->sector;
	m->spl = (uint32_t)(line / m->sector);
	if (m->spl > 32)
		m->spl = 32;
	m->shift = (uint32_t)__builtin_ctz(m->spl);
	m->assoc = (uint32_t)max1(t->l2_assoc);
	m->nsets = max1(t->l2_size / ((uint64_t)m->spl * m->sector * m->assoc));
	m->nslice = (uint32_t)max1(t->l2_slices);
	m->l2_bpc = max1(t->l2_bytes_per_clk);
	m->dram_bpc = max1(t->dram_bytes_per_clk);
	m->tag = calloc(m->nsets * m->assoc, sizeof *m->tag);
	m->lru = calloc(m->nsets * m->assoc, sizeof *m->lru);
	m->bits = calloc(m->nsets * m->assoc, sizeof *m->bits);
	m->slice_backlog = calloc(m->nslice, sizeof *m->slice_backlog);
	m->slice_demand = calloc(m->nslice, sizeof *m->slice_demand);
	m->slice_delay = calloc(m->nslice, sizeof *m->slice_delay);
	if (!m->tag || !m->lru || !m->bits || !m->slice_backlog || !m->slice_demand ||
	    !m->slice_delay || parts_grow(m, 1) < 1) {
		memsys_free(m);
		return NULL;
	}
	return m;
}

void
memsys_free(MemSys *m)
{
	if (!m)
		return;
	free(m->tag);
	free(m->lru);
	free(m->bits);
	free(m->slice_backlog);
	free(m->slice_demand);
	free(m->slice_delay);
	free(m->merged);
	free(m->count);
	free(m->keys);
	for (unsigned i = 0; i < m->cpart; i++)
		free(m->part[i].slice_demand);
	free(m->part);
	free(m);
}

unsigned
memsys_sector_bytes(const MemSys *m)
{
	return m->sector;
}

/* the first way of line's set, and its slice */
static size_t
l2_set(const MemSys *m, uint64_t line, uint32_t *slice)
{
	uint64_t h = mix(line);

	*slice = (uint32_t)(h >> 32) % m->nslice;   /* a 32-bit division: the same value */
	return (size_t)(h % m->nsets) * m->assoc;
}

/* the way of the set at tag holding line, or assoc */
static uint32_t
l2_way(const MemSys *m, const uint64_t *tag, uint64_t line)
{
	uint32_t k = 0;

	while (k < m->assoc && tag[k] != line + 1)
		k++;
	return k;
}

uint32_t
memsys_l2_line(const MemSys *m, uint64_t line, uint64_t *delay, L2Where *at)
{
	uint32_t slice, k;
	size_t set = l2_set(m, line, &slice);

	*delay = m->slice_delay[slice];
	at->set = (uint32_t)set;
	at->slice = (uint16_t)slice;
	k = l2_way(m, &m->tag[set], line);
	return k < m->assoc ? m->bits[set + k].valid : 0;
}

void
memsys_l2_prefetch(const MemSys *m, uint64_t line)
{
	uint32_t slice;
	size_t set = l2_set(m, line, &slice);

	for (uint32_t k = 0; k < m->assoc; k += 8)
		__builtin_prefetch(&m->tag[set + k]);
}

unsigned
memsys_line_shift(const MemSys *m)
{
	return m->shift;
}

uint64_t
memsys_dram_delay(const MemSys *m)
{
	return m->dram_delay;
}

/* the way to replace in the set at set: an invalid one, else the least recently used */
static uint32_t
l2_victim(const MemSys *m, size_t set)
{
	const uint64_t *tag = &m->tag[set], *lru = &m->lru[set];
	uint32_t v = 0;

	for (uint32_t k = 0; k < m->assoc && tag[v]; k++)
		if (!tag[k] || lru[k] < lru[v])
			v = k;
	return v;
}

/* one access in merge order, its LRU stamp given: tags, LRU, the part's sums */
static void
l2_apply(MemSys *m, const Merged *a, uint64_t stamp, L2Part *p)
{
	uint64_t line = a->sector >> m->shift;
	uint32_t bit = 1u << (a->sector & (m->spl - 1));
	size_t set = a->set;
	uint32_t v = l2_way(m, &m->tag[set], line);
	L2Bits *b;

	p->slice_demand[a->slice] += m->sector;
	if (v < m->assoc && (m->bits[set + v].valid & bit)) {
		p->hits++;
		b = &m->bits[set + v];
	} else {
		p->misses++;
		if (v == m->assoc) {
			v = l2_victim(m, set);
			b = &m->bits[set + v];
			if (m->tag[set + v] && b->dirty) {
				uint64_t n = (uint64_t)__builtin_popcount(b->dirty) * m->sector;
				p->dram_write += n;
				p->dram_demand += n;
			}
			m->tag[set + v] = line + 1;
			b->valid = b->dirty = 0;
		}
		b = &m->bits[set + v];
		if (a->kind != L2Write) {
			p->dram_read += m->sector;
			p->dram_demand += m->sector;
		}
		b->valid |= bit;
	}
	if (a->kind != L2Read)
		b->dirty |= bit;
	m->lru[set + v] = stamp;
}

/* the part of n that applies the accesses to the set at way index set (multiply-shift: no
 * division) */
static unsigned
part_of(uint32_t set, unsigned n)
{
	return (unsigned)(((uint64_t)(uint32_t)(set * 0x9e3779b9u) * n) >> 32);
}

/* start loading the set of a later access into the host's cache */
static void
l2_prefetch(const MemSys *m, const Merged *a)
{
	for (uint32_t k = 0; k < m->assoc; k += 8) {
		__builtin_prefetch(&m->tag[a->set + k]);
		__builtin_prefetch(&m->lru[a->set + k]);
	}
	__builtin_prefetch(&m->bits[a->set]);
}

/* the SM found the set and slice when it made the access (memsys_l2_line) */
static Merged
merged(const MemSys *m, const L2Req *r)
{
	return (Merged){r->sector, r->set, r->slice, r->kind};
}

static int
merge_cmp(const void *a, const void *b)
{
	const MergeKey *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* grow *p to hold n elements of size each; 0, or -1 out of memory */
static int
grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	if (!(q = realloc(*p, c * size)))
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* The epoch's accesses into m->merged in (cycle, SM, sequence) order. Each SM's log is in cycle
 * order (memsys.h), so a counting sort on the cycle that visits the SMs in index order is stable
 * in exactly that order; a range of cycles too wide to count falls back to qsort. 0, or -1 out
 * of memory. */
static int
merge_logs(MemSys *m, SmMem *const *sms, unsigned n, size_t total)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t len, range, k = 0;

	if (!total)
		return 0;
	if (grow((void **)&m->merged, &m->cmerged, total, sizeof *m->merged))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const L2Req *r = smmem_l2_log(sms[i], &len);
		if (len) {
			lo = r[0].cycle < lo ? r[0].cycle : lo;
			hi = r[len - 1].cycle > hi ? r[len - 1].cycle : hi;
		}
	}
	range = hi - lo + 1;
	if (hi - lo < 4 * (uint64_t)total + 4096 && total < UINT32_MAX &&
	    !grow((void **)&m->count, &m->ccount, range, sizeof *m->count)) {
		uint32_t sum = 0;
		memset(m->count, 0, range * sizeof *m->count);
		for (unsigned i = 0; i < n; i++) {
			const L2Req *r = smmem_l2_log(sms[i], &len);
			for (size_t j = 0; j < len; j++)
				m->count[r[j].cycle - lo]++;
		}
		for (size_t c = 0; c < range; c++) {
			uint32_t x = m->count[c];
			m->count[c] = sum;
			sum += x;
		}
		for (unsigned i = 0; i < n; i++) {
			const L2Req *r = smmem_l2_log(sms[i], &len);
			for (size_t j = 0; j < len; j++)
				m->merged[m->count[r[j].cycle - lo]++] = merged(m, &r[j]);
		}
		return 0;
	}
	if (grow((void **)&m->keys, &m->ckeys, total, sizeof *m->keys))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const L2Req *r = smmem_l2_log(sms[i], &len);
		for (size_t j = 0; j < len; j++)
			m->keys[k++] = (MergeKey){r[j].cycle, i, (uint32_t)j};
	}
	qsort(m->keys, total, sizeof *m->keys, merge_cmp);
	for (k = 0; k < total; k++)
		m->merged[k] = merged(m, smmem_l2_log(sms[m->keys[k].sm], &len) + m->keys[k].seq);
	return 0;
}

/* backlog' = max(0, backlog + demand - capacity) */
static uint64_t
drain(uint64_t backlog, uint64_t demand, uint64_t capacity)
{
	backlog += demand;
	return backlog > capacity ? backlog - capacity : 0;
}

unsigned
memsys_epoch_begin(MemSys *m, SmMem *const *sms, unsigned n, unsigned parts)
{
	size_t total = 0, len;

	for (unsigned i = 0; i < n; i++) {
		smmem_l2_log(sms[i], &len);
		total += len;
	}
	m->nmerged = 0;
	m->npart = 1;
	if (merge_logs(m, sms, n, total)) {
		/* out of memory for the merge: apply in SM order now, still deterministic */
		for (unsigned i = 0; i < n; i++) {
			const L2Req *r = smmem_l2_log(sms[i], &len);
			for (size_t j = 0; j < len; j++) {
				Merged a = merged(m, &r[j]);
				l2_apply(m, &a, ++m->stamp, &m->part[0]);
			}
		}
		return 1;
	}
	m->nmerged = total;
	if (parts > 1 && total >= PartMin && parts_grow(m, parts) == parts)
		m->npart = parts;
	return m->npart;
}

void
memsys_epoch_apply(MemSys *m, unsigned part)
{
	L2Part *p = &m->part[part];
	unsigned np = m->npart;
	size_t total = m->nmerged;

	if (np == 1) {
		for (size_t k = 0; k < total; k++) {
			if (k + PrefetchAhead < total)
				l2_prefetch(m, &m->merged[k + PrefetchAhead]);
			l2_apply(m, &m->merged[k], m->stamp + k + 1, p);
		}
		return;
	}
	for (size_t k = 0; k < total; k++) {
		if (k + PrefetchAhead < total && part_of(m->merged[k + PrefetchAhead].set, np) == part)
			l2_prefetch(m, &m->merged[k + PrefetchAhead]);
		if (part_of(m->merged[k].set, np) == part)
			l2_apply(m, &m->merged[k], m->stamp + k + 1, p);
	}
}

void
memsys_epoch_finish(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end)
{
	uint64_t cycles = end > m->last_end ? end - m->last_end : 0;

	m->stamp += m->nmerged;
	m->nmerged = 0;
	for (unsigned i = 0; i < m->npart; i++) {
		L2Part *p = &m->part[i];
		m->l2_hits += p->hits;
		m->l2_misses += p->misses;
		m->dram_read += p->dram_read;
		m->dram_write += p->dram_write;
		m->dram_demand += p->dram_demand;
		for (uint32_t s = 0; s < m->nslice; s++)
			m->slice_demand[s] += p->slice_demand[s];
		memset(p->slice_demand, 0, m->nslice * sizeof *p->slice_demand);
		p->hits = p->misses = p->dram_read = p->dram_write = p->dram_demand = 0;
	}
	for (uint32_t s = 0; s < m->nslice; s++) {
		m->slice_backlog[s] = drain(m->slice_backlog[s], m->slice_demand[s] * m->nslice,
		                            cycles * m->l2_bpc);
		m->slice_delay[s] = m->slice_backlog[s] / m->l2_bpc;
		m->slice_demand[s] = 0;
	}
	m->dram_backlog = drain(m->dram_backlog, m->dram_demand, cycles * m->dram_bpc);
	m->dram_delay = m->dram_backlog / m->dram_bpc;
	m->dram_demand = 0;
	if (end > m->last_end)
		m->last_end = end;
	for (unsigned i = 0; i < n; i++)
		smmem_epoch_done(sms[i]);
}

void
memsys_epoch_end(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end)
{
	memsys_epoch_begin(m, sms, n, 1);
	memsys_epoch_apply(m, 0);
	memsys_epoch_finish(m, sms, n, end);
}

void
memsys_stats(const MemSys *m, SimTStats *st)
{
	st->l2_hits += m->l2_hits;
	st->l2_misses += m->l2_misses;
	st->dram_read_bytes += m->dram_read;
	st->dram_write_bytes += m->dram_write;
}
