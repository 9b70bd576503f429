/* launch.h: what the functional driver (launch.c) and the timing driver (timing/launch.c) share:
 * the loaded module's layout (private to sim/), the launch checks and constant bank 0 (its words
 * are the architecture's, ir/arch.h), the start of a CTA on an SM, the deadlock report. Not part
 * of sim.h's public face.
 */
#ifndef FIBER_LAUNCH_H
#define FIBER_LAUNCH_H

#include "sim.h"

enum {
	Quantum = 1024,        /* instructions a warp runs before the next warp's turn */
	Bank0Min = 0x400,      /* bytes of constant bank 0 at least */
	GridWsBytes = 16,      /* the grid-sync workspace of a cooperative launch */
};

typedef struct Sym {
	uint32_t name;         /* atom */
	uint64_t addr;         /* device address */
} Sym;

typedef struct KEnt {
	Prog *prog;            /* decoded kernel */
	uint8_t *cb[NumCBanks];    /* its banks: per-kernel .nv.constantN.<fn>, else the module's */
	uint32_t cbsize[NumCBanks];
	uint32_t bank0;        /* bytes of .nv.constant0.<fn> */
} KEnt;

struct SimModule {
	Gpu *gpu;              /* device it is loaded on */
	Module *m;             /* the listing */
	KEnt *k;               /* kernels */
	uint32_t nk;
	uint8_t *cb[NumCBanks];    /* module-wide banks (.nv.constantN) */
	uint32_t cbsize[NumCBanks];
	uint8_t **owned;       /* per-kernel bank buffers to free */
	uint32_t nowned, cowned;
	Sym *sym;              /* module-scope variables */
	uint32_t nsym, csym;
	uint64_t *galloc;      /* global allocations of the module */
	uint32_t ngalloc, cgalloc;
};

/* a launch being run: checked, constant bank 0 laid out, the Exec template */
struct LaunchCx {
	Exec x;                /* gpu, prog, fault, banks, ntid/nctaid, watchdog filled */
	uint8_t *bank0;        /* owned */
	uint64_t nthreads;     /* per CTA */
	uint32_t nwarp;        /* warps per CTA */
	uint32_t nweft;        /* FIBER: weft contexts per CTA, ceil(max(.maxfibers, threads)/32)
	                          (Cta.warp, lmem sized for these); SIMT: nwarp */
	int fiber;             /* GpuConfig.fiber: FIBER windows and busy bits */
	int fiber_solo;        /* FIBER: the kernel has a pool or a SETFIBERNUM whose immediate count
	                          exceeds the launch's threads: one CTA per SM */
	int fiber_grow;        /* FIBER: the kernel has SETFIBERNUM: admitted as any kernel, a grow
	                          the SM cannot hold waits (docs/fiber-sm.md, "SM ownership") */
	uint32_t nreg_alloc;   /* registers per thread as allocated (multiple of 8): what occupancy
	                          and the launch check count (REGCOUNT for a setmaxnreg kernel) */
	uint32_t nreg_win;     /* registers per thread of each warp's storage in Sm.rf (multiple
	                          of 8): nreg_alloc, or a setmaxnreg kernel's highest register */
	uint32_t smem_user;    /* shared memory bytes per CTA the kernel asks for: static + dynamic,
	                          without the reserve (which sm_90's .nv.shared.<k> counts) */
	uint32_t smem_size;    /* the CTA's shared window: smem_user and the reserved 1 KiB */
	uint32_t smem_rsv;     /* offset of the reserved region in it (ArchRsv) */
	uint32_t nctas;        /* CTAs in the grid (fits: x < 2^31, y, z < 2^16, checked) */
	uint32_t ctas_per_sm;  /* resident CTAs per SM (the occupancy launch_begin was given) */
	const char *occ_limit; /* what limits them: "ctas", "warps", "threads", "registers", "shared" */
	int cooperative;       /* every CTA resident; grid_ws is the grid-sync workspace */
	LaunchParams lp;       /* the launch's shape (its params pointer not kept past the begin) */
	uint32_t nrank;        /* CTAs per cluster: 1 without an explicit cluster, and then no
	                          Cta.peer (cluster.c) */
	uint64_t grid_ws;
};

/* 0, or -1 with the fault filled; occ gives ctas_per_sm and occ_limit (NULL: one CTA, "ctas") */
int launch_begin(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimFault *f,
                 LaunchCx *lc, SimOccupancyFn occ);
void launch_end(LaunchCx *lc);
/* start CTA number linear (blockIdx in x-major order) in c, whose warp, smem and lmem buffers
 * are sized for the launch; its warps' registers are the window at rbase of x->sm's register
 * file, nreg_alloc each (zeroed) */
void cta_start(LaunchCx *lc, Exec *x, Cta *c, uint64_t linear, uint32_t rbase);
/* In FIBER mode (lc->fiber) cta_start ignores rbase: each weft's window is placed with
 * weft_place (weft.h) in x->sm, the pools reserved when x->sm has no CTA yet (call weft_reset
 * and weft_pools first: fiber_sm_begin), wefts nwarp..nweft-1 dormant. A window that does not
 * fit fills x->fault (FaultFiber). cta_end frees the CTA's windows (FIBER; no-op in SIMT). */
int fiber_sm_begin(LaunchCx *lc, Exec *x);   /* weft_reset + pools of the kernel: 0 or -1 (fault) */
void cta_end(LaunchCx *lc, Exec *x, Cta *c);
void sim_deadlock(Exec *x, Cta *c);

/* sm_90 clusters (cluster.c). cluster_check: 0, or -1 with a FaultLimit saying which of CUDA's
 * rules the shape breaks (fiber: the FIBER configuration, which runs one CTA per cluster only);
 * cluster_bank0 writes the cluster words of constant bank 0 (one CTA per cluster without an
 * explicit one); cluster_member is the linear number (blockIdx, x-major) of the CTA of the given
 * rank in cluster number cluster (clusters x-major over the grid, ranks x-major in a cluster). */
int cluster_explicit(const LaunchParams *lp);
uint32_t cluster_size(const LaunchParams *lp);
int cluster_check(const Arch *a, const Prog *k, const LaunchParams *lp, int fiber, SimFault *f);
void cluster_bank0(uint8_t *bank0, const Arch *a, const LaunchParams *lp);
uint64_t cluster_member(const LaunchParams *lp, uint64_t cluster, uint32_t rank);       /* FaultDeadlock naming what each warp waits on */

/* The functional driver's resident set: the CTAs an SM holds at once (slots), run one at a time,
 * oldest first, each until it ends or waits at an SM-wide barrier; a slot whose CTA ended takes
 * the grid's next CTA. When every resident CTA waits at the barrier, all are released. Without
 * SM-wide barriers the CTAs so run one after another in grid order. The callbacks: start CTA
 * linear in slot; run the CTA of slot, giving ResDone, ResSmWait or ResFault; release the CTA of
 * slot from the barrier. */
enum { ResDone, ResSmWait, ResFault };
typedef struct ResidentOps {
	void (*start)(void *arg, uint32_t slot, uint64_t linear);
	int (*run)(void *arg, uint32_t slot);
	void (*release)(void *arg, uint32_t slot);
} ResidentOps;
/* the nctas CTAs of a grid through nslot slots (1 <= nslot): 0, or -1 after a ResFault */
int resident_run(uint32_t nslot, uint64_t nctas, const ResidentOps *ops, void *arg);

#endif /* FIBER_LAUNCH_H */
