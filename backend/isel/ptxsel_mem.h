/* ptxsel_mem.h: what the memory family's files share (private to ptxsel_mem.c, ptxsel_atom.c and
 * ptxsel_async.c): state spaces, address operands as SASS text, memory-order modifiers, constant
 * bank 0 words as ALU operands, and the selection functions the table in ptxsel_mem.c names.
 * docs/isel-mem.md describes the sequences.
 */
#ifndef FIBER_PTXSEL_MEM_H
#define FIBER_PTXSEL_MEM_H

#include "ptxlow.h"

enum {
	MemName = 64,      /* bytes of a copied register name or operand text */
	MemAddr = 160,     /* bytes of an address operand "desc[UR4][%rd4.64+0x10]" */
};

/* the memory semantics of an instruction (.weak, .relaxed, .acquire, ...) */
enum MemSem {
	MsWeak,            /* none written, or .weak */
	MsRelaxed,         /* .relaxed.scope */
	MsAcquire,         /* .acquire.scope */
	MsRelease,         /* .release.scope */
	MsAcqRel,          /* .acq_rel.scope */
	MsVolatile,        /* .volatile (relaxed at system scope for global and generic data) */
	MsMmio,            /* .mmio.relaxed.sys */
	MsSc,              /* .sc (fence) */
};

/* ptxsel_mem.c */
/* the state space written on the instruction: PsGlobal, PsShared (.shared, .shared::cta),
 * PsLocal, PsConst, PsParam, PsNoSpace (generic); -1 after a located error for the spaces that
 * are not selected (.shared::cluster) */
int mem_space(Lw *w);
int mem_sem(const Lw *w);                 /* MemSem */
/* the SASS scope of .cta/.gpu/.sys (.cluster: GPU; none: GPU): "SM", "GPU", "SYS" */
const char *mem_scope(const Lw *w);
/* the fence before a release (MEMBAR.ALL.<CTA|GPU|SYS>, ERRBAR and on sm_90 CGAERRBAR for gpu
 * and sys) and the L1 invalidation after an acquire at gpu or sys scope (CCTL.IVALL) */
void mem_release(Lw *w, const char *scope);
void mem_acquire(Lw *w, const char *scope);
/* the address operand k of an access to space as SASS text with its brackets: "[%r5+0x8]",
 * "[%rd4.64+0x10]" (sm_8x) or "desc[UR4][%rd4.64+0x10]" (sm_90, global and generic); a shared
 * or local variable named in a generic access gets its generic address in a temporary first.
 * 0, or -1 after a located error. */
int mem_addr(Lw *w, int k, int space, char *buf, size_t n);
/* the same without desc[] (CAS, QSPC, CCTL, MMIO: the forms nvcc writes without it) */
int mem_addr_nodesc(Lw *w, int k, int space, char *buf, size_t n);
/* the same plus `extra` bytes, with desc[UR4] on sm_90 when desc is set */
int mem_addr_x(Lw *w, int k, int space, int64_t extra, int desc, char *buf, size_t n);
/* the register of an address operand k [reg+off] (a 64-bit one: the pair's first register, the
 * low word); -1 after a located error for another form */
int mem_reg_base(Lw *w, int k, char *buf, size_t n);
/* a 32-bit word of constant bank 0 as an ALU source: "c[0x0][0x18]" on sm_8x; on sm_90 (whose
 * ALU instructions nvcc never gives a constant operand) a temporary loaded with LDC */
const char *mem_cbank(Lw *w, unsigned off, char *buf, size_t n);
/* the generic address of the shared (space PsShared) or local (PsLocal) 32-bit address `a`
 * into the pair `d` (cvta.shared, cvta.local) */
void mem_to_generic(Lw *w, int space, const char *d, const char *a);
/* the shared or local address (32 bits) into `d` of the generic address in the pair `a`
 * (cvta.to.shared, cvta.to.local: the offset in the window) */
void mem_from_generic(Lw *w, int space, const char *d, const char *a);
/* operand k's element e as a 32-bit source text for MOV/PRMT (register, "RZ" for a zero
 * immediate, "0x..." for another), of an element of `bits` bits; word 1 for the high half of
 * a 64-bit one */
const char *mem_elem_src(Lw *w, int k, int e, int bits, int word, char *buf, size_t n);
/* the same, always a register (an immediate other than zero is moved into a temporary) */
const char *mem_elem_reg(Lw *w, int k, int e, int bits, int word, char *buf, size_t n);
/* a label to branch to past a sequence with its own loop when the instruction is guarded:
 * writes `@!p BRA label` and returns the label (copied to buf), or NULL when unguarded */
const char *mem_guard_skip(Lw *w, char *buf, size_t n);

/* ptxsel_atom.c */
int sel_atom(Lw *w);                      /* atom */
int sel_red(Lw *w);                       /* red */

/* ptxsel_async.c */
int sel_cp(Lw *w);                        /* cp.async, commit_group, wait_group, wait_all */
int sel_mbarrier(Lw *w);                  /* mbarrier (the sm_80 forms) */
int sel_fence(Lw *w);                     /* fence */
int sel_membar(Lw *w);                    /* membar */

/* ptxsel_async90.c */
int sel_mbarrier90(Lw *w);                /* mbarrier on sm_90a (SYNCS) */
int sel_tmap_prefetch(Lw *w);             /* prefetch.tensormap, sm_90a */
int sel_bulk90(Lw *w);                    /* cp.async.bulk (not tensor) and its groups, sm_90a */

#endif /* FIBER_PTXSEL_MEM_H */
