/* mma.c: the one reader of tensor-core modifiers (mma.h). The shapes each warp-level family has
 * are those of the PTX ISA's mma.sync (and wmma) forms that nvcc lowers to it on sm_80 to sm_90:
 * HMMA m16n8k16, m16n8k8 (f16, bf16, tf32), m16n8k4 (tf32) and Volta's m8n8k4; IMMA m8n8k16,
 * m16n8k16, m16n8k32 (8-bit), m8n8k32, m16n8k32, m16n8k64 (4-bit); BMMA m8n8k128, m16n8k128,
 * m16n8k256; DMMA m8n8k4, m16n8k4, m16n8k8, m16n8k16; QMMA m16n8k32, m16n8k16. The warpgroup
 * families (wgmma.mma_async: HGMMA, IGMMA, QGMMA, BGMMA) take any well-formed shape.
 */
#include "mma.h"

#include <stdio.h>
#include <string.h>

#include "ir.h"

static const struct { uint16_t op, m, n, k; } shapes[] = {
	{OHMMA, 16, 8, 16}, {OHMMA, 16, 8, 8}, {OHMMA, 16, 8, 4}, {OHMMA, 8, 8, 4},
	{OIMMA, 8, 8, 16}, {OIMMA, 16, 8, 16}, {OIMMA, 16, 8, 32}, {OIMMA, 8, 8, 32},
	{OIMMA, 16, 8, 64},
	{OBMMA, 8, 8, 128}, {OBMMA, 16, 8, 128}, {OBMMA, 16, 8, 256},
	{ODMMA, 8, 8, 4}, {ODMMA, 16, 8, 4}, {ODMMA, 16, 8, 8}, {ODMMA, 16, 8, 16},
	{OQMMA, 16, 8, 32}, {OQMMA, 16, 8, 16},
};

static const struct { const char *name; uint8_t bits, sim; } elems[NElem] = {
	[EF16] = {"F16", 16, 1}, [EBF16] = {"BF16", 16, 1}, [ETF32] = {"TF32", 32, 1},
	[ES8] = {"S8", 8, 1}, [EU8] = {"U8", 8, 1}, [ES4] = {"S4", 4, 1}, [EU4] = {"U4", 4, 1},
	[EB1] = {"B1", 1, 1}, [EF64] = {"F64", 64, 1}, [EF32] = {"F32", 32, 1},
	[ES32] = {"S32", 32, 1}, [EE4M3] = {"E4M3", 8, 1}, [EE5M2] = {"E5M2", 8, 1},
	[ES16] = {"S16", 16, 0}, [EU16] = {"U16", 16, 0}, [EU32] = {"U32", 32, 0},
	[ES64] = {"S64", 64, 0}, [EU64] = {"U64", 64, 0}, [EE2M1] = {"E2M1", 4, 0},
	[EE3M2] = {"E3M2", 8, 0}, [EE2M3] = {"E2M3", 8, 0},
};

/* a decimal number of 1 to 3 digits without a leading zero at s[0..len) */
static int
number(const char *s, size_t len, unsigned *v)
{
	*v = 0;
	if (len < 1 || len > 3 || s[0] == '0')
		return 0;
	for (size_t k = 0; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return 0;
		*v = *v * 10 + (unsigned)(s[k] - '0');
	}
	return 1;
}

int
mma_shape_read(const char *s, MmaShape *sh)
{
	const char *x1 = strchr(s, 'x'), *x2 = x1 ? strchr(x1 + 1, 'x') : NULL;
	size_t len = strlen(s), at;
	unsigned m, n, k;

	if (!len || s[0] < '1' || s[0] > '9')
		return 0;
	if (x1) {
		/* "16x8x16" */
		if (!x2 || strchr(x2 + 1, 'x') || !number(s, (size_t)(x1 - s), &m) ||
		    !number(x1 + 1, (size_t)(x2 - x1 - 1), &n) ||
		    !number(x2 + 1, len - (size_t)(x2 - s) - 1, &k))
			return -1;
	} else {
		/* "16816": M is 16 or 8, N is 8, K the rest */
		for (size_t j = 0; j < len; j++)
			if (s[j] < '0' || s[j] > '9')
				return 0;
		if (len > 2 && s[0] == '1' && s[1] == '6')
			m = 16, at = 2;
		else if (s[0] == '8')
			m = 8, at = 1;
		else
			return -1;
		if (s[at] != '8' || !number(s + at + 1, len - at - 1, &k))
			return -1;
		n = 8;
	}
	sh->m = (uint16_t)m;
	sh->n = (uint16_t)n;
	sh->k = (uint16_t)k;
	return 1;
}

int
mma_shape_known(int op, MmaShape sh)
{
	for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
		if (shapes[j].op == op && shapes[j].m == sh.m && shapes[j].n == sh.n &&
		    shapes[j].k == sh.k)
			return 1;
	return 0;
}

int
mma_shape_parse(const char *s, int op, MmaShape *sh)
{
	MmaShape v;
	int r = mma_shape_read(s, &v);

	if (r <= 0)
		return r;
	if (!mma_shape_known(op, v))
		return -1;
	*sh = v;
	return 1;
}

