/* devcall.c: the CUDA device runtime's routines that nvcc's code calls through a relocated
 * address: __assertfail (a failed assert()) and vprintf (printf()). The loader resolves their
 * names (`.dword __assertfail` in .nv.constant4, gpu.c) to addresses in a window where no kernel
 * has code (SimDevcallBase); a CALL.ABS to one (exec_ctrl.c: an indirect transfer that lands on
 * no instruction of the kernel) runs the routine here for the calling lanes, in lane order, and
 * they go on after the CALL. The arguments are where the CUDA ABI puts them: R4, R5, ... (a
 * 64-bit one in an even pair), the result in R4. The text is kept per launch (DevOut, one per
 * device, locked: SMs simulated in parallel call it) and sorted by (cycle, SM, instruction,
 * lane) when taken, so it is the same for any number of host threads; the runtime prints it at
 * the end of the launch, as the CUDA driver prints the printf FIFO at the next synchronisation.
 */
#include "sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

enum {
	DevRoutineAssert,      /* __assertfail(message, file, line, function, charSize) */
	DevRoutinePrintf,      /* vprintf(format, args): printf's packed argument buffer */
	NDevRoutine,
	DevStrMax = 4096,      /* bytes of a device string read at most */
	DevPrintfArgs = 32,    /* printf's arguments beyond the format (CUDA: at most 32) */
	DevOutHardCap = 64 << 20, /* bytes kept per launch at most (the FIFO keeps 1 MiB of them) */
};

static const char *const routine_name[NDevRoutine] = {
	[DevRoutineAssert] = "__assertfail",
	[DevRoutinePrintf] = "vprintf",
};

/* one piece of device output */
typedef struct DevRec {
	uint64_t cycle;        /* Exec.now when written (0 in functional mode) */
	uint64_t seq;          /* Exec.ninstr: the SM's instruction count, then the lane */
	uint32_t sm;           /* Exec.smid */
	uint32_t stream;       /* DevOutPrintf or DevOutAssert */
	char *text;            /* owned, NUL-terminated */
	size_t len;
} DevRec;

struct DevOut {
	mtx_t lock;            /* SMs simulated in parallel write here */
	DevRec *rec;           /* this launch's output, in the order written */
	uint32_t nrec, crec;
	uint64_t bytes;        /* text kept */
	uint64_t dropped;      /* bytes over DevOutHardCap, not kept */
};

int
sim_devcall_addr(const char *name, uint64_t *addr)
{
	for (unsigned k = 0; k < NDevRoutine; k++)
		if (strcmp(name, routine_name[k]) == 0) {
			*addr = SimDevcallBase + 16u * k;
			return 0;
		}
	return -1;
}

static DevOut *
devout(Gpu *g)
{
	if (!g->devout) {
		DevOut *o = xmalloc(sizeof *o);
		memset(o, 0, sizeof *o);
		if (mtx_init(&o->lock, mtx_plain) != thrd_success)
			die("devcall: mtx_init failed");
		g->devout = o;
	}
	return g->devout;
}

void
sim_devout_free(Gpu *g)
{
	DevOut *o = g->devout;

	if (!o)
		return;
	for (uint32_t k = 0; k < o->nrec; k++)
		free(o->rec[k].text);
	free(o->rec);
	mtx_destroy(&o->lock);
	free(o);
	g->devout = NULL;
}

static void
emit(Exec *x, unsigned stream, unsigned lane, const char *text, size_t len)
{
	DevOut *o = devout(x->gpu);
	DevRec *r;

	mtx_lock(&o->lock);
	if (o->bytes + len > DevOutHardCap) {
		o->dropped += len;
		mtx_unlock(&o->lock);
		return;
	}
	vgrow(&o->rec, &o->crec, o->nrec + 1, sizeof *o->rec);
	r = &o->rec[o->nrec++];
	r->cycle = x->now;
	r->seq = x->ninstr * WarpSize + lane;
	r->sm = x->smid;
	r->stream = stream;
	r->text = xmalloc(len + 1);
	memcpy(r->text, text, len);
	r->text[len] = 0;
	r->len = len;
	o->bytes += len;
	mtx_unlock(&o->lock);
}

