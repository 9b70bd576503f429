/* fiber.h: the fiber runtime library, a C API in the spirit of the CUDA driver API for host
 * programs that run SASS kernels on fiber's simulated GPU. Create a device for a configuration,
 * load a module (SASS text, fiber IR text or a cubin), look up a kernel, allocate and copy device
 * memory, launch, read back statistics. Every call returns a fiberStatus; the one-line message of
 * the last failure is fiberGetLastErrorMessage(). Link with `pkg-config --cflags --libs fiber`.
 *
 * Threads: a device and everything made from it may be used by one thread at a time; different
 * devices may be used from different threads.
 */
#ifndef FIBER_H
#define FIBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FIBER_API __attribute__((visibility("default")))
#else
#define FIBER_API
#endif

#define FIBER_VERSION_MAJOR 0
#define FIBER_VERSION_MINOR 1

typedef struct fiberDevice_st *fiberDevice;     /* a simulated GPU and its memory */
typedef struct fiberModule_st *fiberModule;     /* a loaded module: its kernels and data */
typedef struct fiberFunction_st *fiberFunction; /* a kernel of a loaded module */
typedef uint64_t fiberDevicePtr;                /* a device (global memory) address */

typedef enum fiberStatus {
	FIBER_SUCCESS = 0,
	FIBER_ERROR_INVALID_VALUE = 1,    /* a bad argument: NULL pointer, zero size, bad dimension */
	FIBER_ERROR_INVALID_HANDLE = 2,   /* a NULL, destroyed or foreign device, module or function */
	FIBER_ERROR_INVALID_CONFIG = 3,   /* unknown configuration name, or a bad configuration file */
	FIBER_ERROR_FILE_NOT_FOUND = 4,   /* a file that cannot be opened */
	FIBER_ERROR_INVALID_SOURCE = 5,   /* module text or cubin that does not load: see the log */
	FIBER_ERROR_UNSUPPORTED = 6,      /* valid input the simulator cannot run: an instruction, an
	                                     architecture other than the device's */
	FIBER_ERROR_NO_DISASSEMBLER = 7,  /* a cubin, and no disassembler to run (FIBER_NVDISASM) */
	FIBER_ERROR_DISASSEMBLER_FAILED = 8, /* the disassembler ran and failed */
	FIBER_ERROR_NOT_FOUND = 9,        /* no kernel of that name in the module */
	FIBER_ERROR_NO_PARAM_INFO = 10,   /* the module has no parameter layout (a cuobjdump listing
	                                     has no .nv.info): launch with a packed buffer */
	FIBER_ERROR_OUT_OF_MEMORY = 11,   /* device (or host) memory exhausted */
	FIBER_ERROR_INVALID_ADDRESS = 12, /* a device range outside every allocation */
	FIBER_ERROR_LAUNCH_FAILED = 13,   /* the kernel faulted: fiberGetLastFault() says how */
	FIBER_ERROR_IO = 14,              /* reading or writing a file failed */
} fiberStatus;

/* what went wrong in a kernel (FIBER_ERROR_LAUNCH_FAILED); same numbering as the simulator */
typedef enum fiberFaultKind {
	FIBER_FAULT_NONE = 0,
	FIBER_FAULT_OUT_OF_BOUNDS = 1,    /* an address outside every allocation or window */
	FIBER_FAULT_MISALIGNED = 2,       /* an address not aligned to the access size */
	FIBER_FAULT_ILLEGAL_INSTRUCTION = 3,
	FIBER_FAULT_WATCHDOG = 4,         /* the instruction limit was reached */
	FIBER_FAULT_DEADLOCK = 5,         /* a barrier or convergence wait that can never complete */
	FIBER_FAULT_TRAP = 6,             /* BPT.TRAP, __trap() */
	FIBER_FAULT_BAD_ARGS = 7,         /* launch arguments do not match the kernel */
	FIBER_FAULT_LIMIT = 8,            /* block or shared memory over the device's limits */
	FIBER_FAULT_INTERNAL = 9,         /* a simulator bug */
	FIBER_FAULT_INTERRUPTED = 10,     /* the progress callback asked the launch to stop */
	FIBER_FAULT_ASSERT = 12,          /* a failed device assert() (CUDA: cudaErrorAssert); its
	                                     lines went to the report stream (fiberDeviceSetOutput) */
	FIBER_FAULT_MBARRIER = 13,        /* mbarrier misuse: no barrier at the address, arrivals or
	                                     transaction bytes past its counts */
	FIBER_FAULT_TENSOR_MAP = 14,      /* a TMA copy's tensor map is not one or breaks its rules */
	FIBER_FAULT_REG_WINDOW = 15,      /* a warp names a register above its setmaxnreg window */
} fiberFaultKind;

