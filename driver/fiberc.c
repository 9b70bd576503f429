/* fiberc.c: the compiler driver. Reads a SASS listing (nvdisasm or cuobjdump -sass) or fiber IR
 * text, lifts every kernel into SSA, runs the requested passes, and writes IR text or SASS.
 *
 *   fiberc kernel.sass --emit=ir                  SSA IR of every kernel on stdout
 *   fiberc kernel.sass --emit=sass -o out.sass    SASS again
 *
 * Exit status: 0 success, 1 user error (bad input, failed pass), 2 usage error.
 */
#include "ir.h"
#include "frontend.h"
#include "backend.h"
#include "passlist.h"
#include "passes.h"
#include "outfile.h"
#include "fstats.h"
#include "ptxlow.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum { ExitOk = 0, ExitUser = 1, ExitUsage = 2, MaxPasses = 64 };

typedef struct Options {
	const char *input;        /* input file, "-" for stdin */
	const char *output;       /* -o FILE, NULL for stdout */
	int emit_ir;              /* --emit=ir (default) or --emit=sass */
	const char *arch;         /* --arch=sm_XX, NULL: from the file */
	const char *kernel;       /* --kernel=NAME, NULL: all */
	const Pass *pass[MaxPasses]; /* --passes list, or the default */
	int npass;
	int passes_given;         /* --passes was used */
	PassOpts popt;            /* printing and verification between passes */
	const char *dump_cfg;     /* --dump-cfg=FILE.dot */
	int stats;                /* --stats */
	int mode;                 /* --mode: FModeNone, FModeCuda (cuda-native), FModeFiber */
	int emit_given;           /* --emit was given (else a FIBER mode writes SASS) */
	int contexts, slice_regs; /* --fiber-contexts, --fiber-slice-regs (0: the defaults) */
	int spill_local;          /* --fiber-spill=local: never a pool (regalloc-window) */
	int emit_pressure;        /* --emit=pressure: CSV of the register pressure */
	const char *pressure_svg; /* --pressure-svg FILE */
	int emit_ptx;             /* --emit=ptx: a .ptx input printed back (issue 11) */
	int emit_isel;            /* --emit=isel: a .ptx input lowered, before register allocation */
	int ptx;                  /* the input is PTX (a .ptx name, or --emit=ptx/isel) */
	int grid;                 /* --fiber-grid: most CTAs of a launch (0: unknown) */
	int runtime;              /* --fiber-runtime: trip counts decided at run time */
	int maxrreg;              /* --maxrregcount: register limit of regalloc (0: .maxnreg/255) */
	int maxerr;               /* --max-errors: errors shown before stopping (0: no limit; -1:
	                           * not given, MaxErrors) */
	uint32_t refused;         /* a .ptx input: kernels refused by the lowering (the output holds
	                           * the others; exit status 1) */
} Options;

static int is_ptx_name(const char *path);
static void limit_note(Diag *d);

/* the default pipelines of the FIBER modes (docs/fiberc.md) */
static const char *const mode_passes[] = {
	[FModeCuda] = CUDA_NATIVE_PASSES,
	[FModeFiber] = FIBER_NATIVE_PASSES,
};
static const char *const ptx_mode_passes[] = {   /* the same for a .ptx input */
	[FModeNone] = PTX_PASSES,
	[FModeCuda] = PTX_CUDA_NATIVE_PASSES,
	[FModeFiber] = PTX_FIBER_NATIVE_PASSES,
};

