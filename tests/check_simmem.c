/* check_simmem.c: tests of sim/exec_mem.c (loads and stores of every width and space, constant
 * loads, atomics under contention, cp.async, mbarrier arrivals, faults) with hand-computed
 * expectations. Also the harness (smt_*) that check_simtensor.c shares: a one-warp machine built
 * by hand around a function read by the real front end (irt_new of check_cfg.c) and decoded by
 * sim_decode; smt_exec runs one decoded instruction for a lane mask, bypassing the scheduler.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "simcfg.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);

typedef struct Smt Smt;

struct Smt {
	Irt *irt;              /* the function, read by the front end */
	Prog *prog;            /* decoded */
	Gpu *gpu;              /* device memory */
	uint32_t (*rf)[WarpSize]; /* register file */
	uint8_t *smem;         /* shared memory */
	uint8_t *lmem;         /* local memory, frame bytes per thread */
	uint8_t *cbank[NumCBanks]; /* constant banks, allocated on first use */
	Sm sm;                 /* the SM, the CTA and its one warp */
	Cta cta;
	Warp w;
	Exec x;                /* context of smt_exec */
	SimFault fault;        /* the last fault */
};

Smt *smt_new(const char *body, uint32_t smem, uint32_t frame);
Smt *smt_new_rc(const char *body, int regcount);
int smt_decodes(const char *body);
void smt_free(Smt *t);
int smt_exec(Smt *t, unsigned k, uint32_t mask);
uint32_t *smt_r(Smt *t, unsigned r);
Warp *smt_warp(Smt *t);
uint8_t *smt_smem(Smt *t);
uint64_t smt_alloc(Smt *t, uint64_t n);
uint64_t smt_shared_generic(Smt *t, uint32_t off);
void smt_setconst(Smt *t, unsigned bank, uint32_t off, uint32_t v);

/* a one-warp machine for the instructions of body; smem bytes of shared memory, frame bytes of
 * local memory per thread */
Smt *
smt_new(const char *body, uint32_t smem, uint32_t frame)
{
	Smt *t = calloc(1, sizeof *t);
	SimConfig cfg;

	t->irt = irt_new(body);
	t->prog = sim_decode(irt_fn(t->irt), 80, irt_diag(t->irt));
	ck_assert_msg(t->prog != NULL, "decode failed:\n%s", irt_errors(t->irt));
	simconfig_default(&cfg, 80);
	t->gpu = gpu_new(simcfg_gpu(&cfg));
	t->rf = calloc(SmVRegs, sizeof *t->rf);
	t->smem = calloc(1, smem ? smem : 1);
	t->lmem = calloc(WarpSize, frame ? frame : 1);
	t->sm.rf = t->rf;
	t->sm.rf_used = 256;
	t->sm.cta = &t->cta;
	t->sm.ncta = 1;
	t->cta.nthreads = WarpSize;
	t->cta.warp = &t->w;
	t->cta.nwarp = 1;
	t->cta.smem = t->smem;
	t->cta.smem_size = smem;
	t->cta.lmem = t->lmem;
	t->cta.lsize = frame;
	sim_warp_init(&t->w, 0, ~0u, 0, 255);
	for (unsigned l = 0; l < WarpSize; l++)
		t->w.tid[l][0] = l;
	t->x.gpu = t->gpu;
	t->x.prog = t->prog;
	t->x.sm = &t->sm;
	t->x.cta = &t->cta;
	t->x.w = &t->w;
	t->x.fault = &t->fault;
	t->x.ntid[0] = WarpSize;
	t->x.ntid[1] = t->x.ntid[2] = 1;
	t->x.nctaid[0] = t->x.nctaid[1] = t->x.nctaid[2] = 1;
	return t;
}

/* smt_new for a kernel whose .nv.info declares regcount registers (EIATTR_REGCOUNT: the
 * window setmaxnreg moves, docs/sim-wgmma.md) */
Smt *
smt_new_rc(const char *body, int regcount)
{
	Smt *t = smt_new(body, 0, 0);

	prog_free(t->prog);
	irt_fn(t->irt)->info.regcount = regcount;
	t->prog = sim_decode(irt_fn(t->irt), 80, irt_diag(t->irt));
	ck_assert_msg(t->prog != NULL, "decode failed:\n%s", irt_errors(t->irt));
	t->x.prog = t->prog;
	return t;
}

/* decode only: 1 if sim_decode accepts body; the first error must name the instruction */
int
smt_decodes(const char *body)
{
	Irt *irt = irt_new(body);
	Prog *p = sim_decode(irt_fn(irt), 80, irt_diag(irt));
	char name[64];
	int ok = p != NULL;

	if (!ok) {
		snprintf(name, sizeof name, "'%.*s", (int)strcspn(body, " "), body);
		ck_assert_msg(strstr(irt_errors(irt), "unsupported instruction") &&
		              strstr(irt_errors(irt), name), "%s", irt_errors(irt));
	}
	prog_free(p);
	irt_free(irt);
	return ok;
}

