/* check_ctrlbits.c: the ctrl-bits pass (backend/ctrlbits.c, docs/pass-ctrl-bits.md).
 *
 * - latency: the table the Makefile generates for ir/latency.c has every built-in configuration
 *   (the FIBER ones too) with the value timing/config.c reads for each key; for every opcode row
 *   and every MMA shape, on each configuration and on sm_80 and sm_90, the passes' class and
 *   latency (lat_kind) are the timing layer's (tins_build), and the planned latency the largest;
 *   LatWarRead covers lat_src_read.
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
#include "smmodel.h"

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

/* ---- the passes' latency of every opcode against the timing layer's ------------------------ */

/* build/timing/configs.c: {name, text} of each built-in configuration, then {NULL, NULL} */
extern const char *const simcfg_builtin_text[][2];

/* the configuration key of each OpLatKey, as the configuration reader spells it */
static const char *const key_name[NLatKey] = {
#define LK(name, key) [Lk##name] = #key,
#include "latkeys.h"
#undef LK
};

/* every MMA shape of docs/opcodes.md that nvcc writes, and IMAD.WIDE */
static const char mma_text[] =
	"\t.section\t.text.kern,\"ax\",@progbits\nkern:\n"
	"        /*0000*/ HMMA.16816.F32 R4, R8, R12, R4 ;\n"
	"        /*0010*/ HMMA.16816.F16 R4, R8, R12, R4 ;\n"
	"        /*0020*/ HMMA.16816.F32.BF16 R4, R8, R12, R4 ;\n"
	"        /*0030*/ HMMA.1688.F32 R4, R8, R12, R4 ;\n"
	"        /*0040*/ HMMA.1688.F32.TF32 R4, R8, R12, R4 ;\n"
	"        /*0050*/ HMMA.1684.F32.TF32 R4, R8, R12, R4 ;\n"
	"        /*0060*/ IMMA.16832.S8.S8 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*0070*/ IMMA.16816.S8.S8 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*0080*/ IMMA.8816.S8.S8 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*0090*/ IMMA.16864.S4.S4 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00a0*/ IMMA.8832.S4.S4 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00b0*/ IMMA.16832.S4.S4 R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00c0*/ BMMA.168256.AND.POPC R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00d0*/ BMMA.168128.AND.POPC R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00e0*/ BMMA.88128.AND.POPC R4, R8.ROW, R12.COL, R4 ;\n"
	"        /*00f0*/ DMMA.884 R4, R8, R12, R4 ;\n"
	"        /*0100*/ DMMA.16x8x16 R20, R40, R60, R20 ;\n"
	"        /*0110*/ DMMA.16x8x4 R20, R40, R60, R20 ;\n"
	"        /*0120*/ IMAD.WIDE R2, R3, R4, R6 ;\n"
	"        /*0130*/ EXIT ;\n";

/* a disagreement between the passes and the timing layer unless ok: counted, and described on
 * why unless it is NULL */
typedef struct Disagree {
	const LatConfig *l;    /* the configuration */
	int sm;                /* the architecture the passes plan for */
	FILE *why;             /* where each disagreement is described, or NULL */
	unsigned n;            /* disagreements so far */
} Disagree;

static void
expect(Disagree *x, int ok, const Ins *i, const TIns *ti, const char *what)
{
	if (ok)
		return;
	x->n++;
	if (x->why)
		fprintf(x->why, "%s sm_%d %s: %s (timing: kind %u cls %u lat %u)\n", x->l->name, x->sm,
		        optab[i->op].name, what, ti->kind, ti->cls, ti->lat);
}

/* the passes' view of i with configuration x->l (ir/latency.h) against the timing layer's, ti,
 * on the same configuration (timing/sm.c); a warpgroup MMA (KGmma) completes into its wgmma
 * group at the key's latency (docs/sim-wgmma.md) */
