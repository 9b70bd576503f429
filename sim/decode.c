/* decode.c: a kernel's Fn decoded once into a Prog of DIns (STYLE habit 13), and the operand
 * accessors every family uses at run time. sim_decode looks each opcode up in the SimTab that
 * the family files fill (one decoder per opcode family), resolves operands (dop_from), guards,
 * branch targets (instruction indices) and control bits, and rejects at load time, with
 * `file:line:col: error: unsupported instruction 'X'`, whatever no family executes.
 * Accessors return raw bits: -x, |x|, ~x are flags that the family applies (sim.h, DOp).
 */
#include "sim.h"
#include "weft.h"

#include <stdlib.h>
#include <string.h>
#include <threads.h>

static SimTab tab;                 /* filled once by simtab_init */
static once_flag tab_once = ONCE_FLAG_INIT;

/* every family registers its opcodes; an opcode claimed by two families is a build bug */
void
simtab_init(SimTab *t)
{
	static void (*const reg[])(SimTab *) = {
		sim_register_int, sim_register_float, sim_register_half, sim_register_conv,
		sim_register_uniform, sim_register_mem, sim_register_warp, sim_register_tensor,
		sim_register_gmma, sim_register_ctrl,
		sim_register_fiber, sim_register_sync, sim_register_tma,
	};
	SimTab before;

	memset(t, 0, sizeof *t);
	for (unsigned k = 0; k < sizeof reg / sizeof reg[0]; k++) {
		before = *t;
		reg[k](t);
		for (unsigned op = 0; op < NOp; op++)
			if (before.dec[op] && before.dec[op] != t->dec[op])
				die("simulator opcode %s registered by two families", op_name((int)op));
	}
}

static void
tab_init_once(void)
{
	simtab_init(&tab);
}

/* ---------------------------------------------------------------------------------------------
 * Operands.
 */
static const struct {
	const char *name;
	uint8_t sel;
} selname[] = {
	{ "H0_H0", SelH0H0 }, { "H1_H1", SelH1H1 }, { "H0", SelH0 }, { "H1", SelH1 },
	{ "F32", SelF32 }, { "B0", SelB0 }, { "B1", SelB1 }, { "B2", SelB2 }, { "B3", SelB3 },
	{ "H1_H0", SelH1H0 }, { "X4", SelX4 }, { "X8", SelX8 }, { "X16", SelX16 },
	{ "U32", SelU32 }, { "ROW", SelRow }, { "COL", SelCol },
};

/* suffix atom of a register field -> sel and flags; -1 for one the simulator does not know */
static int
suffix(DecodeCtx *c, uint32_t a, DOp *o)
{
	const char *s = mstr(c->fn->mod, a);

	while (a && *s) {
		size_t n = strcspn(s, ".");
		unsigned k;
		if (n == 2 && memcmp(s, "64", 2) == 0) {
			o->flags |= DFWide;
			if (o->n < 2)
				o->n = 2;
		} else {
			for (k = 0; k < sizeof selname / sizeof selname[0]; k++)
				if (strlen(selname[k].name) == n && memcmp(s, selname[k].name, n) == 0)
					break;
			if (k == sizeof selname / sizeof selname[0])
				return -1;
			o->sel = selname[k].sel;
		}
		s += n;
		if (*s == '.')
			s++;
	}
	return 0;
}

/* registers covered by operand k, field f, from the slots (1 if no slot: RZ, PT) */
static unsigned
slot_width(const Ins *i, unsigned k, unsigned f)
{
	unsigned n = 0;

	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].opnd == k && i->slot[s].field == f && i->slot[s].kind != SOld &&
		    i->slot[s].n > n)
			n = i->slot[s].n;
	return n ? n : 1;
}

static uint16_t
opflags(uint16_t f)
{
	return (uint16_t)((f & FNeg ? DFNeg : 0) | (f & FAbs ? DFAbs : 0) |
	                  (f & (FNot | FLNot) ? DFNot : 0) | (f & FReuse ? DFReuse : 0));
}

