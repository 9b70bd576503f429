/* sim.h: the simulator's decoded program and machine state, shared by the functional driver
 * (now) and the timing driver (next issue): one instruction semantics, two drivers.
 *
 * A kernel's Fn (ir/) is decoded once into a Prog of DIns: each DIns names its semantics (an
 * ExecFn), its operands resolved to register indices, immediates and constant-bank offsets, its
 * modifiers parsed into family-specific bits, and its branch target as an instruction index. The
 * simulator never looks at text or at Opnd again. Execution is warp-wide: an ExecFn computes the
 * instruction for the lanes of `mask` (the threads of the warp that share this PC and whose guard
 * predicate is true), reading and writing the warp's registers through the accessors below.
 *
 * Registers live in the SM's register file, 2048 vector registers of 32 lanes (FIBER's view and
 * the hardware's: 64K 32-bit registers per SM). A warp's registers R0..R(n-1) are a window
 * starting at Warp.rbase; FIBER mode will let a source operand name any vector register.
 *
 * Built on ir/ only.
 */
#ifndef FIBER_SIM_H
#define FIBER_SIM_H

#include "ir.h"

typedef struct DOp DOp;
typedef struct DIns DIns;
typedef struct Prog Prog;
typedef struct Exec Exec;
typedef struct Warp Warp;
typedef struct Cta Cta;
typedef struct Sm Sm;
typedef struct Gpu Gpu;
typedef struct Alloc Alloc;
typedef struct SimFault SimFault;
typedef struct SimStats SimStats;
typedef struct KernelArgs KernelArgs;

enum {
	WarpSize = 32,
	SmVRegs = 2048,        /* vector registers of 32 lanes per SM */
	MaxDst = 4,            /* decoded destination operands */
	MaxSrc = 6,            /* decoded source operands */
	NumCBanks = 18,        /* constant banks c[0x0]..c[0x11] */
	CBankSize = 65536,     /* bytes per constant bank */
};

/* ---------------------------------------------------------------------------------------------
 * Decoded operands.
 */
enum DOpKind {
	DNone,
	DR,                    /* vector register R<reg> of the warp (RZ: reg = 255, reads 0) */
	DP,                    /* predicate P<reg> (PT = 7) */
	DUR,                   /* uniform register UR<reg> (URZ = 63) */
	DUP,                   /* uniform predicate UP<reg> (UPT = 7) */
	DB,                    /* convergence barrier B<reg> */
	DImm,                  /* immediate: imm (integer bits; a float immediate is its bit pattern) */
	DCBank,                /* c[bank][reg + imm] (reg: R index register or 255) or cx[ureg][...] */
	DMem,                  /* [reg(.64) + ureg + imm], desc[udesc] */
	DSReg,                 /* special register: imm = SReg* code (sim/sreg.c) */
	DLabel,                /* branch target: imm = instruction index */
	DSbSet,                /* scoreboard set (DEPBAR): imm = mask */
	DV,                    /* FIBER: absolute vector register V<reg> */
};

enum DOpFlag {
	DFNeg = 1 << 0,        /* -x (integer or float negate, per family) */
	DFAbs = 1 << 1,        /* |x| */
	DFNot = 1 << 2,        /* ~x bitwise or !p */
	DFWide = 1 << 3,       /* DMem: base register is 64-bit (R2.64) */
	DFUreg = 1 << 4,       /* DMem/DCBank: ureg field is present */
	DFCx = 1 << 5,         /* DCBank: bank taken from ureg (cx[URx]) */
	DFReuse = 1 << 6,      /* operand reuse cache hint (timing only) */
	DFDesc = 1 << 7,       /* DMem: desc[UR] prefix (memory descriptor; ignored functionally) */
};

/* half selectors of HADD2/HFMA2 operands and the like (R2.H0_H0, R2.H1, R3.F32) */
enum DSel {
	SelNone, SelH0H0, SelH1H1, SelH0, SelH1, SelF32, SelB0, SelB1, SelB2, SelB3, SelH1H0, SelX4,
	SelX8, SelX16, SelU32,
};

