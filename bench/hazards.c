/* hazards.c: the hazard survey of docs/calibration.md. Runs every kernel of each listing given
 * (nvdisasm -hex listings, so the timing model runs in control-bits mode) once on the
 * configuration of its architecture (sm_80: a100, sm_90: h100, or --config), with every pointer
 * parameter a zero-filled buffer of 1 MiB and every 4-byte scalar 16, and prints the hazards
 * of each kernel and the rows of hazards_by_opcode summed over all of them: producer, consumer,
 * the configured latency, the cycles nvcc's stall counts gave, the count and one example.
 *
 *   hazards [--config NAME] [--set KEY=VALUE]... [--grid N] [--block N] FILE.sass...
 *
 * A kernel that faults on zero inputs (a pointer chase reads address 0) is named on standard error
 * and its hazards up to the fault are counted. Exit status: 0 (whatever the hazards and faults), 1
 * when a listing or kernel does not load, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiber.h"

enum { MaxRows = 16384, MaxParams = 32, MaxSets = 16, BufBytes = 1 << 20 };

typedef struct Row {
	fiberHazard h;
	char where[96];          /* file:kernel of the example */
} Row;

static Row rows[MaxRows];
static unsigned nrows, nfaulted;

static void
add_row(const fiberHazard *h, const char *file, const char *kernel)
{
	unsigned k;

	for (k = 0; k < nrows; k++)
		if (!strcmp(rows[k].h.producer, h->producer) && !strcmp(rows[k].h.consumer, h->consumer) &&
		    rows[k].h.latency == h->latency && rows[k].h.stall == h->stall)
			break;
	if (k < nrows) {
		rows[k].h.count += h->count;
		return;
	}
	if (nrows == MaxRows)
		return;
	rows[nrows].h = *h;
	snprintf(rows[nrows].where, sizeof rows[nrows].where, "%s:%s@0x%04x", file, kernel,
	         h->consumer_pc);
	nrows++;
}

static int
by_count(const void *a, const void *b)
{
	const Row *x = a, *y = b;
	int c;

	if (x->h.count != y->h.count)
		return x->h.count > y->h.count ? -1 : 1;
	if ((c = strcmp(x->h.producer, y->h.producer)))
		return c;
	return (int)x->h.stall - (int)y->h.stall;
}

