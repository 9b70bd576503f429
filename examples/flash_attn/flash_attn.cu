// flash_attn.cu -- FlashAttention-2-style forward pass for one attention head.
//
// Q, K, V : [seq x 64] fp16 row-major (head dim D = 64).  O : [seq x 64] fp32 row-major.
// Computes, for every query row i in [0, seq) and column d in [0, 64):
//     s[i][j] = softmax_scale * sum_d float(Q[i][d]) * float(K[j][d])
//               (if causal != 0, s[i][j] = -inf for j > i)
//     P[i][j] = exp(s[i][j] - max_j s[i][j]) / sum_j exp(s[i][j] - max_j s[i][j])
//     O[i][d] = sum_j P[i][j] * float(V[j][d])
// Numerics as on real hardware: S accumulates in fp32 (MMA); the unnormalised probabilities
// are rounded to fp16 before the P*V MMA; the row sum uses the fp32 values; exponentials are
// exp2f of (s * log2 e - running max) (MUFU.EX2).
//
// Structure: one CTA per 64 query rows, 4 warps x 16 rows. Q tile stays in registers as
// ldmatrix fragments; K and V are streamed in 64-row blocks through shared memory with
// cp.async (K and V in separate commit groups, so S = Q K^T starts when K has landed).
// S = Q K^T: mma.sync m16n8k16 with K fragments from ldmatrix.x4 (non-trans, K row-major is
// the "col" B operand). O += P V: P re-packed from the S accumulators to fp16 A fragments,
// V fragments from ldmatrix.x4.trans. Online softmax keeps a running max m and sum l per row;
// the quad (4 lanes sharing a row) reduces with __shfl_xor_sync.
//
// Kernel:  flash_attn_fwd(const __half *Q, const __half *K, const __half *V, float *O,
//                         int seq, float softmax_scale, int causal)
//   seq           : multiple of 64 (example: 128)
//   softmax_scale : example 0.125 (= 1/sqrt(64))
//   causal        : 0 or 1 (example: 0)
// Launch:  grid  = (seq/64) x 1 x 1    (example: 2)
//          block = 128 x 1 x 1
//          dynamic shared memory = 0 bytes   (27648 bytes static: 3 tiles of 64 x 72 halves)
#include <cuda_fp16.h>
#include <stdint.h>
#include <math.h>

#define D 64
#define BR 64              // query rows per CTA
#define BC 64              // key/value rows per block
#define STRIDE (D + 8)     // smem row stride in halves (144 B)

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }
__device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t r[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&h);
}

// 64 rows x 64 halves = 512 16-byte chunks, 4 per thread
__device__ __forceinline__ void load_tile(__half *dst, const __half *src, int tid)
{
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int c = tid + i * 128;
        const int r = c >> 3, col = (c & 7) * 8;
        cp_async_16(smem_u32(dst + r * STRIDE + col), src + (size_t)r * D + col);
    }
}

