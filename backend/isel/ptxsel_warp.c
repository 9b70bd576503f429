/* ptxsel_warp.c: instruction selection of the warp family (ptxsel.h, ptxlow.h): CTA barriers
 * (bar, barrier: BAR.SYNC.DEFER_BLOCKING, BAR.ARV, BAR.RED + B2R.RESULT), cluster barriers,
 * bar.warp.sync (WARPSYNC), the warp collectives shfl.sync (SHFL), vote.sync (VOTE), match.sync
 * (MATCH), redux.sync (REDUX into a uniform register, then MOV), activemask, elect.sync (ELECT),
 * and nanosleep, trap, pmevent. docs/isel-warp.md has the sequences and the reasons.
 *
 * Membermasks: an immediate 0xffffffff (-1) costs nothing; any other mask, immediate or
 * register, is a `WARPSYNC mask` right before the collective, so that exactly the lanes of the
 * mask execute it together (nvcc's general path; PTX leaves a lane outside its mask undefined).
 */
#include "ptxlow.h"

#include <stdio.h>
#include <string.h>

/* the uniform register a REDUX or an ELECT writes before its MOV to the destination: a
 * scratch of this family, live only between the two instructions of one PTX instruction */
#define ScratchUR "UR10"

/* operand kinds for want(): K(LwKind), and */
#define K(kind) (1u << (kind))
enum {
	KImm = 1 << 8,         /* an immediate (element 0 only) */
	KSink = 1 << 9,        /* `_` */
	KPair = 1 << 10,       /* the operand may be a pair d|p */
};

/* element e of operand k is one of the kinds of mask, else a located error ("operand 1 must be
 * a 32-bit register or an immediate"); vectors are no operand of this family */
static int
want(Lw *w, int k, int e, unsigned mask, const char *what)
{
	const PtxOpnd *o = lw_opnd(w, k);
	int kd = lw_vkind(w, k, e);

	if (o && (o->kind == PoVec || (o->kind == PoPair && !(mask & KPair))))
		kd = -2;
	if ((kd >= 0 && (mask >> kd & 1)) || (kd == -1 && (mask & KSink)) ||
	    (kd == -2 && !e && (mask & KImm) && lw_isimm(w, k)))
		return 0;
	return lw_error_opnd(w, k, "operand %d must be %s", k, what);
}

/* the usual checks: a 32-bit source (register or immediate), a 32-bit destination, a predicate
 * destination (or `_`) */
static int
want_src32(Lw *w, int k)
{
	return want(w, k, 0, K(Lk32) | KImm, "a 32-bit register or an immediate");
}

static int
want_dst32(Lw *w, int k)
{
	return want(w, k, 0, K(Lk32), "a 32-bit register");
}

/* operand k a d|p pair whose p is a predicate or `_` (or no pair when optional) */
static int
want_pair(Lw *w, int k, int optional)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind != PoPair)
		return optional ? 0 : lw_error_opnd(w, k, "operand %d must be a pair d|p", k);
	return want(w, k, 1, K(LkPred) | KSink | KPair, "a pair d|p with a predicate p");
}

/* operand k as a predicate source: "%p3", "!%p3" (in buf), "PT" (1 or `_`), "!PT" (0) */
static const char *
pred_src(Lw *w, int k, char *buf, size_t n)
{
	const PtxOpnd *o = lw_opnd(w, k);
	const LwReg *r;

	if (!o)
		return "PT";
	if (lw_isimm(w, k))
		return lw_imm(w, k) ? "PT" : "!PT";
	if (o->kind == PoSink)
		return "PT";
	if (!(r = lw_regof(w, k)) || r->kind != LkPred) {
		lw_error_opnd(w, k, "operand %d must be a predicate", k);
		return "PT";
	}
	if (!o->neg)
		return lw_reg(w, k);
	snprintf(buf, n, "!%s", lw_reg(w, k));
	return buf;
}

