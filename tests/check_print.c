/* check_print.c: the printer (ir/print.c, ir/fmt.c). A parsed listing prints back exactly as
 * nvdisasm wrote it (the embedded listing is nvdisasm's output for saxpy on sm_90, debug sections
 * and the `....[0]....` comments taken out); printing is a fixed point; blanks in the input do
 * not matter; IR text (SSA annotations, phis, blocks) reads back to the same IR.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "passes.h"

static const char listing[] =
	"\t.target\tsm_90\n"
	"\n"
	"\t.elftype\t@\"ET_EXEC\"\n"
	"\n"
	"\n"
	"//--------------------- .nv.info                  --------------------------\n"
	"\t.section\t.nv.info,\"\",@\"SHT_CUDA_INFO\"\n"
	"\t.align\t4\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_REGCOUNT\n"
	"\t.align\t\t4\n"
	"        /*0000*/ \t.byte\t0x04, 0x2f\n"
	"        /*0002*/ \t.short\t(.L_1 - .L_0)\n"
	"\t.align\t\t4\n"
	".L_0:\n"
	"        /*0004*/ \t.word\tindex@(_Z5saxpyfPKfPfi)\n"
	"        /*0008*/ \t.word\t0x0000000a\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_FRAME_SIZE\n"
	"\t.align\t\t4\n"
	".L_1:\n"
	"        /*000c*/ \t.byte\t0x04, 0x11\n"
	"        /*000e*/ \t.short\t(.L_3 - .L_2)\n"
	"\t.align\t\t4\n"
	".L_2:\n"
	"        /*0010*/ \t.word\tindex@(_Z5saxpyfPKfPfi)\n"
	"        /*0014*/ \t.word\t0x00000000\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_MIN_STACK_SIZE\n"
	"\t.align\t\t4\n"
	".L_3:\n"
	"        /*0018*/ \t.byte\t0x04, 0x12\n"
	"        /*001a*/ \t.short\t(.L_5 - .L_4)\n"
	"\t.align\t\t4\n"
	".L_4:\n"
	"        /*001c*/ \t.word\tindex@(_Z5saxpyfPKfPfi)\n"
	"        /*0020*/ \t.word\t0x00000000\n"
	".L_5:\n"
	"\n"
	"\n"
	"//--------------------- .nv.info._Z5saxpyfPKfPfi  --------------------------\n"
	"\t.section\t.nv.info._Z5saxpyfPKfPfi,\"\",@\"SHT_CUDA_INFO\"\n"
	"\t.sectionflags\t@\"\"\n"
	"\t.align\t4\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_CUDA_API_VERSION\n"
	"\t.align\t\t4\n"
	"        /*0000*/ \t.byte\t0x04, 0x37\n"
	"        /*0002*/ \t.short\t(.L_7 - .L_6)\n"
	".L_6:\n"
	"        /*0004*/ \t.word\t0x00000082\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"\t.align\t\t4\n"
	".L_7:\n"
	"        /*0008*/ \t.byte\t0x04, 0x17\n"
	"        /*000a*/ \t.short\t(.L_9 - .L_8)\n"
	".L_8:\n"
	"        /*000c*/ \t.word\t0x00000000\n"
	"        /*0010*/ \t.short\t0x0003\n"
	"        /*0012*/ \t.short\t0x0018\n"
	"        /*0014*/ \t.byte\t0x00, 0xf0, 0x11, 0x00\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"\t.align\t\t4\n"
	".L_9:\n"
	"        /*0018*/ \t.byte\t0x04, 0x17\n"
	"        /*001a*/ \t.short\t(.L_11 - .L_10)\n"
	".L_10:\n"
	"        /*001c*/ \t.word\t0x00000000\n"
	"        /*0020*/ \t.short\t0x0002\n"
	"        /*0022*/ \t.short\t0x0010\n"
	"        /*0024*/ \t.byte\t0x00, 0xf0, 0x21, 0x00\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"\t.align\t\t4\n"
	".L_11:\n"
	"        /*0028*/ \t.byte\t0x04, 0x17\n"
	"        /*002a*/ \t.short\t(.L_13 - .L_12)\n"
	".L_12:\n"
	"        /*002c*/ \t.word\t0x00000000\n"
	"        /*0030*/ \t.short\t0x0001\n"
	"        /*0032*/ \t.short\t0x0008\n"
	"        /*0034*/ \t.byte\t0x00, 0xf0, 0x21, 0x00\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_KPARAM_INFO\n"
	"\t.align\t\t4\n"
	".L_13:\n"
	"        /*0038*/ \t.byte\t0x04, 0x17\n"
	"        /*003a*/ \t.short\t(.L_15 - .L_14)\n"
	".L_14:\n"
	"        /*003c*/ \t.word\t0x00000000\n"
	"        /*0040*/ \t.short\t0x0000\n"
	"        /*0042*/ \t.short\t0x0000\n"
	"        /*0044*/ \t.byte\t0x00, 0xf0, 0x11, 0x00\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_SPARSE_MMA_MASK\n"
	"\t.align\t\t4\n"
	".L_15:\n"
	"        /*0048*/ \t.byte\t0x03, 0x50\n"
	"        /*004a*/ \t.short\t0x0000\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_MAXREG_COUNT\n"
	"\t.align\t\t4\n"
	"        /*004c*/ \t.byte\t0x03, 0x1b\n"
	"        /*004e*/ \t.short\t0x00ff\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_UNKNOWN\n"
	"\t.align\t\t4\n"
	"        /*0050*/ \t.byte\t0x03, 0x5f\n"
	"        /*0052*/ \t.short\t0x0101\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_EXIT_INSTR_OFFSETS\n"
	"\t.align\t\t4\n"
	"        /*0054*/ \t.byte\t0x04, 0x1c\n"
	"        /*0056*/ \t.short\t(.L_17 - .L_16)\n"
	".L_16:\n"
	"        /*0058*/ \t.word\t.L_x_1@srel\n"
	"        /*005c*/ \t.word\t.L_x_2@srel\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_CBANK_PARAM_SIZE\n"
	"\t.align\t\t4\n"
	".L_17:\n"
	"        /*0060*/ \t.byte\t0x03, 0x19\n"
	"        /*0062*/ \t.short\t0x001c\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_PARAM_CBANK\n"
	"\t.align\t\t4\n"
	"        /*0064*/ \t.byte\t0x04, 0x0a\n"
	"        /*0066*/ \t.short\t(.L_19 - .L_18)\n"
	"\t.align\t\t4\n"
	".L_18:\n"
	"        /*0068*/ \t.word\tindex@(.nv.constant0._Z5saxpyfPKfPfi)\n"
	"        /*006c*/ \t.short\t0x0210\n"
	"        /*006e*/ \t.short\t0x001c\n"
	"\n"
	"\n"
	"\t//----- nvinfo : EIATTR_UNKNOWN\n"
	"\t.align\t\t4\n"
	".L_19:\n"
	"        /*0070*/ \t.byte\t0x04, 0x36\n"
	"        /*0072*/ \t.short\t(.L_21 - .L_20)\n"
	".L_20:\n"
	"        /*0074*/ \t.word\t0x00000008\n"
	".L_21:\n"
	"\n"
	"\n"
	"//--------------------- .text._Z5saxpyfPKfPfi     --------------------------\n"
	"\t.section\t.text._Z5saxpyfPKfPfi,\"ax\",@progbits\n"
	"\t.align\t128\n"
	"        .global         _Z5saxpyfPKfPfi\n"
	"        .type           _Z5saxpyfPKfPfi,@function\n"
	"        .size           _Z5saxpyfPKfPfi,(.L_x_3 - _Z5saxpyfPKfPfi)\n"
	"        .other          _Z5saxpyfPKfPfi,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
	"_Z5saxpyfPKfPfi:\n"
	".text._Z5saxpyfPKfPfi:\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;              /* 0x00000a00ff017b82 */\n"
	"                                                                       /* 0x000fe20000000800 */\n"
	"        /*0010*/                   S2R R0, SR_TID.X ;                  /* 0x0000000000007919 */\n"
	"                                                                       /* 0x000e2e0000002100 */\n"
	"        /*0020*/                   S2UR UR4, SR_CTAID.X ;              /* 0x00000000000479c3 */\n"
	"                                                                       /* 0x000e300000002500 */\n"
	"        /*0030*/                   LDC R7, c[0x0][RZ] ;                /* 0x00000000ff077b82 */\n"
	"                                                                       /* 0x000e240000000800 */\n"
	"        /*0040*/                   IMAD R7, R7, UR4, R0 ;              /* 0x0000000407077c24 */\n"
	"                                                                       /* 0x001fe2000f8e0200 */\n"
	"        /*0050*/                   ULDC UR4, c[0x0][0x228] ;           /* 0x00008a0000047ab9 */\n"
	"                                                                       /* 0x000fc80000000800 */\n"
	"        /*0060*/                   ISETP.GE.AND P0, PT, R7, UR4, PT ;  /* 0x0000000407007c0c */\n"
	"                                                                       /* 0x000fda000bf06270 */\n"
	".L_x_1:\n"
	"        /*0070*/               @P0 EXIT ;                              /* 0x000000000000094d */\n"
	"                                                                       /* 0x000fea0003800000 */\n"
	"        /*0080*/                   LDC.64 R2, c[0x0][0x218] ;          /* 0x00008600ff027b82 */\n"
	"                                                                       /* 0x000e220000000a00 */\n"
	"        /*0090*/                   ULDC.64 UR4, c[0x0][0x208] ;        /* 0x0000820000047ab9 */\n"
	"                                                                       /* 0x000fe20000000a00 */\n"
	"        /*00a0*/                   ULDC UR6, c[0x0][0x210] ;           /* 0x0000840000067ab9 */\n"
	"                                                                       /* 0x000fcc0000000800 */\n"
	"        /*00b0*/                   LDC.64 R4, c[0x0][0x220] ;          /* 0x00008800ff047b82 */\n"
	"                                                                       /* 0x000e620000000a00 */\n"
	"        /*00c0*/                   IMAD.WIDE R2, R7, 0x4, R2 ;         /* 0x0000000407027825 */\n"
	"                                                                       /* 0x001fcc00078e0202 */\n"
	"        /*00d0*/                   LDG.E R2, desc[UR4][R2.64] ;        /* 0x0000000402027981 */\n"
	"                                                                       /* 0x000ea2000c1e1900 */\n"
	"        /*00e0*/                   IMAD.WIDE R4, R7, 0x4, R4 ;         /* 0x0000000407047825 */\n"
	"                                                                       /* 0x002fca00078e0204 */\n"
	"        /*00f0*/                   LDG.E R7, desc[UR4][R4.64] ;        /* 0x0000000404077981 */\n"
	"                                                                       /* 0x000ea4000c1e1900 */\n"
	"        /*0100*/                   FFMA R7, R2, UR6, R7 ;              /* 0x0000000602077c23 */\n"
	"                                                                       /* 0x004fca0008000007 */\n"
	"        /*0110*/                   STG.E desc[UR4][R4.64], R7 ;        /* 0x0000000704007986 */\n"
	"                                                                       /* 0x000fe2000c101904 */\n"
	".L_x_2:\n"
	"        /*0120*/                   EXIT ;                              /* 0x000000000000794d */\n"
	"                                                                       /* 0x000fea0003800000 */\n"
	".L_x_0:\n"
	"        /*0130*/                   BRA `(.L_x_0);                      /* 0xfffffffc00fc7947 */\n"
	"                                                                       /* 0x000fc0000383ffff */\n"
	"        /*0140*/                   NOP;                                /* 0x0000000000007918 */\n"
	"                                                                       /* 0x000fc00000000000 */\n"
	"        /*0150*/                   NOP;                                /* 0x0000000000007918 */\n"
	"                                                                       /* 0x000fc00000000000 */\n"
	".L_x_3:\n"
	"\n"
	"\n"
	"//--------------------- .nv.shared.reserved.0     --------------------------\n"
	"\t.section\t.nv.shared.reserved.0,\"aw\",@nobits\n"
	"\t.weak\t\t__nv_reservedSMEM_offset_0_alias\n"
	"\t.size\t\t__nv_reservedSMEM_offset_0_alias, 0, 0\n"
	"\t.other\t\t__nv_reservedSMEM_offset_0_alias,@\"STO_CUDA_RESERVED_SHARED STV_DEFAULT\"\n"
	"__nv_reservedSMEM_offset_0_alias:\n"
	"\t.zero\t\t0\n"
	"\n"
	"\n"
	"//--------------------- .nv.constant0._Z5saxpyfPKfPfi --------------------------\n"
	"\t.section\t.nv.constant0._Z5saxpyfPKfPfi,\"a\",@progbits\n"
	"\t.sectionflags\t@\"\"\n"
	"\t.align\t4\n"
	".nv.constant0._Z5saxpyfPKfPfi:\n"
	"\t.zero\t\t556\n"
	"\n"
	"\n"
	"//--------------------- SYMBOLS --------------------------\n"
	"\n"
	"\t.type\t\t.nv.reservedSmem.offset0,@object\n"
	"\t.size\t\t.nv.reservedSmem.offset0,0x4\n";

