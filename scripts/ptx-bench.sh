#!/bin/sh
# ptx-bench.sh: the quality of fiber's PTX code generator (`make ptx-bench`, issue 11). Every
# example's PTX (examples/<dir>/<dir>.sm_80.ptx, .sm_90.ptx) is compiled by `fiberc`; nvcc's
# listing and fiberc's run on a100 (sm_80) and h100 (sm_90) in timing mode with the same
# deterministic inputs (scripts/example-stats.sh). Per kernel: nvcc's cycles, fiberc's, the ratio
# (fiberc / nvcc: above 1 is slower), registers (SHI_REGISTERS of each listing), fiberc's spill
# instructions (STL/LDL it wrote that nvcc's listing does not have: the frame), and whether the
# output buffers are bit-identical (they need not be where the arithmetic is approximate: the
# functional check against the CPU references is tests/check_kernels.c's). The last line gives
# the geometric mean of the ratios against the targets: within 1.3x, no kernel beyond 2x; the exit
# status is 1 when one is missed or a run failed.
#
#   sh scripts/ptx-bench.sh [WORKDIR]        (FIBERC, FIBERSIM: the binaries)
set -eu
work=${1:-build/ptx-bench}
fc=${FIBERC:-build/bin/fiberc}
sim=${FIBERSIM:-build/bin/fibersim}
rm -rf "$work"
mkdir -p "$work/sass" "$work/nvcc" "$work/fiberc"

for d in $(grep -v '^#' examples/kernels.txt | awk 'NF { print $1 }' | sort -u); do
	for a in sm_80 sm_90; do
		if ! "$fc" "examples/$d/$d.$a.ptx" --arch="$a" -o "$work/sass/$d.$a.sass" \
		    2> "$work/sass/$d.$a.log"; then
			echo "ptx-bench: fiberc failed on examples/$d/$d.$a.ptx:"; head -5 "$work/sass/$d.$a.log"
			exit 1
		fi
	done
done
PAIRS="sm_80 a100,sm_90 h100" sh scripts/example-stats.sh "$work/nvcc" "$sim" > /dev/null
PAIRS="sm_80 a100,sm_90 h100" LISTING="$work/sass/%s.%a.sass" \
	sh scripts/example-stats.sh "$work/fiberc" "$sim" > /dev/null
for f in "$work/nvcc/failures.txt" "$work/fiberc/failures.txt"; do
	[ -f "$f" ] && { echo "ptx-bench: runs failed:"; cat "$f"; exit 1; }
done

cycles() { sed -n 's/^  "cycles": \([0-9]*\),*$/\1/p' "$1" | head -1; }
# regs LISTING KERNEL: the kernel's EIATTR_REGCOUNT (.nv.info: the word after index@(KERNEL))
regs() { awk -v s="index@($2)" '/EIATTR_REGCOUNT/ { r = 1; next } /nvinfo :/ { r = 0 }
	r && index($0, s) { getline; sub(/.*\.word[ \t]*0x/, ""); n = 0
		for (i = 1; i <= length($0); i++) n = n * 16 + index("0123456789abcdef", substr($0, i, 1)) - 1
		print n; exit }' "$1"; }
# spills LISTING KERNEL: STL and LDL instructions in the kernel's text section
spills() { awk -v s=".section\t.text.$2," 'index($0, s) { t = 1; next } t && /\.section/ { t = 0 }
	t && /[^A-Z](STL|LDL)[. ]/ { n++ } END { print n + 0 }' "$1"; }

printf '%-22s %-6s %9s %9s %7s %9s %7s %-4s\n' kernel arch nvcc fiberc ratio 'regs n/f' spills same
: > "$work/rows"
grep -v '^#' examples/kernels.txt | while read -r dir sym rest; do
	[ -n "$dir" ] || continue
	for pair in "sm_80 a100" "sm_90 h100"; do
		set -- $pair
		n=$work/nvcc/$2.$sym.json f=$work/fiberc/$2.$sym.json
		cn=$(cycles "$n") cf=$(cycles "$f")
		same=yes
		for b in "$work/nvcc/$2.$dir".*.bin; do
			cmp -s "$b" "$work/fiberc/${b##*/}" || same=no
		done
		rn=$(regs "examples/$dir/$dir.$1.sass" "$sym") rf=$(regs "$work/sass/$dir.$1.sass" "$sym")
		sp=$(spills "$work/sass/$dir.$1.sass" "$sym")
		printf '%-22s %-6s %9s %9s %7s %9s %7s %-4s\n' "$sym" "$1" "$cn" "$cf" \
			"$(awk -v a="$cn" -v b="$cf" 'BEGIN { printf "%.3f", b / a }')" "$rn/$rf" "$sp" "$same"
		echo "$cn $cf" >> "$work/rows"
	done
done
awk '{ n++; r = $2 / $1; l += log(r); if (r > 2) over++; if (r > m) m = r }
     END { g = exp(l / n); printf "%d runs: geometric mean fiberc/nvcc %.3f (target <= 1.3), worst %.3f, %d beyond 2x\n",
                  n, g, m, over; exit (g > 1.3 || over) ? 1 : 0 }' "$work/rows"
