/* check_fiberstats.c: the FIBER statistics outputs from a synthetic launch (no simulation): the
 * "fiber" object of the statistics JSON (keys, values, derived peak / mean / occupancy), its
 * absence in a SIMT launch, the trace's "fibers" / "vector registers" counter events, the
 * --fiber-svg chart (well-formed, one step polyline of 2 x samples points per panel; refused
 * without a FIBER kernel), the new CPI reasons in the CPI SVG (own colours) and the summary, and
 * `fibersim compare`'s FIBER rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "json.h"
#include "outputs.h"
#include "rt.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *
fs_slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *s;
	long len;

	ck_assert_msg(fp != NULL, "cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	s = malloc((size_t)len + 1);
	ck_assert(fread(s, 1, (size_t)len, fp) == (size_t)len);
	s[len] = 0;
	fclose(fp);
	if (n)
		*n = (size_t)len;
	return s;
}

/* a device with one recorded synthetic launch; fiber: with the FIBER figures and a timeline of
 * 4 samples (0: 128 fibers 256 regs, 100: 256/512, 300: 64/128, 350: 64/128), 400 cycles */
static fiberDevice
synthetic(int fiber, const char *trace)
{
	fiberDevice d;
	RtLaunch l;
	TraceBuf tb;

	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	if (trace)
		ck_assert_int_eq(fiberDeviceSetTrace(d, trace, 0), FIBER_SUCCESS);
	memset(&l, 0, sizeof l);
	memset(&tb, 0, sizeof tb);
	l.kernel = strdup("kfiber");
	snprintf(l.config, sizeof l.config, "%s", "a100-fiber");
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.block[0] = 128, l.block[1] = l.block[2] = 1;
	l.mode = FIBER_MODE_TIMING;
	l.nsm = 108, l.subpartitions = 4, l.clock_mhz = 1410;
	l.cfg = d->cfg;
	l.t.cycles = 400;
	l.t.warp_instructions = 1000;
	l.t.cpi[CpiIssue] = 1000;
	l.t.cpi[CpiIdle] = 400 * 108 * 4 - 1000;
	if (fiber) {
		static const SimFiberSample tl[4] = {{0, 128, 256}, {100, 256, 512}, {300, 64, 128},
		                                     {350, 64, 128}};
		l.t.fiber = 1;
		l.t.fiber_remote_reads = 11, l.t.fiber_xbar_conflicts = 12, l.t.fiber_rpa_conflicts = 13;
		l.t.fiber_busy_waits = 14, l.t.fiber_busy_wait_cycles = 15, l.t.fiber_setfibernum = 2;
		l.t.fiber_setfibernum_cycles = 17, l.t.fiber_rs_smem_reads = 18;
		l.t.fiber_xbar_reads = 10;
		l.t.fiber_tl = malloc(sizeof tl);
		memcpy(l.t.fiber_tl, tl, sizeof tl);
		l.t.nfiber_tl = 4;
		l.t.cpi[CpiBusyWait] = 300, l.t.cpi[CpiFiberSync] = 200, l.t.cpi[CpiRemoteRead] = 100;
		l.t.cpi[CpiIdle] -= 600;
	}
	if (trace)
		rt_trace_add(d, &l, &tb);
	rt_launch_record(d, &l);
	return d;
}

/* the timeline is freed here whether or not simtstats_free frees it */
static void
destroy(fiberDevice d)
{
	free(d->launch[0].t.fiber_tl);
	d->launch[0].t.fiber_tl = NULL;
	d->launch[0].t.nfiber_tl = 0;
	fiberDeviceDestroy(d);
}

static JVal *
stats_of(fiberDevice d, char **text, size_t *n)
{
	char path[] = "/tmp/fiberstats-XXXXXX", err[256];
	int fd = mkstemp(path);
	JVal *v;

	ck_assert(fd >= 0);
	close(fd);
	ck_assert_int_eq(fiberWriteStatsJSON(d, path), FIBER_SUCCESS);
	*text = fs_slurp(path, n);
	unlink(path);
	v = json_parse(*text, *n, err, sizeof err);
	ck_assert_msg(v != NULL, "stats JSON: %s", err);
	return v;
}

