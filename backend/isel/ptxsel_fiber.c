/* ptxsel_fiber.c: selection of the FIBER PTX extensions that fiber_device.cuh writes as inline
 * asm (docs/fiber-cuda.md): setfibernum, the numbered slots (stslot, ldslot, waitslot, setslot:
 * window registers another weft reads with busy-bit order), the numbered pools (declpool,
 * ldpool, stpool, waitpool, setpool, mmapool); what a setfibernum needs besides its SETFIBERNUM
 * (values for the new fibers, the divergence check) is lwfiber.c.
 */
#include "ptxlow.h"
#include "lwpriv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	FbMinWindow = 8,   /* the smallest window regalloc-window allocates into (backend/rawin.c) */
	FbSlots = 64,      /* slots 0..63 per kernel */
	FbPools = 16,      /* pools 0..15 per kernel */
	FbWefts = 256,     /* a weft number of ldslot/waitslot/setslot: 0..255 */
};

/* the family's state for one function: what the header must declare */
struct LwFiber {
	uint64_t slots;             /* bit s: slot s named (declared `.vreg %$fs<s>`) */
	uint16_t pools;             /* bit p: pool p declared by declpool */
	uint32_t psize[FbPools];    /* its size in registers */
	uint8_t pslice[FbPools];    /* its slice */
	uint32_t maxfibers;         /* .maxfibers: the largest constant count, or maxfibers N */
	uint8_t own;                /* declare `.pool sm_owner,1`: a slot read another weft's window
	                             * in a kernel with neither a pool nor a setfibernum */
};

static struct LwFiber *
state(Lw *w)
{
	if (!w->fib)
		w->fib = xmalloc(sizeof *w->fib);
	return w->fib;
}

void
lw_fiber_header(Lw *w, LwBuf *b)
{
	struct LwFiber *f = w->fib;

	if (!f)
		return;
	if (f->maxfibers)
		lw_buf_printf(b, "\t.maxfibers\t\t%u\n", (unsigned)f->maxfibers);
	if (f->own)
		lw_buf_printf(b, "\t.pool\t\tsm_owner,1\n");
	for (int p = 0; p < FbPools; p++)
		if (f->pools >> p & 1)
			lw_buf_printf(b, "\t.pool\t\tpool%d,%u,%u\n", p, (unsigned)f->psize[p],
			              (unsigned)f->pslice[p]);
	for (int s = 0; s < FbSlots; s++)
		if (f->slots >> s & 1)
			lw_buf_printf(b, "\t.vreg\t%%$fs%d\n", s);
}

void
lw_fiber_free(Lw *w)
{
	free(w->fib);
	w->fib = NULL;
}

/* the FIBER extensions compile only into FIBER-native code: else a located error */
static int
need_fiber(Lw *w)
{
	if (!w->fiber)
		return lw_error(w, "'%s' is a FIBER instruction: compile with --mode=fiber-native "
		                "(docs/fiber-cuda.md)", ptx_str(w->p, w->ins->op));
	return 0;
}

/* operand k an immediate in [lo, hi]: its value, else -1 after a located error naming what */
static int64_t
want_imm(Lw *w, int k, int64_t lo, int64_t hi, const char *what)
{
	const PtxOpnd *o = lw_opnd(w, k);

	if (!o || o->kind != PoImm) {
		lw_error_opnd(w, k, "%s must be a constant (an \"n\" operand in the asm)", what);
		return -1;
	}
	if (o->ival < lo || o->ival > hi) {
		lw_error_opnd(w, k, "%s %lld is out of range %lld..%lld", what, (long long)o->ival,
		              (long long)lo, (long long)hi);
		return -1;
	}
	return o->ival;
}

/* a FIBER instruction takes no guard: it synchronises or names a protocol register, and a
 * guard would make it divergent */
static int
no_guard(Lw *w)
{
	if (w->guard[0])
		return lw_error(w, "a guarded '%s' is not allowed (FIBER instructions run unpredicated; "
		                "branch around it instead)", ptx_str(w->p, w->ins->op));
	return 0;
}

