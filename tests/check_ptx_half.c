/* check_ptx_half.c: the half family of PTX instruction selection (backend/isel/ptxsel_half.c).
 * Each case is a small nvcc-style kernel: its inputs come from kernel parameters (a 16-bit
 * register gets the low half of a parameter word, the high half holding garbage, as PTX leaves
 * it undefined), the instruction under test, and the registers to read back. The kernel is
 * lowered by ptx_lower, stores of the results are added before the EXIT (st.global is not
 * selected yet), and it runs on the simulator for sm_80 and sm_90 twice: with physical registers
 * given by a small allocator here (functional mode: the selection alone), and through fiberc's
 * cfg,sched,regalloc,ctrl-bits (timing mode, no hazard). Expected values are hand-computed bit
 * patterns (round to nearest even, PTX ISA 9.7.4-9.7.7, 9.7.9.21). Also: the SASS each form
 * selects, and located errors for the forms not selected.
 */
#define _DEFAULT_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiber.h"
#include "ptx.h"
#include "ptxlow.h"

/* ---- lowering -------------------------------------------------------------------------------- */

/* the kernel around a case body: parameters k_o (results), k_a..k_d (inputs); the loads give
 * %r1..%r3 (32 bits of a, b, c), %h1..%h3 (their low halves), %f1..%f4, %fd1, %fd2, %rd1 */
static char *
kernel(const char *body, int sm)
{
	static const char head[] =
	    ".version 8.5\n.target sm_%d\n.address_size 64\n\n"
	    ".visible .entry k(\n\t.param .u64 k_o,\n\t.param .u64 k_a,\n\t.param .u64 k_b,\n"
	    "\t.param .u64 k_c,\n\t.param .u64 k_d\n)\n{\n"
	    "\t.reg .pred \t%%p<10>;\n\t.reg .b16 \t%%h<10>;\n\t.reg .b32 \t%%r<10>;\n"
	    "\t.reg .f32 \t%%f<6>;\n\t.reg .f64 \t%%fd<3>;\n\t.reg .b64 \t%%rd<3>;\n"
	    "\tld.param.b32 \t%%r1, [k_a];\n\tld.param.b32 \t%%r2, [k_b];\n"
	    "\tld.param.b32 \t%%r3, [k_c];\n\tld.param.b16 \t%%h1, [k_a];\n"
	    "\tld.param.b16 \t%%h2, [k_b];\n\tld.param.b16 \t%%h3, [k_c];\n"
	    "\tld.param.f32 \t%%f1, [k_a];\n\tld.param.f32 \t%%f2, [k_b];\n"
	    "\tld.param.f32 \t%%f3, [k_c];\n\tld.param.f32 \t%%f4, [k_d];\n"
	    "\tld.param.f64 \t%%fd1, [k_a];\n\tld.param.f64 \t%%fd2, [k_b];\n"
	    "\tld.param.u64 \t%%rd1, [k_a];\n";
	size_t n = sizeof head + strlen(body) + 64;
	char *s = malloc(n);
	int k = snprintf(s, n, head, sm);

	snprintf(s + k, n - (size_t)k, "%s\n\tret;\n}\n", body);
	return s;
}

/* ptx lowered for sm (the isel text, malloc'd), or NULL with the diagnostics in err */
static char *
lower(const char *ptx, int sm, char *err, size_t nerr)
{
	char *msg = NULL, *text = NULL;
	size_t mlen = 0;
	FILE *mf = open_memstream(&msg, &mlen);
	Src *src = src_new("t.ptx", ptx, strlen(ptx)), *low = NULL;
	Diag d;
	Ptx *p;

	diag_init(&d, src, mf);
	if ((p = ptx_parse(src, &d)))
		low = ptx_lower(p, sm, &d);
	fclose(mf);
	snprintf(err, nerr, "%s", msg ? msg : "");
	if (low)
		text = xstrdup(low->text);
	src_free(low);
	ptx_free(p);
	src_free(src);
	free(msg);
	return text;
}

/* ---- a physical allocation, for running the lowered text before backend/regalloc.c --------- */

typedef struct Vr {
	char name[64];     /* without the % */
	int base;          /* first R (or P) register */
	int n;             /* registers */
	int pred;          /* a predicate */
} Vr;

enum { MaxVr = 256, StoreR = 240 };

static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '$';
}

static Vr *
vr_find(Vr *v, int nv, const char *s, size_t n)
{
	for (int k = 0; k < nv; k++)
		if (strlen(v[k].name) == n && !strncmp(v[k].name, s, n))
			return &v[k];
	return NULL;
}

/* the declarations of .vreg/.vpred lines: registers from R2 (pairs even, quads by four), P0.. */
static int
vr_collect(const char *text, Vr *v, char *err, size_t nerr)
{
	int nv = 0, nextr = 2, nextp = 0;

	for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *s = l;
		int pred;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, ".vreg", 5) && strncmp(s, ".vpred", 6))
			continue;
		pred = s[2] == 'p';
		s += pred ? 6 : 5;
		while (*s && *s != '\n') {
			if (*s != '%') {
				s++;
				continue;
			}
			const char *b = ++s;
			while (name_char(*s))
				s++;
			int n = 1;
			if (*s == '[')
				n = atoi(s + 1);
			if (nv == MaxVr || s - b >= 63) {
				snprintf(err, nerr, "too many virtual registers");
				return -1;
			}
			memcpy(v[nv].name, b, (size_t)(s - b));
			v[nv].name[s - b] = 0;
			v[nv].n = n;
			v[nv].pred = pred;
			if (pred) {
				v[nv].base = nextp++;
			} else {
				nextr = (nextr + n - 1) / n * n;
				v[nv].base = nextr;
				nextr += n;
			}
			nv++;
		}
	}
	if (nextr > StoreR || nextp > 7) {
		snprintf(err, nerr, "the allocation needs R%d, P%d", nextr, nextp);
		return -1;
	}
	return nv;
}

static void
cat(char **o, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*o = realloc(*o, *cap);
	}
	memcpy(*o + *len, s, n);
	*len += n;
	(*o)[*len] = 0;
}

/* the text with physical registers and the stores of outs (registers of the PTX text, comma
 * separated: one word each, two for a 64-bit one, 0/1 for a predicate) to k_o before the EXIT;
 * *nword gets the words stored, wmask[k] the bits of word k that hold a value (the low half for
 * a 16-bit register %hN, whose high half PTX leaves undefined) */
