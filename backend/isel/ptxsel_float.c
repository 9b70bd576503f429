/* ptxsel_float.c: instruction selection of the float family (ptxsel.h, ptxlow.h): f32 and f64
 * add, sub, mul, fma, mad, neg, abs, min, max, copysign, setp, set, selp, slct and testp, the
 * family's table, and the helpers its other files share (ptxsel_float.h). The sequences are
 * nvcc's for the same PTX on sm_80 and sm_90; docs/isel-float.md lists them with the decisions.
 */
#include "ptxsel_float.h"

#include <inttypes.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------- */

void
fs_begin(Lw *w, FSeq *s)
{
	s->skip[0] = 0;
	memcpy(s->guard, w->guard, sizeof s->guard);
	if (!w->guard[0])
		return;
	snprintf(s->skip, sizeof s->skip, "%s", lw_newlabel(w));
	/* "@%p3 " -> "@!%p3 BRA", "@!%p3 " -> "@%p3 BRA" (the guard text ends in a space) */
	const char *pred = w->guard + (w->guard[1] == '!' ? 2 : 1);
	lw_emit_ng(w, "@%s%.*s BRA `(%s)", w->guard[1] == '!' ? "" : "!", (int)(strlen(pred) - 1),
	           pred, s->skip);
	w->guard[0] = 0;
}

void
fs_end(Lw *w, FSeq *s)
{
	if (s->skip[0])
		lw_label_here(w, s->skip);
	if (s->guard[0])
		memcpy(w->guard, s->guard, sizeof w->guard);
}

static int
is_typeword(Lw *w, const char *m)
{
	for (int j = 0; j < 4; j++) {
		const char *t = lw_type_n(w, j);
		if (!t[0])
			break;
		if (!strcmp(t, m))
			return 1;
	}
	return 0;
}

int
fs_mods(Lw *w, const char *allowed)
{
	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		size_t n = strlen(m);
		const char *a = allowed;
		int ok = 0;
		if (is_typeword(w, m))
			continue;
		while (a && *a) {
			const char *e = strchr(a, ' ');
			size_t len = e ? (size_t)(e - a) : strlen(a);
			if (len == n && !strncmp(a, m, n)) {
				ok = 1;
				break;
			}
			a = e ? e + 1 : NULL;
		}
		if (!ok)
			return lw_error(w, "the modifier .%s is not selected for this form", m);
	}
	return 0;
}

const char *
fs_rnd(Lw *w)
{
	if (lw_has(w, "rz"))
		return ".RZ";
	if (lw_has(w, "rm"))
		return ".RM";
	if (lw_has(w, "rp"))
		return ".RP";
	return "";
}

int
fs_isreg(const char *s)
{
	if (*s == '-' || *s == '|')
		s++;
	return s[0] == '%' || !strcmp(s, "RZ") || !strcmp(s, "RZ|");
}

const char *
fs_hi(Lw *w, const char *pair)
{
	return lw_elem(w, pair, 1);
}

const char *
fs_pred(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);
	static char buf[4][64];
	static unsigned pos;
	char *s = buf[pos++ % 4];

	if (!o)
		return "PT";
	if (o->kind == PoSink)
		return "PT";
	if (lw_isimm(w, k))
		return lw_imm(w, k) ? "PT" : "!PT";
	snprintf(s, 64, "%s%s", o->neg ? "!" : "", lw_reg(w, k));
	return s;
}

/* a predicate text negated: "%p1" <-> "!%p1", "PT" <-> "!PT" */
static const char *
pred_not(const char *p)
{
	static char buf[4][64];
	static unsigned pos;
	char *s = buf[pos++ % 4];

	if (p[0] == '!')
		return p + 1;
	snprintf(s, 64, "!%s", p);
	return s;
}

const char *
fs_f64text(Lw *w, uint64_t bits)
{
	union { uint64_t u; double d; } v = { bits };
	static char buf[8][40];
	static unsigned pos;
	char *s = buf[pos++ % 8];

	(void)w;
	if (v.d != v.d)
		snprintf(s, 40, "%sQNAN", bits >> 63 ? "-" : "+");
	else if (v.d == 1.0 / 0.0 || v.d == -1.0 / 0.0)
		snprintf(s, 40, "%sINF", bits >> 63 ? "-" : "+");
	else if (v.d == 0 && bits >> 63)
		snprintf(s, 40, "-0");
	else
		snprintf(s, 40, "%.17g", v.d);
	return s;
}

