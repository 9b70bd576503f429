// conv.cu: conversion families for the hazard corpus: I2F, F2I (rounding modes, 64-bit), F2F,
// I2I, FRND, saturating packs. Made with sass-dump -a sm_80|sm_90 conv.cu -o conv.sm_XX.sass
extern "C" __global__ void lat_conv(int *out, const float *in, const int *iv, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float a = in[t];
  int x = iv[t];
  long long w = x;
  for (int i = 0; i < n; i++) {
    a += (float)x;                   // I2F
    x += __float2int_rn(a) + __float2int_rd(a * 0.5f) + (int)__float2uint_rz(a); // F2I
    w += __float2ll_rn(a) + (long long)__ll2float_rn(w);  // F2I.S64, I2F.S64
    a += (float)(unsigned)x * 0.25f + (float)(short)x;    // I2F.U32, I2I
    x ^= (int)(signed char)(x >> 3);
  }
  out[t] = x + (int)w + (int)a;
}
