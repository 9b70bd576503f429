/* ctrlbits.c: the ctrl-bits pass (docs/pass-ctrl-bits.md): control bits for what the passes
 * created. Stub (interface commit).
 */
#include "passes.h"

int
pass_ctrl_bits(Fn *f, Diag *d)
{
	(void)f;
	(void)d;
	return 0;
}
