/* fmt.c: one instruction or operand as SASS text, spelt exactly as nvdisasm prints it, so that
 * parsing a listing and printing it back gives the same text (modulo blanks). With SSA (f->in_ssa)
 * the register operands carry their versions, `R2<5,1>.64`; pseudo-operands follow the real ones:
 * `old(R7<2>)` for a predicated definition's old value, `def(P0<3>)` and `use(UR4<1,1>)` for
 * registers that no operand names (Slot.field == SlotImplicit) and `use(B1<2>)` for the value an
 * operand both read and written had before (`BREAK B1<3>`), see docs/ir.md; a branch-target
 * annotation (Ins.targets) comes last, `(*"BRANCH_TARGETS .L_x_1"*)`. The spelling flags
 * FSpell0..2 are described in frontend/sass/sass.y. Both functions work like snprintf: they return the
 * full length.
 */
#include "ir.h"

#include <stdio.h>
#include <string.h>

typedef struct Out Out;

struct Out {
	char *p;           /* buffer */
	size_t n;          /* its size */
	size_t len;        /* characters produced (may exceed n - 1) */
};

/* append n bytes; the NUL is written once, by end() */
static inline void
put(Out *o, const char *s, size_t n)
{
	if (o->len + n < o->n) {
		char *d = o->p + o->len;
		if (n > 8) {
			memcpy(d, s, n);
		} else {
			for (size_t k = 0; k < n; k++)
				d[k] = s[k];
		}
	} else if (o->len + 1 < o->n) {
		memcpy(o->p + o->len, s, o->n - o->len - 1);
	}
	o->len += n;
}

static int
end(Out *o)
{
	if (o->n)
		o->p[o->len < o->n ? o->len : o->n - 1] = 0;
	return (int)o->len;
}

/* a string literal: its length is known */
#define PUTS(o, lit) put((o), (lit), sizeof(lit) - 1)

static void
putatom(Out *o, const Module *m, uint32_t a)
{
	put(o, atomstr(m->atoms, a), atomlen(m->atoms, a));
}

static inline void
putc_(Out *o, char c)
{
	if (o->len + 1 < o->n)
		o->p[o->len] = c;
	o->len++;
}

/* numbers by hand: snprintf is most of the cost of printing a listing */
static void
putu(Out *o, uint64_t v)
{
	char b[24];
	int k = sizeof b;

	if (v < 10) {
		putc_(o, (char)('0' + v));
		return;
	}
	do
		b[--k] = (char)('0' + v % 10);
	while (v /= 10);
	put(o, b + k, sizeof b - (size_t)k);
}

static void
puthex(Out *o, int64_t v, int neg_ok)
{
	char b[24];
	int k = sizeof b;
	uint64_t u = (uint64_t)v;

	if (v < 0 && neg_ok)
		u = -(uint64_t)v;
	do
		b[--k] = "0123456789abcdef"[u & 15];
	while (u >>= 4);
	b[--k] = 'x';
	b[--k] = '0';
	if (v < 0 && neg_ok)
		b[--k] = '-';
	put(o, b + k, sizeof b - (size_t)k);
}

static void
putnum(Out *o, int64_t v, int hex)
{
	if (hex) {
		puthex(o, v, 1);
		return;
	}
	if (v < 0) {
		putc_(o, '-');
		putu(o, -(uint64_t)v);
	} else {
		putu(o, (uint64_t)v);
	}
}

static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static void
putreg(Out *o, Reg r)
{
	unsigned n = RNUM(r), c = RCLS(r);
	char b[8];

	if (c >= NRegClass || c == RNone) {
		putc_(o, '?');
		return;
	}
	if (reg_isconst(r)) {
		put(o, regtab[c].zname, strlen(regtab[c].zname));
		return;
	}
	if (c == RR && n < 1000) {      /* R0..R254: most registers, by hand */
		char *d = o->len + 5 < o->n ? o->p + o->len : b;
		size_t k = 1;
		d[0] = 'R';
		if (n >= 100) {
			d[k++] = (char)('0' + n / 100);
			n %= 100;
			d[k++] = digits2[2 * n];
			d[k++] = digits2[2 * n + 1];
		} else if (n >= 10) {
			d[k++] = digits2[2 * n];
			d[k++] = digits2[2 * n + 1];
		} else {
			d[k++] = (char)('0' + n);
		}
		if (d == b)
			put(o, b, k);
		else
			o->len += k;
		return;
	}
	put(o, regtab[c].prefix, strlen(regtab[c].prefix));
	putu(o, n);
}

/* the versions of a slot: <3> or <5,1> */
static void
putvers(Out *o, const Fn *f, const Slot *s)
{
	putc_(o, '<');
	for (unsigned k = 0; k < s->n; k++) {
		uint32_t v = s->v ? s->v[k] : 0;
		if (k)
			putc_(o, ',');
		putu(o, v && v < f->nval ? f->val[v].ver : 0);
	}
	putc_(o, '>');
}

