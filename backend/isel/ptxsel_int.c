/* ptxsel_int.c: instruction selection of the int family (ptxsel.h, ptxsel_int.h): the operand
 * helpers of its files, the arithmetic (add, sub and the carry chain, mul, mad, mul24, mad24,
 * sad, abs, neg, min, max, dp4a, dp2a) and the family's table. The SASS is what nvcc writes on
 * sm_80 and sm_90 for the same PTX (docs/isel-int.md): IADD3 with IADD3.X for 64-bit pairs,
 * IMAD/IMAD.HI/IMAD.WIDE, IABS, IMNMX (VIMNMX on sm_90), VABSDIFF, IDP.
 */
#include "ptxsel_int.h"

#define K(s) ix_keep(s)

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- operands ------------------------------------------------------------------------------ */

int
ix_op(const Lw *w, const char *op)
{
	return !strcmp(ptx_str(w->p, w->ins->op), op);
}

int
ix_nopnd(Lw *w, int n)
{
	if (w->ins->nopnd != n)
		return lw_error(w, "%d operands expected, %d given", n, w->ins->nopnd);
	return 0;
}

int
ix_bits(const Lw *w)
{
	return lw_type_bits(lw_type(w));
}

int
ix_sgn(const Lw *w)
{
	return lw_type_signed(lw_type(w));
}

static char *
ring_str(Lw *w)
{
	char *s = w->ring[w->ringpos++ % LwRing];

	s[0] = 0;
	return s;
}

const char *
ix_imm(Lw *w, uint32_t v)
{
	char *s = ring_str(w);

	if ((int32_t)v < 0 && (int32_t)v > -0x10000)
		snprintf(s, LwStr, "-0x%x", (unsigned)-(int32_t)v);
	else
		snprintf(s, LwStr, "0x%x", (unsigned)v);
	return s;
}

int
ix_isimm(const Lw *w, int k)
{
	return lw_isimm(w, k);
}

int64_t
ix_immv(Lw *w, int k)
{
	return lw_imm(w, k);
}

int
ix_is_reg(const char *s)
{
	return s[0] == '%' || !strcmp(s, "RZ");
}

/* operand k's register is of `kind` (or, for kind < 0, not a predicate): else an error */
static int
reg_kind_ok(Lw *w, int k, int kind)
{
	const LwReg *r = lw_regof(w, k);

	if (!r)
		return 1;
	if (kind < 0 ? r->kind == LkPred : kind == Lk64 ? r->kind != Lk64 :
	    kind == LkPred ? r->kind != LkPred : 0)
		return !lw_error_opnd(w, k, "operand %d must be a %s register here", k,
		                      kind == Lk64 ? "64-bit" : kind == LkPred ? "predicate" :
		                      "value (not a predicate)");
	return 1;
}

const char *
ix_dreg(Lw *w, int k, int bits)
{
	if (!reg_kind_ok(w, k, bits == 64 ? Lk64 : bits == 1 ? LkPred : -1))
		return bits == 1 ? "PT" : "RZ";
	return lw_reg(w, k);
}

const char *
ix_b(Lw *w, int k)
{
	if (ix_isimm(w, k))
		return ix_imm(w, (uint32_t)ix_immv(w, k));
	if (!reg_kind_ok(w, k, -1))
		return "RZ";
	return lw_src(w, k);
}

const char *
ix_a(Lw *w, int k)
{
	const char *s = K(ix_b(w, k));

	if (ix_is_reg(s))
		return s;
	const char *t = K(lw_tmp(w));
	lw_emit(w, "MOV %s, %s", t, s);
	return t;
}

const char *
ix_extreg(Lw *w, const char *r, int bits, int sgn)
{
	const char *t;

	if (bits >= 32 || !strcmp(r, "RZ"))
		return r;
	t = lw_tmp(w);
	if (sgn)
		lw_emit(w, "PRMT %s, %s, 0x%s, RZ", t, r, bits == 8 ? "8880" : "9910");
	else
		lw_emit(w, "LOP3.LUT %s, %s, 0x%s, RZ, 0xc0, !PT", t, r, bits == 8 ? "ff" : "ffff");
	return t;
}

const char *
ix_ext(Lw *w, int k, int bits, int sgn)
{
	if (bits >= 32)
		return ix_b(w, k);
	if (ix_isimm(w, k)) {
		uint32_t v = (uint32_t)ix_immv(w, k), m = (1u << bits) - 1;
		v &= m;
		if (sgn && (v >> (bits - 1)) & 1)
			v |= ~m;
		return ix_imm(w, v);
	}
	return ix_extreg(w, ix_a(w, k), bits, sgn);
}

const char *
ix_aext(Lw *w, int k, int bits, int sgn)
{
	const char *s = K(ix_ext(w, k, bits, sgn));

	if (ix_is_reg(s))
		return s;
	const char *t = K(lw_tmp(w));
	lw_emit(w, "MOV %s, %s", t, s);
	return t;
}

const char *
ix_pair(Lw *w, int k)
{
	if (!ix_isimm(w, k))
		return reg_kind_ok(w, k, Lk64) ? lw_reg(w, k) : "RZ";
	const char *t = K(lw_tmp64(w));
	lw_emit(w, "MOV %s, %s", t, lw_lo(w, k));
	lw_emit(w, "MOV %s, %s", lw_elem(w, t, 1), lw_hi(w, k));
	return t;
}

const char *
ix_lo(Lw *w, int k)
{
	if (!ix_isimm(w, k) && !reg_kind_ok(w, k, Lk64))
		return "RZ";
	return lw_lo(w, k);
}

const char *
ix_hi(Lw *w, int k)
{
	if (!ix_isimm(w, k) && !reg_kind_ok(w, k, Lk64))
		return "RZ";
	return lw_hi(w, k);
}

const char *
ix_hireg(Lw *w, int k)
{
	if (!ix_isimm(w, k))
		return ix_hi(w, k);
	const char *t = K(lw_tmp(w));
	lw_emit(w, "MOV %s, %s", t, lw_hi(w, k));
	return t;
}

