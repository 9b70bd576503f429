/* ptxsel_test.h: helpers of the instruction-selection suites (tests/check_ptx_*.c), static so
 * that each suite includes its own copy: lowering a PTX text in process (ptx_parse, then
 * ptx_lower_text), asserting the SASS lines it selects, and asserting a located error. Include
 * after <check.h>. */
#ifndef FIBER_TESTS_PTXSEL_TEST_H
#define FIBER_TESTS_PTXSEL_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptxlow.h"

/* the lowered text of ptx (named k.ptx) for sm (malloc'd), or NULL; *msgs (malloc'd) gets the
 * diagnostics */
static char *
psel_lower(const char *ptx, int sm, char **msgs)
{
	size_t n = 0;
	FILE *out = open_memstream(msgs, &n);
	Src *src = src_new("k.ptx", ptx, strlen(ptx));
	Diag d;
	Ptx *p;
	Src *l = NULL;
	char *s = NULL;

	diag_init(&d, src, out);
	p = ptx_parse(src, &d);
	if (p)
		l = ptx_lower_text(p, sm, 0, &d);
	if (l) {
		s = strdup(l->text);
		src_free(l);
	}
	fclose(out);
	if (p)
		ptx_free(p);
	src_free(src);
	return s;
}

/* ptx lowers for sm and its text has every line of want (SASS instructions without the ';',
 * separated by '\n') in that order, not necessarily adjacent */
static void
psel_lowers_to(const char *ptx, int sm, const char *want)
{
	char *msgs = NULL, *text = psel_lower(ptx, sm, &msgs);
	const char *at, *w = want;

	ck_assert_msg(text != NULL, "lowering failed:\n%s\n%s", msgs, ptx);
	at = text;
	while (*w) {
		const char *e = strchr(w, '\n');
		size_t len = e ? (size_t)(e - w) : strlen(w);
		char line[512];
		snprintf(line, sizeof line, " %.*s ;\n", (int)len, w);
		const char *hit = strstr(at, line);
		ck_assert_msg(hit != NULL, "sm_%d: '%.*s' missing (or out of order) in:\n%s", sm,
		              (int)len, w, strstr(text, ".text.") ? strstr(text, ".text.") : text);
		at = hit + strlen(line);
		w += len + (e ? 1 : 0);
	}
	free(text);
	free(msgs);
}

/* ptx does not lower for sm: the diagnostics contain `where` ("k.ptx:14:2: error: 'op' is not
 * supported yet") and `why` */
static void
psel_fails(const char *ptx, int sm, const char *where, const char *why)
{
	char *msgs = NULL, *text = psel_lower(ptx, sm, &msgs);

	ck_assert_msg(text == NULL, "sm_%d: lowered, but should not have:\n%s", sm, ptx);
	ck_assert_msg(strstr(msgs, where) != NULL, "no '%s' in:\n%s", where, msgs);
	ck_assert_msg(strstr(msgs, why) != NULL, "no '%s' in:\n%s", why, msgs);
	free(msgs);
}

#endif
