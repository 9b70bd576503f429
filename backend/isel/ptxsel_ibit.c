/* ptxsel_ibit.c: instruction selection of the int family's logic and bit operations
 * (ptxsel_int.h): and, or, xor, not, cnot (b16/b32/b64 with LOP3.LUT, pred with PLOP3.LUT), shl
 * and shr with PTX's clamping of shift amounts (SHF clamps the same way), shf, prmt, bfe, bfi,
 * lop3, popc, clz, bfind, brev, bmsk, szext, as nvcc writes them on sm_80 and sm_90.
 */
#include "ptxsel_int.h"

#define K(s) ix_keep(s)

/* ---- and, or, xor, not, cnot --------------------------------------------------------------- */

static unsigned
logic_lut(const Lw *w)
{
	return ix_op(w, "and") ? 0xc0 : ix_op(w, "or") ? 0xfc : 0x3c;
}

int
ix_sel_logic(Lw *w)
{
	int un = ix_op(w, "not") || ix_op(w, "cnot"), bits = ix_bits(w);
	const char *d;

	if (ix_nopnd(w, un ? 2 : 3) < 0)
		return -1;
	if (!strcmp(lw_type(w), "pred")) {
		if (ix_op(w, "cnot"))
			return lw_error(w, "cnot on .pred");
		if (un)
			lw_emit(w, "PLOP3.LUT %s, PT, %s, PT, PT, 0x0f, 0x0", ix_dreg(w, 0, 1), ix_pred(w, 1));
		else                    /* (a op b) & c with c = PT, as nvcc writes them */
			lw_emit(w, "PLOP3.LUT %s, PT, %s, %s, PT, 0x%x, 0x0", ix_dreg(w, 0, 1), ix_pred(w, 1),
			        ix_pred(w, 2), logic_lut(w) & 0xaa);
		return 0;
	}
	if (bits != 16 && bits != 32 && bits != 64)
		return lw_error(w, "%s on .%s", ptx_str(w->p, w->ins->op), lw_type(w));
	d = K(ix_dreg(w, 0, bits));
	if (ix_op(w, "cnot")) {
		const char *p = K(lw_ptmp(w));
		if (bits == 64)
			ix_lop3(w, 1, p, "RZ", ix_lo(w, 1), ix_hi(w, 1), "RZ", 0xfc, NULL);
		else if (bits == 16)
			ix_lop3(w, 1, p, "RZ", ix_b(w, 1), "0xffff", "RZ", 0xc0, NULL);
		else
			lw_emit(w, "ISETP.NE.U32.AND %s, PT, %s, RZ, PT", p, ix_a(w, 1));
		lw_emit(w, "SEL %s, RZ, 0x1, %s", d, p);
		if (bits == 64)
			lw_emit(w, "MOV %s, RZ", lw_elem(w, d, 1));
		return 0;
	}
	for (int h = 0; h < (bits == 64 ? 2 : 1); h++) {
		const char *dh = K(lw_elem(w, d, h));
		const char *a = K(bits == 64 ? (h ? ix_hi(w, 1) : ix_lo(w, 1)) : ix_b(w, 1));
		if (ix_op(w, "not")) {
			ix_lop3(w, 1, NULL, dh, "RZ", a, "RZ", 0x33, NULL);
			continue;
		}
		const char *b = K(bits == 64 ? (h ? ix_hi(w, 2) : ix_lo(w, 2)) : ix_b(w, 2));
		ix_lop3(w, 1, NULL, dh, a, b, "RZ", logic_lut(w), NULL);
	}
	return 0;
}

/* ---- shl, shr ------------------------------------------------------------------------------ */

