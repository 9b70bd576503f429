/* lwopnd.c: the PTX instruction being selected, as the selection functions read it (ptxlow.h):
 * its modifiers and type words, its operands, and their SASS text: immediates (integer and
 * float spellings), sources for the b and c slots (registers, immediates, kernel parameters in
 * constant bank 0, shared offsets), and address operands of each state space.
 */
#include "lwpriv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the instruction ---------------------------------------------------------------------- */

int
lw_has(const Lw *w, const char *mod)
{
	return ptx_ins_hasmod(w->p, w->ins, mod);
}

static const char *const type_words[] = {
	"pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
	"s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64", "e4m3", "e5m2", "e4m3x2",
	"e5m2x2", "s4", "u4", "b1", "s16x2", "u16x2", NULL
};

static int
is_type(const char *s)
{
	size_t n = strlen(s);

	/* every type word but pred ends in a digit: most modifiers are rejected at once */
	if (!n || n > 6 || ((s[n - 1] < '0' || s[n - 1] > '9') && strcmp(s, "pred") != 0))
		return 0;
	for (int k = 0; type_words[k]; k++)
		if (type_words[k][0] == s[0] && strcmp(s, type_words[k]) == 0)
			return 1;
	return 0;
}

const char *
lw_type_n(const Lw *w, int n)
{
	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		if (is_type(m) && n-- == 0)
			return m;
	}
	return "";
}

const char *
lw_type(const Lw *w)
{
	const char *t = "";

	if (w->tins == w->ins && w->tcache)
		return w->tcache;

	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		if (is_type(m))
			t = m;
	}
	((Lw *)w)->tins = w->ins;     /* a cache, not a change of w */
	((Lw *)w)->tcache = t;
	return t;
}

int
lw_type_bits(const char *t)
{
	/* the common words at once: b, u, s or f and a number ("u32", "f16", "b1", "s4") */
	if ((t[0] == 'b' || t[0] == 'u' || t[0] == 's' || t[0] == 'f') && t[1] >= '0' && t[1] <= '9' &&
	    (!t[2] || (t[2] >= '0' && t[2] <= '9' && (!t[3] || (t[3] >= '0' && t[3] <= '9' && !t[4])))))
		return atoi(t + 1);
	if (!strcmp(t, "pred") || !strcmp(t, "b1"))
		return 1;
	if (!strcmp(t, "f16x2") || !strcmp(t, "bf16x2") || !strcmp(t, "tf32") || !strcmp(t, "s16x2") ||
	    !strcmp(t, "u16x2"))
		return 32;
	if (!strcmp(t, "e4m3") || !strcmp(t, "e5m2"))
		return 8;
	if (!strcmp(t, "e4m3x2") || !strcmp(t, "e5m2x2"))
		return 16;
	if (!strcmp(t, "s4") || !strcmp(t, "u4"))
		return 4;
	while (*t && (*t < '0' || *t > '9'))
		t++;
	return atoi(t);
}

int
lw_type_signed(const char *t)
{
	return t[0] == 's';
}

int
lw_type_float(const char *t)
{
	return t[0] == 'f' || !strncmp(t, "bf", 2) || !strcmp(t, "tf32") || t[0] == 'e';
}

int
lw_tclass(const char *t)
{
	if (!t[0])
		return TcAny;
	if (!strcmp(t, "pred"))
		return TcPred;
	if (!strcmp(t, "f32") || !strcmp(t, "tf32"))
		return TcF32;
	if (!strcmp(t, "f64"))
		return TcF64;
	if (!strncmp(t, "f16", 3) || !strncmp(t, "bf16", 4))
		return TcHalf;
	if (t[0] == 'e')
		return TcHalf;
	return TcInt;
}

const PtxOpnd *
lw_opnd(const Lw *w, int k)
{
	return k < w->ins->nopnd ? &w->ins->opnd[k] : NULL;
}

/* WARP_SZ, the warp size: an immediate 32 wherever it stands (PTX ISA, "Special Registers") */
static int
is_warpsz(const Lw *w, const PtxOpnd *o)
{
	return o->kind == PoName && o->what == PwSreg && !strcmp(ptx_str(w->p, o->atom), "WARP_SZ");
}

int
lw_isimm(const Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	return o && (o->kind == PoImm || o->kind == PoF32 || o->kind == PoF64 || o->kind == PoFDec ||
	             is_warpsz(w, o));
}

int
lw_veclen(const Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	return o && (o->kind == PoVec || o->kind == PoPair) ? o->nsub : 1;
}

