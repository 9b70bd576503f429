#!/bin/sh
# paper.sh: the smoke test of `make paper-table` (examples/paper, docs/paper-table.md): every
# workload at its QUICK=1 shape on a100, h100 and b200 (SIMT: nvcc's SASS) and a100-fiber,
# h100-fiber, b200-fiber (fiberc --mode=cuda-native), each output checked against its CPU
# reference in the run, and the FIBER-native versions (flash_decode_busy_fiber; flash_decode_fiber
# through --fiber) on the FIBER configurations with their ablations and band; fails on any
# unverified row. Also: table.csv has exactly the issue's
# columns and one row per workload x shape x generation, table.json and table.svg are written,
# and --corrupt (one output bit flipped before the check) makes every row's check fail. The table
# is built as make paper-table builds it: a sweep spec, `fibersim sweep`, paper_table --collect.
# Environment: B (build directory; run-tests builds $B/paper). Prints `N passed, M failed`.
set -u
B=${B:-build}
root=$(pwd)
PT=$root/$B/paper/paper_table
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

cols="workload,shape,generation,baseline_label,simt_cycles,simt_verified,cuda_native_cycles"
cols="$cols,fiber_cycles,fiber_verified,speedup,paper_speedup,dp_off_cycles,fs_off_cycles"
cols="$cols,rs_off_cycles,tc_utilisation,sync_cpi_share,setfibernum_ops,busy_bit_ops,pool_reads"
cols="$cols,band_low,band_high,sampling_error"

if [ ! -x "$PT" ] || [ ! -f "$B/paper/attn_fwd.sm_80.fsass" ]; then
	bad "$PT or $B/paper/*.fsass missing (make paper-table builds them)"
	echo "$pass passed, $fail failed"
	exit 1
fi
# the table as `make paper-table QUICK=1` builds it: the points as a sweep spec, `fibersim sweep`,
# then the table collected from the points
FS=$root/$B/bin/fibersim
if "$PT" --quick --fsass "$B/paper" --program "$PT" --spec "$tmp/q.sweep" &&
	"$FS" sweep "$tmp/q.sweep" -o "$tmp/qs" -j 2 --quiet 2> "$tmp/serr" &&
	"$PT" --quick --collect "$tmp/qs" --out "$tmp/q" > "$tmp/out" 2> "$tmp/err"; then
	ok "paper_table --quick through fibersim sweep: every row verified ($(tail -n 1 "$tmp/out"))"
else
	bad "paper_table --quick through the sweep: exit $?"
	sed 's/^/  | /' "$tmp/serr" "$tmp/out" "$tmp/err" 2>/dev/null | tail -n 30
fi
csv=$tmp/q/table.csv
# the sweep's own results and report: each point's baseline is its row's SIMT point (the spec's
# `baseline simt` and axes gen, sm), so results.csv's speedup of a FIBER-native point is the
# table's speedup; the report's chart labels are not cut (the label column fits the names)
python3 - "$tmp/qs/results.csv" "$csv" > "$tmp/sp" 2>&1 <<'EOF'
import csv, sys
pts = list(csv.DictReader(open(sys.argv[1])))
tab = {(r["workload"], r["generation"]): r for r in csv.DictReader(open(sys.argv[2]))}
n = 0
for p in pts:
    if p["config"] != "fiber":
        continue
    assert p["baseline"] == p["name"][: -len("fiber")] + "simt", p["name"]
    t = tab[("FlashDecoding", p["gen"])]
    assert abs(float(p["speedup"]) - float(t["speedup"])) < 6e-5, (p["speedup"], t["speedup"])
    n += 1
print(n)
EOF
[ "$(cat "$tmp/sp")" = 3 ] && grep -q '<svg id="speedup"[^>]* width="1[0-9][0-9][0-9]"' "$tmp/qs/report.html" &&
	ok "the sweep's results: FIBER-native speedups against their SIMT points equal the table's" ||
	bad "the sweep's speedups or report: $(tail -n 2 "$tmp/sp")"
[ -f "$csv" ] && [ "$(head -n 1 "$csv")" = "$cols" ] && ok "table.csv has the issue's columns" ||
	bad "table.csv header: $(head -n 1 "$csv" 2>/dev/null)"
# rows: workloads x 3 generations; every simt_verified is yes and every cuda_native_cycles set
n=$(tail -n +2 "$csv" 2>/dev/null | wc -l)
[ "$n" -ge 12 ] && [ $((n % 3)) -eq 0 ] && ok "$n rows (workloads x a100, h100, b200)" ||
	bad "$n rows in table.csv"
