/* check_cfg.c: tests of ir/cfg.c (blocks, edges, rpo, labels, calls, Graphviz), and the
 * helpers (irt_*) that check_dom.c, check_ssa.c and check_verify.c share: irt_new() reads one
 * function body, SASS text as nvdisasm prints it (labels, guards, `(label) operands), through
 * the real front end (sass_parse), into the function `kern` of a fresh module. The body starts
 * at line 3 of the file "test.sass" (after `.section .text.kern` and `kern:`).
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ir.h"
#include "passes.h"

typedef struct Irt Irt;

struct Irt {
	Module *m;         /* owner of the function */
	Src *src;          /* the text, for locations */
	Diag d;            /* diagnostics go to err */
	FILE *errf;        /* memory stream behind err */
	char *err;         /* everything reported so far */
	size_t nerr;       /* bytes in err */
	Fn *f;             /* the function */
};

Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);
Blk *irt_blk(Irt *t, uint32_t insidx);
int irt_cfg(Irt *t);

static const char header[] = "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n";

Irt *
irt_new(const char *body)
{
	Irt *t = calloc(1, sizeof *t);
	size_t nh = strlen(header), nb = strlen(body);
	char *text = malloc(nh + nb + 1);

	memcpy(text, header, nh);
	memcpy(text + nh, body, nb + 1);
	t->src = src_new("test.sass", text, nh + nb);
	free(text);
	t->errf = open_memstream(&t->err, &t->nerr);
	diag_init(&t->d, t->src, t->errf);
	t->m = sass_parse(t->src, &t->d);
	ck_assert_msg(t->m != NULL, "parse failed:\n%s", irt_errors(t));
	ck_assert_uint_eq(t->m->nfn, 1);
	t->f = t->m->fn[0];
	return t;
}

void
irt_free(Irt *t)
{
	module_free(t->m);
	src_free(t->src);
	fclose(t->errf);
	free(t->err);
	free(t);
}

Fn *
irt_fn(Irt *t)
{
	return t->f;
}

Diag *
irt_diag(Irt *t)
{
	return &t->d;
}

const char *
irt_errors(Irt *t)
{
	fflush(t->errf);
	return t->err ? t->err : "";
}

/* the block holding instruction idx */
Blk *
irt_blk(Irt *t, uint32_t idx)
{
	Fn *f = t->f;

	for (uint32_t b = 0; b < f->nblk; b++)
		if (f->blk[b]->nins && idx >= (uint32_t)(f->blk[b]->ins - f->ins) &&
		    idx < (uint32_t)(f->blk[b]->ins - f->ins) + f->blk[b]->nins)
			return f->blk[b];
	return NULL;
}

/* cfg_build and dom_build */
int
irt_cfg(Irt *t)
{
	if (cfg_build(t->f, &t->d) < 0)
		return -1;
	dom_build(t->f);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Helpers for the assertions: "1 2" lists of block ids.
 */
static const char *
ids(Blk **b, uint32_t n, char *buf)
{
	size_t k = 0;

	buf[0] = 0;
	for (uint32_t j = 0; j < n; j++)
		k += (size_t)sprintf(buf + k, "%s%u", j ? " " : "", b[j]->id);
	return buf;
}

#define SUCC(t, b, want) do { char buf_[256]; \
	ck_assert_str_eq(ids((t)->f->blk[b]->succ, (t)->f->blk[b]->nsucc, buf_), want); } while (0)
#define PRED(t, b, want) do { char buf_[256]; \
	ck_assert_str_eq(ids((t)->f->blk[b]->pred, (t)->f->blk[b]->npred, buf_), want); } while (0)

static const char diamond[] =
	"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"
	"@P0 BRA `(.L_1) ;\n"
	"MOV R2, R0 ;\n"
	"BRA `(.L_2) ;\n"
	".L_1:\n"
	"MOV R2, R1 ;\n"
	".L_2:\n"
	"STG.E [R4.64], R2 ;\n"
	"EXIT ;\n";

