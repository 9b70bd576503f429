/* lwcolour.c: naming the function's registers (plan_regs): by their PTX names, or, for a function
 * too large for the virtual numbering, by colour: an interval colouring of the PTX registers in
 * statement order, the intervals widened around loops, one virtual register per colour.
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- register compaction -------------------------------------------------------------------
 * The IR numbers virtual registers RegVirt..RegVirtEnd (3840 numbers): a function naming more
 * PTX registers than CompactUnits is lowered with one virtual register per *colour* of an
 * interval colouring of its PTX registers in statement order (loops widen the intervals of the
 * registers live around them), and temporaries shared by all instructions (each lives within
 * one instruction's selection). The allocator then works on fewer, longer-lived names.
 */
enum { CompactUnits = 2400 };

typedef struct Occ {
	uint32_t first, last; /* statement positions of the first and last mention */
	uint32_t def, use;    /* first definition and first use, UINT32_MAX none */
} Occ;

static int
colour_kind(int kind)
{
	return kind == Lk16 ? Lk32 : kind;
}

const char *
lw_colour_name(Lw *w, int kind, uint32_t c)
{
	char *s = lw_ring(w), dig[10];
	int n = 0, k = 2;

	/* `%v12` as "%%%s%" PRIu32 would print it, without snprintf (once per register) */
	s[0] = '%';
	s[1] = kind == Lk128 ? 'x' : kind == Lk64 ? 'd' : kind == LkPred ? 'q' : 'v';
	do
		dig[n++] = (char)('0' + c % 10);
	while ((c /= 10) != 0);
	while (n)
		s[k++] = dig[--n];
	s[k] = 0;
	return s;
}

static void
scan_opnd(Lw *w, const PtxOpnd *o, uint32_t pos, int def, Occ **occ, uint32_t *cocc)
{
	const LwReg *r;

	if (o->kind == PoName && o->what == PwReg && o->decl && (r = lw_opnd_reg(w, o))) {
		uint32_t k = (uint32_t)(r - w->priv->reg);
		if (k >= *cocc) {
			uint32_t old = *cocc;
			vgrow(occ, cocc, k + 1, sizeof **occ);
			for (uint32_t j = old; j < *cocc; j++)
				(*occ)[j] = (Occ){ UINT32_MAX, 0, UINT32_MAX, UINT32_MAX };
		}
		Occ *c = &(*occ)[k];
		if (c->first == UINT32_MAX)
			c->first = pos;
		c->last = pos;
		if (def && c->def == UINT32_MAX)
			c->def = pos;
		if (!def && c->use == UINT32_MAX)
			c->use = pos;
	}
	for (unsigned k = 0; k < o->nsub; k++)
		scan_opnd(w, &o->sub[k], pos, def && o->kind != PoAddr, occ, cocc);
}

/* every register of the function made (first-use order) with its occurrences; *nunits the R
 * registers they need */
static Occ *
scan_regs(Lw *w, uint32_t *nunits, uint32_t *npred)
{
	Occ *occ = NULL;
	uint32_t cocc = 0;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		const PtxIns *i = st->ins;
		if (i->guard && i->gdecl) {
			PtxOpnd g = {0};
			g.kind = PoName;
			g.what = PwReg;
			g.decl = i->gdecl;
			g.atom = i->gpred;
			scan_opnd(w, &g, s, 0, &occ, &cocc);
		}
		int wf = ptx_op_writes_first(i->row);
		for (unsigned k = 0; k < i->nopnd; k++)
			scan_opnd(w, &i->opnd[k], s, k == 0 && wf, &occ, &cocc);
	}
	*nunits = *npred = 0;
	for (uint32_t k = 0; k < w->priv->nreg; k++) {
		if (w->priv->reg[k].kind == LkPred)
			(*npred)++;
		else
			*nunits += (uint32_t)lw_kind_size(w->priv->reg[k].kind);
	}
	return occ;
}

