/* pressure.c: register pressure over program order, from liveness (liveness.c): the R, P, UR
 * and UP registers live before each instruction, the most per block and per loop, and the most
 * occupied at once (FPlan.maxlive); the CSV of fiberc --emit=pressure; and the listing of
 * --print-after=liveness with life ranges in the manner of nvdisasm -print-life-ranges
 * (docs/pass-liveness.md). Preconditions: cfg_build and dom_build (loops come from dominators);
 * a Live of at least NumArchUnit units built on the current blocks. One backward walk per block
 * over bitsets: linear in the instructions; the life-range columns are made only when printed.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* the unit range of each counted class */
static const uint32_t cls_lo[NPrCls] = {UnitR, UnitP, UnitUR, UnitUP};
static const uint32_t cls_hi[NPrCls] = {UnitP, UnitUR, UnitUP, UnitB};
static const char *const cls_name[NPrCls] = {"R", "P", "UR", "UP"};

static int
has(const uint64_t *s, uint32_t u)
{
	return (s[u >> 6] >> (u & 63)) & 1;
}

/* bits of s in units [lo, hi) */
static int
count_range(const uint64_t *s, uint32_t lo, uint32_t hi, uint32_t nunit)
{
	int n = 0;

	if (hi > nunit)
		hi = nunit;
	while (lo < hi) {
		uint32_t w = lo >> 6, b = lo & 63, e = (hi - (lo - b)) < 64 ? hi - (lo - b) : 64;
		uint64_t m = (e == 64 ? ~(uint64_t)0 : (((uint64_t)1 << e) - 1)) & (~(uint64_t)0 << b);
		n += __builtin_popcountll(s[w] & m);
		lo += e - b;
	}
	return n;
}

/* the counted class of unit u, or NPrCls */
static inline int
ucls(uint32_t u)
{
	return u < UnitP ? PrR : u < UnitUR ? PrP : u < UnitUP ? PrUR : u < UnitB ? PrUP : NPrCls;
}

/* instruction i backward over cur: cur = (cur - defs) | uses, cnt[class] (NPrCls + 1 entries)
 * kept up to date; returns the R registers it writes that are not live after it (they still
 * occupy a register at i) */
static int
back(const Ins *i, uint64_t *cur, uint32_t nunit, int *cnt)
{
	int dead = 0;

	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		if (sl->kind != SDef)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			int u = reg_unit(reg_next(sl->reg, m));
			uint64_t bit;
			if (u < 0 || (uint32_t)u >= nunit)
				continue;
			bit = (uint64_t)1 << (u & 63);
			if (cur[u >> 6] & bit) {
				cur[u >> 6] &= ~bit;
				cnt[ucls((uint32_t)u)]--;
			} else {
				dead += (uint32_t)u < UnitP;
			}
		}
	}
	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		if (sl->kind == SDef)
			continue;
		for (unsigned m = 0; m < sl->n; m++) {
			int u = reg_unit(reg_next(sl->reg, m));
			uint64_t bit;
			if (u < 0 || (uint32_t)u >= nunit)
				continue;
			bit = (uint64_t)1 << (u & 63);
			if (!(cur[u >> 6] & bit)) {
				cur[u >> 6] |= bit;
				cnt[ucls((uint32_t)u)]++;
			}
		}
	}
	return dead;
}