static char *
allocate(const char *text, const char *outs, int sm, int *nword, uint32_t *wmask, char *err,
         size_t nerr)
{
	Vr v[MaxVr];
	int nv = vr_collect(text, v, err, nerr), w = 0;
	char *o = NULL, st[4096] = "", line[160];
	size_t len = 0, cap = 0, sl = 0;
	unsigned pb = sm >= 90 ? 0x210 : 0x160;

	if (nv < 0)
		return NULL;
	sl += (size_t)snprintf(st + sl, sizeof st - sl, "        MOV R%d, c[0x0][0x%x] ;\n"
	                       "        MOV R%d, c[0x0][0x%x] ;\n", StoreR, pb, StoreR + 1, pb + 4);
	for (const char *s = outs; *s;) {
		const char *e = strchr(s, ',') ? strchr(s, ',') : s + strlen(s);
		Vr *r = *s == '%' ? vr_find(v, nv, s + 1, (size_t)(e - s - 1)) : NULL;
		if (!r) {
			snprintf(err, nerr, "output '%.*s' is not a register of the lowered text",
			         (int)(e - s), s);
			return NULL;
		}
		for (int k = 0; k < (r->pred ? 1 : r->n); k++) {
			if (r->pred)
				snprintf(line, sizeof line, "        SEL R%d, RZ, 0x1, !P%d ;\n"
				         "        STG.E [R%d.64+0x%x], R%d ;\n", StoreR + 2, r->base, StoreR,
				         4 * w, StoreR + 2);
			else
				snprintf(line, sizeof line, "        STG.E [R%d.64+0x%x], R%d ;\n", StoreR,
				         4 * w, r->base + k);
			sl += (size_t)snprintf(st + sl, sizeof st - sl, "%s", line);
			if (wmask)
				wmask[w] = s[1] == 'h' ? 0xffffu : 0xffffffffu;
			w++;
		}
		s = *e ? e + 1 : e;
	}
	*nword = w;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l), *s = l;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, ".vreg", 5) || !strncmp(s, ".vpred", 6)) {
			l = e;
			continue;
		}
		if (!strncmp(l, ".L_exit", 7))
			cat(&o, &len, &cap, st, strlen(st));
		for (s = l; s < e;) {
			if (*s != '%' || !name_char(s[1])) {
				cat(&o, &len, &cap, s++, 1);
				continue;
			}
			const char *b = ++s;
			while (name_char(*s))
				s++;
			Vr *r = vr_find(v, nv, b, (size_t)(s - b));
			int k = 0;
			if (!r) {
				cat(&o, &len, &cap, b - 1, (size_t)(s - b + 1));
				continue;
			}
			if (*s == '[') {
				k = atoi(s + 1);
				s = strchr(s, ']') + 1;
			}
			snprintf(line, sizeof line, "%s%d", r->pred ? "P" : "R", r->base + k);
			cat(&o, &len, &cap, line, strlen(line));
		}
		l = e;
	}
	return o;
}

/* the lowered text with stores of outs (as allocate) added before the EXIT in virtual registers
 * (%$o, %$s), for the real pipeline: fiberc --passes=cfg,sched,regalloc,ctrl-bits */
static char *
vstores(const char *text, const char *outs, int sm, int *nword, uint32_t *wmask, char *err,
        size_t nerr)
{
	Vr v[MaxVr];
	int nv = vr_collect(text, v, err, nerr), w = 0, decl = 0;
	char *o = NULL, st[4096] = "", line[160];
	size_t len = 0, cap = 0, sl = 0;
	unsigned pb = sm >= 90 ? 0x210 : 0x160;

	if (nv < 0)
		return NULL;
	sl += (size_t)snprintf(st + sl, sizeof st - sl, "        MOV %%$o, c[0x0][0x%x] ;\n"
	                       "        MOV %%$o[1], c[0x0][0x%x] ;\n", pb, pb + 4);
	for (const char *s = outs; *s;) {
		const char *e = strchr(s, ',') ? strchr(s, ',') : s + strlen(s);
		Vr *r = *s == '%' ? vr_find(v, nv, s + 1, (size_t)(e - s - 1)) : NULL;
		if (!r) {
			snprintf(err, nerr, "output '%.*s' is not a register of the lowered text",
			         (int)(e - s), s);
			return NULL;
		}
		for (int k = 0; k < (r->pred ? 1 : r->n); k++) {
			if (r->pred)
				snprintf(line, sizeof line, "        SEL %%$s, RZ, 0x1, !%%%s ;\n"
				         "        STG.E [%%$o.64+0x%x], %%$s ;\n", r->name, 4 * w);
			else if (k)
				snprintf(line, sizeof line, "        STG.E [%%$o.64+0x%x], %%%s[%d] ;\n", 4 * w,
				         r->name, k);
			else
				snprintf(line, sizeof line, "        STG.E [%%$o.64+0x%x], %%%s ;\n", 4 * w,
				         r->name);
			sl += (size_t)snprintf(st + sl, sizeof st - sl, "%s", line);
			if (wmask)
				wmask[w] = s[1] == 'h' ? 0xffffu : 0xffffffffu;
			w++;
		}
		s = *e ? e + 1 : e;
	}
	*nword = w;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l), *s = l;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!decl && !strncmp(s, ".vreg", 5)) {
			static const char more[] = "\t.vreg\t\t%$o[2],%$s\n";
			cat(&o, &len, &cap, more, strlen(more));
			decl = 1;
		}
		if (!strncmp(l, ".L_exit", 7))
			cat(&o, &len, &cap, st, strlen(st));
		cat(&o, &len, &cap, l, (size_t)(e - l));
		l = e;
	}
	return o;
}

/* ---- running --------------------------------------------------------------------------------- */

/* run kernel k of the listing sass with inputs in[4]: the nword result words in out; 0, or -1
 * with err. timing: timing mode, *hazards gets the launch's count */
