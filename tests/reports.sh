#!/bin/sh
# reports.sh: what researchers read from fibersim's outputs (runtime/compare.c, annotate.c,
# cpisvg.c; docs/sim-stats.md): `fibersim compare A.json B.json` (table and --json, refusal of
# files that do not match), `fibersim annotate STATS.json FILE.sass` (the per-instruction
# statistics beside the listing, refusal of another listing), and the two-file `cpi-svg`.
# Environment: B (build directory). Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
root=$(pwd)
SIM=$root/$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 12; }

# expect STATUS PATTERN DESCRIPTION -- fibersim arguments...: exit status STATUS, and standard
# error (status != 0) or standard output (0) matches the grep pattern PATTERN
expect() {
	want=$1 pat=$2 d=$3
	shift 4
	"$SIM" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$want" -eq 0 ]; then where=$tmp/out; else where=$tmp/err; fi
	if [ "$rc" -ne "$want" ]; then
		bad "$d: exit $rc, want $want"; show "$tmp/err"
	elif [ -n "$pat" ] && ! grep -q -e "$pat" "$where"; then
		bad "$d: output lacks '$pat'"; show "$where"
	else
		ok "$d"
	fi
}

S80=examples/softmax/softmax.sm_80.sass
S90=examples/softmax/softmax.sm_90.sass
RUN="--kernel softmax_rows --grid 2 --block 128"
head -c 8192 /dev/zero > "$tmp/x.bin"
ARGS="--arg buf:$tmp/x.bin --arg zeros:8192 --arg i32:8 --arg i32:256"
if [ ! -x "$SIM" ]; then
	bad "$SIM is missing (make all)"
	echo "$pass passed, $fail failed"
	exit 1
fi
"$SIM" run $S80 $RUN $ARGS --stats "$tmp/a.json" --quiet &&
"$SIM" run $S80 $RUN $ARGS --stats "$tmp/b.json" --quiet --set sms=16 --set lat_dram=2000 &&
"$SIM" run $S80 $RUN $ARGS --stats "$tmp/f.json" --quiet --functional ||
	{ bad "the runs for the statistics fail"; echo "$pass passed, $fail failed"; exit 1; }
num() { sed -n "s/^  \"$1\": \([0-9]*\),*\$/\\1/p" "$2"; }   # a top-level count of a stats file

# --- compare ---------------------------------------------------------------------------------
expect 0 "speedup of B over A: " "compare A B: the speedup" -- compare "$tmp/a.json" "$tmp/b.json"
ca=$(num cycles "$tmp/a.json") cb=$(num cycles "$tmp/b.json")
grep -q "^  cycles  *$ca  *$cb " "$tmp/out" && ok "compare: the cycles of both ($ca, $cb)" ||
	{ bad "compare: no cycles row with $ca and $cb"; show "$tmp/out"; }
grep -q "configuration keys that differ: .*sms 108 -> 16" "$tmp/out" && grep -q "lat_dram" "$tmp/out" &&
	ok "compare: the configuration keys that differ" || { bad "compare: configuration differences"; show "$tmp/out"; }
for r in issue wait_memory idle; do
	grep -q "^  $r" "$tmp/out" || { bad "compare: no CPI row '$r'"; show "$tmp/out"; }
done
grep -q "^  l2.hit_rate " "$tmp/out" && grep -q "^  dram.gbytes_per_s " "$tmp/out" &&
	ok "compare: memory figures" || bad "compare: memory figures missing"
expect 0 '"speedup"' "compare --json" -- compare --json "$tmp/a.json" "$tmp/b.json"
if command -v python3 > /dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); l = d["launches"][0]
assert abs(l["speedup"] - float(sys.argv[2]) / float(sys.argv[3])) < 1e-5, l["speedup"]
assert l["configuration_differences"]["sms"] == {"a": 108, "b": 16}
assert l["cpi_stack"]["issue"]["a"] == l["figures"]["warp_instructions"]["a"]
' "$tmp/out" "$ca" "$cb" 2> "$tmp/err" && ok "compare --json: valid, speedup = A/B cycles" ||
		{ bad "compare --json content"; show "$tmp/err"; }
else
	bad "python3 is needed to check the compare --json content"
