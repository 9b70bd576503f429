/* op.c: the opcode table (ops.h) and what a row means for one instruction: op_lookup by name,
 * the exact registers an instruction defines and uses (op_slots), and a lenient operand check
 * (op_check). Each shape below is one def/width rule; docs/opcodes.md lists the rules and where
 * each comes from (PTX ISA fragment layouts, nvdisasm listings of nvcc 13 output).
 * Assumes the front end's operand layout (ir.h): OReg in r[0]; OMem [r[0] + r[1] + imm] with
 * desc[r[2]]; OCBank c[imm2][r[0] + imm] with cx[r[1]].
 */
#include "ir.h"
#include "mma.h"

#include <string.h>

enum OpShape {
	ShGeneric,         /* first ndef operands are defs, everything 1 register wide */
	ShPfx,             /* defs: leading predicates plus ndef general registers; .64: 2 wide */
	ShLast,            /* every operand but the last is a def (VOTE, VOTEU, ELECT) */
	ShMov,             /* MOV/UMOV: .64 is 2 wide; a byte mask other than 0xf writes partly */
	ShImad,            /* IMAD/UIMAD: .WIDE def 2, .WIDE/.HI third source 2 */
	ShDbl,             /* FP64: every R operand 2 wide */
	ShMatch,           /* MATCH: .U64 source 2 wide */
	ShI2f,             /* I2F: float type -> def width, integer type -> source width */
	ShF2i,             /* F2I: integer type -> def width, float type -> source width */
	ShF2f,             /* F2F.<dst>.<src> */
	ShFrnd,            /* FRND[.F64]: def and source alike */
	ShCs2r,            /* CS2R, LEPC: def 2 unless .32 */
	ShP2r,             /* P2R/UP2UR: the predicates in the mask are uses */
	ShR2p,             /* R2P/UR2UP: the predicates in the mask are defs */
	ShLd,              /* loads: def width from .64/.128/type */
	ShSt,              /* stores: data width from .64/.128/type */
	ShAtom,            /* atomics: def and data width from the type; CAS has two data operands */
	ShLdgsts,          /* LDGSTS [shared], [global] */
	ShLdsm,            /* LDSM def / STSM data: .2 or .4 registers */
	ShMma,             /* HMMA, IMMA, BMMA, QMMA, DMMA (and .SP): fragment sizes */
	ShGmma,            /* HGMMA, IGMMA, QGMMA, BGMMA: accumulator N/2 or N/4, gdesc 4 UR */
	ShSyncs,           /* SYNCS: 64-bit mbarrier state */
	ShUtma,            /* UTMA*: uniform vector operands */
	ShUblk,            /* UBLK*: uniform addresses */
	ShTex,             /* texture: approximate */
	ShSurf,            /* surface: coordinates by dimension */
	ShBra,             /* branches: R targets are 64-bit */
	ShBreak,           /* BREAK Bx: reads and writes Bx */
	ShBmov,            /* BMOV: .CLEAR also writes the barrier it reads */
	NShape
};

const OpInfo optab[NOp] = {
#define O(name, unit, lat, key, ndef, shape, flags) { #name, unit, lat, key, ndef, shape, flags },
#include "ops.h"
#undef O
};

/* ---------------------------------------------------------------------------------------------
 * op_lookup: open addressing over FNV-1a, filled on the first call. Racing first calls claim
 * empty entries with compare-and-swap and never overwrite one, so every probe path stays valid
 * without a lock (an opcode may end up stored twice; both entries are right).
 */
enum { HashSize = 512 };           /* power of two, more than twice NOp */

static uint16_t htab[HashSize];    /* op + 1, 0 empty */
static int hready;

static uint32_t
hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t k = 0; k < n; k++)
		h = (h ^ (uint8_t)s[k]) * 16777619u;
	return h;
}

static void
hbuild(void)
{
	for (int op = 1; op < NOp; op++) {
		const char *s = optab[op].name;
		uint32_t h = hash(s, strlen(s)) & (HashSize - 1);
		for (;;) {
			uint16_t want = 0;
			if (__atomic_compare_exchange_n(&htab[h], &want, (uint16_t)(op + 1), 0,
			                                __ATOMIC_RELAXED, __ATOMIC_RELAXED) || want == op + 1)
				break;
			h = (h + 1) & (HashSize - 1);
		}
	}
	__atomic_store_n(&hready, 1, __ATOMIC_RELEASE);
}

int
op_lookup(const char *name, size_t n)
{
	uint32_t h;

	if (!name || n == 0 || n > 15)
		return Ounknown;
	if (!__atomic_load_n(&hready, __ATOMIC_ACQUIRE))
		hbuild();
	for (h = hash(name, n) & (HashSize - 1);; h = (h + 1) & (HashSize - 1)) {
		unsigned e = __atomic_load_n(&htab[h], __ATOMIC_RELAXED);
		if (e == 0)
			return Ounknown;
		if (strncmp(optab[e - 1].name, name, n) == 0 && optab[e - 1].name[n] == '\0')
			return (int)e - 1;
	}
}

const char *
op_name(int op)
{
	return optab[op >= 0 && op < NOp ? op : Ounknown].name;
}

