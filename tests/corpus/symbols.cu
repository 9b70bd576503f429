// symbols.cu: module-scope variables written and read from the host (fiberMemcpyToSymbol,
// fiberMemcpyFromSymbol, fibersim run --symbol/--symbol-out): a __constant__ array (constant
// bank 3) and two __device__ variables (.nv.global), one of them updated by the kernel.
// y[i] = x[i] * coef[i % 8] + bias for i < n; the first thread adds n to counter.
// Listings: sass-dump -a sm_80 symbols.cu -o symbols.sm_80.sass (and -a sm_90),
// nvcc 13 and nvdisasm 13 -hex.
__constant__ float coef[8];
__device__ int bias;
__device__ unsigned counter;

extern "C" __global__ void apply(const float *x, float *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * coef[i & 7] + (float)bias;
  if (i == 0)
    atomicAdd(&counter, (unsigned)n);
}
