/* ref_bias.c: CPU reference of examples/bias_silu (bias + SiLU over rows of an activation). */
#include "ref.h"

#include <math.h>

/* y[r*hidden + i] = v / (1 + exp(-v)), v = x[r*hidden + i] + bias[i], in double */
void
ref_bias_silu(const float *x, const float *bias, double *y, int rows, int hidden)
{
	for (int r = 0; r < rows; r++)
		for (int i = 0; i < hidden; i++) {
			double v = (double)x[(size_t)r * hidden + i] + (double)bias[i];
			y[(size_t)r * hidden + i] = v / (1.0 + exp(-v));
		}
}
