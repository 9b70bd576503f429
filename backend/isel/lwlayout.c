/* lwlayout.c: where the function's variables live: the kernel parameters in the parameter
 * block (constant bank 0 from Lw.param_base), the shared variables it names in its shared window
 * (static ones in order of first mention, extern dynamic ones after them), its .local variables
 * in its frame at R1; and the module's .global variables (their addresses in .nv.constant4) and
 * .const variables (constant bank 3) as lwmvar.c placed them.
 */
#include "lwpriv.h"

/* ---- parameters and shared variables ------------------------------------------------------ */

uint32_t
lw_var_size(const Lw *w, const PtxVar *v)
{
	uint32_t n = (uint32_t)(lw_type_bits(ptx_str(w->p, v->type)) + 7) / 8;

	if (v->vec)
		n *= v->vec;
	for (unsigned k = 0; k < v->ndim; k++)
		n *= v->dim[k] > 0 ? (uint32_t)v->dim[k] : 0;
	return n;
}

uint32_t
lw_var_align(const Lw *w, const PtxVar *v)
{
	uint32_t a = v->align;

	if (!a) {
		a = (uint32_t)(lw_type_bits(ptx_str(w->p, v->type)) + 7) / 8;
		if (v->vec)
			a *= v->vec;
	}
	return a ? a : 1;
}

int
lw_param_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nparam; k++)
		if (w->priv->param[k].name == name)
			return (int)w->priv->param[k].off;
	return -1;
}

int
lw_shared_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nshared; k++)
		if (w->priv->shared[k].name == name)
			return (int)w->priv->shared[k].off;
	return -1;
}

int
lw_local_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nlocal; k++)
		if (w->priv->local[k].name == name)
			return (int)w->priv->local[k].off;
	return -1;
}

/* the function's .local variables (nvcc's __local_depot<N>) in declaration order from offset 0 of
 * its frame; the frame is their size rounded up to 8 bytes, as nvcc's */
void
lw_place_local(Lw *w)
{
	struct LwPriv *v = w->priv;
	uint32_t off = 0;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsDecl)
			continue;
		for (uint32_t k = 0; k < st->nvar; k++) {
			const PtxVar *var = &st->var[k];
			uint32_t a = lw_var_align(w, var), sz = lw_var_size(w, var);
			if (var->space != PsLocal || lw_local_offset(w, var->name) >= 0)
				continue;
			off = (off + a - 1) / a * a;
			vgrow(&v->local, &v->clocal, v->nlocal + 1, sizeof *v->local);
			v->local[v->nlocal++] = (Place){ var->name, off, sz };
			off += sz;
		}
	}
	w->frame_size = (off + 7) / 8 * 8;
}

struct MVar *
lw_mvar(LwCount *c, const PtxVar *v)
{
	for (uint32_t k = 0; c && k < c->nmv; k++)
		if (c->mv[k].v == v)
			return &c->mv[k];
	return NULL;
}

int
lw_global_addr(Lw *w, const PtxVar *v, const char **lo, const char **hi)
{
	struct MVar *m = lw_mvar(w->priv->cnt, v);
	char *a = lw_ring(w), *b = lw_ring(w);

	if (!m || v->space != PsGlobal)
		return lw_error(w, "'%s' is not a module .global variable", ptx_str(w->p, v->name));
	if (m->c4 < 0)
		m->c4 = (int)w->priv->cnt->nc4++;
	snprintf(a, LwStr, "c[0x4][0x%x]", (unsigned)m->c4 * 8);
	snprintf(b, LwStr, "c[0x4][0x%x]", (unsigned)m->c4 * 8 + 4);
	*lo = a;
	*hi = b;
	return 0;
}

int
lw_const_offset(const Lw *w, const PtxVar *v)
{
	struct MVar *m = lw_mvar(w->priv->cnt, v);

	return m && v->space == PsConst ? (int)m->off : -1;
}

void
lw_place_params(Lw *w)
{
	struct LwPriv *v = w->priv;
	uint32_t off = 0;

	v->param = xmalloc((w->fn->nparam + 1) * sizeof *v->param);
	for (uint32_t k = 0; k < w->fn->nparam; k++) {
		const PtxVar *pv = &w->fn->param[k];
		uint32_t a = lw_var_align(w, pv), sz = lw_var_size(w, pv);
		if (a > 8 && !pv->align)
			a = 8;
		/* aligned in the bank (a tensor map's 64 bytes: its generic address is aligned) */
		off = (w->param_base + off + a - 1) / a * a - w->param_base;
		v->param[k] = (Place){ pv->name, off, sz };
		off += sz;
	}
	v->nparam = w->fn->nparam;
	v->param_size = off;
}

static void
add_shared(Lw *w, const PtxVar *var)
{
	struct LwPriv *v = w->priv;
	uint32_t a = lw_var_align(w, var), sz = lw_var_size(w, var);

	for (uint32_t k = 0; k < v->nshared; k++)
		if (v->shared[k].name == var->name)
			return;
	if (var->ndim && var->dim[0] < 0)
		return;        /* extern dynamic shared memory: placed after the static variables */
	v->shared_size = (v->shared_size + a - 1) / a * a;
	vgrow(&v->shared, &v->cshared, v->nshared + 1, sizeof *v->shared);
	v->shared[v->nshared++] = (Place){ var->name, v->shared_size, sz };
	v->shared_size += sz;
}

static void
add_shared_opnd(Lw *w, const PtxOpnd *o)
{
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsShared)
		add_shared(w, o->decl);
	for (unsigned k = 0; k < o->nsub; k++)
		add_shared_opnd(w, &o->sub[k]);
}

/* the shared variables the function names, in order of first mention; dynamic ones last */
void
lw_place_shared(Lw *w)
{
	struct LwPriv *v = w->priv;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind == PsDecl)
			for (uint32_t k = 0; k < st->nvar; k++)
				if (st->var[k].space == PsShared)
					add_shared(w, &st->var[k]);
		if (st->kind == PsIns)
			for (unsigned k = 0; k < st->ins->nopnd; k++)
				add_shared_opnd(w, &st->ins->opnd[k]);
	}
	/* extern (dynamic) arrays: at the end of the static ones, 16-byte aligned */
	uint32_t dyn = (v->shared_size + 15) / 16 * 16;
	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		for (unsigned k = 0; k < st->ins->nopnd; k++) {
			const PtxOpnd *o = &st->ins->opnd[k];
			const PtxOpnd *n = o->kind == PoAddr && o->nsub ? &o->sub[0] : o;
			if (n->kind == PoName && n->what == PwVar && n->decl && n->decl->space == PsShared &&
			    n->decl->ndim && n->decl->dim[0] < 0 && lw_shared_offset(w, n->atom) < 0) {
				vgrow(&v->shared, &v->cshared, v->nshared + 1, sizeof *v->shared);
				v->shared[v->nshared++] = (Place){ n->decl->name, dyn, 0 };
			}
		}
	}
}
