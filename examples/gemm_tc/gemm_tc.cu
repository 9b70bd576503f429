// gemm_tc.cu -- tensor-core GEMM, fp16 inputs, fp32 accumulate and output.
//
// Computes C = A * B:
//     C[m][n] = sum_{k<K} float(A[m][k]) * float(B[k][n])     (fp32 accumulation in the MMA)
//   A : [M x K] fp16 row-major,  B : [K x N] fp16 row-major,  C : [M x N] fp32 row-major.
// Requirements: M % 64 == 0, N % 64 == 0, K % 32 == 0, A/B 16-byte aligned.
//
// Structure: 64x64 CTA tile, BK = 32, 4 warps arranged 2x2, each warp a 32x32 sub-tile
// (2 m16 x 4 n8 MMA tiles). Global->shared copies use cp.async.cg 16 bytes (LDGSTS) with
// two shared-memory stages (double buffering, cp.async.commit_group / wait_group -> LDGDEPBAR
// / DEPBAR). Fragments come from ldmatrix.x4 (A, LDSM.16.M88.4) and ldmatrix.x4.trans
// (B, LDSM.16.MT88.4); the math is mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// (HMMA.16816.F32). All three through inline PTX.
//
// Kernel:  gemm_f16_tc(const __half *A, const __half *B, float *C, int M, int N, int K)
//   example: M = 128, N = 128, K = 64
// Launch:  grid  = (N/64) x (M/64) x 1      (example: 2 x 2 x 1)
//          block = 128 x 1 x 1               (4 warps)
//          dynamic shared memory = 0 bytes   (19456 bytes static: 2 stages x (64x40 + 32x72) halves)
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define A_STRIDE (BK + 8)   // halves per smem row of the A tile (80 B: keeps 16 B alignment, skews banks)
#define B_STRIDE (BN + 8)   // halves per smem row of the B tile (144 B)

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }

__device__ __forceinline__ void ldmatrix_x4(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3, uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3, uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
// d = a * b + d, 16x8x16, fp16 inputs, fp32 accumulators
__device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

extern "C" __global__ void __launch_bounds__(128)
gemm_f16_tc(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
            int M, int N, int K)
{
    __shared__ __align__(16) __half As[2][BM * A_STRIDE];
    __shared__ __align__(16) __half Bs[2][BK * B_STRIDE];

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warp_m = warp >> 1, warp_n = warp & 1;       // 2 x 2 warps, 32 x 32 each
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int ktiles = K / BK;

    // one stage = A tile 64 x 32 (256 16-byte chunks) + B tile 32 x 64 (256 chunks): 2 + 2 per thread
    auto load_stage = [&](int stage, int kt) {
        const int k0 = kt * BK;
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int c = tid + i * 128;
            const int r = c >> 2, col = (c & 3) * 8;        // A: 4 chunks per row
            cp_async_16(smem_u32(&As[stage][r * A_STRIDE + col]), A + (size_t)(m0 + r) * K + k0 + col);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int c = tid + i * 128;
            const int r = c >> 3, col = (c & 7) * 8;        // B: 8 chunks per row
            cp_async_16(smem_u32(&Bs[stage][r * B_STRIDE + col]), B + (size_t)(k0 + r) * N + n0 + col);
        }
    };

    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.0f;

    load_stage(0, 0);
    cp_async_commit();

    for (int kt = 0; kt < ktiles; ++kt) {
        const int stage = kt & 1;
        if (kt + 1 < ktiles) {
            load_stage(stage ^ 1, kt + 1);      // prefetch the next tile into the other buffer
            cp_async_commit();
            cp_async_wait<1>();                 // the current tile's group has landed
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            uint32_t a[2][4], b[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                // lanes 0-15 -> rows 0-15 at k kk, lanes 16-31 -> rows 0-15 at k kk+8
                const int r = warp_m * 32 + mi * 16 + (lane & 15);
                const int c = kk + (lane >> 4) * 8;
                ldmatrix_x4(a[mi][0], a[mi][1], a[mi][2], a[mi][3], smem_u32(&As[stage][r * A_STRIDE + c]));
            }
#pragma unroll
            for (int nj = 0; nj < 2; ++nj) {
                // B row-major [k][n]: lanes 0-15 -> k rows kk..kk+15 at n, lanes 16-31 -> same rows at n+8
                const int r = kk + (lane & 15);
                const int c = warp_n * 32 + nj * 16 + (lane >> 4) * 8;
                ldmatrix_x4_trans(b[2 * nj][0], b[2 * nj][1], b[2 * nj + 1][0], b[2 * nj + 1][1],
                                  smem_u32(&Bs[stage][r * B_STRIDE + c]));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    mma_16816(acc[mi][ni], a[mi], b[ni][0], b[ni][1]);
        }
        __syncthreads();                        // buffer `stage` is refilled by the next iteration's prefetch
    }

    // accumulator layout: c0,c1 -> row g, cols 2q,2q+1; c2,c3 -> row g+8   (g = lane/4, q = lane%4)
    const int g = lane >> 2, q = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int r = m0 + warp_m * 32 + mi * 16 + g;
            const int c = n0 + warp_n * 32 + ni * 8 + 2 * q;
            *reinterpret_cast<float2 *>(&C[(size_t)r * N + c]) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *reinterpret_cast<float2 *>(&C[(size_t)(r + 8) * N + c]) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}
