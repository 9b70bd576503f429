/* synccheck.c: barrier misuse (fibersim --synccheck), checked before a barrier instruction or an
 * EXIT runs (check.c's wrapper): a CTA barrier (BAR.SYNC, BAR.RED: __syncthreads()) that a warp
 * reaches with only some of its live threads, or whose other threads exit while these wait, and
 * a WARPSYNC whose waiting threads see threads of their mask exit instead of arriving (nvcc puts
 * `WARPSYNC 0xffffffff` before a __syncthreads(): both are divergent threads in the warp); a BAR
 * with a thread count that
 * differs from the count the threads already waiting at that barrier gave; a WARPSYNC whose mask
 * does not include the calling thread (__syncwarp(mask) called by a thread outside mask). Each
 * finding is kept per kind and instruction (check.c), with its first thread.
 */
#include "sim.h"

#include <string.h>

static void
finding(Exec *x, int kind, uint32_t pc, unsigned lane, uint32_t value)
{
	ChkFind f;

	memset(&f, 0, sizeof f);
	f.kind = (uint8_t)kind;
	f.pc[0] = f.pc[1] = pc;
	f.warp[0] = f.warp[1] = x->w->id;
	f.lane[0] = f.lane[1] = (uint8_t)lane;
	f.addr = value;
	memcpy(f.cta, x->cta->ctaid, sizeof f.cta);
	sim_check_find(x, &f);
}

/* the value of the k-th value operand (immediate or register) in each lane; 0 if none */
static int
value_opnd(Exec *x, const DIns *d, unsigned k, uint32_t *tmp, const uint32_t **v)
{
	unsigned n = 0;

	for (unsigned j = 0; j < d->nsrc; j++) {
		const DOp *o = &d->src[j];
		if (o->kind != DImm && o->kind != DR && o->kind != DUR && o->kind != DCBank)
			continue;
		if (n++ != k)
			continue;
		if (o->kind == DImm) {
			for (unsigned l = 0; l < WarpSize; l++)
				tmp[l] = (uint32_t)o->imm;
			*v = tmp;
		} else {
			*v = sim_src(x, o, tmp);
		}
		return 1;
	}
	return 0;
}

/* BAR.SYNC / BAR.RED id[, count] (not BAR.ARV) by the lanes of mask */
void
sync_bar(Exec *x, const DIns *d, uint32_t mask)
{
	const Warp *w = x->w;
	uint32_t live = w->present & ~w->exited, tmp[WarpSize], tmp2[WarpSize];
	const uint32_t *id, *count;
	unsigned l = (unsigned)__builtin_ctz(mask);

	if (mask != live)
		finding(x, ChkDivBar, d->pc, l, mask);
	if (!value_opnd(x, d, 0, tmp, &id) || !value_opnd(x, d, 1, tmp2, &count))
		return;
	{
		const Cta *c = x->cta;
		uint32_t b = id[l] & 15;
		if (c->bar_arrived[b] && c->bar_expect[b] && c->bar_expect[b] != count[l])
			finding(x, ChkBarCount, d->pc, l, count[l]);
	}
}

/* EXIT by the lanes of mask: threads of the same warp waiting for them at a WARPSYNC or a CTA
 * barrier were left by divergent threads */
void
sync_exit(Exec *x, const DIns *d, uint32_t mask)
{
	const Warp *w = x->w;

	(void)d;
	for (uint32_t m = w->wait_warpsync; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if (w->wsmask[l] & mask) {
			finding(x, ChkDivBar, w->pc[l], l, w->wait_warpsync);
			return;
		}
	}
	for (uint32_t m = w->wait_bar; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if (w->bar_of[l] < 16) {
			finding(x, ChkDivBar, w->pc[l], l, w->wait_bar);
			return;
		}
	}
}

/* WARPSYNC mask by the lanes of mask (not .ALL) */
void
sync_warpsync(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t tmp[WarpSize];
	const uint32_t *v;

	if (!value_opnd(x, d, 0, tmp, &v))
		return;
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if (!(v[l] >> l & 1)) {
			finding(x, ChkWarpsync, d->pc, l, v[l]);
			return;
		}
	}
}
