/* module.c: loading modules (SASS listings, fiberc output, cubins through a disassembler), kernel
 * lookup and parameter layouts.
 *
 * The front end's diagnostics go to a memory stream: the first error becomes the one-line
 * message, all of them the log (fiberGetLastErrorLog). The Src, the Module and the simulator's
 * SimModule live as long as the fiberModule: decoded programs and messages point into them.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MaxModuleBytes = 1u << 30 };

/* diagnostics into memory */
typedef struct Capture {
	Diag d;                    /* points its output at mem */
	FILE *mem;                 /* open_memstream */
	char *buf;                 /* its buffer */
	size_t len;
} Capture;

static void
cap_open(Capture *c, Src *src)
{
	memset(c, 0, sizeof *c);
	if (!(c->mem = open_memstream(&c->buf, &c->len)))
		die("open_memstream: %s", strerror(errno));
	diag_init(&c->d, src, c->mem);
}

/* close the stream; the text goes to the device's log */
static void
cap_close(Capture *c, fiberDevice dev)
{
	fclose(c->mem);
	if (c->len == 0) {
		free(c->buf);
		c->buf = NULL;
	}
	rt_set_log(dev, c->buf);
}

/* an error that no source line explains */
static void
cap_error(Capture *c, const char *name, const char *msg)
{
	fprintf(c->mem, "%s: error: %s\n", name, msg);
	c->d.nerr++;
}

/* the first error line of the log, else its first line, else dflt: the one-line message */
static fiberStatus
cap_fail(Capture *c, fiberDevice dev, fiberStatus s, const char *dflt)
{
	const char *log, *line, *eol;
	int nerr = c->d.nerr;

	cap_close(c, dev);
	log = dev->log ? dev->log : "";
	line = strstr(log, ": error: ");
	while (line && line > log && line[-1] != '\n')
		line--;
	if (!line)
		line = *log ? log : dflt;
	eol = strchr(line, '\n');
	if (nerr > 1)
		return rt_err(dev, s, "%.*s (and %d more error%s)", (int)(eol ? eol - line : (long)strlen(line)),
		              line, nerr - 1, nerr > 2 ? "s" : "");
	return rt_err(dev, s, "%.*s", (int)(eol ? eol - line : (long)strlen(line)), line);
}

/* a module's code must be one the simulator runs (ir/arch.h ArchRuns) on the device's
 * architecture (Arch.device: sm_80..sm_89 on sm_80, sm_90 on sm_90) */
static fiberStatus
check_arch(fiberDevice dev, const char *name, int sm)
{
	const Arch *a;
	char list[128];

	if (sm == 0)
		return FIBER_SUCCESS;
	if (!(a = arch_sim(sm))) {
		arch_sim_list(list, sizeof list);
		return rt_err(dev, FIBER_ERROR_UNSUPPORTED,
		              "'%s' is sm_%d code; the simulator executes %s", name, sm, list);
	}
	if (rt_choose(dev, sm) != FIBER_SUCCESS)
		return FIBER_ERROR_OUT_OF_MEMORY;
	if (dev->cfg.sm != a->device->sm)
		return rt_err(dev, FIBER_ERROR_UNSUPPORTED,
		              "'%s' is sm_%d code but device '%s' executes sm_%d", name, sm, dev->name,
		              dev->cfg.sm);
	return FIBER_SUCCESS;
}

/* the kernels of a loaded module: every function the simulator decoded as one */
static void
collect(fiberModule mod)
{
	Module *m = mod->m;

	mod->fn = xmalloc((m->nfn ? m->nfn : 1) * sizeof *mod->fn);
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		const char *name = mstr(m, f->name);
		const Prog *p = sim_module_kernel(mod->sm, name);
		struct fiberFunction_st *fn;
		uint32_t end = 0;

		if (!p)
			continue;
		fn = &mod->fn[mod->nfn++];
		fn->mod = mod;
		fn->f = f;
		fn->prog = p;
		fn->name = name;
		/* nvdisasm listings carry .nv.info (a kernel without parameters has no KPARAM_INFO);
		 * cuobjdump -sass listings do not */
		fn->has_param_info = m->format == FmtNvdisasm || f->info.nparam > 0;
		for (uint32_t j = 0; j < f->info.nparam; j++)
			if (f->info.param[j].offset + f->info.param[j].size > end)
				end = f->info.param[j].offset + f->info.param[j].size;
		fn->param_size = f->info.cbank_param_size >= 0 ? (uint32_t)f->info.cbank_param_size : end;
	}
	for (uint32_t k = 0; k < mod->nfn; k++)
		rt_register(&mod->fn[k], RtFunction);
}

