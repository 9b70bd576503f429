/* ptxlow.c: lowering a checked PTX module to SASS text with virtual registers (ptxlow.h): the
 * driver of instruction selection. Per function it lays out the variables (lwlayout.c), names
 * the registers (lwreg.c, lwcolour.c), walks the statements (labels, instructions) calling the
 * selection function of each instruction's row (ptxsel.c), and writes the listing around the
 * code: the module header, .nv.info with the attributes fibersim reads (lwinfo.c),
 * .nv.constant0.<fn>, .text.<fn> with its .vreg/.vpred declarations, .nv.shared.<fn>, and the
 * module variables (lwmvar.c). The register count is written as 0 here; the register allocator
 * sets it (backend/regalloc.c).
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static LwCount *cnt;           /* the current listing's (ptx_lower sets it) */

/* ---- statements --------------------------------------------------------------------------- */

static void
set_guard(Lw *w, const PtxIns *i)
{
	w->guard[0] = 0;
	if (!i->guard)
		return;
	const LwReg *r = NULL;
	if (i->gdecl) {
		uint32_t idx = 0;
		if (i->gdecl->range)
			idx = (uint32_t)strtoul(ptx_str(w->p, i->gpred) + atomlen(w->p->atoms, i->gdecl->name),
			                        NULL, 10);
		r = lw_reg_get(w, i->gdecl, idx);
	}
	if (!r) {
		lw_error(w, "guard predicate not declared");
		return;
	}
	snprintf(w->guard, sizeof w->guard, "@%s%s ", i->guard == 2 ? "!" : "", lw_reg_text(w, r));
}

int
lw_lower_stmts(Lw *w, const PtxFunc *fn)
{
	int rc = 0;
	const PtxFunc *outer = w->fn;
	const PtxIns *oins = w->ins;
	char oguard[sizeof w->guard];

	memcpy(oguard, w->guard, sizeof oguard);
	w->fn = fn;
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxStmt *st = &fn->st[s];
		if (st->kind == PsLabel) {
			lw_label_here(w, lw_ptxlabel(w, st->atom));
			continue;
		}
		if (st->kind != PsIns)
			continue;
		w->ins = st->ins;
		memset(w->priv->tmpn, 0, sizeof w->priv->tmpn);
		if (w->comments) {
			uint32_t line, col, n = st->ins->loc.end - st->ins->loc.start;
			src_linecol(w->p->src, st->ins->loc.start, &line, &col);
			lw_buf_printf(&w->code, "// %u: %.*s\n", line, (int)(n > 200 ? 200 : n),
			           w->p->src->text + st->ins->loc.start);
		}
		int nerr = w->d->nerr;
		if (lw_fold_skip(w, st->ins))
			continue;      /* an add folded into the addresses that use it (lwfold.c) */
		set_guard(w, st->ins);
		int wide = lw_fold_wide(w, st->ins);   /* mul.wide + add.s64: IMAD.WIDE (lwfold.c) */
		const SelRow *row = wide == 1 ? ptxsel_lookup(w) : NULL;
		if (wide == 0) {
			if (w->d->nerr > nerr)
				rc = -1;
		} else if (wide < 0) {
			rc = -1;
		} else if (!row) {
			const char *t = lw_type(w);
			lw_error(w, "no selection row for opcode '%s'%s%s%s", ptx_str(w->p, st->ins->op),
			         t[0] ? " with type ." : "", t, "");
			rc = -1;
		} else if (row->fn(w) < 0 || w->d->nerr > nerr) {
			rc = -1;
		}
		/* past the error limit nothing more is shown: a kernel with an error is refused
		 * anyway, so its lowering stops (a kernel without one goes on, to be compiled) */
		if (rc < 0 && w->d->nerr >= (w->d->maxerr ? w->d->maxerr : MaxErrors))
			break;
	}
	w->fn = outer;
	w->ins = oins;
	memcpy(w->guard, oguard, sizeof oguard);
	return rc;
}


