#!/bin/sh
# runner.sh: `make check`'s runner (scripts/run-tests.sh) on made-up suites: every script runs even
# after a failure, the counts of the Check suites and of each script add up, a script that fails
# without a summary counts as one failure, and the last line is exactly the total,
# `N passed, M failed, K skipped`, with a non-zero status when anything failed; a skip is counted
# and shown, and under CI=true it is a failure; the expected failures (`XFAIL` lines) of every
# suite and script are counted and listed before the total, which they leave alone. Prints a line
# per check, then `N passed, M failed`.
set -u
root=$(pwd)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | tail -n 8; }

mkdir -p "$tmp/a/tests" "$tmp/b/tests"
# a: Check with 2 failures of 7, a script with 3 + 0, one with 1 + 1 (exit 1), one that dies
printf '#!/bin/sh\necho "71%%: Checks: 7, Failures: 1, Errors: 1"\nexit 1\n' > "$tmp/a/check_all"
printf 'echo "ok   x"; echo "3 passed, 0 failed"\n' > "$tmp/a/tests/one.sh"
printf 'echo "filecheck: 1 passed, 1 failed"; exit 1\n' > "$tmp/a/tests/two.sh"
printf 'echo "half way"; exit 2\n' > "$tmp/a/tests/three.sh"
printf 'echo "5 passed, 0 failed"\n' > "$tmp/a/tests/four.sh"
chmod +x "$tmp/a/check_all"
(cd "$tmp/a" && CI= sh "$root/scripts/run-tests.sh" ./check_all) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -ne 0 ] && ok "a failure anywhere: non-zero status" || bad "the runner exits 0 after failures"
[ "$(tail -n 1 "$tmp/out")" = "14 passed, 4 failed, 0 skipped" ] &&
	ok "the last line is the total of everything: 14 passed, 4 failed, 0 skipped" ||
	{ bad "the last line is not '14 passed, 4 failed, 0 skipped'"; show "$tmp/out"; }
grep -q '^5 passed, 0 failed$' "$tmp/out" && ok "every script ran after the failures" ||
	bad "the scripts after a failure did not run"
grep -q 'FAIL tests/three.sh: exit status 2' "$tmp/out" && ok "a script without a summary that fails is named" ||
	{ bad "the dying script is not reported"; show "$tmp/out"; }
# b: everything passes
printf '#!/bin/sh\necho "100%%: Checks: 4, Failures: 0, Errors: 0"\n' > "$tmp/b/check_all"
printf 'echo "2 passed, 0 failed"\n' > "$tmp/b/tests/one.sh"
chmod +x "$tmp/b/check_all"
(cd "$tmp/b" && CI= sh "$root/scripts/run-tests.sh" ./check_all) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "6 passed, 0 failed, 0 skipped" ] &&
	ok "all passing: status 0, last line '6 passed, 0 failed, 0 skipped'" || { bad "all passing: exit $rc"; show "$tmp/out"; }
# c: a script that skipped a check (an optional tool missing): counted and shown; under CI=true,
# where every tool is installed, a failure
mkdir -p "$tmp/c/tests"
cp "$tmp/b/check_all" "$tmp/c/check_all"
printf 'echo "SKIP y: no tool"; echo "2 passed, 0 failed, 1 skipped"\n' > "$tmp/c/tests/one.sh"
(cd "$tmp/c" && CI= sh "$root/scripts/run-tests.sh" ./check_all) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "6 passed, 0 failed, 1 skipped" ] &&
	ok "a skip outside CI: status 0, counted: '6 passed, 0 failed, 1 skipped'" ||
	{ bad "a skip outside CI: exit $rc"; show "$tmp/out"; }
(cd "$tmp/c" && CI=true sh "$root/scripts/run-tests.sh" ./check_all) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -ne 0 ] && [ "$(tail -n 1 "$tmp/out")" = "6 passed, 1 failed, 1 skipped" ] &&
	grep -q 'FAIL tests/one.sh: 1 skipped under CI=true' "$tmp/out" &&
	ok "a skip under CI=true: a failure, named: '6 passed, 1 failed, 1 skipped'" ||
	{ bad "a skip under CI=true: exit $rc"; show "$tmp/out"; }
# d: expected failures, one from the Check suites and one from a script: counted and listed before
# the total; they are neither passes nor failures of their own
mkdir -p "$tmp/d/tests"
printf '#!/bin/sh\necho "XFAIL s a: why a" >&2\necho "100%%: Checks: 4, Failures: 0, Errors: 0"\n' > "$tmp/d/check_all"
printf 'echo "ok   z"; echo "XFAIL t b: why b"; echo "2 passed, 0 failed"\n' > "$tmp/d/tests/one.sh"
chmod +x "$tmp/d/check_all"
(cd "$tmp/d" && CI= sh "$root/scripts/run-tests.sh" ./check_all) > "$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$tmp/out")" = "6 passed, 0 failed, 0 skipped" ] &&
	[ "$(tail -n 4 "$tmp/out" | head -n 3)" = "$(printf '2 expected failures\nXFAIL s a: why a\nXFAIL t b: why b')" ] &&
	ok "expected failures: '2 expected failures' and both listed before the total '6 passed, 0 failed, 0 skipped'" ||
	{ bad "expected failures: exit $rc"; show "$tmp/out"; }
make -n --no-print-directory run-tests 2>/dev/null | grep -q 'sh scripts/run-tests.sh' && ok "make check runs scripts/run-tests.sh" ||
	bad "the Makefile does not use scripts/run-tests.sh"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
