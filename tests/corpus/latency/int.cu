// int.cu: integer opcode families for the hazard corpus (tests/corpus/latency/README.md):
// IADD3, IMAD (.WIDE, .HI, .SHL, .X), LOP3, SHF, LEA, PRMT, SEL, IMNMX, IABS, POPC, FLO, BREV,
// BMSK, ISETP chains, 64-bit arithmetic and division. Made with
//   sass-dump -a sm_80 int.cu -o int.sm_80.sass; sass-dump -a sm_90 int.cu -o int.sm_90.sass
extern "C" __global__ void lat_int_chain(unsigned *out, const unsigned *in, int n) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x, x = in[t], y = in[t + 1] | 1u, z = t;
  for (int i = 0; i < n; i++) {
    x = x * 2654435761u + y;            // IMAD
    y = (x ^ (y >> 3)) + (z << 5);      // SHF, LOP3, IADD3 / LEA
    z = __byte_perm(x, y, 0x5410) + i;  // PRMT
    x = min(x, z) + max(y, x);          // IMNMX
    z += __popc(x) + __clz(y) + __brev(z); // POPC, FLO, BREV
    x += (x > y) ? z : y;               // ISETP, SEL
    y ^= __funnelshift_l(x, y, z & 31); // SHF.L
  }
  out[t] = x + y + z;
}
extern "C" __global__ void lat_int_wide(unsigned long long *out, const unsigned long long *in, const int *s, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned long long a = in[t], b = in[t + 1] + 3;
  long long c = s[t];
  for (int i = 0; i < n; i++) {
    a = a * 6364136223846793005ull + b;          // IMAD.WIDE.U32, IMAD.X
    b += __umul64hi(a, b) + (a >> 17);           // IMAD.HI
    c = c * (long long)i + __mulhi((int)a, (int)b) + llabs(c); // IMAD.WIDE, IABS
    b ^= (unsigned long long)__popcll(a) << (i & 31);
  }
  out[t] = a + b + (unsigned long long)c;
}
extern "C" __global__ void lat_int_div(int *out, const int *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x, x = in[t] + 1000, d = (n | 1) + t;
  unsigned u = (unsigned)x;
  for (int i = 1; i <= n; i++) {
    x = x / d + x % (i + 2);        // integer division: I2F, MUFU.RCP, F2I, IMAD.HI ...
    u = u / (unsigned)(i + 7) + (u % 10u);
    d += abs(x) & 7;
  }
  long long w = (long long)in[t] * 1000003ll;
  w = w / (long long)(n + 3);
  out[t] = x + (int)u + (int)w;
}
extern "C" __global__ void lat_int_addr(float *out, const float *in, const int *idx, int n, int stride) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float s = 0;
  for (int i = 0; i < n; i++) {
    int j = idx[(t + i * stride) & 1023] & 1023;   // LEA, IMAD.WIDE addressing
    s += in[j] * in[(j * 3 + i) & 1023];
  }
  out[t] = s;
}
