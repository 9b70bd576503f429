// dsmem.cu: the latency of distributed shared memory (sm_90 thread-block clusters), as the
// Hopper benchmark logs of Luo et al. measure it: a pointer chase through another CTA's shared
// memory over the SM-to-SM network (docs/sim-cluster.md, docs/hardware-facts.md: 181-207 cycles).
//
//   dsmem_chase(long long *out, int stride, int n, int steps)
//       a cluster of 2 CTAs of one thread: rank 1 fills its 16 KiB array, word i holding the
//       shared::cluster address (mapa to rank 1) of word (i + stride) % n; after the cluster
//       barrier rank 0 chases steps times through rank 1's array (ld.shared::cluster.u32,
//       unrolled 16), then a second barrier keeps rank 1's memory alive until it is done
//     out[0] = cycles, out[1] = the final word index, out[2] = steps; n <= 4096, steps % 16 == 0
// Launch: grid 2, block 1, cluster 2 (the calibrate row's launch).
#include <stdint.h>

#define UNROLL 16
#define SMEM_WORDS 4096

__device__ __forceinline__ void
cluster_sync()
{
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
}

__device__ __forceinline__ unsigned
mapa(unsigned a, unsigned rank)
{
    unsigned r;

    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}

__device__ __forceinline__ unsigned
ldc(unsigned addr)
{
    unsigned v;

    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1)
dsmem_chase(long long *out, int stride, int n, int steps)
{
    __shared__ unsigned s[SMEM_WORDS];
    unsigned rank, base;

    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    base = mapa((unsigned)__cvta_generic_to_shared(s), 1);
    if (rank == 1)
        for (int i = 0; i < n; i++)
            s[i] = base + 4 * ((i + stride) % n);
    cluster_sync();
    if (rank == 0) {
        unsigned j = base;
        // one untimed lap of 16 loads
#pragma unroll
        for (int k = 0; k < UNROLL; k++)
            j = ldc(j);
        long long t0 = clock64();
#pragma unroll 1
        for (int i = 0; i < steps; i += UNROLL) {
#pragma unroll
            for (int k = 0; k < UNROLL; k++)
                j = ldc(j);
        }
        long long t1 = clock64();
        out[0] = t1 - t0;
        out[1] = (j - base) / 4;
        out[2] = steps;
    }
    cluster_sync();
}
