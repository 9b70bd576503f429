/* ptxsel_int.h: what the int family's selection files share (ptxsel.h, docs/isel-int.md):
 * ptxsel_int.c (operand helpers, add/sub/mul/mad and the rest of the arithmetic, the table),
 * ptxsel_ibit.c (logic, shifts, bit fields, prmt, lop3, bit counts), ptxsel_icmp.c (setp,
 * set, selp, slct, integer cvt), ptxsel_idiv.c (div, rem).
 *
 * Conventions. A 16-bit PTX register is the low half of an R register with the upper half
 * undefined (ptxlow.h): an operation whose low 16 result bits depend only on the low 16 source
 * bits (add, mul.lo, logic, shl) uses the register as it is; the others extend first (ix_ext).
 * Sequences write temporaries and then the destination last, so that a destination naming a
 * source is safe. An instruction with its own predicate (@p in a sequence) is written with
 * lw_emit_ng and writes only temporaries: the PTX guard is on the instructions that write the
 * destination (lw_emit).
 */
#ifndef FIBER_PTXSEL_INT_H
#define FIBER_PTXSEL_INT_H

#include "ptxlow.h"

#include <string.h>

/* ptxsel_int.c: operands */
int ix_op(const Lw *w, const char *op);        /* the opcode is op */
int ix_nopnd(Lw *w, int n);                    /* n operands: 0, else a located error (-1) */
int ix_bits(const Lw *w);                      /* bits of the operation type (lw_type) */
int ix_sgn(const Lw *w);                       /* the operation type is signed */
const char *ix_imm(Lw *w, uint32_t v);         /* a 32-bit integer immediate ("0x10", "-0x4") */
int ix_isimm(const Lw *w, int k);              /* operand k is an immediate */
int64_t ix_immv(Lw *w, int k);                 /* its value */
const char *ix_b(Lw *w, int k);                /* 32-bit source for a b slot: register, immediate,
                                                  or c[0x0][param] */
const char *ix_a(Lw *w, int k);                /* 32-bit source as a register */
/* operand k, a value of `bits` (8 or 16; 32 or more: as it is) extended (sgn: sign) to 32 bits:
 * ix_ext a b-slot source (an immediate folded), ix_aext a register */
const char *ix_ext(Lw *w, int k, int bits, int sgn);
const char *ix_aext(Lw *w, int k, int bits, int sgn);
/* a register holding r extended from `bits` to 32 (a temporary; bits >= 32: r) */
const char *ix_extreg(Lw *w, const char *r, int bits, int sgn);
const char *ix_pair(Lw *w, int k);             /* 64-bit source as a register pair */
const char *ix_lo(Lw *w, int k);               /* low word for a b slot (lw_lo) */
const char *ix_hi(Lw *w, int k);               /* high word for a b slot (lw_hi) */
const char *ix_hireg(Lw *w, int k);            /* high word as a register */
/* the destination register k of a `bits`-wide result (1: a predicate), its kind checked */
const char *ix_dreg(Lw *w, int k, int bits);
const char *ix_pred(Lw *w, int k);             /* predicate source: "%p1", "!%p1" */
const char *ix_pdst(Lw *w, int k, int e);      /* predicate destination e of k (p or p|q); PT
                                                  for `_` */
int ix_is_reg(const char *s);                  /* s names a register (not an immediate or c[]) */
/* LOP3.LUT [pd,] d, a, b, c, lut, q with at most one immediate or c[] among a, b, c moved to
 * the b slot (the LUT permuted), the others made registers; pd NULL: no predicate result
 * (q then !PT); g: the PTX guard on it */
void ix_lop3(Lw *w, int g, const char *pd, const char *d, const char *a, const char *b,
             const char *c, unsigned lut, const char *q);
/* a copy of the name s that outlives the ring of LwRing operand strings (a ring of its own of
 * IxKeep names, for the long sequences: 64-bit division) */
enum { IxKeep = 1024 };
const char *ix_keep(const char *s);
void ix_emit(Lw *w, int g, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ptxsel_int.c: 64-bit helpers the other files use */
/* d = a + b (64-bit), sub: a - b; a a register pair, b lo/hi b-slot texts */
void ix_add64(Lw *w, int g, const char *d, const char *a, const char *blo, const char *bhi,
              int sub);
/* d = -a (64-bit), a a register pair */
void ix_neg64(Lw *w, int g, const char *d, const char *a);
/* p = a cmp b on 64 bits (cmp "LT", "GE", ...; sgn: signed); p a predicate temporary, q the
 * second result (!r) or "PT"; c, bop: the combiner ("PT", "AND" for none) */
void ix_cmp64(Lw *w, int g, const char *p, const char *q, const char *cmp, int sgn,
              const char *alo, const char *ahi, const char *blo, const char *bhi,
              const char *bop, const char *c);

/* ptxsel_ibit.c */
int ix_sel_logic(Lw *w);                       /* and or xor not cnot (and .pred) */
int ix_sel_shift(Lw *w);                       /* shl shr */
int ix_sel_shf(Lw *w);
int ix_sel_prmt(Lw *w);
int ix_sel_bfe(Lw *w);
int ix_sel_bfi(Lw *w);
int ix_sel_lop3(Lw *w);
int ix_sel_count(Lw *w);                       /* popc clz bfind */
int ix_sel_brev(Lw *w);
int ix_sel_bmsk(Lw *w);
int ix_sel_szext(Lw *w);

/* ptxsel_icmp.c */
int ix_sel_setp(Lw *w);
int ix_sel_set(Lw *w);
int ix_sel_selp(Lw *w);
int ix_sel_slct(Lw *w);
int ix_sel_cvt(Lw *w);

/* ptxsel_idiv.c */
int ix_sel_div(Lw *w);                         /* div rem */

#endif
