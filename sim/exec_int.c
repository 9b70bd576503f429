/* exec_int.c: integer and logic semantics of the vector datapath: IADD3, VIADD, LEA, LOP3, SHF,
 * PRMT, SEL, IMNMX and the sm_90 min/max forms, IABS, POPC, FLO, BREV, BMSK, SGXT, ISETP,
 * PLOP3, P2R/R2P, MOV, IMAD (every form), IDP, VABSDIFF. One row per opcode family in
 * int_rows[]; each decoder parses operands and modifiers once into DIns (mod, aux, aux2) and
 * picks an ExecFn that loops over the 32 lanes. The scalar rules live in alu.h so that the
 * uniform datapath (exec_uniform.c) shares them; docs/sim-numerics.md states each one.
 */
#include <string.h>

#include "alu.h"

/* the xor mask of an integer operand's ~ or - (two's complement adds one more, counted apart) */
static inline uint32_t
inv_of(const DOp *o)
{
	return (o->flags & (DFNeg | DFNot)) ? ~0u : 0;
}

static inline uint32_t
neg_of(const DOp *o)
{
	return (o->flags & DFNeg) ? 1 : 0;
}

/* a general register destination: R, or UR when the uniform datapath shares the decoder */
static inline int
is_gpr(const DOp *o)
{
	return o->kind == DR || o->kind == DUR;
}

static const DOp rz_op = { .kind = DR, .reg = RegRZ, .n = 1, .ureg = RegURZ, .udesc = RegURZ };

/* ---------------------------------------------------------------------------------------------
 * IADD3 Rd, [Pc0, [Pc1,]] a, b, c [, Pcin0, Pcin1]   (.X: with carry in)
 * The sum is staged: Pc0 is the carry of a + b (+ Pcin0), Pc1 that of adding c (+ Pcin1), so
 * that Pc0 + Pc1 is the carry of the whole three-input sum. -x is ~x + 1.
 */
ALU_BODY(exec_iadd3)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t xa = inv_of(&d->src[0]), xb = inv_of(&d->src[1]), xc = inv_of(&d->src[2]);
	uint32_t k = d->aux2;
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (a[l] ^ xa) + (b[l] ^ xb) + (c[l] ^ xc) + k;
	alu_out_done(x, &d->dst[0], r, rt, mask);
}
ALU_VARIANTS(exec_iadd3)

ALU_BODY(exec_iadd3_carry)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize];
	uint32_t k1[WarpSize], k2[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t xa = inv_of(&d->src[0]), xb = inv_of(&d->src[1]), xc = inv_of(&d->src[2]);
	uint32_t na = neg_of(&d->src[0]) + neg_of(&d->src[1]), nc = neg_of(&d->src[2]);
	uint8_t co0[WarpSize], co1[WarpSize];
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	if (!(d->mod & IaddX)) {
		ALU_IVDEP
		for (unsigned l = 0; l < WarpSize; l++) {   /* carries by wrap-around compares */
			uint32_t av = a[l] ^ xa, u = av + (b[l] ^ xb), u2 = u + na;
			uint32_t v = u2 + (c[l] ^ xc), v2 = v + nc;
			r[l] = v2;
			co0[l] = (uint8_t)((u < av) | (u2 < u));
			co1[l] = (uint8_t)((v < u2) | (v2 < v));
		}
		goto out;
	}
	alu_unlanes(sim_pred(x, &d->src[3]), k1);
	alu_unlanes(sim_pred(x, &d->src[4]), k2);
	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t av = a[l] ^ xa, u = av + (b[l] ^ xb), u2 = u + na + k1[l];
		uint32_t v = u2 + (c[l] ^ xc), v2 = v + nc + k2[l];
		r[l] = v2;
		co0[l] = (uint8_t)((u < av) | (u2 < u));
		co1[l] = (uint8_t)((v < u2) | (v2 < v));
	}
out:
	alu_out_done(x, &d->dst[0], r, rt, mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_lanes(co0), mask);
	if (d->ndst > 2)
		sim_dst_pred(x, &d->dst[2], alu_lanes(co1), mask);
}
ALU_VARIANTS(exec_iadd3_carry)

/* VIADD.16x2: two 16-bit adds */
static void
exec_viadd16(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	int na = (d->src[0].flags & DFNeg) != 0, nb = (d->src[1].flags & DFNeg) != 0;

	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t a0 = a[l] & 0xffff, a1 = a[l] >> 16, b0 = b[l] & 0xffff, b1 = b[l] >> 16;
		if (na) {
			a0 = -a0;
			a1 = -a1;
		}
		if (nb) {
			b0 = -b0;
			b1 = -b1;
		}
		r[l] = ((a0 + b0) & 0xffff) | (a1 + b1) << 16;
	}
	sim_dst(x, &d->dst[0], r, mask);
}

