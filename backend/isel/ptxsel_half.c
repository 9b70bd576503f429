/* ptxsel_half.c: instruction selection of the half family (ptxsel.h): f16, f16x2, bf16 and
 * bf16x2 arithmetic (add sub mul fma neg abs min max), comparisons (setp, set), ex2 and tanh,
 * and every cvt whose destination is a 16-bit float, a pair of them or a pair of fp8 values.
 * The sequences are nvcc's (tests/corpus/half.*.sass, fmath.*.sass); a scalar f16/bf16 reads
 * the low half of its register with the .H0_H0 selector and writes both halves. The table and
 * the reasons: docs/isel-half.md.
 */
#include "ptxlow.h"

#include <string.h>

/* ---- operands ------------------------------------------------------------------------------ */

/* operand strings of this file, alive for the instruction being selected */
static char hring[32][LwStr];
static unsigned hpos;

static char *
hbuf(void)
{
	char *s = hring[hpos++ % 32];

	s[0] = 0;
	return s;
}

/* the instruction's half type: *bf for bf16/bf16x2, *x2 for the pairs; -1 after an error */
static int
htype(Lw *w, const char *t, int *bf, int *x2)
{
	*bf = !strncmp(t, "bf16", 4);
	*x2 = !strcmp(t, "f16x2") || !strcmp(t, "bf16x2");
	if (strcmp(t, "f16") && strcmp(t, "bf16") && !*x2)
		return lw_error(w, "operation type .%s is not a half-precision type here", t);
	return 0;
}

/* the register of operand k for a half operation of width x2 (a 32-bit register) or not (the
 * low half of a 16- or 32-bit register); an integer immediate is moved into a temporary (its
 * bits are the value); NULL after an error */
static const char *
hreg(Lw *w, int k, int x2)
{
	const PtxOpnd *o = lw_opnd(w, k);
	const LwReg *g;

	if (!o) {
		lw_error(w, "operand %d missing", k);
		return NULL;
	}
	if (o->kind == PoImm)
		return lw_rsrc(w, k);
	if (lw_isimm(w, k)) {
		lw_error_opnd(w, k, "a float literal as a half-precision operand (write its bits as "
		              "an integer)");
		return NULL;
	}
	if (!(g = lw_regof(w, k))) {
		lw_error_opnd(w, k, "operand %d must be a register", k);
		return NULL;
	}
	if (x2 ? g->kind != Lk32 : g->kind != Lk16 && g->kind != Lk32) {
		lw_error_opnd(w, k, "a %s operand must be a %s register", x2 ? "packed pair" : "16-bit",
		              x2 ? "32-bit" : "16- or 32-bit");
		return NULL;
	}
	return lw_reg(w, k);
}

/* a source as HADD2/HFMA2/HSETP2 read it: [-][|]reg[|] and .H0_H0 for a scalar */
static const char *
hfmt(const char *reg, int x2, int neg, int abs)
{
	char *s = hbuf();

	snprintf(s, LwStr, "%s%s%s%s%s", neg ? "-" : "", abs ? "|" : "", reg, abs ? "|" : "",
	         x2 ? "" : ".H0_H0");
	return s;
}

static const char *
hsrc(Lw *w, int k, int x2, int neg, int *err)
{
	const char *r = hreg(w, k, x2);

	if (!r) {
		*err = 1;
		return "RZ";
	}
	return hfmt(r, x2, neg, 0);
}

/* the destination register, of the width of the operation (x2: 32 bits; else 16, or 16 or 32
 * when wide is set: cvt, whose wider destination PTX zero-extends) */
static const char *
hdst_w(Lw *w, int x2, int wide, int *err)
{
	const LwReg *g = lw_regof(w, 0);

	if (!g || (x2 ? g->kind != Lk32 : g->kind != Lk16 && (!wide || g->kind != Lk32))) {
		lw_error_opnd(w, 0, "the destination must be a %s register", x2 ? "32-bit" : "16-bit");
		*err = 1;
		return "RZ";
	}
	return lw_reg(w, 0);
}

static const char *
hdst(Lw *w, int x2, int *err)
{
	return hdst_w(w, x2, 0, err);
}

/* a 16-bit float of reg (half hi or the low one) as a binary32, exactly, in a temporary */
static const char *
widen(Lw *w, const char *reg, int bf, int hi)
{
	const char *t = lw_tmp(w);

	if (!bf)
		lw_emit(w, "HADD2.F32 %s, -RZ, %s.%s", t, reg, hi ? "H1_H1" : "H0_H0");
	else if (hi)
		lw_emit(w, "LOP3.LUT %s, %s, 0xffff0000, RZ, 0xc0, !PT", t, reg);
	else
		lw_emit(w, "IMAD.U32 %s, %s, 0x10000, RZ", t, reg);
	return t;
}