static int
rec_cmp(const void *a, const void *b)
{
	const DevRec *p = a, *q = b;

	if (p->cycle != q->cycle)
		return p->cycle < q->cycle ? -1 : 1;
	if (p->sm != q->sm)
		return p->sm < q->sm ? -1 : 1;
	if (p->seq != q->seq)
		return p->seq < q->seq ? -1 : 1;
	return 0;
}

/* The launch's output of one stream, sorted, as one malloc'd string (NULL if none); a FIFO of
 * fifo bytes keeps the newest output (CUDA: "older output is overwritten"), *lost says how much
 * was not kept. The stream's records are removed; DevOutAssert is never cut. */
char *
sim_devout_take(Gpu *g, int stream, size_t fifo, uint64_t *lost)
{
	DevOut *o = g->devout;
	uint64_t total = 0, skip = 0;
	uint32_t keep = 0;
	char *s, *p;

	*lost = 0;
	if (!o || !o->nrec)
		return NULL;
	qsort(o->rec, o->nrec, sizeof *o->rec, rec_cmp);
	for (uint32_t k = 0; k < o->nrec; k++)
		if (o->rec[k].stream == (uint32_t)stream)
			total += o->rec[k].len;
	if (stream == DevOutPrintf) {
		*lost = o->dropped;
		o->dropped = 0;
	}
	if (!total)
		return NULL;
	if (stream == DevOutPrintf && fifo && total > fifo)
		skip = total - fifo;
	p = s = xmalloc((size_t)(total - skip) + 1);
	for (uint32_t k = 0; k < o->nrec; k++) {
		DevRec *r = &o->rec[k];
		if (r->stream != (uint32_t)stream) {
			o->rec[keep++] = *r;
			continue;
		}
		if (skip >= r->len) {        /* overwritten in the FIFO */
			skip -= r->len;
			*lost += r->len;
		} else {
			memcpy(p, r->text + skip, r->len - skip);
			p += r->len - skip;
			*lost += skip;
			skip = 0;
		}
		o->bytes -= r->len;
		free(r->text);
	}
	o->nrec = keep;
	*p = 0;
	return s;
}

/* ---------------------------------------------------------------------------------------------
 * Reading the caller's arguments.
 */

/* register r of lane (ABI: R4 is the first argument), 0 and a fault if the kernel has none */
static int
arg_reg(Exec *x, unsigned r, unsigned lane, uint32_t *v)
{
	if (r >= x->w->nreg) {
		sim_fault(x, FaultIllegalInstr, lane, "a call of the device runtime passes its arguments "
		          "in R%u, which the kernel's %u registers do not reach", r, x->w->nreg);
		return -1;
	}
	*v = x->sm->rf[x->w->rbase + r][lane];
	return 0;
}

