// racy.cu: kernels for fibersim's checks (tests/checks.sh): shared-memory hazards that
// racecheck must find, and the same kernels with the barrier that orders them, which it must
// not report. nvcc -arch=sm_XX -cubin (release build), nvdisasm -hex; sm_80 and sm_90.

// the bug of a public softmax kernel: warp 0 stores the row's sum into s[0] while the other
// warps may still be reading the maximum stored there (no barrier between): a WAR hazard
extern "C" __global__ void norm_racy(const float *x, float *y, int n)
{
	__shared__ float s[32];
	int t = threadIdx.x, lane = t & 31, warp = t >> 5;
	float v = t < n ? x[t] : -1e30f, m = v;
	for (int o = 16; o; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
	if (lane == 0)
		s[warp] = m;
	__syncthreads();
	if (warp == 0) {
		m = lane < blockDim.x / 32 ? s[lane] : -1e30f;
		for (int o = 16; o; o >>= 1)
			m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
		if (lane == 0)
			s[0] = m;
	}
	__syncthreads();
	float mx = s[0];
	float e = t < n ? __expf(v - mx) : 0.f, sum = e;
	for (int o = 16; o; o >>= 1)
		sum += __shfl_xor_sync(~0u, sum, o);
	if (lane == 0)
		s[warp] = sum;        // races with the other warps' read of s[0] above
	__syncthreads();
	if (warp == 0) {
		sum = lane < blockDim.x / 32 ? s[lane] : 0.f;
		for (int o = 16; o; o >>= 1)
			sum += __shfl_xor_sync(~0u, sum, o);
		if (lane == 0)
			s[0] = sum;
	}
	__syncthreads();
	if (t < n)
		y[t] = e / s[0];
}

// the same with the barrier that orders the read of the maximum before the sums' stores
extern "C" __global__ void norm_fixed(const float *x, float *y, int n)
{
	__shared__ float s[32];
	int t = threadIdx.x, lane = t & 31, warp = t >> 5;
	float v = t < n ? x[t] : -1e30f, m = v;
	for (int o = 16; o; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
	if (lane == 0)
		s[warp] = m;
	__syncthreads();
	if (warp == 0) {
		m = lane < blockDim.x / 32 ? s[lane] : -1e30f;
		for (int o = 16; o; o >>= 1)
			m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
		if (lane == 0)
			s[0] = m;
	}
	__syncthreads();
	float mx = s[0];
	float e = t < n ? __expf(v - mx) : 0.f, sum = e;
	for (int o = 16; o; o >>= 1)
		sum += __shfl_xor_sync(~0u, sum, o);
	__syncthreads();
	if (lane == 0)
		s[warp] = sum;
	__syncthreads();
	if (warp == 0) {
		sum = lane < blockDim.x / 32 ? s[lane] : 0.f;
		for (int o = 16; o; o >>= 1)
			sum += __shfl_xor_sync(~0u, sum, o);
		if (lane == 0)
			s[0] = sum;
	}
	__syncthreads();
	if (t < n)
		y[t] = e / s[0];
}

// thread 0 publishes a value that every thread reads with no barrier: RAW (and the threads of
// warp 0 are ordered after it, the others are not)
extern "C" __global__ void publish_racy(const int *in, int *out)
{
	__shared__ int flag;
	if (threadIdx.x == 0)
		flag = in[blockIdx.x];
	out[blockIdx.x * blockDim.x + threadIdx.x] = flag;
}

// every thread stores to one word: WAW between warps
extern "C" __global__ void store_racy(int *out)
{
	__shared__ int last;
	last = threadIdx.x;
	__syncthreads();
	if (threadIdx.x == 0)
		out[blockIdx.x] = last;
}