static void
usage(FILE *out)
{
	char archs[128];

	arch_list(archs, sizeof archs, ArchGenerates, ", ", " or ");
	fprintf(out,
	    "usage: fiberc FILE [options]\n"
	    "\n"
	    "Lift an NVIDIA SASS listing (nvdisasm or cuobjdump -sass output) or fiber IR text into\n"
	    "SSA IR, run passes, and write IR or SASS.\n"
	    "\n"
	    "options:\n"
	    "  -o FILE               write the output to FILE (default: standard output)\n"
	    "  --emit=ir|sass        output IR text (default) or a SASS listing\n"
	    "  --emit=pressure       output CSV: registers live before each instruction\n"
	    "                        (docs/pass-liveness.md)\n"
	    "  --pressure-svg FILE   draw each kernel's register pressure as an SVG\n"
	    "  --emit=ptx            a .ptx input: parse, check and print it back\n"
	    "  --emit=isel           a .ptx input: the SASS that instruction selection writes,\n"
	    "                        with virtual registers (before scheduling and allocation)\n"
	    "  --arch=ARCH           %s (default: from the file)\n"
	    "  --kernel=NAME         only this kernel (a .ptx input: only it is compiled, so an\n"
	    "                        unsupported form elsewhere does not stop it)\n"
	    "  --max-errors=N        stop after N errors (default 20; 0: no limit)\n"
	    "  --passes=A,B,...      run these passes instead of the default (cfg,ssa,verify)\n"
	    "  --print-before=PASS   print the IR before PASS (on stderr)\n"
	    "  --print-after=PASS    print the IR after PASS (on stderr)\n"
	    "  --print-after-all     print the IR after every pass (on stderr)\n"
	    "  --verify-each         run the verifier after every pass that changes the IR\n"
	    "  --dump-cfg=FILE.dot   write each kernel's control-flow graph for Graphviz\n"
	    "  --mode=cuda-native    compile nvcc SASS into FIBER-native SASS (.fsass) with the\n"
	    "                        FIBER passes (implies --emit=sass unless --emit is given)\n"
	    "  --mode=fiber-native   allocate a FIBER-native program's virtual registers (.vfsass,\n"
	    "                        or a .ptx input's, into each weft's window) and run the\n"
	    "                        FIBER passes\n"
	    "  --fiber-contexts=N    weft contexts per sub-partition the passes plan for (64)\n"
	    "  --fiber-slice-regs=N  registers per slice the passes plan for (512)\n"
	    "  --fiber-spill=pool|local  where --mode=fiber-native spills: a pool where legal and\n"
	    "                        cheaper, else local memory (pool, the default), or always\n"
	    "                        local memory\n"
	    "  --fiber-grid=N        most CTAs the kernels are launched with: lets the phases pass\n"
	    "                        predict a gain from SETFIBERNUM (default: unknown, no split)\n"
	    "  --fiber-runtime       decide at run time what only the launch knows (the grid, a\n"
	    "                        loop's trip count from a parameter or the grid): guarded\n"
	    "                        splits; a failed guard costs ~50 instructions per weft\n"
	    "  --maxrregcount=N      at most N registers per thread for the pass regalloc (spills\n"
	    "                        to local memory past it; 16..255, default 255 or .maxnreg)\n"
	    "  --stats               instruction, block, value counts, registers live at most\n"
	    "                        (maxlive) and pass times on stderr\n"
	    "  --list-passes         list the passes\n"
	    "  --list-isel           list the PTX instruction-selection rows (docs/ptx-isel.md)\n"
	    "  --list-archs          list the architectures and what fiber does with each\n"
	    "                        (docs/arch.md)\n"
	    "  --help                this text\n"
	    "  --version             the version\n"
	    "\n"
	    "exit status: 0 success, 1 error in the input or a pass (a .ptx input whose kernels\n"
	    "are not all compiled: 1, the output holds those that are), 2 usage error\n", archs);
}

static void
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "fiberc: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nfiberc: try 'fiberc --help'\n");
	exit(ExitUsage);
}

/* value of --name=VALUE or --name VALUE; advances *k for the second form */
static const char *
optval(int argc, char **argv, int *k, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*k];

	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == 0) {
		if (*k + 1 >= argc)
			usage_error("option '%s' needs a value", name);
		return argv[++*k];
	}
	return NULL;
}

/* a decimal option value, all of it; -1 if it is not one (or out of int's range) */
static int
int_arg(const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	return end == v || *end || errno || n < 0 || n > 1 << 30 ? -1 : (int)n;
}

