#!/bin/sh
# roundtrip.sh: every bundled listing (examples/**/*.sass, and the nvcc 13 probe listings of
# tests/corpus/*.sass) survives fiberc unchanged:
#   1. fiberc --emit=sass gives the input back (after scripts/sass-normalize.sh, which keeps
#      the encoding words);
#   2. the IR text parses back to the same IR: fiberc --emit=ir of it is byte-identical;
#   3. fiberc --emit=sass of the IR text gives the input back.
# Environment: FIBERC (default build/bin/fiberc).
# Prints a line per check, then `N passed, M failed`.
set -u
FIBERC=${FIBERC:-build/bin/fiberc}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
norm() { sh scripts/sass-normalize.sh "$1"; }
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
showdiff() { diff -u "$1" "$2" | sed -n '3,24s/^/  | /p'; }

files=$(find examples tests/corpus -name '*.sass' | LC_ALL=C sort)
[ -n "$files" ] || { echo "FAIL no examples/**/*.sass"; echo "0 passed, 1 failed"; exit 1; }
for f in $files; do
	norm "$f" > "$tmp/in.norm"

	if "$FIBERC" "$f" --emit=sass -o "$tmp/out.sass" 2> "$tmp/err"; then
		norm "$tmp/out.sass" > "$tmp/out.norm"
		if cmp -s "$tmp/in.norm" "$tmp/out.norm"; then
			ok "$f: --emit=sass reproduces the input"
		else
			bad "$f: --emit=sass differs from the input (normalised; - input, + output):"
			showdiff "$tmp/in.norm" "$tmp/out.norm"
		fi
	else
		bad "$f: fiberc --emit=sass failed:"; sed -n '1,10s/^/  | /p' "$tmp/err"
	fi

	if ! "$FIBERC" "$f" --emit=ir -o "$tmp/a.ir" 2> "$tmp/err"; then
		bad "$f: fiberc --emit=ir failed:"; sed -n '1,10s/^/  | /p' "$tmp/err"
		bad "$f: IR text does not parse back (no IR)"
		bad "$f: --emit=sass from IR text (no IR)"
		continue
	fi
	if "$FIBERC" "$tmp/a.ir" --emit=ir -o "$tmp/b.ir" 2> "$tmp/err"; then
		if cmp -s "$tmp/a.ir" "$tmp/b.ir"; then
			ok "$f: IR text parses back to the same IR"
		else
			bad "$f: IR -> IR is not byte-identical (- first, + second):"
			showdiff "$tmp/a.ir" "$tmp/b.ir"
		fi
	else
		bad "$f: fiberc on its own IR text failed:"; sed -n '1,10s/^/  | /p' "$tmp/err"
	fi
	if "$FIBERC" "$tmp/a.ir" --emit=sass -o "$tmp/c.sass" 2> "$tmp/err"; then
		norm "$tmp/c.sass" > "$tmp/c.norm"
		if cmp -s "$tmp/in.norm" "$tmp/c.norm"; then
			ok "$f: --emit=sass from IR text reproduces the input"
		else
			bad "$f: --emit=sass from IR text differs from the input (- input, + output):"
			showdiff "$tmp/in.norm" "$tmp/c.norm"
		fi
	else
		bad "$f: fiberc --emit=sass on IR text failed:"; sed -n '1,10s/^/  | /p' "$tmp/err"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
