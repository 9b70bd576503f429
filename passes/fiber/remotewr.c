/* remotewr.c: the `remote-writes` pass: a destination V<n> (a write into another weft's window,
 * illegal: docs/fiber-isa.md section 2) becomes a local write plus remote reads by the consumer,
 * with busy-bit synchronisation; pool destinations written from another slice are located errors.
 * docs/pass-remote-writes.md has the rules and examples.
 *
 * Preconditions: CFG, dominators and SSA form (PNeedCfg | PNeedSsa); f->plan set (a FIBER mode),
 * else it does nothing. It runs the weftset analysis (weftset.c) only when the function has a V
 * or pool destination. Afterwards FPlan.rw_done is set, so that the FIBER verifier rejects every
 * V destination left (each with the reason recorded in FPlan.rw_why), and FPlan.remote_writes,
 * busy_syncs and remote_reads are filled. Its --print-after report (FPlan.report) is the weftset
 * dump and one line per remote write.
 *
 * The rewrite of `(weft A) OP V<n>, ...` where V<n> is weft B's R<rb>:
 *   OP R<t>, ...                       t: a register of A's window that no instruction names
 *   (B) DEPBAR.FULL V<base(A)+t>       before B's first read, unless a BAR.SYNC orders them
 *   (B) ... V<base(A)+t> ...           every read of R<rb> (and of V<n>) in B's code
 *   (B) SETBUSYBIT.EMPTY V<base(A)+t>  after B's last read, unless that repeats (a loop)
 * done only when every condition of the page holds; otherwise the write is left, with its reason.
 */
#include "fenc.h"
#include "fpasses.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Pos { Blk *b; uint32_t k; } Pos;

typedef struct RW {
	Fn *f;
	Weftset *ws;
	int nreg, nsub, slice;      /* window size, sub-partitions, registers per slice */
	uint8_t *rused;             /* R numbers named by any instruction */
	uint8_t *vused;             /* V numbers named by any instruction */
	Diag *d;
	char *rep;                  /* the report */
	size_t nrep, crep;
	int nerr;
} RW;

static void
say(RW *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(RW *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (r->nrep + (size_t)n + 1 > r->crep) {
		r->crep = (r->nrep + (size_t)n + 1) * 2;
		r->rep = xrealloc(r->rep, r->crep);
	}
	va_start(ap, fmt);
	vsnprintf(r->rep + r->nrep, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->nrep += (size_t)n;
}

static unsigned
wbase(const RW *r, unsigned w)
{
	return (unsigned)r->slice * (w % (unsigned)r->nsub) + (w / (unsigned)r->nsub) * (unsigned)r->nreg;
}

/* the line of instruction i in its file, for the report */
static unsigned
line_of(const Fn *f, const Ins *i)
{
	uint32_t line = 0, col = 0;

	if (f->mod->src && f->mod->src->text && i->loc.start < f->mod->src->len)
		src_linecol(f->mod->src, i->loc.start, &line, &col);
	return line;
}

static int
is_pooldst(const Ins *i, const Slot *s)
{
	return s->opnd < i->nopnd && (i->opnd[s->opnd].flags & FPoolRef);
}

/* the registers every instruction names */
static void
mark_used(RW *r)
{
	Fn *f = r->f;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned s = 0; s < i->nslot; s++)
				for (unsigned m = 0; m < i->slot[s].n; m++) {
					Reg x = reg_next(i->slot[s].reg, m);
					if (RCLS(x) == RR && RNUM(x) < 256)
						r->rused[RNUM(x)] = 1;
					if (RCLS(x) == RV && RNUM(x) < FiberFileRegs)
						r->vused[RNUM(x)] = 1;
				}
		}
}

/* the window placement is static: one CTA per SM (pools or SETFIBERNUM: sim/launch.c's
 * fiber_solo) and every window regcount registers; 0 with the reason */
