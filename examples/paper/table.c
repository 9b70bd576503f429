/* table.c: `make paper-table` (docs/paper-table.md). Runs every workload x shape on each
 * generation's SIMT configuration (nvcc's SASS) and FIBER configuration (fiberc --mode=cuda-native
 * output), checks every output against its CPU reference, reads each run's statistics and writes
 * table.csv, table.json and table.svg into the output folder; prints the table and its legend.
 *
 *   paper_table [--quick] [--root DIR] [--fsass DIR] [--out DIR] [--only TEXT] [--gen LIST]
 *               [--corrupt]   (flips one output bit before each check: every row must fail)
 *
 * Exit status 0 when every row ran and verified, 1 otherwise (an unverified row), 2 on usage. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "paper.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* one generation: its SASS architecture and its two configurations */
typedef struct Gen {
	const char *name;             /* table's generation column: "a100" */
	const char *sm;               /* the listing's suffix: "sm_80" */
	const char *simt;             /* SIMT configuration */
	const char *fiber;            /* FIBER configuration */
	const char *weaker;           /* what the baseline lacks on this generation ("" none) */
} Gen;

/* the figures of one simulator run */
typedef struct Run {
	int ran;                      /* 1: the kernel loaded and the launch finished */
	int verified;                 /* 1: every output checked matched, and all were checked
	                                 (or, when sampled, every one the sample wrote) */
	double cycles;                /* kernel cycles (extrapolated when sampled) */
	double tc;                    /* tensor_utilization */
	double sync;                  /* barrier + sync + busy_wait + fiber_sync, share of the
	                                 non-idle CPI stack */
	double err;                   /* sampling.error_estimate, -1 when not sampled */
	double worst;                 /* largest error / tolerance */
	double coverage;              /* outputs checked / outputs of a complete run */
	double wall;                  /* seconds the run took on this host */
	unsigned long long setfibernum; /* fiber.setfibernum (FIBER runs) */
	unsigned long long busy;      /* fiber.busy_waits */
	unsigned long long pool;      /* fiber.remote_reads */
	char note[800];               /* why it did not run or verify, "" if it did */
} Run;

/* one row of the table */
typedef struct Row {
	const Work *w;                /* the workload */
	const Shape *s;               /* its shape */
	const Gen *g;                 /* the generation */
	Run simt;                     /* nvcc's SASS on the SIMT configuration */
	Run cnat;                     /* fiberc --mode=cuda-native on the FIBER configuration */
	const FiberWork *fw;          /* the FIBER-native version, NULL if none */
	Run fib;                      /* it, on the FIBER configuration */
	Run off[3];                   /* it under fiber_dp=0, fiber_fs=0, fiber_rs=0 */
	double band_lo, band_hi;      /* simt / fiber cycles over the assumed keys (knobs[]); NAN
	                                 unless every knob's run verified */
} Row;

typedef int (*RunFn)(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk);

/* the FIBER-native versions: a workload's first is its rows' unless --fiber STEM picks another
 * (a documented variant: docs/paper-table.md) */
static const FiberWork *const fiber_works[] = {&fiber_flash_decode_busy, &fiber_flash_decode};
static const char *fiber_pick;    /* --fiber STEM, NULL: each workload's first */

/* the ablations (docs/fiber-sm.md), in Row.off's order */
static const char *const ablations[] = {"fiber_dp=0", "fiber_fs=0", "fiber_rs=0"};

/* the FIBER SM's assumed keys ([A] in docs/fiber-sm.md), each moved one at a time as
 * scripts/fiber-sensitivity.sh moves them; icache_prefetch, a key of both SMs, is left out (its
 * band would need the SIMT run again at each setting) */
static const char *const knobs[] = {
	"fiber_xbar_latency=0", "fiber_xbar_latency=4", "fiber_xbar_width=2", "fiber_read_ports=2",
	"fiber_busy_wake=0", "fiber_busy_wake=4", "fiber_setfibernum_cycles=0",
	"fiber_setfibernum_cycles=48", "fiber_ctx_start_cycles=0", "fiber_ctx_start_cycles=4",
};

static const Gen gens[] = {
	{"a100", "sm_80", "a100", "a100-fiber", ""},
	{"h100", "sm_90", "h100", "h100-fiber",
	 "mma.sync baseline, weaker than FA3 and wgmma GEMMs (no wgmma, no TMA)"},
	{"b200", "sm_90", "b200", "b200-fiber",
	 "mma.sync baseline on sm_90 SASS, weaker than FA4 and tcgen05 GEMMs"},
};

/* Llama-2-7B shapes (docs/paper-table.md) and the QUICK=1 ones; arg as each workload reads it */
static const Shape s_prefill = {"prefill b1 s4096 h32/32", 0, {32, 32, 4096, 0}};
static const Shape s_prefill_c = {"prefill b1 s4096 h32/32 causal", 0, {32, 32, 4096, 1}};
static const Shape s_gqa = {"prefill b1 s4096 h32/8", 0, {32, 8, 4096, 0}};
static const Shape s_mqa = {"prefill b1 s4096 h32/1", 0, {32, 1, 4096, 0}};
static const Shape s_gateup_p = {"prefill M4096 N2x11008 K4096", 0, {4096, 22016, 4096, 1}};
static const Shape s_gateup_d = {"decode M16 N2x11008 K4096", 0, {16, 22016, 4096, 1}};
static const Shape s_down_p = {"prefill M4096 N4096 K11008", 0, {4096, 4096, 11008, 0}};
static const Shape s_down_d = {"decode M16 N4096 K11008", 0, {16, 4096, 11008, 0}};
static const Shape s_decode = {"decode b16 h32 kv4096 splits8", 0, {16, 32, 4096, 8}};
static const Shape s_proj_p = {"prefill M4096 N12288 K4096", 0, {4096, 12288, 4096}};
static const Shape s_proj_d = {"decode M16 N12288 K4096", 0, {16, 12288, 4096}};
static const Shape s_awq_p = {"prefill M4096 N11008 K4096", 0, {4096, 11008, 4096, 0, 1}};
static const Shape s_awq_d = {"decode M16 N11008 K4096", 0, {16, 11008, 4096, 0, 1}};
static const Shape s_aqlm_p = {"prefill M4096 N11008 K4096", 0, {4096, 11008, 4096}};
static const Shape s_aqlm_d = {"decode M16 N11008 K4096", 0, {16, 11008, 4096}};
static const Shape q_attn = {"quick s256 h2/2", 1, {2, 2, 256, 0}};
static const Shape q_attn_c = {"quick s256 h2/2 causal", 1, {2, 2, 256, 1}};
static const Shape q_gqa = {"quick s256 h4/2", 1, {4, 2, 256, 0}};
static const Shape q_mqa = {"quick s256 h4/1", 1, {4, 1, 256, 0}};
static const Shape q_gateup = {"quick M64 N2x128 K256", 1, {64, 256, 256, 1}};
static const Shape q_down = {"quick M16 N128 K384", 1, {16, 128, 384, 0}};
static const Shape q_proj = {"quick M200 N256 K192", 1, {200, 256, 192}};
static const Shape q_awq = {"quick M80 N256 K256", 1, {80, 256, 256, 0, 1}};
static const Shape q_aqlm = {"quick M72 N256 K256", 1, {72, 256, 256}};
static const Shape q_decode = {"quick b2 h2 kv256 splits4", 1, {2, 2, 256, 4}};

