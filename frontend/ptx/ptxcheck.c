/* ptxcheck.c: the semantic check of a parsed PTX module.
 *
 * Every opcode must be a row of the instruction table (ptxops.h) and every modifier one its row
 * takes; operand counts must be in the row's range; names resolve, in text order and with block
 * scopes, to a register or variable declared before, a special register, a function, a
 * .callprototype or a label of the function (PtxOpnd.what, decl); guards are predicates,
 * destinations are registers, branch targets labels. Declared types must be PTX types.
 * Per-atom facts (table rows, modifier classes, the split of `%r12` into `%r` and 12, the current
 * binding) are kept in one array indexed by atom, so each name costs O(1).
 */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

/* the table */
enum {
#define P(name, min, max, classes, extra, flags) Op_##name,
#include "ptxops.h"
	NPtxOp
};

typedef struct OpRow {
	const char *name;  /* opcode */
	uint8_t min, max;  /* operand count range */
	uint32_t classes;  /* modifier classes (M* bits) */
	const char *extra; /* further modifiers, space separated */
	uint32_t flags;    /* F* bits */
} OpRow;

#define P(name, min, max, classes, extra, flags) { #name, min, max, classes, extra, flags },
static const OpRow ptxrow[NPtxOp] = {
#include "ptxops.h"
};

typedef struct ModRow {
	const char *word;  /* modifier without the dot */
	uint32_t cls;      /* its class */
} ModRow;

#define M(word, cls) { #word, cls },
static const ModRow ptxmodrow[] = {
#include "ptxops.h"
};

/* the special registers (names without a component) and the predefined constant WARP_SZ */
static const char *const sregs[] = {
	"%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid", "%nsmid",
	"%gridid", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
	"%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
	"%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size", "%reserved_smem_offset_begin",
	"%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0",
	"%reserved_smem_offset_1", "%cluster_ctarank", "%cluster_nctarank", "%clusterid",
	"%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%is_explicit_cluster",
	"%current_graph_exec", "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6", "%pm7",
	"WARP_SZ", "%fiberid", "%fibernum", /* FIBER: docs/fiber-cuda.md */
	"%pm0_64", "%pm1_64", "%pm2_64", "%pm3_64", "%pm4_64", "%pm5_64", "%pm6_64", "%pm7_64",
};

/* the declaration types */
static const char *const types[] = {
	"b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "pred", "texref", "samplerref", "surfref",
	"tf32", "e4m3", "e5m2",
};

/* facts about one atom; 0 in every field means not yet known */
typedef struct AInfo {
	uint32_t bind;     /* index + 1 of its innermost binding, 0 unbound */
	uint32_t labfn;    /* serial of the function that defines it as a label */
	int16_t row;       /* opcode row + 1; -1 not an opcode */
	uint8_t known;     /* bits: 1 modcls, 2 split, 4 sreg, 8 tbits and wfl */
	uint8_t sreg;      /* a special register */
	uint8_t tbits;     /* type_bits of the word */
	uint8_t wfl;       /* WordFlag bits of the word */
	uint32_t modcls;   /* classes of the modifier word (0: none); bit 31: a shape word */
	uint32_t pfx;      /* `%r12`: atom of `%r`, 0 when it does not end in digits */
	uint32_t num;      /* `%r12`: 12 */
} AInfo;

/* a binding of a name in a scope */
typedef struct Bind {
	uint32_t atom;     /* name (for a range, the prefix) */
	uint32_t prev;     /* the binding it hides, index + 1 */
	uint8_t what;      /* PtxWhat */
	const PtxVar *decl; /* PwReg, PwVar */
} Bind;

typedef struct Ck {
	Ptx *p;
	Diag *d;
	AInfo *ai;         /* per atom */
	uint32_t cai;      /* allocated */
	Bind *b;           /* binding stack */
	uint32_t nb, cb;
	uint32_t *scope;   /* nb at each open scope */
	uint32_t nscope, cscope;
	uint32_t fnserial; /* the function being checked, from 1 */
	const PtxFunc *fn; /* it */
	int nerr0;         /* d->nerr at the start */
} Ck;

