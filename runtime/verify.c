/* verify.c: what a module load checks before the simulator decodes it, as fiberc checks its input:
 * sass_check_load (encoding words, register tuples; an unknown opcode is left to the decoder, which
 * refuses its kernel alone) and verify_fn on every function (FIBER checks of ir/fverify.c, no V
 * destination, no virtual register left). fiberDeviceSetVerify(dev, 0) (fibersim run --no-verify)
 * leaves the encoding check alone, for debugging the simulator's own faults.
 */
#include "rt.h"

int
rt_verify(Module *m, Diag *d, int full)
{
	int nerr = d->nerr;

	if (!full)
		return sass_check_enc(m, d);
	if (sass_check_load(m, d) < 0)
		return -1;
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		/* a virtual register left is the listing's problem (fiberc --mode=fiber-native was
		 * not run): said once, not again as the verifier's range errors on it */
		if (f->blk || (f->nvreg && vreg_none(f, d) < 0))
			continue;
		verify_fn(f, d);
	}
	return d->nerr > nerr ? -1 : 0;
}