/* every row: workload and shape, in the table's order */
static const struct {
	const Work *w;                /* the workload */
	const Shape *s;               /* its shape */
} rows[] = {
	{&work_attn_fwd, &s_prefill},    {&work_attn_causal, &s_prefill_c},
	{&work_attn_gqa, &s_gqa},        {&work_attn_mqa, &s_mqa},
	{&work_w4a16_gateup, &s_gateup_p}, {&work_w4a16_gateup, &s_gateup_d},
	{&work_w4a16_down, &s_down_p},   {&work_w4a16_down, &s_down_d},
	{&work_awq, &s_awq_p},           {&work_awq, &s_awq_d},
	{&work_aqlm, &s_aqlm_p},         {&work_aqlm, &s_aqlm_d},
	{&work_flash_decode, &s_decode},
	{&work_proj, &s_proj_p},         {&work_proj, &s_proj_d},
	{&work_attn_fwd, &q_attn},       {&work_attn_causal, &q_attn_c},
	{&work_attn_gqa, &q_gqa},        {&work_attn_mqa, &q_mqa},
	{&work_w4a16_gateup, &q_gateup}, {&work_w4a16_down, &q_down},
	{&work_awq, &q_awq},             {&work_aqlm, &q_aqlm},
	{&work_flash_decode, &q_decode},  {&work_proj, &q_proj},
};

/* the fewest SMs a sampled launch simulates (--sample-sms; sample_sms() may take more): each runs
 * its whole share of the grid */
enum { SampleSms = 2 };

static uint64_t rng_state;
static int corrupt_flag;          /* --corrupt: every check must fail */

void
rng_seed(uint64_t seed)
{
	rng_state = seed * 6364136223846793005ull + 1442695040888963407ull;
}

float
rng_uniform(float lo, float hi)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return lo + (hi - lo) * (float)((rng_state >> 40) * (1.0 / 16777216.0));
}

uint16_t
f2h(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
	int ee = (int)e - 127 + 15;
	if (ee >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (ee <= 0) {
		if (ee < -10)
			return (uint16_t)sign;
		m |= 0x800000;
		int shift = 14 - ee;
		uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)ee << 10) | (m >> 13), rem = m & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

float
h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, x;
	float f;
	if (e == 0) {
		f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	if (e == 31)
		x = sign | 0x7f800000 | (m << 13);
	else
		x = sign | ((e - 15 + 127) << 23) | (m << 13);
	memcpy(&f, &x, 4);
	return f;
}

int
fail(fiberDevice dev, Check *chk, fiberStatus st, const char *what)
{
	fiberFault f;
	if (st == FIBER_ERROR_LAUNCH_FAILED && fiberGetLastFault(dev, &f) == FIBER_SUCCESS)
		snprintf(chk->fault, sizeof chk->fault, "%s: %s", what, f.message);
	else
		snprintf(chk->fault, sizeof chk->fault, "%s: %s: %s", what, fiberGetErrorString(st),
		         fiberGetLastErrorMessage(dev));
	return -1;
}

int
get_fn(fiberDevice dev, fiberModule mod, const char *name, fiberFunction *fn, Check *chk)
{
	fiberStatus st = fiberModuleGetFunction(fn, mod, name);
	return st ? fail(dev, chk, st, name) : 0;
}

/* the whole of a file, NUL-terminated; NULL if unreadable */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, fp) == (size_t)n)
		buf[n] = 0;
	else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* the number after "key": at or after from (inside the statistics JSON); NAN if none or null */
static double
jnum(const char *from, const char *key)
{
	char pat[80];
	const char *p;
	char *end;
	snprintf(pat, sizeof pat, "\"%s\": ", key);
	if (!from || !(p = strstr(from, pat)))
		return NAN;
	p += strlen(pat);
	double v = strtod(p, &end);
	return end == p ? NAN : v;
}

/* the figures of the launches in a statistics file: cycles summed; tensor utilisation and the
 * sync share weighted by each launch's cycles; the largest sampling error; FIBER counts summed */
