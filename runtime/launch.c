/* launch.c: kernel launches. Checks the launch against CUDA's limits, the device configuration
 * and the kernel's metadata (launch bounds, REQNTID, shared memory, parameter layout), builds the
 * parameter block, runs the simulator to completion (the timing driver, or the functional one in
 * functional mode; a cooperative launch keeps the whole grid resident, sim/launch.c), accumulates its statistics and keeps a record of the launch (stats.c).
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	MaxGridX = 0x7fffffff,     /* CUDA's gridDim limits */
	MaxGridYZ = 65535,
	MaxBlockXY = 1024,         /* CUDA's blockDim limits */
	MaxBlockZ = 64,
	MaxParamBytes = 32764,     /* CUDA 12.1's largest parameter block */
};

_Static_assert((int)FIBER_FAULT_OUT_OF_BOUNDS == (int)FaultOOB
               && (int)FIBER_FAULT_MISALIGNED == (int)FaultMisaligned
               && (int)FIBER_FAULT_ILLEGAL_INSTRUCTION == (int)FaultIllegalInstr
               && (int)FIBER_FAULT_WATCHDOG == (int)FaultWatchdog
               && (int)FIBER_FAULT_DEADLOCK == (int)FaultDeadlock
               && (int)FIBER_FAULT_TRAP == (int)FaultTrap
               && (int)FIBER_FAULT_BAD_ARGS == (int)FaultBadArgs
               && (int)FIBER_FAULT_LIMIT == (int)FaultLimit
               && (int)FIBER_FAULT_INTERNAL == (int)FaultInternal
               && (int)FIBER_FAULT_INTERRUPTED == (int)FaultInterrupted
               && (int)FIBER_FAULT_ASSERT == (int)FaultAssert
               && (int)FIBER_FAULT_MBARRIER == (int)FaultMbarrier
               && (int)FIBER_FAULT_TENSOR_MAP == (int)FaultTensorMap
               && (int)FIBER_FAULT_REG_WINDOW == (int)FaultRegWindow,
               "fiberFaultKind must follow SimFaultKind");

static fiberStatus
check_dims(fiberFunction fn, const unsigned grid[3], const unsigned block[3], unsigned dyn)
{
	fiberDevice d = fn->mod->dev;
	const KInfo *ki = &fn->f->info;
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2], smem;
	static const char xyz[] = "xyz";

	for (int k = 0; k < 3; k++) {
		unsigned gmax = k == 0 ? MaxGridX : MaxGridYZ, bmax = k == 2 ? MaxBlockZ : MaxBlockXY;
		if (grid[k] == 0 || grid[k] > gmax)
			return rt_err(d, FIBER_ERROR_INVALID_VALUE, "grid.%c = %u is out of range (1 to %u)",
			              xyz[k], grid[k], gmax);
		if (block[k] == 0 || block[k] > bmax)
			return rt_err(d, FIBER_ERROR_INVALID_VALUE, "block.%c = %u is out of range (1 to %u)",
			              xyz[k], block[k], bmax);
	}
	if (threads > d->cfg.max_threads_per_block)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE,
		              "a block of %llu threads exceeds the limit of device '%s' (%u threads)",
		              (unsigned long long)threads, d->name, d->cfg.max_threads_per_block);
	if (ki->max_threads[0] > 0) {
		uint64_t mt = (uint64_t)ki->max_threads[0] * (ki->max_threads[1] > 0 ? ki->max_threads[1] : 1)
		              * (ki->max_threads[2] > 0 ? ki->max_threads[2] : 1);
		if (threads > mt)
			return rt_err(d, FIBER_ERROR_INVALID_VALUE, "a block of %llu threads exceeds the launch "
			              "bound of kernel '%s' (%llu threads)", (unsigned long long)threads, fn->name,
			              (unsigned long long)mt);
	}
	if (ki->reqntid[0] > 0)
		for (int k = 0; k < 3; k++)
			if ((int)block[k] != (ki->reqntid[k] > 0 ? ki->reqntid[k] : 1))
				return rt_err(d, FIBER_ERROR_INVALID_VALUE, "kernel '%s' requires a block of "
				              "%d,%d,%d threads (REQNTID)", fn->name, ki->reqntid[0],
				              ki->reqntid[1] > 0 ? ki->reqntid[1] : 1,
				              ki->reqntid[2] > 0 ? ki->reqntid[2] : 1);
	smem = (uint64_t)dyn + (ki->shared_size > 0 ? (uint64_t)ki->shared_size : 0);
	if (smem > d->cfg.max_smem_per_block)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "%llu bytes of shared memory (%d static + %u "
		              "dynamic) exceed the limit of device '%s' (%u bytes per block)",
		              (unsigned long long)smem, ki->shared_size > 0 ? ki->shared_size : 0, dyn, d->name,
		              d->cfg.max_smem_per_block);
	return FIBER_SUCCESS;
}

