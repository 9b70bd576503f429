/* check_arch.c: the architecture table (ir/arch.h, docs/arch.md). Its lookups, by name, by
 * number and for numbers without a row; every row self-consistent (names, order, rules or like,
 * constant bank 0, the device and its built-in configuration); and each gate that reads a column
 * accepting the rows that have it and refusing the others with its message: the SASS reader, the
 * runtime, fiberc --arch, fibersim --arch and the configuration key arch.
 * Files come from $FIBER_ROOT (the runner sets it; default: the current directory).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fiber.h"
#include "frontend.h"
#include "kernrun.h"
#include "parse.h"
#include "simcfg.h"

static size_t
nrows(void)
{
	size_t n = 0;

	while (arch_at(n))
		n++;
	return n;
}

/* ---- lookups -------------------------------------------------------------------------------- */

START_TEST(test_arch_lookup_row)
{
	const Arch *a = arch_at((size_t)_i);
	char name[32];
	int sm = -1, sfx = -1;

	snprintf(name, sizeof name, "sm_%d%s", a->sm, a->suffix == 'a' ? "a" : "");
	ck_assert_str_eq(a->name, name);
	ck_assert_ptr_eq(arch_named(a->name), a);
	ck_assert_ptr_eq(arch_find(a->sm, a->suffix), a);
	ck_assert_int_eq(sm_of_string(a->name, &sm, &sfx), 0);
	ck_assert_int_eq(sm, a->sm);
	ck_assert_int_eq(sfx, a->suffix);
	/* a plain row governs its own number */
	if (!a->suffix)
		ck_assert_ptr_eq(arch_of_sm(a->sm), a);
	ck_assert_ptr_eq(arch_code(a->sm), arch_of_sm(a->sm)->like ? arch_of_sm(a->sm)->like
	                                                           : arch_of_sm(a->sm));
}
END_TEST

START_TEST(test_arch_lookup_misses)
{
	int sm = -1, sfx = -1;

	ck_assert_ptr_null(arch_named("sm_75"));
	ck_assert_ptr_null(arch_named("sm_90b"));
	ck_assert_ptr_null(arch_named("compute_90"));
	ck_assert_ptr_null(arch_find(90, 'f'));
	ck_assert_ptr_null(arch_find(88, 0));
	ck_assert_ptr_null(arch_at(nrows()));
	/* sm_of_string: a number with a row, then nothing, a or f */
	ck_assert_int_eq(sm_of_string("sm_90f", &sm, &sfx), 0);
	ck_assert_int_eq(sm, 90);
	ck_assert_int_eq(sfx, 'f');
	ck_assert_int_eq(sm_of_string("sm_87", &sm, &sfx), 0);
	ck_assert_int_eq(sm, 87);
	ck_assert_int_eq(sfx, 0);
	ck_assert_int_eq(sm_of_string("sm_75", &sm, &sfx), -1);
	ck_assert_int_eq(sm_of_string("sm_88", &sm, &sfx), -1);
	ck_assert_int_eq(sm_of_string("sm_90b", &sm, &sfx), -1);
	ck_assert_int_eq(sm_of_string("sm_90aa", &sm, &sfx), -1);
	ck_assert_int_eq(sm_of_string("sm_4294967386", &sm, &sfx), -1);
	ck_assert_int_eq(sm_of_string("compute_90", &sm, &sfx), -1);
}
END_TEST

/* numbers without a row: the newest row below them, else the oldest; 0 is the default */
static const struct {
	int sm;                /* an SM number */
	const char *of;        /* arch_of_sm's row */
	const char *code;      /* arch_code's row */
	const char *sim;       /* arch_sim's row, NULL: the simulator refuses it */
} numbers[] = {
	{ 0, "sm_80", "sm_80", NULL },
	{ 30, "sm_80", "sm_80", NULL },
	{ 79, "sm_80", "sm_80", NULL },
	{ 80, "sm_80", "sm_80", "sm_80" },
	{ 81, "sm_80", "sm_80", "sm_80" },
	{ 87, "sm_87", "sm_86", "sm_86" },
	{ 88, "sm_87", "sm_86", "sm_86" },
	{ 89, "sm_89", "sm_89", "sm_89" },
	{ 90, "sm_90", "sm_90", "sm_90" },
	{ 95, "sm_90", "sm_90", NULL },
	{ 100, "sm_100", "sm_90", NULL },
	{ 110, "sm_103", "sm_90", NULL },
	{ 255, "sm_120", "sm_90", NULL },
};

