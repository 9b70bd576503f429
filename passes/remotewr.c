/* remotewr.c: the `remote-writes` pass (stub; see docs/pass-remote-writes.md). */
#include "passes.h"

int
pass_remote_writes(Fn *f, Diag *d)
{
	(void)d;
	if (!f->plan)
		return 0;
	f->plan->rw_done = 1;
	return 0;
}
