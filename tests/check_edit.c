/* check_edit.c: the edit API (ir/edit.c) and relayout (backend/layout.c).
 *
 * Unit tests: def-use lists after insert, delete and replace; ins_permute (in place, pinned
 * positions, during an edit); the operand constructors of ir.h as printed; relayout moves the
 * .nv.info exit offsets by 16 bytes per instruction inserted before them and keeps them on EXIT
 * instructions.
 * Kernel tests: a NOP, a self-move MOV and a BRA to the next instruction are inserted into every
 * function of every example kernel (examples/kernels.txt, sm_80 and sm_90 listings), the module
 * is re-emitted to a temporary file and run by the runtime with fixed inputs, in functional and
 * timing mode: every buffer must equal the unedited run's.
 */
#define _DEFAULT_SOURCE
#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "backend.h"
#include "fiber.h"
#include "kernrun.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

typedef struct {
	Src *src;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Module *m;
} Lst;

static void
lst_open(Lst *l, const char *rel)
{
	char path[1024];

	memset(l, 0, sizeof *l);
	snprintf(path, sizeof path, "%s/%s", root(), rel);
	l->errf = open_memstream(&l->err, &l->nerr);
	diag_init(&l->d, NULL, l->errf);
	l->src = src_read(path, &l->d);
	ck_assert_msg(l->src != NULL, "cannot read %s", path);
	l->d.src = l->src;
	l->m = sass_parse(l->src, &l->d);
	fflush(l->errf);
	ck_assert_msg(l->m != NULL, "%s: %s", rel, l->err);
	ck_assert_int_eq(sass_check(l->m, &l->d), 0);
}

static const char *
lst_errors(Lst *l)
{
	fflush(l->errf);
	return l->err ? l->err : "";
}

static void
lst_close(Lst *l)
{
	module_free(l->m);
	src_free(l->src);
	fclose(l->errf);
	free(l->err);
}

/* a prototype instruction: opcode name and up to two operands */
static Ins
proto(Module *m, const char *name, Opnd *op, int nop)
{
	Ins i;

	memset(&i, 0, sizeof i);
	i.op = (uint16_t)op_lookup(name, strlen(name));
	i.name = mintern(m, name);
	i.nopnd = (uint8_t)nop;
	i.opnd = op;
	i.addr = -1;
	return i;
}

/* insert a NOP at the entry block's start, a self-move MOV R0, R0 after it, a BRA to the next
 * instruction in the middle of the first block with two instructions or more, and a NOP at the
 * start of every block that begins with EXIT (its label moves: the exit offset must follow);
 * returns the number of instructions inserted */
static int
edit_fn(Fn *f, Diag *d)
{
	Module *m = f->mod;
	Opnd mov[2] = {mkreg(REG(RR, 0)), mkreg(REG(RR, 0))}, bra;
	Ins nop = proto(m, "NOP", NULL, 0), mv = proto(m, "MOV", mov, 2), br;
	Blk *b0 = NULL;
	int n = 0;

	ck_assert_int_eq(cfg_build(f, d), 0);
	dom_build(f);
	for (uint32_t k = 0; k < f->nblk && !b0; k++)
		if (f->blk[k]->nins)
			b0 = f->blk[k];
	if (!b0)
		return 0;
	ck_assert_ptr_nonnull(ins_insert(f, b0, 0, &nop));
	ck_assert_ptr_nonnull(ins_insert(f, b0, 1, &mv));
	n += 2;
	for (uint32_t k = 0; k < f->nblk; k++) {
		Blk *b = f->blk[k];
		if (b->nins >= 2 && b->ins[b->nins - 1].op != OEXIT) {
			memset(&bra, 0, sizeof bra);
			bra.kind = OLabel;
			bra.atom = ins_label(f, b, 1);
			bra.imm = -1;
			br = proto(m, "BRA", &bra, 1);
			ck_assert_ptr_nonnull(ins_insert(f, b, 1, &br));
			n++;
			break;
		}
	}
	for (uint32_t k = 0; k < f->nblk; k++) {
		Blk *b = f->blk[k];
		if (b->nins && b->ins[0].op == OEXIT) {
			ck_assert_ptr_nonnull(ins_insert(f, b, 0, &nop));
			n++;
		}
	}
	return n;
}

