/* frontend.h: the SASS front end. It reads a complete nvdisasm listing (with -hex encodings), a
 * cuobjdump -sass listing, or fiber IR text (a listing with SSA annotations, docs/ir.md) into a
 * Module. The parser is opcode-agnostic; ir/op.c gives meaning to opcodes later.
 *
 * IR text: the annotations are kept per function as SsaNotes (Fn.fe) until sass_apply_ssa(),
 * which runs after cfg_build, dom_build and op_slots, turns them into Vals, Slot.v and Phi lists.
 * Registers that no operand names (Slot.field == SlotImplicit: R2P's predicates, the descriptor
 * pair of an sm_80 `LDG.E [R2.64]`) are written as pseudo-operands after the real ones, in slot
 * order: `def(P0<3>)`, `use(UR4<1,1>)`, and `old(R7<2>)` for SOld slots.
 */
#ifndef FIBER_FRONTEND_H
#define FIBER_FRONTEND_H

#include "ir.h"

typedef struct SsaAnn SsaAnn;
typedef struct SsaPhiText SsaPhiText;
typedef struct SsaNotes SsaNotes;

/* what an annotation stands for */
enum SsaAnnKind {
	AnnOpnd,           /* a register field of an operand (or of the guard) */
	AnnOld,            /* old(R7<2>): the k-th SOld slot */
	AnnDef,            /* def(P0<3>): the k-th slot defining a register no operand names */
	AnnUse,            /* use(UR4<1,1>): the k-th slot reading a register no operand names */
};

/* one annotated register of an instruction: `R2.64<5,1>`, `@P0<1>`, `old(R7<2>)` */
struct SsaAnn {
	uint32_t ins;      /* instruction index in Fn.ins */
	uint8_t opnd;      /* AnnOpnd: operand index; SlotGuard for the guard predicate */
	uint8_t field;     /* AnnOpnd: register field of that operand (0..2) */
	uint8_t kind;      /* SsaAnnKind */
	uint8_t n;         /* number of versions */
	Reg reg;           /* the register as written (first unit) */
	uint32_t *ver;     /* n versions, one per register unit */
	Loc loc;           /* the register and its annotation */
};

/* one phi line: `R7<5> = phi(bb1: R7<2>, bb3: R7<4>) ;` */
struct SsaPhiText {
	uint32_t before;   /* index of the instruction it stands before (its block's first) */
	Reg reg;           /* register unit merged */
	uint32_t ver;      /* version defined */
	uint32_t narg;     /* arguments as written */
	uint32_t *blk;     /* bbN of each argument */
	uint32_t *aver;    /* version of each argument */
	Loc *aloc;         /* each argument, for diagnostics */
	Loc loc;           /* the whole line */
};

/* the annotations of one function, in text order; Fn.fe points to them (module arena) */
struct SsaNotes {
	SsaAnn *ann;       /* register annotations, by instruction then operand order */
	uint32_t nann;     /* used */
	uint32_t cann;     /* allocated (module arena) */
	SsaPhiText *phi;   /* phi lines */
	uint32_t nphi;     /* used */
	uint32_t cphi;     /* allocated (module arena) */
};

/* sass.y: NULL after reporting every error on d (at most d->maxerr); never crashes. The text of
 * src is then read only for diagnostics (src_cold). */
Module *sass_parse(Src *src, Diag *d);

/* check.c: what needs the opcode table (unknown opcodes, encoding words that contradict the
 * text, register tuples running into RZ or misaligned, no kernel): 0, or -1 after reporting */
int sass_check(Module *m, Diag *d);
/* check.c: sass_check as a module load runs it (runtime/verify.c): an unknown opcode is no error
 * here, the simulator's decoder reports it for its kernel alone ("unsupported instruction") */
int sass_check_load(Module *m, Diag *d);
/* check.c: only the encoding words that contradict the text (run at every load): 0, or -1 */
int sass_check_enc(Module *m, Diag *d);

/* ssaread.c */
SsaNotes *sass_notes(const Fn *f);        /* NULL if the function's text had no annotation */
int sass_apply_ssa(Fn *f, Diag *d);       /* 0 ok (f->in_ssa = 1), -1 after reporting */

/* nvinfo.c: fill Fn.info of every function from .nv.info*, .nv.shared.*, .sectioninfo, .other */
void nvinfo_decode(Module *m, Diag *d);

#endif /* FIBER_FRONTEND_H */
