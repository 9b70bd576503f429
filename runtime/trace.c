/* trace.c: Chrome trace-event JSON of timed launches (fiberDeviceSetTrace), for Perfetto
 * (ui.perfetto.dev) and chrome://tracing. One process per SM ("SM n", pid n), one thread per
 * hardware warp slot ("warp n", tid n), one complete event ("ph": "X") per TraceEv span, named
 * after its CPI reason ("issue", "wait_memory", ...), with the PC, instruction count and CTA.
 *
 * Time: one cycle is one nanosecond of trace time (ts and dur are written in microseconds,
 * cycles / 1000, exactly), so the viewer's "ns" read as cycles; otherData.clock_mhz converts to
 * real time. Launches follow one another on the time line, each starting where the previous one
 * ended, and each has an instant event with the kernel's name at its start. Events over the
 * limit are counted and reported in an instant event at the end. A launch of the FIBER model also
 * has the counter tracks "fibers" and "vector registers" of SM 0 (its timeline, SimTStats.fiber_tl).
 */
#include "rt.h"
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LaunchPid = 1000000 };  /* the process of the launch markers, apart from the SMs */

static void
trace_reset(RtTrace *t)
{
	free(t->path);
	free(t->ev);
	memset(t, 0, sizeof *t);
}

fiberStatus
fiberDeviceSetTrace(fiberDevice d, const char *path, uint64_t max_events)
{
	fiberStatus s;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetTrace: not a live device");
	if (path && !*path)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetTrace: empty path");
	if ((s = rt_trace_finish(d)) != FIBER_SUCCESS || !path)
		return s;
	d->trace.path = xstrdup(path);
	d->trace.limit = max_events ? max_events : RtTraceEvents;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceGetTraceCounts(fiberDevice d, uint64_t *kept, uint64_t *dropped, uint32_t *untraced)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceGetTraceCounts: not a live device");
	if (kept)
		*kept = d->trace.path ? d->trace.n : 0;
	if (dropped)
		*dropped = d->trace.path ? d->trace.dropped : 0;
	if (untraced)
		*untraced = d->trace.path ? d->trace.untraced : 0;
	return FIBER_SUCCESS;
}

void
rt_trace_add(fiberDevice d, RtLaunch *l, const TraceBuf *b)
{
	RtTrace *t = &d->trace;
	uint64_t end = l->t.cycles, n = b->n < t->limit - t->n ? b->n : t->limit - t->n;

	if (t->cap < t->n + n) {
		t->cap = t->n + n > 2 * t->cap ? t->n + n : 2 * t->cap;
		t->ev = xrealloc(t->ev, t->cap * sizeof *t->ev);
	}
	for (uint64_t k = 0; k < n; k++) {
		TraceEv e = b->ev[k];
		if (e.start + e.dur > end)
			end = e.start + e.dur;
		e.start += t->end;
		t->ev[t->n++] = e;
	}
	if (!t->clock_mhz)
		t->clock_mhz = l->clock_mhz;
	t->dropped += b->dropped + (b->n - n);
	l->traced = 1;
	l->trace_start = t->end;
	t->end += end;
}

/* cycles as microseconds with three exact decimals: one cycle is one nanosecond */
static void
cycles_us(FILE *fp, uint64_t c)
{
	fprintf(fp, "%llu.%03u", (unsigned long long)(c / 1000), (unsigned)(c % 1000));
}

static void
name_event(FILE *fp, const char *what, uint32_t pid, int has_tid, uint32_t tid, const char *fmt,
           uint32_t n)
{
	fprintf(fp, ",\n{\"ph\": \"M\", \"name\": \"%s\", \"pid\": %u", what, pid);
	if (has_tid)
		fprintf(fp, ", \"tid\": %u", tid);
	fputs(", \"args\": {\"name\": \"", fp);
	fprintf(fp, fmt, n);
	fputs("\"}}", fp);
}

/* process and thread names of the SMs and warp slots that have events */
static void
write_names(FILE *fp, const RtTrace *t)
{
	uint32_t nsm = 0, nwarp = 0;
	unsigned char *seen;

	for (uint64_t k = 0; k < t->n; k++) {
		if (t->ev[k].sm >= nsm)
			nsm = t->ev[k].sm + 1;
		if (t->ev[k].warp >= nwarp)
			nwarp = t->ev[k].warp + 1;
	}
	seen = xmalloc((size_t)nsm * nwarp + 1);
	for (uint64_t k = 0; k < t->n; k++)
		seen[(size_t)t->ev[k].sm * nwarp + t->ev[k].warp] = 1;
	for (uint32_t s = 0; s < nsm; s++) {
		int named = 0;
		for (uint32_t w = 0; w < nwarp; w++) {
			if (!seen[(size_t)s * nwarp + w])
				continue;
			if (!named) {
				name_event(fp, "process_name", s, 0, 0, "SM %u", s);
				fprintf(fp, ",\n{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %u, "
				        "\"args\": {\"sort_index\": %u}}", s, s);
				named = 1;
			}
			name_event(fp, "thread_name", s, 1, w, "warp %u", w);
			fprintf(fp, ",\n{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": %u, "
			        "\"tid\": %u, \"args\": {\"sort_index\": %u}}", s, w, w);
		}
	}
	free(seen);
}

