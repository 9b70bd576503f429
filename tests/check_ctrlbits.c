/* check_ctrlbits.c: the ctrl-bits pass (backend/ctrlbits.c, docs/pass-ctrl-bits.md).
 *
 * - latency: ir/latency.c's table agrees with timing's configurations (every bundled one, the
 *   FIBER ones too): each fixed latency is the largest value of its key, war_read covers
 *   lat_src_read.
 * - unit: hand-made blocks get the bits a reader computes by hand (a fixed-latency copy before
 *   its consumer, an S2R whose consumer waits, a write after a store's read).
 * - harness: in every block of every function of every example listing (examples/kernels.txt,
 *   sm_80 on a100, sm_90 on h100) instructions are inserted that change no result: a self-move
 *   MOV of a register the next instruction reads, a self-add IADD3 of it, and an S2R into a
 *   register the next instruction overwrites. The listing is emitted, read back (every
 *   instruction must carry control bits: control-bits mode, not mixed) and run in timing mode:
 *   outputs identical to the unedited kernel's and the hazard counter 0. The same listing with
 *   the inserted instructions given nvcc's idle bits ([B------:R-:W-:-:S01]) instead is the
 *   "before" figure (FIBER_CTRLBITS_VERBOSE=1 prints both per kernel).
 */
#define _DEFAULT_SOURCE
#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "codegen.h"
#include "backend.h"
#include "latency.h"
#include "fiber.h"
#include "kernrun.h"
#include "simcfg.h"

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

/* ---- the latency table against timing's configurations ----------------------------------- */

static void
check_table(const SimTiming *t, const char *name, unsigned *mx)
{
	const LatTable *l = &lat_table;
	const unsigned v[] = {t->lat_int, t->lat_fp32, t->lat_imad, t->lat_fp16, t->lat_fp64,
	                      t->lat_uniform, t->lat_umov, t->lat_hmma, t->lat_hmma_small,
	                      t->lat_imma, t->lat_mma_quarter, t->lat_branch};
	const unsigned w[] = {l->lat_int, l->lat_fp32, l->lat_imad, l->lat_fp16, l->lat_fp64,
	                      l->lat_uniform, l->lat_umov, l->lat_hmma, l->lat_hmma_small,
	                      l->lat_imma, l->lat_mma_quarter, l->lat_branch};

	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
		ck_assert_msg(w[k] >= v[k], "%s: key %zu: table %u < config %u", name, k, w[k], v[k]);
		mx[k] = v[k] > mx[k] ? v[k] : mx[k];
	}
	ck_assert_uint_ge(l->war_read, t->lat_src_read);
	ck_assert_uint_ge(lat_max_fixed(), t->lat_hmma);
	ck_assert_uint_ge(lat_max_fixed(), t->lat_imma);
}

START_TEST(latency_table)
{
	static const char *const built[] = {"a100", "h100", "b200"};
	static const char *const files[] = {"a100-fiber", "h100-fiber", "b200-fiber"};
	const LatTable *l = &lat_table;
	const unsigned w[] = {l->lat_int, l->lat_fp32, l->lat_imad, l->lat_fp16, l->lat_fp64,
	                      l->lat_uniform, l->lat_umov, l->lat_hmma, l->lat_hmma_small,
	                      l->lat_imma, l->lat_mma_quarter, l->lat_branch};
	unsigned mx[12] = {0};
	SimConfig c;

	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(simcfg_builtin(&c, built[k]), 0);
		check_table(&c.t, built[k], mx);
	}
	for (int k = 0; k < 3; k++) {
		char path[512], err[256], *text;
		size_t n;
		FILE *fp;
		snprintf(path, sizeof path, "%s/configs/%s.cfg", root(), files[k]);
		fp = fopen(path, "r");
		ck_assert_msg(fp != NULL, "%s", path);
		text = malloc(1 << 16);
		n = fread(text, 1, (1 << 16) - 1, fp);
		fclose(fp);
		ck_assert_msg(simcfg_parse(&c, path, text, n, err, sizeof err) == 0, "%s", err);
		check_table(&c.t, files[k], mx);
		free(text);
	}
	/* not only at least: the largest of them, so that the table follows the configurations */
	for (size_t k = 0; k < sizeof w / sizeof w[0]; k++)
		ck_assert_msg(w[k] == mx[k], "key %zu: table %u, largest configured %u", k, w[k], mx[k]);
}
END_TEST