static void
add_passes(Options *o, const char *list)
{
	char buf[256];
	const char *p = list;

	o->passes_given = 1;
	o->npass = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		const Pass *ps;

		if (n == 0 || n >= sizeof buf)
			usage_error("bad pass list '%s'", list);
		memcpy(buf, p, n);
		buf[n] = 0;
		if (!(ps = pass_find(buf)))
			usage_error("unknown pass '%s' (see --list-passes)", buf);
		if (o->npass == MaxPasses)
			usage_error("too many passes in '%s'", list);
		o->pass[o->npass++] = ps;
		p += n;
		if (*p == ',')
			p++;
	}
}

static void
parse_args(int argc, char **argv, Options *o)
{
	const char *v;

	memset(o, 0, sizeof *o);
	o->emit_ir = 1;
	o->maxerr = -1;
	pass_opts_init(&o->popt);
	for (int k = 1; k < argc; k++) {
		const char *a = argv[k];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(ExitOk);
		} else if (strcmp(a, "--version") == 0) {
			printf("fiberc %s\n", FIBER_VERSION);
			exit(ExitOk);
		} else if (strcmp(a, "--list-passes") == 0) {
			pass_list(stdout);
			exit(ExitOk);
		} else if (strcmp(a, "--list-isel") == 0) {
			ptxsel_list(stdout);
			exit(ExitOk);
		} else if (strcmp(a, "--list-archs") == 0) {
			arch_print(stdout);
			exit(ExitOk);
		} else if (strcmp(a, "-o") == 0) {
			if (k + 1 >= argc)
				usage_error("option '%s' needs a value", "-o");
			o->output = argv[++k];
			if (strcmp(o->output, "-") == 0)
				o->output = NULL;  /* -o - is standard output */
		} else if ((v = optval(argc, argv, &k, "--emit"))) {
			o->emit_given = 1;
			if (strcmp(v, "ir") == 0)
				o->emit_ir = 1;
			else if (strcmp(v, "sass") == 0)
				o->emit_ir = 0;
			else if (strcmp(v, "pressure") == 0)
				o->emit_pressure = 1;
			else if (strcmp(v, "ptx") == 0)
				o->emit_ptx = 1;
			else if (strcmp(v, "isel") == 0)
				o->emit_isel = 1;
			else
				usage_error("unknown --emit kind '%s' (ir, sass, pressure, ptx or isel)", v);
		} else if ((v = optval(argc, argv, &k, "--arch"))) {
			const Arch *t = arch_named(v);
			if (!t || !(t->support & ArchGenerates)) {
				char list[128], fmt[192];
				arch_list(list, sizeof list, ArchGenerates, ", ", ", ");
				snprintf(fmt, sizeof fmt, "unsupported architecture '%%s' (%s)", list);
				usage_error(fmt, v);
			}
			o->arch = v;
		} else if ((v = optval(argc, argv, &k, "--kernel"))) {
			o->kernel = v;
		} else if ((v = optval(argc, argv, &k, "--max-errors"))) {
			o->maxerr = int_arg(v);
			if (o->maxerr < 0)
				usage_error("--max-errors must be a count >= 0, not '%s'", v);
		} else if ((v = optval(argc, argv, &k, "--passes"))) {
			add_passes(o, v);
		} else if ((v = optval(argc, argv, &k, "--print-before"))) {
			if (!pass_find(v))
				usage_error("unknown pass '%s' (see --list-passes)", v);
			o->popt.print_before = v;
		} else if ((v = optval(argc, argv, &k, "--print-after"))) {
			if (!pass_find(v))
				usage_error("unknown pass '%s' (see --list-passes)", v);
			o->popt.print_after = v;
		} else if (strcmp(a, "--print-after-all") == 0) {
			o->popt.print_all = 1;
		} else if (strcmp(a, "--verify-each") == 0) {
			o->popt.verify_each = 1;
		} else if ((v = optval(argc, argv, &k, "--pressure-svg"))) {
			o->pressure_svg = v;
		} else if ((v = optval(argc, argv, &k, "--dump-cfg"))) {
			o->dump_cfg = v;
		} else if ((v = optval(argc, argv, &k, "--mode"))) {
			if (strcmp(v, "cuda-native") == 0)
				o->mode = FModeCuda;
			else if (strcmp(v, "fiber-native") == 0)
				o->mode = FModeFiber;
			else
				usage_error("unknown --mode '%s' (cuda-native or fiber-native)", v);
		} else if ((v = optval(argc, argv, &k, "--fiber-contexts"))) {
			o->contexts = int_arg(v);
			if (o->contexts < 1 || o->contexts > 64)
				usage_error("--fiber-contexts must be 1..64, not '%s'", v);
		} else if ((v = optval(argc, argv, &k, "--fiber-slice-regs"))) {
			o->slice_regs = int_arg(v);
			if (o->slice_regs < 32 || o->slice_regs > FiberSliceRegs)
				usage_error("--fiber-slice-regs must be 32..512, not '%s'", v);
		} else if ((v = optval(argc, argv, &k, "--fiber-spill"))) {
			if (strcmp(v, "pool") && strcmp(v, "local"))
				usage_error("--fiber-spill must be pool or local, not '%s'", v);
			o->spill_local = !strcmp(v, "local");
		} else if (!strcmp(a, "--fiber-runtime")) {
			o->runtime = 1;
		} else if ((v = optval(argc, argv, &k, "--fiber-grid"))) {
			o->grid = int_arg(v);
			if (o->grid < 1)
				usage_error("--fiber-grid must be a CTA count >= 1, not '%s'", v);
		} else if ((v = optval(argc, argv, &k, "--maxrregcount"))) {
			o->maxrreg = int_arg(v);
			if (o->maxrreg < 16 || o->maxrreg > 255)
				usage_error("--maxrregcount must be 16..255, not '%s'", v);
		} else if (strcmp(a, "--stats") == 0) {
			o->stats = 1;
		} else if (a[0] == '-' && a[1]) {
			usage_error("unknown option '%s'", a);
		} else {
			if (o->input)
				usage_error("more than one input file ('%s')", a);
			o->input = a;
		}
	}
	if (!o->input)
		usage_error("%s", "no input file");
	o->ptx = is_ptx_name(o->input) || o->emit_ptx || o->emit_isel;
	if (!o->passes_given && o->ptx && !o->emit_ptx && !o->emit_isel)
		add_passes(o, ptx_mode_passes[o->mode]);
	else if (!o->passes_given && !o->ptx)
		add_passes(o, o->mode ? mode_passes[o->mode] : "cfg,ssa,verify");
	if (o->mode && !o->emit_given)
		o->emit_ir = 0;
	o->passes_given = 0;
}

