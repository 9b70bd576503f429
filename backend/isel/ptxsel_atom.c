/* ptxsel_atom.c: instruction selection of atom and red (the memory family, ptxsel_mem.h).
 *
 *   global   ATOMG.E.<OP><T>.STRONG.<SCOPE> PT, d, [a], b[, c]; without a result (red, or `_`)
 *            RED.E... [a], b on sm_8x and REDG.E... on sm_90
 *   generic  ATOM.E.<OP><T>.STRONG.<SCOPE> PT, d, [a], b[, c] (a red: d = RZ)
 *   shared   ATOMS.<OP><T> d, [a], b[, c] for the operations the shared unit has (32-bit integer
 *            ones, 64-bit EXCH and CAS); the others (64-bit ADD/MIN/MAX/AND/OR/XOR, f32, f64,
 *            f16x2 and bf16x2 adds) are nvcc's loop: LDS old; new = old op b;
 *            ATOMS.CAST.SPIN ok, [a], old, new; retry until ok
 *
 * <T>: "" (u32, b32), .S32, .64 (u64, b64), .S64, .F32.FTZ.RN, .F64.RN, .F16x2.RN, .BF16x2.RN,
 * .F32x2/.F32x4.FTZ.RN and .F16x4/.BF16x4.RN (sm_90 vectors). .sem and .scope as for ld/st:
 * .release writes the fence before, .acquire the L1 invalidation after (ptxsel_mem.c).
 *
 * A generic ATOM of a type that the shared unit lacks returns, on the hardware, a predicate that
 * is false when the address was shared, and nvcc follows it with the shared loop; the simulator
 * performs every generic atomic in place whatever the space (sim/exec_mem.c), so the predicate is
 * written PT and the fallback is left out (docs/isel-mem.md).
 */
#include "ptxsel_mem.h"

#include <string.h>

/* the operation modifier: PTX word and SASS name */
static const struct { const char *ptx, *sass; } ops[] = {
	{ "add", "ADD" }, { "min", "MIN" }, { "max", "MAX" }, { "inc", "INC" }, { "dec", "DEC" },
	{ "and", "AND" }, { "or", "OR" }, { "xor", "XOR" }, { "exch", "EXCH" }, { "cas", "CAS" },
};

enum { OpAdd, OpMin, OpMax, OpInc, OpDec, OpAnd, OpOr, OpXor, OpExch, OpCas, NAtomOp };

static int
atom_op(const Lw *w)
{
	for (int k = 0; k < NAtomOp; k++)
		if (lw_has(w, ops[k].ptx))
			return k;
	return -1;
}

/* the SASS type modifier of op on type t (vector of n), NULL if it has none */
static const char *
type_mod(int op, const char *t, int n)
{
	int bits = lw_type_bits(t), sgn = lw_type_signed(t);

	if (n == 2 || n == 4) {
		if (op != OpAdd)
			return NULL;
		if (!strcmp(t, "f32"))
			return n == 2 ? ".F32x2.FTZ.RN" : ".F32x4.FTZ.RN";
		if (n == 2 && !strcmp(t, "f16x2"))
			return ".F16x4.RN";
		if (n == 2 && !strcmp(t, "bf16x2"))
			return ".BF16x4.RN";
		return NULL;
	}
	if (n != 1)
		return NULL;
	switch (op) {
	case OpAdd:
		if (!strcmp(t, "f32"))
			return ".F32.FTZ.RN";
		if (!strcmp(t, "f64"))
			return ".F64.RN";
		if (!strcmp(t, "f16x2"))
			return ".F16x2.RN";
		if (!strcmp(t, "bf16x2"))
			return ".BF16x2.RN";
		if (lw_type_float(t))
			return NULL;
		return bits == 64 ? ".64" : bits == 32 ? (sgn ? ".S32" : "") : NULL;
	case OpMin: case OpMax:
		if (lw_type_float(t))
			return NULL;
		return bits == 64 ? (sgn ? ".S64" : ".64") : bits == 32 ? (sgn ? ".S32" : "") : NULL;
	case OpInc: case OpDec:
		return bits == 32 && !sgn && !lw_type_float(t) ? "" : NULL;
	case OpExch:
		return bits == 128 ? ".128" : bits == 64 ? ".64" : bits == 32 ? "" : NULL;
	default:   /* and, or, xor, cas */
		return bits == 64 ? ".64" : bits == 32 ? "" : NULL;
	}
}