Pressure *
pressure_build(Fn *f, const Live *l)
{
	Pressure *p;
	uint32_t nw, n = 0, at = 0;
	uint64_t *cur;

	if (!f->blk || !l)
		return NULL;
	nw = l->nword;
	for (uint32_t b = 0; b < f->nblk; b++)
		n += f->blk[b]->nins;
	p = xmalloc(sizeof *p);
	p->nins = n;
	p->nblk = f->nblk;
	p->live = xmalloc(((size_t)n * NPrCls + 1) * sizeof *p->live);
	p->blk = xmalloc((n + 1) * sizeof *p->blk);
	p->blkmax = xmalloc((f->nblk + 1) * sizeof *p->blkmax);
	p->blkfirst = xmalloc((f->nblk + 1) * sizeof *p->blkfirst);
	p->maxlive = 0;
	p->maxat = 0;
	cur = xmalloc(nw * sizeof *cur);
	for (uint32_t b = 0; b < f->nblk; b++) {
		const Blk *x = f->blk[b];
		int bm, cnt[NPrCls + 1];
		p->blkfirst[b] = at;
		memcpy(cur, l->out + (size_t)b * nw, nw * sizeof *cur);
		for (int c = 0; c < NPrCls; c++)
			cnt[c] = count_range(cur, cls_lo[c], cls_hi[c], l->nunit);
		bm = cnt[PrR];
		for (uint32_t k = x->nins; k-- > 0;) {
			uint32_t idx = at + k;
			int after = cnt[PrR], dead = back(&x->ins[k], cur, l->nunit, cnt);
			uint16_t *lv = p->live + (size_t)idx * NPrCls;
			/* after the instruction, with what it writes for nothing: live after + dead */
			if (after + dead > bm)
				bm = after + dead;
			lv[PrR] = (uint16_t)cnt[PrR];
			lv[PrP] = (uint16_t)cnt[PrP];
			lv[PrUR] = (uint16_t)cnt[PrUR];
			lv[PrUP] = (uint16_t)cnt[PrUP];
			if (cnt[PrR] > bm)
				bm = cnt[PrR];
			p->blk[idx] = b;
		}
		p->blkmax[b] = bm;
		if (bm > p->maxlive && x->rpo != UINT32_MAX)
			p->maxlive = bm;   /* reachable code only, as Live.maxr */
		at += x->nins;
	}
	for (int c = 0; c < NPrCls; c++)
		p->max[c] = 0;
	for (uint32_t k = 0; k < n; k++)
		for (int c = 0; c < NPrCls; c++)
			if (p->live[(size_t)k * NPrCls + c] > p->max[c]) {
				p->max[c] = p->live[(size_t)k * NPrCls + c];
				if (c == PrR)
					p->maxat = k;
			}
	free(cur);
	return p;
}

void
pressure_free(Pressure *p)
{
	if (!p)
		return;
	free(p->live);
	free(p->blk);
	free(p->blkmax);
	free(p->blkfirst);
	free(p);
}

/* natural loops: for every back edge t -> h (h dominates t), the blocks that reach t without
 * passing h; loops with one header are merged. Sorted by header id. */
uint32_t
pressure_loops(Fn *f, const Pressure *p, PLoop **out)
{
	uint32_t nblk = f->nblk, nl = 0;
	PLoop *lp = NULL;
	uint8_t *in = xmalloc(nblk + 1);
	uint32_t *stk = xmalloc((nblk + 1) * sizeof *stk);

	for (uint32_t h = 0; h < nblk; h++) {
		Blk *hb = f->blk[h];
		uint32_t sp = 0, nb = 0;
		int back_edge = 0, mx = 0;
		if (hb->rpo == UINT32_MAX)
			continue;
		memset(in, 0, nblk);
		in[h] = 1;
		for (uint32_t k = 0; k < hb->npred; k++) {
			Blk *t = hb->pred[k];
			if (t->rpo == UINT32_MAX || !dom_dominates(hb, t))
				continue;
			back_edge = 1;
			if (!in[t->id]) {
				in[t->id] = 1;
				stk[sp++] = t->id;
			}
		}
		if (!back_edge)
			continue;
		while (sp) {
			Blk *x = f->blk[stk[--sp]];
			for (uint32_t k = 0; k < x->npred; k++)
				if (!in[x->pred[k]->id] && x->pred[k]->rpo != UINT32_MAX) {
					in[x->pred[k]->id] = 1;
					stk[sp++] = x->pred[k]->id;
				}
		}
		for (uint32_t b = 0; b < nblk; b++)
			if (in[b]) {
				nb++;
				if (p && p->blkmax[b] > mx)
					mx = p->blkmax[b];
			}
		lp = xrealloc(lp, (nl + 1) * sizeof *lp);
		lp[nl].head = h;
		lp[nl].nblk = nb;
		lp[nl].max = mx;
		lp[nl].first = UINT32_MAX;
		lp[nl].last = 0;
		for (uint32_t b = 0; b < nblk; b++)
			if (in[b]) {
				if (b < lp[nl].first)
					lp[nl].first = b;
				lp[nl].last = b;
			}
		nl++;
	}
	free(in);
	free(stk);
	*out = lp;
	return nl;
}

/* ---------------------------------------------------------------------------------------------
 * fiberc --emit=pressure: one row per instruction, in program (layout) order.
 */
