#!/bin/sh
# example-stats.sh: run every example kernel of examples/kernels.txt on every configuration
# (a100 for the sm_80 listing; h100 and b200 for the sm_90 listing) in timing mode, and write
# each run's output buffers and statistics JSON into OUTDIR, with the simulator's own speed
# (host seconds, rates) removed so that two runs of the same code compare byte for byte.
#
#   sh scripts/example-stats.sh OUTDIR [FIBERSIM]
#   PAIRS="sm_80 a100-fiber,sm_90 h100-fiber" LISTING=DIR/%s.%a.fsass sh scripts/example-stats.sh ...
#       other (listing, configuration) pairs; LISTING names each kernel's listing, %s the example
#       directory, %a the architecture (default examples/%s/%s.%a.sass)
#   KERNELS=FILE                another kernel table in the same format (a trailing column, such
#                               as examples/fiber-native/kernels.txt's SIMT example, is ignored)
#   SIM_ARGS="--set k=v ..."    more fibersim options for every run
#   diff -r BEFORE AFTER        # what a change moved: outputs, cycles, every statistic
#
# Inputs are deterministic: every pointer parameter is a buffer of a fixed byte pattern
# (examples/kernels.txt gives the sizes). Two-kernel examples run their lines in order and the
# second reads the first's outputs by parameter name, as tests/check_kernels.c does.
set -eu
out=${1:?usage: example-stats.sh OUTDIR [FIBERSIM]}
sim=${2:-build/bin/fibersim}
mkdir -p "$out"

elem_bytes() {
	case $1 in f32|u32|i32|f16x2) echo 4;; f16) echo 2;; *) echo "bad type $1" >&2; exit 1;; esac
}
# pattern BYTES FILE: deterministic small numbers (bytes 0x00..0x3f repeated, little-endian
# words): finite for f32 and f16 alike
pattern() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%c", (i * 7 + 3) % 64 }' > "$2"
}

grep -v '^#' "${KERNELS:-examples/kernels.txt}" | while read -r dir sym grid block smem params _; do
	[ -n "$dir" ] || continue
	echo "${PAIRS:-sm_80 a100,sm_90 h100,sm_90 b200}" | tr ',' '\n' | while read -r pair; do
		set -- $pair
		arch=$1 cfg=$2
		tag=$cfg.$sym
		run_args=
		outs=
		i=0
		for p in $(echo "$params" | tr ',' ' '); do
			name=${p%%:*}
			rest=${p#*:}
			case $rest in
			*'*['*)
				ty=${rest%%\**}
				cnt=${rest#*[}; cnt=${cnt%%]*}
				dirn=${rest##*:}
				bytes=$(( cnt * $(elem_bytes "$ty") ))
				f=$out/$cfg.$dir.$name.bin
				if [ "$dirn" = out ] || [ ! -f "$f" ]; then pattern "$bytes" "$f"; fi
				run_args="$run_args --arg buf:$f"
				[ "$dirn" = out ] && outs="$outs --out $i:$f"
				;;
			*)
				ty=${rest%%=*}
				val=${rest#*=}
				run_args="$run_args --arg $ty:$val"
				;;
			esac
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		listing=$(echo "${LISTING:-examples/%s/%s.%a.sass}" | sed "s|%s|$dir|g; s|%a|$arch|g")
		"$sim" run "$listing" --config "$cfg" --kernel "$sym" \
			--grid "$grid" --block "$block" --dynamic-smem "$smem" $run_args $outs \
			--stats "$out/$tag.json" --quiet ${SIM_ARGS:-} || echo "$tag: exit $?" >> "$out/failures.txt"
		# (an if: a failed last run must not end the loops, and the script, under set -e)
		if [ -f "$out/$tag.json" ]; then
			grep -v -E '"(host_seconds|sim_seconds|wall_seconds|[a-z_]*per_second|[a-z_]*_per_s)"' \
				"$out/$tag.json" > "$out/$tag.json.tmp" && mv "$out/$tag.json.tmp" "$out/$tag.json"
		fi
	done
done
ls "$out" | wc -l
