// uniform.cu: uniform-datapath and predicate families for the hazard corpus: ULDC, UMOV, UIADD3,
// UIMAD, ULOP3, USHF, ULEA, UISETP, USEL, UFLO, UPOPC, UBREV, UPRMT, VOTEU, S2UR; predicates
// (ISETP chains, PLOP3, P2R/R2P through predicate arrays, SEL/FSEL on predicates, guarded code).
// Made with sass-dump -a sm_80|sm_90 uniform.cu -o uniform.sm_XX.sass
extern "C" __global__ void lat_uniform(unsigned *out, const unsigned *in, unsigned a, unsigned b, int n) {
  // everything but the final index is warp-uniform: nvcc keeps it on the uniform datapath
  unsigned x = a * 2654435761u + b, y = b ^ (a << 7), z = blockIdx.x;
  for (int i = 0; i < n; i++) {
    x = x * 5u + (y >> 3) + (unsigned)i;          // UIMAD, USHF, UIADD3
    y = (y ^ x) | (z << (i & 7));                 // ULOP3, USHF
    z = (x > y) ? z + x : z ^ y;                  // UISETP, USEL
    z += __popc(x) + __clz(y) + __brev(z);        // UPOPC, UFLO, UBREV
    x = __byte_perm(x, y, 0x3210 + (i & 3));      // UPRMT
  }
  out[threadIdx.x + blockIdx.x * blockDim.x] = x + y + z + in[blockIdx.x];
}
extern "C" __global__ void lat_predicates(int *out, const int *in, int lo, int hi, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x, v = in[t], acc = 0;
  bool p[8];
  for (int k = 0; k < 8; k++) p[k] = ((v >> k) & 1) != 0;
  for (int i = 0; i < n; i++) {
    bool a = v > lo, b = v < hi, c = (v & 3) == i % 4, d = acc > v;
    if ((a && b) || (c ^ d)) acc += v; else acc -= i;          // ISETP chains, PLOP3
    p[i & 7] = (a != p[(i + 1) & 7]) || (b && !c);              // predicate arrays: P2R, R2P
    acc += p[(i * 3) & 7] ? 3 : -1;
    v = (acc > 0 && p[i & 7]) ? v + acc : v ^ acc;
    if (__any_sync(0xffffffffu, v > hi)) acc ^= 1;             // VOTEU / VOTE.ANY
  }
  out[t] = acc + v;
}