int
alu_dec_iadd3(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "X", "16x2", "64", NULL };
	AluMods m;
	int nin;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	d->mod = m.bits;
	if ((m.bits & Iadd64) && (i->op != OUIADD3 || d->ndst != 1 || (m.bits & IaddX)))
		return sim_unsupported(c, i);
	nin = d->nsrc - ((m.bits & IaddX) ? 2 : 0);
	if (nin < 2 || nin > 3 || d->ndst < 1 || d->ndst > 3 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	if (nin == 2) {                          /* VIADD, IADD32I: the third input is zero */
		if (m.bits & IaddX) {
			d->src[4] = d->src[3];
			d->src[3] = d->src[2];
		}
		d->src[2] = rz_op;
		d->nsrc++;
	}
	if (m.bits & Iadd16x2) {
		if (d->ndst != 1 || (m.bits & IaddX))
			return sim_unsupported(c, i);
		d->exec = exec_viadd16;
		return 0;
	}
	d->aux2 = neg_of(&d->src[0]) + neg_of(&d->src[1]) + neg_of(&d->src[2]);
	d->exec = (d->ndst > 1 || (m.bits & IaddX)) ? ALU_PICK(exec_iadd3_carry) : ALU_PICK(exec_iadd3);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * LEA Rd, [Pc,] a, b, s [, Pcin]            d = (a << s) + b
 * LEA.HI Rd, [Pc,] a, b, c, s [, Pcin]      d = b + ({c, a} << s).hi       (.SX32: c = sign of a)
 */
ALU_BODY(exec_lea)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], ts[WarpSize], rt[WarpSize], k[WarpSize];
	uint32_t sh[WarpSize];
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);
	unsigned hi = (d->mod & LeaHi) != 0, sx = (d->mod & LeaSx32) != 0;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = hi && !sx ? alu_src(x, &d->src[2], tc) : NULL;
	const DOp *so = &d->src[d->aux];
	uint32_t xa = inv_of(&d->src[0]), xb = inv_of(&d->src[1]);
	uint32_t na = neg_of(&d->src[0]), nb = neg_of(&d->src[1]);
	uint8_t co[WarpSize];

	if (d->mod & LeaX)
		alu_unlanes(sim_pred(x, &d->src[d->aux + 1]), k);
	else
		for (unsigned l = 0; l < WarpSize; l += 4)   /* no memset: rep stos is slow here */
			k[l] = k[l + 1] = k[l + 2] = k[l + 3] = 0;
	if (so->kind == DImm) {                  /* the usual case: one shift for the warp */
		uint32_t n = (uint32_t)so->imm & 31;
		if (!hi) {
			for (unsigned l = 0; l < WarpSize; l++)
				sh[l] = ((a[l] ^ xa) + na) << n;
		} else if (n == 0) {
			for (unsigned l = 0; l < WarpSize; l++)
				sh[l] = sx ? (uint32_t)((int32_t)((a[l] ^ xa) + na) >> 31) : c[l];
		} else if (sx) {
			for (unsigned l = 0; l < WarpSize; l++) {
				uint32_t av = (a[l] ^ xa) + na;
				sh[l] = (uint32_t)((int32_t)av >> 31) << n | av >> (32 - n);
			}
		} else {
			for (unsigned l = 0; l < WarpSize; l++)
				sh[l] = c[l] << n | ((a[l] ^ xa) + na) >> (32 - n);
		}
	} else {
		const uint32_t *s = alu_src(x, so, ts);
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t av = (a[l] ^ xa) + na, n = s[l] & 31;
			uint32_t cv = !hi ? 0 : sx ? (uint32_t)((int32_t)av >> 31) : c[l];
			sh[l] = !hi ? av << n : n ? (cv << n) | (av >> (32 - n)) : cv;
		}
	}
	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t u = sh[l] + (b[l] ^ xb), u2 = u + nb + k[l];
		r[l] = u2;
		co[l] = (uint8_t)((u < sh[l]) | (u2 < u));
	}
	alu_out_done(x, &d->dst[0], r, rt, mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_lanes(co), mask);
}
ALU_VARIANTS(exec_lea)

int
alu_dec_lea(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "HI", "X", "SX32", NULL };
	AluMods m;
	int need;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	d->mod = m.bits;
	if ((m.bits & LeaSx32) && !(m.bits & LeaHi))
		return sim_unsupported(c, i);
	/* a, b, [c,] s, [Pcin] */
	d->aux = ((m.bits & LeaHi) && !(m.bits & LeaSx32)) ? 3 : 2;
	need = (int)d->aux + 1 + ((m.bits & LeaX) ? 1 : 0);
	if (d->nsrc != need || d->ndst < 1 || d->ndst > 2 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	d->exec = ALU_PICK(exec_lea);
	return 0;
}

/* ISCADD Rd, a, b, s: (a << s) + b, the pre-Volta LEA */
static int
dec_iscadd(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_mods(c, i, NULL, 0, &(AluMods){0}) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 3 || d->ndst != 1)
		return sim_unsupported(c, i);
	d->mod = 0;
	d->aux = 2;
	d->exec = ALU_PICK(exec_lea);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * LOP3.LUT [Pd,] Rd, a, b, c, lut, Pq: Pd = (result != 0) | Pq
 * LOP.op / LOP32I.op Rd, a, b: AND, OR, XOR, PASS_B as LUTs
 */
ALU_BODY(exec_lop3)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	const DOp *dst = &d->dst[d->aux2 == 0 ? 1 : 0];
	uint32_t *r = alu_out(x, dst, mask, rt);
	uint32_t lut = d->aux;
	uint32_t t0 = -(lut & 1), t1 = -(lut >> 1 & 1), t2 = -(lut >> 2 & 1), t3 = -(lut >> 3 & 1);
	uint32_t t4 = -(lut >> 4 & 1), t5 = -(lut >> 5 & 1), t6 = -(lut >> 6 & 1);
	uint32_t t7 = -(lut >> 7 & 1);
	uint32_t d01 = t0 ^ t1, d23 = t2 ^ t3, d45 = t4 ^ t5, d67 = t6 ^ t7;

	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t cc = c[l];
		uint32_t p0 = t0 ^ (cc & d01), p1 = t2 ^ (cc & d23), p2 = t4 ^ (cc & d45);
		uint32_t p3 = t6 ^ (cc & d67);
		uint32_t q0 = p0 ^ (b[l] & (p0 ^ p1)), q1 = p2 ^ (b[l] & (p2 ^ p3));
		r[l] = q0 ^ (a[l] & (q0 ^ q1));
	}
	if (d->aux2 != 255) {                    /* predicate output: dst[aux2] */
		uint32_t q = d->nsrc > 4 ? sim_pred(x, &d->src[4]) : 0;
		uint8_t nz[WarpSize];
		for (unsigned l = 0; l < WarpSize; l++)
			nz[l] = r[l] != 0;
		sim_dst_pred(x, &d->dst[d->aux2], alu_lanes(nz) | q, mask);
	}
	alu_out_done(x, dst, r, rt, mask);
}
ALU_VARIANTS(exec_lop3)

/* fold ~ on sources into the LUT */
static uint32_t
lut_fold(const DIns *d, uint32_t lut)
{
	unsigned inv = 0;

	for (unsigned k = 0; k < 3; k++)
		if (d->src[k].flags & DFNot)
			inv |= 4u >> k;
	return alu_lut_inv(lut, inv);
}

int
alu_dec_lop3(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "LUT", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	if (!(m.bits & 1) || d->nsrc < 4 || d->nsrc > 5 || d->src[3].kind != DImm)
		return sim_unsupported(c, i);
	if (d->ndst == 1 && is_gpr(&d->dst[0])) {
		d->aux2 = 255;
	} else if (d->ndst == 2 && (d->dst[0].kind == DP || d->dst[0].kind == DUP) &&
	           is_gpr(&d->dst[1])) {
		d->aux2 = 0;
	} else {
		return sim_unsupported(c, i);
	}
	d->aux = lut_fold(d, (uint32_t)d->src[3].imm & 0xff);
	d->exec = ALU_PICK(exec_lop3);
	return 0;
}