/* ---------------------------------------------------------------------------------------------
 * Modifiers, read once per instruction: by length and a few bytes, without string compares (this
 * runs for every instruction, twice when the verifier checks the slots).
 */
typedef struct {
	uint8_t e;             /* .E: 64-bit addresses */
	uint8_t w64;           /* .64 */
	uint8_t m32;           /* .32 */
	uint8_t data;          /* data registers from .64/.128/.256/.F64/.S64/.U64/.F32x2/..., 1 */
	uint8_t wide;          /* .WIDE */
	uint8_t hi;            /* .HI */
	uint8_t u64;           /* .U64 */
	uint8_t cas;           /* .CAS or .CAST: two data operands */
	uint8_t clear;         /* .CLEAR */
	uint8_t cnt;           /* LDSM/STSM matrices: 1, 2 or 4 */
	uint8_t dims;          /* .1D .. .5D (TMA) or surface coordinates; 0 none */
	uint8_t arrive;        /* SYNCS .ARRIVE* or .EXCH: the def is a 64-bit state */
	uint8_t exch;          /* SYNCS .EXCH */
	uint8_t nty;           /* type modifiers kept */
	uint8_t tybits[4];     /* their widths in bits, in order */
	uint8_t tyfloat[4];    /* 1: a float type */
	char space[2];         /* UBLK*: destination and source space letters (S, G) */
} Mods;

#define IS(s, n, lit) ((n) == sizeof lit - 1 && memcmp((s), lit, sizeof lit - 1) == 0)

/* width in bits and kind of a type modifier s of n bytes: F16 BF16 F32 TF32 F64, the FP8/FP6/FP4
 * E4M3 E5M2 E2M1 E3M2 E2M3, S4 U4 S8 U8 S16 U16 S32 U32 S64 U64; 0 if s is not a type */
static int
tybits(const char *s, size_t n, int *isfloat)
{
	int b;

	switch (n) {
	case 2:
		if ((s[0] == 'S' || s[0] == 'U') && (s[1] == '4' || s[1] == '8')) {
			*isfloat = 0;
			return s[1] - '0';
		}
		return 0;
	case 3:
		if (s[0] != 'F' && s[0] != 'S' && s[0] != 'U')
			return 0;
		b = s[1] == '1' && s[2] == '6' ? 16 : s[1] == '3' && s[2] == '2' ? 32 :
		    s[1] == '6' && s[2] == '4' ? 64 : 0;
		if (b)
			*isfloat = s[0] == 'F';
		return b;
	case 4:
		*isfloat = 1;
		if (IS(s, n, "BF16"))
			return 16;
		if (IS(s, n, "TF32"))
			return 32;
		if (IS(s, n, "E2M1"))
			return 4;
		if (IS(s, n, "E4M3") || IS(s, n, "E5M2") || IS(s, n, "E3M2") || IS(s, n, "E2M3"))
			return 8;
		*isfloat = 0;
		return 0;
	default:
		return 0;
	}
}

/* registers of memory data implied by one modifier: 64, 128, 256, F64, S64, U64, F32x2, F32x4,
 * F16x4, BF16x4, F16x8, BF16x8; 0 if none */
static int
datawidth(const char *s, size_t n)
{
	switch (n) {
	case 2:
		return IS(s, n, "64") ? 2 : 0;
	case 3:
		if (IS(s, n, "128"))
			return 4;
		if (IS(s, n, "256"))
			return 8;
		return (s[0] == 'F' || s[0] == 'S' || s[0] == 'U') && s[1] == '6' && s[2] == '4' ? 2 : 0;
	case 5:
		if (IS(s, n, "F32x2") || IS(s, n, "F16x4"))
			return 2;
		return IS(s, n, "F32x4") || IS(s, n, "F16x8") ? 4 : 0;
	case 6:
		return IS(s, n, "BF16x4") ? 2 : IS(s, n, "BF16x8") ? 4 : 0;
	default:
		return 0;
	}
}

/* surface coordinate count or TMA dimension of a modifier such as 2D, 1D_ARRAY; 0 if none */
static int
dimof(const char *s, size_t n)
{
	if (n < 2 || s[0] < '1' || s[0] > '5' || s[1] != 'D')
		return 0;
	if (n == 2 || IS(s + 2, n - 2, "_BUFFER"))
		return s[0] - '0';
	if (IS(s + 2, n - 2, "_ARRAY"))
		return s[0] - '0' + 1;
	return 0;
}

/* UBLK* spaces in order: destination, then source */
static void
space(Mods *m, char c)
{
	if (!m->space[1])
		m->space[m->space[0] ? 1 : 0] = c;
}