/* a predicate destination: element e of operand k ("PT" for `_` or a missing element) */
static const char *
pred_dst(Lw *w, int k, int e)
{
	const char *p;

	if (e >= lw_veclen(w, k))
		return "PT";
	p = lw_vec(w, k, e);
	return strcmp(p, "RZ") ? p : "PT";
}

/* operand k as a 32-bit SASS source that may be an immediate (SHFL's b and c, BAR's id and
 * count, NANOSLEEP), the immediate masked with `mask` */
static const char *
imm_or_reg(Lw *w, int k, uint32_t mask, char *buf, size_t n)
{
	if (lw_isimm(w, k)) {
		snprintf(buf, n, "0x%x", (unsigned)((uint32_t)lw_imm(w, k) & mask));
		return buf;
	}
	return lw_reg(w, k);
}

/* the membermask operand k: nothing for 0xffffffff, else WARPSYNC mask */
static int
member_sync(Lw *w, int k)
{
	if (want_src32(w, k))
		return -1;
	if (lw_isimm(w, k)) {
		uint32_t m = (uint32_t)lw_imm(w, k);
		if (m != 0xffffffffu)
			lw_emit(w, "WARPSYNC 0x%x", (unsigned)m);
		return 0;
	}
	lw_emit(w, "WARPSYNC %s", lw_reg(w, k));
	return 0;
}

/* the .sync forms only: sm_70 and later have no other */
static int
need_sync(Lw *w)
{
	if (!lw_has(w, "sync"))
		return lw_error(w, "the form without .sync (deprecated, absent from sm_70 on)");
	return 0;
}

/* ---- barriers ------------------------------------------------------------------------------ */

/* bar.warp.sync membermask: WARPSYNC imm | Rn */
static int
sel_warpsync(Lw *w)
{
	char b[16];

	if (w->ins->nopnd != 1)
		return lw_error(w, "bar.warp.sync takes one membermask");
	if (want_src32(w, 0))
		return -1;
	lw_emit(w, "WARPSYNC %s", imm_or_reg(w, 0, 0xffffffffu, b, sizeof b));
	return 0;
}

/* barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}{.aligned}
 * (sm_90): nvcc's MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; UCGABAR_ARV for the (default) release,
 * UCGABAR_WAIT; CCTL.IVALL for the (default) acquire */
static int
sel_cluster(Lw *w)
{
	if (!arch_has(w->arch, ArchClusters))
		return lw_error(w, "barrier.cluster needs %s or later", arch_since(ArchClusters));
	if (w->ins->nopnd)
		return lw_error(w, "barrier.cluster takes no operands");
	if (lw_has(w, "arrive")) {
		if (!lw_has(w, "relaxed")) {
			lw_emit(w, "MEMBAR.ALL.GPU");
			lw_emit(w, "ERRBAR");
			lw_emit(w, "CGAERRBAR");
		}
		lw_emit(w, "UCGABAR_ARV");
		return 0;
	}
	if (lw_has(w, "wait")) {
		lw_emit(w, "UCGABAR_WAIT");
		lw_emit(w, "CCTL.IVALL");
		return 0;
	}
	return lw_error(w, "barrier.cluster without .arrive or .wait");
}

/* the barrier id (0..15) of operand k */
static const char *
bar_id(Lw *w, int k, char *buf, size_t n)
{
	if (want_src32(w, k))
		return "0x0";
	if (lw_isimm(w, k) && (uint64_t)lw_imm(w, k) > 15) {
		lw_error_opnd(w, k, "barrier id %lld is past 15", (long long)lw_imm(w, k));
		return "0x0";
	}
	return imm_or_reg(w, k, 0xffffffffu, buf, n);
}

