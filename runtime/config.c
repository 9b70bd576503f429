/* config.c: device configurations: the built-in a100 (sm_80) and h100 (sm_90), and text files of
 * `key = value` lines (`#` starts a comment) that start from a built-in one and override keys:
 *
 *	base = a100                   # built-in starting point: a100 or h100 (default: from arch)
 *	name = my-a100                # reported name
 *	arch = sm_80                  # SASS executed: sm_80 or sm_90
 *	sms = 108                     # streaming multiprocessors
 *	max_threads_per_block = 1024
 *	max_shared_per_block = 166912 # bytes, static plus dynamic
 *	watchdog = 100000000          # warp instructions per launch before a watchdog fault
 *	nvdisasm = /usr/local/cuda/bin/nvdisasm   # disassembler for cubins
 *
 * Unknown keys, repeated keys and out-of-range values are errors that name the file and line.
 */
#include "rt.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MaxConfigBytes = 1 << 20 };

/* a key and what it may hold */
static const struct {
	const char *key;           /* as written */
	uint64_t lo, hi;           /* range of an integer key; lo > hi: a string */
} keys[] = {
	{"base", 1, 0},
	{"name", 1, 0},
	{"arch", 1, 0},
	{"sms", 1, 1024},
	{"max_threads_per_block", 1, 1024},
	{"max_shared_per_block", 0, 1u << 20},
	{"watchdog", 1, UINT64_MAX / 2},
	{"nvdisasm", 1, 0},
};
enum { NKeys = sizeof keys / sizeof keys[0] };

void
rt_config_builtin(fiberDevice d, int sm)
{
	simconfig_default(&d->cfg, sm);
	snprintf(d->name, sizeof d->name, "%s", sm == 90 ? "h100" : "a100");
	d->cfg.name = d->name;
	d->cfg.sm = sm;
}

static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int
arch_of(const char *s)
{
	return strcmp(s, "sm_80") == 0 ? 80 : strcmp(s, "sm_90") == 0 ? 90 : 0;
}

/* the value of each key, or NULL; line numbers for messages */
typedef struct Lines {
	char *val[NKeys];          /* points into the file's text */
	uint32_t line[NKeys];      /* 1-based line of each key */
} Lines;

static fiberStatus
split(const char *path, char *text, Lines *ls)
{
	uint32_t lineno = 0;
	char *p = text;

	memset(ls, 0, sizeof *ls);
	while (*p) {
		char *eol = strchr(p, '\n'), *key, *val, *end;
		size_t kn;
		int k;

		if (eol)
			*eol = 0;
		lineno++;
		if ((end = strchr(p, '#')))
			*end = 0;
		end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = 0;
		key = p + strspn(p, " \t\r");
		p = eol ? eol + 1 : end;
		if (!*key)
			continue;
		kn = strcspn(key, " \t=");
		val = key + kn;
		val += strspn(val, " \t");
		if (*val == '=')
			val++;
		val += strspn(val, " \t");
		key[kn] = 0;
		for (k = 0; k < NKeys && strcmp(keys[k].key, key) != 0; k++)
			;
		if (k == NKeys)
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG,
			              "%s:%u: unknown key '%.64s' (base, name, arch, sms, "
			              "max_threads_per_block, max_shared_per_block, watchdog, nvdisasm)",
			              path, lineno, key);
		if (ls->val[k])
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: '%s' repeated (first at line %u)",
			              path, lineno, key, ls->line[k]);
		if (!*val)
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: '%s' needs a value", path,
			              lineno, key);
		ls->val[k] = val;
		ls->line[k] = lineno;
	}
	return FIBER_SUCCESS;
}

