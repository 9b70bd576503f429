/* ptxsel_wgmma.c: instruction selection of the warpgroup MMA (sm_90a, ptxlow.h): wgmma.fence,
 * commit_group, wait_group and mma_async for f16 and bf16 inputs, m64nNk16, f32 or f16
 * accumulators, A from a descriptor or registers, B from a descriptor. docs/isel-wgmma.md has
 * the sequences and the decisions; the semantics are docs/sim-wgmma.md's.
 *
 * The descriptors go to uniform registers (gdesc[URx] names four): the code generator allocates
 * no uniform registers, so each HGMMA takes UR56..UR59 (and UR55, UP6 for a predicate scale-d),
 * written by R2UR just before it. The
 * accumulator, a vector of N/2 (f32) or N/4 (f16x2) PTX registers, becomes one tuple of
 * consecutive registers (lw_newvreg) that MOVs fill and empty, as mma.sync's fragments do.
 */
#include "ptxlow.h"

#include <stdio.h>
#include <string.h>

enum { GdescUR = 56 };     /* UR56..UR59: A's descriptor pair, B's pair */

/* wgmma.fence.sync.aligned: WARPGROUP.ARRIVE */
static int
sel_fence(Lw *w)
{
	lw_emit(w, "WARPGROUP.ARRIVE");
	return 0;
}

/* the 64-bit descriptor of operand k into URu, URu+1 */
static int
desc_ur(Lw *w, int k, unsigned u)
{
	const char *r;

	if (lw_isimm(w, k))
		return lw_error_opnd(w, k, "a matrix descriptor must be a 64-bit register");
	if (lw_veclen(w, k) != 1 || lw_vkind(w, k, 0) != Lk64)
		return lw_error_opnd(w, k, "a matrix descriptor must be a 64-bit register");
	r = lw_reg(w, k);
	lw_emit(w, "R2UR UR%u, %s", u, lw_elem(w, r, 0));
	lw_emit(w, "R2UR UR%u, %s", u + 1, lw_elem(w, r, 1));
	return 0;
}

/* an immediate argument k of value 1 or -1 (scale) or 0 or 1 (transpose) */
static int
imm_arg(Lw *w, int k, int scale, int *v)
{
	if (!lw_isimm(w, k))
		return lw_error_opnd(w, k, "must be an immediate");
	*v = (int)lw_imm(w, k);
	if (scale ? (*v != 1 && *v != -1) : (*v != 0 && *v != 1))
		return lw_error_opnd(w, k, scale ? "a scale of 1 or -1" : "a transpose of 0 or 1");
	return 0;
}

/* wgmma.mma_async.sync.aligned.m64nNk16.f32|f16.f16|bf16.f16|bf16 d, a-desc|{a}, b-desc,
 * scale-d, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b */
