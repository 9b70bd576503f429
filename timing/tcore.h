/* tcore.h: the timing driver's private structures, shared by the SM core (timing/sm.c), the SM
 * models (smmodel.h, timing/simt.c) and the launch driver (timing/launch.c): the per-instruction
 * timing view (TIns), warps, sub-partitions, SMs, and the launch that owns them.
 * docs/sim-timing.md describes the model.
 */
#ifndef FIBER_TCORE_H
#define FIBER_TCORE_H

#include "banks.h"
#include "launch.h"
#include "timing.h"

enum {
	NSb = 6,               /* dependence counters SB0..SB5 */
	SbCap = 64,            /* pending events per counter (the hardware counts to 63) */
	NRegUnit = UnitB,      /* R0-R255, P0-P7, UR0-UR63, UP0-UP7: ir/regs.h units (V: none yet) */
	UnitOfP = UnitP, UnitOfUR = UnitUR, UnitOfUP = UnitUP,
	NWarpUnit = NRegUnit - UnitOfP, /* a warp's own units: P, UR, UP (R lives in the SM's file) */
	MaxSub = 4,            /* sub-partitions per SM at most */
	MaxBanks = BankMax,    /* register banks per sub-partition at most */
	MaxTSrc = 24, MaxTDst = 8,
	IPrefetchMax = 64,     /* stream-buffer lines at most (icache_prefetch, ifetch.c) */
	ClusterCap = 8,        /* CTAs in a thread-block cluster at most (sim/cluster.c) */
	/* reads later than issue, from nvcc's schedules (docs/calibration.md) */
	WideCLate = 2,         /* IMAD.WIDE: the high half of its 64-bit addend */
	StoreDataLate = 1,     /* a store's (STG, ST, STS, STL) data registers */
};
#define TNever UINT64_MAX
_Static_assert((int)RegRZ == (int)BankRZ, "ir/banks.h: RZ is register 255");
#define NoPc UINT32_MAX    /* a sub-partition cycle charged to no instruction */

enum Pipe { PInt, PFp32, PFp16, PFp64, PMufu, PConv, PTensor, PUniform, PBranch, PMisc, PMio, NPipe };

/* what an instruction's result waits on, for the CPI reasons of its consumers */
enum TClass { TcFixed, TcMem, TcLong, TcTensor };

enum TKind {
	KAlu,                  /* fixed or variable latency computed from the configuration */
	KMem,                  /* memory instruction timed by smmem.c from its MemLog */
	KLdgsts,               /* LDGSTS: asynchronous, completes through LDGDEPBAR groups */
	KLdgdepbar,            /* closes an LDGSTS group: its write SB is released at the group's end */
	KDepbar,               /* DEPBAR.LE SBx, N [, {mask}] */
	KMio,                  /* SHFL, MATCH: through the MIO, no memory access */
	KMembar,               /* MEMBAR: waits for the warp's memory operations */
	KGmma,                 /* HGMMA and the warpgroup MMAs: complete into the warp's gsb0 groups */
	KWgDepbar,             /* WARPGROUP.DEPBAR.LE gsb0, N: at most N gsb0 groups pending */
};

/* the timing view of one DIns, built once per launch */
typedef struct TIns {
	uint16_t src[MaxTSrc]; /* register units read (guard included) */
	uint16_t dst[MaxTDst]; /* register units written */
	uint8_t nsrc, ndst;
	uint8_t kind;          /* TKind */
	uint8_t pipe;          /* Pipe */
	uint8_t cls;           /* TClass of its result */
	BankReads bank;        /* vector-register sources in operand slots A, B, C (ir/banks.h) */
	uint8_t depbar_sb;     /* DEPBAR: counter, 255 none */
	uint8_t depbar_n;      /* DEPBAR, WARPGROUP.DEPBAR: the .LE bound */
	uint8_t depbar_mask;   /* DEPBAR: counters that must reach zero too */
	uint8_t wide_lo_early; /* the first destination register is ready a cycle early */
	uint8_t vsrc;          /* FIBER model: the instruction has V sources (fiber_launch) */
	uint8_t hold;          /* the SM model holds the warp after it (SmModel.hold; FIBER with
	                          fiber_fs = 0: DEPBAR.FULL/.EMPTY, fiber_launch) */
	uint8_t src_late[MaxTSrc]; /* cycles after issue at which src[k] is read (hazard check):
	                          IMAD.WIDE's addend high half, a store's data */
	uint16_t ii;           /* cycles the pipe is busy */
	uint16_t lat;          /* result latency (KAlu, KMio) */
} TIns;

