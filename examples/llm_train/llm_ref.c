/* llm_ref.c: inputs and CPU references for the kernels of llm_train.cu. `gen DIR KERNEL PARAMS`
 * writes each buffer of PARAMS (kernels.txt's parameter column) to DIR/NAME.bin from a fixed LCG
 * in a range that keeps the kernel's math finite; `check DIR KERNEL PARAMS` reads DIR/NAME.bin
 * (inputs) and DIR/NAME.out (what the simulator wrote for out/inout buffers), computes the kernel
 * on the CPU in double precision and fails (exit 1) on a difference beyond 1e-4 relative + 1e-5.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MaxParam = 16 };

typedef struct Param {
	char name[32];     /* parameter name */
	char type[8];      /* f32, i32, i8 */
	int count;         /* elements (buffers), 0 for a scalar */
	int out;           /* 1 out, 2 inout, 0 in */
	double val;        /* a scalar's value */
	void *in, *res;    /* buffer: input bytes, simulator output bytes */
} Param;

static Param ps[MaxParam];   /* the kernel's parameters */
static int np;               /* their number */

static int
esize(const char *t)
{
	return !strcmp(t, "i8") ? 1 : 4;
}

static void
parse(char *spec)
{
	for (char *tok = strtok(spec, ","); tok && np < MaxParam; tok = strtok(NULL, ",")) {
		Param *p = &ps[np++];
		char *c = strchr(tok, ':'), *star;
		if (!c) {
			fprintf(stderr, "llm_ref: bad parameter %s\n", tok);
			exit(2);
		}
		*c++ = 0;
		snprintf(p->name, sizeof p->name, "%s", tok);
		if ((star = strstr(c, "*["))) {
			*star = 0;
			snprintf(p->type, sizeof p->type, "%s", c);
			p->count = atoi(star + 2);
			p->out = strstr(star + 2, ":inout") ? 2 : strstr(star + 2, ":out") ? 1 : 0;
		} else {
			char *eq = strchr(c, '=');
			if (!eq) {
				fprintf(stderr, "llm_ref: bad scalar %s\n", tok);
				exit(2);
			}
			*eq = 0;
			snprintf(p->type, sizeof p->type, "%s", c);
			p->val = atof(eq + 1);
		}
	}
}

static Param *
get(const char *name)
{
	for (int k = 0; k < np; k++)
		if (!strcmp(ps[k].name, name))
			return &ps[k];
	fprintf(stderr, "llm_ref: no parameter %s\n", name);
	exit(2);
}

#define F(n) ((float *)get(n)->in)
#define I(n) ((int *)get(n)->in)
#define S(n) (get(n)->val)

static uint32_t seed = 12345;

static double
rnd(void)   /* [0, 1) */
{
	seed = seed * 1664525u + 1013904223u;
	return (seed >> 8) / 16777216.0;
}

static void
gen_one(const char *kernel, Param *p)
{
	for (int k = 0; k < p->count; k++) {
		double u = rnd();
		if (!strcmp(p->type, "i8"))
			((int8_t *)p->in)[k] = (int8_t)(u * 255.0 - 127.0);
		else if (!strcmp(p->type, "i32"))   /* token or target ids */
			((int *)p->in)[k] = (int)(u * (!strcmp(kernel, "crossentropy_fwd") ? S("V") : 64));
		else if (!strcmp(p->name, "probs"))
			((float *)p->in)[k] = (float)(0.01 + 0.99 * u);
		else if (!strcmp(p->name, "v") || !strcmp(p->name, "rstd"))
			((float *)p->in)[k] = (float)(0.5 + u);
		else
			((float *)p->in)[k] = (float)(2.0 * u - 1.0);
	}
}

static void *
readf(const char *dir, const char *name, const char *ext, size_t n)
{
	char path[4200];
	void *b = calloc(n ? n : 1, 1);
	FILE *f;

	snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
	if (!(f = fopen(path, "rb")) || fread(b, 1, n, f) != n) {
		fprintf(stderr, "llm_ref: cannot read %zu bytes of %s\n", n, path);
		exit(2);
	}
	fclose(f);
	return b;
}

