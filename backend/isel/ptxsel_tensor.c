/* ptxsel_tensor.c: instruction selection of the tensor family (ptxsel.h, ptxlow.h): mma.sync
 * (HMMA for f16, bf16 and tf32 inputs, IMMA for s8/u8/s4/u4, QMMA for fp8, BMMA for b1, DMMA
 * for f64),
 * ldmatrix (LDSM), stmatrix (STSM, sm_90) and movmatrix (MOVM). docs/isel-tensor.md has the
 * sequences and the reasons.
 *
 * A PTX fragment is a vector of separate registers {a0, a1, a2, a3}; SASS reads and writes
 * fragments as aligned runs of consecutive registers (R4..R7). A vector that lwtuple.c named as
 * one tuple is read and written in place (D = C the same tuple for an accumulation); any other
 * fragment of more than one register is copied into a temporary tuple (lw_tmp64, lw_tmp128)
 * with MOVs, and a result tuple is copied out to the PTX registers (C and D then share one).
 */
#include "ptxlow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- fragments ----------------------------------------------------------------------------- */

/* a tuple of n (1, 2, 4) 32-bit registers for a fragment: "%r5" as is for n == 1, else a fresh
 * temporary */
static const char *
tuple(Lw *w, int n)
{
	return n == 1 ? NULL : n == 2 ? lw_tmp64(w) : lw_tmp128(w);
}

/* operand k, a vector of n32 32-bit registers (or n32 / 2 64-bit ones when wide), as one tuple:
 * the register itself when it is one already (one 32-bit register, one f64 pair), the tuple its
 * registers are elements of (lw_tuple_of) unless fresh, else a fresh tuple (tuple()) that MOVs
 * fill */
static const char *
frag_in(Lw *w, int k, int n32, int wide, int fresh)
{
	int ne = lw_veclen(w, k);
	const char *t;

	if (n32 == 1 || (wide && ne == 1 && n32 == 2))
		return lw_vec(w, k, 0);
	if (!wide && !fresh && (t = lw_tuple_of(w, k, n32)))
		return t;
	t = tuple(w, n32);
	for (int e = 0; e < ne; e++) {
		const char *r = lw_vec(w, k, e);
		if (wide) {
			lw_emit(w, "MOV %s, %s", lw_elem(w, t, 2 * e), r);
			lw_emit(w, "MOV %s, %s", lw_elem(w, t, 2 * e + 1), lw_elem(w, r, 1));
		} else {
			lw_emit(w, "MOV %s, %s", lw_elem(w, t, e), r);
		}
	}
	return t;
}

/* do the operands x and y name registers of one tuple ("%$s5", "%$s5[2]"): a result may not
 * overlap a source other than itself */
static int
same_tuple(const char *x, const char *y)
{
	size_t nx = strcspn(x, "["), ny = strcspn(y, "[");

	return nx == ny && !strncmp(x, y, nx);
}

/* does the text s (an address) name a register of the tuple t ("%$s5", "%$s5[2]") */
static int
names_tuple(const char *s, const char *t)
{
	char base[LwStr];
	size_t n = strcspn(t, "[");

	snprintf(base, sizeof base, "%.*s", (int)n, t);
	for (const char *p = strstr(s, base); p; p = strstr(p + 1, base)) {
		char c = p[n];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || c == '$'))
			return 1;
	}
	return 0;
}

/* the tuple t back to the registers of vector operand k */
static void
frag_out(Lw *w, int k, int wide, const char *t)
{
	int ne = lw_veclen(w, k);

	for (int e = 0; e < ne; e++) {
		const char *r = lw_vec(w, k, e);
		if (!strcmp(r, "RZ"))
			continue;
		if (wide) {
			lw_emit(w, "MOV %s, %s", r, lw_elem(w, t, 2 * e));
			lw_emit(w, "MOV %s, %s", lw_elem(w, r, 1), lw_elem(w, t, 2 * e + 1));
		} else {
			lw_emit(w, "MOV %s, %s", r, lw_elem(w, t, e));
		}
	}
}

/* operand k must be a vector of n registers of the kind (LwKind: Lk32, Lk64 for f64) (a lone
 * register counts as one) */
