extern "C" __global__ void k_bits(unsigned *a, int *b, unsigned long long *c, long long *d, int n, unsigned m, unsigned long long q) {
  int t = threadIdx.x; unsigned x = a[t], y = a[t + 1]; int s = b[t]; unsigned long long u = c[t]; long long v = d[t];
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(n), "r"(m)); x += r;
  asm("bfe.s32 %0, %1, 3, 7;" : "=r"(r) : "r"(x)); x += r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(n), "r"(m)); x += r;
  asm("bfi.b32 %0, %1, %2, 4, 9;" : "=r"(r) : "r"(x), "r"(y)); x += r;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(n), "r"(m)); x += r;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(x & 31), "r"(y & 31)); x += r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(m)); x += r;
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(y), "r"(m)); x += r;
  unsigned long long w; asm("bfe.u64 %0, %1, %2, %3;" : "=l"(w) : "l"(u), "r"(n), "r"(m)); u += w;
  asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(s), "r"(n), "r"(x)); x += r;
  asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(n)); x += r;
  short sh; asm("cvt.sat.s16.s32 %0, %1;" : "=h"(sh) : "r"(s)); x += sh;
  asm("cvt.s8.s32 %0, %1;" : "=r"(r) : "r"(s)); x += r;
  unsigned char uc; asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"(s)); x += r;
  x += __vsub2(x, y) + __vavgu2(x, y) + __vneg4(y) + __vhaddu4(x, y);
  v = v * (long long)s + (v >> (n & 63)) + (long long)(u << (m & 63)) + (v / 7) + (u % 13ull) + (long long)(u / (unsigned long long)q);
  x += s / n + x % m + (unsigned)(s * 7) / 3u;
  x += __clzll(v) + __popcll(u) + __ffsll(v);
  v += max(v, (long long)q) + min(u, q) + llabs(v);
  int z = (int)x;
  if (z > n && x < m) z = z * z; else z = -z;
  z = (s < 0) ? z : -z;
  bool p1 = x > y, p2 = s < n, p3 = (x ^ y) == 7, p4 = u > q;
  if ((p1 && p2) || (p3 ^ p4)) z += 5;
  a[t] = x + (unsigned)z; c[t] = u; d[t] = v;
}
extern "C" __global__ void k_uniform(unsigned long long *out, const unsigned long long *in, unsigned long long base, int n, int k, unsigned m) {
  unsigned long long acc = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long ub = base * (unsigned long long)i + (unsigned long long)k * 3ull;
    unsigned ui = (unsigned)i;
    ui = __popc(ui ^ m) + __clz(ui | 1) + __brev(ui) + __byte_perm(ui, m, 0x5410) + __ffs(m + ui) + (ui >> 3) + (ui << (k & 7));
    acc += in[(ub + ui) & 1023] + (unsigned long long)((long long)k * i);
    if ((int)(ub >> 32) > k) acc ^= ub;
  }
  out[threadIdx.x] = acc;
}
extern "C" __global__ void k_branch(int *out, const int *in, int sel) {
  int t = threadIdx.x, r = in[t];
  switch (in[t + 1]) {
  case 0: r += 3; break; case 1: r = r * 5 + in[2]; break; case 2: r ^= 0x55; break; case 3: r -= in[3]; break;
  case 4: r = r << 3; break; case 5: r = r / 3; break; case 6: r = in[r & 7]; break; case 7: r = ~r; break;
  case 8: r = r * r; break; case 9: r += in[9]; break; case 10: r |= 0x100; break; case 11: r &= 0xff; break;
  case 12: r = -r; break; case 13: r = r % 7; break; case 14: r = r + in[14] * 2; break; case 15: r = 15; break;
  case 16: r += 16; break; case 17: r = r * 17; break; case 18: r ^= 18; break; case 19: r = in[19] - r; break;
  }
  out[t] = r;
}
