// setmaxnreg.cu -- warp specialisation's register hand-over (setmaxnreg, sm_90a), as
// FlashAttention-3 does it: the last warpgroup (a producer) gives registers back to the CTA's
// pool with setmaxnreg.dec, the first two (consumers) take them with setmaxnreg.inc. The
// consumers come first in warp order, so their USETMAXREG.TRY_ALLOC fails until the producer has
// run its USETMAXREG.DEALLOC, and nvcc's retry loop spins (docs/sim-wgmma.md).
//
// Kernel:  k_wspec(float *out, const float *in, int n)
//   out[t] = in[t] for the producer threads (t >= 256); for the consumers the sum over i < 48 of
//   acc_i after n rounds of acc_i = acc_i * 1.0001f + (k + i), acc_i = in[t + 384 i].
// Launch:  grid 1, block 384 (three warpgroups), __launch_bounds__(384, 1): 168 registers per
//          thread at launch; 2 x 128 x (232 - 168) = 128 x (168 - 40) registers change hands.
extern "C" __device__ __noinline__ float work(float x, int i) { return x * 1.0001f + (float)i; }
extern "C" __global__ void __launch_bounds__(384, 1) k_wspec(float *out, const float *in, int n)
{
    float acc[48];
    for (int i = 0; i < 48; i++)
        acc[i] = in[threadIdx.x + i * 384];
    if (threadIdx.x >= 256) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        out[threadIdx.x] = acc[0];
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        for (int k = 0; k < n; k++)
            for (int i = 0; i < 48; i++)
                acc[i] = work(acc[i], k + i);
        float s = 0;
        for (int i = 0; i < 48; i++)
            s += acc[i];
        out[threadIdx.x] = s;
    }
}
