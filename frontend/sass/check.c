/* check.c: checks of a parsed listing that need the opcode table (the parser itself is
 * opcode-agnostic), run by fiberc after sass_parse: the listing has a kernel; every opcode is
 * one of ir/ops.h; the first encoding word has the opcode bits of the instruction's family
 * (encop.c; families never seen in nvcc output are not checked) and, where the family is known
 * to put it in bits 16..23, the destination register the text names; register pairs and quads are
 * aligned and do not run into RZ, URZ, PT or UPT. Each problem is an error at the opcode or
 * register concerned. The encoding checks alone (sass_check_enc) also run where fibersim and the
 * runtime load a listing, so that a word contradicting its text is never simulated.
 */
#include "parse.h"

#include <stdio.h>
#include <string.h>

/* the opcode word of i in the text: after the guard */
static Loc
opcode_loc(const Module *m, const Ins *i)
{
	const char *t = m->src->text;
	uint32_t a = i->loc.start, e = i->loc.end, b;

	if (a < e && t[a] == '@') {
		while (a < e && t[a] != ' ' && t[a] != '\t')
			a++;
		while (a < e && (t[a] == ' ' || t[a] == '\t'))
			a++;
	}
	for (b = a; b < e && t[b] != ' ' && t[b] != '\t' && t[b] != ';'; b++)
		;
	return (Loc){ a, b };
}

/* where register name r is written in i (the whole name, not a prefix of R20), else the
 * instruction */
static Loc
reg_loc(const Module *m, const Ins *i, Reg r)
{
	const char *t = m->src->text;
	char name[16];
	size_t n;

	reg_name(r, name, sizeof name);
	n = strlen(name);
	for (uint32_t a = i->loc.start; a + n <= i->loc.end; a++) {
		if (memcmp(t + a, name, n) != 0)
			continue;
		if (a > i->loc.start && (t[a - 1] == '_' || (t[a - 1] >= 'A' && t[a - 1] <= 'Z')))
			continue;
		if (t[a + n] >= '0' && t[a + n] <= '9')
			continue;
		return (Loc){ a, a + (uint32_t)n };
	}
	return i->loc;
}

/* where text name is written in i (its first occurrence), else the instruction */
static Loc
text_loc(const Module *m, const Ins *i, const char *name)
{
	size_t n = strlen(name);

	for (uint32_t a = i->loc.start; m->src && a + n <= i->loc.end; a++)
		if (memcmp(m->src->text + a, name, n) == 0)
			return (Loc){ a, a + (uint32_t)n };
	return i->loc;
}

/* the numbers of class c that carry a value (ir/regs.h): a tuple must end below it */
static unsigned
top(unsigned c)
{
	return c && c < NRegClass ? regtab[c].nval : 0;
}

/* the tuples of slots sl[0..n), computed on operands ref (i's own opnd, or a renumbered copy):
 * the first that runs into RZ, URZ, PT or UPT, past the last register of a class without one
 * (V2047), or is misaligned is an error at i's register */
static int
check_slots(Fn *f, const Ins *i, const Opnd *opnd, const Slot *sl, unsigned n, const Opnd *ref,
            Diag *d)
{
	for (unsigned k = 0; k < n; k++) {
		const Slot *s = &sl[k];
		Reg r;
		unsigned c, w = s->n;
		char name[16];
		if (s->opnd >= i->nopnd || s->field != 0 || w < 2 || ref[s->opnd].kind != OReg ||
		    s->reg != ref[s->opnd].r[0])
			continue;
		r = opnd[s->opnd].r[0];
		c = RCLS(r);
		if (reg_isvirt(r))
			continue;      /* vreg_tuples */
		if (!top(c) || reg_isconst(r) || RNUM(r) == 0)
			continue;      /* not renumbered: R0 holds any tuple */
		if (RNUM(r) + w - 1 >= top(c)) {
			reg_name(r, name, sizeof name);
			if (regtab[c].zero < 0)
				error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand, which "
				         "runs past %s%u", name, w, regtab[c].prefix, regtab[c].nval - 1u);
			else
				error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand, which "
				         "runs into %s", name, w, regtab[c].zname);
			return 1;
		}
		if ((c == RR || c == RUR) && (w == 2 || w == 4) && RNUM(r) % w) {
			reg_name(r, name, sizeof name);
			error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand: it must be "
			         "a multiple of %u", name, w, w);
			return 1;
		}
	}
	return 0;
}