const char *
fs_f64src(Lw *w, int k, int imm_ok)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (!o) {
		lw_error(w, "operand %d missing", k);
		return "RZ";
	}
	if (lw_isimm(w, k)) {
		uint64_t bits = (uint64_t)lw_imm(w, k);
		if (imm_ok && (uint32_t)bits == 0)
			return fs_f64text(w, bits);
		const char *t = lw_tmp64(w);
		lw_emit(w, "MOV %s, 0x%" PRIx32, t, (uint32_t)bits);
		lw_emit(w, "MOV %s, 0x%" PRIx32, lw_elem(w, t, 1), (uint32_t)(bits >> 32));
		return t;
	}
	return lw_reg(w, k);
}

/* the operand text negated (a register, a float literal or a constant) */
static const char *
fneg(const char *s)
{
	static char buf[8][LwStr + 2];
	static unsigned pos;
	char *r = buf[pos++ % 8];

	if (s[0] == '-')
		snprintf(r, sizeof buf[0], "%s", s + 1);
	else if (s[0] == '+')
		snprintf(r, sizeof buf[0], "-%s", s + 1);
	else
		snprintf(r, sizeof buf[0], "-%s", s);
	return r;
}

/* an immediate (float or integer) or constant operand needs a temporary in a position that
 * takes only registers */
static int
needs_tmp(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	return o && o->kind != PoName && o->kind != PoSink;
}

/* ---- add sub mul -------------------------------------------------------------------------- */

/* add/sub/mul.f32: FADD d, a, b (sub: FADD d, a, -b), FMUL; .FTZ, .RZ/.RM/.RP, .SAT. An
 * immediate goes in the b position (swapped there: add and mul commute, sub is -b + a). */
static int
sel_arith32(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);
	int sub = !strcmp(op, "sub"), mul = !strcmp(op, "mul");
	FSeq s = {0};

	if (fs_mods(w, "rn rz rm rp ftz sat") < 0)
		return -1;
	if (fs_fma_folded(w) || fs_fma_add(w))
		return 0;
	int both = needs_tmp(w, 1) && needs_tmp(w, 2);
	if (both)
		fs_begin(w, &s);
	const char *a = both ? lw_rsrc(w, 1) : lw_src(w, 1), *b = lw_src(w, 2);
	if (sub)
		b = fneg(b);
	if (!fs_isreg(a)) {
		const char *t = a;
		a = b;
		b = t;
	}
	lw_emit(w, "%s%s%s%s %s, %s, %s", mul ? "FMUL" : "FADD", lw_has(w, "ftz") ? ".FTZ" : "",
	        fs_rnd(w), lw_has(w, "sat") ? ".SAT" : "", lw_reg(w, 0), a, b);
	fs_end(w, &s);
	return 0;
}

/* add/sub/mul.f64: DADD d, a, b (sub: -b), DMUL; .RZ/.RM/.RP. A literal whose low word is not
 * zero is moved into a pair (nvcc reads it from constant bank 2). */
static int
sel_arith64(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);
	int sub = !strcmp(op, "sub"), mul = !strcmp(op, "mul");
	FSeq s = {0};

	if (fs_mods(w, "rn rz rm rp") < 0)
		return -1;
	if (fs_fma_folded(w) || fs_fma_add(w))
		return 0;
	fs_begin(w, &s);
	const char *a = fs_f64src(w, 1, 1), *b = fs_f64src(w, 2, 1);
	if (!fs_isreg(a) && !fs_isreg(b))
		a = fs_f64src(w, 1, 0);
	if (sub)
		b = fneg(b);
	if (!fs_isreg(a)) {
		const char *t = a;
		a = b;
		b = t;
	}
	lw_emit(w, "%s%s %s, %s, %s", mul ? "DMUL" : "DADD", fs_rnd(w), lw_reg(w, 0), a, b);
	fs_end(w, &s);
	return 0;
}

/* fma.f32 and mad.f32 (a rounding modifier required): FFMA d, a, b, c with .FTZ, .RZ/.RM/.RP,
 * .SAT; one immediate, in b or c */
