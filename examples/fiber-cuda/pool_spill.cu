// pool_spill.cu -- spilling to a pool (docs/pass-regalloc.md "Spilling to a pool"): one weft of
// 32 fibers per CTA, each fiber holding a row of 288 ints in registers (y = 288 x - the row's
// weighted sum), more than a window can hold (R0..R254): fiberc spills. The kernel owns its SM
// (fiber_set_count, an SM-wide sync), and one weft leaves 257 registers of its slice unused, so
// the spill slots go to a pool of slice 0 (MOV to and from it) instead of local memory
// (STL/LDL); `fiberc --fiber-spill=local` gives the local-memory version to compare.
// Kernel: wide_rows(x, y); launch: block 32, grid G, x and y of G * 32 * 288 ints.
#include "fiber_device.cuh"

#define W 288

extern "C" __global__ void __launch_bounds__(32)
wide_rows(const int *__restrict__ x, int *__restrict__ y)
{
	fiber_set_count<32>();                  // the count it has: makes the kernel own its SM
	const int row = blockIdx.x * 32 + fiber_id();
	int v[W], s = 0;
#pragma unroll
	for (int j = 0; j < W; j++)
		v[j] = x[row * W + j];
#pragma unroll
	for (int j = 0; j < W; j++)
		s += v[j] * (j % 7 + 1);
#pragma unroll
	for (int j = 0; j < W; j++)
		y[row * W + j] = W * v[j] - s;
}
