/* exec_gmma.c: semantics of Hopper's warpgroup MMA, PTX wgmma.mma_async: HGMMA (f16, bf16, tf32
 * inputs; f32 or f16 accumulators), QGMMA (e4m3/e5m2 inputs), IGMMA (s8/u8), BGMMA (b1 AND.POPC),
 * m64nNkK for every N of the PTX ISA, A from registers or a shared-memory matrix descriptor, B
 * from a descriptor, in the four layouts (none/interleave, 32, 64, 128-byte swizzle) and both
 * major-nesses; and WARPGROUP.ARRIVE / WARPGROUP.DEPBAR.LE (wgmma.fence, wait_group).
 * docs/sim-wgmma.md states the semantics, their sources and the decisions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alu.h"
#include "mma.h"

/* ---------------------------------------------------------------------------------------------
 * HGMMA D, [A,] gdesc[URx][.negA][.negB][.tnspA][.tnspB], C[, UPp][, gsb0]
 * (nvcc 13, sm_90a: `HGMMA.64x16x16.F32 R24, gdesc[UR4].negA.tnspA.tnspB, R24, UP0 ;`).
 * URx:URx+1 is A's matrix descriptor, URx+2:URx+3 B's (A's pair is unused when A comes from
 * registers). C = RZ or a false UPp (scale-d = 0) means D = A B. gsb0 closes the commit group
 * (wgmma.commit_group has no instruction of its own): it only matters to the timing.
 *
 * Functionally a warp computes its own 16 rows of the 64 x N result when it issues: rows
 * 16 (warp % 4) .. +15 depend only on its A rows and on all of B, so no warp of the warpgroup
 * waits for another (docs/sim-wgmma.md: why the effect at issue is right for a program that
 * fences and waits as the PTX ISA requires).
 */
enum {
	GRows = 16,            /* rows of D per warp */
	GMaxN = 256,           /* N at most */
	GRowBytes = 32,        /* bytes of K per row of A and B: k16 f16, k8 tf32, k32 8-bit, k256 b1 */
	/* DIns.mod above the MMA_MOD types (bits 0..11) */
	GNegA = 1 << 12,       /* .negA: imm-scale-a = -1 */
	GNegB = 1 << 13,       /* .negB */
	GTnspA = 1 << 14,      /* .tnspA: A is M-major (imm-trans-a = 1) */
	GTnspB = 1 << 15,      /* .tnspB: B is N-major */
	GAReg = 1 << 16,       /* A comes from four registers */
	GSat = 1 << 17,        /* IGMMA .SAT */
	GGroup = MMA_GROUP_END, /* gsb0: the last instruction of a commit group (ir/mma.h) */
};

#define ATY(d) ((d)->mod & 15u)
#define BTY(d) ((d)->mod >> 4 & 15u)
#define CTY(d) ((d)->mod >> 8 & 15u)

/* the fields of a shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format") */
typedef struct GDesc {
	uint32_t start;        /* bits 13-0: start address >> 4 */
	uint32_t lbo;          /* bits 29-16: leading dimension byte offset >> 4 */
	uint32_t sbo;          /* bits 45-32: stride dimension byte offset >> 4 */
	uint32_t base;         /* bits 51-49: base offset of the swizzle pattern */
	uint32_t width;        /* bits 63-62: 0 none (16), 1 128-byte, 2 64-byte, 3 32-byte swizzle */
} GDesc;

static GDesc
gdesc_of(uint64_t v)
{
	static const uint32_t width[4] = { 16, 128, 64, 32 };
	GDesc g;

	g.start = (uint32_t)(v & 0x3fff) << 4;
	g.lbo = (uint32_t)(v >> 16 & 0x3fff) << 4;
	g.sbo = (uint32_t)(v >> 32 & 0x3fff) << 4;
	g.base = (uint32_t)(v >> 49 & 7);
	g.width = width[v >> 62];
	return g;
}

/* The byte address of element (mn, k) of a matrix in shared memory, elements of eb bytes: the
 * canonical layouts of the PTX ISA ("Canonical Layouts", in CuTe terms, T = 16 / eb elements):
 *   K-major,  none:      ((8,m),(T,2k)):((1T,SBO),(1,LBO))      a core matrix is 8 rows x 16 B
 *   K-major,  W-byte:    ((8,m),(T,2k)):((W/16 T,SBO),(1,T))    rows of W bytes
 *   MN-major, none:      ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
 *   MN-major, W-byte:    ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
 * then Swizzle<log2(W/16),4,3> on the byte address: bits [4, 4 + b) ^= bits [7, 7 + b). The
 * pattern repeats every 8 rows of W bytes from an address whose bits 7..9 are the descriptor's
 * base offset (0: a 1024-byte boundary for 128 B); docs/sim-wgmma.md. */
