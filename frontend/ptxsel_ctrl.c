/* ptxsel_ctrl.c: instruction selection of control flow (ptxsel.h): branches, the end of a
 * kernel. Device-function calls (call, ret in a .func) are selected here too once the ABI is
 * written (docs/ptx-isel.md). */
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

/* exit, and ret of a kernel: EXIT, with the label EIATTR_EXIT_INSTR_OFFSETS names */
static int
sel_exit(Lw *w)
{
	if (!w->fn->entry)
		return lw_error(w, "ret/exit in a device function (the call ABI is not written yet)");
	lw_label_here(w, lw_exit_label(w));
	lw_emit(w, "EXIT");
	return 0;
}

const SelRow ptxsel_ctrl[] = {
	{ "bra", TcAny, sel_bra, "BRA `(L)" },
	{ "ret", TcAny, sel_exit, "EXIT (kernel)" },
	{ "exit", TcAny, sel_exit, "EXIT" },
	{ NULL, 0, NULL, NULL },
};
