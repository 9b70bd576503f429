/* banks.h: the operand-read conflict model of the register file, in one place (banks.c). The
 * timing layer's SIMT SM (timing/simt.c: rf_banks banks per sub-partition, rf_bank_bubble, the
 * operand reuse cache with the .reuse flags) and FIBER SM (timing/fsm.c: slices of
 * fiber_slice_regs, fiber_banks banks per slice, fiber_read_ports read ports per bank through the
 * read-port arbiter, the 4x4 crossbar carrying fiber_xbar_width registers per cycle) count with
 * these functions, and so does the compiler's pass mma-banks (passes/fiber/mmabank.c), so that a
 * conflict the pass removes is one the simulator no longer charges (docs/pass-mma-banks.md,
 * docs/sim-timing.md "Register banks" and "The FIBER SM").
 * Pure counting: no state but what the caller passes in; ir/ imports nothing of ours.
 */
#ifndef FIBER_BANKS_H
#define FIBER_BANKS_H

#include <stdint.h>

typedef struct BankReuse BankReuse;
typedef struct BankReads BankReads;
typedef struct BankFiber BankFiber;
typedef struct BankRemote BankRemote;

enum {
	BankMax = 8,           /* SIMT register banks per sub-partition at most (rf_banks) */
	BankSlots = 3,         /* operand slots A, B, C: the ones with reuse flags and banks */
	BankNoReg = 0xffff,    /* an empty reuse-cache entry */
	BankRZ = 255,          /* RZ's number: it takes an operand slot but reads no bank */
	BankSlices = 4,        /* slices of the FIBER register file (one per sub-partition) at most */
	BankFiberMax = 16,     /* banks per slice at most (fiber_banks) */
};

/* what one source operand is to the bank model (bank_collect): in the order the instruction
 * lists its sources (after its destinations) */
enum BankSrcKind {
	BankSrcOther,          /* takes no operand slot: predicates, memory, special registers, V */
	BankSrcSlot,           /* takes an operand slot but reads no bank: immediates, c[][], UR */
	BankSrcR,              /* a vector register R<reg> of the warp's window (RZ: BankRZ) */
};

/* the vector-register sources of one instruction that the SIMT banks see: the R registers in
 * operand slots A, B and C, the same register read twice counted once (bank_collect) */
struct BankReads {
	uint8_t n;                  /* reads, at most BankSlots */
	uint8_t reg[BankSlots];     /* window-relative register numbers */
	uint8_t slot[BankSlots];    /* their operand slot (bit of the reuse flags) */
};

/* the SIMT reuse cache of one sub-partition: per (operand slot, bank) the register an operand
 * with its .reuse flag left there, and the warp slot that read it */
struct BankReuse {
	uint16_t reg[BankSlots][BankMax];    /* register, BankNoReg none */
	uint16_t owner[BankSlots][BankMax];  /* warp (hardware slot) that put it there */
};

/* the FIBER register file's figures (timing/simcfg.h keys of the same names) */
struct BankFiber {
	unsigned slice_regs;   /* fiber_slice_regs (512); 0 taken as 512 */
	unsigned banks;        /* fiber_banks; 0 taken as 1 */
	unsigned ports;        /* fiber_read_ports; 0 taken as 1 */
	unsigned xbar_width;   /* fiber_xbar_width; 0 taken as 1 */
};

/* what one instruction's absolute (V, pool) reads cost on the FIBER SM: bank_remote_start, a
 * bank_remote_read per register read, bank_remote_end */
struct BankRemote {
	unsigned remote;       /* registers read outside the weft's window */
	unsigned xbar;         /* of those, in another sub-partition's slice */
	unsigned worst;        /* most remote reads in one bank of one slice */
	unsigned rpa_conflicts;  /* read-port arbiter conflicts: worst - ports when above */
	unsigned rpa_cycles;   /* the cycles the arbiter serialises: ceil(worst / ports) - 1 */
	unsigned xbar_conflicts; /* crossbar conflicts: (xbar - 1) / xbar_width when above width */
	uint16_t cnt[BankSlices][BankFiberMax]; /* remote reads per slice and bank */
};

/* banks.c */
/* the SIMT bank of absolute register reg of a warp whose window starts at base: banks are
 * numbered by the window-relative register, (reg - base) mod banks */
static inline unsigned
bank_simt_of(uint32_t reg, uint32_t base, unsigned banks)
{
	return (reg - base) % (banks ? banks : 1);
}
/* the bank reads of an instruction from its nsrc sources (kind[k]: BankSrcKind, reg[k] the
 * register of a BankSrcR): the first three slot-taking sources are slots A, B, C */
void bank_collect(const uint8_t *kind, const uint16_t *reg, unsigned nsrc, BankReads *out);
/* an empty reuse cache */
void bank_reuse_clear(BankReuse *c);
/* the SIMT conflicts of one instruction's reads r by warp owner on banks banks (clamped to
 * 1..BankMax), with the reuse cache c when reuse is on (c may be NULL only when it is off) and
 * the instruction's reuse flags (bit n: slot n). Reads that hit the cache are counted in *hits
 * (may be NULL); the others per bank; k reads in one bank are k - 1 conflicts (the worst bank's).
 * Updates c: a read whose slot has its flag set leaves its register, any other evicts. */
unsigned bank_simt_conflicts(const BankReads *r, unsigned banks, int reuse, BankReuse *c,
                             unsigned owner, unsigned flags, unsigned *hits);
/* the slice and bank of absolute register reg in the FIBER file */
unsigned bank_fiber_slice(const BankFiber *m, uint32_t reg);
unsigned bank_fiber_bank(const BankFiber *m, uint32_t reg);
/* the window base of weft w (CTA-relative) with nreg registers per window when the CTA's
 * windows are packed from the bottom of each slice: slice_regs * (w % nsub) + (w / nsub) * nreg */
uint32_t bank_fiber_window(const BankFiber *m, unsigned w, unsigned nsub, unsigned nreg);
/* one instruction's absolute reads by a weft of sub-partition sub whose window is
 * [base, base + nreg): a register of its own window is its own read (the SIMT banks count it),
 * any other a remote read through its slice's bank and, from another slice, the crossbar */
void bank_remote_start(BankRemote *r);
void bank_remote_read(const BankFiber *m, BankRemote *r, uint32_t reg, unsigned sub,
                      uint32_t base, uint32_t nreg);
/* the conflicts of the reads so far into r; returns rpa_conflicts + xbar_conflicts */
unsigned bank_remote_end(const BankFiber *m, BankRemote *r);

#endif /* FIBER_BANKS_H */