static uint32_t
gm_addr(const GDesc *g, int mnmajor, unsigned eb, unsigned mn, unsigned k)
{
	unsigned t = 16 / eb, w = g->width;
	uint32_t off;

	if (!mnmajor && w == 16)
		off = mn % 8 * 16 + mn / 8 * g->sbo + k % t * eb + k / t * g->lbo;
	else if (!mnmajor)
		off = mn % 8 * w + mn / 8 * g->sbo + k * eb;
	else if (w == 16)
		off = mn % t * eb + mn / t * g->sbo + k % 8 * 16 + k / 8 * g->lbo;
	else
		off = mn % (w / eb) * eb + mn / (w / eb) * g->lbo + k % 8 * w + k / 8 * g->sbo;
	off += g->start;
	if (w > 16)
		off ^= (((off >> 7) - g->base) & (w / 16 - 1)) << 4;
	return off & 0x3ffff;
}

/* rows mn0 .. mn0 + n - 1 of the matrix of descriptor v as GRowBytes bytes each (K in memory
 * order); 0, or -1 after a fault */
static int
gm_rows(Exec *x, uint64_t v, int mnmajor, unsigned eb, unsigned mn0, unsigned n,
        uint8_t (*row)[GRowBytes])
{
	GDesc g = gdesc_of(v);
	unsigned ne = GRowBytes / eb;

	for (unsigned r = 0; r < n; r++)
		for (unsigned k = 0; k < ne; k++) {
			uint32_t a = gm_addr(&g, mnmajor, eb, mn0 + r, k);
			const uint8_t *p = sim_shared(x, a, eb, 0, 0);
			if (!p)
				return -1;
			memcpy(&row[r][k * eb], p, eb);
		}
	return 0;
}

/* the A fragment of four registers as the warp's 16 rows: register i holds the 8 x 16-byte
 * tile at row 8 (i & 1), byte 16 (i >> 1); lane (g, t) its row g, bytes 4t..4t+3 (PTX ISA,
 * "Matrix Fragments for wgmma.mma_async.m64nNk16", and the k8 / k32 / k256 figures alike) */
static void
gm_areg(Exec *x, const DOp *o, uint8_t (*row)[GRowBytes])
{
	for (unsigned i = 0; i < 4; i++) {
		const uint32_t *r = sim_tuple_src(x, o, i);
		for (unsigned l = 0; l < WarpSize; l++)
			memcpy(&row[8 * (i & 1) + l / 4][16 * (i >> 1) + 4 * (l % 4)], &r[l], 4);
	}
}

/* the elements of a 32-byte row of type ty as doubles, exactly */
static void
gm_elems(const uint8_t *row, unsigned ty, double *out)
{
	uint16_t h;
	uint32_t w;

	switch (ty) {
	case EF16:
	case EBF16:
		for (unsigned k = 0; k < 16; k++) {
			memcpy(&h, row + 2 * k, 2);
			out[k] = fp_to_f64(ty == EF16 ? FpF16 : FpBF16, h);
		}
		break;
	case ETF32:
		for (unsigned k = 0; k < 8; k++) {
			memcpy(&w, row + 4 * k, 4);
			out[k] = f32_of(w & 0xffffe000u);
		}
		break;
	case EE4M3:
	case EE5M2:
		for (unsigned k = 0; k < 32; k++)
			out[k] = fp_to_f64(ty == EE4M3 ? FpE4M3 : FpE5M2, row[k]);
		break;
	case ES8:
		for (unsigned k = 0; k < 32; k++)
			out[k] = (int8_t)row[k];
		break;
	default:               /* EU8 */
		for (unsigned k = 0; k < 32; k++)
			out[k] = row[k];
		break;
	}
}

