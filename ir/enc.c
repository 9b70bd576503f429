/* enc.c: the control field of the 128-bit instruction word (enc.h): decoded once by the front end
 * into Ins.ctrl, packed again by the printer, so that an edited or inserted instruction is written
 * with the control bits a pass gave it.
 */
#include "ir.h"

Ctrl
enc_ctrl(uint64_t w1)
{
	uint32_t c = GET_CTRLFIELD(w1);

	return (Ctrl){
		.has = 1,
		.stall = GETARG(c, STALL),
		.yield = GETARG(c, YIELD),
		.wsb = GETARG(c, WSB),
		.rsb = GETARG(c, RSB),
		.wait = GETARG(c, WAIT),
		.reuse = GETARG(c, REUSE),
	};
}

uint32_t
enc_ctrl_bits(const Ctrl *c)
{
	uint32_t v = 0;

	SETARG(v, STALL, c->stall);
	SETARG(v, YIELD, c->yield);
	SETARG(v, WSB, c->wsb);
	SETARG(v, RSB, c->rsb);
	SETARG(v, WAIT, c->wait);
	SETARG(v, REUSE, c->reuse);
	return v;
}

uint64_t
enc_emit_word(const Ins *i, unsigned k)
{
	uint64_t w = k < i->nenc ? i->enc[k] : 0;

	if (k != 1 || !i->ctrl.has)
		return w;
	return ENC_SET(w, POS_CTRL, SIZE_CTRLNAMED, enc_ctrl_bits(&i->ctrl));
}

void
enc_set_ctrl(Ins *i, Ctrl c)
{
	c.has = 1;
	i->ctrl = c;
}

/* the register fields of the sm_70+ encoding, SIZE_REG bits each, in the order operands take them */
static const uint8_t regfield[] = {POS_RD, POS_RA, POS_RB, POS_RC};

int
enc_remap(Ins *i, const uint8_t map[256])
{
	uint8_t inv[256];          /* new number -> old number */
	unsigned cursor = 1;       /* next field a source may be in (0: the destination's) */

	if (i->nenc < 2)
		return -1;
	for (unsigned r = 0; r < 256; r++)
		inv[r] = (uint8_t)r;
	for (unsigned r = 0; r < 255; r++)
		if (map[r] != r)
			inv[map[r]] = (uint8_t)r;
	/* the R operands in order, each in the first field at or after the previous one's that
	 * holds its old number: a destination in bits 16..23, sources in 24.., 32.., word 1's 0.. */
	for (unsigned o = 0; o < i->nopnd; o++) {
		int def = 0;
		for (unsigned s = 0; s < i->nslot; s++)
			if (i->slot[s].opnd == o && i->slot[s].kind == SDef)
				def = 1;
		for (unsigned k = 0; k < 3; k++) {
			Reg r = i->opnd[o].r[k];
			unsigned n = RNUM(r), old, f;
			if (r == RNone || RCLS(r) != RR || n >= 255)
				continue;
			old = inv[n];
			f = def && o == 0 ? 0 : cursor;
			for (; f < sizeof regfield / sizeof regfield[0]; f++)
				if (GET_BITS128(i->enc, regfield[f], SIZE_REG) == old)
					break;
			if (f == sizeof regfield / sizeof regfield[0]) {
				if (old == n)
					continue;      /* not renamed, and not where expected: leave it */
				SET_FIELD(i->enc, OPCODE, 0);
				SET_FIELD(i->enc, FORM, 0);
				return 0;
			}
			if (old != n)
				SET_BITS128(i->enc, regfield[f], SIZE_REG, n);
			cursor = f + 1;
		}
	}
	return 1;
}
