/* pass.c: the pass manager. It runs a flat list of passes over one function, builds the CFG and
 * SSA form that a pass needs first, recomputes def-use chains after a pass that changes the IR,
 * verifies between passes when asked, and prints the IR before or after a named pass in the
 * style of LLVM's -print-after ("IR Dump After NAME").
 */
#include "ir.h"

#include <string.h>

static void
dump(const PassOpts *o, Fn *f, const char *when, const Pass *p)
{
	FILE *out = o->dump ? o->dump : stderr;

	fprintf(out, "// *** IR Dump %s %s (%s) ***\n", when, p->name, mstr(f->mod, f->name));
	if (!(o->print && when[0] == 'A' && o->print(out, f, p)))  /* the pass's own dump */
		print_fn(out, f, PrintIr);
	if (f->plan && f->plan->report && when[0] == 'A')
		fputs(f->plan->report, out);  /* what the pass left to say after its IR */
	fflush(out);
}

/* make sure the function has what the pass requires */
static int
prepare(Fn *f, int req, const PassOpts *o, Diag *d)
{
	if ((req & (PNeedCfg | PNeedSsa)) && !f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	if ((req & PNeedSsa) && !f->in_ssa) {
		if (!o->make_ssa) {
			error_plain(d, "internal: a pass needs SSA form but the pass manager was given "
			            "no way to build it (PassOpts.make_ssa)");
			return -1;
		}
		if (o->make_ssa(f, d) < 0)
			return -1;
		ssa_uses(f);
	}
	return 0;
}

int
pass_run(Fn *f, const Pass *const *list, int n, const PassOpts *o, Diag *d)
{
	for (int k = 0; k < n; k++) {
		const Pass *p = list[k];
		double t0;
		int rc;

		if (prepare(f, p->req, o, d) < 0)
			return -1;
		if (o->print_before && strcmp(o->print_before, p->name) == 0)
			dump(o, f, "Before", p);
		if (f->plan)
			f->plan->report = NULL;
		t0 = now_seconds();
		rc = p->run(f, d);
		if (o->time)
			o->time[k] += now_seconds() - t0;
		if (rc < 0)
			return -1;
		if (rc == PassUnchanged)
			rc = 0;           /* the pass says it changed nothing: no relayout, def-use kept */
		else if (p->req & PChanges) {
			fn_relayout(f);   /* Fn.ins from the blocks, if the pass edited them */
			if (f->in_ssa)
				ssa_uses(f);
		}
		if (o->verify_each && (p->req & PChanges) && f->blk && verify_fn(f, d) < 0) {
			error_plain(d, "IR is malformed after pass '%s' in function '%s'", p->name,
			            mstr(f->mod, f->name));
			return -1;
		}
		if (o->verify_each && o->verify_extra && f->plan && o->verify_extra(f, d) < 0) {
			error_plain(d, "FIBER verifier failed after pass '%s' in function '%s'", p->name,
			            mstr(f->mod, f->name));
			return -1;
		}
		if (o->print_all || (o->print_after && strcmp(o->print_after, p->name) == 0))
			dump(o, f, "After", p);
	}
	return 0;
}
