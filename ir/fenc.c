/* fenc.c: encoder and decoder of the FIBER extension of the instruction word (fenc.h,
 * docs/fiber-encoding.md). */
#include "ir.h"
#include "enc.h"
#include "fenc.h"

#include <stdio.h>
#include <string.h>

const uint8_t fenc_absflag[3] = { 92, 96, 100 }, fenc_absext[3] = { 93, 97, 102 };
static const uint8_t srcpos[3] = { 24, 32, 64 };   /* Ra, Rb, Rc */

static void
put(uint64_t w[2], unsigned bit, unsigned size, uint64_t v)
{
	uint64_t m = ENC_MASK(size) << (bit % 64);

	w[bit / 64] = (w[bit / 64] & ~m) | ((v << (bit % 64)) & m);
}

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
		put(w, srcpos[s], 8, v & 0xff);
		put(w, fenc_absflag[s], 1, 1);
		put(w, fenc_absext[s], 3, v >> 8);
		put(w, FencMark, 1, 1);
		return 0;
	}
	if (c != RR)
		return refuse(why, n, "the register field takes R or V");
	put(w, srcpos[s], 8, v);
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

	put(w, POS_CTRL + 64, SIZE_CTRLNAMED, enc_ctrl_bits(&i->ctrl));
	if (i->op == OSETFIBERNUM) {
		const Opnd *c = i->nopnd ? &i->opnd[0] : NULL;
		if (!c || i->nopnd > 2)
			return refuse(why, n, "SETFIBERNUM takes count[, nreg]");
		put(w, 0, 9, FencOpSetfibernum);
		if (c->kind == OImm) {
			if (c->imm < 1 || c->imm > FiberMaxFibers)
				return refuse(why, n, "SETFIBERNUM count beyond 1..8192");
			put(w, 9, 3, FencFormImm);
			put(w, 32, 32, (uint64_t)c->imm);
		} else if (c->kind == OReg && RCLS(c->r[0]) == RUR) {
			put(w, 9, 3, FencFormUr);
			put(w, 32, 8, RNUM(c->r[0]));
		} else {
			return refuse(why, n, "SETFIBERNUM count is an immediate or a UR");
		}
		cnt = imm_of(i, 1, 0);
		if (cnt < 0 || cnt > 255 || (i->nopnd == 2 && i->opnd[1].kind != OImm))
			return refuse(why, n, "SETFIBERNUM nreg is an immediate 0..255 (8 bits)");
		put(w, 64, 8, (uint64_t)cnt);
		put(w, FencMark, 1, 1);
		return 0;
	}
	/* SETBUSYBIT / DEPBAR .FULL/.EMPTY reg[, n] */
	int mode = hasmod(i, m, "FULL") ? FencModeFull : hasmod(i, m, "EMPTY") ? FencModeEmpty : 0;
	cnt = imm_of(i, 1, 1);
	if (!mode)
		return refuse(why, n, "needs .FULL or .EMPTY");
	if (!i->nopnd || i->opnd[0].kind != OReg || cnt < 1 || cnt > 32)
		return refuse(why, n, "takes reg[, n] with n 1..32 (5 bits)");
	put(w, 0, 9, i->op == OSETBUSYBIT ? FencOpSetbusybit : FencOpDepbar);
	put(w, 9, 3, FencFormImm);
	put(w, 32, 5, (uint64_t)(cnt - 1));
	put(w, 64, 2, (uint64_t)mode);
	put(w, FencMark, 1, 1);
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
			if (sr < 256)
				return refuse(why, n, "a pool destination below the slice's upper half "
				              "(slice register 256 + Rd)");
			put(w, 16, 8, sr - 256);
			put(w, FencPoolDst, 1, 1);
			put(w, FencMark, 1, 1);
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
	unsigned op = GET_BITS128(w, 0, 9);

	memset(d, 0, sizeof *d);
	for (int s = 0; s < 3; s++) {
		d->field[s] = GET_BITS128(w, srcpos[s], 8);
		d->abs[s] = GET_BITS128(w, fenc_absflag[s], 1)
		            ? (int)(GET_BITS128(w, fenc_absext[s], 3) << 8 | d->field[s]) : -1;
	}
	d->pool_dst = GET_BITS128(w, FencPoolDst, 1) ? (int)(256 + GET_BITS128(w, 16, 8)) : -1;
	if (op == FencOpSetfibernum) {
		d->op = OSETFIBERNUM;
		d->count_ur = GET_BITS128(w, 9, 3) == FencFormUr;
		d->count = d->count_ur ? GET_BITS128(w, 32, 8) : GET_BITS128(w, 32, 32);
		d->nreg = GET_BITS128(w, 64, 8);
	} else if (op == FencOpSetbusybit || (op == FencOpDepbar && GET_BITS128(w, 64, 2))) {
		d->op = op == FencOpSetbusybit ? OSETBUSYBIT : ODEPBAR;
		d->mode = (int)GET_BITS128(w, 64, 2);
		d->n = GET_BITS128(w, 32, 5) + 1;
	}
	return 0;
}
