// gemm_silu_simt.cu -- C = silu(A B), fp16 in, fp32 out: nvcc's SIMT version of
// gemm_silu_fiber.cu (the comparison of docs/fiber-cuda.md "Examples"): one CTA per 64x64 tile,
// the main loop of gemm_tile.cuh (cp.async + ldmatrix + mma.sync), silu applied to the
// accumulators in registers. A: [M x K] row-major, B: [K x N] row-major, C: [M x N] row-major;
// M, N multiples of 64, K of 32. Launch: grid (N/64) x (M/64), block 128, no dynamic smem.
#include "gemm_tile.cuh"

extern "C" __global__ void __launch_bounds__(128)
gemm_silu_simt(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
               int M, int N, int K)
{
	__shared__ __align__(16) GemmSmem s;
	float acc[2][4][4];
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

	gemm_tile(A, B, N, K, m0, n0, tid, s, acc);
	const int g = lane >> 2, q = lane & 3, wm = warp >> 1, wn = warp & 1;
#pragma unroll
	for (int mi = 0; mi < 2; ++mi)
#pragma unroll
		for (int ni = 0; ni < 4; ++ni) {
			const int r = m0 + wm * 32 + mi * 16 + g, c = n0 + wn * 32 + ni * 8 + 2 * q;
			*reinterpret_cast<float2 *>(&C[(size_t)r * N + c]) =
				make_float2(silu(acc[mi][ni][0]), silu(acc[mi][ni][1]));
			*reinterpret_cast<float2 *>(&C[(size_t)(r + 8) * N + c]) =
				make_float2(silu(acc[mi][ni][2]), silu(acc[mi][ni][3]));
		}
}
