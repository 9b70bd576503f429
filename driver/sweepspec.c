/* sweepspec.c: the reader of sweep spec files (docs/sweep.md): lines of words (quotes, comments,
 * a backslash to continue a line), the directives sweep, baseline, program, workload, config,
 * param, set and point, then the points: the listed ones or the cross product of workloads,
 * configurations and axes, each with its name and its fibersim run command line (${NAME}
 * substituted). Every error is located ("FILE:LINE:COL: error: ..."); the reader never exits
 * and allocates nothing that spec_free does not free.
 */
#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	const char *name;          /* the file, for diagnostics */
	Spec *s;                   /* what is read into */
	char *err;                 /* diagnostics, one a line */
	size_t errn, errlen;       /* err's size and the length written */
	int nerr;                  /* diagnostics so far (more than are written) */
} Reader;

static void
diag(Reader *r, int line, int col, const char *fmt, ...)
{
	va_list ap;
	int w;

	r->nerr++;
	if (r->nerr > SwMaxErrors || r->errlen + 1 >= r->errn)
		return;
	w = snprintf(r->err + r->errlen, r->errn - r->errlen, "%s:%d:%d: error: ", r->name, line, col);
	if (w < 0 || (size_t)w >= r->errn - r->errlen) {
		r->errlen = r->errn - 1;
		return;
	}
	r->errlen += (size_t)w;
	va_start(ap, fmt);
	w = vsnprintf(r->err + r->errlen, r->errn - r->errlen, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= r->errn - r->errlen - 1) {
		r->errlen = r->errn - 1;
		return;
	}
	r->errlen += (size_t)w;
	r->err[r->errlen++] = '\n';
	r->err[r->errlen] = 0;
}

static void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fputs("fibersim: out of memory\n", stderr);
		abort();
	}
	return q;
}

static char *
xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

/* --- words ----------------------------------------------------------------------------------- */

typedef struct Words {
	SwWord *w;                 /* the words of one logical line */
	size_t n, cap;             /* used and allocated */
} Words;

static void
words_free(Words *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		free(ws->w[i].text);
	free(ws->w);
	memset(ws, 0, sizeof *ws);
}

/* split the logical line starting at text[*pos] (physical line *line) into words; a backslash
 * before the newline continues it. Returns 0, or -1 after a diagnostic (the line is skipped). */
static int
split_line(Reader *r, const char *t, size_t len, size_t *pos, int *line, Words *ws)
{
	size_t i = *pos, bol = *pos;
	int bad = 0;

	for (size_t k = 0; k < ws->n; k++)
		free(ws->w[k].text);
	ws->n = 0;
	for (;;) {
		while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r'))
			i++;
		if (i >= len || t[i] == '\n' || t[i] == '#')
			break;
		if (t[i] == '\\' && (i + 1 >= len || t[i + 1] == '\n' ||
		                     (t[i + 1] == '\r' && i + 2 < len && t[i + 2] == '\n'))) {
			i += i + 1 >= len ? 1 : t[i + 1] == '\r' ? 3 : 2;
			(*line)++;
			bol = i;
			continue;
		}
		int col = (int)(i - bol) + 1, wline = *line;
		char *buf = xrealloc(NULL, 16);
		size_t bn = 0, bcap = 16;
		int quoted = 0;
		while (i < len && t[i] != '\n' && (quoted || (t[i] != ' ' && t[i] != '\t' && t[i] != '\r'))) {
			char c = t[i];
			if (c == '"') {
				quoted = !quoted;
				i++;
				continue;
			}
			if (quoted && c == '\\' && i + 1 < len && (t[i + 1] == '"' || t[i + 1] == '\\'))
				c = t[++i];
			else if (c == 0 || (unsigned char)c < 0x20) {
				if (!bad)
					diag(r, *line, (int)(i - bol) + 1, "control character 0x%02x in the spec",
					     (unsigned char)c);
				bad = 1;
			}
			if (bn + 2 > bcap)
				buf = xrealloc(buf, bcap *= 2);
			buf[bn++] = c;
			i++;
		}
		buf[bn] = 0;
		if (quoted && !bad) {
			diag(r, wline, col, "unterminated quote");
			bad = 1;
		}
		if (ws->n == ws->cap)
			ws->w = xrealloc(ws->w, (ws->cap = ws->cap ? 2 * ws->cap : 16) * sizeof *ws->w);
		ws->w[ws->n++] = (SwWord){buf, wline, col};
		if (ws->n > SwMaxWords && !bad) {
			diag(r, wline, col, "more than %d words in one line", SwMaxWords);
			bad = 1;
		}
	}
	while (i < len && t[i] != '\n')
		i++;
	if (i < len)
		i++;
	(*line)++;
	*pos = i;
	return bad ? -1 : 0;
}

