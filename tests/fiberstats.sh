#!/bin/sh
# fiberstats.sh: the FIBER statistics end to end (runtime/stats.c, trace.c, fibersvg.c,
# compare.c; docs/sim-stats.md "FIBER"): the softmax example on a100-fiber writes the "fiber"
# object with its timeline, the trace's counter tracks and the --fiber-svg chart; the same run on
# a100 (SIMT) has none of them, and --fiber-svg after it is an error that leaves no file;
# `fibersim compare` shows the FIBER rows when one side has them.
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
show() { sed 's/^/  | /' "$1" | head -n 8; }

S80=examples/softmax/softmax.sm_80.sass
head -c 8192 /dev/zero | tr '\0' '\1' > "$tmp/x.bin"
RUN="--kernel softmax_rows --grid 2 --block 128 --arg buf:$tmp/x.bin --arg zeros:8192 --arg i32:8 --arg i32:256"

# the numbers of a one-line JSON array "key": [a, b, ...] in file $2, one per line
array() { tr -d '\n' < "$2" | sed -n "s/.*\"$1\": \[\([^]]*\)\].*/\1/p" | tr ',' '\n' | sed 's/ //g;/^$/d'; }

if "$SIM" run $S80 $RUN --config a100-fiber --stats "$tmp/f.json" --fiber-svg "$tmp/f.svg" \
    --trace "$tmp/ft.json" --quiet 2> "$tmp/err"; then
	ok "FIBER run (a100-fiber) with --stats, --fiber-svg and --trace"
else
	bad "FIBER run (a100-fiber): exit $?"; show "$tmp/err"
fi
for k in remote_reads xbar_conflicts rpa_conflicts busy_waits busy_wait_cycles setfibernum \
    setfibernum_cycles rs_smem_reads xbar_reads peak_fibers mean_fibers peak_regs mean_regs rf_regs \
    rf_peak_occupancy rf_mean_occupancy timeline; do
	grep -q "\"$k\": " "$tmp/f.json" || missing="${missing:-} $k"
done
[ -z "${missing:-}" ] && grep -q '"fiber": {' "$tmp/f.json" && ok "FIBER stats: the fiber object has every key" ||
	bad "FIBER stats: fiber object lacks:${missing:-} (or no fiber object)"
nc=$(array cycle "$tmp/f.json" | grep -c .) nf=$(array fibers "$tmp/f.json" | grep -c .)
nr=$(array regs "$tmp/f.json" | grep -c .)
[ "$nc" -gt 0 ] && [ "$nc" -eq "$nf" ] && [ "$nc" -eq "$nr" ] &&
	[ "$(array fibers "$tmp/f.json" | head -n 1)" = 128 ] &&
	ok "FIBER stats: timeline of $nc samples, 128 fibers at launch (SM 0 holds one CTA)" ||
	bad "FIBER stats: timeline arrays $nc/$nf/$nr or first fibers not 128"
peak=$(sed -n 's/.*"peak_fibers": \([0-9]*\).*/\1/p' "$tmp/f.json")
[ "$peak" = "$(array fibers "$tmp/f.json" | sort -n | tail -n 1)" ] &&
	ok "FIBER stats: peak_fibers ($peak) is the timeline's maximum" ||
	bad "FIBER stats: peak_fibers $peak is not the timeline's maximum"
ce=$(grep -c '"ph": "C", "pid": 0, "name": "fibers"' "$tmp/ft.json")
cr=$(grep -c '"ph": "C", "pid": 0, "name": "vector registers"' "$tmp/ft.json")
[ "$ce" -eq "$nc" ] && [ "$cr" -eq "$nc" ] &&
	ok "FIBER trace: $ce fibers and vector registers counter events (one per sample)" ||
	bad "FIBER trace: $ce / $cr counter events, $nc samples"
if [ -f "$tmp/f.svg" ] && head -n 1 "$tmp/f.svg" | grep -q '^<?xml' &&
    [ "$(grep -c '<polyline' "$tmp/f.svg")" -eq 2 ] && [ "$(grep -c '</svg>' "$tmp/f.svg")" -eq 1 ] &&
    grep -q '>cycle<' "$tmp/f.svg" && grep -q 'active fibers' "$tmp/f.svg"; then
	pts=$(sed -n 's/.*points="\([^"]*\)".*/\1/p' "$tmp/f.svg" | head -n 1 | tr ' ' '\n' | grep -c ,)
	[ "$pts" -eq $((2 * nc)) ] && ok "--fiber-svg: two step lines of 2 x $nc points, labelled axes" ||
		bad "--fiber-svg: $pts points, want $((2 * nc))"