fi
expect 1 "was not timed" "compare refuses a functional run" -- compare "$tmp/a.json" "$tmp/f.json"
expect 1 "not JSON: line 1, column 1" "compare refuses a file that is not JSON" -- compare "$tmp/a.json" README.md
echo '{"version": 1, "x": 2}' > "$tmp/o.json"
expect 1 "not a fibersim statistics file" "compare refuses other JSON" -- compare "$tmp/o.json" "$tmp/a.json"
sed 's/"name": "softmax_rows"/"name": "softmax_v2"/' "$tmp/b.json" > "$tmp/v2.json"
expect 1 "kernel 'softmax_rows' in .* but 'softmax_v2'" "compare refuses different kernels" -- \
	compare "$tmp/a.json" "$tmp/v2.json"
expect 0 "softmax_rows vs softmax_v2" "compare --any-kernel compares them" -- \
	compare --any-kernel "$tmp/a.json" "$tmp/v2.json"
expect 2 "compare needs two statistics files" "compare with one file" -- compare "$tmp/a.json"
expect 2 "unknown option '--frob'" "compare with an unknown option" -- compare --frob "$tmp/a.json" "$tmp/b.json"
expect 1 "cannot open '/nonexistent/a.json'" "compare of a missing file" -- compare /nonexistent/a.json "$tmp/b.json"
echo keep > "$tmp/cmp.txt"
expect 1 "was not timed" "compare -o: a failure" -- compare "$tmp/a.json" "$tmp/f.json" -o "$tmp/cmp.txt"
[ "$(cat "$tmp/cmp.txt")" = keep ] && ! ls "$tmp"/cmp.txt.tmp.* > /dev/null 2>&1 &&
	ok "compare -o: a failure keeps the old file and leaves no temporary" || bad "compare -o clobbered its output"
expect 0 "" "compare -o OUT" -- compare "$tmp/a.json" "$tmp/b.json" -o "$tmp/cmp.txt"
grep -q "speedup of B over A" "$tmp/cmp.txt" && ok "compare -o writes the table" || bad "compare -o"

# --- annotate --------------------------------------------------------------------------------
expect 0 "softmax_rows: launch 0, a100, $ca cycles" "annotate: the header" -- annotate "$tmp/a.json" $S80
# the issued column sums to the warp instructions; every instruction of the listing has a line
wi=$(num warp_instructions "$tmp/a.json")
sed -n '/^hottest/q;p' "$tmp/out" > "$tmp/listing"
sum=$(awk '$0 ~ /\/\*[0-9a-f]*\*\// && $1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }' "$tmp/listing")
[ "$sum" = "$wi" ] && ok "annotate: issues sum to the warp instructions ($wi)" ||
	{ bad "annotate: issues sum to $sum, want $wi"; show "$tmp/listing"; }
n_list=$(sed -n '/^\.text\.softmax_rows:/,/^\t\.section/p' $S80 | grep -c '^ *\/\*[0-9a-f]*\*\/ *[A-Z@]')
n_out=$(grep -c '/\*[0-9a-f]*\*/ ' "$tmp/listing")
[ "$n_list" = "$n_out" ] && ok "annotate: every instruction of the kernel ($n_list)" ||
	bad "annotate: $n_out instruction lines, the listing has $n_list"
grep -q "wait_memory [0-9]*%" "$tmp/out" && grep -q "^hottest instructions by stall cycles:" "$tmp/out" &&
	ok "annotate: top reasons and the hottest instructions" || { bad "annotate: reasons"; show "$tmp/out"; }
expect 1 "not the listing the run was made from" "annotate refuses another listing" -- annotate "$tmp/a.json" $S90
expect 1 "no timed launch" "annotate of a functional run" -- annotate "$tmp/f.json" $S80
expect 1 "--launch 3: the file has 1 launches" "annotate --launch out of range" -- annotate "$tmp/a.json" $S80 --launch 3
expect 2 "--top needs a number" "annotate --top x" -- annotate "$tmp/a.json" $S80 --top x
expect 2 "annotate needs STATS.json and FILE.sass" "annotate with one file" -- annotate "$tmp/a.json"
sed 's/softmax_rows/other_kernel/g' $S80 > "$tmp/other.sass"
expect 1 "has no kernel 'softmax_rows'" "annotate of a listing without the kernel" -- annotate "$tmp/a.json" "$tmp/other.sass"

