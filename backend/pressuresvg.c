/* pressuresvg.c: fiberc --pressure-svg FILE, register pressure over program order drawn as an
 * SVG: one panel per kernel, stacked, each with its axes (instruction index, R registers live),
 * a polyline of the R registers live before each instruction, a dashed line at each block
 * boundary, and a title with the kernel's name and its maximum. Plain SVG 1.1, no script, no
 * style sheet. The figures come from passes/pressure.c through the driver (backend/ sees ir/
 * only): SvgPressure carries plain arrays.
 */
#include "backend.h"

#include <string.h>

enum {
	Width = 960,       /* pixels */
	PanelH = 260,      /* one kernel's panel */
	Left = 56,         /* plot area inside a panel */
	Right = 16,
	Top = 34,
	Bottom = 40,
};

/* text with the five XML escapes */
static void
xml_text(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(*s, out); break;
		}
}

/* a round step for n units over about 6 ticks: 1, 2, 5 times a power of ten */
static int
tick_step(int n)
{
	int s = 1;

	while (n / s > 6) {
		if (n / (s * 2) <= 6)
			return s * 2;
		if (n / (s * 5) <= 6)
			return s * 5;
		s *= 10;
	}
	return s;
}

static void
panel(FILE *out, const SvgPressure *k, int y0)
{
	double pw = Width - Left - Right, ph = PanelH - Top - Bottom;
	uint32_t n = k->n;
	int ymax = k->maxlive > 0 ? k->maxlive : 1, xs, ys, top = 0;
	double sx, sy;

	for (uint32_t i = 0; i < n; i++)
		if (k->r[i] > top)
			top = k->r[i];
	if (top > ymax)
		ymax = top;
	ymax += ymax / 10 + 1;   /* head room */
	sx = n > 1 ? pw / (double)(n - 1) : pw;
	sy = ph / ymax;
	fprintf(out, "<g transform=\"translate(0,%d)\">\n", y0);
	fprintf(out, "<text x=\"%d\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">", Left);
	xml_text(out, k->name);
	fprintf(out, ": R registers live before each instruction, max %d (maxlive %d)</text>\n", top,
	        k->maxlive);
	/* block boundaries */
	for (uint32_t b = 0; b < k->nblk; b++) {
		double x = Left + sx * k->blkfirst[b];
		if (k->blkfirst[b] == 0 || k->blkfirst[b] >= n)
			continue;
		fprintf(out, "<line class=\"block\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#bbbbbb\" stroke-width=\"0.5\" stroke-dasharray=\"2,2\"/>\n", x, Top, x,
		        Top + ph);
	}
	/* axes and ticks */
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", Left,
	        Top + ph, Left + pw, Top + ph);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n", Left, Top,
	        Left, Top + ph);
	ys = tick_step(ymax);
	for (int v = 0; v <= ymax; v += ys)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"10\" "
		        "text-anchor=\"end\">%d</text>\n", Left - 4, Top + ph - sy * v + 3, v);
	xs = tick_step(n > 1 ? (int)n - 1 : 1);
	for (uint32_t v = 0; v < n; v += (uint32_t)xs)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"10\" "
		        "text-anchor=\"middle\">%u</text>\n", Left + sx * v, Top + ph + 14, v);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-family=\"sans-serif\" font-size=\"11\" "
	        "text-anchor=\"middle\">instruction (program order)</text>\n", Left + pw / 2,
	        PanelH - 8);
	fprintf(out, "<text x=\"12\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
	        "transform=\"rotate(-90 12 %.1f)\" text-anchor=\"middle\">R live</text>\n",
	        Top + ph / 2, Top + ph / 2);
	/* the pressure */
	if (n) {
		fprintf(out, "<polyline class=\"pressure\" fill=\"none\" stroke=\"#1f5fbf\" "
		        "stroke-width=\"1\" points=\"");
		for (uint32_t i = 0; i < n; i++)
			fprintf(out, "%s%.1f,%.1f", i ? " " : "", Left + sx * i, Top + ph - sy * k->r[i]);
		fprintf(out, "\"/>\n");
	}
	fprintf(out, "</g>\n");
}

int
emit_pressure_svg(FILE *out, const SvgPressure *k, uint32_t nk)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	        "height=\"%u\" viewBox=\"0 0 %d %u\">\n", Width, PanelH * (nk ? nk : 1), Width,
	        PanelH * (nk ? nk : 1));
	fprintf(out, "<title>fiberc register pressure</title>\n");
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	for (uint32_t i = 0; i < nk; i++)
		panel(out, &k[i], (int)(i * PanelH));
	fprintf(out, "</svg>\n");
	return ferror(out) ? -1 : 0;
}
