/* fuzz_load.c: libFuzzer target for the runtime's module loader (fiberModuleLoadData): SASS and
 * IR text through the front end and the simulator's decoders, and cubins through the ELF reader
 * (libelf, .symtab, .nv.info). The disassembler is switched off (FIBER_NVDISASM=""), so a cubin
 * stops after validation. A module that loads has every kernel's attributes and parameter layout
 * read; with FIBER_FUZZ_LAUNCH=1 each kernel is also launched once (one warp, zero parameters,
 * a 20000-instruction watchdog). With FUZZ_SEED_DIR set, the target first writes seeds there: a
 * small cubin and a small listing. Build and run: make fuzz, make fuzz-run.
 */
#define _GNU_SOURCE
#include "fiber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char config[64];        /* the launch configuration file, "" without launches */

static void
le(uint8_t *p, uint64_t v, int n)
{
	for (int k = 0; k < n; k++)
		p[k] = (uint8_t)(v >> (8 * k));
}

/* an ELF64 EM_CUDA file: .shstrtab .strtab .symtab .nv.info.k .text.k, kernel k with two
 * parameters (8 bytes at 0x0, 4 at 0x8); 1024 bytes at most */
static size_t
seed_cubin(uint8_t *b)
{
	static const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.info.k\0.text.k";
	static const char str[] = "\0k";
	/* name offsets in shstr: .shstrtab 1, .strtab 11, .symtab 19, .nv.info.k 27, .text.k 38 */
	static const unsigned name[6] = {0, 1, 11, 19, 27, 38};
	size_t at = 64, off[6] = {0}, size[6] = {0};
	uint8_t info[64];
	size_t ninfo = 0;

	memset(b, 0, 1024);
	memcpy(b + at, shstr, sizeof shstr);
	off[1] = at, size[1] = sizeof shstr, at += sizeof shstr;
	memcpy(b + at, str, sizeof str);
	off[2] = at, size[2] = sizeof str, at += sizeof str;
	at = (at + 7) & ~(size_t)7;
	off[3] = at, size[3] = 48;
	le(b + at + 24, 1, 4);                     /* symbol 1: "k" */
	b[at + 24 + 4] = 0x12;                     /* GLOBAL FUNC */
	b[at + 24 + 5] = 0x10;                     /* STO_CUDA_ENTRY */
	le(b + at + 24 + 6, 5, 2);                 /* in .text.k */
	le(b + at + 24 + 16, 32, 8);
	at += 48;
	info[ninfo++] = 0x03, info[ninfo++] = 0x19, le(info + ninfo, 12, 2), ninfo += 2;
	for (int k = 1; k >= 0; k--) {
		info[ninfo++] = 0x04, info[ninfo++] = 0x17, le(info + ninfo, 12, 2), ninfo += 2;
		le(info + ninfo, 0, 4), ninfo += 4;
		le(info + ninfo, (unsigned)k, 2), ninfo += 2;
		le(info + ninfo, k ? 8 : 0, 2), ninfo += 2;
		le(info + ninfo, 0x1f000u | (k ? 4u : 8u) << 18, 4), ninfo += 4;
	}
	memcpy(b + at, info, ninfo);
	off[4] = at, size[4] = ninfo, at += ninfo;
	at = (at + 15) & ~(size_t)15;
	off[5] = at, size[5] = 32, at += 32;
	at = (at + 7) & ~(size_t)7;
	for (int k = 1; k < 6; k++) {
		uint8_t *sh = b + at + 64 * (size_t)k;
		static const uint32_t type[6] = {0, 3, 3, 2, 0x70000000, 1};
		le(sh + 0, name[k], 4);
		le(sh + 4, type[k], 4);
		le(sh + 8, k == 5 ? 6 : 0, 8);
		le(sh + 24, off[k], 8);
		le(sh + 32, size[k], 8);
		le(sh + 40, k == 3 ? 2 : k == 4 ? 3 : 0, 4);
		le(sh + 44, k == 3 ? 1 : k == 4 ? 5 : 0, 4);
		le(sh + 48, k == 5 ? 16 : 1, 8);
		le(sh + 56, k == 3 ? 24 : 0, 8);
	}
	memcpy(b, "\177ELF\2\1\1\063\7", 9);
	le(b + 16, 2, 2);
	le(b + 18, 190, 2);
	le(b + 20, 1, 4);
	le(b + 40, at, 8);
	le(b + 48, 0x500550, 4);
	le(b + 52, 64, 2);
	le(b + 58, 64, 2);
	le(b + 60, 6, 2);
	le(b + 62, 1, 2);
	return at + 6 * 64;
}

