#!/bin/sh
# symbols.sh: fibersim run --symbol NAME:FILE and --symbol-out NAME:FILE on tests/corpus/symbols.cu
# (a __constant__ float[8] and two __device__ variables) at sm_80 and sm_90: the kernel reads
# what --symbol wrote, --symbol-out reads back what it wrote, and the errors (unknown name,
# size that differs, malformed option).
# Environment: B (build directory). Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
root=$(pwd)
SIM=$root/$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); sed 's/^/  | /' "$tmp/err" | head -n 4; }

# expect STATUS PATTERN DESCRIPTION -- fibersim arguments...
expect() {
	want=$1 pat=$2 d=$3
	shift 4
	"$SIM" "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$d: exit $rc, want $want"
	elif ! grep -q -e "$pat" "$tmp/err"; then
		bad "$d: stderr lacks '$pat'"
	else
		ok "$d"
	fi
}

# coef = 1, 2, 1, 2, ... (float 1.0 is 00 00 80 3f, 2.0 is 00 00 00 40); bias = 10; x[i] = 1.0
one='\000\000\200\077' two='\000\000\000\100'
printf "$one$two$one$two$one$two$one$two" > "$tmp/coef.bin"
printf '\012\000\000\000' > "$tmp/bias.bin"
: > "$tmp/x.bin"
for i in 1 2 3 4 5 6 7 8; do printf "$one$one$one$one$one$one$one$one" >> "$tmp/x.bin"; done
printf "$one$two$one$two$one$two$one$two$one" > "$tmp/coef36.bin"

for arch in 80 90; do
	L=tests/corpus/symbols.sm_$arch.sass
	RUN="run $L --kernel apply --grid 1 --block 64 --arg buf:$tmp/x.bin --arg zeros:256 --arg i32:64"
	if "$SIM" $RUN --functional --quiet --symbol "coef:$tmp/coef.bin" --symbol "bias:$tmp/bias.bin" \
	    --out "1:$tmp/y.bin" --symbol-out "counter:$tmp/counter.bin" 2> "$tmp/err"; then
		y=$(od -A n -t f4 -v "$tmp/y.bin" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
		want=$(for i in 1 2 3 4 5 6 7 8; do printf '11 12 11 12 11 12 11 12 '; done | sed 's/ $//')
		[ "$y" = "$want" ] && ok "sm_$arch: y = x * coef + bias with --symbol values" ||
			{ bad "sm_$arch: y = $y"; }
		c=$(od -A n -t u4 "$tmp/counter.bin" | tr -d ' \n')
		[ "$c" = 64 ] && ok "sm_$arch: --symbol-out counter = 64 (the kernel's atomicAdd)" ||
			bad "sm_$arch: counter = $c"
	else
		bad "sm_$arch: the run failed"
	fi
	expect 1 "no variable named 'nope'.*coef (__constant__, 32 bytes), bias (__device__, 4 bytes)" \
		"sm_$arch: --symbol of an unknown name lists the variables" -- $RUN --symbol "nope:$tmp/coef.bin"
	expect 1 "the file has 36 bytes, the variable 32" "sm_$arch: --symbol with a size that differs" -- \
		$RUN --symbol "coef:$tmp/coef36.bin"
done
expect 2 "bad --symbol 'coef': expected NAME:FILE" "--symbol without a file" -- \
	run tests/corpus/symbols.sm_80.sass --kernel apply --grid 1 --block 1 --symbol coef
expect 1 "--symbol-out nope: .*no variable named 'nope'" "--symbol-out of an unknown name, before the run" -- \
	run tests/corpus/symbols.sm_80.sass --kernel apply --grid 1 --block 64 --arg zeros:256 \
	--arg zeros:256 --arg i32:64 --functional --symbol-out "nope:$tmp/o.bin"
[ ! -e "$tmp/o.bin" ] && ok "... and writes nothing" || bad "--symbol-out wrote a file"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
