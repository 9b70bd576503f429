/* check_ptx_int.c: the int family of PTX instruction selection (backend/isel/ptxsel_int.c,
 * ptxsel_ibit.c, ptxsel_icmp.c, ptxsel_idiv.c). Each case is a small nvcc-style kernel: its
 * inputs are kernel parameters (u32 a, b, c as %r1..%r3 and their low halves %h1..%h3, the high
 * half of a 16-bit register holding the garbage PTX allows; u64 A, B as %rd1, %rd2), then the
 * instructions under test. The kernel is lowered (ptx_lower), stores of the result registers
 * are added before its EXIT, and fiberc's PTX passes (cfg, sched, regalloc, ctrl-bits) make it
 * runnable; it runs on the simulator for sm_80 and sm_90 over a table of input vectors (zeros,
 * ones, the extremes, INT_MIN / -1, shift amounts 31 to 255, random words), each result checked
 * against a reference C expression of the PTX ISA's semantics (sections 9.7.1 integer
 * arithmetic, 9.7.8 logic and shift, 9.7.9 cvt). Also: the SASS that each form selects (nvcc's
 * forms), a run in timing mode (no hazards), located errors for the unselected forms.
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

enum { NIn = 5, MaxOut = 8 };

typedef uint64_t u64;
typedef uint32_t u32;
typedef int32_t s32;
typedef int64_t s64;

/* ---- the kernel, lowered and allocated ------------------------------------------------------ */