/* the F2FP that rounds binary32 values to a pair of 16-bit floats: "F2FP.PACK_AB" on sm_8x,
 * "F2FP.F16.F32.PACK_AB" on sm_90 (nvcc's spellings), with the rounding and saturation mods */
static const char *
f2fp(Lw *w, int bf, const char *mods)
{
	char *s = hbuf();

	if (arch_has(w->arch, ArchF2fpTyped))
		snprintf(s, LwStr, "F2FP%s.%s.F32.PACK_AB", mods, bf ? "BF16" : "F16");
	else
		snprintf(s, LwStr, "F2FP%s%s.PACK_AB", bf ? ".BF16" : "", mods);
	return s;
}

/* the one rounding modifier of a float operation: 0 .rn, 1 .rz, 2 .rm, 3 .rp; -1 none */
static int
frnd(const Lw *w)
{
	static const char *const rn[4] = { "rn", "rz", "rm", "rp" };

	for (int k = 0; k < 4; k++)
		if (lw_has(w, rn[k]))
			return k;
	return -1;
}

static const char *const rmod[4] = { "", ".RZ", ".RM", ".RP" };

/* the instruction has n operands (the checker allows some opcodes more than a half form takes) */
static int
nops(Lw *w, int n)
{
	if (w->ins->nopnd != n)
		return lw_error(w, "this form takes %d operands, not %d", n, w->ins->nopnd);
	return 0;
}

/* the form of mixed precision (add.f32.f16, fma.rn.f32.bf16: sm_100) is not selected */
static int
mixed(Lw *w)
{
	if (!strcmp(lw_type_n(w, 0), "f32"))
		return lw_error(w, "the mixed-precision form (a .f32 result from 16-bit inputs, sm_100)");
	return 0;
}

/* ---- arithmetic ---------------------------------------------------------------------------- */

/* add/sub/mul{.rn}{.ftz}{.sat}.{f16,f16x2}, add/sub/mul{.rn}.{bf16,bf16x2}: HADD2/HMUL2 (sub
 * negates b); bf16 before sm_90, which has no HADD2.BF16_V2, as nvcc's headers write it: a*1+b
 * and a*b + -0 (exact: a*1 is a, and x + -0 is x with the sign of a zero kept) */
static int
sel_addmul(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op), *d, *a, *b;
	int bf, x2, err = 0, sub = op[0] == 's', mul = op[0] == 'm', rm = frnd(w);
	char m[32] = "";

	if (mixed(w) < 0 || htype(w, lw_type(w), &bf, &x2) < 0 || nops(w, 3) < 0)
		return -1;
	if (rm > 0)
		return lw_error(w, "half-precision arithmetic rounds to nearest (.rn) only");
	if (bf && (lw_has(w, "ftz") || lw_has(w, "sat")))
		return lw_error(w, ".ftz and .sat are f16 modifiers, not bf16 ones");
	if (lw_has(w, "ftz"))
		strcat(m, ".FTZ");
	if (lw_has(w, "sat"))
		strcat(m, ".SAT");
	d = hdst(w, x2, &err);
	a = hsrc(w, 1, x2, 0, &err);
	b = hsrc(w, 2, x2, sub, &err);
	if (err)
		return -1;
	if (!bf)
		lw_emit(w, "%s%s %s, %s, %s", mul ? "HMUL2" : "HADD2", m, d, a, b);
	else if (arch_has(w->arch, ArchBf16Arith))
		lw_emit(w, "%s.BF16_V2 %s, %s, %s", mul ? "HMUL2" : "HADD2", d, a, b);
	else if (mul)
		lw_emit(w, "HFMA2.BF16_V2 %s, %s, %s, %s", d, a, b, x2 ? "-RZ" : "-RZ.H0_H0");
	else
		lw_emit(w, "HFMA2.BF16_V2 %s, %s, 1, 1, %s", d, a, b);
	return 0;
}

/* fma.rn{.ftz}{.sat}.{f16,f16x2}, fma.rn{.ftz}.relu.{f16,f16x2}, fma.rn{.relu}.{bf16,bf16x2}:
 * HFMA2, on the .MMA pipe for .sat and .relu as nvcc writes (bf16 only from sm_90 there) */
