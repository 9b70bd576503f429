// attn_fwd.cu -- the paper table's SIMT attention forward: a FlashAttention-2-class kernel,
// multi-head, with grouped KV heads (MHA, GQA and MQA are the same kernel) and an optional
// causal mask. Head dim 128, fp16 in and out, fp32 accumulation.
//
// Q, O : [q_heads][seq][128] fp16 row-major.  K, V : [q_heads / group][seq][128] fp16.
//   s[i][j]  = scale * sum_d Q[h][i][d] * K[h/group][j][d]   (causal: -inf for j > i)
//   O[h][i][d] = sum_j softmax_j(s[i][j]) * V[h/group][j][d]
// Numerics as FlashAttention-2: S in fp32 (MMA); P rounded to fp16 for the P*V MMA; the row sum
// from the fp32 probabilities; exp2f of (s * scale * log2 e - running max); O rounded to fp16.
//
// Structure (what FlashAttention-2's forward does on sm_80 for head dim 128):
// - one CTA per 128 query rows of one head, 8 warps x 16 rows, 64-key blocks;
// - shared memory (dynamic, 96 KiB): the Q tile (32 KiB) and two stages of K and V blocks
//   (16 KiB each), 256-byte rows with the 16-byte chunks XOR-swizzled by (row & 7), so cp.async
//   writes and ldmatrix reads are free of bank conflicts;
// - Q moves once from shared memory into registers as ldmatrix fragments (32 registers);
// - the next K/V block is fetched with cp.async (16-byte cg copies, one commit group) while the
//   current one is used: a two-stage pipeline;
// - S = Q K^T with mma.sync m16n8k16 (K fragments from ldmatrix.x4), online softmax in registers
//   (quad shuffles for the row max and sum), O += P V with P re-packed from the S accumulators
//   and V fragments from ldmatrix.x4.trans;
// - causal: key blocks past the diagonal are skipped, only the diagonal blocks are masked, and
//   the heaviest query tiles are scheduled first (blockIdx.x reversed);
// - the epilogue divides by the row sum, rounds to fp16 and stores through shared memory
//   (16-byte coalesced stores).
// What it lacks against the paper's baselines: FlashAttention-3's wgmma/TMA warp-specialised
// pipeline on sm_90 (this is mma.sync there too), and FlashAttention-4 on Blackwell.
//
// Kernel:  attn_fwd(const __half *Q, const __half *K, const __half *V, __half *O,
//                   int seq, int group, float scale, int causal)
//   seq   : multiple of 128 (queries and keys alike)
//   group : query heads per KV head (1 MHA, 4 for 32/8 GQA, q_heads for MQA)
// Launch:  grid  = (seq/128) x q_heads x 1,  block = 256 x 1 x 1,
//          dynamic shared memory = 98304 bytes
#include <cuda_fp16.h>
#include <stdint.h>

#define HD 128              // head dimension
#define BR 128              // query rows per CTA
#define BC 64               // keys per block
#define NWARP 8
#define ROWB (HD * 2)       // bytes per smem row (256)

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void ldsm_x4(uint32_t r[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(uint32_t r[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void mma16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ uint32_t pack_h2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *(uint32_t *)&h;
}
// byte offset of (row, 16-byte chunk) in a swizzled tile of 256-byte rows
__device__ __forceinline__ uint32_t swz(int row, int chunk) { return row * ROWB + ((chunk ^ (row & 7)) << 4); }

// rows x 128 halves from global (row stride 128) into a swizzled tile, 16 bytes per copy
template <int ROWS>
__device__ __forceinline__ void load_tile(uint32_t dst, const __half *src, int tid)
{
#pragma unroll
    for (int k = 0; k < ROWS * 16 / (NWARP * 32); k++) {
        int c = tid + k * NWARP * 32, row = c >> 4, ch = c & 15;
        cp_async_16(dst + swz(row, ch), src + row * HD + ch * 8);
    }
}

extern "C" __global__ void __launch_bounds__(NWARP * 32, 1)
attn_fwd(const __half *__restrict__ Q, const __half *__restrict__ K, const __half *__restrict__ V,
         __half *__restrict__ O, int seq, int group, float scale, int causal)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int qt = causal ? (int)(gridDim.x - 1 - blockIdx.x) : (int)blockIdx.x;
    const int h = blockIdx.y, q0 = qt * BR;
    const __half *q = Q + ((size_t)h * seq + q0) * HD;
    const __half *k = K + (size_t)(h / group) * seq * HD;
    const __half *v = V + (size_t)(h / group) * seq * HD;
    const uint32_t sq = smem_u32(smem);
    // stage s: K at sq + BR*ROWB + s*2*BC*ROWB, V right after it
#define SK(s) (sq + BR * ROWB + (uint32_t)(s) * 2 * BC * ROWB)
#define SV(s) (SK(s) + BC * ROWB)
    const int nblk = causal ? (q0 + BR) / BC : seq / BC;

    load_tile<BR>(sq, q, tid);
    load_tile<BC>(SK(0), k, tid);
    load_tile<BC>(SV(0), v, tid);
    cp_async_commit();
    cp_async_wait_all();
    __syncthreads();

    // Q fragments of this warp's 16 rows: 8 k-steps of 16 head dims
    uint32_t qf[HD / 16][4];
#pragma unroll
    for (int kk = 0; kk < HD / 16; kk++)
        ldsm_x4(qf[kk], sq + swz(warp * 16 + (lane & 15), kk * 2 + (lane >> 4)));

    const float sl2 = scale * 1.4426950408889634f;
    float o[HD / 8][4];
#pragma unroll
    for (int n = 0; n < HD / 8; n++)
        o[n][0] = o[n][1] = o[n][2] = o[n][3] = 0.f;
    float m0 = -INFINITY, m1 = -INFINITY, l0 = 0.f, l1 = 0.f;
    const int row0 = q0 + warp * 16 + (lane >> 2), row1 = row0 + 8;

    for (int j = 0; j < nblk; j++) {
        const int st = j & 1;
        if (j + 1 < nblk) {
            load_tile<BC>(SK(st ^ 1), k + (size_t)(j + 1) * BC * HD, tid);
            load_tile<BC>(SV(st ^ 1), v + (size_t)(j + 1) * BC * HD, tid);
        }
        cp_async_commit();

        // S = Q K^T for 16 rows x 64 keys: 8 n-tiles of 8 keys
        float s[BC / 8][4];
#pragma unroll
        for (int n = 0; n < BC / 8; n++)
            s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
#pragma unroll
        for (int kk = 0; kk < HD / 16; kk++) {
#pragma unroll
            for (int n2 = 0; n2 < BC / 16; n2++) {
                uint32_t b[4];
                int key = n2 * 16 + ((lane >> 4) << 3) + (lane & 7);
                ldsm_x4(b, SK(st) + swz(key, kk * 2 + ((lane >> 3) & 1)));
                mma16816(s[2 * n2], qf[kk], b[0], b[1]);
                mma16816(s[2 * n2 + 1], qf[kk], b[2], b[3]);
            }
        }

        // mask (causal, diagonal blocks only), scale to log2 units, online softmax
        const bool diag = causal && (j + 1) * BC > q0 + warp * 16;
        float mx0 = m0, mx1 = m1;
#pragma unroll
        for (int n = 0; n < BC / 8; n++) {
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int key = j * BC + n * 8 + 2 * (lane & 3) + (e & 1);
                float x = s[n][e] * sl2;
                if (diag && key > (e < 2 ? row0 : row1))
                    x = -INFINITY;
                s[n][e] = x;
            }
            mx0 = fmaxf(mx0, fmaxf(s[n][0], s[n][1]));
            mx1 = fmaxf(mx1, fmaxf(s[n][2], s[n][3]));
        }
        mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffff, mx0, 1));
        mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffff, mx0, 2));
        mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffff, mx1, 1));
        mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffff, mx1, 2));
        const float c0 = exp2f(m0 - mx0), c1 = exp2f(m1 - mx1);
        m0 = mx0;
        m1 = mx1;
        float rs0 = 0.f, rs1 = 0.f;
        uint32_t p[BC / 16][4];
