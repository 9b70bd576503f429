/* fastline.c: the common instruction line, read in one go. Most of a listing is lines such as
 * `LDG.E.128 R12, [R8.64] ;` between an offset and an encoding comment, then a line holding the
 * second encoding word. On such a line's offset comment the scanner (sass.l) calls fast_line,
 * which reads it and the instruction lines after it straight from the text and hands the parser
 * one INSLINE token for them all; at the start of any other line of a text section it calls
 * fast_bare, the same for lines without offset comments (the PTX lowering's SASS, %v12). It takes a subset of the grammar's instruction lines (guard,
 * opcode, comma-separated operands without IR annotations or |x|), and leaves any other line to
 * the grammar before doing anything with it. A line is cut into tokens, checked, then built with
 * the grammar's own actions in the grammar's order, so both paths build the same instructions and
 * report the same errors (tests/check_parse.c reads every bundled listing both ways).
 */
#include "parse.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
	MaxTok = 64,       /* tokens of a line read here; longer lines go to the grammar */
	TWord = 256,       /* name with suffixes: R2.reuse, SR_TID.X, gsb0 */
	THex,              /* 0x10 */
	TDec,              /* 105615 */
	TFloat,            /* 1.5, 5.96e-08 */
	TLab,              /* `(.L_x_1) */
};

typedef struct Tok Tok;

struct Tok {
	uint16_t kind;     /* a character ('@', '!', '-', '~', ',', '[', ']', '+', ';') or TWord.. */
	uint32_t off;      /* first byte */
	uint32_t len;      /* bytes */
	uint64_t v;        /* THex, TDec: the value */
};

typedef struct Fast Fast;

struct Fast {
	Ctx *cx;           /* the parse */
	Tok t[MaxTok + 2]; /* the tokens up to ';', then two of kind 0 */
	uint32_t n;        /* tokens */
	uint32_t k;        /* next token */
	int build;         /* 0: only check the structure, 1: call the actions */
};

/* hex digit value + 1, 0 for other bytes */
static const unsigned char hexd1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* byte classes: 1 a name's first character, 2 a name's other characters, 4 a digit */
static const unsigned char cls[256] = {
	['$'] = 3, ['_'] = 3,
	['0'] = 6, ['1'] = 6, ['2'] = 6, ['3'] = 6, ['4'] = 6, ['5'] = 6, ['6'] = 6, ['7'] = 6,
	['8'] = 6, ['9'] = 6,
	['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3, ['H'] = 3,
	['I'] = 3, ['J'] = 3, ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3, ['O'] = 3, ['P'] = 3,
	['Q'] = 3, ['R'] = 3, ['S'] = 3, ['T'] = 3, ['U'] = 3, ['V'] = 3, ['W'] = 3, ['X'] = 3,
	['Y'] = 3, ['Z'] = 3,
	['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3, ['e'] = 3, ['f'] = 3, ['g'] = 3, ['h'] = 3,
	['i'] = 3, ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3, ['o'] = 3, ['p'] = 3,
	['q'] = 3, ['r'] = 3, ['s'] = 3, ['t'] = 3, ['u'] = 3, ['v'] = 3, ['w'] = 3, ['x'] = 3,
	['y'] = 3, ['z'] = 3,
};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* eight hex digits at once (SWAR): the value, or -1 if a byte is not a hex digit */
static inline int64_t
hex8(const char *p)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t w, l, v, t;

	memcpy(&w, p, 8);
	if (w & 0x80 * ones)
		return -1;
	l = w | ((w & 0x40 * ones) >> 1);                /* letters to lower case */
	v = (l & 0x0f * ones) + ((l >> 6) & ones) * 9;    /* each byte's digit value, <= 24 */
	/* a hex digit is exactly the character its value spells */
	t = v + 0x30 * ones + (((v + 0x76 * ones) >> 7) & ones) * 0x27;
	if (t != l || (((v + 0x70 * ones) >> 7) & ones))
		return -1;
	/* the first character is the most significant digit */
	v = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffull;
	v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffull;
	return (int64_t)(((v << 16) | (v >> 32)) & 0xffffffffull);
}
#endif

size_t
enc_word(const char *p, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	if (end - p < 24 || memcmp(p, "/* 0x", 5) != 0 || memcmp(p + 21, " */", 3) != 0)
		return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		int64_t hi = hex8(p + 5), lo = hex8(p + 13);
		if (hi < 0 || lo < 0)
			return 0;
		x = (uint64_t)hi << 32 | (uint64_t)lo;
	}
#else
	for (int k = 5; k < 21; k++) {
		unsigned d = hexd1[(unsigned char)p[k]];
		if (!d)
			return 0;
		x = x << 4 | (d - 1);
	}
#endif
	*v = x;
	return 24;
}

