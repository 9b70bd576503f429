// stream.cu -- memory-bound synthetic kernel for bench/simbench.c: y = a*x + y over float4
// vectors with a grid-stride loop (LDG.E.128 x2, 4 FFMA, STG.E.128 per iteration; the rest is
// address arithmetic and the loop test).
//
// Kernel:  stream_axpy(const float4 *x, float4 *y, float a, int n4)
//   x, y : [n4] float4 (simbench: n4 = 2^20, 16 MiB each)
//   a    : scale (simbench: 0.5)
// Launch:  any 1-D grid and block (simbench: 256 x 1 x 1 blocks of 256 threads)
extern "C" __global__ void __launch_bounds__(1024)
stream_axpy(const float4 *__restrict__ x, float4 *__restrict__ y, float a, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        const float4 u = x[i];
        float4 v = y[i];
        v.x = fmaf(a, u.x, v.x);
        v.y = fmaf(a, u.y, v.y);
        v.z = fmaf(a, u.z, v.z);
        v.w = fmaf(a, u.w, v.w);
        y[i] = v;
    }
}
