#include <cuda.h>
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
extern "C" __global__ void __cluster_dims__(2,1,1) k_tma(float *out, const __grid_constant__ CUtensorMap tm, int a, int b, int c, int d, int e, unsigned short mask) {
  __shared__ __align__(1024) float s[8192]; __shared__ __align__(8) unsigned long long bar;
  unsigned bb = sa(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bb), "r"(1));
    asm volatile("prefetch.tensormap [%0];" :: "l"(&tm));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bb), "r"(65536));
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" :: "r"(sa(s)), "l"(&tm), "r"(a), "r"(bb) : "memory");
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(sa(s+1024)), "l"(&tm), "r"(a), "r"(b), "r"(c), "r"(bb) : "memory");
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" :: "r"(sa(s+2048)), "l"(&tm), "r"(a), "r"(b), "r"(c), "r"(d), "r"(e), "r"(bb) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" :: "r"(sa(s+4096)), "l"(&tm), "r"(a), "r"(b), "r"(bb), "h"(mask) : "memory");
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" :: "r"(sa(s+6144)), "l"(&tm), "r"(a), "r"(b), "r"(c), "r"(d), "r"(bb), "h"((unsigned short)e), "h"((unsigned short)(e+1)) : "memory");
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(&tm), "r"(a), "r"(b), "r"(c), "r"(sa(s)) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.5d.L2.global [%0, {%1, %2, %3, %4, %5}];" :: "l"(&tm), "r"(a), "r"(b), "r"(c), "r"(d), "r"(e));
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" :: "r"(sa(s + 7000)), "r"(sa(s+100)), "r"(bb) : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  while (!done) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bb), "r"(0), "r"(1000000));
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 4096];
}
extern "C" __global__ void k_wg256(float *out, unsigned long long da, unsigned long long db, int n) {
  float d[128]; unsigned h[64];
  for (int i = 0; i < 128; i++) d[i] = 0.f;
  for (int i = 0; i < 64; i++) h[i] = 0;
  for (int it = 0; it < n; it++) {
  asm volatile("wgmma.fence.sync.aligned;");
#define R8(b) "+f"(d[b]),"+f"(d[b+1]),"+f"(d[b+2]),"+f"(d[b+3]),"+f"(d[b+4]),"+f"(d[b+5]),"+f"(d[b+6]),"+f"(d[b+7])
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
    "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
    "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
    "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}, %128, %129, 1, 1, 1, 0, 0;"
    : R8(0),R8(8),R8(16),R8(24),R8(32),R8(40),R8(48),R8(56),R8(64),R8(72),R8(80),R8(88),R8(96),R8(104),R8(112),R8(120) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float acc = 0; for (int i = 0; i < 128; i++) acc += d[i];
  out[threadIdx.x] = acc;
}
