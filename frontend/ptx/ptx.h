/* ptx.h: the PTX front end (issue 11): a reentrant scanner (ptx.l) and a pure parser (ptx.y) for
 * PTX as nvcc 13 writes it (ISA 8.x/9.x), the AST they build (constructors and the printer in
 * ptxast.c), and the semantic check (ptxcheck.c, with the instruction table ptxops.h).
 *
 * The AST keeps the text's structure: a module of top-level items (functions, variables, debug
 * sections), each function a flat list of statements in text order where a nested `{ ... }`
 * block is a pair of PsBegin/PsEnd statements. Names are atoms (the module's Atoms), numbers are
 * values, every node has the Loc of its text. Everything lives in the module's arena; ptx_free
 * releases it all. The parser is opcode-agnostic; ptx_check gives instructions meaning.
 */
#ifndef FIBER_PTX_H
#define FIBER_PTX_H

#include "ir.h"

typedef struct Ptx Ptx;
typedef struct PtxTop PtxTop;
typedef struct PtxFile PtxFile;
typedef struct PtxFunc PtxFunc;
typedef struct PtxVar PtxVar;
typedef struct PtxExpr PtxExpr;
typedef struct PtxAttr PtxAttr;
typedef struct PtxStmt PtxStmt;
typedef struct PtxIns PtxIns;
typedef struct PtxOpnd PtxOpnd;
typedef struct PtxSection PtxSection;
typedef struct PtxData PtxData;
typedef struct PtxProto PtxProto;

enum {
	PtxMaxMod = 24,    /* modifiers of one opcode word */
	PtxMaxOpnd = 16,   /* operands of one instruction (more is an error) */
	PtxMaxDim = 4,     /* array dimensions of a variable */
	PtxMaxSub = 1024,  /* elements of a vector, list or address operand */
};

/* state spaces of a declaration */
enum PtxSpace {
	PsNoSpace,         /* none written (a parameter of .callprototype may omit it) */
	PsReg,             /* .reg */
	PsSreg,            /* .sreg */
	PsConst,           /* .const */
	PsGlobal,          /* .global */
	PsLocal,           /* .local */
	PsParam,           /* .param */
	PsShared,          /* .shared */
	PsTex,             /* .tex */
	NPtxSpace
};

/* linkage and other attributes of a declaration or function (bits) */
enum PtxLink {
	PlVisible = 1 << 0, /* .visible */
	PlExtern = 1 << 1,  /* .extern */
	PlWeak = 1 << 2,    /* .weak */
	PlCommon = 1 << 3,  /* .common */
	PlPtr = 1 << 4,     /* a parameter's .ptr (with ptrspace, ptralign) */
};

/* an initialiser or the expression of a data line */
enum PtxExprKind {
	PeInt,             /* integer: ival; hex says it was spelt 0x..., usfx an U suffix */
	PeF32,             /* 0fXXXXXXXX: bits in ival */
	PeF64,             /* 0dXXXXXXXXXXXXXXXX: bits in ival */
	PeFDec,            /* decimal float literal: fval */
	PeSym,             /* a name: atom */
	PeGeneric,         /* generic(name): atom */
	PeList,            /* {a, b, ...}: nsub elements in sub */
	PeAdd,             /* sub[0] + sub[1] (a symbol plus an offset) */
};

struct PtxExpr {
	uint8_t kind;      /* PtxExprKind */
	uint8_t hex;       /* PeInt: spelt in hex */
	uint8_t usfx;      /* PeInt: with the U suffix */
	uint32_t atom;     /* PeSym, PeGeneric */
	uint32_t nsub;     /* PeList, PeAdd */
	int64_t ival;      /* PeInt value (negative if written with '-'), PeF32/PeF64 bits */
	double fval;       /* PeFDec */
	PtxExpr **sub;     /* PeList elements, PeAdd operands */
	Loc loc;           /* its text */
};