/* the register and lane of element (r, n) of the warp's 16 rows, and the half (f16 only) */
static void
gm_dpos(int half, unsigned r, unsigned n, unsigned *reg, unsigned *lane, unsigned *hi)
{
	unsigned g = r & 7, h = r >> 3, t = (n & 7) >> 1;

	*lane = 4 * g + t;
	if (half) {            /* register i: rows g + 8 (i & 1), columns 8 (i >> 1) + 2t + e */
		*reg = 2 * (n >> 3) + h;
		*hi = n & 1;
	} else {               /* register i: row g + 8 ((i >> 1) & 1), column 8 (i >> 2) + 2t + (i & 1) */
		*reg = 4 * (n >> 3) + 2 * h + (n & 1);
		*hi = 0;
	}
}

/* the sums of products: s[r][n] over K elements, exact (products of at most 11-bit
 * significands summed in double; integers exactly) */
static void
gm_sums(const DIns *d, uint8_t (*a)[GRowBytes], uint8_t (*b)[GRowBytes], unsigned N,
        double (*s)[GMaxN])
{
	unsigned aty = ATY(d), bty = BTY(d), K = MMA_K(d->aux);
	double av[GRows][32], bv[32];
	double sa = d->mod & GNegA ? -1 : 1, sb = d->mod & GNegB ? -1 : 1;

	for (unsigned r = 0; r < GRows; r++)
		gm_elems(a[r], aty, av[r]);
	for (unsigned n = 0; n < N; n++) {
		gm_elems(b[n], bty, bv);
		for (unsigned k = 0; k < K; k++)
			bv[k] *= sa * sb;
		for (unsigned r = 0; r < GRows; r++) {
			double v = 0;
			for (unsigned k = 0; k < K; k++)
				v += av[r][k] * bv[k];
			s[r][n] = v;
		}
	}
}

/* BGMMA .AND.POPC: the population count of A AND B over the 256 bits of K */
static void
gm_popc(uint8_t (*a)[GRowBytes], uint8_t (*b)[GRowBytes], unsigned N, double (*s)[GMaxN])
{
	for (unsigned n = 0; n < N; n++)
		for (unsigned r = 0; r < GRows; r++) {
			unsigned c = 0;
			for (unsigned w = 0; w < GRowBytes / 4; w++) {
				uint32_t u, v;
				memcpy(&u, a[r] + 4 * w, 4);
				memcpy(&v, b[n] + 4 * w, 4);
				c += sim_popc(u & v);
			}
			s[r][n] = c;
		}
}

/* D = C + s (C read before D is written: they are often the same registers), rounded once to
 * the accumulator type; scale-d = 0 (C = RZ or a false predicate) drops C */
static void
gm_store(Exec *x, const DIns *d, double (*s)[GMaxN], unsigned N, int usec, uint32_t mask)
{
	unsigned cty = CTY(d), half = cty == EF16, nreg = half ? N / 4 : N / 2;
	uint32_t cv[GMaxN / 2][WarpSize], dv[GMaxN / 2][WarpSize];

	for (unsigned i = 0; i < nreg; i++)
		memcpy(cv[i], sim_tuple_src(x, &d->src[2], i), sizeof cv[i]);
	for (unsigned r = 0; r < GRows; r++)
		for (unsigned n = 0; n < N; n++) {
			unsigned reg, lane, hi;
			uint32_t c, out;
			gm_dpos(half, r, n, &reg, &lane, &hi);
			c = cv[reg][lane];
			if (half) {
				double v = s[r][n] + (usec ? fp_to_f64(FpF16, c >> (16 * hi) & 0xffff) : 0);
				uint32_t h = (uint32_t)fp_from_f64(FpF16, v, RmRN, 0);
				out = hi ? (dv[reg][lane] & 0xffffu) | h << 16 : h;
			} else if (cty == EF32) {
				double v = s[r][n] + (usec ? (double)f32_of(c) : 0);
				out = f32_bits((float)v);
				if (f32_isnan(out))
					out = F32_CNAN;
			} else {           /* S32: wraps, or clamps with .SAT */
				int64_t v = (int64_t)s[r][n] + (usec ? (int32_t)c : 0);
				if (d->mod & GSat)
					v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
				out = (uint32_t)v;
			}
			dv[reg][lane] = out;
		}
	for (unsigned i = 0; i < nreg; i++) {
		uint32_t *o = sim_vreg(x, &d->dst[0], i);
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			o[l] = dv[i][l];
		}
	}
}

