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
 * starting at Warp.rbase; a FIBER V<n> source operand names vector register n of the SM
 * directly. sim_vreg is the one accessor for both.
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
typedef struct SimChecker SimChecker; /* the checks of one launch (check.c) */
typedef struct ChkCta ChkCta;         /* their state of one CTA slot (racecheck.c) */
typedef struct Alloc Alloc;
typedef struct SimFault SimFault;
typedef struct SimStats SimStats;
typedef struct KernelArgs KernelArgs;
typedef struct SimAsync SimAsync;   /* pending asynchronous effects of an SM (async.h) */

enum {
	WarpSize = 32,
	SmVRegs = 2048,        /* vector registers of 32 lanes per SM */
	MaxDst = 4,            /* decoded destination operands */
	MaxSrc = 8,            /* decoded source operands */
	NumCBanks = 18,        /* constant banks c[0x0]..c[0x11] */
	CBankSize = 65536,     /* bytes per constant bank */
};

/* The device address space (docs/sim.md): global allocations from SimGlobalBase upwards; the
 * generic windows of shared and local memory (4 GiB each) that the driver publishes in
 * c[0x0][0x18] and c[0x0][0x20] and SR_SWINHI returns the top half of. */
#define SimGlobalBase 0x00007f0000000000ull
#define SimSharedWindow 0x00007e0000000000ull
#define SimLocalWindow 0x00007d0000000000ull
#define SimParamWindow 0x00007c0000000000ull /* constant bank 0, read-only: sm_90's generic
                                                parameter addresses (ArchBank0.param_win) */
#define SimWindowSize 0x0000000100000000ull
/* The device runtime's routines (__assertfail, vprintf: devcall.c) are at SimDevcallBase + 16 k,
 * an address no kernel's code reaches: the loader resolves their names to it */
#define SimDevcallBase 0x00000000fffff000ull

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
	DCBank,                /* c[bank][reg + ureg + imm] (reg: R index register or 255) */
	DMem,                  /* [reg(.64) + ureg + imm], desc[udesc] */
	DSReg,                 /* special register: imm = SReg* code (sim/sreg.c) */
	DLabel,                /* branch target: imm = instruction index */
	DSbSet,                /* scoreboard set (DEPBAR): imm = mask */
	DV,                    /* FIBER: absolute vector register V<reg> (DFVreg; source only) */
	DExpr,                 /* other operand text (PR, UPR, 2D, ARRAY_2D): imm = its atom */
};

enum DOpFlag {
	DFNeg = 1 << 0,        /* -x (integer or float negate, per family) */
	DFAbs = 1 << 1,        /* |x| */
	DFNot = 1 << 2,        /* ~x bitwise or !p */
	DFWide = 1 << 3,       /* .64 suffix: DR pair, DMem 64-bit base register (R2.64) */
	DFUreg = 1 << 4,       /* DMem/DCBank: ureg field is present */
	DFCx = 1 << 5,         /* DCBank: cx[URx] form (dop_from rejects it for now) */
	DFReuse = 1 << 6,      /* operand reuse cache hint (timing only) */
	DFDesc = 1 << 7,       /* DMem: desc[UR] prefix (memory descriptor; ignored functionally) */
	DFFimm = 1 << 8,       /* DImm from a float literal: imm = its binary32 bits; the exact value
	                          (for FP64/FP16 forms) is DIns.ir->opnd[k].fimm */
	DFUWide = 1 << 9,      /* DMem: the UR term is a 64-bit pair ([UR4.64]) */
	DFVreg = 1 << 10,      /* reg is an absolute SM register (V<reg>): every DV operand, and a
	                          DMem base or DCBank index spelt V<n>; see sim_vreg */
	DFPoolDst = 1 << 11,   /* FIBER: a destination that is a pool register: decoded as DR with
	                          reg the absolute register, so every family accepts it; its DIns
	                          runs through fiber_pool_exec (exec_fiber.c), which checks the slice
	                          and hands the family the register relative to the weft's window */
};

/* half selectors of HADD2/HFMA2 operands and the like (R2.H0_H0, R2.H1, R3.F32) */
enum DSel {
	SelNone, SelH0H0, SelH1H1, SelH0, SelH1, SelF32, SelB0, SelB1, SelB2, SelB3, SelH1H0, SelX4,
	SelX8, SelX16, SelU32, SelRow, SelCol,
};

/* Operand fields per kind (dop_from, decode.c):
 *   DR/DP/DUR/DUP/DB/DV  reg = number (RZ 255, PT 7, URZ 63, UPT 7); n = registers covered;
 *                        sel = suffix (.H1, .F32, .X4); DFWide for .64
 *   DImm                 imm = value: integers sign-extended as written (-0x1 is -1), float
 *                        literals as binary32 bits with DFFimm
 *   DCBank               bank = N of c[N]; reg = R index register (255 none); ureg = UR
 *                        index (63 none, DFUreg); imm = byte offset
 *   DMem                 reg = R base (255 none; DFWide when .64; sel .X4/.U32); ureg = UR
 *                        term (63 none, DFUreg); udesc = desc[UR] (DFDesc); imm = offset
 *   DSReg                imm = SReg code (below)
 *   DLabel               imm = instruction index of the target (a listing's byte address is
 *                        resolved at decode time); reg = 0
 *   DExpr                imm = atom of the text (mstr(fn->mod, imm)); no value
 *   DSbSet               imm = bit mask ({5,4}); SBn and gsb0 names: reg = n, imm = 1 << n
 * Modifiers -x, |x|, ~x, !p are recorded as flags and NOT applied by sim_src: a family applies
 * DFNeg/DFAbs/DFNot itself (integer or float negation differ). sim_pred applies DFNot.
 */
struct DOp {
	uint8_t kind;          /* DOpKind */
	uint8_t sel;           /* DSel */
	uint16_t flags;        /* DOpFlag */
	uint8_t n;             /* registers covered (from the opcode table slot) */
	uint8_t spare;         /* unused */
	uint16_t reg;          /* register number of its class */
	uint16_t ureg;         /* DMem/DCBank: UR term (63 none) */
	uint16_t bank;         /* DCBank: bank number */
	uint16_t udesc;        /* DMem: desc[UR]; DCBank with DFCx: the UR holding the bank */
	int64_t imm;           /* immediate, offset, target, SReg code */
};