/* ---- listings ---------------------------------------------------------------------------- */

typedef struct {
	Src *src;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Module *m;
} Lst;

static void
lst_text(Lst *l, const char *name, const char *text)
{
	memset(l, 0, sizeof *l);
	l->errf = open_memstream(&l->err, &l->nerr);
	diag_init(&l->d, NULL, l->errf);
	l->src = src_new(name, text, strlen(text));
	l->d.src = l->src;
	l->m = sass_parse(l->src, &l->d);
	fflush(l->errf);
	ck_assert_msg(l->m != NULL, "%s: %s", name, l->err);
	ck_assert_msg(sass_check(l->m, &l->d) == 0, "%s: %s", name, l->err);
}

static void
lst_path(Lst *l, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text;
	size_t n;

	ck_assert_msg(fp != NULL, "%s", path);
	text = malloc(1 << 22);
	n = fread(text, 1, (1 << 22) - 1, fp);
	text[n] = 0;
	fclose(fp);
	lst_text(l, path, text);
	free(text);
}

static void
lst_close(Lst *l)
{
	module_free(l->m);
	src_free(l->src);
	fclose(l->errf);
	free(l->err);
}

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

/* the first R register instruction i reads (not RZ), RNone if none */
static Reg
first_src(const Ins *i)
{
	for (unsigned j = 0; j < i->nslot; j++)
		if (i->slot[j].kind == SUse && RCLS(i->slot[j].reg) == RR && !reg_isconst(i->slot[j].reg))
			return i->slot[j].reg;
	return RNone;
}

/* the R register i surely overwrites without reading it, RNone if none */
static Reg
dead_dst(const Ins *i)
{
	Reg r = RNone;

	if (i->guarded)
		return RNone;
	for (unsigned j = 0; j < i->nslot && r == RNone; j++)
		if (i->slot[j].kind == SDef && RCLS(i->slot[j].reg) == RR && !reg_isconst(i->slot[j].reg))
			r = i->slot[j].reg;
	for (unsigned j = 0; r != RNone && j < i->nslot; j++)
		if (i->slot[j].kind != SDef)
			for (unsigned m = 0; m < i->slot[j].n; m++)
				if (reg_next(i->slot[j].reg, m) == r)
					return RNone;
	return r;
}

/* one inserted instruction per block, before the middle one: MOV, IADD3 or S2R in turn */
static int
edit_fn(Fn *f, Diag *d)
{
	Module *m = f->mod;
	int n = 0;

	ck_assert_int_eq(cfg_build(f, d), 0);
	dom_build(f);
	for (uint32_t k = 0; k < f->nblk; k++) {
		Blk *b = f->blk[k];
		uint32_t at = b->nins / 2;
		const Ins *next;
		Reg s, t;
		Opnd op[4];
		Ins i;
		if (!b->nins)
			continue;
		next = &b->ins[at];
		s = first_src(next);
		t = dead_dst(next);
		switch (k % 3) {
		case 0:
			if (s == RNone)
				continue;
			op[0] = mkreg(s);
			op[1] = mkreg(s);
			i = proto(m, "MOV", op, 2);
			break;
		case 1:
			if (s == RNone)
				continue;
			op[0] = mkreg(s);
			op[1] = mkreg(s);
			op[2] = mkreg(REG(RR, RegRZ));
			op[3] = mkreg(REG(RR, RegRZ));
			i = proto(m, "IADD3", op, 4);
			break;
		default:
			if (t == RNone)
				continue;
			op[0] = mkreg(t);
			op[1] = mksreg(mintern(m, "SR_TID.X"));
			i = proto(m, "S2R", op, 2);
			break;
		}
		ck_assert_ptr_nonnull(ins_insert(f, b, at, &i));
		n++;
	}
	fn_relayout(f);
	return n;
}

