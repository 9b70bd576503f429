/* passlist.h: the passes that fiberc offers, by name (--passes, --print-after, --list-passes). */
#ifndef FIBER_PASSLIST_H
#define FIBER_PASSLIST_H

#include "ir.h"

/* the default pipelines of fiberc --mode (docs/fiberc.md); each FIBER pass's file in passes/
 * says what it requires */
#define CUDA_NATIVE_PASSES "cfg,ssa,verify,liveness,phases,remote-writes,fiber-regs,out-of-ssa,mma-banks,ctrl-bits,fverify"
#define FIBER_NATIVE_PASSES "cfg,regalloc-window,ssa,verify,liveness,remote-writes,out-of-ssa,mma-banks,ctrl-bits,fverify"

/* a .ptx input (issue 11, docs/ptx-codegen.md): the lowered text is scheduled, allocated and
 * given control bits; with --mode=cuda-native the FIBER passes follow the allocation */
#define PTX_PASSES "cfg,sched,regalloc,ctrl-bits"
/* with --mode=fiber-native: allocated into a weft's window (backend/rawin.c), then the
 * fiber-native list from ssa on */
#define PTX_FIBER_NATIVE_PASSES "cfg,sched,regalloc-window,ssa,verify,liveness,remote-writes,out-of-ssa,mma-banks,ctrl-bits,fverify"
#define PTX_CUDA_NATIVE_PASSES "cfg,sched,regalloc,ssa,verify,liveness,phases,remote-writes,fiber-regs,out-of-ssa,mma-banks,ctrl-bits,fverify"

/* passlist.c */
const Pass *pass_find(const char *name);
void pass_list(FILE *out);
void pass_opts_init(PassOpts *o); /* zeroed, dump on stderr, SSA built by passes/ssa.c */

#endif