static int
want_len(Lw *w, int k, int n, int kind, const char *what)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (lw_veclen(w, k) != n || (o && o->kind == PoPair))
		return lw_error_opnd(w, k, "%s needs %d register%s, %d given", what, n, n == 1 ? "" : "s",
		                     lw_veclen(w, k));
	for (int e = 0; e < n; e++)
		if (lw_vkind(w, k, e) != kind)
			return lw_error_opnd(w, k, "%s needs %d-bit registers", what,
			                     kind == Lk64 ? 64 : 32);
	return 0;
}

/* ---- mma.sync ------------------------------------------------------------------------------ */

/* the input families */
enum { InF16, InBf16, InTf32, InI8, InI4, InB1, InF64, InF8 };

/* the modifiers mma.sync takes here (besides its shape and types) */
static const char *const mma_mods[] = {
	"sync", "aligned", "row", "col", "satfinite", "xor", "and", "popc", NULL,
};

static int
is_type_word(const char *s)
{
	static const char *const t[] = {
		"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32", "e4m3", "e5m2",
		NULL,
	};
	for (int k = 0; t[k]; k++)
		if (!strcmp(s, t[k]))
			return 1;
	return 0;
}

/* s in capitals ("e4m3" -> "E4M3") */
static void
upper(const char *s, char *buf, size_t n)
{
	size_t k;

	for (k = 0; k + 1 < n && s[k]; k++)
		buf[k] = (char)(s[k] >= 'a' && s[k] <= 'z' ? s[k] - 'a' + 'A' : s[k]);
	buf[k] = 0;
}

/* mma.sync.aligned.mMnNkK.row.col[.satfinite].dtype.atype.btype.ctype[.xor|.and.popc]
 *   d, a, b, c: MOVs of the fragments into tuples, then
 *   HMMA.<MNK>.F32|F16[.BF16|.TF32] D, A, B, C     (f16, bf16, tf32 inputs)
 *   IMMA.<MNK>.<A>.<B>[.SAT] D, A.ROW, B.COL, C     (s8, u8, s4, u4)
 *   QMMA.16832.F32.<A>.<B> D, A.ROW, B.COL, C       (e4m3, e5m2: sm_89 on)
 *   BMMA.<MNK>.AND|XOR.POPC D, A.ROW, B.COL, C      (b1)
 *   DMMA.884 | DMMA.8x8x4 D, A, B, C                (f64 m8n8k4, sm_8x | sm_90 spelling)
 * and MOVs of the result tuple to d. */
