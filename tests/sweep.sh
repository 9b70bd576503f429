#!/bin/sh
# sweep.sh: `fibersim sweep` run locally (driver/sweep*.c, docs/sweep.md): the demo spec's six
# points and their results (CSV, JSON, report) against direct `fibersim run`s of the same
# commands; resuming (done points skipped, a point whose record is gone or whose command changed
# runs again); a failing point recorded while the rest go on; Ctrl-C stops, keeps what is done,
# and the same command finishes the rest; listed points; a `program` line; two sweeps into one
# folder (the lock, and taking over after a kill -9); located errors of bad specs.
# Environment: B (build directory). Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
SIM=$(pwd)/$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed "s/^/  | /" "$1" | cut -c1-200 | head -n 12; }
check() { if eval "$1"; then ok "$2"; else bad "$2"; [ -z "${3:-}" ] || show "$3"; fi; }

# a column of results.csv by header name, for the row of point $3 (python: CSV quoting)
col() {
	python3 - "$1" "$2" "$3" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(next((r[sys.argv[2]] for r in rows if r["name"] == sys.argv[3]), "none"))
EOF
}

D=$tmp/demo
"$SIM" sweep examples/sweep/demo.sweep -o "$D" -j 2 > "$tmp/out" 2> "$tmp/err"
rc=$?
check '[ $rc -eq 0 ] && grep -q "6 points: 6 ok, 0 failed" "$tmp/err"' "demo: six points, all ok" "$tmp/err"
check '[ $(wc -l < "$D/results.csv") -eq 7 ] && [ $(ls "$D"/points/*.rec | wc -l) -eq 6 ]' \
	"demo: one CSV row and one record per point"
check 'head -n 1 "$D/results.csv" | grep -q "^name,workload,config,icache_prefetch,status,exit,seconds,host,error,.*,cycles,.*kernels.0.cpi_stack.issue"' \
	"demo: CSV header: parameters, status, then the flattened statistics"
# every point's cycles in the CSV equal those of the same command run directly
same=0
"$SIM" sweep examples/sweep/demo.sweep -o "$D" --list > "$tmp/list"
while IFS="$(printf '\t')" read -r name cmd; do
	eval "set -- ${cmd#fibersim run }"
	"$SIM" run "$@" --quiet --stats "$tmp/direct.json" 2>/dev/null
	want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$tmp/direct.json")
	got=$(col "$D/results.csv" cycles "$name")
	[ "$want" = "$got" ] && same=$((same + 1)) || echo "  | $name: csv $got, direct $want"
