/* check_runtime.c: the runtime library's API (runtime/fiber.h): devices and configurations,
 * loading modules from text, data and cubins (through a stub disassembler), kernel lookup and
 * parameter layouts, device memory, launch checks, handles and error reporting, real launches
 * of examples/softmax (timing and functional mode) and of a small kernel whose parameters leave an
 * alignment gap, and the simulation settings and statistics JSON (mode, threads, sampling).
 * Files come from $FIBER_ROOT (the runner sets it; default: the current directory).
 */
#define _GNU_SOURCE
#include "fiber.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

static char *
path_of(const char *rel)
{
	static char buf[4][1024];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", root(), rel);
	return buf[k];
}

/* a temporary file holding text; returns its malloc'd path */
static char *
temp_file(const char *suffix, const void *data, size_t n, int exec)
{
	char *p = malloc(256);
	int fd;

	snprintf(p, 256, "/tmp/fiber-rt-XXXXXX%s", suffix);
	fd = mkstemps(p, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
	close(fd);
	if (exec)
		chmod(p, 0755);
	return p;
}

static fiberDevice
device(const char *cfg)
{
	fiberDevice d = NULL;
	ck_assert_msg(fiberDeviceCreate(&d, cfg) == FIBER_SUCCESS, "device %s: %s", cfg ? cfg : "auto",
	              fiberGetLastErrorMessage(NULL));
	return d;
}

static fiberModule
load(fiberDevice d, const char *rel)
{
	fiberModule m = NULL;
	fiberStatus s = fiberModuleLoadFile(&m, d, path_of(rel));

	if (s != FIBER_SUCCESS)       /* the log goes to stderr: Check's messages are short */
		fprintf(stderr, "%s", fiberGetLastErrorLog(d));
	ck_assert_msg(s == FIBER_SUCCESS, "load %s: %s", rel, fiberGetLastErrorMessage(d));
	return m;
}

/* ---------------------------------------------------------------------------------------------
 * A small listing whose parameters leave a gap: store_params(int a, int *p) has a at 0x0 and p at
 * 0x8; it stores a to p[0] and the word of the gap (c[0x0][base + 4]) to p[1].
 */
static char *
gap_listing(int sm)
{
	int base = sm == 90 ? 0x210 : 0x160, desc = sm == 90 ? 0x208 : 0x118;
	char *t = malloc(8192);

	snprintf(t, 8192,
	    "\t.target\tsm_%d\n"
	    "\t.elftype\t@\"ET_EXEC\"\n\n"
	    "\t.section\t.nv.info.store_params,\"\",@\"SHT_CUDA_INFO\"\n"
	    "\t.align\t4\n"
	    "\t//----- nvinfo : EIATTR_CBANK_PARAM_SIZE\n"
	    "\t.align\t\t4\n"
	    "        /*0000*/ \t.byte\t0x03, 0x19\n"
	    "        /*0002*/ \t.short\t0x0010\n"
	    "\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	    "\t.align\t\t4\n"
	    "        /*0004*/ \t.byte\t0x04, 0x17\n"
	    "        /*0006*/ \t.short\t(.L_1 - .L_0)\n"
	    ".L_0:\n"
	    "        /*0008*/ \t.word\t0x00000000\n"
	    "        /*000c*/ \t.short\t0x0001\n"
	    "        /*000e*/ \t.short\t0x0008\n"
	    "        /*0010*/ \t.byte\t0x00, 0xf0, 0x21, 0x00\n"
	    "\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	    "\t.align\t\t4\n"
	    ".L_1:\n"
	    "        /*0014*/ \t.byte\t0x04, 0x17\n"
	    "        /*0016*/ \t.short\t(.L_3 - .L_2)\n"
	    ".L_2:\n"
	    "        /*0018*/ \t.word\t0x00000000\n"
	    "        /*001c*/ \t.short\t0x0000\n"
	    "        /*001e*/ \t.short\t0x0000\n"
	    "        /*0020*/ \t.byte\t0x00, 0xf0, 0x11, 0x00\n"
	    ".L_3:\n\n"
	    "\t.section\t.text.store_params,\"ax\",@progbits\n"
	    "\t.sectioninfo\t@\"SHI_REGISTERS=8\"\n"
	    "\t.align\t128\n"
	    "        .global         store_params\n"
	    "        .type           store_params,@function\n"
	    "        .size           store_params,(.L_x_1 - store_params)\n"
	    "        .other          store_params,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	    "store_params:\n"
	    ".text.store_params:\n"
	    "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	    "        /*0010*/                   IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x%x] ;\n"
	    "        /*0020*/                   IMAD.MOV.U32 R3, RZ, RZ, c[0x0][0x%x] ;\n"
	    "        /*0030*/                   IMAD.MOV.U32 R0, RZ, RZ, c[0x0][0x%x] ;\n"
	    "        /*0040*/                   IMAD.MOV.U32 R4, RZ, RZ, c[0x0][0x%x] ;\n"
	    "        /*0050*/                   ULDC.64 UR4, c[0x0][0x%x] ;\n"
	    "        /*0060*/                   STG.E [R2.64], R0 ;\n"
	    "        /*0070*/                   STG.E [R2.64+0x4], R4 ;\n"
	    "        /*0080*/                   EXIT ;\n"
	    ".L_x_0:\n"
	    "        /*0090*/                   BRA `(.L_x_0);\n"
	    ".L_x_1:\n",
	    sm, base + 8, base + 12, base, base + 4, desc);
	return t;
}

/* ---------------------------------------------------------------------------------------------
 * A minimal cubin, byte by byte: ELF64, EM_CUDA, sections .shstrtab .strtab .symtab
 * .nv.info.<k> .text.<k>, one STO_CUDA_ENTRY function symbol and its KPARAM_INFO attributes.
 */
typedef struct Buf {
	uint8_t *b;
	size_t n, cap;
} Buf;

static size_t
put(Buf *b, const void *p, size_t n, size_t align)
{
	size_t at = (b->n + align - 1) / align * align;

	if (at + n > b->cap) {
		b->cap = (at + n) * 2 + 256;
		b->b = realloc(b->b, b->cap);
	}
	memset(b->b + b->n, 0, at - b->n);
	if (p)
		memcpy(b->b + at, p, n);
	else
		memset(b->b + at, 0, n);
	b->n = at + n;
	return at;
}

