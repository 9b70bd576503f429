/* fstats.c: the FIBER part of `fiberc --stats` (--mode=cuda-native|fiber-native): per kernel
 * what `ptxas -v` users expect (registers, shared memory, stack, constant bank) and what the
 * FIBER passes decided (FPlan, ir.h): window and vector registers, phases with their fiber counts
 * and the reason for every phase left alone, SETFIBERNUM points, pools, remote reads and
 * rewritten remote writes, MMA bank conflicts before and after, control bits written. The line
 * `fibers: KERNEL ...` is read by scripts/fiber-bench.sh.
 */
#include "ir.h"
#include "fstats.h"

#include <string.h>

static const char *const kind_name[NPhaseKind] = {"tensor", "memory", "vector", "control"};

/* byte offset in the input listing of instruction k as the phases pass saw it (it runs before
 * any pass edits the code; nvcc's instructions are 16 bytes each, from 0) */
static long
addr_of(const Fn *f, uint32_t k)
{
	(void)f;
	return (long)k * 16;
}

static void
print_kernel(FILE *out, const Fn *f)
{
	const FPlan *p = f->plan;
	const KInfo *ki = &f->info;
	int window = p->window > 0 ? p->window : ki->regcount;

	fprintf(out, "  %s (%s):\n", mstr(f->mod, f->name),
	        p->mode == FModeCuda ? "cuda-native" : "fiber-native");
	fprintf(out, "    used %d registers, %d bytes smem, %d bytes stack, %d bytes cmem[0] params\n",
	        ki->regcount, ki->shared_size, ki->frame_size > 0 ? ki->frame_size : 0,
	        ki->cbank_param_size > 0 ? ki->cbank_param_size : 0);
	fprintf(out, "    window %d registers per weft (R0..R%d), maxlive %d, slice %d registers, "
	        "%d contexts per sub-partition\n", window, window > 0 ? window - 1 : 0, p->maxlive,
	        p->slice_regs, p->contexts);
	if (window > 0)
		fprintf(out, "    wefts per sub-partition that fit the slice: %d (registers), %d "
		        "(contexts)\n", p->slice_regs / window, p->contexts);
	if (p->nphase) {
		fprintf(out, "    phases:\n");
		fprintf(out, "      %-3s %-15s %-8s %7s %7s %5s  %s\n", "#", "range", "kind", "maxlive",
		        "fibers", "nreg", "decision");
		for (uint32_t k = 0; k < p->nphase; k++) {
			const FPhase *ph = &p->phase[k];
			char range[32], fib[16];

			snprintf(range, sizeof range, "%04lx-%04lx", addr_of(f, ph->first),
			         addr_of(f, ph->last));
			if (ph->fibers)
				snprintf(fib, sizeof fib, "%d", ph->fibers);
			else
				snprintf(fib, sizeof fib, "launch");
			fprintf(out, "      %-3u %-15s %-8s %7d %7s %5d  %s%s%s\n", k, range,
			        ph->kind < NPhaseKind ? kind_name[ph->kind] : "?", ph->maxlive, fib,
			        ph->nreg, ph->fibers ? "transformed" : "left alone: ",
			        ph->fibers && ph->why ? ": " : "", ph->why ? mstr(f->mod, ph->why) : "");
		}
	}
	fprintf(out, "    fibers: %s", mstr(f->mod, f->name));
	{
		int any = 0;
		for (uint32_t k = 0; k < p->nphase; k++)
			if (p->phase[k].fibers) {
				fprintf(out, " %d", p->phase[k].fibers);
				any = 1;
			}
		if (!any)
			fprintf(out, " launch");
	}
	fprintf(out, "\n");
	fprintf(out, "    setfibernum %d, maxfibers %d, pools %d, remote reads %d, remote writes "
	        "rewritten %d (busy-bit syncs %d)\n", p->setfibernum, p->maxfibers, p->npools,
	        p->remote_reads, p->remote_writes, p->busy_syncs);
	if (p->mode == FModeFiber)
		fprintf(out, "    virtual registers %d allocated, copies %d\n", p->vregs, p->copies);
	fprintf(out, "    mma: %d instructions, bank conflicts SIMT %d -> %d, FIBER %d -> %d, "
	        "registers renamed %d\n", p->mma_ops, p->simt_conf_before, p->simt_conf_after,
	        p->fiber_conf_before, p->fiber_conf_after, p->renamed);
	fprintf(out, "    control bits written for %d instructions\n", p->ctrl_set);
}

void
print_fiber_stats(FILE *out, Module *m, const char *only)
{
	int any = 0;

	for (uint32_t k = 0; k < m->nfn; k++) {
		const Fn *f = m->fn[k];

		if (!f->plan || (only && strcmp(mstr(m, f->name), only) != 0))
			continue;
		if (!any)
			fprintf(out, "  FIBER:\n");
		any = 1;
		print_kernel(out, f);
	}
}