/* a 32-bit register or immediate source k as SASS text */
static const char *
src32(Lw *w, int k)
{
	int kd = lw_vkind(w, k, 0);

	if (kd == Lk32 || kd == Lk16)
		return lw_reg(w, k);
	if (lw_isimm(w, k))
		return lw_isrc(w, k);
	lw_error_opnd(w, k, "operand %d must be a 32-bit register or an immediate", k);
	return NULL;
}

/* the kernel's body has an instruction op (a FIBER kernel changes its fiber count or declares
 * its pools in its own body: fiber_device.cuh's intrinsics are inlined by nvcc) */
static int
has_op(Lw *w, const char *op)
{
	const PtxFunc *fn = w->fn;

	for (uint32_t s = 0; s < fn->nst; s++)
		if (fn->st[s].kind == PsIns && !strcmp(ptx_str(w->p, fn->st[s].ins->op), op))
			return 1;
	return 0;
}

/* the registers the kernel's pools take in slice sl (its declpool instructions) */
static uint32_t
pooled(Lw *w, int sl)
{
	const PtxFunc *fn = w->fn;
	uint32_t n = 0;

	for (uint32_t s = 0; s < fn->nst; s++) {
		const PtxIns *i = fn->st[s].kind == PsIns ? fn->st[s].ins : NULL;
		if (!i || strcmp(ptx_str(w->p, i->op), "declpool") || i->nopnd < 2 ||
		    i->opnd[1].kind != PoImm)
			continue;
		int64_t isl = i->nopnd == 3 && i->opnd[2].kind == PoImm ? i->opnd[2].ival : 0;
		if (isl == sl && i->opnd[1].ival > 0)
			n += (uint32_t)i->opnd[1].ival;
	}
	return n;
}

/* a count of c fibers leaves each weft at least FbMinWindow registers in every slice after the
 * pools, else a located error on operand k */
static int
window_fits(Lw *w, int k, int64_t c)
{
	int64_t per = ((c + 31) / 32 + 3) / 4;

	for (int sl = 0; sl < 4; sl++) {
		uint32_t p = pooled(w, sl);
		if (per * FbMinWindow + p > FiberSliceRegs)
			return lw_error_opnd(w, k, "the windows cannot fit: %lld fibers are %lld wefts in "
			                     "slice %d, which with its pools' %u registers leaves %lld a "
			                     "weft, below the %d the allocator needs", (long long)c,
			                     (long long)per, sl, (unsigned)p,
			                     (long long)((FiberSliceRegs - (int64_t)p) / per), FbMinWindow);
	}
	return 0;
}

/* ---- setfibernum -------------------------------------------------------------------------- */

/* setfibernum.u32 count[, nreg]: SETFIBERNUM imm[, nreg] (or R2UR UR10 first for a register
 * count), then what new fibers need (lwfiber.c); refused where it may be divergent */
static int
sel_setfibernum(Lw *w)
{
	int64_t n = 0;

	if (need_fiber(w) || no_guard(w))
		return -1;
	if (w->inl || !w->fn->entry)
		return lw_error(w, "setfibernum in a device function: the kernel's own body must change "
		                "the fiber count (fiberc reloads the kernel's parameters after it)");
	if (lw_fiber_divergent(w) < 0)
		return -1;
	if (w->ins->nopnd == 2 && (n = want_imm(w, 1, 1, 255, "setfibernum's window size")) < 0)
		return -1;
	if (lw_isimm(w, 0)) {
		int64_t c = want_imm(w, 0, 1, 4 * 64 * 32, "setfibernum's fiber count");
		if (c < 0 || window_fits(w, 0, c) < 0)
			return -1;
		if ((uint32_t)c > state(w)->maxfibers)
			state(w)->maxfibers = (uint32_t)c;
		if (n)
			lw_emit(w, "SETFIBERNUM 0x%x, 0x%x", (unsigned)c, (unsigned)n);
		else
			lw_emit(w, "SETFIBERNUM 0x%x", (unsigned)c);
	} else {
		if (lw_vkind(w, 0, 0) != Lk32)
			return lw_error_opnd(w, 0, "setfibernum's count must be a 32-bit register or a "
			                     "constant");
		lw_emit(w, "R2UR UR10, %s", lw_reg(w, 0));
		if (n)
			lw_emit(w, "SETFIBERNUM UR10, 0x%x", (unsigned)n);
		else
			lw_emit(w, "SETFIBERNUM UR10");
	}
	return lw_fiber_reload(w);
}