/* the launch of k (fn's program, or its checked variant) in timing mode: the device's threads,
 * sampling and trace */
static int
run_timed(fiberDevice d, fiberFunction fn, const Prog *k, const LaunchParams *lp, RtLaunch *l)
{
	TimingOpts o;
	TraceBuf tb;
	int rc;

	memset(&o, 0, sizeof o);
	memset(&tb, 0, sizeof tb);
	o.threads = d->threads;
	o.sample_sms = d->sample_sms < (uint32_t)d->cfg.nsm ? d->sample_sms : 0;
	o.sample_ctas = d->sample_ctas;
	o.pc_stats = 1;                  /* the statistics' "instructions" */
	if (d->trace.path && d->trace.n < d->trace.limit) {
		tb.limit = d->trace.limit - d->trace.n;
		o.trace = &tb;
	} else if (d->trace.path) {
		d->trace.untraced++;
	}
	rc = sim_launch_timed(d->gpu, &d->cfg, fn->mod->sm, k, lp, &o, &l->t, &d->fault);
	if (o.trace)
		rt_trace_add(d, l, &tb);
	free(tb.ev);
	return rc;
}

/* the simulator's poll hook, to the device's fiberProgressFn */
static int
progress(void *arg, const SimProgress *p)
{
	fiberDevice d = arg;
	fiberProgress fp = {p->cycles, p->warp_instructions, p->ctas_done, p->ctas};

	return d->progress(d->progress_arg, &fp);
}