void
lw_entry_prologue(Lw *w)
{
	if (arch_has(w->arch, ArchLdcBank0))
		lw_emit_ng(w, "LDC R1, c[0x0][0x%x]", (unsigned)C0StackTop);
	else
		lw_emit_ng(w, "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x%x]", (unsigned)C0StackTop);
	/* the frame of the .local variables below the stack top, as nvcc's prologue */
	if (w->frame_size && arch_has(w->arch, ArchViadd))
		lw_emit_ng(w, "VIADD R1, R1, 0x%x", (unsigned)-w->frame_size);
	else if (w->frame_size)
		lw_emit_ng(w, "IADD3 R1, R1, -0x%x, RZ", (unsigned)w->frame_size);
	lw_emit_ng(w, "ULDC.64 UR4, c[0x0][0x%x]", w->arch->bank0->desc);
}

/* the .vreg and .vpred lists: quads, then pairs, then single registers (no alignment holes in
 * the virtual numbering), then predicates; in compact mode one name per colour */
static void
declare_regs(Lw *w, LwBuf *b)
{
	struct LwPriv *v = w->priv;
	static const int order[] = { Lk128, Lk64, Lk32, LkPred };
	LwBuf l = {0};

	for (unsigned o = 0; o < sizeof order / sizeof order[0]; o++) {
		int kind = order[o];
		const char *dir = kind == LkPred ? ".vpred" : ".vreg";
		if (v->compact) {
			for (uint32_t c = 0; c < v->ncolour[kind]; c++)
				lw_decl_item(&l, dir, lw_colour_name(w, kind, c), lw_kind_size(kind));
			if (l.len) {
				lw_buf_printf(b, "%s\n", l.s);
				l.len = 0;
			}
			continue;
		}
		for (uint32_t k = 0; k < v->nreg; k++) {
			const LwReg *r = &v->reg[k];
			int rk = r->kind == Lk16 ? Lk32 : r->kind;
			if (rk != kind || !r->name || r->intup)
				continue;
			lw_decl_item(&l, dir, ptx_str(w->p, r->name), lw_kind_size(r->kind));
		}
		if (l.len) {
			lw_buf_printf(b, "%s\n", l.s);
			l.len = 0;
		}
	}
	if (l.len)
		lw_buf_printf(b, "%s\n", l.s);
	free(l.s);
	if (v->tmpdecl.len)
		lw_buf_printf(b, "%s\n", v->tmpdecl.s);
	if (v->tmppred.len)
		lw_buf_printf(b, "%s\n", v->tmppred.s);
}

static void
priv_free(struct LwPriv *v)
{
	free(v->reg);
	free(v->hash);
	free(v->names);
	free(v->param);
	free(v->shared);
	free(v->local);
	free(v->tmpdecl.s);
	free(v->tmppred.s);
	free(v->fold);
}

