/* cli.c: parsing fibersim's `run` command line (cli.h). Numbers are strict: decimal or 0x hex,
 * no sign where none is allowed, no spaces, no suffixes, nothing that overflows its type; grid
 * and block dimensions are at least 1 and within CUDA's limits; counts (--threads, --sample-*,
 * --trace-limit) are at least 1. Options of the timing model conflict with --functional.
 */
#include "cli.h"
#include "fiber.h"
#include "arch.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[] = {
	[ArgBuf] = "buf", [ArgZeros] = "zeros", [ArgU32] = "u32", [ArgI32] = "i32",
	[ArgU64] = "u64", [ArgI64] = "i64", [ArgF32] = "f32", [ArgUninit] = "uninit",
	[ArgTmap] = "tmap",
};

const char *
cli_kind_name(int kind)
{
	return kind >= 0 && kind <= ArgTmap ? kind_name[kind] : "?";
}

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* an unsigned number, decimal or 0x hex, at most max; -1 if malformed or too large */
static int
parse_uint(const char *s, uint64_t max, uint64_t *v)
{
	unsigned base = 10;
	uint64_t x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned dgt;
		if (*s >= '0' && *s <= '9')
			dgt = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (dgt > max || x > (max - dgt) / base)
			return -1;
		x = x * base + dgt;
	}
	*v = x;
	return 0;
}

/* a signed number: an optional '-', then as parse_uint; within [-(max+1), max] */
static int
parse_int(const char *s, uint64_t max, int64_t *v)
{
	uint64_t x;

	if (s[0] == '-') {
		if (parse_uint(s + 1, max + 1, &x) < 0)
			return -1;
		*v = x == max + 1 ? -(int64_t)max - 1 : -(int64_t)x;
		return 0;
	}
	if (parse_uint(s, max, &x) < 0)
		return -1;
	*v = (int64_t)x;
	return 0;
}

/* a float that fits in f32: no spaces, nothing after it; inf and nan only when spelt so */
static int
parse_f32(const char *s, float *v)
{
	char *end;
	float f;

	if (!*s || strchr(" \t\n\v\f\r", s[0]))
		return -1;
	errno = 0;
	f = strtof(s, &end);
	if (*end || end == s)
		return -1;
	if (isinf(f) && errno == ERANGE)
		return -1;
	*v = f;
	return 0;
}

int
cli_parse_spec(const char *s, CliArg *a, char *err, size_t n)
{
	const char *colon = strchr(s, ':'), *v;
	size_t klen;
	int kind = -1;

	memset(a, 0, sizeof *a);
	a->spec = s;
	if (!colon)
		return fail(err, n, "bad --arg '%.200s': expected TYPE:VALUE (buf:PATH, zeros:BYTES, "
		            "u32:N, i32:N, u64:N, i64:N or f32:X)", s);
	klen = (size_t)(colon - s);
	v = colon + 1;
	for (int k = 0; k <= ArgTmap; k++)
		if (strlen(kind_name[k]) == klen && strncmp(s, kind_name[k], klen) == 0)
			kind = k;
	if (kind < 0)
		return fail(err, n, "bad --arg '%.200s': unknown type '%.*s' (buf, zeros, uninit, u32, i32, "
		            "u64, i64, f32 or tmap)", s, (int)(klen > 32 ? 32 : klen), s);
	a->kind = kind;
	a->size = kind == ArgU32 || kind == ArgI32 || kind == ArgF32 ? 4 : kind == ArgTmap ? 128 : 8;
	switch (kind) {
	case ArgTmap:
		return cli_parse_tmap(s, v, &a->tmap, err, n);
	case ArgBuf:
		if (!*v)
			return fail(err, n, "bad --arg '%.200s': buf: needs a file name", s);
		a->path = v;
		return 0;
	case ArgZeros:
	case ArgUninit:
		if (parse_uint(v, CliMaxZeros, &a->bytes) < 0 || a->bytes == 0)
			return fail(err, n, "bad --arg '%.200s': %s: takes a size from 1 to %u bytes", s,
			            kind_name[kind], CliMaxZeros);
		return 0;
	case ArgU32:
	case ArgU64:
		if (parse_uint(v, kind == ArgU32 ? UINT32_MAX : UINT64_MAX, &a->bits) < 0)
			return fail(err, n, "bad --arg '%.200s': not a %s (0 to %llu)", s, kind_name[kind],
			            kind == ArgU32 ? (unsigned long long)UINT32_MAX
			                           : (unsigned long long)UINT64_MAX);
		return 0;
	case ArgI32:
	case ArgI64: {
		int64_t x;
		if (parse_int(v, kind == ArgI32 ? INT32_MAX : INT64_MAX, &x) < 0)
			return fail(err, n, "bad --arg '%.200s': not an %s (%lld to %lld)", s, kind_name[kind],
			            kind == ArgI32 ? (long long)INT32_MIN : (long long)INT64_MIN,
			            kind == ArgI32 ? (long long)INT32_MAX : (long long)INT64_MAX);
		a->bits = kind == ArgI32 ? (uint32_t)(int32_t)x : (uint64_t)x;
		return 0;
	}
	default: {
		float f;
		uint32_t u;
		if (parse_f32(v, &f) < 0)
			return fail(err, n, "bad --arg '%.200s': not an f32 (a finite float within "
			            "+-3.4e38, inf or nan)", s);
		memcpy(&u, &f, sizeof u);
		a->bits = u;
		return 0;
	}
	}
}

