// tma_copy.cu: the tensor memory accelerator (cp.async.bulk.tensor, tile mode) for fibersim's
// sm_90a model (sim/exec_tma.c): tensor maps come from fiberTensorMapEncodeTiled or fibersim's
// --arg tmap:. Built with nvcc 13 -arch=sm_90a; the committed listing is tma_copy.sm_90a.sass.
//   tma_tile      each CTA loads a 32 x 16 box of an f32 matrix at (32 bx, 16 by) into shared
//                 memory (out-of-bounds elements filled), computes v * 2 + 1 reading the box
//                 through the swizzle its map names (swz: 0 none, 1/2/3: 32/64/128-byte), and
//                 stores the box through a second, unswizzled map (out-of-bounds not written)
//   tma_box3      a 3D box (8 x 4 x 2, element strides 1 x 2 x 1) copied out to a dense array
//   tma_pipeline  warp 0 loads row blocks through TMA into a 4-stage ring of full/empty
//                 mbarriers; warps 1..4 wait on the full barrier's parity and sum each row
#include <cstdint>
#include <cuda.h>

__device__ static inline uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ static inline void mbar_init(uint32_t b, uint32_t n)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n));
}

__device__ static inline void mbar_wait(uint32_t b, uint32_t parity)
{
	asm volatile("{ .reg .pred p; WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
	             "@!p bra WAIT_%=; }" :: "r"(b), "r"(parity) : "memory");
}

__device__ static inline void expect_tx(uint32_t b, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
}

__device__ static inline void tma_load_2d(uint32_t dst, const CUtensorMap *m, int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
	             " [%0], [%1, {%2, %3}], [%4];" :: "r"(dst), "l"(m), "r"(x), "r"(y), "r"(bar) : "memory");
}

__device__ static inline void tma_store_2d(const CUtensorMap *m, int x, int y, uint32_t src)
{
	asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
	             :: "l"(m), "r"(x), "r"(y), "r"(src) : "memory");
	asm volatile("cp.async.bulk.commit_group;");
	asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

enum { BX = 32, BY = 16 };

// the byte offset of o in a box swizzled in 16-byte chunks (CUTLASS's Swizzle<s,4,3>)
__device__ static inline uint32_t swizzle(uint32_t o, int swz)
{
	uint32_t mask = swz == 3 ? 7 : swz == 2 ? 3 : swz == 1 ? 1 : 0;
	return o ^ ((o >> 7 & mask) << 4);
}

extern "C" __global__ void tma_tile(const __grid_constant__ CUtensorMap in,
                                    const __grid_constant__ CUtensorMap out, int swz)
{
	__shared__ alignas(1024) float a[BX * BY];
	__shared__ alignas(128) float b[BX * BY];
	__shared__ alignas(8) uint64_t bar;
	uint32_t sb = smem_u32(&bar);

	if (threadIdx.x == 0) {
		mbar_init(sb, 1);
		asm volatile("fence.mbarrier_init.release.cluster;");
		asm volatile("prefetch.tensormap [%0];" :: "l"(&in) : "memory");
		expect_tx(sb, sizeof a);
		tma_load_2d(smem_u32(a), &in, blockIdx.x * BX, blockIdx.y * BY, sb);
	}
	__syncthreads();
	mbar_wait(sb, 0);
	for (int i = threadIdx.x; i < BX * BY; i += blockDim.x) {
		float v = *(const float *)((const char *)a + swizzle(i * 4, swz));
		b[i] = v * 2.0f + 1.0f;
	}
	asm volatile("fence.proxy.async.shared::cta;");
	__syncthreads();
	if (threadIdx.x == 0)
		tma_store_2d(&out, blockIdx.x * BX, blockIdx.y * BY, smem_u32(b));
}

// out[64]: the box at (x, y, z) of a 3D map (box 8 x 4 x 2, element strides 1 x 2 x 1: 8 x 2 x 2)
extern "C" __global__ void tma_box3(const __grid_constant__ CUtensorMap in, float *out, int x,
                                    int y, int z)
{
	__shared__ alignas(128) float a[64];
	__shared__ alignas(8) uint64_t bar;
	uint32_t sb = smem_u32(&bar);

	if (threadIdx.x == 0) {
		mbar_init(sb, 1);
		asm volatile("fence.mbarrier_init.release.cluster;");
		expect_tx(sb, 8 * 2 * 2 * 4);
		asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
		             " [%0], [%1, {%2, %3, %4}], [%5];"
		             :: "r"(smem_u32(a)), "l"(&in), "r"(x), "r"(y), "r"(z), "r"(sb) : "memory");
	}
	__syncthreads();
	mbar_wait(sb, 0);
	if (threadIdx.x < 32)
		out[threadIdx.x] = a[threadIdx.x];
}

enum { Stages = 4, Consumers = 4, Rows = 8, Cols = 64 };

// in: a (tiles * Rows * gridDim.x) x Cols f32 matrix through a map of box Cols x Rows;
// sums[r] = the sum of row r (a warp per row, in a fixed order)
extern "C" __global__ void tma_pipeline(const __grid_constant__ CUtensorMap in, float *sums, int tiles)
{
	__shared__ alignas(128) float buf[Stages][Rows * Cols];
	__shared__ alignas(8) uint64_t full[Stages], empty[Stages];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int first = blockIdx.x * tiles;

	if (threadIdx.x == 0) {
		for (int s = 0; s < Stages; s++) {
			mbar_init(smem_u32(&full[s]), 1);
			mbar_init(smem_u32(&empty[s]), Consumers);
		}
		asm volatile("fence.mbarrier_init.release.cluster;");
	}
	__syncthreads();
	if (warp == 0) {
		if (lane == 0)
			for (int t = 0; t < tiles; t++) {
				int s = t % Stages;
				mbar_wait(smem_u32(&empty[s]), ((t / Stages) & 1) ^ 1);
				expect_tx(smem_u32(&full[s]), sizeof buf[s]);
				tma_load_2d(smem_u32(buf[s]), &in, 0, (first + t) * Rows, smem_u32(&full[s]));
			}
		return;
	}
	for (int t = 0; t < tiles; t++) {
		int s = t % Stages;
		mbar_wait(smem_u32(&full[s]), (t / Stages) & 1);
		for (int r = warp - 1; r < Rows; r += Consumers) {
			float v = buf[s][r * Cols + lane] + buf[s][r * Cols + 32 + lane];
			for (int o = 16; o; o /= 2)
				v += __shfl_xor_sync(0xffffffff, v, o);
			if (lane == 0)
				sums[(first + t) * Rows + r] = v;
		}
		__syncwarp();
		if (lane == 0)
			asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem_u32(&empty[s])) : "memory");
	}
}
