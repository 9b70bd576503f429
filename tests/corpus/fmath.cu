#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k_f(float *a, double *d, int *i, unsigned *u, long long *l, unsigned long long *ul, __half *h, __nv_bfloat16 *bb, short *s, signed char *c, unsigned char *uc, float x) {
  int t = threadIdx.x; float f = a[t]; double g = d[t];
  float r = f / x + sqrtf(f) + rsqrtf(x) + sinf(f) + cosf(x) + __sinf(f) + __cosf(x) + __expf(f) + __logf(x) + exp2f(f) + log2f(x);
  r += tanhf(f) + __fdividef(f, x) + __saturatef(f) + fminf(f, x) + fmaxf(f, x) + copysignf(f, x) + truncf(f) + roundf(x) + floorf(f) + ceilf(x) + rintf(f);
  r += fabsf(f) * x + fmaf(f, x, 1.5f) + __fmul_rz(f, x) + __fadd_rd(f, x) + __frcp_rn(x) + __fsqrt_rn(f) + __fdiv_rn(f, x) + f * 3.0f + f + 2.5f;
  r += (f < x ? 1.f : 0.f) + (isnan(f) ? 2.f : 0.f) + (isinf(x) ? 1.f : 3.f) + expf(x) + logf(f) + powf(f, x) + erff(f) + atan2f(f, x);
  r += __int_as_float(__float_as_int(f) ^ 1) + __tanhf(f);
  double q = g / (double)x + sqrt(g) + rsqrt(g) + sin(g) + exp(g) + log(g) + pow(g, 1.5) + fma(g, g, 1.0) + rint(g) + floor(g) + trunc(g) + fmin(g, 2.0) + fmax(g, (double)f) + fabs(g) + (g < 3.0 ? 1.0 : 0.0) + 1.0 / g + __drcp_rn(g) + __dsqrt_rn(g);
  q += (double)i[t] + (double)u[t] + (double)l[t] + (double)ul[t] + (double)f;
  r += (float)g + (float)i[t] + (float)u[t] + (float)l[t] + (float)ul[t] + __int2float_rz(i[t]) + __uint2float_rd(u[t]);
  i[t] = (int)f + (int)g + __float2int_rd(f) + __double2int_rz(g) + __float2int_rn(r) + (int)(short)f + (int)(signed char)g;
  u[t] = (unsigned)f + (unsigned)g + __float2uint_ru(f);
  l[t] = (long long)f + (long long)g + __float2ll_rd(f);
  ul[t] = (unsigned long long)f + (unsigned long long)g + __double2ull_rz(g);
  s[t] = (short)i[t + 1]; c[t] = (signed char)u[t + 1]; uc[t] = (unsigned char)l[t + 1];
  i[t+2] = (int)s[t+3] + (int)c[t+3] + (int)uc[t+3] + (int)(unsigned short)i[t+5];
  h[t] = __float2half(r) + __double2half(q) + __int2half_rn(i[t]) + __short2half_rn(s[t]);
  bb[t] = __float2bfloat16(r) + __double2bfloat16(q) + __int2bfloat16_rn(i[t]);
  a[t] = r + __half2float(h[t + 1]) + __bfloat162float(bb[t + 1]) + (float)__half2int_rn(h[t+2]);
  d[t] = q + __half2float(h[t+3]) + (double)__float2half_rn(f) + __hiloint2double(i[t], i[t+1]) + __double2hiint(g) + __double2loint(g);
}