/* ---- running a kernel of examples/kernels.txt (tests/kernrun.c) ---------------------- */

/* run one kernels.txt line on the listing at path; every buffer after the run (malloc'd) */
static char *
run_line(const char *path, const char *config, fiberSimMode mode, const char *line, size_t *n)
{
	KRun r;

	ck_assert_msg(kr_run_line(path, config, mode, line, &r) == 0, "%s", r.err);
	ck_assert_msg(r.status == FIBER_SUCCESS, "%s: %s", path, r.err);
	*n = r.n;
	return r.buf;
}

/* the edited listing of rel, in a temporary file (malloc'd path) */
static char *
edited_copy(const char *rel, int *ninserted)
{
	Lst l;
	char *path = malloc(64);
	FILE *out;
	int fd;

	strcpy(path, "/tmp/fiber-edit-XXXXXX.sass");
	fd = mkstemps(path, 5);
	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	lst_open(&l, rel);
	*ninserted = 0;
	for (uint32_t k = 0; k < l.m->nfn; k++)
		*ninserted += edit_fn(l.m->fn[k], &l.d);
	ck_assert_msg(module_outssa(l.m, NULL, &l.d) == 0 && emit_sass(out, l.m, NULL, &l.d) == 0, "%s",
	              lst_errors(&l));
	fclose(out);
	lst_close(&l);
	return path;
}

static char lines[16][2048];
static int nlines;

static void
read_lines(void)
{
	char path[1024];

	if (nlines)
		return;
	snprintf(path, sizeof path, "%s/examples/kernels.txt", root());
	nlines = kr_read_lines(path, lines, 16);
	ck_assert_int_gt(nlines, 0);
}

START_TEST(kernels_edited)
{
	static const struct { const char *sfx, *config; } arch[] = {{"sm_80", "a100"},
	                                                            {"sm_90", "h100"}};
	char dir[64], rel[256], orig[1024];
	int ninserted;

	read_lines();
	ck_assert_int_gt(nlines, 0);
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < nlines; k++) {
			sscanf(lines[k], "%63s", dir);
			snprintf(rel, sizeof rel, "examples/%s/%s.%s.sass", dir, dir, arch[a].sfx);
			snprintf(orig, sizeof orig, "%s/%s", root(), rel);
			char *ed = edited_copy(rel, &ninserted);
			ck_assert_int_ge(ninserted, 3);
			for (int mode = 0; mode < 2; mode++) {
				fiberSimMode md = mode ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL;
				size_t n0, n1;
				char *want = run_line(orig, arch[a].config, md, lines[k], &n0);
				char *got = run_line(ed, arch[a].config, md, lines[k], &n1);
				ck_assert_uint_eq(n0, n1);
				ck_assert_msg(memcmp(want, got, n0) == 0, "%s (%s mode): the edited kernel "
				              "gives other results", lines[k], mode ? "timing" : "functional");
				free(want);
				free(got);
			}
			unlink(ed);
			free(ed);
		}
}
END_TEST

/* ---- relayout ---------------------------------------------------------------------------- */

/* the exit offsets of every function of the edited softmax listing, read back, name EXITs and
 * moved by 16 per instruction inserted before them */
