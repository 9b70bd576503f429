/* ptxsyscall.c: calls of the CUDA system routines a PTX module declares without a body. Only
 * `call.uni __assertfail, (p0, .., p4)` (a device assert) is selected, as nvcc's SASS does it:
 * the arguments in R4 upwards (64-bit ones at an even register: R4:R5, R6:R7, R8, R10:R11,
 * R12:R13), the routine's address from a .nv.constant4 slot (`.dword __assertfail`) by LDC.64
 * into R2:R3, the return address LEPC + 0x80 into R20:R21 and CALL.ABS.NOINC R2; the kernel's
 * .nv.info names the routine (EIATTR_EXTERNS) and the CALL (EIATTR_SYSCALL_OFFSETS, lwinfo.c).
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <string.h>

/* __assertfail(const char *msg, const char *file, unsigned line, const char *function,
 * size_t charSize): the parameters' sizes in bits, as nvcc's PTX declares them */
static const int assert_bits[] = { 64, 64, 32, 64, 64 };

/* callee is __assertfail with its system signature: 1, else 0 */
static int
is_assertfail(const Lw *w, const PtxFunc *callee)
{
	if (strcmp(ptx_str(w->p, callee->name), "__assertfail") || callee->nret ||
	    callee->nparam != sizeof assert_bits / sizeof assert_bits[0])
		return 0;
	for (uint32_t k = 0; k < callee->nparam; k++)
		if (lw_type_bits(ptx_str(w->p, callee->param[k].type)) != assert_bits[k] ||
		    callee->param[k].vec || callee->param[k].ndim)
			return 0;
	return 1;
}

int
lw_syscall(Lw *w, const PtxFunc *callee, const PtxOpnd *args, int k)
{
	struct LwPriv *v = w->priv;
	char lab[48];
	unsigned r = 4;

	if (!is_assertfail(w, callee))
		return lw_error_opnd(w, k, "a call of '%s', which has no body in this module (of the "
		                     "system routines only __assertfail is selected)",
		                     ptx_str(w->p, callee->name));
	if (!args || args->nsub != callee->nparam)
		return lw_error_opnd(w, k, "__assertfail takes %u parameters", callee->nparam);
	/* the arguments: each .param variable's words, from R4 */
	for (uint32_t a = 0; a < args->nsub; a++) {
		const PtxOpnd *x = &args->sub[a];
		uint32_t words = (uint32_t)assert_bits[a] / 32;
		if (x->kind != PoName || x->what != PwVar || !x->decl || x->decl->space != PsParam)
			return lw_error_opnd(w, k + 1, "an argument that is not a .param variable");
		r = (r + words - 1) / words * words;
		for (uint32_t m = 0; m < words; m++)
			lw_emit(w, "MOV R%u, %s", r + m, lw_param_word(w, x->decl, m));
		r += words;
	}
	if (!v->cnt->assert_c4)
		v->cnt->assert_c4 = ++v->cnt->nc4;
	/* nvcc's sequence: the address by an indexed LDC, then LEPC and the return address, which
	 * is the instruction after the CALL: 8 instructions (0x80 bytes) after the LEPC */
	lw_emit(w, "MOV R2, 0x%x", (unsigned)(v->cnt->assert_c4 - 1) * 8);
	lw_emit(w, "LDC.64 R2, c[0x4][R2]");
	lw_emit(w, "LEPC R14");
	lw_emit(w, "MOV R9, 0x80");
	lw_emit(w, "MOV R20, 0x0");
	lw_emit(w, "MOV R21, 0x0");
	lw_emit(w, "MOV R0, 0x0");
	lw_emit(w, "IADD3 R20, P0, P1, -R20, R9, R14");
	lw_emit(w, "IADD3.X R21, ~R0, R21, R15, P0, P1");
	snprintf(lab, sizeof lab, ".L_sys%" PRIu32, v->cnt->sys + w->nsys++);
	lw_label_here(w, lab);
	lw_emit(w, "CALL.ABS.NOINC R2");
	return 0;
}
