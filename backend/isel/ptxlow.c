/* ptxlow.c: lowering a checked PTX module to SASS text with virtual registers (ptxlow.h): the
 * driver of instruction selection. Per function it maps PTX registers to virtual registers,
 * lays out parameters and shared variables, walks the statements (labels, instructions) calling
 * the selection function of each instruction's row (ptxsel.c), and writes the listing around
 * the code: the module header, .nv.info with the attributes fibersim reads (frontend/sass/nvinfo.c),
 * .nv.constant0.<fn>, .text.<fn> with its .vreg/.vpred declarations, .nv.shared.<fn>. The
 * register count is written as 0 here; the register allocator sets it (backend/regalloc.c).
 */
#include "ptxlow.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* a kernel parameter or shared variable placed at a byte offset */
typedef struct Place {
	uint32_t name;     /* atom */
	uint32_t off;      /* byte offset */
	uint32_t size;     /* bytes */
} Place;

struct LwPriv {
	LwReg *reg;        /* registers met so far, in first-use order */
	uint32_t nreg, creg;
	uint32_t *hash;    /* (decl, idx) -> reg index + 1; open addressing */
	uint32_t hcap;
	uint32_t *names;   /* SASS names taken (atoms in p->atoms), open addressing */
	uint32_t ncap, nnames;
	Place *param;      /* parameters of the function */
	uint32_t nparam;
	uint32_t param_size; /* bytes of the parameter block */
	Place *shared;     /* shared variables the function names */
	uint32_t nshared, cshared;
	uint32_t shared_size; /* bytes of static shared memory */
	Place *local;      /* .local variables of the function, placed in its frame */
	uint32_t nlocal, clocal;
	int compact;       /* registers named by colour (ptx_compact): a large function */
	uint32_t ncolour[5]; /* compact: colours used per LwKind */
	uint32_t tmpn[4], tmpdecl_n[4]; /* compact: temporaries of the current instruction per
	                      * kind (t, w, x, q) and how many of each are declared */
	LwBuf tmpdecl;     /* `.vreg` text of the temporaries */
	LwBuf tmppred;     /* `.vpred` text of the temporary predicates */
	uint32_t cc;       /* atom of the carry flag's predicate (lw_carry), 0 none yet */
};

/* labels are unique in a listing: the counters run over all its functions */
typedef struct LwCount {
	uint32_t info;     /* .L_i<N>: the attribute sizes */
	uint32_t label;    /* .L_p<N>: lw_newlabel */
	uint32_t exit;     /* .L_exit<N> */
	uint32_t fn;       /* functions lowered: .L_end<N>, .L_stop<N> */
	/* module variables (.global in .nv.global[.init], .const in .nv.constant3) */
	struct MVar {
		const PtxVar *v;
		uint32_t off;    /* offset in its section or bank */
		uint32_t size;
		int c4;          /* .global: its address's slot in .nv.constant4 (x8), -1 none */
	} *mv;
	uint32_t nmv, cmv, nc4;
} LwCount;
static LwCount *cnt;           /* the current listing's (ptx_lower sets it) */
static struct MVar *mvar(const PtxVar *v);

/* ---- text buffers ------------------------------------------------------------------------- */