static void
lat_compare(Disagree *x, const Module *m, const Ins *i, const TIns *ti)
{
	const OpInfo *o = &optab[i->op];
	const LatConfig *l = x->l;
	unsigned cyc, planned;
	int kind = lat_kind_in(l, m, i, x->sm, &cyc), key = lat_key(m, i);

	expect(x, lat_kind(m, i, x->sm, &planned) == kind, i, ti, "the planned class is another");
	if (kind == LatNone)
		expect(x, key == LkNone && (ti->kind == KDepbar || ti->kind == KLdgdepbar), i, ti,
		       "LatNone, but timing has a result");
	if (kind == LatFixed) {
		expect(x, ti->kind == KAlu && (ti->cls == TcFixed || ti->cls == TcTensor), i, ti,
		       "LatFixed, but timing scoreboards it");
		expect(x, ti->lat == cyc, i, ti, "another fixed latency");
		expect(x, planned == lat_planned(key) && planned >= cyc, i, ti,
		       "planned below the configured");
	}
	/* the passes scoreboard FP64 and R2UR on sm_8x, where timing has them fixed */
	if (kind == LatVar)
		expect(x, ti->cls != TcFixed || ((o->flags & OFVarSm8x) && x->sm < 90), i, ti,
		       "LatVar, but timing has a fixed latency");
	if (key == LkMem)
		expect(x, ti->kind == KMem || ti->kind == KLdgsts || ti->kind == KMembar, i, ti,
		       "the memory model's, but timing has a latency");
	else if (key != LkNone)
		expect(x, (ti->kind == KAlu || ti->kind == KMio || ti->kind == KGmma) &&
		          ti->lat == (l->cycles[key] ? l->cycles[key] : 1), i, ti,
		       "another key's latency");
}

/* tins_build over p on configuration c */
static TIns *
timing_view(SimConfig *c, const Prog *p)
{
	TLaunch L;

	memset(&L, 0, sizeof L);
	L.cfg = c;
	L.t = &c->t;
	L.prog = p;
	L.nsub = 4;
	tins_build(&L);
	return L.ti;
}

/* the disagreements over every opcode row (no operands, no modifiers) and every instruction of
 * the MMA listing m, on sm_80 and sm_90, with configuration l and c its SimConfig; *n counts
 * the instructions compared */
static unsigned
lat_compare_all(const LatConfig *l, SimConfig *c, const Module *m, FILE *why, unsigned *n)
{
	Prog p;
	Gpu *g = gpu_new(simcfg_gpu(c));
	Diag d;
	SimModule *sm;
	const Prog *k;
	TIns *rows, *mma;
	Disagree x = {l, 0, why, 0};

	memset(&p, 0, sizeof p);
	p.nins = NOp;
	p.ins = calloc(NOp + 1, sizeof *p.ins);
	for (unsigned op = 0; op <= NOp; op++) {
		p.ins[op].op = (uint16_t)(op < NOp ? op : ONOP);
		p.ins[op].unit = optab[p.ins[op].op].unit;
		p.ins[op].guard = -1;
	}
	rows = timing_view(c, &p);
	diag_init(&d, NULL, stderr);
	sm = sim_module_load(g, (Module *)m, &d);
	ck_assert_ptr_nonnull(sm);
	k = sim_module_kernel(sm, "kern");
	ck_assert_ptr_nonnull(k);
	mma = timing_view(c, k);
	for (x.sm = 80; x.sm <= 90; x.sm += 10) {
		for (unsigned op = 0; op < NOp; op++, ++*n) {
			Ins i;
			memset(&i, 0, sizeof i);
			i.op = (uint16_t)op;
			lat_compare(&x, m, &i, &rows[op]);
		}
		for (uint32_t q = 0; q < m->fn[0]->nins; q++, ++*n)
			lat_compare(&x, m, &m->fn[0]->ins[q], &mma[q]);
	}
	free(mma);
	free(rows);
	free(p.ins);
	sim_module_free(sm);
	gpu_free(g);
	return x.n;
}

/* configs/NAME.cfg as committed, through the configuration reader */
static void
config_file(SimConfig *c, const char *name)
{
	char path[512], err[256], *text = malloc(1 << 16);
	size_t n;
	FILE *fp;

	snprintf(path, sizeof path, "%s/configs/%s.cfg", root(), name);
	fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "%s", path);
	n = fread(text, 1, (1 << 16) - 1, fp);
	fclose(fp);
	ck_assert_msg(simcfg_parse(c, path, text, n, err, sizeof err) == 0, "%s", err);
	free(text);
}

