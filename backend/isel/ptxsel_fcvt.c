/* ptxsel_fcvt.c: float conversions of the float family (ptxsel_float.h): cvt to f32 and f64 from
 * every float and integer type (F2F, I2F/I2FP, FRND, HADD2.F32, SHF.L for bf16), the .sat and
 * .ftz forms, cvt.rna.tf32.f32, and cvt from a float to an integer (F2I), which the int family's
 * cvt row hands over (lw_cvt_f2i). nvcc's forms on sm_80 and sm_90 (docs/isel-float.md). */
#include "ptxsel_float.h"

#include <string.h>

/* the integer rounding of cvt as an F2I/FRND suffix; *has: one was written */
static const char *
irnd(Lw *w, int *has)
{
	*has = 1;
	if (lw_has(w, "rzi"))
		return ".TRUNC";
	if (lw_has(w, "rmi"))
		return ".FLOOR";
	if (lw_has(w, "rpi"))
		return ".CEIL";
	*has = lw_has(w, "rni");
	return "";
}

/* the I2F/F2I suffix of an integer type; "" for s32 (the default) */
static const char *
int_sfx(const char *t)
{
	static const char *const names[][2] = {
		{ "s8", ".S8" }, { "u8", ".U8" }, { "s16", ".S16" }, { "u16", ".U16" },
		{ "s32", "" }, { "u32", ".U32" }, { "s64", ".S64" }, { "u64", ".U64" },
	};
	for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
		if (!strcmp(t, names[k][0]))
			return names[k][1];
	return NULL;
}

/* d = t with .sat (clamp to [0, 1], NaN to +0) and .ftz (subnormal to a signed zero) of an f32
 * result, as nvcc: FADD[.FTZ].SAT d, RZ, t or FADD.FTZ d, t, -RZ; nothing when t is d */
static void
post32(Lw *w, const char *d, const char *t, int sat, int ftz)
{
	if (sat)
		lw_emit(w, "FADD%s.SAT %s, RZ, %s", ftz ? ".FTZ" : "", d, t);
	else if (ftz)
		lw_emit(w, "FADD.FTZ %s, %s, -RZ", d, t);
	else if (strcmp(d, t))
		lw_emit(w, "MOV %s, %s", d, t);
}

/* d = t clamped to [0, 1] (NaN gives +0) for an f64 pair, as nvcc: max(+0, t) then min(., 1.0)
 * with DSETP.MAX/MIN and FSEL/SEL of the words (neither operand of either is a NaN but t's) */
static void
dsat(Lw *w, const char *d, const char *t)
{
	const char *p = lw_ptmp(w), *u = lw_tmp64(w);

	lw_emit(w, "DSETP.MAX.AND %s, PT, RZ, %s, PT", p, t);
	lw_emit(w, "FSEL %s, RZ, %s, %s", lw_elem(w, u, 1), lw_elem(w, t, 1), p);
	lw_emit(w, "SEL %s, RZ, %s, %s", u, t, p);
	lw_emit(w, "DSETP.MIN.AND %s, PT, %s, 1, PT", p, u);
	lw_emit(w, "FSEL %s, %s, 1.875, %s", lw_elem(w, d, 1), lw_elem(w, u, 1), p);
	lw_emit(w, "SEL %s, %s, RZ, %s", d, u, p);
}

/* cvt.rna.tf32.f32 d, a: round to nearest, ties away, to 10 fraction bits unless a is Inf or
 * NaN (nvcc: FSETP.GEU |a|, +INF; @!p add 0x1000; clear the low 13 bits) */
static int
cvt_tf32(Lw *w)
{
	FSeq s = {0};

	if (fs_mods(w, "rna") < 0)
		return -1;
	if (!lw_has(w, "rna") || strcmp(lw_type_n(w, 1), "f32"))
		return lw_error(w, "only cvt.rna.tf32.f32 is selected");
	fs_begin(w, &s);
	const char *a = lw_rsrc(w, 1), *p = lw_ptmp(w), *t = lw_tmp(w);
	lw_emit(w, "FSETP.GEU.AND %s, PT, |%s|, +INF, PT", p, a);
	lw_emit(w, "MOV %s, %s", t, a);
	lw_emit(w, "@!%s IADD3 %s, %s, 0x1000, RZ", p, t, t);
	lw_emit(w, "LOP3.LUT %s, %s, 0xffffe000, RZ, 0xc0, !PT", lw_reg(w, 0), t);
	fs_end(w, &s);
	return 0;
}

