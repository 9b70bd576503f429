/* exec_mem.c: semantics of the memory instructions: loads and stores in every space (LDG, STG,
 * LD, ST, LDS, STS, LDL, STL, LDC, ULDC), atomics and reductions (ATOM, ATOMG, ATOMS, RED, REDG),
 * cp.async (LDGSTS; LDGDEPBAR and DEPBAR are exec_ctrl.c's no-ops), the sm_80 mbarrier arrivals
 * (ARRIVES, ATOMS.ARRIVE.64) and the space query QSPC. Every access goes through mem.c
 * (sim_global, sim_shared, sim_local, sim_generic, sim_const32), which reports misaligned and
 * out-of-bounds accesses; the alignment of constant loads is checked here. The lanes of a warp
 * are applied one at a time in ascending lane order: under contention, lane 0's atomic sees the
 * value before the instruction and lane 31's sees the other lanes' updates.
 */
#include <math.h>
#include <string.h>

#include "fp.h"
#include "sim.h"

/* ---------------------------------------------------------------------------------------------
 * Decoding helpers shared by the families of this file.
 */

/* Address mode of a memory operand, decoded once: 8 bits per operand in DIns.aux2 (the first
 * memory operand in bits 0..7, LDGSTS's global source in bits 8..15). */
enum {
	AmRNone = 0,           /* bits 0..1: no R term */
	AmR32 = 1,             /* a 32-bit R offset, shifted left by the scale (bits 4..6) */
	AmR64 = 2,             /* a 64-bit R pair base */
	AmUR32 = 1 << 2,       /* bits 2..3: a 32-bit UR offset */
	AmUR64 = 2 << 2,       /* a 64-bit UR pair base */
	AmShift = 4,           /* bits 4..6: scale of an R32 index (.X4: 2, .X8: 3, .X16: 4) */
	AmTrunc = 1 << 7,      /* the address space is 32-bit: truncate the sum */
};

/* write lane of register k of destination o; RZ discards */
static inline void
wreg(Exec *x, const DOp *o, unsigned k, unsigned lane, uint32_t v)
{
	if (o->reg != RegRZ)
		sim_vreg(x, o, k)[lane] = v;
}

static int
modis(DecodeCtx *c, const Ins *i, unsigned k, const char *s)
{
	return strcmp(mstr(c->fn->mod, i->mod[k]), s) == 0;
}

static int
inlist(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* cache, scope and ordering hints that change nothing in a functional simulation */
static const char *const hints[] = {
	"CONSTANT", "STRONG", "WEAK", "GPU", "SYS", "SM", "CTA", "VC", "MMIO", "PRIVATE", "EF", "EL",
	"LU", "EU", "NA", "LTC64B", "LTC128B", "LTC256B", "BYPASS", "U", "RN", "ZD", NULL,
};

/* the modifiers of an access that does not allocate in L1: .STRONG.GPU and .STRONG.SYS
 * (ld.cg, volatile, acquire), .EF (evict first), .NA (no allocate), .MMIO, .BYPASS */
static int
bypass_mods(DecodeCtx *c, const Ins *i)
{
	static const char *const bypass[] = {"GPU", "SYS", "EF", "NA", "MMIO", "BYPASS", NULL};
	int strong = 0, scope = 0;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		if (strcmp(s, "STRONG") == 0)
			strong = 1;
		else if (inlist(s, bypass))
			scope |= strcmp(s, "GPU") && strcmp(s, "SYS") ? 2 : 1;
	}
	return (scope & 2) || (strong && (scope & 1));
}

/* operand k as n R (or V) registers, a pair or a quad aligned (sim_reg_opnd): fill o */
static int
aligned_opnd(DecodeCtx *c, const Ins *i, unsigned k, unsigned n, DOp *o)
{
	if (sim_reg_opnd(c, i, k, RR, n, o))
		return -1;
	if (o->reg != RegRZ && (n == 2 || n == 4) && o->reg % n)
		return sim_unsupported_why(c, i, "misaligned register tuple");
	return 0;
}

/* operand k is a predicate (P or UP): fill o */
static int
pred_opnd(DecodeCtx *c, const Ins *i, unsigned k, DOp *o)
{
	const Opnd *p = &i->opnd[k];

	memset(o, 0, sizeof *o);
	if (p->kind != OReg || (RCLS(p->r[0]) != RP && RCLS(p->r[0]) != RUP))
		return sim_unsupported_why(c, i, "expected a predicate");
	o->kind = RCLS(p->r[0]) == RP ? DP : DUP;
	o->reg = (uint16_t)RNUM(p->r[0]);
	o->n = 1;
	if (p->flags & (FLNot | FNot))
		o->flags |= DFNot;
	return 0;
}

static int
ispred(const Ins *i, unsigned k)
{
	return k < i->nopnd && i->opnd[k].kind == OReg &&
	       (RCLS(i->opnd[k].r[0]) == RP || RCLS(i->opnd[k].r[0]) == RUP);
}

/* Operand k is a memory operand [R + UR + imm] (desc[UR] ignored): fill o and return its
 * address mode. wide: the space is addressed with 64 bits (a .E global or generic access), where
 * an R base is a pair unless written .U32 and a UR is a pair unless an R pair is present
 * (docs/opcodes.md, "Addresses"). */
static int
mem_opnd(DecodeCtx *c, const Ins *i, unsigned k, int wide, DOp *o, unsigned *am)
{
	const Module *m = c->fn->mod;
	const Opnd *p;
	unsigned rk = AmRNone, uk = 0, shift = 0;

	if (k >= i->nopnd || i->opnd[k].kind != OMem)
		return sim_unsupported_why(c, i, "expected a memory operand");
	p = &i->opnd[k];
	memset(o, 0, sizeof *o);
	o->kind = DMem;
	o->reg = RegRZ;
	o->ureg = RegURZ;
	o->udesc = RegURZ;
	o->imm = p->imm;
	if (p->flags & FDesc) {
		o->flags |= DFDesc;
		o->udesc = (uint16_t)RNUM(p->r[2]);
	}
	for (int f = 0; f < 2; f++) {
		Reg r = p->r[f];
		const char *sfx = p->sfx[f] ? mstr(m, p->sfx[f]) : "";
		if (RCLS(r) == RR || RCLS(r) == RV) {
			if (RCLS(r) == RR && RNUM(r) == RegRZ)
				continue;
			o->reg = (uint16_t)RNUM(r);
			if (RCLS(r) == RV)
				o->flags |= DFVreg;  /* an absolute base V<n> */
			if (strcmp(sfx, "X4") == 0)
				shift = 2;
			else if (strcmp(sfx, "X8") == 0)
				shift = 3;
			else if (strcmp(sfx, "X16") == 0)
				shift = 4;
			else if (*sfx && strcmp(sfx, "64") && strcmp(sfx, "U32"))
				return sim_unsupported_why(c, i, "unknown address register suffix");
			if (wide ? strcmp(sfx, "U32") != 0 : strcmp(sfx, "64") == 0) {
				rk = AmR64;
				o->flags |= DFWide;
				if (o->reg % 2 || o->reg + 1u >= (o->flags & DFVreg ? SmVRegs : RegRZ))
					return sim_unsupported_why(c, i, "misaligned address register pair");
			} else {
				rk = AmR32;
			}
		} else if (RCLS(r) == RUR) {
			if (RNUM(r) == RegURZ)
				continue;
			o->ureg = (uint16_t)RNUM(r);
			o->flags |= DFUreg;
		} else if (r != RNone) {
			return sim_unsupported_why(c, i, "unexpected register in an address");
		}
	}
	if (o->ureg != RegURZ) {
		uk = wide && rk != AmR64 ? AmUR64 : AmUR32;
		if (uk == AmUR64 && (o->ureg % 2 || o->ureg + 1 >= RegURZ))
			return sim_unsupported_why(c, i, "misaligned address uniform register pair");
	}
	*am = rk | uk | shift << AmShift | (wide ? 0 : AmTrunc);
	return 0;
}