/* --- names and substitutions ----------------------------------------------------------------- */

/* a name of a workload, configuration or point: it becomes a file name */
static int
good_name(const char *s)
{
	if (!*s || *s == '.' || *s == '-' || strlen(s) > 200)
		return 0;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
		      strchr("_.+-=,", *s)))
			return 0;
	return 1;
}

/* an identifier: a ${NAME}, a param, a configuration variable or key */
static int
good_ident(const char *s, size_t n)
{
	if (n == 0 || n > 100 || ('0' <= s[0] && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(('a' <= s[i] && s[i] <= 'z') || ('A' <= s[i] && s[i] <= 'Z') ||
		      ('0' <= s[i] && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* every ${...} of w is well formed; 0, or -1 after a diagnostic */
static int
check_refs(Reader *r, const SwWord *w)
{
	for (const char *p = w->text; (p = strstr(p, "${")); p += 2) {
		const char *e = strchr(p, '}');
		if (!e || !good_ident(p + 2, (size_t)(e - p - 2))) {
			diag(r, w->line, w->col + (int)(p - w->text),
			     "'${' must start a reference ${NAME} (letters, digits, '_')");
			return -1;
		}
	}
	return 0;
}

/* --- directives ------------------------------------------------------------------------------ */

static int
dup_line(const SwLine *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return l[i].line;
	return 0;
}

/* `workload NAME [VAR=VALUE]... FILE ARG...` or `config NAME [VAR=VALUE]... ARG...` */
static void
read_line(Reader *r, Words *ws, int is_cfg)
{
	const char *what = is_cfg ? "config" : "workload";
	SwLine **tab = is_cfg ? &r->s->cfg : &r->s->wl;
	size_t *n = is_cfg ? &r->s->ncfg : &r->s->nwl, k = 2;
	int prev;

	if (ws->n < 2 || (!is_cfg && ws->n < 3)) {
		diag(r, ws->w[0].line, ws->w[0].col, is_cfg ? "usage: config NAME [VAR=VALUE]... [ARG]..."
		     : "usage: workload NAME [VAR=VALUE]... FILE [ARG]...");
		return;
	}
	if (!good_name(ws->w[1].text)) {
		diag(r, ws->w[1].line, ws->w[1].col, "bad %s name '%s' (letters, digits, '_', '.', '+', "
		     "'-', '=', ','; it is part of file names)", what, ws->w[1].text);
		return;
	}
	if ((prev = dup_line(*tab, *n, ws->w[1].text))) {
		diag(r, ws->w[1].line, ws->w[1].col, "%s '%s' is already defined at line %d", what,
		     ws->w[1].text, prev);
		return;
	}
	*tab = xrealloc(*tab, (*n + 1) * sizeof **tab);
	SwLine *l = &(*tab)[(*n)++];
	memset(l, 0, sizeof *l);
	l->name = ws->w[1].text;
	ws->w[1].text = NULL;
	l->line = ws->w[0].line;
	while (k < ws->n && ws->w[k].text[0] != '-') {
		const char *t = ws->w[k].text, *eq = strchr(t, '=');
		if ((!eq || !good_ident(t, (size_t)(eq - t))) && !is_cfg)
			break;                /* the workload's FILE */
		if (!eq || !good_ident(t, (size_t)(eq - t))) {
			diag(r, ws->w[k].line, ws->w[k].col, "a configuration variable is VAR=VALUE before "
			     "the options (which start with '-'): '%s'", t);
			return;
		}
		if (check_refs(r, &ws->w[k]) < 0)
			return;
		l->var = xrealloc(l->var, (l->nvar + 1) * sizeof *l->var);
		l->val = xrealloc(l->val, (l->nvar + 1) * sizeof *l->val);
		l->var[l->nvar] = xstrndup(t, (size_t)(eq - t));
		l->val[l->nvar++] = xstrndup(eq + 1, strlen(eq + 1));
		k++;
	}
	if (!is_cfg && k == ws->n) {
		diag(r, ws->w[0].line, ws->w[0].col, "usage: workload NAME [VAR=VALUE]... FILE [ARG]...");
		return;
	}
	l->w = xrealloc(NULL, (ws->n - k + 1) * sizeof *l->w);
	for (; k < ws->n; k++) {
		if (check_refs(r, &ws->w[k]) < 0)
			return;
		if (strcmp(ws->w[k].text, "--stats") == 0 || strncmp(ws->w[k].text, "--stats=", 8) == 0 ||
		    strcmp(ws->w[k].text, "--functional") == 0) {
			diag(r, ws->w[k].line, ws->w[k].col, "'%s' is the sweep's own: each point's "
			     "statistics go to DIR/points/NAME.json, timed", ws->w[k].text);
			return;
		}
		l->w[l->n++] = ws->w[k];
		ws->w[k].text = NULL;
	}
}

/* `param NAME VALUE...` or `set KEY VALUE...` */
static void
read_axis(Reader *r, Words *ws, int is_set)
{
	Spec *s = r->s;

	if (ws->n < 3) {
		diag(r, ws->w[0].line, ws->w[0].col, "usage: %s", is_set ? "set KEY VALUE..."
		     : "param NAME VALUE...");
		return;
	}
	if (!good_ident(ws->w[1].text, strlen(ws->w[1].text)) || strcmp(ws->w[1].text, "workload") == 0 ||
	    strcmp(ws->w[1].text, "config") == 0 || strcmp(ws->w[1].text, "point") == 0) {
		diag(r, ws->w[1].line, ws->w[1].col, "bad %s name '%s' (letters, digits, '_'; not "
		     "workload, config or point)", is_set ? "key" : "param", ws->w[1].text);
		return;
	}
	for (size_t i = 0; i < s->nax; i++)
		if (strcmp(s->ax[i].name, ws->w[1].text) == 0) {
			diag(r, ws->w[1].line, ws->w[1].col, "axis '%s' is already defined at line %d",
			     ws->w[1].text, s->ax[i].line);
			return;
		}
	for (size_t k = 2; k < ws->n; k++)
		for (size_t j = 2; j < k; j++)
			if (strcmp(ws->w[j].text, ws->w[k].text) == 0) {
				diag(r, ws->w[k].line, ws->w[k].col, "value '%s' listed twice", ws->w[k].text);
				return;
			}
	s->ax = xrealloc(s->ax, (s->nax + 1) * sizeof *s->ax);
	SwAxis *a = &s->ax[s->nax++];
	a->name = ws->w[1].text;
	ws->w[1].text = NULL;
	a->is_set = is_set;
	a->line = ws->w[0].line;
	a->n = ws->n - 2;
	a->val = xrealloc(NULL, a->n * sizeof *a->val);
	for (size_t k = 2; k < ws->n; k++) {
		a->val[k - 2] = ws->w[k].text;
		ws->w[k].text = NULL;
	}
}

/* the `point` lines are kept as words until every axis is known */
typedef struct Listed {
	Words *lines;              /* each point line's words */
	size_t n;                  /* how many */
} Listed;

static void
read_once(Reader *r, Words *ws, char **dst, const char *what)
{
	if (ws->n != 2) {
		diag(r, ws->w[0].line, ws->w[0].col, "usage: %s NAME", what);
		return;
	}
	if (*dst) {
		diag(r, ws->w[0].line, ws->w[0].col, "a second '%s' line", what);
		return;
	}
	*dst = ws->w[1].text;
	ws->w[1].text = NULL;
}

/* `program WORD...`: the command each point runs in place of `fibersim run` (once) */
static void
read_program(Reader *r, Words *ws)
{
	Spec *s = r->s;

	if (ws->n < 2) {
		diag(r, ws->w[0].line, ws->w[0].col, "usage: program PATH [ARG]...");
		return;
	}
	if (s->nprog) {
		diag(r, ws->w[0].line, ws->w[0].col, "a second 'program' line");
		return;
	}
	s->prog = xrealloc(NULL, (ws->n - 1) * sizeof *s->prog);
	for (size_t k = 1; k < ws->n; k++) {
		s->prog[s->nprog++] = ws->w[k].text;
		ws->w[k].text = NULL;
	}
}

static void
read_directive(Reader *r, Words *ws, Listed *pl)
{
	const char *d = ws->w[0].text;

	if (strcmp(d, "sweep") == 0)
		read_once(r, ws, &r->s->title, "sweep");
	else if (strcmp(d, "baseline") == 0)
		read_once(r, ws, &r->s->baseline, "baseline");
	else if (strcmp(d, "program") == 0)
		read_program(r, ws);
	else if (strcmp(d, "workload") == 0)
		read_line(r, ws, 0);
	else if (strcmp(d, "config") == 0)
		read_line(r, ws, 1);
	else if (strcmp(d, "param") == 0)
		read_axis(r, ws, 0);
	else if (strcmp(d, "set") == 0)
		read_axis(r, ws, 1);
	else if (strcmp(d, "point") == 0) {
		pl->lines = xrealloc(pl->lines, (pl->n + 1) * sizeof *pl->lines);
		pl->lines[pl->n++] = *ws;
		memset(ws, 0, sizeof *ws);
	} else
		diag(r, ws->w[0].line, ws->w[0].col, "unknown directive '%s' (sweep, baseline, program, "
		     "workload, config, param, set, point)", d);
}

/* --- points ---------------------------------------------------------------------------------- */

typedef struct Buf {
	char *p;                   /* NUL-terminated text */
	size_t n, cap;             /* length and allocated bytes */
} Buf;

static void
buf_add(Buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap)
		b->p = xrealloc(b->p, b->cap = 2 * (b->n + n + 1));
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

/* the value of ${name} at point p, or NULL */
static const char *
lookup(const Spec *s, const SwPoint *p, const char *name, size_t n)
{
	const SwLine *c = &s->cfg[p->config], *w = &s->wl[p->workload];

	if (n == 8 && memcmp(name, "workload", 8) == 0)
		return s->wl[p->workload].name;
	if (n == 6 && memcmp(name, "config", 6) == 0)
		return c->name;
	if (n == 5 && memcmp(name, "point", 5) == 0)
		return p->name;
	for (size_t i = 0; i < s->nax; i++)
		if (strlen(s->ax[i].name) == n && memcmp(s->ax[i].name, name, n) == 0)
			return p->aval[i];
	for (size_t i = 0; i < c->nvar; i++)
		if (strlen(c->var[i]) == n && memcmp(c->var[i], name, n) == 0)
			return c->val[i];
	for (size_t i = 0; i < w->nvar; i++)
		if (strlen(w->var[i]) == n && memcmp(w->var[i], name, n) == 0)
			return w->val[i];
	return NULL;
}

enum { MaxDepth = 8 };          /* ${a} whose value names ${b} ...: deeper is a cycle */

/* text (from word w) with its references replaced, values' own references too, or NULL after
 * a diagnostic */
static char *
subst_text(Reader *r, const SwPoint *p, const SwWord *w, const char *text, int depth)
{
	Buf b = {0};
	const char *t = text, *q;

	buf_add(&b, "", 0);
	while ((q = strstr(t, "${"))) {
		const char *e = strchr(q, '}'), *v;
		char *x;
		buf_add(&b, t, (size_t)(q - t));
		v = e ? lookup(r->s, p, q + 2, (size_t)(e - q - 2)) : NULL;
		int col = w->col + (depth ? 0 : (int)(q - text));
		if (!v) {
			diag(r, w->line, col, "'%.*s' is not defined for point '%s' (a param, a set key, a "
			     "variable of config '%s' or workload '%s', workload, config or point)",
			     e ? (int)(e - q + 1) : 2, q, p->name, r->s->cfg[p->config].name,
			     r->s->wl[p->workload].name);
			free(b.p);
			return NULL;
		}
		if (depth >= MaxDepth) {
			diag(r, w->line, col, "'%.*s': references nest deeper than %d (a cycle?)",
			     (int)(e - q + 1), q, MaxDepth);
			free(b.p);
			return NULL;
		}
		if (!(x = subst_text(r, p, w, v, depth + 1))) {
			free(b.p);
			return NULL;
		}
		buf_add(&b, x, strlen(x));
		free(x);
		t = e + 1;
	}
	buf_add(&b, t, strlen(t));
	return b.p;
}

static char *
subst(Reader *r, const SwPoint *p, const SwWord *w)
{
	return subst_text(r, p, w, w->text, 0);
}

static void
add_arg(SwPoint *p, char *a)
{
	p->argv = xrealloc(p->argv, (p->argc + 1) * sizeof *p->argv);
	p->argv[p->argc++] = a;
}

/* the point's command line: the program's words (a `program` line), the workload's words, the
 * configuration's, then each set axis */
static int
build_argv(Reader *r, SwPoint *p)
{
	const SwLine *lines[2] = {&r->s->wl[p->workload], &r->s->cfg[p->config]};

	for (size_t i = 0; i < r->s->nprog; i++)
		add_arg(p, xstrndup(r->s->prog[i], strlen(r->s->prog[i])));
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < lines[k]->n; i++) {
			char *a = subst(r, p, &lines[k]->w[i]);
			if (!a)
				return -1;
			add_arg(p, a);
		}
	for (size_t i = 0; i < r->s->nax; i++) {
		const SwAxis *a = &r->s->ax[i];
		if (!a->is_set)
			continue;
		Buf b = {0};
		buf_add(&b, a->name, strlen(a->name));
		buf_add(&b, "=", 1);
		buf_add(&b, p->aval[i], strlen(p->aval[i]));
		add_arg(p, xstrndup("--set", 5));
		add_arg(p, b.p);
	}
	return 0;
}

static SwPoint *
new_point(Spec *s)
{
	if (s->npt % 64 == 0)
		s->pt = xrealloc(s->pt, (s->npt + 64) * sizeof *s->pt);
	SwPoint *p = &s->pt[s->npt++];
	memset(p, 0, sizeof *p);
	p->aval = xrealloc(NULL, (s->nax ? s->nax : 1) * sizeof *p->aval);
	for (size_t i = 0; i < s->nax; i++)
		p->aval[i] = s->ax[i].val[0];
	return p;
}

/* the name of a point of the cross product: WORKLOAD.CONFIG, then .AXIS=VALUE for each axis of
 * more than one value (characters a file name should not have become '_') */
static char *
cross_name(const Spec *s, const SwPoint *p)
{
	Buf b = {0};

	buf_add(&b, s->wl[p->workload].name, strlen(s->wl[p->workload].name));
	buf_add(&b, ".", 1);
	buf_add(&b, s->cfg[p->config].name, strlen(s->cfg[p->config].name));
	for (size_t i = 0; i < s->nax; i++) {
		if (s->ax[i].n < 2)
			continue;
		size_t at;
		buf_add(&b, ".", 1);
		buf_add(&b, s->ax[i].name, strlen(s->ax[i].name));
		buf_add(&b, "=", 1);
		at = b.n;
		buf_add(&b, p->aval[i], strlen(p->aval[i]));
		for (size_t k = at; k < b.n; k++)
			if (!strchr("_.+-=,", b.p[k]) && !('a' <= b.p[k] && b.p[k] <= 'z') &&
			    !('A' <= b.p[k] && b.p[k] <= 'Z') && !('0' <= b.p[k] && b.p[k] <= '9'))
				b.p[k] = '_';
	}
	return b.p;
}

static void
expand_cross(Reader *r)
{
	Spec *s = r->s;
	size_t total = s->nwl * s->ncfg;
	size_t *at = xrealloc(NULL, (s->nax + 1) * sizeof *at);

	for (size_t i = 0; i < s->nax; i++)
		total = total > SwMaxPoints ? total : total * s->ax[i].n;
	if (total > SwMaxPoints) {
		diag(r, 1, 1, "the cross product has more than %d points", SwMaxPoints);
		free(at);
		return;
	}
	for (size_t w = 0; w < s->nwl; w++)
		for (size_t c = 0; c < s->ncfg; c++) {
			memset(at, 0, (s->nax + 1) * sizeof *at);
			for (;;) {
				SwPoint *p = new_point(s);
				p->workload = w, p->config = c;
				for (size_t i = 0; i < s->nax; i++)
					p->aval[i] = s->ax[i].val[at[i]];
				p->name = cross_name(s, p);
				if (build_argv(r, p) < 0 || r->nerr > SwMaxErrors)
					goto out;
				size_t i = s->nax;
				while (i > 0 && ++at[i - 1] == s->ax[i - 1].n)
					at[--i] = 0;
				if (i == 0)
					break;
			}
		}
out:
	free(at);
}

static long
index_of(const SwLine *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* `point NAME WORKLOAD CONFIG [AXIS=VALUE]...` */
static void
expand_listed(Reader *r, const Words *ws)
{
	Spec *s = r->s;
	long w, c;

	if (ws->n < 4) {
		diag(r, ws->w[0].line, ws->w[0].col, "usage: point NAME WORKLOAD CONFIG [AXIS=VALUE]...");
		return;
	}
	if (!good_name(ws->w[1].text)) {
		diag(r, ws->w[1].line, ws->w[1].col, "bad point name '%s' (letters, digits, '_', '.', "
		     "'+', '-', '=', ','; it is part of file names)", ws->w[1].text);
		return;
	}
	if ((w = index_of(s->wl, s->nwl, ws->w[2].text)) < 0 ||
	    (c = index_of(s->cfg, s->ncfg, ws->w[3].text)) < 0) {
		int k = w < 0 ? 2 : 3;
		diag(r, ws->w[k].line, ws->w[k].col, "no %s named '%s'", k == 2 ? "workload" : "config",
		     ws->w[k].text);
		return;
	}
	SwPoint *p = new_point(s);
	p->name = xstrndup(ws->w[1].text, strlen(ws->w[1].text));
	p->workload = (size_t)w, p->config = (size_t)c;
	for (size_t k = 4; k < ws->n; k++) {
		const char *t = ws->w[k].text, *eq = strchr(t, '=');
		size_t i = 0;
		while (eq && i < s->nax && (strlen(s->ax[i].name) != (size_t)(eq - t) ||
		                            memcmp(s->ax[i].name, t, (size_t)(eq - t)) != 0))
			i++;
		if (!eq || i == s->nax) {
			diag(r, ws->w[k].line, ws->w[k].col, "'%s' is not AXIS=VALUE of a param or set "
			     "line", t);
			return;
		}
	}
	/* a value given on the line joins its axis (unless listed), so that the spec owns it */
	for (size_t k = 4, i; k < ws->n; k++) {
		const char *t = ws->w[k].text, *eq = strchr(t, '=');
		for (i = 0; i < s->nax; i++)
			if (strlen(s->ax[i].name) == (size_t)(eq - t) &&
			    memcmp(s->ax[i].name, t, (size_t)(eq - t)) == 0)
				break;
		size_t v = 0;
		while (v < s->ax[i].n && strcmp(s->ax[i].val[v], eq + 1) != 0)
			v++;
		if (v == s->ax[i].n) {
			s->ax[i].val = xrealloc(s->ax[i].val, (v + 1) * sizeof *s->ax[i].val);
			s->ax[i].val[s->ax[i].n++] = xstrndup(eq + 1, strlen(eq + 1));
		}
		p->aval[i] = s->ax[i].val[v];
	}
	build_argv(r, p);
}

static int
cmp_names(const void *a, const void *b)
{
	const SwPoint *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

/* two points of one name would share their files */
static void
check_unique(Reader *r)
{
	const SwPoint **v = xrealloc(NULL, r->s->npt * sizeof *v);

	for (size_t i = 0; i < r->s->npt; i++)
		v[i] = &r->s->pt[i];
	qsort(v, r->s->npt, sizeof *v, cmp_names);
	for (size_t i = 1; i < r->s->npt; i++)
		if (strcmp(v[i]->name, v[i - 1]->name) == 0) {
			diag(r, 1, 1, "two points are named '%s' (values that differ only in characters a "
			     "name cannot hold: name the points with `point` lines)", v[i]->name);
			break;
		}
	free(v);
}

static void
check_baseline(Reader *r, int line)
{
	const Spec *s = r->s;

	if (!s->baseline || index_of(s->cfg, s->ncfg, s->baseline) >= 0 || spec_find(s, s->baseline) >= 0)
		return;
	diag(r, line, 10, "baseline '%s' is neither a config nor a point", s->baseline);
}

int
spec_parse(const char *name, const char *text, size_t len, Spec *s, char *err, size_t n)
{
	Reader r = {name, s, err, n, 0, 0};
	Words ws = {0};
	Listed pl = {0};
	size_t pos = 0;
	int line = 1, bline = 0;

	memset(s, 0, sizeof *s);
	if (n)
		err[0] = 0;
	s->path = xstrndup(name, strlen(name));
	while (pos < len && r.nerr <= SwMaxErrors) {
		if (split_line(&r, text, len, &pos, &line, &ws) < 0 || ws.n == 0)
			continue;
		if (strcmp(ws.w[0].text, "baseline") == 0)
			bline = ws.w[0].line;
		read_directive(&r, &ws, &pl);
	}
	if (r.nerr == 0 && (s->nwl == 0 || s->ncfg == 0) && !pl.n)
		diag(&r, line > 1 ? line - 1 : 1, 1, "a sweep needs a workload line and a config line");
	if (r.nerr == 0) {
		s->listed = pl.n > 0;
		if (s->listed)
			for (size_t i = 0; i < pl.n && r.nerr == 0; i++)
				expand_listed(&r, &pl.lines[i]);
		else
			expand_cross(&r);
	}
	if (r.nerr == 0)
		check_unique(&r);
	if (r.nerr == 0)
		check_baseline(&r, bline);
	if (!s->title) {
		const char *b = strrchr(name, '/');
		s->title = xstrndup(b ? b + 1 : name, strlen(b ? b + 1 : name));
	}
	words_free(&ws);
	for (size_t i = 0; i < pl.n; i++)
		words_free(&pl.lines[i]);
	free(pl.lines);
	if (r.nerr > SwMaxErrors && r.errlen + 40 < r.errn)
		snprintf(r.err + r.errlen, r.errn - r.errlen, "%s: too many errors\n", name);
	if (r.nerr) {
		spec_free(s);
		return -1;
	}
	return 0;
}

static void
free_lines(SwLine *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].name);
		for (size_t k = 0; k < l[i].n; k++)
			free(l[i].w[k].text);
		free(l[i].w);
		for (size_t k = 0; k < l[i].nvar; k++) {
			free(l[i].var[k]);
			free(l[i].val[k]);
		}
		free(l[i].var);
		free(l[i].val);
	}
	free(l);
}

void
spec_free(Spec *s)
{
	free(s->path);
	free(s->title);
	free(s->baseline);
	free_lines(s->wl, s->nwl);
	free_lines(s->cfg, s->ncfg);
	for (size_t i = 0; i < s->npt; i++) {
		free(s->pt[i].name);
		free(s->pt[i].aval);
		for (size_t k = 0; k < s->pt[i].argc; k++)
			free(s->pt[i].argv[k]);
		free(s->pt[i].argv);
	}
	free(s->pt);
	for (size_t i = 0; i < s->nax; i++) {
		free(s->ax[i].name);
		for (size_t k = 0; k < s->ax[i].n; k++)
			free(s->ax[i].val[k]);
		free(s->ax[i].val);
	}
	free(s->ax);
	for (size_t i = 0; i < s->nprog; i++)
		free(s->prog[i]);
	free(s->prog);
	memset(s, 0, sizeof *s);
}

long
spec_find(const Spec *s, const char *name)
{
	for (size_t i = 0; i < s->npt; i++)
		if (strcmp(s->pt[i].name, name) == 0)
			return (long)i;
	return -1;
}

char *
spec_command(const SwPoint *p)
{
	Buf b = {0};

	buf_add(&b, "", 0);
	for (size_t i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];
		int plain = *a != 0;
		for (const char *c = a; *c; c++)
			if (!strchr("_.,+-=:/@%", *c) && !('a' <= *c && *c <= 'z') &&
			    !('A' <= *c && *c <= 'Z') && !('0' <= *c && *c <= '9'))
				plain = 0;
		if (i)
			buf_add(&b, " ", 1);
		if (plain) {
			buf_add(&b, a, strlen(a));
			continue;
		}
		buf_add(&b, "'", 1);
		for (const char *c = a; *c; c++)
			buf_add(&b, *c == '\'' ? "'\\''" : c, *c == '\'' ? 4 : 1);
		buf_add(&b, "'", 1);
	}
	return b.p;
}
