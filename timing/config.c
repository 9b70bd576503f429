/* config.c: device configurations for the simulator. The key table below has one row per
 * configuration key (name, field of SimConfig, type, range, unit, one-line doc); the parser reads
 * `key = value` lines of configuration text, the validator checks each key's range and the rules
 * between keys, and the printer writes a configuration back as text. The built-in configurations
 * are configs/NAME.cfg, embedded by the Makefile (build/timing/configs.c), so those files are the
 * only place their numbers live. docs/sim-config.md describes the format and every key. simcfg_gpu
 * gives the functional simulator (sim/) its view: it sees no timing key.
 */
#include "simcfg.h"
#include "smmodel.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* build/timing/configs.c: {name, text} of each configs/NAME.cfg, then {NULL, NULL} */
extern const char *const simcfg_builtin_text[][2];

enum KeyType {
	KUint,                 /* unsigned integer: decimal or 0x hex */
	KSize,                 /* bytes: also with a K, M or G suffix (1024-based) */
	KChoice,               /* one of the names of a Choice list, stored as its value */
	KArch,                 /* a device architecture's name (ir/arch.h ArchDevice), stored as
	                          its SM number */
	KName,                 /* the configuration's reported name */
	KBase,                 /* a configuration file's built-in starting point (not stored) */
	KRuntime,              /* read by the runtime, not the simulator: nvdisasm (not stored) */
};

enum KeyFlag {
	FPow2 = 1,             /* a power of two */
	FQuiet = 2,            /* printed only when not 0 (its default): a key added after
	                          configurations and statistics were written reads the same in them */
	FFiber = 4,            /* a FIBER SM key: checked, required in a built-in and printed only
	                          when sm_model = fiber; 0 on other configurations */
};

typedef struct Choice {
	const char *name;      /* as written */
	uint32_t val;          /* as stored */
} Choice;

typedef struct Key {
	SimCfgKey k;           /* name, unit, doc, range, field */
	enum KeyType type;
	const Choice *choice;  /* KChoice: the names, ending with {NULL, 0} */
	unsigned flags;        /* KeyFlag */
	uint64_t fiber_lo;     /* FFiber: the least value when sm_model = fiber (k.lo is 0) */
} Key;

static const Choice sched_choice[] = {{"gto", SchedGTO}, {"lrr", SchedLRR}, {NULL, 0}};
static const Choice model_choice[] = {{"simt", SmModelSimt}, {"fiber", SmModelFiber}, {NULL, 0}};
static const Choice ctrl_choice[] = {
	{"auto", CtrlAuto}, {"bits", CtrlBits}, {"scoreboard", CtrlScoreboard}, {NULL, 0},
};

enum {
	NameMax = 63,          /* bytes of a configuration name */
	Big = 100000,          /* generous upper bound of latencies and intervals */
};
#define U64Half (UINT64_MAX / 2)

/* rows: a general key stored in field f of SimConfig, a timing key named as its SimTiming field */
#define G(f) offsetof(SimConfig, f), sizeof ((SimConfig *)0)->f
#define INT(n, f, lo, hi, unit, doc) {{n, unit, doc, lo, hi, G(f)}, KUint, NULL, 0, 0}
#define TINT(f, lo, hi, unit, doc) {{#f, unit, doc, lo, hi, G(t.f)}, KUint, NULL, 0, 0}
#define TPOW2(f, lo, hi, unit, doc) {{#f, unit, doc, lo, hi, G(t.f)}, KUint, NULL, FPow2, 0}
#define TSIZE(f, lo, hi, fl, doc) {{#f, "bytes", doc, lo, hi, G(t.f)}, KSize, NULL, fl, 0}
#define TCHOICE(f, ch, doc) {{#f, "", doc, 1, 0, G(t.f)}, KChoice, ch, 0, 0}
#define LANES(f, doc) TPOW2(f, 1, 32, "lanes", doc)
#define LAT(f, doc) TINT(f, 1, Big, "cycles", doc)
#define FINT(f, lo, hi, unit, doc) {{#f, unit, doc, 0, hi, G(t.f)}, KUint, NULL, FFiber, lo}