static void
buf_add(LwBuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 4096;
		while (c < b->len + n + 1)
			c *= 2;
		b->s = xrealloc(b->s, c);
		b->cap = c;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void buf_printf(LwBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
buf_vprintf(LwBuf *b, const char *fmt, va_list ap)
{
	char tmp[512];
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(tmp, sizeof tmp, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		buf_add(b, tmp, (size_t)n);
		return;
	}
	char *big = xmalloc((size_t)n + 1);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	buf_add(b, big, (size_t)n);
	free(big);
}

static void
buf_printf(LwBuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

static char *
ring(Lw *w)
{
	char *s = w->ring[w->ringpos++ % LwRing];

	s[0] = 0;
	return s;
}

/* ---- writing ------------------------------------------------------------------------------ */

static void
emit_v(Lw *w, int guard, const char *fmt, va_list ap)
{
	buf_add(&w->code, "        ", 8);
	if (guard && w->guard[0])
		buf_add(&w->code, w->guard, strlen(w->guard));
	buf_vprintf(&w->code, fmt, ap);
	buf_add(&w->code, " ;\n", 3);
}

void
lw_emit(Lw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_v(w, 1, fmt, ap);
	va_end(ap);
}

void
lw_emit_ng(Lw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_v(w, 0, fmt, ap);
	va_end(ap);
}

void
lw_label_here(Lw *w, const char *name)
{
	buf_printf(&w->code, "%s:\n", name);
}

const char *
lw_newlabel(Lw *w)
{
	char *s = ring(w);

	snprintf(s, LwStr, ".L_p%" PRIu32, cnt->label++);
	w->nlabel++;
	return s;
}

const char *
lw_exit_label(Lw *w)
{
	char *s = ring(w);

	snprintf(s, LwStr, ".L_exit%" PRIu32, w->exit0 + w->nexit++);
	return s;
}

const char *
lw_ptxlabel(Lw *w, uint32_t atom)
{
	char *s = ring(w);

	if (w->inl)
		snprintf(s, LwStr, "%s$i%" PRIu32, ptx_str(w->p, atom), w->inl);
	else
		snprintf(s, LwStr, "%s", ptx_str(w->p, atom));
	return s;
}

static int
verr(Lw *w, Loc loc, const char *fmt, va_list ap)
{
	char msg[512], text[160];
	const PtxIns *i = w->ins;
	size_t n = 0;

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (i) {
		n = i->oploc.end - i->oploc.start;
		if (n >= sizeof text)
			n = sizeof text - 1;
		memcpy(text, w->p->src->text + i->oploc.start, n);
	}
	text[n] = 0;
	if (i)
		error_at(w->d, loc, "'%s' is not supported yet: %s", text, msg);
	else
		error_at(w->d, loc, "%s", msg);
	return -1;
}

int
lw_error(Lw *w, const char *fmt, ...)
{
	va_list ap;
	Loc loc = w->ins ? w->ins->oploc : w->fn->loc;

	va_start(ap, fmt);
	verr(w, loc, fmt, ap);
	va_end(ap);
	return -1;
}

int
lw_error_opnd(Lw *w, int k, const char *fmt, ...)
{
	va_list ap;
	Loc loc = w->ins && k < w->ins->nopnd ? w->ins->opnd[k].loc : w->fn->loc;

	va_start(ap, fmt);
	verr(w, loc, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the instruction ---------------------------------------------------------------------- */

int
lw_has(const Lw *w, const char *mod)
{
	return ptx_ins_hasmod(w->p, w->ins, mod);
}

static const char *const type_words[] = {
	"pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32",
	"s64", "f16", "f16x2", "bf16", "bf16x2", "tf32", "f32", "f64", "e4m3", "e5m2", "e4m3x2",
	"e5m2x2", "s4", "u4", "b1", "s16x2", "u16x2", NULL
};

static int
is_type(const char *s)
{
	size_t n = strlen(s);

	/* every type word but pred ends in a digit: most modifiers are rejected at once */
	if (!n || n > 6 || ((s[n - 1] < '0' || s[n - 1] > '9') && strcmp(s, "pred") != 0))
		return 0;
	for (int k = 0; type_words[k]; k++)
		if (strcmp(s, type_words[k]) == 0)
			return 1;
	return 0;
}

const char *
lw_type_n(const Lw *w, int n)
{
	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		if (is_type(m) && n-- == 0)
			return m;
	}
	return "";
}

const char *
lw_type(const Lw *w)
{
	const char *t = "";

	if (w->tins == w->ins && w->tcache)
		return w->tcache;

	for (unsigned k = 0; k < w->ins->nmod; k++) {
		const char *m = ptx_str(w->p, w->ins->mod[k]);
		if (is_type(m))
			t = m;
	}
	((Lw *)w)->tins = w->ins;     /* a cache, not a change of w */
	((Lw *)w)->tcache = t;
	return t;
}

int
lw_type_bits(const char *t)
{
	if (!strcmp(t, "pred") || !strcmp(t, "b1"))
		return 1;
	if (!strcmp(t, "f16x2") || !strcmp(t, "bf16x2") || !strcmp(t, "tf32") || !strcmp(t, "s16x2") ||
	    !strcmp(t, "u16x2"))
		return 32;
	if (!strcmp(t, "e4m3") || !strcmp(t, "e5m2"))
		return 8;
	if (!strcmp(t, "e4m3x2") || !strcmp(t, "e5m2x2"))
		return 16;
	if (!strcmp(t, "s4") || !strcmp(t, "u4"))
		return 4;
	while (*t && (*t < '0' || *t > '9'))
		t++;
	return atoi(t);
}

int
lw_type_signed(const char *t)
{
	return t[0] == 's';
}

int
lw_type_float(const char *t)
{
	return t[0] == 'f' || !strncmp(t, "bf", 2) || !strcmp(t, "tf32") || t[0] == 'e';
}

int
lw_tclass(const char *t)
{
	if (!t[0])
		return TcAny;
	if (!strcmp(t, "pred"))
		return TcPred;
	if (!strcmp(t, "f32") || !strcmp(t, "tf32"))
		return TcF32;
	if (!strcmp(t, "f64"))
		return TcF64;
	if (!strncmp(t, "f16", 3) || !strncmp(t, "bf16", 4))
		return TcHalf;
	if (t[0] == 'e')
		return TcHalf;
	return TcInt;
}

const PtxOpnd *
lw_opnd(const Lw *w, int k)
{
	return k < w->ins->nopnd ? &w->ins->opnd[k] : NULL;
}

int
lw_isimm(const Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	return o && (o->kind == PoImm || o->kind == PoF32 || o->kind == PoF64 || o->kind == PoFDec);
}

int
lw_veclen(const Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	return o && (o->kind == PoVec || o->kind == PoPair) ? o->nsub : 1;
}

/* ---- registers ---------------------------------------------------------------------------- */

static int
kind_of(const char *t)
{
	int bits;

	if (!strcmp(t, "pred"))
		return LkPred;
	bits = lw_type_bits(t);
	if (bits == 64)
		return Lk64;
	if (bits == 128)
		return Lk128;
	if (bits <= 16)
		return Lk16;
	return Lk32;
}

int
lw_vkind(const Lw *w, int k, int e)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && (o->kind == PoVec || o->kind == PoPair))
		o = e < o->nsub ? &o->sub[e] : NULL;
	else if (e)
		o = NULL;
	if (o && o->kind == PoSink)
		return -1;
	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return -2;
	return kind_of(ptx_str(w->p, o->decl->type));
}

static uint32_t
hash_ptr(const void *p, uint32_t idx)
{
	uint64_t x = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull ^ (uint64_t)idx * 0xc2b2ae3d27d4eb4full;

	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

static uint32_t
hash_atom(uint32_t a)
{
	return a * 2654435761u;
}

/* a SASS name not taken yet, from `want` (the PTX name with a '%' in front); taken then */
static uint32_t
take_name(Lw *w, const char *want)
{
	struct LwPriv *v = w->priv;
	char buf[256];
	uint32_t a;
	unsigned n = 0;

	snprintf(buf, sizeof buf, "%.200s", want);
	for (;;) {
		a = atomz(w->p->atoms, buf);
		if (v->nnames * 2 + 2 > v->ncap) {
			uint32_t oc = v->ncap, *old = v->names;
			v->ncap = oc ? oc * 2 : 1024;
			v->names = xmalloc(v->ncap * sizeof *v->names);
			for (uint32_t k = 0; k < oc; k++)
				if (old[k]) {
					uint32_t h = hash_atom(old[k]) & (v->ncap - 1);
					while (v->names[h])
						h = (h + 1) & (v->ncap - 1);
					v->names[h] = old[k];
				}
			free(old);
		}
		uint32_t h = hash_atom(a) & (v->ncap - 1);
		while (v->names[h] && v->names[h] != a)
			h = (h + 1) & (v->ncap - 1);
		if (!v->names[h]) {
			v->names[h] = a;
			v->nnames++;
			return a;
		}
		snprintf(buf, sizeof buf, "%.200s$%u", want, ++n);
	}
}

/* the LwReg of PTX register decl[idx], made on first use */
static const LwReg *
reg_get(Lw *w, const PtxVar *decl, uint32_t idx)
{
	struct LwPriv *v = w->priv;
	uint32_t h;

	if (v->nreg * 2 + 2 > v->hcap) {
		uint32_t oc = v->hcap, *old = v->hash;
		v->hcap = oc ? oc * 2 : 1024;
		v->hash = xmalloc(v->hcap * sizeof *v->hash);
		for (uint32_t k = 0; k < oc; k++)
			if (old[k]) {
				const LwReg *r = &v->reg[old[k] - 1];
				h = hash_ptr(r->decl, r->idx) & (v->hcap - 1);
				while (v->hash[h])
					h = (h + 1) & (v->hcap - 1);
				v->hash[h] = old[k];
			}
		free(old);
	}
	h = hash_ptr(decl, idx) & (v->hcap - 1);
	while (v->hash[h]) {
		const LwReg *r = &v->reg[v->hash[h] - 1];
		if (r->decl == decl && r->idx == idx)
			return r;
		h = (h + 1) & (v->hcap - 1);
	}
	vgrow(&v->reg, &v->creg, v->nreg + 1, sizeof *v->reg);
	LwReg *r = &v->reg[v->nreg++];
	r->decl = decl;
	r->idx = idx;
	r->kind = (uint8_t)kind_of(ptx_str(w->p, decl->type));
	r->name = 0;       /* name_regs or colour_regs names it */
	v->hash[h] = v->nreg;
	return r;
}

/* the virtual register name of r from its PTX name: `%r12`, `%x`; characters SASS names do
 * not take become '_', and a name taken by another scope gets a `$N` suffix */
static void
name_reg(Lw *w, LwReg *r)
{
	char want[256];
	const char *dn = ptx_str(w->p, r->decl->name);

	if (r->decl->range)
		snprintf(want, sizeof want, "%s%s%" PRIu32, dn[0] == '%' ? "" : "%", dn, r->idx);
	else
		snprintf(want, sizeof want, "%s%s", dn[0] == '%' ? "" : "%", dn);
	for (char *c = want + 1; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '$'))
			*c = '_';
	if (want[1] >= '0' && want[1] <= '9') {
		memmove(want + 2, want + 1, strlen(want));
		want[1] = '_';
	}
	r->name = take_name(w, want);
}

static void colour_one(Lw *w, LwReg *r);

/* the register a PoName operand names, NULL if it is not a register */
static const LwReg *
opnd_reg(Lw *w, const PtxOpnd *o)
{
	uint32_t idx = 0;

	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return NULL;
	if (o->decl->range) {
		const char *s = ptx_str(w->p, o->atom) + atomlen(w->p->atoms, o->decl->name);
		idx = (uint32_t)strtoul(s, NULL, 10);
	}
	return reg_get(w, o->decl, idx);
}

const LwReg *
lw_regof(Lw *w, int k)
{
	return opnd_reg(w, lw_opnd(w, k));
}

static const char *
reg_text(Lw *w, const LwReg *rc)
{
	char *s = ring(w);
	LwReg *r = (LwReg *)rc;

	if (!r->name) {            /* a register the scan did not see */
		if (w->priv->compact)
			colour_one(w, r);
		else
			name_reg(w, r);
	}
	snprintf(s, LwStr, "%s", ptx_str(w->p, r->name));
	return s;
}

static const char *
opnd_regtext(Lw *w, const PtxOpnd *o, int k)
{
	const LwReg *r;

	if (o && o->kind == PoSink)
		return "RZ";
	if (!(r = opnd_reg(w, o))) {
		lw_error_opnd(w, k, "operand %d must be a register here", k);
		return "RZ";
	}
	return reg_text(w, r);
}

const char *
lw_reg(Lw *w, int k)
{
	return opnd_regtext(w, lw_opnd(w, k), k);
}

const char *
lw_elem(Lw *w, const char *reg, int k)
{
	char *s = ring(w);

	if (k == 0 || !strcmp(reg, "RZ"))
		snprintf(s, LwStr, "%s", reg);
	else
		snprintf(s, LwStr, "%s[%d]", reg, k);
	return s;
}

const char *
lw_vec(Lw *w, int k, int e)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && (o->kind == PoVec || o->kind == PoPair)) {
		if (e >= o->nsub) {
			lw_error_opnd(w, k, "vector element %d missing", e);
			return "RZ";
		}
		return opnd_regtext(w, &o->sub[e], k);
	}
	if (e) {
		lw_error_opnd(w, k, "operand %d must be a vector here", k);
		return "RZ";
	}
	return lw_reg(w, k);
}

