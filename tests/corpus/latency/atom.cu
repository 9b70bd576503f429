// atom.cu: atomic families for the hazard corpus: ATOMG (ADD, CAS, EXCH, MIN, MAX, AND, OR), RED,
// ATOMS on shared memory, float and double atomics, warp-aggregated patterns. Made with
// sass-dump -a sm_80|sm_90 atom.cu -o atom.sm_XX.sass
extern "C" __global__ void lat_atomics(int *out, unsigned *g, float *fg, double *dg, int n) {
  __shared__ int s[256];
  __shared__ float sf[32];
  int t = threadIdx.x;
  s[t & 255] = t;
  if (t < 32) sf[t] = 0;
  __syncthreads();
  int acc = 0;
  for (int i = 0; i < n; i++) {
    acc += atomicAdd(&g[(t + i) & 63], 1u);          // ATOMG.ADD
    atomicAdd(&g[64 + (t & 7)], (unsigned)i);        // RED
    acc += atomicCAS((int *)&g[128], acc, i);        // ATOMG.CAS
    acc += atomicExch((int *)&g[129 + (t & 3)], acc) + atomicMin((int *)&g[140], acc) +
           atomicMax(&g[141], (unsigned)acc) + atomicAnd(&g[142], 0xffu) + atomicOr(&g[143], 1u);
    acc += atomicAdd(&s[(t * 7 + i) & 255], 3);      // ATOMS.ADD
    acc += atomicCAS(&s[i & 255], i, acc);           // ATOMS.CAS
    atomicAdd(&sf[t & 31], 1.5f);                    // ATOMS float
    acc += (int)atomicAdd(&fg[t & 15], 0.5f);        // ATOMG.ADD.F32
    acc += (int)atomicAdd(&dg[t & 7], 0.25);         // ATOMG.ADD.F64
  }
  __syncthreads();
  out[t] = acc + s[t & 255] + (int)sf[t & 31];
}