/* maxfibers N: reserve weft contexts for N fibers (.maxfibers; needed when a setfibernum's count
 * is a register and may exceed the launch's threads) */
static int
sel_maxfibers(Lw *w)
{
	int64_t n;

	if (need_fiber(w))
		return -1;
	n = want_imm(w, 0, 1, 4 * 64 * 32, "maxfibers' fiber count");
	if (n < 0 || window_fits(w, 0, n) < 0)
		return -1;
	if ((uint32_t)n > state(w)->maxfibers)
		state(w)->maxfibers = (uint32_t)n;
	return 0;
}

/* ---- slots -------------------------------------------------------------------------------- */

/* the virtual register of slot operand k ("%$fs3"), NULL after an error */
static const char *
slot(Lw *w, int k)
{
	char *buf;
	int64_t s;

	if (need_fiber(w))
		return NULL;
	s = want_imm(w, k, 0, FbSlots - 1, "a slot number");
	if (s < 0)
		return NULL;
	state(w)->slots |= (uint64_t)1 << s;
	buf = lw_ring(w);
	snprintf(buf, LwStr, "%%$fs%d", (int)s);
	return buf;
}

/* operand k, when present, a weft number: "@W", else "" (the own window) */
static const char *
weft(Lw *w, int k, char *buf, size_t n)
{
	int64_t v;

	buf[0] = 0;
	if (k >= w->ins->nopnd)
		return buf;
	if ((v = want_imm(w, k, 0, FbWefts - 1, "a weft number")) < 0)
		return NULL;
	int sfn = has_op(w, "setfibernum"), pooled = has_op(w, "declpool");
	if (v >= 4 && sfn) {
		lw_error_opnd(w, k, "weft %d's window moves with setfibernum (new wefts are placed as "
		              "they come): only wefts 0..3 can be read by number in this kernel", (int)v);
		return NULL;
	}
	if (!sfn && !pooled)
		state(w)->own = 1;     /* the windows are at known places only if it owns its SM */
	snprintf(buf, n, "@%d", (int)v);
	return buf;
}

/* stslot.b32 S, v: MOV %$fsS, v (a local write: the slot becomes Full) */
static int
sel_stslot(Lw *w)
{
	const char *s, *v;

	if (no_guard(w) || !(s = slot(w, 0)) || !(v = src32(w, 1)))
		return -1;
	lw_emit(w, "MOV %s, %s", s, v);
	return 0;
}

/* ldslot.b32 d, S, W: MOV d, %$fsS@W (a remote read of weft W's slot) */
static int
sel_ldslot(Lw *w)
{
	char wb[8];
	const char *s, *at;

	if (lw_vkind(w, 0, 0) != Lk32)
		return lw_error_opnd(w, 0, "ldslot's destination must be a 32-bit register");
	if (!(s = slot(w, 1)) || !(at = weft(w, 2, wb, sizeof wb)))
		return -1;
	lw_emit(w, "MOV %s, %s%s", lw_reg(w, 0), s, at);
	return 0;
}

/* the .full or .empty of a wait or set, "" after an error */
static const char *
mode(Lw *w)
{
	int f = lw_has(w, "full"), e = lw_has(w, "empty");

	if (f == e) {
		lw_error(w, "'%s' needs exactly one of .full and .empty", ptx_str(w->p, w->ins->op));
		return "";
	}
	return f ? "FULL" : "EMPTY";
}