static Module *
parse(const char *text, size_t len, Src **src)
{
	Diag d;

	*src = src_new("t.sass", text, len);
	diag_init(&d, *src, stderr);
	return sass_parse(*src, &d);
}

static char *
print(Module *m, int mode, const char *only)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	print_module(f, m, mode, only);
	fclose(f);
	return buf;
}

/* parse, print, free; the text printed */
static char *
reprint(const char *text, int mode)
{
	Src *src;
	Module *m = parse(text, strlen(text), &src);
	char *out;

	ck_assert_ptr_nonnull(m);
	out = print(m, mode, NULL);
	module_free(m);
	src_free(src);
	return out;
}

START_TEST(test_print_exact)
{
	char *out = reprint(listing, PrintSass);

	ck_assert_str_eq(out, listing);
	free(out);
}
END_TEST

START_TEST(test_print_fixpoint)
{
	char *a = reprint(listing, PrintSass), *b = reprint(a, PrintSass);

	ck_assert_str_eq(a, b);
	free(a);
	free(b);
}
END_TEST

/* the same listing with every run of blanks made one space and no offset comments prints
 * back in nvdisasm's layout */
START_TEST(test_print_blanks_do_not_matter)
{
	size_t n = strlen(listing);
	char *squeezed = malloc(n + 1), *out;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if ((listing[i] == ' ' || listing[i] == '\t') && k && (squeezed[k - 1] == ' '))
			continue;
		squeezed[k++] = listing[i] == '\t' ? ' ' : listing[i];
	}
	squeezed[k] = 0;
	out = reprint(squeezed, PrintSass);
	ck_assert_str_eq(out, listing);
	free(out);
	free(squeezed);
}
END_TEST