/* a use of an operand's register that the instruction also writes (`BREAK B1`, `BMOV.CLEAR`):
 * the operand's annotation shows the definition, so the value read is the pseudo-operand use() */
static int
shadowed(const Ins *i, const Slot *sl)
{
	if (sl->kind != SUse || sl->field >= SlotImplicit)
		return 0;
	for (unsigned s = 0; s < i->nslot; s++)
		if (i->slot[s].kind == SDef && i->slot[s].opnd == sl->opnd &&
		    i->slot[s].field == sl->field)
			return 1;
	return 0;
}

/* the annotation of register field fld of operand k, if SSA is shown and a slot covers it */
static void
putann(Out *o, const Fn *f, const Ins *i, int k, int fld, int ssa)
{
	if (!ssa)
		return;
	for (unsigned s = 0; s < i->nslot; s++) {
		const Slot *sl = &i->slot[s];
		if (sl->kind != SOld && sl->opnd == k && sl->field == fld && !reg_isconst(sl->reg)) {
			putvers(o, f, sl);
			return;
		}
	}
}

/* register field fld: name, annotation, suffix */
static void
putfield(Out *o, const Fn *f, const Ins *i, int k, const Opnd *x, int fld, int ssa)
{
	const Module *m = f ? f->mod : NULL;
	char b[48];

	if (reg_isvany(x->r[fld]) && f) {    /* FIBER-native: [%p.64] */
		vreg_spell(f, x->r[fld], b, sizeof b);
		put(o, b, strlen(b));
	} else {
		putreg(o, x->r[fld]);
	}
	putann(o, f, i, k, fld, ssa);
	if (x->sfx[fld] && m) {
		putc_(o, '.');
		putatom(o, m, x->sfx[fld]);
	}
}

/* `R2.64+UR4+0x10`: the inside of [...] of an address or of a constant bank's offset */
static void
putaddr(Out *o, const Fn *f, const Ins *i, int k, const Opnd *x, int nfield, int ssa)
{
	int any = 0;

	for (int fld = 0; fld < nfield; fld++) {
		if (RCLS(x->r[fld]) == RNone)
			continue;
		if (any++)
			putc_(o, '+');
		putfield(o, f, i, k, x, fld, ssa);
	}
	if (!any) {
		putnum(o, x->imm, x->flags & FHex);
		return;
	}
	if (x->imm == 0)
		return;
	if (x->imm < 0 && !(x->flags & FPlusNeg)) {
		putnum(o, x->imm, x->flags & FHex);
		return;
	}
	putc_(o, '+');
	putnum(o, x->imm, x->flags & FHex);
}

