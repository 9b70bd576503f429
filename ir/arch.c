/* arch.c: the architecture table (arch.h) and its lookups. Rows are in the order of SM numbers,
 * each plain number before its suffixed forms; sm_of_string knows exactly the numbers that have
 * a row. The facts behind the rows: docs/arch.md, docs/sim.md (constant bank 0, the reserved
 * shared memory), docs/ptx-codegen.md and the isel-*.md pages (the features).
 */
#include "arch.h"
#include "ir.h"

#include <stdlib.h>
#include <string.h>

enum {
	ElfOldestSm = 30,      /* the oldest SM number of the ELF e_flags layout with the number in
	                        * bits 0..7 (sm_30) */
	NameMax = 16,          /* bytes of an architecture's name */
};

/* constant bank 0 of sm_80..sm_89 and of sm_90 (docs/sim.md "Constant bank 0") */
static const ArchBank0 bank0_sm80 = {
	.param = 0x160, .desc = 0x118, .grid_ws_hi = 0x8c, .grid_ws_lo = 0x90,
	.rsv_size = 0x114, .rsv_end = 0x120, .rsv1 = 0x124,
};
static const ArchBank0 bank0_sm90 = {
	.param = 0x210, .desc = 0x208, .grid_ws_hi = 0x44, .grid_ws_lo = 0x48,
	.rsv_size = 0, .rsv_end = 0x68, .rsv1 = 0x6c, .param_win = 0x198, .cluster = 0x140,
	.cluster_n = 0x188,
};

/* the rules shared by sm_80..sm_89 and by sm_90 and sm_90a */
#define SM8X .bank0 = &bank0_sm80, .rsv = ArchRsvAbove, .rsv_bytes = 1024, .rsv_align = 128, \
	.enc = ArchEnc128, .regs_sm = 65536, .reg_unit = 256
#define SM90 .bank0 = &bank0_sm90, .rsv = ArchRsvBelow, .rsv_bytes = 1024, .enc = ArchEnc128, \
	.regs_sm = 65536, .reg_unit = 256
#define F8X (ArchImma4 | ArchBmmaXor)
#define F90 (ArchDescAddr | ArchFp64Fixed | ArchLdcBank0 | ArchSharedWinHi | ArchClusters | \
	ArchElect | ArchStmatrix | ArchViadd | ArchVimnmx | ArchRedg | ArchI2fp | ArchF2fpTyped | \
	ArchBf16Arith | ArchFp8 | ArchDmma8x8x4)
#define ALL (ArchReads | ArchRuns | ArchGenerates)

enum { Sm80, Sm86, Sm87, Sm89, Sm90, Sm90a, Sm100, Sm100a, Sm101, Sm103, Sm120, Sm120a, NArch };

static const Arch archs[NArch] = {
	[Sm80] = { .name = "sm_80", .sm = 80, .support = ALL | ArchDevice, .device = &archs[Sm80],
	           .config = "a100", .nsm = 108, SM8X, .features = F8X },
	[Sm86] = { .name = "sm_86", .sm = 86, .support = ALL, .device = &archs[Sm80], SM8X,
	           .features = F8X },
	/* the runtime runs it (as sm_8x code); the reader warns, fiberc --arch refuses it */
	[Sm87] = { .name = "sm_87", .sm = 87, .support = ArchRuns, .like = &archs[Sm86] },
	[Sm89] = { .name = "sm_89", .sm = 89, .support = ALL, .device = &archs[Sm80], SM8X,
	           .features = F8X | ArchFp8 },
	[Sm90] = { .name = "sm_90", .sm = 90, .support = ALL | ArchDevice, .device = &archs[Sm90],
	           .config = "h100", .nsm = 132, SM90, .features = F90 },
	/* wgmma, setmaxnreg and the rest of the a-suffix are not modelled: sm_90's rules */
	[Sm90a] = { .name = "sm_90a", .sm = 90, .suffix = 'a', .support = ALL,
	            .device = &archs[Sm90], SM90, .features = F90 | ArchSyncs },
	/* Blackwell: read with a warning, PTX for it generated as for sm_90, not run */
	[Sm100] = { .name = "sm_100", .sm = 100, .support = ArchElfHigh, .like = &archs[Sm90] },
	[Sm100a] = { .name = "sm_100a", .sm = 100, .suffix = 'a', .support = ArchElfHigh,
	             .like = &archs[Sm90] },
	[Sm101] = { .name = "sm_101", .sm = 101, .support = ArchElfHigh, .like = &archs[Sm90] },
	[Sm103] = { .name = "sm_103", .sm = 103, .support = ArchElfHigh, .like = &archs[Sm90] },
	[Sm120] = { .name = "sm_120", .sm = 120, .support = ArchElfHigh, .like = &archs[Sm90] },
	[Sm120a] = { .name = "sm_120a", .sm = 120, .suffix = 'a', .support = ArchElfHigh,
	             .like = &archs[Sm90] },
};

