/* compare.c: two statistics files side by side (fibersim compare A.json B.json): per launch, the
 * cycles and the speedup of B over A, IPC, the memory figures, the CPI stack of each with the
 * difference in points of the stack, and the configuration keys that differ. Launches pair up in
 * order; files whose launches differ (count, kernel, a launch not timed) are refused. The same
 * as a table or as JSON (--json). When either launch ran on the FIBER model, its figures (remote
 * reads, conflicts, busy-bit waits, SETFIBERNUM, fibers) follow the others ("-": the other run
 * has none, a SIMT run).
 */
#include "json.h"
#include "outputs.h"
#include "timing.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MaxConfigDiffs = 16 };  /* configuration keys shown in the table */

/* the figures compared, in order: path in a kernel object, how it is shown */
enum Show { ShowCount, ShowReal, ShowPercent };
static const struct {
	const char *path;
	int show;
} figures[] = {
	{"cycles", ShowCount},
	{"time_us", ShowReal},
	{"warp_instructions", ShowCount},
	{"thread_instructions", ShowCount},
	{"ipc", ShowReal},
	{"ipc_per_sm", ShowReal},
	{"occupancy.ctas_per_sm", ShowCount},
	{"occupancy.waves", ShowCount},
	{"tensor_utilization", ShowPercent},
	{"rf.bank_conflicts", ShowCount},
	{"shared.wavefronts_per_request", ShowReal},
	{"shared.bank_conflict_replays", ShowCount},
	{"l1.hit_rate", ShowPercent},
	{"l2.hit_rate", ShowPercent},
	{"dram.read_bytes", ShowCount},
	{"dram.write_bytes", ShowCount},
	{"dram.gbytes_per_s", ShowReal},
	{"gmem.requests", ShowCount},
	{"gmem.sectors_per_request", ShowReal},
	{"hazards", ShowCount},
};

/* the FIBER model's figures (docs/sim-stats.md "FIBER"), shown when either launch has them */
static const struct {
	const char *path;
	int show;
} fiber_figures[] = {
	{"fiber.remote_reads", ShowCount},
	{"fiber.xbar_reads", ShowCount},
	{"fiber.xbar_conflicts", ShowCount},
	{"fiber.rpa_conflicts", ShowCount},
	{"fiber.rs_smem_reads", ShowCount},
	{"fiber.busy_waits", ShowCount},
	{"fiber.busy_wait_cycles", ShowCount},
	{"fiber.setfibernum", ShowCount},
	{"fiber.setfibernum_cycles", ShowCount},
	{"fiber.peak_fibers", ShowCount},
	{"fiber.mean_fibers", ShowReal},
	{"fiber.peak_regs", ShowCount},
	{"fiber.rf_mean_occupancy", ShowPercent},
};

static int
has_fiber(const JVal *ka, const JVal *kb)
{
	return json_get(ka, "fiber") != NULL || json_get(kb, "fiber") != NULL;
}

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* the "kernels" array of a statistics file, or NULL with the reason in err */
static const JVal *
launches(const JVal *doc, const char *name, char *err, size_t n)
{
	const JVal *k = json_get(doc, "kernels"), *v = json_get(doc, "version");

	if (!k || k->type != JArr || !v || v->type != JNum) {
		fail(err, n, "%s: not a fibersim statistics file (no \"version\" and \"kernels\")", name);
		return NULL;
	}
	if (v->num != 1) {
		fail(err, n, "%s: statistics format version %g, this fibersim reads version 1", name,
		     v->num);
		return NULL;
	}
	return k;
}

static int
timed(const JVal *k)
{
	const char *mode = json_str(json_get(k, "mode"));

	return mode && strcmp(mode, "timing") == 0 && json_get(k, "cpi_stack");
}

static double
stack_total(const JVal *cpi)
{
	double t = 0;

	for (size_t k = 0; cpi && k < cpi->n; k++)
		t += json_num(&cpi->kid[k], 0);
	return t;
}

