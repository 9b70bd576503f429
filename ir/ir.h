/* ir.h: the fiber IR, shared by every part of the toolchain.
 *
 * A Module is one SASS listing (nvdisasm or cuobjdump -sass): its header, its sections in order
 * (data sections kept as directive Items so that they re-emit exactly), and one Fn per kernel or
 * device function found in a .text.<name> section. A Fn starts as a linear list of instructions;
 * cfg_build() splits it into blocks, ssa_build() renames every architectural register unit into
 * SSA values (one value per 32-bit register, so a 64-bit operand R2.64 is the tuple {R2, R3}),
 * and ssa_out() returns to the same physical registers so that an unchanged kernel re-emits
 * exactly. The IR text format (docs/ir.md) is the SASS listing plus SSA annotations.
 *
 * Layout after QBE's all.h: forward typedefs, constants, small value types, generated enums,
 * structs, then prototypes grouped by the file that defines them.
 */
#ifndef FIBER_IR_H
#define FIBER_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "enc.h"

typedef struct Arena Arena;
typedef struct Atoms Atoms;
typedef struct Loc Loc;
typedef struct Src Src;
typedef struct Diag Diag;
typedef struct Expr Expr;
typedef struct Item Item;
typedef struct Section Section;
typedef struct Param Param;
typedef struct Module Module;
typedef struct Opnd Opnd;
typedef struct Slot Slot;
typedef struct Ins Ins;
typedef struct Targets Targets;
typedef struct Phi Phi;
typedef struct Use Use;
typedef struct Val Val;
typedef struct Blk Blk;
typedef struct Fn Fn;
typedef struct OpInfo OpInfo;
typedef struct RegClassInfo RegClassInfo;
typedef struct Pass Pass;
typedef struct Edit Edit;

enum {
	MaxMod = 12,       /* opcode modifiers kept per instruction (.E.64.STRONG.GPU is 4) */
	MaxOpnd = 16,      /* operands per instruction */
	MaxErrors = 20,    /* a front end stops after this many errors */
};

/* ---------------------------------------------------------------------------------------------
 * Registers: a 16-bit value, class in the top 4 bits, number in the low 12. The classes, their
 * sizes, constant registers and unit numbers are the rows of regs.h.
 */
typedef uint16_t Reg;

enum RegClass {
	RNone,             /* no register */
#define RC(c, ...) R##c,
#include "regs.h"
#undef RC
	NRegClass
};

enum RegScope {
	ScLane,            /* one value per lane (thread) of a warp: R, P, V */
	ScUniform,         /* one value per warp: UR, UP, B */
};

enum RegClassFlag {
	RCSrcOnly = 1 << 0, /* may be read, never written (V: another context's register) */
};

/* Num<C>: register numbers of class C (NumR 256, ..., NumV 2048); Unit<C>: its first unit;
 * RegZero<C>: its constant register, -1 none; RegLimit<C>: numbers below it carry a value. */
enum {
#define RC(c, pre, nreg, zero, zname, unit, ...) \
	Num##c = (nreg), Unit##c = (unit), RegZero##c = (zero), \
	RegLimit##c = (zero) >= 0 ? (zero) : (nreg),
#include "regs.h"
#undef RC
	RegRZ = RegZeroR,  /* RZ: reads 0, writes are discarded */
	RegPT = RegZeroP,  /* PT: reads true */
	RegURZ = RegZeroUR, /* URZ */
	RegUPT = RegZeroUP, /* UPT */
	NumArchUnit = UnitV, /* units of the SASS registers (R, P, UR, UP, B) */
	NumUnit = UnitV + NumV, /* with V0..V2047 */
	/* FIBER-native virtual registers (.vreg, docs/fiber-isa.md "Virtual registers"): class R
	 * numbers RegVirt..RegVirtEnd-1, past RZ, so op_slots sizes them as R registers while
	 * reg_unit gives them no unit (SSA and liveness over units never see them); regalloc
	 * (backend/regalloc.c, rawin.c) replaces them with registers */
	RegVirt = 256,
	RegVirtEnd = 4096,
};

/* one row of regs.h (regtab[class], regclass.c) */
struct RegClassInfo {
	const char *prefix; /* spelling before the number: "R", "UR", ... ("" for RNone) */
	const char *zname; /* spelling of the constant register ("RZ"), "" if none */
	uint16_t nreg;     /* register numbers, the constant register included */
	int16_t zero;      /* number of the constant register, -1 none */
	uint16_t nval;     /* numbers 0..nval-1 carry a value (the constant register is past them) */
	uint16_t unit;     /* first register unit */
	uint16_t unitend;  /* one past its last unit: the next class's first */
	uint8_t bits;      /* width of one register in bits */
	uint8_t scope;     /* RegScope */
	uint8_t flags;     /* RegClassFlag */
};

#define REG(c, n) ((Reg)(((unsigned)(c) << 12) | ((unsigned)(n) & 0xfffu)))
#define RCLS(r) ((unsigned)(r) >> 12)
#define RNUM(r) ((unsigned)(r) & 0xfffu)

/* true for RZ, PT, URZ, UPT: constant registers that carry no value */
static inline int
reg_isconst(Reg r)
{
	static const int16_t zero1[16] = { /* the constant register's number + 1, 0 none */
#define RC(c, pre, nreg, zero, ...) [R##c] = (zero) + 1,
#include "regs.h"
#undef RC
	};

	return zero1[RCLS(r)] && RNUM(r) + 1 == (unsigned)zero1[RCLS(r)];
}

/* unit number of register r; -1 for RZ, PT, URZ, UPT and anything that is not a register */
static inline int
reg_unit(Reg r)
{
	static const uint16_t base[16] = {
#define RC(c, pre, nreg, zero, zname, unit, ...) [R##c] = (unit),
#include "regs.h"
#undef RC
	};
	static const uint16_t limit[16] = {
#define RC(c, ...) [R##c] = RegLimit##c,
#include "regs.h"
#undef RC
	};
	unsigned c = RCLS(r), n = RNUM(r);

	return n < limit[c] ? (int)(base[c] + n) : -1;
}

/* a virtual R register (%name, .vreg) not yet allocated */
static inline int
reg_isvirt(Reg r)
{
	return RCLS(r) == RR && RNUM(r) >= RegVirt;
}

