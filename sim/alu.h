/* alu.h: what the ALU families share (exec_int.c, exec_float.c, exec_half.c, exec_conv.c,
 * exec_uniform.c): decoding helpers (modifier tables, operand splits, exact float literals,
 * compare and boolean modifiers) and the scalar semantics that the vector datapath runs per lane
 * and the uniform datapath runs once. Numerics: fp.h; semantics and sources:
 * docs/sim-numerics.md.
 */
#ifndef FIBER_ALU_H
#define FIBER_ALU_H

#include <string.h>

#include "fp.h"
#include "sim.h"

/* Hot lane loops are compiled twice on x86-64, for AVX2+FMA and for the baseline, and the decoder
 * picks the one the host runs: write the semantics as `ALU_BODY(name) { ... }`, follow it with
 * ALU_VARIANTS(name), and set `d->exec = ALU_PICK(name)`. */
#define ALU_BODY(name) \
	static inline __attribute__((always_inline)) void name##_body(Exec *x, const DIns *d, \
	                                                             uint32_t mask)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ALU_VARIANTS(name) \
	static void name(Exec *x, const DIns *d, uint32_t mask) { name##_body(x, d, mask); } \
	__attribute__((target("avx2,fma"))) static void name##_avx2(Exec *x, const DIns *d, \
	                                                            uint32_t mask) \
	{ \
		name##_body(x, d, mask); \
	}
