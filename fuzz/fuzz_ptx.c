/* fuzz_ptx.c: libFuzzer target for the PTX front end (frontend/ptx/ptx.l, ptx.y, ptxast.c,
 * ptxcheck.c, ptxprint.c). Each input is parsed without and with the semantic check; when it
 * parses, the printed text must parse again and print to the same text (the round trip of
 * tests/check_ptx.c), else the target aborts. Seeds: the committed .ptx files cut into pieces
 * (scripts/fuzz-seed-ptx.sh). An input that passes the check is also lowered to SASS
 * (backend/isel/ptxlow.c), once as SIMT code and once FIBER-native (the FIBER extensions of
 * docs/fiber-cuda.md selected): the lowering reports or succeeds, and what it writes must parse
 * and pass the SASS checks (a selection writing bad SASS aborts). Build: make fuzz (build/fuzz/fuzz_ptx).
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "ir.h"
#include "ptxlow.h"
#include "frontend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *
devnull(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	return null;
}

static char *
print_ptx(const Ptx *p, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);

	if (!f)
		abort();
	ptx_print(f, p);
	fclose(f);
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Src *src = src_new("fuzz.ptx", (const char *)data, size), *s2;
	Diag d, d2;
	Ptx *p, *p2;
	char *t1, *t2;
	size_t n1, n2;

	diag_init(&d, src, devnull());
	p = ptx_parse_only(src, &d);
	if (p) {
		int checked = ptx_check(p, &d) == 0;
		/* lowered twice: as SIMT code and FIBER-native (the FIBER extensions selected) */
		for (int fiber = 0; checked && fiber < 2; fiber++) {
			Diag dl;
			PtxLower lo = { .fiber = fiber };
			diag_init(&dl, src, devnull());
			Src *low = ptx_lower_opts(p, &lo, &dl);
			if (low) {
				Diag ds;
				diag_init(&ds, low, stderr);
				Module *m = sass_parse(low, &ds);
				if (!m || sass_check(m, &ds) < 0) {
					fprintf(stderr, "fuzz_ptx: the lowered SASS does not read back:\n%s\n",
					        low->text);
					abort();
				}
				module_free(m);
				src_free(low);
			}
		}
		t1 = print_ptx(p, &n1);
		s2 = src_new("again.ptx", t1, n1);
		diag_init(&d2, s2, stderr);
		if (!(p2 = ptx_parse_only(s2, &d2))) {
			fprintf(stderr, "fuzz_ptx: the printed text does not parse:\n%s\n", t1);
			abort();
		}
		t2 = print_ptx(p2, &n2);
		if (n1 != n2 || memcmp(t1, t2, n1) != 0) {
			fprintf(stderr, "fuzz_ptx: print, parse, print differs:\n%s\n---\n%s\n", t1, t2);
			abort();
		}
		free(t1);
		free(t2);
		ptx_free(p2);
		src_free(s2);
		ptx_free(p);
	}
	src_free(src);
	return 0;
}
