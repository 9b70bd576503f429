/* passlist.c: the flat list of passes that fiberc can run, with their requirements. Analyses
 * that a pass needs (CFG, dominators, SSA) are built by the pass manager (ir/pass.c) first.
 */
#include "passlist.h"
#include "passes.h"
#include "codegen.h"
#include "fpasses.h"

#include <string.h>

static const Pass pass_table[] = {
	{"cfg", "split into basic blocks, build the CFG and the dominator tree", 0, pass_cfg},
	{"ssa", "SSA form over the architectural registers, with phis and def-use chains",
	 PNeedCfg | PMakeSsa, pass_ssa},
	{"verify", "check CFG, dominance of definitions over uses, phis and operand slots",
	 PNeedCfg, pass_verify},
	{"dce-phi", "remove phis whose value is never used", PNeedSsa | PChanges, pass_dce_phi},
	{"liveness", "live registers and pressure per instruction, life ranges with --print-after; "
	 "--stats shows the maximum (maxlive)", PNeedCfg, pass_liveness},
	{"out-of-ssa", "back to the physical registers (drops phis)", PNeedSsa | PLeaveSsa | PChanges,
	 pass_outssa},
	{"mma-banks", "MMA operand registers and .reuse flags chosen against bank conflicts",
	 PNeedCfg | PChanges, pass_mma_banks},
	{"fiber-ra", "FIBER-native: allocate virtual registers (%x) onto the weft's window",
	 PNeedCfg | PChanges, pass_regalloc_window},
	{"sched", "list scheduling per block: latency hidden, live virtual registers kept under a "
	 "limit (before regalloc)", PNeedCfg | PChanges, pass_sched},
	{"ctrl-bits", "stall counts, yield, scoreboards and wait masks for inserted instructions",
	 PNeedCfg | PChanges, pass_ctrl_bits},
	{"remote-writes", "FIBER: V<n> destinations rewritten as local writes + remote reads with "
	 "busy-bit sync (weftset analysis)", PNeedCfg | PNeedSsa | PChanges, pass_remote_writes},
	{"fverify", "FIBER verifier: FIBER-native constructs, every remote write an error", 0,
	 pass_fverify},
	{"phases", "FIBER: phases and fiber counts; SETFIBERNUM split of independent strided loops",
	 PNeedCfg | PNeedSsa | PChanges, pass_phases},
	{"fiber-regs", "FIBER: register windows, .maxfibers and SETFIBERNUM's nreg", PNeedCfg,
	 pass_fiber_regs},
	{"regalloc", "PTX code generation: virtual registers and predicates onto R0..R254 and P0..P6, "
	 "spilling to local memory past the register limit", PNeedCfg | PChanges, pass_regalloc},
	{"regalloc-window", "FIBER-native PTX: regalloc into a weft's window (the budget a slice "
	 "leaves it), the window into the listing", PNeedCfg | PChanges, pass_regalloc_window},
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

/* --print-after=PASS for a pass with a dump of its own (PassOpts.print) */
static int
pass_print(FILE *out, Fn *f, const Pass *p)
{
	if (p->run == pass_ctrl_bits) {
		ctrl_bits_dump(out, f);  /* every instruction's control bits */
		return 1;
	}
	if (p->run == pass_liveness) {
		pressure_dump(out, f);   /* life ranges and pressure (passes/pressure.c) */
		return 1;
	}
	return 0;
}

/* the pass manager lives in ir/ and knows no pass: it is given the SSA builder here */
void
pass_opts_init(PassOpts *o)
{
	memset(o, 0, sizeof *o);
	o->dump = stderr;
	o->make_ssa = ssa_build;
	o->print = pass_print;
	o->verify_extra = fverify_plan; /* --verify-each in FIBER modes (f->plan set) */
}
