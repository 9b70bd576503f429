/* rt.h: the runtime library's private structures: what a fiberDevice, fiberModule and
 * fiberFunction handle point to, the handle registry, error reporting, configurations, the
 * cubin reader, and the per-launch records behind the statistics JSON and the trace. Built on sim/, frontend/ and ir/; never installed (fiber.h is the public face).
 */
#ifndef FIBER_RT_H
#define FIBER_RT_H

#include "fiber.h"
#include "frontend.h"
#include "ir.h"
#include "sim.h"
#include "timing.h"

#include <stdio.h>

enum {
	RtMsgSize = 1024,          /* bytes of a one-line error message */
	RtNameSize = 64,           /* bytes of a configuration name */
	RtPathSize = 1024,         /* bytes of a disassembler path */
	RtMaxThreads = 256,        /* fiberDeviceSetThreads */
	RtMaxSampleSms = 1024,     /* fiberDeviceSetSampling: the most SMs a configuration has */
	RtTraceEvents = 1000000,   /* fiberDeviceSetTrace's default limit */
};

/* what a handle is, for the registry */
enum RtKind {
	RtDevice = 1,
	RtModule,
	RtFunction,
};

/* one launch, for the statistics JSON (stats.c) and the summary */
/* why a kernel owns its SM on a FIBER SM (RtLaunch.fiber_owner; sim/launch.c fiber_solo) */
enum {
	RtOwnSetfibernum = 1,      /* it has SETFIBERNUM: an SM-wide sync that re-partitions */
	RtOwnPool = 2,             /* it declares a pool: SM state */
};

typedef struct RtLaunch {
	char *kernel;              /* the kernel's name (malloc) */
	char config[RtNameSize];   /* the device configuration's name */
	uint32_t grid[3], block[3];
	uint32_t dyn_smem;
	int mode;                  /* fiberSimMode */
	int fault;                 /* SimFaultKind; FaultNone: it ran to completion */
	SimTStats t;               /* timing mode: all of it; functional: the instruction counts.
	                              Owns t.sm */
	uint32_t nsm;              /* the configuration's, for the derived figures */
	uint32_t subpartitions;
	uint32_t clock_mhz;
	uint32_t sample_sms, sample_ctas; /* the sampling asked for (0: all) */
	unsigned fiber_owner;      /* RtOwnSetfibernum | RtOwnPool: what makes the kernel own its
	                              SM on a FIBER SM (one CTA per SM); 0 none */
	uint32_t maxfibers;        /* the kernel's .maxfibers, 0 none */
	SimConfig cfg;             /* the configuration it ran on, every key (reproducibility) */
	int traced;                /* its events are in the trace */
	uint64_t trace_start;      /* its start on the trace's time line, cycles */
} RtLaunch;

/* the trace being recorded (fiberDeviceSetTrace) */
typedef struct RtTrace {
	char *path;                /* where it goes (malloc); NULL: not tracing */
	uint64_t limit;            /* events kept at most */
	TraceEv *ev;               /* every traced launch's events, start on the trace's time line */
	uint64_t n, cap;
	uint64_t dropped;          /* events over the limit */
	uint32_t untraced;         /* timed launches not traced: the limit was reached before */
	uint64_t end;              /* end of the last traced launch, cycles */
	uint32_t clock_mhz;        /* of the first traced launch, for the file's metadata */
} RtTrace;

struct fiberDevice_st {
	SimConfig cfg;             /* configuration; cfg.name points into name */
	char name[RtNameSize];     /* configuration name */
	char nvdisasm[RtPathSize]; /* the configuration's disassembler, "" none */
	int chosen;                /* cfg is final (explicit, or auto after the first module) */
	Gpu *gpu;                  /* the simulator's device, created when chosen */
	struct fiberModule_st *mods; /* loaded modules, newest first */
	fiberStats stats;          /* totals over every launch */
	SimFault fault;            /* the last launch's fault (kind FaultNone if none) */
	char msg[RtMsgSize];       /* the last failure's one-line message */
	char *log;                 /* the last module load's diagnostics (malloc), NULL none */
	int mode;                  /* fiberSimMode */
	unsigned threads;          /* host threads of a timed launch */
	uint32_t sample_sms, sample_ctas; /* fiberDeviceSetSampling */
	RtLaunch *launch;          /* every launch, oldest first */
	uint32_t nlaunch, claunch;
	RtTrace trace;
	int noverify;              /* fiberDeviceSetVerify(d, 0): loads skip the checks (verify.c) */
	fiberProgressFn progress;  /* fiberDeviceSetProgress, NULL none */
	void *progress_arg;
	void *out_file;            /* FILE * of device printf (fiberDeviceSetOutput), NULL stdout */
	void *report_file;         /* FILE * of asserts and checks' reports, NULL stderr */
	unsigned checks;           /* fiberDeviceSetChecks: SimCheck bits, 0 none */
	uint64_t check_count;      /* what the checks of the last launch found */
	uint64_t warp_order;       /* fiberDeviceSetWarpOrder: 0 round-robin, else a seed */
};

