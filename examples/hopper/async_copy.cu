// async_copy.cu: Hopper's asynchronous copies through mbarriers, for fibersim's sm_90a model
// (sim/async.c, sim/exec_sync.c). Built with nvcc 13 -arch=sm_90a; the committed listing is
// async_copy.sm_90a.sass (examples/hopper/async_copy.mk, tests/check_async.c).
//   bulk_copy    one thread per CTA copies a 4 KiB tile in with cp.async.bulk, waits on an
//                mbarrier, every thread computes, the tile goes out with a bulk store
//   pipeline     warp 0 produces tiles into a 4-stage ring (full/empty mbarriers, parity waits),
//                warps 1..4 consume them: the producer/consumer shape of FlashAttention-3
//   mbar_forms   the mbarrier operations' results (states, pending counts, test_wait)
//   mbar_misuse  each mode a misuse the simulator must fault on (mode 0: none)
//   bulk_s2s     out[i] = 3 i through a bulk copy from shared memory to shared memory
//   bulk_reduce  acc[i] += i / 4 (f32) and umax[i] = max(umax[i], 7 i % 1000) (u32) by bulk
//                reductions from shared memory
#include <cstdint>

__device__ static inline uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ static inline void mbar_init(uint32_t b, uint32_t n)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n));
}

__device__ static inline void mbar_wait(uint32_t b, uint32_t parity)
{
	asm volatile("{ .reg .pred p; WAIT_%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; "
	             "@!p bra WAIT_%=; }" :: "r"(b), "r"(parity) : "memory");
}

__device__ static inline void bulk_in(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
	             :: "r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}

__device__ static inline void expect_tx(uint32_t b, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes));
}

enum { Tile = 1024, Stages = 4, Consumers = 4 };

extern "C" __global__ void bulk_copy(const float *in, float *out)
{
	__shared__ alignas(128) float buf[Tile];
	__shared__ alignas(8) uint64_t bar;
	uint32_t b = smem_u32(&bar);
	const float *src = in + blockIdx.x * Tile;

	if (threadIdx.x == 0) {
		mbar_init(b, 1);
		asm volatile("fence.proxy.async.shared::cta;");
	}
	__syncthreads();
	if (threadIdx.x == 0) {                      // two copies complete one phase
		asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(2048));
		bulk_in(smem_u32(buf), src, 2048, b);
		expect_tx(b, 2048);                      // the one arrival, and 2048 bytes more
		bulk_in(smem_u32(buf + 512), src + 512, 2048, b);
	}
	mbar_wait(b, 0);
	for (int i = threadIdx.x; i < Tile; i += blockDim.x)
		buf[i] = buf[i] * 2.0f + 1.0f;
	asm volatile("fence.proxy.async.shared::cta;");
	__syncthreads();
	if (threadIdx.x == 0) {
		asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
		             :: "l"(out + blockIdx.x * Tile), "r"(smem_u32(buf)), "r"(Tile * 4) : "memory");
		asm volatile("cp.async.bulk.commit_group;");
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

// in: tiles * gridDim.x tiles of Tile floats; out[i] = in[i] * in[i] + 1
extern "C" __global__ void pipeline(const float *in, float *out, int tiles)
{
	__shared__ alignas(128) float buf[Stages][Tile];
	__shared__ alignas(8) uint64_t full[Stages], empty[Stages];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int first = blockIdx.x * tiles;

	if (threadIdx.x == 0) {
		for (int s = 0; s < Stages; s++) {
			mbar_init(smem_u32(&full[s]), 1);
			mbar_init(smem_u32(&empty[s]), Consumers);
		}
		asm volatile("fence.mbarrier_init.release.cluster;");
	}
	__syncthreads();
	if (warp == 0) {
		if (lane == 0)
			for (int t = 0; t < tiles; t++) {
				int s = t % Stages;
				uint32_t ph = (t / Stages) & 1;
				mbar_wait(smem_u32(&empty[s]), ph ^ 1);
				expect_tx(smem_u32(&full[s]), Tile * 4);
				bulk_in(smem_u32(buf[s]), in + (size_t)(first + t) * Tile, Tile * 4,
				        smem_u32(&full[s]));
			}
		return;
	}
	for (int t = 0; t < tiles; t++) {
		int s = t % Stages;
		mbar_wait(smem_u32(&full[s]), (t / Stages) & 1);
		for (int i = (warp - 1) * 32 + lane; i < Tile; i += Consumers * 32) {
			float v = buf[s][i];
			out[(size_t)(first + t) * Tile + i] = v * v + 1.0f;
		}
		__syncwarp();
		if (lane == 0)
			asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(smem_u32(&empty[s])) : "memory");
	}
}