/* the address of lane for memory operand o with mode am */
static inline uint64_t
lane_addr(Exec *x, const DOp *o, unsigned am, unsigned lane)
{
	uint64_t a = (uint64_t)o->imm;

	switch (am & 3) {
	case AmR32:
		a += (uint64_t)sim_vreg(x, o, 0)[lane] << (am >> AmShift & 7);
		break;
	case AmR64:
		a += sim_vreg(x, o, 0)[lane] | (uint64_t)sim_vreg(x, o, 1)[lane] << 32;
		break;
	}
	switch (am & (3 << 2)) {
	case AmUR32:
		a += x->w->ur[o->ureg];
		break;
	case AmUR64:
		a += x->w->ur[o->ureg] | (uint64_t)x->w->ur[o->ureg + 1] << 32;
		break;
	}
	return am & AmTrunc ? (uint32_t)a : a;
}

typedef uint8_t *(*MemFn)(Exec *x, uint64_t addr, unsigned n, unsigned lane, int write);

/* ---------------------------------------------------------------------------------------------
 * Loads and stores: LDG, LD, LDS, LDL (d = dst[0], address src[0]), STG, ST, STS, STL (address
 * src[0], data src[1]). aux: bytes (1, 2, 4, 8, 16); mod: LSigned for .S8/.S16; aux2: address
 * mode.
 */
enum {
	LSigned = 1 << 0,      /* sign-extend a .S8/.S16 load */
	LBypass = 1 << 1,      /* .STRONG.GPU/.SYS, .EF, .NA, .MMIO: not cached in L1 (timing) */
};

/* the n bytes (1..16) that lane stores: its data registers o[0..3], lowest first */
static inline void
store_lane(uint8_t *dst, const uint32_t *const o[4], unsigned lane, unsigned n)
{
	uint32_t v[4];

	for (unsigned k = 0; k < (n + 3) / 4; k++)
		v[k] = o[k][lane];
	memcpy(dst, v, n);
}

/* the size modifiers: bytes, and sign for loads; 0 if s is not one */
static unsigned
sizemod(const char *s, uint32_t *flags)
{
	static const struct { const char *name; unsigned n; uint32_t flags; } t[] = {
		{"U8", 1, 0}, {"S8", 1, LSigned}, {"U16", 2, 0}, {"S16", 2, LSigned}, {"32", 4, 0},
		{"64", 8, 0}, {"128", 16, 0},
	};
	for (unsigned k = 0; k < sizeof t / sizeof t[0]; k++)
		if (strcmp(s, t[k].name) == 0) {
			*flags |= t[k].flags;
			return t[k].n;
		}
	return 0;
}

/* always inlined: the size and the space become constants of each caller */
#define INLINE static inline __attribute__((always_inline))

/* the memory space of a load or store instantiation */
enum { SpGlobal, SpShared, SpLocal, SpGeneric };

/* its MemSpace, for the timing model's record */
static const uint8_t sp_mspace[] = {
	[SpGlobal] = MSGlobal, [SpShared] = MSShared, [SpLocal] = MSLocal, [SpGeneric] = MSGeneric,
};

/* Warp-wide fast path of a load or store: the lanes' addresses go to a[]; if every lane's
 * access of n bytes is aligned and lies in one place that needs no per-lane check (one live
 * allocation, the CTA's shared memory, the threads' local windows), returns 1 with the host
 * address of lane l being *data + l * *stride + (a[l] - *base). Otherwise 0: the caller takes
 * the per-lane path through mem.c, which reports the fault of the first bad lane exactly. */
INLINE int
warp_span(Exec *x, const DOp *o, unsigned am, uint32_t mask, unsigned n, int space,
          uint64_t a[WarpSize], uint8_t **data, uint64_t *base, uint64_t *stride)
{
	uint64_t lo = UINT64_MAX, hi = 0, any = 0, off = (uint64_t)o->imm;
	const uint32_t *r0, *r1;
	unsigned sh = am >> AmShift & 7;

	/* lane_addr for all 32 lanes (inactive ones are computed and ignored): the UR term and
	 * the offset are common, the sum is the same modulo 2^64 */
	switch (am & (3 << 2)) {
	case AmUR32:
		off += x->w->ur[o->ureg];
		break;
	case AmUR64:
		off += x->w->ur[o->ureg] | (uint64_t)x->w->ur[o->ureg + 1] << 32;
		break;
	}
	switch (am & 3) {
	case AmR32:
		r0 = sim_vreg(x, o, 0);
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = off + ((uint64_t)r0[l] << sh);
		break;
	case AmR64:
		r0 = sim_vreg(x, o, 0);
		r1 = sim_vreg(x, o, 1);
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = off + (r0[l] | (uint64_t)r1[l] << 32);
		break;
	default:
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = off;
		break;
	}
	if (am & AmTrunc)
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = (uint32_t)a[l];
	if (mask == ~0u) {
		for (unsigned l = 0; l < WarpSize; l++) {
			uint64_t v = a[l];
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			any |= v;
		}
	} else {
		for (uint32_t m = mask; m; m &= m - 1) {
			uint64_t v = a[(unsigned)__builtin_ctz(m)];
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			any |= v;
		}
	}
	if (any & (n - 1))
		return 0;
	*stride = 0;
	if (space == SpGeneric) {
		if (lo - SimSharedWindow < SimWindowSize && hi - SimSharedWindow < SimWindowSize) {
			lo -= SimSharedWindow;
			hi -= SimSharedWindow;
			*base = SimSharedWindow;
			space = SpShared;
		} else if (lo - SimLocalWindow < SimWindowSize && hi - SimLocalWindow < SimWindowSize) {
			lo -= SimLocalWindow;
			hi -= SimLocalWindow;
			*base = SimLocalWindow;
			space = SpLocal;
		} else if (lo >= SimGlobalBase) {
			space = SpGlobal;  /* every allocation lies above both windows */
		} else {
			return 0;
		}
	} else {
		*base = 0;
	}
	if (space == SpShared) {
		Cta *c = x->cta;
		if (hi >= c->smem_size || n > c->smem_size - hi)
			return 0;
		if (c->peer && *base)  /* a generic address in a cluster: rank bits 0 are rank 0's */
			return 0;
		*data = c->smem;
		return 1;
	}
	if (space == SpLocal) {
		Cta *c = x->cta;
		if (hi >= c->lsize || n > c->lsize - hi)
			return 0;
		*data = c->lmem + (uint64_t)x->w->id * WarpSize * c->lsize;
		*stride = c->lsize;
		return 1;
	}
	{
		Gpu *g = x->gpu;
		Alloc *al = x->alast;
		if (!al || lo - al->base >= al->size) {
			uint32_t l = 0, h = g->nalloc;
			while (l < h) {
				uint32_t mid = l + (h - l) / 2;
				if (g->alloc[mid]->base + g->alloc[mid]->size <= lo)
					l = mid + 1;
				else
					h = mid;
			}
			if (l >= g->nalloc || lo < g->alloc[l]->base)
				return 0;
			al = g->alloc[l];
			x->alast = al;
		}
		if (al->freed || hi - al->base >= al->size || n > al->size - (hi - al->base))
			return 0;
		*data = al->data;
		*base = al->base;
		return 1;
	}
}

