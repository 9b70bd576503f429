/* ptxcall.c: the .param space and device functions in PTX lowering (ptxlow.h).
 *
 * A kernel's parameters are in constant bank 0 (ld.param -> MOV from c[0x0][base + offset]).
 * Every other .param variable — the `param0`/`retval0` of a call sequence, a device function's
 * parameters and `func_retval0` — is a *slot*: a virtual register tuple of its size in words
 * (lw_newvreg: %$s<N>, a power of two of registers), so st.param and ld.param are moves. `call` inlines the
 * callee: its parameters and return values alias the caller's argument and result slots, its
 * body is lowered in place with its labels renamed per instance ($i<N>), and its `ret` branches
 * to the end of that instance. Recursion and indirect calls are located errors. Device functions
 * therefore need no calling convention in the output (ptxas also inlines most of them; one it
 * keeps out of line would differ from ours in code size, not in results).
 */
#include "ptxlow.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MaxInline = 16 };       /* nesting of inlined calls */

typedef struct Slot2 {
	const PtxVar *var; /* the .param variable */
	uint32_t name;     /* atom of the tuple "%$s3" (with the %) */
	uint32_t words;    /* 32-bit words */
	int alias;         /* >= 0: this variable stands for slot `alias` (a callee's parameter) */
} Slot2;

struct LwCall {
	Slot2 *slot;
	uint32_t nslot, cslot;
	uint32_t nname;    /* slots named */
	const PtxFunc *stack[MaxInline]; /* functions being inlined, outermost first */
	uint32_t depth;
	uint32_t ninl;     /* instances made */
	char endlabel[MaxInline][48];
};

static struct LwCall *
cstate(Lw *w)
{
	if (!w->call)
		w->call = xmalloc(sizeof *w->call);
	return w->call;
}

void
lw_call_free(Lw *w)
{
	if (w->call) {
		free(w->call->slot);
		free(w->call);
		w->call = NULL;
	}
}

static uint32_t
var_words(const Lw *w, const PtxVar *v)
{
	uint32_t n = (uint32_t)(lw_type_bits(ptx_str(w->p, v->type)) + 7) / 8;

	if (v->vec)
		n *= v->vec;
	for (unsigned k = 0; k < v->ndim; k++)
		n *= v->dim[k] > 0 ? (uint32_t)v->dim[k] : 1;
	return (n + 3) / 4;
}

/* the slot of .param variable v (made on first use), following aliases */
static Slot2 *
slot_of(Lw *w, const PtxVar *v)
{
	struct LwCall *c = cstate(w);
	uint32_t k;

	for (k = 0; k < c->nslot; k++)
		if (c->slot[k].var == v)
			break;
	if (k == c->nslot) {
		vgrow(&c->slot, &c->cslot, c->nslot + 1, sizeof *c->slot);
		c->slot[k] = (Slot2){ v, 0, var_words(w, v), -1 };
		c->nslot++;
	}
	while (c->slot[k].alias >= 0)
		k = (uint32_t)c->slot[k].alias;
	if (!c->slot[k].name) {
		/* a virtual register tuple of the next power of two of words */
		uint32_t n = c->slot[k].words, sz = 1;
		while (sz < n)
			sz *= 2;
		if (sz > 8) {
			lw_error(w, ".param variable of %u bytes (at most 32)", n * 4);
			sz = 8;
		}
		const char *t = lw_newvreg(w, (int)sz);
		c->slot[k].name = atomz(w->p->atoms, t);
	}
	return &c->slot[k];
}

static void
alias(Lw *w, const PtxVar *callee, const PtxVar *caller)
{
	struct LwCall *c = cstate(w);
	Slot2 *target = slot_of(w, caller);
	uint32_t t = (uint32_t)(target - c->slot), k;

	slot_of(w, callee);
	for (k = 0; k < c->nslot; k++)
		if (c->slot[k].var == callee)
			break;
	if (k != t)
		c->slot[k].alias = (int)t;
}

/* the .param variable and byte offset an address operand [name+off] names; NULL if none */
static const PtxVar *
param_var(Lw *w, int k, int64_t *off)
{
	const PtxOpnd *a = lw_opnd(w, k);

	if (!a || a->kind != PoAddr || !a->nsub || a->sub[0].kind != PoName ||
	    a->sub[0].what != PwVar || !a->sub[0].decl || a->sub[0].decl->space != PsParam) {
		lw_error_opnd(w, k, "a .param access takes [parameter] or [parameter+offset]");
		return NULL;
	}
	*off = a->hasoff ? a->ival : 0;
	return a->sub[0].decl;
}

/* is v one of the kernel's own parameters (in constant bank 0)? */
static int
kernel_param(const Lw *w, const PtxVar *v)
{
	if (w->call && w->call->depth)
		return 0;
	for (uint32_t k = 0; k < w->fn->nparam; k++)
		if (&w->fn->param[k] == v)
			return w->fn->entry;
	return 0;
}

