// bench/ptx/bf16_ops/bf16_ops.cu: everyday bf16 CUDA for `make ptx-bench` (issue 23): an axpy on
// bf16 vectors through float (__bfloat162float is `mov.b32 %f, {0, %rs}` in nvcc's PTX for sm_80)
// and a bf16x2 scale-and-bias with the packed intrinsics.
//   nvcc -arch=sm_80 -ptx bf16_ops.cu -o bf16_ops.sm_80.ptx   (sass-dump for the listing)
#include <cuda_bf16.h>

extern "C" __global__ void bf16_axpy(const __nv_bfloat16 *x, __nv_bfloat16 *y, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __float2bfloat16(a * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}

extern "C" __global__ void bf16x2_scale_bias(const __nv_bfloat162 *x, const __nv_bfloat162 *s,
                                             __nv_bfloat162 *y, int n2)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
		__nv_bfloat162 v = __hfma2(x[i], s[i & 63], s[(i & 63) + 64]);
		y[i] = __hmax2(v, __float2bfloat162_rn(0.0f));
	}
}
