/* check_semantics.c: warp-level semantics on code nvcc writes (tests/corpus/semantics.cu, its
 * sm_80 and sm_90 listings): shared-memory atomics with an unused result (ATOMS.POPC.INC),
 * cooperative-groups tiles of every width up to a warp, coalesced, labeled and binary partitions
 * (WARPSYNC.EXCLUSIVE, BRA.DIV with a member mask), a two-level shuffle scan with a partial
 * member mask, __syncwarp with divergent masks, warps spinning on a flag (NANOSLEEP). Each
 * kernel runs on the functional and on the timing driver; both must match a CPU reference
 * computed here from the CUDA programming guide's and the PTX ISA's definitions.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "sim.h"
#include "timing.h"

enum { MaxOut = 1024 };

typedef struct KRun {
	Src *src;              /* the listing */
	Module *m;             /* parsed */
	Diag d;                /* diagnostics into err */
	FILE *errf;
	char *err;
	size_t nerr;
	Gpu *g;                /* device */
	SimConfig cfg;         /* its configuration */
	SimModule *sm;         /* loaded */
	const Prog *k;         /* the kernel */
	uint64_t fstat;        /* warp instructions, functional driver */
	uint64_t tstat;        /* warp instructions, timing driver */
} KRun;

static const char *const listings[] = { "semantics.sm_80.sass", "semantics.sm_90.sass" };

static KRun *
kload(int arch, const char *kernel)
{
	const char *root = getenv("FIBER_ROOT");
	KRun *r = calloc(1, sizeof *r);
	char path[600];
	SimConfig c;

	snprintf(path, sizeof path, "%s/tests/corpus/%s", root ? root : ".", listings[arch]);
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, NULL, r->errf);
	r->src = src_read(path, &r->d);
	ck_assert_msg(r->src != NULL, "cannot read %s", path);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	ck_assert_ptr_nonnull(r->m);
	simconfig_default(&c, arch ? 90 : 80);
	c.watchdog = 4000000;
	r->cfg = c;
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "%s: %s", path, r->err ? r->err : "");
	r->k = sim_module_kernel(r->sm, kernel);
	ck_assert_msg(r->k != NULL, "no kernel %s", kernel);
	return r;
}

static void
kfree(KRun *r)
{
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
	free(r);
}

/* Launch one CTA of nthreads with params out (nout words, zeroed), then in (nin words, or a
 * second zeroed buffer of nin words if in is NULL); when nparam is 3, out and an int; on
 * both drivers. Checks both drivers' outputs agree; leaves the functional one in out[] (and
 * the second buffer in in2[] when given). */
static void
krun(KRun *r, uint32_t nthreads, uint32_t *out, uint32_t nout, const uint32_t *in, uint32_t nin,
     uint32_t *in2, int nparam, int scalar)
{
	uint8_t params[24];
	uint64_t a[2];
	LaunchParams lp = { { 1, 1, 1 }, { nthreads, 1, 1 }, 0, params, 0, 0, { 0, 0, 0 } };
	static uint32_t tout[MaxOut], tin2[MaxOut], zero[MaxOut];
	SimStats st;
	SimTStats tst;
	SimFault f;
	int rc;

	ck_assert_int_le(nout, MaxOut);
	ck_assert_int_le(nin, MaxOut);
	ck_assert_int_eq(gpu_malloc(r->g, 4 * (nout ? nout : 1), &a[0]), 0);
	ck_assert_int_eq(gpu_malloc(r->g, 4 * (nin ? nin : 1), &a[1]), 0);
	memcpy(params, a, 16);
	lp.params_size = nparam == 1 ? 8 : 16;
	if (nparam == 3) {
		memcpy(params + 8, &scalar, 4);
		lp.params_size = 12;
	}
	for (int pass = 0; pass < 2; pass++) {
		memset(out, 0, 4 * nout);
		ck_assert_int_eq(gpu_write(r->g, a[0], out, 4 * nout), 0);
		if (in)
			ck_assert_int_eq(gpu_write(r->g, a[1], in, 4 * nin), 0);
		else if (nin)
			ck_assert_int_eq(gpu_write(r->g, a[1], zero, 4 * nin), 0);
		if (pass == 0) {
			rc = sim_launch_timed(r->g, &r->cfg, r->sm, r->k, &lp, NULL, &tst, &f);
			ck_assert_msg(rc == 0, "timing driver: %s", f.msg);
			r->tstat = tst.warp_instructions;
			simtstats_free(&tst);
			ck_assert_int_eq(gpu_read(r->g, a[0], tout, 4 * nout), 0);
			if (!in && nin)
				ck_assert_int_eq(gpu_read(r->g, a[1], tin2, 4 * nin), 0);
		} else {
			rc = sim_launch(r->g, r->sm, r->k, &lp, &st, &f);
			ck_assert_msg(rc == 0, "functional driver: %s", f.msg);
			r->fstat = st.warp_instructions;
			ck_assert_int_eq(gpu_read(r->g, a[0], out, 4 * nout), 0);
			for (uint32_t k = 0; k < nout; k++)
				ck_assert_msg(out[k] == tout[k], "word %u: functional %d, timing %d", k,
				              (int)out[k], (int)tout[k]);
			if (!in && nin) {
				ck_assert_int_eq(gpu_read(r->g, a[1], in2, 4 * nin), 0);
				ck_assert_msg(memcmp(in2, tin2, 4 * nin) == 0, "second buffers differ");
			}
		}
	}
}