static int
static_placement(const Fn *f, const char **why)
{
	int fnum = 0;

	if (f->info.regcount <= 0) {
		*why = "the window size is unknown (no register count)";
		return 0;
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			if (i->op != OSETFIBERNUM)
				continue;
			fnum = 1;
			if (i->nopnd == 2 && (i->opnd[1].kind != OImm || i->opnd[1].imm != f->info.regcount)) {
				*why = "a SETFIBERNUM gives new wefts another window size: placement is not "
				       "static";
				return 0;
			}
		}
	if (!fnum && !f->npool) {
		*why = "the kernel may share its SM with other CTAs (no pool, no SETFIBERNUM): window "
		       "placement is not static";
		return 0;
	}
	return 1;
}

/* can weft w, from instruction k of b on, reach `target` (an instruction, or with exit set any
 * EXIT/RET or the end) without passing `stop`? Over the edges weftset gives w. */
static int
reach(RW *r, Blk *b, uint32_t k, unsigned w, const Ins *stop, const Ins *target, int exit)
{
	Fn *f = r->f;
	uint8_t *seen = xmalloc(f->nblk + 1);
	Pos *st = xmalloc((f->nblk + 1) * sizeof *st);
	int sp = 0, found = 0;

	memset(seen, 0, f->nblk + 1);
	st[sp++] = (Pos){b, k};
	while (sp && !found) {
		Pos p = st[--sp];
		int cut = 0;
		for (uint32_t j = p.k; j < p.b->nins && !cut; j++) {
			const Ins *i = &p.b->ins[j];
			WSet at = weftset_at(r->ws, p.b, j);
			if (i == stop) {
				cut = 1;
			} else if (i == target) {
				found = 1, cut = 1;
			} else if ((optab[i->op].flags & (OFExit | OFRet)) && wset_has(&at, w)) {
				if (exit)
					found = 1;
				if (!i->guarded)
					cut = 1;
			}
		}
		if (cut)
			continue;
		if (!p.b->nsucc && exit)
			found = 1;
		for (uint32_t s = 0; s < p.b->nsucc; s++) {
			WSet e = weftset_edge(r->ws, p.b, s);
			Blk *x = p.b->succ[s];
			if (wset_has(&e, w) && !seen[x->id]) {
				seen[x->id] = 1;
				st[sp++] = (Pos){x, 0};
			}
		}
	}
	free(seen);
	free(st);
	return found;
}

/* does instruction i of b repeat for weft w (b on a cycle of w's edges)? */
static int
repeats(RW *r, Blk *b, unsigned w)
{
	for (uint32_t s = 0; s < b->nsucc; s++) {
		WSet e = weftset_edge(r->ws, b, s);
		if (wset_has(&e, w) && (b->succ[s] == b || reach(r, b->succ[s], 0, w, NULL,
		                                                 &b->ins[0], 0)))
			return 1;
	}
	return 0;
}

static int
is_barrier(const Fn *f, const Ins *i)
{
	return (i->op == OBAR && ins_hasmod(i, f->mod, "SYNC") && !i->guarded && i->nopnd == 1 &&
	        i->opnd[0].kind == OImm && i->opnd[0].imm == 0) || i->op == OSETFIBERNUM;
}

/* a BAR.SYNC 0 (or SETFIBERNUM) that A reaches after the write before any exit, that B passes
 * before its first read, and that neither repeats: it orders them */
static const Ins *
ordering_barrier(RW *r, Pos wr, unsigned a, Pos rd, unsigned bw)
{
	Fn *f = r->f;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *K = &f->blk[b]->ins[k];
			if (!is_barrier(f, K))
				continue;
			if (repeats(r, f->blk[b], a) || repeats(r, f->blk[b], bw))
				continue;
			if (reach(r, wr.b, wr.k + 1, a, K, NULL, 1))
				continue;   /* A can exit without passing K after the write */
			if (reach(r, f->rpo[0], 0, bw, K, &rd.b->ins[rd.k], 0))
				continue;   /* B can read without passing K */
			if (reach(r, f->blk[b], k + 1, a, NULL, &wr.b->ins[wr.k], 0))
				continue;   /* A can write after K */
			return K;
		}
	return NULL;
}

/* a wait (barrier, SETFIBERNUM, busy-bit wait) that writer weft a can meet on its way to the
 * write wr while reader weft bw can reach its first read rd without passing it (or that
 * repeats): the reader's DEPBAR.FULL could then hold bw while a waits for it */