static int
sel_fma(Lw *w)
{
	const char *d, *a, *b, *c;
	int bf, x2, err = 0, sat = lw_has(w, "sat"), relu = lw_has(w, "relu"), ftz = lw_has(w, "ftz");

	if (mixed(w) < 0 || htype(w, lw_type(w), &bf, &x2) < 0 || nops(w, 4) < 0)
		return -1;
	if (frnd(w) != 0)
		return lw_error(w, "fma on halves needs .rn (the only rounding it has)");
	if (lw_has(w, "oob"))
		return lw_error(w, ".oob (out-of-bounds NaN to zero, sm_90) has no selection");
	if (bf && (ftz || sat))
		return lw_error(w, ".ftz and .sat are f16 modifiers, not bf16 ones");
	if (sat && relu)
		return lw_error(w, ".sat and .relu together");
	d = hdst(w, x2, &err);
	a = hsrc(w, 1, x2, 0, &err);
	b = hsrc(w, 2, x2, 0, &err);
	c = hsrc(w, 3, x2, 0, &err);
	if (err)
		return -1;
	lw_emit(w, "HFMA2%s%s%s%s%s %s, %s, %s, %s",
	        (sat || relu) && (!bf || arch_has(w->arch, ArchBf16Arith)) ? ".MMA" : "",
	        bf ? ".BF16_V2" : "", ftz ? ".FTZ" : "", sat ? ".SAT" : "", relu ? ".RELU" : "",
	        d, a, b, c);
	return 0;
}

/* neg/abs{.ftz}.{f16,f16x2}, neg/abs.{bf16,bf16x2}: -0 + -a and -0 + |a| (HADD2; bf16 as nvcc:
 * -0*0 + x in HFMA2.BF16_V2): the sign of a zero comes out right (-0 + +0 is +0), a NaN gives
 * the canonical NaN (PTX: an unspecified NaN), subnormals are kept unless .ftz */
static int
sel_negabs(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op), *d, *a;
	int bf, x2, err = 0, neg = op[0] == 'n', ftz = lw_has(w, "ftz");

	if (htype(w, lw_type(w), &bf, &x2) < 0 || nops(w, 2) < 0)
		return -1;
	if (bf && ftz)
		return lw_error(w, ".ftz is an f16 modifier, not a bf16 one");
	d = hdst(w, x2, &err);
	if (!(a = hreg(w, 1, x2)) || err)
		return -1;
	a = hfmt(a, x2, neg, !neg);
	if (bf)
		lw_emit(w, "HFMA2.BF16_V2 %s, -RZ.H0_H0, RZ.H0_H0, %s", d, a);
	else
		lw_emit(w, "HADD2%s %s, %s, %s", ftz ? ".FTZ" : "", d, x2 ? "-RZ" : "-RZ.H0_H0", a);
	return 0;
}

/* min/max{.ftz}{.NaN}.{f16,f16x2}, min/max{.NaN}.{bf16,bf16x2}: HMNMX2 with PT for min and !PT
 * for max; the NaN and -0 < +0 rules are FMNMX's, as PTX states */
static int
sel_minmax(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op), *d, *a, *b;
	int bf, x2, err = 0, ftz = lw_has(w, "ftz");

	if (htype(w, lw_type(w), &bf, &x2) < 0 || nops(w, 3) < 0)
		return -1;
	if (lw_has(w, "xorsign") || lw_has(w, "abs"))
		return lw_error(w, ".xorsign.abs (sm_86) has no selection");
	if (lw_has(w, "relu"))
		return lw_error(w, ".relu is an integer min/max modifier");
	if (bf && ftz)
		return lw_error(w, ".ftz is an f16 modifier, not a bf16 one");
	d = hdst(w, x2, &err);
	a = hsrc(w, 1, x2, 0, &err);
	b = hsrc(w, 2, x2, 0, &err);
	if (err)
		return -1;
	lw_emit(w, "HMNMX2%s%s%s %s, %s, %s, %sPT", bf ? ".BF16_V2" : "", ftz ? ".FTZ" : "",
	        lw_has(w, "NaN") ? ".NAN" : "", d, a, b, op[1] == 'a' ? "!" : "");
	return 0;
}

/* ---- comparisons --------------------------------------------------------------------------- */

/* the comparison (".LT") and the boolean operation (".AND" when none is written) of setp/set;
 * -1 after an error */
static int
cmp_mods(Lw *w, const char **cmp, const char **bop)
{
	static const char *const ptx[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
	                                   "leu", "gtu", "geu", "num", "nan", NULL };
	static const char *const sass[] = { ".EQ", ".NE", ".LT", ".LE", ".GT", ".GE", ".EQU", ".NEU",
	                                    ".LTU", ".LEU", ".GTU", ".GEU", ".NUM", ".NAN" };

	*cmp = NULL;
	*bop = ".AND";
	for (int k = 0; ptx[k]; k++)
		if (lw_has(w, ptx[k]))
			*cmp = sass[k];
	if (lw_has(w, "or"))
		*bop = ".OR";
	else if (lw_has(w, "xor"))
		*bop = ".XOR";
	if (!*cmp)
		return lw_error(w, "no comparison (.eq .lt .geu ...) for half-precision types");
	return 0;
}