extern "C" __global__ void __launch_bounds__(128)
flash_attn_fwd(const __half *__restrict__ Q, const __half *__restrict__ K, const __half *__restrict__ V,
               float *__restrict__ O, int seq, float softmax_scale, int causal)
{
    __shared__ __align__(16) __half Qs[BR * STRIDE];
    __shared__ __align__(16) __half Ks[BC * STRIDE];
    __shared__ __align__(16) __half Vs[BC * STRIDE];

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, q = lane & 3;
    const int q0 = blockIdx.x * BR;
    const float scale_log2 = softmax_scale * 1.4426950408889634f;   // fold log2(e) for exp2f

    load_tile(Qs, Q + (size_t)q0 * D, tid);
    cp_async_commit();

    uint32_t qf[4][4];          // Q fragments, 16 rows x 64 (4 k16 steps)
    float o[8][4];              // O accumulators, 16 rows x 64 (8 n8 tiles)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
            o[j][e] = 0.0f;
    float m_run[2] = {-INFINITY, -INFINITY};   // rows g and g+8 of this warp's 16
    float l_run[2] = {0.0f, 0.0f};             // per-lane partial sums (quad-reduced at the end)

    const int kv_end = causal ? min(seq, q0 + BR) : seq;
    for (int kv0 = 0; kv0 < kv_end; kv0 += BC) {
        load_tile(Ks, K + (size_t)kv0 * D, tid);
        cp_async_commit();
        load_tile(Vs, V + (size_t)kv0 * D, tid);
        cp_async_commit();
        cp_async_wait<1>();     // Q (first time) and K have landed; V may still be in flight
        __syncthreads();

        if (kv0 == 0) {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
                ldmatrix_x4(qf[kk], smem_u32(&Qs[(warp * 16 + (lane & 15)) * STRIDE + kk * 16 + (lane >> 4) * 8]));
        }

        // ---- S = Q K^T (16 x 64 per warp) ----
        float s[8][4];
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                s[j][e] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < 4; ++kk)
#pragma unroll
            for (int np = 0; np < 4; ++np) {
                // matrices: (kv 0-7, d 0-7), (kv 0-7, d 8-15), (kv 8-15, d 0-7), (kv 8-15, d 8-15)
                uint32_t kf[4];
                const int r = np * 16 + (lane & 7) + ((lane >> 4) << 3);
                const int c = kk * 16 + ((lane >> 3) & 1) * 8;
                ldmatrix_x4(kf, smem_u32(&Ks[r * STRIDE + c]));
                mma_16816(s[2 * np], qf[kk], kf[0], kf[1]);
                mma_16816(s[2 * np + 1], qf[kk], kf[2], kf[3]);
            }

        // ---- online softmax ----
        float mx[2] = {m_run[0], m_run[1]};
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float v = s[j][e] * scale_log2;
                if (causal) {
                    const int row = q0 + warp * 16 + g + (e >> 1) * 8;
                    const int col = kv0 + j * 8 + 2 * q + (e & 1);
                    if (col > row)
                        v = -INFINITY;
                }
                s[j][e] = v;
                mx[e >> 1] = fmaxf(mx[e >> 1], v);
            }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
        }
        float corr[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            corr[h] = exp2f(m_run[h] - mx[h]);   // exp2(-inf) = 0 on the first block
            m_run[h] = mx[h];
            l_run[h] *= corr[h];
        }
#pragma unroll
        for (int j = 0; j < 8; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float p = exp2f(s[j][e] - mx[e >> 1]);
                s[j][e] = p;
                l_run[e >> 1] += p;
                o[j][e] *= corr[e >> 1];
            }

        cp_async_wait<0>();     // V has landed
        __syncthreads();

        // ---- O += P V ----
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {           // kv 16*kk .. 16*kk+15
            uint32_t pf[4];
            pf[0] = pack_half2(s[2 * kk][0], s[2 * kk][1]);
            pf[1] = pack_half2(s[2 * kk][2], s[2 * kk][3]);
            pf[2] = pack_half2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
            pf[3] = pack_half2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
            for (int dp = 0; dp < 4; ++dp) {
                uint32_t vf[4];
                const int r = kk * 16 + (lane & 15);
                const int c = dp * 16 + (lane >> 4) * 8;
                ldmatrix_x4_trans(vf, smem_u32(&Vs[r * STRIDE + c]));
                mma_16816(o[2 * dp], pf, vf[0], vf[1]);
                mma_16816(o[2 * dp + 1], pf, vf[2], vf[3]);
            }
        }
        __syncthreads();        // Ks/Vs are overwritten by the next block's copies
    }

    // ---- finalise: full row sums over the quad, normalise, store fp32 ----
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        l_run[h] += __shfl_xor_sync(0xffffffffu, l_run[h], 1);
        l_run[h] += __shfl_xor_sync(0xffffffffu, l_run[h], 2);
    }
    const float inv0 = 1.0f / l_run[0], inv1 = 1.0f / l_run[1];
    const int row = q0 + warp * 16 + g;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int c = j * 8 + 2 * q;
        *reinterpret_cast<float2 *>(&O[(size_t)row * D + c]) = make_float2(o[j][0] * inv0, o[j][1] * inv0);
        *reinterpret_cast<float2 *>(&O[(size_t)(row + 8) * D + c]) = make_float2(o[j][2] * inv1, o[j][3] * inv1);
    }
}
