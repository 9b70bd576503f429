/* module.c: constructors for modules, sections, functions, instructions and SSA values, and the
 * kernel facts every consumer shares (modifiers, the sm_NN spelling). Register naming lives
 * in regclass.c.
 */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

Module *
module_new(void)
{
	Module *m = xmalloc(sizeof *m);

	m->atoms = atoms_new();
	m->arena = arena_new();
	return m;
}

void
module_free(Module *m)
{
	if (!m)
		return;
	free(m->lset);
	for (uint32_t i = 0; i < m->nfn; i++) {
		Fn *f = m->fn[i];
		cfg_free(f);
		edit_free(f);
		free(f->ins);
		free(f->xlabel);
		free(f->val);
		free(f->pool);
		free(f);
	}
	for (uint32_t i = 0; i < m->nsec; i++) {
		free(m->sec[i]->item);
		free(m->sec[i]);
	}
	free(m->sec);
	free(m->fn);
	atoms_free(m->atoms);
	arena_free(m->arena);
	free(m);
}

const char *
mstr(const Module *m, uint32_t a)
{
	return atomstr(m->atoms, a);
}

uint32_t
mintern(Module *m, const char *s)
{
	return atomz(m->atoms, s);
}

Section *
section_add(Module *m, uint32_t name)
{
	Section *s = xmalloc(sizeof *s);

	s->name = name;
	s->bank = -1;
	m->sec = xrealloc(m->sec, (m->nsec + 1) * sizeof *m->sec);
	m->sec[m->nsec++] = s;
	return s;
}

Item *
section_item(Module *m, Section *s)
{
	Item *it;

	(void)m;
	vgrow(&s->item, &s->citem, s->nitem + 1, sizeof *s->item);
	it = &s->item[s->nitem++];
	memset(it, 0, sizeof *it);
	it->off = -1;
	return it;
}

Fn *
fn_new(Module *m, uint32_t name)
{
	Fn *f = xmalloc(sizeof *f);

	f->mod = m;
	f->name = name;
	f->info.regcount = -1;
	f->info.frame_size = -1;
	f->info.min_stack_size = -1;
	f->info.cbank_param_size = -1;
	f->info.param_cbank_off = -1;
	f->info.maxreg = -1;
	m->fn = xrealloc(m->fn, (m->nfn + 1) * sizeof *m->fn);
	m->fn[m->nfn++] = f;
	return f;
}

Ins *
fn_append(Fn *f)
{
	static const uint32_t first = 64;
	Ins *i;

	/* capacity is kept implicit: powers of two from 64 */
	if (f->nins == 0 || (f->nins >= first && (f->nins & (f->nins - 1)) == 0)) {
		uint32_t cap = f->nins < first ? first : f->nins * 2;
		f->ins = xrealloc(f->ins, cap * sizeof *f->ins);
	}
	i = &f->ins[f->nins++];
	memset(i, 0, sizeof *i);
	i->addr = -1;
	return i;
}

Fn *
module_fn(const Module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nfn; i++)
		if (strcmp(mstr(m, m->fn[i]->name), name) == 0)
			return m->fn[i];
	return NULL;
}

uint32_t
fn_newval(Fn *f, Reg reg, uint32_t ver)
{
	Val *v;

	if (f->nval == 0)
		f->nval = 1;            /* value 0 is "none" */
	vgrow(&f->val, &f->cval, f->nval + 1, sizeof *f->val);
	v = &f->val[f->nval];
	memset(v, 0, sizeof *v);
	v->reg = reg;
	v->ver = ver;
	return f->nval++;
}

int
ins_hasmod(const Ins *i, const Module *m, const char *mod)
{
	for (unsigned k = 0; k < i->nmod; k++)
		if (strcmp(mstr(m, i->mod[k]), mod) == 0)
			return 1;
	return 0;
}