typedef struct TSm TSm;
typedef struct TLaunch TLaunch;
typedef struct SmModel SmModel;

/* hazard.c: the hazard block of control-bits mode. Per warp, for each register unit: the
 * instruction that wrote it last, the cycle it issued and the warp's stall-count clock then (the
 * sum of the stall counts nvcc encoded on the instructions the warp has issued, 0 counting as 1);
 * per SM, the hazards seen as (producer pc, consumer pc, distance) pairs. */
typedef struct THazWarp {
	uint32_t *prod;        /* NRegUnit: pc of the last producer */
	uint32_t *issued;      /* NRegUnit: its issue cycle (low 32 bits) */
	uint32_t *enc;         /* NRegUnit: the stall-count clock at its issue */
	uint32_t enc_now;      /* the warp's stall-count clock */
} THazWarp;

typedef struct THazPair {
	uint32_t prod, cons;   /* pcs */
	uint32_t lat, stall;   /* modelled latency, nvcc's distance */
	uint64_t count;
} THazPair;

typedef struct THazSm {
	THazPair *v;
	uint32_t n, cap;
} THazSm;

typedef struct TCta TCta;
struct TCta {
	Cta c;                 /* functional state */
	int busy;              /* holds a CTA */
	uint32_t live;         /* warps not done */
	uint64_t linear;       /* CTA index in the grid */
	uint32_t rbase;        /* first vector register of its warps */
	uint32_t slot0;        /* first hardware warp slot */
	uint64_t freed_at;     /* cycle its last warp finished */
	uint32_t fgen;         /* FIBER model: Cta.fiber_gen it has seen (SETFIBERNUM releases) */
	TSm *sm;               /* the SM holding the slot */
	uint8_t ended;         /* in a cluster: its warps are done, the slot is held until every
	                          CTA of the cluster is (cluster.c) */
	Cta *peer[ClusterCap]; /* in a cluster: the CTAs by rank (Cta.peer points here) */
	TCta *tpeer[ClusterCap]; /* ... and their slots */
};

typedef struct TWarp {
	Warp *w;               /* functional state (in its TCta) */
	TCta *tc;              /* its CTA */
	uint32_t slot;         /* hardware warp slot */
	uint32_t sub;          /* sub-partition: slot % subpartitions */
	uint32_t next_pc;      /* what it issues next: an instruction, PeekBlocked, PeekDone */
	uint64_t ready_at;     /* its own conditions for next_pc hold from this cycle (TNever: blocked) */
	uint8_t why;           /* CpiReason while not ready */
	uint8_t in_sub;        /* resident in its sub-partition's list (at index idx) */
	uint32_t idx;          /* its index in TSub.warps */
	uint8_t yielded;       /* the last instruction set the yield bit */
	uint8_t sbcls[NSb];    /* TClass of the last producer on each counter */
	uint8_t nsb[NSb];      /* pending events per counter */
	uint64_t stall_until;  /* stall count */
	uint64_t ldgsts_done;  /* latest completion of the open LDGSTS group */
	uint64_t gsb_open;     /* latest completion of the open wgmma group (up to its gsb0) */
	uint8_t ngsb;          /* wgmma groups committed and pending (gsb[], pruned as they end) */
	uint64_t gsb[SbCap];   /* their completion cycles */
	uint64_t mem_done;     /* latest completion of its memory instructions (MEMBAR) */
	uint64_t sb_last[NSb]; /* issue cycle of each counter's newest event (its increment lands
	                          sb_inc_delay cycles later) */
	uint64_t sb[NSb][SbCap]; /* completion cycles pending on each counter, oldest first */
	uint32_t rbase;        /* its register window in the SM's file (Warp.rbase) */
	uint32_t ubase;        /* + a P, UR or UP unit: its index in TSm.rready (treg) */
	THazWarp hz;           /* hazard block (control-bits mode) */
	uint32_t last_pc;      /* the instruction it issued last (a blocked warp waits there) */
	uint8_t held;          /* the SM model holds it (SmModel.hold): next_pc is PeekBlocked until
	                          the model releases it, a barrier's release passes it over */
	uint32_t held_pc;      /* while held: the instruction it issues next */
	uint64_t remote_until; /* FIBER model: its last remote read holds it until this cycle */
	uint64_t busy_from;    /* FIBER model: cycle it began to wait (blocked or held) */
	/* trace span being built */
	uint64_t tr_born;      /* cycle its CTA started: the first stall span starts there */
	uint64_t tr_start, tr_last;
	uint32_t tr_pc, tr_count;
	uint8_t tr_open, tr_why;
} TWarp;

