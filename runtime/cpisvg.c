/* cpisvg.c: the CPI stacks of a statistics JSON as an SVG 1.1 stacked bar chart (fibersim cpi-svg,
 * fibersim run --cpi-svg). A small JSON reader, enough for what fiberWriteStatsJSON writes: the
 * top-level object's "kernels" array, and in each kernel its "name" and "cpi_stack" (reason:
 * sub-partition cycles); everything else is skipped. One bar per timed kernel, each reason's share
 * of the stack in percent, a legend; each segment has a tooltip with its cycles.
 */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
	MaxReasons = 32,           /* distinct CPI reasons */
	MaxName = 128,             /* bytes of a kernel or reason name kept */
	MaxDepth = 64,             /* nesting of skipped values */
	MaxKernels = 100000,
};

typedef struct Kernel {
	char name[MaxName];
	double cycles[MaxReasons]; /* by reason index */
	int timed;                 /* it has a cpi_stack */
} Kernel;

typedef struct Reader {
	const char *start, *p, *end; /* the text (NUL-terminated at end), where the reader is */
	char reason[MaxReasons][MaxName]; /* reasons in order of first appearance */
	int nreason;
	Kernel *k;
	int nk;
	char *err;
	size_t errn;
	int failed;
} Reader;

static void
bad(Reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errn, fmt, ap);
	va_end(ap);
}

static void
ws(Reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n'))
		r->p++;
}

static int
eat(Reader *r, char c)
{
	ws(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return 1;
	}
	return 0;
}

static unsigned
hexval(char c)
{
	return c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
	       : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 0;
}

/* a string into buf (n bytes; longer ones are cut, \u escapes beyond ASCII become '?') */
static void
string(Reader *r, char *buf, size_t n)
{
	size_t len = 0;

	if (!eat(r, '"')) {
		bad(r, "expected a string at byte %td", r->p - r->start);
		return;
	}
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;
		if (c == '\\' && r->p < r->end) {
			c = *r->p++;
			if (c == 'u') {
				unsigned v = 0;
				for (int k = 0; k < 4 && r->p < r->end; k++, r->p++)
					v = v * 16 + hexval(*r->p);
				c = v >= 0x20 && v < 0x7f ? (char)v : '?';
			} else if (c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f') {
				c = ' ';
			}
		}
		if (len + 1 < n)
			buf[len++] = c;
	}
	if (!eat(r, '"'))
		bad(r, "unterminated string");
	if (n)
		buf[len] = 0;
}

static double
number(Reader *r)
{
	char *e;
	double v;

	ws(r);
	if (r->p < r->end && r->p[0] == 'n' && r->end - r->p >= 4 && strncmp(r->p, "null", 4) == 0) {
		r->p += 4;
		return 0;
	}
	v = strtod(r->p, &e);
	if (e == r->p || e > r->end) {
		bad(r, "expected a number at byte %td", r->p - r->start);
		return 0;
	}
	r->p = e;
	if (!isfinite(v) || v < 0) {
		bad(r, "%g is not a cycle count", v);
		return 0;
	}
	return v;
}

static void
skip(Reader *r, int depth)
{
	char tmp[8];

	ws(r);
	if (depth > MaxDepth) {
		bad(r, "nested too deeply");
		return;
	}
	if (r->p >= r->end) {
		bad(r, "unexpected end of the file");
	} else if (*r->p == '"') {
		string(r, tmp, sizeof tmp);
	} else if (*r->p == '{' || *r->p == '[') {
		char close = *r->p++ == '{' ? '}' : ']';
		if (eat(r, close))
			return;
		do {
			if (close == '}') {
				string(r, tmp, sizeof tmp);
				if (!eat(r, ':'))
					bad(r, "expected ':'");
			}
			skip(r, depth + 1);
		} while (!r->failed && eat(r, ','));
		if (!eat(r, close))
			bad(r, "expected '%c'", close);
	} else if (*r->p == 't' || *r->p == 'f' || *r->p == 'n') {
		while (r->p < r->end && *r->p >= 'a' && *r->p <= 'z')
			r->p++;
	} else {
		number(r);
	}
}

static int
reason_index(Reader *r, const char *name)
{
	for (int k = 0; k < r->nreason; k++)
		if (strcmp(r->reason[k], name) == 0)
			return k;
	if (r->nreason == MaxReasons) {
		bad(r, "more than %d CPI reasons", MaxReasons);
		return 0;
	}
	snprintf(r->reason[r->nreason], MaxName, "%s", name);
	return r->nreason++;
}

static void
cpi_stack(Reader *r, Kernel *k)
{
	char name[MaxName];

	k->timed = 1;
	if (!eat(r, '{')) {
		bad(r, "\"cpi_stack\" is not an object");
		return;
	}
	if (eat(r, '}'))
		return;
	do {
		string(r, name, sizeof name);
		if (!eat(r, ':'))
			bad(r, "expected ':'");
		k->cycles[reason_index(r, name)] += number(r);
	} while (!r->failed && eat(r, ','));
	if (!eat(r, '}'))
		bad(r, "expected '}' after the CPI stack");
}