/* cvt to .f32 */
static int
cvt_f32(Lw *w, const char *st)
{
	const char *d = lw_reg(w, 0), *r;
	int sat = lw_has(w, "sat"), ftz = lw_has(w, "ftz"), hi, post = sat || ftz;
	const char *ir = irnd(w, &hi);
	FSeq s = {0};

	if (!strcmp(st, "f32")) {                     /* to itself: rounding to an integer */
		if (fs_mods(w, "rni rzi rmi rpi ftz sat") < 0)
			return -1;
		if (!hi && !post) {
			lw_emit(w, "MOV %s, %s", d, lw_isrc(w, 1));
			return 0;
		}
		fs_begin(w, &s);
		const char *a = lw_rsrc(w, 1);
		if (hi) {
			const char *t = sat ? lw_tmp(w) : d;
			lw_emit(w, "FRND%s%s %s, %s", ftz ? ".FTZ" : "", ir, t, a);
			if (sat)
				post32(w, d, t, 1, 0);
		} else {
			post32(w, d, a, sat, ftz);
		}
		fs_end(w, &s);
		return 0;
	}
	if (hi)
		return lw_error(w, "rounding to an integer (.%s) in a conversion between types",
		                ir[0] ? ir + 1 : "rni");
	fs_begin(w, &s);
	const char *t = post ? lw_tmp(w) : d;
	if (!strcmp(st, "f64")) {
		if (fs_mods(w, "rn rz rm rp ftz sat") < 0)
			goto fail;
		r = fs_f64src(w, 1, 0);
		lw_emit(w, "F2F.F32.F64%s %s, %s", fs_rnd(w), t, r);
	} else if (!strcmp(st, "f16") || !strcmp(st, "bf16")) {
		if (fs_mods(w, "ftz sat") < 0)
			goto fail;
		r = lw_rsrc(w, 1);
		if (st[0] == 'f')
			lw_emit(w, "HADD2.F32 %s, -RZ, %s.H0_H0", t, r);
		else
			lw_emit(w, "SHF.L.U32 %s, %s, 0x10, RZ", t, r);
	} else if (int_sfx(st)) {
		if (fs_mods(w, "rn rz rm rp ftz sat") < 0)
			goto fail;
		r = lw_rsrc(w, 1);
		int bits = lw_type_bits(st);
		if (arch_has(w->arch, ArchI2fp) && bits == 32)
			lw_emit(w, "I2FP.F32.%s%s %s, %s", st[0] == 's' ? "S32" : "U32", fs_rnd(w), t, r);
		else
			lw_emit(w, "I2F%s%s %s, %s", int_sfx(st), fs_rnd(w), t, r);
		ftz = 0;                                   /* no integer converts to a subnormal */
	} else {
		lw_error(w, "cvt to .f32 from .%s", st);
		goto fail;
	}
	if (post)
		post32(w, d, t, sat, ftz);
	fs_end(w, &s);
	return 0;
fail:
	fs_end(w, &s);
	return -1;
}