static void
le(uint8_t *p, uint64_t v, int n)
{
	for (int k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

/* params: pairs {offset, size}; machine: e_machine (190 for a cubin) */
static uint8_t *
make_cubin(const char *kname, const unsigned (*params)[2], int np, int sm, int machine, size_t *len)
{
	Buf b = {0};
	char shstr[512], str[256], sec_info[200], sec_text[200];
	size_t nshstr = 1, nstr = 1, off_shstr, off_str, off_sym, off_info, off_text, off_sh;
	size_t name_shstr, name_str, name_sym, name_info, name_text, name_kernel;
	uint8_t ehdr[64] = {0}, sym[48] = {0}, info[1024], text[64] = {0}, sh[6][64];
	size_t ninfo = 0;

	memset(sh, 0, sizeof sh);
	shstr[0] = str[0] = 0;
#define ADDSTR(tab, n, s) (strcpy(tab + n, s), n += strlen(s) + 1, n - strlen(s) - 1)
	name_shstr = ADDSTR(shstr, nshstr, ".shstrtab");
	name_str = ADDSTR(shstr, nshstr, ".strtab");
	name_sym = ADDSTR(shstr, nshstr, ".symtab");
	snprintf(sec_info, sizeof sec_info, ".nv.info.%s", kname);
	snprintf(sec_text, sizeof sec_text, ".text.%s", kname);
	name_info = ADDSTR(shstr, nshstr, sec_info);
	name_text = ADDSTR(shstr, nshstr, sec_text);
	name_kernel = ADDSTR(str, nstr, kname);
#undef ADDSTR
	/* .nv.info.<k>: CBANK_PARAM_SIZE, then one KPARAM_INFO per parameter, last first */
	unsigned psize = 0;
	for (int k = 0; k < np; k++)
		if (params[k][0] + params[k][1] > psize)
			psize = params[k][0] + params[k][1];
	info[ninfo++] = 0x03, info[ninfo++] = 0x19;
	le(info + ninfo, psize, 2), ninfo += 2;
	for (int k = np - 1; k >= 0; k--) {
		info[ninfo++] = 0x04, info[ninfo++] = 0x17;
		le(info + ninfo, 12, 2), ninfo += 2;
		le(info + ninfo, 0, 4), ninfo += 4;
		le(info + ninfo, (unsigned)k, 2), ninfo += 2;
		le(info + ninfo, params[k][0], 2), ninfo += 2;
		le(info + ninfo, 0x1f000u | params[k][1] << 18, 4), ninfo += 4;
	}
	/* symbol 1: the kernel, GLOBAL FUNC, STO_CUDA_ENTRY, in section 5 */
	le(sym + 24, name_kernel, 4);
	sym[24 + 4] = 0x12;
	sym[24 + 5] = 0x10;
	le(sym + 24 + 6, 5, 2);
	le(sym + 24 + 16, sizeof text, 8);

	put(&b, ehdr, sizeof ehdr, 1);
	off_shstr = put(&b, shstr, nshstr, 1);
	off_str = put(&b, str, nstr, 1);
	off_sym = put(&b, sym, sizeof sym, 8);
	off_info = put(&b, info, ninfo, 4);
	off_text = put(&b, text, sizeof text, 16);
	/* section headers: name type flags addr offset size link info align entsize */
	struct { size_t name, type, flags, off, size, link, info, align, entsize; } s[6] = {
		{0},
		{name_shstr, 3, 0, off_shstr, nshstr, 0, 0, 1, 0},
		{name_str, 3, 0, off_str, nstr, 0, 0, 1, 0},
		{name_sym, 2, 0, off_sym, sizeof sym, 2, 1, 8, 24},
		{name_info, 0x70000000, 0, off_info, ninfo, 3, 5, 4, 0},
		{name_text, 1, 6, off_text, sizeof text, 3, 0, 16, 0},
	};
	for (int k = 0; k < 6; k++) {
		le(sh[k] + 0, s[k].name, 4);
		le(sh[k] + 4, s[k].type, 4);
		le(sh[k] + 8, s[k].flags, 8);
		le(sh[k] + 24, s[k].off, 8);
		le(sh[k] + 32, s[k].size, 8);
		le(sh[k] + 40, s[k].link, 4);
		le(sh[k] + 44, s[k].info, 4);
		le(sh[k] + 48, s[k].align, 8);
		le(sh[k] + 56, s[k].entsize, 8);
	}
	off_sh = put(&b, sh, sizeof sh, 8);
	/* the ELF header */
	memcpy(b.b, "\177ELF", 4);
	b.b[4] = 2;                      /* ELFCLASS64 */
	b.b[5] = 1;                      /* little-endian */
	b.b[6] = 1;                      /* EV_CURRENT */
	b.b[7] = 0x33;                   /* ELFOSABI_CUDA */
	b.b[8] = 7;                      /* ABI version */
	le(b.b + 16, 2, 2);              /* ET_EXEC */
	le(b.b + 18, (uint64_t)machine, 2);
	le(b.b + 20, 1, 4);
	le(b.b + 40, off_sh, 8);
	le(b.b + 48, (uint64_t)sm | (uint64_t)sm << 16 | 0x500, 4);
	le(b.b + 52, 64, 2);
	le(b.b + 58, 64, 2);
	le(b.b + 60, 6, 2);
	le(b.b + 62, 1, 2);
	*len = b.n;
	return b.b;
}

static const unsigned softmax_params[4][2] = {{0, 8}, {8, 8}, {16, 4}, {20, 4}};

/* ---------------------------------------------------------------------------------------------
 * Devices, configurations, errors.
 */
START_TEST(test_runtime_device_builtin)
{
	fiberDevice d;
	fiberDeviceProps p;

	d = device("a100");
	ck_assert_int_eq(fiberDeviceGetProperties(d, &p), FIBER_SUCCESS);
	ck_assert_str_eq(p.name, "a100");
	ck_assert_int_eq(p.arch, 80);
	ck_assert_uint_eq(p.max_threads_per_block, 1024);
	ck_assert_int_eq(fiberDeviceDestroy(d), FIBER_SUCCESS);
	d = device("h100");
	ck_assert_int_eq(fiberDeviceGetProperties(d, &p), FIBER_SUCCESS);
	ck_assert_str_eq(p.name, "h100");
	ck_assert_int_eq(p.arch, 90);
	fiberDeviceDestroy(d);
	d = device(NULL);
	ck_assert_int_eq(fiberDeviceGetProperties(d, &p), FIBER_SUCCESS);
	ck_assert_str_eq(p.name, "auto");
	ck_assert_int_eq(p.arch, 0);
	fiberDeviceDestroy(d);
	ck_assert_int_eq(fiberDeviceCreate(&d, "tpu"), FIBER_ERROR_INVALID_CONFIG);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(NULL), "'tpu'"));
	ck_assert_int_eq(fiberDeviceCreate(NULL, "a100"), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceCreate(&d, "/nonexistent/gpu.cfg"), FIBER_ERROR_FILE_NOT_FOUND);
}
END_TEST

START_TEST(test_runtime_device_auto)
{
	fiberDevice d = device(NULL);
	fiberDeviceProps p;

	load(d, "examples/softmax/softmax.sm_90.sass");
	fiberDeviceGetProperties(d, &p);
	ck_assert_str_eq(p.name, "h100");
	ck_assert_int_eq(p.arch, 90);
	fiberDeviceDestroy(d);           /* unloads the module too */
}
END_TEST