/* a slot of i that ends right before RZ, URZ, PT or UPT, or at the last register of its class
 * (V2047): op_slots may have cut it there */
static int
clipped(const Ins *i)
{
	for (unsigned k = 0; k < i->nslot; k++) {
		unsigned c = RCLS(i->slot[k].reg);
		if (top(c) && RNUM(i->slot[k].reg) + i->slot[k].n == top(c))
			return 1;
	}
	return 0;
}

/* the register tuples of i: the width of each register operand is what op_slots finds with the
 * register renumbered to 0 of its class (it stops a tuple at RZ, so the width is not seen at the
 * register itself). op_slots cuts a tuple only there, so when no slot of i ends right before RZ
 * (URZ, PT, UPT) i's own slots have those widths: i keeps them, as SSA construction would
 * compute the same. Otherwise they come from a renumbered copy, as scratch; i is left as it
 * was. */
static int
tuples(Fn *f, Ins *i, Diag *d)
{
	Opnd low[MaxOpnd], *opnd = i->opnd;
	Slot *slot = i->slot;
	uint8_t nslot = i->nslot;
	ArenaMark mk;
	int err = 0, any = 0;

	if ((i->op < NOp && (optab[i->op].flags & OFApprox)) || i->nopnd > MaxOpnd)
		return 0;
	for (unsigned k = 0; k < i->nopnd && !any; k++)
		any = opnd[k].kind == OReg && top(RCLS(opnd[k].r[0])) && !reg_isconst(opnd[k].r[0]);
	if (!any)
		return 0;
	if (!i->slot && op_slots(f, i) == 0 && !clipped(i))
		return check_slots(f, i, opnd, i->slot, i->nslot, opnd, d);
	if (i->slot != slot) {
		/* cut: its slots stay (they are right), the widths come from the copy */
		slot = i->slot;
		nslot = i->nslot;
	}
	for (unsigned k = 0; k < i->nopnd; k++) {
		low[k] = opnd[k];
		if (low[k].kind == OReg && top(RCLS(low[k].r[0])) && !reg_isconst(low[k].r[0]))
			low[k].r[0] = REG(RCLS(low[k].r[0]), 0);
	}
	mk = arena_mark(f->mod->arena);   /* the slots of the copy are scratch */
	i->opnd = low;
	if (op_slots(f, i) == 0)
		err = check_slots(f, i, opnd, i->slot, i->nslot, low, d);
	i->opnd = opnd;
	i->slot = slot;
	i->nslot = nslot;
	arena_release(f->mod->arena, mk);
	return err;
}

/* the destination register in bits 16..23 of the first word is the one the text names, for the
 * families whose encoding is known to put it there (encop.c) */
static void
dest_field(const Module *m, const Ins *i, Diag *d)
{
	const Opnd *o = i->opnd;
	unsigned enc = GET_RD(i->enc[0]);
	char name[16], coded[48];

	if (!i->nopnd || o->kind != OReg || (RCLS(o->r[0]) != RR && RCLS(o->r[0]) != RUR) ||
	    (o->flags & (FNeg | FAbs | FNot | FLNot)) || !enc_dest(i->op) || enc == RNUM(o->r[0]))
		return;
	reg_name(o->r[0], name, sizeof name);
	if (RCLS(o->r[0]) == RUR && enc > RegURZ)
		snprintf(coded, sizeof coded, "0x%02x (no uniform register)", enc);
	else
		reg_name(REG(RCLS(o->r[0]), enc), coded, sizeof coded);
	error_at(d, reg_loc(m, i, o->r[0]), "the encoding word 0x%016llx writes %s, not %s",
	         (unsigned long long)i->enc[0], coded, name);
}

/* the encoding word of i agrees with its text: the opcode bits are its family's, and the
 * destination register field (where the family has one) is the register the text names */