const char *
ix_pred(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);
	char *s = ring_str(w);

	if (o && lw_isimm(w, k)) {
		snprintf(s, LwStr, "%s", lw_imm(w, k) ? "PT" : "!PT");
		return s;
	}
	if (!reg_kind_ok(w, k, LkPred))
		return "PT";
	snprintf(s, LwStr, "%s%s", o && o->neg ? "!" : "", lw_reg(w, k));
	return s;
}

const char *
ix_pdst(Lw *w, int k, int e)
{
	const char *s = K(lw_vec(w, k, e));

	return strcmp(s, "RZ") ? s : "PT";
}

const char *
ix_keep(const char *s)
{
	static char names[IxKeep][LwStr];
	static unsigned pos;
	char *r;
	size_t n;

	if (!s)
		s = "";
	r = names[pos++ % IxKeep];
	n = strlen(s);
	if (n >= LwStr)
		n = LwStr - 1;
	memmove(r, s, n);
	r[n] = 0;
	return r;
}

void
ix_emit(Lw *w, int g, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (g)
		lw_emit(w, "%s", buf);
	else
		lw_emit_ng(w, "%s", buf);
}

/* the LUT of F with its inputs reordered: slot j of the new order reads old input ord[j] */
static unsigned
lut_perm(unsigned lut, const int ord[3])
{
	unsigned r = 0;

	for (unsigned i = 0; i < 8; i++) {
		unsigned slot[3] = { (i >> 2) & 1, (i >> 1) & 1, i & 1 }, old[3] = { 0, 0, 0 };
		for (int j = 0; j < 3; j++)
			old[ord[j]] = slot[j];
		r |= ((lut >> (old[0] * 4 + old[1] * 2 + old[2])) & 1) << i;
	}
	return r;
}

void
ix_lop3(Lw *w, int g, const char *pd, const char *d, const char *a, const char *b,
        const char *c, unsigned lut, const char *q)
{
	const char *in[3] = { a, b, c };
	int ord[3] = { 0, 1, 2 }, nonreg = -1;

	for (int k = 0; k < 3; k++) {
		if (ix_is_reg(in[k]))
			continue;
		if (nonreg < 0) {
			nonreg = k;
			continue;
		}
		const char *t = K(lw_tmp(w));
		lw_emit(w, "MOV %s, %s", t, in[k]);
		in[k] = t;
	}
	if (nonreg >= 0 && nonreg != 1) {
		const char *s = in[1];
		in[1] = in[nonreg];
		in[nonreg] = s;
		ord[1] = nonreg;
		ord[nonreg] = 1;
		lut = lut_perm(lut, ord);
	}
	if (pd)
		ix_emit(w, g, "LOP3.LUT %s, %s, %s, %s, %s, 0x%x, %s", pd, d, in[0], in[1], in[2],
		        lut & 0xff, q ? q : "!PT");
	else
		ix_emit(w, g, "LOP3.LUT %s, %s, %s, %s, 0x%x, !PT", d, in[0], in[1], in[2], lut & 0xff);
}

/* ---- 64-bit helpers ------------------------------------------------------------------------ */

/* the b-slot text of a 32-bit word negated (-x) or inverted (~x): immediates folded */
static const char *
neg_text(Lw *w, const char *s, int inv)
{
	char *r;

	if (s[0] == '%' || s[0] == 'c' || !strcmp(s, "RZ")) {
		if (!strcmp(s, "RZ") && !inv)
			return "RZ";
		r = ring_str(w);
		snprintf(r, LwStr, "%s%s", inv ? "~" : "-", s);
		return r;
	}
	uint32_t v = (uint32_t)strtoll(s, NULL, 0);
	if (s[0] == '-')
		v = (uint32_t)-(int64_t)strtoll(s + 1, NULL, 0);
	return ix_imm(w, inv ? ~v : -v);
}

void
ix_add64(Lw *w, int g, const char *d, const char *a, const char *blo, const char *bhi, int sub)
{
	const char *p = K(lw_ptmp(w));

	if (sub) {
		/* a - b = a + ~b + 1: the low word's -b, the high word's ~b */
		if (!ix_is_reg(blo) && blo[0] != 'c' && !ix_is_reg(bhi) && bhi[0] != 'c') {
			uint64_t v = (uint64_t)(uint32_t)strtoll(blo[0] == '-' ? blo + 1 : blo, NULL, 0);
			uint64_t h = (uint64_t)(uint32_t)strtoll(bhi[0] == '-' ? bhi + 1 : bhi, NULL, 0);
			if (blo[0] == '-')
				v = (uint32_t)-(int64_t)v;
			if (bhi[0] == '-')
				h = (uint32_t)-(int64_t)h;
			uint64_t n = -(v | h << 32);
			blo = ix_imm(w, (uint32_t)n);
			bhi = ix_imm(w, (uint32_t)(n >> 32));
		} else {
			blo = neg_text(w, blo, 0);
			bhi = neg_text(w, bhi, 1);
		}
	}
	ix_emit(w, g, "IADD3 %s, %s, %s, %s, RZ", d, p, a, blo);
	ix_emit(w, g, "IADD3.X %s, %s, %s, RZ, %s, !PT", lw_elem(w, d, 1), lw_elem(w, a, 1), bhi, p);
}

void
ix_neg64(Lw *w, int g, const char *d, const char *a)
{
	const char *p = K(lw_ptmp(w));

	ix_emit(w, g, "IADD3 %s, %s, RZ, -%s, RZ", d, p, a);
	ix_emit(w, g, "IADD3.X %s, RZ, ~%s, RZ, %s, !PT", lw_elem(w, d, 1), lw_elem(w, a, 1), p);
}

void
ix_cmp64(Lw *w, int g, const char *p, const char *q, const char *cmp, int sgn, const char *alo,
         const char *ahi, const char *blo, const char *bhi, const char *bop, const char *c)
{
	const char *t = K(lw_ptmp(w));

	ix_emit(w, g, "ISETP.%s.U32.AND %s, PT, %s, %s, PT", cmp, t, alo, blo);
	ix_emit(w, g, "ISETP.%s%s.%s.EX %s, %s, %s, %s, %s, %s", cmp, sgn ? "" : ".U32", bop, p, q,
	        ahi, bhi, c, t);
}