static const struct {
	const char *text;          /* configuration file */
	int ok;                    /* loads */
	const char *want;          /* a piece of the message (error) or the name (ok) */
} configs[] = {
	{"# mine\nbase = h100\nname = mini\nsms = 4\nwatchdog = 5000  # small\n", 1, "mini"},
	{"arch sm_80\nmax_threads_per_block 256\nmax_shared_per_block = 0xc000\n", 1, "a100"},
	{"\n\n", 1, "a100"},
	{"base = h100\nfrobs = 3\n", 0, ":2:1: error: unknown key 'frobs'"},
	{"sms = 0\n", 0, "'sms' must be an integer from 1 to 1024"},
	{"sms = 12x\n", 0, "not '12x'"},
	{"watchdog = 99999999999999999999999\n", 0, "'watchdog' must be"},
	{"sms = 4\nsms = 5\n", 0, ":2:1: error: 'sms' repeated (first at line 1)"},
	{"arch = sm_75\n", 0, ":1:8: error: 'arch' must be sm_80 or sm_90"},
	{"base = v100\n", 0, "'base' must be a100, b200 or h100"},
	{"name = a b\n", 0, "'name' must be"},
	{"sms =\n", 0, "'sms' needs a value"},
};

START_TEST(test_runtime_device_config_file)
{
	char *path = temp_file(".cfg", configs[_i].text, strlen(configs[_i].text), 0);
	fiberDevice d = NULL;
	fiberDeviceProps p;
	fiberStatus s = fiberDeviceCreate(&d, path);

	if (configs[_i].ok) {
		ck_assert_msg(s == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(NULL));
		fiberDeviceGetProperties(d, &p);
		ck_assert_str_eq(p.name, configs[_i].want);
		if (_i == 0) {
			ck_assert_int_eq(p.arch, 90);
			ck_assert_int_eq(p.sm_count, 4);
			ck_assert_uint_eq(p.watchdog, 5000);
		}
		if (_i == 1) {
			ck_assert_uint_eq(p.max_threads_per_block, 256);
			ck_assert_uint_eq(p.max_shared_per_block, 0xc000);
		}
		fiberDeviceDestroy(d);
	} else {
		ck_assert_int_eq(s, FIBER_ERROR_INVALID_CONFIG);
		ck_assert_msg(strstr(fiberGetLastErrorMessage(NULL), configs[_i].want), "'%s' lacks '%s'",
		              fiberGetLastErrorMessage(NULL), configs[_i].want);
		ck_assert_msg(strstr(fiberGetLastErrorMessage(NULL), path), "no file name in '%s'",
		              fiberGetLastErrorMessage(NULL));
	}
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_runtime_error_strings)
{
	for (int s = FIBER_SUCCESS; s <= FIBER_ERROR_IO; s++) {
		ck_assert_str_ne(fiberGetErrorString((fiberStatus)s), "unknown status");
		ck_assert_ptr_nonnull(strstr(fiberGetErrorName((fiberStatus)s), "FIBER_"));
		for (int t = 0; t < s; t++)
			ck_assert_str_ne(fiberGetErrorString((fiberStatus)s), fiberGetErrorString((fiberStatus)t));
	}
	ck_assert_str_eq(fiberGetErrorString((fiberStatus)999), "unknown status");
	ck_assert_str_eq(fiberGetErrorName(FIBER_ERROR_NO_DISASSEMBLER), "FIBER_ERROR_NO_DISASSEMBLER");
	ck_assert_str_eq(fiberGetVersion(), FIBER_VERSION);
}
END_TEST

/* every entry point refuses NULL, destroyed and mistyped handles without crashing */
START_TEST(test_runtime_bad_handles)
{
	fiberDevice d = device("a100"), gone = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass"), m2;
	fiberFunction f, f2;
	fiberDevicePtr p;
	fiberStats st;
	fiberFault ft;
	fiberDeviceProps pr;
	fiberFuncAttributes at;
	unsigned g[3] = {1, 1, 1}, n;
	size_t o, z;
	const char *name;

	fiberDeviceDestroy(gone);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceDestroy(NULL), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceDestroy(gone), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceDestroy((fiberDevice)m), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberMalloc(gone, &p, 16), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberFree(NULL, 0), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberMemcpyHtoD(NULL, 0, &p, 1), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberMemcpyDtoH(gone, &p, 0, 1), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberMemcpyDtoD((fiberDevice)f, 0, 0, 1), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberMemset(NULL, 0, 0, 1), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberGetStats(gone, &st), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberGetLastFault(NULL, &ft), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceGetProperties(NULL, &pr), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleLoadFile(&m2, gone, "x"), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleLoadData(&m2, NULL, "x", 1, NULL), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleGetFunction(&f2, NULL, "softmax_rows"), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleGetFunction(&f2, (fiberModule)d, "softmax_rows"),
	                 FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleGetFunctionCount(NULL, &n), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberModuleGetFunctionName(NULL, 0, &name), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberFuncGetParamCount((fiberFunction)m, &n), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberLaunchKernel(NULL, g, g, 0, NULL), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberLaunchKernelPacked(NULL, g, g, 0, NULL, 0), FIBER_ERROR_INVALID_HANDLE);
	/* after unloading, the module and its functions are gone */
	ck_assert_int_eq(fiberModuleUnload(m), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleUnload(m), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberFuncGetAttributes(f, &at), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberFuncGetParamInfo(f, 0, &o, &z), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberLaunchKernel(f, g, g, 0, NULL), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(NULL), "not a live function"));
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Loading.
 */
START_TEST(test_runtime_load_text)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	unsigned n;
	const char *name;

	ck_assert_int_eq(fiberModuleGetFunctionCount(m, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(fiberModuleGetFunctionName(m, 0, &name), FIBER_SUCCESS);
	ck_assert_str_eq(name, "softmax_rows");
	ck_assert_int_eq(fiberModuleGetFunctionName(m, 1, &name), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax"), FIBER_ERROR_NOT_FOUND);
	ck_assert_ptr_null(f);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "no kernel named 'softmax'"));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "kernels: softmax_rows"));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, NULL), FIBER_ERROR_INVALID_VALUE);
	/* a second module on the same device */
	load(d, "examples/rmsnorm/rmsnorm.sm_80.sass");
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_load_data)
{
	fiberDevice d = device("a100");
	char *text = gap_listing(80);
	fiberModule m;
	fiberFunction f;

	ck_assert_msg(fiberModuleLoadData(&m, d, text, strlen(text), "gap.sass") == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "store_params"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleLoadData(&m, d, text, 0, "gap.sass"), FIBER_ERROR_INVALID_SOURCE);
	ck_assert_int_eq(fiberModuleLoadData(&m, d, NULL, 5, "gap.sass"), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberModuleLoadData(NULL, d, text, 5, "gap.sass"), FIBER_ERROR_INVALID_VALUE);
	free(text);
	fiberDeviceDestroy(d);
}
END_TEST