struct fiberModule_st {
	fiberDevice dev;           /* owner */
	struct fiberModule_st *next; /* next module of the device */
	Src *src;                  /* the text it was parsed from (diagnostics point into it) */
	Module *m;                 /* the parsed module */
	SimModule *sm;             /* the module placed on the simulated device */
	struct fiberFunction_st *fn; /* its kernels, in listing order */
	uint32_t nfn;
	struct RtRejected *rej;    /* kernels the simulator cannot run (the others can) */
	uint32_t nrej;
	struct RtSymbol *sym;      /* its variables (symbol.c), built on first use */
	uint32_t nsym, csym;
	int sym_built;
};

/* a module-scope variable (symbol.c) */
typedef struct RtSymbol {
	const char *name;          /* the module's atom */
	int bank;                  /* constant bank of a __constant__ variable; -1 __device__ */
	uint64_t offset;           /* in the bank, or in its .nv.global section */
	uint64_t size;             /* bytes */
	fiberDevicePtr addr;       /* __device__: device address */
} RtSymbol;

/* a kernel of a loaded module that the simulator cannot decode: looking it up fails with the
 * message its load would have given */
typedef struct RtRejected {
	char *name;                /* symbol name (malloc) */
	char *msg;                 /* the one-line message, `file:line:col: error: ...` (malloc) */
	char *log;                 /* every diagnostic of its decoding (malloc) */
} RtRejected;

struct fiberFunction_st {
	fiberModule mod;           /* owner */
	Fn *f;                     /* the kernel's IR: name, KInfo */
	const Prog *prog;          /* its decoded program */
	const char *name;          /* symbol name (the module's atom) */
	int has_param_info;        /* the parameter layout is known */
	uint32_t param_size;       /* bytes of the parameter block when known */
};

/* A kernel of a cubin as its ELF file describes it, to check the disassembler's listing against. */
typedef struct CubinKernel {
	char *name;                /* symbol name (malloc) */
	uint32_t nparam;           /* EIATTR_KPARAM_INFO entries */
	Param *param;              /* sorted by ordinal (malloc) */
	int cbank_param_size;      /* EIATTR_CBANK_PARAM_SIZE, -1 none */
} CubinKernel;

typedef struct Cubin {
	int sm;                    /* architecture from e_flags, 0 unknown */
	CubinKernel *k;            /* kernels: STO_CUDA_ENTRY function symbols (malloc) */
	uint32_t nk;
} Cubin;

/* device.c */
int rt_live(const void *h, int kind);              /* h is a registered handle of that kind */
void rt_register(const void *h, int kind);
void rt_unregister(const void *h);
fiberStatus rt_err(fiberDevice d, fiberStatus s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));          /* records the message, returns s */
fiberStatus rt_choose(fiberDevice d, int sm);      /* fix an auto device's configuration */
void rt_set_log(fiberDevice d, char *log);         /* takes ownership */

/* stats.c: launch records */
void rt_launch_record(fiberDevice d, RtLaunch *l);  /* appends; takes ownership of l's memory */
void rt_launches_free(fiberDevice d);

/* trace.c */
void rt_trace_add(fiberDevice d, RtLaunch *l, const TraceBuf *b); /* a launch's events */
fiberStatus rt_trace_finish(fiberDevice d);        /* write the file, stop tracing */

/* config.c: fills d->cfg, d->name, d->nvdisasm from a name or a file */
fiberStatus rt_config(fiberDevice d, const char *config);
fiberStatus rt_config_text(fiberDevice d, const char *name, const char *text, size_t n);
void rt_config_builtin(fiberDevice d, int sm);     /* a100 for 80, h100 for 90 */

/* devio.c: device printf and assert text after a launch */
void rt_devout_flush(fiberDevice d);
FILE *rt_report_file(fiberDevice d);               /* fiberDeviceSetOutput's, or stderr */
const Prog *rt_check_begin(fiberDevice d, const Prog *k); /* the program to launch: k, or its
                                                      checked variant under fiberDeviceSetChecks;
                                                      the warp order (functional) set */
void rt_check_end(fiberDevice d, const unsigned block[3]); /* the checks' report, after it */

/* cubin.c */
int rt_is_elf(const void *data, size_t size);
fiberStatus rt_cubin_read(fiberDevice d, const char *name, const void *data, size_t size,
                          Cubin *out);              /* validate the ELF, find the kernels */
void rt_cubin_free(Cubin *c);
int rt_nvinfo_read(const uint8_t *b, size_t n, CubinKernel *k); /* one .nv.info section's
                              attributes: 0, or -1 if they do not tile it; k (or NULL) gets the
                              parameters */
fiberStatus rt_disassemble(fiberDevice d, const char *name, const void *data, size_t size,
                           char **text, size_t *len); /* run nvdisasm -hex on a temp copy */

/* verify.c: the checks of a module load (fiberc's: sass_check, the verifier's linear checks with
 * the FIBER ones); full 0 (fiberDeviceSetVerify off): the encoding check alone. 0, or -1 after
 * located errors into d */
int rt_verify(Module *m, Diag *d, int full);

#endif /* FIBER_RT_H */
