/* fenc.c: encoder and decoder of the FIBER extension of the instruction word (fenc.h,
 * docs/fiber-encoding.md). */
#include "ir.h"
#include "enc.h"
#include "fenc.h"

#include <stdio.h>
#include <string.h>

/* per source field s (0: Ra, 1: Rb, 2: Rc): its bits, its absolute flag, its high bits */
static const uint8_t srcpos[3] = { POS_RA, POS_RB, POS_RC };
static const uint8_t absflag[3] = { POS_FABSA, POS_FABSB, POS_FABSC };
static const uint8_t absext[3] = { POS_FEXTA, POS_FEXTB, POS_FEXTC };

static int
refuse(char *why, size_t n, const char *s)
{
	if (why && n)
		snprintf(why, n, "%s", s);
	return -1;
}

/* source field s names register r: the 8-bit field and, for V, the extension */
static int
put_src(uint64_t w[2], int s, Reg r, char *why, size_t n)
{
	unsigned c = RCLS(r), v = RNUM(r);

	if (c == RV) {
		if (v >= FiberFileRegs)
			return refuse(why, n, "absolute register beyond V2047");
		SET_BITS128(w, srcpos[s], SIZE_REG, v & 0xff);
		SET_BITS128(w, absflag[s], SIZE_FABS, 1);
		SET_BITS128(w, absext[s], SIZE_FEXT, v >> 8);
		SET_FIELD(w, FMARK, 1);
		return 0;
	}
	if (c != RR)
		return refuse(why, n, "the register field takes R or V");
	SET_BITS128(w, srcpos[s], SIZE_REG, v);
	return 0;
}

static int
hasmod(const Ins *i, const Module *m, const char *s)
{
	for (unsigned k = 0; m && k < i->nmod; k++)
		if (strcmp(mstr(m, i->mod[k]), s) == 0)
			return 1;
	return 0;
}

static int
imm_of(const Ins *i, unsigned k, int64_t dflt)
{
	return k < i->nopnd && i->opnd[k].kind == OImm ? (int)i->opnd[k].imm : (int)dflt;
}

static int
native(const Ins *i, const Module *m, uint64_t w[2], char *why, size_t n)
{
	int64_t cnt;

	SET_BITS128(w, POS_CTRL + 64, SIZE_CTRLNAMED, enc_ctrl_bits(&i->ctrl));
	if (i->op == OSETFIBERNUM) {
		const Opnd *c = i->nopnd ? &i->opnd[0] : NULL;
		if (!c || i->nopnd > 2)
			return refuse(why, n, "SETFIBERNUM takes count[, nreg]");
		SET_FIELD(w, OPCODE, FencOpSetfibernum);
		if (c->kind == OImm) {
			if (c->imm < 1 || c->imm > FiberMaxFibers)
				return refuse(why, n, "SETFIBERNUM count beyond 1..8192");
			SET_FIELD(w, FORM, FencFormImm);
			SET_FIELD(w, FCOUNT, c->imm);
		} else if (c->kind == OReg && RCLS(c->r[0]) == RUR) {
			SET_FIELD(w, FORM, FencFormUr);
			SET_FIELD(w, FCOUNTUR, RNUM(c->r[0]));
		} else {
			return refuse(why, n, "SETFIBERNUM count is an immediate or a UR");
		}
		cnt = imm_of(i, 1, 0);
		if (cnt < 0 || cnt > 255 || (i->nopnd == 2 && i->opnd[1].kind != OImm))
			return refuse(why, n, "SETFIBERNUM nreg is an immediate 0..255 (8 bits)");
		SET_FIELD(w, FNREG, cnt);
		SET_FIELD(w, FMARK, 1);
		return 0;
	}
	/* SETBUSYBIT / DEPBAR .FULL/.EMPTY reg[, n] */
	int mode = hasmod(i, m, "FULL") ? FencModeFull : hasmod(i, m, "EMPTY") ? FencModeEmpty : 0;
	cnt = imm_of(i, 1, 1);
	if (!mode)
		return refuse(why, n, "needs .FULL or .EMPTY");
	if (!i->nopnd || i->opnd[0].kind != OReg || cnt < 1 || cnt > 32)
		return refuse(why, n, "takes reg[, n] with n 1..32 (5 bits)");
	SET_FIELD(w, OPCODE, i->op == OSETBUSYBIT ? FencOpSetbusybit : FencOpDepbar);
	SET_FIELD(w, FORM, FencFormImm);
	SET_FIELD(w, FN, cnt - 1);
	SET_FIELD(w, FMODE, mode);
	SET_FIELD(w, FMARK, 1);
	return put_src(w, 0, i->opnd[0].r[0], why, n);
}

