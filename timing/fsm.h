/* fsm.h: the FIBER SM's private parts, shared by its three files and nothing else: fsm.c (the
 * model's table: occupancy, readiness, SETFIBERNUM, busy-bit waits, statistics), fread.c (the
 * operand path: each slice's read ports shared by the four sub-partitions, the crossbar's slice
 * ports and latency) and fnors.c (the fiber_rs = 0 ablation: what a compiler without register
 * sharing would emit, shared-memory stores and loads). docs/fiber-sm.md describes the model.
 */
#ifndef FIBER_FSM_H
#define FIBER_FSM_H

#include "smmodel.h"

enum {
	FRing = 64,            /* cycles of read-port and crossbar reservations kept ahead of now:
	                          a read waits at most this long */
	FCopies = 64,          /* fnors: remote registers a weft keeps loaded (direct-mapped) */
	FMaxReads = 64,        /* register reads of one instruction looked at (fread.c) */
};

/* what the slices' ports serve in one cycle */
typedef struct FPortCycle {
	uint64_t cycle;        /* the cycle this entry counts (a ring entry of another is stale) */
	uint8_t bank[BankSlices][BankFiberMax]; /* reads served by each bank of each slice */
	uint8_t xbar[BankSlices]; /* registers sent through each slice's crossbar port */
} FPortCycle;

/* fnors: a register a weft has loaded from shared memory, and the value's generation */
typedef struct FCopy {
	uint32_t reg;          /* absolute register, UINT32_MAX none */
	uint32_t gen;          /* FSm.gen[reg] when loaded */
} FCopy;

/* what one instruction's register reads cost (fread_operands) */
typedef struct FRead {
	unsigned hold;         /* cycles its reads outlast the SIMT bank model's bubble: the weft's
	                          next issue waits (conflict cycles) */
	unsigned delay;        /* cycles the crossbar's latency adds after its last read (with
	                          fiber_rs = 0: the shared-memory loads' arrival): its results
	                          are that late */
	unsigned remote;       /* registers read outside the weft's window (values) */
	unsigned xbar;         /* of those, through the crossbar (another sub-partition's slice) */
	unsigned rpa;          /* reads the arbiter served later than they asked */
	unsigned xwait;        /* cycles reads waited for a crossbar slice port */
} FRead;

/* the FIBER model's state of one SM (TSm.mx) */
typedef struct FSm {
	FPortCycle ring[FRing]; /* port reservations, by cycle mod FRing */
	int vreads;            /* the program has V (or pool) sources: the port table is kept */
	uint32_t nslot;        /* hardware weft slots */
	uint8_t *late;         /* per TSm.rready index: its ready cycle includes an operand delay
	                          (a consumer interlocks on it, fiber_ready) */
	uint64_t *late_until;  /* per slot: the latest such ready cycle of the weft's writes */
	uint32_t pend_delay;   /* operand delay of the instruction between operand_bubbles and
	                          issue (they are called in turn for one instruction) */
	/* fiber_rs = 0 (fnors.c) */
	uint8_t *shared;       /* SmVRegs: named by a V or pool source of the program */
	uint32_t *gen;         /* SmVRegs: writes so far (a value's generation) */
	uint64_t *stored;      /* SmVRegs: when its latest value is in shared memory */
	FCopy *copy;           /* nslot x FCopies: what each weft has loaded */
	uint64_t *sync;        /* per slot: its last synchronisation (busy-bit wait, barrier,
	                          SETFIBERNUM): a load of shared data cannot be hoisted above it */
} FSm;

/* fread.c */
/* the weft's own R sources (TIns.bank) that miss the SIMT reuse cache as it is before the SIMT
 * model's read updates it: bit k for read k (the rule of ir/banks.c bank_simt_conflicts) */
unsigned fread_misses(const TSub *u, const TWarp *tw, const TIns *ti, const SimTiming *t);
/* the reads of tw's instruction pc at cycle now through the slices' banks and the crossbar,
 * reserving their ports: the own R sources of miss (fread_misses), the V sources; simt_bubble:
 * the SIMT bank model's bubble for the R sources */
void fread_operands(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t now, unsigned miss,
                    unsigned simt_bubble, FRead *r);
/* the registers of source o, a V source or a V base: first and count (0: not a V read) */
unsigned fread_vregs(const DOp *o, uint32_t *first);

/* fnors.c */
void fnors_new(TSm *s, FSm *f);    /* fiber_rs = 0: its state, the shared registers */
void fnors_free(FSm *f);
/* the shared-memory loads and stores the instruction needs instead of remote reads: issue
 * slots (the returned bubble), MIO slots; r->delay becomes the loads' arrival */
unsigned fnors_operands(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t now, FRead *r);
/* after its issue: the stores of its shared results complete (done: its results' cycle) */
void fnors_issued(TSm *s, FSm *f, TWarp *tw, uint32_t pc, uint64_t done);
/* tw synchronised at cycle t (a wait ended): later loads may be hoisted up to t */
void fnors_sync(FSm *f, const TWarp *tw, uint64_t t);

#endif /* FIBER_FSM_H */