START_TEST(test_arch_lookup_number)
{
	const Arch *s = arch_sim(numbers[_i].sm);

	ck_assert_str_eq(arch_of_sm(numbers[_i].sm)->name, numbers[_i].of);
	ck_assert_str_eq(arch_code(numbers[_i].sm)->name, numbers[_i].code);
	if (numbers[_i].sim)
		ck_assert_str_eq(s ? s->name : "(null)", numbers[_i].sim);
	else
		ck_assert_msg(s == NULL, "sm %d runs as %s", numbers[_i].sm, s->name);
	/* numbers 1..79 are not run; 0 (unknown) is the runtime's to accept */
}
END_TEST

START_TEST(test_arch_lookup_lists)
{
	char buf[256];

	arch_list(buf, sizeof buf, ArchReads, ", ", ", ");
	ck_assert_str_eq(buf, "sm_80, sm_86, sm_89, sm_90, sm_90a");
	arch_list(buf, sizeof buf, ArchGenerates, ", ", " or ");
	ck_assert_str_eq(buf, "sm_80, sm_86, sm_89, sm_90 or sm_90a");
	arch_list(buf, sizeof buf, ArchDevice, "|", "|");
	ck_assert_str_eq(buf, "sm_80|sm_90");
	arch_sim_list(buf, sizeof buf);
	ck_assert_str_eq(buf, "sm_80..sm_89 and sm_90");
	/* a short buffer is cut, not overrun */
	arch_list(buf, 8, ArchReads, ", ", ", ");
	ck_assert_str_eq(buf, "sm_80, ");
	ck_assert_str_eq(arch_since(ArchFp8), "sm_89");
	ck_assert_str_eq(arch_since(ArchClusters), "sm_90");
	ck_assert_str_eq(arch_default()->name, "sm_80");
}
END_TEST

/* a cubin's e_flags: bits 0..7 from sm_30 up to the first ArchElfHigh row, else bits 8..15 */
static const struct {
	uint64_t flags;        /* e_flags */
	int sm;                /* its SM number */
} elf[] = {
	{ 0x00500550, 80 },    /* the old layout: sm_80 in the low byte */
	{ 0x005a055a, 90 },
	{ 0x0000001e, 30 },
	{ 0x0000641d, 100 },   /* 29 is no SM number: bits 8..15 */
	{ 0x00006464, 100 },   /* 100 is past the old layout */
	{ 0x00007878, 120 },
	{ 0x01006450, 100 },   /* bits 24..31 set: the new layout */
};

START_TEST(test_arch_lookup_elf)
{
	ck_assert_int_eq(arch_sm_of_elf_flags(elf[_i].flags), elf[_i].sm);
}
END_TEST

/* ---- rows ----------------------------------------------------------------------------------- */

