/* passlist.c: the flat list of passes that fiberc can run, with their requirements. Analyses
 * that a pass needs (CFG, dominators, SSA) are built by the pass manager (ir/pass.c) first.
 */
#include "passlist.h"
#include "passes.h"

#include <string.h>

static const Pass pass_table[] = {
	{"cfg", "split into basic blocks, build the CFG and the dominator tree", 0, pass_cfg},
	{"ssa", "SSA form over the architectural registers, with phis and def-use chains",
	 PNeedCfg | PMakeSsa, pass_ssa},
	{"verify", "check CFG, dominance of definitions over uses, phis and operand slots",
	 PNeedCfg, pass_verify},
	{"dce-phi", "remove phis whose value is never used", PNeedSsa | PChanges, pass_dce_phi},
	{"liveness", "live registers per block; --stats shows the maximum (maxlive)", PNeedCfg,
	 pass_liveness},
	{"out-of-ssa", "back to the physical registers (drops phis)", PNeedSsa | PLeaveSsa | PChanges,
	 pass_outssa},
	{"phases", "FIBER: phases and fiber counts; SETFIBERNUM split of independent strided loops",
	 PNeedCfg | PNeedSsa | PChanges, pass_phases},
	{"fiber-regs", "FIBER: register windows, .maxfibers and SETFIBERNUM's nreg", PNeedCfg,
	 pass_fiber_regs},
};

const Pass *
pass_find(const char *name)
{
	for (size_t k = 0; k < sizeof pass_table / sizeof pass_table[0]; k++)
		if (strcmp(pass_table[k].name, name) == 0)
			return &pass_table[k];
	return NULL;
}

void
pass_list(FILE *out)
{
	fprintf(out, "passes (default pipeline: cfg,ssa,verify):\n");
	for (size_t k = 0; k < sizeof pass_table / sizeof pass_table[0]; k++)
		fprintf(out, "  %-12s %s\n", pass_table[k].name, pass_table[k].desc);
}

/* the pass manager lives in ir/ and knows no pass: it is given the SSA builder here */
void
pass_opts_init(PassOpts *o)
{
	memset(o, 0, sizeof *o);
	o->dump = stderr;
	o->make_ssa = ssa_build;
}
