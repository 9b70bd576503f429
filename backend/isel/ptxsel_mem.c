/* ptxsel_mem.c: instruction selection of memory access (ptxsel.h): ld and st in every state space
 * (LDG/STG, LDS/STS, LDL/STL, LD/ST, LDC, ld.param through the move family), ldu, cvta, isspacep,
 * prefetch, discard and applypriority, with the helpers the family's other files share
 * (ptxsel_mem.h); the table names atom and red (ptxsel_atom.c) and cp.async, mbarrier, fence and
 * membar (ptxsel_async.c). The SASS is what ptxas writes for the same PTX on sm_80 and sm_90
 * (docs/isel-mem.md).
 */
#include "ptxsel_mem.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ----------------------------------------------------------------------- */

int
mem_space(Lw *w)
{
	if (lw_has(w, "param") || lw_has(w, "param::entry") || lw_has(w, "param::func"))
		return PsParam;
	if (lw_has(w, "global"))
		return PsGlobal;
	if (lw_has(w, "shared::cluster"))
		return lw_error(w, "the .shared::cluster space (distributed shared memory)");
	if (lw_has(w, "shared") || lw_has(w, "shared::cta"))
		return PsShared;
	if (lw_has(w, "local"))
		return PsLocal;
	if (lw_has(w, "const"))
		return PsConst;
	return PsNoSpace;
}

int
mem_sem(const Lw *w)
{
	if (lw_has(w, "volatile"))
		return MsVolatile;
	if (lw_has(w, "mmio"))
		return MsMmio;
	if (lw_has(w, "acq_rel"))
		return MsAcqRel;
	if (lw_has(w, "acquire"))
		return MsAcquire;
	if (lw_has(w, "release"))
		return MsRelease;
	if (lw_has(w, "sc"))
		return MsSc;
	if (lw_has(w, "relaxed"))
		return MsRelaxed;
	return MsWeak;
}

const char *
mem_scope(const Lw *w)
{
	if (lw_has(w, "cta"))
		return "SM";
	if (lw_has(w, "sys"))
		return "SYS";
	return "GPU";
}

void
mem_release(Lw *w, const char *scope)
{
	if (!strcmp(scope, "SM")) {
		lw_emit(w, "MEMBAR.ALL.CTA");
		return;
	}
	lw_emit(w, "MEMBAR.ALL.%s", scope);
	lw_emit(w, "ERRBAR");
	if (arch_has(w->arch, ArchClusters))
		lw_emit(w, "CGAERRBAR");
}

void
mem_acquire(Lw *w, const char *scope)
{
	if (strcmp(scope, "SM"))
		lw_emit(w, "CCTL.IVALL");
}

const char *
mem_cbank(Lw *w, unsigned off, char *buf, size_t n)
{
	if (arch_has(w->arch, ArchLdcBank0)) {
		snprintf(buf, n, "%s", lw_tmp(w));
		lw_emit(w, "LDC %s, c[0x0][0x%x]", buf, off);
	} else {
		snprintf(buf, n, "c[0x0][0x%x]", off);
	}
	return buf;
}

void
mem_to_generic(Lw *w, int space, const char *d, const char *a)
{
	char hi[MemName], lo[MemName], q[MemName];

	snprintf(hi, sizeof hi, "%s", lw_elem(w, d, 1));
	if (space == PsShared && arch_has(w->arch, ArchSharedWinHi)) {
		/* nvcc: the window's high word (SR_SWINHI) over the 32-bit shared address */
		lw_emit(w, "MOV %s, %s", d, a);
		lw_emit(w, "S2R %s, SR_SWINHI", hi);
		return;
	}
	/* the window base (c[0x0][0x18] shared, c[0x0][0x20] local) plus the address */
	unsigned base = space == PsShared ? C0SharedWin : C0LocalWin;
	snprintf(q, sizeof q, "%s", lw_ptmp(w));
	mem_cbank(w, base, lo, sizeof lo);
	if (arch_has(w->arch, ArchLdcBank0)) {
		char h[MemName];
		mem_cbank(w, base + 4, h, sizeof h);
		lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, q, a, lo);
		lw_emit(w, "IADD3.X %s, RZ, %s, RZ, %s, !PT", hi, h, q);
		return;
	}
	lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, q, a, lo);
	lw_emit(w, "IADD3.X %s, RZ, c[0x0][0x%x], RZ, %s, !PT", hi, base + 4, q);
}

void
mem_from_generic(Lw *w, int space, const char *d, const char *a)
{
	char lo[MemName];

	if (space == PsShared && arch_has(w->arch, ArchSharedWinHi)) {
		/* the low word is the shared address (the window is 4 GiB aligned) */
		lw_emit(w, "MOV %s, %s", d, a);
		return;
	}
	mem_cbank(w, space == PsShared ? C0SharedWin : C0LocalWin, lo, sizeof lo);
	lw_emit(w, "IADD3 %s, %s, -%s, RZ", d, a, lo);
}

