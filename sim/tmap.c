/* tmap.c: encoding, checking and decoding fiber's 128-byte tensor map (tmap.h). One set of rules
 * (cuTensorMapEncodeTiled's, docs/sim.md "Tensor maps") serves the host encoder and the
 * simulator, which checks a map again when an instruction reads it.
 *
 * Layout, little-endian: [0] u64 global address; [8] u32 "FTM1"; [12] u8 rank, type, interleave,
 * swizzle; [16] u8 L2 promotion, OOB fill, 0, 0; [20] u32 0; [24] u64 globalDim[5];
 * [64] u64 globalStrides[4]; [96] u16 boxDim[5]; [106] u8 elementStrides[5]; [111..127] 0.
 */
#include "tmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const uint8_t esizes[NTmType] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };

unsigned
tmap_esize(unsigned type)
{
	return type < NTmType ? esizes[type] : 0;
}

static int
bad(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
is_float(unsigned t)
{
	return t == TmF16 || t == TmF32 || t == TmF64 || t == TmBf16 || t == TmF32Ftz ||
	       t == TmTf32 || t == TmTf32Ftz;
}

/* cuTensorMapEncodeTiled's rules on a map */
static int
check(const SimTmap *m, char *why, size_t n)
{
	static const unsigned span[] = { 0, 32, 64, 128 };
	unsigned align = m->interleave == TmIL32 ? 32 : 16;

	if (m->type >= NTmType)
		return bad(why, n, "tensorDataType %u is not a CUtensorMapDataType (0..12)", m->type);
	if (m->interleave > TmIL32)
		return bad(why, n, "interleave %u is not a CUtensorMapInterleave (0..2)", m->interleave);
	if (m->swizzle > TmSw128)
		return bad(why, n, "swizzle %u is not a CUtensorMapSwizzle (0..3)", m->swizzle);
	if (m->l2promo > 3)
		return bad(why, n, "l2Promotion %u is not a CUtensorMapL2promotion (0..3)", m->l2promo);
	if (m->oob > TmOobNan)
		return bad(why, n, "oobFill %u is not a CUtensorMapFloatOOBfill (0..1)", m->oob);
	if (m->oob == TmOobNan && !is_float(m->type))
		return bad(why, n, "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point type");
	if (m->rank < (m->interleave ? 3 : 1) || m->rank > TmapMaxRank)
		return bad(why, n, "tensorRank %u: must be %s to 5", m->rank, m->interleave ? "3" : "1");
	if (m->addr % align)
		return bad(why, n, "globalAddress 0x%llx is not %u-byte aligned",
		           (unsigned long long)m->addr, align);
	for (unsigned d = 0; d < m->rank; d++) {
		if (m->dim[d] == 0 || m->dim[d] > 1ull << 32)
			return bad(why, n, "globalDim[%u] = %llu: must be 1 to 2^32", d,
			           (unsigned long long)m->dim[d]);
		if (d && (m->stride[d] % align || m->stride[d] >= 1ull << 40))
			return bad(why, n, "globalStrides[%u] = %llu: must be a multiple of %u below 2^40",
			           d - 1, (unsigned long long)m->stride[d], align);
		if (m->box[d] == 0 || m->box[d] > 256)
			return bad(why, n, "boxDim[%u] = %u: must be 1 to 256", d, m->box[d]);
		if (m->estride[d] == 0 || m->estride[d] > 8)
			return bad(why, n, "elementStrides[%u] = %u: must be 1 to 8", d, m->estride[d]);
	}
	if (!m->interleave && (uint32_t)m->box[0] * m->esize % 16)
		return bad(why, n, "boxDim[0] * element size = %u bytes: must be a multiple of 16",
		           m->box[0] * m->esize);
	if (!m->interleave && m->swizzle && (uint32_t)m->box[0] * m->esize > span[m->swizzle])
		return bad(why, n, "boxDim[0] * element size = %u bytes: a %u-byte swizzle takes at most "
		           "%u", m->box[0] * m->esize, span[m->swizzle], span[m->swizzle]);
	return 0;
}

int
tmap_encode(uint8_t out[TmapBytes], unsigned type, unsigned rank, uint64_t addr,
            const uint64_t *dim, const uint64_t *strides, const uint32_t *box,
            const uint32_t *estrides, unsigned interleave, unsigned swizzle, unsigned l2promo,
            unsigned oob, char *why, size_t n)
{
	SimTmap m = { .addr = addr, .rank = (uint8_t)(rank > 255 ? 255 : rank),
	              .type = (uint8_t)(type > 255 ? 255 : type), .interleave = (uint8_t)interleave,
	              .swizzle = (uint8_t)swizzle, .l2promo = (uint8_t)l2promo, .oob = (uint8_t)oob };
	uint32_t magic = TmapMagic, zero = 0;

	if (interleave > 255 || swizzle > 255 || l2promo > 255 || oob > 255)
		return bad(why, n, "an enumeration argument is out of range");
	if (rank >= 1 && rank <= TmapMaxRank && (!dim || !box || !estrides || (rank > 1 && !strides)))
		return bad(why, n, "globalDim, boxDim and elementStrides (and globalStrides for a rank "
		           "above 1) must not be NULL");
	m.esize = (uint8_t)tmap_esize(type);
	/* a rank out of range reads none of the arrays (they hold rank elements: check refuses it) */
	for (unsigned d = 0; rank <= TmapMaxRank && d < rank; d++) {
		m.dim[d] = dim[d];
		m.stride[d] = d ? strides[d - 1] : m.esize;
		if (box[d] > 0xffff || estrides[d] > 255)
			return bad(why, n, "%s[%u] = %u is out of range", box[d] > 0xffff ? "boxDim" :
			           "elementStrides", d, box[d] > 0xffff ? box[d] : estrides[d]);
		m.box[d] = (uint16_t)box[d];
		m.estride[d] = (uint8_t)estrides[d];
	}
	if (check(&m, why, n))
		return -1;
	memset(out, 0, TmapBytes);
	memcpy(out, &m.addr, 8);
	memcpy(out + 8, &magic, 4);
	out[12] = m.rank, out[13] = m.type, out[14] = m.interleave, out[15] = m.swizzle;
	out[16] = m.l2promo, out[17] = m.oob;
	memcpy(out + 20, &zero, 4);
	for (unsigned d = 0; d < m.rank; d++) {
		memcpy(out + 24 + 8 * d, &m.dim[d], 8);
		if (d)
			memcpy(out + 64 + 8 * (d - 1), &m.stride[d], 8);
		memcpy(out + 96 + 2 * d, &m.box[d], 2);
		out[106 + d] = m.estride[d];
	}
	return 0;
}

int
tmap_decode(const uint8_t b[TmapBytes], SimTmap *m, char *why, size_t n)
{
	uint32_t magic;

	memset(m, 0, sizeof *m);
	memcpy(&magic, b + 8, 4);
	if (magic != TmapMagic)
		return bad(why, n, "not a tensor map (no \"FTM1\" at byte 8: encode it with "
		           "fiberTensorMapEncodeTiled or fibersim --arg tmap:)");
	memcpy(&m->addr, b, 8);
	m->rank = b[12], m->type = b[13], m->interleave = b[14], m->swizzle = b[15];
	m->l2promo = b[16], m->oob = b[17];
	m->esize = (uint8_t)tmap_esize(m->type);
	for (unsigned d = 0; d < TmapMaxRank && d < m->rank; d++) {
		memcpy(&m->dim[d], b + 24 + 8 * d, 8);
		if (d)
			memcpy(&m->stride[d], b + 64 + 8 * (d - 1), 8);
		else
			m->stride[0] = m->esize;
		memcpy(&m->box[d], b + 96 + 2 * d, 2);
		m->estride[d] = b[106 + d];
	}
	return check(m, why, n);
}

uint32_t
tmap_box_bytes(const SimTmap *m)
{
	uint32_t v = m->esize;

	for (unsigned d = 0; d < m->rank; d++)
		v *= ((uint32_t)m->box[d] + m->estride[d] - 1) / m->estride[d];
	return v;
}
