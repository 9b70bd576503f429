#!/bin/sh
# outputs.sh: fiberc and fibersim never destroy what they did not create (runtime/outfile.c).
# Every file they write (fiberc -o and --dump-cfg; fibersim --out, --stats, --trace, --cpi-svg,
# cpi-svg -o) goes to a temporary file beside the target, renamed on success: a failed run leaves
# an existing file, a symbolic link, a device node exactly as they were, and no temporary file;
# a device (a /dev/full node made here with mknod), a FIFO and /dev/stdout are written in place
# and a write error on them is an error. Prints a line per check, then `N passed, M failed`.
# Environment: B (build directory).
set -u
B=${B:-build}
root=$(pwd)
FC=$root/$B/bin/fiberc
SIM=$root/$B/bin/fibersim
S80=$root/examples/softmax/softmax.sm_80.sass
RUN="--kernel softmax_rows --grid 2 --block 128 --arg zeros:8192 --arg zeros:8192 --arg i32:8 --arg i32:256"
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 6; }
# no temporary file left in $tmp/d
no_temp() { ls -A "$tmp/d" | grep -q '\.tmp$' && bad "$1: a temporary file is left: $(ls -A "$tmp/d" | grep '\.tmp$')" || ok "$1: no temporary file left"; }
# the exit status is $1 and stderr matches $2; then the rest is the command
expect() {
	want=$1 pat=$2 d=$3
	shift 3
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$d: exit $rc, want $want"; show "$tmp/err"
	elif [ -n "$pat" ] && ! grep -q -e "$pat" "$tmp/err"; then
		bad "$d: stderr lacks '$pat'"; show "$tmp/err"
	else
		ok "$d"
	fi
}
mkdir "$tmp/d"
cd "$tmp/d" || exit 1

# --- devices: a throwaway /dev/full node (mknod), else a link to /dev/full --------------------
# (never /dev/full itself: a regression would delete the machine's device node)
if mknod full c 1 7 2> /dev/null; then
	what="a /dev/full node made with mknod"
	intact() { [ -c full ] && [ ! -L full ]; }
else
	what="a symbolic link to /dev/full (mknod is not permitted here)"
	ln -s /dev/full full
	intact() { [ -L full ] && [ -c full ]; }
fi
FULL=$tmp/d/full
expect 1 "cannot write '$FULL': No space left" "fiberc -o FULL ($what) fails with the reason" \
	"$FC" "$S80" -o "$FULL"
intact && ok "FULL is still there" || bad "fiberc removed FULL"
expect 1 "cannot write 'full'" "fiberc --dump-cfg=FULL fails (fclose checked)" \
	"$FC" "$S80" --dump-cfg=full -o "$tmp/d/x.ir"
[ ! -e x.ir ] && ok "... and does not write -o either" || bad "a failed run wrote x.ir"
intact && ok "FULL survives --dump-cfg" || bad "fiberc --dump-cfg removed FULL"
ln -s full fulllink
expect 1 "cannot write 'fulllink'" "fiberc -o LINK-TO-FULL fails" "$FC" "$S80" -o fulllink
[ -L fulllink ] && ok "the symbolic link is still there" || bad "fiberc removed the symbolic link"
rm -f fulllink
"$FC" "$S80" -o /dev/stdout > "$tmp/stdout.ir" 2> "$tmp/err" && grep -q '^\.text\.softmax_rows:' "$tmp/stdout.ir" &&
	ok "fiberc -o /dev/stdout writes the IR to standard output" || { bad "fiberc -o /dev/stdout"; show "$tmp/err"; }
"$FC" "$S80" -o /dev/stdout 2> "$tmp/err" | grep -q '^\.text\.softmax_rows:' &&
	ok "fiberc -o /dev/stdout into a pipe" || { bad "fiberc -o /dev/stdout into a pipe"; show "$tmp/err"; }
if mkfifo fifo 2> /dev/null; then
	cat fifo > "$tmp/fifo.out" &
	"$FC" "$S80" -o fifo 2> "$tmp/err"
	rc=$?
	wait
	[ "$rc" -eq 0 ] && cmp -s "$tmp/fifo.out" "$tmp/stdout.ir" && [ -p fifo ] &&
		ok "fiberc -o FIFO writes in place, the FIFO stays" || { bad "fiberc -o FIFO"; show "$tmp/err"; }
	rm -f fifo
