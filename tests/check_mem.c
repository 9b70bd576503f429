/* check_mem.c: the memory that fiberc's speed and footprint rest on (bench/bench_fiberc.c
 * measures them). Scratch allocations given back to an arena come back zeroed and are reused;
 * fiberc's listing checks (sass_check) take no memory when run again and leave only the slots
 * op_slots computes; the text of a
 * mapped listing given back while it is read (src_cold_before) still reads the same, for the
 * diagnostics that look at it later; an operand stays within 48 bytes.
 */
#define _DEFAULT_SOURCE
#include "ir.h"
#include "frontend.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_arena_release_reuses_zeroed)
{
	Arena *a = arena_new();
	unsigned char *p, *q, *r;
	ArenaMark mk;

	p = arena_alloc(a, 40);
	memset(p, 0xab, 40);
	mk = arena_mark(a);
	q = arena_alloc(a, 100);
	memset(q, 0xcd, 100);
	arena_release(a, mk);
	r = arena_alloc(a, 100);
	ck_assert_ptr_eq(r, q);               /* the same bytes handed out again */
	for (int k = 0; k < 100; k++)
		ck_assert_int_eq(r[k], 0);        /* and zeroed, as every allocation is */
	for (int k = 0; k < 40; k++)
		ck_assert_int_eq(p[k], 0xab);     /* what came before the mark is kept */
	arena_free(a);
}
END_TEST

START_TEST(test_arena_release_keeps_other_chunks)
{
	Arena *a = arena_new();
	unsigned char *p, *big, *next;
	ArenaMark mk;
	size_t before;

	p = arena_alloc(a, 16);
	mk = arena_mark(a);
	big = arena_alloc(a, 1 << 20);        /* a block of its own behind the current chunk */
	memset(big, 0x5a, 1 << 20);
	before = arena_bytes(a);
	arena_release(a, mk);                 /* not from the marked chunk alone: kept */
	next = arena_alloc(a, 64);
	ck_assert_ptr_ne(next, big);
	ck_assert_int_eq(big[0], 0x5a);
	ck_assert_int_eq(big[(1 << 20) - 1], 0x5a);
	ck_assert_uint_ge(arena_bytes(a), before);
	ck_assert_ptr_nonnull(p);
	arena_free(a);
}
END_TEST

static Module *
parse_file(const char *rel, Src **src, Diag *d)
{
	const char *root = getenv("FIBER_ROOT");
	char path[1024];
	Module *m;

	snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
	diag_init(d, NULL, stderr);
	*src = src_read(path, d);
	ck_assert_msg(*src != NULL, "cannot read %s", path);
	d->src = *src;
	m = sass_parse(*src, d);
	ck_assert_msg(m != NULL && d->nerr == 0, "%s does not parse", path);
	return m;
}

/* sass_check computes slots for a renumbered copy of some instructions: they are scratch, so
 * checking a module again takes no memory from it; the slots it leaves on an instruction are the
 * ones op_slots computes (SSA construction takes them) */
START_TEST(test_check_takes_no_module_memory)
{
	Diag d;
	Src *src;
	Module *m = parse_file("examples/gemm_tc/gemm_tc.sm_80.sass", &src, &d);
	size_t before;
	uint32_t kept = 0;

	ck_assert_int_eq(sass_check(m, &d), 0);
	before = arena_bytes(m->arena);
	for (int k = 0; k < 200; k++)
		ck_assert_int_eq(sass_check(m, &d), 0);
	ck_assert_uint_eq(arena_bytes(m->arena), before);
	for (uint32_t k = 0; k < m->nfn; k++)
		for (uint32_t j = 0; j < m->fn[k]->nins; j++) {
			Ins *i = &m->fn[k]->ins[j];
			unsigned diff;
			if (!i->slot)
				continue;
			kept++;
			ck_assert_int_eq(op_slots_cmp(m->fn[k], i, &diff), i->nslot);
			ck_assert_uint_eq(diff, i->nslot);
		}
	ck_assert_uint_gt(kept, 0);
	module_free(m);
	src_free(src);
}
END_TEST

/* a mapped text given back in steps while it is read reads the same afterwards */
START_TEST(test_src_cold_before_keeps_text)
{
	char path[] = "/tmp/fiber-mem-XXXXXX";
	size_t n = (3u << 20) + 123, step = 1u << 18;   /* not a multiple of the page size */
	char *want = malloc(n);
	int fd = mkstemp(path);
	Diag d;
	Src *s;

	ck_assert_int_ge(fd, 0);
	for (size_t k = 0; k < n; k++)
		want[k] = (char)('a' + (k * 7 + k / 4096) % 26);
	ck_assert_int_eq(write(fd, want, n), (ssize_t)n);
	close(fd);
	diag_init(&d, NULL, stderr);
	s = src_read(path, &d);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->len, n);
	for (size_t off = 0; off <= n; off += step) {
		ck_assert_int_eq(memcmp(s->text + off, want + off, off + step <= n ? step : n - off), 0);
		src_cold_before(s, off);
	}
	src_cold_before(s, n);
	ck_assert_int_eq(memcmp(s->text, want, n), 0);
	ck_assert_int_eq(s->text[n], 0);
	src_free(s);
	unlink(path);
	free(want);
}
END_TEST

/* and a listing given back while it is parsed (it is over 1 MiB: its first lines go) still
 * shows its lines in a diagnostic */
static void
shown(const char *out, const Src *src, Loc loc)
{
	char line[256];

	snprintf(line, sizeof line, "%.*s", (int)(loc.end - loc.start), src->text + loc.start);
	ck_assert_msg(strstr(out, line) != NULL, "'%s' is not shown in:\n%s", line, out);
}

START_TEST(test_parse_gives_back_text)
{
	Diag d;
	Src *src;
	Module *m = parse_file("examples/microbench/mma_shapes.sm_90.sass", &src, &d);
	const Fn *f = m->fn[0], *g = m->fn[m->nfn - 1];
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_uint_gt(src->len, (1u << 20) + (1u << 16));
	ck_assert_ptr_nonnull(out);
	d.out = out;
	error_at(&d, f->ins[0].loc, "first");
	error_at(&d, g->ins[g->nins - 1].loc, "last");
	fclose(out);
	shown(buf, src, f->ins[0].loc);
	shown(buf, src, g->ins[g->nins - 1].loc);
	free(buf);
	module_free(m);
	src_free(src);
}
END_TEST

START_TEST(test_opnd_size)
{
	/* the structures there are one or more of per instruction: a field added to one costs every
	 * instruction (make bench's < 500 B/instruction peak counts on these sizes) */
	ck_assert_uint_le(sizeof(Opnd), 40);  /* imm and fimm share their bytes */
	ck_assert_uint_le(sizeof(Ins), 96);   /* a 6-byte guard, modifiers in the arena */
	ck_assert_uint_le(sizeof(Use), 16);   /* one pointer to the user, instruction or phi */
	ck_assert_uint_le(sizeof(Guard), 6);
}
END_TEST

Suite *
mem_suite(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_arena_release_reuses_zeroed);
	tcase_add_test(tc, test_arena_release_keeps_other_chunks);
	tcase_add_test(tc, test_check_takes_no_module_memory);
	tcase_add_test(tc, test_src_cold_before_keeps_text);
	tcase_add_test(tc, test_parse_gives_back_text);
	tcase_add_test(tc, test_opnd_size);
	suite_add_tcase(s, tc);
	return s;
}