/* one load of n bytes (a constant after inlining) per lane of mask */
INLINE void
load_n(Exec *x, const DIns *d, uint32_t mask, MemFn mem, unsigned n, int space)
{
	unsigned am = d->aux2 & 0xff, r = d->dst[0].reg, sg = d->mod & LSigned;
	uint32_t *o[4] = {NULL, NULL, NULL, NULL};
	uint64_t a[WarpSize], base, stride;
	uint8_t *data;

	int span = warp_span(x, &d->src[0], am, mask, n, space, a, &data, &base, &stride);

	sim_mlog(x, sp_mspace[space], MKLoad, n, d->mod & LBypass ? MAL1Bypass : 0, mask, a);
	if (r != RegRZ)
		for (unsigned k = 0; k < (n + 3) / 4; k++)
			o[k] = sim_vreg(x, &d->dst[0], k);
	if (span) {
		if (!o[0])
			return;
		if (n >= 4 && mask == ~0u) {
			for (unsigned lane = 0; lane < WarpSize; lane++) {
				const uint8_t *p = data + lane * stride + (a[lane] - base);
				uint32_t v[4];

				memcpy(v, p, n);
				o[0][lane] = v[0];
				if (n >= 8)
					o[1][lane] = v[1];
				if (n >= 16) {
					o[2][lane] = v[2];
					o[3][lane] = v[3];
				}
			}
			return;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned lane = (unsigned)__builtin_ctz(m);
			const uint8_t *p = data + lane * stride + (a[lane] - base);
			uint32_t v[4];
			uint16_t h;

			switch (n) {
			case 1:
				o[0][lane] = sg ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
				break;
			case 2:
				memcpy(&h, p, 2);
				o[0][lane] = sg ? (uint32_t)(int32_t)(int16_t)h : h;
				break;
			default:
				memcpy(v, p, n);
				o[0][lane] = v[0];
				if (n >= 8)
					o[1][lane] = v[1];
				if (n >= 16) {
					o[2][lane] = v[2];
					o[3][lane] = v[3];
				}
				break;
			}
		}
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		const uint8_t *p = mem(x, a[lane], n, lane, 0);
		uint32_t v[4];
		uint16_t h;

		if (!p)
			return;
		if (!o[0])
			continue;
		switch (n) {
		case 1:
			o[0][lane] = sg ? (uint32_t)(int32_t)(int8_t)p[0] : p[0];
			break;
		case 2:
			memcpy(&h, p, 2);
			o[0][lane] = sg ? (uint32_t)(int32_t)(int16_t)h : h;
			break;
		default:
			memcpy(v, p, n);
			for (unsigned k = 0; k < n / 4; k++)
				o[k][lane] = v[k];
			break;
		}
	}
}

INLINE void
store_n(Exec *x, const DIns *d, uint32_t mask, MemFn mem, unsigned n, int space)
{
	unsigned am = d->aux2 & 0xff;
	const uint32_t *o[4];
	uint64_t a[WarpSize], base, stride;
	uint8_t *data;

	int span = warp_span(x, &d->src[0], am, mask, n, space, a, &data, &base, &stride);

	sim_mlog(x, sp_mspace[space], MKStore, n, d->mod & LBypass ? MAL1Bypass : 0, mask, a);
	for (unsigned k = 0; k < (n + 3) / 4; k++)
		o[k] = sim_tuple_src(x, &d->src[1], k);
	if (span) {
		if (mask == ~0u) {
			for (unsigned lane = 0; lane < WarpSize; lane++)
				store_lane(data + lane * stride + (a[lane] - base), o, lane, n);
			return;
		}
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned lane = (unsigned)__builtin_ctz(m);

			store_lane(data + lane * stride + (a[lane] - base), o, lane, n);
		}
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = mem(x, a[lane], n, lane, 1);

		if (!p)
			return;
		store_lane(p, o, lane, n);
	}
}

/* the access size as a constant for each instantiation */
#define SIZED(f, x, d, mask, mem, sp) \
	switch ((d)->aux) { \
	case 1: f(x, d, mask, mem, 1, sp); break; \
	case 2: f(x, d, mask, mem, 2, sp); break; \
	case 4: f(x, d, mask, mem, 4, sp); break; \
	case 8: f(x, d, mask, mem, 8, sp); break; \
	default: f(x, d, mask, mem, 16, sp); break; \
	}

static void ex_ldg(Exec *x, const DIns *d, uint32_t mask) { SIZED(load_n, x, d, mask, sim_global, SpGlobal) }
static void ex_ld(Exec *x, const DIns *d, uint32_t mask) { SIZED(load_n, x, d, mask, sim_generic, SpGeneric) }
static void ex_lds(Exec *x, const DIns *d, uint32_t mask) { SIZED(load_n, x, d, mask, sim_shared, SpShared) }
static void ex_ldl(Exec *x, const DIns *d, uint32_t mask) { SIZED(load_n, x, d, mask, sim_local, SpLocal) }
static void ex_stg(Exec *x, const DIns *d, uint32_t mask) { SIZED(store_n, x, d, mask, sim_global, SpGlobal) }
static void ex_st(Exec *x, const DIns *d, uint32_t mask) { SIZED(store_n, x, d, mask, sim_generic, SpGeneric) }
static void ex_sts(Exec *x, const DIns *d, uint32_t mask) { SIZED(store_n, x, d, mask, sim_shared, SpShared) }
static void ex_stl(Exec *x, const DIns *d, uint32_t mask) { SIZED(store_n, x, d, mask, sim_local, SpLocal) }