START_TEST(test_print_only_fn)
{
	Src *src;
	Module *m = parse(listing, strlen(listing), &src);
	char *out = print(m, PrintSass, "_Z5saxpyfPKfPfi"), *none = print(m, PrintSass, "nosuch");

	ck_assert_ptr_nonnull(strstr(out, "\t.section\t.text._Z5saxpyfPKfPfi,\"ax\",@progbits\n"));
	ck_assert_ptr_null(strstr(out, ".nv.info"));
	ck_assert_ptr_nonnull(strstr(out, "EXIT ;"));
	ck_assert_ptr_null(strstr(none, "EXIT"));
	free(out);
	free(none);
	module_free(m);
	src_free(src);
}
END_TEST

/* the module lifted to SSA, printed as IR, read back: the same IR, and the same SASS */
static int
lift(Module *m, int fromtext)
{
	Diag d;

	diag_init(&d, m->src, stderr);
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		if (cfg_build(f, &d) < 0)
			return -1;
		dom_build(f);
		for (uint32_t j = 0; j < f->nins; j++)
			if (op_slots(f, &f->ins[j]) < 0)
				return -1;
		if ((fromtext ? sass_apply_ssa(f, &d) : ssa_build(f, &d)) < 0)
			return -1;
	}
	return 0;
}

