// coop.cu: cooperative groups wider than a warp and grid-wide synchronisation (tests/check_launch.c).
// Listings: sass-dump -a sm_80 coop.cu -o coop.sm_80.sass (and -a sm_90 ->
// coop.sm_90.sass), nvcc 13 with nvdisasm 13.5.
//
// tile<N>: every thread of a block of 256 reads in[gid]; cg::reduce over its tiled_partition<N>
// (N = 64, 128, 256: the tile barrier and scratch live in the CTA's reserved shared memory) gives
// sum[gid / N]; after t.sync() each thread also reads its right neighbour's value (within the
// tile, wrapping) from user shared memory: nb[gid] = in of that neighbour.
// tred128: cg::reduce over tiled_partition<128> in a kernel without user shared memory (on sm_90
// nvcc then emits no .nv.shared section: the reserved 1 KiB is the CTA's whole window).
// gsum: a two-phase sum of in[0..n) over the whole grid: per-CTA partial sums, this_grid().sync(),
// then CTA 0 adds the partials; needs a cooperative launch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <int N>
__device__ void tile(const int *in, int *sum, int *nb)
{
	__shared__ int s[256];
	cg::thread_block b = cg::this_thread_block();
	cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int v = in[gid];
	int r = cg::reduce(t, v, cg::plus<int>());
	s[threadIdx.x] = v;
	t.sync();
	nb[gid] = s[threadIdx.x - t.thread_rank() + (t.thread_rank() + 1) % N];
	if (t.thread_rank() == 0)
		sum[gid / N] = r;
}

extern "C" __global__ void tile64(const int *in, int *sum, int *nb) { tile<64>(in, sum, nb); }
extern "C" __global__ void tile128(const int *in, int *sum, int *nb) { tile<128>(in, sum, nb); }
extern "C" __global__ void tile256(const int *in, int *sum, int *nb) { tile<256>(in, sum, nb); }

extern "C" __global__ void tred128(const int *in, int *sum)
{
	cg::thread_block_tile<128> t = cg::tiled_partition<128>(cg::this_thread_block());
	unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
	int r = cg::reduce(t, in[gid], cg::plus<int>());
	if (t.thread_rank() == 0)
		sum[gid / 128] = r;
}

extern "C" __global__ void gsum(const int *in, int *partial, int *out, int n)
{
	cg::grid_group g = cg::this_grid();
	__shared__ int s[256];
	int v = 0;
	for (int i = g.thread_rank(); i < n; i += g.size())
		v += in[i];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int w = blockDim.x / 2; w > 0; w /= 2) {
		if (threadIdx.x < w)
			s[threadIdx.x] += s[threadIdx.x + w];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s[0];
	g.sync();
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		int t = 0;
		for (unsigned b = 0; b < gridDim.x; b++)
			t += partial[b];
		*out = t;
	}
}
