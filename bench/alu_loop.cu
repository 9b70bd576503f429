// alu_loop.cu -- ALU-bound synthetic kernel for bench/simbench.c: every thread runs a dependent
// chain of FFMA and IMAD for `iters` iterations (4 fp32 + 4 integer multiply-adds each), then
// stores one value so the work is live. Nothing else touches memory.
//
// Kernel:  alu_loop(float *out, int iters)
//   out   : [gridDim.x * blockDim.x] fp32
//   iters : loop trip count (simbench: 256)
// Launch:  any 1-D grid and block (simbench: 64 x 1 x 1 blocks of 256 threads)
extern "C" __global__ void __launch_bounds__(1024)
alu_loop(float *__restrict__ out, int iters)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = tid * 1e-3f, b = 0.999f, c = 0.5f, d = 0.25f;
    unsigned x = tid, y = tid ^ 0x9e3779b9u;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        a = fmaf(a, b, c);
        c = fmaf(c, b, d);
        d = fmaf(d, b, a);
        b = fmaf(b, 0.9999f, 1e-4f);
        x = x * 1664525u + y;
        y = y * 22695477u + x;
        x = x * 134775813u + 12345u;
        y = y * 1103515245u + 54321u;
    }
    out[tid] = a + c + d + (float)(x ^ y);
}