void
smt_free(Smt *t)
{
	prog_free(t->prog);
	irt_free(t->irt);
	gpu_free(t->gpu);
	free(t->rf);
	free(t->smem);
	free(t->lmem);
	for (unsigned b = 0; b < NumCBanks; b++)
		free(t->cbank[b]);
	free(t);
}

/* run instruction k for the lanes of mask; the fault kind (FaultNone when it completed) */
int
smt_exec(Smt *t, unsigned k, uint32_t mask)
{
	const DIns *d = &t->prog->ins[k];

	memset(&t->fault, 0, sizeof t->fault);
	t->x.pc = k;
	t->x.active = mask;
	t->x.next_pc_set = 0;
	d->exec(&t->x, d, mask);
	return t->fault.kind;
}

uint32_t *
smt_r(Smt *t, unsigned r)
{
	return t->rf[t->w.rbase + r];
}

Warp *
smt_warp(Smt *t)
{
	return &t->w;
}

uint8_t *
smt_smem(Smt *t)
{
	return t->smem;
}

uint64_t
smt_alloc(Smt *t, uint64_t n)
{
	uint64_t a;

	ck_assert_int_eq(gpu_malloc(t->gpu, n, &a), 0);
	return a;
}

/* the generic address of shared offset off */
uint64_t
smt_shared_generic(Smt *t, uint32_t off)
{
	(void)t;
	return SimSharedWindow + off;
}

/* word off of constant bank `bank` <- v */
void
smt_setconst(Smt *t, unsigned bank, uint32_t off, uint32_t v)
{
	if (!t->cbank[bank]) {
		t->cbank[bank] = calloc(1, CBankSize);
		t->x.cbank[bank] = t->cbank[bank];
		t->x.cbank_size[bank] = CBankSize;
	}
	memcpy(t->cbank[bank] + off, &v, 4);
}

/* R<r>, R<r+1> of every lane <- the 64-bit address a + lane * stride */
static void
set_addr(Smt *t, unsigned r, uint64_t a, uint64_t stride)
{
	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, r)[l] = (uint32_t)(a + l * stride);
		smt_r(t, r + 1)[l] = (uint32_t)((a + l * stride) >> 32);
	}
}

static void
set_all(Smt *t, unsigned r, uint32_t v)
{
	for (unsigned l = 0; l < WarpSize; l++)
		smt_r(t, r)[l] = v;
}

static uint32_t
f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* ---------------------------------------------------------------------------------------------
 * Loads and stores.
 */

/* LDG of every width: lane l loads at byte l * size of a buffer holding bytes 0x80 + i */
static const struct { const char *ins; unsigned size; uint32_t want[4]; } ldg_cases[] = {
	/* lane 3: bytes 0x83; 0x86,0x87; ...; sign extension from bit 7 / 15 */
	{"LDG.E.U8 R4, [R2.64] ;", 1, {0x83}},
	{"LDG.E.S8 R4, [R2.64] ;", 1, {0xffffff83}},
	{"LDG.E.U16 R4, [R2.64] ;", 2, {0x8786}},
	{"LDG.E.S16.CONSTANT R4, [R2.64] ;", 2, {0xffff8786}},
	{"LDG.E R4, [R2.64] ;", 4, {0x8f8e8d8c}},
	{"LDG.E.64.STRONG.GPU R4, [R2.64] ;", 8, {0x9b9a9998, 0x9f9e9d9c}},
	{"LDG.E.128.CONSTANT R4, [R2.64] ;", 16, {0xb3b2b1b0, 0xb7b6b5b4, 0xbbbab9b8, 0xbfbebdbc}},
	{"LDG.E.EL R4, desc[UR4][R2.64] ;", 4, {0x8f8e8d8c}},
};

START_TEST(test_ldg_widths)
{
	Smt *t = smt_new(ldg_cases[_i].ins, 0, 0);
	unsigned n = ldg_cases[_i].size;
	uint64_t a = smt_alloc(t, 32 * 16);
	uint8_t buf[512];

	for (unsigned k = 0; k < sizeof buf; k++)
		buf[k] = (uint8_t)(0x80 + k);
	gpu_write(t->gpu, a, buf, sizeof buf);
	set_addr(t, 2, a, n);
	set_all(t, 7, 0xdeadbeef);
	ck_assert_int_eq(smt_exec(t, 0, 1u << 3 | 1u << 0), FaultNone);
	for (unsigned k = 0; k < (n + 3) / 4; k++)
		ck_assert_uint_eq(smt_r(t, 4 + k)[3], ldg_cases[_i].want[k]);
	ck_assert_uint_eq(smt_r(t, 4)[0] & 0xff, 0x80);
	/* lanes outside the mask are untouched */
	ck_assert_uint_eq(smt_r(t, 4)[1], 0);
	if (n < 16)
		ck_assert_uint_eq(smt_r(t, 7)[3], 0xdeadbeef);
	smt_free(t);
}
END_TEST