else
	bad "--fiber-svg: not the expected SVG"; show "$tmp/f.svg"
fi
# well-formed XML: python3 (which .ci/run installs, as tests/fibersim.sh needs it too)
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/f.svg" \
	    2> "$tmp/err" && ok "--fiber-svg: well-formed XML" || { bad "--fiber-svg: XML"; show "$tmp/err"; }
else
	bad "python3 is needed to parse the --fiber-svg XML"
fi

# SIMT: no fiber key, no counters, --fiber-svg refused and no file left
"$SIM" run $S80 $RUN --config a100 --stats "$tmp/s.json" --trace "$tmp/st.json" --quiet 2> "$tmp/err"
! grep -q '"fiber":' "$tmp/s.json" && ! grep -q '"ph": "C"' "$tmp/st.json" &&
	ok "SIMT run: no fiber object, no counter events" || bad "SIMT run has FIBER outputs"
"$SIM" run $S80 $RUN --config a100 --fiber-svg "$tmp/none.svg" --quiet 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "FIBER model" "$tmp/err" && [ ! -e "$tmp/none.svg" ] &&
	ok "SIMT run --fiber-svg: exit 1, says why, writes no file" ||
	{ bad "SIMT run --fiber-svg: exit $rc"; show "$tmp/err"; }
"$SIM" run --help 2>&1 | grep -q -e --fiber-svg && grep -q 'fiber\\-svg' man/fibersim.1 &&
	ok "--fiber-svg in run --help and man/fibersim.1" || bad "--fiber-svg undocumented"

# compare
"$SIM" compare "$tmp/s.json" "$tmp/f.json" > "$tmp/cmp" 2> "$tmp/err"
grep -q '^  fiber.remote_reads ' "$tmp/cmp" && grep -q '^  fiber.setfibernum_cycles ' "$tmp/cmp" &&
	grep -q '^  fiber.peak_fibers  *- *128' "$tmp/cmp" &&
	ok "compare SIMT vs FIBER: the FIBER rows, '-' for the SIMT side" ||
	{ bad "compare SIMT vs FIBER lacks the FIBER rows"; show "$tmp/cmp"; show "$tmp/err"; }
"$SIM" compare "$tmp/s.json" "$tmp/s.json" > "$tmp/cmp" 2>&1
! grep -q 'fiber\.' "$tmp/cmp" && ok "compare SIMT vs SIMT: no FIBER rows" ||
	bad "compare SIMT vs SIMT shows FIBER rows"

# a FIBER-native kernel: silu_mul_fiber (examples/fiber-native) launches 64 fibers per CTA and
# runs its elementwise phase on 256 (SETFIBERNUM 0x100, then 0x40): two SETFIBERNUM per CTA (the
# count is over every SM), and SM 0's timeline goes 64 -> 256 -> 64 before its CTA ends
FN=examples/fiber-native/silu_mul_fiber.sm_80.fsass
head -c 4096 /dev/zero | tr '\0' '\74' > "$tmp/h.bin"
if "$SIM" run $FN --kernel silu_mul_f16 --grid 4 --block 64 --arg buf:$tmp/h.bin --arg buf:$tmp/h.bin \
    --arg zeros:4096 --arg i32:1024 --config a100-fiber --stats "$tmp/n.json" \
    --fiber-svg "$tmp/n.svg" --quiet 2> "$tmp/err"; then
	sfn=$(sed -n 's/.*"setfibernum": \([0-9]*\).*/\1/p' "$tmp/n.json" | head -n 1)
	pk=$(sed -n 's/.*"peak_fibers": \([0-9]*\).*/\1/p' "$tmp/n.json" | head -n 1)
	first=$(array fibers "$tmp/n.json" | head -n 1)
	seq=$(array fibers "$tmp/n.json" | tr '\n' ' ')
	[ "${sfn:-0}" -ge 2 ] && [ "$pk" = 256 ] && [ "$first" = 64 ] &&
	case "$seq" in "64 256 64 "*) true ;; *) false ;; esac &&
		ok "FIBER-native silu_mul_fiber: $sfn SETFIBERNUM, fibers 64 -> 256 -> 64 on SM 0" ||
		{ bad "FIBER-native silu_mul_fiber: setfibernum $sfn, peak $pk, timeline $seq"
		  array fibers "$tmp/n.json" | head -n 12 | tr '\n' ' '; echo; }
else
	bad "FIBER-native silu_mul_fiber run: exit $?"; show "$tmp/err"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
