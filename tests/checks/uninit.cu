// uninit.cu: kernels for fibersim --initcheck (tests/checks.sh): a read of global memory that
// neither the host nor the kernel wrote, and the same kernel reading only what it wrote.
// nvcc -O3 -cubin, nvdisasm -hex; sm_80 and sm_90.

// out[i] = in[i] + scratch[i]: scratch is a buffer nobody wrote (initcheck finds its reads)
extern "C" __global__ void add_scratch(const int *in, const int *scratch, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[i] + scratch[i];
}

// the kernel writes scratch[i] first, then reads it back: every read is of written memory
extern "C" __global__ void fill_then_add(const int *in, int *scratch, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	scratch[i] = 2 * in[i];
	__threadfence();
	out[i] = in[i] + ((volatile int *)scratch)[i];
}