done < "$tmp/list"
check '[ $same -eq 6 ]' "demo: each point's cycles equal a direct fibersim run of its command"
check 'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
p = d[\"points\"]
assert len(p) == 6 and all(x[\"status\"] == \"ok\" for x in p)
assert all(x[\"stats\"][\"cycles\"] > 0 and \"kernels.0.cpi_stack.issue\" in x[\"stats\"] for x in p)
assert d[\"baseline\"] == \"a100\" and p[0][\"params\"] == {\"icache_prefetch\": \"8\"}
" "$D/results.json"' "demo: results.json parses, one object per point with its statistics"
check 'grep -q "<svg id=\"speedup\"" "$D/report.html" && grep -q "<svg id=\"cpi\"" "$D/report.html" &&
	[ $(grep -c "class=\"sensitivity\"" "$D/report.html") -eq 1 ] && ! grep -q "https\?://[a-z]" "$D/report.html" | grep -v xmlns' \
	"demo: report.html has the speedup, CPI and sensitivity charts"
check '! grep -v "xmlns=\"http://www.w3.org/2000/svg\"" "$D/report.html" | grep -q "http"' \
	"demo: report.html loads nothing from the network"
# speedup of h100 (prefetch 8) against a100 (prefetch 8) = a100 cycles / h100 cycles
a=$(col "$D/results.csv" cycles softmax.a100.icache_prefetch=8)
h=$(col "$D/results.csv" cycles softmax.h100.icache_prefetch=8)
want=$(awk -v a="$a" -v h="$h" 'BEGIN { printf "%.3f", a / h }')
check 'grep -q "<td>softmax.h100.icache_prefetch=8</td>.*<td class=\"n\">$want</td>" "$D/report.html"' \
	"demo: the report's speedup of h100 is a100's cycles over h100's ($want)"

check 'awk -v a="$a" -v h="$h" -v s="$(col "$D/results.csv" speedup softmax.h100.icache_prefetch=8)" "BEGIN { d = a / h - s; exit !(d < 1e-12 && d > -1e-12) }" &&
	[ "$(col "$D/results.csv" baseline softmax.h100.icache_prefetch=8)" = softmax.a100.icache_prefetch=8 ]' \
	"demo: the CSV's baseline and speedup columns say the same"

# resume: nothing reruns; a point without its record reruns alone
"$SIM" sweep examples/sweep/demo.sweep -o "$D" -j 2 > /dev/null 2> "$tmp/err"
check '[ $? -eq 0 ] && ! grep -q "\] softmax" "$tmp/err"' "resume: every point done, none reruns" "$tmp/err"
rm "$D/points/softmax.h100.icache_prefetch=0.rec"
"$SIM" sweep examples/sweep/demo.sweep -o "$D" -j 2 > /dev/null 2> "$tmp/err"
check '[ $(grep -c "\] softmax" "$tmp/err") -eq 1 ] && grep -q "\[6/6\] softmax.h100.icache_prefetch=0 ok" "$tmp/err"' \
	"resume: the point whose record was removed runs again, alone" "$tmp/err"
# a changed command reruns the points it changes
sed 's/--config a100$/--config a100 --set yield_bubble=1/' examples/sweep/demo.sweep > "$tmp/changed.sweep"
"$SIM" sweep "$tmp/changed.sweep" -o "$D" --collect > /dev/null 2> "$tmp/err"
check '[ $? -eq 3 ] && grep -q "6 points: 4 ok, 0 failed, 2 not run" "$tmp/err"' \
	"collect: a record of another command (the spec changed) counts as not run" "$tmp/err"
"$SIM" sweep "$tmp/changed.sweep" -o "$D" -j 2 > /dev/null 2> "$tmp/err"
check '[ $(grep -c "\] softmax" "$tmp/err") -eq 2 ] && [ $(grep -c "\] softmax.a100" "$tmp/err") -eq 2 ]' \
	"resume: a changed command reruns its two points only" "$tmp/err"

# a failing point is recorded with its error; the others go on
cat > "$tmp/fail.sweep" <<'EOF'
workload good examples/softmax/softmax.sm_80.sass --kernel softmax_rows --grid 2 --block 128 \
    --arg zeros:8192 --arg zeros:8192 --arg i32:8 --arg i32:256
workload nokernel examples/softmax/softmax.sm_80.sass --kernel no_such_kernel --grid 2 --block 128
config a100 --config a100
config tight --config a100 --set max_ctas_per_sm=1
EOF
F=$tmp/fail
"$SIM" sweep "$tmp/fail.sweep" -o "$F" -j 2 > /dev/null 2> "$tmp/err"
rc=$?
check '[ $rc -eq 3 ] && grep -q "4 points: 2 ok, 2 failed" "$tmp/err"' \
	"failure: exit 3, two points failed, two ok" "$tmp/err"
check '[ "$(col "$F/results.csv" status nokernel.a100)" = failed ] && [ "$(col "$F/results.csv" exit nokernel.a100)" = 1 ] &&
	col "$F/results.csv" error nokernel.a100 | grep -q no_such_kernel && [ "$(col "$F/results.csv" status good.tight)" = ok ]' \
	"failure: the CSV has its status, exit status and error line" "$F/results.csv"
check 'grep -q "<td class=\"failed\">failed</td>" "$F/report.html" && grep -q "exit 1: .*no_such_kernel" "$F/report.html"' \
	"failure: the report names it and its error"

# Ctrl-C (SIGINT): exit 130, finished points kept, no record for the stopped ones; the same
# command then runs only the rest
{ sed -n '1,4p' examples/sweep/demo.sweep | grep -v '^#'; grep -A1 '^workload' examples/sweep/demo.sweep
  echo 'config a100 arch=sm_80 --config a100'
  echo "param rep $(seq -s ' ' 1 60)"; } > "$tmp/long.sweep"
L=$tmp/long
"$SIM" sweep "$tmp/long.sweep" -o "$L" -j 1 > /dev/null 2> "$tmp/err" &
pid=$!
n=0
while [ $n -lt 100 ] && [ $(ls "$L/points" 2>/dev/null | grep -c '\.rec$') -lt 3 ]; do sleep 0.05; n=$((n + 1)); done
kill -INT $pid
wait $pid
rc=$?
done1=$(ls "$L/points" | grep -c '\.rec$')
jsons=$(ls "$L/points" | grep -c '\.json$')
check '[ $rc -eq 130 ] && [ $done1 -ge 3 ] && [ $done1 -lt 60 ] && [ $jsons -eq $done1 ] && grep -q "interrupted: .* of 60 points done" "$tmp/err"' \
	"Ctrl-C: exit 130 after $done1 of 60 points, each kept point complete" "$tmp/err"
check '[ $(grep -c ",ok," "$L/results.csv") -eq $done1 ] && [ $(grep -c ",missing," "$L/results.csv") -eq $((60 - done1)) ]' \
	"Ctrl-C: results written for the points done, the rest missing"
"$SIM" sweep "$tmp/long.sweep" -o "$L" -j 2 > /dev/null 2> "$tmp/err"
check '[ $? -eq 0 ] && [ $(grep -c "\] softmax" "$tmp/err") -eq $((60 - done1)) ]' \
	"Ctrl-C: the same command runs the $((60 - done1)) points left" "$tmp/err"

# on a terminal: one progress line, redrawn (script(1) gives the sweep a terminal)
if command -v script > /dev/null 2>&1; then
	script -qec "$SIM sweep tests/sweep/listed.sweep -o $tmp/tty -j 1" /dev/null > "$tmp/tty.out" 2>&1
	check 'grep -q "$(printf "\r\033\\[K")sweep: 2/2 done (0 failed, 0 already done), 0 running" "$tmp/tty.out" &&
		! grep -q "\] plain ok" "$tmp/tty.out"' "on a terminal: a progress line redrawn in place" "$tmp/tty.out"
else
	bad "no script(1) (package bsdutils) for the terminal check"
fi

# listed points, and the baseline as a point
"$SIM" sweep tests/sweep/listed.sweep -o "$tmp/listed" -j 2 > /dev/null 2> "$tmp/err"
check '[ $? -eq 0 ] && [ $(wc -l < "$tmp/listed/results.csv") -eq 3 ] && [ "$(col "$tmp/listed/results.csv" icache_prefetch nopf)" = 0 ]' \
	"listed points: only those run, with their axis values" "$tmp/err"

# workload and configuration variables, expanded within each other (examples/sweep/fiber-ablations)
"$SIM" sweep examples/sweep/fiber-ablations.sweep -o "$tmp/abl" --list > "$tmp/list" 2> "$tmp/err"
check '[ $? -eq 0 ] && [ $(wc -l < "$tmp/list") -eq 75 ] && grep -q "^gemm_pool_b.no-rs.fiber_xbar_latency=4	fibersim run examples/fiber-native/gemm_pool_b.sm_80.fsass --kernel gemm_f16_tc --grid 16,2 --block 128 .* --config a100-fiber --set fiber_rs=0 --set fiber_xbar_latency=4$" "$tmp/list" &&
	grep -q "^gemm_pool_b.simt.fiber_xbar_latency=2	fibersim run examples/gemm_tc/gemm_tc.sm_80.sass --kernel gemm_f16_tc --grid 2,2 " "$tmp/list" && [ ! -e "$tmp/abl" ]' \
	"variables: each configuration picks its workload's listing and shape; --list runs nothing" "$tmp/err"

# `program`: each point runs it (a script that sleeps, then writes its statistics); two sweeps
# into one DIR at once: the second is refused and names the first; a sweep killed (kill -9)
# leaves no stale lock: the next one takes it over, says so, and reruns the unfinished points
printf '#!/bin/sh\nfor a; do last=$a; done\nsleep 1\necho "{\\"cycles\\": 100}" > "$last"\n' > "$tmp/slow.sh"
chmod +x "$tmp/slow.sh"
printf 'program %s --x\nworkload w file\nconfig c\nparam p 1 2 3 4\n' "$tmp/slow.sh" > "$tmp/lock.sweep"
K=$tmp/lock
"$SIM" sweep "$tmp/lock.sweep" -o "$K" --list > "$tmp/list"
check 'grep -q "^w.c.p=1	$tmp/slow.sh --x file$" "$tmp/list"' "program: the points' commands run it" "$tmp/list"
"$SIM" sweep "$tmp/lock.sweep" -o "$K" -j 2 > /dev/null 2> "$tmp/la" &
apid=$!
n=0
while [ $n -lt 100 ] && [ ! -s "$K/sweep.lock" ]; do sleep 0.05; n=$((n + 1)); done
"$SIM" sweep "$tmp/lock.sweep" -o "$K" -j 2 > /dev/null 2> "$tmp/err"
rc=$?
check '[ $rc -eq 1 ] && grep -q "error: $K is in use by another sweep (pid $apid on .*: fibersim sweep $tmp/lock.sweep -o $K)" "$tmp/err"' \
	"lock: a second sweep into the same DIR is refused, naming the first" "$tmp/err"
"$SIM" sweep "$tmp/lock.sweep" -o "$K" --collect > /dev/null 2> "$tmp/err"
check '[ $? -eq 1 ] && grep -q "is in use by another sweep (pid $apid" "$tmp/err"' \
	"lock: --collect while a local sweep runs there is refused too" "$tmp/err"
kill -9 $apid
wait $apid 2> /dev/null
sleep 1.2                                  # its orphaned points end
"$SIM" sweep "$tmp/lock.sweep" -o "$K" -j 2 > /dev/null 2> "$tmp/err"
rc=$?
check '[ $rc -eq 0 ] && grep -q "ended without releasing it (pid $apid on" "$tmp/err" &&
	grep -q "4 points: 4 ok" "$tmp/err" && [ ! -s "$K/sweep.lock" ] &&
	[ "$(col "$K/results.csv" cycles w.c.p=4)" = 100 ]' \
	"lock: after kill -9 the next sweep takes the lock over, says so, finishes, leaves it empty" "$tmp/err"

# located errors
for f in bad-directive:4:1:.*unknown.directive bad-directive:5:8:.*bad.config.name \
	bad-directive:6:13:.*listed.twice undefined:1:77:.*gridx.*not.defined quote:1:12:.*unterminated \
	stats:1:70:.*sweep.s.own cycle:2:77:.*nest.deeper.than.8 \
	program:3:1:.*a.second..program; do
	file=${f%%:*} rest=${f#*:}
	"$SIM" sweep "tests/sweep/$file.sweep" -o "$tmp/x" > /dev/null 2> "$tmp/err"
	check '[ $? -eq 1 ] && grep -q "^tests/sweep/$file.sweep:$rest" "$tmp/err"' \
		"bad spec $file.sweep: $(echo "$rest" | cut -d: -f1-2)" "$tmp/err"
done
check '[ ! -e "$tmp/x" ]' "a bad spec writes nothing"
"$SIM" sweep examples/sweep/demo.sweep > /dev/null 2> "$tmp/err"
check '[ $? -eq 2 ] && grep -q "needs SPEC and -o DIR" "$tmp/err"' "usage: -o missing is exit 2"
"$SIM" sweep "$tmp/none.sweep" -o "$tmp/x" > /dev/null 2> "$tmp/err"
check '[ $? -eq 1 ] && grep -q "none.sweep: No such file" "$tmp/err"' "a missing spec is exit 1"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
