/* ptxparse.h: state shared by the PTX scanner (ptx.l), grammar (ptx.y) and constructors
 * (ptxast.c). Private to frontend/. Token values are byte ranges of the source (PStr) and
 * numbers; operands and expressions being read sit on scratch stacks in the context and are
 * copied into the module arena when their instruction, list or declaration is complete.
 */
#ifndef FIBER_PTXPARSE_H
#define FIBER_PTXPARSE_H

#include <string.h>

#include "ir.h"
#include "ptx.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

typedef struct PStr PStr;
typedef struct PNum PNum;
typedef struct PWord PWord;
typedef struct PCtx PCtx;

/* a slice of the source text */
struct PStr {
	uint32_t off;      /* first byte */
	uint32_t len;      /* bytes */
};

/* an integer token */
struct PNum {
	uint64_t v;        /* value */
	uint8_t hex;       /* spelt 0x... */
	uint8_t usfx;      /* U suffix */
};

/* an opcode word split at its dots, kept for the next instruction that spells it alike */
struct PWord {
	uint32_t op;       /* atom of the opcode */
	uint8_t nmod;      /* modifiers */
	uint32_t *mod;     /* their atoms (module arena, shared by the instructions) */
	uint16_t *modoff;  /* offset of each dot in the word */
};

struct PCtx {
	Ptx *p;            /* module being built */
	Diag *d;           /* diagnostics */
	const char *text;  /* source text */
	uint32_t len;      /* bytes */
	uint32_t pos;      /* scanner: offset of the next byte */
	uint32_t rpos;     /* scanner: bytes handed to flex */
	int nerr0;         /* d->nerr at the start */
	uint32_t cstart;   /* scanner: where the open comment starts */

	/* scratch stacks (malloc'd, reused) */
	PtxOpnd *os;       /* operands of the instruction being read, nested lists collapsed */
	uint32_t nos, cos;
	PtxExpr **es;      /* expressions of the initialiser or data line being read */
	uint32_t nes, ces;
	PtxVar *vs;        /* names of the declaration or parameter list being read */
	uint32_t nvs, cvs;
	PtxStmt *st;       /* statements of the function being read */
	uint32_t nst, cst;
	PtxAttr *at;       /* performance directives of the function being read */
	uint32_t nat, cat;
	PtxData *dt;       /* lines of the section being read */
	uint32_t ndt, cdt;
	uint32_t nums[4];  /* values of a performance directive */
	uint32_t nnum;

	/* module-level vectors (malloc'd, copied into the arena at the end) */
	PtxTop *top;
	uint32_t ntop, ctop;
	PtxFunc **fn;
	uint32_t nfn, cfn;
	PtxFile *file;
	uint32_t nfile, cfile;

	/* the declaration being read */
	uint32_t link;     /* linkage words seen (PtxLink), cleared by each declaration or function */
	PtxVar dv;         /* attributes so far (space, align, type, vec, ptr) */
	int dtyped;        /* a type word was read */

	/* the function being read */
	PtxFunc *fnc;      /* the function whose body is being read, else NULL */
	int fopen;         /* a function head was read and its function not yet ended */
	int depth;         /* nested blocks open */

	/* the instruction being read */
	uint8_t guard;     /* 0, 1 `@p`, 2 `@!p` */
	uint32_t gpred;    /* atom */
	Loc gloc;          /* guard text */

	/* opcode words seen: atom of the whole word -> index in ow + 1 */
	PWord *ow;
	uint32_t now, cow;
	uint32_t *owof;
	uint32_t cowof;

	PtxExpr *small[256]; /* shared nodes of the decimal integers 0..255 of data lines */
};

static inline uint32_t
pintern(PCtx *cx, PStr s)
{
	return atom(cx->p->atoms, cx->text + s.off, s.len);
}

static inline Loc
ploc(PStr s)
{
	return (Loc){ s.off, s.off + s.len };
}

static inline int
pstreq(PCtx *cx, PStr s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && memcmp(cx->text + s.off, lit, n) == 0;
}

/* ptx.l */
yyscan_t ptxlex_open(PCtx *cx);
void ptxlex_close(yyscan_t scanner);