/* the names of the features in arch_print's tables, with what each means */
static const struct {
	unsigned feature;      /* ArchFeature */
	const char *name;      /* its name in docs/arch.md */
	const char *means;     /* what the architecture has */
} feature_names[] = {
	{ ArchDescAddr, "desc", "global and generic memory instructions name their descriptor, a "
	  "uniform register (`desc[UR4][R2.64]`); without it the encoding holds it, unprinted" },
	{ ArchFp64Fixed, "fp64-fixed", "FP64 arithmetic and R2UR have a fixed latency (stall "
	  "counts), not a scoreboard" },
	{ ArchLdcBank0, "ldc-bank0", "nvcc loads the driver's words of constant bank 0 with LDC "
	  "instead of reading them as an ALU operand" },
	{ ArchSharedWinHi, "swinhi", "a generic shared address is SR_SWINHI over the 32-bit "
	  "offset, not the offset plus `c[0x0][0x18]`" },
	{ ArchClusters, "clusters", "thread-block clusters: barrier.cluster, CGAERRBAR in gpu- and "
	  "sys-scope fences" },
	{ ArchElect, "elect", "elect.sync (ELECT)" },
	{ ArchStmatrix, "stmatrix", "stmatrix (STSM)" },
	{ ArchViadd, "viadd", "an add of an immediate is VIADD, not IADD3" },
	{ ArchVimnmx, "vimnmx", "integer min and max are VIMNMX (with .RELU, 16x2), not IMNMX" },
	{ ArchRedg, "redg", "a reduction in global memory is REDG, not RED" },
	{ ArchI2fp, "i2fp", "a 32-bit integer to binary32 is I2FP.F32, not I2F" },
	{ ArchF2fpTyped, "f2fp-typed", "F2FP names both formats (F2FP.F16.F32.PACK_AB)" },
	{ ArchBf16Arith, "bf16", "bf16 arithmetic of its own (HADD2/HMUL2/HSETP2/HSET2 .BF16_V2, "
	  "HFMA2.MMA, F2F.F64.BF16), not HFMA2 forms or binary32" },
	{ ArchFp8, "fp8", "fp8 (e4m3, e5m2) conversions and mma (QMMA)" },
	{ ArchImma4, "imma4", "4-bit integer mma (IMMA .S4/.U4)" },
	{ ArchBmmaXor, "bmma-xor", "1-bit mma with .xor.popc (BMMA.XOR)" },
	{ ArchDmma8x8x4, "dmma-8x8x4", "nvdisasm spells DMMA's shape 8x8x4, not 884" },
	{ ArchSyncs, "syncs", "fiberc selects the mbarrier as SYNCS (the transaction-count word) and "
	  "the bulk copies; without it, sm_80's mbarrier words (docs/isel-async90.md)" },
};

const Arch *
arch_at(size_t k)
{
	return k < NArch ? &archs[k] : NULL;
}

const Arch *
arch_find(int sm, int suffix)
{
	for (size_t k = 0; k < NArch; k++)
		if (archs[k].sm == sm && archs[k].suffix == suffix)
			return &archs[k];
	return NULL;
}

const Arch *
arch_named(const char *name)
{
	for (size_t k = 0; k < NArch; k++)
		if (strcmp(archs[k].name, name) == 0)
			return &archs[k];
	return NULL;
}

const Arch *
arch_default(void)
{
	return &archs[Sm80];
}

const Arch *
arch_of_sm(int sm)
{
	const Arch *a = &archs[0];

	if (sm == 0)
		return arch_default();
	for (size_t k = 0; k < NArch; k++)
		if (!archs[k].suffix && archs[k].sm <= sm)
			a = &archs[k];
	return a;
}

const Arch *
arch_code(int sm)
{
	const Arch *a = arch_of_sm(sm);

	return a->like ? a->like : a;
}

const Arch *
arch_sim(int sm)
{
	int lo = 0, hi = 0;

	for (size_t k = 0; k < NArch; k++)
		if (archs[k].support & ArchRuns) {
			if (!lo)
				lo = archs[k].sm;
			hi = archs[k].sm;
		}
	return sm >= lo && sm <= hi ? arch_code(sm) : NULL;
}

