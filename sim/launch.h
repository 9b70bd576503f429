/* launch.h: what the functional driver (launch.c) and the timing driver (tlaunch.c) share:
 * the loaded module's layout (private to sim/), the launch checks and constant bank 0, the start
 * of a CTA on an SM, the deadlock report. Not part of sim.h's public face.
 */
#ifndef FIBER_LAUNCH_H
#define FIBER_LAUNCH_H

#include "sim.h"

enum {
	Quantum = 1024,        /* instructions a warp runs before the next warp's turn */
	Bank0Min = 0x400,      /* bytes of constant bank 0 at least */
};

/* driver words of constant bank 0 */
enum {
	C0Ntid = 0x0,          /* blockDim.x, .y, .z */
	C0Nctaid = 0xc,        /* gridDim.x, .y, .z */
	C0SharedWin = 0x18,    /* 64-bit: generic address of shared offset 0 */
	C0LocalWin = 0x20,     /* 64-bit: generic address of local offset 0 */
	C0StackTop = 0x28,     /* local bytes per thread: the initial stack pointer R1 */
	C0DescSm80 = 0x118,    /* 64-bit global memory descriptor (ULDC.64 UR4, c[0x0][0x118]) */
	C0DescSm90 = 0x208,
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
typedef struct LaunchCx {
	Exec x;                /* gpu, prog, fault, banks, ntid/nctaid, watchdog filled */
	uint8_t *bank0;        /* owned */
	uint64_t nthreads;     /* per CTA */
	uint32_t nwarp;        /* warps per CTA */
	uint32_t nreg_alloc;   /* registers per thread as allocated (multiple of 8) */
	uint32_t smem_size;    /* shared memory bytes per CTA: static + dynamic */
	uint32_t nctas;        /* CTAs in the grid (fits: x < 2^31, y, z < 2^16, checked) */
} LaunchCx;

int launch_begin(Gpu *g, SimModule *sm, const Prog *k, const LaunchParams *lp, SimFault *f,
                 LaunchCx *lc);          /* 0, or -1 with the fault filled */
void launch_end(LaunchCx *lc);
/* start CTA number linear (blockIdx in x-major order) in c, whose warp, smem and lmem buffers
 * are sized for the launch; its warps' registers are the window at rbase of x->sm's register
 * file, nreg_alloc each (zeroed) */
void cta_start(LaunchCx *lc, Exec *x, Cta *c, uint64_t linear, uint32_t rbase);
void sim_deadlock(Exec *x, Cta *c);       /* FaultDeadlock naming what each warp waits on */

#endif /* FIBER_LAUNCH_H */