typedef struct fiberFault {
	int kind;                 /* fiberFaultKind */
	const char *name;         /* "out-of-bounds access", ...; valid until the device goes */
	char message[512];        /* one line: kernel, CTA, warp, lane, PC, address, allocation */
} fiberFault;

/* totals over every launch on a device since it was created */
typedef struct fiberStats {
	uint64_t launches;            /* kernels launched (including faulted ones) */
	uint64_t cycles;              /* simulated cycles; 0 in functional mode */
	uint64_t warp_instructions;   /* warp instructions issued */
	uint64_t thread_instructions; /* sum over issued instructions of the active lanes */
	uint64_t hazards;             /* timing mode: registers read before their producer's latency
	                                 (control bits shorter than the model's latencies) */
} fiberStats;

/* a kernel's static properties */
typedef struct fiberFuncAttributes {
	int has_param_info;       /* 1: parameter layout known (.nv.info); 0: cuobjdump listing */
	unsigned num_params;      /* parameters (0 if unknown) */
	size_t param_size;        /* bytes of the parameter block (0 if unknown) */
	int num_regs;             /* registers per thread, -1 unknown */
	size_t shared_size;       /* bytes of static shared memory */
	size_t local_size;        /* bytes of local memory per thread, 0 if unknown */
	int max_threads_per_block; /* the device's limit for this kernel */
	int arch;                 /* SASS architecture of the module: 80, 86, 89, 90; 0 unknown */
} fiberFuncAttributes;

/* a device's configuration */
typedef struct fiberDeviceProps {
	char name[64];            /* "a100", "h100", or the configuration file's name key */
	int arch;                 /* SASS architecture executed: 80 or 90 (0: not yet chosen) */
	int sm_count;             /* streaming multiprocessors */
	unsigned max_threads_per_block;
	unsigned max_shared_per_block; /* bytes, static plus dynamic */
	uint64_t watchdog;        /* warp instructions per launch before a watchdog fault */
	unsigned clock_mhz;       /* SM clock of the timing model: cycles to seconds */
} fiberDeviceProps;

/* --- errors ---------------------------------------------------------------------------------- */
FIBER_API const char *fiberGetErrorString(fiberStatus s);   /* "invalid value" */
FIBER_API const char *fiberGetErrorName(fiberStatus s);     /* "FIBER_ERROR_INVALID_VALUE" */
/* the one-line message of the last failed call on dev, or, with dev NULL, of the last failed call
 * of this thread on any device or none (fiberDeviceCreate); "" if none failed */
FIBER_API const char *fiberGetLastErrorMessage(fiberDevice dev);
/* every diagnostic of the last module load on dev, failed or not (several lines, with source
 * lines and carets, as fiberc prints them: errors, or warnings of a load that worked); ""
 * if none */
FIBER_API const char *fiberGetLastErrorLog(fiberDevice dev);
FIBER_API fiberStatus fiberGetLastFault(fiberDevice dev, fiberFault *fault);
FIBER_API const char *fiberGetVersion(void);                /* "0.1.0" */

/* --- devices --------------------------------------------------------------------------------- */
/* config: "a100" (sm_80, 108 SMs), "h100" (sm_90, 132 SMs), "b200" (Blackwell-class parameters,
 * 148 SMs, executing sm_90 SASS), the path of a configuration file (docs/sim-config.md), or NULL
 * ("auto"): the first module loaded chooses a100 for sm_80..sm_89 code and h100 for sm_90 (a100
 * if memory is allocated first). */
