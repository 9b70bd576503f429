/* vreg.c: FIBER-native virtual registers (docs/fiber-isa.md, "Virtual registers"): which
 * declaration (.vreg) a virtual register number belongs to, its spelling for the printer and
 * for messages, and the check that none is left once fiber-ra has run (the verifier's).
 */
#include "ir.h"

#include <stdio.h>
#include <string.h>

const FVReg *
vreg_of(const Fn *f, Reg r, unsigned *elem)
{
	unsigned n = RNUM(r);

	if (!reg_isvirt(r))
		return NULL;
	/* declarations are in increasing base order: a binary search */
	uint32_t lo = 0, hi = f->nvreg;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const FVReg *v = &f->vreg[mid];
		if (n < v->base)
			hi = mid;
		else if (n >= (unsigned)v->base + v->size)
			lo = mid + 1;
		else {
			if (elem)
				*elem = n - v->base;
			return v;
		}
	}
	return NULL;
}

int
vreg_spell(const Fn *f, Reg r, char *buf, size_t n)
{
	unsigned e = 0;
	const FVReg *v = vreg_of(f, r, &e);

	if (!v)
		return snprintf(buf, n, "%%?%u", RNUM(r));
	if (e)
		return snprintf(buf, n, "%%%s[%u]", mstr(f->mod, v->name), e);
	return snprintf(buf, n, "%%%s", mstr(f->mod, v->name));
}

int
vreg_none(const Fn *f, Diag *d)
{
	char s[64];
	int bad = 0;

	for (uint32_t k = 0; k < f->nins && bad < 8; k++) {
		const Ins *i = &f->ins[k];
		for (unsigned j = 0; j < i->nopnd; j++)
			for (int fl = 0; fl < 3; fl++)
				if (i->opnd[j].kind != ONone && reg_isvirt(i->opnd[j].r[fl])) {
					vreg_spell(f, i->opnd[j].r[fl], s, sizeof s);
					error_at(d, i->loc, "virtual register '%s' is not allocated (fiberc "
					         "--mode=fiber-native allocates virtual registers)", s);
					bad++;
					fl = 3, j = i->nopnd;
				}
	}
	return bad ? -1 : 0;
}