START_TEST(test_arch_row_consistent)
{
	const Arch *a = arch_at((size_t)_i), *prev = _i ? arch_at((size_t)_i - 1) : NULL;

	/* order: by number, the plain row before its suffixed ones; every number has a plain row */
	if (prev)
		ck_assert_msg(prev->sm < a->sm || (prev->sm == a->sm && prev->suffix < a->suffix),
		              "%s after %s", a->name, prev->name);
	ck_assert_ptr_nonnull(arch_find(a->sm, 0));
	ck_assert(a->suffix == 0 || a->suffix == 'a');
	/* ArchElfHigh: from some number on, every row */
	if (prev && (prev->support & ArchElfHigh))
		ck_assert_msg(a->support & ArchElfHigh, "%s", a->name);
	if (a->like) {
		/* no rules of its own; like has its own, and this row is not generated for */
		ck_assert_ptr_null(a->like->like);
		ck_assert_ptr_null(a->bank0);
		ck_assert_ptr_null(a->device);
		ck_assert_int_eq(a->features, 0);
		ck_assert_int_eq(a->rsv, 0);
		ck_assert(!(a->support & (ArchGenerates | ArchDevice | ArchReads)));
		if (!a->suffix)
			ck_assert_ptr_eq(arch_code(a->sm), a->like);
		return;
	}
	ck_assert_ptr_nonnull(a->bank0);
	ck_assert_ptr_nonnull(a->device);
	ck_assert_int_eq(a->enc, ArchEnc128);
	ck_assert(a->rsv == ArchRsvAbove || a->rsv == ArchRsvBelow);
	ck_assert_int_eq(a->rsv_bytes, 1024);
	if (a->rsv == ArchRsvAbove)
		ck_assert(a->rsv_align && !(a->rsv_align & (a->rsv_align - 1)));
	/* the device: a row that is its own device, runs, and has a configuration */
	ck_assert_ptr_eq(a->device->device, a->device);
	ck_assert(a->device->support & ArchDevice);
	ck_assert_int_eq(!!(a->support & ArchDevice), a->device == a);
	if (a->support & ArchDevice) {
		ck_assert(a->support & ArchRuns);
		ck_assert_int_eq(a->suffix, 0);
		ck_assert_ptr_nonnull(a->config);
		ck_assert_int_gt(a->nsm, 0);
	} else {
		ck_assert_ptr_null(a->config);
		ck_assert_int_le(a->device->sm, a->sm);
	}
	/* what fiber generates it also reads and runs */
	if (a->support & ArchGenerates)
		ck_assert((a->support & ArchReads) && (a->support & ArchRuns));
}
END_TEST

/* constant bank 0: 4-byte words past the common ones, distinct, the 64-bit ones aligned, the
 * parameters last, the grid-sync workspace's two words adjacent */
START_TEST(test_arch_row_bank0)
{
	const Arch *a = arch_at((size_t)_i);
	const ArchBank0 *b = a->bank0;

	if (a->like)
		return;
	uint16_t w[] = { b->desc, b->desc + 4, b->grid_ws_hi, b->grid_ws_lo, b->rsv_size, b->rsv_end,
	                 b->rsv1 };
	size_t n = sizeof w / sizeof w[0];
	for (size_t i = 0; i < n; i++) {
		if (!w[i]) {
			ck_assert_msg(i == 4 && a->rsv == ArchRsvBelow, "%s: word %zu missing", a->name, i);
			continue;
		}
		ck_assert_int_eq(w[i] % 4, 0);
		ck_assert_int_gt(w[i], C0StackTop);
		ck_assert_int_lt(w[i], b->param);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(w[i] != w[j], "%s: words %zu and %zu at 0x%x", a->name, i, j, w[i]);
	}
	ck_assert_int_eq(b->desc % 8, 0);
	ck_assert_int_eq(b->param % 8, 0);
	ck_assert_int_lt(b->param, 0x400);
	ck_assert_int_eq(b->grid_ws_lo, b->grid_ws_hi + 4);
}
END_TEST

/* a device row's built-in configuration executes it and has the SMs the row says */
START_TEST(test_arch_row_config)
{
	const Arch *a = arch_at((size_t)_i);
	SimConfig c;
	char fname[64];

	if (!(a->support & ArchDevice))
		return;
	ck_assert_int_eq(simcfg_builtin(&c, a->config), 0);
	ck_assert_int_eq(c.sm, a->sm);
	ck_assert_int_eq(c.nsm, a->nsm);
	snprintf(fname, sizeof fname, "%s-fiber", a->config);
	ck_assert_int_eq(simcfg_builtin(&c, fname), 0);
	ck_assert_int_eq(c.sm, a->sm);
	/* what a configuration of no architecture starts from */
	simconfig_default(&c, 0);
	ck_assert_int_eq(c.sm, arch_default()->device->sm);
}
END_TEST

/* ---- gates ---------------------------------------------------------------------------------- */