static const char *
base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* run every kernel of one listing; the number of failures */
static int
survey(const char *path, const char *config, char **sets, int nsets, unsigned grid,
       unsigned block, uint64_t *total)
{
	fiberDevice dev;
	fiberModule mod;
	unsigned nfn;
	int bad = 0;
	const char *cfg = config;

	if (!cfg)
		cfg = strstr(path, "sm_9") ? "h100" : "a100";
	if (fiberDeviceCreate(&dev, cfg) != FIBER_SUCCESS) {
		fprintf(stderr, "hazards: %s: %s\n", cfg, fiberGetLastErrorMessage(NULL));
		return 1;
	}
	for (int k = 0; k < nsets; k++)
		if (fiberDeviceSetConfigValue(dev, sets[k]) != FIBER_SUCCESS) {
			fprintf(stderr, "hazards: --set %s: %s\n", sets[k], fiberGetLastErrorMessage(dev));
			fiberDeviceDestroy(dev);
			return 1;
		}
	if (fiberModuleLoadFile(&mod, dev, path) != FIBER_SUCCESS ||
	    fiberModuleGetFunctionCount(mod, &nfn) != FIBER_SUCCESS) {
		fprintf(stderr, "hazards: %s: %s\n%.2000s\n", path, fiberGetLastErrorMessage(dev),
		        fiberGetLastErrorLog(dev));
		fiberDeviceDestroy(dev);
		return 1;
	}
	for (unsigned f = 0; f < nfn; f++) {
		const char *name;
		fiberFunction fn;
		unsigned np = 0, nh = 0, g[3] = {grid, 1, 1}, b[3] = {block, 1, 1};
		fiberDevicePtr ptr[MaxParams];
		uint64_t val[MaxParams];
		void *params[MaxParams];
		fiberStats s0, s1;

		if (fiberModuleGetFunctionName(mod, f, &name) != FIBER_SUCCESS ||
		    fiberModuleGetFunction(&fn, mod, name) != FIBER_SUCCESS ||
		    fiberFuncGetParamCount(fn, &np) != FIBER_SUCCESS || np > MaxParams) {
			fprintf(stderr, "hazards: %s: kernel %u: %s\n", path, f, fiberGetLastErrorMessage(dev));
			bad++;
			continue;
		}
		for (unsigned k = 0; k < np; k++) {
			size_t off, size;
			ptr[k] = 0;
			val[k] = 0;
			params[k] = &val[k];
			if (fiberFuncGetParamInfo(fn, k, &off, &size) != FIBER_SUCCESS)
				size = 0;
			if (size == 8 && fiberMalloc(dev, &ptr[k], BufBytes) == FIBER_SUCCESS &&
			    fiberMemset(dev, ptr[k], 0, BufBytes) == FIBER_SUCCESS)
				val[k] = ptr[k];
			else if (size == 4)
				val[k] = 16;
		}
		fiberGetStats(dev, &s0);
		if (fiberLaunchKernel(fn, g, b, 0, params) != FIBER_SUCCESS) {
			fprintf(stderr, "hazards: %s: %s faulted on zero inputs: %s\n", path, name,
			        fiberGetLastErrorMessage(dev));
			nfaulted++;
		}
		fiberGetStats(dev, &s1);
		fiberGetHazardCount(dev, &nh);
		printf("%-28s %-24s %s %8llu hazards\n", base_name(path), name, cfg,
		       (unsigned long long)(s1.hazards - s0.hazards));
		*total += s1.hazards - s0.hazards;
		for (unsigned k = 0; k < nh; k++) {
			fiberHazard h;
			if (fiberGetHazard(dev, k, &h) == FIBER_SUCCESS)
				add_row(&h, base_name(path), name);
		}
		for (unsigned k = 0; k < np; k++)
			if (ptr[k])
				fiberFree(dev, ptr[k]);
	}
	fiberDeviceDestroy(dev);
	return bad;
}

int
main(int argc, char **argv)
{
	const char *config = NULL;
	char *sets[MaxSets];
	int nsets = 0, bad = 0, nfiles = 0;
	unsigned grid = 2, block = 128;
	uint64_t total = 0;

	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--config") && k + 1 < argc)
			config = argv[++k];
		else if (!strcmp(argv[k], "--set") && k + 1 < argc && nsets < MaxSets)
			sets[nsets++] = argv[++k];
		else if (!strcmp(argv[k], "--grid") && k + 1 < argc)
			grid = (unsigned)strtoul(argv[++k], NULL, 10);
		else if (!strcmp(argv[k], "--block") && k + 1 < argc)
			block = (unsigned)strtoul(argv[++k], NULL, 10);
		else if (argv[k][0] == '-') {
			fprintf(stderr, "usage: hazards [--config NAME] [--set KEY=VALUE]... [--grid N] "
			        "[--block N] FILE.sass...\n");
			return 2;
		}
	}
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--config") || !strcmp(argv[k], "--set") ||
		    !strcmp(argv[k], "--grid") || !strcmp(argv[k], "--block")) {
			k++;
			continue;
		}
		bad += survey(argv[k], config, sets, nsets, grid ? grid : 1, block ? block : 32, &total);
		nfiles++;
	}
	if (!nfiles) {
		fprintf(stderr, "hazards: no listing\n");
		return 2;
	}
	qsort(rows, nrows, sizeof *rows, by_count);
	printf("\n%llu hazards in all (%u kernels faulted on zero inputs, counted up to the fault)\n"
	       "| producer | consumer | latency | stall | count | example |\n"
	       "|---|---|---|---|---|---|\n", (unsigned long long)total, nfaulted);
	for (unsigned k = 0; k < nrows; k++)
		printf("| %s | %s | %u | %u | %llu | %s |\n", rows[k].h.producer, rows[k].h.consumer,
		       rows[k].h.latency, rows[k].h.stall, (unsigned long long)rows[k].h.count,
		       rows[k].where);
	return bad ? 1 : 0;
}