static int
bad_opnd(DecodeCtx *c, const Ins *i, int k, const char *why)
{
	char buf[128];

	fmt_opnd(buf, sizeof buf, c->fn, i, k);
	error_at(c->diag, i->loc, "unsupported instruction '%s': %s '%s'",
	         mstr(c->fn->mod, i->name), why, buf);
	return -1;
}

/* instruction index of a label operand; -1 if it is not in this function */
static int64_t
label_pc(DecodeCtx *c, const Opnd *o)
{
	Prog *p = c->prog;
	Fn *f = c->fn;

	if (o->atom == f->name)
		return 0;
	if (o->atom && o->atom == f->endlabel)
		return p->nins;
	for (uint32_t k = 0; k < f->nins; k++)
		if (f->ins[k].label == o->atom)
			return k;
	for (uint32_t k = 0; k + 1 < 2 * f->nxlabel; k += 2)
		if (f->xlabel[k + 1] == o->atom)
			return f->xlabel[k];
	/* labels before the first instruction are items of the text section; so are the second
	 * and later labels after the last one (Item.off is then the instruction count) */
	for (uint32_t k = 0; f->text && k < f->text->nitem; k++) {
		const Item *it = &f->text->item[k];
		if (it->kind == ILabel && it->name == o->atom)
			return it->off > 0 ? it->off : 0;
	}
	return -1;
}

