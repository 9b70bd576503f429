/* codegen.h: the passes of the code generator (docs/ptx-codegen.md), run by the pass manager
 * after instruction selection (backend/isel/) or on edited listings: the list scheduler
 * (sched.c), the register allocator (regalloc.c with raweb.c, rawrite.c) and the control bits
 * (ctrlbits.c, which the FIBER pipelines run last too). They build on passes/ (liveness) and ir/.
 */
#ifndef FIBER_CODEGEN_H
#define FIBER_CODEGEN_H

#include "passes.h"

/* ---------------------------------------------------------------------------------------------
 * The passes: 0 on success, -1 after reporting on d, PassUnchanged (ir.h) on success when the
 * IR is as it was.
 */
int pass_sched(Fn *f, Diag *d);       /* sched (sched.c): list scheduling per block */
int pass_regalloc(Fn *f, Diag *d);    /* regalloc: virtual R and P registers onto R0..R254 and
                                         P0..P6, spilling to local memory (regalloc.c); the
                                         limit is KInfo.maxreg (255 if unknown) */
typedef struct RaStats {
	int regs;          /* the register count written (highest R + 1 + 2) */
	int vregs;         /* declarations (.vreg, .vpred) */
	int spilled;       /* nodes spilled (predicates to R, R to memory) */
	int frame;         /* bytes of spill area */
	int copies;        /* copies coalesced away (MOV Rx, Rx deleted) */
	int rounds;        /* colouring rounds */
} RaStats;
int regalloc_run(Fn *f, Diag *d, int maxreg, RaStats *st); /* the pass with limit maxreg
                                         (8..255); st may be NULL */
int pass_regalloc_window(Fn *f, Diag *d); /* regalloc-window (rawin.c): regalloc into a FIBER
                                         weft's window (R1 kept), the window into the listing */
int pass_ctrl_bits(Fn *f, Diag *d);   /* ctrl-bits (ctrlbits.c): control bits for the
                                         instructions passes inserted or edited */
void ctrl_bits_dump(FILE *out, Fn *f); /* its --print-after dump */
int ctrl_bits_str(char *buf, size_t n, const Ctrl *c); /* "[B------:R-:W-:Y:S04]" */

/* ---------------------------------------------------------------------------------------------
 * sched.c: the list scheduler (docs/pass-sched.md).
 */
typedef struct SchedOpts {
	int max_live;      /* live virtual R registers the pressure guard allows; 0: no guard */
	int always;        /* keep the list schedule even where the estimate is not lower (tests) */
} SchedOpts;

typedef struct SchedStats {
	uint32_t blocks;   /* blocks of two or more instructions looked at */
	uint32_t changed;  /* blocks given a new order */
	uint32_t moved;    /* instructions at a new position */
	uint64_t est_before; /* the model's cycles of those blocks, summed: in the original order */
	uint64_t est_after;  /* and in the order kept */
	int peak_before;   /* most live virtual R registers at one point of a block: before */
	int peak_live;     /* and after */
	int cleared;       /* the function's control bits were cleared (ctrl-bits must run) */
} SchedStats;

void sched_opts_default(SchedOpts *o);        /* max_live 200 */
void sched_set_opts(const SchedOpts *o);      /* what pass_sched uses (fiberc) */
int sched_fn(Fn *f, const SchedOpts *o, SchedStats *st, Diag *d); /* pass_sched with options
                                     and figures (st may be NULL) */

#endif /* FIBER_CODEGEN_H */
