/* core.c: the passes that wrap the IR core (ir/cfg.c, dom.c, verify.c) and SSA (ssa.c,
 * outssa.c) for the pass manager: cfg, ssa, verify, out-of-ssa. Each builds what it needs and
 * nothing else.
 */
#include "passes.h"

#include <string.h>

/* cfg: blocks, rpo, dominators. In SSA form (IR text) the CFG is kept, since rebuilding it
 * would drop the phis; only the dominators are recomputed. */
int
pass_cfg(Fn *f, Diag *d)
{
	if (f->in_ssa && f->blk) {
		dom_build(f);
		return 0;
	}
	if (cfg_build(f, d) < 0)
		return -1;
	dom_build(f);
	return 0;
}

/* ssa: build SSA form and def-use chains; builds the CFG first if there is none. A function
 * already in SSA form (read from IR text) keeps its values: only the chains are recomputed. */
int
pass_ssa(Fn *f, Diag *d)
{
	if (f->in_ssa) {
		ssa_uses(f);
		return 0;
	}
	if (!f->blk && pass_cfg(f, d) < 0)
		return -1;
	if (ssa_build(f, d) < 0)
		return -1;
	ssa_uses(f);
	return 0;
}

/* verify: the verifier, on the CFG (built here if missing) and, in SSA form, the values */
int
pass_verify(Fn *f, Diag *d)
{
	if (!f->blk && pass_cfg(f, d) < 0)
		return -1;
	return verify_fn(f, d);
}

/* out-of-ssa: drop the phis and the values (a no-op out of SSA form) */
int
pass_outssa(Fn *f, Diag *d)
{
	return f->in_ssa ? ssa_out(f, d) : 0;
}

/* every function of m (or only only_fn) out of SSA, as SASS emission (backend/) requires */
int
module_outssa(Module *m, const char *only_fn, Diag *d)
{
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];

		if (only_fn && strcmp(mstr(m, f->name), only_fn) != 0)
			continue;
		if (pass_outssa(f, d) < 0)
			return -1;
	}
	return 0;
}
