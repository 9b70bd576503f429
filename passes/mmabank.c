/* mmabank.c: the pass mma-banks (docs/pass-mma-banks.md). Interface stub: counts nothing yet.
 * Requires: physical registers (runs before or after SSA; it reads slots' registers, not values).
 */
#include "passes.h"
#include "banks.h"

int
pass_mma_banks(Fn *f, Diag *d)
{
	(void)f;
	(void)d;
	return 0;
}

