/* smmem.c: the memory model of one SM (SmMem): the MIO queues, shared-memory banks, the L1 data
 * cache with its MSHRs, the constant cache, and the SM's link to L2. It times one warp memory
 * instruction from the addresses its semantics recorded (MemLog, sim.h) and writes nothing
 * shared: L2 accesses go to the SM's own log, which memsys_epoch_end (l2.c) merges. The model
 * and its sources are described in docs/sim-memory.md.
 */
#include <stdlib.h>
#include <string.h>

#include "memsys.h"

enum {
	ConstLine = 64,        /* constant cache line, bytes */
	ConstWays = 4,         /* constant cache associativity */
	MaxBanks = 64,         /* shared-memory banks the model handles */
	PendMin = 1024,        /* initial size of the pending-sector table */
	LogMin = 1024,         /* initial size of the L2 log */
	MshrWindow = 4096,     /* cycles of MSHR completions counted directly (a power of two) */
};

/* local memory lives at LocalTag | SM << 44 | warp slot << 36 | interleaved offset */
#define LocalTag (1ull << 62)

/* a line of the L1 or the constant cache */
typedef struct CLine {
	uint64_t tag;          /* line address + 1; 0: invalid */
	uint64_t lru;          /* stamp of the last use */
	uint32_t valid;        /* sectors present or in flight */
} CLine;

/* a sectored set-associative LRU cache */
typedef struct Cache {
	uint32_t sets, ways;   /* sets = 0: no cache */
	uint32_t spl, shift;   /* sectors per line, its log2 */
	CLine *line;           /* sets x ways */
	uint64_t *ready;       /* per sector: the cycle its data is there (in flight until then) */
	uint64_t stamp;        /* LRU clock */
} Cache;

/* an L2 sector this SM accessed during the epoch: later accesses see it present */
typedef struct Pend {
	uint64_t key;          /* sector */
	uint64_t ready;        /* when its data reaches the SM */
	uint32_t gen;          /* epoch generation; stale entries are free */
} Pend;

struct SmMem {
	MemSys *m;
	SimTiming t;
	uint32_t id;
	uint32_t sector;       /* bytes per sector (L1 and L2) */
	uint32_t sector_shift; /* its log2 */
	int link_shift;        /* log2 l2_sm_bytes_per_clk when a power of two (link_send divides
	                          by it once a sector otherwise), else -1 */
	uint32_t banks, bank_bytes;
	/* MIO */
	uint32_t nsub, qcap;
	uint64_t *q;           /* per sub-partition, a ring of the last qcap MIO start cycles */
	uint32_t *qn, *qhead;
	uint64_t mio_next;     /* the MIO accepts its next instruction at this cycle */
	uint64_t take_now, take_start; /* the last smmem_mio_take: when and its start */
	int taken;
	/* pipes */
	uint64_t pipe_free;    /* the L1/shared-memory pipe (tags, banks, data) is free */
	uint64_t link;         /* SM-to-L2 link: bytes sent, on a scale of cycles x bytes/clk */
	Cache l1, cc;          /* L1 data cache, constant cache */
	/* MSHRs: the cycles outstanding sector requests complete, counted per cycle in a window of
	 * MshrWindow cycles from mbase (a ring), later ones in a min-heap */
	uint32_t *win;
	uint64_t mbase;        /* no outstanding request completes before */
	uint32_t nwin;         /* requests in the window */
	uint64_t *late;        /* min-heap, nlate of them */
	uint32_t nlate, cmshr; /* cmshr: MSHRs */
	/* the SM's view of the L2 during an epoch */
	Pend *pend;
	size_t npend, cpend;
	uint32_t gen;
	L2Req *log;
	size_t nlog, clog;
	uint32_t l2_shift;     /* log2 of the L2's sectors per line */
	int l2_seen;           /* l2_line was looked up this epoch: */
	uint64_t l2_line, l2_delay;
	uint32_t l2_valid;     /* its sectors present, and its slice's delay */
	L2Where l2_at;         /* its set and slice */
	/* statistics */
	uint64_t smem_req, smem_wf, l1_hits, l1_misses, c_hits, c_misses, g_req, g_sectors;
};

/* per instruction */
typedef struct Ctx {
	uint64_t start;        /* MIO start */
	uint64_t lsu_end;      /* the last request the L1 accepted: the MIO waits for it */
	uint64_t acked;        /* the last store or reduction acknowledged by L2 */
	uint32_t warp;         /* hardware warp slot (local addresses) */
} Ctx;

