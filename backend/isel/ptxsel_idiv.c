/* ptxsel_idiv.c: instruction selection of integer div and rem (ptxsel_int.h), inline, as nvcc
 * writes them (docs/isel-int.md):
 *   32 bits: a reciprocal estimate of b from the float unit (I2F.U32.RP, MUFU.RCP, the bias
 *   0xffffffe, F2I.FTZ.U32.TRUNC.NTZ, one Newton step with IMAD.HI.U32 over the pair {0, x}),
 *   the quotient IMAD.HI.U32 x, a and two corrections; signed through IABS and the signs. 16-bit
 *   operands are extended and divided as 32-bit ones.
 *   64 bits: the body of nvcc's subroutine __cuda_sm20_div_u64 (examples: the bits corpus
 *   kernel) written inline: I2F.U64.RP, MUFU.RCP, F2I.U64.TRUNC, two Newton steps and the
 *   product in IMAD.WIDE.U32/IMAD.HI.U32 chains with carries, two corrections; signed through
 *   the magnitudes.
 * Division by zero gives all ones (nvcc's ~b, and its SELs with 0xffffffff); PTX leaves it
 * undefined. The internal predicated instructions write temporaries only (lw_emit_ng); the
 * destination is written last, under the PTX guard.
 */
#include "ptxsel_int.h"

#define K(s) ix_keep(s)

/* ---- 32 bits -------------------------------------------------------------------------------- */

/* nvcc's first quotient factor for the register b (> 0 as an unsigned value): x ~ 2^32 / b,
 * refined once: x + hi(x * (-b * x)); sgn: I2F.RP (b is a magnitude of a signed divide) */
static const char *
rcp32(Lw *w, const char *b, int sgn)
{
	const char *f = K(lw_tmp(w)), *e = K(lw_tmp64(w)), *e1 = K(lw_elem(w, e, 1)), *n = K(lw_tmp(w));

	lw_emit(w, "I2F%s.RP %s, %s", sgn ? "" : ".U32", f, b);
	lw_emit(w, "MUFU.RCP %s, %s", f, f);
	lw_emit(w, "IADD3 %s, %s, 0xffffffe, RZ", f, f);
	lw_emit(w, "F2I.FTZ.U32.TRUNC.NTZ %s, %s", e1, f);
	lw_emit(w, "IMAD.MOV.U32 %s, RZ, RZ, RZ", e);
	lw_emit(w, "IMAD.MOV %s, RZ, RZ, -%s", n, e1);
	lw_emit(w, "IMAD %s, %s, %s, RZ", n, n, b);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, %s", e1, e1, n, e);
	return e1;
}

/* d = a / b or a % b, unsigned 32-bit (a, b registers) */
static void
udiv32(Lw *w, const char *d, const char *a, const char *b, int rem)
{
	d = K(d);
	a = K(a);
	b = K(b);
	const char *x = K(rcp32(w, b, 0)), *q = K(lw_tmp(w)), *n = K(lw_tmp(w)), *r = K(lw_tmp(w));
	const char *p0 = K(lw_ptmp(w)), *p1 = K(lw_ptmp(w)), *pz = K(lw_ptmp(w));

	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", q, x, a);
	lw_emit(w, "IMAD.MOV %s, RZ, RZ, -%s", n, q);
	lw_emit(w, "IMAD %s, %s, %s, %s", r, n, b, a);
	lw_emit(w, "ISETP.GE.U32.AND %s, PT, %s, %s, PT", p0, r, b);
	lw_emit_ng(w, "@%s IADD3 %s, %s, -%s, RZ", p0, r, r, b);
	if (!rem)
		lw_emit_ng(w, "@%s IADD3 %s, %s, 0x1, RZ", p0, q, q);
	lw_emit(w, "ISETP.GE.U32.AND %s, PT, %s, %s, PT", p1, r, b);
	if (rem)
		lw_emit_ng(w, "@%s IADD3 %s, %s, -%s, RZ", p1, r, r, b);
	else
		lw_emit_ng(w, "@%s IADD3 %s, %s, 0x1, RZ", p1, q, q);
	lw_emit(w, "ISETP.NE.U32.AND %s, PT, %s, RZ, PT", pz, b);
	lw_emit(w, "SEL %s, %s, 0xffffffff, %s", d, rem ? r : q, pz);
}

/* d = a / b or a % b, signed 32-bit: on the magnitudes, then the sign of a ^ b (div) or of a
 * (rem) */
