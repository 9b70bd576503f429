/* fibersim.c: the simulator's command line, a thin client of the runtime library (fiber.h).
 *
 *   fibersim run FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]... ...
 *   fibersim cpi-svg STATS.json -o OUT.svg
 *
 * run: makes a device (--config, --arch, then each --set in order), loads FILE, checks the --arg
 * list against the kernel's parameter layout (.nv.info EIATTR_KPARAM_INFO), makes a device buffer
 * for every buf:/zeros: argument, launches once in timing mode (or --functional), then writes the
 * --out buffers, the --stats JSON, the --cpi-svg chart, the --trace file and, unless --quiet, a
 * summary on standard error; after a fault or Ctrl-C still the --stats, --cpi-svg and --trace
 * files, as far as the run got. Every output goes through outfile.c (a temporary file renamed on
 * success). cpi-svg: the chart of a --stats file. Exit status: 0 success, 1 bad input (files,
 * kernel, arguments that do not match the kernel, limits of the device, configuration keys),
 * 2 usage (the command line itself), 3 the kernel faulted in the simulator, 128 + the signal
 * after Ctrl-C (SIGINT: 130) or SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include "arch.h"
#include "cli.h"
#include "fiber.h"
#include "outfile.h"
#include "outputs.h"
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

enum { ExitOk = 0, ExitUser = 1, ExitUsage = 2, ExitFault = 3, ExitCheck = 4, ExitSignal = 128 };
enum { MaxBufBytes = 1u << 30 };

static void
usage(FILE *out)
{
	fprintf(out,
	    "usage: fibersim run FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] [options]\n"
	    "       fibersim cpi-svg A.json [B.json] -o OUT.svg\n"
	    "       fibersim compare A.json B.json [--json]\n"
	    "       fibersim annotate STATS.json FILE.sass\n"
	    "       fibersim sweep SPEC -o DIR [-j N] [--slurm ...] [--collect [--wait]]\n"
	    "       fibersim --help | --version\n"
	    "\n"
	    "run: run one kernel of a SASS listing (nvdisasm or cuobjdump -sass), of fiberc output, or\n"
	    "of a cubin (disassembled by $FIBER_NVDISASM) on fiber's simulated GPU, cycle by cycle\n"
	    "(or values only with --functional). See 'fibersim run --help' and fibersim(1).\n"
	    "cpi-svg: draw the CPI stacks of a 'run --stats' file as an SVG bar chart.\n"
	    "compare: two 'run --stats' files side by side (speedup, IPC, memory, CPI stacks).\n"
	    "annotate: the SASS listing with issues and stall cycles beside each instruction.\n"
	    "sweep: many runs from one spec file, locally or on Slurm, with a report (docs/sweep.md).\n"
	    "\n"
	    "exit status: 0 success, 1 bad input, 2 usage error, 3 the kernel faulted,\n"
	    "             130 interrupted (Ctrl-C)\n");
}

/* the device architectures (ir/arch.h ArchDevice): "sm_80|sm_90" in bars, and in words
 * "a100 (sm_80) or h100 (sm_90)" */