/* one modifier s of n bytes: a switch on its first letter keeps this to a few comparisons */
static void
modone(Mods *m, const char *s, size_t n)
{
	int w, fl = 0;

	if (s[0] >= '0' && s[0] <= '9') {
		if ((w = dimof(s, n)))
			m->dims = (uint8_t)w;
		else if (n == 1 && (s[0] == '2' || s[0] == '4'))
			m->cnt = (uint8_t)(s[0] - '0');
		else if (IS(s, n, "64"))
			m->w64 = 1, m->data = m->data > 2 ? m->data : 2;
		else if (IS(s, n, "32"))
			m->m32 = 1;
		else if ((w = datawidth(s, n))) {
			if (w > m->data)
				m->data = (uint8_t)w;
		}
		return;
	}
	switch (s[0]) {
	case 'E':
		if (n == 1) {
			m->e = 1;
			return;
		}
		if (IS(s, n, "EXCH")) {
			m->arrive = m->exch = 1;
			return;
		}
		break;
	case 'S':
		if (n == 1) {
			space(m, 'S');
			return;
		}
		break;
	case 'G':
		if (n == 1)
			space(m, 'G');
		return;
	case 'U':
		if (IS(s, n, "U64"))
			m->u64 = 1;
		break;
	case 'W':
		if (IS(s, n, "WIDE"))
			m->wide = 1;
		return;
	case 'H':
		if (IS(s, n, "HI"))
			m->hi = 1;
		return;
	case 'C':
		if (IS(s, n, "CAS") || IS(s, n, "CAST"))
			m->cas = 1;
		else if (IS(s, n, "CLEAR"))
			m->clear = 1;
		return;
	case 'A':
		if (n >= 6 && memcmp(s, "ARRIVE", 6) == 0)
			m->arrive = 1;
		return;
	case 'F': case 'B': case 'T':
		break;
	default:
		return;
	}
	/* E, S, U, F, B, T: a type, a vector type, or nothing we use */
	if ((w = tybits(s, n, &fl)) && m->nty < 4) {
		m->tybits[m->nty] = (uint8_t)w;
		m->tyfloat[m->nty++] = (uint8_t)fl;
	}
	if ((w = datawidth(s, n)) > m->data)
		m->data = (uint8_t)w;
}

static void
modscan(const Module *mod, const Ins *i, Mods *m)
{
	unsigned n = i->nmod < MaxMod ? i->nmod : MaxMod;

	memset(m, 0, sizeof *m);
	m->data = 1;
	m->cnt = 1;
	for (unsigned k = 0; k < n; k++) {
		uint32_t x = i->mod[k];
		modone(m, atomstr(mod->atoms, x), atomlen(mod->atoms, x));
	}
}

/* ---------------------------------------------------------------------------------------------
 * The analysis: a role and a width for every operand, then slots in a fixed order.
 */
enum {
	RDef = 1,          /* operand role: written */
	RUse = 2,          /* operand role: read */
	FieldImplicit = 3, /* Slot.field of a register no operand spells (R2P's predicates, hidden desc) */
	MaxAcc = 96,       /* slots of each kind kept while analysing */
};

typedef struct {
	const Module *mod; /* atoms of the modifiers and suffixes */
	const Ins *i;      /* the instruction */
	const OpInfo *oi;  /* its row */
	Mods m;            /* its modifiers */
	uint8_t role[MaxOpnd]; /* RDef/RUse per operand */
	uint8_t w[MaxOpnd];    /* registers of an OReg operand; of each field of an OMem when > 1 */
	uint8_t esp[MaxOpnd];  /* OMem: a 64-bit (.E) global or generic address */
	uint16_t idef;     /* implicit defs: mask of predicate numbers (R2P, UR2UP) */
	uint16_t iuse;     /* implicit uses: mask of predicate numbers (P2R, UP2UR) */
	uint8_t icls;      /* their class (RP or RUP) */
	uint8_t iopnd;     /* the operand that names them (PR) */
	int cond;          /* the defs are conditional: each gets an SOld slot */
	const char *why;   /* reason of a failure */
	Slot def[MaxAcc];  /* defs and their SOld slots, in order */
	unsigned ndef;     /* slots in def */
	Slot use[MaxAcc];  /* uses, then the guard */
	unsigned nuse;     /* slots in use */
	int over;          /* more slots than MaxAcc */
} A;

static int
isreg(const Opnd *o)
{
	return o->kind == OReg;
}

static int
ispred(const Opnd *o)
{
	return o->kind == OReg && (RCLS(o->r[0]) == RP || RCLS(o->r[0]) == RUP);
}

/* a general register: R, UR, B or V (not a predicate) */
static int
isgen(const Opnd *o)
{
	return o->kind == OReg && !ispred(o) && RCLS(o->r[0]) != RNone;
}

/* one slot; constants, absent registers and out-of-range numbers give none */
static void
put(A *a, int kind, unsigned opnd, unsigned field, Reg r, unsigned n)
{
	unsigned num = RNUM(r), last;
	Slot *s;

	if (RCLS(r) == RNone || RCLS(r) >= NRegClass)
		return;
	last = reg_isvany(r) ? RegVirtEnd - 1u : regtab[RCLS(r)].nval - 1u; /* %x: see ir.h */
	if (n == 0 || num > last)
		return;
	if (num + n - 1 > last)
		n = last - num + 1;
	if (n > 255)
		n = 255;
	if (kind == SUse) {
		if (a->nuse >= MaxAcc) {
			a->over = 1;
			return;
		}
		s = &a->use[a->nuse++];
	} else {
		if (a->ndef + 2 > MaxAcc) {
			a->over = 1;
			return;
		}
		s = &a->def[a->ndef++];
	}
	*s = (Slot){ .kind = (uint8_t)kind, .opnd = (uint8_t)opnd, .field = (uint8_t)field,
	             .n = (uint8_t)n, .reg = r };
	if (kind == SDef && a->cond) {
		a->def[a->ndef] = *s;
		a->def[a->ndef++].kind = SOld;
	}
}

