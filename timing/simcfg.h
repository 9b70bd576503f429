/* simcfg.h: a device's whole configuration, SimConfig: the device keys the functional simulator
 * needs (SIM_GPU_CONFIG_FIELDS, sim.h) and the timing model's, SimTiming: every number the
 * cycle-level simulator uses, one field per configuration key (docs/sim-config.md lists the keys,
 * configs/NAME.cfg give the values for a100, h100 and b200 with their sources). timing/config.c
 * holds the key table (name, field, range), the parser of configuration text, the validator and
 * simcfg_gpu, the functional simulator's view (GpuConfig); nothing else parses keys.
 *
 * Units: cycles are SM clock cycles; bandwidths are bytes per SM clock; sizes are bytes.
 */
#ifndef FIBER_SIMCFG_H
#define FIBER_SIMCFG_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum SchedPolicy {
	SchedGTO,              /* greedy then oldest: keep issuing from the last warp while it can */
	SchedLRR,              /* loose round-robin: the next ready warp after the last issued */
};

enum SmModelKind {
	SmModelSimt,           /* the SIMT SM (timing/simt.c) */
	SmModelFiber,          /* the FIBER SM (timing/fsm.c) */
	NSmModel
};

enum CtrlMode {
	CtrlAuto,              /* control bits when the listing has encodings, else scoreboard */
	CtrlBits,              /* the compiler's stall counts, yield, SB0-SB5 and wait masks */
	CtrlScoreboard,        /* a register scoreboard with the latencies below */
};

