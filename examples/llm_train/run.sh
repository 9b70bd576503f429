#!/bin/sh
# run.sh: run every kernel of examples/llm_train/kernels.txt on the simulator, as written by nvcc
# and as compiled by `fiberc --mode=cuda-native`, check each output against the CPU reference
# (llm_ref.c) and each fiberc output byte for byte against the input listing's output.
#
#   sh examples/llm_train/run.sh OUTDIR [functional|timing] [KERNEL...]
#       functional (default): values only (the test, tests/llm_train.sh)
#       timing: also cycles; prints one table row per kernel:
#         kernel a100 a100-fiber(input) a100-fiber(output) h100 h100-fiber(input) h100-fiber(output)
#         phases-split(sm_80/sm_90) outputs
# Environment: FIBERC, FIBERSIM (default build/bin/...), CC, FIBERC_ARGS (more fiberc options).
set -eu
out=${1:?usage: run.sh OUTDIR [functional|timing] [KERNEL...]}
how=${2:-functional}
[ $# -ge 2 ] && shift 2 || shift $#
dir=$(dirname "$0")
fiberc=${FIBERC:-build/bin/fiberc}
sim=${FIBERSIM:-build/bin/fibersim}
want=" $* "
mkdir -p "$out"
${CC:-cc} -std=c11 -O1 -o "$out/llm_ref" "$dir/llm_ref.c" -lm
fail=0
for a in sm_80 sm_90; do
	# shellcheck disable=SC2086
	"$fiberc" "$dir/llm_train.$a.sass" --mode=cuda-native ${FIBERC_ARGS:-} -o "$out/llm_train.$a.fsass.tmp" \
		2> "$out/fiberc.$a.log" && mv "$out/llm_train.$a.fsass.tmp" "$out/llm_train.$a.fsass" ||
		{ echo "fiberc $a failed:"; cat "$out/fiberc.$a.log"; exit 1; }
done
grep -v '^#' "$dir/kernels.txt" | while read -r _ sym grid block smem params; do
	[ -n "$sym" ] || continue
	if [ "$want" != "  " ]; then case $want in *" $sym "*) ;; *) continue;; esac; fi
	k=$out/$sym
	mkdir -p "$k"
	"$out/llm_ref" gen "$k" "$sym" "$params"
	row="$sym"
	same=identical
	for run in "sm_80 a100 sass" "sm_80 a100-fiber sass" "sm_80 a100-fiber fsass" \
	           "sm_90 h100 sass" "sm_90 h100-fiber sass" "sm_90 h100-fiber fsass"; do
		set -- $run
		a=$1 cfg=$2 kind=$3
		if [ "$kind" = sass ]; then lst=$dir/llm_train.$a.sass; else lst=$out/llm_train.$a.fsass; fi
		args= outs= i=0
		for p in $(echo "$params" | tr ',' ' '); do
			name=${p%%:*} rest=${p#*:}
			case $rest in
			*'*['*)
				cp "$k/$name.bin" "$k/$name.out"
				args="$args --arg buf:$k/$name.out"
				case $rest in *:out|*:inout) outs="$outs --out $i:$k/$name.out";; esac;;
			*) args="$args --arg ${rest%%=*}:${rest#*=}";;
			esac
			i=$((i + 1))
		done
		mode=--functional
		[ "$how" = timing ] && mode=
		# shellcheck disable=SC2086
		if ! "$sim" run "$lst" --config "$cfg" --kernel "$sym" --grid "$grid" --block "$block" \
			--dynamic-smem "$smem" $args $outs $mode --stats "$k/$cfg.$kind.json" --quiet; then
			echo "$sym: $cfg $kind: fibersim failed"; fail=1; continue
		fi
		if ! "$out/llm_ref" check "$k" "$sym" "$params"; then
			echo "$sym: $cfg $kind: differs from the CPU reference"; fail=1
		fi
		# every output buffer of this run, to compare with the input listing's on this arch
		cat $(for p in $(echo "$params" | tr ',' ' '); do case $p in *:out|*:inout) echo "$k/${p%%:*}.out";; esac; done) \
			> "$k/$cfg.$kind.bytes"
		if [ "$kind" = fsass ] && ! cmp -s "$k/$cfg.$kind.bytes" "$k/$cfg.sass.bytes"; then
			echo "$sym: $cfg: fiberc's output changes the kernel's results"; fail=1; same=DIFFER
		fi
		if [ "$how" = timing ]; then
			row="$row $(sed -n 's/^ *"cycles": *\([0-9]*\).*/\1/p' "$k/$cfg.$kind.json" | head -1)"
		fi
	done
	[ "$how" = timing ] && echo "$row $same"
	[ $fail = 0 ] || exit 1
done