static int
sel_fma32(Lw *w)
{
	FSeq s = {0};

	if (fs_mods(w, "rn rz rm rp ftz sat") < 0)
		return -1;
	if (!lw_has(w, "rn") && !lw_has(w, "rz") && !lw_has(w, "rm") && !lw_has(w, "rp"))
		return lw_error(w, "%s.f32 without a rounding modifier (.rn .rz .rm .rp)",
		                ptx_str(w->p, w->ins->op));
	int ta = needs_tmp(w, 1) && needs_tmp(w, 2);
	int tc = needs_tmp(w, 3) && (needs_tmp(w, 1) || needs_tmp(w, 2));
	if (ta || tc)
		fs_begin(w, &s);
	const char *a = ta ? lw_rsrc(w, 1) : lw_src(w, 1), *b = lw_src(w, 2);
	const char *c = tc ? lw_rsrc(w, 3) : lw_src(w, 3);
	if (!fs_isreg(a)) {
		const char *t = a;
		a = b;
		b = t;
	}
	lw_emit(w, "FFMA%s%s%s %s, %s, %s, %s", lw_has(w, "ftz") ? ".FTZ" : "", fs_rnd(w),
	        lw_has(w, "sat") ? ".SAT" : "", lw_reg(w, 0), a, b, c);
	fs_end(w, &s);
	return 0;
}

/* fma.f64, mad.f64: DFMA d, a, b, c (.RZ/.RM/.RP) */
static int
sel_fma64(Lw *w)
{
	FSeq s = {0};

	if (fs_mods(w, "rn rz rm rp") < 0)
		return -1;
	if (!lw_has(w, "rn") && !lw_has(w, "rz") && !lw_has(w, "rm") && !lw_has(w, "rp"))
		return lw_error(w, "%s.f64 without a rounding modifier (.rn .rz .rm .rp)",
		                ptx_str(w->p, w->ins->op));
	fs_begin(w, &s);
	const char *a = fs_f64src(w, 1, 1), *b = fs_f64src(w, 2, 1), *c = fs_f64src(w, 3, 1);
	if (!fs_isreg(a) && !fs_isreg(b))
		a = fs_f64src(w, 1, 0);
	if (!fs_isreg(a)) {
		const char *t = a;
		a = b;
		b = t;
	}
	if (!fs_isreg(b) && !fs_isreg(c))
		c = fs_f64src(w, 3, 0);
	lw_emit(w, "DFMA%s %s, %s, %s, %s", fs_rnd(w), lw_reg(w, 0), a, b, c);
	fs_end(w, &s);
	return 0;
}

/* ---- neg abs copysign min max --------------------------------------------------------------- */

/* neg.f32: FADD d, -a, -RZ; abs.f32: FADD d, |a|, -RZ (.FTZ); f64: DADD d, -RZ, -a / |a| */
static int
sel_negabs(Lw *w)
{
	int neg = !strcmp(ptx_str(w->p, w->ins->op), "neg");
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	FSeq s = {0};

	if (fs_mods(w, f64 ? "" : "ftz") < 0)
		return -1;
	if (needs_tmp(w, 1))
		fs_begin(w, &s);
	if (f64) {
		const char *a = fs_f64src(w, 1, 0);
		lw_emit(w, "DADD %s, -RZ, %s%s%s", lw_reg(w, 0), neg ? "-" : "|", a, neg ? "" : "|");
	} else {
		const char *a = lw_rsrc(w, 1);
		lw_emit(w, "FADD%s %s, %s%s%s, -RZ", lw_has(w, "ftz") ? ".FTZ" : "", lw_reg(w, 0),
		        neg ? "-" : "|", a, neg ? "" : "|");
	}
	fs_end(w, &s);
	return 0;
}

/* copysign d, a, b: |b| with the sign of a: LOP3.LUT d, b, 0x80000000, a, 0xb8 (f64: on the
 * high words, the low word of b moved); a literal a decides the sign with an AND or an OR */