int
dop_from(DecodeCtx *c, const Ins *i, int k, DOp *out)
{
	const Opnd *o = &i->opnd[k];
	static const uint8_t kind_of[NRegClass] = {
		[RR] = DR, [RP] = DP, [RUR] = DUR, [RUP] = DUP, [RB] = DB, [RV] = DV,
	};
	int64_t t;
	float fv;
	uint32_t bits;

	memset(out, 0, sizeof *out);
	out->reg = RegRZ;
	out->ureg = RegURZ;
	out->udesc = RegURZ;
	out->n = 1;
	out->flags = opflags(o->flags);
	switch (o->kind) {
	case OReg:
		if (RCLS(o->r[0]) == RNone || RCLS(o->r[0]) >= NRegClass)
			return bad_opnd(c, i, k, "operand");
		out->kind = kind_of[RCLS(o->r[0])];
		out->reg = (uint16_t)RNUM(o->r[0]);
		out->n = (uint8_t)slot_width(i, (unsigned)k, 0);
		if (suffix(c, o->sfx[0], out) < 0)
			return bad_opnd(c, i, k, "register suffix of");
		if (out->kind == DV) {
			out->flags |= DFVreg;
			if (out->reg + (unsigned)out->n > SmVRegs)
				return bad_opnd(c, i, k, "register range past V2047 in");
		}
		return 0;
	case OSReg:
		out->kind = DSReg;
		out->imm = sim_sreg_code(mstr(c->fn->mod, o->atom));
		if (out->imm < 0)
			return bad_opnd(c, i, k, "special register");
		return 0;
	case OImm:
		out->kind = DImm;
		out->imm = o->imm;
		return 0;
	case OFImm:
		out->kind = DImm;
		out->flags |= DFFimm;
		fv = (float)o->fimm;
		memcpy(&bits, &fv, 4);
		out->imm = bits;
		return 0;
	case OCBank:
		out->kind = DCBank;
		out->bank = (uint16_t)o->imm2;
		out->imm = o->imm;
		if (o->flags & FCx)
			return bad_opnd(c, i, k, "indirect constant bank");
		if (RCLS(o->r[0]) == RR) {
			out->reg = (uint16_t)RNUM(o->r[0]);
		} else if (RCLS(o->r[0]) == RUR) {
			out->ureg = (uint16_t)RNUM(o->r[0]);
			out->flags |= DFUreg;
		} else if (RCLS(o->r[0]) != RNone) {
			return bad_opnd(c, i, k, "constant bank index");
		}
		if (o->sfx[0])
			return bad_opnd(c, i, k, "constant bank index suffix in");
		if (out->bank >= NumCBanks)
			return bad_opnd(c, i, k, "constant bank");
		return 0;
	case OMem:
		out->kind = DMem;
		out->imm = o->imm;
		for (int f = 0; f < 2; f++) {
			Reg r = o->r[f];
			if (RCLS(r) == RR || RCLS(r) == RV) {
				out->reg = (uint16_t)RNUM(r);
				if (RCLS(r) == RV)
					out->flags |= DFVreg;
				if (suffix(c, o->sfx[f], out) < 0)
					return bad_opnd(c, i, k, "address suffix in");
			} else if (RCLS(r) == RUR) {
				out->ureg = (uint16_t)RNUM(r);
				out->flags |= DFUreg;
				if (o->sfx[f] && strcmp(mstr(c->fn->mod, o->sfx[f]), "64") != 0)
					return bad_opnd(c, i, k, "address suffix in");
				if (o->sfx[f])
					out->flags |= DFUWide;
			} else if (RCLS(r) != RNone) {
				return bad_opnd(c, i, k, "address register in");
			}
		}
		out->n = (out->flags & DFWide) ? 2 : 1;
		if ((out->flags & DFVreg) && out->reg + (unsigned)out->n > SmVRegs)
			return bad_opnd(c, i, k, "address register past V2047 in");
		if (o->flags & FDesc) {
			out->flags |= DFDesc;
			out->udesc = (uint16_t)RNUM(o->r[2]);
		}
		return 0;
	case OLabel:
		out->kind = DLabel;
		t = label_pc(c, o);
		if (t < 0)
			return bad_opnd(c, i, k, "branch target outside the function:");
		out->imm = t;
		return 0;
	case OSbSet:
		out->kind = DSbSet;
		out->imm = o->imm;
		return 0;
	case OExpr: {
		/* scoreboards named in DEPBAR.LE SB0, 0x1 and WARPGROUP.DEPBAR.LE gsb0, 0x0 */
		const char *a = mstr(c->fn->mod, o->atom);
		if ((strncmp(a, "SB", 2) == 0 && a[2] >= '0' && a[2] <= '5' && !a[3]) ||
		    strcmp(a, "gsb0") == 0) {
			out->kind = DSbSet;
			out->imm = a[0] == 'g' ? 1 : 1ll << (a[2] - '0');
			out->reg = a[0] == 'g' ? 0 : (uint16_t)(a[2] - '0');
			return 0;
		}
		/* PR, UPR, texture dimensions (2D, ARRAY_2D): the family that accepts one checks
		 * the text; sim_src faults on it */
		out->kind = DExpr;
		out->imm = o->atom;
		return 0;
	}
	default:
		return bad_opnd(c, i, k, "operand");
	}
}

/* an operand that an instruction defines: it has an SDef slot */
static int
is_def(const Ins *i, unsigned k)
{
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].opnd == k && i->slot[s].kind == SDef)
			return 1;
	return 0;
}

int
sim_dec_opnds(DecodeCtx *c, const Ins *i, DIns *d, int ndst)
{
	int n = i->nopnd, nd = ndst;

	if (nd < 0) {
		nd = 0;
		for (int k = 0; k < n; k++)
			if (is_def(i, (unsigned)k))
				nd = k + 1;
	}
	if (nd > n)
		nd = n;
	if (nd > MaxDst || n - nd > MaxSrc)
		return -1;
	d->ndst = (uint8_t)nd;
	d->nsrc = (uint8_t)(n - nd);
	for (int k = 0; k < n; k++)
		if (dop_from(c, i, k, k < nd ? &d->dst[k] : &d->src[k - nd]) < 0)
			return -2;
	for (int k = 0; k < nd; k++)
		if (d->dst[k].kind == DV) {   /* a pool destination (the verifier allows no other) */
			d->dst[k].kind = DR;
			d->dst[k].flags = (uint16_t)((d->dst[k].flags & ~DFVreg) | DFPoolDst);
		}
	c->split_ok = 1;
	return 0;
}