typedef struct SimTiming {
	uint32_t clock_mhz;            /* clock: SM cycles to seconds (bandwidth, SR_GLOBALTIMER) */

	/* SM resources and occupancy */
	uint32_t subpartitions;        /* processing blocks (warp schedulers) per SM: 4 */
	uint32_t max_warps_per_sm;     /* 64 */
	uint32_t max_threads_per_sm;   /* 2048 */
	uint32_t max_ctas_per_sm;      /* 32 */
	uint32_t reg_alloc_unit;       /* registers per warp are allocated in units of this: 256 */
	uint32_t smem_per_sm;          /* shared memory carve-out available to CTAs, bytes */
	uint32_t smem_alloc_unit;      /* shared memory allocation granularity per CTA, bytes */
	uint32_t smem_reserved_per_cta; /* bytes the driver reserves per CTA (1024 on sm_8x/9x) */
	uint32_t cta_launch_latency;   /* cycles from a free slot to the new CTA's first issue */

	/* front end */
	uint32_t sm_model;             /* SmModelKind: the kind of SM (timing/smmodel.h) */
	uint32_t sched_policy;         /* SchedPolicy */
	uint32_t ctrl_mode;            /* CtrlMode */
	uint32_t icache_bytes;         /* L0 instruction cache per sub-partition */
	uint32_t icache_line;          /* bytes per line */
	uint32_t icache_miss_latency;  /* cycles to refill a line */
	uint32_t icache_prefetch;      /* lines the stream buffer fetches ahead of a miss (0: none) */
	uint32_t sb_inc_delay;         /* cycles after issue at which an SB increment lands: 1 */
	uint32_t yield_bubble;         /* cycles the yield bit keeps the warp off the next cycle: 1 */

	/* register file */
	uint32_t rf_banks;             /* banks per sub-partition: 2 */
	uint32_t rf_reuse;             /* 1: operand reuse cache honoured */
	uint32_t rf_bank_bubble;       /* issue bubble per extra source in one bank: 1 */

	/* pipes: lanes per cycle per sub-partition; a warp instruction occupies the pipe for
	 * 32 / lanes cycles (the initiation interval) */
	uint32_t int_lanes;            /* INT32: IADD3, LOP3, SHF, ISETP, ... */
	uint32_t fp32_lanes;           /* FP32 FFMA/FADD/FMUL and IMAD */
	uint32_t fp16_lanes;           /* HFMA2/HADD2 (one lane = one half2) */
	uint32_t fp64_lanes;           /* DFMA, DADD, DMUL */
	uint32_t mufu_lanes;           /* MUFU */
	uint32_t conv_lanes;           /* I2F, F2I, F2F */
	uint32_t uniform_ii;           /* cycles between uniform-datapath instructions */
	uint32_t branch_ii;            /* cycles between branch-unit instructions */
	uint32_t tensor_flops_f16;     /* dense FP16/BF16 tensor FLOP per cycle per SM */
	uint32_t tensor_ops_i8;        /* dense INT8 tensor OP per cycle per SM */
	uint32_t tensor_flops_tf32;    /* dense TF32 (HMMA.*.TF32) FLOP per cycle per SM */
	uint32_t tensor_ops_i4;        /* dense INT4 (IMMA.*.S4/U4) OP per cycle per SM */
	uint32_t tensor_ops_b1;        /* binary (BMMA) OP per cycle per SM */
	uint32_t tensor_flops_f64;     /* DMMA FLOP per cycle per SM */
	uint32_t tensor_flops_f8;      /* FP8 (QMMA) FLOP per cycle per SM; 0: twice tensor_flops_f16 */
	uint32_t mio_ii;               /* cycles between MIO (memory, SHFL, LDSM) instructions per SM */
	uint32_t mio_queue;            /* memory instructions buffered per sub-partition: 5 */

	/* fixed latencies, issue to dependent issue (scoreboard mode, hazard checks) */
	uint32_t lat_int;              /* INT32 ALU */
	uint32_t lat_fp32;             /* FFMA, FADD, FMUL */
	uint32_t lat_imad;             /* IMAD family */
	uint32_t lat_fp16;             /* HFMA2, HADD2 */
	uint32_t lat_fp64;             /* DFMA */
	uint32_t lat_uniform;          /* uniform datapath */
	uint32_t lat_umov;             /* ULDC, UMOV, VOTEU: uniform moves */
	uint32_t lat_pred;             /* predicate written by ISETP and the like, to its use */
	/* tensor-core latencies by operand volume, m x n x k x (bits of A) relative to HMMA.16816's
	 * 16 x 8 x 16 x 16 (nvcc's schedules, docs/calibration.md) */
	uint32_t lat_hmma;             /* HMMA, QMMA of the full volume: HMMA.16816, HMMA.1688.TF32 */
	uint32_t lat_hmma_small;       /* any MMA of half the volume: HMMA.1688, IMMA.16816, ... */
	uint32_t lat_imma;             /* IMMA, BMMA of the full volume: IMMA.16832 (8-bit), ... */
	uint32_t lat_mma_quarter;      /* any MMA of a quarter: IMMA.8816, IMMA.8832, BMMA.88128 */
	uint32_t lat_dmma;             /* DMMA.884 */
	/* variable latencies, issue to writeback */
	uint32_t lat_mufu;             /* MUFU */
	uint32_t lat_conv;             /* I2F, F2I, F2F */
	uint32_t lat_s2r;              /* S2R */
	uint32_t lat_shfl;             /* SHFL */
	uint32_t lat_vote;             /* MATCH, REDUX (VOTE: lat_int) */
	uint32_t lat_branch;           /* BRA, BSSY, BSYNC, ...: to the target's issue */
	uint32_t lat_bar;              /* BAR.SYNC: last arrival to the release of the waiters */
	uint32_t lat_src_read;         /* memory instruction issue to its sources read (WAR, rsb) */

	/* memory */
	uint32_t lat_lds;              /* LDS 32-bit, shared load to use */
	uint32_t lat_l1;               /* LDG L1 hit (pointer chase) */
	uint32_t lat_l2;               /* LDG L2 hit */
	uint32_t lat_dram;             /* LDG DRAM (L2 miss) */
	uint32_t lat_const;            /* LDC constant cache hit */
	uint32_t lat_const_miss;       /* LDC constant cache miss */
	uint32_t lat_atomic;           /* global atomic at L2, issue to result */
	uint32_t lat_ldgsts;           /* LDGSTS L2 hit to shared memory written (add L2/DRAM misses) */
	uint32_t lat_tma;              /* TMA or bulk copy: the engine's start to the bytes landed */
	uint32_t lat_dsmem;            /* a load from another CTA of the cluster (SM-to-SM network) */
	uint32_t lat_cluster_bar;      /* barrier.cluster: last arrival to the waiters' release */
	uint32_t gpcs;                 /* GPCs: a thread-block cluster runs on the SMs of one */
	uint32_t smem_banks;           /* 32 */
	uint32_t smem_bank_bytes;      /* 4 */
	uint32_t l1_line;              /* 128 */
	uint32_t l1_sector;            /* 32 */
	uint32_t l1_assoc;             /* ways */
	uint32_t l1_bytes_per_clk;     /* L1 data return bandwidth per SM */
	uint32_t l1_total;             /* unified L1 + shared memory per SM; L1 = total - smem_per_sm */
	uint32_t l1_mshr;              /* outstanding L1 sector misses per SM */
	uint32_t const_cache_bytes;    /* constant cache per SM */
	uint64_t l2_size;              /* bytes */
	uint32_t l2_assoc;             /* ways */
	uint32_t l2_line;              /* 128 */
	uint32_t l2_slices;            /* slices (address-interleaved) */
	uint32_t l2_bytes_per_clk;     /* whole-chip L2 bandwidth */
	uint32_t l2_sm_bytes_per_clk;  /* one SM's link to L2 */
	uint32_t dram_bytes_per_clk;   /* whole-chip DRAM bandwidth */

	/* the FIBER SM (sm_model = fiber; all 0 on a SIMT configuration, docs/sim-config.md) */
	uint32_t fiber_contexts;       /* weft contexts per sub-partition: 64 */
	uint32_t fiber_slice_regs;     /* vector registers per sub-partition slice: 512 */
	uint32_t fiber_banks;          /* register banks per slice */
	uint32_t fiber_read_ports;     /* read ports per bank per cycle */
	uint32_t fiber_xbar_latency;   /* cycles a read of another slice adds (selector + crossbar) */
	uint32_t fiber_xbar_width;     /* vector registers per cycle per slice port of the crossbar */
	uint32_t fiber_setfibernum_cycles; /* SETFIBERNUM's re-partitioning after the last arrival */
	uint32_t fiber_write_ports;    /* write ports per bank: SETFIBERNUM zeroes new windows through
	                                  them */
	uint32_t fiber_ctx_start_cycles; /* SETFIBERNUM: cycles to start one new weft's context, per
	                                  sub-partition in turn */
	uint32_t fiber_busy_wake;      /* cycles from a write completing to a waiting weft waking */
	uint32_t fiber_dp;             /* 0: ablation, SETFIBERNUM keeps the launch's fiber count */
	uint32_t fiber_fs;             /* 0: ablation, busy-bit waits behave as CTA barriers */
	uint32_t fiber_rs;             /* 0: ablation, remote reads go through shared memory */

	/* simulation */
	uint32_t epoch;                /* cycles per epoch: SMs synchronise (L2, DRAM, CTA dispatch)
	                                  at epoch ends; at most the smallest L2 round trip */
	uint64_t max_cycles;           /* watchdog in cycles per launch (0: none) */
} SimTiming;

