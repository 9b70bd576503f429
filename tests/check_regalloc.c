/* check_regalloc.c: the register allocator (backend/regalloc.c, docs/pass-regalloc.md).
 *
 * - known answers: small functions whose register count, placement and coalescing are worked
 *   out by hand (a chain, a pair that must not overlap its source, tuples, copies, a read of a
 *   register never written);
 * - an independent checker (below): liveness of the virtual program computed here, and the
 *   registers the allocator chose read back instruction by instruction: every value keeps one
 *   register from its definition to its uses, no two values live at once share one, a wide
 *   result overlaps no source partially, tuples are aligned;
 * - random programs (straight code, forward branches, counted loops, guarded writes, copies,
 *   selects, predicates) allocated with the limit 255 (checked as above) and 16 and 24
 *   (spilling), run on the simulator against the same program with every virtual register
 *   mapped by hand to its own physical one: identical memory after the run;
 * - more than seven predicates live at once, spilled through R registers (and those to memory
 *   at the limit 16), against hand-computed results;
 * - the listing: register count (SHI_REGISTERS, EIATTR_REGCOUNT), frame (EIATTR_FRAME_SIZE,
 *   the stack pointer's IADD3), the declarations gone; errors: a limit no instruction fits.
 */
#define _DEFAULT_SOURCE
#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "codegen.h"
#include "backend.h"
#include "fiber.h"
#include "kernrun.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the metadata of a kernel k(int *out): REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, one parameter */
static const char head[] =
	"\t.target\tsm_80\n"
	"\t.elftype\t@\"ET_EXEC\"\n"
	"\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n"
	"\t.align\t4\n"
	"\t//----- nvinfo : EIATTR_REGCOUNT\n"
	"\t.align\t\t4\n"
	"\t.byte\t0x04, 0x2f\n"
	"\t.short\t(.L_1 - .L_0)\n"
	"\t.align\t\t4\n"
	".L_0:\n"
	"\t.word\tindex@(k)\n"
	"\t.word\t0x00000004\n"
	"\t//----- nvinfo : EIATTR_FRAME_SIZE\n"
	"\t.align\t\t4\n"
	".L_1:\n"
	"\t.byte\t0x04, 0x11\n"
	"\t.short\t(.L_3 - .L_2)\n"
	"\t.align\t\t4\n"
	".L_2:\n"
	"\t.word\tindex@(k)\n"
	"\t.word\t0x00000000\n"
	"\t//----- nvinfo : EIATTR_MIN_STACK_SIZE\n"
	"\t.align\t\t4\n"
	".L_3:\n"
	"\t.byte\t0x04, 0x12\n"
	"\t.short\t(.L_5 - .L_4)\n"
	"\t.align\t\t4\n"
	".L_4:\n"
	"\t.word\tindex@(k)\n"
	"\t.word\t0x00000000\n"
	".L_5:\n"
	"\t.section\t.nv.info.k,\"\",@\"SHT_CUDA_INFO\"\n"
	"\t.align\t4\n"
	"\t//----- nvinfo : EIATTR_PARAM_CBANK\n"
	"\t.align\t\t4\n"
	"\t.byte\t0x04, 0x0a\n"
	"\t.short\t(.L_9 - .L_8)\n"
	"\t.align\t\t4\n"
	".L_8:\n"
	"\t.word\tindex@(.nv.constant0.k)\n"
	"\t.short\t0x0160\n"
	"\t.short\t0x0008\n"
	"\t//----- nvinfo : EIATTR_CBANK_PARAM_SIZE\n"
	"\t.align\t\t4\n"
	".L_9:\n"
	"\t.byte\t0x03, 0x19\n"
	"\t.short\t0x0008\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"\t.align\t\t4\n"
	"\t.byte\t0x04, 0x17\n"
	"\t.short\t(.L_11 - .L_10)\n"
	".L_10:\n"
	"\t.word\t0x00000000\n"
	"\t.short\t0x0000\n"
	"\t.short\t0x0000\n"
	"\t.byte\t0x00, 0xf0, 0x21, 0x00\n"
	".L_11:\n"
	"\t.section\t.nv.constant0.k,\"a\",@progbits\n"
	"\t.align\t4\n"
	".nv.constant0.k:\n"
	"\t.zero\t\t360\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"\t.sectioninfo\t@\"SHI_REGISTERS=4\"\n";

static const char fnhead[] =
	"\t.align\t128\n"
	"\t.global\tk\n"
	"\t.type\tk,@function\n"
	"\t.other\tk,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	"k:\n"
	".text.k:\n";

/* ---- text building ------------------------------------------------------------------------ */

typedef struct Buf { char *s; size_t n, cap; } Buf;

static void
bp(Buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (b->s && b->n + (size_t)k < b->cap)
			break;
		b->cap = (b->cap + (size_t)k + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	b->n += (size_t)k;
}

/* a whole listing: head, declarations, the function header, body */
static char *
listing(const char *decls, const char *body)
{
	Buf b = {0};

	bp(&b, "%s%s%s%s", head, decls, fnhead, body);
	return b.s;
}

/* ---- parsing and allocating ------------------------------------------------------------- */

typedef struct T {
	Src *src;
	Module *m;
	Diag d;
	char *err;         /* diagnostics */
	size_t nerr;
	FILE *ef;
	RaStats st;
	int rc;            /* regalloc_run's */
} T;

static T *
parse(const char *text)
{
	T *t = calloc(1, sizeof *t);

	t->ef = open_memstream(&t->err, &t->nerr);
	t->src = src_new("t.vfsass", text, strlen(text));
	diag_init(&t->d, t->src, t->ef);
	t->m = sass_parse(t->src, &t->d);
	ck_assert_msg(t->m != NULL, "parse: %s", (fflush(t->ef), t->err));
	ck_assert_msg(sass_check(t->m, &t->d) == 0, "check: %s", (fflush(t->ef), t->err));
	ck_assert_int_eq(cfg_build(t->m->fn[0], &t->d), 0);
	dom_build(t->m->fn[0]);
	return t;
}

static Fn *
fn0(T *t)
{
	return t->m->fn[0];
}

static int
alloc(T *t, int maxreg)
{
	t->rc = regalloc_run(fn0(t), &t->d, maxreg, &t->st);
	fn_relayout(fn0(t));
	fflush(t->ef);
	return t->rc;
}

/* the listing as fiberc writes it, to a file; its text when out is NULL */
static char *
emit(T *t, const char *path)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	ck_assert_int_eq(emit_sass(f, t->m, NULL, &t->d), 0);
	fclose(f);
	if (path) {
		FILE *o = fopen(path, "w");
		ck_assert_ptr_nonnull(o);
		fputs(s, o);
		fclose(o);
	}
	return s;
}

