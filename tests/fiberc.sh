#!/bin/sh
# fiberc.sh: what fiberc's --list-passes promises, its --stats keeps: the liveness maximum
# (maxlive, live_max_regs in passes/liveness.c) per function and for the module, within the
# registers the kernel declares (EIATTR_REGCOUNT). Prints a line per check, then
# `N passed, M failed`. Environment: B (build directory).
set -u
B=${B:-build}
FC=$(pwd)/$B/bin/fiberc
S80=examples/softmax/softmax.sm_80.sass
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 8; }

"$FC" --list-passes > "$tmp/list" 2>&1
grep -q '^  liveness .*--stats shows the maximum (maxlive)' "$tmp/list" &&
	ok "--list-passes: liveness says --stats shows its maximum" || { bad "--list-passes: liveness"; show "$tmp/list"; }
if "$FC" "$S80" --stats > /dev/null 2> "$tmp/stats"; then
	grep -q '^  function .* phis  *maxlive$' "$tmp/stats" && ok "--stats has a maxlive column" ||
		{ bad "--stats has no maxlive column"; show "$tmp/stats"; }
	live=$(awk '$1 == "softmax_rows" { print $6 }' "$tmp/stats")
	total=$(awk '$1 == "total" { print $NF }' "$tmp/stats")
	# softmax_rows declares 31 registers (EIATTR_REGCOUNT 0x1f)
	[ -n "$live" ] && [ "$live" -gt 0 ] 2> /dev/null && [ "$live" -le 31 ] && [ "$total" = "$live" ] &&
		ok "softmax_rows: $live R registers live at most (declares 31); the total row agrees" ||
		{ bad "softmax_rows maxlive '$live', total '$total'"; show "$tmp/stats"; }
else
	bad "fiberc --stats fails"; show "$tmp/stats"
fi
"$FC" "$S80" --stats --passes=cfg,liveness > /dev/null 2> "$tmp/stats2"
[ "$(awk '$1 == "softmax_rows" { print $6 }' "$tmp/stats2")" = "$live" ] &&
	ok "--passes=cfg,liveness (no SSA): the same maximum" || { bad "maxlive differs without SSA"; show "$tmp/stats2"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
