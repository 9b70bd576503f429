#!/bin/sh
# fiber-demo.sh: cycles of each FIBER-native kernel (examples/fiber-native/kernels.txt) on
# a100-fiber and h100-fiber, against its SIMT example on a100 and h100, and on a100-fiber under
# each ablation (fiber_dp, fiber_fs, fiber_rs = 0, set with fibersim --set). gemm_silu does
# gemm_tc's work plus a silu epilogue. Inputs are random (seeded) buffers of the listed sizes.
# A run that fails prints its cell as "fail" (its error on stderr). Environment: FIBERSIM.
set -u
FIBERSIM=${FIBERSIM:-build/bin/fibersim}
dir=examples/fiber-native
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. scripts/fiber-run.sh

hdr='%-15s %9s %10s %9s %10s %10s %10s %10s\n'
printf "$hdr" kernel "simt a100" "a100-fiber" "simt h100" "h100-fiber" "fiber_dp=0" "fiber_fs=0" "fiber_rs=0"
grep -v '^#' "$dir/kernels.txt" | while read -r file sym grid block smem params simt; do
	[ -n "$file" ] || continue
	a=$(args "$params")
	line=$(grep "^$simt $sym " examples/kernels.txt | head -n 1)
	sgrid=$(echo "$line" | cut -d' ' -f3) sblock=$(echo "$line" | cut -d' ' -f4)
	s=$(cycles "examples/$simt/$simt.sm_80.sass" "$sym" "$sgrid" "$sblock" "$a" a100)
	f=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber)
	sh=$(cycles "examples/$simt/$simt.sm_90.sass" "$sym" "$sgrid" "$sblock" "$a" h100)
	fh=$(cycles "$dir/$file.sm_90.fsass" "$sym" "$grid" "$block" "$a" h100-fiber)
	dp=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber fiber_dp=0)
	fs=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber fiber_fs=0)
	rs=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber fiber_rs=0)
	printf "$hdr" "$file" "$s" "$f" "$sh" "$fh" "$dp" "$fs" "$rs"
done
