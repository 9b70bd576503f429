/* tmap.h: the 128-byte tensor map (CUtensorMap) as fiber lays it out: written by libfiberrt's
 * fiberTensorMapEncodeTiled and fibersim's --arg tmap:, read by the simulator's TMA
 * instructions (exec_tma.c). The layout is ours (docs/sim.md, "Tensor maps"); the parameters and
 * their rules are cuTensorMapEncodeTiled's.
 */
#ifndef FIBER_SIM_TMAP_H
#define FIBER_SIM_TMAP_H

#include <stddef.h>
#include <stdint.h>

enum {
	TmapBytes = 128,       /* sizeof(CUtensorMap) */
	TmapMaxRank = 5,
	TmapMagic = 0x314d5446, /* "FTM1" at byte 8: a map fiber encoded */
};

/* CUtensorMapDataType's numbering (CUDA 12): UINT8 .. TFLOAT32_FTZ */
enum TmapType {
	TmU8, TmU16, TmU32, TmS32, TmU64, TmS64, TmF16, TmF32, TmF64, TmBf16, TmF32Ftz, TmTf32,
	TmTf32Ftz, NTmType
};
enum TmapInterleave { TmILNone, TmIL16, TmIL32 };            /* CUtensorMapInterleave */
enum TmapSwizzle { TmSwNone, TmSw32, TmSw64, TmSw128 };      /* CUtensorMapSwizzle */
enum TmapOob { TmOobZero, TmOobNan };                         /* CUtensorMapFloatOOBfill */

/* the decoded map */
typedef struct SimTmap {
	uint64_t addr;         /* global address of element 0 */
	uint8_t rank;          /* dimensions, 1..5 */
	uint8_t type;          /* TmapType */
	uint8_t interleave;    /* TmapInterleave */
	uint8_t swizzle;       /* TmapSwizzle */
	uint8_t l2promo;       /* CUtensorMapL2promotion 0..3 (timing hint; no effect here) */
	uint8_t oob;           /* TmapOob */
	uint8_t esize;         /* bytes per element */
	uint64_t dim[TmapMaxRank];    /* globalDim, innermost first */
	uint64_t stride[TmapMaxRank]; /* bytes between consecutive indices of each dimension:
	                                 stride[0] = esize, stride[1..] = globalStrides */
	uint16_t box[TmapMaxRank];    /* boxDim */
	uint8_t estride[TmapMaxRank]; /* elementStrides */
} SimTmap;

unsigned tmap_esize(unsigned type);           /* bytes of a TmapType; 0 if none */
/* the map from cuTensorMapEncodeTiled's parameters into out[TmapBytes]; 0, or -1 with why (the
 * rule broken, naming the parameter) */
int tmap_encode(uint8_t out[TmapBytes], unsigned type, unsigned rank, uint64_t addr,
                const uint64_t *dim, const uint64_t *strides, const uint32_t *box,
                const uint32_t *estrides, unsigned interleave, unsigned swizzle, unsigned l2promo,
                unsigned oob, char *why, size_t n);
/* the map in b; 0, or -1 with why when b is not a map fiber encoded */
int tmap_decode(const uint8_t b[TmapBytes], SimTmap *m, char *why, size_t n);
/* bytes of one box in shared memory: the product of ceil(box / elementStride) times esize */
uint32_t tmap_box_bytes(const SimTmap *m);

#endif /* FIBER_SIM_TMAP_H */
