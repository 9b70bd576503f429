/* devio.c: what a launch prints, and its variants. Printed: the text of device printf (to the
 * device's output stream, stdout by default), the lines of failed asserts and the checks'
 * findings (to its report stream, stderr by default), written when the launch ends, as the CUDA
 * driver prints the printf FIFO at the next synchronisation; the FIFO keeps the newest
 * RtPrintfFifo bytes of a launch (cudaLimitPrintfFifoSize's default), and what it lost is said on
 * the report stream. Variants: the checks (fiberDeviceSetChecks) and the warp order
 * (fiberDeviceSetWarpOrder), set up by rt_check_begin for each launch.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RtPrintfFifo = 1 << 20 };   /* bytes: cudaLimitPrintfFifoSize, default */

fiberStatus
fiberDeviceSetOutput(fiberDevice d, void *printf_file, void *report_file)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetOutput: not a live device");
	d->out_file = printf_file;
	d->report_file = report_file;
	return FIBER_SUCCESS;
}

FILE *
rt_report_file(fiberDevice d)
{
	return d->report_file ? (FILE *)d->report_file : stderr;
}

void
rt_devout_flush(fiberDevice d)
{
	FILE *out = d->out_file ? (FILE *)d->out_file : stdout, *rep = rt_report_file(d);
	uint64_t lost = 0, lost_a = 0;
	char *text;

	if (!d->gpu || !d->gpu->devout)
		return;
	if ((text = sim_devout_take(d->gpu, DevOutPrintf, RtPrintfFifo, &lost))) {
		fputs(text, out);
		fflush(out);
		free(text);
	}
	if (lost)
		fprintf(rep, "fibersim: device printf: %llu bytes of older output lost (the FIFO holds "
		        "the newest %d bytes of a launch, cudaLimitPrintfFifoSize)\n",
		        (unsigned long long)lost, RtPrintfFifo);
	if ((text = sim_devout_take(d->gpu, DevOutAssert, 0, &lost_a))) {
		fputs(text, rep);
		free(text);
	}
	fflush(rep);
}

fiberStatus
fiberDeviceSetChecks(fiberDevice d, unsigned checks)
{
	unsigned known = FIBER_CHECK_RACE | FIBER_CHECK_SYNC | FIBER_CHECK_INIT;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetChecks: not a live device");
	if (checks & ~known)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetChecks: unknown checks 0x%x",
		              checks & ~known);
	d->checks = (checks & FIBER_CHECK_RACE ? SimCheckRace : 0) |
	            (checks & FIBER_CHECK_SYNC ? SimCheckSync : 0) |
	            (checks & FIBER_CHECK_INIT ? SimCheckInit : 0);
	if (d->gpu && !(checks & FIBER_CHECK_INIT) != !d->gpu->init_track)   /* else rt_choose */
		gpu_set_init_track(d->gpu, !!(checks & FIBER_CHECK_INIT));
	return FIBER_SUCCESS;
}

fiberStatus
fiberGetCheckCount(fiberDevice d, uint64_t *hazards)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberGetCheckCount: not a live device");
	if (!hazards)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetCheckCount: hazards is NULL");
	*hazards = d->check_count;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceSetWarpOrder(fiberDevice d, uint64_t seed)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetWarpOrder: not a live device");
	d->warp_order = seed;
	return FIBER_SUCCESS;
}

const Prog *
rt_check_begin(fiberDevice d, const Prog *k)
{
	d->check_count = 0;
	d->gpu->warp_order = d->mode == FIBER_MODE_FUNCTIONAL ? d->warp_order : 0;
	if (!d->checks)
		return k;
	return sim_check_prog(sim_check_new(d->gpu, k, d->checks));
}

void
rt_check_end(fiberDevice d, const unsigned block[3])
{
	uint32_t ntid[3] = { block[0], block[1], block[2] };
	FILE *rep = rt_report_file(d);

	if (!d->gpu->chk)
		return;
	d->check_count = sim_check_report(d->gpu->chk, rep, ntid);
	fflush(rep);
	sim_check_free(d->gpu);
}