static void
t_free(T *t)
{
	module_free(t->m);
	src_free(t->src);
	fclose(t->ef);
	free(t->err);
	free(t);
}

/* the text of instruction k of f (after allocation), without the offset and the ';' */
static const char *
ins_text(Fn *f, uint32_t k)
{
	static char buf[256];

	fmt_ins(buf, sizeof buf, f, &f->ins[k], 0);
	return buf;
}

/* ---- the checker ---------------------------------------------------------------------------
 * Units: R0..R254 (0..254), virtual R (300 + number - 256), P0..P6 (5000 + k), virtual P (5100 +
 * number - 256). A register id: R r is r, P p is 1000 + p. */
enum { CkUnits = 9100 };

typedef struct CSlot { uint8_t kind, n, field; uint16_t opnd; int unit; } CSlot;
typedef struct CIns { uint32_t loc, s0, ns; int copy_d, copy_s, deleted; Ins *post; } CIns;
typedef struct Cap {
	CIns *ins;
	CSlot *slot;
	uint32_t nins, nslot;
	uint32_t nblk, *g0, *g1, **succ, *nsucc;
} Cap;

static int
ck_unit(Reg r)
{
	unsigned n = RNUM(r);

	if (RCLS(r) == RR)
		return n < 255 ? (int)n : n >= RegVirt ? (int)(300 + n - RegVirt) : -1;
	if (RCLS(r) == RP)
		return n < 7 ? (int)(5000 + n) : n >= RegVirt ? (int)(5100 + n - RegVirt) : -1;
	return -1;
}

static int
ck_reg(Reg r)
{
	return RCLS(r) == RR ? (int)RNUM(r) : 1000 + (int)RNUM(r);
}

/* what the checker needs of the virtual function, before allocation */
static void
capture(Fn *f, Cap *c)
{
	uint32_t g = 0;

	memset(c, 0, sizeof *c);
	c->nblk = f->nblk;
	c->g0 = calloc(f->nblk + 1, sizeof *c->g0);
	c->g1 = calloc(f->nblk + 1, sizeof *c->g1);
	c->succ = calloc(f->nblk + 1, sizeof *c->succ);
	c->nsucc = calloc(f->nblk + 1, sizeof *c->nsucc);
	for (uint32_t b = 0; b < f->nblk; b++)
		c->nins += f->blk[b]->nins;
	c->ins = calloc(c->nins + 1, sizeof *c->ins);
	c->slot = calloc(c->nins * 40 + 1, sizeof *c->slot);
	for (uint32_t b = 0; b < f->nblk; b++) {
		Blk *x = f->blk[b];
		c->g0[b] = g;
		c->nsucc[b] = x->nsucc;
		c->succ[b] = calloc(x->nsucc + 1, sizeof **c->succ);
		for (uint32_t s = 0; s < x->nsucc; s++)
			c->succ[b][s] = x->succ[s]->id;
		for (uint32_t k = 0; k < x->nins; k++, g++) {
			Ins *i = &x->ins[k];
			CIns *ci = &c->ins[g];
			Reg d, s;
			ci->loc = i->loc.start;
			ci->s0 = c->nslot;
			ci->copy_d = ci->copy_s = -1;
			for (unsigned j = 0; j < i->nslot && j < 40; j++) {
				const Slot *sl = &i->slot[j];
				if (ck_unit(sl->reg) < 0)
					continue;
				c->slot[c->nslot++] = (CSlot){ sl->kind, sl->n, sl->field, sl->opnd,
				                              ck_unit(sl->reg) };
			}
			ci->ns = c->nslot - ci->s0;
			if (!i->guarded && i->op == OMOV && i->nopnd == 2 && i->opnd[1].kind == OReg &&
			    RCLS(i->opnd[0].r[0]) == RR && RCLS(i->opnd[1].r[0]) == RR) {
				d = i->opnd[0].r[0];
				s = i->opnd[1].r[0];
				ci->copy_d = ck_unit(d);
				ci->copy_s = ck_unit(s);
			}
		}
		c->g1[b] = g;
	}
}

static void
cap_free(Cap *c)
{
	for (uint32_t b = 0; b < c->nblk; b++)
		free(c->succ[b]);
	free(c->succ);
	free(c->nsucc);
	free(c->g0);
	free(c->g1);
	free(c->ins);
	free(c->slot);
}

/* the register of captured slot q of instruction ci after allocation */
static int
post_reg(const CIns *ci, const CSlot *s, char *why, size_t n)
{
	Reg r;

	if (s->opnd == SlotGuard)
		r = ci->post->guard.r[0];
	else if (s->opnd < ci->post->nopnd)
		r = ci->post->opnd[s->opnd].r[s->field];
	else
		return -1;
	if (reg_isvany(r)) {
		snprintf(why, n, "a virtual register left at offset %u", ci->loc);
		return -2;
	}
	return ck_reg(r);
}

#define LHAS(s, u) (((s)[(u) >> 6] >> ((u) & 63)) & 1)
#define LADD(s, u) ((s)[(u) >> 6] |= (uint64_t)1 << ((u) & 63))
#define LDEL(s, u) ((s)[(u) >> 6] &= ~((uint64_t)1 << ((u) & 63)))