static uint64_t
max1(uint64_t v)
{
	return v ? v : 1;
}

static uint64_t
umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* insertion sort of v[0..n): nearly sorted in practice (addresses ascend with lanes) */
static void
sort_small(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* sort v[0..n) and drop duplicates; returns the new count. Lanes usually come in address order:
 * one pass drops the duplicates while the values ascend; at the first descent what is left joins
 * the distinct values kept so far and the whole is sorted */
static unsigned
sort_unique(uint64_t *v, unsigned n)
{
	unsigned k = 0, i;

	for (i = 0; i < n && !(k && v[i] < v[k - 1]); i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	if (i == n)
		return k;
	memmove(v + k, v + i, (n - i) * sizeof v[0]);
	n = k + (n - i);
	sort_small(v, n);
	k = 0;
	for (i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* the most lanes of mask that name the same address (atomics on one address serialise) */
static unsigned
same_addr_degree(uint32_t mask, const uint64_t *addr)
{
	uint64_t v[WarpSize];
	unsigned n = 0, best = 0, run = 0;

	for (uint32_t m = mask; m; m &= m - 1)
		v[n++] = addr[__builtin_ctz(m)];
	sort_small(v, n);
	for (unsigned i = 0; i < n; i++) {
		run = i && v[i] == v[i - 1] ? run + 1 : 1;
		best = run > best ? run : best;
	}
	return best;
}

/* ---------------------------------------------------------------------------------------------
 * Caches
 */
static int
cache_init(Cache *c, uint64_t bytes, uint32_t line, uint32_t sector, uint32_t ways)
{
	uint64_t lines = bytes / line;

	memset(c, 0, sizeof *c);
	c->spl = line / sector;
	c->shift = (uint32_t)__builtin_ctz(c->spl);
	c->ways = (uint32_t)(ways < lines ? ways : lines);
	if (!c->ways)
		return 0;
	c->sets = (uint32_t)(lines / c->ways);
	c->line = calloc((size_t)c->sets * c->ways, sizeof *c->line);
	c->ready = calloc((size_t)c->sets * c->ways * c->spl, sizeof *c->ready);
	return c->line && c->ready ? 0 : -1;
}

/* the first way of line's set (the cache has sets) */
static CLine *
cache_set(const Cache *c, uint64_t line)
{
	return &c->line[(line % c->sets) * c->ways];
}

/* the way of the set at w holding line, or NULL */
static CLine *
set_find(const Cache *c, CLine *w, uint64_t line)
{
	for (uint32_t k = 0; k < c->ways; k++)
		if (w[k].tag == line + 1)
			return &w[k];
	return NULL;
}

/* line, absent from the set at w, replaces the set's LRU way */
static CLine *
set_alloc(Cache *c, CLine *w, uint64_t line)
{
	CLine *v = &w[0];

	for (uint32_t k = 0; k < c->ways && v->tag; k++)
		if (!w[k].tag || w[k].lru < v->lru)
			v = &w[k];
	v->tag = line + 1;
	v->valid = 0;
	return v;
}

/* the way holding line, or NULL */
static CLine *
cache_find(const Cache *c, uint64_t line)
{
	return c->sets ? set_find(c, cache_set(c, line), line) : NULL;
}

/* the way holding line, allocated (the LRU way evicted) if absent; NULL without a cache */
static CLine *
cache_fill(Cache *c, uint64_t line)
{
	CLine *w, *v;

	if (!c->sets)
		return NULL;
	w = cache_set(c, line);
	return (v = set_find(c, w, line)) ? v : set_alloc(c, w, line);
}

static uint64_t *
cache_ready(const Cache *c, const CLine *w, uint32_t sector)
{
	return &c->ready[(size_t)(w - c->line) * c->spl + sector];
}

/* ---------------------------------------------------------------------------------------------
 * MSHRs, the link to L2, the L2 view
 */
/* the heap of late completions */
static void
late_pop(SmMem *s)
{
	uint64_t *h = s->late, x = h[--s->nlate];
	uint32_t i = 0, n = s->nlate;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1] < h[c])
			c++;
		if (h[c] >= x)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = x;
}

static void
late_push(SmMem *s, uint64_t release)
{
	uint64_t *h = s->late;
	uint32_t i = s->nlate++;

	while (i && h[(i - 1) / 2] > release) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = release;
}

/* Every outstanding request completes at or after b, which becomes the window's start: the
 * window's requests before b are dropped (complete), and late ones move into the window. */
static void
mshr_advance(SmMem *s, uint64_t b)
{
	for (uint64_t v = s->mbase; s->nwin && v < b; v++) {
		uint32_t *c = &s->win[v & (MshrWindow - 1)];
		s->nwin -= *c;
		*c = 0;
	}
	s->mbase = b;
	while (s->nlate && s->late[0] < b + MshrWindow) {
		if (s->late[0] >= b) {
			s->win[s->late[0] & (MshrWindow - 1)]++;
			s->nwin++;
		}
		late_pop(s);
	}
}

/* the cycle >= t at which a sector request gets an MSHR */
static uint64_t
mshr_alloc(SmMem *s, uint64_t t)
{
	uint64_t v;

	if (t >= s->mbase)
		mshr_advance(s, t + 1);  /* the requests complete by t free their MSHRs */
	if (s->nwin + s->nlate < s->cmshr)
		return t;
	/* all busy: wait for the first to complete */
	v = s->mbase;
	if (s->nwin)
		while (!s->win[v & (MshrWindow - 1)])
			v++;
	else
		v = s->late[0];
	mshr_advance(s, v);
	s->win[v & (MshrWindow - 1)]--;
	s->nwin--;
	return v;
}

/* the request holds its MSHR until release */
static void
mshr_push(SmMem *s, uint64_t release)
{
	if (release < s->mbase) {
		/* the window moves down to start at release; what leaves it becomes late */
		uint64_t lo = release + MshrWindow > s->mbase ? release + MshrWindow : s->mbase;
		for (uint64_t v = lo; v < s->mbase + MshrWindow; v++)
			for (uint32_t *c = &s->win[v & (MshrWindow - 1)]; *c; --*c) {
				late_push(s, v);
				s->nwin--;
			}
		s->mbase = release;
	}
	if (release - s->mbase < MshrWindow) {
		s->win[release & (MshrWindow - 1)]++;
		s->nwin++;
	} else {
		late_push(s, release);
	}
}

/* bytes sent to L2 (or returned from it) no earlier than t: the cycle they start to go */
static uint64_t
link_send(SmMem *s, uint64_t t, unsigned bytes)
{
	uint64_t bpc = max1(s->t.l2_sm_bytes_per_clk), p = umax(t * bpc, s->link);

	s->link = p + bytes;
	return s->link_shift >= 0 ? p >> s->link_shift : p / bpc;
}

/* The four sectors of an aligned group (an L2 line of 128 bytes) get neighbouring slots (a
 * warp's accesses touch few host cache lines); the groups are spread over the table by a
 * multiplicative (Fibonacci) hash. Neighbouring slots for every neighbouring sector made, with
 * linear probing, runs as long as the sectors an SM touched in the epoch, which every lookup of
 * a new sector walked to the end. cpend is a power of two, at least PendMin. */
static size_t
pend_slot(const SmMem *s, uint64_t key)
{
	unsigned bits = (unsigned)__builtin_ctzll(s->cpend);
	uint64_t h = (key >> 2) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> (64 - bits + 2) << 2 | (key & 3));
}

static Pend *
pend_find(const SmMem *s, uint64_t key)
{
	if (!s->cpend)
		return NULL;
	for (size_t i = pend_slot(s, key);; i = (i + 1) & (s->cpend - 1)) {
		Pend *p = &s->pend[i];
		if (p->gen != s->gen)
			return NULL;
		if (p->key == key)
			return p;
	}
}

/* remember key as accessed this epoch (absent from the table); on running out of memory the
 * sector is simply not remembered */
static void
pend_add(SmMem *s, uint64_t key, uint64_t ready)
{
	size_t i;

	if ((s->npend + 1) * 2 > s->cpend) {
		size_t c = s->cpend ? s->cpend * 2 : PendMin;
		Pend *old = s->pend, *p = calloc(c, sizeof *p);
		size_t oc = s->cpend;
		if (!p)
			return;
		s->pend = p;
		s->cpend = c;
		for (size_t k = 0; k < oc; k++)
			if (old[k].gen == s->gen) {
				for (i = pend_slot(s, old[k].key); p[i].gen == s->gen; i = (i + 1) & (c - 1))
					;
				p[i] = old[k];
			}
		free(old);
	}
	for (i = pend_slot(s, key); s->pend[i].gen == s->gen; i = (i + 1) & (s->cpend - 1))
		;
	s->pend[i] = (Pend){key, ready, s->gen};
	s->npend++;
}

/* the access of sector at cycle to the epoch's log; l2_present has just looked up its line */
static void
log_add(SmMem *s, uint64_t cycle, uint64_t sector, unsigned kind)
{
	if (s->nlog == s->clog) {
		size_t c = s->clog ? s->clog * 2 : LogMin;
		L2Req *p = realloc(s->log, c * sizeof *p);
		if (!p)
			return;
		s->log = p;
		s->clog = c;
	}
	s->log[s->nlog++] = (L2Req){cycle, sector, s->l2_at.set, s->l2_at.slice, (uint16_t)kind};
}

/* whether sector is in the L2 as of the epoch start; *delay: its slice's queueing delay. The
 * line looked up last is remembered: the tags do not change during an epoch. */
static int
l2_present(SmMem *s, uint64_t sector, uint64_t *delay)
{
	uint64_t line = sector >> s->l2_shift;

	if (!s->l2_seen || line != s->l2_line) {
		s->l2_valid = memsys_l2_line(s->m, line, &s->l2_delay, &s->l2_at);
		s->l2_line = line;
		s->l2_seen = 1;
	}
	*delay = s->l2_delay;
	return s->l2_valid >> (sector & ((1u << s->l2_shift) - 1)) & 1;
}

/* a sector request that left the SM at tq: when its data is back (loads, atomics) or it is
 * acknowledged (stores) */
static uint64_t
l2_access(SmMem *s, uint64_t sector, unsigned kind, uint64_t tq)
{
	const SimTiming *t = &s->t;
	uint64_t delay, lat, ready;
	Pend *p = pend_find(s, sector);
	int hit = l2_present(s, sector, &delay) || p;

	if (kind == L2Write) {
		/* write-allocate without a read; dirty evictions compete for DRAM */
		lat = t->lat_l2;
		delay += memsys_dram_delay(s->m);
	} else {
		lat = hit ? t->lat_l2 : t->lat_dram;
		if (kind == L2Atomic)
			lat = t->lat_atomic + (hit || t->lat_dram < t->lat_l2 ? 0 : t->lat_dram - t->lat_l2);
		if (!hit)
			delay += memsys_dram_delay(s->m);
	}
	ready = tq + lat + delay;
	if (p)
		ready = umax(ready, p->ready);
	else
		pend_add(s, sector, ready);
	log_add(s, tq, sector, kind);
	return ready;
}

/* ---------------------------------------------------------------------------------------------
 * Global and local memory
 */
static uint64_t
gmem_access(SmMem *s, Ctx *c, const MemAcc *a, uint32_t mask, const uint64_t *addr, int local)
{
	const SimTiming *t = &s->t;
	uint64_t sec[4 * WarpSize], begin, done, tl = 0, last = 0, ready;
	unsigned n = 0, nlines = 0, nhit = 0, S = s->sector, ss = s->sector_shift, ls = s->l1.shift;
	unsigned deg = 1;
	int cacheable = a->kind == MKLoad && !(a->flags & MAL1Bypass) && s->l1.sets;
	CLine *lset = NULL, *w = NULL;  /* the L1 set of the current line, its way */

	if (local) {
		/* word w of lane l at ((w x 32) + l) x 4 in the warp's region */
		uint64_t base = LocalTag | (uint64_t)s->id << 44 | (uint64_t)(c->warp & 0xff) << 36;
		unsigned nw = a->size < 4 ? 1 : a->size / 4u;
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			for (unsigned k = 0; k < nw; k++) {
				uint64_t o = (addr[l] & 0xffffffffu) + 4 * k;
				sec[n++] = (base + ((o >> 2) * WarpSize + l) * 4 + (o & 3)) >> ss;
			}
		}
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint64_t v = addr[__builtin_ctz(m)];
			sec[n++] = v >> ss;
			if ((v + max1(a->size) - 1) >> ss != v >> ss)
				sec[n++] = (v + a->size - 1) >> ss;
		}
	}
	n = sort_unique(sec, n);
	/* start loading what the requests will look at into the host's cache */
	for (unsigned i = 0; i < n; i++) {
		if (i == 0 || sec[i] >> ls != sec[i - 1] >> ls) {
			nlines++;
			memsys_l2_prefetch(s->m, sec[i] >> s->l2_shift);
		}
		if (s->cpend)
			__builtin_prefetch(&s->pend[pend_slot(s, sec[i])]);
	}
	s->g_req++;
	s->g_sectors += n;
	begin = umax(c->start, s->pipe_free);
	done = begin;
	if (a->kind == MKAtomic || a->kind == MKRed)
		deg = same_addr_degree(mask, addr);
	/* one tag lookup per line and cycle; misses leave in order through MSHRs and the link */
	for (unsigned i = 0, li = 0; i < n; i++) {
		uint64_t line = sec[i] >> ls, tline;
		uint32_t k = (uint32_t)(sec[i] & (s->l1.spl - 1));
		int first = i == 0 || line != sec[i - 1] >> ls;

		li += i && first;
		tline = begin + li;
		if (cacheable && first) {
			lset = cache_set(&s->l1, line);
			w = set_find(&s->l1, lset, line);
		}
		if (cacheable && w && (w->valid >> k & 1)) {
			uint64_t r = *cache_ready(&s->l1, w, k);
			w->lru = ++s->l1.stamp;
			s->l1_hits++;
			if (r <= tline)
				nhit++;
			else
				done = umax(done, r);  /* in flight: merged with the outstanding miss */
			continue;
		}
		if (a->kind == MKLoad)
			s->l1_misses++;
		tl = mshr_alloc(s, umax(tl, tline));
		c->lsu_end = umax(c->lsu_end, tl);
		last = link_send(s, tl, S);
		ready = l2_access(s, sec[i], a->kind == MKLoad ? L2Read :
		                  a->kind == MKStore ? L2Write : L2Atomic, last);
		mshr_push(s, ready);
		if (a->kind == MKLoad || a->kind == MKAtomic)
			done = umax(done, ready);
		else
			c->acked = umax(c->acked, ready);
		if (cacheable) {
			if (!w)
				w = set_alloc(&s->l1, lset, line);
			w->valid |= 1u << k;
			w->lru = ++s->l1.stamp;
			*cache_ready(&s->l1, w, k) = ready;
		}
	}
	{
		uint64_t data = ((uint64_t)nhit * S + max1(t->l1_bytes_per_clk) - 1) /
		                max1(t->l1_bytes_per_clk);
		uint64_t occ = umax(umax(nlines, data), 1);
		s->pipe_free = begin + occ;
		if (nhit)
			done = umax(done, begin + t->lat_l1 + occ - 1);
		if (a->kind == MKStore || a->kind == MKRed)
			done = umax(begin + occ, last + 1);
		if (a->kind == MKAtomic)
			done += deg - 1;
	}
	return done;
}

