/* paper.h: the paper table's harness (make paper-table, docs/paper-table.md): a workload is a
 * SIMT baseline kernel in examples/paper with deterministic inputs, a launch and a check against
 * a CPU reference; table.c runs each on every generation's SIMT and FIBER configurations and
 * writes the table. One file per workload family (attn.c, ...). */
#ifndef PAPER_H
#define PAPER_H

#include <fiber.h>

#include <stddef.h>
#include <stdint.h>

typedef struct Shape Shape;
typedef struct Check Check;
typedef struct Work Work;

enum {
	NShapeArg = 6,                /* integers a shape passes to its workload */
};

/* one row's shape: a name for the table and the workload's integers */
struct Shape {
	const char *name;             /* "prefill b1 s4096 h32" */
	int quick;                    /* 1: a QUICK=1 (smoke test) shape, 0: a paper shape */
	int arg[NShapeArg];           /* the workload's integers (see each workload's file) */
};

/* what a workload's run found */
struct Check {
	int corrupt;                  /* in: flip a bit of one output before checking (--corrupt,
	                                 the test that the check can fail) */
	uint64_t checked;             /* output elements compared with the reference */
	uint64_t expected;            /* output elements a complete run writes */
	uint64_t bad;                 /* elements outside the tolerance */
	double worst;                 /* largest error over the tolerance's scale (<= 1 passes) */
	char fault[640];              /* the launch's failure, "" if none */
};

/* a workload: its kernel, its launch and its check */
struct Work {
	const char *workload;         /* the table's workload column: "attention forward" */
	const char *stem;             /* examples/paper/<stem>.sm_XX.sass */
	const char *label;            /* what the baseline is, against the paper's */
	const char *paper[3];         /* the paper's speedup on a100, h100, b200 ("" if none) */
	/* inputs, launches of mod's kernels, check; returns 0, or -1 with chk->fault set */
	int (*run)(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk);
	/* CTAs of the (largest) launch at shape s */
	uint64_t (*ctas)(const Shape *s);
};

/* a FIBER-native version of a workload: it fills the FIBER columns of the workload's rows */
typedef struct FiberWork {
	const Work *w;                /* the SIMT workload whose rows it fills */
	const char *stem;             /* examples/paper/<stem>.ptx (nvcc -arch=sm_80 -ptx of
	                                 <stem>.cu), built by fiberc --mode=fiber-native into
	                                 <stem>.sm_80.fsass and .sm_90.fsass */
	const char *design;           /* one line for the table's legend */
	/* inputs, launches, the same check as w->run's */
	int (*run)(fiberDevice dev, fiberModule mod, const Shape *s, Check *chk);
} FiberWork;

/* table.c: the deterministic input generator (a 64-bit LCG; the same numbers on every host) */
void rng_seed(uint64_t seed);
float rng_uniform(float lo, float hi);
/* fp16 <-> float, round to nearest even */
uint16_t f2h(float f);
float h2f(uint16_t h);
/* a failed runtime call: the message into chk->fault; returns -1 */
int fail(fiberDevice dev, Check *chk, fiberStatus st, const char *what);
/* kernel name of mod into *fn; -1 with chk->fault set if it is not there */
int get_fn(fiberDevice dev, fiberModule mod, const char *name, fiberFunction *fn, Check *chk);

/* attn.c */
extern const Work work_attn_fwd, work_attn_causal, work_attn_gqa, work_attn_mqa;
/* w4a16.c */
extern const Work work_w4a16_gateup, work_w4a16_down, work_awq;
/* decode.c */
extern const Work work_flash_decode;
extern const FiberWork fiber_flash_decode, fiber_flash_decode_busy;
/* aqlm.c */
extern const Work work_aqlm;
/* proj.c */
extern const Work work_proj;

#endif