#define ALU_PICK(name) \
	(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? name##_avx2 : name)
#else
#define ALU_VARIANTS(name) \
	static void name(Exec *x, const DIns *d, uint32_t mask) { name##_body(x, d, mask); }
#define ALU_PICK(name) (name)
#endif

/* before a lane loop whose only dependences are within a lane (a destination row that is also
 * a source row): no run-time alias checks */
#if defined(__GNUC__) && !defined(__clang__)
#define ALU_IVDEP _Pragma("GCC ivdep")
#else
#define ALU_IVDEP
#endif

/* modifiers of one instruction, parsed once at decode time (alu_mods) */
typedef struct AluMods {
	uint32_t bits;         /* names[k] present: bit k */
	int cmp;               /* compare: Cmp*, -1 when absent */
	int bop;               /* boolean combination: Bop*, -1 when absent */
	int rm;                /* rounding: RmRN.., -1 when absent (.TRUNC/.FLOOR/.CEIL too) */
} AluMods;

/* what alu_mods accepts besides the family's names */
enum AluModFlag {
	AmCmp = 1 << 0,        /* .LT .EQ ... .NUM .NAN .LTU ... .T .F */
	AmBop = 1 << 1,        /* .AND .OR .XOR */
	AmRnd = 1 << 2,        /* .RN .RZ .RM .RP */
	AmRound = 1 << 3,      /* .TRUNC .FLOOR .CEIL (as RZ, RM, RP) */
	AmQuiet = 1 << 4,      /* return -1 on an unknown modifier without reporting it */
};

/* Compare codes: bit 0 less, bit 1 equal, bit 2 greater, bit 3 unordered. A compare holds when
 * the bit of the operands' relation is set (the hardware's encoding). */
enum Cmp {
	CmpF, CmpLT, CmpEQ, CmpLE, CmpGT, CmpNE, CmpGE, CmpNUM,
	CmpNAN, CmpLTU, CmpEQU, CmpLEU, CmpGTU, CmpNEU, CmpGEU, CmpT,
};

enum Bop { BopAnd, BopOr, BopXor };

/* relation bits */
enum { RelLT = 1, RelEQ = 2, RelGT = 4, RelUN = 8 };

/* alu.c */
int alu_mods(DecodeCtx *c, const Ins *i, const char *const *names, int flags, AluMods *m);
int alu_split(DecodeCtx *c, const Ins *i, DIns *d, int ngr);
int alu_split_n(DecodeCtx *c, const Ins *i, DIns *d, int ndst);
uint32_t alu_fimm32(const Ins *i, int k);
uint64_t alu_fimm64(const Ins *i, int k);
uint32_t alu_fimm_pair(const Ins *i, int k, int fmt);
int alu_is_fimm(const Ins *i, int k);
void alu_src64(Exec *x, const DOp *o, uint64_t v[WarpSize]);
void alu_dst64(Exec *x, const DOp *o, const uint64_t v[WarpSize], uint32_t mask);
uint32_t alu_uget(Exec *x, const DOp *o);
uint64_t alu_uget64(Exec *x, const DOp *o);
void alu_uset(Exec *x, const DOp *o, uint32_t v);
void alu_uset64(Exec *x, const DOp *o, uint64_t v);

/* exec_int.c: decoders that the uniform datapath shares (it replaces d->exec) */
int alu_dec_iadd3(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_lea(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_lop3(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_lop(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_shf(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_shl_shr(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_prmt(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_sel(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_bits(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_isetp(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_plop3(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_psetp(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_p2r(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_r2p(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_mov(DecodeCtx *c, const Ins *i, DIns *d);
int alu_dec_imad(DecodeCtx *c, const Ins *i, DIns *d);

/* DIns.mod bits that exec_int.c's decoders set and exec_uniform.c reads */
enum { IaddX = 1 << 0, Iadd16x2 = 1 << 1, Iadd64 = 1 << 2 };
enum { LeaHi = 1 << 0, LeaX = 1 << 1, LeaSx32 = 1 << 2 };
enum { BitIabs, BitPopc, BitFlo, BitBrev, BitBmsk, BitSgxt };
enum { BitSigned = 1 << 0, BitSh = 1 << 1, BitWrap = 1 << 2 };
enum { IsetpU32 = 1 << 0, IsetpEx = 1 << 1 };
enum { ImU32 = 1 << 0, ImHi = 1 << 1, ImWide = 1 << 2, ImX = 1 << 3, ImNoC = 1 << 4 };

/* sim_src with immediates broadcast inline (the most frequent non-register source) */
static inline const uint32_t *
alu_src(Exec *x, const DOp *o, uint32_t tmp[WarpSize])
{
	if (o->kind == DImm) {
		uint32_t v = (uint32_t)o->imm;
		for (unsigned l = 0; l < WarpSize; l++)
			tmp[l] = v;
		return tmp;
	}
	return sim_src(x, o, tmp);
}

/* Where a lane-wise result goes: the destination's register row itself when it is an R
 * register and every lane is written, else tmp; alu_out_done then writes tmp through sim_dst.
 * The row may be a source row too: a loop that reads each lane's sources before writing that
 * lane is still exact (no restrict on either; ALU_IVDEP tells the vectorizer so). */
static inline uint32_t *
alu_out(Exec *x, const DOp *o, uint32_t mask, uint32_t tmp[WarpSize])
{
	if (mask == ~0u && o->kind == DR && o->reg != RegRZ)
		return sim_rreg(x, o);
	return tmp;
}

static inline void
alu_out_done(Exec *x, const DOp *o, const uint32_t *r, const uint32_t tmp[WarpSize],
             uint32_t mask)
{
	if (r == tmp)
		sim_dst(x, o, tmp, mask);
}

/* ---------------------------------------------------------------------------------------------
 * Lane masks: loops write one byte (0 or 1) per lane, which vectorizes, and pack them here.
 */
static inline uint32_t
alu_lanes(const uint8_t b[WarpSize])
{
	uint32_t m = 0;

	for (unsigned k = 0; k < 4; k++) {
		uint64_t v;
		memcpy(&v, b + 8 * k, 8);            /* byte j is bit 8j: gather them to the top byte */
		m |= (uint32_t)((v * 0x0102040810204080ull) >> 56) << (8 * k);
	}
	return m;
}

/* the bits of a lane mask as 0/1 words */
static inline void
alu_unlanes(uint32_t m, uint32_t v[WarpSize])
{
	if (m == 0 || m == ~0u) {                /* PT, !PT, or a warp that agrees */
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = m & 1;
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++)
		v[l] = (m >> l) & 1;
}

/* integer compare of code (bit 0 less, 1 equal, 2 greater) on lanes; sflip 0x80000000 makes
 * the unsigned compare a signed one */
static inline uint32_t
alu_icmp(uint32_t a, uint32_t b, uint32_t sflip, unsigned code)
{
	uint32_t x = a ^ sflip, y = b ^ sflip;

	return x == y ? (code >> 1) & 1 : x < y ? code & 1 : (code >> 2) & 1;
}

/* float compare of code (bit 3: unordered) */
static inline uint32_t
alu_fcmp(float a, float b, unsigned code)
{
	uint32_t lt = (uint32_t)(a < b), eq = (uint32_t)(a == b), gt = (uint32_t)(a > b);
	uint32_t un = ~(lt | eq | gt) & 1;

	return (lt & code) | (eq & (code >> 1)) | (gt & (code >> 2)) | (un & (code >> 3));
}

/* ---------------------------------------------------------------------------------------------
 * Scalar semantics.
 */
static inline uint32_t
alu_bop(int bop, uint32_t a, uint32_t b)
{
	return bop == BopAnd ? a & b : bop == BopOr ? a | b : a ^ b;
}

/* relation of two integers */
static inline unsigned
alu_irel(uint32_t a, uint32_t b, int sgn)
{
	if (a == b)
		return RelEQ;
	if (sgn)
		return (int32_t)a < (int32_t)b ? RelLT : RelGT;
	return a < b ? RelLT : RelGT;
}

/* LOP3: bit i of lut is F(a, b, c) for i = a*4 + b*2 + c; mux tree on c, b, a */
static inline uint32_t
alu_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t t0 = -(lut & 1), t1 = -(lut >> 1 & 1), t2 = -(lut >> 2 & 1), t3 = -(lut >> 3 & 1);
	uint32_t t4 = -(lut >> 4 & 1), t5 = -(lut >> 5 & 1), t6 = -(lut >> 6 & 1);
	uint32_t t7 = -(lut >> 7 & 1);
	uint32_t p0 = t0 ^ (c & (t0 ^ t1)), p1 = t2 ^ (c & (t2 ^ t3));
	uint32_t p2 = t4 ^ (c & (t4 ^ t5)), p3 = t6 ^ (c & (t6 ^ t7));
	uint32_t q0 = p0 ^ (b & (p0 ^ p1)), q1 = p2 ^ (b & (p2 ^ p3));

	return q0 ^ (a & (q0 ^ q1));
}

/* the LUT that computes F(~a, b, c) etc. from F's: inv is 4 for a, 2 for b, 1 for c */
static inline uint32_t
alu_lut_inv(uint32_t lut, unsigned inv)
{
	uint32_t r = 0;

	for (unsigned k = 0; k < 8; k++)
		r |= ((lut >> (k ^ inv)) & 1) << k;
	return r;
}

/* PRMT modes */
enum PrmtMode { PrmtIdx, PrmtF4E, PrmtB4E, PrmtRC8, PrmtECL, PrmtECR, PrmtRC16 };

/* PRMT mode modifiers in PrmtMode order ("IDX" is the default, never printed) */
static const char *const alu_prmt_names[] = { "IDX", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16",
                                              NULL };

/* PRMT d, a, sel, b: bytes of {b, a} (a is bytes 0..3) chosen by the selector's nibbles;
 * a nibble's bit 3 replicates the chosen byte's sign. The other modes use sel[1:0]. */
static inline uint32_t
alu_prmt(uint32_t a, uint32_t b, uint32_t sel, int mode)
{
	static const uint16_t tbl[7][4] = {
		[PrmtF4E] = { 0x3210, 0x4321, 0x5432, 0x6543 },
		[PrmtB4E] = { 0x5670, 0x6701, 0x7012, 0x0123 },
		[PrmtRC8] = { 0x0000, 0x1111, 0x2222, 0x3333 },
		[PrmtECL] = { 0x3210, 0x3211, 0x3222, 0x3333 },
		[PrmtECR] = { 0x0000, 0x1110, 0x2210, 0x3210 },
		[PrmtRC16] = { 0x1010, 0x3232, 0x1010, 0x3232 },
	};
	uint64_t x = (uint64_t)b << 32 | a;
	uint32_t r = 0;

	if (mode != PrmtIdx)
		sel = tbl[mode][sel & 3];
	for (unsigned i = 0; i < 4; i++) {
		uint32_t s = (sel >> (4 * i)) & 0xf;
		uint32_t byte = (uint32_t)(x >> (8 * (s & 7))) & 0xff;
		if (s & 8)
			byte = (byte & 0x80) ? 0xff : 0;
		r |= byte << (8 * i);
	}
	return r;
}

/* SHF modes */
enum {
	ShfL = 1 << 0,         /* left (else right) */
	ShfHi = 1 << 1,        /* result is the high word of the 64-bit funnel */
	ShfS = 1 << 2,         /* arithmetic right shift (.S32, .S64) */
	Shf64 = 1 << 3,        /* 64-bit type: shift amount up to 64 (else 32) */
	ShfW = 1 << 4,         /* .W: amount wraps (mod 32 or 64) instead of clamping */
};

/* SHF d, lo, n, hi: funnel shift of {hi, lo} */
static inline uint32_t
alu_shf(uint32_t lo, uint32_t n, uint32_t hi, unsigned mode)
{
	uint64_t v = (uint64_t)hi << 32 | lo, r;
	uint32_t max = (mode & Shf64) ? 64 : 32;

	n = (mode & ShfW) ? n & (max - 1) : n > max ? max : n;
	if (mode & ShfL)
		r = n >= 64 ? 0 : v << n;
	else if (mode & ShfS)
		r = (uint64_t)((int64_t)v >> (n > 63 ? 63 : n));
	else
		r = n >= 64 ? 0 : v >> n;
	return (mode & ShfHi) ? (uint32_t)(r >> 32) : (uint32_t)r;
}

/* FLO: position of the most significant 1 (of the first bit differing from the sign for signed
 * inputs), or the shift that brings it to bit 31 (.SH); 0xffffffff when there is none */
static inline uint32_t
alu_flo(uint32_t a, int sgn, int sh)
{
	if (sgn && (a & 0x80000000u))
		a = ~a;
	if (a == 0)
		return 0xffffffffu;
	return sh ? (uint32_t)__builtin_clz(a) : 31u - (uint32_t)__builtin_clz(a);
}

static inline uint32_t
alu_brev(uint32_t a)
{
	a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
	a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
	a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
	a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
	return (a >> 16) | (a << 16);
}

/* BMSK d, pos, width: width ones from bit pos; .W wraps both to 0..31, else they clamp at 32 */
static inline uint32_t
alu_bmsk(uint32_t pos, uint32_t width, int wrap)
{
	uint64_t m;

	if (wrap) {
		pos &= 31;
		width &= 31;
	} else {
		pos = pos > 32 ? 32 : pos;
		width = width > 32 ? 32 : width;
	}
	m = ((1ull << width) - 1) << pos;
	return (uint32_t)m;
}

/* SGXT d, a, width: sign- (or zero-, .U32) extend the low width bits of a; width 0 gives 0;
 * .W wraps the width to 0..31, else it clamps at 32 */
static inline uint32_t
alu_sgxt(uint32_t a, uint32_t width, int sgn, int wrap)
{
	width = wrap ? width & 31 : width > 32 ? 32 : width;
	if (width == 0)
		return 0;
	if (width == 32)
		return a;
	a &= (1u << width) - 1;
	if (sgn && (a >> (width - 1)) & 1)
		a |= ~0u << width;
	return a;
}

/* IMNMX and friends: min when pmin, else max */
static inline uint32_t
alu_imnmx(uint32_t a, uint32_t b, int sgn, int pmin)
{
	int altb = sgn ? (int32_t)a < (int32_t)b : a < b;

	return (altb == pmin) ? a : b;
}

/* P2R/R2P byte placement: .B1 .B2 .B3 select byte 1..3 */
static inline uint32_t
alu_p2r(uint32_t preds, uint32_t a, uint32_t mask, unsigned byte)
{
	uint32_t m = (mask & 0xff) << (8 * byte);

	return (a & ~m) | ((preds << (8 * byte)) & m);
}

/* ---------------------------------------------------------------------------------------------
 * Float helpers.
 */

/* a float operand's sign modifiers as an and-mask and an xor-mask on its bits */
static inline void
alu_fsign(const DOp *o, uint32_t *and, uint32_t *xor)
{
	*and = (o->flags & DFAbs) ? 0x7fffffffu : ~0u;
	*xor = (o->flags & DFNeg) ? 0x80000000u : 0;
}

static inline void
alu_dsign(const DOp *o, uint64_t *and, uint64_t *xor)
{
	*and = (o->flags & DFAbs) ? 0x7fffffffffffffffull : ~0ull;
	*xor = (o->flags & DFNeg) ? 0x8000000000000000ull : 0;
}

/* relation of two doubles (floats convert exactly) */
static inline unsigned
alu_frel(double a, double b)
{
	return a < b ? RelLT : a == b ? RelEQ : a > b ? RelGT : RelUN;
}

/* min/max with the hardware's NaN rule (a NaN operand yields the other one, two NaNs the
 * canonical NaN) and -0 < +0; on bits of binary32; branch-free */
static inline uint32_t
alu_fmnmx(uint32_t a, uint32_t b, int pmin)
{
	float fa = f32_of(a), fb = f32_of(b);
	uint32_t an = -(uint32_t)(fa != fa), bn = -(uint32_t)(fb != fb);
	uint32_t eq = -(uint32_t)(fa == fb), lt = -(uint32_t)(fa < fb);
	uint32_t pick = pmin ? lt : ~lt;         /* take a (for max: unless a < b) */
	uint32_t r = (a & pick) | (b & ~pick);

	r = (r & ~eq) | ((pmin ? a | b : a & b) & eq);  /* +0 and -0 (equal values: same bits) */
	r = (r & ~bn) | (a & bn);
	r = (r & ~an) | (((bn & F32_CNAN) | (~bn & b)) & an);
	return r;
}

static inline uint64_t
alu_dmnmx(uint64_t a, uint64_t b, int pmin)
{
	double fa = f64_of(a), fb = f64_of(b);

	if (f64_isnan(a))
		return f64_isnan(b) ? F64_CNAN : b;
	if (f64_isnan(b))
		return a;
	if (fa == fb) {
		uint64_t s = 0x8000000000000000ull;
		return pmin ? (a & ~s) | ((a | b) & s) : (a & ~s) | (a & b & s);
	}
	return ((fa < fb) == pmin) ? a : b;
}

#endif /* FIBER_ALU_H */
