/* check_simalu.c: unit tests of the simulator's arithmetic (sim/exec_int.c, exec_float.c,
 * exec_half.c, exec_conv.c, exec_uniform.c, fp.c): one instruction read from SASS text by the
 * real front end, decoded by sim_decode, run on a hand-built warp. Expectations are computed by
 * hand from the rule each row names (docs/sim-numerics.md): carries, negative zero, NaN,
 * subnormals with and without .FTZ, shifts by 0/31/32/33/64, PRMT sign modes, LOP3 truth tables,
 * 64-bit compares, saturation, rounding ties, pack order.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ir.h"
#include "sim.h"
#include "fp.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);

/* one decoded instruction and a warp to run it on */
typedef struct Alu {
	Irt *t;                /* the parsed listing */
	Prog *p;               /* its decoded form */
	uint32_t (*rf)[WarpSize]; /* register file */
	Sm sm;                 /* SM holding rf */
	Warp w;                /* the warp */
	Exec x;                /* execution context */
	SimFault fault;        /* unused by the ALU */
	uint8_t cb[1024];      /* constant bank 0 */
} Alu;

static Alu *
alu_new(const char *ins)
{
	char text[512];
	Alu *a = calloc(1, sizeof *a);

	snprintf(text, sizeof text, "        /*0000*/                   %s ;\n"
	         "        /*0010*/                   EXIT ;\n", ins);
	a->t = irt_new(text);
	a->p = sim_decode(irt_fn(a->t), 80, irt_diag(a->t));
	ck_assert_msg(a->p != NULL, "decode of '%s' failed:\n%s", ins, irt_errors(a->t));
	a->rf = calloc(SmVRegs, sizeof *a->rf);
	a->sm.rf = a->rf;
	a->sm.rf_used = 256;
	a->w.nreg = 255;
	a->w.present = ~0u;
	a->w.p[7] = ~0u;
	a->w.up[7] = 1;
	a->x.sm = &a->sm;
	a->x.w = &a->w;
	a->x.prog = a->p;
	a->x.fault = &a->fault;
	a->x.cbank[0] = a->cb;
	a->x.cbank_size[0] = sizeof a->cb;
	a->x.active = ~0u;
	return a;
}

static void
alu_free(Alu *a)
{
	prog_free(a->p);
	irt_free(a->t);
	free(a->rf);
	free(a);
}

static void
alu_run(Alu *a, uint32_t mask)
{
	const DIns *d = &a->p->ins[0];

	a->x.active = mask;
	d->exec(&a->x, d, mask);
}

/* every lane of R(r) and UR(r) */
static void
set_r(Alu *a, unsigned r, uint32_t v)
{
	for (unsigned l = 0; l < WarpSize; l++)
		a->rf[r][l] = v;
	a->w.ur[r] = v;
}

static void
set_p(Alu *a, uint32_t bits)
{
	for (unsigned j = 0; j < 7; j++) {
		a->w.p[j] = (bits >> j) & 1 ? ~0u : 0;
		a->w.up[j] = (bits >> j) & 1;
	}
}

/* ---------------------------------------------------------------------------------------------
 * Table-driven cases: R2..R9 (and UR2..UR9) hold in[], P0..P6 (and UP0..UP6) hold pin; after
 * the instruction R0, R1 (UR0, UR1 for U* opcodes) must hold out[] and the predicates pout on
 * the bits of pmask. Every lane runs with the same values.
 */
typedef struct Case {
	const char *ins;       /* one instruction */
	uint32_t in[8];        /* R2..R9 */
	uint32_t pin;          /* P0..P6 */
	uint32_t out[2];       /* R0, R1 */
	uint32_t pout;         /* P0..P6 after */
	uint32_t pmask;        /* which of pout to check; out[1] checked when bit 31 set */
} Case;

enum { ChkR1 = 1u << 31 };

#define F(x) 0x##x##u

static void
run_case(const Case *c, int idx)
{
	Alu *a = alu_new(c->ins);
	int uni = c->ins[0] == 'U';
	uint32_t r0, r1, p = 0;

	set_r(a, 0, 0xdeadbeef);
	set_r(a, 1, 0xdeadbeef);
	for (unsigned k = 0; k < 8; k++)
		set_r(a, 2 + k, c->in[k]);
	set_p(a, c->pin);
	alu_run(a, ~0u);
	r0 = uni ? a->w.ur[0] : a->rf[0][0];
	r1 = uni ? a->w.ur[1] : a->rf[1][0];
	for (unsigned j = 0; j < 7; j++)
		p |= (uni ? a->w.up[j] & 1u : a->w.p[j] & 1u) << j;
	ck_assert_msg(r0 == c->out[0], "row %d '%s': R0 = 0x%08x, want 0x%08x", idx, c->ins, r0,
	              c->out[0]);
	if (c->pmask & ChkR1)
		ck_assert_msg(r1 == c->out[1], "row %d '%s': R1 = 0x%08x, want 0x%08x", idx, c->ins,
		              r1, c->out[1]);
	ck_assert_msg((p & c->pmask & 0x7f) == (c->pout & c->pmask & 0x7f),
	              "row %d '%s': P = 0x%02x, want 0x%02x (mask 0x%02x)", idx, c->ins, p,
	              c->pout, c->pmask & 0x7f);
	if (!uni)
		for (unsigned l = 1; l < WarpSize; l++)
			ck_assert_uint_eq(a->rf[0][l], r0);
	alu_free(a);
}

/* predicate results only: out[0] is not checked (R0 keeps 0xdeadbeef) */
#define NOR0 F(deadbeef)

