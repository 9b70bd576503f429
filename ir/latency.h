/* latency.h: the latency class and fixed latency of an instruction, as the timing model's
 * control-bits mode times it (timing/sm.c tins_build, alu_timing, tensor_timing), for the passes,
 * which may not include timing/ (docs/pass-ctrl-bits.md). The cycles are the largest value of
 * each lat_* key over the bundled configurations (configs/NAME.cfg): a control-bit schedule that
 * covers them is correct on every one. tests/check_ctrlbits.c checks the table against each
 * configuration that timing/config.c loads.
 */
#ifndef FIBER_LATENCY_H
#define FIBER_LATENCY_H

#include <stdint.h>

typedef struct Ins Ins;
typedef struct Module Module;

/* the fixed latencies, in cycles from issue to a dependent issue (the lat_* keys) */
typedef struct LatTable {
	uint8_t lat_int;          /* INT32 ALU, VOTE, CS2R and the rest of the misc pipe */
	uint8_t lat_fp32;         /* FFMA, FADD, FMUL */
	uint8_t lat_imad;         /* IMAD, IMUL */
	uint8_t lat_fp16;         /* HFMA2, HADD2 */
	uint8_t lat_fp64;         /* DADD, DMUL, DFMA on sm_90 (variable on sm_8x) */
	uint8_t lat_uniform;      /* the uniform datapath */
	uint8_t lat_umov;         /* ULDC, UMOV, VOTEU */
	uint8_t lat_hmma;         /* HMMA, QMMA of HMMA.16816's operand volume */
	uint8_t lat_hmma_small;   /* any MMA of half that volume */
	uint8_t lat_imma;         /* IMMA, BMMA of the full volume */
	uint8_t lat_mma_quarter;  /* any MMA of a quarter of it */
	uint8_t lat_branch;       /* the branch unit (BSSY's B register) */
	uint8_t war_read;         /* a memory instruction without a scoreboard: issue to its register
	                           * sources read (at least lat_src_read; Hu25: up to 20 for STG) */
} LatTable;

enum LatKind {
	LatNone,           /* writes no register the model tracks */
	LatFixed,          /* fixed latency: a stall count must cover it */
	LatVar,            /* variable latency: a write scoreboard must guard it */
};

extern const LatTable lat_table;

/* latency.c */
/* the class of i on architecture sm (FP64 and R2UR are variable where the row lacks
 * ArchFp64Fixed; 0, unknown: fixed) and, for LatFixed, its cycles in *cycles */
int lat_kind(const Module *m, const Ins *i, int sm, unsigned *cycles);
/* i reads its register sources after issue, through the MIO (memory, SHFL, LDSM): a later
 * write to them must wait for its read (or write) scoreboard */
int lat_late_read(const Ins *i);
/* the largest fixed latency of the table */
unsigned lat_max_fixed(void);

#endif /* FIBER_LATENCY_H */
