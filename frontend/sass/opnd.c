/* opnd.c: the grammar's actions for operands: registers (checked against their ranges, with
 * their suffixes and SSA annotations), immediates, constant banks, addresses, descriptors,
 * labels and scoreboard sets, into the instruction's scratch (Ctx.ot); b_opnd files an operand
 * and places its annotations on its register fields. Spelling flags: see sass.y.
 */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- SSA annotations ---------------------------------------------------------------------- */

void
b_vbegin(Ctx *cx)
{
	cx->nvbuf = 0;
}

void
b_vadd(Ctx *cx, uint64_t v, Loc loc)
{
	if (v > UINT32_MAX - 1) {
		error_at(cx->d, loc, "SSA version too large");
		v = 0;
	}
	if (cx->nvbuf == 255) {
		error_at(cx->d, loc, "too many versions in one annotation (at most 255)");
		return;
	}
	vgrow(&cx->vbuf, &cx->cvbuf, cx->nvbuf + 1, sizeof *cx->vbuf);
	cx->vbuf[cx->nvbuf++] = (uint32_t)v;
}

/* the annotation just read (cx->vbuf) belongs to register r */
static void
push_ann(Ctx *cx, Reg r, Loc loc)
{
	SsaAnn *s;

	vgrow(&cx->pann, &cx->cpann, cx->npann + 1, sizeof *cx->pann);
	s = &cx->pann[cx->npann++];
	memset(s, 0, sizeof *s);
	s->opnd = PendOpnd;
	s->n = (uint8_t)cx->nvbuf;
	s->reg = r;
	s->ver = aalloc(cx, cx->nvbuf * sizeof *s->ver);
	memcpy(s->ver, cx->vbuf, cx->nvbuf * sizeof *s->ver);
	s->loc = loc;
	cx->has_ssa = 1;
}

/* a fresh operand in the instruction's scratch */
static uint32_t
onew(Ctx *cx, int kind)
{
	uint32_t k = 63;

	if (cx->not < 64)
		k = cx->not++;
	else if (!cx->opover++)
		error_at(cx->d, (Loc){ cx->pos, cx->pos }, "instruction too long");
	memset(&cx->ot[k], 0, sizeof cx->ot[k]);
	cx->ot[k].kind = (uint8_t)kind;
	return k;
}

static uint32_t
tnew(Ctx *cx)
{
	uint32_t k = cx->ntt < 64 ? cx->ntt++ : 63;   /* 64 terms: reported as too many operands */

	memset(&cx->tt[k], 0, sizeof cx->tt[k]);
	return k;
}

/* ---- operands ------------------------------------------------------------------------------ */

/* The special registers that exist: the names nvdisasm prints (read from its listings of nvcc
 * 13 code for every PTX special register, sm_80 and sm_90, and from the bundled listings) and
 * those the simulator reads (sim/sreg.c). Anything else spelt SR_* is an error. */
static const char *const sregs[] = {
	"SRZ", "SR_AFFINITY", "SR_CLOCK", "SR_CLOCKHI", "SR_CLOCKLO", "SR_CLUSTERID", "SR_CGACTAID",
	"SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z", "SR_CgaCtaId", "SR_EQMASK", "SR_FIBERID", "SR_FIBERNUM", "SR_GEMASK",
	"SR_GLOBALTIMER", "SR_GLOBALTIMERHI", "SR_GLOBALTIMERLO", "SR_GRIDID", "SR_GTMASK",
	"SR_LANEID", "SR_LEMASK", "SR_LTMASK", "SR_LWINHI", "SR_LWINLO", "SR_NCTAID.X",
	"SR_NCTAID.Y", "SR_NCTAID.Z", "SR_NSMID", "SR_NTID.X", "SR_NTID.Y", "SR_NTID.Z",
	"SR_NWARPID", "SR_PM0", "SR_PM1", "SR_PM2", "SR_PM3", "SR_PM4", "SR_PM5", "SR_PM6", "SR_PM7",
	"SR_SMEMSZ", "SR_SMID", "SR_SWINHI", "SR_SWINLO", "SR_SWINSZ", "SR_TID.X", "SR_TID.Y",
	"SR_TID.Z", "SR_VIRTCFG", "SR_VIRTID", "SR_VIRTUALSMID", "SR_WARPID",
};

