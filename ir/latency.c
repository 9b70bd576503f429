/* latency.c: the latency class of an instruction and its fixed latency (latency.h), in the
 * order of timing/sm.c's tins_build: DEPBAR and LDGDEPBAR write nothing; LDGSTS, MEMBAR, every
 * memory access and the rest of the load/store unit (SHFL, MATCH, LDSM) are variable; so are
 * MUFU, the conversions, S2R, S2UR, every row the opcode table marks LVar, and on sm_8x the
 * rows marked OFVarSm8x; everything else is fixed, with the latency of its pipe.
 */
#include "ir.h"
#include "latency.h"
#include "mma.h"

/* the largest value of each key over configs/{a100,h100,b200}{,-fiber}.cfg (2026-12) */
const LatTable lat_table = {
	.lat_int = 4,
	.lat_fp32 = 4,
	.lat_imad = 4,
	.lat_fp16 = 4,
	.lat_fp64 = 6,
	.lat_uniform = 4,
	.lat_umov = 2,
	.lat_hmma = 24,
	.lat_hmma_small = 16,
	.lat_imma = 24,
	.lat_mma_quarter = 14,   /* a100 14; h100, b200 13 */
	.lat_branch = 6,
	.war_read = 20,
};

unsigned
lat_max_fixed(void)
{
	const LatTable *t = &lat_table;
	unsigned m = t->lat_hmma;

	m = t->lat_imma > m ? t->lat_imma : m;
	return m;
}

/* timing/sm.c tensor_timing: the latency follows the operand volume m n k bits(A) relative to
 * HMMA.16816's */
static unsigned
tensor_lat(const Module *m, const Ins *i)
{
	const LatTable *t = &lat_table;
	MmaForm f;
	uint64_t vol, full = 16 * 8 * 16 * 16;

	mma_form(m, i, &f);
	vol = (uint64_t)f.shape.m * f.shape.n * f.shape.k * mma_elem_bits(f.a);
	if (!vol)
		return t->lat_hmma;
	if (vol >= full)
		return i->op == OIMMA || i->op == OBMMA ? t->lat_imma : t->lat_hmma;
	if (2 * vol >= full)
		return t->lat_hmma_small;
	return t->lat_mma_quarter;
}

int
lat_late_read(const Ins *i)
{
	const OpInfo *o = &optab[i->op];

	return i->op == OLDGSTS || o->unit == ULsu;
}

int
lat_kind(const Module *m, const Ins *i, int sm, unsigned *cycles)
{
	const LatTable *t = &lat_table;
	const OpInfo *o = &optab[i->op];
	unsigned lat = t->lat_int;

	*cycles = 0;
	if (i->op == ODEPBAR || i->op == OLDGDEPBAR)
		return LatNone;
	if (i->op == OLDGSTS || i->op == OMEMBAR || o->unit == ULsu)
		return LatVar;
	if (o->lat == LVar || o->unit == UMufu || o->unit == UConv || i->op == OS2R ||
	    i->op == OS2UR ||
	    ((o->flags & OFVarSm8x) && sm && !arch_has(arch_code(sm), ArchFp64Fixed)))
		return LatVar;
	switch (o->unit) {
	case UInt: lat = t->lat_int; break;
	case UFma: lat = i->op == OIMAD || i->op == OIMUL ? t->lat_imad : t->lat_fp32; break;
	case UHalf: lat = t->lat_fp16; break;
	case UDouble: lat = t->lat_fp64; break;
	case UUniform:
		lat = i->op == OULDC || i->op == OUMOV || i->op == OVOTEU ? t->lat_umov : t->lat_uniform;
		break;
	case UBranch: lat = t->lat_branch; break;
	case UTensor: lat = tensor_lat(m, i); break;
	default: lat = t->lat_int; break;
	}
	*cycles = lat ? lat : 1;
	return LatFixed;
}
