/* check_ptx_mem.c: the memory family of PTX instruction selection (backend/isel/ptxsel_mem.c,
 * ptxsel_atom.c, ptxsel_async.c): the SASS each form lowers to (the text of --emit=isel, against
 * what ptxas writes for the same PTX), kernels run on the simulator on sm_80 and sm_90 with
 * hand-computed results, and located errors for the forms that are not selected.
 *
 * The kernels run through tests/ptxrun.h (fiberc, then the runtime). While the register allocator
 * is not in fiberc (`unknown pass 'sched'`/`'regalloc'`), a stand-in gives each virtual register
 * a register of its own (pin_regs below; the kernels are small) and ctrl-bits does the rest.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptx.h"
#include "ptxlow.h"
#include "ptxrun.h"

#define HEAD ".version 8.5\n.target sm_80\n.address_size 64\n"

/* ---- lowering in the process ---------------------------------------------------------------- */

/* the lowered text of ptx for sm (malloc'd), or NULL with the messages in err */
static char *
lower(const char *ptx, int sm, char *err, size_t nerr)
{
	char *msg = NULL;
	size_t nmsg = 0;
	FILE *f = open_memstream(&msg, &nmsg);
	Src *src = src_new("t.ptx", ptx, strlen(ptx));
	Diag d;
	char *out = NULL;

	diag_init(&d, src, f);
	Ptx *p = ptx_parse(src, &d);
	if (p) {
		Src *low = ptx_lower(p, sm, &d);
		if (low) {
			out = strdup(low->text);
			src_free(low);
		}
		ptx_free(p);
	}
	fclose(f);
	snprintf(err, nerr, "%s", msg ? msg : "");
	free(msg);
	src_free(src);
	return out;
}

/* the text with runs of blanks made one space */
static void
squeeze(char *s)
{
	char *o = s;
	int sp = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			sp = 1;
			continue;
		}
		if (sp)
			*o++ = ' ';
		sp = 0;
		*o++ = *s;
	}
	*o = 0;
}

/* a kernel around body with registers of every kind, shared and local variables */
static char *
kernel(const char *body, int sm)
{
	static const char fmt[] =
	    ".version 8.5\n.target sm_%d\n.address_size 64\n"
	    ".const .align 4 .b8 cst[16];\n"
	    ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u32 k_param_2)\n"
	    "{\n"
	    "\t.reg .pred %%p<8>;\n\t.reg .b16 %%rs<16>;\n\t.reg .b32 %%r<32>;\n\t.reg .f32 %%f<16>;\n"
	    "\t.reg .b64 %%rd<32>;\n\t.reg .f64 %%fd<8>;\n\t.reg .b128 %%q<4>;\n"
	    "\t.shared .align 16 .b8 sm[1024];\n"
	    "\t.local .align 8 .b8 __local_depot0[40];\n"
	    "\t.reg .b64 %%SP, %%SPL;\n"
	    "%s\n"
	    "\tret;\n"
	    "}\n";
	size_t n = sizeof fmt + strlen(body) + 16;
	char *s = malloc(n);

	snprintf(s, n, fmt, sm, body);
	return s;
}

/* the lowered text of body in the kernel, blanks squeezed; fails the test on an error */
static char *
isel_of(const char *body, int sm)
{
	char err[4096], *k = kernel(body, sm), *t = lower(k, sm, err, sizeof err);

	free(k);
	ck_assert_msg(t != NULL, "lowering failed:\n%s", err);
	squeeze(t);
	return t;
}

/* each of the lines in want (separated by '\n') appears in text, in this order */
static void
expect_lines(const char *text, const char *want, const char *what)
{
	const char *at = text;
	char line[256];

	while (*want) {
		size_t n = strcspn(want, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, want);
		want += n + (want[n] == '\n');
		const char *hit = strstr(at, line);
		ck_assert_msg(hit != NULL, "%s: '%s' not found (in order) in:\n%s", what, line,
		              strstr(text, ".text.k:") ? strstr(text, ".text.k:") : text);
		at = hit + strlen(line);
	}
}

static void
expect_isel(const char *body, int sm, const char *want)
{
	char *t = isel_of(body, sm);

	expect_lines(t, want, body);
	free(t);
}

/* lowering body fails with a located error whose message contains msg */
static void
expect_error(const char *body, const char *msg)
{
	char err[4096], *k = kernel(body, 80), *t = lower(k, 80, err, sizeof err);

	free(k);
	ck_assert_msg(t == NULL, "'%s' was lowered", body);
	ck_assert_msg(strstr(err, "t.ptx:") && strstr(err, ": error: ") && strstr(err, "is not supported yet"),
	              "not a located error: %s", err);
	ck_assert_msg(strstr(err, msg) != NULL, "'%s' not in: %s", msg, err);
}

/* ---- running kernels -------------------------------------------------------------------------
 * pin_regs: the stand-in for the register allocator while fiberc has none: each `.vreg` gets
 * registers of its own from R2 on (tuples aligned), each `.vpred` a predicate from P0 on, and the
 * register count goes into EIATTR_REGCOUNT and SHI_REGISTERS. NULL when they do not fit. */
typedef struct Pin {
	char name[64];
	int reg;           /* first register, or predicate number */
	int pred;
	int first, last;   /* lines of the first and last mention (predicates) */
} Pin;

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '$';
}

/* the pin named by the token at s (length *m), or -1 */
static int
pin_find(const Pin *pin, int npin, const char *s, size_t *m)
{
	size_t n = 1;

	while (name_char(s[n]))
		n++;
	*m = n;
	for (int j = 0; j < npin; j++)
		if (strlen(pin[j].name) == n && !strncmp(pin[j].name, s, n))
			return j;
	return -1;
}

/* predicates by interval colouring over the lines, each interval widened over the loops it
 * overlaps (a label and a later branch to it); -1 if more than P0..P6 are needed */
static int
colour_preds(const char *text, Pin *pin, int npin)
{
	int nl = 0, loops[256][2], nloop = 0;
	char labels[256][32];
	int lline[256], nlab = 0;

	for (int j = 0; j < npin; j++)
		pin[j].first = pin[j].last = -1;
	for (const char *l = text; *l; nl++) {
		size_t n = strcspn(l, "\n");
		const char *s = l + strspn(l, " \t");
		if (!strncmp(s, ".vreg", 5) || !strncmp(s, ".vpred", 6)) {
			l += n + (l[n] == '\n');
			continue;
		}
		if (n > 1 && l[n - 1] == ':' && l[0] == '.' && nlab < 256) {
			snprintf(labels[nlab], sizeof labels[nlab], "%.*s", (int)(n - 1), l);
			lline[nlab++] = nl;
		}
		const char *br = strstr(l, "BRA `(");
		if (br && br < l + n) {
			size_t m = strcspn(br + 6, ")");
			for (int k = 0; k < nlab; k++)
				if (strlen(labels[k]) == m && !strncmp(labels[k], br + 6, m) && nloop < 256) {
					loops[nloop][0] = lline[k];
					loops[nloop++][1] = nl;
				}
		}
		for (size_t k = 0; k < n; k++) {
			size_t m;
			if (l[k] != '%')
				continue;
			int j = pin_find(pin, npin, l + k, &m);
			if (j >= 0 && pin[j].pred) {
				if (pin[j].first < 0)
					pin[j].first = nl;
				pin[j].last = nl;
			}
			k += m - 1;
		}
		l += n + (l[n] == '\n');
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int j = 0; j < npin; j++)
			for (int k = 0; k < nloop; k++) {
				Pin *p = &pin[j];
				if (!p->pred || p->first < 0 || p->first > loops[k][1] || p->last < loops[k][0])
					continue;
				if (p->first > loops[k][0] || p->last < loops[k][1]) {
					p->first = p->first < loops[k][0] ? p->first : loops[k][0];
					p->last = p->last > loops[k][1] ? p->last : loops[k][1];
					changed = 1;
				}
			}
	}
	int busy[7];
	for (int c = 0; c < 7; c++)
		busy[c] = -1;
	for (int line = 0; line < nl; line++)
		for (int j = 0; j < npin; j++) {
			Pin *p = &pin[j];
			if (!p->pred || p->first != line)
				continue;
			int c = 0;
			while (c < 7 && busy[c] >= line)
				c++;
			if (c == 7)
				return -1;
			busy[c] = p->last;
			p->reg = c;
		}
	return 0;
}

