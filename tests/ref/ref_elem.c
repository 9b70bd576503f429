/* ref_elem.c: elementwise references. rope.cu: rotation of the interleaved pair (2i, 2i+1) of
 * each (token, head) row by the angle (pos_offset + t) * theta_base^(-2i/dhead); silu_ffn.cu:
 * out = g / (1 + exp(-g)) * u. In double, unrounded.
 */
#include <math.h>

#include "ref.h"

void
ref_rope(const float *q, const uint16_t *k, double *q_out, double *k_out, int tokens, int heads,
         int dhead, int pos_offset, double theta_base)
{
	int half_d = dhead / 2;

	for (int t = 0; t < tokens; t++)
		for (int h = 0; h < heads; h++)
			for (int i = 0; i < half_d; i++) {
				size_t e = (((size_t)t * heads + h) * dhead) + 2 * (size_t)i;
				double a = (pos_offset + t) * pow(theta_base, -2.0 * i / dhead);
				double s = sin(a), c = cos(a);
				double x0 = q[e], x1 = q[e + 1];

				q_out[e] = x0 * c - x1 * s;
				q_out[e + 1] = x0 * s + x1 * c;
				x0 = f16_to_double(k[e]);
				x1 = f16_to_double(k[e + 1]);
				k_out[e] = x0 * c - x1 * s;
				k_out[e + 1] = x0 * s + x1 * c;
			}
}

void
ref_silu_mul(const uint16_t *gate, const uint16_t *up, double *out, int n)
{
	for (int i = 0; i < n; i++) {
		double g = f16_to_double(gate[i]);

		out[i] = g / (1.0 + exp(-g)) * f16_to_double(up[i]);
	}
}
