/* check_ops.c: tests of ir/op.c: the opcode table, op_lookup, and the exact defs and uses that
 * op_slots gives each operand shape, written as real nvdisasm lines (nvcc 13, sm_80..sm_90a) and
 * compared slot by slot with a compact expected string. A small SASS line reader of its own
 * (ot_*) builds the instructions, so the table tests depend on ir/ only; the last test runs
 * op_check and op_slots over every instruction of examples/ (FIBER_EXAMPLES overrides the
 * directory), read by the front end, or by ot_* for a listing the front end rejects.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "frontend.h"

Suite *ops_suite(void);

/* ---------------------------------------------------------------------------------------------
 * A reader for one instruction line: `/ *0040* / @!P0 IMAD.WIDE.U32 R2, R7.reuse, 0x4, R2 ;`
 */
typedef struct {
	Module *m;         /* owner of everything */
	Fn *f;             /* the instructions */
	Src *src;          /* the text, for diagnostics */
	Diag d;            /* diagnostics, into err */
	FILE *errf;        /* memory stream of err */
	char *err;         /* messages so far */
	size_t nerr;       /* their bytes */
} Ot;

static Ot *
ot_new(const char *text)
{
	Ot *t = calloc(1, sizeof *t);

	t->m = module_new();
	t->f = fn_new(t->m, mintern(t->m, "k"));
	t->src = src_new("test.sass", text, strlen(text));
	t->errf = open_memstream(&t->err, &t->nerr);
	diag_init(&t->d, t->src, t->errf);
	return t;
}

static void
ot_free(Ot *t)
{
	module_free(t->m);
	src_free(t->src);
	fclose(t->errf);
	free(t->err);
	free(t);
}

static const char *
ot_errors(Ot *t)
{
	fflush(t->errf);
	return t->err ? t->err : "";
}

static int
wordc(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == ',')
		p++;
	return p;
}

/* a register word with its suffixes (`R8.reuse.ROW`) or a special or named operand */
static const char *
ot_word(Ot *t, Opnd *o, int field, const char *p)
{
	const char *q = p;
	Reg r;

	while (wordc((unsigned char)*q))
		q++;
	if (reg_parse(p, (size_t)(q - p), &r) == 0) {
		o->kind = field || o->kind == OMem ? o->kind : OReg;
		o->r[field] = r;
	} else if (strncmp(p, "SR", 2) == 0 && field == 0) {
		o->kind = OSReg;
		o->atom = atom(t->m->atoms, p, (size_t)(q - p));
	} else if (field == 0) {
		o->kind = OExpr;
		o->atom = atom(t->m->atoms, p, (size_t)(q - p));
	}
	while (*q == '.' && wordc((unsigned char)q[1])) {
		const char *s = ++q;
		while (wordc((unsigned char)*q))
			q++;
		if ((size_t)(q - s) == 5 && memcmp(s, "reuse", 5) == 0)
			o->flags |= FReuse;
		else if (!o->sfx[field])
			o->sfx[field] = atom(t->m->atoms, s, (size_t)(q - s));
	}
	return q;
}

/* `[R2.64+UR4+-0x8]`: registers fill r[0] then r[1] */
static const char *
ot_addr(Ot *t, Opnd *o, const char *p)
{
	int field = 0;

	for (p++; *p && *p != ']';) {
		if (*p == '+' || *p == ' ') {
			p++;
			continue;
		}
		if (*p == '-' || isdigit((unsigned char)*p)) {
			char *end;
			o->imm = strtoll(p, &end, 0);
			p = end;
		} else if (field < 2)
			p = ot_word(t, o, field++, p);
		else
			p++;
	}
	return *p ? p + 1 : p;
}

static const char *
ot_opnd(Ot *t, Opnd *o, const char *p)
{
	const char *q;

	memset(o, 0, sizeof *o);
	o->r[0] = o->r[1] = o->r[2] = RNone;
	for (;; p++) {
		if (*p == '-' && !isdigit((unsigned char)p[1]))
			o->flags |= FNeg;
		else if (*p == '~')
			o->flags |= FNot;
		else if (*p == '!')
			o->flags |= FLNot;
		else if (*p == '+' && !isdigit((unsigned char)p[1]))
			;
		else
			break;
	}
	if (*p == '|') {
		o->flags |= FAbs;
		p = ot_opnd(t, o, p + 1);
		o->flags |= FAbs;
		if (*p == '|')
			p++;
		while (*p == '.' && wordc((unsigned char)p[1])) {
			const char *s = ++p;
			while (wordc((unsigned char)*p))
				p++;
			if (!o->sfx[0] && !((size_t)(p - s) == 5 && memcmp(s, "reuse", 5) == 0))
				o->sfx[0] = atom(t->m->atoms, s, (size_t)(p - s));
		}
		return p;
	}
	if (p[0] == '`' && p[1] == '(') {
		for (q = p += 2; *q && *q != ')'; q++)
			;
		o->kind = OLabel;
		o->atom = atom(t->m->atoms, p, (size_t)(q - p));
		o->imm = -1;
		return *q ? q + 1 : q;
	}
	if (*p == '{') {
		o->kind = OSbSet;
		for (q = p; *q && *q != '}'; q++)
			if (isdigit((unsigned char)*q))
				o->imm |= 1 << (*q - '0');
		return *q ? q + 1 : q;
	}
	if (*p == '[') {
		o->kind = OMem;
		return ot_addr(t, o, p);
	}
	for (q = p; wordc((unsigned char)*q); q++)
		;
	if (*q == '[') {                    /* c[..][..], cx[..][..], desc[..][..], gdesc[..] */
		size_t n = (size_t)(q - p);
		if ((n == 1 && *p == 'c') || (n == 2 && p[0] == 'c' && p[1] == 'x')) {
			char *end;
			o->kind = OCBank;
			if (n == 2) {
				o->flags |= FCx;
				q = ot_word(t, o, 1, q + 1) + 1;
			} else {
				o->imm2 = strtoll(q + 1, &end, 0);
				q = end + 1;
			}
			o->kind = OMem;     /* ot_addr fills r[0] and imm */
			q = ot_addr(t, o, q);
			o->kind = OCBank;
			return q;
		}
		o->kind = OMem;
		o->flags |= FDesc | (p[0] == 'g' ? FSpell2 : 0);
		q = ot_word(t, o, 2, q + 1);
		q = *q == ']' ? q + 1 : q;
		if (*q == '[')
			q = ot_addr(t, o, q);
		while (*q == '.' && wordc((unsigned char)q[1]))   /* gdesc[UR4].tnspB */
			for (q++; wordc((unsigned char)*q); q++)
				;
		return q;
	}
	if (p[0] == '0' && p[1] == 'x') {
		o->kind = OImm;
		o->imm = strtoll(p, (char **)&q, 0);
		if (o->flags & FNeg)
			o->imm = -o->imm, o->flags &= (uint16_t)~FNeg;
		return q;
	}
	if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+') && isdigit((unsigned char)p[1]))) {
		char *end;
		o->kind = OFImm;
		o->fimm = strtod(p, &end);
		if (wordc((unsigned char)*end))  /* 2D, 1D: dimension words */
			for (o->kind = OExpr; wordc((unsigned char)*end); end++)
				;
		return end;
	}
	if (wordc((unsigned char)*p))
		return ot_word(t, o, 0, p);
	return p + 1;
}