/* LDG.E.64.CONSTANT Rd, [R2.64+0x8]; STS.U16 [R5], R2; LDL.128 R4, [R1+0x10] */
static int
dec_ldst(DecodeCtx *c, const Ins *i, DIns *d)
{
	int op = i->op, load = op == OLDG || op == OLD || op == OLDS || op == OLDL;
	int g = op == OLDG || op == OLD || op == OSTG || op == OST, wide = 0;
	unsigned n = 4, am;
	uint32_t flags = 0;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		unsigned sz = sizemod(s, &flags);
		if (sz)
			n = sz;
		else if (g && strcmp(s, "E") == 0)
			wide = 1;
		else if (!inlist(s, hints))
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (bypass_mods(c, i))
		flags |= LBypass;
	if (!load)
		flags &= ~(uint32_t)LSigned;
	if (i->nopnd != 2)
		return sim_unsupported_why(c, i, "expected two operands");
	if (load) {
		if (aligned_opnd(c, i, 0, (n + 3) / 4, &d->dst[0]) ||
		    mem_opnd(c, i, 1, wide, &d->src[0], &am))
			return -1;
		d->ndst = 1;
		d->nsrc = 1;
	} else {
		if (mem_opnd(c, i, 0, wide, &d->src[0], &am) ||
		    aligned_opnd(c, i, 1, (n + 3) / 4, &d->src[1]))
			return -1;
		d->ndst = 0;
		d->nsrc = 2;
	}
	d->aux = n;
	d->aux2 = am;
	d->mod = flags;
	switch (op) {
	case OLDG: d->exec = ex_ldg; break;
	case OLD: d->exec = ex_ld; break;
	case OLDS: d->exec = ex_lds; break;
	case OLDL: d->exec = ex_ldl; break;
	case OSTG: d->exec = ex_stg; break;
	case OST: d->exec = ex_st; break;
	case OSTS: d->exec = ex_sts; break;
	default: d->exec = ex_stl; break;
	}
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Constant loads: LDC Rd, c[bank][Rx + imm] (per lane), ULDC URd, c[bank][URx + imm] (uniform),
 * and the cx[URb][...] forms whose bank comes from a uniform register. src[0] is the DCBank
 * operand as sim.h describes it: bank, reg (R index, 255 none), ureg (UR index, 63 none), udesc
 * (the bank register of cx[], with DFCx) and imm. aux: bytes; mod: LSigned.
 */

/* bytes n at offset off of bank b, little-endian, through the 32-bit words of mem.c */
static inline uint64_t
cload(Exec *x, unsigned b, uint32_t off, unsigned n, unsigned lane)
{
	uint32_t w0 = sim_const32(x, b, off & ~3u, lane);

	switch (n) {
	case 1: return w0 >> (off & 3) * 8 & 0xff;
	case 2: return w0 >> (off & 2) * 8 & 0xffff;
	case 4: return w0;
	default: return w0 | (uint64_t)sim_const32(x, b, off + 4, lane) << 32;
	}
}

static inline uint32_t
cext(uint64_t v, unsigned n, uint32_t mod)
{
	if (!(mod & LSigned))
		return (uint32_t)v;
	return n == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
}

/* the bank and offset of lane, unchecked */
static inline uint32_t
cbank_off(Exec *x, const DIns *d, unsigned lane, unsigned *bank)
{
	const DOp *o = &d->src[0];
	uint32_t a = (uint32_t)o->imm;

	*bank = o->flags & DFCx ? x->w->ur[o->udesc] : o->bank;
	if (o->ureg != RegURZ)
		a += x->w->ur[o->ureg];
	if (o->reg != RegRZ)
		a += sim_vreg(x, o, 0)[lane];
	return a;
}

/* record the constant reads of the lanes of mask for the timing model: bank << 16 | offset */
static void
cbank_log(Exec *x, const DIns *d, uint32_t mask)
{
	uint64_t a[WarpSize];
	unsigned bank;

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint32_t off = cbank_off(x, d, lane, &bank);
		a[lane] = (uint64_t)bank << 16 | (off & 0xffff);
	}
	sim_mlog(x, MSConst, MKLoad, d->aux, 0, mask, a);
}

/* the bank and offset of lane; -1 after a fault */
static inline int
caddr(Exec *x, const DIns *d, unsigned lane, unsigned *bank, uint32_t *off)
{
	uint32_t a = cbank_off(x, d, lane, bank);

	if (a & (d->aux - 1)) {
		sim_fault(x, FaultMisaligned, lane, "misaligned %u-byte constant read at c[0x%x][0x%x]",
		          d->aux, *bank, a);
		return -1;
	}
	*off = a;
	return 0;
}

static void
ex_ldc(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned n = d->aux, r = d->dst[0].reg, bank;
	uint32_t off;
	uint64_t v = 0;

	if (!mask)
		return;
	if (x->mlog)
		cbank_log(x, d, mask);
	if (d->src[0].reg == RegRZ) {
		/* the same word for every lane */
		if (caddr(x, d, (unsigned)__builtin_ctz(mask), &bank, &off))
			return;
		v = cload(x, bank, off, n, (unsigned)__builtin_ctz(mask));
		if (x->fault && x->fault->kind != FaultNone)
			return;
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned lane = (unsigned)__builtin_ctz(m);
			wreg(x, &d->dst[0], 0, lane, cext(v, n, d->mod));
			if (n == 8 && r != RegRZ)
				sim_vreg(x, &d->dst[0], 1)[lane] = (uint32_t)(v >> 32);
		}
		return;
	}
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		if (caddr(x, d, lane, &bank, &off))
			return;
		v = cload(x, bank, off, n, lane);
		if (x->fault && x->fault->kind != FaultNone)
			return;
		wreg(x, &d->dst[0], 0, lane, cext(v, n, d->mod));
		if (n == 8 && r != RegRZ)
			sim_vreg(x, &d->dst[0], 1)[lane] = (uint32_t)(v >> 32);
	}
}

static void
ex_uldc(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned n = d->aux, r = d->dst[0].reg, bank, lane;
	uint32_t off;
	uint64_t v;

	if (!mask)
		return;
	lane = (unsigned)__builtin_ctz(mask);
	if (x->mlog)
		cbank_log(x, d, 1u << lane);
	if (caddr(x, d, lane, &bank, &off))
		return;
	v = cload(x, bank, off, n, lane);
	if (x->fault && x->fault->kind != FaultNone)
		return;
	if (r == RegURZ)
		return;
	x->w->ur[r] = cext(v, n, d->mod);
	if (n == 8)
		x->w->ur[r + 1] = (uint32_t)(v >> 32);
}

