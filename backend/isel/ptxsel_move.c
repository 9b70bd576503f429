/* ptxsel_move.c: instruction selection of moves (ptxsel.h): mov between registers, of
 * immediates, of special registers and of symbol addresses; packing and unpacking of vectors
 * with mov.b32/mov.b64 {a, b}. */
#include "ptxlow.h"
#include "ptxsel_mem.h"

#include <string.h>

/* PTX special registers: read with S2R, or from constant bank 0 (the launch dimensions) */
static const struct {
	const char *name;  /* "%tid" */
	const char *sfx;   /* "x", or "" */
	const char *sr;    /* S2R source, or NULL */
	int cb;            /* c[0x0][cb] when sr is NULL */
} sregs[] = {
	{ "%tid", "x", "SR_TID.X", 0 }, { "%tid", "y", "SR_TID.Y", 0 }, { "%tid", "z", "SR_TID.Z", 0 },
	{ "%ctaid", "x", "SR_CTAID.X", 0 }, { "%ctaid", "y", "SR_CTAID.Y", 0 },
	{ "%ctaid", "z", "SR_CTAID.Z", 0 },
	{ "%ntid", "x", NULL, C0Ntid }, { "%ntid", "y", NULL, C0Ntid + 4 },
	{ "%ntid", "z", NULL, C0Ntid + 8 }, { "%nctaid", "x", NULL, C0Nctaid },
	{ "%nctaid", "y", NULL, C0Nctaid + 4 }, { "%nctaid", "z", NULL, C0Nctaid + 8 },
	{ "%laneid", "", "SR_LANEID", 0 }, { "%warpid", "", "SR_VIRTID", 0 },
	{ "%smid", "", "SR_VIRTUALSMID", 0 }, { "%lanemask_lt", "", "SR_LTMASK", 0 },
	{ "%lanemask_le", "", "SR_LEMASK", 0 }, { "%lanemask_eq", "", "SR_EQMASK", 0 },
	{ "%lanemask_gt", "", "SR_GTMASK", 0 }, { "%lanemask_ge", "", "SR_GEMASK", 0 },
	{ "%clock", "", "SR_CLOCKLO", 0 },
	{ "%fiberid", "", "SR_FIBERID", 0 }, { "%fibernum", "", "SR_FIBERNUM", 0 }, /* FIBER */
};

static int
sel_sreg(Lw *w, const PtxOpnd *o)
{
	const char *n = ptx_str(w->p, o->atom), *x = o->sfx ? ptx_str(w->p, o->sfx) : "";
	const char *d = lw_reg(w, 0);

	if (!strcmp(n, "%clock64") || !strcmp(n, "%globaltimer")) {
		lw_emit(w, "CS2R %s, %s", d, n[1] == 'c' ? "SR_CLOCKLO" : "SR_GLOBALTIMERLO");
		return 0;
	}
	for (size_t k = 0; k < sizeof sregs / sizeof sregs[0]; k++)
		if (!strcmp(sregs[k].name, n) && !strcmp(sregs[k].sfx, x)) {
			if (sregs[k].sr)
				lw_emit(w, "S2R %s, %s", d, sregs[k].sr);
			else
				lw_emit(w, "MOV %s, c[0x0][0x%x]", d, sregs[k].cb);
			return 0;
		}
	return lw_error_opnd(w, 1, "special register '%s%s%s' is not selected", n, x[0] ? "." : "", x);
}

/* the bits an LwKind holds */
static int
kind_bits(int kind)
{
	return kind == Lk128 ? 128 : kind == Lk64 ? 64 : kind == Lk32 ? 32 : kind == Lk16 ? 16 : 1;
}

/* the element size of a pack or unpack of n elements into .bN (mov.b32 {a, b}: 16): the PTX
 * forms .b16 2x8, .b32 2x16 and 4x8, .b64 2x32 and 4x16, .b128 2x64 and 4x32; 0 otherwise */
static int
vec_elem_bits(int bits, int n)
{
	int eb = n == 2 || n == 4 ? bits / n : 0;

	if (bits < 16 || bits > 128 || eb < 8 || (n == 4 && eb == 64))
		return 0;
	return eb;
}

/* element e of the vector operand k is a register of the element's size, `_`, or (a source)
 * an immediate: 0, or -1 after a located error */
static int
vec_elem_ok(Lw *w, int k, int e, int eb, int src)
{
	int vk = lw_vkind(w, k, e), want = eb >= 64 ? Lk64 : eb == 32 ? Lk32 : Lk16;
	const PtxOpnd *v = &lw_opnd(w, k)->sub[e];

	if (vk == -1 || (src && (v->kind == PoImm || v->kind == PoF32 || v->kind == PoF64 ||
	                         v->kind == PoFDec)))
		return 0;
	if (vk != want)
		return lw_error_opnd(w, k, "element %d must be a %d-bit register%s", e, eb < 16 ? 16 : eb,
		                     src ? " or an immediate" : "");
	return 0;
}

