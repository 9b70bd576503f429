/* check_tmem.c: tests of the timing simulator's memory model (timing/smmem.c, timing/l2.c) on access
 * logs built by hand with an A100-like configuration written out here: coalescing, shared
 * memory bank conflicts, L1 and L2 latencies, the MIO queue, DRAM bandwidth under streaming,
 * determinism across the order SMs are simulated in; and the records the memory instructions
 * make (the sim_mlog hooks of exec_mem.c and exec_tensor.c), through the one-warp harness of
 * check_simmem.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

/* an A100-like machine (docs/sim-memory.md; docs/hardware-facts.md for the sources) */
static void
a100(SimConfig *c)
{
	SimTiming *t = &c->t;

	memset(c, 0, sizeof *c);
	c->name = "test-a100";
	c->sm = 80;
	c->nsm = 108;
	t->subpartitions = 4;
	t->mio_ii = 2;
	t->mio_queue = 5;
	t->lat_src_read = 13;
	t->lat_lds = 23;
	t->lat_l1 = 33;
	t->lat_l2 = 200;
	t->lat_dram = 520;
	t->lat_const = 26;
	t->lat_const_miss = 120;
	t->lat_atomic = 245;
	t->lat_ldgsts = 39;
	t->smem_banks = 32;
	t->smem_bank_bytes = 4;
	t->l1_line = 128;
	t->l1_sector = 32;
	t->l1_assoc = 4;
	t->l1_bytes_per_clk = 128;
	t->l1_total = 192 * 1024;
	t->smem_per_sm = 164 * 1024;
	t->l1_mshr = 256;
	t->const_cache_bytes = 2048;
	t->l2_size = 40ull << 20;
	t->l2_assoc = 16;
	t->l2_line = 128;
	t->l2_slices = 80;
	t->l2_bytes_per_clk = 3840;
	t->l2_sm_bytes_per_clk = 64;
	t->dram_bytes_per_clk = 1100;
	t->epoch = 200;
}

#define G0 0x00007f0000000000ull  /* SimGlobalBase: a global address */

/* a 128-byte line crosses the 64 B/clk link to L2 in 2 cycles: its last sector is 1 later */
#define LINE_EXTRA 1

/* log <- one access of all lanes of mask at base + lane * stride */
static void
acc(MemLog *log, unsigned space, unsigned kind, unsigned size, unsigned flags, uint32_t mask,
    uint64_t base, uint64_t stride)
{
	MemAcc *a = &log->acc[log->n++];

	a->space = (uint8_t)space;
	a->kind = (uint8_t)kind;
	a->size = (uint8_t)size;
	a->flags = (uint8_t)flags;
	a->mask = mask;
	for (unsigned l = 0; l < WarpSize; l++)
		a->addr[l] = base + l * stride;
}

/* time one instruction of one access at cycle now (through the MIO of sub-partition 0) */
static MemTiming
run1(SmMem *s, unsigned space, unsigned kind, unsigned size, unsigned flags, uint64_t base,
     uint64_t stride, uint64_t now)
{
	MemLog log = {0};
	MemTiming t;

	acc(&log, space, kind, size, flags, ~0u, base, stride);
	smmem_mio_take(s, 0, now);
	smmem_access(s, &log, now, &t);
	return t;
}

static SimTStats
stats(const SmMem *s, const MemSys *m)
{
	SimTStats st;

	memset(&st, 0, sizeof st);
	if (s)
		smmem_stats(s, &st);
	if (m)
		memsys_stats(m, &st);
	return st;
}

typedef struct Rig {
	SimConfig c;
	MemSys *m;
	SmMem *s[2];
} Rig;

static void
rig_new(Rig *r)
{
	a100(&r->c);
	r->m = memsys_new(&r->c);
	ck_assert_ptr_nonnull(r->m);
	for (unsigned k = 0; k < 2; k++) {
		r->s[k] = smmem_new(r->m, &r->c, k);
		ck_assert_ptr_nonnull(r->s[k]);
	}
}

static void
rig_free(Rig *r)
{
	for (unsigned k = 0; k < 2; k++)
		smmem_free(r->s[k]);
	memsys_free(r->m);
}

/* ---------------------------------------------------------------------------------------------
 * Coalescing
 */