/* ---------------------------------------------------------------------------------------------
 * Shared memory
 */

/* Wavefronts of a shared access: the most distinct bank-width words any one bank serves (the
 * same word for several lanes is a broadcast). A conflict-free 64-bit access takes 2, as two
 * half-warps would; a conflict-free 128-bit access takes 4. */
enum {
	WfMapWords = 32,       /* the bitmap of wavefronts_map: 32 x 64 bank-width words */
};

/* the general count: distinct words per bank with a small open-addressed set of the words seen */
static unsigned
wavefronts_hash(const SmMem *s, uint32_t mask, const uint64_t *addr, unsigned nw)
{
	enum { HashSize = 256 };             /* > 4 x 32 words: the probe always ends */
	uint64_t set[HashSize], used[HashSize / 64] = {0};
	uint8_t cnt[MaxBanks] = {0};
	unsigned best = 0, bb = s->bank_bytes;

	for (uint32_t m = mask; m; m &= m - 1) {
		uint64_t first = addr[__builtin_ctz(m)] / bb;
		for (unsigned k = 0; k < nw; k++) {
			uint64_t x = first + k;
			unsigned h = (unsigned)((x * 0x9e3779b97f4a7c15ull) >> 56), b;
			while ((used[h / 64] >> (h % 64) & 1) && set[h] != x)
				h = (h + 1) % HashSize;
			if (used[h / 64] >> (h % 64) & 1)
				continue;                /* the same word again: a broadcast */
			used[h / 64] |= 1ull << (h % 64);
			set[h] = x;
			b = (unsigned)(x % s->banks);
			if (++cnt[b] > best)
				best = cnt[b];
		}
	}
	return best;
}

