#include <cuda.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
extern "C" __global__ void __cluster_dims__(2,1,1) k_hop(float *out, const __grid_constant__ CUtensorMap tm, const float *g, int n, unsigned long long desc_a, unsigned long long desc_b, float *red) {
  __shared__ __align__(128) float s[64 * 64]; __shared__ __align__(8) unsigned long long bar; __shared__ __align__(16) float sb[256];
  int t = threadIdx.x;
  unsigned b = sa(&bar);
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  unsigned isel;
  asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(isel));
  if (isel && t < 32) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(16384));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(sa(s)), "l"(&tm), "r"(n), "r"(0), "r"(b) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global [%0, {%1, %2}];" :: "l"(&tm), "r"(n), "r"(64));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];" :: "r"(sa(sb)), "l"(g), "r"(b) : "memory");
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], 1024;" :: "l"(g + 1024));
  }
  unsigned done = 0;
  while (!done) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(b), "r"(0));
  float d[64];
  for (int i = 0; i < 64; i++) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, 1, 1, 1, 0, 0;"
    : "+f"(d[0]),"+f"(d[1]),"+f"(d[2]),"+f"(d[3]),"+f"(d[4]),"+f"(d[5]),"+f"(d[6]),"+f"(d[7]),"+f"(d[8]),"+f"(d[9]),"+f"(d[10]),"+f"(d[11]),"+f"(d[12]),"+f"(d[13]),"+f"(d[14]),"+f"(d[15]),
      "+f"(d[16]),"+f"(d[17]),"+f"(d[18]),"+f"(d[19]),"+f"(d[20]),"+f"(d[21]),"+f"(d[22]),"+f"(d[23]),"+f"(d[24]),"+f"(d[25]),"+f"(d[26]),"+f"(d[27]),"+f"(d[28]),"+f"(d[29]),"+f"(d[30]),"+f"(d[31]),
      "+f"(d[32]),"+f"(d[33]),"+f"(d[34]),"+f"(d[35]),"+f"(d[36]),"+f"(d[37]),"+f"(d[38]),"+f"(d[39]),"+f"(d[40]),"+f"(d[41]),"+f"(d[42]),"+f"(d[43]),"+f"(d[44]),"+f"(d[45]),"+f"(d[46]),"+f"(d[47]),
      "+f"(d[48]),"+f"(d[49]),"+f"(d[50]),"+f"(d[51]),"+f"(d[52]),"+f"(d[53]),"+f"(d[54]),"+f"(d[55]),"+f"(d[56]),"+f"(d[57]),"+f"(d[58]),"+f"(d[59]),"+f"(d[60]),"+f"(d[61]),"+f"(d[62]),"+f"(d[63])
    : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  unsigned h[16]; for (int i = 0; i < 16; i++) h[i] = __float_as_uint(d[i]);
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f16.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 0, 1;"
    : "+r"(h[0]),"+r"(h[1]),"+r"(h[2]),"+r"(h[3]),"+r"(h[4]),"+r"(h[5]),"+r"(h[6]),"+r"(h[7]) : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, 1, 1, 1;"
    : "+f"(d[0]),"+f"(d[1]),"+f"(d[2]),"+f"(d[3]),"+f"(d[4]),"+f"(d[5]),"+f"(d[6]),"+f"(d[7]) : "r"(h[8]),"r"(h[9]),"r"(h[10]),"r"(h[11]), "l"(desc_b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, 1, 1, 1;"
    : "+f"(d[8]),"+f"(d[9]),"+f"(d[10]),"+f"(d[11]) : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0,%1,%2,%3}, %4, %5, 1;"
    : "+r"(h[12]),"+r"(h[13]),"+r"(h[14]),"+r"(h[15]) : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%0,%1,%2,%3}, %4, %5, 1, 1, 1;"
    : "+f"(d[12]),"+f"(d[13]),"+f"(d[14]),"+f"(d[15]) : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%0,%1,%2,%3}, %4, %5, 1;"
    : "+r"(h[4]),"+r"(h[5]),"+r"(h[6]),"+r"(h[7]) : "l"(desc_a), "l"(desc_b));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  float acc = 0; for (int i = 0; i < 64; i++) acc += d[i]; for (int i = 0; i < 16; i++) acc += h[i];
  unsigned x0 = __float_as_uint(acc), x1 = x0 + 1, x2 = x0 ^ 7, x3 = x0 * 3;
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(sa(s) + t * 16), "r"(x0), "r"(x1), "r"(x2), "r"(x3));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(sa(s) + t * 16 + 4096), "r"(x0), "r"(x1));
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(sa(s) + t * 16 + 8192), "r"(x3));
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(n), "r"(0), "r"(sa(s)) : "memory");
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(n), "r"(64), "r"(sa(s)) : "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(out + 4096), "r"(sa(sb)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 1024;" :: "l"(red), "r"(sa(sb)) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank();
  float *peer = cl.map_shared_rank(sb, rank ^ 1);
  cl.sync();
  acc += peer[t & 255];
  asm volatile("barrier.cluster.arrive.release.aligned;"); asm volatile("barrier.cluster.wait.acquire.aligned;");
  unsigned r; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(sa(sb)), "r"(rank ^ 1));
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" :: "r"(r), "r"(x0), "r"(b));
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" :: "r"(r), "r"(x1), "r"(b));
  float pv; asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(pv) : "r"(r)); acc += pv;
  unsigned ctarank; asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(ctarank) : "r"(r)); acc += ctarank;
  unsigned cid; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(cid)); acc += cid;
  unsigned ncl; asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(ncl)); acc += ncl;
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(r));
  asm volatile("fence.acq_rel.cluster;"); asm volatile("fence.sc.gpu;"); asm volatile("fence.proxy.alias;");
  asm volatile("griddepcontrol.launch_dependents;"); asm volatile("griddepcontrol.wait;" ::: "memory");
  out[t] = acc;
}
extern "C" __global__ void __launch_bounds__(384) k_maxnreg(float *out) {
  if (threadIdx.x < 128) { asm volatile("setmaxnreg.dec.sync.aligned.u32 40;"); out[threadIdx.x] = 1; }
  else { asm volatile("setmaxnreg.inc.sync.aligned.u32 232;"); out[threadIdx.x] = 2; }
}
extern "C" __global__ void k_multimem(float *mc, float *out, unsigned *u) {
  float v; asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];" : "=f"(v) : "l"(mc + threadIdx.x));
  asm volatile("multimem.st.relaxed.sys.global.f32 [%0], %1;" :: "l"(mc + 256 + threadIdx.x), "f"(v));
  asm volatile("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(u + threadIdx.x), "r"(3u));
  float2 r2; asm volatile("atom.global.v2.f32.add {%0,%1}, [%2], {%3,%4};" : "=f"(r2.x), "=f"(r2.y) : "l"(out + 2*threadIdx.x), "f"(1.f), "f"(2.f));
  float4 r4; asm volatile("atom.global.v4.f32.add {%0,%1,%2,%3}, [%4], {%5,%6,%7,%8};" : "=f"(r4.x), "=f"(r4.y), "=f"(r4.z), "=f"(r4.w) : "l"(out + 4*threadIdx.x + 1024), "f"(1.f), "f"(2.f), "f"(3.f), "f"(4.f)); r2.x += r4.z;
  asm volatile("red.global.v2.f16x2.add.noftz [%0], {%1,%2};" :: "l"(u + 2*threadIdx.x + 4096), "r"(1u), "r"(2u));
  out[threadIdx.x] = v + r2.x;
}
extern "C" __global__ void k_fp8mma(unsigned *A, float *C) {
  int t = threadIdx.x; unsigned a0 = A[t], a1 = A[t+32], a2 = A[t+64], a3 = A[t+96], b0 = A[t+128], b1 = A[t+160];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  double e0 = 0, e1 = 0, e2 = 0, e3 = 0; double p0 = C[t], p1 = C[t+1], q0 = C[t+2], q1 = C[t+3];
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+d"(e0), "+d"(e1), "+d"(e2), "+d"(e3) : "d"(p0), "d"(p1), "d"(q0));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" : "+d"(e0), "+d"(e1), "+d"(e2), "+d"(e3) : "d"(p0), "d"(p1), "d"(q0), "d"(q1), "d"(p0), "d"(p1), "d"(q0), "d"(q1), "d"(p0), "d"(p1), "d"(q0), "d"(q1));
  C[t] = d0 + d1 + d2 + d3 + (float)(e0 + e1 + e2 + e3);
}