/* `extra` bytes added to the offset at the end of lw_addr's text ("%r5+0x8", "R1", "0x40") */
static void
add_offset(char *in, size_t n, int64_t extra)
{
	char *plus = strrchr(in, '+');
	long long off = 0;

	if (!extra)
		return;
	if (!strncmp(in, "0x", 2) && !plus) {
		off = strtoll(in, NULL, 0) + extra;
		snprintf(in, n, "0x%llx", off);
		return;
	}
	if (plus && (plus[1] == '-' || plus[1] == '0')) {
		off = strtoll(plus + 1, NULL, 0);
		*plus = 0;
	}
	off += extra;
	size_t l = strlen(in);
	if (off)
		snprintf(in + l, n - l, "+%s0x%llx", off < 0 ? "-" : "", (unsigned long long)llabs(off));
}

/* lw_addr's text in brackets, plus extra bytes; a generic access to a named shared or local
 * variable first gets the variable's generic address in a temporary */
static int
addr_text(Lw *w, int k, int space, int64_t extra, int desc, char *buf, size_t n)
{
	const PtxOpnd *a = lw_opnd(w, k);
	char in[MemAddr];

	if (a && a->kind == PoAddr && a->nsub == 1 && space == PsNoSpace && a->sub[0].kind == PoName &&
	    a->sub[0].what == PwVar && a->sub[0].decl &&
	    (a->sub[0].decl->space == PsShared || a->sub[0].decl->space == PsLocal)) {
		int vs = a->sub[0].decl->space;
		int off = vs == PsShared ? lw_shared_offset(w, a->sub[0].atom) :
		          lw_local_offset(w, a->sub[0].atom);
		char t[MemName], base[MemName];
		if (off < 0)
			return lw_error_opnd(w, k, "%s variable not placed", vs == PsShared ? "shared" : "local");
		snprintf(t, sizeof t, "%s", lw_tmp64(w));
		if (vs == PsLocal && off)
			snprintf(base, sizeof base, "%s", lw_tmp(w)), lw_emit(w, "IADD3 %s, R1, 0x%x, RZ", base, (unsigned)off);
		else if (vs == PsLocal)
			snprintf(base, sizeof base, "R1");
		else
			snprintf(base, sizeof base, "0x%x", (unsigned)off);
		if (vs == PsShared) {
			char b2[MemName];
			snprintf(b2, sizeof b2, "%s", lw_tmp(w));
			lw_emit(w, "MOV %s, %s", b2, base);
			snprintf(base, sizeof base, "%s", b2);
		}
		mem_to_generic(w, vs, t, base);
		if (a->hasoff && a->ival)
			snprintf(in, sizeof in, "%s.64+%s0x%llx", t, a->ival < 0 ? "-" : "",
			         (unsigned long long)llabs(a->ival));
		else
			snprintf(in, sizeof in, "%s.64", t);
	} else {
		int rc = lw_addr(w, k, space, in, sizeof in, NULL, 0);
		if (rc)
			return -1;
	}
	add_offset(in, sizeof in, extra);
	if (desc && arch_has(w->arch, ArchDescAddr) && (space == PsGlobal || space == PsNoSpace))
		snprintf(buf, n, "desc[UR4][%s]", in);
	else
		snprintf(buf, n, "[%s]", in);
	return 0;
}

int
mem_addr(Lw *w, int k, int space, char *buf, size_t n)
{
	return addr_text(w, k, space, 0, 1, buf, n);
}

int
mem_addr_nodesc(Lw *w, int k, int space, char *buf, size_t n)
{
	return addr_text(w, k, space, 0, 0, buf, n);
}

int
mem_addr_x(Lw *w, int k, int space, int64_t extra, int desc, char *buf, size_t n)
{
	return addr_text(w, k, space, extra, desc, buf, n);
}

int
mem_reg_base(Lw *w, int k, char *buf, size_t n)
{
	const PtxOpnd *a = lw_opnd(w, k);
	char in[MemAddr];

	if (!a || a->kind != PoAddr || a->nsub != 1 || a->sub[0].kind != PoName ||
	    a->sub[0].what != PwReg)
		return lw_error_opnd(w, k, "the address must be [register] or [register+offset] here");
	if (lw_addr(w, k, PsShared, in, sizeof in, NULL, 0))
		return -1;
	char *plus = strchr(in, '+');
	if (plus)
		*plus = 0;
	snprintf(buf, n, "%s", in);
	return 0;
}

/* the bits of an immediate operand as an element of `bits` bits */
static uint64_t
imm_value(const PtxOpnd *o, int bits)
{
	union { float f; uint32_t u; } f32;
	union { double d; uint64_t u; } f64;

	switch (o->kind) {
	case PoF32:
		if (bits == 64) {
			f32.u = (uint32_t)o->ival;
			f64.d = f32.f;
			return f64.u;
		}
		return (uint64_t)o->ival;
	case PoF64:
		if (bits == 32) {
			f64.u = (uint64_t)o->ival;
			f32.f = (float)f64.d;
			return f32.u;
		}
		return (uint64_t)o->ival;
	case PoFDec:
		if (bits == 64) {
			f64.d = o->fval;
			return f64.u;
		}
		f32.f = (float)o->fval;
		return f32.u;
	default:
		return (uint64_t)o->ival;
	}
}