/* what the size checks ask of a word (word_of: once per atom, not by string compares at
 * every instruction) */
enum WordFlag {
	WPred = 1,         /* pred */
	WByte = 2,         /* b8, u8, s8 */
	WCvtTy = 4,        /* a type of cvt: type_bits, pred, ...8, u4, s4, e4m3.., e5m2.. */
	WWide = 8,         /* wide */
	WFlt = 16,         /* f32, f64 */
	WSame = 32,        /* an opcode whose register operands have the type's size (check_sizes) */
	WCvt = 64,         /* cvt */
	WLdSt = 128,       /* ld, ldu, st */
};

static const AInfo *word_of(Ck *c, uint32_t a);

static AInfo *
info(Ck *c, uint32_t a)
{
	if (a >= c->cai)
		vgrow(&c->ai, &c->cai, a + 1, sizeof *c->ai);
	return &c->ai[a];
}

static int
too_many(Ck *c)
{
	int max = c->d->maxerr ? c->d->maxerr : MaxErrors;

	return c->d->nerr >= max;
}

int
ptx_op_row(const char *name, size_t n)
{
	for (int k = 0; k < NPtxOp; k++)
		if (strlen(ptxrow[k].name) == n && memcmp(ptxrow[k].name, name, n) == 0)
			return k;
	return -1;
}

const char *
ptx_op_name(int row)
{
	return row >= 0 && row < NPtxOp ? ptxrow[row].name : "";
}

int
ptx_op_writes_first(int row)
{
	return row >= 0 && row < NPtxOp && (ptxrow[row].flags & Fd);
}

uint32_t
ptx_nops(void)
{
	return NPtxOp;
}

static int
row_of(Ck *c, uint32_t op)
{
	AInfo *in = info(c, op);

	if (in->row == 0) {
		const char *s = ptx_str(c->p, op);
		int r = ptx_op_row(s, strlen(s));
		in = info(c, op);
		in->row = (int16_t)(r < 0 ? -1 : r + 1);
	}
	return in->row < 0 ? -1 : in->row - 1;
}