static const struct { unsigned space, size; uint64_t base, stride, sectors; } sector_cases[] = {
	{MSGlobal, 4, G0, 4, 4},           /* 128 contiguous bytes */
	{MSGlobal, 8, G0, 8, 8},
	{MSGlobal, 16, G0, 16, 16},
	{MSGlobal, 4, G0 + 0x10, 4, 5},    /* not sector-aligned: one more */
	{MSGlobal, 4, G0, 8, 8},           /* stride 2 words */
	{MSGlobal, 4, G0, 128, 32},        /* one word per line */
	{MSGlobal, 4, G0, 4096 + 36, 32},  /* scattered */
	{MSGlobal, 4, G0 + 8, 0, 1},       /* one address */
	{MSGlobal, 1, G0, 1, 1},           /* 32 bytes */
	{MSLocal, 4, 0x20, 0, 4},          /* the same word of each thread: interleaved */
	{MSLocal, 8, 0x20, 0, 8},
	{MSLocal, 16, 0x20, 0, 16},
	{MSGeneric, 4, SimLocalWindow + 0x10, 0, 4},
	{MSGeneric, 4, G0, 4, 4},
};

START_TEST(test_sectors)
{
	Rig r;
	SimTStats st;

	rig_new(&r);
	run1(r.s[0], sector_cases[_i].space, MKLoad, sector_cases[_i].size, 0,
	     sector_cases[_i].base, sector_cases[_i].stride, 0);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.gmem_requests, 1);
	ck_assert_uint_eq(st.gmem_sectors, sector_cases[_i].sectors);
	ck_assert_uint_eq(st.l1_misses, sector_cases[_i].sectors);
	ck_assert_uint_eq(st.smem_requests, 0);
	rig_free(&r);
}
END_TEST

/* a generic access split by window: shared lanes go to the banks, global ones to L1 */
START_TEST(test_generic_split)
{
	Rig r;
	MemLog log = {0};
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	acc(&log, MSGeneric, MKLoad, 4, 0, ~0u, G0, 4);
	for (unsigned l = 0; l < 16; l++)
		log.acc[0].addr[l] = SimSharedWindow + 4 * l;
	smmem_access(r.s[0], &log, 0, &t);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.smem_requests, 1);
	ck_assert_uint_eq(st.smem_wavefronts, 1);
	ck_assert_uint_eq(st.gmem_requests, 1);
	ck_assert_uint_eq(st.gmem_sectors, 2);
	/* the global lanes follow the shared wavefront through the L1 pipe */
	ck_assert_uint_eq(t.done, 1 + r.c.t.lat_dram);
	rig_free(&r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Shared memory
 */
static const struct { unsigned size; uint64_t base, stride; unsigned wf; } wf_cases[] = {
	{4, 0, 4, 1},
	{4, 0, 8, 2},        /* 2-way conflict */
	{4, 0, 16, 4},
	{4, 0, 32, 8},
	{4, 0, 128, 32},     /* every lane in bank 0 */
	{4, 0x40, 0, 1},     /* broadcast */
	{1, 0, 1, 1},        /* bytes of 8 words */
	{8, 0, 8, 2},        /* conflict-free 64-bit: two half-warps */
	{8, 0, 16, 4},
	{16, 0, 16, 4},      /* conflict-free 128-bit: four quarter-warps */
	{16, 0, 32, 8},
	{16, 0x100, 0, 1},   /* 128-bit broadcast */
};

START_TEST(test_wavefronts)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSShared, MKLoad, wf_cases[_i].size, 0, wf_cases[_i].base,
	         wf_cases[_i].stride, 100);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.smem_requests, 1);
	ck_assert_uint_eq(st.smem_wavefronts, wf_cases[_i].wf);
	ck_assert_uint_eq(t.done, 100 + r.c.t.lat_lds + wf_cases[_i].wf - 1);
	ck_assert_uint_eq(t.src_read, 100 + r.c.t.lat_src_read);
	/* the banks are busy for the wavefronts: a second load waits for them */
	t = run1(r.s[0], MSShared, MKLoad, 4, 0, 0, 4, 100);
	ck_assert_uint_ge(t.done, 100 + r.c.t.lat_lds + wf_cases[_i].wf);
	rig_free(&r);
}
END_TEST

