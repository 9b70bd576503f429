/* ptxsel_async90.c: instruction selection of the sm_90a mbarrier and bulk copies (the memory
 * family, ptxsel_mem.h; targets with ArchSyncs) as ptxas 13 writes them: mbarrier.* on .shared::cta as SYNCS
 * (EXCH.64, ARRIVE.TRANS64.*, PHASECHK.TRANS64[.TRYWAIT], CCTL.IV), cp.async.bulk between global
 * and shared memory (UBLKCP in an ELECT loop over the issuing threads), its bulk groups
 * (UTMACMDFLUSH, DEPBAR.LE SB0). docs/isel-async90.md has the sequences and the decisions.
 */
#include "ptxsel_mem.h"
#include "lwpriv.h"

#include <string.h>

/* the uniform registers the bulk copies use (the code generator allocates none; wgmma's are
 * UR55..UR59, the memory descriptor UR4/UR5, warp scratch UR10) */
enum {
	BlkUR = 40,        /* UR40, UR41: shared destination and its mbarrier (or the global
	                      destination pair of a store) */
	BlkURg = 42,       /* UR42, UR43: the source (global pair, or a shared address) */
	BlkURn = 44,       /* UR44: the size in 16-byte units */
	TmaURc = 42,       /* UR42..UR46 (load), UR41..UR45 (store): a tensor copy's coordinates */
	TmaURm = 48,       /* UR48, UR49: the tensor map's generic address */
	MbarOne = 1 << 20, /* the arrival count field's modulus (sim/async.c) */
};

/* the register of address operand k plus its offset into a fresh temporary when there is one:
 * the 32-bit shared address of an mbarrier or a copy operand; NULL after a located error */
static const char *
addr32(Lw *w, int k, char *buf, size_t n)
{
	const PtxOpnd *a = lw_opnd(w, k);
	int64_t off = a && a->hasoff ? a->ival : 0;
	char base[MemName];

	if (mem_reg_base(w, k, base, sizeof base))
		return NULL;
	if (lw_type_bits(ptx_str(w->p, a->sub[0].decl->type)) != 32) {
		lw_error_opnd(w, k, "a shared address needs a 32-bit register");
		return NULL;
	}
	if (!off) {
		snprintf(buf, n, "%s", base);
		return buf;
	}
	snprintf(buf, n, "%s", lw_tmp(w));
	lw_emit(w, "IADD3 %s, %s, %s0x%llx, RZ", buf, base, off < 0 ? "-" : "",
	        (unsigned long long)(off < 0 ? -off : off));
	return buf;
}

/* the mbarrier operand k as a SASS address "[%r5]" / "[%r5+0x8]" (.shared::cta or .shared) */
static int
mbar_addr(Lw *w, int k, char *buf, size_t n)
{
	if (lw_has(w, "shared::cluster"))
		return lw_error(w, "an mbarrier in .shared::cluster on sm_90a (remote arrivals)");
	if (!lw_has(w, "shared") && !lw_has(w, "shared::cta"))
		return lw_error(w, "an mbarrier at a generic address on sm_90a (give .shared::cta)");
	return mem_addr_x(w, k, PsShared, 0, 0, buf, n);
}

/* operand k (a state: a 64-bit register, or `_`) as a destination */
static int
state_dst(Lw *w, int k, char *buf, size_t n)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind == PoSink) {
		snprintf(buf, n, "RZ");
		return 0;
	}
	if (!lw_regof(w, k) || lw_regof(w, k)->kind != Lk64)
		return lw_error_opnd(w, k, "the mbarrier state must be a 64-bit register or _");
	snprintf(buf, n, "%s", lw_reg(w, k));
	return 0;
}

/* mbarrier.init: SYNCS.EXCH.64 RZ, [a], {(2^20 - n) << 1, (2^20 - n) << 11} */
static int
mbar_init(Lw *w)
{
	char a[MemAddr], t[MemName];

	if (mbar_addr(w, 0, a, sizeof a) < 0)
		return -1;
	snprintf(t, sizeof t, "%s", lw_tmp64(w));
	if (lw_isimm(w, 1)) {
		uint32_t c = (MbarOne - (uint32_t)lw_imm(w, 1)) & (MbarOne - 1);
		lw_emit(w, "MOV %s, 0x%x", t, c << 1);
		lw_emit(w, "MOV %s, 0x%x", lw_elem(w, t, 1), c << 11);
	} else {
		lw_emit(w, "IADD3 %s, -%s, 0x%x, RZ", t, lw_reg(w, 1), MbarOne);
		lw_emit(w, "SHF.L.U32 %s, %s, 0xb, RZ", lw_elem(w, t, 1), t);
		lw_emit(w, "SHF.L.U32 %s, %s, 0x1, RZ", t, t);
	}
	lw_emit(w, "SYNCS.EXCH.64 RZ, %s, %s", a, t);
	return 0;
}

