/* cpisvg.c: the CPI stacks of statistics files as an SVG 1.1 stacked bar chart (fibersim cpi-svg
 * A.json [B.json], fibersim run --cpi-svg). One bar per timed launch (with two files, A's and B's
 * launches side by side), or with per_sm one bar per SM that had warps. Each reason's share of
 * the stack in percent, a tooltip with its cycles, a legend; under each bar the kernel, its cycles
 * and its configuration. The idle share is left out on request, and by default when it is most
 * of a stack (a small grid on a large GPU), and the subtitle then says how much was left out.
 * The picture is as wide as its longest text, so no title is ever clipped.
 */
#include "cli.h"
#include "json.h"
#include "outputs.h"
#include "rt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
	MaxBars = 100000,          /* bars in one chart */
	MaxLabel = 40,             /* characters of a kernel name under a bar */
	Left = 60, Top = 62, Height = 300, MinSlot = 76, LegendW = 190, Below = 70,
	CharW = 7,                 /* width of a character of the 11-pixel font, rounded up */
};

typedef struct SvgBar {
	const JVal *stack;         /* a cpi_stack object */
	const char *name;          /* kernel */
	const char *config;
	char label[64];            /* "A: ", "SM 3", ... */
	double cycles;
} SvgBar;

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

static void
xml_n(FILE *out, const char *s, size_t n)
{
	for (size_t k = 0; k < n && s[k]; k++) {
		unsigned char c = (unsigned char)s[k];
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(c < 0x20 ? '?' : c, out);
		}
	}
}

static void
xml(FILE *out, const char *s)
{
	xml_n(out, s, strlen(s));
}

/* a name shortened to at most max characters, the middle replaced by "..." */
static void
short_name(FILE *out, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max) {
		xml(out, s);
		return;
	}
	xml_n(out, s, max / 2 - 1);
	fputs("...", out);
	xml(out, s + n - (max - max / 2 - 2));
}

static size_t
shown_len(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n < max ? n : max;
}

/* colours of the reasons by JSON key (a reason missing here is grey): the FIBER model's
 * busy_wait, fiber_sync and remote_read have their own */
static const struct { const char *name, *colour; } colours[] = {
	{"issue", "#2ca02c"}, {"stall", "#ff7f0e"}, {"yield", "#bcbd22"}, {"wait_memory", "#1f77b4"},
	{"wait_long_latency", "#17becf"}, {"wait_tensor", "#9467bd"}, {"pipe_busy", "#d62728"},
	{"memory_throttle", "#8c564b"}, {"register_bank_conflict", "#e377c2"},
	{"barrier", "#7f7f7f"}, {"sync", "#aec7e8"}, {"instruction_fetch", "#ffbb78"},
	{"busy_wait", "#98df8a"}, {"fiber_sync", "#c5b0d5"}, {"remote_read", "#ff9896"},
	{"idle", "#dddddd"},
};

static const char *
colour_of(int r)
{
	for (size_t k = 0; k < sizeof colours / sizeof colours[0]; k++)
		if (strcmp(colours[k].name, cpi_name[r]) == 0)
			return colours[k].colour;
	return "#555555";
}

static double
cycles_of(const SvgBar *b, int r)
{
	return json_num(json_get(b->stack, cpi_name[r]), 0);
}

static double
bar_total(const SvgBar *b, int with_idle)
{
	double t = 0;

	for (int r = 0; r < NCpi; r++)
		if (with_idle || r != CpiIdle)
			t += cycles_of(b, r);
	return t;
}