/* a virtual predicate (%name, .vpred) not yet allocated: P numbers RegVirt.. */
static inline int
reg_isvpred(Reg r)
{
	return RCLS(r) == RP && RNUM(r) >= RegVirt;
}

/* either: a register the allocator (fiber-ra, regalloc) is still to place */
static inline int
reg_isvany(Reg r)
{
	return reg_isvirt(r) || reg_isvpred(r);
}

/* register k of a slot that starts at r (R2 + 1 is R3); RNone past the end of the class */
static inline Reg
reg_next(Reg r, unsigned k)
{
	return RNUM(r) + k > 0xfff ? (Reg)RNone : (Reg)(r + k);
}

/* ---------------------------------------------------------------------------------------------
 * Source locations are byte offsets into a Src (jq's locfile); line and column are computed only
 * when a diagnostic is printed.
 */
struct Src {
	char *name;        /* file name as given by the user */
	char *text;        /* whole file, NUL-terminated */
	size_t len;        /* bytes, without the NUL */
	uint32_t *line;    /* byte offset of the start of each line (made by the first diagnostic) */
	uint32_t nline;    /* lines in the file (0 until then) */
};

struct Loc {
	uint32_t start;    /* first byte */
	uint32_t end;      /* one past the last byte */
};

struct Diag {
	Src *src;          /* file the locations refer to */
	FILE *out;         /* where messages go (stderr) */
	int nerr;          /* errors reported so far */
	int nwarn;         /* warnings reported so far */
	int maxerr;        /* stop reporting after this many errors (0: MaxErrors) */
	int color;         /* 1: colour the output like GCC */
};

/* ---------------------------------------------------------------------------------------------
 * Data directives of non-code sections: `.word index@(_Z3foov)`, `.short (.L_3 - .L_2)`.
 */
enum ExprKind {
	ENum,              /* integer; num, hex says it was spelt in hex */
	EStr,              /* "string"; atom is the text without quotes */
	ESym,              /* symbol or label; atom */
	EAttr,             /* @progbits or @"SHT_CUDA_INFO"; atom is the text after @, quoted says "" */
	EFunc,             /* name@(arg) such as index@(sym), or arg@name such as .L_x_1@srel; atom=name */
	ESub,              /* (a - b) */
	EAdd,              /* (a + b) */
};

struct Expr {
	uint8_t kind;      /* ExprKind */
	uint8_t hex;       /* ENum: spelt 0x...; */
	uint8_t quoted;    /* EAttr: spelt @"..."; EFunc: postfix form arg@name */
	uint32_t atom;     /* text, see ExprKind */
	int64_t num;       /* ENum value */
	Expr *a, *b;       /* operands of ESub/EAdd, argument of EFunc (a) */
};

enum ItemKind {
	IDir,              /* a directive: name is ".word", ".section", ...; args */
	ILabel,            /* a label definition: name is the label */
	INvinfo,           /* the comment `//----- nvinfo : EIATTR_X` (kept: it names the attribute) */
};

struct Item {
	uint8_t kind;      /* ItemKind */
	uint32_t name;     /* atom: directive or label name, or the EIATTR name */
	int32_t off;       /* offset from the leading comment, or -1 */
	Expr **arg;        /* directive arguments */
	uint32_t narg;     /* number of arguments */
	Loc loc;           /* where it was read */
};

enum SectionKind {
	SecOther,          /* kept as is */
	SecText,           /* .text.<fn>: code, see fn */
	SecInfo,           /* .nv.info or .nv.info.<fn> */
	SecConst,          /* .nv.constantN[.<fn>] */
	SecShared,         /* .nv.shared.<fn> */
	SecGlobal,         /* .nv.global, .nv.global.init */
	SecSymbols,        /* the trailing SYMBOLS block of nvdisasm */
};

struct Section {
	uint8_t kind;      /* SectionKind */
	uint32_t name;     /* atom: ".nv.info._Z5saxpyfPKfPfi" */
	Item *item;        /* directives and labels in order; for SecText those before the code */
	uint32_t nitem;    /* items used */
	uint32_t citem;    /* items allocated */
	Fn *fn;            /* SecText: its function */
	int bank;          /* SecConst: bank number N of .nv.constantN, else -1 */
	Loc loc;           /* the section header */
};

/* A kernel parameter, from EIATTR_KPARAM_INFO. */
struct Param {
	uint32_t ordinal;  /* position in the parameter list */
	uint32_t offset;   /* byte offset in the parameter block */
	uint32_t size;     /* bytes */
	uint32_t flags;    /* the raw last word of the attribute (space, pointee, cbank flags) */
};

enum ModuleFormat {
	FmtNvdisasm,       /* nvdisasm listing: sections and directives */
	FmtCuobjdump,      /* cuobjdump -sass: `code for sm_80` and `Function : name` headers */
};

struct Module {
	Atoms *atoms;      /* interned strings of this module */
	Arena *arena;      /* everything in the module is allocated here */
	Src *src;          /* the text it was read from (may be NULL for built modules) */
	uint8_t format;    /* ModuleFormat */
	int sm;            /* architecture: 80, 86, 89, 90; 0 if unknown */
	int sm_suffix;     /* 'a' for sm_90a, else 0 */
	uint32_t target;   /* atom: the `.target sm_90` text, 0 if absent */
	uint32_t headerflags; /* atom: the `.headerflags @"..."` text, 0 if absent */
	uint32_t elftype;  /* atom: `.elftype @"ET_EXEC"` text, 0 if absent */
	uint32_t cuobj_arch; /* cuobjdump: atom of the `code for sm_80` arch, 0 otherwise */
	Section **sec;     /* sections in listing order */
	uint32_t nsec;     /* number of sections */
	Fn **fn;           /* functions in listing order */
	uint32_t nfn;      /* number of functions */
	int has_ssa;       /* the module text carried SSA annotations (IR text) */
	uint32_t *lset;    /* edit.c: the module's label atoms (open addressing), made when an edit
	                    * first needs a fresh label; labels edit.c makes are added */
	uint32_t lcap, lcount;
};

