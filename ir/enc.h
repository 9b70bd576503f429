/* enc.h: the 128-bit instruction word of Volta and later GPUs (sm_70 to sm_100), as nvdisasm -hex
 * prints it: two 64-bit hex words per instruction, word 0 (bits 0..63) on the instruction line and
 * word 1 (bits 64..127) on the line after. The front end decodes the words once into Ins.ctrl and
 * the operands (frontend/sass/build.c); every later reader uses those fields, and the printer writes
 * word 1 back from them (enc_emit_word). Only this header and ir/fenc.h (the FIBER fields) name
 * bit positions; every other file reads and writes the words through their GET_/SET_ accessors.
 *
 * The layout of the control field is from Jia, Maggioni, Staiger and Scarpazza, "Dissecting the
 * NVIDIA Volta GPU Architecture via Microbenchmarking" (2018), its chapter on instruction
 * encoding, and the maxas control-code notes for Maxwell, whose 21-bit sections Volta keeps,
 * with two zero bits above them, in the top 23 bits of every instruction (docs/sim.md).
 *
 *   127     105 104            72 71    64 63        32 31     24 23     16 15  12 11  9 8      0
 *  +-----------+-----------------+--------+------------+---------+---------+------+-----+--------+
 *  |  control  | operands, mods  |   Rc   | imm32, c[] |   Ra    |   Rd    |      |form | opcode |
 *  +-----------+-----------------+--------+------------+---------+---------+------+-----+--------+
 *   word 1: the control field in its bits 41..63,       word 0; a register form has Rb in bits
 *   Rc in 0..7 (most families: frontend/sass/encop.c)   32..39 instead of an immediate
 *
 * The control field, bit 0 = bit 105 of the instruction (bit 41 of word 1):
 *
 *   22 21 20    17 16        11 10     8 7      5  4   3     0
 *  +-----+--------+------------+--------+--------+---+-------+
 *  | --- | reuse  | wait mask  | read SB|write SB| Y | stall |
 *  +-----+--------+------------+--------+--------+---+-------+
 *
 *  stall  cycles before the warp's next instruction may issue (0..15)
 *  Y      yield: 1 lets the scheduler keep issuing this warp, 0 asks it to switch
 *  wsb    scoreboard SB0..SB5 the instruction's results release when written (7: none)
 *  rsb    scoreboard released when its register sources have been read (7: none)
 *  wait   the scoreboards (bit n: SBn) that must be released before it issues
 *  reuse  operand reuse-cache flags, one per source slot
 *  ---    bits 21..22: zero in nvcc's code; not decoded, kept as they are in the word
 *
 * Word 0: opcode bits 0..8 and operand form 9..11 (frontend/sass/encop.c), the destination register
 * in bits 16..23 for most families, and a 32-bit immediate (or constant-bank offset) in bits
 * 32..63, which for a float literal is the exact binary32 value, the high word of a binary64, or
 * a pair of 16-bit values (the front end copies it into the operand, Opnd.imm2 with FImmBits).
 */
#ifndef FIBER_ENC_H
#define FIBER_ENC_H

#include <stdint.h>

typedef struct Ins Ins;

/* positions and sizes of the control fields, counted from bit 0 of the control field */
enum {
	POS_CTRL = 41,     /* the control field's first bit in word 1 */
	SIZE_CTRL = 23,
	POS_STALL = 0, SIZE_STALL = 4,
	POS_YIELD = 4, SIZE_YIELD = 1,
	POS_WSB = 5, SIZE_WSB = 3,
	POS_RSB = 8, SIZE_RSB = 3,
	POS_WAIT = 11, SIZE_WAIT = 6,
	POS_REUSE = 17, SIZE_REUSE = 4,
	SIZE_CTRLNAMED = 21, /* the fields above: bits 0..20 of the control field */
	SbNone = 7,        /* wsb/rsb: no scoreboard */
	/* fields of the instruction, from its bit 0 (word 0 is bits 0..63, word 1 64..127) */
	POS_OPCODE = 0, SIZE_OPCODE = 9,
	POS_FORM = 9, SIZE_FORM = 3,   /* the operand form (register, immediate, c[], UR) */
	POS_RD = 16, SIZE_RD = 8,
	POS_IMM = 32, SIZE_IMM = 32,
	SIZE_REG = 8,      /* a register field: */
	POS_RA = 24, SIZE_RA = SIZE_REG, /* the source register fields (register forms) */
	POS_RB = 32, SIZE_RB = SIZE_REG,
	POS_RC = 64, SIZE_RC = SIZE_REG,
};