/* append the instruction of one listing line; NULL if the line holds none */
static Ins *
ot_ins(Ot *t, const char *line)
{
	Opnd tmp[MaxOpnd + 1];
	const char *p = ws(line), *q;
	Ins *i;

	if (p[0] == '/' && p[1] == '*') {
		for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
			;
		p = ws(*p ? p + 2 : p);
	}
	if (!(*p == '@' || isupper((unsigned char)*p)))
		return NULL;
	i = fn_append(t->f);
	i->loc.start = (uint32_t)(line - t->src->text);
	if (*p == '@') {
		Opnd g = {0};
		p = ot_opnd(t, &g, p + 1);
		i->guard = guard_of(&g);
		i->guarded = 1;
		p = ws(p);
	}
	for (q = p; wordc((unsigned char)*q); q++)
		;
	i->name = atom(t->m->atoms, p, (size_t)(q - p));
	i->op = (uint16_t)op_lookup(p, (size_t)(q - p));
	i->mod = arena_alloc(t->m->arena, MaxMod * sizeof *i->mod);
	while (*q == '.' && i->nmod < MaxMod) {
		for (p = ++q; wordc((unsigned char)*q); q++)
			;
		i->mod[i->nmod++] = atom(t->m->atoms, p, (size_t)(q - p));
	}
	for (p = ws(q); *p && *p != ';' && *p != '\n' && i->nopnd < MaxOpnd; p = ws(p)) {
		if (p[0] == '(' && p[1] == '*') {      /* (*"BRANCH_TARGETS .L_x_1"*) */
			for (p += 2; *p && !(p[0] == '*' && p[1] == ')'); p++)
				;
			p += *p ? 2 : 0;
			continue;
		}
		p = ot_opnd(t, &tmp[i->nopnd++], p);
	}
	i->loc.end = (uint32_t)(p - t->src->text);
	/* encoding words: `/ * 0x... * /` after the ';' and alone on the next line */
	for (q = p; *q && i->nenc < 2; q++) {
		if (*q == '\n') {
			const char *r = ws(q + 1);
			if (r[0] != '/' || r[1] != '*' || !strstr(r, "0x") || strstr(r, "0x") > r + 4)
				break;
		}
		if (q[0] == '/' && q[1] == '*' && strncmp(ws(q + 2), "0x", 2) == 0)
			i->enc[i->nenc++] = strtoull(ws(q + 2), NULL, 16);
	}
	i->opnd = arena_alloc(t->m->arena, (i->nopnd + 1) * sizeof *i->opnd);
	memcpy(i->opnd, tmp, i->nopnd * sizeof *i->opnd);
	return i;
}

/* slots as text: d def, o old, u use, g guard; `*n` when n > 1: "dR2*2 uR4 uUR4*2 g" */
static const char *
slotstr(const Ins *i, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned k = 0; k < i->nslot && n < cap; k++) {
		const Slot *s = &i->slot[k];
		char r[16];
		int c = s->kind == SDef ? 'd' : s->kind == SOld ? 'o' : s->opnd == SlotGuard ? 'g' : 'u';
		reg_name(s->reg, r, sizeof r);
		n += (size_t)snprintf(buf + n, cap - n, "%s%c%s", k ? " " : "", c, r);
		if (s->n > 1 && n < cap)
			n += (size_t)snprintf(buf + n, cap - n, "*%u", s->n);
	}
	return buf;
}

/* ---------------------------------------------------------------------------------------------
 * The table.
 */