typedef struct TSub {
	TWarp **warps;         /* resident, oldest first */
	uint64_t *ready;       /* their ready_at, in the same order (a compact scan) */
	uint8_t *why;          /* their why */
	uint32_t n;
	TWarp *greedy;         /* GTO: the warp that issued last */
	uint32_t rr;           /* LRR: position after the last issue */
	uint64_t pipe_free[NPipe]; /* each pipe accepts again from this cycle */
	uint64_t busy_until;   /* register-bank conflict bubble: no issue before */
	uint64_t wake;         /* nothing can issue before this cycle (0: recompute) */
	uint8_t wake_why;      /* the reason meanwhile */
	uint32_t wake_pc;      /* the instruction charged meanwhile (NoPc: none) */
	uint32_t bubble_pc;    /* the instruction whose bank conflict caused busy_until */
	BankReuse reuse;       /* reuse cache: register per (slot, bank) and its warp (ir/banks.h) */
	uint32_t *itag;        /* L0 instruction cache: line tag per set, UINT32_MAX empty */
	uint64_t *iready;      /* the cycle each set's line arrives (ifetch.c) */
	uint32_t nlines;       /* lines of the L0 instruction cache (0: no cache) */
	int8_t ishift;         /* log2 icache_line and nlines - 1 when both are powers of two (the
	                          usual case: ifetch divides by neither); -1 otherwise */
	uint32_t imask;
	uint32_t sb_line;      /* the stream buffer: the first line it holds */
	uint32_t sb_n;         /* lines it holds, sb_line .. sb_line + sb_n - 1 */
	uint64_t sb_last;      /* arrival of the newest line it requested */
	uint64_t sb_ready[IPrefetchMax]; /* arrival of line l at sb_ready[l % IPrefetchMax] */
	uint64_t cpi[NCpi];
} TSub;