/* the shared unit has the operation natively */
static int
shared_native(int op, const char *t)
{
	int bits = lw_type_bits(t);

	if (op == OpExch || op == OpCas)
		return bits == 32 || bits == 64;
	return bits == 32 && !lw_type_float(t);
}

/* the data operand k (a register, vector or immediate) in one register or tuple of `bits` x n */
static void
data_opnd(Lw *w, int k, int bits, int n, char *out, size_t nout)
{
	char s[MemName];
	int words = bits / 32;

	if (n == 1 && !lw_isimm(w, k)) {
		snprintf(out, nout, "%s", lw_reg(w, k));
		return;
	}
	if (n == 1 && words == 1) {
		mem_elem_reg(w, k, 0, bits, 0, out, nout);
		return;
	}
	snprintf(out, nout, "%s", n * words == 4 ? lw_tmp128(w) : n * words == 2 ? lw_tmp64(w) : lw_tmp(w));
	for (int e = 0; e < n; e++)
		for (int j = 0; j < words; j++) {
			char d[MemName];
			snprintf(d, sizeof d, "%s", lw_elem(w, out, e * words + j));
			lw_emit(w, "MOV %s, %s", d, mem_elem_src(w, k, e, bits, j, s, sizeof s));
		}
}

/* the result: straight into d (a scalar), or into a tuple then MOV per element (a vector) */
static int
result_opnd(Lw *w, int bits, int n, char *out, size_t nout, int *unpack)
{
	const PtxOpnd *o = lw_opnd(w, 0);

	*unpack = 0;
	if (o && o->kind == PoSink) {
		snprintf(out, nout, "RZ");
		return 0;
	}
	if (n == 1) {
		const LwReg *r = lw_regof(w, 0);
		if (!r)
			return lw_error_opnd(w, 0, "an atomic's result must be a register");
		if ((bits == 64 && r->kind != Lk64) || (bits <= 32 && r->kind == Lk64) ||
		    (bits == 128 && r->kind != Lk128))
			return lw_error_opnd(w, 0, "a result register of another size than the operation");
		snprintf(out, nout, "%s", lw_reg(w, 0));
		return 0;
	}
	int words = bits / 32;
	snprintf(out, nout, "%s", n * words == 4 ? lw_tmp128(w) : lw_tmp64(w));
	*unpack = 1;
	return 0;
}

static void
unpack_result(Lw *w, const char *t, int n)
{
	for (int e = 0; e < n; e++) {
		const char *d = lw_vec(w, 0, e);
		char dd[MemName];
		if (!strcmp(d, "RZ"))
			continue;
		snprintf(dd, sizeof dd, "%s", d);
		lw_emit(w, "MOV %s, %s", dd, lw_elem(w, t, e));
	}
}

