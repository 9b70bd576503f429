/* ptxsel_ctrl.c: instruction selection of control flow (ptxsel.h): branches, the end of a
 * kernel; call inlines the callee (ptxcall.c). */
#include "ptxlow.h"

#include <string.h>

/* bra LABEL, bra.uni LABEL: BRA to the label (a guard makes it conditional) */
static int
sel_bra(Lw *w)
{
	const PtxOpnd *o = lw_opnd(w, 0);

	if (!o || o->kind != PoName || o->what != PwLabel)
		return lw_error_opnd(w, 0, "an indirect branch (brx.idx) is not selected");
	lw_emit(w, "BRA `(%s)", lw_ptxlabel(w, o->atom));
	return 0;
}

/* exit: EXIT, with the label EIATTR_EXIT_INSTR_OFFSETS names */
static int
sel_exit(Lw *w)
{
	lw_label_here(w, lw_exit_label(w));
	lw_emit(w, "EXIT");
	return 0;
}

const SelRow ptxsel_ctrl[] = {
	{ "bra", TcAny, sel_bra, "BRA (L)" },
	{ "ret", TcAny, lw_ret, "EXIT (kernel); BRA to the end of an inlined device function" },
	{ "call", TcAny, lw_call, "the callee inlined (ptxcall.c)" },
	{ "exit", TcAny, sel_exit, "EXIT" },
	{ NULL, 0, NULL, NULL },
};