/* a variable, register, parameter or return-parameter declaration (one name) */
struct PtxVar {
	uint32_t name;     /* atom: "%r", "%p", "softmax_rows_param_0", "_ZZ4gsumE1s" */
	uint8_t space;     /* PtxSpace */
	uint8_t link;      /* PtxLink bits */
	uint8_t vec;       /* .v2/.v4/.v8: 2, 4, 8; 0 scalar */
	uint8_t ndim;      /* array dimensions (0: scalar) */
	uint8_t ptrspace;  /* PlPtr: PtxSpace of .ptr.global etc., 0 generic */
	uint32_t type;     /* atom: the type without the dot ("b32", "pred", "f16x2", "texref") */
	uint32_t align;    /* .align N, 0 when absent */
	uint32_t ptralign; /* PlPtr: .align N of the pointee, 0 when absent */
	uint32_t range;    /* .reg .b32 %r<N>: N (the names %r0..%r(N-1)); 0 for a single name */
	int32_t dim[PtxMaxDim]; /* array sizes; -1 for `[]` (sized by the initialiser) */
	PtxExpr *init;     /* `= ...` initialiser, NULL when absent */
	Loc loc;           /* the name */
};

/* a performance directive of a function: `.maxntid 128, 1, 1`, `.explicitcluster` */
struct PtxAttr {
	uint32_t name;     /* atom with the dot: ".maxntid" */
	uint8_t nval;      /* values (0..3) */
	uint32_t val[3];   /* the values */
	Loc loc;           /* the directive */
};

/* `.file 1 "path"` (optionally `, timestamp, size`) */
struct PtxFile {
	uint32_t num;      /* file number */
	uint32_t path;     /* atom: the path without quotes */
	uint8_t nextra;    /* 0 or 2 */
	uint64_t extra[2]; /* timestamp, size */
	Loc loc;           /* the directive */
};

/* one operand */
enum PtxOpndKind {
	PoName,            /* a name: register, special register, variable, function, label, param;
	                      atom; sfx the atom of a `.x` component ("%tid" with sfx "x") */
	PoImm,             /* integer immediate: ival (hex, usfx: spelling) */
	PoF32,             /* 0fXXXXXXXX: ival holds the bits */
	PoF64,             /* 0dXXXXXXXXXXXXXXXX: ival holds the bits */
	PoFDec,            /* decimal float: fval */
	PoSink,            /* `_` */
	PoVec,             /* {a, b, c, d}: sub */
	PoAddr,            /* [base], [base+off], [base, {coords}], [base, b]: sub[0] base (absent
	                      when nsub == 0: `[0x100]` is sub[0] an immediate); off, hasoff; sub[1..]
	                      the operands after commas */
	PoList,            /* (a, b) of call: sub (may be empty) */
	PoPair,            /* a|b of setp and shfl: sub[0], sub[1] */
};

/* where ptx_check resolved a PoName */
enum PtxWhat {
	PwNone,            /* not resolved (before ptx_check, or a name of a skipped operand) */
	PwReg,             /* a declared register: decl */
	PwSreg,            /* a special register (%tid, %laneid, ...) */
	PwVar,             /* a variable or parameter: decl */
	PwFunc,            /* a function: func */
	PwLabel,           /* a label of the function */
	PwProto,           /* a .callprototype label */
};

struct PtxOpnd {
	uint8_t kind;      /* PtxOpndKind */
	uint8_t neg;       /* PoName: `!%p` (predicate negation); PoImm: written with '-' */
	uint8_t hex;       /* PoImm: spelt in hex */
	uint8_t usfx;      /* PoImm: U suffix */
	uint8_t hasoff;    /* PoAddr: an offset was written */
	uint8_t what;      /* PoName: PtxWhat (ptx_check) */
	uint16_t nsub;     /* PoVec, PoAddr, PoList, PoPair */
	uint32_t atom;     /* PoName */
	uint32_t sfx;      /* PoName: component atom (no dot), 0 none */
	int64_t ival;      /* PoImm value, PoF32/PoF64 bits, PoAddr offset */
	double fval;       /* PoFDec */
	PtxOpnd *sub;      /* nsub operands (module arena) */
	const PtxVar *decl; /* PwReg, PwVar: the declaration (ptx_check) */
	Loc loc;           /* its text */
};

