// softmax.cu -- row softmax over a row-major fp32 matrix, one warp per row.
//
// Computes, for every row r in [0, rows) and column c in [0, cols):
//     m_r     = max_j x[r][j]
//     y[r][c] = exp(x[r][c] - m_r) / sum_j exp(x[r][j] - m_r)
// Max and sum are reduced across the warp with __shfl_xor_sync (butterfly, SHFL.BFLY);
// exp is the accurate expf (FFMA range reduction + MUFU.EX2).
//
// Kernel:  softmax_rows(const float *x, float *y, int rows, int cols)
//   x    : input  [rows x cols] fp32, row-major
//   y    : output [rows x cols] fp32, row-major
//   rows : number of rows            (example: 8)
//   cols : number of columns, any >= 1 (example: 256)
// Launch:  grid  = ceil(rows / 4) x 1 x 1   (example: 2)
//          block = 128 x 1 x 1  (4 warps, warp w of CTA b handles row 4*b + w)
//          dynamic shared memory = 0 bytes
#include <math.h>

#define WARPS_PER_BLOCK 4

extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
softmax_rows(const float *__restrict__ x, float *__restrict__ y, int rows, int cols)
{
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int row  = blockIdx.x * WARPS_PER_BLOCK + warp;
    if (row >= rows)
        return;                      // whole warp leaves together: shuffles stay converged
    const float *xr = x + (size_t)row * cols;
    float *yr = y + (size_t)row * cols;

    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32)
        m = fmaxf(m, xr[c]);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));

    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += expf(xr[c] - m);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);

    const float inv = 1.0f / s;
    for (int c = lane; c < cols; c += 32)
        yr[c] = expf(xr[c] - m) * inv;
}
