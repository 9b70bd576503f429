/* check_ifetch.c: the L0 instruction cache and its stream buffer (timing/ifetch.c,
 * icache_prefetch), on both SM models: straight-line code against the figure the documented
 * parameters give. Without prefetch every line of the code misses once (icache_miss_latency);
 * with it only the first does, the stream delivering the next lines before the warp reaches them
 * (a line of 8 instructions takes at least 8 cycles to issue, the stream one a cycle). A loop
 * that fits the cache misses only on its first pass either way.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "timing.h"

/* one warp of a kernel of n copies of line after a 5-instruction head and before a 2-instruction
 * tail, on configuration cfg with icache_prefetch = pf: its cycles (its parameters from
 * c[0x0][0x160] on sm_80 configurations, 0x210 on sm_90 ones) */
static uint64_t
run(const char *cfg, const char *line, unsigned n, unsigned pf)
{
	unsigned param = strncmp(cfg, "a100", 4) ? 0x210 : 0x160;
	char *text = xmalloc(64 * (n + 16)), err[256], set[64];
	size_t at;
	SimConfig c;
	LaunchParams lp = { { 1, 1, 1 }, { 32, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	SimTStats st;
	SimFault f;
	uint64_t out, cyc;
	Src *src;
	Diag d;
	Module *m;
	Gpu *g;
	SimModule *sm;

	at = (size_t)sprintf(text, "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	                     "        S2R R0, SR_TID.X ;\n"
	                     "        MOV R4, c[0x0][0x%x] ;\n"
	                     "        MOV R5, c[0x0][0x%x] ;\n"
	                     "        IMAD.WIDE.U32 R2, R0, 0x4, R4 ;\n"
	                     "        MOV R12, RZ ;\n", param, param + 4);
	for (unsigned k = 0; k < n; k++)
		at += (size_t)sprintf(text + at, "%s", line);
	sprintf(text + at, "        STG.E [R2.64], R12 ;\n        EXIT ;\n");
	ck_assert_int_eq(simcfg_builtin(&c, cfg), 0);
	snprintf(set, sizeof set, "icache_prefetch=%u", pf);
	ck_assert_msg(simcfg_set(&c, set, err, sizeof err) == 0, "%s", err);
	src = src_new("ifetch.sass", text, strlen(text));
	diag_init(&d, src, stderr);
	m = sass_parse(src, &d);
	ck_assert_ptr_nonnull(m);
	g = gpu_new(simcfg_gpu(&c));
	sm = sim_module_load(g, m, &d);
	ck_assert_ptr_nonnull(sm);
	ck_assert_int_eq(gpu_malloc(g, 32 * 4, &out), 0);
	lp.params = &out;
	ck_assert_msg(sim_launch_timed(g, &c, sm, sim_module_kernel(sm, "kern"), &lp, NULL, &st,
	                               &f) == 0, "%s", f.msg);
	cyc = st.cycles;
	simtstats_free(&st);
	sim_module_free(sm);
	gpu_free(g);
	module_free(m);
	src_free(src);
	free(text);
	return cyc;
}

/* straight-line code of k lines (7 + n instructions of 16 bytes, 8 to a 128-byte line; NOPs,
 * which issue one a cycle): without prefetch k - 1 more misses than with it. A warp asks for its
 * next instruction as it issues the one before, so a miss costs icache_miss_latency (20) from
 * there: 19 cycles more than the hit that issues the next cycle */
START_TEST(test_ifetch_straight_line)
{
	static const char *const cfgs[] = {"a100", "h100", "a100-fiber"};
	const unsigned n = 121, lines = ((7 + n) * 16 + 127) / 128;

	for (unsigned i = 0; i < 3; i++) {
		uint64_t cold = run(cfgs[i], "        NOP ;\n", n, 0);
		uint64_t warm = run(cfgs[i], "        NOP ;\n", n, 8);
		ck_assert_msg(cold == warm + (lines - 1) * 19, "%s: %llu cycles without prefetch, %llu "
		              "with, %u lines", cfgs[i], (unsigned long long)cold,
		              (unsigned long long)warm, lines);
	}
}
END_TEST

/* a loop of one line run 64 times: its line misses once either way; prefetch changes only the
 * lines before and after it (3 lines in all: at most 2 misses apart) */
START_TEST(test_ifetch_loop)
{
	static const char loop[] =
		"        MOV R12, RZ ;\n"
		".L_loop:\n"
		"        IADD3 R12, R12, 0x1, RZ ;\n"
		"        ISETP.LT.U32.AND P0, PT, R12, 0x40, PT ;\n"
		"    @P0 BRA `(.L_loop) ;\n";
	uint64_t cold = run("a100", loop, 1, 0), warm = run("a100", loop, 1, 8);

	ck_assert_uint_le(warm, cold);
	ck_assert_uint_le(cold - warm, 2 * 20);
}
END_TEST

Suite *
ifetch_suite(void)
{
	Suite *s = suite_create("ifetch");
	TCase *tc = tcase_create("ifetch");

	tcase_add_test(tc, test_ifetch_straight_line);
	tcase_add_test(tc, test_ifetch_loop);
	suite_add_tcase(s, tc);
	return s;
}