/* first ndef operands are defs; -1 if one is not a register */
static int
defn(A *a, unsigned ndef)
{
	const Ins *i = a->i;

	if (i->nopnd < ndef) {
		a->why = "too few operands";
		return -1;
	}
	for (unsigned k = 0; k < ndef; k++) {
		if (!isreg(&i->opnd[k])) {
			a->why = "a destination is not a register";
			return -1;
		}
		a->role[k] = RDef;
	}
	return (int)ndef;
}

/* leading predicates and up to ndef general registers are defs; returns the operand after them.
 * need: -1 unless ndef general registers were found. */
static int
defpfx(A *a, unsigned ndef, int need)
{
	const Ins *i = a->i;
	unsigned k, ngen = 0;

	for (k = 0; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		if (ispred(o))
			a->role[k] = RDef;
		else if (isgen(o) && ngen < ndef) {
			a->role[k] = RDef;
			ngen++;
		} else
			break;
	}
	if (need && ngen < ndef) {
		a->why = "a destination register is missing";
		return -1;
	}
	return (int)k;
}

/* index of the n-th (0-based) operand of kind kd at or after k, -1 if none */
static int
nth(const Ins *i, unsigned k, int kd, unsigned n)
{
	for (; k < i->nopnd; k++)
		if (i->opnd[k].kind == kd && n-- == 0)
			return (int)k;
	return -1;
}

/* every operand from k on that has no role yet is a use */
static void
restuse(A *a, unsigned k)
{
	for (; k < a->i->nopnd; k++)
		if (!a->role[k])
			a->role[k] = RUse;
}

/* registers of a general register operand: rr for R (and V), ur for UR, 1 otherwise */
static void
widths(A *a, unsigned from, unsigned rr, unsigned ur)
{
	for (unsigned k = from; k < a->i->nopnd; k++) {
		const Opnd *o = &a->i->opnd[k];
		if (o->kind != OReg)
			continue;
		switch (RCLS(o->r[0])) {
		case RR: a->w[k] = (uint8_t)rr; break;
		case RUR: a->w[k] = (uint8_t)ur; break;
		default: break;
		}
	}
}

/* registers of a per-thread fragment of elems elements of bits each, at least 1 */
static unsigned
fragregs(long elems, int bits)
{
	long r = elems * bits / 32;

	return r < 1 ? 1 : r > 255 ? 255 : (unsigned)r;
}

/* D, A, B, C (and the .SP metadata): fragment sizes of the PTX ISA mma layouts, from the
 * shape and element widths of the instruction's MmaForm (mma.h) */
static int
sh_mma(A *a)
{
	const Ins *i = a->i;
	MmaForm f;
	int M, N, K, accb, ab, bb;
	unsigned d, ra, rb;
	int op = (int)(a->oi - optab);

	if (defn(a, 1) < 0)
		return -1;
	mma_form(a->mod, i, &f);
	if (!f.shape.m) {
		a->why = "unknown mma shape";
		return -1;
	}
	if (i->nopnd < 4 || !isreg(&i->opnd[1]) || !isreg(&i->opnd[2])) {
		a->why = "expected D, A, B, C operands";
		return -1;
	}
	M = f.shape.m, N = f.shape.n, K = f.shape.k;
	accb = f.cbits, ab = f.abits, bb = f.bbits;
	if (op == OHMMA && M == 8 && N == 8 && K == 4) {
		/* sm_70 m8n8k4: per quad-pair layout, not the warp-wide one */
		d = accb == 32 ? 8 : 4;
		ra = rb = 2;
	} else {
		d = fragregs((long)M * N / 32, accb);
		ra = fragregs((long)M * K / 32, ab);
		rb = fragregs((long)N * K / 32, bb);
		if (f.sparse && ra > 1)
			ra /= 2;
	}
	a->w[0] = (uint8_t)d;
	a->w[1] = (uint8_t)ra;
	a->w[2] = (uint8_t)rb;
	a->w[3] = (uint8_t)d;
	restuse(a, 1);
	return 0;
}

/* D, [A], gdesc[URx], [C], [UPx], gsb0: D is M*N/128 per thread, A 4 registers, gdesc 4 UR */
static int
sh_gmma(A *a)
{
	const Ins *i = a->i;
	MmaForm f;
	int seen = 0;
	unsigned d;

	if (defn(a, 1) < 0)
		return -1;
	mma_form(a->mod, i, &f);
	if (!f.shape.m) {
		a->why = "unknown wgmma shape";
		return -1;
	}
	d = fragregs((long)f.shape.m * f.shape.n / 128, f.cbits);
	a->w[0] = (uint8_t)d;
	for (unsigned k = 1; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		a->role[k] = RUse;
		if (o->kind == OMem) {
			a->w[k] = 4;
			seen = 1;
		} else if (o->kind == OReg && RCLS(o->r[0]) == RR)
			a->w[k] = (uint8_t)(seen ? d : 4);
	}
	if (!seen) {
		a->why = "no gdesc[] operand";
		return -1;
	}
	return 0;
}

