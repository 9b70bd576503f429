#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__device__ __noinline__ int rec(int n, int *p) { int a[8]; for (int i = 0; i < 8; i++) a[i] = p[i] * n; return n <= 0 ? a[p[9] & 7] : rec(n - 1, p) + a[n & 7]; }
typedef int (*fp_t)(int);
__device__ int f1(int x) { return x + 1; }
__device__ int f2(int x) { return x * 3; }
__device__ fp_t tbl[2] = { f1, f2 };
extern "C" __global__ void k_misc(int *p, int *q, float *f, int n, unsigned long long *clk) {
  int t = threadIdx.x;
  int loc[32];
  for (int i = 0; i < 32; i++) loc[i] = p[i + t];
  int r = loc[n & 31] + loc[(n * 3) & 31];
  r += rec(n, p);
  r += tbl[n & 1](r);
  switch (p[t] & 15) {
  case 0: r += 1; break; case 1: r *= 3; break; case 2: r -= 7; break; case 3: r ^= 9; break;
  case 4: r += p[5]; break; case 5: r += q[1]; break; case 6: r <<= 2; break; case 7: r >>= 1; break;
  case 8: r += 11; break; case 9: r *= 13; break; default: r = 0;
  }
  if (r == 12345) __trap();
  if (r == 12346) __brkpt();
  __nanosleep(n);
  clk[0] = clock64(); clk[1] = clock();
  unsigned long long gt; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt)); clk[2] = gt;
  unsigned sm; asm volatile("mov.u32 %0, %%smid;" : "=r"(sm)); unsigned lid; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lid));
  unsigned lm; asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lm));
  r += sm + lid + lm + gridDim.x + blockDim.y + warpSize;
  __threadfence(); p[t] = r; __threadfence_block(); q[t] = r; __threadfence_system();
  r += __syncthreads_count(r > 3) + __syncthreads_and(r > 4) + __syncthreads_or(r > 5);
  asm volatile("bar.sync 1, 64;"); asm volatile("bar.arrive 2, 64;"); asm volatile("barrier.sync.aligned 3;");
  asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; bar.red.popc.u32 %0, 4, p; }" : "=r"(lm) : "r"(r)); r += lm;
  r += __ldg(p + 7) + __ldcs(p + 8) + __ldcg(p + 9) + __ldca(p + 10) + __ldlu(p + 11) + __ldcv(p + 12);
  __stcs(q + 1, r); __stwt(q + 2, r); __stcg(q + 3, r); __stwb(q + 4, r);
  r += *(volatile int *)(p + 13);
  asm volatile("prefetch.global.L2 [%0];" :: "l"(p + 64)); asm volatile("prefetch.global.L1 [%0];" :: "l"(p + 96));
  asm volatile("discard.global.L2 [%0], 128;" :: "l"(p + 128)); asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(p + 256));
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(gt)); 
  r += __ldg(p + 300); asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(lm) : "l"(p+400), "l"(gt)); r += lm;
  float4 v4 = reinterpret_cast<float4*>(f)[t]; double2 d2 = reinterpret_cast<double2*>(f)[t + 1]; int2 i2 = reinterpret_cast<int2*>(p)[t+3];
  reinterpret_cast<float4*>(f)[t + 64] = make_float4(v4.x + r, v4.y, v4.z, v4.w + (float)d2.x);
  reinterpret_cast<int2*>(q)[t + 64] = make_int2(i2.x + r, i2.y);
  reinterpret_cast<double2*>(f)[t + 128] = d2;
  p[t + 1] = r;
  cg::grid_group g = cg::this_grid(); (void)g;
  auto tb = cg::this_thread_block(); auto tile = cg::tiled_partition<16>(tb); r += cg::reduce(tile, r, cg::plus<int>()); tile.sync();
  q[t] = r;
}
extern "C" __global__ void k_async(float *g, float *out, int n) {
  __shared__ __align__(16) float s[4 * 256]; __shared__ __align__(16) float s2[256]; __shared__ __align__(8) unsigned long long mbar;
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t * 4], &g[t * 4], 16);
  __pipeline_memcpy_async(&s2[t], &g[t + 2048], 4);
  __pipeline_memcpy_async(&s[t * 4 + 1024 - 1024 + 2], &g[t * 4 + 4096], 8, 8 - (n & 8));
  __pipeline_commit();
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"((unsigned)__cvta_generic_to_shared(&s[(t*4 + 512) & 1023])), "l"(g + 8192 + t * 4), "r"(n & 16));
  asm volatile("cp.async.commit_group;");
  __pipeline_wait_prior(1);
  asm volatile("cp.async.wait_all;");
  unsigned sb = (unsigned)__cvta_generic_to_shared(&mbar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(sb), "r"(blockDim.x));
  __syncthreads();
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(sb));
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(sb));
  unsigned long long st; asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(sb));
  unsigned ok = 0;
  while (!ok) asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(sb), "l"(st));
  asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(sb));
  out[t] = s[t] + s2[(t + 1) & 255] + s[(t*7)&1023];
}
