/* timing.h: the cycle-level driver's contract. The timing driver (sm.c: SMs, sub-partitions,
 * schedulers, pipes; simt.c: the SIMT SM model's control bits, scoreboard and register banks,
 * through smmodel.h; launch.c: CTA dispatch, epochs, threads, sampling) issues the same DIns
 * through sim_step as the functional driver: values are computed when an instruction issues,
 * and the timing model decides *when* each instruction issues. The
 * memory model (smmem.c) times each memory instruction from the addresses the semantics recorded
 * (MemAcc, sim.h). Statistics (SimTStats) and trace events (TraceEv) go to the runtime, which
 * writes JSON (runtime/stats.c).
 *
 * Built on ir/ and sim.h only; simcfg.h is the configuration (every key).
 */
#ifndef FIBER_TIMING_H
#define FIBER_TIMING_H

#include "simcfg.h"

/* Why a sub-partition did not issue in a cycle (the CPI stack). Every sub-partition cycle of
 * every SM is counted in exactly one reason, so the stack sums to cycles x SMs x 4. */
enum CpiReason {
#define CPI(e, key, meaning) Cpi##e,
#include "cpireasons.h"
#undef CPI
	NCpi
};
extern const char *const cpi_name[NCpi];    /* "issue", "stall", ... (JSON keys) */
extern const char *const cpi_meaning[NCpi]; /* one line each (cpireasons.h) */

/* per-SM figures */
typedef struct SimSmStats {
	uint64_t busy_cycles;          /* cycles with at least one resident warp */
	uint64_t warp_instructions;
	uint64_t ctas;                 /* CTAs run */
	uint64_t cpi[NCpi];            /* sub-partition cycles per reason */
} SimSmStats;

/* control-bits mode: reads of a register before its producer's modelled latency, grouped by
 * producer (opcode with modifiers), consumer opcode, the producer's latency and the cycles nvcc's
 * stall counts put between the two (hazard.c; docs/sim-stats.md, hazards_by_opcode) */
typedef struct SimHazard {
	char producer[48];             /* "IMAD.WIDE.U32" */
	char consumer[24];             /* "IADD3" */
	uint32_t latency;              /* the producer's latency in the model, cycles */
	uint32_t stall;                /* sum of the stall counts from the producer to the consumer
	                                  (0 counts as 1): the distance nvcc's schedule gives */
	uint64_t count;                /* instructions that read the producer's result early */
	uint32_t producer_addr;        /* byte addresses of one example pair */
	uint32_t consumer_addr;
} SimHazard;

/* FIBER model: one point of SM 0's timeline (a change of its fiber count or register allocation,
 * and the launch's start and end) */
typedef struct SimFiberSample {
	uint64_t cycle;
	uint32_t fibers;               /* active fibers (present, not exited, not dormant) */
	uint32_t regs;                 /* vector registers allocated to windows and pools */
} SimFiberSample;