static double
num(const JVal *k, const char *path)
{
	const JVal *v = json_path(k, path);

	ck_assert_msg(v && v->type == JNum, "no number at %s", path);
	return v->num;
}

START_TEST(test_fiber_json)
{
	fiberDevice d = synthetic(1, NULL);
	char *text;
	size_t n;
	JVal *v = stats_of(d, &text, &n);
	const JVal *k = &json_get(v, "kernels")->kid[0], *tl;

	ck_assert(num(k, "fiber.remote_reads") == 11);
	ck_assert(num(k, "fiber.xbar_conflicts") == 12);
	ck_assert(num(k, "fiber.rpa_conflicts") == 13);
	ck_assert(num(k, "fiber.busy_waits") == 14);
	ck_assert(num(k, "fiber.busy_wait_cycles") == 15);
	ck_assert(num(k, "fiber.setfibernum") == 2);
	ck_assert(num(k, "fiber.setfibernum_cycles") == 17);
	ck_assert(num(k, "fiber.rs_smem_reads") == 18);
	ck_assert(num(k, "fiber.xbar_reads") == 10);
	ck_assert(num(k, "fiber.peak_fibers") == 256);
	ck_assert(num(k, "fiber.peak_regs") == 512);
	/* (128 x 100 + 256 x 200 + 64 x 50 + 64 x 50) / 400 = 176 */
	ck_assert_msg(num(k, "fiber.mean_fibers") == 176, "mean %g", num(k, "fiber.mean_fibers"));
	ck_assert(num(k, "fiber.mean_regs") == 352);
	ck_assert(num(k, "fiber.rf_regs") == 2048);
	ck_assert(num(k, "fiber.rf_peak_occupancy") == 0.25);
	ck_assert(num(k, "fiber.rf_mean_occupancy") == 352.0 / 2048);
	tl = json_path(k, "fiber.timeline");
	ck_assert(json_get(tl, "cycle")->n == 4 && json_get(tl, "fibers")->n == 4 &&
	          json_get(tl, "regs")->n == 4);
	ck_assert(json_get(tl, "cycle")->kid[2].num == 300);
	ck_assert(json_get(tl, "fibers")->kid[1].num == 256);
	ck_assert(json_get(tl, "regs")->kid[3].num == 128);
	json_free(v);
	free(text);
	destroy(d);
}
END_TEST

/* every key of the fiber object is in docs/sim-stats.md as `fiber.KEY` */
START_TEST(test_fiber_keys_documented)
{
	fiberDevice d = synthetic(1, NULL);
	char *text, *doc, pat[128], path[4096];
	size_t n;
	JVal *v = stats_of(d, &text, &n);
	const JVal *f = json_get(&json_get(v, "kernels")->kid[0], "fiber");

	snprintf(path, sizeof path, "%s/docs/sim-stats.md",
	         getenv("FIBER_ROOT") ? getenv("FIBER_ROOT") : ".");
	doc = fs_slurp(path, NULL);
	ck_assert(f && f->type == JObj && f->n >= 16);
	for (size_t k = 0; k < f->n; k++) {
		snprintf(pat, sizeof pat, "`fiber.%s%s", f->kid[k].key,
		         f->kid[k].type == JObj ? "." : "`");
		ck_assert_msg(strstr(doc, pat), "%s is not in docs/sim-stats.md", pat);
	}
	json_free(v);
	free(text);
	free(doc);
	destroy(d);
}
END_TEST

START_TEST(test_simt_has_no_fiber)
{
	fiberDevice d = synthetic(0, NULL);
	char *text;
	size_t n;
	JVal *v = stats_of(d, &text, &n);

	ck_assert(json_get(&json_get(v, "kernels")->kid[0], "fiber") == NULL);
	ck_assert(strstr(text, "\"fiber\":") == NULL);
	json_free(v);
	free(text);
	destroy(d);
}
END_TEST

