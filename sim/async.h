/* async.h: Hopper's asynchronous effects: the pending-effect queue of an SM (bulk copies and the
 * mbarrier transaction counts they complete) and the sm_90 mbarrier (SYNCS.*) state.
 *
 * An effect is applied at once by the functional driver (Exec.timing NULL) and queued with its
 * completion cycle by the timing driver, which drains it when a warp looks at an mbarrier or the
 * CTA ends: both give the same values (docs/sim.md, "Asynchronous effects").
 */
#ifndef FIBER_SIM_ASYNC_H
#define FIBER_SIM_ASYNC_H

#include "sim.h"

enum PendKind {
	PendToShared,          /* bytes into the CTA's shared memory, then complete_tx on mbar */
	PendToGlobal,          /* bytes into global memory (a bulk store: no mbarrier) */
	PendRedGlobal,         /* 32-bit words reduced into global memory (mbar: the RedOp) */
};
enum RedOp { RedAddF32, RedAddU32, RedMinU32, RedMaxU32, RedMinS32, RedMaxS32, RedAnd, RedOr,
             RedXor, NRedOp };

typedef struct SimPend {
	uint64_t at;           /* cycle the effect completes */
	uint8_t kind;          /* PendKind */
	Cta *cta;              /* the CTA slot that issued it */
	const Warp *w;         /* the warp that issued it (bulk groups) */
	uint32_t ctaid[3];     /* its blockIdx then: a slot that holds another CTA is a fault */
	uint64_t dst;          /* shared offset or global address */
	uint32_t mbar;         /* PendToShared: shared offset of the mbarrier, UINT32_MAX none */
	uint32_t n;            /* bytes */
	uint8_t *data;         /* the bytes, read at issue */
} SimPend;

struct SimAsync {
	SimPend *q;            /* pending effects in issue order (completion cycles ascending) */
	uint32_t n, cap;       /* entries, allocated */
	uint64_t engine_free;  /* cycle the SM's copy engine takes its next copy */
	uint32_t lat;          /* timing: cycles from a copy's start to its first bytes (lat_l2) */
	uint32_t bytes_per_clk; /* timing: the engine's bandwidth (l2_sm_bytes_per_clk) */
};

/* the SM's queue (made on first use); the timing driver sets its latency and bandwidth */
SimAsync *sim_async(Sm *s);
void sim_async_timing(Sm *s, uint32_t lat, uint32_t bytes_per_clk);
void sim_async_free(Sm *s);
/* a copy of n bytes (data: read now) to dst; functional: applied now; timing: queued. -1 after
 * a fault */
int sim_async_copy(Exec *x, int kind, uint64_t dst, uint32_t mbar, const uint8_t *data,
                   uint32_t n);
/* apply the effects complete by cycle now (every effect of CTA c whatever its cycle, when c is
 * not NULL: the CTA ends); the latest completion cycle applied, 0 if none */
uint64_t sim_async_drain(Exec *x, uint64_t now, const Cta *c);
void sim_async_settle(Exec *x);     /* timing: apply what is complete by x->now */
uint64_t sim_async_next(const Sm *s);
uint64_t sim_async_last(const Sm *s, const Warp *w); /* latest completion of w's effects, or 0 */ /* completion cycle of the oldest pending effect, or 0 */

/* the mbarrier word (docs/sim.md): phase bit 63, pending arrivals 2^20 - [62:43], transaction
 * bytes [41:21] (two's complement), expected arrivals 2^20 - [20:1]; 0 in [20:1]: not a barrier */
int mbar_arrive(Exec *x, uint8_t *p, unsigned lane, uint32_t cnt, int64_t tx, int drop);
int mbar_tx(Exec *x, uint8_t *p, unsigned lane, int64_t tx); /* expect (+) / complete (-) */
int mbar_valid(Exec *x, const uint8_t *p, unsigned lane, const char *what);

#endif /* FIBER_SIM_ASYNC_H */