FIBER_API fiberStatus fiberDeviceCreate(fiberDevice *dev, const char *config);
FIBER_API fiberStatus fiberDeviceDestroy(fiberDevice dev);  /* unloads its modules */
FIBER_API fiberStatus fiberDeviceGetProperties(fiberDevice dev, fiberDeviceProps *props);
FIBER_API fiberStatus fiberGetStats(fiberDevice dev, fiberStats *stats);
/* one row of the last launch's hazards by opcode (docs/sim-stats.md, hazards_by_opcode): reads
 * of a register before the modelled latency of its producer, grouped by producer (opcode and
 * modifiers), consumer opcode, latency and the cycles nvcc's stall counts gave */
typedef struct fiberHazard {
	char producer[48];            /* "IMAD.WIDE.U32" */
	char consumer[24];            /* "IADD3" */
	unsigned latency;             /* the producer's latency in the configuration, cycles */
	unsigned stall;               /* the sum of the stall counts from producer to consumer */
	uint64_t count;               /* reads */
	unsigned producer_pc, consumer_pc; /* byte addresses of one example */
} fiberHazard;
/* *n: the rows of the last launch (0 in functional mode or before a launch) */
FIBER_API fiberStatus fiberGetHazardCount(fiberDevice dev, unsigned *n);
/* row k (0-based, most frequent first) of the last launch */
FIBER_API fiberStatus fiberGetHazard(fiberDevice dev, unsigned k, fiberHazard *row);

/* --- modules --------------------------------------------------------------------------------- */
/* path: an nvdisasm or cuobjdump -sass listing, fiberc output (SASS or IR text), or a cubin (ELF;
 * disassembled by the program named by FIBER_NVDISASM, the configuration's nvdisasm key, or
 * nvdisasm on PATH; FIBER_NVDISASM set but empty means none; killed after FIBER_NVDISASM_TIMEOUT
 * seconds, default 60). At most 1 GiB. */
FIBER_API fiberStatus fiberModuleLoadFile(fiberModule *mod, fiberDevice dev, const char *path);
/* the same from memory; name is used in diagnostics (NULL: "<memory>") */
FIBER_API fiberStatus fiberModuleLoadData(fiberModule *mod, fiberDevice dev, const void *data,
                                          size_t size, const char *name);
FIBER_API fiberStatus fiberModuleUnload(fiberModule mod);   /* its functions become invalid */
/* FIBER_ERROR_UNSUPPORTED for a kernel the simulator cannot run (an instruction it lacks) in a
 * module whose other kernels it can: the message locates the instruction, the log has all of its
 * diagnostics. A module none of whose kernels can run does not load. */
FIBER_API fiberStatus fiberModuleGetFunction(fiberFunction *fn, fiberModule mod, const char *name);
FIBER_API fiberStatus fiberModuleGetFunctionCount(fiberModule mod, unsigned *count); /* the ones
                                                      that can run */
/* name of kernel k (0-based, listing order); valid while the module is loaded */
FIBER_API fiberStatus fiberModuleGetFunctionName(fiberModule mod, unsigned k, const char **name);

/* --- module-scope variables ------------------------------------------------------------------ */
/* cuModuleGetGlobal: the size of a __device__ or __constant__ variable and, for a __device__ one,
 * its device address (for fiberMemcpy*). A __constant__ variable lives in a constant bank, not in
 * device memory: *ptr is 0; read and write it with the two calls below. FIBER_ERROR_NOT_FOUND for
 * a name the module does not define: the message lists the variables it does. */
FIBER_API fiberStatus fiberModuleGetGlobal(fiberDevicePtr *ptr, size_t *size, fiberModule mod,
                                           const char *name);
/* cudaMemcpyToSymbol/FromSymbol: size bytes at offset in the variable, either kind; the next
 * launch of any kernel of the module sees them. FIBER_ERROR_INVALID_VALUE if they do not fit */
FIBER_API fiberStatus fiberMemcpyToSymbol(fiberModule mod, const char *name, const void *src,
                                          size_t size, size_t offset);
FIBER_API fiberStatus fiberMemcpyFromSymbol(fiberModule mod, const char *name, void *dst,
                                            size_t size, size_t offset);
FIBER_API fiberStatus fiberModuleGetGlobalCount(fiberModule mod, unsigned *count);
/* name of variable k (0-based, listing order); valid while the module is loaded */
FIBER_API fiberStatus fiberModuleGetGlobalName(fiberModule mod, unsigned k, const char **name);