/* the predicate c of a boolean operation (operand k, "!%p3" for a negated one), "PT" when there
 * is no operation; NULL after an error */
static const char *
cmp_pred(Lw *w, int k)
{
	int bop = lw_has(w, "and") || lw_has(w, "or") || lw_has(w, "xor");
	const PtxOpnd *o = lw_opnd(w, k);
	const LwReg *g;
	char *s;

	if (w->ins->nopnd > k + 1) {
		lw_error_opnd(w, k + 1, "one operand too many");
		return NULL;
	}
	if (!bop) {
		if (o)
			lw_error_opnd(w, k, "a predicate operand without .and/.or/.xor");
		return o ? NULL : "PT";
	}
	if (!o || !(g = lw_regof(w, k)) || g->kind != LkPred) {
		lw_error(w, "the boolean operation needs a predicate operand %d", k);
		return NULL;
	}
	s = hbuf();
	snprintf(s, LwStr, "%s%s", o->neg ? "!" : "", lw_reg(w, k));
	return s;
}

/* setp.cmp{.bop}{.ftz}.{f16,f16x2} p[|q], a, b{, c}; setp.cmp{.bop}.{bf16,bf16x2}: HSETP2 with p
 * from the low halves and q from the high ones (PTX's fA[0] is bits 0..15); .BF16_V2 from sm_90.
 * Before sm_90 (ptxas takes bf16 setp only from sm_90) the halves are widened to binary32,
 * exactly, and compared with FSETP, which has the same NaN and zero rules. */
static int
sel_setp(Lw *w)
{
	const char *cmp, *bop, *c, *ra, *rb, *p[2] = { "PT", "PT" };
	int bf, x2, ftz = lw_has(w, "ftz"), n = lw_veclen(w, 0);

	if (htype(w, lw_type(w), &bf, &x2) < 0 || cmp_mods(w, &cmp, &bop) < 0)
		return -1;
	if (bf && ftz)
		return lw_error(w, ".ftz is an f16 modifier, not a bf16 one");
	if (n != (x2 ? 2 : 1))
		return lw_error_opnd(w, 0, x2 ? "a packed comparison writes a pair p|q"
		                              : "a scalar comparison writes one predicate");
	for (int e = 0; e < n; e++) {
		const char *r = lw_vec(w, 0, e);
		p[e] = strcmp(r, "RZ") ? r : "PT";
	}
	if (!(c = cmp_pred(w, 3)) || !(ra = hreg(w, 1, x2)) || !(rb = hreg(w, 2, x2)))
		return -1;
	if (!bf || arch_has(w->arch, ArchBf16Arith)) {
		lw_emit(w, "HSETP2%s%s%s%s %s, %s, %s, %s, %s", bf ? ".BF16_V2" : "", cmp, bop,
		        ftz ? ".FTZ" : "", p[0], p[1], hfmt(ra, x2, 0, 0), hfmt(rb, x2, 0, 0), c);
		return 0;
	}
	/* both FSETPs read the old c: when c is p, q is written first */
	int first = n == 2 && !strcmp(c + (c[0] == '!'), p[0]);
	for (int k = 0; k < n; k++) {
		int e = first ? 1 - k : k;
		if (!strcmp(p[e], "PT"))
			continue;
		const char *ta = widen(w, ra, 1, e), *tb = widen(w, rb, 1, e);
		lw_emit(w, "FSETP%s%s %s, PT, %s, %s, %s", cmp, bop, p[e], ta, tb, c);
	}
	return 0;
}

/* set.cmp{.bop}{.ftz}.dtype.stype d, a, b{, c} for a 16-bit float stype: HSET2 writes 0xffff
 * per true half (integer dtypes; a scalar compare with .H0_H0 sources fills both halves, so a
 * .u32 result is 0xffffffff) or, with .BF, 1.0 in the compared format (.f16 from .f16, .bf16
 * from .bf16); a .bf16 result of an .f16 compare is the mask ANDed with 1.0's bits. bf16 before
 * sm_90 as nvcc's headers write it: FSET on the widened halves, repacked. */