static int
is_imm(const PtxOpnd *o)
{
	return o && (o->kind == PoImm || o->kind == PoF32 || o->kind == PoF64 || o->kind == PoFDec);
}

/* operand k, element e (the operand itself when it is no vector) */
static const PtxOpnd *
elem_opnd(const Lw *w, int k, int e)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (o && o->kind == PoVec)
		return e < o->nsub ? &o->sub[e] : NULL;
	return e == 0 ? o : NULL;
}

const char *
mem_elem_src(Lw *w, int k, int e, int bits, int word, char *buf, size_t n)
{
	const PtxOpnd *o = elem_opnd(w, k, e);

	if (is_imm(o)) {
		uint64_t v = imm_value(o, bits);
		uint32_t x = (uint32_t)(word ? v >> 32 : v);
		if (bits < 32)
			x &= (1u << bits) - 1;
		if (x)
			snprintf(buf, n, "0x%x", x);
		else
			snprintf(buf, n, "RZ");
		return buf;
	}
	if (!o || o->kind != PoName || o->what != PwReg) {
		lw_error_opnd(w, k, "operand %d must be a register or an immediate here", k);
		snprintf(buf, n, "RZ");
		return buf;
	}
	snprintf(buf, n, "%s", lw_elem(w, lw_vec(w, k, e), word));
	return buf;
}

const char *
mem_elem_reg(Lw *w, int k, int e, int bits, int word, char *buf, size_t n)
{
	mem_elem_src(w, k, e, bits, word, buf, n);
	if (!strncmp(buf, "0x", 2)) {
		char t[MemName];
		snprintf(t, sizeof t, "%s", lw_tmp(w));
		lw_emit(w, "MOV %s, %s", t, buf);
		snprintf(buf, n, "%s", t);
	}
	return buf;
}

const char *
mem_guard_skip(Lw *w, char *buf, size_t n)
{
	if (!w->guard[0])
		return NULL;
	snprintf(buf, n, "%s", lw_newlabel(w));
	/* the guard is "@%p " or "@!%p ": branch on its negation */
	if (w->guard[1] == '!')
		lw_emit_ng(w, "@%s BRA `(%s)", w->guard + 2, buf);
	else
		lw_emit_ng(w, "@!%s BRA `(%s)", w->guard + 1, buf);
	return buf;
}

/* ---- loads and stores --------------------------------------------------------------------- */

/* the LwKind of the register a PoName operand names (by its declared type); -1 for `_` */
static int
reg_kind(const Lw *w, const PtxOpnd *o)
{
	int bits;

	if (!o || o->kind != PoName || o->what != PwReg || !o->decl)
		return -1;
	const char *t = ptx_str(w->p, o->decl->type);
	if (!strcmp(t, "pred"))
		return LkPred;
	bits = lw_type_bits(t);
	return bits == 64 ? Lk64 : bits == 128 ? Lk128 : bits <= 16 ? Lk16 : Lk32;
}

/* the SASS size modifier of an access of `bits` bits (".U8", "", ".64", ".128") */
static const char *
size_mod(int bits, int sgn)
{
	switch (bits) {
	case 8: return sgn ? ".S8" : ".U8";
	case 16: return sgn ? ".S16" : ".U16";
	case 32: return "";
	case 64: return ".64";
	default: return ".128";
	}
}

/* the cache and ordering modifiers of a global or generic access, nvcc's spelling: `pre` goes
 * before the size (.EF .EL .NA .LU .LTC128B), `post` after it (.CONSTANT .STRONG.GPU .MMIO.SYS) */
static int
cache_mods(Lw *w, int load, int space, char *pre, size_t npre, char *post, size_t npost)
{
	int sem = mem_sem(w);
	const char *sc = mem_scope(w);

	pre[0] = post[0] = 0;
	if (lw_has(w, "L1::evict_last"))
		snprintf(pre, npre, ".EL");
	else if (lw_has(w, "L1::evict_first") || lw_has(w, "cs"))
		snprintf(pre, npre, ".EF");
	else if (lw_has(w, "L1::no_allocate"))
		snprintf(pre, npre, ".NA");
	else if (load && lw_has(w, "lu"))
		snprintf(pre, npre, ".LU");
	if (lw_has(w, "L2::64B") || lw_has(w, "L2::128B") || lw_has(w, "L2::256B")) {
		size_t l = strlen(pre);
		snprintf(pre + l, npre - l, ".LTC%s", lw_has(w, "L2::64B") ? "64B" : "128B");
	}
	switch (sem) {
	case MsVolatile:
		snprintf(post, npost, ".STRONG.SYS");
		return 0;
	case MsMmio:
		if (space != PsGlobal)
			return lw_error(w, ".mmio needs the .global space");
		snprintf(post, npost, ".MMIO.SYS");
		return 0;
	case MsRelaxed: case MsAcquire: case MsRelease:
		snprintf(post, npost, ".STRONG.%s", sc);
		return 0;
	case MsAcqRel: case MsSc:
		return lw_error(w, "this memory order on a %s", load ? "load" : "store");
	}
	if (load && lw_has(w, "nc")) {
		if (space != PsGlobal)
			return lw_error(w, ".nc needs the .global space");
		snprintf(post, npost, ".CONSTANT");
	} else if (lw_has(w, "ca") || (!load && lw_has(w, "wb"))) {
		snprintf(post, npost, ".STRONG.SM");
	} else if (lw_has(w, "cg")) {
		snprintf(post, npost, ".STRONG.GPU");
	} else if ((load && lw_has(w, "cv")) || (!load && lw_has(w, "wt"))) {
		snprintf(post, npost, ".STRONG.SYS");
	}
	return 0;
}