/* --- kernels --------------------------------------------------------------------------------- */
FIBER_API fiberStatus fiberFuncGetAttributes(fiberFunction fn, fiberFuncAttributes *attr);
FIBER_API fiberStatus fiberFuncGetParamCount(fiberFunction fn, unsigned *count);
/* offset in the parameter block and size of parameter index (0-based), from EIATTR_KPARAM_INFO */
FIBER_API fiberStatus fiberFuncGetParamInfo(fiberFunction fn, unsigned index, size_t *offset,
                                            size_t *size);

/* --- memory ---------------------------------------------------------------------------------- */
FIBER_API fiberStatus fiberMalloc(fiberDevice dev, fiberDevicePtr *ptr, size_t size);
FIBER_API fiberStatus fiberFree(fiberDevice dev, fiberDevicePtr ptr);  /* 0 is a no-op */
FIBER_API fiberStatus fiberMemcpyHtoD(fiberDevice dev, fiberDevicePtr dst, const void *src,
                                      size_t size);
FIBER_API fiberStatus fiberMemcpyDtoH(fiberDevice dev, void *dst, fiberDevicePtr src, size_t size);
FIBER_API fiberStatus fiberMemcpyDtoD(fiberDevice dev, fiberDevicePtr dst, fiberDevicePtr src,
                                      size_t size);
FIBER_API fiberStatus fiberMemset(fiberDevice dev, fiberDevicePtr dst, unsigned char value,
                                  size_t size);

/* --- launches -------------------------------------------------------------------------------- */
/* cuLaunchKernel style: params[i] points to the value of parameter i, whose size and offset come
 * from the kernel's parameter layout (alignment gaps are zero-filled). Runs to completion. */
FIBER_API fiberStatus fiberLaunchKernel(fiberFunction fn, const unsigned grid[3],
                                        const unsigned block[3], unsigned dynamic_smem,
                                        void **params);
/* the parameter block as the kernel reads it at the start of the parameter area of constant bank
 * 0; size must equal the kernel's parameter block size when that is known */
FIBER_API fiberStatus fiberLaunchKernelPacked(fiberFunction fn, const unsigned grid[3],
                                              const unsigned block[3], unsigned dynamic_smem,
                                              const void *params, size_t size);
/* cuLaunchCooperativeKernel style (this_grid().sync()): every CTA of the grid is resident at
 * once and the kernel gets a grid-sync workspace. Fails (FIBER_ERROR_LAUNCH_FAILED, fault
 * "launch exceeds a limit") when the grid exceeds CTAs per SM x SMs, with the timing model's
 * occupancy; sampling cannot be used with it. */
FIBER_API fiberStatus fiberLaunchCooperativeKernel(fiberFunction fn, const unsigned grid[3],
                                                   const unsigned block[3], unsigned dynamic_smem,
                                                   void **params);
FIBER_API fiberStatus fiberLaunchCooperativeKernelPacked(fiberFunction fn, const unsigned grid[3],
                                                         const unsigned block[3],
                                                         unsigned dynamic_smem,
                                                         const void *params, size_t size);
/* cudaLaunchKernelEx style: a launch with attributes. cluster is
 * cudaLaunchAttributeClusterDimension (sm_90: each grid dimension a multiple of it, at most 8
 * CTAs; all 0: no explicit cluster), cooperative cudaLaunchAttributeCooperative. A cluster's CTAs
 * run together: distributed shared memory, barrier.cluster, remote mbarrier arrivals
 * (docs/sim-cluster.md); a cluster of more than one CTA runs in functional mode only for now (a
 * timing-mode launch fails with "launch exceeds a limit"). */
typedef struct fiberLaunchConfig {
	unsigned grid[3];          /* gridDim, in CTAs */
	unsigned block[3];         /* blockDim */
	unsigned dynamic_smem;     /* dynamic shared memory bytes per CTA */
	unsigned cluster[3];       /* cluster dimensions in CTAs; all 0: none */
	int cooperative;           /* nonzero: as fiberLaunchCooperativeKernel */
} fiberLaunchConfig;
FIBER_API fiberStatus fiberLaunchKernelEx(const fiberLaunchConfig *config, fiberFunction fn,
                                          void **params);
