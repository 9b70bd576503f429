/* ptxsel_fdiv.c: division, reciprocal, square root and the MUFU approximations of the float
 * family (ptxsel_float.h): div/rcp/sqrt .rn (IEEE, nvcc's sequences of ptxsel_fseq.c with their
 * slow paths inline), div .approx/.full, rcp/sqrt/rsqrt .approx, ex2/lg2/sin/cos/tanh .approx,
 * with the subnormal scaling nvcc writes around the MUFU of the forms without .ftz. The template
 * expander fs_expand is here. */
#include "ptxsel_float.h"

#include <stdlib.h>
#include <string.h>

/* ---- the template expander -------------------------------------------------------------------
 * fs_expand writes the lines of a template (ptxsel_fseq.c) with its registers, predicates and
 * labels made fresh temporaries and labels, $A/$B the sources and $Q the result: the destination
 * d unless d is also a source (then a temporary, moved into d at the end). pair: the template is
 * an f64 one (R<2k>, R<2k+1> the words of one temporary pair; $A1 etc. the high words). */
enum { MaxTplReg = 32, MaxTplPred = 7, MaxTplLabel = 100 };

typedef struct Tpl {
	Lw *w;
	int pair;
	char a[LwStr], b[LwStr], q[LwStr];
	char reg[MaxTplReg][LwStr];
	char pred[MaxTplPred][LwStr];
	char label[MaxTplLabel][LwStr];
} Tpl;

static int
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '$' || c == '%' || c == '.';
}

static const char *
tpl_reg(Tpl *t, int n)
{
	int k = t->pair ? n / 2 : n;

	if (!t->reg[k][0])
		snprintf(t->reg[k], LwStr, "%s", t->pair ? lw_tmp64(t->w) : lw_tmp(t->w));
	return t->pair && (n & 1) ? lw_elem(t->w, t->reg[k], 1) : t->reg[k];
}

static const char *
tpl_label(Tpl *t, int n)
{
	if (!t->label[n][0])
		snprintf(t->label[n], LwStr, "%s", lw_newlabel(t->w));
	return t->label[n];
}

/* one template line with its names substituted, into out */
static void
tpl_line(Tpl *t, const char *s, char *out, size_t cap)
{
	size_t n = 0;

	for (const char *c = s; *c && n + 1 < cap;) {
		const char *rep = NULL;
		const char *e = c;
		int prev_word = c > s && word_char(c[-1]);
		if (*c == '$' && (c[1] == 'A' || c[1] == 'B' || c[1] == 'Q')) {
			const char *v = c[1] == 'A' ? t->a : c[1] == 'B' ? t->b : t->q;
			e = c + 2;
			rep = v;
			if (*e == '1') {
				rep = lw_elem(t->w, v, 1);
				e++;
			}
		} else if (!prev_word && (*c == 'R' || *c == 'P') && c[1] >= '0' && c[1] <= '9') {
			long k = strtol(c + 1, (char **)&e, 10);
			if (!word_char(*e) || *e == '.' || *e == '|') {
				if (*c == 'R' && k < MaxTplReg) {
					rep = tpl_reg(t, (int)k);
				} else if (*c == 'P' && k < MaxTplPred) {
					if (!t->pred[k][0])
						snprintf(t->pred[k], LwStr, "%s", lw_ptmp(t->w));
					rep = t->pred[k];
				}
			}
		} else if (!prev_word && !strncmp(c, ".L_x_", 5)) {
			long k = strtol(c + 5, (char **)&e, 10);
			if (e > c + 5 && k < MaxTplLabel)
				rep = tpl_label(t, (int)k);
		}
		if (rep) {
			size_t len = strlen(rep);
			if (n + len + 1 >= cap)
				break;
			memcpy(out + n, rep, len);
			n += len;
			c = e;
		} else {
			out[n++] = *c++;
		}
	}
	out[n] = 0;
}

/* same register (or pair) text */
static int
same(const char *x, const char *y)
{
	return y && !strcmp(x, y);
}

static void
fs_expand(Lw *w, const char *const *tpl, int pair, const char *a, const char *b, const char *d)
{
	Tpl *t = calloc(1, sizeof *t);
	char line[512];

	t->w = w;
	t->pair = pair;
	snprintf(t->a, LwStr, "%s", a);
	snprintf(t->b, LwStr, "%s", b ? b : "RZ");
	if (same(d, a) || same(d, b))
		snprintf(t->q, LwStr, "%s", pair ? lw_tmp64(w) : lw_tmp(w));
	else
		snprintf(t->q, LwStr, "%s", d);
	for (; *tpl; tpl++) {
		tpl_line(t, *tpl, line, sizeof line);
		size_t n = strlen(line);
		if (n && line[n - 1] == ':') {
			line[n - 1] = 0;
			lw_label_here(w, line);
		} else {
			lw_emit(w, "%s", line);
		}
	}
	if (strcmp(t->q, d)) {
		lw_emit(w, "MOV %s, %s", d, t->q);
		if (pair)
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_elem(w, t->q, 1));
	}
	free(t);
}

