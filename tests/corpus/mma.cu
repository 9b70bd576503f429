#include <mma.h>
extern "C" __global__ void k_mma(unsigned *A, unsigned *B, float *C, unsigned *H, double *D, int *I) {
  int t = threadIdx.x;
  unsigned a0 = A[t], a1 = A[t + 32], a2 = A[t + 64], a3 = A[t + 96], b0 = B[t], b1 = B[t + 32];
  float c0 = C[t], c1 = C[t + 32], c2 = C[t + 64], c3 = C[t + 96];
  float d0, d1, d2, d3; unsigned h0, h1; double dd0, dd1; int i0, i1, i2, i3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" : "=r"(h0), "=r"(h1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(H[t]), "r"(H[t+32]));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};" : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3), "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(dd0), "+d"(dd1) : "d"(D[t]), "d"(D[t+32]));
  i0 = I[t]; i1 = I[t+1]; i2 = I[t+2]; i3 = I[t+3];
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(i0), "+r"(i1) : "r"(a0), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(i0), "+r"(i1) : "r"(a0), "r"(b0));
  asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(i0), "+r"(i1) : "r"(a0), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  C[t] = d0 + d1 + d2 + d3 + c0 + c1 + c2 + c3; H[t] = h0 + h1; D[t] = dd0 + dd1; I[t] = i0 + i1 + i2 + i3;
}
extern "C" __global__ void k_ldsm(unsigned *out, unsigned short *g) {
  __shared__ __align__(16) unsigned short s[64 * 64];
  int t = threadIdx.x;
  for (int i = t; i < 4096; i += blockDim.x) s[i] = g[i];
  __syncthreads();
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[(t & 15) * 64 + (t >> 4) * 8]);
  unsigned r0, r1, r2, r3, x0, x1, y0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(a + 1024));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(y0) : "r"(a + 2048));
  r0 += x0 + y0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(a + 4096));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(a + 128));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(y0) : "r"(a + 256));
  unsigned m; asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(r1));
  out[t] = r0 + r1 + r2 + r3 + x0 + x1 + y0 + m;
}
using namespace nvcuda;
extern "C" __global__ void k_wmma(const half *a, const half *b, float *c, const double *da, double *dc, const signed char *ia, int *ic, const __nv_bfloat16 *ba, const float *ta) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa; wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb; wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16); wmma::fill_fragment(fc, 0.f); wmma::mma_sync(fc, fa, fb, fc); wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da_; wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db_; wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc_;
  wmma::load_matrix_sync(da_, da, 4); wmma::load_matrix_sync(db_, da + 32, 4); wmma::load_matrix_sync(dc_, dc, 8, wmma::mem_row_major); wmma::mma_sync(dc_, da_, db_, dc_); wmma::store_matrix_sync(dc, dc_, 8, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> ia_; wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> ib_; wmma::fragment<wmma::accumulator, 16, 16, 16, int> ic_;
  wmma::load_matrix_sync(ia_, ia, 16); wmma::load_matrix_sync(ib_, ia + 256, 16); wmma::fill_fragment(ic_, 0); wmma::mma_sync(ic_, ia_, ib_, ic_); wmma::store_matrix_sync(ic, ic_, 16, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta_; wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb_;
  wmma::load_matrix_sync(ta_, ta, 8); wmma::load_matrix_sync(tb_, ta + 128, 8); wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc_; wmma::fill_fragment(tc_, 1.f); wmma::mma_sync(tc_, ta_, tb_, tc_); wmma::store_matrix_sync(c + 256, tc_, 16, wmma::mem_row_major);
}