static void
sdiv32(Lw *w, const char *d, const char *a, const char *b, int rem)
{
	d = K(d);
	a = K(a);
	b = K(b);
	const char *ab = K(lw_tmp(w)), *aa = K(lw_tmp(w)), *q = K(lw_tmp(w)), *n = K(lw_tmp(w)), *r = K(lw_tmp(w));
	const char *p0 = K(lw_ptmp(w)), *p1 = K(lw_ptmp(w)), *p2 = K(lw_ptmp(w)), *pz = K(lw_ptmp(w));

	lw_emit(w, "IABS %s, %s", ab, b);
	lw_emit(w, "IABS %s, %s", aa, a);
	const char *x = K(rcp32(w, ab, 1));
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", q, x, aa);
	lw_emit(w, "IMAD.MOV %s, RZ, RZ, -%s", n, q);
	lw_emit(w, "IMAD %s, %s, %s, %s", r, ab, n, aa);
	lw_emit(w, "ISETP.GT.U32.AND %s, PT, %s, %s, PT", p0, ab, r);
	lw_emit_ng(w, "@!%s IADD3 %s, %s, -%s, RZ", p0, r, r, ab);
	if (rem) {
		lw_emit(w, "ISETP.GT.U32.AND %s, PT, %s, %s, PT", p1, ab, r);
		lw_emit_ng(w, "@!%s IADD3 %s, %s, -%s, RZ", p1, r, r, ab);
		lw_emit(w, "ISETP.GE.AND %s, PT, %s, RZ, PT", p2, a);
		lw_emit_ng(w, "@!%s IADD3 %s, RZ, -%s, RZ", p2, r, r);
	} else {
		const char *s = K(lw_tmp(w));
		lw_emit_ng(w, "@!%s IADD3 %s, %s, 0x1, RZ", p0, q, q);
		lw_emit(w, "ISETP.GE.U32.AND %s, PT, %s, %s, PT", p1, r, ab);
		lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0x3c, !PT", s, a, b);
		lw_emit(w, "ISETP.GE.AND %s, PT, %s, RZ, PT", p2, s);
		lw_emit_ng(w, "@%s IADD3 %s, %s, 0x1, RZ", p1, q, q);
		lw_emit_ng(w, "@!%s IADD3 %s, RZ, -%s, RZ", p2, q, q);
	}
	lw_emit(w, "ISETP.NE.AND %s, PT, %s, RZ, PT", pz, b);
	lw_emit(w, "SEL %s, %s, 0xffffffff, %s", d, rem ? r : q, pz);
}

/* ---- 64 bits -------------------------------------------------------------------------------- */

/* one Newton step of the 64-bit reciprocal x ~ 2^64 / dv: x + hi64(x * -(x * dv)) */
static const char *
newton64(Lw *w, const char *x, const char *dv)
{
	x = K(x);
	dv = K(dv);
	const char *x1 = K(lw_elem(w, x, 1)), *d1 = K(lw_elem(w, dv, 1));
	const char *p = K(lw_tmp64(w)), *p1 = K(lw_elem(w, p, 1)), *e0 = K(lw_tmp(w)), *e1 = K(lw_tmp(w));
	const char *q = K(lw_tmp64(w)), *t = K(lw_tmp(w)), *h = K(lw_tmp(w)), *q0 = K(lw_tmp(w));
	const char *y = K(lw_tmp64(w));
	const char *c0 = K(lw_ptmp(w)), *c0b = K(lw_ptmp(w)), *c1 = K(lw_ptmp(w)), *c2 = K(lw_ptmp(w));

	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, RZ", p, x, dv);
	lw_emit(w, "IMAD %s, %s, %s, %s", p1, x, d1, p1);
	lw_emit(w, "IADD3 %s, %s, RZ, -%s, RZ", e0, c0, p);
	lw_emit(w, "IMAD %s, %s, %s, %s", p1, x1, dv, p1);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", q, x, e0);
	lw_emit(w, "IMAD.X %s, RZ, RZ, ~%s, %s", e1, p1, c0);        /* e = -(x * dv) */
	lw_emit(w, "MOV %s, %s", lw_elem(w, q, 1), x);
	lw_emit(w, "IMAD %s, %s, %s, RZ", t, x1, e1);
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, %s, %s", q, c0b, x, e1, q);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", h, x1, e1);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, %s, %s", q0, c1, x1, e0, q);
	lw_emit(w, "IMAD.X %s, %s, 0x1, %s, %s", h, h, x1, c0b);
	lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", y, c2, t, q0);
	lw_emit(w, "IADD3.X %s, RZ, RZ, %s, %s, %s", lw_elem(w, y, 1), h, c2, c1);
	return y;
}

