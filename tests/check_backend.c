/* check_backend.c: SASS emission (backend/sass.c, layout.c): a module emits the same with and
 * without SSA form, an edited function is laid out again (addresses, branch targets of
 * cuobjdump listings, .nv.info offsets), only_fn selects one function, and what cannot be
 * emitted is a located error.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "frontend.h"
#include "passes.h"
#include "backend.h"

typedef struct {
	Src *src;
	Diag d;
	FILE *errf;
	char *err;
	size_t nerr;
	Module *m;
} Mod;

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

static void
mod_open(Mod *x, const char *rel)
{
	char path[1024];

	memset(x, 0, sizeof *x);
	snprintf(path, sizeof path, "%s/%s", root(), rel);
	x->errf = open_memstream(&x->err, &x->nerr);
	diag_init(&x->d, NULL, x->errf);
	x->src = src_read(path, &x->d);
	ck_assert_ptr_nonnull(x->src);
	x->d.src = x->src;
	x->m = sass_parse(x->src, &x->d);
	ck_assert_ptr_nonnull(x->m);
}

static void
mod_text(Mod *x, const char *name, const char *text)
{
	memset(x, 0, sizeof *x);
	x->errf = open_memstream(&x->err, &x->nerr);
	x->src = src_new(name, text, strlen(text));
	diag_init(&x->d, x->src, x->errf);
	x->m = sass_parse(x->src, &x->d);
	ck_assert_ptr_nonnull(x->m);
}

static const char *
mod_errors(Mod *x)
{
	fflush(x->errf);
	return x->err ? x->err : "";
}

static void
mod_close(Mod *x)
{
	module_free(x->m);
	src_free(x->src);
	fclose(x->errf);
	free(x->err);
}

/* emit_sass into a malloc'd string; *rc its result */
static char *
emit(Mod *x, const char *only, int *rc)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	*rc = module_outssa(x->m, only, &x->d) < 0 ? -1 : emit_sass(out, x->m, only, &x->d);
	fclose(out);
	return buf;
}

static void
lift(Mod *x)
{
	for (uint32_t k = 0; k < x->m->nfn; k++) {
		Fn *f = x->m->fn[k];
		ck_assert_int_eq(cfg_build(f, &x->d), 0);
		dom_build(f);
		ck_assert_int_eq(ssa_build(f, &x->d), 0);
		ssa_uses(f);
	}
}

static Ins
nop(Module *m)
{
	Ins i;

	memset(&i, 0, sizeof i);
	i.op = (uint16_t)op_lookup("NOP", 3);
	i.name = mintern(m, "NOP");
	i.addr = -1;
	return i;
}

/* every example listing emits the same text whether or not it went through SSA form */
START_TEST(emit_with_and_without_ssa)
{
	static const char *const file[] = {
		"examples/softmax/softmax.sm_80.sass", "examples/gemm_tc/gemm_tc.sm_90.sass",
		"examples/flash_decoding/flash_decoding.sm_80.sass", "tests/cubins/softmax.sm_90a.sass",
	};

	for (size_t k = 0; k < sizeof file / sizeof file[0]; k++) {
		Mod a, b;
		int ra, rb;
		mod_open(&a, file[k]);
		mod_open(&b, file[k]);
		lift(&b);
		char *ta = emit(&a, NULL, &ra), *tb = emit(&b, NULL, &rb);
		ck_assert_int_eq(ra, 0);
		ck_assert_msg(rb == 0, "%s", mod_errors(&b));
		ck_assert_str_eq(ta, tb);
		for (uint32_t j = 0; j < b.m->nfn; j++)
			ck_assert(!b.m->fn[j]->in_ssa);
		free(ta);
		free(tb);
		mod_close(&a);
		mod_close(&b);
	}
}
END_TEST

