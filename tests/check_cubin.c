/* check_cubin.c: real nvcc 13 cubins (tests/cubins/, made by tests/cubins/regen.sh). Every
 * committed cubin's .nv.info sections parse and give the parameter layout nvdisasm printed for
 * the same file (NAME.ARCH.params); softmax of every architecture launches through a stub
 * disassembler that prints the committed listing and gives the same output as the listing loaded
 * directly; the attribute reader on hand-made and mutated inputs; a disassembler that never
 * finishes is killed after FIBER_NVDISASM_TIMEOUT, and a signal while it runs leaves no temporary
 * copy behind; a module where some kernels use an instruction the simulator lacks loads, the
 * others run, and looking one of those up gives its located message. Files come from $FIBER_ROOT.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* the whole of a file (malloc), NULL if it cannot be read */
static uint8_t *
slurp_file(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *b;
	long len;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	b = malloc((size_t)len + 1);
	*n = fread(b, 1, (size_t)len, fp);
	b[*n] = 0;
	fclose(fp);
	return b;
}

/* one kernel's line of a .params file against the ELF reader's view of it */
static void
check_kernel_line(const char *file, char *line, const Cubin *cb, uint32_t *seen)
{
	char *tok = strtok(line, " \n"), *cbank;
	const CubinKernel *k = NULL;
	uint32_t np = 0;

	if (!tok)
		return;
	for (uint32_t j = 0; j < cb->nk; j++)
		if (strcmp(cb->k[j].name, tok) == 0)
			k = &cb->k[j];
	ck_assert_msg(k != NULL, "%s: nvdisasm lists kernel '%s', the ELF reader does not", file, tok);
	(*seen)++;
	cbank = strtok(NULL, " \n");
	ck_assert_msg(cbank && strncmp(cbank, "cbank=", 6) == 0, "%s: bad line", file);
	if (strcmp(cbank + 6, "-") == 0)
		ck_assert_int_eq(k->cbank_param_size, -1);
	else
		ck_assert_msg(k->cbank_param_size == atoi(cbank + 6), "%s: %s: CBANK_PARAM_SIZE %d, "
		              "nvdisasm %s", file, k->name, k->cbank_param_size, cbank + 6);
	while ((tok = strtok(NULL, " \n"))) {
		unsigned ord, off, size;
		int found = 0;

		ck_assert_msg(sscanf(tok, "p=%u:%u:%u", &ord, &off, &size) == 3, "%s: bad '%s'", file, tok);
		np++;
		for (uint32_t j = 0; j < k->nparam; j++)
			if (k->param[j].ordinal == ord) {
				found = 1;
				ck_assert_msg(k->param[j].offset == off && k->param[j].size == size,
				              "%s: %s parameter %u at %u size %u, nvdisasm: at %u size %u", file,
				              k->name, ord, k->param[j].offset, k->param[j].size, off, size);
			}
		ck_assert_msg(found, "%s: %s: no parameter %u", file, k->name, ord);
	}
	ck_assert_msg(np == k->nparam, "%s: %s: %u parameters, nvdisasm %u", file, k->name, k->nparam, np);
}