/* IR text (fiberc --emit=ir) carries the same instructions and .nv.info */
START_TEST(test_runtime_load_ir_text)
{
	fiberDevice d = device("a100");
	char cmd[2048], *out = temp_file(".ir", "", 0, 0);
	const char *fiberc = getenv("FIBERC") ? getenv("FIBERC") : path_of("build/bin/fiberc");
	fiberModule m = NULL;
	fiberFunction f;
	unsigned n;

	/* without fiberc there is no IR text to load: a failure, never a silent pass */
	ck_assert_msg(access(fiberc, X_OK) == 0, "no fiberc at '%s' (make check sets FIBERC)", fiberc);
	snprintf(cmd, sizeof cmd, "'%s' '%s' --emit=ir -o '%s'", fiberc,
	         path_of("examples/softmax/softmax.sm_80.sass"), out);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_msg(fiberModuleLoadFile(&m, d, out) == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFuncGetParamCount(f, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, 4);
	unlink(out);
	free(out);
	fiberDeviceDestroy(d);
}
END_TEST

static const struct {
	const char *text;          /* module text */
	fiberStatus want;          /* status */
	const char *msg;           /* a piece of the one-line message */
} bad_modules[] = {
	{"this is not SASS\n", FIBER_ERROR_INVALID_SOURCE, "bad.sass:1:"},
	{"\t.target\tsm_80\n", FIBER_ERROR_INVALID_SOURCE, "bad.sass:1:"},
	{"\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n", FIBER_ERROR_INVALID_SOURCE, "no kernel"},
	{"\t.section\t.text.k,\"ax\",@progbits\nk:\n        /*0000*/   FROB R1 ;\n",
	 FIBER_ERROR_UNSUPPORTED, "bad.sass:3:"},
	{"\177ELF\2\1\1", FIBER_ERROR_INVALID_SOURCE, "not a"},
	{"\t.target\tsm_100\n\t.section\t.text.k,\"ax\",@progbits\nk:\n        /*0000*/   EXIT ;\n",
	 FIBER_ERROR_UNSUPPORTED, "sm_100 code"},
	/* the load verifies as fiberc does (runtime/verify.c): the verifier's located errors */
	{"\t.section\t.text.k,\"ax\",@progbits\nk:\n        /*0000*/   SETFIBERNUM 64 ;\n",
	 FIBER_ERROR_INVALID_SOURCE, "bad.sass:3:32: error: verifier: SETFIBERNUM count '64' is a "
	 "decimal literal, which SASS reads as the float 64: write it in hex (0x40)"},
	{"\t.section\t.text.k,\"ax\",@progbits\n\t.maxfibers\t64\nk:\n        /*0000*/   "
	 "SETFIBERNUM 0x41 ;\n", FIBER_ERROR_INVALID_SOURCE, "bad.sass:4:32: error: verifier: "
	 "SETFIBERNUM count 65 out of range (1..64"},
	{"\t.section\t.text.k,\"ax\",@progbits\nk:\n        /*0000*/   MOV V130, R2 ;\n",
	 FIBER_ERROR_INVALID_SOURCE, "bad.sass:3:24: error: verifier: 'V130' is a destination"},
};

/* fiberDeviceSetVerify(d, 0): the module the verifier refuses loads, and its launch runs into the
 * simulator's own fault, which names the problem */
START_TEST(test_runtime_load_noverify)
{
	static const char text[] = "\t.section\t.text.k,\"ax\",@progbits\n\t.maxfibers\t64\nk:\n"
	                           "        /*0000*/   SETFIBERNUM 0x41 ;\n        /*0010*/   EXIT ;\n";
	fiberDevice d = device("a100-fiber");
	fiberModule m;
	fiberFunction f;
	const unsigned grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};

	ck_assert_int_eq(fiberModuleLoadData(&m, d, text, strlen(text), "bad.sass"),
	                 FIBER_ERROR_INVALID_SOURCE);
	ck_assert_int_eq(fiberDeviceSetVerify(d, 0), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadData(&m, d, text, strlen(text), "bad.sass") == FIBER_SUCCESS,
	              "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k"), FIBER_SUCCESS);
	ck_assert_int_ne(fiberLaunchKernel(f, grid, block, 0, NULL),
	                 FIBER_SUCCESS);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), "SETFIBERNUM 65: count beyond the 64 fibers "
	                     "reserved"), "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberDeviceSetVerify(NULL, 0), FIBER_ERROR_INVALID_HANDLE);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_load_errors)
{
	fiberDevice d = device("a100");
	fiberModule m = (fiberModule)&m;
	fiberStatus s;

	s = fiberModuleLoadData(&m, d, bad_modules[_i].text, strlen(bad_modules[_i].text), "bad.sass");
	ck_assert_msg(s == bad_modules[_i].want, "status %s: %s", fiberGetErrorName(s),
	              fiberGetLastErrorMessage(d));
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), bad_modules[_i].msg), "'%s' lacks '%s'",
	              fiberGetLastErrorMessage(d), bad_modules[_i].msg);
	ck_assert_ptr_null(strchr(fiberGetLastErrorMessage(d), '\n'));
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_load_file_errors)
{
	fiberDevice d = device("a100");
	fiberModule m;
	char *empty = temp_file(".sass", "", 0, 0);

	ck_assert_int_eq(fiberModuleLoadFile(&m, d, "/nonexistent/k.sass"), FIBER_ERROR_FILE_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "cannot open '/nonexistent/k.sass'"));
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, empty), FIBER_ERROR_INVALID_SOURCE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "is empty"));
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, "/tmp"), FIBER_ERROR_IO);
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, NULL), FIBER_ERROR_INVALID_VALUE);
	/* the wrong architecture for the device */
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, path_of("examples/softmax/softmax.sm_90.sass")),
	                 FIBER_ERROR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "sm_90 code but device 'a100'"));
	unlink(empty);
	free(empty);
	fiberDeviceDestroy(d);
}
END_TEST

/* a parse error: the message is the first error line, the log has the caret */
START_TEST(test_runtime_load_log)
{
	fiberDevice d = device("a100");
	const char *text = "\t.target\tsm_80\n\t.section\t.text.k,\"ax\",@progbits\nk:\n"
	                   "        /*0000*/   IADD3 R1, R300, RZ, RZ ;\n";
	fiberModule m;

	ck_assert_int_eq(fiberModuleLoadData(&m, d, text, strlen(text), "bad.sass"),
	                 FIBER_ERROR_INVALID_SOURCE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "bad.sass:4:"));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorLog(d), "^"));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorLog(d), "R300"));
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Cubins, through FIBER_NVDISASM.
 */
static char *
stub_disassembler(const char *body)
{
	char script[2048];

	snprintf(script, sizeof script,
	         "#!/bin/sh\n"
	         "[ \"$1\" = -hex ] || { echo \"stub: expected -hex, got $1\" >&2; exit 9; }\n"
	         "[ $# -eq 2 ] && head -c 4 \"$2\" | grep -q ELF ||\n"
	         "\t{ echo 'stub: no cubin' >&2; exit 8; }\n"
	         "%s\n", body);
	return temp_file(".sh", script, strlen(script), 1);
}

static fiberStatus
load_cubin(fiberDevice d, fiberModule *m, const char *kname, int np, int machine)
{
	size_t n;
	uint8_t *cubin = make_cubin(kname, softmax_params, np, 80, machine, &n);
	fiberStatus s = fiberModuleLoadData(m, d, cubin, n, "k.cubin");

	free(cubin);
	return s;
}

