/* check_outputs.c: the simulator's outputs. The CPI-reason names of the code (timing/cpireasons.h)
 * are those docs/sim-stats.md, docs/sim-timing.md and man/fibersim.1 list, and every key of the
 * statistics JSON is documented; the trace keeps its whole budget whichever SMs are busy, gives
 * each stall span the PC of the instruction that waited and is the same for any thread count;
 * the CPI stack by instruction sums to the CPI stack; `compare` and `annotate` read what
 * fiberWriteStatsJSON writes.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiber.h"
#include "json.h"
#include "timing.h"

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	ck_assert(fread(b, 1, (size_t)n, f) == (size_t)n);
	b[n] = 0;
	fclose(f);
	if (len)
		*len = (size_t)n;
	return b;
}

static char *
root_file(const char *rel)
{
	const char *root = getenv("FIBER_ROOT");
	static char path[4096];

	snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
	return slurp(path, NULL);
}

/* the text from the line starting with head to the next line starting with stop (or the end) */
static char *
section(char *doc, const char *head, const char *stop)
{
	char *a = strstr(doc, head), *b;

	ck_assert_msg(a != NULL, "no section '%s'", head);
	b = a + strlen(head);
	while ((b = strstr(b, stop)) && b[-1] != '\n')
		b++;
	if (b)
		*b = 0;
	return a;
}

static int
reason_index(const char *name, size_t n)
{
	for (int r = 0; r < NCpi; r++)
		if (strlen(cpi_name[r]) == n && strncmp(cpi_name[r], name, n) == 0)
			return r;
	return -1;
}

/* a markdown table's first column of `key` rows: every reason once, nothing else */
static void
check_table(const char *what, const char *text)
{
	int seen[NCpi] = {0};

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e;
		int r;
		if (strncmp(l, "| `", 3) != 0)
			continue;
		e = strchr(l + 3, '`');
		ck_assert(e != NULL);
		r = reason_index(l + 3, (size_t)(e - l - 3));
		ck_assert_msg(r >= 0, "%s names the reason '%.*s', which the code does not have", what,
		              (int)(e - l - 3), l + 3);
		ck_assert_msg(!seen[r], "%s lists '%s' twice", what, cpi_name[r]);
		seen[r] = 1;
	}
	for (int r = 0; r < NCpi; r++)
		ck_assert_msg(seen[r], "%s does not list the reason '%s'", what, cpi_name[r]);
}

