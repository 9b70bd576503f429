/* mem.c: device memory. Global memory is a sorted list of allocations, each its own host
 * buffer, placed by a bump allocator from SimGlobalBase with an unmapped gap of at least 4 KiB
 * after each (so an overrun faults instead of landing in a neighbour) and never reused (so a
 * use after free is recognised). Memory use is what the program allocates, not the address
 * space. Shared memory is one buffer per CTA, local memory one window per thread; the generic
 * address space maps the windows SimSharedWindow and SimLocalWindow onto them (docs/sim.md).
 * Every access is checked: a fault names the nearest allocation like compute-sanitizer.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

enum {
	AllocAlign = 256,      /* cudaMalloc alignment */
	AllocGap = 4096,       /* unmapped bytes after each allocation, at least */
};

/* allocation containing addr, or NULL; the last hit (*last: the host's or one SM's, so that
 * SMs simulated in parallel never share it) is tried first */
static Alloc *
find(Gpu *g, uint64_t addr, Alloc **last)
{
	uint32_t lo = 0, hi = g->nalloc;
	Alloc *a = *last;

	if (a && addr - a->base < a->size)
		return a;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (g->alloc[mid]->base + g->alloc[mid]->size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < g->nalloc && addr >= g->alloc[lo]->base) {
		*last = g->alloc[lo];
		return g->alloc[lo];
	}
	return NULL;
}

Alloc *
sim_alloc_at(Gpu *g, uint64_t addr, Alloc **last)
{
	return find(g, addr, last);
}

void
gpu_set_init_track(Gpu *g, int on)
{
	g->init_track = on;
	if (on)
		return;
	for (uint32_t k = 0; k < g->nalloc; k++) {   /* unchecked launches will not mark: forget */
		free(g->alloc[k]->init);
		g->alloc[k]->init = NULL;
	}
}

int
gpu_malloc(Gpu *g, uint64_t size, uint64_t *addr)
{
	Alloc *a;

	if (size == 0)
		size = 1;
	if (size > ((uint64_t)1 << 40) || g->bytes + size > ((uint64_t)1 << 40))
		return -1;
	a = xmalloc(sizeof *a);
	a->data = calloc(1, (size_t)size);
	a->init = g->init_track ? calloc(1, (size_t)size) : NULL;
	if (!a->data || (g->init_track && !a->init)) {
		free(a->data);
		free(a->init);
		free(a);
		return -1;
	}
	a->base = g->next_base;
	a->size = size;
	a->id = g->nalloc + 1;
	g->next_base = (a->base + size + AllocGap + AllocAlign - 1) & ~(uint64_t)(AllocAlign - 1);
	vgrow(&g->alloc, &g->calloc, g->nalloc + 1, sizeof *g->alloc);
	g->alloc[g->nalloc++] = a;
	g->bytes += size;
	*addr = a->base;
	return 0;
}

int
gpu_free_mem(Gpu *g, uint64_t addr)
{
	Alloc *a = find(g, addr, &g->last);

	if (!a || a->base != addr || a->freed)
		return -1;
	a->freed = 1;
	free(a->data);
	a->data = NULL;
	free(a->init);
	a->init = NULL;
	g->bytes -= a->size;
	return 0;
}

/* host pointer of [addr, addr+n) inside one live allocation, else NULL */
static uint8_t *
span(Gpu *g, uint64_t addr, uint64_t n)
{
	Alloc *a = find(g, addr, &g->last);

	if (!a || a->freed || n > a->size - (addr - a->base))
		return NULL;
	return a->data + (addr - a->base);
}

int
gpu_write(Gpu *g, uint64_t addr, const void *src, uint64_t n)
{
	uint8_t *p = n ? span(g, addr, n) : NULL;

	if (!n)
		return 0;
	if (!p)
		return -1;
	memcpy(p, src, (size_t)n);
	if (g->last->init)          /* span found g->last */
		memset(g->last->init + (addr - g->last->base), 1, (size_t)n);
	return 0;
}

int
gpu_read(Gpu *g, uint64_t addr, void *dst, uint64_t n)
{
	uint8_t *p = n ? span(g, addr, n) : NULL;

	if (!n)
		return 0;
	if (!p)
		return -1;
	memcpy(dst, p, (size_t)n);
	return 0;
}

/* "16 bytes after allocation #2 [0x7f0000000000, +4096)" */
static void
nearest(Gpu *g, uint64_t addr, char *buf, size_t n)
{
	Alloc *best = NULL;
	uint64_t dist = UINT64_MAX;
	char what[96];

	for (uint32_t k = 0; k < g->nalloc; k++) {
		Alloc *a = g->alloc[k];
		uint64_t d = addr < a->base ? a->base - addr
		           : addr - a->base < a->size ? 0 : addr - (a->base + a->size) + 1;
		if (d < dist) {
			dist = d;
			best = a;
		}
	}
	if (!best) {
		snprintf(buf, n, "no allocation exists");
		return;
	}
	if (best->name)
		snprintf(what, sizeof what, "allocation #%u (%s)", best->id, best->name);
	else
		snprintf(what, sizeof what, "allocation #%u", best->id);
	if (addr >= best->base && addr - best->base < best->size)
		snprintf(buf, n, "inside %s [0x%llx, +%llu), which was freed", what,
		         (unsigned long long)best->base, (unsigned long long)best->size);
	else if (addr < best->base)
		snprintf(buf, n, "%llu bytes before %s [0x%llx, +%llu)%s",
		         (unsigned long long)(best->base - addr), what, (unsigned long long)best->base,
		         (unsigned long long)best->size, best->freed ? " (freed)" : "");
	else
		snprintf(buf, n, "%llu bytes after %s [0x%llx, +%llu)%s",
		         (unsigned long long)(addr - best->base - best->size), what,
		         (unsigned long long)best->base, (unsigned long long)best->size,
		         best->freed ? " (freed)" : "");
}

