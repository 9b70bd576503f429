// flash_decode.cu -- the paper table's SIMT FlashDecoding: one new query token per sequence
// against its KV cache, the keys split into chunks processed by separate CTAs (split-K), then a
// combine kernel. Head dim 128, fp16 cache and output, fp32 partials. CUDA cores only: one query
// row has nothing for a tensor core to do (the paper: "memory-bound GEMV and softmax").
//
//   flash_decode_split: for batch b, head h, split c (keys c*chunk .. c*chunk+chunk-1):
//     s_j = scale * q[b][h] . K[b][h][j];  m_c = max_j s_j * log2 e;  l_c = sum_j 2^(s_j log2 e - m_c)
//     part_o[b][h][c][:] = sum_j 2^(s_j log2 e - m_c) V[b][h][j][:] / l_c;  part_ml[b][h][c] = (m_c, l_c)
//   flash_decode_combine: out[b][h][:] = sum_c w_c part_o[b][h][c][:] / sum_c w_c,
//     w_c = l_c 2^(m_c - max_c m_c), rounded to fp16
// Layout: q, out [B][H][128]; K, V [B][H][seq][128]; part_o [B][H][splits][128]; part_ml
// [B][H][splits][2].
//
// Structure (FlashDecoding / FlashInfer's decode on CUDA cores): 4 warps per CTA; each half-warp
// takes one key at a time with 16-byte loads (16 lanes x 8 dims = one 256-byte row, coalesced),
// four keys in flight per lane (K and V loads issued together, read-only path); the dot product
// reduces over the 16 lanes with 4 shuffles; online softmax per half-warp in exp2 units; the
// halves, then the warps, combine their (m, l, o) through shuffles and shared memory; one fp32
// partial per split. The combine kernel: one thread per dimension.
// What it lacks against the paper's baseline: FlashDecoding++'s asynchronous softmax (no
// synchronised max), and paged KV caches (this cache is contiguous).
//
// Kernels: flash_decode_split(const __half *q, const __half *K, const __half *V, float *part_o,
//                             float *part_ml, int seq, int chunk, float scale)
//            grid = (seq/chunk) x H x B, block = 128; chunk a multiple of 32
//          flash_decode_combine(const float *part_o, const float *part_ml, __half *out, int splits)
//            grid = H x B, block = 128
#include <cuda_fp16.h>
#include <stdint.h>

#define HD 128
#define NW 4

__device__ __forceinline__ uint4 ldg_nc(const void *p)
{
    uint4 r;
    asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
    return r;
}
__device__ __forceinline__ void unpack8(uint4 v, float f[8])
{
    const __half2 *h = (const __half2 *)&v;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        float2 x = __half22float2(h[i]);
        f[2 * i] = x.x;
        f[2 * i + 1] = x.y;
    }
}

extern "C" __global__ void __launch_bounds__(NW * 32)
flash_decode_split(const __half *__restrict__ q, const __half *__restrict__ K,
                   const __half *__restrict__ V, float *__restrict__ part_o,
                   float *__restrict__ part_ml, int seq, int chunk, float scale)
{
    __shared__ float sm_ml[NW][2];
    __shared__ float sm_o[NW][HD];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, half = lane >> 4;
    const int d0 = (lane & 15) * 8;
    const size_t bh = (size_t)blockIdx.z * gridDim.y + blockIdx.y;
    const __half *kp = K + bh * seq * HD + d0, *vp = V + bh * seq * HD + d0;
    const float sl2 = scale * 1.4426950408889634f;
    float qf[8];
    unpack8(*(const uint4 *)(q + bh * HD + d0), qf);
#pragma unroll
    for (int i = 0; i < 8; i++)
        qf[i] *= sl2;

    float m = -INFINITY, l = 0.f, o[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        o[i] = 0.f;
    const int k0 = blockIdx.x * chunk, k1 = k0 + chunk;
    for (int base = k0; base < k1; base += NW * 8) {
        uint4 kv[4], vv[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            int key = base + warp * 8 + 2 * u + half;
            kv[u] = ldg_nc(kp + (size_t)key * HD);
        }
#pragma unroll
        for (int u = 0; u < 4; u++) {
            int key = base + warp * 8 + 2 * u + half;
            vv[u] = ldg_nc(vp + (size_t)key * HD);
        }
        float s[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            float kf[8], acc = 0.f;
            unpack8(kv[u], kf);
#pragma unroll
            for (int i = 0; i < 8; i++)
                acc = fmaf(qf[i], kf[i], acc);
            acc += __shfl_xor_sync(0xffffffff, acc, 8);
            acc += __shfl_xor_sync(0xffffffff, acc, 4);
            acc += __shfl_xor_sync(0xffffffff, acc, 2);
            acc += __shfl_xor_sync(0xffffffff, acc, 1);
            s[u] = acc;
        }
        float mx = fmaxf(fmaxf(m, fmaxf(s[0], s[1])), fmaxf(s[2], s[3]));
        float c = exp2f(m - mx);
        m = mx;
        l *= c;
#pragma unroll
        for (int i = 0; i < 8; i++)
            o[i] *= c;
#pragma unroll
        for (int u = 0; u < 4; u++) {
            float p = exp2f(s[u] - mx), vf[8];
            unpack8(vv[u], vf);
            l += p;
#pragma unroll
            for (int i = 0; i < 8; i++)
                o[i] = fmaf(p, vf[i], o[i]);
        }
    }
    // the two half-warps: same dimensions, different keys
    {
        float m2 = __shfl_xor_sync(0xffffffff, m, 16), l2 = __shfl_xor_sync(0xffffffff, l, 16);
        float mx = fmaxf(m, m2), c1 = exp2f(m - mx), c2 = exp2f(m2 - mx);
        l = l * c1 + l2 * c2;
#pragma unroll
        for (int i = 0; i < 8; i++)
            o[i] = o[i] * c1 + __shfl_xor_sync(0xffffffff, o[i], 16) * c2;
        m = mx;
    }
    if (lane < 16) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            sm_o[warp][d0 + i] = o[i];
    }
    if (lane == 0) {
        sm_ml[warp][0] = m;
        sm_ml[warp][1] = l;
    }
    __syncthreads();
    float M = sm_ml[0][0];
#pragma unroll
    for (int w = 1; w < NW; w++)
        M = fmaxf(M, sm_ml[w][0]);
    float L = 0.f, O = 0.f;
#pragma unroll
    for (int w = 0; w < NW; w++) {
        float c = exp2f(sm_ml[w][0] - M);
        L += sm_ml[w][1] * c;
        O += sm_o[w][tid] * c;
    }
    const size_t part = bh * gridDim.x + blockIdx.x;
    part_o[part * HD + tid] = O / L;
    if (tid == 0) {
        part_ml[part * 2] = M;
        part_ml[part * 2 + 1] = L;
    }
}

extern "C" __global__ void __launch_bounds__(HD)
flash_decode_combine(const float *__restrict__ part_o, const float *__restrict__ part_ml,
                     __half *__restrict__ out, int splits)
{
    const size_t bh = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
    const float *ml = part_ml + bh * splits * 2;
    const int t = threadIdx.x;
    float M = -INFINITY;
    for (int c = 0; c < splits; c++)
        M = fmaxf(M, ml[2 * c]);
    float L = 0.f, O = 0.f;
    for (int c = 0; c < splits; c++) {
        float w = ml[2 * c + 1] * exp2f(ml[2 * c] - M);
        L += w;
        O += w * part_o[(bh * splits + c) * HD + t];
    }
    out[bh * HD + t] = __float2half_rn(O / L);
}
