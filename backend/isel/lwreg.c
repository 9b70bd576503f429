/* lwreg.c: the PTX registers of the function being lowered and their virtual registers: the map
 * from a PTX register (or an element of a %r<N> range) to its LwReg, made on first use; its SASS
 * name (the PTX name, made unique, or a colour in compact mode: lwcolour.c); the register
 * operands as SASS text; the temporaries of one instruction's selection and the virtual
 * registers that live across instructions, with their `.vreg`/`.vpred` declarations.
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- text without printf (the lowering's hottest strings: a copy and a number) ----------- */

/* s (at most cap - 1 - at bytes of it) at d + at, terminated; the new length */
static size_t
put_str(char *d, size_t cap, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (at >= cap)
		return at;
	if (n > cap - 1 - at)
		n = cap - 1 - at;
	memcpy(d + at, s, n);
	d[at + n] = 0;
	return at + n;
}

/* the decimal u at d + at, as put_str */
static size_t
put_u32(char *d, size_t cap, size_t at, uint32_t u)
{
	char t[12];
	int k = (int)sizeof t - 1;

	t[k] = 0;
	do
		t[--k] = (char)('0' + u % 10);
	while ((u /= 10) && k > 0);
	return put_str(d, cap, at, t + k);
}

/* ---- registers ---------------------------------------------------------------------------- */

static int
kind_of(const char *t)
{
	int bits;

	if (!strcmp(t, "pred"))
		return LkPred;
	bits = lw_type_bits(t);
	if (bits == 64)
		return Lk64;
	if (bits == 128)
		return Lk128;
	if (bits <= 16)
		return Lk16;
	return Lk32;
}

int
lw_vkind(const Lw *w, int k, int e)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && (o->kind == PoVec || o->kind == PoPair))
		o = e < o->nsub ? &o->sub[e] : NULL;
	else if (e)
		o = NULL;
	if (o && o->kind == PoSink)
		return -1;
	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return -2;
	return kind_of(ptx_str(w->p, o->decl->type));
}

static uint32_t
hash_ptr(const void *p, uint32_t idx)
{
	uint64_t x = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull ^ (uint64_t)idx * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

static uint32_t
hash_atom(uint32_t a)
{
	return a * 2654435761u;
}

/* a SASS name not taken yet, from `want` (the PTX name with a '%' in front); taken then */
static uint32_t
take_name(Lw *w, const char *want)
{
	struct LwPriv *v = w->priv;
	char buf[256];
	uint32_t a;
	unsigned n = 0;

	put_str(buf, 201, 0, want);
	for (;;) {
		a = atomz(w->p->atoms, buf);
		if (v->nnames * 2 + 2 > v->ncap) {
			uint32_t oc = v->ncap, *old = v->names;
			v->ncap = oc ? oc * 2 : 1024;
			v->names = xmalloc(v->ncap * sizeof *v->names);
			for (uint32_t k = 0; k < oc; k++)
				if (old[k]) {
					uint32_t h = hash_atom(old[k]) & (v->ncap - 1);
					while (v->names[h])
						h = (h + 1) & (v->ncap - 1);
					v->names[h] = old[k];
				}
			free(old);
		}
		uint32_t h = hash_atom(a) & (v->ncap - 1);
		while (v->names[h] && v->names[h] != a)
			h = (h + 1) & (v->ncap - 1);
		if (!v->names[h]) {
			v->names[h] = a;
			v->nnames++;
			return a;
		}
		put_u32(buf, sizeof buf, put_str(buf, sizeof buf, put_str(buf, 201, 0, want), "$"), ++n);
	}
}

/* the LwReg of PTX register decl[idx], made on first use */
const LwReg *
lw_reg_get(Lw *w, const PtxVar *decl, uint32_t idx)
{
	struct LwPriv *v = w->priv;
	uint32_t h;

	if (v->nreg * 2 + 2 > v->hcap) {
		uint32_t oc = v->hcap, *old = v->hash;
		v->hcap = oc ? oc * 2 : 1024;
		v->hash = xmalloc(v->hcap * sizeof *v->hash);
		for (uint32_t k = 0; k < oc; k++)
			if (old[k]) {
				const LwReg *r = &v->reg[old[k] - 1];
				h = hash_ptr(r->decl, r->idx) & (v->hcap - 1);
				while (v->hash[h])
					h = (h + 1) & (v->hcap - 1);
				v->hash[h] = old[k];
			}
		free(old);
	}
	h = hash_ptr(decl, idx) & (v->hcap - 1);
	while (v->hash[h]) {
		const LwReg *r = &v->reg[v->hash[h] - 1];
		if (r->decl == decl && r->idx == idx)
			return r;
		h = (h + 1) & (v->hcap - 1);
	}
	vgrow(&v->reg, &v->creg, v->nreg + 1, sizeof *v->reg);
	LwReg *r = &v->reg[v->nreg++];
	r->decl = decl;
	r->idx = idx;
	r->kind = (uint8_t)kind_of(ptx_str(w->p, decl->type));
	r->name = 0;       /* name_regs or colour_regs names it */
	v->hash[h] = v->nreg;
	return r;
}

/* the virtual register name of r from its PTX name: `%r12`, `%x`; characters SASS names do
 * not take become '_', and a name taken by another scope gets a `$N` suffix */
void
lw_name_reg(Lw *w, LwReg *r)
{
	char want[256];
	const char *dn = ptx_str(w->p, r->decl->name);
	size_t at = put_str(want, sizeof want, 0, dn[0] == '%' ? "" : "%");

	at = put_str(want, sizeof want, at, dn);
	if (r->decl->range)
		put_u32(want, sizeof want, at, r->idx);
	for (char *c = want + 1; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '$'))
			*c = '_';
	if (want[1] >= '0' && want[1] <= '9') {
		memmove(want + 2, want + 1, strlen(want));
		want[1] = '_';
	}
	r->name = take_name(w, want);
}