static const Key keys[] = {
	/* general */
	{{"base", "", "built-in configuration a file starts from (default: h100 for arch = sm_90, "
	  "else a100)", 1, 0, 0, 0}, KBase, NULL, 0, 0},
	{{"name", "", "name the device reports (letters, digits, _ . - +; at most 63)", 1, 0,
	  G(name)}, KName, NULL, 0, 0},
	{{"arch", "", "SASS architecture executed", 1, 0, G(sm)}, KArch, NULL, 0, 0},
	INT("sms", nsm, 1, 1024, "SMs", "streaming multiprocessors"),
	INT("max_threads_per_block", max_threads_per_block, 1, 1024, "threads",
	    "threads per CTA at most"),
	{{"max_shared_per_block", "bytes", "shared memory per CTA at most, static plus dynamic "
	  "(the opt-in maximum)", 0, 1u << 20, G(max_smem_per_block)}, KSize, NULL, 0, 0},
	INT("regs_per_sm", regs_per_sm, 256, SmVRegs * WarpSize, "registers",
	    "32-bit registers per SM"),
	INT("watchdog", watchdog, 1, U64Half, "instructions",
	    "warp instructions per launch before a watchdog fault"),
	INT("mma_block", mma_block, 0, 32, "products", "wgmma with an f32 accumulator: products "
	    "accumulated per group with the running sum (0: exact sum, rounded once)"),
	INT("mma_bits", mma_bits, 1, 40, "bits", "significant bits of a group's largest term its "
	    "aligned terms keep (truncated below; with mma_block)"),
	INT("mma_bits_f8", mma_bits_f8, 0, 40, "bits", "mma_bits for e4m3/e5m2 inputs (0: "
	    "mma_bits)"),
	{{"nvdisasm", "", "disassembler for cubins (read by the runtime)", 1, 0, 0, 0}, KRuntime,
	 NULL, 0, 0},

	TINT(clock_mhz, 100, 10000, "MHz", "SM clock: converts cycles to seconds (bandwidths, "
	     "SR_GLOBALTIMER)"),

	/* SM resources and occupancy */
	TINT(subpartitions, 1, 4, "", "processing blocks (warp schedulers) per SM"),
	TINT(gpcs, 1, 64, "GPCs", "graphics processing clusters: the SMs in as many contiguous, "
	     "nearly equal groups; a thread-block cluster runs within one"),
	TINT(max_warps_per_sm, 1, 64, "warps", "resident warps per SM at most"),
	TINT(max_threads_per_sm, 32, 2048, "threads", "resident threads per SM at most"),
	TINT(max_ctas_per_sm, 1, 64, "CTAs", "resident CTAs per SM at most"),
	TPOW2(reg_alloc_unit, 1, 65536, "registers", "a warp's registers are allocated in units of "
	      "this many"),
	TSIZE(smem_per_sm, 0, 1u << 20, 0, "shared memory carve-out per SM available to CTAs"),
	TSIZE(smem_alloc_unit, 1, 65536, FPow2, "shared memory allocation granularity per CTA"),
	TSIZE(smem_reserved_per_cta, 0, 65536, 0, "shared memory the driver reserves per CTA"),
	TINT(cta_launch_latency, 0, 1000000, "cycles", "from a free CTA slot to the new CTA's first "
	     "issue"),

	/* front end */
	{{"sm_model", "", "the kind of SM the timing model simulates (timing/smmodel.h): simt, "
	  "today's NVIDIA SM, or fiber, the FIBER SM (timing/fsm.c)", 1, 0, G(t.sm_model)}, KChoice, model_choice, FQuiet, 0},
	TCHOICE(sched_policy, sched_choice, "warp scheduler: greedy then oldest, or loose "
	        "round-robin"),
	TCHOICE(ctrl_mode, ctrl_choice, "dependences from the control bits, from a register "
	        "scoreboard, or bits when the listing has encodings"),
	TSIZE(icache_bytes, 16, 1u << 20, 0, "L0 instruction cache per sub-partition"),
	TSIZE(icache_line, 16, 4096, FPow2, "instruction cache line"),
	TINT(icache_miss_latency, 0, Big, "cycles", "to refill an instruction cache line"),
	TINT(icache_prefetch, 0, 64, "lines", "the stream buffer: lines fetched ahead of a miss, "
	     "one more as each is used (0: no prefetch)"),
	TINT(sb_inc_delay, 0, 16, "cycles", "after issue at which a scoreboard (SB) increment "
	     "lands"),
	TINT(yield_bubble, 0, 16, "cycles", "the yield bit keeps the warp from issuing"),

	/* register file */
	TINT(rf_banks, 1, 8, "banks", "register file banks per sub-partition"),
	TINT(rf_reuse, 0, 1, "", "1: the operand reuse cache is honoured"),
	TINT(rf_bank_bubble, 0, 16, "cycles", "issue bubble per extra source operand in one bank"),

	/* pipes */
	LANES(int_lanes, "INT32 pipe width per sub-partition (IADD3, LOP3, SHF, ISETP, ...)"),
	LANES(fp32_lanes, "FP32 pipe width per sub-partition (FFMA, FADD, FMUL, IMAD)"),
	LANES(fp16_lanes, "half2 pipe width per sub-partition (HFMA2, HADD2; a lane is a half2)"),
	LANES(fp64_lanes, "FP64 pipe width per sub-partition (DFMA, DADD, DMUL)"),
	LANES(mufu_lanes, "MUFU pipe width per sub-partition"),
	LANES(conv_lanes, "conversion pipe width per sub-partition (I2F, F2I, F2F)"),
	TINT(uniform_ii, 1, 32, "cycles", "between uniform-datapath instructions"),
	TINT(branch_ii, 1, 32, "cycles", "between branch-unit instructions"),
	TINT(tensor_flops_f16, 1, 1u << 20, "FLOP/cycle", "dense FP16/BF16 tensor FLOP per SM"),
	TINT(tensor_ops_i8, 1, 1u << 20, "OP/cycle", "dense INT8 tensor operations per SM"),
	TINT(tensor_flops_tf32, 1, 1u << 20, "FLOP/cycle", "dense TF32 tensor FLOP per SM"),
	TINT(tensor_ops_i4, 1, 1u << 20, "OP/cycle", "dense INT4 tensor operations per SM"),
	TINT(tensor_ops_b1, 1, 1u << 20, "OP/cycle", "binary (BMMA) tensor operations per SM"),
	TINT(tensor_flops_f64, 1, 1u << 20, "FLOP/cycle", "DMMA FLOP per SM"),
	TINT(tensor_flops_f8, 0, 1u << 20, "FLOP/cycle", "dense FP8 (QMMA) FLOP per SM; 0: twice tensor_flops_f16"),
	TINT(mio_ii, 1, 64, "cycles", "between MIO instructions (memory, SHFL, LDSM) per SM"),
	TINT(mio_queue, 1, 64, "instructions", "memory instructions buffered per sub-partition"),

	/* fixed latencies */
	LAT(lat_int, "INT32 ALU, issue to dependent issue"),
	LAT(lat_fp32, "FFMA, FADD, FMUL"),
	LAT(lat_imad, "IMAD family"),
	LAT(lat_fp16, "HFMA2, HADD2"),
	LAT(lat_fp64, "DFMA"),
	LAT(lat_uniform, "uniform datapath"),
	LAT(lat_umov, "ULDC, UMOV, VOTEU (uniform moves), to a dependent read"),
	LAT(lat_pred, "a predicate written by ISETP and the like, to its use"),
	LAT(lat_hmma, "HMMA and QMMA of HMMA.16816's operand volume (HMMA.1688.TF32 too)"),
	LAT(lat_hmma_small, "any MMA of half that volume (HMMA.1688, HMMA.1684.TF32, IMMA.16816)"),
	LAT(lat_imma, "IMMA and BMMA of the full volume (IMMA.16832 8-bit, IMMA.16864, BMMA.168256)"),
	LAT(lat_mma_quarter, "any MMA of a quarter of it (IMMA.8816, IMMA.8832, BMMA.88128)"),
	LAT(lat_dmma, "DMMA.884"),
	/* variable latencies */
	LAT(lat_mufu, "MUFU, issue to writeback"),
	LAT(lat_conv, "I2F, F2I, F2F, issue to writeback"),
	LAT(lat_s2r, "S2R, issue to writeback"),
	LAT(lat_shfl, "SHFL, issue to writeback"),
	LAT(lat_vote, "MATCH, REDUX, issue to writeback"),
	LAT(lat_branch, "BRA, BSSY, BSYNC, ...: to the target's issue"),
	LAT(lat_bar, "BAR.SYNC: last arrival to the release of the waiters"),
	LAT(lat_src_read, "memory instruction issue to its sources read (WAR, read SB)"),

	/* memory */
	LAT(lat_lds, "LDS 32-bit, shared load to use"),
	LAT(lat_l1, "LDG L1 hit (pointer chase)"),
	LAT(lat_l2, "LDG L2 hit"),
	LAT(lat_dram, "LDG DRAM (L2 miss)"),
	LAT(lat_const, "LDC constant cache hit"),
	LAT(lat_const_miss, "LDC constant cache miss"),
	LAT(lat_atomic, "global atomic at L2, issue to result"),
	LAT(lat_ldgsts, "LDGSTS L2 hit to shared memory written (misses add L2/DRAM time)"),
	LAT(lat_tma, "TMA or bulk copy: the engine's start to the bytes in shared memory"),
	LAT(lat_dsmem, "distributed shared memory: a load from another SM's CTA of the cluster, "
	    "issue to use"),
	LAT(lat_cluster_bar, "barrier.cluster: last arrival to the release of the waiters on "
	    "every SM of the cluster"),
	TPOW2(smem_banks, 1, 64, "banks", "shared memory banks"),
	TSIZE(smem_bank_bytes, 1, 16, FPow2, "bytes per shared memory bank and cycle"),
	TSIZE(l1_line, 32, 1024, FPow2, "L1 line"),
	TSIZE(l1_sector, 4, 1024, FPow2, "L1 sector (the unit of a miss)"),
	TINT(l1_assoc, 1, 256, "ways", "L1 associativity"),
	TINT(l1_bytes_per_clk, 1, 65536, "bytes/cycle", "L1 data return bandwidth per SM"),
	TSIZE(l1_total, 0, 1u << 22, 0, "unified L1 and shared memory per SM; the L1 is "
	      "l1_total - smem_per_sm"),
	TINT(l1_mshr, 1, 65536, "sectors", "outstanding L1 sector misses per SM"),
	TSIZE(const_cache_bytes, 64, 1u << 20, 0, "constant cache per SM"),
	TSIZE(l2_size, 1, (uint64_t)1 << 36, 0, "L2 cache"),
	TINT(l2_assoc, 1, 256, "ways", "L2 associativity"),
	TSIZE(l2_line, 32, 1024, FPow2, "L2 line"),
	TINT(l2_slices, 1, 1024, "slices", "address-interleaved L2 slices"),
	TINT(l2_bytes_per_clk, 1, 1u << 20, "bytes/cycle", "whole-chip L2 bandwidth"),
	TINT(l2_sm_bytes_per_clk, 1, 65536, "bytes/cycle", "one SM's link to the L2"),
	TINT(dram_bytes_per_clk, 1, 1u << 20, "bytes/cycle", "whole-chip DRAM bandwidth"),

	/* the FIBER SM (lo of each: its least value when sm_model = fiber; fiber_lo) */
	FINT(fiber_contexts, 1, 256, "wefts", "weft contexts per sub-partition"),
	FINT(fiber_slice_regs, 32, SmVRegs / 4, "registers", "vector registers per sub-partition "
	     "slice (subpartitions x this <= 2048)"),
	FINT(fiber_banks, 1, 16, "banks", "register banks per slice"),
	FINT(fiber_read_ports, 1, 8, "ports", "read ports per bank per cycle, shared by the four "
	     "sub-partitions (the read-port arbiter serves reads beyond them later)"),
	FINT(fiber_xbar_latency, 0, 64, "cycles", "a read of another sub-partition's slice arrives "
	     "this much later, and so the results (selector and 4x4 crossbar)"),
	FINT(fiber_xbar_width, 1, 16, "registers", "vector registers per cycle through one slice's "
	     "crossbar port"),
	FINT(fiber_setfibernum_cycles, 0, Big, "cycles", "SETFIBERNUM: from the last arrival to "
	     "the release (synchronisation and window re-partitioning)"),
	FINT(fiber_write_ports, 1, 8, "ports", "write ports per bank per cycle: SETFIBERNUM zeroes "
	     "the new wefts' windows through them"),
	FINT(fiber_ctx_start_cycles, 0, Big, "cycles", "SETFIBERNUM: to start one new weft's "
	     "context, the new wefts of a sub-partition in turn"),
	FINT(fiber_busy_wake, 0, Big, "cycles", "from a register's write completing to a "
	     "DEPBAR.FULL/.EMPTY waiting on it issuing"),
	FINT(fiber_dp, 0, 1, "", "0: ablation, SETFIBERNUM synchronises but keeps the launch's "
	     "fiber count (no dynamic parallelism)"),
	FINT(fiber_fs, 0, 1, "", "0: ablation, a busy-bit wait also waits for every weft of the CTA "
	     "(no fine-grained scheduling)"),
	FINT(fiber_rs, 0, 1, "", "0: ablation, remote values go through shared memory as a "
	     "compiler without register sharing would emit it (no register sharing)"),

	/* simulation */
	TINT(epoch, 1, 1000000, "cycles", "SMs synchronise (L2, DRAM, CTA dispatch) at epoch ends; "
	     "at most lat_l2"),
	TINT(max_cycles, 0, U64Half, "cycles", "watchdog per launch in timing mode (0: none)"),
};
enum { NKeys = sizeof keys / sizeof keys[0] };