/* The same count when the words lie within WfMapWords x 64 of each other and the banks (a power
 * of two, at least 8) divide 64, the usual case: the words as a bitmap from a multiple of 64
 * (each lane's nw consecutive words one run of bits), cut into rows of one bit per bank; a
 * bank's count is the rows with its bit set. The counts are kept bit-sliced (plane j: bit j of
 * every bank's count, a row added with a ripple carry); the largest is read from the top plane
 * down. */
static unsigned
wavefronts_map(const SmMem *s, const uint64_t *first, unsigned n, unsigned nw, uint64_t lo,
               uint64_t hi)
{
	uint64_t map[WfMapWords + 1], pl[8] = {0}, base = lo & ~63ull, cand = ~0ull;
	uint64_t rowmask = s->banks == 64 ? ~0ull : (1ull << s->banks) - 1, run = (1ull << nw) - 1;
	unsigned nmap = (unsigned)((hi - base) >> 6) + 1, np = 0, best = 0, rows = 64 / s->banks;

	memset(map, 0, nmap * sizeof map[0]);
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = first[i] - base;
		unsigned b = (unsigned)(off & 63);
		map[off >> 6] |= run << b;
		if (b + nw > 64)
			map[(off >> 6) + 1] |= run >> (64 - b);
	}
	for (unsigned i = 0; i < nmap; i++)
		for (unsigned j = 0; j < rows && map[i] >> (j * s->banks); j++) {
			uint64_t carry = map[i] >> (j * s->banks) & rowmask;
			for (unsigned k = 0; carry; k++) {     /* at most 4 x 32 rows: 8 planes */
				uint64_t c = pl[k] & carry;
				pl[k] ^= carry;
				carry = c;
				np = k + 1 > np ? k + 1 : np;
			}
		}
	for (unsigned k = np; k-- > 0;)
		if (cand & pl[k]) {
			cand &= pl[k];
			best |= 1u << k;
		}
	return best;
}