/* a listing cut at a line boundary can still parse: its .nv.info (printed before the code)
 * then names EXIT instructions past the end of the code */
static int
truncated(Capture *c, const char *name, Module *m)
{
	for (uint32_t k = 0; k < m->nfn; k++) {
		const Fn *f = m->fn[k];
		int64_t end = f->nins ? f->ins[f->nins - 1].addr : -1;
		char msg[256];

		for (uint32_t j = 0; j < f->info.nexit && end >= 0; j++)
			if (f->info.exit_off[j] > end) {
				snprintf(msg, sizeof msg, "truncated listing: kernel '%.64s' ends at 0x%llx but "
				         "its .nv.info lists an EXIT at 0x%x", mstr(m, f->name),
				         (unsigned long long)end, f->info.exit_off[j]);
				cap_error(c, name, msg);
				return 1;
			}
	}
	return 0;
}

/* the ELF kernels must be in the listing, with the same parameters */
static fiberStatus
check_cubin(fiberDevice dev, const char *name, const Cubin *cb, Module *m)
{
	for (uint32_t k = 0; k < cb->nk; k++) {
		const CubinKernel *ck = &cb->k[k];
		Fn *f = module_fn(m, ck->name);

		if (!f)
			return rt_err(dev, FIBER_ERROR_DISASSEMBLER_FAILED,
			              "the disassembler's listing of '%s' has no kernel '%s'", name, ck->name);
		if (f->info.nparam != ck->nparam)
			return rt_err(dev, FIBER_ERROR_DISASSEMBLER_FAILED,
			              "kernel '%s' of '%s': %u parameters in the ELF file, %u in the listing",
			              ck->name, name, ck->nparam, f->info.nparam);
		if (ck->cbank_param_size >= 0 && f->info.cbank_param_size >= 0
		    && ck->cbank_param_size != f->info.cbank_param_size)
			return rt_err(dev, FIBER_ERROR_DISASSEMBLER_FAILED,
			              "kernel '%s' of '%s': a %d-byte parameter block in the ELF file, %d in "
			              "the listing", ck->name, name, ck->cbank_param_size,
			              f->info.cbank_param_size);
		for (uint32_t j = 0; j < ck->nparam; j++)
			if (f->info.param[j].offset != ck->param[j].offset
			    || f->info.param[j].size != ck->param[j].size)
				return rt_err(dev, FIBER_ERROR_DISASSEMBLER_FAILED,
				              "kernel '%s' of '%s': parameter %u differs between the ELF file "
				              "and the listing", ck->name, name, j);
	}
	return FIBER_SUCCESS;
}

static void
rejected_free(fiberModule mod)
{
	for (uint32_t k = 0; k < mod->nrej; k++) {
		free(mod->rej[k].name);
		free(mod->rej[k].msg);
		free(mod->rej[k].log);
	}
	free(mod->rej);
	mod->rej = NULL;
	mod->nrej = 0;
}

/* the first error line of a log and how many more there are, as cap_fail says it (malloc) */
static char *
first_error(const char *log, int nerr)
{
	const char *line = strstr(log, ": error: "), *eol;
	size_t n;
	char *msg;

	while (line && line > log && line[-1] != '\n')
		line--;
	if (!line)
		line = log;
	eol = strchr(line, '\n');
	n = eol ? (size_t)(eol - line) : strlen(line);
	msg = xmalloc(n + 32);
	memcpy(msg, line, n);
	msg[n] = 0;
	if (nerr > 1)
		snprintf(msg + n, 32, " (and %d more error%s)", nerr - 1, nerr > 2 ? "s" : "");
	return msg;
}

/* The whole module did not load. If some of its kernels decode on their own and others do not
 * (an instruction the simulator lacks), load the module with those that do and record the others
 * in mod->rej; NULL if that does not help. */
