// fa3_fwd.cu -- a FlashAttention-3-style attention forward for sm_90a: a TMA producer
// warpgroup, two wgmma consumer warpgroups, mbarriers and setmaxnreg. Head dim 128, fp16 in and
// out, fp32 accumulation; multi-head with grouped KV heads, no causal mask.
//
// Q, O : [q_heads][seq][128] fp16 row-major.  K, V : [q_heads / group][seq][128] fp16.
//   s[i][j]  = scale * sum_d Q[h][i][d] * K[h/group][j][d]
//   O[h][i][d] = sum_j softmax_j(s[i][j]) * V[h/group][j][d]
// Numerics as FlashAttention-2/3 (and examples/paper/attn_fwd.cu): S in fp32 (wgmma); P rounded
// to fp16 for the P V wgmma; the row sum from the fp32 probabilities; exp2f of
// (s * scale * log2 e - running max) (ex2.approx.ftz); O divided by the row sum, rounded to
// fp16.
//
// Structure (FlashAttention-3's forward, without the intra-warpgroup overlap of softmax and the
// next QK^T):
// - one CTA per 128 query rows of one head; 384 threads: warpgroup 0 the producer, warpgroups
//   1 and 2 the consumers, 64 query rows each;
// - setmaxnreg: the producer gives registers back (dec to 24), the consumers take them (inc to
//   240): 128 x 24 + 256 x 240 = 64,512 of the SM's 65,536;
// - the producer's elected thread loads the Q tile once and then, per 128-key block, K and V
//   into a 2-stage ring (full barriers for K and V separately, armed by
//   mbarrier.arrive.expect_tx; an empty barrier per stage that the 8 consumer warps arrive on);
//   every load is cp.async.bulk.tensor.2d through one kind of tensor map: fp16, rows of 128
//   elements, box 64 x 128, 128-byte swizzle, so each 128 x 128 tile is two 16 KB halves;
// - S = Q K^T: eight wgmma.mma_async.m64n128k16.f32.f16.f16, A (Q) and B (K) K-major from
//   shared-memory descriptors, the two consumer warpgroups taking turns to issue it (ping-pong:
//   named barriers 1 and 2, bar.sync on its own, bar.arrive on the other's, so one warpgroup's
//   softmax overlaps the other's GEMMs); online softmax in registers (quad shuffles); P
//   repacked from S's accumulator fragment into wgmma's A register fragment; O += P V: eight
//   wgmma with A from registers and B (V) N-major (transposed) from a descriptor;
// - the epilogue divides by the row sum and stores O straight from the fragment.
//
// Kernel:  fa3_fwd(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
//                  const __grid_constant__ CUtensorMap tv, __half *O, int seq, int group,
//                  float scale)
//   tq: dims {128, q_heads * seq}, tk/tv: {128, kv_heads * seq}; box {64, 128}; fp16;
//   128-byte swizzle.  seq: a multiple of 128.
// Launch:  grid  = (seq/128) x q_heads x 1,  block = 384 x 1 x 1,
//          dynamic shared memory = 164864 bytes (Q 32 KB + 2 stages x (K 32 KB + V 32 KB) + 1 KB)
#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

#define HD 128                 // head dimension
#define BR 128                 // query rows per CTA
#define BC 128                 // keys per block
#define STAGES 2
#define TILE (128 * HD * 2)    // bytes of a 128 x 128 fp16 tile: two 64-column halves
#define HALF (TILE / 2)

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint32_t b, uint32_t n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n));
}

