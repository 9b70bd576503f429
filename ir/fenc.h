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
 */
#ifndef FIBER_FENC_H
#define FIBER_FENC_H

#include <stddef.h>
#include <stdint.h>

typedef struct Ins Ins;

enum {
	FencOpSetfibernum = 0x103,   /* 9-bit opcode values no listing uses */
	FencOpSetbusybit = 0x10d,
	FencOpDepbar = 0x11a,        /* DEPBAR's own */
	FencFormImm = 4,             /* bits 9..11: the operand form */
	FencFormUr = 6,
	FencMark = 126,              /* 1: the word uses the FIBER extension */
	FencPoolDst = 127,           /* 1: Rd names slice register 256 + Rd (a pool write) */
	FencModeFull = 1, FencModeEmpty = 2, /* bits 64..65 of SETBUSYBIT / DEPBAR */
};

/* the flag bit of source field s (0: Ra, 1: Rb, 2: Rc); its 3 high bits follow at +1..+3, except
 * that Rc's skip bit 101 (used by nvcc): 102..104 */
extern const uint8_t fenc_absflag[3], fenc_absext[3];

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