/* LDC.64 R10, c[0x0][0x210]; LDC R5, c[0x3][R2+0x10]; ULDC.U16 UR7, c[0x0][0x310] */
static int
dec_ldc(DecodeCtx *c, const Ins *i, DIns *d)
{
	int u = i->op == OULDC;
	unsigned n = 4;
	uint32_t flags = 0;
	const Opnd *p, *q;
	DOp *o = &d->src[0];

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		unsigned sz = sizemod(s, &flags);
		if (!sz || sz == 16)
			return sim_unsupported_why(c, i, "unknown modifier");
		n = sz;
	}
	if (i->nopnd != 2 || i->opnd[1].kind != OCBank)
		return sim_unsupported_why(c, i, "expected a register and a constant bank");
	p = &i->opnd[0];
	q = &i->opnd[1];
	if (u) {
		if (p->kind != OReg || RCLS(p->r[0]) != RUR)
			return sim_unsupported_why(c, i, "expected a uniform register");
		memset(&d->dst[0], 0, sizeof d->dst[0]);
		d->dst[0].kind = DUR;
		d->dst[0].reg = (uint16_t)RNUM(p->r[0]);
		d->dst[0].n = (uint8_t)(n == 8 ? 2 : 1);
		if (d->dst[0].reg != RegURZ && d->dst[0].reg + d->dst[0].n > RegURZ)
			return sim_unsupported_why(c, i, "register range past UR62");
	} else if (aligned_opnd(c, i, 0, n == 8 ? 2 : 1, &d->dst[0])) {
		return -1;
	}
	memset(o, 0, sizeof *o);
	o->kind = DCBank;
	o->reg = RegRZ;
	o->ureg = RegURZ;
	o->udesc = RegURZ;
	o->imm = q->imm;
	o->bank = (uint16_t)q->imm2;
	if (q->flags & FCx) {
		o->flags |= DFCx;
		o->udesc = (uint16_t)RNUM(q->r[1]);
	}
	if (RCLS(q->r[0]) == RR && RNUM(q->r[0]) != RegRZ) {
		if (u)
			return sim_unsupported_why(c, i, "a per-lane index in a uniform load");
		o->reg = (uint16_t)RNUM(q->r[0]);
	} else if (RCLS(q->r[0]) == RUR && RNUM(q->r[0]) != RegURZ) {
		o->ureg = (uint16_t)RNUM(q->r[0]);
		o->flags |= DFUreg;
	} else if (q->r[0] != RNone && !reg_isconst(q->r[0])) {
		return sim_unsupported_why(c, i, "unexpected constant bank index");
	}
	if (!(q->flags & FCx) && o->bank >= NumCBanks)
		return sim_unsupported_why(c, i, "constant bank out of range");
	d->ndst = 1;
	d->nsrc = 1;
	d->aux = n;
	d->mod = flags;
	d->exec = u ? ex_uldc : ex_ldc;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Atomics and reductions. ATOMG/ATOM: [Pd,] Rd, [addr], Rb[, Rc]; ATOMS: Rd, [addr], Rb[, Rc];
 * RED/REDG: [addr], Rb. dst[0] the old value (DNone for reductions), dst[1] the predicate
 * (DNone if absent), src[0] the address, src[1] the data, src[2] the swap value of CAS.
 * mod: AOp | AType << 4 | AFtz; aux: bytes; aux2: address mode.
 *
 * ATOMS.POPC.INC.32 RZ, [addr] is nvcc's atomicAdd(&smem[i], 1) with an unused result: the
 * hardware adds, to each distinct address, the number of active lanes naming it (a popcount of
 * their match); the simulator adds 1 per lane in lane order, the same sum. It has no data
 * operand and, as nvcc writes it, no result (a destination other than RZ is rejected).
 *
 * The predicate of a generic ATOM says the hardware performed the operation; nvcc falls back
 * to a CAS loop on shared memory when it is false (`QSPC.E.S`). The simulator performs every
 * generic atomic in place, shared or global, and sets it true: the fallback never runs, with the
 * same result.
 */
enum AOp {
	AAdd, AMin, AMax, AInc, ADec, AAnd, AOr, AXor, AExch, ACas, ACast, AArrive,
	APopcInc,              /* ATOMS.POPC.INC.32: no data operand, adds 1 per lane (below) */
	NAOp
};

enum AType {
	TU32, TS32, TU64, TS64, TF32, TF64, TF16x2, TBF16x2, TF32x2, TF32x4, TF16x4, TBF16x4, TB128,
	NAType
};

enum {
	AFtz = 1 << 8,         /* .FTZ: flush f32 denormal inputs and results to zero */
};

static const struct { const char *name; uint8_t bytes; } atypes[NAType] = {
	[TU32] = {"U32", 4}, [TS32] = {"S32", 4}, [TU64] = {"U64", 8}, [TS64] = {"S64", 8},
	[TF32] = {"F32", 4}, [TF64] = {"F64", 8}, [TF16x2] = {"F16x2", 4}, [TBF16x2] = {"BF16x2", 4},
	[TF32x2] = {"F32x2", 8}, [TF32x4] = {"F32x4", 16}, [TF16x4] = {"F16x4", 8},
	[TBF16x4] = {"BF16x4", 8}, [TB128] = {"128", 16},
};

static const char *const aops[NAOp] = {
	[AAdd] = "ADD", [AMin] = "MIN", [AMax] = "MAX", [AInc] = "INC", [ADec] = "DEC",
	[AAnd] = "AND", [AOr] = "OR", [AXor] = "XOR", [AExch] = "EXCH", [ACas] = "CAS",
	[ACast] = "CAST", [AArrive] = "ARRIVE", [APopcInc] = "POPC.INC",
};

