/* phases.h: what the phases pass (phases.c), its SETFIBERNUM split (fibernum.c) and the window
 * pass (fiberregs.c) share: natural loops and the description of a splittable strided loop.
 * Internal to passes/; docs/pass-phases.md explains the design and its proof.
 */
#ifndef FIBER_PHASES_H
#define FIBER_PHASES_H

#include "fpasses.h"

/* a natural loop: the blocks that reach its latch without passing its header */
typedef struct Loop {
	Blk *head;         /* header */
	Blk *latch;        /* the one block with a back edge to head; NULL if several */
	uint8_t *in;       /* per Blk.id: 1 inside the loop */
	uint32_t first, last; /* Fn.ins index range [first, last) spanned by its blocks */
	uint32_t nblk;     /* blocks in the loop */
	int depth;         /* 1 outermost */
} Loop;

/* a strided loop that fibernum.c can split (filled by split_check) */
typedef struct Split {
	const Loop *loop;
	Blk *pre;          /* preheader: the header's one predecessor outside the loop */
	uint32_t iv;       /* header phi: the induction value i */
	uint32_t iv0;      /* its value from the preheader (i's start) */
	uint32_t ivn;      /* its value from the latch (i + S) */
	int step_off[2];   /* S = product of c[0x0][step_off[k]] (blockDim/gridDim words); -1 none */
	int grid_stride;   /* S involves gridDim: per-thread trip count unknown at compile time */
	int64_t bound;     /* loop continues while i + S < bound (an immediate) */
	int start_tid;     /* i's start is SR_TID.X (so 0 <= start < blockDim.x) */
	int nstore;        /* stores in the loop */
	int nload;         /* global loads in the loop (LDG.E.CONSTANT) */
	int tmax;          /* most threads per CTA (launch bounds), 1024 when unknown */
	/* chosen by phases.c */
	int m;             /* expansion factor: fibers = m x launched threads */
	int nreg;          /* window of the new wefts */
} Split;

int loops_find(Fn *f, Loop **out);  /* natural loops, outermost first; count (0 none) */
int ins_index(const Fn *f, const Ins *i); /* Fn.ins index of an instruction of a block, -1 */

/* fibernum.c */
const char *split_check(Fn *f, const Loop *l, Split *s); /* NULL: legal; else why not */
int split_apply(Fn *f, Split *s, Diag *d);
int split_base(const Fn *f);   /* first R register above those f declares or uses */  /* SETFIBERNUM at entry, loop rewritten; -1 error */

#endif