static int
waits_before(RW *r, unsigned a, const Ins *wr, unsigned bw, const Ins *rd)
{
	Fn *f = r->f;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *K = &f->blk[b]->ins[k];
			WSet at = weftset_at(r->ws, f->blk[b], k);
			if (!(optab[K->op].flags & OFBarrier) && K->op != OSETFIBERNUM &&
			    !(K->op == ODEPBAR && (ins_hasmod(K, f->mod, "FULL") ||
			                            ins_hasmod(K, f->mod, "EMPTY"))))
				continue;
			if (K->op != OBAR && K->op != OSETFIBERNUM && K->op != ODEPBAR &&
			    K->op != OUCGABAR_WAIT)
				continue;   /* weft-local (WARPSYNC, BSYNC) */
			if (!wset_has(&at, a) || !reach(r, f->blk[b], k + 1, a, NULL, wr, 0))
				continue;
			if (K->op != ODEPBAR && !repeats(r, f->blk[b], a) && !repeats(r, f->blk[b], bw) &&
			    !reach(r, f->rpo[0], 0, bw, K, rd, 0))
				continue;   /* the reader passes it before its read: it cannot hold a */
			return 1;
		}
	return 0;
}

/* the entry value of register reg (version 0), made if no one reads it yet */
static uint32_t
entry_val(Fn *f, Reg reg)
{
	uint32_t v;

	for (uint32_t x = 1; x < f->nval; x++)
		if (f->val[x].reg == reg && f->val[x].ver == 0 && !f->val[x].def && !f->val[x].phi)
			return x;
	v = fn_newval(f, reg, 0);
	f->val[v].blk = f->nrpo ? f->rpo[0] : NULL;
	return v;
}

/* keep the encoding words in step with the operands, or drop them */
static void
reencode(Fn *f, Ins *i, int rd)
{
	uint64_t w[2];
	char why[128];

	if (i->nenc != 2)
		return;
	if (rd >= 0) {
		SET_RD(i->enc[0], rd);
		SET_FIELD(i->enc, FPOOLDST, 0);
	}
	if (fenc_encode_m(i, f->mod, w, why, sizeof why) == 0)
		i->enc[0] = w[0], i->enc[1] = w[1];
	else
		i->nenc = 0;
}

/* source operand k of i (slot s) now names V<vn> */
static void
retarget(Fn *f, Ins *i, unsigned s, unsigned vn)
{
	Slot *sl = &i->slot[s];
	Opnd *o = &i->opnd[sl->opnd];

	o->r[0] = REG(RV, vn);
	sl->reg = REG(RV, vn);
	for (unsigned m = 0; m < sl->n; m++)
		ins_setuse(f, i, s, m, entry_val(f, REG(RV, vn + m)));
	reencode(f, i, -1);
}

/* a DEPBAR.FULL / SETBUSYBIT.EMPTY of V<vn>..+n at position at of b */
static int
busy(RW *r, Blk *b, uint32_t at, const char *opname, const char *mode, unsigned vn, unsigned n)
{
	Fn *f = r->f;
	Ins proto;
	Opnd op[2];
	uint32_t mod = mintern(f->mod, mode);
	Ins *i;

	memset(&proto, 0, sizeof proto);
	proto.op = (uint16_t)op_lookup(opname, strlen(opname));
	proto.name = mintern(f->mod, opname);
	proto.mod = &mod;
	proto.nmod = 1;
	proto.addr = -1;
	op[0] = mkreg(REG(RV, vn));
	op[1] = mkimm(n);
	proto.opnd = op;
	proto.nopnd = n > 1 ? 2 : 1;
	proto.loc = at < b->nins ? b->ins[at].loc : b->ins[b->nins - 1].loc;
	i = ins_insert(f, b, at, &proto);
	if (!i)
		return -1;
	for (unsigned s = 0; s < i->nslot; s++)
		for (unsigned m = 0; i->slot[s].kind == SUse && m < i->slot[s].n; m++)
			ins_setuse(f, i, s, m, entry_val(f, reg_next(i->slot[s].reg, m)));
	f->plan->busy_syncs++;
	return 0;
}

typedef struct Cons { Blk *b; uint32_t k; unsigned s; } Cons;