int
sim_hasmod(const DecodeCtx *c, const Ins *i, const char *mod)
{
	return ins_hasmod(i, c->fn->mod, mod);
}

/* Operand k as n consecutive registers of class cls (RR, RP, RUR, RUP), for the families whose
 * operands sim_dec_opnds does not split (register tuples of memory data and tensor fragments,
 * the warp collectives): fill o. Where cls is RR a V source is taken too (DV, DFVreg; sim_decode
 * has refused V destinations). ~ and ! give DFNot, as in dop_from. Refused with a note: a missing
 * operand, another class, a range that runs past R254 or V2047. */
int
sim_reg_opnd(DecodeCtx *c, const Ins *i, unsigned k, unsigned cls, unsigned n, DOp *o)
{
	static const uint8_t kind[NRegClass] = {[RR] = DR, [RP] = DP, [RUR] = DUR, [RUP] = DUP};
	static const char *const want[NRegClass] = {
		[RR] = "expected a general register", [RP] = "expected a predicate",
		[RUR] = "expected a uniform register", [RUP] = "expected a uniform predicate",
	};
	const Opnd *p;
	unsigned has;

	if (k >= i->nopnd)
		return sim_unsupported_why(c, i, "missing operand");
	p = &i->opnd[k];
	has = p->kind == OReg ? RCLS(p->r[0]) : RNone;
	if (has != cls && !(cls == RR && has == RV))
		return sim_unsupported_why(c, i, want[cls]);
	memset(o, 0, sizeof *o);
	o->kind = has == RV ? DV : kind[cls];
	o->reg = (uint16_t)RNUM(p->r[0]);
	o->n = (uint8_t)n;
	o->flags = (uint16_t)((has == RV ? DFVreg : 0) | (p->flags & (FNot | FLNot) ? DFNot : 0));
	if (has == RV && o->reg + n > SmVRegs)
		return sim_unsupported_why(c, i, "register range past V2047");
	if (has == RR && o->reg != RegRZ && o->reg + n > RegRZ)
		return sim_unsupported_why(c, i, "register range past R254");
	return 0;
}

int
sim_unsupported(DecodeCtx *c, const Ins *i)
{
	char buf[160];
	int len = snprintf(buf, sizeof buf, "%s", mstr(c->fn->mod, i->name));

	for (unsigned k = 0; k < i->nmod && len < (int)sizeof buf; k++)
		len += snprintf(buf + len, sizeof buf - (size_t)len, ".%s", mstr(c->fn->mod, i->mod[k]));
	error_at(c->diag, i->loc, "unsupported instruction '%s'", buf);
	return -1;
}