int
alu_dec_lop(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "AND", "OR", "XOR", "PASS_B", NULL };
	static const uint8_t luts[4] = { 0xc0, 0xfc, 0x3c, 0xcc };
	AluMods m;
	unsigned k;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	if (d->ndst != 1 || !is_gpr(&d->dst[0]) || d->nsrc != 2 || __builtin_popcount(m.bits) != 1)
		return sim_unsupported(c, i);
	k = (unsigned)__builtin_ctz(m.bits);
	d->src[2] = rz_op;
	d->nsrc = 3;
	d->aux = lut_fold(d, luts[k]);
	d->aux2 = 255;
	d->exec = ALU_PICK(exec_lop3);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * SHF.L|R[.W].U32|S32|U64|S64[.HI] Rd, lo, n, hi;   SHL Rd, a, n;   SHR[.U32] Rd, a, n
 */
/* one loop per mode, so that each is straight-line code */
#define SHF_LOOP(m) \
	case m: \
		ALU_IVDEP \
		for (unsigned l = 0; l < WarpSize; l++) \
			r[l] = alu_shf(a[l], n[l], c[l], m); \
		break;

ALU_BODY(exec_shf)
{
	uint32_t ta[WarpSize], tn[WarpSize], tc[WarpSize], rt[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *n = alu_src(x, &d->src[1], tn);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	switch (d->aux) {
	SHF_LOOP(0) SHF_LOOP(1) SHF_LOOP(2) SHF_LOOP(3) SHF_LOOP(4) SHF_LOOP(5) SHF_LOOP(6)
	SHF_LOOP(7) SHF_LOOP(8) SHF_LOOP(9) SHF_LOOP(10) SHF_LOOP(11) SHF_LOOP(12) SHF_LOOP(13)
	SHF_LOOP(14) SHF_LOOP(15) SHF_LOOP(16) SHF_LOOP(17) SHF_LOOP(18) SHF_LOOP(19)
	SHF_LOOP(20) SHF_LOOP(21) SHF_LOOP(22) SHF_LOOP(23) SHF_LOOP(24) SHF_LOOP(25)
	SHF_LOOP(26) SHF_LOOP(27) SHF_LOOP(28) SHF_LOOP(29) SHF_LOOP(30) SHF_LOOP(31)
	}
	alu_out_done(x, &d->dst[0], r, rt, mask);
}
ALU_VARIANTS(exec_shf)

int
alu_dec_shf(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "L", "R", "W", "U32", "S32", "U64", "S64", "HI", NULL };
	AluMods m;
	unsigned mode = 0;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (__builtin_popcount(m.bits & 3) != 1 || __builtin_popcount(m.bits & 0x78) > 1 ||
	    d->nsrc != 3 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	mode |= (m.bits & 1) ? ShfL : 0;
	mode |= (m.bits & 4) ? ShfW : 0;
	mode |= (m.bits & 0x50) ? ShfS : 0;      /* S32, S64 */
	mode |= (m.bits & 0x60) ? Shf64 : 0;     /* U64, S64 */
	mode |= (m.bits & 0x80) ? ShfHi : 0;
	d->aux = mode;
	d->exec = ALU_PICK(exec_shf);
	return 0;
}

int
alu_dec_shl_shr(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "W", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 2 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	if (i->op == OSHL || i->op == OUSHL) {                     /* ({0, a} << n).lo */
		d->src[2] = rz_op;
		d->aux = ShfL;
	} else {                                 /* ({a, 0} >> n).hi */
		d->src[2] = d->src[0];
		d->src[0] = rz_op;
		d->aux = ShfHi | ((m.bits & 1) ? 0 : ShfS);
	}
	d->aux |= (m.bits & 2) ? ShfW : 0;
	d->nsrc = 3;
	d->exec = ALU_PICK(exec_shf);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * PRMT[.mode] Rd, a, sel, b
 */
static void
exec_prmt(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], ts[WarpSize], tb[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *s = alu_src(x, &d->src[1], ts);
	const uint32_t *b = alu_src(x, &d->src[2], tb);
	int mode = (int)d->aux;

	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = alu_prmt(a[l], b[l], s[l], mode);
	sim_dst(x, &d->dst[0], r, mask);
}


/* PRMT with an immediate selector and no sign replication: four byte moves */
ALU_BODY(exec_prmt_imm)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize], sel = d->aux2;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[2], tb);
	unsigned s0 = 8 * (sel & 7), s1 = 8 * ((sel >> 4) & 7), s2 = 8 * ((sel >> 8) & 7);
	unsigned s3 = 8 * ((sel >> 12) & 7);

	for (unsigned l = 0; l < WarpSize; l++) {
		uint64_t v = (uint64_t)b[l] << 32 | a[l];
		r[l] = (uint32_t)((v >> s0) & 0xff) | (uint32_t)((v >> s1) & 0xff) << 8 |
		       (uint32_t)((v >> s2) & 0xff) << 16 | (uint32_t)((v >> s3) & 0xff) << 24;
	}
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_prmt_imm)

