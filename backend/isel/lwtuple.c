/* lwtuple.c: PTX register vectors named as one SASS tuple (lw_plan_tuples). The 2- and 4-register
 * vectors of mma and ldmatrix ({%r1, %r2, %r3, %r4}) become the elements of one aligned virtual
 * tuple ("%$s5", "%$s5[1]", ...) when no other mma/ldmatrix vector groups them differently, so
 * selection reads and writes the tuple in place instead of copying each fragment through a
 * temporary (docs/ptx-codegen.md, "Fragments as tuples"). A 2-vector that is an aligned half of
 * a 4-tuple (ldmatrix .x4 feeding two mma B operands) names that half.
 */
#include "lwpriv.h"

#include <stdlib.h>
#include <string.h>

/* the register of element e of vector o, NULL unless a declared 32-bit register */
static const LwReg *
elem_reg(Lw *w, const PtxOpnd *o, int e)
{
	const LwReg *r = lw_opnd_reg(w, &o->sub[e]);

	return r && r->kind == Lk32 ? r : NULL;
}

/* o's registers (2 or 4 distinct 32-bit ones) into k[]; their count, 0 when o is no candidate */
static int
cand(Lw *w, const PtxOpnd *o, uint32_t *k)
{
	if (o->kind != PoVec || (o->nsub != 2 && o->nsub != 4))
		return 0;
	for (int e = 0; e < o->nsub; e++) {
		const LwReg *r = elem_reg(w, o, e);
		if (!r)
			return 0;
		k[e] = (uint32_t)(r - w->priv->reg);
		for (int f = 0; f < e; f++)
			if (k[f] == k[e])
				return 0;
	}
	return o->nsub;
}

/* is i an mma or ldmatrix (the instructions whose vectors are SASS tuples) */
static int
tuple_ins(Lw *w, const PtxIns *i)
{
	const char *op = ptx_str(w->p, i->op);

	return !strcmp(op, "mma") || !strcmp(op, "ldmatrix");
}

/* pass over the candidate vectors of n registers: group[] (per register: group index + 1,
 * UINT32_MAX refused) and pos[] (its element) */
static void
group_pass(Lw *w, int n, uint32_t *group, uint8_t *pos, uint32_t *ngroup)
{
	uint32_t k[4];

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns || !tuple_ins(w, st->ins))
			continue;
		for (unsigned j = 0; j < st->ins->nopnd; j++) {
			const PtxOpnd *o = &st->ins->opnd[j];
			if (o->kind != PoVec || o->nsub != n)
				continue;
			if (cand(w, o, k) != n) {     /* a vector of this size that cannot be a tuple */
				for (int e = 0; e < o->nsub; e++) {
					const LwReg *r = lw_opnd_reg(w, &o->sub[e]);
					if (r)
						group[r - w->priv->reg] = UINT32_MAX;
				}
				continue;
			}
			uint32_t g = group[k[0]];
			int ok = g != UINT32_MAX && (!g || pos[k[0]] % n == 0);
			for (int e = 0; e < n && ok; e++)
				ok = group[k[e]] == g && (!g || pos[k[e]] == pos[k[0]] + e);
			if (ok && !g) {
				++*ngroup;
				for (int e = 0; e < n; e++) {
					group[k[e]] = *ngroup;
					pos[k[e]] = (uint8_t)e;
				}
			} else if (!ok) {
				for (int e = 0; e < n; e++)
					group[k[e]] = UINT32_MAX;
			}
		}
	}
}

void
lw_plan_tuples(Lw *w)
{
	struct LwPriv *v = w->priv;
	uint32_t nreg = v->nreg, ng = 0;
	uint32_t *group = xmalloc((nreg + 1) * sizeof *group);
	uint8_t *pos = xmalloc(nreg + 1);

	group_pass(w, 4, group, pos, &ng);   /* quads first: a pair may be half of one */
	group_pass(w, 2, group, pos, &ng);

	/* a group is taken whole or not at all: a refused member refuses it */
	uint8_t *dead = xmalloc(ng + 1), *size = xmalloc(ng + 1);
	uint32_t *first = xmalloc((ng + 1) * sizeof *first);
	for (uint32_t r = 0; r < nreg; r++)
		if (group[r] && group[r] != UINT32_MAX && pos[r] + 1 > size[group[r]])
			size[group[r]] = (uint8_t)(pos[r] + 1);
	for (uint32_t s = 0; s < w->fn->nst; s++) {   /* a member refused after its group formed */
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns || !tuple_ins(w, st->ins))
			continue;
		for (unsigned j = 0; j < st->ins->nopnd; j++) {
			const PtxOpnd *o = &st->ins->opnd[j];
			if (o->kind != PoVec)
				continue;
			int bad = 0;
			for (int e = 0; e < o->nsub; e++) {
				const LwReg *r = lw_opnd_reg(w, &o->sub[e]);
				bad |= r && group[r - v->reg] == UINT32_MAX;
			}
			for (int e = 0; e < o->nsub && bad; e++) {
				const LwReg *r = lw_opnd_reg(w, &o->sub[e]);
				uint32_t g = r ? group[r - v->reg] : 0;
				if (g && g != UINT32_MAX)
					dead[g] = 1;
			}
		}
	}
	for (uint32_t r = 0; r < nreg; r++)
		if (group[r] && group[r] != UINT32_MAX && size[group[r]] != 2 && size[group[r]] != 4)
			dead[group[r]] = 1;

	/* name the members: element e of a fresh tuple */
	for (uint32_t r = 0; r < nreg; r++) {
		uint32_t g = group[r];
		if (!g || g == UINT32_MAX || dead[g])
			continue;
		if (!first[g])
			first[g] = atomz(w->p->atoms, lw_newvreg(w, size[g])) + 1;
		v->reg[r].name = atomz(w->p->atoms, lw_elem(w, ptx_str(w->p, first[g] - 1), pos[r]));
		v->reg[r].intup = 1;
	}
	free(group);
	free(pos);
	free(dead);
	free(size);
	free(first);
}

/* operand k (a vector of n 32-bit registers) as one tuple: "%$s5" or "%$s5[2]" when its
 * registers are the elements e..e+n-1 of one tuple with e a multiple of n; NULL otherwise */
const char *
lw_tuple_of(Lw *w, int k, int n)
{
	const PtxOpnd *o = lw_opnd(w, k);
	const LwReg *r0;
	const char *base, *s;
	size_t bl;
	int e0;

	if (!o || o->kind != PoVec || o->nsub != n || !(r0 = lw_opnd_reg(w, &o->sub[0])) ||
	    !r0->intup)
		return NULL;
	s = ptx_str(w->p, r0->name);
	base = strchr(s, '[');
	bl = base ? (size_t)(base - s) : strlen(s);
	e0 = base ? atoi(base + 1) : 0;
	if (e0 % n)
		return NULL;
	for (int e = 1; e < n; e++) {
		const LwReg *r = lw_opnd_reg(w, &o->sub[e]);
		const char *t = r && r->intup ? ptx_str(w->p, r->name) : NULL;
		if (!t || strncmp(t, s, bl) || t[bl] != '[' || atoi(t + bl + 1) != e0 + e)
			return NULL;
	}
	return lw_reg_text(w, r0);
}
