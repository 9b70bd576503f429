/* diag.c: source files and diagnostics in the GCC/Clang form.
 *
 *   kernel.sass:12:31: error: register 'R300' out of range (R0..R254, RZ)
 *      12 |         IMAD R300, R7, UR4, R0 ;
 *         |              ^~~~
 *
 * Every diagnostic goes through verror_at. Locations are byte offsets; lines and columns are
 * found through the line-start map (jq's locfile), built when the first diagnostic needs it.
 */
#define _DEFAULT_SOURCE           /* fileno, mmap, madvise */
#include "ir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	MaxShownLine = 160,        /* longer source lines are cut around the caret */
	MaxInputBytes = 1u << 30,  /* the largest input read (fiberc(1) documents it) */
	ColdStep = 1u << 20,       /* src_cold_before gives back mapped text this much at a time */
};

/* a Src and how its text is held */
typedef struct SrcBox {
	Src src;           /* first: a Src * is a SrcBox * */
	size_t maplen;     /* the text is a private mapping of the file of this many bytes; 0: malloc'd */
	size_t cold;       /* bytes at its start given back already (src_cold_before) */
	size_t page;       /* the page size, for a mapping */
} SrcBox;

static Src *
src_box(const char *name, char *text, size_t len, size_t maplen)
{
	SrcBox *b = xmalloc(sizeof *b);

	b->src.name = xstrdup(name);
	b->src.text = text;
	b->src.len = len;
	b->maplen = maplen;
	b->cold = 0;
	b->page = maplen ? (size_t)sysconf(_SC_PAGESIZE) : 0;
	return &b->src;
}

/* the text is given, not copied: text[0..len) in a malloc'd block of at least len + 1 bytes */
Src *
src_take(const char *name, char *text, size_t len)
{
	text[len] = 0;
	return src_box(name, text, len, 0);
}

Src *
src_new(const char *name, const char *text, size_t len)
{
	char *t = xrealloc(NULL, len + 1);

	memcpy(t, text, len);
	return src_take(name, t, len);
}

/* the start of each line, found when a diagnostic first needs it (a cache: const is kept) */
static const uint32_t *
lines(const Src *cs)
{
	Src *s = (Src *)cs;
	const char *p = s->text, *end = s->text + s->len;
	uint32_t cap = 64;

	if (s->line)
		return s->line;
	s->line = xmalloc(cap * sizeof *s->line);
	s->line[s->nline++] = 0;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		p++;
		vgrow(&s->line, &cap, s->nline + 1, sizeof *s->line);
		s->line[s->nline++] = (uint32_t)(p - s->text);
	}
	return s->line;
}

/* a regular file whose size is not a multiple of the page size is mapped: no copy, and the
 * zeros after its end in the last page are the NUL the text needs; NULL if not done */
static Src *
src_map(const char *path, int fd, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (page <= 0 || size == 0 || size % (size_t)page == 0)
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	return src_box(path, p, size, size);
}

/* a regular file is mapped, or read in one piece into a block of its exact size; a pipe or a
 * device is read in growing blocks, and only up to the block with the first NUL byte in it (the
 * lexer reports that byte: `fiberc /dev/zero` stops at once). Inputs over MaxInputBytes (1 GiB)
 * are refused, as is one that cannot be held in memory. */
Src *
src_read(const char *path, Diag *d)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	struct stat st;
	Src *s;

	if (!fp) {
		error_plain(d, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) {
		if ((uint64_t)st.st_size > MaxInputBytes) {
			error_plain(d, "'%s' is larger than 1 GiB, the input limit", path);
			goto fail;
		}
		if (fp != stdin && (s = src_map(path, fileno(fp), (size_t)st.st_size))) {
			fclose(fp);
			return s;
		}
		/* room for the whole file, its NUL, and one byte more to see the end at once */
		cap = (size_t)st.st_size + 2;
		if (!(buf = malloc(cap))) {
			error_plain(d, "out of memory reading '%s' (%zu bytes)", path, cap);
			goto fail;
		}
	}
	for (;;) {
		if (cap - len < 2) {
			cap = cap < 65536 ? 65536 : cap * 2;
			if (cap > (size_t)MaxInputBytes + 2)
				cap = (size_t)MaxInputBytes + 2;
			if (cap - len < 2) {
				error_plain(d, "'%s' is larger than 1 GiB, the input limit", path);
				goto fail;
			}
			if (!(nb = realloc(buf, cap))) {
				error_plain(d, "out of memory reading '%s' (%zu bytes)", path, cap);
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, fp);
		len += got;
		if (got == 0 || memchr(buf + len - got, 0, got))
			break;
	}
	if (ferror(fp)) {
		error_plain(d, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (fp != stdin)
		fclose(fp);
	if (cap - len > 65536)
		buf = xrealloc(buf, len + 1);
	return src_take(path, buf, len);
fail:
	free(buf);
	if (fp != stdin)
		fclose(fp);
	return NULL;
}

void
src_cold(Src *s)
{
#ifdef MADV_DONTNEED
	SrcBox *b = (SrcBox *)s;

	/* clean pages of a private file mapping come back from the file when touched again */
	if (b && b->maplen)
		madvise(s->text, b->maplen, MADV_DONTNEED);
#else
	(void)s;
#endif
}

void
src_cold_before(Src *s, size_t off)
{
#ifdef MADV_DONTNEED
	SrcBox *b = (SrcBox *)s;
	size_t upto;

	if (!b || !b->maplen || b->page == 0 || off > b->maplen)
		return;
	upto = off / b->page * b->page;
	if (upto < b->cold + ColdStep)
		return;      /* one call for each ColdStep bytes read */
	madvise(s->text + b->cold, upto - b->cold, MADV_DONTNEED);
	b->cold = upto;
#else
	(void)s;
	(void)off;
#endif
}

void
src_free(Src *s)
{
	SrcBox *b = (SrcBox *)s;

	if (!s)
		return;
	free(s->name);
	if (b->maplen)
		munmap(s->text, b->maplen);
	else
		free(s->text);
	free(s->line);
	free(b);
}

void
src_linecol(const Src *s, uint32_t off, uint32_t *line, uint32_t *col)
{
	const uint32_t *ls = lines(s);
	uint32_t lo = 0, hi = s->nline;

	if (off > s->len)
		off = (uint32_t)s->len;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ls[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - ls[lo] + 1;
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
	uint32_t begin = lines(s)[line - 1], end = begin, from, to, width;

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
