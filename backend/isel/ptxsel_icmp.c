/* ptxsel_icmp.c: instruction selection of the int family's compares, selects and conversions
 * (ptxsel_int.h): setp and set on integer types (ISETP, with .EX for 64 bits, the .and/.or/.xor
 * combiner and the p|q pair), selp and slct (SEL), and cvt between integer types: extension,
 * truncation, .sat (I2I.dst.src.SAT up to 32 bits, compares and SELs past that), cvt.pack.sat
 * (I2IP). A cvt from a float type goes to the float family (lw_cvt_f2i).
 */
#include "ptxsel_int.h"

#define K(s) ix_keep(s)

#include <stdio.h>

/* ---- setp, set ----------------------------------------------------------------------------- */

static const struct {
	const char *ptx, *sass, *rev;  /* the PTX compare, ISETP's, ISETP's with a and b swapped */
	int uns;                       /* an unsigned compare whatever the type */
} cmps[] = {
	{ "eq", "EQ", "EQ", 0 }, { "ne", "NE", "NE", 0 }, { "lt", "LT", "GT", 0 },
	{ "le", "LE", "GE", 0 }, { "gt", "GT", "LT", 0 }, { "ge", "GE", "LE", 0 },
	{ "lo", "LT", "GT", 1 }, { "ls", "LE", "GE", 1 }, { "hi", "GT", "LT", 1 },
	{ "hs", "GE", "LE", 1 },
};

/* the compare of w->ins (a, b at operands ka, kb... as written) into p and q (!r), combined with
 * c by bop; nbase: the index of a */
static int
icmp(Lw *w, int ka, int kb, const char *p, const char *q, const char *bop, const char *c)
{
	int k, bits = ix_bits(w);
	const char *t = K(lw_type(w));

	for (k = 0; k < (int)(sizeof cmps / sizeof cmps[0]); k++)
		if (lw_has(w, cmps[k].ptx))
			break;
	if (k == (int)(sizeof cmps / sizeof cmps[0]))
		return lw_error(w, "an integer compare takes eq, ne, lt, le, gt, ge, lo, ls, hi or hs");
	if (bits != 16 && bits != 32 && bits != 64)
		return lw_error(w, "an integer compare on .%s", t);
	int sgn = lw_type_signed(t) && !cmps[k].uns;
	const char *cmp = cmps[k].sass;
	if (ix_isimm(w, ka) && !ix_isimm(w, kb)) {     /* the immediate to the b slot */
		int s = ka;
		ka = kb;
		kb = s;
		cmp = cmps[k].rev;
	}
	if (bits == 64) {
		const char *a = K(ix_pair(w, ka));
		ix_cmp64(w, 1, p, q, cmp, sgn, a, lw_elem(w, a, 1), ix_lo(w, kb), ix_hi(w, kb), bop, c);
		return 0;
	}
	lw_emit(w, "ISETP.%s%s.%s %s, %s, %s, %s, %s", cmp, sgn ? "" : ".U32", bop, p, q,
	        ix_aext(w, ka, bits, sgn), ix_ext(w, kb, bits, sgn), c);
	return 0;
}

/* the combiner .and/.or/.xor of setp/set and its predicate operand k, or AND with PT */
static int
combiner(Lw *w, int k, const char **bop, const char **c)
{
	*bop = lw_has(w, "and") ? "AND" : lw_has(w, "or") ? "OR" : lw_has(w, "xor") ? "XOR" : NULL;
	if (!*bop) {
		*bop = "AND";
		*c = "PT";
		return ix_nopnd(w, k);
	}
	if (ix_nopnd(w, k + 1) < 0)
		return -1;
	*c = ix_pred(w, k);
	return 0;
}

int
ix_sel_setp(Lw *w)
{
	const char *bop, *c;

	if (combiner(w, 3, &bop, &c) < 0)
		return -1;
	int pair = lw_veclen(w, 0) == 2;
	return icmp(w, 1, 2, ix_pdst(w, 0, 0), pair ? ix_pdst(w, 0, 1) : "PT", bop, c);
}

/* set.cmp[.bop].dtype.stype d, a, b[, c]: all ones (u32, s32) or 1.0 (f32) when true */
int
ix_sel_set(Lw *w)
{
	const char *bop, *c, *dt = K(lw_type_n(w, 0)), *p = K(lw_ptmp(w));

	if (combiner(w, 3, &bop, &c) < 0)
		return -1;
	if (strcmp(dt, "u32") && strcmp(dt, "s32") && strcmp(dt, "f32"))
		return lw_error(w, "set to .%s", dt);
	if (icmp(w, 1, 2, p, "PT", bop, c) < 0)
		return -1;
	lw_emit(w, "SEL %s, RZ, %s, !%s", ix_dreg(w, 0, 32), dt[0] == 'f' ? "0x3f800000" : "0xffffffff", p);
	return 0;
}

/* ---- selp, slct ---------------------------------------------------------------------------- */

static const char *
pnot(Lw *w, const char *p)
{
	char *s = w->ring[w->ringpos++ % LwRing];

	if (p[0] == '!')
		snprintf(s, LwStr, "%s", p + 1);
	else
		snprintf(s, LwStr, "!%s", p);
	return s;
}

