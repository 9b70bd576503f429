/* xfail.c: the lists of expected failures of the corpus differentials (xfail.h) */
#include "xfail.h"
#include "fiber.h"

#include <string.h>

/* read a list of expected failures from f (its name path); blank and `#` lines are skipped */
void
xlist_read(XList *l, FILE *f, const char *path)
{
	char buf[1024];
	int line = 0;

	memset(l, 0, sizeof *l);
	snprintf(l->path, sizeof l->path, "%s", path);
	if (!f) {
		snprintf(l->err, sizeof l->err, "cannot read %s", path);
		return;
	}
	while (fgets(buf, sizeof buf, f) && !l->err[0]) {
		XFail *x = &l->e[l->n];
		int at = 0;

		line++;
		buf[strcspn(buf, "\n")] = 0;
		if (buf[strspn(buf, " \t")] == 0 || buf[strspn(buf, " \t")] == '#')
			continue;
		if (l->n == MaxXfail) {
			snprintf(l->err, sizeof l->err, "%s:%d: more than %d entries", path, line, MaxXfail);
			break;
		}
		if (sscanf(buf, "%63s %127s %n", x->listing, x->fn, &at) != 2 || buf[at] == 0) {
			snprintf(l->err, sizeof l->err, "%s:%d: not `LISTING FUNCTION REASON`", path, line);
			break;
		}
		snprintf(x->reason, sizeof x->reason, "%s", buf + at);
		x->line = line;
		for (int k = 0; k < l->n; k++)
			if (!strcmp(l->e[k].listing, x->listing) && !strcmp(l->e[k].fn, x->fn))
				snprintf(l->err, sizeof l->err, "%s:%d: %s %s is listed on line %d too", path,
				         line, x->listing, x->fn, l->e[k].line);
		l->n++;
	}
}

XFail *
xlist_find(XList *l, const char *listing, const char *fn)
{
	for (int k = 0; k < l->n; k++)
		if (!strcmp(l->e[k].listing, listing) && !strcmp(l->e[k].fn, fn))
			return &l->e[k];
	return NULL;
}

/* the index of kernel `name` in the listing at path (the order of fiberc's functions is the PTX
 * file's, nvcc's listing has its own), or -1 */
int
xlist_fn_index(const char *path, const char *config, const char *name)
{
	fiberDevice dev;
	fiberModule mod;
	unsigned n = 0;
	int at = -1;

	if (fiberDeviceCreate(&dev, config) != FIBER_SUCCESS)
		return -1;
	if (fiberModuleLoadFile(&mod, dev, path) == FIBER_SUCCESS &&
	    fiberModuleGetFunctionCount(mod, &n) == FIBER_SUCCESS)
		for (unsigned k = 0; k < n && at < 0; k++) {
			const char *nm;
			if (fiberModuleGetFunctionName(mod, k, &nm) == FIBER_SUCCESS && !strcmp(nm, name))
				at = (int)k;
		}
	fiberDeviceDestroy(dev);
	return at;
}
