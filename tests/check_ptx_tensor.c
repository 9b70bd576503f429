/* check_ptx_tensor.c: instruction selection of the tensor family (backend/isel/ptxsel_tensor.c):
 * the SASS each mma shape, ldmatrix, stmatrix and movmatrix form selects (ptx_lower_text, in
 * process), the located errors of the forms not selected, and nvcc-style kernels compiled by
 * fiberc and run on the simulator for sm_80 and sm_90. The mma kernels load each lane's
 * fragments, which the test packs from small matrices by the fragment layouts of the PTX ISA
 * ("Matrix Fragments for mma.m16n8k16" and the other shapes), and D is compared exactly with
 * A * B + C computed here: the values are small integers (and halves), exact in every input and
 * accumulator type, so any rounding would show. The matrix moves are checked against the
 * row/column maps of ldmatrix, stmatrix and movmatrix.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxrun.h"
#include "ptxsel_test.h"

static const char *const arches[] = { "sm_80", "sm_90" };

/* ---- selected SASS and errors ------------------------------------------------------------ */

/* a kernel whose body has registers %r0..%r63, %f0..%f31, %fd0..%fd15 and a shared array sm
 * (the body starts on line 13) */
static char *
small_kernel(int sm, const char *body)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, ".version 8.5\n.target sm_%d\n.address_size 64\n\n"
	        ".visible .entry k(.param .u32 k_param_0)\n{\n"
	        "\t.reg .b32 %%r<64>;\n\t.reg .f32 %%f<32>;\n\t.reg .f64 %%fd<16>;\n"
	        "\t.reg .b64 %%rd<4>;\n\t.shared .align 16 .b8 sm[1024];\n"
	        "\tld.param.u32 %%r1, [k_param_0];\n%s\tret;\n}\n", sm, body);
	fclose(f);
	return s;
}

static void
lowers_to(int sm, const char *body, const char *want)
{
	char *ptx = small_kernel(sm, body);

	psel_lowers_to(ptx, sm, want);
	free(ptx);
}

static void
fails_with(int sm, const char *body, const char *where, const char *why)
{
	char *ptx = small_kernel(sm, body);

	psel_fails(ptx, sm, where, why);
	free(ptx);
}

#define MMA "\tmma.sync.aligned."