/* the register a PoName operand names, NULL if it is not a register */
const LwReg *
lw_opnd_reg(Lw *w, const PtxOpnd *o)
{
	uint32_t idx = 0;

	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return NULL;
	if (o->decl->range) {
		const char *s = ptx_str(w->p, o->atom) + atomlen(w->p->atoms, o->decl->name);
		while (*s >= '0' && *s <= '9')   /* strtoul's value for the digits a range name has */
			idx = idx * 10 + (uint32_t)(*s++ - '0');
	}
	return lw_reg_get(w, o->decl, idx);
}

const LwReg *
lw_regof(Lw *w, int k)
{
	return lw_opnd_reg(w, lw_opnd(w, k));
}

const char *
lw_reg_text(Lw *w, const LwReg *rc)
{
	char *s = lw_ring(w);
	LwReg *r = (LwReg *)rc;

	if (!r->name) {            /* a register the scan did not see */
		if (w->priv->compact)
			lw_colour_one(w, r);
		else
			lw_name_reg(w, r);
	}
	put_str(s, LwStr, 0, ptx_str(w->p, r->name));
	return s;
}

static const char *
opnd_regtext(Lw *w, const PtxOpnd *o, int k)
{
	const LwReg *r;

	if (o && o->kind == PoSink)
		return "RZ";
	if (!(r = lw_opnd_reg(w, o))) {
		lw_error_opnd(w, k, "operand %d must be a register here", k);
		return "RZ";
	}
	return lw_reg_text(w, r);
}

const char *
lw_reg(Lw *w, int k)
{
	return opnd_regtext(w, lw_opnd(w, k), k);
}

const char *
lw_elem(Lw *w, const char *reg, int k)
{
	char *s = lw_ring(w);

	size_t at = put_str(s, LwStr, 0, reg);

	if (k < 0 && strcmp(reg, "RZ"))
		snprintf(s, LwStr, "%s[%d]", reg, k);
	else if (k > 0 && strcmp(reg, "RZ"))
		put_str(s, LwStr, put_u32(s, LwStr, put_str(s, LwStr, at, "["), (uint32_t)k), "]");
	return s;
}

const char *
lw_vec(Lw *w, int k, int e)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && (o->kind == PoVec || o->kind == PoPair)) {
		if (e >= o->nsub) {
			lw_error_opnd(w, k, "vector element %d missing", e);
			return "RZ";
		}
		return opnd_regtext(w, &o->sub[e], k);
	}
	if (e) {
		lw_error_opnd(w, k, "operand %d must be a vector here", k);
		return "RZ";
	}
	return lw_reg(w, k);
}

/* ---- temporaries -------------------------------------------------------------------------- */

/* one name of a `.vreg`/`.vpred` list, a new line every ~90 columns */
void
lw_decl_item(LwBuf *b, const char *dir, const char *name, int size)
{
	size_t col = b->len;

	while (col > 0 && b->s[col - 1] != '\n')
		col--;
	col = b->len - col;
	if (!col || col > 90)
		lw_buf_printf(b, "%s\t%s\t\t", col ? "\n" : "", dir);
	else
		lw_buf_add(b, ",", 1);
	if (size > 1)
		lw_buf_printf(b, "%s[%d]", name, size);
	else
		lw_buf_printf(b, "%s", name);
}

static const char *
tmp_make(Lw *w, const char *pfx, int size, int pred)
{
	struct LwPriv *v = w->priv;
	char *s = lw_ring(w);
	int kind = pred ? 3 : size == 1 ? 0 : size == 2 ? 1 : 2;
	uint32_t n;
	LwBuf *b = pred ? &v->tmppred : &v->tmpdecl;

	if (v->compact) {          /* reused by every instruction: declared once */
		n = v->tmpn[kind]++;
		if (n < v->tmpdecl_n[kind]) {
			snprintf(s, LwStr, "%%$%s%" PRIu32, pfx, n);
			return s;
		}
		v->tmpdecl_n[kind]++;
	} else {
		n = w->ntmp++;
	}
	snprintf(s, LwStr, "%%$%s%" PRIu32, pfx, n);
	lw_decl_item(b, pred ? ".vpred" : ".vreg", s, size);
	return s;
}

const char *
lw_newvreg(Lw *w, int size)
{
	struct LwPriv *v = w->priv;
	char *s = lw_ring(w);

	snprintf(s, LwStr, "%%$s%" PRIu32, w->nvreg++);
	lw_decl_item(&v->tmpdecl, ".vreg", s, size);
	return s;
}

const char *
lw_carry(Lw *w)
{
	struct LwPriv *v = w->priv;

	if (!v->cc) {
		v->cc = take_name(w, "%$cc");
		lw_decl_item(&v->tmppred, ".vpred", ptx_str(w->p, v->cc), 1);
	}
	return ptx_str(w->p, v->cc);
}

const char *lw_tmp(Lw *w) { return tmp_make(w, "t", 1, 0); }
const char *lw_tmp64(Lw *w) { return tmp_make(w, "w", 2, 0); }
const char *lw_tmp128(Lw *w) { return tmp_make(w, "x", 4, 0); }
const char *lw_ptmp(Lw *w) { return tmp_make(w, "q", 1, 1); }

int
lw_kind_size(int kind)
{
	return kind == Lk64 ? 2 : kind == Lk128 ? 4 : 1;
}