/* STG of every width: lane l stores its registers at l * size; RZ stores zeros */
START_TEST(test_stg_widths)
{
	static const struct { const char *ins; unsigned size; } c[] = {
		{"STG.E.U8 [R2.64], R4 ;", 1}, {"STG.E.U16 [R2.64], R4 ;", 2},
		{"STG.E [R2.64+0x4], R4 ;", 4}, {"STG.E.64 [R2.64], R4 ;", 8},
		{"STG.E.128.STRONG.SYS [R2.64], R4 ;", 16}, {"STG.E.64 [R2.64], RZ ;", 8},
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		Smt *t = smt_new(c[k].ins, 0, 0);
		unsigned n = c[k].size, off = strstr(c[k].ins, "0x4") ? 4 : 0;
		uint64_t a = smt_alloc(t, 32 * 16 + 8);
		uint8_t buf[32 * 16 + 8], want[32 * 16 + 8];

		memset(buf, 0x55, sizeof buf);
		gpu_write(t->gpu, a, buf, sizeof buf);
		memcpy(want, buf, sizeof want);
		set_addr(t, 2, a, n);
		for (unsigned l = 0; l < WarpSize; l++)
			for (unsigned j = 0; j < 4; j++)
				smt_r(t, 4 + j)[l] = 0x01020304u * (l + 1) + j * 0x10101010u;
		ck_assert_int_eq(smt_exec(t, 0, 0xfffffffe), FaultNone);
		for (unsigned l = 1; l < WarpSize; l++)
			for (unsigned b = 0; b < n; b++)
				want[l * n + off + b] = strstr(c[k].ins, "RZ") ? 0 :
				    (uint8_t)(smt_r(t, 4 + b / 4)[l] >> 8 * (b % 4));
		gpu_read(t->gpu, a, buf, sizeof buf);
		ck_assert_msg(memcmp(buf, want, sizeof buf) == 0, "%s", c[k].ins);
		smt_free(t);
	}
}
END_TEST

START_TEST(test_ldg_misaligned)
{
	Smt *t = smt_new("LDG.E.64 R4, [R2.64+0x4] ;", 0, 0);
	uint64_t a = smt_alloc(t, 256);

	set_addr(t, 2, a, 8);
	ck_assert_int_eq(smt_exec(t, 0, 0x1), FaultMisaligned);
	ck_assert_ptr_nonnull(strstr(t->fault.msg, "misaligned"));
	smt_free(t);
}
END_TEST

START_TEST(test_ldg_oob)
{
	Smt *t = smt_new("LDG.E R4, [R2.64] ;", 0, 0);
	uint64_t a = smt_alloc(t, 64);
	char want[32];

	/* lanes 0..15 in bounds, lane 16 reads the first byte past the allocation */
	set_addr(t, 2, a, 4);
	ck_assert_int_eq(smt_exec(t, 0, 0xffffffff), FaultOOB);
	snprintf(want, sizeof want, "%llx", (unsigned long long)(a + 64));
	ck_assert_msg(strstr(t->fault.msg, want) != NULL, "%s", t->fault.msg);
	ck_assert_msg(strstr(t->fault.msg, "lane 16 ") != NULL, "%s", t->fault.msg);
	smt_free(t);
}
END_TEST

/* shared memory: [R + UR + imm], the .X4/.X16 scaled index, STS then LDS of each width */
START_TEST(test_lds_sts)
{
	Smt *t = smt_new("STS [R0.X4+0x10], R4 ;\n"
	                 "LDS R5, [R1+UR6] ;\n"
	                 "STS.128 [R0.X16+0x100], R8 ;\n"
	                 "LDS.128 R12, [UR6+0xf0] ;\n"
	                 "LDS.U16 R16, [R1+0x2] ;\n"
	                 "LDS.S8 R17, [R1+0x3] ;\n"
	                 "STS.U8 [R0+0x300], R4 ;\n"
	                 "LDS.64 R18, [R2+-0x8] ;\n", 1024, 0);

	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 0)[l] = l;
		smt_r(t, 1)[l] = 0x10 + 4 * ((l + 1) % 32);
		smt_r(t, 2)[l] = 0x108;
		smt_r(t, 4)[l] = 0x80818283u + l;
		for (unsigned j = 0; j < 4; j++)
			smt_r(t, 8 + j)[l] = l << 8 | j;
	}
	t->w.ur[6] = 0x10;
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	ck_assert_uint_eq(t->smem[0x10 + 4 * 7], 0x83 + 7);
	ck_assert_int_eq(smt_exec(t, 1, ~0u), FaultNone);
	/* lane 3: 0x10 + 4 * 4 + UR6 = 0x30, the word lane 8 stored */
	ck_assert_uint_eq(smt_r(t, 5)[3], 0x80818283u + 8);
	ck_assert_int_eq(smt_exec(t, 2, ~0u), FaultNone);
	ck_assert_int_eq(smt_exec(t, 3, 1), FaultNone);     /* 0x100 = lane 0 of the STS.128 */
	for (unsigned j = 0; j < 4; j++)
		ck_assert_uint_eq(smt_r(t, 12 + j)[0], j);
	ck_assert_int_eq(smt_exec(t, 4, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 16)[0], 0x8081);         /* high half of lane 1's word */
	ck_assert_int_eq(smt_exec(t, 5, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 17)[0], 0xffffff80u);  /* byte 3 of lane 0's word, 0x80 */
	ck_assert_int_eq(smt_exec(t, 6, ~0u), FaultNone);
	ck_assert_uint_eq(t->smem[0x300 + 5], 0x83 + 5);
	ck_assert_int_eq(smt_exec(t, 7, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 18)[9], 0);            /* 0x100: words 0, 1 of lane 0 */
	ck_assert_uint_eq(smt_r(t, 19)[9], 1);
	smt_free(t);
}
END_TEST

