/* diag.c: source files and diagnostics in the GCC/Clang form.
 *
 *   kernel.sass:12:31: error: register 'R300' out of range (R0..R254, RZ)
 *      12 |         IMAD R300, R7, UR4, R0 ;
 *         |              ^~~~
 *
 * Every diagnostic goes through verror_at. Locations are byte offsets; lines and columns are
 * found through the line-start map built once per file (jq's locfile).
 */
#include "ir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MaxShownLine = 160 };  /* longer source lines are cut around the caret */

Src *
src_new(const char *name, const char *text, size_t len)
{
	Src *s = xmalloc(sizeof *s);
	uint32_t cap = 64;

	s->name = xstrdup(name);
	s->text = xmalloc(len + 1);
	memcpy(s->text, text, len);
	s->len = len;
	s->line = xmalloc(cap * sizeof *s->line);
	s->line[s->nline++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 <= len) {
			vgrow(&s->line, &cap, s->nline + 1, sizeof *s->line);
			s->line[s->nline++] = (uint32_t)(i + 1);
		}
	return s;
}

Src *
src_read(const char *path, Diag *d)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	Src *s;

	if (!fp) {
		error_plain(d, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			if (cap > (size_t)UINT32_MAX) {
				error_plain(d, "'%s' is larger than 4 GiB", path);
				free(buf);
				if (fp != stdin)
					fclose(fp);
				return NULL;
			}
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got > 0);
	if (ferror(fp)) {
		error_plain(d, "cannot read '%s': %s", path, strerror(errno));
		free(buf);
		if (fp != stdin)
			fclose(fp);
		return NULL;
	}
	if (fp != stdin)
		fclose(fp);
	s = src_new(path, buf ? buf : "", len);
	free(buf);
	return s;
}

void
src_free(Src *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->text);
	free(s->line);
	free(s);
}

void
src_linecol(const Src *s, uint32_t off, uint32_t *line, uint32_t *col)
{
	uint32_t lo = 0, hi = s->nline;

	if (off > s->len)
		off = (uint32_t)s->len;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->line[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - s->line[lo] + 1;
}

void
diag_init(Diag *d, Src *src, FILE *out)
{
	memset(d, 0, sizeof *d);
	d->src = src;
	d->out = out ? out : stderr;
	d->maxerr = MaxErrors;
}

/* print one character of source safely: control bytes and non-ASCII become '?' */
static void
put_src_char(FILE *out, unsigned char c)
{
	if (c == '\t')
		fputc(' ', out);
	else if (c < 0x20 || c >= 0x7f)
		fputc('?', out);
	else
		fputc(c, out);
}

static void
show_line(Diag *d, Loc loc, uint32_t line, uint32_t col)
{
	const Src *s = d->src;
	uint32_t begin = s->line[line - 1], end = begin, from, to, width;

	while (end < s->len && s->text[end] != '\n')
		end++;
	if (end > begin && s->text[end - 1] == '\r')
		end--;
	/* show at most MaxShownLine bytes, starting a little before the caret on long lines */
	from = begin;
	if (col > MaxShownLine - 20)
		from = begin + col - 1 - (MaxShownLine / 2);
	to = end;
	if (to - from > MaxShownLine)
		to = from + MaxShownLine;
	fprintf(d->out, "%5u | %s", line, from > begin ? "..." : "");
	for (uint32_t i = from; i < to; i++)
		put_src_char(d->out, (unsigned char)s->text[i]);
	fprintf(d->out, "%s\n      | %s", to < end ? "..." : "", from > begin ? "   " : "");
	for (uint32_t i = from; i < begin + col - 1; i++)
		fputc(' ', d->out);
	fputc('^', d->out);
	width = loc.end > loc.start ? loc.end - loc.start : 1;
	if (loc.start + width > end)
		width = end > loc.start ? end - loc.start : 1;
	if (begin + col - 1 + width > to)
		width = to > begin + col - 1 ? to - (begin + col - 1) : 1;
	for (uint32_t i = 1; i < width; i++)
		fputc('~', d->out);
	fputc('\n', d->out);
}

void
verror_at(Diag *d, const char *kind, Loc loc, const char *fmt, va_list ap)
{
	int is_err = strcmp(kind, "error") == 0;
	uint32_t line, col;

	if (is_err) {
		d->nerr++;
		if (d->maxerr && d->nerr > d->maxerr) {
			if (d->nerr == d->maxerr + 1)
				fprintf(d->out, "%s: fatal error: too many errors emitted, stopping now\n",
				        d->src ? d->src->name : "fiber");
			return;
		}
	} else if (strcmp(kind, "warning") == 0) {
		d->nwarn++;
	}
	if (!d->src) {
		fprintf(d->out, "fiber: %s: ", kind);
		vfprintf(d->out, fmt, ap);
		fputc('\n', d->out);
		return;
	}
	src_linecol(d->src, loc.start, &line, &col);
	fprintf(d->out, "%s:%u:%u: %s: ", d->src->name, line, col, kind);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	show_line(d, loc, line, col);
}

void
error_at(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(d, "error", loc, fmt, ap);
	va_end(ap);
}

void
warn_at(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(d, "warning", loc, fmt, ap);
	va_end(ap);
}

void
note_at(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(d, "note", loc, fmt, ap);
	va_end(ap);
}

void
error_plain(Diag *d, const char *fmt, ...)
{
	va_list ap;

	d->nerr++;
	fputs("fiberc: error: ", d->out);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}