/* PRMT selector that takes `nb` bytes from byte `at` of its first source into the low bytes,
 * the rest zero (selector 7: a byte of RZ) or copies of the top byte's sign (selector | 8) */
static unsigned
extract_sel(int at, int nb, int sgn)
{
	unsigned sel = 0;

	for (int i = 0; i < 4; i++) {
		unsigned s = i < nb ? (unsigned)(at + i) : sgn ? (unsigned)(at + nb - 1) | 8u : 7u;
		sel |= s << 4 * i;
	}
	return sel;
}

/* the high word of a 64-bit destination written by a narrower load: zero, or the sign */
static void
widen_hi(Lw *w, const char *d, int sgn)
{
	char hi[MemName];

	snprintf(hi, sizeof hi, "%s", lw_elem(w, d, 1));
	if (sgn)
		lw_emit(w, "SHF.R.S32.HI %s, RZ, 0x1f, %s", hi, d);
	else
		lw_emit(w, "MOV %s, RZ", hi);
}

/* element e of a vector load's temporary `t` (ebits each) into its destination register */
static void
unpack_elem(Lw *w, const char *t, int e, int ebits, int sgn)
{
	const PtxOpnd *o = elem_opnd(w, 0, e);
	int dk = reg_kind(w, o);
	char d[MemName], src[MemName];

	if (dk < 0)
		return;                    /* `_` */
	snprintf(d, sizeof d, "%s", lw_vec(w, 0, e));
	if (ebits == 64) {
		lw_emit(w, "MOV %s, %s", d, lw_elem(w, t, 2 * e));
		lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_elem(w, t, 2 * e + 1));
		return;
	}
	if (ebits == 32) {
		lw_emit(w, "MOV %s, %s", d, lw_elem(w, t, e));
	} else {
		int per = 32 / ebits, nb = ebits / 8;
		snprintf(src, sizeof src, "%s", lw_elem(w, t, e / per));
		lw_emit(w, "PRMT %s, %s, 0x%04x, RZ", d, src, extract_sel(e % per * nb, nb, sgn));
	}
	if (dk == Lk64)
		widen_hi(w, d, sgn);
}

/* ld.const: LDC from constant bank 3 (c[0x3][reg+off] or c[0x3][off]), one LDC per element */
static int
ld_const(Lw *w, int bits, int n, int sgn)
{
	const PtxOpnd *a = lw_opnd(w, 1);
	char base[MemAddr];
	int64_t off = a && a->hasoff ? a->ival : 0;

	if (!a || a->kind != PoAddr || a->nsub > 1)
		return lw_error_opnd(w, 1, "ld.const takes [register+offset] or [offset]");
	if (bits > 64)
		return lw_error(w, "a 128-bit constant load");
	base[0] = 0;
	if (a->nsub && a->sub[0].kind == PoName && a->sub[0].what == PwReg) {
		/* the base register's name (a 64-bit one: its low word) */
		if (mem_reg_base(w, 1, base, sizeof base - 1))
			return -1;
		strcat(base, "+");
	} else if (a->nsub && a->sub[0].kind == PoImm) {
		off += a->sub[0].ival;
	} else if (a->nsub) {
		return lw_error_opnd(w, 1, "a .const variable by name (constant bank 3 is not laid out)");
	}
	for (int e = 0; e < n; e++) {
		const PtxOpnd *o = elem_opnd(w, 0, e);
		int dk = reg_kind(w, o);
		char d[MemName];
		long long eo = (long long)off + (long long)e * (bits / 8);
		if (dk < 0)
			continue;
		if (eo < 0 || eo > 0xffff)
			return lw_error_opnd(w, 1, "a constant bank offset out of range");
		snprintf(d, sizeof d, "%s", lw_vec(w, 0, e));
		lw_emit(w, "LDC%s %s, c[0x3][%s0x%llx]", size_mod(bits, sgn), d, base, eo);
		if (dk == Lk64 && bits < 64)
			widen_hi(w, d, sgn);
	}
	return 0;
}