static void
read_stats(const char *path, Run *r)
{
	char *js = slurp(path);
	const char *k = js ? strstr(js, "\"kernels\"") : NULL;
	static const char *const sync_keys[] = {"barrier", "sync", "busy_wait", "fiber_sync"};
	double tc = 0, syn = 0;

	r->cycles = 0;
	r->err = -1;
	for (const char *p = k ? strstr(k, "\"fault\": ") : NULL; p; p = strstr(p + 1, "\"fault\": ")) {
		const char *cpi = strstr(p, "\"cpi_stack_fraction\"");
		const char *next = strstr(p + 1, "\"fault\": ");
		const char *fb = strstr(p, "\"fiber\": {");
		double cyc = jnum(p, "cycles"), idle = jnum(cpi, "idle"), sy = 0;
		double err = jnum(p, "error_estimate");
		for (size_t i = 0; i < sizeof sync_keys / sizeof *sync_keys; i++)
			sy += jnum(cpi, sync_keys[i]);
		/* tensor_utilization divides by every SM; a --sample-sms run simulated only some */
		double sms = jnum(p, "sms"), ssms = jnum(p, "sample_sms");
		double tcs = ssms > 0 && sms > ssms ? sms / ssms : 1;
		r->cycles += cyc;
		tc += cyc * tcs * jnum(p, "tensor_utilization");
		syn += idle < 1 ? cyc * sy / (1 - idle) : 0;
		if (err == err && err > r->err)
			r->err = err;
		if (fb && (!next || fb < next)) {
			r->setfibernum += (unsigned long long)jnum(fb, "setfibernum");
			r->busy += (unsigned long long)jnum(fb, "busy_waits");
			r->pool += (unsigned long long)jnum(fb, "remote_reads");
		}
	}
	r->tc = r->cycles > 0 ? tc / r->cycles : NAN;
	r->sync = r->cycles > 0 ? syn / r->cycles : NAN;
	if (!(r->cycles > 0))
		snprintf(r->note, sizeof r->note, "no statistics in %s", path);
	free(js);
}

/* SMs to simulate for a grid of ctas on sms SMs: the fewest, from SampleSms on, whose share
 * (ceil(ctas x m / sms) CTAs over m SMs) puts on its busiest SM as many CTAs as the full GPU's
 * busiest SM gets, so the sample runs the full run's waves; 0 (no sampling) if none up to 16 */
static unsigned
sample_sms(uint64_t ctas, uint64_t sms)
{
	for (uint64_t m = SampleSms; m <= 16 && m < sms; m++) {
		uint64_t share = (ctas * m + sms - 1) / sms;
		if ((share + m - 1) / m == (ctas + sms - 1) / sms)
			return (unsigned)m;
	}
	return 0;
}

/* run a workload's launches (run) at shape s from the listing file on configuration config with
 * the setting set ("key=value", or NULL), sampled when its grid (ctas) is larger than the GPU;
 * ctas = 0: a persistent kernel (one CTA per SM, each looping over its items), sampled at a paper
 * shape on SampleSms SMs, which run their CTAs' items (docs/paper-table.md) */
static void
run_with(RunFn run, uint64_t ctas, const Shape *s, const char *file, const char *config,
         const char *set, const char *json, Run *r)
{
	fiberDevice dev = NULL;
	fiberModule mod;
	fiberDeviceProps props;
	fiberStatus st;
	Check chk;
	struct timespec t0, t1;

	memset(r, 0, sizeof *r);
	memset(&chk, 0, sizeof chk);
	chk.corrupt = corrupt_flag;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((st = fiberDeviceCreate(&dev, config))) {
		snprintf(r->note, sizeof r->note, "%s: %s", config, fiberGetLastErrorMessage(NULL));
		return;
	}
	fiberDeviceGetProperties(dev, &props);
	if (!s->quick && ctas > (uint64_t)props.sm_count)
		fiberDeviceSetSampling(dev, sample_sms(ctas, (uint64_t)props.sm_count), 0);
	else if (!s->quick && !ctas)
		fiberDeviceSetSampling(dev, SampleSms, 0);
	if (set && (st = fiberDeviceSetConfigValue(dev, set))) {
		snprintf(r->note, sizeof r->note, "%s: %s", set, fiberGetLastErrorMessage(dev));
		fiberDeviceDestroy(dev);
		return;
	}
	if ((st = fiberModuleLoadFile(&mod, dev, file))) {
		snprintf(r->note, sizeof r->note, "%s: %s", file, fiberGetLastErrorMessage(dev));
		fiberDeviceDestroy(dev);
		return;
	}
	if (run(dev, mod, s, &chk) == 0) {
		r->ran = 1;
		if (fiberWriteStatsJSON(dev, json) == FIBER_SUCCESS)
			read_stats(json, r);
		else
			snprintf(r->note, sizeof r->note, "writing %s failed", json);
	} else
		snprintf(r->note, sizeof r->note, "%s", chk.fault);
	fiberDeviceDestroy(dev);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	r->worst = chk.worst;
	r->coverage = chk.expected ? (double)chk.checked / (double)chk.expected : 0;
	if (!r->ran || r->note[0])
		return;
	if (chk.bad)
		snprintf(r->note, sizeof r->note, "%llu of %llu outputs outside the tolerance (worst %.3g)",
		         (unsigned long long)chk.bad, (unsigned long long)chk.checked, chk.worst);
	else if (!chk.checked || (r->err < 0 && chk.checked != chk.expected))
		snprintf(r->note, sizeof r->note, "%llu of %llu outputs written",
		         (unsigned long long)chk.checked, (unsigned long long)chk.expected);
	else
		r->verified = 1;
}

/* the SIMT baseline w at shape s */
static void
run_one(const Work *w, const Shape *s, const char *file, const char *config, const char *json,
        Run *r)
{
	run_with(w->run, w->ctas(s), s, file, config, NULL, json, r);
}

/* the FIBER-native version of workload w: the one whose listing FILE is (its stem begins the
 * file's name) when FILE is given, else the one --fiber names, else the workload's first */
static const FiberWork *
fiber_work_of(const Work *w, const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;
	const FiberWork *first = NULL;

	base = base ? base + 1 : file;
	for (size_t i = 0; i < sizeof fiber_works / sizeof *fiber_works; i++) {
		const FiberWork *fw = fiber_works[i];
		size_t n = strlen(fw->stem);
		if (fw->w != w)
			continue;
		if (base && !strncmp(base, fw->stem, n) && base[n] == '.')
			return fw;
		if (!base && fiber_pick && !strcmp(fw->stem, fiber_pick))
			return fw;
		if (!first)
			first = fw;
	}
	return base || fiber_pick ? NULL : first;
}

/* the FIBER-native version of row r, if it has one: the run, its ablations and the band over
 * the assumed keys (a persistent kernel: at most one CTA per SM, never sampled) */