/* a thread count (operand k): an immediate must be a multiple of 32 (PTX) */
static const char *
bar_count(Lw *w, int k, char *buf, size_t n)
{
	if (want_src32(w, k))
		return "0x20";
	if (lw_isimm(w, k)) {
		int64_t v = lw_imm(w, k);
		if (v <= 0 || v % 32 || v > 1024) {
			lw_error_opnd(w, k, "thread count %lld is not a multiple of 32 in 32..1024",
			              (long long)v);
			return "0x20";
		}
	}
	return imm_or_reg(w, k, 0xffffffffu, buf, n);
}

/* bar{.cta}.sync a{, b}; barrier{.cta}.sync{.aligned} a{, b}: BAR.SYNC.DEFER_BLOCKING a{, b}
 * bar{.cta}.arrive a, b; barrier{.cta}.arrive{.aligned} a, b: BAR.ARV a, b
 * bar{.cta}.red.popc.u32 d, a{, b}, {!}c: BAR.RED.POPC.DEFER_BLOCKING a{, b}, c; B2R.RESULT d
 * bar{.cta}.red.and|or.pred p, a{, b}, {!}c: BAR.RED.AND|OR.DEFER_BLOCKING ...; B2R.RESULT RZ, p */
static int
sel_bar(Lw *w)
{
	int n = w->ins->nopnd;
	char ib[16], cb[16], pb[LwStr + 1];

	if (lw_has(w, "warp"))
		return sel_warpsync(w);
	if (lw_has(w, "cluster"))
		return sel_cluster(w);
	if (lw_has(w, "red")) {
		const char *op = lw_has(w, "popc") ? "POPC" : lw_has(w, "and") ? "AND" :
		                 lw_has(w, "or") ? "OR" : NULL;
		const char *t = lw_type(w);
		if (!op)
			return lw_error(w, "bar.red without .popc, .and or .or");
		if (op[0] == 'P' ? strcmp(t, "u32") != 0 : strcmp(t, "pred") != 0)
			return lw_error(w, "bar.red.%s takes .%s", op[0] == 'P' ? "popc" : "and/.or",
			                op[0] == 'P' ? "u32" : "pred");
		if (n != 3 && n != 4)
			return lw_error(w, "bar.red takes d, a{, b}, c");
		if (op[0] == 'P' ? want_dst32(w, 0) : want(w, 0, 0, K(LkPred), "a predicate"))
			return -1;
		const char *id = bar_id(w, 1, ib, sizeof ib);
		const char *cnt = n == 4 ? bar_count(w, 2, cb, sizeof cb) : NULL;
		const char *c = pred_src(w, n - 1, pb, sizeof pb);
		if (cnt)
			lw_emit(w, "BAR.RED.%s.DEFER_BLOCKING %s, %s, %s", op, id, cnt, c);
		else
			lw_emit(w, "BAR.RED.%s.DEFER_BLOCKING %s, %s", op, id, c);
		if (op[0] == 'P')
			lw_emit(w, "B2R.RESULT %s", lw_reg(w, 0));
		else
			lw_emit(w, "B2R.RESULT RZ, %s", pred_dst(w, 0, 0));
		return 0;
	}
	if (lw_has(w, "arrive")) {
		if (n != 2)
			return lw_error(w, "bar.arrive takes a barrier and a thread count");
		const char *id = bar_id(w, 0, ib, sizeof ib);
		lw_emit(w, "BAR.ARV %s, %s", id, bar_count(w, 1, cb, sizeof cb));
		return 0;
	}
	if (lw_has(w, "sync")) {
		if (n != 1 && n != 2)
			return lw_error(w, "bar.sync takes a barrier and an optional thread count");
		const char *id = bar_id(w, 0, ib, sizeof ib);
		if (n == 2)
			lw_emit(w, "BAR.SYNC.DEFER_BLOCKING %s, %s", id, bar_count(w, 1, cb, sizeof cb));
		else
			lw_emit(w, "BAR.SYNC.DEFER_BLOCKING %s", id);
		return 0;
	}
	return lw_error(w, "this barrier form");
}

/* ---- warp collectives ---------------------------------------------------------------------- */