static int
is_sreg(const char *s, uint32_t n)
{
	for (size_t k = 0; k < sizeof sregs / sizeof sregs[0]; k++)
		if (strlen(sregs[k]) == n && memcmp(sregs[k], s, n) == 0)
			return 1;
	return 0;
}

/* reg_parse with a fast path for R0..R254 (most operands) */
static int
regof(const char *s, uint32_t n, Reg *r)
{
	if (n >= 2 && n <= 4 && s[0] == 'R' && s[1] >= '1' && s[1] <= '9') {
		unsigned v = (unsigned)(s[1] - '0');
		uint32_t k;
		for (k = 2; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			v = v * 10 + (unsigned)(s[k] - '0');
		if (k == n) {
			if (v >= RegLimitR)
				return -2;
			*r = REG(RR, v);
			return 0;
		}
	}
	return reg_parse(s, n, r);
}

/* FIBER-native: the virtual register s[0..n) = `%name`, `%name[k]`, `%name@W` or `%name[k]@W`
 * (the scanner's pattern) in the current function's declarations (.vreg, .vpred): 0 with *r
 * its register (and *remote the weft W, else -1), or -3 after a located error */
static int
vreg_word(Ctx *cx, const char *s, uint32_t n, Loc wloc, Reg *r, int *remote)
{
	uint32_t e = 1, idx = 0, a;
	int hasidx = 0;
	const VName *v = NULL;
	Loc loc = { wloc.start, wloc.start + n };

	while (e < n && s[e] != '[' && s[e] != '@')
		e++;
	a = atom(cx->m->atoms, s + 1, e - 1);
	if (cx->fn && a < cx->cvname && cx->vname[a].fn == cx->fn)
		v = &cx->vname[a];
	if (!v) {
		error_at(cx->d, (Loc){ wloc.start, wloc.start + e }, "undeclared virtual register "
		         "'%.*s' (declare it in the .text header: '.vreg %.*s' or '.vpred %.*s')",
		         (int)e, s, (int)e, s, (int)e, s);
		return -3;
	}
	if (e < n && s[e] == '[') {
		uint32_t b = ++e;
		for (; e < n && s[e] != ']'; e++)
			idx = idx > 100000 ? idx : idx * 10 + (uint32_t)(s[e] - '0');
		hasidx = 1;
		if (idx >= v->size) {
			const char *nm = mstr(cx->m, a);
			error_at(cx->d, (Loc){ wloc.start + b - 1, wloc.start + e + 1 }, "element %u of "
			         "'%%%s', which has %u register%s (%%%s[0]..%%%s[%u])", idx, nm, v->size,
			         v->size == 1 ? "" : "s", nm, nm, v->size - 1u);
			return -3;
		}
		e++;
	}
	(void)hasidx;
	*remote = -1;
	if (e < n && s[e] == '@') {
		uint32_t at = e++, w = 0;
		for (; e < n; e++)
			w = w > 100000 ? w : w * 10 + (uint32_t)(s[e] - '0');
		if (RCLS(v->r) == RP) {
			error_at(cx->d, (Loc){ wloc.start + at, loc.end }, "a remote read of virtual "
			         "predicate '%.*s': only R registers are read in another weft's window",
			         (int)at, s);
			return -3;
		}
		if (w >= FiberMaxFibers / 32) {
			error_at(cx->d, (Loc){ wloc.start + at, loc.end }, "weft %u out of range in a remote "
			         "read (wefts 0..%d)", w, FiberMaxFibers / 32 - 1);
			return -3;
		}
		*remote = (int)w;
	}
	*r = (Reg)(v->r + idx);
	return 0;
}

/* a register, special register or named operand: `R2.reuse.H0_H0`, `R2<5,1>.64`, `SR_TID.X`;
 * hasann: the versions just read (cx->vbuf) follow the name */
uint32_t
b_word(Ctx *cx, Str w, Loc wloc, int hasann, Loc annloc, Str sfx)
{
	const char *s = cx->text + w.off;
	uint32_t k = 0, nsel = 0, selof[4], sellen[4], x;
	Opnd *o;
	Reg r;
	int rc, remote = -1;
	char range[32];

	while (k < w.len && s[k] != '.')
		k++;
	rc = s[0] == '%' ? vreg_word(cx, s, k, wloc, &r, &remote) : regof(s, k, &r);
	if (rc == -3) {                 /* reported: a bad virtual register */
		cx->badreg = wloc.start;
		x = onew(cx, OExpr);
		cx->ot[x].atom = intern(cx, w);
		return x;
	}
	if (rc == -2) {
		reg_range(reg_prefix(s, k), range, sizeof range);
		error_at(cx->d, (Loc){ wloc.start, wloc.start + k }, "register '%.*s' out of range (%s)",
		         (int)k, s, range);
		cx->badreg = wloc.start;
		x = onew(cx, OExpr);
		cx->ot[x].atom = intern(cx, w);
		return x;
	}
	if (rc < 0) {
		if (hasann)
			error_at(cx->d, annloc, "SSA annotation on '%.*s', which is not a register",
			         (int)w.len, s);
		if (sfx.len)
			error_at(cx->d, sloc(sfx), "unexpected suffix after '%.*s'", (int)w.len, s);
		if (k == w.len && (streq(cx, w, "INF") || streq(cx, w, "QNAN") || streq(cx, w, "NAN"))) {
			x = onew(cx, OFImm);
			cx->ot[x].fimm = s[0] == 'I' ? INFINITY : NAN;
		} else if (hasprefix(s, "SR_") || (k == 3 && memcmp(s, "SRZ", 3) == 0)) {
			if (!is_sreg(s, w.len))
				error_at(cx->d, wloc, "unknown special register '%.*s%s'",
				         w.len > 40 ? 40 : (int)w.len, s, w.len > 40 ? "..." : "");
			x = onew(cx, OSReg);
		} else {
			x = onew(cx, OExpr);
		}
		cx->ot[x].atom = intern(cx, w);
		return x;
	}
	x = onew(cx, OReg);
	o = &cx->ot[x];
	o->r[0] = r;
	if (remote >= 0) {
		o->flags |= FVRemote;
		o->imm = remote;
	}
	if (hasann && reg_isvany(r)) {
		error_at(cx->d, annloc, "virtual register '%.*s' takes no SSA annotation (SSA is built "
		         "after fiber-ra allocates it)", (int)k, s);
		hasann = 0;
	}
	/* the suffix parts: in the word after the name, then in the word after the annotation */
	for (int part = 0; part < 2; part++) {
		const char *t = part ? cx->text + sfx.off : s + k;
		uint32_t n = part ? sfx.len : w.len - k, j = 0;
		while (j < n) {
			uint32_t b = ++j;                        /* skip the dot */
			while (j < n && t[j] != '.')
				j++;
			if (j - b == 5 && memcmp(t + b, "reuse", 5) == 0) {
				o->flags |= FReuse | (nsel ? FSpell1 : 0);
			} else if (nsel < 4) {
				selof[nsel] = (uint32_t)(t + b - cx->text);
				sellen[nsel++] = j - b;
			}
		}
	}
	if (nsel == 1) {
		o->sfx[0] = atom(cx->m->atoms, cx->text + selof[0], sellen[0]);
	} else if (nsel > 1) {
		char buf[128];
		int len = 0;
		for (uint32_t j = 0; j < nsel && len < (int)sizeof buf; j++)
			len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%.*s", j ? "." : "",
			                (int)sellen[j], cx->text + selof[j]);
		o->sfx[0] = atom(cx->m->atoms, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
	}
	if (hasann) {
		if (reg_isconst(r))
			error_at(cx->d, annloc, "'%.*s' is a constant and takes no SSA annotation",
			         (int)k, s);
		else
			push_ann(cx, r, (Loc){ wloc.start, annloc.end });
	}
	return x;
}

/* a float immediate, or a decimal number (nvdisasm prints integers in hex: decimals are floats) */
uint32_t
b_float(Ctx *cx, Loc loc)
{
	uint32_t x = onew(cx, OFImm);

	/* the token is all strtod reads of the text: a decimal number ends where it ends */
	cx->ot[x].fimm = strtod(cx->text + loc.start, NULL);
	cx->ot[x].atom = atom(cx->m->atoms, cx->text + loc.start, loc.end - loc.start);
	return x;
}

uint32_t
b_imm(Ctx *cx, uint64_t v, Loc loc)
{
	uint32_t x = onew(cx, OImm);

	(void)loc;
	cx->ot[x].imm = (int64_t)v;
	cx->ot[x].flags = FHex;
	return x;
}

uint32_t
b_labelref(Ctx *cx, Str s, Loc loc)
{
	uint32_t x = onew(cx, OLabel);

	cx->ot[x].imm = -1;
	if (s.len == 0)
		error_at(cx->d, loc, "empty label reference");
	cx->ot[x].atom = intern(cx, s);
	return x;
}

uint32_t
b_sbset(Ctx *cx, Str inner, Loc loc)
{
	const char *s = cx->text + inner.off;
	uint32_t x = onew(cx, OSbSet);
	uint64_t v = 0;

	for (uint32_t k = 0; k < inner.len; k++) {
		if (s[k] >= '0' && s[k] <= '9') {
			v = v * 10 + (uint64_t)(s[k] - '0');
			if (v > 63) {
				error_at(cx->d, loc, "scoreboard number out of range (0..63)");
				v = 0;
			}
		}
		if (k + 1 == inner.len || s[k + 1] == ',') {
			cx->ot[x].imm |= (int64_t)(1ull << v);
			v = 0;
		}
	}
	cx->ot[x].atom = intern(cx, inner);
	return x;
}

uint32_t
b_prefix(Ctx *cx, int c, uint32_t x, Loc loc)
{
	Opnd *o = &cx->ot[x];
	char buf[96];

	switch (c) {
	case '-':
	case '+':
		if (o->kind == OImm && c == '-') {
			o->imm = -o->imm;
		} else if (o->kind == OFImm) {
			snprintf(buf, sizeof buf, "%c%s", c, mstr(cx->m, o->atom));
			o->atom = atomz(cx->m->atoms, buf);
			if (c == '-')
				o->fimm = -o->fimm;
		} else if (c == '-') {
			o->flags |= FNeg;
		} else {
			error_at(cx->d, loc, "'+' before an operand that is not a float");
		}
		break;
	case '~':
		o->flags |= FNot;
		break;
	default:
		o->flags |= FLNot;
		break;
	}
	return x;
}

/* `|x|` and what follows the bars: `.reuse`, a selector (`|R20|.H0_H0`, FSpell1), or both in
 * that order (`|R20|.reuse.H0_H0`) */
uint32_t
b_abs(Ctx *cx, uint32_t x, Str sfx, Loc sfxloc)
{
	Opnd *o = &cx->ot[x];
	const char *t = cx->text + sfx.off;
	uint32_t j = 0;

	if (o->flags & FReuse)
		o->flags |= FSpell2;     /* `|R2.reuse|`: the hint inside the bars */
	o->flags |= FAbs;
	while (j < sfx.len) {
		uint32_t b = ++j;        /* skip the dot */
		while (j < sfx.len && t[j] != '.')
			j++;
		int reuse = j - b == 5 && memcmp(t + b, "reuse", 5) == 0;
		if (reuse && !(o->flags & FReuse)) {
			o->flags |= FReuse;
		} else if (!reuse && o->kind == OReg && !o->sfx[0] && !(o->flags & FSpell2) && j > b &&
		           j == sfx.len) {
			o->sfx[0] = atom(cx->m->atoms, t + b, j - b);
			o->flags |= FSpell1;
		} else {
			error_at(cx->d, sfxloc, "unexpected suffix '%.*s' after '|...|'", (int)sfx.len, t);
			break;
		}
	}
	return x;
}

void
b_tadd(Ctx *cx, uint32_t t, int plus)
{
	if (cx->nterm == sizeof cx->term / sizeof cx->term[0]) {
		error_at(cx->d, cx->tt[t].loc, "too many terms in an address");
		return;
	}
	cx->term[cx->nterm] = cx->tt[t];
	cx->term[cx->nterm++].plus = (uint8_t)plus;
}

uint32_t
b_treg(Ctx *cx, uint32_t x, Loc loc)
{
	uint32_t k = tnew(cx);
	Term *t = &cx->tt[k];
	const Opnd *o = &cx->ot[x];

	t->loc = loc;
	if (o->kind != OReg) {
		t->bad = 1;
		if (loc.start != cx->badreg)
			error_at(cx->d, loc, "expected a register or a number in an address");
		return k;
	}
	if (o->flags & FVRemote) {      /* FIBER-native: %x@W is a whole operand, not an address */
		t->bad = 1;
		error_at(cx->d, loc, "a remote read (%%x@W) cannot be an address register");
		return k;
	}
	t->isreg = 1;
	t->r = o->r[0];
	t->sfx = o->sfx[0];
	t->flags = o->flags;
	return k;
}

uint32_t
b_tnum(Ctx *cx, uint64_t v, int hex, int neg, Loc loc)
{
	uint32_t k = tnew(cx);
	Term *t = &cx->tt[k];

	t->v = neg ? -(int64_t)v : (int64_t)v;
	t->hex = (uint8_t)hex;
	t->neg = (uint8_t)neg;
	t->loc = loc;
	return k;
}

/* registers and offset of an address, into r[0], r[1] and imm; -1 after reporting */
static int
fill_addr(Ctx *cx, Opnd *o, uint32_t maxreg, const char *what)
{
	uint32_t nreg = 0;
	int num = 0;

	for (uint32_t k = 0; k < cx->nterm; k++) {
		Term *t = &cx->term[k];
		if (t->isreg) {
			if (nreg == maxreg) {
				error_at(cx->d, t->loc, "%s: too many registers", what);
				return -1;
			}
			o->r[nreg] = t->r;
			o->sfx[nreg++] = t->sfx;
			o->flags |= t->flags & FReuse;
		} else if (!t->bad) {
			if (num++) {
				error_at(cx->d, t->loc, "%s: more than one offset", what);
				return -1;
			}
			o->imm = t->v;
			if (t->hex)
				o->flags |= FHex;
			if (t->neg && t->plus)
				o->flags |= FPlusNeg;
		}
	}
	return 0;
}

uint32_t
b_addr(Ctx *cx, Loc loc)
{
	uint32_t x = onew(cx, OMem);

	(void)loc;
	fill_addr(cx, &cx->ot[x], 2, "malformed address");
	return x;
}

/* the offset of a constant bank operand lies in the bank (64 KB): not negative unless a register
 * is added, and below 64 KB; its alignment is checked with the instruction (b_ins) */
static void
bank_offset(Ctx *cx, const Opnd *o)
{
	int reg = o->r[0] && !reg_isconst(o->r[0]);
	Loc loc = { 0, 0 };

	for (uint32_t k = 0; k < cx->nterm; k++)
		if (!cx->term[k].isreg && !cx->term[k].bad)
			loc = cx->term[k].loc;
	if (o->imm < 0 && (!reg || o->imm < -0x8000))
		error_at(cx->d, loc, "constant-bank offset -0x%llx is negative%s",
		         (unsigned long long)-(uint64_t)o->imm, reg ? " beyond -0x8000" : "");
	else if (o->imm > 0xffff)
		error_at(cx->d, loc, "constant-bank offset 0x%llx is past the end of the bank "
		         "(64 KB: 0x0..0xffff)", (unsigned long long)o->imm);
}

/* `c[0x3][R2+0x10]`, `cx[UR4][R0+0x8]`, `desc[UR4][R2.64+0x10]`, `gdesc[UR4]`; sfx: what follows
 * the last ']', only `gdesc[UR4].tnspB` (kept in sfx[0], as a gdesc has no address register) */
/* FIBER: `kv[2].reuse`: pool kv's register 2, an absolute V register (FPoolRef) */
static uint32_t
pool_opnd(Ctx *cx, uint32_t x, const FPool *p, const Term *idx, Str sfx)
{
	Opnd *o = &cx->ot[x];
	const char *t = cx->text + sfx.off;
	uint32_t j = 0;

	o->kind = OReg;
	o->flags |= FPoolRef;
	o->atom = p->name;
	if (idx->isreg || idx->neg || idx->v < 0 || (uint64_t)idx->v >= p->size) {
		error_at(cx->d, idx->loc, "pool offset out of range: '%s' has %u registers (0..%u)",
		         mstr(cx->m, p->name), p->size, p->size - 1);
		o->r[0] = REG(RV, p->base);
		return x;
	}
	o->imm = idx->v;
	if (idx->hex)
		o->flags |= FHex;
	o->r[0] = REG(RV, p->base + (uint32_t)idx->v);
	while (j < sfx.len) {
		uint32_t b = ++j;
		while (j < sfx.len && t[j] != '.')
			j++;
		if (j - b == 5 && memcmp(t + b, "reuse", 5) == 0)
			o->flags |= FReuse | (o->sfx[0] ? FSpell1 : 0);
		else if (!o->sfx[0])
			o->sfx[0] = atom(cx->m->atoms, t + b, j - b);
		else
			error_at(cx->d, sloc(sfx), "unexpected suffix '%.*s' after a pool operand",
			         (int)sfx.len, t);
	}
	return x;
}

uint32_t
b_bank(Ctx *cx, Str w, Loc wloc, uint32_t ti, int twobr, Str sfx, Loc loc)
{
	int isc = streq(cx, w, "c"), iscx = streq(cx, w, "cx");
	uint32_t x = onew(cx, isc || iscx ? OCBank : OMem);
	Opnd *o = &cx->ot[x];
	Term idx = cx->tt[ti];

	if (!twobr)
		cx->nterm = 0;
	if (!twobr && !isc && !iscx && cx->fn)
		for (uint32_t p = 0; p < cx->fn->npool; p++)
			if (streq(cx, w, mstr(cx->m, cx->fn->pool[p].name)))
				return pool_opnd(cx, x, &cx->fn->pool[p], &idx, sfx);
	if (sfx.len && !(twobr == 0 && w.len == 5 && streq(cx, w, "gdesc"))) {
		error_at(cx->d, sloc(sfx), "unexpected suffix '%.*s' after '%.*s[...]'", (int)sfx.len,
		         cx->text + sfx.off, (int)w.len, cx->text + w.off);
		return x;
	}
	if (isc || iscx) {
		if (!twobr) {
			error_at(cx->d, loc, "malformed constant bank: expected '%s[BANK][OFFSET]'",
			         isc ? "c" : "cx");
			return x;
		}
		if (isc && idx.isreg) {
			error_at(cx->d, idx.loc, "malformed constant bank: the bank must be a number");
			return x;
		}
		if (iscx && (!idx.isreg || RCLS(idx.r) != RUR)) {
			error_at(cx->d, idx.loc, "malformed constant bank: 'cx' takes a uniform register");
			return x;
		}
		if (isc && (idx.neg || idx.v > 31)) {
			error_at(cx->d, idx.loc, "constant bank %lld out of range (0..31)", (long long)idx.v);
			return x;
		}
		if (isc) {
			o->imm2 = idx.v;
		} else {
			o->flags |= FCx;
			o->r[1] = idx.r;
		}
		if (fill_addr(cx, o, 1, "malformed constant bank") == 0)
			bank_offset(cx, o);
		return x;
	}
	if (streq(cx, w, "desc") || streq(cx, w, "gdesc")) {
		int g = w.len == 5;
		if (!idx.isreg || RCLS(idx.r) != RUR) {
			error_at(cx->d, idx.loc, "malformed descriptor: expected a uniform register");
			return x;
		}
		if (g == twobr) {
			error_at(cx->d, loc, g ? "malformed descriptor: 'gdesc' takes no address"
			                       : "malformed descriptor: expected 'desc[UR][ADDRESS]'");
			return x;
		}
		o->flags |= FDesc | (g ? FSpell2 : 0);
		o->r[2] = idx.r;
		o->sfx[2] = idx.sfx;
		if (sfx.len)
			o->sfx[0] = atom(cx->m->atoms, cx->text + sfx.off + 1, sfx.len - 1);
		fill_addr(cx, o, 2, "malformed address");
		return x;
	}
	error_at(cx->d, wloc, "unknown operand '%.*s[...]'", (int)w.len, cx->text + w.off);
	return x;
}

/* place the pending annotations of the operand just read on its register fields */
static void
place_anns(Ctx *cx, const Opnd *o, uint8_t opnd)
{
	int used[3] = { 0, 0, 0 };

	for (uint32_t k = 0; k < cx->npann; k++) {
		SsaAnn *a = &cx->pann[k];
		if (a->opnd != PendOpnd || a->kind != AnnOpnd)
			continue;
		a->opnd = opnd;
		for (int f = 0; f < 3; f++)
			if (!used[f] && o->r[f] == a->reg && (o->kind != OReg || f == 0)) {
				used[f] = 1;
				a->field = (uint8_t)f;
				break;
			}
	}
}

void
b_opnd(Ctx *cx, uint32_t x, Loc loc, int nocomma)
{
	Opnd *o = &cx->ot[x];

	if (cx->nopnd == MaxOpnd) {
		if (!cx->opover++)
			error_at(cx->d, loc, "too many operands (at most %d)", MaxOpnd);
		return;
	}
	if (nocomma)
		o->flags |= FSpell0;
	if (cx->npann)
		place_anns(cx, o, (uint8_t)cx->nopnd);
	cx->op[cx->nopnd] = *o;
	cx->oploc[cx->nopnd++] = loc;
}

void
b_guard(Ctx *cx, uint32_t x, int neg, Loc loc)
{
	Opnd o = cx->ot[x];

	if (o.kind != OReg || (RCLS(o.r[0]) != RP && RCLS(o.r[0]) != RUP) || o.flags || o.sfx[0]) {
		if (loc.start + 1 + (uint32_t)neg == cx->badreg)
			return;
		error_at(cx->d, loc, "the guard must be a predicate (P0..P6, PT, UP0..UP6, UPT)");
		return;
	}
	if (neg)
		o.flags |= FLNot;
	if (cx->npann)
		place_anns(cx, &o, SlotGuard);
	cx->guard = o;
	cx->guarded = 1;
}

/* old(R7<2>), def(P0<3>), use(UR4<1,1>) */
void
b_pseudo(Ctx *cx, int kind, uint32_t x, Loc loc)
{
	static const char *const name[] = { "", "old", "def", "use" };
	SsaAnn *a = cx->npann ? &cx->pann[cx->npann - 1] : NULL;
	const Opnd *o = &cx->ot[x];

	if (o->kind != OReg) {
		error_at(cx->d, loc, "%s(...) takes a register", name[kind]);
		return;
	}
	if (!a || a->opnd != PendOpnd || a->reg != o->r[0]) {
		error_at(cx->d, loc, "%s(...) needs an SSA annotation such as %s(R7<2>)", name[kind],
		         name[kind]);
		return;
	}
	a->kind = (uint8_t)kind;
	a->opnd = 0;
}
