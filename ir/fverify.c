/* fverify.c: the verifier's FIBER checks (verify_fn calls fverify_fn first).
 *
 * SETFIBERNUM count[, nreg]: count an immediate 1..min(.maxfibers, 8192) or a UR, nreg an
 * immediate 1..255, no guard. SETBUSYBIT.FULL/.EMPTY and DEPBAR.FULL/.EMPTY reg[, n]: no guard,
 * n an immediate 1..32, reg..reg+n-1 inside the window (R: below R255 and the function's
 * register count when known) or the file (V0..V2047). Every V operand names V0..V2047.
 * Each problem is "verifier: ..." at the operand's spelling (else the instruction).
 *
 * Remote writes (docs/fiber-isa.md section 2, docs/pass-remote-writes.md): a V<n> destination is
 * "error: remote write: ..." at the register's spelling. Outside FIBER modes verify.c reports
 * them; in fiberc's FIBER modes (f->plan) they are legal input until the remote-writes pass has
 * run (FPlan.rw_done), which rewrites what it can prove and records why it left the others
 * (FPlan.rw_why, quoted in the message); from then on every one left is an error here.
 * fverify_plan is the FIBER verifier that --verify-each runs after every pass in FIBER modes.
 */
#include "fenc.h"
#include "ir.h"

#include <stdio.h>
#include <string.h>

static int
hasmod(const Fn *f, const Ins *i, const char *m)
{
	for (unsigned k = 0; k < i->nmod; k++)
		if (strcmp(mstr(f->mod, i->mod[k]), m) == 0)
			return 1;
	return 0;
}

/* where text s is spelt in i (a whole word), else the instruction */
static Loc
spell_loc(const Fn *f, const Ins *i, const char *s)
{
	const Src *src = f->mod ? f->mod->src : NULL;
	size_t n = strlen(s);

	if (!src || !src->text || i->loc.end > src->len || !n)
		return i->loc;
	for (uint32_t a = i->loc.start; a + n <= i->loc.end; a++) {
		const char *t = src->text + a;
		if (memcmp(t, s, n) != 0 || (t[n] >= '0' && t[n] <= '9') ||
		    (a > i->loc.start && ((t[-1] >= 'A' && t[-1] <= 'Z') || t[-1] == '_')))
			continue;
		return (Loc){ a, a + (uint32_t)n };
	}
	return i->loc;
}

/* the spelling of operand o for messages and carets: `kv[2]`, `V130`, `R4`, `0x4` */
static const char *
ospell(const Fn *f, const Opnd *o, char *buf, size_t n)
{
	if (o->kind == OReg && (o->flags & FPoolRef))
		snprintf(buf, n, "%s[%s%llx]", mstr(f->mod, o->atom), o->flags & FHex ? "0x" : "",
		         (unsigned long long)o->imm);
	else if (o->kind == OReg)
		reg_name(o->r[0], buf, n);
	else if (o->kind == OImm)
		snprintf(buf, n, (o->flags & FHex) ? "0x%llx" : "%lld", (long long)o->imm);
	else
		snprintf(buf, n, "?");
	if (o->kind == OReg && (o->flags & FPoolRef) && !(o->flags & FHex))
		snprintf(buf, n, "%s[%lld]", mstr(f->mod, o->atom), (long long)o->imm);
	return buf;
}