START_TEST(relayout_exit_offsets)
{
	Lst a, b;
	int n;
	char *ed = edited_copy("examples/softmax/softmax.sm_80.sass", &n);

	lst_open(&a, "examples/softmax/softmax.sm_80.sass");
	b.m = NULL;
	{
		char rel[1024];
		/* lst_open takes a path relative to the root: give it the absolute one */
		snprintf(rel, sizeof rel, "%s", ed);
		memset(&b, 0, sizeof b);
		b.errf = open_memstream(&b.err, &b.nerr);
		diag_init(&b.d, NULL, b.errf);
		b.src = src_read(rel, &b.d);
		ck_assert_ptr_nonnull(b.src);
		b.d.src = b.src;
		b.m = sass_parse(b.src, &b.d);
		ck_assert_msg(b.m != NULL, "%s", lst_errors(&b));
	}
	ck_assert_uint_eq(a.m->nfn, b.m->nfn);
	for (uint32_t k = 0; k < a.m->nfn; k++) {
		Fn *f = a.m->fn[k], *g = b.m->fn[k];
		ck_assert_uint_eq(f->info.nexit, g->info.nexit);
		ck_assert_uint_eq(g->nins, f->nins + (uint32_t)0 + (g->nins - f->nins));
		for (uint32_t j = 0; j < g->info.nexit; j++) {
			uint32_t at = g->info.exit_off[j] / 16, old = f->info.exit_off[j] / 16, before = 0;
			ck_assert_uint_lt(at, g->nins);
			ck_assert_int_eq(g->ins[at].op, OEXIT);
			/* the inserted instructions have no encoding words: count those before it */
			for (uint32_t i = 0; i < at; i++)
				before += g->ins[i].nenc == 0;
			ck_assert_uint_eq(at, old + before);
		}
	}
	lst_close(&a);
	lst_close(&b);
	unlink(ed);
	free(ed);
}
END_TEST

/* an unedited module is left alone by the relayout step */
START_TEST(relayout_unedited)
{
	Lst l;

	lst_open(&l, "examples/softmax/softmax.sm_80.sass");
	Fn *f = l.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &l.d), 0);
	ck_assert_int_eq(fn_edited(f), 0);
	ck_assert_int_eq(layout_fn(f, &l.d), 0);
	ck_assert_int_eq(fn_relayout(f), 0);
	lst_close(&l);
}
END_TEST

/* ---- the edit API on SSA form ------------------------------------------------------------ */

static const char small[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   S2R R0, SR_TID.X ;\n"
	"        /*0010*/                   IADD3 R2, R0, 0x1, RZ ;\n"
	"        /*0020*/                   IADD3 R3, R2, R0, RZ ;\n"
	"        /*0030*/                   EXIT ;\n";

static int
nuse_by(const Fn *f, uint32_t v, const Ins *i)
{
	int n = 0;

	for (uint32_t u = 0; u < f->val[v].nuse; u++)
		n += !f->val[v].use[u].isphi && f->val[v].use[u].ins == i;
	return n;
}

static uint32_t
defval(const Ins *i)
{
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SDef)
			return i->slot[j].v[0];
	return 0;
}

static Lst *
small_ssa(void)
{
	static Lst l;

	memset(&l, 0, sizeof l);
	l.errf = open_memstream(&l.err, &l.nerr);
	l.src = src_new("small.sass", small, sizeof small - 1);
	diag_init(&l.d, l.src, l.errf);
	l.m = sass_parse(l.src, &l.d);
	ck_assert_msg(l.m != NULL, "%s", lst_errors(&l));
	Fn *f = l.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &l.d), 0);
	dom_build(f);
	ck_assert_int_eq(ssa_build(f, &l.d), 0);
	ssa_uses(f);
	return &l;
}

START_TEST(uses_after_insert)
{
	Lst *l = small_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	uint32_t r0 = defval(&b->ins[0]);
	Opnd mv[2] = {mkreg(REG(RR, 4)), mkreg(REG(RR, 0))};
	Ins p = proto(l->m, "MOV", mv, 2), *i;

	ck_assert_uint_eq(f->val[r0].nuse, 2);
	/* at the start: every instruction moves, and the block gets an array of its own */
	i = ins_insert(f, b, 1, &p);
	ck_assert_ptr_nonnull(i);
	ck_assert_uint_eq(b->nins, 5);
	/* the new MOV defines R4 with a new value; its use reads R0's value once set */
	uint32_t r4 = defval(i);
	ck_assert_uint_ne(r4, 0);
	ck_assert_ptr_eq(f->val[r4].def, i);
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SUse)
			ins_setuse(f, i, j, 0, r0);
	ck_assert_uint_eq(f->val[r0].nuse, 3);
	ck_assert_int_eq(nuse_by(f, r0, i), 1);
	/* the IADD3s moved one down: their uses and definitions point at their new places */
	ck_assert_int_eq(nuse_by(f, r0, &b->ins[2]), 1);
	ck_assert_int_eq(nuse_by(f, r0, &b->ins[3]), 1);
	ck_assert_ptr_eq(f->val[defval(&b->ins[2])].def, &b->ins[2]);
	ck_assert_ptr_eq(f->val[defval(&b->ins[0])].def, &b->ins[0]);
	/* relayout: Fn.ins is the blocks again, and the pointers follow */
	ck_assert_int_eq(fn_relayout(f), 1);
	ck_assert_uint_eq(f->nins, 5);
	ck_assert_ptr_eq(b->ins, f->ins + (b->ins - f->ins));
	ck_assert_ptr_eq(f->val[r4].def, &f->ins[1]);
	ck_assert_int_eq(nuse_by(f, r0, &f->ins[1]), 1);
	ck_assert_msg(verify_fn(f, &l->d) == 0, "%s", lst_errors(l));
	lst_close(l);
}
END_TEST