/* d = c ? a : b over `bits` (16, 32 or 64) */
static int
sel_value(Lw *w, int bits, const char *c)
{
	const char *d = K(ix_dreg(w, 0, bits));
	int ka = 1, kb = 2;

	if (ix_isimm(w, 1) && !ix_isimm(w, 2)) {      /* SEL takes the immediate in b */
		ka = 2;
		kb = 1;
		c = pnot(w, c);
	}
	if (bits == 64) {
		const char *a = K(ix_pair(w, ka));
		lw_emit(w, "SEL %s, %s, %s, %s", d, a, ix_lo(w, kb), c);
		lw_emit(w, "SEL %s, %s, %s, %s", lw_elem(w, d, 1), lw_elem(w, a, 1), ix_hi(w, kb), c);
		return 0;
	}
	if (bits != 16 && bits != 32)
		return lw_error(w, "a select of .%s", lw_type_n(w, 0));
	lw_emit(w, "SEL %s, %s, %s, %s", d, ix_a(w, ka), ix_b(w, kb), c);
	return 0;
}

int
ix_sel_selp(Lw *w)
{
	if (ix_nopnd(w, 4) < 0)
		return -1;
	return sel_value(w, ix_bits(w), ix_pred(w, 3));
}

/* slct.dtype.s32 d, a, b, c: c >= 0 ? a : b */
int
ix_sel_slct(Lw *w)
{
	const char *p = K(lw_ptmp(w));

	if (ix_nopnd(w, 4) < 0)
		return -1;
	if (strcmp(lw_type(w), "s32"))
		return lw_error(w, "slct with a .%s compare", lw_type(w));
	lw_emit(w, "ISETP.GE.AND %s, PT, %s, RZ, PT", p, ix_a(w, 3));
	return sel_value(w, lw_type_bits(lw_type_n(w, 0)), p);
}

/* ---- cvt between integer types ------------------------------------------------------------ */

/* d = r extended (sgn) from `bits` to 32 bits (bits >= 32: a move) */
static void
ext_into(Lw *w, const char *d, const char *r, int bits, int sgn)
{
	if (bits >= 32)
		lw_emit(w, "MOV %s, %s", d, r);
	else if (sgn)
		lw_emit(w, "PRMT %s, %s, 0x%s, RZ", d, r, bits == 8 ? "8880" : "9910");
	else
		lw_emit(w, "LOP3.LUT %s, %s, 0x%s, RZ, 0xc0, !PT", d, r, bits == 8 ? "ff" : "ffff");
}

/* the destination d of register width wd (16, 32, 64) gets r extended (sgn) from `bits`; a
 * 64-bit one gets the high word by hsgn (hi: a register for it instead) */
static void
put(Lw *w, const char *d, int wd, const char *r, int bits, int sgn, const char *hi, int hsgn)
{
	ext_into(w, d, r, bits, sgn);
	if (wd != 64)
		return;
	if (hi)
		lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), hi);
	else if (hsgn)
		lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", lw_elem(w, d, 1), bits >= 32 ? r : d);
	else
		lw_emit(w, "MOV %s, RZ", lw_elem(w, d, 1));
}

/* operand 1's low word as a register */
static const char *
src_lo(Lw *w)
{
	const LwReg *r = lw_regof(w, 1);

	if (r && r->kind == Lk64)
		return lw_reg(w, 1);
	return ix_a(w, 1);
}

/* r extended from bits into a fresh temporary (bits >= 32: r) */
static const char *
ext_tmp(Lw *w, const char *r, int bits, int sgn)
{
	if (bits >= 32)
		return r;
	const char *t = K(lw_tmp(w));
	ext_into(w, t, r, bits, sgn);
	return t;
}

/* cvt.pack.sat.{u16|s16}.s32 d, a, b; cvt.pack.sat.{u8|s8}.s32.b32 d, a, b, c: I2IP */
static int
cvt_pack(Lw *w)
{
	const char *dt = K(lw_type_n(w, 0)), *st = K(lw_type_n(w, 1));
	int db = lw_type_bits(dt), four = db == 8;

	if (!lw_has(w, "sat") || strcmp(st, "s32") || (db != 8 && db != 16) || lw_type_float(dt))
		return lw_error(w, "cvt.pack to .%s (.sat to u8, s8, u16, s16 from s32 only)", dt);
	if (ix_nopnd(w, four ? 4 : 3) < 0)
		return -1;
	lw_emit(w, "I2IP.%c%d.S32.SAT %s, %s, %s, %s", dt[0] == 's' ? 'S' : 'U', db, ix_dreg(w, 0, 32),
	        ix_a(w, 1), ix_b(w, 2), four ? ix_a(w, 3) : "RZ");
	return 0;
}

/* the 64-bit clamp of .sat where I2I does not reach: x (the source extended to 64 bits) to
 * [lo, hi] by compares and SELs */