int
pressure_csv(FILE *out, const Fn *f, const Pressure *p, int header)
{
	char op[96];

	fprintf(out, "# kernel %s: maxlive %d R", mstr(f->mod, f->name), p->maxlive);
	fprintf(out, ", most live before one instruction: R %d, P %d, UR %d, UP %d\n", p->max[PrR],
	        p->max[PrP], p->max[PrUR], p->max[PrUP]);
	if (header)
		fprintf(out, "index,addr,block,opcode,r_live,p_live,ur_live,up_live\n");
	for (uint32_t b = 0, k = 0; b < f->nblk; b++)
		for (uint32_t j = 0; j < f->blk[b]->nins; j++, k++) {
			const Ins *i = &f->blk[b]->ins[j];
			size_t n = (size_t)snprintf(op, sizeof op, "%s", mstr(f->mod, i->name));
			for (unsigned m = 0; m < i->nmod && n < sizeof op; m++)
				n += (size_t)snprintf(op + n, sizeof op - n, ".%s", mstr(f->mod, i->mod[m]));
			if (i->addr >= 0)
				fprintf(out, "%u,0x%04llx,%u,%s", k, (unsigned long long)i->addr, b, op);
			else
				fprintf(out, "%u,,%u,%s", k, b, op);
			fprintf(out, ",%u,%u,%u,%u\n", p->live[(size_t)k * NPrCls + PrR],
			        p->live[(size_t)k * NPrCls + PrP], p->live[(size_t)k * NPrCls + PrUR],
			        p->live[(size_t)k * NPrCls + PrUP]);
		}
	return ferror(out) ? -1 : 0;
}

/* ---------------------------------------------------------------------------------------------
 * --print-after=liveness: the listing with a pressure count and a life-range column per used
 * register of each class (R, P, UR, UP). Past MaxCol[class] used registers, a column stands for
 * g consecutive used registers (g the least that fits) and shows the strongest mark among them.
 */
static const uint32_t MaxCol[NPrCls] = {64, 7, 32, 7};
enum { TextCol = 56, MaxText = 72 };

typedef struct Cols {
	uint32_t nused[NPrCls];    /* used units of each class */
	uint32_t *used[NPrCls];    /* their unit numbers, ascending */
	uint32_t g[NPrCls];        /* used units per column */
	uint32_t ncol[NPrCls];
} Cols;

/* strength of a life-range mark, to merge the registers of one column */
static int
rank(char c)
{
	return c == 'x' ? 4 : c == '^' ? 3 : c == 'v' ? 2 : c == ':' ? 1 : 0;
}

static void
cols_build(Fn *f, Cols *c)
{
	uint8_t *mark = xmalloc(NumArchUnit);

	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			const Ins *i = &f->blk[b]->ins[k];
			for (unsigned j = 0; j < i->nslot; j++)
				for (unsigned m = 0; m < i->slot[j].n; m++) {
					int u = reg_unit(reg_next(i->slot[j].reg, m));
					if (u >= 0 && u < NumArchUnit)
						mark[u] = 1;
				}
		}
	for (int k = 0; k < NPrCls; k++) {
		c->nused[k] = 0;
		c->used[k] = xmalloc((cls_hi[k] - cls_lo[k] + 1) * sizeof *c->used[k]);
		for (uint32_t u = cls_lo[k]; u < cls_hi[k]; u++)
			if (mark[u])
				c->used[k][c->nused[k]++] = u;
		c->g[k] = c->nused[k] <= MaxCol[k] ? 1 : (c->nused[k] + MaxCol[k] - 1) / MaxCol[k];
		c->ncol[k] = (c->nused[k] + c->g[k] - 1) / c->g[k];
	}
	free(mark);
}

static void
cols_free(Cols *c)
{
	for (int k = 0; k < NPrCls; k++)
		free(c->used[k]);
}

/* the header rows: the class and count column, then the hundreds, tens and units of each
 * column's first register (rows that would be blank are left out) */
static void
header_rows(FILE *out, const Cols *c, int width)
{
	uint32_t top = 0;

	for (int k = 0; k < NPrCls; k++)
		if (c->nused[k] && c->used[k][c->nused[k] - 1] - cls_lo[k] > top)
			top = c->used[k][c->nused[k] - 1] - cls_lo[k];
	for (int row = 0; row < 4; row++) {
		if ((row == 1 && top < 100) || (row == 2 && top < 10))
			continue;
		fprintf(out, "//%*s", width + 3, "");
		for (int k = 0; k < NPrCls; k++) {
			char lab[8];
			if (!c->nused[k])
				continue;
			snprintf(lab, sizeof lab, "#%s", cls_name[k]);
			fprintf(out, " %3s |", row == 0 ? lab : "");
			for (uint32_t j = 0; j < c->ncol[k]; j++) {
				uint32_t n = c->used[k][j * c->g[k]] - cls_lo[k];
				if (row == 0)
					fputc(' ', out);
				else if (row == 1)
					fputc(n >= 100 ? '0' + (char)(n / 100) : ' ', out);
				else if (row == 2)
					fputc(n >= 10 ? '0' + (char)(n / 10 % 10) : ' ', out);
				else
					fputc('0' + (char)(n % 10), out);
			}
			fputc('|', out);
		}
		fputc('\n', out);
	}
}

