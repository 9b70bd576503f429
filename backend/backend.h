/* backend.h: writers of SASS text. emit_sass leaves SSA form (values keep their physical
 * registers, so this is exact for an unchanged kernel) and prints the module as a listing in the
 * format it was read in (nvdisasm or cuobjdump -sass).
 */
#ifndef FIBER_BACKEND_H
#define FIBER_BACKEND_H

#include "ir.h"

/* sass.c */
int emit_sass(FILE *out, Module *m, const char *only_fn, Diag *d);

#endif