static void
kernel(Reader *r)
{
	char key[MaxName];
	Kernel *k;

	if (r->nk == MaxKernels) {
		bad(r, "more than %d kernels", MaxKernels);
		return;
	}
	if (!(r->k = realloc(r->k, (size_t)(r->nk + 1) * sizeof *r->k))) {
		bad(r, "out of memory");
		return;
	}
	k = &r->k[r->nk++];
	memset(k, 0, sizeof *k);
	if (!eat(r, '{')) {
		bad(r, "a kernel is not an object");
		return;
	}
	if (eat(r, '}'))
		return;
	do {
		string(r, key, sizeof key);
		if (!eat(r, ':'))
			bad(r, "expected ':'");
		if (strcmp(key, "name") == 0)
			string(r, k->name, sizeof k->name);
		else if (strcmp(key, "cpi_stack") == 0)
			cpi_stack(r, k);
		else
			skip(r, 1);
	} while (!r->failed && eat(r, ','));
	if (!eat(r, '}'))
		bad(r, "expected '}' after a kernel");
}

static void
document(Reader *r)
{
	char key[MaxName];
	int kernels = 0;

	if (!eat(r, '{')) {
		bad(r, "not a statistics JSON (no object)");
		return;
	}
	do {
		string(r, key, sizeof key);
		if (!eat(r, ':'))
			bad(r, "expected ':'");
		if (strcmp(key, "kernels") == 0 && !r->failed) {
			kernels = 1;
			if (!eat(r, '['))
				bad(r, "\"kernels\" is not an array");
			else if (!eat(r, ']')) {
				do
					kernel(r);
				while (!r->failed && eat(r, ','));
				if (!eat(r, ']'))
					bad(r, "expected ']' after the kernels");
			}
		} else {
			skip(r, 1);
		}
	} while (!r->failed && eat(r, ','));
	if (!eat(r, '}'))
		bad(r, "expected '}' at the end");
	if (!kernels)
		bad(r, "not a statistics JSON (no \"kernels\")");
}

static void
xml(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

/* colours of the reasons, in the order fiberWriteStatsJSON writes them (issue first) */
static const char *const colour[] = {
	"#2ca02c", "#ff7f0e", "#bcbd22", "#1f77b4", "#17becf", "#9467bd", "#d62728", "#8c564b",
	"#e377c2", "#7f7f7f", "#aec7e8", "#ffbb78", "#dddddd", "#98df8a", "#ff9896", "#c5b0d5",
};
enum { NColour = sizeof colour / sizeof colour[0] };

enum {
	Left = 60, Top = 50, Height = 300, Bar = 56, Gap = 34, LegendW = 200, Below = 130,
};

static void
render(const Reader *r, const char *title, FILE *out)
{
	int nbar = 0, w, h;

	for (int k = 0; k < r->nk; k++)
		nbar += r->k[k].timed;
	w = Left + nbar * (Bar + Gap) + Gap + LegendW;
	h = Top + Height + Below;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h, w, h);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
	fputs("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">CPI stack: ", out);
	xml(out, title);
	fputs("</text>\n<text x=\"10\" y=\"38\" fill=\"#555\">share of sub-partition cycles by reason "
	      "(cycles x SMs x sub-partitions)</text>\n", out);
	for (int pct = 0; pct <= 100; pct += 25) {
		double y = Top + Height - Height * pct / 100.0;
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>"
		        "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n", Left, y,
		        Left + nbar * (Bar + Gap) + Gap, y, Left - 6, y + 4, pct);
	}
	for (int k = 0, b = 0; k < r->nk; k++) {
		const Kernel *kn = &r->k[k];
		double total = 0, y = Top + Height;
		int x = Left + Gap + b * (Bar + Gap);

		if (!kn->timed)
			continue;
		b++;
		for (int c = 0; c < r->nreason; c++)
			total += kn->cycles[c];
		for (int c = 0; c < r->nreason && total > 0; c++) {
			double frac = kn->cycles[c] / total, bh = Height * frac;
			if (kn->cycles[c] <= 0)
				continue;
			y -= bh;
			fprintf(out, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\">"
			        "<title>", x, y, Bar, bh, colour[c % NColour]);
			xml(out, r->reason[c]);
			fprintf(out, ": %.0f sub-partition cycles (%.1f%%)</title></rect>\n", kn->cycles[c],
			        100 * frac);
			if (bh >= 13)
				fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">"
				        "%.1f%%</text>\n", x + Bar / 2, y + bh / 2 + 4, 100 * frac);
		}
		fprintf(out, "<text transform=\"translate(%d,%d) rotate(-35)\" text-anchor=\"end\">", x + Bar / 2,
		        Top + Height + 14);
		xml(out, kn->name[0] ? kn->name : "?");
		fputs("</text>\n", out);
	}
	for (int c = 0; c < r->nreason; c++) {
		int x = Left + nbar * (Bar + Gap) + Gap + 20, y = Top + 16 * c;
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
		        "<text x=\"%d\" y=\"%d\">", x, y, colour[c % NColour], x + 18, y + 10);
		xml(out, r->reason[c]);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
}

int
cli_cpi_svg(const char *json, size_t len, const char *title, FILE *out, char *err, size_t n)
{
	Reader r;
	char *text = malloc(len + 1);   /* NUL-terminated for strtod */
	int timed = 0;

	if (!text) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	memcpy(text, json, len);
	text[len] = 0;
	memset(&r, 0, sizeof r);
	r.start = r.p = text;
	r.end = text + len;
	r.err = err;
	r.errn = n;
	document(&r);
	for (int k = 0; k < r.nk && !r.failed; k++)
		timed += r.k[k].timed;
	if (!r.failed && !timed)
		bad(&r, "no kernel has a CPI stack (a functional run has none)");
	if (!r.failed)
		render(&r, title, out);
	free(r.k);
	free(text);
	return r.failed ? -1 : 0;
}
