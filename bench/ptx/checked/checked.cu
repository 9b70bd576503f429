// bench/ptx/checked/checked.cu: a kernel with a device assert for `make ptx-bench` (issue 23):
// `call.uni __assertfail` in nvcc's PTX, which fiberc calls as nvcc's SASS does. The assert holds
// for the bench's inputs (they are small non-negative numbers), so the call is never made.
//   nvcc -arch=sm_80 -ptx checked.cu -o checked.sm_80.ptx   (sass-dump for the listing)
#include <cassert>

extern "C" __global__ void checked_scale(const int *a, int *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		assert(a[i] >= 0);
		b[i] = a[i] * 3 + warpSize;
	}
}