START_TEST(test_cubin_real_params)
{
	char dir[1024], path[1400];
	DIR *dp;
	struct dirent *de;
	fiberDevice d = NULL;
	int ncubin = 0;

	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	snprintf(dir, sizeof dir, "%s/tests/cubins", root());
	ck_assert_ptr_nonnull(dp = opendir(dir));
	while ((de = readdir(dp))) {
		size_t len = strlen(de->d_name), n, pn;
		uint8_t *data, *params;
		Cubin cb;
		uint32_t seen = 0;
		char *line, *save = NULL;

		if (len < 7 || strcmp(de->d_name + len - 6, ".cubin") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		ck_assert_ptr_nonnull(data = slurp_file(path, &n));
		ck_assert_msg(rt_cubin_read(d, de->d_name, data, n, &cb) == FIBER_SUCCESS, "%s",
		              fiberGetLastErrorMessage(d));
		snprintf(path + strlen(path) - 6, 8, ".params");
		ck_assert_msg((params = slurp_file(path, &pn)) != NULL, "%s is missing", path);
		for (line = strtok_r((char *)params, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			check_kernel_line(de->d_name, line, &cb, &seen);
		ck_assert_msg(seen == cb.nk, "%s: %u kernels, nvdisasm lists %u", de->d_name, cb.nk, seen);
		ck_assert_uint_gt(cb.nk, 0);
		rt_cubin_free(&cb);
		free(params);
		free(data);
		ncubin++;
	}
	closedir(dp);
	/* 17 sources, 5 architectures, less those nvcc rejects for the older ones */
	ck_assert_int_ge(ncubin, 100);
	fiberDeviceDestroy(d);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Launches: the cubin through a stub disassembler against the same listing loaded directly.
 */
static const char *const archs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};

/* a disassembler that checks its arguments and prints listing (malloc'd path of the script) */
static char *
stub_printing(const char *listing)
{
	char *path = strdup("/tmp/fiber-stub-XXXXXX.sh");
	FILE *fp;
	int fd = mkstemps(path, 3);

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(fp = fdopen(fd, "w"));
	fprintf(fp, "#!/bin/sh\n[ \"$1\" = -hex ] && head -c 4 \"$2\" | grep -q ELF || exit 9\n"
	        "exec cat '%s'\n", listing);
	fclose(fp);
	chmod(path, 0700);
	return path;
}

/* softmax of 8 rows of 256 on module m; y gets the output */
static void
run_softmax(fiberDevice d, fiberModule m, float *y)
{
	int rows = 8, cols = 256;
	float x[2048];
	fiberFunction f;
	fiberDevicePtr dx, dy;
	unsigned g[3] = {2, 1, 1}, b[3] = {128, 1, 1};
	void *params[4] = {&dx, &dy, &rows, &cols};

	for (int k = 0; k < rows * cols; k++)
		x[k] = 4.0f * sinf(0.37f * (float)k);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "softmax_rows"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dx, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dy, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemcpyHtoD(d, dx, x, sizeof x), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dy, 0xff, sizeof x), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, y, dy, sizeof x), FIBER_SUCCESS);
}

START_TEST(test_cubin_real_launch)
{
	const char *arch = archs[_i];
	char cubin[1200], listing[1200];
	float y_cubin[2048], y_sass[2048];
	fiberDevice d;
	fiberModule mc, ms;
	char *stub;

	snprintf(cubin, sizeof cubin, "%s/tests/cubins/softmax.%s.cubin", root(), arch);
	snprintf(listing, sizeof listing, "%s/tests/cubins/softmax.%s.sass", root(), arch);
	stub = stub_printing(listing);
	setenv("FIBER_NVDISASM", stub, 1);
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&mc, d, cubin) == FIBER_SUCCESS, "%s: %s", arch,
	              fiberGetLastErrorMessage(d));
	run_softmax(d, mc, y_cubin);
	fiberDeviceDestroy(d);
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&ms, d, listing) == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	run_softmax(d, ms, y_sass);
	fiberDeviceDestroy(d);
	ck_assert_msg(memcmp(y_cubin, y_sass, sizeof y_sass) == 0, "%s: the cubin and its listing differ",
	              arch);
	/* and the result is a softmax: each row sums to 1 */
	for (int r = 0; r < 8; r++) {
		double sum = 0;
		for (int c = 0; c < 256; c++)
			sum += y_cubin[256 * r + c];
		ck_assert_msg(fabs(sum - 1) < 1e-4, "%s: row %d sums to %g", arch, r, sum);
	}
	unlink(stub);
	free(stub);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The attribute reader on hand-made sections.
 */
typedef struct NvinfoCase {
	const char *what;
	uint8_t b[40];
	size_t n;
	int ok;                    /* 0 or -1 */
	int nparam;                /* parameters found when ok */
} NvinfoCase;