static int
arg64(Exec *x, unsigned r, unsigned lane, uint64_t *v)
{
	uint32_t lo, hi;

	if (arg_reg(x, r, lane, &lo) < 0 || arg_reg(x, r + 1, lane, &hi) < 0)
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

/* the NUL-terminated string at generic address a, at most DevStrMax - 1 bytes ("" for NULL, as
 * "(null)" would be the host's); -1 after a fault (an address outside memory) */
static int
dev_string(Exec *x, uint64_t a, unsigned lane, char *buf)
{
	size_t n = 0;

	if (!a) {
		strcpy(buf, "(null)");
		return 0;
	}
	for (; n < DevStrMax - 1; n++) {
		const uint8_t *p = sim_generic(x, a + n, 1, lane, 0);
		if (!p)
			return -1;
		if (!(buf[n] = (char)*p))
			return 0;
	}
	buf[n] = 0;
	return 0;
}

/* n bytes of the argument buffer at generic address a + off */
static int
dev_bytes(Exec *x, uint64_t a, uint64_t off, unsigned n, unsigned lane, uint64_t *v)
{
	const uint8_t *p = sim_generic(x, a + off, n, lane, 0);

	*v = 0;
	if (!p)
		return -1;
	memcpy(v, p, n);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * printf.
 */
typedef struct Out {
	char *buf;             /* the line being formatted */
	size_t n, cap;
} Out;

static void
out_add(Out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf)
			die("out of memory");
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
	o->buf[o->n] = 0;
}

static void
out_fmt(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
out_fmt(Out *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		out_add(o, tmp, (size_t)n);
		return;
	}
	{
		char *big = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		out_add(o, big, (size_t)n);
		free(big);
	}
}

/* One conversion %[flags][width][.precision][length]conv of the format at *pp (moved past it),
 * its spec copied (without length) into spec (at least 32 bytes); the argument's size in the
 * packed buffer (4 or 8; 0 for %%, -1 for a conversion with no device form, or a width or
 * precision past 9999, printed as written). A `*` width or precision is an int argument before
 * the value, as in C: *star counts them. */
static int
conv_spec(const char **pp, char *spec, char *conv, int *star)
{
	const char *p = *pp + 1;
	size_t k = 0;
	int lng = 0, sz, d;

	spec[k++] = '%';
	*star = 0;
	*conv = 0;
	for (d = 0; *p && strchr("-+ #0", *p); p++)
		if (d++ < 5)
			spec[k++] = *p;
	for (int part = 0; part < 2; part++) {
		if (part == 1) {
			if (*p != '.')
				break;
			spec[k++] = *p++;
		}
		if (*p == '*') {
			spec[k++] = *p++;
			(*star)++;
			continue;
		}
		for (d = 0; *p >= '0' && *p <= '9'; d++, p++)
			if (d < 4)
				spec[k++] = *p;
		if (d > 4) {
			*pp = p;
			return -1;
		}
	}
	while (*p && strchr("hlLqjzt", *p)) {
		if (*p != 'h')
			lng = 1;
		p++;
	}
	*pp = *p ? p + 1 : p;
	*conv = *p;
	switch (*p) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		sz = lng ? 8 : 4;
		if (lng) {
			spec[k++] = 'l';
			spec[k++] = 'l';
		}
		break;
	case 'c':
		sz = 4;
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
	case 's': case 'p':
		sz = 8;
		break;
	case '%':
		return 0;
	default:
		return -1;
	}
	spec[k++] = *p;
	spec[k] = 0;
	return sz;
}

/* one lane's printf: the text into o, the number of arguments (CUDA's result) or -1 after a
 * fault */
static int
do_printf(Exec *x, unsigned lane, Out *o)
{
	char *fmt = xmalloc(DevStrMax), *str = xmalloc(DevStrMax), spec[64], conv;
	uint64_t fa, args, off = 0, v;
	const char *p;
	int nargs = 0, rc = -1;

	if (arg64(x, 4, lane, &fa) < 0 || arg64(x, 6, lane, &args) < 0)
		goto out;
	if (!fa) {
		rc = -1;
		goto out;
	}
	if (dev_string(x, fa, lane, fmt) < 0)
		goto out;
	for (p = fmt; *p;) {
		const char *start = p;
		int sz, star, w[2] = {0, 0};
		if (*p != '%') {
			p += strcspn(p, "%");
			out_add(o, start, (size_t)(p - start));
			continue;
		}
		sz = conv_spec(&p, spec, &conv, &star);
		if (sz == 0) {
			out_add(o, "%", 1);
			continue;
		}
		if (sz < 0 || nargs + star >= DevPrintfArgs) {  /* printed as written */
			out_add(o, start, (size_t)(p - start));
			continue;
		}
		for (int s = 0; s < star; s++) {
			off = (off + 3) & ~(uint64_t)3;
			if (dev_bytes(x, args, off, 4, lane, &v) < 0)
				goto out;
			w[s] = (int)(int32_t)v;
			if (w[s] > 9999 || w[s] < -9999)   /* as a written width past 9999 */
				w[s] = w[s] < 0 ? -9999 : 9999;
			off += 4;
			nargs++;
		}
		off = (off + (uint64_t)sz - 1) & ~(uint64_t)(sz - 1);
		if (dev_bytes(x, args, off, (unsigned)sz, lane, &v) < 0)
			goto out;
		off += (uint64_t)sz;
		nargs++;
		if (conv == 's') {
			if (dev_string(x, v, lane, str) < 0)
				goto out;
		}
#define PR(val) do { \
		if (star == 2) out_fmt(o, spec, w[0], w[1], val); \
		else if (star == 1) out_fmt(o, spec, w[0], val); \
		else out_fmt(o, spec, val); } while (0)
		switch (conv) {
		case 's': PR(str); break;
		case 'p': PR((void *)(uintptr_t)v); break;
		case 'c': PR((int)(int32_t)v); break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
			double dv;
			memcpy(&dv, &v, sizeof dv);
			PR(dv);
			break;
		}
		default:
			if (sz == 8)
				PR((long long)v);
			else
				PR((int)(int32_t)v);
			break;
		}