/* a device's configuration: every key */
typedef struct SimConfig {
	SIM_GPU_CONFIG_FIELDS          /* name, arch, SMs, limits, watchdog (sim.h) */
	SimTiming t;                   /* the timing model (configs/NAME.cfg) */
} SimConfig;

/* config.c: the key table, the parser of configuration text, the validator and the printer.
 * Errors are one line, `file:line:col: error: message` (col of the offending token), written to
 * err (errsize bytes); the functions then return -1 and leave the configuration unchanged.
 * A name key's value is kept in thread-local storage that the next name key parsed on the same
 * thread overwrites: callers that keep a configuration copy the name (the runtime does). */

typedef struct SimCfgKey {
	const char *name;              /* as written in a file: "lat_l2" */
	const char *unit;              /* "cycles", "bytes", "lanes", ...; "" for names and choices */
	const char *doc;               /* one line */
	uint64_t lo, hi;               /* range of an integer key; lo > hi: a name or a choice */
	size_t off, size;              /* the field in SimConfig; size 0: not stored (base, nvdisasm) */
} SimCfgKey;

const SimCfgKey *simcfg_key(size_t i);   /* the i-th key in table order, NULL past the last */
/* a built-in configuration, "a100", "h100" or "b200" (configs/NAME.cfg): 0, or -1 if unknown */
int simcfg_builtin(SimConfig *c, const char *name);
/* a configuration file: its base key (or arch: sm_90 starts from h100; else a100), then its keys */
int simcfg_parse(SimConfig *c, const char *path, const char *text, size_t n, char *err,
                 size_t errsize);
/* one "key=value" (fibersim --set) applied to c, then the whole configuration re-validated */
int simcfg_set(SimConfig *c, const char *key_value, char *err, size_t errsize);
int simcfg_check(const SimConfig *c, char *err, size_t errsize); /* cross-key rules */
void simcfg_print(const SimConfig *c, FILE *f);   /* as configuration text, every key */
/* the value of key in configuration text (for keys the simulator does not store: nvdisasm);
 * returns its line, 0 if absent; the value is cut to valsize - 1 bytes */
uint32_t simcfg_find(const char *text, size_t n, const char *key, char *val, size_t valsize);
/* the value in t of the configuration key an opcode row's latency takes (OpLatKey, ir/ops.h);
 * 0 for LkNone and LkMem, which take none */
uint32_t simcfg_lat(const SimTiming *t, int key);
void simconfig_default(SimConfig *c, int sm);      /* the built-in configuration of the device
                                                     that runs sm's code (ir/arch.h): a100 for
                                                     80, h100 for 90 */
/* what the functional simulator is given (gpu_new, gpu_set_config): c's device keys, its clock,
 * and its SM model's occupancy with the figures it reads */
GpuConfig simcfg_gpu(const SimConfig *c);

#endif /* FIBER_SIMCFG_H */