/* ---------------------------------------------------------------------------------------------
 * Operands. An operand is a small value; registers inside it are fields r[0..2]. The constructors
 * after struct Opnd, mkreg, mkimm, mkcbank, mkmem and mksreg, are how a pass builds the operands
 * of an instruction it inserts: each clears what it does not set (no flags, no suffixes, RNone in
 * the unused register fields) and spells numbers in hex (FHex), as nvcc does.
 */
enum OpndKind {
	ONone,
	OReg,              /* r[0]: R, P, UR, UP, B or V register; sfx[0] its suffix (.64, .H1, .X4) */
	OSReg,             /* special register; atom "SR_TID.X" */
	OImm,              /* integer immediate; imm */
	OFImm,             /* float immediate; fimm, and atom keeps the spelling ("INF", "-1.44...") */
	OCBank,            /* c[imm2][r[0] + imm]: r[0] may be RNone; cx[r[1]][r[0] + imm] when r[1] set */
	OMem,              /* [r[0]sfx0 + r[1] + imm] with optional desc[r[2]] prefix */
	OLabel,            /* `(.L_x_1): atom is the label, imm its byte address once resolved (-1 before) */
	OSbSet,            /* {5,4}: imm is the bit mask of scoreboards, atom keeps the spelling order */
	OPool,             /* FIBER: a pool reference (reserved) */
	OExpr,             /* anything else that real listings hold, e.g. 32@lo(sym): atom is the text */
	NOpndKind
};

enum OpndFlag {
	FNeg = 1 << 0,     /* -x */
	FAbs = 1 << 1,     /* |x| */
	FNot = 1 << 2,     /* ~x (bitwise) */
	FLNot = 1 << 3,    /* !x (predicate) */
	FReuse = 1 << 4,   /* .reuse: operand reuse cache hint */
	FHex = 1 << 5,     /* OImm/OMem/OCBank offset spelt in hex */
	FPlusNeg = 1 << 6, /* OMem: negative offset spelt "+-0x4" */
	FDesc = 1 << 7,    /* OMem: has a desc[r[2]] prefix */
	FCx = 1 << 8,      /* OCBank: cx[...] form */
	FSpell0 = 1 << 9,  /* free for the front end to keep a spelling detail; documented in sass.y */
	FSpell1 = 1 << 10,
	FSpell2 = 1 << 11,
	FImmBits = 1 << 12, /* OFImm: imm2 holds the 32 bits the encoding word gives the literal
	                     * (enc.h); whoever changes fimm clears it */
	FPoolRef = 1 << 13, /* FIBER: OReg r[0] = REG(RV, pool base + OFF) spelt NAME[OFF]; atom is
	                     * the pool's name, imm is OFF (only the printer looks at these). Not
	                     * named FPool: that is the pool struct's typedef */
	FVRemote = 1 << 14, /* FIBER-native: OReg r[0] a virtual register read in weft imm's window
	                     * (%x@W); fiber-ra resolves it to a V register */
};

struct Opnd {
	uint8_t kind;      /* OpndKind */
	uint16_t flags;    /* OpndFlag */
	Reg r[3];          /* register fields, RNone when absent */
	uint32_t sfx[3];   /* atom of each register field's suffix without the dot ("64"), 0 none */
	uint32_t atom;     /* text, see OpndKind */
	int32_t imm2;      /* OCBank: bank number (0..31); OFImm with FImmBits: the encoded bits */
	union {
		int64_t imm;   /* immediate, offset, or label address (every kind but OFImm) */
		double fimm;   /* OFImm value */
	};
};

/* ---------------------------------------------------------------------------------------------
 * Slots: the registers an instruction defines and uses, computed from the opcode table
 * (op_slots in op.c). Every later consumer (SSA, liveness, the simulator's dependency tracking)
 * reads these and nothing else. A slot covers n consecutive registers starting at reg; each
 * register unit has its own SSA value v[i].
 */
enum SlotKind {
	SDef,              /* written */
	SUse,              /* read */
	SOld,              /* implicit read of the old value by a predicated (conditional) definition */
};

struct Slot {
	uint8_t kind;      /* SlotKind */
	uint8_t opnd;      /* operand index (255: the guard predicate) */
	uint8_t field;     /* register field of that operand (0..2) */
	uint8_t n;         /* registers covered, consecutive from reg */
	Reg reg;           /* first register */
	uint32_t *v;       /* n SSA value ids, 0 before SSA */
};

enum {
	SlotGuard = 255,   /* Slot.opnd of the guard predicate */
	SlotImplicit = 3,  /* Slot.field of a register no operand names (the sm_8x hidden desc[UR]) */
};

/* An instruction's guard predicate (@P0, @!UP1): an operand reduced to what a guard has, 6
 * bytes instead of an Opnd's 48; guard_opnd gives the operand form (printing, parsing). */
typedef struct Guard {
	uint8_t kind;      /* OReg when guarded, else ONone */
	uint16_t flags;    /* FLNot (or FNot) for @! */
	Reg r[1];          /* the predicate register */
} Guard;

static inline Opnd
guard_opnd(const Guard *g)
{
	Opnd o = {0};

	o.kind = g->kind;
	o.flags = g->flags;
	o.r[0] = g->r[0];
	o.r[1] = o.r[2] = RNone;
	return o;
}

static inline Guard
guard_of(const Opnd *o)
{
	Guard g = {o->kind, o->flags, {o->r[0]}};

	return g;
}

/* register r (OReg): R2, P0, UR4, RZ, PT, V7 */
static inline Opnd
mkreg(Reg r)
{
	Opnd o = {0};

	o.kind = OReg;
	o.r[0] = r;
	o.r[1] = o.r[2] = RNone;
	return o;
}

/* the integer immediate v (OImm), spelt in hex: 0x1f, -0x10 */
static inline Opnd
mkimm(int64_t v)
{
	Opnd o = {0};

	o.kind = OImm;
	o.flags = FHex;
	o.imm = v;
	o.r[0] = o.r[1] = o.r[2] = RNone;
	return o;
}

/* the constant-bank word c[bank][off] (OCBank), no register index: c[0x0][0x28] */
static inline Opnd
mkcbank(int bank, int64_t off)
{
	Opnd o = {0};

	o.kind = OCBank;
	o.flags = FHex;
	o.imm2 = bank;
	o.imm = off;
	o.r[0] = o.r[1] = o.r[2] = RNone;
	return o;
}