/* a figure in a column of 14 */
static void
cell(FILE *out, const JVal *v, int show)
{
	if (!v || v->type != JNum) {
		fprintf(out, " %14s", "-");
		return;
	}
	switch (show) {
	case ShowCount: fprintf(out, " %14.0f", v->num); break;
	case ShowPercent: fprintf(out, " %13.2f%%", 100 * v->num); break;
	default: fprintf(out, " %14.4g", v->num); break;
	}
}

static void
jnum(FILE *out, const JVal *v)
{
	if (v && v->type == JNum && isfinite(v->num))
		fprintf(out, "%.15g", v->num);
	else
		fputs("null", out);
}

static void
jratio(FILE *out, double a, double b)
{
	if (b != 0 && isfinite(a / b))
		fprintf(out, "%.6g", a / b);
	else
		fputs("null", out);
}

/* a JSON string of a name we read (kernel symbols, paths): escaped */
static void
jstr(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* a scalar we read, written back as JSON (NULL: null) */
static void
jscalar(FILE *out, const JVal *v)
{
	if (v && v->type == JStr)
		jstr(out, v->str);
	else if (v && v->type == JBool)
		fputs(v->num ? "true" : "false", out);
	else
		jnum(out, v);
}

static int
same_value(const JVal *a, const JVal *b)
{
	if (!a || !b || a->type != b->type)
		return 0;
	if (a->type == JNum || a->type == JBool)
		return a->num == b->num;
	if (a->type == JStr)
		return strcmp(a->str, b->str) == 0;
	return a->type == JNull;
}

static void
value_text(FILE *out, const JVal *v)
{
	if (!v)
		fputs("(none)", out);
	else if (v->type == JNum)
		fprintf(out, "%g", v->num);
	else if (v->type == JStr)
		fputs(v->str, out);
	else
		fputs(v->type == JBool ? (v->num ? "true" : "false") : "null", out);
}

/* configuration keys of a and b whose values differ (keys of either) */
static void
config_diffs(FILE *out, const JVal *ca, const JVal *cb, int json)
{
	unsigned shown = 0, total = 0;
	int first = 1;

	for (int side = 0; side < 2; side++) {
		const JVal *from = side ? cb : ca, *other = side ? ca : cb;
		for (size_t k = 0; from && k < from->n; k++) {
			const JVal *x = &from->kid[k], *y = json_get(other, x->key);
			if (side && y)
				continue;            /* a key of both: seen on the first side */
			if (same_value(x, y))
				continue;
			total++;
			if (json) {
				fprintf(out, "%s\n        ", first ? "" : ",");
				jstr(out, x->key);
				fputs(": {\"a\": ", out);
				jscalar(out, side ? NULL : x);
				fputs(", \"b\": ", out);
				jscalar(out, side ? x : y);
				fputc('}', out);
				first = 0;
			} else if (shown < MaxConfigDiffs) {
				fprintf(out, "%s%s ", shown ? ", " : "  configuration keys that differ: ", x->key);
				value_text(out, side ? NULL : x);
				fputs(" -> ", out);
				value_text(out, side ? x : y);
				shown++;
			}
		}
	}
	if (!json && total > shown)
		fprintf(out, ", and %u more", total - shown);
	if (!json && total)
		fputc('\n', out);
}

static void
table_row(FILE *out, const JVal *ka, const JVal *kb, const char *path, int show)
{
	const JVal *a = json_path(ka, path), *b = json_path(kb, path);

	fprintf(out, "  %-30s", path);
	cell(out, a, show);
	cell(out, b, show);
	if (a && b && a->type == JNum && b->type == JNum && a->num != 0)
		fprintf(out, " %9.3fx", b->num / a->num);
	fputc('\n', out);
}

static void
table(FILE *out, const JVal *ka, const JVal *kb, size_t index, const char *aname,
      const char *bname)
{
	const char *na = json_str(json_get(ka, "name")), *nb = json_str(json_get(kb, "name"));
	const JVal *ca = json_get(ka, "cpi_stack"), *cb = json_get(kb, "cpi_stack");
	double ta = stack_total(ca), tb = stack_total(cb);
	double cyc_a = json_num(json_get(ka, "cycles"), 0), cyc_b = json_num(json_get(kb, "cycles"), 0);

	fprintf(out, "launch %zu: %s", index, na ? na : "?");
	if (nb && na && strcmp(na, nb) != 0)
		fprintf(out, " vs %s", nb);
	{
		const char *fa = json_str(json_get(ka, "config")), *fb = json_str(json_get(kb, "config"));
		fprintf(out, " on %s vs %s\n", fa ? fa : "?", fb ? fb : "?");
	}
	fprintf(out, "  A = %s\n  B = %s\n", aname, bname);
	if (cyc_a > 0 && cyc_b > 0)
		fprintf(out, "  speedup of B over A: %.3fx (%s)\n", cyc_a / cyc_b,
		        cyc_b < cyc_a ? "B is faster" : cyc_b > cyc_a ? "B is slower" : "the same cycles");
	config_diffs(out, json_get(ka, "configuration"), json_get(kb, "configuration"), 0);
	fprintf(out, "  %-30s %14s %14s %10s\n", "", "A", "B", "B/A");
	for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++)
		table_row(out, ka, kb, figures[f].path, figures[f].show);
	for (size_t f = 0; has_fiber(ka, kb) && f < sizeof fiber_figures / sizeof fiber_figures[0]; f++)
		table_row(out, ka, kb, fiber_figures[f].path, fiber_figures[f].show);
	/* the shares are of the stack without idle (what the SMs with warps did); idle's is of all */
	fprintf(out, "  %-30s %14s %7s %14s %7s %9s\n", "CPI stack (sub-partition cycles)", "A", "%",
	        "B", "%", "B-A pts");
	for (int r = 0; r < NCpi; r++) {
		double a = json_num(json_get(ca, cpi_name[r]), 0), b = json_num(json_get(cb, cpi_name[r]), 0);
		double da = r == CpiIdle ? ta : ta - json_num(json_get(ca, "idle"), 0);
		double db = r == CpiIdle ? tb : tb - json_num(json_get(cb, "idle"), 0);
		double pa = da > 0 ? 100 * a / da : 0, pb = db > 0 ? 100 * b / db : 0;
		if (a == 0 && b == 0)
			continue;
		fprintf(out, "  %-30s %14.0f %6.2f%% %14.0f %6.2f%% %+9.2f\n",
		        r == CpiIdle ? "idle (% of the whole stack)" : cpi_name[r], a, pa, b, pb, pb - pa);
	}
}