/* past the blanks at p (nvdisasm pads its columns with runs of spaces: 16 or 8 at a time); the
 * text ends with a NUL at lim */
static inline const char *
blanks(const char *p, const char *lim)
{
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' ');

	while (p + 16 <= lim) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sp)) ^ 0xffffu;
		if (m) {
			p += __builtin_ctz(m);   /* the first byte that is not a space */
			break;
		}
		p += 16;
	}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;

	while (p + 8 <= lim) {
		memcpy(&w, p, 8);
		w ^= 0x2020202020202020ull;
		if (w) {
			p += __builtin_ctzll(w) >> 3;
			break;
		}
		p += 8;
	}
#endif
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* ---- tokens ---------------------------------------------------------------------------------- */

/* a virtual register's name from its '%' as the scanner's rule takes it, "%"{ID}("["[0-9]+"]")?
 * ("@"[0-9]+)? before its suffixes (%v12, %$x1[2], %x@1): the last byte of that part */
static const char *
vreg_head(const char *p)
{
	const char *q;

	for (p++; cls[(unsigned char)p[1]] & 2; p++)
		;
	if (p[1] == '[' && (cls[(unsigned char)p[2]] & 4)) {
		for (q = p + 2; cls[(unsigned char)*q] & 4; q++)
			;
		if (*q == ']')
			p = q;
	}
	if (p[1] == '@' && (cls[(unsigned char)p[2]] & 4))
		for (p += 2; cls[(unsigned char)p[1]] & 4; p++)
			;
	return p;
}

/* the tokens from p up to ';' (not beyond end); the byte after the ';', or NULL if the line is
 * not one for this path. Numbers and names end where the scanner would end them, or the line
 * is refused: `0x10g` would be two tokens there. */
static const char *
cut(Fast *F, const char *p, const char *end)
{
	const char *text = F->cx->text, *lim = text + F->cx->len;

	F->n = 0;
	for (;;) {
		const char *b;
		Tok *t;
		unsigned c;

		p = blanks(p, lim);
		if (p >= end || F->n == MaxTok)
			return NULL;
		b = p;
		c = (unsigned char)*p;
		t = &F->t[F->n++];
		t->v = 0;
		if ((cls[c] & 1) || (c == '%' && (cls[(unsigned char)p[1]] & 1))) {
			/* a name right after `]` or `@1` is a token of its own there */
			if (c == '%' && (cls[(unsigned char)(p = vreg_head(p))[1]] & 2))
				return NULL;
			do {
				while (cls[(unsigned char)*++p] & 2)
					;
			} while (*p == '.' && (cls[(unsigned char)p[1]] & 2));
			/* old( and friends, R7<3>, labels `k:`, `R2.` */
			if (*p == '(' || *p == '<' || *p == ':' || *p == '.')
				return NULL;
			t->kind = TWord;
		} else if (cls[c] & 4) {
			if (c == '0' && (p[1] == 'x' || p[1] == 'X') && hexd1[(unsigned char)p[2]]) {
				uint64_t v = 0;
				int nd = 0;
				for (p += 2; hexd1[(unsigned char)*p]; p++) {
					if (nd || *p != '0')
						nd++;
					v = v << 4 | (uint64_t)(hexd1[(unsigned char)*p] - 1);
				}
				if (nd > 16)
					return NULL;       /* too large: the scanner reports it */
				t->kind = THex;
				t->v = v;
			} else {
				uint64_t v = 0;
				int big = 0;
				for (; cls[(unsigned char)*p] & 4; p++) {
					unsigned d = (unsigned)(*p - '0');
					big |= v > (UINT64_MAX - d) / 10;
					v = v * 10 + d;
				}
				t->kind = TDec;
				if (*p == '.' && (cls[(unsigned char)p[1]] & 4)) {
					for (p++; cls[(unsigned char)*p] & 4; p++)
						;
					t->kind = TFloat;
				}
				if ((*p == 'e' || *p == 'E') && ((cls[(unsigned char)p[1]] & 4) ||
				    ((p[1] == '-' || p[1] == '+') && (cls[(unsigned char)p[2]] & 4)))) {
					for (p += 2; cls[(unsigned char)*p] & 4; p++)
						;
					t->kind = TFloat;
				}
				if (t->kind == TDec && big)
					return NULL;
				t->v = v;
			}
			if ((cls[(unsigned char)*p] & 2) || *p == '.')
				return NULL;
		} else if (c == '`' && p[1] == '(') {
			const char *q = p + 2;
			while (q < end && *q != ')' && *q != '\n')
				q++;
			if (q >= end || *q != ')' || q == p + 2)
				return NULL;
			p = q + 1;
			t->kind = TLab;
		} else {
			switch (c) {
			case '@': case '!': case '-': case '~': case ',': case '[': case ']': case '+':
			case ';':
				break;
			default:
				return NULL;
			}
			p++;
			t->kind = (uint16_t)c;
		}
		if (p > end)
			return NULL;
		t->off = (uint32_t)(b - text);
		t->len = (uint32_t)(p - b);
		if (c == ';') {
			F->t[F->n].kind = F->t[F->n + 1].kind = 0;
			return p;
		}
	}
}