static char *
pin_regs(const char *text)
{
	Pin *pin = NULL;
	int npin = 0, cpin = 0, next = 2;
	size_t len = strlen(text), cap = len * 2 + 1024, o = 0;
	char *out = malloc(cap);

	/* the declarations */
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		const char *s = l + strspn(l, " \t");
		int pred = !strncmp(s, ".vpred", 6);
		if (strncmp(s, ".vreg", 5) && !pred)
			continue;
		s += pred ? 6 : 5;
		while (*s && *s != '\n') {
			s += strspn(s, " \t,");
			if (*s != '%')
				break;
			size_t n = strcspn(s, ",[ \t\n");
			int size = 1;
			if (s[n] == '[')
				size = atoi(s + n + 1);
			if (npin == cpin) {
				cpin = cpin ? 2 * cpin : 64;
				pin = realloc(pin, (size_t)cpin * sizeof *pin);
			}
			Pin *p = &pin[npin++];
			snprintf(p->name, sizeof p->name, "%.*s", (int)n, s);
			p->pred = pred;
			if (!pred) {
				next = (next + size - 1) / size * size;
				p->reg = next;
				next += size;
			}
			s += n;
			if (*s == '[')
				s += strcspn(s, "]") + 1;
		}
	}
	if (next > 254 || colour_preds(text, pin, npin) < 0) {
		free(pin);
		free(out);
		return NULL;
	}
	/* the text: declarations dropped, names replaced, the register count set */
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		const char *s = l + strspn(l, " \t");
		if (!strncmp(s, ".vreg", 5) || !strncmp(s, ".vpred", 6)) {
			l += n + (l[n] == '\n');
			continue;
		}
		if (o + n * 2 + 64 > cap) {
			cap = cap * 2 + n * 2;
			out = realloc(out, cap);
		}
		size_t start = o;
		for (size_t k = 0; k < n; k++) {
			size_t m;
			int hit = l[k] == '%' ? pin_find(pin, npin, l + k, &m) : -1;
			if (hit < 0) {
				out[o++] = l[k];
				continue;
			}
			int r = pin[hit].reg;
			size_t e = k + m;
			if (l[e] == '[' && !pin[hit].pred) {
				r += atoi(l + e + 1);
				e += strcspn(l + e, "]") + 1;
			}
			o += (size_t)sprintf(out + o, "%c%d", pin[hit].pred ? 'P' : 'R', r);
			k = e - 1;
		}
		out[o] = 0;
		char *at = strstr(out + start, "SHI_REGISTERS=0");
		if (at) {
			char tail[64];
			snprintf(tail, sizeof tail, "%s", at + 15);
			o = (size_t)(at - out) + (size_t)sprintf(at, "SHI_REGISTERS=%d%s", next, tail);
		}
		out[o++] = '\n';
		l += n + (l[n] == '\n');
	}
	out[o] = 0;
	/* EIATTR_REGCOUNT: the second word after each header */
	for (char *a = strstr(out, "EIATTR_REGCOUNT"); a; a = strstr(a + 1, "EIATTR_REGCOUNT")) {
		char *w1 = strstr(a, ".word\tindex@");
		char *w2 = w1 ? strstr(w1 + 1, ".word\t0x00000000") : NULL;
		if (w2) {
			char num[16];
			snprintf(num, sizeof num, "0x%08x", next);
			memcpy(w2 + 6, num, 10);
		}
	}
	free(pin);
	return out;
}

/* compile and run ptx's kernel k on arch with the arguments; the allocator's stand-in when
 * fiberc has no allocator. 0, or -1 with r->err */
static int
run(const char *ptx, const char *arch, PrRun *r, PrArg *a, unsigned n)
{
	int rc;

	r->arch = arch;
	rc = pr_run(ptx, "k", r, a, n);
	if (rc == 0 || !strstr(r->err, "unknown pass"))
		return rc;
	/* the stand-in: the lowered text, pinned, through cfg and ctrl-bits */
	char dir[] = "/tmp/ptxmemXXXXXX", pinned[64], script[64], err[3000];
	const char *fiberc = getenv("FIBERC") ? getenv("FIBERC") : "build/bin/fiberc";
	char *low = lower(ptx, !strcmp(arch, "sm_90") ? 90 : 80, err, sizeof err);
	char *pt = low ? pin_regs(low) : NULL;
	char absfc[1024];
	FILE *f;

	if (!pt && low && getenv("FIBER_KEEP_PIN")) {
		FILE *g = fopen("/tmp/ptxmem-unpinned.vfsass", "w");
		fputs(low, g);
		fclose(g);
	}
	free(low);
	if (!pt) {
		snprintf(r->err, sizeof r->err, "stand-in allocation failed: %s", err);
		return -1;
	}
	if (!mkdtemp(dir)) {
		free(pt);
		return -1;
	}
	snprintf(pinned, sizeof pinned, "%s/k.sass", dir);
	snprintf(script, sizeof script, "%s/fc.sh", dir);
	f = fopen(pinned, "w");
	fputs(pt, f);
	fclose(f);
	free(pt);
	if (fiberc[0] == '/')
		snprintf(absfc, sizeof absfc, "%s", fiberc);
	else if (getcwd(absfc, sizeof absfc - 64))
		snprintf(absfc + strlen(absfc), sizeof absfc - strlen(absfc), "/%s", fiberc);
	f = fopen(script, "w");
	fprintf(f, "#!/bin/sh\nshift\nexec %s %s --passes=cfg,ctrl-bits \"$@\"\n", absfc, pinned);
	fclose(f);
	chmod(script, 0755);
	char *old = getenv("FIBERC") ? strdup(getenv("FIBERC")) : NULL;
	setenv("FIBERC", script, 1);
	rc = pr_run(ptx, "k", r, a, n);
	if (old)
		setenv("FIBERC", old, 1);
	else
		unsetenv("FIBERC");
	free(old);
	if (getenv("FIBER_KEEP_PIN") == NULL) {
		unlink(pinned);
		unlink(script);
		rmdir(dir);
	}
	return rc;
}

/* ptx with its `.target sm_80` made `.target <arch>` (malloc'd) */
static char *
retarget(const char *ptx, const char *arch)
{
	char *s = strdup(ptx), *t = strstr(s, ".target sm_80");

	if (t)
		memcpy(t + 8, arch, 5);
	return s;
}

static const char *const archs[] = { "sm_80", "sm_90" };

/* run the one-thread (or nthreads) kernel k(in, out) on archs[arch]; out has nout words */
static void
run_io(const char *ptx, int arch, unsigned nthreads, void *in, size_t nin, void *out, size_t nout)
{
	PrRun r = {0};
	PrArg a[2] = { { PrBuf, in, nin, 0, 0 }, { PrBuf, out, nout, 0, 0 } };
	char *p = retarget(ptx, archs[arch]);

	r.block[0] = nthreads;
	r.config = arch ? "h100" : "a100";
	r.mode = FIBER_MODE_FUNCTIONAL;
	int rc = run(p, archs[arch], &r, a, 2);
	free(p);
	ck_assert_msg(rc == 0, "%s: %s", archs[arch], r.err);
}

/* the same in timing mode: its hazard counter must stay 0 */
static void
run_io_timed(const char *ptx, int arch, unsigned nthreads, void *in, size_t nin, void *out, size_t nout)
{
	PrRun r = {0};
	PrArg a[2] = { { PrBuf, in, nin, 0, 0 }, { PrBuf, out, nout, 0, 0 } };
	char *p = retarget(ptx, archs[arch]);

	r.block[0] = nthreads;
	r.config = arch ? "h100" : "a100";
	r.mode = FIBER_MODE_TIMING;
	int rc = run(p, archs[arch], &r, a, 2);
	free(p);
	ck_assert_msg(rc == 0, "%s: %s", archs[arch], r.err);
	ck_assert_msg(r.hazards == 0, "%s: %llu hazards", archs[arch], (unsigned long long)r.hazards);
}

#define KHEAD HEAD \
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n" \
	"\t.reg .pred %p<8>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<40>;\n\t.reg .f32 %f<16>;\n" \
	"\t.reg .b64 %rd<40>;\n\t.reg .f64 %fd<8>;\n" \
	"\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n" \
	"\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
#define KTAIL "\tret;\n}\n"

static uint32_t
rd32(const uint8_t *b, unsigned off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return v;
}

/* ---- global loads and stores ---------------------------------------------------------------- */

static const char ldst_global[] = KHEAD
    "\tld.global.u8 %r1, [%rd3];\n"
    "\tld.global.s8 %r2, [%rd3+1];\n"
    "\tld.global.u16 %r3, [%rd3+2];\n"
    "\tld.global.s16 %r4, [%rd3+2];\n"
    "\tld.global.u32 %r5, [%rd3+4];\n"
    "\tld.global.s32 %rd5, [%rd3+4];\n"
    "\tld.global.u32 %rd6, [%rd3+4];\n"
    "\tld.global.u64 %rd7, [%rd3+8];\n"
    "\tld.global.nc.v2.u32 {%r6, %r7}, [%rd3+16];\n"
    "\tld.global.v4.u32 {%r8, %r9, _, %r11}, [%rd3+32];\n"
    "\tld.global.v2.u16 {%rs1, %rs2}, [%rd3+4];\n"
    "\tld.global.v4.s8 {%rs3, %rs4, %rs5, %rs6}, [%rd3];\n"
    "\tld.global.v2.u64 {%rd8, %rd9}, [%rd3+32];\n"
    "\tld.global.cg.f32 %f1, [%rd3+48];\n"
    "\tld.volatile.global.u32 %r12, [%rd3+52];\n"
    "\tld.global.nc.s16 %rs7, [%rd3+2];\n"
    "\tld.relaxed.gpu.global.u32 %r13, [%rd3+56];\n"
    "\tld.acquire.sys.global.v2.f32 {%f2, %f3}, [%rd3+56];\n"
    "\tld.global.L1::no_allocate.L2::128B.u32 %r14, [%rd3+60];\n"
    "\tst.global.u32 [%rd4], %r1;\n"
    "\tst.global.u32 [%rd4+4], %r2;\n"
    "\tst.global.u32 [%rd4+8], %r3;\n"
    "\tst.global.u32 [%rd4+12], %r4;\n"
    "\tst.global.u32 [%rd4+16], %r5;\n"
    "\tst.global.u64 [%rd4+24], %rd5;\n"
    "\tst.global.u64 [%rd4+32], %rd6;\n"
    "\tst.global.cs.u64 [%rd4+40], %rd7;\n"
    "\tst.global.v2.u32 [%rd4+48], {%r7, %r6};\n"
    "\tst.global.v4.u32 [%rd4+64], {%r11, %r9, %r8, 7};\n"
    "\tst.global.v2.u16 [%rd4+80], {%rs2, %rs1};\n"
    "\tst.global.v4.u8 [%rd4+84], {%rs6, %rs5, %rs4, %rs3};\n"
    "\tst.global.u16 [%rd4+88], %rs3;\n"
    "\tst.global.u16 [%rd4+90], %rs4;\n"
    "\tst.global.v2.u64 [%rd4+96], {%rd9, %rd8};\n"
    "\tst.global.wt.f32 [%rd4+112], %f1;\n"
    "\tst.release.gpu.global.u32 [%rd4+116], %r12;\n"
    "\tst.global.u8 [%rd4+120], %r5;\n"
    "\tst.global.u8 [%rd4+121], 0x1ff;\n"
    "\tst.global.u16 [%rd4+122], %rs7;\n"
    "\tst.relaxed.sys.global.u32 [%rd4+124], %r13;\n"
    "\tst.global.v2.f32 [%rd4+128], {%f3, %f2};\n"
    "\tst.global.L1::evict_last.u32 [%rd4+136], %r14;\n"
    "\tst.global.u32 [%rd4+140], 0;\n"
    "\tst.global.f32 [%rd4+144], 0f40490FDB;\n"
    "\tst.global.u64 [%rd4+152], 0x123456789abcdef0;\n"
    KTAIL;