START_TEST(test_lds_oob)
{
	Smt *t = smt_new("LDS.64 R4, [R0] ;\nSTS [R0+0x2], R4 ;", 256, 0);

	set_all(t, 0, 0xf8);
	smt_r(t, 0)[5] = 0x100;
	ck_assert_int_eq(smt_exec(t, 0, 0x1), FaultNone);
	ck_assert_int_eq(smt_exec(t, 0, 0x20), FaultOOB);
	ck_assert_int_eq(smt_exec(t, 1, 0x1), FaultMisaligned);
	smt_free(t);
}
END_TEST

/* local memory: each thread has its own window */
START_TEST(test_ldl_stl)
{
	Smt *t = smt_new("STL.64 [R1+0x8], R4 ;\nLDL R6, [R1+0xc] ;\nSTL.128 [R1+0x10], R8 ;\n"
	                 "LDL.128 R12, [R1+0x10] ;\nLDL.U8 R16, [R1+0x9] ;", 0, 64);

	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 1)[l] = 0;
		smt_r(t, 4)[l] = 0x1000 + l;
		smt_r(t, 5)[l] = 0x2000 + l;
		for (unsigned j = 0; j < 4; j++)
			smt_r(t, 8 + j)[l] = l * 4 + j;
	}
	for (unsigned k = 0; k < 5; k++)
		ck_assert_int_eq(smt_exec(t, k, ~0u), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++) {
		ck_assert_uint_eq(smt_r(t, 6)[l], 0x2000 + l);
		for (unsigned j = 0; j < 4; j++)
			ck_assert_uint_eq(smt_r(t, 12 + j)[l], l * 4 + j);
		ck_assert_uint_eq(smt_r(t, 16)[l], 0x10);
	}
	smt_r(t, 1)[2] = 64;
	ck_assert_int_eq(smt_exec(t, 1, 0x4), FaultOOB);
	smt_free(t);
}
END_TEST

/* generic LD/ST reach global memory and the shared window */
START_TEST(test_ld_st_generic)
{
	Smt *t = smt_new("ST.E [R2.64], R4 ;\nLD.E.64 R6, [R2.64] ;\nLD.E R8, [R2+0x4] ;", 256, 0);
	uint64_t g = smt_alloc(t, 256), s = smt_shared_generic(t, 0x40);

	set_all(t, 4, 0x11223344);
	set_addr(t, 2, g, 8);
	smt_r(t, 2)[1] = (uint32_t)s;
	smt_r(t, 3)[1] = (uint32_t)(s >> 32);
	ck_assert_int_eq(smt_exec(t, 0, 0x3), FaultNone);
	ck_assert_uint_eq(t->smem[0x40], 0x44);
	ck_assert_int_eq(smt_exec(t, 1, 0x3), FaultNone);
	ck_assert_uint_eq(smt_r(t, 6)[0], 0x11223344);
	ck_assert_uint_eq(smt_r(t, 6)[1], 0x11223344);
	ck_assert_uint_eq(smt_r(t, 7)[1], 0);
	ck_assert_int_eq(smt_exec(t, 2, 0x3), FaultNone);   /* [R2] of a .E access is 64-bit */
	ck_assert_uint_eq(smt_r(t, 8)[1], 0);
	smt_free(t);
}
END_TEST

/* LDC with a per-lane index and the sizes; ULDC.64 */
START_TEST(test_ldc)
{
	Smt *t = smt_new("LDC R4, c[0x3][R0+0x10] ;\nLDC.64 R6, c[0x0][0x160] ;\n"
	                 "LDC.S8 R8, c[0x3][0x13] ;\nLDC.U16 R9, c[0x3][R1+0x12] ;\n"
	                 "ULDC.64 UR4, c[0x0][0x160] ;\nULDC.U8 UR6, c[0x3][0x11] ;\n"
	                 "LDC R10, c[0x3][UR7+0x4] ;", 0, 0);

	for (unsigned k = 0; k < 8; k++)
		smt_setconst(t, 3, 0x10 + 4 * k, 0x80a0b0c0u + k);
	smt_setconst(t, 0, 0x160, 0x1234);
	smt_setconst(t, 0, 0x164, 0x5678);
	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 0)[l] = 4 * (l % 8);
		smt_r(t, 1)[l] = 0;
	}
	smt_warp(t)->ur[7] = 0x18;
	for (unsigned k = 0; k < 7; k++)
		ck_assert_int_eq(smt_exec(t, k, ~0u), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[13], 0x80a0b0c0u + 5);
	ck_assert_uint_eq(smt_r(t, 10)[20], 0x80a0b0c0u + 3);
	ck_assert_uint_eq(smt_r(t, 6)[0], 0x1234);
	ck_assert_uint_eq(smt_r(t, 7)[31], 0x5678);
	ck_assert_uint_eq(smt_r(t, 8)[2], 0xffffff80u);
	ck_assert_uint_eq(smt_r(t, 9)[2], 0x80a0);
	ck_assert_uint_eq(t->w.ur[4], 0x1234);
	ck_assert_uint_eq(t->w.ur[5], 0x5678);
	ck_assert_uint_eq(t->w.ur[6], 0xb0);
	smt_r(t, 1)[7] = 1;
	ck_assert_int_eq(smt_exec(t, 3, ~0u), FaultMisaligned);
	smt_free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Atomics.
 */