static int
launch(const char *sass, int sm, const uint64_t in[4], uint32_t *out, int nword, int timing,
       uint64_t *hazards, char *err, size_t nerr)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr buf;
	fiberStats s0, s1;
	unsigned char pb[64] = {0};
	unsigned one[3] = { 1, 1, 1 };
	int rc = -1;

	if (fiberDeviceCreate(&dev, sm >= 90 ? "h100" : "a100") != FIBER_SUCCESS) {
		snprintf(err, nerr, "no device");
		return -1;
	}
	fiberDeviceSetMode(dev, timing ? FIBER_MODE_TIMING : FIBER_MODE_FUNCTIONAL);
	if (fiberModuleLoadData(&mod, dev, sass, strlen(sass), "t.sass") != FIBER_SUCCESS ||
	    fiberModuleGetFunction(&fn, mod, "k") != FIBER_SUCCESS) {
		snprintf(err, nerr, "load: %s\n%s", fiberGetLastErrorMessage(dev),
		         fiberGetLastErrorLog(dev));
		goto out;
	}
	fiberMalloc(dev, &buf, 64);
	fiberMemset(dev, buf, 0xcd, 64);
	memcpy(pb, &buf, 8);
	memcpy(pb + 8, in, 32);
	fiberGetStats(dev, &s0);
	if (fiberLaunchKernelPacked(fn, one, one, 0, pb, 40) != FIBER_SUCCESS) {
		snprintf(err, nerr, "launch: %s", fiberGetLastErrorMessage(dev));
		goto out;
	}
	fiberGetStats(dev, &s1);
	if (hazards)
		*hazards = s1.hazards - s0.hazards;
	fiberMemcpyDtoH(dev, out, buf, 4 * (size_t)nword);
	rc = 0;
out:
	fiberDeviceDestroy(dev);
	return rc;
}

/* text compiled by fiberc (the program: $FIBERC, else build/bin/fiberc) with the passes after
 * selection: the listing (malloc'd), or NULL with the messages in err */
static char *
pipeline(const char *text, char *err, size_t nerr)
{
	const char *fiberc = getenv("FIBERC") ? getenv("FIBERC") : "build/bin/fiberc";
	char in[] = "/tmp/ptxhalfXXXXXX.vfsass", out[64], log[64], cmd[512], *r = NULL;
	int fd = mkstemps(in, 7);
	FILE *f;
	long n;

	if (fd < 0) {
		snprintf(err, nerr, "mkstemps failed");
		return NULL;
	}
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	snprintf(out, sizeof out, "%s.sass", in);
	snprintf(log, sizeof log, "%s.log", in);
	snprintf(cmd, sizeof cmd, "%s %s --passes=cfg,sched,regalloc,ctrl-bits -o %s 2>%s", fiberc,
	         in, out, log);
	int rc = system(cmd);
	if ((f = fopen(rc == 0 ? out : log, "r"))) {
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		r = calloc(1, (size_t)n + 1);
		if (fread(r, 1, (size_t)n, f) != (size_t)n)
			r[0] = 0;
		fclose(f);
	}
	if (rc != 0) {
		snprintf(err, nerr, "%s: %s", cmd, r ? r : "");
		free(r);
		r = NULL;
	}
	unlink(in);
	unlink(out);
	unlink(log);
	return r;
}

/* the code of a listing, for failure messages (Check refuses long ones): from the kernel's
 * label, at most 3000 bytes through "%.3000s" */
static const char *
code(const char *text)
{
	const char *s = text ? strstr(text, "\nk:") : NULL;

	return s ? s + 1 : text ? text : "";
}

/* ---- the cases ------------------------------------------------------------------------------- */

typedef struct HCase {
	const char *name;
	int minsm;         /* 80: run on sm_80 and sm_90; 89/90: on sm_90 only */
	const char *body;  /* PTX lines after the loads */
	const char *outs;  /* registers read back */
	uint64_t in[4];    /* k_a, k_b, k_c, k_d */
	uint32_t want[8];  /* result words (of a 16-bit register: its low half) */
} HCase;

