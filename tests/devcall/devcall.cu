// devcall.cu: kernels that call CUDA's device runtime, for tests/devcall.sh: a device assert()
// (__assertfail through .nv.constant4), printf (vprintf and its packed argument buffer),
// __trap() and __brkpt() (BPT.TRAP). Built as a release build (nvcc's default -O3) with asserts
// on: nvcc -arch=sm_XX -cubin, nvdisasm -hex, nvcc -ptx (sm_80 and sm_90).
#include <cassert>
#include <cstdio>

// out[i] = 2 in[i]; every thread asserts in[i] >= 0
extern "C" __global__ void check_pos(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		assert(in[i] >= 0);
		out[i] = in[i] * 2;
	}
}

// one line per thread with the conversions CUDA's printf knows
extern "C" __global__ void say(const int *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		long long big = (long long)in[i] << 33;
		printf("t%d b%d: in=%d u=%u x=%#x f=%.2f e=%e g=%g s=%s c=%c ll=%lld w=[%5d] "
		       "p=[%-4d] star=[%*d] 100%%\n", threadIdx.x, blockIdx.x, in[i], (unsigned)in[i],
		       in[i], in[i] * 0.5, in[i] * 1e6, in[i] * 0.25f, "str", 'A' + (in[i] & 15), big,
		       in[i], in[i], 3, in[i]);
	}
}

// printf, then an assert that fails in the threads with a negative input: the printed text comes
// out before the assert's lines
extern "C" __global__ void say_then_check(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (threadIdx.x == 0)
			printf("block %d starts\n", blockIdx.x);
		assert(in[i] >= 0 && "inputs are non-negative");
		out[i] = in[i];
	}
}

extern "C" __global__ void trap_if(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (in[i] < 0)
			__trap();
		out[i] = in[i] + 1;
	}
}

extern "C" __global__ void brkpt_if(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		if (in[i] < 0)
			__brkpt();
		out[i] = in[i] + 1;
	}
}