START_TEST(test_run_ldst_global)
{
	uint8_t in[64], out[160];
	int32_t w;

	for (unsigned k = 0; k < sizeof in; k++)
		in[k] = (uint8_t)(k * 37 + 0x85);
	memset(out, 0xcc, sizeof out);
	run_io(ldst_global, _i, 1, in, sizeof in, out, sizeof out);
	ck_assert_uint_eq(rd32(out, 0), in[0]);
	ck_assert_uint_eq(rd32(out, 4), (uint32_t)(int32_t)(int8_t)in[1]);
	ck_assert_uint_eq(rd32(out, 8), in[2] | in[3] << 8);
	ck_assert_uint_eq(rd32(out, 12), (uint32_t)(int32_t)(int16_t)(in[2] | in[3] << 8));
	ck_assert_uint_eq(rd32(out, 16), rd32(in, 4));
	w = (int32_t)rd32(in, 4);
	/* s32 into a 64-bit register: sign-extended; u32: zero-extended */
	ck_assert(w < 0);
	ck_assert_uint_eq(rd32(out, 24), (uint32_t)w);
	ck_assert_uint_eq(rd32(out, 28), 0xffffffffu);
	ck_assert_uint_eq(rd32(out, 32), (uint32_t)w);
	ck_assert_uint_eq(rd32(out, 36), 0);
	ck_assert_int_eq(memcmp(out + 40, in + 8, 8), 0);
	ck_assert_uint_eq(rd32(out, 48), rd32(in, 20));
	ck_assert_uint_eq(rd32(out, 52), rd32(in, 16));
	ck_assert_uint_eq(rd32(out, 64), rd32(in, 44));
	ck_assert_uint_eq(rd32(out, 68), rd32(in, 36));
	ck_assert_uint_eq(rd32(out, 72), rd32(in, 32));
	ck_assert_uint_eq(rd32(out, 76), 7);
	ck_assert_uint_eq(rd32(out, 80), ((uint32_t)in[6] | (uint32_t)in[7] << 8 | (uint32_t)in[4] << 16 | (uint32_t)in[5] << 24));
	ck_assert_uint_eq(rd32(out, 84), ((uint32_t)in[3] | (uint32_t)in[2] << 8 | (uint32_t)in[1] << 16 | (uint32_t)in[0] << 24));
	/* s8 into a 16-bit register: sign-extended to 16 bits */
	ck_assert_uint_eq(rd32(out, 88), (uint32_t)(uint16_t)(int16_t)(int8_t)in[0] |
	                  (uint32_t)(uint16_t)(int16_t)(int8_t)in[1] << 16);
	ck_assert_int_eq(memcmp(out + 96, in + 40, 8), 0);
	ck_assert_int_eq(memcmp(out + 104, in + 32, 8), 0);
	ck_assert_int_eq(memcmp(out + 112, in + 48, 4), 0);
	ck_assert_uint_eq(rd32(out, 116), rd32(in, 52));
	ck_assert_uint_eq(out[120], in[4]);
	ck_assert_uint_eq(out[121], 0xff);
	ck_assert_uint_eq(out[122] | out[123] << 8, in[2] | in[3] << 8);
	ck_assert_uint_eq(rd32(out, 124), rd32(in, 56));
	ck_assert_uint_eq(rd32(out, 128), rd32(in, 60));
	ck_assert_uint_eq(rd32(out, 132), rd32(in, 56));
	ck_assert_uint_eq(rd32(out, 136), rd32(in, 60));
	ck_assert_uint_eq(rd32(out, 140), 0);
	ck_assert_uint_eq(rd32(out, 144), 0x40490fdbu);
	ck_assert_uint_eq(rd32(out, 152), 0x9abcdef0u);
	ck_assert_uint_eq(rd32(out, 156), 0x12345678u);
}
END_TEST

/* ---- shared, local and generic -------------------------------------------------------------- */

static const char spaces[] = KHEAD
    "\t.shared .align 16 .b8 sm[256];\n"
    "\t.local .align 16 .b8 __local_depot0[48];\n"
    "\t.reg .b64 %SP, %SPL;\n"
    "\tmov.u64 %SPL, __local_depot0;\n"
    "\tcvta.local.u64 %SP, %SPL;\n"
    "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd3];\n"
    /* shared by name, by a 32-bit register, by the low word of a 64-bit one */
    "\tst.shared.v4.u32 [sm+16], {%r1, %r2, %r3, %r4};\n"
    "\tmov.u32 %r5, sm;\n"
    "\tld.shared.u32 %r6, [%r5+20];\n"
    "\tst.shared.u16 [%r5+2], %r6;\n"
    "\tmov.u64 %rd5, sm;\n"
    "\tld.shared.v2.u32 {%r7, %r8}, [%rd5+24];\n"
    "\tst.volatile.shared.u32 [sm+40], %r8;\n"
    "\tld.shared.u16 %r9, [sm+2];\n"
    /* local through the depot register and by name */
    "\tst.local.v2.u32 [%SPL+8], {%r1, %r2};\n"
    "\tst.local.u32 [__local_depot0+32], %r3;\n"
    "\tld.local.u32 %r10, [%SPL+12];\n"
    "\tld.local.v2.u32 {%r11, %r12}, [__local_depot0+8];\n"
    /* generic: to local through %SP, to shared through cvta.shared, back with cvta.to */
    "\tld.u32 %r13, [%SP+32];\n"
    "\tst.u32 [%SP+36], %r4;\n"
    "\tld.local.u32 %r14, [%SPL+36];\n"
    "\tcvta.shared.u64 %rd6, %rd5;\n"
    "\tld.u32 %r15, [%rd6+28];\n"
    "\tst.u32 [%rd6+44], %r1;\n"
    "\tld.shared.u32 %r16, [sm+44];\n"
    "\tcvta.to.shared.u64 %rd7, %rd6;\n"
    "\tld.shared.u32 %r17, [%rd7+16];\n"
    "\tcvta.to.local.u64 %rd8, %SP;\n"
    "\tld.local.u32 %r18, [%rd8+8];\n"
    "\tcvta.shared.u64 %rd9, sm;\n"
    "\tld.u32 %r19, [%rd9+40];\n"
    "\tld.u32 %r20, [sm+20];\n"
    "\tisspacep.shared %p1, %rd6;\n"
    "\tisspacep.local %p2, %rd6;\n"
    "\tisspacep.global %p3, %rd4;\n"
    "\tisspacep.local %p4, %SP;\n"
    "\tst.global.v4.u32 [%rd4], {%r6, %r7, %r8, %r9};\n"
    "\tst.global.v4.u32 [%rd4+16], {%r10, %r11, %r12, %r13};\n"
    "\tst.global.v4.u32 [%rd4+32], {%r14, %r15, %r16, %r17};\n"
    "\tst.global.v2.u32 [%rd4+48], {%r18, %r19};\n"
    "\tst.global.u32 [%rd4+56], %r20;\n"
    "\tst.global.u32 [%rd4+60], 0;\n"
    "\t@%p1 st.global.u8 [%rd4+60], 1;\n"
    "\t@!%p2 st.global.u8 [%rd4+61], 1;\n"
    "\t@%p3 st.global.u8 [%rd4+62], 1;\n"
    "\t@%p4 st.global.u8 [%rd4+63], 1;\n"
    "\tprefetch.global.L2 [%rd3];\n"
    "\tprefetch.local.L1 [%SPL];\n"
    "\tprefetch.L1 [%rd4];\n"
    KTAIL;