static int
sel_copysign(Lw *w)
{
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	FSeq s = {0};
	const char *d = lw_reg(w, 0);

	if (fs_mods(w, "") < 0)
		return -1;
	if (needs_tmp(w, 2) || (f64 && needs_tmp(w, 1)))
		fs_begin(w, &s);
	const char *b = f64 ? fs_f64src(w, 2, 0) : lw_rsrc(w, 2);
	const char *bh = f64 ? fs_hi(w, b) : b, *dh = f64 ? fs_hi(w, d) : d;
	if (lw_isimm(w, 1)) {
		uint64_t bits = (uint64_t)lw_imm(w, 1);
		int negs = f64 ? (int)(bits >> 63) : (int)((bits >> 31) & 1);
		if (negs)
			lw_emit(w, "LOP3.LUT %s, %s, 0x80000000, RZ, 0xfc, !PT", dh, bh);
		else
			lw_emit(w, "LOP3.LUT %s, %s, 0x7fffffff, RZ, 0xc0, !PT", dh, bh);
	} else {
		const char *a = lw_reg(w, 1);
		lw_emit(w, "LOP3.LUT %s, %s, 0x80000000, %s, 0xb8, !PT", dh, bh, f64 ? fs_hi(w, a) : a);
	}
	if (f64 && strcmp(d, b))
		lw_emit(w, "MOV %s, %s", d, b);
	fs_end(w, &s);
	return 0;
}

/* min/max.f32: FMNMX d, a, b, PT (min) / !PT (max), .FTZ, .NAN (min.NaN: a NaN operand gives
 * NaN). f64 as nvcc: DSETP.MIN|MAX P, Q, a, b (P: a is the result, Q: both are NaN), FSEL and
 * SEL of the words by P, and when both are NaN the quiet NaN of b. */
static int
sel_minmax(Lw *w)
{
	int pmin = !strcmp(ptx_str(w->p, w->ins->op), "min");
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	FSeq s = {0};

	if (w->ins->nopnd != 3)
		return lw_error(w, "min/max of three operands");
	if (fs_mods(w, f64 ? "" : "ftz NaN") < 0)
		return -1;
	if (!f64) {
		int both = needs_tmp(w, 1) && needs_tmp(w, 2);
		if (both)
			fs_begin(w, &s);
		const char *a = both ? lw_rsrc(w, 1) : lw_src(w, 1), *b = lw_src(w, 2);
		if (!fs_isreg(a)) {
			const char *t = a;
			a = b;
			b = t;
		}
		lw_emit(w, "FMNMX%s%s %s, %s, %s, %s", lw_has(w, "ftz") ? ".FTZ" : "",
		        lw_has(w, "NaN") ? ".NAN" : "", lw_reg(w, 0), a, b, pmin ? "PT" : "!PT");
		fs_end(w, &s);
		return 0;
	}
	fs_begin(w, &s);
	const char *a = fs_f64src(w, 1, 0), *b = fs_f64src(w, 2, 0), *d = lw_reg(w, 0);
	const char *p = lw_ptmp(w), *q = lw_ptmp(w);
	lw_emit(w, "DSETP.%s.AND %s, %s, %s, %s, PT", pmin ? "MIN" : "MAX", p, q, a, b);
	lw_emit(w, "FSEL %s, %s, %s, %s", fs_hi(w, d), fs_hi(w, a), fs_hi(w, b), p);
	lw_emit(w, "SEL %s, %s, %s, %s", d, a, b, p);
	/* both NaN: P is false, so d's high word is b's */
	lw_emit(w, "@%s LOP3.LUT %s, %s, 0x80000, RZ, 0xfc, !PT", q, fs_hi(w, d), fs_hi(w, d));
	fs_end(w, &s);
	return 0;
}

/* ---- comparisons ------------------------------------------------------------------------ */

static const char *const cmp_ops[] = {
	"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
	NULL
};

/* the comparison modifier of the instruction, "" if none */
static const char *
cmp_of(Lw *w)
{
	for (int k = 0; cmp_ops[k]; k++)
		if (lw_has(w, cmp_ops[k]))
			return cmp_ops[k];
	return "";
}

/* the comparison with its operands swapped */
static const char *
cmp_mirror(const char *c)
{
	static const char *const pairs[][2] = {
		{ "lt", "gt" }, { "le", "ge" }, { "ltu", "gtu" }, { "leu", "geu" },
	};
	for (unsigned k = 0; k < 4; k++) {
		if (!strcmp(c, pairs[k][0]))
			return pairs[k][1];
		if (!strcmp(c, pairs[k][1]))
			return pairs[k][0];
	}
	return c;
}

