#!/bin/sh
# fiber-bench.sh: what fiberc's CUDA-native mode does to the cycles of every example kernel
# (`make fiber-bench`). Each example's nvcc listing (sm_80, sm_90) runs on the SIMT SM (a100,
# h100); `fiberc --mode=cuda-native` compiles it and the output runs on the FIBER SM (a100-fiber,
# h100-fiber), with the same deterministic inputs (scripts/example-stats.sh). Per kernel: SIMT
# cycles, FIBER cycles, the speedup, the fiber counts fiberc chose (its --stats), whether the
# output buffers are identical, and the CPI-stack reasons that moved most (FIBER minus SIMT,
# cycles summed over warps). The last line checks the rule of issue 10: no kernel more than 2%
# slower; the exit status is 1 if one is, or if any output differs. The CPI reason idle (SM
# cycles with no warp resident, which follow the cycle count) is left out of the moved reasons.
#
#   sh scripts/fiber-bench.sh [WORKDIR]        (FIBERC, FIBERSIM: the binaries)
set -eu
work=${1:-build/fiber-bench}
fc=${FIBERC:-build/bin/fiberc}
sim=${FIBERSIM:-build/bin/fibersim}
rm -rf "$work"
mkdir -p "$work/fsass" "$work/simt" "$work/fiber"

# compile every example listing, keeping fiberc's --stats for the fiber counts
# (told the launch's grid, the largest of the listing's kernels: docs/pass-phases.md)
for d in $(grep -v '^#' examples/kernels.txt | awk 'NF { print $1 }' | sort -u); do
	g=$(grep -v '^#' examples/kernels.txt | awk -v d="$d" '$1 == d { split($3, x, ",");
		n = x[1] * x[2] * x[3]; if (n > m) m = n } END { print m }')
	for a in sm_80 sm_90; do
		"$fc" "examples/$d/$d.$a.sass" --mode=cuda-native --fiber-grid="$g" --stats \
			-o "$work/fsass/$d.$a.fsass" 2> "$work/fsass/$d.$a.stats"
	done
done
sh scripts/example-stats.sh "$work/simt" "$sim" > /dev/null
PAIRS="sm_80 a100-fiber,sm_90 h100-fiber" LISTING="$work/fsass/%s.%a.fsass" \
	sh scripts/example-stats.sh "$work/fiber" "$sim" > /dev/null
for f in "$work/simt/failures.txt" "$work/fiber/failures.txt"; do
	[ -f "$f" ] && { echo "fiber-bench: runs failed:"; cat "$f"; exit 1; }
done

# the first "cycles" of a stats file (the module total), the kernel's cpi_stack line
cycles() { sed -n 's/^  "cycles": \([0-9]*\),*$/\1/p' "$1" | head -1; }
cpi() { grep -m1 '"cpi_stack":' "$1" | sed 's/.*{//; s/}.*//; s/[" ]//g' | tr ',' '\n'; }

printf '%-22s %-6s %10s %10s %8s %-14s %-4s %s\n' kernel arch simt fiber speedup fibers same \
	'cpi moved (fiber - simt)'
slow=0 differ=0 n=0 logsum=0
grep -v '^#' examples/kernels.txt | while read -r dir sym rest; do
	[ -n "$dir" ] || continue
	for pair in "sm_80 a100 a100-fiber" "sm_90 h100 h100-fiber"; do
		set -- $pair
		s=$work/simt/$2.$sym.json f=$work/fiber/$3.$sym.json
		cs=$(cycles "$s") cf=$(cycles "$f")
		same=yes
		for b in "$work/simt/$2.$dir".*.bin; do
			o=$work/fiber/$3.$dir.${b##*/$2.$dir.}
			cmp -s "$b" "$o" || same=NO
		done
		fibers=$(awk -v k="$sym" '$1 == "fibers:" && $2 == k { $1 = $2 = ""; print; exit }' \
			"$work/fsass/$dir.$1.stats" | sed 's/^ *//; s/ /,/g')
		moved=$(cpi "$s" > "$work/a" && cpi "$f" > "$work/b" && join -t: "$work/a" "$work/b" |
			awk -F: '$1 != "idle" && $2 != $3 { d = $3 - $2; printf "%s %+d\n", $1, d }' |
			sort -k2,2nr | awk '{ print ($2 < 0 ? -$2 : $2), $0 }' | sort -nr | head -3 |
			cut -d' ' -f2- | tr '\n' ' ')
		printf '%-22s %-6s %10s %10s %8s %-14s %-4s %s\n' "$sym" "$1" "$cs" "$cf" \
			"$(awk -v a="$cs" -v b="$cf" 'BEGIN { printf "%.3f", a / b }')" \
			"${fibers:-launch}" "$same" "${moved:-none}"
		echo "$cs $cf $same" >> "$work/rows"
	done
done
awk '{ n++; r = $1 / $2; l += log(r); if ($2 > $1 * 1.02) slow++; if ($3 != "yes") diff++ }
     END { printf "%d runs: geometric-mean speedup %.3f, %d more than 2%% slower, %d with other outputs\n",
                  n, exp(l / n), slow, diff; exit (slow || diff) ? 1 : 0 }' "$work/rows"