static int
sel_mma(Lw *w)
{
	unsigned M = 0, N = 0, K = 0;
	const char *dt = lw_type_n(w, 0), *at = lw_type_n(w, 1), *bt = lw_type_n(w, 2);
	const char *ct = lw_type_n(w, 3);
	char op[64], shape[16];
	int in, abits, na, nb, nc, wide = 0;

	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		unsigned a, b, c;
		int j, len = 0;
		if (sscanf(m, "m%un%uk%u%n", &a, &b, &c, &len) == 3 && m[len] == 0) {
			M = a, N = b, K = c;
			continue;
		}
		for (j = 0; mma_mods[j] && strcmp(m, mma_mods[j]); j++)
			;
		if (!mma_mods[j] && !is_type_word(m))
			return lw_error(w, "mma with .%s", m);
	}
	if (!lw_has(w, "sync") || !lw_has(w, "aligned"))
		return lw_error(w, "mma without .sync.aligned");
	if (!M)
		return lw_error(w, "mma without a shape");
	if (!lw_has(w, "row") || !lw_has(w, "col"))
		return lw_error(w, "mma layouts other than .row.col");
	if (!*ct || *lw_type_n(w, 4))
		return lw_error(w, "mma takes four types .dtype.atype.btype.ctype");
	if (strcmp(at, bt) && !((!strcmp(at, "s8") || !strcmp(at, "u8")) &&
	                        (!strcmp(bt, "s8") || !strcmp(bt, "u8"))) &&
	    !((!strcmp(at, "s4") || !strcmp(at, "u4")) && (!strcmp(bt, "s4") || !strcmp(bt, "u4"))) &&
	    !((!strcmp(at, "e4m3") || !strcmp(at, "e5m2")) &&
	      (!strcmp(bt, "e4m3") || !strcmp(bt, "e5m2"))))
		return lw_error(w, "mma with .%s and .%s inputs", at, bt);
	if (!strcmp(at, "f16"))
		in = InF16;
	else if (!strcmp(at, "bf16"))
		in = InBf16;
	else if (!strcmp(at, "tf32"))
		in = InTf32;
	else if (!strcmp(at, "s8") || !strcmp(at, "u8"))
		in = InI8;
	else if (!strcmp(at, "s4") || !strcmp(at, "u4"))
		in = InI4;
	else if (!strcmp(at, "b1"))
		in = InB1;
	else if (!strcmp(at, "f64"))
		in = InF64;
	else if (!strcmp(at, "e4m3") || !strcmp(at, "e5m2"))
		in = InF8;
	else
		return lw_error(w, "mma with .%s inputs", at);
	if (strcmp(dt, ct))
		return lw_error(w, "mma with a .%s result and a .%s accumulator", dt, ct);
	if (lw_has(w, "satfinite") && in != InI8 && in != InI4)
		return lw_error(w, "mma .satfinite with .%s inputs", at);
	abits = in == InF64 ? 64 : in == InTf32 ? 32 : in == InI8 || in == InF8 ? 8 : in == InI4 ? 4 :
	        in == InB1 ? 1 : 16;
	/* the shapes the tensor cores run (the PTX ISA's mma shape table), K from the input
	 * width: 128 or 256 bits per row of A */
	if (in == InF64) {
		if (M != 8 || N != 8 || K != 4)
			return lw_error(w, "mma .f64 shape m%un%uk%u (only m8n8k4 is selected)", M, N, K);
	} else if (N != 8 || (M == 8 ? K * abits != 128 || in <= InTf32 :
	                      M != 16 || (K * abits != 128 && K * abits != 256))) {
		return lw_error(w, "mma shape m%un%uk%u with .%s inputs", M, N, K, at);
	}
	if (M == 16 && in == InTf32 && K != 4 && K != 8)
		return lw_error(w, "mma shape m%un%uk%u with .%s inputs", M, N, K, at);
	if (in <= InTf32 && strcmp(dt, "f32") && (in != InF16 || strcmp(dt, "f16")))
		return lw_error(w, "mma with .%s inputs and a .%s accumulator", at, dt);
	if (in >= InI8 && in <= InB1 && strcmp(dt, "s32"))
		return lw_error(w, "integer mma with a .%s accumulator", dt);
	if (in == InF8 && (M != 16 || K != 32 || strcmp(dt, "f32")))
		return lw_error(w, "mma with .%s inputs other than m16n8k32 with a .f32 accumulator", at);
	if (in == InF8 && !arch_has(w->arch, ArchFp8))
		return lw_error(w, "mma with .%s inputs needs %s or later", at, arch_since(ArchFp8));
	if (in == InF64 && strcmp(dt, "f64"))
		return lw_error(w, "mma .f64 with a .%s accumulator", dt);
	if (in == InB1 && (!lw_has(w, "popc") || lw_has(w, "xor") == lw_has(w, "and")))
		return lw_error(w, "mma .b1 needs .xor.popc or .and.popc");
	if (!arch_has(w->arch, ArchImma4) && in == InI4)
		return lw_error(w, "mma with .%s inputs on sm_90 (no 4-bit IMMA; ptxas emulates it)", at);
	if (!arch_has(w->arch, ArchBmmaXor) && in == InB1 && lw_has(w, "xor"))
		return lw_error(w, "mma .b1 .xor.popc on sm_90 (no BMMA.XOR; ptxas emulates it)");

	/* registers per lane of each fragment (32-bit units) */
	na = (int)(M * K * (unsigned)abits / 1024);
	nb = (int)(8 * K * (unsigned)abits / 1024);
	nc = (int)(M * 8 * (!strcmp(dt, "f16") ? 16u : 32u) / 1024);
	if (in == InF64) {
		na = nb = 2;
		nc = 4;
		wide = 1;
	}
	if (w->ins->nopnd != 4)
		return lw_error(w, "mma takes d, a, b, c");
	int kd = wide ? Lk64 : Lk32;
	if (want_len(w, 0, wide ? nc / 2 : nc, kd, "d") || want_len(w, 1, wide ? na / 2 : na, kd, "a") ||
	    want_len(w, 2, wide ? nb / 2 : nb, kd, "b") || want_len(w, 3, wide ? nc / 2 : nc, kd, "c"))
		return -1;

	if (M == 16)
		snprintf(shape, sizeof shape, "168%u", K);
	else
		snprintf(shape, sizeof shape, "88%u", K);
	switch (in) {
	case InF16:
	case InBf16:
	case InTf32:
		snprintf(op, sizeof op, "HMMA.%s.%s%s", shape, !strcmp(dt, "f16") ? "F16" : "F32",
		         in == InBf16 ? ".BF16" : in == InTf32 ? ".TF32" : "");
		break;
	case InI8:
	case InI4:
	case InF8: {
		char ua[8], ub[8];
		upper(at, ua, sizeof ua);
		upper(bt, ub, sizeof ub);
		snprintf(op, sizeof op, "%s.%s.%s%s.%s", in == InF8 ? "QMMA" : "IMMA", shape,
		         in == InF8 ? "F32." : "", ua, ub);
		if (lw_has(w, "satfinite"))
			strcat(op, ".SAT");
		break;
	}
	case InB1:
		snprintf(op, sizeof op, "BMMA.%s.%s.POPC", shape, lw_has(w, "xor") ? "XOR" : "AND");
		break;
	default:
		snprintf(op, sizeof op, "DMMA.%s", arch_has(w->arch, ArchDmma8x8x4) ? "8x8x4" : "884");
		break;
	}

	const char *a = frag_in(w, 1, na, wide, 0);
	const char *b = frag_in(w, 2, nb, wide, 0);
	/* D a tuple of its own (lwtuple.c) that is not A or B: written in place, from C (in place
	 * too when C is the same tuple: HMMA reads C before it writes D); else C is copied to a
	 * fresh tuple, which D shares, and D is copied out */
	const char *d = wide || nc < 2 ? NULL : lw_tuple_of(w, 0, nc), *ctup = lw_tuple_of(w, 3, nc);
	if (d && (same_tuple(d, a) || same_tuple(d, b) ||
	          (ctup && same_tuple(d, ctup) && strcmp(d, ctup))))
		d = NULL;
	const char *c = frag_in(w, 3, nc, wide, !d);
	int rc = in == InI8 || in == InI4 || in == InB1 || in == InF8;
	lw_emit(w, "%s %s, %s%s, %s%s, %s", op, d ? d : c, a, rc ? ".ROW" : "", b,
	        rc ? ".COL" : "", c);
	if (!d)
		frag_out(w, 0, wide, c);
	return 0;
}

