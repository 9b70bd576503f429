#!/bin/sh
# inputs.sh: the input bounds of fiberc and fibersim (fiberc(1), fibersim(1) LIMITS): an endless
# device (/dev/zero) is refused at once at its first NUL byte instead of read until memory runs
# out, and a file over 1 GiB (a sparse one here) is refused before it is read. A module with
# kernels the simulator cannot run: the others run, and asking for one of those prints its
# located diagnostics.
# Environment: B (build directory). Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
root=$(pwd)
FIBERC=$root/$B/bin/fiberc SIM=$root/$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); sed 's/^/  | /' "$tmp/err" | head -n 4; }

# expect STATUS PATTERN DESCRIPTION -- command...: within 20 s, exit STATUS, stderr matches PATTERN
expect() {
	want=$1 pat=$2 d=$3
	shift 4
	timeout 20 "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$d: exit $rc, want $want"
	elif ! grep -q -e "$pat" "$tmp/err"; then
		bad "$d: stderr lacks '$pat'"
	else
		ok "$d"
	fi
}

truncate -s 1100M "$tmp/big.sass"
RUN="--kernel softmax_rows --grid 1 --block 128"
expect 1 "/dev/zero:1:1: error: stray NUL byte" "fiberc /dev/zero stops at the first NUL" -- \
	"$FIBERC" /dev/zero
expect 1 "stray NUL byte" "fiberc - < /dev/zero stops at the first NUL" -- \
	sh -c "'$FIBERC' - < /dev/zero"
expect 1 "larger than 1 GiB, the input limit" "fiberc refuses a 1.1 GiB file" -- "$FIBERC" "$tmp/big.sass"
expect 1 "/dev/zero:1:1: error: stray NUL byte" "fibersim run /dev/zero stops at the first NUL" -- \
	"$SIM" run /dev/zero $RUN
expect 1 "larger than 1 GiB, the input limit" "fibersim refuses a 1.1 GiB module" -- \
	"$SIM" run "$tmp/big.sass" $RUN
expect 1 "larger than 1 GiB, the input limit" "fibersim refuses a 1.1 GiB --arg buf: file" -- \
	"$SIM" run examples/softmax/softmax.sm_80.sass $RUN --arg "buf:$tmp/big.sass" --arg zeros:4 \
	--arg i32:1 --arg i32:1
H=tests/corpus/hopper.sm_90a.sass
expect 1 "^$H:[0-9]*:[0-9]*: error: unsupported instruction '" \
	"run --kernel k_hop (sm_90a instructions not modelled yet) prints its located error" -- "$SIM" run $H --kernel k_hop \
	--grid 1 --block 32
grep -q '\^~' "$tmp/err" && ok "... with the source line and caret" || bad "no caret"
expect 1 "takes 1 parameter" "run --kernel k_maxnreg of the same module gets to the argument check" \
	-- "$SIM" run $H --kernel k_maxnreg --grid 1 --block 384
"$SIM" run $H --kernel k_maxnreg --grid 1 --block 384 --arg zeros:1536 --out "0:$tmp/o.bin" \
	--functional --quiet 2> "$tmp/err" && [ "$(od -A n -t f4 -v "$tmp/o.bin" | tr -s ' ' '\n' |
	grep -c '^2$')" -eq 256 ] && ok "k_maxnreg runs: 256 threads wrote 2" || bad "k_maxnreg did not run"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
