/* cubin.c: cubins (CUDA ELF files). libelf validates the file and finds its kernels and their
 * parameter layouts (.symtab, .text.<k>, .nv.info.<k>); the instruction text comes from an
 * external disassembler run as `PROG -hex COPY.cubin` on a private temporary copy, with no shell
 * in between. PROG is $FIBER_NVDISASM (set but empty: none), else the configuration's nvdisasm
 * key, else nvdisasm on PATH, in $CUDA_HOME/bin or in /usr/local/cuda/bin. It runs in its own
 * process group and is killed (the group) after $FIBER_NVDISASM_TIMEOUT seconds (default 60,
 * 0: no limit); SIGINT, SIGTERM and SIGHUP while it runs kill it, remove the copy and are then
 * delivered as before.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <gelf.h>
#include <libelf.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef EM_CUDA
#define EM_CUDA 190
#endif

extern char **environ;

enum {
	StoCudaEntry = 0x10,       /* st_other bit of a kernel's symbol */
	EifmtNval = 1,             /* .nv.info attribute formats: no value */
	EifmtBval = 2,             /* a byte */
	EifmtHval = 3,             /* a 16-bit value */
	EifmtSval = 4,             /* a 16-bit size, then that many bytes */
	EiattrKparamInfo = 0x17,
	EiattrCbankParamSize = 0x19,
	MaxKernelName = 4096,
	DefaultTimeout = 60,       /* seconds the disassembler may run (FIBER_NVDISASM_TIMEOUT) */
};