/* one launch in timing mode */
typedef struct SimTStats {
	uint64_t cycles;               /* kernel start to the last CTA's end */
	uint64_t warp_instructions;
	uint64_t thread_instructions;
	uint64_t cpi[NCpi];            /* summed over SMs and sub-partitions */
	int ctrl_mode;                 /* CtrlBits or CtrlScoreboard: what was used */
	uint64_t hazards;              /* control-bits mode: reads of a register before its producer's
	                                  modelled latency (the listing's control bits are too short) */
	SimHazard *hazard_rows;        /* nhazard_rows, most frequent first (owned, simtstats_free) */
	uint32_t nhazard_rows;
	/* occupancy */
	uint32_t ctas;                 /* CTAs in the grid */
	uint32_t ctas_per_sm;          /* resident CTAs per SM allowed */
	const char *occupancy_limit;   /* "warps", "registers", "shared", "ctas", "threads" */
	uint32_t waves;                /* ceil(ctas / (ctas_per_sm x SMs)) */
	/* pipes */
	uint64_t tensor_busy;          /* sub-partition cycles the tensor pipe was busy */
	uint64_t rf_bank_conflicts;    /* bubbles from register bank conflicts */
	uint64_t reuse_hits;           /* source operands served by the reuse cache */
	/* memory (smmem.c) */
	uint64_t smem_requests;        /* shared-memory instructions (LDS, STS, LDSM, ATOMS, LDGSTS) */
	uint64_t smem_wavefronts;      /* their wavefronts; extra ones are bank-conflict replays */
	uint64_t l1_hits, l1_misses;   /* sectors */
	uint64_t l2_hits, l2_misses;   /* sectors */
	uint64_t dram_read_bytes, dram_write_bytes;
	uint64_t const_hits, const_misses;
	uint64_t gmem_requests;        /* global/local memory instructions */
	uint64_t gmem_sectors;         /* sectors they touched (coalescing: 4 per request is ideal for
	                                  32-bit loads) */
	/* per SM */
	uint32_t nsm;
	SimSmStats *sm;                /* nsm entries, owned (simtstats_free) */
	/* sampling */
	uint32_t ctas_simulated;       /* CTAs actually simulated (< ctas when sampled) */
	int sampled;                   /* 1: cycles extrapolated from a sample */
	double sample_error;           /* estimated relative error of the extrapolated cycles (sampled;
	                                  docs/sim-timing.md "Sampling") */
	/* per instruction (the CPI stack by PC): npc = the kernel's instructions */
	uint32_t npc;
	uint32_t *pc_addr;             /* npc byte addresses (DIns.addr) */
	const char **pc_op;            /* npc opcode names (static strings) */
	uint64_t *pc_cycles;           /* npc x NCpi: sub-partition cycles charged to a warp whose
	                                  next instruction was this one (CpiIssue: its issues); sums
	                                  to cpi[] less the idle cycles of SMs without warps */
	/* the FIBER SM model (sm_model = fiber; all 0 otherwise; docs/sim-timing.md "FIBER") */
	int fiber;                     /* 1: the FIBER model ran */
	uint64_t fiber_remote_reads;   /* source registers read from another weft's window, a pool or
	                                  another slice */
	uint64_t fiber_xbar_conflicts; /* cycles a read waited for a crossbar port (fiber_xbar_width) */
	uint64_t fiber_rpa_conflicts;  /* reads the read-port arbiter serialised (a bank's ports) */
	uint64_t fiber_busy_waits;     /* DEPBAR.FULL/.EMPTY that blocked */
	uint64_t fiber_busy_wait_cycles; /* weft cycles they waited */
	uint64_t fiber_setfibernum;    /* SETFIBERNUM releases */
	uint64_t fiber_setfibernum_cycles; /* weft cycles at SETFIBERNUM (sync and re-partition) */
	uint64_t fiber_rs_smem_reads;  /* fiber_rs = 0: registers loaded from shared memory instead
	                                  of read remotely (fnors.c) */
	uint64_t fiber_xbar_reads;     /* of the remote reads, those through the crossbar (another
	                                  sub-partition's slice) */
	SimFiberSample *fiber_tl;      /* nfiber_tl samples of SM 0, in cycle order (owned) */
	uint32_t nfiber_tl;
	/* the simulator itself */
	double wall_seconds;
	unsigned threads;              /* host threads used */
	const char *threads_note;      /* why fewer threads than asked, or NULL */
} SimTStats;

void simtstats_free(SimTStats *s);

/* trace events: one span of one warp (issuing, or stalled for a reason) */
typedef struct TraceEv {
	uint64_t start, dur;           /* cycles */
	uint32_t sm;                   /* SM index */
	uint32_t warp;                 /* hardware warp slot in the SM */
	uint32_t cta;                  /* linear CTA index in the grid */
	uint16_t reason;               /* CpiReason (CpiIssue: issuing) */
	uint16_t pad;
	uint32_t pc;                   /* byte address of the first instruction of the span */
	uint32_t count;                /* instructions issued in the span (CpiIssue) */
} TraceEv;

typedef struct TraceBuf {
	TraceEv *ev;                   /* events in (sm, time) order after the launch */
	uint64_t n, cap;
	uint64_t limit;                /* stop recording after this many (0: no trace) */
	uint64_t dropped;              /* events not recorded because of the limit */
} TraceBuf;

