// wgmma.cu: the warpgroup MMA's throughput (wgmma.mma_async, sm_90a: HGMMA, QGMMA) for
// `make calibrate` (bench/calibrate.c, docs/calibration.md).
//
// tputwg_<type>_n256: one warpgroup (128 threads, one CTA) issues 2 x iters x 8 wgmma of shape
// m64n256kK into one f32 accumulator from shared-memory operands (no-swizzle K-major layout:
// core matrices of 8 rows x 16 bytes, LBO 128, SBO 256), committing a group every 8 and waiting
// once at the end. Every element of A and B is 0.5 (f16 0x3800, tf32 0x3f000000, e4m3 0x30), so
// each wgmma adds K/4 to each accumulator element, exactly.
// Output per warp w, out[5w..5w+4]: clock64 before and after the loop, 1 if accumulator element 0
// holds the exact sum, the wgmma count, and the FLOP of the warp's share of one wgmma (its 16 rows:
// 2 x 16 x 256 x K): the same record as mma_shapes.cu, so that calibrate divides the FLOP of all
// four warps by the time.
// Launch: grid 1, block 128, arguments (long long *out, int iters).
//   sass-dump -a sm_90a wgmma.cu -o wgmma.sm_90a.sass
#include <stdint.h>

#define NG 8

__device__ __forceinline__ unsigned long long
desc(const void *p)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a >> 4) & 0x3fff) | (unsigned long long)(128 >> 4) << 16 |
           (unsigned long long)(256 >> 4) << 32;
}

#define D16(x) "+f"(d[x]), "+f"(d[x + 1]), "+f"(d[x + 2]), "+f"(d[x + 3]), "+f"(d[x + 4]), \
    "+f"(d[x + 5]), "+f"(d[x + 6]), "+f"(d[x + 7]), "+f"(d[x + 8]), "+f"(d[x + 9]), \
    "+f"(d[x + 10]), "+f"(d[x + 11]), "+f"(d[x + 12]), "+f"(d[x + 13]), "+f"(d[x + 14]), "+f"(d[x + 15])
#define DREGS \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23," \
    "%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45," \
    "%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67," \
    "%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89," \
    "%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109," \
    "%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}"
#define DOUTS D16(0), D16(16), D16(32), D16(48), D16(64), D16(80), D16(96), D16(112)

#define TPUT(name, shape, k, fill, imm)                                                            \
extern "C" __global__ void __launch_bounds__(128)                                                 \
name(long long *out, int iters)                                                                   \
{                                                                                                 \
    __shared__ __align__(1024) uint32_t sa[64 * 32 / 4], sb[256 * 32 / 4];                      \
    for (int i = threadIdx.x; i < 64 * 8; i += 128) sa[i] = fill;                                 \
    for (int i = threadIdx.x; i < 256 * 8; i += 128) sb[i] = fill;                                \
    __syncthreads();                                                                              \
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                                 \
    unsigned long long da = desc(sa), db = desc(sb);                                              \
    float d[128];                                                                                 \
    for (int i = 0; i < 128; i++) d[i] = 0.f;                                                     \
    long long t0 = clock64(), t1;                                                                 \
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");                                      \
    _Pragma("unroll 1")                                                                           \
    for (int rep = 0; rep < 2; rep++) {                                                           \
        _Pragma("unroll 1")                                                                       \
        for (int i = 0; i < iters; i++) {                                                         \
            _Pragma("unroll")                                                                     \
            for (int g = 0; g < NG; g++)                                                          \
                asm volatile("wgmma.mma_async.sync.aligned." shape " " DREGS ", %128, %129, " \
                             imm ";" : DOUTS : "l"(da), "l"(db));                                 \
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");                       \
        }                                                                                         \
    }                                                                                             \
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");                               \
    t1 = clock64();                                                                               \
    if (threadIdx.x % 32 == 0) {                                                                  \
        long long *o = out + 5 * (threadIdx.x / 32);                                              \
        o[0] = t0;                                                                                \
        o[1] = t1;                                                                                \
        o[2] = (long long)d[0] == 2ll * iters * NG * (k / 4);                                     \
        o[3] = 2ll * iters * NG;                                                                  \
        o[4] = 2ll * 16 * 256 * k;                                                                \
    }                                                                                             \
}

TPUT(tputwg_f16_n256, "m64n256k16.f32.f16.f16", 16, 0x38003800u, "1, 1, 1, 0, 0")
TPUT(tputwg_tf32_n256, "m64n256k8.f32.tf32.tf32", 8, 0x3f000000u, "1, 1, 1")
TPUT(tputwg_e4m3_n256, "m64n256k32.f32.e4m3.e4m3", 32, 0x30303030u, "1, 1, 1")