static int
sel_set(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *st = lw_type(w), *cmp, *bop, *c, *ra, *rb, *d;
	int bf, x2, err = 0, ftz = lw_has(w, "ftz"), dint, dbf, one;

	if (htype(w, st, &bf, &x2) < 0 || cmp_mods(w, &cmp, &bop) < 0)
		return -1;
	dint = !strcmp(dt, "u32") || !strcmp(dt, "s32") || (!x2 && (!strcmp(dt, "u16") ||
	                                                          !strcmp(dt, "s16")));
	dbf = !strncmp(dt, "bf16", 4);
	if (!dint && strcmp(dt, st) && !(!strcmp(dt, "bf16") && !strcmp(st, "f16")))
		return lw_error(w, "a .%s result of a .%s comparison", dt, st);
	if (bf && ftz)
		return lw_error(w, ".ftz is an f16 modifier, not a bf16 one");
	d = hdst(w, x2 || !strcmp(dt, "u32") || !strcmp(dt, "s32"), &err);
	if (err || !(c = cmp_pred(w, 3)) || !(ra = hreg(w, 1, x2)) || !(rb = hreg(w, 2, x2)))
		return -1;
	one = !dint && dbf == bf;            /* HSET2.BF writes the right 1.0 itself */
	if (!bf || arch_has(w->arch, ArchBf16Arith)) {
		const char *t = dint || one ? d : lw_tmp(w);
		lw_emit(w, "HSET2%s%s%s%s%s %s, %s, %s, %s", bf ? ".BF16_V2" : "", one ? ".BF" : "", cmp,
		        bop, ftz ? ".FTZ" : "", t, hfmt(ra, x2, 0, 0), hfmt(rb, x2, 0, 0), c);
		if (t != d)
			lw_emit(w, "LOP3.LUT %s, %s, 0x3f803f80, RZ, 0xc0, !PT", d, t);
		return 0;
	}
	/* bf16 before sm_90: FSET.BF gives 0x3f800000, whose high half is bf16 1.0 */
	const char *t[2];
	for (int e = 0; e < (x2 ? 2 : 1); e++) {
		const char *ta = widen(w, ra, 1, e), *tb = widen(w, rb, 1, e);
		t[e] = x2 || one ? lw_tmp(w) : d;
		lw_emit(w, "FSET%s%s%s %s, %s, %s, %s", one ? ".BF" : "", cmp, bop, t[e], ta, tb, c);
	}
	if (x2) {
		const char *lo = lw_tmp(w);
		lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x10, %s", lo, t[0]);
		lw_emit(w, "LOP3.LUT %s, %s, 0xffff0000, %s, 0xea, !PT", d, t[1], lo);
	} else if (one) {
		lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x10, %s", d, t[0]);
	}
	return 0;
}

/* ---- approximations ------------------------------------------------------------------------ */

/* ex2.approx.{f16,f16x2}, ex2.approx.ftz.{bf16,bf16x2}, tanh.approx.{f16,f16x2,bf16,bf16x2}:
 * each half widened to binary32 (exact), MUFU.EX2 / MUFU.TANH, and the results rounded back by
 * one F2FP. The 16-bit MUFU forms are not in the simulator; the binary32 unit is at least as
 * accurate as PTX asks (2^-9.9 relative for ex2.f16, 2^-10.987 absolute for tanh.f16). */
static int
sel_mufu(Lw *w)
{
	const char *op = ptx_str(w->p, w->ins->op), *d, *a, *t[2] = { "RZ", "RZ" };
	int bf, x2, err = 0, ex2 = op[0] == 'e';

	if (htype(w, lw_type(w), &bf, &x2) < 0 || nops(w, 2) < 0)
		return -1;
	if (!lw_has(w, "approx"))
		return lw_error(w, "%s on halves needs .approx", op);
	if (lw_has(w, "ftz") != (ex2 && bf))
		return lw_error(w, ex2 && bf ? "ex2 on bf16 needs .ftz" : ".ftz is not a modifier of "
		                "this form");
	d = hdst(w, x2, &err);
	if (!(a = hreg(w, 1, x2)) || err)
		return -1;
	for (int e = 0; e < (x2 ? 2 : 1); e++) {
		t[e] = widen(w, a, bf, e);
		lw_emit(w, "MUFU.%s %s, %s", ex2 ? "EX2" : "TANH", t[e], t[e]);
	}
	lw_emit(w, "%s %s, %s, %s", f2fp(w, bf, ""), d, t[1], t[0]);
	return 0;
}

/* ---- conversions --------------------------------------------------------------------------- */