static SimModule *
load_runnable(fiberDevice dev, Module *m, Src *src, fiberModule mod)
{
	int any_entry = 0, arch = m->sm ? m->sm : (int)dev->cfg.sm, ngood = 0;
	uint8_t *good = xmalloc(m->nfn + 1), *was = xmalloc(m->nfn + 1);
	SimModule *sm = NULL;
	Capture c;

	for (uint32_t k = 0; k < m->nfn; k++)
		any_entry |= m->fn[k]->info.is_entry;
	mod->rej = xmalloc((m->nfn + 1) * sizeof *mod->rej);
	mod->nrej = 0;
	for (uint32_t k = 0; k < m->nfn; k++) {
		Fn *f = m->fn[k];
		Prog *p;

		good[k] = 0;
		was[k] = (uint8_t)f->info.is_entry;
		if (any_entry && !f->info.is_entry)
			continue;
		cap_open(&c, src);
		if ((p = sim_decode(f, arch, &c.d))) {
			prog_free(p);
			good[k] = 1;
			ngood++;
		} else {
			RtRejected *r = &mod->rej[mod->nrej++];
			fflush(c.mem);
			r->name = xstrdup(mstr(m, f->name));
			r->log = xstrdup(c.buf ? c.buf : "");
			r->msg = first_error(r->log, c.d.nerr);
		}
		fclose(c.mem);
		free(c.buf);
	}
	if (ngood > 0 && mod->nrej > 0) {
		/* the simulator decodes the entries only: make them the runnable kernels for a moment */
		for (uint32_t k = 0; k < m->nfn; k++)
			m->fn[k]->info.is_entry = good[k];
		cap_open(&c, src);
		sm = sim_module_load(dev->gpu, m, &c.d);
		fclose(c.mem);
		free(c.buf);
		for (uint32_t k = 0; k < m->nfn; k++)
			m->fn[k]->info.is_entry = was[k];
	}
	if (!sm)
		rejected_free(mod);
	free(good);
	free(was);
	return sm;
}

/* parse text (a listing or IR text) and place it on the device; takes src */
static fiberStatus
load_text(fiberModule *out, fiberDevice dev, Src *src, const Cubin *cb, const char *name)
{
	Capture c;
	Module *m;
	fiberModule mod;
	fiberStatus s;

	cap_open(&c, src);
	if (!(m = sass_parse(src, &c.d))) {
		if (c.d.nerr == 0)
			cap_error(&c, name, "cannot read it as a SASS listing");
		src_free(src);
		return cap_fail(&c, dev, FIBER_ERROR_INVALID_SOURCE, "cannot parse the module");
	}
	if (m->nfn == 0) {
		cap_error(&c, name, "no kernel in it (not a SASS listing, or truncated?)");
		s = cap_fail(&c, dev, FIBER_ERROR_INVALID_SOURCE, "no kernel");
		goto fail;
	}
	if (rt_verify(m, &c.d, !dev->noverify) < 0) {
		s = cap_fail(&c, dev, FIBER_ERROR_INVALID_SOURCE, "the listing does not verify");
		goto fail;
	}
	if (truncated(&c, name, m)) {
		s = cap_fail(&c, dev, FIBER_ERROR_INVALID_SOURCE, "truncated");
		goto fail;
	}
	if (cb && (s = check_cubin(dev, name, cb, m)) != FIBER_SUCCESS) {
		cap_close(&c, dev);
		goto fail;
	}
	if ((s = check_arch(dev, name, m->sm ? m->sm : cb ? cb->sm : 0)) != FIBER_SUCCESS
	    || (s = rt_choose(dev, 80)) != FIBER_SUCCESS) {
		cap_close(&c, dev);
		goto fail;
	}
	mod = xmalloc(sizeof *mod);
	memset(mod, 0, sizeof *mod);
	mod->sm = sim_module_load(dev->gpu, m, &c.d);
	if (!mod->sm && (mod->sm = load_runnable(dev, m, src, mod))) {
		/* the others run; the rejected kernels' messages wait for their lookup */
		fclose(c.mem);
		free(c.buf);
		cap_open(&c, src);
	}
	if (!mod->sm) {
		free(mod);
		if (c.d.nerr == 0)
			cap_error(&c, name, "the simulator cannot load it");
		s = FIBER_ERROR_INVALID_SOURCE;
		fflush(c.mem);
		if (c.buf && strstr(c.buf, "unsupported instruction"))
			s = FIBER_ERROR_UNSUPPORTED;
		s = cap_fail(&c, dev, s, "the simulator cannot load the module");
		goto fail;
	}
	cap_close(&c, dev);
	mod->dev = dev;
	mod->src = src;
	mod->m = m;
	collect(mod);
	mod->next = dev->mods;
	dev->mods = mod;
	rt_register(mod, RtModule);
	*out = mod;
	return FIBER_SUCCESS;
fail:
	module_free(m);
	src_free(src);
	return s;
}