/* shfl.sync.{idx,up,down,bfly}.b32 d{|p}, a, b, c, membermask: SHFL.MODE p, d, a, b, c. PTX's
 * c is SHFL's c (clamp in bits 0..4, segment mask in 8..12: `__shfl_down_sync(m, v, 2, 16)` is
 * c = 0x101f); immediates are masked to the bits the hardware reads */
static int
sel_shfl(Lw *w)
{
	static const char *const modes[][2] = {
		{ "idx", "IDX" }, { "up", "UP" }, { "down", "DOWN" }, { "bfly", "BFLY" },
	};
	const char *m = NULL;
	char bb[16], cb[16];

	if (need_sync(w))
		return -1;
	for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++)
		if (lw_has(w, modes[k][0]))
			m = modes[k][1];
	if (!m)
		return lw_error(w, "shfl without .idx, .up, .down or .bfly");
	if (strcmp(lw_type(w), "b32"))
		return lw_error(w, "shfl.sync takes .b32 only");
	if (w->ins->nopnd != 5)
		return lw_error(w, "shfl.sync takes d{|p}, a, b, c, membermask");
	if (want(w, 0, 0, K(Lk32) | KPair, "a 32-bit register or a pair d|p") || want_pair(w, 0, 1) ||
	    want_src32(w, 1) || want_src32(w, 2) || want_src32(w, 3))
		return -1;
	const char *d = lw_vec(w, 0, 0), *p = pred_dst(w, 0, 1);
	const char *a = lw_rsrc(w, 1);
	const char *b = imm_or_reg(w, 2, 0x1f, bb, sizeof bb);
	const char *c = imm_or_reg(w, 3, 0x1f1f, cb, sizeof cb);
	if (member_sync(w, 4))
		return -1;
	lw_emit(w, "SHFL.%s %s, %s, %s, %s, %s", m, p, d, a, b, c);
	return 0;
}

/* vote.sync.all|any|uni.pred d, {!}a, membermask: VOTE.ALL|ANY|EQ d, a;
 * vote.sync.ballot.b32 d, {!}a, membermask: VOTE.ANY d, PT, a */
static int
sel_vote(Lw *w)
{
	const char *t = lw_type(w);
	int ballot = lw_has(w, "ballot");
	const char *m = lw_has(w, "all") ? "ALL" : lw_has(w, "any") ? "ANY" :
	                lw_has(w, "uni") ? "EQ" : NULL;

	if (need_sync(w))
		return -1;
	if (!ballot && !m)
		return lw_error(w, "vote without .all, .any, .uni or .ballot");
	if (strcmp(t, ballot ? "b32" : "pred"))
		return lw_error(w, "vote.%s takes .%s", ballot ? "ballot" : "all/.any/.uni",
		                ballot ? "b32" : "pred");
	if (w->ins->nopnd != 3)
		return lw_error(w, "vote.sync takes d, a, membermask");
	if (ballot ? want_dst32(w, 0) : want(w, 0, 0, K(LkPred), "a predicate"))
		return -1;
	const char *d = ballot ? lw_reg(w, 0) : pred_dst(w, 0, 0);
	char pb[LwStr + 1];
	const char *a = pred_src(w, 1, pb, sizeof pb);
	if (member_sync(w, 2))
		return -1;
	if (ballot)
		lw_emit(w, "VOTE.ANY %s, PT, %s", d, a);
	else
		lw_emit(w, "VOTE.%s %s, %s", m, d, a);
	return 0;
}

/* operand k, a .b64 value, as a register pair (an immediate moved into a temporary pair) */
static const char *
pair_src(Lw *w, int k)
{
	if (!lw_isimm(w, k))
		return lw_reg(w, k);
	const char *t = lw_tmp64(w);
	lw_emit(w, "MOV %s, %s", t, lw_lo(w, k));
	lw_emit(w, "MOV %s, %s", lw_elem(w, t, 1), lw_hi(w, k));
	return t;
}

