/* ptxsel_mem.c: instruction selection of memory access (ptxsel.h): ld, st, cvta (more to come:
 * ldu, atom, red, cp.async, mbarrier, fence, membar, prefetch). */
#include "ptxlow.h"

#include <string.h>

/* the state space of a memory instruction from its modifiers */
static int
space_of(const Lw *w)
{
	if (lw_has(w, "param"))
		return PsParam;
	if (lw_has(w, "global"))
		return PsGlobal;
	if (lw_has(w, "shared") || lw_has(w, "shared::cta"))
		return PsShared;
	if (lw_has(w, "local"))
		return PsLocal;
	if (lw_has(w, "const"))
		return PsConst;
	return PsNoSpace;
}

static int
sel_ld(Lw *w)
{
	if (space_of(w) == PsParam)
		return lw_ld_param(w);
	return lw_error(w, "ld outside the .param space is not selected yet");
}

static int
sel_st(Lw *w)
{
	if (space_of(w) == PsParam)
		return lw_st_param(w);
	return lw_error(w, "st outside the .param space is not selected yet");
}

const SelRow ptxsel_mem[] = {
	{ "st", TcAny, sel_st, "MOV slot, a (st.param)" },
	{ "ld", TcAny, sel_ld, "MOV d, c[0x0][param] (ld.param)" },
	{ NULL, 0, NULL, NULL },
};