/* ptxast.c: the grammar's actions */
void pb_version(PCtx *cx, PStr v, Loc loc);
void pb_target(PCtx *cx, PStr w, Loc loc);
void pb_addrsize(PCtx *cx, PNum n, Loc loc);
void pb_file(PCtx *cx, PNum num, PStr path, int nextra, PNum a, PNum b, Loc loc);
void pb_link(PCtx *cx, int bit);
void pb_dstart(PCtx *cx, int space);
void pb_dword(PCtx *cx, PStr w, Loc loc);
void pb_dalign(PCtx *cx, PNum n, Loc loc);
void pb_dname(PCtx *cx, PStr name, Loc loc);
void pb_drange(PCtx *cx, PNum n, Loc loc);
void pb_ddim(PCtx *cx, int has, PNum n, Loc loc);
void pb_dinit(PCtx *cx, PtxExpr *e);
void pb_decl(PCtx *cx, Loc loc);
PtxExpr *pb_eint(PCtx *cx, PNum n, int neg, Loc loc);
PtxExpr *pb_efloat(PCtx *cx, int kind, uint64_t bits, PStr s, Loc loc);
PtxExpr *pb_esym(PCtx *cx, PStr s, int generic, Loc loc);
PtxExpr *pb_eadd(PCtx *cx, PtxExpr *a, PtxExpr *b, Loc loc);
void pb_epush(PCtx *cx, PtxExpr *e);
PtxExpr *pb_elist(PCtx *cx, uint32_t mark, Loc loc);
uint32_t pb_emark(PCtx *cx);
void pb_fstart(PCtx *cx, int entry, Loc loc);
void pb_fname(PCtx *cx, PStr name, Loc loc);
void pb_fparams(PCtx *cx, int ret);
void pb_fnoreturn(PCtx *cx);
void pb_fattr(PCtx *cx, PStr name, Loc loc);
void pb_fnum(PCtx *cx, PNum n, Loc loc);
void pb_fbody(PCtx *cx);
void pb_fend(PCtx *cx, int body, Loc loc);
void pb_pname(PCtx *cx, PStr name, Loc loc);   /* a parameter name, with the attributes */
void pb_label(PCtx *cx, PStr name, Loc loc);
void pb_begin(PCtx *cx, Loc loc);
void pb_end(PCtx *cx, Loc loc);
void pb_loc(PCtx *cx, PNum f, PNum l, PNum c, Loc loc);
void pb_locinl(PCtx *cx, PStr w1, PStr fname, PStr w2, PNum f, PNum l, PNum c, Loc wloc);
void pb_pragma(PCtx *cx, PStr s, Loc loc);
uint32_t pb_pmark(PCtx *cx);
void pb_proto(PCtx *cx, PStr name, uint32_t retmark, int hasret, uint32_t parmark, Loc loc);
void pb_guard(PCtx *cx, PStr reg, int neg, Loc loc);
void pb_ins(PCtx *cx, PStr word, Loc wloc, Loc loc);
void pb_insreset(PCtx *cx);
uint32_t pb_oname(PCtx *cx, PStr s, int neg, Loc loc);
uint32_t pb_oimm(PCtx *cx, PNum n, int neg, Loc loc);
uint32_t pb_ofloat(PCtx *cx, int kind, uint64_t bits, PStr s, Loc loc);
uint32_t pb_osink(PCtx *cx, Loc loc);
uint32_t pb_olist(PCtx *cx, int kind, uint32_t mark, Loc loc); /* collapse os[mark..] */
uint32_t pb_omark(PCtx *cx);
uint32_t pb_oaddr(PCtx *cx, uint32_t mark, int hasoff, int64_t off, Loc loc);
void pb_secstart(PCtx *cx, PStr name, Loc loc);
void pb_seclabel(PCtx *cx, PStr name, Loc loc);
void pb_secdata(PCtx *cx, PStr type, uint32_t mark, Loc loc);
void pb_secend(PCtx *cx, Loc loc);
void pb_toppragma(PCtx *cx, PStr s, Loc loc);
void pb_finish(PCtx *cx);
void pb_free(PCtx *cx);
int pb_too_many(PCtx *cx);

#endif /* FIBER_PTXPARSE_H */