START_TEST(test_ops_names)
{
	ck_assert_str_eq(op_name(Ounknown), "unknown");
	ck_assert_int_eq(op_lookup("IMAD", 4), OIMAD);
	ck_assert_int_eq(op_lookup("IMADX", 4), OIMAD);       /* n bytes only */
	ck_assert_int_eq(op_lookup("IMA", 3), Ounknown);
	ck_assert_int_eq(op_lookup("NOTANOP", 7), Ounknown);
	ck_assert_int_eq(op_lookup("", 0), Ounknown);
	ck_assert_int_eq(op_lookup("unknown", 7), Ounknown);
	ck_assert_str_eq(op_name(-1), "unknown");
	ck_assert_str_eq(op_name(NOp), "unknown");
	for (int k = 1; k < NOp; k++) {
		const char *s = op_name(k);
		ck_assert_msg(op_lookup(s, strlen(s)) == k, "%s", s);
		ck_assert_uint_lt(optab[k].unit, NOpUnit);
		ck_assert_uint_le(optab[k].lat, LNone);
		ck_assert_uint_lt(optab[k].key, NLatKey);
		for (int j = 1; j < k; j++)
			ck_assert_msg(strcmp(s, op_name(j)) != 0, "%s twice", s);
		/* a row that writes no register has no latency */
		if (optab[k].lat == LNone)
			ck_assert_msg(optab[k].flags & (OFBranch | OFCall | OFRet | OFExit | OFStore |
			                                OFSync | OFBarrier | OFConv | OFFiber | OFCollective |
			                                OFGlobal) || optab[k].unit == UNone ||
			              optab[k].ndef == 0, "%s", s);
	}
	ck_assert(optab[OSETFIBERNUM].flags & OFFiber);
	ck_assert(optab[OSETBUSYBIT].flags & OFFiber);
	ck_assert(optab[OBRA].flags & OFBranch);
	ck_assert(optab[OEXIT].flags & OFTerm);
	ck_assert(optab[OLDG].flags & OFLoad);
	ck_assert(optab[OATOMS].flags & OFShared);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Def/use rows: a listing line and its slots.
 */
static const struct {
	const char *ins;   /* nvdisasm text */
	const char *want;  /* slotstr() */
} rows[] = {
	/* integer ALU, carries, predicates */
	{"IADD3 R4, R0.reuse, 0x80, RZ ;", "dR4 uR0"},
	{"IADD3 R2, P0, P1, R4, R5, RZ ;", "dR2 dP0 dP1 uR4 uR5"},
	{"IADD3.X R71, R59, R3.reuse, RZ, P2, !PT ;", "dR71 uR59 uR3 uP2"},
	{"LEA R2, P0, R11, c[0x0][0x160], 0x1 ;", "dR2 dP0 uR11"},
	{"LEA.HI.X R3, R11, c[0x0][0x164], R16, 0x1, P0 ;", "dR3 uR11 uR16 uP0"},
	{"LEA.HI.X.SX32 R9, R2.reuse, UR5, 0x1, P0 ;", "dR9 uR2 uUR5 uP0"},
	{"LOP3.LUT R3, R3, 0x38, RZ, 0xc0, !PT ;", "dR3 uR3"},
	{"LOP3.LUT P1, RZ, R6.reuse, 0x8, RZ, 0xc0, !PT ;", "dP1 uR6"},
	{"LOP3.LUT P0, R2, R4, UR5, R3, 0x40, !PT ;", "dP0 dR2 uR4 uUR5 uR3"},
	{"SHF.L.U64.HI R16, R10, 0x6, R9 ;", "dR16 uR10 uR9"},
	{"ISETP.NE.AND P0, PT, R7, 0x20, PT ;", "dP0 uR7"},
	{"ISETP.GE.U32.AND.EX P0, PT, R21, c[0x0][0x18c], PT, P0 ;", "dP0 uR21 uP0"},
	{"ISETP.NE.U32.OR.EX P0, PT, R13, UR4, !PT, !P0 ;", "dP0 uR13 uUR4 uP0"},
	{"PLOP3.LUT P0, PT, P0, P1, P2, 0xe0, 0x0 ;", "dP0 uP0 uP1 uP2"},
	{"PLOP3.LUT P0, P1, PT, PT, PT, 0x80, 0x0 ;", "dP0 dP1"},
	{"SEL R4, RZ, 0xffffffff, !P0 ;", "dR4 uP0"},
	{"FSEL R78, R78, -INF , !P2 ;", "dR78 uR78 uP2"},
	{"IMNMX R2, R2, c[0x0][0x194], PT ;", "dR2 uR2"},
	{"VIADDMNMX R6, R2, R14, R15, PT ;", "dR6 uR2 uR14 uR15"},
	{"PRMT R11, R14, 0x7610, R11 ;", "dR11 uR14 uR11"},
	{"MOV R3, UR24 ;", "dR3 uUR24"},
	{"MOV R0, R2, 0x3 ;", "dR0 oR0 uR2"},
	{"MOV R0, R2, 0xf ;", "dR0 uR2"},
	{"POPC R17, UR6 ;", "dR17 uUR6"},
	{"FLO.U32.SH R19, R23 ;", "dR19 uR23"},
	{"IDP.4A.S8.S8 R18, R12.reuse, c[0x0][0x188], R17.reuse ;", "dR18 uR12 uR17"},
	/* IMAD: .WIDE def and c are pairs; .HI reads a 64-bit c */
	{"IMAD R116, R2, 0x48, R3 ;", "dR116 uR2 uR3"},
	{"IMAD.MOV.U32 R2, RZ, RZ, RZ ;", "dR2"},
	{"IMAD.WIDE R12, R17, R16, R2 ;", "dR12*2 uR17 uR16 uR2*2"},
	{"IMAD.WIDE R2, R56, R57.reuse, UR4 ;", "dR2*2 uR56 uR57 uUR4*2"},
	{"IMAD.WIDE.U32 R2, R2, 0x10, RZ ;", "dR2*2 uR2"},
	{"IMAD.WIDE.U32 R4, P3, R2, R25, R4 ;", "dR4*2 dP3 uR2 uR25 uR4*2"},
	{"IMAD.WIDE.U32.X R20, R11, 0x4ec4ec4e, R20, P0 ;", "dR20*2 uR11 uR20*2 uP0"},
	{"IMAD.WIDE R56, R59, R64.reuse, c[0x0][0x168] ;", "dR56*2 uR59 uR64"},
	{"IMAD.HI.U32 R9, R9, R11, R8 ;", "dR9 uR9 uR11 uR8*2"},
	{"IMAD.HI R16, R12, c[0x0][0x188], R16 ;", "dR16 uR12 uR16*2"},
	{"IMAD.X R3, RZ, RZ, R3, P0 ;", "dR3 uR3 uP0"},
	{"IMAD.U32 R5, RZ, RZ, UR4 ;", "dR5 uUR4"},
	/* FP32, FP16, FP64 */
	{"FFMA R83, R85, R2, R83 ;", "dR83 uR85 uR2 uR83"},
	{"FADD.FTZ R3, -R2, -RZ ;", "dR3 uR2"},
	{"FMNMX R77, R65, R118, !PT ;", "dR77 uR65 uR118"},
	{"FSETP.GEU.AND P1, PT, R85, -126, PT ;", "dP1 uR85"},
	{"FSETP.GTU.FTZ.AND P0, PT, |R18|, +INF , PT ;", "dP0 uR18"},
	{"FCHK P0, R18, R19 ;", "dP0 uR18 uR19"},
	{"FSET.BF.LT.AND R16, R0, c[0x0][0x1b8], PT ;", "dR16 uR0"},
	{"MUFU.EX2 R85, R85 ;", "dR85 uR85"},
	{"MUFU.RSQ64H R5, R11 ;", "dR5 uR11"},
	{"HADD2.F32 R10, -RZ, R9.reuse.H0_H0 ;", "dR10 uR9"},
	{"HFMA2.MMA R0, -RZ, RZ, 0, 0 ;", "dR0"},
	{"HSETP2.EQ.AND P0, P1, |R19|.H0_H0, 300, 0.2093505859375, PT ;", "dP0 dP1 uR19"},
	{"HMNMX2.BF16_V2 R24, R8, R9.reuse, !PT ;", "dR24 uR8 uR9"},
	{"DADD R6, R8, R4 ;", "dR6*2 uR8*2 uR4*2"},
	{"DFMA R8, R10, -R8, 1 ;", "dR8*2 uR10*2 uR8*2"},
	{"DMUL R2, R2, c[0x2][0x0] ;", "dR2*2 uR2*2"},
	{"DSETP.GE.AND P0, PT, |R10|, 2.14748364800000000000e+09, PT ;", "dP0 uR10*2"},
	{"DSETP.MAX.AND P2, P3, R10, R18, PT ;", "dP2 dP3 uR10*2 uR18*2"},
	/* conversions: widths from the type modifiers */
	{"F2F.F64.F32 R2, c[0x0][0x1b8] ;", "dR2*2"},
	{"F2F.F32.F64 R2, R4 ;", "dR2 uR4*2"},
	{"F2F.F16.F64 R5, R12 ;", "dR5 uR12*2"},
	{"I2F.F64 R8, R10 ;", "dR8*2 uR10"},
	{"I2F.F64.S64 R2, R4 ;", "dR2*2 uR4*2"},
	{"I2F.S64 R35, R22 ;", "dR35 uR22*2"},
	{"I2F.U32.RP R6, R4 ;", "dR6 uR4"},
	{"I2F.F16.S16 R20, R20 ;", "dR20 uR20"},
	{"F2I.F64 R4, R6 ;", "dR4 uR6*2"},
	{"F2I.S64.F64.TRUNC R32, R10 ;", "dR32*2 uR10*2"},
	{"F2I.U64.TRUNC R32, R0 ;", "dR32*2 uR0"},
	{"F2I.FTZ.U32.TRUNC.NTZ R9, R8 ;", "dR9 uR8"},
	{"FRND.F64.FLOOR R16, R10 ;", "dR16*2 uR10*2"},
	{"FRND.CEIL R15, R3 ;", "dR15 uR3"},
	{"F2FP.F16.F32.PACK_AB R12, R74, R90 ;", "dR12 uR74 uR90"},
	{"F2FP.BF16.PACK_AB R0, R0, 1 ;", "dR0 uR0"},
	{"F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R9, R6, R7, RZ ;", "dR9 uR6 uR7"},
	{"I2FP.F32.S32 R3, UR14 ;", "dR3 uUR14"},
	{"I2IP.U8.S32.SAT R4, R2, c[0x0][0x180], R3 ;", "dR4 uR2 uR3"},
	/* special registers, predicates as a register */
	{"S2R R0, SR_TID.X ;", "dR0"},
	{"S2UR UR4, SR_CTAID.X ;", "dUR4"},
	{"CS2R R38, SRZ ;", "dR38*2"},
	{"CS2R R6, SR_CLOCKLO ;", "dR6*2"},
	{"CS2R.32 R2, SR_CLOCKLO ;", "dR2"},
	{"R2P PR, R4, 0x3 ;", "dP0 dP1 uR4"},
	{"P2R R2, PR, RZ, 0x5 ;", "dR2 uP0 uP2"},
	{"UP2UR.B3 UR62, UPR, UR62, 0xff ;",
	 "dUR62 uUR62 uUP0 uUP1 uUP2 uUP3 uUP4 uUP5 uUP6"},
	{"UR2UP UPR, UR62.B3 ;", "dUP0 dUP1 dUP2 dUP3 dUP4 dUP5 dUP6 uUR62"},
	{"R2UR UR4, R14 ;", "dUR4 uR14"},
	{"B2R.RESULT RZ, P0 ;", "dP0"},
	{"B2R.RESULT R3 ;", "dR3"},
	/* warp-wide */
	{"SHFL.BFLY PT, R60, R77, 0x1, 0x1f ;", "dR60 uR77"},
	{"SHFL.IDX P0, R25, R6, R32, 0x1f ;", "dP0 dR25 uR6 uR32"},
	{"VOTE.ANY R0, PT, P0 ;", "dR0 uP0"},
	{"VOTE.ALL R2, P1, PT ;", "dR2 dP1"},
	{"VOTE.ANY P0, P0 ;", "dP0 uP0"},
	{"VOTEU.ANY UR6, UPT, PT ;", "dUR6"},
	{"VOTEU.ALL UP0, P0 ;", "dUP0 uP0"},
	{"MATCH.ALL PT, R18, R12 ;", "dR18 uR12"},
	{"MATCH.ANY.U64 R19, R10 ;", "dR19 uR10*2"},
	{"MATCH.ALL.U64 P0, R20, R10 ;", "dP0 dR20 uR10*2"},
	{"REDUX.SUM.S32 UR4, R27 ;", "dUR4 uR27"},
	{"ELECT P0, URZ, PT ;", "dP0"},
	{"ELECT P1, UR4, P2 ;", "dP1 dUR4 uP2"},
	/* loads and stores: data width from .64/.128, addresses from .64 and .E */
	{"LDG.E R12, [R10.64] ;", "dR12 uR10*2"},
	{"LDG.E.64 R10, desc[UR4][R6.64+0x8] ;", "dR10*2 uR6*2 uUR4*2"},
	{"LDG.E.128.CONSTANT R4, [R4.64] ;", "dR4*4 uR4*2"},
	{"LD.E R10, [R8] ;", "dR10 uR8*2"},
	{"LD.E R4, [RZ.U32+UR4] ;", "dR4 uUR4*2"},
	{"LDGMC.E.ADD.F32.RN.STRONG.SYS R0, [R14.64+URZ] ;", "dR0 uR14*2"},
	{"LDS.128 R8, [UR5+0x400] ;", "dR8*4 uUR5"},
	{"LDS R5, [R5+UR6] ;", "dR5 uR5 uUR6"},
	{"LDS.64 R8, [R3.X4+0x10] ;", "dR8*2 uR3"},
	{"LDS R2, [0x1404] ;", "dR2"},
	{"LDL.64 R4, [R1+0x30] ;", "dR4*2 uR1"},
	{"LDC R1, c[0x0][0x28] ;", "dR1"},
	{"LDC.64 R6, c[0x2][R0] ;", "dR6*2 uR0"},
	{"LDC R6, c[0x2][R2+0x3c] ;", "dR6 uR2"},
	{"ULDC.64 UR8, c[0x0][0x118] ;", "dUR8*2"},
	{"STG.E [R2.64], R5 ;", "uR2*2 uR5"},
	{"STG.E.128 [R18.64+0x400], R12 ;", "uR18*2 uR12*4"},
	{"STG.E.64 desc[UR4][R2.64], R8 ;", "uR2*2 uUR4*2 uR8*2"},
	{"ST.E.64 [R4+0x8], R8 ;", "uR4*2 uR8*2"},
	{"STS.64 [R0.X8+0x800], RZ ;", "uR0"},
	{"STL.128 [R1+0x10], R8 ;", "uR1 uR8*4"},
	{"STS.U16 [R5], R2 ;", "uR5 uR2"},
	{"STAS [R6.64], R8 ;", "uR6*2 uR8"},
	{"@!PT LDS RZ, [RZ] ;", ""},
	{"@P0 LDG.E.64 R4, [R2.64] ;", "dR4*2 oR4*2 uR2*2 gP0"},
	{"@!P1 STS [R0], R17 ;", "uR0 uR17 gP1"},
	/* async copies */
	{"LDGSTS.E.BYPASS.128 [R116], [R2.64] ;", "uR116 uR2*2"},
	{"LDGSTS.E [R15], desc[UR10][R4] ;", "uR15 uR4*2 uUR10*2"},
	{"@!P1 LDGSTS.E.64 [R13+0x8], desc[UR10][R10.64], !PT ;", "uR13 uR10*2 uUR10*2 gP1"},
	{"LDGSTS.E.BYPASS.128 [R3], desc[UR10][R8.64], P0 ;", "uR3 uR8*2 uUR10*2 uP0"},
	{"ARRIVES.LDGSTSBAR.64.ARVCNT [UR7] ;", "uUR7"},
	{"LDGDEPBAR ;", ""},
	{"DEPBAR.LE SB0, 0x1 ;", ""},
	/* atomics: data width from the type; CAS has two data operands */
	{"ATOMG.E.ADD.STRONG.GPU PT, R27, [R12.64], R14 ;", "dR27 uR12*2 uR14"},
	{"ATOMG.E.ADD.64.STRONG.GPU PT, R20, [R2.64], R4 ;", "dR20*2 uR2*2 uR4*2"},
	{"ATOMG.E.ADD.F64.RN.STRONG.GPU PT, R18, [R8.64], R10 ;", "dR18*2 uR8*2 uR10*2"},
	{"ATOMG.E.MIN.S64.STRONG.GPU PT, R26, [R26.64], R4 ;", "dR26*2 uR26*2 uR4*2"},
	{"ATOMG.E.CAS.STRONG.GPU PT, R13, [R10], R12, R13 ;", "dR13 uR10*2 uR12 uR13"},
	{"ATOMG.E.CAS.64.STRONG.GPU PT, R18, [R2+0x28], R4, R6 ;", "dR18*2 uR2*2 uR4*2 uR6*2"},
	{"ATOMG.E.EXCH.128.STRONG.GPU PT, RZ, desc[UR6][R8.64+0xfc], R4 ;", "uR8*2 uUR6*2 uR4*4"},
	{"ATOMG.E.ADD.F32x4.FTZ.RN.STRONG.GPU PT, R4, desc[UR4][R20.64+0x1000], R4 ;",
	 "dR4*4 uR20*2 uUR4*2 uR4*4"},
	{"ATOMG.E.ADD.F32x2.FTZ.RN.STRONG.GPU PT, R18, desc[UR4][R18.64], R24 ;",
	 "dR18*2 uR18*2 uUR4*2 uR24*2"},
	{"ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R11, [R6.64], R15 ;", "dP0 dR11 uR6*2 uR15"},
	{"ATOM.E.CAST.SPIN PT, R11, [R8], R10, R11 ;", "dR11 uR8*2 uR10 uR11"},
	{"ATOMS.ADD R3, [R3], R2 ;", "dR3 uR3 uR2"},
	{"ATOMS.CAS.64 R12, [R5+0x800], R8, R10 ;", "dR12*2 uR5 uR8*2 uR10*2"},
	{"ATOMS.CAST.SPIN.64 R10, [R13+0x800], R8, R10 ;", "dR10*2 uR13 uR8*2 uR10*2"},
	{"ATOMS.ARRIVE.64 R2, [URZ+0x1400] ;", "dR2*2"},
	{"@P0 ATOMS.ADD.S32 RZ, [0x1404], R3 ;", "uR3 gP0"},
	{"RED.E.ADD.64.STRONG.GPU [R18.64], R12 ;", "uR18*2 uR12*2"},
	{"REDG.E.ADD.F16x4.RN.STRONG.GPU desc[UR4][R10.64+0x4000], R26 ;", "uR10*2 uUR4*2 uR26*2"},
	{"REDAS.ADD [R6.64], R9 ;", "uR6*2 uR9"},
	{"QSPC.E.S P0, RZ, [R4] ;", "dP0 uR4*2"},
	{"CCTL.E.PF2 [R20+0xe4] ;", "uR20*2"},
	/* tensor cores: PTX ISA fragment sizes */
	{"HMMA.16816.F32 R84, R40.reuse, R56, RZ ;", "dR84*4 uR40*4 uR56*2"},
	{"HMMA.16816.F32.BF16 R16, R12, R6, R16 ;", "dR16*4 uR12*4 uR6*2 uR16*4"},
	{"HMMA.16816.F16 R4, R12.reuse, R6.reuse, R4 ;", "dR4*2 uR12*4 uR6*2 uR4*2"},
	{"HMMA.1688.F32 R16, R12.reuse, R6.reuse, R16 ;", "dR16*4 uR12*2 uR6 uR16*4"},
	{"HMMA.1688.F16 R4, R12, R6, R4 ;", "dR4*2 uR12*2 uR6 uR4*2"},
	{"HMMA.1688.F32.TF32 R16, R12, R6, R16 ;", "dR16*4 uR12*4 uR6*2 uR16*4"},
	{"HMMA.1684.F32.TF32 R8, R12.reuse, R0, R4 ;", "dR8*4 uR12*2 uR0 uR4*4"},
	{"HMMA.884.F32.F16 R8, R12, R14, R8 ;", "dR8*8 uR12*2 uR14*2 uR8*8"},
	{"HMMA.SP.16832.F32 R8, R4, R12, RZ, R2, 0x0 ;", "dR8*4 uR4*4 uR12*4 uR2"},
	{"HMMA.SP.16816.F16 R4, R4, R6, RZ, R2, 0x0 ;", "dR4*2 uR4*2 uR6*2 uR2"},
	{"HMMA.SP.16816.F32.TF32 R8, R4, R16, R8, R2, 0x0 ;", "dR8*4 uR4*4 uR16*4 uR8*4 uR2"},
	{"IMMA.16832.S8.S8 R16, R12.reuse.ROW, R6.reuse.COL, R16 ;", "dR16*4 uR12*4 uR6*2 uR16*4"},
	{"IMMA.16816.S8.S8 R4, R8.reuse.ROW, R4.COL, RZ ;", "dR4*4 uR8*2 uR4"},
	{"IMMA.8816.S8.S8 R16, R12.ROW, R6.COL, R16 ;", "dR16*2 uR12 uR6 uR16*2"},
	{"IMMA.16864.S4.S4 R16, R12.ROW, R6.COL, R16 ;", "dR16*4 uR12*4 uR6*2 uR16*4"},
	{"IMMA.8832.S4.S4 R16, R12.reuse.ROW, R6.COL, R16 ;", "dR16*2 uR12 uR6 uR16*2"},
	{"IMMA.SP.16864.S8.S8 R12, R4.ROW, R12.COL, RZ, R2, 0x0 ;", "dR12*4 uR4*4 uR12*4 uR2"},
	{"BMMA.168256.AND.POPC R16, R12.ROW, R6.COL, R16 ;", "dR16*4 uR12*4 uR6*2 uR16*4"},
	{"BMMA.88128.XOR.POPC R16, R12.ROW, R6.COL, R16 ;", "dR16*2 uR12 uR6 uR16*2"},
	{"QMMA.16832.F32.E4M3.E4M3 R12, R4.reuse.ROW, R8.reuse.COL, RZ ;", "dR12*4 uR4*4 uR8*2"},
	{"DMMA.884 R20, R18, R24, R20 ;", "dR20*4 uR18*2 uR24*2 uR20*4"},
	{"DMMA.8x8x4 R16, R28, R24, R16 ;", "dR16*4 uR28*2 uR24*2 uR16*4"},
	{"DMMA.16x8x4 R8, R16, R20, RZ ;", "dR8*8 uR16*4 uR20*2"},
	{"DMMA.16x8x16 R8, R16, R24, R8 ;", "dR8*8 uR16*16 uR24*8 uR8*8"},
	{"LDSM.16.M88.4 R40, [R56] ;", "dR40*4 uR56"},
	{"LDSM.16.MT88.2 R2, [R8+0x80] ;", "dR2*2 uR8"},
	{"LDSM.16.MT88 R0, [R8+0x100] ;", "dR0 uR8"},
	{"STSM.16.M88.4 [R2], R8 ;", "uR2 uR8*4"},
	{"STSM.16.MT88.2 [R2+0x1000], R8 ;", "uR2 uR8*2"},
	{"STSM.16.M88 [R2+0x2000], R11 ;", "uR2 uR11"},
	{"MOVM.16.MT88 R9, R5 ;", "dR9 uR5"},
	/* warpgroup mma: accumulator M*N/128 registers (F32) or half that (F16), gdesc 4 UR */
	{"HGMMA.64x128x16.F32 R24, gdesc[UR8], RZ, !UPT, gsb0 ;", "dR24*64 uUR8*4"},
	{"HGMMA.64x128x16.F32 R24, gdesc[UR8], R24, gsb0 ;", "dR24*64 uUR8*4 uR24*64"},
	{"HGMMA.64x32x16.F16 R88, gdesc[UR8].tnspB, R88, gsb0 ;", "dR88*8 uUR8*4 uR88*8"},
	{"HGMMA.64x16x16.F32.BF16 R24, R32, gdesc[UR8].tnspB, R24, gsb0 ;",
	 "dR24*8 uR32*4 uUR8*4 uR24*8"},
	{"HGMMA.64x256x16.F32 R24, gdesc[UR4], R24, UP0, gsb0 ;", "dR24*128 uUR4*4 uR24*128 uUP0"},
	{"IGMMA.64x8x32.S8.S8 R24, gdesc[UR8], R24, gsb0 ;", "dR24*4 uUR8*4 uR24*4"},
	{"QGMMA.64x8x32.F32.E4M3.E5M2 R36, gdesc[UR8], R36, gsb0 ;", "dR36*4 uUR8*4 uR36*4"},
	{"BGMMA.64x8x256.AND.POPC R92, gdesc[UR8], R92, gsb0 ;", "dR92*4 uUR8*4 uR92*4"},
	{"WARPGROUP.DEPBAR.LE gsb0, 0x0 ;", ""},
	{"WARPGROUP.ARRIVE ;", ""},
	/* mbarriers, TMA, bulk copies */
	{"SYNCS.EXCH.64 URZ, [UR6], UR4 ;", "uUR6 uUR4*2"},
	{"SYNCS.ARRIVE.TRANS64.A1T0 R2, [UR7], RZ ;", "dR2*2 uUR7"},
	{"SYNCS.ARRIVE.TRANS64 RZ, [UR13], R2 ;", "uUR13 uR2"},
	{"SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4], R2 ;", "dP0 uUR4 uR2"},
	{"SYNCS.CCTL.IV [UR7] ;", "uUR7"},
	{"UTMALDG.2D [UR12], [UR10] ;", "uUR12*4 uUR10*2"},
	{"UTMALDG.3D [UR8], [UR16] ;", "uUR8*5 uUR16*2"},
	{"UTMASTG.2D [UR12], [UR6] ;", "uUR12*3 uUR6*2"},
	{"UTMAREDG.2D.ADD [UR12], [UR6] ;", "uUR12*3 uUR6*2"},
	{"UTMAPF.L2.2D [UR20], [UR10] ;", "uUR20*2 uUR10*2"},
	{"UBLKCP.S.G [UR16], [UR6], UR21 ;", "uUR16*2 uUR6*2 uUR21"},
	{"UBLKCP.G.S [UR6], [UR4], UR10 ;", "uUR6*2 uUR4 uUR10"},
	{"UBLKRED.G.S.ADD.F32.RN [UR8], [UR4], UR10 ;", "uUR8*2 uUR4 uUR10"},
	{"UBLKPF.L2 [UR8], UR21 ;", "uUR8*2 uUR21"},
	{"USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8 ;", "dUP0"},
	{"USETMAXREG.DEALLOC.CTAPOOL 0x28 ;", ""},
	/* uniform datapath */
	{"UIADD3 UR10, UP0, UR6, 0x70, URZ ;", "dUR10 dUP0 uUR6"},
	{"UIADD3.X UR11, URZ, UR7, URZ, UP0, !UPT ;", "dUR11 uUR7 uUP0"},
	{"UIADD3.64 UR8, UR8, 0x1000, URZ ;", "dUR8*2 uUR8*2"},
	{"UIMAD.WIDE.U32 UR14, UR32, 0x3, UR14 ;", "dUR14*2 uUR32 uUR14*2"},
	{"ULEA UR20, UP1, UR32, UR18, 0x1 ;", "dUR20 dUP1 uUR32 uUR18"},
	{"ULOP3.LUT UR4, URZ, UR4, URZ, 0x33, !UPT ;", "dUR4 uUR4"},
	{"UISETP.LT.AND UP0, UPT, UR5, UR6, UP0 ;", "dUP0 uUR5 uUR6 uUP0"},
	{"USEL UR5, UR5, UR6, UP0 ;", "dUR5 uUR5 uUR6 uUP0"},
	{"USHF.L.U64.HI UR7, UR4, 0x1, UR7 ;", "dUR7 uUR4 uUR7"},
	{"UMOV UR5, 0x400 ;", "dUR5"},
	{"@!UP0 UIADD3 UR4, -UR4, 0x100000, URZ ;", "dUR4 oUR4 uUR4 gUP0"},
	/* control flow and convergence */
	{"BRA `(.L_x_0) ;", ""},
	{"@P0 BRA `(.L_x_0) ;", "gP0"},
	{"BRA.U !UP0, `(.L_x_15) ;", "uUP0"},
	{"@!P0 BRA.CONV UR4, `(.L_x_14) ;", "uUR4 gP0"},
	{"BRA.DIV ~URZ, `(.L_x_28) ;", ""},
	{"BRX R6 -0x150 (*\"BRANCH_TARGETS .L_x_22,.L_x_23,.L_x_9\"*) ;", "uR6*2"},
	{"CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_u64) ;", ""},
	{"CALL.REL.NOINC R6 `(k_misc) ;", "uR6*2"},
	{"RET.REL.NODEC R2 `(flash_attn_fwd) ;", "uR2*2"},
	{"@!P0 EXIT ;", "gP0"},
	{"BSSY B0, `(.L_x_6) ;", "dB0"},
	{"@P0 BSSY B1, `(.L_x_6) ;", "dB1 oB1 gP0"},
	{"BSYNC B0 ;", "uB0"},
	{"BREAK B1 ;", "dB1 uB1"},
	{"BMOV.32 B6, R17 ;", "dB6 uR17"},
	{"BMOV.32.CLEAR R17, B6 ;", "dR17 dB6 uB6"},
	{"WARPSYNC 0xffffffff ;", ""},
	{"WARPSYNC R4 ;", "uR4"},
	{"WARPSYNC.COLLECTIVE R14, `(.L_x_46) ;", "uR14"},
	{"BAR.SYNC.DEFER_BLOCKING 0x0 ;", ""},
	{"BAR.RED.POPC.DEFER_BLOCKING 0x0, P0 ;", "uP0"},
	{"NANOSLEEP c[0x0][0x178] ;", ""},
	{"NANOSLEEP R2 ;", "uR2"},
	{"BPT.TRAP 0x1 ;", ""},
	{"MEMBAR.SC.GPU ;", ""},
	{"FENCE.VIEW.ASYNC.S ;", ""},
	{"NOP ;", ""},
	/* texture and surface */
	{"SULD.D.BA.2D.STRONG.SM.TRAP R22, [R2], 0x0, 0x5c ;", "dR22 uR2*2"},
	{"SULD.D.BA.2D.128.STRONG.SM.TRAP R4, [R12], 0x0, 0x5c ;", "dR4*4 uR12*2"},
	{"SUST.D.BA.2D.128.STRONG.SM.TRAP [R26], R4, 0x0, 0x5c ;", "uR26*2 uR4*4"},
	{"TEX.SCR.LL R20, R18, R18, R15, 0x0, 0x58, 2D ;", "dR20*2 dR18*2 uR18*2 uR15*2"},
	{"TLD.SCR.LZ RZ, R13, R0, 0x0, 0x5a, 1D, 0x1 ;", "dR13 uR0*2"},
	/* FIBER and unknown opcodes */
	{"SETFIBERNUM R2 ;", "uR2"},
	{"SETBUSYBIT 0x1 ;", ""},
	{"FOOBAR R1, R2, [R4.64] ;", "dR1 uR2 uR4*2"},
};

START_TEST(test_ops_slots)
{
	Ot *t = ot_new(rows[_i].ins);
	Ins *i = ot_ins(t, t->src->text);
	char got[512];

	ck_assert_ptr_nonnull(i);
	ck_assert_msg(op_check(t->f, i, &t->d) == 0, "%s: %s", rows[_i].ins, ot_errors(t));
	ck_assert_msg(op_slots(t->f, i) == 0, "%s", rows[_i].ins);
	ck_assert_ptr_nonnull(i->slot);
	ck_assert_msg(strcmp(slotstr(i, got, sizeof got), rows[_i].want) == 0,
	              "%s\n  want %s\n  got  %s", rows[_i].ins, rows[_i].want, got);
	for (unsigned k = 0; k < i->nslot; k++) {
		ck_assert_ptr_nonnull(i->slot[k].v);
		for (unsigned j = 0; j < i->slot[k].n; j++)
			ck_assert_uint_eq(i->slot[k].v[j], 0);
	}
	ot_free(t);
}
END_TEST

/* slot order and the operand each slot names */
START_TEST(test_ops_slot_fields)
{
	Ot *t = ot_new("@P2 IMAD.WIDE R2, P0, R4, R6, c[0x0][0x0] ;\n"
	               "LDG.E.64 R8, desc[UR4][R10.64+UR6] ;\n"
	               "R2P PR, R4, 0x1 ;\n"
	               "LDC R1, cx[UR3][R2+0x8] ;\n");
	const char *p = t->src->text;
	Ins *i;

	i = ot_ins(t, p);
	ck_assert_int_eq(op_slots(t->f, i), 0);
	ck_assert_uint_eq(i->nslot, 7);
	ck_assert_int_eq(i->slot[0].kind, SDef);        /* R2.64 */
	ck_assert_int_eq(i->slot[1].kind, SOld);        /* its old value, right after it */
	ck_assert_int_eq(i->slot[1].reg, REG(RR, 2));
	ck_assert_uint_eq(i->slot[1].n, 2);
	ck_assert_int_eq(i->slot[2].kind, SDef);        /* P0 */
	ck_assert_uint_eq(i->slot[2].opnd, 1);
	ck_assert_int_eq(i->slot[3].kind, SOld);
	ck_assert_uint_eq(i->slot[4].opnd, 2);          /* R4 */
	ck_assert_uint_eq(i->slot[5].opnd, 3);          /* R6 */
	ck_assert_uint_eq(i->slot[6].opnd, SlotGuard);  /* P2 last */
	ck_assert_int_eq(i->slot[6].reg, REG(RP, 2));

	i = ot_ins(t, strchr(p, '\n') + 1);
	ck_assert_int_eq(op_slots(t->f, i), 0);
	ck_assert_uint_eq(i->nslot, 4);
	ck_assert_uint_eq(i->slot[1].field, 0);          /* R10.64 */
	ck_assert_uint_eq(i->slot[1].n, 2);
	ck_assert_uint_eq(i->slot[2].field, 1);          /* UR6: an offset beside a 64-bit base */
	ck_assert_uint_eq(i->slot[2].n, 1);
	ck_assert_uint_eq(i->slot[3].field, 2);          /* desc[UR4] */
	ck_assert_uint_eq(i->slot[3].n, 2);

	i = ot_ins(t, strchr(strchr(p, '\n') + 1, '\n') + 1);
	ck_assert_int_eq(op_slots(t->f, i), 0);
	ck_assert_uint_eq(i->nslot, 2);
	ck_assert_int_eq(i->slot[0].reg, REG(RP, 0));
	ck_assert_uint_eq(i->slot[0].opnd, 0);           /* named by PR */
	ck_assert_uint_eq(i->slot[0].field, 3);          /* but not a register field of it */

	i = ot_ins(t, strrchr(p, 'L'));
	ck_assert_int_eq(op_slots(t->f, i), 0);
	ck_assert_uint_eq(i->nslot, 3);
	ck_assert_uint_eq(i->slot[1].field, 0);          /* R2 */
	ck_assert_uint_eq(i->slot[2].field, 1);          /* cx[UR3] */
	ot_free(t);
}
END_TEST

/* sm_8x listings hide the descriptor of `[R2.64]` global accesses; the encoding names it */
START_TEST(test_ops_hidden_desc)
{
	static const struct {
		const char *ins;   /* line with its encoding */
		int sm;            /* Module.sm */
		const char *want;  /* slots */
	} d[] = {
		{"LDG.E R4, [R2.64] ; /* 0x0000000402047981 */\n /* 0x000ea8000c1e1900 */", 80,
		 "dR4 uR2*2 uUR4*2"},
		{"LDG.E.128 R4, [R18.64+0x10] ; /* 0x0000102412047981 */ /* 0x000ea8000c1e1d00 */", 80,
		 "dR4*4 uR18*2 uUR36*2"},
		{"STG.E [R4.64], R15 ; /* 0x0000000f04007986 */ /* 0x000fe2000c101904 */", 89,
		 "uR4*2 uUR4*2 uR15"},
		{"RED.E.ADD.STRONG.GPU [R2.64], R9 ; /* 0x000000090200798e */ /* 0x000fe2000c10e184 */",
		 86, "uR2*2 uUR4*2 uR9"},
		{"LDGSTS.E.BYPASS.128 [R15], [R2.64] ; /* 0x00000000020f7fae */ /* 0x000fe8000b901c44 */",
		 80, "uR15 uR2*2 uUR4*2"},
		/* no .64 base: the 32-bit-offset form, without a descriptor */
		{"LDG.E R25, [R22] ; /* 0x0000000016197381 */ /* 0x00072200001e0900 */", 80, "dR25 uR22*2"},
		{"ATOMG.E.CAS.STRONG.GPU PT, R13, [R10], R12, R13 ; /* 0x0000000c0a0d73a9 */ "
		 "/* 0x000e2400001ee10d */", 80, "dR13 uR10*2 uR12 uR13"},
		/* sm_90 prints it; without encodings or with an unknown sm nothing is guessed */
		{"LDG.E R4, [R2.64] ; /* 0x0000000402047981 */ /* 0x000ea8000c1e1900 */", 90,
		 "dR4 uR2*2"},
		{"LDG.E R4, [R2.64] ;", 80, "dR4 uR2*2"},
		{"LDG.E R4, [R2.64] ; /* 0x0000000402047981 */ /* 0x000ea8000c1e1900 */", 0,
		 "dR4 uR2*2"},
	};
	char got[256];

	for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
		Ot *t = ot_new(d[k].ins);
		Ins *i;
		t->m->sm = d[k].sm;
		i = ot_ins(t, t->src->text);
		ck_assert_int_eq(op_slots(t->f, i), 0);
		ck_assert_msg(strcmp(slotstr(i, got, sizeof got), d[k].want) == 0,
		              "%s\n  want %s\n  got  %s", d[k].ins, d[k].want, got);
		ot_free(t);
	}
}
END_TEST