/* one instruction: `@!%p1 ld.global.nc.v2.f32 {%f1, %f2}, [%rd3+8];` */
struct PtxIns {
	uint32_t op;       /* atom: the opcode without modifiers ("ld") */
	int16_t row;       /* row of the instruction table (ptxops.h), -1 before ptx_check */
	uint8_t nmod;      /* modifiers */
	uint8_t nopnd;     /* operands */
	uint8_t guard;     /* 0 none, 1 `@p`, 2 `@!p` */
	uint32_t gpred;    /* guard: atom of the predicate */
	const PtxVar *gdecl; /* guard: its declaration (ptx_check) */
	uint32_t *mod;     /* nmod atoms, without the dot ("global", "nc", "v2", "f32") */
	uint16_t *modoff;  /* byte offset of each modifier's dot from the opcode word's start */
	PtxOpnd *opnd;     /* nopnd operands */
	Loc gloc;          /* guard text */
	Loc oploc;         /* the opcode word with its modifiers */
	Loc loc;           /* the whole instruction up to ';' */
};

/* `.callprototype` label: `prototype_2 : .callprototype (.param .b32 _) _ (.param .b32 _);` */
struct PtxProto {
	uint32_t name;     /* atom of the label */
	PtxVar *ret;       /* return parameters */
	uint32_t nret;     /* used */
	PtxVar *param;     /* parameters */
	uint32_t nparam;   /* used */
	Loc loc;           /* the whole statement */
};

/* statements of a function body, in text order */
enum PtxStmtKind {
	PsIns,             /* an instruction: ins */
	PsLabel,           /* `name:`: atom */
	PsDecl,            /* one declaration statement: var[0..nvar) (`.reg .b32 %r<5>, %x;`) */
	PsBegin,           /* `{`: a nested block opens (a new scope) */
	PsEnd,             /* `}` */
	PsLoc,             /* `.loc F L C[, function_name N, inlined_at F L C]`: loc */
	PsPragma,          /* `.pragma "s";`: atom of the string without quotes */
	PsProto,           /* a .callprototype: proto */
};

struct PtxStmt {
	uint8_t kind;      /* PtxStmtKind */
	uint32_t nvar;     /* PsDecl: names declared */
	uint32_t atom;     /* PsLabel, PsPragma */
	PtxIns *ins;       /* PsIns */
	PtxVar *var;       /* PsDecl */
	PtxProto *proto;   /* PsProto */
	struct {
		uint32_t file, line, col; /* the position */
		uint32_t fname;           /* atom of the function_name label, 0 none */
		uint32_t ifile, iline, icol; /* inlined_at (ifile 0: none) */
	} dl;              /* PsLoc */
	Loc loc;           /* its text */
};

struct PtxFunc {
	uint32_t name;     /* atom */
	uint8_t entry;     /* 1 `.entry`, 0 `.func` */
	uint8_t link;      /* PtxLink bits */
	uint8_t noreturn;  /* `.noreturn` */
	uint8_t body;      /* 1 a body was given, 0 a declaration only */
	PtxVar *ret;       /* return parameters `(.param .b32 func_retval0)` */
	uint32_t nret;     /* used */
	PtxVar *param;     /* parameters */
	uint32_t nparam;   /* used */
	PtxAttr *attr;     /* performance directives (.maxntid, .reqnctapercluster, ...) */
	uint32_t nattr;    /* used */
	PtxStmt *st;       /* the body */
	uint32_t nst;      /* statements */
	Loc loc;           /* the name */
};

