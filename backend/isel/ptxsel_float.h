/* ptxsel_float.h: what the files of the float selection family share (ptxsel_float.c: the table,
 * arithmetic, comparisons, selects, testp, and these helpers; ptxsel_fcvt.c: cvt; ptxsel_fdiv.c:
 * division, rcp, sqrt, rsqrt and the MUFU approximations; ptxsel_fseq.c: nvcc's IEEE sequences as
 * templates). docs/isel-float.md describes the sequences. */
#ifndef FIBER_PTXSEL_FLOAT_H
#define FIBER_PTXSEL_FLOAT_H

#include "ptxlow.h"

/* a sequence of several SASS instructions for one PTX instruction: a guarded PTX instruction
 * (`@%p div.rn.f32 ...`) becomes `@!%p BRA skip`, the sequence unguarded, `skip:` (so that its
 * temporaries are always written before they are read); fs_begin/fs_end bracket it */
typedef struct FSeq {
	char guard[48];    /* w->guard as it was */
	char skip[32];     /* the label after the sequence, "" when unguarded */
} FSeq;
void fs_begin(Lw *w, FSeq *s);
void fs_end(Lw *w, FSeq *s);

/* every modifier of the instruction that is not a type is one of `allowed` (space separated
 * words without dots), else a located error (-1) */
int fs_mods(Lw *w, const char *allowed);
/* the rounding modifier of an arithmetic instruction as a SASS suffix: "" (.rn or none), ".RZ",
 * ".RM", ".RP" */
const char *fs_rnd(Lw *w);
/* a SASS operand is a register (virtual `%...`, RZ), not an immediate or constant */
int fs_isreg(const char *s);
/* a 64-bit float source k: its register pair; an immediate as the SASS literal when imm_ok and
 * its low word is zero (DADD, DMUL, DFMA, DSETP encode only the high word), else moved into a
 * fresh pair */
const char *fs_f64src(Lw *w, int k, int imm_ok);
/* the high word of a pair operand (lw_elem(s, 1)), for a register pair only */
const char *fs_hi(Lw *w, const char *pair);
/* a predicate operand k (`%p`, `!%p`, `_`) as SASS ("%p1", "!%p1", "PT") */
const char *fs_pred(Lw *w, int k);
/* the binary64 value with these bits as a SASS literal: "1.5", "+INF", "-0", "+QNAN" */
const char *fs_f64text(Lw *w, uint64_t bits);

/* ptxsel_float_fma.c: ptxas's contraction of mul and add/sub without rounding modifiers
 * (f32, f64) into FFMA/DFMA. fs_fma_folded: w->ins is a mul that an add below takes (write
 * nothing); fs_fma_add: w->ins is an add/sub that takes a mul: FFMA/DFMA written, 1; else 0 */
int fs_fma_folded(Lw *w);
int fs_fma_add(Lw *w);

/* ptxsel_fcvt.c */
int fs_cvt(Lw *w);                           /* cvt to f32/f64 (and tf32) */
int fs_cvt_int(Lw *w);                       /* cvt from f16..f64 to an integer (lw_cvt_f2i) */

/* ptxsel_fdiv.c */
int fs_div(Lw *w);
int fs_rcp(Lw *w);
int fs_sqrt(Lw *w);
int fs_rsqrt(Lw *w);
int fs_mufu(Lw *w);                          /* ex2 lg2 sin cos tanh .approx */

/* ptxsel_fseq.c: nvcc's sequences, one line per string (NULL ends), in the template language of
 * fs_expand (ptxsel_fdiv.c) */
extern const char *const fseq_div_rn_f32[], *const fseq_div_rn_ftz_f32[];
extern const char *const fseq_rcp_rn_f32[], *const fseq_rcp_rn_ftz_f32[];
extern const char *const fseq_sqrt_rn_f32[], *const fseq_sqrt_rn_ftz_f32[];
extern const char *const fseq_div_rn_f64[], *const fseq_rcp_rn_f64[], *const fseq_sqrt_rn_f64[];
extern const char *const fseq_rsqrt_f64[];

#endif /* FIBER_PTXSEL_FLOAT_H */