int
rt_is_elf(const void *data, size_t size)
{
	return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

void
rt_cubin_free(Cubin *c)
{
	for (uint32_t k = 0; k < c->nk; k++) {
		free(c->k[k].name);
		free(c->k[k].param);
	}
	free(c->k);
	memset(c, 0, sizeof *c);
}

/* the parameters of one .nv.info.<k> section; -1 if the attributes do not tile the section.
 * Each attribute is FMT ATTR, then for EIFMT_BVAL one byte, for EIFMT_HVAL two, for EIFMT_SVAL a
 * 16-bit size and that many bytes; EIFMT_NVAL has none. Every attribute starts 4-aligned: an
 * NVAL is followed by two zero bytes and a BVAL by one (nvdisasm prints them as `.zero`). */
int
rt_nvinfo_read(const uint8_t *b, size_t n, CubinKernel *k)
{
	size_t at = 0;

	while (at < n) {
		unsigned fmt, attr, len;

		if (n - at < 2)
			return -1;
		fmt = b[at];
		attr = b[at + 1];
		at += 2;
		switch (fmt) {
		case EifmtNval: len = 0; break;
		case EifmtBval: len = 1; break;
		case EifmtHval: len = 2; break;
		case EifmtSval:
			if (n - at < 2)
				return -1;
			len = (unsigned)b[at] | (unsigned)b[at + 1] << 8;
			at += 2;
			break;
		default: return -1;
		}
		if (n - at < len)
			return -1;
		if (k && fmt == EifmtHval && attr == EiattrCbankParamSize)
			k->cbank_param_size = (int)(b[at] | b[at + 1] << 8);
		if (k && fmt == EifmtSval && attr == EiattrKparamInfo && len >= 12) {
			Param p;
			uint32_t j;

			p.ordinal = (uint32_t)b[at + 4] | (uint32_t)b[at + 5] << 8;
			p.offset = (uint32_t)b[at + 6] | (uint32_t)b[at + 7] << 8;
			p.flags = (uint32_t)b[at + 8] | (uint32_t)b[at + 9] << 8 | (uint32_t)b[at + 10] << 16
			          | (uint32_t)b[at + 11] << 24;
			p.size = p.flags >> 18 & 0x3fff;
			k->param = xrealloc(k->param, (k->nparam + 1) * sizeof *k->param);
			/* sorted by ordinal, as the front end keeps them */
			for (j = k->nparam; j > 0 && k->param[j - 1].ordinal > p.ordinal; j--)
				k->param[j] = k->param[j - 1];
			k->param[j] = p;
			k->nparam++;
		}
		at += len;
		for (; at % 4 && at < n; at++)
			if (b[at] != 0)
				return -1;
	}
	return 0;
}

/* the section's bytes, checked to lie inside the file */
static const uint8_t *
sec_bytes(const GElf_Shdr *sh, const uint8_t *file, size_t size)
{
	if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
		return NULL;
	return file + sh->sh_offset;
}

fiberStatus
rt_cubin_read(fiberDevice d, const char *name, const void *data, size_t size, Cubin *out)
{
	uint8_t *copy = xmalloc(size);
	Elf *e = NULL;
	GElf_Ehdr eh;
	size_t shstr, nsec;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, symsh;
	fiberStatus s = FIBER_SUCCESS;

	memset(out, 0, sizeof *out);
	memset(&symsh, 0, sizeof symsh);
	memcpy(copy, data, size);
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	if (!(e = elf_memory((char *)copy, size)) || elf_kind(e) != ELF_K_ELF) {
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s' is not a valid ELF file: %s", name,
		           elf_errmsg(-1));
		goto out;
	}
	if (gelf_getclass(e) != ELFCLASS64 || !gelf_getehdr(e, &eh)) {
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s' is not a 64-bit ELF file (truncated?)", name);
		goto out;
	}
	if (eh.e_machine != EM_CUDA) {
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s' is an ELF file for machine %u, not a CUDA "
		           "cubin (EM_CUDA, 190)", name, (unsigned)eh.e_machine);
		goto out;
	}
	out->sm = arch_sm_of_elf_flags(eh.e_flags);
	if (elf_getshdrstrndx(e, &shstr) != 0 || elf_getshdrnum(e, &nsec) != 0 || nsec == 0) {
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s': no readable section headers (truncated?): %s",
		           name, elf_errmsg(-1));
		goto out;
	}
	/* every section inside the file, named, and every .nv.info well formed */
	while ((scn = elf_nextscn(e, scn))) {
		const char *sname;
		const uint8_t *b;

		if (!gelf_getshdr(scn, &sh) || !(sname = elf_strptr(e, shstr, sh.sh_name))) {
			s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s': section %zu has a bad header or name",
			           name, elf_ndxscn(scn));
			goto out;
		}
		if (sh.sh_type != SHT_NOBITS && !sec_bytes(&sh, copy, size)) {
			s = rt_err(d, FIBER_ERROR_INVALID_SOURCE,
			           "'%s' is truncated: section '%.64s' ends at byte %llu of %zu", name, sname,
			           (unsigned long long)(sh.sh_offset + sh.sh_size), size);
			goto out;
		}
		if (sh.sh_type == SHT_SYMTAB) {
			symscn = scn;
			symsh = sh;
		}
		if (strncmp(sname, ".nv.info", 8) == 0 && (b = sec_bytes(&sh, copy, size))
		    && rt_nvinfo_read(b, sh.sh_size, NULL) < 0) {
			s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s': malformed attributes in '%.64s'", name,
			           sname);
			goto out;
		}
	}
	if (!symscn || symsh.sh_entsize != sizeof(Elf64_Sym)) {
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s' has no symbol table", name);
		goto out;
	}
	/* kernels: function symbols marked STO_CUDA_ENTRY, defined in .text.<name> */
	Elf_Data *sd = elf_getdata(symscn, NULL);
	for (size_t j = 1; j < symsh.sh_size / sizeof(Elf64_Sym); j++) {
		GElf_Sym sym;
		GElf_Shdr tsh;
		Elf_Scn *ts;
		const char *sn, *tn;
		CubinKernel *k;
		char info[MaxKernelName + 16];

		if (!sd || !gelf_getsym(sd, (int)j, &sym)) {
			s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s': unreadable symbol table", name);
			goto out;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !(sym.st_other & StoCudaEntry))
			continue;
		if (!(sn = elf_strptr(e, symsh.sh_link, sym.st_name)) || !*sn
		    || strlen(sn) > MaxKernelName || sym.st_shndx == SHN_UNDEF
		    || sym.st_shndx >= SHN_LORESERVE || !(ts = elf_getscn(e, sym.st_shndx))
		    || !gelf_getshdr(ts, &tsh) || !(tn = elf_strptr(e, shstr, tsh.sh_name))
		    || strncmp(tn, ".text.", 6) != 0 || strcmp(tn + 6, sn) != 0) {
			s = rt_err(d, FIBER_ERROR_INVALID_SOURCE,
			           "'%s': kernel symbol %zu is not defined in its own .text section", name, j);
			goto out;
		}
		out->k = xrealloc(out->k, (out->nk + 1) * sizeof *out->k);
		k = &out->k[out->nk++];
		memset(k, 0, sizeof *k);
		k->name = xstrdup(sn);
		k->cbank_param_size = -1;
		snprintf(info, sizeof info, ".nv.info.%s", sn);
		for (Elf_Scn *is = NULL; (is = elf_nextscn(e, is));) {
			GElf_Shdr ish;
			const char *in;
			const uint8_t *b;

			if (gelf_getshdr(is, &ish) && (in = elf_strptr(e, shstr, ish.sh_name))
			    && strcmp(in, info) == 0 && (b = sec_bytes(&ish, copy, size)))
				rt_nvinfo_read(b, ish.sh_size, k);
		}
	}
	if (out->nk == 0)
		s = rt_err(d, FIBER_ERROR_INVALID_SOURCE, "'%s' defines no kernel (no STO_CUDA_ENTRY "
		           "function symbol)", name);