int
alu_dec_prmt(DecodeCtx *c, const Ins *i, DIns *d)
{
	AluMods m;

	if (alu_mods(c, i, alu_prmt_names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (__builtin_popcount(m.bits) > 1 || d->nsrc != 3 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	d->aux = m.bits ? (uint32_t)__builtin_ctz(m.bits) : PrmtIdx;
	d->exec = exec_prmt;
	if (d->aux == PrmtIdx && d->src[1].kind == DImm && !(d->src[1].imm & 0x8888)) {
		d->aux2 = (uint32_t)d->src[1].imm & 0xffff;
		d->exec = ALU_PICK(exec_prmt_imm);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * SEL Rd, a, b, p: p ? a : b
 */
ALU_BODY(exec_sel)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	uint32_t p = sim_pred(x, &d->src[2]);

	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (p >> l) & 1 ? a[l] : b[l];
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_sel)

int
alu_dec_sel(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_mods(c, i, NULL, 0, &(AluMods){0}) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 3 || !is_gpr(&d->dst[0]) || (d->src[2].kind != DP && d->src[2].kind != DUP))
		return sim_unsupported(c, i);
	d->exec = ALU_PICK(exec_sel);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * IMNMX[.U32] Rd, a, b, p (p: min, !p: max); VIMNMX[.U32][.RELU] the same;
 * VIMNMX.S16x2/.U16x2 per half; VIMNMX3 Rd, a, b, c, p; VIADDMNMX Rd, a, b, c, p: mnmx(a + b, c)
 */
enum { MnU32 = 1 << 0, MnRelu = 1 << 1, MnS16 = 1 << 2, MnU16 = 1 << 3, Mn3 = 1 << 4,
       MnAdd = 1 << 5 };

static inline uint32_t
mnmx16(uint32_t a, uint32_t b, int sgn, int pmin, int relu)
{
	uint32_t r = 0;

	for (unsigned h = 0; h < 32; h += 16) {
		uint32_t x = (a >> h) & 0xffff, y = (b >> h) & 0xffff, v;
		int xlty = sgn ? (int16_t)x < (int16_t)y : x < y;
		v = (xlty == pmin) ? x : y;
		if (relu && sgn && (v & 0x8000))
			v = 0;
		r |= v << h;
	}
	return r;
}

ALU_BODY(exec_imnmx)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	uint32_t md = d->mod;
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = (md & (Mn3 | MnAdd)) ? alu_src(x, &d->src[2], tc) : NULL;
	uint32_t p = sim_pred(x, &d->src[d->aux]);
	uint32_t xa = inv_of(&d->src[0]), na = neg_of(&d->src[0]);
	uint32_t xb = inv_of(&d->src[1]), nb = neg_of(&d->src[1]);
	int sgn = !(md & (MnU32 | MnU16)), relu = (md & MnRelu) != 0;

	for (unsigned l = 0; l < WarpSize; l++) {
		int pmin = (p >> l) & 1;
		uint32_t av = (a[l] ^ xa) + na, bv = (b[l] ^ xb) + nb, v;
		if (md & (MnS16 | MnU16)) {
			r[l] = mnmx16(a[l], b[l], sgn, pmin, relu);
			continue;
		}
		if (md & MnAdd)
			v = alu_imnmx(av + bv, c[l], sgn, pmin);
		else if (md & Mn3)
			v = alu_imnmx(alu_imnmx(av, bv, sgn, pmin), c[l], sgn, pmin);
		else
			v = alu_imnmx(av, bv, sgn, pmin);
		if (relu && sgn && (int32_t)v < 0)
			v = 0;
		r[l] = v;
	}
	sim_dst(x, &d->dst[0], r, mask);
}
ALU_VARIANTS(exec_imnmx)

static int
dec_imnmx(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "RELU", "S16x2", "U16x2", "S32", NULL };
	AluMods m;
	int nin;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	d->mod = m.bits & (MnU32 | MnRelu | MnS16 | MnU16);
	if (i->op == OVIMNMX3)
		d->mod |= Mn3;
	if (i->op == OVIADDMNMX)
		d->mod |= MnAdd;
	nin = (d->mod & (Mn3 | MnAdd)) ? 3 : 2;
	if (d->nsrc != nin + 1 || !is_gpr(&d->dst[0]) ||
	    (d->src[nin].kind != DP && d->src[nin].kind != DUP))
		return sim_unsupported(c, i);
	if ((d->mod & (MnS16 | MnU16)) && (nin != 2 || (d->src[0].flags | d->src[1].flags) &
	    (DFNeg | DFNot)))
		return sim_unsupported(c, i);
	if (i->op == OIMNMX && (m.bits & ~MnU32))
		return sim_unsupported(c, i);
	d->aux = (uint32_t)nin;
	d->exec = ALU_PICK(exec_imnmx);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * One-source bit operations: IABS, POPC, FLO[.U32|.S32][.SH], BREV; two-source BMSK, SGXT.
 */

static void
exec_bits(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta);
	const uint32_t *b = d->nsrc > 1 ? alu_src(x, &d->src[1], tb) : a;
	uint32_t xa = inv_of(&d->src[0]), na = neg_of(&d->src[0]), md = d->mod;
	int sgn = (md & BitSigned) != 0;

	switch (d->aux) {
	case BitIabs:
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t v = (a[l] ^ xa) + na;
			r[l] = (int32_t)v < 0 ? -v : v;
		}
		break;
	case BitPopc:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = (uint32_t)__builtin_popcount((a[l] ^ xa) + na);
		break;
	case BitFlo:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_flo((a[l] ^ xa) + na, sgn, (md & BitSh) != 0);
		break;
	case BitBrev:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_brev((a[l] ^ xa) + na);
		break;
	case BitBmsk:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_bmsk(a[l], b[l], (md & BitWrap) != 0);
		break;
	default:
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = alu_sgxt(a[l], b[l], sgn, (md & BitWrap) != 0);
		break;
	}
	sim_dst(x, &d->dst[0], r, mask);
}

int
alu_dec_bits(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "S32", "SH", "W", NULL };
	AluMods m;
	int kind, nin = 1;

	switch (i->op) {
	case OIABS: kind = BitIabs; break;
	case OPOPC: case OUPOPC: kind = BitPopc; break;
	case OFLO: case OUFLO: kind = BitFlo; break;
	case OBREV: case OUBREV: kind = BitBrev; break;
	case OBMSK: case OUBMSK: kind = BitBmsk; nin = 2; break;
	default: kind = BitSgxt; nin = 2; break;
	}
	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != nin || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	d->aux = (uint32_t)kind;
	d->mod = 0;
	/* FLO defaults to signed? nvdisasm always prints .U32 or .S32; SGXT is signed unless .U32 */
	if ((kind == BitFlo && (m.bits & 2)) || (kind == BitSgxt && !(m.bits & 1)))
		d->mod |= BitSigned;
	if (m.bits & 4)
		d->mod |= BitSh;
	if (m.bits & 8)
		d->mod |= BitWrap;
	if ((m.bits & 4) && kind != BitFlo)
		return sim_unsupported(c, i);
	if ((m.bits & 8) && kind != BitBmsk && kind != BitSgxt)
		return sim_unsupported(c, i);
	if ((m.bits & 3) && kind != BitFlo && kind != BitSgxt)
		return sim_unsupported(c, i);
	d->exec = exec_bits;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * ISETP.cmp[.U32].bop[.EX] Pd0, Pd1, a, b, Pc [, Pex]
 *   r = a cmp b; .EX (high words of a 64-bit compare): r = hi_a == hi_b ? Pex : hi_a cmp hi_b
 *   Pd0 = r bop Pc, Pd1 = !r bop Pc
 */
ALU_BODY(exec_isetp)
{
	uint32_t ta[WarpSize], tb[WarpSize], t = 0;
	const uint32_t *restrict a = alu_src(x, &d->src[0], ta);
	const uint32_t *restrict b = alu_src(x, &d->src[1], tb);
	uint32_t pc = sim_pred(x, &d->src[2]);
	uint32_t xa = inv_of(&d->src[0]), na = neg_of(&d->src[0]);
	uint32_t xb = inv_of(&d->src[1]), nb = neg_of(&d->src[1]);
	uint32_t sflip = (d->mod & IsetpU32) ? 0 : 0x80000000u;
	unsigned code = d->aux;
	int bop = (int)d->aux2;

	if (d->mod & IsetpEx) {                  /* equal high words: the low compare decides */
		uint32_t pex = sim_pred(x, &d->src[3]), fixed = code == CmpF || code == CmpNUM;
		for (unsigned l = 0; l < WarpSize; l++) {
			uint32_t av = (a[l] ^ xa) + na, bv = (b[l] ^ xb) + nb;
			uint32_t r = av == bv && !fixed ? (pex >> l) & 1 : alu_icmp(av, bv, sflip, code);
			t |= r << l;
		}
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			t |= (uint32_t)alu_icmp((a[l] ^ xa) + na, (b[l] ^ xb) + nb, sflip, code) << l;
	}
	sim_dst_pred(x, &d->dst[0], alu_bop(bop, t, pc), mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_bop(bop, ~t, pc), mask);
}
ALU_VARIANTS(exec_isetp)

int
alu_dec_isetp(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "EX", "S32", NULL };
	AluMods m;

	if (alu_mods(c, i, names, AmCmp | AmBop, &m) < 0 || alu_split(c, i, d, 0) < 0)
		return -1;
	d->mod = m.bits & (IsetpU32 | IsetpEx);
	if (m.cmp == CmpT)
		m.cmp = RelLT | RelEQ | RelGT;       /* integer "always" */
	else if (m.cmp < 0 || m.cmp >= CmpNUM)
		return sim_unsupported(c, i);
	if (d->ndst < 1 || d->ndst > 2 || d->nsrc != ((m.bits & IsetpEx) ? 4 : 3))
		return sim_unsupported(c, i);
	d->aux = (uint32_t)m.cmp;
	d->aux2 = (uint32_t)(m.bop < 0 ? BopAnd : m.bop);
	d->exec = ALU_PICK(exec_isetp);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * PLOP3.LUT Pd0, Pd1, a, b, c, lut0, lut1;   PSETP.bop0.bop1 Pd0, Pd1, a, b, c
 */
static void
exec_plop3(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = sim_pred(x, &d->src[0]), b = sim_pred(x, &d->src[1]);
	uint32_t c = sim_pred(x, &d->src[2]);

	sim_dst_pred(x, &d->dst[0], alu_lop3(a, b, c, d->aux), mask);
	sim_dst_pred(x, &d->dst[1], alu_lop3(a, b, c, d->aux2), mask);
}

int
alu_dec_plop3(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "LUT", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 2) < 0)
		return -1;
	if (d->nsrc != 5 || d->src[3].kind != DImm || d->src[4].kind != DImm)
		return sim_unsupported(c, i);
	for (unsigned k = 0; k < 3; k++)
		if (d->src[k].kind != DP && d->src[k].kind != DUP)
			return sim_unsupported(c, i);
	d->aux = (uint32_t)d->src[3].imm & 0xff;
	d->aux2 = (uint32_t)d->src[4].imm & 0xff;
	d->exec = exec_plop3;
	return 0;
}

