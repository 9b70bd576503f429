/* check.c: the single Check runner. It runs every suite found in tests/check_*.c (the Makefile
 * lists them in suites.h). CK_RUN_SUITE=name or CK_RUN_CASE=name select a subset, as usual.
 */
#include <check.h>
#include <stdlib.h>

#define SUITE(name) Suite *name(void);
#include "suites.h"
#undef SUITE

int
main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define SUITE(name) srunner_add_suite(sr, name());
#include "suites.h"
#undef SUITE
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