out:
	if (e)
		elf_end(e);
	free(copy);
	if (s != FIBER_SUCCESS)
		rt_cubin_free(out);
	return s;
}

static int
executable(const char *path)
{
	return access(path, X_OK) == 0;
}

/* the disassembler to run, in buf; 0 if there is none (message in *why) */
static int
find_disassembler(fiberDevice d, char *buf, size_t n, const char **why)
{
	const char *env = getenv("FIBER_NVDISASM"), *path, *home;

	if (env) {
		*why = "FIBER_NVDISASM is set but empty";
		return *env && snprintf(buf, n, "%s", env) < (int)n;
	}
	if (d->nvdisasm[0])
		return snprintf(buf, n, "%s", d->nvdisasm) < (int)n;
	*why = "set FIBER_NVDISASM to the path of nvdisasm (none on PATH, in $CUDA_HOME/bin or in "
	       "/usr/local/cuda/bin)";
	for (path = getenv("PATH"); path && *path;) {
		size_t len = strcspn(path, ":");

		if (len > 0 && (size_t)snprintf(buf, n, "%.*s/nvdisasm", (int)len, path) < n
		    && executable(buf))
			return 1;
		path += len;
		path += *path == ':';
	}
	if ((home = getenv("CUDA_HOME")) && *home && (size_t)snprintf(buf, n, "%s/bin/nvdisasm", home) < n
	    && executable(buf))
		return 1;
	snprintf(buf, n, "/usr/local/cuda/bin/nvdisasm");
	return executable(buf);
}

/* FIBER_NVDISASM_TIMEOUT: seconds, 0 no limit; -1 if it is not a number of seconds */
static int
disasm_timeout(void)
{
	const char *env = getenv("FIBER_NVDISASM_TIMEOUT");
	char *end;
	long v;

	if (!env || !*env)
		return DefaultTimeout;
	errno = 0;
	v = strtol(env, &end, 10);
	if (errno || *end || v < 0 || v > 86400)
		return -1;
	return (int)v;
}

/* a signal that arrived while the disassembler ran */
static volatile sig_atomic_t caught;
static const int watched[] = {SIGINT, SIGTERM, SIGHUP};

static void
on_signal(int sig)
{
	caught = sig;
}

/* wait for pid, at most timeout seconds (0: no limit), or until a watched signal; the child's
 * process group is killed unless it exited. 0: it exited (status in *st); 1: timed out; 2: a
 * signal (in caught) */
static int
wait_child(pid_t pid, int timeout, int *st)
{
	struct timespec t0, now, nap = {0, 1000000};
	pid_t r;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		r = waitpid(pid, st, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return 0;
		if (caught || timeout > 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (caught || now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9 >= timeout) {
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				while (waitpid(pid, st, 0) < 0 && errno == EINTR)
					;
				return caught ? 2 : 1;
			}
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 20000000)
			nap.tv_nsec *= 2;
	}
}

/* the whole of a temporary file */
static char *
slurp(FILE *fp, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, got;

	*len = 0;
	rewind(fp);
	do {
		if (cap - *len < 65536)
			buf = xrealloc(buf, cap = cap ? 2 * cap : 65536);
		got = fread(buf + *len, 1, cap - *len - 1, fp);
		*len += got;
	} while (got > 0);
	buf[*len] = 0;
	return buf;
}