/* marks of instruction i for every column: before = in, after = out */
static void
marks(const Ins *i, const uint64_t *before, const uint64_t *after, const Cols *c, char *line)
{
	uint8_t ev[NumArchUnit];    /* 1 read, 2 written */
	char *p = line;

	memset(ev, 0, sizeof ev);
	for (unsigned j = 0; j < i->nslot; j++)
		for (unsigned m = 0; m < i->slot[j].n; m++) {
			int u = reg_unit(reg_next(i->slot[j].reg, m));
			if (u >= 0 && u < NumArchUnit)
				ev[u] |= i->slot[j].kind == SDef ? 2 : 1;
		}
	for (int k = 0; k < NPrCls; k++)
		for (uint32_t j = 0; j < c->ncol[k]; j++) {
			char best = ' ';
			for (uint32_t q = j * c->g[k]; q < (j + 1) * c->g[k] && q < c->nused[k]; q++) {
				uint32_t u = c->used[k][q];
				char ch = ev[u] == 3 ? 'x' : ev[u] == 2 ? '^' :
				          ev[u] == 1 && !has(after, u) ? 'v' :
				          has(before, u) || has(after, u) ? ':' : ' ';
				if (rank(ch) > rank(best))
					best = ch;
			}
			*p++ = best;
		}
	*p = 0;
}

static int
cta_threads(const Fn *f)
{
	const int *t = f->info.reqntid[0] ? f->info.reqntid : f->info.max_threads;

	if (!t[0])
		return 0;
	return t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1);
}