static int
sel_ld_space(Lw *w, int space, int ldu)
{
	const char *t = lw_type(w);
	int bits = lw_type_bits(t), n = lw_veclen(w, 0), tot = bits * n, sgn = lw_type_signed(t);
	const char *op;
	char addr[MemAddr], pre[32], post[32], tmp[MemName];

	if (lw_opnd(w, 2) && !lw_has(w, "L2::cache_hint"))
		return lw_error(w, "a load with a third operand");
	if (bits < 8 || (n > 1 && n != 2 && n != 4) || tot > 128 || tot < 8 || !strcmp(t, "pred"))
		return lw_error(w, "a load of %d x %d bits", n, bits);
	if (lw_has(w, "nc") && space != PsGlobal)
		return lw_error(w, ".nc needs the .global space");
	if (space == PsConst)
		return ld_const(w, bits, n, sgn);
	switch (space) {
	case PsGlobal: op = "LDG.E"; break;
	case PsShared: op = "LDS"; break;
	case PsLocal: op = "LDL"; break;
	default: op = "LD.E"; break;
	}
	pre[0] = post[0] = 0;
	if (ldu) {
		if (space == PsGlobal)
			snprintf(post, sizeof post, ".CONSTANT");
	} else if ((space == PsGlobal || space == PsNoSpace) &&
	           cache_mods(w, 1, space, pre, sizeof pre, post, sizeof post) < 0) {
		return -1;
	}
	int sem = ldu ? MsWeak : mem_sem(w);
	if (sem == MsMmio) {
		if (mem_addr_nodesc(w, 1, space, addr, sizeof addr) < 0)
			return -1;
	} else if (mem_addr(w, 1, space, addr, sizeof addr) < 0) {
		return -1;
	}
	if (n == 1) {
		const PtxOpnd *o = elem_opnd(w, 0, 0);   /* `{%r1}` is %r1 (Triton writes it) */
		int dk = reg_kind(w, o);
		char d[MemName];
		if (dk < 0)
			return lw_error_opnd(w, 0, "a load's destination must be a register");
		if ((dk == Lk16 && bits > 16) || (dk == Lk32 && bits > 32) || (dk == Lk64 && bits > 64))
			return lw_error_opnd(w, 0, "a destination narrower than the load");
		snprintf(d, sizeof d, "%s", lw_vec(w, 0, 0));
		lw_emit(w, "%s%s%s%s %s, %s", op, pre, size_mod(bits, sgn), post, d, addr);
		if (dk == Lk64 && bits < 64)
			widen_hi(w, d, sgn);
		if (dk == Lk128 && bits < 128)
			return lw_error_opnd(w, 0, "a 128-bit destination of a narrower load");
	} else {
		/* one access into a temporary tuple, then each element into its register */
		snprintf(tmp, sizeof tmp, "%s", tot == 128 ? lw_tmp128(w) : tot == 64 ? lw_tmp64(w) : lw_tmp(w));
		lw_emit(w, "%s%s%s%s %s, %s", op, pre, size_mod(tot, 0), post, tmp, addr);
		for (int e = 0; e < n; e++)
			unpack_elem(w, tmp, e, bits, sgn);
	}
	if (!ldu && (sem == MsAcquire) && space != PsShared)
		mem_acquire(w, mem_scope(w));
	return 0;
}

static int
sel_ld(Lw *w)
{
	int space = mem_space(w);

	if (space < 0)
		return -1;
	if (space == PsParam)
		return lw_ld_param(w);
	return sel_ld_space(w, space, 0);
}

static int
sel_ldu(Lw *w)
{
	int space = mem_space(w);

	if (space != PsGlobal && space != PsNoSpace)
		return space < 0 ? -1 : lw_error(w, "ldu outside the global and generic spaces");
	return sel_ld_space(w, space, 1);
}

