// semantics.cu: warp-level semantics on code nvcc writes (issue 12): shared-memory atomics with
// an unused result, cooperative-groups tiles of every width up to a warp, coalesced, labeled and
// binary partitions, a two-level shuffle scan with a partial mask, __syncwarp with divergent masks,
// warps spinning on a flag (NANOSLEEP, YIELD). tests/check_semantics.c checks them (PTX ISA).
// Listings: sass-dump -a sm_80 semantics.cu -o semantics.sm_80.sass (and sm_90),
// nvcc 13 with its default -O3.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// histogram of t % 8 and t % 5 in shared memory (ATOMS.POPC.INC), of t % 3 in global (RED)
extern "C" __global__ void k_count(int *out, int *gcount) {
  __shared__ int h[16];
  int t = threadIdx.x;
  if (t < 16) h[t] = 0;
  __syncthreads();
  atomicAdd(&h[t % 8], 1);
  if (t & 1) atomicAdd(&h[8 + t % 5], 1);
  atomicAdd(&gcount[t % 3], 1);
  __syncthreads();
  if (t < 16) out[t] = h[t];
}

template <unsigned N, typename P> __device__ int tile_ops(cg::thread_block_tile<N, P> g, int v) {
  int r = cg::reduce(g, v, cg::plus<int>());
  int s = cg::inclusive_scan(g, v);
  int x = cg::exclusive_scan(g, v, cg::bit_xor<int>());
  int b = g.shfl(v, N - 1) + g.shfl_down(v, 1) + g.shfl_up(v, 1) + g.shfl_xor(v, N / 2 ? N / 2 : 0);
  // ballot/any/all of a tile narrower than the warp: nvcc's converged fast path is a plain VOTE
  // of every active lane (__ballot_sync: "... and the Nth thread is active"); only the warp is
  // checked here
  int vote = N == 32 ? 11 * (int)g.ballot(v & 1) + 13 * g.any(v > 50) + 17 * g.all(v > 2) : 0;
  g.sync();
  return r + 3 * s + 5 * (g.thread_rank() ? x : 0) + 7 * b + vote + 19 * (int)g.thread_rank() +
         23 * (int)g.meta_group_rank();
}

// every tile width: out[w * n + t] for w = 0..5 (widths 1 2 4 8 16 32)
extern "C" __global__ void k_tiles(int *out, const int *in) {
  cg::thread_block b = cg::this_thread_block();
  int t = threadIdx.x, n = blockDim.x, v = in[t];
  out[0 * n + t] = tile_ops(cg::tiled_partition<1>(b), v);
  out[1 * n + t] = tile_ops(cg::tiled_partition<2>(b), v);
  out[2 * n + t] = tile_ops(cg::tiled_partition<4>(b), v);
  out[3 * n + t] = tile_ops(cg::tiled_partition<8>(b), v);
  out[4 * n + t] = tile_ops(cg::tiled_partition<16>(b), v);
  out[5 * n + t] = tile_ops(cg::tiled_partition<32>(b), v);
}

// the threads with an odd input form a coalesced group
extern "C" __global__ void k_coalesced(int *out, const int *in) {
  int t = threadIdx.x, v = in[t];
  out[t] = -1;
  if (v & 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    int r = cg::reduce(g, v, cg::plus<int>());
    int s = cg::inclusive_scan(g, v);
    out[t] = r + 1000 * (int)g.size() + 100000 * (int)g.thread_rank() + 7 * s + 3 * g.shfl(v, 0);
  }
}

// labeled partition by in % 3 and binary partition by in > 40 of each warp
extern "C" __global__ void k_labeled(int *out, const int *in) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  int t = threadIdx.x, n = blockDim.x, v = in[t];
  cg::coalesced_group l = cg::labeled_partition(w, v % 3);
  int rl = cg::reduce(l, v, cg::plus<int>());
  int ml = cg::reduce(l, v, cg::greater<int>());
  out[t] = rl + 10000 * (int)l.size() + 1000000 * (int)l.thread_rank();
  out[n + t] = ml + 1000 * cg::inclusive_scan(l, v);
  cg::coalesced_group p = cg::binary_partition(w, v > 40);
  out[2 * n + t] = cg::reduce(p, v, cg::plus<int>()) + 10000 * (int)p.size() + 1000000 * (int)p.thread_rank();
}

// block-wide inclusive scan: a shuffle scan per warp, then warp 0's first nwarp lanes scan the
// warp totals with a partial member mask (blockDim.x = 32 * nwarp, nwarp < 32)
extern "C" __global__ void k_scan2(int *out, const int *in) {
  __shared__ int tot[32];
  int t = threadIdx.x, lane = t & 31, wid = t >> 5, nw = blockDim.x >> 5, v = in[t];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += u;
  }
  if (lane == 31) tot[wid] = v;
  __syncthreads();
  if (t < nw) {
    unsigned m = (1u << nw) - 1;
    int s = tot[t];
    for (int d = 1; d < nw; d <<= 1) {
      int u = __shfl_up_sync(m, s, d);
      if (t >= d) s += u;
    }
    tot[t] = s;
  }
  __syncthreads();
  if (wid > 0) v += tot[wid - 1];
  out[t] = v;
}

// __syncwarp with divergent masks: the low half exchanges through shared memory under
// __syncwarp(0x0000ffff) in a data-dependent loop; then the whole warp meets at __syncwarp() and
// the high half reads what the low half wrote last
extern "C" __global__ void k_syncwarp(int *out, const int *in) {
  __shared__ int s[32];
  int t = threadIdx.x & 31, v = in[threadIdx.x];
  s[t] = v;
  __syncwarp();
  if (t < 16) {
    for (int k = 0; k < in[0]; k++) {
      int u = s[(t + 1) & 15];
      __syncwarp(0x0000ffff);
      s[t] = u + v;
      __syncwarp(0x0000ffff);
    }
  }
  __syncwarp();
  out[threadIdx.x] = s[t ^ 16] + s[t];
}

// a flag set by the last warp: the others spin on a volatile shared load between barriers
extern "C" __global__ void k_spin(int *out, int rounds) {
  __shared__ volatile int flag;
  __shared__ int acc;
  int t = threadIdx.x;
  if (t == 0) { flag = 0; acc = 0; }
  __syncthreads();
  for (int r = 0; r < rounds; r++) {
    if (t == blockDim.x - 1) { atomicAdd(&acc, r); flag = r + 1; }
    else if ((t & 31) == 0) while (flag != r + 1) __nanosleep(100);
    __syncthreads();
  }
  out[t] = acc + flag;
}

// the same without __nanosleep: nvcc puts a YIELD in the loop of a volatile load
extern "C" __global__ void k_spin_yield(int *out, int rounds) {
  __shared__ volatile int flag;
  int t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  for (int r = 0; r < rounds; r++) {
    if (t == blockDim.x - 1) flag = r + 1;
    else if ((t & 31) == 0) while (flag != r + 1) ;
    __syncthreads();
  }
  out[t] = flag;
}