START_TEST(test_runtime_cubin_no_disassembler)
{
	fiberDevice d = device("a100");
	fiberModule m;

	setenv("FIBER_NVDISASM", "", 1);
	ck_assert_int_eq(load_cubin(d, &m, "softmax_rows", 4, 190), FIBER_ERROR_NO_DISASSEMBLER);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "FIBER_NVDISASM"));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "k.cubin"));
	setenv("FIBER_NVDISASM", "/nonexistent/nvdisasm", 1);
	ck_assert_int_eq(load_cubin(d, &m, "softmax_rows", 4, 190), FIBER_ERROR_NO_DISASSEMBLER);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "cannot run"));
	unsetenv("FIBER_NVDISASM");
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_cubin_stub)
{
	fiberDevice d = device("a100");
	char body[1200];
	char *stub;
	fiberModule m;
	fiberFunction f;
	size_t off, size;

	snprintf(body, sizeof body, "exec cat '%s'", path_of("examples/softmax/softmax.sm_80.sass"));
	stub = stub_disassembler(body);
	setenv("FIBER_NVDISASM", stub, 1);
	ck_assert_msg(load_cubin(d, &m, "softmax_rows", 4, 190) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFuncGetParamInfo(f, 3, &off, &size), FIBER_SUCCESS);
	ck_assert_uint_eq(off, 20);
	ck_assert_uint_eq(size, 4);
	/* the ELF file and the listing must agree */
	ck_assert_int_eq(load_cubin(d, &m, "other", 4, 190), FIBER_ERROR_DISASSEMBLER_FAILED);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "no kernel 'other'"));
	ck_assert_int_eq(load_cubin(d, &m, "softmax_rows", 3, 190), FIBER_ERROR_DISASSEMBLER_FAILED);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "3 parameters in the ELF file"));
	unsetenv("FIBER_NVDISASM");
	unlink(stub);
	free(stub);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_cubin_disassembler_fails)
{
	fiberDevice d = device("a100");
	char *stub = stub_disassembler("echo 'nvdisasm fatal : bad things' >&2; exit 3");
	fiberModule m;

	setenv("FIBER_NVDISASM", stub, 1);
	ck_assert_int_eq(load_cubin(d, &m, "softmax_rows", 4, 190), FIBER_ERROR_DISASSEMBLER_FAILED);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "exit status 3"));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "bad things"));
	unsetenv("FIBER_NVDISASM");
	unlink(stub);
	free(stub);
	fiberDeviceDestroy(d);
}
END_TEST

/* broken ELF files are rejected before any disassembler runs */
START_TEST(test_runtime_cubin_invalid)
{
	fiberDevice d = device("a100");
	char *stub = stub_disassembler("echo ran >&2; exit 7");
	fiberModule m;
	size_t n;
	uint8_t *cubin;

	setenv("FIBER_NVDISASM", stub, 1);
	ck_assert_int_eq(load_cubin(d, &m, "softmax_rows", 4, 62), FIBER_ERROR_INVALID_SOURCE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "machine 62"));
	cubin = make_cubin("softmax_rows", softmax_params, 4, 80, 190, &n);
	for (size_t cut = 0; cut < n; cut += n / 7 + 1) {
		fiberStatus s = fiberModuleLoadData(&m, d, cubin, cut ? cut : 5, "cut.cubin");
		ck_assert_msg(s == FIBER_ERROR_INVALID_SOURCE, "cut at %zu: %s: %s", cut, fiberGetErrorName(s),
		              fiberGetLastErrorMessage(d));
	}
	cubin[n - 64 * 6 + 64 * 4 + 33] = 0xff;   /* .nv.info's size runs past the end */
	ck_assert_int_eq(fiberModuleLoadData(&m, d, cubin, n, "big.cubin"), FIBER_ERROR_INVALID_SOURCE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "truncated"));
	free(cubin);
	unsetenv("FIBER_NVDISASM");
	unlink(stub);
	free(stub);
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Parameter layouts.
 */
static const struct {
	const char *file;          /* listing */
	const char *kernel;
	unsigned n;                /* parameters */
	unsigned off[10], size[10];
	unsigned block;            /* parameter block bytes */
} layouts[] = {
	{"examples/softmax/softmax.sm_80.sass", "softmax_rows", 4, {0, 8, 16, 20}, {8, 8, 4, 4}, 24},
	{"examples/softmax/softmax.sm_90.sass", "softmax_rows", 4, {0, 8, 16, 20}, {8, 8, 4, 4}, 24},
	{"examples/rmsnorm/rmsnorm.sm_80.sass", "rmsnorm_f16", 5, {0, 8, 16, 24, 28}, {8, 8, 8, 4, 4}, 32},
	{"examples/rope/rope.sm_80.sass", "rope_qk", 9, {0, 8, 16, 24, 32, 36, 40, 44, 48},
	 {8, 8, 8, 8, 4, 4, 4, 4, 4}, 52},
	{"examples/flash_decoding/flash_decoding.sm_90.sass", "flash_decode_combine", 5,
	 {0, 8, 16, 24, 32}, {8, 8, 8, 8, 4}, 36},
};

START_TEST(test_runtime_param_info)
{
	fiberDevice d = device(NULL);
	fiberModule m = load(d, layouts[_i].file);
	fiberFunction f;
	fiberFuncAttributes a;
	unsigned n;
	size_t off, size;

	ck_assert_int_eq(fiberModuleGetFunction(&f, m, layouts[_i].kernel), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFuncGetParamCount(f, &n), FIBER_SUCCESS);
	ck_assert_uint_eq(n, layouts[_i].n);
	for (unsigned k = 0; k < n; k++) {
		ck_assert_int_eq(fiberFuncGetParamInfo(f, k, &off, &size), FIBER_SUCCESS);
		ck_assert_uint_eq(off, layouts[_i].off[k]);
		ck_assert_uint_eq(size, layouts[_i].size[k]);
	}
	ck_assert_int_eq(fiberFuncGetParamInfo(f, n, &off, &size), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "there is no parameter"));
	ck_assert_int_eq(fiberFuncGetAttributes(f, &a), FIBER_SUCCESS);
	ck_assert_int_eq(a.has_param_info, 1);
	ck_assert_uint_eq(a.num_params, layouts[_i].n);
	ck_assert_uint_eq(a.param_size, layouts[_i].block);
	ck_assert_int_gt(a.num_regs, 0);
	ck_assert_int_eq(fiberFuncGetAttributes(f, NULL), FIBER_ERROR_INVALID_VALUE);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_param_info_gap)
{
	fiberDevice d = device("a100");
	char *text = gap_listing(80);
	fiberModule m;
	fiberFunction f;
	size_t off, size;
	fiberFuncAttributes a;

	ck_assert_int_eq(fiberModuleLoadData(&m, d, text, strlen(text), "gap.sass"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "store_params"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFuncGetParamInfo(f, 0, &off, &size), FIBER_SUCCESS);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(size, 4);
	ck_assert_int_eq(fiberFuncGetParamInfo(f, 1, &off, &size), FIBER_SUCCESS);
	ck_assert_uint_eq(off, 8);
	ck_assert_uint_eq(size, 8);
	fiberFuncGetAttributes(f, &a);
	ck_assert_uint_eq(a.param_size, 16);
	free(text);
	fiberDeviceDestroy(d);
}
END_TEST

/* a cuobjdump listing has no .nv.info: no layout, so only packed launches */
START_TEST(test_runtime_param_info_cuobjdump)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.cuobjdump.sass");
	fiberFunction f;
	fiberFuncAttributes a;
	unsigned n, g[3] = {1, 1, 1};
	size_t off;

	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFuncGetParamCount(f, &n), FIBER_ERROR_NO_PARAM_INFO);
	ck_assert_int_eq(fiberFuncGetParamInfo(f, 0, &off, NULL), FIBER_ERROR_NO_PARAM_INFO);
	ck_assert_int_eq(fiberFuncGetAttributes(f, &a), FIBER_SUCCESS);
	ck_assert_int_eq(a.has_param_info, 0);
	ck_assert_int_eq(fiberLaunchKernel(f, g, g, 0, NULL), FIBER_ERROR_NO_PARAM_INFO);
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Memory.
 */