static void
render(const SvgBar *bar, int nbar, const CpiSvgOpts *o, const char *const *names, int nfile,
       FILE *out)
{
	int keep_idle = o->idle > 0, slot = MinSlot, w, h, plot_w;
	double idle_max = 0;
	char sub[512];
	size_t text_w;
	int used[NCpi] = {0};

	for (int b = 0; b < nbar; b++) {
		double t = bar_total(&bar[b], 1), f = t > 0 ? cycles_of(&bar[b], CpiIdle) / t : 0;
		size_t lw = shown_len(bar[b].name, MaxLabel) + strlen(bar[b].label) + 1;
		idle_max = f > idle_max ? f : idle_max;
		if ((int)(lw * CharW) + 8 > slot)
			slot = (int)(lw * CharW) + 8;
		for (int r = 0; r < NCpi; r++)
			used[r] |= cycles_of(&bar[b], r) > 0;
	}
	if (o->idle < 0)
		keep_idle = idle_max <= 0.5;
	if (keep_idle)
		snprintf(sub, sizeof sub, "share of sub-partition cycles by reason (cycles x SMs x "
		         "sub-partitions)");
	else
		snprintf(sub, sizeof sub, "share of the sub-partition cycles that had warps, by reason; "
		         "idle left out (up to %.1f%% of a stack%s)", 100 * idle_max,
		         o->idle < 0 ? ": most sub-partitions were idle; --idle keeps it" : "");
	plot_w = nbar * slot + 20;
	text_w = strlen(sub) * CharW + 20;
	for (int f = 0; f < nfile; f++)
		if (strlen(names[f]) * CharW + 60 > text_w)
			text_w = strlen(names[f]) * CharW + 60;
	if (o->title && (strlen(o->title) + 11) * 9 + 20 > text_w)
		text_w = (strlen(o->title) + 11) * 9 + 20;
	w = Left + plot_w + LegendW;
	if ((int)text_w > w)
		w = (int)text_w;
	h = Top + 16 * (nfile > 1 ? nfile : 0) + Height + Below;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h, w, h);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
	fputs("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">CPI stack: ", out);
	xml(out, o->title ? o->title : nfile > 1 ? "A vs B" : names[0]);
	fputs("</text>\n<text x=\"10\" y=\"40\" fill=\"#555\">", out);
	xml(out, sub);
	fputs("</text>\n", out);
	for (int f = 0; f < nfile && nfile > 1; f++) {
		fprintf(out, "<text x=\"10\" y=\"%d\" fill=\"#555\">%c = ", 56 + 16 * f, 'A' + f);
		xml(out, names[f]);
		fputs("</text>\n", out);
	}
	{
		int top = Top + 16 * (nfile > 1 ? nfile : 0);
		for (int pct = 0; pct <= 100; pct += 25) {
			double y = top + Height - Height * pct / 100.0;
			fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>"
			        "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", Left, y,
			        Left + plot_w, y, Left - 6, y + 4, pct);
		}
		for (int b = 0; b < nbar; b++) {
			const SvgBar *br = &bar[b];
			double total = bar_total(br, keep_idle), y = top + Height;
			int bw = slot - 20 < 56 ? slot - 20 : 56;
			int x = Left + 10 + b * slot + (slot - bw) / 2, cx = Left + 10 + b * slot + slot / 2;

			for (int r = 0; r < NCpi && total > 0; r++) {
				double c = cycles_of(br, r), frac = c / total, bh = Height * frac;
				if (c <= 0 || (r == CpiIdle && !keep_idle))
					continue;
				y -= bh;
				fprintf(out, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\">"
				        "<title>%s: %.0f sub-partition cycles (%.1f%%)</title></rect>\n", x, y, bw,
				        bh, colour_of(r), cpi_name[r], c, 100 * frac);
				if (bh >= 13)
					fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" "
					        "font-size=\"10\">%.1f%%</text>\n", cx, y + bh / 2 + 4, 100 * frac);
			}
			fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"><title>", cx,
			        top + Height + 16);
			xml(out, br->name);
			fputs("</title>", out);
			xml(out, br->label);
			short_name(out, br->name, MaxLabel);
			fprintf(out, "</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">"
			        "%.0f cycles</text>\n", cx, top + Height + 30, br->cycles);
			fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">", cx,
			        top + Height + 44);
			short_name(out, br->config ? br->config : "?", MaxLabel);
			fputs("</text>\n", out);
		}
		for (int r = 0, row = 0; r < NCpi; r++) {
			int x = Left + plot_w + 16, y = top + 16 * row;
			if (!used[r] || (r == CpiIdle && !keep_idle))
				continue;
			row++;
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			        "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y, colour_of(r), x + 18, y + 10,
			        cpi_name[r]);
		}
	}
	fputs("</svg>\n", out);
}