/* mov.bN d, {a, b[, c, d]}: the words of d from the elements; 16-bit elements in pairs (PRMT
 * 0x5410, as ptxas: the low halves, whatever the upper ones hold), bytes in pairs and pairs of
 * pairs (PRMT 0x7740, 0x5410); an immediate element is RZ when 0, else a MOV first */
static int
sel_pack(Lw *w, int bits)
{
	int n = lw_veclen(w, 1), eb = vec_elem_bits(bits, n);
	char d[LwStr], a[64], b[64], h[2][LwStr];

	if (!eb)
		return lw_error_opnd(w, 1, "packing %d elements into .b%d", n, bits);
	for (int e = 0; e < n; e++)
		if (vec_elem_ok(w, 1, e, eb, 1) < 0)
			return -1;
	snprintf(d, sizeof d, "%s", lw_reg(w, 0));
	if (eb >= 32) {
		for (int e = 0; e < n; e++)
			for (int k = 0; k < eb / 32; k++)
				lw_emit(w, "MOV %s, %s", lw_elem(w, d, e * (eb / 32) + k),
				        mem_elem_src(w, 1, e, eb, k, a, sizeof a));
		return 0;
	}
	if (eb == 16) {
		for (int e = 0; e < n; e += 2) {
			mem_elem_reg(w, 1, e, 16, 0, a, sizeof a);
			mem_elem_reg(w, 1, e + 1, 16, 0, b, sizeof b);
			lw_emit(w, "PRMT %s, %s, 0x5410, %s", lw_elem(w, d, e / 2), a, b);
		}
		return 0;
	}
	for (int p = 0; p < n / 2; p++) {       /* bytes */
		mem_elem_reg(w, 1, 2 * p, 8, 0, a, sizeof a);
		mem_elem_reg(w, 1, 2 * p + 1, 8, 0, b, sizeof b);
		snprintf(h[p], sizeof h[p], "%s", n == 2 ? d : lw_tmp(w));
		lw_emit(w, "PRMT %s, %s, 0x7740, %s", h[p], a, b);
	}
	if (n == 4)
		lw_emit(w, "PRMT %s, %s, 0x5410, %s", d, h[0], h[1]);
	return 0;
}

/* mov.bN {a, b[, c, d]}, s: each element (not `_`) from its part of s, zero-extended: words by
 * MOV, halves and bytes by PRMT (0x7710, 0x7732; bytes 0x777k); an immediate s gives immediates */
static int
sel_unpack(Lw *w, int bits)
{
	int n = lw_veclen(w, 0), eb = vec_elem_bits(bits, n);
	const PtxOpnd *s = lw_opnd(w, 1);
	char r[LwStr], x[LwStr];

	if (!eb)
		return lw_error_opnd(w, 0, "unpacking .b%d into %d elements", bits, n);
	for (int e = 0; e < n; e++)
		if (vec_elem_ok(w, 0, e, eb, 0) < 0)
			return -1;
	if (s->kind == PoVec || s->kind == PoAddr || s->kind == PoPair || s->kind == PoList ||
	    (s->kind == PoName && s->what != PwReg))
		return lw_error_opnd(w, 1, "unpacking needs a register or an immediate");
	if (s->kind == PoName) {
		const LwReg *sr = lw_regof(w, 1);
		if (!sr || kind_bits(sr->kind) < bits)
			return lw_error_opnd(w, 1, "a register narrower than .b%d", bits);
		snprintf(r, sizeof r, "%s", lw_reg(w, 1));
	}
	for (int e = 0; e < n; e++) {
		if (lw_vkind(w, 0, e) == -1)
			continue;          /* `_` */
		int bit0 = e * eb;     /* the element's first bit in s */
		snprintf(x, sizeof x, "%s", lw_vec(w, 0, e));
		for (int k = 0; k < (eb + 31) / 32; k++) {
			int at = bit0 + 32 * k, word = at / 32, sh = at % 32;
			const char *dst = lw_elem(w, x, k);
			if (s->kind != PoName) {
				uint64_t v[2] = { (uint64_t)lw_imm(w, 1), 0 };
				uint32_t wv = (uint32_t)(v[word / 2] >> (32 * (word % 2)));
				if (eb < 32)
					wv = (wv >> sh) & ((1u << eb) - 1);
				lw_emit(w, "MOV %s, 0x%x", dst, (unsigned)wv);
			} else if (eb >= 32) {
				lw_emit(w, "MOV %s, %s", dst, lw_elem(w, r, word));
			} else {
				unsigned b0 = (unsigned)sh / 8, sel = eb == 16 ? 0x7700u | (b0 + 1) << 4 | b0
				                                             : 0x7770u | b0;
				lw_emit(w, "PRMT %s, %s, 0x%x, RZ", dst, lw_elem(w, r, word), sel);
			}
		}
	}
	return 0;
}