/* new = old op b in the shared CAS loop */
static int
loop_op(Lw *w, int op, const char *t, const char *nw, const char *old, const char *b)
{
	int bits = lw_type_bits(t);
	char n1[MemName], o1[MemName], b1[MemName], q[MemName];

	if (!strcmp(t, "f32"))
		lw_emit(w, "FADD %s, %s, %s", nw, old, b);
	else if (!strcmp(t, "f64"))
		lw_emit(w, "DADD %s, %s, %s", nw, old, b);
	else if (!strcmp(t, "f16x2"))
		lw_emit(w, "HADD2 %s, %s, %s", nw, old, b);
	else if (!strcmp(t, "bf16x2"))
		lw_emit(w, "HADD2.BF16_V2 %s, %s, %s", nw, old, b);
	if (lw_type_float(t))
		return 0;
	if (bits != 64)
		return lw_error(w, "no shared form for this operation");
	snprintf(n1, sizeof n1, "%s", lw_elem(w, nw, 1));
	snprintf(o1, sizeof o1, "%s", lw_elem(w, old, 1));
	snprintf(b1, sizeof b1, "%s", lw_elem(w, b, 1));
	switch (op) {
	case OpAdd:
		snprintf(q, sizeof q, "%s", lw_ptmp(w));
		lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", nw, q, old, b);
		lw_emit(w, "IADD3.X %s, %s, %s, RZ, %s, !PT", n1, o1, b1, q);
		return 0;
	case OpAnd: case OpOr: case OpXor: {
		unsigned lut = op == OpAnd ? 0xc0 : op == OpOr ? 0xfc : 0x3c;
		lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0x%x, !PT", nw, old, b, lut);
		lw_emit(w, "LOP3.LUT %s, %s, %s, RZ, 0x%x, !PT", n1, o1, b1, lut);
		return 0;
	}
	case OpMin: case OpMax: {
		/* q: old < b (min) or old > b (max), 64-bit, signed by the high words' compare */
		const char *cmp = op == OpMin ? "LT" : "GT";
		snprintf(q, sizeof q, "%s", lw_ptmp(w));
		lw_emit(w, "ISETP.%s.U32.AND %s, PT, %s, %s, PT", cmp, q, old, b);
		lw_emit(w, "ISETP.%s%s.AND.EX %s, PT, %s, %s, PT, %s", cmp, lw_type_signed(t) ? "" : ".U32",
		        q, o1, b1, q);
		lw_emit(w, "SEL %s, %s, %s, %s", nw, old, b, q);
		lw_emit(w, "SEL %s, %s, %s, %s", n1, o1, b1, q);
		return 0;
	}
	default:
		return lw_error(w, "no shared form for this operation");
	}
}

/* the shared loop: LDS old; new = old op b; ATOMS.CAST.SPIN ok, [a], old, new until ok */
static int
shared_loop(Lw *w, int op, const char *t, const char *addr, const char *d, const char *b)
{
	int wide = lw_type_bits(t) == 64;
	char skipb[MemName], loop[MemName], old[MemName], nw[MemName], ok[MemName], q[MemName];
	char guard[sizeof w->guard];
	const char *skip = mem_guard_skip(w, skipb, sizeof skipb);
	int rc;

	/* the sequence runs whole or not at all: its own branches, no guard inside */
	memcpy(guard, w->guard, sizeof guard);
	w->guard[0] = 0;
	snprintf(loop, sizeof loop, "%s", lw_newlabel(w));
	snprintf(old, sizeof old, "%s", wide ? lw_tmp64(w) : lw_tmp(w));
	snprintf(nw, sizeof nw, "%s", wide ? lw_tmp64(w) : lw_tmp(w));
	snprintf(ok, sizeof ok, "%s", wide ? lw_tmp64(w) : lw_tmp(w));
	snprintf(q, sizeof q, "%s", lw_ptmp(w));
	lw_label_here(w, loop);
	lw_emit(w, "LDS%s %s, %s", wide ? ".64" : "", old, addr);
	rc = loop_op(w, op, t, nw, old, b);
	lw_emit(w, "ATOMS.CAST.SPIN%s %s, %s, %s, %s", wide ? ".64" : "", ok, addr, old, nw);
	lw_emit(w, "ISETP.EQ.U32.AND %s, PT, %s, 0x1, PT", q, ok);
	if (wide)
		lw_emit(w, "ISETP.EQ.U32.AND.EX %s, PT, %s, RZ, PT, %s", q, lw_elem(w, ok, 1), q);
	lw_emit(w, "@!%s BRA `(%s)", q, loop);
	if (strcmp(d, "RZ")) {
		lw_emit(w, "MOV %s, %s", d, old);
		if (wide)
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_elem(w, old, 1));
	}
	if (skip)
		lw_label_here(w, skip);
	memcpy(w->guard, guard, sizeof guard);
	return rc;
}

