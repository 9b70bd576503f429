/* arch.h: the GPU architectures fiber knows, one row each (arch.c, docs/arch.md): the name, what
 * fiber does with its code today (read, simulate, generate), constant bank 0 as the driver lays
 * it out, the reserved shared memory, the built-in device that runs it, and the ISA differences
 * the code generator and the simulator depend on. Code asks the row, never the SM number: adding
 * an architecture is adding a row.
 */
#ifndef FIBER_ARCH_H
#define FIBER_ARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Arch Arch;
typedef struct ArchBank0 ArchBank0;

/* the words of constant bank 0 that every architecture fiber supports places alike (byte
 * offsets); the others are the row's ArchBank0 */
enum {
	C0Ntid = 0x0,          /* blockDim.x, .y, .z */
	C0Nctaid = 0xc,        /* gridDim.x, .y, .z */
	C0SharedWin = 0x18,    /* 64-bit: generic address of shared offset 0 */
	C0LocalWin = 0x20,     /* 64-bit: generic address of local offset 0 */
	C0StackTop = 0x28,     /* local bytes per thread: the initial stack pointer R1 */
};

/* what fiber does with an architecture's code today (Arch.support) */
enum ArchSupport {
	ArchReads = 1 << 0,     /* the SASS reader takes its listings without a warning */
	ArchRuns = 1 << 1,      /* the simulator executes its code (the runtime loads it) */
	ArchGenerates = 1 << 2, /* fiberc --arch generates code for it */
	ArchDevice = 1 << 3,    /* a built-in device executes exactly it: a configuration's arch
	                         * key, fibersim --arch (Arch.device is the row itself) */
	ArchElfHigh = 1 << 4,   /* its cubins' ELF e_flags hold the SM number in bits 8..15, the
	                         * Blackwell-era layout, not in bits 0..7 */
};

/* the ISA differences that selection (backend/isel/), the latency classes and the hidden
 * descriptor of op.c depend on (Arch.features); each names what the architecture has */
enum ArchFeature {
	ArchDescAddr = 1 << 0,    /* global and generic memory instructions name their memory
	                           * descriptor, a uniform register: desc[UR4][R2.64] (without it the
	                           * encoding holds it and nvdisasm hides it) */
	ArchFp64Fixed = 1 << 1,   /* FP64 arithmetic and R2UR have a fixed latency, covered by stall
	                           * counts (without it: variable, scoreboarded; ops.h OFVarSm8x) */
	ArchLdcBank0 = 1 << 2,    /* nvcc loads the driver's words of constant bank 0 (windows, stack
	                           * top) with LDC rather than reading them as an ALU operand */
	ArchSharedWinHi = 1 << 3, /* a generic shared address is SR_SWINHI over the 32-bit shared
	                           * offset (without it: the offset plus the window c[0x0][0x18]) */
	ArchClusters = 1 << 4,    /* thread-block clusters: barrier.cluster (UCGABAR) and CGAERRBAR
	                           * after ERRBAR in gpu- and sys-scope fences */
	ArchElect = 1 << 5,       /* elect.sync (ELECT) */
	ArchStmatrix = 1 << 6,    /* stmatrix (STSM) */
	ArchViadd = 1 << 7,       /* an add of an immediate is VIADD (without it: IADD3) */
	ArchVimnmx = 1 << 8,      /* integer min and max are VIMNMX, with .RELU and 16x2 forms
	                           * (without it: IMNMX) */
	ArchRedg = 1 << 9,        /* a reduction in global memory is REDG (without it: RED) */
	ArchI2fp = 1 << 10,       /* a 32-bit integer to binary32 is I2FP.F32 (without it: I2F) */
	ArchF2fpTyped = 1 << 11,  /* F2FP names both formats: F2FP.F16.F32.PACK_AB (without it:
	                           * F2FP.PACK_AB) */
	ArchBf16Arith = 1 << 12,  /* bf16 arithmetic of its own: HADD2, HMUL2, HSETP2, HSET2 and
	                           * HFMA2.MMA .BF16_V2, F2F.F64.BF16 (without it: HFMA2 forms, or
	                           * through binary32) */
	ArchFp8 = 1 << 13,        /* fp8 (e4m3, e5m2): its conversions and mma (QMMA) */
	ArchImma4 = 1 << 14,      /* 4-bit integer mma (IMMA .S4, .U4) */
	ArchBmmaXor = 1 << 15,    /* 1-bit mma with .xor.popc (BMMA.XOR) */
	ArchDmma8x8x4 = 1 << 16,  /* nvdisasm spells DMMA's shape 8x8x4 (without it: 884) */
	ArchSyncs = 1 << 17,      /* fiberc selects mbarriers as SYNCS and the bulk copies
	                           * (docs/isel-async90.md) */
};

/* where the 1 KiB of shared memory the driver reserves per CTA lies (Arch.rsv) */
enum ArchRsv {
	ArchRsvAbove = 1,      /* above the user's shared memory, which starts at 0: from the user
	                        * bytes rounded up to Arch.rsv_align; %reserved_smem_offset_1 is a
	                        * shared offset */
	ArchRsvBelow,          /* below it, [0, rsv_bytes): nvcc places user shared memory after it
	                        * (.nv.shared counts it when the kernel has shared variables);
	                        * %reserved_smem_offset_1 is the low half of a generic address */
};