/* every lane adds to one word: lanes are applied in ascending order, each sees the sum of the
 * lanes below it */
START_TEST(test_atomg_add_contention)
{
	Smt *t = smt_new("ATOMG.E.ADD.STRONG.GPU PT, R4, [R2.64+0x4], R6 ;\n"
	                 "REDG.E.ADD.STRONG.GPU desc[UR4][R2.64+0x4], R6 ;", 0, 0);
	uint64_t a = smt_alloc(t, 16);
	uint32_t v = 1000, got;

	gpu_write(t->gpu, a + 4, &v, 4);
	set_addr(t, 2, a, 0);
	for (unsigned l = 0; l < WarpSize; l++)
		smt_r(t, 6)[l] = l + 1;
	ck_assert_int_eq(smt_exec(t, 0, ~0u), FaultNone);
	for (unsigned l = 0; l < WarpSize; l++)
		ck_assert_uint_eq(smt_r(t, 4)[l], 1000 + l * (l + 1) / 2);
	gpu_read(t->gpu, a + 4, &got, 4);
	ck_assert_uint_eq(got, 1000 + 32 * 33 / 2);
	ck_assert_int_eq(smt_exec(t, 1, 0x5), FaultNone);
	gpu_read(t->gpu, a + 4, &got, 4);
	ck_assert_uint_eq(got, 1000 + 32 * 33 / 2 + 1 + 3);
	smt_free(t);
}
END_TEST

/* CAS: the compare value is the old one only for the first lane; CAST.SPIN returns success */
START_TEST(test_atom_cas)
{
	Smt *t = smt_new("ATOMG.E.CAS.STRONG.GPU PT, R4, [R2], R6, R7 ;\n"
	                 "ATOMG.E.CAS.64.STRONG.GPU PT, R8, [R2+0x8], R10, R12 ;\n"
	                 "ATOMS.CAST.SPIN R5, [R0], R6, R7 ;\n"
	                 "ATOMS.CAST.SPIN.64 R14, [R0+0x8], R10, R12 ;", 64, 0);
	uint64_t a = smt_alloc(t, 16), a64;
	uint32_t w[4] = {7, 0, 0x89abcdef, 0x1234};

	gpu_write(t->gpu, a, w, 16);
	set_addr(t, 2, a, 0);
	set_all(t, 6, 7);
	set_all(t, 10, 0x89abcdef);
	set_all(t, 11, 0x1234);
	for (unsigned l = 0; l < WarpSize; l++) {
		smt_r(t, 7)[l] = 100 + l;
		smt_r(t, 12)[l] = 200 + l;
		smt_r(t, 13)[l] = 300 + l;
		smt_r(t, 0)[l] = 0;
	}
	ck_assert_int_eq(smt_exec(t, 0, 0xf0), FaultNone);
	ck_assert_uint_eq(smt_r(t, 4)[4], 7);
	ck_assert_uint_eq(smt_r(t, 4)[5], 104);
	ck_assert_uint_eq(smt_r(t, 4)[7], 104);
	ck_assert_int_eq(smt_exec(t, 1, 0x6), FaultNone);
	ck_assert_uint_eq(smt_r(t, 8)[1], 0x89abcdef);
	ck_assert_uint_eq(smt_r(t, 9)[1], 0x1234);
	ck_assert_uint_eq(smt_r(t, 8)[2], 201);
	ck_assert_uint_eq(smt_r(t, 9)[2], 301);
	gpu_read(t->gpu, a + 8, &a64, 8);
	ck_assert_uint_eq(a64, (uint64_t)301 << 32 | 201);
	memcpy(t->smem, (uint32_t[]){7}, 4);
	ck_assert_int_eq(smt_exec(t, 2, 0xc), FaultNone);
	ck_assert_uint_eq(smt_r(t, 5)[2], 1);
	ck_assert_uint_eq(smt_r(t, 5)[3], 0);
	ck_assert_uint_eq(t->smem[0], 102);
	memcpy(t->smem + 8, (uint32_t[]){0x89abcdef, 0x1234}, 8);
	ck_assert_int_eq(smt_exec(t, 3, 0x3), FaultNone);
	ck_assert_uint_eq(smt_r(t, 14)[0], 1);
	ck_assert_uint_eq(smt_r(t, 15)[0], 0);
	ck_assert_uint_eq(smt_r(t, 14)[1], 0);
	smt_free(t);
}
END_TEST

