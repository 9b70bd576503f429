/* ref_rows.c: row-wise references. softmax.cu: y = exp(x - max) / sum exp(x - max) per row;
 * rmsnorm.cu: y = x / sqrt(mean(x^2) + eps) * w per row. Both in double, unrounded.
 */
#include <math.h>

#include "ref.h"

void
ref_softmax(const float *x, double *y, int rows, int cols)
{
	for (int r = 0; r < rows; r++) {
		const float *xr = x + (size_t)r * cols;
		double *yr = y + (size_t)r * cols;
		double m = -INFINITY, s = 0.0;

		for (int c = 0; c < cols; c++)
			m = fmax(m, xr[c]);
		for (int c = 0; c < cols; c++)
			s += exp((double)xr[c] - m);
		for (int c = 0; c < cols; c++)
			yr[c] = exp((double)xr[c] - m) / s;
	}
}

void
ref_rmsnorm(const uint16_t *x, const uint16_t *w, double *y, int rows, int hidden, double eps)
{
	for (int r = 0; r < rows; r++) {
		const uint16_t *xr = x + (size_t)r * hidden;
		double ss = 0.0, inv;

		for (int i = 0; i < hidden; i++) {
			double v = f16_to_double(xr[i]);
			ss += v * v;
		}
		inv = 1.0 / sqrt(ss / hidden + eps);
		for (int i = 0; i < hidden; i++)
			y[(size_t)r * hidden + i] = f16_to_double(xr[i]) * inv * f16_to_double(w[i]);
	}
}