/* IR text carries its own SSA numbering: take it instead of computing one */
static int
lift_from_ir(Fn *f, Diag *d)
{
	if (cfg_build(f, d) < 0)
		return -1;
	dom_build(f);
	for (uint32_t k = 0; k < f->nins; k++)
		if (op_slots(f, &f->ins[k]) < 0) {
			error_at(d, f->ins[k].loc, "malformed operands for '%s'",
			         mstr(f->mod, f->ins[k].name));
			return -1;
		}
	if (sass_apply_ssa(f, d) < 0)
		return -1;
	ssa_uses(f);
	return 0;
}

static void
print_stats(const Options *o, Module *m, double *time, double parse_s, double emit_s)
{
	uint64_t nins = 0, nblk = 0, nval = 0, nphi = 0;
	int live, maxlive = -1;
	char lbuf[16];

	if (m->sm)
		fprintf(stderr, "fiberc: statistics for %s (sm_%d%s)\n", o->input, m->sm,
		        m->sm_suffix == 'a' ? "a" : m->sm_suffix == 'f' ? "f" : "");
	else
		fprintf(stderr, "fiberc: statistics for %s (unknown architecture)\n", o->input);
	fprintf(stderr, "  %-40s %8s %7s %8s %7s %8s\n", "function", "ins", "blocks", "values", "phis",
	        "maxlive");
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		uint32_t phis = 0;

		if (o->kernel && strcmp(mstr(m, f->name), o->kernel) != 0)
			continue;
		for (uint32_t b = 0; b < f->nblk; b++)
			for (Phi *p = f->blk[b]->phi; p; p = p->link)
				phis++;
		live = f->blk ? live_max_regs(f) : -1;   /* R registers live at once (liveness.c) */
		if (live > maxlive)
			maxlive = live;
		if (live >= 0)
			snprintf(lbuf, sizeof lbuf, "%d", live);
		else
			snprintf(lbuf, sizeof lbuf, "-");
		fprintf(stderr, "  %-40.40s %8u %7u %8u %7u %8s\n", mstr(m, f->name), f->nins, f->nblk,
		        f->nval ? f->nval - 1 : 0, phis, lbuf);
		nins += f->nins;
		nblk += f->nblk;
		nval += f->nval ? f->nval - 1 : 0;
		nphi += phis;
	}
	if (maxlive >= 0)
		snprintf(lbuf, sizeof lbuf, "%d", maxlive);
	else
		snprintf(lbuf, sizeof lbuf, "-");
	fprintf(stderr, "  %-40s %8llu %7llu %8llu %7llu %8s\n", "total (maxlive: largest)",
	        (unsigned long long)nins, (unsigned long long)nblk, (unsigned long long)nval,
	        (unsigned long long)nphi, lbuf);
	fprintf(stderr, "  pass times (seconds, all functions):\n");
	fprintf(stderr, "    %-16s %10.6f\n", "parse", parse_s);
	for (int k = 0; k < o->npass; k++)
		fprintf(stderr, "    %-16s %10.6f\n", o->pass[k]->name, time[k]);
	fprintf(stderr, "    %-16s %10.6f\n", "emit", emit_s);
	fprintf(stderr, "  module memory: %zu bytes\n", arena_bytes(m->arena));
	print_fiber_stats(stderr, m, o->kernel);
}