START_TEST(test_print_ir_roundtrip)
{
	Src *s1, *s2;
	Module *m1 = parse(listing, strlen(listing), &s1), *m2;
	char *ir1, *ir2, *sass;

	ck_assert_int_eq(lift(m1, 0), 0);
	ir1 = print(m1, PrintIr, NULL);
	ck_assert_str_eq(strstr(ir1, "// fiber IR\n") == ir1 ? "ok" : ir1, "ok");
	ck_assert_ptr_nonnull(strstr(ir1, "// bb0: entry\n"));
	ck_assert_ptr_nonnull(strstr(ir1, "R1<1>, c[0x0][0x28] ;"));
	m2 = parse(ir1, strlen(ir1), &s2);
	ck_assert_ptr_nonnull(m2);
	ck_assert_int_eq(m2->has_ssa, 1);
	ck_assert_int_eq(lift(m2, 1), 0);
	ck_assert_int_eq(m2->fn[0]->in_ssa, 1);
	ir2 = print(m2, PrintIr, NULL);
	ck_assert_str_eq(ir2, ir1);
	sass = print(m2, PrintSass, NULL);
	ck_assert_str_eq(sass, listing);
	free(ir1);
	free(ir2);
	free(sass);
	module_free(m1);
	module_free(m2);
	src_free(s1);
	src_free(s2);
}
END_TEST