static fiberStatus
run(fiberFunction fn, const unsigned grid[3], const unsigned block[3], unsigned dyn,
    const void *params, uint32_t size, int coop, const unsigned *cluster)
{
	fiberDevice d = fn->mod->dev;
	LaunchParams lp;
	RtLaunch l;
	const char *name;
	const Prog *k = rt_check_begin(d, fn->prog);   /* a checked variant under --racecheck */
	int rc;

	memset(&lp, 0, sizeof lp);
	memcpy(lp.grid, grid, sizeof lp.grid);
	memcpy(lp.block, block, sizeof lp.block);
	lp.dyn_smem = dyn;
	lp.params = params;
	lp.params_size = size;
	lp.cooperative = coop;
	if (cluster)
		memcpy(lp.cluster, cluster, sizeof lp.cluster);
	memset(&l, 0, sizeof l);
	l.kernel = xstrdup(fn->name);
	snprintf(l.config, sizeof l.config, "%s", d->name);
	memcpy(l.grid, grid, sizeof l.grid);
	memcpy(l.block, block, sizeof l.block);
	l.dyn_smem = dyn;
	l.mode = d->mode;
	l.nsm = (uint32_t)d->cfg.nsm;
	l.subpartitions = d->cfg.t.subpartitions;
	l.clock_mhz = d->cfg.t.clock_mhz;
	l.sample_sms = d->sample_sms;
	l.sample_ctas = d->sample_ctas;
	l.cfg = d->cfg;
	l.fiber_owner = fn->f->npool ? RtOwnPool : 0;
	for (uint32_t i = 0; i < fn->f->nins; i++)
		if (fn->f->ins[i].op == OSETFIBERNUM)
			l.fiber_owner |= RtOwnSetfibernum;
	l.maxfibers = fn->f->info.maxfibers > 0 ? (uint32_t)fn->f->info.maxfibers : 0;
	memset(&d->fault, 0, sizeof d->fault);
	gpu_set_poll(d->gpu, d->progress ? progress : NULL, d);
	if (d->mode == FIBER_MODE_FUNCTIONAL) {
		SimStats st;
		memset(&st, 0, sizeof st);
		rc = sim_launch(d->gpu, fn->mod->sm, k, &lp, &st, &d->fault);
		l.t.warp_instructions = st.warp_instructions;
		l.t.thread_instructions = st.thread_instructions;
	} else {
		rc = run_timed(d, fn, k, &lp, &l);
	}
	rt_devout_flush(d);
	rt_check_end(d, block);
	if (rc < 0 && d->fault.kind == FaultNone)
		d->fault.kind = FaultInternal;
	l.fault = rc < 0 ? d->fault.kind : FaultNone;
	d->stats.launches++;
	d->stats.cycles += l.t.cycles;
	d->stats.warp_instructions += l.t.warp_instructions;
	d->stats.hazards += l.t.hazards;
	d->stats.thread_instructions += l.t.thread_instructions;
	rt_launch_record(d, &l);
	if (rc < 0) {
		d->fault.msg[sizeof d->fault.msg - 1] = 0;
		/* the message starts with the fault's name; add it if the simulator did not */
		name = sim_fault_name(d->fault.kind);
		if (strncmp(d->fault.msg, name, strlen(name)) == 0)
			return rt_err(d, FIBER_ERROR_LAUNCH_FAILED, "%s", d->fault.msg);
		return rt_err(d, FIBER_ERROR_LAUNCH_FAILED, "%s: %s", name, d->fault.msg);
	}
	return FIBER_SUCCESS;
}

static fiberStatus
launch_packed(const char *who, fiberFunction fn, const unsigned grid[3], const unsigned block[3],
              unsigned dynamic_smem, const void *params, size_t size, int coop,
              const unsigned *cluster)
{
	fiberDevice d;
	fiberStatus s;

	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "%s: not a live function", who);
	d = fn->mod->dev;
	if (!grid || !block)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "%s: %s is NULL", who,
		              !grid ? "grid" : "block");
	if (size > 0 && !params)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "%s: params is NULL", who);
	if (fn->has_param_info && size != fn->param_size)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE,
		              "kernel '%s' takes a parameter block of %u bytes, not %zu", fn->name,
		              fn->param_size, size);
	if (size > MaxParamBytes)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "a parameter block of %zu bytes exceeds %d",
		              size, MaxParamBytes);
	if ((s = check_dims(fn, grid, block, dynamic_smem)) != FIBER_SUCCESS)
		return s;
	return run(fn, grid, block, dynamic_smem, params, (uint32_t)size, coop, cluster);
}

