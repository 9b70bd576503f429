// w4a16_gemv.cu -- AWQ-style W4A16 GEMV: 4-bit weights, fp16 activations, fp32 accumulation.
//
// Computes y = W x with W dequantised on the fly:
//     W[n][k] = (q[n][k] - zeros[n][k/128]) * scales[n][k/128]        (group size 128)
//     y[n]    = half( sum_{k<K} W[n][k] * float(x[k]) )                (fp32 sum, round to nearest)
// Storage:
//   qweight : [N x K/8] uint32; word qweight[n][kw] holds q[n][8*kw + j] in bits 4j .. 4j+3
//             (j = 0..7, plain order, unsigned 0..15)
//   scales  : [N x K/128] fp16
//   zeros   : [N x K/128] fp16 (zero point in the quantised domain, usually an integer 0..15)
//   x       : [K] fp16, y : [N] fp16
// Dequantisation is the AWQ/FasterTransformer trick: lop3.b32 (immLut 0xEA = (a & b) | c) ORs
// the nibbles masked by 0x000F000F into the fp16 exponent pattern 0x6400 (1024.0), giving two
// halves 1024+q[j] and 1024+q[j+4]; HSUB2 of 1024 leaves q exactly; then fp32 (q - z) * s * x.
// One warp per output row: lane l handles words kw = l, l+32, ...; the partial sums are reduced
// across the warp with __shfl_xor_sync.
//
// Kernel:  w4a16_gemv(const uint32_t *qweight, const __half *scales, const __half *zeros,
//                     const __half *x, __half *y, int N, int K)
//   N : output rows (example: 16);  K : multiple of 128 (example: 1024)
// Launch:  grid  = ceil(N/4) x 1 x 1   (example: 4)
//          block = 128 x 1 x 1         (4 warps = 4 rows per CTA)
//          dynamic shared memory = 0 bytes
#include <cuda_fp16.h>
#include <stdint.h>

#define GROUP_SIZE 128
#define WORDS_PER_GROUP (GROUP_SIZE / 8)

__device__ __forceinline__ uint32_t lop3_and_or(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t d;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0xea;\n" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

extern "C" __global__ void __launch_bounds__(128)
w4a16_gemv(const uint32_t *__restrict__ qweight, const __half *__restrict__ scales,
           const __half *__restrict__ zeros, const __half *__restrict__ x,
           __half *__restrict__ y, int N, int K)
{
    const int lane = threadIdx.x & 31;
    const int n = blockIdx.x * 4 + (threadIdx.x >> 5);
    if (n >= N)
        return;
    const int kwords = K / 8, groups = K / GROUP_SIZE;
    const uint32_t *wrow = qweight + (size_t)n * kwords;
    const __half2 k1024 = __float2half2_rn(1024.0f);

    float acc = 0.0f;
    for (int kw = lane; kw < kwords; kw += 32) {
        const uint32_t w = wrow[kw];
        const int grp = kw / WORDS_PER_GROUP;
        const float s = __half2float(scales[(size_t)n * groups + grp]);
        const float z = __half2float(zeros[(size_t)n * groups + grp]);
        const uint4 xv = *reinterpret_cast<const uint4 *>(x + (size_t)kw * 8);
        const uint32_t xw[4] = {xv.x, xv.y, xv.z, xv.w};
        float xf[8];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float2 f = __half22float2(*reinterpret_cast<const __half2 *>(&xw[i]));
            xf[2 * i] = f.x;
            xf[2 * i + 1] = f.y;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            // halves (1024 + q[j], 1024 + q[j+4])
            uint32_t h = lop3_and_or(w >> (4 * j), 0x000F000Fu, 0x64006400u);
            const __half2 qh = __hsub2(*reinterpret_cast<__half2 *>(&h), k1024);
            const float2 qf = __half22float2(qh);
            acc = fmaf((qf.x - z) * s, xf[j], acc);
            acc = fmaf((qf.y - z) * s, xf[j + 4], acc);
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0)
        y[n] = __float2half_rn(acc);
}