static const char *
upper(const char *s)
{
	static char buf[4][16];
	static unsigned pos;
	char *r = buf[pos++ % 4];
	size_t k;

	for (k = 0; s[k] && k < 15; k++)
		r[k] = (char)(s[k] >= 'a' && s[k] <= 'z' ? s[k] - 32 : s[k]);
	r[k] = 0;
	return r;
}

static const char *
bop_of(Lw *w)
{
	return lw_has(w, "and") ? "AND" : lw_has(w, "or") ? "OR" : lw_has(w, "xor") ? "XOR" : NULL;
}

/* the operands a (1), b (2) of a comparison for FSETP/DSETP: a register first (a literal a is
 * swapped into b and the comparison mirrored); *cmp updated. f64 literals only when their low
 * word is zero. */
static void
cmp_opnds(Lw *w, int f64, const char **cmp, const char **a, const char **b)
{
	if (f64) {
		*a = fs_f64src(w, 1, 1);
		*b = fs_f64src(w, 2, 1);
		if (!fs_isreg(*a) && !fs_isreg(*b))
			*a = fs_f64src(w, 1, 0);
	} else {
		*a = needs_tmp(w, 1) && needs_tmp(w, 2) ? lw_rsrc(w, 1) : lw_src(w, 1);
		*b = lw_src(w, 2);
	}
	if (!fs_isreg(*a)) {
		const char *t = *a;
		*a = *b;
		*b = t;
		*cmp = cmp_mirror(*cmp);
	}
}

/* setp.cmp[.bop][.ftz].f32 p[|q], a, b[, c]: FSETP.CMP[.FTZ].BOP p, q, a, b, c (q and c PT when
 * absent); .f64: DSETP */
static int
sel_setp(Lw *w)
{
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	const char *cmp = cmp_of(w), *bop = bop_of(w), *p, *q = "PT", *a, *b;
	FSeq s = {0};

	if (fs_mods(w, f64 ? "eq ne lt le gt ge equ neu ltu leu gtu geu num nan and or xor"
	                   : "eq ne lt le gt ge equ neu ltu leu gtu geu num nan and or xor ftz") < 0)
		return -1;
	if (!cmp[0])
		return lw_error(w, "setp without a comparison");
	if ((bop != NULL) != (w->ins->nopnd == 4))
		return lw_error(w, "a boolean operation needs a predicate operand c, and c one");
	p = lw_vec(w, 0, 0);
	if (lw_veclen(w, 0) > 1)
		q = lw_vec(w, 0, 1);
	if (!strcmp(p, "RZ"))
		p = "PT";
	if (!strcmp(q, "RZ"))
		q = "PT";
	if (f64 ? needs_tmp(w, 1) || needs_tmp(w, 2) : needs_tmp(w, 1) && needs_tmp(w, 2))
		fs_begin(w, &s);
	cmp_opnds(w, f64, &cmp, &a, &b);
	lw_emit(w, "%s.%s%s.%s %s, %s, %s, %s, %s", f64 ? "DSETP" : "FSETP", upper(cmp),
	        lw_has(w, "ftz") ? ".FTZ" : "", bop ? bop : "AND", p, q, a, b,
	        bop ? fs_pred(w, 3) : "PT");
	fs_end(w, &s);
	return 0;
}

/* set.cmp[.bop][.ftz].dtype.f32 d, a, b[, c]: FSET.BF (dtype f32: 1.0) or FSET (u32/s32: all
 * ones); .f64 sources: DSETP then SEL */
