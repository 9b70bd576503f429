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
 * kinfo.c: kernel metadata a pass changes, written back where the listing states it.
 */
void kinfo_regcount(Fn *f, int n);    /* KInfo.regcount, EIATTR_REGCOUNT, SHI_REGISTERS */
int kinfo_frame(Fn *f, int frame, int min_stack); /* KInfo.frame_size, EIATTR_FRAME_SIZE and,
                                         when min_stack >= 0, EIATTR_MIN_STACK_SIZE (appended to
                                         .nv.info if absent); -1 if the listing has no .nv.info */
void kinfo_drop_vregs(Fn *f);         /* the .vreg and .vpred directives out of the .text header
                                         (before any edit: edit.c pins items by index) */

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
int pass_phases(Fn *f, Diag *d);      /* phases: phases, fiber counts, SETFIBERNUM (phases.c) */
int pass_fiber_regs(Fn *f, Diag *d);  /* fiber-regs: windows, .maxfibers (fiberregs.c) */
int pass_mma_banks(Fn *f, Diag *d);   /* mma-banks: MMA operand bank placement (mmabank.c) */
int pass_fiber_ra(Fn *f, Diag *d);    /* fiber-ra: virtual registers onto the window (fiberra.c) */
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
int pass_ctrl_bits(Fn *f, Diag *d);   /* ctrl-bits (ctrlbits.c): control bits for the
                                         instructions passes inserted or edited */
void ctrl_bits_dump(FILE *out, Fn *f); /* its --print-after dump */
int ctrl_bits_str(char *buf, size_t n, const Ctrl *c); /* "[B------:R-:W-:Y:S04]" */
int pass_remote_writes(Fn *f, Diag *d); /* remote-writes (remotewr.c): V<n> destinations
                                     rewritten as local writes + remote reads */
int pass_sched(Fn *f, Diag *d);       /* sched (sched.c): list scheduling per block */
int pass_fverify(Fn *f, Diag *d);     /* fverify (fcheck.c): the FIBER verifier, every remote
                                     write an error */

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

/* ---------------------------------------------------------------------------------------------
 * weftset.c: which wefts (fiber ID / 32) can execute each block and instruction, from the
 * conditions on SR_FIBERID (and SR_TID.X where it equals the fiber ID) that guard branches,
 * EXITs and instructions. Conservative: what it cannot tell is "every weft".
 */
enum {
	WsMaxWeft = FiberMaxFibers / 32,   /* 256 wefts: 64 contexts x 4 sub-partitions */
	WsWords = WsMaxWeft / 64,
};

typedef struct WSet { uint64_t w[WsWords]; } WSet;  /* a set of weft indices */
typedef struct Weftset Weftset;

Weftset *weftset_build(Fn *f);  /* requires cfg; without SSA every block gets every weft */
void weftset_free(Weftset *ws);
WSet weftset_blk(const Weftset *ws, const Blk *b);      /* wefts that may enter b */
WSet weftset_at(const Weftset *ws, const Blk *b, uint32_t k); /* wefts that may execute
                                     instruction k of b, its guard included */
WSet weftset_edge(const Weftset *ws, const Blk *b, uint32_t s); /* wefts that may take
                                     b->succ[s] */
int weftset_pred(const Weftset *ws, uint32_t v, WSet *maytrue, WSet *mayfalse); /* SSA value
                                     v of a predicate: the wefts where some lane may see it
                                     true / false; 0 if v is not known (both all) */
void weftset_dump(FILE *out, const Fn *f, const Weftset *ws); /* `// wefts bbN: ...` lines */
int wset_has(const WSet *s, unsigned w);
int wset_count(const WSet *s);
int wset_first(const WSet *s);       /* lowest weft, -1 if empty */
int wset_fmt(char *buf, size_t n, const WSet *s); /* "0", "1-3,8", "all", "none" */

#endif /* FIBER_PASSES_H */