START_TEST(isel_mma)
{
	int sm = _i ? 90 : 80;

	/* each vector a tuple of its own (lwtuple.c): read and written in place, no copies */
	lowers_to(sm, MMA "m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n",
	          "HMMA.16816.F32 %$s1, %$s0, %$s2, %$s3");
	/* vectors grouped two ways (or D also A) are not tuples: fragments copied into tuples, C
	 * and D sharing one, D copied out */
	lowers_to(sm, MMA "m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n" MMA "m16n8k16.row.col.f32.f16.f16.f32 "
	          "{%f2,%f1,%f3,%f4}, {%r2,%r1,%r3,%r4}, {%r6,%r5}, {%f5,%f6,%f8,%f7};\n",
	          "MOV %$x0, %r1\nMOV %$x0[1], %r2\nMOV %$x0[2], %r3\nMOV %$x0[3], %r4\n"
	          "MOV %$w1, %r5\nMOV %$w1[1], %r6\nMOV %$x2, %f5\nMOV %$x2[1], %f6\n"
	          "MOV %$x2[2], %f7\nMOV %$x2[3], %f8\nHMMA.16816.F32 %$x2, %$x0, %$w1, %$x2\n"
	          "MOV %f1, %$x2\nMOV %f2, %$x2[1]\nMOV %f3, %$x2[2]\nMOV %f4, %$x2[3]");
	lowers_to(sm, MMA "m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n",
	          "MOV %$x0, %$s2\nMOV %$x0[1], %$s2[1]\nMOV %$x0[2], %$s2[2]\nMOV %$x0[3], %$s2[3]\n"
	          "HMMA.16816.F32 %$x0, %$s0, %$s1, %$x0\nMOV %$s0, %$x0\nMOV %$s0[1], %$x0[1]");
	/* D the half of A's tuple: a result overlapping another source is copied out */
	lowers_to(sm, MMA "m16n8k16.row.col.f16.f16.f16.f16 {%r52,%r53}, {%r50,%r51,%r52,%r53}, "
	          "{%r54,%r55}, {%r52,%r53};\n",
	          "MOV %$w0, %$s0[2]\nMOV %$w0[1], %$s0[3]\nHMMA.16816.F16 %$w0, %$s0, %$s1, %$w0\n"
	          "MOV %$s0[2], %$w0\nMOV %$s0[3], %$w0[1]");
	/* the accumulator in place (D = C) */
	lowers_to(sm, MMA "m16n8k16.row.col.f16.f16.f16.f16 {%r7,%r8}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, "
	          "{%r7,%r8};\n",
	          "HMMA.16816.F16 %$s1, %$s0, %$s2, %$s1");
	lowers_to(sm, MMA "m16n8k8.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5}, "
	          "{%f1,%f2,%f3,%f4};\n", "HMMA.1688.F32 %$s1, %$s0, %r5, %$s1");
	lowers_to(sm, MMA "m16n8k8.row.col.f16.f16.f16.f16 {%r7,%r8}, {%r1,%r2}, {%r5}, {%r7,%r8};\n",
	          "HMMA.1688.F16 %$s1, %$s0, %r5, %$s1");
	lowers_to(sm, MMA "m16n8k16.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%f1,%f2,%f3,%f4};\n", "HMMA.16816.F32.BF16 %$s1, %$s0, %$s2, %$s1");
	lowers_to(sm, MMA "m16n8k8.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5}, "
	          "{%f1,%f2,%f3,%f4};\n", "HMMA.1688.F32.BF16 %$s1, %$s0, %r5, %$s1");
	lowers_to(sm, MMA "m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%f1,%f2,%f3,%f4};\n", "HMMA.1688.F32.TF32 %$s1, %$s0, %$s2, %$s1");
	lowers_to(sm, MMA "m16n8k4.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5}, "
	          "{%f1,%f2,%f3,%f4};\n", "HMMA.1684.F32.TF32 %$s1, %$s0, %r5, %$s1");
	lowers_to(sm, MMA "m16n8k32.row.col.s32.s8.s8.s32 {%r10,%r11,%r12,%r13}, {%r1,%r2,%r3,%r4}, "
	          "{%r5,%r6}, {%r10,%r11,%r12,%r13};\n",
	          "IMMA.16832.S8.S8 %$s1, %$s0.ROW, %$s2.COL, %$s1");
	lowers_to(sm, MMA "m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%r10,%r11,%r12,%r13}, "
	          "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r20,%r21,%r22,%r23};\n",
	          "IMMA.16832.U8.S8.SAT %$s1, %$s0.ROW, %$s2.COL, %$s3");
	lowers_to(sm, MMA "m16n8k16.row.col.s32.u8.u8.s32 {%r10,%r11,%r12,%r13}, {%r1,%r2}, {%r5}, "
	          "{%r10,%r11,%r12,%r13};\n", "IMMA.16816.U8.U8 %$s1, %$s0.ROW, %r5.COL, %$s1");
	lowers_to(sm, MMA "m8n8k16.row.col.s32.s8.u8.s32 {%r10,%r11}, {%r1}, {%r5}, {%r10,%r11};\n",
	          "IMMA.8816.S8.U8 %$s0, %r1.ROW, %r5.COL, %$s0");
	lowers_to(sm, MMA "m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r10,%r11,%r12,%r13}, "
	          "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r10,%r11,%r12,%r13};\n",
	          "BMMA.168256.AND.POPC %$s1, %$s0.ROW, %$s2.COL, %$s1");
	lowers_to(sm, MMA "m8n8k128.row.col.s32.b1.b1.s32.and.popc {%r10,%r11}, {%r1}, {%r5}, "
	          "{%r10,%r11};\n", "BMMA.88128.AND.POPC %$s0, %r1.ROW, %r5.COL, %$s0");
	/* f64: an A or B fragment of one double is its own pair; DMMA's shape as nvcc spells it */
	lowers_to(sm, MMA "m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, {%fd5,%fd6};\n",
	          sm >= 90 ? "MOV %$x0, %fd5\nMOV %$x0[1], %fd5[1]\nMOV %$x0[2], %fd6\n"
	                     "MOV %$x0[3], %fd6[1]\nDMMA.8x8x4 %$x0, %fd3, %fd4, %$x0\nMOV %fd1, %$x0\n"
	                     "MOV %fd1[1], %$x0[1]\nMOV %fd2, %$x0[2]\nMOV %fd2[1], %$x0[3]"
	                   : "DMMA.884 %$x0, %fd3, %fd4, %$x0");
	if (sm == 90)
		lowers_to(sm, MMA "m16n8k32.row.col.f32.e5m2.e4m3.f32 {%f1,%f2,%f3,%f4}, "
		          "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};\n",
		          "QMMA.16832.F32.E5M2.E4M3 %$s1, %$s0.ROW, %$s2.COL, %$s1");
	if (sm == 80) {
		lowers_to(sm, MMA "m16n8k64.row.col.s32.s4.s4.s32 {%r10,%r11,%r12,%r13}, "
		          "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r10,%r11,%r12,%r13};\n",
		          "IMMA.16864.S4.S4 %$s1, %$s0.ROW, %$s2.COL, %$s1");
		lowers_to(sm, MMA "m16n8k32.row.col.s32.u4.s4.s32 {%r10,%r11,%r12,%r13}, {%r1,%r2}, {%r5}, "
		          "{%r10,%r11,%r12,%r13};\n", "IMMA.16832.U4.S4 %$s1, %$s0.ROW, %r5.COL, %$s1");
		lowers_to(sm, MMA "m8n8k32.row.col.s32.s4.s4.s32 {%r10,%r11}, {%r1}, {%r5}, {%r10,%r11};\n",
		          "IMMA.8832.S4.S4 %$s0, %r1.ROW, %r5.COL, %$s0");
		lowers_to(sm, MMA "m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%r10,%r11,%r12,%r13}, "
		          "{%r1,%r2}, {%r5}, {%r10,%r11,%r12,%r13};\n",
		          "BMMA.168128.XOR.POPC %$s1, %$s0.ROW, %r5.COL, %$s1");
	}
}
END_TEST

START_TEST(isel_matrix_moves)
{
	lowers_to(80, "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20,%r21,%r22,%r23}, [%r1];\n"
	          "\tldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%r24,%r25}, [%r1+128];\n"
	          "\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r26}, [sm+64];\n"
	          "\tldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r27}, [%r1];\n"
	          "\tmovmatrix.sync.aligned.m8n8.trans.b16 %r28, %r26;\n",
	          "LDSM.16.M88.4 %$s0, [%r1]\nLDSM.16.MT88.2 %$s1, [%r1+0x80]\n"
	          "LDSM.16.M88 %r26, [0x40]\nLDSM.16.MT88 %r27, [%r1]\nMOVM.16.MT88 %r28, %r26");
	/* written in place when the vector is a tuple (lwtuple.c); else through a tuple and MOVs,
	 * and an .x4 that two mma B operands read as halves names each half */
	lowers_to(80, "\tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r20,%r21}, [%r1];\n"
	          "\tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r21,%r20}, [%r1];\n"
	          "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r30,%r31,%r32,%r33}, [%r1];\n"
	          MMA "m16n8k16.row.col.f16.f16.f16.f16 {%r7,%r8}, {%r40,%r41,%r42,%r43}, {%r32,%r33}, "
	          "{%r7,%r8};\n",
	          "LDSM.16.M88.2 %$w0, [%r1]\nMOV %r20, %$w0\nMOV %r21, %$w0[1]\n"
	          "LDSM.16.M88.4 %$s0, [%r1]\nHMMA.16816.F16 %$s1, %$s2, %$s0[2], %$s1");
	/* an address that is an element of the tuple: through a tuple and MOVs */
	lowers_to(80, "\tmov.u32 %r51, %r1;\n"
	          "\tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r50,%r51}, [%r51+16];\n",
	          "LDSM.16.M88.2 %$w0, [%$s0[1]+0x10]\nMOV %$s0, %$w0\nMOV %$s0[1], %$w0[1]");
	lowers_to(90, "\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%r1], {%r20,%r21,%r22,%r23};\n"
	          "\tstmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r1+32], {%r24,%r25};\n"
	          "\tstmatrix.sync.aligned.m8n8.x1.shared.b16 [sm], {%r26};\n",
	          "MOV %$x0, %r20\nMOV %$x0[1], %r21\nMOV %$x0[2], %r22\nMOV %$x0[3], %r23\n"
	          "STSM.16.M88.4 [%r1], %$x0\nMOV %$w1, %r24\nMOV %$w1[1], %r25\n"
	          "STSM.16.MT88.2 [%r1+0x20], %$w1\nSTSM.16.M88 [0x0], %r26");
}
END_TEST

