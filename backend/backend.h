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

#endif
