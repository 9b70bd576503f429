/* json.c: a recursive-descent JSON reader (RFC 8259) into a JVal tree (json.h). Strict: no
 * trailing commas, comments or bare words; nesting is bounded so a hostile file cannot overflow
 * the stack. Errors name the line and column.
 */
#include "json.h"
#include "rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MaxNest = 256 };

typedef struct JReader {
	const char *start, *p, *end;
	char *err;
	size_t errn;
	int failed;
} JReader;

static void
jfail(JReader *r, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	int k;
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	for (const char *q = r->start; q < r->p; q++, col++)
		if (*q == '\n') {
			line++;
			col = 0;
		}
	k = snprintf(r->err, r->errn, "line %u, column %u: ", line, col);
	if (k < 0 || (size_t)k >= r->errn)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + k, r->errn - (size_t)k, fmt, ap);
	va_end(ap);
}

static void
jws(JReader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n'))
		r->p++;
}

static int
hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int k = 0; k < 4; k++) {
		char c = p[k];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
		           : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		           : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d == 16)
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

static void
put_utf8(char *o, size_t *n, unsigned c)
{
	if (c < 0x80) {
		o[(*n)++] = (char)c;
	} else if (c < 0x800) {
		o[(*n)++] = (char)(0xc0 | c >> 6);
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		o[(*n)++] = (char)(0xe0 | c >> 12);
		o[(*n)++] = (char)(0x80 | (c >> 6 & 0x3f));
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	} else {
		o[(*n)++] = (char)(0xf0 | c >> 18);
		o[(*n)++] = (char)(0x80 | (c >> 12 & 0x3f));
		o[(*n)++] = (char)(0x80 | (c >> 6 & 0x3f));
		o[(*n)++] = (char)(0x80 | (c & 0x3f));
	}
}

/* a string at r->p (the opening quote); its bytes, malloc'd, or NULL */
static char *
jstring(JReader *r)
{
	const char *q = r->p + 1;
	size_t cap, n = 0;
	char *o;

	while (q < r->end && *q != '"')
		q += *q == '\\' && q + 1 < r->end ? 2 : 1;
	if (q >= r->end) {
		jfail(r, "unterminated string");
		return NULL;
	}
	cap = (size_t)(q - r->p) + 1;
	o = xmalloc(cap);
	for (q = r->p + 1; *q != '"'; q++) {
		unsigned c = (unsigned char)*q;
		if (c < 0x20) {
			r->p = q;
			jfail(r, "control character in a string");
			free(o);
			return NULL;
		}
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		switch (*++q) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u':
			if (r->end - q < 5 || hex4(q + 1, &c) < 0) {
				r->p = q;
				jfail(r, "bad \\u escape");
				free(o);
				return NULL;
			}
			q += 4;
			if (c >= 0xd800 && c < 0xdc00 && r->end - q >= 7 && q[1] == '\\' && q[2] == 'u') {
				unsigned lo;
				if (hex4(q + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
					q += 6;
				}
			}
			put_utf8(o, &n, c);   /* 6 escaped bytes give at most 4 */
			break;
		default:
			r->p = q;
			jfail(r, "bad escape '\\%c'", *q);
			free(o);
			return NULL;
		}
	}
	o[n] = 0;
	r->p = q + 1;
	return o;
}

static int jvalue(JReader *r, JVal *v, int depth);

static JVal *
jpush(JVal *v, size_t *cap)
{
	if (v->n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		v->kid = xrealloc(v->kid, *cap * sizeof *v->kid);
	}
	memset(&v->kid[v->n], 0, sizeof *v->kid);
	return &v->kid[v->n++];
}

