/* ifetch.c: the L0 instruction cache of a sub-partition (both SM models; docs/sim-timing.md "A
 * sub-partition", docs/calibration.md "Instruction fetch"): direct-mapped lines of icache_line
 * bytes, a miss refilled icache_miss_latency cycles later, and a stream buffer of
 * icache_prefetch lines (Hu25's L0 prefetcher; Jouppi's stream buffer): a miss restarts it at the
 * next line, a line it holds moves into the cache when fetched (the lines before it dropped) and
 * it requests one more, so straight-line code finds its next lines arriving. The next level
 * returns one requested line per cycle. A line in flight is a hit that waits for its arrival.
 */
#include "tcore.h"

#include <stdlib.h>
#include <string.h>

void
ifetch_init(TSub *u, const SimTiming *t)
{
	u->nlines = t->icache_line ? t->icache_bytes / t->icache_line : 0;
	u->ishift = -1;
	if (u->nlines && !(u->nlines & (u->nlines - 1)) && !(t->icache_line & (t->icache_line - 1))) {
		u->ishift = (int8_t)__builtin_ctzll(t->icache_line);
		u->imask = u->nlines - 1;
	}
	u->itag = xmalloc((u->nlines + 1) * sizeof *u->itag);
	memset(u->itag, 0xff, (u->nlines + 1) * sizeof *u->itag);
	u->iready = xmalloc((u->nlines + 1) * sizeof *u->iready);
	u->sb_n = 0;
}

void
ifetch_free(TSub *u)
{
	free(u->itag);
	free(u->iready);
}

/* the stream buffer requests its next line at cycle now */
static void
sb_request(TSub *u, const SimTiming *t, uint64_t now)
{
	uint64_t at = now + t->icache_miss_latency;

	if (at <= u->sb_last)
		at = u->sb_last + 1;
	u->sb_last = at;
	u->sb_ready[(u->sb_line + u->sb_n) % IPrefetchMax] = at;
	u->sb_n++;
}

uint64_t
ifetch(TSub *u, const SimTiming *t, uint32_t addr, uint64_t now)
{
	uint32_t line = u->ishift >= 0 ? addr >> u->ishift : (uint32_t)(addr / t->icache_line);
	uint32_t set = u->ishift >= 0 ? line & u->imask : line % u->nlines;
	unsigned depth = t->icache_prefetch < IPrefetchMax ? t->icache_prefetch : IPrefetchMax;
	uint64_t at;

	if (u->itag[set] == line)
		return u->iready[set] > now ? u->iready[set] : now;
	if (depth && line - u->sb_line < u->sb_n) {     /* the stream buffer holds it */
		uint32_t end = u->sb_line + u->sb_n;
		at = u->sb_ready[line % IPrefetchMax];
		at = at > now ? at : now;
		u->sb_line = line + 1;
		u->sb_n = end - u->sb_line;
	} else {                                         /* a miss: the stream restarts after it */
		at = now + t->icache_miss_latency;
		u->sb_line = line + 1;
		u->sb_n = 0;
		u->sb_last = at;
	}
	while (u->sb_n < depth)
		sb_request(u, t, now);
	u->itag[set] = line;
	u->iready[set] = at;
	return at;
}