/* One dot product accumulated in groups (docs/sim-wgmma.md, "Arithmetic"): from acc (C, or 0),
 * each group of blk products in ascending k is summed with the running sum as a block FMA: the
 * terms are aligned to the largest of them, each truncated toward zero below bits significant
 * bits of that largest term, summed exactly, and the sum truncated toward zero to binary32.
 * Exact in double for bits <= 40 (config.c's bound): at most 33 terms below 2^(bits + 1) units.
 * NaN when a term is not finite (the caller then keeps the exact rule). */
static double
gm_group_dot(double acc, const double *p, unsigned K, unsigned blk, unsigned bits)
{
	for (unsigned k0 = 0; k0 < K; k0 += blk) {
		unsigned n = K - k0 < blk ? K - k0 : blk;
		double big = fabs(acc), unit, sum;
		int e;
		for (unsigned k = k0; k < k0 + n; k++)
			big = fabs(p[k]) > big ? fabs(p[k]) : big;
		if (!isfinite(big))
			return NAN;
		if (big == 0)
			continue;
		(void)frexp(big, &e);          /* big in [2^(e-1), 2^e) */
		unit = ldexp(1.0, e - (int)bits);
		sum = trunc(acc / unit) * unit;
		for (unsigned k = k0; k < k0 + n; k++)
			sum += trunc(p[k] / unit) * unit;
		acc = f32_of((uint32_t)fp_from_f64(FpF32, sum, RmRZ, 0));
	}
	return acc;
}

/* HGMMA and QGMMA with an f32 accumulator and GpuConfig.mma_block set: s[r][n] = C + A B
 * accumulated in groups (gm_group_dot), already binary32; 0 to use the exact rule instead
 * (another type, or a term not finite) */
static int
gm_grouped(Exec *x, const DIns *d, uint8_t (*a)[GRowBytes], uint8_t (*b)[GRowBytes],
           unsigned N, int usec, double (*s)[GMaxN])
{
	const GpuConfig *g = &x->gpu->cfg;
	unsigned aty = ATY(d), bty = BTY(d), K = MMA_K(d->aux), f8 = aty == EE4M3 || aty == EE5M2;
	unsigned bits = f8 && g->mma_bits_f8 ? g->mma_bits_f8 : g->mma_bits;
	double av[GRows][32], bv[32], p[32];
	double sg = (d->mod & GNegA ? -1 : 1) * (d->mod & GNegB ? -1 : 1);

	if (!g->mma_block || CTY(d) != EF32 || (d->op != OHGMMA && d->op != OQGMMA) || K > 32)
		return 0;
	for (unsigned r = 0; r < GRows; r++)
		gm_elems(a[r], aty, av[r]);
	for (unsigned n = 0; n < N; n++) {
		gm_elems(b[n], bty, bv);
		for (unsigned r = 0; r < GRows; r++) {
			unsigned reg, lane, hi;
			double c = 0;
			gm_dpos(0, r, n, &reg, &lane, &hi);
			if (usec)
				c = f32_of(sim_tuple_src(x, &d->src[2], reg)[lane]);
			for (unsigned k = 0; k < K; k++)
				p[k] = av[r][k] * bv[k] * sg;
			s[r][n] = gm_group_dot(c, p, K, g->mma_block, bits);
			if (isnan(s[r][n]))
				return 0;
		}
	}
	return 1;
}

static void
ex_gmma(Exec *x, const DIns *d, uint32_t mask)
{
	uint8_t a[GRows][GRowBytes], b[GMaxN][GRowBytes];
	double s[GRows][GMaxN];
	unsigned N = d->aux2, eb = mma_elem_bits(ATY(d)) / 8, wr = x->w->id % 4;
	const uint32_t *ur = x->w->ur;
	unsigned u = d->src[1].reg;
	uint64_t da = ur[u] | (uint64_t)ur[u + 1] << 32, db = ur[u + 2] | (uint64_t)ur[u + 3] << 32;
	int usec;

	if (mask != ~0u) {
		sim_fault(x, FaultIllegalInstr, mask ? (unsigned)__builtin_ctz(~mask) : 0,
		          "%s with lanes 0x%08x of the warp: wgmma.mma_async is .sync.aligned, every "
		          "thread of the warpgroup executes it", optab[d->op].name, mask);
		return;
	}
	if (!eb)               /* b1 */
		eb = 1;
	if (d->mod & GAReg)
		gm_areg(x, &d->src[0], a);
	else if (gm_rows(x, da, !!(d->mod & GTnspA), eb, GRows * wr, GRows, a) < 0)
		return;
	if (gm_rows(x, db, !!(d->mod & GTnspB), eb, 0, N, b) < 0)
		return;
	usec = d->src[2].reg != RegRZ && (sim_pred(x, &d->src[3]) & 1);
	if (gm_grouped(x, d, a, b, N, usec, s)) {
		gm_store(x, d, s, N, 0, mask);     /* C is in s already */
		return;
	}
	if (d->op == OBGMMA)
		gm_popc(a, b, N, s);
	else
		gm_sums(d, a, b, N, s);
	gm_store(x, d, s, N, usec, mask);
}