int
ix_sel_shift(Lw *w)
{
	int bits = ix_bits(w), left = ix_op(w, "shl"), sgn = !left && ix_sgn(w);
	const char *d, *s = sgn ? "S" : "U";

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (bits != 16 && bits != 32 && bits != 64)
		return lw_error(w, "%s on .%s", left ? "shl" : "shr", lw_type(w));
	d = K(ix_dreg(w, 0, bits));
	int imm = ix_isimm(w, 2);
	uint64_t n = imm ? (uint64_t)ix_immv(w, 2) & 0xffffffffu : 0;
	if (bits == 64) {
		const char *a = K(ix_pair(w, 1)), *a1 = K(lw_elem(w, a, 1)), *d1 = K(lw_elem(w, d, 1));
		if (!imm) {
			const char *k = K(ix_a(w, 2));
			if (left) {                 /* the high word first: it reads the low one */
				lw_emit(w, "SHF.L.U64.HI %s, %s, %s, %s", d1, a, k, a1);
				lw_emit(w, "SHF.L.U32 %s, %s, %s, RZ", d, a, k);
			} else {
				lw_emit(w, "SHF.R.%s64 %s, %s, %s, %s", s, d, a, k, a1);
				lw_emit(w, "SHF.R.%s32.HI %s, RZ, %s, %s", s, d1, k, a1);
			}
			return 0;
		}
		if (n >= 64 && !sgn) {
			lw_emit(w, "MOV %s, RZ", d);
			lw_emit(w, "MOV %s, RZ", d1);
		} else if (left && n >= 32) {
			lw_emit(w, "SHF.L.U32 %s, %s, 0x%x, RZ", d1, a, (unsigned)(n - 32));
			lw_emit(w, "MOV %s, RZ", d);
		} else if (left) {
			lw_emit(w, "SHF.L.U64.HI %s, %s, 0x%x, %s", d1, a, (unsigned)n, a1);
			lw_emit(w, "SHF.L.U32 %s, %s, 0x%x, RZ", d, a, (unsigned)n);
		} else if (n >= 32) {
			unsigned m = n - 32 > 31 ? 31 : (unsigned)(n - 32);
			lw_emit(w, "SHF.R.%s32.HI %s, RZ, 0x%x, %s", s, d, sgn ? m : (unsigned)(n - 32), a1);
			if (sgn)
				lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", d1, a1);
			else
				lw_emit(w, "MOV %s, RZ", d1);
		} else {
			lw_emit(w, "SHF.R.%s64 %s, %s, 0x%x, %s", s, d, a, (unsigned)n, a1);
			lw_emit(w, "SHF.R.%s32.HI %s, RZ, 0x%x, %s", s, d1, (unsigned)n, a1);
		}
		return 0;
	}
	if (left) {
		if (!imm)
			lw_emit(w, "SHF.L.U32 %s, %s, %s, RZ", d, ix_a(w, 1), ix_a(w, 2));
		else if (n >= 32)
			lw_emit(w, "MOV %s, RZ", d);
		else if (n == 0)
			lw_emit(w, "MOV %s, %s", d, ix_b(w, 1));
		else
			lw_emit(w, "IMAD.SHL.U32 %s, %s, 0x%x, RZ", d, ix_a(w, 1), 1u << n);
		return 0;
	}
	const char *a = K(ix_aext(w, 1, bits, sgn));
	if (imm && n >= 32) {
		if (sgn)
			lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", d, a);
		else
			lw_emit(w, "MOV %s, RZ", d);
		return 0;
	}
	lw_emit(w, "SHF.R.%s32.HI %s, RZ, %s, %s", s, d, imm ? ix_imm(w, (uint32_t)n) : ix_a(w, 2), a);
	return 0;
}

