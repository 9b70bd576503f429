#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
extern "C" __global__ void k_h(__half2 *a, __half2 *b, __half *h, __nv_bfloat162 *c, __nv_bfloat16 *bh, float *f, int *o, __nv_fp8x2_e4m3 *f8, __nv_fp8x4_e5m2 *f8b) {
  int t = threadIdx.x; __half2 x = a[t], y = b[t]; __nv_bfloat162 p = c[t], q = c[t + 1];
  __half2 r = __hadd2(x, y) + __hmul2(x, y) + __hfma2(x, y, r) + __hsub2(x, y) + __hmax2(x, y) + __hmin2(x, y) + __hneg2(x) + __habs2(y) + __h2div(x, y) + h2sin(x) + h2exp(y) + h2sqrt(x) + h2rcp(y) + h2log(x) + __hfma2_relu(x, y, x) + __hadd2_sat(x, y);
  r = r + __hlt2(x, y) + __hgt2(x, y) + __heq2(x, r) + __hmax2_nan(x, y) + __hfma2_sat(x, y, r);
  o[t] = (int)__hbge2(x, y) + (int)__half2float(__hisnan2(r).x) + (int)__hlt(h[t], h[t + 1]) + (int)__hbgtu2(x, r);
  __half s = __hadd(h[t], h[t + 1]) * h[t + 2] + __hfma(h[t], h[t + 3], h[t + 4]) + hsin(h[t]) + hexp(h[t + 5]) + __hmax(h[t], h[t+6]) + __hdiv(h[t], h[t+7]);
  __nv_bfloat162 bs = __hadd2(p, q) + __hmul2(p, q) + __hfma2(p, q, p) + __hmax2(p, q) + __hmin2(p, q) + h2exp(p) + __hneg2(q) + __habs2(p) + __hfma2_relu(p, q, p);
  bs = bs + __hlt2(p, q);
  __nv_bfloat16 b1 = __hadd(bh[t], bh[t+1]) * bh[t+2] + __hfma(bh[t], bh[t+3], bh[t+4]) + __hmax(bh[t], bh[t+1]);
  o[t + 1] = (int)__hlt(bh[t], bh[t+1]) + (int)__hbgt2(p, q) + __hisinf(b1);
  a[t] = r + __floats2half2_rn(f[t], f[t+1]) + __float2half2_rn(f[t+2]) + __halves2half2(s, s) + __lowhigh2highlow(x);
  c[t] = bs + __floats2bfloat162_rn(f[t], f[t+1]) + __float22bfloat162_rn(make_float2(f[t+3], f[t+4]));
  float2 ff = __half22float2(r) ; float2 fb = __bfloat1622float2(bs);
  f[t] = ff.x + ff.y + fb.x + fb.y + __low2float(x) + __high2float(y) + __bfloat162float(b1);
  f8[t] = __nv_fp8x2_e4m3(make_float2(f[t+5], f[t+6]));
  f8b[t] = __nv_fp8x4_e5m2(make_float4(f[t+5], f[t+6], f[t+7], f[t+8]));
  float2 g = (float2)__nv_fp8x2_e4m3(f8[t+1]);
  __half2_raw hr = __nv_cvt_fp8x2_to_halfraw2(f8b[t+1].__x & 0xffff, __NV_E5M2);
  f[t+1] = g.x + g.y + __half2float(__half(__half_raw{hr.x}));
  h[t] = s;
}