/* 0 if the allocation of the captured function (now f) is sound, else -1 with why */
static int
verify_alloc(Fn *f, Cap *c, char *why, size_t n)
{
	enum { W = (CkUnits + 63) / 64 };
	uint64_t (*in)[W] = calloc(c->nblk + 1, sizeof *in), live[W];
	int16_t (*regin)[CkUnits] = malloc((c->nblk + 1) * sizeof *regin);
	int16_t *cur = malloc(CkUnits * sizeof *cur);
	uint32_t j = 0;
	int changed = 1, rc = 0, pass;

	/* the instructions after allocation, by their text's offset (spill code skipped) */
	for (uint32_t k = 0; k < f->nins; k++) {
		if (f->ins[k].flags & IInserted)
			continue;
		while (j < c->nins && c->ins[j].loc != f->ins[k].loc.start)
			c->ins[j++].deleted = 1;
		if (j < c->nins)
			c->ins[j++].post = &f->ins[k];
	}
	while (j < c->nins)
		c->ins[j++].deleted = 1;
	/* liveness of the virtual function */
	while (changed) {
		changed = 0;
		for (uint32_t b = c->nblk; b-- > 0;) {
			memset(live, 0, sizeof live);
			for (uint32_t s = 0; s < c->nsucc[b]; s++)
				for (unsigned w = 0; w < W; w++)
					live[w] |= in[c->succ[b][s]][w];
			for (uint32_t g = c->g1[b]; g-- > c->g0[b];) {
				const CIns *ci = &c->ins[g];
				for (uint32_t q = 0; q < ci->ns; q++)
					if (c->slot[ci->s0 + q].kind == SDef)
						for (unsigned m = 0; m < c->slot[ci->s0 + q].n; m++)
							LDEL(live, (unsigned)c->slot[ci->s0 + q].unit + m);
				for (uint32_t q = 0; q < ci->ns; q++)
					if (c->slot[ci->s0 + q].kind != SDef)
						for (unsigned m = 0; m < c->slot[ci->s0 + q].n; m++)
							LADD(live, (unsigned)c->slot[ci->s0 + q].unit + m);
			}
			if (memcmp(live, in[b], sizeof live)) {
				memcpy(in[b], live, sizeof live);
				changed = 1;
			}
		}
	}
	/* registers: to a fixed point (pass 0), then the checks (pass 1) */
	memset(regin, 0xff, (c->nblk + 1) * sizeof *regin);
	for (int iter = pass = 0; iter < 1000 && rc == 0; iter++) {
		changed = 0;
		for (uint32_t b = c->nblk; b-- > 0 && rc == 0;) {
			memset(cur, 0xff, CkUnits * sizeof *cur);
			memset(live, 0, sizeof live);
			for (uint32_t s = 0; s < c->nsucc[b]; s++) {
				uint32_t y = c->succ[b][s];
				for (unsigned u = 0; u < CkUnits; u++) {
					if (!LHAS(in[y], u))
						continue;
					LADD(live, u);
					if (regin[y][u] < 0)
						continue;
					if (cur[u] >= 0 && cur[u] != regin[y][u] && pass) {
						snprintf(why, n, "unit %u is in two registers at the end of block %u",
						         u, b);
						rc = -1;
					}
					cur[u] = regin[y][u];
				}
			}
			for (uint32_t g = c->g1[b]; g-- > c->g0[b] && rc == 0;) {
				CIns *ci = &c->ins[g];
				int dregs[64], nd = 0;
				if (ci->deleted) {
					if (ci->copy_d < 0 || ci->copy_s < 0) {
						snprintf(why, n, "instruction at offset %u was deleted (not a copy)",
						         ci->loc);
						rc = -1;
						break;
					}
					int rv = cur[ci->copy_d];
					LDEL(live, (unsigned)ci->copy_d);
					cur[ci->copy_d] = -1;
					LADD(live, (unsigned)ci->copy_s);
					if (rv >= 0)
						cur[ci->copy_s] = (int16_t)rv;
					continue;
				}
				/* definitions: against what lives after, and each other */
				for (uint32_t q = 0; q < ci->ns && rc == 0; q++) {
					const CSlot *s = &c->slot[ci->s0 + q];
					int r = post_reg(ci, s, why, n);
					if (s->kind != SDef)
						continue;
					if (r == -2)
						rc = -1;
					for (unsigned m = 0; r >= 0 && m < s->n && rc == 0; m++) {
						unsigned v = (unsigned)s->unit + m;
						if (pass)
							for (unsigned u = 0; u < CkUnits; u++)
								if (u != v && LHAS(live, u) && cur[u] == r + (int)m) {
									snprintf(why, n, "offset %u: unit %u written in register "
									         "%d, which unit %u holds", ci->loc, v, r + m, u);
									rc = -1;
									break;
								}
						for (int d = 0; d < nd && pass && rc == 0; d++)
							if (dregs[d] == r + (int)m) {
								snprintf(why, n, "offset %u: two results in register %d",
								         ci->loc, r + m);
								rc = -1;
							}
						if (nd < 64)
							dregs[nd++] = r + (int)m;
					}
					/* a wide result: no partial overlap with a source */
					for (uint32_t q2 = 0; pass && r >= 0 && s->n > 1 && q2 < ci->ns; q2++) {
						const CSlot *t = &c->slot[ci->s0 + q2];
						int r2 = post_reg(ci, t, why, n);
						if (t->kind == SDef || r2 < 0 || r2 == r)
							continue;
						if (r2 < r + s->n && r < r2 + t->n) {
							snprintf(why, n, "offset %u: a %u-register result at %d overlaps "
							         "a source at %d", ci->loc, s->n, r, r2);
							rc = -1;
						}
					}
					/* tuples aligned */
					if (pass && r >= 0 && r < 1000 && s->n > 1 && r % (s->n < 4 ? s->n : 4)) {
						snprintf(why, n, "offset %u: a %u-register result at R%d", ci->loc,
						         s->n, r);
						rc = -1;
					}
				}
				int cond = 0;
				for (uint32_t q = 0; q < ci->ns; q++)
					cond |= c->slot[ci->s0 + q].kind == SOld;
				for (uint32_t q = 0; q < ci->ns; q++) {
					const CSlot *s = &c->slot[ci->s0 + q];
					if (s->kind != SDef)
						continue;
					for (unsigned m = 0; m < s->n; m++) {
						LDEL(live, (unsigned)s->unit + m);
						if (!cond)
							cur[s->unit + m] = -1;
					}
				}
				/* uses: the register the value has below */
				for (uint32_t q = 0; q < ci->ns && rc == 0; q++) {
					const CSlot *s = &c->slot[ci->s0 + q];
					int r = post_reg(ci, s, why, n);
					if (s->kind == SDef)
						continue;
					if (r == -2) {
						rc = -1;
						break;
					}
					for (unsigned m = 0; r >= 0 && m < s->n; m++) {
						unsigned u = (unsigned)s->unit + m;
						if (pass && cur[u] >= 0 && cur[u] != r + (int)m && LHAS(live, u)) {
							snprintf(why, n, "offset %u: unit %u read in register %d but "
							         "held in %d below", ci->loc, u, r + m, cur[u]);
							rc = -1;
						}
						cur[u] = (int16_t)(r + (int)m);
						LADD(live, u);
					}
				}
			}
			for (unsigned u = 0; u < CkUnits; u++)
				if (LHAS(live, u) && cur[u] != regin[b][u]) {
					regin[b][u] = cur[u];
					changed = 1;
				}
		}
		if (pass == 1)
			break;
		if (!changed)
			pass = 1;                  /* stable: one more walk, with the checks */
	}
	free(in);
	free(regin);
	free(cur);
	return rc;
}