START_TEST(test_cpi_names_in_docs)
{
	char *stats = root_file("docs/sim-stats.md"), *timing = root_file("docs/sim-timing.md");
	char *man = root_file("man/fibersim.1"), *trace, *mansec, *p;
	int seen[NCpi] = {0};

	/* the trace section's span names: "... the reason it stalled: `a`, `b`, ...)" */
	trace = strstr(stats, "## Trace");
	ck_assert(trace != NULL);
	p = strstr(trace, "the reason it stalled:");
	ck_assert_msg(p != NULL, "the trace section does not name the stall reasons");
	{
		char *close = strchr(p, ')');
		ck_assert(close != NULL);
		for (p = strchr(p, '`'); p && p < close; p = strchr(p, '`')) {
			char *e = strchr(p + 1, '`');
			ck_assert(e != NULL);
			ck_assert_msg(reason_index(p + 1, (size_t)(e - p - 1)) >= 0,
			              "the trace section names the reason '%.*s', which the code does not "
			              "have", (int)(e - p - 1), p + 1);
			p = e + 1;
		}
	}
	check_table("docs/sim-stats.md", section(stats, "## CPI stack reasons", "## "));
	check_table("docs/sim-timing.md", section(timing, "## The CPI stack", "## "));

	/* the man page: ".TP\n.B reason" entries under .SH CPI STACK, and the summary's example */
	for (p = strstr(man, "  CPI stack: "); p; p = strstr(p + 1, "  CPI stack: ")) {
		char *q = p + strlen("  CPI stack: ");
		while (*q && *q != '\n') {
			size_t n = strcspn(q, " ");
			ck_assert_msg(reason_index(q, n) >= 0, "man/fibersim.1's summary names '%.*s'",
			              (int)n, q);
			q += n;
			q += strcspn(q, ",\n");
			if (*q == ',')
				q += 2;
		}
	}
	mansec = section(man, ".SH CPI STACK", ".SH ");
	for (p = strstr(mansec, ".TP\n.B "); p; p = strstr(p + 1, ".TP\n.B ")) {
		char *q = p + strlen(".TP\n.B ");
		size_t n = strcspn(q, "\n");
		int r = reason_index(q, n);
		ck_assert_msg(r >= 0, "man/fibersim.1 names the reason '%.*s'", (int)n, q);
		seen[r] = 1;
	}
	for (int r = 0; r < NCpi; r++)
		ck_assert_msg(seen[r], "man/fibersim.1 does not list the reason '%s'", cpi_name[r]);
	free(stats);
	free(timing);
	free(man);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Runs of examples/softmax: 8 rows of 256, `grid` CTAs.
 */
typedef struct Run {
	char stats[64], trace[64];
	fiberDevice dev;
} Run;

static void
tmpname(char *buf, size_t n, const char *what)
{
	int fd;

	snprintf(buf, n, "/tmp/check_outputs_%s_XXXXXX", what);
	fd = mkstemp(buf);
	ck_assert(fd >= 0);
	close(fd);
}

/* a timed softmax launch on a100 with threads host threads and a trace of at most limit spans
 * (0: no trace); the statistics file and the trace are written */
static void
softmax_run(Run *r, unsigned grid, unsigned threads, uint64_t limit, const char *set)
{
	const char *root = getenv("FIBER_ROOT");
	char path[4096];
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr dx, dy;
	static float x[2048];
	int rows = 8, cols = 256;
	unsigned g[3] = {grid, 1, 1}, b[3] = {128, 1, 1};
	void *params[] = {&dx, &dy, &rows, &cols};

	memset(r, 0, sizeof *r);
	for (int k = 0; k < 2048; k++)
		x[k] = (float)(k % 17) * 0.25f - 2.0f;
	ck_assert_int_eq(fiberDeviceCreate(&r->dev, "a100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetThreads(r->dev, threads), FIBER_SUCCESS);
	if (set)
		ck_assert_int_eq(fiberDeviceSetConfigValue(r->dev, set), FIBER_SUCCESS);
	tmpname(r->stats, sizeof r->stats, "stats");
	if (limit) {
		tmpname(r->trace, sizeof r->trace, "trace");
		ck_assert_int_eq(fiberDeviceSetTrace(r->dev, r->trace, limit), FIBER_SUCCESS);
	}
	snprintf(path, sizeof path, "%s/examples/softmax/softmax.sm_80.sass", root ? root : ".");
	ck_assert_msg(fiberModuleLoadFile(&m, r->dev, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(r->dev));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(r->dev, &dx, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(r->dev, &dy, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(r->dev, dx, x, sizeof x), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(r->dev));
	ck_assert_int_eq(fiberWriteStatsJSON(r->dev, r->stats), FIBER_SUCCESS);
}

static void
run_finish(Run *r)
{
	fiberDeviceDestroy(r->dev);      /* writes the trace */
	r->dev = NULL;
}

static void
run_remove(Run *r)
{
	unlink(r->stats);
	if (r->trace[0])
		unlink(r->trace);
}

static JVal *
load_json(const char *path)
{
	size_t n;
	char *text = slurp(path, &n), err[256];
	JVal *v = json_parse(text, n, err, sizeof err);

	ck_assert_msg(v != NULL, "%s: %s", path, err);
	free(text);
	return v;
}

/* every key of the statistics JSON is in docs/sim-stats.md as `path` or `last.part` */
static void
keys_documented(const JVal *v, const char *path, const char *doc)
{
	char full[256], pat[300];

	if (v->type == JArr) {
		for (size_t k = 0; k < v->n; k++)
			keys_documented(&v->kid[k], path, doc);
		return;
	}
	if (v->type != JObj)
		return;
	for (size_t k = 0; k < v->n; k++) {
		const JVal *e = &v->kid[k];
		int found;
		snprintf(full, sizeof full, "%s%s%s", path, *path ? "." : "", e->key);
		/* configuration keys are docs/sim-config.md's, CPI reasons are checked above */
		if (strcmp(path, "configuration") == 0 || strstr(path, "cpi_stack") ||
		    strcmp(path, "stalls") == 0)
			continue;
		snprintf(pat, sizeof pat, "`%s`", full);
		found = strstr(doc, pat) != NULL;
		if (!found) {
			snprintf(pat, sizeof pat, "`%s`", e->key);
			found = strstr(doc, pat) != NULL;
		}
		if (!found && e->type == JObj) {     /* an object documented by its members */
			snprintf(pat, sizeof pat, "`%s.", full);
			found = strstr(doc, pat) != NULL;
		}
		ck_assert_msg(found, "the statistics key '%s' is not in docs/sim-stats.md", full);
		/* nested objects are documented by dotted path below the top level */
		keys_documented(e, strcmp(e->key, "kernels") == 0 || strcmp(e->key, "per_sm") == 0 ||
		                   strcmp(e->key, "instructions") == 0 ? "" : full, doc);
	}
}

START_TEST(test_stats_keys_documented)
{
	Run r;
	JVal *v;
	char *doc = root_file("docs/sim-stats.md");

	softmax_run(&r, 2, 1, 0, NULL);
	run_finish(&r);
	v = load_json(r.stats);
	keys_documented(v, "", doc);
	json_free(v);
	run_remove(&r);
	free(doc);
}
END_TEST

/* the CPI stack by instruction: issues sum to the warp instructions, every reason's cycles to the
 * CPI stack's (idle: at most), and the same with 3 host threads */
START_TEST(test_pc_stats_sum_to_cpi_stack)
{
	Run r1, r3;
	JVal *a, *b;
	const JVal *ka, *ins, *cpi;
	double sum[NCpi] = {0};

	softmax_run(&r1, 8, 1, 0, NULL);
	run_finish(&r1);
	softmax_run(&r3, 8, 3, 0, NULL);
	run_finish(&r3);
	a = load_json(r1.stats);
	b = load_json(r3.stats);
	ka = &json_get(a, "kernels")->kid[0];
	ins = json_get(ka, "instructions");
	ck_assert_msg(ins && ins->type == JArr && ins->n > 10, "no per-instruction statistics");
	for (size_t k = 0; k < ins->n; k++) {
		const JVal *e = &ins->kid[k], *st = json_get(e, "stalls");
		double stall = 0;
		ck_assert(json_str(json_get(e, "op")) != NULL);
		sum[CpiIssue] += json_num(json_get(e, "issued"), -1);
		for (size_t j = 0; j < st->n; j++) {
			int rr = reason_index(st->kid[j].key, strlen(st->kid[j].key));
			ck_assert_msg(rr > 0, "unknown reason '%s'", st->kid[j].key);
			sum[rr] += st->kid[j].num;
			stall += st->kid[j].num;
		}
		ck_assert(stall == json_num(json_get(e, "stall_cycles"), -1));
	}
	ck_assert(sum[CpiIssue] == json_num(json_get(ka, "warp_instructions"), -1));
	cpi = json_get(ka, "cpi_stack");
	for (int rr = 0; rr < NCpi; rr++) {
		double want = json_num(json_get(cpi, cpi_name[rr]), -1);
		if (rr == CpiIdle)
			ck_assert(sum[rr] <= want);
		else
			ck_assert_msg(sum[rr] == want, "%s: instructions sum to %.0f, the stack has %.0f",
			              cpi_name[rr], sum[rr], want);
	}
	{
		const JVal *ib = json_get(&json_get(b, "kernels")->kid[0], "instructions");
		ck_assert_uint_eq(ib->n, ins->n);
		for (size_t k = 0; k < ins->n; k++) {
			ck_assert(json_num(json_get(&ins->kid[k], "issued"), -1) ==
			          json_num(json_get(&ib->kid[k], "issued"), -2));
			ck_assert(json_num(json_get(&ins->kid[k], "stall_cycles"), -1) ==
			          json_num(json_get(&ib->kid[k], "stall_cycles"), -2));
		}
	}
	json_free(a);
	json_free(b);
	run_remove(&r1);
	run_remove(&r3);
}
END_TEST

/* the spans of a trace ("ph": "X") */
static void
trace_spans(const JVal *t, size_t *n, const JVal ***out)
{
	const JVal *ev = json_get(t, "traceEvents");

	*n = 0;
	*out = malloc(ev->n * sizeof **out);
	for (size_t k = 0; k < ev->n; k++)
		if (strcmp(json_str(json_get(&ev->kid[k], "ph")), "X") == 0)
			(*out)[(*n)++] = &ev->kid[k];
}

/* 8 CTAs on 108 SMs with a budget of 1000 spans (the launch makes several thousand): the trace
 * holds 1000, says how many were dropped, and is the same with 4 host threads */
START_TEST(test_trace_budget_shared)
{
	Run r1, r4;
	JVal *t;
	size_t n, len1, len4;
	const JVal **sp;
	uint64_t kept = 0, dropped = 0;
	uint32_t untraced = 9;
	char *f1, *f4;

	ck_assert_int_eq(fiberDeviceGetTraceCounts(NULL, &kept, &dropped, &untraced),
	                 FIBER_ERROR_INVALID_HANDLE);
	softmax_run(&r1, 8, 1, 1000, NULL);
	ck_assert_int_eq(fiberDeviceGetTraceCounts(r1.dev, &kept, &dropped, &untraced), FIBER_SUCCESS);
	run_finish(&r1);
	ck_assert_uint_eq(kept, 1000);
	ck_assert_uint_gt(dropped, 0);
	ck_assert_uint_eq(untraced, 0);
	t = load_json(r1.trace);
	trace_spans(t, &n, &sp);
	ck_assert_uint_eq(n, 1000);
	ck_assert(json_num(json_path(t, "otherData.dropped_events"), -1) == (double)dropped);
	free(sp);
	json_free(t);
	softmax_run(&r4, 8, 4, 1000, NULL);
	run_finish(&r4);
	f1 = slurp(r1.trace, &len1);
	f4 = slurp(r4.trace, &len4);
	ck_assert_msg(len1 == len4 && memcmp(f1, f4, len1) == 0,
	              "the trace differs between 1 and 4 host threads");
	free(f1);
	free(f4);
	run_remove(&r1);
	run_remove(&r4);
}
END_TEST

/* a stall span has the PC of the instruction its warp issues when it ends */
START_TEST(test_trace_stall_pc)
{
	Run r;
	JVal *t;
	size_t n, stalls = 0;
	const JVal **sp;

	softmax_run(&r, 2, 1, 100000, NULL);
	run_finish(&r);
	t = load_json(r.trace);
	trace_spans(t, &n, &sp);
	ck_assert_uint_gt(n, 100);
	for (size_t k = 0; k < n; k++) {
		const JVal *s = sp[k];
		double end;
		int matched = 0;
		if (strcmp(json_str(json_get(s, "name")), "issue") == 0)
			continue;
		stalls++;
		end = json_num(json_get(s, "ts"), 0) + json_num(json_get(s, "dur"), 0);
		for (size_t j = 0; j < n && !matched; j++) {
			const JVal *i = sp[j];
			if (strcmp(json_str(json_get(i, "name")), "issue") != 0 ||
			    json_num(json_get(i, "pid"), -1) != json_num(json_get(s, "pid"), -2) ||
			    json_num(json_get(i, "tid"), -1) != json_num(json_get(s, "tid"), -2) ||
			    json_num(json_get(i, "ts"), -1) < end - 1e-9 ||
			    json_num(json_get(i, "ts"), -1) > end + 1e-9)
				continue;
			ck_assert_str_eq(json_str(json_path(s, "args.pc")), json_str(json_path(i, "args.pc")));
			matched = 1;
		}
		ck_assert_msg(matched, "a stall span is not followed by its warp's issue");
	}
	ck_assert_uint_gt(stalls, 10);
	free(sp);
	json_free(t);
	run_remove(&r);
}
END_TEST

Suite *
outputs_suite(void)
{
	Suite *s = suite_create("outputs");
	TCase *tc = tcase_create("docs");

	tcase_add_test(tc, test_cpi_names_in_docs);
	tcase_add_test(tc, test_stats_keys_documented);
	suite_add_tcase(s, tc);
	tc = tcase_create("pcstats");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_pc_stats_sum_to_cpi_stack);
	suite_add_tcase(s, tc);
	tc = tcase_create("trace");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_trace_budget_shared);
	tcase_add_test(tc, test_trace_stall_pc);
	suite_add_tcase(s, tc);
	return s;
}
