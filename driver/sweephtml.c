/* sweephtml.c: DIR/report.html, one static page with nothing from the network: the points'
 * table, then inline SVG charts: speedup of each point against its baseline (the point of the
 * baseline configuration with the same workload and axis values, or one named point), the CPI
 * stacks side by side (shares of every launch's stall reasons), and a sensitivity band for each
 * axis of more than one value (cycles relative to the axis's first value, per workload/config).
 */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BarH = 18, Gap = 6 };

/* the charts' label column and whole width: the label column fits the longest point name (about
 * 7 pixels a character at 12 px sans-serif), from 300 to 640 pixels; the plot 600 beside it */
static int LabelW = 300, ChartW = 900;

static void
esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

long
sw_baseline_of(const Spec *s, size_t i)
{
	const char *b = s->baseline ? s->baseline : s->cfg[0].name;
	long k = spec_find(s, b);

	if (k >= 0)
		return k == (long)i ? -1 : k;
	for (size_t j = 0; j < s->npt; j++) {
		const SwPoint *p = &s->pt[i], *q = &s->pt[j];
		if (j == i || q->workload != p->workload || strcmp(s->cfg[q->config].name, b) != 0)
			continue;
		size_t a = 0;
		while (a < s->nax && strcmp(p->aval[a], q->aval[a]) == 0)
			a++;
		if (a == s->nax)
			return (long)j;
	}
	return -1;
}

double
sw_speedup(const Spec *s, const SwResult *r, size_t i)
{
	long b = sw_baseline_of(s, i);
	double c = sw_cycles(&r[i]), bc;

	if (b < 0) {
		const char *name = s->baseline ? s->baseline : s->cfg[0].name;
		int self = spec_find(s, name) == (long)i || strcmp(s->cfg[s->pt[i].config].name, name) == 0;
		return self && c > 0 ? 1 : NAN;
	}
	bc = sw_cycles(&r[b]);
	return c > 0 && bc > 0 ? bc / c : NAN;
}

static void
speedup_chart(FILE *f, const Spec *s, const SwResult *r)
{
	double max = 1;
	int h = (int)s->npt * (BarH + Gap) + 40;

	for (size_t i = 0; i < s->npt; i++) {
		double v = sw_speedup(s, r, i);
		if (v > max)
			max = v;
	}
	max *= 1.1;
	double scale = (ChartW - LabelW - 80) / max;
	fprintf(f, "<svg id=\"speedup\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n", ChartW, h);
	for (size_t i = 0; i < s->npt; i++) {
		double v = sw_speedup(s, r, i);
		int y = 10 + (int)i * (BarH + Gap);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LabelW - 6, y + 13);
		esc(f, s->pt[i].name);
		fputs("</text>\n", f);
		if (isnan(v)) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#a00\">no result</text>\n", LabelW + 4, y + 13);
			continue;
		}
		fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
		        "<title>%.3fx</title></rect>\n", LabelW, y, v * scale, BarH,
		        v >= 1 ? "#3a7d44" : "#b5523b", v);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%.3fx</text>\n", LabelW + v * scale + 4, y + 13, v);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\" "
	        "stroke-dasharray=\"4 3\"/>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1.0 = "
	        "baseline</text>\n</svg>\n", LabelW + scale, LabelW + scale, h - 24, LabelW + scale,
	        h - 8);
}

/* the CPI stack categories ("issue", "stall", ...) in the order first seen */
static size_t
categories(const SwResult *r, size_t n, const char **cat, size_t max)
{
	size_t nc = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].nst; k++) {
			const char *key = r[i].st[k].key, *c = strstr(key, ".cpi_stack.");
			if (strncmp(key, "kernels.", 8) != 0 || !c || strchr(c + 11, '.'))
				continue;
			c += 11;
			if (strcmp(c, "idle") == 0 || !r[i].st[k].is_num || r[i].st[k].num <= 0)
				continue;     /* idle: SMs without work, which swamps a small grid */
			size_t j = 0;
			while (j < nc && strcmp(cat[j], c) != 0)
				j++;
			if (j == nc && nc < max)
				cat[nc++] = c;
		}
	return nc;
}