/* the address [base + off] (OMem): [R1+0x10] */
static inline Opnd
mkmem(Reg base, int64_t off)
{
	Opnd o = {0};

	o.kind = OMem;
	o.flags = FHex;
	o.imm = off;
	o.r[0] = base;
	o.r[1] = o.r[2] = RNone;
	return o;
}

/* the special register whose name is the atom name (OSReg): SR_TID.X */
static inline Opnd
mksreg(uint32_t name)
{
	Opnd o = {0};

	o.kind = OSReg;
	o.atom = name;
	o.r[0] = o.r[1] = o.r[2] = RNone;
	return o;
}

struct Ins {
	uint16_t op;       /* opcode family (Oxxx from ops.h); Ounknown if the table has no row */
	uint8_t nopnd;     /* operands used */
	uint8_t nmod;      /* modifiers used */
	uint8_t nenc;      /* encoding words kept (0, 1 or 2) */
	uint8_t nslot;     /* slots computed by op_slots() */
	uint8_t guarded;   /* has a guard predicate @P or @!P */
	uint8_t flags;     /* InsFlag */
	uint32_t name;     /* atom: opcode name as written ("IMAD") */
	uint32_t label;    /* atom of the label defined right before this instruction, 0 none */
	Ctrl ctrl;         /* control bits, decoded from enc[1] by the front end (enc.h); the
	                    * printer writes enc[1]'s control field from them */
	Guard guard;       /* guard predicate when guarded: OReg of class RP/RUP, FLNot for @! */
	uint32_t *mod;     /* nmod (at most MaxMod) atoms of the modifiers without dots, in order
	                      ("WIDE", "U32"), in the module arena; shared by copies, never written */
	Opnd *opnd;        /* nopnd operands */
	Slot *slot;        /* nslot slots */
	Targets *targets;  /* BRX/JMX: the branch targets the listing names, NULL if none */
	int64_t addr;      /* byte offset in the section from the address comment, -1 if absent */
	uint64_t enc[2];   /* 128-bit encoding, from the two hex comments (nenc words) */
	Loc loc;           /* the instruction's text */
};

/* nvdisasm's annotation of an indirect branch, `BRX R6 -0x150 (*"BRANCH_TARGETS .L_x_22,.L_x_9"*)`:
 * when present, the labels are the branch's exact successors (cfg.c) */
struct Targets {
	uint32_t text;     /* atom: the annotation between `(*` and `*)`, quotes included */
	uint32_t n;        /* labels */
	uint32_t *label;   /* atoms of the labels, in the listed order */
};

enum InsFlag {
	INoSemi = 1 << 0,  /* written without the space before ';' (e.g. `BRA `(.L_x_0);`) */
	IExtraLabel = 1 << 1, /* more labels precede it: see Fn.xlabel */
	IInserted = 1 << 2, /* made by ins_insert (edit.c): its control bits are the ctrl-bits
	                     * pass's to choose (backend/ctrlbits.c), whatever the proto had */
	ICtrlSet = 1 << 3,  /* ctrl-bits set or raised its control bits (its dump marks it) */
};

/* ---------------------------------------------------------------------------------------------
 * SSA values. Value 0 is "none". A value is one register unit at one version: R7<3>.
 * Version 0 is the value live on entry (undefined contents unless the kernel defines it).
 */
struct Use {
	union {
		Ins *ins;      /* user instruction (isphi 0) */
		Phi *phi;      /* user phi (isphi 1) */
	};
	uint16_t slot;     /* slot index in ins */
	uint16_t idx;      /* index in the slot's v[], or the phi argument index */
	uint8_t isphi;     /* the user is a phi (16 bytes a use, not 24: there are ~3 per instruction) */
};

struct Val {
	Reg reg;           /* physical register unit */
	uint32_t ver;      /* version, printed as R7<ver> */
	Ins *def;          /* defining instruction, NULL for a phi or an entry value */
	Phi *phi;          /* defining phi, NULL otherwise */
	Blk *blk;          /* block of the definition (entry block for version 0) */
	Use *use;          /* uses (def-use chain), filled by ssa_uses() */
	uint32_t nuse;     /* number of uses */
	uint32_t cuse;     /* allocated */
};

struct Phi {
	Reg reg;           /* register unit it merges */
	uint32_t to;       /* value defined */
	uint32_t *arg;     /* one value per predecessor, in Blk.pred order */
	uint32_t narg;     /* == number of predecessors */
	Phi *link;         /* next phi of the block */
	Loc loc;           /* where it was read, for IR text */
};

struct Blk {
	uint32_t id;       /* index in Fn.blk (layout order); printed as bb<id> */
	Ins *ins;          /* instructions */
	uint32_t nins;     /* number of instructions */
	Phi *phi;          /* phi functions, first */
	Blk **succ;        /* successors: fall-through first, then branch targets */
	uint32_t nsucc;
	Blk **pred;        /* predecessors, in a deterministic order (by block id) */
	uint32_t npred;
	Blk *idom;         /* immediate dominator; NULL for the entry, subroutine entries, blocks
	                      reached from two dominator trees, and unreachable blocks */
	Blk **dom;         /* children in the dominator tree */
	uint32_t ndom;
	Blk **front;       /* dominance frontier */
	uint32_t nfront;
	uint32_t rpo;      /* reverse post-order number; UINT32_MAX if unreachable */
	uint32_t pre, post; /* dominator-tree DFS numbers: a dom b iff a.pre <= b.pre && b.post <= a.post */
};

