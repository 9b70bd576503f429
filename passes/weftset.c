/* weftset.c: which wefts can execute each block (stub). */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

struct Weftset { Fn *f; };

Weftset *weftset_build(Fn *f) { Weftset *w = xmalloc(sizeof *w); w->f = f; return w; }
void weftset_free(Weftset *ws) { free(ws); }