/* l's values are timing's in c */
static void
same_values(const LatConfig *l, const SimConfig *c)
{
	ck_assert_uint_eq(simcfg_lat(&c->t, LkNone), 0);
	ck_assert_uint_eq(simcfg_lat(&c->t, LkMem), 0);
	for (int k = LkMem + 1; k < NLatKey; k++) {
		ck_assert_msg(l->cycles[k] == simcfg_lat(&c->t, k) && l->cycles[k] > 0,
		              "%s: %s %u, timing %u", l->name, key_name[k], l->cycles[k],
		              simcfg_lat(&c->t, k));
		ck_assert_uint_ge(lat_planned(k), l->cycles[k]);
	}
	ck_assert_uint_ge(LatWarRead, c->t.lat_src_read);
}

/* the generated table (build/ir/latcfg.c) has every built-in configuration with the timing
 * layer's value of every key, built in and as committed; the passes plan with the largest */
START_TEST(latency_configs)
{
	size_t n = 0;
	SimConfig c;
	char err[256];

	for (; simcfg_builtin_text[n][0]; n++) {
		const LatConfig *l = &lat_configs[n];
		ck_assert_ptr_nonnull(l->name);
		ck_assert_str_eq(l->name, simcfg_builtin_text[n][0]);
		ck_assert_int_eq(simcfg_builtin(&c, l->name), 0);
		same_values(l, &c);
		config_file(&c, l->name);
		same_values(l, &c);
	}
	ck_assert_ptr_null(lat_configs[n].name);
	ck_assert_uint_ge(n, 6);
	for (int k = LkMem + 1; k < NLatKey; k++) {       /* the largest: one of them */
		int found = 0;
		for (size_t j = 0; j < n; j++)
			found |= lat_configs[j].cycles[k] == lat_planned(k);
		ck_assert_msg(found, "%s: planned %u is no configuration's", key_name[k], lat_planned(k));
	}
	ck_assert_uint_eq(lat_max_fixed(), lat_planned(LkHmma));   /* 24: HMMA.16816, IMMA.16832 */
	/* each key is the field of its name: set through the configuration reader, read back */
	ck_assert_int_eq(simcfg_builtin(&c, "a100"), 0);
	for (int k = LkMem + 1; k < NLatKey; k++) {
		char kv[64];
		snprintf(kv, sizeof kv, "%s=%d", key_name[k], 1000 + k);
		ck_assert_msg(simcfg_set(&c, kv, err, sizeof err) == 0, "%s", err);
	}
	for (int k = LkMem + 1; k < NLatKey; k++)
		ck_assert_uint_eq(simcfg_lat(&c.t, k), 1000 + k);
}
END_TEST

/* every opcode row and every MMA shape: the passes' class and latency are the timing layer's on
 * each built-in configuration, the planned latency the largest; a configuration changed under
 * the table disagrees */
START_TEST(latency_every_opcode)
{
	Lst m;
	SimConfig c;
	unsigned n = 0, bad = 0, nconfig = 0;

	lst_text(&m, "mma.sass", mma_text);
	for (const LatConfig *l = lat_configs; l->name; l++, nconfig++) {
		ck_assert_int_eq(simcfg_builtin(&c, l->name), 0);
		bad += lat_compare_all(l, &c, m.m, stderr, &n);
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(n, nconfig * 2 * (NOp + m.m->fn[0]->nins));
	/* the check can fail: FFMA and the MMAs of half the volume a cycle slower than the table */
	ck_assert_int_eq(simcfg_builtin(&c, lat_configs[0].name), 0);
	c.t.lat_fp32++;
	c.t.lat_hmma_small++;
	n = 0;
	bad = lat_compare_all(&lat_configs[0], &c, m.m, NULL, &n);
	ck_assert_uint_ge(bad, 2 * 2);
	lst_close(&m);
}
END_TEST

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
 * without a scoreboard, issues LatWarRead (20) cycles after the STG: the STG's stall rises from 1
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
	ck_assert_uint_ge(dist, LatWarRead);
	ck_assert_uint_eq(stg->ctrl.stall, 15);
	lst_close(&l);
}
END_TEST

Suite *
ctrlbits_suite(void)
{
	Suite *s = suite_create("ctrlbits");
	TCase *t = tcase_create("table"), *u = tcase_create("hand"), *k = tcase_create("harness");

	tcase_add_test(t, latency_configs);
	tcase_add_test(t, latency_every_opcode);
	tcase_add_test(u, hand_copy);
	tcase_add_test(u, hand_var);
	tcase_set_timeout(k, 900);
	tcase_add_test(k, harness_examples);
	suite_add_tcase(s, t);
	suite_add_tcase(s, u);
	suite_add_tcase(s, k);
	return s;
}