static int nbad;   /* mismatches found */

static void
expect(const char *name, int k, double want)
{
	float got = ((float *)get(name)->res)[k];
	if (!(fabs(got - want) <= 1e-5 + 1e-4 * fabs(want))) {
		if (nbad++ < 5)
			fprintf(stderr, "llm_ref: %s[%d] = %.9g, reference %.9g\n", name, k, got, want);
	}
}

static double
gelu(double x)
{
	return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}

static void
rows(const char *k)
{
	int N = (int)S("N"), C = (int)S("C");
	for (int r = 0; r < N; r++) {
		const float *x = F("inp") + (size_t)r * C;
		double m = 0, v = 0, s = 0;
		for (int i = 0; i < C; i++)
			m += x[i], s += (double)x[i] * x[i];
		m /= C;
		for (int i = 0; i < C; i++)
			v += (x[i] - m) * (x[i] - m);
		double rs = 1.0 / sqrt(v / C + 1e-5);
		if (!strcmp(k, "layernorm_fwd")) {
			expect("mean", r, m);
			expect("rstd", r, rs);
			for (int i = 0; i < C; i++)
				expect("out", r * C + i, (x[i] - m) * rs * F("weight")[i] + F("bias")[i]);
		} else if (!strcmp(k, "rmsnorm_fwd")) {
			double rr = 1.0 / sqrt(s / C + S("eps"));
			for (int i = 0; i < C; i++)
				expect("out", r * C + i, x[i] * rr * F("weight")[i]);
		} else if (!strcmp(k, "softmax_fwd")) {
			double mx = -INFINITY, sum = 0;
			for (int i = 0; i < C; i++)
				mx = fmax(mx, x[i]);
			for (int i = 0; i < C; i++)
				sum += exp(x[i] - mx);
			for (int i = 0; i < C; i++)
				expect("out", r * C + i, exp(x[i] - mx) / sum);
		} else {   /* layernorm_bwd, with the saved mean and rstd */
			const float *d = F("dout") + (size_t)r * C;
			double mm = F("mean")[r], rr = F("rstd")[r], dn = 0, dnx = 0;
			for (int i = 0; i < C; i++) {
				double nx = (x[i] - mm) * rr, dl = (double)F("weight")[i] * d[i];
				dn += dl, dnx += dl * nx;
			}
			dn /= C, dnx /= C;
			for (int i = 0; i < C; i++) {
				double nx = (x[i] - mm) * rr, dl = (double)F("weight")[i] * d[i];
				expect("dinp", r * C + i, (dl - dn - nx * dnx) * rr);
			}
		}
	}
}