/* IR text of what the examples do not hold: an operand both read and written (`BMOV.CLEAR`,
 * whose value read is the pseudo-operand use()), code that nothing reaches (version 0 everywhere,
 * defined twice), a branch-target list, and an HGMMA whose 64 accumulators overflow a table
 * sized by the number of annotations */
START_TEST(test_print_ir_roundtrip_corner)
{
	static const char text[] =
		"\t.section\t.text.k,\"ax\",@progbits\n"
		"k:\n"
		"        /*0000*/                   BMOV.32.CLEAR R17, B6 ;\n"
		"        /*0010*/                   BMOV.32 B6, R17 ;\n"
		"        /*0020*/                   HGMMA.64x128x16.F32 R24, gdesc[UR8].tnspB, RZ, !UPT, gsb0 ;\n"
		"        /*0030*/                   BRX R6 -0x40 (*\"BRANCH_TARGETS .L_x_1\"*);\n"
		".L_x_1:\n"
		"        /*0040*/                   EXIT ;\n"
		"        /*0050*/                   IADD3 R4, R4, 0x1, RZ ;\n"
		"        /*0060*/                   EXIT ;\n"
		"        /*0070*/                   IADD3 R4, R4, 0x1, RZ ;\n"
		"        /*0080*/                   EXIT ;\n";
	Src *s1, *s2;
	Module *m1 = parse(text, strlen(text), &s1), *m2;
	char *ir1, *ir2;

	ck_assert_ptr_nonnull(m1);
	ck_assert_int_eq(lift(m1, 0), 0);
	ir1 = print(m1, PrintIr, NULL);
	ck_assert_ptr_nonnull(strstr(ir1, "BMOV.32.CLEAR R17<1>, B6<1> use(B6<0>) ;"));
	ck_assert_ptr_nonnull(strstr(ir1, "IADD3 R4<0>, R4<0>, 0x1, RZ ;"));
	ck_assert_ptr_nonnull(strstr(ir1, " (*\"BRANCH_TARGETS .L_x_1\"*);"));
	m2 = parse(ir1, strlen(ir1), &s2);
	ck_assert_ptr_nonnull(m2);
	ck_assert_int_eq(lift(m2, 1), 0);
	ir2 = print(m2, PrintIr, NULL);
	ck_assert_str_eq(ir2, ir1);
	free(ir1);
	free(ir2);
	module_free(m1);
	module_free(m2);
	src_free(s1);
	src_free(s2);
}
END_TEST

/* an instruction line longer than the printer's 64 KiB buffer is written in pieces */
START_TEST(test_print_long_line)
{
	enum { N = 70000 };
	static const char head[] = "\t.section\t.text.k,\"ax\",@progbits\nk:\n"
	                           "        /*0000*/                   MOV R1, ";
	static const char tail[] = " ;  /* 0x0000000000000000 */\n"
	                           "                            /* 0x000fe20000000f00 */\n"
	                           "        /*0010*/                   EXIT ;  /* 0x000000000000794d */\n"
	                           "                            /* 0x000fea0003800000 */\n";
	char *text = malloc(sizeof head + N + sizeof tail), *out, *again;
	Src *s1, *s2;
	Module *m1, *m2;

	memcpy(text, head, sizeof head - 1);
	memset(text + sizeof head - 1, 'A', N);
	memcpy(text + sizeof head - 1 + N, tail, sizeof tail);
	m1 = parse(text, strlen(text), &s1);
	ck_assert_ptr_nonnull(m1);
	out = print(m1, PrintSass, NULL);
	ck_assert_ptr_nonnull(strstr(out, "MOV R1, AAAA"));
	ck_assert_ptr_nonnull(strstr(out, "AAAA ;"));
	ck_assert_ptr_nonnull(strstr(out, "/* 0x000fe20000000f00 */\n        /*0010*/"));
	m2 = parse(out, strlen(out), &s2);
	ck_assert_ptr_nonnull(m2);
	again = print(m2, PrintSass, NULL);
	ck_assert_str_eq(again, out);
	free(text);
	free(out);
	free(again);
	module_free(m1);
	module_free(m2);
	src_free(s1);
	src_free(s2);
}
END_TEST

