// half.cu: half and bfloat16 families for the hazard corpus: HFMA2, HADD2, HMUL2, HSETP2,
// HMNMX2, HFMA2.BF16, F2FP packs, conversions half<->float. Made with
// sass-dump -a sm_80|sm_90 half.cu -o half.sm_XX.sass
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void lat_half_chain(__half2 *out, const __half2 *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  __half2 a = in[t], b = __hadd2(in[t + 1], __float2half2_rn(1.0f)), c = __float2half2_rn(0.5f);
  for (int i = 0; i < n; i++) {
    a = __hfma2(a, b, c);                 // HFMA2
    b = __hmul2(b, a) + c;                // HMUL2, HADD2
    c = __hmax2(c, a);                    // HMNMX2
    a = __hgt2(a, c) == __float2half2_rn(1.0f) ? a : b; // HSETP2
  }
  out[t] = a + b + c;
}
extern "C" __global__ void lat_bf16_chain(__nv_bfloat162 *out, const __nv_bfloat162 *in, const float *f, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  __nv_bfloat162 a = in[t], b = in[t + 1], c = __float2bfloat162_rn(f[t]);
  for (int i = 0; i < n; i++) {
    a = __hfma2(a, b, c);                 // HFMA2.BF16
    b = __hadd2(b, __floats2bfloat162_rn(__low2float(a), (float)i)); // F2FP.BF16 packs
    c = __hmul2(c, a);
  }
  out[t] = a + b + c;
}
extern "C" __global__ void lat_half_conv(float *out, const __half *h, const float *f, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float s = 0;
  __half acc = h[t];
  for (int i = 0; i < n; i++) {
    s += __half2float(acc) * f[t];         // HADD2.F32 / F2F
    acc = __float2half_rn(s + (float)i);   // F2FP / F2F.F16
    acc = __hadd(acc, h[(t + i) & 255]);
  }
  out[t] = s + __half2float(acc);
}
