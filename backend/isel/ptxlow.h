/* ptxlow.h: lowering a checked PTX module (ptx.h) to SASS, the interface shared by the lowering
 * driver (ptxlow.c) and the instruction-selection files (ptxsel_*.c, one per PTX family).
 *
 * Instruction selection writes text: each PTX instruction becomes one or more lines of SASS in
 * the FIBER-native syntax with virtual registers (docs/fiber-isa.md section 9: `%name`,
 * `%name[k]`; predicates `.vpred`), so that the SASS parser (sass.y) reads the result into the
 * IR exactly as it reads a hand-written .vfsass file, with its checks. `fiberc k.ptx
 * --emit=isel` prints that text. The register allocator (backend/regalloc.c), the scheduler and
 * ctrl-bits then make it runnable SASS (docs/ptx-codegen.md).
 *
 * A selection function is `int sel_NAME(Lw *w)`: it reads w->ins (the PTX instruction being
 * selected), writes lines with lw_emit, and returns 0, or -1 after a located error on the PTX
 * text (lw_error: an unsupported form). Operand strings come from the lw_* helpers below; they
 * live in a ring of LwRing buffers, valid until LwRing more helper calls (a line uses at most a
 * dozen). The table ptxsel.h maps PTX opcodes to selection functions.
 */
#ifndef FIBER_PTXLOW_H
#define FIBER_PTXLOW_H

#include "ptx.h"

typedef struct Lw Lw;
typedef struct LwReg LwReg;
typedef struct LwBuf LwBuf;

enum {
	LwRing = 64,       /* operand strings alive at once */
	LwStr = 96,        /* bytes of one operand string */
	LW_NSYS = 2,       /* system routines selected (ptxsyscall.c: vprintf, __assertfail) */
};

/* the kinds of value a PTX register holds, by its declared type */
enum LwKind {
	LkPred,            /* .pred: a virtual predicate (%p...) */
	Lk16,              /* .b16/.u16/.s16/.f16/.bf16: the low half of one R register */
	Lk32,              /* .b32/.u32/.s32/.f32/.f16x2/.bf16x2: one R register */
	Lk64,              /* .b64/.u64/.s64/.f64: an aligned pair of R registers */
	Lk128,             /* .b128: an aligned quad */
};

/* a growing text buffer */
struct LwBuf {
	char *s;
	size_t len, cap;
};

/* one PTX register (or one element %r12 of a %r<N> range) and its virtual register */
struct LwReg {
	const PtxVar *decl; /* its declaration */
	uint32_t idx;      /* element of a range declaration, 0 for a single name */
	uint8_t kind;      /* LwKind */
	uint32_t name;     /* atom of the virtual register's name without % ("r12", "rd3") */
	uint8_t intup;     /* an element of a tuple (lwtuple.c): name is "%$s5[2]", declared with it */
};

struct Lw {
	const Ptx *p;      /* the module */
	const PtxFunc *fn; /* the function being lowered */
	const PtxIns *ins; /* the instruction being selected */
	Diag *d;           /* errors go here (located on the PTX text) */
	const Arch *arch;  /* the target's rules (ir/arch.h arch_code): features, constant bank 0 */
	const Arch *target; /* the row compiled for, suffix included (sm_90a): its own features
	                     * (ArchSyncs) where arch's row is the plain number's */
	int comments;      /* write each PTX instruction as a comment before its SASS */
	uint32_t param_base; /* byte offset of the parameters in constant bank 0 (ArchBank0) */
	uint32_t frame_size; /* bytes of the function's .local variables (its frame at R1, which the
	                      * kernel's prologue lowers by this much): EIATTR_FRAME_SIZE */
	LwBuf code;        /* the function's instructions and labels, in order */
	char guard[48];    /* "@%p3 " or "@!%p3 " for the instruction being selected, else "" */
	uint32_t ntmp;     /* temporaries made so far (names %$t0, %$w0, %$q0, ...) */
	uint32_t nvreg;    /* lw_newvreg registers made (%$s0, ...) */
	uint32_t nlabel;   /* labels made so far (.L_p0, ...) */
	uint32_t nexit;    /* EXIT instructions written: each has a label lw_exit_label() */
	uint32_t exit0;    /* number of this function's first exit label */
	uint32_t nsys;     /* system calls written (CALL.ABS.NOINC): labels .L_sys<N> from the
	                    * listing's count (LwCount.sys), for EIATTR_SYSCALL_OFFSETS */
	uint32_t sysused;  /* bit k: system routine k (lw_sys_name) called, for EIATTR_EXTERNS */
	uint32_t inl;      /* device-function body being inlined: its instance number (labels get
	                    * a `$i<N>` suffix), 0 in the kernel's own body */
	struct LwCall *call; /* ptxcall.c's state: .param slots, the inline stack */
	const PtxIns *tins; /* lw_type's cache: the instruction ... */
	const char *tcache; /* ... and its type */
	/* a selection family's state for the function (the float family's plan of mul/add
	 * contractions): made on the family's first need, released by fam_free when the function
	 * is done */
	void *fam;
	void (*fam_free)(Lw *w);
	int fiber;         /* PtxLower.fiber */
	struct LwFiber *fib; /* the FIBER family's slots and pools (ptxsel_fiber.c), NULL none */
	/* state private to the lowering (ptxlow.c and its parts: lwpriv.h) */
	struct LwPriv *priv;
	char ring[LwRing][LwStr];
	unsigned ringpos;
};

