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

# args PARAMS: --arg options for a parameter list (random inputs, zeroed outputs)
args() {
	echo "$1" | tr ',' '\n' | awk -v t="$tmp" 'BEGIN { srand(1); n = 0 }
	{
		split($0, f, ":")
		if (f[2] ~ /\*/) {
			match(f[2], /\[[0-9]+\]/); cnt = substr(f[2], RSTART + 1, RLENGTH - 2)
			ty = f[2]; sub(/\*.*/, "", ty)
			sz = (ty == "f16") ? 2 : 4
			bytes = cnt * sz
			if (f[3] == "out") { printf " --arg zeros:%d", bytes }
			else {
				file = t "/in" n ".bin"
				# bytes of small f16 values (sign, exponent 12..15) or 32-bit ints of small range
				printf "" > file
				for (i = 0; i < bytes; i += 2)
					printf "%c%c", int(rand() * 256), 48 + int(rand() * 12) + (rand() < 0.5 ? 128 : 0) > file
				close(file)
				printf " --arg buf:%s", file
			}
		} else {
			split(f[2], v, "="); ty = v[1]
			printf " --arg %s:%s", ty, v[2]
		}
		n++
	}'
}
# cycles FILE KERNEL GRID BLOCK ARGS CONFIG [SET...]
cycles() {
	f=$1 k=$2 g=$3 b=$4 a=$5 c=$6
	shift 6
	sets=
	for s in "$@"; do sets="$sets --set $s"; done
	# shellcheck disable=SC2086
	if "$FIBERSIM" run "$f" --kernel "$k" --grid "$g" --block "$b" --config "$c" $sets $a \
		--quiet --stats "$tmp/st.json" 2> "$tmp/err"; then
		sed -n 's/.*"cycles": *\([0-9]*\).*/\1/p' "$tmp/st.json" | head -n 1
	else
		sed 's/^/  /' "$tmp/err" | head -n 3 >&2
		echo fail
	fi
}

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