static const NvinfoCase nvinfo_cases[] = {
	{"empty", {0}, 0, 0, 0},
	/* EIATTR_SW_WAR-like NVAL with its two zero bytes, then CBANK_PARAM_SIZE */
	{"NVAL, padding", {0x01, 0x35, 0, 0, 0x03, 0x19, 0x08, 0x00}, 8, 0, 0},
	{"NVAL at the end, no padding", {0x03, 0x19, 0x08, 0x00, 0x01, 0x35}, 6, 0, 0},
	{"NVAL, non-zero padding", {0x01, 0x35, 0x03, 0x19, 0x08, 0x00}, 6, -1, 0},
	{"BVAL, padding", {0x02, 0x4c, 0x01, 0x00, 0x03, 0x19, 0x08, 0x00}, 8, 0, 0},
	{"BVAL, non-zero padding", {0x02, 0x4c, 0x01, 0x07, 0x03, 0x19, 0x08, 0x00}, 8, -1, 0},
	{"HVAL cut", {0x03, 0x19, 0x08}, 3, -1, 0},
	{"header cut", {0x03}, 1, -1, 0},
	{"SVAL size cut", {0x04, 0x17, 0x0c}, 3, -1, 0},
	{"SVAL past the end", {0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0}, 8, -1, 0},
	{"unknown format 0", {0x00, 0x00, 0x00, 0x00}, 4, -1, 0},
	{"unknown format 5", {0x05, 0x17, 0x00, 0x00}, 4, -1, 0},
	{"KPARAM_INFO: 8 bytes at 16, ordinal 2",
	 {0x01, 0x35, 0, 0, 0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 0x02, 0x00, 0x10, 0x00, 0x00, 0xf0,
	  0x21, 0x00}, 20, 0, 1},
};

START_TEST(test_cubin_nvinfo_cases)
{
	const NvinfoCase *c = &nvinfo_cases[_i];
	CubinKernel k;

	memset(&k, 0, sizeof k);
	k.cbank_param_size = -1;
	ck_assert_msg(rt_nvinfo_read(c->b, c->n, &k) == c->ok, "%s", c->what);
	if (c->ok == 0)
		ck_assert_msg(k.nparam == (uint32_t)c->nparam, "%s: %u parameters", c->what, k.nparam);
	if (c->nparam) {
		ck_assert_uint_eq(k.param[0].ordinal, 2);
		ck_assert_uint_eq(k.param[0].offset, 16);
		ck_assert_uint_eq(k.param[0].size, 8);
	}
	free(k.param);
}
END_TEST

/* mutations of a real section: every byte changed, every length; no crash, no leak, and the
 * result is 0 or -1 (run under SAN=1 this is the fuzz test of the reader) */