START_TEST(test_run_spaces)
{
	uint32_t in[4] = { 0x11111111, 0x2222abcd, 0x33333333, 0x44444444 }, out[16];

	memset(out, 0xcc, sizeof out);
	run_io(spaces, _i, 1, in, sizeof in, out, sizeof out);
	ck_assert_uint_eq(out[0], in[1]);                 /* ld.shared [%r5+20] */
	ck_assert_uint_eq(out[1], in[2]);                 /* v2 [%rd5+24] */
	ck_assert_uint_eq(out[2], in[3]);
	ck_assert_uint_eq(out[3], 0xabcd);                /* the u16 stored at sm+2 */
	ck_assert_uint_eq(out[4], in[1]);                 /* local [%SPL+12] */
	ck_assert_uint_eq(out[5], in[0]);                 /* local by name */
	ck_assert_uint_eq(out[6], in[1]);
	ck_assert_uint_eq(out[7], in[2]);                 /* generic local read of depot+32 */
	ck_assert_uint_eq(out[8], in[3]);                 /* generic local write, local read */
	ck_assert_uint_eq(out[9], in[3]);                 /* generic shared read of sm+28 */
	ck_assert_uint_eq(out[10], in[0]);                /* generic shared write */
	ck_assert_uint_eq(out[11], in[0]);                /* cvta.to.shared */
	ck_assert_uint_eq(out[12], in[0]);                /* cvta.to.local */
	ck_assert_uint_eq(out[13], in[3]);                /* cvta.shared of the name, sm+40 */
	ck_assert_uint_eq(out[14], in[1]);                /* generic [sm+20] */
	ck_assert_uint_eq(out[15], 0x01010101u);          /* isspacep */
}
END_TEST

/* ---- atomics ------------------------------------------------------------------------------- */

/* one thread: each operation's old value and the word it leaves */
static const char atom_one[] = KHEAD
    "\t.shared .align 8 .b8 sm[128];\n"
    "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd3];\n"
    "\tld.global.v2.u64 {%rd5, %rd6}, [%rd3+16];\n"
    "\tld.global.f32 %f1, [%rd3+32];\n"
    "\tld.global.f64 %fd1, [%rd3+40];\n"
    "\tld.global.u32 %r5, [%rd3+48];\n"
    /* global: r1 = 7, r2 = -5, r3 = 0x0ff0, r4 = 100 */
    "\tatom.global.add.u32 %r10, [%rd4], %r1;\n"
    "\tatom.global.min.s32 %r11, [%rd4+4], %r2;\n"
    "\tatom.global.max.u32 %r12, [%rd4+8], %r2;\n"
    "\tatom.global.inc.u32 %r13, [%rd4+12], %r4;\n"
    "\tatom.global.dec.u32 %r14, [%rd4+16], %r4;\n"
    "\tatom.global.and.b32 %r15, [%rd4+20], %r3;\n"
    "\tatom.global.or.b32 %r16, [%rd4+24], %r3;\n"
    "\tatom.global.xor.b32 %r17, [%rd4+28], %r3;\n"
    "\tatom.global.exch.b32 %r18, [%rd4+32], %r1;\n"
    "\tatom.global.cas.b32 %r19, [%rd4+36], %r5, %r4;\n"
    "\tatom.global.cas.b32 %r20, [%rd4+40], 1, 2;\n"
    "\tatom.global.add.u64 %rd10, [%rd4+48], %rd5;\n"
    "\tatom.global.max.s64 %rd11, [%rd4+56], %rd6;\n"
    "\tatom.global.cas.b64 %rd12, [%rd4+64], %rd5, %rd6;\n"
    "\tatom.global.add.f32 %f2, [%rd4+72], %f1;\n"
    "\tatom.global.add.f64 %fd2, [%rd4+80], %fd1;\n"
    "\tatom.global.add.noftz.f16x2 %r21, [%rd4+88], 0x3c004000;\n"
    "\tred.global.add.u32 [%rd4+92], %r4;\n"
    "\tatom.global.add.u32 _, [%rd4+96], %r1;\n"
    "\tred.global.min.s64 [%rd4+104], %rd6;\n"
    "\tatom.acq_rel.gpu.global.exch.b64 %rd13, [%rd4+112], %rd6;\n"
    "\tatom.global.sys.add.u32 %r22, [%rd4+120], 1;\n"
    "\tatom.global.cta.add.f32 %f3, [%rd4+124], 0f3F800000;\n"
    /* generic on global */
    "\tatom.add.u32 %r23, [%rd2+128], %r4;\n"
    "\tatom.cas.b32 %r24, [%rd2+132], %r5, %r1;\n"
    "\tred.add.f32 [%rd2+136], %f1;\n"
    "\tatom.add.u64 %rd14, [%rd2+144], %rd5;\n"
    /* shared: natives and loops, then copied out */
    "\tst.shared.v4.u32 [sm], {%r1, %r2, %r3, %r4};\n"
    "\tst.shared.v2.u64 [sm+16], {%rd5, %rd6};\n"
    "\tst.shared.f32 [sm+32], %f1;\n"
    "\tst.shared.f64 [sm+40], %fd1;\n"
    "\tatom.shared.add.u32 %r25, [sm], %r4;\n"
    "\tatom.shared.min.s32 %r26, [sm+4], %r1;\n"
    "\tatom.shared.cas.b32 %r27, [sm+8], %r3, %r1;\n"
    "\tatom.shared.add.f32 %f4, [sm+32], %f1;\n"
    "\tatom.shared.add.u64 %rd15, [sm+16], %rd6;\n"
    "\tatom.shared.min.s64 %rd16, [sm+24], %rd5;\n"
    "\tatom.shared.max.u64 %rd17, [sm+24], %rd5;\n"
    "\tatom.shared.add.f64 %fd3, [sm+40], %fd1;\n"
    "\tatom.shared.exch.b64 %rd18, [sm+48], %rd5;\n"
    "\tred.shared.xor.b64 [sm+48], %rd6;\n"
    "\tred.shared.add.u32 [sm+12], 1;\n"
    "\tcvta.shared.u64 %rd19, sm;\n"
    "\tatom.add.u32 %r28, [%rd19+12], %r1;\n"
    "\tatom.add.f32 %f5, [%rd19+32], %f1;\n"
    "\tld.shared.v4.u32 {%r30, %r31, %r32, %r33}, [sm];\n"
    "\tst.global.v4.u32 [%rd4+160], {%r30, %r31, %r32, %r33};\n"
    "\tld.shared.v2.u64 {%rd20, %rd21}, [sm+16];\n"
    "\tst.global.v2.u64 [%rd4+176], {%rd20, %rd21};\n"
    "\tld.shared.v2.u32 {%r30, %r31}, [sm+32];\n"
    "\tst.global.v2.u32 [%rd4+192], {%r30, %r31};\n"
    "\tld.shared.u64 %rd20, [sm+40];\n"
    "\tld.shared.u64 %rd21, [sm+48];\n"
    "\tst.global.v2.u64 [%rd4+208], {%rd20, %rd21};\n"
    /* the old values */
    "\tst.global.v4.u32 [%rd4+256], {%r10, %r11, %r12, %r13};\n"
    "\tst.global.v4.u32 [%rd4+272], {%r14, %r15, %r16, %r17};\n"
    "\tst.global.v4.u32 [%rd4+288], {%r18, %r19, %r20, %r21};\n"
    "\tst.global.v2.u64 [%rd4+304], {%rd10, %rd11};\n"
    "\tst.global.v2.u64 [%rd4+320], {%rd12, %rd13};\n"
    "\tst.global.v2.f32 [%rd4+336], {%f2, %f3};\n"
    "\tst.global.f64 [%rd4+344], %fd2;\n"
    "\tst.global.v4.u32 [%rd4+352], {%r22, %r23, %r24, %r25};\n"
    "\tst.global.v2.u32 [%rd4+368], {%r26, %r27};\n"
    "\tst.global.v2.f32 [%rd4+376], {%f4, %f5};\n"
    "\tst.global.v2.u64 [%rd4+384], {%rd14, %rd15};\n"
    "\tst.global.v2.u64 [%rd4+400], {%rd16, %rd17};\n"
    "\tst.global.u64 [%rd4+416], %rd18;\n"
    "\tst.global.f64 [%rd4+424], %fd3;\n"
    "\tst.global.u32 [%rd4+432], %r28;\n"
    KTAIL;

static uint64_t
rd64(const uint8_t *b, unsigned off)
{
	uint64_t v;

	memcpy(&v, b + off, 8);
	return v;
}

