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
	const uint64_t named = ENC_MASK(SIZE_CTRLNAMED) << POS_CTRL;
	uint64_t w = k < i->nenc ? i->enc[k] : 0;

	if (k != 1 || !i->ctrl.has)
		return w;
	return (w & ~named) | (uint64_t)enc_ctrl_bits(&i->ctrl) << POS_CTRL;
}

void
enc_set_ctrl(Ins *i, Ctrl c)
{
	c.has = 1;
	i->ctrl = c;
}