void
pressure_dump(FILE *out, Fn *f)
{
	Live *l;
	Pressure *p;
	Cols c;
	PLoop *lp = NULL;
	uint32_t nl, maxcols = 0, nw;
	int width = 0, hi = -1, threads;
	char buf[512], *lines = NULL;
	uint64_t *sets = NULL;
	size_t capsets = 0, caplines = 0;

	if (!f->blk || !(l = live_sets(f, NumArchUnit))) {
		fprintf(out, "// liveness of %s: no CFG\n", mstr(f->mod, f->name));
		return;
	}
	nw = l->nword;
	p = pressure_build(f, l);
	cols_build(f, &c);
	nl = pressure_loops(f, p, &lp);
	for (int k = 0; k < NPrCls; k++)
		maxcols += c.ncol[k] + 8;
	if (c.nused[PrR])
		hi = (int)c.used[PrR][c.nused[PrR] - 1];
	for (uint32_t b = 0; b < f->nblk; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins; k++) {
			int n = fmt_ins(buf, sizeof buf, f, &f->blk[b]->ins[k], 0);
			if (n > width)
				width = n;
		}
	width = width < TextCol - 20 ? TextCol - 20 : width > MaxText ? MaxText : width;
	width += 18;   /* the address field */
	threads = cta_threads(f);
	fprintf(out, "// liveness of %s: maxlive %d R registers; most live before one instruction: "
	        "R %d (at index %u), P %d, UR %d, UP %d\n", mstr(f->mod, f->name), p->maxlive,
	        p->max[PrR], p->maxat, p->max[PrP], p->max[PrUR], p->max[PrUP]);
	fprintf(out, "// registers used: R %u (highest R%d), P %u, UR %u, UP %u; regcount %d\n",
	        c.nused[PrR], hi, c.nused[PrP], c.nused[PrUR], c.nused[PrUP], f->info.regcount);
	if (threads > 0)
		fprintf(out, "// FIBER: a weft needs a window of at least %d registers; a CTA of %d "
		        "threads = %d wefts needs %d of the SM's %d vector registers (%d x %d)\n",
		        p->maxlive, threads, (threads + 31) / 32, (threads + 31) / 32 * p->maxlive,
		        FiberFileRegs, (threads + 31) / 32, p->maxlive);
	else
		fprintf(out, "// FIBER: a weft needs a window of at least %d registers; a CTA of W "
		        "wefts needs W x %d of the SM's %d vector registers (the listing gives no "
		        "block size)\n", p->maxlive, p->maxlive, FiberFileRegs);
	for (uint32_t k = 0; k < nl; k++)
		fprintf(out, "// loop bb%u (header; %u blocks in bb%u..bb%u): max %d R live\n",
		        lp[k].head, lp[k].nblk, lp[k].first, lp[k].last, lp[k].max);
	fprintf(out, "// columns: #R #P #UR #UP registers live before the instruction; one column per "
	        "register used: ^ written, v last read, x read and written, : live");
	for (int k = 0; k < NPrCls; k++)
		if (c.g[k] > 1)
			fprintf(out, "; %s: %u registers a column (g), first named", cls_name[k], c.g[k]);
	fputc('\n', out);
	header_rows(out, &c, width);
	for (uint32_t b = 0; b < f->nblk; b++) {
		const Blk *x = f->blk[b];
		uint64_t *cur;
		if (capsets < ((size_t)x->nins + 1) * nw) {
			capsets = ((size_t)x->nins + 1) * nw;
			sets = xrealloc(sets, capsets * sizeof *sets);
		}
		if (caplines < ((size_t)x->nins + 1) * (maxcols + 1)) {
			caplines = ((size_t)x->nins + 1) * (maxcols + 1);
			lines = xrealloc(lines, caplines);
		}
		/* sets[k]: live after instruction k, sets[k + 1 .. ] before it is sets[k - 1]... walk
		 * backward: sets[nins] = out, sets[k] = before instruction k */
		cur = sets + (size_t)x->nins * nw;
		memcpy(cur, l->out + (size_t)b * nw, nw * sizeof *cur);
		for (uint32_t k = x->nins; k-- > 0;) {
			memcpy(sets + (size_t)k * nw, sets + (size_t)(k + 1) * nw, nw * sizeof *sets);
			int cnt[NPrCls + 1] = {0};
			back(&x->ins[k], sets + (size_t)k * nw, l->nunit, cnt);
		}
		fprintf(out, "// bb%u:%s max %d R live%s\n", b,
		        x->rpo == UINT32_MAX ? " (unreachable)" : "", p->blkmax[b],
		        cfg_callee(f, x) ? ", ends in a call of a subroutine" : "");
		for (uint32_t k = 0; k < x->nins; k++) {
			const Ins *i = &x->ins[k];
			uint32_t idx = p->blkfirst[b] + k;
			char head[32], *m = lines;
			int n;
			if (i->label)
				fprintf(out, "%s:\n", mstr(f->mod, i->label));
			marks(i, sets + (size_t)k * nw, sets + (size_t)(k + 1) * nw, &c, m);
			if (i->addr >= 0)
				snprintf(head, sizeof head, "        /*%04llx*/  ", (unsigned long long)i->addr);
			else
				snprintf(head, sizeof head, "        /*----*/  ");
			fmt_ins(buf, sizeof buf, f, i, 0);
			n = fprintf(out, "%s%s", head, buf);
			fprintf(out, "%*s//", n < width + 3 ? width + 3 - n : 1, "");
			for (int q = 0; q < NPrCls; q++) {
				if (!c.nused[q])
					continue;
				fprintf(out, " %3u |%.*s|", p->live[(size_t)idx * NPrCls + q], (int)c.ncol[q], m);
				m += c.ncol[q];
			}
			fputc('\n', out);
		}
	}
	if (f->endlabel)
		fprintf(out, "%s:\n", mstr(f->mod, f->endlabel));
	free(sets);
	free(lines);
	free(lp);
	cols_free(&c);
	pressure_free(p);
	live_free(l);
}

/* ---------------------------------------------------------------------------------------------
 * The pass: the live sets, FPlan's pressure and maxlive, and a warning when more registers are
 * live than the kernel declares.
 */
int
pass_liveness(Fn *f, Diag *d)
{
	Live *l;
	Pressure *p;

	if (!f->blk) {
		if (cfg_build(f, d) < 0)
			return -1;
		dom_build(f);
	}
	l = live_sets(f, NumArchUnit);
	p = pressure_build(f, l);
	if (f->plan) {
		FPlan *pl = f->plan;
		pl->pressure = arena_alloc(f->mod->arena, (p->nins + 1) * sizeof *pl->pressure);
		for (uint32_t k = 0; k < p->nins; k++)
			pl->pressure[k] = p->live[(size_t)k * NPrCls + PrR];
		pl->npressure = p->nins;
		pl->maxlive = p->maxlive;
	}
	if (f->info.regcount > 0 && p->maxlive > f->info.regcount)
		warn_at(d, f->loc, "%d registers are live at once in '%s', which declares %d",
		        p->maxlive, mstr(f->mod, f->name), f->info.regcount);
	pressure_free(p);
	live_free(l);
	return 0;
}