/* the warpgroup families: any well-formed shape */
static int
warpgroup(int op)
{
	return op == OHGMMA || op == OIGMMA || op == OQGMMA || op == OBGMMA;
}

/* modifier k has no meaning to the family: kept when it comes before the one kept */
static void
bad(MmaForm *f, unsigned k, int shape)
{
	if (!f->bad || k + 1 < f->bad) {
		f->bad = (uint8_t)(k + 1);
		f->badshape = (uint8_t)shape;
	}
}

/* the element types of A, B, C, D from the types written, with each family's defaults (the
 * widths are those the fragment layouts of the PTX ISA use: docs/opcodes.md) */
static void
elements(MmaForm *f)
{
	unsigned t0 = f->ntype > 0 ? f->type[0] : NElem, t1 = f->ntype > 1 ? f->type[1] : NElem;
	unsigned t2 = f->ntype > 2 ? f->type[2] : NElem;

	switch (f->op) {
	case OHMMA:        /* HMMA.<shape>.<accumulator F32|F16>[.<inputs BF16|TF32>] */
	case OHGMMA:
		f->c = (uint8_t)(t0 < NElem ? t0 : EF32);
		f->a = f->b = (uint8_t)(t1 < NElem ? t1 : EF16);
		break;
	case OQMMA:        /* QMMA.<shape>.<accumulator>.<A>.<B>: 8-bit float inputs */
	case OQGMMA:
		f->c = (uint8_t)(t0 < NElem ? t0 : EF32);
		f->a = (uint8_t)(t1 < NElem ? t1 : EE4M3);
		f->b = (uint8_t)(t2 < NElem ? t2 : EE4M3);
		break;
	case OIMMA:        /* IMMA.<shape>.<A>.<B>: S32 accumulator */
	case OIGMMA:
		f->a = (uint8_t)(t0 < NElem ? t0 : ES8);
		f->b = (uint8_t)(t1 < NElem ? t1 : f->a);
		f->c = ES32;
		break;
	case OBMMA:
	case OBGMMA:
		f->a = f->b = EB1;
		f->c = ES32;
		break;
	default:           /* DMMA */
		f->a = f->b = f->c = EF64;
		break;
	}
	f->d = f->c;
	f->abits = (uint8_t)mma_elem_bits(f->a);
	f->bbits = (uint8_t)mma_elem_bits(f->b);
	if (f->op == OQMMA || f->op == OQGMMA)
		f->abits = f->bbits = 8;
	f->cbits = f->dbits = (uint8_t)mma_elem_bits(f->c);
}

void
mma_form(const Module *m, const Ins *i, MmaForm *f)
{
	int spelt = 0;
	unsigned shape_at = 0;

	memset(f, 0, sizeof *f);
	f->op = i->op;
	f->bop = -1;
	for (unsigned k = 0; k < i->nmod && k < MaxMod; k++) {
		const char *s = mstr(m, i->mod[k]);
		MmaShape sh;
		int r = mma_shape_read(s, &sh), e;
		if (r != 0) {
			if (spelt) {
				bad(f, k, 0);        /* a second shape */
				continue;
			}
			spelt = 1;
			shape_at = k + 1;
			if (r > 0)
				f->shape = sh;
			else
				f->shaped = -1;
		} else if ((e = mma_elem_of(s)) >= 0) {
			if (f->ntype == MaxMmaTypes) {
				bad(f, k, 0);
				continue;
			}
			f->type_at[f->ntype] = (uint8_t)(k + 1);
			f->type[f->ntype++] = (uint8_t)e;
		} else if (strcmp(s, "SP") == 0) {
			f->sparse = (uint8_t)(k + 1);
		} else if ((i->op == OIMMA || i->op == OIGMMA) && strcmp(s, "SAT") == 0) {
			f->sat = 1;
		} else if ((i->op == OBMMA || i->op == OBGMMA) &&
		           (strcmp(s, "AND") == 0 || strcmp(s, "XOR") == 0)) {
			f->bop = s[0] == 'X';
		} else if ((i->op == OBMMA || i->op == OBGMMA) && strcmp(s, "POPC") == 0) {
			f->popc = 1;
		} else {
			bad(f, k, 0);
		}
	}
	/* a sparse form is the dense shape with K doubled (PTX mma.sp) */
	if (f->shaped == 0 && spelt) {
		MmaShape dense = f->shape;
		if (f->sparse)
			dense.k = (uint16_t)(dense.k / 2);
		f->shaped = warpgroup(i->op) || mma_shape_known(i->op, dense) ? 1 : -1;
	}
	if (f->shaped < 0)
		bad(f, shape_at - 1, 1);
	elements(f);
}

const char *
mma_elem_name(unsigned e)
{
	return e < NElem ? elems[e].name : "?";
}

unsigned
mma_elem_bits(unsigned e)
{
	return e < NElem ? elems[e].bits : 0;
}

int
mma_elem_simulated(unsigned e)
{
	return e < NElem && elems[e].sim;
}

int
mma_elem_of(const char *s)
{
	for (int k = 0; k < NElem; k++)
		if (strcmp(s, elems[k].name) == 0)
			return k;
	return -1;
}
