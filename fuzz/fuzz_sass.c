/* fuzz_sass.c: libFuzzer target for the SASS front end and the whole lifting pipeline.
 * Each input is parsed as a listing; when it parses cleanly every function goes through
 * cfg_build, dom_build, SSA (op_slots via ssa_build, or the annotations of IR text), the
 * verifier, the IR printer, ssa_out and the SASS printer. Output goes to /dev/null (opened once);
 * the sanitizers and libFuzzer report any crash, leak or hang. Build: make fuzz.
 */
#include "ir.h"
#include "frontend.h"
#include "passes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *
devnull(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	return null;
}

/* IR text carries its own SSA numbering: apply it the way fiberc does */
static int
lift_ir(Fn *f, Diag *d)
{
	for (uint32_t k = 0; k < f->nins; k++)
		if (op_slots(f, &f->ins[k]) < 0)
			return -1;
	return sass_apply_ssa(f, d);
}

/* what fiberc does to one function: 0 if every step succeeded */
static int
lift(Fn *f, Diag *d, FILE *out)
{
	if (cfg_build(f, d) < 0)
		return -1;
	dom_build(f);
	if (f->mod->has_ssa ? lift_ir(f, d) < 0 : ssa_build(f, d) < 0)
		return -1;
	ssa_uses(f);
	if (verify_fn(f, d) < 0)
		return -1;
	print_fn(out, f, PrintIr);
	if (ssa_out(f, d) < 0)
		return -1;
	print_fn(out, f, PrintSass);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *out = devnull();
	Src *src;
	Module *m;
	Diag d;

	src = src_new("fuzz.sass", (const char *)data, size);
	diag_init(&d, src, out);
	m = sass_parse(src, &d);
	if (m && d.nerr == 0) {
		int ok = 1;
		Diag dc = d;   /* fiberc's checks (sass_check), for crashes: the lifting runs anyway */

		sass_check(m, &dc);

		for (uint32_t k = 0; k < m->nfn && ok; k++)
			ok = lift(m->fn[k], &d, out) == 0;
		if (ok)
			print_module(out, m, PrintSass, NULL);
	}
	if (m)
		module_free(m);
	src_free(src);
	return 0;
}