/* malformed instructions: an error from op_check, never a crash; op_slots fails too when it
 * cannot tell the registers (it leaves structure to op_check) */
static const struct {
	const char *ins;   /* the line */
	int slots;         /* 1: op_slots fails as well */
} badrows[] = {
	{"IADD3 0x1, R2, R3, RZ ;", 1},
	{"IMAD ;", 1},
	{"LDG.E [R2.64], R4 ;", 1},
	{"STG.E R4, R5 ;", 0},
	{"HMMA.99.F32 R4, R8, R10, R4 ;", 1},
	{"HMMA.16816.F32 R4 ;", 1},
	{"HGMMA.64x8x16.F32 R24, R26, gsb0 ;", 1},
	{"UTMALDG [UR4], [UR6] ;", 1},
	{"LDGSTS.E [R2] ;", 0},
	{"ATOMG.E.ADD.STRONG.GPU PT, R2, R3 ;", 0},
	{"PLOP3.LUT P0 ;", 1},
	{"VOTE.ANY 0x1, P0 ;", 1},
	{"F2I.F64 [R2], R4 ;", 1},
	{"S2R SR_TID.X ;", 1},
};

START_TEST(test_ops_bad)
{
	Ot *t = ot_new(badrows[_i].ins);
	Ins *i = ot_ins(t, t->src->text);

	ck_assert_ptr_nonnull(i);
	if (badrows[_i].slots)
		ck_assert_int_eq(op_slots(t->f, i), -1);
	ck_assert_int_eq(op_check(t->f, i, &t->d), -1);
	ck_assert_int_eq(t->d.nerr, 1);
	ck_assert_msg(strstr(ot_errors(t), "error:") != NULL, "%s", ot_errors(t));
	ot_free(t);
}
END_TEST