/* sim_unsupported with a note saying why (a family's decoder knows which form it lacks) */
int
sim_unsupported_why(DecodeCtx *c, const Ins *i, const char *why)
{
	sim_unsupported(c, i);
	if (why)
		note_at(c->diag, i->loc, "%s", why);
	return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Decoding a function.
 */
static void exec_end(Exec *x, const DIns *d, uint32_t mask);

/* A V tuple near the end of the register file: op_slots clips a tuple at V2047, so the width
 * the opcode gives (IMAD.WIDE's addend V2047 is a pair) is found with those registers renumbered
 * to V0, as the front end's tuple check does for RZ. -1 after reporting one that runs past. */
static int
v_past_end(DecodeCtx *c, const Ins *i)
{
	Opnd low[MaxOpnd];
	Ins t = *i;
	int any = 0;

	if (i->nopnd > MaxOpnd)
		return 0;
	for (unsigned k = 0; k < i->nopnd; k++) {
		low[k] = i->opnd[k];
		for (unsigned f = 0; f < 3; f++)
			if (RCLS(low[k].r[f]) == RV && RNUM(low[k].r[f]) + 8 > NumV) {
				low[k].r[f] = REG(RV, 0);
				any = 1;
			}
	}
	t.opnd = low;
	t.slot = NULL;
	t.nslot = 0;
	if (!any || op_slots(c->fn, &t) < 0)
		return 0;
	for (unsigned s = 0; s < t.nslot; s++) {
		const Slot *sl = &t.slot[s];
		Reg r;
		if (sl->opnd >= i->nopnd || sl->field > 2 || RCLS(sl->reg) != RV)
			continue;
		r = i->opnd[sl->opnd].r[sl->field];
		if (RCLS(r) == RV && RNUM(r) + sl->n > NumV) {
			error_at(c->diag, i->loc, "'V%u' begins a %u-register operand of '%s', which runs "
			         "past V%u", RNUM(r), sl->n, mstr(c->fn->mod, i->name), NumV - 1u);
			return -1;
		}
	}
	return 0;
}

/* the highest vector register instruction i names + 1 (0: none; RZ does not count) */
static int
ins_rtop(const Ins *i)
{
	int top = 0;

	for (unsigned s = 0; s < i->nslot; s++) {
		const Slot *sl = &i->slot[s];
		if (RCLS(sl->reg) == RR && RNUM(sl->reg) != RegRZ && (int)(RNUM(sl->reg) + sl->n) > top)
			top = (int)(RNUM(sl->reg) + sl->n);
	}
	return top;
}

/* setmaxnreg (docs/sim-wgmma.md): a kernel with USETMAXREG allocates REGCOUNT registers per
 * thread at launch (Prog.nreg_launch); every instruction naming a register at or above the
 * smallest window a warp can hold (REGCOUNT, or a lower USETMAXREG count) runs behind
 * sim_window_exec, which faults unless the warp's window reaches it. Other kernels keep
 * nreg_launch = nreg and no check. */
static void
window_guard(Prog *p, const Fn *f)
{
	int rc = f->info.regcount, lim;
	int has = 0;

	p->nreg_launch = p->nreg;
	lim = (rc + 7) & ~7;
	for (uint32_t k = 0; k < f->nins; k++)
		if (p->ins[k].op == OUSETMAXREG) {
			has = 1;
			if ((int)p->ins[k].src[0].imm < lim)
				lim = (int)p->ins[k].src[0].imm;
		}
	if (!has || rc <= 0)
		return;
	p->nreg_launch = rc;
	for (uint32_t k = 0; k < f->nins; k++) {
		int top = ins_rtop(&f->ins[k]);
		if (top <= lim)
			continue;
		if (!p->win_exec) {
			p->win_exec = xmalloc((f->nins + 1) * sizeof *p->win_exec);
			p->win_top = xmalloc((f->nins + 1) * sizeof *p->win_top);
		}
		p->win_exec[k] = p->ins[k].exec;
		p->win_top[k] = (uint16_t)top;
		p->ins[k].exec = sim_window_exec;
	}
}

static int
decode_one(DecodeCtx *c, Ins *i, DIns *d, uint32_t k)
{
	Prog *p = c->prog;
	int rc;

	d->pc = k;
	d->addr = i->addr >= 0 ? (uint32_t)i->addr : 16 * k;
	d->ir = i;
	d->guard = -1;
	d->op = i->op;
	if (i->op == Ounknown || !tab.dec[i->op])
		return sim_unsupported(c, i);
	if (!i->slot && op_slots(c->fn, i) < 0) {
		error_at(c->diag, i->loc, "malformed operands of '%s'", mstr(c->fn->mod, i->name));
		return -1;
	}
	d->unit = optab[i->op].unit;
	d->ctrl = i->ctrl.has ? enc_ctrl_bits(&i->ctrl) | CTRL_HAS_BIT : 0;
	if (i->guarded) {
		unsigned cls = RCLS(i->guard.r[0]);
		if (cls != RP && cls != RUP) {
			error_at(c->diag, i->loc, "guard is not a predicate");
			return -1;
		}
		d->guard = (int8_t)RNUM(i->guard.r[0]);
		d->guard_uniform = cls == RUP;
		d->guard_not = (i->guard.flags & (FLNot | FNot)) != 0;
		if (d->guard == 7 && !d->guard_not)
			d->guard = -1;     /* @PT: always */
	}
	if (ins_rtop(i) > p->nreg)
		p->nreg = ins_rtop(i);
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SDef && !reg_writable(i->slot[s].reg) &&
		    !(i->slot[s].opnd < i->nopnd && (i->opnd[i->slot[s].opnd].flags & FPoolRef))) {
			char name[16];
			reg_name(i->slot[s].reg, name, sizeof name);
			error_at(c->diag, i->loc, "'%s' is a destination of '%s', but %s registers are "
			         "source operands only", name, mstr(c->fn->mod, i->name),
			         regtab[RCLS(i->slot[s].reg)].prefix);
			return -1;
		}
	if (v_past_end(c, i) < 0)
		return -1;
	c->split_ok = 0;
	rc = sim_dec_opnds(c, i, d, -1);
	if (rc == -2)
		return -1;
	c->split_ok = 0;
	if (tab.dec[i->op](c, i, d) < 0)
		return -1;
	if (rc < 0 && !c->split_ok)
		return sim_unsupported(c, i);  /* too many operands and the family did not split */
	if (!d->exec) {
		error_at(c->diag, i->loc, "unsupported instruction '%s' (its decoder set no semantics)",
		         mstr(c->fn->mod, i->name));
		return -1;
	}
	for (unsigned j = 0; j < d->ndst; j++)
		if (d->dst[j].flags & DFPoolDst) {
			Prog *pr = c->prog;
			if (!pr->pool_exec)
				pr->pool_exec = xmalloc((c->fn->nins + 1) * sizeof *pr->pool_exec);
			pr->pool_exec[d->pc] = d->exec;
			d->exec = fiber_pool_exec;
			break;
		}
	return 0;
}