FIBER_API fiberStatus fiberLaunchKernelExPacked(const fiberLaunchConfig *config,
                                                fiberFunction fn, const void *params,
                                                size_t size);

/* --- tensor maps (TMA, sm_90a) ---------------------------------------------------------------- */
/* a CUtensorMap: 128 bytes whose layout is fiber's (docs/sim.md "Tensor maps"); pass it by value
 * to a kernel's `const __grid_constant__ CUtensorMap` parameter, or copy it to device memory */
typedef struct fiberTensorMap {
	uint64_t opaque[16];
} fiberTensorMap;
/* the enumerations' values are CUDA's (CUtensorMapDataType, CUtensorMapInterleave,
 * CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill) */
enum {
	FIBER_TENSOR_MAP_DATA_TYPE_UINT8 = 0, FIBER_TENSOR_MAP_DATA_TYPE_UINT16,
	FIBER_TENSOR_MAP_DATA_TYPE_UINT32, FIBER_TENSOR_MAP_DATA_TYPE_INT32,
	FIBER_TENSOR_MAP_DATA_TYPE_UINT64, FIBER_TENSOR_MAP_DATA_TYPE_INT64,
	FIBER_TENSOR_MAP_DATA_TYPE_FLOAT16, FIBER_TENSOR_MAP_DATA_TYPE_FLOAT32,
	FIBER_TENSOR_MAP_DATA_TYPE_FLOAT64, FIBER_TENSOR_MAP_DATA_TYPE_BFLOAT16,
	FIBER_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, FIBER_TENSOR_MAP_DATA_TYPE_TFLOAT32,
	FIBER_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
};
enum { FIBER_TENSOR_MAP_INTERLEAVE_NONE = 0, FIBER_TENSOR_MAP_INTERLEAVE_16B,
       FIBER_TENSOR_MAP_INTERLEAVE_32B };
enum { FIBER_TENSOR_MAP_SWIZZLE_NONE = 0, FIBER_TENSOR_MAP_SWIZZLE_32B,
       FIBER_TENSOR_MAP_SWIZZLE_64B, FIBER_TENSOR_MAP_SWIZZLE_128B };
enum { FIBER_TENSOR_MAP_L2_PROMOTION_NONE = 0, FIBER_TENSOR_MAP_L2_PROMOTION_L2_64B,
       FIBER_TENSOR_MAP_L2_PROMOTION_L2_128B, FIBER_TENSOR_MAP_L2_PROMOTION_L2_256B };
enum { FIBER_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
       FIBER_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA };
/* cuTensorMapEncodeTiled: a tiled map of rank 1..5 over global_address (a device pointer);
 * global_dim[rank], global_strides[rank - 1] (bytes), box_dim[rank], element_strides[rank];
 * FIBER_ERROR_INVALID_VALUE with the rule broken (fiberGetLastErrorMessage(NULL)) */
FIBER_API fiberStatus fiberTensorMapEncodeTiled(fiberTensorMap *map, int data_type, unsigned rank,
                                                fiberDevicePtr global_address,
                                                const uint64_t *global_dim,
                                                const uint64_t *global_strides,
                                                const uint32_t *box_dim,
                                                const uint32_t *element_strides, int interleave,
                                                int swizzle, int l2_promotion, int oob_fill);

/* --- simulation mode, statistics, traces ---------------------------------------------------- */
typedef enum fiberSimMode {
	FIBER_MODE_TIMING = 0,        /* cycle-level timing model (default): values and cycles */
	FIBER_MODE_FUNCTIONAL = 1,    /* values only, faster; cycles are 0 */
} fiberSimMode;
FIBER_API fiberStatus fiberDeviceSetMode(fiberDevice dev, fiberSimMode mode);
/* one configuration key, "key=value" (fibersim --set); the same keys and checks as a
 * configuration file; before the first module is loaded or after, but not during a launch */
FIBER_API fiberStatus fiberDeviceSetConfigValue(fiberDevice dev, const char *key_value);
/* the checks of the following module loads: on (1, the default) a listing is checked as fiberc
 * checks it (sass_check and the verifier, FIBER checks included: located errors, the load fails);
 * off (0) only its encoding words against its text, so the simulator's own faults can be seen
 * (fibersim run --no-verify; for debugging only) */