START_TEST(uses_after_delete)
{
	Lst *l = small_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	uint32_t r0 = defval(&b->ins[0]), r2 = defval(&b->ins[1]);

	/* R2 is still read by the second IADD3: refused */
	ck_assert_int_eq(ins_delete(f, b, 1), -1);
	ck_assert_uint_eq(b->nins, 4);
	/* the second IADD3 defines R3, which nothing reads */
	ck_assert_int_eq(ins_delete(f, b, 2), 0);
	ck_assert_uint_eq(b->nins, 3);
	ck_assert_uint_eq(f->val[r0].nuse, 1);
	ck_assert_uint_eq(f->val[r2].nuse, 0);
	ck_assert_int_eq(b->ins[2].op, OEXIT);
	/* now R2 is free to go */
	ck_assert_int_eq(ins_delete(f, b, 1), 0);
	ck_assert_uint_eq(f->val[r0].nuse, 0);
	fn_relayout(f);
	ck_assert_uint_eq(f->nins, 2);
	ck_assert_msg(verify_fn(f, &l->d) == 0, "%s", lst_errors(l));
	lst_close(l);
}
END_TEST

START_TEST(uses_after_replace)
{
	Lst *l = small_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	uint32_t r0 = defval(&b->ins[0]), r2 = defval(&b->ins[1]);
	Opnd mv[2] = {mkreg(REG(RR, 2)), mkreg(REG(RR, 0))}, other[2] = {mkreg(REG(RR, 5)),
	                                                                         mkreg(REG(RR, 0))};
	Ins p = proto(l->m, "MOV", mv, 2), q = proto(l->m, "MOV", other, 2), *i;

	/* a MOV into R5 cannot stand for the IADD3 whose R2 is still read */
	ck_assert_ptr_null(ins_replace(f, b, 1, &q));
	ck_assert_ptr_eq(f->val[r2].def, &b->ins[1]);
	/* MOV R2, R0 can: R2's value stays, now defined by the MOV */
	i = ins_replace(f, b, 1, &p);
	ck_assert_ptr_nonnull(i);
	ck_assert_int_eq(i->op, OMOV);
	ck_assert_uint_eq(defval(i), r2);
	ck_assert_ptr_eq(f->val[r2].def, i);
	ck_assert_uint_eq(f->val[r2].nuse, 1);
	/* the IADD3's use of R0 left; the MOV's use is set by the caller */
	ck_assert_uint_eq(f->val[r0].nuse, 1);
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SUse)
			ins_setuse(f, i, j, 0, r0);
	ck_assert_uint_eq(f->val[r0].nuse, 2);
	ck_assert_int_eq(fn_relayout(f), 1);
	ck_assert_ptr_eq(f->val[r2].def, &f->ins[1]);
	ck_assert_msg(verify_fn(f, &l->d) == 0, "%s", lst_errors(l));
	lst_close(l);
}
END_TEST

/* ---- the operand constructors of ir.h, as the printer spells what they make -------------- */