static const char seed_listing[] =
	"\t.target\tsm_80\n"
	"\t.section\t.nv.info.k,\"\",@\"SHT_CUDA_INFO\"\n"
	"\t//----- nvinfo : EIATTR_CBANK_PARAM_SIZE\n"
	"        /*0000*/ \t.byte\t0x03, 0x19\n"
	"        /*0002*/ \t.short\t0x0008\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"        /*0004*/ \t.byte\t0x04, 0x17\n"
	"        /*0006*/ \t.short\t(.L_1 - .L_0)\n"
	".L_0:\n"
	"        /*0008*/ \t.word\t0x00000000\n"
	"        /*000c*/ \t.short\t0x0000\n"
	"        /*000e*/ \t.short\t0x0000\n"
	"        /*0010*/ \t.byte\t0x00, 0xf0, 0x21, 0x00\n"
	".L_1:\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"        .other          k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	"k:\n"
	"        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	"        /*0010*/                   S2R R0, SR_TID.X ;\n"
	"        /*0020*/                   IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x160] ;\n"
	"        /*0030*/                   IMAD.MOV.U32 R3, RZ, RZ, c[0x0][0x164] ;\n"
	"        /*0040*/                   ULDC.64 UR4, c[0x0][0x118] ;\n"
	"        /*0050*/                   IMAD.WIDE.U32 R2, R0, 0x4, R2 ;\n"
	"        /*0060*/                   STG.E [R2.64], R0 ;\n"
	"        /*0070*/                   EXIT ;\n"
	".L_x_0:\n"
	"        /*0080*/                   BRA `(.L_x_0);\n";

static void
remove_config(void)
{
	unlink(config);
}

static void
write_seed(const char *dir, const char *name, const void *data, size_t n)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(path, "wb"))) {
		fwrite(data, 1, n, fp);
		fclose(fp);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SEED_DIR"), *launch = getenv("FIBER_FUZZ_LAUNCH");
	uint8_t cubin[1024];

	(void)argc;
	(void)argv;
	setenv("FIBER_NVDISASM", "", 1);
	if (dir && *dir) {
		write_seed(dir, "seed.cubin", cubin, seed_cubin(cubin));
		write_seed(dir, "seed.sass", seed_listing, sizeof seed_listing - 1);
	}
	if (launch && *launch == '1') {
		int fd;
		strcpy(config, "/tmp/fuzz-load-XXXXXX");
		if ((fd = mkstemp(config)) < 0 || write(fd, "watchdog = 20000\n", 17) != 17)
			abort();
		close(fd);
		atexit(remove_config);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fiberDevice dev;
	fiberModule mod;
	unsigned n = 0;

	if (fiberDeviceCreate(&dev, config[0] ? config : NULL) != FIBER_SUCCESS)
		abort();
	if (fiberModuleLoadData(&mod, dev, data, size, "fuzz") == FIBER_SUCCESS) {
		if (fiberModuleGetFunctionCount(mod, &n) != FIBER_SUCCESS)
			abort();
		for (unsigned k = 0; k < n; k++) {
			const char *name;
			fiberFunction fn;
			fiberFuncAttributes a;
			unsigned np = 0, one[3] = {1, 1, 1}, warp[3] = {32, 1, 1};
			size_t off, sz;
			uint8_t *params;

			if (fiberModuleGetFunctionName(mod, k, &name) != FIBER_SUCCESS
			    || fiberModuleGetFunction(&fn, mod, name) != FIBER_SUCCESS
			    || fiberFuncGetAttributes(fn, &a) != FIBER_SUCCESS)
				abort();
			if (fiberFuncGetParamCount(fn, &np) == FIBER_SUCCESS)
				for (unsigned j = 0; j < np; j++)
					if (fiberFuncGetParamInfo(fn, j, &off, &sz) != FIBER_SUCCESS)
						abort();
			if (!config[0] || a.param_size > 4096)
				continue;
			params = calloc(1, a.param_size + 1);
			fiberLaunchKernelPacked(fn, one, warp, 0, params, a.param_size);
			free(params);
		}
	}
	/* the message is one line whatever happened */
	if (strchr(fiberGetLastErrorMessage(dev), '\n'))
		abort();
	fiberDeviceDestroy(dev);
	return 0;
}