/* shf.l|r.wrap|clamp.b32 d, a, b, c: the funnel {b, a} shifted by c */
int
ix_sel_shf(Lw *w)
{
	int left = lw_has(w, "l"), wrap = lw_has(w, "wrap");

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (ix_bits(w) != 32 || left == lw_has(w, "r") || wrap == lw_has(w, "clamp"))
		return lw_error(w, "shf takes .l or .r, .wrap or .clamp and .b32");
	const char *a = K(ix_a(w, 1)), *b = K(ix_a(w, 2)), *c = K(ix_b(w, 3));
	lw_emit(w, "SHF.%s%s.U32%s %s, %s, %s, %s", left ? "L" : "R", wrap ? ".W" : "",
	        left ? ".HI" : "", ix_dreg(w, 0, 32), a, c, b);
	return 0;
}

/* prmt.b32[.mode] d, a, b, c: PRMT[.MODE] d, a, c, b */
int
ix_sel_prmt(Lw *w)
{
	static const char *const modes[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL };
	const char *m = "";
	char mode[8];

	if (ix_nopnd(w, 4) < 0)
		return -1;
	for (int k = 0; modes[k]; k++)
		if (lw_has(w, modes[k])) {
			snprintf(mode, sizeof mode, ".%s", modes[k]);
			for (char *c = mode; *c; c++)
				*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
			m = mode;
		}
	const char *b = K(ix_isimm(w, 2) && ix_immv(w, 2) == 0 ? "RZ" : ix_a(w, 2));
	lw_emit(w, "PRMT%s %s, %s, %s, %s", m, ix_dreg(w, 0, 32), ix_a(w, 1), ix_b(w, 3), b);
	return 0;
}

/* ---- bfe, bfi ------------------------------------------------------------------------------ */

/* operand k's low byte (a bit position or length, PTX's 0..255), as an immediate or a register */
static const char *
byte_of(Lw *w, int k, int *imm, unsigned *v)
{
	*imm = ix_isimm(w, k);
	if (*imm) {
		*v = (unsigned)ix_immv(w, k) & 0xff;
		return ix_imm(w, *v);
	}
	const char *t = K(lw_tmp(w));
	lw_emit(w, "PRMT %s, RZ, 0x4, %s", t, ix_a(w, k));
	return t;
}

/* d = a >> n (64-bit, logical or arithmetic) into the pair d; n a register or immediate text */
static void
shr64(Lw *w, const char *d, const char *a, const char *n, int sgn)
{
	const char *s = sgn ? "S" : "U";

	lw_emit(w, "SHF.R.%s64 %s, %s, %s, %s", s, d, a, n, lw_elem(w, a, 1));
	lw_emit(w, "SHF.R.%s32.HI %s, RZ, %s, %s", s, lw_elem(w, d, 1), n, lw_elem(w, a, 1));
}

static void
shl64(Lw *w, const char *d, const char *a, const char *n)
{
	lw_emit(w, "SHF.L.U64.HI %s, %s, %s, %s", lw_elem(w, d, 1), a, n, lw_elem(w, a, 1));
	lw_emit(w, "SHF.L.U32 %s, %s, %s, RZ", d, a, n);
}

int
ix_sel_bfe(Lw *w)
{
	int bits = ix_bits(w), sgn = ix_sgn(w), pi, li;
	unsigned pv = 0, lv = 0;
	const char *d, *s = sgn ? "S" : "U";

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (bits != 32 && bits != 64)
		return lw_error(w, "bfe on .%s", lw_type(w));
	d = K(ix_dreg(w, 0, bits));
	const char *pos = K(byte_of(w, 2, &pi, &pv)), *len = K(byte_of(w, 3, &li, &lv));
	if (bits == 32) {
		const char *a = K(ix_a(w, 1)), *t = K(lw_tmp(w));
		if (li && lv == 0) {
			lw_emit(w, "MOV %s, RZ", d);
			return 0;
		}
		/* SHF clamps the position at 32 (0 or the sign fill), SGXT the length at 32 */
		lw_emit(w, "SHF.R.%s32.HI %s, RZ, %s, %s", s, t, pos, a);
		lw_emit(w, "SGXT%s %s, %s, %s", sgn ? "" : ".U32", d, t, len);
		return 0;
	}
	/* 64 bits: t = a >> pos; then the low len bits kept (extended) by shifting t left and
	 * right by k = max(64 - len, 0); len 0 gives k 64 and 0 */
	const char *a = K(ix_pair(w, 1)), *t = K(lw_tmp64(w)), *u = K(lw_tmp64(w)), *k;
	if (li && lv == 0) {
		lw_emit(w, "MOV %s, RZ", d);
		lw_emit(w, "MOV %s, RZ", lw_elem(w, d, 1));
		return 0;
	}
	shr64(w, t, a, pos, sgn);
	if (li) {
		k = ix_imm(w, lv >= 64 ? 0 : 64 - lv);
	} else {
		const char *kk = K(lw_tmp(w));
		lw_emit(w, "IADD3 %s, -%s, 0x40, RZ", kk, len);
		lw_emit(w, "IMNMX %s, %s, RZ, !PT", kk, kk);
		k = kk;
	}
	shl64(w, u, t, k);
	shr64(w, d, u, k, sgn);
	return 0;
}

