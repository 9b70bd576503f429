/* collective.cu: warp collectives whose lanes are diverged, for WARPSYNC.COLLECTIVE (sm_90 nvcc
 * puts each such collective in a region `WARPSYNC.COLLECTIVE Rm, `(L) ... ENDCOLLECTIVE`; sm_80
 * calls one shared subroutine). Inputs are made in the kernel from the thread's global index
 * (mix), so tests/check_collective.c computes every output on the CPU. Launch: block 128, any
 * grid; out holds one word per thread.
 *   nvcc -arch=sm_80|sm_90 -O3 -cubin collective.cu; sass-dump --disasm (the .sass beside it)
 */
#include <cuda_runtime.h>

#define FULL 0xffffffffu

__device__ __forceinline__ unsigned
mix(unsigned i)
{
	i = i * 2654435761u + 12345u;
	return i ^ (i >> 13);
}

/* two shuffle sites on the two sides of a data-dependent branch: each lane reads a lane that
 * may sit on the other side (PTX shfl.sync on sm_70+: the members may execute different
 * shfl.sync instructions), then each side goes on with its own code */
extern "C" __global__ void
coll_shfl_sites(unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	unsigned v = mix(g), r;

	if (v & 1)
		r = __shfl_sync(FULL, v, (lane + 1) & 31) * 3 + lane;
	else
		r = __shfl_sync(FULL, v ^ 0x55u, (lane + 7) & 31) ^ 0xabcu;
	out[g] = r;
}

/* a butterfly sum on each side, five collectives per side, each with its own operand */
extern "C" __global__ void
coll_bfly_sites(unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned v = mix(g) & 0xffff, s;

	if (v & 2) {
		s = v;
		for (int o = 16; o; o >>= 1)
			s += __shfl_xor_sync(FULL, s, o);
	} else {
		s = 3 * v + 1;
		for (int o = 16; o; o >>= 1)
			s += __shfl_xor_sync(FULL, s, o);
	}
	out[g] = s;
}

/* ballot and reduce on the two sides: each lane's own predicate and operand */
extern "C" __global__ void
coll_vote_sites(unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned v = mix(g), r;

	if (v & 4)
		r = __ballot_sync(FULL, v & 8) + __reduce_add_sync(FULL, v & 0xff);
	else
		r = __ballot_sync(FULL, v & 16) + __reduce_add_sync(FULL, (v >> 8) & 0xff);
	out[g] = r;
}

/* lanes 24..31 have exited: the collective waits for the live lanes of its mask only (bar.warp.sync:
 * "non-exited threads"); every lane reads a live lane */
extern "C" __global__ void
coll_exited(unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	unsigned v = mix(g), r;

	out[g] = 0;
	if (lane >= 24)
		return;
	if (v & 1)
		r = __shfl_sync(FULL, v, (lane + 3) % 24);
	else
		r = __shfl_sync(FULL, v + 1, (lane + 5) % 24);
	out[g] = r;
}

/* undefined in PTX: lane 3 never reaches the shuffle the others wait at (it waits at the CTA
 * barrier they never reach): the simulator must fault (deadlock), not return a value */
extern "C" __global__ void
coll_missing(unsigned *out)
{
	unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	unsigned v = mix(g), r = 0;

	if (lane == 3)
		__syncthreads();
	else if (v & 1)
		r = __shfl_sync(FULL, v, 0);
	else
		r = __shfl_sync(FULL, v, 1);
	out[g] = r;
}
