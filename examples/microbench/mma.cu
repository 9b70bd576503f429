// mma.cu -- calibration microbenchmarks: tensor-core mma.sync m16n8k16, fp16 inputs, fp32
// accumulators (HMMA.16816.F32), dependent latency and throughput.
//
// Method (Jia et al. 2018; Luo et al. 2024): latency: one warp issues a chain of mma.sync, each
// accumulating into the result of the one before (D = A B + D), between two clock64() reads.
// Throughput: several warps per SM, each with NACC independent accumulators, so that the tensor
// pipes always have work; FLOP per cycle per SM = warps x MMAs x 2 x 16 x 8 x 16 / (the last
// warp's end - the first warp's start). Every A element is the half in the low 16 bits of x,
// every B element the half in the low 16 bits of y, so each MMA adds 16 x a x b to each
// accumulator element: with a = b = 0.5 that is 4, exact in fp32. Both timed regions run twice
// and the second pass is recorded (the first warms the instruction cache).
//
// Kernels:
//   mma_lat(long long *out, int iters, unsigned x, unsigned y)
//     one warp, iters x LAT_CHAIN dependent HMMAs per pass
//     out[0] = cycles of the second pass, out[1] = bits of accumulator element 0 of lane 0 after
//     both passes, out[2] = HMMAs of one pass
//   mma_tput(long long *out, int iters, unsigned x, unsigned y)
//     any number of warps per block; each runs iters x NACC HMMAs per pass (NACC independent
//     accumulators); for warp w: out[4w] = start, out[4w+1] = end of its second pass (clock64),
//     out[4w+2] = bits of accumulator 0 element 0 of its lane 0, out[4w+3] = HMMAs of one pass
// Launch: grid 1; block 32 (mma_lat) or 32 x warps (mma_tput, e.g. 256).
#include <stdint.h>

#define LAT_CHAIN 16   // dependent HMMAs per loop iteration
#define NACC 8         // independent accumulators per warp (mma_tput)

__device__ __forceinline__ void
mma16816(float *d, unsigned a, unsigned b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
}

__device__ __forceinline__ unsigned
half2_of(unsigned bits)
{
    return (bits & 0xffffu) | (bits << 16);
}

extern "C" __global__ void
mma_lat(long long *out, int iters, unsigned x, unsigned y)
{
    unsigned a = half2_of(x), b = half2_of(y);
    float d[4] = {0, 0, 0, 0};
    long long t0 = 0, t1 = 0;

#pragma unroll 1
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
#pragma unroll 1
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int k = 0; k < LAT_CHAIN; k++)
                mma16816(d, a, b);
        }
        t1 = clock64();
    }
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = __float_as_uint(d[0]);
        out[2] = (long long)iters * LAT_CHAIN;
    }
}

extern "C" __global__ void
mma_tput(long long *out, int iters, unsigned x, unsigned y)
{
    unsigned a = half2_of(x), b = half2_of(y);
    float d[NACC][4] = {};
    long long t0 = 0, t1 = 0;

#pragma unroll 1
    for (int rep = 0; rep < 2; rep++) {
        t0 = clock64();
#pragma unroll 1
        for (int i = 0; i < iters; i++) {
#pragma unroll
            for (int k = 0; k < NACC; k++)
                mma16816(d[k], a, b);
        }
        t1 = clock64();
    }
    if (threadIdx.x % 32 == 0) {
        long long *o = out + 4 * (threadIdx.x / 32);
        float sum = 0;
#pragma unroll
        for (int k = 1; k < NACC; k++)
            sum += d[k][0] + d[k][1] + d[k][2] + d[k][3];
        o[0] = t0;
        o[1] = t1;
        o[2] = __float_as_uint(d[0][0]) | (sum == 4 * (NACC - 1) * d[0][0] ? 0 : 1ll << 32);
        o[3] = (long long)iters * NACC;
    }
}