/* special registers (DSReg imm), sreg.c */
enum SReg {
	SRZero,                /* SRZ: zero (CS2R Rx, SRZ clears a pair) */
	SRTidX, SRTidY, SRTidZ,
	SRCtaidX, SRCtaidY, SRCtaidZ,
	SRNtidX, SRNtidY, SRNtidZ,
	SRNctaidX, SRNctaidY, SRNctaidZ,
	SRLaneId,
	SRWarpId,              /* warp index in the CTA (hardware: in the SM) */
	SRNWarpId,             /* warps per SM */
	SRSmId, SRNSmId, SRVirtualSmId,
	SRGridId,
	SREqMask, SRLtMask, SRLeMask, SRGtMask, SRGeMask,
	SRClockLo, SRClockHi, SRClock64,
	SRGlobalTimerLo, SRGlobalTimerHi, SRGlobalTimer,
	SRSwinHi, SRSwinLo,    /* shared window base (generic addressing) */
	SRSwinSz,              /* shared window size of the CTA, reserved memory included */
	SRSmemSz,              /* sm_8x: bytes of the CTA's shared memory, reserved included */
	SRLwinHi, SRLwinLo,    /* local window base */
	SRCgaCtaid,            /* sm_90 cluster: rank of the CTA in its cluster (Cta.rank) */
	SRClusterId,
	SRAffinity,
	SRVirtId,
	SRFiberId,             /* FIBER: linear fiber ID, 32 * weft + lane */
	SRFiberNum,            /* FIBER: the CTA's fiber count (Cta.nfibers) */
	NSReg
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
	uint32_t addr;         /* byte address in the section (Ins.addr, else 16 * pc) */
	uint32_t ctrl;         /* control bits from Ins.ctrl: CTRL_* below */
	const Ins *ir;         /* the instruction it came from: diagnostics only */
};

/* Control bits: the fields the front end decoded into Ins.ctrl (ir/enc.h, docs/sim.md,
 * docs/hardware-facts.md), packed
 * as in the control field of the encoding, and CTRL_HAS when the instruction has them (0 when it
 * has none: hand-written SASS, or an instruction a pass inserted without control bits). */
#define CTRL_HAS_BIT (1u << 23)
#define CTRL_HAS(c) (((c) >> 23) & 1u)       /* the instruction has control bits */
#define CTRL_STALL(c) ((c) & 0xfu)           /* [3:0] stall cycles */
#define CTRL_YIELD(c) (((c) >> 4) & 1u)      /* [4] yield bit */
#define CTRL_WSB(c) (((c) >> 5) & 7u)        /* [7:5] write scoreboard, 7 none */
#define CTRL_RSB(c) (((c) >> 8) & 7u)        /* [10:8] read scoreboard, 7 none */
#define CTRL_WAIT(c) (((c) >> 11) & 0x3fu)   /* [16:11] scoreboards waited on */
#define CTRL_REUSE(c) (((c) >> 17) & 0xfu)   /* [20:17] operand reuse flags */

struct Prog {
	Fn *fn;                /* the kernel */
	const char *name;      /* its symbol */
	int sm;                /* architecture it was decoded for */
	DIns *ins;             /* decoded instructions, one per Fn.ins, and ins[nins]: a guard that
	                          faults when a thread runs past the last instruction */
	uint32_t nins;         /* Fn.nins */
	uint32_t *addr_to_pc;  /* byte address / 16 -> instruction index (RET, BRX); UINT32_MAX
	                          for an address inside no instruction */
	uint32_t naddr;
	int nreg;              /* registers per thread: max(REGCOUNT, highest register used + 1):
	                          the warp's storage in Sm.rf */
	int nreg_launch;       /* registers per thread the launch allocates and occupancy counts:
	                          REGCOUNT for a kernel with USETMAXREG (its warps grow past it only
	                          through TRY_ALLOC: exec_uniform.c), else nreg */
	ExecFn *win_exec;      /* USETMAXREG kernels: per instruction naming a register past the
	                          smallest window (REGCOUNT or a lower USETMAXREG count), its
	                          semantics behind sim_window_exec's check; else NULL */
	uint16_t *win_top;     /* those instructions: the highest register they name + 1 */
	int shared_static;     /* bytes of .nv.shared.<fn> */
	int frame_size;        /* bytes of local memory per thread (EIATTR_FRAME_SIZE) */
	int stack_size;        /* bytes of the per-thread local window (frame + call stack) */
	int param_base;        /* offset of the parameters in constant bank 0 */
	int param_size;        /* EIATTR_CBANK_PARAM_SIZE, -1 unknown */
	ExecFn *pool_exec;     /* FIBER: per instruction, the family's semantics of an instruction
	                          with a pool destination (DFPoolDst), whose exec is fiber_pool_exec;
	                          NULL when the kernel writes no pool */
	const Prog *orig;      /* a checked variant (check.c): the program it was made from; NULL
	                          for a program decoded from its kernel */
};

/* Decoder and semantics registry: each family file registers its opcodes. */
typedef struct DecodeCtx {
	Fn *fn;                /* the kernel */
	Diag *diag;            /* for errors */
	int sm;                /* architecture */
	Prog *prog;            /* the program being built (addresses, label targets) */
	int split_ok;          /* sim_dec_opnds succeeded for the current instruction */
} DecodeCtx;

/* decode one instruction of this family: fill d (exec included); -1 after an error on c->diag */
typedef int (*DecodeFn)(DecodeCtx *c, const Ins *i, DIns *d);
/* Before a family decoder runs, sim_decode has filled d: op, unit, guard, pc, addr, ctrl, ir,
 * and the operands split by sim_dec_opnds(c, i, d, -1) (the leading defined operands, see
 * there). The decoder sets d->exec, mod/aux/aux2, and re-splits the operands when its form
 * differs (e.g. ISETP's two predicate destinations: sim_dec_opnds(c, i, d, 2)). */

typedef struct SimTab {
	DecodeFn dec[NOp];     /* per opcode family, NULL: unsupported */
} SimTab;

/* ---------------------------------------------------------------------------------------------
 * Machine state.
 */
