/* device.c: devices, the handle registry, error messages, statistics and the simulation
 * settings (mode, threads, sampling).
 *
 * Handles are pointers, but no call dereferences one before the registry has confirmed that it
 * is live and of the right kind, so a NULL, destroyed or mistyped handle is an error
 * (FIBER_ERROR_INVALID_HANDLE), not a crash. The registry is the runtime's one global: a small
 * array behind a mutex.
 */
#include "rt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Live {
	const void *h;             /* handle */
	int kind;                  /* RtKind */
} Live;

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static Live *live;             /* registered handles */
static uint32_t nlive, clive;

/* the last failure of this thread, for fiberGetLastErrorMessage(NULL) */
static _Thread_local char thread_msg[RtMsgSize];

int
rt_live(const void *h, int kind)
{
	int found = 0;

	if (!h)
		return 0;
	pthread_mutex_lock(&live_lock);
	for (uint32_t k = nlive; k-- > 0 && !found;)
		found = live[k].h == h && live[k].kind == kind;
	pthread_mutex_unlock(&live_lock);
	return found;
}

void
rt_register(const void *h, int kind)
{
	pthread_mutex_lock(&live_lock);
	vgrow(&live, &clive, nlive + 1, sizeof *live);
	live[nlive].h = h;
	live[nlive].kind = kind;
	nlive++;
	pthread_mutex_unlock(&live_lock);
}

void
rt_unregister(const void *h)
{
	pthread_mutex_lock(&live_lock);
	for (uint32_t k = 0; k < nlive; k++)
		if (live[k].h == h) {
			live[k] = live[--nlive];
			break;
		}
	if (nlive == 0) {
		free(live);
		live = NULL;
		clive = 0;
	}
	pthread_mutex_unlock(&live_lock);
}

fiberStatus
rt_err(fiberDevice d, fiberStatus s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(thread_msg, sizeof thread_msg, fmt, ap);
	va_end(ap);
	/* one line: a newline inside a file name or a diagnostic would break that */
	for (char *p = thread_msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	if (d)
		memcpy(d->msg, thread_msg, sizeof d->msg);
	return s;
}

void
rt_set_log(fiberDevice d, char *log)
{
	free(d->log);
	d->log = log;
}

fiberStatus
rt_choose(fiberDevice d, int sm)
{
	if (d->chosen)
		return FIBER_SUCCESS;
	rt_config_builtin(d, sm);
	if (!(d->gpu = gpu_new(simcfg_gpu(&d->cfg))))
		return rt_err(d, FIBER_ERROR_OUT_OF_MEMORY, "cannot create a '%s' device", d->name);
	gpu_set_init_track(d->gpu, (d->checks & SimCheckInit) != 0);   /* fiberDeviceSetChecks */
	d->chosen = 1;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceCreate(fiberDevice *dev, const char *config)
{
	fiberDevice d;
	fiberStatus s;

	if (!dev)
		return rt_err(NULL, FIBER_ERROR_INVALID_VALUE, "fiberDeviceCreate: dev is NULL");
	*dev = NULL;
	d = xmalloc(sizeof *d);
	d->mode = FIBER_MODE_TIMING;
	d->threads = 1;
	if (!config || strcmp(config, "auto") == 0) {
		rt_config_builtin(d, 80);      /* provisional, for fiberDeviceGetProperties */
		d->cfg.sm = 0;
	} else {
		if ((s = rt_config(d, config)) != FIBER_SUCCESS) {
			free(d);
			return s;
		}
		if (!(d->gpu = gpu_new(simcfg_gpu(&d->cfg)))) {
			free(d);
			return rt_err(NULL, FIBER_ERROR_OUT_OF_MEMORY, "cannot create a '%s' device", config);
		}
		d->chosen = 1;
	}
	rt_register(d, RtDevice);
	*dev = d;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceDestroy(fiberDevice d)
{
	char msg[RtMsgSize];
	fiberStatus s;

	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceDestroy: not a live device");
	s = rt_trace_finish(d);
	memcpy(msg, d->msg, sizeof msg);
	while (d->mods)
		fiberModuleUnload(d->mods);
	rt_unregister(d);
	if (d->gpu)
		gpu_free(d->gpu);
	rt_launches_free(d);
	free(d->log);
	free(d);
	/* the device is gone, but a trace that could not be written is still an error */
	return s == FIBER_SUCCESS ? s : rt_err(NULL, s, "%s", msg);
}

fiberStatus
fiberDeviceSetMode(fiberDevice d, fiberSimMode mode)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetMode: not a live device");
	if (mode != FIBER_MODE_TIMING && mode != FIBER_MODE_FUNCTIONAL)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetMode: %d is not a mode "
		              "(FIBER_MODE_TIMING or FIBER_MODE_FUNCTIONAL)", (int)mode);
	d->mode = mode;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceSetProgress(fiberDevice d, fiberProgressFn fn, void *arg)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetProgress: not a live device");
	d->progress = fn;
	d->progress_arg = arg;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceSetThreads(fiberDevice d, unsigned n)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetThreads: not a live device");
	if (n == 0 || n > RtMaxThreads)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetThreads: %u threads (1 to %d)",
		              n, RtMaxThreads);
	d->threads = n;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceSetVerify(fiberDevice d, int on)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetVerify: not a live device");
	d->noverify = !on;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceSetSampling(fiberDevice d, unsigned sms, unsigned ctas)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceSetSampling: not a live device");
	if (sms > RtMaxSampleSms)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetSampling: %u SMs (0: all, "
		              "or 1 to %d)", sms, RtMaxSampleSms);
	if (ctas > INT32_MAX)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceSetSampling: %u CTAs (0: all, "
		              "or 1 to %d)", ctas, INT32_MAX);
	d->sample_sms = sms;
	d->sample_ctas = ctas;
	return FIBER_SUCCESS;
}