/* ---- add, sub ------------------------------------------------------------------------------ */

/* d = sat(a + b) (sub: a - b) for s32: the sum wraps when a and b (a and -b) have one sign and
 * the sum the other; then the bound of a's sign */
static void
add_sat(Lw *w, const char *d, const char *a, const char *b, int sub)
{
	const char *t = K(lw_tmp(w)), *ov = K(lw_tmp(w)), *s = K(lw_tmp(w)), *p = K(lw_ptmp(w));

	lw_emit(w, "IADD3 %s, %s, %s, RZ", t, a, sub ? neg_text(w, b, 0) : b);
	/* add: (a ^ t) & (b ^ t); sub: (a ^ b) & (a ^ t) */
	ix_lop3(w, 1, NULL, ov, a, b, t, sub ? 0x18 : 0x42, NULL);
	lw_emit(w, "ISETP.LT.AND %s, PT, %s, RZ, PT", p, ov);
	lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", s, a);
	lw_emit(w, "LOP3.LUT %s, %s, 0x7fffffff, RZ, 0x3c, !PT", s, s);
	lw_emit(w, "SEL %s, %s, %s, %s", d, s, t, p);
}

/* add.cc, addc[.cc], sub.cc, subc[.cc]: the carry in a predicate; for sub the flag is the
 * borrow (PTX), the inverse of IADD3's carry of a + ~b + 1 */
static int
sel_carry(Lw *w, int sub)
{
	const char *cc = K(lw_carry(w)), *d = K(ix_dreg(w, 0, ix_bits(w)));
	int in = ix_op(w, "addc") || ix_op(w, "subc"), out = lw_has(w, "cc"), bits = ix_bits(w);
	const char *cin = in ? (sub ? "!" : "") : NULL;
	char cin_s[LwStr];

	if (bits != 32 && bits != 64)
		return lw_error(w, "the carry chain on .%s (32 and 64 bits only)", lw_type(w));
	if (cin)
		snprintf(cin_s, sizeof cin_s, "%s%s", cin, cc);
	int ka = ix_isimm(w, 1) && !ix_isimm(w, 2) && !sub ? 2 : 1, kb = 3 - ka;
	if (bits == 32) {
		const char *a = K(ix_a(w, ka)), *b = K(ix_b(w, kb));
		if (sub)
			b = neg_text(w, b, in);
		if (!in)
			lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, cc, a, b);
		else if (out)
			lw_emit(w, "IADD3.X %s, %s, %s, %s, RZ, %s, !PT", d, cc, a, b, cin_s);
		else
			lw_emit(w, "IADD3.X %s, %s, %s, RZ, %s, !PT", d, a, b, cin_s);
	} else {
		const char *a = K(ix_pair(w, ka)), *blo = K(ix_lo(w, kb)), *bhi = K(ix_hi(w, kb));
		const char *p = K(lw_ptmp(w));
		if (sub) {
			blo = neg_text(w, blo, in);
			bhi = neg_text(w, bhi, 1);
		}
		if (in)
			lw_emit(w, "IADD3.X %s, %s, %s, %s, RZ, %s, !PT", d, p, a, blo, cin_s);
		else
			lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, p, a, blo);
		if (out)
			lw_emit(w, "IADD3.X %s, %s, %s, %s, RZ, %s, !PT", lw_elem(w, d, 1), cc,
			        lw_elem(w, a, 1), bhi, p);
		else
			lw_emit(w, "IADD3.X %s, %s, %s, RZ, %s, !PT", lw_elem(w, d, 1), lw_elem(w, a, 1),
			        bhi, p);
	}
	if (out && sub)
		lw_emit(w, "PLOP3.LUT %s, PT, %s, PT, PT, 0x0f, 0x0", cc, cc);
	return 0;
}

/* add, sub: IADD3 d, a, b, RZ (sub: -b); 64-bit IADD3 with IADD3.X; .sat.s32 */
static int
sel_add(Lw *w)
{
	int sub = ix_op(w, "sub") || ix_op(w, "subc"), bits = ix_bits(w);
	const char *d;

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (lw_has(w, "cc") || ix_op(w, "addc") || ix_op(w, "subc"))
		return sel_carry(w, sub);
	if (!strcmp(lw_type(w), "s16x2") || !strcmp(lw_type(w), "u16x2")) {
		/* two 16-bit sums: the low half from a + b, the high one from the high halves */
		const char *a = K(ix_a(w, 1)), *b = K(ix_a(w, 2)), *lo = K(lw_tmp(w)), *ah = K(lw_tmp(w));
		const char *hi = K(lw_tmp(w));
		if (lw_has(w, "sat"))
			return lw_error(w, ".sat on .%s", lw_type(w));
		lw_emit(w, "IADD3 %s, %s, %s%s, RZ", lo, a, sub ? "-" : "", b);
		lw_emit(w, "LOP3.LUT %s, %s, 0xffff0000, RZ, 0xc0, !PT", ah, a);
		if (sub) {
			const char *bh = K(lw_tmp(w));
			lw_emit(w, "LOP3.LUT %s, %s, 0xffff0000, RZ, 0xc0, !PT", bh, b);
			lw_emit(w, "IADD3 %s, %s, -%s, RZ", hi, ah, bh);
		} else {
			lw_emit(w, "IADD3 %s, %s, %s, RZ", hi, ah, b);
		}
		lw_emit(w, "PRMT %s, %s, 0x7610, %s", ix_dreg(w, 0, 32), lo, hi);
		return 0;
	}
	d = K(ix_dreg(w, 0, bits));
	/* an immediate first operand: swapped (sub: -b + a) */
	int ka = ix_isimm(w, 1) && !ix_isimm(w, 2) ? 2 : 1, kb = 3 - ka;
	if (bits == 64) {
		if (lw_has(w, "sat"))
			return lw_error(w, ".sat on .%s (s32 only)", lw_type(w));
		if (ka == 2 && sub) {                 /* imm - b = -b + imm */
			const char *n = K(lw_tmp64(w));
			ix_neg64(w, 1, n, ix_pair(w, 2));
			ix_add64(w, 1, d, n, ix_lo(w, 1), ix_hi(w, 1), 0);
			return 0;
		}
		ix_add64(w, 1, d, ix_pair(w, ka), ix_lo(w, kb), ix_hi(w, kb), sub);
		return 0;
	}
	if (lw_has(w, "sat")) {
		if (strcmp(lw_type(w), "s32"))
			return lw_error(w, ".sat on .%s (s32 only)", lw_type(w));
		add_sat(w, d, ix_a(w, 1), ix_b(w, 2), sub);
		return 0;
	}
	const char *a = K(ix_a(w, ka)), *b = K(ix_b(w, kb));
	if (sub && ka == 2)
		lw_emit(w, "IADD3 %s, -%s, %s, RZ", d, a, b);
	else if (arch_has(w->arch, ArchViadd) && !ix_is_reg(b) && b[0] != 'c')   /* a + immediate */
		lw_emit(w, "VIADD %s, %s, %s", d, a, sub ? neg_text(w, b, 0) : b);
	else
		lw_emit(w, "IADD3 %s, %s, %s, RZ", d, a, sub ? neg_text(w, b, 0) : b);
	return 0;
}