/* mbarrier.arrive{_drop}{.expect_tx}{.noComplete} state, [a]{, count | bytes}; expect_tx and
 * complete_tx [a], bytes: SYNCS.ARRIVE.TRANS64[.OPTOUT].<form> state, [a], r */
static int
mbar_arrive(Lw *w)
{
	int tx = lw_has(w, "expect_tx"), done = lw_has(w, "complete_tx");
	int drop = lw_has(w, "arrive_drop"), arrive = drop || lw_has(w, "arrive");
	char a[MemAddr], st[MemName], r[MemName];
	const char *form;
	int k = arrive ? 1 : 0;

	if (lw_has(w, "noComplete"))
		return lw_error(w, "mbarrier.arrive.noComplete on sm_90a");
	if (lw_has(w, "release") && lw_has(w, "cluster"))
		return lw_error(w, "an arrival at cluster scope");
	if (arrive ? state_dst(w, 0, st, sizeof st) : (snprintf(st, sizeof st, "RZ"), 0))
		return -1;
	if (mbar_addr(w, k, a, sizeof a) < 0)
		return -1;
	snprintf(r, sizeof r, "RZ");
	if (lw_opnd(w, k + 1))
		snprintf(r, sizeof r, "%s", lw_rsrc(w, k + 1));
	if (!arrive)
		form = done ? ".A0TX" : ".A0TR";          /* expect_tx, complete_tx: no arrival */
	else if (tx)
		form = "";                                /* one arrival and r bytes (A1TR) */
	else
		form = lw_opnd(w, k + 1) ? ".ART0" : ".A1T0";
	if (arrive && tx && !lw_opnd(w, k + 1))
		return lw_error(w, "arrive.expect_tx without a byte count");
	lw_emit(w, "SYNCS.ARRIVE.TRANS64%s%s %s, %s, %s", drop ? ".OPTOUT" : "", form, st, a, r);
	return 0;
}

/* test_wait / try_wait{.parity} p, [a], state | parity: SYNCS.PHASECHK.TRANS64[.TRYWAIT] p, [a],
 * s where bit 31 of s is the phase the wait names (the state's high word, parity << 31) */
static int
mbar_wait(Lw *w)
{
	char a[MemAddr], s[MemName];

	if (!lw_regof(w, 0) || lw_regof(w, 0)->kind != LkPred)
		return lw_error_opnd(w, 0, "the result must be a predicate");
	if (lw_opnd(w, 3))
		return lw_error_opnd(w, 3, "a try_wait time limit");
	if (mbar_addr(w, 1, a, sizeof a) < 0)
		return -1;
	if (lw_has(w, "parity")) {
		snprintf(s, sizeof s, "%s", lw_tmp(w));
		if (lw_isimm(w, 2))
			lw_emit(w, "MOV %s, 0x%x", s, (unsigned)(lw_imm(w, 2) & 1) << 31);
		else
			lw_emit(w, "SHF.L.U32 %s, %s, 0x1f, RZ", s, lw_reg(w, 2));
	} else {
		if (!lw_regof(w, 2) || lw_regof(w, 2)->kind != Lk64)
			return lw_error_opnd(w, 2, "the mbarrier state must be a 64-bit register");
		snprintf(s, sizeof s, "%s", lw_elem(w, lw_reg(w, 2), 1));
	}
	lw_emit(w, "SYNCS.PHASECHK.TRANS64%s %s, %s, %s", lw_has(w, "try_wait") ? ".TRYWAIT" : "",
	        lw_reg(w, 0), a, s);
	return 0;
}

/* mbarrier.<op> on sm_90a: the SYNCS word (sim/async.c: pending arrivals in bits 43..62 as
 * 2^20 - n, the phase in bit 63) */
