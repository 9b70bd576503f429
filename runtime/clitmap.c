/* clitmap.c: fibersim's --arg tmap:TYPE,DIMS,BOX[,KEY=VALUE]... (a CUtensorMap parameter): TYPE
 * an element type, DIMS and BOX the global and box sizes innermost first (64x32), and the keys
 * buf=PATH (its own buffer holds the file; default: zeros of the tensor's extent), of=N (argument
 * N's buffer instead), strides=, estrides=, swizzle=, interleave=, l2=, oob=, offset=
 * (docs/sim.md "Tensor maps"). fibersim encodes it with fiberTensorMapEncodeTiled once the
 * buffers exist, which applies cuTensorMapEncodeTiled's rules.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
fail(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* an unsigned number in [s, e), at most max: decimal, or 0x hex where hex is allowed (not in
 * lists, whose separator is x) */
static int
num(const char *s, const char *e, uint64_t max, uint64_t *v, int hex)
{
	uint64_t x = 0;
	unsigned base = 10, dgt;

	if (hex && e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == e || e - s > 20)
		return -1;
	for (; s < e; s++) {
		if (*s >= '0' && *s <= '9')
			dgt = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (x > (max - dgt) / base)
			return -1;
		x = x * base + dgt;
	}
	*v = x;
	return 0;
}

/* decimal N0xN1x... in [s, e): up to 5 numbers each at most max; their count, -1 if malformed */
static int
list(const char *s, const char *e, uint64_t max, uint64_t out[5])
{
	int k = 0;

	for (;;) {
		const char *x = s;
		while (x < e && *x != 'x')
			x++;
		if (k == 5 || num(s, x, max, &out[k], 0) < 0)
			return -1;
		k++;
		if (x == e)
			return k;
		s = x + 1;
	}
}

static int
word(const char *s, const char *e, const char *const *names, int n)
{
	for (int k = 0; k < n; k++)
		if (names[k] && strlen(names[k]) == (size_t)(e - s) && !strncmp(s, names[k], (size_t)(e - s)))
			return k;
	return -1;
}

