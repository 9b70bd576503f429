/* annotate.c: the CPI stack by instruction beside the SASS (fibersim annotate STATS.json
 * FILE.sass), as Nsight Compute's source view shows it: for each instruction of the launch's
 * kernel, its warp instructions issued, the sub-partition cycles charged to warps waiting at it,
 * their share of all such cycles and the largest reason; then the hottest instructions. The
 * listing is nvdisasm's or cuobjdump's (an instruction line starts with its address in a
 * comment); the kernel is the .text.NAME section or the "Function : NAME" block. A listing whose
 * instructions are not those the statistics were made from is refused.
 */
#include "json.h"
#include "outputs.h"
#include "rt.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct PcStat {
	uint32_t pc;               /* byte address */
	const char *op;            /* opcode in the statistics */
	double issued, stall;
	double stalls[NCpi];
	const char *line;          /* the listing's instruction text, NULL not seen */
	size_t len;
} PcStat;

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
reason_of(const char *key)
{
	for (int r = 0; r < NCpi; r++)
		if (strcmp(cpi_name[r], key) == 0)
			return r;
	return -1;
}

/* line [p, e): an instruction line (address comment, text, encoding comment)? its address, text */
static int
instruction_line(const char *p, const char *e, uint32_t *addr, const char **text, size_t *len)
{
	const char *q;
	uint32_t a = 0;
	int digits = 0;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 5 || p[0] != '/' || p[1] != '*')
		return 0;
	for (q = p + 2; q < e && *q != '*'; q++) {
		int d = *q >= '0' && *q <= '9' ? *q - '0' : *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
		      : *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;
		if (d < 0 || ++digits > 8)
			return 0;
		a = a << 4 | (uint32_t)d;
	}
	if (!digits || e - q < 2 || q[1] != '/')
		return 0;
	for (q += 2; q < e && (*q == ' ' || *q == '\t'); q++)
		;
	if (q >= e || *q == '.' || *q == '/')
		return 0;                  /* a directive (.byte) or an encoding word */
	*addr = a;
	*text = q;
	{
		const char *semi = memchr(q, ';', (size_t)(e - q));
		const char *end = semi ? semi + 1 : e;
		while (end > q && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		*len = (size_t)(end - q);
	}
	return 1;
}

/* the opcode of an instruction's text: after a guard "@!P0 ", up to '.', ' ' or ';' */
static size_t
opcode(const char *t, size_t len, const char **op)
{
	size_t k = 0, m = 0;

	if (len && t[0] == '@') {
		while (k < len && t[k] != ' ' && t[k] != '\t')
			k++;
		while (k < len && (t[k] == ' ' || t[k] == '\t'))
			k++;
	}
	*op = t + k;
	while (k + m < len && t[k + m] != '.' && t[k + m] != ' ' && t[k + m] != '\t' && t[k + m] != ';')
		m++;
	return m;
}

/* is line [p, e) the start of kernel name's code: ".section .text.NAME," or "Function : NAME"? */
static int
starts_kernel(const char *p, const char *e, const char *name)
{
	size_t n = strlen(name);
	const char *q;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(e - p) > 8 && memcmp(p, ".section", 8) == 0) {
		for (q = p + 8; q < e && (*q == ' ' || *q == '\t'); q++)
			;
		return (size_t)(e - q) > 6 + n && memcmp(q, ".text.", 6) == 0 &&
		       memcmp(q + 6, name, n) == 0 && (q[6 + n] == ',' || q[6 + n] == ' ' ||
		                                       q[6 + n] == '\t' || q + 6 + n == e);
	}
	if ((size_t)(e - p) > 8 && memcmp(p, "Function", 8) == 0) {
		for (q = p + 8; q < e && (*q == ' ' || *q == '\t' || *q == ':'); q++)
			;
		while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		return (size_t)(e - q) == n && memcmp(q, name, n) == 0;
	}
	return 0;
}

static int
ends_kernel(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return ((size_t)(e - p) > 8 && memcmp(p, ".section", 8) == 0 && (p[8] == ' ' || p[8] == '\t')) ||
	       ((size_t)(e - p) > 8 && memcmp(p, "Function", 8) == 0);
}

