// rope.cu -- rotary position embedding (RoPE, GPT-J / interleaved-pair form) applied to a
// fp32 query tensor and a fp16 key tensor, both [tokens x heads x dhead], row-major.
//
// For token t, head h, pair i in [0, dhead/2), with pos = pos_offset + t:
//     inv_freq_i = powf(theta_base, -2*i / dhead)            (powf, accurate)
//     a          = pos * inv_freq_i
//     (s, c)     = sincosf(a)                                (accurate sincosf: the
//                                                              libdevice Payne-Hanek slow path
//                                                              for large |a| is in the code)
//     x0 = in[t][h][2i], x1 = in[t][h][2i+1]
//     out[t][h][2i]   = x0*c - x1*s
//     out[t][h][2i+1] = x0*s + x1*c
// For q everything is fp32; for k, x0/x1 are converted from fp16, the math is fp32 and the
// result is rounded to fp16 (round to nearest).
//
// Kernel:  rope_qk(const float *q, float *q_out, const __half *k, __half *k_out,
//                  int tokens, int heads, int dhead, int pos_offset, float theta_base)
//   q, q_out : [tokens x heads x dhead] fp32
//   k, k_out : [tokens x heads x dhead] fp16
//   tokens   : example 4
//   heads    : example 4
//   dhead    : even, example 64
//   pos_offset : position of token 0, example 3
//   theta_base : example 10000.0
// One thread per (token, head, pair): total = tokens*heads*dhead/2 (example 512), grid-stride.
// Launch:  grid  = ceil(total / 128) x 1 x 1   (example: 4)
//          block = 128 x 1 x 1
//          dynamic shared memory = 0 bytes
//
// Kernel:  rope_qk_fast(...same parameters and launch...)
//   The same computation with the fast intrinsics: __powf (MUFU.LG2 + MUFU.EX2) and __sincosf
//   (FMUL.RZ by 1/(2 pi), then MUFU.SIN / MUFU.COS). Approximate: compare with a
//   looser tolerance (about 1e-3 relative for |a| up to a few hundred; __sincosf error grows with |a|).
// (CUDA 13's accurate powf is a pure FFMA polynomial, and accurate sincosf is a polynomial plus the
//  Payne-Hanek reduction through __cudart_i2opi_f and a local-memory array (STL/LDL), so rope_qk
//  itself contains no MUFU.SIN/COS/LG2/EX2.)
#include <cuda_fp16.h>
#include <math.h>

template <bool FAST>
__device__ __forceinline__ void rope_body(const float *__restrict__ q, float *__restrict__ q_out,
                                          const __half *__restrict__ k, __half *__restrict__ k_out,
                                          int tokens, int heads, int dhead, int pos_offset, float theta_base)
{
    const int half_d = dhead >> 1;
    const int total = tokens * heads * half_d;
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += gridDim.x * blockDim.x) {
        const int i = idx % half_d;                  // pair index inside the head
        const int t = idx / (heads * half_d);        // token
        const float ex = -(float)(2 * i) / (float)dhead;
        const float inv_freq = FAST ? __powf(theta_base, ex) : powf(theta_base, ex);
        const float a = (float)(pos_offset + t) * inv_freq;
        float s, c;
        if (FAST)
            __sincosf(a, &s, &c);
        else
            sincosf(a, &s, &c);

        const size_t e = (size_t)idx * 2;            // element offset of x0 (pairs are contiguous)
        const float2 qv = *reinterpret_cast<const float2 *>(q + e);
        *reinterpret_cast<float2 *>(q_out + e) =
            make_float2(qv.x * c - qv.y * s, qv.x * s + qv.y * c);

        const float2 kv = __half22float2(*reinterpret_cast<const __half2 *>(k + e));
        *reinterpret_cast<__half2 *>(k_out + e) =
            __floats2half2_rn(kv.x * c - kv.y * s, kv.x * s + kv.y * c);
    }
}

extern "C" __global__ void __launch_bounds__(128)
rope_qk(const float *__restrict__ q, float *__restrict__ q_out,
        const __half *__restrict__ k, __half *__restrict__ k_out,
        int tokens, int heads, int dhead, int pos_offset, float theta_base)
{
    rope_body<false>(q, q_out, k, k_out, tokens, heads, dhead, pos_offset, theta_base);
}

extern "C" __global__ void __launch_bounds__(128)
rope_qk_fast(const float *__restrict__ q, float *__restrict__ q_out,
             const __half *__restrict__ k, __half *__restrict__ k_out,
             int tokens, int heads, int dhead, int pos_offset, float theta_base)
{
    rope_body<true>(q, q_out, k, k_out, tokens, heads, dhead, pos_offset, theta_base);
}
