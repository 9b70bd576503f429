// rsmem.cu: the driver's reserved shared memory as a kernel sees it (tests/check_launch.c):
// the PTX special registers %reserved_smem_offset_begin, _end, _cap, _0 and _1, which nvcc reads
// from SR_SMEMSZ and c[0x0][0x114], 0x120, 0x124 on sm_80 and from constants and c[0x0][0x68],
// 0x6c on sm_90. Listings: sass-dump -a sm_80 rsmem.cu -o rsmem.sm_80.sass
// (and -a sm_90 -> rsmem.sm_90.sass), nvcc 13 with nvdisasm 13.5.
extern "C" __global__ void rsmem(unsigned *out)
{
	unsigned a, b, c, d, e;
	asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(a));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(b));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(d));
	asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(e));
	out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e;
}

