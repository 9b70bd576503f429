/* check_fiber_isa.c: the FIBER ISA in the IR: pools and .maxfibers, pool operands, the exact
 * slots of SETBUSYBIT/DEPBAR ranges, and the encoding extension (ir/fenc.c): every FIBER form
 * encodes and decodes back, V sources of FFMA/IADD3/HMMA take the extension bits and leave the
 * original word's other bits alone, and forms beyond the budget are refused with a reason; the
 * field accessors of fenc.h and enc.h touch exactly their bits. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "enc.h"
#include "fenc.h"

typedef struct Irt Irt;       /* check_cfg.c */
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
const char *irt_errors(Irt *t);

START_TEST(test_fiber_pools)
{
	Irt *t = irt_new("\t.maxfibers\t256\n\t.pool\tkv, 64\n\t.pool\tq, 16\n\t.pool\tacc, 32, 2\n"
	                 "FFMA R2, R3, kv[2], q[0xf] ;\nEXIT ;\n");
	Fn *f = irt_fn(t);

	ck_assert_int_eq(f->info.maxfibers, 256);
	ck_assert_uint_eq(f->npool, 3);
	ck_assert_uint_eq(f->pool[0].base, 448);          /* 512 - 64 */
	ck_assert_uint_eq(f->pool[1].base, 432);          /* 448 - 16 */
	ck_assert_uint_eq(f->pool[2].base, 2 * 512 + 480);
	ck_assert_int_eq(f->ins[0].opnd[2].r[0], REG(RV, 450));
	ck_assert(f->ins[0].opnd[2].flags & FPoolRef);
	ck_assert_int_eq(f->ins[0].opnd[2].imm, 2);
	ck_assert_int_eq(f->ins[0].opnd[3].r[0], REG(RV, 447));
	irt_free(t);
}
END_TEST

START_TEST(test_fiber_range_slots)
{
	Irt *t = irt_new("DEPBAR.FULL V130, 0x4 ;\nSETBUSYBIT.EMPTY R4, 0x2 ;\nDEPBAR.LE SB0, 0x1 ;\n"
	                 "SETFIBERNUM UR4, 0x20 ;\nEXIT ;\n");
	Fn *f = irt_fn(t);

	ck_assert_int_eq(op_slots(f, &f->ins[0]), 0);
	ck_assert_uint_eq(f->ins[0].nslot, 1);
	ck_assert_int_eq(f->ins[0].slot[0].kind, SUse);
	ck_assert_uint_eq(f->ins[0].slot[0].n, 4);
	ck_assert_int_eq(f->ins[0].slot[0].reg, REG(RV, 130));
	ck_assert_int_eq(op_slots(f, &f->ins[1]), 0);
	ck_assert_uint_eq(f->ins[1].slot[0].n, 2);
	ck_assert_int_eq(op_slots(f, &f->ins[2]), 0);
	for (unsigned k = 0; k < f->ins[2].nslot; k++)
		ck_assert(RCLS(f->ins[2].slot[k].reg) != RR && RCLS(f->ins[2].slot[k].reg) != RV);
	ck_assert_int_eq(op_slots(f, &f->ins[3]), 0);
	ck_assert_uint_eq(f->ins[3].nslot, 1);
	ck_assert_int_eq(f->ins[3].slot[0].reg, REG(RUR, 4));
	irt_free(t);
}
END_TEST

