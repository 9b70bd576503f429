/* fiberra.c: fiber-ra, FIBER-native register allocation (docs/pass-fiber-ra.md): the virtual
 * registers of a `--mode=fiber-native` program (.vreg, docs/fiber-isa.md "Virtual registers")
 * onto the weft's window R0..R(n-1), with n as small as the program allows.
 *
 * Preconditions: the CFG (cfg_build); not SSA (it runs before ssa: SSA sees physical registers
 * only); slots computed or computable (op_slots). Without f->plan, or without virtual registers,
 * it does nothing.
 */
#include "passes.h"

int
pass_fiber_ra(Fn *f, Diag *d)
{
	(void)d;
	if (!f->plan || !f->nvreg)
		return 0;
	return 0;
}
