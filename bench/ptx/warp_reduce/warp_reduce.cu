// bench/ptx/warp_reduce/warp_reduce.cu: everyday warp-level CUDA for `make ptx-bench` (issue 23):
// a row sum by warp shuffles over warpSize (`mov.u32 %r, WARP_SZ` in nvcc's PTX), one warp a row.
//   nvcc -arch=sm_80 -ptx warp_reduce.cu -o warp_reduce.sm_80.ptx   (sass-dump for the listing)
extern "C" __global__ void warp_row_sum(const float *x, float *sums, int cols)
{
	int lane = threadIdx.x % warpSize, row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
	float s = 0.0f;
	for (int c = lane; c < cols; c += warpSize)
		s += x[row * cols + c];
	for (int o = warpSize / 2; o > 0; o /= 2)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if (lane == 0)
		sums[row] = s;
}
