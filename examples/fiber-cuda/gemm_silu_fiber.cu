// gemm_silu_fiber.cu -- C = silu(A B) as a persistent FIBER-native kernel: a CTA of 128 fibers
// per SM loops over the 64x64 tiles (stride gridDim.x; a kernel with SETFIBERNUM owns its SM);
// each tile's main loop is gemm_tile.cuh's (cp.async + ldmatrix + mma.sync on 4 wefts), the
// accumulators go to shared memory, SETFIBERNUM 512 gives the silu epilogue one fiber per 8
// elements (new fibers read the tile's index from shared memory: their windows start zeroed),
// SETFIBERNUM 128 returns to the main loop. Same arguments as gemm_silu_simt.cu; launch: grid
// min(tiles, SMs), block 128.
#include "gemm_tile.cuh"
#include "fiber_device.cuh"

#define CS_STRIDE (BN + 4)   // floats per row of the staged tile

extern "C" __global__ void __launch_bounds__(128)
gemm_silu_fiber(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
                int M, int N, int K)
{
	__shared__ __align__(16) GemmSmem s;
	__shared__ __align__(16) float Cs[BM * CS_STRIDE];
	__shared__ int tile_sh;
	const int tiles_n = N / BN, tiles = (M / BM) * tiles_n;

	for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
		float acc[2][4][4];
		const int tid = fiber_id(), lane = tid & 31, warp = tid >> 5;
		const int m0 = (t / tiles_n) * BM, n0 = (t % tiles_n) * BN;
		gemm_tile(A, B, N, K, m0, n0, tid, s, acc);
		const int g = lane >> 2, q = lane & 3, wm = warp >> 1, wn = warp & 1;
#pragma unroll
		for (int mi = 0; mi < 2; ++mi)
#pragma unroll
			for (int ni = 0; ni < 4; ++ni) {
				const int r = wm * 32 + mi * 16 + g, c = wn * 32 + ni * 8 + 2 * q;
				*reinterpret_cast<float2 *>(&Cs[r * CS_STRIDE + c]) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
				*reinterpret_cast<float2 *>(&Cs[(r + 8) * CS_STRIDE + c]) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
			}
		if (tid == 0)
			tile_sh = t;
		fiber_set_count<512>();                 // the tile is complete in shared memory
		{
			const int f = fiber_id(), tt = tile_sh, r = f >> 3, c = (f & 7) * 8;
			const int mr = (tt / (N / BN)) * BM + r, nc = (tt % (N / BN)) * BN + c;
			const float4 v0 = *reinterpret_cast<const float4 *>(&Cs[r * CS_STRIDE + c]);
			const float4 v1 = *reinterpret_cast<const float4 *>(&Cs[r * CS_STRIDE + c + 4]);
			float *o = &C[(size_t)mr * N + nc];
			*reinterpret_cast<float4 *>(o) = make_float4(silu(v0.x), silu(v0.y), silu(v0.z), silu(v0.w));
			*reinterpret_cast<float4 *>(o + 4) = make_float4(silu(v1.x), silu(v1.y), silu(v1.z), silu(v1.w));
		}
		fiber_set_count<128>();                 // every read of Cs is done: the next tile may refill
	}
}
