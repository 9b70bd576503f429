/* gen_large.c: write a large, realistic SASS listing in nvdisasm -hex format for benchmarks.
 * The kernel is a stack of attention-like tiles: an outer loop around a pipelined tensor-core
 * inner loop (IMAD.WIDE, LDG.E.128, STS.128, BAR, LDSM, HMMA.16816.F32), an online softmax
 * (FMNMX, SHFL.BFLY, FADD, FMUL, MUFU.EX2, predicated fix-ups), a BSSY/BSYNC diamond and an
 * epilogue (F2FP, STG.E.128), with the sections nvdisasm prints around them (.nv.info with
 * KPARAM_INFO and EXIT_INSTR_OFFSETS, .nv.constant0, .text, .nv.shared). Encoding words follow
 * the Ampere layout (guard, registers, immediate, control bits); they are plausible, not exact.
 *
 *   gen_large [-n INSTRUCTIONS] [-a sm_80|sm_90] [-k KERNEL] [-s SEED] [-o FILE]
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	InsCol = 54,       /* width of the instruction text field before the encoding comment */
	MaxExit = 16,      /* EXIT instructions recorded for EIATTR_EXIT_INSTR_OFFSETS */
	Guard = 0x7,       /* guard field of an unpredicated instruction: PT */
	TileMax = 400,     /* an upper bound on the instructions of one tile */
	Tail = 8,          /* EXIT, the trailing self-branch and six NOPs */
};

typedef struct Gen {
	FILE *out;         /* the .text body (a memory stream until it is complete) */
	uint64_t addr;     /* byte offset of the next instruction */
	long nins;         /* instructions written */
	int nlabel;        /* .L_x_N labels handed out */
	int endlabel;      /* the label after the last instruction, for .size */
	uint64_t rng;      /* xorshift state */
	int exitlab[MaxExit]; /* labels in front of EXIT instructions */
	int nexit;
	int param_base;    /* byte offset of the kernel parameters in bank 0 */
} Gen;

static uint64_t
rnd(Gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dull;
}

static int
pick(Gen *g, int n)
{
	return (int)(rnd(g) % (uint64_t)n);
}

/* control bits: stall cycles, yield, write and read scoreboards (7: none), wait mask */
static uint64_t
ctrl(int stall, int yield, int wrsb, int rdsb, int wait)
{
	return (uint64_t)(stall | yield << 4 | wrsb << 5 | rdsb << 8 | wait << 11) << 41;
}

/* first encoding word: opcode, guard, Rd, Ra and the 32-bit B field */
static uint64_t
enc(unsigned op, unsigned guard, unsigned rd, unsigned ra, uint32_t b)
{
	return op | (uint64_t)guard << 12 | (uint64_t)(rd & 0xff) << 16 |
	       (uint64_t)(ra & 0xff) << 24 | (uint64_t)b << 32;
}

/* guard nibble and text for predicate p (0..6, 7 = none), negated when neg */
static unsigned
gbits(int p, int neg)
{
	return p == 7 ? Guard : (unsigned)(p | neg << 3);
}

static int
label(Gen *g)
{
	return g->nlabel++;
}

static void
deflabel(Gen *g, int l)
{
	fprintf(g->out, ".L_x_%d:\n", l);
}

/* one instruction: guard text ("" or "@!P0"), the instruction and its two encoding words */
static void
ins(Gen *g, const char *guard, uint64_t e0, uint64_t e1, const char *fmt, ...)
{
	char text[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof text - 3, fmt, ap);
	va_end(ap);
	memcpy(text + n, " ;", 3);
	n += 2;
	fprintf(g->out, "        /*%04" PRIx64 "*/%18s %-*s /* 0x%016" PRIx64 " */\n", g->addr,
	        guard, InsCol - 1, text, e0);
	fprintf(g->out, "%*s/* 0x%016" PRIx64 " */\n", 8 + 8 + 19 + InsCol, "", e1);
	g->addr += 16;
	g->nins++;
}

static const char *
gtext(char *buf, int p, int neg)
{
	if (p == 7)
		return "";
	sprintf(buf, "@%sP%d", neg ? "!" : "", p);
	return buf;
}

static uint32_t
cb(int off)
{
	return (uint32_t)(off / 4) << 8;
}

