/* exec_uniform.c: the uniform datapath: UIADD3 (.64, carries), UIMAD, UMOV, ULEA, ULOP3, ULOP,
 * USHF, USHL, USHR, UPRMT, USEL, UFLO, UPOPC, UBREV, USGXT, UBMSK, UISETP, UPLOP3, UPSETP, UP2UR,
 * UR2UP, R2UR (a vector register's value in the lowest active lane; with a predicate
 * destination, whether the active lanes disagree), and USETMAXREG. Each instruction is decoded
 * by the vector family's decoder (exec_int.c), which parses the same operands and modifiers
 * into the same DIns fields, and runs here once on Warp.ur/up with alu.h's scalar rules.
 */
#include "alu.h"

static inline uint32_t
uinv(const DOp *o)
{
	return (o->flags & (DFNeg | DFNot)) ? ~0u : 0;
}

static inline uint32_t
uneg(const DOp *o)
{
	return (o->flags & DFNeg) ? 1 : 0;
}

/* an integer source with its ~ or - applied */
static inline uint32_t
uval(Exec *x, const DOp *o)
{
	return (alu_uget(x, o) ^ uinv(o)) + uneg(o);
}

static inline uint32_t
upred(Exec *x, const DOp *o)
{
	return sim_pred(x, o) & 1;
}

static inline void
usetp(Exec *x, const DOp *o, uint32_t v)
{
	if (o->kind == DUP && o->reg != RegUPT)
		x->w->up[o->reg] = (uint8_t)(v & 1);
	else if (o->kind == DP)
		sim_dst_pred(x, o, v & 1 ? ~0u : 0, x->active);
}

/* UIADD3[.X][.64] URd, [UPc0, [UPc1,]] a, b, c [, UPcin0, UPcin1] */
static void
uexec_iadd3(Exec *x, const DIns *d, uint32_t mask)
{
	(void)mask;
	if (d->mod & Iadd64) {
		uint64_t s = 0;
		for (unsigned k = 0; k < 3; k++) {
			const DOp *o = &d->src[k];
			uint64_t v = alu_uget64(x, o), inv = (o->flags & (DFNeg | DFNot)) ? ~0ull : 0;
			s += (v ^ inv) + ((o->flags & DFNeg) ? 1 : 0);
		}
		alu_uset64(x, &d->dst[0], s);
		return;
	}
	uint32_t ci0 = 0, ci1 = 0;
	if (d->mod & IaddX) {
		ci0 = upred(x, &d->src[3]);
		ci1 = upred(x, &d->src[4]);
	}
	uint64_t s1 = (uint64_t)(alu_uget(x, &d->src[0]) ^ uinv(&d->src[0])) +
	              (alu_uget(x, &d->src[1]) ^ uinv(&d->src[1])) + uneg(&d->src[0]) +
	              uneg(&d->src[1]) + ci0;
	uint64_t s2 = (uint32_t)s1 + (uint64_t)(alu_uget(x, &d->src[2]) ^ uinv(&d->src[2])) +
	              uneg(&d->src[2]) + ci1;
	alu_uset(x, &d->dst[0], (uint32_t)s2);
	if (d->ndst > 1)
		usetp(x, &d->dst[1], (s1 >> 32) != 0);
	if (d->ndst > 2)
		usetp(x, &d->dst[2], (s2 >> 32) != 0);
}

static int
dec_uiadd3(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_iadd3(c, i, d) < 0)
		return -1;
	if (d->mod & Iadd16x2)
		return sim_unsupported(c, i);
	d->exec = uexec_iadd3;
	return 0;
}

/* UIMAD[.WIDE[.U32]|.HI] URd, a, b, c */
static void
uexec_imad(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = alu_uget(x, &d->src[0]), b = alu_uget(x, &d->src[1]);
	int sgn = !(d->mod & ImU32);
	uint32_t cin = (d->mod & ImX) ? upred(x, &d->src[3]) : 0;

	(void)mask;
	if (d->mod & (ImWide | ImHi)) {
		uint64_t p = sgn ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
		uint64_t cv = (d->mod & ImNoC) ? 0 : alu_uget64(x, &d->src[2]);
		uint64_t s = ((p ^ (d->aux ? ~0ull : 0)) + (d->aux & 1)) + cv + cin;
		if (d->mod & ImWide)
			alu_uset64(x, &d->dst[0], s);
		else
			alu_uset(x, &d->dst[0], (uint32_t)(s >> 32));
		return;
	}
	alu_uset(x, &d->dst[0], ((a * b) ^ d->aux) + (alu_uget(x, &d->src[2]) ^ uinv(&d->src[2])) +
	         d->aux2 + cin);
}

