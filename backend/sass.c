/* sass.c: SASS emission. Every function must be out of SSA already (the out-of-ssa pass,
 * passes/outssa.c, which the caller runs); an edited one is laid
 * out again (layout.c), then the listing is printed in its input format.
 * emit_ir prints the IR text the same way, SSA form kept.
 */
#include "backend.h"

#include <string.h>

int
emit_sass(FILE *out, Module *m, const char *only_fn, Diag *d)
{
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];

		if (only_fn && strcmp(mstr(m, f->name), only_fn) != 0)
			continue;
		if (f->in_ssa) {
			error_plain(d, "function '%s' is in SSA form: leave SSA (ssa_out, the out-of-ssa "
			            "pass) before emitting SASS", mstr(m, f->name));
			return -1;
		}
		if (layout_fn(f, d) < 0)
			return -1;
	}
	print_module(out, m, PrintSass, only_fn);
	return 0;
}

int
emit_ir(FILE *out, Module *m, const char *only_fn, Diag *d)
{
	for (uint32_t k = 0; k < m->nfn; k++)
		if (layout_fn(m->fn[k], d) < 0)
			return -1;
	print_module(out, m, PrintIr, only_fn);
	return 0;
}
