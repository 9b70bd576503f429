/* kernrun.c: running kernels through the runtime for the Check suites (kernrun.h). */
#define _DEFAULT_SOURCE
#include "kernrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *
kr_root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

int
kr_read_lines(const char *path, char lines[][2048], int max)
{
	char buf[2048];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(buf, sizeof buf, f) && n < max)
		if (buf[0] != '#' && buf[0] != '\n') {
			buf[strcspn(buf, "\n")] = 0;
			memcpy(lines[n++], buf, sizeof buf);
		}
	fclose(f);
	return n;
}

static uint16_t
half_of(float x)
{
	union { float f; uint32_t u; } v = {x};
	uint32_t s = (v.u >> 16) & 0x8000, e = (v.u >> 23) & 0xff, mant = v.u & 0x7fffff;

	if (x == 0)
		return (uint16_t)s;
	return (uint16_t)(s | ((e - 112) << 10) | (mant >> 13));  /* normal values only */
}

/* fixed contents of element k of a buffer of type t */
static void
fill(char *p, const char *t, size_t count)
{
	for (size_t k = 0; k < count; k++) {
		float x = (float)((int)(k * 7 % 13) - 6) / 8;
		if (!strcmp(t, "f32")) {
			memcpy(p + 4 * k, &x, 4);
		} else if (!strcmp(t, "f16")) {
			uint16_t h = half_of(x);
			memcpy(p + 2 * k, &h, 2);
		} else if (!strcmp(t, "f16x2")) {
			uint16_t h[2] = {half_of(x), half_of(-x / 2)};
			memcpy(p + 4 * k, h, 4);
		} else {
			uint32_t u = (uint32_t)k * 2654435761u;
			memcpy(p + 4 * k, &u, 4);
		}
	}
}

static size_t
tsize(const char *t)
{
	return !strcmp(t, "f16") ? 2 : 4;
}

static uint64_t watchdog;   /* kr_set_watchdog's, 0 none */
static unsigned checks;     /* kr_set_checks's, 0 none */
static void *report;        /* their report stream, NULL stderr */

void
kr_set_checks(unsigned c, void *rep)
{
	checks = c;
	report = rep;
}

void
kr_set_watchdog(uint64_t n)
{
	watchdog = n;
}

static int
open_dev(const char *path, const char *config, fiberSimMode mode, fiberDevice *dev,
         fiberModule *mod, KRun *r)
{
	memset(r, 0, sizeof *r);
	if (fiberDeviceCreate(dev, config) != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "no configuration '%s'", config);
		return -1;
	}
	fiberDeviceSetMode(*dev, mode);
	if (checks) {
		fiberDeviceSetChecks(*dev, checks);
		fiberDeviceSetOutput(*dev, NULL, report);
	}
	if (watchdog) {
		char kv[64];
		snprintf(kv, sizeof kv, "watchdog=%llu", (unsigned long long)watchdog);
		if (fiberDeviceSetConfigValue(*dev, kv) != FIBER_SUCCESS) {
			snprintf(r->err, sizeof r->err, "%s: %s", kv, fiberGetLastErrorMessage(*dev));
			fiberDeviceDestroy(*dev);
			return -1;
		}
	}
	if (fiberModuleLoadFile(mod, *dev, path) != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "load %s: %s", path, fiberGetLastErrorMessage(*dev));
		fiberDeviceDestroy(*dev);
		return -1;
	}
	return 0;
}

/* launch, then collect the buffers and the statistics */
static void
launch(fiberDevice dev, fiberFunction fn, const unsigned grid[3], const unsigned block[3],
       unsigned smem, const void *pb, size_t pbsize, const fiberDevicePtr *ptr,
       const size_t *bytes, unsigned np, size_t total, KRun *r)
{
	fiberStats s0, s1;

	fiberGetStats(dev, &s0);
	r->status = fiberLaunchKernelPacked(fn, grid, block, smem, pb, pbsize);
	fiberGetStats(dev, &s1);
	if (r->status != FIBER_SUCCESS)
		snprintf(r->err, sizeof r->err, "%s", fiberGetLastErrorMessage(dev));
	r->cycles = s1.cycles - s0.cycles;
	r->hazards = s1.hazards - s0.hazards;
	fiberGetCheckCount(dev, &r->found);
	r->buf = malloc(total + 1);
	r->n = 0;
	for (unsigned k = 0; k < np; k++)
		if (bytes[k]) {
			fiberMemcpyDtoH(dev, r->buf + r->n, ptr[k], bytes[k]);
			r->n += bytes[k];
		}
}

