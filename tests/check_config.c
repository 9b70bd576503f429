/* check_config.c: device configurations (timing/config.c, configs/NAME.cfg, runtime/config.c): the
 * built-in a100, h100 and b200 load, validate and set every key; each error class gives its
 * file:line:col message and leaves the configuration unchanged; values (hex, size suffixes,
 * choices); --set and re-validation; printing round-trips; docs/sim-config.md names every key;
 * fiberDeviceCreate("b200") and fiberDeviceSetConfigValue. Files come from $FIBER_ROOT.
 */
#define _POSIX_C_SOURCE 200809L
#include "fiber.h"
#include "simcfg.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const builtins[] = {"a100", "h100", "b200"};

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* an integer or choice key's value */
static uint64_t
value(const SimConfig *c, const SimCfgKey *k)
{
	uint32_t v32;
	uint64_t v64;

	if (k->size == sizeof v32) {
		memcpy(&v32, (const char *)c + k->off, sizeof v32);
		return v32;
	}
	memcpy(&v64, (const char *)c + k->off, sizeof v64);
	return v64;
}

static int
stored_number(const SimCfgKey *k)
{
	return k->size && strcmp(k->name, "name") != 0;
}

static int
parse(SimConfig *c, const char *text, char *err, size_t n)
{
	return simcfg_parse(c, "t.cfg", text, strlen(text), err, n);
}

/* ---------------------------------------------------------------------------------------------
 * The key table and the built-in configurations.
 */
START_TEST(test_config_table)
{
	const SimCfgKey *k, *m;
	unsigned char covered[sizeof(SimTiming)] = {0};
	size_t t0 = offsetof(SimConfig, t);

	for (size_t i = 0; (k = simcfg_key(i)); i++) {
		ck_assert_msg(*k->doc, "key '%s' has no doc", k->name);
		for (size_t j = 0; j < i; j++) {
			m = simcfg_key(j);
			ck_assert_str_ne(m->name, k->name);
			if (k->size && m->size)
				ck_assert_msg(k->off + k->size <= m->off || m->off + m->size <= k->off,
				              "'%s' and '%s' overlap", k->name, m->name);
		}
		if (k->size && k->off >= t0)
			memset(covered + (k->off - t0), 1, k->size);
	}
	/* every SimTiming byte belongs to a key, but for alignment gaps before 8-byte fields */
	for (size_t b = 0; b < sizeof covered;) {
		size_t e = b;
		if (covered[b]) {
			b++;
			continue;
		}
		while (e < sizeof covered && !covered[e])
			e++;
		ck_assert_msg(e % 8 == 0 && e - b < 8 && b % 4 == 0,
		              "SimTiming bytes %zu..%zu are set by no key", b, e - 1);
		b = e;
	}
	ck_assert_ptr_null(simcfg_key(100000));
}
END_TEST

START_TEST(test_config_builtin)
{
	SimConfig c;
	char err[512];
	const SimCfgKey *k;

	memset(&c, 0xa5, sizeof c);
	ck_assert_int_eq(simcfg_builtin(&c, builtins[_i]), 0);
	ck_assert_str_eq(c.name, builtins[_i]);
	ck_assert_msg(simcfg_check(&c, err, sizeof err) == 0, "%s", err);
	for (size_t i = 0; (k = simcfg_key(i)); i++)
		if (stored_number(k) && k->lo <= k->hi) {
			uint64_t v = value(&c, k);
			ck_assert_msg(v >= k->lo && v <= k->hi, "%s: '%s' = %llu", builtins[_i], k->name,
			              (unsigned long long)v);
			ck_assert_msg(v || k->lo == 0, "%s leaves '%s' 0", builtins[_i], k->name);
		}
	ck_assert_int_eq(c.regs_per_sm, 65536);
	ck_assert_uint_le(c.t.epoch, c.t.lat_l2);
}
END_TEST

START_TEST(test_config_builtin_unknown)
{
	SimConfig c;

	c.nsm = 7;
	ck_assert_int_eq(simcfg_builtin(&c, "v100"), -1);
	ck_assert_int_eq(simcfg_builtin(&c, ""), -1);
	ck_assert_int_eq(c.nsm, 7);
}
END_TEST