/* the point's cycles in each category, summed over its launches; the total */
static double
stack_of(const SwResult *r, const char **cat, size_t nc, double *v)
{
	double total = 0;

	memset(v, 0, nc * sizeof *v);
	for (size_t k = 0; k < r->nst; k++) {
		const char *key = r->st[k].key, *c = strstr(key, ".cpi_stack.");
		if (strncmp(key, "kernels.", 8) != 0 || !c || strchr(c + 11, '.') || !r->st[k].is_num)
			continue;
		for (size_t j = 0; j < nc; j++)
			if (strcmp(cat[j], c + 11) == 0) {
				v[j] += r->st[k].num;
				total += r->st[k].num;
			}
	}
	return total;
}

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
	"#9c755f", "#bab0ac", "#1f77b4", "#aec7e8", "#8c564b", "#c49c94", "#17becf", "#9edae5",
	"#393b79", "#637939", "#8c6d31", "#843c39",
};
enum { NPal = sizeof palette / sizeof palette[0], MaxCat = 64 };

static void
cpi_chart(FILE *f, const Spec *s, const SwResult *r)
{
	const char *cat[MaxCat];
	double v[MaxCat];
	size_t nc = categories(r, s->npt, cat, MaxCat);
	int legend = (int)(nc + 3) / 4 * 18 + 10;
	int h = (int)s->npt * (BarH + Gap) + legend + 20;
	double w = ChartW - LabelW - 20;

	fprintf(f, "<svg id=\"cpi\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n", ChartW, h);
	for (size_t i = 0; i < s->npt; i++) {
		int y = 10 + (int)i * (BarH + Gap);
		double total = stack_of(&r[i], cat, nc, v), x = LabelW;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LabelW - 6, y + 13);
		esc(f, s->pt[i].name);
		fputs("</text>\n", f);
		if (!(total > 0)) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#a00\">no result</text>\n", LabelW + 4, y + 13);
			continue;
		}
		for (size_t j = 0; j < nc; j++) {
			if (v[j] <= 0)
				continue;
			fprintf(f, "<rect class=\"seg\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			        "fill=\"%s\"><title>", x, y, v[j] / total * w, BarH, palette[j % NPal]);
			esc(f, cat[j]);
			fprintf(f, ": %.1f%%</title></rect>\n", 100 * v[j] / total);
			x += v[j] / total * w;
		}
	}
	for (size_t j = 0; j < nc; j++) {
		int x = 10 + (int)(j % 4) * 220, y = h - legend + (int)(j / 4) * 18;
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		        "<text x=\"%d\" y=\"%d\">", x, y, palette[j % NPal], x + 16, y + 11);
		esc(f, cat[j]);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* the points that differ from point i only in axis a, in the order of the axis's values; how
 * many (each index, or -1 where that value has no point) */
static void
group_of(const Spec *s, size_t i, size_t a, long *g)
{
	for (size_t v = 0; v < s->ax[a].n; v++) {
		g[v] = -1;
		for (size_t j = 0; j < s->npt; j++) {
			const SwPoint *p = &s->pt[i], *q = &s->pt[j];
			if (q->workload != p->workload || q->config != p->config ||
			    strcmp(q->aval[a], s->ax[a].val[v]) != 0)
				continue;
			size_t b = 0;
			while (b < s->nax && (b == a || strcmp(p->aval[b], q->aval[b]) == 0))
				b++;
			if (b == s->nax) {
				g[v] = (long)j;
				break;
			}
		}
	}
}