/* ---- immediates ---------------------------------------------------------------------------- */

static uint64_t
imm_bits(const PtxOpnd *o, int fbits)
{
	switch (o->kind) {
	case PoImm:
		return (uint64_t)o->ival;
	case PoF32:
		if (fbits == 64) {
			union { float f; uint32_t u; } a = { .u = (uint32_t)o->ival };
			union { double d; uint64_t u; } b = { .d = a.f };
			return b.u;
		}
		return (uint64_t)o->ival;
	case PoF64:
		if (fbits == 32) {
			union { double d; uint64_t u; } a = { .u = (uint64_t)o->ival };
			union { float f; uint32_t u; } b = { .f = (float)a.d };
			return b.u;
		}
		return (uint64_t)o->ival;
	case PoFDec:
		if (fbits == 64) {
			union { double d; uint64_t u; } b = { .d = o->fval };
			return b.u;
		} else {
			union { float f; uint32_t u; } b = { .f = (float)o->fval };
			return b.u;
		}
	default:
		return 0;
	}
}

int64_t
lw_imm(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (!lw_isimm(w, k)) {
		lw_error_opnd(w, k, "operand %d must be an immediate", k);
		return 0;
	}
	return (int64_t)imm_bits(o, lw_type_bits(lw_type(w)) == 64 ? 64 : 32);
}

/* a 32-bit integer as SASS writes it */
static const char *
int_text(Lw *w, uint32_t v)
{
	char *s = ring(w);

	if ((int32_t)v < 0 && (int32_t)v > -0x10000)
		snprintf(s, LwStr, "-0x%x", (unsigned)-(int32_t)v);
	else
		snprintf(s, LwStr, "0x%x", (unsigned)v);
	return s;
}

/* a float value as SASS writes it: exactly representable, so the parser gets the same bits */
static const char *
float_text(Lw *w, uint32_t bits)
{
	union { uint32_t u; float f; } v = { bits };
	char *s = ring(w);

	if (v.f != v.f)
		snprintf(s, LwStr, "%sQNAN", bits >> 31 ? "-" : "+");
	else if (v.f == (float)INFINITY || v.f == -(float)INFINITY)
		snprintf(s, LwStr, "%sINF", bits >> 31 ? "-" : "+");
	else if (v.f == 0 && bits >> 31)
		snprintf(s, LwStr, "-0");
	else
		snprintf(s, LwStr, "%.17g", (double)v.f);
	return s;
}

const char *
lw_lo(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)imm_bits(o, 64));
	return lw_reg(w, k);
}

const char *
lw_hi(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)(imm_bits(o, 64) >> 32));
	const LwReg *r = opnd_reg(w, o);
	if (r && r->kind != Lk64 && r->kind != Lk128) {
		lw_error_opnd(w, k, "operand %d must be a 64-bit register here", k);
		return "RZ";
	}
	return lw_elem(w, lw_reg(w, k), 1);
}

const char *
lw_src(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);
	const char *t = lw_type(w);

	if (!o) {
		lw_error(w, "operand %d missing", k);
		return "RZ";
	}
	if (lw_isimm(w, k)) {
		int fl = lw_tclass(t) == TcF32 || (o->kind != PoImm && lw_tclass(t) != TcInt &&
		                                   lw_tclass(t) != TcHalf);
		uint32_t bits = (uint32_t)imm_bits(o, 32);
		return fl ? float_text(w, bits) : int_text(w, bits);
	}
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsParam) {
		int off = lw_param_offset(w, o->atom);
		char *s = ring(w);
		if (off < 0) {
			lw_error_opnd(w, k, "parameter not found");
			return "RZ";
		}
		snprintf(s, LwStr, "c[0x0][0x%x]", (unsigned)(w->param_base + (uint32_t)off));
		return s;
	}
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsShared) {
		int off = lw_shared_offset(w, o->atom);
		if (off < 0) {
			lw_error_opnd(w, k, "shared variable not placed");
			return "RZ";
		}
		return int_text(w, (uint32_t)off);
	}
	return lw_reg(w, k);
}

const char *
lw_isrc(Lw *w, int k)
{
	if (lw_isimm(w, k))
		return int_text(w, (uint32_t)imm_bits(lw_opnd(w, k), 32));
	return lw_src(w, k);
}

const char *
lw_rsrc(Lw *w, int k)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind == PoName && o->what == PwReg)
		return lw_reg(w, k);
	if (o && o->kind == PoSink)
		return "RZ";
	const char *s = lw_isrc(w, k), *t = lw_tmp(w);
	lw_emit(w, "MOV %s, %s", t, s);
	return t;
}

int
lw_addr(Lw *w, int k, int space, char *buf, size_t n, char *cbank, size_t ncb)
{
	const PtxOpnd *a = lw_opnd(w, k);
	int64_t off = a && a->hasoff ? a->ival : 0;
	char offs[32] = "";

	if (!a || a->kind != PoAddr)
		return lw_error_opnd(w, k, "operand %d must be an address [...]", k);
	if (a->nsub > 1)
		return lw_error_opnd(w, k, "this address form is not selected");
	if (off > 0)
		snprintf(offs, sizeof offs, "+0x%llx", (unsigned long long)off);
	else if (off < 0)
		snprintf(offs, sizeof offs, "+-0x%llx", (unsigned long long)-off);
	if (!a->nsub) {
		snprintf(buf, n, "0x%llx", (unsigned long long)off);
		return 0;
	}
	const PtxOpnd *b = &a->sub[0];
	if (b->kind == PoImm) {
		snprintf(buf, n, "0x%llx", (unsigned long long)(b->ival + off));
		return 0;
	}
	if (b->kind == PoName && b->what == PwReg) {
		const LwReg *r = opnd_reg(w, b);
		const char *nm = ptx_str(w->p, r->name);
		int wide = space == PsGlobal || space == PsNoSpace;
		if (wide && r->kind != Lk64)
			return lw_error_opnd(w, k, "a %s address needs a 64-bit register",
			                     space == PsGlobal ? "global" : "generic");
		snprintf(buf, n, "%s%s%s", nm, wide ? ".64" : "", offs);
		return 0;
	}
	if (b->kind == PoName && b->what == PwVar && b->decl) {
		if (b->decl->space == PsParam) {
			int po = lw_param_offset(w, b->atom);
			if (po < 0 || !cbank)
				return lw_error_opnd(w, k, "'%s' is not a parameter of this kernel",
				                     ptx_str(w->p, b->atom));
			snprintf(cbank, ncb, "c[0x0][0x%llx]",
			         (unsigned long long)(w->param_base + (uint32_t)po + off));
			return 1;
		}
		if (b->decl->space == PsShared && (space == PsShared)) {
			int so = lw_shared_offset(w, b->atom);
			if (so < 0)
				return lw_error_opnd(w, k, "shared variable not placed");
			snprintf(buf, n, "0x%llx", (unsigned long long)(so + off));
			return 0;
		}
		if (b->decl->space == PsLocal && space == PsLocal) {
			int lo = lw_local_offset(w, b->atom);
			if (lo < 0)
				return lw_error_opnd(w, k, "local variable not placed");
			snprintf(buf, n, "R1+0x%llx", (unsigned long long)(lo + off));
			return 0;
		}
		if (b->decl->space == PsConst && space == PsConst && lw_const_offset(w, b->decl) >= 0) {
			snprintf(buf, n, "0x%llx", (unsigned long long)(lw_const_offset(w, b->decl) + off));
			return 0;
		}
		if (b->decl->space == PsGlobal && (space == PsGlobal || space == PsNoSpace) &&
		    mvar(b->decl)) {
			const char *lo, *hi, *t = lw_tmp64(w);
			if (lw_global_addr(w, b->decl, &lo, &hi) < 0)
				return -1;
			lw_emit(w, "MOV %s, %s", t, lo);
			lw_emit(w, "MOV %s, %s", lw_elem(w, t, 1), hi);
			snprintf(buf, n, "%s.64%s", t, offs);
			return 0;
		}
		return lw_error_opnd(w, k, "addressing a .%s variable by name in a .%s access",
		                     ptx_space_name(b->decl->space) + 1,
		                     space == PsNoSpace ? "generic" : ptx_space_name(space) + 1);
	}
	return lw_error_opnd(w, k, "this address form is not selected");
}

