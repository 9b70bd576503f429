// alu.cu -- calibration microbenchmarks: latency of dependent ALU instruction chains.
//
// Method (Jia et al. 2018, Abdelkhalik et al. 2022): one thread reads clock64() (CS2R
// SR_CLOCKLO), runs iters x CHAIN instructions each of which consumes the result of the one
// before, reads clock64() again and stores the difference: latency = cycles / instructions.
// Each step is pinned with inline PTX so that ptxas keeps one SASS instruction of the claimed
// class per step (check the .sass listings); the loop body is unrolled CHAIN times so that the
// loop's own instructions (IADD3, ISETP, BRA) overlap the chain. Integer inputs are mixed with
// threadIdx.x (0 for the one thread launched) so that ptxas cannot move the chain to the uniform
// datapath. The timed region runs twice and the second pass is recorded: the first warms the
// instruction cache and waits for the inputs (S2R), as the published benchmarks do.
//
// Kernels:  lat_<class>(long long *out, int iters, unsigned x, unsigned y)
//   out[0] = cycles of the second pass, out[1] = the chain's final value after both passes
//   (bits, zero-extended), out[2] = chain instructions of one pass (iters x CHAIN)
//   lat_int    IADD3, LOP3 alternating   x = (x + y) ^ y, 32 times per iteration
//   lat_imad   IMAD                      x = x * y + x0                (x0 = initial x)
//   lat_ffma   FFMA                      a = a * b + 0.5f              (a, b: bits of x, y)
//   lat_hfma2  HFMA2                     h = h * g + g                 (half2 h, g: bits of x, y)
//   lat_dfma   DFMA                      d = d * e + 0.5               (d = x, e = 1 / y)
//   lat_mufu   MUFU.RSQ                  a = rsqrt(a)                  (a: bits of x)
//   lat_cvt    I2F, F2I alternating      n = (int)(float)n, 32 times per iteration (n = x)
// Launch: grid 1, block 1 (one thread); iters >= 1.
#include <stdint.h>

#define CHAIN 64   // dependent instructions per loop iteration

// STEPS copies of BODY per iteration, iters iterations, timed twice; t0, t1 of the second pass
#define TIMED_CHAIN(STEPS, BODY)                                                    \
    long long t0 = 0, t1 = 0;                                                      \
    _Pragma("unroll 1") for (int rep = 0; rep < 2; rep++) {                       \
        t0 = clock64();                                                            \
        _Pragma("unroll 1") for (int i = 0; i < iters; i++) {                     \
            _Pragma("unroll") for (int k = 0; k < (STEPS); k++) { BODY }          \
        }                                                                          \
        t1 = clock64();                                                            \
    }

__device__ __forceinline__ void
record(long long *out, long long t0, long long t1, unsigned long long value, int iters)
{
    out[0] = t1 - t0;
    out[1] = (long long)value;
    out[2] = (long long)iters * CHAIN;
}

extern "C" __global__ void
lat_int(long long *out, int iters, unsigned x, unsigned y)
{
    x ^= threadIdx.x;
    TIMED_CHAIN(CHAIN / 2,
        asm volatile("add.s32 %0, %0, %1;" : "+r"(x) : "r"(y));
        asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(y));)
    record(out, t0, t1, x, iters);
}

extern "C" __global__ void
lat_imad(long long *out, int iters, unsigned x, unsigned y)
{
    unsigned x0 = x;
    x ^= threadIdx.x;
    TIMED_CHAIN(CHAIN,
        asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(x0));)
    record(out, t0, t1, x, iters);
}

extern "C" __global__ void
lat_ffma(long long *out, int iters, unsigned x, unsigned y)
{
    float a = __uint_as_float(x), b = __uint_as_float(y);
    TIMED_CHAIN(CHAIN,
        asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+f"(a) : "f"(b));)
    record(out, t0, t1, __float_as_uint(a), iters);
}

extern "C" __global__ void
lat_hfma2(long long *out, int iters, unsigned x, unsigned y)
{
    unsigned h = x, g = y ^ threadIdx.x;   // g in a register, not a constant-bank operand
    TIMED_CHAIN(CHAIN,
        asm volatile("fma.rn.f16x2 %0, %0, %1, %1;" : "+r"(h) : "r"(g));)
    record(out, t0, t1, h, iters);
}

extern "C" __global__ void
lat_dfma(long long *out, int iters, unsigned x, unsigned y)
{
    double d = (double)x, e = 1.0 / (double)y;
    TIMED_CHAIN(CHAIN,
        asm volatile("fma.rn.f64 %0, %0, %1, 0d3FE0000000000000;" : "+d"(d) : "d"(e));)
    record(out, t0, t1, (unsigned long long)__double_as_longlong(d), iters);
}

extern "C" __global__ void
lat_mufu(long long *out, int iters, unsigned x, unsigned y)
{
    float a = __uint_as_float(x);
    TIMED_CHAIN(CHAIN,
        asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(a));)
    record(out, t0, t1, __float_as_uint(a), iters);
}

extern "C" __global__ void
lat_cvt(long long *out, int iters, unsigned x, unsigned y)
{
    int n = (int)(x ^ threadIdx.x);
    float f;
    TIMED_CHAIN(CHAIN / 2,
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(n));
        asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(n) : "f"(f));)
    record(out, t0, t1, (unsigned)n, iters);
}