int
cli_parse_dims(const char *opt, const char *s, int grid, unsigned d[3], char *err, size_t n)
{
	static const char xyz[] = "xyz";
	const char *p = s;

	d[0] = d[1] = d[2] = 1;
	for (int k = 0; k < 3; k++) {
		uint64_t max = grid ? (k == 0 ? 0x7fffffff : 65535) : (k == 2 ? 64 : 1024), v;
		size_t len = strcspn(p, ",");
		char buf[32];

		if (len == 0 || len >= sizeof buf)
			return fail(err, n, "bad %s '%.100s': expected X[,Y[,Z]], positive integers", opt, s);
		memcpy(buf, p, len);
		buf[len] = 0;
		if (parse_uint(buf, max, &v) < 0 || v == 0)
			return fail(err, n, "bad %s '%.100s': %c must be an integer from 1 to %llu", opt, s,
			            xyz[k], (unsigned long long)max);
		d[k] = (unsigned)v;
		p += len;
		if (!*p)
			return 0;
		p++;
		if (k == 2 || !*p)
			break;
	}
	return fail(err, n, "bad %s '%.100s': expected X[,Y[,Z]], at most three positive integers",
	            opt, s);
}

/* the value of --name=V or --name V; *k advances past V. NULL if argv[*k] is not --name */
static const char *
optval(int argc, char *const *argv, int *k, const char *name, int *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*k];

	*missing = 0;
	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*k + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*k];
}

/* a count from 1 to max for option opt */
static int
count(const char *opt, const char *s, uint64_t max, uint64_t *v, char *err, size_t n)
{
	if (parse_uint(s, max, v) < 0 || *v == 0)
		return fail(err, n, "bad %s '%.100s': a number from 1 to %llu", opt, s,
		            (unsigned long long)max);
	return 0;
}

static int
once(const char *opt, const void *seen, char *err, size_t n)
{
	if (seen)
		return fail(err, n, "%s given more than once", opt);
	return 0;
}

static int
parse_out(const char *s, CliOut *o, char *err, size_t n)
{
	const char *colon = strchr(s, ':');
	char buf[16];
	uint64_t i;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof buf || !colon[1])
		return fail(err, n, "bad --out '%.200s': expected I:FILE (I: the 0-based argument index)", s);
	memcpy(buf, s, (size_t)(colon - s));
	buf[colon - s] = 0;
	if (parse_uint(buf, CliMaxArgs - 1, &i) < 0)
		return fail(err, n, "bad --out '%.200s': '%s' is not an argument index", s, buf);
	o->index = (unsigned)i;
	o->path = colon + 1;
	return 0;
}