/* one function: its sections go to info (the .nv.info.<fn>, .nv.constant0) and text */
static int
lower_fn(const Ptx *p, const PtxFunc *fn, const Arch *target, int comments, int fiber, Diag *d,
         LwBuf *ginfo, LwBuf *kinfo, LwBuf *text)
{
	struct LwPriv priv = { .cnt = cnt };
	Lw w = {0};
	const char *name = ptx_str(p, fn->name);
	int rc;

	w.p = p;
	w.fn = fn;
	w.d = d;
	w.arch = arch_code(target->sm);
	w.target = target;
	w.comments = comments;
	w.fiber = fiber;
	w.param_base = w.arch->bank0->param;
	w.priv = &priv;
	w.exit0 = cnt->exit;
	lw_place_params(&w);
	lw_place_shared(&w);
	lw_place_local(&w);
	lw_plan_regs(&w);
	lw_plan_fold(&w);
	if (fn->entry)
		lw_entry_prologue(&w);
	rc = lw_lower_stmts(&w, fn);
	w.ins = NULL;
	if (rc == 0) {
		/* the end: a branch to itself stops the fetch, as nvcc writes */
		lw_buf_printf(&w.code, ".L_stop%" PRIu32 ":\n", cnt->fn);
		lw_emit_ng(&w, "BRA `(.L_stop%" PRIu32 ")", cnt->fn);
		lw_global_info(&w, ginfo, name);
		if (fn->entry) {
			lw_kernel_info(&w, kinfo, name);
			lw_buf_printf(kinfo, "\n\n//--------------------- .nv.constant0.%s --------------------------\n"
			           "\t.section\t.nv.constant0.%s,\"a\",@progbits\n\t.sectionflags\t@\"\"\n"
			           "\t.align\t4\n.nv.constant0.%s:\n\t.zero\t\t%u\n", name, name, name,
			           (unsigned)(w.param_base + priv.param_size));
		}
		lw_buf_printf(text, "\n\n//--------------------- .text.%s --------------------------\n"
		           "\t.section\t.text.%s,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=0\"\n",
		           name, name);
		declare_regs(&w, text);
		lw_fiber_header(&w, text);
		lw_buf_printf(text, "\t.align\t128\n        .global         %s\n        .type           %s,@function\n"
		           "        .size           %s,(.L_end%" PRIu32 " - %s)\n", name, name, name, cnt->fn, name);
		if (fn->entry)
			lw_buf_printf(text, "        .other          %s,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n", name);
		lw_buf_printf(text, "%s:\n.text.%s:\n", name, name);
		lw_buf_add(text, w.code.s, w.code.len);
		lw_buf_printf(text, ".L_end%" PRIu32 ":\n", cnt->fn);
		if (priv.shared_size)
			lw_buf_printf(text, "\n\n//--------------------- .nv.shared.%s --------------------------\n"
			           "\t.section\t.nv.shared.%s,\"aw\",@nobits\n\t.sectionflags\t@\"\"\n"
			           "\t.align\t16\n.nv.shared.%s:\n\t.zero\t\t%u\n", name, name, name,
			           (unsigned)priv.shared_size);
	}
	cnt->exit += w.nexit;
	cnt->sys += w.nsys;
	cnt->fn++;
	lw_call_free(&w);
	if (w.fam_free)
		w.fam_free(&w);
	lw_fiber_free(&w);
	free(w.code.s);
	priv_free(&priv);
	return rc;
}

Src *
ptx_lower(const Ptx *p, int sm, Diag *d)
{
	return ptx_lower_text(p, sm, 0, d);
}

Src *
ptx_lower_text(const Ptx *p, int sm, int comments, Diag *d)
{
	PtxLower o = { .sm = sm, .comments = comments };

	if (sm)         /* a bare SM number: the module's suffix on its own target, else none */
		o.suffix = sm == p->sm ? p->sm_suffix : arch_find(sm, 0) ? 0 : 'a';
	return ptx_lower_opts(p, &o, d);
}

/* the SM number of a `.target sm_N` word without a suffix, also one the table does not hold
 * (sm_52, sm_75): PTX of an older target compiles for a newer one, as ptxas does; 0 otherwise */
static int
plain_sm(const char *t)
{
	char *end;
	long v;

	if (strncmp(t, "sm_", 3) != 0)
		return 0;
	v = strtol(t + 3, &end, 10);
	return *end || v <= 0 || v > 999 ? 0 : (int)v;
}

/* the target: --arch (o->sm) or the module's .target, checked against the architecture table
 * (ir/arch.c, docs/ptx-codegen.md "Targets"): the row to generate for, or NULL after a located
 * error. A target older than every row compiles with --arch (as ptxas -arch), never below
 * OldestPtxSm (the instructions this lowering selects need at least sm_20). */