/* ---- temporaries -------------------------------------------------------------------------- */

/* one name of a `.vreg`/`.vpred` list, a new line every ~90 columns */
static void
decl_item(LwBuf *b, const char *dir, const char *name, int size)
{
	size_t col = b->len;

	while (col > 0 && b->s[col - 1] != '\n')
		col--;
	col = b->len - col;
	if (!col || col > 90)
		buf_printf(b, "%s\t%s\t\t", col ? "\n" : "", dir);
	else
		buf_add(b, ",", 1);
	if (size > 1)
		buf_printf(b, "%s[%d]", name, size);
	else
		buf_printf(b, "%s", name);
}

static const char *
tmp_make(Lw *w, const char *pfx, int size, int pred)
{
	struct LwPriv *v = w->priv;
	char *s = ring(w);
	int kind = pred ? 3 : size == 1 ? 0 : size == 2 ? 1 : 2;
	uint32_t n;
	LwBuf *b = pred ? &v->tmppred : &v->tmpdecl;

	if (v->compact) {          /* reused by every instruction: declared once */
		n = v->tmpn[kind]++;
		if (n < v->tmpdecl_n[kind]) {
			snprintf(s, LwStr, "%%$%s%" PRIu32, pfx, n);
			return s;
		}
		v->tmpdecl_n[kind]++;
	} else {
		n = w->ntmp++;
	}
	snprintf(s, LwStr, "%%$%s%" PRIu32, pfx, n);
	decl_item(b, pred ? ".vpred" : ".vreg", s, size);
	return s;
}

const char *
lw_newvreg(Lw *w, int size)
{
	struct LwPriv *v = w->priv;
	char *s = ring(w);

	snprintf(s, LwStr, "%%$s%" PRIu32, w->nvreg++);
	decl_item(&v->tmpdecl, ".vreg", s, size);
	return s;
}

const char *
lw_carry(Lw *w)
{
	struct LwPriv *v = w->priv;

	if (!v->cc) {
		v->cc = take_name(w, "%$cc");
		decl_item(&v->tmppred, ".vpred", ptx_str(w->p, v->cc), 1);
	}
	return ptx_str(w->p, v->cc);
}

const char *lw_tmp(Lw *w) { return tmp_make(w, "t", 1, 0); }
const char *lw_tmp64(Lw *w) { return tmp_make(w, "w", 2, 0); }
const char *lw_tmp128(Lw *w) { return tmp_make(w, "x", 4, 0); }
const char *lw_ptmp(Lw *w) { return tmp_make(w, "q", 1, 1); }

/* ---- parameters and shared variables ------------------------------------------------------ */

static uint32_t
var_size(const Lw *w, const PtxVar *v)
{
	uint32_t n = (uint32_t)(lw_type_bits(ptx_str(w->p, v->type)) + 7) / 8;

	if (v->vec)
		n *= v->vec;
	for (unsigned k = 0; k < v->ndim; k++)
		n *= v->dim[k] > 0 ? (uint32_t)v->dim[k] : 0;
	return n;
}

static uint32_t
var_align(const Lw *w, const PtxVar *v)
{
	uint32_t a = v->align;

	if (!a) {
		a = (uint32_t)(lw_type_bits(ptx_str(w->p, v->type)) + 7) / 8;
		if (v->vec)
			a *= v->vec;
	}
	return a ? a : 1;
}

int
lw_param_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nparam; k++)
		if (w->priv->param[k].name == name)
			return (int)w->priv->param[k].off;
	return -1;
}

int
lw_shared_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nshared; k++)
		if (w->priv->shared[k].name == name)
			return (int)w->priv->shared[k].off;
	return -1;
}

int
lw_local_offset(const Lw *w, uint32_t name)
{
	for (uint32_t k = 0; k < w->priv->nlocal; k++)
		if (w->priv->local[k].name == name)
			return (int)w->priv->local[k].off;
	return -1;
}

/* the function's .local variables (nvcc's __local_depot<N>) in declaration order from offset 0 of
 * its frame; the frame is their size rounded up to 8 bytes, as nvcc's */
static void
place_local(Lw *w)
{
	struct LwPriv *v = w->priv;
	uint32_t off = 0;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsDecl)
			continue;
		for (uint32_t k = 0; k < st->nvar; k++) {
			const PtxVar *var = &st->var[k];
			uint32_t a = var_align(w, var), sz = var_size(w, var);
			if (var->space != PsLocal || lw_local_offset(w, var->name) >= 0)
				continue;
			off = (off + a - 1) / a * a;
			vgrow(&v->local, &v->clocal, v->nlocal + 1, sizeof *v->local);
			v->local[v->nlocal++] = (Place){ var->name, off, sz };
			off += sz;
		}
	}
	w->frame_size = (off + 7) / 8 * 8;
}

static struct MVar *
mvar(const PtxVar *v)
{
	for (uint32_t k = 0; cnt && k < cnt->nmv; k++)
		if (cnt->mv[k].v == v)
			return &cnt->mv[k];
	return NULL;
}

int
lw_global_addr(Lw *w, const PtxVar *v, const char **lo, const char **hi)
{
	struct MVar *m = mvar(v);
	char *a = ring(w), *b = ring(w);

	if (!m || v->space != PsGlobal)
		return lw_error(w, "'%s' is not a module .global variable", ptx_str(w->p, v->name));
	if (m->c4 < 0)
		m->c4 = (int)cnt->nc4++;
	snprintf(a, LwStr, "c[0x4][0x%x]", (unsigned)m->c4 * 8);
	snprintf(b, LwStr, "c[0x4][0x%x]", (unsigned)m->c4 * 8 + 4);
	*lo = a;
	*hi = b;
	return 0;
}

int
lw_const_offset(const Lw *w, const PtxVar *v)
{
	struct MVar *m = mvar(v);

	(void)w;
	return m && v->space == PsConst ? (int)m->off : -1;
}

static void
place_params(Lw *w)
{
	struct LwPriv *v = w->priv;
	uint32_t off = 0;

	v->param = xmalloc((w->fn->nparam + 1) * sizeof *v->param);
	for (uint32_t k = 0; k < w->fn->nparam; k++) {
		const PtxVar *pv = &w->fn->param[k];
		uint32_t a = var_align(w, pv), sz = var_size(w, pv);
		if (a > 8 && !pv->align)
			a = 8;
		off = (off + a - 1) / a * a;
		v->param[k] = (Place){ pv->name, off, sz };
		off += sz;
	}
	v->nparam = w->fn->nparam;
	v->param_size = off;
}

static void
add_shared(Lw *w, const PtxVar *var)
{
	struct LwPriv *v = w->priv;
	uint32_t a = var_align(w, var), sz = var_size(w, var);

	for (uint32_t k = 0; k < v->nshared; k++)
		if (v->shared[k].name == var->name)
			return;
	if (var->ndim && var->dim[0] < 0)
		return;        /* extern dynamic shared memory: placed after the static variables */
	v->shared_size = (v->shared_size + a - 1) / a * a;
	vgrow(&v->shared, &v->cshared, v->nshared + 1, sizeof *v->shared);
	v->shared[v->nshared++] = (Place){ var->name, v->shared_size, sz };
	v->shared_size += sz;
}

