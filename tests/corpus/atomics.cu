#include <cuda_fp16.h>
#include <cuda_bf16.h>
__device__ int gi; __device__ unsigned gu; __device__ float gf; __device__ double gd;
__device__ unsigned long long gull; __device__ long long gll;
extern "C" __global__ void k_atom_g(int *pi, unsigned *pu, float *pf, double *pd, unsigned long long *pull, long long *pll,
  __half2 *ph2, __nv_bfloat162 *pb2, __half *ph, int *out, int v) {
  int t = threadIdx.x;
  int r = 0;
  r += atomicAdd(pi + t, v);
  r += atomicAdd(pu + t, (unsigned)v);
  r += (int)atomicAdd(pf + t, (float)v);
  r += (int)atomicAdd(pd + t, (double)v);
  r += (int)atomicAdd(pull + t, (unsigned long long)v);
  r += atomicSub(pi + t + 1, v);
  r += atomicExch(pi + t + 2, v);
  r += (int)atomicExch(pf + t + 2, (float)v);
  r += (int)atomicExch(pull + t + 2, (unsigned long long)v);
  r += atomicMin(pi + t + 3, v);
  r += atomicMax(pi + t + 3, v);
  r += atomicMin(pu + t + 3, v);
  r += atomicMax(pu + t + 3, v);
  r += (int)atomicMin(pll + t, (long long)v);
  r += (int)atomicMax(pull + t, (unsigned long long)v);
  r += atomicInc(pu + t + 4, v);
  r += atomicDec(pu + t + 4, v);
  r += atomicCAS(pi + t + 5, v, r);
  r += (int)atomicCAS(pull + t + 5, (unsigned long long)v, (unsigned long long)r);
  r += (int)atomicCAS((unsigned short*)(pi + t + 6), (unsigned short)v, (unsigned short)r);
  r += atomicAnd(pi + t + 7, v);
  r += atomicOr(pi + t + 7, v);
  r += atomicXor(pi + t + 7, v);
  r += (int)atomicAnd(pull + t + 7, (unsigned long long)v);
  __half2 h = atomicAdd(ph2 + t, __floats2half2_rn(1.f, 2.f));
  __nv_bfloat162 b = atomicAdd(pb2 + t, __floats2bfloat162_rn(1.f, 2.f));
  __half hh = atomicAdd(ph + t, __float2half(1.f));
  r += (int)__low2float(h) + (int)__low2float(b) + (int)__half2float(hh);
  r += atomicAdd_block(pi + t + 8, v);
  r += atomicAdd_system(pi + t + 9, v);
  r += (int)atomicAdd_system(pd + t + 9, (double)v);
  out[t] = r;
}
extern "C" __global__ void k_red_g(int *pi, unsigned *pu, float *pf, double *pd, unsigned long long *pull, long long *pll, __half2 *ph2, __nv_bfloat162 *pb2, int v) {
  int t = threadIdx.x;
  atomicAdd(pi + t, v);
  atomicAdd(pf + t, (float)v);
  atomicAdd(pd + t, (double)v);
  atomicAdd(pull + t, (unsigned long long)v);
  atomicMin(pi + t, v); atomicMax(pu + t, v); atomicMin(pll + t, (long long)v);
  atomicAnd(pi + t, v); atomicOr(pi + t, v); atomicXor(pull + t, v);
  atomicInc(pu + t, v); atomicDec(pu + t, v);
  atomicAdd(ph2 + t, __floats2half2_rn(1.f, 2.f));
  atomicAdd(pb2 + t, __floats2bfloat162_rn(1.f, 2.f));
  atomicAdd_system(pi + t + 9, v);
  atomicAdd_block(pf + t + 9, v);
  atomicAdd(&gi, 1); atomicAdd(&gd, 1.0);
}
extern "C" __global__ void k_atom_s(int *out, int v) {
  __shared__ int si[256]; __shared__ float sf[256]; __shared__ unsigned long long sull[256]; __shared__ double sd[256];
  __shared__ __half2 sh2[256];
  int t = threadIdx.x;
  si[t] = 0; sf[t] = 0; sull[t] = 0; sd[t] = 0; __syncthreads();
  int r = atomicAdd(&si[(t * 7) & 255], v);
  r += (int)atomicAdd(&sf[(t * 5) & 255], (float)v);
  r += (int)atomicAdd(&sd[(t * 5) & 255], (double)v);
  r += (int)atomicAdd(&sull[(t * 3) & 255], (unsigned long long)v);
  r += atomicCAS(&si[(t * 9) & 255], v, r);
  r += (int)atomicCAS(&sull[(t * 9) & 255], (unsigned long long)v, (unsigned long long)r);
  r += atomicExch(&si[(t * 11) & 255], v);
  r += atomicMin(&si[(t * 13) & 255], v);
  r += (int)atomicMax(&sull[(t * 13) & 255], (unsigned long long)v);
  r += atomicInc((unsigned*)&si[(t * 15) & 255], v);
  r += atomicAnd(&si[(t * 17) & 255], v);
  r += (int)__low2float(atomicAdd(&sh2[t], __floats2half2_rn(1.f, 2.f)));
  atomicAdd(&si[(t * 19) & 255], v);
  atomicAdd(&sf[(t * 19) & 255], 1.f);
  __syncthreads();
  out[t] = r + si[t] + (int)sf[t] + (int)sull[t] + (int)sd[t];
}
extern "C" __device__ __noinline__ int gen_atom(int *p, int v) { return atomicAdd(p, v) + atomicCAS(p + 1, v, 3) + atomicExch(p+2, v); }
extern "C" __device__ __noinline__ unsigned long long gen_atom64(unsigned long long *p, unsigned long long v) { return atomicAdd(p, v) + atomicCAS(p + 1, v, 3ull); }
extern "C" __device__ __noinline__ void gen_red(int *p, int v, float *f) { atomicAdd(p, v); atomicAdd(f, 1.0f); atomicMax(p+1, v); }
extern "C" __global__ void k_atom_gen(int *g, int *out, int v, int sel) {
  __shared__ int s[64]; __shared__ unsigned long long s64[64];
  int *p = sel ? s + (threadIdx.x & 31) : g + threadIdx.x;
  unsigned long long *q = sel ? s64 + (threadIdx.x & 31) : (unsigned long long *)g + threadIdx.x;
  gen_red(p, v, (float*)p + 4);
  out[threadIdx.x] = gen_atom(p, v) + (int)gen_atom64(q, v) + s[threadIdx.x & 63];
}