/* Kernel metadata decoded from .nv.info.<fn>, .nv.shared.<fn>, .sectioninfo */
typedef struct KInfo {
	int is_entry;      /* STO_CUDA_ENTRY: a kernel, not a device function */
	int regcount;      /* EIATTR_REGCOUNT or SHI_REGISTERS, -1 unknown */
	int frame_size;    /* EIATTR_FRAME_SIZE, bytes of local memory per thread, -1 unknown */
	int min_stack_size; /* EIATTR_MIN_STACK_SIZE, -1 unknown */
	int max_threads[3]; /* EIATTR_MAX_THREADS, 0 unset */
	int reqntid[3];    /* EIATTR_REQNTID, 0 unset */
	int cbank_param_size; /* EIATTR_CBANK_PARAM_SIZE, -1 unknown */
	int param_cbank_off;  /* EIATTR_PARAM_CBANK offset (0x160 sm_80, 0x210 sm_90), -1 unknown */
	int param_cbank_size; /* EIATTR_PARAM_CBANK size */
	int shared_size;   /* bytes of .nv.shared.<fn>, 0 if none */
	int maxreg;        /* EIATTR_MAXREG_COUNT, -1 unknown */
	Param *param;      /* EIATTR_KPARAM_INFO, sorted by ordinal */
	uint32_t nparam;
	uint32_t *exit_off; /* EIATTR_EXIT_INSTR_OFFSETS, byte offsets in .text */
	uint32_t nexit;
	int maxfibers;     /* FIBER: `.maxfibers N` in the .text header, 0 none */
} KInfo;

/* FIBER: a register pool, `.pool NAME, SIZE[, SLICE]` in a function's .text header. It lies at
 * the top of its slice, pools of one slice stacked downward in declaration order:
 * base = 512*slice + 512 - (sizes of earlier pools of that slice) - size. */
enum {
	FiberSliceRegs = 512,            /* registers of one sub-partition's slice of the SM file */
	FiberFileRegs = 2048,            /* the SM's vector registers, V0..V2047 */
	FiberMaxFibers = 64 * 4 * 32,    /* contexts x sub-partitions x fibers per weft */
};

/* FIBER-native: a virtual register, `.vreg %NAME[SIZE]` in a function's .text header: SIZE
 * consecutive numbers from base (RegVirt.., aligned to min(SIZE, 4)), spelt %NAME (element 0)
 * and %NAME[k]; or a virtual predicate, `.vpred %NAME` (class RP, size 1, numbered from
 * RegVirt on its own). Fn.vreg holds the R declarations first, then the predicates, each in
 * declaration (and base) order. */
typedef struct FVReg {
	uint32_t name;     /* atom, without the % */
	uint16_t base;     /* register number of element 0 (REG(cls, base)) */
	uint16_t size;     /* registers: 1, 2, 4, ...; 1 for a predicate */
	Loc loc;           /* the declaration */
	uint8_t cls;       /* RR (.vreg) or RP (.vpred) */
} FVReg;

typedef struct FPool {
	uint32_t name;     /* atom */
	uint32_t size;     /* registers */
	int slice;         /* 0..3 */
	uint32_t base;     /* absolute register number of NAME[0] (V<base>) */
	Loc loc;           /* the directive */
} FPool;

/* FIBER compilation state of one function (fiberc --mode=cuda-native|fiber-native): the limits the
 * passes plan against, what each pass decided, and the figures `fiberc --stats` prints. Made by
 * the driver (fplan_new) before the passes run; NULL when fiberc runs no FIBER mode. */
enum FMode { FModeNone, FModeCuda, FModeFiber };

enum FPhaseKind { PhTensor, PhMemory, PhVector, PhControl, NPhaseKind };

typedef struct FPhase {
	uint32_t first, last;  /* Fn.ins index range [first, last) at the time of the phases pass */
	uint8_t kind;          /* FPhaseKind: the dominant instruction mix */
	uint8_t in_loop;       /* the range lies in a loop */
	int maxlive;           /* most R registers live at one point of the phase */
	int fibers;            /* fiber count the phases pass chose, 0: the launch's (left alone) */
	int nreg;              /* window registers of the phase's wefts */
	uint32_t why;          /* atom: why the phase was left alone, 0 if it was transformed */
} FPhase;

typedef struct FPlan {
	int mode;              /* FMode */
	/* limits (fiberc --fiber-contexts, --fiber-slice-regs; defaults = configs/a100-fiber.cfg) */
	int contexts;          /* weft contexts per sub-partition (fiber_contexts) */
	int slice_regs;        /* registers per slice (fiber_slice_regs) */
	int nsub;              /* sub-partitions (4) */
	int banks;             /* register banks per sub-partition, SIMT model (rf_banks, 2) */
	int fiber_banks;       /* banks per slice, FIBER model (fiber_banks, 2) */
	int read_ports;        /* read ports per bank (fiber_read_ports, 1) */
	/* liveness (passes/pressure.c) */
	int maxlive;           /* most R registers live at one point */
	int *pressure;         /* nins entries: R registers live before each Fn.ins[k], or NULL */
	uint32_t npressure;
	/* phases and fiber counts (passes/fiber/phases.c) */
	FPhase *phase;
	uint32_t nphase;
	int setfibernum;       /* SETFIBERNUM instructions inserted */
	int maxfibers;         /* fibers reserved (.maxfibers written), 0 none */
	/* register assignment (passes/fiber/fiberregs.c, backend/rawin.c) */
	int window;            /* window registers per weft at launch */
	int npools;            /* pools in the output */
	int spill_local;       /* fiber-native spills go to local memory only (--fiber-spill=local) */
	int spill_pool;        /* registers of the spill pool regalloc-window made (rapool.c), 0 none */
	int vregs;             /* fiber-native: virtual registers allocated */
	int copies;            /* copies inserted to move values */
	/* remote writes (passes/fiber/remotewr.c) */
	int remote_writes;     /* remote writes rewritten */
	int remote_reads;      /* absolute (V) source operands in the output */
	int busy_syncs;        /* DEPBAR/SETBUSYBIT inserted for rewritten writes */
	/* MMA operand banks (passes/fiber/mmabank.c): conflicts counted with ir/banks.c */
	int mma_ops;           /* HMMA/IMMA instructions */
	int simt_conf_before, simt_conf_after;     /* SIMT model */
	int fiber_conf_before, fiber_conf_after;   /* FIBER model */
	int renamed;           /* registers renamed for bank placement */
	/* control bits (backend/ctrlbits.c) */
	int ctrl_set;          /* instructions given control bits */
	/* the report the pass just run left for --print-after (after the IR), NULL none: the
	 * pass manager clears it before each pass (mma-banks: its table of MMA operands) */
	const char *report;
	/* remote writes (passes/fiber/remotewr.c) */
	int rw_done;           /* remote-writes ran: a V destination left is a verifier error */
	uint32_t *rw_why;      /* pairs (Ins.loc.start, atom): why a remote write was left */
	uint32_t nrw_why;
	/* the launch the phases pass predicts for (passes/fiber/phases.c) */
	int grid;              /* most CTAs a launch of the kernel has (fiberc --fiber-grid), 0 unknown */
	int runtime;           /* fiberc --fiber-runtime: split loops whose trip count only the run knows */
	int nsm;               /* SMs of the target (108 for sm_8x, 132 for sm_90) */
} FPlan;

