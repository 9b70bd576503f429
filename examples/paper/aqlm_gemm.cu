// aqlm_gemm.cu -- the paper table's SIMT AQLM-style GEMM: fp16 activations times weights coded
// additively with 2 codebooks of 256 entries x 8 weights (AQLM's "2x8" format): each group of 8
// consecutive weights along K of one column is C0[c0] + C1[c1], times the column's fp16 scale.
//
//   C[m][n] = sum_k A[m][k] * fp16(fp16(C0[c0][k%8] + C1[c1][k%8]) * s[n]),  (c0, c1) = codes[k/8][n]
// codebooks : [2][256][8] fp16.  s : [N] fp16.  codes : per 64 x 128 block (kt, nt) 512 32-bit
// words at (kt * N/128 + nt) * 512, in the order [k-step 4][warp column 4][n-tile 4][column 8],
// each word (c0 of group 2ks, c1 of it, c0 of group 2ks+1, c1 of it) for one column: the 4 lanes
// of a column read the same word (a broadcast).
//
// Structure: w4a16_gemm.cu's (64 x 128 tile on 8 warps, 4-stage cp.async over 64-wide K tiles,
// swizzled A, ldmatrix, mma.sync m16n8k16) with both codebooks (8 KiB) in shared memory, loaded
// once; per k-step and n-tile a lane reads one code word and four codebook half2s (LDS.32 at
// data-dependent addresses: bank conflicts as in AQLM's own kernels), two HADD2 and two HMUL2.
// What it lacks against the paper's baseline (AQLM's kernels): their codebook-in-registers
// variants for 1x16 codes and their decode GEMV kernels; on sm_90, wgmma.
//
// Kernel:  aqlm_gemm(const __half *A, const uint32_t *codes, const __half *codebooks,
//                    const __half *s, __half *C, int M, int N, int K)
// Launch:  grid = (N/128) x ceil(M/64) x 1,  block = 256,  dynamic shared memory = 49152 bytes
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 64
#define BN 128
#define BK 64
#define STAGES 4
#define A_BYTES (BM * BK * 2)       // 8192
#define B_BYTES (BK / 8 * BN * 2)   // 2048: two code bytes per group of 8 and column
#define STAGE_BYTES (A_BYTES + B_BYTES)
#define CB_BYTES (2 * 256 * 8 * 2)  // 8192, after the stages

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
__device__ __forceinline__ __half2 as_h2(uint32_t x) { return *(__half2 *)&x; }
__device__ __forceinline__ uint32_t as_u32(__half2 h) { return *(uint32_t *)&h; }

extern "C" __global__ void __launch_bounds__(256)
aqlm_gemm(const __half *__restrict__ A, const uint32_t *__restrict__ codes,
          const __half *__restrict__ codebooks, const __half *__restrict__ s,
          __half *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = warp >> 2, wn = warp & 3;
    const int nt = blockIdx.x, m0 = blockIdx.y * BM;
    const int KT = K / BK;
    const uint32_t base = smem_u32(smem), cb = base + STAGES * STAGE_BYTES;
    const uint32_t *cblk = codes + (size_t)nt * 512;
    const size_t cstride = (size_t)(N / BN) * 512;

    auto load = [&](int kt, int st) {
        uint32_t sa = base + st * STAGE_BYTES, sb = sa + A_BYTES;
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int c = tid + i * 256, row = c >> 3, ch = c & 7;
            int ok = m0 + row < M;
            const __half *src = A + (size_t)(ok ? m0 + row : 0) * K + kt * BK + ch * 8;
            cp_async_16(sa + row * 128 + ((ch ^ (row & 7)) << 4), src, ok ? 16 : 0);
        }
        if (tid < 128)
            cp_async_16(sb + tid * 16, cblk + (size_t)kt * cstride + tid * 4, 16);
    };

    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.f;
    __half2 scl[4];
#pragma unroll
    for (int j = 0; j < 4; j++)
        scl[j] = __half2half2(s[nt * BN + wn * 32 + j * 8 + (lane >> 2)]);

    // the codebooks with the first stage's group
#pragma unroll
    for (int i = 0; i < 2; i++)
        cp_async_16(cb + (tid + i * 256) * 16, codebooks + (tid + i * 256) * 8, 16);
#pragma unroll
    for (int st = 0; st < STAGES - 1; st++) {
        if (st < KT)
            load(st, st);
        cp_async_commit();
    }
    const uint32_t cbt = cb + (lane & 3) * 4;      // this lane's k pair inside an entry
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (kt + STAGES - 1 < KT)
            load(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
        cp_async_commit();

        const int st = kt % STAGES;
        const uint32_t sa = base + st * STAGE_BYTES, sb = sa + A_BYTES;
#pragma unroll
        for (int ks = 0; ks < BK / 16; ks++) {
            uint32_t a[2][4];
#pragma unroll
            for (int mi = 0; mi < 2; mi++) {
                int row = wm * 32 + mi * 16 + (lane & 15), ch = ks * 2 + (lane >> 4);
                ldsm_x4(a[mi], sa + row * 128 + ((ch ^ (row & 7)) << 4));
            }
#pragma unroll
            for (int j = 0; j < 4; j++) {
                uint32_t w, e[4];
                asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(w) : "r"(sb + ((((ks * 4 + wn) * 4 + j) * 8 + (lane >> 2)) << 2)));
#pragma unroll
                for (int c = 0; c < 4; c++)
                    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(e[c])
                                 : "r"(cbt + ((c & 1) << 12) + (((w >> (8 * c)) & 255) << 4)));
                uint32_t b0 = as_u32(__hmul2(__hadd2(as_h2(e[0]), as_h2(e[1])), scl[j]));
                uint32_t b1 = as_u32(__hmul2(__hadd2(as_h2(e[2]), as_h2(e[3])), scl[j]));
#pragma unroll
                for (int mi = 0; mi < 2; mi++)
                    mma16816(acc[mi][j], a[mi], b0, b1);
            }
        }
    }
    cp_async_wait<0>();

#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int hr = 0; hr < 2; hr++) {
            int row = m0 + wm * 32 + mi * 16 + (lane >> 2) + hr * 8;
            if (row >= M)
                continue;
#pragma unroll
            for (int j = 0; j < 4; j++) {
                int n = nt * BN + wn * 32 + j * 8 + 2 * (lane & 3);
                *(__half2 *)(C + (size_t)row * N + n) = __floats2half2_rn(acc[mi][j][2 * hr], acc[mi][j][2 * hr + 1]);
            }
        }
}
