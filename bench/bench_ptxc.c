/* bench_ptxc.c: the PTX to SASS path end to end (issue 11: at least 200,000 PTX instructions per
 * second on one core): the fiberc binary compiling FILE.ptx (`fiberc FILE --arch=ARCH -o
 * /dev/null`: parsing, checking, lowering, the SASS parse of the lowered text, scheduling,
 * register allocation, control bits, writing), median of REPS runs of wall time and of user +
 * system time; with --ptxas PATH, NVIDIA's ptxas on the same file (`ptxas -arch=ARCH FILE -o
 * /dev/null`, once: it is slow), side by side.
 *
 *   bench_ptxc [-r REPS] [--arch sm_80] --fiberc PATH [--ptxas PATH] FILE.ptx
 */
#include "ir.h"
#include "ptx.h"
#include "spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MaxReps = 64, TargetRate = 200000 };

int
main(int argc, char **argv)
{
	const char *path = NULL, *fiberc = NULL, *ptxas = NULL, *arch = "sm_80";
	char archopt[32], ptxarch[32];
	double wall[MaxReps], cpu[MaxReps];
	int reps = 5;
	Diag d;
	Src *src;
	Ptx *p;
	uint32_t nins;

	for (int k = 1; k < argc; k++) {
		if (strcmp(argv[k], "-r") == 0 && k + 1 < argc)
			reps = atoi(argv[++k]);
		else if (strcmp(argv[k], "--arch") == 0 && k + 1 < argc)
			arch = argv[++k];
		else if (strcmp(argv[k], "--fiberc") == 0 && k + 1 < argc)
			fiberc = argv[++k];
		else if (strcmp(argv[k], "--ptxas") == 0 && k + 1 < argc)
			ptxas = argv[++k];
		else if (argv[k][0] == '-' || path)
			path = NULL, k = argc;
		else
			path = argv[k];
	}
	if (!path || !fiberc || reps < 1 || reps > MaxReps) {
		fprintf(stderr, "usage: bench_ptxc [-r REPS] [--arch sm_80] --fiberc PATH [--ptxas PATH] "
		        "FILE.ptx\n");
		return 2;
	}
	diag_init(&d, NULL, stderr);
	if (!(src = src_read(path, &d)))
		return 1;
	d.src = src;
	if (!(p = ptx_parse(src, &d)))
		return 1;
	nins = ptx_count_ins(p);
	ptx_free(p);
	src_free(src);
	snprintf(archopt, sizeof archopt, "--arch=%s", arch);
	snprintf(ptxarch, sizeof ptxarch, "-arch=%s", arch);
	char *fargv[] = {(char *)fiberc, (char *)path, archopt, (char *)"-o", (char *)"/dev/null", NULL};
	for (int r = 0; r < reps; r++)
		if ((wall[r] = spawn_timed(fargv, &cpu[r])) < 0)
			return 1;
	double mw = spawn_median(wall, reps), mc = spawn_median(cpu, reps);
	printf("bench_ptxc: %s: %u PTX instructions, %s, %d runs of fiberc\n", path, nins, arch, reps);
	printf("  %-40s %12.0f %12s  %s\n", "fiberc PTX -> SASS, instr/s (wall)", nins / mw,
	       ">= 200000", nins / mw >= TargetRate ? "ok" : "MISSED");
	printf("  %-40s %12.0f\n", "fiberc PTX -> SASS, instr/s (user+sys)", nins / mc);
	printf("  %-40s %12.3f\n", "fiberc seconds (median wall)", mw);
	printf("  %-40s %12.3f\n", "fiberc seconds (median user+sys)", mc);
	if (ptxas) {
		char *pargv[] = {(char *)ptxas, ptxarch, (char *)path, (char *)"-o", (char *)"/dev/null", NULL};
		double pc, pw = spawn_timed(pargv, &pc);
		if (pw < 0)
			return 1;
		printf("  %-40s %12.3f\n", "ptxas seconds (one run, wall)", pw);
		printf("  %-40s %12.3f\n", "ptxas seconds (user+sys)", pc);
		printf("  %-40s %12.1f\n", "ptxas / fiberc (user+sys)", pc / mc);
	}
	return 0;
}