static void
json_figure(FILE *out, const JVal *ka, const JVal *kb, const char *path, int comma)
{
	const JVal *a = json_path(ka, path), *b = json_path(kb, path);

	fprintf(out, "%s\n        \"%s\": {\"a\": ", comma ? "," : "", path);
	jnum(out, a);
	fputs(", \"b\": ", out);
	jnum(out, b);
	fputs(", \"b_over_a\": ", out);
	jratio(out, json_num(b, NAN), json_num(a, NAN));
	fputc('}', out);
}

static void
json_launch(FILE *out, const JVal *ka, const JVal *kb, size_t index)
{
	const JVal *ca = json_get(ka, "cpi_stack"), *cb = json_get(kb, "cpi_stack");
	double ta = stack_total(ca), tb = stack_total(cb);

	fprintf(out, "%s\n    {\"launch\": %zu, \"kernel_a\": ", index ? "," : "", index);
	jstr(out, json_str(json_get(ka, "name")));
	fputs(", \"kernel_b\": ", out);
	jstr(out, json_str(json_get(kb, "name")));
	fputs(", \"config_a\": ", out);
	jstr(out, json_str(json_get(ka, "config")));
	fputs(", \"config_b\": ", out);
	jstr(out, json_str(json_get(kb, "config")));
	fputs(",\n     \"speedup\": ", out);
	jratio(out, json_num(json_get(ka, "cycles"), 0), json_num(json_get(kb, "cycles"), 0));
	fputs(",\n     \"figures\": {", out);
	for (size_t f = 0; f < sizeof figures / sizeof figures[0]; f++)
		json_figure(out, ka, kb, figures[f].path, f > 0);
	for (size_t f = 0; has_fiber(ka, kb) && f < sizeof fiber_figures / sizeof fiber_figures[0]; f++)
		json_figure(out, ka, kb, fiber_figures[f].path, 1);
	fputs("},\n     \"cpi_stack\": {", out);
	for (int r = 0; r < NCpi; r++) {
		double a = json_num(json_get(ca, cpi_name[r]), 0), b = json_num(json_get(cb, cpi_name[r]), 0);
		fprintf(out, "%s\n        \"%s\": {\"a\": %.15g, \"b\": %.15g, \"a_fraction\": ", r ? "," : "",
		        cpi_name[r], a, b);
		jratio(out, a, ta);
		fputs(", \"b_fraction\": ", out);
		jratio(out, b, tb);
		fputc('}', out);
	}
	fputs("},\n     \"configuration_differences\": {", out);
	config_diffs(out, json_get(ka, "configuration"), json_get(kb, "configuration"), 1);
	fputs("}}", out);
}