/* texture (approximate): two destinations sharing the channels of the mask, sources 2 wide */
static int
sh_tex(A *a)
{
	const Ins *i = a->i;
	unsigned ch = 4, k, nd = 0;
	int last = (int)i->nopnd - 1;

	if (last >= 1 && i->opnd[last].kind == OImm && i->opnd[last - 1].kind != OImm)
		ch = (unsigned)__builtin_popcountll((unsigned long long)i->opnd[last].imm & 0xf);
	for (k = 0; k < i->nopnd && k < 2 && isreg(&i->opnd[k]); k++)
		a->role[k] = RDef, nd++;
	if (nd == 2) {
		const Opnd *d0 = &i->opnd[0];
		if (reg_isconst(d0->r[0]) || ispred(d0))
			a->w[1] = (uint8_t)ch;
		else {
			a->w[0] = (uint8_t)(ch < 2 ? ch : 2);
			a->w[1] = (uint8_t)(ch > 2 ? ch - 2 : 0);
		}
	} else if (nd == 1)
		a->w[0] = (uint8_t)ch;
	restuse(a, k);
	widths(a, k, 2, 1);
	return 0;
}

/* surface: SULD Rd, [coords]; SUST [coords], Rdata; SUATOM/SURED like atomics */
static int
sh_surf(A *a)
{
	const Ins *i = a->i;
	int k = defpfx(a, a->oi->ndef, 0), mem = nth(i, 0, OMem, 0);

	for (int j = 0; j < k; j++)
		if (isgen(&i->opnd[j]))
			a->w[j] = a->m.data;
	restuse(a, (unsigned)k);
	if (mem >= 0) {
		a->w[mem] = a->m.dims ? a->m.dims : 1;
		for (int j = mem + 1, nd = a->m.cas ? 2 : 1; j < (int)i->nopnd && nd > 0; j++)
			if (isgen(&i->opnd[j]))
				a->w[j] = a->m.data, nd--;
	}
	return 0;
}