/* word `word` of slot s as a register name */
static const char *
slot_word(Lw *w, const Slot2 *s, uint32_t word)
{
	return lw_elem(w, ptx_str(w->p, s->name), (int)word);
}

int
lw_ld_param(Lw *w)
{
	const char *t = lw_type(w);
	int bits = lw_type_bits(t), n = lw_veclen(w, 0);
	int64_t off;
	const PtxVar *v = param_var(w, 1, &off);
	uint32_t esz = (uint32_t)(bits >= 8 ? bits / 8 : 1);

	if (!v)
		return -1;
	if (kernel_param(w, v)) {
		int po = lw_param_offset(w, v->name);
		if (po < 0)
			return lw_error_opnd(w, 1, "'%s' is not a parameter of this kernel",
			                     ptx_str(w->p, v->name));
		for (int e = 0; e < n; e++) {
			const char *d = lw_vec(w, 0, e);
			uint32_t o = w->param_base + (uint32_t)po + (uint32_t)off + (uint32_t)e * esz;
			if (!strcmp(d, "RZ"))
				continue;
			if (bits == 64) {
				lw_emit(w, "MOV %s, c[0x0][0x%x]", d, o);
				lw_emit(w, "MOV %s, c[0x0][0x%x]", lw_elem(w, d, 1), o + 4);
			} else {
				lw_emit(w, "MOV %s, c[0x0][0x%x]", d, o & ~3u);
				if (bits < 32 && (o & 3))
					lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x%x, %s", d, (o & 3) * 8, d);
				if (bits < 32 && lw_type_bits(ptx_str(w->p, lw_regof(w, 0) ?
				                 lw_regof(w, 0)->decl->type : 0)) == 32) {
					/* an 8/16-bit value into a 32-bit register: extended */
					if (lw_type_signed(t))
						lw_emit(w, "SGXT %s, %s, 0x%x", d, d, bits);
					else
						lw_emit(w, "LOP3.LUT %s, %s, 0x%x, RZ, 0xc0, !PT", d, d, (1u << bits) - 1);
				}
			}
		}
		return 0;
	}
	Slot2 *s = slot_of(w, v);
	for (int e = 0; e < n; e++) {
		const char *d = lw_vec(w, 0, e);
		uint32_t o = (uint32_t)off + (uint32_t)e * esz;
		if (!strcmp(d, "RZ"))
			continue;
		if (o + esz > s->words * 4)
			return lw_error_opnd(w, 1, "past the end of '%s'", ptx_str(w->p, v->name));
		if (bits == 64) {
			if (o & 3)
				return lw_error_opnd(w, 1, "a misaligned 64-bit .param access");
			lw_emit(w, "MOV %s, %s", d, slot_word(w, s, o / 4));
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), slot_word(w, s, o / 4 + 1));
		} else if (bits == 32) {
			if (o & 3)
				return lw_error_opnd(w, 1, "a misaligned 32-bit .param access");
			lw_emit(w, "MOV %s, %s", d, slot_word(w, s, o / 4));
		} else {
			lw_emit(w, "SHF.R.U32.HI %s, RZ, 0x%x, %s", d, (o & 3) * 8, slot_word(w, s, o / 4));
			if (lw_type_signed(t))
				lw_emit(w, "SGXT %s, %s, 0x%x", d, d, bits);
			else
				lw_emit(w, "LOP3.LUT %s, %s, 0x%x, RZ, 0xc0, !PT", d, d, (1u << bits) - 1);
		}
	}
	return 0;
}

int
lw_st_param(Lw *w)
{
	const char *t = lw_type(w);
	int bits = lw_type_bits(t), n = lw_veclen(w, 1);
	int64_t off;
	const PtxVar *v = param_var(w, 0, &off);
	uint32_t esz = (uint32_t)(bits >= 8 ? bits / 8 : 1);

	if (!v)
		return -1;
	if (kernel_param(w, v))
		return lw_error_opnd(w, 0, "a store to a kernel parameter");
	Slot2 *s = slot_of(w, v);
	for (int e = 0; e < n; e++) {
		uint32_t o = (uint32_t)off + (uint32_t)e * esz;
		const char *a;
		if (o + esz > s->words * 4)
			return lw_error_opnd(w, 0, "past the end of '%s'", ptx_str(w->p, v->name));
		if (lw_opnd(w, 1)->kind == PoVec)
			a = lw_vec(w, 1, e);
		else if (bits == 64)
			a = NULL;
		else
			a = lw_isrc(w, 1);
		if (bits == 64) {
			if (o & 3)
				return lw_error_opnd(w, 0, "a misaligned 64-bit .param access");
			lw_emit(w, "MOV %s, %s", slot_word(w, s, o / 4), a ? a : lw_lo(w, 1));
			lw_emit(w, "MOV %s, %s", slot_word(w, s, o / 4 + 1), a ? lw_elem(w, a, 1) : lw_hi(w, 1));
		} else if (bits == 32) {
			if (o & 3)
				return lw_error_opnd(w, 0, "a misaligned 32-bit .param access");
			lw_emit(w, "MOV %s, %s", slot_word(w, s, o / 4), a);
		} else {
			/* into its bytes of the word: BFI-like with a mask */
			const char *word = slot_word(w, s, o / 4), *x = lw_tmp(w);
			uint32_t sh = (o & 3) * 8, mask = ((1u << bits) - 1) << sh;
			lw_emit(w, "IMAD.SHL.U32 %s, %s, 0x%x, RZ", x, a, 1u << sh);
			lw_emit(w, "LOP3.LUT %s, %s, 0x%x, %s, 0xb8, !PT", word, x, mask, word);
		}
	}
	return 0;
}

