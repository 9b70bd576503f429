// awq_gemm.cu -- the paper table's SIMT AWQ-style GEMM: w4a16_gemm.cu (Marlin-class, read its
// header for the weight layout, the tiling and the pipeline) with AWQ's asymmetric quantisation:
// a 4-bit zero point per group of 128 along K and per column, so the dequantisation is
// w = fp16(q * s - fp16(z * s)) (one HFMA2 per two values after the LOP3 exponent trick, as
// AWQ's kernels do with their scaled zeros), the scaled zero formed per K tile and column.
//
//   C[m][n] = sum_k A[m][k] * fp16(q[k][n] * s[k/128][n] + fp16(-z[k/128][n] * s[k/128][n]))
// z : [K/128][N/8] 32-bit words, column 8w+i in nibble i (AWQ's packing of zeros).
// What it lacks against the paper's baseline (AWQ's own GEMM is weaker than this on sm_80; the
// paper's AWQ figure is against its own SIMT kernel): as w4a16_gemm.cu.
//
// Kernel:  awq_gemm(const __half *A, const uint32_t *q, const __half *s, const uint32_t *z,
//                   __half *C, int M, int N, int K)
// Launch:  grid = (N/128) x ceil(M/64) x 1,  block = 256,  dynamic shared memory = 50432 bytes
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 64
#define BN 128
#define BK 64
#define STAGES 4
#define A_BYTES (BM * BK * 2)       // 8192
#define B_BYTES (BK * BN / 2)       // 4096
#define S_BYTES (BN * 2)            // 256
#define Z_BYTES (BN / 2)            // 64
#define STAGE_BYTES (A_BYTES + B_BYTES + S_BYTES + Z_BYTES)

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
template <int LUT>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("lop3.b32 %0, %1, %2, %3, %4;\n" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(LUT));
    return r;
}
__device__ __forceinline__ __half2 as_h2(uint32_t x) { return *(__half2 *)&x; }
__device__ __forceinline__ uint32_t as_u32(__half2 h) { return *(uint32_t *)&h; }

// nibbles 0,4 and 1,5 of q as q in fp16 pairs, then q * s + nzs (nzs = -z * s): b0 and b1 of
// one n-tile
__device__ __forceinline__ void dequant(uint32_t q, __half2 sc, __half2 nzs, uint32_t &b0, uint32_t &b1)
{
    const uint32_t LO = 0x000f000f, HI = 0x00f000f0, EX = 0x64006400;
    uint32_t lo = lop3<(0xf0 & 0xcc) | 0xaa>(q, LO, EX);
    uint32_t hi = lop3<(0xf0 & 0xcc) | 0xaa>(q, HI, EX);
    __half2 v0 = __hsub2(as_h2(lo), as_h2(0x64006400u));
    __half2 v1 = __hfma2(as_h2(hi), as_h2(0x2c002c00u), as_h2(0xd400d400u));
    b0 = as_u32(__hfma2(v0, sc, nzs));
    b1 = as_u32(__hfma2(v1, sc, nzs));
}

extern "C" __global__ void __launch_bounds__(256)
awq_gemm(const __half *__restrict__ A, const uint32_t *__restrict__ q, const __half *__restrict__ s,
         const uint32_t *__restrict__ z, __half *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = warp >> 2, wn = warp & 3;
    const int nt = blockIdx.x, m0 = blockIdx.y * BM;
    const int KT = K / BK;
    const uint32_t base = smem_u32(smem);
    const uint32_t *qblk = q + (size_t)nt * 1024;
    const size_t qstride = (size_t)(N / BN) * 1024;   // words per K tile row of blocks

    auto load = [&](int kt, int st) {
        uint32_t sa = base + st * STAGE_BYTES, sb = sa + A_BYTES, ss = sb + B_BYTES, sz = ss + S_BYTES;
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int c = tid + i * 256, row = c >> 3, ch = c & 7;
            int ok = m0 + row < M;
            const __half *src = A + (size_t)(ok ? m0 + row : 0) * K + kt * BK + ch * 8;
            cp_async_16(sa + row * 128 + ((ch ^ (row & 7)) << 4), src, ok ? 16 : 0);
        }
        cp_async_16(sb + tid * 16, qblk + (size_t)kt * qstride + tid * 4, 16);
        if (tid < 16)
            cp_async_16(ss + tid * 16, s + (size_t)(kt * BK / 128) * N + nt * BN + tid * 8, 16);
        else if (tid < 20)
            cp_async_16(sz + (tid - 16) * 16, z + (size_t)(kt * BK / 128) * (N / 8) + nt * (BN / 8) + (tid - 16) * 4, 16);
    };

    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
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

        const int st = kt % STAGES;
        const uint32_t sa = base + st * STAGE_BYTES, sb = sa + A_BYTES;
        const __half *sc = (const __half *)(smem + st * STAGE_BYTES + A_BYTES + B_BYTES);
        const uint32_t *zw = (const uint32_t *)(smem + st * STAGE_BYTES + A_BYTES + B_BYTES + S_BYTES);
        __half2 scl[2][2], nzs[2][2];
#pragma unroll
        for (int p = 0; p < 2; p++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int col = wn * 32 + p * 16 + h * 8 + (lane >> 2);
                __half sv = sc[col];
                int zv = (zw[col >> 3] >> ((col & 7) * 4)) & 15;
                scl[p][h] = __half2half2(sv);
                nzs[p][h] = __half2half2(__float2half_rn(-(float)zv * __half2float(sv)));
            }
#pragma unroll
        for (int ks = 0; ks < BK / 16; ks++) {
            uint32_t a[2][4];
#pragma unroll
            for (int mi = 0; mi < 2; mi++) {
                int row = wm * 32 + mi * 16 + (lane & 15), ch = ks * 2 + (lane >> 4);
                ldsm_x4(a[mi], sa + row * 128 + ((ch ^ (row & 7)) << 4));
            }
#pragma unroll
            for (int p = 0; p < 2; p++) {
                uint32_t w;
                asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(w) : "r"(sb + ((((ks * 4 + wn) * 2 + p) * 32 + lane) << 2)));
                uint32_t b[4];
                dequant(w, scl[p][0], nzs[p][0], b[0], b[1]);
                dequant(w >> 8, scl[p][1], nzs[p][1], b[2], b[3]);
#pragma unroll
                for (int mi = 0; mi < 2; mi++) {
                    mma16816(acc[mi][2 * p], a[mi], b[0], b[1]);
                    mma16816(acc[mi][2 * p + 1], a[mi], b[2], b[3]);
                }
            }
        }
    }
    cp_async_wait<0>();

    // epilogue: fp16 stores (two columns per thread per row), rows past M dropped
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int hr = 0; hr < 2; hr++) {
            int row = m0 + wm * 32 + mi * 16 + (lane >> 2) + hr * 8;
            if (row >= M)
                continue;
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    int n = nt * BN + wn * 32 + p * 16 + h * 8 + 2 * (lane & 3);
                    *(__half2 *)(C + (size_t)row * N + n) =
                        __floats2half2_rn(acc[mi][2 * p + h][2 * hr], acc[mi][2 * p + h][2 * hr + 1]);
                }
        }
}