/* waitslot.full|empty S[, W]: DEPBAR.FULL|EMPTY %$fsS[@W]; setslot: SETBUSYBIT the same */
static int
slot_busy(Lw *w, const char *sass)
{
	char wb[8];
	const char *m = mode(w), *s, *at;

	if (!m[0] || no_guard(w) || !(s = slot(w, 0)) || !(at = weft(w, 1, wb, sizeof wb)))
		return -1;
	lw_emit(w, "%s.%s %s%s", sass, m, s, at);
	return 0;
}

static int sel_waitslot(Lw *w) { return slot_busy(w, "DEPBAR"); }
static int sel_setslot(Lw *w) { return slot_busy(w, "SETBUSYBIT"); }

/* ---- pools -------------------------------------------------------------------------------- */

/* declpool ID, SIZE[, SLICE]: `.pool poolID,SIZE,SLICE` in the function's header, nothing in
 * the code */
static int
sel_declpool(Lw *w)
{
	struct LwFiber *f = state(w);
	int64_t id, size, sl = 0;

	if (need_fiber(w) || no_guard(w) || (id = want_imm(w, 0, 0, FbPools - 1, "a pool number")) < 0 ||
	    (size = want_imm(w, 1, 1, 256, "a pool size")) < 0 ||
	    (w->ins->nopnd == 3 && (sl = want_imm(w, 2, 0, 3, "a pool's slice")) < 0))
		return -1;
	if (f->pools >> id & 1)
		return lw_error_opnd(w, 0, "pool %d is declared twice", (int)id);
	if (pooled(w, (int)sl) + FbMinWindow > FiberSliceRegs)
		return lw_error_opnd(w, 1, "the pools of slice %d take %u registers: no window of %d "
		                     "fits beside them", (int)sl, (unsigned)pooled(w, (int)sl),
		                     FbMinWindow);
	f->pools |= (uint16_t)(1u << id);
	f->psize[id] = (uint32_t)size;
	f->pslice[id] = (uint8_t)sl;
	return 0;
}

/* pool operand k (number) with offset operand k+1: "poolID[OFF]", NULL after an error; span
 * registers from OFF must lie inside the pool */
static const char *
pool(Lw *w, int k, int span, char *buf, size_t n)
{
	struct LwFiber *f = state(w);
	int64_t id, off;

	if (need_fiber(w) || (id = want_imm(w, k, 0, FbPools - 1, "a pool number")) < 0)
		return NULL;
	if (!(f->pools >> id & 1)) {
		lw_error_opnd(w, k, "unknown pool %d (declare it first: declpool, fiber_pool<...>::"
		              "declare())", (int)id);
		return NULL;
	}
	if ((off = want_imm(w, k + 1, 0, f->psize[id] - 1, "a pool offset")) < 0)
		return NULL;
	if (off + span > f->psize[id]) {
		lw_error_opnd(w, k + 1, "registers %d..%d are past pool %d's %u", (int)off,
		              (int)(off + span - 1), (int)id, (unsigned)f->psize[id]);
		return NULL;
	}
	snprintf(buf, n, "pool%d[%d]", (int)id, (int)off);
	return buf;
}

/* ldpool.b32 d, ID, OFF: MOV d, poolID[OFF] */
static int
sel_ldpool(Lw *w)
{
	char pb[32];
	const char *p;

	if (lw_vkind(w, 0, 0) != Lk32)
		return lw_error_opnd(w, 0, "ldpool's destination must be a 32-bit register");
	if (!(p = pool(w, 1, 1, pb, sizeof pb)))
		return -1;
	lw_emit(w, "MOV %s, %s", lw_reg(w, 0), p);
	return 0;
}

/* stpool.b32 ID, OFF, v: MOV poolID[OFF], v (legal from the wefts of the pool's slice) */
static int
sel_stpool(Lw *w)
{
	char pb[32];
	const char *p, *v;

	if (no_guard(w) || !(p = pool(w, 0, 1, pb, sizeof pb)) || !(v = src32(w, 2)))
		return -1;
	lw_emit(w, "MOV %s, %s", p, v);
	return 0;
}