int
sel_mbarrier90(Lw *w)
{
	char a[MemAddr], t[MemName];

	if (lw_has(w, "init"))
		return mbar_init(w);
	if (lw_has(w, "inval")) {
		if (mbar_addr(w, 0, a, sizeof a) < 0)
			return -1;
		lw_emit(w, "SYNCS.CCTL.IV %s", a);
		return 0;
	}
	if (lw_has(w, "pending_count")) {
		/* (2^20 - state[62:43]) mod 2^20 */
		if (!lw_regof(w, 1) || lw_regof(w, 1)->kind != Lk64)
			return lw_error_opnd(w, 1, "the mbarrier state must be a 64-bit register");
		snprintf(t, sizeof t, "%s", lw_tmp(w));
		lw_emit(w, "SHF.R.U32.HI %s, RZ, 0xb, %s", t, lw_elem(w, lw_reg(w, 1), 1));
		lw_emit(w, "IADD3 %s, -%s, RZ, RZ", t, t);
		lw_emit(w, "LOP3.LUT %s, %s, 0x%x, RZ, 0xc0, !PT", lw_reg(w, 0), t, MbarOne - 1);
		return 0;
	}
	if (lw_has(w, "test_wait") || lw_has(w, "try_wait"))
		return mbar_wait(w);
	if (lw_has(w, "arrive") || lw_has(w, "arrive_drop") || lw_has(w, "expect_tx") ||
	    lw_has(w, "complete_tx"))
		return mbar_arrive(w);
	return lw_error(w, "this mbarrier operation on sm_90a");
}

/* ---- bulk copies -------------------------------------------------------------------------- */

/* the value of 32-bit register or immediate operand k into URu */
static void
ur_from(Lw *w, unsigned u, const char *r)
{
	lw_emit(w, "R2UR UR%u, %s", u, r);
}

/* the copy size operand k (bytes, a multiple of 16) in 16-byte units into URn */
static int
size_ur(Lw *w, int k)
{
	char t[MemName];

	snprintf(t, sizeof t, "%s", lw_tmp(w));
	if (lw_isimm(w, k)) {
		int64_t n = lw_imm(w, k);
		if (n <= 0 || n % 16 || n >= 1 << 20)
			return lw_error_opnd(w, k, "a bulk copy size must be a multiple of 16 bytes "
			                     "below 1 MiB");
		lw_emit(w, "MOV %s, 0x%x", t, (unsigned)(n / 16));
	} else {
		lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x4, %s", t, lw_reg(w, k));
	}
	ur_from(w, BlkURn, t);
	return 0;
}

/* the 64-bit global address operand k into URu, URu+1 */
static int
global_ur(Lw *w, int k, unsigned u)
{
	const PtxOpnd *a = lw_opnd(w, k);
	int64_t off = a && a->hasoff ? a->ival : 0;
	char base[MemName], t[MemName];

	if (mem_reg_base(w, k, base, sizeof base))
		return -1;
	if (lw_type_bits(ptx_str(w->p, a->sub[0].decl->type)) != 64)
		return lw_error_opnd(w, k, "a global address needs a 64-bit register");
	if (off) {
		char q[MemName];
		snprintf(t, sizeof t, "%s", lw_tmp64(w));
		snprintf(q, sizeof q, "%s", lw_ptmp(w));
		lw_emit(w, "IADD3 %s, %s, %s, %s0x%llx, RZ", t, q, base, off < 0 ? "-" : "",
		        (unsigned long long)(off < 0 ? -off : off));
		lw_emit(w, "IADD3.X %s, RZ, %s, %s, %s, !PT", lw_elem(w, t, 1), lw_elem(w, base, 1),
		        off < 0 ? "-0x1" : "RZ", q);
		snprintf(base, sizeof base, "%s", t);
	}
	ur_from(w, u, base);
	ur_from(w, u + 1, lw_elem(w, base, 1));
	return 0;
}

/* the UBLKRED operation of cp.reduce.async.bulk's .op.type (32-bit types: what the simulator
 * reduces); ptxas leaves .U32 out */
static const char *
red_op(Lw *w)
{
	static const struct { const char *op, *ty, *sass; } forms[] = {
		{ "add", "f32", "ADD.F32.RN" }, { "add", "u32", "ADD" }, { "min", "u32", "MIN" },
		{ "max", "u32", "MAX" }, { "min", "s32", "MIN.S32" }, { "max", "s32", "MAX.S32" },
		{ "and", "b32", "AND" }, { "or", "b32", "OR" }, { "xor", "b32", "XOR" },
	};

	for (unsigned k = 0; k < sizeof forms / sizeof forms[0]; k++)
		if (lw_has(w, forms[k].op) && lw_has(w, forms[k].ty))
			return forms[k].sass;
	lw_error(w, "a bulk reduction other than add.f32, add/min/max.u32, min/max.s32, "
	         "and/or/xor.b32");
	return NULL;
}

/* cp{.reduce}.async.bulk.<dst>.<src>[.mbarrier::complete_tx::bytes | .bulk_group] [d], [s],
 * size[, [mbar]]: each issuing thread's copy, one per pass of a loop: the lowest thread still
 * in it puts its operands into uniform registers (R2UR reads the lowest active lane), ELECT
 * picks the same thread, the UBLKCP (UBLKRED) runs once for the warp, and the elected thread
 * leaves the loop */