/* --emit=pressure (csv) and --pressure-svg (svg), from liveness after the passes
 * (passes/pressure.c, backend/pressuresvg.c); -1 after reporting */
static int
write_pressure(const Options *o, Module *m, FILE *csv, FILE *svg, Diag *d)
{
	SvgPressure *k = xmalloc((m->nfn + 1) * sizeof *k);
	Pressure **pr = xmalloc((m->nfn + 1) * sizeof *pr);
	uint32_t nk = 0;
	int rc = 0;

	for (uint32_t j = 0; j < m->nfn && rc == 0; j++) {
		Fn *f = m->fn[j];
		Live *l;
		int *r;
		if (o->kernel && strcmp(mstr(m, f->name), o->kernel) != 0)
			continue;
		if (!f->blk && (cfg_build(f, d) < 0 || (dom_build(f), 0)))
			rc = -1;
		else if (!(l = live_build(f, NumArchUnit)))
			continue;
		else {
			pr[nk] = pressure_build(f, l);
			live_free(l);
			if (csv && pressure_csv(csv, f, pr[nk], nk == 0) < 0)
				rc = -1;
			r = xmalloc((pr[nk]->nins + 1) * sizeof *r);
			for (uint32_t i = 0; i < pr[nk]->nins; i++)
				r[i] = pr[nk]->live[(size_t)i * NPrCls + PrR];
			k[nk] = (SvgPressure){mstr(m, f->name), pr[nk]->nins, r, pr[nk]->maxlive,
			                      pr[nk]->nblk, pr[nk]->blkfirst};
			nk++;
		}
	}
	if (rc == 0 && svg && emit_pressure_svg(svg, k, nk) < 0)
		rc = -1;
	for (uint32_t j = 0; j < nk; j++) {
		free((int *)k[j].r);
		pressure_free(pr[j]);
	}
	free(k);
	free(pr);
	return rc;
}

/* a signal while writing: remove the temporary files (the targets stay as they were), then die
 * of the signal as if not caught */
