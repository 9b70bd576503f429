// rmsnorm.cu -- RMSNorm over the rows of a row-major fp16 matrix, fp32 accumulation.
//
// Computes, for every row r in [0, rows) and column i in [0, hidden):
//     ms_r    = (1/hidden) * sum_j float(x[r][j])^2
//     inv_r   = rsqrt(ms_r + eps)                  (rsqrtf, MUFU.RSQ)
//     y[r][i] = half( float(x[r][i]) * inv_r * float(w[i]) )   (round to nearest)
// One CTA per row. Each thread accumulates x^2 over half2 pairs, the warp reduces with
// __shfl_xor_sync, warp partials go through shared memory and warp 0 reduces them.
//
// Kernel:  rmsnorm_f16(const __half *x, const __half *w, __half *y, int hidden, float eps)
//   x      : input  [rows x hidden] fp16, row-major (rows = gridDim.x)
//   w      : weight [hidden] fp16
//   y      : output [rows x hidden] fp16, row-major
//   hidden : row length, must be even (example: 1024)
//   eps    : epsilon (example: 1e-6)
// Launch:  grid  = rows x 1 x 1      (example: 4)
//          block = 256 x 1 x 1       (any multiple of 32 up to 1024)
//          dynamic shared memory = 0 bytes (32 floats of static shared memory)
#include <cuda_fp16.h>

extern "C" __global__ void __launch_bounds__(1024)
rmsnorm_f16(const __half *__restrict__ x, const __half *__restrict__ w,
            __half *__restrict__ y, int hidden, float eps)
{
    __shared__ float red[32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    const __half2 *xr = reinterpret_cast<const __half2 *>(x + (size_t)blockIdx.x * hidden);
    const __half2 *w2 = reinterpret_cast<const __half2 *>(w);
    __half2 *yr = reinterpret_cast<__half2 *>(y + (size_t)blockIdx.x * hidden);
    const int n2 = hidden >> 1;

    float ss = 0.0f;
    for (int i = tid; i < n2; i += blockDim.x) {
        float2 v = __half22float2(xr[i]);
        ss = fmaf(v.x, v.x, ss);
        ss = fmaf(v.y, v.y, ss);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        ss += __shfl_xor_sync(0xffffffffu, ss, off);
    if (lane == 0)
        red[warp] = ss;
    __syncthreads();
    if (warp == 0) {
        float v = lane < nwarps ? red[lane] : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, off);
        if (lane == 0)
            red[0] = v;
    }
    __syncthreads();
    const float inv = rsqrtf(red[0] / (float)hidden + eps);

    for (int i = tid; i < n2; i += blockDim.x) {
        float2 v = __half22float2(xr[i]);
        float2 g = __half22float2(w2[i]);
        yr[i] = __floats2half2_rn(v.x * inv * g.x, v.y * inv * g.y);
    }
}
