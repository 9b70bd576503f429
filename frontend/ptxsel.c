/* ptxsel.c: the instruction-selection tables of the families in ptxsel.h, searched by opcode and
 * type class (ptxlow.h), and their listing for docs/ptx-isel.md (`fiberc --list-isel`). */
#include "ptxlow.h"

#include <string.h>

#define FAMILY(name) extern const SelRow ptxsel_##name[];
#include "ptxsel.h"
#undef FAMILY

static const struct {
	const char *name;
	const SelRow *rows;
} families[] = {
#define FAMILY(name) { #name, ptxsel_##name },
#include "ptxsel.h"
#undef FAMILY
};

static const char *const tclass_name[NTypeClass] = { "any", "int", "f32", "f64", "half", "pred" };

/* the class that selects: cvt by its destination type (the first), the others by the last */
static int
ins_tclass(const Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);

	if (!strcmp(op, "cvt") || !strcmp(op, "cvta"))
		return lw_tclass(lw_type_n(w, 0));
	return lw_tclass(lw_type(w));
}

const SelRow *
ptxsel_lookup(const Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);
	int tc = ins_tclass(w);
	const SelRow *any = NULL;

	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const SelRow *r = families[f].rows; r->op; r++) {
			if (strcmp(r->op, op) != 0)
				continue;
			if (r->tclass == tc)
				return r;
			if (r->tclass == TcAny && !any)
				any = r;
		}
	return any;
}

void
ptxsel_list(FILE *out)
{
	fprintf(out, "| family | PTX | type | SASS |\n|---|---|---|---|\n");
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const SelRow *r = families[f].rows; r->op; r++)
			fprintf(out, "| %s | `%s` | %s | `%s` |\n", families[f].name, r->op,
			        tclass_name[r->tclass], r->doc);
}