static int
sel_mov(Lw *w)
{
	const PtxOpnd *s = lw_opnd(w, 1), *d = lw_opnd(w, 0);
	const char *t = lw_type(w);
	int bits = lw_type_bits(t);

	if (s->kind == PoName && s->what == PwSreg && !lw_isimm(w, 1))
		return sel_sreg(w, s);
	/* a 64-bit move reads and writes pairs: a scalar operand must be a 64-bit register */
	for (int k = 0; k < 2 && bits == 64; k++) {
		const LwReg *r = lw_opnd(w, k)->kind == PoName ? lw_regof(w, k) : NULL;
		if (r && r->kind != Lk64)
			return lw_error_opnd(w, k, "a .%s move needs a 64-bit register", t);
	}
	if (!strcmp(t, "pred")) {
		if (lw_isimm(w, 1))
			lw_emit(w, "PLOP3.LUT %s, PT, PT, PT, PT, 0x%x, 0x0", lw_reg(w, 0),
			        lw_imm(w, 1) ? 0xff : 0x00);
		else
			lw_emit(w, "PLOP3.LUT %s, PT, %s, PT, PT, 0x80, 0x0", lw_reg(w, 0), lw_reg(w, 1));
		return 0;
	}
	if (d->kind == PoVec)           /* unpack: mov.b32 {lo, hi}, r; mov.b64 {a, b}, rd */
		return sel_unpack(w, bits);
	if (s->kind == PoVec)           /* pack: mov.b32 r, {lo, hi}; mov.b64 rd, {a, b, c, d} */
		return sel_pack(w, bits);
	if (s->kind == PoName && s->what == PwVar && s->decl && s->decl->space == PsShared) {
		int off = lw_shared_offset(w, s->atom);
		if (off < 0)
			return lw_error_opnd(w, 1, "shared variable not placed");
		lw_emit(w, "MOV %s, 0x%x", lw_reg(w, 0), (unsigned)off);
		if (bits == 64)
			lw_emit(w, "MOV %s, RZ", lw_elem(w, lw_reg(w, 0), 1));
		return 0;
	}
	if (s->kind == PoName && s->what == PwVar && s->decl && s->decl->space == PsLocal) {
		/* mov.u64 %SPL, __local_depot0: the variable's local address, R1 + its offset */
		int off = lw_local_offset(w, s->atom);
		if (off < 0)
			return lw_error_opnd(w, 1, "local variable not placed");
		if (off)
			lw_emit(w, "IADD3 %s, R1, 0x%x, RZ", lw_reg(w, 0), (unsigned)off);
		else
			lw_emit(w, "MOV %s, R1", lw_reg(w, 0));
		if (bits == 64)
			lw_emit(w, "MOV %s, RZ", lw_elem(w, lw_reg(w, 0), 1));
		return 0;
	}
	if (s->kind == PoName && s->what == PwVar && s->decl && s->decl->space == PsGlobal &&
	    bits == 64) {
		const char *lo, *hi, *r = lw_reg(w, 0);
		if (lw_global_addr(w, s->decl, &lo, &hi) < 0)
			return -1;
		lw_emit(w, "MOV %s, %s", r, lo);
		lw_emit(w, "MOV %s, %s", lw_elem(w, r, 1), hi);
		return 0;
	}
	if (s->kind == PoName && s->what == PwVar && s->decl && s->decl->space == PsParam &&
	    bits == 64 && lw_param_offset(w, s->atom) >= 0 && w->arch->bank0->param_win) {
		/* a kernel parameter's address in the .param space: its offset in the parameters
		 * (cvta.param adds the window's address, ptxsel_mem.c) */
		lw_emit(w, "MOV %s, 0x%x", lw_reg(w, 0), (unsigned)lw_param_offset(w, s->atom));
		lw_emit(w, "MOV %s, RZ", lw_elem(w, lw_reg(w, 0), 1));
		return 0;
	}
	if (s->kind == PoName && s->what == PwVar)
		return lw_error_opnd(w, 1, "the address of a .%s variable", ptx_space_name(s->decl ?
		                     s->decl->space : 0) + 1);
	if (bits == 64) {
		const char *r = lw_reg(w, 0);
		lw_emit(w, "MOV %s, %s", r, lw_lo(w, 1));
		lw_emit(w, "MOV %s, %s", lw_elem(w, r, 1), lw_hi(w, 1));
		return 0;
	}
	lw_emit(w, "MOV %s, %s", lw_reg(w, 0), lw_isrc(w, 1));
	return 0;
}

const SelRow ptxsel_move[] = {
	{ "mov", TcAny, sel_mov, "MOV d, a (S2R for special registers; PRMT to pack/unpack)" },
	{ NULL, 0, NULL, NULL },
};
