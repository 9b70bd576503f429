// mem.cu: memory families for the hazard corpus: LDG/STG of 8 to 128 bits, LDS/STS, LDSM
// (ldmatrix), LDGSTS (cp.async) with LDGDEPBAR and DEPBAR, local memory (LDL/STL), constant
// memory (LDC, ULDC), LD/ST generic. Made with sass-dump -a sm_80|sm_90 mem.cu -o mem.sm_XX.sass
#include <cuda_pipeline.h>
__constant__ float ctab[64];
extern "C" __global__ void lat_mem_widths(float4 *o4, const float4 *i4, const double2 *i2, const unsigned char *b, const unsigned short *h, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float4 a = i4[t];
  double2 d = i2[t];
  unsigned s = 0;
  for (int i = 0; i < n; i++) {
    s += b[(t + i) & 511] + h[(t * 3 + i) & 511];   // LDG.U8, LDG.U16
    a.x += (float)d.x + ctab[(t + i) & 63];          // LDC indexed
    d.y += a.y * ctab[3];
  }
  o4[t] = make_float4(a.x + (float)s, a.y, a.z + (float)d.y, a.w);
}
extern "C" __global__ void lat_mem_shared(float *out, const float *in, int n) {
  __shared__ float sm[1024];
  __shared__ double sd[128];
  __shared__ float4 s4[128];
  int t = threadIdx.x;
  sm[t] = in[t];
  sd[t & 127] = (double)in[t + 1];
  s4[t & 127] = make_float4(in[t], 1.0f, 2.0f, 3.0f);
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < n; i++) {
    acc += sm[(t + i * 33) & 1023] + (float)sd[(t + i) & 127];  // LDS, LDS.64
    float4 v = s4[(t ^ i) & 127];                               // LDS.128
    acc += v.x * v.y + v.z - v.w;
    sm[(t * 5 + i) & 1023] = acc;                               // STS
    __syncwarp();
  }
  out[t] = acc;
}
extern "C" __global__ void lat_mem_async(float *out, const float *in, int n) {
  __shared__ float buf[2][256];
  int t = threadIdx.x;
  float acc = 0;
  __pipeline_memcpy_async(&buf[0][t], &in[t], 4);
  __pipeline_commit();
  for (int i = 0; i < n; i++) {
    __pipeline_memcpy_async(&buf[(i + 1) & 1][t], &in[((i + 1) * 256 + t) & 4095], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);              // LDGSTS, LDGDEPBAR, DEPBAR.LE
    __syncthreads();
    acc += buf[i & 1][(t + 1) & 255];
    __syncthreads();
  }
  __pipeline_wait_prior(0);
  out[t] = acc;
}
extern "C" __global__ void lat_mem_local(float *out, const float *in, const int *idx, int n) {
  float loc[32];                            // indexed: local memory (LDL/STL)
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  for (int k = 0; k < 32; k++) loc[k] = in[(t + k) & 1023];
  float acc = 0;
  for (int i = 0; i < n; i++) {
    int j = idx[(t + i) & 255] & 31;
    acc += loc[j];
    loc[(j + i) & 31] = acc;
  }
  out[t] = acc;
}
extern "C" __global__ void lat_ldsm(unsigned *out, int n) {
  __shared__ __align__(16) unsigned short tile[64 * 8];
  int t = threadIdx.x;
  for (int k = t; k < 512; k += blockDim.x) tile[k] = (unsigned short)k;
  __syncthreads();
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0, acc = 0;
  for (int i = 0; i < n; i++) {
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[((t & 31) * 8 + i * 8) & 511]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    acc += r0 ^ r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r2), "=r"(r3) : "r"(a));
    acc += r2 + r3;
  }
  out[t] = acc;
}