/* d = n / dv or n % dv, unsigned 64-bit (register pairs); g: d under the PTX guard */
static void
udiv64(Lw *w, int g, const char *d, const char *n, const char *dv, int rem)
{
	d = K(d);
	n = K(n);
	dv = K(dv);
	const char *n1 = K(lw_elem(w, n, 1)), *d1 = K(lw_elem(w, dv, 1)), *f = K(lw_tmp(w));
	const char *x = K(lw_tmp64(w));

	lw_emit(w, "I2F.U64.RP %s, %s", f, dv);
	lw_emit(w, "MUFU.RCP %s, %s", f, f);
	lw_emit(w, "IADD3 %s, %s, 0x1ffffffe, RZ", f, f);
	lw_emit(w, "F2I.U64.TRUNC %s, %s", x, f);
	x = K(newton64(w, x, dv));
	x = K(newton64(w, x, dv));
	/* q = hi64(x * n) */
	const char *x1 = K(lw_elem(w, x, 1)), *m = K(lw_tmp64(w)), *l = K(lw_tmp(w)), *mm = K(lw_tmp(w));
	const char *hh = K(lw_tmp(w)), *q = K(lw_tmp64(w)), *q1 = K(lw_elem(w, q, 1));
	const char *c0 = K(lw_ptmp(w)), *c1 = K(lw_ptmp(w));
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", m, x, n);
	lw_emit(w, "IMAD.MOV.U32 %s, RZ, RZ, RZ", lw_elem(w, m, 1));
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, %s", m, x, n1, m);
	lw_emit(w, "IMAD %s, %s, %s, RZ", l, x1, n1);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, %s, %s", mm, c0, x1, n, m);
	lw_emit(w, "IMAD.HI.U32 %s, %s, %s, RZ", hh, x1, n1);
	lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", q, c1, l, mm);
	lw_emit(w, "IMAD.X %s, RZ, RZ, %s, %s", hh, hh, c0);
	lw_emit(w, "IMAD.X %s, RZ, RZ, %s, %s", q1, hh, c1);
	/* r = n - q * dv, and the first correction: r >= dv gives q + 1, r - dv */
	const char *qd = K(lw_tmp64(w)), *r0 = K(lw_tmp(w)), *u = K(lw_tmp(w)), *qa0 = K(lw_tmp(w));
	const char *qd1 = K(lw_tmp(w)), *qa1 = K(lw_tmp(w)), *r1 = K(lw_tmp(w)), *s0 = K(lw_tmp(w));
	const char *s1 = K(lw_tmp(w)), *k = K(lw_tmp64(w)), *mr = K(lw_tmp64(w));
	const char *cr = K(lw_ptmp(w)), *cq = K(lw_ptmp(w)), *cs = K(lw_ptmp(w)), *pp = K(lw_ptmp(w));
	lw_emit(w, "IMAD.WIDE.U32 %s, %s, %s, RZ", qd, q, dv);
	lw_emit(w, "IADD3 %s, %s, -%s, %s, RZ", r0, cr, qd, n);
	lw_emit(w, "IMAD %s, %s, %s, %s", u, q, d1, lw_elem(w, qd, 1));
	lw_emit(w, "IADD3 %s, %s, %s, 0x1, RZ", qa0, cq, q);
	lw_emit(w, "ISETP.GE.U32.AND %s, PT, %s, %s, PT", pp, r0, dv);
	lw_emit(w, "IMAD %s, %s, %s, %s", qd1, q1, dv, u);
	lw_emit(w, "IMAD.X %s, RZ, RZ, %s, %s", qa1, q1, cq);
	lw_emit(w, "IMAD.X %s, %s, 0x1, ~%s, %s", r1, n1, qd1, cr);
	lw_emit(w, "IADD3 %s, %s, %s, -%s, RZ", s0, cs, r0, dv);
	lw_emit(w, "ISETP.GE.U32.AND.EX %s, PT, %s, %s, PT, %s", pp, r1, d1, pp);
	lw_emit(w, "IADD3.X %s, %s, ~%s, RZ, %s, !PT", s1, r1, d1, cs);
	lw_emit(w, "SEL %s, %s, %s, %s", k, qa0, q, pp);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, k, 1), qa1, q1, pp);
	lw_emit(w, "SEL %s, %s, %s, %s", mr, s0, r0, pp);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, mr, 1), s1, r1, pp);
	/* the second correction, and dv == 0: all ones */
	const char *z = K(lw_tmp64(w)), *t0 = K(lw_tmp(w)), *t1 = K(lw_tmp(w));
	const char *ct = K(lw_ptmp(w)), *pp2 = K(lw_ptmp(w)), *pz = K(lw_ptmp(w));
	const char *k1 = K(lw_elem(w, k, 1)), *mr1 = K(lw_elem(w, mr, 1));
	lw_emit(w, "ISETP.GE.U32.AND %s, PT, %s, %s, PT", pp2, mr, dv);
	if (rem) {
		lw_emit(w, "IADD3 %s, %s, %s, -%s, RZ", t0, ct, mr, dv);
		lw_emit(w, "IADD3.X %s, %s, ~%s, RZ, %s, !PT", t1, mr1, d1, ct);
	} else {
		lw_emit(w, "IADD3 %s, %s, %s, 0x1, RZ", t0, ct, k);
		lw_emit(w, "IMAD.X %s, RZ, RZ, %s, %s", t1, k1, ct);
	}
	lw_emit(w, "ISETP.GE.U32.AND.EX %s, PT, %s, %s, PT, %s", pp2, mr1, d1, pp2);
	lw_emit(w, "ISETP.NE.U32.AND %s, PT, RZ, %s, PT", pz, dv);
	lw_emit(w, "ISETP.NE.AND.EX %s, PT, RZ, %s, PT, %s", pz, d1, pz);
	lw_emit(w, "SEL %s, %s, %s, %s", z, t0, rem ? mr : k, pp2);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, z, 1), t1, rem ? mr1 : k1, pp2);
	ix_emit(w, g, "SEL %s, %s, 0xffffffff, %s", d, z, pz);
	ix_emit(w, g, "SEL %s, %s, 0xffffffff, %s", lw_elem(w, d, 1), lw_elem(w, z, 1), pz);
}