START_TEST(test_fiber_encode_native)
{
	Irt *t = irt_new("SETFIBERNUM 0x100, 0x10 ;\nSETFIBERNUM UR5 ;\nSETBUSYBIT.EMPTY V1300, 0x20 ;\n"
	                 "SETBUSYBIT.FULL R10 ;\nDEPBAR.FULL V511, 0x4 ;\nDEPBAR.EMPTY R7 ;\nEXIT ;\n");
	Fn *f = irt_fn(t);
	uint64_t w[2];
	char why[128];
	FDec d;

	ck_assert_msg(fenc_encode_m(&f->ins[0], f->mod, w, why, sizeof why) == 0, "%s", why);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.op, OSETFIBERNUM);
	ck_assert_int_eq(d.count_ur, 0);
	ck_assert_uint_eq(d.count, 256);
	ck_assert_uint_eq(d.nreg, 16);
	ck_assert_uint_eq(GET_FIELD(w, FMARK), 1);
	ck_assert_int_eq(fenc_encode_m(&f->ins[1], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.count_ur, 1);
	ck_assert_uint_eq(d.count, 5);
	ck_assert_uint_eq(d.nreg, 0);
	ck_assert_int_eq(fenc_encode_m(&f->ins[2], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.op, OSETBUSYBIT);
	ck_assert_int_eq(d.mode, FencModeEmpty);
	ck_assert_uint_eq(d.n, 32);
	ck_assert_int_eq(d.abs[0], 1300);
	ck_assert_int_eq(fenc_encode_m(&f->ins[3], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.mode, FencModeFull);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_int_eq(d.abs[0], -1);
	ck_assert_uint_eq(d.field[0], 10);
	ck_assert_int_eq(fenc_encode_m(&f->ins[4], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.op, ODEPBAR);
	ck_assert_int_eq(d.mode, FencModeFull);
	ck_assert_int_eq(d.abs[0], 511);
	ck_assert_uint_eq(d.n, 4);
	ck_assert_int_eq(fenc_encode_m(&f->ins[5], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.mode, FencModeEmpty);
	ck_assert_uint_eq(d.field[0], 7);
	irt_free(t);
}
END_TEST

/* FFMA R2, R3, R4, R5 with nvcc's words; its V form keeps every bit but the register fields'
 * low bits and the extension */
START_TEST(test_fiber_encode_absolute)
{
	Irt *t = irt_new("FFMA R2, V1027, V300, V2047 ;\nIADD3 R2, R3, R4, V9 ;\n"
	                 "HMMA.16816.F32 R4, R8, V1800, R4 ;\nMOV V3, R2 ;\n"
	                 "SETFIBERNUM 0x2001 ;\nSETBUSYBIT.FULL R4, 0x21 ;\nEXIT ;\n");
	Fn *f = irt_fn(t);
	uint64_t w[2], orig[2] = { 0x0000000504037223ull, 0x000fe20000000000ull | (1ull << (101 - 64)) };
	char why[128];
	FDec d;
	const unsigned ext[] = { 92, 93, 94, 95, 96, 97, 98, 99, 100, 102, 103, 104, 126 };

	for (int k = 0; k < 3; k++) {
		f->ins[k].nenc = 2;
		f->ins[k].enc[0] = orig[0];
		f->ins[k].enc[1] = orig[1];
	}
	ck_assert_msg(fenc_encode_m(&f->ins[0], f->mod, w, why, sizeof why) == 0, "%s", why);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.abs[0], 1027);
	ck_assert_int_eq(d.abs[1], 300);
	ck_assert_int_eq(d.abs[2], 2047);
	ck_assert_int_eq(d.op, 0);
	/* outside the fields and the 13 extension bits the word is nvcc's */
	for (unsigned b = 0; b < 128; b++) {
		int skip = (b >= 24 && b < 40) || (b >= 64 && b < 72);
		for (unsigned j = 0; j < sizeof ext / sizeof ext[0]; j++)
			skip |= b == ext[j];
		if (!skip)
			ck_assert_uint_eq(GET_BITS128(w, b, 1), GET_BITS128(orig, b, 1));
	}
	ck_assert_uint_eq(GET_BITS128(w, 101, 1), 1);
	ck_assert_int_eq(fenc_encode_m(&f->ins[1], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.abs[0], -1);
	ck_assert_int_eq(d.abs[2], 9);
	ck_assert_int_eq(fenc_encode_m(&f->ins[2], f->mod, w, why, sizeof why), 0);
	fenc_decode(w, &d);
	ck_assert_int_eq(d.abs[1], 1800);
	f->ins[3].nenc = 2;
	ck_assert_int_eq(fenc_encode_m(&f->ins[3], f->mod, w, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "remote write"));
	ck_assert_int_eq(fenc_encode_m(&f->ins[4], f->mod, w, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "8192"));
	ck_assert_int_eq(fenc_encode_m(&f->ins[5], f->mod, w, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "1..32"));
	irt_free(t);
}
END_TEST

/* a pool write (local to the pool's slice): Rd names slice register 256 + Rd with bit 127; a
 * pool below the slice's upper half cannot be written */
START_TEST(test_fiber_encode_pool_dst)
{
	Irt *t = irt_new("\t.pool\tkv, 64, 1\n\t.pool\tlow, 300, 2\n"
	                 "MOV kv[3], R2 ;\nMOV low[0], R2 ;\nEXIT ;\n");
	Fn *f = irt_fn(t);
	uint64_t w[2], orig[2] = { 0x0000000200007202ull, 0x000fe20000000f00ull };
	char why[128];
	FDec d;

	for (int k = 0; k < 2; k++) {
		f->ins[k].nenc = 2;
		f->ins[k].enc[0] = orig[0];
		f->ins[k].enc[1] = orig[1];
	}
	/* kv = V(512 + 512 - 64) = V960: kv[3] is slice register 451 = 256 + 195 */
	ck_assert_msg(fenc_encode_m(&f->ins[0], f->mod, w, why, sizeof why) == 0, "%s", why);
	ck_assert_uint_eq(GET_BITS128(w, 127, 1), 1);
	ck_assert_uint_eq(GET_BITS128(w, 126, 1), 1);
	ck_assert_uint_eq(GET_BITS128(w, 16, 8), 195);
	ck_assert_uint_eq(GET_BITS128(w, 32, 8), 2);  /* MOV's source field (Rb) is nvcc's */
	fenc_decode(w, &d);
	ck_assert_int_eq(d.pool_dst, 451);
	/* low = V(1024 + 212): low[0] is slice register 212, below 256 */
	ck_assert_int_eq(fenc_encode_m(&f->ins[1], f->mod, w, why, sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "upper half"));
	fenc_decode(orig, &d);
	ck_assert_int_eq(d.pool_dst, -1);
	irt_free(t);
}
END_TEST

/* SET_FIELD and GET_FIELD of field f, which the layout puts at bits pos..pos+size-1 of the
 * instruction: it reads back what was written, and exactly those bits change */
static void
field_is(const char *name, uint64_t set0[2], uint64_t set1[2], unsigned got, unsigned pos,
         unsigned size)
{
	uint64_t want[2] = {0, 0};

	for (unsigned b = pos; b < pos + size; b++)
		want[b / 64] |= 1ull << (b % 64);
	ck_assert_msg(set1[0] == want[0] && set1[1] == want[1], "%s: ones at %016llx %016llx", name,
	              (unsigned long long)set1[1], (unsigned long long)set1[0]);
	ck_assert_msg(set0[0] == ~want[0] && set0[1] == ~want[1], "%s: zeros wrong", name);
	ck_assert_msg(got == (unsigned)((1ull << size) - 1), "%s: read back %x", name, got);
}

#define FIELD_IS(f, pos, size) do { \
		uint64_t zero[2] = {~0ull, ~0ull}, ones[2] = {0, 0}; \
		SET_FIELD(zero, f, 0); \
		SET_FIELD(ones, f, ~0ull); \
		field_is(#f, zero, ones, GET_FIELD(ones, f), pos, size); \
	} while (0)

/* the FIBER fields of fenc.h where docs/fiber-encoding.md puts them, and enc.h's the extension
 * builds on */
START_TEST(test_fiber_field_accessors)
{
	FIELD_IS(OPCODE, 0, 9);
	FIELD_IS(FORM, 9, 3);
	FIELD_IS(RD, 16, 8);
	FIELD_IS(RA, 24, 8);
	FIELD_IS(RB, 32, 8);
	FIELD_IS(RC, 64, 8);
	FIELD_IS(IMM, 32, 32);
	FIELD_IS(FABSA, 92, 1);
	FIELD_IS(FEXTA, 93, 3);
	FIELD_IS(FABSB, 96, 1);
	FIELD_IS(FEXTB, 97, 3);
	FIELD_IS(FABSC, 100, 1);
	FIELD_IS(FEXTC, 102, 3);
	FIELD_IS(FMARK, 126, 1);
	FIELD_IS(FPOOLDST, 127, 1);
	FIELD_IS(FCOUNT, 32, 32);
	FIELD_IS(FCOUNTUR, 32, 8);
	FIELD_IS(FNREG, 64, 8);
	FIELD_IS(FN, 32, 5);
	FIELD_IS(FMODE, 64, 2);
}
END_TEST

Suite *
fiber_isa_suite(void)
{
	Suite *s = suite_create("fiber_isa");
	TCase *t = tcase_create("fiber_isa");

	tcase_add_test(t, test_fiber_pools);
	tcase_add_test(t, test_fiber_range_slots);
	tcase_add_test(t, test_fiber_encode_native);
	tcase_add_test(t, test_fiber_encode_absolute);
	tcase_add_test(t, test_fiber_encode_pool_dst);
	tcase_add_test(t, test_fiber_field_accessors);
	suite_add_tcase(s, t);
	return s;
}