/* FIBER runs: SM 0's timeline as two counter tracks of process "SM 0" (pid 0), "fibers" (active
 * fibers) and "vector registers" (allocated to windows and pools), one "ph": "C" event per sample */
static void
fiber_counters(FILE *fp, const RtLaunch *l)
{
	static const char *const name[2] = {"fibers", "vector registers"};

	for (int c = 0; c < 2; c++)
		for (uint32_t k = 0; k < l->t.nfiber_tl; k++) {
			const SimFiberSample *p = &l->t.fiber_tl[k];
			fprintf(fp, ",\n{\"ph\": \"C\", \"pid\": 0, \"name\": \"%s\", \"ts\": ", name[c]);
			cycles_us(fp, l->trace_start + p->cycle);
			fprintf(fp, ", \"args\": {\"%s\": %u}}", c ? "regs" : "fibers",
			        c ? p->regs : p->fibers);
		}
}

static void
write_trace(FILE *fp, fiberDevice d)
{
	const RtTrace *t = &d->trace;

	fputs("{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"time_unit\": \"1 ns of trace time = "
	      "1 SM cycle\", \"clock_mhz\": ", fp);
	fprintf(fp, "%u, \"events\": %llu, \"dropped_events\": %llu},\n\"traceEvents\": [\n",
	        t->clock_mhz, (unsigned long long)t->n, (unsigned long long)t->dropped);
	fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %u, "
	        "\"args\": {\"name\": \"launches\"}}", (unsigned)LaunchPid);
	write_names(fp, t);
	for (uint32_t k = 0; k < d->nlaunch; k++) {
		const RtLaunch *l = &d->launch[k];
		if (!l->traced)
			continue;
		fprintf(fp, ",\n{\"ph\": \"i\", \"s\": \"g\", \"pid\": %u, \"tid\": 0, \"ts\": ", (unsigned)LaunchPid);
		cycles_us(fp, l->trace_start);
		fprintf(fp, ", \"name\": \"launch %u: ", k);
		for (const char *p = l->kernel; *p; p++)     /* a symbol; keep the string valid JSON */
			fputc(*p == '"' || *p == '\\' || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f
			          ? '?' : *p, fp);
		fprintf(fp, "\", \"args\": {\"cycles\": %llu}}", (unsigned long long)l->t.cycles);
	}
	for (uint32_t k = 0; k < d->nlaunch; k++)
		if (d->launch[k].traced && d->launch[k].t.fiber)
			fiber_counters(fp, &d->launch[k]);
	for (uint64_t k = 0; k < t->n; k++) {
		const TraceEv *e = &t->ev[k];
		fprintf(fp, ",\n{\"ph\": \"X\", \"pid\": %u, \"tid\": %u, \"name\": \"%s\", \"ts\": ",
		        e->sm, e->warp, e->reason < NCpi ? cpi_name[e->reason] : "unknown");
		cycles_us(fp, e->start);
		fputs(", \"dur\": ", fp);
		cycles_us(fp, e->dur);
		fprintf(fp, ", \"args\": {\"pc\": \"0x%x\", \"count\": %u, \"cta\": %u}}", e->pc, e->count,
		        e->cta);
	}
	if (t->dropped) {
		fprintf(fp, ",\n{\"ph\": \"i\", \"s\": \"g\", \"pid\": %u, \"tid\": 0, \"ts\": ", (unsigned)LaunchPid);
		cycles_us(fp, t->end);
		fprintf(fp, ", \"name\": \"trace limit of %llu events reached\", \"args\": {\"dropped_events\": "
		        "%llu, \"untraced_launches\": %u}}", (unsigned long long)t->limit,
		        (unsigned long long)t->dropped, t->untraced);
	}
	fputs("\n]}\n", fp);
}

fiberStatus
rt_trace_finish(fiberDevice d)
{
	RtTrace *t = &d->trace;
	OutFile o;

	if (!t->path)
		return FIBER_SUCCESS;
	if (outfile_open(&o, t->path) < 0) {
		rt_err(d, FIBER_ERROR_IO, "cannot write the trace '%s': %s", t->path, strerror(errno));
		trace_reset(t);
		return FIBER_ERROR_IO;
	}
	write_trace(o.fp, d);
	if (outfile_commit(&o) < 0) {
		rt_err(d, FIBER_ERROR_IO, "cannot write the trace '%s': %s", t->path, strerror(errno));
		trace_reset(t);
		return FIBER_ERROR_IO;
	}
	for (uint32_t k = 0; k < d->nlaunch; k++)
		d->launch[k].traced = 0;
	trace_reset(t);
	return FIBER_SUCCESS;
}