/* the magnitude of the pair a into a temporary; *neg: the predicate a < 0 */
static const char *
abs64(Lw *w, const char *a, const char **neg)
{
	const char *n = K(lw_tmp64(w)), *m = K(lw_tmp64(w)), *p = K(lw_ptmp(w));

	ix_neg64(w, 1, n, a);
	lw_emit(w, "ISETP.LT.AND %s, PT, %s, RZ, PT", p, lw_elem(w, a, 1));
	lw_emit(w, "SEL %s, %s, %s, %s", m, n, a, p);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, m, 1), lw_elem(w, n, 1), lw_elem(w, a, 1), p);
	*neg = K(p);
	return K(m);
}

static void
sdiv64(Lw *w, const char *d, const char *a, const char *b, int rem)
{
	d = K(d);
	a = K(a);
	b = K(b);
	const char *pa, *pb, *ma = K(abs64(w, a, &pa)), *mb = K(abs64(w, b, &pb)), *u = K(lw_tmp64(w));
	const char *nu = K(lw_tmp64(w)), *ps = K(lw_ptmp(w));

	udiv64(w, 1, u, ma, mb, rem);
	if (rem)
		ps = pa;
	else
		lw_emit(w, "PLOP3.LUT %s, PT, %s, %s, PT, 0x3c, 0x0", ps, pa, pb);
	ix_neg64(w, 1, nu, u);
	lw_emit(w, "SEL %s, %s, %s, %s", d, nu, u, ps);
	lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, d, 1), lw_elem(w, nu, 1), lw_elem(w, u, 1), ps);
}

/* div, rem on u16, s16, u32, s32, u64, s64 */
int
ix_sel_div(Lw *w)
{
	int bits = ix_bits(w), sgn = ix_sgn(w), rem = ix_op(w, "rem");
	const char *d;

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (bits != 16 && bits != 32 && bits != 64)
		return lw_error(w, "%s on .%s", rem ? "rem" : "div", lw_type(w));
	d = K(ix_dreg(w, 0, bits));
	if (bits == 64) {
		const char *a = K(ix_pair(w, 1)), *b = K(ix_pair(w, 2));
		if (sgn)
			sdiv64(w, d, a, b, rem);
		else
			udiv64(w, 1, d, a, b, rem);
		return 0;
	}
	const char *a = K(ix_aext(w, 1, bits, sgn)), *b = K(ix_aext(w, 2, bits, sgn));
	if (sgn)
		sdiv32(w, d, a, b, rem);
	else
		udiv32(w, d, a, b, rem);
	return 0;
}