struct Warp {
	uint32_t id;           /* warp index within the CTA */
	uint32_t uni;          /* 1: every runnable lane is at upc (pc[] stale for them) */
	uint32_t dirty;        /* lanes of this warp were woken during its own step */
	uint32_t upc;          /* the common PC while uni */
	uint32_t rbase;        /* first vector register of its window in Sm.rf */
	uint32_t nreg;         /* registers in the window */
	uint32_t present;      /* lanes that hold a thread */
	uint32_t exited;       /* lanes whose thread has exited */
	uint32_t pc[WarpSize]; /* per-thread PC (instruction index): independent thread scheduling */
	uint32_t p[8];         /* predicates, one lane mask each; p[7] = PT = ~0 */
	uint32_t ur[64];       /* uniform registers; ur[63] = URZ = 0 */
	uint8_t up[8];         /* uniform predicates; up[7] = UPT = 1 */
	uint32_t bmask[16];    /* convergence barriers: lanes registered by BSSY */
	uint32_t bwait[16];    /* lanes blocked at a BSYNC of each barrier */
	uint32_t wait_bsync;   /* lanes blocked at a BSYNC (union of bwait) */
	uint32_t wait_warpsync; /* lanes blocked at a WARPSYNC */
	uint32_t wsmask[WarpSize]; /* WARPSYNC: the mask each waiting lane named */
	uint32_t wsexcl;       /* lanes of wait_warpsync waiting at WARPSYNC.EXCLUSIVE (warp.c) */
	uint32_t wscoll;       /* lanes of wait_warpsync waiting at WARPSYNC.COLLECTIVE (warp.c) */
	uint32_t incoll;       /* lanes inside a collective region: from their WARPSYNC.COLLECTIVE
	                          to its ENDCOLLECTIVE (warp.c) */
	uint32_t collret[WarpSize]; /* the label of each such lane's WARPSYNC.COLLECTIVE: where its
	                          ENDCOLLECTIVE sends it (instruction index) */
	uint32_t exrun;        /* the group WARPSYNC.EXCLUSIVE released last (warp.c) */
	uint32_t yielded;      /* lanes that ran YIELD/NANOSLEEP while split: picked last (warp.c) */
	uint32_t parked;       /* functional driver: the warp yielded; runs when no other can */
	uint32_t wait_bar;     /* lanes blocked at BAR.SYNC / BAR.RED */
	uint8_t bar_of[WarpSize]; /* barrier number each such lane waits on */
	uint32_t bar_result;   /* B2R.RESULT: result of the last BAR.RED this warp took part in */
	uint32_t cga_arv[WarpSize]; /* UCGABAR_ARV: cluster barrier phase each lane arrived in + 1 */
	uint32_t last_pc;      /* PC issued last (ITS round-robin fallback) */
	uint32_t tid[WarpSize][3]; /* thread index of each lane */
	uint64_t ninstr;       /* warp instructions executed */
	uint64_t spin;         /* consecutive issues while split (ITS fairness, warp.c) */
	uint8_t dormant;       /* FIBER: a reserved weft context with no fibers (present = 0) */
	uint32_t wait_busy;    /* FIBER: lanes held at DEPBAR.FULL/.EMPTY (exec_fiber.c) */
	uint32_t wait_fnum;    /* FIBER: lanes arrived at SETFIBERNUM (exec_fiber.c) */
	uint32_t maxnreg;      /* USETMAXREG: registers per thread it holds now; 0: the kernel's
	                          REGCOUNT, as at launch (exec_uniform.c) */
	uint32_t mbar_fail;    /* sm_90 mbarrier: Cta.mbar_epoch + 1 when its last try_wait failed
	                          (0: it did not), for the deadlock check (exec_sync.c) */
	uint32_t mbar_lanes;   /* the lanes of that failed try_wait */
	uint32_t mbar_pc;      /* its instruction */
};

struct Cta {
	uint32_t ctaid[3];     /* blockIdx */
	uint32_t nthreads;     /* threads in the block */
	Warp *warp;            /* its warps */
	uint32_t nwarp;
	uint8_t *smem;         /* shared memory: static + dynamic */
	uint32_t smem_size;
	uint8_t *lmem;         /* local memory: Prog.stack_size bytes per thread, thread-major */
	uint32_t lsize;        /* bytes of local memory per thread */
	uint32_t bar_arrived[16]; /* BAR: threads arrived per barrier */
	uint32_t bar_expect[16];  /* BAR: threads expected per barrier (0: all non-exited) */
	uint32_t bar_red[16];  /* BAR.RED: threads whose predicate was true */
	uint8_t bar_op[16];    /* BAR.RED: 0 none, 1 POPC, 2 AND, 3 OR */
	uint32_t cga_arrived;  /* UCGABAR_ARV: threads arrived in the current phase */
	uint32_t cga_phase;    /* cluster barrier phases completed (the rank 0 CTA's count is the
	                          cluster's: sim/cluster.c) */
	uint32_t rank;         /* %cluster_ctarank: its rank in its cluster (0 without one) */
	uint32_t nrank;        /* %cluster_nctarank: CTAs in its cluster (1 without one) */
	Cta **peer;            /* the cluster's CTAs by rank (peer[rank] is this one); NULL without
	                          an explicit cluster, and then a shared address's rank bits must be 0 */
	uint32_t rpool;        /* USETMAXREG: registers its warps gave back (DEALLOC) and no warp
	                          has taken again (TRY_ALLOC): the CTA's free pool, 0 at launch */
	uint32_t nexited;      /* threads that have exited */
	uint32_t smbar_wait;   /* warps waiting at an SM-wide barrier: the functional driver runs
	                          the SM's other resident CTAs and releases them when every resident
	                          CTA waits (launch.c; set by the SM-wide synchronisation) */
	uint32_t nfibers;      /* FIBER: the CTA's fiber count (SR_FIBERNUM; launch: nthreads) */
	uint32_t maxfibers;    /* FIBER: fibers its weft contexts hold (nwarp = ceil(max/32)) */
	uint32_t fiber_gen;    /* FIBER: SETFIBERNUM releases so far */
	uint32_t fnum_count;   /* FIBER: count named by the wefts arrived at SETFIBERNUM (0 none) */
	uint32_t fnum_nreg;    /* FIBER: window size they named for new wefts */
	uint32_t fnum_first;   /* FIBER: the weft that arrived first (for the mismatch fault) */
	uint8_t fnum_wait;     /* FIBER, timing: every weft is at a growing SETFIBERNUM whose new
	                          wefts the SM cannot hold now; fiber_grow_retry releases it */
	ChkCta *chk;           /* the checks' state of the slot (cta_start sets it); NULL unchecked */
	uint32_t mbar_epoch;   /* sm_90 mbarrier operations that changed a barrier (exec_sync.c) */
};

