#!/bin/sh
# fiber-run.sh: shell functions the FIBER example scripts share (sourced by scripts/fiber-demo.sh
# and scripts/fiber-sensitivity.sh, with FIBERSIM and tmp, a scratch directory, set): `args`
# turns a parameter list of examples/fiber-native/kernels.txt into seeded random --arg inputs,
# `cycles` runs one kernel and prints its cycles ("fail", its error on stderr, if it fails).

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

