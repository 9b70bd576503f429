// halfexpr.cu: k_h's f16 expressions (half.cu) without its race: each thread writes its own
// element of a separate buffer, so fiberc's buffers must be nvcc's bit for bit (issue 23: k_h
// itself reads what other warps write, tests/ptxdiff.xfail). Also __bfloat162float's
// `mov.b32 %f, {0, %rs}` and the bf16 packs.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k_hs(const __half *h, __half *o) {
  int t = threadIdx.x;
  o[t] = __hadd(h[t], h[t + 1]) * h[t + 2] + __hfma(h[t], h[t + 3], h[t + 4]) + hsin(h[t]) + hexp(h[t + 5]) + __hmax(h[t], h[t + 6]) + __hdiv(h[t], h[t + 7]);
}
extern "C" __global__ void k_h2(const __half2 *a, const __half2 *b, __half2 *o) {
  int t = threadIdx.x; __half2 x = a[t], y = b[t];
  o[t] = __h2div(x, y) + h2sin(x) + h2exp(y) + h2sqrt(x) + h2rcp(y) + h2log(x) + __lowhigh2highlow(x);
}
extern "C" __global__ void k_bf(const __nv_bfloat16 *a, const __nv_bfloat162 *p, float *f) {
  int t = threadIdx.x; float2 g = __bfloat1622float2(p[t]);
  f[t] = __bfloat162float(a[t]) + g.x * g.y + __low2float(p[t + 1]);
}