struct Sm {
	uint32_t (*rf)[WarpSize]; /* SmVRegs vector registers */
	uint32_t rf_used;      /* vector registers allocated */
	Cta *cta;              /* resident CTAs (functional driver: as many as occupancy allows) */
	uint32_t ncta;
	/* FIBER empty/full state of each vector register: Empty E=1 F=0, Full E=0 F=1, Busy (a
	 * write in flight, timing only) E=0 F=0; every register Empty at launch */
	uint64_t busy_e[SmVRegs / 64], busy_f[SmVRegs / 64];
	uint32_t busy_waiters;  /* FIBER: wefts of the SM held at DEPBAR.FULL/.EMPTY */
	uint8_t rf_owner[SmVRegs]; /* FIBER: 0 free, 1 a window, 2 a pool (weft.c placement) */
	uint16_t nwin[8];      /* FIBER: windows (weft contexts) held in each slice (weft.c) */
	uint32_t slice_regs;   /* FIBER: the slice size of the last placement (weft.c) */
	uint32_t nresident;    /* FIBER, timing: CTAs resident on the SM (timing/fsm.c); a growing
	                          SETFIBERNUM that does not fit waits while others are (fnum_wait) */
	SimAsync *async;       /* bulk copies in flight (async.c); NULL until the first */
};

enum { BusyEmpty, BusyFull, BusyBusy }; /* sm_busy_get / sm_busy_set states */
static inline int
sm_busy_get(const Sm *s, uint32_t r)
{
	uint64_t b = 1ull << (r & 63);
	return s->busy_f[r >> 6] & b ? BusyFull : s->busy_e[r >> 6] & b ? BusyEmpty : BusyBusy;
}
static inline void
sm_busy_set(Sm *s, uint32_t r, int st)
{
	uint64_t b = 1ull << (r & 63);
	s->busy_e[r >> 6] = st == BusyEmpty ? s->busy_e[r >> 6] | b : s->busy_e[r >> 6] & ~b;
	s->busy_f[r >> 6] = st == BusyFull ? s->busy_f[r >> 6] | b : s->busy_f[r >> 6] & ~b;
}

/* A device allocation in global memory. */
struct Alloc {
	uint64_t base;         /* device address */
	uint64_t size;         /* bytes */
	uint8_t *data;         /* host copy */
	uint32_t id;           /* for messages */
	int freed;             /* use after free is a fault */
	const char *name;      /* module-scope variable(s) it holds, or NULL for gpu_malloc */
	uint8_t *init;         /* initcheck: per byte, 1 once written (gpu_write, a checked launch's
	                          stores); NULL: not tracked (made before Gpu.init_track, or module
	                          data, which the loader initialises) */
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
	FaultInterrupted,      /* the poll hook (gpu_set_poll) asked the launch to stop */
	FaultFiber,            /* FIBER: SETFIBERNUM misuse (divergent, counts differ, no context);
	                          after FaultInterrupted: the runtime's fiberFaultKind follows the
	                          kinds before it (runtime/launch.c) */
	FaultAssert,           /* a failed device assert (__assertfail; cudaErrorAssert) */
	FaultMbarrier,         /* mbarrier or asynchronous-copy misuse: no barrier at the address,
	                          arrivals or transaction bytes past the counts (async.c) */
	FaultTensorMap,        /* a TMA instruction's tensor map is not one, breaks its rules, or
	                          does not match the instruction (exec_tma.c) */
	FaultRegWindow,        /* a warp names a register at or above its setmaxnreg window
	                          (REGCOUNT at launch, moved by USETMAXREG: exec_uniform.c) */
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

/* Memory accesses of one warp instruction, recorded by the memory families for the timing model
 * (Exec.mlog; NULL in functional mode, then nothing is recorded). Addresses are as the
 * instruction computed them, before it wrote any register: global and generic addresses are
 * device addresses, shared and local ones offsets in the CTA's shared memory and the thread's
 * local window. */
enum MemSpace { MSGlobal, MSShared, MSLocal, MSGeneric, MSConst };
enum MemKind {
	MKLoad,                /* LDG, LDS, LDL, LD, LDSM, LDC, the global half of LDGSTS */
	MKStore,               /* STG, STS, STL, ST, STSM, the shared half of LDGSTS */
	MKAtomic,              /* ATOMG, ATOMS, ATOM: read-modify-write with a result */
	MKRed,                 /* RED: read-modify-write without a result */
};
enum MemAccFlag {
	MAL1Bypass = 1 << 0,   /* .STRONG.GPU/.SYS, .CG, .BYPASS, .EF, volatile: not cached in L1 */
	MAAsync = 1 << 1,      /* LDGSTS: completes through LDGDEPBAR/DEPBAR, not the wsb */
};
typedef struct MemAcc {
	uint8_t space;         /* MemSpace */
	uint8_t kind;          /* MemKind */
	uint8_t size;          /* bytes per lane: 1, 2, 4, 8, 16 (LDSM: 16 per row address) */
	uint8_t flags;         /* MemAccFlag */
	uint32_t mask;         /* lanes that access */
	uint64_t addr[WarpSize]; /* per lane (valid for the lanes of mask) */
} MemAcc;
typedef struct MemLog {
	MemAcc acc[2];         /* LDGSTS records its global read and its shared write */
	unsigned n;
	uint32_t warp;         /* set by the timing driver: the warp's hardware slot in its SM
	                          (local memory of different warps must not alias in the model) */
} MemLog;

/* Execution context handed to every ExecFn. */
struct Exec {
	Gpu *gpu;              /* device: memory, constant banks, configuration */
	const Prog *prog;      /* program */
	Sm *sm;                /* SM holding the warp */
	Cta *cta;              /* CTA of the warp */
	Warp *w;               /* the warp */
	uint32_t pc;           /* index of the instruction being executed */
	uint32_t active;       /* lanes at this PC that run it (before the guard) */
	uint32_t next_pc_set;  /* lanes whose next PC the instruction set itself (branches, exits,
	                          waits): sim_step does not advance them */
	uint32_t jump;         /* sim_set_pc of every active lane of a converged warp: the target,
	                          kept here instead of in each lane's pc (fast path) */
	uint32_t jumped;       /* jump is valid */
	SimFault *fault;       /* set by sim_fault; execution stops after the instruction */
	const uint8_t *cbank[NumCBanks]; /* constant banks of this launch (bank 0: driver's) */
	uint32_t cbank_size[NumCBanks];  /* bytes of each (reads past the end return 0) */
	uint32_t ntid[3];      /* blockDim */
	uint32_t nctaid[3];    /* gridDim */
	uint64_t ninstr;       /* warp instructions issued in this launch */
	uint64_t nthread_instr; /* sum of active lanes over them */
	uint64_t watchdog;     /* limit on ninstr */
	uint32_t bar_progress; /* set when a CTA barrier released warps (driver bookkeeping) */
	uint32_t yield;        /* the instruction was YIELD or NANOSLEEP (sim_yield, warp.c) */
	MemLog *mlog;          /* timing mode: memory accesses of the current instruction */
	uint64_t now;          /* timing mode: the current cycle (SR_CLOCKLO); 0 functional */
	void *timing;          /* timing mode: the driver's per-SM state (NULL functional) */
	uint32_t smid;         /* SR_SMID: the SM running the warp (0 functional) */
	uint32_t nsm;          /* SR_NSMID */
	Alloc *alast;          /* last global allocation hit by this context (mem.c cache) */
	uint32_t fiber;        /* FIBER mode (GpuConfig.fiber): R writes set busy bits Full */
	uint64_t wake_at;      /* timing mode: the instruction suspends its warp until this cycle
	                          (a failed mbarrier try_wait); 0 none; the driver clears it */
	uint64_t async_done;   /* timing mode: the instruction's read scoreboard is released at this
	                          cycle, when the warp's bulk copies complete (UTMACMDFLUSH, a bulk
	                          group's commit); 0 none; the driver clears it */
};

/* record an access: space, kind, bytes per lane, flags, lanes, their addresses (the caller's
 * array); no-op in functional mode */
static inline void
sim_mlog(Exec *x, unsigned space, unsigned kind, unsigned size, unsigned flags, uint32_t mask,
         const uint64_t addr[WarpSize])
{
	MemLog *l = x->mlog;
	MemAcc *a;

	if (!l || l->n >= 2 || !mask)
		return;
	a = &l->acc[l->n++];
	a->space = (uint8_t)space;
	a->kind = (uint8_t)kind;
	a->size = (uint8_t)size;
	a->flags = (uint8_t)flags;
	a->mask = mask;
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned k = (unsigned)__builtin_ctz(m);
		a->addr[k] = addr[k];
	}
}