static void
clamp64(Lw *w, const char *r, const char *x, int ss, int needlo, int needhi, uint64_t lo,
        uint64_t hi)
{
	const char *x1 = K(lw_elem(w, x, 1)), *r1 = K(lw_elem(w, r, 1));

	lw_emit(w, "MOV %s, %s", r, x);
	lw_emit(w, "MOV %s, %s", r1, x1);
	if (needhi) {
		const char *q = K(lw_ptmp(w));
		ix_cmp64(w, 1, q, "PT", "GT", ss, x, x1, ix_imm(w, (uint32_t)hi),
		         ix_imm(w, (uint32_t)(hi >> 32)), "AND", "PT");
		lw_emit(w, "SEL %s, %s, %s, !%s", r, r, ix_imm(w, (uint32_t)hi), q);
		lw_emit(w, "SEL %s, %s, %s, !%s", r1, r1, ix_imm(w, (uint32_t)(hi >> 32)), q);
	}
	if (needlo) {
		const char *p = K(lw_ptmp(w));
		ix_cmp64(w, 1, p, "PT", "LT", 1, x, x1, ix_imm(w, (uint32_t)lo),
		         ix_imm(w, (uint32_t)(lo >> 32)), "AND", "PT");
		lw_emit(w, "SEL %s, %s, %s, !%s", r, r, ix_imm(w, (uint32_t)lo), p);
		lw_emit(w, "SEL %s, %s, %s, !%s", r1, r1, ix_imm(w, (uint32_t)(lo >> 32)), p);
	}
}

int
ix_sel_cvt(Lw *w)
{
	const char *dt = K(lw_type_n(w, 0)), *st = K(lw_type_n(w, 1));

	if (lw_type_float(st))
		return lw_cvt_f2i(w);
	if (lw_has(w, "pack"))
		return cvt_pack(w);
	if (!st[0] || lw_type_n(w, 2)[0])
		return lw_error(w, "cvt takes a destination and a source type");
	if (ix_nopnd(w, 2) < 0)
		return -1;
	int db = lw_type_bits(dt), sb = lw_type_bits(st), ds = lw_type_signed(dt);
	int ss = lw_type_signed(st), sat = lw_has(w, "sat");
	if ((db != 8 && db != 16 && db != 32 && db != 64) || (sb != 8 && sb != 16 && sb != 32 &&
	    sb != 64))
		return lw_error(w, "cvt to .%s from .%s", dt, st);
	const LwReg *rd = lw_regof(w, 0);
	if (!rd || rd->kind == LkPred || rd->kind == Lk128)
		return lw_error_opnd(w, 0, "cvt writes a 16-, 32- or 64-bit register");
	int wd = rd->kind == Lk64 ? 64 : rd->kind == Lk16 ? 16 : 32;
	const char *d = K(lw_reg(w, 0));
	/* .sat clamps when the source range passes the destination's */
	int needlo = sat && ss && (!ds || sb > db);
	int needhi = sat && (ss ? sb > db : ds ? sb >= db : sb > db);
	if (needlo || needhi) {
		if (sb <= 32 && db <= 32) {
			const char *t = K(lw_tmp(w));
			lw_emit(w, "I2I.%c%d.%c%d.SAT %s, %s", ds ? 'S' : 'U', db, ss ? 'S' : 'U', sb, t,
			        src_lo(w));
			put(w, d, wd, t, wd > db ? db : 32, ds, NULL, ds);
			return 0;
		}
		/* the source as 64 bits, clamped, then narrowed */
		const char *x = K(lw_tmp64(w)), *r = K(lw_tmp64(w));
		if (sb == 64) {
			x = ix_pair(w, 1);
		} else {
			const char *lo = K(ext_tmp(w, src_lo(w), sb, ss));
			lw_emit(w, "MOV %s, %s", x, lo);
			if (ss)
				lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", lw_elem(w, x, 1), lo);
			else
				lw_emit(w, "MOV %s, RZ", lw_elem(w, x, 1));
		}
		uint64_t lo = ds ? 0 - (1ull << (db - 1)) : 0;
		uint64_t hi = db == 64 ? (ds ? 0x7fffffffffffffffull : ~0ull) :
		              ds ? (1ull << (db - 1)) - 1 : (1ull << db) - 1;
		clamp64(w, r, x, ss, needlo, needhi, lo, hi);
		put(w, d, wd, r, wd > db ? db : 32, ds, wd == 64 && db == 64 ? lw_elem(w, r, 1) : NULL, ds);
		return 0;
	}
	const char *a = K(src_lo(w));
	if (db <= sb) {                  /* truncation: the low db bits, extended by the type */
		put(w, d, wd, a, wd > db ? db : 32, ds, wd == 64 && db == 64 ? lw_elem(w, a, 1) : NULL, ds);
		return 0;
	}
	/* widening: the source extended by its type, then by the destination type when the
	 * register is wider still and the signs differ */
	if (wd > db && db < 32 && ds != ss)
		put(w, d, wd, ext_tmp(w, a, sb, ss), db, ds, NULL, ds);
	else
		put(w, d, wd, a, sb, ss, NULL, db == 64 ? ss : ds);
	return 0;
}
