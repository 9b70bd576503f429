/* sweepout.c: a sweep's results: each point's record (NAME.rec) and statistics (NAME.json, every
 * scalar flattened to a dotted key, "kernels.0.cpi_stack.issue"; the per-SM and per-instruction
 * arrays stay in the point's own file) read back, then DIR/results.csv (one row per point: its
 * name, workload, config, axes, status, then the union of the statistics' keys in the order
 * first seen) and DIR/results.json, each written through a temporary file and renamed. A record
 * of another command (the spec changed since) counts as missing.
 */
#define _POSIX_C_SOURCE 200809L
#include "json.h"
#include "outfile.h"
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *
xrealloc(void *p, size_t n)
{
	if (!(p = realloc(p, n ? n : 1)))
		abort();
	return p;
}

static char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap)
			b = xrealloc(b, cap = 2 * cap + 4096);
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	b[n] = 0;
	*len = n;
	return b;
}

/* the shortest text that reads back as v */
static void
fmt_num(char *buf, size_t n, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
		return;
	}
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void
add_stat(SwResult *r, const char *key, const JVal *v)
{
	char num[64];
	SwStat *s;

	if (r->nst % 256 == 0)
		r->st = xrealloc(r->st, (r->nst + 256) * sizeof *r->st);
	s = &r->st[r->nst++];
	s->key = xstrdup(key);
	s->is_num = v->type == JNum;
	s->num = v->type == JNum || v->type == JBool ? v->num : 0;
	if (v->type == JNum) {
		fmt_num(num, sizeof num, v->num);
		s->val = xstrdup(num);
	} else if (v->type == JBool)
		s->val = xstrdup(v->num ? "true" : "false");
	else if (v->type == JStr)
		s->val = xstrdup(v->str);
	else
		s->val = xstrdup("");
}

static void
flatten(SwResult *r, const char *prefix, const JVal *v)
{
	char key[512];

	if (v->type != JObj && v->type != JArr) {
		add_stat(r, prefix, v);
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		const JVal *k = &v->kid[i];
		if (v->type == JObj && (strcmp(k->key, "per_sm") == 0 || strcmp(k->key, "instructions") == 0))
			continue;             /* detail: in the point's own statistics file */
		if (v->type == JObj)
			snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", k->key);
		else
			snprintf(key, sizeof key, "%s%s%zu", prefix, *prefix ? "." : "", i);
		flatten(r, key, k);
	}
}

int
sw_load_results(const Spec *s, const char *dir, SwResult *res)
{
	char err[256];

	for (size_t i = 0; i < s->npt; i++) {
		SwResult *r = &res[i];
		const char *nm = s->pt[i].name;
		char *rec = sw_point_path(dir, nm, "rec"), *st = sw_point_path(dir, nm, "json");
		char *text;
		size_t len;

		memset(r, 0, sizeof *r);
		if ((text = slurp(rec, &len))) {
			JVal *v = json_parse(text, len, err, sizeof err);
			const char *e;
			char *cmd = spec_command(&s->pt[i]);
			const char *was = json_str(json_get(v, "command"));
			if (v && was && strcmp(was, cmd) == 0) {   /* else a stale record: missing */
				r->exit = (int)json_num(json_get(v, "exit"), -1);
				r->status = r->exit == 0 ? SwOk : SwFailed;
				r->seconds = json_num(json_get(v, "seconds"), 0);
				if ((e = json_str(json_get(v, "error"))))
					r->error = xstrdup(e);
				if ((e = json_str(json_get(v, "host"))))
					r->host = xstrdup(e);
			}
			free(cmd);
			json_free(v);
			free(text);
		}
		if (r->status != SwMissing && (text = slurp(st, &len))) {
			JVal *v = json_parse(text, len, err, sizeof err);
			if (v)
				flatten(r, "", v);
			json_free(v);
			free(text);
		}
		free(rec);
		free(st);
	}
	return 0;
}

void
sw_free_results(SwResult *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < r[i].nst; k++) {
			free(r[i].st[k].key);
			free(r[i].st[k].val);
		}
		free(r[i].st);
		free(r[i].error);
		free(r[i].host);
	}
}

