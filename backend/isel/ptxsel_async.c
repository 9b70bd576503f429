/* ptxsel_async.c: instruction selection of asynchronous copies and synchronisation (the memory
 * family, ptxsel_mem.h): cp.async and its groups (LDGSTS, LDGDEPBAR, DEPBAR), the sm_80 mbarrier
 * (a 64-bit word in shared memory that STS, ATOMS.ARRIVE.64 and LDS work on, as nvcc writes for
 * sm_80; used on sm_90 too, where nvcc writes SYNCS instructions that the simulator lacks),
 * fence and membar (MEMBAR, ERRBAR, CCTL.IVALL, FENCE.VIEW.ASYNC).
 */
#include "ptxsel_mem.h"

#include <stdlib.h>
#include <string.h>

/* ---- cp.async ----------------------------------------------------------------------------- */

/* cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [s], [g], size
 * {, src-size | , ignore-src}{, policy} */
static int
cp_async(Lw *w)
{
	int cg = lw_has(w, "cg"), size, nop = w->ins->nopnd - (lw_has(w, "L2::cache_hint") ? 1 : 0);
	char sh[MemAddr], gl[MemAddr], mods[64], pred[MemName + 8];
	const LwReg *r3 = nop > 3 ? lw_regof(w, 3) : NULL;

	if (!lw_has(w, "shared") && !lw_has(w, "shared::cta"))
		return lw_error(w, "cp.async to a space other than .shared::cta");
	if (!lw_has(w, "global"))
		return lw_error(w, "cp.async from a space other than .global");
	if (!cg && !lw_has(w, "ca"))
		return lw_error(w, "cp.async without .ca or .cg");
	if (!lw_isimm(w, 2))
		return lw_error_opnd(w, 2, "the copy size must be an immediate");
	size = (int)lw_imm(w, 2);
	if ((size != 4 && size != 8 && size != 16) || (cg && size != 16))
		return lw_error_opnd(w, 2, "a copy size of %d bytes%s", size, cg ? " with .cg" : "");
	if (mem_addr_nodesc(w, 0, PsShared, sh, sizeof sh) < 0)
		return -1;
	snprintf(mods, sizeof mods, "%s%s%s", cg ? ".BYPASS" : "",
	         lw_has(w, "L2::64B") ? ".LTC64B" : lw_has(w, "L2::128B") ? ".LTC128B" :
	         lw_has(w, "L2::256B") ? ".LTC256B" : "", size == 16 ? ".128" : size == 8 ? ".64" : "");
	pred[0] = 0;
	if (nop <= 3 || (lw_isimm(w, 3) && lw_imm(w, 3) == size)) {
		if (mem_addr(w, 1, PsGlobal, gl, sizeof gl) < 0)
			return -1;
	} else if (r3 && r3->kind == LkPred) {
		/* ignore-src: zeros where it is true */
		if (mem_addr(w, 1, PsGlobal, gl, sizeof gl) < 0)
			return -1;
		snprintf(pred, sizeof pred, ", !%s", lw_reg(w, 3));
	} else if (lw_isimm(w, 3)) {
		int64_t src = lw_imm(w, 3);
		if (src < 0 || src > size)
			return lw_error_opnd(w, 3, "a source size outside 0..%d", size);
		/* src-size 0: nothing read, zeros (!PT); else .ZFILL: the source address plus the
		 * bytes to zero, which the copy reads from the address's low bits */
		if (mem_addr_x(w, 1, PsGlobal, src ? size - src : 0, 1, gl, sizeof gl) < 0)
			return -1;
		if (src)
			strcat(mods, ".ZFILL");
		else
			snprintf(pred, sizeof pred, ", !PT");
	} else if (r3 && r3->kind == Lk32) {
		/* a register src-size s: the address plus (size - s) & (size - 1), copy if s != 0 */
		const PtxOpnd *a = lw_opnd(w, 1);
		char t[MemName], g[MemName], q[MemName], q2[MemName], s[MemName], base[MemName];
		int64_t off = a && a->hasoff ? a->ival : 0;
		if (mem_reg_base(w, 1, base, sizeof base))
			return -1;
		if (lw_type_bits(ptx_str(w->p, a->sub[0].decl->type)) != 64)
			return lw_error_opnd(w, 1, "a global address needs a 64-bit register");
		snprintf(s, sizeof s, "%s", lw_reg(w, 3));
		snprintf(t, sizeof t, "%s", lw_tmp(w));
		snprintf(g, sizeof g, "%s", lw_tmp64(w));
		snprintf(q, sizeof q, "%s", lw_ptmp(w));
		snprintf(q2, sizeof q2, "%s", lw_ptmp(w));
		lw_emit(w, "IADD3 %s, -%s, 0x%x, RZ", t, s, size);
		lw_emit(w, "LOP3.LUT %s, %s, 0x%x, RZ, 0xc0, !PT", t, t, size - 1);
		lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", g, q2, t, base);
		lw_emit(w, "IADD3.X %s, RZ, %s, RZ, %s, !PT", lw_elem(w, g, 1), lw_elem(w, base, 1), q2);
		lw_emit(w, "ISETP.NE.U32.AND %s, PT, %s, RZ, PT", q, s);
		snprintf(gl, sizeof gl, "%s[%s.64", arch_has(w->arch, ArchDescAddr) ? "desc[UR4]" : "", g);
		if (off)
			snprintf(gl + strlen(gl), sizeof gl - strlen(gl), "+%s0x%llx", off < 0 ? "-" : "",
			         (unsigned long long)(off < 0 ? -off : off));
		strcat(gl, "]");
		strcat(mods, ".ZFILL");
		snprintf(pred, sizeof pred, ", %s", q);
	} else {
		return lw_error_opnd(w, 3, "a src-size or ignore-src operand of this kind");
	}
	lw_emit(w, "LDGSTS.E%s %s, %s%s", mods, sh, gl, pred);
	return 0;
}