/* ---- immediates ---------------------------------------------------------------------------- */

static uint64_t
imm_bits(const PtxOpnd *o, int fbits)
{
	switch (o->kind) {
	case PoImm:
		return (uint64_t)o->ival;
	case PoName:               /* WARP_SZ (lw_isimm) */
		return 32;
	case PoF32:
		if (fbits == 64) {
			union { float f; uint32_t u; } a = { .u = (uint32_t)o->ival };
			union { double d; uint64_t u; } b = { .d = a.f };
			return b.u;
		}
		return (uint64_t)o->ival;
	case PoF64:
		if (fbits == 32) {
			union { double d; uint64_t u; } a = { .u = (uint64_t)o->ival };
			union { float f; uint32_t u; } b = { .f = (float)a.d };
			return b.u;
		}
		return (uint64_t)o->ival;
	case PoFDec:
		if (fbits == 64) {
			union { double d; uint64_t u; } b = { .d = o->fval };
			return b.u;
		} else {
			union { float f; uint32_t u; } b = { .f = (float)o->fval };
			return b.u;
		}
	default:
		return 0;
	}
}

int64_t
lw_imm(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (!lw_isimm(w, k)) {
		lw_error_opnd(w, k, "operand %d must be an immediate", k);
		return 0;
	}
	return (int64_t)imm_bits(o, lw_type_bits(lw_type(w)) == 64 ? 64 : 32);
}

/* a 32-bit integer as SASS writes it */
static const char *
int_text(Lw *w, uint32_t v)
{
	char *s = lw_ring(w);

	if ((int32_t)v < 0 && (int32_t)v > -0x10000)
		snprintf(s, LwStr, "-0x%x", (unsigned)-(int32_t)v);
	else
		snprintf(s, LwStr, "0x%x", (unsigned)v);
	return s;
}

/* a float value as SASS writes it: exactly representable, so the parser gets the same bits */
static const char *
float_text(Lw *w, uint32_t bits)
{
	union { uint32_t u; float f; } v = { bits };
	char *s = lw_ring(w);

	if (v.f != v.f)
		snprintf(s, LwStr, "%sQNAN", bits >> 31 ? "-" : "+");
	else if (v.f == (float)INFINITY || v.f == -(float)INFINITY)
		snprintf(s, LwStr, "%sINF", bits >> 31 ? "-" : "+");
	else if (v.f == 0 && bits >> 31)
		snprintf(s, LwStr, "-0");
	else
		snprintf(s, LwStr, "%.17g", (double)v.f);
	return s;
}

const char *
lw_lo(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)imm_bits(o, 64));
	return lw_reg(w, k);
}

const char *
lw_hi(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)(imm_bits(o, 64) >> 32));
	const LwReg *r = lw_opnd_reg(w, o);
	if (r && r->kind != Lk64 && r->kind != Lk128) {
		lw_error_opnd(w, k, "operand %d must be a 64-bit register here", k);
		return "RZ";
	}
	return lw_elem(w, lw_reg(w, k), 1);
}

const char *
lw_src(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);
	const char *t = lw_type(w);

	if (!o) {
		lw_error(w, "operand %d missing", k);
		return "RZ";
	}
	if (lw_isimm(w, k)) {
		int fl = lw_tclass(t) == TcF32 || (o->kind != PoImm && lw_tclass(t) != TcInt &&
		                                   lw_tclass(t) != TcHalf);
		uint32_t bits = (uint32_t)imm_bits(o, 32);
		return fl ? float_text(w, bits) : int_text(w, bits);
	}
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsParam) {
		int off = lw_param_offset(w, o->atom);
		char *s = lw_ring(w);
		if (off < 0) {
			lw_error_opnd(w, k, "parameter not found");
			return "RZ";
		}
		snprintf(s, LwStr, "c[0x0][0x%x]", (unsigned)(w->param_base + (uint32_t)off));
		return s;
	}
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsShared) {
		int off = lw_shared_offset(w, o->atom);
		if (off < 0) {
			lw_error_opnd(w, k, "shared variable not placed");
			return "RZ";
		}
		return int_text(w, (uint32_t)off);
	}
	return lw_reg(w, k);
}

const char *
lw_isrc(Lw *w, int k)
{
	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)imm_bits(lw_opnd(w, k), 32));
	return lw_src(w, k);
}