static const Case int_cases[] = {
	/* IADD3: three inputs, staged carries P0 (a + b) and P1 (+ c) */
	{ "IADD3 R0, R2, R3, R4", { 1, 2, 3 }, 0, { 6 }, 0, 0 },
	{ "IADD3 R0, P0, P1, R2, R3, R4", { F(ffffffff), 1, F(ffffffff) }, 0, { F(ffffffff) }, 1, 3 },
	{ "IADD3 R0, P0, P1, R2, R3, R4", { F(ffffffff), F(ffffffff), F(ffffffff) }, 0,
	  { F(fffffffd) }, 3, 3 },
	{ "IADD3 R0, P0, R2, -R3, RZ", { 5, 3 }, 0, { 2 }, 1, 1 },
	{ "IADD3 R0, P0, R2, -R3, RZ", { 3, 5 }, 1, { F(fffffffe) }, 0, 1 },
	{ "IADD3 R0, P0, R2, -R3, RZ", { 3, 0 }, 0, { 3 }, 1, 1 },        /* -0: no borrow */
	{ "IADD3.X R0, R2, ~R3, RZ, P0, !PT", { 7, 2 }, 1, { 5 }, 0, 0 },
	{ "IADD3.X R0, R2, ~R3, RZ, P0, !PT", { 7, 2 }, 0, { 4 }, 0, 0 },
	{ "IADD3.X R0, P1, R2, R3, R4, P0, P2", { F(ffffffff), 0, 0 }, 5, { 1 }, 2, 2 },
	{ "IADD3.X R0, RZ, RZ, RZ, P0, P1", { 0 }, 3, { 2 }, 0, 0 },
	{ "IADD3 R0, -R2, -0x2, -R3", { 5, 7 }, 0, { F(fffffff2) }, 0, 0 },
	{ "IADD3 R0, R2, -0x80000000, RZ", { 1 }, 0, { F(80000001) }, 0, 0 },
	{ "VIADD R0, R2, 0x1", { F(ffffffff) }, 0, { 0 }, 0, 0 },
	{ "VIADD R0, R2, -R3", { 10, 3 }, 0, { 7 }, 0, 0 },
	{ "VIADD.16x2 R0, R2, -R3", { F(00050003), F(00010004) }, 0, { F(0004ffff) }, 0, 0 },
	/* LEA: (a << s) + b with carry; LEA.HI: b + ({c, a} << s).hi */
	{ "LEA R0, P0, R2, R3, 0x2", { F(40000001), 0x10 }, 1, { 0x14 }, 0, 1 },
	{ "LEA R0, P0, R2, R3, 0x2", { F(3fffffff), 8 }, 0, { 4 }, 1, 1 },
	{ "LEA.HI.X R0, R2, R3, R4, 0x2, P0", { F(c0000000), 0x100, 1 }, 1, { 0x108 }, 0, 0 },
	{ "LEA.HI R0, R2, 0xffffffca, RZ, 0xc", { F(40000000) }, 0, { 0x3ca }, 0, 0 },
	{ "LEA.HI.X.SX32 R0, R2, R3, 0x1, P0", { F(80000000), 0x10 }, 0, { 0xf }, 0, 0 },
	{ "LEA.HI.SX32 R0, R2, R3, 0x1e", { F(fffffff8), 100 }, 0, { 98 }, 0, 0 },
	/* LOP3 truth tables: bit i of the LUT is F(a, b, c), i = 4a + 2b + c */
	{ "LOP3.LUT R0, R2, R3, R4, 0x96, !PT", { F(ff00ff00), F(0ff00ff0), F(00ff00ff) }, 0,
	  { F(f00ff00f) }, 0, 0 },
	{ "LOP3.LUT R0, R2, R3, R4, 0xe8, !PT", { F(ff00ff00), F(0ff00ff0), F(00ff00ff) }, 0,
	  { F(0ff00ff0) }, 0, 0 },
	{ "LOP3.LUT R0, R2, R3, R4, 0xb8, !PT", { F(12345678), F(ffff0000), F(abcdef01) }, 0,
	  { F(abcd5678) }, 0, 0 },
	{ "LOP3.LUT R0, R2, R3, R4, 0x1, !PT", { 0xf0, 0x0c, 0x03 }, 0, { F(ffffff00) }, 0, 0 },
	{ "LOP3.LUT R0, R2, R3, R4, 0x80, !PT", { F(ff00ff00), F(0ff00ff0), F(ffffffff) }, 0,
	  { F(0f000f00) }, 0, 0 },
	{ "LOP3.LUT R0, R2, R3, R4, 0xfe, !PT", { 1, 2, 4 }, 0, { 7 }, 0, 0 },
	{ "LOP3.LUT R0, RZ, R2, RZ, 0x33, !PT", { F(12345678) }, 0, { F(edcba987) }, 0, 0 },
	{ "LOP3.LUT R0, R2, 0x7f800000, RZ, 0x3c, !PT", { F(3f800000) }, 0, { F(40000000) }, 0, 0 },
	{ "LOP3.LUT P0, R0, R2, 0x1f, RZ, 0xc0, !PT", { 0x20 }, 1, { 0 }, 0, 1 },
	{ "LOP3.LUT P0, R0, R2, 0x1f, RZ, 0xc0, !PT", { 0x21 }, 0, { 1 }, 1, 1 },
	{ "LOP3.LUT P0, RZ, R2, 0x7fffffff, RZ, 0xc0, !PT", { F(80000000) }, 1, { NOR0 }, 0, 1 },
	{ "LOP3.LUT R0, ~R2, R3, RZ, 0xc0, !PT", { F(0000ffff), F(00ff00ff) }, 0, { F(00ff0000) }, 0,
	  0 },
	/* SHF: funnel shifts; amounts clamp at 32 (.U32/.S32) or 64 (.U64/.S64), wrap with .W */
	{ "SHF.L.U32 R0, R2, 0x1f, RZ", { 3 }, 0, { F(80000000) }, 0, 0 },
	{ "SHF.L.U32 R0, R2, R3, RZ", { 3, 32 }, 0, { 0 }, 0, 0 },
	{ "SHF.L.U32 R0, R2, R3, RZ", { 3, 33 }, 0, { 0 }, 0, 0 },
	{ "SHF.L.U32 R0, R2, R3, RZ", { 3, 0 }, 0, { 3 }, 0, 0 },
	{ "SHF.R.U32.HI R0, RZ, R3, R2", { F(80000000), 31 }, 0, { 1 }, 0, 0 },
	{ "SHF.R.U32.HI R0, RZ, R3, R2", { F(80000000), 32 }, 0, { 0 }, 0, 0 },
	{ "SHF.R.U32.HI R0, RZ, R3, R2", { F(80000000), 0 }, 0, { F(80000000) }, 0, 0 },
	{ "SHF.R.S32.HI R0, RZ, 0x1f, R2", { F(80000000) }, 0, { F(ffffffff) }, 0, 0 },
	{ "SHF.R.S32.HI R0, RZ, 0x1f, R2", { 5 }, 0, { 0 }, 0, 0 },
	{ "SHF.R.S32.HI R0, RZ, R3, R2", { F(80000000), 40 }, 0, { F(ffffffff) }, 0, 0 },
	{ "SHF.L.U64.HI R0, R2, R3, R4", { F(80000001), 1, 1 }, 0, { 3 }, 0, 0 },
	{ "SHF.L.U64.HI R0, R2, R3, R4", { F(80000001), 32, 1 }, 0, { F(80000001) }, 0, 0 },
	{ "SHF.L.U64.HI R0, R2, R3, R4", { F(80000001), 33, 1 }, 0, { 2 }, 0, 0 },
	{ "SHF.L.U64.HI R0, R2, R3, R4", { F(80000001), 64, 1 }, 0, { 0 }, 0, 0 },
	{ "SHF.L.U64.HI R0, R2, R3, R4", { F(80000001), 0, 1 }, 0, { 1 }, 0, 0 },
	{ "SHF.R.U64 R0, R2, R3, R4", { 0, 1, 1 }, 0, { F(80000000) }, 0, 0 },
	{ "SHF.R.U64 R0, R2, R3, R4", { 0, 32, 1 }, 0, { 1 }, 0, 0 },
	{ "SHF.R.U64 R0, R2, R3, R4", { 0, 63, F(80000000) }, 0, { 1 }, 0, 0 },
	{ "SHF.R.U64 R0, R2, R3, R4", { 0, 64, F(80000000) }, 0, { 0 }, 0, 0 },
	{ "SHF.R.S64 R0, R2, R3, R4", { 0, 63, F(80000000) }, 0, { F(ffffffff) }, 0, 0 },
	{ "SHF.R.S64 R0, R2, R3, R4", { 0, 36, F(80000000) }, 0, { F(f8000000) }, 0, 0 },
	{ "SHF.L.W.U32.HI R0, R2, R3, R2", { F(80000001), 33 }, 0, { 3 }, 0, 0 },
	/* PRMT: bytes of {b, a}; nibble bit 3 replicates the byte's sign */
	{ "PRMT R0, R2, 0x5410, R3", { F(11223344), F(55667788) }, 0, { F(77883344) }, 0, 0 },
	{ "PRMT R0, R2, 0x7632, R3", { F(11223344), F(55667788) }, 0, { F(55661122) }, 0, 0 },
	{ "PRMT R0, R2, 0x8880, RZ", { 0xf0 }, 0, { F(fffffff0) }, 0, 0 },
	{ "PRMT R0, R2, 0x8880, RZ", { 0x70 }, 0, { 0x70 }, 0, 0 },
	{ "PRMT R0, R2, 0x9910, RZ", { F(00008001) }, 0, { F(ffff8001) }, 0, 0 },
	{ "PRMT R0, R2, 0xba98, RZ", { F(80007f80) }, 0, { F(ff0000ff) }, 0, 0 },
	{ "PRMT R0, R2, 0x7710, RZ", { F(12348765) }, 0, { F(00008765) }, 0, 0 },
	{ "PRMT R0, R2, R4, R3", { F(11223344), F(55667788), 0x4567 }, 0, { F(88776655) }, 0, 0 },
	{ "PRMT.F4E R0, R2, R4, R3", { F(11223344), F(55667788), 1 }, 0, { F(88112233) }, 0, 0 },
	{ "PRMT.B4E R0, R2, R4, R3", { F(11223344), F(55667788), 1 }, 0, { F(66554433) }, 0, 0 },
	{ "PRMT.RC8 R0, R2, R4, R3", { F(11223344), F(55667788), 2 }, 0, { F(22222222) }, 0, 0 },
	{ "PRMT.ECL R0, R2, R4, R3", { F(11223344), F(55667788), 1 }, 0, { F(11223333) }, 0, 0 },
	{ "PRMT.ECR R0, R2, R4, R3", { F(11223344), F(55667788), 2 }, 0, { F(22223344) }, 0, 0 },
	{ "PRMT.RC16 R0, R2, R4, R3", { F(11223344), F(55667788), 1 }, 0, { F(11221122) }, 0, 0 },
	/* SEL, min/max */
	{ "SEL R0, R2, R3, P0", { 1, 2 }, 1, { 1 }, 0, 0 },
	{ "SEL R0, R2, R3, !P0", { 1, 2 }, 1, { 2 }, 0, 0 },
	{ "SEL R0, RZ, 0x1, !P0", { 0 }, 0, { 0 }, 0, 0 },
	{ "IMNMX R0, R2, R3, PT", { F(ffffffff), 1 }, 0, { F(ffffffff) }, 0, 0 },
	{ "IMNMX.U32 R0, R2, R3, PT", { F(ffffffff), 1 }, 0, { 1 }, 0, 0 },
	{ "IMNMX R0, R2, R3, !PT", { F(ffffffff), 1 }, 0, { 1 }, 0, 0 },
	{ "IMNMX R0, R2, R3, P0", { 4, 9 }, 0, { 9 }, 0, 0 },
	{ "VIMNMX.RELU R0, R2, R3, !PT", { F(fffffffb), F(fffffffd) }, 0, { 0 }, 0, 0 },
	{ "VIMNMX3 R0, R2, R3, R4, !PT", { 1, 7, 3 }, 0, { 7 }, 0, 0 },
	{ "VIMNMX3 R0, R2, R3, R4, PT", { 1, 7, F(fffffff0) }, 0, { F(fffffff0) }, 0, 0 },
	{ "VIADDMNMX.U32 R0, R2, 0xfffffffe, R3, PT", { 5, 2 }, 0, { 2 }, 0, 0 },
	{ "VIADDMNMX.U32 R0, R2, 0xfffffffe, R3, PT", { 3, 5 }, 0, { 1 }, 0, 0 },
	{ "VIADDMNMX R0, R2, -R3, R4, !PT", { 3, 5, F(fffffff0) }, 0, { F(fffffffe) }, 0, 0 },
	{ "VIMNMX.S16x2 R0, R2, R3, PT", { F(80000005), F(00010003) }, 0, { F(80000003) }, 0, 0 },
	{ "VIMNMX.U16x2 R0, R2, R3, !PT", { F(80000005), F(00010003) }, 0, { F(80000005) }, 0, 0 },
	/* one-source bit operations */
	{ "IABS R0, R2", { F(fffffffb) }, 0, { 5 }, 0, 0 },
	{ "IABS R0, R2", { F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "POPC R0, R2", { 0xf0f0 }, 0, { 8 }, 0, 0 },
	{ "POPC R0, ~R2", { 0xf0f0 }, 0, { 24 }, 0, 0 },
	{ "FLO.U32 R0, R2", { 0x10000 }, 0, { 16 }, 0, 0 },
	{ "FLO.U32 R0, R2", { 0 }, 0, { F(ffffffff) }, 0, 0 },
	{ "FLO.U32.SH R0, R2", { 0x10000 }, 0, { 15 }, 0, 0 },
	{ "FLO.U32.SH R0, R2", { 0 }, 0, { F(ffffffff) }, 0, 0 },
	{ "FLO.S32 R0, R2", { F(ffffffff) }, 0, { F(ffffffff) }, 0, 0 },
	{ "FLO.S32 R0, R2", { F(fffffff0) }, 0, { 3 }, 0, 0 },
	{ "FLO.S32 R0, R2", { 0x40 }, 0, { 6 }, 0, 0 },
	{ "BREV R0, R2", { 1 }, 0, { F(80000000) }, 0, 0 },
	{ "BREV R0, R2", { F(12345678) }, 0, { F(1e6a2c48) }, 0, 0 },
	{ "BMSK R0, R2, R3", { 4, 8 }, 0, { 0xff0 }, 0, 0 },
	{ "BMSK R0, R2, R3", { 28, 8 }, 0, { F(f0000000) }, 0, 0 },
	{ "BMSK R0, R2, R3", { 0, 32 }, 0, { F(ffffffff) }, 0, 0 },
	{ "BMSK R0, R2, R3", { 32, 8 }, 0, { 0 }, 0, 0 },
	{ "BMSK.W R0, R2, R3", { 36, 40 }, 0, { 0xff0 }, 0, 0 },
	{ "BMSK.W R0, R2, R3", { 0, 32 }, 0, { 0 }, 0, 0 },
	{ "SGXT R0, R2, R3", { 0x80, 8 }, 0, { F(ffffff80) }, 0, 0 },
	{ "SGXT R0, R2, R3", { 0x80, 0 }, 0, { 0 }, 0, 0 },
	{ "SGXT R0, R2, R3", { 0x80, 40 }, 0, { 0x80 }, 0, 0 },
	{ "SGXT.U32 R0, R2, R3", { 0xff, 4 }, 0, { 0xf }, 0, 0 },
	{ "SGXT.W.U32 R0, R2, R3", { 0xff, 36 }, 0, { 0xf }, 0, 0 },
	/* ISETP: P0 = r bop Pc, P1 = !r bop Pc; .EX: high words, Pex decides on equality */
	{ "ISETP.LT.AND P0, PT, R2, R3, PT", { F(ffffffff), 1 }, 0, { NOR0 }, 1, 1 },
	{ "ISETP.LT.U32.AND P0, PT, R2, R3, PT", { F(ffffffff), 1 }, 1, { NOR0 }, 0, 1 },
	{ "ISETP.GE.AND P0, P1, R2, R3, PT", { 3, 3 }, 2, { NOR0 }, 1, 3 },
	{ "ISETP.GT.AND P0, P1, R2, R3, PT", { 3, 3 }, 1, { NOR0 }, 2, 3 },
	{ "ISETP.NE.OR P0, PT, R2, R3, P1", { 3, 3 }, 2, { NOR0 }, 3, 3 },
	{ "ISETP.NE.AND P0, PT, R2, R3, !P1", { 3, 4 }, 2, { NOR0 }, 2, 3 },
	{ "ISETP.EQ.XOR P0, P1, R2, R3, P2", { 3, 3 }, 4, { NOR0 }, 6, 7 },
	{ "ISETP.LE.AND P0, PT, R2, 0x7, PT", { 7 }, 0, { NOR0 }, 1, 1 },
	{ "ISETP.GT.AND.EX P0, PT, R2, R3, PT, P1", { 1, 0 }, 0, { NOR0 }, 1, 1 },
	{ "ISETP.GT.AND.EX P0, PT, R2, R3, PT, P1", { 1, 1 }, 2, { NOR0 }, 3, 1 },
	{ "ISETP.GT.AND.EX P0, PT, R2, R3, PT, P1", { 1, 1 }, 0, { NOR0 }, 0, 1 },
	{ "ISETP.GT.AND.EX P0, PT, R2, R3, PT, P1", { F(ffffffff), 0 }, 2, { NOR0 }, 2, 1 },
	{ "ISETP.GT.U32.AND.EX P0, PT, R2, R3, PT, P1", { F(ffffffff), 0 }, 0, { NOR0 }, 1, 1 },
	{ "ISETP.EQ.U32.AND.EX P0, PT, R2, RZ, PT, P0", { 0 }, 1, { NOR0 }, 1, 1 },
	{ "ISETP.EQ.U32.AND.EX P0, PT, R2, RZ, PT, P0", { 1 }, 1, { NOR0 }, 0, 1 },
	{ "ISETP.NE.AND.EX P0, PT, R2, R3, PT, P1", { 5, 5 }, 2, { NOR0 }, 3, 1 },
	{ "ISETP.GE.U32.AND.EX P0, PT, R2, R3, PT, P1", { 5, 5 }, 0, { NOR0 }, 0, 1 },
	/* PLOP3 */
	{ "PLOP3.LUT P0, P1, P2, P3, P4, 0x80, 0x1", { 0 }, 0x1c, { NOR0 }, 1 | 0x1c, 3 },
	{ "PLOP3.LUT P0, P1, P2, P3, P4, 0x80, 0x1", { 0 }, 0, { NOR0 }, 2, 3 },
	{ "PLOP3.LUT P0, PT, P1, P2, PT, 0xa8, 0x0", { 0 }, 4, { NOR0 }, 5, 1 },
	{ "PLOP3.LUT P0, PT, P1, P2, PT, 0xa8, 0x0", { 0 }, 1, { NOR0 }, 0, 1 },
	{ "PLOP3.LUT P0, PT, P1, P2, !PT, 0xa8, 0x0", { 0 }, 6, { NOR0 }, 6, 1 },
	/* predicates to and from registers */
	{ "R2P PR, R2, 0x3", { 2 }, 0x7c, { NOR0 }, 0x7e, 0x7f },
	{ "R2P PR, R2.B1, 0x5", { 0x100 }, 0x7f, { NOR0 }, 0x7b, 0x7f },
	{ "P2R R0, PR, R2, 0x7f", { F(ffffff00) }, 0x45, { F(ffffff45) }, 0, 0 },
	{ "P2R.B1 R0, PR, R2, 0x3", { F(12345678) }, 0x45, { F(12345578) }, 0, 0 },
	/* moves */
	{ "MOV R0, R2", { 42 }, 0, { 42 }, 0, 0 },
	{ "MOV R0, 0x12345678", { 0 }, 0, { F(12345678) }, 0, 0 },
	{ "MOV32I R0, 0xfffffff0", { 0 }, 0, { F(fffffff0) }, 0, 0 },
	/* IMAD */
	{ "IMAD R0, R2, R3, R4", { 3, 5, 7 }, 0, { 22 }, 0, 0 },
	{ "IMAD R0, R2, -R3, R4", { 3, 5, 7 }, 0, { F(fffffff8) }, 0, 0 },
	{ "IMAD.WIDE R0, R2, R3, R4", { F(fffffffe), 3, 10, 0 }, 0, { 4, 0 }, 0, ChkR1 },
	{ "IMAD.WIDE R0, R2, R3, R4", { F(fffffffe), 3, 0, 0 }, 0, { F(fffffffa), F(ffffffff) }, 0,
	  ChkR1 },
	{ "IMAD.WIDE R0, R2, 0x4, R4", { F(ffffffff), 0, 0x1000, 0x7 }, 0, { F(00000ffc), 7 }, 0,
	  ChkR1 },
	{ "IMAD.WIDE.U32 R0, R2, R3, R4", { F(fffffffe), 3, 0, 0 }, 0, { F(fffffffa), 2 }, 0, ChkR1 },
	{ "IMAD.WIDE.U32 R0, P0, R2, R3, R4", { F(ffffffff), F(ffffffff), F(ffffffff), 1 }, 0,
	  { 0, 0 }, 1, ChkR1 | 1 },
	{ "IMAD.WIDE.U32.X R0, R2, R3, R4, P0", { 2, 3, F(ffffffff), 1 }, 1, { 6, 2 }, 0, ChkR1 },
	{ "IMAD.HI.U32 R0, R2, R3, RZ", { F(ffffffff), F(ffffffff) }, 0, { F(fffffffe) }, 0, 0 },
	{ "IMAD.HI R0, R2, R3, RZ", { F(ffffffff), F(ffffffff) }, 0, { 0 }, 0, 0 },
	{ "IMAD.HI R0, R2, R3, RZ", { F(80000000), 2 }, 0, { F(ffffffff) }, 0, 0 },
	{ "IMAD.HI R0, R2, 0x55555556, RZ", { 9 }, 0, { 3 }, 0, 0 },
	{ "IMAD.HI.U32 R0, P0, R2, R3, R4", { F(ffffffff), F(ffffffff), F(ffffffff), 0 }, 1,
	  { F(ffffffff) }, 0, 1 },
	{ "IMAD.HI.U32 R0, P0, R2, R3, R4", { F(ffffffff), F(ffffffff), 0, 2 }, 0, { 0 }, 1, 1 },
	{ "IMAD.X R0, RZ, RZ, R2, P0", { 5 }, 1, { 6 }, 0, 0 },
	{ "IMAD.X R0, RZ, RZ, ~R2, P0", { 5 }, 0, { F(fffffffa) }, 0, 0 },
	{ "IMAD.X R0, R2, 0x1, R3, P0", { F(ffffffff), 0 }, 1, { 0 }, 0, 0 },
	{ "IMAD.MOV.U32 R0, RZ, RZ, -R2", { 5 }, 0, { F(fffffffb) }, 0, 0 },
	{ "IMAD.MOV R0, RZ, RZ, R2", { 5 }, 0, { 5 }, 0, 0 },
	{ "IMAD.IADD R0, R2, 0x1, -R3", { 10, 3 }, 0, { 7 }, 0, 0 },
	{ "IMAD.SHL.U32 R0, R2, 0x10, RZ", { 3 }, 0, { 48 }, 0, 0 },
	{ "IMAD.U32 R0, R2, 0x10000, RZ", { 0x3c00 }, 0, { F(3c000000) }, 0, 0 },
	/* dot products, absolute differences */
	{ "IDP.4A.S8.S8 R0, R2, R3, R4", { F(fc03fe01), F(08f90605), 100 }, 0, { 40 }, 0, 0 },
	{ "IDP.4A.U8.U8 R0, R2, R3, R4", { F(fc03fe01), F(08f90605), 100 }, 0, { 4392 }, 0, 0 },
	{ "IDP.2A.LO.S16.S8 R0, R2, R3, R4", { F(fffe0003), F(0402f905), 1 }, 0, { 30 }, 0, 0 },
	{ "IDP.2A.HI.U16.U8 R0, R2, R3, R4", { F(fffe0003), F(0402f905), 1 }, 0, { F(3ffff) }, 0, 0 },
	{ "VABSDIFF R0, R2, R3, R4", { F(fffffffb), 7, 3 }, 0, { 15 }, 0, 0 },
	{ "VABSDIFF.U32 R0, R2, R3, 0x3", { 5, 7 }, 0, { 5 }, 0, 0 },
	{ "VABSDIFF4.U8 R0, R2, R3, RZ", { F(10203040), F(20105030) }, 0, { F(10102010) }, 0, 0 },
	{ "VABSDIFF4.U8.ACC R0, R2, R3, R4", { F(10203040), F(20105030), 5 }, 0, { 0x55 }, 0, 0 },
};

static const Case uni_cases[] = {
	{ "UIADD3 UR0, UP0, UP1, UR2, UR3, UR4", { F(ffffffff), 1, F(ffffffff) }, 0, { F(ffffffff) },
	  1, 3 },
	{ "UIADD3 UR0, UR2, UR3, URZ", { 40, 2 }, 0, { 42 }, 0, 0 },
	{ "UIADD3 UR0, -UR2, 0x10, URZ", { 4 }, 0, { 12 }, 0, 0 },
	{ "UIADD3.X UR0, UR2, UR3, URZ, UP0, !UPT", { 1, 2 }, 1, { 4 }, 0, 0 },
	{ "UIADD3.64 UR0, UR2, 0x1000, URZ", { F(fffff000), 1 }, 0, { 0, 2 }, 0, ChkR1 },
	{ "UIMAD UR0, UR2, UR3, UR4", { 3, 5, 7 }, 0, { 22 }, 0, 0 },
	{ "UIMAD.WIDE.U32 UR0, UR2, UR3, UR4", { F(fffffffe), 3, 0, 0 }, 0, { F(fffffffa), 2 }, 0,
	  ChkR1 },
	{ "UIMAD.WIDE UR0, UR2, 0x8, URZ", { F(ffffffff) }, 0, { F(fffffff8), F(ffffffff) }, 0, ChkR1 },
	{ "UMOV UR0, 0x1234", { 0 }, 0, { 0x1234 }, 0, 0 },
	{ "UMOV UR0, URZ", { 0 }, 0, { 0 }, 0, 0 },
	{ "ULEA UR0, UR2, UR3, 0x4", { 2, 1 }, 0, { 33 }, 0, 0 },
	{ "ULEA UR0, UP0, UR2, UR3, 0x1", { F(80000000), 1 }, 1, { 1 }, 0, 1 },
	{ "ULEA UR0, UP0, UR2, UR3, 0x1", { F(7fffffff), 2 }, 0, { 0 }, 1, 1 },
	{ "ULEA.HI UR0, UR2, UR3, URZ, 0x2", { F(c0000000), 1 }, 0, { 4 }, 0, 0 },
	{ "ULOP3.LUT UR0, UR2, UR3, URZ, 0xfc, !UPT", { 1, 2 }, 0, { 3 }, 0, 0 },
	{ "ULOP3.LUT UP0, URZ, UR2, 0x1, URZ, 0xc0, !UPT", { 3 }, 0, { NOR0 }, 1, 1 },
	{ "ULOP3.LUT UP0, URZ, UR2, 0x1, URZ, 0xc0, !UPT", { 2 }, 1, { NOR0 }, 0, 1 },
	{ "ULOP3.LUT UP0, UR0, UR2, 0x1, URZ, 0xc0, UP1", { 2 }, 2, { 0 }, 3, 1 },
	{ "USHF.L.U32 UR0, UR2, 0x4, URZ", { 3 }, 0, { 48 }, 0, 0 },
	{ "USHF.L.U64.HI UR0, UR2, 0x4, UR3", { F(f0000000), 1 }, 0, { 0x1f }, 0, 0 },
	{ "USHF.R.S32.HI UR0, URZ, 0x1f, UR2", { F(80000000) }, 0, { F(ffffffff) }, 0, 0 },
	{ "UPRMT UR0, UR2, 0x5410, UR3", { F(11223344), F(55667788) }, 0, { F(77883344) }, 0, 0 },
	{ "USEL UR0, UR2, URZ, UP0", { 9 }, 1, { 9 }, 0, 0 },
	{ "USEL UR0, UR2, URZ, UP0", { 9 }, 0, { 0 }, 0, 0 },
	{ "UFLO.U32 UR0, UR2", { 0x80 }, 0, { 7 }, 0, 0 },
	{ "UFLO.U32.SH UR0, UR2", { 0x80 }, 0, { 24 }, 0, 0 },
	{ "UPOPC UR0, UR2", { F(ff00ff00) }, 0, { 16 }, 0, 0 },
	{ "UBREV UR0, UR2", { 2 }, 0, { F(40000000) }, 0, 0 },
	{ "USGXT UR0, UR2, 0x8", { 0xff }, 0, { F(ffffffff) }, 0, 0 },
	{ "UBMSK UR0, UR2, UR3", { 8, 4 }, 0, { 0xf00 }, 0, 0 },
	{ "UISETP.GT.AND UP0, UPT, UR2, UR3, UPT", { 5, 3 }, 0, { NOR0 }, 1, 1 },
	{ "UISETP.GT.AND UP0, UP1, UR2, UR3, UPT", { 3, 5 }, 0, { NOR0 }, 2, 3 },
	{ "UISETP.LT.U32.AND UP0, UPT, UR2, UR3, UP1", { 1, F(ffffffff) }, 2, { NOR0 }, 3, 1 },
	{ "UISETP.EQ.U32.AND.EX UP0, UPT, UR2, URZ, UPT, UP0", { 0 }, 1, { NOR0 }, 1, 1 },
	{ "UPLOP3.LUT UP0, UP1, UP2, UP3, UPT, 0x80, 0x8", { 0 }, 0xc, { NOR0 }, 0xd, 3 },
	{ "UP2UR.B3 UR0, UPR, UR2, 0xff", { F(00abcdef) }, 0x15, { F(15abcdef) }, 0, 0 },
	{ "UR2UP UPR, UR2.B3", { F(2a000000) }, 0x7f, { NOR0 }, 0x2a, 0x7f },
};

START_TEST(test_int_table)
{
	run_case(&int_cases[_i], _i);
}
END_TEST

START_TEST(test_uniform_table)
{
	run_case(&uni_cases[_i], _i);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Float rows (bit patterns).
 */
static const Case float_cases[] = {
	{ "FADD R0, R2, R3", { F(3f800000), F(40000000) }, 0, { F(40400000) }, 0, 0 },
	{ "FADD R0, R2, R3", { F(7fc00001), F(3f800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FADD R0, R2, -R3", { F(7f800000), F(7f800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FADD R0, R2, R3", { F(80000000), F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FADD R0, R2, R3", { F(00000000), F(80000000) }, 0, { 0 }, 0, 0 },
	{ "FADD R0, -R2, -RZ", { F(00000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FADD R0, |R2|, -R3", { F(c0000000), F(3f800000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FADD R0, R2, R3", { F(00000001), 0 }, 0, { 1 }, 0, 0 },
	{ "FADD.FTZ R0, R2, R3", { F(00000001), 0 }, 0, { 0 }, 0, 0 },
	{ "FADD.FTZ R0, R2, R3", { F(80000001), 0 }, 0, { 0 }, 0, 0 },
	{ "FADD R0, R2, R3", { F(00c00000), F(80800000) }, 0, { F(00400000) }, 0, 0 },
	{ "FADD.FTZ R0, R2, R3", { F(00c00000), F(80800000) }, 0, { 0 }, 0, 0 },
	{ "FADD.FTZ R0, R2, R3", { F(80c00000), F(00800000) }, 0, { F(80000000) }, 0, 0 },
	/* 1 + 2^-24 is a tie: even; 1 + 3 * 2^-25 rounds up */
	{ "FADD R0, R2, R3", { F(3f800000), F(33800000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FADD.RP R0, R2, R3", { F(3f800000), F(33800000) }, 0, { F(3f800001) }, 0, 0 },
	{ "FADD.RZ R0, R2, R3", { F(3f800000), F(33c00000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FADD R0, R2, R3", { F(3f800000), F(33c00000) }, 0, { F(3f800001) }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { F(bf800000), F(b3800000) }, 0, { F(bf800001) }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { F(3f800000), F(33c00000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FADD.RM R0, R2, -R3", { F(3f800000), F(3f800000) }, 0, { F(80000000) }, 0, 0 },
	{ "FADD.RZ R0, R2, R3", { F(bf800000), F(b3c00000) }, 0, { F(bf800000) }, 0, 0 },
	{ "FADD.RP R0, R2, R3", { F(bf800000), F(b3c00000) }, 0, { F(bf800000) }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { F(bf800000), F(b3c00000) }, 0, { F(bf800001) }, 0, 0 },
	{ "FADD.RP R0, R2, R3", { F(7f7fffff), F(73800000) }, 0, { F(7f800000) }, 0, 0 },
	{ "FADD.RZ R0, R2, R3", { F(7f7fffff), F(7f7fffff) }, 0, { F(7f7fffff) }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { F(ff7fffff), F(ff7fffff) }, 0, { F(ff800000) }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { 0, 0 }, 0, { 0 }, 0, 0 },
	{ "FADD.RM R0, R2, R3", { 0, F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FMUL.RM R0, R2, R3", { F(0d800000), F(0d800000) }, 0, { 0 }, 0, 0 },
	{ "FMUL.RP R0, R2, R3", { F(0d800000), F(0d800000) }, 0, { 1 }, 0, 0 },
	{ "FMUL.RM R0, R2, R3", { F(8d800000), F(0d800000) }, 0, { F(80000001) }, 0, 0 },
	{ "FFMA.RM R0, R2, R3, -R2", { F(3fc00000), F(3f800000) }, 0, { F(80000000) }, 0, 0 },
	{ "FFMA.RZ R0, R2, R3, R4", { F(3f800800), F(bf800800), F(b3000000) }, 0, { F(bf801000) }, 0,
	  0 },
	{ "FFMA.RM R0, R2, R3, 12582913", { F(3fb8aa3b), F(40400000) }, 0, { F(4b400005) }, 0, 0 },
	{ "FADD.SAT R0, RZ, R2", { F(bf800000) }, 0, { 0 }, 0, 0 },
	{ "FADD.SAT R0, RZ, R2", { F(80000000) }, 0, { 0 }, 0, 0 },
	{ "FADD.SAT R0, RZ, R2", { F(7fc00000) }, 0, { 0 }, 0, 0 },
	{ "FADD.SAT R0, RZ, R2", { F(3f000000) }, 0, { F(3f000000) }, 0, 0 },
	{ "FADD R0, R2, 1", { F(40000000) }, 0, { F(40400000) }, 0, 0 },
	{ "FADD R0, R2, -1.5", { F(40000000) }, 0, { F(3f000000) }, 0, 0 },
	{ "FMUL R0, R2, R3", { F(7f000000), F(40000000) }, 0, { F(7f800000) }, 0, 0 },
	{ "FMUL.RZ R0, R2, R3", { F(7f000000), F(40000000) }, 0, { F(7f7fffff) }, 0, 0 },
	{ "FMUL R0, R2, R3", { F(7f800000), 0 }, 0, { F(7fffffff) }, 0, 0 },
	{ "FMUL R0, R2, R3", { F(80000000), F(3f800000) }, 0, { F(80000000) }, 0, 0 },
	{ "FMUL.FTZ R0, R2, R3", { F(00800000), F(3f000000) }, 0, { 0 }, 0, 0 },
	{ "FMUL R0, R2, R3", { F(00800000), F(3f000000) }, 0, { F(00400000) }, 0, 0 },
	{ "FMUL R0, R2, 0.5", { F(40c00000) }, 0, { F(40400000) }, 0, 0 },
	/* FFMA: one rounding */
	{ "FFMA R0, R2, R3, R4", { F(3f800800), F(3f800800), F(bf801000) }, 0, { F(33800000) }, 0, 0 },
	{ "FFMA R0, R2, R3, R4", { F(3f800800), F(3f800800), F(21800000) }, 0, { F(3f801001) }, 0, 0 },
	{ "FFMA R0, R2, R3, R4", { F(3f800800), F(3f800800), F(a1800000) }, 0, { F(3f801000) }, 0, 0 },
	{ "FFMA R0, R2, R3, R4", { F(3f800800), F(3f800800), 0 }, 0, { F(3f801000) }, 0, 0 },
	{ "FFMA.RP R0, R2, R3, R4", { F(3f800800), F(3f800800), 0 }, 0, { F(3f801001) }, 0, 0 },
	{ "FFMA.RM R0, R2, R3, R4", { F(3f800800), F(3f800800), F(21800000) }, 0, { F(3f801000) }, 0,
	  0 },
	{ "FFMA R0, R2, R3, R4", { F(7f800000), 0, F(3f800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FFMA R0, -R2, R3, R4", { F(3f800000), F(3f800000), F(3f800000) }, 0, { 0 }, 0, 0 },
	{ "FFMA.SAT R0, R2, R3, R4", { F(40000000), F(40000000), 0 }, 0, { F(3f800000) }, 0, 0 },
	{ "FFMA.FTZ R0, R2, R3, RZ", { F(00800000), F(3f000000) }, 0, { 0 }, 0, 0 },
	{ "FFMA R0, R2, R3, RZ", { F(00800000), F(3f000000) }, 0, { F(00400000) }, 0, 0 },
	/* FMNMX: PT min, !PT max; a NaN gives the other operand, -0 < +0 */
	{ "FMNMX R0, R2, R3, PT", { F(7fc00000), F(3f800000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FMNMX R0, R2, R3, !PT", { F(3f800000), F(ffc00000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FMNMX R0, R2, R3, PT", { F(7fc00000), F(ffc00001) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FMNMX R0, R2, R3, PT", { F(00000000), F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FMNMX R0, R2, R3, !PT", { F(80000000), F(00000000) }, 0, { 0 }, 0, 0 },
	{ "FMNMX R0, R2, R3, !PT", { F(c0000000), F(bf800000) }, 0, { F(bf800000) }, 0, 0 },
	{ "FMNMX R0, R2, R3, PT", { F(c0000000), F(bf800000) }, 0, { F(c0000000) }, 0, 0 },
	{ "FMNMX.FTZ R0, R2, R3, PT", { F(00000001), F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FMNMX.NAN R0, R2, R3, PT", { F(7fc00000), F(3f800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FSEL R0, R2, -R3, P0", { 1, F(3f800000) }, 0, { F(bf800000) }, 0, 0 },
	{ "FSEL R0, R2, R3, P0", { 1, 2 }, 1, { 1 }, 0, 0 },
	{ "FSEL R0, |R2|, R3, P0", { F(ffc00001), 2 }, 1, { F(7fc00001) }, 0, 0 },
	/* compares */
	{ "FSETP.GEU.AND P0, PT, R2, R3, PT", { F(7fc00000), 0 }, 0, { NOR0 }, 1, 1 },
	{ "FSETP.GE.AND P0, PT, R2, R3, PT", { F(7fc00000), 0 }, 1, { NOR0 }, 0, 1 },
	{ "FSETP.GE.AND P0, P1, R2, R3, PT", { F(3f800000), F(3f800000) }, 0, { NOR0 }, 1, 3 },
	{ "FSETP.EQ.AND P0, PT, R2, R3, PT", { 0, F(80000000) }, 0, { NOR0 }, 1, 1 },
	{ "FSETP.NEU.AND P0, PT, R2, R3, PT", { 1, 0 }, 0, { NOR0 }, 1, 1 },
	{ "FSETP.NEU.FTZ.AND P0, PT, R2, R3, PT", { 1, 0 }, 1, { NOR0 }, 0, 1 },
	{ "FSETP.NAN.AND P0, P1, R2, R3, PT", { F(3f800000), F(ff800001) }, 0, { NOR0 }, 1, 3 },
	{ "FSETP.NUM.AND P0, P1, R2, R3, PT", { F(3f800000), F(ff800001) }, 0, { NOR0 }, 2, 3 },
	{ "FSETP.LT.OR P0, PT, R2, R3, P1", { F(40000000), F(3f800000) }, 2, { NOR0 }, 3, 1 },
	{ "FSETP.GTU.FTZ.AND P0, PT, |R2|, +INF , PT", { F(ff800000) }, 1, { NOR0 }, 0, 1 },
	{ "FSETP.GTU.FTZ.AND P0, PT, |R2|, +INF , PT", { F(ff800001) }, 0, { NOR0 }, 1, 1 },
	{ "FSETP.GEU.AND P0, PT, R2, -126, PT", { F(c2fc0000) }, 0, { NOR0 }, 1, 1 },
	{ "FSETP.GEU.AND P0, PT, R2, -126, PT", { F(c2fe0000) }, 1, { NOR0 }, 0, 1 },
	{ "FSET.BF.LT.AND R0, R2, R3, PT", { F(3f800000), F(40000000) }, 0, { F(3f800000) }, 0, 0 },
	{ "FSET.BF.LT.AND R0, R2, R3, PT", { F(40000000), F(40000000) }, 0, { 0 }, 0, 0 },
	{ "FSET.LT.AND R0, R2, R3, PT", { F(3f800000), F(40000000) }, 0, { F(ffffffff) }, 0, 0 },
	/* FCHK: the slow path of division for special or out-of-range operands */
	{ "FCHK P0, R2, R3", { F(3f800000), F(40400000) }, 1, { NOR0 }, 0, 1 },
	{ "FCHK P0, R2, R3", { F(3f800000), 0 }, 0, { NOR0 }, 1, 1 },
	{ "FCHK P0, R2, R3", { F(3f800000), 1 }, 0, { NOR0 }, 1, 1 },
	{ "FCHK P0, R2, R3", { F(7f800000), F(3f800000) }, 0, { NOR0 }, 1, 1 },
	{ "FCHK P0, R2, R3", { F(71800000), F(0d800000) }, 0, { NOR0 }, 1, 1 },
	{ "FCHK P0, -R2, R3", { 0, F(40400000) }, 1, { NOR0 }, 0, 1 },
	/* FRND */
	{ "FRND R0, R2", { F(40200000) }, 0, { F(40000000) }, 0, 0 },
	{ "FRND R0, R2", { F(40600000) }, 0, { F(40800000) }, 0, 0 },
	{ "FRND.TRUNC R0, R2", { F(c02ccccd) }, 0, { F(c0000000) }, 0, 0 },
	{ "FRND.FLOOR R0, R2", { F(c0066666) }, 0, { F(c0400000) }, 0, 0 },
	{ "FRND.CEIL R0, R2", { F(40066666) }, 0, { F(40400000) }, 0, 0 },
	{ "FRND.CEIL R0, R2", { F(bf000000) }, 0, { F(80000000) }, 0, 0 },
	{ "FRND R0, R2", { F(7fc00001) }, 0, { F(7fffffff) }, 0, 0 },
	{ "FRND.CEIL R0, R2", { F(00000001) }, 0, { F(3f800000) }, 0, 0 },
	{ "FRND.CEIL.FTZ R0, R2", { F(00000001) }, 0, { 0 }, 0, 0 },
	{ "FRND.F64.FLOOR R0, R2", { 0, F(c0040000) }, 0, { 0, F(c0080000) }, 0, ChkR1 },
	/* MUFU: correctly rounded values of the functions (the hardware is approximate) */
	{ "MUFU.EX2 R0, R2", { F(3f800000) }, 0, { F(40000000) }, 0, 0 },
	{ "MUFU.EX2 R0, R2", { F(3f000000) }, 0, { F(3fb504f3) }, 0, 0 },
	{ "MUFU.EX2 R0, R2", { F(ff800000) }, 0, { 0 }, 0, 0 },
	{ "MUFU.EX2 R0, R2", { F(7f800000) }, 0, { F(7f800000) }, 0, 0 },
	{ "MUFU.EX2 R0, R2", { F(c3000000) }, 0, { 0 }, 0, 0 },                   /* 2^-128 */
	{ "MUFU.RCP R0, R2", { F(40000000) }, 0, { F(3f000000) }, 0, 0 },
	{ "MUFU.RCP R0, R2", { F(40400000) }, 0, { F(3eaaaaab) }, 0, 0 },
	{ "MUFU.RCP R0, R2", { 0 }, 0, { F(7f800000) }, 0, 0 },
	{ "MUFU.RCP R0, R2", { F(80000000) }, 0, { F(ff800000) }, 0, 0 },
	{ "MUFU.RCP R0, R2", { F(00000001) }, 0, { F(7f800000) }, 0, 0 },
	{ "MUFU.RCP R0, R2", { F(7f000000) }, 0, { 0 }, 0, 0 },
	{ "MUFU.RCP R0, -R2", { F(40800000) }, 0, { F(be800000) }, 0, 0 },
	{ "MUFU.RSQ R0, R2", { F(40800000) }, 0, { F(3f000000) }, 0, 0 },
	{ "MUFU.RSQ R0, R2", { F(bf800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "MUFU.RSQ R0, R2", { F(80000000) }, 0, { F(ff800000) }, 0, 0 },
	{ "MUFU.RSQ R0, R2", { F(7f800000) }, 0, { 0 }, 0, 0 },
	{ "MUFU.LG2 R0, R2", { F(41000000) }, 0, { F(40400000) }, 0, 0 },
	{ "MUFU.LG2 R0, R2", { 0 }, 0, { F(ff800000) }, 0, 0 },
	{ "MUFU.LG2 R0, R2", { F(bf800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "MUFU.LG2 R0, R2", { F(00000010) }, 0, { F(ff800000) }, 0, 0 },
	{ "MUFU.SIN R0, R2", { F(3e800000) }, 0, { F(3f800000) }, 0, 0 },          /* sin(pi/2) */
	{ "MUFU.SIN R0, R2", { F(3f000000) }, 0, { 0 }, 0, 0 },                   /* sin(pi) */
	{ "MUFU.SIN R0, R2", { F(c0000000) }, 0, { F(80000000) }, 0, 0 },
	{ "MUFU.SIN R0, R2", { F(3e000000) }, 0, { F(3f3504f3) }, 0, 0 },          /* sin(pi/4) */
	{ "MUFU.COS R0, R2", { F(3f000000) }, 0, { F(bf800000) }, 0, 0 },
	{ "MUFU.COS R0, R2", { F(3e800000) }, 0, { 0 }, 0, 0 },
	{ "MUFU.COS R0, R2", { F(4b800000) }, 0, { F(3f800000) }, 0, 0 },          /* 2^24 turns */
	{ "MUFU.SIN R0, R2", { F(7f800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "MUFU.SQRT R0, R2", { F(40800000) }, 0, { F(40000000) }, 0, 0 },
	{ "MUFU.SQRT R0, R2", { F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "MUFU.SQRT R0, R2", { F(bf800000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "MUFU.TANH R0, R2", { F(80000000) }, 0, { F(80000000) }, 0, 0 },
	{ "MUFU.TANH R0, R2", { F(41a00000) }, 0, { F(3f800000) }, 0, 0 },
	{ "MUFU.RCP64H R0, R2", { F(40000000) }, 0, { F(3fe00000) }, 0, 0 },
	{ "MUFU.RSQ64H R0, R2", { F(40100000) }, 0, { F(3fe00000) }, 0, 0 },
	{ "MUFU.RCP64H R0, R2", { 0 }, 0, { F(7ff00000) }, 0, 0 },
	/* FP64 (pairs R2:R3, R4:R5, ...; result R0:R1) */
	{ "DADD R0, R2, R4", { 0, F(3ff00000), 0, F(40000000) }, 0, { 0, F(40080000) }, 0, ChkR1 },
	{ "DADD R0, R2, R4", { 1, F(7ff00000), 0, F(40000000) }, 0, { F(ffffffff), F(7fffffff) }, 0,
	  ChkR1 },
	{ "DADD R0, R2, -R4", { 0, F(3ff00000), 0, F(3ff00000) }, 0, { 0, 0 }, 0, ChkR1 },
	{ "DADD.RM R0, R2, -R4", { 0, F(3ff00000), 0, F(3ff00000) }, 0, { 0, F(80000000) }, 0, ChkR1 },
	{ "DADD.RP R0, R2, R4", { 0, F(3ff00000), 0, F(3c300000) }, 0, { 1, F(3ff00000) }, 0, ChkR1 },
	{ "DADD.RZ R0, R2, R4", { 0, F(3ff00000), 0, F(3c300000) }, 0, { 0, F(3ff00000) }, 0, ChkR1 },
	{ "DADD.RM R0, R2, -R4", { 0, F(bff00000), 0, F(3c300000) }, 0, { 1, F(bff00000) }, 0, ChkR1 },
	{ "DADD R0, R2, 1", { 0, F(40000000) }, 0, { 0, F(40080000) }, 0, ChkR1 },
	{ "DMUL R0, R2, R4", { 0, F(40080000), 0, F(c0000000) }, 0, { 0, F(c0180000) }, 0, ChkR1 },
	{ "DMUL.RP R0, R2, R4", { 1, F(3ff00000), 1, F(3ff00000) }, 0, { 3, F(3ff00000) }, 0, ChkR1 },
	{ "DMUL R0, R2, R4", { 1, F(3ff00000), 1, F(3ff00000) }, 0, { 2, F(3ff00000) }, 0, ChkR1 },
	{ "DFMA R0, R2, R4, R6", { 0x2000000, F(3ff00000), 0x2000000, F(3ff00000), 0x4000000,
	  F(bff00000) }, 0, { 0, F(3c900000) }, 0, ChkR1 },
	{ "DSETP.GTU.AND P0, PT, R2, R4, PT", { 1, F(7ff00000), 0, 0 }, 0, { NOR0 }, 1, 1 },
	{ "DSETP.GT.AND P0, PT, R2, R4, PT", { 1, F(7ff00000), 0, 0 }, 1, { NOR0 }, 0, 1 },
	{ "DSETP.NEU.AND P0, PT, |R2|, +INF , PT", { 0, F(fff00000) }, 1, { NOR0 }, 0, 1 },
	{ "DSETP.MIN.AND P0, P1, R2, R4, PT", { 0, F(3ff00000), 0, F(40000000) }, 2, { NOR0 }, 1, 3 },
	{ "DSETP.MIN.AND P0, P1, R2, R4, PT", { 1, F(7ff00000), 0, F(40000000) }, 3, { NOR0 }, 0, 3 },
	{ "DSETP.MAX.AND P0, P1, R2, R4, PT", { 1, F(7ff00000), 1, F(fff00000) }, 1, { NOR0 }, 2, 3 },
	{ "DSETP.MAX.AND P0, P1, R2, R4, PT", { 0, F(80000000), 0, 0 }, 1, { NOR0 }, 0, 3 },
	{ "DMNMX R0, R2, R4, PT", { 0, F(80000000), 0, 0 }, 0, { 0, F(80000000) }, 0, ChkR1 },
};

START_TEST(test_float_table)
{
	run_case(&float_cases[_i], _i);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Half, bf16 and conversion rows.
 */
static const Case half_cases[] = {
	{ "HADD2 R0, R2, R3", { F(40003c00), F(34003800) }, 0, { F(40803e00) }, 0, 0 },
	{ "HADD2.F32 R0, -RZ, R2.H1_H1", { F(3c000000) }, 0, { F(3f800000) }, 0, 0 },
	{ "HADD2.F32 R0, -RZ, R2.H0_H0", { F(0000c000) }, 0, { F(c0000000) }, 0, 0 },
	{ "HADD2.F32 R0, -RZ, R2.H0_H0", { F(00008000) }, 0, { F(80000000) }, 0, 0 },
	{ "HADD2.F32 R0, -RZ, R2.H0_H0", { F(00000001) }, 0, { F(33800000) }, 0, 0 },
	{ "HADD2.F32 R0, -RZ, R2.H0_H0", { F(00007c01) }, 0, { F(7fffffff) }, 0, 0 },
	{ "HADD2 R0, R2, R3", { F(68006801), F(3c003c00) }, 0, { F(68006802) }, 0, 0 },
	{ "HADD2 R0, R2, -R3", { F(3c003c00), F(3c00bc00) }, 0, { F(00004000) }, 0, 0 },
	{ "HADD2 R0, R2, |R3|", { F(00000000), F(bc00bc00) }, 0, { F(3c003c00) }, 0, 0 },
	{ "HADD2 R0, R2, R3.H0_H0", { F(3c003c00), F(00003c00) }, 0, { F(40004000) }, 0, 0 },
	{ "HADD2 R0, R2, 2, 1", { F(3c003c00) }, 0, { F(42004000) }, 0, 0 },
	{ "HADD2 R0, R2, R3", { F(7c017c00), F(3c00fc00) }, 0, { F(7fff7fff) }, 0, 0 },
	{ "HMUL2 R0, R2, R3", { F(5c005c00), F(5c003c00) }, 0, { F(7c005c00) }, 0, 0 },
	{ "HFMA2 R0, R2, R3, R4", { F(3c103c10), F(3c103c10), F(bc20bc20) }, 0, { F(0c000c00) }, 0, 0 },
	{ "HFMA2.MMA R0, -RZ, RZ, 0, 5.9604644775390625e-08", { 0 }, 0, { 1 }, 0, 0 },
	{ "HFMA2.MMA R0, -RZ, RZ, 1.875, 0", { 0 }, 0, { F(3f800000) }, 0, 0 },
	{ "HFMA2.MMA.RELU R0, R2, R3, R4", { F(3c00bc00), F(3c003c00), 0 }, 0, { F(3c000000) }, 0, 0 },
	{ "HFMA2.MMA.SAT R0, R2, R3, R4", { F(40003800), F(3c003c00), 0 }, 0, { F(3c003800) }, 0, 0 },
	{ "HFMA2.BF16_V2 R0, R2, R3, -RZ", { F(3f813f80), F(3f813f80) }, 0, { F(3f823f80) }, 0, 0 },
	{ "HFMA2.BF16_V2 R0, R2, 1, 1, R3", { F(3f803f80), F(3f803f80) }, 0, { F(40004000) }, 0, 0 },
	{ "HADD2.BF16_V2 R0, R2, R3", { F(3f80c000), F(3f804000) }, 0, { F(40000000) }, 0, 0 },
	{ "HMNMX2 R0, R2, R3, PT", { F(7e003c00), F(40004000) }, 0, { F(40003c00) }, 0, 0 },
	{ "HMNMX2 R0, R2, R3, !PT", { F(80000000), F(00008000) }, 0, { F(00000000) }, 0, 0 },
	{ "HMNMX2.NAN R0, R2, R3, PT", { F(7e003c00), F(40004000) }, 0, { F(7fff3c00) }, 0, 0 },
	{ "HMNMX2.BF16_V2 R0, R2, R3, !PT", { F(3f80c000), F(40004000) }, 0, { F(40004000) }, 0, 0 },
	{ "HSETP2.GT.AND P0, P1, R2, R3, PT", { F(40003c00), F(3c004000) }, 0, { NOR0 }, 2, 3 },
	{ "HSETP2.GT.AND P0, PT, |R2|.H0_H0, RZ.H0_H0, PT", { F(0000bc00) }, 0, { NOR0 }, 1, 1 },
	{ "HSETP2.GEU.AND P0, PT, R2.H0_H0, R3.H0_H0, PT", { F(00007e00), 0 }, 0, { NOR0 }, 1, 1 },
	{ "HSET2.BF.EQ.AND R0, R2, R3, PT", { F(40003c00), F(3c003c00) }, 0, { F(00003c00) }, 0, 0 },
	{ "HSET2.BF.NAN.AND R0, R2.H0_H0, R3.H0_H0, PT", { F(7e00), 0 }, 0, { F(3c003c00) }, 0, 0 },
	{ "HSET2.EQ.AND R0, R2, R3, PT", { F(40003c00), F(40003c00) }, 0, { F(ffffffff) }, 0, 0 },
	{ "HSET2.BF16_V2.BF.LT.AND R0, R2, R3, PT", { F(3f804000), F(40003f80) }, 0, { F(3f800000) },
	  0, 0 },
};

START_TEST(test_half_table)
{
	run_case(&half_cases[_i], _i);
}
END_TEST

static const Case conv_cases[] = {
	/* I2F: 2^24 + 1 is a tie */
	{ "I2F R0, R2", { 16777217 }, 0, { F(4b800000) }, 0, 0 },
	{ "I2F.RP R0, R2", { 16777217 }, 0, { F(4b800001) }, 0, 0 },
	{ "I2F.RZ R0, R2", { F(feffffff) }, 0, { F(cb800000) }, 0, 0 },
	{ "I2F.RM R0, R2", { F(feffffff) }, 0, { F(cb800001) }, 0, 0 },
	{ "I2F R0, R2", { F(ffffffff) }, 0, { F(bf800000) }, 0, 0 },
	{ "I2F.U32 R0, R2", { F(ffffffff) }, 0, { F(4f800000) }, 0, 0 },
	{ "I2F.U32.RZ R0, R2", { F(ffffffff) }, 0, { F(4f7fffff) }, 0, 0 },
	{ "I2F.F64 R0, R2", { F(ffffffff) }, 0, { 0, F(bff00000) }, 0, ChkR1 },
	{ "I2F.F64.U32 R0, R2", { F(ffffffff) }, 0, { F(ffe00000), F(41efffff) }, 0, ChkR1 },
	{ "I2F.F64.U64 R0, R2", { F(ffffffff), F(ffffffff) }, 0, { 0, F(43f00000) }, 0, ChkR1 },
	{ "I2F.F64.S64 R0, R2", { F(ffffffff), F(ffffffff) }, 0, { 0, F(bff00000) }, 0, ChkR1 },
	{ "I2F.S64 R0, R2", { 1, F(00200000) }, 0, { F(5a000000) }, 0, 0 },
	{ "I2F.U64.RP R0, R2", { 1, F(00200000) }, 0, { F(5a000001) }, 0, 0 },
	{ "I2F.F16 R0, R2", { 65520 }, 0, { F(7c00) }, 0, 0 },
	{ "I2F.F16 R0, R2", { 65519 }, 0, { F(7bff) }, 0, 0 },
	{ "I2F.F16.S16 R0, R2", { F(0000ffff) }, 0, { F(bc00) }, 0, 0 },
	{ "I2F.BF16 R0, R2", { 257 }, 0, { F(4380) }, 0, 0 },
	{ "I2FP.F32.U32 R0, R2", { F(ffffffff) }, 0, { F(4f800000) }, 0, 0 },
	{ "I2FP.F32.S32 R0, R2", { F(80000000) }, 0, { F(cf000000) }, 0, 0 },
	{ "I2FP.F32.S32.RZ R0, R2", { 16777219 }, 0, { F(4b800001) }, 0, 0 },
	/* F2I: saturating, NaN to 0 */
	{ "F2I.TRUNC.NTZ R0, R2", { F(c02ccccd) }, 0, { F(fffffffe) }, 0, 0 },
	{ "F2I.TRUNC.NTZ R0, R2", { F(7fc00000) }, 0, { 0 }, 0, 0 },
	{ "F2I.TRUNC.NTZ R0, R2", { F(4f32d05e) }, 0, { F(7fffffff) }, 0, 0 },
	{ "F2I.TRUNC.NTZ R0, R2", { F(cf32d05e) }, 0, { F(80000000) }, 0, 0 },
	{ "F2I.TRUNC.NTZ R0, R2", { F(ff800000) }, 0, { F(80000000) }, 0, 0 },
	{ "F2I.NTZ R0, R2", { F(40200000) }, 0, { 2 }, 0, 0 },
	{ "F2I.NTZ R0, R2", { F(40600000) }, 0, { 4 }, 0, 0 },
	{ "F2I.FLOOR.NTZ R0, R2", { F(bf000000) }, 0, { F(ffffffff) }, 0, 0 },
	{ "F2I.U32.CEIL.NTZ R0, R2", { F(3dcccccd) }, 0, { 1 }, 0, 0 },
	{ "F2I.U32.CEIL.NTZ R0, R2", { F(bfc00000) }, 0, { 0 }, 0, 0 },
	{ "F2I.FTZ.U32.TRUNC.NTZ R0, R2", { F(4f9502f9) }, 0, { F(ffffffff) }, 0, 0 },
	{ "F2I.U32.CEIL.NTZ R0, R2", { F(00000001) }, 0, { 1 }, 0, 0 },
	{ "F2I.FTZ.U32.CEIL.NTZ R0, R2", { F(00000001) }, 0, { 0 }, 0, 0 },
	{ "F2I.S64.TRUNC R0, R2", { F(bfc00000) }, 0, { F(ffffffff), F(ffffffff) }, 0, ChkR1 },
	{ "F2I.S64.TRUNC R0, R2", { F(5f0ac723) }, 0, { F(ffffffff), F(7fffffff) }, 0, ChkR1 },
	{ "F2I.U64.F64.TRUNC R0, R2", { 0, F(43f00000) }, 0, { F(ffffffff), F(ffffffff) }, 0, ChkR1 },
	{ "F2I.F64.TRUNC R0, R2", { 0, F(c0040000) }, 0, { F(fffffffe) }, 0, 0 },
	{ "F2I.F64 R0, R2", { 0, F(c0040000) }, 0, { F(fffffffe) }, 0, 0 },
	{ "F2I.F16.NTZ R0, R2", { F(00004100) }, 0, { 2 }, 0, 0 },
	/* F2F: one rounding */
	{ "F2F.F32.F64 R0, R2", { 0x40, F(3ff00001) }, 0, { F(3f800008) }, 0, 0 },
	{ "F2F.F32.F64 R0, R2", { F(10000000), F(3ff00000) }, 0, { F(3f800000) }, 0, 0 },
	{ "F2F.F32.F64 R0, R2", { F(10000001), F(3ff00000) }, 0, { F(3f800001) }, 0, 0 },
	{ "F2F.F32.F64 R0, R2", { 0, F(7ff80000) }, 0, { F(7fffffff) }, 0, 0 },
	{ "F2F.F32.F64 R0, R2", { 0, F(47f00000) }, 0, { F(7f800000) }, 0, 0 },
	{ "F2F.F32.F64 R0, R2", { 0, F(36a00000) }, 0, { 1 }, 0, 0 },
	{ "F2F.F64.F32 R0, R2", { 1 }, 0, { 0, F(36a00000) }, 0, ChkR1 },
	{ "F2F.F64.F32 R0, R2", { F(bf800000) }, 0, { 0, F(bff00000) }, 0, ChkR1 },
	{ "F2F.F16.F64 R0, R2", { 0, F(40effdff) }, 0, { F(7bff) }, 0, 0 },
	{ "F2F.F16.F64 R0, R2", { 0, F(40effe00) }, 0, { F(7c00) }, 0, 0 },
	{ "F2F.BF16.F64 R0, R2", { 0x1000, F(3ff01000) }, 0, { F(3f81) }, 0, 0 },
	{ "F2F.BF16.F64 R0, R2", { 0, F(3ff01000) }, 0, { F(3f80) }, 0, 0 },
	/* F2FP: the first source lands in the high half */
	{ "F2FP.PACK_AB R0, R2, R3", { F(3f800000), F(40000000) }, 0, { F(3c004000) }, 0, 0 },
	{ "F2FP.F16.F32.PACK_AB R0, RZ, R2", { F(bf800000) }, 0, { F(0000bc00) }, 0, 0 },
	{ "F2FP.BF16.F32.PACK_AB R0, R2, R3", { F(3f800000), F(40000000) }, 0, { F(3f804000) }, 0, 0 },
	{ "F2FP.BF16.PACK_AB R0, R2, R3", { F(3f808000), F(3f818000) }, 0, { F(3f803f82) }, 0, 0 },
	{ "F2FP.BF16.PACK_AB R0, R2, R3", { F(3f808001), F(7fc00001) }, 0, { F(3f817fff) }, 0, 0 },
	{ "F2FP.PACK_AB R0, R2, R3", { F(477ff000), F(477fe000) }, 0, { F(7c007bff) }, 0, 0 },
	{ "F2FP.RELU.PACK_AB R0, R2, R3", { F(bf800000), F(3f800000) }, 0, { F(00003c00) }, 0, 0 },
	{ "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R2, R3, R4", { F(44000000), F(3f800000),
	  F(12345678) }, 0, { F(12347e38) }, 0, 0 },
	{ "F2FP.F16.E4M3.UNPACK_B R0, R2", { F(00003840) }, 0, { F(3c004000) }, 0, 0 },
	{ "F2FP.F16.E4M3.UNPACK_B R0, R2.H1", { F(38400000) }, 0, { F(3c004000) }, 0, 0 },
	/* I2I, I2IP: saturating narrowing */
	{ "I2I.U8.S32.SAT R0, R2", { 300 }, 0, { 255 }, 0, 0 },
	{ "I2I.U8.S32.SAT R0, R2", { F(fffffffb) }, 0, { 0 }, 0, 0 },
	{ "I2I.S16.S32.SAT R0, R2", { 40000 }, 0, { 32767 }, 0, 0 },
	{ "I2I.S16.S32.SAT R0, R2", { F(ffff63c0) }, 0, { F(ffff8000) }, 0, 0 },
	{ "I2I.S8.S32 R0, R2", { 0x1ff }, 0, { F(ffffffff) }, 0, 0 },
	{ "I2IP.U8.S32.SAT R0, R2, R3, R4", { 300, F(ffffffff), 0x1234 }, 0, { F(1234ff00) }, 0, 0 },
	{ "I2IP.S16.S32.SAT R0, R2, R3, RZ", { F(fffe3cc0), 5 }, 0, { F(80000005) }, 0, 0 },
};

START_TEST(test_conv_table)
{
	run_case(&conv_cases[_i], _i);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Per-lane behaviour, masks, literals from the encoding, rejected forms.
 */
START_TEST(test_lanes_and_mask)
{
	Alu *a = alu_new("IADD3 R0, P0, R2, R3, RZ");

	for (unsigned l = 0; l < WarpSize; l++) {
		a->rf[2][l] = l;
		a->rf[3][l] = l & 1 ? 0xffffffffu : 1;
		a->rf[0][l] = 0x55;
	}
	alu_run(a, 0x0000ffffu);
	for (unsigned l = 0; l < WarpSize; l++) {
		uint32_t want = l < 16 ? l + (l & 1 ? 0xffffffffu : 1) : 0x55;
		ck_assert_uint_eq(a->rf[0][l], want);
	}
	/* carry: odd lanes >= 1 (l + 0xffffffff overflows); lanes above 15 keep P0 = 0 */
	ck_assert_uint_eq(a->w.p[0], 0x0000aaaau);
	alu_free(a);
}
END_TEST

START_TEST(test_sel_per_lane)
{
	Alu *a = alu_new("SEL R0, R2, R3, P1");

	set_r(a, 2, 7);
	set_r(a, 3, 9);
	a->w.p[1] = 0xf0f0f0f0u;
	alu_run(a, ~0u);
	for (unsigned l = 0; l < WarpSize; l++)
		ck_assert_uint_eq(a->rf[0][l], (0xf0f0f0f0u >> l) & 1 ? 7u : 9u);
	alu_free(a);
}
END_TEST

START_TEST(test_r2ur_lowest_lane)
{
	Alu *a = alu_new("R2UR UR4, R2");

	for (unsigned l = 0; l < WarpSize; l++)
		a->rf[2][l] = 100 + l;
	alu_run(a, 0xfff0u);
	ck_assert_uint_eq(a->w.ur[4], 104);
	alu_free(a);

	a = alu_new("R2UR P0, URZ, R2");
	set_r(a, 2, 5);
	alu_run(a, 0xffu);
	ck_assert_uint_eq(a->w.p[0] & 0xff, 0);
	a->rf[2][3] = 6;
	alu_run(a, 0xffu);
	ck_assert_uint_eq(a->w.p[0] & 0xff, 0x08);   /* per lane: lane 3 differs from lane 0 */
	alu_free(a);

	/* R2UR.OR accumulates into Pd: lane 3 differed before, lane 5 differs now; lanes outside
	 * the mask keep theirs */
	a = alu_new("R2UR.OR P0, UR5, R3");
	set_r(a, 3, 9);
	a->rf[3][5] = 1;
	a->w.p[0] = 0x08 | 0xf00u;
	alu_run(a, 0xffu);
	ck_assert_uint_eq(a->w.p[0] & 0xfff, 0xf28);
	ck_assert_uint_eq(a->w.ur[5], 9);
	alu_free(a);
}
END_TEST

/* the listing's encoding keeps the bits that `-QNAN` loses in the text */
START_TEST(test_fimm_from_encoding)
{
	Alu *a = alu_new("FSEL R0, R2, -QNAN , P0 ; /* 0xfff0000002001808 */\n"
	                 "                        /* 0x000fe20000000000 */\n"
	                 "        /*0008*/ NOP");

	set_r(a, 2, 1);
	set_p(a, 0);
	alu_run(a, ~0u);
	ck_assert_uint_eq(a->rf[0][0], 0xfff00000u);
	alu_free(a);
}
END_TEST

/* FADD/FMUL/FFMA in .RZ/.RM/.RP against the host's arithmetic in that mode, per lane, on
 * inputs drawn to hit subnormals, ties near 1, cancellations and overflow */
static uint32_t
draw(uint64_t *s)
{
	uint32_t u, k;

	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	u = (uint32_t)*s;
	k = (uint32_t)(*s >> 32) & 7;
	if (k == 0)
		return u & 0x807fffffu;                          /* subnormal */
	if (k == 1)
		return (u & 0x80000000u) | 0x3f800000u | (u & 0x1f); /* near 1 */
	if (k == 2)
		return (u & 0x80000000u) | (0x30000000u + (u % 0x20000000u));
	if (k == 3)
		return (u & 0x80000000u) | (0x7e000000u + (u % 0x01800000u)); /* near overflow */
	return u;
}

START_TEST(test_directed_vs_host)
{
	static const char *const ins[] = { "FADD", "FMUL", "FFMA" };
	static const char *const rm[] = { "RZ", "RM", "RP" };
	static const int mode[] = { FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	char text[64];
	int op = _i / 3, m = _i % 3;
	Alu *a;

	snprintf(text, sizeof text, "%s.%s R0, R2, R3%s", ins[op], rm[m], op == 2 ? ", R4" : "");
	a = alu_new(text);
	for (int batch = 0; batch < 400; batch++) {
		for (unsigned l = 0; l < WarpSize; l++)
			for (unsigned r = 2; r <= 4; r++)
				a->rf[r][l] = draw(&seed);
		alu_run(a, ~0u);
		for (unsigned l = 0; l < WarpSize; l++) {
			volatile float x = f32_of(a->rf[2][l]), y = f32_of(a->rf[3][l]);
			volatile float z = f32_of(a->rf[4][l]);
			float h;
			fesetround(mode[m]);
			h = op == 0 ? x + y : op == 1 ? x * y : fmaf(x, y, z);
			fesetround(FE_TONEAREST);
			uint32_t want = h != h ? F32_CNAN : f32_bits(h);
			ck_assert_msg(a->rf[0][l] == want, "%s %08x %08x %08x: 0x%08x, want 0x%08x", text,
			              a->rf[2][l], a->rf[3][l], a->rf[4][l], a->rf[0][l], want);
		}
	}
	alu_free(a);
}
END_TEST

/* forms the ALU does not know are rejected at load time, never run */
static const char *const rejected[] = {
	"IADD3.FOO R0, R2, R3, R4",
	"LOP3.LUT R0, R2, R3, R4",
	"SHF.L.R.U32 R0, R2, R3, R4",
	"FADD.XYZ R0, R2, R3",
	"ISETP.LT.NUMX.AND P0, PT, R2, R3, PT",
	"F2F.F32 R0, R2",
	"MUFU.FOO R0, R2",
	"HADD2.NAN R0, R2, R3",
	"IMAD.HI.WIDE R0, R2, R3, R4",
};

START_TEST(test_rejected)
{
	char text[256];
	Irt *t;
	Prog *p;

	snprintf(text, sizeof text, "        /*0000*/                   %s ;\n"
	         "        /*0010*/                   EXIT ;\n", rejected[_i]);
	t = irt_new(text);
	p = sim_decode(irt_fn(t), 80, irt_diag(t));
	ck_assert_msg(p == NULL, "'%s' was accepted", rejected[_i]);
	ck_assert_msg(strstr(irt_errors(t), "unsupported instruction") != NULL, "%s",
	              irt_errors(t));
	irt_free(t);
}
END_TEST

/* fp.c: the rounding core against a reference for every binary16 neighbourhood */
START_TEST(test_fp_round_f16_exhaustive)
{
	for (uint32_t h = 0; h < 0x7c00; h++) {
		double v = fp_to_f64(FpF16, h), up = fp_to_f64(FpF16, h + 1);
		double mid = (v + up) / 2;
		ck_assert_uint_eq(fp_from_f64(FpF16, v, RmRN, 0), h);
		ck_assert_uint_eq(fp_from_f64(FpF16, -v, RmRN, 0), h | 0x8000);
		if (h + 1 < 0x7c00) {
			/* ties to even, then just above and below the midpoint */
			ck_assert_uint_eq(fp_from_f64(FpF16, mid, RmRN, 0), (h & 1) ? h + 1 : h);
			ck_assert_uint_eq(fp_from_f64(FpF16, nextafter(mid, 1e9), RmRN, 0), h + 1);
			ck_assert_uint_eq(fp_from_f64(FpF16, nextafter(mid, 0), RmRN, 0), h);
			ck_assert_uint_eq(fp_from_f64(FpF16, mid, RmRZ, 0), h);
			ck_assert_uint_eq(fp_from_f64(FpF16, mid, RmRP, 0), h + 1);
			ck_assert_uint_eq(fp_from_f64(FpF16, -mid, RmRM, 0), (h + 1) | 0x8000);
			ck_assert_uint_eq(fp_from_f64(FpF16, -mid, RmRP, 0), h | 0x8000);
		}
	}
}
END_TEST

START_TEST(test_fp_round_f32_matches_host)
{
	/* binary64 -> binary32 against the host's conversion on a deterministic sweep */
	uint64_t s = 0x9e3779b97f4a7c15ull;

	for (int k = 0; k < 200000; k++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		double v = f64_of(s);
		if (v != v)
			continue;
		uint32_t want = f32_bits((float)v);
		ck_assert_uint_eq((uint32_t)fp_from_f64(FpF32, v, RmRN, 0), want);
	}
}
END_TEST

Suite *
simalu_suite(void)
{
	Suite *s = suite_create("simalu");
	TCase *tc = tcase_create("Int");

	tcase_add_loop_test(tc, test_int_table, 0, sizeof int_cases / sizeof int_cases[0]);
	tcase_add_loop_test(tc, test_uniform_table, 0, sizeof uni_cases / sizeof uni_cases[0]);
	tcase_add_test(tc, test_lanes_and_mask);
	tcase_add_test(tc, test_sel_per_lane);
	tcase_add_test(tc, test_r2ur_lowest_lane);
	suite_add_tcase(s, tc);
	tc = tcase_create("Float");
	tcase_add_loop_test(tc, test_float_table, 0, sizeof float_cases / sizeof float_cases[0]);
	tcase_add_loop_test(tc, test_half_table, 0, sizeof half_cases / sizeof half_cases[0]);
	tcase_add_loop_test(tc, test_conv_table, 0, sizeof conv_cases / sizeof conv_cases[0]);
	tcase_add_test(tc, test_fimm_from_encoding);
	tcase_add_loop_test(tc, test_directed_vs_host, 0, 9);
	suite_add_tcase(s, tc);
	tc = tcase_create("Limits");
	tcase_add_loop_test(tc, test_rejected, 0, sizeof rejected / sizeof rejected[0]);
	tcase_add_test(tc, test_fp_round_f16_exhaustive);
	tcase_add_test(tc, test_fp_round_f32_matches_host);
	suite_add_tcase(s, tc);
	return s;
}
