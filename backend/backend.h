/* backend.h: writers of SASS text. emit_sass takes functions out of SSA form (the caller runs
 * ssa_out, passes/: exact for an unchanged kernel, copies where a pass renamed; a function still
 * in SSA is an error), lays out
 * again every function that was edited (addresses, branch targets, .nv.info offsets) and prints
 * the module as a listing in the format it was read in (nvdisasm or cuobjdump -sass).
 */
#ifndef FIBER_BACKEND_H
#define FIBER_BACKEND_H

#include "ir.h"

/* layout.c */
int layout_fn(Fn *f, Diag *d);    /* after edits: relayout and relocate; -1 after reporting */

/* sass.c */
int emit_sass(FILE *out, Module *m, const char *only_fn, Diag *d);
int emit_ir(FILE *out, Module *m, const char *only_fn, Diag *d); /* IR text, SSA kept; edited
                                     functions laid out first */

/* pressuresvg.c: fiberc --pressure-svg, the R pressure over program order of each kernel */
typedef struct SvgPressure {
	const char *name;  /* kernel */
	uint32_t n;        /* instructions */
	const int *r;      /* n: R registers live before each (FPlan.pressure's figure) */
	int maxlive;       /* most R registers occupied at one point */
	uint32_t nblk;     /* blocks */
	const uint32_t *blkfirst; /* nblk: index of each block's first instruction */
} SvgPressure;
int emit_pressure_svg(FILE *out, const SvgPressure *k, uint32_t nk); /* -1 on a write error */

#endif