static int
sel_mma_async(Lw *w)
{
	const char *dt = lw_type_n(w, 0), *at = lw_type_n(w, 1);
	int n = 0, nd, tn, areg, sa, sb, ta = 0, tb, k;
	char mods[64], sfx[48], scale[32], a[64], t[48];

	for (int m = 8; m <= 256 && !n; m += 8) {
		char s[24];
		snprintf(s, sizeof s, "m64n%dk16", m);
		if (lw_has(w, s))
			n = m;
	}
	if (!n || lw_has(w, "sp"))
		return lw_error(w, "wgmma.mma_async shapes other than m64nNk16 (N = 8..256)");
	if (!dt || !at || (strcmp(dt, "f32") && strcmp(dt, "f16")) ||
	    (strcmp(at, "f16") && strcmp(at, "bf16")) || (!strcmp(at, "bf16") && strcmp(dt, "f32")))
		return lw_error(w, "wgmma.mma_async types other than .f32|f16.f16.f16 and .f32.bf16.bf16");
	nd = !strcmp(dt, "f32") ? n / 2 : n / 4;
	areg = lw_veclen(w, 1) == 4;
	if (lw_veclen(w, 0) != nd)
		return lw_error_opnd(w, 0, "the accumulator of m64n%dk16.%s needs %d registers", n, dt, nd);
	for (int e = 0; e < nd; e++)
		if (lw_vkind(w, 0, e) != Lk32)
			return lw_error_opnd(w, 0, "the accumulator needs 32-bit registers");
	k = 3;
	if (imm_arg(w, k + 1, 1, &sa) || imm_arg(w, k + 2, 1, &sb))
		return -1;
	if (!areg && imm_arg(w, k + 3, 0, &ta))
		return -1;
	if (imm_arg(w, areg ? k + 3 : k + 4, 0, &tb))
		return -1;
	/* scale-d: the constant 0 (C = RZ, !UPT) or 1 (no operand), or a predicate, which HGMMA
	 * reads as a uniform predicate: SEL to a register, R2UR, UISETP.NE into UP6 (nvcc computes
	 * it with UISETP on a uniform value) */
	if (lw_isimm(w, k)) {
		snprintf(scale, sizeof scale, "%s", lw_imm(w, k) ? "" : ", !UPT");
	} else if (lw_regof(w, k) && lw_regof(w, k)->kind == LkPred) {
		char r[48];
		snprintf(r, sizeof r, "%s", lw_tmp(w));
		lw_emit(w, "SEL %s, 0x1, RZ, %s", r, lw_reg(w, k));
		lw_emit(w, "R2UR UR%u, %s", GdescUR - 1, r);
		lw_emit(w, "UISETP.NE.U32.AND UP6, UPT, UR%u, URZ, UPT", GdescUR - 1);
		snprintf(scale, sizeof scale, ", UP6");
	} else {
		return lw_error_opnd(w, k, "scale-d must be a predicate or an immediate");
	}
	if (!areg && desc_ur(w, 1, GdescUR) < 0)
		return -1;
	if (desc_ur(w, 2, GdescUR + 2) < 0)
		return -1;
	a[0] = 0;
	if (areg) {
		char ta4[48];
		snprintf(ta4, sizeof ta4, "%s", lw_tmp128(w));
		for (int e = 0; e < 4; e++) {
			if (lw_vkind(w, 1, e) != Lk32)
				return lw_error_opnd(w, 1, "A's fragment needs 32-bit registers");
			lw_emit(w, "MOV %s, %s", lw_elem(w, ta4, e), lw_vec(w, 1, e));
		}
		snprintf(a, sizeof a, "%s, ", ta4);
	}
	/* a tuple is a power of two of registers: N = 24 (12 registers) takes 16, the HGMMA the
	 * first 12 */
	for (tn = 1; tn < nd; tn *= 2)
		;
	snprintf(t, sizeof t, "%s", lw_newvreg(w, tn));   /* lw_* strings live in a ring */
	for (int e = 0; e < nd; e++)
		lw_emit(w, "MOV %s, %s", lw_elem(w, t, e), lw_vec(w, 0, e));
	snprintf(mods, sizeof mods, "HGMMA.64x%dx16.%s%s", n, !strcmp(dt, "f32") ? "F32" : "F16",
	         !strcmp(at, "bf16") ? ".BF16" : "");
	snprintf(sfx, sizeof sfx, "%s%s%s%s", sa < 0 ? ".negA" : "", sb < 0 ? ".negB" : "",
	         ta ? ".tnspA" : "", tb ? ".tnspB" : "");
	/* the registers just written (A, the accumulator) reach the async proxy after a fence; the
	 * accumulator is read back only once the wgmma has completed (docs/isel-wgmma.md) */
	lw_emit(w, "WARPGROUP.ARRIVE");
	lw_emit(w, "%s %s, %sgdesc[UR%u]%s, %s%s, gsb0", mods, t, a, GdescUR, sfx,
	        !strcmp(scale, ", !UPT") ? "RZ" : t, scale);
	lw_emit(w, "WARPGROUP.DEPBAR.LE gsb0, 0x0");
	for (int e = 0; e < nd; e++)
		lw_emit(w, "MOV %s, %s", lw_vec(w, 0, e), lw_elem(w, t, e));
	return 0;
}

/* wgmma.commit_group.sync.aligned: every HGMMA above closes its own group (gsb0) */
static int
sel_commit(Lw *w)
{
	(void)w;
	return 0;
}

/* wgmma.wait_group.sync.aligned N: WARPGROUP.DEPBAR.LE gsb0, N */
static int
sel_wait(Lw *w)
{
	if (!lw_isimm(w, 0) || lw_imm(w, 0) < 0 || lw_imm(w, 0) > 63)
		return lw_error_opnd(w, 0, "wait_group's N must be an immediate 0..63");
	lw_emit(w, "WARPGROUP.DEPBAR.LE gsb0, 0x%x", (unsigned)lw_imm(w, 0));
	return 0;
}