/* PSETP.bop0.bop1 Pd0, Pd1, a, b, c: Pd0 = (a bop0 b) bop1 c, Pd1 = !(a bop0 b) bop1 c */
static void
exec_psetp(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = sim_pred(x, &d->src[0]), b = sim_pred(x, &d->src[1]);
	uint32_t c = sim_pred(x, &d->src[2]), t = alu_bop((int)d->aux, a, b);

	sim_dst_pred(x, &d->dst[0], alu_bop((int)d->aux2, t, c), mask);
	sim_dst_pred(x, &d->dst[1], alu_bop((int)d->aux2, ~t, c), mask);
}

int
alu_dec_psetp(DecodeCtx *c, const Ins *i, DIns *d)
{
	int bop[2], n = 0;

	if (alu_split_n(c, i, d, 2) < 0)
		return -1;
	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		int b = !strcmp(s, "AND") ? BopAnd : !strcmp(s, "OR") ? BopOr : !strcmp(s, "XOR") ? BopXor
		        : -1;
		if (b < 0 || n == 2)
			return sim_unsupported(c, i);
		bop[n++] = b;
	}
	if (n != 2 || d->nsrc != 3)
		return sim_unsupported(c, i);
	d->aux = (uint32_t)bop[0];
	d->aux2 = (uint32_t)bop[1];
	d->exec = exec_psetp;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * P2R[.Bk] Rd, PR, a, mask: Rd = a with byte k replaced by (P6..P0 & mask);
 * R2P PR, a[.Bk], mask: P_j = bit j of byte k of a, for the bits j < 7 of mask
 */
static void
exec_p2r(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tm[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[1], ta), *m = alu_src(x, &d->src[2], tm);
	Warp *w = x->w;

	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t p = 0;
		for (unsigned j = 0; j < 7; j++)
			p |= ((w->p[j] >> l) & 1) << j;
		r[l] = alu_p2r(p, a[l], m[l], d->aux);
	}
	sim_dst(x, &d->dst[0], r, mask);
}

static void
exec_r2p(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tm[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *m = alu_src(x, &d->src[1], tm);
	uint32_t set[7] = { 0 }, val[7] = { 0 };
	Warp *w = x->w;

	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t v = a[l] >> (8 * d->aux), mk = m[l];
		for (unsigned j = 0; j < 7; j++) {
			set[j] |= ((mk >> j) & 1) << l;
			val[j] |= ((v >> j) & 1) << l;
		}
	}
	for (unsigned j = 0; j < 7; j++) {
		uint32_t wm = set[j] & mask;
		w->p[j] = (w->p[j] & ~wm) | (val[j] & wm);
	}
}

