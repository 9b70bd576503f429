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

/* the rows of every family sorted by opcode (stable: family order, then row order), made on
 * the first lookup; lookup is a binary search for the opcode's run */
static const SelRow **sorted;
static size_t nsorted;

static void
sort_rows(void)
{
	size_t n = 0, k = 0;

	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const SelRow *r = families[f].rows; r->op; r++)
			n++;
	sorted = xmalloc((n + 1) * sizeof *sorted);
	/* an insertion sort (a few hundred rows, once): stable, so rows of one opcode stay in
	 * family order, then row order, as the table is searched */
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const SelRow *r = families[f].rows; r->op; r++) {
			size_t j = k++;
			while (j > 0 && strcmp(sorted[j - 1]->op, r->op) > 0) {
				sorted[j] = sorted[j - 1];
				j--;
			}
			sorted[j] = r;
		}
	nsorted = n;
}

const SelRow *
ptxsel_lookup(const Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);
	int tc = ins_tclass(w);
	const SelRow *any = NULL;
	size_t lo = 0, hi;

	if (!sorted)
		sort_rows();
	hi = nsorted;
	while (lo < hi) {             /* the first row whose opcode is not below op */
		size_t mid = (lo + hi) / 2;
		if (strcmp(sorted[mid]->op, op) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < nsorted && strcmp(sorted[k]->op, op) == 0; k++) {
		if (sorted[k]->tclass == tc)
			return sorted[k];
		if (sorted[k]->tclass == TcAny && !any)
			any = sorted[k];
	}
	return any;
}

void
ptxsel_list(FILE *out)
{
	fprintf(out, "| family | PTX | type | SASS |\n|---|---|---|---|\n");
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const SelRow *r = families[f].rows; r->op; r++)
		{
			/* a '|' of the text would end the table cell: escaped */
			fprintf(out, "| %s | `%s` | %s | `", families[f].name, r->op, tclass_name[r->tclass]);
			for (const char *c = r->doc; *c; c++)
				fputs(*c == '|' ? "\\|" : *c == '`' ? "'" : (char[2]){ *c, 0 }, out);
			fputs("` |\n", out);
		}
}