static void
leave(RW *r, Ins *i, const char *why)
{
	FPlan *p = r->f->plan;
	uint32_t *n = arena_alloc(r->f->mod->arena, 2 * (p->nrw_why + 1) * sizeof *n);

	if (p->nrw_why)
		memcpy(n, p->rw_why, 2 * p->nrw_why * sizeof *n);
	n[2 * p->nrw_why] = i->loc.start;
	n[2 * p->nrw_why + 1] = mintern(r->f->mod, why);
	p->rw_why = n;
	p->nrw_why++;
	say(r, "//   left: %s\n", why);
}

/* one remote write being rewritten */
typedef struct Remote {
	Blk *xb;                    /* the writing instruction: its block, position, def slot */
	uint32_t k;
	unsigned ds;
	unsigned n, width;          /* it writes V<n> .. V<n + width - 1> */
	unsigned a;                 /* the writer weft */
	unsigned bw, rb;            /* V<n> is weft bw's R<rb> */
	Cons *cons;                 /* the reads to retarget (B's of R<rb>, absolute ones of V<n>) */
	uint32_t ncons, ccons;
	Blk *yb;                    /* the block of the reads */
	uint32_t first, last;       /* the first and the last read in it */
	char buf[320];              /* a reason that names lines */
} Remote;

/* the writer weft a and the weft bw whose register V<n> is, under the static placement: the
 * write qualifies (one weft writes it, into another weft's window, not a pool, not under a
 * guard the writer may find false); NULL, or why not */
static const char *
locate(RW *r, Remote *w)
{
	Fn *f = r->f;
	Ins *wi = &w->xb->ins[w->k];
	WSet A = weftset_at(r->ws, w->xb, w->k), gt, gf;
	const char *why = NULL;
	unsigned sl, off;

	if (!static_placement(f, &why))
		return why;
	if (wset_count(&A) != 1)
		return wset_count(&A) ? "more than one weft may execute the write (weftset)" :
		       "no weft executes the write";
	w->a = (unsigned)wset_first(&A);
	sl = w->n / (unsigned)r->slice;
	off = w->n % (unsigned)r->slice;
	w->bw = (off / (unsigned)r->nreg) * (unsigned)r->nsub + sl;
	w->rb = off % (unsigned)r->nreg;
	if (sl >= (unsigned)r->nsub || w->rb + w->width > (unsigned)r->nreg || w->bw >= WsMaxWeft)
		return "the register is not inside a window of the static placement";
	for (uint32_t p = 0; p < f->npool; p++)
		if (w->n + w->width > f->pool[p].base && w->n < f->pool[p].base + f->pool[p].size)
			return "the register is a pool's: write it as NAME[OFF] from the pool's slice";
	if (w->bw == w->a)
		return "the writer's own register: write R instead of V";
	say(r, "//   V%u is weft %u's R%u (base %u); writer weft %u (base %u)\n", w->n, w->bw, w->rb,
	    wbase(r, w->bw), w->a, wbase(r, w->a));
	if (wi->guarded) {
		uint32_t gv = 0;
		for (unsigned s = 0; s < wi->nslot; s++)
			if (wi->slot[s].opnd == SlotGuard && wi->slot[s].v)
				gv = wi->slot[s].v[0];
		weftset_pred(r->ws, gv, &gt, &gf);
		if (wset_has(&gf, w->a))
			return "the write's guard may be false in the writer weft";
	}
	return NULL;
}

/* the consumers: the uses of the written value (absolute reads) and weft bw's reads of R<rb>,
 * into w->cons; each must run in bw alone, name the register as a whole operand, and lie in
 * one block. NULL, or why not */