Prog *
sim_decode(Fn *f, int sm, Diag *d)
{
	Prog *p = xmalloc(sizeof *p);
	DecodeCtx c = { f, d, sm, p, 0 };
	uint32_t last = 0;
	int nbad = 0;

	call_once(&tab_once, tab_init_once);
	p->fn = f;
	p->name = mstr(f->mod, f->name);
	p->sm = sm;
	p->nins = f->nins;
	p->ins = xmalloc((f->nins + 1) * sizeof *p->ins);
	for (uint32_t k = 0; k < f->nins; k++) {
		uint32_t a = f->ins[k].addr >= 0 ? (uint32_t)f->ins[k].addr : 16 * k;
		if (a > last)
			last = a;
	}
	p->naddr = f->nins ? last / 16 + 2 : 1;
	p->addr_to_pc = xmalloc(p->naddr * sizeof *p->addr_to_pc);
	memset(p->addr_to_pc, 0xff, p->naddr * sizeof *p->addr_to_pc);
	for (uint32_t k = 0; k < f->nins; k++) {
		uint32_t a = f->ins[k].addr >= 0 ? (uint32_t)f->ins[k].addr : 16 * k;
		p->addr_to_pc[a / 16] = k;
	}
	p->addr_to_pc[p->naddr - 1] = f->nins;
	p->nreg = f->info.regcount > 0 ? f->info.regcount : 0;
	for (uint32_t k = 0; k < f->nins; k++)
		if (decode_one(&c, &f->ins[k], &p->ins[k], k) < 0)
			nbad++;
	/* the instruction after the last: running into it is a fault, not undefined behaviour */
	p->ins[f->nins].exec = exec_end;
	p->ins[f->nins].pc = f->nins;
	p->ins[f->nins].guard = -1;
	p->ins[f->nins].addr = f->nins ? p->ins[f->nins - 1].addr + 16 : 0;
	if (nbad) {
		prog_free(p);
		return NULL;
	}
	if (p->nreg < 1)
		p->nreg = 1;
	window_guard(p, f);
	p->shared_static = f->info.shared_size > 0 ? f->info.shared_size : 0;
	p->frame_size = f->info.frame_size > 0 ? f->info.frame_size : 0;
	p->stack_size = p->frame_size;
	if (f->info.min_stack_size > p->stack_size)
		p->stack_size = f->info.min_stack_size;
	p->stack_size = (p->stack_size + 15) & ~15;
	p->param_base = f->info.param_cbank_off >= 0 ? f->info.param_cbank_off
	                                             : arch_code(sm)->bank0->param;
	p->param_size = f->info.cbank_param_size;
	return p;
}