static int
isdigits(const char *s, const char *e)
{
	if (s == e)
		return 0;
	for (; s < e; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* the class bits of a modifier word: a table word, or by shape m16n8k16, m8n8, x4, 2d */
static uint32_t
modcls(Ck *c, uint32_t a)
{
	AInfo *in = info(c, a);
	const char *s, *e;
	uint32_t cls = 0;

	if (in->known & 1)
		return in->modcls;
	s = ptx_str(c->p, a);
	e = s + strlen(s);
	for (size_t k = 0; k < sizeof ptxmodrow / sizeof ptxmodrow[0]; k++)
		if (strcmp(ptxmodrow[k].word, s) == 0)
			cls |= ptxmodrow[k].cls;
	if (!cls) {
		const char *n = s[0] == 'm' ? strchr(s, 'n') : NULL, *k = n ? strchr(n, 'k') : NULL;
		if (n && isdigits(s + 1, n) && (k ? isdigits(n + 1, k) && isdigits(k + 1, e)
		                                  : isdigits(n + 1, e)))
			cls = MX;
		else if (s[0] == 'x' && isdigits(s + 1, e))
			cls = MX;
		else if (e - s >= 2 && e[-1] == 'd' && isdigits(s, e - 1))
			cls = MX;
	}
	in = info(c, a);
	in->known |= 1;
	in->modcls = cls;
	return cls;
}

/* a word of a row's extra list */
static int
in_extra(const char *extra, const char *w)
{
	size_t n = strlen(w);

	for (const char *s = extra; (s = strstr(s, w)); s += n)
		if ((s == extra || s[-1] == ' ') && (s[n] == ' ' || s[n] == 0))
			return 1;
	return 0;
}

static int
is_sreg(Ck *c, uint32_t a)
{
	AInfo *in = info(c, a);

	if (!(in->known & 4)) {
		const char *s = ptx_str(c->p, a);
		int yes = 0;
		size_t n = strlen(s);
		for (size_t k = 0; k < sizeof sregs / sizeof sregs[0] && !yes; k++)
			yes = strcmp(sregs[k], s) == 0;
		/* %envreg0..%envreg31 */
		if (!yes && n > 7 && strncmp(s, "%envreg", 7) == 0 && isdigits(s + 7, s + n))
			yes = 1;
		in = info(c, a);
		in->known |= 4;
		in->sreg = (uint8_t)yes;
	}
	return in->sreg;
}

/* `%r12` -> `%r`, 12 (pfx 0 when the name does not end in digits) */
static void
split(Ck *c, uint32_t a, uint32_t *pfx, uint32_t *num)
{
	AInfo *in = info(c, a);

	if (!(in->known & 2)) {
		const char *s = ptx_str(c->p, a);
		size_t n = strlen(s), k = n;
		uint32_t p = 0, v = 0;
		while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
			k--;
		if (k > 0 && k < n && n - k <= 9) {
			p = atom(c->p->atoms, s, k);
			for (size_t j = k; j < n; j++)
				v = v * 10 + (uint32_t)(s[j] - '0');
		}
		in = info(c, a);
		in->known |= 2;
		in->pfx = p;
		in->num = v;
	}
	*pfx = in->pfx;
	*num = in->num;
}

/* ---- scopes ------------------------------------------------------------------------------- */

static void
scope_open(Ck *c)
{
	vgrow(&c->scope, &c->cscope, c->nscope + 1, sizeof *c->scope);
	c->scope[c->nscope++] = c->nb;
}

static void
scope_close(Ck *c)
{
	uint32_t to = c->scope[--c->nscope];

	while (c->nb > to) {
		Bind *b = &c->b[--c->nb];
		info(c, b->atom)->bind = b->prev;
	}
}

static void
bind(Ck *c, uint32_t a, int what, const PtxVar *decl, Loc loc)
{
	AInfo *in = info(c, a);
	uint32_t from = c->nscope ? c->scope[c->nscope - 1] : 0;
	Bind *b;

	if (in->bind > from) {
		const Bind *old = &c->b[in->bind - 1];
		/* a declaration after a function's forward declaration, or `.extern` then a definition */
		if (!(old->what == PwFunc && what == PwFunc) && !(old->decl && (old->decl->link & PlExtern))) {
			error_at(c->d, loc, "redefinition of '%s'", ptx_str(c->p, a));
			return;
		}
	}
	vgrow(&c->b, &c->cb, c->nb + 1, sizeof *c->b);
	b = &c->b[c->nb++];
	b->atom = a;
	b->prev = info(c, a)->bind;
	b->what = (uint8_t)what;
	b->decl = decl;
	info(c, a)->bind = c->nb;
}

static void
check_type(Ck *c, const PtxVar *v)
{
	const char *t = ptx_str(c->p, v->type);

	if (!v->type)
		return;
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
		if (strcmp(types[k], t) == 0)
			return;
	error_at(c->d, v->loc, "unknown type '.%s' in the declaration of '%s'", t,
	         ptx_str(c->p, v->name));
}

static void
declare(Ck *c, const PtxVar *v)
{
	check_type(c, v);
	if (v->space == PsReg && v->init)
		error_at(c->d, v->loc, "a register cannot have an initialiser");
	bind(c, v->name, v->space == PsReg ? PwReg : PwVar, v, v->loc);
}

/* the binding of a name, with `%r12` found through a `%r<N>` declaration */
static const Bind *
lookup(Ck *c, uint32_t a)
{
	AInfo *in = info(c, a);
	uint32_t pfx, num;

	if (in->bind) {
		const Bind *b = &c->b[in->bind - 1];
		if (!(b->decl && b->decl->range))
			return b;
	}
	split(c, a, &pfx, &num);
	if (pfx && info(c, pfx)->bind) {
		const Bind *b = &c->b[info(c, pfx)->bind - 1];
		if (b->decl && b->decl->range && num < b->decl->range)
			return b;
	}
	return NULL;
}

/* ---- operands ------------------------------------------------------------------------------ */

static void
resolve(Ck *c, PtxOpnd *o)
{
	const Bind *b;

	if (o->kind != PoName) {
		for (uint32_t k = 0; k < o->nsub; k++)
			resolve(c, &o->sub[k]);
		return;
	}
	if ((b = lookup(c, o->atom))) {
		o->what = b->what;
		o->decl = b->decl;
	} else if (is_sreg(c, o->atom)) {
		o->what = PwSreg;
	} else if (info(c, o->atom)->labfn == c->fnserial) {
		o->what = PwLabel;
	} else {
		const char *s = ptx_str(c->p, o->atom);
		error_at(c->d, o->loc, s[0] == '%' ? "use of undeclared register '%s'"
		                                   : "use of undeclared identifier '%s'", s);
	}
}

static int
is_reg(const PtxOpnd *o)
{
	return o->kind == PoName && o->what == PwReg;
}

static int
is_pred(Ck *c, const PtxOpnd *o)
{
	return is_reg(o) && o->decl && (word_of(c, o->decl->type)->wfl & WPred);
}

/* a destination: a register, `_`, or a vector or pair of them */
static int
is_dest(const PtxOpnd *o)
{
	if (o->kind == PoSink || is_reg(o))
		return 1;
	if (o->kind == PoVec || o->kind == PoPair) {
		for (uint32_t k = 0; k < o->nsub; k++)
			if (!is_dest(&o->sub[k]))
				return 0;
		return 1;
	}
	return 0;
}

/* the bits of a type word: 16 for f16/b16/..., 32 for f16x2/bf16x2/f32/..., 64, 128; 0 for a
 * word that is not one of these (pred, 8-bit types, fp8, sub-byte) */
static int
type_bits(const char *t)
{
	static const struct { const char *w; int bits; } tab[] = {
		{"b16", 16}, {"u16", 16}, {"s16", 16}, {"f16", 16}, {"bf16", 16},
		{"b32", 32}, {"u32", 32}, {"s32", 32}, {"f32", 32}, {"f16x2", 32}, {"bf16x2", 32},
		{"tf32", 32}, {"b64", 64}, {"u64", 64}, {"s64", 64}, {"f64", 64}, {"b128", 128},
	};

	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
		if (strcmp(t, tab[k].w) == 0)
			return tab[k].bits;
	return 0;
}

/* the opcodes of check_sizes */
static const char *const same_ops[] = {
	"add", "sub", "mul", "mad", "fma", "min", "max", "neg", "abs", "div", "rem", "and", "or",
	"xor", "not", "cnot", "copysign", "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos",
	"tanh", "selp", "mov", "setp", NULL
};

/* the facts of word a (its type_bits and WordFlag bits), found once */
static const AInfo *
word_of(Ck *c, uint32_t a)
{
	AInfo *in = info(c, a);

	if (!(in->known & 8)) {
		const char *w = ptx_str(c->p, a);
		size_t n = strlen(w);
		int bits = type_bits(w), k;
		unsigned f = 0;
		if (!strcmp(w, "pred"))
			f |= WPred;
		if (!strcmp(w, "b8") || !strcmp(w, "u8") || !strcmp(w, "s8"))
			f |= WByte;
		if (bits || (f & WPred) || (n && w[n - 1] == '8') || !strcmp(w, "u4") ||
		    !strcmp(w, "s4") || !strncmp(w, "e4m3", 4) || !strncmp(w, "e5m2", 4))
			f |= WCvtTy;
		if (!strcmp(w, "wide"))
			f |= WWide;
		if (!strcmp(w, "f32") || !strcmp(w, "f64"))
			f |= WFlt;
		for (k = 0; same_ops[k] && strcmp(same_ops[k], w) != 0; k++)
			;
		if (same_ops[k])
			f |= WSame;
		if (!strcmp(w, "cvt"))
			f |= WCvt;
		if (!strcmp(w, "ld") || !strcmp(w, "ldu") || !strcmp(w, "st"))
			f |= WLdSt;
		in = info(c, a);
		in->known |= 8;
		in->tbits = (uint8_t)bits;
		in->wfl = (uint8_t)f;
	}
	return in;
}

/* cvt.D.S d, a[, b]: d against D and the sources against S; .f32 and .f64 take a register of
 * their size, the integer and 16-bit types one at least as wide (cvt.u32.u64 %r, %rd: the
 * narrowing is the point; an .f16 may sit in a .b32 register) */
static void
check_cvt_sizes(Ck *c, const PtxIns *i)
{
	uint32_t ty[2] = {0};
	unsigned nt = 0;

	for (uint32_t m = 0; m < i->nmod; m++) {
		if (word_of(c, i->mod[m])->wfl & WCvtTy) {
			if (nt == 2)
				return;   /* cvt.pack and other forms with more types */
			ty[nt++] = i->mod[m];
		}
	}
	if (nt != 2)
		return;
	for (uint32_t n = 0; n < i->nopnd && n < 3; n++) {
		const PtxOpnd *o = &i->opnd[n];
		const char *t = ptx_str(c->p, ty[n ? 1 : 0]);
		const AInfo *tw = word_of(c, ty[n ? 1 : 0]);
		int bits = tw->tbits, fl = !!(tw->wfl & WFlt);
		if (!is_reg(o) || !o->decl || !bits)
			continue;
		int rb = word_of(c, o->decl->type)->tbits;
		if (rb && (fl ? rb != bits : rb < bits))
			error_at(c->d, o->loc, "'%s' is a %d-bit register; a .%s operand of 'cvt' needs %s%d bits",
			         ptx_str(c->p, o->atom), rb, t, fl ? "" : "at least ", bits);
	}
}

/* PTX's operand size rule for the instructions whose register operands all have the size of the
 * instruction type (add.f64 needs 64-bit registers; .b32 registers serve .f32 and .u32 alike):
 * a register of another size is an error here, before anything is selected for it */
static void
check_sizes(Ck *c, const PtxIns *i)
{
	unsigned opf = word_of(c, i->op)->wfl;
	uint32_t ty = 0;
	int bits = 0, ntypes = 0;

	if (opf & WCvt) {
		check_cvt_sizes(c, i);
		return;
	}
	if (!(opf & WSame))
		return;
	for (uint32_t m = 0; m < i->nmod; m++) {
		const AInfo *w = word_of(c, i->mod[m]);
		if (w->wfl & WWide)
			return;      /* mul.wide, mad.wide: a wider destination */
		if (w->tbits || (w->wfl & (WPred | WByte))) {
			ty = i->mod[m];
			ntypes++;
		}
	}
	/* one type: a mixed-precision form (fma.rn.f32.f16) has its own rules */
	if (ntypes != 1 || !(bits = word_of(c, ty)->tbits))
		return;
	for (uint32_t n = 0; n < i->nopnd; n++) {
		const PtxOpnd *o = &i->opnd[n];
		if (!is_reg(o) || !o->decl)
			continue;
		int rb = word_of(c, o->decl->type)->tbits;
		if (rb && rb != bits)
			error_at(c->d, o->loc, "'%s' is a %d-bit register; '%s.%s' takes %d-bit operands",
			         ptx_str(c->p, o->atom), rb, ptx_str(c->p, i->op), ptx_str(c->p, ty), bits);
	}
}

/* ld, ldu, st: the data operand's elements are as many as the .v2/.v4/.v8 modifier says (one
 * without it: a scalar, or `{%r1}` as Triton writes it), so that no element is dropped or
 * invented by the selection */
static void
check_vec(Ck *c, const PtxIns *i)
{
	const char *op;
	uint32_t want = 1;

	if (!(word_of(c, i->op)->wfl & WLdSt))
		return;
	op = ptx_str(c->p, i->op);
	for (uint32_t m = 0; m < i->nmod; m++) {
		const char *w = ptx_str(c->p, i->mod[m]);
		if (w[0] == 'v' && (w[1] == '2' || w[1] == '4' || w[1] == '8') && !w[2])
			want = (uint32_t)(w[1] - '0');
	}
	for (uint32_t n = 0; n < i->nopnd; n++) {
		const PtxOpnd *o = &i->opnd[n];
		if (o->kind == PoAddr)
			continue;
		if (o->kind == PoVec ? o->nsub != want : want != 1)
			error_at(c->d, o->loc, "'%s' with %s takes a vector of %u elements here", op,
			         want > 1 ? "this .v modifier" : "no .v modifier", want);
		break;   /* the data operand is the first that is not the address */
	}
}

/* ld, ldu, st: a data register narrower than the instruction type is an error (PTX's operand
 * size rule lets it be wider: ld.u8 into a .b32 register; never narrower: ld.u64 into a .b32
 * register has nowhere to put the upper half) */
static void
check_ldst_sizes(Ck *c, const PtxIns *i)
{
	int bits = 0;
	uint32_t ty = 0;

	if (!(word_of(c, i->op)->wfl & WLdSt))
		return;
	for (uint32_t m = 0; m < i->nmod && !bits; m++)
		if ((bits = word_of(c, i->mod[m])->tbits))
			ty = i->mod[m];
	for (uint32_t n = 0; bits && n < i->nopnd; n++) {
		const PtxOpnd *o = &i->opnd[n];
		uint32_t ns = o->kind == PoVec ? o->nsub : 1;
		if (o->kind == PoAddr)
			continue;
		for (uint32_t k = 0; k < ns; k++) {
			const PtxOpnd *e = o->kind == PoVec ? &o->sub[k] : o;
			int rb = is_reg(e) && e->decl ? word_of(c, e->decl->type)->tbits : 0;
			if (rb && rb < bits)
				error_at(c->d, e->loc, "'%s' is a %d-bit register; '%s.%s' needs at least %d bits",
				         ptx_str(c->p, e->atom), rb, ptx_str(c->p, i->op),
				         ptx_str(c->p, ty), bits);
		}
		break;   /* the data operand is the first that is not the address */
	}
}

static Loc
modloc(const PtxIns *i, uint32_t k, const char *w)
{
	uint32_t s = i->oploc.start + i->modoff[k];

	return (Loc){ s, s + 1 + (uint32_t)strlen(w) };
}

static void
check_ins(Ck *c, PtxIns *i)
{
	const OpRow *r;
	int row = row_of(c, i->op), addr = 0, nerr = c->d->nerr;

	i->row = (int16_t)row;
	if (row < 0) {
		const char *s = ptx_str(c->p, i->op);
		error_at(c->d, (Loc){ i->oploc.start, i->oploc.start + (uint32_t)strlen(s) },
		         "unknown PTX instruction '%s'", s);
		return;    /* its operands are not worth more messages */
	}
	for (uint32_t k = 0; k < i->nopnd; k++)
		resolve(c, &i->opnd[k]);
	if (i->guard) {
		const Bind *b = lookup(c, i->gpred);
		Loc gl = { i->gloc.start + i->guard, i->gloc.end };
		if (!b)
			error_at(c->d, gl, "use of undeclared register '%s'", ptx_str(c->p, i->gpred));
		else if (b->what != PwReg || !(word_of(c, b->decl->type)->wfl & WPred))
			error_at(c->d, gl, "guard '%s' is not a predicate register",
			         ptx_str(c->p, i->gpred));
		else
			i->gdecl = b->decl;
	}
	r = &ptxrow[row];
	for (uint32_t k = 0; k < i->nmod; k++) {
		const char *w = ptx_str(c->p, i->mod[k]);
		uint32_t cls = modcls(c, i->mod[k]);
		if ((cls & r->classes) || in_extra(r->extra, w))
			continue;
		error_at(c->d, modloc(i, k, w), "unknown modifier '.%s' for PTX instruction '%s'", w,
		         r->name);
	}
	if (i->nopnd < r->min || i->nopnd > r->max) {
		if (r->min == r->max)
			error_at(c->d, i->loc, "'%s' takes %u operand%s, %u given", r->name, r->min,
			         r->min == 1 ? "" : "s", i->nopnd);
		else
			error_at(c->d, i->loc, "'%s' takes %u to %u operands, %u given", r->name, r->min,
			         r->max, i->nopnd);
		return;
	}
	if (c->d->nerr != nerr)
		return;    /* the operand checks below need resolved names */
	for (uint32_t k = 0; k < i->nopnd; k++)
		addr |= i->opnd[k].kind == PoAddr;
	if ((r->flags & Fa) && !addr)
		error_at(c->d, i->loc, "'%s' needs an address operand [...]", r->name);
	if ((r->flags & Fd) && i->nopnd && !is_dest(&i->opnd[0]))
		error_at(c->d, i->opnd[0].loc, "destination of '%s' must be a register", r->name);
	else if ((r->flags & Fp) && i->nopnd) {
		const PtxOpnd *o = &i->opnd[0];
		if (o->kind == PoPair)
			o = &o->sub[0];
		if (o->kind != PoSink && !is_pred(c, o))
			error_at(c->d, o->loc, "destination of '%s' must be a predicate register", r->name);
	}
	if ((r->flags & Fb) && i->nopnd) {
		const PtxOpnd *o = &i->opnd[i->nopnd - 1];
		if (!(o->kind == PoName && (o->what == PwLabel || o->what == PwReg)))
			error_at(c->d, o->loc, "branch target of '%s' must be a label", r->name);
	}
	check_sizes(c, i);
	check_vec(c, i);
	check_ldst_sizes(c, i);
}

/* ---- functions and the module --------------------------------------------------------------- */

static void
check_fn(Ck *c, const PtxFunc *f)
{
	c->fnserial++;
	c->fn = f;
	/* labels first: a branch may go forward */
	for (uint32_t k = 0; k < f->nst; k++) {
		const PtxStmt *s = &f->st[k];
		if (s->kind == PsLabel || s->kind == PsProto) {
			uint32_t a = s->kind == PsLabel ? s->atom : s->proto->name;
			AInfo *in = info(c, a);
			if (in->labfn == c->fnserial)
				error_at(c->d, s->loc, "redefinition of label '%s'", ptx_str(c->p, a));
			in->labfn = c->fnserial;
		}
	}
	scope_open(c);
	for (uint32_t k = 0; k < f->nret; k++)
		declare(c, &f->ret[k]);
	for (uint32_t k = 0; k < f->nparam; k++)
		declare(c, &f->param[k]);
	scope_open(c);
	for (uint32_t k = 0; k < f->nst && !too_many(c); k++) {
		const PtxStmt *s = &f->st[k];
		switch (s->kind) {
		case PsIns:
			check_ins(c, s->ins);
			break;
		case PsDecl:
			for (uint32_t j = 0; j < s->nvar; j++)
				declare(c, &s->var[j]);
			break;
		case PsBegin:
			scope_open(c);
			break;
		case PsEnd:
			scope_close(c);
			break;
		case PsProto:
			bind(c, s->proto->name, PwProto, NULL, s->proto->loc);
			break;
		default:
			break;
		}
	}
	while (c->nscope > 1)
		scope_close(c);
}

int
ptx_check(Ptx *p, Diag *d)
{
	Ck c;

	memset(&c, 0, sizeof c);
	c.p = p;
	c.d = d;
	c.nerr0 = d->nerr;
	scope_open(&c);
	/* module scope: every variable and function, so the order of definitions does not matter */
	for (uint32_t k = 0; k < p->ntop; k++) {
		const PtxTop *t = &p->top[k];
		if (t->kind == PtVar)
			for (uint32_t j = 0; j < t->nvar; j++)
				declare(&c, &t->var[j]);
		else if (t->kind == PtFunc)
			bind(&c, t->func->name, PwFunc, NULL, t->func->loc);
	}
	for (uint32_t k = 0; k < p->ntop && !too_many(&c); k++)
		if (p->top[k].kind == PtFunc && p->top[k].func->body)
			check_fn(&c, p->top[k].func);
	free(c.ai);
	free(c.b);
	free(c.scope);
	return d->nerr == c.nerr0 ? 0 : -1;
}
