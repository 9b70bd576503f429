// bandwidth.cu -- calibration microbenchmarks: streaming bandwidth of DRAM and L2.
//
// Method (STREAM-style, as RRZE gpu-stream and gpu-l2-cache): a grid-stride loop over float4
// elements with enough CTAs to fill every SM; bandwidth = bytes moved / (cycles / clock), where
// the host takes the cycles of the whole launch from fiberGetStats. copy_f4 reads and writes;
// read_f4 only reads, through ld.global.cg (L1 bypassed), summing so that the loads are live.
// The model's caches start cold at each launch, so a single read pass streams from DRAM; the L2
// bandwidth is the difference between a launch of P passes over a footprint that fits L2 and a
// launch of one pass: (P - 1) x footprint / (cycles(P) - cycles(1)).
//
// Kernels:
//   copy_f4(float4 *dst, const float4 *src, int n4)           dst[i] = src[i], i < n4
//   read_f4(float *out, const float4 *src, int n4, int passes)
//     out[thread] = sum over passes and the thread's elements of x + y + z + w
// Launch: 1-D, e.g. 4 x SMs CTAs of 512 threads (2048 threads per SM).
extern "C" __global__ void
copy_f4(float4 *__restrict__ dst, const float4 *__restrict__ src, int n4)
{
    int stride = gridDim.x * blockDim.x;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        dst[i] = src[i];
}

extern "C" __global__ void
read_f4(float *__restrict__ out, const float4 *__restrict__ src, int n4, int passes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    float sum = 0;

    for (int p = 0; p < passes; p++)
        for (int i = tid; i < n4; i += stride) {
            float4 v = __ldcg(src + i);
            sum += (v.x + v.y) + (v.z + v.w);
        }
    out[tid] = sum;
}