#define KERNEL "\t.section\t.text.k,\"ax\",@progbits\nk:\n" \
	"        /*0000*/                   EXIT ;\n"

/* read `.target NAME` and a kernel; the report */
static char *
read_target(const char *name, int *nerr, int *ok)
{
	char text[256], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	Src *src;
	Diag d;
	Module *m;

	snprintf(text, sizeof text, "\t.target\t%s\n" KERNEL, name);
	src = src_new("t.sass", text, strlen(text));
	diag_init(&d, src, f);
	m = sass_parse(src, &d);
	*nerr = d.nerr;
	*ok = m != NULL;
	module_free(m);
	src_free(src);
	fclose(f);
	return buf;
}

START_TEST(test_arch_gate_reader)
{
	const Arch *a = arch_at((size_t)_i);
	char want[256];
	int nerr, ok;
	char *r = read_target(a->name, &nerr, &ok);

	ck_assert_int_eq(nerr, 0);
	ck_assert(ok);
	ck_assert_int_eq(sass_arch_ok(a->sm, a->suffix), !!(a->support & ArchReads));
	if (a->support & ArchReads) {
		ck_assert_msg(!r || !*r, "%s: %s", a->name, r);
	} else {
		snprintf(want, sizeof want, "t.sass:1:10: warning: architecture '%s' is not one fiber "
		         "supports (sm_80, sm_86, sm_89, sm_90, sm_90a); its listing is read as if it "
		         "were\n", a->name);
		ck_assert_ptr_nonnull(r);
		ck_assert_msg(strncmp(r, want, strlen(want)) == 0, "got %s", r);
	}
	free(r);
}
END_TEST

START_TEST(test_arch_gate_reader_unknown)
{
	int nerr, ok;
	char *r = read_target("sm_75", &nerr, &ok);

	ck_assert_int_eq(nerr, 1);
	ck_assert(!ok);
	ck_assert_ptr_nonnull(strstr(r, "t.sass:1:10: error: unsupported architecture 'sm_75' (fiber "
	                             "reads sm_80, sm_86, sm_89, sm_90, sm_90a)\n"));
	free(r);
}
END_TEST

/* the runtime loads a row's code on an auto device iff the simulator runs it, on its device */
START_TEST(test_arch_gate_runtime)
{
	const Arch *a = arch_at((size_t)_i);
	char text[256], want[256];
	fiberDevice d = NULL;
	fiberModule m = NULL;
	fiberDeviceProps p;
	fiberStatus s;

	snprintf(text, sizeof text, "\t.target\t%s\n" KERNEL, a->name);
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	s = fiberModuleLoadData(&m, d, text, strlen(text), "t.sass");
	if (a->support & ArchRuns) {
		ck_assert_msg(s == FIBER_SUCCESS, "%s: %s", a->name, fiberGetLastErrorMessage(d));
		fiberDeviceGetProperties(d, &p);
		ck_assert_int_eq(p.arch, arch_code(a->sm)->device->sm);
		fiberModuleUnload(m);
	} else {
		ck_assert_int_eq(s, FIBER_ERROR_UNSUPPORTED);
		snprintf(want, sizeof want, "'t.sass' is sm_%d code; the simulator executes sm_80..sm_89 "
		         "and sm_90", a->sm);
		ck_assert_msg(strstr(fiberGetLastErrorMessage(d), want), "%s: %s", a->name,
		              fiberGetLastErrorMessage(d));
	}
	fiberDeviceDestroy(d);
}
END_TEST