START_TEST(test_cubin_nvinfo_mutations)
{
	char path[1200];
	uint8_t *data, *sec = NULL;
	size_t n, len = 0;
	fiberDevice d;
	Cubin cb;

	/* the softmax kernel's .nv.info.softmax_rows, found by its first attribute */
	snprintf(path, sizeof path, "%s/tests/cubins/softmax.sm_80.cubin", root());
	ck_assert_ptr_nonnull(data = slurp_file(path, &n));
	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	ck_assert_int_eq(rt_cubin_read(d, "softmax", data, n, &cb), FIBER_SUCCESS);
	rt_cubin_free(&cb);
	for (size_t at = 0; at + 8 < n && !sec; at += 4)
		if (memcmp(data + at, "\x04\x37\x04\x00", 4) == 0 && data[at + 8] == 0x01)
			sec = data + at, len = 232;
	ck_assert_ptr_nonnull(sec);
	ck_assert_int_eq(rt_nvinfo_read(sec, len, NULL), 0);
	for (size_t cut = 0; cut <= len; cut++) {
		CubinKernel k = {0};
		int r = rt_nvinfo_read(sec, cut, &k);
		ck_assert(r == 0 || r == -1);
		free(k.param);
	}
	for (size_t at = 0; at < len; at++)
		for (int v = 0; v < 256; v += 17) {
			uint8_t save = sec[at];
			CubinKernel k = {0};
			int r;

			sec[at] = (uint8_t)v;
			r = rt_nvinfo_read(sec, len, &k);
			ck_assert(r == 0 || r == -1);
			sec[at] = save;
			free(k.param);
		}
	/* the whole file with one byte changed: the ELF checks and the reader together */
	for (size_t at = 0; at < n; at += 7) {
		uint8_t save = data[at];
		data[at] ^= 0x5a;
		if (rt_cubin_read(d, "mutated", data, n, &cb) == FIBER_SUCCESS)
			rt_cubin_free(&cb);
		data[at] = save;
	}
	fiberDeviceDestroy(d);
	free(data);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Modules with kernels the simulator cannot run.
 */

/* `PATH:LINE:COL: error: unsupported instruction '...` */
static void
check_located(const char *msg, const char *path)
{
	int line = 0, col = 0, n = 0;
	size_t len = strlen(path);

	ck_assert_msg(strncmp(msg, path, len) == 0, "'%s' does not start with '%s'", msg, path);
	ck_assert_msg(sscanf(msg + len, ":%d:%d: error: unsupported instruction '%n", &line, &col, &n) == 2
	              && n > 0 && line > 0 && col > 0, "not a located message: '%s'", msg);
}

START_TEST(test_cubin_partial_listing)
{
	char path[1200];
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	fiberDevicePtr dout;
	float out[384];
	unsigned count = 0, g[3] = {1, 1, 1}, b[3] = {384, 1, 1};
	void *params[1] = {&dout};
	const char *const bad[] = {"k_multimem", "k_hop"};

	/* hopper.sm_90a.sass: k_multimem (LDGMC) and k_hop (UTMALDG, HGMMA) have instructions the
	 * simulator lacks; k_fp8mma and k_maxnreg do not */
	snprintf(path, sizeof path, "%s/tests/corpus/hopper.sm_90a.sass", root());
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	ck_assert_str_eq(fiberGetLastErrorLog(d), "");
	ck_assert_int_eq(fiberModuleGetFunctionCount(m, &count), FIBER_SUCCESS);
	ck_assert_uint_eq(count, 2);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(fiberModuleGetFunction(&f, m, bad[k]), FIBER_ERROR_UNSUPPORTED);
		ck_assert_ptr_null(f);
		check_located(fiberGetLastErrorMessage(d), path);
		ck_assert_ptr_nonnull(strstr(fiberGetLastErrorLog(d), "^"));
	}
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "unsupported instruction '"));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "nope"), FIBER_ERROR_NOT_FOUND);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "k_hop (unsupported)"));
	/* the others run: k_maxnreg writes 1 for the first 128 threads, 2 for the rest */
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_maxnreg"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMalloc(d, &dout, sizeof out), FIBER_SUCCESS);
	ck_assert_int_eq(fiberMemset(d, dout, 0, sizeof out), FIBER_SUCCESS);
	ck_assert_msg(fiberLaunchKernel(f, g, b, 0, params) == FIBER_SUCCESS, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberMemcpyDtoH(d, out, dout, sizeof out), FIBER_SUCCESS);
	for (int t = 0; t < 384; t++)
		ck_assert_msg(out[t] == (t < 128 ? 1.0f : 2.0f), "out[%d] = %g", t, out[t]);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_fp8mma"), FIBER_SUCCESS);
	fiberDeviceDestroy(d);

	/* tma.sm_90a.sass: k_tma (UTMALDG, SYNCS) cannot run, k_wg256 (HGMMA, docs/sim-wgmma.md) can;
	 * a module none of whose kernels can run fails to load (check_runtime's bad modules) */
	snprintf(path, sizeof path, "%s/tests/corpus/tma.sm_90a.sass", root());
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, path) == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_wg256"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_tma"), FIBER_ERROR_UNSUPPORTED);
	check_located(fiberGetLastErrorMessage(d), path);
	fiberDeviceDestroy(d);
}
END_TEST