int
ix_sel_bfi(Lw *w)
{
	int bits = ix_bits(w), pi, li;
	unsigned pv = 0, lv = 0;
	const char *f;

	if (ix_nopnd(w, 5) < 0)
		return -1;
	if (bits != 32 && bits != 64)
		return lw_error(w, "bfi on .%s", lw_type(w));
	f = K(ix_dreg(w, 0, bits));
	const char *pos = K(byte_of(w, 3, &pi, &pv)), *len = K(byte_of(w, 4, &li, &lv));
	if ((li && lv == 0) || (pi && pv >= (unsigned)bits)) {     /* the result is b */
		if (bits == 64) {
			lw_emit(w, "MOV %s, %s", f, ix_lo(w, 2));
			lw_emit(w, "MOV %s, %s", lw_elem(w, f, 1), ix_hi(w, 2));
		} else {
			lw_emit(w, "MOV %s, %s", f, ix_b(w, 2));
		}
		return 0;
	}
	if (bits == 32) {
		const char *m, *s = K(lw_tmp(w));
		if (pi && li) {
			uint64_t mm = ((lv >= 32 ? 0xffffffffull : (1ull << lv) - 1) << pv) & 0xffffffffull;
			m = ix_imm(w, (uint32_t)mm);
		} else {
			const char *mt = K(lw_tmp(w)), *pr = K(pos);
			if (!ix_is_reg(pr)) {
				pr = lw_tmp(w);
				lw_emit(w, "MOV %s, %s", pr, pos);
			}
			lw_emit(w, "BMSK %s, %s, %s", mt, pr, len);
			m = mt;
		}
		if (pi)
			lw_emit(w, "IMAD.SHL.U32 %s, %s, 0x%x, RZ", s, ix_a(w, 1), 1u << pv);
		else
			lw_emit(w, "SHF.L.U32 %s, %s, %s, RZ", s, ix_a(w, 1), pos);
		/* m ? s : b */
		ix_lop3(w, 1, NULL, f, s, m, ix_b(w, 2), 0xe2, NULL);
		return 0;
	}
	/* 64 bits: m = ((1 << len) - 1) << pos from SHF pairs (both clamp at 64) */
	const char *one = K(lw_tmp64(w)), *m0 = K(lw_tmp64(w)), *m = K(lw_tmp64(w)), *s = K(lw_tmp64(w));
	const char *p = K(lw_ptmp(w)), *a = K(ix_pair(w, 1));
	lw_emit(w, "MOV %s, 0x1", one);
	lw_emit(w, "MOV %s, RZ", lw_elem(w, one, 1));
	shl64(w, m0, one, len);
	lw_emit(w, "IADD3 %s, %s, %s, -0x1, RZ", m0, p, m0);
	lw_emit(w, "IADD3.X %s, %s, -0x1, RZ, %s, !PT", lw_elem(w, m0, 1), lw_elem(w, m0, 1), p);
	shl64(w, m, m0, pos);
	shl64(w, s, a, pos);
	ix_lop3(w, 1, NULL, f, s, m, ix_lo(w, 2), 0xe2, NULL);
	ix_lop3(w, 1, NULL, lw_elem(w, f, 1), lw_elem(w, s, 1), lw_elem(w, m, 1), ix_hi(w, 2), 0xe2,
	        NULL);
	return 0;
}

