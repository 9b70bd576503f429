// float.cu: FP32 opcode families for the hazard corpus: FFMA, FADD, FMUL, FMNMX, FSETP, FSEL,
// FSET, FRND, FCHK (IEEE division), MUFU (EX2, LG2, SIN, COS, RSQ, RCP, SQRT, TANH), fast
// intrinsics. Made with sass-dump -a sm_80|sm_90 float.cu -o float.sm_XX.sass
extern "C" __global__ void lat_fp32_chain(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float a = in[t], b = in[t + 1] + 1.0f, c = 0.5f;
  for (int i = 0; i < n; i++) {
    a = fmaf(a, b, c);          // FFMA
    b = b * 0.999f + a;         // FMUL, FADD
    c = fmaxf(c, a) - fminf(b, 1.0f); // FMNMX
    a = (a > c) ? a : b;        // FSETP, FSEL
    c += rintf(b) + truncf(a);  // FRND
  }
  out[t] = a + b + c;
}
extern "C" __global__ void lat_fp32_mufu(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float a = in[t] + 0.5f, b = 1.0f;
  for (int i = 0; i < n; i++) {
    a = __expf(a * 0.01f) + __logf(b + 2.0f);   // MUFU.EX2, MUFU.LG2
    b = __sinf(a) + __cosf(b) + rsqrtf(a + 1.0f); // MUFU.SIN, COS, RSQ
    a += __frcp_rn(b + 3.0f) + __fsqrt_rn(a + 1.0f); // MUFU.RCP, MUFU.SQRT paths
    b += tanhf(a) * __fdividef(a, b + 4.0f);    // MUFU.TANH, fast divide
  }
  out[t] = a + b;
}
extern "C" __global__ void lat_fp32_div(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float a = in[t] + 1.0f, b = in[t + 1] + 2.0f;
  for (int i = 0; i < n; i++) {
    a = a / b + sqrtf(a);       // FCHK, division and sqrt slow paths
    b = b + expf(-a) + logf(a + 1.0f) + sinf(b); // accurate libm
  }
  out[t] = a + b + (float)(a != a);
}