static int
sel_set(Lw *w)
{
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	const char *dt = lw_type_n(w, 0), *cmp = cmp_of(w), *bop = bop_of(w), *a, *b;
	int fl = !strcmp(dt, "f32");
	FSeq s = {0};

	if (fs_mods(w, f64 ? "eq ne lt le gt ge equ neu ltu leu gtu geu num nan and or xor"
	                   : "eq ne lt le gt ge equ neu ltu leu gtu geu num nan and or xor ftz") < 0)
		return -1;
	if (!cmp[0])
		return lw_error(w, "set without a comparison");
	if (!fl && strcmp(dt, "u32") && strcmp(dt, "s32"))
		return lw_error(w, "set with a .%s destination", dt);
	if ((bop != NULL) != (w->ins->nopnd == 4))
		return lw_error(w, "a boolean operation needs a predicate operand c, and c one");
	if (f64 || (needs_tmp(w, 1) && needs_tmp(w, 2)))
		fs_begin(w, &s);
	cmp_opnds(w, f64, &cmp, &a, &b);
	if (!f64) {
		lw_emit(w, "FSET%s.%s%s.%s %s, %s, %s, %s", fl ? ".BF" : "", upper(cmp),
		        lw_has(w, "ftz") ? ".FTZ" : "", bop ? bop : "AND", lw_reg(w, 0), a, b,
		        bop ? fs_pred(w, 3) : "PT");
	} else {
		const char *p = lw_ptmp(w);
		lw_emit(w, "DSETP.%s.%s %s, PT, %s, %s, %s", upper(cmp), bop ? bop : "AND", p, a, b,
		        bop ? fs_pred(w, 3) : "PT");
		lw_emit(w, "SEL %s, RZ, %s, !%s", lw_reg(w, 0), fl ? "0x3f800000" : "0xffffffff", p);
	}
	fs_end(w, &s);
	return 0;
}

/* selp.f32 d, a, b, c: SEL d, a, b, c (a literal a: SEL d, b, a, !c); f64: one SEL per word */
static int
sel_selp(Lw *w)
{
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	const char *c = fs_pred(w, 3), *d = lw_reg(w, 0);
	FSeq s = {0};
	int ka = 1, kb = 2;

	if (fs_mods(w, "") < 0)
		return -1;
	if (needs_tmp(w, 1) && !needs_tmp(w, 2)) {
		ka = 2;
		kb = 1;
		c = pred_not(c);
	}
	if (needs_tmp(w, ka))
		fs_begin(w, &s);
	if (!f64) {
		const char *a = lw_rsrc(w, ka);
		lw_emit(w, "SEL %s, %s, %s, %s", d, a, lw_isrc(w, kb), c);
	} else {
		const char *a = fs_f64src(w, ka, 0);
		lw_emit(w, "SEL %s, %s, %s, %s", d, a, lw_lo(w, kb), c);
		lw_emit(w, "SEL %s, %s, %s, %s", fs_hi(w, d), fs_hi(w, a), lw_hi(w, kb), c);
	}
	fs_end(w, &s);
	return 0;
}

/* slct.f32.f32 d, a, b, c: d = c >= 0 ? a : b: FSETP.GE[.FTZ] then SEL */
static int
sel_slct(Lw *w)
{
	FSeq s = {0};

	if (fs_mods(w, "ftz") < 0)
		return -1;
	if (lw_type_bits(lw_type_n(w, 0)) != 32)
		return lw_error(w, "slct of .%s values", lw_type_n(w, 0));
	fs_begin(w, &s);
	const char *p = lw_ptmp(w), *cv = lw_rsrc(w, 3), *a = lw_rsrc(w, 1);
	lw_emit(w, "FSETP.GE%s.AND %s, PT, %s, RZ, PT", lw_has(w, "ftz") ? ".FTZ" : "", p, cv);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_reg(w, 0), a, lw_isrc(w, 2), p);
	fs_end(w, &s);
	return 0;
}

/* testp.op.f32 p, a: FSETP on |a| against +INF and the smallest normal (nvcc tests the bits with
 * LOP3 and ISETP; one or two FSETP say the same); f64: DSETP */