int
cli_parse_tmap(const char *spec, const char *v, CliTmap *t, char *err, size_t n)
{
	static const char *const types[] = { "u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32",
	                                     "f64", "bf16", "f32ftz", "tf32", "tf32ftz" };
	static const char *const sw[] = { "none", "32", "64", "128" }, *const il[] = { "none", "16", "32" };
	static const char *const l2[] = { "none", "64", "128", "256" }, *const oob[] = { "zero", "nan" };
	const char *p = v;
	uint64_t x[5];
	int field = 0, nbox = 0, nstr = -1, nes = -1;

	memset(t, 0, sizeof *t);
	t->of = CliOwn;
	for (unsigned d = 0; d < 5; d++)
		t->estride[d] = 1;
	while (*p || field < 3) {
		const char *e = field >= 3 && !strncmp(p, "buf=", 4) ? p + strlen(p) : p + strcspn(p, ",");
		const char *eq = memchr(p, '=', (size_t)(e - p));
		int k;
		if (field == 0) {
			if ((k = word(p, e, types, 13)) < 0)
				return fail(err, n, "bad --arg '%.200s': tmap: element type '%.*s' is not u8, "
				            "u16, u32, s32, u64, s64, f16, f32, f64, bf16, f32ftz, tf32 or tf32ftz",
				            spec, (int)(e - p > 16 ? 16 : e - p), p);
			t->type = k;
		} else if (field == 1) {
			if ((k = list(p, e, 1ull << 32, t->dim)) < 0)
				return fail(err, n, "bad --arg '%.200s': tmap: sizes must be 1 to 5 numbers joined "
				            "by x (64x32), innermost first", spec);
			t->rank = (unsigned)k;
		} else if (field == 2) {
			if ((nbox = list(p, e, 256, x)) < 0)
				return fail(err, n, "bad --arg '%.200s': tmap: the box must be 1 to 5 numbers up "
				            "to 256 joined by x", spec);
			for (int d = 0; d < nbox; d++)
				t->box[d] = (uint32_t)x[d];
		} else if (!eq) {
			return fail(err, n, "bad --arg '%.200s': tmap: expected KEY=VALUE after the box "
			            "(buf, of, strides, estrides, swizzle, interleave, l2, oob, offset)", spec);
		} else if (!strncmp(p, "buf=", 4) && e > eq + 1 && !*e) {
			t->path = eq + 1;
		} else if (!strncmp(p, "of=", 3) && num(eq + 1, e, 8191, x, 0) == 0) {
			t->of = (unsigned)x[0];
		} else if (!strncmp(p, "strides=", 8)) {
			if ((nstr = list(eq + 1, e, (1ull << 40) - 1, x)) < 0 || nstr > 4)
				return fail(err, n, "bad --arg '%.200s': tmap: strides= takes up to 4 byte "
				            "strides joined by x", spec);
			memcpy(t->stride, x, (size_t)nstr * sizeof *x);
		} else if (!strncmp(p, "estrides=", 9)) {
			if ((nes = list(eq + 1, e, 8, x)) < 0)
				return fail(err, n, "bad --arg '%.200s': tmap: estrides= takes element strides "
				            "1 to 8 joined by x", spec);
			for (int d = 0; d < nes; d++)
				t->estride[d] = (uint32_t)x[d];
		} else if (!strncmp(p, "swizzle=", 8) && (k = word(eq + 1, e, sw, 4)) >= 0) {
			t->swizzle = k;
		} else if (!strncmp(p, "interleave=", 11) && (k = word(eq + 1, e, il, 3)) >= 0) {
			t->interleave = k;
		} else if (!strncmp(p, "l2=", 3) && (k = word(eq + 1, e, l2, 4)) >= 0) {
			t->l2 = k;
		} else if (!strncmp(p, "oob=", 4) && (k = word(eq + 1, e, oob, 2)) >= 0) {
			t->oob = k;
		} else if (!strncmp(p, "offset=", 7) && num(eq + 1, e, UINT32_MAX, x, 1) == 0) {
			t->offset = x[0];
		} else {
			return fail(err, n, "bad --arg '%.200s': tmap: bad '%.*s' (buf=PATH last, of=N, "
			            "strides=S1xS2.., "
			            "estrides=E0xE1.., swizzle=none|32|64|128, interleave=none|16|32, "
			            "l2=none|64|128|256, oob=zero|nan, offset=BYTES)", spec,
			            (int)(e - p > 40 ? 40 : e - p), p);
		}
		field++;
		if (!*e && field < 3)
			return fail(err, n, "bad --arg '%.200s': tmap:TYPE,DIMS,BOX[,KEY=VALUE]...", spec);
		p = *e ? e + 1 : e;
		if (!*e)
			break;
	}
	if (t->path && t->of != CliOwn)
		return fail(err, n, "bad --arg '%.200s': tmap: buf= and of= exclude each other", spec);
	if (nbox != (int)t->rank || (nes >= 0 && nes != (int)t->rank) ||
	    (nstr >= 0 && nstr != (int)t->rank - 1))
		return fail(err, n, "bad --arg '%.200s': tmap: the box, estrides= and strides= need %u, "
		            "%u and %u numbers for %u dimensions", spec, t->rank, t->rank, t->rank - 1,
		            t->rank);
	if (nstr < 0) {             /* dense: each dimension right after the one inside it */
		uint64_t es = t->type == 0 ? 1 : t->type == 1 || t->type == 6 || t->type == 9 ? 2 :
		              t->type == 4 || t->type == 5 || t->type == 8 ? 8 : 4, s = es;
		for (unsigned d = 1; d < t->rank; d++) {
			s *= t->dim[d - 1];
			t->stride[d - 1] = s;
		}
	}
	return 0;
}
