// gemm_tma_wgmma.cu -- Hopper GEMM with TMA and wgmma, warp-specialised: fp16 inputs, fp32
// accumulate and output, the same computation as gemm_wgmma.cu (cp.async) and examples/gemm_tc
// (mma.sync), for comparing the three on h100.
//
// Computes C = A * B:
//     C[m][n] = sum_{k<K} float(A[m][k]) * float(B[k][n])     (fp32 accumulation in the MMA)
//   A : [M x K] fp16 row-major,  B : [K x N] fp16 row-major,  C : [M x N] fp32 row-major.
// Requirements: M % 128 == 0, N % 128 == 0, K % 64 == 0.
//
// Structure: a 128 x 128 CTA tile, BK = 64, a 4-stage ring of shared-memory stages with a full
// and an empty mbarrier each. Warp 8 is the producer: its lane 0 waits for a stage to be empty,
// arms the stage's full barrier with mbarrier.arrive.expect_tx (32 KB), and issues three TMA
// tile loads (cp.async.bulk.tensor.2d ... mbarrier::complete_tx::bytes): A's 128 x 64 box and
// B's two 64 x 64 boxes, all through 128-byte-swizzled tensor maps, so shared memory holds the
// layouts wgmma's descriptors name (A K-major: row m at m * 128, 16-byte chunk c at
// (c ^ m % 8) * 16; B N-major: k-row at k * 128 in each 64-column half, the second half 8 KB on,
// the descriptor's LBO). Warps 0-3 and 4-7 are two consumer warpgroups, each owning 64 rows: per
// k-tile they wait on the full barrier's parity, wgmma.fence, four
// wgmma.mma_async.m64n128k16.f32.f16.f16 (B transposed), commit_group, then wait_group 1 so one
// group stays in flight, and release the stage before it (one arrive per consumer warp: the
// empty barrier counts 8).
//
// Kernel:  gemm_f16_tma_wgmma(const __grid_constant__ CUtensorMap ta,  // A: dims {K, M}, box {64, 128}
//                             const __grid_constant__ CUtensorMap tb,  // B: dims {N, K}, box {64, 64}
//                             float *C, int M, int N, int K)
//          both maps fp16, 128-byte swizzle (fiberTensorMapEncodeTiled / --arg tmap:)
// Launch:  grid  = (N/128) x (M/128) x 1
//          block = 288 x 1 x 1               (two consumer warpgroups + one producer warp)
//          dynamic shared memory = 132096 bytes (4 stages x 32 KB + 1 KB to align to 1024)
#include <cuda.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 64
#define STAGES 4
#define STAGE_A (BM * BK * 2)
#define STAGE_B (BK * BN * 2)

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint32_t b, uint32_t n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n));
}

__device__ __forceinline__ void mbar_wait(uint32_t b, uint32_t parity)
{
    asm volatile("{ .reg .pred p; WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
                 "@!p bra WAIT_%=; }" :: "r"(b), "r"(parity) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
}

__device__ __forceinline__ void expect_tx(uint32_t b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *m, int x, int y, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" :: "r"(dst), "l"(m), "r"(x), "r"(y), "r"(bar) : "memory");
}

// a shared-memory matrix descriptor: start, LBO, SBO (bytes), 128-byte swizzle
__device__ __forceinline__ uint64_t gdesc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 |
           (uint64_t)(sbo >> 4) << 32 | 1ull << 62;
}

__device__ __forceinline__ void wgmma_128(float (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
                 "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
                 "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, "
                 "%64, %65, 1, 1, 1, 0, 1;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db));
}

extern "C" __global__ void __launch_bounds__(288, 1)
gemm_f16_tma_wgmma(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb,
                   float *C, int M, int N, int K)
{
    extern __shared__ uint8_t dyn[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    uint8_t *base = (uint8_t *)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023);
    uint8_t *sa = base, *sb = base + STAGES * STAGE_A;      // STAGES x A, then STAGES x B
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, nk = K / BK;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&full[s]), 1);
            mbar_init(smem_u32(&empty[s]), 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp == 8) {                         // the producer
        if (lane == 0)
            for (int kt = 0; kt < nk; kt++) {
                int s = kt % STAGES;
                uint32_t fb = smem_u32(&full[s]);
                mbar_wait(smem_u32(&empty[s]), ((kt / STAGES) & 1) ^ 1);
                expect_tx(fb, STAGE_A + STAGE_B);
                tma_load_2d(smem_u32(sa + s * STAGE_A), &ta, kt * BK, m0, fb);
                tma_load_2d(smem_u32(sb + s * STAGE_B), &tb, n0, kt * BK, fb);
                tma_load_2d(smem_u32(sb + s * STAGE_B + STAGE_B / 2), &tb, n0 + 64, kt * BK, fb);
            }
        return;
    }
    int wg = warp / 4;                       // the consumer warpgroup: rows 64 wg ..
    float d[64];

#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.f;
    for (int kt = 0; kt < nk; kt++) {
        int s = kt % STAGES;
        mbar_wait(smem_u32(&full[s]), (kt / STAGES) & 1);
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int j = 0; j < BK / 16; j++) {
            uint64_t da = gdesc(smem_u32(sa + s * STAGE_A + wg * (STAGE_A / 2)) + 32 * j, 16, 1024);
            uint64_t db = gdesc(smem_u32(sb + s * STAGE_B) + 2048 * j, STAGE_B / 2, 1024);
            wgmma_128(d, da, db);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        if (kt > 0) {                        // k-tile kt - 1's group is done: free its stage
            __syncwarp();
            if (lane == 0)
                mbar_arrive(smem_u32(&empty[(kt - 1) % STAGES]));
        }
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    // the accumulator fragment: element i of lane (g, t) of warp w is row 16 (w % 4) + g +
    // 8 ((i >> 1) & 1), column 8 (i >> 2) + 2t + (i & 1)
    int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < 64; i += 2) {
        int row = m0 + 64 * wg + 16 * (warp % 4) + g + 8 * ((i >> 1) & 1);
        int col = n0 + 8 * (i >> 2) + 2 * t;
        *(float2 *)&C[(size_t)row * N + col] = make_float2(d[i], d[i + 1]);
    }
}