static fiberStatus
load(fiberModule *out, fiberDevice dev, const void *data, size_t size, const char *name)
{
	Cubin cb;
	char *text;
	size_t len;
	fiberStatus s;
	Src *src;
	char *sname;

	if (size == 0)
		return rt_err(dev, FIBER_ERROR_INVALID_SOURCE, "'%s' is empty", name);
	if (size > MaxModuleBytes)
		return rt_err(dev, FIBER_ERROR_INVALID_SOURCE, "'%s' is larger than 1 GiB, the input limit",
		              name);
	rt_set_log(dev, NULL);
	if (!rt_is_elf(data, size))
		return load_text(out, dev, src_new(name, data, size), NULL, name);
	if ((s = rt_cubin_read(dev, name, data, size, &cb)) != FIBER_SUCCESS)
		return s;
	if ((s = rt_disassemble(dev, name, data, size, &text, &len)) != FIBER_SUCCESS) {
		rt_cubin_free(&cb);
		return s;
	}
	/* diagnostics name the listing the disassembler printed */
	sname = xmalloc(strlen(name) + 16);
	sprintf(sname, "%s(nvdisasm)", name);
	src = src_new(sname, text, len);
	free(sname);
	free(text);
	s = load_text(out, dev, src, &cb, name);
	rt_cubin_free(&cb);
	return s;
}

