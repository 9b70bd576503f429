/* symbol.c: a module's variables by name, as cuModuleGetGlobal and cudaMemcpyToSymbol give them.
 *
 * A __device__ variable is a label of .nv.global or .nv.global.init, in device memory that the
 * simulator allocated when the module was loaded; a __constant__ one is a label of the
 * module-wide bank .nv.constant3 (any module-wide .nv.constantN), read by the kernels at launch.
 * Sizes come from `.size NAME, EXPR` (nvdisasm prints `.size coef,(.L_0 - coef)`), else the
 * distance to the next variable or the end of the section. The table is built on first use.
 */
#include "rt.h"

#include <stdlib.h>
#include <string.h>

/* one label or `.size` seen while walking a section: name atom, byte offset */
typedef struct Mark {
	uint32_t atom;
	uint64_t off;
} Mark;

typedef struct Walk {
	Mark *label;               /* every label, '.L_' ones included (sizes refer to them) */
	uint32_t nlabel, clabel;
	const Item **size;         /* the `.size` directives */
	uint32_t nsize, csize;
	uint64_t end;              /* bytes of the section */
} Walk;

static int
label_off(const Walk *w, uint32_t atom, uint64_t *off)
{
	for (uint32_t k = 0; k < w->nlabel; k++)
		if (w->label[k].atom == atom) {
			*off = w->label[k].off;
			return 0;
		}
	return -1;
}

/* an expression of labels and numbers; -1 if it has anything else */
static int
eval(const Walk *w, const Expr *e, int64_t *v)
{
	int64_t a, b;
	uint64_t off;

	switch (e->kind) {
	case ENum:
		*v = e->num;
		return 0;
	case ESym:
		if (label_off(w, e->atom, &off) < 0)
			return -1;
		*v = (int64_t)off;
		return 0;
	case ESub:
	case EAdd:
		if (eval(w, e->a, &a) < 0 || eval(w, e->b, &b) < 0)
			return -1;
		*v = e->kind == ESub ? a - b : a + b;
		return 0;
	default:
		return -1;
	}
}

/* the offsets of a data section's labels, by the rules the simulator lays it out with */
static void
walk(const Module *m, const Section *s, Walk *w)
{
	uint64_t off = 0;

	memset(w, 0, sizeof *w);
	for (uint32_t k = 0; k < s->nitem; k++) {
		const Item *it = &s->item[k];
		const char *name = mstr(m, it->name);
		unsigned sz;

		if (it->kind == ILabel) {
			vgrow(&w->label, &w->clabel, w->nlabel + 1, sizeof *w->label);
			w->label[w->nlabel++] = (Mark){it->name, off};
			continue;
		}
		if (it->kind != IDir)
			continue;
		if (it->off >= 0)
			off = (uint64_t)it->off;
		sz = data_dir_width(name);
		if (sz)
			off += (uint64_t)sz * it->narg;
		else if (strcmp(name, ".zero") == 0 && it->narg >= 1 && it->arg[0]->kind == ENum)
			off += (uint64_t)it->arg[0]->num;
		else if (strcmp(name, ".string") == 0 && it->narg == 1 && it->arg[0]->kind == EStr)
			off += strlen(mstr(m, it->arg[0]->atom)) + 1;
		else if (strcmp(name, ".align") == 0 && it->narg >= 1 && it->arg[0]->kind == ENum
		         && it->arg[0]->num > 0)
			off = (off + (uint64_t)it->arg[0]->num - 1) / (uint64_t)it->arg[0]->num
			      * (uint64_t)it->arg[0]->num;
		else if (strcmp(name, ".size") == 0 && it->narg == 2 && it->arg[0]->kind == ESym) {
			vgrow(&w->size, &w->csize, w->nsize + 1, sizeof *w->size);
			w->size[w->nsize++] = it;
		}
	}
	w->end = off;
}

/* .nv.constantN (module-wide, no .<fn>) */
static int
module_bank(const Module *m, const Section *s)
{
	const char *p = mstr(m, s->name) + strlen(".nv.constant");

	if (s->kind != SecConst || s->bank < 0)
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == 0;
}

static void
add_section(fiberModule mod, const Section *s, int bank)
{
	const Module *m = mod->m;
	Walk w;

	walk(m, s, &w);
	for (uint32_t k = 0; k < w.nlabel; k++) {
		const Mark *l = &w.label[k];
		const char *name = mstr(m, l->atom);
		uint64_t end = w.end;
		RtSymbol *y;
		int64_t v;

		if (name[0] == '.')
			continue;
		for (uint32_t j = 0; j < w.nlabel; j++)
			if (w.label[j].off > l->off && w.label[j].off < end && mstr(m, w.label[j].atom)[0] != '.')
				end = w.label[j].off;
		for (uint32_t j = 0; j < w.nsize; j++)
			if (w.size[j]->arg[0]->atom == l->atom && eval(&w, w.size[j]->arg[1], &v) == 0 && v >= 0
			    && l->off + (uint64_t)v <= w.end)
				end = l->off + (uint64_t)v;
		vgrow(&mod->sym, &mod->csym, mod->nsym + 1, sizeof *mod->sym);
		y = &mod->sym[mod->nsym++];
		y->name = name;
		y->bank = bank;
		y->offset = l->off;
		y->size = end - l->off;
		y->addr = 0;
		if (bank < 0 && sim_module_symbol(mod->sm, name, &y->addr) < 0)
			mod->nsym--;   /* the simulator placed no such variable */
	}
	free(w.label);
	free(w.size);
}