fiberStatus
fiberDeviceGetProperties(fiberDevice d, fiberDeviceProps *p)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberDeviceGetProperties: not a live device");
	if (!p)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberDeviceGetProperties: props is NULL");
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", d->chosen ? d->name : "auto");
	p->arch = d->chosen ? d->cfg.sm : 0;
	p->sm_count = d->cfg.nsm;
	p->max_threads_per_block = d->cfg.max_threads_per_block;
	p->max_shared_per_block = d->cfg.max_smem_per_block;
	p->watchdog = d->cfg.watchdog;
	p->clock_mhz = d->cfg.t.clock_mhz;
	return FIBER_SUCCESS;
}

fiberStatus
fiberGetStats(fiberDevice d, fiberStats *st)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberGetStats: not a live device");
	if (!st)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetStats: stats is NULL");
	*st = d->stats;
	return FIBER_SUCCESS;
}

fiberStatus
fiberGetLastFault(fiberDevice d, fiberFault *f)
{
	if (!rt_live(d, RtDevice))
		return rt_err(NULL, FIBER_ERROR_INVALID_HANDLE, "fiberGetLastFault: not a live device");
	if (!f)
		return rt_err(d, FIBER_ERROR_INVALID_VALUE, "fiberGetLastFault: fault is NULL");
	memset(f, 0, sizeof *f);
	f->kind = d->fault.kind;
	f->name = d->fault.kind == FaultNone ? "no fault" : sim_fault_name(d->fault.kind);
	snprintf(f->message, sizeof f->message, "%s", d->fault.msg);
	return FIBER_SUCCESS;
}

const char *
fiberGetLastErrorMessage(fiberDevice d)
{
	if (d && rt_live(d, RtDevice))
		return d->msg;
	return thread_msg;
}

const char *
fiberGetLastErrorLog(fiberDevice d)
{
	if (d && rt_live(d, RtDevice) && d->log)
		return d->log;
	return "";
}

const char *
fiberGetVersion(void)
{
	return FIBER_VERSION;
}

static const struct {
	const char *name;          /* enumerator */
	const char *text;          /* fiberGetErrorString */
} status_text[] = {
	[FIBER_SUCCESS] = {"FIBER_SUCCESS", "no error"},
	[FIBER_ERROR_INVALID_VALUE] = {"FIBER_ERROR_INVALID_VALUE", "invalid value"},
	[FIBER_ERROR_INVALID_HANDLE] = {"FIBER_ERROR_INVALID_HANDLE", "invalid handle"},
	[FIBER_ERROR_INVALID_CONFIG] = {"FIBER_ERROR_INVALID_CONFIG", "invalid device configuration"},
	[FIBER_ERROR_FILE_NOT_FOUND] = {"FIBER_ERROR_FILE_NOT_FOUND", "file not found"},
	[FIBER_ERROR_INVALID_SOURCE] = {"FIBER_ERROR_INVALID_SOURCE", "invalid module source"},
	[FIBER_ERROR_UNSUPPORTED] = {"FIBER_ERROR_UNSUPPORTED", "not supported by the simulator"},
	[FIBER_ERROR_NO_DISASSEMBLER] = {"FIBER_ERROR_NO_DISASSEMBLER", "no disassembler for a cubin"},
	[FIBER_ERROR_DISASSEMBLER_FAILED] = {"FIBER_ERROR_DISASSEMBLER_FAILED", "the disassembler failed"},
	[FIBER_ERROR_NOT_FOUND] = {"FIBER_ERROR_NOT_FOUND", "named symbol not found"},
	[FIBER_ERROR_NO_PARAM_INFO] = {"FIBER_ERROR_NO_PARAM_INFO", "no parameter information"},
	[FIBER_ERROR_OUT_OF_MEMORY] = {"FIBER_ERROR_OUT_OF_MEMORY", "out of memory"},
	[FIBER_ERROR_INVALID_ADDRESS] = {"FIBER_ERROR_INVALID_ADDRESS", "invalid device address"},
	[FIBER_ERROR_LAUNCH_FAILED] = {"FIBER_ERROR_LAUNCH_FAILED", "kernel launch failed"},
	[FIBER_ERROR_IO] = {"FIBER_ERROR_IO", "input/output error"},
};

const char *
fiberGetErrorString(fiberStatus s)
{
	if ((unsigned)s < sizeof status_text / sizeof status_text[0] && status_text[s].text)
		return status_text[s].text;
	return "unknown status";
}

const char *
fiberGetErrorName(fiberStatus s)
{
	if ((unsigned)s < sizeof status_text / sizeof status_text[0] && status_text[s].name)
		return status_text[s].name;
	return "FIBER_ERROR_UNKNOWN";
}