static void
opnd(Out *o, const Fn *f, const Ins *i, int k, int ssa)
{
	const Module *m = f ? f->mod : NULL;
	Opnd g = k == SlotGuard ? guard_opnd(&i->guard) : (Opnd){0};
	const Opnd *x = k == SlotGuard ? &g : &i->opnd[k];
	int inside = (x->flags & FReuse) && (!(x->flags & FAbs) || (x->flags & FSpell2));
	/* `|R20|.H0_H0`: the selector after the bars (FSpell1 of an |operand| without FSpell2) */
	int selout = x->kind == OReg && (x->flags & (FAbs | FSpell1 | FSpell2)) == (FAbs | FSpell1);
	char b[48];

	if (x->flags & FNeg)
		putc_(o, '-');
	if (x->flags & FNot)
		putc_(o, '~');
	if (x->flags & FLNot)
		putc_(o, '!');
	if (x->flags & FAbs)
		putc_(o, '|');
	switch (x->kind) {
	case OReg:
		if ((x->flags & FPoolRef) && m) {       /* FIBER pool operand: kv[2] */
			putatom(o, m, x->atom);
			putc_(o, '[');
			putnum(o, x->imm, x->flags & FHex);
			putc_(o, ']');
		} else if (reg_isvany(x->r[0]) && f) {  /* FIBER-native: %acc[2], %x@1, %p1 */
			vreg_spell(f, x->r[0], b, sizeof b);
			put(o, b, strlen(b));
			if (x->flags & FVRemote) {
				putc_(o, '@');
				putu(o, (unsigned)x->imm);
			}
		} else {
			putreg(o, x->r[0]);
		}
		putann(o, f, i, k, 0, ssa);
		if (inside && !(x->flags & FSpell1))
			PUTS(o, ".reuse");
		if (x->sfx[0] && m && !selout) {
			putc_(o, '.');
			putatom(o, m, x->sfx[0]);
		}
		if (inside && (x->flags & FSpell1))
			PUTS(o, ".reuse");
		break;
	case OSReg:
	case OExpr:
		if (m)
			putatom(o, m, x->atom);
		else
			putc_(o, '?');
		break;
	case OImm:
		putnum(o, x->imm, x->flags & FHex);
		break;
	case OFImm:
		if (x->atom && m) {
			const char *t = mstr(m, x->atom);
			size_t n = atomlen(m->atoms, x->atom);
			put(o, t, n);
			/* nvdisasm writes a blank after INF and QNAN: `-INF , !P2`, `-QNAN  ;` */
			if (n >= 3 && (!strcmp(t + n - 3, "INF") || !strcmp(t + n - 3, "NAN")))
				putc_(o, ' ');
		} else {
			int n = snprintf(b, sizeof b, "%.17g", x->fimm);
			put(o, b, (size_t)n);
		}
		break;
	case OCBank:
		if (x->flags & FCx) {
			PUTS(o, "cx[");
			putfield(o, f, i, k, x, 1, ssa);
			PUTS(o, "][");
		} else {
			PUTS(o, "c[");
			puthex(o, x->imm2, 0);
			PUTS(o, "][");
		}
		putaddr(o, f, i, k, x, 1, ssa);
		putc_(o, ']');
		break;
	case OMem:
		if (x->flags & FDesc) {
			if (x->flags & FSpell2)
				PUTS(o, "gdesc[");
			else
				PUTS(o, "desc[");
			putfield(o, f, i, k, x, 2, ssa);
			putc_(o, ']');
			if (x->flags & FSpell2) {
				if (x->sfx[0] && m) {      /* gdesc[UR8].tnspB */
					putc_(o, '.');
					putatom(o, m, x->sfx[0]);
				}
				break;
			}
		}
		putc_(o, '[');
		putaddr(o, f, i, k, x, 2, ssa);
		putc_(o, ']');
		break;
	case OLabel:
		if ((x->flags & FSpell1) || !x->atom || !m) {
			puthex(o, x->imm, 1);
		} else {
			PUTS(o, "`(");
			putatom(o, m, x->atom);
			putc_(o, ')');
		}
		break;
	case OSbSet:
		putc_(o, '{');
		if (m)
			putatom(o, m, x->atom);
		putc_(o, '}');
		break;
	case OPool:
		PUTS(o, "pool(");
		putnum(o, x->imm, 0);
		putc_(o, ')');
		break;
	default:
		PUTS(o, "?");
		break;
	}
	if (x->flags & FAbs)
		putc_(o, '|');
	if ((x->flags & FReuse) && !inside)
		PUTS(o, ".reuse");
	if (selout && x->sfx[0] && m) {
		putc_(o, '.');
		putatom(o, m, x->sfx[0]);
	}
}

int
fmt_opnd(char *buf, size_t n, const Fn *f, const Ins *i, int k)
{
	Out o = { buf, n, 0 };

	opnd(&o, f, i, k, f && f->in_ssa);
	return end(&o);
}

int
fmt_ins(char *buf, size_t n, const Fn *f, const Ins *i, int ssa)
{
	const Module *m = f ? f->mod : NULL;
	Out o = { buf, n, 0 };

	ssa = ssa && f && f->in_ssa;
	if (i->guarded) {
		putc_(&o, '@');
		opnd(&o, f, i, SlotGuard, ssa);
		putc_(&o, ' ');
	}
	if (m)
		putatom(&o, m, i->name);
	else
		putc_(&o, '?');
	for (unsigned k = 0; k < i->nmod && m; k++) {
		putc_(&o, '.');
		putatom(&o, m, i->mod[k]);
	}
	for (int k = 0; k < i->nopnd; k++) {
		if (k == 0 || (i->opnd[k].flags & FSpell0))
			putc_(&o, ' ');
		else
			PUTS(&o, ", ");
		opnd(&o, f, i, k, ssa);
	}
	/* pseudo-operands: conditional definitions' old values, and registers no operand names */
	for (unsigned s = 0; ssa && s < i->nslot; s++) {
		const Slot *sl = &i->slot[s];
		if ((sl->kind != SOld && sl->field < SlotImplicit && !shadowed(i, sl)) ||
		    reg_isconst(sl->reg) || RCLS(sl->reg) == RNone)
			continue;
		put(&o, sl->kind == SOld ? " old(" : sl->kind == SDef ? " def(" : " use(", 5);
		putreg(&o, sl->reg);
		putvers(&o, f, sl);
		putc_(&o, ')');
	}
	if (i->targets && m) {
		PUTS(&o, " (*");
		putatom(&o, m, i->targets->text);
		PUTS(&o, "*)");
	}
	if (i->flags & INoSemi)
		putc_(&o, ';');
	else
		PUTS(&o, " ;");
	return end(&o);
}
