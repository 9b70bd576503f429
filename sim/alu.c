/* alu.c: decoding and operand helpers shared by the ALU families (alu.h): the modifier parser
 * that rejects what a family does not know, operand splits by the instruction's form, exact
 * float literals (from the encoding when the listing has it: nvdisasm prints every NaN as QNAN),
 * 64-bit operand pairs, and scalar access for the uniform datapath.
 */
#include <string.h>

#include "alu.h"

static const char *const cmpname[16] = {
	"F", "LT", "EQ", "LE", "GT", "NE", "GE", "NUM",
	"NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T",
};

/* Parse i's modifiers: each must be one of names (bit k of m->bits) or, as flags allow, a
 * compare, a boolean op or a rounding mode. Anything else: "unsupported instruction". */
int
alu_mods(DecodeCtx *c, const Ins *i, const char *const *names, int flags, AluMods *m)
{
	m->bits = 0;
	m->cmp = m->bop = m->rm = -1;
	for (unsigned k = 0; k < i->nmod; k++) {
		const char *s = mstr(c->fn->mod, i->mod[k]);
		int j, found = 0;

		for (j = 0; names && names[j]; j++)
			if (strcmp(names[j], s) == 0) {
				m->bits |= 1u << j;
				found = 1;
				break;
			}
		if (found)
			continue;
		if ((flags & AmCmp) && m->cmp < 0) {
			for (j = 0; j < 16; j++)
				if (strcmp(cmpname[j], s) == 0)
					break;
			if (j < 16) {
				m->cmp = j;
				continue;
			}
		}
		if ((flags & AmBop) && m->bop < 0) {
			if (strcmp(s, "AND") == 0)
				m->bop = BopAnd;
			else if (strcmp(s, "OR") == 0)
				m->bop = BopOr;
			else if (strcmp(s, "XOR") == 0)
				m->bop = BopXor;
			if (m->bop >= 0)
				continue;
		}
		if ((flags & AmRnd) && m->rm < 0) {
			static const char *const rn[4] = { "RN", "RZ", "RM", "RP" };
			for (j = 0; j < 4; j++)
				if (strcmp(rn[j], s) == 0)
					break;
			if (j < 4) {
				m->rm = j;
				continue;
			}
		}
		if ((flags & AmRound) && m->rm < 0) {
			if (strcmp(s, "TRUNC") == 0)
				m->rm = RmRZ;
			else if (strcmp(s, "FLOOR") == 0)
				m->rm = RmRM;
			else if (strcmp(s, "CEIL") == 0)
				m->rm = RmRP;
			if (m->rm >= 0)
				continue;
		}
		return (flags & AmQuiet) ? -1 : sim_unsupported(c, i);
	}
	return 0;
}

/* Split a "prefix" form: leading predicates are definitions, and so are the first ngr general
 * (R or UR) registers; RZ, URZ and PT count (they have no slot, so sim_dec_opnds cannot tell). */
int
alu_split(DecodeCtx *c, const Ins *i, DIns *d, int ngr)
{
	int nd = 0, gr = 0;

	while (nd < i->nopnd && i->opnd[nd].kind == OReg && !(i->opnd[nd].flags & (FNeg | FAbs |
	       FNot | FLNot))) {
		unsigned cls = RCLS(i->opnd[nd].r[0]);
		if (cls == RP || cls == RUP) {
			nd++;
			continue;
		}
		if ((cls == RR || cls == RUR || (cls == RV && (i->opnd[nd].flags & FPoolRef))) &&
		    gr < ngr) {   /* FIBER: a pool destination counts as a register */
			gr++;
			nd++;
			continue;
		}
		break;
	}
	return alu_split_n(c, i, d, nd);
}

int
alu_split_n(DecodeCtx *c, const Ins *i, DIns *d, int ndst)
{
	int rc = sim_dec_opnds(c, i, d, ndst);

	if (rc == -2)
		return -1;
	if (rc < 0)
		return sim_unsupported(c, i);
	return 0;
}

int
alu_is_fimm(const Ins *i, int k)
{
	return k < i->nopnd && i->opnd[k].kind == OFImm;
}

/* binary32 bits of float literal operand k: the exact bits the operand holds (FImmBits: the front
 * end copies them from the encoding word), else its value (NaN: the canonical one) */
