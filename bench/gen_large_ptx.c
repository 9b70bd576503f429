/* gen_large_ptx.c: write a large PTX kernel in nvcc's style for the PTX front-end benchmark.
 * The body is a run of tiles like flash_attn's: address arithmetic, cp.async and ldmatrix loads,
 * mma.sync, an online-softmax step (max, shfl.sync.bfly, ex2.approx, fma), predicated branches,
 * .loc lines, labels and a call sequence every few tiles, over registers declared with <N>
 * ranges. Realistic in its mix of instructions, operands and directives; not a kernel that does
 * anything useful.
 *
 *   gen_large_ptx [-n LINES] [-o FILE]      (default 75000 lines, standard output)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* registers one tile uses of each kind */
enum { RT = 40, FT = 24, RDT = 6, PT_ = 4 };

static unsigned long lines;

static void
line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>

static void
line(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	lines++;
}

/* one tile: about 60 lines, 48 instructions; t is its number. Register numbers grow from tile
 * to tile as nvcc's do (each PTX register written once, SSA-like), and a tile's inputs are the
 * previous tile's results, so that values live from one tile to the next, not across the kernel */
static void
tile(FILE *out, unsigned t)
{
	unsigned r = t * RT + 1, f = t * FT + 1, rd = t * RDT + 1, p = t * PT_ + 1;

	if (t == 0) {
		line(out, "\tmov.u32 \t%%r%u, %%tid.x;", r);
		line(out, "\tld.param.u64 \t%%rd%u, [big_param_0];", rd + 2);
		for (unsigned k = 0; k < 4; k++)
			line(out, "\tmov.f32 \t%%f%u, 0f00000000;", f + k);
	} else {
		unsigned r0 = r - RT, f0 = f - FT, rd0 = rd - RDT;
		line(out, "\tadd.s32 \t%%r%u, %%r%u, %u;", r, r0 + 14, t);
		line(out, "\tadd.s64 \t%%rd%u, %%rd%u, 64;", rd + 2, rd0 + 1);
		for (unsigned k = 0; k < 4; k++)
			line(out, "\tmov.f32 \t%%f%u, %%f%u;", f + k, f0 + 12 - (k & 1));
	}
	line(out, "\t.loc\t1 %u 5", 100 + t % 400);
	line(out, "\tmul.wide.s32 \t%%rd%u, %%r%u, 4;", rd, r);
	line(out, "\tadd.s64 \t%%rd%u, %%rd%u, %%rd%u;", rd + 1, rd + 2, rd);
	line(out, "\tshl.b32 \t%%r%u, %%r%u, 3;", r + 1, r);
	line(out, "\tand.b32  \t%%r%u, %%r%u, 248;", r + 2, r + 1);
	line(out, "\tmov.u32 \t%%r%u, _ZZ3bigE2Qs;", r + 3);
	line(out, "\tadd.s32 \t%%r%u, %%r%u, %%r%u;", r + 4, r + 3, r + 2);
	line(out, "\tcp.async.cg.shared.global [%%r%u], [%%rd%u], 16, 16;", r + 4, rd + 1);
	line(out, "\tcp.async.commit_group;");
	line(out, "\tcp.async.wait_group 0;");
	line(out, "\tbar.sync \t0;");
	line(out, "\t.loc\t1 %u 9, function_name $L__info_string0, inlined_at 1 %u 5", 20 + t % 50,
	     100 + t % 400);
	line(out, "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%%r%u, %%r%u, %%r%u, %%r%u}, [%%r%u];",
	     r + 5, r + 6, r + 7, r + 8, r + 4);
	line(out, "\tldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%%r%u, %%r%u}, [%%r%u+1024];",
	     r + 9, r + 10, r + 4);
	line(out, "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%f%u, %%f%u, %%f%u, %%f%u}, "
	     "{%%r%u, %%r%u, %%r%u, %%r%u}, {%%r%u, %%r%u}, {%%f%u, %%f%u, %%f%u, %%f%u};",
	     f, f + 1, f + 2, f + 3, r + 5, r + 6, r + 7, r + 8, r + 9, r + 10, f, f + 1, f + 2, f + 3);
	line(out, "\tmax.f32 \t%%f%u, %%f%u, %%f%u;", f + 4, f, f + 1);
	line(out, "\tmax.f32 \t%%f%u, %%f%u, %%f%u;", f + 5, f + 2, f + 3);
	line(out, "\tmax.f32 \t%%f%u, %%f%u, %%f%u;", f + 6, f + 4, f + 5);
	line(out, "\tmov.b32 \t%%r%u, %%f%u;", r + 11, f + 6);
	line(out, "\tshfl.sync.bfly.b32 \t%%r%u|%%p%u, %%r%u, 1, 31, -1;", r + 12, p, r + 11);
	line(out, "\tmov.b32 \t%%f%u, %%r%u;", f + 7, r + 12);
	line(out, "\tmax.f32 \t%%f%u, %%f%u, %%f%u;", f + 8, f + 6, f + 7);
	line(out, "\tshfl.sync.bfly.b32 \t%%r%u|%%p%u, %%r%u, 2, 31, -1;", r + 13, p + 1, r + 12);
	line(out, "\tsub.f32 \t%%f%u, %%f%u, %%f%u;", f + 9, f, f + 8);
	line(out, "\tmul.f32 \t%%f%u, %%f%u, 0f3FB8AA3B;", f + 10, f + 9);
	line(out, "\tex2.approx.ftz.f32 \t%%f%u, %%f%u;", f + 11, f + 10);
	line(out, "\tfma.rn.f32 \t%%f%u, %%f%u, %%f%u, %%f%u;", f + 12, f + 11, f + 1, f + 2);
	line(out, "\tcvt.rn.f16x2.f32 \t%%r%u, %%f%u, %%f%u;", r + 14, f + 12, f + 11);
	line(out, "\tsetp.gt.f32 \t%%p%u, %%f%u, %%f%u;", p + 2, f + 12, f + 3);
	line(out, "\tselp.f32 \t%%f%u, %%f%u, %%f%u, %%p%u;", f + 13, f + 12, f + 3, p + 2);
	line(out, "\t@%%p%u bra \t$L__BB0_%u;", p + 2, t * 2 + 1);
	fputc('\n', out), lines++;
	line(out, "\tld.global.nc.v4.u32 \t{%%r%u, %%r%u, %%r%u, %%r%u}, [%%rd%u+-512];", r + 15,
	     r + 16, r + 17, r + 18, rd + 1);
	line(out, "\tlop3.b32 \t%%r%u, %%r%u, 15, 1678925824, 0xea;", r + 19, r + 15);
	line(out, "\tprmt.b32 \t%%r%u, %%r%u, %%r%u, 0x5410U;", r + 20, r + 16, r + 17);
	line(out, "\tmad.lo.s32 \t%%r%u, %%r%u, %%r%u, %%r%u;", r + 21, r + 19, r + 20, r + 18);
	line(out, "\tatom.global.add.u32 \t%%r%u, [%%rd%u], 1;", r + 22, rd + 1);
	line(out, "\tst.global.v2.f32 \t[%%rd%u+128], {%%f%u, %%f%u};", rd + 1, f + 13, f + 12);
	fputc('\n', out), lines++;
	line(out, "$L__BB0_%u:", t * 2 + 1);
	line(out, "\tcvt.u64.u32 \t%%rd%u, %%r%u;", rd + 3, r + 21);
	line(out, "\tsetp.lt.u32 \t%%p%u, %%r%u, 96;", p + 3, r + 21);
	line(out, "\t@!%%p%u bra.uni \t$L__BB0_%u;", p + 3, t * 2 + 2);
	line(out, "\tst.shared.f32 \t[%%r%u+4], %%f%u;", r + 4, f + 13);
	line(out, "\tredux.sync.max.u32 \t%%r%u, %%r%u, -1;", r + 23, r + 22);
	line(out, "\tvote.sync.ballot.b32 \t%%r%u, %%p%u, -1;", r + 24, p + 3);
	line(out, "\tpopc.b32 \t%%r%u, %%r%u;", r + 25, r + 24);
	line(out, "$L__BB0_%u:", t * 2 + 2);
	if (t % 8 == 7) {
		line(out, "\t{ // callseq %u, 0", t);
		line(out, "\t.param .b32 param0;");
		line(out, "\tst.param.b32 \t[param0+0], %%r%u;", r + 25);
		line(out, "\t.param .b32 retval0;");
		line(out, "\tcall.uni (retval0), ");
		line(out, "\tsq, ");
		line(out, "\t(");
		line(out, "\tparam0");
		line(out, "\t);");
		line(out, "\tld.param.b32 \t%%r%u, [retval0+0];", r + 26);
		line(out, "\t} // callseq %u", t);
	}
}