const SwStat *
sw_stat(const SwResult *r, const char *key)
{
	for (size_t k = 0; k < r->nst; k++)
		if (strcmp(r->st[k].key, key) == 0)
			return &r->st[k];
	return NULL;
}

double
sw_cycles(const SwResult *r)
{
	const SwStat *c = r->status == SwOk ? sw_stat(r, "cycles") : NULL;
	return c && c->is_num ? c->num : NAN;
}

/* --- the union of the keys, in the order first seen ------------------------------------------ */

typedef struct Keys {
	const char **k;            /* the keys in order */
	size_t n;                  /* how many */
	const char **slot;         /* a hash table of them, open addressing */
	size_t cap;                /* its slots, a power of two */
} Keys;

static size_t
hash(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
keys_add(Keys *ks, const char *key)
{
	if (2 * (ks->n + 1) > ks->cap) {
		size_t cap = ks->cap ? 2 * ks->cap : 1024;
		free(ks->slot);
		ks->slot = xrealloc(NULL, cap * sizeof *ks->slot);
		memset(ks->slot, 0, cap * sizeof *ks->slot);
		ks->cap = cap;
		for (size_t i = 0; i < ks->n; i++) {
			size_t h = hash(ks->k[i]) & (cap - 1);
			while (ks->slot[h])
				h = (h + 1) & (cap - 1);
			ks->slot[h] = ks->k[i];
		}
	}
	size_t h = hash(key) & (ks->cap - 1);
	while (ks->slot[h]) {
		if (strcmp(ks->slot[h], key) == 0)
			return;
		h = (h + 1) & (ks->cap - 1);
	}
	ks->slot[h] = key;
	if (ks->n % 256 == 0)
		ks->k = xrealloc(ks->k, (ks->n + 256) * sizeof *ks->k);
	ks->k[ks->n++] = key;
}

/* --- writers --------------------------------------------------------------------------------- */

static void
csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* s as a JSON string (NULL: ""); used by sweeprun.c's records too */
void
sw_put_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *const status_name[] = {"missing", "ok", "failed"};

/* the point's baseline and speedup: two CSV fields, or JSON members */
static void
baseline(FILE *f, const Spec *s, const SwResult *r, size_t i, int json)
{
	long b = sw_baseline_of(s, i);
	const char *name = b >= 0 ? s->pt[b].name : s->pt[i].name;
	double v = sw_speedup(s, r, i);
	char num[64] = "";

	if (!isnan(v))
		fmt_num(num, sizeof num, v);
	if (!json) {
		csv_field(f, isnan(v) && b < 0 ? "" : name);
		fprintf(f, ",%s", num);
		return;
	}
	fputs(", \"baseline\": ", f);
	if (isnan(v) && b < 0)
		fputs("null", f);
	else
		sw_put_json_str(f, name);
	fprintf(f, ", \"speedup\": %s", *num ? num : "null");
}

static void
write_csv(FILE *f, const Spec *s, const SwResult *r, const Keys *ks)
{
	char num[64];

	fputs("name,workload,config", f);
	for (size_t a = 0; a < s->nax; a++) {
		fputc(',', f);
		csv_field(f, s->ax[a].name);
	}
	fputs(",status,exit,seconds,host,error,baseline,speedup", f);
	for (size_t k = 0; k < ks->n; k++) {
		fputc(',', f);
		csv_field(f, ks->k[k]);
	}
	fputc('\n', f);
	for (size_t i = 0; i < s->npt; i++) {
		const SwPoint *p = &s->pt[i];
		csv_field(f, p->name);
		fputc(',', f);
		csv_field(f, s->wl[p->workload].name);
		fputc(',', f);
		csv_field(f, s->cfg[p->config].name);
		for (size_t a = 0; a < s->nax; a++) {
			fputc(',', f);
			csv_field(f, p->aval[a]);
		}
		fprintf(f, ",%s,", status_name[r[i].status]);
		if (r[i].status != SwMissing) {
			fmt_num(num, sizeof num, r[i].seconds);
			fprintf(f, "%d,%s,", r[i].exit, num);
			csv_field(f, r[i].host ? r[i].host : "");
		} else
			fputs(",,", f);
		fputc(',', f);
		csv_field(f, r[i].error ? r[i].error : "");
		fputc(',', f);
		baseline(f, s, r, i, 0);
		for (size_t k = 0; k < ks->n; k++) {
			const SwStat *v = sw_stat(&r[i], ks->k[k]);
			fputc(',', f);
			if (v)
				csv_field(f, v->val);
		}
		fputc('\n', f);
	}
}

static void
write_json(FILE *f, const Spec *s, const SwResult *r)
{
	char num[64];

	fputs("{\n  \"sweep\": ", f);
	sw_put_json_str(f, s->title);
	fputs(",\n  \"spec\": ", f);
	sw_put_json_str(f, s->path);
	fputs(",\n  \"baseline\": ", f);
	if (s->baseline)
		sw_put_json_str(f, s->baseline);
	else
		sw_put_json_str(f, s->cfg[0].name);
	fputs(",\n  \"points\": [", f);
	for (size_t i = 0; i < s->npt; i++) {
		const SwPoint *p = &s->pt[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		sw_put_json_str(f, p->name);
		fputs(", \"workload\": ", f);
		sw_put_json_str(f, s->wl[p->workload].name);
		fputs(", \"config\": ", f);
		sw_put_json_str(f, s->cfg[p->config].name);
		fputs(", \"params\": {", f);
		for (size_t a = 0; a < s->nax; a++) {
			fputs(a ? ", " : "", f);
			sw_put_json_str(f, s->ax[a].name);
			fputs(": ", f);
			sw_put_json_str(f, p->aval[a]);
		}
		fprintf(f, "}, \"status\": \"%s\"", status_name[r[i].status]);
		if (r[i].status != SwMissing) {
			fmt_num(num, sizeof num, r[i].seconds);
			fprintf(f, ", \"exit\": %d, \"seconds\": %s, \"host\": ", r[i].exit, num);
			sw_put_json_str(f, r[i].host);
		}
		baseline(f, s, r, i, 1);
		fputs(", \"error\": ", f);
		if (r[i].error)
			sw_put_json_str(f, r[i].error);
		else
			fputs("null", f);
		fputs(",\n     \"stats\": {", f);
		for (size_t k = 0; k < r[i].nst; k++) {
			const SwStat *v = &r[i].st[k];
			fputs(k ? ", " : "", f);
			sw_put_json_str(f, v->key);
			fputs(": ", f);
			if (v->is_num && isfinite(v->num))
				fputs(v->val, f);
			else if (v->is_num || !*v->val)
				fputs("null", f);
			else if (strcmp(v->val, "true") == 0 || strcmp(v->val, "false") == 0)
				fputs(v->val, f);
			else
				sw_put_json_str(f, v->val);
		}
		fputs("}}", f);
	}
	fputs("\n  ]\n}\n", f);
}

int
sw_write_tables(const Spec *s, const char *dir, const SwResult *r, char *err, size_t n)
{
	Keys ks = {0};
	size_t len = strlen(dir) + 32;
	char *path = xrealloc(NULL, len);
	OutFile o;
	int rc = 0;

	for (size_t i = 0; i < s->npt; i++)
		for (size_t k = 0; k < r[i].nst; k++)
			keys_add(&ks, r[i].st[k].key);
	for (int which = 0; which < 2 && rc == 0; which++) {
		snprintf(path, len, "%s/results.%s", dir, which ? "json" : "csv");
		if (outfile_open(&o, path) < 0) {
			rc = -1;
			break;
		}
		if (which)
			write_json(o.fp, s, r);
		else
			write_csv(o.fp, s, r, &ks);
		rc = outfile_commit(&o);
	}
	if (rc < 0)
		snprintf(err, n, "%s: %s", path, strerror(errno));
	free(path);
	free(ks.k);
	free(ks.slot);
	return rc;
}