#undef PR
	}
	rc = nargs;
out:
	free(fmt);
	free(str);
	return x->fault->kind != FaultNone ? -2 : rc;
}

static void
call_printf(Exec *x, uint32_t lanes)
{
	Out o = {0};

	for (uint32_t m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		int rc;
		o.n = 0;
		rc = do_printf(x, l, &o);
		if (rc == -2)
			break;
		if (o.n)
			emit(x, DevOutPrintf, l, o.buf, o.n);
		if (x->w->nreg > 4)
			x->sm->rf[x->w->rbase + 4][l] = (uint32_t)rc;
	}
	free(o.buf);
}

/* ---------------------------------------------------------------------------------------------
 * assert.
 */

/* every calling lane prints CUDA's line; then the launch ends with a device-side assert */
static void
call_assert(Exec *x, uint32_t lanes)
{
	char *msg = xmalloc(DevStrMax), *file = xmalloc(DevStrMax), *fn = xmalloc(DevStrMax);
	char first[600] = "";
	unsigned n = 0, lane0 = (unsigned)__builtin_ctz(lanes);
	Out o = {0};

	for (uint32_t m = lanes; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t pm, pf, pfn;
		uint32_t line;
		const Cta *c = x->cta;
		const Warp *w = x->w;
		if (arg64(x, 4, l, &pm) < 0 || arg64(x, 6, l, &pf) < 0 || arg_reg(x, 8, l, &line) < 0 ||
		    arg64(x, 10, l, &pfn) < 0 || dev_string(x, pm, l, msg) < 0 ||
		    dev_string(x, pf, l, file) < 0 || dev_string(x, pfn, l, fn) < 0)
			goto out;
		o.n = 0;
		out_fmt(&o, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
		        file, line, fn, c->ctaid[0], c->ctaid[1], c->ctaid[2], w->tid[l][0],
		        w->tid[l][1], w->tid[l][2], msg);
		emit(x, DevOutAssert, l, o.buf, o.n);
		if (!n++)
			snprintf(first, sizeof first, "%s:%u: %s: Assertion `%s` failed", file, line, fn, msg);
	}
	sim_fault(x, FaultAssert, lane0, "%s%s", first,
	          n > 1 ? " (and in the warp's other calling threads)" : "");
out:
	free(o.buf);
	free(msg);
	free(file);
	free(fn);
}

int
sim_devcall(Exec *x, uint64_t addr, uint32_t lanes)
{
	uint64_t k = (addr - SimDevcallBase) / 16;

	if (addr < SimDevcallBase || addr % 16 || k >= NDevRoutine)
		return 0;
	switch (k) {
	case DevRoutineAssert: call_assert(x, lanes); break;
	case DevRoutinePrintf: call_printf(x, lanes); break;
	}
	return 1;
}