static void
add_shared_opnd(Lw *w, const PtxOpnd *o)
{
	if (o->kind == PoName && o->what == PwVar && o->decl && o->decl->space == PsShared)
		add_shared(w, o->decl);
	for (unsigned k = 0; k < o->nsub; k++)
		add_shared_opnd(w, &o->sub[k]);
}

/* the shared variables the function names, in order of first mention; dynamic ones last */
static void
place_shared(Lw *w)
{
	struct LwPriv *v = w->priv;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind == PsDecl)
			for (uint32_t k = 0; k < st->nvar; k++)
				if (st->var[k].space == PsShared)
					add_shared(w, &st->var[k]);
		if (st->kind == PsIns)
			for (unsigned k = 0; k < st->ins->nopnd; k++)
				add_shared_opnd(w, &st->ins->opnd[k]);
	}
	/* extern (dynamic) arrays: at the end of the static ones, 16-byte aligned */
	uint32_t dyn = (v->shared_size + 15) / 16 * 16;
	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		for (unsigned k = 0; k < st->ins->nopnd; k++) {
			const PtxOpnd *o = &st->ins->opnd[k];
			const PtxOpnd *n = o->kind == PoAddr && o->nsub ? &o->sub[0] : o;
			if (n->kind == PoName && n->what == PwVar && n->decl && n->decl->space == PsShared &&
			    n->decl->ndim && n->decl->dim[0] < 0 && lw_shared_offset(w, n->atom) < 0) {
				vgrow(&v->shared, &v->cshared, v->nshared + 1, sizeof *v->shared);
				v->shared[v->nshared++] = (Place){ n->decl->name, dyn, 0 };
			}
		}
	}
}

/* ---- the listing ---------------------------------------------------------------------------- */

static void
attr_head(LwBuf *b, const char *name)
{
	buf_printf(b, "\n\n\t//----- nvinfo : %s\n\t.align\t\t4\n", name);
}


/* an attribute with a payload of words (format 4): `.byte 0x04, ATTR` `.short (.L_b - .L_a)` */
static void
attr_words(LwBuf *b, const char *name, int attr, const char *const *words, unsigned n)
{
	uint32_t a = cnt->info++, e = cnt->info++;

	attr_head(b, name);
	buf_printf(b, "\t.byte\t0x04, 0x%02x\n\t.short\t(.L_i%" PRIu32 " - .L_i%" PRIu32 ")\n", attr, e, a);
	buf_printf(b, ".L_i%" PRIu32 ":\n", a);
	for (unsigned k = 0; k < n; k++)
		buf_printf(b, "\t%s\n", words[k]);
	buf_printf(b, ".L_i%" PRIu32 ":\n", e);
}

static void
attr_half(LwBuf *b, const char *name, int attr, unsigned v)
{
	attr_head(b, name);
	buf_printf(b, "\t.byte\t0x03, 0x%02x\n\t.short\t0x%04x\n", attr, v);
}

static void
global_info(Lw *w, LwBuf *b, const char *fn)
{
	char w0[160], w1[64];
	const char *ws[2] = { w0, w1 };

	snprintf(w0, sizeof w0, ".word\tindex@(%s)", fn);
	snprintf(w1, sizeof w1, ".word\t0x00000000");
	attr_words(b, "EIATTR_REGCOUNT", 0x2f, ws, 2);
	snprintf(w1, sizeof w1, ".word\t0x%08x", (unsigned)w->frame_size);
	attr_words(b, "EIATTR_FRAME_SIZE", 0x11, ws, 2);
	snprintf(w1, sizeof w1, ".word\t0x00000000");
	attr_words(b, "EIATTR_MIN_STACK_SIZE", 0x12, ws, 2);
}

static void
kernel_info(Lw *w, LwBuf *b, const char *fn)
{
	struct LwPriv *v = w->priv;
	char t0[160], t1[64], t2[64], t3[64];
	const char *ws[4] = { t0, t1, t2, t3 };

	buf_printf(b, "\n\n//--------------------- .nv.info.%s --------------------------\n"
	           "\t.section\t.nv.info.%s,\"\",@\"SHT_CUDA_INFO\"\n\t.sectionflags\t@\"\"\n"
	           "\t.align\t4\n", fn, fn);
	snprintf(t0, sizeof t0, ".word\t0x00000082");
	attr_words(b, "EIATTR_CUDA_API_VERSION", 0x37, ws, 1);
	snprintf(t0, sizeof t0, ".word\tindex@(.nv.constant0.%s)", fn);
	snprintf(t1, sizeof t1, ".short\t0x%04x", (unsigned)w->param_base);
	snprintf(t2, sizeof t2, ".short\t0x%04x", (unsigned)v->param_size);
	attr_words(b, "EIATTR_PARAM_CBANK", 0x0a, ws, 3);
	attr_half(b, "EIATTR_CBANK_PARAM_SIZE", 0x19, v->param_size);
	for (uint32_t k = v->nparam; k-- > 0;) {
		snprintf(t0, sizeof t0, ".word\t0x00000000");
		snprintf(t1, sizeof t1, ".short\t0x%04x", (unsigned)k);
		snprintf(t2, sizeof t2, ".short\t0x%04x", (unsigned)v->param[k].off);
		snprintf(t3, sizeof t3, ".word\t0x%08x", 0x1f000u | (v->param[k].size & 0x3fff) << 18);
		attr_words(b, "EIATTR_KPARAM_INFO", 0x17, ws, 4);
	}
	unsigned maxreg = 0xff;
	for (uint32_t k = 0; k < w->fn->nattr; k++)
		if (!strcmp(ptx_str(w->p, w->fn->attr[k].name), ".maxnreg") && w->fn->attr[k].nval &&
		    w->fn->attr[k].val[0] < 0xff)
			maxreg = w->fn->attr[k].val[0];
	attr_half(b, "EIATTR_MAXREG_COUNT", 0x1b, maxreg);
	if (w->nexit) {
		uint32_t a = cnt->info++, e = cnt->info++;
		attr_head(b, "EIATTR_EXIT_INSTR_OFFSETS");
		buf_printf(b, "\t.byte\t0x04, 0x1c\n\t.short\t(.L_i%" PRIu32 " - .L_i%" PRIu32 ")\n.L_i%" PRIu32 ":\n",
		           e, a, a);
		for (uint32_t k = 0; k < w->nexit; k++)
			buf_printf(b, "\t.word\t.L_exit%" PRIu32 "@srel\n", w->exit0 + k);
		buf_printf(b, ".L_i%" PRIu32 ":\n", e);
	}
	for (uint32_t k = 0; k < w->fn->nattr; k++) {
		const PtxAttr *at = &w->fn->attr[k];
		const char *an = ptx_str(w->p, at->name);
		int attr = !strcmp(an, ".maxntid") ? 0x05 : !strcmp(an, ".reqntid") ? 0x10 : 0;
		if (!attr)
			continue;
		for (unsigned j = 0; j < 3; j++)
			snprintf(j == 0 ? t0 : j == 1 ? t1 : t2, 64, ".word\t0x%08x",
			         j < at->nval ? at->val[j] : 1u);
		attr_words(b, attr == 5 ? "EIATTR_MAX_THREADS" : "EIATTR_REQNTID", attr, ws, 3);
	}
}

static int
kind_size(int kind)
{
	return kind == Lk64 ? 2 : kind == Lk128 ? 4 : 1;
}

/* ---- register compaction -------------------------------------------------------------------
 * The IR numbers virtual registers RegVirt..RegVirtEnd (3840 numbers): a function naming more
 * PTX registers than CompactUnits is lowered with one virtual register per *colour* of an
 * interval colouring of its PTX registers in statement order (loops widen the intervals of the
 * registers live around them), and temporaries shared by all instructions (each lives within
 * one instruction's selection). The allocator then works on fewer, longer-lived names.
 */
enum { CompactUnits = 2400 };

typedef struct Occ {
	uint32_t first, last; /* statement positions of the first and last mention */
	uint32_t def, use;    /* first definition and first use, UINT32_MAX none */
} Occ;

static int
colour_kind(int kind)
{
	return kind == Lk16 ? Lk32 : kind;
}