void
prog_free(Prog *p)
{
	if (!p)
		return;
	free(p->ins);
	free(p->addr_to_pc);
	free(p->pool_exec);
	free(p->win_exec);
	free(p->win_top);
	free(p);
}

static void
exec_end(Exec *x, const DIns *d, uint32_t mask)
{
	(void)d;
	sim_fault(x, FaultIllegalInstr, (unsigned)__builtin_ctz(mask | 0x80000000u),
	          "ran past the last instruction of the kernel");
}

/* ---------------------------------------------------------------------------------------------
 * Run-time operand access.
 */
static inline void
bcast(uint32_t tmp[WarpSize], uint32_t v)
{
	for (unsigned l = 0; l < WarpSize; l++)
		tmp[l] = v;
}

const uint32_t sim_zeros[WarpSize];  /* RZ, URZ: read-only (a write through it faults) */

uint32_t *
sim_src_slow(Exec *x, const DOp *o, uint32_t tmp[WarpSize])
{
	Warp *w = x->w;

	switch (o->kind) {
	case DR:
		if (o->reg == RegRZ)
			return (uint32_t *)sim_zeros;
		return sim_vreg(x, o, 0);
	case DUR:
		if (o->reg == RegURZ)
			return (uint32_t *)sim_zeros;
		bcast(tmp, w->ur[o->reg]);
		return tmp;
	case DImm:
	case DLabel:
	case DSbSet:
		bcast(tmp, (uint32_t)o->imm);
		return tmp;
	case DCBank:
		if (o->reg == RegRZ) {
			uint32_t off = (uint32_t)o->imm + ((o->flags & DFUreg) && o->ureg != RegURZ
			                                    ? w->ur[o->ureg] : 0), v;
			/* a whole word inside the bank: read it here (sim_const32 otherwise) */
			if (o->bank < NumCBanks && x->cbank[o->bank] && off < x->cbank_size[o->bank] &&
			    x->cbank_size[o->bank] - off >= 4)
				memcpy(&v, x->cbank[o->bank] + off, 4);
			else
				v = sim_const32(x, o->bank, off, 0);
			bcast(tmp, v);
		} else {
			const uint32_t *r = sim_vreg(x, o, 0);
			uint32_t base = (uint32_t)o->imm + ((o->flags & DFUreg) && o->ureg != RegURZ
			                                     ? w->ur[o->ureg] : 0);
			for (unsigned l = 0; l < WarpSize; l++)
				tmp[l] = sim_const32(x, o->bank, base + r[l], l);
		}
		return tmp;
	case DSReg:
		for (unsigned l = 0; l < WarpSize; l++)
			tmp[l] = sim_sreg(x, (int)o->imm, l);
		return tmp;
	case DP:
	case DUP: {
		uint32_t m = sim_pred(x, o);
		for (unsigned l = 0; l < WarpSize; l++)
			tmp[l] = (m >> l) & 1;
		return tmp;
	}
	case DV:
		return sim_vreg(x, o, 0);
	default:
		sim_fault(x, FaultInternal, (unsigned)__builtin_ctz(x->active | 0x80000000u),
		          "operand of kind %d has no value (decoder bug)", o->kind);
		memset(tmp, 0, WarpSize * sizeof *tmp);
		return tmp;
	}
}