static int
bulk_copy(Lw *w)
{
	int tos = lw_has(w, "shared::cluster"), sts = tos && lw_has(w, "shared::cta");
	char loop[MemName], skipb[MemName], p[MemName], r[MemName], guard[sizeof w->guard];
	char op[48];
	const char *skip, *red = lw_has(w, "reduce") ? red_op(w) : NULL;
	int rc = -1;

	if (lw_has(w, "reduce") && (!red || tos))
		return red ? lw_error(w, "a bulk reduction into shared memory") : -1;

	if (lw_has(w, "multicast::cluster") || lw_has(w, "L2::cache_hint"))
		return lw_error(w, "a bulk copy with multicast or a cache hint");
	if (tos && !lw_has(w, "mbarrier::complete_tx::bytes"))
		return lw_error(w, "a bulk copy into shared memory without its mbarrier");
	if (!tos && (!lw_has(w, "global") || !lw_has(w, "shared::cta") || !lw_has(w, "bulk_group")))
		return lw_error(w, "this bulk copy direction");
	skip = mem_guard_skip(w, skipb, sizeof skipb);
	memcpy(guard, w->guard, sizeof guard);
	w->guard[0] = 0;
	snprintf(loop, sizeof loop, "%s", lw_newlabel(w));
	snprintf(p, sizeof p, "%s", lw_ptmp(w));
	lw_label_here(w, loop);
	if (tos) {
		char m[MemName];
		if (!addr32(w, 0, r, sizeof r) || !addr32(w, 3, m, sizeof m))
			goto out;
		ur_from(w, BlkUR, r);
		ur_from(w, BlkUR + 1, m);
		if (sts) {
			if (!addr32(w, 1, r, sizeof r))
				goto out;
			ur_from(w, BlkURg, r);
		} else if (global_ur(w, 1, BlkURg) < 0) {
			goto out;
		}
	} else {
		if (global_ur(w, 0, BlkUR) < 0 || !addr32(w, 1, r, sizeof r))
			goto out;
		ur_from(w, BlkURg, r);
	}
	if (size_ur(w, 2) < 0)
		goto out;
	lw_emit(w, "ELECT %s, URZ, PT", p);
	if (red)
		snprintf(op, sizeof op, "UBLKRED.G.S.%s", red);
	else
		snprintf(op, sizeof op, "UBLKCP.%s", sts ? "S.S" : tos ? "S.G" : "G.S");
	lw_emit(w, "%s [UR%u], [UR%u], UR%u", op, BlkUR, BlkURg, BlkURn);
	lw_emit(w, "@!%s BRA `(%s)", p, loop);
	rc = 0;
out:
	if (skip)
		lw_label_here(w, skip);
	memcpy(w->guard, guard, sizeof guard);
	return rc;
}

/* the register text of a register operand inside an address ([%rd4, {%r1, %r2}]) */
static const char *
lw_name(Lw *w, const PtxOpnd *o)
{
	const LwReg *r = lw_opnd_reg(w, o);
	return r ? lw_reg_text(w, r) : "RZ";
}

/* the tensor map operand: a 64-bit register holding its generic address, into URm, URm+1 */
static int
tmap_ur(Lw *w, const PtxOpnd *a, int k)
{
	const PtxOpnd *m = a->kind == PoAddr && a->nsub >= 1 ? &a->sub[0] : NULL;

	if (!m || m->kind != PoName || m->what != PwReg || !m->decl ||
	    lw_type_bits(ptx_str(w->p, m->decl->type)) != 64 || (a->hasoff && a->ival))
		return lw_error_opnd(w, k, "a tensor map must be [a 64-bit register]");
	ur_from(w, TmaURm, lw_name(w, m));
	ur_from(w, TmaURm + 1, lw_elem(w, lw_name(w, m), 1));
	return 0;
}

/* prefetch.tensormap [a]: UTMACCTL.PF [URm] (a hint: the lowest thread's map, no loop) */
int
sel_tmap_prefetch(Lw *w)
{
	const PtxOpnd *a = lw_opnd(w, 0);

	if (lw_has(w, "const") || lw_has(w, "param"))
		return lw_error(w, "prefetch.tensormap of the .const or .param space (give a generic "
		                "address)");
	if (!a || tmap_ur(w, a, 0) < 0)
		return -1;
	lw_emit(w, "UTMACCTL.PF [UR%u]", TmaURm);
	return 0;
}

/* cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [d], [map,
 * {c..}], [m] and cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c..}], [s]:
 * the threads' copies in bulk_copy's loop, UTMALDG.ND [UR40: d, m, c..], [UR48] and UTMASTG.ND
 * [UR40: s, c..], [UR48] */
