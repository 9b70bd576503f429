// llm_train.cu -- kernels of the kinds GPT-2/LLaMA training and inference code runs, written as
// people write them (grid-stride loops, warp-per-row kernels with shuffle reductions, block-per-row
// kernels with shared-memory reductions, sizes from parameters), as inputs for fiberc's
// CUDA-native mode (docs/pass-phases.md). CPU references: llm_ref.c; launches and sizes:
// kernels.txt in this folder (same format as examples/kernels.txt).
//
// Kernels (N rows of C columns unless said otherwise; fp32 unless said otherwise):
//   layernorm_fwd   out = (x - mean) * rstd * w + b per row; mean, rstd saved. One warp per row.
//   layernorm_bwd   dinp of layernorm per row (one warp per row, two shuffle reductions).
//   layernorm_dwb   dweight, dbias: column sums over N rows (one thread per column, row loop).
//   softmax_fwd     row softmax, one block per row, shared-memory max and sum reductions.
//   gelu_fwd        tanh-GELU, grid-stride loop over n elements.
//   gelu_bwd        its derivative times dout, grid-stride, dinp = gelu'(x) * dout.
//   crossentropy_fwd  losses[i] = -log(probs[i*V + targets[i]]), grid-stride over n rows.
//   adamw           AdamW step on n parameters (params, m, v updated in place), grid-stride.
//   encoder_fwd     out[b,t,:] = wte[tokens[b,t],:] + wpe[t,:], grid-stride over B*T*C.
//   residual_fwd    out = a + b, one element per thread (if (i < n)).
//   global_norm     per-block partial sums of squares (grid-stride, shuffle + shared reduction).
//   rmsnorm_fwd     out = x * rsqrt(mean(x^2) + eps) * w, one warp per row.
//   swiglu_fwd      out[i] = silu(gate[i]) * up[i], grid-stride over n.
//   gemv_int8       y[r] = scale[r] * sum_k W[r,k] * x[k], int8 W, one warp per row.
#include <stdint.h>

__device__ __forceinline__ float
warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float
warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

extern "C" __global__ void
layernorm_fwd(float *out, float *mean, float *rstd, const float *inp, const float *weight,
              const float *bias, int N, int C)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const float *x = inp + (size_t)row * C;
    float s = 0.0f;
    for (int i = lane; i < C; i += 32)
        s += x[i];
    float m = warp_sum(s) / C;
    float v = 0.0f;
    for (int i = lane; i < C; i += 32) {
        float d = x[i] - m;
        v += d * d;
    }
    float r = rsqrtf(warp_sum(v) / C + 1e-5f);
    if (lane == 0) {
        mean[row] = m;
        rstd[row] = r;
    }
    float *o = out + (size_t)row * C;
    for (int i = lane; i < C; i += 32)
        o[i] = (x[i] - m) * r * weight[i] + bias[i];
}

extern "C" __global__ void
layernorm_bwd(float *dinp, const float *dout, const float *inp, const float *weight,
              const float *mean, const float *rstd, int N, int C)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const float *d = dout + (size_t)row * C, *x = inp + (size_t)row * C;
    float m = mean[row], r = rstd[row], dn = 0.0f, dnx = 0.0f;
    for (int i = lane; i < C; i += 32) {
        float nx = (x[i] - m) * r, dl = weight[i] * d[i];
        dn += dl;
        dnx += dl * nx;
    }
    dn = warp_sum(dn) / C;
    dnx = warp_sum(dnx) / C;
    float *di = dinp + (size_t)row * C;
    for (int i = lane; i < C; i += 32) {
        float nx = (x[i] - m) * r, dl = weight[i] * d[i];
        di[i] = (dl - dn - nx * dnx) * r;
    }
}

extern "C" __global__ void
layernorm_dwb(float *dweight, float *dbias, const float *dout, const float *inp,
              const float *mean, const float *rstd, int N, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C)
        return;
    float dw = 0.0f, db = 0.0f;
    for (int r = 0; r < N; r++) {
        float d = dout[(size_t)r * C + c];
        db += d;
        dw += (inp[(size_t)r * C + c] - mean[r]) * rstd[r] * d;
    }
    dweight[c] = dw;
    dbias[c] = db;
}

