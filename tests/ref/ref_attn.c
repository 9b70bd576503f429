/* ref_attn.c: attention references. flash_attn.cu and flash_decoding.cu compute
 * O = softmax(scale Q K^T) V (flash_attn optionally causal); the reference evaluates it directly,
 * in double, with the maximum subtracted before exp. ref_decode_partial gives the per-split
 * quantities that flash_decode_partial writes, for locating an error before the combine.
 */
#include <math.h>
#include <stdlib.h>

#include "ref.h"

void
ref_attention(const uint16_t *q, const uint16_t *k, const uint16_t *v, double *o, double *oabs,
              double *smax, int nq, int nkv, int d, double scale, int causal)
{
	double *s = malloc(sizeof *s * (size_t)nkv);

	for (int i = 0; i < nq; i++) {
		double m = -INFINITY, l = 0.0, sa_max = 0.0;
		int nj = causal ? (i + 1 < nkv ? i + 1 : nkv) : nkv;

		for (int j = 0; j < nj; j++) {
			double dot = 0.0, sa = 0.0;
			for (int c = 0; c < d; c++) {
				double t = f16_to_double(q[(size_t)i * d + c]) * f16_to_double(k[(size_t)j * d + c]);
				dot += t;
				sa += fabs(t);
			}
			s[j] = scale * dot;
			m = fmax(m, s[j]);
			sa_max = fmax(sa_max, sa);
		}
		for (int j = 0; j < nj; j++) {
			s[j] = exp(s[j] - m);
			l += s[j];
		}
		for (int c = 0; c < d; c++) {
			double acc = 0.0, acca = 0.0;
			for (int j = 0; j < nj; j++) {
				double vv = f16_to_double(v[(size_t)j * d + c]);
				acc += s[j] * vv;
				acca += s[j] * fabs(vv);
			}
			o[(size_t)i * d + c] = acc / l;
			if (oabs)
				oabs[(size_t)i * d + c] = acca / l;
		}
		if (smax)
			smax[i] = sa_max;
	}
	free(s);
}

void
ref_decode_partial(const uint16_t *q, const uint16_t *k, const uint16_t *v, double *part_o,
                   double *part_m, double *part_l, int seq, int chunk, int d, double scale)
{
	int splits = (seq + chunk - 1) / chunk;
	double *s = malloc(sizeof *s * (size_t)chunk);

	for (int sp = 0; sp < splits; sp++) {
		int start = sp * chunk, len = seq - start < chunk ? seq - start : chunk;
		double m = -INFINITY, l = 0.0;

		for (int j = 0; j < len; j++) {
			double dot = 0.0;
			for (int c = 0; c < d; c++)
				dot += f16_to_double(q[c]) * f16_to_double(k[(size_t)(start + j) * d + c]);
			s[j] = scale * dot;
			m = fmax(m, s[j]);
		}
		for (int j = 0; j < len; j++) {
			s[j] = exp(s[j] - m);
			l += s[j];
		}
		for (int c = 0; c < d; c++) {
			double acc = 0.0;
			for (int j = 0; j < len; j++)
				acc += s[j] * f16_to_double(v[(size_t)(start + j) * d + c]);
			part_o[(size_t)sp * d + c] = acc;
		}
		part_m[sp] = m;
		part_l[sp] = l;
	}
	free(s);
}