START_TEST(test_runtime_memory_round_trip)
{
	fiberDevice d = device("a100");
	fiberDevicePtr a, b;
	uint8_t in[4096], out[4096];

	for (size_t k = 0; k < sizeof in; k++)
		in[k] = (uint8_t)(k * 7 + 3);
	ck_assert_int_eq(fiberMalloc(d, &a, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &b, sizeof in), FIBER_SUCCESS);
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_ne(a, b);
	ck_assert_int_eq(fiberMemcpyHtoD(d, a, in, sizeof in), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, a, sizeof out), FIBER_SUCCESS);
	ck_assert_mem_eq(in, out, sizeof in);
	ck_assert_int_eq(fiberMemcpyDtoD(d, b, a, sizeof in), FIBER_SUCCESS);
	memset(out, 0, sizeof out);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, b, sizeof out), FIBER_SUCCESS);
	ck_assert_mem_eq(in, out, sizeof in);
	/* overlapping DtoD copies move like memmove */
	ck_assert_int_eq(fiberMemcpyDtoD(d, a + 1, a, 100), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, a, 101), FIBER_SUCCESS);
	ck_assert_mem_eq(out + 1, in, 100);
	ck_assert_int_eq(fiberMemset(d, a + 16, 0xab, 32), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, a, 64), FIBER_SUCCESS);
	for (int k = 16; k < 48; k++)
		ck_assert_uint_eq(out[k], 0xab);
	ck_assert_uint_eq(out[48], in[47]);
	ck_assert_int_eq(fiberMemcpyHtoD(d, a, in, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFree(d, a), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFree(d, b), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFree(d, 0), FIBER_SUCCESS);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_memory_errors)
{
	fiberDevice d = device("a100");
	fiberDevicePtr a;
	uint8_t buf[64];

	ck_assert_int_eq(fiberMalloc(d, &a, 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMalloc(d, NULL, 16), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMalloc(d, &a, (size_t)1 << 62), FIBER_ERROR_OUT_OF_MEMORY);
	ck_assert_int_eq(fiberMalloc(d, &a, 32), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, a, buf, 33), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "not inside one allocation"));
	ck_assert_int_eq(fiberMemcpyDtoH(d, buf, a + 16, 17), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, buf, 0x10, 4), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, NULL, a, 4), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMemcpyHtoD(d, a, NULL, 4), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberMemset(d, a, 0, 64), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberMemcpyDtoD(d, a, a + 8, 32), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberFree(d, a + 4), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberFree(d, a), FIBER_SUCCESS);
	ck_assert_int_eq(fiberFree(d, a), FIBER_ERROR_INVALID_ADDRESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, buf, a, 4), FIBER_ERROR_INVALID_ADDRESS);
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Launch checks (before the simulator runs anything).
 */
static const struct {
	unsigned grid[3], block[3], dyn;
	size_t size;               /* packed block size */
	const char *msg;
} bad_launches[] = {
	{{0, 1, 1}, {128, 1, 1}, 0, 24, "grid.x = 0"},
	{{1, 65536, 1}, {128, 1, 1}, 0, 24, "grid.y = 65536"},
	{{1, 1, 1}, {2048, 1, 1}, 0, 24, "block.x = 2048"},
	{{1, 1, 1}, {128, 1, 65}, 0, 24, "block.z = 65"},
	{{1, 1, 1}, {1024, 2, 1}, 0, 24, "2048 threads exceeds the limit of device 'a100'"},
	{{1, 1, 1}, {256, 1, 1}, 0, 24, "launch bound of kernel 'softmax_rows' (128 threads)"},
	{{1, 1, 1}, {128, 1, 1}, 1u << 30, 24, "shared memory"},
	{{1, 1, 1}, {128, 1, 1}, 0, 20, "parameter block of 24 bytes, not 20"},
};

START_TEST(test_runtime_launch_checks)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	uint8_t params[64] = {0};
	fiberStats st;

	fiberModuleGetFunction(&f, m, "softmax_rows");
	ck_assert_int_eq(fiberLaunchKernelPacked(f, bad_launches[_i].grid, bad_launches[_i].block,
	                                         bad_launches[_i].dyn, params, bad_launches[_i].size),
	                 FIBER_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), bad_launches[_i].msg), "'%s' lacks '%s'",
	              fiberGetLastErrorMessage(d), bad_launches[_i].msg);
	fiberGetStats(d, &st);
	ck_assert_uint_eq(st.launches, 0);
	fiberDeviceDestroy(d);
}
END_TEST

START_TEST(test_runtime_launch_bad_params)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
	fiberDevicePtr x = 0;
	int n = 0;
	void *params[4] = {&x, &x, &n, NULL};

	fiberModuleGetFunction(&f, m, "softmax_rows");
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, NULL), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "params[3] is NULL"));
	ck_assert_int_eq(fiberLaunchKernel(f, NULL, b, 0, params), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberLaunchKernelPacked(f, g, b, 0, NULL, 24), FIBER_ERROR_INVALID_VALUE);
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Real launches.
 */
