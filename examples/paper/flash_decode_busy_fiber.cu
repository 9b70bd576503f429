// flash_decode_busy_fiber.cu -- the paper table's busy-bit FlashDecoding (docs/paper-table.md, "The
// busy-bit FlashDecoding"): flash_decode.cu's split and combine in one persistent kernel with no
// SM-wide synchronisation in the steady state. A CTA of NW + 1 wefts per SM (launched with
// (NW + 1) x 32 threads; its pools make it own the SM) loops over the (batch, head) items:
//   split wefts 0..NW-1: weft w takes split w / G (G = NW / splits), every G-th block of 8 keys
//            of it (flash_decode.cu's per-warp loop), and publishes its (o[128], m, l) into six
//            registers of pool w % 4 (its own slice: a local write) at offset 6 (w / 4), after a
//            busy-bit wait for the combine weft's release of the previous item; then it goes on
//            to its next item at once
//   combine weft NW: per item, per unit w in order, waits until the unit's six pool registers
//            are Full, reads them (remote reads), releases them (SETBUSYBIT.EMPTY), merges the
//            units of each split into the split's partial (part_o/part_ml as flash_decode_split
//            writes them) and the splits into out (as flash_decode_combine)
// Kernel: flash_decode_busy(q, K, V, part_o, part_ml, out, B*H, seq, chunk, splits, scale);
//   grid min(B*H, SMs), block (NW + 1) x 32; NW % splits == 0, chunk a multiple of 8 NW / splits.
#include <cuda_fp16.h>
#include <stdint.h>
#include "fiber_device.cuh"

#define HD 128
#define NW 16                 // split wefts; weft NW combines
#define PR 6                  // pool registers a unit publishes: o (4 a lane), m, l

typedef fiber_pool<0, PR * NW / 4, 0> pool0;   // units 0, 4, 8, 12 (wefts of slice 0)
typedef fiber_pool<1, PR * NW / 4, 1> pool1;
typedef fiber_pool<2, PR * NW / 4, 2> pool2;
typedef fiber_pool<3, PR * NW / 4, 3> pool3;

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

// unit W's publication: wait for the release of its registers, write them (pool W % 4 is in
// weft W's own slice), which sets them Full
template <class P, int OFF>
__device__ __forceinline__ void
publish_to(const float v[PR])
{
    P::template wait_empty<OFF, PR>();
    P::template store<OFF + 0>(fiber_f2u(v[0]));
    P::template store<OFF + 1>(fiber_f2u(v[1]));
    P::template store<OFF + 2>(fiber_f2u(v[2]));
    P::template store<OFF + 3>(fiber_f2u(v[3]));
    P::template store<OFF + 4>(fiber_f2u(v[4]));
    P::template store<OFF + 5>(fiber_f2u(v[5]));
}

__device__ __forceinline__ void
publish(int w, const float v[PR])
{
    switch (w) {
    case 0: publish_to<pool0, 0>(v); break;
    case 1: publish_to<pool1, 0>(v); break;
    case 2: publish_to<pool2, 0>(v); break;
    case 3: publish_to<pool3, 0>(v); break;
    case 4: publish_to<pool0, PR>(v); break;
    case 5: publish_to<pool1, PR>(v); break;
    case 6: publish_to<pool2, PR>(v); break;
    case 7: publish_to<pool3, PR>(v); break;
    case 8: publish_to<pool0, 2 * PR>(v); break;
    case 9: publish_to<pool1, 2 * PR>(v); break;
    case 10: publish_to<pool2, 2 * PR>(v); break;
    case 11: publish_to<pool3, 2 * PR>(v); break;
    case 12: publish_to<pool0, 3 * PR>(v); break;
    case 13: publish_to<pool1, 3 * PR>(v); break;
    case 14: publish_to<pool2, 3 * PR>(v); break;
    default: publish_to<pool3, 3 * PR>(v); break;
    }
}

// the combine weft's read of unit W: wait Full, read, release
template <int W>
__device__ __forceinline__ void
take(float v[PR])
{
    typedef fiber_pool<W % 4, PR * NW / 4, W % 4> P;
    const int off = PR * (W / 4);
    P::template wait_full<off, PR>();
    v[0] = fiber_u2f(P::template load<off + 0>());
    v[1] = fiber_u2f(P::template load<off + 1>());
    v[2] = fiber_u2f(P::template load<off + 2>());
    v[3] = fiber_u2f(P::template load<off + 3>());
    v[4] = fiber_u2f(P::template load<off + 4>());
    v[5] = fiber_u2f(P::template load<off + 5>());
    P::template set_empty<off, PR>();
}

