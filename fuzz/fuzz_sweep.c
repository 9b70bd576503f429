/* fuzz_sweep.c: libFuzzer target for the sweep spec reader (driver/sweepspec.c): any input is a
 * spec. What parses must satisfy the contract (at least one point, every point named as a file
 * may be, with a command line, workload, configuration and a value for every axis; unique names;
 * spec_command and spec_find agree); what does not must say where (FILE:LINE:COL: error:).
 * Seeds: the .sweep files of examples/sweep and tests/sweep (mk/fuzz.mk).
 */
#include "sweep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const Spec *s)
{
	if (s->npt == 0 || s->nwl == 0 || s->ncfg == 0 || !s->title)
		abort();
	for (size_t i = 0; i < s->npt; i++) {
		const SwPoint *p = &s->pt[i];
		if (!p->name[0] || strchr(p->name, '/') || p->name[0] == '.' || p->argc == 0 ||
		    p->workload >= s->nwl || p->config >= s->ncfg || spec_find(s, p->name) != (long)i)
			abort();
		for (size_t a = 0; a < s->nax; a++)
			if (!p->aval[a])
				abort();
		for (size_t k = 0; k < s->nprog; k++)   /* a `program` line starts every command */
			if (k >= p->argc || strcmp(p->argv[k], s->prog[k]) != 0)
				abort();
		char *c = spec_command(p);
		if (!c || strlen(c) < strlen(p->argv[0]))
			abort();
		free(c);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[2048];
	Spec s;

	if (spec_parse("f.sweep", (const char *)data, size, &s, err, sizeof err) == 0) {
		check(&s);
		spec_free(&s);
	} else if (strncmp(err, "f.sweep:", 8) != 0 || !strstr(err, ": error: "))
		abort();
	return 0;
}