static void
run_fiber(Row *r, const char *fsdir, const char *out, size_t n)
{
	char file[600], json[600];
	double lo = INFINITY, hi = 0;

	r->band_lo = r->band_hi = NAN;
	r->fw = fiber_work_of(r->w, NULL);
	if (!r->fw)
		return;
	snprintf(file, sizeof file, "%s/%s.%s.fsass", fsdir, r->fw->stem, r->g->sm);
	snprintf(json, sizeof json, "%s/run%zu.fiber.json", out, n);
	run_with(r->fw->run, 0, r->s, file, r->g->fiber, NULL, json, &r->fib);
	if (!r->fib.verified)
		return;
	for (size_t a = 0; a < 3; a++) {
		snprintf(json, sizeof json, "%s/run%zu.fiber-off%zu.json", out, n, a);
		run_with(r->fw->run, 0, r->s, file, r->g->fiber, ablations[a], json, &r->off[a]);
	}
	lo = hi = r->fib.cycles;
	for (size_t k = 0; k < sizeof knobs / sizeof *knobs; k++) {
		Run kr;
		snprintf(json, sizeof json, "%s/run%zu.fiber-knob.json", out, n);
		run_with(r->fw->run, 0, r->s, file, r->g->fiber, knobs[k], json, &kr);
		if (!kr.verified)
			return;
		lo = fmin(lo, kr.cycles);
		hi = fmax(hi, kr.cycles);
	}
	remove(json);
	if (r->simt.verified) {
		r->band_lo = r->simt.cycles / hi;
		r->band_hi = r->simt.cycles / lo;
	}
}

/* a number, or an empty field when x is NAN or negative */
static void
put_num(FILE *fp, double x, const char *fmt)
{
	if (x == x && x >= 0)
		fprintf(fp, fmt, x);
}

/* a CSV field: quoted when it holds a comma or a quote */
static void
put_str(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* a JSON string */
static void
put_jstr(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, fp);
	}
	fputc('"', fp);
}

/* the baseline label of a row: the workload's, and what it lacks on this generation */
static void
label(const Row *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", r->w->label, r->g->weaker[0] ? "; " : "", r->g->weaker);
}

static const char *const columns =
	"workload,shape,generation,baseline_label,simt_cycles,simt_verified,cuda_native_cycles,"
	"fiber_cycles,fiber_verified,speedup,paper_speedup,dp_off_cycles,fs_off_cycles,"
	"rs_off_cycles,tc_utilisation,sync_cpi_share,setfibernum_ops,busy_bit_ops,pool_reads,"
	"band_low,band_high,sampling_error";

/* table.csv: one line per row, the columns above; unfilled columns empty (the legend says why) */
static void
write_csv(FILE *fp, const Row *t, size_t n)
{
	char lab[400];
	fprintf(fp, "%s\n", columns);
	for (size_t i = 0; i < n; i++) {
		const Row *r = &t[i];
		label(r, lab, sizeof lab);
		put_str(fp, r->w->workload);
		fputc(',', fp);
		put_str(fp, r->s->name);
		fprintf(fp, ",%s,", r->g->name);
		put_str(fp, lab);
		fputc(',', fp);
		if (r->simt.ran)
			put_num(fp, r->simt.cycles, "%.0f");
		fprintf(fp, ",%s,", r->simt.verified ? "yes" : "no");
		if (r->cnat.verified)
			put_num(fp, r->cnat.cycles, "%.0f");
		/* fiber_cycles .. rs_off_cycles: empty without a FIBER-native version */
		fputc(',', fp);
		if (r->fib.verified)
			put_num(fp, r->fib.cycles, "%.0f");
		fprintf(fp, ",%s,", r->fw ? (r->fib.verified ? "yes" : "no") : "");
		if (r->fib.verified && r->simt.verified)
			put_num(fp, r->simt.cycles / r->fib.cycles, "%.4f");
		fprintf(fp, ",%s,", r->w->paper[r->g - gens]);
		for (size_t a = 0; a < 3; a++) {
			if (r->off[a].ran)
				put_num(fp, r->off[a].cycles, "%.0f");
			fputc(',', fp);
		}
		if (r->simt.verified) {
			put_num(fp, r->simt.tc, "%.4f");
			fputc(',', fp);
			put_num(fp, r->simt.sync, "%.4f");
		} else
			fputc(',', fp);
		/* setfibernum_ops .. band_high: FIBER-native only */
		if (r->fib.verified)
			fprintf(fp, ",%llu,%llu,%llu,", r->fib.setfibernum, r->fib.busy, r->fib.pool);
		else
			fprintf(fp, ",,,,");
		put_num(fp, r->band_lo, "%.4f");
		fputc(',', fp);
		put_num(fp, r->band_hi, "%.4f");
		fputc(',', fp);
		if (r->simt.err >= 0)
			fprintf(fp, "%.4f", r->simt.err);
		fputc('\n', fp);
	}
}

/* one run as a JSON object */
static void
json_run(FILE *fp, const char *name, const Run *r)
{
	fprintf(fp, "\"%s\": {\"ran\": %s, \"verified\": %s, ", name, r->ran ? "true" : "false",
	        r->verified ? "true" : "false");
	if (r->ran)
		fprintf(fp, "\"cycles\": %.0f, \"tc_utilisation\": %.6f, \"sync_cpi_share\": %.6f, "
		        "\"sampling_error\": %.6f, \"worst_error_over_tolerance\": %.6f, "
		        "\"coverage\": %.6f, \"wall_seconds\": %.2f, \"setfibernum\": %llu, "
		        "\"busy_waits\": %llu, \"remote_reads\": %llu, ",
		        r->cycles, r->tc == r->tc ? r->tc : 0, r->sync == r->sync ? r->sync : 0,
		        r->err, r->worst, r->coverage, r->wall, r->setfibernum, r->busy, r->pool);
	fprintf(fp, "\"note\": ");
	put_jstr(fp, r->note);
	fputc('}', fp);
}