static void
on_signal(int sig)
{
	outfile_cleanup_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* a .ptx input: parsed and checked (frontend/ptx/ptx.y, ptxcheck.c), then lowered to SASS text with
 * virtual registers (backend/isel/ptxlow.c), which main reads like any listing. --emit=ptx prints
 * the AST back, --emit=isel the lowered text. Returns the lowered text (*src replaced), or NULL
 * with *status set when nothing more is to be done. */
static Src *
ptx_main(Options *o, Src *src, Diag *d, int *status)
{
	OutFile outf = {.slot = -1};
	Ptx *p = ptx_parse(src, d);
	Src *low = NULL;
	int sm = 0, sfx = 0;

	*status = ExitUser;
	if (!p)
		goto done;
	if (o->arch && sm_of_string(o->arch, &sm, &sfx) < 0)
		die("architecture table out of sync");
	if (!o->emit_ptx) {
		PtxLower lo = { .sm = sm, .suffix = sfx, .comments = o->emit_isel, .kernel = o->kernel,
		                .fiber = o->mode == FModeFiber || o->emit_isel };
		low = ptx_lower_opts(p, &lo, d);
		o->refused = lo.nrefused;
		if (!low)
			goto done;
		if (!o->emit_isel) {
			ptx_free(p);
			src_free(src);
			return low;
		}
	}
	if (o->output && outfile_open(&outf, o->output) < 0) {
		error_plain(d, "cannot write '%s': %s", o->output, strerror(errno));
		goto done;
	}
	if (low)
		fputs(low->text, outf.fp ? outf.fp : stdout);
	else
		ptx_print(outf.fp ? outf.fp : stdout, p);
	if (outf.fp ? outfile_flush(&outf) < 0 || outfile_commit(&outf) < 0
	            : fflush(stdout) != 0 || ferror(stdout)) {
		error_plain(d, "cannot write the output: %s", strerror(errno));
		goto done;
	}
	*status = o->refused ? ExitUser : ExitOk;
done:
	limit_note(d);
	outfile_abort(&outf);
	ptx_free(p);
	src_free(src);
	if (low)
		src_free(low);
	return NULL;
}

/* the error limit reached: the front ends stop there, so the user learns that more may follow
 * and how to see them (as gcc's -fmax-errors) */
static void
limit_note(Diag *d)
{
	if (d->maxerr != INT_MAX && d->nerr >= d->maxerr)
		fprintf(d->out, "fiberc: note: stopped at the limit of %d errors (--max-errors=N raises it, "
		        "0 removes it)\n", d->maxerr);
}

static int
is_ptx_name(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && strcmp(path + n - 4, ".ptx") == 0;
}

int
main(int argc, char **argv)
{
	Options o;
	Diag d;
	Src *src;
	Module *m;
	FILE *out = stdout;
	OutFile outf = {.slot = -1}, dot = {.slot = -1}, svg = {.slot = -1};
	double time[MaxPasses] = {0}, t0, parse_s, emit_s = 0;
	int status = ExitOk, found = 0;

	parse_args(argc, argv, &o);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	diag_init(&d, NULL, stderr);
	if (o.maxerr >= 0)
		d.maxerr = o.maxerr ? o.maxerr : INT_MAX;
	if (!(src = src_read(o.input, &d)))
		return ExitUser;
	d.src = src;
	if (o.ptx) {
		int st;
		if (!(src = ptx_main(&o, src, &d, &st)))
			return st;
		d.src = src;
	}
	t0 = now_seconds();
	m = sass_parse(src, &d);
	parse_s = now_seconds() - t0;
	if (!m) {
		if (d.nerr == 0)
			error_plain(&d, "cannot read '%s'", o.input);
		limit_note(&d);
		src_free(src);
		return ExitUser;
	}
	/* the architecture first: the checks compute the slots that SSA construction then takes */
	if (o.arch && sm_of_string(o.arch, &m->sm, &m->sm_suffix) < 0)
		die("architecture table out of sync");
	if (sass_check(m, &d) < 0) {
		module_free(m);
		src_free(src);
		return ExitUser;
	}
	if (o.dump_cfg && outfile_open(&dot, o.dump_cfg) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.dump_cfg, strerror(errno));
		status = ExitUser;
		goto done;
	}
	if (o.pressure_svg && outfile_open(&svg, o.pressure_svg) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.pressure_svg, strerror(errno));
		status = ExitUser;
		goto done;
	}
	o.popt.time = time;
	for (uint32_t k = 0; k < m->nfn && status == ExitOk; k++) {
		Fn *f = m->fn[k];

		if (o.kernel && strcmp(mstr(m, f->name), o.kernel) != 0)
			continue;
		found = 1;
		if (o.maxrreg && (f->info.maxreg <= 0 || f->info.maxreg > o.maxrreg))
			f->info.maxreg = o.maxrreg;   /* the lower of --maxrregcount and .maxnreg */
		if (o.mode) {
			FPlan *p = fplan_new(f, o.mode);
			if (o.contexts)
				p->contexts = o.contexts;
			if (o.slice_regs)
				p->slice_regs = o.slice_regs;
			p->spill_local = o.spill_local;
			p->grid = o.grid;
			p->runtime = o.runtime;
		}
		if (m->has_ssa && lift_from_ir(f, &d) < 0)
			status = ExitUser;
		else if (pass_run(f, o.pass, o.npass, &o.popt, &d) < 0)
			status = ExitUser;
		else if (dot.fp && (f->blk || (cfg_build(f, &d) == 0 && (dom_build(f), 1))))
			cfg_dot(dot.fp, f);
	}
	if (status == ExitOk && o.kernel && !found) {
		error_plain(&d, "no kernel named '%s' in '%s'", o.kernel, o.input);
		status = ExitUser;
	}
	if (status == ExitOk && o.output) {
		if (outfile_open(&outf, o.output) < 0) {
			error_plain(&d, "cannot write '%s': %s", o.output, strerror(errno));
			status = ExitUser;
		} else {
			out = outf.fp;
		}
	}
	if (status == ExitOk) {
		t0 = now_seconds();
		if (o.pressure_svg && write_pressure(&o, m, NULL, svg.fp, &d) < 0)
			status = ExitUser;
		else if (o.emit_pressure ? write_pressure(&o, m, out, NULL, &d) < 0 :
		         o.emit_ir ? emit_ir(out, m, o.kernel, &d) < 0
		              : module_outssa(m, o.kernel, &d) < 0 || emit_sass(out, m, o.kernel, &d) < 0)
			status = ExitUser;
		emit_s = now_seconds() - t0;
		if (status == ExitOk && out == stdout && (fflush(out) != 0 || ferror(out))) {
			error_plain(&d, "cannot write the output: %s", strerror(errno));
			status = ExitUser;
		}
	}
	/* the files replace their targets only when everything worked; else the targets stay */
	if (status == ExitOk && outfile_flush(&outf) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.output, strerror(errno));
		status = ExitUser;
	}
	if (status == ExitOk && outfile_flush(&dot) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.dump_cfg, strerror(errno));
		status = ExitUser;
	}
	if (status == ExitOk && svg.fp && (outfile_flush(&svg) < 0 || outfile_commit(&svg) < 0)) {
		error_plain(&d, "cannot write '%s': %s", o.pressure_svg, strerror(errno));
		status = ExitUser;
	}
	if (status == ExitOk && outf.fp && outfile_commit(&outf) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.output, strerror(errno));
		status = ExitUser;
	}
	if (status == ExitOk && dot.fp && outfile_commit(&dot) < 0) {
		error_plain(&d, "cannot write '%s': %s", o.dump_cfg, strerror(errno));
		status = ExitUser;
	}
	if (status == ExitOk && o.stats)
		print_stats(&o, m, time, parse_s, emit_s);
	if (status == ExitOk && o.refused) {
		/* the kernels that compiled are written; the refused ones make the run fail */
		error_plain(&d, "%u kernel%s refused (named above); the output holds the other %u%s",
		            o.refused, o.refused == 1 ? "" : "s", m->nfn,
		            o.kernel ? "" : " (--kernel=NAME compiles one kernel alone)");
		status = ExitUser;
	}
done:
	outfile_abort(&outf);
	outfile_abort(&dot);
	outfile_abort(&svg);
	module_free(m);
	src_free(src);
	return status;
}