/* allocate t with maxreg and check the result independently */
static void
alloc_checked(T *t, int maxreg)
{
	Cap c;
	char why[256] = "";

	capture(fn0(t), &c);
	ck_assert_msg(alloc(t, maxreg) == 0, "regalloc: %s", t->err);
	ck_assert_msg(verify_alloc(fn0(t), &c, why, sizeof why) == 0, "%s", why);
	cap_free(&c);
}

/* ---- known answers ------------------------------------------------------------------------- */

/* a chain: each value dies where the next is made, so one register serves them all; the pair
 * of the address may not overlap its source (%c: R0) nor R1 (the stack pointer): R2..R3.
 * Registers: R0..R3 and the 2 ptxas adds: 6. */
START_TEST(test_regalloc_chain)
{
	char *s = listing("\t.vreg\t\t%a,%b,%c,%p[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %a, SR_TID.X ;\n"
	                  "\tIADD3 %b, %a, 0x1, RZ ;\n"
	                  "\tIADD3 %c, %b, 0x2, RZ ;\n"
	                  "\tIMAD.WIDE.U32 %p, %c, 0x4, c[0x0][0x160] ;\n"
	                  "\tSTG.E [%p.64], RZ ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);

	alloc_checked(t, 255);
	ck_assert_int_eq(t->st.regs, 6);
	ck_assert_int_eq(fn0(t)->info.regcount, 6);
	ck_assert_str_eq(ins_text(fn0(t), 1), "S2R R0, SR_TID.X ;");
	ck_assert_str_eq(ins_text(fn0(t), 2), "IADD3 R0, R0, 0x1, RZ ;");
	ck_assert_str_eq(ins_text(fn0(t), 4), "IMAD.WIDE.U32 R2, R0, 0x4, c[0x0][0x160] ;");
	ck_assert_int_eq(t->st.spilled, 0);
	ck_assert_int_eq(t->st.frame, 0);
	t_free(t);
	free(s);
}
END_TEST

/* tuples: a quad at a multiple of 4, a pair at an even register, an 8-wide MMA accumulator at
 * a multiple of 4, the results of an HMMA over none of its sources; the physical R4 the text
 * names (live across) is avoided */
START_TEST(test_regalloc_tuples)
{
	char *s = listing("\t.vreg\t\t%t,%q[4],%w[2],%acc[8],%a[4],%b[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %t, SR_TID.X ;\n"
	                  "\tMOV R4, %t ;\n"
	                  "\tIMAD.WIDE.U32 %w, %t, 0x10, c[0x0][0x160] ;\n"
	                  "\tLDG.E.128 %q, [%w.64] ;\n"
	                  "\tLDG.E.128 %a, [%w.64+0x10] ;\n"
	                  "\tLDG.E.64 %b, [%w.64+0x20] ;\n"
	                  "\tHMMA.16816.F32 %acc, %a, %b, RZ ;\n"
	                  "\tHMMA.16816.F32 %acc[4], %a, %b, RZ ;\n"
	                  "\tSTG.E.128 [%w.64], %acc ;\n"
	                  "\tSTG.E.128 [%w.64+0x10], %acc[4] ;\n"
	                  "\tSTG.E.128 [%w.64+0x20], %q ;\n"
	                  "\tSTG.E [%w.64+0x30], R4 ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);
	Fn *f;

	alloc_checked(t, 255);
	f = fn0(t);
	for (uint32_t k = 0; k < f->nins; k++)
		for (unsigned j = 0; j < f->ins[k].nslot; j++) {
			const Slot *sl = &f->ins[k].slot[j];
			if (RCLS(sl->reg) != RR || sl->n < 2 || reg_isconst(sl->reg))
				continue;
			ck_assert_msg(RNUM(sl->reg) % (sl->n < 4 ? sl->n : 4) == 0, "%s: a %u-register "
			              "tuple at R%u", ins_text(f, k), sl->n, RNUM(sl->reg));
			ck_assert_msg(RNUM(sl->reg) > 4 || RNUM(sl->reg) + sl->n <= 4, "%s: over R4",
			              ins_text(f, k));
		}
	/* at the second HMMA: R1, R2..R3 (%w), R4; %b R6..R7; the quads %q, %a and the halves of
	 * %acc at multiples of 4 from R8 (R0..R7 hold R1, %w and R4): R8..R23, count 26 */
	ck_assert_int_eq(t->st.regs, 26);
	t_free(t);
	free(s);
}
END_TEST

/* copies: `MOV %y, %x` where %x dies is coalesced (deleted), a copy into the ABI register R4
 * puts its source there, a copy of a value still live afterwards stays */
START_TEST(test_regalloc_copies)
{
	char *s = listing("\t.vreg\t\t%x,%y,%z,%a[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %x, SR_TID.X ;\n"
	                  "\tMOV %y, %x ;\n"
	                  "\tIADD3 %z, %y, 0x5, RZ ;\n"
	                  "\tMOV R4, %z ;\n"
	                  "\tIMAD.WIDE.U32 %a, %y, 0x4, c[0x0][0x160] ;\n"
	                  "\tSTG.E [%a.64], R4 ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);

	alloc_checked(t, 255);
	ck_assert_int_eq(t->st.copies, 2);         /* MOV %y, %x and MOV R4, %z */
	ck_assert_uint_eq(fn0(t)->nins, 6);
	ck_assert_str_eq(ins_text(fn0(t), 2), "IADD3 R4, R0, 0x5, RZ ;");
	t_free(t);
	free(s);
}
END_TEST

/* instruction i writes R register r */
static int
writes_reg(const Ins *i, unsigned r)
{
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SDef && RCLS(i->slot[j].reg) == RR &&
		    RNUM(i->slot[j].reg) <= r && r < RNUM(i->slot[j].reg) + i->slot[j].n)
			return 1;
	return 0;
}

/* a system call (ptxsyscall.c's sequence, vprintf's form): CALL.ABS.NOINC reads the argument
 * registers written before its LEPC (R4..R7 here) and R20:R21, and writes its result R4, so no
 * value made between an argument's write and the CALL lands on that argument (the pair %w, made
 * after R4/R5 are set with R2:R3 its sources, took R4:R5 while nothing modelled the CALL's
 * reads), and what reads R4 after the CALL reads the result */
START_TEST(test_regalloc_syscall)
{
	char *s = listing("\t.vreg\t\t%a,%p,%q,%w[2],%d,%o[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %a, SR_TID.X ;\n"
	                  "\tS2R %p, SR_TID.Y ;\n"
	                  "\tS2R %q, SR_TID.Z ;\n"
	                  "\tIADD3 R4, %a, 0x1, RZ ;\n"
	                  "\tMOV R5, RZ ;\n"
	                  "\tIMAD.WIDE.U32 %w, %p, %q, RZ ;\n"
	                  "\tIADD3 R6, %w, 0x2, RZ ;\n"
	                  "\tIADD3 R7, %w[1], 0x3, RZ ;\n"
	                  "\tMOV R2, 0x0 ;\n"
	                  "\tLDC.64 R2, c[0x4][R2] ;\n"
	                  "\tLEPC R8 ;\n"
	                  "\tMOV R11, 0x80 ;\n"
	                  "\tMOV R20, 0x0 ;\n"
	                  "\tMOV R21, 0x0 ;\n"
	                  "\tMOV R0, 0x0 ;\n"
	                  "\tIADD3 R20, P0, P1, -R20, R11, R8 ;\n"
	                  "\tIADD3.X R21, ~R0, R21, R9, P0, P1 ;\n"
	                  "\tCALL.ABS.NOINC R2 ;\n"
	                  "\tMOV %d, R4 ;\n"
	                  "\tIMAD.WIDE.U32 %o, %d, 0x4, c[0x0][0x160] ;\n"
	                  "\tSTG.E [%o.64], %d ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);
	Fn *f = fn0(t);
	/* the last write of each argument register before the CALL is the argument's own */
	static const char *const last[4] = { "IADD3 R4, ", "MOV R5, RZ", "IADD3 R6, ", "IADD3 R7, " };
	uint32_t call = UINT32_MAX;

	alloc_checked(t, 255);
	for (uint32_t k = 0; k < f->nins && call == UINT32_MAX; k++)
		if (f->ins[k].op == OCALL)
			call = k;
	ck_assert_uint_ne(call, UINT32_MAX);
	for (unsigned r = 4; r <= 7; r++) {
		uint32_t k = call;
		while (k-- > 0 && !writes_reg(&f->ins[k], r))
			;
		ck_assert_msg(k < call && !strncmp(ins_text(f, k), last[r - 4], strlen(last[r - 4])),
		              "R%u at the CALL is not its argument: %s", r,
		              k < call ? ins_text(f, k) : "(none)");
	}
	/* the result: read from R4 after the CALL (the copy is gone where %d took R4 itself) */
	const char *after = ins_text(f, call + 1);
	ck_assert_msg(strstr(after, "R4") != NULL, "the result is not read from R4: %s", after);
	t_free(t);
	free(s);
}
END_TEST

/* values live across a system call stay in registers the callee saves (R16..R31 but the
 * return address R20:R21), as ptxas keeps them, instead of going to the stack */
START_TEST(test_regalloc_syscall_saved)
{
	char *s = listing("\t.vreg\t\t%a,%w[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %a, SR_TID.X ;\n"
	                  "\tIMAD.WIDE.U32 %w, %a, 0x4, c[0x0][0x160] ;\n"
	                  "\tMOV R4, RZ ;\n"
	                  "\tMOV R5, RZ ;\n"
	                  "\tMOV R2, 0x0 ;\n"
	                  "\tLDC.64 R2, c[0x4][R2] ;\n"
	                  "\tLEPC R8 ;\n"
	                  "\tMOV R11, 0x80 ;\n"
	                  "\tMOV R20, 0x0 ;\n"
	                  "\tMOV R21, 0x0 ;\n"
	                  "\tMOV R0, 0x0 ;\n"
	                  "\tIADD3 R20, P0, P1, -R20, R11, R8 ;\n"
	                  "\tIADD3.X R21, ~R0, R21, R9, P0, P1 ;\n"
	                  "\tCALL.ABS.NOINC R2 ;\n"
	                  "\tSTG.E [%w.64], %a ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);
	Fn *f = fn0(t);
	unsigned ra = 0, rw = 0;
	uint32_t call = UINT32_MAX;

	alloc_checked(t, 255);
	for (uint32_t k = 0; k < f->nins; k++) {
		ck_assert_msg(f->ins[k].op != OSTL && f->ins[k].op != OLDL, "spilled: %s",
		              ins_text(f, k));
		if (f->ins[k].op == OCALL)
			call = k;
	}
	ck_assert_uint_ne(call, UINT32_MAX);
	const char *st = ins_text(f, call + 1);
	ck_assert_msg(sscanf(st, "STG.E [R%u.64], R%u", &rw, &ra) == 2, "%s", st);
#define SAVED(r) ((r) >= 16 && (r) <= 31 && (r) != 20 && (r) != 21)
	ck_assert_msg(SAVED(ra) && SAVED(rw) && SAVED(rw + 1), "not in callee-saved registers: %s",
	              st);
#undef SAVED
	t_free(t);
	free(s);
}
END_TEST

/* a register read before anything writes it reads whatever: no error, and it holds no
 * register before the write (here none at all) */
START_TEST(test_regalloc_undefined)
{
	char *s = listing("\t.vreg\t\t%x,%y,%a[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %x, SR_TID.X ;\n"
	                  "\tIADD3 %x, %x, %y, RZ ;\n"
	                  "\tIMAD.WIDE.U32 %a, %x, 0x4, c[0x0][0x160] ;\n"
	                  "\tSTG.E [%a.64], %x ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);

	ck_assert_int_eq(alloc(t, 255), 0);
	ck_assert_int_eq(t->st.regs, 6);           /* %x R0, %a R2..R3, %y anywhere */
	t_free(t);
	free(s);
}
END_TEST

/* the listing after allocation: the register count where nvcc states it, no declarations left;
 * with spills the frame and the stack pointer's IADD3 */
START_TEST(test_regalloc_listing)
{
	char *s = listing("\t.vreg\t\t%a,%b,%p[2]\n\t.vpred\t\t%q\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %a, SR_TID.X ;\n"
	                  "\tISETP.GT.AND %q, PT, %a, 0x3, PT ;\n"
	                  "\tSEL %b, %a, RZ, %q ;\n"
	                  "\tIMAD.WIDE.U32 %p, %a, 0x4, c[0x0][0x160] ;\n"
	                  "\tSTG.E [%p.64], %b ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);
	char *out;

	ck_assert_int_eq(alloc(t, 255), 0);
	out = emit(t, NULL);
	/* %a R0, %b R2 (the lowest free), %p R4..R5 (over neither source nor R1): 5 + 1 + 2 */
	ck_assert_ptr_nonnull(strstr(out, "SHI_REGISTERS=8"));
	ck_assert_ptr_nonnull(strstr(out, "index@(k)\n\t.word\t\t0x00000008"));
	ck_assert_ptr_null(strstr(out, ".vreg"));
	ck_assert_ptr_null(strstr(out, ".vpred"));
	ck_assert_ptr_null(strstr(out, "%"));
	free(out);
	t_free(t);
	free(s);
}
END_TEST

/* sm_90's frame prologue, `VIADD R1, R1, -8` (selection's form for a kernel with .local
 * variables: 0xfffffff8), is the frame regalloc grows for its spills like `IADD3 R1, R1, -8, RZ`:
 * before, spilling there was the error "a frame of 8 bytes but no `IADD3 R1, R1, -8, RZ`"
 * (tests/devcall's say_then_check on sm_90) */
START_TEST(test_regalloc_frame_viadd)
{
	char *s = listing("\t.vreg\t\t%v0,%v1,%v2,%v3,%v4,%v5,%v6,%s\n",
	                  "\tLDC R1, c[0x0][0x28] ;\n"
	                  "\tVIADD R1, R1, 0xfffffff8 ;\n"
	                  "\tS2R %v0, SR_TID.X ;\n\tS2R %v1, SR_TID.Y ;\n\tS2R %v2, SR_TID.Z ;\n"
	                  "\tS2R %v3, SR_CTAID.X ;\n\tS2R %v4, SR_CTAID.Y ;\n"
	                  "\tS2R %v5, SR_CTAID.Z ;\n\tS2R %v6, SR_LANEID ;\n"
	                  "\tIADD3 %s, %v0, %v1, %v2 ;\n\tIADD3 %s, %s, %v3, %v4 ;\n"
	                  "\tIADD3 %s, %s, %v5, %v6 ;\n"
	                  "\tSTL [R1], %s ;\n"
	                  "\tEXIT ;\n");
	char *at = strstr(s, "EIATTR_FRAME_SIZE");
	ck_assert_ptr_nonnull(at);
	at = strstr(at, "0x00000000");
	memcpy(at, "0x00000008", 10);              /* the .local frame: 8 bytes */
	at = strstr(s, "sm_80");
	memcpy(at, "sm_90", 5);
	T *t = parse(s);
	char *out;

	ck_assert_int_eq(alloc(t, 8), 0);
	ck_assert_int_gt(t->st.spilled, 0);
	out = emit(t, NULL);
	/* the spill area after the frame's 8 bytes (16-aligned), the prologue replaced */
	ck_assert_msg(strstr(out, "IADD3 R1, R1, -0x") && !strstr(out, "VIADD R1"), "%s", out);
	ck_assert_int_gt(fn0(t)->info.frame_size, 16);
	free(out);
	t_free(t);
	free(s);
}
END_TEST

/* an instruction that needs more registers than the limit leaves: a located error */
START_TEST(test_regalloc_too_few)
{
	char *s = listing("\t.vreg\t\t%d[4],%a[2],%b,%c[4],%w[2]\n",
	                  "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	                  "\tS2R %b, SR_TID.X ;\n"
	                  "\tIMAD.WIDE.U32 %w, %b, 0x10, c[0x0][0x160] ;\n"
	                  "\tLDG.E.128 %c, [%w.64] ;\n"
	                  "\tLDG.E.64 %a, [%w.64+0x10] ;\n"
	                  "\tHMMA.1688.F32 %d, %a, %b, %c ;\n"
	                  "\tSTG.E.128 [%w.64], %d ;\n"
	                  "\tEXIT ;\n");
	T *t = parse(s);

	ck_assert_int_eq(alloc(t, 8), -1);
	ck_assert_ptr_nonnull(strstr(t->err, "t.vfsass:"));
	ck_assert_ptr_nonnull(strstr(t->err, "needs more registers than a limit of 8"));
	t_free(t);
	free(s);
	/* and a limit the pass refuses */
	s = listing("\t.vreg\t\t%a\n", "\tS2R %a, SR_TID.X ;\n\tEXIT ;\n");
	t = parse(s);
	ck_assert_int_eq(alloc(t, 4), -1);
	ck_assert_ptr_nonnull(strstr(t->err, "out of range"));
	t_free(t);
	free(s);
}
END_TEST

/* ---- random programs on the simulator --------------------------------------------------- */

typedef struct Gen {
	Buf b;
	uint32_t rng;
	int phys;          /* print physical registers: the hand mapping */
	int nr, np;        /* values %r0.., predicates %p0.. */
	int lab;
} Gen;

static uint32_t
rnd(Gen *g, uint32_t n)
{
	g->rng = g->rng * 1103515245u + 12345u;
	return (g->rng >> 8) % n;
}

/* %rK: R(2 + K) by hand; %a: R42; %c: R44; %pK: PK; %pc: P6 */
static const char *
rr(Gen *g, int k)
{
	static char ring[16][16];
	static int at;
	char *s = ring[at++ & 15];

	snprintf(s, 16, g->phys ? "R%d" : "%%r%d", g->phys ? 2 + k : k);
	return s;
}

static const char *
pp(Gen *g, int k)
{
	static char ring[8][16];
	static int at;
	char *s = ring[at++ & 7];

	snprintf(s, 16, g->phys ? "P%d" : "%%p%d", k);
	return s;
}

static void
op(Gen *g)
{
	int d = (int)rnd(g, (uint32_t)g->nr), a = (int)rnd(g, (uint32_t)g->nr),
	    b = (int)rnd(g, (uint32_t)g->nr), p = (int)rnd(g, (uint32_t)g->np);
	const char *D = rr(g, d), *A = rr(g, a), *B = rr(g, b), *P = pp(g, p);

	switch (rnd(g, 9)) {
	case 0: bp(&g->b, "\tIADD3 %s, %s, %s, RZ ;\n", D, A, B); break;
	case 1: bp(&g->b, "\tLOP3.LUT %s, %s, %s, RZ, 0x96, !PT ;\n", D, A, B); break;
	case 2: bp(&g->b, "\tIMAD %s, %s, 0x%x, %s ;\n", D, A, 2 * rnd(g, 50) + 1, B); break;
	case 3: bp(&g->b, "\tSHF.L.U32 %s, %s, 0x%x, RZ ;\n", D, A, 1 + rnd(g, 5)); break;
	case 4: bp(&g->b, "\t@%s%s IADD3 %s, %s, %s, RZ ;\n", rnd(g, 2) ? "!" : "", P, D, D, A); break;
	case 5: bp(&g->b, "\tSEL %s, %s, %s, %s ;\n", D, A, B, P); break;
	case 6: bp(&g->b, "\tMOV %s, %s ;\n", D, A); break;
	case 7: bp(&g->b, "\tISETP.GE.U32.AND %s, PT, %s, %s, PT ;\n", P, A, B); break;
	default: bp(&g->b, "\tIADD3 %s, %s, 0x%x, RZ ;\n", D, A, rnd(g, 1000)); break;
	}
}

/* a random kernel (seed): the same program with virtual or hand-mapped registers */
static char *
gen(uint32_t seed, int phys, int nr, int np, int nseg)
{
	Gen g = { .rng = seed * 7919u + 1, .phys = phys, .nr = nr, .np = np };
	Buf decl = {0};
	char *s;

	if (!phys) {
		bp(&decl, "\t.vreg\t\t%%a[2],%%c");
		for (int k = 0; k < nr; k++)
			bp(&decl, ",%%r%d", k);
		bp(&decl, "\n\t.vpred\t\t%%pc");
		for (int k = 0; k < np; k++)
			bp(&decl, ",%%p%d", k);
		bp(&decl, "\n");
	}
	const char *A = phys ? "R42" : "%a", *C = phys ? "R44" : "%c", *PC = phys ? "P6" : "%pc";
	bp(&g.b, "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n");
	bp(&g.b, "\tS2R %s, SR_TID.X ;\n", rr(&g, 0));
	bp(&g.b, "\tS2R %s, SR_CTAID.X ;\n", rr(&g, 1));
	bp(&g.b, "\tIMAD %s, %s, 0x80, %s ;\n", rr(&g, 0), rr(&g, 1), rr(&g, 0));
	bp(&g.b, "\tIMAD.WIDE.U32 %s, %s, 0x40, c[0x0][0x160] ;\n", A, rr(&g, 0));
	bp(&g.b, "\tLDG.E %s, [%s.64] ;\n", rr(&g, 1), A);
	for (int k = 2; k < nr; k++)
		bp(&g.b, "\tIADD3 %s, %s, 0x%x, RZ ;\n", rr(&g, k), rr(&g, (int)rnd(&g, (uint32_t)k)),
		   rnd(&g, 4096));
	for (int k = 0; k < np; k++)
		bp(&g.b, "\tISETP.GT.U32.AND %s, PT, %s, %s, PT ;\n", pp(&g, k),
		   rr(&g, (int)rnd(&g, (uint32_t)nr)), rr(&g, (int)rnd(&g, (uint32_t)nr)));
	for (int sgm = 0; sgm < nseg; sgm++) {
		int kind = (int)rnd(&g, 3), n = 3 + (int)rnd(&g, 8);
		if (kind == 1) {
			bp(&g.b, "\t@%s BRA `(.L_x_%d) ;\n", pp(&g, (int)rnd(&g, (uint32_t)np)), g.lab);
			for (int k = 0; k < n; k++)
				op(&g);
			bp(&g.b, ".L_x_%d:\n", g.lab++);
		} else if (kind == 2) {
			bp(&g.b, "\tIMAD.MOV.U32 %s, RZ, RZ, 0x%x ;\n", C, 2 + rnd(&g, 3));
			bp(&g.b, ".L_x_%d:\n", g.lab);
			for (int k = 0; k < n; k++)
				op(&g);
			bp(&g.b, "\tIADD3 %s, %s, -0x1, RZ ;\n", C, C);
			bp(&g.b, "\tISETP.NE.AND %s, PT, %s, RZ, PT ;\n", PC, C);
			bp(&g.b, "\t@%s BRA `(.L_x_%d) ;\n", PC, g.lab++);
		} else {
			for (int k = 0; k < n; k++)
				op(&g);
		}
	}
	for (int k = 16; k < nr; k++)
		bp(&g.b, "\tLOP3.LUT %s, %s, %s, RZ, 0x96, !PT ;\n", rr(&g, k % 16), rr(&g, k % 16),
		   rr(&g, k));
	for (int k = 0; k < 16 && k < nr; k++)
		bp(&g.b, "\tSTG.E [%s.64+0x%x], %s ;\n", A, 4 * k, rr(&g, k));
	bp(&g.b, "\tEXIT ;\n");
	s = listing(phys ? "" : decl.s, g.b.s);
	free(decl.s);
	free(g.b.s);
	return s;
}

static void
tmpname(char *p, size_t n, const char *what)
{
	snprintf(p, n, "/tmp/fiber-regalloc-%d-%s.sass", (int)getpid(), what);
}

/* every buffer after running the listing at path */
static KRun
run(const char *path)
{
	KRun r;
	char name[64];

	memset(&r, 0, sizeof r);
	ck_assert_int_eq(kr_run_generic(path, "a100", FIBER_MODE_FUNCTIONAL, 0, name, sizeof name,
	                                &r), 0);
	ck_assert_msg(r.status == 0, "%s: %s", path, r.err);
	return r;
}

static void
random_case(uint32_t seed, int maxreg, int nr, int np)
{
	char *virt = gen(seed, 0, nr, np, 12), *phys = gen(seed, 1, nr, np, 12);
	char pref[128], pout[128];
	T *ref, *t;
	KRun want, got;

	tmpname(pref, sizeof pref, "ref");
	tmpname(pout, sizeof pout, "out");
	ref = parse(phys);
	free(emit(ref, pref));
	t = parse(virt);
	if (maxreg == 255)
		alloc_checked(t, maxreg);
	else
		ck_assert_msg(alloc(t, maxreg) == 0, "seed %u: %s", seed, t->err);
	ck_assert_int_le(t->st.regs, maxreg);
	if (maxreg < 24)
		ck_assert_msg(t->st.spilled > 0 && t->st.frame > 0, "seed %u: nothing spilled", seed);
	free(emit(t, pout));
	want = run(pref);
	got = run(pout);
	ck_assert_uint_eq(want.n, got.n);
	ck_assert_msg(memcmp(want.buf, got.buf, want.n) == 0, "seed %u, limit %d: the memory "
	              "after the run differs from the hand-mapped program's", seed, maxreg);
	kr_free(&want);
	kr_free(&got);
	t_free(t);
	t_free(ref);
	unlink(pref);
	unlink(pout);
	free(virt);
	free(phys);
}

START_TEST(test_regalloc_random)
{
	random_case((uint32_t)_i, 255, 12 + 2 * _i, 1 + _i % 5);
}
END_TEST

START_TEST(test_regalloc_random_spill)
{
	random_case(100 + (uint32_t)_i, _i % 2 ? 24 : 16, 30 + _i, 1 + _i % 5);
}
END_TEST

/* ten predicates live at once (P0..P6 hold seven): three live in R registers; at the limit 16
 * also values and those R homes in memory. out[t] = 270 t + sum of 2^(16+k) over k < 10 with
 * t (k + 4) > 10 k + 40 */
START_TEST(test_regalloc_predicates)
{
	Buf d = {0}, b = {0};
	char path[128];
	uint32_t want[256];

	bp(&d, "\t.vreg\t\t%%t,%%s,%%a[2]");
	for (int k = 0; k < 20; k++)
		bp(&d, ",%%v%d", k);
	bp(&d, "\n\t.vpred\t\t%%p0");
	for (int k = 1; k < 10; k++)
		bp(&d, ",%%p%d", k);
	bp(&d, "\n");
	bp(&b, "\tIMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n\tS2R %%t, SR_TID.X ;\n");
	for (int k = 0; k < 20; k++)
		bp(&b, "\tIMAD %%v%d, %%t, 0x%x, %%t ;\n", k, k + 3);
	for (int k = 0; k < 10; k++)
		bp(&b, "\tISETP.GT.U32.AND %%p%d, PT, %%v%d, 0x%x, PT ;\n", k, k, 10 * k + 40);
	bp(&b, "\tIADD3 %%s, %%v0, %%v1, RZ ;\n");
	for (int k = 2; k < 20; k++)
		bp(&b, "\tIADD3 %%s, %%s, %%v%d, RZ ;\n", k);
	for (int k = 0; k < 10; k++)
		bp(&b, "\t@%%p%d IADD3 %%s, %%s, 0x%x, RZ ;\n", k, 1u << (16 + k));
	bp(&b, "\tIMAD.WIDE.U32 %%a, %%t, 0x4, c[0x0][0x160] ;\n\tSTG.E [%%a.64], %%s ;\n"
	       "\tEXIT ;\n");
	for (uint32_t t = 0; t < 128; t++) {
		want[t] = 270 * t;
		for (uint32_t k = 0; k < 10; k++)
			if (t * (k + 4) > 10 * k + 40)
				want[t] += 1u << (16 + k);
	}
	for (int lim = 0; lim < 2; lim++) {
		char *s = listing(d.s, b.s);
		T *t = parse(s);
		KRun r;
		if (!lim)
			alloc_checked(t, 255);
		else
			ck_assert_msg(alloc(t, 16) == 0, "%s", t->err);
		ck_assert_int_ge(t->st.spilled, 3);
		ck_assert_int_le(t->st.regs, lim ? 16 : 255);
		tmpname(path, sizeof path, "pred");
		free(emit(t, path));
		r = run(path);
		/* the first buffer: out[] of CTA 0 (grid 2 writes the same words twice) */
		ck_assert_uint_ge(r.n, 512);
		for (uint32_t k = 0; k < 128; k++) {
			uint32_t v;
			memcpy(&v, r.buf + 4 * k, 4);
			ck_assert_msg(v == want[k], "limit %d: out[%u] = %u, want %u", lim ? 16 : 255, k,
			              v, want[k]);
		}
		if (!lim)
			ck_assert_int_eq(t->st.frame, 0);
		else
			ck_assert_int_gt(t->st.frame, 0);
		kr_free(&r);
		unlink(path);
		t_free(t);
		free(s);
	}
	free(d.s);
	free(b.s);
}
END_TEST

/* linear in the program: 40k instructions of random code (loops, branches, copies) in well
 * under a second, also spilling at the limit 16 (even in a sanitizer build: bound 3 s); the
 * spill slots of values that never live at once are shared (the frame stays small) */
START_TEST(test_regalloc_speed)
{
	char *virt = gen(7, 0, 60, 5, 6000);

	for (int lim = 0; lim < 2; lim++) {
		T *t = parse(virt);
		double t0 = now_seconds();
		ck_assert_uint_gt(fn0(t)->nins, 30000);
		ck_assert_int_eq(alloc(t, lim ? 16 : 255), 0);
		ck_assert_msg(now_seconds() - t0 < 3.0, "regalloc took %.2f s for %u instructions",
		              now_seconds() - t0, fn0(t)->nins);
		if (lim) {
			ck_assert_int_gt(t->st.spilled, 1000);
			ck_assert_msg(t->st.frame <= 256, "%d webs spilled into %d bytes", t->st.spilled,
			              t->st.frame);
		}
		t_free(t);
	}
	free(virt);
}
END_TEST

Suite *
regalloc_suite(void)
{
	Suite *s = suite_create("regalloc");
	TCase *tc = tcase_create("Core");
	TCase *rd = tcase_create("Random");

	tcase_add_test(tc, test_regalloc_chain);
	tcase_add_test(tc, test_regalloc_syscall);
	tcase_add_test(tc, test_regalloc_syscall_saved);
	tcase_add_test(tc, test_regalloc_frame_viadd);
	tcase_add_test(tc, test_regalloc_tuples);
	tcase_add_test(tc, test_regalloc_copies);
	tcase_add_test(tc, test_regalloc_undefined);
	tcase_add_test(tc, test_regalloc_listing);
	tcase_add_test(tc, test_regalloc_too_few);
	suite_add_tcase(s, tc);
	tcase_set_timeout(rd, 120);
	tcase_add_loop_test(rd, test_regalloc_random, 0, 12);
	tcase_add_loop_test(rd, test_regalloc_random_spill, 0, 8);
	tcase_add_test(rd, test_regalloc_predicates);
	tcase_add_test(rd, test_regalloc_speed);
	suite_add_tcase(s, rd);
	return s;
}