static void
enc_agrees(const Module *m, const Ins *i, Diag *d)
{
	int known, self, other;

	if (!i->nenc || i->op == Ounknown)
		return;
	if ((other = enc_family(i->op, i->enc[0], &known, &self)) >= 0 && known && !self)
		error_at(d, opcode_loc(m, i), "the encoding word 0x%016llx is %s's (opcode "
		         "bits 0x%03x), not %s's", (unsigned long long)i->enc[0], op_name(other),
		         GET_OPCODE(i->enc[0]), mstr(m, i->name));
	else if (known && self)
		dest_field(m, i, d);
}

/* FIBER-native: every register tuple that starts at a virtual register lies inside its
 * declaration and is aligned in it as an R tuple would be (2: even, 4 and more: a multiple of 4);
 * a remote read (%x@W) is a source. An error at the operand. */
static void
vreg_tuples(Fn *f, Ins *i, Diag *d)
{
	int any = 0;
	char name[64];

	for (unsigned k = 0; k < i->nopnd && !any; k++)
		for (int fl = 0; fl < 3; fl++)
			any |= i->opnd[k].kind != ONone && reg_isvirt(i->opnd[k].r[fl]);
	if (!any || (!i->slot && op_slots(f, i) < 0))
		return;
	for (unsigned k = 0; k < i->nslot; k++) {
		const Slot *s = &i->slot[k];
		unsigned e = 0, al = s->n < 4 ? s->n : 4;
		const FVReg *v = vreg_of(f, s->reg, &e);
		Loc at = i->loc;
		if (!v || s->kind == SOld)
			continue;
		int remote = s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FVRemote) && s->kind == SDef;
		if (!remote && e + s->n <= v->size && !(al > 1 && e % al))
			continue;          /* fine: the name and place are for the messages only */
		vreg_spell(f, s->reg, name, sizeof name);
		at = text_loc(f->mod, i, name);
		if (remote) {
			error_at(d, at, "'%s@%lld' is a destination: a remote write (another weft's "
			         "register); a remote read is a source only", name,
			         (long long)i->opnd[s->opnd].imm);
			return;
		}
		if (e + s->n > v->size) {
			error_at(d, at, "'%s' begins a %u-register operand of %s, but '%%%s' has %u "
			         "register%s (declare '.vreg %%%s[%u]')", name, s->n, mstr(f->mod, i->name),
			         mstr(f->mod, v->name), v->size, v->size == 1 ? "" : "s",
			         mstr(f->mod, v->name), s->n > 4 ? 8 : s->n > 2 ? 4 : 2);
			return;
		}
		if (al > 1 && e % al) {
			error_at(d, at, "'%s' begins a %u-register operand: its element must be a "
			         "multiple of %u", name, s->n, al);
			return;
		}
	}
}

/* a listing to run names no virtual register: fiberc --mode=fiber-native allocates them */
static void
no_vregs(Fn *f, Diag *d)
{
	if (f->nvreg)
		vreg_none(f, d);
}

int
sass_check_enc(Module *m, Diag *d)
{
	int nerr = d->nerr;

	for (uint32_t k = 0; k < m->nfn; k++) {
		for (uint32_t j = 0; j < m->fn[k]->nins; j++)
			enc_agrees(m, &m->fn[k]->ins[j], d);
		no_vregs(m->fn[k], d);
	}
	return d->nerr > nerr ? -1 : 0;
}

/* sass_check, or with unknown 0 sass_check_load: an unknown opcode is skipped, not an error */
static int
check(Module *m, Diag *d, int unknown)
{
	int nerr = d->nerr;

	if (m->nfn == 0)
		error_at(d, (Loc){ 0, 0 }, "no kernel in the input (no '.text.<name>' section)");
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		for (uint32_t j = 0; j < f->nins; j++) {
			Ins *i = &f->ins[j];
			if (i->op == Ounknown) {
				if (unknown)
					error_at(d, opcode_loc(m, i), "unknown opcode '%s'", mstr(m, i->name));
				continue;
			}
			enc_agrees(m, i, d);
			tuples(f, i, d);
			vreg_tuples(f, i, d);
		}
	}
	return d->nerr > nerr ? -1 : 0;
}

int
sass_check(Module *m, Diag *d)
{
	return check(m, d, 1);
}

int
sass_check_load(Module *m, Diag *d)
{
	return check(m, d, 0);
}