fiberStatus
rt_disassemble(fiberDevice d, const char *name, const void *data, size_t size, char **text,
               size_t *len)
{
	char prog[RtPathSize], in[RtPathSize], *err, *argv[4];
	const char *why = "", *tmp = getenv("TMPDIR");
	FILE *out = NULL, *errf = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	struct sigaction act, old[sizeof watched / sizeof watched[0]];
	pid_t pid;
	int fd, rc, st = 0, timeout = disasm_timeout(), waited, sig = 0;
	size_t elen;
	fiberStatus s = FIBER_SUCCESS;

	*text = NULL;
	*len = 0;
	if (timeout < 0)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "FIBER_NVDISASM_TIMEOUT='%.40s' is not a "
		              "number of seconds (0..86400)", getenv("FIBER_NVDISASM_TIMEOUT"));
	if (!find_disassembler(d, prog, sizeof prog, &why))
		return rt_err(d, FIBER_ERROR_NO_DISASSEMBLER, "'%s' is a cubin, and reading one needs a "
		              "disassembler: %s", name, why);
	/* from here to the end, a signal removes the copy before it takes effect */
	caught = 0;
	memset(&act, 0, sizeof act);
	act.sa_handler = on_signal;
	sigemptyset(&act.sa_mask);
	for (size_t k = 0; k < sizeof watched / sizeof watched[0]; k++)
		if (sigaction(watched[k], NULL, &old[k]) == 0 && old[k].sa_handler != SIG_IGN)
			sigaction(watched[k], &act, NULL);
	snprintf(in, sizeof in, "%s/fiber-XXXXXX.cubin", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemps(in, 6)) < 0) {
		in[0] = 0;
		s = rt_err(d, FIBER_ERROR_IO, "cannot create a temporary copy of '%s': %s", name,
		           strerror(errno));
		goto out;
	}
	for (size_t at = 0; at < size;) {
		ssize_t w = write(fd, (const char *)data + at, size - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s = rt_err(d, FIBER_ERROR_IO, "cannot write '%s': %s", in, strerror(errno));
			close(fd);
			goto out;
		}
		at += (size_t)w;
	}
	close(fd);
	if (!(out = tmpfile()) || !(errf = tmpfile())) {
		s = rt_err(d, FIBER_ERROR_IO, "cannot create a temporary file: %s", strerror(errno));
		goto out;
	}
	argv[0] = prog;
	argv[1] = (char *)"-hex";
	argv[2] = in;
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(errf), 2);
	posix_spawnattr_init(&sa);
	posix_spawnattr_setpgroup(&sa, 0);   /* its own group: a timeout kills what it started */
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP);
	rc = caught ? EINTR : posix_spawnp(&pid, prog, &fa, &sa, argv, environ); /* bare name: PATH */
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		s = rt_err(d, FIBER_ERROR_NO_DISASSEMBLER, "cannot run the disassembler '%s' for '%s': %s",
		           prog, name, strerror(rc));
		goto out;
	}
	waited = wait_child(pid, timeout, &st);
	if (waited == 1) {
		s = rt_err(d, FIBER_ERROR_DISASSEMBLER_FAILED, "'%s -hex' did not finish within %d s on "
		           "'%s' and was killed (FIBER_NVDISASM_TIMEOUT sets the limit)", prog, timeout, name);
		goto out;
	}
	if (waited == 2) {
		s = rt_err(d, FIBER_ERROR_DISASSEMBLER_FAILED, "interrupted by signal %d while '%s -hex' "
		           "ran on '%s'", (int)caught, prog, name);
		goto out;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		err = slurp(errf, &elen);
		err[strcspn(err, "\n")] = 0;
		if (WIFEXITED(st))
			s = rt_err(d, FIBER_ERROR_DISASSEMBLER_FAILED, "'%s -hex' failed on '%s' (exit status "
			           "%d)%s%.200s", prog, name, WEXITSTATUS(st), *err ? ": " : "", err);
		else
			s = rt_err(d, FIBER_ERROR_DISASSEMBLER_FAILED, "'%s -hex' was killed by signal %d on '%s'",
			           prog, WTERMSIG(st), name);
		free(err);
		goto out;
	}
	*text = slurp(out, len);
	if (*len == 0) {
		free(*text);
		*text = NULL;
		s = rt_err(d, FIBER_ERROR_DISASSEMBLER_FAILED, "'%s -hex' printed nothing for '%s'", prog, name);
	}
out:
	if (in[0])
		unlink(in);
	if (out)
		fclose(out);
	if (errf)
		fclose(errf);
	sig = caught;
	for (size_t k = 0; k < sizeof watched / sizeof watched[0]; k++)
		sigaction(watched[k], &old[k], NULL);
	if (sig)
		raise(sig);        /* what it would have done, now that the copy is gone */
	return s;
}
