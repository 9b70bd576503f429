/* fstats.h: the FIBER part of fiberc --stats (fstats.c). */
#ifndef FIBER_FSTATS_H
#define FIBER_FSTATS_H

#include "ir.h"

#include <stdio.h>

void print_fiber_stats(FILE *out, Module *m, const char *only);

#endif