/* the suffixes of gdesc[URx]: .negA .negB .tnspA .tnspB, in any order; -1 on another */
static int
gm_suffix(const char *s, uint32_t *mod)
{
	static const struct { const char *name; uint32_t bit; } words[] = {
		{ "negA", GNegA }, { "negB", GNegB }, { "tnspA", GTnspA }, { "tnspB", GTnspB },
	};

	while (s && *s) {
		const char *e = strchr(s, '.');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		unsigned k;
		for (k = 0; k < 4 && !(strlen(words[k].name) == n && !memcmp(words[k].name, s, n)); k++)
			;
		if (k == 4)
			return -1;
		*mod |= words[k].bit;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

/* the types of each family (docs/sim-wgmma.md): -1 and a note when the simulator has none */
static const char *
gm_types(const MmaForm *f)
{
	unsigned K = f->shape.k;

	if (f->shape.m != 64 || f->shape.n < 8 || f->shape.n > GMaxN || f->shape.n % 8)
		return "the shape is m64nNkK with N = 8, 16, ..., 256";
	switch (f->op) {
	case OHGMMA:
		if (f->ntype < 1 || f->ntype > 2 || (f->c != EF32 && f->c != EF16) ||
		    (f->a != EF16 && f->a != EBF16 && f->a != ETF32) || (f->a != EF16 && f->c != EF32))
			return "expected HGMMA.64xNxK.F32|F16[.BF16|.TF32]";
		if (K != (f->a == ETF32 ? 8 : 16))
			return "K is 16 for f16 and bf16 inputs, 8 for tf32";
		return NULL;
	case OQGMMA:
		if (f->ntype != 3 || (f->c != EF32 && f->c != EF16) ||
		    (f->a != EE4M3 && f->a != EE5M2) || (f->b != EE4M3 && f->b != EE5M2) || K != 32)
			return "expected QGMMA.64xNx32.F32|F16.E4M3|E5M2.E4M3|E5M2";
		return NULL;
	case OIGMMA:
		if ((f->a != ES8 && f->a != EU8) || (f->b != ES8 && f->b != EU8) || K != 32)
			return "expected IGMMA.64xNx32.S8|U8.S8|U8";
		return NULL;
	default:
		if (!f->popc || f->bop != 0 || K != 256)
			return "expected BGMMA.64xNx256.AND.POPC";
		return NULL;
	}
}

/* the operands after D: [A,] gdesc[URx][.mods], C[, UPp][, gsb0] */
static int
dec_gmma_opnds(DecodeCtx *c, const Ins *i, DIns *d, unsigned nd)
{
	int seen = 0, havec = 0;

	d->src[0].kind = DNone;
	d->src[3] = (DOp){ .kind = DUP, .reg = RegUPT };
	for (unsigned k = 1; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		if (o->kind == OMem && (o->flags & FDesc) && !seen) {
			Reg r = o->r[2];
			seen = 1;
			if (RCLS(r) != RUR || RNUM(r) + 4 > RegURZ)
				return sim_unsupported_why(c, i, "gdesc[] names UR0..UR59");
			d->src[1] = (DOp){ .kind = DUR, .reg = (uint16_t)RNUM(r), .n = 4 };
			if (o->sfx[0] && gm_suffix(mstr(c->fn->mod, o->sfx[0]), &d->mod) < 0)
				return sim_unsupported_why(c, i, "gdesc[] takes .negA .negB .tnspA .tnspB");
		} else if (o->kind == OReg && RCLS(o->r[0]) == RR && !seen && !(d->mod & GAReg)) {
			if (sim_reg_opnd(c, i, k, RR, 4, &d->src[0]) < 0)
				return -1;
			d->mod |= GAReg;
		} else if (o->kind == OReg && RCLS(o->r[0]) == RR && seen && !havec) {
			if (sim_reg_opnd(c, i, k, RR, o->r[0] == REG(RR, RegRZ) ? 1 : nd, &d->src[2]) < 0)
				return -1;
			havec = 1;
		} else if (o->kind == OReg && RCLS(o->r[0]) == RUP && havec) {
			if (sim_reg_opnd(c, i, k, RUP, 1, &d->src[3]) < 0)
				return -1;
		} else if (o->kind == OExpr && !strcmp(mstr(c->fn->mod, o->atom), "gsb0")) {
			d->mod |= GGroup;
		} else {
			return sim_unsupported_why(c, i, "expected D, [A,] gdesc[URx], C[, UPp][, gsb0]");
		}
	}
	if (!seen || !havec)
		return sim_unsupported_why(c, i, "expected D, [A,] gdesc[URx], C[, UPp][, gsb0]");
	d->nsrc = 4;
	return 0;
}

static int
dec_gmma(DecodeCtx *c, const Ins *i, DIns *d)
{
	MmaForm f;
	const char *why;
	unsigned nd;

	mma_form(c->fn->mod, i, &f);
	if (f.bad || f.sparse || f.shaped != 1)
		return sim_unsupported_why(c, i, f.sparse ? "sparse wgmma (.SP) is not simulated"
		                                          : "unknown modifier or shape");
	if ((why = gm_types(&f)) != NULL)
		return sim_unsupported_why(c, i, why);
	nd = f.c == EF16 ? f.shape.n / 4 : f.shape.n / 2;
	memset(d->dst, 0, sizeof d->dst);
	memset(d->src, 0, sizeof d->src);
	if (sim_reg_opnd(c, i, 0, RR, nd, &d->dst[0]) < 0)
		return -1;
	d->ndst = 1;
	d->mod = MMA_MOD(f.a, f.b, f.c) | (f.sat ? GSat : 0);
	if (dec_gmma_opnds(c, i, d, nd) < 0)
		return -1;
	if ((d->mod & (GNegA | GNegB)) && f.a != EF16 && f.a != EBF16)
		return sim_unsupported_why(c, i, ".negA/.negB are for f16 and bf16 inputs");
	if ((d->mod & (GTnspA | GTnspB)) && f.a != EF16 && f.a != EBF16)
		return sim_unsupported_why(c, i, ".tnspA/.tnspB are for f16 and bf16 inputs");
	d->aux = MMA_AUX(f.shape.m, f.shape.n & 0xff, f.shape.k);
	d->aux2 = f.shape.n;
	d->exec = ex_gmma;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * WARPGROUP.ARRIVE (wgmma.fence) and WARPGROUP.DEPBAR.LE gsb0, N (wgmma.wait_group N): nothing
 * to do functionally, as every HGMMA has written its registers when it issued; the timing layer
 * waits on the accumulators (timing/sm.c). aux: 0 ARRIVE, 1 DEPBAR with N in aux2.
 */
static void
ex_warpgroup(Exec *x, const DIns *d, uint32_t mask)
{
	(void)x;
	(void)d;
	(void)mask;
}

static int
dec_warpgroup(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (i->nmod == 1 && sim_hasmod(c, i, "ARRIVE") && i->nopnd == 0) {
		d->aux = 0;
	} else if (i->nmod == 2 && sim_hasmod(c, i, "DEPBAR") && sim_hasmod(c, i, "LE") &&
	           i->nopnd == 2 && i->opnd[0].kind == OExpr &&
	           !strcmp(mstr(c->fn->mod, i->opnd[0].atom), "gsb0") && i->opnd[1].kind == OImm &&
	           i->opnd[1].imm >= 0 && i->opnd[1].imm < 64) {
		d->aux = 1;
		d->aux2 = (uint32_t)i->opnd[1].imm;
	} else {
		return sim_unsupported_why(c, i, "expected WARPGROUP.ARRIVE or WARPGROUP.DEPBAR.LE "
		                                 "gsb0, N");
	}
	d->ndst = d->nsrc = 0;
	d->exec = ex_warpgroup;
	c->split_ok = 1;
	return 0;
}

void
sim_register_gmma(SimTab *t)
{
	t->dec[OHGMMA] = dec_gmma;
	t->dec[OIGMMA] = dec_gmma;
	t->dec[OQGMMA] = dec_gmma;
	t->dec[OBGMMA] = dec_gmma;
	t->dec[OWARPGROUP] = dec_warpgroup;
}