/* LDSM.x4: 32 rows of 16 bytes; rows 128 bytes apart all fall in banks 0..3 */
START_TEST(test_ldsm_wavefronts)
{
	Rig r;
	SimTStats st;

	rig_new(&r);
	run1(r.s[0], MSShared, MKLoad, 16, 0, 0, 16, 0);
	run1(r.s[0], MSShared, MKLoad, 16, 0, 0, 128, 0);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.smem_wavefronts, 4 + 32);
	rig_free(&r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * L1, L2
 */
START_TEST(test_l1_miss_hit)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 0);
	ck_assert_uint_eq(t.done, r.c.t.lat_dram + LINE_EXTRA);
	/* in flight: merged with the outstanding miss */
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 100);
	ck_assert_uint_eq(t.done, r.c.t.lat_dram + LINE_EXTRA);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 1000);
	ck_assert_uint_eq(t.done, 1000 + r.c.t.lat_l1);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.l1_misses, 4);
	ck_assert_uint_eq(st.l1_hits, 8);
	/* a wide hit returns 16 sectors at 4 per cycle */
	run1(r.s[0], MSGlobal, MKLoad, 16, 0, G0 + 0x1000, 16, 2000);
	t = run1(r.s[0], MSGlobal, MKLoad, 16, 0, G0 + 0x1000, 16, 5000);
	ck_assert_uint_eq(t.done, 5000 + r.c.t.lat_l1 + 3);
	rig_free(&r);
}
END_TEST

/* .STRONG.GPU-like loads do not allocate: the next access misses L1 and hits in L2 (the SM's
 * own earlier access is pending there) */
START_TEST(test_l1_bypass)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, MAL1Bypass, G0, 4, 0);
	ck_assert_uint_eq(t.done, r.c.t.lat_dram + LINE_EXTRA);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 1000);
	ck_assert_uint_eq(t.done, 1000 + r.c.t.lat_l2 + LINE_EXTRA);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, MAL1Bypass, G0, 4, 2000);
	ck_assert_uint_eq(t.done, 2000 + r.c.t.lat_l2 + LINE_EXTRA);
	st = stats(r.s[0], NULL);
	ck_assert_uint_eq(st.l1_misses, 12);
	ck_assert_uint_eq(st.l1_hits, 0);
	rig_free(&r);
}
END_TEST

/* another SM sees a line in L2 only after the epoch that brought it in */
START_TEST(test_l2_epoch)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 0);
	ck_assert_uint_eq(t.done, r.c.t.lat_dram + LINE_EXTRA);
	t = run1(r.s[1], MSGlobal, MKLoad, 4, MAL1Bypass, G0, 4, 50);
	ck_assert_uint_eq(t.done, 50 + r.c.t.lat_dram + LINE_EXTRA);
	memsys_epoch_end(r.m, r.s, 2, 200);
	st = stats(NULL, r.m);
	ck_assert_uint_eq(st.l2_misses, 4);
	ck_assert_uint_eq(st.l2_hits, 4);
	ck_assert_uint_eq(st.dram_read_bytes, 128);
	t = run1(r.s[1], MSGlobal, MKLoad, 4, 0, G0, 4, 250);
	ck_assert_uint_eq(t.done, 250 + r.c.t.lat_l2 + LINE_EXTRA);
	rig_free(&r);
}
END_TEST

/* stores leave the SM; a later load of the line misses L1 (no write-allocate) and hits L2 */
START_TEST(test_store)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSGlobal, MKStore, 4, 0, G0, 4, 10);
	ck_assert_uint_eq(t.src_read, 10 + r.c.t.lat_src_read);
	ck_assert_uint_lt(t.done, 10 + r.c.t.lat_l1);
	memsys_epoch_end(r.m, r.s, 2, 200);
	t = run1(r.s[0], MSGlobal, MKLoad, 4, 0, G0, 4, 300);
	ck_assert_uint_eq(t.done, 300 + r.c.t.lat_l2 + LINE_EXTRA);
	memsys_epoch_end(r.m, r.s, 2, 400);
	st = stats(r.s[0], r.m);
	ck_assert_uint_eq(st.dram_read_bytes, 0);
	ck_assert_uint_eq(st.l2_hits, 4);
	/* atomics resolve at L2; one address for all lanes serialises */
	t = run1(r.s[0], MSGlobal, MKAtomic, 4, 0, G0, 0, 500);
	ck_assert_uint_eq(t.done, 500 + r.c.t.lat_atomic + 31);
	rig_free(&r);
}
END_TEST