static void
build(fiberModule mod)
{
	const Module *m = mod->m;

	if (mod->sym_built)
		return;
	mod->sym_built = 1;
	for (uint32_t k = 0; k < m->nsec; k++) {
		const Section *s = m->sec[k];
		if (s->kind == SecGlobal)
			add_section(mod, s, -1);
		else if (module_bank(m, s))
			add_section(mod, s, s->bank);
	}
}

/* the variable, or NULL after the error: FIBER_ERROR_NOT_FOUND listing those there are */
static const RtSymbol *
lookup(fiberModule mod, const char *name, const char *fn, fiberStatus *s)
{
	char list[512];
	size_t n = 0;

	build(mod);
	for (uint32_t k = 0; k < mod->nsym; k++)
		if (strcmp(mod->sym[k].name, name) == 0)
			return &mod->sym[k];
	list[0] = 0;
	for (uint32_t k = 0; k < mod->nsym && n < sizeof list; k++) {
		const RtSymbol *y = &mod->sym[k];
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s (%s, %llu bytes)", k ? ", " : "",
		                      y->name, y->bank < 0 ? "__device__" : "__constant__",
		                      (unsigned long long)y->size);
	}
	*s = rt_err(mod->dev, FIBER_ERROR_NOT_FOUND, "%s: no variable named '%s' in '%s' (%s%s)", fn,
	            name, mod->src->name, mod->nsym ? "variables: " : "it has none", list);
	return NULL;
}

/* the bytes [offset, offset + size) of a variable, checked; NULL after the error */
static const RtSymbol *
range(fiberModule mod, const char *name, size_t size, size_t offset, const void *buf,
      const char *fn, fiberStatus *s)
{
	const RtSymbol *y;

	if (!rt_live(mod, RtModule)) {
		*s = rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "%s: not a loaded module", fn);
		return NULL;
	}
	if (!name || (!buf && size)) {
		*s = rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "%s: %s is NULL", fn, !name ? "name" : "the buffer");
		return NULL;
	}
	if (!(y = lookup(mod, name, fn, s)))
		return NULL;
	if (offset > y->size || size > y->size - offset) {
		*s = rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "%s: '%s' is %llu bytes; %zu bytes at "
		            "offset %zu do not fit in it", fn, name, (unsigned long long)y->size, size, offset);
		return NULL;
	}
	return y;
}

fiberStatus
fiberModuleGetGlobal(fiberDevicePtr *ptr, size_t *size, fiberModule mod, const char *name)
{
	const RtSymbol *y;
	fiberStatus s = FIBER_SUCCESS;

	if (ptr)
		*ptr = 0;
	if (size)
		*size = 0;
	if (!(y = range(mod, name, 0, 0, NULL, "fiberModuleGetGlobal", &s)))
		return s;
	if (ptr)
		*ptr = y->bank < 0 ? y->addr : 0;
	if (size)
		*size = (size_t)y->size;
	return FIBER_SUCCESS;
}

/* the variable's bytes on the host side of the simulator: a constant bank, or device memory */
static fiberStatus
copy(fiberModule mod, const RtSymbol *y, void *host, size_t size, size_t offset, int to_device,
     const char *fn)
{
	uint8_t *bank;
	uint32_t bsize;

	if (size == 0)
		return FIBER_SUCCESS;
	if (y->bank >= 0) {
		if (!(bank = sim_module_bank(mod->sm, (unsigned)y->bank, &bsize))
		    || y->offset + offset + size > bsize)
			return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "%s: '%s' lies outside constant "
			              "bank %d", fn, y->name, y->bank);
		if (to_device)
			memcpy(bank + y->offset + offset, host, size);
		else
			memcpy(host, bank + y->offset + offset, size);
		return FIBER_SUCCESS;
	}
	if ((to_device ? gpu_write(mod->dev->gpu, y->addr + offset, host, size)
	               : gpu_read(mod->dev->gpu, y->addr + offset, host, size)) < 0)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_ADDRESS, "%s: '%s' is not in device memory", fn,
		              y->name);
	return FIBER_SUCCESS;
}

fiberStatus
fiberMemcpyToSymbol(fiberModule mod, const char *name, const void *src, size_t size, size_t offset)
{
	const RtSymbol *y;
	fiberStatus s = FIBER_SUCCESS;

	if (!(y = range(mod, name, size, offset, src, "fiberMemcpyToSymbol", &s)))
		return s;
	return copy(mod, y, (void *)src, size, offset, 1, "fiberMemcpyToSymbol");
}

fiberStatus
fiberMemcpyFromSymbol(fiberModule mod, const char *name, void *dst, size_t size, size_t offset)
{
	const RtSymbol *y;
	fiberStatus s = FIBER_SUCCESS;

	if (!(y = range(mod, name, size, offset, dst, "fiberMemcpyFromSymbol", &s)))
		return s;
	return copy(mod, y, dst, size, offset, 0, "fiberMemcpyFromSymbol");
}

fiberStatus
fiberModuleGetGlobalCount(fiberModule mod, unsigned *count)
{
	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleGetGlobalCount: not a loaded module");
	if (!count)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleGetGlobalCount: count is NULL");
	build(mod);
	*count = mod->nsym;
	return FIBER_SUCCESS;
}

fiberStatus
fiberModuleGetGlobalName(fiberModule mod, unsigned k, const char **name)
{
	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleGetGlobalName: not a loaded module");
	build(mod);
	if (!name || k >= mod->nsym)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleGetGlobalName: %s",
		              !name ? "name is NULL" : "index out of range");
	*name = mod->sym[k].name;
	return FIBER_SUCCESS;
}