const char *
arch_since(unsigned feature)
{
	for (size_t k = 0; k < NArch; k++)
		if (!archs[k].like && arch_has(&archs[k], feature))
			return archs[k].name;
	die("no architecture has feature 0x%x", feature);   /* the table is wrong */
}

/* names[0..count) into buf: "a" sep "b" last "c" */
static void
join(char *buf, size_t n, const char *const *names, size_t count, const char *sep,
     const char *last)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < count && len < n; i++) {
		const char *s = i == 0 ? "" : i + 1 == count ? last : sep;
		int w = snprintf(buf + len, n - len, "%s%s", s, names[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

void
arch_list(char *buf, size_t n, unsigned mask, const char *sep, const char *last)
{
	const char *names[NArch];
	size_t count = 0;

	for (size_t k = 0; k < NArch; k++)
		if ((archs[k].support & mask) == mask)
			names[count++] = archs[k].name;
	join(buf, n, names, count, sep, last);
}

void
arch_sim_list(char *buf, size_t n)
{
	char range[NArch][2 * NameMax + 4];
	const char *names[NArch];
	size_t count = 0;

	for (size_t k = 0; k < NArch; k++) {
		const Arch *d = &archs[k], *last = NULL;
		if (!(d->support & ArchDevice))
			continue;
		/* the plain numbers whose code runs on device d: the oldest is d itself */
		for (size_t j = 0; j < NArch; j++)
			if ((archs[j].support & ArchRuns) && !archs[j].suffix &&
			    arch_code(archs[j].sm)->device == d)
				last = &archs[j];
		if (!last || last == d)
			snprintf(range[count], sizeof range[count], "%s", d->name);
		else
			snprintf(range[count], sizeof range[count], "%s..%s", d->name, last->name);
		names[count] = range[count];
		count++;
	}
	join(buf, n, names, count, ", ", " and ");
}

int
sm_of_string(const char *s, int *sm, int *suffix)
{
	char *end;
	long v;

	if (strncmp(s, "sm_", 3) != 0)
		return -1;
	v = strtol(s + 3, &end, 10);
	if (v <= 0 || v > 999 || !arch_find((int)v, 0))
		return -1;
	if (*end && !(end[0] == 'a' && !end[1]) && !(end[0] == 'f' && !end[1]))
		return -1;
	*sm = (int)v;
	*suffix = *end ? *end : 0;
	return 0;
}

int
arch_sm_of_elf_flags(uint64_t flags)
{
	int sm = (int)(flags & 0xff), high = 0;

	for (size_t k = 0; k < NArch && !high; k++)
		if (archs[k].support & ArchElfHigh)
			high = archs[k].sm;
	if ((flags >> 24 & 0xff) != 0 || sm < ElfOldestSm || sm >= high)
		sm = (int)(flags >> 8 & 0xff);
	return sm;
}

/* the feature names of a, joined by ", " */
static void
feature_list(char *buf, size_t n, const Arch *a)
{
	const char *names[sizeof feature_names / sizeof feature_names[0]];
	size_t count = 0;

	for (size_t k = 0; k < sizeof feature_names / sizeof feature_names[0]; k++)
		if (arch_has(a, feature_names[k].feature))
			names[count++] = feature_names[k].name;
	join(buf, n, names, count, ", ", ", ");
}

void
arch_print(FILE *out)
{
	fprintf(out, "| architecture | SASS reader | simulator | code generator | parameters | "
	        "device | features |\n|---|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < NArch; k++) {
		const Arch *a = &archs[k], *r = a->like ? a->like : a;
		char feat[512];

		if (a->like)
			snprintf(feat, sizeof feat, "as %s", a->like->name);
		else
			feature_list(feat, sizeof feat, a);
		fprintf(out, "| %s | %s | %s | %s | `c[0x0][0x%x]` | %s (%s, %d SMs) | %s |\n", a->name,
		        a->support & ArchReads ? "yes" : "warns", a->support & ArchRuns ? "yes" : "no",
		        a->support & ArchGenerates ? "yes" : "no", r->bank0->param, r->device->name,
		        r->device->config, r->device->nsm, feat);
	}
	fprintf(out, "\n| feature | what the architecture has |\n|---|---|\n");
	for (size_t k = 0; k < sizeof feature_names / sizeof feature_names[0]; k++)
		fprintf(out, "| %s | %s |\n", feature_names[k].name, feature_names[k].means);
}