/* what sim_step did */
enum StepResult {
	StepIssued,            /* an instruction ran for some lanes */
	StepBlocked,           /* no runnable lane: every live lane waits (BSYNC, WARPSYNC, BAR) */
	StepDone,              /* every thread of the warp has exited */
	StepFault,             /* the instruction faulted: x->fault is filled */
	StepYield,             /* sim_run only: every runnable lane of the warp yielded (YIELD,
	                          NANOSLEEP); the driver runs other warps first */
};

/* population count without a libgcc call (the build does not assume -mpopcnt) */
static inline unsigned
sim_popc(uint32_t v)
{
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Register access, the one way every register of an operand is reached: the 32 lanes of
 * register k of operand o (k = 1 is the second of a pair). The operand's reg names a register
 * of the warp's window (R<reg> is Sm.rf[Warp.rbase + reg]) unless DFVreg is set: then it is the
 * SM register file index itself (a DV operand, or a V base or index of DMem/DCBank). Only for a
 * real register: RZ (255) lies outside the window, use sim_src/sim_dst for operands that may be
 * RZ. The decoder guarantees reg + k < SmVRegs for V and a window register for R. */
static inline uint32_t *
sim_vreg(Exec *x, const DOp *o, unsigned k)
{
	return x->sm->rf[(o->flags & DFVreg ? 0 : x->w->rbase) + o->reg + k];
}

/* sim_vreg of a DR operand (never DFVreg: only DV operands and V bases of DMem/DCBank are
 * absolute), without testing the flag: the hot path of sim_src and alu_out */
static inline uint32_t *
sim_rreg(Exec *x, const DOp *o)
{
	return x->sm->rf[x->w->rbase + o->reg];
}

/* a DMem operand's base (or a DCBank's index) names a register: R<reg> other than RZ, or any
 * V<reg> (V255 is a register, not RZ) */
static inline int
dop_hasreg(const DOp *o)
{
	return o->reg != RegRZ || (o->flags & DFVreg);
}

extern const uint32_t sim_zeros[WarpSize];  /* decode.c: the 32 lanes RZ and URZ read */

/* register k of a DR or DV operand (R<reg + k>, V<reg + k>) for reading: its 32 lanes, or
 * sim_zeros for RZ (V255 is a register). How the families that read register tuples (memory
 * data, tensor fragments) reach a source register that may be RZ */
static inline const uint32_t *
sim_tuple_src(Exec *x, const DOp *o, unsigned k)
{
	return !(o->flags & DFVreg) && o->reg == RegRZ ? sim_zeros : sim_vreg(x, o, k);
}

/* ---------------------------------------------------------------------------------------------
 * Prototypes, by file.
 */

/* decode.c */
void simtab_init(SimTab *t);                       /* calls every family's registration */
Prog *sim_decode(Fn *f, int sm, Diag *d);          /* NULL after reporting unsupported opcodes */
void prog_free(Prog *p);
/* USETMAXREG kernels: the check of an instruction that names registers above REGCOUNT (the
 * warp's window must reach them), then its own semantics (Prog.win_exec) */
void sim_window_exec(Exec *x, const DIns *d, uint32_t mask);
int dop_from(DecodeCtx *c, const Ins *i, int k, DOp *out); /* operand k of i; -1 on error */
int sim_dec_opnds(DecodeCtx *c, const Ins *i, DIns *d, int ndst); /* first ndst operands to
                              d->dst, the rest to d->src; ndst < 0: the leading defined ones */
int sim_reg_opnd(DecodeCtx *c, const Ins *i, unsigned k, unsigned cls, unsigned n, DOp *o);
                              /* operand k as n registers of class cls (RR: or a V source); -1
                                 after reporting another class or a range past the file */
int sim_unsupported(DecodeCtx *c, const Ins *i);   /* "unsupported instruction 'OP.MODS'", -1 */
int sim_unsupported_why(DecodeCtx *c, const Ins *i, const char *why); /* same, plus a note */
int sim_hasmod(const DecodeCtx *c, const Ins *i, const char *mod); /* modifier present */
int sim_sreg_code(const char *name);               /* SR_TID.X -> SRTidX; -1 unknown (sreg.c) */
uint32_t *sim_src_slow(Exec *x, const DOp *o, uint32_t tmp[WarpSize]); /* sim_src, not a plain
                                                                        register */
uint64_t sim_src64(Exec *x, const DOp *o, unsigned lane); /* .64 register pair or immediate */
uint64_t sim_addr(Exec *x, const DOp *o, unsigned lane); /* DMem: register (.64 pair, .X4 scale,
                                   else 32-bit zero-extended) + UR term + offset */
void sim_dst(Exec *x, const DOp *o, const uint32_t v[WarpSize], uint32_t mask);
void sim_dst_pred(Exec *x, const DOp *o, uint32_t lanes_true, uint32_t mask);
uint32_t sim_pred(Exec *x, const DOp *o);          /* lane mask of a P/UP source (with !) */

/* 32 lane values of a source operand, read-only: the register itself, a shared zero array for
 * RZ, or tmp filled (immediates, UR, constant banks, special registers) */
static inline uint32_t *
sim_src(Exec *x, const DOp *o, uint32_t tmp[WarpSize])
{
	if (o->kind == DR && o->reg != RegRZ)
		return sim_rreg(x, o);
	return sim_src_slow(x, o, tmp);
}

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
void sim_register_gmma(SimTab *t);                 /* exec_gmma.c: HGMMA, IGMMA, QGMMA, BGMMA,
                                                      WARPGROUP */
void sim_register_ctrl(SimTab *t);
void sim_register_fiber(SimTab *t);                /* exec_fiber.c: SETFIBERNUM, SETBUSYBIT */
void sim_register_sync(SimTab *t);                 /* exec_sync.c: SYNCS (mbarrier), UBLKCP */
void sim_register_tma(SimTab *t);                  /* exec_tma.c: UTMALDG, UTMASTG, UTMAPF */
int sim_dec_busy(DecodeCtx *c, const Ins *i, DIns *d); /* exec_fiber.c: DEPBAR.FULL/.EMPTY and
                                                      SETBUSYBIT reg[, n] (exec_ctrl.c's DEPBAR) */

/* warp.c: independent thread scheduling */
int sim_step(Exec *x);                             /* one instruction of warp x->w: StepResult */
typedef int (*SimStepFn)(Exec *x);
SimStepFn sim_stepper(const Exec *x);              /* sim_step for x's mode (Exec.fiber), chosen
                                                      once: a driver stepping instruction by
                                                      instruction tests the mode only once */
enum { PeekBlocked = UINT32_MAX - 1, PeekDone = UINT32_MAX };
uint32_t sim_peek(const Warp *w);                  /* the PC sim_step would run next, or
                                                      PeekBlocked (every live lane waits), PeekDone */
int sim_run(Exec *x, unsigned quantum, unsigned *issued); /* up to quantum sim_steps, the
                                                      converged case in a tight loop; the last
                                                      StepResult, *issued: instructions issued */
void sim_warp_init(Warp *w, uint32_t id, uint32_t present, uint32_t rbase, uint32_t nreg);
void sim_conv_check(Exec *x);                      /* release BSYNC/WARPSYNC waiters whose
                                                      condition now holds (after exits, BREAK) */
void sim_set_pc(Exec *x, uint32_t lanes, uint32_t pc); /* branch: next PC of lanes (sets
                                                      next_pc_set) */
void sim_hold(Exec *x, uint32_t lanes);           /* lanes wait at this instruction (their pc
                                                      stays; the caller sets their wait bits) */
void sim_exit_lanes(Exec *x, uint32_t lanes);      /* threads end (EXIT, KILL) */
void sim_wake(Exec *x, Warp *w, uint32_t lanes);   /* waiting lanes (wait bits cleared) go on
                                                      after the instruction they waited at */
void sim_bsync(Exec *x, unsigned b, uint32_t lanes); /* BSYNC Bb */
enum { WsPlain, WsExcl, WsColl };                  /* the kinds of WARPSYNC (sim_warpsync) */
void sim_warpsync(Exec *x, const uint32_t masks[WarpSize], uint32_t lanes, int kind);
                                                   /* WARPSYNC[.EXCLUSIVE]: lanes wait for every
                                                      live lane of their mask at a WARPSYNC of
                                                      the same kind and mask */
void sim_collective(Exec *x, const uint32_t masks[WarpSize], uint32_t lanes, uint32_t ret);
                                                   /* WARPSYNC.COLLECTIVE m, `(ret) */
void sim_endcollective(Exec *x, uint32_t lanes);   /* ENDCOLLECTIVE */
void sim_yield(Exec *x, uint32_t lanes);           /* YIELD, NANOSLEEP: other lanes and warps
                                                      go first */

/* exec_ctrl.c */
void sim_bar_check(Exec *x);                       /* release CTA barriers now complete */

/* sreg.c */
uint32_t sim_sreg(Exec *x, int code, unsigned lane); /* value of a special register */

/* mem.c: device memory. Pointers are valid for n bytes or NULL after a fault. */
uint8_t *sim_global(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_shared(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
/* a shared::cluster address: as sim_shared, but in an explicit cluster rank bits 0 are rank 0's
 * (sim_shared: the CTA's own window) */
uint8_t *sim_shared_cluster(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_local(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_generic(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);
uint8_t *sim_param(Exec *x, uint64_t off, unsigned n, unsigned lane, int write); /* bank 0 */
uint32_t sim_const32(Exec *x, unsigned bank, uint32_t off, unsigned lane);

/* gpu.c: the device: configuration, global memory, loaded modules, launches (functional
 * driver; the timing driver, timing/, runs the same DIns through sim_step).
 *
 * A device's configuration keys that the functional simulator reads (docs/sim-config.md); the
 * whole configuration, with the timing model's keys, is timing/'s SimConfig (timing/simcfg.h),
 * which starts with these fields. */
#define SIM_GPU_CONFIG_FIELDS \
	const char *name;      /* "a100", "h100", ... */ \
	int sm;                /* SASS architecture executed: 80 or 90 */ \
	int nsm;               /* streaming multiprocessors */ \
	uint32_t max_threads_per_block; /* 1024 */ \
	uint32_t max_smem_per_block;    /* bytes, static + dynamic (opt-in maximum) */ \
	uint32_t regs_per_sm;  /* 65536 32-bit registers = SmVRegs x 32 */ \
	uint64_t watchdog;     /* warp instructions per launch before FaultWatchdog (0: default) */ \
	uint32_t mma_block;    /* wgmma f32 accumulation in groups of this many products (0: one \
	                          exact sum rounded once; docs/sim-wgmma.md) */ \
	uint32_t mma_bits;     /* ... each group aligned to its largest term keeping these bits */ \
	uint32_t mma_bits_f8;  /* ... for e4m3/e5m2 inputs (0: mma_bits) */

typedef struct GpuConfig GpuConfig;
typedef struct LaunchCx LaunchCx;     /* a launch being run (launch.h) */
/* resident CTAs per SM for a launch on device c and what limits them ("ctas", "warps", ...), 0
 * if one CTA does not fit: the SM model's occupancy (timing/smmodel.h) */
typedef uint32_t (*SimOccupancyFn)(const GpuConfig *c, const LaunchCx *lc, const char **limit);

/* the functional simulator's configuration (simcfg_gpu makes it from a SimConfig): the keys
 * above, the clock (SR_GLOBALTIMER) and the occupancy of the SM model with the figures it reads
 * (copies of the timing keys of the same names) */
struct GpuConfig {
	SIM_GPU_CONFIG_FIELDS
	int fiber;             /* 1: the FIBER SM model (sm_model = fiber): FIBER opcodes, windows */
	int fiber_dp;          /* 0: SETFIBERNUM synchronises but keeps the count (ablation) */
	uint32_t fiber_contexts; /* weft contexts per sub-partition (0: 64) */
	uint32_t fiber_slice_regs; /* vector registers per slice (0: 512) */
	uint32_t nsub;         /* sub-partitions per SM (0: 4) */
	uint32_t clock_mhz;    /* SM clock: nanoseconds of SR_GLOBALTIMER */
	SimOccupancyFn occupancy; /* CTAs an SM holds at once; NULL: one, run one after another */
	uint32_t max_warps_per_sm, max_threads_per_sm, max_ctas_per_sm; /* occupancy's figures */
	uint32_t reg_alloc_unit, smem_per_sm, smem_alloc_unit, smem_reserved_per_cta;
};

typedef struct SimModule SimModule;   /* a Module placed on a Gpu: decoded kernels, globals */
typedef struct DevOut DevOut;         /* device printf and assert output (devcall.c) */

typedef struct LaunchParams {
	uint32_t grid[3];      /* gridDim */
	uint32_t block[3];     /* blockDim */
	uint32_t dyn_smem;     /* dynamic shared memory bytes */
	const void *params;    /* parameter block as the kernel sees it at the parameter offset */
	uint32_t params_size;  /* bytes; checked against EIATTR_CBANK_PARAM_SIZE */
	int cooperative;       /* cuLaunchCooperativeKernel: the whole grid resident, a grid-sync
	                          workspace (this_grid().sync()); refused if the grid does not fit */
	uint32_t cluster[3];   /* sm_90 cluster dimensions in CTAs (cudaLaunchAttributeClusterDimension);
	                          all 0: no explicit cluster (each CTA alone, %is_explicit_cluster 0) */
} LaunchParams;

enum { SimWatchdogDefault = 1 << 28 }; /* warp instructions, when GpuConfig.watchdog is 0 */

/* Progress of a running launch, given to the poll hook (about every 2^20 warp instructions in
 * functional mode, every 16 epochs in timing mode); the hook returns nonzero to stop the launch
 * with FaultInterrupted (its statistics then go as far as the run got). */
typedef struct SimProgress {
	uint64_t cycles;       /* simulated so far; 0 in functional mode */
	uint64_t warp_instructions; /* issued so far */
	uint64_t ctas_done;    /* CTAs finished */
	uint64_t ctas;         /* CTAs the launch simulates */
} SimProgress;
typedef int (*SimPollFn)(void *arg, const SimProgress *p);

Gpu *gpu_new(GpuConfig c);
void gpu_set_config(Gpu *g, GpuConfig c);          /* a new configuration (fibersim --set) for
                                                      the following launches */
void gpu_free(Gpu *g);
void gpu_set_poll(Gpu *g, SimPollFn fn, void *arg);  /* NULL: none (the default) */
/* how many CTAs of a launch an SM holds (GpuConfig.occupancy: the functional driver keeps them
 * resident at once; the cooperative-launch check); NULL: one, and CTAs run one after another */
void gpu_set_occupancy(Gpu *g, SimOccupancyFn fn);
int gpu_malloc(Gpu *g, uint64_t size, uint64_t *addr); /* 0, or -1 when out of memory */
void gpu_set_init_track(Gpu *g, int on);           /* initcheck: track the bytes written of the
                                                      allocations made from now on (Alloc.init);
                                                      off: forget every map */
int gpu_free_mem(Gpu *g, uint64_t addr);               /* -1 if addr is not an allocation */
int gpu_write(Gpu *g, uint64_t addr, const void *src, uint64_t n); /* -1 if out of bounds */
int gpu_read(Gpu *g, uint64_t addr, void *dst, uint64_t n);
SimModule *sim_module_load(Gpu *g, Module *m, Diag *d); /* decodes every kernel, places
                                                           module-scope data; NULL after errors */
void sim_module_free(SimModule *sm);
const Prog *sim_module_kernel(const SimModule *sm, const char *name); /* NULL if absent */
uint8_t *sim_module_bank(SimModule *sm, unsigned bank, uint32_t *size); /* module-wide constant
                                                      bank (.nv.constantN; writable: the kernels
                                                      read it at launch); NULL if none */
int sim_module_symbol(const SimModule *sm, const char *name, uint64_t *addr); /* device address
                                                      of a module-scope variable; -1 if none */
int sim_launch(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimStats *st,
               SimFault *fault);  /* 0, or -1 with fault filled (one line, named kind) */
const char *sim_fault_name(int kind);              /* "out-of-bounds access", ... */

/* The device, private to gpu.c and mem.c (the runtime uses the functions above). */
struct Gpu {
	GpuConfig cfg;         /* configuration */
	Alloc **alloc;         /* allocations sorted by base (bump allocation keeps them sorted);
	                          freed ones stay, data released, for use-after-free reports */
	uint32_t nalloc;
	uint32_t calloc;       /* allocated entries of alloc */
	uint64_t next_base;    /* next free device address */
	uint64_t bytes;        /* live bytes allocated */
	Alloc *last;           /* last allocation hit (cache) */
	Sm sm;                 /* the SM the functional driver runs CTAs on */
	SimPollFn poll;        /* progress and interruption hook, NULL none */
	void *poll_arg;
	DevOut *devout;        /* device printf and assert text of the launch (devcall.c) */
	SimChecker *chk;       /* the checks of the launch running (check.c); NULL: unchecked */
	int init_track;        /* initcheck asked for: gpu_malloc gives allocations Alloc.init */
	uint64_t warp_order;   /* functional driver: 0 round-robin; else the seed of a random warp
	                          order (launch.c, run_cta_random; not the cooperative runner) */
};

/* check.c, racecheck.c: compute-sanitizer's checks, a launch-time variant of the kernel */
enum SimCheck {
	SimCheckRace = 1 << 0, /* shared-memory hazards between threads (racecheck.c) */
	SimCheckSync = 1 << 1, /* barrier misuse (synccheck.c) */
	SimCheckInit = 1 << 2, /* reads of global memory never written (initcheck.c) */
};
enum ChkKind {
	ChkRaw,                /* a read after another thread's write, no barrier between */
	ChkWar,                /* a write after another thread's read */
	ChkWaw,                /* a write after another thread's write */
	ChkDivBar,             /* a CTA barrier reached by some of a warp's live threads */
	ChkBarCount,           /* a BAR count that differs from the waiting threads' */
	ChkWarpsync,           /* a WARPSYNC mask without the calling thread */
	ChkUninit,             /* a global read of bytes never written */
};
typedef struct ChkFind {
	uint8_t kind;          /* ChkKind */
	uint8_t write[2];      /* each access: 1 a write, 0 a read */
	uint8_t lane[2];       /* the first hazard's lanes */
	uint32_t pc[2];        /* the earlier access's instruction, the later one's */
	uint32_t warp[2];      /* the first hazard's warps */
	uint32_t cta[3];       /* its CTA */
	uint32_t addr;         /* its shared-memory offset; synccheck: the mask or count */
	uint64_t n;            /* hazards of this pair of instructions */
	uint64_t daddr;        /* initcheck: the device address of the first read */
	uint32_t size;         /* initcheck: its bytes */
} ChkFind;
SimChecker *sim_check_new(Gpu *g, const Prog *p, unsigned checks); /* g->chk, for a launch of p */
const Prog *sim_check_prog(const SimChecker *k);  /* the variant to launch (its orig: p) */
void sim_check_free(Gpu *g);                      /* after the launch; g->chk = NULL */
void sim_check_cta(Exec *x, Cta *c);              /* cta_start: slot c holds a new CTA */
void sim_check_find(Exec *x, const ChkFind *f);   /* one hazard (racecheck.c) */
uint64_t sim_check_report(SimChecker *k, FILE *f, const uint32_t ntid[3]); /* prints the
                                                      findings; how many hazards */
const char *race_kind_name(int kind);             /* "RAW", "WAR", "WAW" */
ChkCta *race_cta_new(Cta *c, uint32_t size);
Cta *race_cta_of(const ChkCta *s);
void race_cta_start(ChkCta *s, const Cta *c);
void race_cta_free(ChkCta *s);
void race_barrier(ChkCta *s);                     /* a CTA barrier completed */
void race_warp_sync(ChkCta *s, uint32_t warp, uint32_t lanes); /* lanes passed a warp barrier */
void race_access(Exec *x, ChkCta *s, const DIns *d, const MemAcc *a, int spin);
int race_polled(const ChkCta *s, uint32_t a);     /* a flag polled by a spin load */
void sync_bar(Exec *x, const DIns *d, uint32_t mask);      /* synccheck.c: before a BAR.SYNC */
void sync_warpsync(Exec *x, const DIns *d, uint32_t mask); /* before a WARPSYNC with a mask */
void sync_exit(Exec *x, const DIns *d, uint32_t mask);     /* before an EXIT */
void init_access(Exec *x, const DIns *d, const MemAcc *a); /* initcheck.c: one logged access */
Alloc *sim_alloc_at(Gpu *g, uint64_t addr, Alloc **last);  /* mem.c: the allocation holding addr */

/* devcall.c: the device runtime's routines. Their output is kept per device until taken: the
 * printf text (DevOutPrintf, CUDA: stdout) and the failed asserts' lines (DevOutAssert, stderr) */
enum { DevOutPrintf, DevOutAssert };
int sim_devcall_addr(const char *name, uint64_t *addr); /* address of a routine; -1 if none */
int sim_devcall(Exec *x, uint64_t addr, uint32_t lanes); /* a call of lanes to addr: 1 if addr
                                                      is a routine (run, lanes go on after the
                                                      CALL), 0 if not */
char *sim_devout_take(Gpu *g, int stream, size_t fifo, uint64_t *lost); /* the stream's text in
                                                      order (malloc'd; NULL none), newest fifo
                                                      bytes of DevOutPrintf (0: all); *lost:
                                                      bytes not kept */
void sim_devout_free(Gpu *g);

/* fault.c */
void sim_fault(Exec *x, int kind, unsigned lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* FIBER_SIM_H */
