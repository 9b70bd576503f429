/* lwemit.c: the PTX lowering's text (lwpriv.h): growing text buffers, the ring of operand
 * strings, the instructions and labels a selection function writes into the function's code
 * (lw_emit, lw_newlabel, the EXIT labels, PTX labels of inlined bodies), and the located errors
 * on the PTX text (lw_error: "'div.rz.f32' is not supported yet: WHY").
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- text buffers ------------------------------------------------------------------------- */

void
lw_buf_add(LwBuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 4096;
		while (c < b->len + n + 1)
			c *= 2;
		b->s = xrealloc(b->s, c);
		b->cap = c;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

/* fmt with the conversions the selection writes most (%s, %d, %u, %x, %c, %%, no flags, width,
 * precision or length) appended as vsnprintf would write them, in one piece of at most 511
 * bytes; 0 when fmt has another conversion or the text is longer: nothing is appended (what
 * was read of ap is for the caller to read again) */
static int
fast_vprintf(LwBuf *b, const char *fmt, va_list ap)
{
	char o[512], num[12];
	size_t k = 0;

	for (const char *f = fmt; *f; f++) {
		const char *t;
		size_t n;
		unsigned v;
		int neg = 0;
		if (*f != '%') {
			if (k == sizeof o - 1)
				return 0;
			o[k++] = *f;
			continue;
		}
		switch (*++f) {
		case 's':
			if (!(t = va_arg(ap, const char *)))
				t = "(null)";            /* what glibc prints */
			n = strlen(t);
			break;
		case 'd':
		case 'u':
			if (*f == 'd') {
				int d = va_arg(ap, int);
				neg = d < 0;
				v = neg ? 0u - (unsigned)d : (unsigned)d;
			} else {
				v = va_arg(ap, unsigned);
			}
			n = sizeof num;
			do
				num[--n] = (char)('0' + v % 10);
			while ((v /= 10) != 0);
			if (neg)
				num[--n] = '-';
			t = num + n;
			n = sizeof num - n;
			break;
		case 'x':
			v = va_arg(ap, unsigned);
			n = sizeof num;
			do
				num[--n] = "0123456789abcdef"[v & 15];
			while ((v >>= 4) != 0);
			t = num + n;
			n = sizeof num - n;
			break;
		case 'c':
			num[0] = (char)va_arg(ap, int);
			t = num;
			n = 1;
			break;
		case '%':
			t = "%";
			n = 1;
			break;
		default:
			return 0;
		}
		if (n > sizeof o - 1 - k)
			return 0;
		memcpy(o + k, t, n);
		k += n;
	}
	lw_buf_add(b, o, k);
	return 1;
}

static void
lw_buf_vprintf(LwBuf *b, const char *fmt, va_list ap)
{
	char tmp[512];
	va_list aq;
	int n;

	va_copy(aq, ap);
	if (fast_vprintf(b, fmt, aq)) {
		va_end(aq);
		return;
	}
	va_end(aq);
	va_copy(aq, ap);
	n = vsnprintf(tmp, sizeof tmp, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		lw_buf_add(b, tmp, (size_t)n);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	lw_buf_add(b, big, (size_t)n);
	free(big);
}

void
lw_buf_printf(LwBuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lw_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
lw_ring(Lw *w)
{
	char *s = w->ring[w->ringpos++ % LwRing];

	s[0] = 0;
	return s;
}

/* ---- writing ------------------------------------------------------------------------------ */

static void
emit_v(Lw *w, int guard, const char *fmt, va_list ap)
{
	lw_buf_add(&w->code, "        ", 8);
	if (guard && w->guard[0])
		lw_buf_add(&w->code, w->guard, strlen(w->guard));
	lw_buf_vprintf(&w->code, fmt, ap);
	lw_buf_add(&w->code, " ;\n", 3);
}

void
lw_emit(Lw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_v(w, 1, fmt, ap);
	va_end(ap);
}

void
lw_emit_ng(Lw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_v(w, 0, fmt, ap);
	va_end(ap);
}

void
lw_label_here(Lw *w, const char *name)
{
	lw_buf_printf(&w->code, "%s:\n", name);
}

const char *
lw_newlabel(Lw *w)
{
	char *s = lw_ring(w);

	snprintf(s, LwStr, ".L_p%" PRIu32, w->priv->cnt->label++);
	w->nlabel++;
	return s;
}

const char *
lw_exit_label(Lw *w)
{
	char *s = lw_ring(w);

	snprintf(s, LwStr, ".L_exit%" PRIu32, w->exit0 + w->nexit++);
	return s;
}

const char *
lw_ptxlabel(Lw *w, uint32_t atom)
{
	char *s = lw_ring(w);

	if (w->inl)
		snprintf(s, LwStr, "%s$i%" PRIu32, ptx_str(w->p, atom), w->inl);
	else
		snprintf(s, LwStr, "%s", ptx_str(w->p, atom));
	return s;
}

static int
verr(Lw *w, Loc loc, const char *fmt, va_list ap)
{
	char msg[512], text[160];
	const PtxIns *i = w->ins;
	size_t n = 0;

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (i) {
		n = i->oploc.end - i->oploc.start;
		if (n >= sizeof text)
			n = sizeof text - 1;
		memcpy(text, w->p->src->text + i->oploc.start, n);
	}
	text[n] = 0;
	if (i)
		error_at(w->d, loc, "'%s' is not supported yet: %s", text, msg);
	else
		error_at(w->d, loc, "%s", msg);
	return -1;
}

int
lw_error(Lw *w, const char *fmt, ...)
{
	va_list ap;
	Loc loc = w->ins ? w->ins->oploc : w->fn->loc;

	va_start(ap, fmt);
	verr(w, loc, fmt, ap);
	va_end(ap);
	return -1;
}

int
lw_error_opnd(Lw *w, int k, const char *fmt, ...)
{
	va_list ap;
	Loc loc = w->ins && k < w->ins->nopnd ? w->ins->opnd[k].loc : w->fn->loc;

	va_start(ap, fmt);
	verr(w, loc, fmt, ap);
	va_end(ap);
	return -1;
}