static void
band(FILE *f, const Spec *s, const SwResult *r, size_t a, const long *g, int y, double lo,
     double hi)
{
	double w = ChartW - LabelW - 60, base = sw_cycles(&r[g[0]]);
	double min = INFINITY, max = -INFINITY;
#define X(q) (LabelW + ((q) - lo) / (hi - lo) * w)

	for (size_t v = 0; v < s->ax[a].n; v++) {
		double c = g[v] >= 0 ? sw_cycles(&r[g[v]]) / base : NAN;
		if (isnan(c))
			continue;
		min = c < min ? c : min;
		max = c > max ? c : max;
	}
	if (!(min <= max))
		return;
	fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
	        "fill=\"#9ecae1\"><title>%.3f-%.3f</title></rect>\n", X(min), y, X(max) - X(min) + 1,
	        BarH, min, max);
	for (size_t v = 0; v < s->ax[a].n; v++) {
		double c = g[v] >= 0 ? sw_cycles(&r[g[v]]) / base : NAN;
		if (isnan(c))
			continue;
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"3\" fill=\"%s\"><title>", X(c), y + BarH / 2,
		        v == 0 ? "#000" : "#08519c");
		esc(f, s->ax[a].name);
		fputc('=', f);
		esc(f, s->ax[a].val[v]);
		fprintf(f, ": %.3f</title></circle>\n", c);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\">%.3f-%.3f</text>\n", X(max) + 6, y + 13, min, max);
#undef X
}

/* one chart per axis of two or more values: a band per group of points that differ only in it */
static int
sensitivity_charts(FILE *f, const Spec *s, const SwResult *r)
{
	long *g = NULL;
	int charts = 0;
	char *seen = calloc(s->npt ? s->npt : 1, 1);

	for (size_t a = 0; a < s->nax; a++) {
		if (s->ax[a].n < 2)
			continue;
		size_t ng = 0;
		double lo = 1, hi = 1;
		g = realloc(g, s->ax[a].n * sizeof *g);
		memset(seen, 0, s->npt);
		/* first pass: the range of every ratio */
		for (size_t i = 0; i < s->npt; i++) {
			group_of(s, i, a, g);
			if (g[0] < 0 || seen[g[0]] || !(sw_cycles(&r[g[0]]) > 0))
				continue;
			seen[g[0]] = 1;
			ng++;
			for (size_t v = 0; v < s->ax[a].n; v++) {
				double c = g[v] >= 0 ? sw_cycles(&r[g[v]]) / sw_cycles(&r[g[0]]) : NAN;
				lo = c < lo ? c : lo;
				hi = c > hi ? c : hi;
			}
		}
		if (ng == 0)
			continue;
		lo = lo * 0.98, hi = hi * 1.02 + 1e-9;
		charts++;
		fprintf(f, "<h3>");
		esc(f, s->ax[a].name);
		fprintf(f, ": cycles relative to %s = ", s->ax[a].is_set ? "--set" : "param");
		esc(f, s->ax[a].val[0]);
		fprintf(f, " (black dot); the scale runs from %.3f to %.3f</h3>\n", lo, hi);
		fprintf(f, "<svg class=\"sensitivity\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		        "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", ChartW,
		        (int)ng * (BarH + Gap) + 20);
		memset(seen, 0, s->npt);
		int row = 0;
		for (size_t i = 0; i < s->npt; i++) {
			group_of(s, i, a, g);
			if (g[0] < 0 || seen[g[0]] || !(sw_cycles(&r[g[0]]) > 0))
				continue;
			seen[g[0]] = 1;
			int y = 10 + row++ * (BarH + Gap);
			const SwPoint *p = &s->pt[g[0]];
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LabelW - 6, y + 13);
			esc(f, s->wl[p->workload].name);
			fputc('.', f);
			esc(f, s->cfg[p->config].name);
			for (size_t b = 0; b < s->nax; b++)
				if (b != a && s->ax[b].n > 1) {
					fprintf(f, " %s=", s->ax[b].name);
					esc(f, p->aval[b]);
				}
			fputs("</text>\n", f);
			band(f, s, r, a, g, y, lo, hi);
		}
		fputs("</svg>\n", f);
	}
	free(g);
	free(seen);
	return charts;
}

static void
num_cell(FILE *f, const SwResult *r, const char *key)
{
	const SwStat *v = r->status == SwOk ? sw_stat(r, key) : NULL;

	fputs("<td class=\"n\">", f);
	if (v)
		esc(f, v->val);
	fputs("</td>", f);
}