/* ---- the grammar's instruction rules, on the tokens ----------------------------------------- */

/* the token ahead of the next one (0 or 1); kind 0 past the end: a rule never goes further */
static inline Tok *
peek(Fast *F, uint32_t ahead)
{
	return &F->t[F->k + ahead];
}

static Str
tstr(const Tok *t)
{
	return (Str){ t->off, t->len };
}

static Loc
tloc(const Tok *t)
{
	return (Loc){ t->off, t->off + t->len };
}

/* from the start of token a to the end of the token before the next one */
static Loc
span(Fast *F, uint32_t a)
{
	const Tok *s = &F->t[a], *e = &F->t[F->k - 1];

	return (Loc){ s->off, e->off + e->len };
}

/* mterm: regword | HEX | DEC | '-' HEX; *x the term (when building) */
static int
mterm(Fast *F, uint32_t *x)
{
	Ctx *cx = F->cx;
	Tok *t = peek(F, 0);

	switch (t->kind) {
	case TWord:
		if (peek(F, 1)->kind == '[')
			return -1;
		if (F->build)
			*x = b_treg(cx, b_word(cx, tstr(t), tloc(t), 0, tloc(t), (Str){ 0, 0 }), tloc(t));
		F->k++;
		return 0;
	case THex:
	case TDec:
		if (F->build)
			*x = b_tnum(cx, t->v, t->kind == THex, 0, tloc(t));
		F->k++;
		return 0;
	case '-':
		if (peek(F, 1)->kind != THex)
			return -1;
		if (F->build)
			*x = b_tnum(cx, peek(F, 1)->v, 1, 1, (Loc){ t->off, peek(F, 1)->off + peek(F, 1)->len });
		F->k += 2;
		return 0;
	default:
		return -1;
	}
}

/* maddr: mterm { '+' mterm | '-' HEX } */
static int
maddr(Fast *F)
{
	Ctx *cx = F->cx;
	uint32_t x = 0;

	if (mterm(F, &x) < 0)
		return -1;
	if (F->build) {
		cx->nterm = 0;
		b_tadd(cx, x, 0);
	}
	for (;;) {
		Tok *t = peek(F, 0);
		if (t->kind == '+') {
			F->k++;
			if (mterm(F, &x) < 0)
				return -1;
			if (F->build)
				b_tadd(cx, x, 1);
		} else if (t->kind == '-' && peek(F, 1)->kind == THex) {
			if (F->build)
				b_tadd(cx, b_tnum(cx, peek(F, 1)->v, 1, 1, tloc(peek(F, 1))), 0);
			F->k += 2;
		} else {
			return 0;
		}
	}
}

static int
expect(Fast *F, int c)
{
	if (peek(F, 0)->kind != c)
		return -1;
	F->k++;
	return 0;
}

/* base: regword | WORD '[' mterm ']' [ '[' maddr ']' ] | '[' maddr ']' | HEX | DEC | FLOAT
 * | LABELREF */
