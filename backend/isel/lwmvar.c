/* lwmvar.c: the module's variables: collect_mvars places every .global and .const variable of
 * the module in its section (.nv.global.init with an initialiser, .nv.global without, and
 * .nv.constant3 for .const); emit_mvars writes those sections with the initialisers' bytes and
 * .nv.constant4, the addresses of the .global variables the code names (lw_global_addr) and of
 * the system routines vprintf and __assertfail (ptxsyscall.c).
 */
#include "lwpriv.h"

#include <stdlib.h>

void
lw_collect_mvars(const Ptx *p, LwCount *c)
{
	uint32_t off[3] = {0, 0, 0};   /* .nv.global.init, .nv.global, .nv.constant3 */

	for (uint32_t t = 0; t < p->ntop; t++) {
		const PtxTop *tp = &p->top[t];
		if (tp->kind != PtVar)
			continue;
		for (uint32_t k = 0; k < tp->nvar; k++) {
			const PtxVar *v = &tp->var[k];
			if ((v->space != PsGlobal && v->space != PsConst) || (v->link & PlExtern))
				continue;
			Lw tmp = { .p = p };
			uint32_t a = lw_var_align(&tmp, v), sz = lw_var_size(&tmp, v);
			int sec = v->space == PsConst ? 2 : v->init ? 0 : 1;
			off[sec] = (off[sec] + a - 1) / a * a;
			vgrow(&c->mv, &c->cmv, c->nmv + 1, sizeof *c->mv);
			c->mv[c->nmv++] = (struct MVar){ v, off[sec], sz, -1 };
			off[sec] += sz;
		}
	}
}

/* the initialiser's elements, flattened */
static void
flatten(const PtxExpr *e, const PtxExpr **out, uint32_t *n, uint32_t max)
{
	if (!e)
		return;
	if (e->kind == PeList) {
		for (uint32_t k = 0; k < e->nsub; k++)
			flatten(e->sub[k], out, n, max);
	} else if (*n < max) {
		out[(*n)++] = e;
	}
}

static int
emit_init(const Ptx *p, LwBuf *b, const PtxVar *v, uint32_t size, Diag *d)
{
	Lw tmp = { .p = p };
	const char *ty = ptx_str(p, v->type);
	uint32_t esz = (uint32_t)(lw_type_bits(ty) + 7) / 8, n = 0, done = 0;
	const PtxExpr **el = xmalloc((size + 1) * sizeof *el);

	(void)tmp;
	flatten(v->init, el, &n, size + 1);
	for (uint32_t k = 0; k < n && done + esz <= size; k++, done += esz) {
		const PtxExpr *e = el[k];
		uint64_t bits = 0;
		if (e->kind == PeSym || e->kind == PeGeneric) {
			if (esz != 8) {
				error_at(d, e->loc, "a symbol's address in a %u-byte element", esz);
				free(el);
				return -1;
			}
			lw_buf_printf(b, "\t.dword\t%s\n", ptx_str(p, e->atom));
			continue;
		}
		if (e->kind == PeInt || e->kind == PeF32 || e->kind == PeF64) {
			bits = (uint64_t)e->ival;
			if (e->kind == PeF32 && esz == 8) {
				union { uint32_t u; float f; } a = { (uint32_t)bits };
				union { double d; uint64_t u; } c = { .d = a.f };
				bits = c.u;
			} else if (e->kind == PeF64 && esz == 4) {
				union { uint64_t u; double d; } a = { bits };
				union { float f; uint32_t u; } c = { .f = (float)a.d };
				bits = c.u;
			}
		} else if (e->kind == PeFDec) {
			if (esz == 8) {
				union { double d; uint64_t u; } c = { .d = e->fval };
				bits = c.u;
			} else {
				union { float f; uint32_t u; } c = { .f = (float)e->fval };
				bits = c.u;
			}
		} else {
			error_at(d, e->loc, "this initialiser is not supported yet");
			free(el);
			return -1;
		}
		lw_buf_printf(b, "\t.byte\t");
		for (uint32_t j = 0; j < esz; j++)
			lw_buf_printf(b, "%s0x%02x", j ? ", " : "", (unsigned)(bits >> (8 * j)) & 0xff);
		lw_buf_printf(b, "\n");
	}
	if (done < size)
		lw_buf_printf(b, "\t.zero\t\t%u\n", (unsigned)(size - done));
	free(el);
	return 0;
}

/* .nv.constant3, .nv.constant4 (the addresses of the .global variables named by code),
 * .nv.global.init, .nv.global */
int
lw_emit_mvars(const Ptx *p, const LwCount *c, LwBuf *b, Diag *d)
{
	static const char *const secname[3] = { ".nv.global.init", ".nv.global", ".nv.constant3" };
	static const char *const secflags[3] = { "\"aw\",@progbits", "\"aw\",@nobits", "\"a\",@progbits" };

	for (int sec = 2; sec >= 0; sec--) {
		uint32_t at = 0;
		int any = 0;
		for (uint32_t k = 0; k < c->nmv; k++) {
			const struct MVar *m = &c->mv[k];
			int ms = m->v->space == PsConst ? 2 : m->v->init ? 0 : 1;
			if (ms != sec)
				continue;
			if (!any)
				lw_buf_printf(b, "\n\n//--------------------- %s --------------------------\n"
				           "\t.section\t%s,%s\n\t.align\t8\n%s:\n", secname[sec], secname[sec],
				           secflags[sec], secname[sec]);
			any = 1;
			if (m->off > at)
				lw_buf_printf(b, "\t.zero\t\t%u\n", (unsigned)(m->off - at));
			const char *nm = ptx_str(p, m->v->name);
			lw_buf_printf(b, "\t.type\t\t%s,@object\n\t.size\t\t%s,(.L_g%u - %s)\n%s:\n", nm, nm,
			           (unsigned)k, nm, nm);
			if (sec == 1 || !m->v->init)
				lw_buf_printf(b, "\t.zero\t\t%u\n", (unsigned)m->size);
			else if (emit_init(p, b, m->v, m->size, d) < 0)
				return -1;
			lw_buf_printf(b, ".L_g%u:\n", (unsigned)k);
			at = m->off + m->size;
		}
		if (sec == 2 && c->nc4) {
			lw_buf_printf(b, "\n\n//--------------------- .nv.constant4 --------------------------\n"
			           "\t.section\t.nv.constant4,\"a\",@progbits\n\t.align\t8\n.nv.constant4:\n");
			for (uint32_t slot = 0; slot < c->nc4; slot++) {
				for (uint32_t k = 0; k < c->nmv; k++)
					if (c->mv[k].c4 == (int)slot)
						lw_buf_printf(b, "\t.dword\t%s\n", ptx_str(p, c->mv[k].v->name));
				for (unsigned s = 0; s < LW_NSYS; s++)
					if (c->sys_c4[s] == slot + 1)
						lw_buf_printf(b, "\t.dword\t%s\n", lw_sys_name(s));
			}
		}
	}
	for (unsigned s = 0, head = 0; s < LW_NSYS; s++)
		if (c->sys_c4[s]) {  /* a system routine: a symbol without a section, as nvcc lists it */
			if (!head++)
				lw_buf_printf(b, "\n\n//--------------------- SYMBOLS --------------------------\n\n");
			lw_buf_printf(b, "\t.type\t\t%s,@function\n", lw_sys_name(s));
		}
	return 0;
}