static int
byte_mod(DecodeCtx *c, const Ins *i, uint32_t *byte)
{
	static const char *const names[] = { "B0", "B1", "B2", "B3", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0)
		return -1;
	if (__builtin_popcount(m.bits) > 1)
		return sim_unsupported(c, i);
	*byte = m.bits ? (uint32_t)__builtin_ctz(m.bits) : 0;
	return 0;
}

int
alu_dec_p2r(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (byte_mod(c, i, &d->aux) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc == 2) {                      /* P2R Rd, PR, mask: a = RZ */
		d->src[2] = d->src[1];
		d->src[1] = rz_op;
		d->nsrc = 3;
	}
	if (d->nsrc != 3 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	d->exec = exec_p2r;
	return 0;
}

int
alu_dec_r2p(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (byte_mod(c, i, &d->aux) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 2 || d->src[0].kind == DUR)
		return sim_unsupported(c, i);
	if (d->src[0].sel >= SelB0 && d->src[0].sel <= SelB3)
		d->aux = d->src[0].sel - SelB0;
	d->exec = exec_r2p;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * MOV Rd, a [, bytemask];  MOV32I Rd, imm
 */
static void
exec_mov(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize];
	const uint32_t *a;

	if (mask == ~0u && d->dst[0].kind == DR && d->dst[0].reg != RegRZ) {
		uint32_t *r = sim_vreg(x, &d->dst[0], 0);
		if (d->src[0].kind == DImm) {
			uint32_t v = (uint32_t)d->src[0].imm;
			for (unsigned l = 0; l < WarpSize; l++)
				r[l] = v;
		} else {
			a = sim_src(x, &d->src[0], ta);
			ALU_IVDEP
			for (unsigned l = 0; l < WarpSize; l++)
				r[l] = a[l];
		}
		return;
	}
	a = alu_src(x, &d->src[0], ta);
	sim_dst(x, &d->dst[0], a, mask);
}

static void
exec_mov_bytes(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *old = sim_vreg(x, &d->dst[0], 0);
	uint32_t bm = 0;

	for (unsigned k = 0; k < 4; k++)
		bm |= ((d->aux >> k) & 1) ? 0xffu << (8 * k) : 0;
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (a[l] & bm) | (old[l] & ~bm);
	sim_dst(x, &d->dst[0], r, mask);
}

int
alu_dec_mov(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_mods(c, i, NULL, 0, &(AluMods){0}) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (!is_gpr(&d->dst[0]) || d->nsrc < 1 || d->nsrc > 2 ||
	    (d->src[0].flags & ~(DFReuse | DFVreg)))   /* MOV Rd, V<n>: a FIBER remote read */
		return sim_unsupported(c, i);
	d->exec = exec_mov;
	if (d->nsrc == 2) {
		if (d->src[1].kind != DImm)
			return sim_unsupported(c, i);
		d->aux = (uint32_t)d->src[1].imm & 0xf;
		if (d->aux != 0xf && d->dst[0].reg != RegRZ)
			d->exec = exec_mov_bytes;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * IMAD[.U32] Rd, [Pc,] a, b, c [, Pcin]        d = a*b + c (+ Pcin with .X)
 * IMAD.MOV/.IADD/.SHL: the same with a, b chosen by the compiler
 * IMAD.HI[.U32] Rd, [Pc,] a, b, c(pair)        d = (a*b + c64) >> 32, Pc = carry out of bit 64
 * IMAD.WIDE[.U32] Rd(pair), [Pc,] a, b, c(pair) [, Pcin]   d = a*b + c64 (+ Pcin)
 * IMUL[.HI|.WIDE][.U32] Rd, a, b: c = 0
 */
ALU_BODY(exec_imad)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t xc = inv_of(&d->src[2]), k = d->aux2, pn = d->aux;
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (a[l] * b[l] ^ pn) + (c[l] ^ xc) + k;
	alu_out_done(x, &d->dst[0], r, rt, mask);
}
ALU_VARIANTS(exec_imad)

ALU_BODY(exec_imad_x)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], rt[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t xc = inv_of(&d->src[2]), k = d->aux2, pn = d->aux;
	uint32_t cin = (d->mod & ImX) ? sim_pred(x, &d->src[3]) : 0;
	uint8_t co[WarpSize];
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++) {
		uint64_t s = (uint64_t)(a[l] * b[l] ^ pn) + (c[l] ^ xc) + k + ((cin >> l) & 1);
		r[l] = (uint32_t)s;
		co[l] = (uint8_t)((s >> 32) != 0);
	}
	alu_out_done(x, &d->dst[0], r, rt, mask);
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_lanes(co), mask);
}
ALU_VARIANTS(exec_imad_x)

/* IMAD d, RZ, x, c (IMAD.MOV): d = c with its - or ~ */
ALU_BODY(exec_imad_movc)
{
	uint32_t tc[WarpSize], rt[WarpSize];
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t xc = inv_of(&d->src[2]), k = neg_of(&d->src[2]);
	uint32_t *r = alu_out(x, &d->dst[0], mask, rt);

	ALU_IVDEP
	for (unsigned l = 0; l < WarpSize; l++)
		r[l] = (c[l] ^ xc) + k;
	alu_out_done(x, &d->dst[0], r, rt, mask);
}
ALU_VARIANTS(exec_imad_movc)