struct DOp {
	uint8_t kind;          /* DOpKind */
	uint8_t flags;         /* DOpFlag */
	uint8_t sel;           /* DSel */
	uint8_t n;             /* registers covered (from the opcode table slot) */
	uint16_t reg;          /* register number of its class */
	uint16_t ureg;         /* DMem: UR index (63 none); DCBank: UR of cx[] or index UR */
	uint16_t bank;         /* DCBank: bank number */
	uint16_t udesc;        /* DMem: desc[UR] */
	int64_t imm;           /* immediate, offset, target, SReg code */
};

/* ---------------------------------------------------------------------------------------------
 * Decoded instructions.
 */
typedef void (*ExecFn)(Exec *x, const DIns *d, uint32_t mask);

struct DIns {
	ExecFn exec;           /* semantics */
	uint16_t op;           /* Oxxx */
	uint8_t ndst;          /* destination operands used */
	uint8_t nsrc;          /* source operands used */
	int8_t guard;          /* guard predicate number, -1 none (PT); uniform if guard_uniform */
	uint8_t guard_not;     /* @!P */
	uint8_t guard_uniform; /* @UPx */
	uint8_t unit;          /* OpUnit, for timing */
	uint32_t mod;          /* family-specific modifier bits (see the family's file) */
	uint32_t aux;          /* family-specific: LUT, compare and boolean op, width, ... */
	uint32_t aux2;         /* family-specific */
	DOp dst[MaxDst];       /* destinations in operand order */
	DOp src[MaxSrc];       /* sources in operand order */
	uint32_t pc;           /* own index in Prog.ins */
	uint32_t ctrl;         /* control bits from the encoding (stall, yield, SBs, wait, reuse) */
	const Ins *ir;         /* the instruction it came from: diagnostics only */
};

struct Prog {
	Fn *fn;                /* the kernel */
	DIns *ins;             /* decoded instructions, one per Fn.ins */
	uint32_t nins;
	uint32_t *addr_to_pc;  /* byte address / 16 -> instruction index (RET, BRX) */
	uint32_t naddr;
	int nreg;              /* registers per thread (.nv.info REGCOUNT) */
	int shared_static;     /* bytes of .nv.shared.<fn> */
	int frame_size;        /* bytes of local memory per thread */
	int param_base;        /* offset of the parameters in constant bank 0 */
};

/* Decoder and semantics registry: each family file registers its opcodes. */
typedef struct DecodeCtx {
	Fn *fn;                /* the kernel */
	Diag *diag;            /* for errors */
	int sm;                /* architecture */
} DecodeCtx;

/* decode one instruction of this family: fill d (exec included); -1 after an error on c->diag */
typedef int (*DecodeFn)(DecodeCtx *c, const Ins *i, DIns *d);

typedef struct SimTab {
	DecodeFn dec[NOp];     /* per opcode family, NULL: unsupported */
} SimTab;

/* ---------------------------------------------------------------------------------------------
 * Machine state.
 */
struct Warp {
	uint32_t id;           /* warp index within the CTA */
	uint32_t rbase;        /* first vector register of its window in Sm.rf */
	uint32_t nreg;         /* registers in the window */
	uint32_t present;      /* lanes that hold a thread */
	uint32_t exited;       /* lanes whose thread has exited */
	uint32_t pc[WarpSize]; /* per-thread PC (instruction index): independent thread scheduling */
	uint32_t p[8];         /* predicates, one lane mask each; p[7] = PT = ~0 */
	uint32_t ur[64];       /* uniform registers; ur[63] = URZ = 0 */
	uint8_t up[8];         /* uniform predicates; up[7] = UPT = 1 */
	uint32_t bmask[16];    /* convergence barriers: lanes registered by BSSY */
	uint32_t wait_bsync;   /* lanes blocked at a BSYNC */
	uint32_t wait_warpsync; /* lanes blocked at a WARPSYNC */
	uint32_t wait_bar;     /* lanes blocked at BAR.SYNC */
	uint32_t bar_id;       /* barrier number it waits on */
	uint32_t tid[WarpSize][3]; /* thread index of each lane */
	uint64_t ninstr;       /* warp instructions executed */
};

struct Cta {
	uint32_t ctaid[3];     /* blockIdx */
	uint32_t nthreads;     /* threads in the block */
	Warp *warp;            /* its warps */
	uint32_t nwarp;
	uint8_t *smem;         /* shared memory: static + dynamic */
	uint32_t smem_size;
	uint8_t *lmem;         /* local memory: frame_size bytes per thread, thread-major */
	uint32_t bar_arrived[16]; /* BAR: threads arrived per barrier */
	uint32_t bar_expect[16];  /* BAR: threads expected per barrier */
};