/* the same through a real cubin: corpus-misc.sm_90, whose k_async has cp.async's sm_90
 * mbarrier arrivals (ARRIVES.LDGSTSBAR.64.ARVCNT) */
START_TEST(test_cubin_partial_cubin)
{
	char cubin[1200], listing[1200], located[1300];
	fiberDevice d;
	fiberModule m;
	fiberFunction f;
	char *stub;

	snprintf(cubin, sizeof cubin, "%s/tests/cubins/corpus-misc.sm_90.cubin", root());
	snprintf(listing, sizeof listing, "%s/tests/cubins/corpus-misc.sm_90.sass", root());
	stub = stub_printing(listing);
	setenv("FIBER_NVDISASM", stub, 1);
	ck_assert_int_eq(fiberDeviceCreate(&d, NULL), FIBER_SUCCESS);
	ck_assert_msg(fiberModuleLoadFile(&m, d, cubin) == FIBER_SUCCESS, "%s", fiberGetLastErrorMessage(d));
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_misc"), FIBER_SUCCESS);
	ck_assert_int_eq(fiberModuleGetFunction(&f, m, "k_async"), FIBER_ERROR_UNSUPPORTED);
	snprintf(located, sizeof located, "%s(nvdisasm)", cubin);
	check_located(fiberGetLastErrorMessage(d), located);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "'ARRIVES.LDGSTSBAR.64.ARVCNT'"));
	fiberDeviceDestroy(d);
	unlink(stub);
	free(stub);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * A disassembler that never finishes.
 */
typedef struct Hang {
	char tmpdir[64];           /* TMPDIR: where the temporary copy goes */
	char piddir[64];           /* the stub writes the pid of its own child here */
	char pidfile[128];
	char *stub;
} Hang;

/* a stub that starts `sleep 30` and waits for it; TMPDIR set to an empty directory */
static void
hang_setup(Hang *h)
{
	char body[512];
	FILE *fp;
	int fd;

	strcpy(h->tmpdir, "/tmp/fiber-tmpdir-XXXXXX");
	strcpy(h->piddir, "/tmp/fiber-piddir-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(h->tmpdir));
	ck_assert_ptr_nonnull(mkdtemp(h->piddir));
	snprintf(h->pidfile, sizeof h->pidfile, "%s/pid", h->piddir);
	snprintf(body, sizeof body, "#!/bin/sh\nsleep 30 &\necho $! > '%s.new'\nmv '%s.new' '%s'\nwait\n",
	         h->pidfile, h->pidfile, h->pidfile);
	h->stub = strdup("/tmp/fiber-hang-XXXXXX.sh");
	ck_assert_int_ge(fd = mkstemps(h->stub, 3), 0);
	ck_assert_ptr_nonnull(fp = fdopen(fd, "w"));
	fputs(body, fp);
	fclose(fp);
	chmod(h->stub, 0700);
	setenv("FIBER_NVDISASM", h->stub, 1);
	setenv("TMPDIR", h->tmpdir, 1);
}

/* entries of a directory, . and .. left out */
static int
entries(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(dp);
	while ((de = readdir(dp)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(dp);
	return n;
}

/* the stub's sleep is gone (within 5 s: its reaping is asynchronous); the directories removed */
static void
hang_check_and_free(Hang *h)
{
	FILE *fp = fopen(h->pidfile, "r");
	int pid = 0, alive = 1;

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fscanf(fp, "%d", &pid), 1);
	fclose(fp);
	for (int k = 0; k < 500 && alive; k++) {
		alive = kill(pid, 0) == 0;
		if (alive)
			usleep(10000);
	}
	if (alive)
		kill(pid, SIGKILL);
	ck_assert_msg(!alive, "the disassembler's child %d still runs", pid);
	ck_assert_msg(entries(h->tmpdir) == 0, "a temporary file is left in %s", h->tmpdir);
	unlink(h->pidfile);
	rmdir(h->piddir);
	rmdir(h->tmpdir);
	unlink(h->stub);
	free(h->stub);
}

static double
seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

START_TEST(test_cubin_disasm_timeout)
{
	char cubin[1200];
	fiberDevice d;
	fiberModule m;
	Hang h;
	double t0;

	snprintf(cubin, sizeof cubin, "%s/tests/cubins/softmax.sm_80.cubin", root());
	hang_setup(&h);
	ck_assert_int_eq(fiberDeviceCreate(&d, "a100"), FIBER_SUCCESS);
	setenv("FIBER_NVDISASM_TIMEOUT", "x1", 1);
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, cubin), FIBER_ERROR_INVALID_VALUE);
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "FIBER_NVDISASM_TIMEOUT='x1'"));
	setenv("FIBER_NVDISASM_TIMEOUT", "1", 1);
	t0 = seconds();
	ck_assert_int_eq(fiberModuleLoadFile(&m, d, cubin), FIBER_ERROR_DISASSEMBLER_FAILED);
	ck_assert_double_lt(seconds() - t0, 10);
	ck_assert_msg(strstr(fiberGetLastErrorMessage(d), "did not finish within 1 s") != NULL, "%s",
	              fiberGetLastErrorMessage(d));
	ck_assert_ptr_nonnull(strstr(fiberGetLastErrorMessage(d), "softmax.sm_80.cubin"));
	hang_check_and_free(&h);
	fiberDeviceDestroy(d);
}
END_TEST

