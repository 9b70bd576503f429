/* mmashape.c: the one parser of tensor-core shape modifiers (mmashape.h). The shapes each family
 * has are those of the PTX ISA's mma.sync (and wmma) forms that nvcc lowers to it on sm_80 to
 * sm_90: HMMA m16n8k16, m16n8k8 (f16, bf16, tf32), m16n8k4 (tf32) and Volta's m8n8k4; IMMA
 * m8n8k16, m16n8k16, m16n8k32 (8-bit), m8n8k32, m16n8k32, m16n8k64 (4-bit); BMMA m8n8k128,
 * m16n8k128, m16n8k256; DMMA m8n8k4, m16n8k4, m16n8k8, m16n8k16; QMMA m16n8k32, m16n8k16.
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

static const struct { const char *name; uint8_t bits; } elems[NElem] = {
	[EF16] = {"F16", 16}, [EBF16] = {"BF16", 16}, [ETF32] = {"TF32", 32}, [ES8] = {"S8", 8},
	[EU8] = {"U8", 8}, [ES4] = {"S4", 4}, [EU4] = {"U4", 4}, [EB1] = {"B1", 1},
	[EF64] = {"F64", 64}, [EF32] = {"F32", 32}, [ES32] = {"S32", 32}, [EE4M3] = {"E4M3", 8},
	[EE5M2] = {"E5M2", 8},
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

static int
known(int op, unsigned m, unsigned n, unsigned k)
{
	for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
		if (shapes[j].op == op && shapes[j].m == m && shapes[j].n == n && shapes[j].k == k)
			return 1;
	return 0;
}

int
mma_shape_parse(const char *s, int op, MmaShape *sh)
{
	const char *x1 = strchr(s, 'x'), *x2 = x1 ? strchr(x1 + 1, 'x') : NULL;
	size_t len = strlen(s);
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
		m = len > 2 && s[0] == '1' && s[1] == '6' ? 16 : 8;
		if (s[m == 16 ? 2 : 1] != '8' || !number(s + (m == 16 ? 3 : 2),
		                                         len - (m == 16 ? 3 : 2), &k))
			return -1;
		n = 8;
	}
	if (!known(op, m, n, k))
		return -1;
	sh->m = (uint16_t)m;
	sh->n = (uint16_t)n;
	sh->k = (uint16_t)k;
	return 1;
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
mma_elem_of(const char *s)
{
	for (int k = 0; k < NElem; k++)
		if (strcmp(s, elems[k].name) == 0)
			return k;
	return -1;
}