static const char *
find_reads(RW *r, Remote *w)
{
	Fn *f = r->f;
	Ins *wi = &w->xb->ins[w->k];
	Slot *dsl = &wi->slot[w->ds];
	unsigned n = w->n, width = w->width, rb = w->rb, bw = w->bw;

	w->first = UINT32_MAX;
	w->last = 0;
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t j = 0; j < f->blk[b]->nins; j++) {
			Ins *i = &f->blk[b]->ins[j];
			WSet at = weftset_at(r->ws, f->blk[b], j);
			int inb = wset_has(&at, bw), only = inb && wset_count(&at) == 1;
			for (unsigned s = 0; s < i->nslot; s++) {
				Slot *x = &i->slot[s];
				unsigned xr = RNUM(x->reg), xc = RCLS(x->reg);
				int isv = xc == RV && xr < n + width && xr + x->n > n;
				int isr = xc == RR && xr < rb + width && xr + x->n > rb;
				if (i == wi && s == w->ds)
					continue;
				if (isv && x->kind == SDef)
					return "another instruction writes the same V register";
				if (isr && x->kind != SUse && inb) {
					snprintf(w->buf, sizeof w->buf, "weft %u writes R%u itself (line %u)", bw,
					         xr, line_of(f, i));
					return w->buf;
				}
				if ((!isv && !(isr && inb)) || x->kind != SUse)
					continue;
				if (isv && x->v && x->v[0] != dsl->v[0])
					return "an absolute read of the register does not read this write";
				if (!(isv ? (wset_count(&at) == 0 || only) : only)) {
					snprintf(w->buf, sizeof w->buf, "the read at line %u runs in other wefts "
					         "as well as weft %u", line_of(f, i), bw);
					return w->buf;
				}
				if (x->opnd >= i->nopnd || x->field != 0 || x->reg != (isv ? REG(RV, n) :
				    REG(RR, rb)) || x->n != width || i->opnd[x->opnd].kind != OReg ||
				    (i->opnd[x->opnd].flags & FPoolRef))
					return "a read names the register in a form an absolute operand cannot "
					       "take (an address, part of a wider operand)";
				if (w->yb && w->yb != f->blk[b])
					return "the reads lie in more than one block";
				w->yb = f->blk[b];
				vgrow(&w->cons, &w->ccons, w->ncons + 1, sizeof *w->cons);
				w->cons[w->ncons++] = (Cons){f->blk[b], j, s};
				w->first = j < w->first ? j : w->first;
				w->last = j > w->last ? j : w->last;
			}
		}
	if (!w->ncons)
		return "no read of the register in the consumer weft";
	return NULL;
}

/* the first register of weft a's window, aligned to width, that no instruction names (as R or
 * as the V it is); nreg if none */
static unsigned
free_reg(RW *r, unsigned a, unsigned width)
{
	unsigned t;

	for (t = 0; t + width <= (unsigned)r->nreg; t += width) {
		int ok = 1;
		for (unsigned m = 0; m < width; m++)
			ok &= !r->rused[t + m] && !r->vused[wbase(r, a) + t + m];
		if (ok)
			return t;
	}
	return t;
}

/* the write becomes OP R<t> (V<vt>), the reads read V<vt>, and unless a barrier orders them the
 * reads get their busy-bit waits (rep_r: the reads repeat, no SETBUSYBIT.EMPTY) */
static void
apply_remote(RW *r, Remote *w, unsigned t, unsigned vt, const Ins *bar, int rep_r)
{
	Fn *f = r->f;
	Ins *wi = &w->xb->ins[w->k];
	Slot *dsl = &wi->slot[w->ds];
	Opnd *o = &wi->opnd[dsl->opnd];

	/* reads, then the write, then the busy bits (later position first) */
	for (uint32_t c = 0; c < w->ncons; c++)
		retarget(f, &w->cons[c].b->ins[w->cons[c].k], w->cons[c].s, vt);
	o->r[0] = REG(RR, t);
	dsl->reg = REG(RR, t);
	for (unsigned m = 0; m < w->width; m++) {
		uint32_t ov = dsl->v ? dsl->v[m] : 0;
		if (ov && ov < f->nval)
			f->val[ov].def = NULL, f->val[ov].blk = NULL;
		if (f->in_ssa && ins_newdef(f, wi, w->ds, m))
			f->val[dsl->v[m]].blk = w->xb;
	}
	reencode(f, wi, (int)t);
	for (unsigned m = 0; m < w->width; m++)
		r->rused[t + m] = 1, r->vused[vt + m] = 1;
	f->plan->remote_writes++;
	say(r, "//   rewritten: %s R%u (V%u) in weft %u; %u read%s in bb%u read V%u\n",
	    mstr(f->mod, wi->name), t, vt, w->a, w->ncons, w->ncons == 1 ? "" : "s", w->yb->id, vt);
	if (bar) {
		say(r, "//   ordered by %s at line %u: no busy-bit sync\n", mstr(f->mod, bar->name),
		    line_of(f, bar));
		return;
	}
	if (!rep_r && busy(r, w->yb, w->last + 1, "SETBUSYBIT", "EMPTY", vt, w->width) == 0)
		say(r, "//   SETBUSYBIT.EMPTY V%u after the last read\n", vt);
	if (busy(r, w->yb, w->first, "DEPBAR", "FULL", vt, w->width) == 0)
		say(r, "//   DEPBAR.FULL V%u before the first read\n", vt);
	if (rep_r)
		say(r, "//   the reads repeat: V%u stays Full (its one write never waits)\n", vt);
}