/* the data of a store into one register or tuple: its text in out */
static int
st_data(Lw *w, int bits, int n, char *out, size_t nout)
{
	const PtxOpnd *o = lw_opnd(w, 1);
	int tot = bits * n;
	char a[MemName], b[MemName];

	if (n == 1) {
		o = elem_opnd(w, 1, 0);                   /* `{%r1}` is %r1 */
		if (is_imm(o)) {
			uint64_t v = imm_value(o, bits);
			if (bits < 64 && bits > 0)
				v &= bits == 32 ? 0xffffffffull : (1ull << bits) - 1;
			if (!v) {
				snprintf(out, nout, "RZ");
				return 0;
			}
			if (bits == 128)
				return lw_error_opnd(w, 1, "a 128-bit immediate");
			if (bits == 64) {
				snprintf(out, nout, "%s", lw_tmp64(w));
				lw_emit(w, "MOV %s, 0x%x", out, (unsigned)v);
				lw_emit(w, "MOV %s, 0x%x", lw_elem(w, out, 1), (unsigned)(v >> 32));
			} else {
				snprintf(out, nout, "%s", lw_tmp(w));
				lw_emit(w, "MOV %s, 0x%x", out, (unsigned)v);
			}
			return 0;
		}
		int dk = reg_kind(w, o);
		if (dk < 0)
			return lw_error_opnd(w, 1, "a store's data must be a register or an immediate");
		if ((dk == Lk16 && bits > 16) || (dk == Lk32 && bits > 32) || (dk == Lk64 && bits > 64) ||
		    (dk != Lk128 && bits == 128))
			return lw_error_opnd(w, 1, "a data register narrower than the store");
		snprintf(out, nout, "%s", lw_vec(w, 1, 0));
		return 0;
	}
	snprintf(out, nout, "%s", tot == 128 ? lw_tmp128(w) : tot == 64 ? lw_tmp64(w) : lw_tmp(w));
	if (bits >= 32) {
		int words = bits / 32;
		for (int e = 0; e < n; e++)
			for (int k = 0; k < words; k++) {
				char dst[MemName];
				snprintf(dst, sizeof dst, "%s", lw_elem(w, out, e * words + k));
				lw_emit(w, "MOV %s, %s", dst, mem_elem_src(w, 1, e, bits, k, a, sizeof a));
			}
		return 0;
	}
	if (bits == 16) {
		for (int e = 0; e + 1 < n; e += 2) {
			char dst[MemName];
			mem_elem_reg(w, 1, e, 16, 0, a, sizeof a);
			mem_elem_reg(w, 1, e + 1, 16, 0, b, sizeof b);
			snprintf(dst, sizeof dst, "%s", lw_elem(w, out, e / 2));
			lw_emit(w, "PRMT %s, %s, 0x5410, %s", dst, a, b);
		}
		return 0;
	}
	/* bytes: pairs into halves, halves into the word */
	char h[2][MemName];
	for (int p = 0; p < n / 2; p++) {
		mem_elem_reg(w, 1, 2 * p, 8, 0, a, sizeof a);
		mem_elem_reg(w, 1, 2 * p + 1, 8, 0, b, sizeof b);
		snprintf(h[p], sizeof h[p], "%s", n == 2 ? out : lw_tmp(w));
		lw_emit(w, "PRMT %s, %s, 0x7740, %s", h[p], a, b);
	}
	if (n == 4)
		lw_emit(w, "PRMT %s, %s, 0x5410, %s", out, h[0], h[1]);
	return 0;
}

static int
sel_st(Lw *w)
{
	int space = mem_space(w), sem = mem_sem(w);
	const char *t = lw_type(w), *op;
	int bits = lw_type_bits(t), n = lw_veclen(w, 1), tot = bits * n;
	char addr[MemAddr], data[MemName], pre[32], post[32];

	if (space < 0)
		return -1;
	if (space == PsParam)
		return lw_st_param(w);
	if (space == PsConst)
		return lw_error(w, "a store to the .const space");
	if (lw_has(w, "mbarrier::complete_tx::bytes") || lw_has(w, "async"))
		return lw_error(w, "st.async (cluster shared memory)");
	if (lw_opnd(w, 2) && !lw_has(w, "L2::cache_hint"))
		return lw_error(w, "a store with a third operand");
	if (bits < 8 || (n > 1 && n != 2 && n != 4) || tot > 128 || !strcmp(t, "pred"))
		return lw_error(w, "a store of %d x %d bits", n, bits);
	switch (space) {
	case PsGlobal: op = "STG.E"; break;
	case PsShared: op = "STS"; break;
	case PsLocal: op = "STL"; break;
	default: op = "ST.E"; break;
	}
	pre[0] = post[0] = 0;
	if ((space == PsGlobal || space == PsNoSpace) &&
	    cache_mods(w, 0, space, pre, sizeof pre, post, sizeof post) < 0)
		return -1;
	if (sem == MsMmio ? mem_addr_nodesc(w, 0, space, addr, sizeof addr) < 0 :
	    mem_addr(w, 0, space, addr, sizeof addr) < 0)
		return -1;
	if (st_data(w, bits, n, data, sizeof data) < 0)
		return -1;
	if (sem == MsRelease && space != PsShared && space != PsLocal)
		mem_release(w, mem_scope(w));
	else if (sem == MsRelease)
		mem_release(w, "SM");
	lw_emit(w, "%s%s%s%s %s, %s", op, pre, size_mod(tot, 0), post, addr, data);
	return 0;
}

/* ---- address spaces ----------------------------------------------------------------------- */