static const struct {
	const char *ins;   /* as read */
	const char *out;   /* as fmt_ins prints it (without SSA) */
} fmts[] = {
	{ "@!P0 IMAD.WIDE.U32 R2, R7.reuse, 0x4, R2 ;", NULL },
	{ "@!UPT UIADD3 UR4, UP0, UR4, -0x1, URZ ;", NULL },
	{ "LDG.E.128.CONSTANT R4, desc[UR4][R2.64+0x10] ;", NULL },
	{ "STL [R1+-0x4], R0 ;", NULL },
	{ "LDS R0, [R0.X4+UR4+0x100] ;", NULL },
	{ "LDC R1, cx[UR4][R0+0x8] ;", NULL },
	{ "FSETP.GTU.FTZ.AND P0, PT, |R18|.reuse, +INF , PT ;", NULL },
	{ "MUFU.RSQ R0, -QNAN  ;", NULL },
	{ "FADD R0, -|R2|, 1.4426950216293334961 ;", NULL },
	{ "HADD2 R0, R4.reuse.H0_H0, -R2.H1 ;", NULL },
	{ "HGMMA.64x16x16.F32 R24, gdesc[UR4], RZ, !UPT, gsb0 ;", NULL },
	{ "DEPBAR {5,4} ;", NULL },
	{ "DEPBAR.LE SB0, 0x1 ;", NULL },
	{ "BRA `(k);", NULL },
	{ "RET.REL.NODEC R10 `(k) ;", NULL },
	{ "S2R R6, SR_TID.X ;", NULL },
	{ "LOP3.LUT R0, RZ, ~R2, RZ, 0x33, !PT ;", NULL },
	{ "FSEL R0, R0, -INF , !P2 ;", NULL },
	{ "MOV   R1 ,  c[ 0x0 ][ 0x28 ]  ;", "MOV R1, c[0x0][0x28] ;" },
	{ "LDS R0, [R2-0x8] ;", NULL },
	{ "HSETP2.GEU.AND P1, PT, |R20|.reuse.H0_H0, 8.5e-06, 8.5e-06, PT ;", NULL },
	{ "HSETP2.GT.AND P0, PT, |R20|.H0_H0, RZ.H0_H0, PT ;", NULL },
	{ "HSETP2.GT.AND P0, PT, |R20.H1_H1|, |R2.reuse|, PT ;", NULL },
	{ "HGMMA.64x32x16.F16 R88, gdesc[UR8].tnspB, R88, gsb0 ;", NULL },
	{ "HGMMA.64x16x16.F32.BF16 R24, R32, gdesc[UR8].tnspA, R24, gsb0 ;", NULL },
	{ "UMOV UR5, `(.nv.unified.texrefDescSize) ;", NULL },
	{ "BRX R6 -0x150 (*\"BRANCH_TARGETS k,k\"*);", NULL },
	{ "BRX R6 -0x150 (*\"BRANCH_TARGETS k\"*) ;", NULL },
};