/* a binary32 source (operand k) in a register: an immediate goes through a temporary */
static const char *
f32src(Lw *w, int k)
{
	const LwReg *g = lw_regof(w, k);

	if (!lw_isimm(w, k) && (!g || g->kind != Lk32)) {
		lw_error_opnd(w, k, "a .f32 source must be a 32-bit register");
		return NULL;
	}
	return lw_rsrc(w, k);
}

/* a 64-bit source (operand k) as the first register of a pair; an immediate is moved into one */
static const char *
src64(Lw *w, int k)
{
	const LwReg *g = lw_regof(w, k);
	const char *t;

	if (lw_isimm(w, k)) {
		t = lw_tmp64(w);
		lw_emit(w, "MOV %s, %s", t, lw_lo(w, k));
		lw_emit(w, "MOV %s, %s", lw_elem(w, t, 1), lw_hi(w, k));
		return t;
	}
	if (!g || g->kind != Lk64) {
		lw_error_opnd(w, k, "a 64-bit source must be a 64-bit register");
		return NULL;
	}
	return lw_reg(w, k);
}

/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a in bits 8..15) and .f16x2/.bf16x2 d, a:
 * F2FP.SATFINITE...PACK_AB_MERGE_C with RZ above (sm_89); a pair of halves is widened first */
static int
cvt_fp8(Lw *w, const char *dt, const char *st)
{
	const char *f = !strcmp(dt, "e4m3x2") ? "E4M3" : "E5M2", *hi, *lo, *d;
	int err = 0;

	if (!arch_has(w->arch, ArchFp8))
		return lw_error(w, "fp8 conversions need %s or later", arch_since(ArchFp8));
	if (frnd(w) != 0 || !lw_has(w, "satfinite"))
		return lw_error(w, "a conversion to fp8 needs .rn.satfinite");
	d = hdst(w, 0, &err);
	if (err)
		return -1;
	if (!strcmp(st, "f32")) {
		if (nops(w, 3) < 0 || !(hi = f32src(w, 1)) || !(lo = f32src(w, 2)))
			return -1;
	} else if (!strcmp(st, "f16x2") || !strcmp(st, "bf16x2")) {
		const char *a = nops(w, 2) < 0 ? NULL : hreg(w, 1, 1);
		if (!a)
			return -1;
		lo = widen(w, a, st[0] == 'b', 0);
		hi = widen(w, a, st[0] == 'b', 1);
	} else {
		return lw_error(w, "a conversion to .%s from .%s", dt, st);
	}
	lw_emit(w, "F2FP.SATFINITE%s.%s.F32.PACK_AB_MERGE_C %s, %s, %s, RZ",
	        lw_has(w, "relu") ? ".RELU" : "", f, d, hi, lo);
	return 0;
}

/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: F2FP.F16.E4M3.UNPACK_B (exact); .relu clamps the
 * negative halves after (a*1 + -0 with .RELU: a NaN stays the canonical NaN) */
static int
cvt_unpack(Lw *w, const char *st)
{
	const LwReg *g = lw_regof(w, 1);
	const char *d;
	int err = 0;

	if (!arch_has(w->arch, ArchFp8))
		return lw_error(w, "fp8 conversions need %s or later", arch_since(ArchFp8));
	if (frnd(w) != 0)
		return lw_error(w, "a conversion from fp8 needs .rn");
	if (nops(w, 2) < 0)
		return -1;
	d = hdst(w, 1, &err);
	if (err)
		return -1;
	if (!g || (g->kind != Lk16 && g->kind != Lk32))
		return lw_error_opnd(w, 1, "the packed fp8 source must be a 16-bit register");
	lw_emit(w, "F2FP.F16.%s.UNPACK_B %s, %s", !strcmp(st, "e4m3x2") ? "E4M3" : "E5M2", d,
	        lw_reg(w, 1));
	if (lw_has(w, "relu"))
		lw_emit(w, "HFMA2.MMA.RELU %s, %s, 1, 1, -RZ", d, d);
	return 0;
}

/* integer source type words, in I2F's spelling */
static const char *
int_name(const char *t)
{
	static const char *const ptx[] = { "s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64",
	                                   NULL };
	static const char *const sass[] = { ".S8", ".U8", ".S16", ".U16", "", ".U32", ".S64",
	                                    ".U64" };

	for (int k = 0; ptx[k]; k++)
		if (!strcmp(t, ptx[k]))
			return sass[k];
	return NULL;
}