/* the inserted instructions with nvcc's idle bits and ctrl-only words, no pass */
static void
idle_bits(Fn *f)
{
	for (uint32_t k = 0; k < f->nins; k++) {
		Ins *i = &f->ins[k];
		if (!(i->flags & IInserted))
			continue;
		i->ctrl = (Ctrl){ .stall = 1, .yield = 1, .wsb = SbNone, .rsb = SbNone, .has = 1 };
		i->nenc = 2;
		i->enc[0] = i->enc[1] = 0;
	}
}

/* the edited listing of path in a temporary file (malloc'd path); pass: run ctrl-bits */
static char *
edited_copy(const char *path, int pass, int *ninserted)
{
	Lst l;
	char *out = malloc(64);
	FILE *fp;
	int fd;

	strcpy(out, "/tmp/fiber-ctrl-XXXXXX.sass");
	fd = mkstemps(out, 5);
	ck_assert_int_ge(fd, 0);
	fp = fdopen(fd, "w");
	lst_path(&l, path);
	*ninserted = 0;
	for (uint32_t k = 0; k < l.m->nfn; k++) {
		Fn *f = l.m->fn[k];
		*ninserted += edit_fn(f, &l.d);
		if (pass) {
			ck_assert_int_eq(pass_ctrl_bits(f, &l.d), 0);
			fn_relayout(f);
		} else {
			idle_bits(f);
		}
	}
	fflush(l.errf);
	ck_assert_msg(module_outssa(l.m, NULL, &l.d) == 0 && emit_sass(fp, l.m, NULL, &l.d) == 0,
	              "%s", l.err ? l.err : "");
	fclose(fp);
	lst_close(&l);
	return out;
}

/* every instruction of the listing at path carries control bits */
static void
all_have_bits(const char *path)
{
	Lst l;

	lst_path(&l, path);
	for (uint32_t k = 0; k < l.m->nfn; k++)
		for (uint32_t j = 0; j < l.m->fn[k]->nins; j++)
			ck_assert_msg(l.m->fn[k]->ins[j].ctrl.has, "%s: instruction %u of %s has no "
			              "control bits", path, j, mstr(l.m, l.m->fn[k]->name));
	lst_close(&l);
}

/* ---- running a kernels.txt line (tests/kernrun.c) ---------------------------------------- */

/* run one kernels.txt line in timing mode; every buffer after the run (malloc'd, *n bytes),
 * the hazard count and cycles in *hz, *cyc */
static char *
run_line(const char *path, const char *config, const char *line, size_t *n, uint64_t *hz,
         uint64_t *cyc)
{
	KRun r;

	ck_assert_msg(kr_run_line(path, config, FIBER_MODE_TIMING, line, &r) == 0, "%s", r.err);
	ck_assert_msg(r.status == FIBER_SUCCESS, "%s: %s", path, r.err);
	*n = r.n;
	*hz = r.hazards;
	*cyc = r.cycles;
	return r.buf;
}

static char lines[16][2048];
static int nlines;

static void
read_lines(void)
{
	char path[1024], buf[2048];
	FILE *f;

	if (nlines)
		return;
	snprintf(path, sizeof path, "%s/examples/kernels.txt", root());
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(buf, sizeof buf, f) && nlines < 16)
		if (buf[0] != '#' && buf[0] != '\n') {
			buf[strcspn(buf, "\n")] = 0;
			strcpy(lines[nlines++], buf);
		}
	fclose(f);
}

