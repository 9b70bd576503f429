// silu_ffn.cu -- SiLU-gated FFN elementwise step (SwiGLU): out = silu(gate) * up, fp16.
//
// Computes, for every i in [0, n) (n = 2*n2 halves):
//     g = float(gate[i]), u = float(up[i])
//     out[i] = half( g / (1 + exp(-g)) * u )      (accurate expf, fp32 math, round to nearest)
// Loads and stores are vectorised as __half2 (two elements per 32-bit access); grid-stride loop.
//
// Kernel:  silu_mul_f16(const __half2 *gate, const __half2 *up, __half2 *out, int n2)
//   gate : [n] fp16 (read as n2 = n/2 half2 pairs)
//   up   : [n] fp16
//   out  : [n] fp16
//   n2   : number of half2 pairs = n/2 (example: 1024, i.e. n = 2048)
// Launch:  grid  = 4 x 1 x 1   (any; grid-stride loop covers n2)
//          block = 256 x 1 x 1
//          dynamic shared memory = 0 bytes
#include <cuda_fp16.h>

__device__ __forceinline__ float silu(float g) { return g / (1.0f + expf(-g)); }

extern "C" __global__ void __launch_bounds__(256)
silu_mul_f16(const __half2 *__restrict__ gate, const __half2 *__restrict__ up,
             __half2 *__restrict__ out, int n2)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
        const float2 g = __half22float2(gate[i]);
        const float2 u = __half22float2(up[i]);
        out[i] = __floats2half2_rn(silu(g.x) * u.x, silu(g.y) * u.y);
    }
}
