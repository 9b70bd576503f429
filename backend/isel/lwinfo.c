/* lwinfo.c: the kernel metadata of a lowered function, in the .nv.info attributes fibersim reads
 * (frontend/sass/nvinfo.c): the module-wide EIATTR_REGCOUNT (0 here: regalloc writes it),
 * FRAME_SIZE and MIN_STACK_SIZE of every function, and per kernel its .nv.info.<fn>: the CUDA API
 * version, the parameter bank and each parameter, .maxnreg, the system routine and its CALLs
 * (EIATTR_EXTERNS, EIATTR_SYSCALL_OFFSETS: vprintf, __assertfail), the EXIT offsets (labels),
 * .maxntid and .reqntid.
 */
#include "lwpriv.h"

#include <inttypes.h>
#include <string.h>

static void
attr_head(LwBuf *b, const char *name)
{
	lw_buf_printf(b, "\n\n\t//----- nvinfo : %s\n\t.align\t\t4\n", name);
}

/* an attribute with a payload of words (format 4): `.byte 0x04, ATTR` `.short (.L_b - .L_a)` */
static void
attr_words(LwCount *c, LwBuf *b, const char *name, int attr, const char *const *words, unsigned n)
{
	uint32_t a = c->info++, e = c->info++;

	attr_head(b, name);
	lw_buf_printf(b, "\t.byte\t0x04, 0x%02x\n\t.short\t(.L_i%" PRIu32 " - .L_i%" PRIu32 ")\n", attr, e, a);
	lw_buf_printf(b, ".L_i%" PRIu32 ":\n", a);
	for (unsigned k = 0; k < n; k++)
		lw_buf_printf(b, "\t%s\n", words[k]);
	lw_buf_printf(b, ".L_i%" PRIu32 ":\n", e);
}

static void
attr_half(LwBuf *b, const char *name, int attr, unsigned v)
{
	attr_head(b, name);
	lw_buf_printf(b, "\t.byte\t0x03, 0x%02x\n\t.short\t0x%04x\n", attr, v);
}

void
lw_global_info(Lw *w, LwBuf *b, const char *fn)
{
	LwCount *c = w->priv->cnt;
	char w0[160], w1[64];
	const char *ws[2] = { w0, w1 };

	snprintf(w0, sizeof w0, ".word\tindex@(%s)", fn);
	snprintf(w1, sizeof w1, ".word\t0x00000000");
	attr_words(c, b, "EIATTR_REGCOUNT", 0x2f, ws, 2);
	snprintf(w1, sizeof w1, ".word\t0x%08x", (unsigned)w->frame_size);
	attr_words(c, b, "EIATTR_FRAME_SIZE", 0x11, ws, 2);
	snprintf(w1, sizeof w1, ".word\t0x00000000");
	attr_words(c, b, "EIATTR_MIN_STACK_SIZE", 0x12, ws, 2);
}

void
lw_kernel_info(Lw *w, LwBuf *b, const char *fn)
{
	struct LwPriv *v = w->priv;
	LwCount *c = v->cnt;
	char t0[160], t1[64], t2[64], t3[64];
	const char *ws[4] = { t0, t1, t2, t3 };

	lw_buf_printf(b, "\n\n//--------------------- .nv.info.%s --------------------------\n"
	           "\t.section\t.nv.info.%s,\"\",@\"SHT_CUDA_INFO\"\n\t.sectionflags\t@\"\"\n"
	           "\t.align\t4\n", fn, fn);
	snprintf(t0, sizeof t0, ".word\t0x00000082");
	attr_words(c, b, "EIATTR_CUDA_API_VERSION", 0x37, ws, 1);
	snprintf(t0, sizeof t0, ".word\tindex@(.nv.constant0.%s)", fn);
	snprintf(t1, sizeof t1, ".short\t0x%04x", (unsigned)w->param_base);
	snprintf(t2, sizeof t2, ".short\t0x%04x", (unsigned)v->param_size);
	attr_words(c, b, "EIATTR_PARAM_CBANK", 0x0a, ws, 3);
	attr_half(b, "EIATTR_CBANK_PARAM_SIZE", 0x19, v->param_size);
	for (uint32_t k = v->nparam; k-- > 0;) {
		snprintf(t0, sizeof t0, ".word\t0x00000000");
		snprintf(t1, sizeof t1, ".short\t0x%04x", (unsigned)k);
		snprintf(t2, sizeof t2, ".short\t0x%04x", (unsigned)v->param[k].off);
		snprintf(t3, sizeof t3, ".word\t0x%08x", 0x1f000u | (v->param[k].size & 0x3fff) << 18);
		attr_words(c, b, "EIATTR_KPARAM_INFO", 0x17, ws, 4);
	}
	unsigned maxreg = 0xff;
	for (uint32_t k = 0; k < w->fn->nattr; k++)
		if (!strcmp(ptx_str(w->p, w->fn->attr[k].name), ".maxnreg") && w->fn->attr[k].nval &&
		    w->fn->attr[k].val[0] < 0xff)
			maxreg = w->fn->attr[k].val[0];
	attr_half(b, "EIATTR_MAXREG_COUNT", 0x1b, maxreg);
	if (w->nsys) {          /* a system call (ptxsyscall.c): the routine and each CALL */
		char *tw[4] = { t0, t1, t2, t3 };
		unsigned n = 0;      /* the routines called, in nvcc's order (vprintf first) */
		for (unsigned s = 0; s < LW_NSYS && n < 4; s++)
			if (w->sysused >> s & 1)
				snprintf(tw[n++], sizeof t1, ".word\tindex@(%s)", lw_sys_name(s));
		attr_words(c, b, "EIATTR_EXTERNS", 0x0f, ws, n);
		uint32_t a = c->info++, e = c->info++;
		attr_head(b, "EIATTR_SYSCALL_OFFSETS");
		lw_buf_printf(b, "\t.byte\t0x04, 0x46\n\t.short\t(.L_i%" PRIu32 " - .L_i%" PRIu32 ")\n.L_i%" PRIu32 ":\n",
		           e, a, a);
		for (uint32_t k = 0; k < w->nsys; k++)
			lw_buf_printf(b, "\t.word\t.L_sys%" PRIu32 "@srel\n", c->sys + k);
		lw_buf_printf(b, ".L_i%" PRIu32 ":\n", e);
	}
	if (w->nexit) {
		uint32_t a = c->info++, e = c->info++;
		attr_head(b, "EIATTR_EXIT_INSTR_OFFSETS");
		lw_buf_printf(b, "\t.byte\t0x04, 0x1c\n\t.short\t(.L_i%" PRIu32 " - .L_i%" PRIu32 ")\n.L_i%" PRIu32 ":\n",
		           e, a, a);
		for (uint32_t k = 0; k < w->nexit; k++)
			lw_buf_printf(b, "\t.word\t.L_exit%" PRIu32 "@srel\n", w->exit0 + k);
		lw_buf_printf(b, ".L_i%" PRIu32 ":\n", e);
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
		attr_words(c, b, attr == 5 ? "EIATTR_MAX_THREADS" : "EIATTR_REQNTID", attr, ws, 3);
	}
}