START_TEST(harness_examples)
{
	static const struct { const char *sfx, *config; } arch[] = {{"sm_80", "a100"},
	                                                            {"sm_90", "h100"}};
	int verbose = getenv("FIBER_CTRLBITS_VERBOSE") && *getenv("FIBER_CTRLBITS_VERBOSE") != '0';
	uint64_t before = 0, after = 0;
	char dir[64], orig[1024];

	read_lines();
	ck_assert_int_gt(nlines, 0);
	for (int a = 0; a < 2; a++)
		for (int k = 0; k < nlines; k++) {
			int nins, nins2;
			size_t n0, n1, n2;
			uint64_t h0, h1, h2, c0, c1, c2;
			sscanf(lines[k], "%63s", dir);
			snprintf(orig, sizeof orig, "%s/examples/%s/%s.%s.sass", root(), dir, dir,
			         arch[a].sfx);
			char *ed = edited_copy(orig, 1, &nins), *idle = edited_copy(orig, 0, &nins2);
			ck_assert_int_ge(nins, 2);   /* one per block: bias_silu has 2 */
			ck_assert_int_eq(nins, nins2);
			all_have_bits(ed);
			all_have_bits(idle);
			char *want = run_line(orig, arch[a].config, lines[k], &n0, &h0, &c0);
			char *got = run_line(ed, arch[a].config, lines[k], &n1, &h1, &c1);
			char *got2 = run_line(idle, arch[a].config, lines[k], &n2, &h2, &c2);
			ck_assert_uint_eq(h0, 0);
			ck_assert_uint_eq(n0, n1);
			ck_assert_msg(memcmp(want, got, n0) == 0, "%s %s: the edited kernel gives other "
			              "results", lines[k], arch[a].sfx);
			ck_assert_msg(h1 == 0, "%s %s: %llu hazards after ctrl-bits", dir, arch[a].sfx,
			              (unsigned long long)h1);
			before += h2;
			after += h1;
			if (verbose)
				fprintf(stderr, "ctrlbits: %s %s: %d inserted; hazards %llu with idle bits, "
				        "%llu after ctrl-bits; cycles %llu unedited, %llu after\n", dir,
				        arch[a].sfx, nins, (unsigned long long)h2, (unsigned long long)h1,
				        (unsigned long long)c0, (unsigned long long)c1);
			free(want);
			free(got);
			free(got2);
			unlink(ed);
			unlink(idle);
			free(ed);
			free(idle);
		}
	if (verbose)
		fprintf(stderr, "ctrlbits: hazards %llu with idle bits, %llu after ctrl-bits\n",
		        (unsigned long long)before, (unsigned long long)after);
	/* the harness finds something to fix: without the pass the same edits are hazards */
	ck_assert_uint_gt(before, 0);
	ck_assert_uint_eq(after, 0);
}
END_TEST

/* ---- hand-computed cases ------------------------------------------------------------------ */

static const char hand[] =
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"\t.section\t.text.k,\"ax\",@progbits\n"
	"k:\n"
	"        /*0000*/                   S2R R0, SR_TID.X ;     /* 0x0000000000007919 */\n"
	"                                                          /* 0x000e220000002100 */\n"
	"        /*0010*/                   IADD3 R2, R0, 0x1, RZ ;/* 0x0000000100027810 */\n"
	"                                                          /* 0x001fca0007ffe0ff */\n"
	"        /*0020*/                   STG.E [R2.64], R0 ;    /* 0x0000000002007986 */\n"
	"                                                          /* 0x000fe2000c101904 */\n"
	"        /*0030*/                   EXIT ;                 /* 0x000000000000794d */\n"
	"                                                          /* 0x000fea0003800000 */\n";

/* a MOV R5, R2 inserted after the IADD3: the IADD3 wrote R2 with a stall of 5 (>= lat_int 4),
 * so the copy needs nothing more: stall 1, no scoreboard, no wait, ctrl-only words */