/* ---- helpers ------------------------------------------------------------------------------- */

static int
is_f64(Lw *w)
{
	return lw_tclass(lw_type(w)) == TcF64;
}

/* the operand k as a register: f32 through lw_rsrc, f64 a pair (fs_f64src) */
static const char *
src_reg(Lw *w, int k)
{
	return is_f64(w) ? fs_f64src(w, k, 0) : lw_rsrc(w, k);
}

/* a copy of s that outlives the operand ring */
typedef struct { char s[LwStr]; } Keep;
static Keep
keep(const char *s)
{
	Keep k;

	snprintf(k.s, sizeof k.s, "%s", s);
	return k;
}

/* MOV t, a; @!p OP t, t, imm: a scaled copy of a for the subnormal range (a is kept) */
static const char *
scaled(Lw *w, const char *a, const char *p, const char *op, const char *imm)
{
	const char *t = lw_tmp(w);

	lw_emit(w, "MOV %s, %s", t, a);
	lw_emit(w, "@!%s %s %s, %s, %s", p, op, t, t, imm);
	return t;
}

/* FSETP.GEU.AND p, PT, |a|, 2^-126, PT: p false for a subnormal (or zero) a */
static const char *
not_tiny(Lw *w, const char *a)
{
	const char *p = lw_ptmp(w);

	lw_emit(w, "FSETP.GEU.AND %s, PT, |%s|, 1.1754943508222875e-38, PT", p, a);
	return p;
}

/* rz/rm/rp of div, rcp, sqrt: nvcc calls a subroutine per mode (not transcribed yet) */
static int
directed(Lw *w)
{
	return lw_has(w, "rz") || lw_has(w, "rm") || lw_has(w, "rp");
}

/* ---- div ----------------------------------------------------------------------------------- */

int
fs_div(Lw *w)
{
	int f64 = is_f64(w), ftz = lw_has(w, "ftz");
	FSeq s;

	if (fs_mods(w, f64 ? "rn rz rm rp" : "rn rz rm rp approx full ftz") < 0)
		return -1;
	if (directed(w))
		return lw_error(w, "division with directed rounding (.rz .rm .rp)");
	if (!lw_has(w, "rn") && !lw_has(w, "approx") && !lw_has(w, "full"))
		return lw_error(w, "div.%s needs .rn, .approx or .full", lw_type(w));
	fs_begin(w, &s);
	Keep a = keep(src_reg(w, 1)), b = keep(src_reg(w, 2)), d = keep(lw_reg(w, 0));
	if (lw_has(w, "rn")) {
		fs_expand(w, f64 ? fseq_div_rn_f64 : ftz ? fseq_div_rn_ftz_f32 : fseq_div_rn_f32, f64,
		          a.s, b.s, d.s);
	} else if (lw_has(w, "approx") && ftz) {    /* a * (1/b) */
		const char *r = lw_tmp(w);
		lw_emit(w, "MUFU.RCP %s, %s", r, b.s);
		lw_emit(w, "FMUL.FTZ %s, %s, %s", d.s, a.s, r);
	} else if (lw_has(w, "approx")) {           /* a subnormal b: both scaled by 2^24 */
		Keep p = keep(not_tiny(w, b.s));
		Keep tb = keep(scaled(w, b.s, p.s, "FMUL", "16777216"));
		Keep ta = keep(scaled(w, a.s, p.s, "FMUL", "16777216"));
		const char *r = lw_tmp(w);
		lw_emit(w, "MUFU.RCP %s, %s", r, tb.s);
		lw_emit(w, "FMUL %s, %s, %s", d.s, r, ta.s);
	} else {                                    /* .full: |b| > 2^123 scaled by 1/4 too */
		const char *fm = ftz ? "FMUL.FTZ" : "FMUL";
		Keep big = keep(lw_ptmp(w)), tb = keep(lw_tmp(w)), ta = keep(lw_tmp(w));
		lw_emit(w, "FSETP.GT%s.AND %s, PT, |%s|, 8.50705917302346158658e+37, PT", ftz ? ".FTZ" : "",
		        big.s, b.s);
		Keep tiny = keep(ftz ? "" : not_tiny(w, b.s));
		lw_emit(w, "MOV %s, %s", tb.s, b.s);
		lw_emit(w, "MOV %s, %s", ta.s, a.s);
		lw_emit(w, "@%s %s %s, %s, 0.25", big.s, fm, tb.s, tb.s);
		lw_emit(w, "@%s %s %s, %s, 0.25", big.s, fm, ta.s, ta.s);
		if (!ftz) {
			lw_emit(w, "@!%s FMUL %s, %s, 16777216", tiny.s, tb.s, tb.s);
			lw_emit(w, "@!%s FMUL %s, %s, 16777216", tiny.s, ta.s, ta.s);
		}
		const char *r = lw_tmp(w);
		lw_emit(w, "MUFU.RCP %s, %s", r, tb.s);
		lw_emit(w, "%s %s, %s, %s", fm, d.s, r, ta.s);
	}
	fs_end(w, &s);
	return 0;
}