/* the published figures the built-ins must carry (docs/hardware-facts.md) */
START_TEST(test_config_builtin_values)
{
	SimConfig a, h, b;

	simcfg_builtin(&a, "a100");
	simcfg_builtin(&h, "h100");
	simcfg_builtin(&b, "b200");
	ck_assert_int_eq(a.sm, 80);
	ck_assert_int_eq(a.nsm, 108);
	ck_assert_uint_eq(a.t.clock_mhz, 1410);
	ck_assert_uint_eq(a.t.smem_per_sm, 167936);
	ck_assert_uint_eq(a.t.l1_total, 192 * 1024);
	ck_assert_uint_eq(a.t.l2_size, 40u << 20);
	ck_assert_uint_eq(a.t.tensor_flops_f16, 2048);
	ck_assert_uint_eq(a.t.tensor_flops_f8, 0);
	ck_assert_uint_eq(a.t.lat_lds, 23);
	ck_assert_uint_eq(a.t.lat_l1, 33);
	ck_assert_uint_eq(h.t.fp32_lanes, 2 * a.t.fp32_lanes);
	ck_assert_uint_eq(h.t.tensor_flops_f16, 4096);
	ck_assert_uint_eq(h.nsm, 132);
	/* b200: sm_90 semantics with Blackwell-class parameters */
	ck_assert_int_eq(b.sm, h.sm);
	ck_assert_int_eq(b.nsm, 148);
	ck_assert_uint_eq(b.t.lat_l1, 40);
	ck_assert_uint_eq(b.t.lat_l2, 295);
	ck_assert_uint_eq(b.t.lat_dram, 860);
	ck_assert_uint_eq(b.t.tensor_flops_f16, 2 * h.t.tensor_flops_f16);
	ck_assert_uint_eq(b.t.smem_per_sm, h.t.smem_per_sm);
	ck_assert_uint_gt(b.t.l2_size, 2 * h.t.l2_size);
	ck_assert_uint_gt(b.t.dram_bytes_per_clk, 2 * h.t.dram_bytes_per_clk);
	/* 8 TB/s at the configured clock, within 1% */
	ck_assert_uint_lt(abs((int)((double)b.t.dram_bytes_per_clk * b.t.clock_mhz / 1e6 * 1000) -
	                      8000), 80);
	ck_assert_uint_ne(b.t.clock_mhz, h.t.clock_mhz);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Errors: the exact message, and the configuration left as it was.
 */
static const struct {
	const char *text;
	const char *msg;
} errors[] = {
	{"sms = 4\nfrobs = 3\n", "t.cfg:2:1: error: unknown key 'frobs' (docs/sim-config.md lists "
	 "the keys)"},
	{"  lat_dramm = 5\n", "t.cfg:1:3: error: unknown key 'lat_dramm' (did you mean 'lat_dram'?)"},
	{"sms = 4\n# two\n   sms=5\n", "t.cfg:3:4: error: 'sms' repeated (first at line 1)"},
	{"sms =   \n", "t.cfg:1:6: error: 'sms' needs a value"},
	{"epoch\n", "t.cfg:1:6: error: 'epoch' needs a value"},
	{"sched_policy = fifo\n", "t.cfg:1:16: error: 'sched_policy' must be gto or lrr, not 'fifo'"},
	{"ctrl_mode=exact", "t.cfg:1:11: error: 'ctrl_mode' must be auto, bits or scoreboard, not "
	 "'exact'"},
	{"arch = sm_75\n", "t.cfg:1:8: error: 'arch' must be sm_80 or sm_90, not 'sm_75'"},
	{"base = v100\n", "t.cfg:1:8: error: 'base' must be a100, b200 or h100, not 'v100'"},
	{"lat_l2 = 0\n", "t.cfg:1:10: error: 'lat_l2' must be an integer from 1 to 100000, not '0'"},
	{"sms = 1K\n", "t.cfg:1:7: error: 'sms' must be an integer from 1 to 1024, not '1K'"},
	{"sms = -4\n", "t.cfg:1:7: error: 'sms' must be an integer from 1 to 1024, not '-4'"},
	{"sms = 0x\n", "t.cfg:1:7: error: 'sms' must be an integer from 1 to 1024, not '0x'"},
	{"int_lanes = 64\n", "t.cfg:1:13: error: 'int_lanes' must be an integer from 1 to 32, not "
	 "'64'"},
	{"fp32_lanes = 12\n", "t.cfg:1:14: error: 'fp32_lanes' must be a power of two, not 12"},
	{"l2_size = 17179869184G\n", "t.cfg:1:11: error: 'l2_size' must be an integer from 1 to "
	 "68719476736 (bytes; K, M, G multiply by 1024^1, ^2, ^3), not '17179869184G'"},
	{"watchdog = 99999999999999999999999\n", "t.cfg:1:12: error: 'watchdog' must be an integer "
	 "from 1 to 9223372036854775807, not '99999999999999999999999'"},
	{"name = a b\n", "t.cfg:1:8: error: 'name' must be 1 to 63 letters, digits or _.-+, not "
	 "'a b'"},
	/* rules between keys */
	{"smem_per_sm = 256K\n", "t.cfg: error: l1_total (196608) must be at least smem_per_sm "
	 "(262144): shared memory is carved out of the unified L1"},
	{"max_shared_per_block = 164K\n", "t.cfg: error: max_shared_per_block (167936) plus "
	 "smem_reserved_per_cta (1024) exceeds smem_per_sm (167936)"},
	{"epoch = 201\n", "t.cfg: error: epoch (201) exceeds lat_l2 (200): SMs exchange L2 traffic "
	 "at epoch ends, so an epoch may not be longer than the smallest L2 round trip"},
	{"base = h100\nlat_l2 = 700\n", "t.cfg: error: latencies must grow down the hierarchy: "
	 "lat_l1 (32) <= lat_l2 (700) <= lat_dram (640)"},
	{"l2_slices = 3\n", "t.cfg: error: l2_size (41943040) must be a multiple of l2_line x "
	 "l2_assoc x l2_slices (6144): whole sets in every slice"},
	{"subpartitions = 3\n", "t.cfg: error: subpartitions (3) must divide max_warps_per_sm (64)"},
	{"max_threads_per_sm = 512\n", "t.cfg: error: max_threads_per_block (1024) exceeds "
	 "max_threads_per_sm (512)"},
	{"l1_assoc = 5\n", "t.cfg: error: the L1 (l1_total - smem_per_sm = 28672 bytes) must be a "
	 "whole number of sets of l1_line x l1_assoc (640) bytes"},
	{"icache_bytes = 1000\n", "t.cfg: error: icache_line (128) must divide icache_bytes (1000)"},
};

START_TEST(test_config_errors)
{
	SimConfig c;
	char err[512];

	simcfg_builtin(&c, "b200");
	err[0] = 0;
	ck_assert_int_eq(parse(&c, errors[_i].text, err, sizeof err), -1);
	ck_assert_str_eq(err, errors[_i].msg);
	ck_assert_str_eq(c.name, "b200");
	ck_assert_int_eq(c.nsm, 148);
}
END_TEST

START_TEST(test_config_error_nul)
{
	SimConfig c;
	char err[128];

	ck_assert_int_eq(simcfg_parse(&c, "bin.cfg", "sms = 4\0x", 9, err, sizeof err), -1);
	ck_assert_str_eq(err, "bin.cfg: error: not a configuration file (a NUL byte)");
	/* a short buffer gets a cut message, no overflow */
	ck_assert_int_eq(parse(&c, "frobs = 1", err, 8), -1);
	ck_assert_str_eq(err, "t.cfg:1");
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Values.
 */
START_TEST(test_config_values)
{
	SimConfig c;
	char err[512];
	const char *text =
	    "# a file\r\n"
	    "\n"
	    "sms 4                   # '=' is optional\r\n"
	    "l2_size = 0x2800000\n"
	    "smem_per_sm=100K\n"
	    "l1_total = 1M\n"
	    "max_shared_per_block = 64K\n"
	    "max_cycles = 0x10\n"
	    "lat_dram = 0600         # decimal, not octal\n"
	    "sched_policy = lrr\n"
	    "ctrl_mode = scoreboard\n"
	    "name = mini-a100_v2.0+\n"
	    "nvdisasm = /opt/x/nvdisasm\n";

	ck_assert_msg(parse(&c, text, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(c.sm, 80);
	ck_assert_int_eq(c.nsm, 4);
	ck_assert_uint_eq(c.t.l2_size, 40u << 20);
	ck_assert_uint_eq(c.t.smem_per_sm, 102400);
	ck_assert_uint_eq(c.t.l1_total, 1u << 20);
	ck_assert_uint_eq(c.max_smem_per_block, 65536);
	ck_assert_uint_eq(c.t.max_cycles, 16);
	ck_assert_uint_eq(c.t.lat_dram, 600);
	ck_assert_uint_eq(c.t.sched_policy, SchedLRR);
	ck_assert_uint_eq(c.t.ctrl_mode, CtrlScoreboard);
	ck_assert_str_eq(c.name, "mini-a100_v2.0+");
	ck_assert_uint_eq(c.t.lat_l2, 200);              /* the rest is a100's */

	ck_assert_msg(parse(&c, "", err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(c.name, "a100");
	ck_assert_msg(parse(&c, "arch = sm_90\n", err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(c.name, "h100");                /* arch alone picks the base */
	ck_assert_int_eq(c.nsm, 132);
	ck_assert_msg(parse(&c, "sms = 8\nbase = b200\n", err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(c.name, "b200");
	ck_assert_int_eq(c.nsm, 8);
	ck_assert_uint_eq(c.t.lat_l2, 295);
	ck_assert_msg(parse(&c, "base = h100\narch = sm_80\n", err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(c.sm, 80);
	ck_assert_uint_eq(c.t.lat_l2, 264);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * --set.
 */
START_TEST(test_config_set)
{
	SimConfig c;
	char err[512];

	simcfg_builtin(&c, "a100");
	ck_assert_msg(simcfg_set(&c, "lat_l2=300", err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(c.t.lat_l2, 300);
	ck_assert_msg(simcfg_set(&c, " sched_policy = lrr ", err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(c.t.sched_policy, SchedLRR);
	ck_assert_msg(simcfg_set(&c, "l2_size=20M", err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(c.t.l2_size, 20u << 20);
	ck_assert_msg(simcfg_set(&c, "arch=sm_90", err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(c.sm, 90);
	ck_assert_uint_eq(c.t.lat_l1, 33);               /* still a100's hierarchy */

	/* each failure leaves c as it was */
	ck_assert_int_eq(simcfg_set(&c, "lat_l2=100", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set: error: epoch (128) exceeds lat_l2 (100): SMs exchange L2 "
	                 "traffic at epoch ends, so an epoch may not be longer than the smallest L2 "
	                 "round trip");
	ck_assert_uint_eq(c.t.lat_l2, 300);
	ck_assert_int_eq(simcfg_set(&c, "frobs=1", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set:1:1: error: unknown key 'frobs' (docs/sim-config.md lists the "
	                 "keys)");
	ck_assert_int_eq(simcfg_set(&c, "sms=", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set:1:5: error: 'sms' needs a value");
	ck_assert_int_eq(simcfg_set(&c, "sms=2000", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set:1:5: error: 'sms' must be an integer from 1 to 1024, not '2000'");
	ck_assert_int_eq(simcfg_set(&c, "base=h100", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set:1:1: error: 'base' only starts a configuration file");
	ck_assert_int_eq(simcfg_set(&c, "nvdisasm=/bin/true", err, sizeof err), -1);
	ck_assert_int_eq(simcfg_set(&c, "sms=4\nsms=5", err, sizeof err), -1);
	ck_assert_int_eq(simcfg_set(&c, "", err, sizeof err), -1);
	ck_assert_str_eq(err, "--set: error: expected one key=value, not ''");
	ck_assert_int_eq(c.nsm, 108);
	ck_assert_uint_eq(c.t.lat_l2, 300);
	/* the order of several settings matters: grow the L1 before the carve-out */
	ck_assert_int_eq(simcfg_set(&c, "smem_per_sm=228K", err, sizeof err), -1);
	ck_assert_msg(simcfg_set(&c, "l1_total=256K", err, sizeof err) == 0, "%s", err);
	ck_assert_msg(simcfg_set(&c, "smem_per_sm=228K", err, sizeof err) == 0, "%s", err);
}
END_TEST

START_TEST(test_config_find)
{
	const char *text = "base = a100\n# nvdisasm = no\n  nvdisasm = /opt/cuda/bin/nvdisasm # x\n";
	char val[64], small[8];

	ck_assert_uint_eq(simcfg_find(text, strlen(text), "nvdisasm", val, sizeof val), 3);
	ck_assert_str_eq(val, "/opt/cuda/bin/nvdisasm");
	ck_assert_uint_eq(simcfg_find(text, strlen(text), "nvdisasm", small, sizeof small), 3);
	ck_assert_str_eq(small, "/opt/cu");
	ck_assert_uint_eq(simcfg_find(text, strlen(text), "sms", val, sizeof val), 0);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Printing: the text reads back as the same configuration.
 */
static void
same(const SimConfig *a, const SimConfig *b)
{
	const SimCfgKey *k;

	ck_assert_str_eq(a->name, b->name);
	for (size_t i = 0; (k = simcfg_key(i)); i++)
		if (stored_number(k))
			ck_assert_msg(value(a, k) == value(b, k), "'%s': %llu, read back %llu", k->name,
			              (unsigned long long)value(a, k), (unsigned long long)value(b, k));
}

START_TEST(test_config_print)
{
	SimConfig c, back;
	char err[512], *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	simcfg_builtin(&c, builtins[_i]);
	if (_i == 0) {
		ck_assert_int_eq(simcfg_set(&c, "name=tweaked", err, sizeof err), 0);
		ck_assert_int_eq(simcfg_set(&c, "ctrl_mode=bits", err, sizeof err), 0);
		ck_assert_int_eq(simcfg_set(&c, "arch=sm_90", err, sizeof err), 0);
		ck_assert_int_eq(simcfg_set(&c, "max_cycles=0", err, sizeof err), 0);
	}
	simcfg_print(&c, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\nlat_l2 = "));
	ck_assert_msg(simcfg_parse(&back, "printed", text, n, err, sizeof err) == 0, "%s\n%s", err,
	              text);
	same(&c, &back);
	free(text);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * docs/sim-config.md documents every key.
 */
START_TEST(test_config_docs)
{
	char path[1024], *doc;
	FILE *f;
	long n;
	const SimCfgKey *k;

	snprintf(path, sizeof path, "%s/docs/sim-config.md", root());
	ck_assert_msg((f = fopen(path, "rb")) != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(doc, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	for (size_t i = 0; (k = simcfg_key(i)); i++) {
		char row[80];
		snprintf(row, sizeof row, "| `%s` |", k->name);
		ck_assert_msg(strstr(doc, row), "docs/sim-config.md has no row '%s'", row);
	}
	for (size_t b = 0; b < sizeof builtins / sizeof builtins[0]; b++) {
		char file[32];
		snprintf(file, sizeof file, "configs/%s.cfg", builtins[b]);
		ck_assert_msg(strstr(doc, file), "docs/sim-config.md does not mention %s", file);
	}
	free(doc);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The runtime: fiberDeviceCreate("b200"), files with nvdisasm, fiberDeviceSetConfigValue.
 */
START_TEST(test_config_runtime_b200)
{
	fiberDevice d;
	fiberDeviceProps p;

	ck_assert_int_eq(fiberDeviceCreate(&d, "b200"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceGetProperties(d, &p), FIBER_SUCCESS);
	ck_assert_str_eq(p.name, "b200");
	ck_assert_int_eq(p.arch, 90);
	ck_assert_int_eq(p.sm_count, 148);
	ck_assert_uint_eq(p.max_shared_per_block, 227 * 1024);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_config_runtime_set)
{
	fiberDevice d;
	fiberDeviceProps p;
	fiberModule m;
	char path[1024];

	ck_assert_int_eq(fiberDeviceCreate(&d, "h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "sms=4"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "name=small-h100"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "nvdisasm = /opt/nvdisasm"), FIBER_SUCCESS);
	fiberDeviceGetProperties(d, &p);
	ck_assert_int_eq(p.sm_count, 4);
	ck_assert_str_eq(p.name, "small-h100");
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "epoch=9999"), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "--set: error: epoch (9999)"));
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "nvdisasm="), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, NULL), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetConfigValue(NULL, "sms=1"), FIBER_ERROR_INVALID_HANDLE);
	/* the architecture stays once a module is loaded for it */
	snprintf(path, sizeof path, "%s/examples/softmax/softmax.sm_90.sass", root());
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "arch=sm_80"), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "a module for sm_90 is loaded"));
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "lat_l2=400"), FIBER_SUCCESS);
	fiberDeviceGetProperties(d, &p);
	ck_assert_int_eq(p.arch, 90);
	ck_assert_str_eq(p.name, "small-h100");
	fiberDeviceDestroy(d);

	/* an auto device: arch chooses it, other keys wait for the choice */
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "sms=4"), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "auto device"));
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "arch=sm_75"), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "arch=sm_90"), FIBER_SUCCESS);
	fiberDeviceGetProperties(d, &p);
	ck_assert_int_eq(p.arch, 90);
	ck_assert_str_eq(p.name, "h100");
	ck_assert_int_eq(fiberDeviceSetConfigValue(d, "sms=4"), FIBER_SUCCESS);
	fiberDeviceDestroy(d);
}
END_TEST

Suite *
config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("Core"), *err = tcase_create("Errors"), *rt = tcase_create("Runtime");
	int nb = sizeof builtins / sizeof builtins[0];

	tcase_add_test(tc, test_config_table);
	tcase_add_loop_test(tc, test_config_builtin, 0, nb);
	tcase_add_test(tc, test_config_builtin_unknown);
	tcase_add_test(tc, test_config_builtin_values);
	tcase_add_test(tc, test_config_values);
	tcase_add_test(tc, test_config_set);
	tcase_add_test(tc, test_config_find);
	tcase_add_loop_test(tc, test_config_print, 0, nb);
	tcase_add_test(tc, test_config_docs);
	tcase_add_loop_test(err, test_config_errors, 0, sizeof errors / sizeof errors[0]);
	tcase_add_test(err, test_config_error_nul);
	tcase_add_test(rt, test_config_runtime_b200);
	tcase_add_test(rt, test_config_runtime_set);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, err);
	suite_add_tcase(s, rt);
	return s;
}