/* odd operand lists of every opcode: whatever op_slots answers, it does not crash */
START_TEST(test_ops_robust)
{
	static const char *const tails[] = {
		"", " R2", " P0", " [R2.64]", " c[0x0][0x10]", " 0x1, 0x2, 0x3",
		" R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17, R18",
		" [UR4], [UR6], [UR8]", " R254, R254, R254", " UR62, UR62", " gdesc[UR62], R250",
	};
	char line[256];

	for (int op = 0; op < NOp; op++)
		for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
			snprintf(line, sizeof line, "@P1 %s.64.128.WIDE.HI.E.4.2D.CAS.16816 %s ;",
			         op_name(op), tails[k]);
			Ot *t = ot_new(line);
			Ins *i = ot_ins(t, t->src->text);
			ck_assert_ptr_nonnull(i);
			if (op_slots(t->f, i) == 0)
				for (unsigned s = 0; s < i->nslot; s++)
					ck_assert_uint_ge(i->slot[s].n, 1);
			op_check(t->f, i, &t->d);
			ot_free(t);
		}
}
END_TEST

/* every instruction of every listing under examples/ passes op_check and gets slots; returns
 * the number rejected and describes the first in msg */
static int
check_listing(const char *path, char *msg, size_t cap)
{
	FILE *fp = fopen(path, "r"), *mem;
	char *text = NULL, buf[65536], *errs = NULL;
	size_t len = 0, n, nerrs = 0;
	int bad = 0;
	Ot *t;
	Module *m;
	Diag d;

	if (!fp)
		return 0;
	mem = open_memstream(&text, &len);
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(mem);
	fclose(fp);
	t = ot_new(text);

	/* the front end's reading */
	mem = open_memstream(&errs, &nerrs);
	diag_init(&d, t->src, mem);
	if ((m = sass_parse(t->src, &d))) {
		for (uint32_t k = 0; k < m->nfn; k++)
			for (uint32_t j = 0; j < m->fn[k]->nins; j++) {
				Fn *f = m->fn[k];
				Ins *i = &f->ins[j];
				if ((op_check(f, i, &t->d) < 0 || op_slots(f, i) < 0) && !bad++)
					snprintf(msg, cap, "%s: %.*s", path, (int)(i->loc.end - i->loc.start),
					         t->src->text + i->loc.start);
			}
		module_free(m);
		goto done;
	}

	/* ot_* on the instruction lines: `/ *0040* /  INSN ... ;  / * 0x... * /` */
	for (const char *p = t->src->text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		const char *q = p, *a;
		Ins *i;
		while (*q == ' ' || *q == '\t')
			q++;
		if (q[0] != '/' || q[1] != '*')
			continue;
		for (a = q + 2; isxdigit((unsigned char)*a); a++)
			;
		if (a[0] != '*' || a[1] != '/')
			continue;
		for (a += 2; *a == ' ' || *a == '\t'; a++)
			;
		if ((*a != '@' && !isupper((unsigned char)*a)) || !(i = ot_ins(t, p)))
			continue;
		if ((op_check(t->f, i, &t->d) < 0 || op_slots(t->f, i) < 0) && !bad++)
			snprintf(msg, cap, "%s: %.*s", path, (int)strcspn(q, "\n"), q);
	}
done:
	fclose(mem);
	free(errs);
	ot_free(t);
	free(text);
	return bad;
}