/* fiberc --arch generates for the rows with ArchGenerates and refuses the others (exit 2) */
START_TEST(test_arch_gate_fiberc)
{
	const Arch *a = arch_at((size_t)_i);
	char in[1024], args[64], err[4096], want[256], text[8192];
	char *out;

	snprintf(in, sizeof in, "%s/examples/softmax/softmax.sm_80.ptx", kr_root());
	snprintf(args, sizeof args, "--arch=%s", a->name);
	out = kr_fiberc(in, args, err, sizeof err);
	if (a->support & ArchGenerates) {
		FILE *f;
		size_t n;
		ck_assert_msg(out != NULL, "%s: %s", a->name, err);
		ck_assert_ptr_nonnull(f = fopen(out, "r"));
		n = fread(text, 1, sizeof text - 1, f);
		text[n] = 0;
		fclose(f);
		snprintf(want, sizeof want, "\t.target\t%s\n", a->name);
		ck_assert_msg(strstr(text, want), "%s: no '%s' in the output", a->name, want);
		unlink(out);
		free(out);
	} else {
		ck_assert_ptr_null(out);
		snprintf(want, sizeof want, "fiberc: error: unsupported architecture '%s' (sm_80, sm_86, "
		         "sm_89, sm_90, sm_90a)\n", a->name);
		ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got %s", err);
	}
}
END_TEST

/* fibersim --arch and the configuration key arch take the device rows only */
START_TEST(test_arch_gate_device)
{
	const Arch *a = arch_at((size_t)_i);
	char file[] = "t.sass", kernel[] = "--kernel", k[] = "k", grid[] = "--grid", one[] = "1";
	char block[] = "--block", b[] = "32", arch[] = "--arch", name[32];
	char *argv[] = { file, kernel, k, grid, one, block, b, arch, name };
	char err[256], text[64], want[256];
	CliRun r;
	SimConfig c;
	int rc;

	snprintf(name, sizeof name, "%s", a->name);
	rc = cli_parse_run(9, argv, &r, err, sizeof err);

	if (a->support & ArchDevice) {
		ck_assert_msg(rc == 0, "%s: %s", a->name, err);
		ck_assert_int_eq(r.arch, a->sm);
	} else {
		ck_assert_int_eq(rc, -1);
		snprintf(want, sizeof want, "unsupported --arch '%s' (sm_80 or sm_90)", a->name);
		ck_assert_str_eq(err, want);
	}
	cli_free(&r);
	snprintf(text, sizeof text, "arch = %s\n", a->name);
	rc = simcfg_parse(&c, "t.cfg", text, strlen(text), err, sizeof err);
	if (a->support & ArchDevice) {
		ck_assert_msg(rc == 0, "%s: %s", a->name, err);
		ck_assert_int_eq(c.sm, a->sm);
		ck_assert_str_eq(c.name, a->config);
	} else {
		ck_assert_int_eq(rc, -1);
		snprintf(want, sizeof want, "t.cfg:1:8: error: 'arch' must be sm_80 or sm_90, not '%s'",
		         a->name);
		ck_assert_str_eq(err, want);
	}
}
END_TEST

Suite *
arch_suite(void)
{
	Suite *s = suite_create("arch");
	TCase *lookup = tcase_create("Lookups"), *rows = tcase_create("Rows");
	TCase *gates = tcase_create("Gates");
	int n = (int)nrows();

	tcase_add_loop_test(lookup, test_arch_lookup_row, 0, n);
	tcase_add_test(lookup, test_arch_lookup_misses);
	tcase_add_loop_test(lookup, test_arch_lookup_number, 0, (int)(sizeof numbers / sizeof numbers[0]));
	tcase_add_test(lookup, test_arch_lookup_lists);
	tcase_add_loop_test(lookup, test_arch_lookup_elf, 0, (int)(sizeof elf / sizeof elf[0]));
	tcase_add_loop_test(rows, test_arch_row_consistent, 0, n);
	tcase_add_loop_test(rows, test_arch_row_bank0, 0, n);
	tcase_add_loop_test(rows, test_arch_row_config, 0, n);
	tcase_add_loop_test(gates, test_arch_gate_reader, 0, n);
	tcase_add_test(gates, test_arch_gate_reader_unknown);
	tcase_add_loop_test(gates, test_arch_gate_runtime, 0, n);
	tcase_add_loop_test(gates, test_arch_gate_fiberc, 0, n);
	tcase_add_loop_test(gates, test_arch_gate_device, 0, n);
	tcase_set_timeout(gates, 60);
	suite_add_tcase(s, lookup);
	suite_add_tcase(s, rows);
	suite_add_tcase(s, gates);
	return s;
}
