/* config.c: a device's configuration: a built-in one (a100, h100, b200: configs/NAME.cfg), a
 * configuration file, and single keys set later (fiberDeviceSetConfigValue, fibersim --set).
 * timing/config.c parses and validates every key (docs/sim-config.md); the runtime adds one key of
 * its own, `nvdisasm`, the disassembler for cubins, and keeps the name in d->name.
 */
#include "rt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MaxConfigBytes = 1 << 20 };

/* d->cfg = c, with the name kept in d->name */
static void
take(fiberDevice d, const SimConfig *c)
{
	if (c->name != d->name)
		snprintf(d->name, sizeof d->name, "%s", c->name);
	d->cfg = *c;
	d->cfg.name = d->name;
}

void
rt_config_builtin(fiberDevice d, int sm)
{
	SimConfig c;

	simcfg_builtin(&c, arch_code(sm)->device->config);
	take(d, &c);
}

/* the runtime's own key in text: nvdisasm */
static fiberStatus
runtime_keys(fiberDevice d, const char *name, const char *text, size_t n)
{
	uint32_t line = simcfg_find(text, n, "nvdisasm", d->nvdisasm, sizeof d->nvdisasm);

	if (line && strlen(d->nvdisasm) >= sizeof d->nvdisasm - 1)
		return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s:%u: error: 'nvdisasm' path too long",
		              name, line);
	return FIBER_SUCCESS;
}

fiberStatus
rt_config_text(fiberDevice d, const char *name, const char *text, size_t n)
{
	SimConfig c;
	char err[RtMsgSize];

	if (n > MaxConfigBytes || memchr(text, 0, n))
		return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "'%s' is not a configuration file (binary "
		              "or over 1 MiB)", name);
	if (simcfg_parse(&c, name, text, n, err, sizeof err) < 0)
		return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG, "%s", err);
	take(d, &c);
	return runtime_keys(d, name, text, n);
}

fiberStatus
rt_config(fiberDevice d, const char *config)
{
	SimConfig c;
	FILE *fp;
	char *text;
	size_t n;
	fiberStatus s;

	if (simcfg_builtin(&c, config) == 0) {
		take(d, &c);
		return FIBER_SUCCESS;
	}
	if (!(fp = fopen(config, "rb"))) {
		if (!strchr(config, '/') && !strchr(config, '.'))
			return rt_err(NULL, FIBER_ERROR_INVALID_CONFIG,
			              "unknown configuration '%s' (a100, h100, b200, or a configuration file)",
			              config);
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

/* One key. An auto device has no configuration until its first module chooses one: `arch`
 * chooses it now, other keys wait for that choice. Once modules are loaded, the architecture they
 * were decoded for stays. The simulated device (d->gpu) holds its own copy of the configuration,
 * which follows d->cfg. */
fiberStatus
fiberDeviceSetConfigValue(fiberDevice d, const char *key_value)
{
	SimConfig c;
	char err[RtMsgSize];
	size_t kn;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetConfigValue: not a live device");
	if (!key_value)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetConfigValue: key_value is NULL");
	kn = strspn(key_value, " \t");
	key_value += kn;
	kn = strcspn(key_value, " \t=");
	if (kn == strlen("nvdisasm") && strncmp(key_value, "nvdisasm", kn) == 0) {
		char path[RtPathSize] = "";
		simcfg_find(key_value, strlen(key_value), "nvdisasm", path, sizeof path);
		if (!path[0] || strlen(path) >= sizeof path - 1)
			return rt_err(d, FIBER_ERROR_INVALID_CONFIG, "--set: error: 'nvdisasm' needs a path "
			              "of 1 to %d bytes", (int)sizeof path - 2);
		memcpy(d->nvdisasm, path, sizeof path);
		return FIBER_SUCCESS;
	}
	c = d->cfg;
	if (!d->chosen)
		c.sm = 80;                 /* the provisional a100 of an auto device */
	if (simcfg_set(&c, key_value, err, sizeof err) < 0)
		return rt_err(d, FIBER_ERROR_INVALID_CONFIG, "%s", err);
	if (!d->chosen) {
		if (kn != strlen("arch") || strncmp(key_value, "arch", kn) != 0)
			return rt_err(d, FIBER_ERROR_INVALID_CONFIG, "--set: error: '%.*s' on an auto device: "
			              "its first module chooses the configuration (set arch, or load a "
			              "module, first)", (int)kn, key_value);
		return rt_choose(d, c.sm);
	}
	if (c.sm != d->cfg.sm && d->mods)
		return rt_err(d, FIBER_ERROR_INVALID_CONFIG, "--set: error: 'arch' cannot change to "
		              "sm_%d: a module for sm_%d is loaded", c.sm, d->cfg.sm);
	take(d, &c);
	if (d->gpu)
		gpu_set_config(d->gpu, simcfg_gpu(&d->cfg));
	return FIBER_SUCCESS;
}
