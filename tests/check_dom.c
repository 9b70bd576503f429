/* check_dom.c: tests of ir/dom.c: immediate dominators, the dominator tree and its DFS numbers,
 * dominance frontiers, unreachable blocks and subroutine trees. Functions come from the SASS
 * builder of check_cfg.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
int irt_cfg(Irt *t);

/* "1 2" for a list of blocks */
static const char *
ids(Blk **b, uint32_t n, char *buf)
{
	size_t k = 0;

	buf[0] = 0;
	for (uint32_t j = 0; j < n; j++)
		k += (size_t)sprintf(buf + k, "%s%u", j ? " " : "", b[j]->id);
	return buf;
}

#define IDOM(t, b, want) do { Blk *i_ = irt_fn(t)->blk[b]->idom; \
	ck_assert_int_eq(i_ ? (int)i_->id : -1, want); } while (0)
#define FRONT(t, b, want) do { char buf_[256]; \
	ck_assert_str_eq(ids(irt_fn(t)->blk[b]->front, irt_fn(t)->blk[b]->nfront, buf_), want); } while (0)
#define KIDS(t, b, want) do { char buf_[256]; \
	ck_assert_str_eq(ids(irt_fn(t)->blk[b]->dom, irt_fn(t)->blk[b]->ndom, buf_), want); } while (0)
#define DOM(t, a, b) dom_dominates(irt_fn(t)->blk[a], irt_fn(t)->blk[b])