static const char *
colour_name(Lw *w, int kind, uint32_t c)
{
	char *s = ring(w);

	snprintf(s, LwStr, "%%%s%" PRIu32, kind == Lk128 ? "x" : kind == Lk64 ? "d" :
	         kind == LkPred ? "q" : "v", c);
	return s;
}

static void
scan_opnd(Lw *w, const PtxOpnd *o, uint32_t pos, int def, Occ **occ, uint32_t *cocc)
{
	const LwReg *r;

	if (o->kind == PoName && o->what == PwReg && o->decl && (r = opnd_reg(w, o))) {
		uint32_t k = (uint32_t)(r - w->priv->reg);
		if (k >= *cocc) {
			uint32_t old = *cocc;
			vgrow(occ, cocc, k + 1, sizeof **occ);
			for (uint32_t j = old; j < *cocc; j++)
				(*occ)[j] = (Occ){ UINT32_MAX, 0, UINT32_MAX, UINT32_MAX };
		}
		Occ *c = &(*occ)[k];
		if (c->first == UINT32_MAX)
			c->first = pos;
		c->last = pos;
		if (def && c->def == UINT32_MAX)
			c->def = pos;
		if (!def && c->use == UINT32_MAX)
			c->use = pos;
	}
	for (unsigned k = 0; k < o->nsub; k++)
		scan_opnd(w, &o->sub[k], pos, def && o->kind != PoAddr, occ, cocc);
}

/* every register of the function made (first-use order) with its occurrences; *nunits the R
 * registers they need */
static Occ *
scan_regs(Lw *w, uint32_t *nunits, uint32_t *npred)
{
	Occ *occ = NULL;
	uint32_t cocc = 0;

	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		const PtxIns *i = st->ins;
		if (i->guard && i->gdecl) {
			PtxOpnd g = {0};
			g.kind = PoName;
			g.what = PwReg;
			g.decl = i->gdecl;
			g.atom = i->gpred;
			scan_opnd(w, &g, s, 0, &occ, &cocc);
		}
		int wf = ptx_op_writes_first(i->row);
		for (unsigned k = 0; k < i->nopnd; k++)
			scan_opnd(w, &i->opnd[k], s, k == 0 && wf, &occ, &cocc);
	}
	*nunits = *npred = 0;
	for (uint32_t k = 0; k < w->priv->nreg; k++) {
		if (w->priv->reg[k].kind == LkPred)
			(*npred)++;
		else
			*nunits += (uint32_t)kind_size(w->priv->reg[k].kind);
	}
	return occ;
}

/* widen the intervals of the registers live around each loop (a backward branch) */
static void
widen_loops(Lw *w, Occ *occ, uint32_t nocc)
{
	uint32_t *lpos = NULL, nl = 0, cl = 0;   /* (label atom, position) pairs */
	uint32_t *edge = NULL, ne = 0, ce = 0;   /* (head, branch) pairs */

	for (uint32_t s = 0; s < w->fn->nst; s++)
		if (w->fn->st[s].kind == PsLabel) {
			vgrow(&lpos, &cl, 2 * nl + 2, sizeof *lpos);
			lpos[2 * nl] = w->fn->st[s].atom;
			lpos[2 * nl++ + 1] = s;
		}
	for (uint32_t s = 0; s < w->fn->nst; s++) {
		const PtxStmt *st = &w->fn->st[s];
		if (st->kind != PsIns)
			continue;
		for (unsigned k = 0; k < st->ins->nopnd; k++) {
			const PtxOpnd *o = &st->ins->opnd[k];
			if (o->kind != PoName || o->what != PwLabel)
				continue;
			for (uint32_t l = 0; l < nl; l++)
				if (lpos[2 * l] == o->atom && lpos[2 * l + 1] < s) {
					vgrow(&edge, &ce, 2 * ne + 2, sizeof *edge);
					edge[2 * ne] = lpos[2 * l + 1];
					edge[2 * ne++ + 1] = s;
				}
		}
	}
	for (int changed = 1, round = 0; changed && round < 64; round++) {
		changed = 0;
		for (uint32_t e = 0; e < ne; e++) {
			uint32_t h = edge[2 * e], b = edge[2 * e + 1];
			for (uint32_t k = 0; k < nocc; k++) {
				Occ *c = &occ[k];
				if (c->first == UINT32_MAX || c->first > b || c->last < h)
					continue;
				if (c->first >= h && c->last <= b && !(c->use != UINT32_MAX && c->use <= c->def))
					continue;   /* defined in the loop before any use: local to an iteration */
				if (c->first > h || c->last < b) {
					c->first = c->first < h ? c->first : h;
					c->last = c->last > b ? c->last : b;
					changed = 1;
				}
			}
		}
	}
	free(lpos);
	free(edge);
}

static void
colour_one(Lw *w, LwReg *r)
{
	int ck = colour_kind(r->kind);

	r->name = atomz(w->p->atoms, colour_name(w, ck, w->priv->ncolour[ck]++));
}

/* interval colouring: by start position, each register takes a colour of its kind free since
 * before its start (the lowest), else a new one */
static void
colour_regs(Lw *w, Occ *occ, uint32_t nocc)
{
	struct LwPriv *v = w->priv;
	uint32_t n = v->nreg, *ord = xmalloc((n + 1) * sizeof *ord);
	uint32_t *end[5] = {0}, cend[5] = {0};

	for (uint32_t k = 0; k < n; k++)
		ord[k] = k;
	/* counting sort by first position */
	uint32_t nst = w->fn->nst + 1, *cnt_ = xmalloc((nst + 1) * sizeof *cnt_), *tmp = xmalloc((n + 1) * sizeof *tmp);
	memset(cnt_, 0, (nst + 1) * sizeof *cnt_);
	for (uint32_t k = 0; k < n; k++)
		cnt_[(k < nocc && occ[k].first != UINT32_MAX ? occ[k].first : w->fn->nst) + 1]++;
	for (uint32_t k = 0; k < nst; k++)
		cnt_[k + 1] += cnt_[k];
	for (uint32_t k = 0; k < n; k++)
		tmp[cnt_[k < nocc && occ[k].first != UINT32_MAX ? occ[k].first : w->fn->nst]++] = k;
	memcpy(ord, tmp, n * sizeof *ord);
	free(cnt_);
	free(tmp);
	for (uint32_t j = 0; j < n; j++) {
		LwReg *r = &v->reg[ord[j]];
		int ck = colour_kind(r->kind);
		uint32_t first = ord[j] < nocc ? occ[ord[j]].first : 0;
		uint32_t last = ord[j] < nocc ? occ[ord[j]].last : UINT32_MAX - 1;
		uint32_t c;
		if (first == UINT32_MAX)
			first = last = 0;
		for (c = 0; c < v->ncolour[ck]; c++)
			if (end[ck][c] < first)
				break;
		if (c == v->ncolour[ck]) {
			vgrow(&end[ck], &cend[ck], c + 1, sizeof *end[ck]);
			v->ncolour[ck]++;
		}
		end[ck][c] = last;
		r->name = atomz(w->p->atoms, colour_name(w, ck, c));
	}
	for (int k = 0; k < 5; k++)
		free(end[k]);
	free(ord);
}

/* make every register of the function and name it: by its PTX name, or by colour when the
 * function is too large for the virtual numbering */
static void
plan_regs(Lw *w)
{
	uint32_t nunits, npred;
	Occ *occ = scan_regs(w, &nunits, &npred);
	uint32_t nocc = w->priv->nreg;

	w->priv->compact = nunits > CompactUnits || npred > CompactUnits;
	if (w->priv->compact) {
		widen_loops(w, occ, nocc);
		colour_regs(w, occ, nocc);
	} else {
		for (uint32_t k = 0; k < w->priv->nreg; k++)
			name_reg(w, &w->priv->reg[k]);
	}
	free(occ);
}

/* ---- module variables ------------------------------------------------------------------- */

