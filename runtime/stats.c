/* stats.c: the record of every launch on a device, the statistics JSON written from it
 * (fiberWriteStatsJSON; docs/sim-stats.md defines every key) and the human summary of the last
 * launch (fiberPrintSummary). Derived figures (IPC, hit rates, bandwidth, fractions) are computed
 * here from the simulator's counters; a figure whose denominator is 0 is written as null.
 */
#define _POSIX_C_SOURCE 200809L
#include "rt.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
rt_launch_record(fiberDevice d, RtLaunch *l)
{
	vgrow(&d->launch, &d->claunch, d->nlaunch + 1, sizeof *d->launch);
	d->launch[d->nlaunch++] = *l;
	memset(l, 0, sizeof *l);
}

void
rt_launches_free(fiberDevice d)
{
	for (uint32_t k = 0; k < d->nlaunch; k++) {
		free(d->launch[k].kernel);
		simtstats_free(&d->launch[k].t);
	}
	free(d->launch);
	d->launch = NULL;
	d->nlaunch = d->claunch = 0;
}

/* a / b, NAN when b is 0 (written as null) */
static double
ratio(double a, double b)
{
	return b != 0 ? a / b : NAN;
}

static void
jnum(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.6g", v);
	else
		fputs("null", fp);
}

static void
jint(FILE *fp, uint64_t v)
{
	fprintf(fp, "%llu", (unsigned long long)v);
}

/* a JSON string; NULL is null. Bytes outside printable ASCII are \u00XX, so the output is
 * valid JSON whatever the encoding of the input */