static int
base(Fast *F, uint32_t *x)
{
	Ctx *cx = F->cx;
	uint32_t a = F->k, idx = 0;
	Tok *t = peek(F, 0);

	F->k++;
	switch (t->kind) {
	case TWord:
		if (peek(F, 0)->kind != '[') {
			if (F->build)
				*x = b_word(cx, tstr(t), tloc(t), 0, tloc(t), (Str){ 0, 0 });
			return 0;
		}
		F->k++;
		if (mterm(F, &idx) < 0 || expect(F, ']') < 0)
			return -1;
		if (peek(F, 0)->kind != '[') {
			if (F->build)
				*x = b_bank(cx, tstr(t), tloc(t), idx, 0, (Str){ 0, 0 }, span(F, a));
			return 0;
		}
		F->k++;
		if (maddr(F) < 0 || expect(F, ']') < 0)
			return -1;
		if (F->build)
			*x = b_bank(cx, tstr(t), tloc(t), idx, 1, (Str){ 0, 0 }, span(F, a));
		return 0;
	case '[':
		if (maddr(F) < 0 || expect(F, ']') < 0)
			return -1;
		if (F->build)
			*x = b_addr(cx, span(F, a));
		return 0;
	case THex:
		if (F->build)
			*x = b_imm(cx, t->v, tloc(t));
		return 0;
	case TDec:
	case TFloat:
		if (F->build)
			*x = b_float(cx, tloc(t));
		return 0;
	case TLab:
		if (F->build)
			*x = b_labelref(cx, (Str){ t->off + 2, t->len - 3 }, tloc(t));
		return 0;
	default:
		return -1;
	}
}

/* an operand with its prefix, filed */
static int
operand(Fast *F)
{
	uint32_t a = F->k, x = 0;
	int pre = peek(F, 0)->kind;

	if (pre == '-' || pre == '~' || pre == '!')
		F->k++;
	else
		pre = 0;
	if (base(F, &x) < 0)
		return -1;
	if (F->build) {
		if (pre)
			x = b_prefix(F->cx, pre, x, span(F, a));
		b_opnd(F->cx, x, span(F, a), 0);
	}
	return 0;
}

/* [ '@' ['!'] WORD ] WORD [ operand { ',' operand } ] ';': the index of the opcode token */
static int
line(Fast *F)
{
	Ctx *cx = F->cx;
	uint32_t op;

	F->k = 0;
	if (peek(F, 0)->kind == '@') {
		int neg = peek(F, 1)->kind == '!';
		Tok *w = peek(F, 1 + neg);
		if (w->kind != TWord)
			return -1;
		if (F->build)
			b_guard(cx, b_word(cx, tstr(w), tloc(w), 0, tloc(w), (Str){ 0, 0 }), neg,
			        (Loc){ F->t[0].off, w->off + w->len });
		F->k += 2 + neg;
	}
	if (peek(F, 0)->kind != TWord)
		return -1;
	op = F->k++;
	if (peek(F, 0)->kind != ';')
		for (;;) {
			if (operand(F) < 0)
				return -1;
			if (peek(F, 0)->kind != ',')
				break;
			F->k++;
		}
	if (peek(F, 0)->kind != ';' || F->k + 1 != F->n)
		return -1;
	return (int)op;
}

/* ---- the line ------------------------------------------------------------------------------- */

/* what the scanner makes of a line that starts at p after its blanks: 2 a second encoding word
 * (ENC2: the word alone on its line), 1 a word the scanner would take as ENC2 but this file does
 * not (a '\r' after it, or cut by the scanner's buffer), 0 anything else */
static int
enc_line(Ctx *cx, const char *p, const char *end, uint64_t *v)
{
	const char *text = cx->text;

	if (p >= end || !enc_word(p, end, v))
		return 0;
	if (p + 24 == text + cx->len || (p + 24 < end && p[24] == '\n'))
		return 2;
	return p[24] == '\r' || p + 24 >= end ? 1 : 0;
}

/* one instruction line from p, just after its offset comment (value addr, -1 on a line without
 * one): the bytes read through its end of line, its second encoding line and the next line's
 * leading blanks (what the scanner's rule for '\n' reads), or 0 if the grammar is to read it */