START_TEST(test_runtime_launch_softmax)
{
	int arch = _i & 1 ? 90 : 80, functional = _i & 2, rows = 8, cols = 256;
	fiberDevice d = device(arch == 90 ? "h100" : "a100");
	fiberModule m = load(d, arch == 90 ? "examples/softmax/softmax.sm_90.sass"
	                                   : "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	fiberDevicePtr dx, dy;
	float x[2048], y[2048];
	unsigned g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
	void *params[4] = {&dx, &dy, &rows, &cols};
	fiberStats st;
	fiberStatus s;

	for (int k = 0; k < rows * cols; k++)
		x[k] = 4.0f * sinf(0.37f * (float)k);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dx, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dy, sizeof y), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, dx, x, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dy, 0xff, sizeof y), FIBER_SUCCESS);
	if (functional)
		ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_FUNCTIONAL), FIBER_SUCCESS);
	s = fiberLaunchKernel(f, g, b, 0, params);
	ck_assert_msg(s == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, y, dy, sizeof y), FIBER_SUCCESS);
	/* reference: y = exp(x - max) / sum exp(x - max) per row, in double. Tolerance 1e-5
	 * relative: MUFU.EX2 and the fast reciprocal are within a few ulp of fp32 */
	for (int r = 0; r < rows; r++) {
		double mx = -INFINITY, sum = 0;
		for (int c = 0; c < cols; c++)
			mx = fmax(mx, x[r * cols + c]);
		for (int c = 0; c < cols; c++)
			sum += exp(x[r * cols + c] - mx);
		for (int c = 0; c < cols; c++) {
			double want = exp(x[r * cols + c] - mx) / sum;
			ck_assert_msg(fabs(y[r * cols + c] - want) <= 1e-5 * want + 1e-9,
			              "sm_%d y[%d][%d] = %.9g, want %.9g", arch, r, c, y[r * cols + c], want);
		}
	}
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	ck_assert_uint_eq(st.launches, 1);
	if (functional)
		ck_assert_uint_eq(st.cycles, 0);
	else
		ck_assert_uint_gt(st.cycles, 0);
	ck_assert_uint_gt(st.warp_instructions, 0);
	ck_assert_uint_ge(st.thread_instructions, st.warp_instructions);
	ck_assert_uint_le(st.thread_instructions, 32 * st.warp_instructions);
	fiberDeviceDestroy(d);
}
END_TEST

/* the parameter block: values at their offsets, the alignment gap zero, both launch forms */
START_TEST(test_runtime_launch_gap)
{
	int arch = _i ? 90 : 80;
	fiberDevice d = device(arch == 90 ? "h100" : "a100");
	char *text = gap_listing(arch);
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr p;
	int a = -123456;
	uint32_t out[2];
	void *params[2] = {&a, &p};
	uint8_t packed[16];
	unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};

	ck_assert_int_eq(fiberModuleLoadData(&m, d, text, strlen(text), "gap.sass"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "store_params"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &p, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, p, 0x55, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, p, sizeof out), FIBER_SUCCESS);
	ck_assert_uint_eq(out[0], (uint32_t)a);
	ck_assert_uint_eq(out[1], 0);
	/* packed: the caller's bytes go through unchanged, gap included */
	memset(packed, 0, sizeof packed);
	memcpy(packed, &(uint32_t){0x11223344}, 4);
	memcpy(packed + 4, &(uint32_t){0xcafef00d}, 4);
	memcpy(packed + 8, &p, 8);
	ck_assert_int_eq(fiberLaunchKernelPacked(f, g, b, 0, packed, sizeof packed), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, p, sizeof out), FIBER_SUCCESS);
	ck_assert_uint_eq(out[0], 0x11223344);
	ck_assert_uint_eq(out[1], 0xcafef00d);
	free(text);
	fiberDeviceDestroy(d);
}
END_TEST

/* a kernel fault: LAUNCH_FAILED, the fault's kind and one-line message */
START_TEST(test_runtime_launch_fault)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	fiberDevicePtr dx, dy;
	int rows = 8, cols = 256;
	void *params[4] = {&dx, &dy, &rows, &cols};
	unsigned g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
	fiberFault ft;
	fiberStats st;

	fiberModuleGetFunction(&f, m, "softmax_rows");
	ck_assert_int_eq(fiberMalloc(d, &dx, 64), FIBER_SUCCESS);    /* far too small */
	ck_assert_int_eq(fiberMalloc(d, &dy, 8192), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dx, 0, 64), FIBER_SUCCESS);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_ERROR_LAUNCH_FAILED);
	ck_assert_int_eq(fiberGetLastFault(d, &ft), FIBER_SUCCESS);
	ck_assert_int_eq(ft.kind, FIBER_FAULT_OUT_OF_BOUNDS);
	ck_assert_str_ne(ft.message, "");
	ck_assert_ptr_null(strchr(ft.message, '\n'));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), ft.name));
	fiberGetStats(d, &st);
	ck_assert_uint_eq(st.launches, 1);
	fiberDeviceDestroy(d);
}
END_TEST

/* the configuration's watchdog stops a kernel that runs too long */
START_TEST(test_runtime_launch_watchdog)
{
	const char *cfg = "base = a100\nwatchdog = 50\n";
	char *path = temp_file(".cfg", cfg, strlen(cfg), 0);
	fiberDevice d = device(path);
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	fiberDevicePtr dx, dy;
	int rows = 8, cols = 256;
	void *params[4] = {&dx, &dy, &rows, &cols};
	unsigned g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
	fiberFault ft;

	fiberModuleGetFunction(&f, m, "softmax_rows");
	fiberMalloc(d, &dx, 8192);
	fiberMalloc(d, &dy, 8192);
	fiberMemset(d, dx, 0, 8192);
	ck_assert_int_eq(fiberLaunchKernel(f, g, b, 0, params), FIBER_ERROR_LAUNCH_FAILED);
	fiberGetLastFault(d, &ft);
	ck_assert_int_eq(ft.kind, FIBER_FAULT_WATCHDOG);
	fiberDeviceDestroy(d);
	unlink(path);
	free(path);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Simulation settings and statistics.
 */

/* the whole of a file as a string (malloc) */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = 0;
	fclose(fp);
	return buf;
}

/* braces and brackets outside strings balance, never below zero */
static int
json_balanced(const char *s)
{
	int depth = 0, in_string = 0;

	for (; *s; s++) {
		if (in_string) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_string = 0;
		} else if (*s == '"') {
			in_string = 1;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if ((*s == '}' || *s == ']') && --depth < 0) {
			return 0;
		}
	}
	return depth == 0 && !in_string;
}

