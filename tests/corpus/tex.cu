extern "C" __global__ void k_tex(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaSurfaceObject_t s, float4 *o, float *f, int n) {
  int i = threadIdx.x;
  float4 a = tex2D<float4>(t1, i * 0.5f, n * 0.25f);
  float b = tex1Dfetch<float>(t2, i);
  float c = tex2DLod<float>(t2, i * 0.1f, 0.3f, 1.0f);
  float4 g = tex2Dgather<float4>(t1, 0.5f, 0.5f, 1);
  float2 h = tex2DGrad<float2>(t2, 0.1f, 0.2f, make_float2(1, 0), make_float2(0, 1));
  float4 l = tex3D<float4>(t1, 0.1f, 0.2f, 0.3f);
  int sv; surf2Dread(&sv, s, i * 4, n); sv += 1; surf2Dwrite(sv, s, i * 4, n + 1);
  float4 sv4; surf2Dread(&sv4, s, i * 16, n); surf2Dwrite(sv4, s, i * 16, n + 2);
  o[i] = make_float4(a.x + b + c + g.y + h.x + l.z + sv, a.y + sv4.x, a.z, a.w + h.y);
  int lev; asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(lev) : "l"(t1)); f[i] = lev;
}
