/* parse.h: state shared by the scanner (sass.l), the grammar (sass.y) and the actions (build.c).
 * Private to frontend/. Token values are byte ranges of the source (Str), numbers, operands and
 * expressions; nothing is malloc'd per token: names are interned and everything that outlives
 * the parse comes from the module arena.
 */
#ifndef FIBER_PARSE_H
#define FIBER_PARSE_H

#include <string.h>

#include "ir.h"
#include "frontend.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

typedef struct Str Str;
typedef struct Term Term;
typedef struct LabDef LabDef;
typedef struct LabRef LabRef;
typedef struct PhiArg PhiArg;
typedef struct OpWord OpWord;
typedef struct Ctx Ctx;
typedef struct VName VName;

/* a slice of the source text */
struct Str {
	uint32_t off;      /* first byte */
	uint32_t len;      /* bytes */
};

/* one term of an address `[R2.64+UR4+-0x10]`, or the index of `c[0x3]`, `desc[UR4]` */
struct Term {
	uint8_t isreg;     /* 1: register r (with suffix sfx and flags), 0: number v */
	uint8_t neg;       /* number written with a leading '-' */
	uint8_t hex;       /* number written in hex */
	uint8_t plus;      /* preceded by '+' in the address */
	uint8_t bad;       /* not a register nor a number (reported) */
	uint16_t flags;    /* register operand flags (FReuse) */
	Reg r;             /* register */
	uint32_t sfx;      /* register suffix atom */
	int64_t v;         /* number */
	Loc loc;           /* the term */
};

/* a label definition */
struct LabDef {
	uint32_t atom;     /* name */
	Fn *fn;            /* function whose code it labels, NULL for a data label */
	uint32_t at;       /* instruction index it precedes (nins: after the last) */
	Loc loc;           /* where defined */
};

/* a label operand, or a label of a branch-target annotation, to resolve at the end of the file */
struct LabRef {
	Fn *fn;            /* function of the instruction */
	uint32_t ins;      /* instruction index */
	uint8_t opnd;      /* operand index; RefTarget: a label of Ins.targets (nothing to patch) */
	uint32_t atom;     /* the label */
	Loc loc;           /* the operand */
};

/* an opcode word as b_ins splits it, kept for the next instruction that spells it alike */
struct OpWord {
	uint32_t name;     /* atom of the opcode without modifiers */
	uint16_t op;       /* its row (op_lookup) */
	uint8_t nmod;      /* modifiers */
	uint32_t mod[MaxMod]; /* their atoms */
};

/* an argument of a phi line */
struct PhiArg {
	uint32_t blk;      /* bbN */
	uint32_t ver;      /* version */
	Loc loc;           /* its text */
};

/* a virtual register's name in the function being read (.vreg, .vpred): Ctx.vname[atom] */
struct VName {
	Fn *fn;            /* the function that declares it; another (or NULL): not declared */
	Reg r;             /* element 0: REG(RR, base) or REG(RP, base) */
	uint16_t size;     /* registers of the tuple (1 for a predicate) */
	Loc loc;           /* the declaration */
};

struct Ctx {
	Module *m;         /* module being built */
	Diag *d;           /* diagnostics */
	const char *text;  /* source text (Src.text) */
	uint32_t len;      /* source bytes */
	uint32_t pos;      /* scanner: offset of the next byte */
	uint32_t rpos;     /* scanner: bytes of the text handed to flex */
	int eof_nl;        /* scanner: the end-of-file newline was returned */
	int nofast;        /* scanner: read every line with the grammar (no fast_line) */
	int atline;        /* scanner: the '\n' rule stopped at a line's first non-blank */
	uint64_t lexwork;  /* scanner: bytes read again (sass.l: a test hook for linear time) */
	uint32_t nest;     /* scanner: parentheses open on this line */

	Section *sec;      /* current section, NULL before the first */
	Fn *fn;            /* current function (text section or cuobjdump Function), or NULL */
	int in_code;       /* an instruction of fn has been read (labels attach to instructions) */