static int
dec_uimad(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_imad(c, i, d) < 0)
		return -1;
	if (d->ndst != 1 || d->dst[0].kind != DUR)
		return sim_unsupported(c, i);
	d->exec = uexec_imad;
	return 0;
}

/* UMOV URd, a */
static void
uexec_mov(Exec *x, const DIns *d, uint32_t mask)
{
	(void)mask;
	alu_uset(x, &d->dst[0], alu_uget(x, &d->src[0]));
}

static int
dec_umov(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_mov(c, i, d) < 0)
		return -1;
	if (d->nsrc != 1 || d->dst[0].kind != DUR)
		return sim_unsupported(c, i);
	d->exec = uexec_mov;
	return 0;
}

/* ULEA[.HI][.X][.SX32] URd, [UPc,] a, b, [c,] s [, UPcin] */
static void
uexec_lea(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = uval(x, &d->src[0]), n = alu_uget(x, &d->src[d->aux]) & 31, sh;
	uint32_t cin = (d->mod & LeaX) ? upred(x, &d->src[d->aux + 1]) : 0;

	(void)mask;
	if (d->mod & LeaHi) {
		uint32_t cv = (d->mod & LeaSx32) ? (uint32_t)((int32_t)a >> 31) : alu_uget(x, &d->src[2]);
		sh = n ? (cv << n) | (a >> (32 - n)) : cv;
	} else {
		sh = a << n;
	}
	uint64_t s = (uint64_t)sh + uval(x, &d->src[1]) + cin;
	alu_uset(x, &d->dst[0], (uint32_t)s);
	if (d->ndst > 1)
		usetp(x, &d->dst[1], (s >> 32) != 0);
}

static int
dec_ulea(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_lea(c, i, d) < 0)
		return -1;
	d->exec = uexec_lea;
	return 0;
}

/* ULOP3.LUT [UPd,] URd, a, b, c, lut, UPq;  ULOP.op, ULOP32I.op */
static void
uexec_lop3(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t r = alu_lop3(alu_uget(x, &d->src[0]), alu_uget(x, &d->src[1]),
	                      alu_uget(x, &d->src[2]), d->aux);

	(void)mask;
	if (d->aux2 != 255) {
		uint32_t q = d->nsrc > 4 ? upred(x, &d->src[4]) : 0;
		usetp(x, &d->dst[d->aux2], (r != 0) | q);
	}
	alu_uset(x, &d->dst[d->aux2 == 0 ? 1 : 0], r);
}

static int
dec_ulop3(DecodeCtx *c, const Ins *i, DIns *d)
{
	if ((i->op == OULOP3 ? alu_dec_lop3(c, i, d) : alu_dec_lop(c, i, d)) < 0)
		return -1;
	d->exec = uexec_lop3;
	return 0;
}

/* USHF, USHL, USHR */
static void
uexec_shf(Exec *x, const DIns *d, uint32_t mask)
{
	(void)mask;
	alu_uset(x, &d->dst[0], alu_shf(alu_uget(x, &d->src[0]), alu_uget(x, &d->src[1]),
	                                alu_uget(x, &d->src[2]), d->aux));
}

static int
dec_ushf(DecodeCtx *c, const Ins *i, DIns *d)
{
	if ((i->op == OUSHF ? alu_dec_shf(c, i, d) : alu_dec_shl_shr(c, i, d)) < 0)
		return -1;
	d->exec = uexec_shf;
	return 0;
}

/* UPRMT URd, a, sel, b */
static void
uexec_prmt(Exec *x, const DIns *d, uint32_t mask)
{
	(void)mask;
	alu_uset(x, &d->dst[0], alu_prmt(alu_uget(x, &d->src[0]), alu_uget(x, &d->src[2]),
	                                 alu_uget(x, &d->src[1]), (int)d->aux));
}

static int
dec_uprmt(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_prmt(c, i, d) < 0)
		return -1;
	d->exec = uexec_prmt;
	return 0;
}