static int
sel_testp(Lw *w)
{
	int f64 = lw_tclass(lw_type(w)) == TcF64;
	const char *op = f64 ? "DSETP" : "FSETP", *p = lw_reg(w, 0), *a;
	const char *tiny = f64 ? "2.2250738585072014e-308" : "1.1754943508222875e-38";
	FSeq s = {0};

	if (fs_mods(w, "finite infinite number notanumber normal subnormal") < 0)
		return -1;
	int two = lw_has(w, "normal") || lw_has(w, "subnormal");
	if (two || needs_tmp(w, 1))
		fs_begin(w, &s);
	a = f64 ? fs_f64src(w, 1, 0) : lw_rsrc(w, 1);
	if (lw_has(w, "finite"))
		lw_emit(w, "%s.LT.AND %s, PT, |%s|, +INF, PT", op, p, a);
	else if (lw_has(w, "infinite"))
		lw_emit(w, "%s.EQ.AND %s, PT, |%s|, +INF, PT", op, p, a);
	else if (lw_has(w, "number"))
		lw_emit(w, "%s.NUM.AND %s, PT, %s, %s, PT", op, p, a, a);
	else if (lw_has(w, "notanumber"))
		lw_emit(w, "%s.NAN.AND %s, PT, %s, %s, PT", op, p, a, a);
	else if (lw_has(w, "normal")) {
		const char *q = lw_ptmp(w);
		lw_emit(w, "%s.GE.AND %s, PT, |%s|, %s, PT", op, q, a, tiny);
		lw_emit(w, "%s.LT.AND %s, PT, |%s|, +INF, %s", op, p, a, q);
	} else if (lw_has(w, "subnormal")) {
		const char *q = lw_ptmp(w);
		lw_emit(w, "%s.NEU.AND %s, PT, |%s|, RZ, PT", op, q, a);
		lw_emit(w, "%s.LT.AND %s, PT, |%s|, %s, %s", op, p, a, tiny, q);
	} else {
		fs_end(w, &s);
		return lw_error(w, "testp without a test (.finite .infinite .number .notanumber "
		                ".normal .subnormal)");
	}
	fs_end(w, &s);
	return 0;
}

/* ---- the conversions the int family selects (cvt by destination type) --------------------- */

int
lw_cvt_f2i(Lw *w)
{
	return fs_cvt_int(w);
}

/* cvt to an integer type: this family's when the source is a float; an integer source is the
 * int family's (whose cvt row, when it has one, comes first and calls lw_cvt_f2i) */
static int
sel_cvt_int(Lw *w)
{
	if (!lw_type_float(lw_type_n(w, 1)))
		return lw_error(w, "integer-to-integer cvt is the int family's (no row selects it)");
	return fs_cvt_int(w);
}