START_TEST(test_dom_diamond)
{
	Irt *t = irt_new(
		"ISETP.GE.AND P0, PT, R0, R1, PT ;\n"
		"@P0 BRA `(.L_1) ;\n"
		"MOV R2, R0 ;\n"
		"BRA `(.L_2) ;\n"
		".L_1:\n"
		"MOV R2, R1 ;\n"
		".L_2:\n"
		"EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	IDOM(t, 0, -1);
	IDOM(t, 1, 0);
	IDOM(t, 2, 0);
	IDOM(t, 3, 0);
	KIDS(t, 0, "1 2 3");
	FRONT(t, 0, "");
	FRONT(t, 1, "3");
	FRONT(t, 2, "3");
	FRONT(t, 3, "");
	ck_assert(DOM(t, 0, 3));
	ck_assert(DOM(t, 3, 3));
	ck_assert(!DOM(t, 1, 3));
	ck_assert(!DOM(t, 3, 0));
	irt_free(t);
}
END_TEST

static const char nested[] =
	"MOV R0, RZ ;\n"                         /* bb0 */
	".L_outer:\n"
	"MOV R1, RZ ;\n"                         /* bb1: outer header */
	".L_inner:\n"
	"IADD3 R1, R1, 0x1, RZ ;\n"              /* bb2: inner loop */
	"ISETP.NE.AND P0, PT, R1, 0x8, PT ;\n"
	"@P0 BRA `(.L_inner) ;\n"
	"IADD3 R0, R0, 0x1, RZ ;\n"              /* bb3: outer latch */
	"ISETP.NE.AND P1, PT, R0, 0x8, PT ;\n"
	"@P1 BRA `(.L_outer) ;\n"
	"EXIT ;\n";                              /* bb4 */

START_TEST(test_dom_nested_loops)
{
	Irt *t = irt_new(nested);

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(irt_fn(t)->nblk, 5);
	IDOM(t, 1, 0);
	IDOM(t, 2, 1);
	IDOM(t, 3, 2);
	IDOM(t, 4, 3);
	FRONT(t, 1, "1");
	FRONT(t, 2, "1 2");
	FRONT(t, 3, "1");
	FRONT(t, 4, "");
	ck_assert(DOM(t, 1, 4));
	ck_assert(DOM(t, 2, 3));
	ck_assert(!DOM(t, 3, 2));
	irt_free(t);
}
END_TEST

/* two entries into a cycle: neither block of the cycle dominates the other */
START_TEST(test_dom_irreducible)
{
	Irt *t = irt_new(
		"@P0 BRA `(.L_2) ;\n"   /* bb0 -> 1, 2 */
		".L_1:\n"
		"MOV R0, RZ ;\n"        /* bb1 -> 2 */
		".L_2:\n"
		"MOV R1, RZ ;\n"        /* bb2 -> 3, 1 */
		"@P1 BRA `(.L_1) ;\n"
		"EXIT ;\n");            /* bb3 */

	ck_assert_int_eq(irt_cfg(t), 0);
	IDOM(t, 1, 0);
	IDOM(t, 2, 0);
	IDOM(t, 3, 2);
	FRONT(t, 1, "2");
	FRONT(t, 2, "1");
	ck_assert(!DOM(t, 1, 2));
	ck_assert(!DOM(t, 2, 1));
	irt_free(t);
}
END_TEST

START_TEST(test_dom_unreachable)
{
	Irt *t = irt_new(
		"EXIT ;\n"
		".L_x_9:\n"
		"BRA `(.L_x_9);\n"
		"NOP;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(irt_fn(t)->nblk, 3);
	IDOM(t, 1, -1);
	IDOM(t, 2, -1);
	KIDS(t, 0, "");
	FRONT(t, 1, "");
	ck_assert(!DOM(t, 0, 1));
	ck_assert(!DOM(t, 1, 2));
	ck_assert(DOM(t, 1, 1));
	irt_free(t);
}
END_TEST

/* a subroutine is its own tree; a block reached from both trees is dominated by neither */
START_TEST(test_dom_forest)
{
	Irt *t = irt_new(
		"CALL.REL.NOINC `(sub) ;\n"   /* bb0 -> 1 */
		".L_j:\n"
		"MOV R0, RZ ;\n"              /* bb1: from bb0 and from the subroutine */
		"EXIT ;\n"
		"sub:\n"
		"MOV R1, RZ ;\n"              /* bb2: subroutine entry */
		"BRA `(.L_j) ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_uint_eq(irt_fn(t)->nblk, 3);
	ck_assert_uint_eq(irt_fn(t)->nrpo, 3);
	IDOM(t, 0, -1);
	IDOM(t, 2, -1);
	IDOM(t, 1, -1);
	ck_assert(!DOM(t, 0, 1));
	ck_assert(!DOM(t, 2, 1));
	ck_assert(!DOM(t, 0, 2));
	FRONT(t, 0, "1");
	FRONT(t, 2, "1");
	irt_free(t);
}
END_TEST

/* DFS numbers nest, and dominance by numbers matches walking the idom chain */
START_TEST(test_dom_numbers)
{
	Irt *t = irt_new(nested);
	Fn *f;

	ck_assert_int_eq(irt_cfg(t), 0);
	f = irt_fn(t);
	for (uint32_t a = 0; a < f->nblk; a++)
		for (uint32_t b = 0; b < f->nblk; b++) {
			int chain = 0;
			for (Blk *x = f->blk[b]; x; x = x->idom)
				if (x == f->blk[a])
					chain = 1;
			ck_assert_int_eq(dom_dominates(f->blk[a], f->blk[b]), chain);
		}
	ck_assert_uint_lt(f->blk[0]->pre, f->blk[4]->pre);
	ck_assert_uint_gt(f->blk[0]->post, f->blk[4]->post);
	dom_build(f); /* again: the old arrays are freed */
	ck_assert(DOM(t, 2, 4));
	irt_free(t);
}
END_TEST

Suite *
dom_suite(void)
{
	Suite *s = suite_create("dom");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_dom_diamond);
	tcase_add_test(tc, test_dom_nested_loops);
	tcase_add_test(tc, test_dom_irreducible);
	tcase_add_test(tc, test_dom_unreachable);
	tcase_add_test(tc, test_dom_forest);
	tcase_add_test(tc, test_dom_numbers);
	suite_add_tcase(s, tc);
	return s;
}