/* USEL URd, a, b, UPp */
static void
uexec_sel(Exec *x, const DIns *d, uint32_t mask)
{
	(void)mask;
	alu_uset(x, &d->dst[0], upred(x, &d->src[2]) ? alu_uget(x, &d->src[0])
	                                             : alu_uget(x, &d->src[1]));
}

static int
dec_usel(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_sel(c, i, d) < 0)
		return -1;
	d->exec = uexec_sel;
	return 0;
}

/* UFLO, UPOPC, UBREV, USGXT, UBMSK */
static void
uexec_bits(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = uval(x, &d->src[0]), r;
	int sgn = (d->mod & BitSigned) != 0, wrap = (d->mod & BitWrap) != 0;

	(void)mask;
	switch (d->aux) {
	case BitIabs: r = (int32_t)a < 0 ? -a : a; break;
	case BitPopc: r = (uint32_t)__builtin_popcount(a); break;
	case BitFlo: r = alu_flo(a, sgn, (d->mod & BitSh) != 0); break;
	case BitBrev: r = alu_brev(a); break;
	case BitBmsk: r = alu_bmsk(alu_uget(x, &d->src[0]), alu_uget(x, &d->src[1]), wrap); break;
	default: r = alu_sgxt(alu_uget(x, &d->src[0]), alu_uget(x, &d->src[1]), sgn, wrap); break;
	}
	alu_uset(x, &d->dst[0], r);
}

static int
dec_ubits(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_bits(c, i, d) < 0)
		return -1;
	d->exec = uexec_bits;
	return 0;
}

/* UISETP.cmp[.U32].bop[.EX] UPd0, UPd1, a, b, UPc [, UPex] */
static void
uexec_isetp(Exec *x, const DIns *d, uint32_t mask)
{
	unsigned rel = alu_irel(uval(x, &d->src[0]), uval(x, &d->src[1]), !(d->mod & IsetpU32));
	uint32_t r = (d->aux & rel) != 0, pc = upred(x, &d->src[2]);

	(void)mask;
	if ((d->mod & IsetpEx) && rel == RelEQ && d->aux != CmpF && d->aux != CmpNUM)
		r = upred(x, &d->src[3]);
	usetp(x, &d->dst[0], alu_bop((int)d->aux2, r, pc));
	if (d->ndst > 1)
		usetp(x, &d->dst[1], alu_bop((int)d->aux2, r ^ 1, pc));
}

static int
dec_uisetp(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_isetp(c, i, d) < 0)
		return -1;
	d->exec = uexec_isetp;
	return 0;
}

/* UPLOP3.LUT UPd0, UPd1, a, b, c, lut0, lut1;  UPSETP.bop0.bop1 */
static void
uexec_plop3(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t a = upred(x, &d->src[0]), b = upred(x, &d->src[1]), c = upred(x, &d->src[2]);

	(void)mask;
	if (d->op == OUPSETP) {
		uint32_t t = alu_bop((int)d->aux, a, b);
		usetp(x, &d->dst[0], alu_bop((int)d->aux2, t, c));
		usetp(x, &d->dst[1], alu_bop((int)d->aux2, t ^ 1, c));
		return;
	}
	usetp(x, &d->dst[0], alu_lop3(a, b, c, d->aux));
	usetp(x, &d->dst[1], alu_lop3(a, b, c, d->aux2));
}

static int
dec_uplop3(DecodeCtx *c, const Ins *i, DIns *d)
{
	if ((i->op == OUPLOP3 ? alu_dec_plop3(c, i, d) : alu_dec_psetp(c, i, d)) < 0)
		return -1;
	d->exec = uexec_plop3;
	return 0;
}

/* UP2UR[.Bk] URd, UPR, a, mask;  UR2UP UPR, a[.Bk] [, mask] */
static void
uexec_p2ur(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t p = 0;

	(void)mask;
	for (unsigned j = 0; j < 7; j++)
		p |= (uint32_t)(x->w->up[j] & 1) << j;
	alu_uset(x, &d->dst[0], alu_p2r(p, alu_uget(x, &d->src[1]), alu_uget(x, &d->src[2]), d->aux));
}

static int
dec_up2ur(DecodeCtx *c, const Ins *i, DIns *d)
{
	if (alu_dec_p2r(c, i, d) < 0)
		return -1;
	d->exec = uexec_p2ur;
	return 0;
}

