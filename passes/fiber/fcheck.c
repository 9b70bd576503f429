/* fcheck.c: the `fverify` pass: the FIBER verifier (ir/fverify.c) as a pass.
 *
 * Preconditions: none (runs on the linear instructions or the blocks). It runs fverify_fn (the
 * FIBER-native constructs: SETFIBERNUM, busy-bit operands, V ranges) and rejects every V<n>
 * destination left as a located "remote write" error, in any mode: it is the last word on a
 * FIBER-native output. In FIBER modes it also marks the plan so that --verify-each keeps
 * rejecting remote writes after it.
 */
#include "fpasses.h"

int
pass_fverify(Fn *f, Diag *d)
{
	int n;

	if (f->plan)
		f->plan->rw_done = 1;
	n = fverify_fn(f, d);
	if (!f->plan)
		n += fverify_remote(f, d);   /* in FIBER modes fverify_fn did it (rw_done) */
	return n ? -1 : 0;
}