# the columns after the quoted label: count from the right (the label may hold commas)
nv=$(tail -n +2 "$csv" | awk -F, '{ if ($(NF-16) != "yes" || $(NF-15) !~ /^[0-9]+$/ ||
	$(NF-17) !~ /^[0-9]+$/) print }' | wc -l)
[ "$nv" -eq 0 ] && ok "every row: simt_verified yes, simt and cuda-native cycles present" ||
	bad "$nv rows without a verified SIMT run or CUDA-native cycles"
# the FIBER-native FlashDecoding row (examples/paper/flash_decode_busy_fiber.cu): verified on
# every generation, no SETFIBERNUM (it never changes its fiber count), busy-bit waits and pool
# reads ran (4 CTAs x 16 units x 6 registers read by the combine weft), the FS and RS ablations
# each moved the cycles (the mechanisms they switch off are used), DP off changed nothing
# (nothing to switch off), and the band holds the speedup
fr=$(tail -n +2 "$csv" | awk -F, '$1 == "FlashDecoding" && $(NF-13) == "yes" &&
	$(NF-14) ~ /^[0-9]+$/ && $(NF-5) == 0 && $(NF-4) > 0 && $(NF-3) == 4 * 16 * 6 &&
	$(NF-10) == $(NF-14) && $(NF-9) ~ /^[0-9]+$/ && $(NF-9) != $(NF-14) &&
	$(NF-8) ~ /^[0-9]+$/ && $(NF-8) != $(NF-14) &&
	$(NF-2) <= $(NF-12) && $(NF-12) <= $(NF-1)' | wc -l)
[ "$fr" -eq 3 ] && ok "FIBER-native FlashDecoding (busy bits): verified, pools, FS/RS measured, band" ||
	bad "FIBER-native FlashDecoding: $fr of 3 rows complete"
# rows without a FIBER-native version keep every FIBER column empty
ne=$(tail -n +2 "$csv" | awk -F, '$1 != "FlashDecoding" && ($(NF-14) != "" || $(NF-13) != "" ||
	$(NF-5) != "" || $(NF-1) != "")' | wc -l)
[ "$ne" -eq 0 ] && ok "rows without a FIBER-native version: FIBER columns empty" ||
	bad "$ne rows without a FIBER-native version have FIBER figures"
# regalloc's frame after SETFIBERNUM: flash_decode_fiber.w32.ptx (1024 fibers, a 64-register
# window) spills; every stack pointer set again (after each SETFIBERNUM) must be followed by the
# spill frame, and the kernel must verify (without the frame it faults on a local store)
w=$tmp/w32
mkdir -p "$w"
cp "$B/paper/flash_decode.sm_80.fsass" "$w/"
if "$root/$B/bin/fiberc" examples/paper/flash_decode_fiber.w32.ptx --mode=fiber-native \
	--arch=sm_80 -o "$w/flash_decode_fiber.sm_80.fsass" 2> "$tmp/w32err"; then
	fr=$(awk '/R1, RZ, RZ, c\[0x0\]\[0x28\]/ { n++; want = 1; next }
		want && /R1/ { if ($0 ~ /IADD3 R1, R1, -0x/) ok++; want = 0 }
		/STL/ { stl++ } END { print n + 0, ok + 0, stl + 0 }' "$w/flash_decode_fiber.sm_80.fsass")
	set -- $fr
	[ "$1" -ge 3 ] && [ "$1" = "$2" ] && [ "$3" -gt 0 ] &&
		ok "w32: $3 spill stores, the frame after all $1 stack-pointer loads" ||
		bad "w32: stack-pointer loads / frames / spill stores: $fr"
	"$PT" --quick --only FlashDecoding --gen a100 --fiber flash_decode_fiber --root "$root" \
		--fsass "$w" --out "$w/o" \
		> "$w/out" 2>&1 && grep -q 'FIBER-native: [0-9]* cycles' "$w/out" &&
		ok "w32: the spilling 1024-fiber version verifies" ||
		bad "w32: $(grep -E 'FIBER-native|not verified' "$w/out" | head -n 2)"
else
	bad "fiberc on flash_decode_fiber.w32.ptx: $(head -n 2 "$tmp/w32err")"
fi
# the SETFIBERNUM FlashDecoding (flash_decode_fiber.cu, the documented variant: --fiber picks
# it): verified on a100, its SETFIBERNUM count non-zero (it changes its fiber count twice per
# item), the ablations ran, the band holds the speedup; it uses no busy bits and reads no remote
# registers (its design), so those two counts must be 0
v=$tmp/setfn
if "$PT" --quick --only FlashDecoding --gen a100 --fiber flash_decode_fiber \
	--root "$root" --fsass "$B/paper" --out "$v" > "$v.out" 2>&1; then
	fr=$(tail -n +2 "$v/table.csv" | awk -F, '$(NF-13) == "yes" && $(NF-5) > 0 &&
		$(NF-4) == 0 && $(NF-3) == 0 && $(NF-10) ~ /^[0-9]+$/ && $(NF-9) ~ /^[0-9]+$/ &&
		$(NF-8) ~ /^[0-9]+$/ && $(NF-2) <= $(NF-12) && $(NF-12) <= $(NF-1)' | wc -l)
	[ "$fr" -eq 1 ] && ok "SETFIBERNUM FlashDecoding (--fiber): verified, SETFIBERNUM ran, ablations, band" ||
		bad "SETFIBERNUM FlashDecoding row: $(tail -n 1 "$v/table.csv")"
else
	bad "SETFIBERNUM FlashDecoding: $(grep -E 'FIBER-native|not verified|rows' "$v.out" | head -n 3)"
fi
for f in table.json table.svg; do
	[ -s "$tmp/q/$f" ] && ok "$f written" || bad "$f missing"
done
grep -q '"verified": false' "$tmp/q/table.json" && bad "table.json has an unverified run" ||
	ok "table.json: every run verified"
# --corrupt through the sweep: every point (each workload, a100) must fail its check (exit 4, the
# sweep exit 3), and the collected table must say so, located
"$PT" --quick --gen a100 --corrupt --fsass "$B/paper" --program "$PT" --spec "$tmp/c.sweep"
"$FS" sweep "$tmp/c.sweep" -o "$tmp/cs" -j 2 --quiet 2> /dev/null
src=$?
if "$PT" --quick --gen a100 --collect "$tmp/cs" --out "$tmp/c" > "$tmp/cout" 2>&1; then
	bad "--corrupt: paper_table passed with a flipped output bit"
else
	last=$(grep -E '^[0-9]+ rows, [0-9]+ not verified$' "$tmp/cout")
	r=${last%% rows*}
	nv=$(echo "$last" | sed 's/.*, \([0-9]*\) not verified/\1/')
	e4=$(grep -l '"exit": 4' "$tmp"/cs/points/*.rec 2>/dev/null | wc -l)
	np=$(ls "$tmp"/cs/points/*.rec 2>/dev/null | wc -l)
	[ "$src" = 3 ] && [ -n "$r" ] && [ "$r" -gt 0 ] && [ "$r" = "$nv" ] && [ "$e4" = "$np" ] &&
		grep -q 'outside the tolerance' "$tmp/cout" &&
		ok "--corrupt: all $r rows fail their check, located; all $np points exit 4, the sweep 3" ||
		bad "--corrupt: $last; sweep exit $src; $e4 of $np points exit 4"
fi
# the same rows without the sweep (paper_table runs them itself): the same table
if "$PT" --quick --only FlashDecoding --fsass "$B/paper" --out "$tmp/d" > /dev/null 2>&1 &&
	grep FlashDecoding "$csv" > "$tmp/d1" && grep FlashDecoding "$tmp/d/table.csv" > "$tmp/d2" &&
	[ -s "$tmp/d1" ] && cmp -s "$tmp/d1" "$tmp/d2"; then
	ok "FlashDecoding rows: the sweep's and paper_table's own runs agree in every column"
else
	bad "FlashDecoding rows differ between the sweep and paper_table's own runs"
fi
# a point without a result: its column stays empty, and the note names the point
rm -f "$tmp"/qs/points/FlashDecoding.*.a100.fiber_fs=0.*
"$PT" --quick --only FlashDecoding --gen a100 --collect "$tmp/qs" --out "$tmp/m" > "$tmp/mout" 2>&1
grep -q '"note": "no result for point FlashDecoding.*a100.fiber_fs=0' "$tmp/m/table.json" &&
	grep -q '^FlashDecoding,.*,a100,' "$tmp/m/table.csv" &&
	! grep '^FlashDecoding' "$tmp/m/table.csv" | awk -F, '{print $(NF-9)}' | grep -q . &&
	ok "a point missing from the sweep: its column empty, the note names the point" ||
	bad "a missing point: $(grep -o '"note": "no result[^"]*' "$tmp/m/table.json" | head -n 1)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
