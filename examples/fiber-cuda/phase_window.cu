// phase_window.cu -- a window per phase from the register pressure: a heavy phase on the 64
// launched fibers (each holds a row of 64 ints in registers: y = 64 x - the row's sum), then
// fiber_set_count<1024>() without a window size and a light phase on 1024 fibers (z = 3 y + 1
// over the CTA's 4096 elements). fiberc gives the SETFIBERNUM the smallest window its phase
// colours in (docs/pass-regalloc.md "A window for a SETFIBERNUM without one"): the launched
// wefts keep the kernel's window (the heavy phase's) and 1024 fibers fit a 512-register slice
// beside it; one window for all 32 wefts would leave 64 registers each and the heavy phase would
// spill. Kernel: row_center(x, y, z); launch: block 64, grid G, x, y, z of G * 4096 ints.
#include "fiber_device.cuh"

extern "C" __global__ void __launch_bounds__(64)
row_center(const int *__restrict__ x, int *__restrict__ y, int *__restrict__ z)
{
	const int row = blockIdx.x * 64 + fiber_id();
	int v[64], s = 0;
#pragma unroll
	for (int j = 0; j < 64; j++)
		v[j] = x[row * 64 + j];
#pragma unroll
	for (int j = 0; j < 64; j++)
		s += v[j];
#pragma unroll
	for (int j = 0; j < 64; j++)
		y[row * 64 + j] = 64 * v[j] - s;
	fiber_set_count<1024>();                // y is complete: one fiber per 4 elements
	const int base = blockIdx.x * 4096;
	for (int i = fiber_id(); i < 4096; i += fiber_count())
		z[base + i] = 3 * y[base + i] + 1;
}