__device__ __forceinline__ void mbar_wait(uint32_t b, uint32_t parity)
{
    asm volatile("{ .reg .pred p; WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
                 "@!p bra WAIT_%=; }" :: "r"(b), "r"(parity) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
}

__device__ __forceinline__ void expect_tx(uint32_t b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *m, int x, int y, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" :: "r"(dst), "l"(m), "r"(x), "r"(y), "r"(bar) : "memory");
}

// a 128 x 128 tile: its two 64-column halves at dst and dst + HALF
__device__ __forceinline__ void tma_tile(uint32_t dst, const CUtensorMap *m, int row, uint32_t bar)
{
    tma_load_2d(dst, m, 0, row, bar);
    tma_load_2d(dst + HALF, m, 64, row, bar);
}

// a shared-memory matrix descriptor: start, LBO, SBO (bytes), 128-byte swizzle
__device__ __forceinline__ uint64_t gdesc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 |
           (uint64_t)(sbo >> 4) << 32 | 1ull << 62;
}

#define D64(d) "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
    "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
    "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
    "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
    "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
    "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define R64 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15," \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31," \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}"

// d (+)= A B, both K-major from descriptors; acc 0: d = A B
__device__ __forceinline__ void wgmma_ss(float (&d)[64], uint64_t da, uint64_t db, int acc)
{
    if (acc)
        asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " R64 ", %64, %65, 1, 1, 1, 0, 0;\n"
                     : D64(d) : "l"(da), "l"(db));
    else
        asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " R64 ", %64, %65, 0, 1, 1, 0, 0;\n"
                     : D64(d) : "l"(da), "l"(db));
}

// d += A B, A from registers (four f16x2), B N-major (transposed) from a descriptor
__device__ __forceinline__ void wgmma_rs(float (&d)[64], const uint32_t *a, uint64_t db)
{
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " R64
                 ", {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
                 : D64(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

// 2^x (MUFU.EX2, flushing denormal results: as FlashAttention's exp2f under --use_fast_math)
__device__ __forceinline__ float ex2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ uint32_t pack_h2(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *(uint32_t *)&h;
}

extern "C" __global__ void __launch_bounds__(384, 1)
fa3_fwd(const __grid_constant__ CUtensorMap tq, const __grid_constant__ CUtensorMap tk,
        const __grid_constant__ CUtensorMap tv, __half *O, int seq, int group, float scale)
{
    extern __shared__ uint8_t dyn[];
    __shared__ __align__(8) uint64_t qfull, kfull[STAGES], vfull[STAGES], empty[STAGES];
    uint8_t *sq = (uint8_t *)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023);
    uint8_t *sk = sq + TILE, *sv = sk + STAGES * TILE;
    int h = blockIdx.y, q0 = blockIdx.x * BR, nkb = seq / BC;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int kvrow = (h / group) * seq;

    if (threadIdx.x == 0) {
        mbar_init(smem_u32(&qfull), 1);
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&kfull[s]), 1);
            mbar_init(smem_u32(&vfull[s]), 1);
            mbar_init(smem_u32(&empty[s]), 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp < 4) {                          // the producer warpgroup
        asm volatile("setmaxnreg.dec.sync.aligned.u32 24;\n" ::: "memory");
        if (warp == 0 && lane == 0) {
            expect_tx(smem_u32(&qfull), TILE);
            tma_tile(smem_u32(sq), &tq, h * seq + q0, smem_u32(&qfull));
            for (int kb = 0; kb < nkb; kb++) {
                int s = kb % STAGES;
                mbar_wait(smem_u32(&empty[s]), ((kb / STAGES) & 1) ^ 1);
                expect_tx(smem_u32(&kfull[s]), TILE);
                tma_tile(smem_u32(sk + s * TILE), &tk, kvrow + kb * BC, smem_u32(&kfull[s]));
                expect_tx(smem_u32(&vfull[s]), TILE);
                tma_tile(smem_u32(sv + s * TILE), &tv, kvrow + kb * BC, smem_u32(&vfull[s]));
            }
        }
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n" ::: "memory");
    int wg = warp / 4 - 1;                   // consumer warpgroup 0 or 1: query rows 64 wg ..
    float o[64], sacc[64], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
    const float sl2 = scale * 1.4426950408889634f;

#pragma unroll
    for (int i = 0; i < 64; i++)
        o[i] = 0.f;
    mbar_wait(smem_u32(&qfull), 0);
    if (wg == 1)                             // ping-pong: warpgroup 0 issues its first GEMM first
        asm volatile("bar.arrive 1, 256;" ::: "memory");
    for (int kb = 0; kb < nkb; kb++) {
        int s = kb % STAGES;
        uint32_t par = (kb / STAGES) & 1;
        mbar_wait(smem_u32(&kfull[s]), par);
        asm volatile("bar.sync %0, 256;" :: "r"(1 + wg) : "memory");   // my turn
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int j = 0; j < HD / 16; j++) {  // k16 step j: half j / 4, 32 bytes (j % 4) in
            uint32_t off = (j / 4) * HALF + 32 * (j % 4);
            uint64_t da = gdesc(smem_u32(sq) + wg * (HALF / 2) + off, 16, 1024);
            uint64_t db = gdesc(smem_u32(sk + s * TILE) + off, 16, 1024);
            wgmma_ss(sacc, da, db, j > 0);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        if (wg == 0 || kb + 1 < nkb)         // the other warpgroup's turn (its last sync's arrival)
            asm volatile("bar.arrive %0, 256;" :: "r"(2 - wg) : "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        // online softmax: element i is row half (i >> 1) & 1 (rows g, g + 8)
        float mx[2] = {-INFINITY, -INFINITY}, corr[2], rs[2] = {0.f, 0.f};
#pragma unroll
        for (int i = 0; i < 64; i++)
            mx[(i >> 1) & 1] = fmaxf(mx[(i >> 1) & 1], sacc[i]);
#pragma unroll
        for (int r = 0; r < 2; r++) {
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffff, mx[r], 1));
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffff, mx[r], 2));
            mx[r] = fmaxf(m[r], mx[r] * sl2);        // scale > 0: max(s) sl2 = max(s sl2)
            corr[r] = ex2(m[r] - mx[r]);
            m[r] = mx[r];
        }
        uint32_t p[32];