// unit w (split c = w / G, group g = w % G) of item bh: keys c*chunk + g*8 + j*G*8 .. +7;
// returns its publication: lane l < 16 holds o[d0 .. d0+3], lane l + 16 o[d0+4 .. d0+7]
// (d0 = 8 (l & 15)), then m and l in every lane
__device__ __forceinline__ void
split_unit(const __half *__restrict__ q, const __half *__restrict__ K, const __half *__restrict__ V,
           size_t bh, int seq, int chunk, int splits, float scale, int w, float pub[PR])
{
    const int lane = fiber_lane(), half = lane >> 4;
    const int d0 = (lane & 15) * 8, G = NW / splits, c = w / G, g = w % G;
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
#pragma unroll
    for (int i = 0; i < 8; i++)
        o[i] = o[i] * c1 + __shfl_xor_sync(0xffffffff, o[i], 16) * c2;
#pragma unroll
    for (int i = 0; i < 4; i++)
        pub[i] = half ? o[4 + i] : o[i];
    pub[4] = mx;
    pub[5] = l * c1 + l2 * c2;
}

// the combine weft's running state for one item
struct Merge {
    float mc, lc, oc[4];          // the current split's (m, l, o) over its units so far
    float M, L, O[4];             // the item's over the finished splits
};

// merge unit W's publication into the current split; at the split's last unit write its
// partial and merge it into the item (lane: its four dimensions dim[0..3])
template <int W>
__device__ __forceinline__ void
combine_unit(Merge &s, int G, size_t bh, int splits, const int dim[4], float *__restrict__ part_o,
             float *__restrict__ part_ml)
{
    float v[PR];
    take<W>(v);
    float mn = fmaxf(s.mc, v[4]), a = exp2f(s.mc - mn), b = exp2f(v[4] - mn);
    s.lc = s.lc * a + v[5] * b;
#pragma unroll
    for (int i = 0; i < 4; i++)
        s.oc[i] = s.oc[i] * a + v[i] * b;
    s.mc = mn;
    if (W % G == G - 1) {
        const size_t c = W / G;
#pragma unroll
        for (int i = 0; i < 4; i++)
            part_o[(bh * splits + c) * HD + dim[i]] = s.oc[i] / s.lc;
        if (fiber_lane() == 0) {
            part_ml[(bh * splits + c) * 2] = s.mc;
            part_ml[(bh * splits + c) * 2 + 1] = s.lc;
        }
        float mm = fmaxf(s.M, s.mc), x = exp2f(s.M - mm), y = exp2f(s.mc - mm);
        s.L = s.L * x + s.lc * y;
#pragma unroll
        for (int i = 0; i < 4; i++)
            s.O[i] = s.O[i] * x + s.oc[i] * y;
        s.M = mm;
        s.mc = -INFINITY;
        s.lc = 0.f;
#pragma unroll
        for (int i = 0; i < 4; i++)
            s.oc[i] = 0.f;
    }
}

extern "C" __global__ void __launch_bounds__((NW + 1) * 32)
flash_decode_busy(const __half *__restrict__ q, const __half *__restrict__ K,
                  const __half *__restrict__ V, float *__restrict__ part_o,
                  float *__restrict__ part_ml, __half *__restrict__ out, int items, int seq,
                  int chunk, int splits, float scale)
{
    pool0::declare();
    pool1::declare();
    pool2::declare();
    pool3::declare();
    const int w = fiber_weft();
    if (w < NW) {
        for (int t = blockIdx.x; t < items; t += gridDim.x) {
            float pub[PR];
            split_unit(q, K, V, (size_t)t, seq, chunk, splits, scale, w, pub);
            publish(w, pub);
        }
        return;
    }
    const int lane = fiber_lane(), G = NW / splits;
    const int d0 = (lane & 15) * 8 + (lane >> 4) * 4;
    const int dim[4] = {d0, d0 + 1, d0 + 2, d0 + 3};
    for (int t = blockIdx.x; t < items; t += gridDim.x) {
        const size_t bh = (size_t)t;
        Merge s;
        s.mc = s.M = -INFINITY;
        s.lc = s.L = 0.f;
#pragma unroll
        for (int i = 0; i < 4; i++)
            s.oc[i] = s.O[i] = 0.f;
        combine_unit<0>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<1>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<2>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<3>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<4>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<5>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<6>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<7>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<8>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<9>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<10>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<11>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<12>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<13>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<14>(s, G, bh, splits, dim, part_o, part_ml);
        combine_unit<15>(s, G, bh, splits, dim, part_o, part_ml);
#pragma unroll
        for (int i = 0; i < 4; i++)
            out[bh * HD + dim[i]] = __float2half_rn(s.O[i] / s.L);
    }
}