	/* the instruction being read */
	Opnd op[MaxOpnd];  /* operands so far */
	Loc oploc[MaxOpnd]; /* their text */
	uint32_t nopnd;    /* operands read */
	int opover;        /* more than MaxOpnd operands (reported once) */
	Opnd guard;        /* guard predicate */
	int guarded;       /* a guard was read */
	Term term[8];      /* terms of the address being read */
	uint32_t nterm;    /* terms used */
	Opnd ot[64];       /* operand scratch of the instruction: parser values are indices */
	uint32_t not;      /* scratch operands used */
	Term tt[64];       /* term scratch of the instruction */
	uint32_t ntt;      /* scratch terms used */
	SsaAnn *pann;      /* annotations of the instruction, ann.opnd = PendOpnd until placed */
	uint32_t npann;    /* used */
	uint32_t cpann;    /* allocated */
	uint32_t *vbuf;    /* versions of the annotation being read */
	uint32_t nvbuf;    /* used */
	uint32_t cvbuf;    /* allocated */
	int hastgt;        /* a branch-target annotation was read (tgttext, tgtlab) */
	uint32_t tgttext;  /* its text */
	uint32_t *tgtlab;  /* its labels */
	Loc *tgtloc;       /* where each label is written */
	uint32_t ntgt;     /* labels used */
	uint32_t ctgt;     /* labels allocated */
	Fn *encfn;         /* function of the instruction that may take a second encoding line */
	uint32_t encins;   /* that instruction's index */

	/* labels */
	uint32_t *plab;    /* labels waiting for the next instruction (lab index + 1) */
	uint32_t nplab;    /* used */
	uint32_t cplab;    /* allocated */
	LabDef *lab;       /* every label, in order */
	uint32_t nlab;     /* used */
	uint32_t clab;     /* allocated */
	uint32_t *lslot;   /* open addressing: atom -> lab index + 1 */
	uint32_t nlslot;   /* power of two */
	LabRef *ref;       /* label operands */
	uint32_t nref;     /* used */
	uint32_t cref;     /* allocated */
	uint32_t *syms;    /* symbol names of the module, sorted (made when a reference is no label) */
	uint32_t nsyms;    /* used */

	/* opcode words seen */
	OpWord *opw;       /* each distinct word, split */
	uint32_t nopw;     /* used */
	uint32_t copw;     /* allocated */
	uint32_t *opwof;   /* atom of a whole word -> its index in opw + 1, 0 not seen */
	uint32_t copwof;   /* allocated */

	/* directive arguments */
	Expr **arg;        /* arguments of the directive being read */
	uint32_t narg;     /* used */
	uint32_t carg;     /* allocated */
	Expr *bytecache[256]; /* shared `0xNN` expressions of .byte lists */

	/* phi lines waiting for their instruction */
	SsaPhiText *pphi;  /* phis read, waiting for the instruction they stand before */
	uint32_t npphi;    /* used */
	uint32_t cpphi;    /* allocated */
	PhiArg *parg;      /* arguments of the phi being read */
	uint32_t nparg;    /* used */
	uint32_t cparg;    /* allocated */
	uint32_t badreg;   /* offset of the last out-of-range register (reported once) */
	VName *vname;      /* atom of a virtual register's name -> its declaration (vreg_dir) */
	uint32_t cvname;   /* allocated */
	int has_ssa;       /* an annotation or phi was read */
};

enum {
	MaxNest = 200,     /* parentheses open at once on a line */
	PendOpnd = 254,    /* SsaAnn.opnd of an annotation whose operand is not known yet */
	RefTarget = 255,   /* LabRef.opnd of a label listed in a branch-target annotation */
};

/* small helpers shared by the actions */
static inline uint32_t
intern(Ctx *cx, Str s)
{
	return atom(cx->m->atoms, cx->text + s.off, s.len);
}

static inline Loc
sloc(Str s)
{
	return (Loc){ s.off, s.off + s.len };
}

static inline int
streq(Ctx *cx, Str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.len == n && memcmp(cx->text + s.off, lit, n) == 0;
}

static inline int
hasprefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static inline void *
aalloc(Ctx *cx, size_t n)
{
	return arena_alloc(cx->m->arena, n);
}