static fiberStatus
launch(const char *who, fiberFunction fn, const unsigned grid[3], const unsigned block[3],
       unsigned dynamic_smem, void **params, int coop, const unsigned *cluster)
{
	fiberDevice d;
	const KInfo *ki;
	uint8_t *buf;
	fiberStatus s;

	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "%s: not a live function", who);
	d = fn->mod->dev;
	ki = &fn->f->info;
	if (!grid || !block)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "%s: %s is NULL", who,
		              !grid ? "grid" : "block");
	if (!fn->has_param_info)
		return rt_err(d, FIBER_ERROR_NO_PARAM_INFO, "kernel '%s' has no parameter layout ('%s' has "
		              "no .nv.info): use fiberLaunchKernelPacked", fn->name, fn->mod->src->name);
	if (fn->param_size > MaxParamBytes)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "kernel '%s': a parameter block of %u bytes",
		              fn->name, fn->param_size);
	if (ki->nparam > 0 && !params)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "kernel '%s' takes %u parameters; params is NULL",
		              fn->name, ki->nparam);
	buf = xmalloc(fn->param_size ? fn->param_size : 1);   /* gaps stay zero */
	for (uint32_t k = 0; k < ki->nparam; k++) {
		const Param *p = &ki->param[k];
		if (!params[k]) {
			free(buf);
			return rt_err(d, FIBER_ERROR_INVALID_VALUE, "kernel '%s': params[%u] is NULL", fn->name, k);
		}
		if (p->offset + p->size > fn->param_size) {
			free(buf);
			return rt_err(d, FIBER_ERROR_INVALID_SOURCE, "kernel '%s': parameter %u (%u bytes at "
			              "0x%x) lies outside the %u-byte parameter block", fn->name, k, p->size,
			              p->offset, fn->param_size);
		}
		memcpy(buf + p->offset, params[k], p->size);
	}
	if ((s = check_dims(fn, grid, block, dynamic_smem)) == FIBER_SUCCESS)
		s = run(fn, grid, block, dynamic_smem, buf, fn->param_size, coop, cluster);
	free(buf);
	return s;
}

fiberStatus
fiberLaunchKernel(fiberFunction fn, const unsigned grid[3], const unsigned block[3],
                  unsigned dynamic_smem, void **params)
{
	return launch("fiberLaunchKernel", fn, grid, block, dynamic_smem, params, 0, NULL);
}

fiberStatus
fiberLaunchKernelPacked(fiberFunction fn, const unsigned grid[3], const unsigned block[3],
                        unsigned dynamic_smem, const void *params, size_t size)
{
	return launch_packed("fiberLaunchKernelPacked", fn, grid, block, dynamic_smem, params, size,
	                     0, NULL);
}

fiberStatus
fiberLaunchCooperativeKernel(fiberFunction fn, const unsigned grid[3], const unsigned block[3],
                             unsigned dynamic_smem, void **params)
{
	return launch("fiberLaunchCooperativeKernel", fn, grid, block, dynamic_smem, params, 1, NULL);
}

fiberStatus
fiberLaunchCooperativeKernelPacked(fiberFunction fn, const unsigned grid[3],
                                   const unsigned block[3], unsigned dynamic_smem,
                                   const void *params, size_t size)
{
	return launch_packed("fiberLaunchCooperativeKernelPacked", fn, grid, block, dynamic_smem,
	                     params, size, 1, NULL);
}

/* the launch configuration checked: FIBER_SUCCESS, or the failure */
static fiberStatus
check_config(const char *who, const fiberLaunchConfig *c, fiberFunction fn)
{
	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "%s: not a live function", who);
	if (!c)
		return rt_err(fn->mod->dev, FIBER_ERROR_INVALID_VALUE, "%s: config is NULL", who);
	return FIBER_SUCCESS;
}

fiberStatus
fiberLaunchKernelEx(const fiberLaunchConfig *c, fiberFunction fn, void **params)
{
	fiberStatus s = check_config("fiberLaunchKernelEx", c, fn);

	if (s != FIBER_SUCCESS)
		return s;
	return launch("fiberLaunchKernelEx", fn, c->grid, c->block, c->dynamic_smem, params,
	              c->cooperative, c->cluster);
}

fiberStatus
fiberLaunchKernelExPacked(const fiberLaunchConfig *c, fiberFunction fn, const void *params,
                          size_t size)
{
	fiberStatus s = check_config("fiberLaunchKernelExPacked", c, fn);

	if (s != FIBER_SUCCESS)
		return s;
	return launch_packed("fiberLaunchKernelExPacked", fn, c->grid, c->block, c->dynamic_smem,
	                     params, size, c->cooperative, c->cluster);
}