START_TEST(test_fiber_trace_counters)
{
	char path[] = "/tmp/fibertrace-XXXXXX", err[256];
	int fd = mkstemp(path), nf = 0, nr = 0;
	fiberDevice d;
	char *text;
	size_t n;
	JVal *v;
	const JVal *ev;

	ck_assert(fd >= 0);
	close(fd);
	d = synthetic(1, path);
	ck_assert_int_eq(fiberDeviceSetTrace(d, NULL, 0), FIBER_SUCCESS);
	text = fs_slurp(path, &n);
	unlink(path);
	v = json_parse(text, n, err, sizeof err);
	ck_assert_msg(v != NULL, "trace JSON: %s", err);
	ev = json_get(v, "traceEvents");
	for (size_t k = 0; k < ev->n; k++) {
		const JVal *e = &ev->kid[k];
		const char *ph = json_str(json_get(e, "ph")), *name = json_str(json_get(e, "name"));
		if (!ph || strcmp(ph, "C") != 0)
			continue;
		ck_assert(json_num(json_get(e, "pid"), -1) == 0);
		if (strcmp(name, "fibers") == 0) {
			if (nf == 1)
				ck_assert(json_num(json_get(e, "ts"), -1) == 0.1 &&
				          json_num(json_path(e, "args.fibers"), -1) == 256);
			nf++;
		} else if (strcmp(name, "vector registers") == 0) {
			if (nr == 2)
				ck_assert(json_num(json_get(e, "ts"), -1) == 0.3 &&
				          json_num(json_path(e, "args.regs"), -1) == 128);
			nr++;
		}
	}
	ck_assert_int_eq(nf, 4);
	ck_assert_int_eq(nr, 4);
	json_free(v);
	free(text);
	destroy(d);
}
END_TEST

/* occurrences of needle in s */
static int
count(const char *s, const char *needle)
{
	int c = 0;

	for (; (s = strstr(s, needle)); s++)
		c++;
	return c;
}

START_TEST(test_fiber_svg)
{
	fiberDevice d = synthetic(1, NULL), ds = synthetic(0, NULL);
	char *text, *stext, *svg, err[256], perr[256];
	size_t n, sn, len;
	JVal *v = stats_of(d, &text, &n), *sv = stats_of(ds, &stext, &sn);
	FILE *mem = open_memstream(&svg, &len);
	const char *p;

	ck_assert_int_eq(cli_fiber_svg(text, n, "kfiber <&>", mem, err, sizeof err), 0);
	fclose(mem);
	ck_assert(strncmp(svg, "<?xml", 5) == 0);
	ck_assert(count(svg, "<svg ") == 1 && count(svg, "</svg>") == 1);
	ck_assert(count(svg, "<g ") == count(svg, "</g>"));
	ck_assert(count(svg, "<text") == count(svg, "</text>"));
	ck_assert(strstr(svg, "kfiber &lt;&amp;&gt;") && !strstr(svg, "<&>"));
	ck_assert(strstr(svg, ">cycle<") && strstr(svg, "active fibers (peak 256)") &&
	          strstr(svg, "vector registers allocated (peak 512 of 2048)"));
	ck_assert_int_eq(count(svg, "<polyline"), 2);
	/* each polyline: 2 points per sample */
	for (p = svg; (p = strstr(p, "points=\"")); p++) {
		int pts = 0;
		for (const char *q = p + 8; *q != '"'; q++)
			pts += *q == ',';
		ck_assert_int_eq(pts, 8);
	}
	free(svg);
	/* the fibers line ends at the kernel's end at the last sample's height: x 70 + 640 */
	mem = open_memstream(&svg, &len);
	ck_assert_int_eq(cli_fiber_svg(stext, sn, NULL, mem, err, sizeof err), -1);
	fclose(mem);
	ck_assert(strstr(err, "FIBER model"));
	free(svg);
	ck_assert(json_parse("{", 1, perr, sizeof perr) == NULL);
	mem = open_memstream(&svg, &len);
	ck_assert_int_eq(cli_fiber_svg("{", 1, NULL, mem, err, sizeof err), -1);
	fclose(mem);
	ck_assert(strstr(err, "not a statistics JSON"));
	free(svg);
	json_free(v);
	json_free(sv);
	free(text);
	free(stext);
	destroy(d);
	destroy(ds);
}
END_TEST