static int
err(Diag *d, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
err(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	error_at(d, loc, "verifier: %s", buf);
	return 1;
}

/* reg..reg+n-1 of operand o inside the file, or for R below RZ: a window is as large as the
 * register count or the highest R register named plus one (a busy-bit range included), whichever
 * is larger (sim/decode.c Prog.nreg; docs/fiber-isa.md section 2), so an R range past
 * SHI_REGISTERS only makes the window larger */
static int
range(const Fn *f, const Ins *i, const Opnd *o, int64_t n, Diag *d)
{
	char s[64];
	unsigned c = RCLS(o->r[0]), r = RNUM(o->r[0]);
	Loc l = spell_loc(f, i, ospell(f, o, s, sizeof s));

	if (o->kind != OReg || (c != RR && c != RV) || o->r[0] == REG(RR, 255))
		return err(d, l, "'%s' takes a vector register (R, V or a pool operand)",
		           mstr(f->mod, i->name));
	if (c == RV && r + n > FiberFileRegs)
		return err(d, l, "register range %s..+%lld runs past V%d (the SM file is V0..V%d)", s,
		           (long long)n - 1, FiberFileRegs - 1, FiberFileRegs - 1);
	if (c == RR && r + n > 255)
		return err(d, l, "register range %s..+%lld runs past R254 (the window)", s,
		           (long long)n - 1);
	return 0;
}

/* operand o of i, a SETFIBERNUM or busy-bit count, is a float literal (SASS reads a decimal
 * number as a float): the error says how to write it */
static int
decimal(const Fn *f, const Ins *i, const Opnd *o, const char *what, Diag *d)
{
	const char *t = mstr(f->mod, o->atom);
	Loc l = spell_loc(f, i, t);
	double v = o->fimm;

	if (v >= 1 && v < 1e6 && v == (double)(long)v)
		return err(d, l, "%s '%s' is a decimal literal, which SASS reads as the float %g: "
		           "write it in hex (0x%lx)", what, t, v, (long)v);
	return err(d, l, "%s '%s' is a float literal: it must be a hex integer", what, t);
}

/* pool destinations of i lie in the upper half of their slice, where the encoding's pool bit
 * can name them (slice register 256 + Rd: docs/fiber-encoding.md "Pool destinations") */
static int
pool_dst(Fn *f, Ins *i, Diag *d)
{
	char s[64];

	if (!i->slot && i->nopnd && op_slots(f, i) < 0)
		return 0;
	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		const Opnd *o = sl->opnd < i->nopnd ? &i->opnd[sl->opnd] : NULL;
		uint32_t v = RNUM(sl->reg);
		if (sl->kind != SDef || !o || !(o->flags & FPoolRef) || RCLS(sl->reg) != RV ||
		    v % FiberSliceRegs >= FencPoolBase)
			continue;
		return err(d, spell_loc(f, i, ospell(f, o, s, sizeof s)), "pool destination %s is V%u, "
		           "register %u of slice %u: a pool is written only in the upper half of its "
		           "slice (registers %d..%d, which the encoding's pool bit names: "
		           "docs/fiber-encoding.md), so a written pool holds at most %d registers", s, v,
		           v % FiberSliceRegs, v / FiberSliceRegs, FencPoolBase, FiberSliceRegs - 1,
		           FiberSliceRegs - FencPoolBase);
	}
	return 0;
}

static int
ins(Fn *f, Ins *i, Diag *d)
{
	char s[64];
	int e = 0;
	int busy = i->op == OSETBUSYBIT ||
	           (i->op == ODEPBAR && (hasmod(f, i, "FULL") || hasmod(f, i, "EMPTY")));

	for (unsigned k = 0; k < i->nopnd; k++)
		for (int j = 0; j < 3; j++) {
			Reg r = i->opnd[k].r[j];
			if (i->opnd[k].kind != ONone && RCLS(r) == RV && RNUM(r) >= FiberFileRegs) {
				reg_name(r, s, sizeof s);
				e |= err(d, spell_loc(f, i, s), "absolute register %s out of range (V0..V%d)",
				         s, FiberFileRegs - 1);
			}
		}
	if ((i->op == OSETFIBERNUM || busy) && i->guarded)
		e |= err(d, i->loc, "%s%s cannot be predicated (FIBER synchronisation is "
		         "unconditional)", mstr(f->mod, i->name), i->op == ODEPBAR ? " .FULL/.EMPTY" : "");
	if (i->op == OSETFIBERNUM) {
		const Opnd *c = i->nopnd ? &i->opnd[0] : NULL;
		const int *rq = f->info.reqntid;
		/* without .maxfibers the launch's threads are the most; REQNTID fixes them */
		int fixed = rq[0] > 0 && rq[1] > 0 && rq[2] > 0 ? rq[0] * rq[1] * rq[2] : 0;
		int max = f->info.maxfibers > 0 ? f->info.maxfibers : fixed ? fixed : FiberMaxFibers;
		if (c && c->kind == OFImm)
			e |= decimal(f, i, c, "SETFIBERNUM count", d);
		if (i->nopnd == 2 && i->opnd[1].kind == OFImm)
			e |= decimal(f, i, &i->opnd[1], "SETFIBERNUM nreg", d);
		if (c && (c->kind == OFImm || (i->nopnd == 2 && i->opnd[1].kind == OFImm)))
			return e;
		if (!c || i->nopnd > 2 || (c->kind != OImm && !(c->kind == OReg && RCLS(c->r[0]) == RUR)))
			return err(d, i->loc, "SETFIBERNUM takes count[, nreg]: count an immediate or a "
			           "uniform register, nreg an immediate") | e;
		if (c->kind == OImm && (c->imm < 1 || c->imm > max))
			e |= err(d, spell_loc(f, i, ospell(f, c, s, sizeof s)), "SETFIBERNUM count %lld "
			         "out of range (1..%d%s)", (long long)c->imm, max, f->info.maxfibers > 0 ?
			         ", the .maxfibers of the function" : fixed ? ", the threads of its REQNTID "
			         "block: without '.maxfibers N' no more fibers are reserved" :
			         ": 64 contexts x 4 x 32 fibers");
		if (i->nopnd == 2) {
			const Opnd *r = &i->opnd[1];
			if (r->kind != OImm || r->imm < 1 || r->imm > 255)
				e |= err(d, spell_loc(f, i, ospell(f, r, s, sizeof s)), "SETFIBERNUM nreg "
				         "must be an immediate 1..255 (registers of a new weft's window)");
		}
	}
	if (busy) {
		int64_t n = 1;
		if (i->nopnd < 1 || i->nopnd > 2)
			return err(d, i->loc, "%s takes reg[, n]", mstr(f->mod, i->name)) | e;
		if (i->nopnd == 2) {
			const Opnd *c = &i->opnd[1];
			if (c->kind == OFImm)
				return decimal(f, i, c, "the register count", d) | e;
			if (c->kind != OImm || c->imm < 1 || c->imm > 32)
				return err(d, spell_loc(f, i, ospell(f, c, s, sizeof s)), "register count "
				           "must be an immediate 1..32") | e;
			n = c->imm;
		}
		e |= range(f, i, &i->opnd[0], n, d);
	}
	return e | pool_dst(f, i, d);
}

