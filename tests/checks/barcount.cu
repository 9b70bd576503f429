// barcount.cu: a named barrier whose thread count differs between warps, for fibersim
// --synccheck (tests/checks.sh: "Mismatched barrier thread counts"). Block 128: warps 0, 2 and 3
// name 128 threads at barrier 1, warp 1 names `count` (a parameter: 128 is correct and silent,
// 64 is the mismatch). nvcc -O3 -cubin, nvdisasm -hex; sm_80 and sm_90.
extern "C" __global__ void bar_count(const int *in, int *out, int count)
{
	__shared__ int s[128];
	int t = threadIdx.x;
	int n = (t >> 5) == 1 ? count : 128;

	s[t] = in[t];
	asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory");
	out[t] = s[(t + 32) & 127];
}