/* IMAD.WIDE[.U32] d, a, b, c without carries: a*b + c64 in pairs */
ALU_BODY(exec_imad_wide_plain)
{
	uint32_t ta[WarpSize], tb[WarpSize], lot[WarpSize], hit[WarpSize];
	uint64_t c[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	DOp h = d->dst[0];
	int direct = mask == ~0u && h.kind == DR && h.reg + 1u < RegRZ;
	uint32_t *lo = direct ? sim_vreg(x, &h, 0) : lot;
	uint32_t *hi = direct ? sim_vreg(x, &h, 1) : hit;

	if (d->mod & ImNoC)
		for (unsigned l = 0; l < WarpSize; l++)
			c[l] = 0;
	else
		alu_src64(x, &d->src[2], c);
	if (d->mod & ImU32) {
		ALU_IVDEP
		for (unsigned l = 0; l < WarpSize; l++) {
			uint64_t v = (uint64_t)a[l] * b[l] + c[l];
			lo[l] = (uint32_t)v;
			hi[l] = (uint32_t)(v >> 32);
		}
	} else {
		ALU_IVDEP
		for (unsigned l = 0; l < WarpSize; l++) {
			uint64_t v = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + c[l];
			lo[l] = (uint32_t)v;
			hi[l] = (uint32_t)(v >> 32);
		}
	}
	if (h.reg == RegRZ || direct)
		return;
	sim_dst(x, &h, lo, mask);
	h.reg++;
	sim_dst(x, &h, hi, mask);
}
ALU_VARIANTS(exec_imad_wide_plain)

/* .HI and .WIDE: the 64-bit product plus a 64-bit c */
static void
exec_imad_wide(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], r[WarpSize], cin = 0;
	uint64_t c[WarpSize], v[WarpSize];
	uint8_t co[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	int sgn = !(d->mod & ImU32);
	uint64_t pneg = d->aux ? ~0ull : 0, cinv = 0, cneg = 0;

	if (d->mod & ImNoC) {
		memset(c, 0, sizeof c);
	} else {
		alu_src64(x, &d->src[2], c);
		cinv = (d->src[2].flags & (DFNeg | DFNot)) ? ~0ull : 0;
		cneg = (d->src[2].flags & DFNeg) ? 1 : 0;
	}
	if (d->mod & ImX)
		cin = sim_pred(x, &d->src[3]);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint64_t p = sgn ? (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l])
		                 : (uint64_t)a[l] * b[l];
		uint64_t ps = (p ^ pneg) + (pneg & 1), cv = (c[l] ^ cinv) + cneg;
		uint64_t s = ps + cv, s2 = s + ((cin >> l) & 1);
		v[l] = s2;
		co[l] = (uint8_t)((s < ps) | (s2 < s));
	}
	if (d->mod & ImWide) {
		alu_dst64(x, &d->dst[0], v, mask);
	} else {
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = (uint32_t)(v[l] >> 32);
		sim_dst(x, &d->dst[0], r, mask);
	}
	if (d->ndst > 1)
		sim_dst_pred(x, &d->dst[1], alu_lanes(co), mask);
}

int
alu_dec_imad(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "HI", "WIDE", "X", "MOV", "IADD", "SHL", "S32",
	                                     "LO", NULL };
	AluMods m;
	int nin;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	d->mod = m.bits & (ImU32 | ImHi | ImWide | ImX);
	if ((m.bits & ImHi) && (m.bits & ImWide))
		return sim_unsupported(c, i);
	if ((m.bits & 0x70) && (m.bits & (ImHi | ImWide)))
		return sim_unsupported(c, i);
	nin = i->op == OIMAD || i->op == OUIMAD ? 3 : 2;
	if (d->nsrc != nin + ((m.bits & ImX) ? 1 : 0) || d->ndst < 1 || d->ndst > 2 ||
	    (!is_gpr(&d->dst[0]) && d->dst[0].kind != DUR))
		return sim_unsupported(c, i);
	if (nin == 2) {                          /* IMUL: c = 0 */
		if (m.bits & ImX)
			d->src[3] = d->src[2];
		d->src[2] = rz_op;
		d->nsrc++;
		d->mod |= ImNoC;
	} else if (d->src[2].kind == DR && d->src[2].reg == RegRZ) {
		d->mod |= ImNoC;
	}
	/* a negated a or b negates the product */
	d->aux = ((d->src[0].flags ^ d->src[1].flags) & DFNeg) ? ~0u : 0;
	if ((d->src[0].flags | d->src[1].flags) & DFNot)
		return sim_unsupported(c, i);
	if (m.bits & (ImHi | ImWide)) {
		d->exec = exec_imad_wide;
		if ((m.bits & ImWide) && !(m.bits & ImX) && d->ndst == 1 && d->dst[0].kind == DR &&
		    !d->aux && !(d->src[2].flags & (DFNeg | DFNot)))
			d->exec = ALU_PICK(exec_imad_wide_plain);
		return 0;
	}
	d->aux2 = (d->aux & 1) + neg_of(&d->src[2]);
	d->exec = (d->ndst > 1 || (m.bits & ImX)) ? ALU_PICK(exec_imad_x) : ALU_PICK(exec_imad);
	if (d->ndst == 1 && !(m.bits & ImX) && d->dst[0].kind == DR &&
	    ((d->src[0].kind == DR && d->src[0].reg == RegRZ) ||
	     (d->src[1].kind == DR && d->src[1].reg == RegRZ)))
		d->exec = ALU_PICK(exec_imad_movc);  /* 0 * x + c */
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * IDP.4A.{S8,U8}.{S8,U8} Rd, a, b, c: c + sum a.byte[k] * b.byte[k]
 * IDP.2A.{LO,HI}.{S16,U16}.{S8,U8} Rd, a, b, c: c + a.half[0] * b.byte[j] + a.half[1] *
 * b.byte[j+1], j = 0 (.LO) or 2 (.HI)
 */
enum { Idp2a = 1 << 0, IdpHi = 1 << 1, IdpAs = 1 << 2, IdpBs = 1 << 3 };

static void
exec_idp(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t md = d->mod;

	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t s = c[l];
		if (md & Idp2a) {
			unsigned j = (md & IdpHi) ? 2 : 0;
			for (unsigned k = 0; k < 2; k++) {
				uint32_t ah = (a[l] >> (16 * k)) & 0xffff, bb = (b[l] >> (8 * (j + k))) & 0xff;
				int32_t av = (md & IdpAs) ? (int16_t)ah : (int32_t)ah;
				int32_t bv = (md & IdpBs) ? (int8_t)bb : (int32_t)bb;
				s += (uint32_t)(av * bv);
			}
		} else {
			for (unsigned k = 0; k < 4; k++) {
				uint32_t ab = (a[l] >> (8 * k)) & 0xff, bb = (b[l] >> (8 * k)) & 0xff;
				int32_t av = (md & IdpAs) ? (int8_t)ab : (int32_t)ab;
				int32_t bv = (md & IdpBs) ? (int8_t)bb : (int32_t)bb;
				s += (uint32_t)(av * bv);
			}
		}
		r[l] = s;
	}
	sim_dst(x, &d->dst[0], r, mask);
}