/* SIGINT or SIGTERM while the disassembler runs: the process ends by that signal, as it would
 * have without us, and neither the temporary copy nor the disassembler's child survives */
static const int stop_signals[] = {SIGINT, SIGTERM};

START_TEST(test_cubin_disasm_signal)
{
	int sig = stop_signals[_i], st = 0, started = 0;
	char cubin[1200];
	Hang h;
	pid_t pid;

	snprintf(cubin, sizeof cubin, "%s/tests/cubins/softmax.sm_80.cubin", root());
	hang_setup(&h);
	setenv("FIBER_NVDISASM_TIMEOUT", "0", 1);   /* no limit: only the signal ends it */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		fiberDevice d;
		fiberModule m;
		signal(sig, SIG_DFL);
		if (fiberDeviceCreate(&d, "a100") != FIBER_SUCCESS)
			_exit(20);
		fiberModuleLoadFile(&m, d, cubin);
		_exit(21);
	}
	for (int k = 0; k < 1000 && !started; k++) {
		started = access(h.pidfile, F_OK) == 0 && entries(h.tmpdir) == 1;
		if (!started)
			usleep(10000);
	}
	ck_assert_msg(started, "the stub disassembler did not start");
	ck_assert_int_eq(kill(pid, sig), 0);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status 0x%x, want killed by %d", st, sig);
	hang_check_and_free(&h);
}
END_TEST

Suite *
cubin_suite(void)
{
	Suite *s = suite_create("cubin");
	TCase *tc = tcase_create("real");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_cubin_real_params);
	tcase_add_loop_test(tc, test_cubin_real_launch, 0, sizeof archs / sizeof archs[0]);
	tcase_add_loop_test(tc, test_cubin_nvinfo_cases, 0, sizeof nvinfo_cases / sizeof nvinfo_cases[0]);
	tcase_add_test(tc, test_cubin_nvinfo_mutations);
	tcase_add_test(tc, test_cubin_partial_listing);
	tcase_add_test(tc, test_cubin_partial_cubin);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cubin_disasm_timeout);
	tcase_add_loop_test(tc, test_cubin_disasm_signal, 0, sizeof stop_signals / sizeof stop_signals[0]);
	suite_add_tcase(s, tc);
	return s;
}