int
sel_cp(Lw *w)
{
	if (!lw_has(w, "async"))
		return lw_error(w, "cp without .async");
	if (lw_has(w, "bulk") && arch_has(w->target, ArchSyncs))
		return sel_bulk90(w);      /* ptxsel_async90.c */
	if (lw_has(w, "bulk") || lw_has(w, "tensor") || lw_has(w, "reduce"))
		return lw_error(w, "the bulk and tensor copies (TMA)");
	if (lw_has(w, "mbarrier") && arch_has(w->target, ArchSyncs))
		return lw_error(w, "cp.async.mbarrier.arrive on sm_90a (its SYNCS form)");
	if (lw_has(w, "mbarrier")) {
		/* cp.async.mbarrier.arrive{.noinc}.shared.b64 [mbar] */
		char a[MemAddr];
		if (!lw_has(w, "arrive") || (!lw_has(w, "shared") && !lw_has(w, "shared::cta")))
			return lw_error(w, "this cp.async.mbarrier form");
		if (mem_addr_nodesc(w, 0, PsShared, a, sizeof a) < 0)
			return -1;
		if (!lw_has(w, "noinc")) {
			/* without .noinc the pending count first grows by one per thread: the arrival
			 * word (word 1, 0x80000000 - pending) decreases */
			char t[MemName], a1[MemAddr];
			if (mem_addr_x(w, 0, PsShared, 4, 0, a1, sizeof a1) < 0)
				return -1;
			snprintf(t, sizeof t, "%s", lw_tmp(w));
			lw_emit(w, "MOV %s, 0xffffffff", t);
			lw_emit(w, "ATOMS.ADD RZ, %s, %s", a1, t);
		}
		lw_emit(w, "ARRIVES.LDGSTSBAR.64 %s", a);
		return 0;
	}
	if (lw_has(w, "commit_group")) {
		lw_emit(w, "LDGDEPBAR");
		return 0;
	}
	if (lw_has(w, "wait_group")) {
		int64_t n = lw_imm(w, 0);
		if (n < 0 || n > 63)
			return lw_error_opnd(w, 0, "a group count outside 0..63");
		lw_emit(w, "DEPBAR.LE SB0, 0x%x", (unsigned)n);
		return 0;
	}
	if (lw_has(w, "wait_all")) {
		lw_emit(w, "LDGDEPBAR");
		lw_emit(w, "DEPBAR.LE SB0, 0x0");
		return 0;
	}
	return cp_async(w);
}

/* ---- mbarrier (sm_80) ----------------------------------------------------------------------
 * The object is two words in shared memory: word 0 holds 0x40000000 - the expected count, word 1
 * the phase in bit 31 and 0x80000000 - the pending count below it; an arrival adds 1 to word 1
 * (ATOMS.ARRIVE.64, which returns both words: the state), and the phase flips when the pending
 * count reaches zero (sim/exec_mem.c, mbar_arrive). */

/* the barrier's address operand k as a shared address "[%r+0x8]"; a generic one (no .shared) is
 * made a shared address first, plus `extra` bytes */