const char *
lw_param_word(Lw *w, const PtxVar *v, uint32_t m)
{
	return slot_word(w, slot_of(w, v), m);
}

/* call[.uni] (ret, ...), func, (arg, ...): the callee's body in place */
int
lw_call(Lw *w)
{
	struct LwCall *c = cstate(w);
	const PtxOpnd *o;
	const PtxFunc *callee = NULL;
	const PtxOpnd *rets = NULL, *args = NULL;
	int k = 0;

	if (w->guard[0])
		return lw_error(w, "a predicated call");
	o = lw_opnd(w, 0);
	if (o && o->kind == PoList) {
		rets = o;
		k = 1;
	}
	o = lw_opnd(w, k);
	if (!o || o->kind != PoName || o->what != PwFunc)
		return lw_error_opnd(w, k, "an indirect call (through a register)");
	const PtxFunc *decl = NULL;
	for (uint32_t f = 0; f < w->p->nfn; f++)
		if (w->p->fn[f]->name == o->atom)
			*(w->p->fn[f]->body ? &callee : &decl) = w->p->fn[f];
	if (lw_opnd(w, k + 1) && lw_opnd(w, k + 1)->kind == PoList)
		args = lw_opnd(w, k + 1);
	if (!callee && decl && !lw_opnd(w, k + 2))
		return lw_syscall(w, decl, rets, args, k); /* a system routine: vprintf, __assertfail */
	if (!callee)
		return lw_error_opnd(w, k, "a call of '%s', which has no body in this module",
		                     ptx_str(w->p, o->atom));
	if (lw_opnd(w, k + 2))
		return lw_error_opnd(w, k + 2, "a call with a prototype (indirect)");
	for (uint32_t d = 0; d < c->depth; d++)
		if (c->stack[d] == callee)
			return lw_error(w, "a recursive call of '%s'", ptx_str(w->p, callee->name));
	if (c->depth == MaxInline)
		return lw_error(w, "calls nested more than %d deep", MaxInline);
	if ((args ? args->nsub : 0) != callee->nparam || (rets ? rets->nsub : 0) > callee->nret)
		return lw_error(w, "'%s' takes %u parameters and %u results", ptx_str(w->p, callee->name),
		                callee->nparam, callee->nret);
	for (uint32_t a = 0; a < callee->nparam; a++) {
		const PtxOpnd *x = &args->sub[a];
		if (x->kind != PoName || x->what != PwVar || !x->decl || x->decl->space != PsParam)
			return lw_error_opnd(w, k + 1, "an argument that is not a .param variable");
		alias(w, &callee->param[a], x->decl);
	}
	for (uint32_t r = 0; rets && r < rets->nsub; r++) {
		const PtxOpnd *x = &rets->sub[r];
		if (x->kind != PoName || x->what != PwVar || !x->decl || x->decl->space != PsParam)
			return lw_error_opnd(w, 0, "a result that is not a .param variable");
		alias(w, &callee->ret[r], x->decl);
	}
	uint32_t outer = w->inl, inst = ++c->ninl;
	c->stack[c->depth] = callee;
	snprintf(c->endlabel[c->depth], sizeof c->endlabel[0], ".L_ret%" PRIu32 "_%" PRIu32, inst,
	         c->depth);
	c->depth++;
	w->inl = inst;
	int rc = lw_lower_stmts(w, callee);
	w->inl = outer;
	c->depth--;
	lw_label_here(w, c->endlabel[c->depth]);
	return rc;
}

/* ret inside an inlined body: to the end of that instance; in a kernel: EXIT */
int
lw_ret(Lw *w)
{
	struct LwCall *c = w->call;

	if (c && c->depth) {
		lw_emit(w, "BRA `(%s)", c->endlabel[c->depth - 1]);
		return 0;
	}
	if (!w->fn->entry)
		return lw_error(w, "ret in a device function that is not called");
	lw_label_here(w, lw_exit_label(w));
	lw_emit(w, "EXIT");
	return 0;
}
