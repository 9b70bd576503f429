/* lwpriv.h: what the parts of the PTX lowering share, private to them (ptxlow.c, the driver,
 * and lwemit.c, lwopnd.c, lwreg.c, lwlayout.c, lwinfo.c, lwcolour.c, lwmvar.c): the state of the
 * function being lowered (struct LwPriv, Lw.priv), the listing's counters and module variables
 * (LwCount), and the functions one part calls in another. The selection files (ptxsel_*.c,
 * ptxcall.c) see only ptxlow.h.
 */
#ifndef FIBER_LWPRIV_H
#define FIBER_LWPRIV_H

#include "ptxlow.h"

#include <stdint.h>

/* a kernel parameter or shared variable placed at a byte offset */
typedef struct Place {
	uint32_t name;     /* atom */
	uint32_t off;      /* byte offset */
	uint32_t size;     /* bytes */
} Place;

/* labels are unique in a listing: the counters run over all its functions */
typedef struct LwCount {
	uint32_t info;     /* .L_i<N>: the attribute sizes */
	uint32_t label;    /* .L_p<N>: lw_newlabel */
	uint32_t exit;     /* .L_exit<N> */
	uint32_t fn;       /* functions lowered: .L_end<N>, .L_stop<N> */
	/* module variables (.global in .nv.global[.init], .const in .nv.constant3) */
	struct MVar {
		const PtxVar *v; /* the variable */
		uint32_t off;    /* offset in its section or bank */
		uint32_t size;   /* bytes */
		int c4;          /* .global: its address's slot in .nv.constant4 (x8), -1 none */
	} *mv;
	uint32_t nmv, cmv; /* module variables, and the room for them */
	uint32_t nc4;      /* slots of .nv.constant4 given out */
	uint32_t sys_c4[LW_NSYS]; /* system routine k's address (lw_sys_name): its .nv.constant4
	                           * slot + 1, 0 not called */
	uint32_t sys;      /* .L_sys<N>: system calls labelled (ptxsyscall.c) */
} LwCount;

/* the state of the function being lowered (Lw.priv) */
struct LwPriv {
	LwCount *cnt;      /* the listing's counters and module variables (ptx_lower_text's) */
	LwReg *reg;        /* registers met so far, in first-use order */
	uint32_t nreg, creg; /* ... how many, and the room for them */
	uint32_t *hash;    /* (decl, idx) -> reg index + 1; open addressing */
	uint32_t hcap;     /* ... its slots, a power of 2 */
	uint32_t *names;   /* SASS names taken (atoms in p->atoms), open addressing */
	uint32_t ncap, nnames; /* ... its slots (a power of 2), and the names in it */
	Place *param;      /* parameters of the function */
	uint32_t nparam;   /* ... how many */
	uint32_t param_size; /* bytes of the parameter block */
	Place *shared;     /* shared variables the function names */
	uint32_t nshared, cshared; /* ... how many, and the room for them */
	uint32_t shared_size; /* bytes of static shared memory */
	Place *local;      /* .local variables of the function, placed in its frame */
	uint32_t nlocal, clocal; /* ... how many, and the room for them */
	int compact;       /* registers named by colour (ptx_compact): a large function */
	struct LwFold {    /* an add folded into what uses or makes its operand (lwfold.c) */
		const PtxIns *def; /* the add: an address fold writes nothing for it; a wide fold
		                    * writes IMAD.WIDE for it */
		const PtxIns *mul; /* a wide fold: the mul.wide it absorbs (written nothing), else NULL */
		const PtxVar *decl; /* an address fold: the add's destination: declaration ... */
		uint32_t atom;     /* ... and name */
		const PtxOpnd *base; /* an address fold: the register the addresses use instead; a wide
		                      * fold: the add's other operand, the IMAD.WIDE's addend */
		int64_t imm;       /* an address fold: added to their offsets */
	} *fold;
	uint32_t nfold, cfold; /* folds, and the room for them */
	const PtxFunc *foldfn; /* the function the folds were planned for (not an inlined body) */
	uint32_t ncolour[5]; /* compact: colours used per LwKind */
	uint32_t tmpn[4], tmpdecl_n[4]; /* compact: temporaries of the current instruction per
	                      * kind (t, w, x, q) and how many of each are declared */
	LwBuf tmpdecl;     /* `.vreg` text of the temporaries */
	LwBuf tmppred;     /* `.vpred` text of the temporary predicates */
	uint32_t cc;       /* atom of the carry flag's predicate (lw_carry), 0 none yet */
};

/* lwemit.c */
void lw_buf_add(LwBuf *b, const char *s, size_t n);
void lw_buf_printf(LwBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *lw_ring(Lw *w);                         /* the next operand string (LwStr bytes), emptied */

/* lwreg.c */
const LwReg *lw_reg_get(Lw *w, const PtxVar *decl, uint32_t idx); /* made on first use */
void lw_name_reg(Lw *w, LwReg *r);            /* its SASS name from its PTX name */
const LwReg *lw_opnd_reg(Lw *w, const PtxOpnd *o); /* NULL: o is not a register */
const char *lw_reg_text(Lw *w, const LwReg *r); /* its SASS name, named now if not yet */
/* one name of a `.vreg`/`.vpred` list (directive dir) of size registers */
void lw_decl_item(LwBuf *b, const char *dir, const char *name, int size);
int lw_kind_size(int kind);                   /* R registers of an LwKind */

/* lwlayout.c */
uint32_t lw_var_size(const Lw *w, const PtxVar *v);  /* bytes */
uint32_t lw_var_align(const Lw *w, const PtxVar *v); /* bytes */
struct MVar *lw_mvar(LwCount *c, const PtxVar *v);   /* a module variable's place, NULL none */
void lw_place_params(Lw *w);
void lw_place_shared(Lw *w);
void lw_place_local(Lw *w);                   /* sets Lw.frame_size */

/* lwinfo.c */
void lw_global_info(Lw *w, LwBuf *b, const char *fn); /* the function's attributes in .nv.info */
void lw_kernel_info(Lw *w, LwBuf *b, const char *fn); /* the kernel's .nv.info.<fn> */

/* lwcolour.c */
void lw_plan_regs(Lw *w);                     /* make every register of the function and name it */
void lw_colour_one(Lw *w, LwReg *r);          /* compact: a new colour for a register met late */
const char *lw_colour_name(Lw *w, int kind, uint32_t c); /* "%v3", "%d1", "%x0", "%q2" */

/* lwtuple.c */
void lw_plan_tuples(Lw *w);                   /* mma/ldmatrix vectors as tuples (after naming) */

/* lwfold.c */
typedef struct LwFold LwFold;
void lw_plan_fold(Lw *w);                     /* find the adds to fold (after lw_plan_regs) */
const LwFold *lw_fold_of(const Lw *w, const PtxOpnd *o); /* register o's fold, NULL none */
int lw_fold_skip(const Lw *w, const PtxIns *i); /* i is folded away: nothing to write */
/* i is the add of a wide fold: IMAD.WIDE written through the mad row (0), or -1 after an error;
 * 1: i is not one */
int lw_fold_wide(Lw *w, const PtxIns *i);

/* lwmvar.c */
void lw_collect_mvars(const Ptx *p, LwCount *c);  /* place the module's variables */
int lw_emit_mvars(const Ptx *p, const LwCount *c, LwBuf *b, Diag *d); /* their sections; -1 error */

#endif /* FIBER_LWPRIV_H */
