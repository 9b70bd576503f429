/* check.c: checks of a parsed listing that need the opcode table (the parser itself is
 * opcode-agnostic), run by fiberc after sass_parse: the listing has a kernel; every opcode is
 * one of ir/ops.h; the first encoding word has the opcode bits of the instruction's family
 * (encop.c; families never seen in nvcc output are not checked) and, where the family is known
 * to put it in bits 16..23, the destination register the text names; register pairs and quads are
 * aligned and do not run into RZ, URZ, PT or UPT. Each problem is an error at the opcode or
 * register concerned.
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

/* the register tuples of i: the width of each register operand is what op_slots finds with the
 * register renumbered to 0 of its class (it stops a tuple at RZ, so the width is not seen at the
 * register itself); i is left as it was */
static int
tuples(Fn *f, Ins *i, Diag *d)
{
	Opnd low[MaxOpnd], *opnd = i->opnd;
	Slot *slot = i->slot;
	uint8_t nslot = i->nslot;
	int err = 0, any = 0;

	if ((i->op < NOp && (optab[i->op].flags & OFApprox)) || i->nopnd > MaxOpnd)
		return 0;
	for (unsigned k = 0; k < i->nopnd; k++) {
		low[k] = opnd[k];
		if (low[k].kind == OReg && RCLS(low[k].r[0]) < NRegClass && RCLS(low[k].r[0]) &&
		    !reg_isconst(low[k].r[0])) {
			low[k].r[0] = REG(RCLS(low[k].r[0]), 0);
			any = 1;
		}
	}
	if (!any)
		return 0;
	i->opnd = low;
	if (op_slots(f, i) == 0)
		for (unsigned k = 0; k < i->nslot && !err; k++) {
			const Slot *s = &i->slot[k];
			Reg r;
			unsigned c, n = s->n;
			char name[16];
			if (s->opnd >= i->nopnd || s->field != 0 || n < 2 || low[s->opnd].kind != OReg ||
			    s->reg != low[s->opnd].r[0] || s->reg == opnd[s->opnd].r[0])
				continue;
			r = opnd[s->opnd].r[0];
			c = RCLS(r);
			reg_name(r, name, sizeof name);
			if (RNUM(r) + n - 1 >= regtab[c].nval && regtab[c].zero < 0) {
				error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand, which runs "
				         "past %s%u", name, n, regtab[c].prefix, regtab[c].nval - 1u);
				err = 1;
			} else if (RNUM(r) + n - 1 >= regtab[c].nval) {
				error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand, which runs "
				         "into %s", name, n, regtab[c].zname);
				err = 1;
			} else if ((c == RR || c == RUR) && (n == 2 || n == 4) && RNUM(r) % n) {
				error_at(d, reg_loc(f->mod, i, r), "'%s' begins a %u-register operand: it must be "
				         "a multiple of %u", name, n, n);
				err = 1;
			}
		}
	i->opnd = opnd;
	i->slot = slot;
	i->nslot = nslot;
	return err;
}

/* the destination register in bits 16..23 of the first word is the one the text names, for the
 * families whose encoding is known to put it there (encop.c) */
static void
dest_field(const Module *m, const Ins *i, Diag *d)
{
	const Opnd *o = i->opnd;
	unsigned enc = (unsigned)(i->enc[0] >> 16) & 0xff;
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

int
sass_check(Module *m, Diag *d)
{
	int nerr = d->nerr;

	if (m->nfn == 0)
		error_at(d, (Loc){ 0, 0 }, "no kernel in the input (no '.text.<name>' section)");
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		for (uint32_t j = 0; j < f->nins; j++) {
			Ins *i = &f->ins[j];
			int known, self, other;
			if (i->op == Ounknown) {
				error_at(d, opcode_loc(m, i), "unknown opcode '%s'", mstr(m, i->name));
				continue;
			}
			if (i->nenc && (other = enc_family(i->op, i->enc[0], &known, &self)) >= 0 && known
			    && !self)
				error_at(d, opcode_loc(m, i), "the encoding word 0x%016llx is %s's (opcode "
				         "bits 0x%03x), not %s's", (unsigned long long)i->enc[0], op_name(other),
				         (unsigned)(i->enc[0] & 0x1ff), mstr(m, i->name));
			else if (i->nenc && known && self)
				dest_field(m, i, d);
			tuples(f, i, d);
		}
	}
	return d->nerr > nerr ? -1 : 0;
}