static inline float
ftz32(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* f32 add of the atomics: round to nearest, canonical NaN */
static uint32_t
fadd32(uint32_t a, uint32_t b, int ftz)
{
	float x = f32_of(a), y = f32_of(b), r;

	if (ftz) {
		x = ftz32(x);
		y = ftz32(y);
	}
	r = x + y;
	if (ftz)
		r = ftz32(r);
	return isnan(r) ? F32_CNAN : f32_bits(r);
}

/* two packed halves (bf: bfloat16) added lane-wise, each rounded once */
static uint32_t
hadd2(uint32_t a, uint32_t b, int bf)
{
	uint32_t r = 0;

	for (int k = 0; k < 2; k++) {
		uint32_t x = a >> 16 * k & 0xffff, y = b >> 16 * k & 0xffff;
		double s = bf ? (double)bf16_to_f32(x) + bf16_to_f32(y)
		              : (double)f16_to_f32(x) + f16_to_f32(y);
		r |= (uint32_t)fp_from_f64(bf ? FpBF16 : FpF16, s, RmRN, 0) << 16 * k;
	}
	return r;
}

/* One lane's read-modify-write of the bytes at p with data b (and c for CAS); the value the
 * instruction returns goes to ret. */
static void
rmw(unsigned mod, unsigned n, uint8_t *p, const uint32_t *b, const uint32_t *c, uint32_t *ret)
{
	unsigned op = mod & 15, ty = mod >> 4 & 15;
	int ftz = !!(mod & AFtz);
	uint32_t o[4], v[4];

	memcpy(o, p, n);
	memcpy(ret, o, n);
	memcpy(v, o, n);
	if (op == AExch) {
		memcpy(v, b, n);
	} else if (op == ACas || op == ACast) {
		int eq = memcmp(o, b, n) == 0;
		if (eq)
			memcpy(v, c, n);
		if (op == ACast) {
			memset(ret, 0, n);
			ret[0] = (uint32_t)eq;
		}
	} else if (n == 4 && (ty == TU32 || ty == TS32)) {
		uint32_t x = o[0], y = b[0];
		switch (op) {
		case AAdd: v[0] = x + y; break;
		case AMin: v[0] = ty == TS32 ? ((int32_t)x < (int32_t)y ? x : y) : (x < y ? x : y); break;
		case AMax: v[0] = ty == TS32 ? ((int32_t)x > (int32_t)y ? x : y) : (x > y ? x : y); break;
		case AInc: v[0] = x >= y ? 0 : x + 1; break;
		case ADec: v[0] = x == 0 || x > y ? y : x - 1; break;
		case AAnd: v[0] = x & y; break;
		case AOr: v[0] = x | y; break;
		case AXor: v[0] = x ^ y; break;
		}
	} else if (ty == TU64 || ty == TS64) {
		uint64_t x = o[0] | (uint64_t)o[1] << 32, y = b[0] | (uint64_t)b[1] << 32, z = x;
		switch (op) {
		case AAdd: z = x + y; break;
		case AMin: z = ty == TS64 ? ((int64_t)x < (int64_t)y ? x : y) : (x < y ? x : y); break;
		case AMax: z = ty == TS64 ? ((int64_t)x > (int64_t)y ? x : y) : (x > y ? x : y); break;
		case AAnd: z = x & y; break;
		case AOr: z = x | y; break;
		case AXor: z = x ^ y; break;
		}
		v[0] = (uint32_t)z;
		v[1] = (uint32_t)(z >> 32);
	} else if (ty == TF64) {
		double r = f64_of(o[0] | (uint64_t)o[1] << 32) + f64_of(b[0] | (uint64_t)b[1] << 32);
		uint64_t z = isnan(r) ? F64_CNAN : f64_bits(r);
		v[0] = (uint32_t)z;
		v[1] = (uint32_t)(z >> 32);
	} else {
		/* f32, f32x2, f32x4, f16x2, f16x4, bf16x2, bf16x4 adds: one 32-bit word at a time */
		for (unsigned k = 0; k < n / 4; k++)
			v[k] = ty == TF32 || ty == TF32x2 || ty == TF32x4 ? fadd32(o[k], b[k], ftz) :
			       hadd2(o[k], b[k], ty == TBF16x2 || ty == TBF16x4);
	}
	memcpy(p, v, n);
}

/* sm_80 mbarrier, as nvcc's lowering of mbarrier.init/arrive/test_wait reads it: word 0 holds
 * 0x40000000 - expected count; word 1 holds the phase in bit 31 and 0x80000000 - the arrivals
 * still pending in bits 0..30. An arrival adds 1 to word 1; when the count part carries into bit
 * 31 the phase flips and the pending count is reloaded from word 0. */
static void
mbar_arrive(uint8_t *p)
{
	uint32_t w0, w1, cnt;

	memcpy(&w0, p, 4);
	memcpy(&w1, p + 4, 4);
	cnt = (w1 & 0x7fffffffu) + 1;
	if (cnt & 0x80000000u)
		w1 = (~w1 & 0x80000000u) | ((0x80000000u - (0x40000000u - w0)) & 0x7fffffffu);
	else
		w1 = (w1 & 0x80000000u) | cnt;
	memcpy(p + 4, &w1, 4);
}

/* record the lanes' addresses of the memory operand (src[0]) for the timing model */
static void
addr_log(Exec *x, const DIns *d, uint32_t mask, unsigned space, unsigned kind, unsigned size)
{
	uint64_t a[WarpSize];

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		a[lane] = lane_addr(x, &d->src[0], d->aux2 & 0xff, lane);
	}
	sim_mlog(x, space, kind, size, 0, mask, a);
}

INLINE void
do_atom(Exec *x, const DIns *d, uint32_t mask, MemFn mem, unsigned space)
{
	unsigned n = d->aux, nw = (n + 3) / 4, am = d->aux2 & 0xff, op = d->mod & 15;
	unsigned rd = d->dst[0].kind == DR ? d->dst[0].reg : RegRZ;
	unsigned ty = d->mod >> 4 & 15;
	int fast = n == 4 && (ty == TU32 || ty == TS32), sg = ty == TS32;

	if (x->mlog)
		addr_log(x, d, mask, space, d->ndst ? MKAtomic : MKRed, n);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint64_t a = lane_addr(x, &d->src[0], am, lane);
		uint8_t *p = mem(x, a, n, lane, 1);
		uint32_t b[4] = {0}, c[4] = {0}, ret[4];

		if (!p)
			return;
		if (op == AArrive) {
			memcpy(ret, p, 8);
			mbar_arrive(p);
		} else if (fast) {
			/* 32-bit integer operations, the common case, without the general path */
			uint32_t o, v, y = sim_tuple_src(x, &d->src[1], 0)[lane];
			memcpy(&o, p, 4);
			switch (op) {
			case AAdd: v = o + y; break;
			case AMin: v = sg ? ((int32_t)o < (int32_t)y ? o : y) : (o < y ? o : y); break;
			case AMax: v = sg ? ((int32_t)o > (int32_t)y ? o : y) : (o > y ? o : y); break;
			case AInc: v = o >= y ? 0 : o + 1; break;
			case ADec: v = o == 0 || o > y ? y : o - 1; break;
			case AAnd: v = o & y; break;
			case AOr: v = o | y; break;
			case AXor: v = o ^ y; break;
			case AExch: v = y; break;
			case APopcInc: v = o + 1; break;
			default: /* CAS, CAST */
				v = o == y ? sim_tuple_src(x, &d->src[2], 0)[lane] : o;
				if (op == ACast)
					o = o == y;
				break;
			}
			memcpy(p, &v, 4);
			ret[0] = o;
		} else {
			for (unsigned k = 0; k < nw; k++) {
				b[k] = sim_tuple_src(x, &d->src[1], k)[lane];
				if (op == ACas || op == ACast)
					c[k] = sim_tuple_src(x, &d->src[2], k)[lane];
			}
			rmw(d->mod, n, p, b, c, ret);
		}
		if (rd != RegRZ)
			for (unsigned k = 0; k < nw; k++)
				sim_vreg(x, &d->dst[0], k)[lane] = ret[k];
	}
	if (d->dst[1].kind == DP)
		sim_dst_pred(x, &d->dst[1], mask, mask);
}

static void ex_atomg(Exec *x, const DIns *d, uint32_t mask) { do_atom(x, d, mask, sim_global, MSGlobal); }
static void ex_atom(Exec *x, const DIns *d, uint32_t mask) { do_atom(x, d, mask, sim_generic, MSGeneric); }
static void ex_atoms(Exec *x, const DIns *d, uint32_t mask) { do_atom(x, d, mask, sim_shared, MSShared); }

/* ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R24, [R22.64], R28; ATOMS.CAST.SPIN.64 R10, [R13], R8,
 * R10; REDG.E.MIN.S32.STRONG.GPU desc[UR4][R2.64], R11; ATOMS.ARRIVE.64 R2, [URZ+0x1400] */
