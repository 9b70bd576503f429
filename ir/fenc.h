/* fenc.h: the FIBER extension of the 128-bit instruction word (docs/fiber-encoding.md).
 *
 * Twelve bits that are zero in every instruction of the bundled nvdisasm listings (92..100 and
 * 102..104; bit 101 is used) carry an absolute-operand extension for the three source register
 * fields Ra (bits 24..31), Rb (32..39) and Rc (64..71): per field a flag and 3 high bits, so the
 * field plus its extension names V0..V2047. Bit 126 (a control bit nvcc leaves zero) marks a
 * word that uses the extension (13 bits in all, the paper's budget). SETFIBERNUM and SETBUSYBIT
 * take two 9-bit opcode values no listing uses; DEPBAR.FULL/.EMPTY are DEPBAR with a mode in
 * bits 64..65 (zero in every DEPBAR of the listings). Bit 127, the last bit free in every listing,
 * marks a pool destination (a write local to the pool's slice): Rd then names slice register
 * 256 + Rd.
 *
 * The fields, in bits of the 128-bit instruction as ir/enc.h numbers them (word 1 is 64..127);
 * every bit not named here is nvcc's, kept as it is:
 *
 *   127 126 125   105 104  102 101 100 99  97 96  95  93 92  91       72 71    64
 *  +---+---+---------+--------+---+---+------+---+------+---+-----------+--------+
 *  | P | M | control | ext c  | u | Ac| ext b| Ab| ext a| Aa|  nvcc's   |   Rc   |  word 1
 *  +---+---+---------+--------+---+---+------+---+------+---+-----------+--------+
 *   P: pool destination (Rd names slice register 256 + Rd)   M: the word uses the extension
 *   Ax: source field x (Ra, Rb, Rc) is absolute, V<ext x << 8 | field>   u: bit 101, nvcc's
 *
 * The two native forms (word 0; the fields of word 1 above):
 *
 *   SETFIBERNUM count[, nreg]          SETBUSYBIT, DEPBAR .FULL/.EMPTY reg[, n]
 *    63             32 31  12 11  9 8      0    63   37 36  32 31  24 23 12 11  9 8      0
 *   +-----------------+------+-----+--------+  +-------+------+------+-----+-----+--------+
 *   | count (imm32)   |  0   |form | 0x103  |  |   0   | n-1  |  Ra  |  0  |  4  | opcode |
 *   | or UR in 32..39 |      |     |        |  +-------+------+------+-----+-----+--------+
 *   +-----------------+------+-----+--------+   opcode 0x10d (SETBUSYBIT) or 0x11a (DEPBAR);
 *    form 4: count, 6: UR; nreg in 64..71       mode in 64..65 (0: nvcc's DEPBAR.LE)
 */
#ifndef FIBER_FENC_H
#define FIBER_FENC_H

#include <stddef.h>
#include <stdint.h>

typedef struct Ins Ins;

/* positions and sizes of the FIBER fields (POS_x, SIZE_x: GET_FIELD(w, x), SET_FIELD(w, x, v)) */
enum {
	SIZE_FABS = 1, SIZE_FEXT = 3,        /* per source field x (Ra, Rb, Rc): */
	POS_FABSA = 92, SIZE_FABSA = SIZE_FABS, /* Ax: field x is absolute */
	POS_FEXTA = 93, SIZE_FEXTA = SIZE_FEXT, /* ext x: its 3 high bits (V<ext x << 8 | field>) */
	POS_FABSB = 96, SIZE_FABSB = SIZE_FABS,
	POS_FEXTB = 97, SIZE_FEXTB = SIZE_FEXT,
	POS_FABSC = 100, SIZE_FABSC = SIZE_FABS,
	POS_FEXTC = 102, SIZE_FEXTC = SIZE_FEXT, /* Rc's skip bit 101, which nvcc uses */
	POS_FMARK = 126, SIZE_FMARK = 1,     /* M: the word uses the FIBER extension */
	POS_FPOOLDST = 127, SIZE_FPOOLDST = 1, /* P: Rd names slice register 256 + Rd */
	POS_FCOUNT = 32, SIZE_FCOUNT = 32,   /* SETFIBERNUM count, immediate form */
	POS_FCOUNTUR = 32, SIZE_FCOUNTUR = 8, /* SETFIBERNUM count, UR form: the UR number */
	POS_FNREG = 64, SIZE_FNREG = 8,      /* SETFIBERNUM nreg, 0: the program's */
	POS_FN = 32, SIZE_FN = 5,            /* SETBUSYBIT / DEPBAR register count - 1 */
	POS_FMODE = 64, SIZE_FMODE = 2,      /* SETBUSYBIT / DEPBAR mode: FencModeFull, ...Empty */
};

/* the values of the fields */
enum {
	FencOpSetfibernum = 0x103,   /* opcode (POS_OPCODE): 9-bit values no listing uses */
	FencOpSetbusybit = 0x10d,
	FencOpDepbar = 0x11a,        /* DEPBAR's own */
	FencFormImm = 4,             /* operand form (POS_FORM) */
	FencFormUr = 6,
	FencModeFull = 1, FencModeEmpty = 2, /* POS_FMODE of SETBUSYBIT / DEPBAR */
	FencPoolBase = 256,          /* a pool destination's slice register is FencPoolBase + Rd */
};

typedef struct FDec {
	int op;            /* Oxxx of the FIBER form (OSETFIBERNUM, OSETBUSYBIT, ODEPBAR), 0 other */
	int mode;          /* FencModeFull / FencModeEmpty, 0 none (DEPBAR.LE) */
	int count_ur;      /* SETFIBERNUM: count is UR<count> */
	uint32_t count;    /* SETFIBERNUM count (imm) or UR number */
	uint32_t nreg;     /* SETFIBERNUM nreg, 0: default */
	uint32_t n;        /* SETBUSYBIT / DEPBAR register count 1..32 */
	int pool_dst;      /* a pool write: the slice register 256 + Rd it names, -1 none */
	int abs[3];        /* per source field: absolute register number V<abs>, -1 none */
	uint32_t field[3]; /* the 8-bit source fields */
} FDec;

/* encode i into w. FIBER-native forms are built from the operands (control bits from i->ctrl);
 * any other instruction needs its two words (i->nenc == 2), which are copied and given the
 * extension for its V sources. 0, or -1 with the reason in why. */
int fenc_encode(const Ins *i, uint64_t w[2], char *why, size_t n);
/* the same with the module, which names the modifiers (.FULL/.EMPTY): what fenc_encode needs
 * for SETBUSYBIT and DEPBAR (fenc_encode refuses those) */
typedef struct Module Module;
int fenc_encode_m(const Ins *i, const Module *m, uint64_t w[2], char *why, size_t n);
/* decode the FIBER parts of w into d; 0 (also for words without the extension) */
int fenc_decode(const uint64_t w[2], FDec *d);

#endif
