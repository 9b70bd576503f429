/* initcheck.c: reads of global memory never written (fibersim --initcheck). An allocation made
 * while initcheck is on (Gpu.init_track) carries a byte map of what was written (Alloc.init):
 * the host's copies and memsets (gpu_write) and, here, the stores, atomics and reductions of
 * checked launches. A load of a byte not written is a finding, kept per instruction (check.c)
 * with its first thread and address. Allocations made before, module data and memory outside
 * every allocation (memcheck's business) are not checked. SMs simulated in parallel mark bytes
 * with relaxed atomic stores.
 */
#include "sim.h"

#include <string.h>

static void
finding(Exec *x, const DIns *d, unsigned lane, uint64_t addr, unsigned size)
{
	ChkFind f;

	memset(&f, 0, sizeof f);
	f.kind = ChkUninit;
	f.pc[0] = f.pc[1] = d->pc;
	f.warp[0] = f.warp[1] = x->w->id;
	f.lane[0] = f.lane[1] = (uint8_t)lane;
	f.daddr = addr;
	f.size = size;
	memcpy(f.cta, x->cta->ctaid, sizeof f.cta);
	sim_check_find(x, &f);
}

/* one logged access of a checked launch: global ones, and generic ones outside the shared and
 * local windows */
void
init_access(Exec *x, const DIns *d, const MemAcc *a)
{
	int load = a->kind == MKLoad;
	Alloc *last = NULL;

	if (a->space != MSGlobal && a->space != MSGeneric)
		return;
	for (uint32_t m = a->mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t ad = a->addr[l];
		Alloc *al;
		if (a->space == MSGeneric && (ad - SimSharedWindow < SimWindowSize ||
		                              ad - SimLocalWindow < SimWindowSize))
			continue;
		al = sim_alloc_at(x->gpu, ad, &last);
		if (!al || !al->init || al->freed || a->size > al->size - (ad - al->base))
			continue;
		uint8_t *p = al->init + (ad - al->base);
		if (!load) {
			for (unsigned b = 0; b < a->size; b++)
				__atomic_store_n(&p[b], 1, __ATOMIC_RELAXED);
			continue;
		}
		for (unsigned b = 0; b < a->size; b++)
			if (!__atomic_load_n(&p[b], __ATOMIC_RELAXED)) {
				finding(x, d, l, ad, a->size);
				break;
			}
	}
}