/* ---- rcp sqrt rsqrt ------------------------------------------------------------------------ */

/* MUFU.fn64H d.hi, a.hi; MOV d.lo, RZ: the .approx.ftz.f64 forms (about 20 bits) */
static void
mufu64h(Lw *w, const char *fn, const char *a, const char *d)
{
	lw_emit(w, "MUFU.%s64H %s, %s", fn, lw_elem(w, d, 1), lw_elem(w, a, 1));
	lw_emit(w, "MOV %s, RZ", d);
}

int
fs_rcp(Lw *w)
{
	int f64 = is_f64(w), ftz = lw_has(w, "ftz");
	FSeq s;

	if (fs_mods(w, f64 ? "rn rz rm rp approx ftz" : "rn rz rm rp approx ftz") < 0)
		return -1;
	if (directed(w))
		return lw_error(w, "reciprocal with directed rounding (.rz .rm .rp)");
	if (!lw_has(w, "rn") && !lw_has(w, "approx"))
		return lw_error(w, "rcp needs .rn or .approx");
	if (f64 && lw_has(w, "approx") && !ftz)
		return lw_error(w, "rcp.approx.f64 needs .ftz");
	fs_begin(w, &s);
	Keep a = keep(src_reg(w, 1)), d = keep(lw_reg(w, 0));
	if (lw_has(w, "rn")) {
		fs_expand(w, f64 ? fseq_rcp_rn_f64 : ftz ? fseq_rcp_rn_ftz_f32 : fseq_rcp_rn_f32, f64, a.s,
		          NULL, d.s);
	} else if (f64) {
		mufu64h(w, "RCP", a.s, d.s);
	} else if (ftz) {
		lw_emit(w, "MUFU.RCP %s, %s", d.s, a.s);
	} else {                                    /* scale s = 2^24 (subnormal) or 1/4 (huge) */
		const char *c = lw_tmp(w), *tiny = lw_ptmp(w), *big = lw_ptmp(w);
		lw_emit(w, "IMAD.MOV.U32 %s, RZ, RZ, 0x4b800000", c);
		lw_emit(w, "FSETP.GEU.AND %s, PT, |%s|, 1.1754943508222875e-38, PT", tiny, a.s);
		lw_emit(w, "FSETP.GT.AND %s, PT, |%s|, 8.50705917302346158658e+37, PT", big, a.s);
		Keep sc = keep(lw_tmp(w));
		lw_emit(w, "FSEL %s, %s, 1, !%s", sc.s, c, tiny);
		lw_emit(w, "FSEL %s, %s, 0.25, !%s", sc.s, sc.s, big);
		const char *t = lw_tmp(w);
		lw_emit(w, "FMUL %s, %s, %s", t, a.s, sc.s);
		lw_emit(w, "MUFU.RCP %s, %s", t, t);
		lw_emit(w, "FMUL %s, %s, %s", d.s, sc.s, t);
	}
	fs_end(w, &s);
	return 0;
}

/* sqrt and rsqrt .approx without .ftz: a subnormal a scaled by 2^24, the result by 2^-12 (sqrt)
 * or 2^12 (rsqrt) */
static void
sqrt_approx(Lw *w, const char *fn, const char *a, const char *d, const char *back)
{
	const char *p = not_tiny(w, a);
	Keep pk = keep(p);
	const char *t = scaled(w, a, pk.s, "FMUL", "16777216");
	lw_emit(w, "MUFU.%s %s, %s", fn, d, t);
	lw_emit(w, "@!%s FMUL %s, %s, %s", pk.s, d, d, back);
}

