/* vreg.c: FIBER-native virtual registers (docs/fiber-isa.md, "Virtual registers"): which
 * declaration (.vreg, .vpred) a virtual register or predicate number belongs to, its spelling
 * for the printer and for messages, and the check that none is left once fiber-ra or regalloc
 * has run (the verifier's).
 */
#include "ir.h"

#include <stdio.h>
#include <string.h>

const FVReg *
vreg_of(const Fn *f, Reg r, unsigned *elem)
{
	unsigned n = RNUM(r), c = RCLS(r) == RP;

	if (!reg_isvany(r))
		return NULL;
	/* declarations are in increasing (class, base) order, R before P: a binary search */
	uint32_t lo = 0, hi = f->nvreg;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const FVReg *v = &f->vreg[mid];
		unsigned vc = v->cls == RP;
		if (c < vc || (c == vc && n < v->base))
			hi = mid;
		else if (c > vc || n >= (unsigned)v->base + v->size)
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

uint32_t
vreg_npred(const Fn *f)
{
	uint32_t n = 0;

	while (n < f->nvreg && f->vreg[f->nvreg - 1 - n].cls == RP)
		n++;
	return n;
}

static void
not_allocated(const Fn *f, const Ins *i, Reg r, Diag *d)
{
	char s[64];

	vreg_spell(f, r, s, sizeof s);
	if (reg_isvpred(r))
		error_at(d, i->loc, "virtual predicate '%s' is not allocated (the pass regalloc "
		         "allocates virtual predicates)", s);
	else
		error_at(d, i->loc, "virtual register '%s' is not allocated (fiberc "
		         "--mode=fiber-native allocates virtual registers)", s);
}

int
vreg_none(const Fn *f, Diag *d)
{
	int bad = 0;

	for (uint32_t k = 0; k < f->nins && bad < 8; k++) {
		const Ins *i = &f->ins[k];
		if (i->guarded && reg_isvpred(i->guard.r[0])) {
			not_allocated(f, i, i->guard.r[0], d);
			bad++;
			continue;
		}
		for (unsigned j = 0; j < i->nopnd; j++)
			for (int fl = 0; fl < 3; fl++)
				if (i->opnd[j].kind != ONone && reg_isvany(i->opnd[j].r[fl])) {
					not_allocated(f, i, i->opnd[j].r[fl], d);
					bad++;
					fl = 3, j = i->nopnd;
				}
	}
	return bad ? -1 : 0;
}