fiberStatus
fiberModuleLoadData(fiberModule *mod, fiberDevice dev, const void *data, size_t size,
                    const char *name)
{
	if (!rt_live(dev, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleLoadData: not a live device");
	if (!mod || !data)
		return rt_err(dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleLoadData: %s is NULL",
		              !mod ? "mod" : "data");
	*mod = NULL;
	return load(mod, dev, data, size, name ? name : "<memory>");
}

fiberStatus
fiberModuleLoadFile(fiberModule *mod, fiberDevice dev, const char *path)
{
	FILE *fp;
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	struct stat st;
	fiberStatus s;

	if (!rt_live(dev, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleLoadFile: not a live device");
	if (!mod || !path)
		return rt_err(dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleLoadFile: %s is NULL",
		              !mod ? "mod" : "path");
	*mod = NULL;
	if (!(fp = fopen(path, "rb")))
		return rt_err(dev, FIBER_ERROR_FILE_NOT_FOUND, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > MaxModuleBytes) {
		fclose(fp);
		return rt_err(dev, FIBER_ERROR_INVALID_SOURCE, "'%s' is larger than 1 GiB, the input limit",
		              path);
	}
	/* a pipe or device that is not a cubin is text: read no further than its first NUL byte,
	 * which the parser then reports (/dev/zero fails at once) */
	do {
		if (cap - len < 65536) {
			if (cap > MaxModuleBytes) {
				free(buf);
				fclose(fp);
				return rt_err(dev, FIBER_ERROR_INVALID_SOURCE, "'%s' is larger than 1 GiB, the "
				              "input limit", path);
			}
			cap = cap ? 2 * cap : 65536;
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				fclose(fp);
				return rt_err(dev, FIBER_ERROR_OUT_OF_MEMORY, "out of memory reading '%s'", path);
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got > 0 && (rt_is_elf(buf, len) || !memchr(buf + len - got, 0, got)));
	if (ferror(fp)) {
		s = rt_err(dev, FIBER_ERROR_IO, "cannot read '%s': %s", path, strerror(errno));
		free(buf);
		fclose(fp);
		return s;
	}
	fclose(fp);
	s = load(mod, dev, buf, len, path);
	free(buf);
	return s;
}

fiberStatus
fiberModuleUnload(fiberModule mod)
{
	fiberDevice dev;

	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleUnload: not a loaded module");
	dev = mod->dev;
	for (struct fiberModule_st **p = &dev->mods; *p; p = &(*p)->next)
		if (*p == mod) {
			*p = mod->next;
			break;
		}
	for (uint32_t k = 0; k < mod->nfn; k++)
		rt_unregister(&mod->fn[k]);
	rt_unregister(mod);
	sim_module_free(mod->sm);
	module_free(mod->m);
	src_free(mod->src);
	free(mod->fn);
	rejected_free(mod);
	free(mod->sym);
	free(mod);
	return FIBER_SUCCESS;
}

fiberStatus
fiberModuleGetFunction(fiberFunction *fn, fiberModule mod, const char *name)
{
	char list[256];
	size_t n = 0;

	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberModuleGetFunction: not a loaded module");
	if (!fn || !name)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleGetFunction: %s is NULL",
		              !fn ? "fn" : "name");
	*fn = NULL;
	for (uint32_t k = 0; k < mod->nfn; k++)
		if (strcmp(mod->fn[k].name, name) == 0) {
			*fn = &mod->fn[k];
			return FIBER_SUCCESS;
		}
	for (uint32_t k = 0; k < mod->nrej; k++)
		if (strcmp(mod->rej[k].name, name) == 0) {
			rt_set_log(mod->dev, xstrdup(mod->rej[k].log));
			return rt_err(mod->dev, FIBER_ERROR_UNSUPPORTED, "%s", mod->rej[k].msg);
		}
	list[0] = 0;
	for (uint32_t k = 0; k < mod->nfn && n < sizeof list; k++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "", mod->fn[k].name);
	for (uint32_t k = 0; k < mod->nrej && n < sizeof list; k++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s (unsupported)", n ? ", " : "",
		                      mod->rej[k].name);
	if (module_fn(mod->m, name))
		return rt_err(mod->dev, FIBER_ERROR_NOT_FOUND, "'%s' in '%s' is not a kernel (kernels: %s)",
		              name, mod->src->name, list);
	return rt_err(mod->dev, FIBER_ERROR_NOT_FOUND, "no kernel named '%s' in '%s' (kernels: %s)",
	              name, mod->src->name, list);
}

fiberStatus
fiberModuleGetFunctionCount(fiberModule mod, unsigned *count)
{
	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE,
		              "fiberModuleGetFunctionCount: not a loaded module");
	if (!count)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberModuleGetFunctionCount: count is NULL");
	*count = mod->nfn;
	return FIBER_SUCCESS;
}

fiberStatus
fiberModuleGetFunctionName(fiberModule mod, unsigned k, const char **name)
{
	if (!rt_live(mod, RtModule))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE,
		              "fiberModuleGetFunctionName: not a loaded module");
	if (!name || k >= mod->nfn)
		return rt_err(mod->dev, FIBER_ERROR_INVALID_VALUE,
		              "fiberModuleGetFunctionName: %s", !name ? "name is NULL" : "index out of range");
	*name = mod->fn[k].name;
	return FIBER_SUCCESS;
}

fiberStatus
fiberFuncGetAttributes(fiberFunction fn, fiberFuncAttributes *a)
{
	const KInfo *ki;

	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberFuncGetAttributes: not a live function");
	if (!a)
		return rt_err(fn->mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberFuncGetAttributes: attr is NULL");
	ki = &fn->f->info;
	memset(a, 0, sizeof *a);
	a->has_param_info = fn->has_param_info;
	a->num_params = ki->nparam;
	a->param_size = fn->has_param_info ? fn->param_size : 0;
	a->num_regs = ki->regcount;
	a->shared_size = ki->shared_size > 0 ? (size_t)ki->shared_size : 0;
	a->local_size = ki->frame_size > 0 ? (size_t)ki->frame_size : 0;
	a->max_threads_per_block = (int)fn->mod->dev->cfg.max_threads_per_block;
	if (ki->max_threads[0] > 0) {
		long mt = (long)ki->max_threads[0] * (ki->max_threads[1] > 0 ? ki->max_threads[1] : 1)
		          * (ki->max_threads[2] > 0 ? ki->max_threads[2] : 1);
		if (mt < a->max_threads_per_block)
			a->max_threads_per_block = (int)mt;
	}
	a->arch = fn->mod->m->sm;
	return FIBER_SUCCESS;
}

fiberStatus
fiberFuncGetParamCount(fiberFunction fn, unsigned *count)
{
	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberFuncGetParamCount: not a live function");
	if (!count)
		return rt_err(fn->mod->dev, FIBER_ERROR_INVALID_VALUE, "fiberFuncGetParamCount: count is NULL");
	*count = 0;
	if (!fn->has_param_info)
		return rt_err(fn->mod->dev, FIBER_ERROR_NO_PARAM_INFO,
		              "kernel '%s' has no parameter layout ('%s' has no .nv.info)", fn->name,
		              fn->mod->src->name);
	*count = fn->f->info.nparam;
	return FIBER_SUCCESS;
}

fiberStatus
fiberFuncGetParamInfo(fiberFunction fn, unsigned index, size_t *offset, size_t *size)
{
	const KInfo *ki;

	if (!rt_live(fn, RtFunction))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberFuncGetParamInfo: not a live function");
	ki = &fn->f->info;
	if (!fn->has_param_info)
		return rt_err(fn->mod->dev, FIBER_ERROR_NO_PARAM_INFO,
		              "kernel '%s' has no parameter layout ('%s' has no .nv.info)", fn->name,
		              fn->mod->src->name);
	if (index >= ki->nparam)
		return rt_err(fn->mod->dev, FIBER_ERROR_INVALID_VALUE,
		              "kernel '%s' has %u parameter%s; there is no parameter %u", fn->name,
		              ki->nparam, ki->nparam == 1 ? "" : "s", index);
	if (offset)
		*offset = ki->param[index].offset;
	if (size)
		*size = ki->param[index].size;
	return FIBER_SUCCESS;
}
