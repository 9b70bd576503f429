// mma_chain.cu: dependent chains of every mma.sync shape for the hazard corpus: each MMA
// accumulates into the one before's result, so nvcc's stall counts between them are its latency
// for the shape (docs/calibration.md). Made with
//   sass-dump -a sm_80 mma_chain.cu -o mma_chain.sm_80.sass; sass-dump -a sm_90 ...
#define CHAIN(NAME, PTX, DT, DC, ND, AT, AC, NA, NB)                                           \
extern "C" __global__ void chain_##NAME(DT *out, AT a, AT b, int n) {                         \
  DT d[4] = {};                                                                               \
  for (int i = 0; i < n; i++)                                                                 \
    CHAIN_ASM_##ND##_##NA##_##NB(PTX, DC, AC)                                                 \
  out[threadIdx.x] = d[0] + d[1] + d[2] + d[3];                                               \
}
#define CHAIN_ASM_4_4_2(PTX, DC, AC) asm volatile("mma.sync.aligned." PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+" DC(d[0]), "+" DC(d[1]), "+" DC(d[2]), "+" DC(d[3]) : AC(a), AC(a), AC(a), AC(a), AC(b), AC(b));
#define CHAIN_ASM_4_2_1(PTX, DC, AC) asm volatile("mma.sync.aligned." PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+" DC(d[0]), "+" DC(d[1]), "+" DC(d[2]), "+" DC(d[3]) : AC(a), AC(a), AC(b));
#define CHAIN_ASM_2_1_1(PTX, DC, AC) asm volatile("mma.sync.aligned." PTX " {%0,%1}, {%2}, {%3}, {%0,%1};" : "+" DC(d[0]), "+" DC(d[1]) : AC(a), AC(b));
#define CHAIN_ASM_2_4_2(PTX, DC, AC) asm volatile("mma.sync.aligned." PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};" : "+" DC(d[0]), "+" DC(d[1]) : AC(a), AC(a), AC(a), AC(a), AC(b), AC(b));
#define CHAIN_ASM_4_8_4(PTX, DC, AC) asm volatile("mma.sync.aligned." PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" : "+" DC(d[0]), "+" DC(d[1]), "+" DC(d[2]), "+" DC(d[3]) : AC(a), AC(a), AC(a), AC(a), AC(a), AC(a), AC(a), AC(a), AC(b), AC(b), AC(b), AC(b));
#define F "f"
#define R "r"
#define D "d"
CHAIN(f16_16816, "m16n8k16.row.col.f32.f16.f16.f32", float, F, 4, unsigned, R, 4, 2)
CHAIN(f16_16816_h, "m16n8k16.row.col.f16.f16.f16.f16", unsigned, R, 2, unsigned, R, 4, 2)
CHAIN(f16_1688, "m16n8k8.row.col.f32.f16.f16.f32", float, F, 4, unsigned, R, 2, 1)
CHAIN(bf16_16816, "m16n8k16.row.col.f32.bf16.bf16.f32", float, F, 4, unsigned, R, 4, 2)
CHAIN(tf32_1688, "m16n8k8.row.col.f32.tf32.tf32.f32", float, F, 4, unsigned, R, 4, 2)
CHAIN(tf32_1684, "m16n8k4.row.col.f32.tf32.tf32.f32", float, F, 4, unsigned, R, 2, 1)
CHAIN(s8_16832, "m16n8k32.row.col.s32.s8.s8.s32", int, R, 4, unsigned, R, 4, 2)
CHAIN(s8_16816, "m16n8k16.row.col.s32.s8.s8.s32", int, R, 4, unsigned, R, 2, 1)
CHAIN(s8_8816, "m8n8k16.row.col.s32.s8.s8.s32", int, R, 2, unsigned, R, 1, 1)
CHAIN(b1_168256, "m16n8k256.row.col.s32.b1.b1.s32.and.popc", int, R, 4, unsigned, R, 4, 2)
CHAIN(b1_168128, "m16n8k128.row.col.s32.b1.b1.s32.and.popc", int, R, 4, unsigned, R, 2, 1)
CHAIN(b1_88128, "m8n8k128.row.col.s32.b1.b1.s32.and.popc", int, R, 2, unsigned, R, 1, 1)
CHAIN(f64_884, "m8n8k4.row.col.f64.f64.f64.f64", double, D, 2, double, D, 1, 1)
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 900
CHAIN(s4_16864, "m16n8k64.row.col.s32.s4.s4.s32", int, R, 4, unsigned, R, 4, 2)
CHAIN(s4_8832, "m8n8k32.row.col.s32.s4.s4.s32", int, R, 2, unsigned, R, 1, 1)
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
CHAIN(f64_16816, "m16n8k16.row.col.f64.f64.f64.f64", double, D, 4, double, D, 8, 4)
#endif
