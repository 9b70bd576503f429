/* layout.c: relayout before emission. After a pass edited a function (ir/edit.c), its
 * instructions are laid out again from the blocks (fn_relayout: instruction i at byte 16*i,
 * the sm_7x+ instruction size), and everything that holds an instruction address follows:
 *   - branch targets: the address of every OLabel operand (cuobjdump listings print it);
 *   - .nv.info attributes that carry instruction offsets (EIATTR_EXIT_INSTR_OFFSETS,
 *     EIATTR_COOP_GROUP_INSTR_OFFSETS, EIATTR_INT_WARP_WIDE_INSTR_OFFSETS,
 *     EIATTR_MBARRIER_INSTR_OFFSETS, EIATTR_INDIRECT_BRANCH_TARGETS, ...): nvdisasm writes
 *     them as labels, `.word .L_x_3@srel`; a label that relayout moved to another instruction
 *     (fn_renames) is replaced by the new label of the instruction it named. In
 *     EIATTR_INDIRECT_BRANCH_TARGETS only the first offset is an instruction (the branch); the
 *     targets are block entries and follow the label;
 *   - Fn.info.exit_off, from the relocated EIATTR_EXIT_INSTR_OFFSETS;
 *   - `.size fn,N` with a number (nvdisasm writes `(.L_end - fn)`, which follows by itself).
 * A function that was not edited is left exactly as read. Debug sections (.debug_frame,
 * .debug_line) are kept as read: their byte ranges describe the code before the edit.
 */
#include "backend.h"

#include <stdlib.h>
#include <string.h>

/* the labels of f and the instruction each names, sorted by atom (earlier in label_index's
 * order of precedence first): one lookup per label operand is then a binary search, not a walk
 * over the function (a lowered PTX kernel has thousands of branches) */
typedef struct LabIdx { uint32_t atom, seq; int64_t at; } LabIdx;

typedef struct Labels { LabIdx *v; uint32_t n; } Labels;

static int
lab_cmp(const void *a, const void *b)
{
	const LabIdx *x = a, *y = b;

	if (x->atom != y->atom)
		return x->atom < y->atom ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
lab_add(Labels *L, uint32_t atom, int64_t at)
{
	L->v[L->n] = (LabIdx){ atom, L->n, at };
	L->n++;
}

static void
labels_build(const Fn *f, Labels *L)
{
	uint32_t n = 2 + f->nins + f->nxlabel + (f->text ? f->text->nitem : 0);

	L->v = xmalloc((n + 1) * sizeof *L->v);
	L->n = 0;
	if (f->endlabel)
		lab_add(L, f->endlabel, f->nins);
	for (uint32_t q = 0; q < f->nins; q++)
		if (f->ins[q].label)
			lab_add(L, f->ins[q].label, q);
	for (uint32_t q = 0; q < f->nxlabel; q++)
		lab_add(L, f->xlabel[2 * q + 1], f->xlabel[2 * q]);
	for (uint32_t q = 0; f->text && q < f->text->nitem; q++) {
		const Item *it = &f->text->item[q];
		if (it->kind == ILabel)
			lab_add(L, it->name, it->off > 0 ? it->off : 0);
	}
	lab_add(L, f->name, 0);
	qsort(L->v, L->n, sizeof *L->v, lab_cmp);
}

/* instruction index of label a of f: nins for the end label, -1 if f does not define it */
static int64_t
label_index(const Labels *L, uint32_t a)
{
	uint32_t lo = 0, hi = L->n;

	if (!a)
		return -1;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (L->v[mid].atom < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < L->n && L->v[lo].atom == a ? L->v[lo].at : -1;
}

/* the label of an instruction offset `.L@srel` in e, or NULL */
static Expr *
srel_label(const Module *m, Expr *e)
{
	if (!e)
		return NULL;
	if (e->kind == EFunc && e->a && e->a->kind == ESym && strcmp(mstr(m, e->atom), "srel") == 0)
		return e->a;
	if (e->kind == ESub || e->kind == EAdd) {
		Expr *x = srel_label(m, e->a);
		return x ? x : srel_label(m, e->b);
	}
	return NULL;
}

/* rename the instruction offsets of one .nv.info section; the exit offsets of f to exits */
static int
relocate_info(Fn *f, const Labels *L, Section *s, Diag *d)
{
	Module *m = f->mod;
	const uint32_t *ren;
	uint32_t nren = fn_renames(f, &ren), nth = 0, nexit = 0;
	const char *attr = "";
	int own = strcmp(mstr(m, s->name) + (strncmp(mstr(m, s->name), ".nv.info.", 9) ? 0 : 9),
	                 mstr(m, f->name)) == 0;
	int rc = 0;

	for (uint32_t k = 0; k < s->nitem; k++) {
		Item *it = &s->item[k];
		if (it->kind == INvinfo) {
			attr = mstr(m, it->name);
			nth = 0;
			continue;
		}
		for (uint32_t j = 0; it->kind == IDir && j < it->narg; j++) {
			Expr *l = srel_label(m, it->arg[j]);
			if (!l)
				continue;
			if (strcmp(attr, "EIATTR_INDIRECT_BRANCH_TARGETS") != 0 || nth == 0)
				for (uint32_t r = 0; r < nren; r++)
					if (ren[2 * r] == l->atom) {
						if (!ren[2 * r + 1]) {
							error_at(d, it->loc, "%s names an instruction of '%s' that was "
							         "deleted (%s)", attr, mstr(m, f->name), mstr(m, l->atom));
							rc = -1;
							break;
						}
						l->atom = ren[2 * r + 1];
					}
			nth++;
			if (own && strcmp(attr, "EIATTR_EXIT_INSTR_OFFSETS") == 0 && nexit < f->info.nexit) {
				int64_t at = label_index(L, l->atom);
				if (at >= 0)
					f->info.exit_off[nexit] = (uint32_t)(16 * at);
				nexit++;
			}
		}
	}
	return rc;
}

int
layout_fn(Fn *f, Diag *d)
{
	Module *m = f->mod;
	Labels L;
	int rc = 0;

	if (!fn_edited(f))
		return 0;
	fn_relayout(f);
	labels_build(f, &L);
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		for (int j = 0; j < i->nopnd; j++) {
			int64_t at;
			if (i->opnd[j].kind != OLabel || (at = label_index(&L, i->opnd[j].atom)) < 0)
				continue;
			if (i->opnd[j].atom != f->name || i->op != ORET)
				i->opnd[j].imm = 16 * at;
		}
	}
	for (uint32_t k = 0; k < m->nsec; k++) {
		Section *s = m->sec[k];
		if (s->kind == SecInfo && relocate_info(f, &L, s, d) < 0)
			rc = -1;
		for (uint32_t j = 0; j < s->nitem; j++) {
			Item *it = &s->item[j];
			if (it->kind == IDir && it->narg == 2 && strcmp(mstr(m, it->name), ".size") == 0 &&
			    it->arg[0]->kind == ESym && it->arg[0]->atom == f->name &&
			    it->arg[1]->kind == ENum)
				it->arg[1]->num = 16 * (int64_t)f->nins;
		}
	}
	free(L.v);
	return rc;
}
