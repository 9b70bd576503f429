// cluster.cu: Hopper's thread-block clusters for fibersim's sm_90a model (sim/cluster.c,
// docs/sim-cluster.md). Built with nvcc 13 -arch=sm_90a; the committed listing is
// cluster.sm_90a.sass (tests/check_cluster.c). No __cluster_dims__: the cluster's shape comes at
// launch (fibersim run --cluster X,Y,Z, fiberLaunchKernelEx).
//   cluster_ids   every cluster special register of every CTA, one row of 16 words per CTA
//   dsmem_ring    each CTA fills its shared array, the cluster barrier, each CTA reads its
//                 neighbour's array (rank + 1 mod n) through mapa and ld.shared::cluster, writes
//                 the sum; a second barrier keeps the array alive until every reader is done
//   dsmem_store   each CTA stores into its neighbour's shared memory (st.shared::cluster),
//                 the cluster barrier, each writes what it received
//   remote_arrive each CTA arrives on rank 0's mbarrier (mbarrier.arrive.shared::cluster);
//                 rank 0 waits for the phase, then reads every rank's id from its own smem
//   bad_rank      mapa to rank `r` (an argument): a rank outside the cluster must fault
#include <cstdint>


#define SR(name) ({ uint32_t v_; asm volatile("mov.u32 %0, %%" name ";" : "=r"(v_)); v_; })

__device__ static inline uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ static inline void cluster_sync()
{
	asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
}

__device__ static inline uint32_t mapa(uint32_t a, uint32_t rank)
{
	uint32_t r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
	return r;
}

extern "C" __global__ void cluster_ids(uint32_t *out)
{
	uint32_t row[16];
	row[0] = SR("cluster_ctarank");
	row[1] = SR("cluster_nctarank");
	row[2] = SR("cluster_ctaid.x");
	row[3] = SR("cluster_ctaid.y");
	row[4] = SR("cluster_ctaid.z");
	row[5] = SR("cluster_nctaid.x");
	row[6] = SR("cluster_nctaid.y");
	row[7] = SR("cluster_nctaid.z");
	row[8] = SR("clusterid.x");
	row[9] = SR("clusterid.y");
	row[10] = SR("clusterid.z");
	row[11] = SR("nclusterid.x");
	row[12] = SR("nclusterid.y");
	row[13] = SR("nclusterid.z");
	asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(row[14]));
	row[15] = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	if (threadIdx.x < 16) {
		uint32_t cta = row[15];
		out[cta * 16 + threadIdx.x] = row[threadIdx.x];
	}
}

enum { N = 256 };

extern "C" __global__ void dsmem_ring(const float *in, float *out)
{
	__shared__ float buf[N];
	uint32_t rank = SR("cluster_ctarank"), n = SR("cluster_nctarank");
	uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	uint32_t peer = mapa(smem_u32(buf), (rank + 1) % n);

	for (int i = threadIdx.x; i < N; i += blockDim.x)
		buf[i] = in[cta * N + i] * (float)(rank + 1);
	cluster_sync();
	for (int i = threadIdx.x; i < N; i += blockDim.x) {
		float v;
		asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(peer + 4 * i) : "memory");
		out[cta * N + i] = buf[i] + v;
	}
	cluster_sync();
}

extern "C" __global__ void dsmem_store(uint32_t *out)
{
	__shared__ uint32_t box[N];
	uint32_t rank = SR("cluster_ctarank"), n = SR("cluster_nctarank");
	uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	uint32_t peer = mapa(smem_u32(box), (rank + 1) % n);

	for (int i = threadIdx.x; i < N; i += blockDim.x)
		asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(peer + 4 * i), "r"(cta * 1000 + i) : "memory");
	cluster_sync();
	for (int i = threadIdx.x; i < N; i += blockDim.x)
		out[cta * N + i] = box[i];
}

extern "C" __global__ void remote_arrive(uint32_t *out)
{
	__shared__ alignas(8) uint64_t bar;
	__shared__ uint32_t ids[16];
	uint32_t rank = SR("cluster_ctarank"), n = SR("cluster_nctarank");
	uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	uint32_t b = smem_u32(&bar);

	if (rank == 0 && threadIdx.x == 0)
		asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(n));
	cluster_sync();
	if (threadIdx.x == 0) {
		uint32_t rids = mapa(smem_u32(&ids[rank]), 0);
		uint32_t rb = mapa(b, 0);
		asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(rids), "r"(cta + 100) : "memory");
		asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(rb) : "memory");
	}
	if (rank == 0 && threadIdx.x == 0) {
		asm volatile("{ .reg .pred p; WAIT_%=: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1; "
		             "@!p bra WAIT_%=; }" :: "r"(b), "r"(0) : "memory");
		for (uint32_t k = 0; k < n; k++)
			out[cta * 16 + k] = ids[k];
	}
	cluster_sync();
}

extern "C" __global__ void bad_rank(uint32_t *out, uint32_t r)
{
	__shared__ uint32_t v[32];
	v[threadIdx.x % 32] = threadIdx.x;
	cluster_sync();
	uint32_t x;
	asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(x) : "r"(mapa(smem_u32(&v[threadIdx.x % 32]), r)) : "memory");
	out[threadIdx.x] = x;
	cluster_sync();
}