#define ENC_MASK(n) ((1ull << (n)) - 1)
#define ENC_GET(w, pos, size) ((unsigned)((w) >> (pos) & ENC_MASK(size)))
/* word w with its size bits at pos set to the low size bits of v (the others as they are) */
#define ENC_SET(w, pos, size, v) \
	((w) = ((w) & ~(ENC_MASK(size) << (pos))) | (((uint64_t)(v) & ENC_MASK(size)) << (pos)))

/* the control field of word 1, and one field of a control field */
#define GET_CTRLFIELD(w1) ((uint32_t)ENC_GET(w1, POS_CTRL, SIZE_CTRL))
#define GETARG(c, f) ((unsigned)(((c) >> POS_##f) & ENC_MASK(SIZE_##f)))
#define SETARG(c, f, v) \
	((c) = ((c) & ~(uint32_t)(ENC_MASK(SIZE_##f) << POS_##f)) | \
	       (uint32_t)(((uint32_t)(v) & ENC_MASK(SIZE_##f)) << POS_##f))
/* size bits at bit of the 128-bit instruction (words w[0], w[1]; a field does not straddle them) */
#define GET_BITS128(w, bit, size) ENC_GET((w)[(bit) / 64], (bit) % 64, size)
#define SET_BITS128(w, bit, size, v) ENC_SET((w)[(bit) / 64], (bit) % 64, size, v)
/* field f (POS_f, SIZE_f: a field of the instruction, not of the control field) of the words w */
#define GET_FIELD(w, f) GET_BITS128(w, POS_##f, SIZE_##f)
#define SET_FIELD(w, f, v) SET_BITS128(w, POS_##f, SIZE_##f, v)
/* word 0: opcode bits, destination register field, 32-bit immediate field */
#define GET_OPCODE(w0) ENC_GET(w0, POS_OPCODE, SIZE_OPCODE)
#define GET_RD(w0) ENC_GET(w0, POS_RD, SIZE_RD)
#define GET_IMM32(w0) ((uint32_t)ENC_GET(w0, POS_IMM, SIZE_IMM))
#define SET_RD(w0, v) ENC_SET(w0, POS_RD, SIZE_RD, v)
#define SET_IMM32(w0, v) ENC_SET(w0, POS_IMM, SIZE_IMM, v)

/* the decoded control bits of one instruction (Ins.ctrl): 4 bytes */
typedef struct Ctrl {
	unsigned stall : 4;   /* stall count, 0..15 */
	unsigned yield : 1;   /* yield bit */
	unsigned wsb : 3;     /* write scoreboard 0..5, SbNone */
	unsigned rsb : 3;     /* read scoreboard 0..5, SbNone */
	unsigned wait : 6;    /* wait mask, bit n = SBn */
	unsigned reuse : 4;   /* reuse flags, bit n = source slot n */
	unsigned has : 1;     /* 1: the fields above hold the instruction's control bits */
} Ctrl;

/* enc.c */
Ctrl enc_ctrl(uint64_t w1);               /* the fields of word 1 (has = 1) */
uint32_t enc_ctrl_bits(const Ctrl *c);    /* the named fields packed as in the control field */
uint64_t enc_emit_word(const Ins *i, unsigned k); /* word k as the printer writes it: word 1's
                                          * control field from i->ctrl, every other bit as read */
void enc_set_ctrl(Ins *i, Ctrl c);
/* the R registers of i renamed by map (map[r]: the new number of Rr; the operands already carry
 * the new numbers): the register fields of the encoding words follow. The R operands are taken
 * in order, each in the first register field at or after the previous one's that holds its old
 * number (a destination from bits 16..23, sources from 24..31, then 32..39 and word 1's 0..7:
 * the sm_70+ layout), and that field is rewritten; if a renamed operand is in no such field, the
 * first word loses its opcode bits (0x000: no family, so the loader checks no field of it; the
 * control bits in word 1 stay). Returns 1 patched, 0 given up, -1 no encoding words. */
int enc_remap(Ins *i, const uint8_t map[256]);        /* give i control bits (c.has is set) */

#endif /* FIBER_ENC_H */