int
kr_run_line(const char *path, const char *config, fiberSimMode mode, const char *line, KRun *r)
{
	char dir[64], sym[128], params[2048], *tok, *save = NULL;
	unsigned grid[3], block[3], smem, np = 0;
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr ptr[32];
	size_t bytes[32], off, size, total = 0, pbsize = 0;
	unsigned char pb[4096];

	if (sscanf(line, "%63s %127s %u,%u,%u %u,%u,%u %u %2047s", dir, sym, &grid[0], &grid[1],
	           &grid[2], &block[0], &block[1], &block[2], &smem, params) != 10)
		return -1;
	if (open_dev(path, config, mode, &dev, &mod, r) < 0)
		return -1;
	if (fiberModuleGetFunction(&fn, mod, sym) != FIBER_SUCCESS) {
		snprintf(r->err, sizeof r->err, "%s: no kernel %s", path, sym);
		fiberDeviceDestroy(dev);
		return -1;
	}
	memset(pb, 0, sizeof pb);
	for (tok = strtok_r(params, ",", &save); tok && np < 32; tok = strtok_r(NULL, ",", &save)) {
		char name[64], type[16];
		size_t count;

		if (fiberFuncGetParamInfo(fn, np, &off, &size) != FIBER_SUCCESS || off + size > sizeof pb)
			break;
		if (off + size > pbsize)
			pbsize = off + size;
		bytes[np] = 0;
		if (sscanf(tok, "%63[^:]:%15[^*]*[%zu]", name, type, &count) == 3) {
			char *host = calloc(count, tsize(type));
			bytes[np] = count * tsize(type);
			if (strstr(tok, ":in"))
				fill(host, type, count);
			fiberMalloc(dev, &ptr[np], bytes[np]);
			fiberMemcpyHtoD(dev, ptr[np], host, bytes[np]);
			memcpy(pb + off, &ptr[np], size < 8 ? size : 8);
			total += bytes[np];
			free(host);
		} else if (strstr(tok, ":f32=")) {
			float x = strtof(strchr(tok, '=') + 1, NULL);
			memcpy(pb + off, &x, 4);
		} else if (strchr(tok, '=')) {
			int32_t x = (int32_t)strtol(strchr(tok, '=') + 1, NULL, 0);
			memcpy(pb + off, &x, 4);
		}
		np++;
	}
	launch(dev, fn, grid, block, smem, pb, pbsize, ptr, bytes, np, total, r);
	fiberDeviceDestroy(dev);
	return 0;
}

int
kr_function_count(const char *path, const char *config, unsigned *n)
{
	fiberDevice dev;
	fiberModule mod;
	KRun r;

	*n = 0;
	if (open_dev(path, config, FIBER_MODE_FUNCTIONAL, &dev, &mod, &r) < 0)
		return -1;
	fiberModuleGetFunctionCount(mod, n);
	fiberDeviceDestroy(dev);
	return 0;
}

int
kr_run_generic(const char *path, const char *config, fiberSimMode mode, unsigned f, char *name,
               size_t namesz, KRun *r)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	const char *nm;
	unsigned np = 0, grid[3] = {2, 1, 1}, block[3] = {128, 1, 1};
	fiberDevicePtr ptr[32];
	size_t bytes[32], total = 0, pbsize = 0;
	unsigned char pb[4096];
	enum { Buf = 1 << 20 };

	if (open_dev(path, config, mode, &dev, &mod, r) < 0)
		return -1;
	if (fiberModuleGetFunctionName(mod, f, &nm) != FIBER_SUCCESS ||
	    fiberModuleGetFunction(&fn, mod, nm) != FIBER_SUCCESS) {
		fiberDeviceDestroy(dev);
		return -1;
	}
	snprintf(name, namesz, "%s", nm);
	fiberFuncGetParamCount(fn, &np);
	if (np > 32)
		np = 32;
	memset(pb, 0, sizeof pb);
	for (unsigned k = 0; k < np; k++) {
		size_t off, size;
		uint32_t v = 16;

		bytes[k] = 0;
		if (fiberFuncGetParamInfo(fn, k, &off, &size) != FIBER_SUCCESS || off + size > sizeof pb)
			continue;
		if (off + size > pbsize)
			pbsize = off + size;
		if (size == 8) {
			char *host = malloc(Buf);
			for (size_t i = 0; i < Buf; i++)
				host[i] = (char)((i * 7 + 3 + k) % 64);
			fiberMalloc(dev, &ptr[k], Buf);
			fiberMemcpyHtoD(dev, ptr[k], host, Buf);
			free(host);
			memcpy(pb + off, &ptr[k], 8);
			bytes[k] = Buf;
			total += Buf;
		} else if (size == 4) {
			memcpy(pb + off, &v, 4);
		}
	}
	launch(dev, fn, grid, block, 0, pb, pbsize, ptr, bytes, np, total, r);
	fiberDeviceDestroy(dev);
	return 0;
}

void
kr_free(KRun *r)
{
	free(r->buf);
	r->buf = NULL;
}

char *
kr_fiberc(const char *in, const char *args, char *err, size_t errsz)
{
	const char *fc = getenv("FIBERC");
	char *out = malloc(64), errpath[80], cmd[4096];
	int fd, rc;
	FILE *e;

	strcpy(out, "/tmp/fiber-kr-XXXXXX.sass");
	if ((fd = mkstemps(out, 5)) < 0) {
		snprintf(err, errsz, "mkstemps failed");
		free(out);
		return NULL;
	}
	close(fd);
	snprintf(errpath, sizeof errpath, "%s.err", out);
	snprintf(cmd, sizeof cmd, "'%s' '%s' %s -o '%s' 2> '%s'", fc && *fc ? fc : "build/bin/fiberc",
	         in, args, out, errpath);
	rc = system(cmd);
	err[0] = 0;
	if ((e = fopen(errpath, "r"))) {
		size_t n = fread(err, 1, errsz - 1, e);
		err[n] = 0;
		fclose(e);
	}
	unlink(errpath);
	if (rc != 0) {
		unlink(out);
		free(out);
		return NULL;
	}
	return out;
}
