// gemm_f16.cu -- the paper table's SIMT projection GEMM: C = A W^T in fp16 with fp32
// accumulation, W in the nn.Linear layout ([N][K], K contiguous), as a QKV or output projection.
//
//   C[m][n] = sum_k A[m][k] * W[n][k]        A : [M][K], W : [N][K], C : [M][N], all fp16
//
// Structure (CUTLASS's sm_80 128 x 128 x 64 three-stage tensor-op GEMM):
// - 256 threads: 8 warps as 2 (M) x 4 (N), each 64 rows x 32 columns, fp32 accumulators (64);
// - a 3-stage cp.async pipeline over 64-wide K tiles: A and W tiles of 128 rows x 128 bytes,
//   16-byte chunks XOR-swizzled by (row & 7): conflict-free cp.async and ldmatrix;
// - per 16-wide k-step: 4 ldmatrix.x4 for A, 2 for W (each two n-tiles), 16 mma.sync m16n8k16;
// - rows past M are zero-filled (cp.async src-size 0) and not stored.
// What it lacks against the paper's baselines: on sm_90 CUTLASS 3 / cuBLAS use wgmma with TMA
// and warp specialisation (this is mma.sync there too); no split-K or stream-K for decode-sized M
// (at M = 16 seven eighths of the 128-row tile is padding).
//
// Kernel:  gemm_f16(const __half *A, const __half *W, __half *C, int M, int N, int K)
//   N : multiple of 128;  K : multiple of 64
// Launch:  grid = (N/128) x ceil(M/128) x 1,  block = 256,  dynamic shared memory = 98304 bytes
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 64
#define STAGES 3
#define TILE_BYTES (BM * BK * 2)      // 16384, A and W alike
#define STAGE_BYTES (2 * TILE_BYTES)

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }
__device__ __forceinline__ void ldsm_x4(uint32_t r[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void mma16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ uint32_t swz(int row, int ch) { return row * 128 + ((ch ^ (row & 7)) << 4); }

extern "C" __global__ void __launch_bounds__(256)
gemm_f16(const __half *__restrict__ A, const __half *__restrict__ W, __half *__restrict__ C,
         int M, int N, int K)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = warp >> 2, wn = warp & 3;
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int KT = K / BK;
    const uint32_t base = smem_u32(smem);

    auto load = [&](int kt, int st) {
        uint32_t sa = base + st * STAGE_BYTES, sw = sa + TILE_BYTES;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            int c = tid + i * 256, row = c >> 3, ch = c & 7;
            int ok = m0 + row < M;
            cp_async_16(sa + swz(row, ch), A + (size_t)(ok ? m0 + row : 0) * K + kt * BK + ch * 8, ok ? 16 : 0);
            cp_async_16(sw + swz(row, ch), W + (size_t)(n0 + row) * K + kt * BK + ch * 8, 16);
        }
    };

    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.f;

#pragma unroll
    for (int st = 0; st < STAGES - 1; st++) {
        if (st < KT)
            load(st, st);
        cp_async_commit();
    }
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (kt + STAGES - 1 < KT)
            load(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
        cp_async_commit();
        const uint32_t sa = base + (kt % STAGES) * STAGE_BYTES, sw = sa + TILE_BYTES;
#pragma unroll
        for (int ks = 0; ks < BK / 16; ks++) {
            uint32_t a[4][4], b[2][4];
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
                ldsm_x4(a[mi], sa + swz(wm * 64 + mi * 16 + (lane & 15), ks * 2 + (lane >> 4)));
#pragma unroll
            for (int n2 = 0; n2 < 2; n2++)
                ldsm_x4(b[n2], sw + swz(wn * 32 + n2 * 16 + ((lane >> 4) << 3) + (lane & 7),
                                        ks * 2 + ((lane >> 3) & 1)));
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int n2 = 0; n2 < 2; n2++) {
                    mma16816(acc[mi][2 * n2], a[mi], b[n2][0], b[n2][1]);
                    mma16816(acc[mi][2 * n2 + 1], a[mi], b[n2][2], b[n2][3]);
                }
        }
    }
    cp_async_wait<0>();

#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int hr = 0; hr < 2; hr++) {
            int row = m0 + wm * 64 + mi * 16 + (lane >> 2) + hr * 8;
            if (row >= M)
                continue;
#pragma unroll
            for (int nj = 0; nj < 4; nj++) {
                int n = n0 + wn * 32 + nj * 8 + 2 * (lane & 3);
                *(__half2 *)(C + (size_t)row * N + n) = __floats2half2_rn(acc[mi][nj][2 * hr], acc[mi][nj][2 * hr + 1]);
            }
        }
}