extern "C" __global__ void
softmax_fwd(float *out, const float *inp, int N, int C)
{
    extern __shared__ float red[];
    int row = blockIdx.x, tid = threadIdx.x, nw = blockDim.x / 32;
    const float *x = inp + (size_t)row * C;
    float mx = -INFINITY;
    for (int i = tid; i < C; i += blockDim.x)
        mx = fmaxf(mx, x[i]);
    mx = warp_max(mx);
    if (tid % 32 == 0)
        red[tid / 32] = mx;
    __syncthreads();
    mx = tid < nw ? red[tid] : -INFINITY;
    mx = warp_max(mx);
    __syncthreads();
    if (tid == 0)
        red[0] = mx;
    __syncthreads();
    mx = red[0];
    __syncthreads();
    float s = 0.0f;
    for (int i = tid; i < C; i += blockDim.x)
        s += expf(x[i] - mx);
    s = warp_sum(s);
    if (tid % 32 == 0)
        red[tid / 32] = s;
    __syncthreads();
    s = tid < nw ? red[tid] : 0.0f;
    s = warp_sum(s);
    __syncthreads();
    if (tid == 0)
        red[0] = s;
    __syncthreads();
    float inv = 1.0f / red[0];
    float *o = out + (size_t)row * C;
    for (int i = tid; i < C; i += blockDim.x)
        o[i] = expf(x[i] - mx) * inv;
}

#define GELU_K 0.7978845608f   /* sqrt(2/pi) */

extern "C" __global__ void
gelu_fwd(float *out, const float *inp, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float x = inp[i], cube = 0.044715f * x * x * x;
        out[i] = 0.5f * x * (1.0f + tanhf(GELU_K * (x + cube)));
    }
}

extern "C" __global__ void
gelu_bwd(float *dinp, const float *inp, const float *dout, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float x = inp[i], cube = 0.044715f * x * x * x;
        float t = tanhf(GELU_K * (x + cube)), ch = 1.0f / coshf(GELU_K * (x + cube));
        float g = 0.5f * (1.0f + t) + x * 0.5f * ch * ch * GELU_K * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = g * dout[i];
    }
}

extern "C" __global__ void
crossentropy_fwd(float *losses, const float *probs, const int *targets, int n, int V)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        losses[i] = -logf(probs[(size_t)i * V + targets[i]]);
}

extern "C" __global__ void
adamw(float *params, const float *grads, float *m, float *v, int n, float lr, float beta1,
      float beta2, float beta1_corr, float beta2_corr, float eps, float wd)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float g = grads[i];
        float mi = beta1 * m[i] + (1.0f - beta1) * g;
        float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
        m[i] = mi;
        v[i] = vi;
        float mh = mi / beta1_corr, vh = vi / beta2_corr;
        params[i] -= lr * (mh / (sqrtf(vh) + eps) + wd * params[i]);
    }
}

extern "C" __global__ void
encoder_fwd(float *out, const int *tokens, const float *wte, const float *wpe, int B, int T, int C)
{
    int n = B * T * C;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int bt = i / C, t = bt % T, c = i % C;
        out[i] = wte[(size_t)tokens[bt] * C + c] + wpe[(size_t)t * C + c];
    }
}

extern "C" __global__ void
residual_fwd(float *out, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

extern "C" __global__ void
global_norm(float *partial, const float *data, int n)
{
    __shared__ float red[32];
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s += data[i] * data[i];
    s = warp_sum(s);
    if (threadIdx.x % 32 == 0)
        red[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < blockDim.x / 32 ? red[threadIdx.x] : 0.0f;
        s = warp_sum(s);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = s;
    }
}

extern "C" __global__ void
rmsnorm_fwd(float *out, const float *inp, const float *weight, int N, int C, float eps)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (row >= N)
        return;
    const float *x = inp + (size_t)row * C;
    float s = 0.0f;
    for (int i = lane; i < C; i += 32)
        s += x[i] * x[i];
    float r = rsqrtf(warp_sum(s) / C + eps);
    float *o = out + (size_t)row * C;
    for (int i = lane; i < C; i += 32)
        o[i] = x[i] * r * weight[i];
}

extern "C" __global__ void
swiglu_fwd(float *out, const float *gate, const float *up, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float g = gate[i];
        out[i] = g / (1.0f + expf(-g)) * up[i];
    }
}

extern "C" __global__ void
gemv_int8(float *y, const int8_t *W, const float *scale, const float *x, int R, int K)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (row >= R)
        return;
    const int8_t *w = W + (size_t)row * K;
    float s = 0.0f;
    for (int k = lane; k < K; k += 32)
        s += (float)w[k] * x[k];
    s = warp_sum(s);
    if (lane == 0)
        y[row] = s * scale[row];
}
