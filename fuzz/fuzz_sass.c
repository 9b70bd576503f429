/* fuzz_sass.c: libFuzzer target for the SASS front end and the whole lifting pipeline.
 * Each input is parsed as a listing; when it parses cleanly every function goes through
 * cfg_build, dom_build, SSA (op_slots via ssa_build, or the annotations of IR text), the
 * verifier, the IR printer, ssa_out and the SASS printer. Output goes to /dev/null (opened once);
 * the sanitizers and libFuzzer report any crash, leak or hang. Then the listing is parsed again
 * and every function goes through fiberc's --mode=cuda-native pipeline (driver/passlist.h, with
 * --verify-each: the FIBER passes on hostile input), and through the fiber-native one when it
 * declares virtual registers. Build: make fuzz.
 */
#define _POSIX_C_SOURCE 200809L   /* strtok_r */
#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "passlist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MaxPasses = 32 };

/* the passes of a pipeline string, as fiberc's --passes reads it */
static int
pipeline(const char *list, const Pass **out)
{
	char buf[512], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof buf, "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t && n < MaxPasses; t = strtok_r(NULL, ",", &save))
		if (!(out[n++] = pass_find(t)))
			abort();   /* the pipeline names a pass the table lacks */
	return n;
}

/* each function of a fresh parse through a FIBER mode's default pipeline, as fiberc runs it */
static void
fiber_modes(Src *src, FILE *out)
{
	static const Pass *cuda[MaxPasses], *fib[MaxPasses];
	static int ncuda, nfib;
	PassOpts po;
	Diag d;
	Module *m;

	if (!ncuda) {
		ncuda = pipeline(CUDA_NATIVE_PASSES, cuda);
		nfib = pipeline(FIBER_NATIVE_PASSES, fib);
	}
	diag_init(&d, src, out);
	m = sass_parse(src, &d);
	if (m && d.nerr == 0 && sass_check(m, &d) == 0 && !m->has_ssa) {
		pass_opts_init(&po);
		po.dump = out;
		po.verify_each = 1;
		for (uint32_t k = 0; k < m->nfn; k++) {
			Fn *f = m->fn[k];
			int fiber = f->nvreg > 0;
			fplan_new(f, fiber ? FModeFiber : FModeCuda);
			if (pass_run(f, fiber ? fib : cuda, fiber ? nfib : ncuda, &po, &d) < 0)
				break;
		}
	}
	if (m)
		module_free(m);
}

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
	if (m && d.nerr == 0)
		fiber_modes(src, out);
	if (m)
		module_free(m);
	src_free(src);
	return 0;
}