static void
collect_mvars(const Ptx *p)
{
	uint32_t off[3] = {0, 0, 0};   /* .nv.global.init, .nv.global, .nv.constant3 */

	for (uint32_t t = 0; t < p->ntop; t++) {
		const PtxTop *tp = &p->top[t];
		if (tp->kind != PtVar)
			continue;
		for (uint32_t k = 0; k < tp->nvar; k++) {
			const PtxVar *v = &tp->var[k];
			if ((v->space != PsGlobal && v->space != PsConst) || (v->link & PlExtern))
				continue;
			Lw tmp = { .p = p };
			uint32_t a = var_align(&tmp, v), sz = var_size(&tmp, v);
			int sec = v->space == PsConst ? 2 : v->init ? 0 : 1;
			off[sec] = (off[sec] + a - 1) / a * a;
			vgrow(&cnt->mv, &cnt->cmv, cnt->nmv + 1, sizeof *cnt->mv);
			cnt->mv[cnt->nmv++] = (struct MVar){ v, off[sec], sz, -1 };
			off[sec] += sz;
		}
	}
}

/* the initialiser's elements, flattened */
static void
flatten(const PtxExpr *e, const PtxExpr **out, uint32_t *n, uint32_t max)
{
	if (!e)
		return;
	if (e->kind == PeList) {
		for (uint32_t k = 0; k < e->nsub; k++)
			flatten(e->sub[k], out, n, max);
	} else if (*n < max) {
		out[(*n)++] = e;
	}
}

static int
emit_init(const Ptx *p, LwBuf *b, const PtxVar *v, uint32_t size, Diag *d)
{
	Lw tmp = { .p = p };
	const char *ty = ptx_str(p, v->type);
	uint32_t esz = (uint32_t)(lw_type_bits(ty) + 7) / 8, n = 0, done = 0;
	const PtxExpr **el = xmalloc((size + 1) * sizeof *el);

	(void)tmp;
	flatten(v->init, el, &n, size + 1);
	for (uint32_t k = 0; k < n && done + esz <= size; k++, done += esz) {
		const PtxExpr *e = el[k];
		uint64_t bits = 0;
		if (e->kind == PeSym || e->kind == PeGeneric) {
			if (esz != 8) {
				error_at(d, e->loc, "a symbol's address in a %u-byte element", esz);
				free(el);
				return -1;
			}
			buf_printf(b, "\t.dword\t%s\n", ptx_str(p, e->atom));
			continue;
		}
		if (e->kind == PeInt || e->kind == PeF32 || e->kind == PeF64) {
			bits = (uint64_t)e->ival;
			if (e->kind == PeF32 && esz == 8) {
				union { uint32_t u; float f; } a = { (uint32_t)bits };
				union { double d; uint64_t u; } c = { .d = a.f };
				bits = c.u;
			} else if (e->kind == PeF64 && esz == 4) {
				union { uint64_t u; double d; } a = { bits };
				union { float f; uint32_t u; } c = { .f = (float)a.d };
				bits = c.u;
			}
		} else if (e->kind == PeFDec) {
			if (esz == 8) {
				union { double d; uint64_t u; } c = { .d = e->fval };
				bits = c.u;
			} else {
				union { float f; uint32_t u; } c = { .f = (float)e->fval };
				bits = c.u;
			}
		} else {
			error_at(d, e->loc, "this initialiser is not supported yet");
			free(el);
			return -1;
		}
		buf_printf(b, "\t.byte\t");
		for (uint32_t j = 0; j < esz; j++)
			buf_printf(b, "%s0x%02x", j ? ", " : "", (unsigned)(bits >> (8 * j)) & 0xff);
		buf_printf(b, "\n");
	}
	if (done < size)
		buf_printf(b, "\t.zero\t\t%u\n", (unsigned)(size - done));
	free(el);
	return 0;
}

/* .nv.constant3, .nv.constant4 (the addresses of the .global variables named by code),
 * .nv.global.init, .nv.global */
static int
emit_mvars(const Ptx *p, LwBuf *b, Diag *d)
{
	static const char *const secname[3] = { ".nv.global.init", ".nv.global", ".nv.constant3" };
	static const char *const secflags[3] = { "\"aw\",@progbits", "\"aw\",@nobits", "\"a\",@progbits" };

	for (int sec = 2; sec >= 0; sec--) {
		uint32_t at = 0;
		int any = 0;
		for (uint32_t k = 0; k < cnt->nmv; k++) {
			const struct MVar *m = &cnt->mv[k];
			int ms = m->v->space == PsConst ? 2 : m->v->init ? 0 : 1;
			if (ms != sec)
				continue;
			if (!any)
				buf_printf(b, "\n\n//--------------------- %s --------------------------\n"
				           "\t.section\t%s,%s\n\t.align\t8\n%s:\n", secname[sec], secname[sec],
				           secflags[sec], secname[sec]);
			any = 1;
			if (m->off > at)
				buf_printf(b, "\t.zero\t\t%u\n", (unsigned)(m->off - at));
			const char *nm = ptx_str(p, m->v->name);
			buf_printf(b, "\t.type\t\t%s,@object\n\t.size\t\t%s,(.L_g%u - %s)\n%s:\n", nm, nm,
			           (unsigned)k, nm, nm);
			if (sec == 1 || !m->v->init)
				buf_printf(b, "\t.zero\t\t%u\n", (unsigned)m->size);
			else if (emit_init(p, b, m->v, m->size, d) < 0)
				return -1;
			buf_printf(b, ".L_g%u:\n", (unsigned)k);
			at = m->off + m->size;
		}
		if (sec == 2 && cnt->nc4) {
			buf_printf(b, "\n\n//--------------------- .nv.constant4 --------------------------\n"
			           "\t.section\t.nv.constant4,\"a\",@progbits\n\t.align\t8\n.nv.constant4:\n");
			for (uint32_t c = 0; c < cnt->nc4; c++)
				for (uint32_t k = 0; k < cnt->nmv; k++)
					if (cnt->mv[k].c4 == (int)c)
						buf_printf(b, "\t.dword\t%s\n", ptx_str(p, cnt->mv[k].v->name));
		}
	}
	return 0;
}

/* ---- statements --------------------------------------------------------------------------- */

static void
set_guard(Lw *w, const PtxIns *i)
{
	w->guard[0] = 0;
	if (!i->guard)
		return;
	const LwReg *r = NULL;
	if (i->gdecl) {
		uint32_t idx = 0;
		if (i->gdecl->range)
			idx = (uint32_t)strtoul(ptx_str(w->p, i->gpred) + atomlen(w->p->atoms, i->gdecl->name),
			                        NULL, 10);
		r = reg_get(w, i->gdecl, idx);
	}
	if (!r) {
		lw_error(w, "guard predicate not declared");
		return;
	}
	snprintf(w->guard, sizeof w->guard, "@%s%s ", i->guard == 2 ? "!" : "", reg_text(w, r));
}

int
lw_lower_stmts(Lw *w, const PtxFunc *fn)
{
	int rc = 0;
	const PtxFunc *outer = w->fn;
	const PtxIns *oins = w->ins;
	char oguard[sizeof w->guard];

	memcpy(oguard, w->guard, sizeof oguard);
	w->fn = fn;
	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxStmt *st = &fn->st[s];
		if (st->kind == PsLabel) {
			lw_label_here(w, lw_ptxlabel(w, st->atom));
			continue;
		}
		if (st->kind != PsIns)
			continue;
		w->ins = st->ins;
		memset(w->priv->tmpn, 0, sizeof w->priv->tmpn);
		if (w->comments) {
			uint32_t line, col, n = st->ins->loc.end - st->ins->loc.start;
			src_linecol(w->p->src, st->ins->loc.start, &line, &col);
			buf_printf(&w->code, "// %u: %.*s\n", line, (int)(n > 200 ? 200 : n),
			           w->p->src->text + st->ins->loc.start);
		}
		int nerr = w->d->nerr;
		set_guard(w, st->ins);
		const SelRow *row = ptxsel_lookup(w);
		if (!row) {
			const char *t = lw_type(w);
			lw_error(w, "no selection row for opcode '%s'%s%s%s", ptx_str(w->p, st->ins->op),
			         t[0] ? " with type ." : "", t, "");
			rc = -1;
		} else if (row->fn(w) < 0 || w->d->nerr > nerr) {
			rc = -1;
		}
		if (w->d->nerr >= (w->d->maxerr ? w->d->maxerr : MaxErrors))
			break;
	}
	w->fn = outer;
	w->ins = oins;
	memcpy(w->guard, oguard, sizeof oguard);
	return rc;
}