/* try to rewrite the V destination of instruction k of block xb (def slot ds): the write must
 * qualify (locate), its reads too (find_reads), the writer's window must have a free register,
 * and the reader's wait must not deadlock; else it is left, with the reason */
static void
rewrite(RW *r, Blk *xb, uint32_t k, unsigned ds)
{
	Fn *f = r->f;
	Ins *wi = &xb->ins[k];
	Remote *w = xmalloc(sizeof *w);
	WSet A = weftset_at(r->ws, xb, k);
	char as[64];
	const char *why;
	const Ins *bar = NULL;
	unsigned t, vt;
	int rep_r;

	w->xb = xb;
	w->k = k;
	w->ds = ds;
	w->n = RNUM(wi->slot[ds].reg);
	w->width = wi->slot[ds].n;
	wset_fmt(as, sizeof as, &A);
	say(r, "// remote write at line %u: %s V%u (wefts %s)\n", line_of(f, wi),
	    mstr(f->mod, wi->name), w->n, as);
	if ((why = locate(r, w)) || (why = find_reads(r, w)))
		goto fail;
	t = free_reg(r, w->a, w->width);
	if (t + w->width > (unsigned)r->nreg) {
		why = "no free register in the writer's window";
		goto fail;
	}
	vt = wbase(r, w->a) + t;
	rep_r = repeats(r, w->yb, w->bw);
	if (repeats(r, xb, w->a)) {
		why = "the write repeats (a loop): the producer/consumer counts are not proven equal";
		goto fail;
	}
	bar = ordering_barrier(r, (Pos){xb, k}, w->a, (Pos){w->yb, w->first}, w->bw);
	if (!bar && reach(r, f->rpo[0], 0, w->a, wi, NULL, 1)) {
		why = "the writer weft may exit without writing: the reader would wait forever";
		goto fail;
	}
	if (!bar && waits_before(r, w->a, wi, w->bw, &w->yb->ins[w->first])) {
		why = "the writer may wait (barrier, busy bit) before the write: the reader's wait "
		      "could deadlock";
		goto fail;
	}
	apply_remote(r, w, t, vt, bar, rep_r);
	free(w->cons);
	free(w);
	return;
fail:
	leave(r, wi, why);
	free(w->cons);
	free(w);
}

/* where the pool's name is spelt in i, else the instruction */
static Loc
pool_loc(const Fn *f, const Ins *i, const char *name)
{
	const Src *src = f->mod ? f->mod->src : NULL;
	size_t n = strlen(name);

	if (!src || !src->text || i->loc.end > src->len || !n)
		return i->loc;
	for (uint32_t a = i->loc.start; a + n < i->loc.end; a++)
		if (memcmp(src->text + a, name, n) == 0 && src->text[a + n] == '[')
			return (Loc){ a, a + (uint32_t)n };
	return i->loc;
}

