// bias_silu.cu -- bias + SiLU over an activation row (an LLM MLP epilogue): y = silu(x + b), fp32.
//
// Computes, for every row r (one CTA per row) and every column i in [0, HIDDEN):
//     v = x[r*HIDDEN + i] + bias[i]
//     y[r*HIDDEN + i] = __fdividef(v, 1 + __expf(-v))      (fast SiLU, fp32)
// A block-stride loop: each thread handles HIDDEN / blockDim.x columns (32 with 128 threads),
// so a small launch loops many times per thread (the case fiberc --mode=cuda-native splits
// over more fibers, docs/pass-phases.md).
//
// Kernel:  bias_silu_f32(const float *x, const float *bias, float *y)
//   x    : [rows * HIDDEN] fp32 (example: rows = 4, HIDDEN = 4096)
//   bias : [HIDDEN] fp32
//   y    : [rows * HIDDEN] fp32
// Launch:  grid  = rows x 1 x 1  (example: 4)
//          block = 128 x 1 x 1   (__launch_bounds__(128))
//          dynamic shared memory = 0 bytes
#define HIDDEN 4096

extern "C" __global__ void __launch_bounds__(128)
bias_silu_f32(const float *__restrict__ x, const float *__restrict__ bias, float *__restrict__ y)
{
    const float *xr = x + (size_t)blockIdx.x * HIDDEN;
    float *yr = y + (size_t)blockIdx.x * HIDDEN;
    for (int i = threadIdx.x; i < HIDDEN; i += blockDim.x) {
        const float v = xr[i] + bias[i];
        yr[i] = __fdividef(v, 1.0f + __expf(-v));
    }
}