struct Sm {
	uint32_t (*rf)[WarpSize]; /* SmVRegs vector registers */
	uint32_t rf_used;      /* vector registers allocated */
	Cta *cta;              /* resident CTAs (functional driver: one) */
	uint32_t ncta;
};

/* A device allocation in global memory. */
struct Alloc {
	uint64_t base;         /* device address */
	uint64_t size;         /* bytes */
	uint8_t *data;         /* host copy */
	uint32_t id;           /* for messages */
	int freed;             /* use after free is a fault */
};

enum SimFaultKind {
	FaultNone,
	FaultOOB,              /* out-of-bounds access: address outside every allocation */
	FaultMisaligned,       /* address not aligned to the access size */
	FaultIllegalInstr,     /* an instruction the simulator cannot execute */
	FaultWatchdog,         /* instruction limit reached */
	FaultDeadlock,         /* barrier or convergence wait that can never complete */
	FaultTrap,             /* BPT.TRAP, __trap() */
	FaultBadArgs,          /* launch arguments do not match the kernel */
	FaultLimit,            /* block too large, shared memory over the limit */
	FaultInternal,
};

struct SimFault {
	int kind;              /* SimFaultKind */
	char msg[512];         /* one line: kernel, CTA, warp, lane, PC, address, nearest allocation */
};

struct SimStats {
	uint64_t cycles;       /* 0 in functional mode */
	uint64_t warp_instructions; /* warp instructions issued */
	uint64_t thread_instructions; /* sum of active lanes over issued instructions */
};

/* Execution context handed to every ExecFn. */
struct Exec {
	Gpu *gpu;              /* device: memory, constant banks, configuration */
	const Prog *prog;      /* program */
	Sm *sm;                /* SM holding the warp */
	Cta *cta;              /* CTA of the warp */
	Warp *w;               /* the warp */
	uint32_t next_pc_set;  /* lanes whose next PC the instruction set itself (branches) */
	SimFault *fault;       /* set by sim_fault; execution stops after the instruction */
};

/* Register access: the window of warp w in the SM register file. RZ reads 0, writes vanish. */
static inline uint32_t *
sim_reg(Exec *x, unsigned r)
{
	return x->sm->rf[x->w->rbase + r];
}

/* ---------------------------------------------------------------------------------------------
 * Prototypes, by file.
 */

/* decode.c */
void simtab_init(SimTab *t);                       /* calls every family's registration */
Prog *sim_decode(Fn *f, int sm, Diag *d);          /* NULL after reporting unsupported opcodes */
void prog_free(Prog *p);
int dop_from(DecodeCtx *c, const Ins *i, int k, DOp *out); /* operand k of i; -1 on error */
uint32_t *sim_src(Exec *x, const DOp *o, uint32_t tmp[WarpSize]); /* 32 lane values */
uint64_t sim_src64(Exec *x, const DOp *o, unsigned lane); /* .64 register pair or immediate */
void sim_dst(Exec *x, const DOp *o, const uint32_t v[WarpSize], uint32_t mask);
void sim_dst_pred(Exec *x, const DOp *o, uint32_t lanes_true, uint32_t mask);
uint32_t sim_pred(Exec *x, const DOp *o);          /* lane mask of a P/UP source (with !) */

/* families register their decoders: exec_int.c, exec_float.c, exec_half.c, exec_conv.c,
 * exec_uniform.c, exec_mem.c, exec_warp.c, exec_tensor.c, exec_ctrl.c */
void sim_register_int(SimTab *t);
void sim_register_float(SimTab *t);
void sim_register_half(SimTab *t);
void sim_register_conv(SimTab *t);
void sim_register_uniform(SimTab *t);
void sim_register_mem(SimTab *t);
void sim_register_warp(SimTab *t);
void sim_register_tensor(SimTab *t);
void sim_register_ctrl(SimTab *t);

/* mem.c: device memory. Pointers are valid for n bytes or NULL after a fault. */
uint8_t *sim_global(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_shared(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_local(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_generic(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint32_t sim_const32(Exec *x, unsigned bank, uint32_t off, unsigned lane);

/* fault.c */
void sim_fault(Exec *x, int kind, unsigned lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* FIBER_SIM_H */
