/* fuzz_args.c: libFuzzer target for fibersim's parsers: the `run` command line, --arg SPEC,
 * --grid/--block dimensions (runtime/cli.c) and configuration files (runtime/config.c).
 * An input is command-line words separated by newlines, then optionally a NUL byte and the text
 * of a configuration file. Whatever parses must satisfy the contract (dimensions within CUDA's
 * limits, --out naming a buffer argument, sizes of 4 or 8 bytes, configuration values in range);
 * a violation aborts. With FUZZ_SEED_DIR set, the target first writes seeds there.
 */
#include "cli.h"
#include "rt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MaxWords = 256 };

#define SEED(lit) {lit, sizeof lit - 1}
static const struct {
	const char *text;          /* the input */
	size_t n;                  /* its bytes (a NUL separates the configuration) */
} seeds[] = {
	SEED("k.sass\n--kernel\nsoftmax_rows\n--grid\n2\n--block\n128\n--arg\nbuf:x.bin\n"
	     "--arg\nzeros:8192\n--arg\ni32:8\n--arg\ni32:256\n--out\n1:y.bin\n--stats\ns.json\n"
	     "--functional"),
	SEED("k.sass\n--kernel=k\n--grid=1,2,3\n--block=32,2,1\n--arch=sm_90\n--config=h100\n"
	     "--dynamic-smem=0x100\n--arg=u64:0xffffffffffffffff\n--arg=i64:-9223372036854775808\n"
	     "--arg=f32:-1.5e-3\n--arg=u32:4294967295\n--arg=zeros:16\n--out=4:z.bin"),
	SEED("k.sass\n--kernel\ntma_tile\n--grid\n4,4\n--block\n128\n"
	     "--arg\ntmap:f32,100x50,32x16,swizzle=128,l2=256,oob=nan,buf=m,x.bin\n"
	     "--arg\ntmap:bf16,64x8x4x2x2,8x4x2x1x1,strides=128x1024x4096x8192,estrides=1x2x1x1x1\n"
	     "--arg\ntmap:u8,16,16,of=3,offset=0x10,interleave=none\n--arg\nzeros:64\n--out\n0:o.bin"),
	SEED("--help"),
	SEED("k.sass\n--kernel\nk\n--grid\n1\n--block\n1\n--config\nmy.cfg\n" "\0"
	     "# mine\nbase = h100\nname = mini\narch = sm_90\nsms = 4\nmax_threads_per_block = 256\n"
	     "max_shared_per_block = 0xc000\nwatchdog = 5000\nnvdisasm = /usr/local/cuda/bin/nvdisasm\n"),
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SEED_DIR");

	(void)argc;
	(void)argv;
	for (size_t k = 0; dir && *dir && k < sizeof seeds / sizeof seeds[0]; k++) {
		char path[1024];
		FILE *fp;

		snprintf(path, sizeof path, "%s/seed-%zu", dir, k);
		if ((fp = fopen(path, "wb"))) {
			fwrite(seeds[k].text, 1, seeds[k].n, fp);
			fclose(fp);
		}
	}
	return 0;
}

/* argument i is a device buffer (buf:, zeros: or uninit:) */
static int
is_buffer(const CliRun *r, unsigned i)
{
	return i < r->narg && (r->arg[i].kind == ArgBuf || r->arg[i].kind == ArgZeros ||
	                       r->arg[i].kind == ArgUninit);
}

static void
check_run(const CliRun *r)
{
	if (!r->file || r->arch % 10 != 0)   /* no --kernel is allowed: fibersim lists the kernels */
		abort();
	if (!r->kernel)     /* without --kernel fibersim lists FILE's kernels: nothing else is used */
		return;
	for (int k = 0; k < 3; k++)
		if (r->grid[k] == 0 || r->block[k] == 0 || r->block[k] > 1024 || (k && r->grid[k] > 65535))
			abort();
	for (unsigned k = 0; k < r->narg; k++) {
		const CliArg *a = &r->arg[k];
		if (a->kind < 0 || a->kind > ArgTmap || a->size != (a->kind == ArgTmap ? 128u
		    : a->kind == ArgU32 || a->kind == ArgI32 || a->kind == ArgF32 ? 4u : 8u))
			abort();
		if (a->kind == ArgTmap && a->tmap.of != CliOwn && !is_buffer(r, a->tmap.of))
			abort();
	}
	for (unsigned k = 0; k < r->nout; k++) {
		unsigned i = r->out[k].index;
		if (i >= r->narg || (!is_buffer(r, i) &&
		                     (r->arg[i].kind != ArgTmap || r->arg[i].tmap.of != CliOwn)))
			abort();
	}
}

static void
check_config(const uint8_t *text, size_t n)
{
	struct fiberDevice_st dev;

	memset(&dev, 0, sizeof dev);
	if (rt_config_text(&dev, "fuzz.cfg", (const char *)text, n) != FIBER_SUCCESS)
		return;
	if ((dev.cfg.sm != 80 && dev.cfg.sm != 90) || dev.cfg.nsm < 1 || dev.cfg.nsm > 1024
	    || dev.cfg.max_threads_per_block < 1 || dev.cfg.max_threads_per_block > 1024
	    || !memchr(dev.name, 0, sizeof dev.name) || dev.cfg.name != dev.name)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t nargs = nul ? (size_t)(nul - data) : size;
	char *text = malloc(nargs + 1), *argv[MaxWords], err[512];
	int argc = 0;
	CliRun r;

	memcpy(text, data, nargs);
	text[nargs] = 0;
	for (char *p = text; argc < MaxWords;) {
		char *nl = strchr(p, '\n');
		argv[argc++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	if (cli_parse_run(argc, argv, &r, err, sizeof err) == 0)
		check_run(&r);
	else if (!memchr(err, 0, sizeof err) || strchr(err, '\n'))
		abort();
	cli_free(&r);
	for (int k = 0; k < argc; k++) {
		CliArg a;
		unsigned d[3];
		if (cli_parse_spec(argv[k], &a, err, sizeof err) == 0 &&
		    a.size != (a.kind == ArgTmap ? 128u : a.kind == ArgU32 || a.kind == ArgI32 ||
		               a.kind == ArgF32 ? 4u : 8u))
			abort();
		if (cli_parse_dims("--grid", argv[k], 1, d, err, sizeof err) == 0
		    && (d[0] == 0 || d[0] > 0x7fffffff || d[1] == 0 || d[1] > 65535 || d[2] == 0 || d[2] > 65535))
			abort();
		if (cli_parse_dims("--block", argv[k], 0, d, err, sizeof err) == 0
		    && (d[0] == 0 || d[0] > 1024 || d[1] == 0 || d[1] > 1024 || d[2] == 0 || d[2] > 64))
			abort();
	}
	if (nul)
		check_config(nul + 1, size - nargs - 1);
	free(text);
	return 0;
}