FPlan *fplan_new(Fn *f, int mode);     /* in the module arena, defaults filled, f->plan set */
void fplan_phase_add(Fn *f, const FPhase *p);
void fplan_print(FILE *out, const Fn *f); /* the phase table as // comments (--print-after) */

struct Fn {
	Module *mod;       /* owner */
	uint32_t name;     /* atom: symbol name */
	Section *text;     /* its .text section (directives before the code) */
	KInfo info;        /* metadata */
	Ins *ins;          /* linear instruction list as read, in address order */
	uint32_t nins;
	uint32_t endlabel; /* atom of a label after the last instruction (.L_x_3), 0 none */
	uint32_t *xlabel;  /* extra labels: pairs (instruction index, atom), for IExtraLabel */
	uint32_t nxlabel;
	Blk **blk;         /* blocks in layout order; NULL before cfg_build */
	uint32_t nblk;
	Blk **rpo;         /* reachable blocks in reverse post-order */
	uint32_t nrpo;
	Val *val;          /* SSA values; val[0] unused; NULL before ssa_build */
	uint32_t nval;
	uint32_t cval;
	int in_ssa;        /* values and phis are valid */
	Loc loc;           /* the function's label */
	void *fe;          /* front-end notes (IR text: the SSA annotations, see frontend.h) */
	Edit *edit;        /* edit.c's state once an instruction was inserted, deleted or replaced */
	FPool *pool;       /* FIBER: pools declared in the .text header, in declaration order */
	uint32_t npool;
	FPlan *plan;        /* FIBER compilation state, NULL outside fiberc's FIBER modes */
	FVReg *vreg;       /* FIBER-native: virtual registers declared (.vreg, then .vpred), in
	                    * order */
	uint32_t nvreg;
};

/* ---------------------------------------------------------------------------------------------
 * The opcode table: one row per SASS opcode family in ops.h; op.c turns a row and an
 * instruction's modifiers into exact def/use slots.
 */
enum OpUnit {
	UNone,             /* no execution pipe (pseudo, NOP) */
	UInt,              /* INT32 ALU: IADD3, LOP3, SHF, ISETP, ... */
	UFma,              /* FP32 FMA pipe, also IMAD */
	UHalf,             /* FP16x2 pipe: HADD2, HFMA2, ... */
	UDouble,           /* FP64 */
	UMufu,             /* special function unit: MUFU */
	UConv,             /* conversions I2F, F2I, F2F (quarter rate, variable latency) */
	UTensor,           /* tensor core: HMMA, IMMA, HGMMA */
	ULsu,              /* load/store unit: every memory access, LDSM, SHFL */
	UUniform,          /* uniform datapath: U* */
	UBranch,           /* branch unit: BRA, EXIT, BSSY, BAR, WARPSYNC */
	UMisc,             /* S2R, CS2R, VOTE, and the rest */
	NOpUnit
};

enum OpLatClass {
	LFixed,            /* fixed latency: the compiler's stall count covers it */
	LVar,              /* variable latency: a scoreboard guards the result */
	LNone,             /* produces no register result */
};

/* where an opcode's latency comes from: a configuration key (latkeys.h), the memory model, or
 * nowhere (docs/opcodes.md, ir/latency.h) */
enum OpLatKey {
	LkNone,            /* none: DEPBAR, LDGDEPBAR wait or count and write nothing */
	LkMem,             /* the memory model's (timing/smmem.c: space, hits, conflicts): the
	                    * loads, stores, atomics, LDSM, LDGSTS, MEMBAR, textures, TMA */
#define LK(name, key) Lk##name,   /* the configuration key `key` */
#include "latkeys.h"
#undef LK
	NLatKey
};

enum OpFlag {
	OFBranch = 1 << 0,   /* changes control flow: BRA, BRX, JMP, JMX */
	OFExit = 1 << 1,     /* EXIT, KILL: ends the thread */
	OFCall = 1 << 2,     /* CALL */
	OFRet = 1 << 3,      /* RET */
	OFBarrier = 1 << 4,  /* CTA or warp barrier: BAR, WARPSYNC, BSYNC, SYNCS */
	OFConv = 1 << 5,     /* convergence control: BSSY, BSYNC, BREAK, BMOV */
	OFLoad = 1 << 6,     /* reads memory */
	OFStore = 1 << 7,    /* writes memory */
	OFAtomic = 1 << 8,   /* read-modify-write memory */
	OFGlobal = 1 << 9,   /* space: global */
	OFShared = 1 << 10,  /* space: shared */
	OFLocal = 1 << 11,   /* space: local */
	OFConst = 1 << 12,   /* space: constant */
	OFGeneric = 1 << 13, /* space: generic (LD, ST, ATOM) */
	OFUniform = 1 << 14, /* runs on the uniform datapath, defines UR/UP */
	OFCollective = 1 << 15, /* needs the warp's threads together: SHFL, VOTE, MATCH, REDUX, HMMA */
	OFSync = 1 << 16,    /* waits for something: DEPBAR, MEMBAR, fences */
	OFFiber = 1 << 17,   /* FIBER extension opcode */
	OFTerm = 1 << 18,    /* always ends a basic block */
	OFApprox = 1 << 19,  /* def/use widths are approximate (texture, surface): see docs/opcodes.md */
	OFVarSm8x = 1 << 20, /* LFixed on sm_90 but variable (scoreboarded) on sm_80..sm_89: FP64, R2UR */
};

struct OpInfo {
	const char *name;  /* opcode family as nvdisasm prints it */
	uint8_t unit;      /* OpUnit */
	uint8_t lat;       /* OpLatClass */
	uint8_t key;       /* OpLatKey: the latency it takes */
	uint8_t ndef;      /* leading operands that are definitions in the common form */
	uint8_t shape;     /* operand width rule, interpreted by op.c (OpShape there) */
	uint32_t flags;    /* OpFlag */
};

