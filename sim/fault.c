/* fault.c: faults stop a launch with one line that says what, where and who, in the spirit of
 * compute-sanitizer: "out-of-bounds access: kernel 'k' CTA (1,0,0) warp 2 lane 5 thread
 * (69,0,0) PC 0x0150 `STG.E [R2.64], R5`: global write of 4 bytes at 0x7f0000001010 is 16 bytes
 * after allocation #1 [0x7f0000000000, +4096)". The first fault of a launch wins.
 */
#include "sim.h"

#include <stdarg.h>
#include <string.h>

static const char *const fault_names[] = {
	[FaultNone] = "no fault",
	[FaultOOB] = "out-of-bounds access",
	[FaultMisaligned] = "misaligned access",
	[FaultIllegalInstr] = "illegal instruction",
	[FaultWatchdog] = "watchdog",
	[FaultDeadlock] = "deadlock",
	[FaultTrap] = "trap",
	[FaultBadArgs] = "bad launch arguments",
	[FaultLimit] = "launch exceeds a limit",
	[FaultInternal] = "internal error",
	[FaultFiber] = "fiber",
	[FaultInterrupted] = "interrupted",
	[FaultAssert] = "device-side assert",
	[FaultMbarrier] = "mbarrier misuse",
	[FaultTensorMap] = "bad tensor map",
	[FaultRegWindow] = "register outside the setmaxnreg window",
};

const char *
sim_fault_name(int kind)
{
	if (kind < 0 || kind > FaultRegWindow)
		return "unknown fault";
	return fault_names[kind];
}

void
sim_fault(Exec *x, int kind, unsigned lane, const char *fmt, ...)
{
	SimFault *f = x->fault;
	va_list ap;
	char ins[160] = "";
	int n;

	if (!f || f->kind != FaultNone)
		return;
	f->kind = kind;
	n = snprintf(f->msg, sizeof f->msg, "%s: kernel '%s'", sim_fault_name(kind),
	             x->prog ? x->prog->name : "?");
	if (x->cta && x->w && n < (int)sizeof f->msg) {
		const Warp *w = x->w;
		const DIns *d = x->prog ? &x->prog->ins[x->pc] : NULL;
		lane &= WarpSize - 1;
		if (d && d->ir)
			fmt_ins(ins, sizeof ins, x->prog->fn, d->ir, 0);
		n += snprintf(f->msg + n, sizeof f->msg - (size_t)n,
		              " CTA (%u,%u,%u) warp %u lane %u thread (%u,%u,%u) PC 0x%04x%s%s%s",
		              x->cta->ctaid[0], x->cta->ctaid[1], x->cta->ctaid[2], w->id, lane,
		              w->tid[lane][0], w->tid[lane][1], w->tid[lane][2],
		              d ? d->addr : 0, ins[0] ? " `" : "", ins, ins[0] ? "`" : "");
	}
	if (n < (int)sizeof f->msg - 2) {
		f->msg[n++] = ':';
		f->msg[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(f->msg + n, sizeof f->msg - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* one line, whatever the instruction text held */
	for (char *p = f->msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
}
