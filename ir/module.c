/* module.c: constructors for modules, sections, functions, instructions and SSA values, and the
 * register naming shared by the parser, the printer and the simulator.
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
	for (uint32_t i = 0; i < m->nfn; i++) {
		Fn *f = m->fn[i];
		cfg_free(f);
		edit_free(f);
		free(f->ins);
		free(f->xlabel);
		free(f->val);
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

void
reg_name(Reg r, char *buf, size_t n)
{
	unsigned k = RNUM(r);

	switch (RCLS(r)) {
	case RR: k == RegRZ ? snprintf(buf, n, "RZ") : snprintf(buf, n, "R%u", k); break;
	case RP: k == RegPT ? snprintf(buf, n, "PT") : snprintf(buf, n, "P%u", k); break;
	case RUR: k == RegURZ ? snprintf(buf, n, "URZ") : snprintf(buf, n, "UR%u", k); break;
	case RUP: k == RegUPT ? snprintf(buf, n, "UPT") : snprintf(buf, n, "UP%u", k); break;
	case RB: snprintf(buf, n, "B%u", k); break;
	case RV: snprintf(buf, n, "V%u", k); break;
	default: snprintf(buf, n, "?"); break;
	}
}

/* parse a decimal register number of at most 4 digits; -1 if not a number */
static int
regnum(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;

	if (n == 0 || n > 4)
		return n > 4 ? -2 : -1;
	if (n > 1 && s[0] == '0')
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int
reg_parse(const char *s, size_t n, Reg *out)
{
	static const struct { const char *name; Reg r; } fixed[] = {
		{"RZ", REG(RR, RegRZ)}, {"PT", REG(RP, RegPT)},
		{"URZ", REG(RUR, RegURZ)}, {"UPT", REG(RUP, RegUPT)},
	};
	static const struct { const char *pre; int cls; unsigned max; } cls[] = {
		/* longest prefixes first */
		{"UR", RUR, NumUR - 2}, {"UP", RUP, NumUP - 2},
		{"R", RR, NumR - 2}, {"P", RP, NumP - 2},
		{"B", RB, NumB - 1}, {"V", RV, NumV - 1},
	};
	unsigned k;
	int rc;

	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strlen(fixed[i].name) == n && memcmp(s, fixed[i].name, n) == 0) {
			*out = fixed[i].r;
			return 0;
		}
	for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++) {
		size_t p = strlen(cls[i].pre);
		if (n <= p || memcmp(s, cls[i].pre, p) != 0)
			continue;
		rc = regnum(s + p, n - p, &k);
		if (rc == -1)
			continue;
		if (rc == -2 || k > cls[i].max)
			return -2;
		*out = REG(cls[i].cls, k);
		return 0;
	}
	return -1;
}

int
ins_hasmod(const Ins *i, const Module *m, const char *mod)
{
	for (unsigned k = 0; k < i->nmod; k++)
		if (strcmp(mstr(m, i->mod[k]), mod) == 0)
			return 1;
	return 0;
}

int
sm_of_string(const char *s, int *sm, int *suffix)
{
	static const int known[] = {80, 86, 87, 89, 90, 100, 101, 103, 120};
	char *end;
	long v;

	if (strncmp(s, "sm_", 3) != 0)
		return -1;
	v = strtol(s + 3, &end, 10);
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
		if (v == known[k]) {
			if (*end && !(end[0] == 'a' && !end[1]) && !(end[0] == 'f' && !end[1]))
				return -1;
			*sm = (int)v;
			*suffix = *end ? *end : 0;
			return 0;
		}
	return -1;
}