// out[0..10]: the states and answers of a fixed sequence on one barrier of count k (k >= 3)
extern "C" __global__ void mbar_forms(unsigned long long *out, int k)
{
	__shared__ alignas(8) uint64_t bar;
	uint32_t b = smem_u32(&bar), ok, pc;
	uint64_t st0, st;

	if (threadIdx.x != 0)
		return;
	mbar_init(b, k);
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st0) : "r"(b));
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(st0));
	out[0] = pc;                                       // k: pending before this arrival
	asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "l"(st0));
	out[1] = ok;                                       // 0: k - 1 arrivals pending
	asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(64));
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(b), "r"(k - 1));
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(st));
	out[2] = pc;                                       // k - 1
	asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "r"(0));
	out[3] = ok;                                       // 0: 64 bytes pending
	asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(64));
	asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "l"(st0));
	out[4] = ok;                                       // 1: phase 0 complete
	asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "r"(1));
	out[5] = ok;                                       // 0: phase 1 is the current one
	asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b));
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(st));
	out[6] = pc;                                       // k
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(b), "r"(k - 1));
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(st));
	out[7] = pc;                                       // k - 1: phase 1 complete
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(b));
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(st));
	out[8] = pc;                                       // k - 1: the drop lowered the count
	asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "r"(0));
	out[9] = ok;                                       // 0: phase 2 (parity 0) is pending
	asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
	             : "=r"(ok) : "r"(b), "r"(1));
	out[10] = ok;                                      // 1: phase 1 (parity 1) completed
}

// mode 1: arrive on a barrier never initialised; 2: complete_tx past the expected bytes with no
// arrival pending; 3: an arrival count above the pending count; 4: arrive after inval
extern "C" __global__ void mbar_misuse(int mode)
{
	__shared__ alignas(8) uint64_t bar[2];
	uint32_t b = smem_u32(&bar[0]);

	if (threadIdx.x != 0)
		return;
	if (mode != 1)
		mbar_init(b, 2);
	if (mode == 1 || mode == 0)
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
	if (mode == 2) {
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(16));
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
		asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(32));
	}
	if (mode == 3)
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(3) : "memory");
	if (mode == 4) {
		asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(b));
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
	}
}

extern "C" __global__ void bulk_reduce(float *acc, unsigned *umax)
{
	__shared__ alignas(128) float f[Tile];
	__shared__ alignas(128) unsigned u[Tile];

	for (int i = threadIdx.x; i < Tile; i += blockDim.x) {
		f[i] = (float)i * 0.25f;
		u[i] = (unsigned)(i * 7 % 1000);
	}
	asm volatile("fence.proxy.async.shared::cta;");
	__syncthreads();
	if (threadIdx.x == 0) {
		asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;"
		             :: "l"(acc), "r"(smem_u32(f)), "r"(Tile * 4) : "memory");
		asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [%0], [%1], %2;"
		             :: "l"(umax), "r"(smem_u32(u)), "r"(Tile * 4) : "memory");
		asm volatile("cp.async.bulk.commit_group;");
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

extern "C" __global__ void bulk_s2s(unsigned *out)
{
	__shared__ alignas(128) unsigned a[Tile], b[Tile];
	__shared__ alignas(8) uint64_t bar;
	uint32_t sb = smem_u32(&bar);

	for (int i = threadIdx.x; i < Tile; i += blockDim.x)
		a[i] = 3u * i;
	if (threadIdx.x == 0)
		mbar_init(sb, 1);
	asm volatile("fence.proxy.async.shared::cta;");
	__syncthreads();
	if (threadIdx.x == 0) {
		expect_tx(sb, sizeof b);
		asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
		             " [%0], [%1], %2, [%3];" :: "r"(smem_u32(b)), "r"(smem_u32(a)), "r"(Tile * 4),
		             "r"(sb) : "memory");
	}
	mbar_wait(sb, 0);
	for (int i = threadIdx.x; i < Tile; i += blockDim.x)
		out[i] = b[i];
}