int
fs_sqrt(Lw *w)
{
	int f64 = is_f64(w), ftz = lw_has(w, "ftz");
	FSeq s;

	if (fs_mods(w, f64 ? "rn rz rm rp" : "rn rz rm rp approx ftz") < 0)
		return -1;
	if (directed(w))
		return lw_error(w, "square root with directed rounding (.rz .rm .rp)");
	if (!lw_has(w, "rn") && !lw_has(w, "approx"))
		return lw_error(w, "sqrt needs .rn or .approx");
	fs_begin(w, &s);
	Keep a = keep(src_reg(w, 1)), d = keep(lw_reg(w, 0));
	if (lw_has(w, "rn"))
		fs_expand(w, f64 ? fseq_sqrt_rn_f64 : ftz ? fseq_sqrt_rn_ftz_f32 : fseq_sqrt_rn_f32, f64,
		          a.s, NULL, d.s);
	else if (ftz)
		lw_emit(w, "MUFU.SQRT %s, %s", d.s, a.s);
	else
		sqrt_approx(w, "SQRT", a.s, d.s, "0.000244140625");
	fs_end(w, &s);
	return 0;
}

int
fs_rsqrt(Lw *w)
{
	int f64 = is_f64(w), ftz = lw_has(w, "ftz");
	FSeq s;

	if (fs_mods(w, "approx ftz") < 0)
		return -1;
	if (!lw_has(w, "approx"))
		return lw_error(w, "rsqrt needs .approx");
	fs_begin(w, &s);
	Keep a = keep(src_reg(w, 1)), d = keep(lw_reg(w, 0));
	if (f64 && ftz)
		mufu64h(w, "RSQ", a.s, d.s);
	else if (f64)
		fs_expand(w, fseq_rsqrt_f64, 1, a.s, NULL, d.s);
	else if (ftz)
		lw_emit(w, "MUFU.RSQ %s, %s", d.s, a.s);
	else
		sqrt_approx(w, "RSQ", a.s, d.s, "4096");
	fs_end(w, &s);
	return 0;
}

/* ---- ex2 lg2 sin cos tanh ------------------------------------------------------------------- */

int
fs_mufu(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op);
	int ftz = lw_has(w, "ftz");
	FSeq s = {0};

	if (fs_mods(w, "approx ftz") < 0)
		return -1;
	if (!lw_has(w, "approx"))
		return lw_error(w, "%s needs .approx", op);
	if (!strcmp(op, "tanh") && ftz)
		return lw_error(w, "tanh.approx takes no .ftz");
	int trig = !strcmp(op, "sin") || !strcmp(op, "cos");
	int one = !trig && (ftz || !strcmp(op, "tanh"));
	if (!one || lw_isimm(w, 1))
		fs_begin(w, &s);
	Keep a = keep(lw_rsrc(w, 1)), d = keep(lw_reg(w, 0));
	if (trig) {                                /* MUFU.SIN/COS take turns (x / 2 pi) */
		const char *t = lw_tmp(w);
		lw_emit(w, "FMUL.RZ %s, %s, 0.15915493667125701904", t, a.s);
		lw_emit(w, "MUFU.%s %s, %s", op[0] == 's' ? "SIN" : "COS", d.s, t);
	} else if (!strcmp(op, "tanh")) {
		lw_emit(w, "MUFU.TANH %s, %s", d.s, a.s);
	} else if (!strcmp(op, "ex2")) {
		if (ftz) {
			lw_emit(w, "MUFU.EX2 %s, %s", d.s, a.s);
		} else {                               /* below -126: 2^(a/2) squared */
			const char *p = lw_ptmp(w);
			lw_emit(w, "FSETP.GEU.AND %s, PT, %s, -126, PT", p, a.s);
			Keep pk = keep(p);
			const char *t = scaled(w, a.s, pk.s, "FMUL", "0.5");
			lw_emit(w, "MUFU.EX2 %s, %s", d.s, t);
			lw_emit(w, "@!%s FMUL %s, %s, %s", pk.s, d.s, d.s, d.s);
		}
	} else if (ftz) {
		lw_emit(w, "MUFU.LG2 %s, %s", d.s, a.s);
	} else {                                   /* a subnormal: log2(a 2^24) - 24 */
		const char *p = not_tiny(w, a.s);
		Keep pk = keep(p);
		const char *t = scaled(w, a.s, pk.s, "FMUL", "16777216");
		lw_emit(w, "MUFU.LG2 %s, %s", d.s, t);
		lw_emit(w, "@!%s FADD %s, %s, -24", pk.s, d.s, d.s);
	}
	fs_end(w, &s);
	return 0;
}