START_TEST(constructors_spelt)
{
	Lst *l = small_ssa();
	Fn *f = l->m->fn[0];
	uint32_t mods[2] = {mintern(l->m, "MOV"), mintern(l->m, "U32")};
	Opnd imad[4] = {mkreg(REG(RR, 1)), mkreg(REG(RR, RegRZ)), mkreg(REG(RR, RegRZ)),
	                mkcbank(0, 0x28)};
	Opnd ldl[2] = {mkreg(REG(RR, 2)), mkmem(REG(RR, 1), 0x8)};
	Opnd iadd[4] = {mkreg(REG(RR, 1)), mkreg(REG(RR, 1)), mkimm(-0x10), mkreg(REG(RR, RegRZ))};
	Opnd s2r[2] = {mkreg(REG(RUR, 4)), mksreg(mintern(l->m, "SR_CTAID.X"))};
	Ins i = proto(l->m, "IMAD", imad, 4);
	char buf[128];

	i.mod = mods;
	i.nmod = 2;
	fmt_ins(buf, sizeof buf, f, &i, 0);
	ck_assert_str_eq(buf, "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;");
	i = proto(l->m, "LDL", ldl, 2);
	fmt_ins(buf, sizeof buf, f, &i, 0);
	ck_assert_str_eq(buf, "LDL R2, [R1+0x8] ;");
	i = proto(l->m, "IADD3", iadd, 4);
	fmt_ins(buf, sizeof buf, f, &i, 0);
	ck_assert_str_eq(buf, "IADD3 R1, R1, -0x10, RZ ;");
	i = proto(l->m, "S2UR", s2r, 2);
	fmt_ins(buf, sizeof buf, f, &i, 0);
	ck_assert_str_eq(buf, "S2UR UR4, SR_CTAID.X ;");
	ck_assert_int_eq(iadd[2].flags, FHex);
	ck_assert_int_eq(s2r[0].flags, 0);
	ck_assert_int_eq(ldl[1].r[1], RNone);
	lst_close(l);
}
END_TEST

/* ---- ins_permute --------------------------------------------------------------------------- */

/* two independent IADD3s (positions 1 and 2) that a scheduler may swap */
static const char pair[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   S2R R0, SR_TID.X ;\n"
	"        /*0010*/                   IADD3 R2, R0, 0x1, RZ ;\n"
	"        /*0020*/                   IADD3 R3, R0, 0x2, RZ ;\n"
	"        /*0030*/                   IADD3 R4, R2, R3, RZ ;\n"
	"        /*0040*/                   EXIT ;\n";

static Lst *
pair_ssa(void)
{
	static Lst l;

	memset(&l, 0, sizeof l);
	l.errf = open_memstream(&l.err, &l.nerr);
	l.src = src_new("pair.sass", pair, sizeof pair - 1);
	diag_init(&l.d, l.src, l.errf);
	l.m = sass_parse(l.src, &l.d);
	ck_assert_msg(l.m != NULL, "%s", lst_errors(&l));
	Fn *f = l.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &l.d), 0);
	dom_build(f);
	ck_assert_int_eq(ssa_build(f, &l.d), 0);
	ssa_uses(f);
	return &l;
}

static const uint32_t swap12[5] = {0, 2, 1, 3, 4};

START_TEST(permute_in_place)
{
	Lst *l = pair_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	uint32_t r0 = defval(&b->ins[0]), r2 = defval(&b->ins[1]), r3 = defval(&b->ins[2]);

	ck_assert_uint_eq(b->nins, 5);
	ck_assert_int_eq(ins_permute(f, b, swap12), 2);
	/* the instructions moved, the addresses stayed with the positions */
	ck_assert_uint_eq(defval(&b->ins[1]), r3);
	ck_assert_uint_eq(defval(&b->ins[2]), r2);
	ck_assert_int_eq(b->ins[1].addr, 0x10);
	ck_assert_int_eq(b->ins[2].addr, 0x20);
	/* definitions and uses point at the new places */
	ck_assert_ptr_eq(f->val[r3].def, &b->ins[1]);
	ck_assert_ptr_eq(f->val[r2].def, &b->ins[2]);
	ck_assert_int_eq(nuse_by(f, r0, &b->ins[1]), 1);
	ck_assert_int_eq(nuse_by(f, r0, &b->ins[2]), 1);
	/* no edit: Fn.ins is still the blocks, nothing to lay out again */
	ck_assert_ptr_eq(b->ins, f->ins);
	ck_assert_int_eq(fn_edited(f), 0);
	ck_assert_int_eq(fn_relayout(f), 0);
	ck_assert_msg(verify_fn(f, &l->d) == 0, "%s", lst_errors(l));
	/* the identity moves nothing */
	ck_assert_int_eq(ins_permute(f, b, (const uint32_t[]){0, 1, 2, 3, 4}), 0);
	lst_close(l);
}
END_TEST