/* cvt to .f64 */
static int
cvt_f64(Lw *w, const char *st)
{
	const char *d = lw_reg(w, 0), *r;
	int sat = lw_has(w, "sat"), hi;
	const char *ir = irnd(w, &hi);
	FSeq s = {0};

	if (!strcmp(st, "f64")) {
		if (fs_mods(w, "rni rzi rmi rpi sat") < 0)
			return -1;
		fs_begin(w, &s);
		r = fs_f64src(w, 1, 0);
		const char *t = r;
		if (hi) {
			t = sat ? lw_tmp64(w) : d;
			lw_emit(w, "FRND.F64%s %s, %s", ir, t, r);
		}
		if (sat) {
			dsat(w, d, t);
		} else if (!hi) {
			lw_emit(w, "MOV %s, %s", d, r);
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_elem(w, r, 1));
		}
		fs_end(w, &s);
		return 0;
	}
	if (hi)
		return lw_error(w, "rounding to an integer (.%s) in a conversion between types",
		                ir[0] ? ir + 1 : "rni");
	fs_begin(w, &s);
	const char *t = sat ? lw_tmp64(w) : d;
	if (!strcmp(st, "f32")) {
		if (fs_mods(w, "ftz sat") < 0)
			goto fail;
		r = lw_rsrc(w, 1);
		if (lw_has(w, "ftz")) {                  /* the source's subnormals flushed first */
			const char *f = lw_tmp(w);
			lw_emit(w, "FMUL.FTZ %s, %s, 1", f, r);
			r = f;
		}
		lw_emit(w, "F2F.F64.F32 %s, %s", t, r);
	} else if (!strcmp(st, "f16")) {
		if (fs_mods(w, "sat") < 0)
			goto fail;
		lw_emit(w, "F2F.F64.F16 %s, %s", t, lw_rsrc(w, 1));
	} else if (!strcmp(st, "bf16")) {
		if (fs_mods(w, "sat") < 0)
			goto fail;
		r = lw_rsrc(w, 1);
		if (arch_has(w->arch, ArchBf16Arith)) {
			lw_emit(w, "F2F.F64.BF16 %s, %s", t, r);
		} else {                                 /* exact through f32 */
			const char *f = lw_tmp(w);
			lw_emit(w, "SHF.L.U32 %s, %s, 0x10, RZ", f, r);
			lw_emit(w, "F2F.F64.F32 %s, %s", t, f);
		}
	} else if (int_sfx(st)) {
		if (fs_mods(w, "rn rz rm rp sat") < 0)
			goto fail;
		lw_emit(w, "I2F.F64%s%s %s, %s", int_sfx(st), fs_rnd(w), t,
		        lw_type_bits(st) == 64 ? lw_reg(w, 1) : lw_rsrc(w, 1));
	} else {
		lw_error(w, "cvt to .f64 from .%s", st);
		goto fail;
	}
	if (sat)
		dsat(w, d, t);
	fs_end(w, &s);
	return 0;
fail:
	fs_end(w, &s);
	return -1;
}

int
fs_cvt(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *st = lw_type_n(w, 1);

	if (!st[0] || lw_type_n(w, 2)[0])
		return lw_error(w, "cvt takes a destination and a source type");
	if (lw_has(w, "relu") || lw_has(w, "pack"))
		return lw_error(w, "cvt.%s to .%s", lw_has(w, "relu") ? "relu" : "pack", dt);
	if (!strcmp(dt, "tf32"))
		return cvt_tf32(w);
	if (!strcmp(dt, "f32"))
		return cvt_f32(w, st);
	return cvt_f64(w, st);
}

/* cvt.irnd[.ftz][.sat].ityp.ftyp d, a: F2I[.FTZ][.ityp][.ftyp][.TRUNC|.FLOOR|.CEIL][.NTZ]
 * (F2I saturates and gives 0 for NaN, which is cvt's .sat; nvcc writes .NTZ for a 32-bit or
 * narrower result from a 32- or 16-bit float) */
int
fs_cvt_int(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *st = lw_type_n(w, 1), *ds = int_sfx(dt), *ss, *a;
	int hi, f64 = !strcmp(st, "f64");
	const char *ir = irnd(w, &hi);
	FSeq s = {0};

	if (!st[0] || lw_type_n(w, 2)[0])
		return lw_error(w, "cvt takes a destination and a source type");
	if (!ds)
		return lw_error(w, "cvt to .%s", dt);
	if (!strcmp(st, "f32"))
		ss = "";
	else if (f64)
		ss = ".F64";
	else if (!strcmp(st, "f16"))
		ss = ".F16";
	else if (!strcmp(st, "bf16"))
		ss = ".BF16";
	else
		return lw_error(w, "cvt to .%s from .%s", dt, st);
	if (fs_mods(w, strcmp(st, "f32") ? "rni rzi rmi rpi sat" : "rni rzi rmi rpi sat ftz") < 0)
		return -1;
	if (!hi)
		return lw_error(w, "a float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
	if (lw_isimm(w, 1))
		fs_begin(w, &s);
	a = f64 ? fs_f64src(w, 1, 0) : lw_rsrc(w, 1);
	lw_emit(w, "F2I%s%s%s%s%s %s, %s", lw_has(w, "ftz") ? ".FTZ" : "", ds, ss, ir,
	        !f64 && lw_type_bits(dt) <= 32 ? ".NTZ" : "", lw_reg(w, 0), a);
	fs_end(w, &s);
	return 0;
}
