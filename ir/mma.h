/* mma.h: the one reader of the modifiers of tensor-core instructions (mma.c): the warp-level
 * HMMA, IMMA, BMMA, DMMA, QMMA and the warpgroup HGMMA, IGMMA, QGMMA, BGMMA. mma_form() reads an
 * instruction's modifiers once into an MmaForm: shape M x N x K, the element types and widths of
 * A, B, C and D, sparsity and the family's flags. The opcode table (op.c: fragment widths), the
 * simulator (sim/exec_tensor.c) and, through the decoded instruction, the timing model
 * (timing/sm.c: tensor-pipe occupancy and latency) all take them from there.
 * nvdisasm spells a shape as its digits run together on sm_80 ("16816", "1688", "884") and, for
 * some opcodes on sm_90 and for the warpgroup forms, with x ("8x8x4", "64x128x16"); both mean the
 * same M x N x K. A decoded instruction keeps its shape in DIns.aux (MMA_AUX) and its types in
 * DIns.mod (MMA_MOD).
 */
#ifndef FIBER_MMA_H
#define FIBER_MMA_H

#include <stdint.h>

typedef struct Ins Ins;
typedef struct Module Module;

/* element types; the first 13 are those the simulator computes with (mma_elem_simulated) */
enum MmaElem {
	EF16, EBF16, ETF32, ES8, EU8, ES4, EU4, EB1, EF64, EF32, ES32, EE4M3, EE5M2,
	ES16, EU16, EU32, ES64, EU64, EE2M1, EE3M2, EE2M3,
	NElem
};

typedef struct MmaShape {
	uint16_t m, n, k;
} MmaShape;

enum {
	MaxMmaTypes = 4,   /* type modifiers kept, in order */
};

/* an MMA instruction's modifiers, read once */
typedef struct MmaForm {
	uint16_t op;       /* family: OHMMA, OIMMA, OBMMA, ODMMA, OQMMA, OHGMMA, OIGMMA, ... */
	MmaShape shape;    /* M x N x K, 0 x 0 x 0 when no modifier spells one */
	int8_t shaped;     /* 1: shape is one of the family's (any well-formed one for the warpgroup
	                    * families); 0: no shape modifier; -1: one spelt badly or not the
	                    * family's (MmaForm.bad says which) */
	uint8_t ntype;     /* type modifiers, in the order written */
	uint8_t type[MaxMmaTypes]; /* MmaElem of each */
	uint8_t type_at[MaxMmaTypes]; /* index + 1 of its modifier */
	uint8_t a, b, c, d;        /* MmaElem of A, B, C and D: written, or the family's default */
	uint8_t abits, bbits, cbits, dbits; /* their widths in bits (QMMA, QGMMA inputs: 8) */
	uint8_t sparse;    /* index + 1 of a .SP modifier (sparse A, with metadata), 0 none */
	uint8_t sat;       /* IMMA .SAT */
	int8_t bop;        /* BMMA: 0 .AND, 1 .XOR, -1 neither */
	uint8_t popc;      /* BMMA .POPC */
	uint8_t bad;       /* index + 1 of the first modifier that is none of the above (a second
	                    * shape, a fifth type, or a word the family does not have), 0 none */
	uint8_t badshape;  /* that modifier is spelt as a shape */
} MmaForm;

/* mma.c */
/* s, one modifier: 1 and *sh when it spells a shape M x N x K (any, "16816" or "16x8x16"); 0
 * when it is not spelt as a shape; -1 when it is spelt as one badly ("16x8", "1x2x3x4") */
int mma_shape_read(const char *s, MmaShape *sh);
/* the shape is one of those family op (OHMMA, OIMMA, OBMMA, ODMMA, OQMMA) has */
int mma_shape_known(int op, MmaShape sh);
/* s, a modifier of family op: 1 and *sh when it is one of that family's shapes; 0 when it is not
 * spelt as a shape; -1 when it is spelt as a shape the family does not have */
int mma_shape_parse(const char *s, int op, MmaShape *sh);
/* the modifiers of i (an instruction of an MMA family) into *f */
void mma_form(const Module *m, const Ins *i, MmaForm *f);
/* the name of element type e ("F16"), its width in bits, whether the simulator computes with it */
const char *mma_elem_name(unsigned e);
unsigned mma_elem_bits(unsigned e);
int mma_elem_simulated(unsigned e);
/* e for a type modifier ("BF16"), -1 if it is none */
int mma_elem_of(const char *s);

/* DIns.aux of a decoded MMA: M | N << 8 | K << 16 */
#define MMA_AUX(m, n, k) ((uint32_t)(m) | (uint32_t)(n) << 8 | (uint32_t)(k) << 16)
#define MMA_M(aux) ((aux) & 0xffu)
#define MMA_N(aux) ((aux) >> 8 & 0xffu)
#define MMA_K(aux) ((aux) >> 16 & 0xffffu)
/* DIns.mod: A type bits 0..3, B type bits 4..7, accumulator type bits 8..11, flags above */
#define MMA_MOD(a, b, c) ((uint32_t)(a) | (uint32_t)(b) << 4 | (uint32_t)(c) << 8)
#define MMA_ATY(mod) ((mod) & 15u)
/* DIns.mod of a warpgroup MMA (sim/exec_gmma.c): gsb0, the last instruction of a commit group,
 * whose completion WARPGROUP.DEPBAR.LE counts (timing/sm.c); DIns.aux2 holds its N (up to 256,
 * which MMA_AUX's 8 bits of n cannot) */
#define MMA_GROUP_END (1u << 18)

#endif /* FIBER_MMA_H */