static void
prologue(Gen *g)
{
	int pb = g->param_base, l = label(g);

	ins(g, "", enc(0x624, Guard, 1, 0xff, cb(0x28)), 0x78e00ff | ctrl(2, 1, 7, 7, 0),
	    "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
	ins(g, "", enc(0x919, Guard, 0, 0, 0), 0x2100 | ctrl(1, 0, 0, 7, 0), "S2R R0, SR_TID.X");
	ins(g, "", enc(0x919, Guard, 3, 0, 0), 0x2500 | ctrl(1, 0, 1, 7, 0), "S2R R3, SR_CTAID.X");
	ins(g, "", enc(0xab9, Guard, 4, 0, cb(0x118)), 0xa00 | ctrl(2, 1, 7, 7, 0),
	    "ULDC.64 UR4, c[0x0][0x118]");
	ins(g, "", enc(0x819, Guard, 56, 0xff, 5), 0x11600 | ctrl(4, 1, 7, 7, 1),
	    "SHF.R.U32.HI R56, RZ, 0x5, R0");
	ins(g, "", enc(0x824, Guard, 57, 3, 4), 0x78e0238 | ctrl(5, 0, 7, 7, 2),
	    "IMAD R57, R3, 0x4, R56");
	ins(g, "", enc(0xa0c, Guard, 0, 57, cb(pb + 0x20)), 0x3f06270 | ctrl(13, 0, 7, 7, 0),
	    "ISETP.GE.AND P0, PT, R57, c[0x0][0x%x], PT", pb + 0x20);
	deflabel(g, l);
	g->exitlab[g->nexit++] = l;
	ins(g, "@P0", enc(0x94d, 0, 0, 0, 0), 0x3800000 | ctrl(5, 1, 7, 7, 0), "EXIT");
	ins(g, "", enc(0x812, Guard, 58, 0, 0x1f), 0x78ec0ff | ctrl(2, 1, 7, 7, 0),
	    "LOP3.LUT R58, R0, 0x1f, RZ, 0xc0, !PT");
	ins(g, "", enc(0xa25, Guard, 2, 57, cb(pb + 0x24)), 0x78e02ff | ctrl(2, 1, 7, 7, 0),
	    "IMAD.WIDE R2, R57, c[0x0][0x%x], RZ", pb + 0x24);
	ins(g, "", enc(0xa11, Guard, 2, 2, cb(pb)), 0x78008ff | ctrl(2, 1, 7, 7, 0),
	    "LEA R2, P0, R2, c[0x0][0x%x], 0x1", pb);
	ins(g, "", enc(0xa11, Guard, 3, 2, cb(pb + 4)), 0xf0c03 | ctrl(2, 1, 7, 7, 0),
	    "LEA.HI.X R3, R2, c[0x0][0x%x], R3, 0x1, P0", pb + 4);
	ins(g, "", enc(0x824, Guard, 61, 58, 0x10), 0x78e00ff | ctrl(2, 1, 7, 7, 0),
	    "IMAD.SHL.U32 R61, R58, 0x10, RZ");
	ins(g, "", enc(0x824, Guard, 62, 58, 0x20), 0x78e00ff | ctrl(2, 1, 7, 7, 0),
	    "IMAD.SHL.U32 R62, R58, 0x20, RZ");
	ins(g, "", enc(0x810, Guard, 63, 62, 0x1000), 0x7ffe0ff | ctrl(2, 1, 7, 7, 0),
	    "IADD3 R63, R62, 0x1000, RZ");
	ins(g, "", enc(0x802, Guard, 56, 0, 0), 0xf00 | ctrl(2, 1, 7, 7, 0), "MOV R56, RZ");
	ins(g, "", enc(0xa02, Guard, 6, 0, cb(pb + 0x10)), 0xf00 | ctrl(2, 1, 7, 7, 0),
	    "MOV R6, c[0x0][0x%x]", pb + 0x10);
	ins(g, "", enc(0xa02, Guard, 7, 0, cb(pb + 0x14)), 0xf00 | ctrl(2, 1, 7, 7, 0),
	    "MOV R7, c[0x0][0x%x]", pb + 0x14);
	for (int r = 64; r < 96; r += 2)
		ins(g, "", enc(0x805, Guard, r, 0, 0), 0x1ff00 | ctrl(1, 1, 7, 7, 0), "CS2R R%d, SRZ", r);
}

/* the pipelined tensor-core loop: global -> shared -> LDSM -> HMMA */
static void
mma_loop(Gen *g, int acc, int unroll)
{
	int pb = g->param_base, top = label(g);
	uint64_t top_addr;
	char gb[16];
	int p = pick(g, 3) + 1;

	ins(g, "", enc(0x825, Guard, 8, 56, 0x2), 0x78e0202 | ctrl(4, 1, 7, 7, 0),
	    "IMAD.WIDE R8, R56, 0x2, R2");
	ins(g, "", enc(0x802, Guard, 60, 0, 0), 0xf00 | ctrl(2, 1, 7, 7, 0), "MOV R60, RZ");
	deflabel(g, top);
	top_addr = g->addr;
	ins(g, "", enc(0x981, Guard, 12, 8, 0), 0xc1e1d00 | ctrl(4, 0, 2, 7, 0),
	    "LDG.E.128 R12, [R8.64]");
	ins(g, "", enc(0x981, Guard, 16, 8, 0x100), 0xc1e1d00 | ctrl(4, 0, 3, 7, 0),
	    "LDG.E.128 R16, [R8.64+0x100]");
	if (pick(g, 2))
		ins(g, gtext(gb, p, 0), enc(0x981, gbits(p, 0), 32, 8, 0x200),
		    0xc1e1d00 | ctrl(4, 0, 4, 7, 0), "LDG.E.128 R32, [R8.64+0x200]");
	ins(g, "", enc(0x810, Guard, 8, 8, 0x200), 0x7f3e0ff | ctrl(4, 1, 7, 7, 0),
	    "IADD3 R8, P4, R8, 0x200, RZ");
	ins(g, "", enc(0x210, Guard, 9, 0xff, 9), 0x27fe4ff | ctrl(2, 1, 7, 7, 0),
	    "IADD3.X R9, RZ, R9, RZ, P4, !PT");
	ins(g, "", enc(0x388, Guard, 0xff, 61, 12), 0xc00 | ctrl(1, 0, 7, 0, 4),
	    "STS.128 [R61], R12");
	ins(g, "", enc(0x388, Guard, 0xff, 61, 16 | 0x100000), 0xc00 | ctrl(1, 0, 7, 0, 8),
	    "STS.128 [R61+0x1000], R16");
	ins(g, "", enc(0xb1d, Guard, 0, 0, 0), 0x10000 | ctrl(6, 0, 7, 7, 1),
	    "BAR.SYNC.DEFER_BLOCKING 0x0");
	for (int u = 0; u < unroll; u++) {
		int a = 20 + 4 * (u & 1), b = 28;

		char off[16] = "";

		if (u)
			snprintf(off, sizeof off, "+0x%x", u * 0x20);
		ins(g, "", enc(0x83b, Guard, a, 62, u * 0x20 << 8), 0x200 | ctrl(4, 0, 1, 7, 0),
		    "LDSM.16.M88.4 R%d, [R62%s]", a, off);
		ins(g, "", enc(0x83b, Guard, b, 63, u * 0x20 << 8), 0x4200 | ctrl(4, 0, 2, 7, 0),
		    "LDSM.16.MT88.4 R%d, [R63%s]", b, off);
		for (int k = 0; k < 4; k++) {
			int d = acc + 4 * k;

			ins(g, "", enc(0x23c, Guard, d, a, b + 2 * (k & 1)), 0x18ff | ctrl(2, 0, 7, 7, 6),
			    "HMMA.16816.F32 R%d, R%d%s, R%d, R%d", d, a, k < 3 ? ".reuse" : "",
			    b + 2 * (k & 1), d);
		}
	}
	ins(g, "", enc(0x810, Guard, 60, 60, 0x20), 0x7ffe0ff | ctrl(2, 1, 7, 7, 0),
	    "IADD3 R60, R60, 0x20, RZ");
	ins(g, "", enc(0xa0c, Guard, 0, 60, cb(pb + 0x28)), 0x3f06270 | ctrl(13, 0, 7, 7, 0),
	    "ISETP.GE.AND P0, PT, R60, c[0x0][0x%x], PT", pb + 0x28);
	ins(g, "", enc(0xb1d, Guard, 0, 0, 0), 0x10000 | ctrl(6, 0, 7, 7, 0),
	    "BAR.SYNC.DEFER_BLOCKING 0x0");
	ins(g, "@!P0", enc(0x947, gbits(0, 1), 0, 0, (uint32_t)(top_addr - g->addr - 16)),
	    0x383ffff | ctrl(5, 1, 7, 7, 0), "BRA `(.L_x_%d)", top);
}

/* online softmax over one accumulator block of 16 registers */
static void
softmax(Gen *g, int acc)
{
	int m = 40, t = 41, sum = 43, inv = 44;
	char gb[16];

	ins(g, "", enc(0x209, Guard, m, acc, acc + 1), 0x7800000 | ctrl(4, 1, 7, 7, 0),
	    "FMNMX R%d, R%d, R%d, !PT", m, acc, acc + 1);
	for (int r = acc + 2; r < acc + 16; r++)
		ins(g, "", enc(0x209, Guard, m, m, r), 0x7800000 | ctrl(4, 1, 7, 7, 0),
		    "FMNMX R%d, R%d, R%d, !PT", m, m, r);
	for (int s = 1; s <= 2; s <<= 1) {
		ins(g, "", enc(0xf89, Guard, t, m, 0x001f00 | (uint32_t)s << 20), 0xe0000 |
		    ctrl(1, 0, 0, 7, 0), "SHFL.BFLY PT, R%d, R%d, 0x%x, 0x1f", t, m, s);
		ins(g, "", enc(0x209, Guard, m, m, t), 0x7800000 | ctrl(4, 1, 7, 7, 1),
		    "FMNMX R%d, R%d, R%d, !PT", m, m, t);
	}
	ins(g, "", enc(0x802, Guard, sum, 0, 0), 0xf00 | ctrl(1, 1, 7, 7, 0), "MOV R%d, RZ", sum);
	for (int r = acc; r < acc + 16; r++) {
		ins(g, "", enc(0x221, Guard, r, r, m), 0x100 | ctrl(4, 1, 7, 7, 0),
		    "FADD R%d, R%d, -R%d", r, r, m);
		ins(g, "", enc(0x820, Guard, r, r, 0x3fb8aa3b), 0x400000 | ctrl(4, 1, 7, 7, 0),
		    "FMUL R%d, R%d, 1.4426950216293334961", r, r);
		ins(g, "", enc(0x308, Guard, r, 0, r), 0x800 | ctrl(1, 0, 5, 7, 0),
		    "MUFU.EX2 R%d, R%d", r, r);
		ins(g, "", enc(0x221, Guard, sum, sum, r), ctrl(4, 1, 7, 7, 32), "FADD R%d, R%d, R%d",
		    sum, sum, r);
	}
	ins(g, "", enc(0x80b, Guard, 1, sum, 0x800000), 0x3f2e000 | ctrl(13, 0, 7, 7, 0),
	    "FSETP.GEU.AND P1, PT, |R%d|, 1.175494350822287508e-38, PT", sum);
	ins(g, gtext(gb, 1, 1), enc(0x820, gbits(1, 1), sum, sum, 0x4b800000), 0x400000 |
	    ctrl(2, 1, 7, 7, 0), "FMUL R%d, R%d, 16777216", sum, sum);
	ins(g, "", enc(0x308, Guard, inv, 0, sum), 0x1000 | ctrl(1, 0, 1, 7, 0),
	    "MUFU.RCP R%d, R%d", inv, sum);
	ins(g, gtext(gb, 1, 1), enc(0x820, gbits(1, 1), inv, inv, 0x4b800000), 0x400000 |
	    ctrl(2, 1, 7, 7, 2), "FMUL R%d, R%d, 16777216", inv, inv);
}

/* a BSSY/BSYNC region: if (P2) load a scale from global memory, else use 1.0 */
static void
diamond(Gen *g)
{
	int pb = g->param_base, join = label(g), other = label(g), sync = label(g);
	int then_n = 4 + pick(g, 4), else_n = 2 + pick(g, 3);
	uint64_t bssy = g->addr + 16, join_addr = bssy + 16 * (4 + then_n + else_n);

	ins(g, "", enc(0x20c, Guard, 2, 58, 0xff), 0x3f45270 | ctrl(13, 0, 7, 7, 0),
	    "ISETP.NE.AND P2, PT, R58, RZ, PT");
	ins(g, "", enc(0x945, Guard, 0, 0, (uint32_t)(join_addr - bssy - 16)), 0x3800000 |
	    ctrl(1, 1, 7, 7, 0), "BSSY B0, `(.L_x_%d)", join);
	ins(g, "@!P2", enc(0x947, gbits(2, 1), 0, 0, (uint32_t)(16 * (then_n + 1))), 0x3800000 |
	    ctrl(5, 1, 7, 7, 0), "BRA `(.L_x_%d)", other);
	ins(g, "", enc(0xa11, Guard, 10, 59, cb(pb + 8)), 0x78608ff | ctrl(4, 1, 7, 7, 0),
	    "LEA R10, P3, R59, c[0x0][0x%x], 0x2", pb + 8);
	ins(g, "", enc(0xa11, Guard, 11, 59, cb(pb + 12)), 0x18f1460 | ctrl(2, 1, 7, 7, 0),
	    "LEA.HI.X R11, R59, c[0x0][0x%x], R60, 0x2, P3", pb + 12);
	ins(g, "", enc(0x981, Guard, 45, 10, 0), 0xc1e1900 | ctrl(2, 0, 2, 7, 0),
	    "LDG.E R45, [R10.64]");
	ins(g, "", enc(0x223, Guard, 44, 44, 45), 0x2c | ctrl(4, 1, 7, 7, 4),
	    "FFMA R44, R44, R45, R44");
	for (int k = 4; k < then_n; k++)
		ins(g, "", enc(0x223, Guard, 46 + k, 44, 45), 0x2e | ctrl(4, 1, 7, 7, 0),
		    "FFMA R%d, R44, R45, R%d", 46 + k, 46 + k);
	ins(g, "", enc(0x947, Guard, 0, 0, (uint32_t)(16 * else_n)), 0x3800000 | ctrl(5, 1, 7, 7, 0),
	    "BRA `(.L_x_%d)", sync);
	deflabel(g, other);
	ins(g, "", enc(0x802, Guard, 45, 0, 0x3f800000), 0xf00 | ctrl(2, 1, 7, 7, 0),
	    "MOV R45, 0x3f800000");
	for (int k = 1; k < else_n; k++)
		ins(g, "", enc(0x220, Guard, 44, 44, 45), ctrl(4, 1, 7, 7, 0), "FMUL R44, R44, R45");
	deflabel(g, sync);
	ins(g, "", enc(0x941, Guard, 0, 0, 0), 0x3800000 | ctrl(5, 1, 7, 7, 0), "BSYNC B0");
	deflabel(g, join);
}

/* scale, pack to f16 and store 16 accumulators */
static void
epilogue(Gen *g, int acc)
{
	for (int r = acc; r < acc + 16; r += 2) {
		ins(g, "", enc(0x220, Guard, r, r, 44), ctrl(4, 1, 7, 7, 0), "FMUL R%d, R%d, R44", r, r);
		ins(g, "", enc(0x220, Guard, r + 1, r + 1, 44), ctrl(4, 1, 7, 7, 0),
		    "FMUL R%d, R%d, R44", r + 1, r + 1);
		ins(g, "", enc(0x23e, Guard, 32 + (r - acc) / 2, r + 1, r), 0xff | ctrl(2, 1, 7, 7, 0),
		    "F2FP.PACK_AB R%d, R%d, R%d", 32 + (r - acc) / 2, r + 1, r);
	}
	ins(g, "", enc(0x825, Guard, 10, 58, 0x10), 0x78e0206 | ctrl(4, 1, 7, 7, 0),
	    "IMAD.WIDE R10, R58, 0x10, R6");
	ins(g, "", enc(0x986, Guard, 0, 10, 32), 0xc101d04 | ctrl(1, 1, 7, 7, 0),
	    "STG.E.128 [R10.64], R32");
	ins(g, "", enc(0x986, Guard, 0, 10, 36 | 0x1000), 0xc101d04 | ctrl(1, 1, 7, 7, 0),
	    "STG.E.128 [R10.64+0x10], R36");
}

/* one tile: an outer loop around the inner MMA loop, softmax, a diamond and the epilogue */
static void
tile(Gen *g)
{
	int pb = g->param_base, outer = label(g), acc = 64 + 16 * pick(g, 2);
	uint64_t top = g->addr;

	deflabel(g, outer);
	mma_loop(g, acc, 2 + pick(g, 3));
	softmax(g, acc);
	diamond(g);
	epilogue(g, acc);
	ins(g, "", enc(0x810, Guard, 56, 56, 1), 0x7ffe0ff | ctrl(2, 1, 7, 7, 0),
	    "IADD3 R56, R56, 0x1, RZ");
	ins(g, "", enc(0xa0c, Guard, 3, 56, cb(pb + 0x20)), 0x3f66270 | ctrl(13, 0, 7, 7, 0),
	    "ISETP.GE.AND P3, PT, R56, c[0x0][0x%x], PT", pb + 0x20);
	ins(g, "@!P3", enc(0x947, gbits(3, 1), 0, 0, (uint32_t)(top - g->addr - 16)),
	    0x383ffff | ctrl(5, 1, 7, 7, 0), "BRA `(.L_x_%d)", outer);
}

/* straight-line integer and FMA filler */
static void
filler(Gen *g)
{
	int r = 96 + pick(g, 30);

	switch (pick(g, 4)) {
	case 0:
		ins(g, "", enc(0x810, Guard, r, r, 0x4), 0x7ffe0ff | ctrl(2, 1, 7, 7, 0),
		    "IADD3 R%d, R%d, 0x4, RZ", r, r);
		break;
	case 1:
		ins(g, "", enc(0x223, Guard, r, r + 1, r + 2), r | ctrl(4, 1, 7, 7, 0),
		    "FFMA R%d, R%d, R%d, R%d", r, r + 1, r + 2, r);
		break;
	case 2:
		ins(g, "", enc(0x812, Guard, r, r, 0xff), 0x78ec0ff | ctrl(2, 1, 7, 7, 0),
		    "LOP3.LUT R%d, R%d, 0xff, RZ, 0xc0, !PT", r, r);
		break;
	default:
		ins(g, "", enc(0x819, Guard, r, 0xff, 2), 0x11600 | r | ctrl(2, 1, 7, 7, 0),
		    "SHF.R.U32.HI R%d, RZ, 0x2, R%d", r, r);
		break;
	}
}

static void
text_body(Gen *g, long n)
{
	int end = label(g), spin = label(g), last;

	prologue(g);
	while (g->nins + TileMax + Tail < n)
		tile(g);
	while (g->nins + Tail < n)
		filler(g);
	last = label(g);
	deflabel(g, last);
	g->exitlab[g->nexit++] = last;
	ins(g, "", enc(0x94d, Guard, 0, 0, 0), 0x3800000 | ctrl(5, 1, 7, 7, 0), "EXIT");
	deflabel(g, spin);
	ins(g, "", enc(0x947, Guard, 0, 0, 0xfffffff0), 0x383ffff | ctrl(0, 0, 7, 7, 0),
	    "BRA `(.L_x_%d)", spin);
	while (g->nins < n)
		ins(g, "", enc(0x918, Guard, 0, 0, 0), ctrl(0, 0, 7, 7, 0), "NOP");
	deflabel(g, end);
	g->endlabel = end;
}

static void
banner(FILE *o, const char *name)
{
	fprintf(o, "//--------------------- %-26s--------------------------\n", name);
}

/* the 2-byte-length attributes of .nv.info.<kernel>, numbered labels .L_<k> */
static void
nvinfo(FILE *o, const Gen *g, const char *k, int nparam)
{
	static const int size[] = {8, 8, 8, 8, 4, 4, 4, 4, 4};
	int l = 0, off = 0, psize = 0;
	char sec[256];

	for (int i = 0; i < nparam; i++)
		psize += size[i];
	fprintf(o, "\n\n");
	banner(o, ".nv.info");
	fprintf(o, "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n\t.align\t4\n\n\n");
	static const struct { const char *name; int code; int val; } glob[] = {
		{"EIATTR_REGCOUNT", 0x2f, 128},
		{"EIATTR_FRAME_SIZE", 0x11, 0},
		{"EIATTR_MIN_STACK_SIZE", 0x12, 0},
	};
	for (int i = 0; i < 3; i++) {
		fprintf(o, "\t//----- nvinfo : %s\n\t.align\t\t4\n", glob[i].name);
		if (i > 0)
			fprintf(o, ".L_%d:\n", l - 1);
		fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x%02x\n", off, glob[i].code);
		fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n", off + 2, l + 1, l);
		fprintf(o, "\t.align\t\t4\n.L_%d:\n", l);
		fprintf(o, "        /*%04x*/ \t.word\tindex@(%s)\n", off + 4, k);
		fprintf(o, "        /*%04x*/ \t.word\t0x%08x\n", off + 8, glob[i].val);
		off += 12;
		l += 2;
		fprintf(o, i == 2 ? ".L_%d:\n\n\n" : "\n\n", l - 1);
	}
	snprintf(sec, sizeof sec, ".nv.info.%s", k);
	banner(o, sec);
	fprintf(o, "\t.section\t%s,\"\",@\"SHT_CUDA_INFO\"\n\t.sectionflags\t@\"\"\n\t.align\t4\n\n\n",
	        sec);
	off = 0;
	fprintf(o, "\t//----- nvinfo : EIATTR_CUDA_API_VERSION\n\t.align\t\t4\n");
	fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x37\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n.L_%d:\n", off + 2, l + 1, l, l);
	fprintf(o, "        /*%04x*/ \t.word\t0x00000082\n\n\n", off + 4);
	off += 8;
	l += 2;
	fprintf(o, "\t//----- nvinfo : EIATTR_PARAM_CBANK\n\t.align\t\t4\n.L_%d:\n", l - 1);
	fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x0a\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n\t.align\t\t4\n.L_%d:\n", off + 2,
	        l + 1, l, l);
	fprintf(o, "        /*%04x*/ \t.word\tindex@(.nv.constant0.%s)\n", off + 4, k);
	fprintf(o, "        /*%04x*/ \t.short\t0x%04x\n", off + 8, g->param_base);
	fprintf(o, "        /*%04x*/ \t.short\t0x%04x\n\n\n", off + 10, psize);
	off += 12;
	l += 2;
	fprintf(o, "\t//----- nvinfo : EIATTR_CBANK_PARAM_SIZE\n\t.align\t\t4\n.L_%d:\n", l - 1);
	fprintf(o, "        /*%04x*/ \t.byte\t0x03, 0x19\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t0x%04x\n\n\n", off + 2, psize);
	off += 4;
	/* KPARAM_INFO, last parameter first as nvdisasm prints them */
	for (int i = nparam - 1, po = psize; i >= 0; i--) {
		po -= size[i];
		fprintf(o, "\t//----- nvinfo : EIATTR_KPARAM_INFO\n\t.align\t\t4\n");
		if (i != nparam - 1)
			fprintf(o, ".L_%d:\n", l - 1);
		fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x17\n", off);
		fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n.L_%d:\n", off + 2, l + 1, l, l);
		fprintf(o, "        /*%04x*/ \t.word\t0x00000000\n", off + 4);
		fprintf(o, "        /*%04x*/ \t.short\t0x%04x\n", off + 8, i);
		fprintf(o, "        /*%04x*/ \t.short\t0x%04x\n", off + 10, po);
		fprintf(o, "        /*%04x*/ \t.byte\t0x00, 0xf0, 0x%02x, 0x00\n\n\n", off + 12,
		        size[i] == 8 ? 0x21 : 0x11);
		off += 16;
		l += 2;
	}
	fprintf(o, "\t//----- nvinfo : EIATTR_MAXREG_COUNT\n\t.align\t\t4\n.L_%d:\n", l - 1);
	fprintf(o, "        /*%04x*/ \t.byte\t0x03, 0x1b\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t0x00ff\n\n\n", off + 2);
	off += 4;
	fprintf(o, "\t//----- nvinfo : EIATTR_NUM_BARRIERS\n\t.align\t\t4\n");
	fprintf(o, "        /*%04x*/ \t.byte\t0x02, 0x4c\n", off);
	fprintf(o, "        /*%04x*/ \t.byte\t0x01\n\t.zero\t\t1\n\n\n", off + 2);
	off += 4;
	fprintf(o, "\t//----- nvinfo : EIATTR_EXIT_INSTR_OFFSETS\n\t.align\t\t4\n");
	fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x1c\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n\n\n", off + 2, l + 1, l);
	off += 4;
	for (int i = 0; i < g->nexit; i++) {
		fprintf(o, "\t//   ....[%d]....\n", i);
		if (i == 0)
			fprintf(o, ".L_%d:\n", l);
		fprintf(o, "        /*%04x*/ \t.word\t.L_x_%d@srel\n\n\n", off, g->exitlab[i]);
		off += 4;
	}
	l += 2;
	fprintf(o, "\t//----- nvinfo : EIATTR_MAX_THREADS\n\t.align\t\t4\n.L_%d:\n", l - 1);
	fprintf(o, "        /*%04x*/ \t.byte\t0x04, 0x05\n", off);
	fprintf(o, "        /*%04x*/ \t.short\t(.L_%d - .L_%d)\n.L_%d:\n", off + 2, l + 1, l, l);
	fprintf(o, "        /*%04x*/ \t.word\t0x00000080\n", off + 4);
	fprintf(o, "        /*%04x*/ \t.word\t0x00000001\n", off + 8);
	fprintf(o, "        /*%04x*/ \t.word\t0x00000001\n.L_%d:\n\n\n", off + 12, l + 1);
}