static size_t
one_line(Ctx *cx, Fast *F, const char *p, const char *end, int64_t addr)
{
	const char *text = cx->text, *lim = text + cx->len, *q, *e, *nl = NULL, *e2 = NULL;
	uint64_t enc = 0, enc2 = 0, x;
	int nenc = 0, nenc2 = 0, op;
	const Tok *last, *semi;
	size_t n;

	F->build = 0;
	if (!(q = cut(F, p, end)) || (op = line(F)) < 0)
		return 0;
	/* ';' [blanks] [encoding word] [blanks], then the end of the line or of the file */
	e = q;
	q = blanks(q, lim);
	if (q < end && (n = enc_word(q, end, &enc))) {
		nenc = 1;
		q += n;
		e = q;
		q = blanks(q, lim);
	}
	if (q > end)
		return 0;
	if (q < lim) {
		if (q == end || *q != '\n')
			return 0;
		/* what the scanner's rule for '\n' does: skip blanks, and take a second encoding word
		 * when nothing else is on its line */
		nl = q;
		q = blanks(q + 1, lim);
		if ((n = enc_line(cx, q, end, &enc2)) == 1)
			return 0;
		if (n) {
			nenc2 = 1;
			e2 = q + 24;
			q = e2;
			/* its end of line, unless a third word follows (the grammar reports that) */
			if (q < lim) {
				q = blanks(q + 1, lim);
				if (enc_line(cx, q, end, &x))
					return 0;
			}
		}
		if (q > end)
			return 0;
	}
	/* build it as the grammar would */
	F->build = 1;
	line(F);
	semi = &F->t[F->n - 1];
	last = &F->t[F->n - 2];
	b_ins(cx, tstr(&F->t[op]), addr, semi->off == last->off + last->len, nenc, enc,
	      (Loc){ F->t[0].off, (uint32_t)(e - text) });
	if (nenc2)
		b_enc2(cx, enc2, (Loc){ (uint32_t)(nl - text), (uint32_t)(e2 - text) });
	return (size_t)(q - p);
}

/* the offset comment `/ *0240* /` at p, read as the scanner does (ADDR): the byte after, or NULL */
static const char *
addr_comment(const char *p, const char *end, uint64_t *addr)
{
	uint64_t v = 0;
	int nd = 0;

	if (end - p < 5 || p[0] != '/' || p[1] != '*' || !hexd1[(unsigned char)p[2]])
		return NULL;
	for (p += 2; p < end && hexd1[(unsigned char)*p]; p++) {
		if (nd || *p != '0')
			nd++;
		v = v << 4 | (uint64_t)(hexd1[(unsigned char)*p] - 1);
	}
	if (nd > 16 || end - p < 2 || p[0] != '*' || p[1] != '/')
		return NULL;
	*addr = v;
	return p + 2;
}

/* the instruction line whose offset comment (value addr) ends at cx->pos, and the instruction
 * lines that follow it: the bytes read, 0 if the grammar is to read the first one. A line that
 * is not for this path ends the run, right before its offset comment; so does reaching the
 * error limit (the grammar stops there). */
size_t
fast_line(Ctx *cx, Loc addrloc, uint64_t addr)
{
	Fast F;
	const char *text = cx->text, *start = text + cx->pos, *end = text + cx->len, *p, *q, *b;
	size_t n;

	if (cx->nofast || !cx->fn || cx->sec != cx->fn->text)
		return 0;
	/* only blanks before the offset comment on its line */
	for (b = text + addrloc.start; b > text && (b[-1] == ' ' || b[-1] == '\t'); b--)
		;
	if (b > text && b[-1] != '\n')
		return 0;
	F.cx = cx;
	if (!(n = one_line(cx, &F, start, end, (int64_t)addr)))
		return 0;
	p = start + n;
	while (!too_many(cx) && (q = addr_comment(p, end, &addr)) &&
	       (n = one_line(cx, &F, q, end, (int64_t)addr)))
		p = q + n;
	return (size_t)(p - start);
}

/* the instruction lines without offset comments from cx->pos, the first non-blank of a line of
 * a text section (SASS with virtual registers, as the PTX lowering writes it): the bytes read,
 * 0 if the grammar is to read the first one; a run ends as fast_line's does */
size_t
fast_bare(Ctx *cx)
{
	Fast F;
	const char *start = cx->text + cx->pos, *end = cx->text + cx->len, *p = start;
	size_t n;

	if (cx->nofast || cx->has_ssa || !cx->fn || cx->sec != cx->fn->text)
		return 0;
	F.cx = cx;
	while ((p == start || !too_many(cx)) && (*p == '@' || (cls[(unsigned char)*p] & 1)) &&
	       (n = one_line(cx, &F, p, end, -1)))
		p += n;
	return (size_t)(p - start);
}
