#!/bin/sh
# fiber-cuda-demo.sh: `make fiber-cuda-demo`. Every FIBER-native CUDA example of
# examples/fiber-cuda is compiled from its committed PTX (fiberc --mode=fiber-native, sm_80 and
# sm_90) and run against its CPU reference on a100-fiber and h100-fiber, in timing mode, by the
# check case fibercuda/intrinsics (tests/check_fibercuda.c), the GEMM at GEMM=M,N,K (default
# 1024,1024,128: 256 tiles, more than the SMs, so the persistent kernel loops) with one CTA per
# SM; its cycles lines are tabulated beside the SIMT versions (nvcc's SASS on a100/h100). Then
# the GEMM's three builds (nvcc SIMT, fiberc SIMT from the same PTX, fiberc FIBER-native) once
# more through fibersim for their CPI stacks, which say where the cycles go; last the allocator's
# FIBER cases, phase_window and pool_spill.
# Environment: FIBERSIM, FIBERC, CHECK (build/tests/check_all), GEMM.
set -eu
FIBERSIM=${FIBERSIM:-build/bin/fibersim}
FIBERC=${FIBERC:-build/bin/fiberc}
CHECK=${CHECK:-build/tests/check_all}
GEMM=${GEMM:-1024,1024,128}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ex=examples/fiber-cuda

echo "== the FIBER-native CUDA examples against their references (fibercuda/intrinsics; GEMM $GEMM)"
if ! FIBERCUDA_GEMM=$GEMM FIBERCUDA_GRID=sm CK_RUN_SUITE=fibercuda CK_RUN_CASE=intrinsics \
    CK_DEFAULT_TIMEOUT=1200 "$CHECK" > "$tmp/log" 2>&1; then
	cat "$tmp/log"
	echo "fiber-cuda-demo: a FIBER-native CUDA example failed" >&2
	exit 1
fi
grep -E '^[0-9]+%: Checks' "$tmp/log"
printf '%-10s %-6s %12s %12s %12s %12s %7s\n' example target "simt" "cycles" "fiber" "cycles" "ratio"
grep '^fiber-cuda: ' "$tmp/log" | while read -r _ name sfx _ simt sc _ fib fc rest; do
	printf '%-10s %-6s %12s %12s %12s %12s %7s %s\n' "$name" "$sfx" "$simt" "$sc" "$fib" "$fc" \
		"$(awk -v a="$fc" -v b="$sc" 'BEGIN { printf "%.2f", a / b }')" "$rest"
done

# the FFN step beside the hand-written .fsass of examples/fiber-native (same launch, zero inputs)
echo "== silu_ffn: nvcc's and fiberc's SIMT code, the CUDA FIBER version, the hand-written .fsass"
for t in "sm_80 a100 a100-fiber" "sm_90 h100 h100-fiber"; do
	set -- $t
	"$FIBERC" "$ex/silu_ffn_fiber.ptx" --arch="$1" --mode=fiber-native -o "$tmp/ffn.fsass"
	"$FIBERC" "examples/silu_ffn/silu_ffn.$1.ptx" --arch="$1" -o "$tmp/ffn.sass"
	for run in "$2 256 examples/silu_ffn/silu_ffn.$1.sass nvcc-simt" \
	    "$2 256 $tmp/ffn.sass fiberc-simt(silu_ffn.$1.ptx)" \
	    "$3 64 $tmp/ffn.fsass fiberc-fiber(silu_ffn_fiber.cu)" \
	    "$3 64 examples/fiber-native/silu_mul_fiber.$1.fsass hand-written(silu_mul_fiber.$1.fsass)"; do
		set -- $run
		"$FIBERSIM" run "$3" --kernel silu_mul_f16 --config "$1" --grid 4 --block "$2" \
			--arg zeros:4096 --arg zeros:4096 --arg zeros:4096 --arg i32:1024 > "$tmp/run" 2>&1 ||
			{ cat "$tmp/run"; exit 1; }
		printf '%-10s %-40s %s\n' "$1" "$4" "$(sed -n 's/^ *\([0-9]*\) cycles = .*; \([0-9]*\) warp instructions/\1 cycles, \2 warp instructions/p' "$tmp/run")"
	done
done