/* match.any.sync.b32|b64 d, a, membermask: MATCH.ANY[.U64] d, a;
 * match.all.sync.b32|b64 d{|p}, a, membermask: MATCH.ALL[.U64] p, d, a */
static int
sel_match(Lw *w)
{
	const char *t = lw_type(w);
	int all = lw_has(w, "all"), wide = !strcmp(t, "b64");

	if (need_sync(w))
		return -1;
	if (!all && !lw_has(w, "any"))
		return lw_error(w, "match without .any or .all");
	if (!wide && strcmp(t, "b32"))
		return lw_error(w, "match.sync takes .b32 or .b64");
	if (w->ins->nopnd != 3)
		return lw_error(w, "match.sync takes d, a, membermask");
	if (!all && lw_opnd(w, 0)->kind == PoPair)
		return lw_error_opnd(w, 0, "match.any has no predicate destination");
	if (want(w, 0, 0, K(Lk32) | KPair, "a 32-bit register or a pair d|p") || want_pair(w, 0, 1) ||
	    want(w, 1, 0, K(wide ? Lk64 : Lk32) | KImm, wide ? "a 64-bit register or an immediate" :
	         "a 32-bit register or an immediate"))
		return -1;
	const char *d = lw_vec(w, 0, 0), *p = pred_dst(w, 0, 1);
	const char *a = wide ? pair_src(w, 1) : lw_rsrc(w, 1);
	if (member_sync(w, 2))
		return -1;
	if (all)
		lw_emit(w, "MATCH.ALL%s %s, %s, %s", wide ? ".U64" : "", p, d, a);
	else
		lw_emit(w, "MATCH.ANY%s %s, %s", wide ? ".U64" : "", d, a);
	return 0;
}

/* redux.sync.op.type d, a, membermask: REDUX.OP[.S32] UR, a; MOV d, UR (REDUX writes a uniform
 * register only; nvcc moves it out the same way). AND has no mnemonic suffix. */
static int
sel_redux(Lw *w)
{
	static const char *const ops[][2] = {
		{ "add", ".SUM" }, { "min", ".MIN" }, { "max", ".MAX" },
		{ "and", "" }, { "or", ".OR" }, { "xor", ".XOR" },
	};
	const char *t = lw_type(w), *op = NULL;
	int logic = 0;

	if (need_sync(w))
		return -1;
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (lw_has(w, ops[k][0])) {
			op = ops[k][1];
			logic = k >= 3;
		}
	if (!op)
		return lw_error(w, "redux without .add, .min, .max, .and, .or or .xor");
	if (logic ? strcmp(t, "b32") != 0 : strcmp(t, "u32") != 0 && strcmp(t, "s32") != 0)
		return lw_error(w, "redux.sync.%s.%s (%s)", ptx_str(w->p, w->ins->mod[1]), t,
		                logic ? "the logic operations take .b32" :
		                "the arithmetic ones take .u32 or .s32");
	if (w->ins->nopnd != 3)
		return lw_error(w, "redux.sync takes d, a, membermask");
	if (want_dst32(w, 0) || want_src32(w, 1))
		return -1;
	const char *d = lw_reg(w, 0), *a = lw_rsrc(w, 1);
	int sg = !strcmp(t, "s32") && (op[1] == 'M');
	if (member_sync(w, 2))
		return -1;
	lw_emit(w, "REDUX%s%s %s, %s", op, sg ? ".S32" : "", ScratchUR, a);
	lw_emit(w, "MOV %s, %s", d, ScratchUR);
	return 0;
}

/* activemask.b32 d: VOTE.ANY d, PT, PT (the executing lanes) */
static int
sel_activemask(Lw *w)
{
	if (want_dst32(w, 0))
		return -1;
	lw_emit(w, "VOTE.ANY %s, PT, PT", lw_reg(w, 0));
	return 0;
}

/* elect.sync d|p, membermask (sm_90): ELECT p, UR, PT; MOV d, UR (ELECT p, URZ, PT for `_`).
 * The lanes that run it are the candidates: after the WARPSYNC of a mask, the mask's lanes */