/* the .vreg and .vpred lists: quads, then pairs, then single registers (no alignment holes in
 * the virtual numbering), then predicates; in compact mode one name per colour */
static void
declare_regs(Lw *w, LwBuf *b)
{
	struct LwPriv *v = w->priv;
	static const int order[] = { Lk128, Lk64, Lk32, LkPred };
	LwBuf l = {0};

	for (unsigned o = 0; o < sizeof order / sizeof order[0]; o++) {
		int kind = order[o];
		const char *dir = kind == LkPred ? ".vpred" : ".vreg";
		if (v->compact) {
			for (uint32_t c = 0; c < v->ncolour[kind]; c++)
				decl_item(&l, dir, colour_name(w, kind, c), kind_size(kind));
			if (l.len) {
				buf_printf(b, "%s\n", l.s);
				l.len = 0;
			}
			continue;
		}
		for (uint32_t k = 0; k < v->nreg; k++) {
			const LwReg *r = &v->reg[k];
			int rk = r->kind == Lk16 ? Lk32 : r->kind;
			if (rk != kind || !r->name)
				continue;
			decl_item(&l, dir, ptx_str(w->p, r->name), kind_size(r->kind));
		}
		if (l.len) {
			buf_printf(b, "%s\n", l.s);
			l.len = 0;
		}
	}
	if (l.len)
		buf_printf(b, "%s\n", l.s);
	free(l.s);
	if (v->tmpdecl.len)
		buf_printf(b, "%s\n", v->tmpdecl.s);
	if (v->tmppred.len)
		buf_printf(b, "%s\n", v->tmppred.s);
}

static void
priv_free(struct LwPriv *v)
{
	free(v->reg);
	free(v->hash);
	free(v->names);
	free(v->param);
	free(v->shared);
	free(v->local);
	free(v->tmpdecl.s);
	free(v->tmppred.s);
}

/* one function: its sections go to info (the .nv.info.<fn>, .nv.constant0) and text */
static int
lower_fn(const Ptx *p, const PtxFunc *fn, int sm, int comments, Diag *d, LwBuf *ginfo,
         LwBuf *kinfo, LwBuf *text)
{
	struct LwPriv priv = {0};
	Lw w = {0};
	const char *name = ptx_str(p, fn->name);
	int rc;

	w.p = p;
	w.fn = fn;
	w.d = d;
	w.arch = arch_code(sm);
	w.comments = comments;
	w.param_base = w.arch->bank0->param;
	w.priv = &priv;
	w.exit0 = cnt->exit;
	place_params(&w);
	place_shared(&w);
	place_local(&w);
	plan_regs(&w);
	if (fn->entry) {
		if (arch_has(w.arch, ArchLdcBank0))
			lw_emit_ng(&w, "LDC R1, c[0x0][0x%x]", (unsigned)C0StackTop);
		else
			lw_emit_ng(&w, "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x%x]", (unsigned)C0StackTop);
		/* the frame of the .local variables below the stack top, as nvcc's prologue */
		if (w.frame_size && arch_has(w.arch, ArchViadd))
			lw_emit_ng(&w, "VIADD R1, R1, 0x%x", (unsigned)-w.frame_size);
		else if (w.frame_size)
			lw_emit_ng(&w, "IADD3 R1, R1, -0x%x, RZ", (unsigned)w.frame_size);
		lw_emit_ng(&w, "ULDC.64 UR4, c[0x0][0x%x]", w.arch->bank0->desc);
	}
	rc = lw_lower_stmts(&w, fn);
	w.ins = NULL;
	if (rc == 0) {
		/* the end: a branch to itself stops the fetch, as nvcc writes */
		buf_printf(&w.code, ".L_stop%" PRIu32 ":\n", cnt->fn);
		lw_emit_ng(&w, "BRA `(.L_stop%" PRIu32 ")", cnt->fn);
		global_info(&w, ginfo, name);
		if (fn->entry) {
			kernel_info(&w, kinfo, name);
			buf_printf(kinfo, "\n\n//--------------------- .nv.constant0.%s --------------------------\n"
			           "\t.section\t.nv.constant0.%s,\"a\",@progbits\n\t.sectionflags\t@\"\"\n"
			           "\t.align\t4\n.nv.constant0.%s:\n\t.zero\t\t%u\n", name, name, name,
			           (unsigned)(w.param_base + priv.param_size));
		}
		buf_printf(text, "\n\n//--------------------- .text.%s --------------------------\n"
		           "\t.section\t.text.%s,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=0\"\n",
		           name, name);
		declare_regs(&w, text);
		buf_printf(text, "\t.align\t128\n        .global         %s\n        .type           %s,@function\n"
		           "        .size           %s,(.L_end%" PRIu32 " - %s)\n", name, name, name, cnt->fn, name);
		if (fn->entry)
			buf_printf(text, "        .other          %s,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n", name);
		buf_printf(text, "%s:\n.text.%s:\n", name, name);
		buf_add(text, w.code.s, w.code.len);
		buf_printf(text, ".L_end%" PRIu32 ":\n", cnt->fn);
		if (priv.shared_size)
			buf_printf(text, "\n\n//--------------------- .nv.shared.%s --------------------------\n"
			           "\t.section\t.nv.shared.%s,\"aw\",@nobits\n\t.sectionflags\t@\"\"\n"
			           "\t.align\t16\n.nv.shared.%s:\n\t.zero\t\t%u\n", name, name, name,
			           (unsigned)priv.shared_size);
	}
	cnt->exit += w.nexit;
	cnt->fn++;
	lw_call_free(&w);
	if (w.fam_free)
		w.fam_free(&w);
	free(w.code.s);
	priv_free(&priv);
	return rc;
}

Src *
ptx_lower(const Ptx *p, int sm, Diag *d)
{
	return ptx_lower_text(p, sm, 0, d);
}

Src *
ptx_lower_text(const Ptx *p, int sm, int comments, Diag *d)
{
	LwBuf out = {0}, ginfo = {0}, kinfo = {0}, text = {0};
	int rc = 0;
	char name[512];

	if (!sm)
		sm = p->sm ? p->sm : 80;
	LwCount c = {0};
	uint32_t nentry = 0;
	for (uint32_t k = 0; k < p->nfn; k++)
		nentry += p->fn[k]->body && p->fn[k]->entry;
	if (!nentry) {
		error_at(d, p->tloc.end > p->tloc.start ? p->tloc : p->vloc,
		         "no kernel in the module: nothing to compile (.entry with a body)");
		return NULL;
	}
	cnt = &c;
	collect_mvars(p);
	for (uint32_t k = 0; k < p->nfn; k++) {
		const PtxFunc *fn = p->fn[k];
		if (fn->body && fn->entry && lower_fn(p, fn, sm, comments, d, &ginfo, &kinfo, &text) < 0)
			rc = -1;
	}
	if (rc == 0) {
		buf_printf(&out, "\t.target\tsm_%d%s\n\n\t.elftype\t@\"ET_EXEC\"\n\n", sm,
		           p->sm_suffix && sm == p->sm ? "a" : "");
		buf_printf(&out, "\n//--------------------- .nv.info                  --------------------------\n"
		           "\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n\t.align\t4\n");
		buf_add(&out, ginfo.s ? ginfo.s : "", ginfo.len);
		buf_add(&out, kinfo.s ? kinfo.s : "", kinfo.len);
		buf_add(&out, text.s ? text.s : "", text.len);
		if (emit_mvars(p, &out, d) < 0)
			rc = -1;
	}
	free(c.mv);
	cnt = NULL;
	free(ginfo.s);
	free(kinfo.s);
	free(text.s);
	if (rc < 0) {
		free(out.s);
		return NULL;
	}
	snprintf(name, sizeof name, "%s.isel", p->src && p->src->name ? p->src->name : "<ptx>");
	return src_take(name, out.s ? out.s : xstrdup(""), out.len);
}