/* (label atom, position) pairs in the order of atom, then position */
static int
cmp_lpos(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* widen the intervals of the registers live around each loop (a backward branch) */
static void
widen_loops(Lw *w, Occ *occ, uint32_t nocc)
{
	uint32_t *lpos = NULL, nl = 0, cl = 0;   /* (label atom, position) pairs */
	uint32_t *edge = NULL, ne = 0, ce = 0;   /* (head, branch) pairs */

	for (uint32_t s = 0; s < w->fn->nst; s++)
		if (w->fn->st[s].kind == PsLabel) {
			vgrow(&lpos, &cl, 2 * nl + 2, sizeof *lpos);
			lpos[2 * nl] = w->fn->st[s].atom;
			lpos[2 * nl++ + 1] = s;
		}
	/* a label operand's definitions found by binary search (in statement order, as a scan
	 * of the labels would find them) */
	if (nl)
		qsort(lpos, nl, 2 * sizeof *lpos, cmp_lpos);
	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		for (unsigned k = 0; k < st->ins->nopnd; k++) {
			const PtxOpnd *o = &st->ins->opnd[k];
			uint32_t lo = 0, hi = nl;
			if (o->kind != PoName || o->what != PwLabel)
				continue;
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;
				if (lpos[2 * mid] < o->atom)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (uint32_t l = lo; l < nl && lpos[2 * l] == o->atom; l++)
				if (lpos[2 * l + 1] < s) {
					vgrow(&edge, &ce, 2 * ne + 2, sizeof *edge);
					edge[2 * ne] = lpos[2 * l + 1];
					edge[2 * ne++ + 1] = s;
				}
		}
	}
	for (int changed = 1, round = 0; changed && round < 64; round++) {
		changed = 0;
		for (uint32_t e = 0; e < ne; e++) {
			uint32_t h = edge[2 * e], b = edge[2 * e + 1];
			for (uint32_t k = 0; k < nocc; k++) {
				Occ *c = &occ[k];
				if (c->first == UINT32_MAX || c->first > b || c->last < h)
					continue;
				if (c->first >= h && c->last <= b && !(c->use != UINT32_MAX && c->use <= c->def))
					continue;   /* defined in the loop before any use: local to an iteration */
				if (c->first > h || c->last < b) {
					c->first = c->first < h ? c->first : h;
					c->last = c->last > b ? c->last : b;
					changed = 1;
				}
			}
		}
	}
	free(lpos);
	free(edge);
}

void
lw_colour_one(Lw *w, LwReg *r)
{
	int ck = colour_kind(r->kind);

	r->name = atomz(w->p->atoms, lw_colour_name(w, ck, w->priv->ncolour[ck]++));
}

/* interval colouring: by start position, each register takes a colour of its kind free since
 * before its start (the lowest), else a new one */
static void
colour_regs(Lw *w, Occ *occ, uint32_t nocc)
{
	struct LwPriv *v = w->priv;
	uint32_t n = v->nreg, *ord = xmalloc((n + 1) * sizeof *ord);
	uint32_t *end[5] = {0}, cend[5] = {0};

	for (uint32_t k = 0; k < n; k++)
		ord[k] = k;
	/* counting sort by first position */
	uint32_t nst = w->fn->nst + 1, *cnt_ = xmalloc((nst + 1) * sizeof *cnt_), *tmp = xmalloc((n + 1) * sizeof *tmp);
	memset(cnt_, 0, (nst + 1) * sizeof *cnt_);
	for (uint32_t k = 0; k < n; k++)
		cnt_[(k < nocc && occ[k].first != UINT32_MAX ? occ[k].first : w->fn->nst) + 1]++;
	for (uint32_t k = 0; k < nst; k++)
		cnt_[k + 1] += cnt_[k];
	for (uint32_t k = 0; k < n; k++)
		tmp[cnt_[k < nocc && occ[k].first != UINT32_MAX ? occ[k].first : w->fn->nst]++] = k;
	memcpy(ord, tmp, n * sizeof *ord);
	free(cnt_);
	free(tmp);
	for (uint32_t j = 0; j < n; j++) {
		LwReg *r = &v->reg[ord[j]];
		int ck = colour_kind(r->kind);
		uint32_t first = ord[j] < nocc ? occ[ord[j]].first : 0;
		uint32_t last = ord[j] < nocc ? occ[ord[j]].last : UINT32_MAX - 1;
		uint32_t c;
		if (first == UINT32_MAX)
			first = last = 0;
		for (c = 0; c < v->ncolour[ck]; c++)
			if (end[ck][c] < first)
				break;
		if (c == v->ncolour[ck]) {
			vgrow(&end[ck], &cend[ck], c + 1, sizeof *end[ck]);
			v->ncolour[ck]++;
		}
		end[ck][c] = last;
		r->name = atomz(w->p->atoms, lw_colour_name(w, ck, c));
	}
	for (int k = 0; k < 5; k++)
		free(end[k]);
	free(ord);
}

/* make every register of the function and name it: by its PTX name, or by colour when the
 * function is too large for the virtual numbering */
void
lw_plan_regs(Lw *w)
{
	uint32_t nunits, npred;
	Occ *occ = scan_regs(w, &nunits, &npred);
	uint32_t nocc = w->priv->nreg;

	w->priv->compact = nunits > CompactUnits || npred > CompactUnits;
	if (w->priv->compact) {
		widen_loops(w, occ, nocc);
		colour_regs(w, occ, nocc);
	} else {
		for (uint32_t k = 0; k < w->priv->nreg; k++)
			lw_name_reg(w, &w->priv->reg[k]);
		lw_plan_tuples(w);
	}
	free(occ);
}