START_TEST(isel_errors)
{
	fails_with(80, MMA "m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
	           "{%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n",
	           "k.ptx:13:2: error: 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32' is not "
	           "supported yet", "shape m8n8k4");
	fails_with(80, MMA "m16n8k16.row.row.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	           "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n", "k.ptx:13:2: error:", ".row.col");
	fails_with(80, MMA "m16n8k16.row.col.f32.f16.f16.f16 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	           "{%r5,%r6}, {%r7,%r8};\n", "k.ptx:13:2: error:", "accumulator");
	fails_with(80, MMA "m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3}, "
	           "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n", "k.ptx:13:", "needs 4 registers, 3 given");
	fails_with(80, MMA "m16n8k8.row.col.f16.bf16.bf16.f16 {%r1,%r2}, {%r1,%r2}, {%r5}, "
	           "{%r1,%r2};\n", "k.ptx:13:2: error:", "accumulator");
	fails_with(80, MMA "m16n8k8.row.col.f64.f64.f64.f64 {%fd1,%fd2,%fd3,%fd4}, {%fd5,%fd6}, "
	           "{%fd7}, {%fd1,%fd2,%fd3,%fd4};\n", "k.ptx:13:2: error:", "only m8n8k4");
	fails_with(90, MMA "m16n8k64.row.col.s32.s4.s4.s32 {%r10,%r11,%r12,%r13}, {%r1,%r2,%r3,%r4}, "
	           "{%r5,%r6}, {%r10,%r11,%r12,%r13};\n", "k.ptx:13:2: error:", "4-bit");
	fails_with(90, MMA "m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%r10,%r11}, {%r1}, {%r5}, "
	           "{%r10,%r11};\n", "k.ptx:13:2: error:", "XOR");
	fails_with(80, MMA "m16n8k16.row.col.f32.f16.f16.f32.satfinite {%f1,%f2,%f3,%f4}, "
	           "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};\n", "k.ptx:13:2: error:",
	           ".satfinite");
	fails_with(80, MMA "m16n8k32.row.col.f32.e4m3.e4m3.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, "
	           "{%r5,%r6}, {%f1,%f2,%f3,%f4};\n", "k.ptx:13:2: error:", "sm_89");
	fails_with(90, MMA "m16n8k16.row.col.f32.e4m3.e4m3.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5}, "
	           "{%f1,%f2,%f3,%f4};\n", "k.ptx:13:2: error:", "m16n8k32");
	fails_with(90, "\tmma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
	           "{%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4}, %r9, 0x0;\n",
	           "k.ptx:13:2: error:", ".sp");
	fails_with(80, "\tldmatrix.sync.aligned.m8n8.x4.b16 {%r20,%r21,%r22,%r23}, [%rd1];\n",
	           "k.ptx:13:2: error: 'ldmatrix.sync.aligned.m8n8.x4.b16' is not supported yet",
	           "generic");
	fails_with(80, "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20,%r21}, [%r1];\n",
	           "k.ptx:13:", "needs 4 registers");
	fails_with(80, "\tstmatrix.sync.aligned.m8n8.x1.shared.b16 [%r1], {%r2};\n",
	           "k.ptx:13:2: error:", "sm_90");
	fails_with(80, MMA "m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%rd1,%r3,%r4}, "
	           "{%r5,%r6}, {%f5,%f6,%f7,%f8};\n", "k.ptx:13:", "a needs 32-bit registers");
	fails_with(80, MMA "m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%r1}, {%fd4}, {%fd5,%fd6};\n",
	           "k.ptx:13:", "a needs 64-bit registers");
	fails_with(80, "\tmovmatrix.sync.aligned.m8n8.trans.b16 %fd1, %r1;\n", "k.ptx:13:",
	           "needs 32-bit registers");
}
END_TEST

/* ---- running kernels ------------------------------------------------------------------------
 * A kernel loads words in[s * 32 + lane] (slot s) into registers, runs the instruction under
 * test, and stores words to out[s * 32 + lane]. */
enum { NIn = 16 * 32, NOut = 16 * 32 };

static char *
run_kernel(const char *arch, const char *body)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	fprintf(f, ".version 8.5\n.target %s\n.address_size 64\n\n"
	        ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	        "\t.reg .b32 %%r<64>;\n\t.reg .f32 %%f<32>;\n\t.reg .f64 %%fd<16>;\n"
	        "\t.reg .b64 %%rd<16>;\n\t.reg .pred %%p<4>;\n\t.shared .align 16 .b8 sm[1024];\n"
	        "\tld.param.u64 %%rd1, [k_param_0];\n\tld.param.u64 %%rd2, [k_param_1];\n"
	        "\tcvta.to.global.u64 %%rd3, %%rd1;\n\tcvta.to.global.u64 %%rd4, %%rd2;\n"
	        "\tmov.u32 %%r1, %%tid.x;\n\tmul.wide.u32 %%rd5, %%r1, 4;\n"
	        "\tadd.s64 %%rd6, %%rd4, %%rd5;\n\tadd.s64 %%rd7, %%rd3, %%rd5;\n%s\tret;\n}\n",
	        arch, body);
	fclose(f);
	return s;
}

static int
run(const char *arch, const char *body, const uint32_t *in, uint32_t *out, char *err, size_t nerr)
{
	char *ptx = run_kernel(arch, body);
	static uint32_t inb[NIn];
	PrRun r = { .arch = arch, .config = strcmp(arch, "sm_90") ? "a100" : "h100",
	            .block = { 32 } };
	PrArg a[2] = {
		{ .kind = PrBuf, .data = out, .bytes = NOut * 4 },
		{ .kind = PrBuf, .data = inb, .bytes = NIn * 4 },
	};
	int rc;

	memcpy(inb, in, sizeof inb);
	memset(out, 0xee, NOut * 4);
	rc = pr_run(ptx, "k", &r, a, 2);
	snprintf(err, nerr, "%s", r.err);
	if (rc == 0 && r.hazards)
		rc = -1, snprintf(err, nerr, "%llu hazards", (unsigned long long)r.hazards);
	free(ptx);
	return rc;
}

static void
run_ok(const char *arch, const char *body, const uint32_t *in, uint32_t *out)
{
	char err[4096];

	ck_assert_msg(run(arch, body, in, out, err, sizeof err) == 0, "%s: %s\n%s", arch, err, body);
}

/* ---- values ------------------------------------------------------------------------------ */

/* binary16 and bfloat16 bits of x, which must be exact in them; tf32 as binary32 */
static uint32_t
f32_bits(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	return u;
}

static float
bits_f32(uint32_t u)
{
	float x;
	memcpy(&x, &u, 4);
	return x;
}

static uint32_t
f16_bits(double x)
{
	uint32_t u = f32_bits((float)x), s = u >> 16 & 0x8000;
	int e = (int)(u >> 23 & 0xff);

	if (x == 0)
		return s;
	ck_assert_msg(e - 127 >= -14 && e - 127 <= 15 && (u & 0x1fff) == 0, "%g not exact in f16", x);
	return s | (uint32_t)(e - 127 + 15) << 10 | (u >> 13 & 0x3ff);
}

/* an fp8 value x (exact: a small integer or half of one) with ebits exponent and mbits mantissa
 * bits, bias 2^(ebits-1) - 1 */
static uint32_t
fp8_bits(double x, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1, e;
	double m = frexp(fabs(x), &e);   /* |x| = m 2^e, m in [0.5, 1) */
	uint32_t s = x < 0 ? 0x80u : 0;

	if (x == 0)
		return s;
	e -= 1;                          /* |x| = (2m) 2^e, 2m in [1, 2) */
	ck_assert_msg(e + bias >= 1 && e + bias < (1 << ebits) - 1, "%g out of range", x);
	uint32_t mant = (uint32_t)ldexp(2 * m - 1, mbits);
	ck_assert_msg(ldexp(2 * m - 1, mbits) == (double)mant, "%g not exact in fp8", x);
	return s | (uint32_t)(e + bias) << mbits | mant;
}

static double
f16_val(uint32_t h)
{
	int e = (int)(h >> 10 & 31);
	double m = (double)(h & 0x3ff);
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000 ? -v : v;
}

/* ---- mma ----------------------------------------------------------------------------------- */

/* element types of a shape */
enum { TF16, TBf16, TTf32, TS8, TU8, TS4, TU4, TB1, TF64, TF32, TS32, TE4m3, TE5m2 };

static const int tbits[] = { 16, 16, 32, 8, 8, 4, 4, 1, 64, 32, 32, 8, 8 };
static const char *const tname[] = {
	"f16", "bf16", "tf32", "s8", "u8", "s4", "u4", "b1", "f64", "f32", "s32", "e4m3", "e5m2",
};

typedef struct Mma {
	unsigned M, N, K;
	int at, bt, ct;    /* types of A, B and of C, D */
	const char *extra; /* modifiers after the types (".and.popc") or before (.satfinite) */
	int sat;           /* .satfinite */
	int xor;           /* b1: .xor.popc (else .and) */
	int sm90;          /* runs on sm_90 too; 2: on sm_90 only (fp8: sm_89 on) */
} Mma;

static const Mma mmas[] = {
	{ 16, 8, 16, TF16, TF16, TF32, "", 0, 0, 1 },
	{ 16, 8, 16, TF16, TF16, TF16, "", 0, 0, 1 },
	{ 16, 8, 8, TF16, TF16, TF32, "", 0, 0, 1 },
	{ 16, 8, 8, TF16, TF16, TF16, "", 0, 0, 1 },
	{ 16, 8, 16, TBf16, TBf16, TF32, "", 0, 0, 1 },
	{ 16, 8, 8, TBf16, TBf16, TF32, "", 0, 0, 1 },
	{ 16, 8, 8, TTf32, TTf32, TF32, "", 0, 0, 1 },
	{ 16, 8, 4, TTf32, TTf32, TF32, "", 0, 0, 1 },
	{ 16, 8, 32, TS8, TS8, TS32, "", 0, 0, 1 },
	{ 16, 8, 32, TU8, TS8, TS32, ".satfinite", 1, 0, 1 },
	{ 16, 8, 32, TS8, TU8, TS32, "", 0, 0, 1 },
	{ 16, 8, 16, TS8, TS8, TS32, "", 0, 0, 1 },
	{ 16, 8, 16, TU8, TU8, TS32, ".satfinite", 1, 0, 1 },
	{ 8, 8, 16, TS8, TS8, TS32, "", 0, 0, 1 },
	{ 16, 8, 64, TS4, TS4, TS32, "", 0, 0, 0 },
	{ 16, 8, 32, TU4, TU4, TS32, "", 0, 0, 0 },
	{ 8, 8, 32, TS4, TU4, TS32, ".satfinite", 1, 0, 0 },
	{ 16, 8, 256, TB1, TB1, TS32, ".and.popc", 0, 0, 1 },
	{ 16, 8, 128, TB1, TB1, TS32, ".and.popc", 0, 0, 1 },
	{ 8, 8, 128, TB1, TB1, TS32, ".and.popc", 0, 0, 1 },
	{ 16, 8, 128, TB1, TB1, TS32, ".xor.popc", 0, 1, 0 },
	{ 8, 8, 128, TB1, TB1, TS32, ".xor.popc", 0, 1, 0 },
	{ 8, 8, 4, TF64, TF64, TF64, "", 0, 0, 1 },
	{ 16, 8, 32, TE4m3, TE4m3, TF32, "", 0, 0, 2 },
	{ 16, 8, 32, TE5m2, TE4m3, TF32, "", 0, 0, 2 },
	{ 16, 8, 32, TE4m3, TE5m2, TF32, "", 0, 0, 2 },
};
enum { NMma = sizeof mmas / sizeof mmas[0] };

/* 32-bit registers per lane of A, B, C */
static int
nregs_a(const Mma *m)
{
	return m->at == TF64 ? 2 : (int)(m->M * m->K * (unsigned)tbits[m->at] / 1024);
}

static int
nregs_b(const Mma *m)
{
	return m->at == TF64 ? 2 : (int)(m->N * m->K * (unsigned)tbits[m->bt] / 1024);
}

static int
nregs_c(const Mma *m)
{
	return m->ct == TF64 ? 4 : (int)(m->M * m->N * (unsigned)tbits[m->ct] / 1024);
}

/* The fragment layouts (PTX ISA, mma fragments; g = lane >> 2, t = lane % 4, epr = elements
 * per 32-bit register): A register r, element e: M = 16: row g + 8 (r & 1), column
 * ((r >> 1) * 4 + t) * epr + e; M = 8: row g, column (r * 4 + t) * epr + e. B register r,
 * element e: row (r * 4 + t) * epr + e, column g. C, D with 32-bit elements, register i: M = 16:
 * row g + 8 (i >> 1), column 2t + (i & 1); M = 8: row g, column 2t + i. f16 C, D, register r,
 * half h: row g + 8r, column 2t + h. f64 (m8n8k4): A row g, column t; B row t, column g; C, D
 * element i (a register pair) row g, column 2t + i. */
static void
pos_a(const Mma *m, int lane, int r, int e, unsigned *row, unsigned *col)
{
	unsigned g = (unsigned)lane >> 2, t = (unsigned)lane & 3, epr = 32 / (unsigned)tbits[m->at];

	if (m->at == TF64) {
		*row = g, *col = t;
	} else if (m->M == 16) {
		*row = g + 8 * ((unsigned)r & 1);
		*col = (((unsigned)r >> 1) * 4 + t) * epr + (unsigned)e;
	} else {
		*row = g, *col = ((unsigned)r * 4 + t) * epr + (unsigned)e;
	}
}

static void
pos_b(const Mma *m, int lane, int r, int e, unsigned *row, unsigned *col)
{
	unsigned g = (unsigned)lane >> 2, t = (unsigned)lane & 3, epr = 32 / (unsigned)tbits[m->bt];

	if (m->bt == TF64)
		*row = t, *col = g;
	else
		*row = ((unsigned)r * 4 + t) * epr + (unsigned)e, *col = g;
}

/* element i of the C/D fragment (a register, a half of a register for f16, a pair for f64) */
static void
pos_c(const Mma *m, int lane, int i, unsigned *row, unsigned *col)
{
	unsigned g = (unsigned)lane >> 2, t = (unsigned)lane & 3;

	if (m->ct == TF16)
		*row = g + 8 * ((unsigned)i >> 1), *col = 2 * t + ((unsigned)i & 1);
	else if (m->M == 16)
		*row = g + 8 * ((unsigned)i >> 1), *col = 2 * t + ((unsigned)i & 1);
	else
		*row = g, *col = 2 * t + (unsigned)i;
}

/* a value of type ty for the matrices: small integers (and halves for the float types) */
static double
pick(int ty, unsigned seed)
{
	unsigned h = seed * 2654435761u >> 7;

	switch (ty) {
	case TF16: case TBf16: case TTf32: return ((int)(h % 9) - 4) * (h & 0x100 ? 0.5 : 1.0);
	case TS8: return (int)(h % 256) - 128;
	case TU8: return h % 256;
	case TS4: return (int)(h % 16) - 8;
	case TU4: return h % 16;
	case TB1: return h % 3 != 0;
	case TF64: return ((int)(h % 17) - 8) * 0.25;
	case TF32: return ((int)(h % 41) - 20) * 0.5;
	case TE4m3: return ((int)(h % 17) - 8) * (h & 0x100 ? 0.5 : 1.0);
	case TE5m2: return ((int)(h % 9) - 4) * (h & 0x100 ? 0.5 : 1.0);
	default: return (int)(h % 2001) - 1000;   /* s32 */
	}
}

/* the bits of element value v of type ty (its field in a register) */
static uint32_t
ebits(int ty, double v)
{
	switch (ty) {
	case TF16: return f16_bits(v);
	case TBf16: return f32_bits((float)v) >> 16;
	case TTf32: case TF32: return f32_bits((float)v);
	case TS8: case TU8: return (uint32_t)(int32_t)v & 0xff;
	case TS4: case TU4: return (uint32_t)(int32_t)v & 0xf;
	case TB1: return (uint32_t)v & 1;
	case TE4m3: return fp8_bits(v, 4, 3);
	case TE5m2: return fp8_bits(v, 5, 2);
	default: return (uint32_t)(int32_t)v;
	}
}

/* the matrices of case m, variant v (v 1: an integer C near the int32 limits, so that the sums
 * saturate or wrap) */
static void
matrices(const Mma *m, int v, double a[16][256], double b[256][8], double c[16][8])
{
	for (unsigned i = 0; i < m->M; i++)
		for (unsigned k = 0; k < m->K; k++)
			a[i][k] = pick(m->at, 1 + i * 977 + k * 31 + (unsigned)v * 7919);
	for (unsigned k = 0; k < m->K; k++)
		for (unsigned j = 0; j < m->N; j++)
			b[k][j] = pick(m->bt, 5 + k * 613 + j * 131 + (unsigned)v * 104729);
	for (unsigned i = 0; i < m->M; i++)
		for (unsigned j = 0; j < m->N; j++) {
			c[i][j] = pick(m->ct, 11 + i * 71 + j * 1291 + (unsigned)v * 3571);
			if (m->ct == TS32 && v == 1)   /* near the limits: saturation and wrapping */
				c[i][j] = (i + j) & 1 ? 2147483000.0 : -2147483000.0;
		}
}

/* one mma case on arch: load fragments, run, compare every element of D */
static void
mma_case(const char *arch, const Mma *m, int v, int inplace)
{
	static double a[16][256], b[256][8], c[16][8];
	static uint32_t in[NIn], out[NOut];
	int na = nregs_a(m), nb = nregs_b(m), nc = nregs_c(m);
	char body[4096], op[160], da[128], aa[128], ba[128], ca[128];
	size_t at = 0;
	int f64 = m->at == TF64, cf = m->ct == TF32;

	matrices(m, v, a, b, c);
	memset(in, 0, sizeof in);
	for (int lane = 0; lane < 32; lane++) {
		unsigned row, col;
		int epa = f64 ? 1 : 32 / tbits[m->at], epb = f64 ? 1 : 32 / tbits[m->bt];
		for (int r = 0; r < (f64 ? 1 : na); r++)
			for (int e = 0; e < epa; e++) {
				pos_a(m, lane, r, e, &row, &col);
				if (f64) {
					uint64_t u;
					memcpy(&u, &a[row][col], 8);
					in[0 * 32 + lane] = (uint32_t)u, in[1 * 32 + lane] = (uint32_t)(u >> 32);
				} else {
					in[r * 32 + lane] |= ebits(m->at, a[row][col]) << (e * tbits[m->at]);
				}
			}
		for (int r = 0; r < (f64 ? 1 : nb); r++)
			for (int e = 0; e < epb; e++) {
				pos_b(m, lane, r, e, &row, &col);
				if (f64) {
					uint64_t u;
					memcpy(&u, &b[row][col], 8);
					in[4 * 32 + lane] = (uint32_t)u, in[5 * 32 + lane] = (uint32_t)(u >> 32);
				} else {
					in[(4 + r) * 32 + lane] |= ebits(m->bt, b[row][col]) << (e * tbits[m->bt]);
				}
			}
		int ncel = m->ct == TF16 ? 2 * nc : f64 ? 2 : nc;
		for (int i = 0; i < ncel; i++) {
			pos_c(m, lane, i, &row, &col);
			if (f64) {
				uint64_t u;
				memcpy(&u, &c[row][col], 8);
				in[(6 + 2 * i) * 32 + lane] = (uint32_t)u;
				in[(7 + 2 * i) * 32 + lane] = (uint32_t)(u >> 32);
			} else if (m->ct == TF16) {
				in[(6 + i / 2) * 32 + lane] |= f16_bits(c[row][col]) << (16 * (i & 1));
			} else {
				in[(6 + i) * 32 + lane] = ebits(m->ct, c[row][col]);
			}
		}
	}

	/* the kernel: loads into %r10.. (A), %r20.. (B), %r30.. or %f1.. (C); D in %r40.. or %f11.. */
	for (int s = 0; s < 10; s++)
		at += (size_t)snprintf(body + at, sizeof body - at, "\tld.global.u32 %%r%d, [%%rd6+%d];\n",
		                       s < 4 ? 10 + s : s < 6 ? 20 + s - 4 : 30 + s - 6, s * 128);
	if (cf)
		for (int s = 0; s < 4; s++)
			at += (size_t)snprintf(body + at, sizeof body - at, "\tmov.b32 %%f%d, %%r%d;\n", 1 + s,
			                       30 + s);
	if (f64) {
		at += (size_t)snprintf(body + at, sizeof body - at,
		                       "\tmov.b64 %%fd1, {%%r10, %%r11};\n\tmov.b64 %%fd2, {%%r20, %%r21};\n"
		                       "\tmov.b64 %%fd3, {%%r30, %%r31};\n\tmov.b64 %%fd4, {%%r32, %%r33};\n");
		snprintf(aa, sizeof aa, "{%%fd1}");
		snprintf(ba, sizeof ba, "{%%fd2}");
		snprintf(ca, sizeof ca, "{%%fd3, %%fd4}");
		snprintf(da, sizeof da, inplace ? "{%%fd3, %%fd4}" : "{%%fd5, %%fd6}");
	} else {
		size_t k = 0;
		k += (size_t)snprintf(aa + k, sizeof aa - k, "{");
		for (int r = 0; r < na; r++)
			k += (size_t)snprintf(aa + k, sizeof aa - k, "%s%%r%d", r ? ", " : "", 10 + r);
		snprintf(aa + k, sizeof aa - k, "}");
		k = (size_t)snprintf(ba, sizeof ba, "{");
		for (int r = 0; r < nb; r++)
			k += (size_t)snprintf(ba + k, sizeof ba - k, "%s%%r%d", r ? ", " : "", 20 + r);
		snprintf(ba + k, sizeof ba - k, "}");
		k = (size_t)snprintf(ca, sizeof ca, "{");
		for (int r = 0; r < nc; r++)
			k += (size_t)snprintf(ca + k, sizeof ca - k, cf ? "%s%%f%d" : "%s%%r%d", r ? ", " : "",
			                      cf ? 1 + r : 30 + r);
		snprintf(ca + k, sizeof ca - k, "}");
		k = (size_t)snprintf(da, sizeof da, "{");
		for (int r = 0; r < nc; r++)
			k += (size_t)snprintf(da + k, sizeof da - k, cf ? "%s%%f%d" : "%s%%r%d", r ? ", " : "",
			                      inplace ? (cf ? 1 + r : 30 + r) : (cf ? 11 + r : 40 + r));
		snprintf(da + k, sizeof da - k, "}");
	}
	if (m->at == TB1)
		snprintf(op, sizeof op, "mma.sync.aligned.m%un%uk%u.row.col.s32.b1.b1.s32%s", m->M, m->N,
		         m->K, m->extra);
	else
		snprintf(op, sizeof op, "mma.sync.aligned.m%un%uk%u.row.col%s.%s.%s.%s.%s", m->M, m->N,
		         m->K, m->sat ? ".satfinite" : "", tname[m->ct], tname[m->at], tname[m->bt],
		         tname[m->ct]);
	at += (size_t)snprintf(body + at, sizeof body - at, "\t%s %s, %s, %s, %s;\n", op, da, aa, ba, ca);
	if (f64) {
		at += (size_t)snprintf(body + at, sizeof body - at,
		                       "\tmov.b64 {%%r40, %%r41}, %%fd%d;\n\tmov.b64 {%%r42, %%r43}, %%fd%d;\n",
		                       inplace ? 3 : 5, inplace ? 4 : 6);
	} else if (cf) {
		for (int s = 0; s < nc; s++)
			at += (size_t)snprintf(body + at, sizeof body - at, "\tmov.b32 %%r%d, %%f%d;\n", 40 + s,
			                       inplace ? 1 + s : 11 + s);
	} else if (inplace) {
		for (int s = 0; s < nc; s++)
			at += (size_t)snprintf(body + at, sizeof body - at, "\tmov.b32 %%r%d, %%r%d;\n",
			                       40 + s, 30 + s);
	}
	for (int s = 0; s < nc; s++)
		at += (size_t)snprintf(body + at, sizeof body - at, "\tst.global.u32 [%%rd7+%d], %%r%d;\n",
		                       s * 128, 40 + s);
	run_ok(arch, body, in, out);

	/* D = A * B + C, exact; integers wrap modulo 2^32 or saturate */
	for (int lane = 0; lane < 32; lane++) {
		int ncel = m->ct == TF16 ? 2 * nc : f64 ? 2 : nc;
		for (int i = 0; i < ncel; i++) {
			unsigned row, col;
			pos_c(m, lane, i, &row, &col);
			double want = c[row][col];
			int64_t iw = (int64_t)c[row][col];
			for (unsigned k = 0; k < m->K; k++) {
				if (m->at == TB1) {
					int x = (int)a[row][k], y = (int)b[k][col];
					iw += m->xor ? (x ^ y) : (x & y);
				} else if (m->ct == TS32) {
					iw += (int64_t)a[row][k] * (int64_t)b[k][col];
				} else {
					want += a[row][k] * b[k][col];
				}
			}
			uint32_t got;
			double gv;
			if (m->ct == TS32) {
				if (m->sat)
					iw = iw > INT32_MAX ? INT32_MAX : iw < INT32_MIN ? INT32_MIN : iw;
				got = out[i * 32 + lane];
				ck_assert_msg(got == (uint32_t)iw, "%s %s (variant %d%s) lane %d element %d "
				              "(row %u col %u): %d, want %d", arch, op, v, inplace ? ", in place" :
				              "", lane, i, row, col, (int32_t)got, (int32_t)(uint32_t)iw);
				continue;
			}
			if (f64) {
				uint64_t u = out[(2 * i) * 32 + lane] | (uint64_t)out[(2 * i + 1) * 32 + lane] << 32;
				memcpy(&gv, &u, 8);
			} else if (m->ct == TF16) {
				gv = f16_val(out[(i / 2) * 32 + lane] >> (16 * (i & 1)) & 0xffff);
			} else {
				gv = bits_f32(out[i * 32 + lane]);
			}
			ck_assert_msg(gv == want, "%s %s (variant %d%s) lane %d element %d (row %u col %u): "
			              "%g, want %g", arch, op, v, inplace ? ", in place" : "", lane, i, row, col,
			              gv, want);
		}
	}
}

/* every shape, two sets of values each (the second with C near the int32 limits), D in
 * registers of its own and in C's */
START_TEST(run_mma)
{
	const char *arch = arches[_i];

	for (int k = 0; k < NMma; k++) {
		if (_i ? !mmas[k].sm90 : mmas[k].sm90 == 2)
			continue;
		mma_case(arch, &mmas[k], 0, 0);
		mma_case(arch, &mmas[k], 1, 1);
	}
}
END_TEST

/* ---- ldmatrix, stmatrix, movmatrix ----------------------------------------------------------
 * Shared memory holds four 8x8 matrices of b16, row-major, one after the other (element
 * (m, r, c) at halfword 64m + 8r + c, value 0x1000 + that index). Lane l gives the address of
 * row l % 8 of matrix l / 8. ldmatrix: lane l's register m holds row l / 4, columns 2 (l % 4)
 * and 2 (l % 4) + 1 of matrix m (low half first); .trans: of the transposed matrix. */
static uint32_t
mat_elem(int m, int r, int c)
{
	return 0x1000u + (uint32_t)(64 * m + 8 * r + c);
}

/* the fill: thread t stores words 4t..4t+3 of the 512 bytes; then lane l's row address */
static const char fill[] =
    "\tmov.u32 %r20, sm;\n\tshl.b32 %r21, %r1, 4;\n\tadd.s32 %r22, %r20, %r21;\n"
    "\tld.global.u32 %r2, [%rd6];\n\tld.global.u32 %r3, [%rd6+128];\n"
    "\tld.global.u32 %r4, [%rd6+256];\n\tld.global.u32 %r5, [%rd6+384];\n"
    "\tst.shared.u32 [%r22], %r2;\n\tst.shared.u32 [%r22+4], %r3;\n"
    "\tst.shared.u32 [%r22+8], %r4;\n\tst.shared.u32 [%r22+12], %r5;\n\tbar.sync 0;\n";

static void
fill_in(uint32_t *in)
{
	memset(in, 0, NIn * 4);
	for (int t = 0; t < 32; t++)
		for (int j = 0; j < 4; j++) {
			int w = 4 * t + j, h = 2 * w;   /* halfword index of the word's low half */
			in[j * 32 + t] = mat_elem(h / 64, h / 8 % 8, h % 8) |
			                 mat_elem((h + 1) / 64, (h + 1) / 8 % 8, (h + 1) % 8) << 16;
		}
}

START_TEST(run_ldmatrix)
{
	static const int nums[] = { 1, 2, 4 };
	const char *arch = arches[_i];
	static uint32_t in[NIn], out[NOut];
	char body[2048];

	fill_in(in);
	for (int trans = 0; trans < 2; trans++)
		for (int n = 0; n < 3; n++) {
			int nm = nums[n];
			snprintf(body, sizeof body, "%s\tldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 %s, "
			         "[%%r22];\n\tst.global.u32 [%%rd7], %%r40;\n%s%s", fill, nm,
			         trans ? ".trans" : "", nm == 4 ? "{%r40, %r41, %r42, %r43}" : nm == 2 ?
			         "{%r40, %r41}" : "{%r40}",
			         nm >= 2 ? "\tst.global.u32 [%rd7+128], %r41;\n" : "",
			         nm == 4 ? "\tst.global.u32 [%rd7+256], %r42;\n"
			                   "\tst.global.u32 [%rd7+384], %r43;\n" : "");
			run_ok(arch, body, in, out);
			for (int l = 0; l < 32; l++)
				for (int m = 0; m < nm; m++) {
					int r = l / 4, c = 2 * (l % 4);
					uint32_t want = trans ? mat_elem(m, c, r) | mat_elem(m, c + 1, r) << 16
					                      : mat_elem(m, r, c) | mat_elem(m, r, c + 1) << 16;
					ck_assert_msg(out[m * 32 + l] == want, "%s ldmatrix.x%d%s lane %d matrix %d: "
					              "%08x, want %08x", arch, nm, trans ? ".trans" : "", l, m,
					              out[m * 32 + l], want);
				}
		}
}
END_TEST

/* movmatrix: lane l's register holds row l / 4, columns 2 (l % 4), +1 of an 8x8 matrix; the
 * result holds the same positions of its transpose. The source is matrix 0 through ldmatrix. */
START_TEST(run_movmatrix)
{
	const char *arch = arches[_i];
	static uint32_t in[NIn], out[NOut];
	char body[2048];

	fill_in(in);
	snprintf(body, sizeof body, "%s\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%%r40}, [%%r22];\n"
	         "\tmovmatrix.sync.aligned.m8n8.trans.b16 %%r41, %%r40;\n"
	         "\tst.global.u32 [%%rd7], %%r41;\n", fill);
	run_ok(arch, body, in, out);
	for (int l = 0; l < 32; l++) {
		int r = l / 4, c = 2 * (l % 4);
		uint32_t want = mat_elem(0, c, r) | mat_elem(0, c + 1, r) << 16;
		ck_assert_msg(out[l] == want, "%s lane %d: %08x, want %08x", arch, l, out[l], want);
	}
}
END_TEST

/* stmatrix (sm_90): the fragments of ldmatrix stored back through other row addresses (matrix
 * m's row r to the row address of lane 8 ((m + 1) % nm) + r), then shared memory read back */
START_TEST(run_stmatrix)
{
	static const int nums[] = { 1, 2, 4 };
	static uint32_t in[NIn], out[NOut];
	char body[4096];

	fill_in(in);
	for (int trans = 0; trans < 2; trans++)
		for (int n = 0; n < 3; n++) {
			int nm = nums[n];
			const char *regs = nm == 4 ? "{%r40, %r41, %r42, %r43}" : nm == 2 ? "{%r40, %r41}" :
			                   "{%r40}";
			/* lane l stores through the address of row l % 8 of matrix (l / 8 + 1) % nm, in a
			 * second array 512 bytes on */
			snprintf(body, sizeof body, "%s"
			         "\tldmatrix.sync.aligned.m8n8.x%d.shared.b16 %s, [%%r22];\n"
			         "\tbar.sync 0;\n"
			         "\tshr.u32 %%r23, %%r1, 3;\n\tadd.s32 %%r24, %%r23, 1;\n"
			         "\tand.b32 %%r25, %%r24, %d;\n\tshl.b32 %%r26, %%r25, 7;\n"
			         "\tand.b32 %%r27, %%r1, 7;\n\tshl.b32 %%r28, %%r27, 4;\n"
			         "\tadd.s32 %%r29, %%r26, %%r28;\n\tadd.s32 %%r30, %%r20, %%r29;\n"
			         "\tstmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%r30+512], %s;\n"
			         "\tbar.sync 0;\n"
			         "\tld.shared.u32 %%r44, [%%r22+512];\n\tld.shared.u32 %%r45, [%%r22+516];\n"
			         "\tld.shared.u32 %%r46, [%%r22+520];\n\tld.shared.u32 %%r47, [%%r22+524];\n"
			         "\tst.global.u32 [%%rd7], %%r44;\n\tst.global.u32 [%%rd7+128], %%r45;\n"
			         "\tst.global.u32 [%%rd7+256], %%r46;\n\tst.global.u32 [%%rd7+384], %%r47;\n",
			         fill, nm, regs, nm - 1, nm, trans ? ".trans" : "", regs);
			run_ok("sm_90", body, in, out);
			/* matrix m (its fragment) lands at matrix slot (m + 1) % nm of the second array,
			 * transposed with .trans; slots past nm stay unwritten (not checked) */
			for (int m = 0; m < nm; m++) {
				int slot = (m + 1) % nm;
				for (int r = 0; r < 8; r++)
					for (int c = 0; c < 8; c++) {
						int h = 64 * slot + 8 * r + c, t = h / 8, j = h / 2 % 4;
						uint32_t word = out[j * 32 + t], got = h & 1 ? word >> 16 : word & 0xffff;
						uint32_t want = trans ? mat_elem(m, c, r) : mat_elem(m, r, c);
						ck_assert_msg(got == want, "stmatrix.x%d%s matrix %d (%d, %d): %04x, want "
						              "%04x", nm, trans ? ".trans" : "", m, r, c, got, want);
					}
			}
		}
}
END_TEST

Suite *
ptx_tensor_suite(void)
{
	Suite *s = suite_create("ptx_tensor");
	TCase *t = tcase_create("isel");
	TCase *r = tcase_create("run");

	tcase_add_loop_test(t, isel_mma, 0, 2);
	tcase_add_test(t, isel_matrix_moves);
	tcase_add_test(t, isel_errors);
	suite_add_tcase(s, t);
	tcase_set_timeout(r, 120);
	tcase_add_loop_test(r, run_mma, 0, 2);
	tcase_add_loop_test(r, run_ldmatrix, 0, 2);
	tcase_add_loop_test(r, run_movmatrix, 0, 2);
	tcase_add_test(r, run_stmatrix);
	suite_add_tcase(s, r);
	return s;
}
