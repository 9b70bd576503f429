/* check_ptx_mem.c: the memory family of PTX instruction selection (frontend/ptxsel_mem.c,
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
} Pin;

static char *
pin_regs(const char *text)
{
	Pin *pin = NULL;
	int npin = 0, cpin = 0, next = 2, np = 0;
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
			if (pred) {
				p->reg = np++;
			} else {
				next = (next + size - 1) / size * size;
				p->reg = next;
				next += size;
			}
			s += n;
			if (*s == '[')
				s += strcspn(s, "]") + 1;
		}
	}
	if (next > 254 || np > 7) {
		free(pin);
		free(out);
		return NULL;
	}
	/* the text: declarations dropped, names replaced, the register count set */
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		const char *s = l + strspn(l, " \t");
		int regcount = 0;
		if (!strncmp(s, ".vreg", 5) || !strncmp(s, ".vpred", 6)) {
			l += n + (l[n] == '\n');
			continue;
		}
		if (o + n * 2 + 64 > cap) {
			cap = cap * 2 + n * 2;
			out = realloc(out, cap);
		}
		for (size_t k = 0; k < n; k++) {
			if (l[k] == '%' && k + 1 < n && l[k + 1] != '%') {
				size_t m = strcspn(l + k, ",[ \t\n;.)");
				/* names hold '.'? no: they are %[A-Za-z0-9_$]+ */
				int hit = -1;
				for (int j = 0; j < npin; j++)
					if (strlen(pin[j].name) == m && !strncmp(pin[j].name, l + k, m)) {
						hit = j;
						break;
					}
				if (hit >= 0) {
					int r = pin[hit].reg;
					size_t e = k + m;
					if (l[e] == '[' && !pin[hit].pred) {
						r += atoi(l + e + 1);
						e += strcspn(l + e, "]") + 1;
					}
					o += (size_t)sprintf(out + o, "%c%d", pin[hit].pred ? 'P' : 'R', r);
					k = e - 1;
					continue;
				}
			}
			out[o++] = l[k];
		}
		if (strstr(l, "SHI_REGISTERS=0") && strstr(l, "SHI_REGISTERS=0") < l + n)
			regcount = 1;
		out[o] = 0;
		if (regcount) {
			char *at = strstr(out + o - n, "SHI_REGISTERS=0");
			if (at) {
				char tail[64];
				snprintf(tail, sizeof tail, "%s", at + 15);
				o = (size_t)(at - out) + (size_t)sprintf(at, "SHI_REGISTERS=%d%s", next, tail);
			}
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
	char dir[] = "/tmp/ptxmemXXXXXX", pinned[64], script[64], err[4096];
	const char *fiberc = getenv("FIBERC") ? getenv("FIBERC") : "build/bin/fiberc";
	char *low = lower(ptx, !strcmp(arch, "sm_90") ? 90 : 80, err, sizeof err);
	char *pt = low ? pin_regs(low) : NULL;
	char absfc[1024];
	FILE *f;

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
	ck_assert_uint_eq(rd32(out, 80), (uint32_t)(in[6] | in[7] << 8 | in[4] << 16 | in[5] << 24));
	ck_assert_uint_eq(rd32(out, 84), (uint32_t)(in[3] | in[2] << 8 | in[1] << 16 | in[0] << 24));
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

Suite *
ptx_mem_suite(void)
{
	Suite *s = suite_create("ptx_mem");
	TCase *run_ = tcase_create("run");

	tcase_set_timeout(run_, 120);
	tcase_add_loop_test(run_, test_run_ldst_global, 0, 2);
	suite_add_tcase(s, run_);
	return s;
}