static int
tensor_copy(Lw *w)
{
	int load = lw_has(w, "shared::cluster"), n = 0, km = load ? 1 : 0, ks = load ? 0 : 1;
	char loop[MemName], skipb[MemName], p[MemName], r[MemName], guard[sizeof w->guard];
	const PtxOpnd *mo = lw_opnd(w, km), *cs;
	const char *skip;
	int rc = -1;

	for (int d = 1; d <= 5 && !n; d++) {
		char s[16];
		snprintf(s, sizeof s, "%dd", d);
		if (lw_has(w, s))
			n = d;
	}
	if (!n || lw_has(w, "im2col") || lw_has(w, "multicast::cluster") ||
	    lw_has(w, "L2::cache_hint") || lw_has(w, "reduce"))
		return lw_error(w, "tensor copies other than tile mode 1d..5d without multicast, "
		                "cache hint or reduction");
	if (load ? !lw_has(w, "global") || !lw_has(w, "mbarrier::complete_tx::bytes") :
	    !lw_has(w, "global") || !lw_has(w, "shared::cta") || !lw_has(w, "bulk_group"))
		return lw_error(w, "this tensor copy direction");
	if (mo && mo->kind == PoAddr && mo->nsub == 2 && mo->sub[1].kind == PoVec &&
	    mo->sub[1].nsub == n)
		cs = mo->sub[1].sub;                        /* [map, {c0, c1}] */
	else if (mo && mo->kind == PoAddr && mo->nsub == 1 + n)
		cs = &mo->sub[1];
	else
		return lw_error_opnd(w, km, "a tensor copy's [map, {%d coordinates}]", n);
	skip = mem_guard_skip(w, skipb, sizeof skipb);
	memcpy(guard, w->guard, sizeof guard);
	w->guard[0] = 0;
	snprintf(loop, sizeof loop, "%s", lw_newlabel(w));
	snprintf(p, sizeof p, "%s", lw_ptmp(w));
	lw_label_here(w, loop);
	if (!addr32(w, ks, r, sizeof r))
		goto out;
	ur_from(w, BlkUR, r);
	if (load) {
		if (!addr32(w, 2, r, sizeof r))
			goto out;
		ur_from(w, BlkUR + 1, r);
	}
	for (int c = 0; c < n; c++) {
		const PtxOpnd *co = &cs[c];
		unsigned u = (unsigned)(load ? TmaURc : TmaURc - 1) + (unsigned)c;
		if (co->kind == PoName && co->what == PwReg && co->decl &&
		    lw_type_bits(ptx_str(w->p, co->decl->type)) == 32) {
			ur_from(w, u, lw_name(w, co));
		} else if (co->kind == PoImm) {
			char t[MemName];
			snprintf(t, sizeof t, "%s", lw_tmp(w));
			lw_emit(w, "MOV %s, 0x%x", t, (unsigned)co->ival);
			ur_from(w, u, t);
		} else {
			lw_error_opnd(w, km, "a coordinate must be a 32-bit register or an immediate");
			goto out;
		}
	}
	if (tmap_ur(w, mo, km) < 0)
		goto out;
	lw_emit(w, "ELECT %s, URZ, PT", p);
	lw_emit(w, "%s.%dD [UR%u], [UR%u]", load ? "UTMALDG" : "UTMASTG", n, BlkUR, TmaURm);
	lw_emit(w, "@!%s BRA `(%s)", p, loop);
	rc = 0;
out:
	if (skip)
		lw_label_here(w, skip);
	memcpy(w->guard, guard, sizeof guard);
	return rc;
}

/* cp.async.bulk.* on sm_90a: the copies, commit_group (UTMACMDFLUSH), wait_group{.read} N
 * (DEPBAR.LE SB0, N) */
int
sel_bulk90(Lw *w)
{
	if (lw_has(w, "prefetch"))
		return lw_error(w, "the bulk prefetches");
	if (lw_has(w, "tensor"))
		return tensor_copy(w);
	if (lw_has(w, "commit_group")) {
		lw_emit(w, "UTMACMDFLUSH");
		return 0;
	}
	if (lw_has(w, "wait_group")) {
		if (!lw_isimm(w, 0) || lw_imm(w, 0) < 0 || lw_imm(w, 0) > 63)
			return lw_error_opnd(w, 0, "a group count outside 0..63");
		lw_emit(w, "DEPBAR.LE SB0, 0x%x", (unsigned)lw_imm(w, 0));
		return 0;
	}
	return bulk_copy(w);
}
