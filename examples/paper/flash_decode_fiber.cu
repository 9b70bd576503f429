// flash_decode_fiber.cu -- the paper table's FIBER-native FlashDecoding: flash_decode.cu's split
// and combine fused into one persistent kernel whose two phases run at different fiber counts
// (docs/paper-table.md, "The FIBER-native FlashDecoding"). A CTA of 128 fibers per SM loops over
// the (batch, head) items (stride gridDim.x; SETFIBERNUM owns the SM); per item:
//   split:   SETFIBERNUM NF (NW wefts): weft w takes split w % splits, every (NW/splits)-th block
//            of 8 keys of it, with flash_decode.cu's per-warp loop (half-warp per 256-byte key
//            row, 16-byte read-only loads, four keys in flight), and leaves its (m, l, o[128]) in
//            shared memory; new fibers read the item from shared memory (zeroed windows)
//   combine: SETFIBERNUM 128 (the SM-wide synchronisation that makes shared memory complete):
//            one fiber per dimension merges the wefts of each split into the split's partial
//            (written to part_o/part_ml as flash_decode_split writes them) and the splits into
//            out, as flash_decode_combine does; no second launch, no global round trip.
// Kernel: flash_decode_fiber(q, K, V, part_o, part_ml, out, B*H, seq, chunk, splits, scale);
//   grid min(B*H, SMs), block 128; NW % splits == 0, chunk a multiple of 8 NW / splits.
// flash_decode_fiber.w32.ptx is nvcc -DNW=32: 1024 fibers, a 64-register window in which fiberc
// spills (slower, docs/paper-table.md; tests/paper.sh runs it as regalloc's test of a frame set
// again after SETFIBERNUM).
#include <cuda_fp16.h>
#include <stdint.h>
#include "fiber_device.cuh"

#define HD 128
#ifndef NW
#define NW 16                 // wefts of the split phase (32: flash_decode_fiber.w32.ptx, below)
#endif
#define NF (NW * 32)          // its fibers

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

// unit w of NW (split c = w % splits, group g = w / splits): keys c*chunk + g*8 + j*G*8 .. +7;
// its (m, l, o) into sm_ml[w], sm_o[w]; run by one weft
__device__ __forceinline__ void
split_unit(const __half *__restrict__ q, const __half *__restrict__ K, const __half *__restrict__ V,
           size_t bh, int seq, int chunk, int splits, float scale, float (*sm_ml)[2],
           float (*sm_o)[HD], int w)
{
    const int lane = fiber_lane(), half = lane >> 4;
    const int d0 = (lane & 15) * 8, c = w % splits, g = w / splits, G = NW / splits;
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
    const int k1 = (c + 1) * chunk;
    for (int base = c * chunk + g * 8; base < k1; base += G * 8) {
        uint4 kv[4], vv[4];
#pragma unroll
        for (int u = 0; u < 4; u++)
            kv[u] = ldg_nc(kp + (size_t)(base + 2 * u + half) * HD);
#pragma unroll
        for (int u = 0; u < 4; u++)
            vv[u] = ldg_nc(vp + (size_t)(base + 2 * u + half) * HD);
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
        float cr = exp2f(m - mx);
        m = mx;
        l *= cr;
#pragma unroll
        for (int i = 0; i < 8; i++)
            o[i] *= cr;
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
    float m2 = __shfl_xor_sync(0xffffffff, m, 16), l2 = __shfl_xor_sync(0xffffffff, l, 16);
    float mx = fmaxf(m, m2), c1 = exp2f(m - mx), c2 = exp2f(m2 - mx);
    l = l * c1 + l2 * c2;
#pragma unroll
    for (int i = 0; i < 8; i++)
        o[i] = o[i] * c1 + __shfl_xor_sync(0xffffffff, o[i], 16) * c2;
    if (lane < 16) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            sm_o[w][d0 + i] = o[i];
    }
    if (lane == 0) {
        sm_ml[w][0] = mx;
        sm_ml[w][1] = l;
    }
}

extern "C" __global__ void __launch_bounds__(HD)
flash_decode_fiber(const __half *__restrict__ q, const __half *__restrict__ K,
                   const __half *__restrict__ V, float *__restrict__ part_o,
                   float *__restrict__ part_ml, __half *__restrict__ out, int items, int seq,
                   int chunk, int splits, float scale)
{
    __shared__ float sm_ml[NW][2];
    __shared__ float sm_o[NW][HD];
    __shared__ int item_sh;

    for (int t = blockIdx.x; t < items; t += gridDim.x) {
        if (fiber_id() == 0)
            item_sh = t;
        fiber_set_count<NF>();              // the split phase: NW wefts
        // one unit per weft; fewer wefts (fiber_dp = 0 keeps the launch's 128) loop over them
        for (int u = fiber_weft(); u < NW; u += fiber_count() >> 5)
            split_unit(q, K, V, (size_t)item_sh, seq, chunk, splits, scale, sm_ml, sm_o, u);
        fiber_set_count<HD>();              // every weft's (m, l, o) is in shared memory
        const int d = fiber_id(), G = NW / splits;
        const size_t bh = (size_t)item_sh;
        float M = -INFINITY, L = 0.f, O = 0.f;
        for (int c = 0; c < splits; c++) {
            float mc = -INFINITY, lc = 0.f, oc = 0.f;
            for (int g = 0; g < G; g++)
                mc = fmaxf(mc, sm_ml[g * splits + c][0]);
            for (int g = 0; g < G; g++) {
                float e = exp2f(sm_ml[g * splits + c][0] - mc);
                lc += sm_ml[g * splits + c][1] * e;
                oc += sm_o[g * splits + c][d] * e;
            }
            part_o[(bh * splits + c) * HD + d] = oc / lc;
            if (d == 0) {
                part_ml[(bh * splits + c) * 2] = mc;
                part_ml[(bh * splits + c) * 2 + 1] = lc;
            }
            float mn = fmaxf(M, mc), a = exp2f(M - mn), b = exp2f(mc - mn);
            L = L * a + lc * b;
            O = O * a + oc * b;
            M = mn;
        }
        out[bh * HD + d] = __float2half_rn(O / L);
        fiber_set_count<HD>();              // every read of item_sh and shared memory is done
    }
}