/* lop3.b32 d, a, b, c, lut; lop3.or|and.b32 d|p, a, b, c, lut, q */
int
ix_sel_lop3(Lw *w)
{
	int pr = lw_veclen(w, 0) == 2 && lw_opnd(w, 0)->kind == PoPair;

	if (ix_nopnd(w, pr ? 6 : 5) < 0)
		return -1;
	if (!ix_isimm(w, 4))
		return lw_error_opnd(w, 4, "the LUT of lop3 must be an immediate");
	unsigned lut = (unsigned)ix_immv(w, 4) & 0xff;
	const char *a = K(ix_b(w, 1)), *b = K(ix_b(w, 2)), *c = K(ix_b(w, 3));
	if (!pr) {
		ix_lop3(w, 1, NULL, ix_dreg(w, 0, 32), a, b, c, lut, NULL);
		return 0;
	}
	const char *d = K(lw_vec(w, 0, 0)), *p = K(ix_pdst(w, 0, 1)), *q = K(ix_pred(w, 5));
	if (lw_has(w, "or")) {
		ix_lop3(w, 1, p, d, a, b, c, lut, q);
	} else if (lw_has(w, "and")) {
		const char *t = K(lw_ptmp(w));
		ix_lop3(w, 1, t, d, a, b, c, lut, NULL);
		lw_emit(w, "PLOP3.LUT %s, PT, %s, %s, PT, 0x80, 0x0", p, t, q);
	} else {
		return lw_error(w, "lop3 with a predicate result takes .or or .and");
	}
	return 0;
}

/* ---- popc, clz, bfind, brev ---------------------------------------------------------------- */