static int
dec_idp(DecodeCtx *c, const Ins *i, DIns *d)
{
	const char *ty[2] = { NULL, NULL };
	int nty = 0, two = i->op == OIDP ? -1 : 0, hi = -1;

	if (alu_split_n(c, i, d, 1) < 0)
		return -1;
	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		if (!strcmp(s, "4A") && two < 0)
			two = 0;
		else if (!strcmp(s, "2A") && two < 0)
			two = 1;
		else if ((!strcmp(s, "LO") || !strcmp(s, "HI")) && hi < 0)
			hi = s[0] == 'H';
		else if (nty < 2 && (!strcmp(s, "S8") || !strcmp(s, "U8") || !strcmp(s, "S16") ||
		         !strcmp(s, "U16")))
			ty[nty++] = s;
		else
			return sim_unsupported(c, i);
	}
	if (two < 0 || nty != 2 || d->nsrc != 3 || !is_gpr(&d->dst[0]) || (two && hi < 0) ||
	    (!two && hi >= 0))
		return sim_unsupported(c, i);
	if ((two && strlen(ty[0]) != 3) || (!two && strlen(ty[0]) != 2) || strlen(ty[1]) != 2)
		return sim_unsupported(c, i);
	d->mod = (two ? Idp2a : 0) | (hi > 0 ? IdpHi : 0) | (ty[0][0] == 'S' ? IdpAs : 0) |
	         (ty[1][0] == 'S' ? IdpBs : 0);
	d->exec = exec_idp;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * VABSDIFF[.U32] Rd, a, b, c: |a - b| + c;
 * VABSDIFF4.U8 Rd, a, b, c: the four byte differences |a.k - b.k|, packed (c unused), or with
 * .ACC their sum plus c
 */
enum { VadU32 = 1 << 0, Vad4 = 1 << 1, VadAcc = 1 << 2, VadS8 = 1 << 3 };

static void
exec_vabsdiff(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t ta[WarpSize], tb[WarpSize], tc[WarpSize], r[WarpSize];
	const uint32_t *a = alu_src(x, &d->src[0], ta), *b = alu_src(x, &d->src[1], tb);
	const uint32_t *c = alu_src(x, &d->src[2], tc);
	uint32_t md = d->mod;

	for (unsigned l = 0; l < WarpSize; l++) {
		if (md & Vad4) {
			uint32_t pk = 0, sum = 0;
			for (unsigned k = 0; k < 4; k++) {
				int32_t x0 = (int32_t)((a[l] >> (8 * k)) & 0xff), y0 = (int32_t)((b[l] >> (8 * k)) & 0xff);
				if (md & VadS8) {
					x0 = (int8_t)x0;
					y0 = (int8_t)y0;
				}
				uint32_t ad = (uint32_t)(x0 > y0 ? x0 - y0 : y0 - x0);
				pk |= (ad & 0xff) << (8 * k);
				sum += ad;
			}
			r[l] = (md & VadAcc) ? sum + c[l] : pk;
		} else if (md & VadU32) {
			r[l] = (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l];
		} else {
			int64_t df = (int64_t)(int32_t)a[l] - (int32_t)b[l];
			r[l] = (uint32_t)(df < 0 ? -df : df) + c[l];
		}
	}
	sim_dst(x, &d->dst[0], r, mask);
}

static int
dec_vabsdiff(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "U32", "U8", "ACC", "S8", "S32", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 1) < 0)
		return -1;
	if (d->nsrc != 3 || !is_gpr(&d->dst[0]))
		return sim_unsupported(c, i);
	d->mod = 0;
	if (i->op == OVABSDIFF4) {
		if (!(m.bits & (2 | 8)) || (m.bits & 1))
			return sim_unsupported(c, i);
		d->mod = Vad4 | ((m.bits & 4) ? VadAcc : 0) | ((m.bits & 8) ? VadS8 : 0);
	} else {
		if (m.bits & ~(1u | 16u))
			return sim_unsupported(c, i);
		d->mod = (m.bits & 1) ? VadU32 : 0;
	}
	d->exec = exec_vabsdiff;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Registration.
 */
static const struct {
	uint16_t op;           /* opcode family */
	DecodeFn dec;          /* its decoder */
} int_rows[] = {
	{ OIADD3, alu_dec_iadd3 },
	{ OIADD32I, alu_dec_iadd3 },
	{ OVIADD, alu_dec_iadd3 },
	{ OLEA, alu_dec_lea },
	{ OISCADD, dec_iscadd },
	{ OISCADD32I, dec_iscadd },
	{ OLOP3, alu_dec_lop3 },
	{ OLOP, alu_dec_lop },
	{ OLOP32I, alu_dec_lop },
	{ OSHF, alu_dec_shf },
	{ OSHL, alu_dec_shl_shr },
	{ OSHR, alu_dec_shl_shr },
	{ OPRMT, alu_dec_prmt },
	{ OSEL, alu_dec_sel },
	{ OIMNMX, dec_imnmx },
	{ OVIMNMX, dec_imnmx },
	{ OVIMNMX3, dec_imnmx },
	{ OVIADDMNMX, dec_imnmx },
	{ OIABS, alu_dec_bits },
	{ OPOPC, alu_dec_bits },
	{ OFLO, alu_dec_bits },
	{ OBREV, alu_dec_bits },
	{ OBMSK, alu_dec_bits },
	{ OSGXT, alu_dec_bits },
	{ OISETP, alu_dec_isetp },
	{ OPLOP3, alu_dec_plop3 },
	{ OPSETP, alu_dec_psetp },
	{ OP2R, alu_dec_p2r },
	{ OR2P, alu_dec_r2p },
	{ OMOV, alu_dec_mov },
	{ OMOV32I, alu_dec_mov },
	{ OIMAD, alu_dec_imad },
	{ OIMUL, alu_dec_imad },
	{ OIMUL32I, alu_dec_imad },
	{ OIDP, dec_idp },
	{ OIDP4A, dec_idp },
	{ OVABSDIFF, dec_vabsdiff },
	{ OVABSDIFF4, dec_vabsdiff },
};

void
sim_register_int(SimTab *t)
{
	for (unsigned k = 0; k < sizeof int_rows / sizeof int_rows[0]; k++)
		t->dec[int_rows[k].op] = int_rows[k].dec;
}
