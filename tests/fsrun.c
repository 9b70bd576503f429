/* fsrun.c: one hand-written FIBER SASS kernel run on the simulator for the Check suites
 * (fsrun.h): parse, load on a built-in configuration with `--set` edits, launch with a 512-word
 * output buffer, read the buffer back. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fsrun.h"

int
fs_run(FsRun *r, const char *config, const char *dirs, const char *body, uint32_t grid,
       uint32_t nthreads, const char *const *set, int timed)
{
	char text[8192], err[512];
	SimConfig c;
	LaunchParams lp = { { grid, 1, 1 }, { nthreads, 1, 1 }, 0, NULL, 8, 0, { 0, 0, 0 } };
	int rc;

	memset(r, 0, sizeof *r);
	snprintf(text, sizeof text, "\t.section\t.text.kern,\"ax\",@progbits\n%skern:\n%s", dirs,
	         body);
	ck_assert_int_eq(simcfg_builtin(&c, config), 0);
	for (; set && *set; set++)
		ck_assert_msg(simcfg_set(&c, *set, err, sizeof err) == 0, "%s", err);
	c.t.icache_bytes = 0;
	r->src = src_new("kern.fsass", text, strlen(text));
	r->errf = open_memstream(&r->err, &r->nerr);
	diag_init(&r->d, r->src, r->errf);
	r->m = sass_parse(r->src, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->m != NULL, "parse failed:\n%s", r->err);
	r->g = gpu_new(simcfg_gpu(&c));
	r->sm = sim_module_load(r->g, r->m, &r->d);
	fflush(r->errf);
	ck_assert_msg(r->sm != NULL, "load failed:\n%s", r->err);
	r->k = sim_module_kernel(r->sm, "kern");
	ck_assert_ptr_nonnull(r->k);
	ck_assert_int_eq(gpu_malloc(r->g, sizeof r->val, &r->out), 0);
	for (unsigned k = 0; k < 512; k++)
		r->val[k] = 0xdeadbeef;
	ck_assert_int_eq(gpu_write(r->g, r->out, r->val, sizeof r->val), 0);
	lp.params = &r->out;
	rc = timed ? sim_launch_timed(r->g, &c, r->sm, r->k, &lp, NULL, &r->st, &r->f)
	           : sim_launch(r->g, r->sm, r->k, &lp, NULL, &r->f);
	ck_assert_int_eq(gpu_read(r->g, r->out, r->val, sizeof r->val), 0);
	return rc;
}

void
fs_done(FsRun *r)
{
	simtstats_free(&r->st);
	sim_module_free(r->sm);
	gpu_free(r->g);
	module_free(r->m);
	src_free(r->src);
	fclose(r->errf);
	free(r->err);
}