static int
analyse(const Fn *f, const Ins *i, A *a)
{
	const OpInfo *oi = &optab[i->op < NOp ? i->op : Ounknown];
	const Mods *m = &a->m;
	int op = (int)(oi - optab), k, mem;

	memset(a->role, 0, sizeof a->role);
	memset(a->w, 1, sizeof a->w);
	memset(a->esp, 0, sizeof a->esp);
	a->mod = f ? f->mod : NULL;
	a->i = i;
	a->oi = oi;
	a->cond = 0;
	a->idef = a->iuse = 0;
	a->icls = RP;
	a->iopnd = 0;
	a->ndef = a->nuse = 0;
	a->over = 0;
	a->why = NULL;
	if (!f || !f->mod || i->nopnd > MaxOpnd || (i->nopnd && !i->opnd)) {
		a->why = "malformed instruction";
		return -1;
	}
	modscan(f->mod, i, &a->m);
	/* .E global and generic accesses take 64-bit addresses (LDGSTS: its source only) */
	if (m->e && (oi->flags & (OFGlobal | OFGeneric)) && oi->shape != ShUtma &&
	    oi->shape != ShUblk && oi->shape != ShSurf)
		for (unsigned j = 0; j < i->nopnd; j++)
			a->esp[j] = i->opnd[j].kind == OMem;

	switch (oi->shape) {
	case ShGeneric:
		if (op == Ounknown) {
			/* approximation: the first operand is a def when it is a register */
			if (i->nopnd && isreg(&i->opnd[0]))
				a->role[0] = RDef;
			restuse(a, 0);
			break;
		}
		if ((k = defn(a, oi->ndef)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		/* FIBER: SETBUSYBIT.FULL/.EMPTY and DEPBAR.FULL/.EMPTY reg[, n] read reg..reg+n-1
		 * (n 1..32; the verifier reports others); DEPBAR.LE SB0, n reads no register */
		if ((op == OSETBUSYBIT || op == ODEPBAR) && i->nopnd >= 2 && isgen(&i->opnd[0]) &&
		    i->opnd[1].kind == OImm && i->opnd[1].imm >= 1 && i->opnd[1].imm <= 32)
			a->w[0] = (uint8_t)i->opnd[1].imm;
		break;
	case ShPfx:
		if ((k = defpfx(a, oi->ndef, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		if (m->w64)
			widths(a, 0, 2, 2);
		break;
	case ShLast:
		for (k = 0; k + 1 < (int)i->nopnd; k++) {
			if (!isreg(&i->opnd[k])) {
				a->why = "a destination is not a register";
				return -1;
			}
			a->role[k] = RDef;
		}
		restuse(a, 0);
		break;
	case ShMov:
		if ((k = defn(a, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		if (m->w64)
			widths(a, 0, 2, 2);
		/* MOV Rd, Ra, mask: byte lanes outside the mask keep their old value */
		if (i->nopnd >= 3 && i->opnd[2].kind == OImm && (i->opnd[2].imm & 0xf) != 0xf)
			a->cond = 1;
		break;
	case ShImad:
		if ((k = defpfx(a, 1, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		for (int j = 0; j < k; j++)
			if (isgen(&i->opnd[j]) && m->wide)
				a->w[j] = 2;
		/* the third source (c) is 64-bit for .WIDE and .HI: (a*b + c) >> 32 */
		if ((m->wide || m->hi) && k + 2 < (int)i->nopnd)
			a->w[k + 2] = 2;
		break;
	case ShDbl:
		if ((k = defpfx(a, oi->ndef, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		widths(a, 0, 2, 2);
		break;
	case ShMatch:
		if ((k = defpfx(a, 1, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		if (m->u64)
			widths(a, (unsigned)k, 2, 2);
		break;
	case ShI2f: case ShF2i: case ShF2f: case ShFrnd: {
		unsigned dw = 1, sw = 1;
		if ((k = defn(a, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		for (unsigned t = 0; t < m->nty; t++) {
			int w = m->tybits[t] == 64 ? 2 : 1, fl = m->tyfloat[t];
			if (oi->shape == ShI2f)
				fl ? (dw = (unsigned)w) : (sw = (unsigned)w);
			else if (oi->shape == ShF2i)
				fl ? (sw = (unsigned)w) : (dw = (unsigned)w);
			else if (oi->shape == ShFrnd)
				dw = sw = (unsigned)w;
			else if (t == 0)
				dw = (unsigned)w;
			else if (t == 1)
				sw = (unsigned)w;
		}
		a->w[0] = (uint8_t)dw;
		widths(a, 1, sw, sw);
		break;
	}
	case ShCs2r:
		if ((k = defn(a, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		a->w[0] = m->m32 ? 1 : 2;
		break;
	case ShP2r: case ShR2p: {
		/* P2R Rd, PR, Ra, mask / R2P PR, Ra, mask: predicate k for each mask bit k < 7 */
		int last = (int)i->nopnd - 1, pr = op == OP2R || op == OUP2UR ? 1 : 0;
		uint16_t mask = 0x7f;
		if (oi->shape == ShP2r && defn(a, 1) < 0)
			return -1;
		if (last >= 1 && i->opnd[last].kind == OImm)
			mask = (uint16_t)(i->opnd[last].imm & 0x7f);
		restuse(a, oi->shape == ShP2r ? 1 : 0);
		a->icls = op == OUP2UR || op == OUR2UP ? RUP : RP;
		a->iopnd = (uint8_t)pr;
		if (oi->shape == ShP2r)
			a->iuse = mask;
		else
			a->idef = mask;
		break;
	}
	case ShLd:
		if ((k = defn(a, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		a->w[0] = m->data;
		break;
	case ShSt:
		restuse(a, 0);
		if ((mem = nth(i, 0, OMem, 0)) >= 0 && (k = nth(i, (unsigned)mem, OReg, 0)) >= 0)
			a->w[k] = m->data;
		break;
	case ShAtom:
		if ((k = defpfx(a, oi->ndef, 1)) < 0)
			return -1;
		for (int j = 0; j < k; j++)
			if (isgen(&i->opnd[j]))
				a->w[j] = m->data;
		restuse(a, (unsigned)k);
		if ((mem = nth(i, 0, OMem, 0)) >= 0)
			for (int j = mem + 1, nd = m->cas ? 2 : 1; j < (int)i->nopnd && nd > 0; j++)
				if (isgen(&i->opnd[j]))
					a->w[j] = m->data, nd--;
		break;
	case ShLdgsts:
		restuse(a, 0);
		/* [shared destination], [global source]: only the source is a .E address */
		if ((mem = nth(i, 0, OMem, 0)) >= 0)
			a->esp[mem] = 0;
		break;
	case ShLdsm:
		if (oi->ndef) {
			if ((k = defn(a, 1)) < 0)
				return -1;
			a->w[0] = m->cnt;
			restuse(a, (unsigned)k);
		} else {
			restuse(a, 0);
			if ((mem = nth(i, 0, OMem, 0)) >= 0 && (k = nth(i, (unsigned)mem, OReg, 0)) >= 0)
				a->w[k] = m->cnt;
		}
		break;
	case ShMma:
		if (sh_mma(a) < 0)
			return -1;
		break;
	case ShGmma:
		if (sh_gmma(a) < 0)
			return -1;
		break;
	case ShSyncs:
		k = defpfx(a, 1, 0);
		for (int j = 0; j < k; j++)
			if (isgen(&i->opnd[j]) && m->arrive)
				a->w[j] = 2;
		restuse(a, (unsigned)k);
		if (m->exch && m->w64 && (mem = nth(i, 0, OMem, 0)) >= 0 &&
		    (k = nth(i, (unsigned)mem, OReg, 0)) >= 0)
			a->w[k] = 2;
		break;
	case ShUtma: {
		/* [vector: smem, mbarrier, coordinates], [tensor map]: see docs/opcodes.md */
		int first = nth(i, 0, OMem, 0), second = nth(i, 0, OMem, 1), n1;
		restuse(a, 0);
		if (first < 0) {
			a->why = "no [UR] operand";
			return -1;
		}
		if (op == OUTMACCTL || second < 0) {
			a->w[first] = 2;
			break;
		}
		if (!m->dims) {
			a->why = "no .nD modifier";
			return -1;
		}
		n1 = op == OUTMALDG ? 2 + m->dims : op == OUTMAPF ? m->dims : 1 + m->dims;
		a->w[first] = (uint8_t)n1;
		a->w[second] = 2;
		break;
	}
	case ShUblk: {
		/* UBLKCP.S.G [smem, mbarrier], [global]; .G.S [global], [smem]; UBLKPF [global] */
		int first = nth(i, 0, OMem, 0), second = nth(i, 0, OMem, 1);
		restuse(a, 0);
		if (first < 0) {
			a->why = "no [UR] operand";
			return -1;
		}
		a->w[first] = 2;
		if (second >= 0)
			a->w[second] = m->space[1] == 'S' ? 1 : 2;
		break;
	}
	case ShTex:
		if (sh_tex(a) < 0)
			return -1;
		break;
	case ShSurf:
		if (sh_surf(a) < 0)
			return -1;
		break;
	case ShBra:
		restuse(a, 0);
		widths(a, 0, 2, op == OBRXU || op == OJMXU ? 2 : 1);
		break;
	case ShBreak:
		restuse(a, 0);
		for (unsigned j = 0; j < i->nopnd; j++)
			if (isreg(&i->opnd[j]) && RCLS(i->opnd[j].r[0]) == RB)
				a->role[j] = RDef | RUse;
		break;
	case ShBmov:
		if ((k = defn(a, 1)) < 0)
			return -1;
		restuse(a, (unsigned)k);
		for (unsigned j = (unsigned)k; j < i->nopnd && m->clear; j++)
			if (isreg(&i->opnd[j]) && RCLS(i->opnd[j].r[0]) == RB)
				a->role[j] = RDef | RUse;
		if (m->w64)
			widths(a, 0, 2, 2);
		break;
	default:
		a->why = "bad shape in the opcode table";
		return -1;
	}
	return 0;
}

/* the suffix of register field fl of operand o is lit ("64") */
#define SFXIS(a, o, fl, lit) \
	((o)->sfx[fl] && IS(atomstr((a)->mod->atoms, (o)->sfx[fl]), \
	                    atomlen((a)->mod->atoms, (o)->sfx[fl]), lit))

/* the fields of a memory operand (docs/opcodes.md, "Addresses"): desc[URx] is a 64-bit pair;
 * R.64 is a pair; in a .E access an R base without .U32 is a pair, and a UR is the 64-bit base
 * unless a 64-bit R base is present; a width set by the shape (TMA vectors, gdesc, surface
 * coordinates) wins */
static void
memuse(A *a, unsigned k)
{
	const Opnd *o = &a->i->opnd[k];
	unsigned over = a->w[k] > 1 ? a->w[k] : 0;
	int wide0 = 0;

	for (unsigned fl = 0; fl < 3; fl++) {
		Reg r = o->r[fl];
		unsigned c = RCLS(r), n = 1;
		if (c == RNone)
			continue;
		if (over)
			n = over;
		else if (fl == 2)
			n = 2;
		else if (fl == 0 && c == RR) {
			if (SFXIS(a, o, 0, "64") || (a->esp[k] && !SFXIS(a, o, 0, "U32")))
				n = 2;
			wide0 = n == 2 && !reg_isconst(r);
		} else if (c == RUR && a->esp[k] && !wide0)
			n = 2;
		put(a, SUse, k, fl, r, n);
	}
}

/* bit of the encoding that holds the memory descriptor UR of a global or generic access whose
 * listing hides it (nvdisasm prints desc[URx] from sm_90 on, and never for sm_8x), 0 if none */
static unsigned
descbit(int op)
{
	switch (op) {
	case OLD: case OLDG:
		return 32;
	case OST: case OSTG: case OATOM: case OATOMG: case ORED: case OREDG: case OLDGSTS:
		return 64;
	default:
		return 0;
	}
}

/* the hidden descriptor of an sm_8x `[R2.64]` access, read from the encoding words */
static void
hiddendesc(A *a, unsigned k)
{
	const Ins *i = a->i;
	const Opnd *o = &i->opnd[k];
	unsigned bit = descbit((int)(a->oi - optab));

	if (!bit || !a->mod->sm || !a->esp[k] || (o->flags & FDesc) || RCLS(o->r[2]) != RNone ||
	    RCLS(o->r[0]) != RR || !SFXIS(a, o, 0, "64") || i->nenc < bit / 64 + 1 ||
	    arch_has(arch_code(a->mod->sm), ArchDescAddr))
		return;
	put(a, SUse, k, FieldImplicit, REG(RUR, GET_BITS128(i->enc, bit, 6)), 2);
}

/* registers of an OReg operand: the shape's width, at least 2 when written `R2.64` */
static unsigned
regw(const A *a, const Opnd *o, unsigned w)
{
	return w < 2 && SFXIS(a, o, 0, "64") ? 2 : w;
}

/* the slots: defs (each followed by its SOld when conditional), uses, the guard */
static void
emit(A *a)
{
	const Ins *i = a->i;
	unsigned np = a->icls == RUP ? RegUPT : RegPT;

	if (i->guarded && i->guard.kind == OReg &&
	    !(reg_isconst(i->guard.r[0]) && !(i->guard.flags & FLNot)) &&
	    !(a->oi->flags & (OFBranch | OFExit | OFCall | OFRet)))
		a->cond = 1;
	for (unsigned k = 0; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		if ((a->role[k] & RDef) && o->kind == OReg)
			put(a, SDef, k, 0, o->r[0], regw(a, o, a->w[k]));
	}
	for (unsigned p = 0; a->idef && p < np; p++)
		if (a->idef >> p & 1)
			put(a, SDef, a->iopnd, FieldImplicit, REG(a->icls, p), 1);
	for (unsigned k = 0; k < i->nopnd; k++) {
		const Opnd *o = &i->opnd[k];
		if (!(a->role[k] & RUse))
			continue;
		switch (o->kind) {
		case OReg:
			put(a, SUse, k, 0, o->r[0], regw(a, o, a->w[k]));
			break;
		case OMem:
			memuse(a, k);
			hiddendesc(a, k);
			break;
		case OCBank:
			put(a, SUse, k, 0, o->r[0], 1);
			put(a, SUse, k, 1, o->r[1], 1);
			break;
		default:
			break;
		}
	}
	for (unsigned p = 0; a->iuse && p < np; p++)
		if (a->iuse >> p & 1)
			put(a, SUse, a->iopnd, FieldImplicit, REG(a->icls, p), 1);
	if (i->guarded && i->guard.kind == OReg)
		put(a, SUse, SlotGuard, 0, i->guard.r[0], 1);
}

int
op_slots(Fn *f, Ins *i)
{
	A a;
	Slot *s;
	uint32_t *v, nv = 0;
	unsigned n;

	if (!i || analyse(f, i, &a) < 0)
		return -1;
	emit(&a);
	if (a.over)
		return -1;
	n = a.ndef + a.nuse;
	for (unsigned k = 0; k < a.ndef; k++)
		nv += a.def[k].n;
	for (unsigned k = 0; k < a.nuse; k++)
		nv += a.use[k].n;
	/* at least one slot's room, so that a computed instruction never has slot == NULL; the
	 * value arrays follow the slots in the same block */
	s = arena_alloc(f->mod->arena, (n ? n : 1) * sizeof *s + (nv ? nv : 1) * sizeof *v);
	v = (uint32_t *)(s + (n ? n : 1));
	memcpy(s, a.def, a.ndef * sizeof *s);
	memcpy(s + a.ndef, a.use, a.nuse * sizeof *s);
	for (unsigned k = 0; k < n; k++) {
		s[k].v = v;
		v += s[k].n;
	}
	i->slot = s;
	i->nslot = (uint8_t)n;
	return 0;
}

int
op_slots_cmp(Fn *f, const Ins *i, unsigned *diff)
{
	A a;
	unsigned n, k;

	if (!i || analyse(f, i, &a) < 0)
		return -1;
	emit(&a);
	if (a.over)
		return -1;
	n = a.ndef + a.nuse;
	for (k = 0; k < n && k < i->nslot; k++) {
		const Slot *x = &i->slot[k], *y = k < a.ndef ? &a.def[k] : &a.use[k - a.ndef];
		if (x->kind != y->kind || x->opnd != y->opnd || x->field != y->field || x->n != y->n ||
		    x->reg != y->reg)
			break;
	}
	*diff = k;
	return (int)n;
}

int
op_check(Fn *f, Ins *i, Diag *d)
{
	A a;
	const char *why = NULL;
	int mem;

	if (!i)
		return -1;
	if (analyse(f, i, &a) < 0)
		why = a.why ? a.why : "malformed operands";
	else {
		emit(&a);
		mem = nth(i, 0, OMem, 0);
		switch (a.oi->shape) {
		case ShLd:
			if (i->nopnd < 2 || (i->opnd[1].kind != OMem && i->opnd[1].kind != OCBank))
				why = "expected a destination and an address";
			break;
		case ShSt:
			if (mem < 0 || nth(i, (unsigned)mem, OReg, 0) < 0)
				why = "expected an address and a register to store";
			break;
		case ShAtom: case ShLdsm: case ShSyncs:
			if (mem < 0)
				why = "expected an address";
			break;
		case ShLdgsts:
			if (nth(i, 0, OMem, 1) < 0)
				why = "expected a shared and a global address";
			break;
		default:
			break;
		}
		if (a.over)
			why = "too many registers";
	}
	if (!why)
		return 0;
	if (d)
		error_at(d, i->loc, "'%s': %s", f && f->mod && i->name ? mstr(f->mod, i->name) :
		         op_name(i->op), why);
	return -1;
}
