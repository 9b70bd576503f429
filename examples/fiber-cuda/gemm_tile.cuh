// gemm_tile.cuh: the main loop shared by gemm_silu_simt.cu and gemm_silu_fiber.cu: one 64x64 C
// tile of C = A B (fp16 in, fp32 accumulate), BK = 32, 4 warps/wefts of 32 x 32, two
// shared-memory stages filled by cp.async.cg 16 bytes, fragments from ldmatrix.x4 (A) and
// ldmatrix.x4.trans (B), mma.sync m16n8k16: the loop of examples/gemm_tc/gemm_tc.cu as a function.
#include <cuda_fp16.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define A_STRIDE (BK + 8)
#define B_STRIDE (BN + 8)

struct GemmSmem {
	__half As[2][BM * A_STRIDE];
	__half Bs[2][BK * B_STRIDE];
};

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }

__device__ __forceinline__ void ldmatrix_x4(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3, uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3, uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
	             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// acc[mi][ni]: the 32 x 32 sub-tile of warp `warp` (2 x 2 warps) of the C tile at (m0, n0)
__device__ __forceinline__ void
gemm_tile(const __half *__restrict__ A, const __half *__restrict__ B, int N, int K, int m0, int n0,
          int tid, GemmSmem &s, float acc[2][4][4])
{
	const int lane = tid & 31, warp = tid >> 5, warp_m = warp >> 1, warp_n = warp & 1;
	const int ktiles = K / BK;

	auto load_stage = [&](int stage, int kt) {
		const int k0 = kt * BK;
#pragma unroll
		for (int i = 0; i < 2; ++i) {
			const int c = tid + i * 128, r = c >> 2, col = (c & 3) * 8;
			cp_async_16(smem_u32(&s.As[stage][r * A_STRIDE + col]), A + (size_t)(m0 + r) * K + k0 + col);
		}
#pragma unroll
		for (int i = 0; i < 2; ++i) {
			const int c = tid + i * 128, r = c >> 3, col = (c & 7) * 8;
			cp_async_16(smem_u32(&s.Bs[stage][r * B_STRIDE + col]), B + (size_t)(k0 + r) * N + n0 + col);
		}
	};
#pragma unroll
	for (int i = 0; i < 2; ++i)
#pragma unroll
		for (int j = 0; j < 4; ++j)
#pragma unroll
			for (int e = 0; e < 4; ++e)
				acc[i][j][e] = 0.0f;
	load_stage(0, 0);
	cp_async_commit();
	for (int kt = 0; kt < ktiles; ++kt) {
		const int stage = kt & 1;
		if (kt + 1 < ktiles) {
			load_stage(stage ^ 1, kt + 1);
			cp_async_commit();
			cp_async_wait<1>();
		} else {
			cp_async_wait<0>();
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			uint32_t a[2][4], b[4][2];
#pragma unroll
			for (int mi = 0; mi < 2; ++mi) {
				const int r = warp_m * 32 + mi * 16 + (lane & 15), c = kk + (lane >> 4) * 8;
				ldmatrix_x4(a[mi][0], a[mi][1], a[mi][2], a[mi][3], smem_u32(&s.As[stage][r * A_STRIDE + c]));
			}
#pragma unroll
			for (int nj = 0; nj < 2; ++nj) {
				const int r = kk + (lane & 15), c = warp_n * 32 + nj * 16 + (lane >> 4) * 8;
				ldmatrix_x4_trans(b[2 * nj][0], b[2 * nj][1], b[2 * nj + 1][0], b[2 * nj + 1][1],
				                  smem_u32(&s.Bs[stage][r * B_STRIDE + c]));
			}
#pragma unroll
			for (int mi = 0; mi < 2; ++mi)
#pragma unroll
				for (int ni = 0; ni < 4; ++ni)
					mma_16816(acc[mi][ni], a[mi], b[ni][0], b[ni][1]);
		}
		__syncthreads();
	}
}

__device__ __forceinline__ float silu(float x) { return x / (1.0f + expf(-x)); }
