/* sreg.c: special registers (S2R, CS2R, S2UR): the name table used at decode time and the
 * values at run time. Clocks are deterministic: in timing mode SR_CLOCKLO/HI are the SM's cycle at
 * issue and SR_GLOBALTIMER that cycle in nanoseconds at the configured clock; in functional mode
 * the clock counts warp instructions issued in the launch so far (a 1 GHz clock for the timer).
 * The shared and local window bases are those the driver writes to c[0x0][0x18] and
 * c[0x0][0x20] (docs/sim.md, mem.c); SR_SMEMSZ and SR_SWINSZ are the CTA's shared memory with
 * the driver's reserved 1 KiB (launch.c).
 */
#include "sim.h"

#include <string.h>

static const struct {
	const char *name;
	int code;
} srtab[] = {
	{ "SRZ", SRZero },
	{ "SR_TID.X", SRTidX }, { "SR_TID.Y", SRTidY }, { "SR_TID.Z", SRTidZ },
	{ "SR_CTAID.X", SRCtaidX }, { "SR_CTAID.Y", SRCtaidY }, { "SR_CTAID.Z", SRCtaidZ },
	{ "SR_NTID.X", SRNtidX }, { "SR_NTID.Y", SRNtidY }, { "SR_NTID.Z", SRNtidZ },
	{ "SR_NCTAID.X", SRNctaidX }, { "SR_NCTAID.Y", SRNctaidY }, { "SR_NCTAID.Z", SRNctaidZ },
	{ "SR_LANEID", SRLaneId },
	{ "SR_WARPID", SRWarpId }, { "SR_VIRTID", SRVirtId }, { "SR_NWARPID", SRNWarpId },
	{ "SR_FIBERID", SRFiberId }, { "SR_FIBERNUM", SRFiberNum },
	{ "SR_SMID", SRSmId }, { "SR_NSMID", SRNSmId }, { "SR_VIRTUALSMID", SRVirtualSmId },
	{ "SR_GRIDID", SRGridId },
	{ "SR_EQMASK", SREqMask }, { "SR_LTMASK", SRLtMask }, { "SR_LEMASK", SRLeMask },
	{ "SR_GTMASK", SRGtMask }, { "SR_GEMASK", SRGeMask },
	{ "SR_CLOCKLO", SRClockLo }, { "SR_CLOCKHI", SRClockHi }, { "SR_CLOCK", SRClock64 },
	{ "SR_GLOBALTIMERLO", SRGlobalTimerLo }, { "SR_GLOBALTIMERHI", SRGlobalTimerHi },
	{ "SR_GLOBALTIMER", SRGlobalTimer },
	{ "SR_SWINHI", SRSwinHi }, { "SR_SWINLO", SRSwinLo }, { "SR_SWINSZ", SRSwinSz },
	{ "SR_SMEMSZ", SRSmemSz },
	{ "SR_LWINHI", SRLwinHi }, { "SR_LWINLO", SRLwinLo },
	{ "SR_CgaCtaId", SRCgaCtaid }, { "SR_CGACTAID", SRCgaCtaid },
	{ "SR_CLUSTERID", SRClusterId },
	{ "SR_AFFINITY", SRAffinity },
};

int
sim_sreg_code(const char *name)
{
	for (unsigned k = 0; k < sizeof srtab / sizeof srtab[0]; k++)
		if (strcmp(srtab[k].name, name) == 0)
			return srtab[k].code;
	return -1;
}

static uint64_t
clock_now(const Exec *x)
{
	return x->timing ? x->now : x->ninstr;
}

static uint64_t
timer_ns(const Exec *x)
{
	uint32_t mhz = x->gpu->cfg.clock_mhz;

	if (!x->timing || !mhz)
		return x->ninstr * 1000;
	return x->now * 1000 / mhz;
}

uint32_t
sim_sreg(Exec *x, int code, unsigned lane)
{
	Warp *w = x->w;

	switch (code) {
	case SRZero: return 0;
	case SRTidX: return w->tid[lane][0];
	case SRTidY: return w->tid[lane][1];
	case SRTidZ: return w->tid[lane][2];
	case SRCtaidX: return x->cta->ctaid[0];
	case SRCtaidY: return x->cta->ctaid[1];
	case SRCtaidZ: return x->cta->ctaid[2];
	case SRNtidX: return x->ntid[0];
	case SRNtidY: return x->ntid[1];
	case SRNtidZ: return x->ntid[2];
	case SRNctaidX: return x->nctaid[0];
	case SRNctaidY: return x->nctaid[1];
	case SRNctaidZ: return x->nctaid[2];
	case SRLaneId: return lane;
	case SRWarpId: case SRVirtId: return w->id;
	case SRNWarpId: return SmVRegs / 32;      /* 64 warps per SM */
	case SRSmId: case SRVirtualSmId: return x->smid;
	case SRCgaCtaid: return x->cta->rank;
	case SRGridId: case SRClusterId: case SRAffinity:
		return 0;
	case SRNSmId: return x->nsm;
	case SREqMask: return 1u << lane;
	case SRLtMask: return (1u << lane) - 1;
	case SRLeMask: return (uint32_t)((2ull << lane) - 1);
	case SRGtMask: return ~(uint32_t)((2ull << lane) - 1);
	case SRGeMask: return ~((1u << lane) - 1);
	case SRClockLo: case SRClock64: return (uint32_t)clock_now(x);
	case SRClockHi: return (uint32_t)(clock_now(x) >> 32);
	case SRGlobalTimerLo: case SRGlobalTimer:
		return (uint32_t)timer_ns(x);
	case SRGlobalTimerHi:
		return (uint32_t)(timer_ns(x) >> 32);
	case SRSwinHi: return (uint32_t)(SimSharedWindow >> 32);
	case SRSwinLo: return (uint32_t)SimSharedWindow;
	case SRSwinSz: case SRSmemSz: return x->cta->smem_size;
	case SRLwinHi: return (uint32_t)(SimLocalWindow >> 32);
	case SRLwinLo: return (uint32_t)SimLocalWindow;
	case SRFiberId: case SRFiberNum:
		if (!x->fiber) {
			sim_fault(x, FaultIllegalInstr, lane, "%s needs a FIBER configuration (sm_model = "
			          "fiber)", code == SRFiberId ? "SR_FIBERID" : "SR_FIBERNUM");
			return 0;
		}
		return code == SRFiberId ? w->id * WarpSize + lane : x->cta->nfibers;
	default: return 0;
	}
}