static unsigned
wavefronts(const SmMem *s, uint32_t mask, const uint64_t *addr, unsigned size)
{
	uint64_t first[WarpSize], lo = UINT64_MAX, hi = 0;
	unsigned bb = s->bank_bytes, n = 0, sh = (unsigned)__builtin_ctz(bb);
	unsigned nw = size <= bb ? 1 : (bb & (bb - 1)) ? (size + bb - 1) / bb : (size + bb - 1) >> sh;

	if (nw > 4)
		nw = 4;
	if (s->banks < 8 || !mask || (bb & (bb - 1)))
		return wavefronts_hash(s, mask, addr, nw);
	for (uint32_t m = mask; m; m &= m - 1) {
		uint64_t x = addr[__builtin_ctz(m)] >> sh;
		first[n++] = x;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (hi - lo >= (uint64_t)WfMapWords * 64 - 63 - nw)
		return wavefronts_hash(s, mask, addr, nw);
	return wavefronts_map(s, first, n, nw, lo, hi + nw - 1);
}

static uint64_t
smem_access(SmMem *s, Ctx *c, const MemAcc *a, uint32_t mask, const uint64_t *addr)
{
	uint64_t wf = wavefronts(s, mask, addr, a->size), begin = umax(c->start, s->pipe_free);

	s->smem_req++;
	s->smem_wf += wf;
	switch (a->kind) {
	case MKLoad:
		s->pipe_free = begin + wf;
		return begin + s->t.lat_lds + wf - 1;
	case MKStore:
		s->pipe_free = begin + wf;
		return begin + wf;
	default:
		/* read and write back, each with the conflicts; one address serialises */
		s->pipe_free = begin + 2 * wf;
		if (a->kind == MKRed)
			return begin + 2 * wf;
		return begin + s->t.lat_lds + 2 * wf - 1 + same_addr_degree(mask, addr) - 1;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Constant cache: addr = bank << 16 | offset; distinct words are served one per cycle
 */
static uint64_t
const_access(SmMem *s, Ctx *c, uint32_t mask, const uint64_t *addr)
{
	uint64_t w[WarpSize], tc = c->start, done = c->start;
	unsigned n = 0;

	for (uint32_t m = mask; m; m &= m - 1)
		w[n++] = addr[__builtin_ctz(m)] >> 2;
	n = sort_unique(w, n);
	for (unsigned i = 0; i < n; i++, tc++) {
		uint64_t line = w[i] * 4 / ConstLine, r;
		CLine *v = cache_find(&s->cc, line);
		if (v) {
			s->c_hits++;
			r = umax(tc + s->t.lat_const, *cache_ready(&s->cc, v, 0));
		} else {
			s->c_misses++;
			r = tc + s->t.lat_const_miss;
			if ((v = cache_fill(&s->cc, line))) {
				v->valid = 1;
				*cache_ready(&s->cc, v, 0) = r;
			}
		}
		if (v)
			v->lru = ++s->cc.stamp;
		done = umax(done, r);
	}
	return done;
}

/* ---------------------------------------------------------------------------------------------
 * Instructions
 */

/* one recorded access, generic ones split by window */
static uint64_t
access_one(SmMem *s, Ctx *c, const MemAcc *a)
{
	uint64_t off[WarpSize], done = c->start;
	uint32_t msh = 0, mlo = 0, mgl = 0;

	switch (a->space) {
	case MSShared:
		return smem_access(s, c, a, a->mask, a->addr);
	case MSGlobal:
		return gmem_access(s, c, a, a->mask, a->addr, 0);
	case MSLocal:
		return gmem_access(s, c, a, a->mask, a->addr, 1);
	case MSConst:
		return const_access(s, c, a->mask, a->addr);
	}
	for (uint32_t m = a->mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t v = a->addr[l];
		if (v - SimSharedWindow < SimWindowSize) {
			off[l] = v - SimSharedWindow;
			msh |= 1u << l;
		} else if (v - SimLocalWindow < SimWindowSize) {
			off[l] = v - SimLocalWindow;
			mlo |= 1u << l;
		} else {
			mgl |= 1u << l;
		}
	}
	if (msh)
		done = umax(done, smem_access(s, c, a, msh, off));
	if (mlo)
		done = umax(done, gmem_access(s, c, a, mlo, off, 1));
	if (mgl)
		done = umax(done, gmem_access(s, c, a, mgl, a->addr, 0));
	return done;
}

void
smmem_access(SmMem *s, const MemLog *log, uint64_t now, MemTiming *t)
{
	const SimTiming *cf = &s->t;
	Ctx c;
	uint64_t done, arrive = 0, async_wf = 0;
	int async = 0;

	c.start = s->taken && s->take_now == now ? s->take_start : now;
	c.lsu_end = c.start;
	c.acked = 0;
	c.warp = log->warp;
	s->taken = 0;
	done = c.start;
	for (unsigned k = 0; k < log->n && k < 2; k++) {
		const MemAcc *a = &log->acc[k];
		if (!(a->flags & MAAsync)) {
			done = umax(done, access_one(s, &c, a));
		} else if (a->space == MSShared) {
			/* LDGSTS's write into shared memory, when the data arrives */
			async = 1;
			async_wf = wavefronts(s, a->mask, a->addr, a->size);
			s->smem_req++;
			s->smem_wf += async_wf;
		} else {
			async = 1;
			arrive = umax(arrive, access_one(s, &c, a));
		}
	}
	if (async) {
		uint64_t extra = cf->lat_ldgsts > cf->lat_l1 ? cf->lat_ldgsts - cf->lat_l1 : 0;
		if (!arrive)
			arrive = c.start + cf->lat_l1;  /* nothing read: the zero fill */
		done = umax(done, arrive + extra + (async_wf ? async_wf - 1 : 0));
	}
	s->mio_next = umax(s->mio_next, c.lsu_end);
	t->src_read = c.start + cf->lat_src_read;
	t->done = umax(done, t->src_read);
	t->drained = umax(t->done, c.acked);
}

/* ---------------------------------------------------------------------------------------------
 * MIO
 */
uint64_t
smmem_mio_ready(const SmMem *s, unsigned p, uint64_t now)
{
	uint64_t oldest;

	if (p >= s->nsub)
		p %= s->nsub;
	if (s->qn[p] < s->qcap)
		return now;
	oldest = s->q[(size_t)p * s->qcap + s->qhead[p]];
	return umax(oldest, now);
}

void
smmem_mio_take(SmMem *s, unsigned p, uint64_t now)
{
	uint64_t start = umax(now, s->mio_next);
	uint64_t *q;

	if (p >= s->nsub)
		p %= s->nsub;
	q = &s->q[(size_t)p * s->qcap];
	s->mio_next = start + max1(s->t.mio_ii);
	if (s->qn[p] < s->qcap) {
		uint32_t i = s->qhead[p] + s->qn[p]++;   /* < 2 qcap: the ring without a division */
		q[i >= s->qcap ? i - s->qcap : i] = start;
	} else {
		q[s->qhead[p]] = start;
		s->qhead[p] = s->qhead[p] + 1 == s->qcap ? 0 : s->qhead[p] + 1;
	}
	s->take_now = now;
	s->take_start = start;
	s->taken = 1;
}

uint64_t
smmem_mio_start(const SmMem *s)
{
	return s->take_start;
}

/* ---------------------------------------------------------------------------------------------
 * Life cycle, epochs, statistics
 */
SmMem *
smmem_new(MemSys *m, const SimConfig *c, unsigned sm_id)
{
	const SimTiming *t = &c->t;
	SmMem *s = calloc(1, sizeof *s);
	uint64_t l1_bytes;
	uint32_t line;

	if (!s)
		return NULL;
	s->m = m;
	s->t = *t;
	s->id = sm_id;
	s->sector = memsys_sector_bytes(m);
	s->sector_shift = (uint32_t)__builtin_ctz(s->sector);
	s->l2_shift = memsys_line_shift(m);
	s->banks = (uint32_t)max1(t->smem_banks);
	if (s->banks > MaxBanks)
		s->banks = MaxBanks;
	s->bank_bytes = (uint32_t)max1(t->smem_bank_bytes);
	s->nsub = (uint32_t)max1(t->subpartitions);
	s->qcap = (uint32_t)max1(t->mio_queue);
	s->link_shift = -1;
	if (!(max1(t->l2_sm_bytes_per_clk) & (max1(t->l2_sm_bytes_per_clk) - 1)))
		s->link_shift = __builtin_ctzll(max1(t->l2_sm_bytes_per_clk));
	s->q = calloc((size_t)s->nsub * s->qcap, sizeof *s->q);
	s->qn = calloc(s->nsub, sizeof *s->qn);
	s->qhead = calloc(s->nsub, sizeof *s->qhead);
	s->cmshr = (uint32_t)max1(t->l1_mshr);
	s->late = calloc(s->cmshr, sizeof *s->late);
	s->win = calloc(MshrWindow, sizeof *s->win);
	s->gen = 1;
	line = t->l1_line > s->sector ? t->l1_line : s->sector;
	if (line / s->sector > 32)
		line = 32 * s->sector;
	l1_bytes = t->l1_total > t->smem_per_sm ? (uint64_t)t->l1_total - t->smem_per_sm : 0;
	if (!s->q || !s->qn || !s->qhead || !s->late || !s->win ||
	    cache_init(&s->l1, l1_bytes, line, s->sector, (uint32_t)max1(t->l1_assoc)) ||
	    cache_init(&s->cc, t->const_cache_bytes, ConstLine, ConstLine, ConstWays)) {
		smmem_free(s);
		return NULL;
	}
	return s;
}

void
smmem_free(SmMem *s)
{
	if (!s)
		return;
	free(s->q);
	free(s->qn);
	free(s->qhead);
	free(s->late);
	free(s->win);
	free(s->l1.line);
	free(s->l1.ready);
	free(s->cc.line);
	free(s->cc.ready);
	free(s->pend);
	free(s->log);
	free(s);
}

const L2Req *
smmem_l2_log(const SmMem *s, size_t *n)
{
	*n = s->nlog;
	return s->log;
}

void
smmem_epoch_done(SmMem *s)
{
	s->nlog = 0;
	s->npend = 0;
	s->l2_seen = 0;
	if (++s->gen == 0) {
		if (s->pend)
			memset(s->pend, 0, s->cpend * sizeof *s->pend);
		s->gen = 1;
	}
}

void
smmem_stats(const SmMem *s, SimTStats *st)
{
	st->smem_requests += s->smem_req;
	st->smem_wavefronts += s->smem_wf;
	st->l1_hits += s->l1_hits;
	st->l1_misses += s->l1_misses;
	st->const_hits += s->c_hits;
	st->const_misses += s->c_misses;
	st->gmem_requests += s->g_req;
	st->gmem_sectors += s->g_sectors;
}