/* waitpool.full|empty ID, OFF[, N] / setpool: DEPBAR / SETBUSYBIT poolID[OFF], N */
static int
pool_busy(Lw *w, const char *sass)
{
	char pb[32];
	const char *m = mode(w), *p;
	int64_t n = 1;

	if (!m[0] || no_guard(w))
		return -1;
	if (w->ins->nopnd == 3 && (n = want_imm(w, 2, 1, 32, "a register count")) < 0)
		return -1;
	if (!(p = pool(w, 0, (int)n, pb, sizeof pb)))
		return -1;
	lw_emit(w, "%s.%s %s, 0x%x", sass, m, p, (unsigned)n);
	return 0;
}

static int sel_waitpool(Lw *w) { return pool_busy(w, "DEPBAR"); }
static int sel_setpool(Lw *w) { return pool_busy(w, "SETBUSYBIT"); }

/* mmapool.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d0..d3}, {a0..a3}, ID, OFF,
 * {c0..c3}: the B fragment (two registers) read straight from the pool:
 * HMMA.16816.F32 %$x, %$xa, poolID[OFF], %$x on quads the operands are moved into */
static int
sel_mmapool(Lw *w)
{
	char pb[32];
	const char *p, *acc, *a;

	if (need_fiber(w))
		return -1;
	if (!lw_has(w, "m16n8k16") || !lw_has(w, "row") || !lw_has(w, "col") ||
	    strcmp(lw_type_n(w, 0), "f32") || strcmp(lw_type_n(w, 1), "f16"))
		return lw_error(w, "mmapool supports m16n8k16.row.col.f32.f16.f16.f32 only");
	for (int k = 0; k < 5; k += (k == 1 ? 3 : 1))
		if (lw_veclen(w, k) != 4)
			return lw_error_opnd(w, k, "operand %d must be a vector of four registers", k);
	if (!(p = pool(w, 2, 2, pb, sizeof pb)))
		return -1;
	acc = lw_newvreg(w, 4);
	a = lw_newvreg(w, 4);
	for (int e = 0; e < 4; e++) {
		lw_emit(w, "MOV %s, %s", lw_elem(w, acc, e), lw_vec(w, 4, e));
		lw_emit(w, "MOV %s, %s", lw_elem(w, a, e), lw_vec(w, 1, e));
	}
	lw_emit(w, "HMMA.16816.F32 %s, %s, %s, %s", acc, a, p, acc);
	for (int e = 0; e < 4; e++)
		lw_emit(w, "MOV %s, %s", lw_vec(w, 0, e), lw_elem(w, acc, e));
	return 0;
}

const SelRow ptxsel_fiber[] = {
	{ "setfibernum", TcAny, sel_setfibernum, "[R2UR UR10, c] SETFIBERNUM c[, n]; the prologue's "
	  "ld.param/cvta/mov %ctaid again" },
	{ "maxfibers", TcAny, sel_maxfibers, ".maxfibers N (header)" },
	{ "stslot", TcAny, sel_stslot, "MOV %$fsS, v" },
	{ "ldslot", TcAny, sel_ldslot, "MOV d, %$fsS@W" },
	{ "waitslot", TcAny, sel_waitslot, "DEPBAR.FULL|EMPTY %$fsS[@W]" },
	{ "setslot", TcAny, sel_setslot, "SETBUSYBIT.FULL|EMPTY %$fsS[@W]" },
	{ "declpool", TcAny, sel_declpool, ".pool poolID,SIZE,SLICE (header)" },
	{ "ldpool", TcAny, sel_ldpool, "MOV d, poolID[OFF]" },
	{ "stpool", TcAny, sel_stpool, "MOV poolID[OFF], v" },
	{ "waitpool", TcAny, sel_waitpool, "DEPBAR.FULL|EMPTY poolID[OFF], N" },
	{ "setpool", TcAny, sel_setpool, "SETBUSYBIT.FULL|EMPTY poolID[OFF], N" },
	{ "mmapool", TcAny, sel_mmapool, "MOV quads; HMMA.16816.F32 x, a, poolID[OFF], x; MOV d" },
	{ NULL, 0, NULL, NULL },
};
