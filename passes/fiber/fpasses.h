/* fpasses.h: the FIBER passes (passes/fiber/, docs/fiberc.md): phases and SETFIBERNUM, windows,
 * allocation of FIBER-native virtual registers, MMA operand banks, remote-write rewriting and the
 * FIBER verifier pass, and the weft-set analysis they share. They build on passes.h (liveness,
 * pressure) and ir/; fiberc lists them in driver/passlist.c.
 */
#ifndef FIBER_FPASSES_H
#define FIBER_FPASSES_H

#include "passes.h"

/* ---------------------------------------------------------------------------------------------
 * The passes: 0 on success, -1 after reporting on d, PassUnchanged (ir.h) on success when the
 * IR is as it was.
 */
int pass_phases(Fn *f, Diag *d);      /* phases: phases, fiber counts, SETFIBERNUM (phases.c) */
int pass_fiber_regs(Fn *f, Diag *d);  /* fiber-regs: windows, .maxfibers (fiberregs.c) */
int pass_mma_banks(Fn *f, Diag *d);   /* mma-banks: MMA operand bank placement (mmabank.c) */
int pass_remote_writes(Fn *f, Diag *d); /* remote-writes (remotewr.c): V<n> destinations
                                     rewritten as local writes + remote reads */
int pass_fverify(Fn *f, Diag *d);     /* fverify (fcheck.c): the FIBER verifier, every remote
                                     write an error */

/* fwindow.c: what the allocator of FIBER windows (regalloc-window, backend/rawin.c) and the
 * FIBER passes share */
int fw_has_setfibernum(const Fn *f); /* some block holds a SETFIBERNUM (requires cfg) */
int fw_weft_base(const Fn *f, int w, int n, int slice, int has_sfn); /* weft w's window base
                                     with one CTA per SM (fiber-isa.md section 2), windows of n;
                                     -1: not static (no pool nor SETFIBERNUM, or w >= 4 with it) */
int fw_fix_setfibernum(Fn *f, Diag *d); /* each SETFIBERNUM's nreg: the registers the code
                                     after it names (slots computed); -1 after a located error
                                     where that exceeds the nreg the program wrote (a cap) */
int fw_check_slices(Fn *f, Diag *d, int n, int has_sfn, const char *why); /* the wefts of the
                                     launch bound (.maxfibers, MAX_THREADS/REQNTID, SETFIBERNUM
                                     counts) with their windows (n, or the nreg of the
                                     SETFIBERNUM that may make them) + pools fit every slice;
                                     else a located error ending in (why); needs f->plan */

/* fwphase.c: the code a weft new at each SETFIBERNUM may run (its phase, and the phases after
 * the SETFIBERNUMs it may survive): the registers named there must be in its window */
typedef struct FwPhases {
	uint32_t nins;     /* instructions, in layout order over f->blk (global index g) */
	uint32_t *g0;      /* per block: the global index of its first instruction */
	uint32_t n;        /* SETFIBERNUMs */
	uint32_t *at;      /* n: the global index of each */
	Ins **ins;         /* n: each */
	uint8_t *in;       /* n rows of nins: 1 where a weft new at SETFIBERNUM s may run g */
} FwPhases;
int fw_phases(Fn *f, FwPhases *ph); /* fill ph (requires cfg); 0 */
void fw_phases_free(FwPhases *ph);

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

#endif /* FIBER_FPASSES_H */
