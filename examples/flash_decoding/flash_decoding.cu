// flash_decoding.cu -- flash-decoding (split-KV) attention for a single query token.
//
// Per head h (head dim D = 128), with q : [heads x 128] fp16 and the KV cache
// k_cache, v_cache : [heads x seq x 128] fp16 row-major:
//     s_j    = scale * sum_d float(q[h][d]) * float(K[h][j][d])          j in [0, seq)
//     out[h][d] = sum_j exp(s_j - max s) * float(V[h][j][d]) / sum_j exp(s_j - max s)
//   out : [heads x 128] fp32.
// Two kernels:
//  1. flash_decode_partial: CTA (split, h) takes the KV rows [split*chunk, min(seq, (split+1)*chunk))
//     and writes its partial results
//        part_m[h][split]    = m_i = max_j s_j                  (over its rows)
//        part_l[h][split]    = l_i = sum_j exp(s_j - m_i)
//        part_o[h][split][d] = o_i[d] = sum_j exp(s_j - m_i) * V[h][j][d]   (unnormalised)
//     Scores: one warp per KV row (lane holds 4 dims), warp shuffle reduction; max and sum are
//     block reductions through shared memory; the P*V product has thread d own column d.
//  2. flash_decode_combine: CTA h merges the splits:
//        M = max_i m_i,  L = sum_i l_i exp(m_i - M),  out[h][d] = sum_i o_i[d] exp(m_i - M) / L
// exp is the accurate expf.
//
// Kernel 1: flash_decode_partial(const __half *q, const __half *k_cache, const __half *v_cache,
//                                float *part_o, float *part_m, float *part_l,
//                                int seq, int chunk, float scale)
//   seq   : KV length (example: 256);  chunk : rows per split, 1..256 (example: 64)
//   scale : example 0.08838834764 (= 1/sqrt(128))
//   part_o: [heads x splits x 128] fp32, part_m/part_l: [heads x splits] fp32,
//   splits = ceil(seq/chunk) (example: 4), heads = gridDim.y (example: 2)
// Launch 1: grid = splits x heads x 1 (example: 4 x 2 x 1), block = 128 x 1 x 1, dynamic smem = 0
//           (static: 1040 bytes = 256 + 4 floats)
// Kernel 2: flash_decode_combine(const float *part_o, const float *part_m, const float *part_l,
//                                float *out, int splits)
// Launch 2: grid = heads x 1 x 1 (example: 2), block = 128 x 1 x 1, dynamic smem = 0
#include <cuda_fp16.h>
#include <math.h>
#include <stdint.h>

#define HEAD_DIM 128
#define MAX_CHUNK 256
#define NWARPS 4

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}
__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void __launch_bounds__(128)
flash_decode_partial(const __half *__restrict__ q, const __half *__restrict__ k_cache,
                     const __half *__restrict__ v_cache, float *__restrict__ part_o,
                     float *__restrict__ part_m, float *__restrict__ part_l,
                     int seq, int chunk, float scale)
{
    __shared__ float sc[MAX_CHUNK];
    __shared__ float red[NWARPS];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int split = blockIdx.x, h = blockIdx.y, splits = gridDim.x;
    const int start = split * chunk;
    const int len = min(chunk, seq - start);
    const __half *kh = k_cache + ((size_t)h * seq + start) * HEAD_DIM;
    const __half *vh = v_cache + ((size_t)h * seq + start) * HEAD_DIM;

    // lane's 4 query dims: 4*lane .. 4*lane+3
    const uint2 qraw = *reinterpret_cast<const uint2 *>(q + (size_t)h * HEAD_DIM + 4 * lane);
    const float2 q01 = __half22float2(*reinterpret_cast<const __half2 *>(&qraw.x));
    const float2 q23 = __half22float2(*reinterpret_cast<const __half2 *>(&qraw.y));

    for (int j = warp; j < len; j += NWARPS) {
        const uint2 kraw = *reinterpret_cast<const uint2 *>(kh + (size_t)j * HEAD_DIM + 4 * lane);
        const float2 k01 = __half22float2(*reinterpret_cast<const __half2 *>(&kraw.x));
        const float2 k23 = __half22float2(*reinterpret_cast<const __half2 *>(&kraw.y));
        float d = q01.x * k01.x;
        d = fmaf(q01.y, k01.y, d);
        d = fmaf(q23.x, k23.x, d);
        d = fmaf(q23.y, k23.y, d);
        d = warp_sum(d);
        if (lane == 0)
            sc[j] = d * scale;
    }
    __syncthreads();

    float m = -INFINITY;
    for (int j = tid; j < len; j += blockDim.x)
        m = fmaxf(m, sc[j]);
    m = warp_max(m);
    if (lane == 0)
        red[warp] = m;
    __syncthreads();
    m = fmaxf(fmaxf(red[0], red[1]), fmaxf(red[2], red[3]));
    __syncthreads();                       // everyone has read red[] before it is reused

    float l = 0.0f;
    for (int j = tid; j < len; j += blockDim.x) {
        const float p = expf(sc[j] - m);
        sc[j] = p;
        l += p;
    }
    l = warp_sum(l);
    if (lane == 0)
        red[warp] = l;
    __syncthreads();                       // also publishes the p values in sc[]
    l = red[0] + red[1] + red[2] + red[3];

    // thread d owns output column d
    float o = 0.0f;
    for (int j = 0; j < len; ++j)
        o = fmaf(sc[j], __half2float(vh[(size_t)j * HEAD_DIM + tid]), o);
    const size_t pi = (size_t)h * splits + split;
    part_o[pi * HEAD_DIM + tid] = o;
    if (tid == 0) {
        part_m[pi] = m;
        part_l[pi] = l;
    }
}

extern "C" __global__ void __launch_bounds__(128)
flash_decode_combine(const float *__restrict__ part_o, const float *__restrict__ part_m,
                     const float *__restrict__ part_l, float *__restrict__ out, int splits)
{
    const int h = blockIdx.x, d = threadIdx.x;
    const float *pm = part_m + (size_t)h * splits;
    const float *pl = part_l + (size_t)h * splits;
    const float *po = part_o + (size_t)h * splits * HEAD_DIM;

    float M = -INFINITY;
    for (int i = 0; i < splits; ++i)
        M = fmaxf(M, pm[i]);
    float L = 0.0f, o = 0.0f;
    for (int i = 0; i < splits; ++i) {
        const float w = expf(pm[i] - M);
        L = fmaf(pl[i], w, L);
        o = fmaf(po[(size_t)i * HEAD_DIM + d], w, o);
    }
    out[(size_t)h * HEAD_DIM + d] = o / L;
}