/* ---- writing -------------------------------------------------------------------------------
 * lw_emit: one SASS instruction, printf-style, without the trailing ';' (added), with w->guard
 * in front; lw_emit_ng: the same without the guard (instructions that must always run: a
 * sequence's own branches decide); lw_label_here: a label line `NAME:` */
void lw_emit(Lw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lw_emit_ng(Lw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lw_label_here(Lw *w, const char *name);
const char *lw_newlabel(Lw *w);              /* a fresh label name ".L_pN" */
/* the label an EXIT must carry (EIATTR_EXIT_INSTR_OFFSETS names it): call once per EXIT,
 * lw_label_here(w, lw_exit_label(w)) then lw_emit(w, "EXIT") */
const char *lw_exit_label(Lw *w);
const char *lw_ptxlabel(Lw *w, uint32_t atom); /* the SASS name of a PTX label ("$L__BB0_2") */
/* a located error on the current PTX instruction: "'div.rn.f64' is not supported yet: WHY" */
int lw_error(Lw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* the same on one of its operands */
int lw_error_opnd(Lw *w, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the instruction being selected ------------------------------------------------------ */
int lw_has(const Lw *w, const char *mod);    /* modifier present (no dot): lw_has(w, "ftz") */
const char *lw_type(const Lw *w);            /* the last type modifier ("f32", "u64", "f16x2"),
                                                "" if none (the instruction's operation type) */
const char *lw_type_n(const Lw *w, int n);   /* the n-th type modifier (0 first): cvt.f32.s32 has
                                                "f32" (0) and "s32" (1); "" past the end */
int lw_type_bits(const char *type);          /* 8, 16, 32, 64, 128; 1 for pred; 0 unknown */
int lw_type_signed(const char *type);        /* s8..s64 */
int lw_type_float(const char *type);         /* f16, bf16, f32, f64, f16x2, bf16x2, tf32, e4m3.. */
const PtxOpnd *lw_opnd(const Lw *w, int k);  /* operand k of w->ins */

/* ---- operands as SASS text ---------------------------------------------------------------
 * lw_reg: operand k, which must be a register (a PoName register or a PoVec element given by
 *   lw_vec), as its virtual register name: "%r12" (a 64-bit one names its pair: "%rd3", used as
 *   "%rd3.64" in addresses and as the first register of wide results).
 * lw_lo, lw_hi: the low and high 32-bit registers of a 64-bit operand ("%rd3", "%rd3[1]"); for
 *   an immediate, its low and high words as SASS immediates.
 * lw_src: a 32-bit source as SASS accepts it in the b or c position: a register, an integer
 *   immediate ("0x10", "-0x4"), a float immediate for float types (SASS spelling of the value),
 *   or a constant-bank operand for a kernel parameter read directly. An immediate in a position
 *   that takes none must go through lw_rsrc.
 * lw_rsrc: the same, always a register: an immediate is first moved into a temporary
 *   (`IMAD.MOV.U32 %$tN, RZ, RZ, imm` / `MOV`).
 * lw_imm: operand k's integer value (0 with an error if it is not an immediate).
 * lw_vec: element e of a vector operand {a, b, c, d} or of a pair p|q of setp (or the operand
 *   itself when e == 0 and it is neither), as lw_reg; "RZ" for `_`.
 */
const char *lw_reg(Lw *w, int k);
const char *lw_lo(Lw *w, int k);
const char *lw_hi(Lw *w, int k);
const char *lw_src(Lw *w, int k);
const char *lw_rsrc(Lw *w, int k);
int64_t lw_imm(Lw *w, int k);
const char *lw_isrc(Lw *w, int k);           /* lw_src, but an immediate as its 32 integer bits
                                                ("0x3f800000" for 0f3F800000): MOV, LOP3, PRMT */
int lw_isimm(const Lw *w, int k);            /* PoImm, PoF32, PoF64 or PoFDec */
const char *lw_vec(Lw *w, int k, int e);
int lw_veclen(const Lw *w, int k);           /* elements of a PoVec or PoPair, 1 otherwise */
/* the LwKind of element e of operand k (the register itself for e == 0, or an element of a
 * vector or pair), -1 for `_`, -2 for anything else (an immediate, an address, no element e) */
int lw_vkind(const Lw *w, int k, int e);
/* the register of a PoName operand k as an LwReg (NULL if it is not a register) */
const LwReg *lw_regof(Lw *w, int k);

/* an address operand k ([base], [base+off], [name], [name+off]) for a memory instruction of
 * space `space` (PsGlobal, PsShared, PsLocal, PsConst, PsParam or PsNoSpace: generic): the
 * text between the brackets of the SASS form ("%rd4.64+0x10" for global/generic, "%r5+0x8" for
 * shared/local, "0x40" for an absolute shared variable); -1 after an error. For PsParam of a
 * kernel, *cbank gets the constant bank operand ("c[0x0][0x168]") instead and the function
 * returns 1. */
int lw_addr(Lw *w, int k, int space, char *buf, size_t n, char *cbank, size_t ncb);

/* ---- temporaries ------------------------------------------------------------------------- */
const char *lw_tmp(Lw *w);                   /* a fresh 32-bit virtual register "%$tN" */
const char *lw_tmp64(Lw *w);                 /* a fresh aligned pair "%$wN" (elements [0], [1]) */
const char *lw_tmp128(Lw *w);                /* a fresh aligned quad "%$xN" */
const char *lw_ptmp(Lw *w);                  /* a fresh virtual predicate "%$qN" */
const char *lw_elem(Lw *w, const char *reg, int k); /* "%rd3" + 1 -> "%rd3[1]"; k 0: reg */
/* a fresh virtual register tuple of size 1, 2, 4, 8 ("%$sN") that lives across instructions
 * (temporaries live within one instruction's selection and may be reused by the next) */
const char *lw_newvreg(Lw *w, int size);
/* operand k, a vector of n 32-bit registers, as the tuple (or aligned half of one) its registers
 * are elements of (lwtuple.c): "%$s5", "%$s5[2]"; NULL when they are not one */
const char *lw_tuple_of(Lw *w, int k, int n);
/* the virtual predicate of the function's carry flag CC.CF (add.cc, addc, sub.cc, subc, mad.cc,
 * madc), declared on first use; it lives across instructions */
const char *lw_carry(Lw *w);

/* ptxcall.c: ld.param and st.param (w->ins is the instruction; the mem family's ld and st call
 * them for the .param space): a kernel parameter is read from constant bank 0; the .param
 * variables of call sequences and of device functions are virtual registers (slots); call
 * inlines the callee's body (docs/ptx-codegen.md, "Device functions") */
int lw_ld_param(Lw *w);
int lw_st_param(Lw *w);
int lw_call(Lw *w);
int lw_ret(Lw *w);                           /* ret: EXIT, or the end of an inlined body */
void lw_call_free(Lw *w);
/* word m of the value of .param variable v (a call sequence's argument slot) */
const char *lw_param_word(Lw *w, const PtxVar *v, uint32_t m);
/* ptxsyscall.c: a call of callee, declared without a body (rets: the result list or NULL, args:
 * the argument list, operand k the callee): vprintf and __assertfail as nvcc's SASS calls them;
 * another is a located error */
int lw_syscall(Lw *w, const PtxFunc *callee, const PtxOpnd *rets, const PtxOpnd *args, int k);
/* the name of system routine k (0..LW_NSYS-1), NULL past them */
const char *lw_sys_name(unsigned k);
/* a kernel's prologue: the stack pointer R1 (less the frame) and the memory descriptor UR4 */
void lw_entry_prologue(Lw *w);
/* ptxsel_fiber.c: the FIBER header lines of the function (`.pool`, the slots' `.vreg`), and
 * the release of the family's state */
void lw_fiber_header(Lw *w, LwBuf *b);
void lw_fiber_free(Lw *w);
/* lwfiber.c, for the setfibernum being selected (w->ins): after its SETFIBERNUM, R1, UR4 and
 * the CTA-uniform values read after it, computed again (-1 after a located error: a
 * fiber-dependent value read after it); whether a branch on a fiber-dependent condition spans it
 * (-1 after the located error) */
int lw_fiber_reload(Lw *w);
int lw_fiber_divergent(Lw *w);
/* lower the statements of fn (the kernel, or a device function being inlined) */
int lw_lower_stmts(Lw *w, const PtxFunc *fn);
/* cvt from a float type (f16, bf16, f32, f64) to an integer type (w->ins is the cvt): the float
 * family's selection (F2I), for the int family's cvt row */
int lw_cvt_f2i(Lw *w);

/* ---- module facts ------------------------------------------------------------------------ */
/* the byte offset in the parameter block of PTX parameter `name` of the current function, -1
 * if it is not one */
int lw_param_offset(const Lw *w, uint32_t name);
/* a module .global variable's address, as two constant-bank operands (its low and high words in
 * .nv.constant4, which the loader fills); -1 after an error */
int lw_global_addr(Lw *w, const PtxVar *v, const char **lo, const char **hi);
/* a .const variable's offset in constant bank 3, -1 if not one */
int lw_const_offset(const Lw *w, const PtxVar *v);
/* the byte offset of a .shared variable in the function's shared window, -1 if not one */
int lw_shared_offset(const Lw *w, uint32_t name);
/* the byte offset of a .local variable of the function in its frame (from R1), -1 if not one */
int lw_local_offset(const Lw *w, uint32_t name);

/* ---- the selection tables ----------------------------------------------------------------
 * Each family file exports one table of SelRow, ended by a row with op NULL; ptxsel.c searches
 * them in the order of ptxsel.h. A row matches an instruction by opcode and by the class of its
 * operation type (lw_type: the last type modifier; cvt, which has two, by its destination
 * type); TcAny matches every type and is tried after the exact class. `doc` is the SASS the
 * row writes, in one line (docs/ptx-isel.md is made from these: `fiberc --list-isel`). */
enum LwTypeClass {
	TcAny,             /* any type, or none */
	TcInt,             /* b8..b64, u8..u64, s8..s64 (and pred for the logic ops) */
	TcF32,             /* f32 (and tf32) */
	TcF64,             /* f64 */
	TcHalf,            /* f16, f16x2, bf16, bf16x2 */
	TcPred,            /* pred */
	NTypeClass
};
typedef int (*SelFn)(Lw *w);
typedef struct SelRow {
	const char *op;    /* PTX opcode without modifiers ("add"); NULL ends the table */
	uint8_t tclass;    /* LwTypeClass */
	SelFn fn;          /* the selection function */
	const char *doc;   /* the SASS it writes, e.g. "IADD3 d, a, b, RZ" */
} SelRow;
int lw_tclass(const char *type);              /* LwTypeClass of a type word */
const SelRow *ptxsel_lookup(const Lw *w);     /* the row for w->ins; NULL: not selected */
void ptxsel_list(FILE *out);                  /* every row, as the table of docs/ptx-isel.md */

/* ---- the whole lowering ------------------------------------------------------------------
 * ptx_lower: the SASS listing with virtual registers (a Src named "<ptx>.isel") for every
 * function of p with a body, for architecture sm (0: the module's .target), or NULL after
 * reporting errors on d. The listing carries the kernel metadata (.nv.info, .nv.constant0,
 * .nv.shared, EIATTR_EXIT_INSTR_OFFSETS labels), so that after register allocation it loads in
 * fibersim like nvcc's output. */
Src *ptx_lower(const Ptx *p, int sm, Diag *d);
/* the same, with comments 1: each PTX instruction as a `// LINE: text` comment before its SASS
 * (fiberc --emit=isel) */
Src *ptx_lower_text(const Ptx *p, int sm, int comments, Diag *d);

/* what ptx_lower_opts is asked, and what it tells */
typedef struct PtxLower {
	int sm;            /* the target's SM number (fiberc --arch), 0: the module's .target */
	int suffix;        /* with sm: 'a' for sm_90a, else 0 */
	int comments;      /* each PTX instruction as a comment before its SASS (--emit=isel) */
	const char *kernel; /* lower only this kernel (fiberc --kernel), NULL: every kernel */
	int fiber;         /* the FIBER extensions (ptxsel_fiber.c) are selected: --mode=fiber-native
	                    * or --emit=isel; 0: each is a located error */
	uint32_t nkernel;  /* out: kernels lowered */
	uint32_t nrefused; /* out: kernels refused: each has its located errors and a note naming it */
} PtxLower;
/* the lowering with its options: the target is checked against the architecture table (a
 * .target fiberc does not generate for is a located error), and a kernel with an unsupported
 * form is refused alone: the listing holds the others (NULL when none is left) */
Src *ptx_lower_opts(const Ptx *p, PtxLower *o, Diag *d);

#endif /* FIBER_PTXLOW_H */