START_TEST(test_print_fmt_ins)
{
	char text[512], buf[256], small[8];
	Src *src;
	Module *m;
	const char *want = fmts[_i].out ? fmts[_i].out : fmts[_i].ins;
	int n;

	snprintf(text, sizeof text, "\t.section\t.text.k,\"ax\",@progbits\nk:\n %s\n", fmts[_i].ins);
	m = parse(text, strlen(text), &src);
	ck_assert_ptr_nonnull(m);
	n = fmt_ins(buf, sizeof buf, m->fn[0], &m->fn[0]->ins[0], 0);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(n, (int)strlen(want));
	/* like snprintf: cut, NUL-terminated, the full length returned */
	ck_assert_int_eq(fmt_ins(small, sizeof small, m->fn[0], &m->fn[0]->ins[0], 0), n);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
	module_free(m);
	src_free(src);
}
END_TEST

/* a listing larger than the scanner's 64 KiB blocks: tokens, blank runs and encoding comments
 * cut by a block boundary read the same */
START_TEST(test_print_large)
{
	static const char *const body[] = {
		"IMAD.WIDE.U32 R2, R7.reuse, 0x4, c[0x0][0x160] ;",
		"@!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64+-0x10] ;",
		"FSEL R0, R0, -INF , !P2 ;",
		"@P1 BRA `(.L_x_%d) ;",
	};
	size_t cap = 1 << 21, len = 0;
	char *text = malloc(cap), line[160], *out, *out2;
	int n = 4000;

	len += (size_t)snprintf(text + len, cap - len,
	                        "\n\n//--------------------- .text.k                   --------------------------\n"
	                        "\t.section\t.text.k,\"ax\",@progbits\nk:\n");
	for (int k = 0; k < n; k++) {
		int w;
		if (k % 7 == 0)
			len += (size_t)snprintf(text + len, cap - len, ".L_x_%d:\n", k / 7);
		snprintf(line, sizeof line, body[k % 4], k / 7);
		w = k % 4 == 1 ? 0 : 5;
		len += (size_t)snprintf(text + len, cap - len,
		                        "        /*%04x*/ %*s%*s%-57s  /* 0x%016llx */\n%*s/* 0x%016llx */\n",
		                        16 * k, 18 - w, "", w ? 0 : 0, "", line,
		                        (unsigned long long)k * 0x9e3779b97f4a7c15ull, 94, "",
		                        (unsigned long long)k);
	}
	ck_assert_uint_lt(len, cap);
	out = reprint(text, PrintSass);
	/* the same words in the same order, blanks aside; then a fixed point */
	{
		const char *a = text, *b = out;
		while (*a || *b) {
			while (*a == ' ' || *a == '\t')
				a++;
			while (*b == ' ' || *b == '\t')
				b++;
			ck_assert_msg(*a == *b, "differs at input byte %ld: '%.40s' / '%.40s'",
			              (long)(a - text), a, b);
			if (*a)
				a++, b++;
		}
	}
	out2 = reprint(out, PrintSass);
	ck_assert_msg(strcmp(out, out2) == 0, "printing is not a fixed point");
	free(out);
	free(out2);
	free(text);
}
END_TEST

/* cuobjdump -sass: printed back exactly too */
START_TEST(test_print_cuobjdump)
{
	const char *root = getenv("FIBER_ROOT");
	char path[4096], *out;
	Diag d;
	Src *src;
	Module *m;

	snprintf(path, sizeof path, "%s/tests/golden/saxpy.sm_80.cuobjdump.sass", root ? root : ".");
	diag_init(&d, NULL, stderr);
	src = src_read(path, &d);
	ck_assert_ptr_nonnull(src);
	d.src = src;
	m = sass_parse(src, &d);
	ck_assert_ptr_nonnull(m);
	out = print(m, PrintSass, NULL);
	ck_assert_str_eq(out, src->text);
	free(out);
	module_free(m);
	src_free(src);
}
END_TEST

Suite *
print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, test_print_exact);
	tcase_add_test(tc, test_print_fixpoint);
	tcase_add_test(tc, test_print_blanks_do_not_matter);
	tcase_add_test(tc, test_print_only_fn);
	tcase_add_test(tc, test_print_ir_roundtrip);
	tcase_add_test(tc, test_print_ir_roundtrip_corner);
	tcase_add_test(tc, test_print_cuobjdump);
	tcase_add_test(tc, test_print_large);
	tcase_add_test(tc, test_print_long_line);
	tcase_add_loop_test(tc, test_print_fmt_ins, 0, sizeof fmts / sizeof fmts[0]);
	suite_add_tcase(s, tc);
	return s;
}