START_TEST(hand_copy)
{
	Lst l;
	Fn *f;
	Opnd op[2] = {mkreg(REG(RR, 5)), mkreg(REG(RR, 2))};
	Ins i;

	lst_text(&l, "hand.sass", hand);
	f = l.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &l.d), 0);
	dom_build(f);
	i = proto(l.m, "MOV", op, 2);
	ck_assert_ptr_nonnull(ins_insert(f, f->blk[0], 2, &i));
	fn_relayout(f);
	ck_assert_int_eq(pass_ctrl_bits(f, &l.d), 0);
	/* the copy: stall 1, no SB, no wait; the IADD3 keeps its stall of 5 */
	ck_assert_uint_eq(f->ins[2].ctrl.has, 1);
	ck_assert_uint_eq(f->ins[2].ctrl.wait, 0);
	ck_assert_uint_eq(f->ins[2].ctrl.wsb, SbNone);
	ck_assert_uint_eq(f->ins[1].ctrl.stall, 5);
	ck_assert_uint_eq(f->ins[2].nenc, 2);
	ck_assert_uint_eq(GET_OPCODE(f->ins[2].enc[0]), 0);
	lst_close(&l);
}
END_TEST

/* an S2R R7 inserted before the STG and an IADD3 R0, R7 after it: the S2R takes a free SB
 * (SB5, the highest), the IADD3 waits on it (R7) and, since the nvcc STG before it reads R0
 * without a scoreboard, issues war_read (20) cycles after the STG: the STG's stall rises from 1
 * to 15 and the S2R's, before it, from 1 to 6 (1 + 15 + ... the distance from the STG to the
 * IADD3 is the STG's stall: 15, plus the 5 the S2R... ) */
START_TEST(hand_var)
{
	Lst l;
	Fn *f;
	Opnd a[2] = {mkreg(REG(RR, 7)), {0}}, b[4] = {mkreg(REG(RR, 0)), mkreg(REG(RR, 7)),
	             mkreg(REG(RR, RegRZ)), mkreg(REG(RR, RegRZ))};
	Ins i;
	Ins *s2r, *stg, *add;
	unsigned dist = 0;

	lst_text(&l, "hand.sass", hand);
	a[1] = mksreg(mintern(l.m, "SR_LANEID"));
	f = l.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &l.d), 0);
	dom_build(f);
	i = proto(l.m, "S2R", a, 2);
	ck_assert_ptr_nonnull(ins_insert(f, f->blk[0], 2, &i));
	i = proto(l.m, "IADD3", b, 4);
	ck_assert_ptr_nonnull(ins_insert(f, f->blk[0], 4, &i));
	fn_relayout(f);
	ck_assert_int_eq(pass_ctrl_bits(f, &l.d), 0);
	fn_relayout(f);
	s2r = &f->ins[2];
	stg = &f->ins[3];
	ck_assert_int_eq(s2r->op, OS2R);
	ck_assert_int_eq(stg->op, OSTG);
	add = &f->ins[f->nins - 2];
	ck_assert_int_eq(add->op, OIADD3);
	/* S2R R7: write SB5, no wait */
	ck_assert_uint_eq(s2r->ctrl.wsb, 5);
	ck_assert_uint_eq(s2r->ctrl.wait, 0);
	/* the STG keeps its scoreboards (none) */
	ck_assert_uint_eq(stg->ctrl.rsb, SbNone);
	ck_assert_uint_eq(stg->ctrl.wsb, SbNone);
	/* IADD3 R0, R7 waits on SB5 */
	ck_assert_uint_eq(add->ctrl.wait, 1u << 5);
	/* and issues at least 20 cycles after the STG */
	for (Ins *p = stg; p < add; p++)
		dist += p->ctrl.stall ? p->ctrl.stall : 1;
	ck_assert_uint_ge(dist, lat_table.war_read);
	ck_assert_uint_eq(stg->ctrl.stall, 15);
	lst_close(&l);
}
END_TEST

Suite *
ctrlbits_suite(void)
{
	Suite *s = suite_create("ctrlbits");
	TCase *t = tcase_create("table"), *u = tcase_create("hand"), *k = tcase_create("harness");

	tcase_add_test(t, latency_table);
	tcase_add_test(u, hand_copy);
	tcase_add_test(u, hand_var);
	tcase_set_timeout(k, 900);
	tcase_add_test(k, harness_examples);
	suite_add_tcase(s, t);
	suite_add_tcase(s, u);
	suite_add_tcase(s, k);
	return s;
}