START_TEST(test_cfg_diamond)
{
	Irt *t = irt_new(diamond);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 4);
	ck_assert_uint_eq(t->f->blk[0]->nins, 2);
	ck_assert_uint_eq(t->f->blk[1]->nins, 2);
	ck_assert_uint_eq(t->f->blk[2]->nins, 1);
	ck_assert_uint_eq(t->f->blk[3]->nins, 2);
	SUCC(t, 0, "1 2");  /* fall-through first */
	SUCC(t, 1, "3");
	SUCC(t, 2, "3");
	SUCC(t, 3, "");
	PRED(t, 3, "1 2");
	ck_assert_uint_eq(t->f->nrpo, 4);
	ck_assert_ptr_eq(t->f->rpo[0], t->f->blk[0]);
	ck_assert_ptr_eq(t->f->rpo[3], t->f->blk[3]);
	ck_assert_ptr_eq(t->f->blk[1]->ins, &t->f->ins[2]); /* slices, not copies */
	ck_assert_int_eq(verify_fn(t->f, &t->d), 0);
	irt_free(t);
}
END_TEST

START_TEST(test_cfg_loop)
{
	Irt *t = irt_new(
		"MOV R0, RZ ;\n"
		".L_0:\n"
		"IADD3 R0, R0, 0x1, RZ ;\n"
		"ISETP.NE.AND P0, PT, R0, 0x10, PT ;\n"
		"@P0 BRA `(.L_0) ;\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 0, "1");
	SUCC(t, 1, "2 1");
	PRED(t, 1, "0 1");
	ck_assert_uint_eq(t->f->blk[2]->rpo, 2);
	irt_free(t);
}
END_TEST

/* an unconditional branch to the next instruction still ends the block; a conditional branch to
 * its own fall-through gives one edge */
START_TEST(test_cfg_dedup)
{
	Irt *t = irt_new(
		"@P0 BRA `(.L_0) ;\n"
		".L_0:\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 2);
	SUCC(t, 0, "1");
	PRED(t, 1, "0");
	irt_free(t);
}
END_TEST

/* conditions that make a BRA conditional besides the guard, and @PT */
START_TEST(test_cfg_bra_forms)
{
	Irt *t = irt_new(
		"BRA.DIV ~URZ, `(.L_9) ;\n"      /* bb0 -> 1, 4 */
		"@!P2 BRA !P1, `(.L_9) ;\n"      /* bb1 -> 2, 4 */
		"@PT BRA `(.L_8) ;\n"            /* bb2 -> 3: unconditional */
		".L_8:\n"
		"BRA PT, `(.L_9) ;\n"            /* bb3 -> 4 */
		".L_9:\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 5);
	SUCC(t, 0, "1 4");
	SUCC(t, 1, "2 4");
	SUCC(t, 2, "3");
	SUCC(t, 3, "4");
	irt_free(t);
}
END_TEST

START_TEST(test_cfg_exit_forms)
{
	Irt *t = irt_new(
		"@P0 EXIT ;\n"       /* bb0 -> 1 */
		"MOV R0, RZ ;\n"
		"EXIT ;\n"           /* bb1: none */
		"MOV R1, RZ ;\n"     /* bb2: unreachable */
		"RET.REL.NODEC R2 `(kern) ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 0, "1");
	SUCC(t, 1, "");
	SUCC(t, 2, "");
	ck_assert_uint_eq(t->f->blk[2]->rpo, UINT32_MAX);
	ck_assert_uint_eq(t->f->nrpo, 2);
	irt_free(t);
}
END_TEST

/* BSSY's label starts a block but BSSY only falls through; BSYNC and WARPSYNC end nothing */
START_TEST(test_cfg_bssy)
{
	Irt *t = irt_new(
		"BSSY B0, `(.L_x_1) ;\n"
		"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"
		"@P0 BRA `(.L_x_0) ;\n"
		"MOV R2, R0 ;\n"
		".L_x_0:\n"
		"BSYNC B0 ;\n"
		".L_x_1:\n"
		"WARPSYNC 0xffffffff ;\n"
		"STG.E [R4.64], R2 ;\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 4);
	ck_assert_uint_eq(t->f->blk[0]->nins, 3); /* BSSY, ISETP, BRA */
	SUCC(t, 0, "1 2");
	SUCC(t, 1, "2");
	SUCC(t, 2, "3");   /* BSYNC falls into the reconvergence block */
	ck_assert_uint_eq(t->f->blk[3]->nins, 3);
	PRED(t, 3, "2");
	ck_assert_int_eq(verify_fn(t->f, &t->d), 0);
	irt_free(t);
}
END_TEST

/* nvcc's padding: the self-loop after the last EXIT and the NOPs stay, unreachable */
START_TEST(test_cfg_trailing_selfloop)
{
	Irt *t = irt_new(
		"MOV R0, RZ ;\n"
		"EXIT ;\n"
		".L_x_27:\n"
		"BRA `(.L_x_27);\n"
		"NOP;\n"
		"NOP;\n"
		".L_x_42:\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 1, "1");
	PRED(t, 1, "1");
	SUCC(t, 2, "");
	ck_assert_uint_eq(t->f->blk[1]->rpo, UINT32_MAX);
	ck_assert_uint_eq(t->f->blk[2]->rpo, UINT32_MAX);
	ck_assert_uint_eq(t->f->blk[2]->nins, 2);
	ck_assert_uint_eq(t->f->nrpo, 1);
	ck_assert_ptr_null(t->f->blk[1]->idom);
	ck_assert_int_eq(verify_fn(t->f, &t->d), 0);
	irt_free(t);
}
END_TEST

/* the front end rejects undefined labels itself; cfg_build checks again for built IR */
START_TEST(test_cfg_undefined_label)
{
	Irt *t = irt_new(
		"MOV R0, RZ ;\n"
		"@P0 BRA `(.L_x_0) ;\n"
		".L_x_0:\n"
		"EXIT ;\n");
	Fn *f = irt_fn(t);

	f->ins[1].opnd[0].atom = mintern(f->mod, ".L_x_9");
	ck_assert_int_eq(cfg_build(f, irt_diag(t)), -1);
	ck_assert_ptr_null(f->blk);
	ck_assert_int_eq(irt_diag(t)->nerr, 1);
	ck_assert_msg(strstr(irt_errors(t), "test.sass:4:"), "%s", irt_errors(t));
	ck_assert_msg(strstr(irt_errors(t), "error: label '.L_x_9' is never defined"), "%s",
	              irt_errors(t));
	irt_free(t);
}
END_TEST

/* CALL.REL.NOINC to a subroutine in the same function: a call edge, not a successor; the
 * subroutine is a second tree of reachable blocks */
START_TEST(test_cfg_internal_call)
{
	Irt *t = irt_new(
		"MOV R2, 0x40 ;\n"
		"CALL.REL.NOINC `($__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath) ;\n"
		"STG.E [R4.64], R8 ;\n"
		"EXIT ;\n"
		"$__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath:\n"
		"MOV R8, R13 ;\n"
		"RET.REL.NODEC R2 `(kern) ;\n"
		".L_x_5:\n"
		"BRA `(.L_x_5);\n");
	Blk *sub;

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 4);
	SUCC(t, 0, "1");
	SUCC(t, 1, "");
	SUCC(t, 2, "");   /* RET */
	PRED(t, 2, "");
	sub = cfg_callee(t->f, t->f->blk[0]);
	ck_assert_ptr_eq(sub, t->f->blk[2]);
	ck_assert_ptr_null(cfg_callee(t->f, t->f->blk[1]));
	ck_assert_uint_eq(t->f->nrpo, 3);   /* bb0, bb1, then the subroutine */
	ck_assert_ptr_eq(t->f->rpo[2], sub);
	ck_assert_ptr_null(sub->idom);
	ck_assert_int_eq(dom_dominates(t->f->blk[0], sub), 0);
	ck_assert_uint_eq(t->f->blk[3]->rpo, UINT32_MAX);
	irt_free(t);
}
END_TEST

/* the entry is a loop header: an empty block goes in front so that the entry has no pred */
START_TEST(test_cfg_entry_loop)
{
	Irt *t = irt_new(
		".L_0:\n"
		"IADD3 R0, R0, 0x1, RZ ;\n"
		"ISETP.NE.AND P0, PT, R0, 0x10, PT ;\n"
		"@P0 BRA `(.L_0) ;\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	ck_assert_uint_eq(t->f->blk[0]->nins, 0);
	SUCC(t, 0, "1");
	SUCC(t, 1, "2 1");
	PRED(t, 1, "0 1");
	PRED(t, 0, "");
	ck_assert_int_eq(verify_fn(t->f, &t->d), 0);
	irt_free(t);
}
END_TEST

/* indirect branches may go to any label */
START_TEST(test_cfg_brx)
{
	Irt *t = irt_new(
		"BRX R2 -0x10 ;\n"
		".L_a:\n"
		"MOV R0, 0x1 ;\n"
		"EXIT ;\n"
		".L_b:\n"
		"MOV R0, 0x2 ;\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 0, "1 2");
	irt_free(t);
}
END_TEST

/* WARPSYNC.COLLECTIVE Rx, `(L) runs the collective body or goes to L; ENDCOLLECTIVE goes to L */
START_TEST(test_cfg_collective)
{
	Irt *t = irt_new(
		"MOV R14, 0xffffffff ;\n"
		"WARPSYNC.COLLECTIVE R14, `(.L_x_46) ;\n"
		"SHFL.BFLY P1, R24, R23, R22, R15 ;\n"
		"ENDCOLLECTIVE ;\n"
		".L_x_46:\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 0, "1 2");
	SUCC(t, 1, "2");
	PRED(t, 2, "0 1");
	irt_free(t);
}
END_TEST

START_TEST(test_cfg_empty_and_endlabel)
{
	Irt *t = irt_new("");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 1);
	ck_assert_uint_eq(t->f->nrpo, 1);
	irt_free(t);
	/* a branch to the label after the last instruction gets an empty block */
	t = irt_new("@P0 BRA `(.L_end) ;\nMOV R0, RZ ;\n.L_end:\n");
	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(t->f->nblk, 3);
	SUCC(t, 0, "1 2");
	SUCC(t, 1, "2");
	ck_assert_uint_eq(t->f->blk[2]->nins, 0);
	ck_assert_int_eq(verify_fn(t->f, &t->d), 0);
	irt_free(t);
}
END_TEST

START_TEST(test_cfg_dot)
{
	Irt *t = irt_new(diamond);
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(cfg_dot(out, t->f), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "digraph \"kern\""));
	ck_assert_ptr_nonnull(strstr(buf, "bb0 -> bb1;"));
	ck_assert_ptr_nonnull(strstr(buf, "bb0 -> bb2;"));
	ck_assert_ptr_nonnull(strstr(buf, "bb2 -> bb3;"));
	ck_assert_ptr_nonnull(strstr(buf, "STG"));
	free(buf);
	irt_free(t);
}
END_TEST

/* rebuilding frees the old CFG (ASan would see a leak otherwise) */
START_TEST(test_cfg_rebuild)
{
	Irt *t = irt_new(diamond);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(irt_cfg(t), 0);
	cfg_free(t->f);
	ck_assert_ptr_null(t->f->blk);
	cfg_free(t->f);
	irt_free(t);
}
END_TEST

Suite *
cfg_suite(void)
{
	Suite *s = suite_create("cfg");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_cfg_diamond);
	tcase_add_test(tc, test_cfg_loop);
	tcase_add_test(tc, test_cfg_dedup);
	tcase_add_test(tc, test_cfg_bra_forms);
	tcase_add_test(tc, test_cfg_exit_forms);
	tcase_add_test(tc, test_cfg_bssy);
	tcase_add_test(tc, test_cfg_trailing_selfloop);
	tcase_add_test(tc, test_cfg_undefined_label);
	tcase_add_test(tc, test_cfg_internal_call);
	tcase_add_test(tc, test_cfg_entry_loop);
	tcase_add_test(tc, test_cfg_brx);
	tcase_add_test(tc, test_cfg_collective);
	tcase_add_test(tc, test_cfg_empty_and_endlabel);
	tcase_add_test(tc, test_cfg_dot);
	tcase_add_test(tc, test_cfg_rebuild);
	suite_add_tcase(s, tc);
	return s;
}