static void
uexec_ur2up(Exec *x, const DIns *d, uint32_t mask)
{
	uint32_t v = alu_uget(x, &d->src[0]) >> (8 * d->aux);
	uint32_t m = d->nsrc > 1 ? alu_uget(x, &d->src[1]) : 0x7f;

	(void)mask;
	for (unsigned j = 0; j < 7; j++)
		if ((m >> j) & 1)
			x->w->up[j] = (uint8_t)((v >> j) & 1);
}

static int
dec_ur2up(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "B0", "B1", "B2", "B3", NULL };
	AluMods m;

	/* UR2UP UPR, a[, mask]: UPR names no register, every operand is a source */
	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split_n(c, i, d, 0) < 0)
		return -1;
	if (__builtin_popcount(m.bits) > 1 || d->nsrc < 2 || d->nsrc > 3)
		return sim_unsupported(c, i);
	d->src[0] = d->src[1];                   /* drop UPR */
	if (d->nsrc == 3)
		d->src[1] = d->src[2];
	d->nsrc--;
	d->aux = m.bits ? (uint32_t)__builtin_ctz(m.bits) : 0;
	if (d->src[0].sel >= SelB0 && d->src[0].sel <= SelB3)
		d->aux = d->src[0].sel - SelB0;
	d->exec = uexec_ur2up;
	return 0;
}

/* R2UR[.64] URd, Ra: the value of the lowest lane of mask;
 * R2UR Pd, URd, Ra: also, per lane, Pd = its Ra differs from that lane's;
 * R2UR.OR Pd, URd, Ra: Pd |= that, so that a chain R2UR P0, UR4, R2; R2UR.OR P0, UR5, R3 marks
 * the lanes whose pair differs. nvcc splits a warp by it: `R2UR P0, URZ, Rmask; @!P0 BRA.DIV
 * URunion` sends the lanes of the lowest lane's member mask one way and the others the other
 * way (a waterfall over the masks); see docs/sim.md. */
static void
uexec_r2ur(Exec *x, const DIns *d, uint32_t mask)
{
	const DOp *ud = &d->dst[d->ndst - 1];
	uint32_t t[WarpSize];
	uint64_t v[WarpSize];
	const uint32_t *a;
	unsigned first;
	int wide = ud->n >= 2 || (ud->flags & DFWide);

	if (!mask)
		return;
	first = (unsigned)__builtin_ctz(mask);
	a = sim_src(x, &d->src[0], t);
	if (wide) {
		alu_src64(x, &d->src[0], v);
		alu_uset64(x, ud, v[first]);
	} else {
		alu_uset(x, ud, a[first]);
	}
	if (d->ndst > 1) {
		uint32_t diff = (d->mod & 1) ? sim_pred(x, &d->dst[0]) : 0;
		for (uint32_t m = mask; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			if (wide ? v[l] != v[first] : a[l] != a[first])
				diff |= 1u << l;
		}
		sim_dst_pred(x, &d->dst[0], diff, mask);
	}
}

static int
dec_r2ur(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "64", "OR", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 1) < 0)
		return -1;
	if ((m.bits & 2) && d->ndst != 2)
		return sim_unsupported_why(c, i, "R2UR.OR needs a predicate destination");
	d->mod = m.bits & 2 ? 1 : 0;
	if (d->nsrc != 1 || d->ndst < 1 || d->ndst > 2 || d->dst[d->ndst - 1].kind != DUR ||
	    (d->ndst == 2 && d->dst[0].kind != DP) ||
	    (d->src[0].kind != DR && d->src[0].kind != DV && d->src[0].kind != DImm))
		return sim_unsupported(c, i);
	if (m.bits & 1)
		d->dst[d->ndst - 1].flags |= DFWide;
	d->exec = uexec_r2ur;
	return 0;
}

/* setmaxnreg (docs/sim-wgmma.md): a CTA starts with REGCOUNT registers per thread in every
 * warp and an empty pool. USETMAXREG.DEALLOC.CTAPOOL n gives a warp's registers above n back
 * to the CTA's pool; USETMAXREG.TRY_ALLOC.CTAPOOL UPd, n takes the warp up to n from the pool
 * when the pool holds enough (UPd true) and else changes nothing (UPd false): nvcc's retry
 * loop (`@!P0 BRA` back to it) spins until another warpgroup has deallocated. Per warp: a
 * warpgroup's four warps do the same, so the pool moves in warpgroup steps unless it runs out
 * between them. A request below (TRY_ALLOC) or above (DEALLOC) what the warp holds changes
 * nothing. What the warp holds is its window: sim_window_exec faults on a register at or above
 * it (the storage behind it, Prog.nreg per warp, does not move: only what the warp may name). */