static int
mbar_addr(Lw *w, int k, int64_t extra, char *buf, size_t n)
{
	if (lw_has(w, "shared") || lw_has(w, "shared::cta"))
		return mem_addr_x(w, k, PsShared, extra, 0, buf, n);
	if (lw_has(w, "shared::cluster"))
		return lw_error(w, "an mbarrier in .shared::cluster");
	const PtxOpnd *a = lw_opnd(w, k);
	if (a && a->kind == PoAddr && a->nsub == 1 && a->sub[0].kind == PoName && a->sub[0].what == PwVar)
		return mem_addr_x(w, k, PsShared, extra, 0, buf, n);
	char base[MemName], t[MemName];
	int64_t off = (a && a->hasoff ? a->ival : 0) + extra;
	if (mem_reg_base(w, k, base, sizeof base))
		return -1;
	snprintf(t, sizeof t, "%s", lw_tmp(w));
	mem_from_generic(w, PsShared, t, base);
	if (off)
		snprintf(buf, n, "[%s+%s0x%llx]", t, off < 0 ? "-" : "",
		         (unsigned long long)(off < 0 ? -off : off));
	else
		snprintf(buf, n, "[%s]", t);
	return 0;
}

/* the state operand (a 64-bit register or `_`) */
static const char *
mbar_state(Lw *w, int k, char *buf, size_t n)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind == PoSink)
		snprintf(buf, n, "RZ");
	else if (!lw_regof(w, k) || lw_regof(w, k)->kind != Lk64)
		lw_error_opnd(w, k, "the mbarrier state must be a 64-bit register"), snprintf(buf, n, "RZ");
	else
		snprintf(buf, n, "%s", lw_reg(w, k));
	return buf;
}

int
sel_mbarrier(Lw *w)
{
	char a[MemAddr], a4[MemAddr], st[MemName], t[MemName], c[MemName];

	if (arch_has(w->target, ArchSyncs))
		return sel_mbarrier90(w);  /* the SYNCS forms: ptxsel_async90.c */
	if (lw_has(w, "expect_tx") || lw_has(w, "complete_tx") || lw_has(w, "cluster"))
		return lw_error(w, "the sm_90 transaction-count and cluster mbarrier forms");
	if (lw_has(w, "init")) {
		if (mbar_addr(w, 0, 0, a, sizeof a) < 0)
			return -1;
		snprintf(t, sizeof t, "%s", lw_tmp64(w));
		if (lw_isimm(w, 1)) {
			uint32_t n = (uint32_t)lw_imm(w, 1);
			lw_emit(w, "MOV %s, 0x%x", t, 0x40000000u - n);
			lw_emit(w, "MOV %s, 0x%x", lw_elem(w, t, 1), 0x80000000u - n);
		} else {
			snprintf(c, sizeof c, "%s", lw_reg(w, 1));
			lw_emit(w, "IADD3 %s, -%s, 0x40000000, RZ", t, c);
			lw_emit(w, "IADD3 %s, -%s, -0x80000000, RZ", lw_elem(w, t, 1), c);
		}
		lw_emit(w, "STS.64 %s, %s", a, t);
		return 0;
	}
	if (lw_has(w, "inval")) {
		/* nvcc writes nothing on sm_80 */
		return mbar_addr(w, 0, 0, a, sizeof a) < 0 ? -1 : 0;
	}
	if (lw_has(w, "pending_count")) {
		/* 0x80000000 - (the state's word 1 & 0x7fffffff) */
		char s1[MemName];
		mbar_state(w, 1, st, sizeof st);
		snprintf(s1, sizeof s1, "%s", lw_elem(w, st, 1));
		snprintf(t, sizeof t, "%s", lw_tmp(w));
		lw_emit(w, "LOP3.LUT %s, %s, 0x7fffffff, RZ, 0xc0, !PT", t, s1);
		lw_emit(w, "IADD3 %s, -%s, -0x80000000, RZ", lw_reg(w, 0), t);
		return 0;
	}
	if (lw_has(w, "arrive") || lw_has(w, "arrive_drop")) {
		int drop = lw_has(w, "arrive_drop"), nocomplete = lw_has(w, "noComplete");
		if (lw_opnd(w, 2) && !nocomplete)
			return lw_error(w, "an arrival with a count (sm_90)");
		if (mem_sem(w) == MsRelaxed)
			return lw_error(w, "a relaxed arrival");
		mbar_state(w, 0, st, sizeof st);
		if (mbar_addr(w, 1, 0, a, sizeof a) < 0)
			return -1;
		if (nocomplete) {
			/* a count of arrivals that does not complete the phase: word 1 += count (drop:
			 * word 0 += count first); the state is the old word 1 */
			char s1[MemName];
			if (mbar_addr(w, 1, 4, a4, sizeof a4) < 0)
				return -1;
			snprintf(c, sizeof c, "%s", lw_rsrc(w, 2));
			lw_emit(w, "MEMBAR.ALL.CTA");
			if (drop)
				lw_emit(w, "ATOMS.ADD RZ, %s, %s", a, c);
			snprintf(s1, sizeof s1, "%s", strcmp(st, "RZ") ? lw_elem(w, st, 1) : "RZ");
			lw_emit(w, "ATOMS.ADD %s, %s, %s", s1, a4, c);
			if (strcmp(st, "RZ"))
				lw_emit(w, "MOV %s, %s", st, s1);
			return 0;
		}
		lw_emit(w, "MEMBAR.ALL.CTA");
		if (drop)   /* one less expected arrival from now on: word 0 + 1 per thread */
			lw_emit(w, "ATOMS.POPC.INC.32 RZ, %s", a);
		lw_emit(w, "ATOMS.ARRIVE.64 %s, %s", st, a);
		return 0;
	}
	if (lw_has(w, "test_wait") || lw_has(w, "try_wait")) {
		/* complete when the phase bit of word 1 differs from the state's (or from the parity) */
		char p[MemName], s1[MemName];
		snprintf(p, sizeof p, "%s", lw_reg(w, 0));
		if (lw_regof(w, 0) && lw_regof(w, 0)->kind != LkPred)
			return lw_error_opnd(w, 0, "the result must be a predicate");
		if (mbar_addr(w, 1, 4, a4, sizeof a4) < 0)
			return -1;
		if (lw_has(w, "parity")) {
			snprintf(s1, sizeof s1, "%s", lw_tmp(w));
			if (lw_isimm(w, 2))
				lw_emit(w, "MOV %s, 0x%x", s1, (unsigned)(lw_imm(w, 2) & 1) << 31);
			else
				lw_emit(w, "SHF.L.U32 %s, %s, 0x1f, RZ", s1, lw_reg(w, 2));
		} else {
			mbar_state(w, 2, st, sizeof st);
			snprintf(s1, sizeof s1, "%s", lw_elem(w, st, 1));
		}
		snprintf(t, sizeof t, "%s", lw_tmp(w));
		lw_emit(w, "LDS %s, %s", t, a4);
		lw_emit(w, "LOP3.LUT %s, RZ, %s, 0x80000000, %s, 0x48, !PT", p, t, s1);
		return 0;
	}
	return lw_error(w, "this mbarrier operation");
}

