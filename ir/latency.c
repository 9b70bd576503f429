/* latency.c: the latency class of an instruction and its fixed latency (latency.h), from its
 * opcode's row (ir/ops.h: the class and the configuration key) as timing/sm.c's tins_build and
 * alu_timing take them: the MIO's rows (memory, SHFL, LDSM, ...) are variable, and so are the LVar
 * rows and, on sm_8x, the OFVarSm8x ones; DEPBAR and LDGDEPBAR (key LkNone) write nothing;
 * everything else is fixed, with its key's cycles (an MMA's by its operand volume).
 */
#include "ir.h"
#include "latency.h"
#include "mma.h"

unsigned
lat_planned(int key)
{
	if (key < 0 || key >= NLatKey)
		return 0;
	return lat_planned_cycles[key];
}

int
lat_mma_key(int key, uint64_t vol)
{
	const uint64_t full = 16 * 8 * 16 * 16;    /* HMMA.16816: m n k bits(A) */

	if (!vol)
		return LkHmma;
	if (key == LkDmma)
		return LkDmma;
	if (vol >= full)
		return key;
	if (2 * vol >= full)
		return LkHmmaSmall;
	return LkMmaQuarter;
}

int
lat_key(const Module *m, const Ins *i)
{
	const OpInfo *o = &optab[i->op];
	MmaForm f;
	uint64_t vol;

	if (o->unit != UTensor)
		return o->key;
	mma_form(m, i, &f);
	vol = (uint64_t)f.shape.m * f.shape.n * f.shape.k * mma_elem_bits(f.a);
	return lat_mma_key(o->key, vol);
}

int
lat_late_read(const Ins *i)
{
	const OpInfo *o = &optab[i->op];

	return i->op == OLDGSTS || o->unit == ULsu;
}

/* the rows that are variable where the architecture's row lacks ArchFp64Fixed although LFixed
 * (OFVarSm8x: FP64, R2UR) */
static int
var_on_sm(const OpInfo *o, int sm)
{
	return (o->flags & OFVarSm8x) && sm && !arch_has(arch_code(sm), ArchFp64Fixed);
}

int
lat_kind_in(const LatConfig *c, const Module *m, const Ins *i, int sm, unsigned *cycles)
{
	const OpInfo *o = &optab[i->op];
	int key;
	unsigned lat;

	*cycles = 0;
	if (o->key == LkNone)
		return LatNone;
	if (o->unit == ULsu || o->lat == LVar || var_on_sm(o, sm))
		return LatVar;
	key = lat_key(m, i);
	lat = c ? c->cycles[key] : lat_planned(key);
	*cycles = lat ? lat : 1;
	return LatFixed;
}

int
lat_kind(const Module *m, const Ins *i, int sm, unsigned *cycles)
{
	return lat_kind_in(NULL, m, i, sm, cycles);
}

/* the largest of m and key's planned cycles */
static unsigned
max_planned(unsigned m, int key)
{
	return lat_planned(key) > m ? lat_planned(key) : m;
}

unsigned
lat_max_fixed(void)
{
	unsigned m = 0;

	for (int op = 0; op < NOp; op++) {
		const OpInfo *o = &optab[op];
		if (o->key == LkNone || o->unit == ULsu || o->lat == LVar)
			continue;                  /* never LatFixed */
		m = max_planned(m, o->key);
		if (o->unit == UTensor)        /* and the keys of the other volumes (lat_mma_key) */
			m = max_planned(max_planned(max_planned(m, LkHmma), LkHmmaSmall), LkMmaQuarter);
	}
	return m;
}