const char *
lw_rsrc(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind == PoName && o->what == PwReg)
		return lw_reg(w, k);
	if (o && o->kind == PoSink)
		return "RZ";
	const char *s = lw_isrc(w, k), *t = lw_tmp(w);
	lw_emit(w, "MOV %s, %s", t, s);
	return t;
}

int
lw_addr(Lw *w, int k, int space, char *buf, size_t n, char *cbank, size_t ncb)
{
	const PtxOpnd *a = lw_opnd(w, k);
	int64_t off = a && a->hasoff ? a->ival : 0;
	char offs[32] = "";

	if (!a || a->kind != PoAddr)
		return lw_error_opnd(w, k, "operand %d must be an address [...]", k);
	if (a->nsub > 1)
		return lw_error_opnd(w, k, "this address form is not selected");
	if (off > 0)
		snprintf(offs, sizeof offs, "+0x%llx", (unsigned long long)off);
	else if (off < 0)
		snprintf(offs, sizeof offs, "+-0x%llx", (unsigned long long)-off);
	if (!a->nsub) {
		snprintf(buf, n, "0x%llx", (unsigned long long)off);
		return 0;
	}
	const PtxOpnd *b = &a->sub[0];
	if (b->kind == PoImm) {
		snprintf(buf, n, "0x%llx", (unsigned long long)(b->ival + off));
		return 0;
	}
	if (b->kind == PoName && b->what == PwReg) {
		const LwFold *fo = lw_fold_of(w, b);
		if (fo) {             /* [d+off] of `add d, base, imm`: [base+imm+off] (lwfold.c) */
			b = fo->base;
			off += fo->imm;
			offs[0] = 0;
			if (off > 0)
				snprintf(offs, sizeof offs, "+0x%llx", (unsigned long long)off);
			else if (off < 0)
				snprintf(offs, sizeof offs, "+-0x%llx", (unsigned long long)-off);
		}
		const LwReg *r = lw_opnd_reg(w, b);
		const char *nm = ptx_str(w->p, r->name);
		int wide = space == PsGlobal || space == PsNoSpace;
		if (wide && r->kind != Lk64)
			return lw_error_opnd(w, k, "a %s address needs a 64-bit register",
			                     space == PsGlobal ? "global" : "generic");
		snprintf(buf, n, "%s%s%s", nm, wide ? ".64" : "", offs);
		return 0;
	}
	if (b->kind == PoName && b->what == PwVar && b->decl) {
		if (b->decl->space == PsParam) {
			int po = lw_param_offset(w, b->atom);
			if (po < 0 || !cbank)
				return lw_error_opnd(w, k, "'%s' is not a parameter of this kernel",
				                     ptx_str(w->p, b->atom));
			snprintf(cbank, ncb, "c[0x0][0x%llx]",
			         (unsigned long long)(w->param_base + (uint32_t)po + off));
			return 1;
		}
		if (b->decl->space == PsShared && (space == PsShared)) {
			int so = lw_shared_offset(w, b->atom);
			if (so < 0)
				return lw_error_opnd(w, k, "shared variable not placed");
			snprintf(buf, n, "0x%llx", (unsigned long long)(so + off));
			return 0;
		}
		if (b->decl->space == PsLocal && space == PsLocal) {
			int lo = lw_local_offset(w, b->atom);
			if (lo < 0)
				return lw_error_opnd(w, k, "local variable not placed");
			snprintf(buf, n, "R1+0x%llx", (unsigned long long)(lo + off));
			return 0;
		}
		if (b->decl->space == PsConst && space == PsConst && lw_const_offset(w, b->decl) >= 0) {
			snprintf(buf, n, "0x%llx", (unsigned long long)(lw_const_offset(w, b->decl) + off));
			return 0;
		}
		if (b->decl->space == PsGlobal && (space == PsGlobal || space == PsNoSpace) &&
		    lw_mvar(w->priv->cnt, b->decl)) {
			const char *lo, *hi, *t = lw_tmp64(w);
			if (lw_global_addr(w, b->decl, &lo, &hi) < 0)
				return -1;
			lw_emit(w, "MOV %s, %s", t, lo);
			lw_emit(w, "MOV %s, %s", lw_elem(w, t, 1), hi);
			snprintf(buf, n, "%s.64%s", t, offs);
			return 0;
		}
		return lw_error_opnd(w, k, "addressing a .%s variable by name in a .%s access",
		                     ptx_space_name(b->decl->space) + 1,
		                     space == PsNoSpace ? "generic" : ptx_space_name(space) + 1);
	}
	return lw_error_opnd(w, k, "this address form is not selected");
}