FIBER_API fiberStatus fiberDeviceSetVerify(fiberDevice dev, int on);
/* host threads simulating SMs in parallel (timing mode); results are identical for any n */
FIBER_API fiberStatus fiberDeviceSetThreads(fiberDevice dev, unsigned n);
/* sampling (timing mode): simulate only sms SMs' share of the CTAs, or only the first ctas CTAs,
 * and extrapolate the cycle count (0: all) */
FIBER_API fiberStatus fiberDeviceSetSampling(fiberDevice dev, unsigned sms, unsigned ctas);
/* record a Chrome trace-event JSON of the following launches into path (NULL: stop); written
 * when the device is destroyed or tracing is turned off; at most max_events spans (0: 1000000) */
FIBER_API fiberStatus fiberDeviceSetTrace(fiberDevice dev, const char *path, uint64_t max_events);
/* progress of a running launch, for the callback of fiberDeviceSetProgress */
typedef struct fiberProgress {
	uint64_t cycles;              /* simulated cycles so far; 0 in functional mode */
	uint64_t warp_instructions;   /* warp instructions issued so far */
	uint64_t ctas_done;           /* CTAs finished */
	uint64_t ctas;                /* CTAs the launch simulates (fewer when sampling) */
} fiberProgress;
/* fn(arg, progress) is called during every following launch, about every 2^20 warp instructions
 * (functional mode) or 2048 cycles (timing mode); a nonzero return stops the launch with
 * FIBER_FAULT_INTERRUPTED (FIBER_ERROR_LAUNCH_FAILED; its statistics go as far as it got).
 * NULL: none. fibersim uses it for its progress line and for Ctrl-C. */
typedef int (*fiberProgressFn)(void *arg, const fiberProgress *progress);
FIBER_API fiberStatus fiberDeviceSetProgress(fiberDevice dev, fiberProgressFn fn, void *arg);
/* the trace being recorded: spans kept, spans dropped over the limit, timed launches not traced
 * because the limit was reached before them (all 0 when no trace is being recorded) */
FIBER_API fiberStatus fiberDeviceGetTraceCounts(fiberDevice dev, uint64_t *kept, uint64_t *dropped,
                                                uint32_t *untraced_launches);
/* statistics of every launch so far as JSON (docs/sim-stats.md) */
FIBER_API fiberStatus fiberWriteStatsJSON(fiberDevice dev, const char *path);
/* where a launch's device printf text goes (printf_file, a FILE *; NULL: stdout) and the lines
 * of failed asserts and the checks' reports (report_file; NULL: stderr); both are written when
 * the launch ends, as CUDA prints the printf FIFO at the next synchronisation */
FIBER_API fiberStatus fiberDeviceSetOutput(fiberDevice dev, void *printf_file, void *report_file);
/* compute-sanitizer's checks for the following launches (an OR of fiberCheck; 0: none): their
 * findings go to the report stream when a launch ends; fiberGetCheckCount says how many the
 * last launch had (docs/sim.md, "Checks") */
typedef enum fiberCheck {
	FIBER_CHECK_RACE = 1,             /* racecheck: shared-memory hazards between warps */
	FIBER_CHECK_SYNC = 2,             /* synccheck: divergent barriers, bad WARPSYNC masks */
	FIBER_CHECK_INIT = 4,             /* initcheck: reads of global memory never written; the
	                                     allocations made from then on are tracked */
} fiberCheck;
FIBER_API fiberStatus fiberDeviceSetChecks(fiberDevice dev, unsigned checks);
FIBER_API fiberStatus fiberGetCheckCount(fiberDevice dev, uint64_t *hazards);
/* the warp order of the following functional launches: 0 the functional driver's round-robin
 * (the default), else the seed of a random order (each round the warps of a CTA in a random
 * order, each for a random number of instructions); timing mode has its own schedulers */
FIBER_API fiberStatus fiberDeviceSetWarpOrder(fiberDevice dev, uint64_t seed);
/* a human-readable summary of the last launch (several lines) */
FIBER_API fiberStatus fiberPrintSummary(fiberDevice dev, void *file /* FILE * */);

#ifdef __cplusplus
}
#endif

#endif /* FIBER_H */
