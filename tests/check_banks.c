/* check_banks.c: the register-file conflict model of ir/banks.c, which timing/simt.c, timing/fsm.c
 * and the pass mma-banks share: the bank reads an instruction's sources make (slots, RZ, the same
 * register twice), the SIMT conflicts with and without the reuse cache (hits, eviction, another
 * warp's entry, the bank clamp), the FIBER slices, banks and windows, and the remote reads'
 * read-port and crossbar conflicts with the figures of docs/sim-timing.md.
 */
#include <check.h>
#include <string.h>

#include "banks.h"

/* a BankReads of n (register, slot) pairs */
static BankReads
reads(unsigned n, const unsigned *reg, const unsigned *slot)
{
	BankReads r;

	memset(&r, 0, sizeof r);
	r.n = (uint8_t)n;
	for (unsigned k = 0; k < n; k++) {
		r.reg[k] = (uint8_t)reg[k];
		r.slot[k] = (uint8_t)slot[k];
	}
	return r;
}

START_TEST(test_collect_slots)
{
	/* HMMA D, A=R4, B=R8, C=R12 sources; an immediate takes a slot, a predicate does not */
	uint8_t kind[] = {BankSrcOther, BankSrcR, BankSrcSlot, BankSrcR};
	uint16_t reg[] = {0, 4, 0, 12};
	BankReads r;

	bank_collect(kind, reg, 4, &r);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.reg[0], 4);
	ck_assert_uint_eq(r.slot[0], 0);
	ck_assert_uint_eq(r.reg[1], 12);
	ck_assert_uint_eq(r.slot[1], 2);
}
END_TEST

START_TEST(test_collect_rz_and_twice)
{
	/* FFMA R0, R2, R2, RZ: R2 counted once, RZ takes slot C and reads no bank */
	uint8_t kind[] = {BankSrcR, BankSrcR, BankSrcR};
	uint16_t reg[] = {2, 2, BankRZ};
	BankReads r;

	bank_collect(kind, reg, 3, &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.reg[0], 2);
	/* a fourth slot-taking source is past C */
	{
		uint8_t k4[] = {BankSrcSlot, BankSrcSlot, BankSrcSlot, BankSrcR};
		uint16_t r4[] = {0, 0, 0, 7};
		bank_collect(k4, r4, 4, &r);
		ck_assert_uint_eq(r.n, 0);
	}
}
END_TEST

START_TEST(test_simt_no_reuse)
{
	/* three reads of bank 0 (R4, R8, R12) on 2 banks: 2 conflicts; R4, R9: none */
	unsigned a[] = {4, 8, 12}, s[] = {0, 1, 2}, b[] = {4, 9};
	BankReads r = reads(3, a, s), q = reads(2, b, s);

	ck_assert_uint_eq(bank_simt_conflicts(&r, 2, 0, NULL, 0, 0, NULL), 2);
	ck_assert_uint_eq(bank_simt_conflicts(&q, 2, 0, NULL, 0, 0, NULL), 0);
	/* one bank: every read in it; banks past BankMax are clamped (R4, R8, R12 on 8 banks: 4, 0,
	 * 4 -> one conflict) */
	ck_assert_uint_eq(bank_simt_conflicts(&q, 1, 0, NULL, 0, 0, NULL), 1);
	ck_assert_uint_eq(bank_simt_conflicts(&r, 64, 0, NULL, 0, 0, NULL), 1);
}
END_TEST

START_TEST(test_simt_reuse_hit)
{
	/* HMMA R20, R40, R44.reuse, R20 ; HMMA R16, R12, R44, R16: the second's B hits */
	unsigned a1[] = {40, 44, 20}, a2[] = {12, 44, 16}, s[] = {0, 1, 2};
	BankReads r1 = reads(3, a1, s), r2 = reads(3, a2, s);
	BankReuse c;
	unsigned hits = 0;

	bank_reuse_clear(&c);
	ck_assert_uint_eq(bank_simt_conflicts(&r1, 2, 1, &c, 3, 1u << 1, &hits), 2);
	ck_assert_uint_eq(hits, 0);
	ck_assert_uint_eq(c.reg[1][0], 44);
	ck_assert_uint_eq(bank_simt_conflicts(&r2, 2, 1, &c, 3, 0, &hits), 1);
	ck_assert_uint_eq(hits, 1);
	/* the second read had no flag: it evicted the entry */
	ck_assert_uint_eq(c.reg[1][0], BankNoReg);
}
END_TEST

START_TEST(test_simt_reuse_other_warp)
{
	unsigned a[] = {40, 44, 20}, s[] = {0, 1, 2};
	BankReads r = reads(3, a, s);
	BankReuse c;
	unsigned hits = 0;

	bank_reuse_clear(&c);
	bank_simt_conflicts(&r, 2, 1, &c, 1, 7, &hits);
	/* warp 2 reads the same registers: no hit, the cache is warp 1's */
	ck_assert_uint_eq(bank_simt_conflicts(&r, 2, 1, &c, 2, 7, &hits), 2);
	ck_assert_uint_eq(hits, 0);
	/* now warp 2's: warp 2 hits all three */
	ck_assert_uint_eq(bank_simt_conflicts(&r, 2, 1, &c, 2, 0, &hits), 0);
	ck_assert_uint_eq(hits, 3);
	/* reuse off: never a hit */
	bank_reuse_clear(&c);
	bank_simt_conflicts(&r, 2, 0, &c, 1, 7, NULL);
	ck_assert_uint_eq(bank_simt_conflicts(&r, 2, 0, &c, 1, 7, NULL), 2);
}
END_TEST

