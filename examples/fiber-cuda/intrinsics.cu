// intrinsics.cu: one small kernel per FIBER intrinsic of fiber_device.cuh, for
// tests/check_fibercuda.c (each checked against its CPU reference on a100-fiber and h100-fiber,
// functional and timing). Compiled with `nvcc -arch=sm_80 -O3 -ptx` (intrinsics.ptx, committed).
#include "fiber_device.cuh"
#include <cuda_fp16.h>

// 32 launched fibers -> 128: out[i] = 1000 i + 128 (i < 128); back to 32: out[128] = 32
extern "C" __global__ void __launch_bounds__(32)
k_count(unsigned *out)
{
	fiber_set_count<128>();
	unsigned id = fiber_id();
	out[id] = 1000 * id + fiber_count();
	fiber_set_count<32>();
	if (fiber_id() == 0)
		out[128] = fiber_count();
}

// with the new wefts' window size: 32 -> 96 fibers, out[i] = 3 i + weft
extern "C" __global__ void __launch_bounds__(32)
k_window(unsigned *out)
{
	fiber_set_count<96, 8>();
	unsigned id = fiber_id();
	out[id] = 3 * id + fiber_weft();
}

// a count known at run time (the same in every weft), contexts reserved for 256:
// out[i] = n for i < n, then back to 32 fibers: out[n] = 32 + lane 0's weft (0)
extern "C" __global__ void __launch_bounds__(32)
k_runtime_count(unsigned *out, unsigned n)
{
	fiber_reserve<256>();
	fiber_set_count(n);
	out[fiber_id()] = fiber_count();
	fiber_set_count(32u);
	if (fiber_id() == 0)
		out[n] = fiber_count() + fiber_weft();
}

// weft 0 hands `rounds` values to weft 1 through slot 3 (busy bits order every round):
// out[32 r + l] = 2 in[32 r + l] + 1 + r
extern "C" __global__ void __launch_bounds__(64)
k_sendrecv(const unsigned *in, unsigned *out, int rounds)
{
	unsigned lane = fiber_lane();
	if (fiber_weft() == 0) {
		for (int r = 0; r < rounds; r++)
			fiber_send<3>(2 * in[32 * r + lane] + 1);
	} else {
		for (int r = 0; r < rounds; r++)
			out[32 * r + lane] = fiber_recv<3, 0>() + r;
	}
}

// slots read after a barrier, no busy-bit protocol: every weft stores 100 w + lane in slot 5,
// then reads weft (w + 1) % 4's: out[i] = 100 ((w + 1) % 4) + lane
extern "C" __global__ void __launch_bounds__(128)
k_slot_peek(unsigned *out)
{
	fiber_set_count<128>();                 // owns the SM: the windows are at known places
	unsigned w = fiber_weft(), lane = fiber_lane(), v;
	fiber_slot_store<5>(100 * w + lane);
	__syncthreads();
	switch (w) {
	case 0: v = fiber_slot_load<5, 1>(); break;
	case 1: v = fiber_slot_load<5, 2>(); break;
	case 2: v = fiber_slot_load<5, 3>(); break;
	default: v = fiber_slot_load<5, 0>(); break;
	}
	out[fiber_id()] = v;
}

// a pool of 4 registers in slice 1, written by weft 1 (sub-partition 1), read by all 4 wefts:
// out[i] = in[l] + in[32 + l] + in[64 + l] + in[96 + l] + i, l = i % 32
extern "C" __global__ void __launch_bounds__(128)
k_pool(const unsigned *in, unsigned *out)
{
	typedef fiber_pool<1, 4, 1> p;
	p::declare();
	unsigned lane = fiber_lane();
	if (fiber_weft() == 1) {
		p::wait_empty<0, 4>();
		p::store<0>(in[lane]);
		p::store<1>(in[32 + lane]);
		p::store<2>(in[64 + lane]);
		p::store<3>(in[96 + lane]);
	}
	p::wait_full<0, 4>();
	unsigned s = p::load<0>() + p::load<1>() + p::load<2>() + p::load<3>();
	out[fiber_id()] = s + fiber_id();
	__syncthreads();
	if (fiber_weft() == 1)
		p::set_empty<0, 4>();
}

// one m16n8k16 B fragment in a pool, shared by the 4 wefts' MMAs: C[16 w + r][n] =
// sum_k A[16 w + r][k] Bt[n][k] (A: 64x16 row-major, Bt: 8x16, C: 64x8, f16 in, f32 out)
extern "C" __global__ void __launch_bounds__(128)
k_mma_pool(const __half *A, const __half *Bt, float *C)
{
	typedef fiber_pool<2, 2, 0> bp;
	bp::declare();
	unsigned w = fiber_weft(), l = fiber_lane(), g = l >> 2, t = l & 3;
	const unsigned *b32 = (const unsigned *)Bt, *a32 = (const unsigned *)(A + 16 * 16 * w);
	if (w == 0) {
		bp::store<0>(b32[(g * 16 + 2 * t) / 2]);
		bp::store<1>(b32[(g * 16 + 2 * t + 8) / 2]);
	}
	bp::wait_full<0, 2>();
	unsigned a[4] = { a32[(g * 16 + 2 * t) / 2], a32[((g + 8) * 16 + 2 * t) / 2],
	                  a32[(g * 16 + 2 * t + 8) / 2], a32[((g + 8) * 16 + 2 * t + 8) / 2] };
	float c[4] = { 0, 0, 0, 0 }, d[4];
	bp::mma_b<0>(d, a, c);
	float *cw = C + 16 * 8 * w;
	cw[g * 8 + 2 * t] = d[0];
	cw[g * 8 + 2 * t + 1] = d[1];
	cw[(g + 8) * 8 + 2 * t] = d[2];
	cw[(g + 8) * 8 + 2 * t + 1] = d[3];
	__syncthreads();
	if (w == 0)
		bp::set_empty<0, 2>();
}