/* a pool destination: the writer's slice must be the pool's */
static void
pool_write(RW *r, Blk *b, uint32_t k, const Slot *s)
{
	Fn *f = r->f;
	Ins *i = &b->ins[k];
	const Opnd *o = &i->opnd[s->opnd];
	WSet A = weftset_at(r->ws, b, k);
	const FPool *p = NULL;
	int same = 0, other = -1;
	char as[64];

	for (uint32_t q = 0; q < f->npool; q++)
		if (RNUM(s->reg) >= f->pool[q].base && RNUM(s->reg) < f->pool[q].base + f->pool[q].size)
			p = &f->pool[q];
	if (!p || wset_count(&A) == 0 || wset_count(&A) == WsMaxWeft)
		return;
	for (unsigned w = 0; w < WsMaxWeft; w++)
		if (wset_has(&A, w)) {
			if ((int)(w % (unsigned)r->nsub) == p->slice)
				same = 1;
			else if (other < 0)
				other = (int)w;
		}
	wset_fmt(as, sizeof as, &A);
	say(r, "// pool write at line %u: %s[%lld] (slice %d) from wefts %s: %s\n",
	    line_of(f, i), mstr(f->mod, o->atom), (long long)o->imm,
	    p->slice, as, other < 0 ? "local" : same ? "some wefts remote (checked at run time)" :
	    "remote");
	if (other >= 0 && !same) {
		error_at(r->d, pool_loc(f, i, mstr(f->mod, o->atom)), "remote write: weft%s %s "
		         "(slice %d) write%s pool %s (slice %d, V%u): a pool is local to its slice; "
		         "only the wefts w with w %% %d == %d may write it", wset_count(&A) > 1 ? "s" :
		         "", as, other % r->nsub, wset_count(&A) > 1 ? "" : "s", mstr(f->mod, o->atom),
		         p->slice, RNUM(s->reg), r->nsub, p->slice);
		r->nerr++;
	}
}

static int
count_vreads(const Fn *f)
{
	int n = 0;

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned s = 0; s < i->nslot; s++)
				if (i->slot[s].kind == SUse && RCLS(i->slot[s].reg) == RV &&
				    !(i->slot[s].opnd < i->nopnd && (i->opnd[i->slot[s].opnd].flags & FPoolRef)))
					n++;
		}
	return n;
}

int
pass_remote_writes(Fn *f, Diag *d)
{
	RW r;
	int any = 0;
	char *rep;

	if (!f->plan)
		return 0;
	f->plan->rw_done = 1;
	for (uint32_t b = 0; b < f->nblk && !any; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins && !any; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned s = 0; s < i->nslot; s++)
				if (i->slot[s].kind == SDef && RCLS(i->slot[s].reg) == RV)
					any = 1;
		}
	if (!any) {
		f->plan->remote_reads = count_vreads(f);
		return PassUnchanged;
	}
	memset(&r, 0, sizeof r);
	r.f = f;
	r.d = d;
	r.ws = weftset_build(f);
	r.nreg = f->info.regcount > 0 ? f->info.regcount : 1;
	r.nsub = f->plan->nsub > 0 ? f->plan->nsub : 4;
	r.slice = f->plan->slice_regs > 0 ? f->plan->slice_regs : FiberSliceRegs;
	r.rused = xmalloc(256);
	r.vused = xmalloc(FiberFileRegs);
	memset(r.rused, 0, 256);
	memset(r.vused, 0, FiberFileRegs);
	mark_used(&r);
	say(&r, "// weftset of %s: wefts that may run each block\n", mstr(f->mod, f->name));
	for (uint32_t b = 0; b < f->nblk; b++) {
		char buf[256];
		WSet s = weftset_blk(r.ws, f->blk[b]);
		wset_fmt(buf, sizeof buf, &s);
		say(&r, "// wefts bb%u: %s\n", b, buf);
	}
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			Ins *i = &f->blk[b]->ins[k];
			for (unsigned s = 0; s < i->nslot; s++) {
				if (i->slot[s].kind != SDef || RCLS(i->slot[s].reg) != RV)
					continue;
				if (is_pooldst(i, &i->slot[s])) {
					pool_write(&r, f->blk[b], k, &i->slot[s]);
				} else {
					rewrite(&r, f->blk[b], k, s);
					i = &f->blk[b]->ins[k];   /* the block may have moved */
				}
				break;
			}
		}
	f->plan->remote_reads = count_vreads(f);
	rep = arena_alloc(f->mod->arena, r.nrep + 1);
	if (r.nrep)
		memcpy(rep, r.rep, r.nrep);
	f->plan->report = rep;
	free(r.rep);
	free(r.rused);
	free(r.vused);
	weftset_free(r.ws);
	return r.nerr ? -1 : 0;
}