static int
sel_elect(Lw *w)
{
	if (!arch_has(w->arch, ArchElect))
		return lw_error(w, "elect.sync needs %s or later", arch_since(ArchElect));
	if (need_sync(w))
		return -1;
	if (w->ins->nopnd != 2)
		return lw_error(w, "elect.sync takes d|p, membermask");
	if (want(w, 0, 0, K(Lk32) | KSink | KPair, "a pair d|p") || want_pair(w, 0, 0))
		return -1;
	const char *d = lw_vec(w, 0, 0), *p = pred_dst(w, 0, 1);
	int keep = strcmp(d, "RZ") != 0;
	if (member_sync(w, 1))
		return -1;
	lw_emit(w, "ELECT %s, %s, PT", p, keep ? ScratchUR : "URZ");
	if (keep)
		lw_emit(w, "MOV %s, %s", d, ScratchUR);
	return 0;
}

/* ---- the rest ------------------------------------------------------------------------------ */

/* nanosleep.u32 t: NANOSLEEP imm | Rn */
static int
sel_nanosleep(Lw *w)
{
	char b[16];

	if (want_src32(w, 0))
		return -1;
	lw_emit(w, "NANOSLEEP %s", imm_or_reg(w, 0, 0xffffffffu, b, sizeof b));
	return 0;
}

/* trap: BPT.TRAP 0x1, as nvcc writes for __trap() */
static int
sel_trap(Lw *w)
{
	lw_emit(w, "BPT.TRAP 0x1");
	return 0;
}

/* pmevent a / pmevent.mask m: a performance-monitor event, no effect on the results: NOP */
static int
sel_pmevent(Lw *w)
{
	lw_emit(w, "NOP");
	return 0;
}

/* brkpt: BPT.TRAP 0x1, as ptxas 13 writes it (tests/devcall: nvcc's listing of __brkpt()) */
static int
sel_brkpt(Lw *w)
{
	lw_emit(w, "BPT.TRAP 0x1");
	return 0;
}

const SelRow ptxsel_warp[] = {
	{ "bar", TcAny, sel_bar, "BAR.SYNC.DEFER_BLOCKING a{, b} | BAR.ARV a, b | BAR.RED.op... + "
	                         "B2R.RESULT | WARPSYNC m (bar.warp.sync)" },
	{ "barrier", TcAny, sel_bar, "BAR.SYNC.DEFER_BLOCKING a{, b} | BAR.ARV a, b | "
	                             "UCGABAR_ARV, UCGABAR_WAIT (.cluster)" },
	{ "shfl", TcAny, sel_shfl, "[WARPSYNC m] SHFL.IDX|UP|DOWN|BFLY p, d, a, b, c" },
	{ "vote", TcAny, sel_vote, "[WARPSYNC m] VOTE.ALL|ANY|EQ p, a | VOTE.ANY d, PT, a (ballot)" },
	{ "match", TcAny, sel_match, "[WARPSYNC m] MATCH.ANY[.U64] d, a | MATCH.ALL[.U64] p, d, a" },
	{ "redux", TcAny, sel_redux, "[WARPSYNC m] REDUX.SUM|MIN|MAX|OR|XOR[.S32] UR10, a; MOV d, UR10" },
	{ "activemask", TcAny, sel_activemask, "VOTE.ANY d, PT, PT" },
	{ "elect", TcAny, sel_elect, "[WARPSYNC m] ELECT p, UR10, PT; MOV d, UR10" },
	{ "nanosleep", TcAny, sel_nanosleep, "NANOSLEEP t" },
	{ "trap", TcAny, sel_trap, "BPT.TRAP 0x1" },
	{ "pmevent", TcAny, sel_pmevent, "NOP" },
	{ "brkpt", TcAny, sel_brkpt, "BPT.TRAP 0x1" },
	{ NULL, 0, NULL, NULL },
};