START_TEST(permute_refused)
{
	Lst *l = pair_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	uint32_t r2 = defval(&b->ins[1]);

	/* not a permutation */
	ck_assert_int_eq(ins_permute(f, b, (const uint32_t[]){0, 1, 1, 3, 4}), -1);
	ck_assert_int_eq(ins_permute(f, b, (const uint32_t[]){0, 1, 5, 3, 4}), -1);
	/* a label pins its instruction */
	b->ins[2].label = mintern(l->m, ".L_x_9");
	ck_assert_int_eq(ins_permute(f, b, swap12), -1);
	b->ins[2].label = 0;
	/* so does an extra label, named by its index in Fn.xlabel */
	f->xlabel = xmalloc(2 * sizeof *f->xlabel);
	f->xlabel[0] = (uint32_t)(b->ins - f->ins) + 1;
	f->xlabel[1] = mintern(l->m, ".L_x_8");
	f->nxlabel = 1;
	ck_assert_int_eq(ins_permute(f, b, swap12), -1);
	/* nothing moved */
	ck_assert_uint_eq(defval(&b->ins[1]), r2);
	ck_assert_ptr_eq(f->val[r2].def, &b->ins[1]);
	/* the pinned position may keep its instruction while others move */
	f->xlabel[0] = (uint32_t)(b->ins - f->ins) + 3;
	ck_assert_int_eq(ins_permute(f, b, swap12), 2);
	lst_close(l);
}
END_TEST

/* during an edit (the block has its own array, Fn.ins is stale) the pins of the edit count */
START_TEST(permute_after_insert)
{
	Lst *l = pair_ssa();
	Fn *f = l->m->fn[0];
	Blk *b = f->blk[0]->nins ? f->blk[0] : f->blk[1];
	Ins nop = proto(l->m, "NOP", NULL, 0);
	uint32_t r2 = defval(&b->ins[1]), r3 = defval(&b->ins[2]);

	ck_assert_ptr_nonnull(ins_insert(f, b, 4, &nop));
	ck_assert_uint_eq(b->nins, 6);
	ck_assert_uint_ne(ins_label(f, b, 2), 0);
	ck_assert_int_eq(ins_permute(f, b, (const uint32_t[]){0, 2, 1, 3, 4, 5}), -1);
	ck_assert_int_eq(ins_permute(f, b, (const uint32_t[]){0, 1, 2, 4, 3, 5}), 2);
	ck_assert_int_eq(b->ins[3].op, ONOP);
	ck_assert_int_eq(fn_relayout(f), 1);
	/* relayout: the new order, addresses 16 per instruction */
	ck_assert_int_eq(f->ins[3].op, ONOP);
	ck_assert_int_eq(f->ins[4].op, OIADD3);
	ck_assert_int_eq(f->ins[4].addr, 0x40);
	ck_assert_ptr_eq(f->val[r2].def, &f->ins[1]);
	ck_assert_ptr_eq(f->val[r3].def, &f->ins[2]);
	ck_assert_msg(verify_fn(f, &l->d) == 0, "%s", lst_errors(l));
	lst_close(l);
}
END_TEST

Suite *
edit_suite(void)
{
	Suite *s = suite_create("edit");
	TCase *u = tcase_create("api"), *r = tcase_create("relayout"), *k = tcase_create("kernels");

	tcase_add_test(u, uses_after_insert);
	tcase_add_test(u, uses_after_delete);
	tcase_add_test(u, uses_after_replace);
	tcase_add_test(u, constructors_spelt);
	tcase_add_test(u, permute_in_place);
	tcase_add_test(u, permute_refused);
	tcase_add_test(u, permute_after_insert);
	tcase_add_test(r, relayout_exit_offsets);
	tcase_add_test(r, relayout_unedited);
	tcase_set_timeout(k, 600);
	tcase_add_test(k, kernels_edited);
	suite_add_tcase(s, u);
	suite_add_tcase(s, r);
	suite_add_tcase(s, k);
	return s;
}