/* cvta.space.size d, a (to generic) and cvta.to.space.size d, a (from generic) */
static int
sel_cvta(Lw *w)
{
	int to = lw_has(w, "to"), space = mem_space(w);
	int bits = lw_type_bits(lw_type(w));
	const PtxOpnd *s = lw_opnd(w, 1);
	char d[MemName], a[MemName];

	if (space < 0)
		return -1;
	if (bits != 64 && bits != 32)
		return lw_error(w, "cvta of %d bits", bits);
	snprintf(d, sizeof d, "%s", lw_reg(w, 0));
	if (space == PsGlobal) {
		/* global and generic addresses are the same */
		if (bits == 64) {
			lw_emit(w, "MOV %s, %s", d, lw_lo(w, 1));
			lw_emit(w, "MOV %s, %s", lw_elem(w, d, 1), lw_hi(w, 1));
		} else {
			lw_emit(w, "MOV %s, %s", d, lw_isrc(w, 1));
		}
		return 0;
	}
	if (space == PsParam && !to && bits == 64 && w->arch->bank0->param_win) {
		/* a .param address (a kernel parameter's offset) plus the parameters' generic
		 * address, c[0x0][param_win] (sm_90: a __grid_constant__ parameter, a tensor map) */
		char lb[MemName], hb[MemName], q[MemName];
		unsigned pw = w->arch->bank0->param_win;
		const char *lo = mem_cbank(w, pw, lb, sizeof lb), *hi = mem_cbank(w, pw + 4, hb, sizeof hb);
		snprintf(a, sizeof a, "%s", lw_reg(w, 1));
		snprintf(q, sizeof q, "%s", lw_ptmp(w));
		lw_emit(w, "IADD3 %s, %s, %s, %s, RZ", d, q, a, lo);
		lw_emit(w, "IADD3.X %s, %s, %s, RZ, %s, !PT", lw_elem(w, d, 1), lw_elem(w, a, 1), hi, q);
		return 0;
	}
	if (space != PsShared && space != PsLocal)
		return lw_error(w, "cvta of the .%s space", space == PsParam ? "param" : space == PsConst ?
		                "const" : "generic");
	if (bits != 64)
		return lw_error(w, "a 32-bit generic address (.address_size 64 only)");
	if (to) {
		/* generic -> shared/local: a 32-bit offset in the window, zero-extended */
		snprintf(a, sizeof a, "%s", lw_reg(w, 1));
		mem_from_generic(w, space, d, a);
		lw_emit(w, "MOV %s, RZ", lw_elem(w, d, 1));
		return 0;
	}
	if (s && s->kind == PoName && s->what == PwVar && s->decl &&
	    (s->decl->space == PsShared || s->decl->space == PsLocal)) {
		/* cvta.shared.u64 d, smem_var */
		int off = s->decl->space == PsShared ? lw_shared_offset(w, s->atom) :
		          lw_local_offset(w, s->atom);
		if (off < 0 || s->decl->space != space)
			return lw_error_opnd(w, 1, "variable not placed in this space");
		snprintf(a, sizeof a, "%s", lw_tmp(w));
		if (space == PsLocal)
			lw_emit(w, "IADD3 %s, R1, 0x%x, RZ", a, (unsigned)off);
		else
			lw_emit(w, "MOV %s, 0x%x", a, (unsigned)off);
	} else if (lw_isimm(w, 1)) {
		snprintf(a, sizeof a, "%s", lw_rsrc(w, 1));
	} else {
		snprintf(a, sizeof a, "%s", lw_reg(w, 1));   /* a 64-bit register: its low word */
	}
	mem_to_generic(w, space, d, a);
	return 0;
}

/* isspacep.space p, a: QSPC.E.<S|L|G> */
static int
sel_isspacep(Lw *w)
{
	int space = mem_space(w);
	char addr[MemAddr], a[MemName];
	const char *s;

	if (space < 0)
		return -1;
	switch (space) {
	case PsGlobal: s = "G"; break;
	case PsShared: s = "S"; break;
	case PsLocal: s = "L"; break;
	default: return lw_error(w, "isspacep of the .%s space", space == PsConst ? "const" : "param");
	}
	if (lw_isimm(w, 1))
		return lw_error_opnd(w, 1, "isspacep of an immediate address");
	snprintf(a, sizeof a, "%s", lw_reg(w, 1));
	if (lw_regof(w, 1) && lw_regof(w, 1)->kind != Lk64)
		return lw_error_opnd(w, 1, "isspacep takes a 64-bit generic address");
	snprintf(addr, sizeof addr, "[%s.64]", a);
	lw_emit(w, "QSPC.E.%s %s, RZ, %s", s, lw_reg(w, 0), addr);
	return 0;
}

/* prefetch{.space}.level [a], prefetchu.L1 [a]: CCTL.E.PF1/.PF2/.PML2, CCTLL.PF1/.PF2 (local) */
static int
sel_prefetch(Lw *w)
{
	int space = mem_space(w);
	const char *level;
	char addr[MemAddr];

	if (space < 0)
		return -1;
	if (lw_has(w, "tensormap"))
		return arch_has(w->target, ArchSyncs) ? sel_tmap_prefetch(w) :
		       lw_error(w, "prefetch.tensormap");
	if (space != PsGlobal && space != PsLocal && space != PsNoSpace)
		return lw_error(w, "prefetch of the .%s space", ptx_space_name(space) + 1);
	if (lw_has(w, "L2::evict_last"))
		level = "PML2";
	else if (lw_has(w, "L2::evict_normal") || lw_has(w, "L2"))
		level = "PF2";
	else
		level = "PF1";
	if (mem_addr_nodesc(w, 0, space, addr, sizeof addr) < 0)
		return -1;
	if (space == PsLocal)
		lw_emit(w, "CCTLL.%s %s", level, addr);
	else
		lw_emit(w, "CCTL.E.%s %s", level, addr);
	return 0;
}

