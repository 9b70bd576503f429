"""bench/ptx/triton_kernels.py: Triton kernels for `make ptx-bench` (issue 23), compiled ahead of time
without a GPU for sm_80 and sm_90 (GPUTarget("cuda", 80|90, 32); Triton writes .target sm_90a for
90). Writes, per kernel NAME and architecture, bench/ptx/NAME/NAME.sm_80.ptx and .sm_90.ptx
(Triton's PTX without its .loc lines, which fiberc compiles) and NAME.sm_80.cubin / .sm_90.cubin
(the code Triton's ptxas makes of the same PTX: the reference, disassembled into NAME.sm_XX.sass
by bench/ptx/README.md's commands). The shapes are small so that the simulator runs them in
seconds; bench/ptx/kernels.txt gives each kernel's launch and arguments.

    python3 bench/ptx/triton_kernels.py        (Triton 3.9 from PyPI; no GPU needed)
"""
import os
import re

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def fused_softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y, mask=mask)


@triton.jit
def layer_norm(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, n, eps,
               BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < n, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < n, other=0.).to(tl.float32)
        x = tl.where(cols < n, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def matmul_f16(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a, mask=rk[None, :] < K - k, other=0.),
                      tl.load(b, mask=rk[:, None] < K - k, other=0.))
        a += BK
        b += BK * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def flash_attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale,
                   BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, seq, BN):
        k = tl.load(k_ptr + (start_n + offs_n)[None, :] * D + offs_d[:, None])
        qk = tl.dot(q, k) * scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * D + offs_d[None, :], acc)


# name: (function, signature, constexprs, num_warps)
KERNELS = {
    "vector_add": (vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                "BLOCK": "constexpr"}, {"BLOCK": 1024}, 4),
    "fused_softmax": (fused_softmax, {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_stride": "i32",
                                      "out_stride": "i32", "n_cols": "i32", "BLOCK": "constexpr"},
                      {"BLOCK": 256}, 4),
    "layer_norm": (layer_norm, {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp16",
                                "b_ptr": "*fp16", "mean_ptr": "*fp32", "rstd_ptr": "*fp32",
                                "stride": "i32", "n": "i32", "eps": "fp32", "BLOCK": "constexpr"},
                   {"BLOCK": 256}, 4),
    "matmul_f16": (matmul_f16, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32",
                                "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32",
                                "stride_cm": "i32", "BM": "constexpr", "BN": "constexpr",
                                "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "flash_attn_fwd": (flash_attn_fwd, {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                                        "o_ptr": "*fp32", "seq": "i32", "scale": "fp32",
                                        "BM": "constexpr", "BN": "constexpr", "D": "constexpr"},
                       {"BM": 64, "BN": 32, "D": 64}, 4),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, (fn, sig, consts, warps) in KERNELS.items():
        for cc in (80, 90):
            k = triton.compile(ASTSource(fn, signature=sig, constexprs=consts),
                               target=GPUTarget("cuda", cc, 32),
                               options={"num_warps": warps, "num_stages": 2})
            ptx = re.sub(r"[ \t]*\.loc[^\n]*\n", "", k.asm["ptx"])   # no line table
            # the debug line table's files by their names alone (no machine path)
            ptx = re.sub(r'(\.file\s+\d+\s+)"(?:[^"]*/)?([^"/]*)"', r'\1"\2"', ptx)
            for ext, data in (("ptx", ptx.encode()), ("cubin", k.asm["cubin"])):
                os.makedirs(os.path.join(here, name), exist_ok=True)
                path = os.path.join(here, name, "%s.sm_%d.%s" % (name, cc, ext))
                with open(path + ".tmp", "wb") as f:
                    f.write(data)
                os.rename(path + ".tmp", path)
            print(name, cc, k.metadata.num_warps, "warps", k.metadata.shared, "bytes shared")


if __name__ == "__main__":
    main()