/* only_fn: the text section of that function and nothing of the others */
START_TEST(emit_only_fn)
{
	Mod x;
	int rc;

	mod_open(&x, "examples/flash_decoding/flash_decoding.sm_80.sass");
	ck_assert_uint_ge(x.m->nfn, 2);
	const char *a = mstr(x.m, x.m->fn[0]->name), *b = mstr(x.m, x.m->fn[1]->name);
	char *t = emit(&x, a, &rc), sec[256];
	ck_assert_int_eq(rc, 0);
	snprintf(sec, sizeof sec, ".text.%s", a);
	ck_assert_ptr_nonnull(strstr(t, sec));
	snprintf(sec, sizeof sec, ".text.%s", b);
	ck_assert_ptr_null(strstr(t, sec));
	free(t);
	t = emit(&x, "no_such_kernel", &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_null(strstr(t, ".text."));
	free(t);
	mod_close(&x);
}
END_TEST

/* an edited function: the instructions after the insertion move by 16 bytes, a label operand
 * and the exit offsets follow, and the other functions are left as they were */
START_TEST(emit_relayout)
{
	Mod x, y;
	int rc;

	mod_open(&x, "examples/flash_decoding/flash_decoding.sm_80.sass");
	mod_open(&y, "examples/flash_decoding/flash_decoding.sm_80.sass");
	Fn *f = x.m->fn[0];
	uint32_t n = f->nins, exit0 = f->info.nexit ? f->info.exit_off[0] : 0;
	Ins p = nop(x.m);
	ck_assert_int_eq(cfg_build(f, &x.d), 0);
	ck_assert_ptr_nonnull(ins_insert(f, f->blk[0]->nins ? f->blk[0] : f->blk[1], 0, &p));
	ck_assert_int_eq(fn_edited(f), 1);
	ck_assert_int_eq(fn_edited(x.m->fn[1]), 0);
	char *t = emit(&x, NULL, &rc), *u = emit(&y, NULL, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(f->nins, n + 1);
	ck_assert_int_eq(f->ins[0].op, ONOP);
	for (uint32_t k = 0; k < f->nins; k++) {
		ck_assert_int_eq(f->ins[k].addr, 16 * (int64_t)k);
		for (int j = 0; j < f->ins[k].nopnd; j++)
			if (f->ins[k].opnd[j].kind == OLabel && f->ins[k].op == OBRA) {
				int64_t a = f->ins[k].opnd[j].imm;
				ck_assert(a >= 0 && a % 16 == 0 && a / 16 <= (int64_t)f->nins);
				ck_assert_uint_eq(f->ins[a / 16].label, f->ins[k].opnd[j].atom);
			}
	}
	if (f->info.nexit)
		ck_assert_uint_eq(f->info.exit_off[0], exit0 + 16);
	/* the text grew by one instruction line; the second function reads the same */
	ck_assert_ptr_nonnull(strstr(t, "NOP ;"));
	ck_assert_uint_gt(strlen(t), strlen(u));
	char *s1 = strstr(t, ".text.flash_decode_combine"), *s2 = strstr(u, ".text.flash_decode_combine");
	if (!s1 || !s2) {
		s1 = strstr(t, mstr(x.m, x.m->fn[1]->name));
		s2 = strstr(u, mstr(y.m, y.m->fn[1]->name));
	}
	ck_assert_ptr_nonnull(s1);
	ck_assert_ptr_nonnull(s2);
	free(t);
	free(u);
	mod_close(&x);
	mod_close(&y);
}
END_TEST

/* cuobjdump listings print branch targets as addresses: they move with the code */
static const char cuobj[] =
	"\n\tcode for sm_80\n"
	"\t\tFunction : k\n"
	"\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"        /*0000*/                   ISETP.GE.AND P0, PT, R0, R1, PT ;\n"
	"        /*0010*/               @P0 BRA 0x30 ;\n"
	"        /*0020*/                   MOV R2, R0 ;\n"
	"        /*0030*/                   EXIT ;\n"
	"\t\t..........\n\n\n";

START_TEST(emit_relayout_cuobjdump)
{
	Mod x;
	int rc;

	mod_text(&x, "k.sass", cuobj);
	ck_assert_msg(x.m->nfn == 1, "%s", mod_errors(&x));
	Fn *f = x.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &x.d), 0);
	Ins p = nop(x.m);
	ck_assert_ptr_nonnull(ins_insert(f, f->blk[0]->nins ? f->blk[0] : f->blk[1], 0, &p));
	char *t = emit(&x, NULL, &rc);
	ck_assert_msg(rc == 0, "%s", mod_errors(&x));
	ck_assert_ptr_nonnull(strstr(t, "BRA 0x40 ;"));
	ck_assert_ptr_nonnull(strstr(t, "/*0040*/"));
	free(t);
	mod_close(&x);
}
END_TEST