START_TEST(test_simt_of)
{
	for (unsigned banks = 1; banks <= BankMax; banks++)
		for (uint32_t base = 0; base < 600; base += 37)
			for (uint32_t r = 0; r < 64; r++)
				ck_assert_uint_eq(bank_simt_of(base + r, base, banks), r % banks);
	ck_assert_uint_eq(bank_simt_of(5, 0, 0), 0);
}
END_TEST

START_TEST(test_fiber_slices_windows)
{
	BankFiber m = {512, 2, 1, 1};

	ck_assert_uint_eq(bank_fiber_slice(&m, 511), 0);
	ck_assert_uint_eq(bank_fiber_slice(&m, 512), 1);
	ck_assert_uint_eq(bank_fiber_slice(&m, 2047), 3);
	ck_assert_uint_eq(bank_fiber_bank(&m, 513), 1);
	/* weft w: 512 * (w % 4) + (w / 4) * nreg */
	ck_assert_uint_eq(bank_fiber_window(&m, 0, 4, 40), 0);
	ck_assert_uint_eq(bank_fiber_window(&m, 3, 4, 40), 1536);
	ck_assert_uint_eq(bank_fiber_window(&m, 5, 4, 40), 552);
	ck_assert_uint_eq(bank_fiber_window(&m, 9, 4, 40), 592);
}
END_TEST

START_TEST(test_fiber_remote)
{
	BankFiber m = {512, 2, 1, 1};
	BankRemote r;

	/* weft 1 (sub-partition 1, window V512..V551) reads V20, V21 (slice 0, banks 0 and 1) and
	 * its own V520: two remote reads over the crossbar, one conflict there, none at the ports */
	bank_remote_start(&r);
	bank_remote_read(&m, &r, 20, 1, 512, 40);
	bank_remote_read(&m, &r, 21, 1, 512, 40);
	bank_remote_read(&m, &r, 520, 1, 512, 40);
	ck_assert_uint_eq(bank_remote_end(&m, &r), 1);
	ck_assert_uint_eq(r.remote, 2);
	ck_assert_uint_eq(r.xbar, 2);
	ck_assert_uint_eq(r.worst, 1);
	ck_assert_uint_eq(r.xbar_conflicts, 1);
	ck_assert_uint_eq(r.rpa_conflicts, 0);
	/* weft 0 reads V60, V62, V64 of weft 4's window in its own slice: one bank, three reads,
	 * one port: two read-port conflicts, two cycles, no crossbar */
	bank_remote_start(&r);
	for (uint32_t v = 60; v <= 64; v += 2)
		bank_remote_read(&m, &r, v, 0, 0, 40);
	ck_assert_uint_eq(bank_remote_end(&m, &r), 2);
	ck_assert_uint_eq(r.rpa_conflicts, 2);
	ck_assert_uint_eq(r.rpa_cycles, 2);
	ck_assert_uint_eq(r.xbar, 0);
	/* two ports: worst 3 is one conflict, ceil(3/2) - 1 = 1 cycle */
	m.ports = 2;
	bank_remote_start(&r);
	for (uint32_t v = 60; v <= 64; v += 2)
		bank_remote_read(&m, &r, v, 0, 0, 40);
	ck_assert_uint_eq(bank_remote_end(&m, &r), 1);
	ck_assert_uint_eq(r.rpa_cycles, 1);
	/* a wider crossbar: 3 registers from slice 2 at width 2 are (3 - 1) / 2 = 1 conflict */
	m.ports = 4;
	m.xbar_width = 2;
	bank_remote_start(&r);
	for (uint32_t v = 1024; v < 1027; v++)
		bank_remote_read(&m, &r, v, 0, 0, 40);
	ck_assert_uint_eq(bank_remote_end(&m, &r), 1);
	ck_assert_uint_eq(r.xbar_conflicts, 1);
}
END_TEST

Suite *
banks_suite(void)
{
	Suite *s = suite_create("banks");
	TCase *simt = tcase_create("simt");
	TCase *fiber = tcase_create("fiber");

	tcase_add_test(simt, test_collect_slots);
	tcase_add_test(simt, test_collect_rz_and_twice);
	tcase_add_test(simt, test_simt_no_reuse);
	tcase_add_test(simt, test_simt_reuse_hit);
	tcase_add_test(simt, test_simt_reuse_other_warp);
	tcase_add_test(simt, test_simt_of);
	tcase_add_test(fiber, test_fiber_slices_windows);
	tcase_add_test(fiber, test_fiber_remote);
	suite_add_tcase(s, simt);
	suite_add_tcase(s, fiber);
	return s;
}