/* a data line of a .section: `.b8 95,90,78` (type) or a label `$L__info_string0:` (type 0) */
struct PtxData {
	uint32_t type;     /* atom of the type ("b8", "b32"); 0 for a label */
	uint32_t label;    /* atom of the label, type 0 */
	PtxExpr **val;     /* values */
	uint32_t nval;     /* used */
	Loc loc;           /* the line */
};

/* `.section .debug_str { ... }` */
struct PtxSection {
	uint32_t name;     /* atom with the dot (".debug_str") */
	PtxData *item;     /* lines in order */
	uint32_t nitem;    /* used */
	Loc loc;           /* the directive */
};

/* a top-level item, in text order */
enum PtxTopKind {
	PtFunc,            /* func */
	PtVar,             /* var[0..nvar): one declaration statement at module scope */
	PtSection,         /* sec */
	PtPragma,          /* `.pragma "s";` at module scope: atom */
	PtFile,            /* a `.file` line: atom is its index in Ptx.file */
};

struct PtxTop {
	uint8_t kind;      /* PtxTopKind */
	uint32_t nvar;     /* PtVar */
	uint32_t atom;     /* PtPragma; PtFile: index in Ptx.file */
	PtxFunc *func;     /* PtFunc */
	PtxVar *var;       /* PtVar */
	PtxSection *sec;   /* PtSection */
	Loc loc;           /* its text */
};

struct Ptx {
	Atoms *atoms;      /* interned strings */
	Arena *arena;      /* every node */
	Src *src;          /* the text it was read from */
	uint32_t vmajor;   /* .version major */
	uint32_t vminor;   /* .version minor */
	uint32_t target[4]; /* .target words, atoms ("sm_90a", "texmode_independent") */
	uint32_t ntarget;  /* used */
	int sm;            /* architecture from the first target word: 80, 90; 0 unknown */
	int sm_suffix;     /* 'a' for sm_90a, else 0 */
	uint32_t addrsize; /* .address_size (32 or 64), 0 when absent */
	PtxFile *file;     /* .file lines */
	uint32_t nfile;    /* used */
	PtxTop *top;       /* top-level items */
	uint32_t ntop;     /* used */
	PtxFunc **fn;      /* every function (declarations included), text order */
	uint32_t nfn;      /* used */
	Loc vloc, tloc;    /* the .version and .target directives */
};

/* ptx.y: the module, or NULL after reporting every error on d; never crashes. Runs ptx_check. */
Ptx *ptx_parse(Src *src, Diag *d);
/* ptx.y: the parse alone (no ptx_check): the syntax tree as written */
Ptx *ptx_parse_only(Src *src, Diag *d);
void ptx_free(Ptx *p);

/* ptxast.c */
const char *ptx_str(const Ptx *p, uint32_t a);  /* atomstr */
void ptx_print(FILE *out, const Ptx *p);        /* PTX text that parses to the same AST */
void ptx_print_ins(FILE *out, const Ptx *p, const PtxIns *i); /* one instruction, no newline */
int ptx_ins_hasmod(const Ptx *p, const PtxIns *i, const char *mod); /* modifier present */
const char *ptx_space_name(int space);         /* ".reg", ".global", "" */
uint32_t ptx_count_ins(const Ptx *p);          /* instructions of every function */

/* ptxcheck.c: every opcode and modifier known (ptxops.h), registers declared before use (with
 * block scopes), names resolved (PtxOpnd.what, decl), labels defined, operand counts and cheap
 * kind checks: 0, or -1 after reporting */
int ptx_check(Ptx *p, Diag *d);
int ptx_op_row(const char *name, size_t n);    /* row in the instruction table, -1 unknown */
const char *ptx_op_name(int row);
uint32_t ptx_nops(void);                       /* rows in the table */
int ptx_op_writes_first(int row);              /* the row's first operand is a destination */

#endif /* FIBER_PTX_H */