/* how to run a timed launch */
typedef struct TimingOpts {
	unsigned threads;              /* host threads simulating SMs in parallel (0, 1: one) */
	uint32_t sample_sms;           /* 0: all; else simulate this many SMs' share of CTAs and
	                                  extrapolate */
	uint32_t sample_ctas;          /* 0: all; else simulate only the first N CTAs (whole waves are
	                                  better) and extrapolate by CTA count */
	TraceBuf *trace;               /* NULL: no trace */
	int pc_stats;                  /* 1: the CPI stack by instruction (SimTStats.pc_cycles) */
} TimingOpts;

/* launch.c: a timed launch on device g, whose configuration is c (gpu_new(simcfg_gpu(c))):
 * values exactly as sim_launch, plus the timing; 0 or -1 with the fault filled (st is filled in
 * both cases as far as the run got) */
int sim_launch_timed(Gpu *g, const SimConfig *c, SimModule *sm, const Prog *k,
                     const LaunchParams *lp, const TimingOpts *o, SimTStats *st, SimFault *fault);
/* smmodel.c: the occupancy of the configuration's SM model (sm_model; simcfg_gpu gives it to
 * the functional driver) */
SimOccupancyFn sim_model_occupancy(const SimConfig *c);

/* ---------------------------------------------------------------------------------------------
 * Memory model (smmem.c). One MemSys per launch (L2, DRAM), one SmMem per SM (L1, shared memory
 * banks, constant cache, MIO). Deterministic with any thread count: during an epoch an SM sees
 * the L2 as it was at the epoch start plus its own accesses; memsys_epoch_end merges every SM's
 * accesses in (cycle, SM) order and computes the DRAM/L2 queueing delay for the next epoch from
 * the demand of this one.
 */
typedef struct MemSys MemSys;
typedef struct SmMem SmMem;

typedef struct MemTiming {
	uint64_t src_read;             /* cycle the instruction's sources have been read (rsb, WAR) */
	uint64_t done;                 /* cycle the result is written / the access is complete (wsb) */
	uint64_t drained;              /* cycle its stores and reductions are acknowledged by L2
	                                  (MEMBAR, the kernel's end); done for loads */
} MemTiming;

MemSys *memsys_new(const SimConfig *c);
void memsys_free(MemSys *m);
SmMem *smmem_new(MemSys *m, const SimConfig *c, unsigned sm_id);
void smmem_free(SmMem *s);
/* a new CTA's shared-memory carve-out does not matter to the model; L1 size = l1_total -
 * smem_per_sm. Times one warp memory instruction issued at cycle now from its recorded
 * accesses (log->n of them, e.g. LDGSTS: a global read and a shared write). */
void smmem_access(SmMem *s, const MemLog *log, uint64_t now, MemTiming *t);
/* earliest cycle >= now at which the MIO accepts another instruction from sub-partition p */
uint64_t smmem_mio_ready(const SmMem *s, unsigned p, uint64_t now);
/* the MIO took an instruction from sub-partition p at cycle now (SHFL, LDSM, memory); call it
 * before smmem_access for the same instruction, which then times it from its MIO start */
void smmem_mio_take(SmMem *s, unsigned p, uint64_t now);
/* the MIO start cycle of the instruction taken last (SHFL's latency counts from it) */
uint64_t smmem_mio_start(const SmMem *s);
/* end of an epoch: every SM has simulated up to cycle end */
void memsys_epoch_end(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end);
/* the same in three steps, the middle one on several host threads: merge the SMs' logs and
 * return the number of parts (1 .. parts) to apply; apply part i (every part once, the parts
 * at the same time or in any order); then the sums, the queueing delays of the next epoch */
unsigned memsys_epoch_begin(MemSys *m, SmMem *const *sms, unsigned n, unsigned parts);
void memsys_epoch_apply(MemSys *m, unsigned part);
void memsys_epoch_finish(MemSys *m, SmMem *const *sms, unsigned n, uint64_t end);
/* add the SM's and the system's counters to st */
void smmem_stats(const SmMem *s, SimTStats *st);
void memsys_stats(const MemSys *m, SimTStats *st);

#endif /* FIBER_TIMING_H */
