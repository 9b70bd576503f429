// sync.cu: kernels for fibersim --synccheck (tests/checks.sh): barrier misuse it must report, and
// a kernel with correct barriers it must not. nvcc -O3 -cubin, nvdisasm -hex; sm_80 and sm_90.

// __syncthreads() inside a branch that splits every warp: lanes 0..15 reach it, 16..31 do not
extern "C" __global__ void bar_divergent(const int *in, int *out)
{
	__shared__ int s[256];
	int t = threadIdx.x;
	s[t] = in[t];
	if ((t & 31) < 16) {
		s[t] += 1;
		__syncthreads();
	}
	out[t] = s[t];
}

// __syncwarp(mask) in a branch taken by lanes 16..31, mask a parameter: 0x0000ffff does not
// include them (a constant mask, or a converged warp, nvcc compiles to nothing)
extern "C" __global__ void warpsync_bad(const int *in, int *out, unsigned mask)
{
	__shared__ int s[256];
	int t = threadIdx.x, v = in[t];
	if ((t & 31) >= 16) {
		s[t] = v;
		__syncwarp(mask);
		v = s[t ^ 1];
	}
	out[t] = v + 1;
}

// correct barriers: __syncthreads() by every thread, __syncwarp() by the whole warp, and
// __syncwarp(mask) by the lanes of mask
extern "C" __global__ void sync_ok(const int *in, int *out)
{
	__shared__ int s[256];
	int t = threadIdx.x;
	s[t] = in[t];
	__syncthreads();
	int v = s[(t + 1) & 255];
	__syncwarp();
	if ((t & 31) < 16)
		__syncwarp(0x0000ffffu);
	out[t] = v;
}
