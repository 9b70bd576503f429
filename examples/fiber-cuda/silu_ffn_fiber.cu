// silu_ffn_fiber.cu -- the SiLU-gated FFN elementwise step (SwiGLU) of examples/silu_ffn as a
// FIBER-native kernel in CUDA: out = silu(gate) * up, fp16, the same arithmetic as
// silu_ffn.cu. Launched with 64 fibers a CTA, SETFIBERNUM 256 for the elementwise phase (a
// grid-stride loop over gridDim.x * fiber_count(), so fiber_dp = 0 computes the same),
// SETFIBERNUM 64 after it: the CUDA counterpart of examples/fiber-native/silu_mul_fiber.vfsass.
// Kernel: silu_mul_f16(gate, up, out, n2), n2 = half2 pairs. Launch: grid 4, block 64.
#include <cuda_fp16.h>
#include "fiber_device.cuh"

__device__ __forceinline__ float silu(float g) { return g / (1.0f + expf(-g)); }

extern "C" __global__ void __launch_bounds__(64)
silu_mul_f16(const __half2 *__restrict__ gate, const __half2 *__restrict__ up,
             __half2 *__restrict__ out, int n2)
{
	fiber_set_count<256>();
	const int stride = gridDim.x * fiber_count();
	for (int i = blockIdx.x * fiber_count() + fiber_id(); i < n2; i += stride) {
		const float2 g = __half22float2(gate[i]);
		const float2 u = __half22float2(up[i]);
		out[i] = __floats2half2_rn(silu(g.x) * u.x, silu(g.y) * u.y);
	}
	fiber_set_count<64>();
}
