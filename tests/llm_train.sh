#!/bin/sh
# llm_train.sh: the kernels of examples/llm_train (LLM training/inference kernels as nvcc writes
# them) run on the simulator for sm_80 (a100, a100-fiber) and sm_90 (h100, h100-fiber), as nvcc's
# listing and as `fiberc --mode=cuda-native --fiber-runtime` compiles it (run-time guarded splits): every output matches the CPU reference
# (llm_ref.c) and fiberc's output is byte for byte the listing's (examples/llm_train/run.sh,
# functional mode). The reference check is also run on a corrupted output, which it must reject.
# Prints a line per kernel, then `N passed, M failed`. Environment: FIBERC, FIBERSIM, CC.
set -u
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

for sym in $(grep -v '^#' examples/llm_train/kernels.txt | awk '{print $2}'); do
	if FIBERC_ARGS=--fiber-runtime sh examples/llm_train/run.sh "$tmp/run" functional "$sym" > "$tmp/log" 2>&1; then
		ok "$sym: a100, a100-fiber, h100, h100-fiber match the CPU reference; fiberc's output identical"
	else
		bad "$sym"; sed 's/^/  | /' "$tmp/log" | head -n 12
	fi
done
# the reference check can fail: one value of gelu_fwd's output changed
spec=$(awk '$2 == "gelu_fwd" {print $6}' examples/llm_train/kernels.txt)
k=$tmp/run/gelu_fwd
if [ -f "$k/out.out" ]; then
	printf '\000\000\200\077' | dd of="$k/out.out" bs=1 seek=400 conv=notrunc 2> /dev/null
	"$tmp/run/llm_ref" check "$k" gelu_fwd "$spec" 2> /dev/null &&
		bad "llm_ref accepts a corrupted gelu_fwd output" || ok "llm_ref rejects a corrupted gelu_fwd output"
else
	bad "no gelu_fwd output to corrupt"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
