/* ptxsel.h: the instruction-selection families, in lookup order (an X-macro list included by
 * ptxsel.c): one file backend/isel/ptxsel_<name>.c each, exporting `const SelRow ptxsel_<name>[]`
 * (ptxlow.h). */
FAMILY(ctrl)     /* bra, ret, exit, call and the device-function ABI */
FAMILY(move)     /* mov (registers, special registers, symbols), ld.param of kernels */
FAMILY(int)      /* integer arithmetic, logic, shifts, bit fields, setp/selp/slct, integer cvt */
FAMILY(float)    /* f32/f64 arithmetic, IEEE div/sqrt/rcp, approximations, float cvt, testp */
FAMILY(half)     /* f16/f16x2/bf16/bf16x2 arithmetic and conversions */
FAMILY(mem)      /* ld, st, ldu, cvta, atom, red, cp.async, mbarrier, fence, membar, prefetch */
FAMILY(warp)     /* bar/barrier, shfl, vote, match, redux, activemask, elect, nanosleep, trap */
FAMILY(tensor)   /* mma.sync, ldmatrix, stmatrix, movmatrix */
FAMILY(fiber)    /* FIBER: setfibernum, slots, pools (docs/fiber-cuda.md) */
FAMILY(wgmma)    /* wgmma.fence, commit_group, wait_group, mma_async (sm_90a) */