/* why remote-writes left the write at i, or NULL */
static const char *
left_why(const Fn *f, const Ins *i)
{
	const FPlan *p = f->plan;

	for (uint32_t k = 0; p && k + 1 < 2 * p->nrw_why; k += 2)
		if (p->rw_why[k] == i->loc.start)
			return mstr(f->mod, p->rw_why[k + 1]);
	return NULL;
}

/* V destinations of i: "remote write" errors */
static int
remote(Fn *f, Ins *i, Diag *d)
{
	char s[16];
	int e = 0;

	if (!i->slot && i->nopnd && op_slots(f, i) < 0)
		return 0;   /* malformed: op_check's business */
	for (unsigned j = 0; j < i->nslot; j++) {
		const Slot *sl = &i->slot[j];
		const char *why;
		if (sl->kind != SDef || RCLS(sl->reg) != RV)
			continue;
		if (sl->opnd < i->nopnd && (i->opnd[sl->opnd].flags & FPoolRef))
			continue;  /* a pool destination: local to its slice (remote-writes checks it) */
		reg_name(sl->reg, s, sizeof s);
		why = left_why(f, i);
		error_at(d, spell_loc(f, i, s), "remote write: '%s' is a destination, but a weft may "
		         "write only its window (R) or a pool of its own slice; %s%s", s,
		         why ? "remote-writes left it: " : "rewrite it as a local write plus a remote "
		         "read (the remote-writes pass)", why ? why : "");
		e++;
	}
	return e;
}

static int
each(Fn *f, Diag *d, int (*fn)(Fn *, Ins *, Diag *))
{
	int nerr = 0;
	uint32_t nb = f->blk ? f->nblk : 1;

	if (!f->mod)
		return 0;
	for (uint32_t b = 0; b < nb; b++) {
		Ins *is = f->blk ? f->blk[b]->ins : f->ins;
		uint32_t n = f->blk ? f->blk[b]->nins : f->nins;
		for (uint32_t k = 0; k < n; k++)
			nerr += fn(f, &is[k], d);
	}
	return nerr;
}

static int
ins_checks(Fn *f, Ins *i, Diag *d)
{
	return ins(f, i, d);
}

int
fverify_remote(Fn *f, Diag *d)
{
	return each(f, d, remote);
}

int
fverify_fn(Fn *f, Diag *d)
{
	int nerr = each(f, d, ins_checks);

	if (f->plan && f->plan->rw_done)
		nerr += fverify_remote(f, d);
	return nerr;
}

int
fverify_plan(Fn *f, Diag *d)
{
	if (!f->plan)
		return 0;
	return fverify_fn(f, d) ? -1 : 0;
}