# --- cpi-svg ---------------------------------------------------------------------------------
# fits WIDTH FILE: every text at x=10 (title, subtitle, file names) fits the picture at 6 pixels
# a character (the 11-pixel sans-serif is narrower; the 15-pixel bold title is at 8.5)
fits() {
	awk -v w="$1" '
	/<text x="10"/ { t = $0; sub(/^<text[^>]*>/, "", t); sub(/<\/text>.*/, "", t)
		px = (index($0, "font-size=\"15\"") ? 8.5 : 6); if (10 + length(t) * px > w) { print t; bad = 1 } }
	END { exit bad }' "$2"
}
width() { sed -n 's/.*<svg [^>]* width="\([0-9]*\)".*/\1/p' "$1"; }
expect 0 "" "cpi-svg A.json" -- cpi-svg "$tmp/a.json" -o "$tmp/a.svg"
grep -q "idle left out (up to 9[0-9]\.[0-9]% of a stack" "$tmp/a.svg" && ! grep -q '<title>idle:' "$tmp/a.svg" &&
	ok "cpi-svg: a mostly idle stack leaves idle out and says so" || { bad "cpi-svg: idle kept"; show "$tmp/a.svg"; }
grep -q ">$ca cycles</text>" "$tmp/a.svg" && grep -q '>a100</text>' "$tmp/a.svg" && grep -q '>softmax_rows</text>' "$tmp/a.svg" &&
	ok "cpi-svg: kernel, cycles and configuration under the bar" || { bad "cpi-svg: bar labels"; show "$tmp/a.svg"; }
expect 0 "" "cpi-svg --idle" -- cpi-svg "$tmp/a.json" --idle -o "$tmp/i.svg"
grep -q '<title>idle:' "$tmp/i.svg" && ok "cpi-svg --idle keeps idle" || bad "cpi-svg --idle"
expect 0 "" "cpi-svg A.json B.json" -- cpi-svg "$tmp/a.json" "$tmp/b.json" -o "$tmp/ab.svg"
grep -q '>A: <title>\|<title>softmax_rows</title>A: softmax_rows' "$tmp/ab.svg" &&
	grep -q '<title>softmax_rows</title>B: softmax_rows' "$tmp/ab.svg" &&
	grep -q ">$cb cycles</text>" "$tmp/ab.svg" && ok "cpi-svg A B: both launches, labelled" ||
	{ bad "cpi-svg A B"; show "$tmp/ab.svg"; }
long=_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock12MmaPipelinedINS1_9GemmShapeILi128ELi128ELi8EEEPKfNS_6layout8RowMajorEEEEEvNT_6ParamsE
sed "s/\"name\": \"softmax_rows\"/\"name\": \"$long\"/" "$tmp/b.json" > "$tmp/long.json"
expect 0 "" "cpi-svg of a long kernel name" -- cpi-svg "$tmp/long.json" "$tmp/a.json" --title "$long" -o "$tmp/l.svg"
fits "$(width "$tmp/l.svg")" "$tmp/l.svg" > "$tmp/err" && ok "cpi-svg: title and subtitle fit the picture" ||
	{ bad "cpi-svg: clipped text"; show "$tmp/err"; }
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/l.svg" 2> "$tmp/err" &&
	ok "cpi-svg: well-formed XML" || { bad "cpi-svg XML"; show "$tmp/err"; }
"$SIM" run $S80 --kernel softmax_rows --grid 3 --block 128 $ARGS --stats "$tmp/g3.json" --quiet
expect 0 "" "cpi-svg --per-sm" -- cpi-svg "$tmp/g3.json" --per-sm -o "$tmp/sm.svg"
[ "$(grep -c '</title>SM [0-9]* softmax_rows</text>' "$tmp/sm.svg")" -eq 3 ] &&
	ok "cpi-svg --per-sm: a bar per SM with warps" || { bad "cpi-svg --per-sm"; show "$tmp/sm.svg"; }
expect 2 "more than two statistics files" "cpi-svg with three files" -- cpi-svg "$tmp/a.json" "$tmp/a.json" "$tmp/a.json" -o "$tmp/x.svg"
expect 1 "f.json': no kernel has a CPI stack" "cpi-svg of a functional run" -- cpi-svg "$tmp/f.json" -o "$tmp/x.svg"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