static fiberStatus
apply(fiberDevice d, const char *path, const Lines *ls)
{
	int sm = 80;
	uint64_t v[NKeys] = {0};

	for (int k = 0; k < NKeys; k++) {
		if (!ls->val[k] || keys[k].lo > keys[k].hi)
			continue;
		if (parse_u64(ls->val[k], &v[k]) < 0 || v[k] < keys[k].lo || v[k] > keys[k].hi)
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG,
			              "%s:%u: '%s' must be an integer from %llu to %llu, not '%.64s'", path,
			              ls->line[k], keys[k].key, (unsigned long long)keys[k].lo,
			              (unsigned long long)keys[k].hi, ls->val[k]);
	}
	if (ls->val[2] && !(sm = arch_of(ls->val[2])))
		return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: arch must be sm_80 or sm_90, not '%.64s'",
		              path, ls->line[2], ls->val[2]);
	if (ls->val[0]) {
		int base = strcmp(ls->val[0], "a100") == 0 ? 80 : strcmp(ls->val[0], "h100") == 0 ? 90 : 0;
		if (!base)
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: base must be a100 or h100, not '%.64s'",
			              path, ls->line[0], ls->val[0]);
		rt_config_builtin(d, base);
		if (ls->val[2])
			d->cfg.sm = sm;
	} else {
		rt_config_builtin(d, sm);
	}
	if (ls->val[1]) {
		const char *n = ls->val[1];
		static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+";
		if (strlen(n) >= sizeof d->name || n[strspn(n, ok)])
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG,
			              "%s:%u: name must be at most %d letters, digits or _.-+", path, ls->line[1],
			              (int)sizeof d->name - 1);
		snprintf(d->name, sizeof d->name, "%s", n);
	}
	if (ls->val[3])
		d->cfg.nsm = (int)v[3];
	if (ls->val[4])
		d->cfg.max_threads_per_block = (uint32_t)v[4];
	if (ls->val[5])
		d->cfg.max_smem_per_block = (uint32_t)v[5];
	if (ls->val[6])
		d->cfg.watchdog = v[6];
	if (ls->val[7]) {
		if (strlen(ls->val[7]) >= sizeof d->nvdisasm)
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: nvdisasm path too long", path,
			              ls->line[7]);
		snprintf(d->nvdisasm, sizeof d->nvdisasm, "%s", ls->val[7]);
	}
	return FIBER_SUCCESS;
}

fiberStatus
rt_config_text(fiberDevice d, const char *name, const char *text, size_t n)
{
	char *copy;
	Lines ls;
	fiberStatus s;

	if (n > MaxConfigBytes || memchr(text, 0, n))
		return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "'%s' is not a configuration file (binary "
		              "or over 1 MiB)", name);
	copy = xmalloc(n + 1);
	memcpy(copy, text, n);
	copy[n] = 0;
	rt_config_builtin(d, 80);
	if ((s = split(name, copy, &ls)) == FIBER_SUCCESS)
		s = apply(d, name, &ls);
	free(copy);
	return s;
}

fiberStatus
rt_config(fiberDevice d, const char *config)
{
	FILE *fp;
	char *text;
	size_t n;
	fiberStatus s;

	if (strcmp(config, "a100") == 0 || strcmp(config, "h100") == 0) {
		rt_config_builtin(d, config[0] == 'h' ? 90 : 80);
		return FIBER_SUCCESS;
	}
	if (!(fp = fopen(config, "rb"))) {
		if (!strchr(config, '/') && !strchr(config, '.'))
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG,
			              "unknown configuration '%s' (a100, h100, or a configuration file)", config);
		return rt_err(NULL, FIBER_ERROR_FILE_NOT_FOUND, "cannot open configuration '%s': %s", config,
		              strerror(errno));
	}
	text = xmalloc(MaxConfigBytes + 1);
	n = fread(text, 1, MaxConfigBytes + 1, fp);
	if (ferror(fp))
		s = rt_err(NULL, FIBER_ERROR_IO, "cannot read configuration '%s': %s", config,
		           strerror(errno));
	else
		s = rt_config_text(d, config, text, n);
	free(text);
	fclose(fp);
	return s;
}