/* the integer operations with their types, one lane at a time on distinct words */
static const struct {
	const char *ins;
	uint64_t old, b, want_mem;
} atom_cases[] = {
	{"ATOMG.E.MIN.S32.STRONG.GPU PT, R4, [R2.64], R6 ;", 5, 0xfffffffe, 0xfffffffe},
	{"ATOMG.E.MIN.STRONG.GPU PT, R4, [R2.64], R6 ;", 5, 0xfffffffe, 5},
	{"ATOMG.E.MAX.S32.STRONG.GPU PT, R4, [R2.64], R6 ;", 5, 0xfffffffe, 5},
	{"ATOMG.E.MAX.STRONG.GPU PT, R4, [R2.64], R6 ;", 5, 0xfffffffe, 0xfffffffe},
	{"ATOMG.E.INC.STRONG.GPU PT, R4, [R2.64], R6 ;", 9, 9, 0},
	{"ATOMG.E.INC.STRONG.GPU PT, R4, [R2.64], R6 ;", 8, 9, 9},
	{"ATOMG.E.DEC.STRONG.GPU PT, R4, [R2.64], R6 ;", 0, 9, 9},
	{"ATOMG.E.DEC.STRONG.GPU PT, R4, [R2.64], R6 ;", 12, 9, 9},
	{"ATOMG.E.DEC.STRONG.GPU PT, R4, [R2.64], R6 ;", 5, 9, 4},
	{"ATOMG.E.AND.STRONG.GPU PT, R4, [R2.64], R6 ;", 0xff00, 0x0ff0, 0x0f00},
	{"ATOMG.E.OR.STRONG.GPU PT, R4, [R2.64], R6 ;", 0xff00, 0x0ff0, 0xfff0},
	{"ATOMG.E.XOR.STRONG.GPU PT, R4, [R2.64], R6 ;", 0xff00, 0x0ff0, 0xf0f0},
	{"ATOMG.E.EXCH.STRONG.GPU PT, R4, [R2.64], R6 ;", 3, 4, 4},
	{"ATOMG.E.ADD.64.STRONG.GPU PT, R4, [R2.64], R6 ;", 0xffffffff, 1, 0x100000000},
	{"ATOMG.E.MIN.S64.STRONG.GPU PT, R4, [R2.64], R6 ;", 1, 0xffffffffffffff00, 0xffffffffffffff00},
	{"ATOMG.E.MAX.64.STRONG.GPU PT, R4, [R2.64], R6 ;", 1, 0xffffffffffffff00, 0xffffffffffffff00},
	{"ATOMG.E.AND.64.STRONG.GPU PT, R4, [R2.64], R6 ;", 0xff00000000ff, 0xf0000000f0f, 0xf000000000f},
	{"ATOMG.E.EXCH.64.STRONG.GPU PT, R4, [R2.64], R6 ;", 1, 0x500000006, 0x500000006},
	{"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R4, [R2.64], R6 ;", 0x3f800000, 0x40000000, 0x40400000},
	/* FTZ: a denormal input is zero, 2^-126 - 2^-127 flushes to zero */
	{"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R4, [R2.64], R6 ;", 0x00000001, 0x3f800000, 0x3f800000},
	{"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R4, [R2.64], R6 ;", 0x00c00000, 0x80800000, 0},
	{"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R4, [R2.64], R6 ;", 0x7f800000, 0xff800000, 0x7fffffff},
	{"ATOMG.E.ADD.F64.RN.STRONG.GPU PT, R4, [R2.64], R6 ;", 0x3ff0000000000000, 0x3ca0000000000000,
	 0x3ff0000000000000},  /* 1 + 2^-53 ties to even */
	/* f16x2: 1 + 2 = 3 (0x4200), 1024 + 0.5 ties to even 1024 (0x6400) */
	{"ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R4, [R2.64], R6 ;", 0x64003c00, 0x38004000, 0x64004200},
	/* bf16x2: 1 + 1 = 2 (0x4000); 256 + 1 = 257 rounds to 256 (0x4380) */
	{"ATOM.E.ADD.BF16x2.RN.STRONG.GPU P0, R4, [R2.64], R6 ;", 0x43803f80, 0x3f803f80, 0x43804000},
	{"ATOMS.ADD R4, [R0], R6 ;", 40, 2, 42},
	{"ATOMS.EXCH R4, [R0], R6 ;", 40, 2, 2},
	{"ATOMS.MIN.S32 R4, [R0], R6 ;", 40, 0xffffffff, 0xffffffff},
};