static int
misaligned(Exec *x, const char *space, uint64_t addr, unsigned n, unsigned lane, int write)
{
	if (!(addr & (n - 1)))
		return 0;
	sim_fault(x, FaultMisaligned, lane, "%s %s of %u bytes at 0x%llx is not %u-byte aligned",
	          space, write ? "write" : "read", n, (unsigned long long)addr, n);
	return 1;
}

uint8_t *
sim_global(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write)
{
	Gpu *g = x->gpu;
	Alloc *a = x->alast;
	char near[200];

	if (a && addr - a->base < a->size && n <= a->size - (addr - a->base) && !a->freed &&
	    !(addr & (n - 1)))
		return a->data + (addr - a->base);
	if (misaligned(x, "global", addr, n, lane, write))
		return NULL;
	a = find(g, addr, &x->alast);
	if (a && !a->freed && n <= a->size - (addr - a->base))
		return a->data + (addr - a->base);
	nearest(g, addr, near, sizeof near);
	sim_fault(x, FaultOOB, lane, "global %s of %u bytes at 0x%llx is %s",
	          write ? "write" : "read", n, (unsigned long long)addr, near);
	return NULL;
}

/* shared addresses are offsets in the CTA's window; on sm_90 bits [31:24] carry the rank of a
 * CTA in the cluster (nvcc's ULEA UR, SR_CgaCtaId, off, 0x18; mapa's PRMT ..0x654): in an
 * explicit cluster the address is that CTA's (distributed shared memory), a rank outside the
 * cluster is an out-of-bounds fault that names it. For LDS/STS/ATOMS (shared::cta) rank bits 0
 * are the CTA's own window (a plain offset); for the shared::cluster forms (a generic address in
 * the shared window, an mbarrier operand: sim_shared_cluster) they are rank 0. */
static uint8_t *
shared_at(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write, int cluster)
{
	Cta *c = x->cta;
	uint64_t off = addr;

	if (misaligned(x, "shared", addr, n, lane, write))
		return NULL;
	if (c->peer && (addr >> 24 || cluster)) {
		uint64_t r = addr >> 24;
		if (r >= c->nrank) {
			sim_fault(x, FaultOOB, lane, "shared::cluster %s at 0x%llx names CTA rank %llu, "
			          "outside the cluster of %u CTAs", write ? "write" : "read",
			          (unsigned long long)addr, (unsigned long long)r, c->nrank);
			return NULL;
		}
		c = c->peer[r];
		off = addr & 0xffffffu;
	}
	if (off < c->smem_size && n <= c->smem_size - off)
		return c->smem + off;
	sim_fault(x, FaultOOB, lane, "shared %s of %u bytes at offset 0x%llx is outside the CTA's "
	          "%u bytes of shared memory", write ? "write" : "read", n,
	          (unsigned long long)addr, c->smem_size);
	return NULL;
}

uint8_t *
sim_shared(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write)
{
	return shared_at(x, addr, n, lane, write, 0);
}

uint8_t *
sim_shared_cluster(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write)
{
	return shared_at(x, addr, n, lane, write, 1);
}

/* local addresses are offsets in the thread's window [0, Cta.lsize): R1 starts at its top */
uint8_t *
sim_local(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write)
{
	Cta *c = x->cta;
	uint64_t thread = (uint64_t)x->w->id * WarpSize + lane;

	if (misaligned(x, "local", addr, n, lane, write))
		return NULL;
	if (addr < c->lsize && n <= c->lsize - addr)
		return c->lmem + thread * c->lsize + addr;
	sim_fault(x, FaultOOB, lane, "local %s of %u bytes at offset 0x%llx is outside the thread's "
	          "%u bytes of local memory (stack overflow?)", write ? "write" : "read", n,
	          (unsigned long long)addr, c->lsize);
	return NULL;
}

uint8_t *
sim_generic(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write)
{
	if (addr - SimSharedWindow < SimWindowSize)
		return sim_shared_cluster(x, addr - SimSharedWindow, n, lane, write);
	if (addr - SimLocalWindow < SimWindowSize)
		return sim_local(x, addr - SimLocalWindow, n, lane, write);
	if (addr - SimParamWindow < SimWindowSize)
		return sim_param(x, addr - SimParamWindow, n, lane, write);
	return sim_global(x, addr, n, lane, write);
}

/* param addresses are offsets in constant bank 0 (the parameters and the driver's words before
 * them), read-only */
uint8_t *
sim_param(Exec *x, uint64_t off, unsigned n, unsigned lane, int write)
{
	if (misaligned(x, "param", off, n, lane, write))
		return NULL;
	if (!write && off < x->cbank_size[0] && n <= x->cbank_size[0] - off)
		return (uint8_t *)x->cbank[0] + off;
	sim_fault(x, FaultOOB, lane, "param %s of %u bytes at offset 0x%llx: %s", write ? "write" :
	          "read", n, (unsigned long long)off, write ? "kernel parameters are read-only" :
	          "past the constant bank of the launch");
	return NULL;
}

uint32_t
sim_const32(Exec *x, unsigned bank, uint32_t off, unsigned lane)
{
	uint32_t v = 0, size;
	const uint8_t *b;

	(void)lane;
	if (bank >= NumCBanks)
		return 0;
	b = x->cbank[bank];
	size = x->cbank_size[bank];
	if (!b || off >= size)
		return 0;
	if (size - off >= 4) {
		memcpy(&v, b + off, 4);
		return v;
	}
	memcpy(&v, b + off, size - off);
	return v;
}