static int
dec_atom(DecodeCtx *c, const Ins *i, DIns *d)
{
	int op = i->op, red = op == ORED || op == OREDG, wide = 0;
	int g = op != OATOMS;
	unsigned aop = NAOp, ty = TU32, n, k = 0, am, nw;
	uint32_t flags = 0;
	int sized = 0, popc = 0;

	for (unsigned j = 0; j < i->nmod; j++) {
		const char *s = mstr(c->fn->mod, i->mod[j]);
		unsigned t;
		if (strcmp(s, "POPC") == 0 && !popc && aop == NAOp) {
			popc = 1;                /* POPC.INC: the next modifier must be INC */
			continue;
		}
		for (t = 0; t < NAOp && strcmp(s, aops[t]); t++)
			;
		if (t < NAOp && aop == NAOp) {
			aop = t;
			continue;
		}
		for (t = 0; t < NAType && strcmp(s, atypes[t].name); t++)
			;
		if (t < NAType && !sized) {
			ty = t;
			sized = 1;
		} else if (strcmp(s, "64") == 0 && !sized) {
			ty = TU64;
			sized = 1;
		} else if (strcmp(s, "32") == 0 && !sized) {
			ty = TU32;
			sized = 1;
		} else if (strcmp(s, "FTZ") == 0) {
			flags |= AFtz;
		} else if (g && strcmp(s, "E") == 0) {
			wide = 1;
		} else if (strcmp(s, "SPIN") == 0 && aop == ACast) {
			;
		} else if (!inlist(s, hints)) {
			return sim_unsupported_why(c, i, "unknown modifier");
		}
	}
	if (aop == NAOp)
		return sim_unsupported_why(c, i, "no operation");
	if (popc) {
		if (aop != AInc || op != OATOMS || ty != TU32)
			return sim_unsupported_why(c, i, "POPC is ATOMS.POPC.INC.32");
		aop = APopcInc;
	}
	n = atypes[ty].bytes;
	if (aop == AArrive) {
		if (op != OATOMS || ty != TU64 || red)
			return sim_unsupported_why(c, i, "ARRIVE is ATOMS.ARRIVE.64");
	} else if (ty == TB128 && aop != AExch) {
		return sim_unsupported_why(c, i, "128-bit atomics are exchanges");
	} else if (ty >= TF32 && ty != TB128 && aop != AAdd && aop != AExch && aop != ACas) {
		return sim_unsupported_why(c, i, "floating-point atomics add");
	} else if ((ty == TU64 || ty == TS64) && (aop == AInc || aop == ADec)) {
		return sim_unsupported_why(c, i, "64-bit INC/DEC");
	} else if ((aop == ACas || aop == ACast) && n != 4 && n != 8) {
		return sim_unsupported_why(c, i, "CAS is 32 or 64 bits");
	}
	nw = (n + 3) / 4;
	memset(d->dst, 0, sizeof d->dst);
	memset(d->src, 0, sizeof d->src);
	d->src[1].reg = d->src[2].reg = RegRZ;
	if (!red && ispred(i, k)) {
		if (pred_opnd(c, i, k++, &d->dst[1]))
			return -1;
		if (d->dst[1].kind != DP)
			return sim_unsupported_why(c, i, "expected a predicate");
	}
	if (!red && aligned_opnd(c, i, k++, nw, &d->dst[0]))
		return -1;
	if (aop == APopcInc && d->dst[0].reg != RegRZ)
		return sim_unsupported_why(c, i, "ATOMS.POPC.INC with a result (nvcc writes RZ)");
	if (mem_opnd(c, i, k++, wide, &d->src[0], &am))
		return -1;
	if (aop != AArrive && aop != APopcInc && aligned_opnd(c, i, k++, nw, &d->src[1]))
		return -1;
	if ((aop == ACas || aop == ACast) && aligned_opnd(c, i, k++, nw, &d->src[2]))
		return -1;
	if (k != i->nopnd)
		return sim_unsupported_why(c, i, "unexpected operands");
	d->ndst = red ? 0 : 2;
	d->nsrc = (uint8_t)(aop == AArrive || aop == APopcInc ? 1 : aop == ACas || aop == ACast ? 3 : 2);
	d->aux = n;
	d->aux2 = am;
	d->mod = aop | ty << 4 | flags;
	d->exec = op == OATOMS ? ex_atoms : op == OATOMG || op == OREDG ? ex_atomg : ex_atom;
	c->split_ok = 1;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * cp.async: LDGSTS [shared], [global][, Pp]. The copy happens when the instruction executes, so
 * LDGDEPBAR and DEPBAR have nothing to wait for. aux: bytes (4, 8, 16); mod: LgZfill; aux2: the
 * modes of the shared (bits 0..7) and global (bits 8..15) addresses; src[2] the predicate (PT
 * when absent). A false predicate (cp.async's ignore-src) zero-fills the whole destination and
 * reads nothing. With .ZFILL (cp.async with a src-size operand) nvcc adds cp-size - src-size to
 * the source address: its low bits are the number of trailing bytes to zero, the rest the
 * (aligned) source.
 */
enum {
	LgZfill = 1 << 0,      /* .ZFILL */
	LgBypass = 1 << 1,     /* .BYPASS: the read does not allocate in L1 (timing) */
};

/* lane_addr of the lanes of mask into a[lane]; for a full warp the address mode decided once */
static void
lane_addrs(Exec *x, const DOp *o, unsigned am, uint32_t mask, uint64_t *a)
{
	uint64_t base = (uint64_t)o->imm;
	unsigned sh = am >> AmShift & 7;

	switch (am & (3 << 2)) {
	case AmUR32:
		base += x->w->ur[o->ureg];
		break;
	case AmUR64:
		base += x->w->ur[o->ureg] | (uint64_t)x->w->ur[o->ureg + 1] << 32;
		break;
	}
	if (mask != ~0u) {
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			a[l] = lane_addr(x, o, am, l);
		}
		return;
	}
	/* every lane: loops without a mask, which the compiler vectorizes */
	switch (am & 3) {
	case AmR32: {
		const uint32_t *r = sim_vreg(x, o, 0);
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = base + ((uint64_t)r[l] << sh);
		break;
	}
	case AmR64: {
		const uint32_t *lo = sim_vreg(x, o, 0), *hi = sim_vreg(x, o, 1);
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = base + (lo[l] | (uint64_t)hi[l] << 32);
		break;
	}
	default:
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = base;
	}
	if (am & AmTrunc)
		for (unsigned l = 0; l < WarpSize; l++)
			a[l] = (uint32_t)a[l];
}

/* record the global read (lanes whose predicate is true; ZFILL's address aligned down) and the
 * shared write, from the lanes' addresses */
static void
ldgsts_log(Exec *x, const DIns *d, uint32_t mask, uint32_t pmask, const uint64_t *ga_in,
           const uint64_t *sa)
{
	unsigned n = d->aux;
	uint64_t ga[WarpSize];

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		ga[lane] = ga_in[lane];
		if (d->mod & LgZfill)
			ga[lane] &= ~(uint64_t)(n - 1);
	}
	sim_mlog(x, MSGlobal, MKLoad, n, MAAsync | (d->mod & LgBypass ? MAL1Bypass : 0),
	         mask & pmask, ga);
	sim_mlog(x, MSShared, MKStore, n, MAAsync, mask, sa);
}

/* n bytes from s to d, n = 4, 8 or 16 (LDGSTS's sizes) as fixed-size copies */
static inline void
copy_n(uint8_t *d, const uint8_t *s, unsigned n)
{
	switch (n) {
	case 4: memcpy(d, s, 4); break;
	case 8: memcpy(d, s, 8); break;
	case 16: memcpy(d, s, 16); break;
	default: memcpy(d, s, n); break;
	}
}