static char *
kernel(const char *body, int sm)
{
	static const char head[] =
	    ".version 8.5\n.target sm_%d\n.address_size 64\n\n"
	    ".visible .entry k(\n\t.param .u64 k_o,\n\t.param .u32 k_a,\n\t.param .u32 k_b,\n"
	    "\t.param .u32 k_c,\n\t.param .u64 k_A,\n\t.param .u64 k_B\n)\n{\n"
	    "\t.reg .pred \t%%p<10>;\n\t.reg .b16 \t%%h<20>;\n\t.reg .b32 \t%%r<40>;\n"
	    "\t.reg .b64 \t%%rd<20>;\n"
	    "\tld.param.u64 \t%%rd0, [k_o];\n"
	    "\tld.param.u32 \t%%r1, [k_a];\n\tld.param.u32 \t%%r2, [k_b];\n"
	    "\tld.param.u32 \t%%r3, [k_c];\n\tld.param.b16 \t%%h1, [k_a];\n"
	    "\tld.param.b16 \t%%h2, [k_b];\n\tld.param.b16 \t%%h3, [k_c];\n"
	    "\tld.param.u64 \t%%rd1, [k_A];\n\tld.param.u64 \t%%rd2, [k_B];\n";
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

/* the bits of output register name ("%rd4" 64, "%h4" 16, "%r4" 32) */
static int
out_bits(const char *s)
{
	return !strncmp(s, "%rd", 3) ? 64 : s[1] == 'h' ? 16 : 32;
}

/* the outputs "%r4,%rd5" split; their number */
static int
split_outs(const char *outs, char names[MaxOut][16])
{
	int n = 0;

	for (const char *s = outs; *s && n < MaxOut;) {
		size_t k = strcspn(s, ",");
		snprintf(names[n++], 16, "%.*s", (int)k, s);
		s += k + (s[k] == ',');
	}
	return n;
}

/* the lowered text with a store of each output (8 bytes apart) before the exit label */
static char *
add_stores(const char *text, const char *outs)
{
	char names[MaxOut][16], st[1024] = "";
	int n = split_outs(outs, names);
	const char *at = strstr(text, ".L_exit0:");
	size_t len = 0;

	for (int k = 0; k < n; k++)
		len += (size_t)snprintf(st + len, sizeof st - len, "        STG.E%s [%%rd0.64+0x%x], %s ;\n",
		                        out_bits(names[k]) == 64 ? ".64" : "", 8 * k, names[k]);
	if (!at)
		return NULL;
	size_t pre = (size_t)(at - text), total = strlen(text) + len + 1;
	char *s = malloc(total);
	memcpy(s, text, pre);
	memcpy(s + pre, st, len);
	strcpy(s + pre + len, at);
	return s;
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *s;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	s[fread(s, 1, (size_t)n, f)] = 0;
	fclose(f);
	return s;
}

/* the case's kernel made runnable by fiberc (malloc'd SASS), or NULL with err */
static char *
build(const char *body, const char *outs, int sm, char *err, size_t nerr)
{
	char dir[] = "/tmp/ptxintXXXXXX", in[64], out[64], log[64], cmd[512];
	char *ptx = kernel(body, sm), *text = lower(ptx, sm, err, nerr), *st, *sass = NULL;
	FILE *f;

	free(ptx);
	if (!text)
		return NULL;
	st = add_stores(text, outs);
	free(text);
	if (!st || !mkdtemp(dir)) {
		snprintf(err, nerr, "no exit label or temporary directory");
		free(st);
		return NULL;
	}
	snprintf(in, sizeof in, "%s/k.vfsass", dir);
	snprintf(out, sizeof out, "%s/k.sass", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	if ((f = fopen(in, "w"))) {
		fputs(st, f);
		fclose(f);
	}
	snprintf(cmd, sizeof cmd, "%s %s --arch=sm_%d --passes=cfg,sched,regalloc,ctrl-bits "
	         "--emit=sass -o %s 2>%s", getenv("FIBERC") ? getenv("FIBERC") : "build/bin/fiberc",
	         in, sm, out, log);
	if (system(cmd) == 0)
		sass = slurp(out);
	if (!sass) {
		char *m = slurp(log);
		snprintf(err, nerr, "fiberc: %s\n%s", m ? m : "", st);
		free(m);
	}
	free(st);
	unlink(in);
	unlink(out);
	unlink(log);
	rmdir(dir);
	return sass;
}

/* the input vectors: a, b, c (u32), A, B (u64) */
static u64 vecs[32][NIn] = {
	{ 0, 0, 0, 0, 0 },
	{ 1, 1, 1, 1, 1 },
	{ 0xffffffff, 0xffffffff, 0xffffffff, ~0ull, ~0ull },
	{ 0x80000000, 0xffffffff, 0x7fffffff, 0x8000000000000000ull, ~0ull },
	{ 0x12345678, 5, 0x9abcdef0, 0x123456789abcdef0ull, 7 },
	{ 0xdeadbeef, 31, 32, 0xfedcba9876543210ull, 33 },
	{ 7, 32, 0x80, 0xffffffffull, 0x100000000ull },
	{ 0xfffffff9, 3, 0xffff8000, (u64)-7, 3 },
	{ 0x7fffffff, 0x80000000, 1, 0x7fffffffffffffffull, 0x8000000000000000ull },
	{ 0x8000, 0xffff, 0x17fff, 0x123, 64 },
	{ 1000, 0xfffffffe, 0x3f, 1000000007, (u64)-2 },
	{ 0xa5a5a5a5, 0x1f, 0x5a5a, 0xa5a5a5a5a5a5a5a5ull, 0x5a5a5a5a5a5a5a5bull },
	{ 255, 256, 300, 0x3ffff, 70 },
	{ 0x0000abcd, 0x00001234, 0x00000f0f, 0x8000000000000001ull, 0x7fffffff00000000ull },
	{ 0xffff7fff, 0x12340008, 0x0000fffe, 0xffffffff00000000ull, 0x1ffffffffull },
	{ 0x87654321, 0x0000000c, 0x00000018, 0x0000000100000000ull, 0x00000000fffffffeull },
};
static int nvec = 16;

/* more vectors: random words (a fixed LCG) */
static void
more_vectors(void)
{
	u64 x = 0x9e3779b97f4a7c15ull;

	for (; nvec < 32; nvec++)
		for (int k = 0; k < NIn; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			vecs[nvec][k] = k < 3 ? x >> 32 : x ^ (x >> 29);
			if (nvec % 4 == 0 && k == 1)
				vecs[nvec][k] &= 0x3f;      /* small shift amounts and divisors */
			if (nvec % 4 == 1 && k == 4)
				vecs[nvec][k] >>= 40;       /* a small 64-bit divisor */
		}
}

/* run the listing once per input vector: each result in out[v][k] */
static int
run_all(const char *sass, int sm, int nout, int timing, u64 out[][MaxOut], uint64_t *hazards,
        char *err, size_t nerr)
{
	fiberDevice dev;
	fiberModule mod;
	fiberFunction fn;
	fiberDevicePtr buf;
	fiberStats s0, s1;
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
	fiberMalloc(dev, &buf, 8 * MaxOut);
	if (hazards)
		*hazards = 0;
	for (int v = 0; v < nvec; v++) {
		unsigned char pb[40] = {0};
		u32 abc[3] = { (u32)vecs[v][0], (u32)vecs[v][1], (u32)vecs[v][2] };
		memcpy(pb, &buf, 8);
		memcpy(pb + 8, abc, 12);
		memcpy(pb + 24, &vecs[v][3], 16);
		fiberMemset(dev, buf, 0xcd, 8 * MaxOut);
		fiberGetStats(dev, &s0);
		if (fiberLaunchKernelPacked(fn, one, one, 0, pb, sizeof pb) != FIBER_SUCCESS) {
			snprintf(err, nerr, "launch: %s", fiberGetLastErrorMessage(dev));
			goto out;
		}
		fiberGetStats(dev, &s1);
		if (hazards)
			*hazards += s1.hazards - s0.hazards;
		fiberMemcpyDtoH(dev, out[v], buf, 8 * (size_t)nout);
	}
	rc = 0;
out:
	fiberDeviceDestroy(dev);
	return rc;
}

/* ---- the references --------------------------------------------------------------------------- */

#define A ((u32)in[0])
#define B ((u32)in[1])
#define C ((u32)in[2])
#define AA (in[3])
#define BB (in[4])
#define SA ((s32)A)
#define SB ((s32)B)
#define SAA ((s64)AA)
#define SBB ((s64)BB)
#define H(x) ((uint16_t)(x))
#define SH(x) ((int16_t)(x))
#define REF(name) static void name(const u64 *in, u64 *o)

static u64 sx(u64 v, int bits) { return bits >= 64 ? v : (v & (1ull << (bits - 1))) ? v | ~((1ull << bits) - 1) : v & ((1ull << bits) - 1); }
static u32 sat32(s64 v) { return v > INT32_MAX ? (u32)INT32_MAX : v < INT32_MIN ? (u32)INT32_MIN : (u32)v; }
static u32 shl32(u32 a, u32 n) { return n >= 32 ? 0 : a << n; }
static u32 shru32(u32 a, u32 n) { return n >= 32 ? 0 : a >> n; }
static u32 shrs32(u32 a, u32 n) { return (u32)((s32)a >> (n >= 32 ? 31 : n)); }
static u64 shl64(u64 a, u32 n) { return n >= 64 ? 0 : a << n; }
static u64 shru64(u64 a, u32 n) { return n >= 64 ? 0 : a >> n; }
static u64 shrs64(u64 a, u32 n) { return (u64)((s64)a >> (n >= 64 ? 63 : n)); }
static u64 mulhu64(u64 a, u64 b) { return (u64)(((unsigned __int128)a * b) >> 64); }
static u64 mulhs64(u64 a, u64 b) { return (u64)(((__int128)(s64)a * (s64)b) >> 64); }
/* nvcc's results for a zero divisor: all ones */
static u32 divu32(u32 a, u32 b) { return b ? a / b : ~0u; }
static u32 remu32(u32 a, u32 b) { return b ? a % b : ~0u; }
static u32 divs32(u32 a, u32 b) { return !b ? ~0u : (a == 0x80000000u && b == ~0u) ? a : (u32)((s32)a / (s32)b); }
static u32 rems32(u32 a, u32 b) { return !b ? ~0u : b == ~0u ? 0 : (u32)((s32)a % (s32)b); }
static u64 divu64(u64 a, u64 b) { return b ? a / b : ~0ull; }
static u64 remu64(u64 a, u64 b) { return b ? a % b : ~0ull; }
static u64 mag(u64 a) { return (s64)a < 0 ? -a : a; }
static u64 divs64(u64 a, u64 b)
{
	u64 q = divu64(mag(a), mag(b));
	return ((a ^ b) >> 63) ? -q : q;
}
static u64 rems64(u64 a, u64 b)
{
	u64 r = remu64(mag(a), mag(b));
	return (a >> 63) ? -r : r;
}
static u32 bfe32(u32 a, u32 p, u32 l, int sgn)
{
	p &= 0xff;
	l &= 0xff;
	u32 sbit = !sgn || !l ? 0 : (a >> (p + l - 1 > 31 ? 31 : p + l - 1)) & 1, d = 0;
	for (u32 i = 0; i < 32; i++)
		d |= (u32)(i < l && p + i <= 31 ? (a >> (p + i)) & 1 : sbit) << i;
	return d;
}
static u64 bfe64(u64 a, u32 p, u32 l, int sgn)
{
	p &= 0xff;
	l &= 0xff;
	u64 sbit = !sgn || !l ? 0 : (a >> (p + l - 1 > 63 ? 63 : p + l - 1)) & 1, d = 0;
	for (u32 i = 0; i < 64; i++)
		d |= (u64)(i < l && p + i <= 63 ? (a >> (p + i)) & 1 : sbit) << i;
	return d;
}
static u64 bfi(u64 a, u64 b, u32 p, u32 l, int bits)
{
	p &= 0xff;
	l &= 0xff;
	for (u32 i = 0; i < l && p + i < (u32)bits; i++)
		b = (b & ~(1ull << (p + i))) | (((a >> i) & 1) << (p + i));
	return b;
}
static u32 prmt(u32 a, u32 b, u32 c)
{
	u64 x = (u64)b << 32 | a;
	u32 r = 0;
	for (int i = 0; i < 4; i++) {
		u32 s = (c >> (4 * i)) & 0xf, byte = (u32)(x >> (8 * (s & 7))) & 0xff;
		if (s & 8)
			byte = byte & 0x80 ? 0xff : 0;
		r |= byte << (8 * i);
	}
	return r;
}
static u32 lut3(u32 a, u32 b, u32 c, u32 lut)
{
	u32 r = 0;
	for (int i = 0; i < 32; i++) {
		u32 k = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
		r |= ((lut >> k) & 1) << i;
	}
	return r;
}
static u32 clz32(u32 a) { return a ? (u32)__builtin_clz(a) : 32; }
static u32 clz64(u64 a) { return a ? (u32)__builtin_clzll(a) : 64; }
static u32 bfind32(u32 a, int sgn, int sh)
{
	if (sgn && (a >> 31))
		a = ~a;
	if (!a)
		return ~0u;
	u32 p = 31 - (u32)__builtin_clz(a);
	return sh ? 31 - p : p;
}
static u32 bfind64(u64 a, int sgn, int sh)
{
	if (sgn && (a >> 63))
		a = ~a;
	if (!a)
		return ~0u;
	u32 p = 63 - (u32)__builtin_clzll(a);
	return sh ? 63 - p : p;
}
static u32 brev32(u32 a)
{
	u32 r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((a >> i) & 1) << (31 - i);
	return r;
}
static u32 sad32(u32 a, u32 b, u32 c, int sgn)
{
	u32 d = sgn ? ((s32)a > (s32)b ? a - b : b - a) : (a > b ? a - b : b - a);
	return d + c;
}
static u32 dp4a(u32 a, u32 b, u32 c, int as, int bs)
{
	for (int k = 0; k < 4; k++) {
		u32 x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
		s32 xv = as ? (int8_t)x : (s32)x, yv = bs ? (int8_t)y : (s32)y;
		c += (u32)(xv * yv);
	}
	return c;
}
static u32 dp2a(u32 a, u32 b, u32 c, int as, int bs, int hi)
{
	for (int k = 0; k < 2; k++) {
		u32 x = (a >> (16 * k)) & 0xffff, y = (b >> (8 * (k + 2 * hi))) & 0xff;
		s32 xv = as ? (int16_t)x : (s32)x, yv = bs ? (int8_t)y : (s32)y;
		c += (u32)(xv * yv);
	}
	return c;
}
static u64 sat_range(s64 v, int bits, int sgn)
{
	s64 lo = sgn ? -(1ll << (bits - 1)) : 0, hi = sgn ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
	return (u64)(v < lo ? lo : v > hi ? hi : v);
}

/* add, sub, the carry chain */
REF(r_add32) { o[0] = A + B; o[1] = A - B; o[2] = A + 7; o[3] = 5 - B; o[4] = H(A) + H(B); o[5] = H(A - B); }
REF(r_add64) { o[0] = AA + BB; o[1] = AA - BB; o[2] = AA + 0x100000001ull; o[3] = AA - 1; o[4] = 9 - BB; }
REF(r_addsat) { o[0] = sat32((s64)SA + SB); o[1] = sat32((s64)SA - SB); o[2] = sat32((s64)SA + 0x7ffffff0); }
REF(r_carry32)
{
	u64 s = AA + BB, d = AA - BB;
	o[0] = (u32)s; o[1] = (u32)(s >> 32); o[2] = (u32)d; o[3] = (u32)(d >> 32);
	/* a three-word sum {C, B, A} + {A, C, B}: the carries through two addc.cc */
	unsigned __int128 x = (unsigned __int128)C << 64 | (u64)B << 32 | A;
	unsigned __int128 y = (unsigned __int128)A << 64 | (u64)C << 32 | B;
	unsigned __int128 z = x + y, z2 = x - y;
	o[4] = (u32)z; o[5] = (u32)(z >> 32); o[6] = (u32)(z >> 64); o[7] = (u32)(z2 >> 64) ^ (u32)z2;
}
REF(r_carry64)
{
	unsigned __int128 x = (unsigned __int128)BB << 64 | AA, y = (unsigned __int128)AA << 64 | BB;
	unsigned __int128 s = x + y, d = x - y;
	o[0] = (u64)s; o[1] = (u64)(s >> 64); o[2] = (u64)d; o[3] = (u64)(d >> 64);
}
REF(r_madcc)
{
	/* {hi, lo} = A * B + {C, C} through mad.lo.cc / madc.hi */
	u64 p = (u64)A * B, c = (u64)C << 32 | C, s = p + c;
	o[0] = (u32)s; o[1] = (u32)(s >> 32);
	/* the carry out of the hi part: an extra addc of 0 */
	unsigned __int128 t = (unsigned __int128)p + c;
	o[2] = (u32)(t >> 64);
}
/* mul, mad */
REF(r_mul32)
{
	o[0] = A * B; o[1] = (u32)(((s64)SA * SB) >> 32); o[2] = (u32)(((u64)A * B) >> 32);
	o[3] = (u64)((s64)SA * SB); o[4] = (u64)A * B; o[5] = A * 0x1234;
	o[6] = (u32)(((u64)A * 0xfffffff1u) >> 32); o[7] = (u64)((s64)SA * -3);
}
REF(r_mad32)
{
	o[0] = A * B + C; o[1] = (u32)(((s64)SA * SB) >> 32) + C; o[2] = (u32)(((u64)A * B) >> 32) + C;
	o[3] = (u64)((s64)SA * SB) + (u64)(s64)SB; o[4] = (u64)A * B + AA;
	o[5] = sat32((s64)(s32)(u32)(((s64)SA * SB) >> 32) + (s32)C);
}
REF(r_mul16)
{
	o[0] = H(H(A) * H(B)); o[1] = H((SH(A) * SH(B)) >> 16); o[2] = H(((u32)H(A) * H(B)) >> 16);
	o[3] = (u32)(SH(A) * SH(B)); o[4] = (u32)H(A) * H(B); o[5] = H(H(A) * H(B) + H(C));
	o[6] = (u32)(SH(A) * SH(B)) + C;
}
REF(r_mul64)
{
	o[0] = AA * BB; o[1] = mulhu64(AA, BB); o[2] = mulhs64(AA, BB); o[3] = AA * BB + AA;
	o[4] = mulhs64(AA, BB) + BB; o[5] = mulhu64(AA, 0x5555555555555556ull);
	o[6] = AA * 0x100000003ull;
}
REF(r_mul24)
{
	s32 a = (s32)sx(A, 24), b = (s32)sx(B, 24);
	u32 ua = A & 0xffffff, ub = B & 0xffffff;
	o[0] = (u32)((s64)a * b); o[1] = (u32)(((s64)a * b) >> 16); o[2] = ua * ub;
	o[3] = (u32)(((u64)ua * ub) >> 16); o[4] = (u32)((s64)a * b) + C;
	o[5] = (u32)(((u64)ua * ub) >> 16) + C;
}
REF(r_sad) { o[0] = sad32(A, B, C, 1); o[1] = sad32(A, B, C, 0); o[2] = H(sad32(H(A), H(B), H(C), 0));
             o[3] = H(sad32((u32)SH(A), (u32)SH(B), H(C), 1));
             o[4] = ((s64)AA > (s64)BB ? AA - BB : BB - AA) + AA; o[5] = (AA > BB ? AA - BB : BB - AA) + 1; }
REF(r_absneg) { o[0] = SA < 0 ? -A : A; o[1] = -A; o[2] = H(SH(A) < 0 ? -SH(A) : SH(A)); o[3] = H(-A);
                o[4] = mag(AA); o[5] = -AA; }
REF(r_minmax)
{
	o[0] = SA < SB ? A : B; o[1] = SA > SB ? A : B; o[2] = A < B ? A : B; o[3] = A > B ? A : B;
	o[4] = (SA > SB ? SA : SB) < 0 ? 0 : (SA > SB ? A : B); o[5] = H(SH(A) < SH(B) ? A : B);
	o[6] = H(H(A) > H(B) ? A : B); o[7] = SA < 5 ? A : 5;
}
REF(r_minmax64) { o[0] = SAA < SBB ? AA : BB; o[1] = SAA > SBB ? AA : BB; o[2] = AA < BB ? AA : BB; o[3] = AA > BB ? AA : BB; }
REF(r_minmax16x2)
{
	u32 r0 = 0, r1 = 0, r2 = 0;
	for (int h = 0; h < 32; h += 16) {
		int16_t x = (int16_t)(A >> h), y = (int16_t)(B >> h);
		uint16_t ux = (uint16_t)(A >> h), uy = (uint16_t)(B >> h);
		r0 |= (u32)(uint16_t)(x < y ? x : y) << h;
		r1 |= (u32)(ux > uy ? ux : uy) << h;
		int16_t m = x > y ? x : y;
		r2 |= (u32)(uint16_t)(m < 0 ? 0 : m) << h;
	}
	o[0] = r0; o[1] = r1; o[2] = r2;
	o[3] = ((A & 0xffff) + (B & 0xffff)) % 0x10000 | ((A >> 16) + (B >> 16)) << 16;
	o[4] = (u32)(((A & 0xffff) - (B & 0xffff)) & 0xffff) | ((A >> 16) - (B >> 16)) << 16;
}
REF(r_dp)
{
	o[0] = dp4a(A, B, C, 1, 1); o[1] = dp4a(A, B, C, 0, 0); o[2] = dp4a(A, B, C, 1, 0);
	o[3] = dp2a(A, B, C, 1, 1, 0); o[4] = dp2a(A, B, C, 0, 0, 1); o[5] = dp2a(A, B, C, 0, 1, 1);
}
/* div, rem */
REF(r_div32) { o[0] = divu32(A, B); o[1] = remu32(A, B); o[2] = divs32(A, B); o[3] = rems32(A, B);
               o[4] = divs32(A, 7); o[5] = rems32(A, (u32)-7); o[6] = divu32(C, 3); }
REF(r_div16)
{
	o[0] = H(divu32(H(A), H(B))); o[1] = H(remu32(H(A), H(B)));
	o[2] = H(divs32((u32)SH(A), (u32)SH(B))); o[3] = H(rems32((u32)SH(A), (u32)SH(B)));
}
REF(r_div64) { o[0] = divu64(AA, BB); o[1] = remu64(AA, BB); o[2] = divs64(AA, BB); o[3] = rems64(AA, BB);
               o[4] = divu64(AA, 10); o[5] = divs64(AA, (u64)-3); }
/* logic */
REF(r_logic)
{
	o[0] = A & B; o[1] = A | B; o[2] = A ^ B; o[3] = ~A; o[4] = A & 0xff00ff; o[5] = !A;
	o[6] = H(!H(A)); o[7] = H(~A);
}
REF(r_logic64) { o[0] = AA & BB; o[1] = AA | BB; o[2] = AA ^ BB; o[3] = ~AA; o[4] = !AA; o[5] = AA ^ 0xff0000000000ffffull; }
REF(r_pred)
{
	int p = A > B, q = SA < SB, r = C != 0;
	o[0] = p && q; o[1] = p || q; o[2] = p ^ q; o[3] = !p; o[4] = (!p) && r; o[5] = (p && q) ? 7 : 9;
}
/* shifts */
REF(r_shift32)
{
	o[0] = shl32(A, B); o[1] = shru32(A, B); o[2] = shrs32(A, B); o[3] = A << 5; o[4] = A >> 7;
	o[5] = (u32)(SA >> 13); o[6] = 0; o[7] = shrs32(A, 40);
}
REF(r_shift16)
{
	o[0] = H(shl32(H(A), B)); o[1] = H(shru32(H(A), B)); o[2] = H(shrs32((u32)SH(A), B));
	o[3] = H(A << 3); o[4] = H(H(A) >> 9); o[5] = H(SH(A) >> 9);
}
REF(r_shift64)
{
	o[0] = shl64(AA, B); o[1] = shru64(AA, B); o[2] = shrs64(AA, B); o[3] = AA << 5; o[4] = AA << 40;
	o[5] = AA >> 33; o[6] = (u64)(SAA >> 45); o[7] = (u64)(SAA >> 3);
}
REF(r_shf)
{
	u64 x = (u64)B << 32 | A;
	o[0] = (u32)((x << (C & 31)) >> 32); o[1] = (u32)(x >> (C & 31));
	o[2] = (u32)((C >= 32 ? x << 32 : x << C) >> 32); o[3] = (u32)(C >= 32 ? x >> 32 : x >> C);
	o[4] = (u32)((x << 7) >> 32); o[5] = (u32)(x >> 25);
}
REF(r_prmt)
{
	o[0] = prmt(A, B, C); o[1] = prmt(A, B, 0x5410); o[2] = prmt(A, B, 0x8901); o[3] = prmt(A, 0, 0xba98);
	u32 s = C & 3;
	static const uint16_t f4e[4] = { 0x3210, 0x4321, 0x5432, 0x6543 }, ecr[4] = { 0x0000, 0x1110, 0x2210, 0x3210 };
	static const uint16_t rc16[4] = { 0x1010, 0x3232, 0x1010, 0x3232 }, b4e[4] = { 0x5670, 0x6701, 0x7012, 0x0123 };
	o[4] = prmt(A, B, f4e[s]); o[5] = prmt(A, B, ecr[s]); o[6] = prmt(A, B, rc16[s]); o[7] = prmt(A, B, b4e[s]);
}
REF(r_bfe)
{
	o[0] = bfe32(A, B, C, 0); o[1] = bfe32(A, B, C, 1); o[2] = bfe32(A, 3, 7, 1); o[3] = bfe32(A, 20, 20, 0);
	o[4] = bfe64(AA, B, C, 0); o[5] = bfe64(AA, B, C, 1); o[6] = bfe64(AA, 30, 10, 1); o[7] = bfe64(AA, C, 40, 0);
}
REF(r_bfi)
{
	o[0] = (u32)bfi(A, B, C & 0xff, (B >> 8) & 0xff, 32); o[1] = (u32)bfi(A, B, 4, 9, 32);
	o[2] = bfi(AA, BB, C, A & 0x7f, 64); o[3] = bfi(AA, BB, 30, 12, 64); o[4] = (u32)bfi(A, B, C, 5, 32);
}
REF(r_lop3) { o[0] = lut3(A, B, C, 0x8e); o[1] = lut3(A, B, C, 0x96); o[2] = lut3(A, 0xf0f0f0f0, C, 0xe2);
              o[3] = lut3(A, B, C, 0x1e) != 0 || C > 5; o[4] = lut3(A, B, C, 0x1e) != 0 && C > 5; }
REF(r_count)
{
	o[0] = (u32)__builtin_popcount(A); o[1] = clz32(A); o[2] = bfind32(A, 0, 0); o[3] = bfind32(A, 1, 0);
	o[4] = bfind32(A, 0, 1); o[5] = bfind32(A, 1, 1); o[6] = brev32(A);
}
REF(r_count64)
{
	o[0] = (u32)__builtin_popcountll(AA); o[1] = clz64(AA); o[2] = bfind64(AA, 0, 0); o[3] = bfind64(AA, 1, 0);
	o[4] = bfind64(AA, 0, 1); o[5] = bfind64(AA, 1, 1);
	o[6] = (u64)brev32((u32)(AA >> 32)) | (u64)brev32((u32)AA) << 32;
	o[7] = clz64(AA >> 17);
}
REF(r_bmsk)
{
	u32 p = A > 32 ? 32 : A, w = B > 32 ? 32 : B;
	u64 m = ((1ull << w) - 1) << p;
	o[0] = (u32)m;
	u32 pw = A & 31, ww = B & 31;
	o[1] = (u32)((((1ull << ww) - 1) << pw));
	u32 n = C > 32 ? 32 : C;
	o[2] = n == 0 ? 0 : n == 32 ? A : (u32)sx(A, (int)n);
	u32 nw = C & 31;
	o[3] = nw == 0 ? 0 : B & ((1u << nw) - 1);
}
/* compares, selects */
REF(r_setp)
{
	o[0] = A == B; o[1] = SA < SB; o[2] = A < B; o[3] = SA >= SB; o[4] = A >= B; o[5] = SA > 5;
	o[6] = 5 < SA; o[7] = (SA <= SB) | (A == C);
}
REF(r_setp2)
{
	o[0] = (A > B) ^ (C != 0); o[1] = !(A > B) ^ (C != 0); o[2] = SH(A) < SH(B); o[3] = H(A) > H(B);
	o[4] = (SA != SB) && !(C == 0); o[5] = H(A) == 0x8000;
}
REF(r_setp64)
{
	o[0] = AA == BB; o[1] = SAA < SBB; o[2] = AA < BB; o[3] = SAA >= SBB; o[4] = AA > BB; o[5] = AA != BB;
	o[6] = SAA <= -7; o[7] = (AA <= BB) || (A > B);
}
REF(r_set) { o[0] = SA < SB ? ~0u : 0; o[1] = AA == BB ? 0x3f800000 : 0; o[2] = (A > B && C != 0) ? ~0u : 0; }
REF(r_selp)
{
	int p = SA < SB;
	o[0] = p ? A : B; o[1] = p ? AA : BB; o[2] = p ? 5 : A; o[3] = p ? B : 0x12345; o[4] = H(p ? A : B);
	o[5] = (s32)C >= 0 ? A : B; o[6] = (s32)C >= 0 ? AA : BB; o[7] = SA >= 0 ? 3 : 255;
}
/* cvt */
REF(r_cvt)
{
	o[0] = (u32)(s32)(int8_t)A; o[1] = A & 0xff; o[2] = (u32)(s32)SH(A); o[3] = H(A);
	o[4] = (u64)(s64)SA; o[5] = (u64)A; o[6] = (u32)AA; o[7] = (u32)(int8_t)H(A);
}
REF(r_cvt2)
{
	o[0] = (u64)(s64)SH(A); o[1] = (u64)H(A); o[2] = H(A); o[3] = (u64)(int8_t)AA;
	o[4] = (u32)(uint16_t)(int8_t)A; o[5] = (u64)(uint16_t)(int8_t)A; o[6] = H(AA); o[7] = A & 0xff;
}
REF(r_cvtsat)
{
	o[0] = (u32)sat_range(SA, 8, 0); o[1] = (u32)sat_range(SA, 16, 1); o[2] = (u32)(s32)sat_range(SA, 8, 1);
	o[3] = (u32)sat_range(SA, 32, 0); o[4] = (u32)sat_range((s64)A, 32, 1); o[5] = H(sat_range(SA, 16, 0));
	o[6] = (u32)sat_range((s64)H(A), 8, 0); o[7] = (u32)(s32)sat_range(SH(A), 8, 1);
}
REF(r_cvtsat64)
{
	o[0] = (u32)sat_range(SAA, 32, 1); o[1] = (u32)(AA > 0xffffffffull ? 0xffffffffull : AA);
	o[2] = SAA < 0 ? 0 : AA; o[3] = AA > 0x7fffffffffffffffull ? 0x7fffffffffffffffull : AA;
	o[4] = SA < 0 ? 0 : (u64)A; o[5] = (u32)sat_range(SAA, 16, 0); o[6] = (u32)(s32)sat_range(SAA, 8, 1);
	o[7] = (u32)sat_range(SAA, 32, 0);
}
REF(r_cvtpack)
{
	u32 a = (u32)sat_range(SA, 16, 1) & 0xffff, b = (u32)sat_range(SB, 16, 1) & 0xffff;
	o[0] = a << 16 | b;
	u32 x = (u32)sat_range(SA, 8, 0), y = (u32)sat_range(SB, 8, 0);
	o[1] = (x << 8 | y) | C << 16;
	o[2] = (u32)sat_range(SA, 16, 0) << 16 | (u32)sat_range(SB, 16, 0);
}

REF(r_vabsdiff4)
{
	u32 pu = 0, ps = 0, su = C, ss = C;
	for (int k = 0; k < 4; k++) {
		s32 x = (A >> (8 * k)) & 0xff, y = (B >> (8 * k)) & 0xff, xs = (int8_t)x, ys = (int8_t)y;
		u32 du = (u32)(x > y ? x - y : y - x), ds = (u32)(xs > ys ? xs - ys : ys - xs);
		pu |= (du & 0xff) << (8 * k);
		ps |= (ds & 0xff) << (8 * k);
		su += du;
		ss += ds;
	}
	o[0] = pu; o[1] = su; o[2] = ps; o[3] = ss;
}

typedef struct ICase {
	const char *name;
	const char *body;  /* PTX lines after the loads */
	const char *outs;  /* the registers stored */
	void (*ref)(const u64 *in, u64 *out);
	int minsm;         /* 0: sm_80 and sm_90; 90: sm_90 only */
} ICase;

static const ICase cases[] = {
	{ "add sub 32 16", "add.s32 %r4, %r1, %r2; sub.s32 %r5, %r1, %r2; add.u32 %r6, %r1, 7;"
	  " sub.s32 %r7, 5, %r2; add.u16 %h4, %h1, %h2; sub.s16 %h5, %h1, %h2;",
	  "%r4,%r5,%r6,%r7,%h4,%h5", r_add32, 0 },
	{ "add sub 64", "add.s64 %rd3, %rd1, %rd2; sub.s64 %rd4, %rd1, %rd2;"
	  " add.u64 %rd5, %rd1, 4294967297; add.s64 %rd6, %rd1, -1; sub.s64 %rd7, 9, %rd2;",
	  "%rd3,%rd4,%rd5,%rd6,%rd7", r_add64, 0 },
	{ "add.sat sub.sat", "add.sat.s32 %r4, %r1, %r2; sub.sat.s32 %r5, %r1, %r2;"
	  " add.sat.s32 %r6, %r1, 2147483632;", "%r4,%r5,%r6", r_addsat, 0 },
	{ "carry chain 32",
	  "mov.b64 {%r10, %r11}, %rd1; mov.b64 {%r12, %r13}, %rd2;"
	  " add.cc.u32 %r4, %r10, %r12; addc.u32 %r5, %r11, %r13;"
	  " sub.cc.u32 %r6, %r10, %r12; subc.u32 %r7, %r11, %r13;"
	  " add.cc.u32 %r8, %r1, %r2; addc.cc.u32 %r9, %r2, %r3; addc.u32 %r14, %r3, %r1;"
	  " sub.cc.u32 %r15, %r1, %r2; subc.cc.u32 %r16, %r2, %r3; subc.u32 %r17, %r3, %r1;"
	  " xor.b32 %r17, %r17, %r15;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%r14,%r17", r_carry32, 0 },
	{ "carry chain 64", "add.cc.u64 %rd3, %rd1, %rd2; addc.u64 %rd4, %rd2, %rd1;"
	  " sub.cc.u64 %rd5, %rd1, %rd2; subc.u64 %rd6, %rd2, %rd1;", "%rd3,%rd4,%rd5,%rd6", r_carry64, 0 },
	{ "mad.cc madc", "mad.lo.cc.u32 %r4, %r1, %r2, %r3; madc.hi.cc.u32 %r5, %r1, %r2, %r3;"
	  " addc.u32 %r6, 0, 0;", "%r4,%r5,%r6", r_madcc, 0 },
	{ "mul 32", "mul.lo.s32 %r4, %r1, %r2; mul.hi.s32 %r5, %r1, %r2; mul.hi.u32 %r6, %r1, %r2;"
	  " mul.wide.s32 %rd3, %r1, %r2; mul.wide.u32 %rd4, %r1, %r2; mul.lo.u32 %r7, 4660, %r1;"
	  " mul.hi.u32 %r8, %r1, -15; mul.wide.s32 %rd5, %r1, -3;",
	  "%r4,%r5,%r6,%rd3,%rd4,%r7,%r8,%rd5", r_mul32, 0 },
	{ "mad 32", "mad.lo.s32 %r4, %r1, %r2, %r3; mad.hi.s32 %r5, %r1, %r2, %r3;"
	  " mad.hi.u32 %r6, %r1, %r2, %r3; cvt.s64.s32 %rd9, %r2; mad.wide.s32 %rd3, %r1, %r2, %rd9;"
	  " mad.wide.u32 %rd4, %r1, %r2, %rd1; mad.hi.sat.s32 %r7, %r1, %r2, %r3;",
	  "%r4,%r5,%r6,%rd3,%rd4,%r7", r_mad32, 0 },
	{ "mul mad 16", "mul.lo.u16 %h4, %h1, %h2; mul.hi.s16 %h5, %h1, %h2; mul.hi.u16 %h6, %h1, %h2;"
	  " mul.wide.s16 %r4, %h1, %h2; mul.wide.u16 %r5, %h1, %h2; mad.lo.u16 %h7, %h1, %h2, %h3;"
	  " mad.wide.s16 %r6, %h1, %h2, %r3;", "%h4,%h5,%h6,%r4,%r5,%h7,%r6", r_mul16, 0 },
	{ "mul mad 64", "mul.lo.s64 %rd3, %rd1, %rd2; mul.hi.u64 %rd4, %rd1, %rd2;"
	  " mul.hi.s64 %rd5, %rd1, %rd2; mad.lo.u64 %rd6, %rd1, %rd2, %rd1;"
	  " mad.hi.s64 %rd7, %rd1, %rd2, %rd2; mul.hi.u64 %rd8, %rd1, 6148914691236517206;"
	  " mul.lo.u64 %rd9, %rd1, 4294967299;", "%rd3,%rd4,%rd5,%rd6,%rd7,%rd8,%rd9", r_mul64, 0 },
	{ "mul24 mad24", "mul24.lo.s32 %r4, %r1, %r2; mul24.hi.s32 %r5, %r1, %r2;"
	  " mul24.lo.u32 %r6, %r1, %r2; mul24.hi.u32 %r7, %r1, %r2; mad24.lo.s32 %r8, %r1, %r2, %r3;"
	  " mad24.hi.u32 %r9, %r1, %r2, %r3;", "%r4,%r5,%r6,%r7,%r8,%r9", r_mul24, 0 },
	{ "sad", "sad.s32 %r4, %r1, %r2, %r3; sad.u32 %r5, %r1, %r2, %r3; sad.u16 %h4, %h1, %h2, %h3;"
	  " sad.s16 %h5, %h1, %h2, %h3; sad.s64 %rd3, %rd1, %rd2, %rd1; sad.u64 %rd4, %rd1, %rd2, 1;",
	  "%r4,%r5,%h4,%h5,%rd3,%rd4", r_sad, 0 },
	{ "abs neg", "abs.s32 %r4, %r1; neg.s32 %r5, %r1; abs.s16 %h4, %h1; neg.s16 %h5, %h1;"
	  " abs.s64 %rd3, %rd1; neg.s64 %rd4, %rd1;", "%r4,%r5,%h4,%h5,%rd3,%rd4", r_absneg, 0 },
	{ "min max", "min.s32 %r4, %r1, %r2; max.s32 %r5, %r1, %r2; min.u32 %r6, %r1, %r2;"
	  " max.u32 %r7, %r1, %r2; max.relu.s32 %r8, %r1, %r2; min.s16 %h4, %h1, %h2;"
	  " max.u16 %h5, %h1, %h2; min.s32 %r9, 5, %r1;", "%r4,%r5,%r6,%r7,%r8,%h4,%h5,%r9", r_minmax, 0 },
	{ "min max 64", "min.s64 %rd3, %rd1, %rd2; max.s64 %rd4, %rd1, %rd2; min.u64 %rd5, %rd1, %rd2;"
	  " max.u64 %rd6, %rd1, %rd2;", "%rd3,%rd4,%rd5,%rd6", r_minmax64, 0 },
	{ "16x2", "min.s16x2 %r4, %r1, %r2; max.u16x2 %r5, %r1, %r2; max.relu.s16x2 %r6, %r1, %r2;"
	  " add.u16x2 %r7, %r1, %r2; sub.s16x2 %r8, %r1, %r2;", "%r4,%r5,%r6,%r7,%r8", r_minmax16x2, 0 },
	{ "dp4a dp2a", "dp4a.s32.s32 %r4, %r1, %r2, %r3; dp4a.u32.u32 %r5, %r1, %r2, %r3;"
	  " dp4a.s32.u32 %r6, %r1, %r2, %r3; dp2a.lo.s32.s32 %r7, %r1, %r2, %r3;"
	  " dp2a.hi.u32.u32 %r8, %r1, %r2, %r3; dp2a.hi.u32.s32 %r9, %r1, %r2, %r3;",
	  "%r4,%r5,%r6,%r7,%r8,%r9", r_dp, 0 },
	{ "div rem 32", "div.u32 %r4, %r1, %r2; rem.u32 %r5, %r1, %r2; div.s32 %r6, %r1, %r2;"
	  " rem.s32 %r7, %r1, %r2; div.s32 %r8, %r1, 7; rem.s32 %r9, %r1, -7; div.u32 %r10, %r3, 3;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%r10", r_div32, 0 },
	{ "div rem 16", "div.u16 %h4, %h1, %h2; rem.u16 %h5, %h1, %h2; div.s16 %h6, %h1, %h2;"
	  " rem.s16 %h7, %h1, %h2;", "%h4,%h5,%h6,%h7", r_div16, 0 },
	{ "div rem 64", "div.u64 %rd3, %rd1, %rd2; rem.u64 %rd4, %rd1, %rd2; div.s64 %rd5, %rd1, %rd2;"
	  " rem.s64 %rd6, %rd1, %rd2; div.u64 %rd7, %rd1, 10; div.s64 %rd8, %rd1, -3;",
	  "%rd3,%rd4,%rd5,%rd6,%rd7,%rd8", r_div64, 0 },
	{ "and or xor not cnot", "and.b32 %r4, %r1, %r2; or.b32 %r5, %r1, %r2; xor.b32 %r6, %r1, %r2;"
	  " not.b32 %r7, %r1; and.b32 %r8, 16711935, %r1; cnot.b32 %r9, %r1; cnot.b16 %h4, %h1;"
	  " not.b16 %h5, %h1;", "%r4,%r5,%r6,%r7,%r8,%r9,%h4,%h5", r_logic, 0 },
	{ "logic 64", "and.b64 %rd3, %rd1, %rd2; or.b64 %rd4, %rd1, %rd2; xor.b64 %rd5, %rd1, %rd2;"
	  " not.b64 %rd6, %rd1; cnot.b64 %rd7, %rd1; xor.b64 %rd8, %rd1, 0xff0000000000ffff;",
	  "%rd3,%rd4,%rd5,%rd6,%rd7,%rd8", r_logic64, 0 },
	{ "pred logic", "setp.gt.u32 %p1, %r1, %r2; setp.lt.s32 %p2, %r1, %r2; setp.ne.u32 %p3, %r3, 0;"
	  " and.pred %p4, %p1, %p2; selp.u32 %r4, 1, 0, %p4; or.pred %p4, %p1, %p2; selp.u32 %r5, 1, 0, %p4;"
	  " xor.pred %p4, %p1, %p2; selp.u32 %r6, 1, 0, %p4; not.pred %p4, %p1; selp.u32 %r7, 1, 0, %p4;"
	  " and.pred %p5, !%p1, %p3; selp.u32 %r8, 1, 0, %p5;"
	  " mov.u32 %r9, 9; and.pred %p6, %p1, %p2; @%p6 mov.u32 %r9, 7;",
	  "%r4,%r5,%r6,%r7,%r8,%r9", r_pred, 0 },
	{ "shl shr 32", "shl.b32 %r4, %r1, %r2; shr.u32 %r5, %r1, %r2; shr.s32 %r6, %r1, %r2;"
	  " shl.b32 %r7, %r1, 5; shr.u32 %r8, %r1, 7; shr.s32 %r9, %r1, 13; shl.b32 %r10, %r1, 32;"
	  " shr.s32 %r11, %r1, 40;", "%r4,%r5,%r6,%r7,%r8,%r9,%r10,%r11", r_shift32, 0 },
	{ "shl shr 16", "shl.b16 %h4, %h1, %r2; shr.u16 %h5, %h1, %r2; shr.s16 %h6, %h1, %r2;"
	  " shl.b16 %h7, %h1, 3; shr.u16 %h8, %h1, 9; shr.s16 %h9, %h1, 9;",
	  "%h4,%h5,%h6,%h7,%h8,%h9", r_shift16, 0 },
	{ "shl shr 64", "shl.b64 %rd3, %rd1, %r2; shr.u64 %rd4, %rd1, %r2; shr.s64 %rd5, %rd1, %r2;"
	  " shl.b64 %rd6, %rd1, 5; shl.b64 %rd7, %rd1, 40; shr.u64 %rd8, %rd1, 33; shr.s64 %rd9, %rd1, 45;"
	  " shr.s64 %rd10, %rd1, 3;", "%rd3,%rd4,%rd5,%rd6,%rd7,%rd8,%rd9,%rd10", r_shift64, 0 },
	{ "shf", "shf.l.wrap.b32 %r4, %r1, %r2, %r3; shf.r.wrap.b32 %r5, %r1, %r2, %r3;"
	  " shf.l.clamp.b32 %r6, %r1, %r2, %r3; shf.r.clamp.b32 %r7, %r1, %r2, %r3;"
	  " shf.l.wrap.b32 %r8, %r1, %r2, 7; shf.r.clamp.b32 %r9, %r1, %r2, 25;",
	  "%r4,%r5,%r6,%r7,%r8,%r9", r_shf, 0 },
	{ "prmt", "prmt.b32 %r4, %r1, %r2, %r3; prmt.b32 %r5, %r1, %r2, 0x5410;"
	  " prmt.b32 %r6, %r1, %r2, 0x8901; prmt.b32 %r7, %r1, 0, 0xba98;"
	  " prmt.b32.f4e %r8, %r1, %r2, %r3; prmt.b32.ecr %r9, %r1, %r2, %r3;"
	  " prmt.b32.rc16 %r10, %r1, %r2, %r3; prmt.b32.b4e %r11, %r1, %r2, %r3;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%r10,%r11", r_prmt, 0 },
	{ "bfe", "bfe.u32 %r4, %r1, %r2, %r3; bfe.s32 %r5, %r1, %r2, %r3; bfe.s32 %r6, %r1, 3, 7;"
	  " bfe.u32 %r7, %r1, 20, 20; bfe.u64 %rd3, %rd1, %r2, %r3; bfe.s64 %rd4, %rd1, %r2, %r3;"
	  " bfe.s64 %rd5, %rd1, 30, 10; bfe.u64 %rd6, %rd1, %r3, 40;",
	  "%r4,%r5,%r6,%r7,%rd3,%rd4,%rd5,%rd6", r_bfe, 0 },
	{ "bfi", "shr.u32 %r10, %r2, 8; bfi.b32 %r4, %r1, %r2, %r3, %r10; bfi.b32 %r5, %r1, %r2, 4, 9;"
	  " and.b32 %r11, %r1, 127; bfi.b64 %rd3, %rd1, %rd2, %r3, %r11; bfi.b64 %rd4, %rd1, %rd2, 30, 12;"
	  " bfi.b32 %r6, %r1, %r2, %r3, 5;", "%r4,%r5,%rd3,%rd4,%r6", r_bfi, 0 },
	{ "lop3", "lop3.b32 %r4, %r1, %r2, %r3, 0x8E; lop3.b32 %r5, %r1, %r2, %r3, 0x96;"
	  " lop3.b32 %r6, %r1, 0xf0f0f0f0, %r3, 0xe2; setp.gt.u32 %p1, %r3, 5;"
	  " lop3.or.b32 %r7|%p2, %r1, %r2, %r3, 0x1e, %p1; selp.u32 %r8, 1, 0, %p2;"
	  " lop3.and.b32 %r7|%p3, %r1, %r2, %r3, 0x1e, %p1; selp.u32 %r9, 1, 0, %p3;",
	  "%r4,%r5,%r6,%r8,%r9", r_lop3, 0 },
	{ "popc clz bfind brev", "popc.b32 %r4, %r1; clz.b32 %r5, %r1; bfind.u32 %r6, %r1;"
	  " bfind.s32 %r7, %r1; bfind.shiftamt.u32 %r8, %r1; bfind.shiftamt.s32 %r9, %r1;"
	  " brev.b32 %r10, %r1;", "%r4,%r5,%r6,%r7,%r8,%r9,%r10", r_count, 0 },
	{ "popc clz bfind brev 64", "popc.b64 %r4, %rd1; clz.b64 %r5, %rd1; bfind.u64 %r6, %rd1;"
	  " bfind.s64 %r7, %rd1; bfind.shiftamt.u64 %r8, %rd1; bfind.shiftamt.s64 %r9, %rd1;"
	  " brev.b64 %rd3, %rd1; shr.u64 %rd4, %rd1, 17; clz.b64 %r10, %rd4;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%rd3,%r10", r_count64, 0 },
	{ "bmsk szext", "bmsk.clamp.b32 %r4, %r1, %r2; and.b32 %r10, %r1, 31; and.b32 %r11, %r2, 31;"
	  " bmsk.wrap.b32 %r5, %r10, %r11; szext.clamp.s32 %r6, %r1, %r3; szext.wrap.u32 %r7, %r2, %r3;",
	  "%r4,%r5,%r6,%r7", r_bmsk, 0 },
	{ "setp 32", "setp.eq.s32 %p1, %r1, %r2; selp.u32 %r4, 1, 0, %p1; setp.lt.s32 %p1, %r1, %r2;"
	  " selp.u32 %r5, 1, 0, %p1; setp.lo.u32 %p1, %r1, %r2; selp.u32 %r6, 1, 0, %p1;"
	  " setp.ge.s32 %p1, %r1, %r2; selp.u32 %r7, 1, 0, %p1; setp.hs.u32 %p1, %r1, %r2;"
	  " selp.u32 %r8, 1, 0, %p1; setp.gt.s32 %p1, %r1, 5; selp.u32 %r9, 1, 0, %p1;"
	  " setp.lt.s32 %p1, 5, %r1; selp.u32 %r10, 1, 0, %p1; setp.eq.u32 %p2, %r1, %r3;"
	  " setp.le.or.s32 %p1, %r1, %r2, %p2; selp.u32 %r11, 1, 0, %p1;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%r10,%r11", r_setp, 0 },
	{ "setp pair 16", "setp.ne.u32 %p3, %r3, 0; setp.gt.xor.u32 %p1|%p2, %r1, %r2, %p3;"
	  " selp.u32 %r4, 1, 0, %p1; selp.u32 %r5, 1, 0, %p2; setp.lt.s16 %p1, %h1, %h2;"
	  " selp.u32 %r6, 1, 0, %p1; setp.gt.u16 %p1, %h1, %h2; selp.u32 %r7, 1, 0, %p1;"
	  " setp.eq.u32 %p4, %r3, 0; setp.ne.and.s32 %p1, %r1, %r2, !%p4; selp.u32 %r8, 1, 0, %p1;"
	  " setp.eq.b16 %p1, %h1, 0x8000; selp.u32 %r9, 1, 0, %p1;",
	  "%r4,%r5,%r6,%r7,%r8,%r9", r_setp2, 0 },
	{ "setp 64", "setp.eq.s64 %p1, %rd1, %rd2; selp.u32 %r4, 1, 0, %p1; setp.lt.s64 %p1, %rd1, %rd2;"
	  " selp.u32 %r5, 1, 0, %p1; setp.lt.u64 %p1, %rd1, %rd2; selp.u32 %r6, 1, 0, %p1;"
	  " setp.ge.s64 %p1, %rd1, %rd2; selp.u32 %r7, 1, 0, %p1; setp.gt.u64 %p1, %rd1, %rd2;"
	  " selp.u32 %r8, 1, 0, %p1; setp.ne.s64 %p1, %rd1, %rd2; selp.u32 %r9, 1, 0, %p1;"
	  " setp.le.s64 %p1, %rd1, -7; selp.u32 %r10, 1, 0, %p1; setp.gt.u32 %p2, %r1, %r2;"
	  " setp.ls.or.u64 %p1, %rd1, %rd2, %p2; selp.u32 %r11, 1, 0, %p1;",
	  "%r4,%r5,%r6,%r7,%r8,%r9,%r10,%r11", r_setp64, 0 },
	{ "set", "set.lt.u32.s32 %r4, %r1, %r2; set.eq.f32.u64 %r5, %rd1, %rd2; setp.ne.u32 %p1, %r3, 0;"
	  " set.gt.and.u32.u32 %r6, %r1, %r2, %p1;", "%r4,%r5,%r6", r_set, 0 },
	{ "selp slct", "setp.lt.s32 %p1, %r1, %r2; selp.b32 %r4, %r1, %r2, %p1; selp.b64 %rd3, %rd1, %rd2, %p1;"
	  " selp.u32 %r5, 5, %r1, %p1; selp.s32 %r6, %r2, 74565, %p1; selp.b16 %h4, %h1, %h2, %p1;"
	  " slct.u32.s32 %r7, %r1, %r2, %r3; slct.b64.s32 %rd4, %rd1, %rd2, %r3;"
	  " slct.s32.s32 %r8, 3, 255, %r1;", "%r4,%rd3,%r5,%r6,%h4,%r7,%rd4,%r8", r_selp, 0 },
	{ "cvt", "cvt.s32.s8 %r4, %r1; cvt.u32.u8 %r5, %r1; cvt.s32.s16 %r6, %h1; cvt.u32.u16 %r7, %h1;"
	  " cvt.s64.s32 %rd3, %r1; cvt.u64.u32 %rd4, %r1; cvt.u32.u64 %r8, %rd1; cvt.s8.s32 %r9, %r1;",
	  "%r4,%r5,%r6,%r7,%rd3,%rd4,%r8,%r9", r_cvt, 0 },
	{ "cvt 2", "cvt.s64.s16 %rd3, %h1; cvt.u64.u16 %rd4, %h1; cvt.u16.u32 %h4, %r1; cvt.s64.s8 %rd5, %rd1;"
	  " cvt.u16.s8 %r5, %r1; cvt.u16.s8 %rd6, %r1; cvt.u16.u64 %h5, %rd1; cvt.s16.u8 %r6, %r1;",
	  "%rd3,%rd4,%h4,%rd5,%r5,%rd6,%h5,%r6", r_cvt2, 0 },
	{ "cvt.sat", "cvt.sat.u8.s32 %r4, %r1; cvt.sat.s16.s32 %r5, %r1; cvt.sat.s8.s32 %r6, %r1;"
	  " cvt.sat.u32.s32 %r7, %r1; cvt.sat.s32.u32 %r8, %r1; cvt.sat.u16.s32 %h4, %r1;"
	  " cvt.sat.u8.u16 %r9, %h1; cvt.sat.s8.s16 %r10, %h1;",
	  "%r4,%r5,%r6,%r7,%r8,%h4,%r9,%r10", r_cvtsat, 0 },
	{ "cvt.sat 64", "cvt.sat.s32.s64 %r4, %rd1; cvt.sat.u32.u64 %r5, %rd1; cvt.sat.u64.s64 %rd3, %rd1;"
	  " cvt.sat.s64.u64 %rd4, %rd1; cvt.sat.u64.s32 %rd5, %r1; cvt.sat.u16.s64 %r6, %rd1;"
	  " cvt.sat.s8.s64 %r7, %rd1; cvt.sat.u32.s64 %r8, %rd1;",
	  "%r4,%r5,%rd3,%rd4,%rd5,%r6,%r7,%r8", r_cvtsat64, 0 },
	{ "vabsdiff4", "vabsdiff4.u32.u32.u32 %r4, %r1, %r2, %r3; vabsdiff4.u32.u32.u32.add %r5, %r1, %r2, %r3;"
	  " vabsdiff4.s32.s32.s32 %r6, %r1, %r2, %r3; vabsdiff4.s32.s32.s32.add %r7, %r1, %r2, %r3;",
	  "%r4,%r5,%r6,%r7", r_vabsdiff4, 0 },
	{ "cvt.pack", "cvt.pack.sat.s16.s32 %r4, %r1, %r2; cvt.pack.sat.u8.s32.b32 %r5, %r1, %r2, %r3;"
	  " cvt.pack.sat.u16.s32 %r6, %r1, %r2;", "%r4,%r5,%r6", r_cvtpack, 0 },
};

static int
out_mismatch(const ICase *c, int v, const u64 *got, char *msg, size_t n)
{
	char names[MaxOut][16];
	u64 want[MaxOut] = {0};
	int no = split_outs(c->outs, names);

	c->ref(vecs[v], want);
	for (int k = 0; k < no; k++) {
		int b = out_bits(names[k]);
		u64 m = b == 64 ? ~0ull : (1ull << b) - 1;
		if ((got[k] & m) != (want[k] & m)) {
			snprintf(msg, n, "%s (%s) input %d {0x%llx, 0x%llx, 0x%llx, 0x%llx, 0x%llx}: got 0x%llx, "
			         "want 0x%llx", c->name, names[k], v, (unsigned long long)vecs[v][0],
			         (unsigned long long)vecs[v][1], (unsigned long long)vecs[v][2],
			         (unsigned long long)vecs[v][3], (unsigned long long)vecs[v][4],
			         (unsigned long long)(got[k] & m), (unsigned long long)(want[k] & m));
			return 1;
		}
	}
	return 0;
}

static void
run_case(const ICase *c, int sm)
{
	static char err[65536];
	char msg[1024];
	u64 got[32][MaxOut];
	char names[MaxOut][16];
	int no = split_outs(c->outs, names);

	if (nvec < 32)
		more_vectors();
	char *sass = build(c->body, c->outs, sm, err, sizeof err);
	ck_assert_msg(sass != NULL, "%s sm_%d: %.3000s", c->name, sm, err);
	ck_assert_msg(run_all(sass, sm, no, 0, got, NULL, err, sizeof err) == 0, "%s sm_%d: %.3000s",
	              c->name, sm, err);
	for (int v = 0; v < nvec; v++)
		ck_assert_msg(!out_mismatch(c, v, got[v], msg, sizeof msg), "sm_%d: %s", sm, msg);
	free(sass);
}

START_TEST(test_int_run)
{
	const ICase *c = &cases[_i];

	if (!c->minsm)
		run_case(c, 80);
	run_case(c, 90);
}
END_TEST

/* ---- the SASS each form selects --------------------------------------------------------------- */

static const struct {
	int sm;
	const char *body;
	const char *want;  /* lines of the selection, in order ('\n'-separated; a prefix of each) */
} isel[] = {
	{ 80, "add.s64 %rd3, %rd1, %rd2;", "IADD3 %rd3, %$q0, %rd1, %rd2, RZ\nIADD3.X %rd3[1], %rd1[1], %rd2[1], RZ, %$q0, !PT" },
	{ 80, "sub.s64 %rd3, %rd1, %rd2;", "IADD3 %rd3, %$q0, %rd1, -%rd2, RZ\nIADD3.X %rd3[1], %rd1[1], ~%rd2[1], RZ, %$q0, !PT" },
	{ 80, "mul.wide.s32 %rd3, %r1, 4;", "IMAD.WIDE %rd3, %r1, 0x4, RZ" },
	{ 80, "mul.wide.u32 %rd3, %r1, %r2;", "IMAD.WIDE.U32 %rd3, %r1, %r2, RZ" },
	{ 80, "mad.lo.s32 %r4, %r1, %r2, %r3;", "IMAD %r4, %r1, %r2, %r3" },
	{ 80, "mul.hi.u32 %r4, %r1, %r2;", "IMAD.HI.U32 %r4, %r1, %r2, RZ" },
	{ 80, "shl.b32 %r4, %r1, 4;", "IMAD.SHL.U32 %r4, %r1, 0x10, RZ" },
	{ 80, "shl.b64 %rd3, %rd1, %r2;", "SHF.L.U64.HI %rd3[1], %rd1, %r2, %rd1[1]\nSHF.L.U32 %rd3, %rd1, %r2, RZ" },
	{ 80, "shr.u64 %rd3, %rd1, %r2;", "SHF.R.U64 %rd3, %rd1, %r2, %rd1[1]\nSHF.R.U32.HI %rd3[1], RZ, %r2, %rd1[1]" },
	{ 80, "shr.s32 %r4, %r1, 3;", "SHF.R.S32.HI %r4, RZ, 0x3, %r1" },
	{ 80, "and.b32 %r4, %r1, 255;", "LOP3.LUT %r4, %r1, 0xff, RZ, 0xc0, !PT" },
	{ 80, "not.b32 %r4, %r1;", "LOP3.LUT %r4, RZ, %r1, RZ, 0x33, !PT" },
	{ 80, "and.pred %p3, %p1, %p2;", "PLOP3.LUT %p3, PT, %p1, %p2, PT, 0x80, 0x0" },
	{ 80, "setp.lt.u32 %p1, %r1, %r2;", "ISETP.LT.U32.AND %p1, PT, %r1, %r2, PT" },
	{ 80, "setp.ge.s32 %p1, %r1, 7;", "ISETP.GE.AND %p1, PT, %r1, 0x7, PT" },
	{ 80, "setp.gt.u64 %p1, %rd1, %rd2;", "ISETP.GT.U32.AND %$q0, PT, %rd1, %rd2, PT\nISETP.GT.U32.AND.EX %p1, PT, %rd1[1], %rd2[1], PT, %$q0" },
	{ 80, "selp.b32 %r4, %r1, %r2, %p1;", "SEL %r4, %r1, %r2, %p1" },
	{ 80, "min.s32 %r4, %r1, %r2;", "IMNMX %r4, %r1, %r2, PT" },
	{ 90, "min.s32 %r4, %r1, %r2;", "VIMNMX %r4, %r1, %r2, PT" },
	{ 80, "max.u32 %r4, %r1, %r2;", "IMNMX.U32 %r4, %r1, %r2, !PT" },
	{ 90, "max.relu.s32 %r4, %r1, %r2;", "VIMNMX.RELU %r4, %r1, %r2, !PT" },
	{ 80, "abs.s32 %r4, %r1;", "IABS %r4, %r1" },
	{ 80, "popc.b32 %r4, %r1;", "POPC %r4, %r1" },
	{ 80, "brev.b32 %r4, %r1;", "BREV %r4, %r1" },
	{ 80, "bfind.shiftamt.u32 %r4, %r1;", "FLO.U32.SH %r4, %r1" },
	{ 80, "clz.b32 %r4, %r1;", "FLO.U32 %$t0, %r1\nIADD3 %r4, -%$t0, 0x1f, RZ" },
	{ 80, "bfe.s32 %r4, %r1, 3, 7;", "SHF.R.S32.HI %$t0, RZ, 0x3, %r1\nSGXT %r4, %$t0, 0x7" },
	{ 80, "shf.l.wrap.b32 %r4, %r1, %r2, %r3;", "SHF.L.W.U32.HI %r4, %r1, %r3, %r2" },
	{ 80, "prmt.b32 %r4, %r1, %r2, 0x5410;", "PRMT %r4, %r1, 0x5410, %r2" },
	{ 80, "sad.u32 %r4, %r1, %r2, %r3;", "VABSDIFF.U32 %r4, %r1, %r2, %r3" },
	{ 80, "dp4a.s32.s32 %r4, %r1, %r2, %r3;", "IDP.4A.S8.S8 %r4, %r1, %r2, %r3" },
	{ 80, "dp2a.lo.s32.s32 %r4, %r1, %r2, %r3;", "IDP.2A.LO.S16.S8 %r4, %r1, %r2, %r3" },
	{ 80, "cvt.s64.s32 %rd3, %r1;", "MOV %rd3, %r1\nSHF.R.S32.HI %rd3[1], RZ, 0x1f, %r1" },
	{ 80, "cvt.u64.u32 %rd3, %r1;", "MOV %rd3, %r1\nMOV %rd3[1], RZ" },
	{ 80, "cvt.s8.s32 %r4, %r1;", "PRMT %r4, %r1, 0x8880, RZ" },
	{ 80, "cvt.sat.s16.s32 %h4, %r1;", "I2I.S16.S32.SAT %$t0, %r1" },
	{ 80, "cvt.pack.sat.s16.s32 %r4, %r1, %r2;", "I2IP.S16.S32.SAT %r4, %r1, %r2, RZ" },
	{ 80, "div.u32 %r4, %r1, %r2;", "I2F.U32.RP\nMUFU.RCP\nIADD3 %$t0, %$t0, 0xffffffe, RZ\nF2I.FTZ.U32.TRUNC.NTZ" },
	{ 80, "div.s32 %r4, %r1, %r2;", "IABS\nIABS\nI2F.RP\nMUFU.RCP" },
	{ 80, "div.u64 %rd3, %rd1, %rd2;", "I2F.U64.RP\nMUFU.RCP\nIADD3 %$t0, %$t0, 0x1ffffffe, RZ\nF2I.U64.TRUNC" },
	{ 80, "@%p1 add.s32 %r4, %r1, %r2;", "@%p1 IADD3 %r4, %r1, %r2, RZ" },
	{ 80, "@!%p1 rem.u32 %r4, %r1, %r2;", "I2F.U32.RP\nMUFU.RCP" },
};

/* the lines of the function body after the loads (the text after the last ld.param) */
static const char *
after_loads(const char *text)
{
	const char *s = strstr(text, "// ");
	const char *last = NULL;

	for (s = text; (s = strstr(s, "ld.param")); s++)
		last = s;
	return last ? strchr(last, '\n') : text;
}

START_TEST(test_int_isel)
{
	char err[2048], *ptx = kernel(isel[_i].body, isel[_i].sm);
	char *text = lower(ptx, isel[_i].sm, err, sizeof err);
	const char *at, *want = isel[_i].want;

	ck_assert_msg(text != NULL, "%s: %s", isel[_i].body, err);
	at = after_loads(text);
	while (*want) {
		char line[256];
		size_t n = strcspn(want, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, want);
		const char *f = strstr(at, line);
		ck_assert_msg(f != NULL, "%s (sm_%d): no '%s' after\n%s", isel[_i].body, isel[_i].sm, line, at);
		at = f + strlen(line);
		want += n + (want[n] == '\n');
	}
	free(text);
	free(ptx);
}
END_TEST

/* a guarded instruction with an internal predicate keeps the guard off its own @p lines and
 * on the write of the destination */
START_TEST(test_int_guard)
{
	char err[2048], *ptx = kernel("@!%p1 div.u32 %r4, %r1, %r2;", 80);
	char *text = lower(ptx, 80, err, sizeof err);

	ck_assert_msg(text != NULL, "%s", err);
	ck_assert_msg(strstr(text, "@!%p1 SEL %r4, ") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "@!%p1 @") == NULL, "%s", text);
	free(text);
	free(ptx);
	static const ICase g = { "guarded div and add", "setp.lt.u32 %p1, %r1, %r2; mov.u32 %r4, 77;"
	                         " mov.u32 %r5, 78; @%p1 div.u32 %r4, %r1, %r2; @!%p1 add.s32 %r5, %r1, %r2;",
	                         "%r4,%r5", NULL, 0 };
	char *sass = build(g.body, g.outs, 80, err, sizeof err);
	u64 got[32][MaxOut];
	ck_assert_msg(sass != NULL, "%s", err);
	if (nvec < 32)
		more_vectors();
	ck_assert_msg(run_all(sass, 80, 2, 0, got, NULL, err, sizeof err) == 0, "%s", err);
	for (int v = 0; v < nvec; v++) {
		u32 a = (u32)vecs[v][0], b = (u32)vecs[v][1];
		ck_assert_uint_eq(got[v][0] & 0xffffffff, a < b ? divu32(a, b) : 77);
		ck_assert_uint_eq(got[v][1] & 0xffffffff, a < b ? 78 : a + b);
	}
	free(sass);
}
END_TEST

/* timing mode through ctrl-bits: the same values and no hazards */
START_TEST(test_int_timing)
{
	static char err[65536];
	const ICase *c = &cases[_i];
	u64 got[32][MaxOut];
	uint64_t hz = 1;
	char names[MaxOut][16], msg[1024];
	int no = split_outs(c->outs, names);

	if (nvec < 32)
		more_vectors();
	char *sass = build(c->body, c->outs, 80, err, sizeof err);
	ck_assert_msg(sass != NULL, "%.3000s", err);
	ck_assert_msg(run_all(sass, 80, no, 1, got, &hz, err, sizeof err) == 0, "%.3000s", err);
	ck_assert_msg(hz == 0, "%s: %llu hazards", c->name, (unsigned long long)hz);
	for (int v = 0; v < nvec; v++)
		ck_assert_msg(!out_mismatch(c, v, got[v], msg, sizeof msg), "timing: %s", msg);
	free(sass);
}
END_TEST

/* ---- located errors ---------------------------------------------------------------------------- */

static const struct {
	const char *body;
	const char *want;
} bad[] = {
	{ "fns.b32 %r4, %r1, %r2, %r3;", "t.ptx:27:1: error: 'fns.b32' is not supported yet: fns" },
	{ "madc.lo.cc.u64 %rd3, %rd1, %rd2, %rd1;", "'madc.lo.cc.u64' is not supported yet: the carry chain of mad on .u64" },
	{ "add.sat.s64 %rd3, %rd1, %rd2;", "'add.sat.s64' is not supported yet: .sat on .s64" },
	{ "cvt.pack.sat.u4.s32.b32 %r4, %r1, %r2, %r3;", "'cvt.pack.sat.u4.s32.b32' is not supported yet: cvt.pack to .u4" },
	{ "mul.wide.u64 %rd3, %rd1, %rd2;", "is not supported yet: .wide on .u64" },
	/* a register of the wrong size: the PTX check's error, before selection */
	{ "add.s64 %r4, %rd1, %rd2;", "t.ptx:27:9: error: '%r4' is a 32-bit register; 'add.s64' takes 64-bit operands" },
	/* ld/st: a data register narrower than the type (wider is allowed: ld.u8 into .b32) */
	{ "ld.global.u64 %r4, [%rd1];", "t.ptx:27:15: error: '%r4' is a 32-bit register; 'ld.u64' needs at least 64 bits" },
	{ "st.global.v2.u64 [%rd1], {%rd2, %r1};", "'%r1' is a 32-bit register; 'st.u64' needs at least 64 bits" },
	{ "and.pred %p3, %p1, %r1;", "'and.pred' is not supported yet: operand 2 must be a predicate register here" },
};

START_TEST(test_int_errors)
{
	char err[2048], *ptx = kernel(bad[_i].body, 80);
	char *text = lower(ptx, 80, err, sizeof err);

	ck_assert_msg(text == NULL, "%s was selected", bad[_i].body);
	ck_assert_msg(strstr(err, bad[_i].want) != NULL, "%s: got\n%s\nwant '%s'", bad[_i].body, err,
	              bad[_i].want);
	free(ptx);
}
END_TEST

/* every row names its SASS (a table cell: no '|'), with an integer or predicate class */
START_TEST(test_int_table)
{
	extern const SelRow ptxsel_int[];
	int n = 0;

	for (const SelRow *r = ptxsel_int; r->op; r++, n++) {
		ck_assert_msg(r->tclass == TcInt || r->tclass == TcPred, "row %s", r->op);
		ck_assert_ptr_nonnull(r->fn);
		ck_assert_msg(r->doc && r->doc[0] && !strchr(r->doc, '|'), "row %s: doc '%s'", r->op,
		              r->doc ? r->doc : "");
	}
	ck_assert_int_ge(n, 45);
}
END_TEST

Suite *
ptx_int_suite(void)
{
	Suite *s = suite_create("ptx_int");
	TCase *tc = tcase_create("Run");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_int_run, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, test_int_guard);
	tcase_add_loop_test(tc, test_int_timing, 0, sizeof cases / sizeof cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("Select");
	tcase_add_loop_test(tc, test_int_isel, 0, sizeof isel / sizeof isel[0]);
	tcase_add_loop_test(tc, test_int_errors, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_int_table);
	suite_add_tcase(s, tc);
	return s;
}
