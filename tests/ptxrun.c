/* ptxrun.c: compile PTX with the fiberc program ($FIBERC, else build/bin/fiberc) into a
 * temporary listing and run a kernel of it through the runtime (ptxrun.h). */
#define _DEFAULT_SOURCE
#include "ptxrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)len + 1);
	*n = fread(s, 1, (size_t)len, f);
	s[*n] = 0;
	fclose(f);
	return s;
}

char *
pr_compile(const char *ptx, PrRun *r)
{
	char dir[] = "/tmp/ptxrunXXXXXX", in[64], out[64], log[64], cmd[1024];
	const char *fiberc = getenv("FIBERC") ? getenv("FIBERC") : "build/bin/fiberc";
	char *sass = NULL, *msg;
	size_t n;
	FILE *f;

	r->err[0] = 0;
	if (!mkdtemp(dir)) {
		snprintf(r->err, sizeof r->err, "mkdtemp failed");
		return NULL;
	}
	snprintf(in, sizeof in, "%s/k.ptx", dir);
	snprintf(out, sizeof out, "%s/k.sass", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	if (!(f = fopen(in, "w"))) {
		snprintf(r->err, sizeof r->err, "cannot write %s", in);
		return NULL;
	}
	fputs(ptx, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s %s --arch=%s %s -o %s 2>%s", fiberc, in,
	         r->arch ? r->arch : "sm_80", r->opts ? r->opts : "", out, log);
	if (system(cmd) == 0)
		sass = slurp(out, &n);
	if (!sass) {
		msg = slurp(log, &n);
		snprintf(r->err, sizeof r->err, "fiberc failed: %s", msg ? msg : "(no output)");
		free(msg);
	}
	unlink(in);
	unlink(out);
	unlink(log);
	rmdir(dir);
	return sass;
}

int
pr_run(const char *ptx, const char *kernel, PrRun *r, PrArg *a, unsigned n)
{
	char *sass = pr_compile(ptx, r);
	int rc;

	if (!sass)
		return -1;
	rc = pr_launch(sass, kernel, r, a, n);
	free(sass);
	return rc;
}

int
pr_launch(const char *sass, const char *kernel, PrRun *r, PrArg *a, unsigned n)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberStats s0, s1;
	fiberDevicePtr ptr[32] = {0};
	unsigned char pb[4096];
	size_t pbsize = 0;
	unsigned grid[3], block[3];
	int rc = -1;

	if (n > 32) {
		snprintf(r->err, sizeof r->err, "too many arguments");
		return -1;
	}
	if (fiberDeviceCreate(&dev, r->config ? r->config : "a100") != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "no configuration '%s'", r->config ? r->config : "a100");
		return -1;
	}
	fiberDeviceSetMode(dev, r->mode);
	if (fiberModuleLoadData(&mod, dev, sass, strlen(sass), "k.sass") != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "load: %s", fiberGetLastErrorMessage(dev));
		goto out;
	}
	if (fiberModuleGetFunction(&fn, mod, kernel) != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "no kernel %s", kernel);
		goto out;
	}
	for (unsigned k = 0; k < n; k++) {
		size_t sz = a[k].kind == PrBuf || a[k].kind == PrU64 ? 8 : 4;
		size_t off;
		fiberFuncGetParamInfo(fn, k, &off, NULL);
		if (off + sz > sizeof pb) {
			snprintf(r->err, sizeof r->err, "parameter block too big");
			goto out;
		}
		if (a[k].kind == PrBuf) {
			fiberMalloc(dev, &ptr[k], a[k].bytes ? a[k].bytes : 4);
			if (a[k].bytes)
				fiberMemcpyHtoD(dev, ptr[k], a[k].data, a[k].bytes);
			memcpy(pb + off, &ptr[k], 8);
		} else if (a[k].kind == PrU64) {
			memcpy(pb + off, &a[k].u, 8);
		} else if (a[k].kind == PrU32) {
			uint32_t v = (uint32_t)a[k].u;
			memcpy(pb + off, &v, 4);
		} else {
			memcpy(pb + off, &a[k].f, 4);
		}
		if (off + sz > pbsize)
			pbsize = off + sz;
	}
	for (int k = 0; k < 3; k++) {
		grid[k] = r->grid[k] ? r->grid[k] : 1;
		block[k] = r->block[k] ? r->block[k] : 1;
	}
	fiberGetStats(dev, &s0);
	fiberStatus st = fiberLaunchKernelPacked(fn, grid, block, r->smem, pb, pbsize);
	fiberGetStats(dev, &s1);
	r->cycles = s1.cycles - s0.cycles;
	r->hazards = s1.hazards - s0.hazards;
	for (unsigned k = 0; k < n; k++)
		if (a[k].kind == PrBuf && a[k].bytes)
			fiberMemcpyDtoH(dev, a[k].data, ptr[k], a[k].bytes);
	if (st != FIBER_SUCCESS)
		snprintf(r->err, sizeof r->err, "launch: %s", fiberGetLastErrorMessage(dev));
	else
		rc = 0;
out:
	fiberDeviceDestroy(dev);
	return rc;
}