static void
ex_ldgsts(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned n = d->aux, am_s = d->aux2 & 0xff, am_g = d->aux2 >> 8 & 0xff;
	uint32_t pmask = sim_pred(x, &d->src[2]);
	uint64_t sa[WarpSize], gas[WarpSize];

	lane_addrs(x, &d->src[0], am_s, mask, sa);
	lane_addrs(x, &d->src[1], am_g, mask, gas);
	if (x->mlog)
		ldgsts_log(x, d, mask, pmask, gas, sa);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m), nz = 0;
		uint64_t ga = gas[lane];
		uint8_t buf[16] = {0}, *p;

		if (pmask >> lane & 1) {
			if (d->mod & LgZfill) {
				/* aligned by construction; read only the src-size bytes */
				nz = (unsigned)(ga & (n - 1));
				ga &= ~(uint64_t)(n - 1);
				p = sim_global(x, ga, n - nz, lane, 0);
				if (!p)
					return;
				memcpy(buf, p, n - nz);
			} else {
				p = sim_global(x, ga, n, lane, 0);
				if (!p)
					return;
				copy_n(buf, p, n);
			}
		}
		if (!(p = sim_shared(x, sa[lane], n, lane, 1)))
			return;
		copy_n(p, buf, n);
	}
}

/* LDGSTS.E.BYPASS.128 [R10], desc[UR10][R68.64]; LDGSTS.E.64 [R15+0x8], [R10.64], !PT */
static int
dec_ldgsts(DecodeCtx *c, const Ins *i, DIns *d)
{
	unsigned n = 4, am_s, am_g;
	uint32_t flags = 0, sflags = 0;
	int wide = 0;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		unsigned sz = sizemod(s, &sflags);
		if (sz >= 4)
			n = sz;
		else if (strcmp(s, "E") == 0)
			wide = 1;
		else if (strcmp(s, "ZFILL") == 0)
			flags |= LgZfill;
		else if (strcmp(s, "BYPASS") == 0)
			flags |= LgBypass;
		else if (!inlist(s, hints))
			return sim_unsupported_why(c, i, "unknown modifier");
	}
	if (i->nopnd < 2 || i->nopnd > 3)
		return sim_unsupported_why(c, i, "expected two addresses and a predicate");
	if (mem_opnd(c, i, 0, 0, &d->src[0], &am_s) || mem_opnd(c, i, 1, wide, &d->src[1], &am_g))
		return -1;
	if (i->nopnd == 3) {
		if (pred_opnd(c, i, 2, &d->src[2]))
			return -1;
	} else {
		memset(&d->src[2], 0, sizeof d->src[2]);
		d->src[2].kind = DP;
		d->src[2].reg = RegPT;
	}
	if (d->src[2].kind != DP)
		return sim_unsupported_why(c, i, "expected a predicate");
	d->ndst = 0;
	d->nsrc = 3;
	d->aux = n;
	d->aux2 = am_s | am_g << 8;
	d->mod = flags;
	d->exec = ex_ldgsts;
	c->split_ok = 1;
	return 0;
}

/* ARRIVES.LDGSTSBAR.64 [addr]: each thread arrives on the sm_80 mbarrier once its earlier
 * LDGSTS are complete, which they are. The sm_90 forms (.ARVCNT, .TRANSCNT) work on the SYNCS
 * mbarrier and are not supported. */
static void
ex_arrives(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned am = d->aux2 & 0xff;

	if (x->mlog)
		addr_log(x, d, mask, MSShared, MKAtomic, 8);
	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint8_t *p = sim_shared(x, lane_addr(x, &d->src[0], am, lane), 8, lane, 1);
		if (!p)
			return;
		mbar_arrive(p);
	}
}

static int
dec_arrives(DecodeCtx *c, const Ins *i, DIns *d)
{
	unsigned am;

	if (i->nmod != 2 || !modis(c, i, 0, "LDGSTSBAR") || !modis(c, i, 1, "64") || i->nopnd != 1)
		return sim_unsupported_why(c, i, NULL);
	if (mem_opnd(c, i, 0, 0, &d->src[0], &am))
		return -1;
	d->nsrc = 1;
	d->aux = 8;
	d->aux2 = am;
	d->exec = ex_arrives;
	c->split_ok = 1;
	return 0;
}

/* QSPC.E.S Pd, RZ, [addr] (isspacep): Pd is true in the lanes whose generic address lies in the
 * space: .S and .D (shared::cta, shared::cluster; a cluster is one CTA here) the shared window,
 * .L the local window, .G any other address. mod: the space letter. */
static void
ex_qspc(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned am = d->aux2 & 0xff;
	uint32_t in = 0;

	for (uint32_t m = mask; m; m &= m - 1) {
		unsigned lane = (unsigned)__builtin_ctz(m);
		uint64_t a = lane_addr(x, &d->src[0], am, lane);
		int sh = a - SimSharedWindow < SimWindowSize, lo = a - SimLocalWindow < SimWindowSize;
		int r = d->mod == 'S' || d->mod == 'D' ? sh : d->mod == 'L' ? lo : !sh && !lo;
		in |= (uint32_t)r << lane;
	}
	sim_dst_pred(x, &d->dst[0], in, mask);
}

static int
dec_qspc(DecodeCtx *c, const Ins *i, DIns *d)
{
	unsigned am, space = 0;
	int wide = 0;

	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		if (strcmp(s, "E") == 0)
			wide = 1;
		else if (!space && strlen(s) == 1 && strchr("SDLG", s[0]))
			space = (unsigned char)s[0];
		else
			return sim_unsupported_why(c, i, "expected QSPC.E.S, .D, .L or .G");
	}
	if (!space || i->nopnd != 3 || !ispred(i, 0) || pred_opnd(c, i, 0, &d->dst[0]) ||
	    aligned_opnd(c, i, 1, 1, &d->dst[1]) || mem_opnd(c, i, 2, wide, &d->src[0], &am))
		return i->nopnd != 3 || !space || !ispred(i, 0) ? sim_unsupported_why(c, i, NULL) : -1;
	if (d->dst[0].kind != DP || d->dst[1].reg != RegRZ)
		return sim_unsupported_why(c, i, "only the predicate result is known");
	d->ndst = 2;
	d->nsrc = 1;
	d->mod = space;
	d->aux2 = am;
	d->exec = ex_qspc;
	c->split_ok = 1;
	return 0;
}

void
sim_register_mem(SimTab *t)
{
	static const int ldst[] = {OLDG, OLD, OLDS, OLDL, OSTG, OST, OSTS, OSTL};
	static const int atom[] = {OATOM, OATOMG, OATOMS, ORED, OREDG};

	for (unsigned k = 0; k < sizeof ldst / sizeof ldst[0]; k++)
		t->dec[ldst[k]] = dec_ldst;
	for (unsigned k = 0; k < sizeof atom / sizeof atom[0]; k++)
		t->dec[atom[k]] = dec_atom;
	t->dec[OLDC] = dec_ldc;
	/* ULDC is also the uniform datapath's: whichever family registers first keeps it */
	if (!t->dec[OULDC])
		t->dec[OULDC] = dec_ldc;
	t->dec[OLDGSTS] = dec_ldgsts;
	t->dec[OARRIVES] = dec_arrives;
	t->dec[OQSPC] = dec_qspc;
}