int
ix_sel_count(Lw *w)
{
	int bits = ix_bits(w), popc = ix_op(w, "popc"), clz = ix_op(w, "clz");
	int sgn = ix_sgn(w), sh = lw_has(w, "shiftamt");
	const char *d;

	if (ix_nopnd(w, 2) < 0)
		return -1;
	if (bits != 32 && bits != 64)
		return lw_error(w, "%s on .%s", ptx_str(w->p, w->ins->op), lw_type(w));
	d = K(ix_dreg(w, 0, 32));
	if (bits == 32) {
		const char *a = K(ix_b(w, 1));
		if (popc) {
			lw_emit(w, "POPC %s, %s", d, a);
		} else if (clz) {
			const char *t = K(lw_tmp(w));
			lw_emit(w, "FLO.U32 %s, %s", t, a);
			lw_emit(w, "IADD3 %s, -%s, 0x1f, RZ", d, t);
		} else {
			lw_emit(w, "FLO.%s32%s %s, %s", sgn ? "S" : "U", sh ? ".SH" : "", d, a);
		}
		return 0;
	}
	const char *a = K(ix_pair(w, 1)), *lo = K(a), *hi = K(lw_elem(w, a, 1));
	if (popc) {
		const char *t = K(lw_tmp(w)), *u = K(lw_tmp(w));
		lw_emit(w, "POPC %s, %s", t, lo);
		lw_emit(w, "POPC %s, %s", u, hi);
		lw_emit(w, "IADD3 %s, %s, %s, RZ", d, t, u);
		return 0;
	}
	if (!clz && sgn) {                      /* the first bit that differs from the sign */
		const char *s = K(lw_tmp(w)), *x = K(lw_tmp64(w));
		lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", s, hi);
		lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0x3c, !PT", x, lo, s);
		lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0x3c, !PT", lw_elem(w, x, 1), hi, s);
		lo = x;
		hi = lw_elem(w, x, 1);
	}
	/* the high word when it is not zero, else the low one */
	const char *p = K(lw_ptmp(w)), *t = K(lw_tmp(w)), *f = K(lw_tmp(w)), *g = K(lw_tmp(w));
	lw_emit(w, "ISETP.NE.U32.AND %s, PT, %s, RZ, PT", p, hi);
	lw_emit(w, "SEL %s, %s, %s, %s", t, hi, lo, p);
	if (clz) {
		const char *x = K(lw_tmp(w));
		lw_emit(w, "FLO.U32 %s, %s", f, t);
		lw_emit(w, "IADD3 %s, -%s, 0x1f, RZ", x, f);
		lw_emit(w, "IADD3 %s, -%s, 0x3f, RZ", g, f);
		lw_emit(w, "SEL %s, %s, %s, %s", d, x, g, p);
	} else if (!sh) {
		lw_emit(w, "FLO.U32 %s, %s", f, t);
		lw_emit(w, "IADD3 %s, %s, 0x20, RZ", g, f);
		lw_emit(w, "SEL %s, %s, %s, %s", d, g, f, p);
	} else {
		const char *h = K(lw_tmp(w)), *q = K(lw_ptmp(w));
		lw_emit(w, "FLO.U32.SH %s, %s", f, t);
		lw_emit(w, "IADD3 %s, %s, 0x20, RZ", g, f);
		lw_emit(w, "SEL %s, %s, %s, %s", h, f, g, p);
		lw_emit(w, "LOP3.LUT %s, RZ, %s, %s, RZ, 0xfc, !PT", q, lo, hi);
		lw_emit(w, "SEL %s, %s, 0xffffffff, %s", d, h, q);
	}
	return 0;
}

int
ix_sel_brev(Lw *w)
{
	int bits = ix_bits(w);
	const char *d;

	if (ix_nopnd(w, 2) < 0)
		return -1;
	if (bits != 32 && bits != 64)
		return lw_error(w, "brev on .%s", lw_type(w));
	d = K(ix_dreg(w, 0, bits));
	if (bits == 32) {
		lw_emit(w, "BREV %s, %s", d, ix_b(w, 1));
		return 0;
	}
	const char *a = K(ix_pair(w, 1)), *t = K(lw_tmp(w));
	lw_emit(w, "BREV %s, %s", t, a);
	lw_emit(w, "BREV %s, %s", d, lw_elem(w, a, 1));
	lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), t);
	return 0;
}

/* bmsk.clamp|wrap.b32 d, a, b: BMSK[.W] d, a, b */
int
ix_sel_bmsk(Lw *w)
{
	int wrap = lw_has(w, "wrap");

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (ix_bits(w) != 32 || wrap == lw_has(w, "clamp"))
		return lw_error(w, "bmsk takes .clamp or .wrap and .b32");
	lw_emit(w, "BMSK%s %s, %s, %s", wrap ? ".W" : "", ix_dreg(w, 0, 32), ix_a(w, 1), ix_b(w, 2));
	return 0;
}

/* szext.clamp|wrap.u32|s32 d, a, b: SGXT[.W][.U32] d, a, b */
int
ix_sel_szext(Lw *w)
{
	int wrap = lw_has(w, "wrap");

	if (ix_nopnd(w, 3) < 0)
		return -1;
	if (ix_bits(w) != 32 || wrap == lw_has(w, "clamp"))
		return lw_error(w, "szext takes .clamp or .wrap and .u32 or .s32");
	lw_emit(w, "SGXT%s%s %s, %s, %s", wrap ? ".W" : "", ix_sgn(w) ? "" : ".U32", ix_dreg(w, 0, 32),
	        ix_a(w, 1), ix_b(w, 2));
	return 0;
}