static void
device_archs(char *bars, char *words, size_t n)
{
	const Arch *a, *dev[8];
	size_t ndev = 0, len = 0;

	arch_list(bars, n, ArchDevice, "|", "|");
	for (size_t k = 0; (a = arch_at(k)) && ndev < 8; k++)
		if (a->support & ArchDevice)
			dev[ndev++] = a;
	words[0] = 0;
	for (size_t i = 0; i < ndev && len < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == ndev ? " or " : ", ";
		int w = snprintf(words + len, n - len, "%s%s (%s)", sep, dev[i]->config, dev[i]->name);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

static void
run_usage(FILE *out)
{
	char bars[128], words[128], opt[160];

	device_archs(bars, words, sizeof bars);
	snprintf(opt, sizeof opt, "--arch %s", bars);
	fprintf(out,
	    "usage: fibersim run FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
	    "           [--arch %s] [--config NAME|FILE] [--set KEY=VALUE]...\n"
	    "           [--dynamic-smem BYTES] [--arg SPEC]...  [--out I:FILE]...\n"
	    "           [--symbol NAME:FILE]...  [--symbol-out NAME:FILE]...\n"
	    "           [--stats FILE.json] [--cpi-svg FILE.svg] [--fiber-svg FILE.svg]\n"
	    "           [--trace FILE.json [--trace-limit N]]\n"
	    "           [--threads N] [--sample-sms N] [--sample-ctas N] [--functional] [--cooperative]\n"
	    "           [--cluster X[,Y[,Z]]] [--quiet]\n"
	    "           [--no-verify]\n"
	    "           [--racecheck] [--synccheck] [--initcheck] [--warp-order random:SEED|check:N]\n"
	    "\n"
	    "Launch kernel NAME of FILE once on the simulated GPU.\n"
	    "\n"
	    "  FILE                 SASS listing (nvdisasm -hex or cuobjdump -sass), fiberc output\n"
	    "                       (SASS or IR text), or a cubin (needs FIBER_NVDISASM or nvdisasm)\n"
	    "  --kernel NAME        the kernel's symbol (without it: the list of FILE's kernels)\n"
	    "  --grid X[,Y[,Z]]     grid dimensions (x 1..2147483647, y and z 1..65535)\n"
	    "  --block X[,Y[,Z]]    block dimensions (x, y 1..1024, z 1..64; product within the device)\n"
	    "  %-20s the device: %s; default: from FILE\n"
	    "  --config NAME|FILE   device configuration: a100, h100, b200, or a configuration file\n"
	    "  --set KEY=VALUE      change one configuration key (as in a configuration file), after\n"
	    "                       --config; repeatable, applied in order\n"
	    "  --dynamic-smem BYTES dynamic shared memory per block (default 0)\n"
	    "  --arg SPEC           one per kernel parameter, in order:\n"
	    "                         buf:PATH     a device buffer holding PATH's bytes (the\n"
	    "                                      parameter is its 64-bit address)\n"
	    "                         zeros:BYTES  a zero-filled device buffer of BYTES bytes\n"
	    "                         uninit:BYTES a device buffer of BYTES bytes the host never\n"
	    "                                      writes (its reads are what --initcheck finds)\n"
	    "                         u32:N  i32:N  u64:N  i64:N  f32:X   a scalar\n"
	    "                         tmap:TYPE,DIMS,BOX[,KEY=VALUE]...  a tensor map (a\n"
	    "                                      __grid_constant__ CUtensorMap, 128 bytes): TYPE\n"
	    "                                      u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32ftz\n"
	    "                                      tf32 tf32ftz; DIMS and BOX innermost first\n"
	    "                                      (100x50 32x16); over a buffer of its own, zeros\n"
	    "                                      or buf=PATH (the last key; --out works on it),\n"
	    "                                      or of=N, argument N's buffer; keys\n"
	    "                                      strides=S1x.. (bytes; default dense),\n"
	    "                                      estrides=E0x.., swizzle=none|32|64|128,\n"
	    "                                      interleave=none|16|32, l2=none|64|128|256,\n"
	    "                                      oob=zero|nan, offset=BYTES\n"
	    "                       Numbers are decimal or 0x hex. The list must match the kernel's\n"
	    "                       parameters (.nv.info) in count and sizes.\n"
	    "  --out I:FILE         after the run, write the buffer of argument I (0-based) to FILE\n"
	    "  --symbol NAME:FILE   before the run, write FILE's bytes into the __device__ or\n"
	    "                       __constant__ variable NAME (the sizes must be equal)\n"
	    "  --symbol-out NAME:FILE  after the run, write variable NAME's bytes to FILE\n"
	    "  --stats FILE.json    write statistics: cycles, IPC, CPI stack, caches, DRAM, occupancy\n"
	    "                       (every key: docs/sim-stats.md)\n"
	    "  --cpi-svg FILE.svg   draw the CPI stack as an SVG bar chart\n"
	    "  --fiber-svg FILE.svg draw the FIBER timeline (fibers, vector registers over cycles)\n"
	    "  --trace FILE.json    write a Chrome trace (Perfetto, chrome://tracing): one track per\n"
	    "                       warp slot of each SM; 1 ns of trace time is one cycle\n"
	    "  --trace-limit N      at most N trace events (default 1000000)\n"
	    "  --threads N          host threads simulating SMs (1..256, default 1); results are the\n"
	    "                       same for any N\n"
	    "  --sample-sms N       simulate only N SMs' share of the CTAs and extrapolate the cycles\n"
	    "  --sample-ctas N      simulate only the first N CTAs and extrapolate the cycles\n"
	    "  --functional         values only, faster: no timing (cycles are 0)\n"
	    "  --cooperative        a cooperative launch (this_grid().sync()): the whole grid\n"
	    "                       resident at once; refused if it does not fit the GPU\n"
	    "  --cluster X[,Y[,Z]]  sm_90 thread-block clusters of X x Y x Z CTAs (each grid\n"
	    "                       dimension a multiple, at most 8 CTAs; functional mode only for\n"
	    "                       clusters of more than one CTA)\n"
	    "  --quiet              no summary on standard error (timing mode prints one) and no\n"
	    "                       progress line (drawn on a terminal during a long launch)\n"
	    "  --no-verify          load FILE without the checks fiberc runs on it (the listing\n"
	    "                       checks and the verifier, FIBER's included), so that the\n"
	    "                       simulator's own faults show: for debugging only\n"
	    "  --racecheck          report shared-memory hazards between threads that no barrier\n"
	    "                       or __syncwarp() orders (compute-sanitizer --tool racecheck);\n"
	    "                       exit 4 if any\n"
	    "  --synccheck          report __syncthreads() reached by divergent threads of a warp,\n"
	    "                       mismatched barrier counts and __syncwarp masks without the\n"
	    "                       caller (compute-sanitizer --tool synccheck); exit 4 if any\n"
	    "  --initcheck          report reads of global memory that neither the host nor the\n"
	    "                       kernel wrote (compute-sanitizer --tool initcheck); exit 4 if any\n"
	    "  --warp-order random:SEED  (with --functional) run the warps of each CTA in a random\n"
	    "                       order, each for a random number of instructions, from SEED\n"
	    "  --warp-order check:N (with --functional) run again in N random warp orders from the\n"
	    "                       same inputs and compare every buffer; exit 4 if one differs\n"
	    "  --help               this text\n"
	    "\n"
	    "environment: FIBER_NVDISASM  disassembler for cubins (empty: none)\n"
	    "             FIBER_NVDISASM_TIMEOUT  seconds it may run (default 60, 0: no limit)\n"
	    "limits: FILE and buf: files at most 1 GiB\n"
	    "\n"
	    "A runaway kernel stops after 2^28 warp instructions (--set watchdog=N raises it) or, timed,\n"
	    "2^32 cycles (--set max_cycles=N, 0: none). Ctrl-C stops the launch; after it or a fault\n"
	    "the --stats, --cpi-svg and --trace files are written as far as the run got.\n"
	    "\n"
	    "exit status: 0 success, 1 bad input (files, kernel, arguments, device limits,\n"
	    "             configuration keys), 2 usage error, 3 the kernel faulted (out-of-bounds\n"
	    "             access, watchdog, ...), 4 a check (--racecheck, --synccheck, --initcheck, --warp-order check:N) reported, 130 interrupted\n"
	    "             (Ctrl-C)\n", bars, opt, words);
}

/* "fibersim: error: MESSAGE"; a message that is already a located diagnostic ("FILE:LINE:COL:
 * error: ...", as configuration files and --set give) is printed as it is, not with a second
 * "error:" */
static int
error(int status, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	const char *e;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	e = strstr(msg, ": error: ");
	if (e && e > msg && !memchr(msg, ' ', (size_t)(e - msg)))
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "fibersim: error: %s\n", msg);
	return status;
}

/* --- Ctrl-C and the progress line ----------------------------------------------------------------
 * During a launch the first SIGINT (or SIGTERM) only sets `interrupted`: the progress callback
 * then stops the launch (fault "interrupted"), the statistics, trace and chart are written as far
 * as it got, and fibersim exits with 128 + the signal. Any other time, or a second signal, removes
 * the temporary files of outputs being written and dies of the signal. */
static volatile sig_atomic_t interrupted, in_launch;

static void
on_signal(int sig)
{
	if (in_launch && !interrupted) {
		interrupted = sig;
		return;
	}
	outfile_cleanup_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

typedef struct Progress {
	const char *kernel;
	int show;                  /* draw the line: standard error is a terminal, no --quiet */
	double t0;                 /* the launch's start, seconds */
	double last;               /* the last line drawn */
	int width;                 /* characters of the line on the terminal, 0 none */
} Progress;

enum { ProgressAfterMs = 1000, ProgressEveryMs = 250 };

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "12.3M"-style: three significant figures */
static void
human(char *buf, size_t n, double v)
{
	static const char unit[] = " kMGTP";
	int u = 0;

	while (v >= 999.5 && u < 5) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, v < 9.995 ? "%.2f%c" : v < 99.95 ? "%.1f%c" : "%.0f%c", v, unit[u]);
}

/* fiberProgressFn: stop on Ctrl-C; a progress line on the terminal after the first second */
static int
on_progress(void *arg, const fiberProgress *p)
{
	Progress *pg = arg;
	char line[200], cyc[16], ins[16], rate[16];
	double t, el;
	int n;

	if (interrupted)
		return 1;
	if (!pg->show)
		return 0;
	t = seconds();
	el = t - pg->t0;
	if (el * 1000 < ProgressAfterMs || (t - pg->last) * 1000 < ProgressEveryMs)
		return 0;
	pg->last = t;
	human(cyc, sizeof cyc, (double)p->cycles);
	human(ins, sizeof ins, (double)p->warp_instructions);
	human(rate, sizeof rate, (double)p->warp_instructions / el);
	n = snprintf(line, sizeof line, "fibersim: %.40s: %s%s%s warp instructions, CTAs %llu/%llu, "
	             "%s instructions/s, %.0f s", pg->kernel, p->cycles ? cyc : "",
	             p->cycles ? " cycles, " : "", ins, (unsigned long long)p->ctas_done,
	             (unsigned long long)p->ctas, rate, el);
	if (n < 0)
		return 0;
	fprintf(stderr, "\r%s%*s", line, pg->width > n ? pg->width - n : 0, "");
	fflush(stderr);
	if (n > pg->width)
		pg->width = n;
	return 0;
}

static void
progress_clear(Progress *pg)
{
	if (pg->width)
		fprintf(stderr, "\r%*s\r", pg->width, "");
	pg->width = 0;
}

/* the whole of a file; NULL after reporting */
static unsigned char *
read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, got;
	struct stat st;

	*len = 0;
	if (!fp) {
		error(ExitUser, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > MaxBufBytes) {
		error(ExitUser, "'%s' is larger than 1 GiB, the input limit", path);
		goto fail;
	}
	do {
		if (cap - *len < 65536) {
			unsigned char *nb;
			if (cap > MaxBufBytes) {
				error(ExitUser, "'%s' is larger than 1 GiB, the input limit", path);
				goto fail;
			}
			cap = cap ? 2 * cap : 65536;
			if (!(nb = realloc(buf, cap))) {
				error(ExitUser, "out of memory reading '%s'", path);
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + *len, 1, cap - *len, fp);
		*len += got;
	} while (got > 0);
	if (ferror(fp)) {
		error(ExitUser, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	fclose(fp);
	return buf;
fail:
	free(buf);
	fclose(fp);
	return NULL;
}

static int
write_all(const char *path, const void *data, size_t n)
{
	OutFile o;

	if (outfile_open(&o, path) < 0)
		return error(ExitUser, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(data, 1, n, o.fp) != n) {
		int e = errno;
		outfile_abort(&o);
		return error(ExitUser, "cannot write '%s': %s", path, strerror(e));
	}
	if (outfile_commit(&o) < 0)
		return error(ExitUser, "cannot write '%s': %s", path, strerror(errno));
	return ExitOk;
}

/* the CPI stack chart of the statistics JSON json_path into svg_path; on any error svg_path is
 * as it was */
static int
write_svg(const char *json_path, const char *svg_path, const char *title,
          int (*draw)(const char *, size_t, const char *, FILE *, char *, size_t))
{
	unsigned char *text;
	size_t len;
	char err[512];
	OutFile o;
	int failed;

	if (!(text = read_all(json_path, &len)))
		return ExitUser;
	if (outfile_open(&o, svg_path) < 0) {
		free(text);
		return error(ExitUser, "cannot write '%s': %s", svg_path, strerror(errno));
	}
	failed = draw((const char *)text, len, title, o.fp, err, sizeof err) < 0;
	free(text);
	if (failed) {
		outfile_abort(&o);
		return error(ExitUser, "'%s': %s", json_path, err);
	}
	if (outfile_commit(&o) < 0)
		return error(ExitUser, "cannot write '%s': %s", svg_path, strerror(errno));
	return ExitOk;
}

/* after a launch, also one that faulted or was interrupted (its figures go as far as it got):
 * --stats, --cpi-svg (drawn from the statistics JSON, written first to the chart's own file when
 * there is no --stats), and after a successful one the summary */
static int
results(const CliRun *r, fiberDevice dev, int faulted)
{
	const char *json = r->stats ? r->stats : r->cpi_svg ? r->cpi_svg : r->fiber_svg;
	int status, fstatus;

	if (json && fiberWriteStatsJSON(dev, json) != FIBER_SUCCESS)
		return error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
	/* the FIBER timeline first: json may be the --cpi-svg file, which its chart then replaces */
	fstatus = r->fiber_svg ? write_svg(json, r->fiber_svg, r->kernel, cli_fiber_svg) : ExitOk;
	if (r->cpi_svg && (status = write_svg(json, r->cpi_svg, r->kernel, cli_cpi_svg)) != ExitOk)
		return status;
	if (fstatus != ExitOk && json == r->fiber_svg)
		remove(json);           /* the statistics written only to draw from: no chart, no file */
	if (fstatus != ExitOk)
		return fstatus;
	if (!faulted && !r->quiet && !r->functional)
		fiberPrintSummary(dev, stderr);
	return ExitOk;
}

/* the device's configuration keys (--set) */
static int
set_keys(const CliRun *r, fiberDevice dev)
{
	for (unsigned k = 0; k < r->nset; k++)
		if (fiberDeviceSetConfigValue(dev, r->set[k]) != FIBER_SUCCESS)
			return error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
	return ExitOk;
}

/* the device's mode, threads, sampling and trace from the options */
static int
settings(const CliRun *r, fiberDevice dev)
{
	fiberStatus s = FIBER_SUCCESS;

	if (s == FIBER_SUCCESS && r->functional)
		s = fiberDeviceSetMode(dev, FIBER_MODE_FUNCTIONAL);
	if (s == FIBER_SUCCESS && r->noverify)
		s = fiberDeviceSetVerify(dev, 0);
	if (s == FIBER_SUCCESS && r->threads)
		s = fiberDeviceSetThreads(dev, r->threads);
	if (s == FIBER_SUCCESS && (r->sample_sms || r->sample_ctas))
		s = fiberDeviceSetSampling(dev, r->sample_sms, r->sample_ctas);
	if (s == FIBER_SUCCESS && r->trace)
		s = fiberDeviceSetTrace(dev, r->trace, r->trace_limit);
	if (s == FIBER_SUCCESS && r->checks)
		s = fiberDeviceSetChecks(dev, r->checks);
	if (s == FIBER_SUCCESS && r->warp_seed)
		s = fiberDeviceSetWarpOrder(dev, r->warp_seed);
	if (s != FIBER_SUCCESS)
		return error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
	return ExitOk;
}

/* the parameter layout: offsets of the arguments and the block size, checked against the
 * kernel's .nv.info; without one (cuobjdump listings) natural alignment, with a warning */
static int
layout(const CliRun *r, fiberFunction fn, size_t *off, size_t *size)
{
	fiberFuncAttributes a;
	size_t poff, psize;

	fiberFuncGetAttributes(fn, &a);
	if (!a.has_param_info) {
		fprintf(stderr, "fibersim: warning: '%s' has no parameter layout for '%s' (a cuobjdump "
		        "listing has no .nv.info): the arguments are packed with natural alignment and "
		        "not checked\n", r->file, r->kernel);
		*size = 0;
		for (unsigned k = 0; k < r->narg; k++) {
			size_t al = r->arg[k].size;
			*size = (*size + al - 1) / al * al;
			off[k] = *size;
			*size += r->arg[k].size;
		}
		return ExitOk;
	}
	for (unsigned k = 0; k < r->narg && k < a.num_params; k++) {
		fiberFuncGetParamInfo(fn, k, &poff, &psize);
		if (psize != r->arg[k].size)
			return error(ExitUser, "argument %u (param %u, %zu bytes at offset 0x%zx) given as %s "
			             "(%u bytes)", k, k, psize, poff, cli_kind_name(r->arg[k].kind),
			             r->arg[k].size);
		off[k] = poff;
	}
	if (r->narg < a.num_params) {
		fiberFuncGetParamInfo(fn, r->narg, &poff, &psize);
		return error(ExitUser, "kernel '%s' takes %u parameter%s but %u argument%s given: "
		             "param %u (%zu bytes at offset 0x%zx) has no --arg", r->kernel, a.num_params,
		             a.num_params == 1 ? "" : "s", r->narg, r->narg == 1 ? " was" : "s were",
		             r->narg, psize, poff);
	}
	if (r->narg > a.num_params)
		return error(ExitUser, "kernel '%s' takes %u parameter%s but %u argument%s given: "
		             "argument %u (%s) has no parameter%s", r->kernel, a.num_params,
		             a.num_params == 1 ? "" : "s", r->narg, r->narg == 1 ? " was" : "s were",
		             a.num_params, r->arg[a.num_params].spec, a.num_params ? "" :
		             " (a listing's parameters are its .nv.info entries, each after nvdisasm's "
		             "'//----- nvinfo : EIATTR_...' line: docs/fiber-isa.md section 10)");
	*size = a.param_size;
	return ExitOk;
}

/* bytes of a tmap: argument's own zero-filled buffer: its outermost stride times its size */
static size_t
tmap_extent(const CliTmap *t)
{
	uint64_t es = t->rank > 1 ? 0 : t->type == 0 ? 1 : t->type == 1 || t->type == 6 ||
	              t->type == 9 ? 2 : t->type == 4 || t->type == 5 || t->type == 8 ? 8 : 4;
	uint64_t v = t->rank > 1 ? t->stride[t->rank - 2] * t->dim[t->rank - 1] : es * t->dim[0];

	return v > CliMaxZeros ? 0 : (size_t)v;
}

/* the 128 bytes of argument k, a tmap: over its own buffer or another argument's */
static int
tensor_map(const CliRun *r, unsigned k, const fiberDevicePtr *buf, const size_t *len,
           unsigned char *out)
{
	const CliTmap *t = &r->arg[k].tmap;
	unsigned of = t->of == CliOwn ? k : t->of;
	fiberTensorMap m;

	if (t->offset >= len[of])
		return error(ExitUser, "argument %u (%s): offset %llu is past the %zu bytes of its buffer",
		             k, r->arg[k].spec, (unsigned long long)t->offset, len[of]);
	if (fiberTensorMapEncodeTiled(&m, t->type, t->rank, buf[of] + t->offset, t->dim, t->stride,
	                              t->box, t->estride, t->interleave, t->swizzle, t->l2, t->oob)
	    != FIBER_SUCCESS)
		return error(ExitUser, "argument %u (%s): %s", k, r->arg[k].spec,
		             fiberGetLastErrorMessage(NULL));
	memcpy(out, &m, sizeof m);
	return ExitOk;
}

/* device buffers of the buf:, zeros: and uninit: arguments; buf[k] 0 for scalars */
static int
make_buffers(const CliRun *r, fiberDevice dev, fiberDevicePtr *buf, size_t *len)
{
	for (unsigned k = 0; k < r->narg; k++) {
		const CliArg *a = &r->arg[k];
		unsigned char *data = NULL;
		size_t n;

		const char *path = a->kind == ArgBuf ? a->path : a->kind == ArgTmap ? a->tmap.path : NULL;

		if (path) {
			if (!(data = read_all(path, &n)))
				return ExitUser;
			if (n == 0) {
				free(data);
				return error(ExitUser, "argument %u (%s): '%s' is empty; a buffer needs at least "
				             "one byte", k, a->spec, path);
			}
		} else if (a->kind == ArgZeros || a->kind == ArgUninit) {
			n = (size_t)a->bytes;
		} else if (a->kind == ArgTmap && a->tmap.of == CliOwn) {
			n = tmap_extent(&a->tmap);
			if (n == 0 || n > CliMaxZeros)
				return error(ExitUser, "argument %u (%s): a tensor of %zu bytes (1 to %u)", k,
				             a->spec, n, CliMaxZeros);
		} else {
			continue;
		}
		if (fiberMalloc(dev, &buf[k], n) != FIBER_SUCCESS
		    || (a->kind != ArgUninit &&
		        (data ? fiberMemcpyHtoD(dev, buf[k], data, n) : fiberMemset(dev, buf[k], 0, n))
		            != FIBER_SUCCESS)) {
			free(data);
			return error(ExitUser, "argument %u (%s): %s", k, a->spec, fiberGetLastErrorMessage(dev));
		}
		len[k] = n;
		free(data);
	}
	return ExitOk;
}

/* the buffers as make_buffers made them, again (--warp-order check:N): buf: files read again,
 * zeros: and uninit: buffers zeroed */
static int
refill(const CliRun *r, fiberDevice dev, const fiberDevicePtr *buf, const size_t *len)
{
	for (unsigned k = 0; k < r->narg; k++) {
		const CliArg *a = &r->arg[k];
		unsigned char *data = NULL;
		size_t n = 0;
		fiberStatus s;
		const char *path = a->kind == ArgBuf ? a->path : a->kind == ArgTmap ? a->tmap.path : NULL;
		if (path) {
			if (!(data = read_all(path, &n)))
				return ExitUser;
			s = n == len[k] ? fiberMemcpyHtoD(dev, buf[k], data, n) : FIBER_ERROR_INVALID_VALUE;
			free(data);
		} else if (a->kind == ArgZeros || a->kind == ArgUninit || (a->kind == ArgTmap &&
		                                                          a->tmap.of == CliOwn)) {
			s = fiberMemset(dev, buf[k], 0, len[k]);
		} else {
			continue;
		}
		if (s != FIBER_SUCCESS)
			return error(ExitUser, "--warp-order: argument %u (%s) cannot be made again", k,
			             a->spec);
	}
	return ExitOk;
}

/* --warp-order check:N: the buffers after the launch just run, against N more launches from the
 * same inputs in random warp orders (seeds 1..N); the first difference is reported (exit 4); the
 * buffers are left as the first launch wrote them, for --out */
/* the launch with --cooperative and --cluster as attributes */
static fiberStatus
launch_kernel(const CliRun *r, fiberFunction fn, const void *block, size_t size)
{
	fiberLaunchConfig c;

	memset(&c, 0, sizeof c);
	memcpy(c.grid, r->grid, sizeof c.grid);
	memcpy(c.block, r->block, sizeof c.block);
	memcpy(c.cluster, r->cluster, sizeof c.cluster);
	c.dynamic_smem = r->dyn_smem;
	c.cooperative = r->cooperative;
	return fiberLaunchKernelExPacked(&c, fn, block, size);
}

static int
order_check(const CliRun *r, fiberDevice dev, fiberFunction fn, const fiberDevicePtr *buf,
            const size_t *len, const unsigned char *block, size_t size)
{
	unsigned char **want = calloc(r->narg + 1, sizeof *want), *got = NULL;
	int status = ExitOk;

	for (unsigned k = 0; want && k < r->narg; k++)
		if (len[k] && (!(want[k] = malloc(len[k])) ||
		               fiberMemcpyDtoH(dev, want[k], buf[k], len[k]) != FIBER_SUCCESS))
			status = error(ExitUser, "--warp-order: out of memory");
	if (!want)
		return error(ExitUser, "--warp-order: out of memory");
	for (unsigned o = 1; o <= r->order_check && status == ExitOk; o++) {
		if ((status = refill(r, dev, buf, len)) != ExitOk)
			break;
		fiberDeviceSetWarpOrder(dev, o);
		if (launch_kernel(r, fn, block, size) != FIBER_SUCCESS) {
			status = error(ExitFault, "--warp-order: in the warp order random:%u: %s", o,
			               fiberGetLastErrorMessage(dev));
			break;
		}
		for (unsigned k = 0; k < r->narg && status == ExitOk; k++) {
			size_t b = 0;
			if (!len[k])
				continue;
			free(got);
			if (!(got = malloc(len[k])) ||
			    fiberMemcpyDtoH(dev, got, buf[k], len[k]) != FIBER_SUCCESS) {
				status = error(ExitUser, "--warp-order: out of memory");
				break;
			}
			while (b < len[k] && got[b] == want[k][b])
				b++;
			if (b < len[k])
				status = error(ExitCheck, "--warp-order: argument %u (%s) differs between the "
				               "first launch and the warp order random:%u, first at byte %zu "
				               "(0x%02x, then 0x%02x): the result depends on how warps interleave",
				               k, r->arg[k].spec, o, b, want[k][b], got[b]);
		}
	}
	for (unsigned k = 0; k < r->narg; k++) {
		if (want[k])
			fiberMemcpyHtoD(dev, buf[k], want[k], len[k]);
		free(want[k]);
	}
	if (status == ExitOk)
		fprintf(stderr, "fibersim: --warp-order: %u random warp orders give the first launch's "
		        "buffers\n", r->order_check);
	fiberDeviceSetWarpOrder(dev, r->warp_seed);
	free(want);
	free(got);
	return status;
}

static int
launch(const CliRun *r, fiberDevice dev, fiberFunction fn)
{
	size_t *off = calloc(r->narg + 1, sizeof *off), *len = calloc(r->narg + 1, sizeof *len), size = 0;
	fiberDevicePtr *buf = calloc(r->narg + 1, sizeof *buf);
	unsigned char *block = NULL;
	Progress pg = {0};
	fiberStatus s;
	int status, order_st = ExitOk;
	uint64_t nfound = 0;

	if (!off || !len || !buf) {
		status = error(ExitUser, "out of memory");
		goto out;
	}
	if ((status = layout(r, fn, off, &size)) != ExitOk
	    || (status = make_buffers(r, dev, buf, len)) != ExitOk)
		goto out;
	if (!(block = calloc(size + 1, 1))) {
		status = error(ExitUser, "out of memory");
		goto out;
	}
	for (unsigned k = 0; k < r->narg; k++) {
		uint64_t v = r->arg[k].kind == ArgBuf || r->arg[k].kind == ArgZeros ||
		             r->arg[k].kind == ArgUninit ? buf[k] : r->arg[k].bits;
		if (r->arg[k].kind == ArgTmap) {
			if ((status = tensor_map(r, k, buf, len, block + off[k])) != ExitOk)
				goto out;
			continue;
		}
		for (unsigned b = 0; b < r->arg[k].size; b++)        /* little-endian, as the GPU */
			block[off[k] + b] = (unsigned char)(v >> (8 * b));
	}
	pg.kernel = r->kernel;
	pg.show = !r->quiet && isatty(2);
	pg.t0 = pg.last = seconds();
	fiberDeviceSetProgress(dev, on_progress, &pg);
	in_launch = 1;
	s = launch_kernel(r, fn, block, size);
	in_launch = 0;
	progress_clear(&pg);
	fiberDeviceSetProgress(dev, NULL, NULL);
	if (s == FIBER_ERROR_LAUNCH_FAILED) {
		fiberFault f;
		fiberGetLastFault(dev, &f);
		status = f.kind == FIBER_FAULT_INTERRUPTED ? ExitSignal + (interrupted ? interrupted : SIGINT)
		                                           : ExitFault;
		error(status, "%s", fiberGetLastErrorMessage(dev));
		results(r, dev, 1);        /* an output error is reported; the status stays the fault's */
		goto out;
	}
	if (s != FIBER_SUCCESS) {
		status = error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
		goto out;
	}
	fiberGetCheckCount(dev, &nfound);
	if (r->order_check)
		order_st = order_check(r, dev, fn, buf, len, block, size);
	for (unsigned k = 0; k < r->nout && status == ExitOk; k++) {
		unsigned i = r->out[k].index;
		unsigned char *data = malloc(len[i]);

		if (!data)
			status = error(ExitUser, "out of memory");
		else if (fiberMemcpyDtoH(dev, data, buf[i], len[i]) != FIBER_SUCCESS)
			status = error(ExitUser, "--out %u: %s", i, fiberGetLastErrorMessage(dev));
		else
			status = write_all(r->out[k].path, data, len[i]);
		free(data);
	}
	if (status == ExitOk)
		status = results(r, dev, 0);
	if (status == ExitOk && nfound)
		status = error(ExitCheck, "the checks reported %llu finding%s (above)",
		               (unsigned long long)nfound, nfound == 1 ? "" : "s");
	if (status == ExitOk)
		status = order_st;
out:
	for (unsigned k = 0; buf && k < r->narg; k++)
		fiberFree(dev, buf[k]);
	free(block);
	free(buf);
	free(len);
	free(off);
	return status;
}

/* no --kernel: a usage error that names the kernels there are */
static int
list_kernels(const char *file, fiberModule mod)
{
	unsigned n = 0;
	const char *name;

	fiberModuleGetFunctionCount(mod, &n);
	fprintf(stderr, "fibersim: error: --kernel NAME is required; '%s' has %u kernel%s%s", file, n,
	        n == 1 ? "" : "s", n ? ":" : "");
	for (unsigned k = 0; k < n; k++)
		if (fiberModuleGetFunctionName(mod, k, &name) == FIBER_SUCCESS)
			fprintf(stderr, "%s %s", k ? "," : "", name);
	fputs("\nfibersim: try 'fibersim run --help'\n", stderr);
	return ExitUsage;
}

/* --symbol NAME:FILE: the file's bytes into the variable, before the launch; sizes must match.
 * The names of --symbol-out are checked too */
static int
symbols_in(const CliRun *r, fiberDevice dev, fiberModule mod)
{
	for (unsigned k = 0; k < r->nsym; k++) {
		const CliSym *y = &r->sym[k];
		unsigned char *data;
		size_t len, size;
		int status = ExitOk;

		if (fiberModuleGetGlobal(NULL, &size, mod, y->name) != FIBER_SUCCESS)
			return error(ExitUser, "--symbol %s: %s", y->name, fiberGetLastErrorMessage(dev));
		if (!(data = read_all(y->path, &len)))
			return ExitUser;
		if (len != size)
			status = error(ExitUser, "--symbol %s:%s: the file has %zu bytes, the variable %zu",
			               y->name, y->path, len, size);
		else if (fiberMemcpyToSymbol(mod, y->name, data, len, 0) != FIBER_SUCCESS)
			status = error(ExitUser, "--symbol %s: %s", y->name, fiberGetLastErrorMessage(dev));
		free(data);
		if (status != ExitOk)
			return status;
	}
	for (unsigned k = 0; k < r->nsymout; k++)     /* known before a long run, not after */
		if (fiberModuleGetGlobal(NULL, NULL, mod, r->symout[k].name) != FIBER_SUCCESS)
			return error(ExitUser, "--symbol-out %s: %s", r->symout[k].name,
			             fiberGetLastErrorMessage(dev));
	return ExitOk;
}

/* --symbol-out NAME:FILE: the variable's bytes after the launch */
static int
symbols_out(const CliRun *r, fiberModule mod)
{
	for (unsigned k = 0; k < r->nsymout; k++) {
		const CliSym *y = &r->symout[k];
		unsigned char *data;
		size_t size;
		int status;

		if (fiberModuleGetGlobal(NULL, &size, mod, y->name) != FIBER_SUCCESS)
			return error(ExitUser, "--symbol-out %s: %s", y->name, fiberGetLastErrorMessage(NULL));
		if (!(data = malloc(size + 1)))
			return error(ExitUser, "out of memory");
		if (fiberMemcpyFromSymbol(mod, y->name, data, size, 0) != FIBER_SUCCESS)
			status = error(ExitUser, "--symbol-out %s: %s", y->name, fiberGetLastErrorMessage(NULL));
		else
			status = write_all(y->path, data, size);
		free(data);
		if (status != ExitOk)
			return status;
	}
	return ExitOk;
}

static int
run(const CliRun *r)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDeviceProps p;
	const char *config = r->config ? r->config
	                     : r->arch ? arch_code(r->arch)->device->config
	                               : NULL;   /* auto: the module's architecture chooses */
	const char *log;
	int status;

	if (fiberDeviceCreate(&dev, config) != FIBER_SUCCESS)
		return error(ExitUser, "%s", fiberGetLastErrorMessage(NULL));
	fiberDeviceGetProperties(dev, &p);
	if (r->config && r->arch && p.arch != r->arch) {
		fiberDeviceDestroy(dev);
		return error(ExitUsage, "--arch sm_%d conflicts with --config %s, which executes sm_%d",
		             r->arch, r->config, p.arch);
	}
	/* --set applies to the chosen configuration: now, or once the module has chosen it */
	if ((config && (status = set_keys(r, dev)) != ExitOk) ||
	    (status = settings(r, dev)) != ExitOk) {
		fiberDeviceDestroy(dev);
		return status;
	}
	if (fiberModuleLoadFile(&mod, dev, r->file) != FIBER_SUCCESS) {
		log = fiberGetLastErrorLog(dev);
		if (*log)
			fputs(log, stderr);
		else
			error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
		fiberDeviceDestroy(dev);
		return ExitUser;
	}
	if (!config && (status = set_keys(r, dev)) != ExitOk) {
		fiberDeviceDestroy(dev);
		return status;
	}
	if (*(log = fiberGetLastErrorLog(dev)))
		fputs(log, stderr);          /* warnings */
	if (!r->kernel) {
		status = list_kernels(r->file, mod);
	} else if ((status = symbols_in(r, dev, mod)) == ExitOk) {
		int rc = fiberModuleGetFunction(&fn, mod, r->kernel);
		if (rc == FIBER_ERROR_UNSUPPORTED && *(log = fiberGetLastErrorLog(dev))) {
			fputs(log, stderr);  /* the kernel's own diagnostics: source line and caret */
			status = ExitUser;
		} else if (rc != FIBER_SUCCESS)
			status = error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
		else if ((status = launch(r, dev, fn)) == ExitOk)
			status = symbols_out(r, mod);
	}
	/* the trace is written when tracing stops; a fault's trace too, to see what led to it */
	if (r->trace) {
		uint64_t kept = 0, dropped = 0;
		uint32_t untraced = 0;
		fiberDeviceGetTraceCounts(dev, &kept, &dropped, &untraced);
		if (dropped || untraced)
			fprintf(stderr, "fibersim: warning: trace limit reached: %llu spans kept, %llu "
			        "dropped, %u launches not traced (raise --trace-limit)\n",
			        (unsigned long long)kept, (unsigned long long)dropped, untraced);
	}
	if (r->trace && fiberDeviceSetTrace(dev, NULL, 0) != FIBER_SUCCESS && status == ExitOk)
		status = error(ExitUser, "%s", fiberGetLastErrorMessage(dev));
	fiberDeviceDestroy(dev);
	return status;
}

int
main(int argc, char **argv)
{
	CliRun r;
	char err[512];
	int rc;

	catch_signals();
	if (argc < 2) {
		usage(stderr);
		return ExitUsage;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return ExitOk;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("fibersim %s\n", fiberGetVersion());
		return ExitOk;
	}
	if (strcmp(argv[1], "cpi-svg") == 0)
		return out_cpi_svg_command(argc - 2, argv + 2);
	if (strcmp(argv[1], "compare") == 0)
		return out_compare_command(argc - 2, argv + 2);
	if (strcmp(argv[1], "annotate") == 0)
		return out_annotate_command(argc - 2, argv + 2);
	if (strcmp(argv[1], "sweep") == 0)
		return sweep_command(argc - 2, argv + 2);
	if (strcmp(argv[1], "run") != 0) {
		error(ExitUsage, "unknown command '%s' (fibersim run, cpi-svg, compare, annotate or sweep; see "
		      "'fibersim --help')",
		      argv[1]);
		return ExitUsage;
	}
	rc = cli_parse_run(argc - 2, argv + 2, &r, err, sizeof err);
	if (rc == 1) {
		run_usage(stdout);
		cli_free(&r);
		return ExitOk;
	}
	if (rc < 0) {
		cli_free(&r);
		fprintf(stderr, "fibersim: error: %s\nfibersim: try 'fibersim run --help'\n", err);
		return ExitUsage;
	}
	rc = run(&r);
	cli_free(&r);
	return rc;
}