START_TEST(test_runtime_settings)
{
	fiberDevice d = device("a100"), gone = device("h100");
	char *path = temp_file(".json", "", 0, 0), *json;
	FILE *fp;

	fiberDeviceDestroy(gone);
	ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_FUNCTIONAL), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_TIMING), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, (fiberSimMode)2), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "not a mode"));
	ck_assert_int_eq(fiberDeviceSetMode(d, (fiberSimMode)-1), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetThreads(d, 1), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetThreads(d, 256), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetThreads(d, 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetThreads(d, 257), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "257"));
	ck_assert_int_eq(fiberDeviceSetSampling(d, 0, 0), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetSampling(d, 4, 100), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetSampling(d, 1025, 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetSampling(d, 0, 0x80000000u), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetTrace(d, "", 0), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberDeviceSetTrace(d, NULL, 0), FIBER_SUCCESS);   /* not tracing: no-op */
	ck_assert_int_eq(fiberWriteStatsJSON(d, NULL), FIBER_ERROR_INVALID_VALUE);
	ck_assert_int_eq(fiberWriteStatsJSON(d, "/nonexistent/s.json"), FIBER_ERROR_IO);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "/nonexistent/s.json"));
	ck_assert_int_eq(fiberPrintSummary(d, NULL), FIBER_ERROR_INVALID_VALUE);
	fp = tmpfile();
	ck_assert_int_eq(fiberPrintSummary(d, fp), FIBER_ERROR_INVALID_VALUE);   /* no launch yet */
	fclose(fp);
	/* no launch: valid JSON, no kernels */
	ck_assert_int_eq(fiberWriteStatsJSON(d, path), FIBER_SUCCESS);
	json = slurp(path);
	ck_assert_msg(json_balanced(json), "%s", json);
	ck_assert_ptr_nonnull(strstr(json, "\"launches\": 0,"));
	ck_assert_ptr_nonnull(strstr(json, "\"kernels\": []"));
	ck_assert_ptr_nonnull(strstr(json, "\"ipc\": null"));
	free(json);
	/* handles */
	ck_assert_int_eq(fiberDeviceSetMode(gone, FIBER_MODE_TIMING), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceSetThreads(NULL, 1), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceSetSampling(gone, 0, 0), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberDeviceSetTrace(gone, path, 0), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberWriteStatsJSON(gone, path), FIBER_ERROR_INVALID_HANDLE);
	ck_assert_int_eq(fiberPrintSummary(NULL, stderr), FIBER_ERROR_INVALID_HANDLE);
	fiberDeviceDestroy(d);
	unlink(path);
	free(path);
}
END_TEST

/* a functional launch: cycles 0, the instruction counts, no timing sections */
START_TEST(test_runtime_stats_functional)
{
	fiberDevice d = device("a100");
	fiberModule m = load(d, "examples/softmax/softmax.sm_80.sass");
	fiberFunction f;
	fiberDevicePtr dx, dy;
	int rows = 8, cols = 256;
	unsigned g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
	void *params[4] = {&dx, &dy, &rows, &cols};
	char *path = temp_file(".json", "", 0, 0), *json, want[128], summary[1024] = "";
	fiberStats st;
	FILE *fp;

	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dx, 8192), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dy, 8192), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dx, 0, 8192), FIBER_SUCCESS);
	ck_assert_int_eq(fiberDeviceSetMode(d, FIBER_MODE_FUNCTIONAL), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberGetStats(d, &st), FIBER_SUCCESS);
	ck_assert_uint_eq(st.cycles, 0);
	ck_assert_uint_gt(st.warp_instructions, 0);
	ck_assert_int_eq(fiberWriteStatsJSON(d, path), FIBER_SUCCESS);
	json = slurp(path);
	ck_assert_msg(json_balanced(json), "%s", json);
	ck_assert_ptr_nonnull(strstr(json, "\"version\": 1"));
	ck_assert_ptr_nonnull(strstr(json, "\"mode\": \"functional\""));
	ck_assert_ptr_nonnull(strstr(json, "\"launches\": 1,"));
	ck_assert_ptr_nonnull(strstr(json, "\n  \"cycles\": 0,"));
	ck_assert_ptr_nonnull(strstr(json, "\"name\": \"softmax_rows\""));
	ck_assert_ptr_nonnull(strstr(json, "\"grid\": [2, 1, 1]"));
	ck_assert_ptr_nonnull(strstr(json, "\"config\": {\"name\": \"a100\", \"arch\": \"sm_80\""));
	snprintf(want, sizeof want, "\"warp_instructions\": %llu,", (unsigned long long)st.warp_instructions);
	ck_assert_ptr_nonnull(strstr(json, want));
	snprintf(want, sizeof want, "\"thread_instructions\": %llu", (unsigned long long)st.thread_instructions);
	ck_assert_ptr_nonnull(strstr(json, want));
	ck_assert_ptr_null(strstr(json, "cpi_stack"));
	ck_assert_ptr_null(strstr(json, "nan"));
	free(json);
	fp = tmpfile();
	ck_assert_int_eq(fiberPrintSummary(d, fp), FIBER_SUCCESS);
	rewind(fp);
	ck_assert_uint_gt(fread(summary, 1, sizeof summary - 1, fp), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(summary, "softmax_rows"));
	ck_assert_ptr_nonnull(strstr(summary, "functional"));
	fiberDeviceDestroy(d);
	unlink(path);
	free(path);
}
END_TEST

Suite *
runtime_suite(void)
{
	Suite *s = suite_create("runtime");
	TCase *tc = tcase_create("Core"), *ld = tcase_create("Load"), *mem = tcase_create("Memory");
	TCase *run = tcase_create("Launch");

	tcase_add_test(tc, test_runtime_device_builtin);
	tcase_add_test(tc, test_runtime_device_auto);
	tcase_add_loop_test(tc, test_runtime_device_config_file, 0, sizeof configs / sizeof configs[0]);
	tcase_add_test(tc, test_runtime_error_strings);
	tcase_add_test(tc, test_runtime_bad_handles);
	suite_add_tcase(s, tc);

	tcase_add_test(ld, test_runtime_load_text);
	tcase_add_test(ld, test_runtime_load_data);
	tcase_add_test(ld, test_runtime_load_ir_text);
	tcase_add_loop_test(ld, test_runtime_load_errors, 0, sizeof bad_modules / sizeof bad_modules[0]);
	tcase_add_test(ld, test_runtime_load_noverify);
	tcase_add_test(ld, test_runtime_load_file_errors);
	tcase_add_test(ld, test_runtime_load_log);
	tcase_add_test(ld, test_runtime_cubin_no_disassembler);
	tcase_add_test(ld, test_runtime_cubin_stub);
	tcase_add_test(ld, test_runtime_cubin_disassembler_fails);
	tcase_add_test(ld, test_runtime_cubin_invalid);
	tcase_add_loop_test(ld, test_runtime_param_info, 0, sizeof layouts / sizeof layouts[0]);
	tcase_add_test(ld, test_runtime_param_info_gap);
	tcase_add_test(ld, test_runtime_param_info_cuobjdump);
	tcase_set_timeout(ld, 60);
	suite_add_tcase(s, ld);

	tcase_add_test(mem, test_runtime_memory_round_trip);
	tcase_add_test(mem, test_runtime_memory_errors);
	suite_add_tcase(s, mem);

	tcase_add_loop_test(run, test_runtime_launch_checks, 0,
	                    sizeof bad_launches / sizeof bad_launches[0]);
	tcase_add_test(run, test_runtime_launch_bad_params);
	tcase_add_loop_test(run, test_runtime_launch_softmax, 0, 4);
	tcase_add_test(run, test_runtime_settings);
	tcase_add_test(run, test_runtime_stats_functional);
	tcase_add_loop_test(run, test_runtime_launch_gap, 0, 2);
	tcase_add_test(run, test_runtime_launch_fault);
	tcase_add_test(run, test_runtime_launch_watchdog);
	tcase_set_timeout(run, 120);
	suite_add_tcase(s, run);
	return s;
}