static void
usage(void)
{
	fprintf(stderr, "usage: gen_large [-n INSTRUCTIONS] [-a sm_80|sm_90] [-k KERNEL] [-s SEED] "
	        "[-o FILE]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	long n = 70000;
	const char *arch = "sm_80", *kernel = "fiber_attn_large", *path = NULL;
	unsigned long long seed = 0x5eed;
	char *body = NULL, sec[256];
	size_t bodylen = 0;
	FILE *o = stdout;
	Gen g;

	for (int k = 1; k < argc; k++) {
		if (k + 1 >= argc || argv[k][0] != '-' || argv[k][2])
			usage();
		switch (argv[k][1]) {
		case 'n': n = strtol(argv[++k], NULL, 0); break;
		case 'a': arch = argv[++k]; break;
		case 'k': kernel = argv[++k]; break;
		case 's': seed = strtoull(argv[++k], NULL, 0); break;
		case 'o': path = argv[++k]; break;
		default: usage();
		}
	}
	if (n < 64 || n > 50000000 || (strcmp(arch, "sm_80") && strcmp(arch, "sm_90")))
		usage();
	memset(&g, 0, sizeof g);
	g.rng = seed ? seed : 1;
	g.param_base = strcmp(arch, "sm_90") == 0 ? 0x210 : 0x160;
	if (!(g.out = open_memstream(&body, &bodylen))) {
		perror("gen_large");
		return 1;
	}
	text_body(&g, n);
	fclose(g.out);
	if (path && !(o = fopen(path, "w"))) {
		perror(path);
		return 1;
	}

	fprintf(o, "\t.target\t%s\n\n\t.elftype\t@\"ET_EXEC\"\n\n", arch);
	nvinfo(o, &g, kernel, 9);
	snprintf(sec, sizeof sec, ".nv.constant0.%s", kernel);
	banner(o, sec);
	fprintf(o, "\t.section\t%s,\"a\",@progbits\n\t.sectionflags\t@\"\"\n\t.align\t4\n%s:\n"
	        "\t.zero\t\t%d\n\n\n", sec, sec, g.param_base + 0x34);
	snprintf(sec, sizeof sec, ".text.%s", kernel);
	banner(o, sec);
	fprintf(o, "\t.section\t%s,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=128\"\n"
	        "\t.align\t128\n", sec);
	fprintf(o, "        .global         %s\n        .type           %s,@function\n"
	        "        .size           %s,(.L_x_%d - %s)\n"
	        "        .other          %s,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n%s:\n%s:\n",
	        kernel, kernel, kernel, g.endlabel, kernel, kernel, kernel, sec);
	fwrite(body, 1, bodylen, o);
	fprintf(o, "\n\n");
	snprintf(sec, sizeof sec, ".nv.shared.%s", kernel);
	banner(o, sec);
	fprintf(o, "\t.section\t%s,\"aw\",@nobits\n\t.sectionflags\t@\"\"\n\t.align\t16\n%s:\n"
	        "\t.zero\t\t8192\n", sec, sec);
	free(body);
	if (fflush(o) != 0 || ferror(o) || (o != stdout && fclose(o) != 0)) {
		perror("gen_large");
		return 1;
	}
	fprintf(stderr, "gen_large: %ld instructions, %d labels, %s\n", g.nins, g.nlabel,
	        path ? path : "stdout");
	return 0;
}