/* the bars of one file: its timed launches, or their SMs with warps */
static int
file_bars(const JVal *doc, const char *name, int file, int nfile, const CpiSvgOpts *o,
          SvgBar *bar, int *nbar, char *err, size_t n)
{
	const JVal *ks = json_get(doc, "kernels");

	if (!ks || ks->type != JArr)
		return fail(err, n, "%s%snot a statistics JSON (no \"kernels\")", nfile > 1 ? name : "",
		            nfile > 1 ? ": " : "");
	for (size_t k = 0; k < ks->n; k++) {
		const JVal *kn = &ks->kid[k], *stack = json_get(kn, "cpi_stack"), *sms;
		const char *kname = json_str(json_get(kn, "name"));
		if (!stack || stack->type != JObj)
			continue;
		if (!o->per_sm) {
			if (*nbar == MaxBars)
				return fail(err, n, "more than %d bars", MaxBars);
			bar[*nbar].stack = stack;
			bar[*nbar].name = kname ? kname : "?";
			bar[*nbar].config = json_str(json_get(kn, "config"));
			bar[*nbar].cycles = json_num(json_get(kn, "cycles"), 0);
			if (nfile > 1)
				snprintf(bar[*nbar].label, sizeof bar->label, "%c: ", 'A' + file);
			else
				bar[*nbar].label[0] = '\0';
			(*nbar)++;
			continue;
		}
		sms = json_get(kn, "per_sm");
		for (size_t s = 0; sms && sms->type == JArr && s < sms->n; s++) {
			const JVal *sm = &sms->kid[s];
			if (json_num(json_get(sm, "busy_cycles"), 0) <= 0)
				continue;
			if (*nbar == MaxBars)
				return fail(err, n, "more than %d SMs with warps: --per-sm is for launches of "
				            "a few CTAs", MaxBars);
			bar[*nbar].stack = json_get(sm, "cpi_stack");
			bar[*nbar].name = kname ? kname : "?";
			bar[*nbar].config = json_str(json_get(kn, "config"));
			bar[*nbar].cycles = json_num(json_get(kn, "cycles"), 0);
			if (nfile > 1)
				snprintf(bar[*nbar].label, sizeof bar->label, "%c: SM %zu ", 'A' + file, s);
			else
				snprintf(bar[*nbar].label, sizeof bar->label, "SM %zu ", s);
			(*nbar)++;
		}
	}
	return 0;
}

int
out_cpi_svg(const char *const *json, const size_t *len, const char *const *names, int nfile,
            const CpiSvgOpts *o, FILE *out, char *err, size_t n)
{
	JVal *doc[2] = {NULL, NULL};
	SvgBar *bar = NULL;
	char perr[256];
	int nbar = 0, rc = -1;
	size_t cap = 1;

	if (nfile < 1 || nfile > 2) {
		fail(err, n, "one or two statistics files");
		goto done;
	}
	for (int f = 0; f < nfile; f++) {
		const JVal *ks;
		if (!(doc[f] = json_parse(json[f], len[f], perr, sizeof perr))) {
			fail(err, n, "%s%snot a statistics JSON (%s)", nfile > 1 ? names[f] : "",
			     nfile > 1 ? ": " : "", perr);
			goto done;
		}
		ks = json_get(doc[f], "kernels");
		for (size_t k = 0; ks && ks->type == JArr && k < ks->n; k++) {
			const JVal *sms = json_get(&ks->kid[k], "per_sm");
			cap += o->per_sm && sms ? sms->n : 1;
		}
	}
	bar = xmalloc((cap < MaxBars ? cap : MaxBars) * sizeof *bar);
	for (int f = 0; f < nfile; f++)
		if (file_bars(doc[f], names[f], f, nfile, o, bar, &nbar, err, n) < 0)
			goto done;
	if (!nbar) {
		fail(err, n, "no kernel has a CPI stack (a functional run has none)");
		goto done;
	}
	render(bar, nbar, o, names, nfile, out);
	rc = 0;
done:
	for (int f = 0; f < 2; f++)
		json_free(doc[f]);
	free(bar);
	return rc;
}

int
cli_cpi_svg(const char *json, size_t len, const char *title, FILE *out, char *err, size_t n)
{
	CpiSvgOpts o = {-1, 0, title};
	const char *name = title ? title : "statistics";

	return out_cpi_svg(&json, &len, &name, 1, &o, out, err, n);
}