/* errors: a use that can be given no value, and an exit offset whose instruction was deleted */
START_TEST(emit_errors)
{
	Mod x;
	int rc;
	char *t;

	mod_open(&x, "examples/softmax/softmax.sm_80.sass");
	lift(&x);
	Fn *f = x.m->fn[0];
	/* a use of R2 in the function reads a value nothing holds */
	int done = 0;
	for (uint32_t k = 0; k < f->nins && !done; k++)
		for (unsigned j = 0; j < f->ins[k].nslot && !done; j++)
			if (f->ins[k].slot[j].kind == SUse && RCLS(f->ins[k].slot[j].reg) == RR &&
			    f->ins[k].slot[j].v[0]) {
				f->ins[k].slot[j].v[0] = 0;
				done = 1;
			}
	ck_assert(done);
	t = emit(&x, NULL, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(mod_errors(&x), "softmax.sm_80.sass:"));
	ck_assert_ptr_nonnull(strstr(mod_errors(&x), "cannot leave SSA"));
	free(t);
	mod_close(&x);

	mod_open(&x, "examples/softmax/softmax.sm_80.sass");
	f = x.m->fn[0];
	ck_assert_int_eq(cfg_build(f, &x.d), 0);
	done = 0;
	for (uint32_t b = 0; b < f->nblk && !done; b++)
		for (uint32_t k = 0; k < f->blk[b]->nins && !done; k++)
			if (f->blk[b]->ins[k].op == OEXIT) {
				ck_assert_int_eq(ins_delete(f, f->blk[b], k), 0);
				done = 1;
			}
	ck_assert(done);
	t = emit(&x, NULL, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(mod_errors(&x), "EIATTR_EXIT_INSTR_OFFSETS names an "
	                                             "instruction of 'softmax_rows' that was deleted"));
	free(t);
	mod_close(&x);
}
END_TEST

/* IR text of an edited function is laid out too: the exit offsets name the EXITs, in SSA form */
START_TEST(emit_ir_relayout)
{
	Mod x;
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	mod_open(&x, "examples/softmax/softmax.sm_80.sass");
	lift(&x);
	Fn *f = x.m->fn[0];
	Ins p = nop(x.m);
	int done = 0;
	for (uint32_t b = 0; b < f->nblk && !done; b++)
		if (f->blk[b]->nins && f->blk[b]->ins[0].op == OEXIT && f->blk[b]->ins[0].label) {
			ck_assert_ptr_nonnull(ins_insert(f, f->blk[b], 0, &p));
			done = 1;
		}
	ck_assert(done);
	ck_assert_int_eq(emit_ir(out, x.m, NULL, &x.d), 0);
	fclose(out);
	ck_assert(f->in_ssa);
	ck_assert_ptr_nonnull(strstr(buf, "// fiber IR"));
	ck_assert_ptr_nonnull(strstr(buf, ".word\t.L_x_e0@srel"));
	for (uint32_t j = 0; j < f->info.nexit; j++)
		ck_assert_int_eq(f->ins[f->info.exit_off[j] / 16].op, OEXIT);
	free(buf);
	mod_close(&x);
}
END_TEST

Suite *
backend_suite(void)
{
	Suite *s = suite_create("backend");
	TCase *tc = tcase_create("emit");

	tcase_add_test(tc, emit_with_and_without_ssa);
	tcase_add_test(tc, emit_only_fn);
	tcase_add_test(tc, emit_relayout);
	tcase_add_test(tc, emit_relayout_cuobjdump);
	tcase_add_test(tc, emit_errors);
	tcase_add_test(tc, emit_ir_relayout);
	suite_add_tcase(s, tc);
	return s;
}