static void
write_json(FILE *fp, const Row *t, size_t n, int quick)
{
	char lab[400];
	fprintf(fp, "{\"quick\": %s, \"sample_sms\": %d, \"rows\": [\n", quick ? "true" : "false",
	        SampleSms);
	for (size_t i = 0; i < n; i++) {
		const Row *r = &t[i];
		label(r, lab, sizeof lab);
		fprintf(fp, "  {\"workload\": ");
		put_jstr(fp, r->w->workload);
		fprintf(fp, ", \"shape\": ");
		put_jstr(fp, r->s->name);
		fprintf(fp, ", \"generation\": \"%s\", \"baseline_label\": ", r->g->name);
		put_jstr(fp, lab);
		fprintf(fp, ", \"paper_speedup\": ");
		put_jstr(fp, r->w->paper[r->g - gens]);
		fprintf(fp, ",\n   ");
		json_run(fp, "simt", &r->simt);
		fprintf(fp, ",\n   ");
		json_run(fp, "cuda_native", &r->cnat);
		if (!r->fw) {
			fprintf(fp, ",\n   \"fiber_native\": null, \"fiber_native_note\": \"no FIBER-"
			        "native version yet (docs/paper-table.md)\"}%s\n", i + 1 < n ? "," : "");
			continue;
		}
		fprintf(fp, ",\n   \"fiber_native_design\": ");
		put_jstr(fp, r->fw->design);
		fprintf(fp, ",\n   ");
		json_run(fp, "fiber_native", &r->fib);
		for (size_t a = 0; a < 3; a++) {
			fprintf(fp, ",\n   ");
			json_run(fp, ablations[a], &r->off[a]);
		}
		fprintf(fp, ",\n   \"band\": [%.6f, %.6f]}%s\n", r->band_lo == r->band_lo ? r->band_lo : 0,
		        r->band_hi == r->band_hi ? r->band_hi : 0, i + 1 < n ? "," : "");
	}
	fprintf(fp, "]}\n");
}

/* table.svg: per row, SIMT cycles / CUDA-native cycles (1 = no change) as a bar, the paper's
 * speedup where it states one as a tick */
static void
write_svg(FILE *fp, const Row *t, size_t n)
{
	const int left = 360, width = 420, rowh = 18, top = 40;
	double hi = 2.0;
	for (size_t i = 0; i < n; i++)
		if (t[i].simt.verified && t[i].cnat.verified && t[i].simt.cycles / t[i].cnat.cycles > hi)
			hi = t[i].simt.cycles / t[i].cnat.cycles;
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
	        "font-family=\"sans-serif\" font-size=\"11\">\n", left + width + 60,
	        (size_t)top + n * rowh + 40);
	fprintf(fp, "<text x=\"10\" y=\"18\" font-size=\"13\">SIMT cycles / CUDA-native cycles on the "
	        "FIBER SM (blue bars), / FIBER-native cycles where a version exists (orange); the "
	        "paper's FIBER-native speedup (ticks)</text>\n");
	double x1 = left + width / hi;
	fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%zu\" stroke=\"#888\" "
	        "stroke-dasharray=\"3,3\"/>\n<text x=\"%.1f\" y=\"%d\">1.0</text>\n", x1, top - 8, x1,
	        top + n * rowh, x1 - 8, top - 10);
	for (size_t i = 0; i < n; i++) {
		const Row *r = &t[i];
		int y = top + (int)i * rowh;
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 6, y + 12);
		fprintf(fp, "%s, %s, %s</text>\n", r->w->workload, r->s->name, r->g->name);
		if (r->simt.verified && r->cnat.verified) {
			double v = r->simt.cycles / r->cnat.cycles;
			fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4c78a8\"/>"
			        "<text x=\"%.1f\" y=\"%d\">%.3f</text>\n", left, y + 2, width * v / hi,
			        rowh - 4, left + width * v / hi + 4, y + 12, v);
		} else
			fprintf(fp, "<text x=\"%d\" y=\"%d\" fill=\"#c00\">not verified</text>\n", left,
			        y + 12);
		if (r->simt.verified && r->fib.verified) {
			double v = fmin(r->simt.cycles / r->fib.cycles, hi);
			fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"4\" fill=\"#f58518\">"
			        "<title>FIBER-native %.3f</title></rect>\n", left, y + rowh - 6,
			        width * v / hi, r->simt.cycles / r->fib.cycles);
		}
		double p = atof(r->w->paper[r->g - gens]);
		if (p > 0)
			fprintf(fp, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e45756\" "
			        "stroke-width=\"2\"/>\n", left + width * fmin(p, hi) / hi, y, left +
			        width * fmin(p, hi) / hi, y + rowh);
	}
	fprintf(fp, "</svg>\n");
}