/* ---- mul, mad ------------------------------------------------------------------------------ */

/* t = hi 64 bits of the 128-bit product a * b (unsigned), as nvcc: the middle products summed
 * with their carries (IMAD.WIDE.U32 with carry out, IMAD.WIDE.U32.X) */
static void
mulhi_u64(Lw *w, const char *t, const char *a, const char *blo, const char *bhi)
{
	const char *hl = K(lw_tmp64(w)), *ll = K(lw_tmp64(w)), *p0 = K(lw_ptmp(w)), *p1 = K(lw_ptmp(w));
	const char *a1 = K(lw_elem(w, a, 1));

	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, RZ", hl, a1, blo);          /* ahi*blo */
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, RZ", ll, a, blo);           /* alo*blo */
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, %s, %s", hl, p0, a, bhi, hl); /* + alo*bhi */
	lw_emit(w, "IMAD.X %s, RZ, RZ, RZ, %s", lw_elem(w, t, 1), p0);
	lw_emit(w, "IADD3 RZ, %s, %s, %s, RZ", p1, lw_elem(w, ll, 1), hl);
	lw_emit(w, "MOV %s, %s", t, lw_elem(w, hl, 1));
	lw_emit(w, "IMAD.WIDE.U32.X %s, %s, %s, %s, %s", t, a1, bhi, t, p1);
}

/* the signed high half from the unsigned one: minus (a < 0 ? b : 0) and (b < 0 ? a : 0) */
static void
mulhi_fix(Lw *w, const char *d, const char *u, const char *a, int kb)
{
	const char *ma = K(lw_tmp(w)), *mb = K(lw_tmp(w)), *x = K(lw_tmp64(w)), *y = K(lw_tmp64(w));
	const char *v = K(lw_tmp64(w));

	lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", ma, lw_elem(w, a, 1));
	lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", mb, ix_hireg(w, kb));
	ix_lop3(w, 1, NULL, x, ix_lo(w, kb), ma, "RZ", 0xc0, NULL);
	ix_lop3(w, 1, NULL, lw_elem(w, x, 1), ix_hi(w, kb), ma, "RZ", 0xc0, NULL);
	lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0xc0, !PT", y, a, mb);
	lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0xc0, !PT", lw_elem(w, y, 1), lw_elem(w, a, 1), mb);
	ix_add64(w, 1, v, u, x, lw_elem(w, x, 1), 1);
	ix_add64(w, 1, d, v, y, lw_elem(w, y, 1), 1);
}

/* d = low 64 bits of a * b (+ c): the cross products into t first, as nvcc */
static void
mullo_64(Lw *w, const char *d, const char *a, const char *blo, const char *bhi, const char *c)
{
	const char *t = K(lw_tmp(w));

	lw_emit(w, "IMAD %s, %s, %s, RZ", t, lw_elem(w, a, 1), blo);
	if (ix_is_reg(bhi))
		lw_emit(w, "IMAD %s, %s, %s, %s", t, bhi, a, t);
	else
		lw_emit(w, "IMAD %s, %s, %s, %s", t, a, bhi, t);
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, %s", d, a, blo, c ? c : "RZ");
	lw_emit(w, "IADD3 %s, %s, %s, RZ", lw_elem(w, d, 1), lw_elem(w, d, 1), t);
}

/* 16-bit .hi: the product of the extended halves, shifted down */
static const char *
mulhi_16(Lw *w, int ka, int kb, int sgn)
{
	const char *t = K(lw_tmp(w)), *h = K(lw_tmp(w));

	lw_emit(w, "IMAD %s, %s, %s, RZ", t, ix_aext(w, ka, 16, sgn), ix_ext(w, kb, 16, sgn));
	lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x10, %s", h, t);
	return h;
}