START_TEST(test_fiber_compare)
{
	fiberDevice d = synthetic(1, NULL), ds = synthetic(0, NULL);
	char *a, *b, *out, err[256];
	size_t an, bn, len;
	JVal *va = stats_of(d, &a, &an), *vb = stats_of(ds, &b, &bn);
	FILE *mem = open_memstream(&out, &len);

	ck_assert_int_eq(out_compare(a, an, "A.json", b, bn, "B.json", 0, 1, mem, err, sizeof err), 0);
	fclose(mem);
	ck_assert_msg(strstr(out, "fiber.remote_reads") && strstr(out, "fiber.busy_wait_cycles") &&
	              strstr(out, "fiber.setfibernum_cycles") && strstr(out, "fiber.peak_fibers") &&
	              strstr(out, "fiber.mean_fibers"), "%s", out);
	ck_assert(strstr(out, "fiber.setfibernum              "));
	free(out);
	/* two SIMT runs: no FIBER rows */
	mem = open_memstream(&out, &len);
	ck_assert_int_eq(out_compare(b, bn, "A.json", b, bn, "B.json", 0, 1, mem, err, sizeof err), 0);
	fclose(mem);
	ck_assert(!strstr(out, "fiber."));
	free(out);
	/* --json */
	mem = open_memstream(&out, &len);
	ck_assert_int_eq(out_compare(a, an, "A.json", a, an, "B.json", 1, 1, mem, err, sizeof err), 0);
	fclose(mem);
	ck_assert(strstr(out, "\"fiber.busy_waits\": {\"a\": 14, \"b\": 14, \"b_over_a\": 1}"));
	free(out);
	json_free(va);
	json_free(vb);
	free(a);
	free(b);
	destroy(d);
	destroy(ds);
}
END_TEST

/* the new reasons in the CPI SVG with their own colours, in the summary's stack */
START_TEST(test_fiber_cpi_outputs)
{
	fiberDevice d = synthetic(1, NULL);
	char *text, *svg, err[256];
	size_t n, len;
	JVal *v = stats_of(d, &text, &n);
	FILE *mem = open_memstream(&svg, &len);

	ck_assert(num(&json_get(v, "kernels")->kid[0], "cpi_stack.busy_wait") == 300);
	ck_assert(num(&json_get(v, "kernels")->kid[0], "cpi_stack.remote_read") == 100);
	ck_assert_int_eq(cli_cpi_svg(text, n, "k", mem, err, sizeof err), 0);
	fclose(mem);
	ck_assert(strstr(svg, "fill=\"#98df8a\"") && strstr(svg, "fill=\"#c5b0d5\"") &&
	          strstr(svg, "fill=\"#ff9896\"") && !strstr(svg, "#555555\">"));
	free(svg);
	mem = open_memstream(&svg, &len);
	ck_assert_int_eq(fiberPrintSummary(d, mem), FIBER_SUCCESS);
	fclose(mem);
	ck_assert_msg(strstr(svg, "busy_wait") && strstr(svg, "fiber_sync") &&
	              strstr(svg, "FIBER: fibers peak 256 mean 176.0; registers peak 512 of 2048; 11 "
	                     "remote reads (10 through the crossbar, 12 cycles waiting for a crossbar port, "
	                     "13 read-port conflicts); 14 busy-bit waits "
	                     "(15 cycles); 2 SETFIBERNUM (17 cycles)"), "%s", svg);
	free(svg);
	json_free(v);
	free(text);
	destroy(d);
}
END_TEST

Suite *
fiberstats_suite(void)
{
	Suite *s = suite_create("fiberstats");
	TCase *tc = tcase_create("fiberstats");

	tcase_add_test(tc, test_fiber_json);
	tcase_add_test(tc, test_fiber_keys_documented);
	tcase_add_test(tc, test_simt_has_no_fiber);
	tcase_add_test(tc, test_fiber_trace_counters);
	tcase_add_test(tc, test_fiber_svg);
	tcase_add_test(tc, test_fiber_compare);
	tcase_add_test(tc, test_fiber_cpi_outputs);
	suite_add_tcase(s, tc);
	return s;
}
