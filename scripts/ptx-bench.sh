#!/bin/sh
# ptx-bench.sh: the quality of fiber's PTX code generator (`make ptx-bench`, issues 11 and 23).
# Three groups of kernels, each PTX compiled by `fiberc` and run against ptxas's code for the same
# PTX (nvcc's listing) on a100 (sm_80) and h100 (sm_90) in timing mode with the same
# deterministic inputs (scripts/example-stats.sh):
#   - the examples (examples/kernels.txt; examples/<dir>/<dir>.sm_80.ptx, .sm_90.ptx, compiled
#     with --arch);
#   - bench/ptx (bench/ptx/kernels.txt): Triton's PTX (bench/ptx/triton_kernels.py) and everyday CUDA
#     (bf16, warpSize, assert), compiled for the PTX's own .target (Triton writes sm_90a);
#   - the corpus (tests/corpus/*.ptx): compiled only, per kernel registers and spills (its
#     kernels have no launch table: tests/check_ptxdiff.c runs them functionally).
# Per kernel: nvcc's cycles, fiberc's, the ratio (fiberc / nvcc: above 1 is slower), registers
# (EIATTR_REGCOUNT of each listing), fiberc's spill instructions (STL/LDL in its kernel: nvcc's
# kernels here have none), and whether the output buffers are bit-identical (they need not be
# where the arithmetic is approximate). A kernel fiberc refuses is a row `refused` with fiberc's
# first reason; one whose listing the simulator cannot run says so (`nvcc: no run`).
# Each group ends with the geometric mean of the ratios. The exit status is 1 when the examples
# miss their targets (within 1.3x, no kernel beyond 2x) or one of their runs failed; the other
# groups are reported (issue 23's targets for them: 1.10x, no kernel beyond 1.5x).
#
#   sh scripts/ptx-bench.sh [WORKDIR]        (FIBERC, FIBERSIM: the binaries)
set -eu
work=${1:-build/ptx-bench}
fc=${FIBERC:-build/bin/fiberc}
sim=${FIBERSIM:-build/bin/fibersim}
rm -rf "$work"
mkdir -p "$work/sass" "$work/nvcc" "$work/fiberc" "$work/bnvcc" "$work/bfiberc" "$work/corpus"

