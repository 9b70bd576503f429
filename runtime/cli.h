/* cli.h: the fibersim command line, parsed without I/O and without exiting, so that the driver
 * (driver/fibersim.c), the tests and the fuzzer (fuzz/fuzz_args.c) share one parser. Private to
 * the tree: not installed.
 *
 *   fibersim run FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
 *       [--arch sm_80|sm_90] [--config NAME|FILE] [--dynamic-smem BYTES]
 *       [--arg SPEC]...  [--out I:FILE]...  [--stats FILE.json] [--functional] [--quiet]
 *       [--trace FILE.json [--trace-limit N]] [--threads N] [--sample-sms N] [--sample-ctas N]
 *       [--set KEY=VALUE]...  [--cpi-svg FILE.svg] [--symbol NAME:FILE]... [--symbol-out NAME:FILE]...
 *       [--no-verify]
 *   fibersim cpi-svg STATS.json -o OUT.svg        (cpisvg.c)
 */
#ifndef FIBER_CLI_H
#define FIBER_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum CliArgKind {
	ArgBuf,                    /* buf:PATH: a device buffer holding PATH's bytes */
	ArgZeros,                  /* zeros:BYTES: a zero-filled device buffer */
	ArgU32,                    /* u32:N */
	ArgI32,                    /* i32:N */
	ArgU64,                    /* u64:N */
	ArgI64,                    /* i64:N */
	ArgF32,                    /* f32:X */
	ArgUninit,                 /* uninit:BYTES: a device buffer the host never writes */
	ArgTmap,                   /* tmap:TYPE,DIMS,BOX[,KEY=VALUE]...: a 128-byte tensor map over
	                              a buffer of its own or another argument's (clitmap.c) */
};

enum {
	CliMaxArgs = 8192,         /* --arg options (a 32764-byte parameter block of u32) */
	CliMaxOuts = 8192,         /* --out options; --symbol and --symbol-out options each */
	CliMaxZeros = 1u << 30,    /* bytes of a zeros: buffer (1 GiB) */
	CliMaxOrders = 1000,       /* --warp-order check:N */
	CliMaxSets = 4096,         /* --set options */
	CliMaxThreads = 256,       /* --threads */
	CliMaxSampleSms = 1024,    /* --sample-sms */
	CliMaxTraceLimit = 100000000, /* --trace-limit: events (32 bytes each in memory) */
};

enum { CliOwn = ~0u };
/* a tmap: argument: cuTensorMapEncodeTiled's parameters but the address */
typedef struct CliTmap {
	unsigned of;               /* the argument whose buffer it maps (of=N); CliOwn: its own */
	const char *path;          /* its own buffer holds this file (buf=PATH); NULL: zeros */
	uint64_t offset;           /* bytes into that buffer */
	int type, interleave, swizzle, l2, oob; /* the enumerations (CUDA's values) */
	unsigned rank;             /* 1..5 */
	uint64_t dim[5];           /* globalDim */
	uint64_t stride[4];        /* globalStrides (bytes) */
	uint32_t box[5];           /* boxDim */
	uint32_t estride[5];       /* elementStrides */
} CliTmap;

typedef struct CliArg {
	int kind;                  /* CliArgKind */
	const char *spec;          /* as written */
	const char *path;          /* ArgBuf: the file */
	uint64_t bytes;            /* ArgZeros, ArgUninit: the buffer size */
	uint64_t bits;             /* scalars: the value's bytes, little-endian, in size bytes */
	unsigned size;             /* bytes of the parameter: 8 for buffers (their address) */
	CliTmap tmap;              /* ArgTmap */
} CliArg;

typedef struct CliOut {
	unsigned index;            /* argument whose buffer is written */
	const char *path;          /* where */
} CliOut;

typedef struct CliSym {
	const char *name;          /* the variable */
	const char *path;          /* its bytes: read before the launch (--symbol) or written after
	                              (--symbol-out) */
} CliSym;

typedef struct CliRun {
	const char *file;          /* the module */
	const char *kernel;        /* --kernel */
	unsigned grid[3];          /* --grid, missing components 1 */
	unsigned block[3];         /* --block */
	int arch;                  /* --arch: a device architecture's SM number (ir/arch.h
	                              ArchDevice: 80, 90); 0 not given */
	const char *config;        /* --config, NULL not given */
	uint32_t dyn_smem;         /* --dynamic-smem */
	CliArg *arg;               /* --arg, in order */
	unsigned narg;
	CliOut *out;               /* --out, in order */
	unsigned nout;
	CliSym *sym;               /* --symbol NAME:FILE, in order */
	unsigned nsym;
	CliSym *symout;            /* --symbol-out NAME:FILE, in order */
	unsigned nsymout;
	const char *stats;         /* --stats FILE.json, NULL none */
	int functional;            /* --functional */
	int cooperative;           /* --cooperative: cuLaunchCooperativeKernel */
	unsigned cluster[3];       /* --cluster X[,Y[,Z]]: sm_90 cluster dimensions; all 0 none */
	int quiet;                 /* --quiet: no summary */
	int noverify;              /* --no-verify: load without fiberc's checks (debugging only) */
	unsigned checks;           /* --racecheck, --synccheck, --initcheck: fiberCheck bits */
	uint64_t warp_seed;        /* --warp-order random:SEED; 0 not given */
	unsigned order_check;      /* --warp-order check:N: N random orders against the first; 0 */
	const char *trace;         /* --trace FILE.json, NULL none */
	uint64_t trace_limit;      /* --trace-limit N; 0 not given */
	unsigned threads;          /* --threads N; 0 not given */
	uint32_t sample_sms;       /* --sample-sms N; 0 not given */
	uint32_t sample_ctas;      /* --sample-ctas N; 0 not given */
	const char **set;          /* --set KEY=VALUE, in order */
	unsigned nset;
	const char *cpi_svg;       /* --cpi-svg FILE.svg, NULL none */
	const char *fiber_svg;     /* --fiber-svg FILE.svg, NULL none */
	int help;                  /* --help or -h was given */
} CliRun;

/* argv: the words after `run`. 0 ok, 1 help asked for, -1 with a one-line message in err;
 * cli_free(r) after any of them. 0 with r->kernel NULL: FILE but no --kernel (the rest is not
 * checked): the caller says --kernel is required and lists FILE's kernels. */
int cli_parse_run(int argc, char *const *argv, CliRun *r, char *err, size_t n);
void cli_free(CliRun *r);
int cli_parse_spec(const char *s, CliArg *a, char *err, size_t n);  /* 0 or -1 */
int cli_parse_tmap(const char *s, const char *v, CliTmap *t, char *err, size_t n); /* the text
                                 after tmap: of --arg s (clitmap.c); 0 or -1 */
int cli_parse_dims(const char *opt, const char *s, int grid, unsigned d[3], char *err, size_t n);
const char *cli_kind_name(int kind);                                 /* "u32", "buf", ... */

/* cpisvg.c: the CPI stacks of a statistics JSON (fiberWriteStatsJSON) as an SVG stacked bar chart,
 * one bar per kernel. 0, or -1 with a one-line message in err (not our JSON, no timed kernel) */
int cli_cpi_svg(const char *json, size_t len, const char *title, FILE *out, char *err, size_t n);
/* fibersvg.c: the FIBER timeline (fibers and vector registers of SM 0 over cycles) of a statistics
 * JSON as an SVG line chart. 0, or -1 with a one-line message in err (not our JSON, no kernel ran
 * on the FIBER model) */
int cli_fiber_svg(const char *json, size_t len, const char *title, FILE *out, char *err, size_t n);

#endif /* FIBER_CLI_H */
