/* ptxsel_move.c: instruction selection of moves (ptxsel.h): mov between registers, of
 * immediates, of special registers and of symbol addresses; packing and unpacking of vectors
 * with mov.b32/mov.b64 {a, b}. */
#include "ptxlow.h"

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

static int
sel_mov(Lw *w)
{
	const PtxOpnd *s = lw_opnd(w, 1), *d = lw_opnd(w, 0);
	const char *t = lw_type(w);
	int bits = lw_type_bits(t);

	if (s->kind == PoName && s->what == PwSreg)
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
	if (d->kind == PoVec) {         /* unpack: mov.b32 {lo, hi}, r; mov.b64 {a, b}, rd */
		int n = lw_veclen(w, 0);
		const char *r = lw_rsrc(w, 1);
		if (bits == 64 && n == 2) {
			lw_emit(w, "MOV %s, %s", lw_vec(w, 0, 0), r);
			lw_emit(w, "MOV %s, %s", lw_vec(w, 0, 1), lw_elem(w, r, 1));
			return 0;
		}
		if (bits == 32 && n == 2) {
			const char *lo = lw_vec(w, 0, 0), *hi = lw_vec(w, 0, 1);
			if (strcmp(lo, "RZ"))
				lw_emit(w, "PRMT %s, %s, 0x7710, RZ", lo, r);
			if (strcmp(hi, "RZ"))
				lw_emit(w, "PRMT %s, %s, 0x7732, RZ", hi, r);
			return 0;
		}
		return lw_error_opnd(w, 0, "unpacking into %d elements of .%s", n, t);
	}
	if (s->kind == PoVec) {         /* pack */
		int n = lw_veclen(w, 1);
		const char *r = lw_reg(w, 0);
		if (bits == 64 && n == 2) {
			lw_emit(w, "MOV %s, %s", r, lw_vec(w, 1, 0));
			lw_emit(w, "MOV %s, %s", lw_elem(w, r, 1), lw_vec(w, 1, 1));
			return 0;
		}
		if (bits == 32 && n == 2) {
			lw_emit(w, "PRMT %s, %s, 0x5410, %s", r, lw_vec(w, 1, 0), lw_vec(w, 1, 1));
			return 0;
		}
		return lw_error_opnd(w, 1, "packing %d elements into .%s", n, t);
	}
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