cycles() { sed -n 's/^  "cycles": \([0-9]*\),*$/\1/p' "$1" 2> /dev/null | head -1; }
# regs LISTING KERNEL: the kernel's EIATTR_REGCOUNT (.nv.info: the word after index@(KERNEL))
regs() { awk -v s="index@($2)" '/EIATTR_REGCOUNT/ { r = 1; next } /nvinfo :/ { r = 0 }
	r && index($0, s) { getline; sub(/.*\.word[ \t]*0x/, ""); n = 0
		for (i = 1; i <= length($0); i++) n = n * 16 + index("0123456789abcdef", substr($0, i, 1)) - 1
		print n; exit }' "$1" 2> /dev/null; }
# spills LISTING KERNEL: STL and LDL instructions in the kernel's text section
spills() { awk -v s=".section\t.text.$2," 'index($0, s) { t = 1; next } t && /^[ \t]*\.section[ \t]/ { t = 0 }
	t && /[^A-Z](STL|LDL)[. ]/ { n++ } END { print n + 0 }' "$1" 2> /dev/null; }
# refusal LOG KERNEL: fiberc's first error before the note that refuses KERNEL, else nothing
refusal() { awk -v k="kernel '$2' is refused" '/: error: / { if (!e) e = $0 }
	index($0, k) { sub(/^[^ ]* error: /, "", e); print e; exit } /: note: kernel / { e = "" }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }
header() { printf '%-22s %-6s %9s %9s %7s %9s %7s %-4s\n' kernel arch nvcc fiberc ratio 'regs n/f' spills same; }

# --- the examples ------------------------------------------------------------------------------
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

echo "examples (examples/kernels.txt):"
header
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
			"$(ratio "$cn" "$cf")" "$rn/$rf" "$sp" "$same"
		echo "$cn $cf" >> "$work/rows"
	done
done
awk '{ n++; r = $2 / $1; l += log(r); if (r > 2) over++; if (r > m) m = r }
     END { g = exp(l / n); printf "%d runs: geometric mean fiberc/nvcc %.3f (target <= 1.3), worst %.3f, %d beyond 2x\n",
                  n, g, m, over; exit (g > 1.3 || over) ? 1 : 0 }' "$work/rows" && st=0 || st=1

# --- bench/ptx: Triton's PTX and everyday CUDA ---------------------------------------------------
for d in $(grep -v '^#' bench/ptx/kernels.txt | awk 'NF { print $1 }' | sort -u); do
	for a in sm_80 sm_90; do
		# a refused kernel leaves the others in the output (status 1): the rows say which
		"$fc" "bench/ptx/$d/$d.$a.ptx" -o "$work/sass/b.$d.$a.sass" 2> "$work/sass/b.$d.$a.log" || :
	done
done
PAIRS="sm_80 a100,sm_90 h100" KERNELS=bench/ptx/kernels.txt LISTING="bench/ptx/%s/%s.%a.sass" \
	sh scripts/example-stats.sh "$work/bnvcc" "$sim" > /dev/null 2> "$work/bnvcc.log" || :
PAIRS="sm_80 a100,sm_90 h100" KERNELS=bench/ptx/kernels.txt LISTING="$work/sass/b.%s.%a.sass" \
	sh scripts/example-stats.sh "$work/bfiberc" "$sim" > /dev/null 2> "$work/bfiberc.log" || :
echo
echo "Triton's PTX and everyday CUDA (bench/ptx/kernels.txt):"
header
: > "$work/brows"
grep -v '^#' bench/ptx/kernels.txt | while read -r dir sym rest; do
	[ -n "$dir" ] || continue
	for pair in "sm_80 a100" "sm_90 h100"; do
		set -- $pair
		n=$work/bnvcc/$2.$sym.json f=$work/bfiberc/$2.$sym.json
		why=$(refusal "$work/sass/b.$dir.$1.log" "$sym")
		if [ -n "$why" ]; then
			printf '%-22s %-6s %9s refused: %s\n' "$sym" "$1" "$(cycles "$n")" "$why"
			continue
		fi
		cn=$(cycles "$n") cf=$(cycles "$f")
		rn=$(regs "bench/ptx/$dir/$dir.$1.sass" "$sym") rf=$(regs "$work/sass/b.$dir.$1.sass" "$sym")
		sp=$(spills "$work/sass/b.$dir.$1.sass" "$sym")
		if [ -z "$cn" ] || [ -z "$cf" ]; then
			printf '%-22s %-6s %9s %9s %7s %9s %7s %s\n' "$sym" "$1" "${cn:--}" "${cf:--}" - \
				"$rn/$rf" "$sp" "no run: $([ -z "$cn" ] && echo "nvcc's listing ")$([ -z "$cf" ] && echo "fiberc's listing ")(the simulator: see $work/b*.log)"
			continue
		fi
		same=yes
		for b in "$work/bnvcc/$2.$dir".*.bin; do
			cmp -s "$b" "$work/bfiberc/${b##*/}" || same=no
		done
		printf '%-22s %-6s %9s %9s %7s %9s %7s %-4s\n' "$sym" "$1" "$cn" "$cf" \
			"$(ratio "$cn" "$cf")" "$rn/$rf" "$sp" "$same"
		echo "$cn $cf" >> "$work/brows"
	done
done
awk '{ n++; r = $2 / $1; l += log(r); if (r > 1.5) over++; if (r > m) m = r }
     END { if (!n) { print "no run compared"; exit }
           printf "%d runs compared: geometric mean fiberc/nvcc %.3f (target <= 1.10), worst %.3f, %d beyond 1.5x\n",
                  n, exp(l / n), m, over }' "$work/brows"

# --- the corpus: compiled, registers and spills ---------------------------------------------------
echo
echo "the corpus (tests/corpus/*.ptx): kernels compiled or refused; registers nvcc/fiberc, spills"
nk=0 nr=0
for p in tests/corpus/*.ptx; do
	b=$(basename "$p" .ptx)
	"$fc" "$p" -o "$work/corpus/$b.sass" 2> "$work/corpus/$b.log" || :
	for k in $(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\).*/\1/p' "$p"); do
		why=$(refusal "$work/corpus/$b.log" "$k")
		if [ -n "$why" ]; then
			printf '%-22s %-12s refused: %s\n' "$k" "$b" "$why"
			nr=$((nr + 1))
		elif [ -f "$work/corpus/$b.sass" ]; then
			printf '%-22s %-12s regs %s/%s, %s spill instructions\n' "$k" "$b" \
				"$(regs "tests/corpus/$b.sass" "$k")" "$(regs "$work/corpus/$b.sass" "$k")" \
				"$(spills "$work/corpus/$b.sass" "$k")"
			nk=$((nk + 1))
		fi
	done
done
echo "corpus: $nk kernels compiled, $nr refused"
exit "$st"