static void
check(const char *k)
{
	if (!strcmp(k, "layernorm_fwd") || !strcmp(k, "layernorm_bwd") || !strcmp(k, "softmax_fwd") ||
	    !strcmp(k, "rmsnorm_fwd")) {
		rows(k);
	} else if (!strcmp(k, "layernorm_dwb")) {
		int N = (int)S("N"), C = (int)S("C");
		for (int c = 0; c < C; c++) {
			double dw = 0, db = 0;
			for (int r = 0; r < N; r++) {
				double d = F("dout")[r * C + c];
				db += d;
				dw += (F("inp")[r * C + c] - F("mean")[r]) * (double)F("rstd")[r] * d;
			}
			expect("dweight", c, dw);
			expect("dbias", c, db);
		}
	} else if (!strcmp(k, "gelu_fwd")) {
		for (int i = 0; i < (int)S("n"); i++)
			expect("out", i, gelu(F("inp")[i]));
	} else if (!strcmp(k, "gelu_bwd")) {
		for (int i = 0; i < (int)S("n"); i++) {
			double x = F("inp")[i], h = 1e-3;   /* the derivative, in closed form */
			double u = 0.7978845608 * (x + 0.044715 * x * x * x), t = tanh(u), ch = 1.0 / cosh(u);
			double g = 0.5 * (1 + t) + x * 0.5 * ch * ch * 0.7978845608 * (1 + 3 * 0.044715 * x * x);
			(void)h;
			expect("dinp", i, g * F("dout")[i]);
		}
	} else if (!strcmp(k, "crossentropy_fwd")) {
		for (int i = 0; i < (int)S("n"); i++)
			expect("losses", i, -log(F("probs")[(size_t)i * (int)S("V") + I("targets")[i]]));
	} else if (!strcmp(k, "adamw")) {
		for (int i = 0; i < (int)S("n"); i++) {
			double g = F("grads")[i], p = F("params")[i];
			double m = S("beta1") * F("m")[i] + (1 - S("beta1")) * g;
			double v = S("beta2") * F("v")[i] + (1 - S("beta2")) * g * g;
			expect("m", i, m);
			expect("v", i, v);
			expect("params", i, p - S("lr") * ((m / S("beta1_corr")) /
			       (sqrt(v / S("beta2_corr")) + S("eps")) + S("wd") * p));
		}
	} else if (!strcmp(k, "encoder_fwd")) {
		int C = (int)S("C"), T = (int)S("T"), n = (int)S("B") * T * C;
		for (int i = 0; i < n; i++)
			expect("out", i, (double)F("wte")[I("tokens")[i / C] * C + i % C] +
			       F("wpe")[(i / C) % T * C + i % C]);
	} else if (!strcmp(k, "residual_fwd")) {
		for (int i = 0; i < (int)S("n"); i++)
			expect("out", i, (double)F("a")[i] + F("b")[i]);
	} else if (!strcmp(k, "global_norm")) {
		int nb = get("partial")->count, n = (int)S("n"), stride = nb * 128;
		for (int b = 0; b < nb; b++) {
			double s = 0;
			for (int t = 0; t < 128; t++)
				for (int i = b * 128 + t; i < n; i += stride)
					s += (double)F("data")[i] * F("data")[i];
			expect("partial", b, s);
		}
	} else if (!strcmp(k, "swiglu_fwd")) {
		for (int i = 0; i < (int)S("n"); i++) {
			double g = F("gate")[i];
			expect("out", i, g / (1 + exp(-g)) * F("up")[i]);
		}
	} else if (!strcmp(k, "gemv_int8")) {
		int K = (int)S("K");
		for (int r = 0; r < (int)S("R"); r++) {
			double s = 0;
			for (int q = 0; q < K; q++)
				s += (double)((int8_t *)get("W")->in)[(size_t)r * K + q] * F("x")[q];
			expect("y", r, s * F("scale")[r]);
		}
	} else {
		fprintf(stderr, "llm_ref: no reference for %s\n", k);
		exit(2);
	}
}

int
main(int argc, char **argv)
{
	int gen;

	if (argc != 5 || (strcmp(argv[1], "gen") && strcmp(argv[1], "check"))) {
		fprintf(stderr, "usage: llm_ref gen|check DIR KERNEL PARAMS\n");
		return 2;
	}
	gen = !strcmp(argv[1], "gen");
	parse(argv[4]);
	for (int k = 0; k < np; k++) {
		Param *p = &ps[k];
		size_t n = (size_t)p->count * esize(p->type);
		if (!p->count)
			continue;
		if (gen) {
			char path[4200];
			FILE *f;
			p->in = calloc(n, 1);
			gen_one(argv[3], p);
			snprintf(path, sizeof path, "%s/%s.bin", argv[2], p->name);
			if (!(f = fopen(path, "wb")) || fwrite(p->in, 1, n, f) != n || fclose(f)) {
				fprintf(stderr, "llm_ref: cannot write %s\n", path);
				return 2;
			}
		} else {
			p->in = readf(argv[2], p->name, "bin", n);
			if (p->out)
				p->res = readf(argv[2], p->name, "out", n);
		}
	}
	if (!gen) {
		check(argv[3]);
		if (nbad) {
			fprintf(stderr, "llm_ref: %s: %d values differ from the reference\n", argv[3], nbad);
			return 1;
		}
	}
	return 0;
}
