/* passes.h: the passes of passes/, run by the pass manager (ir/pass.c, listed in
 * driver/passlist.c), and the liveness analysis they share.
 *
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
	int maxr;          /* most R registers live at one point (reachable code) */
};

Live *live_build(Fn *f, uint32_t nunit);       /* requires cfg; NULL if f has no CFG */
void live_free(Live *l);
void live_solve(Fn *f, uint32_t nword, const uint64_t *gen, const uint64_t *kill, uint64_t *in,
                uint64_t *out, int calls); /* the dataflow itself, over any dense unit sets */
int live_has(const Live *l, const uint64_t *set, uint32_t unit);
void live_dump(FILE *out, const Fn *f, const Live *l);
int live_max_regs(Fn *f);                      /* for --stats; -1 if f has no CFG */

/* ---------------------------------------------------------------------------------------------
 * ssa.c: SSA form over the architectural register units, and the way back.
 */
int ssa_build(Fn *f, Diag *d);    /* requires cfg and dom */
int ssa_out(Fn *f, Diag *d);      /* back to physical registers; -1 if a phi merges different
                                     registers or an operand does not read its register's
                                     reaching value (a copy would be needed) */

/* ---------------------------------------------------------------------------------------------
 * The passes: 0 on success, -1 after reporting on d.
 */
int pass_cfg(Fn *f, Diag *d);         /* cfg: cfg_build + dom_build */
int pass_ssa(Fn *f, Diag *d);         /* ssa: ssa_build + ssa_uses */
int pass_verify(Fn *f, Diag *d);      /* verify: verify_fn */
int pass_outssa(Fn *f, Diag *d);  /* out-of-ssa: ssa_out */
int module_outssa(Module *m, const char *only_fn, Diag *d); /* every function (or only_fn) out
                                     of SSA: what emit_sass (backend/) requires */
int pass_dce_phi(Fn *f, Diag *d);     /* dce-phi: remove phis whose value nothing reads */
int pass_liveness(Fn *f, Diag *d);    /* liveness: compute (and check) live sets */
int pass_phases(Fn *f, Diag *d);      /* phases: phases, fiber counts, SETFIBERNUM (phases.c) */
int pass_fiber_regs(Fn *f, Diag *d);  /* fiber-regs: windows, .maxfibers (fiberregs.c) */

#endif /* FIBER_PASSES_H */
