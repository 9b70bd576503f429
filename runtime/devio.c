/* devio.c: what a launch prints: the text of device printf (to the device's output stream,
 * stdout by default) and the lines of failed asserts (to its report stream, stderr by default),
 * written when the launch ends, as the CUDA driver prints the printf FIFO at the next
 * synchronisation. The FIFO keeps the newest RtPrintfFifo bytes of a launch
 * (cudaLimitPrintfFifoSize's default); what it lost is said on the report stream.
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
