/* ptxsyscall.c: calls of the CUDA system routines a PTX module declares without a body:
 * `call.uni __assertfail, (p0, .., p4)` (a device assert) and `call.uni (retval0), vprintf,
 * (p0, p1)` (device printf), selected as nvcc's SASS does it: the arguments in R4 upwards (a
 * 64-bit one at an even register: __assertfail's R4:R5, R6:R7, R8, R10:R11, R12:R13, vprintf's
 * R4:R5, R6:R7), the routine's address from its .nv.constant4 slot (`.dword <routine>`) by LDC.64
 * into R2:R3, LEPC into the first even pair after the arguments, the return address LEPC + 0x80
 * into R20:R21, CALL.ABS.NOINC R2, and vprintf's int result from R4. The kernel's .nv.info names
 * the routines (EIATTR_EXTERNS) and the CALLs (EIATTR_SYSCALL_OFFSETS, lwinfo.c). regalloc models
 * the CALL's reads of the argument registers and its result (backend/raweb.c, sys_reads).
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <string.h>

/* a system routine as nvcc's PTX declares it and nvcc's SASS calls it */
static const struct SysRoutine {
	const char *name;  /* its PTX name, also its symbol in the listing */
	uint32_t nret;     /* results: 0, or 1 (a .b32, in R4) */
	uint32_t nparam;   /* parameters */
	int bits[5];       /* each parameter's size in bits */
	unsigned lepc;     /* LEPC's register pair: the first even pair after the arguments */
	unsigned tmp;      /* the register of the return offset 0x80: the first one free */
} sys_routine[LW_NSYS] = {
	/* vprintf(const char *format, void *args): printf's packed argument buffer */
	{ "vprintf", 1, 2, { 64, 64 }, 8, 11 },
	/* __assertfail(const char *msg, const char *file, unsigned line, const char *function,
	 * size_t charSize) */
	{ "__assertfail", 0, 5, { 64, 64, 32, 64, 64 }, 14, 9 },
};

const char *
lw_sys_name(unsigned k)
{
	return k < LW_NSYS ? sys_routine[k].name : NULL;
}

/* the routine callee is, with its system signature: its index, else -1 */
static int
sys_find(const Lw *w, const PtxFunc *callee)
{
	for (unsigned s = 0; s < LW_NSYS; s++) {
		const struct SysRoutine *r = &sys_routine[s];
		int ok = !strcmp(ptx_str(w->p, callee->name), r->name) && callee->nret == r->nret &&
		         callee->nparam == r->nparam;
		for (uint32_t k = 0; ok && k < callee->nparam; k++)
			ok = lw_type_bits(ptx_str(w->p, callee->param[k].type)) == r->bits[k] &&
			     !callee->param[k].vec && !callee->param[k].ndim;
		for (uint32_t k = 0; ok && k < callee->nret; k++)
			ok = lw_type_bits(ptx_str(w->p, callee->ret[k].type)) == 32 &&
			     !callee->ret[k].vec && !callee->ret[k].ndim;
		if (ok)
			return (int)s;
	}
	return -1;
}

/* operand x of a call names a .param variable: 1, else 0 */
static int
is_param(const PtxOpnd *x)
{
	return x->kind == PoName && x->what == PwVar && x->decl && x->decl->space == PsParam;
}

/* the arguments: each .param variable's words, from R4; 0, or -1 after a located error */
static int
sys_args(Lw *w, const struct SysRoutine *r, const PtxOpnd *args, int k)
{
	unsigned reg = 4;

	if (!args || args->nsub != r->nparam)
		return lw_error_opnd(w, k, "%s takes %u parameters", r->name, r->nparam);
	for (uint32_t a = 0; a < args->nsub; a++) {
		const PtxOpnd *x = &args->sub[a];
		uint32_t words = (uint32_t)r->bits[a] / 32;
		if (!is_param(x))
			return lw_error_opnd(w, k + 1, "an argument that is not a .param variable");
		reg = (reg + words - 1) / words * words;
		for (uint32_t m = 0; m < words; m++)
			lw_emit(w, "MOV R%u, %s", reg + m, lw_param_word(w, x->decl, m));
		reg += words;
	}
	return 0;
}

int
lw_syscall(Lw *w, const PtxFunc *callee, const PtxOpnd *rets, const PtxOpnd *args, int k)
{
	struct LwPriv *v = w->priv;
	char lab[48];
	int s = sys_find(w, callee);

	if (s < 0)
		return lw_error_opnd(w, k, "a call of '%s', which has no body in this module (of the "
		                     "system routines only vprintf and __assertfail are selected)",
		                     ptx_str(w->p, callee->name));
	const struct SysRoutine *r = &sys_routine[s];
	if ((rets ? rets->nsub : 0) != r->nret || (r->nret && !is_param(&rets->sub[0])))
		return lw_error_opnd(w, 0, "%s returns %u .param result%s", r->name, r->nret,
		                     r->nret == 1 ? "" : "s");
	if (sys_args(w, r, args, k) < 0)
		return -1;
	if (!v->cnt->sys_c4[s])
		v->cnt->sys_c4[s] = ++v->cnt->nc4;
	w->sysused |= 1u << s;
	/* nvcc's sequence: the address by an indexed LDC, then LEPC and the return address, which
	 * is the instruction after the CALL: 8 instructions (0x80 bytes) after the LEPC */
	lw_emit(w, "MOV R2, 0x%x", (unsigned)(v->cnt->sys_c4[s] - 1) * 8);
	lw_emit(w, "LDC.64 R2, c[0x4][R2]");
	lw_emit(w, "LEPC R%u", r->lepc);
	lw_emit(w, "MOV R%u, 0x80", r->tmp);
	lw_emit(w, "MOV R20, 0x0");
	lw_emit(w, "MOV R21, 0x0");
	lw_emit(w, "MOV R0, 0x0");
	lw_emit(w, "IADD3 R20, P0, P1, -R20, R%u, R%u", r->tmp, r->lepc);
	lw_emit(w, "IADD3.X R21, ~R0, R21, R%u, P0, P1", r->lepc + 1);
	snprintf(lab, sizeof lab, ".L_sys%" PRIu32, v->cnt->sys + w->nsys++);
	lw_label_here(w, lab);
	lw_emit(w, "CALL.ABS.NOINC R2");
	if (r->nret)           /* the result: R4 into the .param slot ld.param reads */
		lw_emit(w, "MOV %s, R4", lw_param_word(w, rets->sub[0].decl, 0));
	return 0;
}