/* the encoding of an architecture's listings (Arch.enc) */
enum ArchEnc {
	ArchEnc128 = 1,        /* the 128-bit word of ir/enc.h, with the opcode bits of
	                        * frontend/sass/encop.c (nvcc 13's sm_80..sm_90a listings) */
};

/* constant bank 0 as the driver fills it for a launch: the byte offsets of the words that
 * differ between architectures (0: not in the bank) */
struct ArchBank0 {
	uint16_t param;        /* the kernel's parameters (when .nv.info gives no
	                        * EIATTR_PARAM_CBANK) */
	uint16_t desc;         /* 64-bit global memory descriptor: nvcc's ULDC.64 UR4, c[0x0][desc] */
	uint16_t grid_ws_hi;   /* a cooperative launch's grid-sync workspace address: high word
	                        * (%envreg1) */
	uint16_t grid_ws_lo;   /* its low word (%envreg2) */
	uint16_t rsv_size;     /* the reserved bytes (%reserved_smem_offset_begin is SR_SMEMSZ
	                        * minus this); 0: not in the bank */
	uint16_t rsv_end;      /* %reserved_smem_offset_end */
	uint16_t rsv1;         /* %reserved_smem_offset_1 (ArchRsv says what it holds) */
	uint16_t param_win;    /* 64-bit generic address of the parameter block (cvta.param: a
	                        * __grid_constant__ parameter's address, a TMA tensor map's); 0 none */
	uint16_t cluster;      /* the cluster words nvcc 13 reads for %cluster_* (0: none): +0 1 in
	                        * an explicit cluster, +4..+0xc its dimensions, +0x10..+0x18 their
	                        * binary32 reciprocals, +0x1c..+0x24 %nclusterid (sim/cluster.c) */
	uint16_t cluster_n;    /* %cluster_nctarank */
};

/* one architecture. A row fiber has no facts of its own on (like set) holds its name, number,
 * support and like only: its code is read, generated and simulated by like's rules. */
struct Arch {
	const char *name;      /* "sm_90a": what .target, --arch and nvcc's -arch say */
	int sm;                /* the SM number: 90 */
	char suffix;           /* 'a' (sm_90a: architecture-specific features), else 0 */
	unsigned support;      /* ArchSupport flags */
	const Arch *like;      /* the row whose rules fiber applies to this one's code, which has
	                        * none of its own (sm_100 is treated as sm_90); NULL: its own */
	const Arch *device;    /* the row of the built-in device that runs its code (sm_86 code
	                        * runs on an sm_80 device: GpuConfig.sm) */
	const char *config;    /* a device row: its built-in configuration (configs/NAME.cfg) */
	int nsm;               /* a device row: that configuration's SMs (the sms key), which the
	                        * FIBER plan counts with */
	const ArchBank0 *bank0; /* constant bank 0 */
	enum ArchRsv rsv;      /* where the reserved shared memory lies */
	uint16_t rsv_bytes;    /* its size per CTA */
	uint16_t rsv_align;    /* ArchRsvAbove: the unit the user bytes are rounded up to */
	enum ArchEnc enc;      /* the encoding of its listings */
	unsigned features;     /* ArchFeature flags */
	int regs_sm;           /* 32-bit registers of an SM's register file (65536); 0: the row
	                        * it is like */
	int reg_unit;          /* registers are allocated to a warp in units of this many (256:
	                        * 8 a thread), which bounds a launch's registers per thread */
};

static inline int
arch_has(const Arch *a, unsigned feature)
{
	return (a->features & feature) != 0;
}

/* arch.c */
const Arch *arch_at(size_t k);                  /* row k, in the order of SM numbers; NULL past
                                                   the last: for (k = 0; (a = arch_at(k)); k++) */
const Arch *arch_find(int sm, int suffix);      /* the row of sm and suffix ('a' or 0), or NULL */
const Arch *arch_named(const char *name);       /* the row named "sm_90a", or NULL */
const Arch *arch_default(void);                 /* the row assumed for code that names none:
                                                   sm_80 */
/* the row that governs code for SM number sm, which may have no row of its own (a cubin's
 * flags, .headerflags: sm_81): its own row, else that of the newest number below it, else the
 * oldest; arch_default for 0 (unknown) */
const Arch *arch_of_sm(int sm);
const Arch *arch_code(int sm);                  /* arch_of_sm, or the row it is like: whose
                                                   rules apply (never a row with like set) */
/* the rules of code for sm that the simulator runs (a number from the oldest row with ArchRuns
 * to the newest one), NULL if it does not run it */
const Arch *arch_sim(int sm);
const char *arch_since(unsigned feature);       /* the oldest row with feature: "sm_89" */
/* the names of the rows with every support flag of mask, joined by sep and, before the last,
 * by last ("sm_80, sm_86, sm_89, sm_90 or sm_90a" with ", " and " or ") */
void arch_list(char *buf, size_t n, unsigned mask, const char *sep, const char *last);
/* what the simulator runs, a range per device: "sm_80..sm_89 and sm_90" */
void arch_sim_list(char *buf, size_t n);
int sm_of_string(const char *s, int *sm, int *suffix); /* "sm_90a" -> 90, 'a'; -1 if unknown
                                                   (a number with a row, suffix a or f) */
int arch_sm_of_elf_flags(uint64_t flags);       /* a cubin's SM number from its ELF e_flags */
void arch_print(FILE *out);                     /* the Markdown tables of docs/arch.md
                                                   (fiberc --list-archs) */

#endif /* FIBER_ARCH_H */