const SelRow ptxsel_float[] = {
	{ "add", TcF32, sel_arith32, "FADD[.FTZ][.RZ|.RM|.RP][.SAT] d, a, b" },
	{ "add", TcF64, sel_arith64, "DADD[.RZ|.RM|.RP] d, a, b" },
	{ "sub", TcF32, sel_arith32, "FADD[.FTZ][.RZ|.RM|.RP][.SAT] d, a, -b" },
	{ "sub", TcF64, sel_arith64, "DADD[.RZ|.RM|.RP] d, a, -b" },
	{ "mul", TcF32, sel_arith32, "FMUL[.FTZ][.RZ|.RM|.RP][.SAT] d, a, b" },
	{ "mul", TcF64, sel_arith64, "DMUL[.RZ|.RM|.RP] d, a, b" },
	{ "fma", TcF32, sel_fma32, "FFMA[.FTZ][.RZ|.RM|.RP][.SAT] d, a, b, c" },
	{ "fma", TcF64, sel_fma64, "DFMA[.RZ|.RM|.RP] d, a, b, c" },
	{ "mad", TcF32, sel_fma32, "FFMA[.FTZ][.RZ|.RM|.RP][.SAT] d, a, b, c" },
	{ "mad", TcF64, sel_fma64, "DFMA[.RZ|.RM|.RP] d, a, b, c" },
	{ "neg", TcF32, sel_negabs, "FADD[.FTZ] d, -a, -RZ" },
	{ "neg", TcF64, sel_negabs, "DADD d, -RZ, -a" },
	{ "abs", TcF32, sel_negabs, "FADD[.FTZ] d, |a|, -RZ" },
	{ "abs", TcF64, sel_negabs, "DADD d, -RZ, |a|" },
	{ "min", TcF32, sel_minmax, "FMNMX[.FTZ][.NAN] d, a, b, PT" },
	{ "min", TcF64, sel_minmax, "DSETP.MIN.AND p, q, a, b, PT; FSEL d.hi; SEL d.lo; @q LOP3 (NaN)" },
	{ "max", TcF32, sel_minmax, "FMNMX[.FTZ][.NAN] d, a, b, !PT" },
	{ "max", TcF64, sel_minmax, "DSETP.MAX.AND p, q, a, b, PT; FSEL d.hi; SEL d.lo; @q LOP3 (NaN)" },
	{ "copysign", TcF32, sel_copysign, "LOP3.LUT d, b, 0x80000000, a, 0xb8, !PT" },
	{ "copysign", TcF64, sel_copysign, "LOP3.LUT d.hi, b.hi, 0x80000000, a.hi, 0xb8, !PT; MOV d.lo, b.lo" },
	{ "div", TcF32, fs_div, ".rn: MUFU.RCP, FCHK, FFMA x5, slow path inline; .approx/.full: [scaling] MUFU.RCP, FMUL" },
	{ "div", TcF64, fs_div, ".rn: MUFU.RCP64H, DFMA/DMUL x8, FFMA+FSETP range check, slow path inline" },
	{ "rcp", TcF32, fs_rcp, ".approx.ftz: MUFU.RCP; .approx: scaled MUFU.RCP; .rn: MUFU.RCP, FFMA x2, slow path inline" },
	{ "rcp", TcF64, fs_rcp, ".approx.ftz: MUFU.RCP64H d.hi, MOV d.lo, RZ; .rn: MUFU.RCP64H, DFMA x5, slow path inline" },
	{ "sqrt", TcF32, fs_sqrt, ".approx[.ftz]: [scaling] MUFU.SQRT; .rn: MUFU.RSQ, FMUL x2, FFMA x2, slow path inline" },
	{ "sqrt", TcF64, fs_sqrt, ".rn: MUFU.RSQ64H, DMUL/DFMA x9, slow path inline" },
	{ "rsqrt", TcF32, fs_rsqrt, ".approx[.ftz]: [scaling] MUFU.RSQ" },
	{ "rsqrt", TcF64, fs_rsqrt, ".approx.ftz: MUFU.RSQ64H d.hi, MOV d.lo, RZ; .approx: + DFMA refinement and slow path" },
	{ "ex2", TcF32, fs_mufu, ".approx[.ftz]: [FSETP.GEU -126, FMUL 0.5] MUFU.EX2 [FMUL d, d, d]" },
	{ "lg2", TcF32, fs_mufu, ".approx[.ftz]: [FSETP.GEU 2^-126, FMUL 2^24] MUFU.LG2 [FADD -24]" },
	{ "sin", TcF32, fs_mufu, ".approx: FMUL.RZ t, a, 1/(2 pi); MUFU.SIN d, t" },
	{ "cos", TcF32, fs_mufu, ".approx: FMUL.RZ t, a, 1/(2 pi); MUFU.COS d, t" },
	{ "tanh", TcF32, fs_mufu, ".approx: MUFU.TANH d, a" },
	{ "setp", TcF32, sel_setp, "FSETP.CMP[.FTZ].BOP p, q, a, b, c" },
	{ "setp", TcF64, sel_setp, "DSETP.CMP.BOP p, q, a, b, c" },
	{ "set", TcF32, sel_set, "FSET[.BF].CMP[.FTZ].BOP d, a, b, c" },
	{ "set", TcF64, sel_set, "DSETP.CMP.BOP p, PT, a, b, c; SEL d, RZ, 1.0|~0, !p" },
	{ "selp", TcF32, sel_selp, "SEL d, a, b, c" },
	{ "selp", TcF64, sel_selp, "SEL d.lo, a.lo, b.lo, c; SEL d.hi, a.hi, b.hi, c" },
	{ "slct", TcF32, sel_slct, "FSETP.GE[.FTZ].AND p, PT, c, RZ, PT; SEL d, a, b, p" },
	{ "testp", TcF32, sel_testp, "FSETP.LT|EQ|NUM|NAN|GE.AND p, PT, |a|, +INF|2^-126, PT (normal, subnormal: two)" },
	{ "testp", TcF64, sel_testp, "DSETP.LT|EQ|NUM|NAN|GE.AND p, PT, |a|, +INF|2^-1022, PT (normal, subnormal: two)" },
	{ "cvt", TcF32, fs_cvt, "F2F.F32.F64, I2F[.src][.rnd] (I2FP.F32 on sm_90), FRND, HADD2.F32 (f16), SHF.L (bf16), FADD.SAT" },
	{ "cvt", TcF64, fs_cvt, "F2F.F64.F32|F16, I2F.F64[.src][.rnd], FRND.F64, DSETP.MAX/MIN (.sat)" },
	{ "cvt", TcInt, sel_cvt_int, "F2I[.FTZ][.dst][.src][.TRUNC|.FLOOR|.CEIL][.NTZ] d, a (float source)" },
	{ NULL, 0, NULL, NULL },
};