static int
sel_atomic(Lw *w, int red)
{
	int space = mem_space(w), op = atom_op(w), sem = mem_sem(w);
	const char *t = lw_type(w), *scope = mem_scope(w), *tm;
	int k0 = red ? 0 : 1;        /* the address operand */
	int n = lw_veclen(w, k0 + 1), bits = lw_type_bits(t), unpack = 0;
	char addr[MemAddr], d[MemName], b[MemName], c[MemName];

	if (space < 0)
		return -1;
	if (lw_has(w, "mbarrier::complete_tx::bytes") || lw_has(w, "async"))
		return lw_error(w, "red.async (cluster shared memory)");
	if (space != PsGlobal && space != PsShared && space != PsNoSpace)
		return lw_error(w, "an atomic in the .%s space", ptx_space_name(space) + 1);
	if (op < 0)
		return lw_error(w, "an atomic without an operation");
	if (red && (op == OpExch || op == OpCas))
		return lw_error(w, "red.%s", ops[op].ptx);
	if (!(tm = type_mod(op, t, n)))
		return lw_error(w, "atom.%s of %s%s", ops[op].ptx, n > 1 ? "a vector of ." : ".", t);
	if (n > 1 && space != PsGlobal)
		return lw_error(w, "a vector atomic outside the .global space");
	if (bits == 128 && space == PsShared)
		return lw_error(w, "a 128-bit shared atomic");
	if (sem == MsVolatile || sem == MsMmio || sem == MsSc)
		return lw_error(w, "this memory order on an atomic");
	if (lw_has(w, "L2::cache_hint"))
		return lw_error(w, "an atomic with a cache policy");
	if (op == OpCas || space == PsShared ? mem_addr_nodesc(w, k0, space, addr, sizeof addr) < 0 :
	    mem_addr(w, k0, space, addr, sizeof addr) < 0)
		return -1;
	if (!red && result_opnd(w, bits, n, d, sizeof d, &unpack) < 0)
		return -1;
	if (red)
		snprintf(d, sizeof d, "RZ");
	data_opnd(w, k0 + 1, bits, n, b, sizeof b);
	c[0] = 0;
	if (op == OpCas)
		data_opnd(w, k0 + 2, bits, 1, c, sizeof c);
	if (sem == MsRelease || sem == MsAcqRel)
		mem_release(w, space == PsShared ? "SM" : scope);
	if (space == PsShared) {
		if (!shared_native(op, t)) {
			if (shared_loop(w, op, t, addr, d, b) < 0)
				return -1;
		} else if (op == OpCas) {
			lw_emit(w, "ATOMS.CAS%s %s, %s, %s, %s", tm, d, addr, b, c);
		} else {
			lw_emit(w, "ATOMS.%s%s %s, %s, %s", ops[op].sass, tm, d, addr, b);
		}
	} else if (!strcmp(d, "RZ") && space == PsGlobal && op != OpCas && op != OpExch) {
		lw_emit(w, "%s.E.%s%s.STRONG.%s %s, %s", arch_has(w->arch, ArchRedg) ? "REDG" : "RED",
		        ops[op].sass, tm, scope, addr, b);
	} else {
		const char *o = space == PsGlobal ? "ATOMG" : "ATOM";
		if (op == OpCas)
			lw_emit(w, "%s.E.CAS%s.STRONG.%s PT, %s, %s, %s, %s", o, tm, scope, d, addr, b, c);
		else
			lw_emit(w, "%s.E.%s%s.STRONG.%s PT, %s, %s, %s", o, ops[op].sass, tm, scope, d, addr, b);
	}
	if (unpack)
		unpack_result(w, d, n);
	if ((sem == MsAcquire || sem == MsAcqRel) && space != PsShared)
		mem_acquire(w, scope);
	return 0;
}

int
sel_atom(Lw *w)
{
	return sel_atomic(w, 0);
}

int
sel_red(Lw *w)
{
	return sel_atomic(w, 1);
}
