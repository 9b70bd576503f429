// gemm_wgmma.cu -- Hopper GEMM with wgmma, fp16 inputs, fp32 accumulate and output: the same
// computation and interface as examples/gemm_tc (mma.sync), for comparing the two on h100.
//
// Computes C = A * B:
//     C[m][n] = sum_{k<K} float(A[m][k]) * float(B[k][n])     (fp32 accumulation in the MMA)
//   A : [M x K] fp16 row-major,  B : [K x N] fp16 row-major,  C : [M x N] fp32 row-major.
// Requirements: M % 64 == 0, N % 64 == 0, K % 64 == 0, A/B 16-byte aligned.
//
// Structure: one warpgroup (128 threads) per 64x64 CTA tile, BK = 64. Global->shared copies
// use cp.async.cg 16 bytes (LDGSTS) into two shared-memory stages (double buffering), written in
// the 128-byte swizzled layouts that wgmma reads through matrix descriptors: A K-major (row m,
// 16-byte chunk c at m * 128 + (c ^ m % 8) * 16), B N-major (row k, chunk c of n at
// k * 128 + (c ^ k % 8) * 16). Per k-tile: fence.proxy.async (cp.async writes through the
// generic proxy, wgmma reads through the async one), wgmma.fence, four
// wgmma.mma_async.m64n64k16.f32.f16.f16 (HGMMA.64x64x16.F32, B transposed: .tnspB) stepping the
// descriptors' start addresses by 32 bytes (A) and 2048 bytes (B), commit_group, wait_group 0.
// TMA (cp.async.bulk.tensor) would replace the copies once the simulator has it.
//
// Kernel:  gemm_f16_wgmma(const __half *A, const __half *B, float *C, int M, int N, int K)
//   example: M = 256, N = 256, K = 256
// Launch:  grid  = (N/64) x (M/64) x 1      (example: 4 x 4 x 1)
//          block = 128 x 1 x 1               (one warpgroup)
//          dynamic shared memory = 0 bytes   (32768 bytes static: 2 stages x (8 + 8) KB)
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 64

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src) : "memory");
}

// a shared-memory matrix descriptor: start, LBO, SBO (bytes), 128-byte swizzle
__device__ __forceinline__ uint64_t gdesc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 |
           (uint64_t)(sbo >> 4) << 32 | 1ull << 62;
}

// stage s of the k-tile at k0: A rows m0.., B rows k0..
__device__ __forceinline__ void load_tile(uint8_t *sa, uint8_t *sb, const __half *A,
                                          const __half *B, int m0, int n0, int k0, int N, int K)
{
    int t = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 4; i++) {            // A: 64 rows x 8 chunks
        int id = t + 128 * i, m = id / 8, c = id % 8;
        cp_async_16(smem_u32(sa + m * 128 + ((c ^ (m % 8)) * 16)), A + (size_t)(m0 + m) * K + k0 + 8 * c);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {            // B: 64 k-rows x 8 chunks of n
        int id = t + 128 * i, k = id / 8, c = id % 8;
        cp_async_16(smem_u32(sb + k * 128 + ((c ^ (k % 8)) * 16)), B + (size_t)(k0 + k) * N + n0 + 8 * c);
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

extern "C" __global__ void __launch_bounds__(128)
gemm_f16_wgmma(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(1024) uint8_t sa[2][BM * BK * 2], sb[2][BK * BN * 2];
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, nk = K / BK;
    float d[32];

#pragma unroll
    for (int i = 0; i < 32; i++)
        d[i] = 0.f;
    load_tile(sa[0], sb[0], A, B, m0, n0, 0, N, K);
    for (int kt = 0; kt < nk; kt++) {
        int s = kt & 1;
        if (kt + 1 < nk) {
            load_tile(sa[s ^ 1], sb[s ^ 1], A, B, m0, n0, (kt + 1) * BK, N, K);
            asm volatile("cp.async.wait_group 1;\n" ::: "memory");
        } else {
            asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        }
        __syncthreads();
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int j = 0; j < BK / 16; j++) {
            uint64_t da = gdesc(smem_u32(sa[s]) + 32 * j, 16, 1024);
            uint64_t db = gdesc(smem_u32(sb[s]) + 2048 * j, 8192, 1024);
            asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                         "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 1;\n"
                         : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                         : "l"(da), "l"(db));
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        __syncthreads();                     // the stage is read: the next copy may overwrite it
    }
    // the accumulator fragment: element i of lane (g, t) of warp w is row 16w + g + 8 ((i >> 1) & 1),
    // column 8 (i >> 2) + 2t + (i & 1)
    int w = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
#pragma unroll
    for (int i = 0; i < 32; i += 2) {
        int row = m0 + 16 * w + g + 8 * ((i >> 1) & 1), col = n0 + 8 * (i >> 2) + 2 * t;
        *(float2 *)&C[(size_t)row * N + col] = make_float2(d[i], d[i + 1]);
    }
}
