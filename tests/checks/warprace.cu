// warprace.cu: hazards between lanes of one warp (tests/checks.sh, docs/sim.md "Checks"). On
// sm_70+ the lanes of a warp are not implicitly ordered (independent thread scheduling): a
// value one lane stores into shared memory and another lane of the same warp then reads needs
// __syncwarp() between, as compute-sanitizer's racecheck reports. nvcc -arch=sm_XX -cubin
// (release build), nvdisasm -hex; sm_80 and sm_90. Launch with one warp or more.

// each lane stores its value, then reads its neighbour's with no __syncwarp(): a RAW hazard
// between lanes of the warp (the legacy warp-synchronous shift)
extern "C" __global__ void lane_racy(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31, base = t - lane;
	s[t] = x[t];
	y[t] = s[base + ((lane + 1) & 31)];
}

// the same with the __syncwarp() that orders the stores before the loads
extern "C" __global__ void lane_fixed(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31, base = t - lane;
	s[t] = x[t];
	__syncwarp();
	y[t] = s[base + ((lane + 1) & 31)];
}

// a warp-synchronous tree sum in shared memory: __syncwarp() between the reads of one step and
// the writes of the next orders them (the reads and the write of one step are one lane's)
extern "C" __global__ void lane_tree(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31, base = t - lane;
	s[t] = x[t];
	__syncwarp();
	for (int o = 16; o; o >>= 1) {
		int v = 0;
		if (lane < o)
			v = s[t] + s[t + o];
		__syncwarp();
		if (lane < o)
			s[t] = v;
		__syncwarp();
	}
	if (lane == 0)
		y[t >> 5] = s[base];
}

// diverged halves: the low half stores, syncs its own lanes (WARPSYNC 0x0000ffff), then reads a
// neighbour's store within the half: ordered, silent
extern "C" __global__ void half_fixed(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31, base = t - lane;
	if (lane < 16) {
		s[t] = x[t];
		__syncwarp(0x0000ffff);
		y[t] = s[base + ((lane + 1) & 15)];
	}
}

// the high half reads the low half's stores after a __syncwarp() of its own lanes only, which
// does not order it with the low half: a RAW hazard between lanes of the warp
extern "C" __global__ void half_racy(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31;
	if (lane < 16) {
		s[t] = x[t];
	} else {
		__syncwarp(0xffff0000);
		y[t] = s[t - 16];
	}
}

// the mask a parameter (launch with 0xffffffff): a WARPSYNC with a register or constant mask,
// after stores on two diverged paths; ordered, silent
extern "C" __global__ void mask_fixed(const int *x, int *y, unsigned m)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31, base = t - lane;
	if (x[t] & 1)
		s[t] = x[t] * 3;
	else
		s[t] = x[t] >> 1;
	__syncwarp(m);
	y[t] = s[base + ((lane + 1) & 31)];
}

// the halves of the warp on two paths, each with its own __syncwarp(): on sm_70+ the two calls
// meet (a WARPSYNC 0xffffffff that waits for the other half, in nvcc's warpsync routine), so each
// half's store is ordered before the other half's read; silent
extern "C" __global__ void split_fixed(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31;
	if (lane < 16) {
		s[t] = x[t] + 1;
		__syncwarp();
		y[t] = s[t + 16] * 3;
	} else {
		s[t] = x[t] - 1;
		__syncwarp();
		y[t] = s[t - 16] ^ 5;
	}
}

// the same without the __syncwarp() calls: each half reads what the other half stores
extern "C" __global__ void split_racy(const int *x, int *y)
{
	__shared__ int s[1024];
	int t = threadIdx.x, lane = t & 31;
	if (lane < 16) {
		s[t] = x[t] + 1;
		y[t] = s[t + 16] * 3;
	} else {
		s[t] = x[t] - 1;
		y[t] = s[t - 16] ^ 5;
	}
}