START_TEST(test_ops_examples)
{
	const char *dir = getenv("FIBER_EXAMPLES") ? getenv("FIBER_EXAMPLES") : "examples";
	DIR *top = opendir(dir);
	struct dirent *e;
	char path[4096], msg[1024] = "";
	int nfile = 0, bad = 0;

	/* run from elsewhere than the repository root: a failure, never a silent pass */
	ck_assert_msg(top != NULL, "cannot open '%s' (run from the repository root or set FIBER_EXAMPLES)",
	              dir);
	while ((e = readdir(top))) {
		DIR *sub;
		struct dirent *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!(sub = opendir(path)))
			continue;
		while ((f = readdir(sub))) {
			size_t n = strlen(f->d_name);
			if (n < 5 || strcmp(f->d_name + n - 5, ".sass") != 0)
				continue;
			snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, f->d_name);
			bad += check_listing(path, msg + strlen(msg), sizeof msg - strlen(msg));
			nfile++;
		}
		closedir(sub);
	}
	closedir(top);
	ck_assert_msg(bad == 0, "%d instructions rejected, first: %s", bad, msg);
	ck_assert_msg(nfile > 0, "no listing found under '%s'", dir);
}
END_TEST

Suite *
ops_suite(void)
{
	Suite *s = suite_create("ops");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_ops_names);
	tcase_add_loop_test(tc, test_ops_slots, 0, (int)(sizeof rows / sizeof rows[0]));
	tcase_add_test(tc, test_ops_slot_fields);
	tcase_add_test(tc, test_ops_hidden_desc);
	suite_add_tcase(s, tc);
	tc = tcase_create("Limits");
	tcase_add_loop_test(tc, test_ops_bad, 0, (int)(sizeof badrows / sizeof badrows[0]));
	tcase_add_test(tc, test_ops_robust);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tc = tcase_create("Listings");
	tcase_add_test(tc, test_ops_examples);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
