#!/bin/sh
# filecheck.sh: a small FileCheck for fiber's IR and SASS tests (tests/ir/*.ir, tests/ir/*.sass,
# tests/ir/*.vfsass (virtual registers, unallocated), tests/ir/*.ptx (PTX through fiberc),
# and tests/ir/*.lst: SASS listings kept out of the corpus that scripts/refactor-check.sh and the
# other suites walk, which take every *.sass).
#
# Each test file holds its own commands and expectations in comments:
#   // RUN: %fiberc %s --passes=dce-phi --emit=ir
#   // RUN-STATUS: 1            (expected exit status of the RUN commands; default 0)
#   // CHECK: text              the next line, at or after the previous match, containing text
#   // CHECK-NEXT: text         the line right after the previous match contains text
#   // CHECK-NOT: text          no line between the previous match and the next one contains text
#   // CHECK-COUNT: N text      exactly N lines of the whole output contain text
# %fiberc is $FIBERC, %s the test file. Output is stdout and stderr of all RUN lines, in order.
# Texts are fixed strings; surrounding spaces are trimmed.
#
# The runner checks itself: every test in tests/ir/fail/ is written to fail (a CHECK that does not
# match, a CHECK-NOT that does, a wrong status, ...); they are run in a second pass that must
# report each of them as a failure, and each one it does counts as a pass here.
# Every pass of `fiberc --list-passes` must have a test tests/ir/pass-NAME.* whose RUN line runs it.
# Environment: FIBERC; FILECHECK_DIR (default tests/ir) for that second pass.
set -u
FIBERC=${FIBERC:-build/bin/fiberc}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dir=${FILECHECK_DIR:-tests/ir}
for t in "$dir"/*.ir "$dir"/*.sass "$dir"/*.lst "$dir"/*.vfsass "$dir"/*.ptx; do
	[ -f "$t" ] || continue
	want_status=$(sed -n 's|^.*// RUN-STATUS: *\([0-9]*\).*$|\1|p' "$t" | head -1)
	want_status=${want_status:-0}
	: > "$tmp/out"
	status=0
	sed -n 's|^.*// RUN: *||p' "$t" > "$tmp/run"
	if [ ! -s "$tmp/run" ]; then
		echo "FAIL $t: no RUN line"; fail=$((fail + 1)); continue
	fi
	while IFS= read -r cmd; do
		cmd=$(printf '%s' "$cmd" | sed "s|%fiberc|$FIBERC|g; s|%s|$t|g")
		sh -c "$cmd" >> "$tmp/out" 2>&1 || status=$?
	done < "$tmp/run"
	if [ "$status" != "$want_status" ]; then
		echo "FAIL $t: exit status $status, expected $want_status"; sed 's/^/  | /' "$tmp/out" | head -20
		fail=$((fail + 1)); continue
	fi
	grep -E '// CHECK(-NEXT|-NOT|-COUNT)?:' "$t" | sed 's|^.*// \(CHECK[A-Z-]*\): *|\1\t|' > "$tmp/checks"
	if awk -F '\t' -v out="$tmp/out" -v name="$t" '
		function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
		BEGIN { n = 0; while ((getline l < out) > 0) line[++n] = l; pos = 0; nnot = 0; ok = 1 }
		{
			kind = $1; text = trim($2)
			if (kind == "CHECK-COUNT") {
				cnt = text; sub(/ .*/, "", cnt); pat = text; sub(/^[0-9]+ +/, "", pat); c = 0
				for (i = 1; i <= n; i++) if (index(line[i], pat)) c++
				if (c != cnt + 0) { printf "FAIL %s: CHECK-COUNT %s \"%s\": found %d\n", name, cnt, pat, c; ok = 0; exit 1 }
				next
			}
			if (kind == "CHECK-NOT") { nots[++nnot] = text; next }
			if (kind == "CHECK-NEXT") {
				if (pos + 1 > n || !index(line[pos + 1], text)) {
					printf "FAIL %s: CHECK-NEXT \"%s\" not on line %d of the output\n", name, text, pos + 1; ok = 0; exit 1
				}
				found = pos + 1
			} else {
				found = 0
				for (i = pos + 1; i <= n; i++) if (index(line[i], text)) { found = i; break }
				if (!found) { printf "FAIL %s: CHECK \"%s\" not found after line %d\n", name, text, pos; ok = 0; exit 1 }
			}
			for (k = 1; k <= nnot; k++) for (i = pos + 1; i < found; i++) if (index(line[i], nots[k])) {
				printf "FAIL %s: CHECK-NOT \"%s\" found on line %d\n", name, nots[k], i; ok = 0; exit 1
			}
			nnot = 0; pos = found
		}
		END {
			if (ok) for (k = 1; k <= nnot; k++) for (i = pos + 1; i <= n; i++) if (index(line[i], nots[k])) {
				printf "FAIL %s: CHECK-NOT \"%s\" found on line %d\n", name, nots[k], i; exit 1
			}
		}' "$tmp/checks"; then
		echo "ok   $t"; pass=$((pass + 1))
	else
		sed 's/^/  | /' "$tmp/out" | head -40
		fail=$((fail + 1))
	fi
done
# every pass fiberc lists has a test of its own: tests/ir/pass-NAME.* whose RUN lines run it
if [ -z "${FILECHECK_DIR:-}" ]; then
	names=$("$FIBERC" --list-passes 2>&1 | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
	[ -n "$names" ] || { echo "FAIL fiberc --list-passes lists no pass"; fail=$((fail + 1)); }
	for n in $names; do
		if grep -lE "// RUN: .*--passes=([a-z0-9-]+,)*$n(,|[[:space:]]|$)" tests/ir/pass-"$n".* > /dev/null 2>&1; then
			echo "ok   pass $n has a FileCheck test (tests/ir/pass-$n.*)"; pass=$((pass + 1))
		else
			echo "FAIL pass $n has no tests/ir/pass-$n.* whose RUN line runs it"; fail=$((fail + 1))
		fi
	done
fi
# the runner on tests written to fail: each must be reported as a failure, by name
if [ -z "${FILECHECK_DIR:-}" ]; then
	nneg=0
	for t in tests/ir/fail/*.ir; do [ -f "$t" ] && nneg=$((nneg + 1)); done
	FILECHECK_DIR=tests/ir/fail FIBERC=$FIBERC sh "$0" > "$tmp/neg" 2>&1
	rc=$?
	for t in tests/ir/fail/*.ir; do
		[ -f "$t" ] || continue
		if grep -q "^FAIL $t: " "$tmp/neg"; then
			echo "ok   $t fails as it must: $(grep "^FAIL $t: " "$tmp/neg" | head -n 1 | cut -c 6-)"
			pass=$((pass + 1))
		else
			echo "FAIL $t: the runner passes a test written to fail"
			sed 's/^/  | /' "$tmp/neg" | head -20
			fail=$((fail + 1))
		fi
	done
	if [ "$nneg" -lt 6 ] || [ "$rc" -eq 0 ] || ! grep -q "^filecheck: 0 passed, $nneg failed$" "$tmp/neg"; then
		echo "FAIL tests/ir/fail: expected 'filecheck: 0 passed, $nneg failed' and a non-zero status (exit $rc)"
		tail -n 1 "$tmp/neg" | sed 's/^/  | /'
		fail=$((fail + 1))
	fi
fi
echo "filecheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