/* inputs 0..96, a few odd, a few over 40 and 50 */
static void
inputs(uint32_t *in, uint32_t n)
{
	for (uint32_t t = 0; t < n; t++)
		in[t] = (t * 37 + 11) % 97;
}

static void
expect(const uint32_t *got, const int *want, uint32_t n, const char *what, int arch)
{
	for (uint32_t k = 0; k < n; k++)
		ck_assert_msg((int)got[k] == want[k], "%s (%s) word %u: %d, want %d", what,
		              listings[arch], k, (int)got[k], want[k]);
}

/* ---------------------------------------------------------------------------------------------
 * Item: ATOMS.POPC.INC.32 (atomicAdd(&smem[i], 1), result unused) and RED.E.ADD.
 */
START_TEST(test_count)
{
	KRun *r = kload(_i, "k_count");
	uint32_t out[16], g[3];
	int want[16] = {0}, wg[3] = {0};

	krun(r, 128, out, 16, NULL, 3, g, 2, 0);
	for (int t = 0; t < 128; t++) {
		want[t % 8]++;
		if (t & 1)
			want[8 + t % 5]++;
		wg[t % 3]++;
	}
	expect(out, want, 16, "shared counts", _i);
	expect(g, wg, 3, "global counts", _i);
	kfree(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: thread_block_tile<N> for N = 1..32: reduce, scans, shuffles, ranks; ballot, any, all
 * of the whole warp. A tile is the N threads t - t % N .. that + N - 1.
 */
static int
tile_ref(const uint32_t *in, int t, int n)
{
	int base = t - t % n, rank = t % n, v = (int)in[t];
	int r = 0, s = 0, x = 0, any = 0, all = 1;
	unsigned bal = 0;
	int b;

	for (int k = 0; k < n; k++) {
		int u = (int)in[base + k];
		r += u;
		if (k <= rank)
			s += u;
		if (k < rank)
			x ^= u;
		if (u & 1)
			bal |= 1u << k;
		any |= u > 50;
		all &= u > 2;
	}
	b = (int)in[base + n - 1] + (rank + 1 < n ? (int)in[t + 1] : v) +
	    (rank >= 1 ? (int)in[t - 1] : v) + (int)in[base + (rank ^ (n / 2))];
	if (n < 32)
		bal = (unsigned)(any = all = 0);
	/* the kernel's int arithmetic wraps (two's complement on the GPU): compute it unsigned */
	return (int)((uint32_t)r + 3u * (uint32_t)s + 5u * (uint32_t)x + 7u * (uint32_t)b +
	             11u * bal + 13u * (uint32_t)any + 17u * (uint32_t)all + 19u * (uint32_t)rank +
	             23u * (uint32_t)(t / n));
}

START_TEST(test_tiles)
{
	KRun *r = kload(_i, "k_tiles");
	static uint32_t in[128], out[6 * 128];
	static int want[6 * 128];

	inputs(in, 128);
	krun(r, 128, out, 6 * 128, in, 128, NULL, 2, 0);
	for (int w = 0; w < 6; w++)
		for (int t = 0; t < 128; t++)
			want[w * 128 + t] = tile_ref(in, t, 1 << w);
	expect(out, want, 6 * 128, "tiles", _i);
	kfree(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: coalesced_threads() of the threads with an odd input: size, rank, reduce, scan, shfl.
 */
START_TEST(test_coalesced)
{
	KRun *r = kload(_i, "k_coalesced");
	uint32_t in[128], out[128];
	int want[128];

	inputs(in, 128);
	in[5] = 7;                       /* warp 0: a few more odd lanes */
	in[70] = 2;
	krun(r, 128, out, 128, in, 128, NULL, 2, 0);
	for (int t = 0; t < 128; t++) {
		int w = t & ~31, size = 0, rank = 0, sum = 0, scan = 0, first = -1;
		if (!(in[t] & 1)) {
			want[t] = -1;
			continue;
		}
		for (int k = w; k < w + 32; k++)
			if (in[k] & 1) {
				if (first < 0)
					first = (int)in[k];
				size++;
				sum += (int)in[k];
				if (k < t)
					rank++;
				if (k <= t)
					scan += (int)in[k];
			}
		want[t] = sum + 1000 * size + 100000 * rank + 7 * scan + 3 * first;
	}
	expect(out, want, 128, "coalesced", _i);
	kfree(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: labeled_partition by in % 3 (WARPSYNC.EXCLUSIVE groups: REDUX over one group) and
 * binary_partition by in > 40, per warp.
 */
static void
part_ref(const uint32_t *in, int t, int (*key)(uint32_t), int *sum, int *max, int *size,
         int *rank, int *scan)
{
	int w = t & ~31;

	*sum = *size = *rank = *scan = 0;
	*max = -1;
	for (int k = w; k < w + 32; k++)
		if (key(in[k]) == key(in[t])) {
			*sum += (int)in[k];
			if ((int)in[k] > *max)
				*max = (int)in[k];
			(*size)++;
			if (k < t)
				(*rank)++;
			if (k <= t)
				*scan += (int)in[k];
		}
}

static int mod3(uint32_t v) { return (int)(v % 3); }
static int over40(uint32_t v) { return v > 40; }

START_TEST(test_labeled)
{
	KRun *r = kload(_i, "k_labeled");
	uint32_t in[128], out[3 * 128];
	int want[3 * 128];

	inputs(in, 128);
	for (int t = 96; t < 128; t++)
		in[t] = 3 * (uint32_t)t;     /* warp 3: one label, one group */
	krun(r, 128, out, 3 * 128, in, 128, NULL, 2, 0);
	for (int t = 0; t < 128; t++) {
		int sum, max, size, rank, scan;
		part_ref(in, t, mod3, &sum, &max, &size, &rank, &scan);
		want[t] = sum + 10000 * size + 1000000 * rank;
		want[128 + t] = max + 1000 * scan;
		part_ref(in, t, over40, &sum, &max, &size, &rank, &scan);
		want[256 + t] = sum + 10000 * size + 1000000 * rank;
	}
	expect(out, want, 3 * 128, "labeled/binary partition", _i);
	kfree(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: WARPSYNC waits for the same member mask. A block-wide scan whose second level runs on
 * warp 0's first nwarp lanes with __shfl_up_sync((1 << nwarp) - 1, ...): those lanes go through
 * nvcc's slow path (WARPSYNC R) while the rest of warp 0 waits at WARPSYNC 0xffffffff. It
 * deadlocked when any WARPSYNC released the full-mask waiters.
 */
START_TEST(test_scan2)
{
	static const uint32_t sizes[] = { 64, 128, 256, 992 };
	static uint32_t in[1024], out[1024];
	static int want[1024];

	for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		KRun *r = kload(_i, "k_scan2");
		uint32_t n = sizes[z];
		int s = 0;

		inputs(in, n);
		krun(r, n, out, n, in, n, NULL, 2, 0);
		for (uint32_t t = 0; t < n; t++) {
			s += (int)in[t];
			want[t] = s;
		}
		expect(out, want, n, "two-level scan", _i);
		kfree(r);
	}
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: __syncwarp(0x0000ffff) in a loop of the low half, then __syncwarp() of the whole warp:
 * the high half must wait for the low half's last round.
 */
START_TEST(test_syncwarp)
{
	KRun *r = kload(_i, "k_syncwarp");
	uint32_t in[32], out[32];
	int s[32], want[32];

	inputs(in, 32);
	in[0] = 5;                       /* rounds */
	krun(r, 32, out, 32, in, 32, NULL, 2, 0);
	for (int t = 0; t < 32; t++)
		s[t] = (int)in[t];
	for (uint32_t k = 0; k < in[0]; k++) {
		int u[16];
		for (int t = 0; t < 16; t++)
			u[t] = s[(t + 1) & 15];
		for (int t = 0; t < 16; t++)
			s[t] = u[t] + (int)in[t];
	}
	for (int t = 0; t < 32; t++)
		want[t] = s[t ^ 16] + s[t];
	expect(out, want, 32, "syncwarp", _i);
	kfree(r);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Item: warps spinning on a flag with NANOSLEEP yield. Lane 0 of each warp waits for the last
 * thread of the block, which in the last warp is a lane of the same warp as a spinner. Each
 * spinning lane or warp yields at its NANOSLEEP, so the others run first: the functional count
 * is independent of the driver's quantum (1024) and of FairLimit; before, each round cost a
 * spinner 65536 divergent issues (about 1.5 million instructions for 3 rounds).
 */
START_TEST(test_spin)
{
	KRun *r = kload(_i, "k_spin");
	uint32_t out[256];
	int want[256];

	for (int rounds = 1; rounds <= 3; rounds += 2) {
		krun(r, 256, out, 256, NULL, 0, NULL, 3, rounds);
		for (int t = 0; t < 256; t++)
			want[t] = rounds * (rounds - 1) / 2 + rounds;
		expect(out, want, 256, "spin", _i);
		/* measured: 278 and 518 (sm_80), 363 and 677 (sm_90) for 1 and 3 rounds, the
		 * bookkeeping of 8 warps and one spinning iteration of each waiting lane per round */
		ck_assert_msg(r->fstat < 200u + 200u * (unsigned)rounds,
		              "functional: %llu warp instructions", (unsigned long long)r->fstat);
		ck_assert_msg(r->tstat < 2000u * (unsigned)rounds, "timing: %llu warp instructions",
		              (unsigned long long)r->tstat);
	}
	kfree(r);
}
END_TEST

/* the same spin without __nanosleep: nvcc's loop has a YIELD, which yields the same way */
START_TEST(test_spin_yield)
{
	KRun *r = kload(_i, "k_spin_yield");
	uint32_t out[256];
	int want[256];

	for (int rounds = 1; rounds <= 3; rounds += 2) {
		krun(r, 256, out, 256, NULL, 0, NULL, 3, rounds);
		for (int t = 0; t < 256; t++)
			want[t] = rounds;
		expect(out, want, 256, "spin (YIELD)", _i);
		ck_assert_msg(r->fstat < 200u + 200u * (unsigned)rounds,
		              "functional: %llu warp instructions", (unsigned long long)r->fstat);
		ck_assert_msg(r->tstat < 2000u * (unsigned)rounds, "timing: %llu warp instructions",
		              (unsigned long long)r->tstat);
	}
	kfree(r);
}
END_TEST

Suite *
semantics_suite(void)
{
	Suite *s = suite_create("semantics");
	TCase *tc = tcase_create("nvcc");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_count, 0, 2);
	tcase_add_loop_test(tc, test_tiles, 0, 2);
	tcase_add_loop_test(tc, test_coalesced, 0, 2);
	tcase_add_loop_test(tc, test_labeled, 0, 2);
	tcase_add_loop_test(tc, test_scan2, 0, 2);
	tcase_add_loop_test(tc, test_syncwarp, 0, 2);
	tcase_add_loop_test(tc, test_spin, 0, 2);
	tcase_add_loop_test(tc, test_spin_yield, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
