/* print.c: a whole module back as text, in the format it was read in: an nvdisasm listing (every
 * section, directive, label, nvinfo comment, offsets and both encoding words) or a cuobjdump -sass
 * listing. PrintIr adds the `// fiber IR` line, block comments `// bb3: preds bb1 bb2`, phi lines
 * and SSA annotations (docs/ir.md). Layout follows nvdisasm: the opcode at column 35 with the
 * guard right-aligned before it, the encoding comments in one column after the longest
 * instruction of the module. Output is a function of the module only (deterministic).
 */
#include "ir.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
	OpCol = 35,        /* column of the opcode */
	HidItem = 3,       /* Item kinds above INvinfo belong to the front end: not printed */
};

typedef struct W W;

/* a buffered writer: one fwrite per 64 KiB */
struct W {
	FILE *f;           /* destination */
	size_t n;          /* bytes in buf */
	char buf[1 << 16]; /* pending output */
};

static void
wflush(W *w)
{
	if (w->n)
		fwrite(w->buf, 1, w->n, w->f);
	w->n = 0;
}

static void
wput(W *w, const char *s, size_t n)
{
	if (w->n + n > sizeof w->buf) {
		wflush(w);
		if (n > sizeof w->buf) {
			fwrite(s, 1, n, w->f);
			return;
		}
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

static void
wstr(W *w, const char *s)
{
	wput(w, s, strlen(s));
}

static void
wspaces(W *w, int n)
{
	if (n <= 0)
		return;
	if (w->n + (size_t)n > sizeof w->buf)
		wflush(w);
	while (n > (int)sizeof w->buf) {
		memset(w->buf, ' ', sizeof w->buf);
		w->n = sizeof w->buf;
		wflush(w);
		n -= (int)sizeof w->buf;
	}
	memset(w->buf + w->n, ' ', (size_t)n);
	w->n += (size_t)n;
}

static void wfmt(W *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
wfmt(W *w, const char *fmt, ...)
{
	char b[512], *p;
	va_list ap, aq;
	int n;

	va_start(ap, fmt);
	va_copy(aq, ap);
	n = vsnprintf(b, sizeof b, fmt, ap);
	if (n >= 0 && n < (int)sizeof b) {
		wput(w, b, (size_t)n);
	} else if (n > 0) {
		p = xmalloc((size_t)n + 1);
		vsnprintf(p, (size_t)n + 1, fmt, aq);
		wput(w, p, (size_t)n);
		free(p);
	}
	va_end(aq);
	va_end(ap);
}

/* ---- data directives ---------------------------------------------------------------------- */

static void
wexpr(W *w, const Module *m, const Expr *e)
{
	switch (e->kind) {
	case ENum:
		if (e->hex)
			wfmt(w, "%s0x%0*llx", e->num < 0 ? "-" : "", e->hex,
			     (unsigned long long)(e->num < 0 ? -(uint64_t)e->num : (uint64_t)e->num));
		else
			wfmt(w, "%lld", (long long)e->num);
		break;
	case EStr:
		wfmt(w, "\"%s\"", mstr(m, e->atom));
		break;
	case ESym:
		wstr(w, mstr(m, e->atom));
		break;
	case EAttr:
		wfmt(w, e->quoted ? "@\"%s\"" : "@%s", mstr(m, e->atom));
		break;
	case EFunc:
		if (e->quoted) {
			wexpr(w, m, e->a);
			wfmt(w, "@%s", mstr(m, e->atom));
		} else {
			wfmt(w, "%s@(", mstr(m, e->atom));
			wexpr(w, m, e->a);
			wstr(w, ")");
		}
		break;
	case ESub:
	case EAdd:
		wstr(w, "(");
		wexpr(w, m, e->a);
		wstr(w, e->kind == ESub ? " - " : " + ");
		wexpr(w, m, e->b);
		wstr(w, ")");
		break;
	default:
		wstr(w, "?");
		break;
	}
}

static int
isdata(const char *d)
{
	return !strcmp(d, ".byte") || !strcmp(d, ".short") || !strcmp(d, ".word") || !strcmp(d, ".dword")
	       || !strcmp(d, ".string");
}

static void
wargs(W *w, const Module *m, const Item *it, const char *d)
{
	const char *sep = isdata(d) || (!strcmp(d, ".size") && it->narg == 3) ? ", " : ",";

	for (uint32_t k = 0; k < it->narg; k++) {
		if (k)
			wstr(w, sep);
		wexpr(w, m, it->arg[k]);
	}
}

/* one item; first says whether only .section* directives precede it in its section */
static void
witem(W *w, const Module *m, const Section *s, const Item *it, int first)
{
	const char *d = mstr(m, it->name);

	switch (it->kind) {
	case ILabel:
		wfmt(w, "%s:\n", d);
		return;
	case INvinfo:
		wfmt(w, "\n\n\t//----- nvinfo : %s\n", d);
		return;
	case IDir:
		break;
	default:
		return;
	}
	if (it->off >= 0 && s->kind != SecText) {
		wfmt(w, "        /*%04x*/ \t%s\t", (unsigned)it->off, d);
	} else if (!strcmp(d, ".section") || !strncmp(d, ".section", 8) || !strcmp(d, ".tkinfo")
	           || (!strcmp(d, ".align") && first)) {
		wfmt(w, "\t%s%s", d, it->narg ? "\t" : "");
	} else if (s->kind == SecText && (!strcmp(d, ".global") || !strcmp(d, ".weak")
	           || !strcmp(d, ".type") || !strcmp(d, ".size") || !strcmp(d, ".other"))) {
		wfmt(w, "        %-16s", d);
	} else {
		wfmt(w, "\t%s\t\t", d);
	}
	wargs(w, m, it, d);
	wstr(w, "\n");
}

/* ---- instructions ------------------------------------------------------------------------- */

/* the text of every printed instruction, formatted once: the column of the encodings depends on
 * the longest one */
typedef struct Texts {
	char *buf;         /* all texts, NUL-separated */
	size_t len;        /* bytes used */
	size_t cap;        /* bytes allocated */
	uint32_t *off;     /* per instruction (in print order): offset of its text */
	uint32_t n;        /* instructions */
	uint32_t cn;       /* allocated */
	uint32_t next;     /* next one to print */
	int width;         /* longest text without its guard */
} Texts;

static int
guardlen(const Ins *i, const char *t)
{
	const char *sp;

	if (!i->guarded || !(sp = strchr(t, ' ')))
		return 0;
	return (int)(sp - t) + 1;
}

static void
texts_fn(Texts *T, const Fn *f, int ssa)
{
	if (!T->buf) {     /* never offset a null pointer, even by 0 */
		T->cap = 4096;
		T->buf = xmalloc(T->cap);
	}
	vgrow(&T->off, &T->cn, T->n + f->nins + 1, sizeof *T->off);
	for (uint32_t k = 0; k < f->nins; k++) {
		const Ins *i = &f->ins[k];
		int n;
		for (;;) {
			size_t room = T->cap - T->len;
			n = fmt_ins(T->buf + T->len, room, f, i, ssa);
			if ((size_t)n < room)
				break;
			T->cap = T->cap * 2 + (size_t)n + 4096;
			T->buf = xrealloc(T->buf, T->cap);
		}
		T->off[T->n++] = (uint32_t)T->len;
		if (i->nenc && n - guardlen(i, T->buf + T->len) > T->width)
			T->width = n - guardlen(i, T->buf + T->len);
		T->len += (size_t)n + 1;
		if (T->cap - T->len < 1024) {     /* room for the next one, usually */
			T->cap = T->cap * 2;
			T->buf = xrealloc(T->buf, T->cap);
		}
	}
}

/* the 16 hex digits of v at p, most significant first */
static void
hex16(char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (int h = 0; h < 2; h++) {
		/* nibble j of the half into byte 7 - j, then each to its digit (SWAR) */
		uint64_t t = (uint32_t)(h ? v : v >> 32);
		t = (t | t << 16) & 0x0000ffff0000ffffull;
		t = (t | t << 8) & 0x00ff00ff00ff00ffull;
		t = (t | t << 4) & 0x0f0f0f0f0f0f0f0full;
		t = __builtin_bswap64(t);
		t += 0x3030303030303030ull + (((t + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull) * 0x27;
		memcpy(p + 8 * h, &t, 8);
	}
#else
	for (int k = 15; k >= 0; k--, v >>= 4)
		p[k] = "0123456789abcdef"[v & 15];
#endif
}

/* an encoding comment and a newline at p; returns the end */
static char *
penc(char *p, uint64_t e)
{
	memcpy(p, "/* 0x", 5);
	hex16(p + 5, e);
	memcpy(p + 21, " */\n", 4);
	return p + 25;
}

static char *
pspaces(char *p, int n)
{
	if (n > 0) {
		memset(p, ' ', (size_t)n);
		p += n;
	}
	return p;
}

/* the start of an instruction line at p: the offset comment (at least 4 hex digits) and the
 * blanks up to the guard, which is g bytes; returns the end (at most 47 bytes on) */
static char *
phead(char *p, uint64_t addr, int g)
{
	char a[16];
	int n = 4;

	while (n < 16 && (addr >> (4 * n)))
		n++;
	hex16(a, addr);
	memcpy(p, "        /*", 10);
	memcpy(p + 10, a + 16 - n, (size_t)n);
	memcpy(p + 10 + n, "*/", 2);
	return pspaces(p + 12 + n, OpCol - 16 - g > 1 ? OpCol - 16 - g : 1);
}

/* one instruction line (and the second encoding line), written straight into the buffer */
static void
wins(W *w, Texts *T, const Ins *i, uint32_t k)
{
	uint32_t at = T->off[T->next], end = T->next + 1 < T->n ? T->off[T->next + 1] : (uint32_t)T->len;
	uint32_t len = end - at - 1;
	const char *t = T->buf + at;
	int g = guardlen(i, t), pad = T->width + 2 - ((int)len - g);
	size_t need = 64 + len + (size_t)(pad > 0 ? pad : 0) + 25 + OpCol + (size_t)T->width + 27;
	char b[64], *p;

	T->next++;
	if (need > sizeof w->buf) {       /* longer than the buffer (IR text): in pieces */
		wput(w, b, (size_t)(phead(b, 16 * (uint64_t)k, g) - b));
		wput(w, t, len);
		if (i->nenc) {
			wspaces(w, pad);
			wput(w, b, (size_t)(penc(b, i->enc[0]) - b));
		} else {
			wstr(w, "\n");
		}
		if (i->nenc > 1) {
			wspaces(w, OpCol + T->width + 2);
			wput(w, b, (size_t)(penc(b, enc_emit_word(i, 1)) - b));
		}
		return;
	}
	if (w->n + need > sizeof w->buf)
		wflush(w);
	p = phead(w->buf + w->n, 16 * (uint64_t)k, g);
	memcpy(p, t, len);
	p += len;
	if (i->nenc)
		p = penc(pspaces(p, pad), i->enc[0]);
	else
		*p++ = '\n';
	if (i->nenc > 1)
		p = penc(pspaces(p, OpCol + T->width + 2), enc_emit_word(i, 1));
	w->n = (size_t)(p - w->buf);
}

static void
wphi(W *w, const Fn *f, const Blk *b, const Phi *p)
{
	char r[16];

	reg_name(p->reg, r, sizeof r);
	wspaces(w, OpCol);
	wfmt(w, "%s<%u> = phi(", r, p->to < f->nval ? f->val[p->to].ver : 0);
	for (uint32_t k = 0; k < p->narg; k++)
		wfmt(w, "%sbb%u: %s<%u>", k ? ", " : "", k < b->npred ? b->pred[k]->id : 0, r,
		     p->arg[k] < f->nval ? f->val[p->arg[k]].ver : 0);
	wstr(w, ") ;\n");
}

static void
wblock(W *w, const Fn *f, const Blk *b)
{
	wfmt(w, "// bb%u:", b->id);
	if (b->npred) {
		wstr(w, " preds");
		for (uint32_t k = 0; k < b->npred; k++)
			wfmt(w, " bb%u", b->pred[k]->id);
	} else {
		wstr(w, b->id == 0 ? " entry" : " no preds");
	}
	if (b->rpo == UINT32_MAX)
		wstr(w, " (unreachable)");
	wstr(w, "\n");
	if (f->in_ssa)
		for (const Phi *p = b->phi; p; p = p->link)
			wphi(w, f, b, p);
}

/* a label line */
static void
wlabel(W *w, const Module *m, uint32_t a)
{
	wput(w, atomstr(m->atoms, a), atomlen(m->atoms, a));
	wput(w, ":\n", 2);
}

static void
wlabels(W *w, const Fn *f, uint32_t k, int labels)
{
	if (!labels)
		return;
	if (k < f->nins && f->ins[k].label)
		wlabel(w, f->mod, f->ins[k].label);
	if (!(k < f->nins && (f->ins[k].flags & IExtraLabel)))
		return;
	for (uint32_t j = 0; j < f->nxlabel; j++)
		if (f->xlabel[2 * j] == k)
			wlabel(w, f->mod, f->xlabel[2 * j + 1]);
}

/* the code of f, with the items found between instructions (in order of Item.off); ir adds
 * the block comments and phis; cuobjdump listings have no labels */
static void
wcode(W *w, Texts *T, const Fn *f, int ir, int labels)
{
	const Section *s = f->text;
	const Module *m = f->mod;
	uint32_t it = 0, b = 0, nit = s ? s->nitem : 0;

	for (uint32_t k = 0; k <= f->nins; k++) {
		for (; it < nit; it++) {
			int32_t off = s->item[it].off;
			if (off < 0 || s->item[it].kind >= HidItem || off < (int32_t)k)
				continue;
			if (off > (int32_t)k)
				break;
			witem(w, m, s, &s->item[it], 0);
		}
		if (k == f->nins)
			break;
		wlabels(w, f, k, labels);
		for (; ir && b < f->nblk && (uint32_t)(f->blk[b]->ins - f->ins) <= k; b++)
			wblock(w, f, f->blk[b]);
		wins(w, T, &f->ins[k], k);
	}
	if (f->endlabel && labels)
		wfmt(w, "%s:\n", mstr(m, f->endlabel));
}

/* ---- modules ------------------------------------------------------------------------------ */

static void
wsection_header(W *w, const Module *m, const Section *s)
{
	if (s->kind == SecSymbols)
		wstr(w, "\n\n//--------------------- SYMBOLS --------------------------\n\n");
	else
		wfmt(w, "\n\n//--------------------- %-25s --------------------------\n", mstr(m, s->name));
}

static void
wsection(W *w, Texts *T, const Module *m, const Section *s, int ir)
{
	int first = 1;

	wsection_header(w, m, s);
	for (uint32_t k = 0; k < s->nitem; k++) {
		const Item *it = &s->item[k];
		const char *d = mstr(m, it->name);
		if (it->kind >= HidItem || (s->kind == SecText && it->off >= 0))
			continue;
		witem(w, m, s, it, first);
		if (!(it->kind == IDir && !strncmp(d, ".section", 8)))
			first = 0;
	}
	if (s->kind == SecText && s->fn)
		wcode(w, T, s->fn, ir, 1);
	if (!strcmp(mstr(m, s->name), ".note.nv.tkinfo"))
		wstr(w, "\n");     /* as nvdisasm does */
}

static int
wanted(const Fn *f, const char *only)
{
	return !only || strcmp(mstr(f->mod, f->name), only) == 0;
}

void
print_module(FILE *out, Module *m, int mode, const char *only_fn)
{
	W *w = xmalloc(sizeof *w);
	Texts T;
	int ir = mode == PrintIr;

	memset(&T, 0, sizeof T);
	w->f = out;
	for (uint32_t k = 0; k < m->nfn; k++)
		if (wanted(m->fn[k], only_fn))
			texts_fn(&T, m->fn[k], ir);
	if (ir)
		wstr(w, "// fiber IR\n");
	if (m->format == FmtCuobjdump) {
		wfmt(w, "\n\tcode for %s\n", mstr(m, m->cuobj_arch));
		if (m->target)
			wfmt(w, "\t.target\t%s\n", mstr(m, m->target));
		wstr(w, "\n");
		for (uint32_t k = 0; k < m->nfn; k++) {
			Fn *f = m->fn[k];
			if (!wanted(f, only_fn))
				continue;
			wfmt(w, "\t\tFunction : %s\n", mstr(m, f->name));
			if (m->headerflags)
				wfmt(w, "\t.headerflags\t%s\n", mstr(m, m->headerflags));
			wcode(w, &T, f, ir, 0);
			wstr(w, "\t\t..........\n\n\n");
		}
	} else {
		if (m->target)
			wfmt(w, "\t.target\t%s\n", mstr(m, m->target));
		if (m->headerflags)
			wfmt(w, "\t.headerflags\t%s\n", mstr(m, m->headerflags));
		if (m->elftype)
			wfmt(w, "\n\t.elftype\t%s\n", mstr(m, m->elftype));
		for (uint32_t k = 0; k < m->nsec; k++) {
			const Section *s = m->sec[k];
			if (only_fn && !(s->kind == SecText && s->fn && wanted(s->fn, only_fn)))
				continue;
			wsection(w, &T, m, s, ir);
		}
	}
	wflush(w);
	free(w);
	free(T.buf);
	free(T.off);
}

void
print_fn(FILE *out, Fn *f, int mode)
{
	W *w = xmalloc(sizeof *w);
	Texts T;

	memset(&T, 0, sizeof T);
	w->f = out;
	texts_fn(&T, f, mode == PrintIr);
	if (f->mod->format == FmtCuobjdump)
		wfmt(w, "\t\tFunction : %s\n", mstr(f->mod, f->name));
	else if (f->text)
		wsection(w, &T, f->mod, f->text, mode == PrintIr);
	if (f->mod->format == FmtCuobjdump || !f->text)
		wcode(w, &T, f, mode == PrintIr, f->mod->format != FmtCuobjdump);
	wflush(w);
	free(w);
	free(T.buf);
	free(T.off);
}