/* ---- fences --------------------------------------------------------------------------------- */

/* MEMBAR.<SC|ALL>.<CTA|GPU|SYS>, and at gpu and sys scope ERRBAR, CGAERRBAR (sm_90), CCTL.IVALL */
static void
membar(Lw *w, int sc, const char *scope)
{
	lw_emit(w, "MEMBAR.%s.%s", sc ? "SC" : "ALL", scope);
	if (!strcmp(scope, "CTA"))
		return;
	lw_emit(w, "ERRBAR");
	if (arch_has(w->arch, ArchClusters))
		lw_emit(w, "CGAERRBAR");
	lw_emit(w, "CCTL.IVALL");
}

static const char *
fence_scope(const Lw *w)
{
	return lw_has(w, "cta") ? "CTA" : lw_has(w, "sys") ? "SYS" : "GPU";
}

int
sel_fence(Lw *w)
{
	if (lw_has(w, "proxy")) {
		if (lw_has(w, "alias"))
			lw_emit(w, "MEMBAR.SC.GPU");
		else if (!lw_has(w, "async") || lw_has(w, "tensormap"))
			return lw_error(w, "this proxy fence");
		else if (lw_has(w, "global"))
			lw_emit(w, "FENCE.VIEW.ASYNC.G");
		else {
			lw_emit(w, "MEMBAR.ALL.%s", lw_has(w, "shared::cta") || lw_has(w, "shared") ? "CTA" : "GPU");
			lw_emit(w, "FENCE.VIEW.ASYNC.S");
		}
		return 0;
	}
	if (lw_has(w, "mbarrier_init"))
		return 0;     /* a CTA's own mbarrier.init is visible to it: nothing on one CTA */
	if (!lw_has(w, "cta") && !lw_has(w, "gpu") && !lw_has(w, "sys") && !lw_has(w, "cluster"))
		return lw_error(w, "a fence without a scope");
	membar(w, lw_has(w, "sc"), fence_scope(w));
	return 0;
}

int
sel_membar(Lw *w)
{
	membar(w, 1, lw_has(w, "cta") ? "CTA" : lw_has(w, "sys") ? "SYS" : "GPU");
	return 0;
}