int
fenc_encode(const Ins *i, uint64_t w[2], char *why, size_t n)
{
	const Module *m = NULL;
	return fenc_encode_m(i, m, w, why, n);
}

int
fenc_encode_m(const Ins *i, const Module *m, uint64_t w[2], char *why, size_t n)
{
	unsigned s = 0;

	w[0] = w[1] = 0;
	if (i->op == OSETFIBERNUM || i->op == OSETBUSYBIT ||
	    (i->op == ODEPBAR && i->nopnd && i->opnd[0].kind == OReg && RCLS(i->opnd[0].r[0]) != RB))
		return native(i, m, w, why, n);
	if (i->nenc != 2)
		return refuse(why, n, "no encoding words to extend");
	w[0] = i->enc[0];
	w[1] = i->enc[1];
	for (unsigned k = 0; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		int isv = RCLS(o->r[0]) == RV || RCLS(o->r[1]) == RV || RCLS(o->r[2]) == RV;
		if (k == 0 && o->kind == OReg && (o->flags & FPoolRef)) {
			/* a pool write, local to the pool's slice: Rd (bits 16..23) plus bit 127 name
			 * slice register 256 + Rd, the upper half where pools sit */
			unsigned sr = RNUM(o->r[0]) % FiberSliceRegs;
			if (sr < FencPoolBase)
				return refuse(why, n, "a pool destination below the slice's upper half "
				              "(slice register 256 + Rd)");
			SET_FIELD(w, RD, sr - FencPoolBase);
			SET_FIELD(w, FPOOLDST, 1);
			SET_FIELD(w, FMARK, 1);
			continue;
		}
		if (o->kind != OReg || k == 0) {
			if (isv)
				return refuse(why, n, k == 0 ? "a V destination (remote write)"
				              : "a V register outside a source register field");
			continue;
		}
		if (s == 3) {
			if (isv)
				return refuse(why, n, "a V source beyond the third source field");
			continue;
		}
		if (RCLS(o->r[0]) == RV && put_src(w, (int)s, o->r[0], why, n) < 0)
			return -1;
		s++;
	}
	return 0;
}

int
fenc_decode(const uint64_t w[2], FDec *d)
{
	unsigned op = GET_FIELD(w, OPCODE);

	memset(d, 0, sizeof *d);
	for (int s = 0; s < 3; s++) {
		d->field[s] = GET_BITS128(w, srcpos[s], SIZE_REG);
		d->abs[s] = GET_BITS128(w, absflag[s], SIZE_FABS)
		            ? (int)(GET_BITS128(w, absext[s], SIZE_FEXT) << 8 | d->field[s]) : -1;
	}
	d->pool_dst = GET_FIELD(w, FPOOLDST) ? (int)(FencPoolBase + GET_FIELD(w, RD)) : -1;
	if (op == FencOpSetfibernum) {
		d->op = OSETFIBERNUM;
		d->count_ur = GET_FIELD(w, FORM) == FencFormUr;
		d->count = d->count_ur ? GET_FIELD(w, FCOUNTUR) : GET_FIELD(w, FCOUNT);
		d->nreg = GET_FIELD(w, FNREG);
	} else if (op == FencOpSetbusybit || (op == FencOpDepbar && GET_FIELD(w, FMODE))) {
		d->op = op == FencOpSetbusybit ? OSETBUSYBIT : ODEPBAR;
		d->mode = (int)GET_FIELD(w, FMODE);
		d->n = GET_FIELD(w, FN) + 1;
	}
	return 0;
}