/* LDGSTS: done when the data is in shared memory */
START_TEST(test_ldgsts)
{
	Rig r;
	MemLog log = {0};
	MemTiming t;

	rig_new(&r);
	acc(&log, MSGlobal, MKLoad, 16, MAAsync | MAL1Bypass, ~0u, G0, 16);
	acc(&log, MSShared, MKStore, 16, MAAsync, ~0u, 0, 16);
	smmem_access(r.s[0], &log, 0, &t);
	/* 16 sectors: 8 cycles on the link, then the write into 4 wavefronts */
	ck_assert_uint_eq(t.done, r.c.t.lat_dram + 7 + (r.c.t.lat_ldgsts - r.c.t.lat_l1) + 3);
	ck_assert_uint_eq(t.src_read, r.c.t.lat_src_read);
	ck_assert_uint_eq(stats(r.s[0], NULL).smem_wavefronts, 4);
	rig_free(&r);
}
END_TEST

START_TEST(test_const)
{
	Rig r;
	MemTiming t;
	SimTStats st;

	rig_new(&r);
	t = run1(r.s[0], MSConst, MKLoad, 4, 0, 0x30160, 0, 0);
	ck_assert_uint_eq(t.done, r.c.t.lat_const_miss);
	t = run1(r.s[0], MSConst, MKLoad, 4, 0, 0x30160, 0, 500);
	ck_assert_uint_eq(t.done, 500 + r.c.t.lat_const);
	/* 8 distinct words in the same line: one per cycle */
	t = run1(r.s[0], MSConst, MKLoad, 4, 0, 0x30140, 4 * 33, 1000);
	st = stats(r.s[0], NULL);
	ck_assert_uint_ge(t.done, 1000 + 31);
	ck_assert_uint_eq(st.const_hits + st.const_misses, 1 + 1 + 32);
	rig_free(&r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * MIO
 */
START_TEST(test_mio)
{
	Rig r;
	SmMem *s;
	uint64_t now = 0;

	rig_new(&r);
	s = r.s[0];
	for (unsigned p = 1; p < 4; p++) {
		ck_assert_uint_eq(smmem_mio_ready(s, p, 0), 0);
		smmem_mio_take(s, p, 0);
		ck_assert_uint_eq(smmem_mio_start(s), 2 * (p - 1));
	}
	/* sub-partition 0 issues at cycle 0 while the MIO is busy: five wait in its queue */
	for (unsigned k = 0; k < 5; k++) {
		ck_assert_uint_eq(smmem_mio_ready(s, 0, 0), 0);
		smmem_mio_take(s, 0, 0);
		ck_assert_uint_eq(smmem_mio_start(s), 6 + 2 * k);
	}
	/* the sixth waits until the first of them goes to the MIO; the others are not held up */
	ck_assert_uint_eq(smmem_mio_ready(s, 0, 0), 6);
	ck_assert_uint_eq(smmem_mio_ready(s, 1, 0), 0);
	now = smmem_mio_ready(s, 0, 0);
	smmem_mio_take(s, 0, now);
	ck_assert_uint_eq(smmem_mio_start(s), 16);
	/* the latency counts from the MIO start */
	{
		MemLog log = {0};
		MemTiming t;
		acc(&log, MSShared, MKLoad, 4, 0, ~0u, 0, 4);
		smmem_mio_take(s, 1, 7);
		smmem_access(s, &log, 7, &t);
		ck_assert_uint_eq(t.done, 18 + r.c.t.lat_lds);
	}
	rig_free(&r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * DRAM bandwidth: nsm SMs stream loads of fresh lines as fast as the MIO and the MSHRs allow;
 * the bytes delivered per cycle converge to the DRAM bandwidth when the demand exceeds it.
 */
static double
stream(uint32_t dram_bpc, unsigned nsm, uint64_t cycles)
{
	SimConfig c;
	MemSys *m;
	SmMem *s[8];
	uint64_t next[8] = {0}, count[8] = {0}, bytes = 0;
	uint64_t *done[8];
	size_t ndone[8] = {0};

	a100(&c);
	c.t.dram_bytes_per_clk = dram_bpc;
	m = memsys_new(&c);
	for (unsigned k = 0; k < nsm; k++) {
		s[k] = smmem_new(m, &c, k);
		done[k] = malloc(cycles * sizeof *done[k]);
	}
	for (uint64_t end = c.t.epoch; end <= cycles; end += c.t.epoch) {
		for (unsigned k = 0; k < nsm; k++) {
			while (next[k] < end) {
				uint64_t now = smmem_mio_ready(s[k], 0, next[k]);
				MemLog log = {0};
				MemTiming t;
				if (now >= end) {
					next[k] = now;
					break;
				}
				acc(&log, MSGlobal, MKLoad, 4, 0, ~0u,
				    G0 + ((uint64_t)k << 32) + count[k]++ * 128, 4);
				smmem_mio_take(s[k], 0, now);
				smmem_access(s[k], &log, now, &t);
				done[k][ndone[k]++] = t.done;
				next[k] = now + 1;
			}
		}
		memsys_epoch_end(m, s, nsm, end);
	}
	for (unsigned k = 0; k < nsm; k++) {
		for (size_t i = 0; i < ndone[k]; i++)
			bytes += done[k][i] <= cycles ? 128 : 0;
		smmem_free(s[k]);
		free(done[k]);
	}
	memsys_free(m);
	return (double)bytes / (double)cycles;
}

START_TEST(test_dram_bandwidth)
{
	double bw = stream(64, 8, 100000), free_bw = stream(100000, 8, 20000);

	/* unthrottled, the MSHRs allow about 8 x 256 x 32 / 520 = 126 B/clk */
	ck_assert_msg(free_bw > 100, "demand without a DRAM limit: %.1f B/clk", free_bw);
	ck_assert_msg(bw > 64 * 0.97 && bw < 64 * 1.03, "achieved %.2f B/clk, DRAM 64 B/clk", bw);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Determinism: the order in which SMs are simulated within an epoch changes nothing
 */
static void
determinism_run(int interleave, MemTiming out[2][40], SimTStats *st)
{
	Rig r;

	rig_new(&r);
	for (unsigned e = 0; e < 4; e++) {
		for (unsigned i = 0; i < 20; i++) {
			for (unsigned j = 0; j < 2; j++) {
				unsigned k = interleave ? j : (i < 10 ? 0 : 1);
				unsigned n = interleave ? i : (i % 10) * 2 + j;
				uint64_t now = e * 200 + 10 * n;
				uint64_t base = G0 + ((n * 7 + k * 3 + e) % 13) * 128;
				MemLog log = {0};
				acc(&log, MSGlobal, n % 5 == 4 ? MKStore : MKLoad, 4,
				    n % 3 ? 0 : MAL1Bypass, ~0u, base, n % 2 ? 4 : 132);
				smmem_mio_take(r.s[k], 0, now);
				smmem_access(r.s[k], &log, now, &out[k][e * 10 + n / 2]);
			}
		}
		memsys_epoch_end(r.m, r.s, 2, (e + 1) * 200);
	}
	memset(st, 0, sizeof *st);
	smmem_stats(r.s[0], st);
	smmem_stats(r.s[1], st);
	memsys_stats(r.m, st);
	rig_free(&r);
}

START_TEST(test_determinism)
{
	static MemTiming a[2][40], b[2][40];
	SimTStats sa, sb;

	determinism_run(0, a, &sa);
	determinism_run(1, b, &sb);
	ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
	ck_assert_uint_eq(sa.l2_hits, sb.l2_hits);
	ck_assert_uint_eq(sa.l2_misses, sb.l2_misses);
	ck_assert_uint_eq(sa.l1_hits, sb.l1_hits);
	ck_assert_uint_eq(sa.dram_read_bytes, sb.dram_read_bytes);
	ck_assert_uint_gt(sa.l2_hits, 0);
	ck_assert_uint_gt(sa.l2_misses, 0);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The epoch merge applied in parts (the sets of each part on its own host thread in a launch):
 * 4 SMs, a 64 KiB L2 so that lines are evicted, dirty ones too, and an epoch of more accesses
 * than PartMin; parts == 0 is memsys_epoch_end. The parts run here one after the other, the
 * last first: any order must give the same timings and statistics.
 */
enum { PartSms = 4, PartEpochs = 6, PartInstr = 24 };

static unsigned
parts_run(unsigned parts, MemTiming out[PartSms][PartEpochs * PartInstr], SimTStats *st)
{
	SimConfig c;
	MemSys *m;
	SmMem *s[PartSms];
	unsigned most = 0;

	a100(&c);
	c.t.l2_size = 64 << 10;
	m = memsys_new(&c);
	ck_assert_ptr_nonnull(m);
	for (unsigned k = 0; k < PartSms; k++)
		ck_assert_ptr_nonnull(s[k] = smmem_new(m, &c, k));
	for (unsigned e = 0; e < PartEpochs; e++) {
		uint64_t end = (e + 1) * c.t.epoch;
		for (unsigned k = 0; k < PartSms; k++)
			for (unsigned i = 0; i < PartInstr; i++) {
				unsigned n = e * PartInstr + i;
				uint64_t now = e * c.t.epoch + i * 8 % c.t.epoch;
				/* 32 lines a warp, from a window of 1024 lines that moves: hits and misses */
				uint64_t base = G0 + (uint64_t)((n * 37 + k * 101) % 1024) * 128;
				MemLog log = {0};
				acc(&log, MSGlobal, (n + k) % 3 == 0 ? MKStore : MKLoad, 4, MAL1Bypass, ~0u,
				    base, 128 * 3);
				smmem_mio_take(s[k], 0, now);
				smmem_access(s[k], &log, now, &out[k][n]);
			}
		if (!parts) {
			memsys_epoch_end(m, s, PartSms, end);
			continue;
		}
		{
			unsigned got = memsys_epoch_begin(m, s, PartSms, parts);
			ck_assert_uint_ge(got, 1);
			ck_assert_uint_le(got, parts);
			most = got > most ? got : most;
			for (unsigned i = got; i-- > 0;)
				memsys_epoch_apply(m, i);
			memsys_epoch_finish(m, s, PartSms, end);
		}
	}
	memset(st, 0, sizeof *st);
	for (unsigned k = 0; k < PartSms; k++) {
		smmem_stats(s[k], st);
		smmem_free(s[k]);
	}
	memsys_stats(m, st);
	memsys_free(m);
	return most;
}

START_TEST(test_epoch_parts)
{
	static MemTiming a[PartSms][PartEpochs * PartInstr], b[PartSms][PartEpochs * PartInstr];
	SimTStats sa, sb;

	parts_run(0, a, &sa);
	for (unsigned parts = 1; parts <= 3; parts++) {
		unsigned got = parts_run(parts, b, &sb);
		ck_assert_uint_eq(got, parts);          /* 4 x 24 x 32 sectors an epoch: all parts used */
		ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
		ck_assert_uint_eq(sa.l2_hits, sb.l2_hits);
		ck_assert_uint_eq(sa.l2_misses, sb.l2_misses);
		ck_assert_uint_eq(sa.dram_read_bytes, sb.dram_read_bytes);
		ck_assert_uint_eq(sa.dram_write_bytes, sb.dram_write_bytes);
	}
	ck_assert_uint_gt(sa.l2_hits, 0);
	ck_assert_uint_gt(sa.l2_misses, 0);
	ck_assert_uint_gt(sa.dram_write_bytes, 0);  /* dirty lines were evicted */
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The records of the memory instructions: a one-warp machine around a function read by the
 * front end (irt_new of check_cfg.c), each instruction run by its ExecFn with Exec.mlog set
 */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);

typedef struct Hk {
	Irt *irt;
	Prog *prog;
	Gpu *gpu;
	uint32_t (*rf)[WarpSize];
	uint8_t smem[1024], lmem[WarpSize * 64];
	uint8_t *cbank[NumCBanks];
	Sm sm;
	Cta cta;
	Warp w;
	Exec x;
	SimFault fault;
} Hk;

static Hk *
hk_new(const char *body)
{
	Hk *h = calloc(1, sizeof *h);
	SimConfig cfg;

	h->irt = irt_new(body);
	h->prog = sim_decode(irt_fn(h->irt), 80, irt_diag(h->irt));
	ck_assert_msg(h->prog != NULL, "decode failed:\n%s", irt_errors(h->irt));
	simconfig_default(&cfg, 80);
	h->gpu = gpu_new(simcfg_gpu(&cfg));
	h->rf = calloc(SmVRegs, sizeof *h->rf);
	h->sm.rf = h->rf;
	h->sm.rf_used = 256;
	h->sm.cta = &h->cta;
	h->sm.ncta = 1;
	h->cta.nthreads = WarpSize;
	h->cta.warp = &h->w;
	h->cta.nwarp = 1;
	h->cta.smem = h->smem;
	h->cta.smem_size = sizeof h->smem;
	h->cta.lmem = h->lmem;
	h->cta.lsize = 64;
	sim_warp_init(&h->w, 0, ~0u, 0, 255);
	h->x.gpu = h->gpu;
	h->x.prog = h->prog;
	h->x.sm = &h->sm;
	h->x.cta = &h->cta;
	h->x.w = &h->w;
	h->x.fault = &h->fault;
	for (unsigned b = 0; b < NumCBanks; b++) {
		h->cbank[b] = calloc(1, CBankSize);
		h->x.cbank[b] = h->cbank[b];
		h->x.cbank_size[b] = CBankSize;
	}
	return h;
}

static void
hk_free(Hk *h)
{
	prog_free(h->prog);
	irt_free(h->irt);
	gpu_free(h->gpu);
	free(h->rf);
	for (unsigned b = 0; b < NumCBanks; b++)
		free(h->cbank[b]);
	free(h);
}

static uint32_t *
hk_r(Hk *h, unsigned r)
{
	return h->rf[r];
}

static uint64_t
hk_alloc(Hk *h, uint64_t n)
{
	uint64_t a;

	ck_assert_int_eq(gpu_malloc(h->gpu, n, &a), 0);
	return a;
}

/* run instruction k for mask with a log; the log must hold want_n accesses */
static const MemAcc *
record(Hk *h, MemLog *log, unsigned k, uint32_t mask, unsigned want_n)
{
	const DIns *d = &h->prog->ins[k];

	memset(log, 0, sizeof *log);
	memset(&h->fault, 0, sizeof h->fault);
	h->x.mlog = log;
	h->x.pc = k;
	h->x.active = mask;
	d->exec(&h->x, d, mask);
	ck_assert_int_eq(h->fault.kind, FaultNone);
	ck_assert_uint_eq(log->n, want_n);
	return &log->acc[0];
}

START_TEST(test_hooks_ldst)
{
	Hk *t = hk_new("LDG.E R2, [R2.64+0x4] ;\n"
	                 "STG.E.64.STRONG.GPU [R4.64], R8 ;\n"
	                 "LDS.128 R8, [R0+0x10] ;\n"
	                 "LDL.64 R8, [R1+0x8] ;\n"
	                 "LD.E R8, [R4.64] ;\n"
	                 "LDG.E.EF R8, [R4.64] ;");
	uint64_t g = hk_alloc(t, 4096);
	MemLog log;
	const MemAcc *a;

	for (unsigned l = 0; l < WarpSize; l++) {
		hk_r(t, 2)[l] = (uint32_t)(g + 8 * l);
		hk_r(t, 3)[l] = (uint32_t)(g >> 32);
		hk_r(t, 4)[l] = (uint32_t)(g + 16 * l);
		hk_r(t, 5)[l] = (uint32_t)(g >> 32);
		hk_r(t, 0)[l] = 16 * l;
		hk_r(t, 1)[l] = 0x10;
	}
	/* the address before the load overwrote R2 */
	a = record(t, &log, 0, 0xf0, 1);
	ck_assert_uint_eq(a->space, MSGlobal);
	ck_assert_uint_eq(a->kind, MKLoad);
	ck_assert_uint_eq(a->size, 4);
	ck_assert_uint_eq(a->mask, 0xf0);
	ck_assert_uint_eq(a->flags, 0);
	ck_assert_uint_eq(a->addr[5], g + 40 + 4);
	a = record(t, &log, 1, ~0u, 1);
	ck_assert_uint_eq(a->kind, MKStore);
	ck_assert_uint_eq(a->size, 8);
	ck_assert_uint_eq(a->flags, MAL1Bypass);
	ck_assert_uint_eq(a->addr[31], g + 16 * 31);
	a = record(t, &log, 2, ~0u, 1);
	ck_assert_uint_eq(a->space, MSShared);
	ck_assert_uint_eq(a->size, 16);
	ck_assert_uint_eq(a->addr[3], 0x40);
	a = record(t, &log, 3, 0x3, 1);
	ck_assert_uint_eq(a->space, MSLocal);
	ck_assert_uint_eq(a->addr[1], 0x18);
	a = record(t, &log, 4, ~0u, 1);
	ck_assert_uint_eq(a->space, MSGeneric);
	ck_assert_uint_eq(a->addr[2], g + 32);
	a = record(t, &log, 5, ~0u, 1);
	ck_assert_uint_eq(a->flags, MAL1Bypass);
	/* nothing is recorded in functional mode */
	memset(&log, 0, sizeof log);
	t->x.mlog = NULL;
	t->prog->ins[5].exec(&t->x, &t->prog->ins[5], ~0u);
	ck_assert_uint_eq(log.n, 0);
	hk_free(t);
}
END_TEST

START_TEST(test_hooks_other)
{
	Hk *t = hk_new("ATOMG.E.ADD.STRONG.GPU PT, R6, [R2.64], R7 ;\n"
	                 "REDG.E.ADD.STRONG.GPU [R2.64], R7 ;\n"
	                 "ATOMS.ADD R6, [R0], R7 ;\n"
	                 "LDGSTS.E.BYPASS.128 [R0+0x100], [R2.64] ;\n"
	                 "LDSM.16.M88.4 R8, [R0] ;\n"
	                 "STSM.16.M88.2 [R0], R8 ;\n"
	                 "LDC R6, c[0x3][R0+0x10] ;\n"
	                 "ULDC.64 UR4, c[0x0][0x118] ;\n"
	                 "LDGSTS.E [R0], [R2.64], P0 ;");
	uint64_t g = hk_alloc(t, 4096);
	MemLog log;
	const MemAcc *a;

	for (unsigned l = 0; l < WarpSize; l++) {
		hk_r(t, 2)[l] = (uint32_t)(g + 16 * l);
		hk_r(t, 3)[l] = (uint32_t)(g >> 32);
		hk_r(t, 0)[l] = 16 * l;
		hk_r(t, 7)[l] = 1;
	}
	a = record(t, &log, 0, ~0u, 1);
	ck_assert_uint_eq(a->kind, MKAtomic);
	ck_assert_uint_eq(a->space, MSGlobal);
	a = record(t, &log, 1, ~0u, 1);
	ck_assert_uint_eq(a->kind, MKRed);
	a = record(t, &log, 2, 0x1, 1);
	ck_assert_uint_eq(a->kind, MKAtomic);
	ck_assert_uint_eq(a->space, MSShared);
	ck_assert_uint_eq(a->mask, 1);
	a = record(t, &log, 3, ~0u, 2);
	ck_assert_uint_eq(a[0].space, MSGlobal);
	ck_assert_uint_eq(a[0].flags, MAAsync | MAL1Bypass);
	ck_assert_uint_eq(a[0].addr[4], g + 64);
	ck_assert_uint_eq(a[1].space, MSShared);
	ck_assert_uint_eq(a[1].kind, MKStore);
	ck_assert_uint_eq(a[1].addr[4], 0x140);
	/* the rows of .x4: 32 lanes; .x2: 16, even for a guard of one lane */
	a = record(t, &log, 4, ~0u, 1);
	ck_assert_uint_eq(a->mask, ~0u);
	ck_assert_uint_eq(a->size, 16);
	ck_assert_uint_eq(a->addr[31], 16 * 31);
	a = record(t, &log, 5, 0x1, 1);
	ck_assert_uint_eq(a->mask, 0xffff);
	ck_assert_uint_eq(a->kind, MKStore);
	a = record(t, &log, 6, 0x3, 1);
	ck_assert_uint_eq(a->space, MSConst);
	ck_assert_uint_eq(a->addr[1], 3u << 16 | 0x20);
	a = record(t, &log, 7, ~0u, 1);
	ck_assert_uint_eq(a->mask, 1);
	ck_assert_uint_eq(a->addr[0], 0x118);
	ck_assert_uint_eq(a->size, 8);
	/* LDGSTS with a false predicate reads nothing: only the shared write (zero fill) */
	t->w.p[0] = 0x2;
	a = record(t, &log, 8, 0x3, 2);
	ck_assert_uint_eq(a[0].mask, 0x2);
	ck_assert_uint_eq(a[1].mask, 0x3);
	t->w.p[0] = 0;
	a = record(t, &log, 8, 0x3, 1);
	ck_assert_uint_eq(a[0].space, MSShared);
	hk_free(t);
}
END_TEST

Suite *
tmem_suite(void)
{
	Suite *s = suite_create("tmem");
	TCase *tc = tcase_create("model");

	tcase_add_loop_test(tc, test_sectors, 0, sizeof sector_cases / sizeof sector_cases[0]);
	tcase_add_test(tc, test_generic_split);
	tcase_add_loop_test(tc, test_wavefronts, 0, sizeof wf_cases / sizeof wf_cases[0]);
	tcase_add_test(tc, test_ldsm_wavefronts);
	tcase_add_test(tc, test_l1_miss_hit);
	tcase_add_test(tc, test_l1_bypass);
	tcase_add_test(tc, test_l2_epoch);
	tcase_add_test(tc, test_store);
	tcase_add_test(tc, test_ldgsts);
	tcase_add_test(tc, test_const);
	tcase_add_test(tc, test_mio);
	tcase_add_test(tc, test_determinism);
	tcase_add_test(tc, test_epoch_parts);
	suite_add_tcase(s, tc);
	tc = tcase_create("bandwidth");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_dram_bandwidth);
	suite_add_tcase(s, tc);
	tc = tcase_create("hooks");
	tcase_add_test(tc, test_hooks_ldst);
	tcase_add_test(tc, test_hooks_other);
	suite_add_tcase(s, tc);
	return s;
}
