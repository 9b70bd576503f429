// memory.cu -- calibration microbenchmarks: load-to-use latency of global and shared memory, and
// shared-memory bank conflicts.
//
// Method (Saavedra-Barrera's pointer chase as used by Jia et al. 2018, RRZE gpu-latency and
// Luo et al. 2024): one thread follows a chain of pointers, p = *p, so that each load's address
// is the previous load's result; cycles between two clock64() reads / loads = latency. The host
// builds the chain (each 8-byte word holds the device address of the next one, `stride` bytes
// further on, wrapping at `footprint` bytes) and picks the footprint for the level measured:
// a few KiB for L1 hits, a region that fits L2 reached through ld.global.cg (L1 bypassed) for L2
// hits, and never-touched lines for DRAM (the model's caches start cold at each launch). The
// timed walk is unrolled 16 times; a warm-up walk before it, untimed, fills the caches.
//
// Kernels:
//   chase_ca(long long *out, const unsigned long long *p, int warm, int steps)
//       ld.global, default caching (LDG.E.64: L1 and L2); warm + steps loads, steps timed
//   chase_cg(long long *out, const unsigned long long *p, int warm, int steps)
//       ld.global.cg (LDG.E.64.STRONG.GPU: L2 only); the same
//     out[0] = cycles of the timed walk, out[1] = the final pointer, out[2] = steps
//     steps: a multiple of 16
//   lds_chase(long long *out, int stride, int n, int steps)
//       shared memory: word i of a 16 KiB array holds the shared address of word
//       (i + stride) % n; one thread chases steps times (LDS, unrolled 16)
//     out[0] = cycles, out[1] = the final word index, out[2] = steps; n <= 4096, steps % 16 == 0
//   smem_bank(long long *out, int stride, int steps)
//       one warp; lane l repeatedly loads word (l * stride) % 1024, which holds its own shared
//       address, so every load of the warp touches the same words: stride 1 is conflict-free,
//       stride 2^k (k <= 5) is a 2^k-way bank conflict. Timed by lane 0.
//     out[0] = cycles, out[1] = the word index lane 0 ended on, out[2] = steps; steps % 16 == 0
// Launch: grid 1; block 1 (chase_*, lds_chase) or 32 (smem_bank).
#include <stdint.h>

#define UNROLL 16
#define SMEM_WORDS 4096

__device__ __forceinline__ const unsigned long long *
load_ca(const unsigned long long *p)
{
    unsigned long long v;

    asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return (const unsigned long long *)v;
}

extern "C" __global__ void
chase_ca(long long *out, const unsigned long long *p, int warm, int steps)
{
#pragma unroll 1
    for (int i = 0; i < warm; i++)
        p = load_ca(p);
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            p = load_ca(p);
    }
    long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = (long long)p;
    out[2] = steps;
}

__device__ __forceinline__ const unsigned long long *
load_cg(const unsigned long long *p)
{
    unsigned long long v;

    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return (const unsigned long long *)v;
}

extern "C" __global__ void
chase_cg(long long *out, const unsigned long long *p, int warm, int steps)
{
#pragma unroll 1
    for (int i = 0; i < warm; i++)
        p = load_cg(p);
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            p = load_cg(p);
    }
    long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = (long long)p;
    out[2] = steps;
}

__device__ __forceinline__ unsigned
lds(unsigned addr)
{
    unsigned v;

    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}

extern "C" __global__ void
lds_chase(long long *out, int stride, int n, int steps)
{
    __shared__ unsigned s[SMEM_WORDS];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);

    for (int i = 0; i < n; i++)
        s[i] = base + 4 * ((i + stride) % n);
    __syncthreads();
    unsigned j = base;
    // one untimed lap of 16 loads: the first load waits for the stores above
#pragma unroll
    for (int k = 0; k < UNROLL; k++)
        j = lds(j);
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            j = lds(j);
    }
    long long t1 = clock64();
    out[0] = t1 - t0;
    out[1] = (j - base) / 4;
    out[2] = steps;
}

extern "C" __global__ void
smem_bank(long long *out, int stride, int steps)
{
    __shared__ unsigned s[1024];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    unsigned j = base + 4 * ((threadIdx.x * stride) % 1024);

    s[(threadIdx.x * stride) % 1024] = j;
    __syncwarp();
#pragma unroll
    for (int k = 0; k < UNROLL; k++)
        j = lds(j);
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            j = lds(j);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = (j - base) / 4;
        out[2] = steps;
    }
}