static void
jstr(FILE *fp, const char *s)
{
	if (!s) {
		fputs("null", fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

/* "key": with the indentation of a kernel's field */
static void
key(FILE *fp, const char *k)
{
	fprintf(fp, ",\n      \"%s\": ", k);
}

static void
dims(FILE *fp, const uint32_t v[3])
{
	fprintf(fp, "[%u, %u, %u]", v[0], v[1], v[2]);
}

static uint64_t
cpi_total(const uint64_t cpi[NCpi])
{
	uint64_t t = 0;

	for (int r = 0; r < NCpi; r++)
		t += cpi[r];
	return t;
}

static void
cpi_stack(FILE *fp, const uint64_t cpi[NCpi])
{
	fputc('{', fp);
	for (int r = 0; r < NCpi; r++) {
		fprintf(fp, "%s\"%s\": ", r ? ", " : "", cpi_name[r]);
		jint(fp, cpi[r]);
	}
	fputc('}', fp);
}

static void
cpi_fraction(FILE *fp, const uint64_t cpi[NCpi])
{
	double total = (double)cpi_total(cpi);

	fputc('{', fp);
	for (int r = 0; r < NCpi; r++) {
		fprintf(fp, "%s\"%s\": ", r ? ", " : "", cpi_name[r]);
		jnum(fp, ratio((double)cpi[r], total));
	}
	fputc('}', fp);
}

/* sub-partition cycles of a launch: the CPI stack's total */
/* the FIBER SM's occupancy decision, one line of the summary: CTAs per SM and the limit, the weft
 * contexts a CTA takes, and whether the kernel owns its SM (docs/fiber-isa.md section 2,
 * docs/fiber-sm.md "SM ownership") */
static void
summary_fiber_occupancy(FILE *fp, const RtLaunch *l)
{
	const SimTStats *t = &l->t;
	uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	uint64_t fibers = l->maxfibers > threads ? l->maxfibers : threads;
	uint64_t nweft = (fibers + 31) / 32, nsub = l->subpartitions ? l->subpartitions : 4;
	uint32_t ctx = l->cfg.t.fiber_contexts ? l->cfg.t.fiber_contexts : 64;
	uint64_t busy = t->ctas < l->nsm ? t->ctas : l->nsm;
	/* a kernel that does not own its SM is admitted by its launch's wefts (docs/fiber-sm.md,
	 * "SM ownership"); .maxfibers counts only when it grows */
	int owns = (l->fiber_owner & RtOwnPool) ||
	           (t->occupancy_limit && !strcmp(t->occupancy_limit, "fiber"));

	if (!owns && l->maxfibers > threads) {
		nweft = (threads + 31) / 32;
		fprintf(fp, "  FIBER occupancy: %u CTA%s/SM (limit: %s); a CTA takes %llu weft%s "
		        "(its %llu threads / 32; up to .maxfibers %u / 32 while it grows), %llu of the "
		        "%u weft contexts of each sub-partition", t->ctas_per_sm,
		        t->ctas_per_sm == 1 ? "" : "s", t->occupancy_limit ? t->occupancy_limit : "-",
		        (unsigned long long)nweft, nweft == 1 ? "" : "s", (unsigned long long)threads,
		        l->maxfibers, (unsigned long long)((nweft + nsub - 1) / nsub), ctx);
	} else {
		fprintf(fp, "  FIBER occupancy: %u CTA%s/SM (limit: %s); a CTA takes %llu weft%s "
		        "(max(.maxfibers %u, %llu threads) / 32), %llu of the %u weft contexts of each "
		        "sub-partition", t->ctas_per_sm, t->ctas_per_sm == 1 ? "" : "s",
		        t->occupancy_limit ? t->occupancy_limit : "-", (unsigned long long)nweft,
		        nweft == 1 ? "" : "s", l->maxfibers, (unsigned long long)threads,
		        (unsigned long long)((nweft + nsub - 1) / nsub), ctx);
	}
	if (!owns && (l->fiber_owner & RtOwnSetfibernum))   /* counts known only at run time */
		fputs("; SETFIBERNUM with a run-time count: admitted as any kernel, a grow the SM "
		      "cannot hold waits for its other CTAs (docs/fiber-sm.md, \"SM ownership\")", fp);
	else if (l->fiber_owner)
		fprintf(fp, "; the kernel owns its SM (%s%s%s): one CTA per SM, %llu of %u SMs busy; "
		        "only a persistent kernel (a CTA per SM looping over the work) fills the GPU",
		        l->fiber_owner & RtOwnSetfibernum ? "SETFIBERNUM, an SM-wide sync" : "",
		        l->fiber_owner == (RtOwnSetfibernum | RtOwnPool) ? "; " : "",
		        l->fiber_owner & RtOwnPool ? "a pool, SM state" : "", (unsigned long long)busy,
		        l->nsm);
	else
		fputs("; the SIMT limits on warps and threads per SM do not apply", fp);
	fputc('\n', fp);
}

static double
sp_cycles(const RtLaunch *l)
{
	return (double)l->t.cycles * l->nsm * l->subpartitions;
}

static double
dram_bytes_per_cycle(const RtLaunch *l)
{
	return ratio((double)(l->t.dram_read_bytes + l->t.dram_write_bytes), (double)l->t.cycles);
}

/* bytes per cycle x cycles per microsecond = bytes per microsecond = 1e-3 GB/s */
static double
dram_gbytes_per_s(const RtLaunch *l)
{
	return dram_bytes_per_cycle(l) * l->clock_mhz / 1000.0;
}

static void
hit_miss(FILE *fp, const char *name, uint64_t hits, uint64_t misses)
{
	key(fp, name);
	fprintf(fp, "{\"hits\": %llu, \"misses\": %llu, \"hit_rate\": ", (unsigned long long)hits,
	        (unsigned long long)misses);
	jnum(fp, ratio((double)hits, (double)(hits + misses)));
	fputc('}', fp);
}

/* hazards_by_opcode: [{"producer", "consumer", "latency", "stall", "count", "producer_pc",
 * "consumer_pc"}, ...], most frequent first */
static void
hazard_rows(FILE *fp, const SimTStats *t)
{
	fputc('[', fp);
	for (uint32_t k = 0; k < t->nhazard_rows; k++) {
		const SimHazard *h = &t->hazard_rows[k];
		fputs(k ? ",\n        {\"producer\": " : "\n        {\"producer\": ", fp);
		jstr(fp, h->producer);
		fputs(", \"consumer\": ", fp);
		jstr(fp, h->consumer);
		fprintf(fp, ", \"latency\": %u, \"stall\": %u, \"count\": %llu, \"producer_pc\": "
		        "\"0x%04x\", \"consumer_pc\": \"0x%04x\"}", h->latency, h->stall,
		        (unsigned long long)h->count, h->producer_addr, h->consumer_addr);
	}
	fputs(t->nhazard_rows ? "\n      ]" : "]", fp);
}

/* the CPI stack by instruction (docs/sim-stats.md "Instructions"): every instruction a cycle was
 * charged to, in address order, with its issues, its other cycles and those by reason */
static void
write_instructions(FILE *fp, const SimTStats *t)
{
	int first = 1;

	key(fp, "instructions");
	fputc('[', fp);
	for (uint32_t pc = 0; pc < t->npc && t->pc_cycles; pc++) {
		const uint64_t *c = &t->pc_cycles[(size_t)pc * NCpi];
		uint64_t stall = cpi_total(c) - c[CpiIssue];
		int any = 0;
		if (!c[CpiIssue] && !stall)
			continue;
		fprintf(fp, "%s\n        {\"pc\": %u, \"op\": ", first ? "" : ",", t->pc_addr[pc]);
		jstr(fp, t->pc_op[pc]);
		fprintf(fp, ", \"issued\": %llu, \"stall_cycles\": %llu, \"stalls\": {",
		        (unsigned long long)c[CpiIssue], (unsigned long long)stall);
		for (unsigned r = 0; r < NCpi; r++)
			if (r != CpiIssue && c[r]) {
				fprintf(fp, "%s\"%s\": %llu", any ? ", " : "", cpi_name[r],
				        (unsigned long long)c[r]);
				any = 1;
			}
		fputs("}}", fp);
		first = 0;
	}
	fputs(first ? "]" : "\n      ]", fp);
}

/* FIBER figures of SM 0's timeline: peak and time-weighted mean of the fibers and the vector
 * registers over [first sample, end of the launch] (each sample holds until the next) */
enum { RtFiberFileRegs = 2048 };   /* the SM's vector register file (docs/fiber-isa.md) */

static void
fiber_peak_mean(const SimTStats *t, int regs, double *peak, double *mean)
{
	double area = 0, span;
	uint64_t end = t->cycles;

	*peak = 0;
	*mean = NAN;
	if (!t->nfiber_tl || !t->fiber_tl)
		return;
	if (end < t->fiber_tl[t->nfiber_tl - 1].cycle)
		end = t->fiber_tl[t->nfiber_tl - 1].cycle;
	for (uint32_t k = 0; k < t->nfiber_tl; k++) {
		const SimFiberSample *p = &t->fiber_tl[k];
		uint64_t next = k + 1 < t->nfiber_tl ? t->fiber_tl[k + 1].cycle : end;
		double v = regs ? p->regs : p->fibers;
		if (v > *peak)
			*peak = v;
		area += v * (double)(next > p->cycle ? next - p->cycle : 0);
	}
	span = (double)(end - t->fiber_tl[0].cycle);
	*mean = span > 0 ? area / span
	                 : (double)(regs ? t->fiber_tl[t->nfiber_tl - 1].regs
	                                 : t->fiber_tl[t->nfiber_tl - 1].fibers);
}

/* "fiber": the FIBER model's counters and SM 0's timeline (docs/sim-stats.md "FIBER") */
static void
write_fiber(FILE *fp, const SimTStats *t)
{
	double pf, mf, pr, mr;

	fiber_peak_mean(t, 0, &pf, &mf);
	fiber_peak_mean(t, 1, &pr, &mr);
	key(fp, "fiber");
	fprintf(fp, "{\"remote_reads\": %llu, \"xbar_conflicts\": %llu, \"rpa_conflicts\": %llu, "
	        "\"busy_waits\": %llu, \"busy_wait_cycles\": %llu, \"setfibernum\": %llu, "
	        "\"setfibernum_cycles\": %llu, \"rs_smem_reads\": %llu, \"xbar_reads\": %llu,\n"
	        "        \"peak_fibers\": ",
	        (unsigned long long)t->fiber_remote_reads, (unsigned long long)t->fiber_xbar_conflicts,
	        (unsigned long long)t->fiber_rpa_conflicts, (unsigned long long)t->fiber_busy_waits,
	        (unsigned long long)t->fiber_busy_wait_cycles, (unsigned long long)t->fiber_setfibernum,
	        (unsigned long long)t->fiber_setfibernum_cycles,
	        (unsigned long long)t->fiber_rs_smem_reads, (unsigned long long)t->fiber_xbar_reads);
	jnum(fp, pf);
	fputs(", \"mean_fibers\": ", fp);
	jnum(fp, mf);
	fputs(", \"peak_regs\": ", fp);
	jnum(fp, pr);
	fputs(", \"mean_regs\": ", fp);
	jnum(fp, mr);
	fprintf(fp, ", \"rf_regs\": %u, \"rf_peak_occupancy\": ", (unsigned)RtFiberFileRegs);
	jnum(fp, pr / RtFiberFileRegs);
	fputs(", \"rf_mean_occupancy\": ", fp);
	jnum(fp, mr / RtFiberFileRegs);
	fputs(",\n        \"timeline\": {\"cycle\": [", fp);
	for (uint32_t k = 0; k < t->nfiber_tl; k++)
		fprintf(fp, "%s%llu", k ? ", " : "", (unsigned long long)t->fiber_tl[k].cycle);
	fputs("], \"fibers\": [", fp);
	for (uint32_t k = 0; k < t->nfiber_tl; k++)
		fprintf(fp, "%s%u", k ? ", " : "", t->fiber_tl[k].fibers);
	fputs("], \"regs\": [", fp);
	for (uint32_t k = 0; k < t->nfiber_tl; k++)
		fprintf(fp, "%s%u", k ? ", " : "", t->fiber_tl[k].regs);
	fputs("]}}", fp);
}

/* the sections only a timed launch has */
static void
write_timing(FILE *fp, const RtLaunch *l)
{
	const SimTStats *t = &l->t;
	double ipc = ratio((double)t->warp_instructions, (double)t->cycles);

	key(fp, "ipc");
	jnum(fp, ipc);
	key(fp, "ipc_per_sm");
	jnum(fp, ratio(ipc, l->nsm));
	key(fp, "time_us");
	jnum(fp, ratio((double)t->cycles, l->clock_mhz));
	key(fp, "ctrl_mode");
	jstr(fp, t->ctrl_mode == CtrlScoreboard ? "scoreboard" : "control-bits");
	key(fp, "hazards");
	jint(fp, t->hazards);
	key(fp, "hazards_by_opcode");
	hazard_rows(fp, t);
	key(fp, "occupancy");
	fprintf(fp, "{\"ctas_per_sm\": %u, \"limit\": ", t->ctas_per_sm);
	jstr(fp, t->occupancy_limit);
	fprintf(fp, ", \"waves\": %u, \"ctas\": %u}", t->waves, t->ctas);
	key(fp, "cpi_stack");
	cpi_stack(fp, t->cpi);
	key(fp, "cpi_stack_fraction");
	cpi_fraction(fp, t->cpi);
	key(fp, "tensor_utilization");
	jnum(fp, ratio((double)t->tensor_busy, sp_cycles(l)));
	key(fp, "rf");
	fprintf(fp, "{\"bank_conflicts\": %llu, \"reuse_hits\": %llu}",
	        (unsigned long long)t->rf_bank_conflicts, (unsigned long long)t->reuse_hits);
	key(fp, "shared");
	fprintf(fp, "{\"requests\": %llu, \"wavefronts\": %llu, \"bank_conflict_replays\": %llu, "
	        "\"wavefronts_per_request\": ", (unsigned long long)t->smem_requests,
	        (unsigned long long)t->smem_wavefronts,
	        (unsigned long long)(t->smem_wavefronts > t->smem_requests
	                                 ? t->smem_wavefronts - t->smem_requests : 0));
	jnum(fp, ratio((double)t->smem_wavefronts, (double)t->smem_requests));
	fputc('}', fp);
	hit_miss(fp, "l1", t->l1_hits, t->l1_misses);
	hit_miss(fp, "l2", t->l2_hits, t->l2_misses);
	key(fp, "dram");
	fprintf(fp, "{\"read_bytes\": %llu, \"write_bytes\": %llu, \"bytes_per_cycle\": ",
	        (unsigned long long)t->dram_read_bytes, (unsigned long long)t->dram_write_bytes);
	jnum(fp, dram_bytes_per_cycle(l));
	fputs(", \"gbytes_per_s\": ", fp);
	jnum(fp, dram_gbytes_per_s(l));
	fputc('}', fp);
	key(fp, "const");
	fprintf(fp, "{\"hits\": %llu, \"misses\": %llu}", (unsigned long long)t->const_hits,
	        (unsigned long long)t->const_misses);
	key(fp, "gmem");
	fprintf(fp, "{\"requests\": %llu, \"sectors\": %llu, \"sectors_per_request\": ",
	        (unsigned long long)t->gmem_requests, (unsigned long long)t->gmem_sectors);
	jnum(fp, ratio((double)t->gmem_sectors, (double)t->gmem_requests));
	fputc('}', fp);
	key(fp, "sampling");
	fprintf(fp, "{\"sampled\": %s, \"sample_sms\": %u, \"sample_ctas\": %u, "
	        "\"ctas_simulated\": %u, \"error_estimate\": ", t->sampled ? "true" : "false",
	        l->sample_sms, l->sample_ctas, t->ctas_simulated);
	if (t->sampled)
		jnum(fp, t->sample_error);
	else
		fputs("null", fp);
	fputc('}', fp);
	key(fp, "simulator");
	fputs("{\"wall_seconds\": ", fp);
	jnum(fp, t->wall_seconds);
	fprintf(fp, ", \"threads\": %u, \"threads_note\": ", t->threads);
	jstr(fp, t->threads_note);
	fputs(", \"warp_instructions_per_second\": ", fp);
	jnum(fp, ratio((double)t->warp_instructions, t->wall_seconds));
	fputs(", \"cycles_per_second\": ", fp);
	jnum(fp, ratio((double)t->cycles, t->wall_seconds));
	fputc('}', fp);
	key(fp, "per_sm");
	fputc('[', fp);
	for (uint32_t s = 0; s < t->nsm && t->sm; s++) {
		const SimSmStats *m = &t->sm[s];
		fprintf(fp, "%s\n        {\"busy_cycles\": %llu, \"warp_instructions\": %llu, "
		        "\"ctas\": %llu, \"cpi_stack\": ", s ? "," : "", (unsigned long long)m->busy_cycles,
		        (unsigned long long)m->warp_instructions, (unsigned long long)m->ctas);
		cpi_stack(fp, m->cpi);
		fputc('}', fp);
	}
	fputs(t->nsm && t->sm ? "\n      ]" : "]", fp);
	write_instructions(fp, t);
	if (t->fiber)
		write_fiber(fp, t);
}

/* every configuration key as it was for the launch: "key": value, numbers as numbers */
static void
write_config(FILE *fp, const SimConfig *c)
{
	char *text = NULL, *line, *next;
	size_t n = 0;
	FILE *mem = open_memstream(&text, &n);
	int first = 1;

	if (!mem) {
		fputs("null", fp);
		return;
	}
	simcfg_print(c, mem);
	fclose(mem);
	fputc('{', fp);
	for (line = text; line && *line; line = next) {
		char *eq, *val, *end;
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#' || !(eq = strstr(line, " = ")))
			continue;
		*eq = 0;
		val = eq + 3;
		if ((end = strchr(val, '#')))
			*end = 0;
		for (end = val + strlen(val); end > val && end[-1] == ' '; )
			*--end = 0;
		fprintf(fp, "%s\n        ", first ? "" : ",");
		jstr(fp, line);
		fputs(": ", fp);
		if (*val && strspn(val, "0123456789") == strlen(val))
			fputs(val, fp);
		else
			jstr(fp, val);
		first = 0;
	}
	fputs("\n      }", fp);
	free(text);
}

static void
write_kernel(FILE *fp, const RtLaunch *l)
{
	fputs("    {\n      \"name\": ", fp);
	jstr(fp, l->kernel);
	key(fp, "config");
	jstr(fp, l->config);
	key(fp, "mode");
	jstr(fp, l->mode == FIBER_MODE_FUNCTIONAL ? "functional" : "timing");
	key(fp, "fault");
	jstr(fp, l->fault == FaultNone ? NULL : sim_fault_name(l->fault));
	key(fp, "grid");
	dims(fp, l->grid);
	key(fp, "block");
	dims(fp, l->block);
	key(fp, "dynamic_smem");
	jint(fp, l->dyn_smem);
	key(fp, "sms");
	jint(fp, l->nsm);
	key(fp, "subpartitions");
	jint(fp, l->subpartitions);
	key(fp, "clock_mhz");
	jint(fp, l->clock_mhz);
	key(fp, "configuration");
	write_config(fp, &l->cfg);
	key(fp, "cycles");
	jint(fp, l->t.cycles);
	key(fp, "warp_instructions");
	jint(fp, l->t.warp_instructions);
	key(fp, "thread_instructions");
	jint(fp, l->t.thread_instructions);
	if (l->mode != FIBER_MODE_FUNCTIONAL)
		write_timing(fp, l);
	fputs("\n    }", fp);
}

static void
write_stats(FILE *fp, fiberDevice d)
{
	const fiberStats *s = &d->stats;

	fputs("{\n  \"version\": 1,\n  \"config\": {\"name\": ", fp);
	jstr(fp, d->chosen ? d->name : "auto");
	fputs(", \"arch\": ", fp);
	if (d->chosen)
		fprintf(fp, "\"sm_%d\"", d->cfg.sm);
	else
		fputs("null", fp);
	fprintf(fp, ", \"sms\": %d, \"clock_mhz\": %u},\n", d->cfg.nsm, d->cfg.t.clock_mhz);
	fprintf(fp, "  \"mode\": \"%s\",\n", d->mode == FIBER_MODE_FUNCTIONAL ? "functional" : "timing");
	fprintf(fp, "  \"launches\": %llu,\n  \"cycles\": %llu,\n  \"warp_instructions\": %llu,\n"
	        "  \"thread_instructions\": %llu,\n  \"ipc\": ", (unsigned long long)s->launches,
	        (unsigned long long)s->cycles, (unsigned long long)s->warp_instructions,
	        (unsigned long long)s->thread_instructions);
	jnum(fp, ratio((double)s->warp_instructions, (double)s->cycles));
	fputs(",\n  \"kernels\": [", fp);
	for (uint32_t k = 0; k < d->nlaunch; k++) {
		fputs(k ? ",\n" : "\n", fp);
		write_kernel(fp, &d->launch[k]);
	}
	fputs(d->nlaunch ? "\n  ]\n}\n" : "]\n}\n", fp);
}

fiberStatus
fiberWriteStatsJSON(fiberDevice d, const char *path)
{
	OutFile o;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberWriteStatsJSON: not a live device");
	if (!path || !*path)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberWriteStatsJSON: no path");
	if (outfile_open(&o, path) < 0)
		return rt_err(d, FIBER_ERROR_IO, "cannot write '%s': %s", path, strerror(errno));
	write_stats(o.fp, d);
	if (outfile_commit(&o) < 0)
		return rt_err(d, FIBER_ERROR_IO, "cannot write '%s': %s", path, strerror(errno));
	return FIBER_SUCCESS;
}

/* the CPI reasons of a stack, largest first */
static void
cpi_order(const uint64_t cpi[NCpi], int order[NCpi])
{
	for (int r = 0; r < NCpi; r++) {
		int k = r;
		for (; k > 0 && cpi[order[k - 1]] < cpi[r]; k--)
			order[k] = order[k - 1];
		order[k] = r;
	}
}

static void
summary_timing(FILE *fp, const RtLaunch *l)
{
	const SimTStats *t = &l->t;
	double ipc = ratio((double)t->warp_instructions, (double)t->cycles);
	double total = (double)cpi_total(t->cpi);
	int order[NCpi];

	fprintf(fp, "  %llu cycles", (unsigned long long)t->cycles);
	if (l->clock_mhz)
		fprintf(fp, " = %.3f us at %u MHz", (double)t->cycles / l->clock_mhz, l->clock_mhz);
	if (t->sampled)
		fprintf(fp, " (extrapolated from a sample, estimated error %.0f%%)",
		        100.0 * t->sample_error);
	fprintf(fp, "; IPC %.3f (%.4f per SM); %llu warp instructions\n", isfinite(ipc) ? ipc : 0.0,
	        isfinite(ipc) && l->nsm ? ipc / l->nsm : 0.0, (unsigned long long)t->warp_instructions);
	if (t->ctrl_mode == CtrlScoreboard && l->cfg.t.ctrl_mode == CtrlAuto)
		fputs("  scoreboard fallback: the listing has no encoding words (so no control bits); "
		      "dependences wait on the configured latencies (nvdisasm -hex keeps the words)\n", fp);
	cpi_order(t->cpi, order);
	fputs("  CPI stack:", fp);
	for (int k = 0; k < 5 && total > 0 && t->cpi[order[k]] > 0; k++)
		fprintf(fp, "%s %s %.1f%%", k ? "," : "", cpi_name[order[k]], 100.0 * t->cpi[order[k]] / total);
	fputc('\n', fp);
	if (total > 0 && t->cpi[CpiIdle] > total / 2 && total > (double)t->cpi[CpiIdle]) {
		/* mostly idle (a small grid on a large GPU): the stack of the busy sub-partitions */
		uint64_t busy[NCpi];
		double btotal = total - (double)t->cpi[CpiIdle];
		memcpy(busy, t->cpi, sizeof busy);
		busy[CpiIdle] = 0;
		cpi_order(busy, order);
		fputs("  without idle:", fp);
		for (int k = 0; k < 5 && busy[order[k]] > 0; k++)
			fprintf(fp, "%s %s %.1f%%", k ? "," : "", cpi_name[order[k]],
			        100.0 * busy[order[k]] / btotal);
		fputc('\n', fp);
	}
	fputs("  memory: L1 hit ", fp);
	if (t->l1_hits + t->l1_misses)
		fprintf(fp, "%.1f%%", 100.0 * t->l1_hits / (double)(t->l1_hits + t->l1_misses));
	else
		fputs("-", fp);
	fputs(", L2 hit ", fp);
	if (t->l2_hits + t->l2_misses)
		fprintf(fp, "%.1f%%", 100.0 * t->l2_hits / (double)(t->l2_hits + t->l2_misses));
	else
		fputs("-", fp);
	fprintf(fp, ", DRAM %.1f B/cycle", t->cycles ? dram_bytes_per_cycle(l) : 0.0);
	if (l->clock_mhz && t->cycles)
		fprintf(fp, " (%.1f GB/s)", dram_gbytes_per_s(l));
	fputc('\n', fp);
	fprintf(fp, "  tensor pipes %.1f%% busy; occupancy %u CTAs/SM (limit: %s), %u wave%s of %u CTAs\n",
	        sp_cycles(l) > 0 ? 100.0 * t->tensor_busy / sp_cycles(l) : 0.0, t->ctas_per_sm,
	        t->occupancy_limit ? t->occupancy_limit : "-", t->waves, t->waves == 1 ? "" : "s", t->ctas);
	if (t->hazards) {
		/* the three most frequent rows: what a calibration would look at first */
		fprintf(fp, "  hazards: %llu reads before the modelled latency:",
		        (unsigned long long)t->hazards);
		for (uint32_t k = 0; k < t->nhazard_rows && k < 3; k++) {
			const SimHazard *h = &t->hazard_rows[k];
			fprintf(fp, "%s %s -> %s (latency %u, stall %u) x%llu", k ? ";" : "", h->producer,
			        h->consumer, h->latency, h->stall, (unsigned long long)h->count);
		}
		fputc('\n', fp);
	}
	if (t->fiber) {
		double pf, mf, pr, mr;
		fiber_peak_mean(t, 0, &pf, &mf);
		fiber_peak_mean(t, 1, &pr, &mr);
		fprintf(fp, "  FIBER: fibers peak %.0f mean %.1f; registers peak %.0f of %u; %llu remote "
		        "reads (%llu through the crossbar, %llu cycles waiting for a crossbar port, %llu "
		        "read-port conflicts); %llu busy-bit waits (%llu cycles); "
		        "%llu SETFIBERNUM (%llu cycles)", pf, isfinite(mf) ? mf : 0.0, pr,
		        (unsigned)RtFiberFileRegs, (unsigned long long)t->fiber_remote_reads,
		        (unsigned long long)t->fiber_xbar_reads, (unsigned long long)t->fiber_xbar_conflicts,
		        (unsigned long long)t->fiber_rpa_conflicts, (unsigned long long)t->fiber_busy_waits,
		        (unsigned long long)t->fiber_busy_wait_cycles,
		        (unsigned long long)t->fiber_setfibernum,
		        (unsigned long long)t->fiber_setfibernum_cycles);
		if (t->fiber_rs_smem_reads)
			fprintf(fp, "; %llu remote reads through shared memory (fiber_rs = 0)",
			        (unsigned long long)t->fiber_rs_smem_reads);
		fputc('\n', fp);
	}
	if (t->fiber)
		summary_fiber_occupancy(fp, l);
	fprintf(fp, "  simulator: %.3f s, %u thread%s", t->wall_seconds, t->threads,
	        t->threads == 1 ? "" : "s");
	if (t->wall_seconds > 0)
		fprintf(fp, ", %.0f warp instructions/s, %.0f cycles/s",
		        t->warp_instructions / t->wall_seconds, t->cycles / t->wall_seconds);
	if (t->threads_note)
		fprintf(fp, " (%s)", t->threads_note);
	fputc('\n', fp);
}

fiberStatus
fiberGetHazardCount(fiberDevice d, unsigned *n)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberGetHazardCount: not a live device");
	if (!n)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetHazardCount: n is NULL");
	*n = d->nlaunch ? d->launch[d->nlaunch - 1].t.nhazard_rows : 0;
	return FIBER_SUCCESS;
}

fiberStatus
fiberGetHazard(fiberDevice d, unsigned k, fiberHazard *row)
{
	const SimHazard *h;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberGetHazard: not a live device");
	if (!row)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetHazard: row is NULL");
	if (!d->nlaunch || k >= d->launch[d->nlaunch - 1].t.nhazard_rows)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetHazard: no row %u", k);
	h = &d->launch[d->nlaunch - 1].t.hazard_rows[k];
	memset(row, 0, sizeof *row);
	snprintf(row->producer, sizeof row->producer, "%s", h->producer);
	snprintf(row->consumer, sizeof row->consumer, "%s", h->consumer);
	row->latency = h->latency;
	row->stall = h->stall;
	row->count = h->count;
	row->producer_pc = h->producer_addr;
	row->consumer_pc = h->consumer_addr;
	return FIBER_SUCCESS;
}

fiberStatus
fiberPrintSummary(fiberDevice d, void *file)
{
	FILE *fp = file;
	const RtLaunch *l;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberPrintSummary: not a live device");
	if (!fp)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberPrintSummary: file is NULL");
	if (d->nlaunch == 0)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberPrintSummary: no launch yet");
	l = &d->launch[d->nlaunch - 1];
	fprintf(fp, "%s on %s (%s mode), grid %u,%u,%u block %u,%u,%u%s%s\n", l->kernel, l->config,
	        l->mode == FIBER_MODE_FUNCTIONAL ? "functional" : "timing", l->grid[0], l->grid[1],
	        l->grid[2], l->block[0], l->block[1], l->block[2], l->fault ? ": " : "",
	        l->fault ? sim_fault_name(l->fault) : "");
	if (l->mode == FIBER_MODE_FUNCTIONAL)
		fprintf(fp, "  %llu warp instructions, %llu thread instructions (no timing)\n",
		        (unsigned long long)l->t.warp_instructions,
		        (unsigned long long)l->t.thread_instructions);
	else
		summary_timing(fp, l);
	return ferror(fp) ? rt_err(d, FIBER_ERROR_IO, "fiberPrintSummary: cannot write") : FIBER_SUCCESS;
}