/* wgmma.<fence|commit_group|wait_group|mma_async> */
static int
sel_wgmma(Lw *w)
{
	if (w->arch->sm < 90)
		return lw_error(w, "wgmma before sm_90a");
	if (lw_has(w, "fence"))
		return sel_fence(w);
	if (lw_has(w, "commit_group"))
		return sel_commit(w);
	if (lw_has(w, "wait_group"))
		return sel_wait(w);
	if (lw_has(w, "mma_async"))
		return sel_mma_async(w);
	return lw_error(w, "this wgmma form");
}

/* setmaxnreg.{inc,dec}.sync.aligned.u32 N (N in 24..256, a multiple of 8), as nvcc 13 writes
 * it: dec is `WARPSYNC.ALL; USETMAXREG.DEALLOC.CTAPOOL N`; inc spins until the CTA's pool
 * grants the registers: `L: WARPSYNC.ALL; USETMAXREG.TRY_ALLOC.CTAPOOL UP0, N; PLOP3.LUT P,
 * PT, PT, PT, UP0, 0x80, 0x0; @!P BRA L`. regalloc bounds the registers named after it
 * (docs/pass-regalloc.md "setmaxnreg regions"). */
static int
sel_setmaxnreg(Lw *w)
{
	int inc = lw_has(w, "inc");
	char loop[64], p[64];
	long n;

	if (!arch_has(w->target, ArchSyncs))
		return lw_error(w, "setmaxnreg before sm_90a");
	if (w->guard[0])
		return lw_error(w, "a predicated setmaxnreg (all threads of the warpgroup run it)");
	if (!inc && !lw_has(w, "dec"))
		return lw_error(w, "setmaxnreg without .inc or .dec");
	if (!lw_isimm(w, 0) || (n = lw_imm(w, 0)) < 24 || n > 256 || n % 8)
		return lw_error_opnd(w, 0, "setmaxnreg's count must be an immediate 24..256, a "
		                     "multiple of 8");
	if (!inc) {
		lw_emit(w, "WARPSYNC.ALL");
		lw_emit(w, "USETMAXREG.DEALLOC.CTAPOOL 0x%lx", n);
		return 0;
	}
	snprintf(loop, sizeof loop, "%s", lw_newlabel(w));
	snprintf(p, sizeof p, "%s", lw_ptmp(w));
	lw_label_here(w, loop);
	lw_emit(w, "WARPSYNC.ALL");
	lw_emit(w, "USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0x%lx", n);
	lw_emit(w, "PLOP3.LUT %s, PT, PT, PT, UP0, 0x80, 0x0", p);
	lw_emit(w, "@!%s BRA `(%s)", p, loop);
	return 0;
}

const SelRow ptxsel_wgmma[] = {
	{ "wgmma", TcAny, sel_wgmma, "fence: WARPGROUP.ARRIVE; mma_async m64nNk16 f16/bf16: R2UR "
	                             "UR56..59; [SEL, R2UR UR55, UISETP UP6 (scale-d p)]; MOVs to T; "
	                             "WARPGROUP.ARRIVE; HGMMA.64xNx16.F32|F16[.BF16] T, [A,] gdesc"
	                             "[UR56][.negA.negB.tnspA.tnspB], T|RZ[, UP6|!UPT], gsb0; "
	                             "WARPGROUP.DEPBAR.LE gsb0, 0x0; MOVs from T; commit_group: "
	                             "nothing; wait_group N: WARPGROUP.DEPBAR.LE gsb0, N" },
	{ "setmaxnreg", TcAny, sel_setmaxnreg, "dec N: WARPSYNC.ALL; USETMAXREG.DEALLOC.CTAPOOL N; "
	                                       "inc N: L: WARPSYNC.ALL; USETMAXREG.TRY_ALLOC.CTAPOOL "
	                                       "UP0, N; PLOP3.LUT P, PT, PT, PT, UP0, 0x80, 0x0; "
	                                       "@!P BRA L" },
	{ NULL, 0, NULL, NULL },
};
