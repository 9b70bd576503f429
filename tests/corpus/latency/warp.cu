// warp.cu: warp-level families for the hazard corpus: SHFL (IDX, UP, DOWN, BFLY), VOTE (ALL,
// ANY, BALLOT), MATCH, REDUX, activemask, FLO on ballots. Made with
// sass-dump -a sm_80|sm_90 warp.cu -o warp.sm_XX.sass
extern "C" __global__ void lat_warp(unsigned *out, const unsigned *in, int n) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x, x = in[t] + t, acc = 0;
  for (int i = 0; i < n; i++) {
    x += __shfl_xor_sync(0xffffffffu, x, 1);
    x += __shfl_down_sync(0xffffffffu, x, 2) + __shfl_up_sync(0xffffffffu, x, 4);
    x += __shfl_sync(0xffffffffu, x, (t + i) & 31);
    unsigned b = __ballot_sync(0xffffffffu, x & 1);
    acc += __popc(b) + __ffs(b) + __all_sync(0xffffffffu, x > 3) + __any_sync(0xffffffffu, x == 7);
    acc += __match_any_sync(0xffffffffu, x & 3) + __reduce_add_sync(0xffffffffu, x & 255);
    acc += __reduce_max_sync(0xffffffffu, x) ^ __reduce_or_sync(0xffffffffu, b);
    acc += __activemask();
  }
  out[t] = x + acc;
}
extern "C" __global__ void lat_warp_float(float *out, const float *in, int n) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  float v = in[t] + 1.0f;
  for (int i = 0; i < n; i++)
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(0xffffffffu, v, o);
  out[t] = v;
}
