// double.cu: FP64 opcode families for the hazard corpus: DFMA, DADD, DMUL, DSETP, DMNMX,
// division (MUFU.RCP64H), sqrt (MUFU.RSQ64H), conversions F2F.F64.F32, I2F.F64, F2I.F64.
// Made with sass-dump -a sm_80|sm_90 double.cu -o double.sm_XX.sass
extern "C" __global__ void lat_fp64_chain(double *out, const double *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  double a = in[t], b = in[t + 1] + 1.0, c = 0.25;
  for (int i = 0; i < n; i++) {
    a = fma(a, b, c);           // DFMA
    b = b * 0.5 + a;            // DMUL, DADD
    c = fmax(c, a) - fmin(b, 2.0);
    a = (a > c) ? a : b;        // DSETP
  }
  out[t] = a + b + c;
}
extern "C" __global__ void lat_fp64_div(double *out, const double *in, const float *f, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  double a = in[t] + 1.0, b = in[t + 1] + 3.0;
  for (int i = 0; i < n; i++) {
    a = a / b + sqrt(a);        // MUFU.RCP64H, MUFU.RSQ64H
    b += (double)f[t] + (double)i; // F2F.F64.F32, I2F.F64
  }
  out[t] = a + b + (double)(int)a + (double)(long long)b; // F2I.F64
}
