/* cluster.c: sm_90 thread-block clusters at launch: the cluster shape's checks (CUDA's rules:
 * each grid dimension a multiple of the cluster's, at most 8 CTAs), the words of constant bank 0
 * that nvcc 13 reads for %cluster_ctaid, %clusterid, %nclusterid and %is_explicit_cluster, and
 * the rank of a CTA. The drivers run a cluster's CTAs together (launch.c: run_group); a CTA's
 * Cta.peer names the others for distributed shared memory and the cluster barrier.
 */
#include "launch.h"

#include <stdio.h>
#include <string.h>

enum { ClusterMax = 8 };   /* the portable cluster size (docs/sim-cluster.md) */

int
cluster_explicit(const LaunchParams *lp)
{
	return lp->cluster[0] || lp->cluster[1] || lp->cluster[2];
}

uint32_t
cluster_size(const LaunchParams *lp)
{
	if (!cluster_explicit(lp))
		return 1;
	return lp->cluster[0] * lp->cluster[1] * lp->cluster[2];
}

static int
refuse(SimFault *f, const char *kname, const char *msg, const LaunchParams *lp)
{
	f->kind = FaultLimit;
	snprintf(f->msg, sizeof f->msg, "%s: kernel '%s': cluster %u x %u x %u for grid %u x %u x "
	         "%u: %s", sim_fault_name(FaultLimit), kname, lp->cluster[0], lp->cluster[1],
	         lp->cluster[2], lp->grid[0], lp->grid[1], lp->grid[2], msg);
	return -1;
}

int
cluster_check(const Arch *a, const Prog *k, const LaunchParams *lp, int fiber, SimFault *f)
{
	uint64_t n = 1;

	if (!cluster_explicit(lp))
		return 0;
	if (!(a->features & ArchClusters) || !a->bank0->cluster)
		return refuse(f, k->name, "the architecture has no thread-block clusters (sm_90 and "
		              "up)", lp);
	for (int d = 0; d < 3; d++) {
		if (!lp->cluster[d])
			return refuse(f, k->name, "every cluster dimension must be at least 1", lp);
		if (lp->grid[d] % lp->cluster[d])
			return refuse(f, k->name, "each grid dimension must be a multiple of the "
			              "cluster's (CUDA_ERROR_CLUSTER_SIZE_INVALID)", lp);
		n *= lp->cluster[d];
	}
	if (n > ClusterMax)
		return refuse(f, k->name, "more than 8 CTAs in a cluster (the portable limit; "
		              "CUDA_ERROR_CLUSTER_SIZE_INVALID)", lp);
	if (lp->cooperative)
		return refuse(f, k->name, "a cooperative launch with clusters is not supported", lp);
	if (fiber && n > 1)
		return refuse(f, k->name, "clusters of more than one CTA are not supported with a "
		              "FIBER configuration (sm_model = fiber)", lp);
	return 0;
}

static void
put32(uint8_t *b, uint32_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

void
cluster_bank0(uint8_t *bank0, const Arch *a, const LaunchParams *lp)
{
	uint32_t base = a->bank0->cluster, dim[3];

	if (!base)
		return;
	for (int d = 0; d < 3; d++)
		dim[d] = cluster_explicit(lp) ? lp->cluster[d] : 1;
	put32(bank0, base, (uint32_t)cluster_explicit(lp));
	for (int d = 0; d < 3; d++) {
		float r = 1.0f / (float)dim[d];
		uint32_t bits;
		memcpy(&bits, &r, 4);
		put32(bank0, base + 4 + 4 * (uint32_t)d, dim[d]);
		put32(bank0, base + 0x10 + 4 * (uint32_t)d, bits);
		put32(bank0, base + 0x1c + 4 * (uint32_t)d, lp->grid[d] / dim[d]);
	}
	put32(bank0, a->bank0->cluster_n, dim[0] * dim[1] * dim[2]);
}

uint64_t
cluster_member(const LaunchParams *lp, uint64_t cluster, uint32_t rank)
{
	const uint32_t *c = lp->cluster;
	uint64_t ncx = lp->grid[0] / c[0], ncy = lp->grid[1] / c[1];
	uint64_t cx = cluster % ncx, cy = cluster / ncx % ncy, cz = cluster / (ncx * ncy);
	uint64_t x = cx * c[0] + rank % c[0], y = cy * c[1] + rank / c[0] % c[1];
	uint64_t z = cz * c[2] + rank / (c[0] * c[1]);

	return x + lp->grid[0] * (y + (uint64_t)lp->grid[1] * z);
}