/* write through a temporary file and rename */
static int
write_file(const char *dir, const char *name, void (*fn)(FILE *, const Row *, size_t),
           const Row *t, size_t n)
{
	char path[600], tmp[620];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		fprintf(stderr, "paper_table: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	fn(fp, t, n);
	if (fclose(fp) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "paper_table: %s: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int quick_flag;

static void
json_quick(FILE *fp, const Row *t, size_t n)
{
	write_json(fp, t, n, quick_flag);
}

/* --- the table through `fibersim sweep` (docs/paper-table.md): --spec writes the points as a
 * sweep spec whose program is this harness in --point mode; --collect reads the points back ---- */

/* s with every run of characters other than letters and digits made one '_' */
static void
sanitize(const char *s, char *buf, size_t n)
{
	size_t k = 0;
	for (; *s && k + 1 < n; s++) {
		int ok = ('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9');
		if (ok)
			buf[k++] = *s;
		else if (k && buf[k - 1] != '_')
			buf[k++] = '_';
	}
	while (k && buf[k - 1] == '_')
		k--;
	buf[k] = 0;
}

/* the sweep's workload of row r: "WORKLOAD.SHAPE", sanitized */
static void
wl_name(const Row *r, char *buf, size_t n)
{
	char a[200], b[200];
	sanitize(r->w->workload, a, sizeof a);
	sanitize(r->s->name, b, sizeof b);
	snprintf(buf, n, "%s.%s", a, b);
}

/* the sweep's point of row r's run kind ("simt", "cuda-native", "fiber", an ablation or
 * "knob-KEY=VALUE"): "WORKLOAD.SHAPE.GEN.KIND" */
static void
point_name(const Row *r, const char *kind, char *buf, size_t n)
{
	char wl[420];
	wl_name(r, wl, sizeof wl);
	snprintf(buf, n, "%s.%s.%s", wl, r->g->name, kind);
}

/* a spec word in quotes */
static void
put_sw(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* the spec of rows t[0..n): one workload per workload x shape, one config per run kind (the
 * generation an axis, so every point's baseline is its row's SIMT point), one point per run */
static void
spec_body(FILE *fp, const Row *t, size_t n, const char *root, const char *fsdir, const char *prog)
{
	char wl[420], pn[600];
	fprintf(fp, "# the paper table's points (docs/paper-table.md), written by paper_table --spec;\n"
	        "# each runs `paper_table --point`: one launch, checked against its CPU reference\n"
	        "sweep paper-table%s\nprogram %s --point\nbaseline simt\n", quick_flag ? "-quick" : "",
	        prog);
	fprintf(fp, "param gen");         /* each point sets both axes */
	for (size_t i = 0; i < n; i++)
		if (i == 0 || t[i].g != t[0].g)
			fprintf(fp, " %s", t[i].g->name);
		else
			break;
	fprintf(fp, "\nparam sm");
	for (size_t g = 0; g < sizeof gens / sizeof *gens; g++) {
		size_t k = 0;
		while (k < g && strcmp(gens[k].sm, gens[g].sm))
			k++;
		if (k == g)
			fprintf(fp, " %s", gens[g].sm);
	}
	fprintf(fp, "\nconfig simt file=%s/examples/paper/${stem}.${sm}.sass --config ${gen}\n", root);
	fprintf(fp, "config cuda-native file=%s/${stem}.${sm}.fsass --config ${gen}-fiber\n", fsdir);
	fprintf(fp, "config fiber file=%s/${fstem}.${sm}.fsass --config ${gen}-fiber --fiber-native\n",
	        fsdir);
	for (size_t a = 0; a < 3; a++)
		fprintf(fp, "config %s file=%s/${fstem}.${sm}.fsass --config ${gen}-fiber --fiber-native "
		        "--set %s\n", ablations[a], fsdir, ablations[a]);
	for (size_t k = 0; k < sizeof knobs / sizeof *knobs; k++)
		fprintf(fp, "config knob-%s file=%s/${fstem}.${sm}.fsass --config ${gen}-fiber "
		        "--fiber-native --set %s\n", knobs[k], fsdir, knobs[k]);
	for (size_t i = 0; i < n; i++) {
		if (i && t[i].w == t[i - 1].w && t[i].s == t[i - 1].s)
			continue;             /* the rows of one workload x shape are adjacent */
		wl_name(&t[i], wl, sizeof wl);
		fprintf(fp, "workload %s stem=%s", wl, t[i].w->stem);
		if (t[i].fw)
			fprintf(fp, " fstem=%s", t[i].fw->stem);
		fprintf(fp, " ${file} --workload ");
		put_sw(fp, t[i].w->workload);
		fprintf(fp, " --shape ");
		put_sw(fp, t[i].s->name);
		fprintf(fp, "%s\n", corrupt_flag ? " --corrupt" : "");
	}
	for (size_t i = 0; i < n; i++) {
		const Row *r = &t[i];
		const char *kinds[3 + 3 + sizeof knobs / sizeof *knobs];
		char kb[sizeof knobs / sizeof *knobs][80];
		size_t nk = 0;
		kinds[nk++] = "simt";
		kinds[nk++] = "cuda-native";
		if (r->fw) {
			kinds[nk++] = "fiber";
			for (size_t a = 0; a < 3; a++)
				kinds[nk++] = ablations[a];
			for (size_t k = 0; k < sizeof knobs / sizeof *knobs; k++) {
				snprintf(kb[k], sizeof kb[k], "knob-%s", knobs[k]);
				kinds[nk++] = kb[k];
			}
		}
		wl_name(r, wl, sizeof wl);
		for (size_t k = 0; k < nk; k++) {
			point_name(r, kinds[k], pn, sizeof pn);
			fprintf(fp, "point %s %s %s gen=%s sm=%s\n", pn, wl, kinds[k], r->g->name, r->g->sm);
		}
	}
}

static const char *spec_root, *spec_fsdir, *spec_prog;  /* --root, --fsass, --program */

static void
spec_file(FILE *fp, const Row *t, size_t n)
{
	spec_body(fp, t, n, spec_root, spec_fsdir, spec_prog);
}

/* a JSON string's text after "key": at or after from, unescaped into buf; 0 if none */
static int
jstr(const char *from, const char *key, char *buf, size_t n)
{
	char pat[80];
	const char *p;
	size_t k = 0;
	snprintf(pat, sizeof pat, "\"%s\": \"", key);
	if (!from || !(p = strstr(from, pat)))
		return 0;
	for (p += strlen(pat); *p && *p != '"' && k + 1 < n; p++)
		buf[k++] = *p == '\\' && p[1] ? *++p : *p;
	buf[k] = 0;
	return 1;
}

/* "key": true at or after from */
static int
jtrue(const char *from, const char *key)
{
	char pat[80];
	snprintf(pat, sizeof pat, "\"%s\": true", key);
	return from && strstr(from, pat) != NULL;
}

/* --point: the statistics file json gets the check's outcome as its first member, "paper_check"
 * (written alone when the launch did not run); through a temporary file and rename */
static int
write_check(const char *json, const Run *r)
{
	char tmp[620], *js = r->ran ? slurp(json) : NULL, *open = js ? strchr(js, '{') : NULL;
	FILE *fp;
	snprintf(tmp, sizeof tmp, "%s.tmp", json);
	if (!(fp = fopen(tmp, "w"))) {
		free(js);
		return -1;
	}
	fprintf(fp, "{\"paper_check\": {\"ran\": %s, \"verified\": %s, \"worst\": %.6g, "
	        "\"coverage\": %.6f, \"wall_seconds\": %.3f, \"note\": ", r->ran ? "true" : "false",
	        r->verified ? "true" : "false", r->worst, r->coverage, r->wall);
	put_jstr(fp, r->note);
	fprintf(fp, "}%s%s", open ? "," : "}\n", open ? open + 1 : "");
	free(js);
	if (fclose(fp) != 0 || rename(tmp, json) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

/* paper_table --point FILE --workload W --shape S --config C [--fiber-native] [--set K=V]
 * [--corrupt] [--quiet] --stats JSON: one launch of a sweep point. Exit 0 verified, 4 ran but
 * not verified, 1 did not run, 2 usage; the reason is the last line on standard error */
static int
point_main(int argc, char **argv)
{
	const char *file = NULL, *wn = NULL, *sn = NULL, *config = NULL, *set = NULL, *json = NULL;
	int native = 0;
	Run r;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--fiber-native"))
			native = 1;
		else if (!strcmp(argv[i], "--corrupt"))
			corrupt_flag = 1;
		else if (!strcmp(argv[i], "--quiet"))
			;
		else if (i + 1 < argc && !strcmp(argv[i], "--workload"))
			wn = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--shape"))
			sn = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--config"))
			config = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--set") && !set)
			set = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--stats"))
			json = argv[++i];
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else {
			fprintf(stderr, "paper_table: --point: unexpected '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!file || !wn || !sn || !config || !json) {
		fprintf(stderr, "usage: paper_table --point FILE --workload W --shape S --config C "
		        "[--fiber-native] [--set KEY=VALUE] [--corrupt] --stats JSON\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const Work *w = rows[i].w;
		const FiberWork *fw = NULL;
		if (strcmp(w->workload, wn) || strcmp(rows[i].s->name, sn))
			continue;
		fw = fiber_work_of(w, file);
		if (native && !fw)
			break;
		if (native)
			run_with(fw->run, 0, rows[i].s, file, config, set, json, &r);
		else
			run_with(w->run, w->ctas(rows[i].s), rows[i].s, file, config, set, json, &r);
		if (write_check(json, &r) < 0) {
			fprintf(stderr, "paper_table: %s: %s\n", json, strerror(errno));
			return 1;
		}
		if (!r.verified)
			fprintf(stderr, "paper_table: %s\n", r.note[0] ? r.note : "not verified");
		return r.verified ? 0 : r.ran ? 4 : 1;
	}
	fprintf(stderr, "paper_table: no %srow '%s', '%s'\n", native ? "FIBER-native " : "", wn, sn);
	return 1;
}

/* --collect: run kind of row r from the sweep in dir: the check's outcome and the figures of its
 * statistics (read as run_with reads them); a point without a result says why */
static void
collect_run(const Row *row, const char *kind, const char *dir, Run *r)
{
	char pn[600], path[1300], *js, *c;
	memset(r, 0, sizeof *r);
	point_name(row, kind, pn, sizeof pn);
	snprintf(path, sizeof path, "%s/points/%s.json", dir, pn);
	if (!(js = slurp(path)) || !(c = strstr(js, "\"paper_check\": {"))) {
		free(js);
		snprintf(path, sizeof path, "%s/points/%s.rec", dir, pn);
		js = slurp(path);
		if (!jstr(js, "error", r->note, sizeof r->note))
			snprintf(r->note, sizeof r->note, "no result for point %s in %s", pn, dir);
		free(js);
		return;
	}
	r->ran = jtrue(c, "ran");
	if (r->ran)
		read_stats(path, r);
	r->verified = jtrue(c, "verified");
	r->worst = jnum(c, "worst");
	r->coverage = jnum(c, "coverage");
	r->wall = jnum(c, "wall_seconds");
	jstr(c, "note", r->note, sizeof r->note);
	free(js);
}

/* --collect: row r's runs from the sweep, with run_fiber's rules: the ablations count only when
 * the FIBER-native run verified, the band only when every knob's run did */
static void
collect_row(Row *r, const char *dir)
{
	double lo, hi;
	collect_run(r, "simt", dir, &r->simt);
	collect_run(r, "cuda-native", dir, &r->cnat);
	r->band_lo = r->band_hi = NAN;
	if (!r->fw)
		return;
	collect_run(r, "fiber", dir, &r->fib);
	if (!r->fib.verified)
		return;
	for (size_t a = 0; a < 3; a++)
		collect_run(r, ablations[a], dir, &r->off[a]);
	lo = hi = r->fib.cycles;
	for (size_t k = 0; k < sizeof knobs / sizeof *knobs; k++) {
		char kind[80];
		Run kr;
		snprintf(kind, sizeof kind, "knob-%s", knobs[k]);
		collect_run(r, kind, dir, &kr);
		if (!kr.verified)
			return;
		lo = fmin(lo, kr.cycles);
		hi = fmax(hi, kr.cycles);
	}
	if (r->simt.verified) {
		r->band_lo = r->simt.cycles / hi;
		r->band_hi = r->simt.cycles / lo;
	}
}

/* the printed table and its legend */
static void
print_table(const Row *t, size_t n, double wall)
{
	printf("%-28s %-32s %-5s %12s %4s %12s %6s %7s %6s %6s %7s\n", "workload", "shape", "gen",
	       "simt_cycles", "ok", "cuda_native", "ratio", "paper", "tc", "sync", "sample");
	for (size_t i = 0; i < n; i++) {
		const Row *r = &t[i];
		char cn[24] = "-", ratio[16] = "-", err[16] = "-";
		if (r->cnat.verified) {
			snprintf(cn, sizeof cn, "%.0f", r->cnat.cycles);
			snprintf(ratio, sizeof ratio, "%.3f", r->simt.cycles / r->cnat.cycles);
		}
		if (r->simt.err >= 0)
			snprintf(err, sizeof err, "%.1f%%", 100 * r->simt.err);
		printf("%-28s %-32s %-5s %12.0f %4s %12s %6s %7s %6.3f %6.3f %7s\n", r->w->workload,
		       r->s->name, r->g->name, r->simt.ran ? r->simt.cycles : 0.0,
		       r->simt.verified ? "yes" : "NO", cn, ratio,
		       r->w->paper[r->g - gens][0] ? r->w->paper[r->g - gens] : "-",
		       r->simt.tc, r->simt.sync, err);
		if (r->simt.note[0])
			printf("    SIMT: %s\n", r->simt.note);
		if (r->cnat.note[0])
			printf("    CUDA-native: %s\n", r->cnat.note);
		if (r->fw && r->fib.verified)
			printf("    FIBER-native: %.0f cycles, speedup %.3f (band %.3f-%.3f), DP/FS/RS "
			       "off %.0f/%.0f/%.0f, setfibernum %llu, busy waits %llu, remote reads %llu\n",
			       r->fib.cycles, r->simt.cycles / r->fib.cycles, r->band_lo, r->band_hi,
			       r->off[0].cycles, r->off[1].cycles, r->off[2].cycles, r->fib.setfibernum,
			       r->fib.busy, r->fib.pool);
		else if (r->fw)
			printf("    FIBER-native: %s\n", r->fib.note[0] ? r->fib.note : "not verified");
	}
	printf("legend: simt_cycles from nvcc's SASS on the SIMT model (a100/h100/b200), verified "
	       "against a CPU reference in this run;\n"
	       "  cuda_native: fiberc --mode=cuda-native of the same SASS on the FIBER model "
	       "(X-fiber), verified too; ratio = simt / cuda_native;\n"
	       "  tc, sync: the SIMT run's tensor utilisation and its barrier+sync share of the "
	       "non-idle CPI stack;\n"
	       "  sample: whole waves on >= %d SMs (--sample-sms), the simulator's error estimate "
	       "(docs/sim-timing.md); '-' = the whole grid ran;\n"
	       "  FIBER-native (FlashDecoding only; the other rows have none yet, their FIBER columns "
	       "empty: docs/paper-table.md):\n"
	       "  speedup = simt / fiber cycles, verified against the same reference; DP/FS/RS off: "
	       "fiber_dp/fs/rs=0; band: the speedup over the\n"
	       "  FIBER SM's assumed keys moved one at a time (docs/fiber-sm.md); paper_speedup is "
	       "the paper's figure, for comparison only.\n"
	       "wall time %.1f s\n", SampleSms, wall);
}

static int
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: paper_table [--quick] [--root DIR] [--fsass DIR] [--out DIR] "
	        "[--only TEXT] [--gen a100,h100,b200] [--fiber STEM] [--corrupt]\n"
	        "                   [--spec FILE [--program PATH] | --collect SWEEPDIR]\n"
	        "       paper_table --point FILE --workload W --shape S --config C [--fiber-native] "
	        "[--set KEY=VALUE] --stats JSON\n");
	return status;
}

int
main(int argc, char **argv)
{
	const char *root = ".", *fsdir = "build/paper", *out = "build/paper", *only = NULL;
	const char *genlist = "a100,h100,b200", *spec = NULL, *sweep = NULL, *prog = argv[0];
	Row *t;
	size_t n = 0, bad = 0;
	struct timespec t0, t1;

	if (argc > 1 && !strcmp(argv[1], "--point"))
		return point_main(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick_flag = 1;
		else if (!strcmp(argv[i], "--corrupt"))
			corrupt_flag = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "--root"))
			root = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--fsass"))
			fsdir = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--out"))
			out = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--only"))
			only = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--gen"))
			genlist = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--fiber"))
			fiber_pick = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--spec"))
			spec = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--program"))
			prog = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--collect"))
			sweep = argv[++i];
		else if (!strcmp(argv[i], "--help"))
			return usage(stdout, 0);
		else
			return usage(stderr, 2);
	}
	t = calloc(sizeof rows / sizeof *rows * 3, sizeof *t);
	if (!t)
		return 1;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (rows[i].s->quick != quick_flag || (only && !strstr(rows[i].w->workload, only)))
			continue;
		for (size_t g = 0; g < sizeof gens / sizeof *gens; g++) {
			if (!strstr(genlist, gens[g].name))
				continue;
			t[n].w = rows[i].w;
			t[n].s = rows[i].s;
			t[n].g = &gens[g];
			t[n].fw = fiber_work_of(rows[i].w, NULL);
			n++;
		}
	}
	if (spec) {
		/* the spec's configurations name ${gen} and ${gen}-fiber */
		for (size_t g = 0; g < sizeof gens / sizeof *gens; g++)
			if (strcmp(gens[g].simt, gens[g].name) || strncmp(gens[g].fiber, gens[g].name,
			    strlen(gens[g].name)) || strcmp(gens[g].fiber + strlen(gens[g].name), "-fiber"))
				abort();
		spec_root = root, spec_fsdir = fsdir, spec_prog = prog;
		const char *base = strrchr(spec, '/');
		char dir[600];
		snprintf(dir, sizeof dir, "%.*s", base ? (int)(base - spec) : 1, base ? spec : ".");
		int rc = n ? write_file(dir, base ? base + 1 : spec, spec_file, t, n) : -1;
		if (!n)
			fprintf(stderr, "paper_table: no rows (--only, --gen): no spec written\n");
		free(t);
		return rc ? 1 : 0;
	}
	mkdir(out, 0777);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		char file[600], json[600];
		Row *r = &t[i];
		if (sweep)
			collect_row(r, sweep);
		else {
			snprintf(file, sizeof file, "%s/examples/paper/%s.%s.sass", root, r->w->stem,
			         r->g->sm);
			snprintf(json, sizeof json, "%s/run%zu.simt.json", out, i);
			run_one(r->w, r->s, file, r->g->simt, json, &r->simt);
			snprintf(file, sizeof file, "%s/%s.%s.fsass", fsdir, r->w->stem, r->g->sm);
			snprintf(json, sizeof json, "%s/run%zu.cuda-native.json", out, i);
			run_one(r->w, r->s, file, r->g->fiber, json, &r->cnat);
			run_fiber(r, fsdir, out, i);
		}
		int ok = r->simt.verified && r->cnat.verified && (!r->fw || r->fib.verified);
		bad += !ok;
		fprintf(stderr, "paper_table: %s, %s, %s: %s (%.1f s)\n", r->w->workload, r->s->name,
		        r->g->name, ok ? "verified" : "NOT VERIFIED",
		        r->simt.wall + r->cnat.wall + r->fib.wall);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (write_file(out, "table.csv", write_csv, t, n) || write_file(out, "table.json",
	    json_quick, t, n) || write_file(out, "table.svg", write_svg, t, n))
		bad++;
	print_table(t, n, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	if (sweep)
		printf("(collected from the sweep in %s; its points' wall times: %s/results.csv)\n",
		       sweep, sweep);
	printf("%zu rows, %zu not verified\n", n, bad);
	free(t);
	return bad || !n ? 1 : 0;
}