int
main(int argc, char **argv)
{
	unsigned long want = 75000;
	const char *path = NULL;
	FILE *out = stdout;

	for (int k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-n") == 0 && k + 1 < argc)
			want = strtoul(argv[++k], NULL, 10);
		else if (strcmp(argv[k], "-o") == 0 && k + 1 < argc)
			path = argv[++k];
		else {
			fprintf(stderr, "usage: gen_large_ptx [-n LINES] [-o FILE]\n");
			return 2;
		}
	}
	if (path && !(out = fopen(path, "w"))) {
		perror(path);
		return 1;
	}
	line(out, "//\n// Generated by gen_large_ptx (fiber bench)\n//\n");
	line(out, ".version 9.0\n.target sm_80\n.address_size 64\n");
	line(out, ".func  (.param .b32 func_retval0) sq(\n\t.param .b32 sq_param_0\n)\n{");
	line(out, "\t.reg .b32 \t%%r<3>;\n\tld.param.u32 \t%%r1, [sq_param_0];");
	line(out, "\tmul.lo.s32 \t%%r2, %%r1, %%r1;\n\tst.param.b32 \t[func_retval0+0], %%r2;");
	line(out, "\tret;\n}\n");
	line(out, ".visible .entry big(\n\t.param .u64 big_param_0,\n\t.param .u32 big_param_1\n)");
	line(out, ".maxntid 128, 1, 1\n{");
	line(out, "\t.shared .align 16 .b8 _ZZ3bigE2Qs[8192];");
	/* at least 50 lines a tile: the declarations cover the tiles that fit */
	unsigned nt = (unsigned)(want > 200 ? (want - 100) / 50 + 1 : 1);
	line(out, "\t.reg .pred \t%%p<%u>;\n\t.reg .f32 \t%%f<%u>;", nt * PT_ + 8, nt * FT + 8);
	line(out, "\t.reg .b32 \t%%r<%u>;\n\t.reg .b64 \t%%rd<%u>;", nt * RT + 8, nt * RDT + 8);
	for (unsigned t = 0; lines + 80 < want && t < nt; t++)
		tile(out, t);
	line(out, "\tret;\n}\n\t.file\t1 \"big.cu\"");
	line(out, "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 102,0\n\t}");
	if (path && fclose(out) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}
