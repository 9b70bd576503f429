/* tl2.c: the memory system shared by all SMs (MemSys): the L2 cache and DRAM, with a queueing
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
 */
#include <stdlib.h>
#include <string.h>

#include "tmem.h"

typedef struct L2Line {
	uint64_t tag;          /* line address + 1; 0: invalid */
	uint64_t lru;          /* stamp of the last use */
	uint32_t valid;        /* sectors present */
	uint32_t dirty;        /* sectors written since the fill */
} L2Line;

/* an entry of the merge: which SM's which access */
typedef struct MergeKey {
	uint64_t cycle;
	uint32_t sm, seq;
} MergeKey;

struct MemSys {
	uint32_t sector;       /* bytes per sector */
	uint32_t spl;          /* sectors per line */
	uint64_t nsets;
	uint32_t assoc;
	L2Line *line;          /* nsets x assoc */
	uint64_t stamp;        /* LRU clock */
	uint32_t nslice;
	uint64_t l2_bpc, dram_bpc; /* bytes per cycle, chip-wide */
	uint64_t *slice_backlog; /* bytes x nslice (a slice drains l2_bpc / nslice per cycle) */
	uint64_t *slice_demand;  /* bytes this epoch */
	uint64_t *slice_delay;   /* cycles, for the next epoch */
	uint64_t dram_backlog, dram_demand, dram_delay;
	uint64_t last_end;     /* end of the previous epoch */
	MergeKey *merge;       /* scratch, grown amortised */
	size_t cmerge;
	uint64_t l2_hits, l2_misses, dram_read, dram_write;
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

MemSys *
memsys_new(const SimConfig *c)
{
	const SimTiming *t = &c->t;
	MemSys *m = calloc(1, sizeof *m);
	uint64_t line;

	if (!m)
		return NULL;
	m->sector = (uint32_t)max1(t->l1_sector);
	line = t->l2_line > m->sector ? t->l2_line : m->sector;
	m->spl = (uint32_t)(line / m->sector);
	if (m->spl > 32)
		m->spl = 32;
	m->assoc = (uint32_t)max1(t->l2_assoc);
	m->nsets = max1(t->l2_size / ((uint64_t)m->spl * m->sector * m->assoc));
	m->nslice = (uint32_t)max1(t->l2_slices);
	m->l2_bpc = max1(t->l2_bytes_per_clk);
	m->dram_bpc = max1(t->dram_bytes_per_clk);
	m->line = calloc(m->nsets * m->assoc, sizeof *m->line);
	m->slice_backlog = calloc(m->nslice, sizeof *m->slice_backlog);
	m->slice_demand = calloc(m->nslice, sizeof *m->slice_demand);
	m->slice_delay = calloc(m->nslice, sizeof *m->slice_delay);
	if (!m->line || !m->slice_backlog || !m->slice_demand || !m->slice_delay) {
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
	free(m->line);
	free(m->slice_backlog);
	free(m->slice_demand);
	free(m->slice_delay);
	free(m->merge);
	free(m);
}

unsigned
memsys_sector_bytes(const MemSys *m)
{
	return m->sector;
}

/* the set of line, and its slice */
static L2Line *
l2_set(const MemSys *m, uint64_t line, uint32_t *slice)
{
	uint64_t h = mix(line);

	*slice = (uint32_t)((h >> 32) % m->nslice);
	return &m->line[(h % m->nsets) * m->assoc];
}

int
memsys_l2_lookup(const MemSys *m, uint64_t sector, uint64_t *delay)
{
	uint64_t line = sector / m->spl;
	uint32_t bit = 1u << (sector % m->spl), slice;
	const L2Line *w = l2_set(m, line, &slice);

	*delay = m->slice_delay[slice];
	for (uint32_t k = 0; k < m->assoc; k++)
		if (w[k].tag == line + 1)
			return (w[k].valid & bit) != 0;
	return 0;
}

uint64_t
memsys_dram_delay(const MemSys *m)
{
	return m->dram_delay;
}

/* one access in merge order: tags, LRU, statistics, demand */
static void
l2_apply(MemSys *m, uint64_t sector, unsigned kind)
{
	uint64_t line = sector / m->spl;
	uint32_t bit = 1u << (sector % m->spl), slice;
	L2Line *w = l2_set(m, line, &slice), *v = NULL;

	m->slice_demand[slice] += m->sector;
	for (uint32_t k = 0; k < m->assoc; k++)
		if (w[k].tag == line + 1) {
			v = &w[k];
			break;
		}
	if (v && (v->valid & bit)) {
		m->l2_hits++;
	} else {
		m->l2_misses++;
		if (!v) {
			/* the victim: an invalid way, else the least recently used */
			v = &w[0];
			for (uint32_t k = 0; k < m->assoc && v->tag; k++)
				if (!w[k].tag || w[k].lru < v->lru)
					v = &w[k];
			if (v->tag && v->dirty) {
				uint64_t b = (uint64_t)__builtin_popcount(v->dirty) * m->sector;
				m->dram_write += b;
				m->dram_demand += b;
			}
			v->tag = line + 1;
			v->valid = v->dirty = 0;
		}
		if (kind != L2Write) {
			m->dram_read += m->sector;
			m->dram_demand += m->sector;
		}
		v->valid |= bit;
	}
	if (kind != L2Read)
		v->dirty |= bit;
	v->lru = ++m->stamp;
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

/* backlog' = max(0, backlog + demand - capacity) */
static uint64_t
drain(uint64_t backlog, uint64_t demand, uint64_t capacity)
{
	backlog += demand;
	return backlog > capacity ? backlog - capacity : 0;
}

void
memsys_epoch_end(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end)
{
	size_t total = 0, k = 0, len;
	uint64_t cycles = end > m->last_end ? end - m->last_end : 0;

	for (unsigned i = 0; i < n; i++) {
		smmem_l2_log(sms[i], &len);
		total += len;
	}
	if (total > m->cmerge) {
		size_t c = m->cmerge ? m->cmerge : 1024;
		MergeKey *p;
		while (c < total)
			c *= 2;
		p = realloc(m->merge, c * sizeof *p);
		if (p) {
			m->merge = p;
			m->cmerge = c;
		}
	}
	if (total <= m->cmerge) {
		for (unsigned i = 0; i < n; i++) {
			const L2Req *r = smmem_l2_log(sms[i], &len);
			for (size_t j = 0; j < len; j++)
				m->merge[k++] = (MergeKey){r[j].cycle, i, (uint32_t)j};
		}
		qsort(m->merge, total, sizeof *m->merge, merge_cmp);
		for (k = 0; k < total; k++) {
			const L2Req *r = smmem_l2_log(sms[m->merge[k].sm], &len) + m->merge[k].seq;
			l2_apply(m, r->sector, r->kind);
		}
	} else {
		/* out of memory for the merge: apply in SM order, still deterministic */
		for (unsigned i = 0; i < n; i++) {
			const L2Req *r = smmem_l2_log(sms[i], &len);
			for (size_t j = 0; j < len; j++)
				l2_apply(m, r[j].sector, r[j].kind);
		}
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
memsys_stats(const MemSys *m, SimTStats *st)
{
	st->l2_hits += m->l2_hits;
	st->l2_misses += m->l2_misses;
	st->dram_read_bytes += m->dram_read;
	st->dram_write_bytes += m->dram_write;
}