enum Op {
#define O(name, ...) O##name,
#include "ops.h"
#undef O
	NOp
};

/* ---------------------------------------------------------------------------------------------
 * Passes. A pass is a name, a one-line description and a function over one Fn.
 */
enum PassReq {
	PNeedCfg = 1 << 0, /* needs blocks, preds and dominators */
	PNeedSsa = 1 << 1, /* needs SSA form */
	PMakeSsa = 1 << 2, /* leaves the function in SSA form */
	PLeaveSsa = 1 << 3, /* leaves the function out of SSA */
	PChanges = 1 << 4, /* may change instructions: analyses are recomputed after it */
};

struct Pass {
	const char *name;  /* as given to --passes */
	const char *desc;  /* one line for --help */
	int req;           /* PassReq */
	int (*run)(Fn *, Diag *); /* returns 0 on success, -1 after reporting an error */
};

/* ---------------------------------------------------------------------------------------------
 * Prototypes, by file.
 */

/* util.c */
void die_(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
#define die(...) die_(__FILE__, __LINE__, __VA_ARGS__)
void *xmalloc(size_t n);   /* calloc or die */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
Arena *arena_new(void);
void *arena_alloc(Arena *a, size_t n);  /* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);
/* what an arena has handed out, to give back at once what was allocated after it (scratch) */
typedef struct ArenaMark { void *chunk, *next; size_t used; } ArenaMark;
ArenaMark arena_mark(const Arena *a);
void arena_release(Arena *a, ArenaMark mk); /* frees and zeroes what came after mk, if it all came
                                               from the chunk current at mk; else keeps it */
size_t arena_bytes(const Arena *a);     /* bytes reserved from the system */
unsigned data_dir_width(const char *dir); /* bytes per value of .byte/.short/.word/.dword; 0 */
Atoms *atoms_new(void);
void atoms_free(Atoms *t);
uint32_t atom(Atoms *t, const char *s, size_t n); /* intern; 0 is never returned */
uint32_t atomz(Atoms *t, const char *s);
const char *atomstr(const Atoms *t, uint32_t a); /* "" for 0 */
uint32_t atomlen(const Atoms *t, uint32_t a);
/* grow a vector of elements of size sz so that it holds at least n: vgrow(&p, &cap, n, sz) */
void vgrow(void *pp, uint32_t *cap, uint32_t n, size_t sz);
double now_seconds(void);               /* monotonic clock */

/* diag.c */
Src *src_new(const char *name, const char *text, size_t len); /* copies text */
Src *src_take(const char *name, char *text, size_t len); /* keeps text: malloc'd, len + 1 bytes */
void src_cold(Src *s);     /* the text will be read only for diagnostics: its memory may go */
void src_cold_before(Src *s, size_t off); /* the same for the text before offset off: a front end
                                             reading in order says so as it goes, and the pages
                                             of a mapped file behind it go (they come back from
                                             the file if a diagnostic reads them) */
Src *src_read(const char *path, Diag *d); /* NULL after reporting on d */
void src_free(Src *s);
void src_linecol(const Src *s, uint32_t off, uint32_t *line, uint32_t *col); /* 1-based */
void diag_init(Diag *d, Src *src, FILE *out);
void error_at(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void warn_at(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void note_at(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void verror_at(Diag *d, const char *kind, Loc loc, const char *fmt, va_list ap);
void error_plain(Diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* fiberc: error: */

/* module.c */
Module *module_new(void);
void module_free(Module *m);
const char *mstr(const Module *m, uint32_t a);   /* atomstr of the module's atoms */
uint32_t mintern(Module *m, const char *s);
Section *section_add(Module *m, uint32_t name);
Item *section_item(Module *m, Section *s);      /* appends a zeroed item */
Fn *fn_new(Module *m, uint32_t name);
Ins *fn_append(Fn *f);                           /* appends a zeroed instruction; addr = -1 */
Fn *module_fn(const Module *m, const char *name);
uint32_t fn_newval(Fn *f, Reg reg, uint32_t ver); /* a new SSA value, returns its id */
int ins_hasmod(const Ins *i, const Module *m, const char *mod); /* modifier present (no dot) */

/* regclass.c: the table of regs.h and the register spelling shared by the parser, the printer
 * and the simulator */
extern const RegClassInfo regtab[NRegClass];
void reg_name(Reg r, char *buf, size_t n);      /* "R7", "RZ", "P0", "PT", "UR4", "B1", "V100" */
int reg_parse(const char *s, size_t n, Reg *out); /* 0 ok, -1 not a register name, -2 out of range */
unsigned reg_prefix(const char *s, size_t n);   /* the class whose prefix s starts with (the
                                                   longest: "UR" before "R"... ), RNone if none */
int reg_range(unsigned cls, char *buf, size_t n); /* "R0..R254, RZ", "V0..V2047": the spellings */
int reg_writable(Reg r);                        /* a destination may name r (not RCSrcOnly) */

/* vreg.c: FIBER-native virtual registers */
const FVReg *vreg_of(const Fn *f, Reg r, unsigned *elem); /* the declaration holding virtual
                                     register or predicate r and r's element in it; NULL if none */
int vreg_spell(const Fn *f, Reg r, char *buf, size_t n); /* "%acc[2]", "%p1"; "%?N" if
                                     undeclared */
uint32_t vreg_npred(const Fn *f); /* predicate declarations (the last ones of Fn.vreg) */
int vreg_none(const Fn *f, Diag *d); /* 0, or -1 after a located error per virtual register
                                     left (they must be allocated: fiberc --mode=fiber-native) */

/* op.c */
extern const OpInfo optab[NOp];
int op_lookup(const char *name, size_t n);      /* Oxxx, or Ounknown */
const char *op_name(int op);
int op_slots(Fn *f, Ins *i);                    /* fills i->slot; -1 with a message if malformed */
int op_slots_cmp(Fn *f, const Ins *i, unsigned *diff); /* what op_slots would give, compared with
                                                   i->slot without allocating: -1 if it fails,
                                                   else its slot count; *diff the first slot
                                                   that differs */
int op_check(Fn *f, Ins *i, Diag *d);           /* operand count and kinds per the table */

/* fmt.c: one instruction or operand as SASS text, with SSA annotations when f->in_ssa */
int fmt_opnd(char *buf, size_t n, const Fn *f, const Ins *i, int k);
int fmt_ins(char *buf, size_t n, const Fn *f, const Ins *i, int ssa);

/* print.c: whole modules */
enum PrintMode { PrintSass, PrintIr };
void print_module(FILE *out, Module *m, int mode, const char *only_fn);
void print_fn(FILE *out, Fn *f, int mode);

/* cfg.c */
int cfg_build(Fn *f, Diag *d);    /* blocks, succ/pred, rpo; -1 on an undefined label */
void cfg_free(Fn *f);
int cfg_dot(FILE *out, Fn *f);    /* Graphviz */
int cfg_ends_block(const Fn *f, const Ins *i); /* i transfers control: it ends its block */
Blk *cfg_callee(const Fn *f, const Blk *b); /* b ends in a CALL of an internal subroutine: that
                                               subroutine's entry block; else NULL */

/* edit.c: editing the instructions of a block (docs/ir.md, "Editing"). Between an edit and
 * fn_relayout only the blocks are current (Blk.ins, Val.def, Use.ins); Fn.ins is stale. */
Ins *ins_insert(Fn *f, Blk *b, uint32_t at, const Ins *proto); /* a copy of proto at position
                                     at (0..nins) of b; NULL if op_slots refuses it */
int ins_delete(Fn *f, Blk *b, uint32_t at); /* -1 if a value it defines is still read */
int ins_splice(Fn *f, Blk *b, Ins *const *add, const uint32_t *nadd, const uint8_t *drop);
                                  /* many inserts (nadd[k] before old instruction k, k = 0..nins)
                                     and deletes (drop[k]) at once, in linear time; -1 as those */
Ins *ins_replace(Fn *f, Blk *b, uint32_t at, const Ins *proto); /* NULL if a value the old one
                                     defines is still read and the new one does not define it */
int ins_permute(Fn *f, Blk *b, const uint32_t *order); /* b's instruction p becomes old
                                     order[p], in place (no relayout needed; addresses stay with
                                     positions); instructions moved, -1 if order is no
                                     permutation or moves a pinned (labelled) instruction */
uint32_t ins_newdef(Fn *f, Ins *i, unsigned slot, unsigned m); /* a new value for register m of
                                     def slot slot, defined by i */
void ins_setuse(Fn *f, Ins *i, unsigned slot, unsigned m, uint32_t v); /* the use reads v; use
                                     lists follow */
uint32_t ins_label(Fn *f, Blk *b, uint32_t at); /* the label of instruction at of b, made
                                     (.L_x_eN) if it has none: a branch target */
int fn_relayout(Fn *f);           /* Fn.ins from the blocks in layout order, indices and labels
                                     moved; 1 if there was an edit, 0 if nothing changed */
int fn_edited(const Fn *f);       /* an edit was made since the function was read */
uint32_t fn_renames(const Fn *f, const uint32_t **pairs); /* labels relayout renamed: pairs
                                     (old, new); new is 0 where the instruction was deleted */
void edit_free(Fn *f);

/* dom.c */
void dom_build(Fn *f);            /* idom, dominator tree, pre/post numbers, frontiers */
int dom_dominates(const Blk *a, const Blk *b);

/* defuse.c (building and leaving SSA form are passes: passes/passes.h) */
void ssa_uses(Fn *f);             /* fills def-use chains */
void ssa_release(Fn *f);          /* drop phis and SSA memory (not the values) */

/* verify.c */
int verify_fn(Fn *f, Diag *d);    /* 0 if well formed, else reports and returns -1 */
int fverify_fn(Fn *f, Diag *d);   /* fverify.c: the FIBER checks (verify_fn runs them); errors */
int fverify_remote(Fn *f, Diag *d); /* fverify.c: every V<n> destination a located "remote
                                     write" error; returns the count */
int fverify_plan(Fn *f, Diag *d); /* fverify.c: the FIBER verifier of fiberc's FIBER modes
                                     (fverify_fn; remote writes once remote-writes ran); 0 when
                                     f->plan is NULL, -1 after errors */

/* kinfo.c: kernel metadata a pass changes, written back where the listing states it.
 */
void kinfo_regcount(Fn *f, int n);    /* KInfo.regcount, EIATTR_REGCOUNT, SHI_REGISTERS */
int kinfo_frame(Fn *f, int frame, int min_stack); /* KInfo.frame_size, EIATTR_FRAME_SIZE and,
                                         when min_stack >= 0, EIATTR_MIN_STACK_SIZE (appended to
                                         .nv.info if absent); -1 if the listing has no .nv.info */
void kinfo_drop_vregs(Fn *f);         /* the .vreg and .vpred directives out of the .text header
                                         (before any edit: edit.c pins items by index) */

/* pass.c: the pass manager; the list of passes itself lives above ir/ (driver/passlist.c) */
typedef struct PassOpts {
	const char *print_before; /* pass name, or NULL */
	const char *print_after;  /* pass name, or NULL */
	int print_all;            /* print after every pass */
	int verify_each;          /* run verify_fn after every pass that changes the IR */
	FILE *dump;               /* where printing goes (stderr) */
	double *time;             /* accumulated seconds per pass (indexed like the list), or NULL */
	int (*make_ssa)(Fn *, Diag *); /* builds SSA form for a pass that needs it (passes/ssa.c's
	                             ssa_build, given by the driver); NULL: such a pass is refused */
	int (*print)(FILE *, Fn *, const Pass *); /* a pass's own --print-after dump (given by the
	                             driver): 1 if it printed one, 0 to print the IR; NULL none */
	int (*verify_extra)(Fn *, Diag *); /* with verify_each: run after every pass on a function
	                             with f->plan (the FIBER verifier, fverify_plan); -1 fails */
} PassOpts;
enum { PassUnchanged = 1 };   /* a pass's return value: success, and the IR is as it was (the
                                 pass manager then skips the relayout and def-use rebuild) */
int pass_run(Fn *f, const Pass *const *list, int n, const PassOpts *o, Diag *d);

#endif /* FIBER_IR_H */