/* discard.global.L2 [a], 128 and applypriority.global.L2::evict_normal [a], 128: CCTL.E.RML2 and
 * CCTL.E.DML2 on the 128-byte line */
static int
sel_l2ctl(Lw *w)
{
	int space = mem_space(w), discard = !strcmp(ptx_str(w->p, w->ins->op), "discard");
	char addr[MemAddr];

	if (space < 0)
		return -1;
	if (space != PsGlobal && space != PsNoSpace)
		return lw_error(w, "the .%s space", ptx_space_name(space) + 1);
	if (!lw_isimm(w, 1) || lw_imm(w, 1) != 128)
		return lw_error_opnd(w, 1, "a size other than 128");
	if (mem_addr_nodesc(w, 0, space, addr, sizeof addr) < 0)
		return -1;
	lw_emit(w, "CCTL.E.%s %s", discard ? "RML2" : "DML2", addr);
	return 0;
}

const SelRow ptxsel_mem[] = {
	{ "ld", TcAny, sel_ld, "LDG.E/LDS/LDL/LD.E/LDC d, [a] (.U8 .S16 .64 .128 sizes; vectors: one "
	  "access into a tuple, then MOV/PRMT per element; ld.param: MOV d, c[0x0][param])" },
	{ "ldu", TcAny, sel_ldu, "LDG.E.CONSTANT d, [a]" },
	{ "st", TcAny, sel_st, "STG.E/STS/STL/ST.E [a], b (vectors packed into a tuple)" },
	{ "cvta", TcAny, sel_cvta, "MOV (global); IADD3/IADD3.X with the window c[0x0][0x18] or "
	  "c[0x0][0x20] (shared, local; sm_90 shared: SR_SWINHI); sm_90 cvta.param: IADD3/IADD3.X "
	  "with c[0x0][0x198]" },
	{ "isspacep", TcAny, sel_isspacep, "QSPC.E.S/.L/.G p, RZ, [a]" },
	{ "prefetch", TcAny, sel_prefetch, "CCTL.E.PF1/.PF2/.PML2 [a], CCTLL.PF1 [a] (local); "
	  "sm_90a prefetch.tensormap: R2UR UR48/49, UTMACCTL.PF [UR48]" },
	{ "prefetchu", TcAny, sel_prefetch, "CCTL.E.PF1 [a]" },
	{ "discard", TcAny, sel_l2ctl, "CCTL.E.RML2 [a]" },
	{ "applypriority", TcAny, sel_l2ctl, "CCTL.E.DML2 [a]" },
	{ "atom", TcAny, sel_atom, "ATOMG.E/ATOMS/ATOM.E.<OP>.<TYPE>.STRONG.<SCOPE> [PT,] d, [a], b[, c]; "
	  "shared forms without a native op: LDS + ATOMS.CAST.SPIN loop" },
	{ "red", TcAny, sel_red, "RED.E (sm_8x) / REDG.E (sm_90) [a], b; ATOMS RZ; ATOM.E PT, RZ (generic)" },
	{ "cp", TcAny, sel_cp, "LDGSTS.E[.BYPASS][.LTC128B].<size>[.ZFILL] [s], [g][, P]; LDGDEPBAR; "
	  "DEPBAR.LE SB0, n; sm_90a cp{.reduce}.async.bulk: R2UR UR40..44 + ELECT + UBLKCP.S.G/.G.S/"
	  ".S.S (UBLKRED.G.S.<op>) loop over the threads, bulk commit_group UTMACMDFLUSH, "
	  "wait_group DEPBAR.LE SB0, n; cp.async.bulk.tensor.Nd tile: the same loop with "
	  "UTMALDG.ND/UTMASTG.ND [UR40], [UR48]" },
	{ "mbarrier", TcAny, sel_mbarrier, "STS.64 (init), MEMBAR.ALL.CTA + ATOMS.ARRIVE.64 (arrive), "
	  "LDS + LOP3.LUT P (test_wait); sm_90a: SYNCS.EXCH.64 (init), SYNCS.ARRIVE.TRANS64"
	  "[.OPTOUT][.A1T0|.ART0|.A0TR|.A0TX] (arrive, expect_tx, complete_tx), "
	  "SYNCS.PHASECHK.TRANS64[.TRYWAIT] (test_wait, try_wait), SYNCS.CCTL.IV (inval)" },
	{ "fence", TcAny, sel_fence, "MEMBAR.SC/.ALL.<CTA|GPU|SYS> [+ ERRBAR + CCTL.IVALL]; "
	  "FENCE.VIEW.ASYNC.S" },
	{ "membar", TcAny, sel_membar, "MEMBAR.SC.<CTA|GPU|SYS> [+ ERRBAR + CCTL.IVALL]" },
	{ NULL, 0, NULL, NULL },
};
