/* fuzz_fsass.c: libFuzzer target for .fsass (FIBER SASS): the front end with its FIBER
 * directives and pool operands, the lifting pipeline and the verifier's FIBER checks, the
 * FIBER encoder and decoder (ir/fenc.c) on every instruction, and the SASS printer, whose output
 * must parse again to the same text (the round trip of tests/fsass.sh); then, for a function with
 * virtual registers (.vreg), the allocator of FIBER windows on its own parse: regalloc's window
 * target (backend/rawin.c, rapin.c; fiber-ra is another name of it). Seeds:
 * tests/fsass/, examples/fiber-native/ (the .vfsass programs).
 * Build: make fuzz (build/fuzz/fuzz_fsass).
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "ir.h"
#include "fenc.h"
#include "frontend.h"
#include "passes.h"
#include "fpasses.h"
#include "codegen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the module printed as SASS, in a malloc'd buffer */
static char *
print_sass(Module *m, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);

	if (!f)
		abort();
	print_module(f, m, PrintSass, NULL);
	fclose(f);
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	Src *src;
	Module *m;
	Diag d;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	src = src_new("fuzz.fsass", (const char *)data, size);
	diag_init(&d, src, null);
	m = sass_parse(src, &d);
	if (m && d.nerr == 0) {
		size_t n1, n2;
		char *a = print_sass(m, &n1), why[128];
		for (uint32_t k = 0; k < m->nfn; k++) {
			Fn *f = m->fn[k];
			uint64_t w[2];
			FDec dec;
			verify_fn(f, &d);
			for (uint32_t j = 0; j < f->nins; j++)
				if (fenc_encode_m(&f->ins[j], m, w, why, sizeof why) == 0)
					fenc_decode(w, &dec);
		}
		/* the printed listing reads back to itself */
		Src *s2 = src_new("fuzz2.fsass", a, n1);
		Diag d2;
		diag_init(&d2, s2, null);
		Module *m2 = sass_parse(s2, &d2);
		if (m2 && d2.nerr == 0) {
			char *b = print_sass(m2, &n2);
			if (n1 != n2 || memcmp(a, b, n1) != 0)
				abort();       /* the round trip changed the text */
			free(b);
		}
		if (m2)
			module_free(m2);
		src_free(s2);
		free(a);
		Diag d3;
		diag_init(&d3, src, null);
		Module *m3 = sass_parse(src, &d3);
		for (uint32_t k = 0; m3 && d3.nerr == 0 && k < m3->nfn; k++) {
			Fn *f = m3->fn[k];
			if (!f->nvreg || cfg_build(f, &d3) < 0)
				continue;
			dom_build(f);
			fplan_new(f, FModeFiber);
			if (pass_regalloc_window(f, &d3) == 0)
				verify_fn(f, &d3);
		}
		if (m3)
			module_free(m3);
	}
	if (m)
		module_free(m);
	src_free(src);
	return 0;
}