START_TEST(test_atom_ops)
{
	Smt *t = smt_new(atom_cases[_i].ins, 64, 0);
	uint64_t a = smt_alloc(t, 64), got = 0, old = atom_cases[_i].old, b = atom_cases[_i].b;
	int sh = strstr(atom_cases[_i].ins, "ATOMS") != NULL;
	int w64 = strstr(atom_cases[_i].ins, "64.") != NULL && !strstr(atom_cases[_i].ins, "F64") ?
	          1 : strstr(atom_cases[_i].ins, "F64") != NULL;

	if (sh)
		memcpy(t->smem + 8, &old, 8);
	else
		gpu_write(t->gpu, a + 8, &old, 8);
	set_addr(t, 2, a + 8, 0);
	set_all(t, 0, 8);
	set_all(t, 6, (uint32_t)b);
	set_all(t, 7, (uint32_t)(b >> 32));
	ck_assert_int_eq(smt_exec(t, 0, 1u << 9), FaultNone);
	if (sh)
		memcpy(&got, t->smem + 8, 8);
	else
		gpu_read(t->gpu, a + 8, &got, 8);
	if (!w64)
		got &= 0xffffffff;
	ck_assert_msg(got == atom_cases[_i].want_mem, "%s: memory 0x%llx, want 0x%llx",
	              atom_cases[_i].ins, (unsigned long long)got,
	              (unsigned long long)atom_cases[_i].want_mem);
	ck_assert_uint_eq(smt_r(t, 4)[9], (uint32_t)old);
	if (w64)
		ck_assert_uint_eq(smt_r(t, 5)[9], (uint32_t)(old >> 32));
	smt_free(t);
}
END_TEST