/* mul, mad: .lo, .hi, .wide of 16, 32 and 64 bits; mad.hi.sat.s32; the carry forms of mad */
static int
sel_mul(Lw *w)
{
	int mad = ix_op(w, "mad") || ix_op(w, "madc"), bits = ix_bits(w), sgn = ix_sgn(w);
	int hi = lw_has(w, "hi"), wide = lw_has(w, "wide");
	const char *u = sgn ? "" : ".U32", *d;

	if (ix_nopnd(w, mad ? 4 : 3) < 0)
		return -1;
	if (!hi && !wide && !lw_has(w, "lo"))
		return lw_error(w, "mul/mad takes .lo, .hi or .wide");
	if (wide && bits == 64)
		return lw_error(w, ".wide on .%s (16 and 32 bits only)", lw_type(w));
	if (lw_has(w, "sat") && !(hi && mad && !strcmp(lw_type(w), "s32")))
		return lw_error(w, ".sat (mad.hi.sat.s32 only)");
	int ka = ix_isimm(w, 1) && !ix_isimm(w, 2) ? 2 : 1, kb = 3 - ka;
	d = K(ix_dreg(w, 0, wide ? 2 * bits : bits));
	if (lw_has(w, "cc") || ix_op(w, "madc")) {   /* the carry chain: t = a*b part, + c */
		const char *cc = K(lw_carry(w)), *t = K(lw_tmp(w));
		int in = ix_op(w, "madc"), out = lw_has(w, "cc");
		if (bits != 32 || wide)
			return lw_error(w, "the carry chain of mad on .%s (.lo/.hi of 32 bits only)",
			                lw_type(w));
		lw_emit(w, "IMAD%s%s %s, %s, %s, RZ", hi ? ".HI" : "", hi ? u : "", t, ix_a(w, ka),
		        ix_b(w, kb));
		const char *c = K(ix_b(w, 3));
		if (!in)
			lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, cc, t, c);
		else if (out)
			lw_emit(w, "IADD3.X %s, %s, %s, %s, RZ, %s, !PT", d, cc, t, c, cc);
		else
			lw_emit(w, "IADD3.X %s, %s, %s, RZ, %s, !PT", d, t, c, cc);
		return 0;
	}
	if (bits == 64) {
		const char *a = K(ix_pair(w, ka)), *blo = K(ix_lo(w, kb)), *bhi = K(ix_hi(w, kb));
		if (!hi) {
			mullo_64(w, d, a, blo, bhi, mad ? ix_pair(w, 3) : NULL);
			return 0;
		}
		const char *t = K(lw_tmp64(w)), *s = K(lw_tmp64(w));
		mulhi_u64(w, t, a, blo, bhi);
		if (sgn)
			mulhi_fix(w, mad ? s : d, t, a, kb);
		if (!sgn && !mad) {
			lw_emit(w, "MOV %s, %s", d, t);
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_elem(w, t, 1));
		}
		if (mad)
			ix_add64(w, 1, d, sgn ? s : t, ix_lo(w, 3), ix_hi(w, 3), 0);
		return 0;
	}
	if (bits == 16) {
		if (wide) {
			lw_emit(w, "IMAD %s, %s, %s, %s", d, ix_aext(w, ka, 16, sgn), ix_ext(w, kb, 16, sgn),
			        mad ? ix_a(w, 3) : "RZ");
		} else if (hi) {
			const char *h = K(mulhi_16(w, ka, kb, sgn));
			if (mad)
				lw_emit(w, "IADD3 %s, %s, %s, RZ", d, h, ix_b(w, 3));
			else
				lw_emit(w, "MOV %s, %s", d, h);
		} else {
			lw_emit(w, "IMAD %s, %s, %s, %s", d, ix_a(w, ka), ix_b(w, kb), mad ? ix_a(w, 3) : "RZ");
		}
		return 0;
	}
	if (bits != 32)
		return lw_error(w, "mul/mad on .%s", lw_type(w));
	const char *a = K(ix_a(w, ka)), *b = K(ix_b(w, kb));
	if (wide) {
		lw_emit(w, "IMAD.WIDE%s %s, %s, %s, %s", u, d, a, b, mad ? ix_pair(w, 3) : "RZ");
	} else if (hi) {
		if (!mad) {
			lw_emit(w, "IMAD.HI%s %s, %s, %s, RZ", u, d, a, b);
			return 0;
		}
		const char *t = K(lw_tmp(w));
		lw_emit(w, "IMAD.HI%s %s, %s, %s, RZ", u, t, a, b);
		if (lw_has(w, "sat"))
			add_sat(w, d, t, ix_b(w, 3), 0);
		else
			lw_emit(w, "IADD3 %s, %s, %s, RZ", d, t, ix_b(w, 3));
	} else {
		lw_emit(w, "IMAD %s, %s, %s, %s", d, a, b, mad ? ix_a(w, 3) : "RZ");
	}
	return 0;
}

/* mul24, mad24: the low 24 bits of a and b extended, then .lo: IMAD; .hi: bits 47..16 of the
 * 48-bit product (IMAD.WIDE, SHF.R.U64) */
static const char *
ext24(Lw *w, int k, int sgn)
{
	if (ix_isimm(w, k)) {
		uint32_t v = (uint32_t)ix_immv(w, k) & 0xffffff;
		if (sgn && (v & 0x800000))
			v |= 0xff000000u;
		return ix_imm(w, v);
	}
	const char *t = K(lw_tmp(w));
	lw_emit(w, "SGXT%s %s, %s, 0x18", sgn ? "" : ".U32", t, ix_a(w, k));
	return t;
}

static int
sel_mul24(Lw *w)
{
	int mad = ix_op(w, "mad24"), sgn = ix_sgn(w), hi = lw_has(w, "hi");
	const char *d = K(ix_dreg(w, 0, 32));

	if (ix_nopnd(w, mad ? 4 : 3) < 0)
		return -1;
	if (ix_bits(w) != 32 || (!hi && !lw_has(w, "lo")))
		return lw_error(w, "%s takes .lo or .hi and .u32 or .s32", mad ? "mad24" : "mul24");
	if (lw_has(w, "sat") && !(mad && hi && sgn))
		return lw_error(w, ".sat (mad24.hi.sat.s32 only)");
	int ka = ix_isimm(w, 1) && !ix_isimm(w, 2) ? 2 : 1, kb = 3 - ka;
	const char *a = K(ext24(w, ka, sgn)), *b = K(ext24(w, kb, sgn));
	if (!ix_is_reg(a)) {
		const char *t = K(lw_tmp(w));
		lw_emit(w, "MOV %s, %s", t, a);
		a = t;
	}
	if (!hi) {
		lw_emit(w, "IMAD %s, %s, %s, %s", d, a, b, mad ? ix_a(w, 3) : "RZ");
		return 0;
	}
	const char *p = K(lw_tmp64(w)), *h = K(mad ? lw_tmp(w) : d);
	lw_emit(w, "IMAD.WIDE%s %s, %s, %s, RZ", sgn ? "" : ".U32", p, a, b);
	lw_emit(w, "SHF.R.U64 %s, %s, 0x10, %s", h, p, lw_elem(w, p, 1));
	if (!mad)
		return 0;
	if (lw_has(w, "sat"))
		add_sat(w, d, h, ix_b(w, 3), 0);
	else
		lw_emit(w, "IADD3 %s, %s, %s, RZ", d, h, ix_b(w, 3));
	return 0;
}