# the GEMM's CPI stacks: zero inputs (values do not change the timing model's cycles of this
# kernel: no data-dependent branch), the same sizes
m=${GEMM%%,*} r=${GEMM#*,} n=${r%%,*} k=${r#*,}
bytes=$((m * n * 4))
a="--arg zeros:$((m * k * 2)) --arg zeros:$((k * n * 2)) --arg zeros:$bytes --arg i32:$m --arg i32:$n --arg i32:$k"
echo "== gemm_silu ${m}x${n}x${k}: where the cycles go (CPI stack, % of SM sub-partition cycles)"
for t in "sm_80 a100 a100-fiber" "sm_90 h100 h100-fiber"; do
	set -- $t
	"$FIBERC" "$ex/gemm_silu_simt.$1.ptx" --arch="$1" -o "$tmp/simt.sass"
	"$FIBERC" "$ex/gemm_silu_fiber.ptx" --arch="$1" --mode=fiber-native -o "$tmp/fiber.fsass"
	sms=$("$FIBERSIM" run "$tmp/fiber.fsass" --kernel gemm_silu_fiber --config "$3" --grid 1 \
		--block 128 $a 2>&1 | sed -n 's/.* \([0-9]*\) of \([0-9]*\) SMs busy.*/\2/p')
	tiles=$(( (m / 64) * (n / 64) ))
	grid=$(( tiles < sms ? tiles : sms ))
	for run in "nvcc-simt $ex/gemm_silu_simt.$1.sass gemm_silu_simt $2 $((n / 64)),$((m / 64))" \
	    "fiberc-simt $tmp/simt.sass gemm_silu_simt $2 $((n / 64)),$((m / 64))" \
	    "fiberc-fiber $tmp/fiber.fsass gemm_silu_fiber $3 $grid"; do
		set -- $run
		# shellcheck disable=SC2086
		"$FIBERSIM" run "$2" --kernel "$3" --config "$4" --grid "$5" --block 128 $a \
			> "$tmp/run" 2>&1 || { cat "$tmp/run"; exit 1; }
		printf '%-12s %-10s %s\n' "$1" "$4" "$(sed -n 's/^ *\([0-9]*\) cycles = .*; \([0-9]*\) warp instructions/\1 cycles, \2 warp instructions/p' "$tmp/run")"
		sed -n 's/^ *\(CPI stack: .*\)/                          \1/p; s/^ *\(without idle: .*\)/                          \1/p; s/^ *\(tensor pipes .*\)/                          \1/p; s/^ *FIBER: \(.*\)/                          FIBER: \1/p' "$tmp/run"
	done
done

# the allocator's FIBER cases (docs/pass-regalloc.md): phase_window (a SETFIBERNUM without a window
# operand gets one from the pressure) and pool_spill (spills to a pool), each with the alternative
# (--fiber-spill=local; for phase_window one window for all, the rule before, is not an option:
# its figures are in the doc), random inputs of a fixed seed
echo "== the allocator's FIBER cases: a window from the pressure, spilling to a pool"
rand() { LC_ALL=C awk -v n="$1" 'BEGIN { srand(5); for (k = 0; k < n; k++) { v = int(rand() * 2000) - 1000; if (v < 0) v += 4294967296; printf "%c%c%c%c", v % 256, int(v / 256) % 256, int(v / 65536) % 256, int(v / 16777216) } }'; }
rand 8192 > "$tmp/pw.x"
rand 18432 > "$tmp/ps.x"
for t in "sm_80 a100-fiber" "sm_90 h100-fiber"; do
	set -- $t
	"$FIBERC" "$ex/phase_window.ptx" --arch="$1" --mode=fiber-native -o "$tmp/pw.fsass"
	"$FIBERSIM" run "$tmp/pw.fsass" --kernel row_center --config "$2" --grid 2 --block 64 \
		--arg buf:"$tmp/pw.x" --arg zeros:32768 --arg zeros:32768 > "$tmp/run" 2>&1 || { cat "$tmp/run"; exit 1; }
	printf '%-10s %-22s %s; %s\n' "$2" "phase_window" "$(grep -E 'SHI_REG|SETFIBERNUM' "$tmp/pw.fsass" | sed 's|^ */\*[0-9a-f]*\*/ *||; s| *;.*||; s|.*SHI_REGISTERS=\([0-9]*\).*|window \1,|' | tr '\n' ' ')" \
		"$(sed -n 's/^ *\([0-9]*\) cycles = .*; \([0-9]*\) warp instructions/\1 cycles, \2 warp instructions/p' "$tmp/run")"
	for sp in pool local; do
		"$FIBERC" "$ex/pool_spill.ptx" --arch="$1" --mode=fiber-native --fiber-spill=$sp -o "$tmp/ps.fsass"
		"$FIBERSIM" run "$tmp/ps.fsass" --kernel wide_rows --config "$2" --grid 2 --block 32 \
			--arg buf:"$tmp/ps.x" --arg zeros:73728 > "$tmp/run" 2>&1 || { cat "$tmp/run"; exit 1; }
		printf '%-10s %-22s %s LDL/STL, %s pool MOVs; %s\n' "$2" "pool_spill ($sp)" "$(grep -c -E 'LDL|STL' "$tmp/ps.fsass")" \
			"$(grep -c 'MOV.*fiber_spill' "$tmp/ps.fsass")" \
			"$(sed -n 's/^ *\([0-9]*\) cycles = .*; \([0-9]*\) warp instructions/\1 cycles, \2 warp instructions/p' "$tmp/run")"
	done
done