/* the name key's storage (see simcfg.h) */
static _Thread_local char name_buf[NameMax + 1];

/* where messages go, and the file they are about */
typedef struct Cx {
	const char *path;
	char *err;
	size_t errsize;
} Cx;

/* `path:line:col: error: ...` (line 0: `path: error: ...`); returns -1 */
static int
fail(const Cx *cx, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int
fail(const Cx *cx, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!cx->errsize)
		return -1;
	n = line ? snprintf(cx->err, cx->errsize, "%s:%u:%u: error: ", cx->path, line, col)
	         : snprintf(cx->err, cx->errsize, "%s: error: ", cx->path);
	if (n >= 0 && (size_t)n < cx->errsize) {
		va_start(ap, fmt);
		vsnprintf(cx->err + n, cx->errsize - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

const SimCfgKey *
simcfg_key(size_t i)
{
	return i < NKeys ? &keys[i].k : NULL;
}

static int
find_key(const char *name)
{
	for (int k = 0; k < NKeys; k++)
		if (strcmp(keys[k].k.name, name) == 0)
			return k;
	return -1;
}

/* edit distance of two short strings (insertions, deletions, substitutions) */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[NameMax + 1];

	if (la > NameMax || lb > NameMax)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

static int
unknown_key(const Cx *cx, uint32_t line, uint32_t col, const char *name)
{
	int best = -1;
	size_t d, bestd = 3;         /* suggest only keys at most two edits away */

	for (int k = 0; k < NKeys; k++)
		if ((d = distance(name, keys[k].k.name)) < bestd) {
			bestd = d;
			best = k;
		}
	if (best >= 0)
		return fail(cx, line, col, "unknown key '%.64s' (did you mean '%s'?)", name,
		            keys[best].k.name);
	return fail(cx, line, col, "unknown key '%.64s' (docs/sim-config.md lists the keys)", name);
}

/* "a, b or c" */
static void
list_names(char *buf, size_t n, const char *const *names, size_t count)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < count && len < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int w = snprintf(buf + len, n - len, "%s%s", sep, names[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

static void
list_choices(char *buf, size_t n, const Choice *ch)
{
	const char *names[8];
	size_t count = 0;

	while (ch[count].name && count < 8) {
		names[count] = ch[count].name;
		count++;
	}
	list_names(buf, n, names, count);
}

static void
list_builtins(char *buf, size_t n)
{
	const char *names[8];
	size_t count = 0;

	/* the SIMT ones: each NAME-fiber is NAME with the FIBER SM (docs/sim-config.md) */
	for (size_t b = 0; simcfg_builtin_text[b][0] && count < 8; b++) {
		const char *nm = simcfg_builtin_text[b][0];
		size_t len = strlen(nm);
		if (len > 6 && strcmp(nm + len - 6, "-fiber") == 0)
			continue;
		names[count++] = nm;
	}
	list_names(buf, n, names, count);
}

static uint64_t
get(const SimConfig *c, const Key *k)
{
	const char *p = (const char *)c + k->k.off;
	uint32_t v32;
	uint64_t v64;

	if (k->k.size == sizeof v32) {
		memcpy(&v32, p, sizeof v32);
		return v32;
	}
	memcpy(&v64, p, sizeof v64);
	return v64;
}

static void
put(SimConfig *c, const Key *k, uint64_t v)
{
	char *p = (char *)c + k->k.off;
	uint32_t v32 = (uint32_t)v;

	if (k->k.size == sizeof v32)
		memcpy(p, &v32, sizeof v32);
	else
		memcpy(p, &v, sizeof v);
}

/* sm_model = fiber on a configuration without the FIBER keys (a SIMT one, fiber_contexts 0): the
 * FIBER keys of the built-in NAME-fiber of its name (a100 -> a100-fiber), else of the NAME-fiber
 * of its architecture's device (a100-fiber for sm_80, h100-fiber for sm_90); so the numbers stay
 * in configs/NAME-fiber.cfg */
static void
fiber_defaults(SimConfig *c)
{
	char name[NameMax + 8], dev[NameMax + 8];
	SimConfig f;

	if (c->t.fiber_contexts)
		return;
	snprintf(name, sizeof name, "%s-fiber", c->name ? c->name : "");
	snprintf(dev, sizeof dev, "%s-fiber", arch_code(c->sm)->device->config);
	if (simcfg_builtin(&f, name) < 0 && simcfg_builtin(&f, dev) < 0)
		return;
	for (int k = 0; k < NKeys; k++)
		if (keys[k].flags & FFiber)
			put(c, &keys[k], get(&f, &keys[k]));
}

/* decimal or 0x hex, with a K, M or G suffix when sized: 0, or -1 (syntax, overflow) */
static int
parse_uint(const char *s, int sized, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	char *end;
	unsigned shift = 0;

	if (hex ? !isxdigit((unsigned char)*digits) : !isdigit((unsigned char)*digits))
		return -1;
	errno = 0;
	*v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno)
		return -1;
	if (sized && *end) {
		shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
		if (shift)
			end++;
	}
	if (*end || *v > UINT64_MAX >> shift)
		return -1;
	*v <<= shift;
	return 0;
}

static int
valid_name(const char *s)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+";
	size_t n = strlen(s);

	return n >= 1 && n <= NameMax && !s[strspn(s, ok)];
}

/* one `key = value` line, split in place: the `=` is optional, `#` starts a comment */
typedef struct Tok {
	char *key, *val;       /* NUL-terminated; val "" if missing */
	uint32_t line;         /* 1-based */
	uint32_t kcol, vcol;   /* 1-based columns of the key and of the value */
} Tok;

/* split line s (no newline); 0 if it holds no key */
static int
split(char *s, uint32_t line, Tok *t)
{
	char *p, *end;
	size_t kn;

	if ((p = strchr(s, '#')))
		*p = 0;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = 0;
	p = s + strspn(s, " \t\r\v\f");
	if (!*p)
		return 0;
	kn = strcspn(p, " \t\r\v\f=");
	t->key = p;
	t->kcol = (uint32_t)(p - s) + 1;
	t->line = line;
	p += kn;
	p += strspn(p, " \t\r\v\f");
	if (*p == '=')
		p++;
	p += strspn(p, " \t\r\v\f");
	t->val = p;
	t->vcol = (uint32_t)(p - s) + 1;
	t->key[kn] = 0;
	return 1;
}

/* set key k of c from its line */
static int
set_key(SimConfig *c, const Key *k, const Tok *t, const Cx *cx)
{
	char names[128];
	uint64_t v;

	switch (k->type) {
	case KUint:
	case KSize:
		if (parse_uint(t->val, k->type == KSize, &v) < 0 || v < k->k.lo || v > k->k.hi)
			return fail(cx, t->line, t->vcol, "'%s' must be an integer from %llu to %llu%s, "
			            "not '%.64s'", k->k.name, (unsigned long long)k->k.lo,
			            (unsigned long long)k->k.hi,
			            k->type == KSize ? " (bytes; K, M, G multiply by 1024^1, ^2, ^3)" : "",
			            t->val);
		if ((k->flags & FPow2) && (v & (v - 1)))
			return fail(cx, t->line, t->vcol, "'%s' must be a power of two, not %llu",
			            k->k.name, (unsigned long long)v);
		put(c, k, v);
		return 0;
	case KChoice:
		for (const Choice *ch = k->choice; ch->name; ch++)
			if (strcmp(ch->name, t->val) == 0) {
				put(c, k, ch->val);
				return 0;
			}
		list_choices(names, sizeof names, k->choice);
		return fail(cx, t->line, t->vcol, "'%s' must be %s, not '%.64s'", k->k.name, names,
		            t->val);
	case KArch: {
		const Arch *a = arch_named(t->val);
		if (a && (a->support & ArchDevice)) {
			put(c, k, (uint64_t)a->sm);
			return 0;
		}
		arch_list(names, sizeof names, ArchDevice, ", ", " or ");
		return fail(cx, t->line, t->vcol, "'%s' must be %s, not '%.64s'", k->k.name, names,
		            t->val);
	}
	case KName:
		if (!valid_name(t->val))
			return fail(cx, t->line, t->vcol, "'name' must be 1 to %d letters, digits or _.-+, "
			            "not '%.64s'", NameMax, t->val);
		snprintf(name_buf, sizeof name_buf, "%s", t->val);
		c->name = name_buf;
		return 0;
	case KBase:
	case KRuntime:
		break;
	}
	return 0;
}

/* configuration text s (NUL-terminated, split in place) onto c: a file (builtin < 0), or the
 * built-in configuration number builtin, which must set every key and starts from zero */
static int
parse_text(SimConfig *c, const Cx *cx, char *s, int builtin)
{
	Tok tok[NKeys];
	int order[NKeys], norder = 0, kbase = find_key("base"), karch = find_key("arch");
	int kmodel = find_key("sm_model");
	uint32_t line = 0;
	char msg[512], names[128];
	SimConfig tmp;

	for (char *p = s; *p;) {
		char *eol = strchr(p, '\n'), *next = eol ? eol + 1 : p + strlen(p);
		Tok t;
		int k;

		if (eol)
			*eol = 0;
		line++;
		if (split(p, line, &t)) {
			if ((k = find_key(t.key)) < 0)
				return unknown_key(cx, line, t.kcol, t.key);
			for (int i = 0; i < norder; i++)
				if (order[i] == k)
					return fail(cx, line, t.kcol, "'%s' repeated (first at line %u)", t.key,
					            tok[k].line);
			if (!*t.val)
				return fail(cx, line, t.vcol, "'%s' needs a value", t.key);
			if (builtin >= 0 && !keys[k].k.size)
				return fail(cx, line, t.kcol, "'%s' has no place in a built-in configuration",
				            t.key);
			tok[k] = t;
			order[norder++] = k;
		}
		p = next;
	}

	if (builtin >= 0) {
		memset(&tmp, 0, sizeof tmp);
	} else {
		const char *base = arch_default()->config;
		int seen_base = 0, seen_arch = 0;

		for (int i = 0; i < norder; i++) {
			seen_base |= order[i] == kbase;
			seen_arch |= order[i] == karch;
		}
		if (seen_base) {
			base = tok[kbase].val;
			if (simcfg_builtin(&tmp, base) < 0) {
				list_builtins(names, sizeof names);
				return fail(cx, tok[kbase].line, tok[kbase].vcol,
				            "'base' must be %s, not '%.64s'", names, base);
			}
		} else {
			const Arch *a = seen_arch ? arch_named(tok[karch].val) : NULL;
			if (a && (a->support & ArchDevice))
				base = a->config;
			simcfg_builtin(&tmp, base);
		}
	}

	/* sm_model first: turning the FIBER model on brings its keys' values, which the file's
	 * FIBER keys then override whatever their order */
	for (int i = 0; i < norder; i++)
		if (order[i] == kmodel) {
			if (set_key(&tmp, &keys[kmodel], &tok[kmodel], cx) < 0)
				return -1;
			if (builtin < 0 && tmp.t.sm_model == SmModelFiber)
				fiber_defaults(&tmp);
		}
	for (int i = 0; i < norder; i++) {
		const Key *k = &keys[order[i]];
		const Tok *t = &tok[order[i]];

		if (order[i] == kmodel)
			continue;
		if (builtin >= 0 && k->type == KName) {
			if (strcmp(t->val, simcfg_builtin_text[builtin][0]) != 0)
				return fail(cx, t->line, t->vcol, "'name' must be %s, the file's name",
				            simcfg_builtin_text[builtin][0]);
			tmp.name = simcfg_builtin_text[builtin][0];
		} else if (set_key(&tmp, k, t, cx) < 0) {
			return -1;
		}
	}
	if (builtin >= 0)
		for (int k = 0; k < NKeys; k++) {
			int seen = 0;
			for (int i = 0; i < norder; i++)
				seen |= order[i] == k;
			if (keys[k].k.size && !seen &&
			    (!(keys[k].flags & FFiber) || tmp.t.sm_model == SmModelFiber))
				return fail(cx, 0, 0, "'%s' is missing: a built-in configuration sets every key",
				            keys[k].k.name);
		}
	if (simcfg_check(&tmp, msg, sizeof msg) < 0)
		return fail(cx, 0, 0, "%s", msg);
	*c = tmp;
	return 0;
}

int
simcfg_builtin(SimConfig *c, const char *name)
{
	for (int b = 0; simcfg_builtin_text[b][0]; b++)
		if (strcmp(simcfg_builtin_text[b][0], name) == 0) {
			char path[64], err[512], *s = xmalloc(strlen(simcfg_builtin_text[b][1]) + 1);
			Cx cx = {path, err, sizeof err};

			snprintf(path, sizeof path, "configs/%s.cfg", name);
			strcpy(s, simcfg_builtin_text[b][1]);
			if (parse_text(c, &cx, s, b) < 0)
				die("built-in configuration: %s", err);
			free(s);
			return 0;
		}
	return -1;
}

int
simcfg_parse(SimConfig *c, const char *path, const char *text, size_t n, char *err,
             size_t errsize)
{
	Cx cx = {path, err, errsize};
	char *s;
	int r;

	if (memchr(text, 0, n))
		return fail(&cx, 0, 0, "not a configuration file (a NUL byte)");
	s = xmalloc(n + 1);
	memcpy(s, text, n);
	r = parse_text(c, &cx, s, -1);
	free(s);
	return r;
}

int
simcfg_set(SimConfig *c, const char *key_value, char *err, size_t errsize)
{
	Cx cx = {"--set", err, errsize};
	char *s = xmalloc(strlen(key_value) + 1);
	SimConfig tmp = *c;
	char msg[512];
	Tok t;
	int k, r = -1;

	strcpy(s, key_value);
	if (strpbrk(s, "\n#") || !split(s, 1, &t))
		fail(&cx, 0, 0, "expected one key=value, not '%.64s'", key_value);
	else if ((k = find_key(t.key)) < 0)
		unknown_key(&cx, 1, t.kcol, t.key);
	else if (!*t.val)
		fail(&cx, 1, t.vcol, "'%s' needs a value", t.key);
	else if (keys[k].type == KBase)
		fail(&cx, 1, t.kcol, "'base' only starts a configuration file");
	else if (keys[k].type == KRuntime)
		fail(&cx, 1, t.kcol, "'%s' is the runtime's key, not the simulator's", t.key);
	else if (set_key(&tmp, &keys[k], &t, &cx) == 0) {
		if (k == find_key("sm_model") && tmp.t.sm_model == SmModelFiber)
			fiber_defaults(&tmp);
		if (simcfg_check(&tmp, msg, sizeof msg) < 0)
			fail(&cx, 0, 0, "%s", msg);
		else {
			*c = tmp;
			r = 0;
		}
	}
	free(s);
	return r;
}

static int
bad(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int
bad(char *err, size_t errsize, const char *fmt, ...)
{
	va_list ap;

	if (errsize) {
		va_start(ap, fmt);
		vsnprintf(err, errsize, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#define LLU(x) ((unsigned long long)(x))

int
simcfg_check(const SimConfig *c, char *err, size_t errsize)
{
	const SimTiming *t = &c->t;
	char names[128];

	/* every key on its own */
	if (!c->name || !*c->name)
		return bad(err, errsize, "'name' is not set");
	for (int i = 0; i < NKeys; i++) {
		const Key *k = &keys[i];
		uint64_t v;

		if (k->type == KChoice) {
			const Choice *ch = k->choice;
			v = get(c, k);
			while (ch->name && ch->val != v)
				ch++;
			if (!ch->name) {
				list_choices(names, sizeof names, k->choice);
				return bad(err, errsize, "'%s' is %llu, not one of %s", k->k.name, LLU(v), names);
			}
		} else if (k->type == KArch) {
			const Arch *a = (v = get(c, k)) <= INT_MAX ? arch_find((int)v, 0) : NULL;
			if (!a || !(a->support & ArchDevice)) {
				arch_list(names, sizeof names, ArchDevice, ", ", " or ");
				return bad(err, errsize, "'%s' is %llu, not one of %s", k->k.name, LLU(v), names);
			}
		} else if ((k->flags & FFiber) && t->sm_model == SmModelFiber) {
			v = get(c, k);
			if (v < k->fiber_lo || v > k->k.hi)
				return bad(err, errsize, "'%s' is %llu, not from %llu to %llu (sm_model = fiber)",
				           k->k.name, LLU(v), LLU(k->fiber_lo), LLU(k->k.hi));
		} else if (k->type == KUint || k->type == KSize) {
			v = get(c, k);
			if (v < k->k.lo || v > k->k.hi)
				return bad(err, errsize, "'%s' is %llu, not from %llu to %llu", k->k.name, LLU(v),
				           LLU(k->k.lo), LLU(k->k.hi));
			if ((k->flags & FPow2) && (v & (v - 1)))
				return bad(err, errsize, "'%s' is %llu, not a power of two", k->k.name, LLU(v));
		}
	}

	/* rules between keys */
	if (t->max_warps_per_sm % t->subpartitions)
		return bad(err, errsize, "subpartitions (%u) must divide max_warps_per_sm (%u)",
		           t->subpartitions, t->max_warps_per_sm);
	if (t->max_threads_per_sm > t->max_warps_per_sm * WarpSize)
		return bad(err, errsize, "max_threads_per_sm (%u) exceeds max_warps_per_sm x 32 (%u)",
		           t->max_threads_per_sm, t->max_warps_per_sm * WarpSize);
	if (c->max_threads_per_block > t->max_threads_per_sm)
		return bad(err, errsize, "max_threads_per_block (%u) exceeds max_threads_per_sm (%u)",
		           c->max_threads_per_block, t->max_threads_per_sm);
	if (c->regs_per_sm % t->reg_alloc_unit)
		return bad(err, errsize, "reg_alloc_unit (%u) must divide regs_per_sm (%u)",
		           t->reg_alloc_unit, c->regs_per_sm);
	if (t->smem_per_sm % t->smem_alloc_unit)
		return bad(err, errsize, "smem_alloc_unit (%u) must divide smem_per_sm (%u)",
		           t->smem_alloc_unit, t->smem_per_sm);
	if ((uint64_t)c->max_smem_per_block + t->smem_reserved_per_cta > t->smem_per_sm)
		return bad(err, errsize, "max_shared_per_block (%u) plus smem_reserved_per_cta (%u) "
		           "exceeds smem_per_sm (%u)", c->max_smem_per_block, t->smem_reserved_per_cta,
		           t->smem_per_sm);
	if (t->l1_total < t->smem_per_sm)
		return bad(err, errsize, "l1_total (%u) must be at least smem_per_sm (%u): shared memory "
		           "is carved out of the unified L1", t->l1_total, t->smem_per_sm);
	if (t->l1_sector > t->l1_line)
		return bad(err, errsize, "l1_sector (%u) exceeds l1_line (%u)", t->l1_sector, t->l1_line);
	if ((t->l1_total - t->smem_per_sm) % ((uint64_t)t->l1_line * t->l1_assoc))
		return bad(err, errsize, "the L1 (l1_total - smem_per_sm = %u bytes) must be a whole "
		           "number of sets of l1_line x l1_assoc (%llu) bytes",
		           t->l1_total - t->smem_per_sm, LLU((uint64_t)t->l1_line * t->l1_assoc));
	if (t->icache_bytes % t->icache_line)
		return bad(err, errsize, "icache_line (%u) must divide icache_bytes (%u)",
		           t->icache_line, t->icache_bytes);
	if (t->l2_size % ((uint64_t)t->l2_line * t->l2_assoc * t->l2_slices))
		return bad(err, errsize, "l2_size (%llu) must be a multiple of l2_line x l2_assoc x "
		           "l2_slices (%llu): whole sets in every slice", LLU(t->l2_size),
		           LLU((uint64_t)t->l2_line * t->l2_assoc * t->l2_slices));
	if (t->l2_sm_bytes_per_clk > t->l2_bytes_per_clk)
		return bad(err, errsize, "l2_sm_bytes_per_clk (%u) exceeds l2_bytes_per_clk (%u)",
		           t->l2_sm_bytes_per_clk, t->l2_bytes_per_clk);
	if (t->lat_l1 > t->lat_l2 || t->lat_l2 > t->lat_dram)
		return bad(err, errsize, "latencies must grow down the hierarchy: lat_l1 (%u) <= lat_l2 "
		           "(%u) <= lat_dram (%u)", t->lat_l1, t->lat_l2, t->lat_dram);
	if (t->sm_model == SmModelFiber && (uint64_t)t->fiber_slice_regs * t->subpartitions > SmVRegs)
		return bad(err, errsize, "fiber_slice_regs (%u) x subpartitions (%u) exceeds the SM's "
		           "%u vector registers", t->fiber_slice_regs, t->subpartitions, SmVRegs);
	if (t->epoch > t->lat_l2)
		return bad(err, errsize, "epoch (%u) exceeds lat_l2 (%u): SMs exchange L2 traffic at "
		           "epoch ends, so an epoch may not be longer than the smallest L2 round trip",
		           t->epoch, t->lat_l2);
	return 0;
}

void
simcfg_print(const SimConfig *c, FILE *f)
{
	fprintf(f, "# fiber device configuration '%s': every key (docs/sim-config.md)\n",
	        c->name ? c->name : "");
	for (int i = 0; i < NKeys; i++) {
		const Key *k = &keys[i];
		char val[80];
		int w;

		if ((k->flags & FFiber) && c->t.sm_model != SmModelFiber)
			continue;

		switch (k->type) {
		case KUint:
		case KSize:
			snprintf(val, sizeof val, "%llu", LLU(get(c, k)));
			break;
		case KChoice:
			if ((k->flags & FQuiet) && !get(c, k))
				continue;
			snprintf(val, sizeof val, "%llu", LLU(get(c, k)));
			for (const Choice *ch = k->choice; ch->name; ch++)
				if (ch->val == get(c, k))
					snprintf(val, sizeof val, "%s", ch->name);
			break;
		case KArch: {
			const Arch *a = get(c, k) <= INT_MAX ? arch_find((int)get(c, k), 0) : NULL;
			snprintf(val, sizeof val, "%llu", LLU(get(c, k)));
			if (a && (a->support & ArchDevice))
				snprintf(val, sizeof val, "%s", a->name);
			break;
		}
		case KName:
			if (!c->name)
				continue;
			snprintf(val, sizeof val, "%s", c->name);
			break;
		case KBase:
		case KRuntime:
			continue;
		}
		w = fprintf(f, "%s = %s", k->k.name, val);
		fprintf(f, "%*s# %s%s%s\n", w < 34 ? 34 - w : 1, "", k->k.unit,
		        *k->k.unit ? ": " : "", k->k.doc);
	}
}

uint32_t
simcfg_find(const char *text, size_t n, const char *key, char *val, size_t valsize)
{
	char *s = xmalloc(n + 1);
	uint32_t line = 0, found = 0;

	memcpy(s, text, n);
	for (char *p = s; *p && !found;) {
		char *eol = strchr(p, '\n'), *next = eol ? eol + 1 : p + strlen(p);
		Tok t;

		if (eol)
			*eol = 0;
		line++;
		if (split(p, line, &t) && strcmp(t.key, key) == 0) {
			snprintf(val, valsize, "%s", t.val);
			found = line;
		}
		p = next;
	}
	free(s);
	return found;
}

/* where the value of each latency key of the opcode rows (ir/latkeys.h) is in SimTiming */
#define LK(name, key) _Static_assert(sizeof ((SimTiming *)0)->key == sizeof(uint32_t), #key);
#include "latkeys.h"
#undef LK
static const size_t lat_field[NLatKey] = {
#define LK(name, key) [Lk##name] = offsetof(SimTiming, key),
#include "latkeys.h"
#undef LK
};

uint32_t
simcfg_lat(const SimTiming *t, int key)
{
	uint32_t v;

	if (key <= LkMem || key >= NLatKey)
		return 0;
	memcpy(&v, (const char *)t + lat_field[key], sizeof v);
	return v;
}

void
simconfig_default(SimConfig *c, int sm)
{
	simcfg_builtin(c, arch_code(sm)->device->config);
}

GpuConfig
simcfg_gpu(const SimConfig *c)
{
	GpuConfig g;

	memset(&g, 0, sizeof g);
	g.name = c->name;
	g.sm = c->sm;
	g.nsm = c->nsm;
	g.max_threads_per_block = c->max_threads_per_block;
	g.max_smem_per_block = c->max_smem_per_block;
	g.regs_per_sm = c->regs_per_sm;
	g.watchdog = c->watchdog;
	g.mma_block = c->mma_block;
	g.mma_bits = c->mma_bits;
	g.mma_bits_f8 = c->mma_bits_f8;
	g.clock_mhz = c->t.clock_mhz;
	g.occupancy = sm_model_of(c)->occupancy;
	g.max_warps_per_sm = c->t.max_warps_per_sm;
	g.max_threads_per_sm = c->t.max_threads_per_sm;
	g.max_ctas_per_sm = c->t.max_ctas_per_sm;
	g.reg_alloc_unit = c->t.reg_alloc_unit;
	g.smem_per_sm = c->t.smem_per_sm;
	g.smem_alloc_unit = c->t.smem_alloc_unit;
	g.smem_reserved_per_cta = c->t.smem_reserved_per_cta;
	/* the FIBER SM: the functional FIBER semantics (windows by slice, busy bits, SETFIBERNUM) */
	g.fiber = c->t.sm_model == SmModelFiber;
	g.fiber_dp = (int)c->t.fiber_dp;
	g.fiber_contexts = c->t.fiber_contexts;
	g.fiber_slice_regs = c->t.fiber_slice_regs;
	g.nsub = c->t.subpartitions;
	return g;
}