static void
uexec_setmaxreg(Exec *x, const DIns *d, uint32_t mask)
{
	Warp *w = x->w;
	Cta *c = x->cta;
	int rc = x->prog->fn->info.regcount;
	uint32_t cur = w->maxnreg ? w->maxnreg : (uint32_t)(rc > 0 ? rc : x->prog->nreg);
	uint32_t n = (uint32_t)d->src[0].imm;

	(void)mask;
	if (d->ndst == 1) {
		uint32_t need = n > cur ? (n - cur) * WarpSize : 0;
		int ok = need <= c->rpool;
		if (ok && need) {
			c->rpool -= need;
			w->maxnreg = n;
		}
		usetp(x, &d->dst[0], (uint32_t)ok);
		return;
	}
	if (n < cur) {
		c->rpool += (cur - n) * WarpSize;
		w->maxnreg = n;
	}
}

void
sim_window_exec(Exec *x, const DIns *d, uint32_t mask)
{
	const Prog *p = x->prog;
	Warp *w = x->w;
	uint32_t win = w->maxnreg ? w->maxnreg : ((uint32_t)p->nreg_launch + 7) & ~7u;

	if (mask && p->win_top[d->pc] > win) {
		sim_fault(x, FaultRegWindow, (unsigned)__builtin_ctz(mask), "warp %u names R%u, but "
		          "holds %u registers per thread (REGCOUNT %d at launch; setmaxnreg.inc grows "
		          "the window)", w->id, p->win_top[d->pc] - 1u, win, p->fn->info.regcount);
		return;
	}
	p->win_exec[d->pc](x, d, mask);
}

static int
dec_setmaxreg(DecodeCtx *c, const Ins *i, DIns *d)
{
	static const char *const names[] = { "TRY_ALLOC", "DEALLOC", "CTAPOOL", NULL };
	AluMods m;

	if (alu_mods(c, i, names, 0, &m) < 0 || alu_split(c, i, d, 0) < 0)
		return -1;
	if (__builtin_popcount(m.bits & 3) != 1 || d->nsrc != 1 || d->src[0].kind != DImm ||
	    d->src[0].imm < 24 || d->src[0].imm > 256 || d->ndst != ((m.bits & 1) ? 1 : 0) ||
	    (d->ndst && d->dst[0].kind != DUP))
		return sim_unsupported(c, i);
	d->exec = uexec_setmaxreg;
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Registration.
 */
static const struct {
	uint16_t op;           /* opcode family */
	DecodeFn dec;          /* its decoder */
} uniform_rows[] = {
	{ OUIADD3, dec_uiadd3 },
	{ OUIMAD, dec_uimad },
	{ OUMOV, dec_umov },
	{ OULEA, dec_ulea },
	{ OULOP3, dec_ulop3 },
	{ OULOP, dec_ulop3 },
	{ OULOP32I, dec_ulop3 },
	{ OUSHF, dec_ushf },
	{ OUSHL, dec_ushf },
	{ OUSHR, dec_ushf },
	{ OUPRMT, dec_uprmt },
	{ OUSEL, dec_usel },
	{ OUFLO, dec_ubits },
	{ OUPOPC, dec_ubits },
	{ OUBREV, dec_ubits },
	{ OUSGXT, dec_ubits },
	{ OUBMSK, dec_ubits },
	{ OUISETP, dec_uisetp },
	{ OUPLOP3, dec_uplop3 },
	{ OUPSETP, dec_uplop3 },
	{ OUP2UR, dec_up2ur },
	{ OUR2UP, dec_ur2up },
	{ OR2UR, dec_r2ur },
	{ OUSETMAXREG, dec_setmaxreg },
};

void
sim_register_uniform(SimTab *t)
{
	for (unsigned k = 0; k < sizeof uniform_rows / sizeof uniform_rows[0]; k++)
		t->dec[uniform_rows[k].op] = uniform_rows[k].dec;
}