static void
table(FILE *f, const Spec *s, const SwResult *r)
{
	static const char *const st[] = {"missing", "ok", "failed"};

	fputs("<table id=\"points\">\n<tr><th>point</th><th>workload</th><th>config</th>", f);
	for (size_t a = 0; a < s->nax; a++) {
		fputs("<th>", f);
		esc(f, s->ax[a].name);
		fputs("</th>", f);
	}
	fputs("<th>status</th><th>cycles</th><th>IPC</th><th>speedup</th><th>wall s</th>"
	      "<th>error</th></tr>\n", f);
	for (size_t i = 0; i < s->npt; i++) {
		const SwPoint *p = &s->pt[i];
		double v = sw_speedup(s, r, i);
		fputs("<tr><td>", f);
		esc(f, p->name);
		fputs("</td><td>", f);
		esc(f, s->wl[p->workload].name);
		fputs("</td><td>", f);
		esc(f, s->cfg[p->config].name);
		fputs("</td>", f);
		for (size_t a = 0; a < s->nax; a++) {
			fputs("<td>", f);
			esc(f, p->aval[a]);
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"%s\">%s</td>", st[r[i].status], st[r[i].status]);
		num_cell(f, &r[i], "cycles");
		num_cell(f, &r[i], "ipc");
		if (isnan(v))
			fputs("<td></td>", f);
		else
			fprintf(f, "<td class=\"n\">%.3f</td>", v);
		if (r[i].status != SwMissing)
			fprintf(f, "<td class=\"n\">%.2f</td><td>", r[i].seconds);
		else
			fputs("<td></td><td>", f);
		if (r[i].status == SwFailed) {
			fprintf(f, "exit %d: ", r[i].exit);
			esc(f, r[i].error);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void
page(FILE *f, const Spec *s, const SwResult *r)
{
	size_t ok = 0, failed = 0;

	for (size_t i = 0; i < s->npt; i++) {
		ok += r[i].status == SwOk;
		failed += r[i].status == SwFailed;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	esc(f, s->title);
	fputs(" - fibersim sweep</title>\n<style>\nbody { font-family: sans-serif; margin: 2em; }\n"
	      "table { border-collapse: collapse; font-size: 13px; }\n"
	      "td, th { border: 1px solid #ccc; padding: 2px 6px; }\n"
	      "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	      "td.failed { color: #a00; font-weight: bold; } td.missing { color: #888; }\n"
	      "</style>\n</head>\n<body>\n<h1>", f);
	esc(f, s->title);
	fprintf(f, "</h1>\n<p>%zu points: %zu ok, %zu failed, %zu not run. Spec: <code>", s->npt, ok,
	        failed, s->npt - ok - failed);
	esc(f, s->path);
	fputs("</code>. Baseline: <code>", f);
	esc(f, s->baseline ? s->baseline : s->cfg[0].name);
	fputs("</code>. Every statistic of every point: results.csv, results.json; each run's own "
	      "files: points/.</p>\n<h2>Points</h2>\n", f);
	table(f, s, r);
	fputs("<h2>Speedup against the baseline (its cycles / the point's)</h2>\n", f);
	speedup_chart(f, s, r);
	fputs("<h2>CPI stacks (share of the cycles that had warps, by reason, all launches; "
	      "idle left out)</h2>\n", f);
	cpi_chart(f, s, r);
	fputs("<h2>Sensitivity</h2>\n", f);
	if (!sensitivity_charts(f, s, r))
		fputs("<p>No axis has more than one value with results.</p>\n", f);
	fputs("</body>\n</html>\n", f);
}

int
sw_write_report(const Spec *s, const char *dir, const SwResult *r, char *err, size_t n)
{
	size_t len = strlen(dir) + 16;
	char *path = malloc(len);
	OutFile o;
	int rc = -1;

	if (!path)
		abort();
	LabelW = 300;
	for (size_t i = 0; i < s->npt; i++)
		if ((int)strlen(s->pt[i].name) * 7 + 12 > LabelW)
			LabelW = (int)strlen(s->pt[i].name) * 7 + 12 > 640 ? 640 :
			         (int)strlen(s->pt[i].name) * 7 + 12;
	ChartW = LabelW + 600;
	snprintf(path, len, "%s/report.html", dir);
	if (outfile_open(&o, path) == 0) {
		page(o.fp, s, r);
		rc = outfile_commit(&o);
	}
	if (rc < 0)
		snprintf(err, n, "%s: %s", path, strerror(errno));
	free(path);
	return rc;
}