static int
jcontainer(JReader *r, JVal *v, int depth)
{
	char close = *r->p == '{' ? '}' : ']';
	size_t cap = 0;

	v->type = close == '}' ? JObj : JArr;
	if (depth >= MaxNest) {
		jfail(r, "nested more than %d deep", MaxNest);
		return -1;
	}
	r->p++;
	jws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		JVal *e = jpush(v, &cap);
		jws(r);
		if (v->type == JObj) {
			if (r->p >= r->end || *r->p != '"') {
				jfail(r, "expected a member name");
				return -1;
			}
			if (!(e->key = jstring(r)))
				return -1;
			jws(r);
			if (r->p >= r->end || *r->p != ':') {
				jfail(r, "expected ':' after the member name");
				return -1;
			}
			r->p++;
		}
		if (jvalue(r, e, depth + 1) < 0)
			return -1;
		jws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 0;
		}
		jfail(r, "expected ',' or '%c'", close);
		return -1;
	}
}

static int
jnumber(JReader *r, JVal *v)
{
	const char *q = r->p;
	char buf[64];

	if (q < r->end && *q == '-')
		q++;
	if (q >= r->end || *q < '0' || *q > '9') {
		jfail(r, "expected a value");
		return -1;
	}
	while (q < r->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
	                      *q == '+' || *q == '-'))
		q++;
	if ((size_t)(q - r->p) >= sizeof buf) {
		jfail(r, "number too long");
		return -1;
	}
	memcpy(buf, r->p, (size_t)(q - r->p));
	buf[q - r->p] = 0;
	{
		char *e;
		v->num = strtod(buf, &e);
		if (*e) {
			jfail(r, "bad number '%s'", buf);
			return -1;
		}
	}
	v->type = JNum;
	r->p = q;
	return 0;
}

static int
jword(JReader *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return 0;
	r->p += n;
	return 1;
}

static int
jvalue(JReader *r, JVal *v, int depth)
{
	jws(r);
	if (r->p >= r->end) {
		jfail(r, "unexpected end of the text");
		return -1;
	}
	switch (*r->p) {
	case '{':
	case '[':
		return jcontainer(r, v, depth);
	case '"':
		v->type = JStr;
		return (v->str = jstring(r)) ? 0 : -1;
	case 't':
	case 'f':
	case 'n':
		if (jword(r, "true") || jword(r, "false")) {
			v->type = JBool;
			v->num = r->p[-1] == 'e' && r->p[-2] == 'u';
			return 0;
		}
		if (jword(r, "null")) {
			v->type = JNull;
			return 0;
		}
		jfail(r, "expected a value");
		return -1;
	default:
		return jnumber(r, v);
	}
}

static void
jclear(JVal *v)
{
	for (size_t k = 0; k < v->n; k++)
		jclear(&v->kid[k]);
	free(v->kid);
	free(v->key);
	free(v->str);
}

void
json_free(JVal *v)
{
	if (!v)
		return;
	jclear(v);
	free(v);
}

JVal *
json_parse(const char *text, size_t len, char *err, size_t errn)
{
	JReader r = {text, text, text + len, err, errn, 0};
	JVal *v = xmalloc(sizeof *v);

	memset(v, 0, sizeof *v);
	if (errn)
		err[0] = 0;
	if (jvalue(&r, v, 0) == 0) {
		jws(&r);
		if (r.p < r.end)
			jfail(&r, "text after the JSON value");
	}
	if (r.failed) {
		json_free(v);
		return NULL;
	}
	return v;
}

const JVal *
json_get(const JVal *obj, const char *key)
{
	if (!obj || obj->type != JObj)
		return NULL;
	for (size_t k = 0; k < obj->n; k++)
		if (strcmp(obj->kid[k].key, key) == 0)
			return &obj->kid[k];
	return NULL;
}

const JVal *
json_path(const JVal *obj, const char *path)
{
	char part[128];

	while (obj && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		obj = json_get(obj, part);
		path += n + (path[n] == '.');
	}
	return obj;
}

double
json_num(const JVal *v, double dflt)
{
	return v && v->type == JNum ? v->num : dflt;
}

const char *
json_str(const JVal *v)
{
	return v && v->type == JStr ? v->str : NULL;
}