fi

# --- fiberc: an existing file, and a link to one, are unchanged by a failed run -------------------
echo 'precious' > keep.txt
chmod 640 keep.txt
ln -s keep.txt keeplink
expect 1 "no kernel named 'nope'" "fiberc -o FILE with a failing run" "$FC" "$S80" --kernel nope -o keep.txt
[ "$(cat keep.txt)" = precious ] && ok "the existing output is unchanged" || bad "the existing output changed"
printf 'not SASS\n' > junk.sass
expect 1 "junk.sass:1:" "fiberc -o LINK with a bad input" "$FC" junk.sass -o keeplink
[ -L keeplink ] && [ "$(cat keep.txt)" = precious ] && ok "the link and its file are unchanged" ||
	bad "the link or its file changed"
no_temp "failed fiberc runs"
expect 0 "" "fiberc -o LINK succeeds" "$FC" "$S80" -o keeplink
[ -L keeplink ] && cmp -s keep.txt "$tmp/stdout.ir" && ok "the link stays a link; its file holds the IR" ||
	bad "-o LINK replaced the link or wrote the wrong thing"
[ "$(stat -c %a keep.txt)" = 640 ] && ok "the replaced file keeps its permissions (640)" ||
	bad "the replaced file's permissions are $(stat -c %a keep.txt), were 640"
expect 0 "" "fiberc --dump-cfg=FILE -o FILE" "$FC" "$S80" --dump-cfg=cfg.dot -o x.ir
grep -q '^digraph' cfg.dot && [ -s x.ir ] && ok "the CFG and the IR are written" || bad "--dump-cfg or -o wrote nothing"
no_temp "successful fiberc runs"

# --- fibersim: --out, --stats, --trace, --cpi-svg, cpi-svg -o -----------------------------------
"$SIM" run "$S80" $RUN --stats good.json --quiet 2> "$tmp/err" || { bad "fibersim run"; show "$tmp/err"; }
"$SIM" run "$S80" $RUN --functional --stats func.json --quiet 2> "$tmp/err" || { bad "fibersim run"; show "$tmp/err"; }
echo 'old chart' > chart.svg
ln -s chart.svg chartlink
expect 1 "no kernel has a CPI stack" "cpi-svg of a functional run -o FILE fails" \
	"$SIM" cpi-svg func.json -o chart.svg
[ "$(cat chart.svg)" = 'old chart' ] && ok "the existing chart is unchanged" ||
	bad "a failed cpi-svg changed the existing chart: $(head -c 40 chart.svg)"
expect 1 "no kernel has a CPI stack" "cpi-svg -o LINK fails" "$SIM" cpi-svg func.json -o chartlink
[ -L chartlink ] && ok "a failed cpi-svg leaves the symbolic link" || bad "a failed cpi-svg removed the link"
expect 1 "cannot write 'full'" "cpi-svg -o FULL fails" "$SIM" cpi-svg good.json -o full
intact && ok "FULL survives cpi-svg" || bad "cpi-svg removed FULL"
"$SIM" cpi-svg good.json -o /dev/stdout > "$tmp/c.svg" 2> "$tmp/err" && grep -q '^<svg' "$tmp/c.svg" &&
	ok "cpi-svg -o /dev/stdout" || { bad "cpi-svg -o /dev/stdout"; show "$tmp/err"; }
for o in "--out 1:full" "--stats full" "--trace full" "--cpi-svg full"; do
	expect 1 "cannot write.*'full'" "fibersim run $o fails with the reason" "$SIM" run "$S80" $RUN $o --quiet
	intact || bad "fibersim run $o removed FULL"
done
echo 'old stats' > s.json
expect 3 "out-of-bounds" "a faulting run" "$SIM" run "$S80" --kernel softmax_rows --grid 2 --block 128 \
	--arg zeros:64 --arg zeros:8192 --arg i32:8 --arg i32:256 --out 1:y.bin --quiet
[ ! -e y.bin ] && ok "a faulting run writes no --out" || bad "a faulting run wrote --out"
no_temp "fibersim runs"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