/* cvt to .f16/.bf16 (one value) or .f16x2/.bf16x2 (two binary32 values, a in the high half):
 *   from .f32: F2FP{.RZ}{.RELU}{.SATFINITE}.PACK_AB d, [a,] b (RZ above a single value), the
 *     directed modes .rm/.rp and .sat with F2F.F16.F32; .ftz flushes the binary32 input first
 *   from .f64: F2F.F16.F64 (one rounding: never through binary32)
 *   from an integer: I2F.F16[.S16/.U32/...]
 *   from the same 16-bit format with .rni/.rzi/.rmi/.rpi: through binary32 and FRND (exact)
 *   from the other 16-bit format: widened to binary32 (exact), then rounded once */
static int
sel_cvt(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *st = lw_type_n(w, 1), *d, *a, *b = "RZ", *in;
	int bf = !strncmp(dt, "bf16", 4), x2, rm = frnd(w), err = 0;
	int relu = lw_has(w, "relu"), satf = lw_has(w, "satfinite"), sat = lw_has(w, "sat");
	int ftz = lw_has(w, "ftz");
	int irnd = lw_has(w, "rni") ? 0 : lw_has(w, "rzi") ? 1 : lw_has(w, "rmi") ? 2
	           : lw_has(w, "rpi") ? 3 : -1;
	static const char *const frndmod[4] = { "", ".TRUNC", ".FLOOR", ".CEIL" };
	char m[48] = "";

	if (lw_has(w, "rs") || lw_has(w, "rna"))
		return lw_error(w, "stochastic and ties-away rounding (.rs, .rna) have no selection");
	if (!strcmp(dt, "e4m3x2") || !strcmp(dt, "e5m2x2"))
		return cvt_fp8(w, dt, st);
	if (!strcmp(dt, "f16x2") && (!strcmp(st, "e4m3x2") || !strcmp(st, "e5m2x2")))
		return cvt_unpack(w, st);
	if (strcmp(dt, "f16") && strcmp(dt, "bf16") && strcmp(dt, "f16x2") && strcmp(dt, "bf16x2"))
		return lw_error(w, "a conversion to .%s", dt);
	x2 = dt[strlen(dt) - 1] == '2';
	if ((relu || satf) && strcmp(st, "f32"))
		return lw_error(w, ".relu and .satfinite are for conversions from .f32");
	if (ftz && strcmp(st, "f32"))
		return lw_error(w, ".ftz applies to .f32 inputs only");
	if (x2 && strcmp(st, "f32"))
		return lw_error(w, "a packed .%s is made from two .f32 values", dt);
	if (sat && (relu || satf || x2))
		return lw_error(w, ".sat with .relu, .satfinite or a packed result");
	if (nops(w, x2 ? 3 : 2) < 0)
		return -1;
	d = hdst_w(w, x2, 1, &err);
	if (err)
		return -1;

	if (!strcmp(st, "f32")) {
		if (rm < 0 || irnd >= 0)
			return lw_error(w, "a conversion to .%s from .f32 needs .rn, .rz, .rm or .rp", dt);
		if ((relu || satf || x2) && rm > 1)
			return lw_error(w, ".relu, .satfinite and packed results round with .rn or .rz");
		if (!(a = f32src(w, 1)) || (x2 && !(b = f32src(w, 2))))
			return -1;
		if (ftz) {                       /* flush the binary32 inputs (x + -0 is x) */
			const char *t = lw_tmp(w);
			lw_emit(w, "FADD.FTZ %s, %s, -RZ", t, a);
			a = t;
			if (x2) {
				t = lw_tmp(w);
				lw_emit(w, "FADD.FTZ %s, %s, -RZ", t, b);
				b = t;
			}
		}
		if (rm > 1 || sat) {
			lw_emit(w, "F2F.%s.F32%s%s %s, %s", bf ? "BF16" : "F16", rmod[rm], sat ? ".SAT" : "",
			        d, a);
			return 0;
		}
		snprintf(m, sizeof m, "%s%s%s", rmod[rm], relu ? ".RELU" : "", satf ? ".SATFINITE" : "");
		if (x2)
			lw_emit(w, "%s %s, %s, %s", f2fp(w, bf, m), d, a, b);
		else
			lw_emit(w, "%s %s, RZ, %s", f2fp(w, bf, m), d, a);
		return 0;
	}
	if (!strcmp(st, "f64")) {
		if (rm < 0 || irnd >= 0)
			return lw_error(w, "a conversion to .%s from .f64 needs .rn, .rz, .rm or .rp", dt);
		if (!(a = src64(w, 1)))
			return -1;
		lw_emit(w, "F2F.%s.F64%s%s %s, %s", bf ? "BF16" : "F16", rmod[rm], sat ? ".SAT" : "", d, a);
		return 0;
	}
	if ((in = int_name(st))) {
		if (rm < 0 || irnd >= 0)
			return lw_error(w, "a conversion to .%s from .%s needs .rn, .rz, .rm or .rp", dt, st);
		if (sat)
			return lw_error(w, ".sat on a conversion from an integer");
		if (lw_type_bits(st) == 64)
			a = src64(w, 1);
		else
			a = lw_rsrc(w, 1);
		if (!a)
			return -1;
		lw_emit(w, "I2F.%s%s%s %s, %s", bf ? "BF16" : "F16", in, rmod[rm], d, a);
		return 0;
	}
	if (!strcmp(st, "f16") || !strcmp(st, "bf16")) {
		int sbf = st[0] == 'b';
		if (sat)
			return lw_error(w, ".sat on a conversion between 16-bit formats");
		if (!(a = hreg(w, 1, 0)))
			return -1;
		if (sbf == bf) {                 /* the same format: a move, or rounding to integer */
			if (rm >= 0)
				return lw_error(w, "a conversion to the same type rounds with .rni .rzi .rmi "
				                "or .rpi");
			if (irnd < 0) {              /* a wider destination is zero-extended */
				if (lw_regof(w, 0)->kind == Lk32)
					lw_emit(w, "PRMT %s, %s, 0x7710, RZ", d, a);
				else
					lw_emit(w, "MOV %s, %s", d, a);
				return 0;
			}
			const char *t = widen(w, a, bf, 0);
			lw_emit(w, "FRND%s %s, %s", frndmod[irnd], t, t);
			lw_emit(w, "%s %s, RZ, %s", f2fp(w, bf, ""), d, t);
			return 0;
		}
		if (irnd >= 0)
			return lw_error(w, "integer rounding between .f16 and .bf16");
		if (rm < 0)
			rm = 0;
		const char *t = widen(w, a, sbf, 0);
		if (rm > 1)
			lw_emit(w, "F2F.%s.F32%s %s, %s", bf ? "BF16" : "F16", rmod[rm], d, t);
		else
			lw_emit(w, "%s %s, RZ, %s", f2fp(w, bf, rmod[rm]), d, t);
		return 0;
	}
	return lw_error(w, "a conversion to .%s from .%s", dt, st);
}