static void
wr32(uint8_t *b, unsigned off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static void
wr64(uint8_t *b, unsigned off, uint64_t v)
{
	memcpy(b + off, &v, 8);
}

static float
f32_at(const uint8_t *b, unsigned off)
{
	float f;

	memcpy(&f, b + off, 4);
	return f;
}

static double
f64_at(const uint8_t *b, unsigned off)
{
	double d;

	memcpy(&d, b + off, 8);
	return d;
}

START_TEST(test_run_atomics)
{
	uint8_t in[56] = {0}, out[448];
	const uint64_t a5 = 0x00000001fffffff0ull, a6 = 0xfffffffffffffff0ull;  /* rd5, rd6 (-16) */

	wr32(in, 0, 7);
	wr32(in, 4, (uint32_t)-5);
	wr32(in, 8, 0x0ff0);
	wr32(in, 12, 100);
	wr64(in, 16, a5);
	wr64(in, 24, a6);
	memcpy(in + 32, &(float){ 1.5f }, 4);
	memcpy(in + 40, &(double){ 0.25 }, 8);
	wr32(in, 48, 0x1234);
	memset(out, 0, sizeof out);
	wr32(out, 0, 10);
	wr32(out, 4, 3);
	wr32(out, 8, 3);
	wr32(out, 12, 100);                 /* inc: 100 >= 100 -> 0 */
	wr32(out, 16, 0);                   /* dec: 0 -> 100 */
	wr32(out, 20, 0xffff);
	wr32(out, 24, 0x000f);
	wr32(out, 28, 0x00ff);
	wr32(out, 32, 0xdead);
	wr32(out, 36, 0x1234);              /* cas: equal -> 100 */
	wr32(out, 40, 5);                   /* cas 1, 2: unequal */
	wr64(out, 48, 0x00000000ffffffffull);
	wr64(out, 56, (uint64_t)-100);
	wr64(out, 64, a5);
	memcpy(out + 72, &(float){ 2.0f }, 4);
	memcpy(out + 80, &(double){ 1.0 }, 8);
	wr32(out, 88, 0x3c003c00);          /* f16x2 {1, 1} + {2, 1} */
	wr32(out, 92, 1);
	wr32(out, 96, 2);
	wr64(out, 104, 5);
	wr64(out, 112, 77);
	wr32(out, 120, 9);
	memcpy(out + 124, &(float){ -1.0f }, 4);
	wr32(out, 128, 1000);
	wr32(out, 132, 0x1234);
	memcpy(out + 136, &(float){ 0.5f }, 4);
	wr64(out, 144, 1);
	run_io(atom_one, _i, 1, in, sizeof in, out, sizeof out);
	/* new words */
	ck_assert_uint_eq(rd32(out, 0), 17);
	ck_assert_uint_eq(rd32(out, 4), (uint32_t)-5);
	ck_assert_uint_eq(rd32(out, 8), (uint32_t)-5);
	ck_assert_uint_eq(rd32(out, 12), 0);
	ck_assert_uint_eq(rd32(out, 16), 100);
	ck_assert_uint_eq(rd32(out, 20), 0x0ff0);
	ck_assert_uint_eq(rd32(out, 24), 0x0fff);
	ck_assert_uint_eq(rd32(out, 28), 0x0f0f);
	ck_assert_uint_eq(rd32(out, 32), 7);
	ck_assert_uint_eq(rd32(out, 36), 100);
	ck_assert_uint_eq(rd32(out, 40), 5);
	ck_assert_uint_eq(rd64(out, 48), 0x00000000ffffffffull + a5);
	ck_assert_uint_eq(rd64(out, 56), (uint64_t)-16);
	ck_assert_uint_eq(rd64(out, 64), a6);
	ck_assert(f32_at(out, 72) == 3.5f);
	ck_assert(f64_at(out, 80) == 1.25);
	/* {1, 1} + {2 (low half), 1}: {3, 2} */
	ck_assert_uint_eq(rd32(out, 88), 0x40004200);
	ck_assert_uint_eq(rd32(out, 92), 101);
	ck_assert_uint_eq(rd32(out, 96), 9);
	ck_assert_uint_eq(rd64(out, 104), (uint64_t)-16);
	ck_assert_uint_eq(rd64(out, 112), a6);
	ck_assert_uint_eq(rd32(out, 120), 10);
	ck_assert(f32_at(out, 124) == 0.0f);
	ck_assert_uint_eq(rd32(out, 128), 1100);
	ck_assert_uint_eq(rd32(out, 132), 7);
	ck_assert(f32_at(out, 136) == 2.0f);
	ck_assert_uint_eq(rd64(out, 144), 1 + a5);
	/* shared words after the operations */
	ck_assert_uint_eq(rd32(out, 160), 107);                 /* 7 + 100 */
	ck_assert_uint_eq(rd32(out, 164), (uint32_t)-5);        /* min(-5, 7) */
	ck_assert_uint_eq(rd32(out, 168), 7);                   /* cas 0x0ff0 == 0x0ff0 */
	ck_assert_uint_eq(rd32(out, 172), 100 + 1 + 7);         /* red +1, generic +7 */
	ck_assert_uint_eq(rd64(out, 176), a5 + a6);
	/* a6 = -16: min.s64 keeps it (signed), max.u64 keeps it (unsigned) */
	ck_assert_uint_eq(rd64(out, 184), a6);
	ck_assert(f32_at(out, 192) == 4.5f);                    /* 1.5 + 1.5 + 1.5 (generic) */
	ck_assert_uint_eq(rd64(out, 208), (uint64_t)0x3fe0000000000000ull);  /* 0.5 */
	ck_assert_uint_eq(rd64(out, 216), a5 ^ a6);
	/* old values */
	ck_assert_uint_eq(rd32(out, 256), 10);
	ck_assert_uint_eq(rd32(out, 260), 3);
	ck_assert_uint_eq(rd32(out, 264), 3);
	ck_assert_uint_eq(rd32(out, 268), 100);
	ck_assert_uint_eq(rd32(out, 272), 0);
	ck_assert_uint_eq(rd32(out, 276), 0xffff);
	ck_assert_uint_eq(rd32(out, 280), 0x000f);
	ck_assert_uint_eq(rd32(out, 284), 0x00ff);
	ck_assert_uint_eq(rd32(out, 288), 0xdead);
	ck_assert_uint_eq(rd32(out, 292), 0x1234);
	ck_assert_uint_eq(rd32(out, 296), 5);
	ck_assert_uint_eq(rd32(out, 300), 0x3c003c00);
	ck_assert_uint_eq(rd64(out, 304), 0x00000000ffffffffull);
	ck_assert_uint_eq(rd64(out, 312), (uint64_t)-100);
	ck_assert_uint_eq(rd64(out, 320), a5);
	ck_assert_uint_eq(rd64(out, 328), 77);
	ck_assert(f32_at(out, 336) == 2.0f);
	ck_assert(f32_at(out, 340) == -1.0f);
	ck_assert(f64_at(out, 344) == 1.0);
	ck_assert_uint_eq(rd32(out, 352), 9);
	ck_assert_uint_eq(rd32(out, 356), 1000);
	ck_assert_uint_eq(rd32(out, 360), 0x1234);
	ck_assert_uint_eq(rd32(out, 364), 7);
	ck_assert_uint_eq(rd32(out, 368), (uint32_t)-5);
	ck_assert_uint_eq(rd32(out, 372), 0x0ff0);
	ck_assert(f32_at(out, 376) == 1.5f);
	ck_assert(f32_at(out, 380) == 3.0f);
	ck_assert_uint_eq(rd64(out, 384), 1);
	ck_assert_uint_eq(rd64(out, 392), a5);
	ck_assert_uint_eq(rd64(out, 400), a6);                  /* min.s64 old */
	ck_assert_uint_eq(rd64(out, 408), a6);                  /* max.u64 old */
	ck_assert_uint_eq(rd64(out, 416), 0);
	ck_assert(f64_at(out, 424) == 0.25);
	ck_assert_uint_eq(rd32(out, 432), 101);
}
END_TEST

/* a warp's 32 threads on one word each of global and shared (one warp: no barrier needed) */
static const char atom_many[] = KHEAD
    "\t.shared .align 8 .b8 sm[64];\n"
    "\tst.shared.v2.u32 [sm], {0, 0};\n"
    "\tst.shared.u64 [sm+8], 0;\n"
    "\tatom.global.add.u32 %r1, [%rd4], 1;\n"
    "\tred.global.add.u64 [%rd4+8], 3;\n"
    "\tred.global.add.f32 [%rd4+16], 0f3F000000;\n"
    "\tatom.shared.add.f32 %f1, [sm], 0f3F800000;\n"
    "\tatom.shared.inc.u32 %r2, [sm+4], 40;\n"
    "\tatom.shared.add.u64 %rd5, [sm+8], 0x100000000;\n"
    "\tld.shared.v2.u32 {%r3, %r4}, [sm];\n"
    "\tld.shared.u64 %rd6, [sm+8];\n"
    "\tst.global.v2.u32 [%rd4+24], {%r3, %r4};\n"
    "\tst.global.u64 [%rd4+32], %rd6;\n"
    KTAIL;

START_TEST(test_run_atomics_contended)
{
	uint8_t in[4] = {0}, out[40] = {0};

	run_io(atom_many, _i, 32, in, sizeof in, out, sizeof out);
	ck_assert_uint_eq(rd32(out, 0), 32);
	ck_assert_uint_eq(rd64(out, 8), 96);
	ck_assert(f32_at(out, 16) == 16.0f);
	ck_assert(f32_at(out, 24) == 32.0f);
	ck_assert_uint_eq(rd32(out, 28), 32 % 41);   /* inc wraps past 40: 32 increments from 0 */
	ck_assert_uint_eq(rd64(out, 32), 32ull << 32);
}
END_TEST

/* ---- cp.async and the sm_80 mbarrier -------------------------------------------------------- */

static const char async_k[] = KHEAD
    "\t.shared .align 16 .b8 sm[256];\n"
    "\t.reg .b32 %n;\n"
    "\tld.global.u32 %n, [%rd3+64];\n"                 /* 6 */
    "\tcp.async.cg.shared.global [sm], [%rd3], 16;\n"
    "\tcp.async.ca.shared.global [sm+16], [%rd3+16], 8;\n"
    "\tcp.async.ca.shared.global.L2::128B [sm+24], [%rd3+24], 4;\n"
    "\tcp.async.commit_group;\n"
    "\tcp.async.ca.shared.global [sm+32], [%rd3], 16, 5;\n"     /* 5 bytes, 11 zeros */
    "\tcp.async.ca.shared.global [sm+48], [%rd3+16], 8, 0;\n"   /* zeros */
    "\tcp.async.cg.shared.global [sm+64], [%rd3+32], 16, %n;\n" /* 6 bytes, 10 zeros */
    "\tisspacep.shared %p1, %rd4;\n"                     /* false: a global address */
    "\tcp.async.ca.shared.global [sm+80], [%rd3+48], 16, %p1;\n" /* copied: p1 false */
    "\tcp.async.commit_group;\n"
    "\tcp.async.wait_group 1;\n"
    "\tcp.async.wait_all;\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm];\n"
    "\tst.global.v4.u32 [%rd4], {%r1, %r2, %r3, %r4};\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+16];\n"
    "\tst.global.v4.u32 [%rd4+16], {%r1, %r2, %r3, %r4};\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+32];\n"
    "\tst.global.v4.u32 [%rd4+32], {%r1, %r2, %r3, %r4};\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+48];\n"
    "\tst.global.v4.u32 [%rd4+48], {%r1, %r2, %r3, %r4};\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+64];\n"
    "\tst.global.v4.u32 [%rd4+64], {%r1, %r2, %r3, %r4};\n"
    "\tld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+80];\n"
    "\tst.global.v4.u32 [%rd4+80], {%r1, %r2, %r3, %r4};\n"
    KTAIL;

START_TEST(test_run_cp_async)
{
	uint8_t in[68], out[96], z[16] = {0};

	for (unsigned k = 0; k < 64; k++)
		in[k] = (uint8_t)(k + 1);
	wr32(in, 64, 6);
	memset(out, 0xcc, sizeof out);
	run_io(async_k, _i, 1, in, sizeof in, out, sizeof out);
	ck_assert_int_eq(memcmp(out, in, 28), 0);
	ck_assert_int_eq(memcmp(out + 32, in, 5), 0);
	ck_assert_int_eq(memcmp(out + 37, z, 11), 0);
	ck_assert_int_eq(memcmp(out + 48, z, 8), 0);
	ck_assert_int_eq(memcmp(out + 64, in + 32, 6), 0);
	ck_assert_int_eq(memcmp(out + 70, z, 10), 0);
	ck_assert_int_eq(memcmp(out + 80, in + 48, 16), 0);
}
END_TEST

/* 32 threads of one warp on two barriers: init for 64, one arrival each (phase 0 incomplete),
 * arrive_drop (the phase completes; 32 expected from now on), test_wait on the first state and
 * by parity, pending_count, the barrier's words; a second barrier completed by cp.async's
 * arrivals (.noinc: 32 of 32) */
static const char mbar_k[] = KHEAD
    "\t.shared .align 8 .b8 bar[16];\n"
    "\tmbarrier.init.shared.b64 [bar], 64;\n"
    "\tmov.u32 %r1, bar;\n"
    "\tmov.u32 %r2, 32;\n"
    "\tmbarrier.init.shared::cta.b64 [%r1+8], %r2;\n"
    "\tmbarrier.arrive.shared.b64 %rd5, [bar];\n"
    "\tmbarrier.test_wait.shared.b64 %p1, [bar], %rd5;\n"
    "\tmbarrier.pending_count.b64 %r3, %rd5;\n"
    "\tmbarrier.arrive_drop.shared.b64 %rd6, [%r1];\n"
    "\tmbarrier.test_wait.shared.b64 %p2, [bar], %rd5;\n"
    "\tmbarrier.test_wait.parity.shared.b64 %p3, [bar], 0;\n"
    "\tmbarrier.test_wait.parity.shared.b64 %p4, [bar], 1;\n"
    "\tcp.async.ca.shared.global [bar+16], [%rd3], 4;\n"
    "\tcp.async.mbarrier.arrive.noinc.shared.b64 [%r1+8];\n"
    "\tmbarrier.test_wait.parity.shared.b64 %p5, [%r1+8], 0;\n"
    "\tld.shared.v2.u32 {%r4, %r5}, [bar];\n"
    "\tld.shared.v2.u32 {%r6, %r7}, [bar+8];\n"
    "\tst.global.v4.u32 [%rd4], {%r3, %r4, %r5, 0};\n"
    "\tst.global.v2.u32 [%rd4+16], {%r6, %r7};\n"
    "\t@%p1 st.global.u8 [%rd4+24], 1;\n"
    "\t@%p2 st.global.u8 [%rd4+25], 1;\n"
    "\t@%p3 st.global.u8 [%rd4+26], 1;\n"
    "\t@%p4 st.global.u8 [%rd4+27], 1;\n"
    "\t@%p5 st.global.u8 [%rd4+28], 1;\n"
    "\tmbarrier.inval.shared.b64 [bar];\n"
    "\tfence.acq_rel.gpu;\n"
    "\tfence.sc.cta;\n"
    "\tmembar.sys;\n"
    KTAIL;

START_TEST(test_run_mbarrier)
{
	uint8_t in[4] = {0}, out[32] = {0};

	run_io(mbar_k, _i, 32, in, sizeof in, out, sizeof out);
	/* the state of the last lane's arrival: 31 arrivals before it, 64 - 31 pending */
	ck_assert_uint_eq(rd32(out, 0), 64 - 31);
	/* word 0: 0x40000000 - 32 after the drops; word 1: phase 1, 32 pending */
	ck_assert_uint_eq(rd32(out, 4), 0x40000000u - 32);
	ck_assert_uint_eq(rd32(out, 8), 0x80000000u | (0x80000000u - 32));
	ck_assert_uint_eq(rd32(out, 16), 0x40000000u - 32);
	ck_assert_uint_eq(rd32(out, 20), 0x80000000u | (0x80000000u - 32));
	ck_assert_uint_eq(out[24], 0);            /* 32 of 64: not complete */
	ck_assert_uint_eq(out[25], 1);            /* after the drops: complete */
	ck_assert_uint_eq(out[26], 1);            /* phase 0 (parity 0) completed */
	ck_assert_uint_eq(out[27], 0);            /* phase 1 not */
	ck_assert_uint_eq(out[28], 1);            /* the cp.async arrivals completed phase 0 */
}
END_TEST

/* timing mode: the control bits that ctrl-bits writes over the lowered text leave no hazard */
START_TEST(test_run_timed)
{
	uint8_t in[68], out[160];

	for (unsigned k = 0; k < sizeof in; k++)
		in[k] = (uint8_t)(k * 37 + 0x85);
	wr32(in, 64, 6);
	run_io_timed(ldst_global, _i, 32, in, sizeof in, out, sizeof out);
	ck_assert_uint_eq(rd32(out, 16), rd32(in, 4));
	run_io_timed(async_k, _i, 1, in, sizeof in, out, 96);
	ck_assert_int_eq(memcmp(out, in, 28), 0);
}
END_TEST

/* ---- the SASS of each form (ptxas's for the same PTX, docs/isel-mem.md) ---------------------- */

START_TEST(test_isel_ld_st)
{
	/* sizes, sign, vectors, cache and order qualifiers; desc[UR4] on sm_90 */
	expect_isel("ld.global.s8 %r1, [%rd1+1];\n"
	            "ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+16];\n"
	            "ld.global.nc.L1::no_allocate.u32 %r2, [%rd1];\n"
	            "ld.global.L2::128B.v2.u32 {%r3, %r4}, [%rd1];\n"
	            "ld.global.ca.u16 %rs1, [%rd1];\n"
	            "ld.global.lu.u32 %r5, [%rd1];\n"
	            "ld.volatile.global.u32 %r6, [%rd1];\n"
	            "ld.acquire.gpu.u32 %r7, [%rd1+8];\n"
	            "ld.relaxed.cta.global.u64 %rd2, [%rd1];\n"
	            "ld.mmio.relaxed.sys.global.u32 %r8, [%rd1+16];\n"
	            "ld.global.u32 %rd3, [%rd1+-4];\n"
	            "st.global.cs.u32 [%rd1], %r1;\n"
	            "st.global.wb.u32 [%rd1], %r1;\n"
	            "st.release.gpu.global.u32 [%rd1], %r1;\n"
	            "st.release.cta.u32 [%rd1], %r1;\n"
	            "st.global.v2.f32 [%rd1], {%f1, 0f3F800000};\n"
	            "st.shared.u32 [sm+8], 0;\n", 80,
	            "LDG.E.S8 %r1, [%rd1.64+0x1] ;\n"
	            "LDG.E.128.CONSTANT %$x0, [%rd1.64+0x10] ;\n"
	            "MOV %f1, %$x0 ;\nMOV %f2, %$x0[1] ;\nMOV %f4, %$x0[3] ;\n"
	            "LDG.E.NA.CONSTANT %r2, [%rd1.64] ;\n"
	            "LDG.E.LTC128B.64 %$w1, [%rd1.64] ;\n"
	            "LDG.E.U16.STRONG.SM %rs1, [%rd1.64] ;\n"
	            "LDG.E.LU %r5, [%rd1.64] ;\n"
	            "LDG.E.STRONG.SYS %r6, [%rd1.64] ;\n"
	            "LD.E.STRONG.GPU %r7, [%rd1.64+0x8] ;\nCCTL.IVALL ;\n"
	            "LDG.E.64.STRONG.SM %rd2, [%rd1.64] ;\n"
	            "LDG.E.MMIO.SYS %r8, [%rd1.64+0x10] ;\n"
	            "LDG.E %rd3, [%rd1.64+-0x4] ;\nMOV %rd3[1], RZ ;\n"
	            "STG.E.EF [%rd1.64], %r1 ;\n"
	            "STG.E.STRONG.SM [%rd1.64], %r1 ;\n"
	            "MEMBAR.ALL.GPU ;\nERRBAR ;\nSTG.E.STRONG.GPU [%rd1.64], %r1 ;\n"
	            "MEMBAR.ALL.CTA ;\nST.E.STRONG.SM [%rd1.64], %r1 ;\n"
	            "MOV %$w2[1], 0x3f800000 ;\nSTG.E.64 [%rd1.64], %$w2 ;\n"
	            "STS [0x8], RZ ;");
	expect_isel("ld.global.u32 %r1, [%rd1];\n"
	            "st.release.sys.global.u32 [%rd1], %r1;\n"
	            "ld.u32 %r2, [%rd1];\n", 90,
	            "LDC R1, c[0x0][0x28] ;\nULDC.64 UR4, c[0x0][0x208] ;\n"
	            "LDG.E %r1, desc[UR4][%rd1.64] ;\n"
	            "MEMBAR.ALL.SYS ;\nERRBAR ;\nCGAERRBAR ;\nSTG.E.STRONG.SYS desc[UR4][%rd1.64], %r1 ;\n"
	            "LD.E %r2, desc[UR4][%rd1.64] ;");
	/* byte and half vectors: PRMT out and in */
	expect_isel("ld.global.v4.s8 {%rs1, %rs2, %rs3, %rs4}, [%rd1];\n"
	            "st.shared.v2.u16 [%r1], {%rs1, %rs2};\n"
	            "st.local.v4.u8 [%r1+4], {%rs1, %rs2, %rs3, %rs4};\n", 80,
	            "LDG.E %$t0, [%rd1.64] ;\n"
	            "PRMT %rs1, %$t0, 0x8880, RZ ;\nPRMT %rs2, %$t0, 0x9991, RZ ;\n"
	            "PRMT %rs4, %$t0, 0xbbb3, RZ ;\n"
	            "PRMT %$t1, %rs1, 0x5410, %rs2 ;\nSTS [%r1], %$t1 ;\n"
	            "PRMT %$t3, %rs1, 0x7740, %rs2 ;\nPRMT %$t4, %rs3, 0x7740, %rs4 ;\n"
	            "PRMT %$t2, %$t3, 0x5410, %$t4 ;\nSTL [%r1+0x4], %$t2 ;");
	/* the frame of the .local variables, and addresses into it */
	expect_isel("mov.u64 %SPL, __local_depot0;\n"
	            "ld.local.u32 %r1, [%SPL+4];\n"
	            "st.local.u32 [__local_depot0+8], %r1;\n"
	            "cvta.local.u64 %SP, %SPL;\n", 80,
	            "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\nIADD3 R1, R1, -0x28, RZ ;\n"
	            "MOV %SPL, R1 ;\nMOV %SPL[1], RZ ;\n"
	            "LDL %r1, [%SPL+0x4] ;\nSTL [R1+0x8], %r1 ;\n"
	            "IADD3 %SP, %$q0, %SPL, c[0x0][0x20], RZ ;\n"
	            "IADD3.X %SP[1], RZ, c[0x0][0x24], RZ, %$q0, !PT ;");
	expect_isel("mov.u64 %SPL, __local_depot0;\n", 90,
	            "LDC R1, c[0x0][0x28] ;\nVIADD R1, R1, 0xffffffd8 ;");
	{
		char *t = isel_of("mov.u64 %SPL, __local_depot0;\n", 80);
		/* EIATTR_FRAME_SIZE: the 40 bytes rounded up to 8 */
		ck_assert_ptr_nonnull(strstr(t, "EIATTR_FRAME_SIZE"));
		ck_assert_ptr_nonnull(strstr(strstr(t, "EIATTR_FRAME_SIZE"), ".word 0x00000028"));
		free(t);
	}
	/* constant bank 3 */
	expect_isel("ld.const.u32 %r1, [%rd1+8];\nld.const.v2.s16 {%r2, %r3}, [16];\n", 80,
	            "LDC %r1, c[0x3][%rd1+0x8] ;\nLDC.S16 %r2, c[0x3][0x10] ;\nLDC.S16 %r3, c[0x3][0x12] ;");
}
END_TEST

START_TEST(test_isel_cvta_misc)
{
	expect_isel("cvta.to.global.u64 %rd2, %rd1;\n"
	            "cvta.shared.u64 %rd3, %rd2;\n"
	            "cvta.to.shared.u64 %rd4, %rd3;\n"
	            "cvta.to.local.u64 %rd5, %rd3;\n"
	            "isspacep.global %p1, %rd3;\n"
	            "prefetch.global.L1 [%rd1];\nprefetch.global.L2::evict_last [%rd1+128];\n"
	            "prefetch.local.L2 [%r1];\ndiscard.global.L2 [%rd1], 128;\n", 80,
	            "MOV %rd2, %rd1 ;\nMOV %rd2[1], %rd1[1] ;\n"
	            "IADD3 %rd3, %$q0, %rd2, c[0x0][0x18], RZ ;\n"
	            "IADD3.X %rd3[1], RZ, c[0x0][0x1c], RZ, %$q0, !PT ;\n"
	            "IADD3 %rd4, %rd3, -c[0x0][0x18], RZ ;\nMOV %rd4[1], RZ ;\n"
	            "IADD3 %rd5, %rd3, -c[0x0][0x20], RZ ;\n"
	            "QSPC.E.G %p1, RZ, [%rd3.64] ;\n"
	            "CCTL.E.PF1 [%rd1.64] ;\nCCTL.E.PML2 [%rd1.64+0x80] ;\nCCTLL.PF2 [%r1] ;\n"
	            "CCTL.E.RML2 [%rd1.64] ;");
	/* sm_90: the shared window's high word from SR_SWINHI, constants through LDC */
	expect_isel("cvta.shared.u64 %rd3, %rd2;\ncvta.to.shared.u64 %rd4, %rd3;\n"
	            "cvta.local.u64 %rd5, %rd2;\n", 90,
	            "MOV %rd3, %rd2 ;\nS2R %rd3[1], SR_SWINHI ;\nMOV %rd4, %rd3 ;\nMOV %rd4[1], RZ ;\n"
	            "LDC %$t1, c[0x0][0x20] ;\nLDC %$t2, c[0x0][0x24] ;\n"
	            "IADD3 %rd5, %$q0, %rd2, %$t1, RZ ;\nIADD3.X %rd5[1], RZ, %$t2, RZ, %$q0, !PT ;");
}
END_TEST

START_TEST(test_isel_atomics)
{
	expect_isel("atom.global.add.s32 %r1, [%rd1], %r2;\n"
	            "atom.global.max.u64 %rd2, [%rd1+8], %rd3;\n"
	            "atom.global.cas.b32 %r3, [%rd1+4], %r1, %r2;\n"
	            "atom.global.add.f32 %f1, [%rd1], 0f3F800000;\n"
	            "atom.acquire.gpu.global.exch.b32 %r4, [%rd1], %r1;\n"
	            "atom.release.cta.global.add.u32 %r5, [%rd1], %r1;\n"
	            "atom.global.sys.add.f64 %fd1, [%rd1], %fd2;\n"
	            "atom.global.add.u32 _, [%rd1], %r1;\n"
	            "red.global.min.s64 [%rd1], %rd3;\n"
	            "atom.shared.inc.u32 %r6, [%r1], %r2;\n"
	            "red.shared.and.b32 [%r1+4], %r2;\n"
	            "atom.shared.cas.b64 %rd4, [sm], %rd3, %rd2;\n"
	            "atom.add.noftz.f16x2 %r7, [%rd1], %r2;\n"
	            "red.add.u32 [%rd1], %r2;\n", 80,
	            "ATOMG.E.ADD.S32.STRONG.GPU PT, %r1, [%rd1.64], %r2 ;\n"
	            "ATOMG.E.MAX.64.STRONG.GPU PT, %rd2, [%rd1.64+0x8], %rd3 ;\n"
	            "ATOMG.E.CAS.STRONG.GPU PT, %r3, [%rd1.64+0x4], %r1, %r2 ;\n"
	            "MOV %$t0, 0x3f800000 ;\nATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, %f1, [%rd1.64], %$t0 ;\n"
	            "ATOMG.E.EXCH.STRONG.GPU PT, %r4, [%rd1.64], %r1 ;\nCCTL.IVALL ;\n"
	            "MEMBAR.ALL.CTA ;\nATOMG.E.ADD.STRONG.SM PT, %r5, [%rd1.64], %r1 ;\n"
	            "ATOMG.E.ADD.F64.RN.STRONG.SYS PT, %fd1, [%rd1.64], %fd2 ;\n"
	            "RED.E.ADD.STRONG.GPU [%rd1.64], %r1 ;\n"
	            "RED.E.MIN.S64.STRONG.GPU [%rd1.64], %rd3 ;\n"
	            "ATOMS.INC %r6, [%r1], %r2 ;\n"
	            "ATOMS.AND RZ, [%r1+0x4], %r2 ;\n"
	            "ATOMS.CAS.64 %rd4, [0x0], %rd3, %rd2 ;\n"
	            "ATOM.E.ADD.F16x2.RN.STRONG.GPU PT, %r7, [%rd1.64], %r2 ;\n"
	            "ATOM.E.ADD.STRONG.GPU PT, RZ, [%rd1.64], %r2 ;");
	/* sm_90: REDG for global reductions, desc[] but not on CAS */
	expect_isel("red.global.add.u32 [%rd1], %r2;\n"
	            "atom.global.cas.b64 %rd2, [%rd1], %rd3, %rd4;\n"
	            "atom.global.v4.f32.add {%f1, %f2, %f3, %f4}, [%rd1], {%f5, %f6, %f7, %f8};\n", 90,
	            "REDG.E.ADD.STRONG.GPU desc[UR4][%rd1.64], %r2 ;\n"
	            "ATOMG.E.CAS.64.STRONG.GPU PT, %rd2, [%rd1.64], %rd3, %rd4 ;\n"
	            "MOV %$x1[3], %f8 ;\n"
	            "ATOMG.E.ADD.F32x4.FTZ.RN.STRONG.GPU PT, %$x0, desc[UR4][%rd1.64], %$x1 ;\n"
	            "MOV %f4, %$x0[3] ;");
	/* a guarded shared loop: skipped whole when the guard is false */
	expect_isel("@%p1 atom.shared.add.f32 %f1, [%r1], %f2;\n", 80,
	            "@!%p1 BRA `(.L_p0) ;\n.L_p1:\nLDS %$t0, [%r1] ;\nFADD %$t1, %$t0, %f2 ;\n"
	            "ATOMS.CAST.SPIN %$t2, [%r1], %$t0, %$t1 ;\n"
	            "ISETP.EQ.U32.AND %$q3, PT, %$t2, 0x1, PT ;\n@!%$q3 BRA `(.L_p1) ;\n"
	            "MOV %f1, %$t0 ;\n.L_p0:");
}
END_TEST

START_TEST(test_isel_async)
{
	expect_isel("cp.async.cg.shared.global.L2::256B [%r1], [%rd1], 16;\n"
	            "cp.async.ca.shared.global [%r1+4], [%rd1+8], 8, 4;\n"
	            "cp.async.ca.shared.global.L2::64B [%r1+16], [%rd1+16], 16, 0;\n"
	            "cp.async.ca.shared.global [%r1], [%rd1], 4, %p1;\n"
	            "cp.async.cg.shared.global [%r1+48], [%rd1+48], 16, %r2;\n"
	            "cp.async.commit_group;\ncp.async.wait_group 3;\ncp.async.wait_all;\n"
	            "cp.async.mbarrier.arrive.shared.b64 [%r3];\n", 80,
	            "LDGSTS.E.BYPASS.LTC256B.128 [%r1], [%rd1.64] ;\n"
	            "LDGSTS.E.64.ZFILL [%r1+0x4], [%rd1.64+0xc] ;\n"
	            "LDGSTS.E.LTC64B.128 [%r1+0x10], [%rd1.64+0x10], !PT ;\n"
	            "LDGSTS.E [%r1], [%rd1.64], !%p1 ;\n"
	            "IADD3 %$t0, -%r2, 0x10, RZ ;\nLOP3.LUT %$t0, %$t0, 0xf, RZ, 0xc0, !PT ;\n"
	            "IADD3 %$w1, %$q3, %$t0, %rd1, RZ ;\nIADD3.X %$w1[1], RZ, %rd1[1], RZ, %$q3, !PT ;\n"
	            "ISETP.NE.U32.AND %$q2, PT, %r2, RZ, PT ;\n"
	            "LDGSTS.E.BYPASS.128.ZFILL [%r1+0x30], [%$w1.64+0x30], %$q2 ;\n"
	            "LDGDEPBAR ;\nDEPBAR.LE SB0, 0x3 ;\nLDGDEPBAR ;\nDEPBAR.LE SB0, 0x0 ;\n"
	            "ATOMS.ADD RZ, [%r3+0x4], %$t4 ;\nARRIVES.LDGSTSBAR.64 [%r3] ;");
	expect_isel("mbarrier.init.shared.b64 [%r1], %r2;\n"
	            "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
	            "mbarrier.arrive_drop.shared.b64 _, [%r1];\n"
	            "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n"
	            "mbarrier.try_wait.parity.shared.b64 %p2, [%r1], %r3;\n"
	            "mbarrier.arrive.noComplete.shared.b64 %rd2, [%r1], 2;\n"
	            "mbarrier.arrive.b64 %rd3, [%rd4];\n", 80,
	            "IADD3 %$w0, -%r2, 0x40000000, RZ ;\nIADD3 %$w0[1], -%r2, -0x80000000, RZ ;\n"
	            "STS.64 [%r1], %$w0 ;\n"
	            "MEMBAR.ALL.CTA ;\nATOMS.ARRIVE.64 %rd1, [%r1] ;\n"
	            "MEMBAR.ALL.CTA ;\nATOMS.POPC.INC.32 RZ, [%r1] ;\nATOMS.ARRIVE.64 RZ, [%r1] ;\n"
	            "LDS %$t1, [%r1+0x4] ;\nLOP3.LUT %p1, RZ, %$t1, 0x80000000, %rd1[1], 0x48, !PT ;\n"
	            "SHF.L.U32 %$t2, %r3, 0x1f, RZ ;\nLDS %$t3, [%r1+0x4] ;\n"
	            "LOP3.LUT %p2, RZ, %$t3, 0x80000000, %$t2, 0x48, !PT ;\n"
	            "MEMBAR.ALL.CTA ;\nATOMS.ADD %rd2[1], [%r1+0x4], %$t4 ;\nMOV %rd2, %rd2[1] ;\n"
	            "IADD3 %$t5, %rd4, -c[0x0][0x18], RZ ;\nMEMBAR.ALL.CTA ;\n"
	            "ATOMS.ARRIVE.64 %rd3, [%$t5] ;");
	expect_isel("fence.sc.cta;\nfence.acq_rel.gpu;\nmembar.sys;\nfence.proxy.async.shared::cta;\n", 90,
	            "MEMBAR.SC.CTA ;\nMEMBAR.ALL.GPU ;\nERRBAR ;\nCGAERRBAR ;\nCCTL.IVALL ;\n"
	            "MEMBAR.SC.SYS ;\nERRBAR ;\nCGAERRBAR ;\nCCTL.IVALL ;\n"
	            "MEMBAR.ALL.CTA ;\nFENCE.VIEW.ASYNC.S ;");
}
END_TEST

/* forms that are not selected: located errors, never silent */
START_TEST(test_isel_errors)
{
	expect_error("ld.shared::cluster.u32 %r1, [%r2];", ".shared::cluster");
	expect_error("st.param.b32 [k_param_2], %r1;", "a store to a kernel parameter");
	expect_error("st.const.u32 [%rd1], %r1;", "the .const space");
	expect_error("ld.global.nc.u32 %r1, [%rd1]; ld.shared.nc.u32 %r1, [%r2];", ".nc needs the .global");
	expect_error("ld.global.u32 %r1, [%r2];", "64-bit register");
	expect_error("atom.global.inc.u64 %rd1, [%rd2], %rd3;", "atom.inc of .u64");
	expect_error("atom.global.cas.b16 %rs1, [%rd2], %rs2, %rs3;", "atom.cas of .b16");
	expect_error("atom.local.add.u32 %r1, [%r2], %r3;", "the .local space");
	expect_error("red.global.exch.b32 [%rd2], %r3;", "red.exch");
	expect_error("cp.async.cg.shared.global [%r1], [%rd1], 8;", "8 bytes with .cg");
	expect_error("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];",
	             "bulk and tensor");
	expect_error("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], %r2;", "transaction-count");
	expect_error("cvta.param.u64 %rd1, %rd2;", "cvta of the .param space");
	expect_error("isspacep.const %p1, %rd1;", "isspacep of the .const");
	expect_error("ld.const.u32 %r1, [cst];", "constant bank 3 is not laid out");
	expect_error("ld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd1];", "a load of 4 x 64 bits");
}
END_TEST

Suite *
ptx_mem_suite(void)
{
	Suite *s = suite_create("ptx_mem");
	TCase *run_ = tcase_create("run");

	TCase *isel = tcase_create("isel");

	tcase_add_test(isel, test_isel_ld_st);
	tcase_add_test(isel, test_isel_cvta_misc);
	tcase_add_test(isel, test_isel_atomics);
	tcase_add_test(isel, test_isel_async);
	tcase_add_test(isel, test_isel_errors);
	suite_add_tcase(s, isel);
	tcase_set_timeout(run_, 120);
	tcase_add_loop_test(run_, test_run_ldst_global, 0, 2);
	tcase_add_loop_test(run_, test_run_spaces, 0, 2);
	tcase_add_loop_test(run_, test_run_atomics, 0, 2);
	tcase_add_loop_test(run_, test_run_atomics_contended, 0, 2);
	tcase_add_loop_test(run_, test_run_cp_async, 0, 2);
	tcase_add_loop_test(run_, test_run_mbarrier, 0, 2);
	tcase_add_loop_test(run_, test_run_timed, 0, 2);
	suite_add_tcase(s, run_);
	return s;
}