static const Arch *
check_target(const Ptx *p, const PtxLower *o, Diag *d)
{
	enum { OldestPtxSm = 20 };
	const Arch *t = p->ntarget ? arch_find(p->sm, p->sm_suffix) : NULL;
	const Arch *a = o->sm ? arch_find(o->sm, o->suffix) : t, *g = NULL;
	char list[128], tname[40];
	int old;

	arch_list(list, sizeof list, ArchGenerates, ", ", " or ");
	snprintf(tname, sizeof tname, "%s", p->ntarget ? ptx_str(p, p->target[0]) : "");
	if (!p->ntarget)       /* no .target: --arch, else the default architecture */
		return a ? a : arch_default();
	for (size_t k = 0; (g = arch_at(k)); k++)   /* the oldest row that generates */
		if ((g->support & ArchGenerates) && !g->suffix)
			break;
	old = plain_sm(tname);
	if (!t && old >= OldestPtxSm && g && old < g->sm) {
		if (o->sm && a && (a->support & ArchGenerates))
			return a;
		error_at(d, p->tloc, "fiberc does not generate code for %s: it generates code for %s; "
		         "--arch=%s compiles this PTX for %s", tname, list, g->name, g->name);
		return NULL;
	}
	if (!t) {
		error_at(d, p->tloc, "'.target %s' is not an architecture fiberc compiles: it generates "
		         "code for %s%s", tname, list,
		         old && old < OldestPtxSm ? " (PTX of a target before sm_20 is not read)" : "");
		return NULL;
	}
	if (!o->sm && !(t->support & ArchGenerates)) {
		for (size_t k = 0; (g = arch_at(k)); k++)   /* the oldest row at least as new */
			if ((g->support & ArchGenerates) && g->sm >= t->sm && !g->suffix)
				break;
		error_at(d, p->tloc, "fiberc does not generate code for %s: it generates code for %s%s%s",
		         t->name, list, g ? "; --arch=" : "", g ? g->name : "");
		return NULL;
	}
	if (!a || !(a->support & ArchGenerates))
		die("ptx_lower_opts: --arch sm_%d is not a code-generator row", o->sm);
	if (t->sm > a->sm || (t->suffix && t != a)) {
		error_at(d, p->tloc, "PTX for %s does not compile for %s: %s", t->name, a->name,
		         t->suffix ? "its architecture-specific features need exactly that target"
		                   : "the target is newer");
		return NULL;
	}
	return a;
}

Src *
ptx_lower_opts(const Ptx *p, PtxLower *o, Diag *d)
{
	LwBuf out = {0}, ginfo = {0}, kinfo = {0}, text = {0};
	const Arch *a;
	int found = 0;
	char name[512];

	o->nkernel = o->nrefused = 0;
	uint32_t nentry = 0;
	for (uint32_t k = 0; k < p->nfn; k++)
		nentry += p->fn[k]->body && p->fn[k]->entry;
	if (!nentry) {
		error_at(d, p->tloc.end > p->tloc.start ? p->tloc : p->vloc,
		         "no kernel in the module: nothing to compile (.entry with a body)");
		return NULL;
	}
	if (!(a = check_target(p, o, d)))
		return NULL;
	LwCount c = {0};
	cnt = &c;
	lw_collect_mvars(p, cnt);
	for (uint32_t k = 0; k < p->nfn; k++) {
		const PtxFunc *fn = p->fn[k];
		if (!fn->body || !fn->entry)
			continue;
		if (o->kernel && strcmp(ptx_str(p, fn->name), o->kernel) != 0)
			continue;
		found = 1;
		int nerr = d->nerr;
		if (lower_fn(p, fn, a, o->comments, o->fiber, d, &ginfo, &kinfo, &text) < 0 || d->nerr > nerr) {
			/* refused: its sections were not written; the others go on */
			o->nrefused++;
			note_at(d, fn->loc, "kernel '%s' is refused (%d error%s)", ptx_str(p, fn->name),
			        d->nerr - nerr, d->nerr - nerr == 1 ? "" : "s");
		} else {
			o->nkernel++;
		}
	}
	if (!found)
		error_at(d, p->tloc.end > p->tloc.start ? p->tloc : p->vloc, "no kernel named '%s' in the "
		         "module", o->kernel);
	if (o->nkernel) {
		lw_buf_printf(&out, "\t.target\t%s\n\n\t.elftype\t@\"ET_EXEC\"\n\n", a->name);
		lw_buf_printf(&out, "\n//--------------------- .nv.info                  --------------------------\n"
		           "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n\t.align\t4\n");
		lw_buf_add(&out, ginfo.s ? ginfo.s : "", ginfo.len);
		lw_buf_add(&out, kinfo.s ? kinfo.s : "", kinfo.len);
		lw_buf_add(&out, text.s ? text.s : "", text.len);
		if (lw_emit_mvars(p, cnt, &out, d) < 0)
			o->nkernel = 0;
	}
	free(c.mv);
	cnt = NULL;
	free(ginfo.s);
	free(kinfo.s);
	free(text.s);
	if (!o->nkernel) {
		free(out.s);
		return NULL;
	}
	snprintf(name, sizeof name, "%s.isel", p->src && p->src->name ? p->src->name : "<ptx>");
	return src_take(name, out.s ? out.s : xstrdup(""), out.len);
}