const SelRow ptxsel_half[] = {
	{ "add", TcHalf, sel_addmul, "HADD2 d, a, b (f16: .H0_H0 sources; bf16: HADD2.BF16_V2 on "
	  "sm_90, HFMA2.BF16_V2 d, a, 1, 1, b before)" },
	{ "sub", TcHalf, sel_addmul, "HADD2 d, a, -b (bf16 before sm_90: HFMA2.BF16_V2 d, a, 1, 1, -b)" },
	{ "mul", TcHalf, sel_addmul, "HMUL2 d, a, b (bf16 before sm_90: HFMA2.BF16_V2 d, a, b, -RZ)" },
	{ "fma", TcHalf, sel_fma, "HFMA2 d, a, b, c (.sat/.relu: HFMA2.MMA.SAT/.RELU)" },
	{ "neg", TcHalf, sel_negabs, "HADD2 d, -RZ, -a (bf16: HFMA2.BF16_V2 d, -RZ.H0_H0, RZ.H0_H0, -a)" },
	{ "abs", TcHalf, sel_negabs, "HADD2 d, -RZ, abs(a) (bf16: HFMA2.BF16_V2 d, -RZ.H0_H0, RZ.H0_H0, "
	  "abs(a))" },
	{ "min", TcHalf, sel_minmax, "HMNMX2[.NAN] d, a, b, PT" },
	{ "max", TcHalf, sel_minmax, "HMNMX2[.NAN] d, a, b, !PT" },
	{ "setp", TcHalf, sel_setp, "HSETP2.cmp.bop p, q, a, b, c (bf16 before sm_90: FSETP on the "
	  "widened halves)" },
	{ "set", TcHalf, sel_set, "HSET2[.BF].cmp.bop d, a, b, c (bf16 before sm_90: FSET, repacked)" },
	{ "cvt", TcHalf, sel_cvt, "F2FP.PACK_AB d, a, b / d, RZ, a (from f32); F2F.F16.F64; I2F.F16; "
	  "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C; F2FP.F16.E4M3.UNPACK_B" },
	{ "ex2", TcHalf, sel_mufu, "HADD2.F32 t, -RZ, a.H0_H0; MUFU.EX2 t, t; F2FP.PACK_AB d, RZ, t "
	  "(per half)" },
	{ "tanh", TcHalf, sel_mufu, "HADD2.F32 t, -RZ, a.H0_H0; MUFU.TANH t, t; F2FP.PACK_AB d, RZ, t "
	  "(per half)" },
	{ NULL, 0, NULL, NULL },
};
