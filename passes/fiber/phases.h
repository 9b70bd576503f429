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

/* a global access of a loop versioned on its aliasing: p[i], p the pointer parameter at
 * c[0x0][poff] (docs/pass-phases.md, "Versioning") */
typedef struct VAcc {
	int poff;          /* constant bank 0 offset of the pointer parameter */
	int64_t k;         /* bytes per unit of i (the IMAD.WIDE scale, > 0) */
	int store;         /* 1 a store, 0 a load */
} VAcc;

enum { MaxVAcc = 16 };  /* accesses a versioned loop may have */

/* a strided loop that fibernum.c can split (filled by split_check) */
typedef struct Split {
	const Loop *loop;
	Blk *pre;          /* preheader: the header's one predecessor outside the loop */
	uint32_t iv;       /* header phi: the induction value i */
	uint32_t iv0;      /* its value from the preheader (i's start) */
	uint32_t ivn;      /* its value from the latch (i + S) */
	int step_off[2];   /* S = product of c[0x0][step_off[k]] (blockDim/gridDim words); -1 none */
	int grid_stride;   /* S involves gridDim: per-thread trip count unknown at compile time */
	int64_t bound;     /* loop continues while i + S < bound (an immediate, bound_off < 0) */
	int bound_off;     /* the bound is the parameter word c[0x0][bound_off]; -1: an immediate */
	int start_tid;     /* i's start: 1 SR_TID.X, 2 SR_CTAID.X*blockDim.x + SR_TID.X (0 <= it < S) */
	int nvload;        /* global loads in the loop without .CONSTANT (aliasing unknown) */
	int versioned;     /* a run-time check that acc's ranges are disjoint guards the split */
	int nacc;          /* accesses of the loop (versioned), in acc */
	VAcc acc[MaxVAcc];
	int nstore;        /* stores in the loop */
	int nload;         /* global loads in the loop (LDG.E.CONSTANT) */
	int tmax;          /* most threads per CTA (launch bounds), 1024 when unknown */
	/* chosen by phases.c */
	int m;             /* expansion factor: fibers = m x launched threads */
	int nreg;          /* window of the new wefts */
	int guard_trips;   /* run-time guard: 1 <= N < 2^30, m*S <= 2^30, N >= (2m+1)*S */
	int guard_grid;    /* run-time guard: gridDim = (g, 1, 1), g <= guard_grid (the SMs) */
} Split;

int loops_find(Fn *f, Loop **out);  /* natural loops, outermost first; count (0 none) */
int ins_index(const Fn *f, const Ins *i); /* Fn.ins index of an instruction of a block, -1 */

/* fibernum.c */
const char *split_check(Fn *f, const Loop *l, Split *s); /* NULL: legal; else why not */
int split_apply(Fn *f, Split *s, Diag *d);
/* the distinct ranges (pointer, scale) of a versioned split's accesses into u (MaxVAcc), store
 * set when any access to it stores: the run-time check compares each pair once; their count */
int split_ranges(const Split *s, VAcc *u);
int split_base(const Fn *f);   /* first R register above those f declares or uses */  /* SETFIBERNUM at entry, loop rewritten; -1 error */

#endif
