/* passes.h: the passes of passes/ that every pipeline shares, run by the pass manager (ir/pass.c,
 * listed in driver/passlist.c): SSA in and out, dce-phi, and the liveness and pressure analyses
 * that the FIBER passes (passes/fiber/, fpasses.h) and the code generator (backend/) build on.
 */
#ifndef FIBER_PASSES_H
#define FIBER_PASSES_H

#include "ir.h"

/* ---------------------------------------------------------------------------------------------
 * liveness.c: live register units per block, as bitsets of a chosen width.
 */
typedef struct Live Live;

struct Live {
	uint32_t nunit;    /* units tracked: 0..nunit-1 (NumArchUnit, or NumUnit with V) */
	uint32_t nword;    /* 64-bit words per set */
	uint32_t nblk;     /* blocks, indexed by Blk.id */
	uint64_t *in;      /* nblk sets: live on entry */
	uint64_t *out;     /* nblk sets: live on exit */
	int maxr;          /* most R registers live at one point (reachable code): Pressure.maxlive;
	                      -1 from live_sets */
};

Live *live_build(Fn *f, uint32_t nunit);       /* requires cfg; NULL if f has no CFG */
Live *live_sets(Fn *f, uint32_t nunit);        /* the same without maxr (-1): for callers
                                                  that run pressure_build themselves */
void live_free(Live *l);
void live_solve(Fn *f, uint32_t nword, const uint64_t *gen, const uint64_t *kill, uint64_t *in,
                uint64_t *out, int calls); /* the dataflow itself, over any dense unit sets */
int live_has(const Live *l, const uint64_t *set, uint32_t unit);
void live_dump(FILE *out, const Fn *f, const Live *l);
int live_max_regs(Fn *f);                      /* for --stats; -1 if f has no CFG */

/* ---------------------------------------------------------------------------------------------
 * pressure.c: register pressure over program order (docs/pass-liveness.md).
 */
enum PrCls { PrR, PrP, PrUR, PrUP, NPrCls }; /* the classes counted */

typedef struct Pressure {
	uint32_t nins;     /* instructions of the blocks in layout order (Fn.ins after relayout) */
	uint16_t *live;    /* nins * NPrCls: live[k * NPrCls + c], class c registers live before
	                      instruction k */
	uint32_t *blk;     /* nins: block id of instruction k */
	int max[NPrCls];   /* most registers of each class live before one instruction */
	uint32_t maxat;    /* first instruction where R reaches max[PrR] */
	int maxlive;       /* most R registers occupied at one point: before or after an
	                      instruction, counting what it writes that nothing reads (= Live.maxr) */
	uint32_t nblk;     /* blocks, by Blk.id */
	int *blkmax;       /* nblk: most R registers occupied at one point of the block */
	uint32_t *blkfirst; /* nblk: index of the block's first instruction */
} Pressure;

typedef struct PLoop {
	uint32_t head;     /* header block id */
	uint32_t nblk;     /* blocks in the natural loop (every back edge to head merged) */
	uint32_t first, last; /* lowest and highest block id in it */
	int max;           /* most R registers occupied at one point of the loop */
} PLoop;

Pressure *pressure_build(Fn *f, const Live *l); /* one backward walk per block; NULL: no CFG */
void pressure_free(Pressure *p);
uint32_t pressure_loops(Fn *f, const Pressure *p, PLoop **out); /* natural loops (malloc'd),
                                     by header id; needs dom_build */
int pressure_csv(FILE *out, const Fn *f, const Pressure *p, int header); /* --emit=pressure:
                                     a '# kernel' line, the column line if header, the rows */
void pressure_dump(FILE *out, Fn *f); /* --print-after=liveness: the annotated listing */

/* ---------------------------------------------------------------------------------------------
 * ssa.c: SSA form over the architectural register units, and the way back.
 */
int ssa_build(Fn *f, Diag *d);    /* requires cfg and dom */
int ssa_out(Fn *f, Diag *d);      /* back to physical registers; -1 if a phi merges different
                                     registers or an operand does not read its register's
                                     reaching value (a copy would be needed) */

/* ---------------------------------------------------------------------------------------------
 * The passes: 0 on success, -1 after reporting on d, PassUnchanged (ir.h) on success when the
 * IR is as it was.
 */
int pass_cfg(Fn *f, Diag *d);         /* cfg: cfg_build + dom_build */
int pass_ssa(Fn *f, Diag *d);         /* ssa: ssa_build + ssa_uses */
int pass_verify(Fn *f, Diag *d);      /* verify: verify_fn */
int pass_outssa(Fn *f, Diag *d);  /* out-of-ssa: ssa_out */
int module_outssa(Module *m, const char *only_fn, Diag *d); /* every function (or only_fn) out
                                     of SSA: what emit_sass (backend/) requires */
int pass_dce_phi(Fn *f, Diag *d);     /* dce-phi: remove phis whose value nothing reads */
int pass_liveness(Fn *f, Diag *d);    /* liveness (pressure.c): live sets, FPlan.pressure and
                                         maxlive, and a warning past the regcount */

#endif /* FIBER_PASSES_H */
