/* fibersvg.c: the FIBER timeline of a statistics JSON as an SVG 1.1 line chart (fibersim run
 * --fiber-svg). For each kernel that ran on the FIBER model (its "fiber" object, docs/sim-stats.md
 * "FIBER") two panels over the same cycle axis: the active fibers of SM 0 and the vector
 * registers allocated to windows and pools (with the register file's size as a dashed line).
 * Each is a step line (a <polyline> of 2 x samples points: a sample holds until the next one, the
 * last until the kernel's end). Axes are labelled; the picture is self-contained (no script, no
 * external font or style). A file without a FIBER kernel is refused (a SIMT run has no timeline).
 */
#include "cli.h"
#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { Left = 70, Right = 30, PlotW = 640, PlotH = 160, Top = 50, Gap = 70 };

static void
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
}

/* a string as SVG text (XML-escaped) */
static void
xml_text(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
		}
}

/* a round step for an axis from 0 to max with about 4 ticks */
static double
tick_step(double max)
{
	double s = 1;

	while (s * 10 <= max / 4)
		s *= 10;
	if (s * 5 <= max / 4)
		s *= 5;
	else if (s * 2 <= max / 4)
		s *= 2;
	return s;
}

/* one panel at y0: values v[0..n) at cycles c[0..n), the line held to end */
static void
panel(FILE *out, int y0, const char *label, const char *colour, const JVal *c, const JVal *v,
      double end, double limit)
{
	double ymax = limit > 0 ? limit : 1, xs, ys, step;

	for (size_t k = 0; k < v->n; k++)
		if (v->kid[k].num > ymax)
			ymax = v->kid[k].num;
	xs = PlotW / (end > 0 ? end : 1);
	ys = PlotH / ymax;
	fprintf(out, "<g class=\"panel\">\n<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", Left, y0 - 8);
	xml_text(out, label);
	fprintf(out, "</text>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
	        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", Left, y0, Left,
	        y0 + PlotH, Left, y0 + PlotH, Left + PlotW, y0 + PlotH);
	step = tick_step(ymax);
	for (double t = 0; t <= ymax + 1e-9; t += step)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.0f</text>\n",
		        Left - 4, y0 + PlotH - t * ys + 4, t);
	step = tick_step(end > 0 ? end : 1);
	for (double t = 0; t <= end + 1e-9; t += step)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%.0f</text>\n",
		        Left + t * xs, y0 + PlotH + 14, t);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">cycle</text>\n",
	        Left + PlotW / 2, y0 + PlotH + 30);
	if (limit > 0)
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999\" "
		        "stroke-dasharray=\"4 3\"><title>register file: %.0f</title></line>\n", Left,
		        y0 + PlotH - limit * ys, Left + PlotW, y0 + PlotH - limit * ys, limit);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
	for (size_t k = 0; k < v->n; k++) {
		double x = Left + c->kid[k].num * xs;
		double x2 = Left + (k + 1 < v->n ? c->kid[k + 1].num : end) * xs;
		double y = y0 + PlotH - v->kid[k].num * ys;
		fprintf(out, "%s%.1f,%.1f %.1f,%.1f", k ? " " : "", x, y, x2, y);
	}
	fputs("\"/>\n</g>\n", out);
}

static int
fiber_kernel(const JVal *k)
{
	const JVal *tl = json_path(k, "fiber.timeline");
	const JVal *c = json_get(tl, "cycle"), *f = json_get(tl, "fibers"), *r = json_get(tl, "regs");

	return c && f && r && c->type == JArr && f->type == JArr && r->type == JArr && c->n == f->n &&
	       c->n == r->n && c->n > 0;
}

int
cli_fiber_svg(const char *json, size_t len, const char *title, FILE *out, char *err, size_t n)
{
	char perr[256];
	JVal *doc = json_parse(json, len, perr, sizeof perr);
	const JVal *ks;
	int nk = 0, y, w = Left + PlotW + Right, h;

	if (!doc) {
		fail(err, n, "not a statistics JSON (%s)", perr);
		return -1;
	}
	ks = json_get(doc, "kernels");
	for (size_t k = 0; ks && ks->type == JArr && k < ks->n; k++)
		nk += fiber_kernel(&ks->kid[k]);
	if (!nk) {
		fail(err, n, "no kernel ran on the FIBER model, so there is no fiber timeline (use a "
		     "configuration with sm_model = fiber, such as a100-fiber)");
		json_free(doc);
		return -1;
	}
	if (title && (int)(strlen(title) + 20) * 9 + 20 > w)
		w = (int)(strlen(title) + 20) * 9 + 20;
	h = Top + nk * (2 * (PlotH + Gap) + 24) + 10;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
	        "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
	        "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">FIBER timeline", w, h,
	        w, h, w, h);
	if (title) {
		fputs(": ", out);
		xml_text(out, title);
	}
	fputs("</text>\n<text x=\"10\" y=\"38\" fill=\"#555\">SM 0: active fibers and vector "
	      "registers allocated to windows and pools, over SM cycles</text>\n", out);
	y = Top;
	for (size_t k = 0; k < ks->n; k++) {
		const JVal *kr = &ks->kid[k], *tl = json_path(kr, "fiber.timeline");
		const JVal *c = json_get(tl, "cycle");
		double end = json_num(json_get(kr, "cycles"), 0), rf;
		char label[160];
		if (!fiber_kernel(kr))
			continue;
		if (c->kid[c->n - 1].num > end)
			end = c->kid[c->n - 1].num;
		rf = json_num(json_path(kr, "fiber.rf_regs"), 0);
		fprintf(out, "<text x=\"10\" y=\"%d\" font-weight=\"bold\">kernel ", y + 8);
		xml_text(out, json_str(json_get(kr, "name")) ? json_str(json_get(kr, "name")) : "?");
		fprintf(out, " (%.0f cycles)</text>\n", end);
		y += 24 + 20;
		snprintf(label, sizeof label, "active fibers (peak %.0f)",
		         json_num(json_path(kr, "fiber.peak_fibers"), 0));
		panel(out, y, label, "#1f77b4", c, json_get(tl, "fibers"), end, 0);
		y += PlotH + Gap;
		snprintf(label, sizeof label, "vector registers allocated (peak %.0f of %.0f)",
		         json_num(json_path(kr, "fiber.peak_regs"), 0), rf);
		panel(out, y, label, "#d62728", c, json_get(tl, "regs"), end, rf);
		y += PlotH + Gap - 20;
	}
	fputs("</svg>\n", out);
	json_free(doc);
	return 0;
}