/* sad: |a - b| + c: VABSDIFF[.U32] (16-bit: extended first; 64-bit: compare and select) */
static int
sel_sad(Lw *w)
{
	int bits = ix_bits(w), sgn = ix_sgn(w);
	const char *d = K(ix_dreg(w, 0, bits));

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (bits == 64) {
		const char *a = K(ix_pair(w, 1)), *b = K(ix_pair(w, 2)), *x = K(lw_tmp64(w)), *y = K(lw_tmp64(w));
		const char *p = K(lw_ptmp(w)), *s = K(lw_tmp64(w));
		ix_add64(w, 1, x, a, b, lw_elem(w, b, 1), 1);
		ix_add64(w, 1, y, b, a, lw_elem(w, a, 1), 1);
		ix_cmp64(w, 1, p, "PT", "LT", sgn, a, lw_elem(w, a, 1), b, lw_elem(w, b, 1), "AND", "PT");
		lw_emit(w, "SEL %s, %s, %s, %s", s, y, x, p);
		lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, s, 1), lw_elem(w, y, 1), lw_elem(w, x, 1), p);
		ix_add64(w, 1, d, s, ix_lo(w, 3), ix_hi(w, 3), 0);
		return 0;
	}
	if (bits != 16 && bits != 32)
		return lw_error(w, "sad on .%s", lw_type(w));
	lw_emit(w, "VABSDIFF%s %s, %s, %s, %s", sgn ? "" : ".U32", d, ix_aext(w, 1, bits, sgn),
	        ix_ext(w, 2, bits, sgn), ix_aext(w, 3, 32, 0));
	return 0;
}

/* ---- abs, neg, min, max -------------------------------------------------------------------- */

static int
sel_absneg(Lw *w)
{
	int bits = ix_bits(w), abs = ix_op(w, "abs");
	const char *d = K(ix_dreg(w, 0, bits));

	if (ix_nopnd(w, 2) < 0)
		return -1;
	if (!ix_sgn(w))
		return lw_error(w, "%s on .%s", abs ? "abs" : "neg", lw_type(w));
	if (bits == 64) {
		const char *a = K(ix_pair(w, 1)), *n = K(abs ? lw_tmp64(w) : d);
		ix_neg64(w, 1, n, a);
		if (!abs)
			return 0;
		const char *p = K(lw_ptmp(w));
		lw_emit(w, "ISETP.LT.AND %s, PT, %s, RZ, PT", p, lw_elem(w, a, 1));
		lw_emit(w, "SEL %s, %s, %s, %s", d, n, a, p);
		lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, d, 1), lw_elem(w, n, 1), lw_elem(w, a, 1), p);
		return 0;
	}
	if (bits != 16 && bits != 32)
		return lw_error(w, "%s on .%s", abs ? "abs" : "neg", lw_type(w));
	if (!abs) {
		lw_emit(w, "IADD3 %s, RZ, %s, RZ", d, neg_text(w, ix_b(w, 1), 0));
		return 0;
	}
	lw_emit(w, "IABS %s, %s", d, ix_ext(w, 1, bits, 1));
	return 0;
}

/* min, max: IMNMX[.U32] d, a, b, PT (min) / !PT (max) on sm_80, VIMNMX on sm_90; .relu; 16-bit
 * extended; 64-bit a compare and two SELs; .s16x2/.u16x2 per half */
static int
sel_minmax(Lw *w)
{
	int bits = ix_bits(w), sgn = ix_sgn(w), mn = ix_op(w, "min"), relu = lw_has(w, "relu");
	const char *t = K(lw_type(w)), *d = K(ix_dreg(w, 0, bits == 64 ? 64 : 32)), *u = sgn ? "" : ".U32";
	const char *op = arch_has(w->arch, ArchVimnmx) ? "VIMNMX" : "IMNMX", *pm = K(mn ? "PT" : "!PT");

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (relu && strcmp(t, "s32") && strcmp(t, "s16x2"))
		return lw_error(w, ".relu on .%s (s32 and s16x2 only)", t);
	int ka = ix_isimm(w, 1) && !ix_isimm(w, 2) ? 2 : 1, kb = 3 - ka;
	if (!strcmp(t, "s16x2") || !strcmp(t, "u16x2")) {
		if (arch_has(w->arch, ArchVimnmx)) {
			lw_emit(w, "VIMNMX.%s16x2%s %s, %s, %s, %s", sgn ? "S" : "U", relu ? ".RELU" : "", d,
			        ix_a(w, ka), ix_a(w, kb), pm);
			return 0;
		}
		/* sm_80: each half extended, IMNMX, packed back */
		const char *a = K(ix_a(w, ka)), *b = K(ix_a(w, kb)), *lo = K(lw_tmp(w)), *hi = K(lw_tmp(w));
		const char *ah = K(lw_tmp(w)), *bh = K(lw_tmp(w));
		const char *al = K(ix_extreg(w, a, 16, sgn)), *bl = K(ix_extreg(w, b, 16, sgn));
		lw_emit(w, "IMNMX%s %s, %s, %s, %s", u, lo, al, bl, pm);
		lw_emit(w, "SHF.R.%s32.HI %s, RZ, 0x10, %s", sgn ? "S" : "U", ah, a);
		lw_emit(w, "SHF.R.%s32.HI %s, RZ, 0x10, %s", sgn ? "S" : "U", bh, b);
		lw_emit(w, "IMNMX%s %s, %s, %s, %s", u, hi, ah, bh, pm);
		if (relu) {
			lw_emit(w, "IMNMX %s, %s, RZ, !PT", lo, lo);
			lw_emit(w, "IMNMX %s, %s, RZ, !PT", hi, hi);
		}
		lw_emit(w, "PRMT %s, %s, 0x5410, %s", d, lo, hi);
		return 0;
	}
	if (bits == 64) {
		const char *a = K(ix_pair(w, ka)), *p = K(lw_ptmp(w));
		ix_cmp64(w, 1, p, "PT", mn ? "LT" : "GT", sgn, a, lw_elem(w, a, 1), ix_lo(w, kb),
		         ix_hi(w, kb), "AND", "PT");
		lw_emit(w, "SEL %s, %s, %s, %s", d, a, ix_lo(w, kb), p);
		lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, d, 1), lw_elem(w, a, 1), ix_hi(w, kb), p);
		return 0;
	}
	if (bits != 16 && bits != 32)
		return lw_error(w, "%s on .%s", mn ? "min" : "max", t);
	const char *a = K(ix_aext(w, ka, bits, sgn)), *b = K(ix_ext(w, kb, bits, sgn));
	if (relu && arch_has(w->arch, ArchVimnmx)) {
		lw_emit(w, "VIMNMX.RELU %s, %s, %s, %s", d, a, b, pm);
	} else if (relu) {
		const char *m = K(lw_tmp(w));
		lw_emit(w, "IMNMX %s, %s, %s, %s", m, a, b, pm);
		lw_emit(w, "IMNMX %s, RZ, %s, !PT", d, m);
	} else {
		lw_emit(w, "%s%s %s, %s, %s, %s", op, u, d, a, b, pm);
	}
	return 0;
}