struct TSm {
	TLaunch *L;
	unsigned id;
	Exec x;                /* this SM's execution context */
	SimFault fault;
	MemLog mlog;
	Sm sm;                 /* register file */
	SmMem *mem;
	TSub sub[MaxSub];
	TWarp *tw;             /* hardware warp slots */
	TCta *cta;             /* CTA slots */
	uint32_t nlive;        /* resident warps not done */
	uint32_t nfree;        /* free CTA slots */
	int admit_hold;        /* the model admits no new CTA now (fsm.c: a CTA waits to grow at
	                          SETFIBERNUM or runs grown; docs/fiber-sm.md, "SM ownership") */
	TCta *stuck;           /* tsm_stuck at the end of the last epoch, found on the SM's host
	                          thread */
	uint64_t now;          /* next cycle to simulate */
	uint64_t last_done;    /* cycle after its last warp finished */
	uint64_t *rready;      /* the register scoreboard: the cycle each register is ready, by
	                          absolute register (SmVRegs vector registers and 256 more, so that
	                          any R unit of any window is in bounds, then NWarpUnit units per
	                          warp slot; treg), so that one warp may wait on another's */
	uint8_t *rcls;         /* TClass of each register's producer, the same way */
	SimSmStats st;
	uint64_t thread_instr, hazards, tensor_busy, rf_conflicts, reuse_hits;
	struct {               /* FIBER model's counters (fsm.c; SimTStats.fiber_*) */
		uint64_t remote_reads, xbar_conflicts, rpa_conflicts, busy_waits, busy_wait_cycles;
		uint64_t setfibernum, setfibernum_cycles, rs_smem_reads, xbar_reads;
	} fx;
	void *mx;              /* the SM model's own state (fsm.c: FSm, fsm.h); NULL: none */
	uint32_t nheld;        /* FIBER model: its wefts held (TWarp.held; fiber_fs = 0) */
	SimFiberSample *ftl;   /* FIBER model: the timeline of SM 0 (fibers, registers at each
	                          change) */
	uint32_t nftl, cftl;
	THazSm hz;             /* hazards by (producer, consumer) pair */
	TraceEv *ev;           /* trace events of this SM */
	uint64_t nev, cev, ev_limit, ev_dropped;
	uint64_t *pc_cycles;   /* prog->nins x NCpi: the CPI stack by instruction (SimTStats) */
};

struct TLaunch {
	LaunchCx lc;           /* checked launch, constant bank 0, Exec template */
	const SimConfig *cfg;
	const SimTiming *t;
	const Prog *prog;
	const SmModel *model;  /* the kind of SM (smmodel.h) */
	SimStepFn step;        /* sim_step for the launch's mode (sim_stepper) */
	TIns *ti;              /* one per instruction (and the guard past the end) */
	int ctrl;              /* SIMT model: CtrlBits or CtrlScoreboard */
	int ctrl_mixed;        /* SIMT model: CtrlBits, but some instructions have no control bits */
	int hazard_check;      /* SIMT model: count hazards (control-bits mode) */
	uint32_t ctas_per_sm;
	uint32_t nsub;
	TSm **sms;
	uint32_t nsm;          /* SMs simulated */
	MemSys *mem;
	int trace;
	int pc_stats;          /* count the CPI stack by instruction (TSm.pc_cycles) */
	uint32_t ngpc;         /* clusters of more than one CTA: the GPCs (cluster.c); 0 otherwise */
	uint32_t gpc_next;     /* the GPC the next cluster is looked for in first */
};

/* the index in TSm.rready of register unit u (R, P, UR, UP; tins_build) of warp tw: an R unit is
 * the absolute register of its window, the others are the warp's own */
static inline uint32_t
treg(const TWarp *tw, unsigned u)
{
	return u < UnitOfP ? tw->rbase + u : tw->ubase + u;
}

/* tw's readiness (its own conditions hold from cycle t, why: the CPI reason until then),
 * mirrored in its sub-partition's compact arrays */
static inline void
tsm_set_ready(TSm *s, TWarp *tw, uint64_t t, unsigned why)
{
	tw->ready_at = t;
	tw->why = (uint8_t)why;
	if (tw->in_sub) {
		TSub *u = &s->sub[tw->sub];
		u->ready[tw->idx] = t;
		u->why[tw->idx] = (uint8_t)why;
	}
}

/* sm.c */
void tins_build(TLaunch *L);                     /* L->ti from the program */
TSm *tsm_new(TLaunch *L, unsigned id);
void tsm_free(TSm *s);
TCta *tsm_start_cta(TSm *s, uint64_t linear, uint64_t start); /* into a free CTA slot (NULL:
                                                    none is free) */
void tsm_cta_free(TSm *s, TCta *tc, uint64_t now); /* tc's slot is free from now + 1 */
/* CTA barrier of tc released warps at now: those that can run go on after lat cycles */
void tsm_barrier_released(TSm *s, TCta *tc, uint64_t now, uint32_t lat);
void tsm_run(TSm *s, uint64_t end);              /* simulate cycles [s->now, end) */
TCta *tsm_stuck(TSm *s);                         /* a CTA whose warps are all blocked forever */
uint64_t tsm_next_event(const TSm *s);           /* the earliest cycle a warp may issue (TNever:
                                                    none can without another warp's help) */
