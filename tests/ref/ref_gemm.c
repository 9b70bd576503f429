/* ref_gemm.c: matrix references. gemm_tc.cu: C = A B, A [m x k] and B [k x n] fp16 row-major;
 * w4a16_gemv.cu: y = W x with W[r][c] = (q[r][c] - zeros[r][c/128]) * scales[r][c/128], q the
 * unsigned nibble c%8 of word qweight[r][c/8]. Products of fp16 values are exact in double and
 * these sums (at most a few thousand terms of similar size) lose under 2^-40 relative.
 */
#include <math.h>

#include "ref.h"

void
ref_gemm(const uint16_t *a, const uint16_t *b, double *c, double *cabs, int m, int n, int k)
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			double s = 0.0, sa = 0.0;

			for (int p = 0; p < k; p++) {
				double t = f16_to_double(a[(size_t)i * k + p]) * f16_to_double(b[(size_t)p * n + j]);
				s += t;
				sa += fabs(t);
			}
			c[(size_t)i * n + j] = s;
			if (cabs)
				cabs[(size_t)i * n + j] = sa;
		}
}

void
ref_w4a16(const uint32_t *qweight, const uint16_t *scales, const uint16_t *zeros,
          const uint16_t *x, double *y, double *yabs, int n, int k)
{
	int groups = k / 128;

	for (int r = 0; r < n; r++) {
		double s = 0.0, sa = 0.0;

		for (int c = 0; c < k; c++) {
			uint32_t word = qweight[(size_t)r * (k / 8) + c / 8];
			double q = (word >> (4 * (c % 8))) & 15;
			double sc = f16_to_double(scales[(size_t)r * groups + c / 128]);
			double z = f16_to_double(zeros[(size_t)r * groups + c / 128]);
			double t = (q - z) * sc * f16_to_double(x[c]);

			s += t;
			sa += fabs(t);
		}
		y[r] = s;
		if (yabs)
			yabs[r] = sa;
	}
}