/* dp4a.atype.btype d, a, b, c: IDP.4A.{S8|U8}.{S8|U8}; dp2a.lo|hi: IDP.2A.LO|HI.{S16|U16}.{S8|U8} */
static int
sel_dp(Lw *w)
{
	const char *ta = K(lw_type_n(w, 0)), *tb = K(lw_type_n(w, 1));
	int two = ix_op(w, "dp2a"), hi = lw_has(w, "hi");

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (lw_type_bits(ta) != 32 || lw_type_bits(tb) != 32 || lw_type_float(ta) ||
	    lw_type_float(tb) || (two && !hi && !lw_has(w, "lo")))
		return lw_error(w, "%s takes two .u32/.s32 types%s", two ? "dp2a" : "dp4a",
		                two ? " and .lo or .hi" : "");
	lw_emit(w, "IDP.%s%s.%s%s.%s8 %s, %s, %s, %s", two ? "2A" : "4A", two ? (hi ? ".HI" : ".LO") : "",
	        lw_type_signed(ta) ? "S" : "U", two ? "16" : "8", lw_type_signed(tb) ? "S" : "U",
	        ix_dreg(w, 0, 32), ix_a(w, 1), ix_b(w, 2), ix_a(w, 3));
	return 0;
}

/* vabsdiff4.dtype.atype.btype[.add] d, a, b, c with the default mask and selectors: the four
 * byte differences |a.k - b.k| packed (VABSDIFF4.U8 d, a, b, RZ), or with .add their sum plus c
 * (VABSDIFF4.U8.ACC); signed types: .S8 */
static int
sel_vabsdiff4(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *at = lw_type_n(w, 1), *bt = lw_type_n(w, 2);
	int add = lw_has(w, "add"), sgn = lw_type_signed(at);

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (lw_has(w, "sat") || lw_type_bits(dt) != 32 || strcmp(at, bt) || lw_type_bits(at) != 32 ||
	    lw_type_float(at) || lw_type_n(w, 3)[0])
		return lw_error(w, "vabsdiff4 takes one 32-bit integer type for a and b, no .sat");
	for (int k = 0; k < 3; k++) {
		const PtxOpnd *o = lw_opnd(w, k);
		if (o && o->kind == PoName && o->sfx)
			return lw_error_opnd(w, k, "a byte mask or selector on vabsdiff4");
	}
	lw_emit(w, "VABSDIFF4.%s8%s %s, %s, %s, %s", sgn ? "S" : "U", add ? ".ACC" : "", ix_dreg(w, 0, 32),
	        ix_a(w, 1), ix_a(w, 2), add ? ix_a(w, 3) : "RZ");
	return 0;
}

/* fns (find the n-th set bit): not written */
static int
sel_fns(Lw *w)
{
	return lw_error(w, "fns (find n-th set bit) is not selected");
}