static const HCase cases[] = {
	/* add sub mul: halves independent, ties to even, the high half of a 16-bit register ignored */
	{ "add.f16x2", 80, "add.f16x2 %r4, %r1, %r2;", "%r4",
	  { 0x3c004000, 0x3800c200 }, { 0x3e00bc00 } },
	{ "add.f16x2 ties", 80, "add.rn.f16x2 %r4, %r1, %r2;", "%r4",
	  { 0x68016800, 0x3c003c00 }, { 0x68026800 } },
	{ "add.f16 high garbage", 80, "add.f16 %h4, %h1, %h2;", "%h4",
	  { 0xdead3c00, 0xbeef4000 }, { 0x4200 } },
	{ "add.f16x2 immediate", 80, "add.f16x2 %r4, %r1, 0x3c003c00;", "%r4",
	  { 0x3c004000 }, { 0x40004200 } },
	{ "sub.f16x2", 80, "sub.rn.f16x2 %r4, %r1, %r2;", "%r4",
	  { 0x3c004000, 0x3800c200 }, { 0x38004500 } },
	{ "sub.f16 x-x is +0", 80, "sub.f16 %h4, %h1, %h2;", "%h4",
	  { 0x1111bc00, 0x2222bc00 }, { 0x0000 } },
	{ "mul.f16x2 overflow", 80, "mul.f16x2 %r4, %r1, %r2;", "%r4",
	  { 0x5c003800, 0x5c004200 }, { 0x7c003e00 } },
	{ "mul.f16 subnormal", 80, "mul.f16 %h4, %h1, %h2; mul.ftz.f16 %h5, %h1, %h2;", "%h4,%h5",
	  { 0x0400, 0x3800 }, { 0x0200, 0x0000 } },
	{ "add.sat.f16x2", 80, "add.sat.f16x2 %r4, %r1, %r2;", "%r4",
	  { 0x3a00bc00, 0x38003800 }, { 0x3c000000 } },
	{ "add.ftz.f16x2", 80, "add.f16x2 %r4, %r1, %r2; add.ftz.f16x2 %r5, %r1, %r2;", "%r4,%r5",
	  { 0x00010001, 0x3c000001 }, { 0x3c000002, 0x3c000000 } },
	/* fma: fused (one rounding: 0x3c03^2 - 1 is 0x1e02, 0x1e00 when rounded twice) */
	{ "fma.rn.f16x2", 80, "fma.rn.f16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x3c033c00, 0x3c034000, 0xbc003c00 }, { 0x1e024200 } },
	{ "fma.rn.f16", 80, "fma.rn.f16 %h4, %h1, %h2, %h3;", "%h4",
	  { 0x12343c03, 0x56783c03, 0x9abcbc00 }, { 0x1e02 } },
	{ "fma.rn.relu.f16x2", 80, "fma.rn.relu.f16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x3e004000, 0x40004200, 0xc400bc00 }, { 0x00004500 } },
	{ "fma.rn.relu.f16x2 NaN", 80, "fma.rn.relu.f16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x7e003c00, 0x3c003c00, 0x00003c00 }, { 0x7fff4000 } },
	{ "fma.rn.sat.f16x2", 80, "fma.rn.sat.f16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x3e004000, 0x40004200, 0xc400bc00 }, { 0x00003c00 } },
	/* bf16 (sm_80: through HFMA2.BF16_V2; sm_90: HADD2/HMUL2.BF16_V2) */
	{ "add.bf16x2", 80, "add.rn.bf16x2 %r4, %r1, %r2;", "%r4",
	  { 0x3f804380, 0x40003f80 }, { 0x40404380 } },
	{ "add.bf16x2 ties, -0", 80, "add.bf16x2 %r4, %r1, %r2;", "%r4",
	  { 0x43818000, 0x3f808000 }, { 0x43828000 } },
	{ "sub.bf16", 80, "sub.bf16 %h4, %h1, %h2;", "%h4",
	  { 0xffff3f80, 0x00004000 }, { 0xbf80 } },
	{ "mul.bf16x2 signed zero", 80, "mul.bf16x2 %r4, %r1, %r2;", "%r4",
	  { 0xbf804040, 0x00004040 }, { 0x80004110 } },
	{ "fma.rn.bf16x2", 80, "fma.rn.bf16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x3fc04000, 0x40004040, 0xc080bf80 }, { 0xbf8040a0 } },
	{ "fma.rn.relu.bf16x2", 80, "fma.rn.relu.bf16x2 %r4, %r1, %r2, %r3;", "%r4",
	  { 0x3fc04000, 0x40004040, 0xc080bf80 }, { 0x000040a0 } },
	{ "fma.rn.bf16 fused", 80, "fma.rn.bf16 %h4, %h1, %h2, %h3;", "%h4",
	  { 0x3f83, 0x3f83, 0xbf80 }, { 0x3d42 } },
	/* neg abs: signs of zeros, subnormals kept (flushed with .ftz) */
	{ "neg.f16x2 zeros", 80, "neg.f16x2 %r4, %r1; neg.f16x2 %r5, %r2;", "%r4,%r5",
	  { 0x00000001, 0x8000bc00 }, { 0x80008001, 0x00003c00 } },
	{ "neg.ftz.f16", 80, "neg.ftz.f16 %h4, %h1; neg.f16 %h5, %h1;", "%h4,%h5",
	  { 0x0001 }, { 0x8000, 0x8001 } },
	{ "abs.f16x2", 80, "abs.f16x2 %r4, %r1;", "%r4", { 0xbc008000 }, { 0x3c000000 } },
	{ "neg.bf16x2", 80, "neg.bf16x2 %r4, %r1;", "%r4", { 0x3f800000 }, { 0xbf808000 } },
	{ "abs.bf16", 80, "abs.bf16 %h4, %h1; abs.bf16x2 %r5, %r2;", "%h4,%r5",
	  { 0xc040, 0x8001bf80 }, { 0x4040, 0x00013f80 } },
	/* min max: a NaN gives the other operand (.NaN: the canonical NaN), -0 < +0 */
	{ "min/max.f16x2", 80, "min.f16x2 %r4, %r1, %r2; max.f16x2 %r5, %r1, %r2;"
	  "max.NaN.f16x2 %r6, %r1, %r2;", "%r4,%r5,%r6",
	  { 0x7e008000, 0x3c000000 }, { 0x3c008000, 0x3c000000, 0x7fff0000 } },
	{ "min.f16", 80, "min.f16 %h4, %h1, %h2;", "%h4", { 0x1111c200, 0x22224000 }, { 0xc200 } },
	{ "max.bf16x2", 80, "max.bf16x2 %r4, %r1, %r2;", "%r4",
	  { 0x7fc03f80, 0x40004000 }, { 0x40004000 } },
	{ "min.NaN.bf16", 80, "min.NaN.bf16 %h4, %h1, %h2;", "%h4", { 0x7fc0, 0x3f80 }, { 0x7fff } },
	/* setp: p from the low halves, q from the high ones */
	{ "setp.lt.f16x2", 80, "setp.lt.f16x2 %p1|%p2, %r1, %r2;", "%p1,%p2",
	  { 0x3c004200, 0x40004000 }, { 0, 1 } },
	{ "setp.geu.f16 NaN", 80, "setp.geu.f16 %p1, %h1, %h2; setp.ge.f16 %p2, %h1, %h2;",
	  "%p1,%p2", { 0x7e00, 0x3c00 }, { 1, 0 } },
	{ "setp.lt.and/or.f16", 80, "setp.eq.f16 %p3, %h3, %h3;"
	  "setp.lt.and.f16 %p1, %h1, %h2, !%p3; setp.lt.or.f16 %p2, %h1, %h2, !%p3;", "%p1,%p2",
	  { 0x4000, 0x3c00, 0x7e00 }, { 0, 1 } },
	{ "setp.gt.ftz.f16", 80, "setp.gt.f16 %p1, %h1, %h2; setp.gt.ftz.f16 %p2, %h1, %h2;",
	  "%p1,%p2", { 0x0001, 0x8000 }, { 1, 0 } },
	{ "setp.lt.bf16x2", 80, "setp.lt.bf16x2 %p1|%p2, %r1, %r2;", "%p1,%p2",
	  { 0x3f804040, 0x40004000 }, { 0, 1 } },
	{ "setp.nan/num.bf16", 80, "setp.nan.bf16 %p1, %h1, %h2; setp.num.bf16 %p2, %h1, %h2;",
	  "%p1,%p2", { 0x7fc1, 0x3f80 }, { 1, 0 } },
	{ "setp.gtu.xor.bf16x2", 80, "setp.eq.f16 %p3, %h3, %h3;"
	  "setp.gtu.xor.bf16x2 %p1|%p2, %r1, %r2, %p3;", "%p1,%p2",
	  { 0x40407fc0, 0x3f803f80, 0x3c00 }, { 0, 0 } },
	{ "setp.lt.or.bf16x2 p|q, ..., !p", 80, "setp.eq.f16 %p1, %h3, %h3;"
	  "setp.lt.or.bf16x2 %p1|%p2, %r1, %r2, !%p1;", "%p1,%p2",
	  { 0x40404040, 0x40004000, 0x3c00 }, { 0, 0 } },
	/* set: 1.0 per true half (same format), 0xffff per half for integers */
	{ "set.lt.f16x2.f16x2", 80, "set.lt.f16x2.f16x2 %r4, %r1, %r2; set.lt.u32.f16x2 %r5, %r1, %r2;",
	  "%r4,%r5", { 0x3c004200, 0x40004000 }, { 0x3c000000, 0xffff0000 } },
	{ "set.lt.and/or.f16x2", 80, "setp.eq.f16 %p3, %h3, %h3;"
	  "set.lt.and.f16x2.f16x2 %r4, %r1, %r2, %p3; set.lt.or.u32.f16x2 %r5, %r1, %r2, !%p3;",
	  "%r4,%r5", { 0x3c004200, 0x40004000, 0x7e00 }, { 0x00000000, 0xffffffff } },
	{ "set.ge.f16", 80, "set.ge.u32.f16 %r4, %h1, %h2; set.ge.f16.f16 %h5, %h1, %h2;"
	  "set.ge.u16.f16 %h6, %h2, %h1;", "%r4,%h5,%h6",
	  { 0x4200, 0x4000 }, { 0xffffffff, 0x3c00, 0x0000 } },
	{ "set.eq.bf16x2", 80, "set.eq.bf16x2.bf16x2 %r4, %r1, %r2; set.neu.s32.bf16x2 %r5, %r1, %r2;",
	  "%r4,%r5", { 0x3f804000, 0x3f804040 }, { 0x3f800000, 0x0000ffff } },
	{ "set.gt.bf16", 80, "set.gt.bf16.bf16 %h4, %h1, %h2; set.gt.u32.bf16 %r5, %h1, %h2;"
	  "set.lt.bf16.f16 %h6, %h2, %h1;", "%h4,%r5,%h6",
	  { 0x4040, 0x3f80 }, { 0x3f80, 0xffffffff, 0x3f80 } },
	/* cvt from f32 */
	{ "cvt.rn.f16.f32", 80, "cvt.rn.f16.f32 %h4, %f1; cvt.rn.f16.f32 %h5, %f2;"
	  "cvt.rn.f16.f32 %h6, %f3; cvt.rn.f16.f32 %h7, %f4;", "%h4,%h5,%h6,%h7",
	  { 0x3eaaaaab, 0x477ff000, 0x477fef00, 0x7fc00000 }, { 0x3555, 0x7c00, 0x7bff, 0x7fff } },
	{ "cvt.f16.f32 rounding modes", 80, "cvt.rn.f16.f32 %h4, %f1; cvt.rz.f16.f32 %h5, %f1;"
	  "cvt.rm.f16.f32 %h6, %f1; cvt.rp.f16.f32 %h7, %f1;"
	  "cvt.rn.f16.f32 %h1, %f2; cvt.rz.f16.f32 %h2, %f2;"
	  "cvt.rm.f16.f32 %h3, %f2; cvt.rp.f16.f32 %h8, %f2;", "%h4,%h5,%h6,%h7,%h1,%h2,%h3,%h8",
	  { 0x3f801800, 0xbf801800 },
	  { 0x3c01, 0x3c00, 0x3c00, 0x3c01, 0xbc01, 0xbc00, 0xbc01, 0xbc00 } },
	{ "cvt.rn.relu.f16.f32", 80, "cvt.rn.relu.f16.f32 %h4, %f1; cvt.rn.relu.f16.f32 %h5, %f2;",
	  "%h4,%h5", { 0xbf800000, 0x7fc00000 }, { 0x0000, 0x7fff } },
	{ "cvt.rn.satfinite.f16.f32", 80, "cvt.rn.satfinite.f16.f32 %h4, %f1;"
	  "cvt.rn.satfinite.f16.f32 %h5, %f2; cvt.rn.satfinite.f16.f32 %h6, %f3;", "%h4,%h5,%h6",
	  { 0x49742400, 0xff800000, 0x7fc00000 }, { 0x7bff, 0xfbff, 0x7fff } },
	{ "cvt.rn.sat.f16.f32", 80, "cvt.rn.sat.f16.f32 %h4, %f1; cvt.rn.sat.f16.f32 %h5, %f2;"
	  "cvt.rn.sat.f16.f32 %h6, %f3;", "%h4,%h5,%h6",
	  { 0x40000000, 0xbf800000, 0x7fc00000 }, { 0x3c00, 0x0000, 0x0000 } },
	{ "cvt.rp.ftz.f16.f32", 80, "cvt.rp.f16.f32 %h4, %f1; cvt.rp.ftz.f16.f32 %h5, %f1;", "%h4,%h5",
	  { 0x00000001 }, { 0x0001, 0x0000 } },
	{ "cvt.rn.f16x2.f32 order", 80, "cvt.rn.f16x2.f32 %r4, %f1, %f2;", "%r4",
	  { 0x3f800000, 0x40000000 }, { 0x3c004000 } },
	{ "cvt.rz.f16x2.f32", 80, "cvt.rz.f16x2.f32 %r4, %f1, %f2;", "%r4",
	  { 0x3f801800, 0xbf801800 }, { 0x3c00bc00 } },
	{ "cvt.rn.relu.f16x2.f32", 80, "cvt.rn.relu.f16x2.f32 %r4, %f1, %f2;", "%r4",
	  { 0xbf800000, 0x40000000 }, { 0x00004000 } },
	{ "cvt.rn.bf16.f32 ties", 80, "cvt.rn.bf16.f32 %h4, %f1; cvt.rn.bf16.f32 %h5, %f2;"
	  "cvt.rn.bf16.f32 %h6, %f3;", "%h4,%h5,%h6",
	  { 0x3f808000, 0x3f818000, 0x3f808001 }, { 0x3f80, 0x3f82, 0x3f81 } },
	{ "cvt.rn.bf16x2.f32", 80, "cvt.rn.bf16x2.f32 %r4, %f1, %f2;", "%r4",
	  { 0x3f800000, 0x40000000 }, { 0x3f804000 } },
	{ "cvt.rz/rm.bf16.f32", 80, "cvt.rz.bf16.f32 %h4, %f1; cvt.rm.bf16.f32 %h5, %f2;", "%h4,%h5",
	  { 0x3f80ffff, 0xbf80ffff }, { 0x3f80, 0xbf81 } },
	/* cvt from f64 (one rounding), integers, 16-bit floats */
	{ "cvt.rn.f16.f64", 80, "cvt.rn.f16.f64 %h4, %fd1; cvt.rn.bf16.f64 %h5, %fd2;", "%h4,%h5",
	  { 0x3ff0020000001000ull, 0x3ff0100000001000ull }, { 0x3c01, 0x3f81 } },
	{ "cvt.rz.f16.f64", 80, "cvt.rz.f16.f64 %h4, %fd1; cvt.rn.f16.f64 %h5, %fd1;", "%h4,%h5",
	  { 0x40f0000000000000ull }, { 0x7bff, 0x7c00 } },
	{ "cvt.rn.f16.s32", 80, "cvt.rn.f16.s32 %h4, %r1; cvt.rn.f16.s32 %h5, %r2;"
	  "cvt.rn.f16.s32 %h6, %r3;", "%h4,%h5,%h6",
	  { 2049, 2051, 0xffff0010 }, { 0x6800, 0x6802, 0xfc00 } },
	{ "cvt.rn.f16.s16", 80, "cvt.rn.f16.s16 %h4, %h1;", "%h4", { 0xdeadfffe }, { 0xc000 } },
	{ "cvt.f16.u32", 80, "cvt.rn.f16.u32 %h4, %r1; cvt.rz.f16.u32 %h5, %r1;", "%h4,%h5",
	  { 0xffffffff }, { 0x7c00, 0x7bff } },
	{ "cvt.rn.f16.s64", 80, "cvt.rn.f16.s64 %h4, %rd1;", "%h4",
	  { 0xfffffffffffff000ull }, { 0xec00 } },
	{ "cvt.rn.f16.u8/s8", 80, "cvt.rn.f16.u8 %h4, %h1; cvt.rn.f16.s8 %h5, %h1;", "%h4,%h5",
	  { 0xdead7f80 }, { 0x5800, 0xd800 } },
	{ "cvt.rn.bf16.s32", 80, "cvt.rn.bf16.s32 %h4, %r1; cvt.rn.bf16.s32 %h5, %r2;", "%h4,%h5",
	  { 257, 259 }, { 0x4380, 0x4382 } },
	{ "cvt.rni.f16.f16", 80, "cvt.rni.f16.f16 %h4, %h1; cvt.rni.f16.f16 %h5, %h2;"
	  "cvt.rni.f16.f16 %h6, %h3;", "%h4,%h5,%h6",
	  { 0x4100, 0x4300, 0xb800 }, { 0x4000, 0x4400, 0x8000 } },
	{ "cvt.rzi/rmi/rpi.f16.f16", 80, "cvt.rzi.f16.f16 %h4, %h1; cvt.rmi.f16.f16 %h5, %h1;"
	  "cvt.rpi.f16.f16 %h6, %h1; cvt.rpi.f16.f16 %h7, %h2;", "%h4,%h5,%h6,%h7",
	  { 0xc100, 0x4100 }, { 0xc000, 0xc200, 0xc000, 0x4200 } },
	{ "cvt.rni.bf16.bf16", 80, "cvt.rni.bf16.bf16 %h4, %h1; cvt.rni.bf16.bf16 %h5, %h2;",
	  "%h4,%h5", { 0x4020, 0x4060 }, { 0x4000, 0x4080 } },
	{ "cvt.f16.f16", 80, "cvt.f16.f16 %h4, %h1; cvt.f16.f16 %r4, %h1;", "%h4,%r4",
	  { 0xbeef1234 }, { 0x1234, 0x1234 } },
	{ "cvt to a wider register", 80, "cvt.rn.f16.f32 %r4, %f1; cvt.rn.bf16.s32 %r5, %r2;"
	  "cvt.rni.f16.f16 %r6, %h3;", "%r4,%r5,%r6",
	  { 0x3f800000, 2, 0xdead4100 }, { 0x3c00, 0x4000, 0x4000 } },
	{ "cvt.bf16.f16", 80, "cvt.rn.bf16.f16 %h4, %h1; cvt.rn.bf16.f16 %h5, %h2;"
	  "cvt.rz.bf16.f16 %h6, %h2;", "%h4,%h5,%h6",
	  { 0x3c01, 0x7bff }, { 0x3f80, 0x4780, 0x477f } },
	{ "cvt.f16.bf16", 80, "cvt.rn.f16.bf16 %h4, %h1; cvt.rn.f16.bf16 %h5, %h2;", "%h4,%h5",
	  { 0x4780, 0x3eab }, { 0x7c00, 0x3558 } },
	/* fp8 (sm_89 and later) */
	{ "cvt.rn.satfinite.e4m3x2.f32", 89, "cvt.rn.satfinite.e4m3x2.f32 %h4, %f1, %f2;"
	  "cvt.rn.satfinite.e4m3x2.f32 %h5, %f3, %f4;", "%h4,%h5",
	  { 0x3f800000, 0x43e00000, 0x447a0000, 0x7fc00000 }, { 0x387e, 0x7e7f } },
	{ "cvt.rn.satfinite.e5m2x2.f32", 89, "cvt.rn.satfinite.e5m2x2.f32 %h4, %f1, %f2;"
	  "cvt.rn.satfinite.e5m2x2.f32 %h5, %f3, %f1;", "%h4,%h5",
	  { 0x3f800000, 0x47600000, 0x49742400 }, { 0x3c7b, 0x7b3c } },
	{ "cvt.rn.satfinite.e4m3x2.f16x2", 89, "cvt.rn.satfinite.e4m3x2.f16x2 %h4, %r1;"
	  "cvt.rn.satfinite.e4m3x2.bf16x2 %h5, %r2;", "%h4,%h5",
	  { 0x3c005f00, 0x3f8043e0 }, { 0x387e, 0x387e } },
	{ "cvt.rn.satfinite.relu.e4m3x2.f32", 89, "cvt.rn.satfinite.relu.e4m3x2.f32 %h4, %f1, %f2;",
	  "%h4", { 0xbf800000, 0x40000000 }, { 0x0040 } },
	{ "cvt.rn.f16x2.e4m3x2", 89, "cvt.rn.f16x2.e4m3x2 %r4, %h1; cvt.rn.f16x2.e5m2x2 %r5, %h2;"
	  "cvt.rn.relu.f16x2.e4m3x2 %r6, %h3;", "%r4,%r5,%r6",
	  { 0x387e, 0x3c7b, 0xb838 }, { 0x3c005f00, 0x3c007b00, 0x00003c00 } },
	/* ex2 tanh: exact cases */
	{ "ex2.approx.f16x2", 80, "ex2.approx.f16x2 %r4, %r1; ex2.approx.f16 %h5, %h2;", "%r4,%h5",
	  { 0x3c00bc00, 0xdead0000 }, { 0x40003800, 0x3c00 } },
	{ "ex2.approx.ftz.bf16x2", 80, "ex2.approx.ftz.bf16x2 %r4, %r1;", "%r4",
	  { 0x4040bf80 }, { 0x41003f00 } },
	{ "tanh.approx.f16x2", 80, "tanh.approx.f16x2 %r4, %r1; tanh.approx.f16 %h5, %h2;"
	  "tanh.approx.bf16 %h6, %h3;", "%r4,%h5,%h6",
	  { 0x0000b800, 0x4900, 0x4120 }, { 0x0000b765, 0x3c00, 0x3f80 } },
	/* a guard and a scalar chain (rmsnorm-style: widen, scale, round back) */
	{ "guarded add.f16x2", 80, "mov.b32 %r4, %r3; setp.lt.f16 %p1, %h1, %h2;"
	  "@%p1 add.f16x2 %r4, %r1, %r2; @!%p1 sub.f16x2 %r5, %r1, %r2;", "%r4,%r5",
	  { 0x3c004000, 0x3800c200, 0x12345678 }, { 0x12345678, 0x38004500 } },
};

START_TEST(test_half_run)
{
	const HCase *c = &cases[_i];

	for (int sm = 80; sm <= 90; sm += 10) {
		char err[4096] = "", *ptx, *text, *sass;
		uint32_t got[8], m[8];
		uint64_t hz = 99;
		int nword = 0;
		if (sm < c->minsm)
			continue;
		ptx = kernel(c->body, sm);
		text = lower(ptx, sm, err, sizeof err);
		ck_assert_msg(text != NULL, "%s, sm_%d: lowering failed:\n%.3000s", c->name, sm, err);
		sass = allocate(text, c->outs, sm, &nword, m, err, sizeof err);
		ck_assert_msg(sass != NULL, "%s: %s", c->name, err);
		ck_assert_msg(launch(sass, sm, c->in, got, nword, 0, NULL, err, sizeof err) == 0,
		              "%s, sm_%d: %.1000s\n%.3000s", c->name, sm, err, code(sass));
		for (int k = 0; k < nword; k++)
			ck_assert_msg((got[k] & m[k]) == c->want[k], "%s, sm_%d, result %d: 0x%08x, want "
			              "0x%08x (mask 0x%x)\n%.3000s", c->name, sm, k, got[k], c->want[k], m[k],
			              code(text));
		free(sass);
		/* the same through sched, regalloc and ctrl-bits, in timing mode: no hazard */
		char *vtext = vstores(text, c->outs, sm, &nword, m, err, sizeof err);
		ck_assert_msg(vtext != NULL, "%s: %s", c->name, err);
		sass = pipeline(vtext, err, sizeof err);
		ck_assert_msg(sass != NULL, "%s, sm_%d: %.1000s\n%.3000s", c->name, sm, err, code(vtext));
		memset(got, 0, sizeof got);
		ck_assert_msg(launch(sass, sm, c->in, got, nword, 1, &hz, err, sizeof err) == 0,
		              "%s, sm_%d (pipeline): %.1000s\n%.3000s", c->name, sm, err, code(sass));
		for (int k = 0; k < nword; k++)
			ck_assert_msg((got[k] & m[k]) == c->want[k], "%s, sm_%d (pipeline), result %d: "
			              "0x%08x, want 0x%08x\n%.3000s", c->name, sm, k, got[k], c->want[k],
			              code(sass));
		ck_assert_msg(hz == 0, "%s, sm_%d: %llu hazards\n%.3000s", c->name, sm,
		              (unsigned long long)hz, code(sass));
		free(vtext);
		free(ptx);
		free(text);
		free(sass);
	}
}
END_TEST

/* the SASS nvcc writes for the same PTX (tests/corpus/half.*.sass), per architecture */
static const struct {
	int sm;
	const char *body, *want;
} isel[] = {
	{ 80, "add.f16 %h4, %h1, %h2;", "HADD2 %h4, %h1.H0_H0, %h2.H0_H0 ;" },
	{ 80, "sub.f16x2 %r4, %r1, %r2;", "HADD2 %r4, %r1, -%r2 ;" },
	{ 80, "fma.rn.relu.f16x2 %r4, %r1, %r2, %r3;", "HFMA2.MMA.RELU %r4, %r1, %r2, %r3 ;" },
	{ 80, "add.bf16x2 %r4, %r1, %r2;", "HFMA2.BF16_V2 %r4, %r1, 1, 1, %r2 ;" },
	{ 90, "add.bf16x2 %r4, %r1, %r2;", "HADD2.BF16_V2 %r4, %r1, %r2 ;" },
	{ 80, "mul.bf16 %h4, %h1, %h2;", "HFMA2.BF16_V2 %h4, %h1.H0_H0, %h2.H0_H0, -RZ.H0_H0 ;" },
	{ 80, "neg.bf16x2 %r4, %r1;", "HFMA2.BF16_V2 %r4, -RZ.H0_H0, RZ.H0_H0, -%r1 ;" },
	{ 80, "max.f16x2 %r4, %r1, %r2;", "HMNMX2 %r4, %r1, %r2, !PT ;" },
	{ 80, "min.NaN.bf16x2 %r4, %r1, %r2;", "HMNMX2.BF16_V2.NAN %r4, %r1, %r2, PT ;" },
	{ 80, "setp.lt.f16x2 %p1|%p2, %r1, %r2;", "HSETP2.LT.AND %p1, %p2, %r1, %r2, PT ;" },
	{ 90, "setp.geu.bf16 %p1, %h1, %h2;", "HSETP2.BF16_V2.GEU.AND %p1, PT, %h1.H0_H0, %h2.H0_H0, PT ;" },
	{ 80, "set.lt.f16x2.f16x2 %r4, %r1, %r2;", "HSET2.BF.LT.AND %r4, %r1, %r2, PT ;" },
	{ 80, "cvt.rn.f16x2.f32 %r4, %f1, %f2;", "F2FP.PACK_AB %r4, %f1, %f2 ;" },
	{ 90, "cvt.rn.f16x2.f32 %r4, %f1, %f2;", "F2FP.F16.F32.PACK_AB %r4, %f1, %f2 ;" },
	{ 80, "cvt.rn.f16.f32 %h4, %f1;", "F2FP.PACK_AB %h4, RZ, %f1 ;" },
	{ 90, "cvt.rn.bf16.f32 %h4, %f1;", "F2FP.BF16.F32.PACK_AB %h4, RZ, %f1 ;" },
	{ 80, "cvt.rn.f16.f64 %h4, %fd1;", "F2F.F16.F64 %h4, %fd1 ;" },
	{ 80, "cvt.rn.f16.s16 %h4, %h1;", "I2F.F16.S16 %h4, %h1 ;" },
	{ 80, "cvt.rn.f16.s32 %h4, %r1;", "I2F.F16 %h4, %r1 ;" },
	{ 90, "cvt.rn.satfinite.e4m3x2.f32 %h4, %f1, %f2;",
	  "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C %h4, %f1, %f2, RZ ;" },
	{ 90, "cvt.rn.f16x2.e5m2x2 %r4, %h1;", "F2FP.F16.E5M2.UNPACK_B %r4, %h1 ;" },
};

START_TEST(test_half_isel)
{
	char err[2048], *ptx = kernel(isel[_i].body, isel[_i].sm);
	char *text = lower(ptx, isel[_i].sm, err, sizeof err);

	ck_assert_msg(text != NULL, "%s: %s", isel[_i].body, err);
	ck_assert_msg(strstr(text, isel[_i].want) != NULL, "%s on sm_%d: no line '%s' in\n%.3000s",
	              isel[_i].body, isel[_i].sm, isel[_i].want, code(text));
	free(ptx);
	free(text);
}
END_TEST

/* unsupported forms: a located error on the PTX text, never wrong code */
static const struct {
	int sm;
	const char *body, *want;
} bad[] = {
	{ 80, "min.xorsign.abs.f16 %h4, %h1, %h2;",
	  "t.ptx:32:1: error: 'min.xorsign.abs.f16' is not supported yet: .xorsign.abs" },
	{ 80, "cvt.rn.satfinite.e4m3x2.f32 %h4, %f1, %f2;",
	  "t.ptx:32:1: error: 'cvt.rn.satfinite.e4m3x2.f32' is not supported yet: fp8 conversions need "
	  "sm_89" },
	{ 80, "fma.rn.oob.f16 %h4, %h1, %h2, %h3;", "t.ptx:32:1: error: 'fma.rn.oob.f16' is not "
	  "supported yet: .oob" },
	{ 80, "add.rz.f16 %h4, %h1, %h2;", "error: 'add.rz.f16' is not supported yet: half-precision "
	  "arithmetic rounds to nearest" },
	{ 90, "fma.rn.f32.f16 %f5, %h1, %h2, %f1;", "is not supported yet: the mixed-precision form" },
	/* operands of the wrong size: the PTX check's error, before selection */
	{ 80, "add.f16x2 %r4, %h1, %r2;", "t.ptx:32:16: error: '%h1' is a 16-bit register; "
	  "'add.f16x2' takes 32-bit operands" },
	{ 80, "add.f16 %h4, %h1, 0f3F800000;", "error: 'add.f16' is not supported yet: a float literal" },
	{ 80, "add.ftz.bf16 %h4, %h1, %h2;", "error: 'add.ftz.bf16' is not supported yet: .ftz and .sat "
	  "are f16 modifiers" },
	{ 80, "cvt.f16.f32 %h4, %f1;", "error: 'cvt.f16.f32' is not supported yet: a conversion to "
	  ".f16 from .f32 needs .rn" },
	{ 90, "cvt.rs.f16x2.f32 %r4, %f1, %f2, %r1;", "error: 'cvt.rs.f16x2.f32' is not supported yet: "
	  "stochastic" },
	{ 80, "setp.lt.f16x2 %p1, %r1, %r2;", "error: 'setp.lt.f16x2' is not supported yet: a packed "
	  "comparison writes a pair p|q" },
	{ 80, "min.f16 %h4, %h1, %h2, %h3;", "t.ptx:32:1: error: 'min.f16' is not supported yet: this "
	  "form takes 3 operands, not 4" },
	{ 80, "add.f16 %r4, %h1, %h2;", "t.ptx:32:9: error: '%r4' is a 32-bit register; 'add.f16' "
	  "takes 16-bit operands" },
};

START_TEST(test_half_errors)
{
	char err[2048], *ptx = kernel(bad[_i].body, bad[_i].sm);
	char *text = lower(ptx, bad[_i].sm, err, sizeof err);

	ck_assert_msg(text == NULL, "%s was selected", bad[_i].body);
	ck_assert_msg(strstr(err, bad[_i].want) != NULL, "%s: got\n%s\nwant '%s'", bad[_i].body, err,
	              bad[_i].want);
	free(ptx);
}
END_TEST

/* every row names its SASS; the family answers for its opcodes with half types only */
START_TEST(test_half_table)
{
	extern const SelRow ptxsel_half[];
	int n = 0;

	for (const SelRow *r = ptxsel_half; r->op; r++, n++) {
		ck_assert_int_eq(r->tclass, TcHalf);
		ck_assert_ptr_nonnull(r->fn);
		ck_assert_msg(r->doc && r->doc[0] && !strchr(r->doc, '|'), "row %s: doc '%s'", r->op,
		              r->doc ? r->doc : "");
	}
	ck_assert_int_eq(n, 13);
}
END_TEST

Suite *
ptx_half_suite(void)
{
	Suite *s = suite_create("ptx_half");
	TCase *tc = tcase_create("Run");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_half_run, 0, sizeof cases / sizeof cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Select");
	tcase_add_loop_test(tc, test_half_isel, 0, sizeof isel / sizeof isel[0]);
	tcase_add_loop_test(tc, test_half_errors, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_half_table);
	suite_add_tcase(s, tc);
	return s;
}
