/* smmodel.h: the seam between the generic timing driver and a kind of SM, in the manner of QBE's
 * Target: a table of functions. The generic driver (launch.c: CTA dispatch, epochs, threads,
 * sampling; sm.c: sub-partitions, the scheduler's cycle loop, pipes, memory timing, the CPI
 * stack) calls the model only through this table; what a model decides is when a warp's next
 * instruction may issue (its dependences: control bits, a register scoreboard, ...), what reading
 * its operands costs (register banks) and what issuing it leaves behind. The models are listed in
 * sm_models[], selected by the configuration key sm_model (docs/sim-config.md), described in
 * docs/sim-timing.md ("SM models"). simt.c is today's SIMT SM, the first and default model.
 */
#ifndef FIBER_SMMODEL_H
#define FIBER_SMMODEL_H

#include "tcore.h"

typedef struct SmModel {
	const char *name;      /* the sm_model value: "simt" */
	/* resident CTAs per SM for the launch and what limits them ("ctas", "warps", "threads",
	 * "registers", "shared"); 0 if one CTA does not fit. The functional driver and the
	 * cooperative-launch check use it too (GpuConfig.occupancy, simcfg_gpu). */
	SimOccupancyFn occupancy;
	/* once per launch, after the instruction view (L->ti) is built: launch-wide choices */
	void (*launch)(TLaunch *L);
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