/* the SM core's steps that a model's events take (fsm.c): slot tw of CTA tc takes functional
 * warp w, stalled until stall_until, and joins its sub-partition, ready from now on (a stall
 * charged to why); 0 if w cannot run (blocked or done) */
int tsm_warp_begin(TSm *s, TCta *tc, TWarp *tw, Warp *w, uint64_t stall_until, uint64_t now,
                   unsigned why);
/* tw's wait ended at now: it may issue from until (or its stall count's end), its readiness
 * recomputed, a stall charged to why */
void tsm_warp_wake(TSm *s, TWarp *tw, uint64_t now, uint64_t until, unsigned why);
void tsm_warp_done(TSm *s, TWarp *tw, uint64_t now); /* tw has exited (PeekDone) at now */
uint64_t tsm_gsb_when(TWarp *tw, unsigned le, uint64_t now); /* the cycle from which at most le
                                                    of tw's wgmma groups are pending */

/* launch.c: SM i, made at cycle now with trace budget ev_limit when it first gets a CTA */
TSm *tlaunch_sm(TLaunch *L, uint32_t i, uint64_t now, uint64_t ev_limit);

/* cluster.c: thread-block clusters of more than one CTA (docs/sim-cluster.md). tcl_setup
 * counts the GPCs and checks that a cluster fits one (0, or -1 with the fault filled);
 * tcl_dispatch starts whole clusters on the SMs of one GPC while they fit; tcl_run_gpc
 * simulates the SMs of GPC g to end in cycle order; tcl_remote is when the remote shared
 * memory accesses of s's last instruction (its MemLog) complete (0: none); tcl_barrier
 * releases the cluster barrier's waiters on every SM of tc's cluster; tcl_cta_done holds an
 * ended CTA's slot until its whole cluster has ended; tcl_stuck: every CTA of tc's cluster is
 * blocked or ended. */
int tcl_setup(TLaunch *L, SimFault *f);
void tcl_dispatch(TLaunch *L, uint64_t *next, uint64_t nrun, uint64_t at, uint64_t ev_limit);
void tcl_run_gpc(TLaunch *L, uint32_t g, uint64_t end);
uint64_t tcl_remote(const TSm *s, const TCta *tc, uint64_t start);
void tcl_barrier(TCta *tc, uint64_t now);
void tcl_cta_done(TCta *tc, uint64_t now);
int tcl_stuck(const TCta *tc);

/* ifetch.c: the L0 instruction cache of a sub-partition and its stream buffer */
void ifetch_init(TSub *u, const SimTiming *t);
void ifetch_free(TSub *u);
/* the cycle the instruction at byte address addr can issue, fetched from cycle now (now on a
 * hit; u->nlines must be > 0) */
uint64_t ifetch(TSub *u, const SimTiming *t, uint32_t addr, uint64_t now);

/* hazard.c */
void thaz_warp_new(THazWarp *h);
void thaz_warp_free(THazWarp *h);
void thaz_warp_reset(THazWarp *h);                 /* a new warp in the slot */
/* the instruction at pc issues at cycle now: count a hazard if it reads a register
 * (R, P, UR, UP) before its producer's latency (one per instruction), and a pair for each such
 * producer */
void thaz_read(TSm *s, TWarp *tw, uint32_t pc, uint64_t now);
/* then: it writes its destinations and advances the stall-count clock by stall (0 as 1) */
void thaz_write(TWarp *tw, const TIns *ti, uint32_t pc, uint64_t now, unsigned stall);
void thaz_sm_free(THazSm *h);
/* the launch's hazard rows by opcode, from every SM's pairs (st->hazard_rows) */
void thaz_collect(const TLaunch *L, SimTStats *st);

#endif /* FIBER_TCORE_H */