/* ---- matrix moves -------------------------------------------------------------------------- */

/* .x1, .x2, .x4 of ldmatrix and stmatrix: the matrices moved (1 when absent is not PTX) */
static int
num_of(Lw *w)
{
	if (lw_has(w, "x1"))
		return 1;
	if (lw_has(w, "x2"))
		return 2;
	if (lw_has(w, "x4"))
		return 4;
	return 0;
}

/* the checks ldmatrix and stmatrix share: m8n8, .b16, .shared; the SASS name's tail in sfx */
static int
matrix_form(Lw *w, char *sfx, size_t n)
{
	int nm = num_of(w);

	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		if (strcmp(m, "sync") && strcmp(m, "aligned") && strcmp(m, "m8n8") && strcmp(m, "x1") &&
		    strcmp(m, "x2") && strcmp(m, "x4") && strcmp(m, "trans") && strcmp(m, "shared") &&
		    strcmp(m, "shared::cta") && strcmp(m, "b16"))
			return lw_error(w, "%s with .%s", ptx_str(w->p, w->ins->op), m);
	}
	if (!lw_has(w, "m8n8") || !lw_has(w, "b16") || !nm)
		return lw_error(w, "%s forms other than .m8n8.x1|.x2|.x4.b16", ptx_str(w->p, w->ins->op));
	if (!lw_has(w, "shared") && !lw_has(w, "shared::cta"))
		return lw_error(w, "%s on a generic address (only .shared is selected)",
		                ptx_str(w->p, w->ins->op));
	snprintf(sfx, n, "16.%s%s", lw_has(w, "trans") ? "MT88" : "M88",
	         nm == 4 ? ".4" : nm == 2 ? ".2" : "");
	return nm;
}

/* ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}.shared{::cta}.b16 d, [p]:
 * LDSM.16.M88|MT88[.2|.4] T, [p]; MOVs of T to d (x1: LDSM into d) */
static int
sel_ldmatrix(Lw *w)
{
	char sfx[24], addr[96];
	int nm = matrix_form(w, sfx, sizeof sfx);

	if (nm <= 0)
		return -1;
	if (w->ins->nopnd != 2 || want_len(w, 0, nm, Lk32, "ldmatrix's d"))
		return w->ins->nopnd != 2 ? lw_error(w, "ldmatrix takes d, [p]") : -1;
	if (lw_addr(w, 1, PsShared, addr, sizeof addr, NULL, 0) != 0)
		return -1;
	const char *d = nm > 1 ? lw_tuple_of(w, 0, nm) : NULL;   /* written in place */
	if (d && names_tuple(addr, d))     /* unless the address is in it: a copy, as before */
		d = NULL;
	const char *t = d ? NULL : tuple(w, nm);
	lw_emit(w, "LDSM.%s %s, [%s]", sfx, d ? d : t ? t : lw_vec(w, 0, 0), addr);
	if (t)
		frag_out(w, 0, 0, t);
	return 0;
}

/* stmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}.shared{::cta}.b16 [p], r (sm_90):
 * MOVs of r to T; STSM.16.M88|MT88[.2|.4] [p], T */
static int
sel_stmatrix(Lw *w)
{
	char sfx[24], addr[96];
	int nm;

	if (!arch_has(w->arch, ArchStmatrix))
		return lw_error(w, "stmatrix needs %s or later", arch_since(ArchStmatrix));
	if ((nm = matrix_form(w, sfx, sizeof sfx)) <= 0)
		return -1;
	if (w->ins->nopnd != 2 || want_len(w, 1, nm, Lk32, "stmatrix's r"))
		return w->ins->nopnd != 2 ? lw_error(w, "stmatrix takes [p], r") : -1;
	if (lw_addr(w, 0, PsShared, addr, sizeof addr, NULL, 0) != 0)
		return -1;
	const char *r = frag_in(w, 1, nm, 0, 0);
	lw_emit(w, "STSM.%s [%s], %s", sfx, addr, r);
	return 0;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: MOVM.16.MT88 d, a */
static int
sel_movmatrix(Lw *w)
{
	if (!lw_has(w, "trans") || !lw_has(w, "m8n8") || !lw_has(w, "b16"))
		return lw_error(w, "movmatrix forms other than .m8n8.trans.b16");
	if (want_len(w, 0, 1, Lk32, "movmatrix's d") ||
	    (!lw_isimm(w, 1) && want_len(w, 1, 1, Lk32, "movmatrix's a")))
		return -1;
	lw_emit(w, "MOVM.16.MT88 %s, %s", lw_reg(w, 0), lw_rsrc(w, 1));
	return 0;
}

const SelRow ptxsel_tensor[] = {
	{ "mma", TcAny, sel_mma, "MOVs to tuples; HMMA|IMMA|BMMA|DMMA.<MNK>... D, A, B, C; MOVs "
	                         "from D" },
	{ "ldmatrix", TcAny, sel_ldmatrix, "LDSM.16.M88|MT88[.2|.4] T, [p]; MOVs from T" },
	{ "stmatrix", TcAny, sel_stmatrix, "MOVs to T; STSM.16.M88|MT88[.2|.4] [p], T" },
	{ "movmatrix", TcAny, sel_movmatrix, "MOVM.16.MT88 d, a" },
	{ NULL, 0, NULL, NULL },
};