static PcStat *
find_pc(PcStat *s, size_t n, uint32_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s[mid].pc == pc)
			return &s[mid];
		if (s[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int
top_reason(const PcStat *s)
{
	int best = -1;

	for (int r = 0; r < NCpi; r++)
		if (r != CpiIssue && s->stalls[r] > 0 && (best < 0 || s->stalls[r] > s->stalls[best]))
			best = r;
	return best;
}

/* the columns of one instruction */
static void
columns(FILE *out, const PcStat *s, double total)
{
	int r;

	if (!s) {
		fprintf(out, "%9s %10s %6s  %-28s", "", "", "", "");
		return;
	}
	r = top_reason(s);
	fprintf(out, "%9.0f %10.0f %5.1f%%  ", s->issued, s->stall, total ? 100 * s->stall / total : 0);
	if (r >= 0) {
		char buf[64];
		snprintf(buf, sizeof buf, "%s %.0f%%", cpi_name[r], 100 * s->stalls[r] / s->stall);
		fprintf(out, "%-28s", buf);
	} else {
		fprintf(out, "%-28s", "");
	}
}

static int
by_stall(const void *a, const void *b)
{
	const PcStat *x = *(const PcStat *const *)a, *y = *(const PcStat *const *)b;

	if (x->stall != y->stall)
		return x->stall > y->stall ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* the statistics of the chosen launch: its instructions in address order */
static const JVal *
pick_launch(const JVal *doc, long launch, long *index, char *err, size_t n)
{
	const JVal *ks = json_get(doc, "kernels");
	long found = -1, ntimed = 0;

	if (!ks || ks->type != JArr || !json_get(doc, "version")) {
		fail(err, n, "not a fibersim statistics file (no \"version\" and \"kernels\")");
		return NULL;
	}
	if (launch >= 0) {
		if ((size_t)launch >= ks->n) {
			fail(err, n, "--launch %ld: the file has %zu launches (0..%zu)", launch, ks->n,
			     ks->n ? ks->n - 1 : 0);
			return NULL;
		}
		found = launch;
	} else {
		for (size_t k = 0; k < ks->n; k++)
			if (json_get(&ks->kid[k], "instructions")) {
				found = (long)k;
				ntimed++;
			}
		if (ntimed > 1) {
			fail(err, n, "the file has %ld timed launches: choose one with --launch K", ntimed);
			return NULL;
		}
	}
	if (found < 0 || !json_get(&ks->kid[found], "instructions")) {
		fail(err, n, found < 0 ? "no timed launch with per-instruction statistics (a functional "
		                         "run, or statistics from an older fibersim)"
		                       : "launch %ld has no per-instruction statistics (not timed)", found);
		return NULL;
	}
	*index = found;
	return &ks->kid[found];
}

int
out_annotate(const char *stats, size_t slen, const char *sass, size_t len, const char *sname,
             long launch, unsigned top, FILE *out, char *err, size_t n)
{
	char perr[256];
	JVal *doc;
	const JVal *k, *ins;
	const char *name, *p, *end = sass + len;
	PcStat *st = NULL, **order = NULL;
	size_t ns = 0, nseen = 0;
	double total = 0, issued = 0;
	long index = 0;
	int in_kernel = 0, found = 0, rc = -1;
	unsigned line = 0;

	if (!(doc = json_parse(stats, slen, perr, sizeof perr)))
		return fail(err, n, "not JSON: %s", perr);
	if (!(k = pick_launch(doc, launch, &index, err, n)))
		goto done;
	name = json_str(json_get(k, "name"));
	ins = json_get(k, "instructions");
	if (!name || !ins || ins->type != JArr) {
		fail(err, n, "launch %ld has no kernel name or no instructions", index);
		goto done;
	}
	st = xmalloc((ins->n + 1) * sizeof *st);
	for (size_t j = 0; j < ins->n; j++) {
		const JVal *e = &ins->kid[j], *sv = json_get(e, "stalls");
		PcStat *s = &st[ns++];
		double pc = json_num(json_get(e, "pc"), -1);
		if (pc < 0 || pc > UINT32_MAX || (ns > 1 && (uint32_t)pc <= st[ns - 2].pc)) {
			fail(err, n, "launch %ld: instruction %zu has no address, or they are not in "
			     "address order", index, j);
			goto done;
		}
		s->pc = (uint32_t)pc;
		s->op = json_str(json_get(e, "op"));
		s->issued = json_num(json_get(e, "issued"), 0);
		for (size_t r = 0; sv && r < sv->n; r++) {
			int rr = reason_of(sv->kid[r].key);
			if (rr > 0) {
				s->stalls[rr] += json_num(&sv->kid[r], 0);
				s->stall += json_num(&sv->kid[r], 0);
			}
		}
		total += s->stall;
		issued += s->issued;
	}

	/* first pass: the kernel's instructions, checked against the statistics */
	for (int pass = 0; pass < 2; pass++) {
		in_kernel = 0;
		line = 0;
		if (pass == 1) {
			fprintf(out, "%s: launch %ld, %s, %.0f cycles, %.0f warp instructions issued, %.0f "
			        "stall cycles\n", name, index,
			        json_str(json_get(k, "config")) ? json_str(json_get(k, "config")) : "?",
			        json_num(json_get(k, "cycles"), 0), issued, total);
			fprintf(out, "%9s %10s %6s  %-28s  %s\n", "issued", "stall", "share", "top reason",
			        "instruction");
		}
		for (p = sass; p < end;) {
			const char *e = memchr(p, '\n', (size_t)(end - p)), *text;
			uint32_t addr;
			size_t tl;
			e = e ? e : end;
			line++;
			if (starts_kernel(p, e, name)) {
				in_kernel = found = 1;
			} else if (in_kernel && ends_kernel(p, e)) {
				in_kernel = 0;
			} else if (in_kernel && instruction_line(p, e, &addr, &text, &tl)) {
				PcStat *s = find_pc(st, ns, addr);
				if (pass == 0 && s) {
					const char *op;
					size_t ol = opcode(text, tl, &op);
					if (s->op && (strlen(s->op) != ol || memcmp(s->op, op, ol) != 0)) {
						fail(err, n, "%s:%u: the listing has %.*s at /*%04x*/ where the statistics "
						     "have %s: not the listing the run was made from", sname, line,
						     (int)ol, op, addr, s->op);
						goto done;
					}
					if (!s->line)
						nseen++;
					s->line = text;
					s->len = tl;
				}
				if (pass == 1) {
					columns(out, s, total);
					fprintf(out, "  /*%04x*/ %.*s\n", addr, (int)tl, text);
				}
			} else if (in_kernel && pass == 1) {
				/* labels: a word and a colon */
				const char *q = p, *qe = e;
				while (q < qe && (*q == ' ' || *q == '\t'))
					q++;
				while (qe > q && (qe[-1] == ' ' || qe[-1] == '\t' || qe[-1] == '\r'))
					qe--;
				if (qe > q && qe[-1] == ':' && !memchr(q, ' ', (size_t)(qe - q)) &&
				    !memchr(q, '\t', (size_t)(qe - q)))
					fprintf(out, "%9s %10s %6s  %-28s  %.*s\n", "", "", "", "", (int)(qe - q), q);
			}
			p = e < end ? e + 1 : end;
		}
		if (pass == 0 && !found) {
			fail(err, n, "%s has no kernel '%s' (no '.section .text.%s' or 'Function : %s')",
			     sname, name, name, name);
			goto done;
		}
		if (pass == 0 && nseen < ns) {
			for (size_t j = 0; j < ns; j++)
				if (!st[j].line) {
					fail(err, n, "%s: kernel '%s' has no instruction at /*%04x*/ (%s in the "
					     "statistics): not the listing the run was made from", sname, name,
					     st[j].pc, st[j].op ? st[j].op : "?");
					goto done;
				}
		}
	}
	if (top && ns) {
		order = xmalloc(ns * sizeof *order);
		for (size_t j = 0; j < ns; j++)
			order[j] = &st[j];
		qsort(order, ns, sizeof *order, by_stall);
		fprintf(out, "\nhottest instructions by stall cycles:\n");
		for (size_t j = 0; j < ns && j < top && order[j]->stall > 0; j++) {
			columns(out, order[j], total);
			fprintf(out, "  /*%04x*/ %.*s\n", order[j]->pc, (int)order[j]->len, order[j]->line);
		}
	}
	rc = 0;
done:
	free(order);
	free(st);
	json_free(doc);
	return rc;
}
