#!/bin/sh
# fsass.sh: .fsass (FIBER SASS) round trip and errors.
# Every tests/fsass/*.fsass must come back byte for byte from `fiberc F --emit=sass -o OUT`
# (the files are written in the printer's layout, so the round trip is exact); every
# tests/fsass/fail/*.fsass must fail with the error its first line names (`// ERROR: TEXT`,
# a substring of the diagnostics) and a location `FILE:LINE:COL: error:`, from fiberc and from
# `fibersim run` (which verifies what it loads as fiberc does: exit status 1, nothing runs).
# `fibersim run --no-verify` skips those checks: a file whose second line is `// NOVERIFY: TEXT`
# must then be refused by the simulator's decoder with TEXT, located (exit status 1), and
# count-maxfibers.fsass loads and runs into the simulator's fault that names it (exit status 3).
# Environment: FIBERC (default build/bin/fiberc), FIBERSIM (default build/bin/fibersim).
fiberc=${FIBERC:-build/bin/fiberc}
fibersim=${FIBERSIM:-build/bin/fibersim}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in tests/fsass/*.fsass; do
	if "$fiberc" "$f" --emit=sass -o "$tmp/out.fsass" 2> "$tmp/err" && cmp -s "$f" "$tmp/out.fsass"; then
		echo "ok   round trip $f"; pass=$((pass + 1))
	else
		echo "FAIL round trip $f"; cat "$tmp/err"; diff "$f" "$tmp/out.fsass" | head -10
		fail=$((fail + 1))
	fi
done
for f in tests/fsass/fail/*.fsass; do
	e=$(sed -n '1s,^// ERROR: ,,p' "$f")
	"$fiberc" "$f" --emit=sass -o "$tmp/out.fsass" > "$tmp/err" 2>&1
	rc=$?
	if [ -n "$e" ] && [ $rc -ne 0 ] && grep -qF -- "$e" "$tmp/err" &&
	   grep -qE "^$f:[0-9]+:[0-9]+: error: " "$tmp/err"; then
		echo "ok   error $f"; pass=$((pass + 1))
	else
		echo "FAIL error $f (rc $rc, wanted: $e)"; head -3 "$tmp/err"; fail=$((fail + 1))
	fi
done
for f in tests/fsass/fail/*.fsass; do
	e=$(sed -n '1s,^// ERROR: ,,p' "$f")
	"$fibersim" run "$f" --kernel k --grid 1 --block 32 --config a100-fiber > "$tmp/err" 2>&1
	rc=$?
	if [ -n "$e" ] && [ $rc -eq 1 ] && grep -qF -- "$e" "$tmp/err" &&
	   grep -qE "^$f:[0-9]+:[0-9]+: error: " "$tmp/err"; then
		echo "ok   fibersim refuses $f"; pass=$((pass + 1))
	else
		echo "FAIL fibersim refuses $f (rc $rc, wanted: $e)"; head -3 "$tmp/err"; fail=$((fail + 1))
	fi
done
for f in tests/fsass/fail/*.fsass; do
	e=$(sed -n '2s,^// NOVERIFY: ,,p' "$f")
	[ -n "$e" ] || continue
	"$fibersim" run "$f" --kernel k --grid 1 --block 32 --config a100-fiber --no-verify > "$tmp/err" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$e" "$tmp/err" && grep -qE "^$f:[0-9]+:[0-9]+: error: " "$tmp/err" &&
	   ! grep -qF "verifier:" "$tmp/err"; then
		echo "ok   fibersim --no-verify: the decoder refuses $f"; pass=$((pass + 1))
	else
		echo "FAIL fibersim --no-verify $f (rc $rc, wanted: $e)"; head -3 "$tmp/err"; fail=$((fail + 1))
	fi
done
f=tests/fsass/fail/count-maxfibers.fsass
"$fibersim" run "$f" --kernel k --grid 1 --block 32 --config a100-fiber --no-verify > "$tmp/err" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -qF "SETFIBERNUM 65: count beyond the 64 fibers reserved" "$tmp/err"; then
	echo "ok   fibersim --no-verify runs $f into its fault"; pass=$((pass + 1))
else
	echo "FAIL fibersim --no-verify $f (rc $rc)"; head -3 "$tmp/err"; fail=$((fail + 1))
fi
echo "fsass: $pass passed, $fail failed"
[ $fail -eq 0 ]