int
out_compare(const char *a, size_t alen, const char *aname, const char *b, size_t blen,
            const char *bname, int json, int any_kernel, FILE *out, char *err, size_t n)
{
	char perr[256];
	JVal *da = NULL, *db = NULL;
	const JVal *la, *lb;
	int rc = -1;

	if (!(da = json_parse(a, alen, perr, sizeof perr))) {
		fail(err, n, "%s: not JSON: %s", aname, perr);
		goto done;
	}
	if (!(db = json_parse(b, blen, perr, sizeof perr))) {
		fail(err, n, "%s: not JSON: %s", bname, perr);
		goto done;
	}
	if (!(la = launches(da, aname, err, n)) || !(lb = launches(db, bname, err, n)))
		goto done;
	if (la->n != lb->n) {
		fail(err, n, "%s has %zu launches, %s has %zu: compare needs the same launches in the "
		     "same order", aname, la->n, bname, lb->n);
		goto done;
	}
	if (!la->n) {
		fail(err, n, "%s has no launches", aname);
		goto done;
	}
	for (size_t k = 0; k < la->n; k++) {
		const char *na = json_str(json_get(&la->kid[k], "name"));
		const char *nb = json_str(json_get(&lb->kid[k], "name"));
		if (!na || !nb) {
			fail(err, n, "launch %zu of %s has no kernel name", k, na ? bname : aname);
			goto done;
		}
		if (!any_kernel && strcmp(na, nb) != 0) {
			fail(err, n, "launch %zu is kernel '%s' in %s but '%s' in %s (--any-kernel compares "
			     "different kernels)", k, na, aname, nb, bname);
			goto done;
		}
		if (!timed(&la->kid[k]) || !timed(&lb->kid[k])) {
			fail(err, n, "launch %zu ('%s') of %s was not timed (functional mode): no cycles to "
			     "compare", k, na, timed(&la->kid[k]) ? bname : aname);
			goto done;
		}
	}
	if (json) {
		fputs("{\"a\": ", out);
		jstr(out, aname);
		fputs(", \"b\": ", out);
		jstr(out, bname);
		fputs(",\n \"launches\": [", out);
	}
	for (size_t k = 0; k < la->n; k++) {
		if (json) {
			json_launch(out, &la->kid[k], &lb->kid[k], k);
		} else {
			if (k)
				fputc('\n', out);
			table(out, &la->kid[k], &lb->kid[k], k, aname, bname);
		}
	}
	if (json)
		fputs("\n]}\n", out);
	rc = 0;
done:
	json_free(da);
	json_free(db);
	return rc;
}
