/* smmodel.h: the seam between the generic timing driver and a kind of SM, in the manner of QBE's
 * Target: a table of functions. The generic driver (launch.c: CTA dispatch, epochs, threads,
 * sampling; sm.c: sub-partitions, the scheduler's cycle loop, pipes, memory timing, the CPI
 * stack) calls the model only through this table; what a model decides is where a warp slot
 * sits, when a warp's next instruction may issue (its dependences: control bits, a register
 * scoreboard, ...), what reading its operands costs (register banks), what issuing it leaves
 * behind, and what the model's own events do (a CTA starting or ending, a CTA-wide release, a
 * warp it holds, wake-ups after an issue). The models are listed in sm_models[], selected by the
 * configuration key sm_model (docs/sim-config.md), described in docs/sim-timing.md ("SM
 * models"). simt.c is today's SIMT SM, the first and default model; fsm.c is the FIBER SM.
 */
#ifndef FIBER_SMMODEL_H
#define FIBER_SMMODEL_H

#include "tcore.h"

typedef struct SmModel {
	const char *name;      /* the sm_model value: "simt" */
	int fiber;             /* 1: runs FIBER programs, on a device with the functional layer's
	                          FIBER semantics (GpuConfig.fiber; simcfg_gpu sets it from
	                          sm_model); 0: on a device without them */
	/* resident CTAs per SM for the launch and what limits them ("ctas", "warps", "threads",
	 * "registers", "shared"); 0 if one CTA does not fit. The functional driver and the
	 * cooperative-launch check use it too (GpuConfig.occupancy, simcfg_gpu). */
	SimOccupancyFn occupancy;
	/* once per launch, after the instruction view (L->ti) is built: launch-wide choices */
	void (*launch)(TLaunch *L);
	/* the sub-partition of hardware warp slot `slot` (slots ctas_per_sm x wefts of a CTA, CTA
	 * by CTA), once per SM */
	uint32_t (*slot_sub)(const TLaunch *L, uint32_t slot);
	/* an SM is made, before its first CTA / freed: the model's state of it (NULL: none) */
	void (*sm_new)(TSm *s);
	void (*sm_free)(TSm *s);
	/* CTA tc has started at cycle start, its warps in their sub-partitions (NULL: nothing) */
	void (*cta_start)(TSm *s, TCta *tc, uint64_t start);
	/* the last warp of CTA tc was done at cycle now; its slot is free (NULL: nothing) */
	void (*cta_end)(TSm *s, TCta *tc, uint64_t now);
	/* a warp of a new CTA takes its hardware slot: reset what the model keeps for it (its
	 * registers in the SM's scoreboard, its dependence counters) */
	void (*warp_start)(TSm *s, TWarp *tw);
	/* the model's conditions for tw's next instruction (tw->next_pc) at cycle now: from t, the
	 * earliest issue the stall count allows, the cycle they hold, with why in *why if later */
	uint64_t (*ready)(TSm *s, TWarp *tw, uint64_t now, uint64_t t, uint8_t *why);
	/* tw's instruction pc issues at cycle now on sub-partition u and reads its operands: the
	 * issue bubble this costs (register bank conflicts), with the model's checks of the read */
	unsigned (*operand_bubbles)(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now);
	/* it has executed: its results are ready at done, its sources read at src_read; record
	 * what the warp's next instructions wait on and how long the warp stalls */
	void (*issue)(TSm *s, TSub *u, TWarp *tw, uint32_t pc, uint64_t now, uint64_t done,
	              uint64_t src_read);
	/* then tw is blocked (next_pc PeekBlocked: its functional wait bits): the CPI reason it
	 * waits with; the model may note when the wait began */
	unsigned (*blocked)(TSm *s, TWarp *tw, uint64_t now);
	/* a CTA-wide wait of tc ended with issuer's instruction at cycle now (Exec.bar_progress):
	 * 1 if it was the model's own (SETFIBERNUM) and the model woke the warps, 0 for the SM
	 * core's barrier release (NULL: always the barrier's) */
	int (*released)(TSm *s, TCta *tc, TWarp *issuer, uint64_t now);
	/* After every issue on the SM, once tw's next state is known: wake-ups the issue may
	 * allow (NULL: none). A model with this hook runs the SM core's second copy of its cycle
	 * loop, the only one that calls it and that honours TIns.hold; the first tests neither. */
	void (*issued)(TSm *s, uint64_t now);
	/* with issued: tw issued an instruction with TIns.hold (set by the model's launch) and may
	 * issue its next one (next_pc): the model holds it instead (TWarp.held) */
	void (*hold)(TSm *s, TWarp *tw, uint64_t now);
	/* the launch is over: the model's figures into st */
	void (*stats)(const TLaunch *L, SimTStats *st);
} SmModel;

/* simt.c */
extern const SmModel sm_model_simt;
/* fsm.c */
extern const SmModel sm_model_fiber;

/* smmodel.c: the models, indexed by SimTiming.sm_model (enum SmModelKind, simcfg.h) */
extern const SmModel *const sm_models[NSmModel];
const SmModel *sm_model_find(const char *name);      /* NULL if no model has that name */
const SmModel *sm_model_of(const SimConfig *c);      /* the configuration's model */
/* the register bank of absolute vector register reg (an index into the SM's register file) of a
 * warp whose window starts at base: the SIMT SM numbers banks by the window-relative register,
 * (reg - base) mod banks (docs/sim-timing.md, "Register banks"; ir/banks.h bank_simt_of) */
static inline unsigned
reg_bank(const SmModel *m, uint32_t reg, uint32_t base, unsigned banks)
{
	(void)m;               /* every model so far: the SIMT numbering */
	return bank_simt_of(reg, base, banks);
}

#endif /* FIBER_SMMODEL_H */
