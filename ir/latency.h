/* latency.h: the latency of an instruction as the passes plan with it (the control-bits pass, the
 * scheduler; docs/pass-ctrl-bits.md), derived as the timing layer derives it (timing/sm.c): the
 * opcode's row (ir/ops.h) names the configuration key its latency takes, and the key's cycles are
 * each configuration's (configs/NAME.cfg, compiled in by the Makefile: build/ir/latcfg.c). Every
 * architecture plans with the largest value of each key over the built-in configurations, so a
 * schedule is correct on each. tests/check_ctrlbits.c checks every opcode row on every
 * configuration against the timing layer.
 */
#ifndef FIBER_LATENCY_H
#define FIBER_LATENCY_H

#include "ir.h"

/* the latency keys of one configuration */
typedef struct LatConfig {
	const char *name;          /* NAME of configs/NAME.cfg; NULL ends lat_configs */
	uint32_t cycles[NLatKey];  /* the value of each key (OpLatKey) there; 0 for LkNone, LkMem */
} LatConfig;

enum LatKind {
	LatNone,           /* writes no register the model tracks */
	LatFixed,          /* fixed latency: a stall count must cover it */
	LatVar,            /* variable latency: a write scoreboard must guard it */
};

enum {
	/* a memory instruction without a scoreboard: issue to its register sources read (at least
	 * each configuration's lat_src_read; Hu25: up to 20 for STG) */
	LatWarRead = 20,
};

/* latcfg.c (generated from configs/NAME.cfg and latkeys.h): one per built-in configuration */
extern const LatConfig lat_configs[];
/* latcfg.c: each key's largest value over lat_configs (what lat_planned returns) */
extern const unsigned lat_planned_cycles[NLatKey];

/* latency.c */
/* the cycles the passes plan key with: its largest value over lat_configs */
unsigned lat_planned(int key);
/* the key an MMA of row key `key` (LkHmma, LkImma, LkDmma) takes for its operand volume vol =
 * m n k bits(A): the row's at HMMA.16816's volume (and with no shape, vol 0), LkHmmaSmall at
 * half of it, LkMmaQuarter below; DMMA's at any */
int lat_mma_key(int key, uint64_t vol);
/* the key i's latency takes: its row's, an MMA's by its volume */
int lat_key(const Module *m, const Ins *i);
/* the class of i on architecture sm (FP64 and R2UR are variable where the row lacks
 * ArchFp64Fixed; 0, unknown: fixed) and, for LatFixed, its cycles in *cycles by the values of
 * configuration c (NULL: lat_planned) */
int lat_kind_in(const LatConfig *c, const Module *m, const Ins *i, int sm, unsigned *cycles);
/* lat_kind_in with the planned values */
int lat_kind(const Module *m, const Ins *i, int sm, unsigned *cycles);
/* i reads its register sources after issue, through the MIO (memory, SHFL, LDSM): a later
 * write to them must wait for its read (or write) scoreboard */
int lat_late_read(const Ins *i);
/* the largest planned fixed latency of any instruction */
unsigned lat_max_fixed(void);

#endif /* FIBER_LATENCY_H */