const SelRow ptxsel_int[] = {
	{ "add", TcInt, sel_add, "IADD3 d, a, b, RZ (sm_90, b an immediate: VIADD d, a, b); 64-bit: IADD3 d, P, a, b, RZ + IADD3.X; .cc: carry predicate; .sat.s32: overflow check, SEL" },
	{ "sub", TcInt, sel_add, "IADD3 d, a, -b, RZ; 64-bit: IADD3 d, P, a, -b, RZ + IADD3.X d.hi, a.hi, ~b.hi; .cc: borrow (PLOP3 inverts)" },
	{ "addc", TcInt, sel_add, "IADD3.X d, [cc,] a, b, RZ, cc, !PT" },
	{ "subc", TcInt, sel_add, "IADD3.X d, [cc,] a, ~b, RZ, !cc, !PT; PLOP3 (borrow out)" },
	{ "mul", TcInt, sel_mul, "IMAD d, a, b, RZ; .hi: IMAD.HI[.U32]; .wide: IMAD.WIDE[.U32]; 64-bit: IMAD + IMAD.WIDE.U32 (.lo), IMAD.WIDE.U32 chain (.hi)" },
	{ "mad", TcInt, sel_mul, "IMAD d, a, b, c; .hi: IMAD.HI + IADD3; .wide: IMAD.WIDE[.U32] d, a, b, c; .cc: IMAD + IADD3 with carry" },
	{ "madc", TcInt, sel_mul, "IMAD[.HI] t, a, b, RZ; IADD3.X d, [cc,] t, c, RZ, cc, !PT" },
	{ "mul24", TcInt, sel_mul24, "SGXT[.U32] a, b to 24 bits; IMAD (.lo) / IMAD.WIDE + SHF.R.U64 0x10 (.hi)" },
	{ "mad24", TcInt, sel_mul24, "SGXT[.U32] a, b to 24 bits; IMAD d, a, b, c (.lo) / IMAD.WIDE + SHF.R.U64 + IADD3 (.hi)" },
	{ "sad", TcInt, sel_sad, "VABSDIFF[.U32] d, a, b, c (64-bit: two subtractions, ISETP, SEL, add)" },
	{ "abs", TcInt, sel_absneg, "IABS d, a; 64-bit: IADD3/IADD3.X negation, ISETP.LT, SEL x2" },
	{ "neg", TcInt, sel_absneg, "IADD3 d, RZ, -a, RZ; 64-bit: IADD3 d, P, RZ, -a, RZ + IADD3.X d.hi, RZ, ~a.hi" },
	{ "min", TcInt, sel_minmax, "IMNMX[.U32] d, a, b, PT (sm_90: VIMNMX[.RELU]); 64-bit: ISETP.LT + .EX, SEL x2" },
	{ "max", TcInt, sel_minmax, "IMNMX[.U32] d, a, b, !PT (sm_90: VIMNMX[.RELU]); 64-bit: ISETP.GT + .EX, SEL x2" },
	{ "dp4a", TcInt, sel_dp, "IDP.4A.{S8/U8}.{S8/U8} d, a, b, c" },
	{ "dp2a", TcInt, sel_dp, "IDP.2A.{LO/HI}.{S16/U16}.{S8/U8} d, a, b, c" },
	{ "div", TcInt, ix_sel_div, "I2F.U32.RP, MUFU.RCP, F2I.FTZ.U32.TRUNC.NTZ, IMAD.HI.U32, ISETP/IADD3 fix-ups (s32: IABS, sign); 64-bit: nvcc's __cuda_sm20_div_u64 body inline (I2F.U64.RP, F2I.U64.TRUNC, IMAD.WIDE.U32 chains)" },
	{ "rem", TcInt, ix_sel_div, "as div, the remainder a - q*b with its fix-ups (s32: the sign of a)" },
	{ "and", TcInt, ix_sel_logic, "LOP3.LUT d, a, b, RZ, 0xc0, !PT (64-bit: per word)" },
	{ "or", TcInt, ix_sel_logic, "LOP3.LUT d, a, b, RZ, 0xfc, !PT" },
	{ "xor", TcInt, ix_sel_logic, "LOP3.LUT d, a, b, RZ, 0x3c, !PT" },
	{ "not", TcInt, ix_sel_logic, "LOP3.LUT d, RZ, a, RZ, 0x33, !PT" },
	{ "cnot", TcInt, ix_sel_logic, "ISETP.NE.U32.AND p, PT, a, RZ, PT (16-bit: LOP3.LUT p, RZ, a, 0xffff); SEL d, RZ, 0x1, p" },
	{ "and", TcPred, ix_sel_logic, "PLOP3.LUT d, PT, a, b, PT, 0x80, 0x0" },
	{ "or", TcPred, ix_sel_logic, "PLOP3.LUT d, PT, a, b, PT, 0xa8, 0x0" },
	{ "xor", TcPred, ix_sel_logic, "PLOP3.LUT d, PT, a, b, PT, 0x28, 0x0" },
	{ "not", TcPred, ix_sel_logic, "PLOP3.LUT d, PT, a, PT, PT, 0x0f, 0x0" },
	{ "shl", TcInt, ix_sel_shift, "IMAD.SHL.U32 d, a, 2^n, RZ / SHF.L.U32 d, a, n, RZ; 64-bit: SHF.L.U64.HI + SHF.L.U32" },
	{ "shr", TcInt, ix_sel_shift, "SHF.R.{U32/S32}.HI d, RZ, n, a (16-bit: extended first); 64-bit: SHF.R.{U64/S64} + SHF.R.{U32/S32}.HI" },
	{ "shf", TcInt, ix_sel_shf, "SHF.L[.W].U32.HI d, a, c, b / SHF.R[.W].U32 d, a, c, b" },
	{ "prmt", TcInt, ix_sel_prmt, "PRMT[.F4E/.B4E/.RC8/.ECL/.ECR/.RC16] d, a, c, b" },
	{ "bfe", TcInt, ix_sel_bfe, "PRMT (pos, len bytes), SHF.R.{U32/S32}.HI, SGXT[.U32]; 64-bit: SHF right by pos, left and right by 64 - len" },
	{ "bfi", TcInt, ix_sel_bfi, "BMSK m, pos, len; SHF.L.U32 s, a, pos, RZ; LOP3.LUT d, s, m, b, 0xe2 (64-bit: masks from SHF pairs)" },
	{ "lop3", TcInt, ix_sel_lop3, "LOP3.LUT [p,] d, a, b, c, lut, q (.and: PLOP3 after)" },
	{ "popc", TcInt, ix_sel_count, "POPC d, a (64-bit: two and IADD3)" },
	{ "clz", TcInt, ix_sel_count, "FLO.U32 t, a; IADD3 d, -t, 0x1f, RZ (64-bit: ISETP, SEL, FLO, IADD3 x2, SEL)" },
	{ "bfind", TcInt, ix_sel_count, "FLO.{U32/S32}[.SH] d, a (64-bit: the high word first)" },
	{ "brev", TcInt, ix_sel_brev, "BREV d, a (64-bit: words swapped)" },
	{ "bmsk", TcInt, ix_sel_bmsk, "BMSK[.W] d, a, b" },
	{ "szext", TcInt, ix_sel_szext, "SGXT[.W][.U32] d, a, b" },
	{ "vabsdiff4", TcInt, sel_vabsdiff4, "VABSDIFF4.{U8/S8}[.ACC] d, a, b, RZ/c (default mask and selectors)" },
	{ "fns", TcInt, sel_fns, "(not selected: a located error)" },
	{ "setp", TcInt, ix_sel_setp, "ISETP.cmp[.U32].bop p, q, a, b, c (64-bit: ISETP.U32 + ISETP.EX; 16-bit: extended)" },
	{ "set", TcInt, ix_sel_set, "ISETP.cmp[.U32].bop p, PT, a, b, c; SEL d, RZ, 0xffffffff/1.0, !p" },
	{ "selp", TcInt, ix_sel_selp, "SEL d, a, b, c (64-bit: two)" },
	{ "slct", TcInt, ix_sel_slct, "ISETP.GE.AND p, PT, c, RZ, PT; SEL d, a, b, p" },
	{ "cvt", TcInt, ix_sel_cvt, "MOV / PRMT 0x8880/0x9910 / LOP3 0xff/0xffff / SHF.R.S32.HI 0x1f (extension); I2I[P].dst.src.SAT; float sources: the float family (lw_cvt_f2i)" },
	{ NULL, 0, NULL, NULL },
};
