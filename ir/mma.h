/* mmashape.h: the shapes and element types of the warp-level tensor-core instructions (HMMA,
 * IMMA, BMMA, DMMA, QMMA), parsed in one place (mmashape.c) for the decoder and semantics
 * (exec_tensor.c) and the timing model (timing/sm.c). nvdisasm spells a shape as its digits run
 * together on sm_80 ("16816", "1688", "884") and, for some opcodes on sm_90, with x ("8x8x4",
 * "16x8x16"); both mean the same M x N x K. A decoded instruction keeps its shape in DIns.aux
 * (MMA_AUX) and its types in DIns.mod (MMA_MOD).
 */
#ifndef FIBER_MMASHAPE_H
#define FIBER_MMASHAPE_H

#include <stdint.h>

enum MmaElem {
	EF16, EBF16, ETF32, ES8, EU8, ES4, EU4, EB1, EF64, EF32, ES32, EE4M3, EE5M2, NElem
};

typedef struct MmaShape {
	uint16_t m, n, k;
} MmaShape;

/* s, a modifier of an instruction of family op (OHMMA, OIMMA, OBMMA, ODMMA, OQMMA): 1 and *sh
 * set when it is one of that family's shapes; 0 when it is not spelt as a shape (another
 * modifier); -1 when it is spelt as a shape the family does not have (an error for the caller
 * to report) */
int mma_shape_parse(const char *s, int op, MmaShape *sh);
/* the name of element type e ("F16"), and its width in bits */
const char *mma_elem_name(unsigned e);
unsigned mma_elem_bits(unsigned e);
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

#endif /* FIBER_MMASHAPE_H */