#pragma unroll
        for (int n = 0; n < BC / 8; n++) {
            float e0 = exp2f(s[n][0] - mx0), e1 = exp2f(s[n][1] - mx0);
            float e2 = exp2f(s[n][2] - mx1), e3 = exp2f(s[n][3] - mx1);
            rs0 += e0 + e1;
            rs1 += e2 + e3;
            p[n >> 1][(n & 1) * 2] = pack_h2(e0, e1);
            p[n >> 1][(n & 1) * 2 + 1] = pack_h2(e2, e3);
        }
        l0 = l0 * c0 + rs0;
        l1 = l1 * c1 + rs1;
#pragma unroll
        for (int n = 0; n < HD / 8; n++) {
            o[n][0] *= c0;
            o[n][1] *= c0;
            o[n][2] *= c1;
            o[n][3] *= c1;
        }

        // O += P V: 4 k-steps of 16 keys, 16 n-tiles of 8 head dims
#pragma unroll
        for (int kk = 0; kk < BC / 16; kk++) {
#pragma unroll
            for (int n2 = 0; n2 < HD / 16; n2++) {
                uint32_t b[4];
                int key = kk * 16 + (((lane >> 3) & 1) << 3) + (lane & 7);
                ldsm_x4_t(b, SV(st) + swz(key, n2 * 2 + (lane >> 4)));
                mma16816(o[2 * n2], p[kk], b[0], b[1]);
                mma16816(o[2 * n2 + 1], p[kk], b[2], b[3]);
            }
        }
        cp_async_wait_all();
        __syncthreads();
    }

    // epilogue: the row sums over the quad, O / l to fp16 through the Q tile, 16-byte stores
    l0 += __shfl_xor_sync(0xffffffff, l0, 1);
    l0 += __shfl_xor_sync(0xffffffff, l0, 2);
    l1 += __shfl_xor_sync(0xffffffff, l1, 1);
    l1 += __shfl_xor_sync(0xffffffff, l1, 2);
    const float i0 = 1.f / l0, i1 = 1.f / l1;
    const int r0 = warp * 16 + (lane >> 2);
#pragma unroll
    for (int n = 0; n < HD / 8; n++) {
        int col = n * 8 + 2 * (lane & 3);
        uint32_t off = ((col * 2) & 15);
        asm volatile("st.shared.b32 [%0], %1;\n" :: "r"(sq + swz(r0, col >> 3) + off), "r"(pack_h2(o[n][0] * i0, o[n][1] * i0)));
        asm volatile("st.shared.b32 [%0], %1;\n" :: "r"(sq + swz(r0 + 8, col >> 3) + off), "r"(pack_h2(o[n][2] * i1, o[n][3] * i1)));
    }
    __syncthreads();
    __half *out = O + ((size_t)h * seq + q0) * HD;
#pragma unroll
    for (int c = tid; c < BR * 16; c += NWARP * 32) {
        int row = c >> 4, ch = c & 15;
        uint4 val;
        asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(val.x), "=r"(val.y), "=r"(val.z), "=r"(val.w) : "r"(sq + swz(row, ch)));
        *(uint4 *)(out + row * HD + ch * 8) = val;
    }
}