uint64_t
sim_src64(Exec *x, const DOp *o, unsigned lane)
{
	Warp *w = x->w;
	uint32_t off;

	switch (o->kind) {
	case DR:
		if (o->reg == RegRZ)
			return 0;
		return sim_vreg(x, o, 0)[lane] | (uint64_t)sim_vreg(x, o, 1)[lane] << 32;
	case DUR:
		if (o->reg == RegURZ)
			return 0;
		return w->ur[o->reg] | (uint64_t)(o->reg + 1u < RegURZ ? w->ur[o->reg + 1] : 0) << 32;
	case DCBank:
		off = (uint32_t)o->imm + (o->reg != RegRZ ? sim_vreg(x, o, 0)[lane] : 0) +
		      ((o->flags & DFUreg) && o->ureg != RegURZ ? w->ur[o->ureg] : 0);
		return sim_const32(x, o->bank, off, lane) |
		       (uint64_t)sim_const32(x, o->bank, off + 4, lane) << 32;
	case DImm:
		return (uint64_t)o->imm;
	case DV:
		return sim_vreg(x, o, 0)[lane] | (uint64_t)sim_vreg(x, o, 1)[lane] << 32;
	default:
		return 0;
	}
}

uint64_t
sim_addr(Exec *x, const DOp *o, unsigned lane)
{
	static const uint8_t scale[] = { [SelX4] = 2, [SelX8] = 3, [SelX16] = 4 };
	Warp *w = x->w;
	uint64_t a = 0;

	if (dop_hasreg(o)) {
		a = sim_vreg(x, o, 0)[lane];
		if (o->flags & DFWide)
			a |= (uint64_t)sim_vreg(x, o, 1)[lane] << 32;
		if (o->sel < sizeof scale)
			a <<= scale[o->sel];
	}
	if ((o->flags & DFUreg) && o->ureg != RegURZ) {
		uint64_t u = w->ur[o->ureg];
		if ((o->flags & DFUWide) && o->ureg + 1u < RegURZ)
			u |= (uint64_t)w->ur[o->ureg + 1] << 32;
		a += u;
	}
	return a + (uint64_t)o->imm;
}

void
sim_dst(Exec *x, const DOp *o, const uint32_t v[WarpSize], uint32_t mask)
{
	uint32_t *r;

	switch (o->kind) {
	case DR:
		if (o->reg == RegRZ)
			return;
		r = sim_vreg(x, o, 0);
		if (mask == ~0u) {
			memcpy(r, v, WarpSize * sizeof *r);
			return;
		}
		for (unsigned l = 0; l < WarpSize; l++)
			r[l] = (mask >> l) & 1 ? v[l] : r[l];
		return;
	case DUR:
		if (o->reg != RegURZ && mask)
			x->w->ur[o->reg] = v[__builtin_ctz(mask)];
		return;
	case DP:
	case DUP:
		{
			uint32_t t = 0;
			for (unsigned l = 0; l < WarpSize; l++)
				t |= (v[l] != 0) << l;
			sim_dst_pred(x, o, t, mask);
		}
		return;
	default:
		return;
	}
}

void
sim_dst_pred(Exec *x, const DOp *o, uint32_t lanes_true, uint32_t mask)
{
	Warp *w = x->w;

	if (o->kind == DP) {
		if (o->reg != RegPT)
			w->p[o->reg] = (w->p[o->reg] & ~mask) | (lanes_true & mask);
	} else if (o->kind == DUP) {
		if (o->reg != RegUPT && mask)
			w->up[o->reg] = (lanes_true & mask) != 0;
	}
}

uint32_t
sim_pred(Exec *x, const DOp *o)
{
	uint32_t m;

	switch (o->kind) {
	case DP:
		m = x->w->p[o->reg];
		break;
	case DUP:
		m = x->w->up[o->reg] ? ~0u : 0;
		break;
	case DImm:
		m = o->imm ? ~0u : 0;
		break;
	default:
		m = 0;
		break;
	}
	return o->flags & DFNot ? ~m : m;
}