/* --symbol or --symbol-out NAME:FILE, appended to *v */
static int
parse_sym(const char *opt, const char *s, CliSym **v, unsigned *nv, char *err, size_t n)
{
	const char *colon = strchr(s, ':');
	char *name;

	if (!colon || colon == s || !colon[1])
		return fail(err, n, "bad %s '%.200s': expected NAME:FILE (NAME: a __device__ or "
		            "__constant__ variable)", opt, s);
	if (*nv == CliMaxOuts)
		return fail(err, n, "more than %d %s options", CliMaxOuts, opt);
	if (*nv % 16 == 0 && !(*v = realloc(*v, (*nv + 16) * sizeof **v)))
		return fail(err, n, "out of memory");
	if (!(name = malloc((size_t)(colon - s) + 1)))
		return fail(err, n, "out of memory");
	memcpy(name, s, (size_t)(colon - s));
	name[colon - s] = 0;
	(*v)[*nv].name = name;
	(*v)[*nv].path = colon + 1;
	(*nv)++;
	return 0;
}

int
cli_parse_run(int argc, char *const *argv, CliRun *r, char *err, size_t n)
{
	const char *v, *grid = NULL, *block = NULL, *smem = NULL, *arch = NULL, *tlimit = NULL;
	const char *threads = NULL, *ssms = NULL, *sctas = NULL, *cluster = NULL;
	int missing = 0;

	memset(r, 0, sizeof *r);
	err[0] = 0;
	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			r->help = 1;
			return 1;
		}
		if ((v = optval(argc, argv, &k, "--kernel", &missing))) {
			if (once("--kernel", r->kernel, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--kernel needs a kernel name");
			r->kernel = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--grid", &missing))) {
			if (once("--grid", grid, err, n) < 0 || cli_parse_dims("--grid", v, 1, r->grid, err, n) < 0)
				return -1;
			grid = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--cluster", &missing))) {
			if (once("--cluster", cluster, err, n) < 0
			    || cli_parse_dims("--cluster", v, 0, r->cluster, err, n) < 0)
				return -1;
			cluster = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--block", &missing))) {
			if (once("--block", block, err, n) < 0
			    || cli_parse_dims("--block", v, 0, r->block, err, n) < 0)
				return -1;
			block = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--arch", &missing))) {
			const Arch *dev = arch_named(v);
			char list[128];
			if (once("--arch", arch, err, n) < 0)
				return -1;
			if (!dev || !(dev->support & ArchDevice)) {
				arch_list(list, sizeof list, ArchDevice, ", ", " or ");
				return fail(err, n, "unsupported --arch '%.100s' (%s)", v, list);
			}
			r->arch = dev->sm;
			arch = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--config", &missing))) {
			if (once("--config", r->config, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--config needs a name (a100, h100, b200) or a file");
			r->config = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--dynamic-smem", &missing))) {
			uint64_t x;
			if (once("--dynamic-smem", smem, err, n) < 0)
				return -1;
			if (parse_uint(v, UINT32_MAX, &x) < 0)
				return fail(err, n, "bad --dynamic-smem '%.100s': a byte count from 0 to %u", v,
				            UINT32_MAX);
			r->dyn_smem = (uint32_t)x;
			smem = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--arg", &missing))) {
			if (r->narg == CliMaxArgs)
				return fail(err, n, "more than %d --arg options", CliMaxArgs);
			if (r->narg % 16 == 0)
				r->arg = realloc(r->arg, (r->narg + 16) * sizeof *r->arg);
			if (!r->arg)
				return fail(err, n, "out of memory");
			if (cli_parse_spec(v, &r->arg[r->narg], err, n) < 0)
				return -1;
			r->narg++;
		} else if (!missing && (v = optval(argc, argv, &k, "--out", &missing))) {
			if (r->nout == CliMaxOuts)
				return fail(err, n, "more than %d --out options", CliMaxOuts);
			if (r->nout % 16 == 0)
				r->out = realloc(r->out, (r->nout + 16) * sizeof *r->out);
			if (!r->out)
				return fail(err, n, "out of memory");
			if (parse_out(v, &r->out[r->nout], err, n) < 0)
				return -1;
			r->nout++;
		} else if (!missing && (v = optval(argc, argv, &k, "--symbol", &missing))) {
			if (parse_sym("--symbol", v, &r->sym, &r->nsym, err, n) < 0)
				return -1;
		} else if (!missing && (v = optval(argc, argv, &k, "--symbol-out", &missing))) {
			if (parse_sym("--symbol-out", v, &r->symout, &r->nsymout, err, n) < 0)
				return -1;
		} else if (!missing && (v = optval(argc, argv, &k, "--stats", &missing))) {
			if (once("--stats", r->stats, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--stats needs a file name");
			r->stats = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--trace", &missing))) {
			if (once("--trace", r->trace, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--trace needs a file name");
			r->trace = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--trace-limit", &missing))) {
			if (once("--trace-limit", tlimit, err, n) < 0
			    || count("--trace-limit", v, CliMaxTraceLimit, &r->trace_limit, err, n) < 0)
				return -1;
			tlimit = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--warp-order", &missing))) {
			uint64_t x;
			if (r->warp_seed || r->order_check)
				return fail(err, n, "--warp-order given twice");
			if (strncmp(v, "random:", 7) == 0) {
				if (parse_uint(v + 7, UINT64_MAX, &x) < 0 || x == 0)
					return fail(err, n, "bad --warp-order '%.100s': random:SEED, SEED from 1 to "
					            "%llu", v, (unsigned long long)UINT64_MAX);
				r->warp_seed = x;
			} else if (strncmp(v, "check:", 6) == 0) {
				if (count("--warp-order check:", v + 6, CliMaxOrders, &x, err, n) < 0)
					return -1;
				r->order_check = (unsigned)x;
			} else {
				return fail(err, n, "bad --warp-order '%.100s': random:SEED or check:N", v);
			}
		} else if (!missing && (v = optval(argc, argv, &k, "--threads", &missing))) {
			uint64_t x;
			if (once("--threads", threads, err, n) < 0
			    || count("--threads", v, CliMaxThreads, &x, err, n) < 0)
				return -1;
			r->threads = (unsigned)x;
			threads = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--sample-sms", &missing))) {
			uint64_t x;
			if (once("--sample-sms", ssms, err, n) < 0
			    || count("--sample-sms", v, CliMaxSampleSms, &x, err, n) < 0)
				return -1;
			r->sample_sms = (uint32_t)x;
			ssms = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--sample-ctas", &missing))) {
			uint64_t x;
			if (once("--sample-ctas", sctas, err, n) < 0
			    || count("--sample-ctas", v, INT32_MAX, &x, err, n) < 0)
				return -1;
			r->sample_ctas = (uint32_t)x;
			sctas = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--set", &missing))) {
			const char *eq = strchr(v, '=');
			if (r->nset == CliMaxSets)
				return fail(err, n, "more than %d --set options", CliMaxSets);
			if (!eq || eq == v)
				return fail(err, n, "bad --set '%.200s': expected KEY=VALUE", v);
			if (r->nset % 16 == 0)
				r->set = realloc(r->set, (r->nset + 16) * sizeof *r->set);
			if (!r->set)
				return fail(err, n, "out of memory");
			r->set[r->nset++] = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--cpi-svg", &missing))) {
			if (once("--cpi-svg", r->cpi_svg, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--cpi-svg needs a file name");
			r->cpi_svg = v;
		} else if (!missing && (v = optval(argc, argv, &k, "--fiber-svg", &missing))) {
			if (once("--fiber-svg", r->fiber_svg, err, n) < 0)
				return -1;
			if (!*v)
				return fail(err, n, "--fiber-svg needs a file name");
			r->fiber_svg = v;
		} else if (missing) {
			return fail(err, n, "option '%.100s' needs a value", a);
		} else if (strcmp(a, "--functional") == 0) {
			r->functional = 1;
		} else if (strcmp(a, "--quiet") == 0) {
			r->quiet = 1;
		} else if (strcmp(a, "--cooperative") == 0) {
			r->cooperative = 1;
		} else if (strcmp(a, "--no-verify") == 0) {
			r->noverify = 1;
		} else if (strcmp(a, "--racecheck") == 0) {
			r->checks |= FIBER_CHECK_RACE;
		} else if (strcmp(a, "--synccheck") == 0) {
			r->checks |= FIBER_CHECK_SYNC;
		} else if (strcmp(a, "--initcheck") == 0) {
			r->checks |= FIBER_CHECK_INIT;
		} else if (a[0] == '-' && a[1]) {
			return fail(err, n, "unknown option '%.100s'", a);
		} else {
			if (r->file)
				return fail(err, n, "more than one input file ('%.100s' and '%.100s')", r->file, a);
			if (!*a)
				return fail(err, n, "empty file name");
			r->file = a;
		}
	}
	if (!r->file)
		return fail(err, n, "no input file");
	if (!r->kernel)
		return 0;       /* the driver loads FILE to list its kernels with the error */
	if (!grid)
		return fail(err, n, "--grid X[,Y[,Z]] is required");
	if (!block)
		return fail(err, n, "--block X[,Y[,Z]] is required");
	if (tlimit && !r->trace)
		return fail(err, n, "--trace-limit needs --trace FILE.json");
	if ((r->warp_seed || r->order_check) && !r->functional)
		return fail(err, n, "--warp-order needs --functional (the timing model has its own warp "
		            "schedulers)");
	if (r->functional) {
		const char *timing = r->trace ? "--trace" : r->cpi_svg ? "--cpi-svg"
		                     : r->fiber_svg ? "--fiber-svg" : threads ? "--threads"
		                     : ssms ? "--sample-sms" : sctas ? "--sample-ctas" : NULL;
		if (timing)
			return fail(err, n, "%s needs the timing model; --functional turns it off", timing);
	}
	for (unsigned k = 0; k < r->narg; k++) {
		const CliArg *a = &r->arg[k];
		if (a->kind != ArgTmap || a->tmap.of == CliOwn)
			continue;
		if (a->tmap.of >= r->narg || (r->arg[a->tmap.of].kind != ArgBuf &&
		                              r->arg[a->tmap.of].kind != ArgZeros &&
		                              r->arg[a->tmap.of].kind != ArgUninit))
			return fail(err, n, "bad --arg '%.200s': argument %u is not a buffer (buf:, zeros: or "
			            "uninit:)", a->spec, a->tmap.of);
	}
	for (unsigned k = 0; k < r->nout; k++) {
		const CliOut *o = &r->out[k];
		if (o->index >= r->narg)
			return fail(err, n, "--out %u:%.100s: there are only %u arguments (0-based)", o->index,
			            o->path, r->narg);
		if (r->arg[o->index].kind != ArgBuf && r->arg[o->index].kind != ArgZeros &&
		    r->arg[o->index].kind != ArgUninit &&
		    (r->arg[o->index].kind != ArgTmap || r->arg[o->index].tmap.of != CliOwn))
			return fail(err, n, "--out %u:%.100s: argument %u (%.100s) is not a buffer", o->index,
			            o->path, o->index, r->arg[o->index].spec);
	}
	return 0;
}

void
cli_free(CliRun *r)
{
	free(r->arg);
	free(r->out);
	free(r->set);
	for (unsigned k = 0; k < r->nsym; k++)
		free((char *)r->sym[k].name);
	for (unsigned k = 0; k < r->nsymout; k++)
		free((char *)r->symout[k].name);
	free(r->sym);
	free(r->symout);
	memset(r, 0, sizeof *r);
}
