// setmaxnreg_wide.cu -- consumers that need more registers than the launch gives them
// (setmaxnreg, sm_90a): REGCOUNT is 168 (__launch_bounds__(384, 1): 65,536 / 384, rounded down
// to 8), the two consumer warpgroups take 240 each with setmaxnreg.inc after the producer
// warpgroup has given 168 - 24 back with setmaxnreg.dec (128 x 24 + 256 x 240 = 64,512), and
// keep 200 accumulators live across a loop, so ptxas names registers past R167 after the inc.
// The simulator must launch it on REGCOUNT and let each consumer warp name them only after its
// inc (docs/sim-wgmma.md, "setmaxnreg"); tests/check_simgmma.c runs it and a mutant without the
// inc, which faults.
//
// Kernel:  k_wide(float *out, const float *in, int n)
//   producer threads (t >= 256): out[t] = in[t];
//   consumer threads (t < 256):  acc_i = in[t + 256 i] (i < 200), then n rounds of
//   acc_i = acc_i * 0.5f + (float)((k + i) & 7), and out[t] = the sum of acc_i in ascending i.
// Launch:  grid 1, block 384.
#define NACC 200
extern "C" __global__ void __launch_bounds__(384, 1) k_wide(float *out, const float *in, int n)
{
    unsigned t = threadIdx.x;
    if (t >= 256) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 24;");
        out[t] = in[t];
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
    float acc[NACC];
#pragma unroll
    for (int i = 0; i < NACC; i++)
        acc[i] = in[t + 256 * i];
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int i = 0; i < NACC; i++)
            acc[i] = acc[i] * 0.5f + (float)((k + i) & 7);
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < NACC; i++)
        s += acc[i];
    out[t] = s;
}