uint32_t
alu_fimm32(const Ins *i, int k)
{
	double v = i->opnd[k].fimm;

	if (i->opnd[k].flags & FImmBits)
		return (uint32_t)i->opnd[k].imm2;
	if (v != v)
		return F32_CNAN;
	return f32_bits((float)v);
}

/* binary64 bits of a float literal of an FP64 instruction: exact bits, when the operand holds
 * them, are the high word */
uint64_t
alu_fimm64(const Ins *i, int k)
{
	double v = i->opnd[k].fimm;

	if (i->opnd[k].flags & FImmBits)
		return (uint64_t)(uint32_t)i->opnd[k].imm2 << 32;
	if (v != v)
		return F64_CNAN;
	return f64_bits(v);
}

/* two literals of a 16-bit pair, printed high half first: `HADD2 R3, R2, 2, 1`; exact bits, when
 * the first operand holds them, are the pair */
uint32_t
alu_fimm_pair(const Ins *i, int k, int fmt)
{
	uint32_t hi, lo;

	if (i->opnd[k].flags & FImmBits)
		return (uint32_t)i->opnd[k].imm2;
	hi = (uint32_t)fp_from_f64(fmt, i->opnd[k].fimm, RmRN, 0);
	lo = k + 1 < i->nopnd ? (uint32_t)fp_from_f64(fmt, i->opnd[k + 1].fimm, RmRN, 0) : 0;
	return hi << 16 | lo;
}

/* 64-bit values of a pair operand for every lane */
void
alu_src64(Exec *x, const DOp *o, uint64_t v[WarpSize])
{
	if (o->kind == DR || o->kind == DV) {
		if (o->kind == DR && o->reg == RegRZ) {
			memset(v, 0, WarpSize * sizeof *v);
			return;
		}
		const uint32_t *lo = sim_vreg(x, o, 0), *hi = sim_vreg(x, o, 1);
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = lo[l] | (uint64_t)hi[l] << 32;
		return;
	}
	if (o->kind == DImm || o->kind == DUR || (o->kind == DCBank && o->reg == RegRZ)) {
		uint64_t u = sim_src64(x, o, 0);
		for (unsigned l = 0; l < WarpSize; l++)
			v[l] = u;
		return;
	}
	for (unsigned l = 0; l < WarpSize; l++)
		v[l] = sim_src64(x, o, l);
}

void
alu_dst64(Exec *x, const DOp *o, const uint64_t v[WarpSize], uint32_t mask)
{
	uint32_t lo[WarpSize], hi[WarpSize];
	DOp h = *o;

	if (o->kind == DR && o->reg == RegRZ)
		return;
	for (unsigned l = 0; l < WarpSize; l++) {
		lo[l] = (uint32_t)v[l];
		hi[l] = (uint32_t)(v[l] >> 32);
	}
	sim_dst(x, o, lo, mask);
	h.reg++;
	if (o->kind == DUR && h.reg >= RegURZ)
		return;
	sim_dst(x, &h, hi, mask);
}

/* uniform datapath: the one value of a source */
uint32_t
alu_uget(Exec *x, const DOp *o)
{
	Warp *w = x->w;

	switch (o->kind) {
	case DUR:
		return o->reg == RegURZ ? 0 : w->ur[o->reg];
	case DImm:
		return (uint32_t)o->imm;
	case DCBank:
		return sim_const32(x, o->bank, (uint32_t)o->imm + ((o->flags & DFUreg) &&
		                   o->ureg != RegURZ ? w->ur[o->ureg] : 0), 0);
	case DUP:
	case DP:
		return sim_pred(x, o) & 1;
	default:
		return 0;
	}
}

uint64_t
alu_uget64(Exec *x, const DOp *o)
{
	if (o->kind == DImm)
		return (uint64_t)o->imm;
	return sim_src64(x, o, 0);
}

void
alu_uset(Exec *x, const DOp *o, uint32_t v)
{
	if (o->kind == DUR && o->reg != RegURZ)
		x->w->ur[o->reg] = v;
}

void
alu_uset64(Exec *x, const DOp *o, uint64_t v)
{
	if (o->kind != DUR || o->reg == RegURZ)
		return;
	x->w->ur[o->reg] = (uint32_t)v;
	if (o->reg + 1u < RegURZ)
		x->w->ur[o->reg + 1] = (uint32_t)(v >> 32);
}