/* sass.l */
yyscan_t lex_open(Ctx *cx);            /* a scanner over cx->text[0..cx->len) */
void lex_close(yyscan_t scanner);

/* sass.y */
enum { ParseNoFast = 1 };              /* sass_parse_opts: every line through the grammar */
Module *sass_parse_opts(Src *src, Diag *d, int flags);

/* encop.c: another family whose opcode bits (0..8) word has, or -1; *known: op is in the table,
 * *self: op has those bits */
int enc_family(int op, uint64_t word, int *known, int *self);
int enc_dest(int op);          /* bits 16..23 hold the first operand's register */

/* fastline.c */
size_t enc_word(const char *p, const char *end, uint64_t *v); /* `/ * 0x<16 digits> * /`: 24 */
size_t fast_line(Ctx *cx, Loc addrloc, uint64_t addr); /* bytes of text read from cx->pos */
size_t fast_bare(Ctx *cx);     /* the same for lines without an offset comment */

/* build.c and opnd.c: the grammar's actions */
int sass_arch_ok(int sm, int suffix);  /* sm, suffix ('a' or 0) is one fiber reads (ArchReads) */
int too_many(Ctx *cx);
void b_label(Ctx *cx, Str name, Loc loc);
void b_directive(Ctx *cx, Str name, Loc loc, int64_t off);
void b_arg(Ctx *cx, Expr *e);
Expr *b_num(Ctx *cx, uint64_t v, int hexdigits, int neg, Loc loc);
Expr *b_str(Ctx *cx, Str s);
Expr *b_sym(Ctx *cx, Str s);
Expr *b_attr(Ctx *cx, Str s, int quoted);
Expr *b_func(Ctx *cx, Str name, Expr *arg, int postfix);
Expr *b_bin(Ctx *cx, int kind, Expr *a, Expr *b);
void b_nvinfo(Ctx *cx, Str name, Loc loc);
void b_symbols(Ctx *cx, Loc loc);
void b_codefor(Ctx *cx, Str line, Loc loc);
void b_function(Ctx *cx, Str line, Loc loc);
void b_endfunc(Ctx *cx, Loc loc);
void b_enc2(Ctx *cx, uint64_t enc, Loc loc);
void b_vbegin(Ctx *cx);
void b_vadd(Ctx *cx, uint64_t v, Loc loc);
uint32_t b_word(Ctx *cx, Str w, Loc wloc, int hasann, Loc annloc, Str sfx);
uint32_t b_float(Ctx *cx, Loc loc);
uint32_t b_imm(Ctx *cx, uint64_t v, Loc loc);
uint32_t b_labelref(Ctx *cx, Str s, Loc loc);
uint32_t b_sbset(Ctx *cx, Str inner, Loc loc);
uint32_t b_prefix(Ctx *cx, int c, uint32_t o, Loc loc);
uint32_t b_abs(Ctx *cx, uint32_t o, Str sfx, Loc sfxloc);
void b_targets(Ctx *cx, Str text, Loc loc);
void b_tadd(Ctx *cx, uint32_t t, int plus);
uint32_t b_treg(Ctx *cx, uint32_t o, Loc loc);
uint32_t b_tnum(Ctx *cx, uint64_t v, int hex, int neg, Loc loc);
uint32_t b_addr(Ctx *cx, Loc loc);
uint32_t b_bank(Ctx *cx, Str w, Loc wloc, uint32_t idx, int twobr, Str sfx, Loc loc);
void b_opnd(Ctx *cx, uint32_t o, Loc loc, int nocomma);
void b_guard(Ctx *cx, uint32_t o, int neg, Loc loc);
void b_pseudo(Ctx *cx, int kind, uint32_t o, Loc loc);
void b_ins(Ctx *cx, Str opcode, int64_t addr, int nosemi, int nenc, uint64_t enc, Loc loc);
void b_phi(Ctx *cx, uint32_t def, Loc loc);
void b_phiarg(Ctx *cx, Str blk, Loc bloc, uint32_t val, Loc loc);
void b_insreset(Ctx *cx);
void b_finish(Ctx *cx);
void b_free(Ctx *cx);

#endif /* FIBER_PARSE_H */