/* the predicate of a generic ATOM is set (performed) for the executing lanes; vector f32 adds */
START_TEST(test_atom_vector)
{
	Smt *t = smt_new("ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU P1, RZ, [R2.64], R5 ;\n"
	                 "ATOMG.E.ADD.F32x4.FTZ.RN.STRONG.GPU PT, R4, desc[UR4][R2.64+0x10], R8 ;\n"
	                 "ATOMG.E.EXCH.128.STRONG.GPU PT, RZ, [R2.64+0x10], R8 ;", 0, 0);
	uint64_t a = smt_alloc(t, 64);
	float f[8] = {1, 2, 3, 4, 5, 6, 7, 8}, g[8];

	gpu_write(t->gpu, a, f, sizeof f);
	set_addr(t, 2, a, 0);
	set_all(t, 5, f2u(0.5f));
	for (unsigned j = 0; j < 4; j++)
		set_all(t, 8 + j, f2u((float)(j + 1) * 10));
	t->w.p[1] = 0;
	ck_assert_int_eq(smt_exec(t, 0, 0x6), FaultNone);
	ck_assert_uint_eq(t->w.p[1], 0x6);
	ck_assert_int_eq(smt_exec(t, 1, 0x1), FaultNone);
	gpu_read(t->gpu, a, g, sizeof g);
	ck_assert(g[0] == 2.0f && g[4] == 15.0f && g[7] == 48.0f);
	ck_assert_uint_eq(smt_r(t, 5)[0], f2u(6.0f));
	smt_r(t, 2)[0] += 4;
	ck_assert_int_eq(smt_exec(t, 1, 0x1), FaultMisaligned);
	ck_assert_int_eq(smt_exec(t, 2, 0x2), FaultNone);
	gpu_read(t->gpu, a, g, sizeof g);
	ck_assert(g[4] == 10.0f && g[7] == 40.0f);
	smt_free(t);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * cp.async and the sm_80 mbarrier.
 */
START_TEST(test_ldgsts)
{
	Smt *t = smt_new("LDGSTS.E.BYPASS.128 [R0+0x100], [R2.64] ;\n"
	                 "LDGSTS.E.BYPASS.128.ZFILL [R0+0x200], [R2.64+0xc] ;\n"
	                 "LDGSTS.E.64 [R0], [R2.64], !P0 ;\n"
	                 "LDGSTS.E.ZFILL [R0+0x300], [R2.64+0x1], P0 ;\n"
	                 "LDGDEPBAR ;", 1024, 0);
	uint64_t a = smt_alloc(t, 16);
	uint8_t src[16], z[16] = {0};

	for (unsigned k = 0; k < 16; k++)
		src[k] = (uint8_t)(0xa0 + k);
	gpu_write(t->gpu, a, src, 16);
	set_addr(t, 2, a, 0);
	set_all(t, 0, 0);
	smt_r(t, 0)[1] = 0x10;
	memset(t->smem, 0xee, 1024);
	ck_assert_int_eq(smt_exec(t, 0, 0x3), FaultNone);
	ck_assert_int_eq(memcmp(t->smem + 0x100, src, 16), 0);
	ck_assert_int_eq(memcmp(t->smem + 0x110, src, 16), 0);
	/* src-size 4 of 16: 12 bytes of zeros after the first 4 */
	ck_assert_int_eq(smt_exec(t, 1, 0x1), FaultNone);
	ck_assert_int_eq(memcmp(t->smem + 0x200, src, 4), 0);
	ck_assert_int_eq(memcmp(t->smem + 0x204, z, 12), 0);
	/* the predicate false: zeros, nothing read */
	t->w.p[0] = ~0u;
	ck_assert_int_eq(smt_exec(t, 2, 0x1), FaultNone);
	ck_assert_int_eq(memcmp(t->smem, z, 8), 0);
	t->w.p[0] = 0;
	ck_assert_int_eq(smt_exec(t, 2, 0x1), FaultNone);
	ck_assert_int_eq(memcmp(t->smem, src, 8), 0);
	t->w.p[0] = ~0u;
	ck_assert_int_eq(smt_exec(t, 3, 0x1), FaultNone);
	ck_assert_int_eq(memcmp(t->smem + 0x300, src, 3), 0);
	ck_assert_uint_eq(t->smem[0x303], 0);
	ck_assert_int_eq(smt_exec(t, 4, 0x1), FaultNone);
	/* a misaligned source without .ZFILL faults */
	smt_r(t, 2)[0] += 8;
	ck_assert_int_eq(smt_exec(t, 0, 0x1), FaultMisaligned);
	smt_free(t);
}
END_TEST

/* mbarrier.init(count 3) as nvcc stores it, then arrivals: the phase bit of word 1 flips on the
 * third, and the pending count reloads */
START_TEST(test_mbarrier_arrive)
{
	Smt *t = smt_new("ATOMS.ARRIVE.64 R2, [URZ+0x40] ;\nARRIVES.LDGSTSBAR.64 [URZ+0x40] ;", 128, 0);
	uint32_t w[2] = {0x40000000u - 3, 0x80000000u - 3};

	memcpy(t->smem + 0x40, w, 8);
	ck_assert_int_eq(smt_exec(t, 0, 0x3), FaultNone);
	ck_assert_uint_eq(smt_r(t, 3)[0], 0x80000000u - 3);
	ck_assert_uint_eq(smt_r(t, 3)[1], 0x80000000u - 2);
	ck_assert_uint_eq(smt_r(t, 2)[1], 0x40000000u - 3);
	memcpy(w, t->smem + 0x40, 8);
	ck_assert_uint_eq(w[1] >> 31, 0);
	ck_assert_int_eq(smt_exec(t, 1, 0x4), FaultNone);
	memcpy(w, t->smem + 0x40, 8);
	ck_assert_uint_eq(w[1], 0x80000000u | (0x80000000u - 3));
	ck_assert_int_eq(smt_exec(t, 1, 0x7), FaultNone);
	memcpy(w, t->smem + 0x40, 8);
	ck_assert_uint_eq(w[1], 0x80000000u - 3);
	smt_free(t);
}
END_TEST

/* isspacep: the generic windows of shared and local memory, and the rest */
START_TEST(test_qspc)
{
	Smt *t = smt_new("QSPC.E.S P0, RZ, [R2] ;\nQSPC.E.L P1, RZ, [R2] ;\nQSPC.E.G P2, RZ, [R2] ;\n"
	                 "QSPC.E.D P3, RZ, [R2.64+0x4] ;", 64, 16);
	uint64_t a[4] = {smt_shared_generic(t, 0x10), SimLocalWindow + 8, smt_alloc(t, 16),
	                 SimSharedWindow - 8};

	for (unsigned l = 0; l < 4; l++) {
		smt_r(t, 2)[l] = (uint32_t)a[l];
		smt_r(t, 3)[l] = (uint32_t)(a[l] >> 32);
	}
	for (unsigned k = 0; k < 4; k++)
		ck_assert_int_eq(smt_exec(t, k, 0xf), FaultNone);
	ck_assert_uint_eq(smt_warp(t)->p[0], 0x1);
	ck_assert_uint_eq(smt_warp(t)->p[1], 0x2);
	ck_assert_uint_eq(smt_warp(t)->p[2], 0xc);
	ck_assert_uint_eq(smt_warp(t)->p[3], 0x1);
	smt_free(t);
}
END_TEST

/* modifiers and forms that are not executed are rejected when decoding, with the name */
START_TEST(test_mem_reject)
{
	static const char *const bad[] = {
		"LDG.E.FOO R4, [R2.64] ;", "ATOMG.E.INC.64.STRONG.GPU PT, R4, [R2.64], R6 ;",
		"ARRIVES.LDGSTSBAR.64.TRANSCNT [UR7] ;", "ATOMS.POPC.INC R4, [R2], R6 ;",
		"LDS.64 R5, [R2] ;",
	};
	for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(!smt_decodes(bad[k]), "%s accepted", bad[k]);
}
END_TEST

Suite *
simmem_suite(void)
{
	Suite *s = suite_create("simmem");
	TCase *tc = tcase_create("ldst");

	tcase_add_loop_test(tc, test_ldg_widths, 0, sizeof ldg_cases / sizeof ldg_cases[0]);
	tcase_add_test(tc, test_stg_widths);
	tcase_add_test(tc, test_ldg_misaligned);
	tcase_add_test(tc, test_ldg_oob);
	tcase_add_test(tc, test_lds_sts);
	tcase_add_test(tc, test_lds_oob);
	tcase_add_test(tc, test_ldl_stl);
	tcase_add_test(tc, test_ld_st_generic);
	tcase_add_test(tc, test_ldc);
	tcase_add_test(tc, test_qspc);
	tcase_add_test(tc, test_mem_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("atomic");
	tcase_add_test(tc, test_atomg_add_contention);
	tcase_add_test(tc, test_atom_cas);
	tcase_add_loop_test(tc, test_atom_ops, 0, sizeof atom_cases / sizeof atom_cases[0]);
	tcase_add_test(tc, test_atom_vector);
	suite_add_tcase(s, tc);
	tc = tcase_create("async");
	tcase_add_test(tc, test_ldgsts);
	tcase_add_test(tc, test_mbarrier_arrive);
	suite_add_tcase(s, tc);
	return s;
}