#pragma unroll
        for (int i = 0; i < 64; i += 2) {
            int r = (i >> 1) & 1;
            float a = ex2(fmaf(sacc[i], sl2, -m[r])), b = ex2(fmaf(sacc[i + 1], sl2, -m[r]));
            rs[r] += a + b;
            p[i / 2] = pack_h2(a, b);
        }
#pragma unroll
        for (int r = 0; r < 2; r++)
            l[r] = l[r] * corr[r] + rs[r];
#pragma unroll
        for (int i = 0; i < 64; i++)
            o[i] *= corr[(i >> 1) & 1];
        mbar_wait(smem_u32(&vfull[s]), par);
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int j = 0; j < BC / 16; j++)    // keys 16 j ..: A = P's columns 16 j .., B rows 16 j ..
            wgmma_rs(o, &p[4 * j], gdesc(smem_u32(sv + s * TILE) + 2048 * j, HALF, 1024));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        __syncwarp();
        if (lane == 0)
            mbar_arrive(smem_u32(&empty[s]));
    }
    // the row sums over the quad, then O / l in fp16: element i of lane (g, t) of warp w is row
    // 16 (w % 4) + g + 8 ((i >> 1) & 1), column 8 (i >> 2) + 2t + (i & 1)
#pragma unroll
    for (int r = 0; r < 2; r++) {
        l[r] += __shfl_xor_sync(0xffffffff, l[r], 1);
        l[r] += __shfl_xor_sync(0xffffffff, l[r], 2);
        l[r] = 1.f / l[r];
    }
    int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < 64; i += 2) {
        int r = (i >> 1) & 1;
        int row = q0 + 64 * wg + 16 * (warp % 4) + g + 8 * r, col = 8 * (i >> 2) + 2 * t;
        *(uint32_t *)&O[((size_t)h * seq + row) * HD + col] = pack_h2(o[i] * l[r], o[i + 1] * l[r]);
    }
}
