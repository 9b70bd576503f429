#!/bin/sh
# fibersim.sh: the fibersim command line's contract (driver/fibersim.c, man/fibersim.1): help and
# man page, usage errors (exit 2), input errors (exit 1), faults (exit 3), real runs of the softmax
# example checked against a CPU softmax, --out and --stats; the timing model's outputs (statistics
# JSON consistency, --functional, --trace, --set, --threads, cpi-svg); then the example host program
# (examples/host) built in-tree and, after `make install`, through pkg-config.
# Environment: B (build directory; build/san means a SAN=1 build). Prints a line per check, then
# `N passed, M failed`.
set -u
B=${B:-build}
unset MAKEFLAGS MFLAGS MAKELEVEL
case $B in */san | san) san=1 ;; *) san=0 ;; esac
root=$(pwd)
SIM=$root/$B/bin/fibersim
pass=0 fail=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# a check that needs an optional tool: counted, shown in the total, a failure under CI=true
# (scripts/run-tests.sh)
skip() { echo "SKIP $*"; skipped=$((skipped + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 8; }

# expect STATUS PATTERN DESCRIPTION -- fibersim arguments...: the exit status is STATUS and
# standard error matches the grep pattern PATTERN (empty: anything)
expect() {
	want=$1 pat=$2 d=$3
	shift 4
	"$SIM" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$d: exit $rc, want $want"; show "$tmp/err"
	elif [ -n "$pat" ] && ! grep -q -e "$pat" "$tmp/err"; then
		bad "$d: stderr lacks '$pat'"; show "$tmp/err"
	else
		ok "$d"
	fi
}

S80=examples/softmax/softmax.sm_80.sass
S90=examples/softmax/softmax.sm_90.sass
RUN="--kernel softmax_rows --grid 2 --block 128"
ARGS="--arg buf:$tmp/x.bin --arg zeros:8192 --arg i32:8 --arg i32:256"

if [ ! -x "$SIM" ]; then
	bad "$SIM is missing (make all)"
	echo "$pass passed, $fail failed, $skipped skipped"
	exit 1
fi

# --- inputs and a CPU reference: x[k] = 4 sin(0.37 k), 8 rows of 256 ----------------------------
cat > "$tmp/ref.c" <<'C'
#include <math.h>
#include <stdio.h>
#include <string.h>
/* ref gen X.bin | ref check X.bin Y.bin: softmax rows within 1e-5 relative (MUFU.EX2 and the
 * fast reciprocal are a few ulp of fp32 off) */
int
main(int argc, char **argv)
{
	static float x[2048], y[2048];
	FILE *f;
	int bad = 0;

	for (int k = 0; k < 2048; k++)
		x[k] = 4.0f * sinf(0.37f * (float)k);
	if (argc == 3 && strcmp(argv[1], "gen") == 0)
		return !(f = fopen(argv[2], "wb")) || fwrite(x, 4, 2048, f) != 2048 || fclose(f) != 0;
	if (argc != 4 || !(f = fopen(argv[3], "rb")) || fread(y, 4, 2048, f) != 2048 || fgetc(f) != EOF)
		return 2;
	for (int r = 0; r < 8; r++) {
		double mx = -INFINITY, sum = 0;
		for (int c = 0; c < 256; c++)
			mx = fmax(mx, x[r * 256 + c]);
		for (int c = 0; c < 256; c++)
			sum += exp(x[r * 256 + c] - mx);
		for (int c = 0; c < 256; c++) {
			double want = exp(x[r * 256 + c] - mx) / sum;
			if (!(fabs(y[r * 256 + c] - want) <= 1e-5 * want)) {
				if (bad++ < 3)
					fprintf(stderr, "y[%d][%d] = %.9g, want %.9g\n", r, c, y[r * 256 + c], want);
			}
		}
	}
	return bad != 0;
}
C
if cc -std=c11 -O1 -o "$tmp/ref" "$tmp/ref.c" -lm && "$tmp/ref" gen "$tmp/x.bin"; then
	ok "reference program built, x.bin written"
else
	bad "cannot build the reference program"
fi
: > "$tmp/empty.bin"

# --- help, version, man page ---------------------------------------------------------------------
"$SIM" --help > "$tmp/out" 2>&1 && grep -q 'fibersim run FILE' "$tmp/out" &&
	ok "fibersim --help" || bad "fibersim --help"
"$SIM" --version > "$tmp/out" 2>&1 && grep -q '^fibersim [0-9]' "$tmp/out" &&
	ok "fibersim --version" || bad "fibersim --version"
if "$SIM" run --help > "$tmp/out" 2>&1; then
	missing=
	for w in --kernel --grid --block --arch --config --dynamic-smem --arg --out --stats \
	    --functional buf: zeros: u32: i32: u64: i64: f32: 'exit status' --set --trace \
	    --trace-limit --threads --sample-sms --sample-ctas --quiet --cpi-svg; do
		grep -q -e "$w" "$tmp/out" || missing="$missing $w"
	done
	[ -z "$missing" ] && ok "fibersim run --help documents every option" ||
		bad "fibersim run --help lacks:$missing"
else
	bad "fibersim run --help fails"
fi
missing=
for w in '\\-\\-kernel' '\\-\\-grid' '\\-\\-block' '\\-\\-arch' '\\-\\-config' \
    '\\-\\-dynamic\\-smem' '\\-\\-arg' '\\-\\-out' '\\-\\-stats' '\\-\\-functional' \
    'buf:' 'zeros:' 'FIBER_NVDISASM' 'EXIT STATUS' 'CONFIGURATION FILES' 'watchdog' \
    '\\-\\-set' '\\-\\-trace' '\\-\\-trace\\-limit' '\\-\\-threads' '\\-\\-sample\\-sms' \
    '\\-\\-sample\\-ctas' '\\-\\-quiet' '\\-\\-cpi\\-svg' 'cpi\\-svg' 'SUMMARY'; do
	grep -q -e "$w" man/fibersim.1 || missing="$missing $w"
done
[ -z "$missing" ] && ok "man/fibersim.1 documents every option" || bad "man/fibersim.1 lacks:$missing"
if command -v man > /dev/null 2>&1; then
	MANWIDTH=80 man -l man/fibersim.1 > "$tmp/man" 2> "$tmp/manerr" && grep -q 'SYNOPSIS' "$tmp/man" &&
		! grep -q 'warning' "$tmp/manerr" && ok "man -l man/fibersim.1 renders cleanly" ||
		{ bad "man -l man/fibersim.1"; show "$tmp/manerr"; }
else
	skip "man -l man/fibersim.1: no man (package man-db)"
fi

# --- usage errors: exit 2 ------------------------------------------------------------------------
expect 2 'usage: fibersim' "no arguments" --
expect 2 "unknown command 'frob'" "an unknown command" -- frob
expect 2 "unknown option '--frob'" "an unknown option" -- run $S80 $RUN --frob
expect 2 'no input file' "no FILE" -- run $RUN
expect 2 'more than one input file' "two FILEs" -- run $S80 $S90 $RUN
expect 2 "--kernel NAME is required; '$S80' has 1 kernel: softmax_rows$" "no --kernel lists the kernels" -- \
	run $S80 --grid 1 --block 32
expect 2 "has 4 kernels: k_atom_gen, k_atom_s, k_red_g, k_atom_g$" "fibersim run FILE alone lists the kernels" -- \
	run tests/corpus/atomics.sm_80.sass
expect 2 '--grid X' "no --grid" -- run $S80 --kernel k --block 32
expect 2 '--block X' "no --block" -- run $S80 --kernel k --grid 1
expect 2 "option '--stats' needs a value" "an option without its value" -- run $S80 $RUN --stats
expect 2 '--kernel given more than once' "--kernel twice" -- run $S80 $RUN --kernel x
for g in 0 -1 4294967296 99999999999999999999 2147483648 1,0 1,65536 1,2,3,4 '' 1,,2 1, ,1 0x \
    2x 1.5 ' 1' +1; do
	expect 2 "bad --grid" "--grid '$g'" -- run $S80 --kernel k --block 32 --grid "$g"
done
for b in 0 1025 1,1,65 1,1025 -32 32,0; do
	expect 2 "bad --block" "--block '$b'" -- run $S80 --kernel k --grid 1 --block "$b"
done
expect 0 '' "--grid 0x2 (hex) is accepted" -- run $S80 --kernel softmax_rows --grid 0x2 \
	--block 128,1,1 $ARGS
for v in -1 4294967296 1k ''; do
	expect 2 "bad --dynamic-smem" "--dynamic-smem '$v'" -- run $S80 $RUN --dynamic-smem "$v"
done
expect 2 "unsupported --arch 'sm_75'" "--arch sm_75" -- run $S80 $RUN --arch sm_75
for a in nope u32 u32: u32:-1 u32:4294967296 u32:1.5 i32:2147483648 i32:-2147483649 i32:--1 \
    u64:18446744073709551616 i64:9223372036854775808 i64:-9223372036854775809 f32:1e39 \
    f32:-1e39 f32:abc 'f32: 1' f32: zeros:0 zeros:-8 zeros:1e3 zeros:1073741825 buf: x64:1 \
    U32:1; do
	expect 2 "bad --arg" "--arg '$a'" -- run $S80 $RUN --arg "$a"
done
for a in u32:4294967295 i32:-2147483648 u64:0xffffffffffffffff i64:-9223372036854775808 \
    f32:-0x1p-149 f32:inf f32:nan f32:3.4e38 zeros:0x10; do
	"$SIM" run $S80 $RUN --arg "$a" > /dev/null 2> "$tmp/err"
	grep -q 'bad --arg' "$tmp/err" && bad "--arg '$a' is rejected" || ok "--arg '$a' is accepted"
done
expect 2 "argument 2 (i32:8) is not a buffer" "--out of a scalar" -- run $S80 $RUN $ARGS --out 2:y
expect 2 'there are only 4 arguments' "--out past the arguments" -- run $S80 $RUN $ARGS --out 4:y
for o in x:y 1: :y 1; do
	expect 2 "bad --out" "--out '$o'" -- run $S80 $RUN $ARGS --out "$o"
done
for t in 0 257 abc -1 1.5 ''; do
	expect 2 "bad --threads" "--threads '$t'" -- run $S80 $RUN $ARGS --threads "$t"
done
for o in --sample-sms --sample-ctas --trace-limit; do
	expect 2 "bad $o '0'" "$o 0" -- run $S80 $RUN $ARGS --trace "$tmp/t.json" $o 0
done
expect 2 "bad --sample-sms '1025'" "--sample-sms 1025" -- run $S80 $RUN $ARGS --sample-sms 1025
expect 2 "bad --set 'sms'" "--set without =" -- run $S80 $RUN $ARGS --set sms
expect 2 "bad --set '=4'" "--set without a key" -- run $S80 $RUN $ARGS --set =4
expect 2 "--trace-limit needs --trace" "--trace-limit without --trace" -- run $S80 $RUN $ARGS --trace-limit 9
for o in "--trace $tmp/t.json" "--cpi-svg $tmp/c.svg" "--threads 2" "--sample-sms 1" "--sample-ctas 1"; do
	expect 2 "needs the timing model" "--functional with $o" -- run $S80 $RUN $ARGS --functional $o
done
expect 2 "usage: fibersim cpi-svg" "cpi-svg without -o" -- cpi-svg "$tmp/s.json"
expect 2 "usage: fibersim cpi-svg" "cpi-svg without an input" -- cpi-svg -o "$tmp/c.svg"
expect 2 "unknown option '--frob'" "cpi-svg with an unknown option" -- cpi-svg s.json -o c.svg --frob
expect 2 "conflicts with --config h100" "--arch sm_80 with --config h100" -- \
	run $S80 $RUN $ARGS --arch sm_80 --config h100

# --- input errors: exit 1, one line --------------------------------------------------------------
expect 1 "cannot open '/nonexistent/k.sass'" "a missing FILE" -- run /nonexistent/k.sass $RUN
expect 1 "is empty" "an empty FILE" -- run "$tmp/empty.bin" $RUN
expect 1 'error:' "a directory as FILE" -- run /tmp $RUN
printf 'this is not SASS\n' > "$tmp/junk.sass"
expect 1 'junk.sass:1:' "a file that is not SASS" -- run "$tmp/junk.sass" $RUN
printf '\177ELF\002\001\001\000' > "$tmp/bad.cubin"
expect 1 "not a valid ELF file\|not a 64-bit ELF" "a broken ELF file" -- run "$tmp/bad.cubin" $RUN
size=$(wc -c < $S80)
for cut in 100 60000 120000 150000 200000 225000; do
	[ "$cut" -lt "$size" ] || continue
	head -c "$cut" $S80 > "$tmp/cut.sass"
	expect 1 'error' "FILE cut at byte $cut" -- run "$tmp/cut.sass" $RUN $ARGS
done
head -n 2100 $S80 > "$tmp/cut.sass"    # at a line boundary inside the code
expect 1 'error' "FILE cut at line 2100" -- run "$tmp/cut.sass" $RUN $ARGS
expect 1 "no kernel named 'softmax' in .*(kernels: softmax_rows)" "an unknown kernel" -- \
	run $S80 --kernel softmax --grid 1 --block 32
expect 1 "takes 4 parameters but 3 arguments were given: param 3 (4 bytes at offset 0x14)" \
	"too few arguments" -- run $S80 $RUN --arg buf:$tmp/x.bin --arg zeros:8192 --arg i32:8
expect 1 "takes 4 parameters but 5 arguments were given: argument 4 (i32:1) has no parameter" \
	"too many arguments" -- run $S80 $RUN $ARGS --arg i32:1
expect 1 "argument 3 (param 3, 4 bytes at offset 0x14) given as u64 (8 bytes)" \
	"an argument of the wrong size" -- run $S80 $RUN --arg buf:$tmp/x.bin --arg zeros:8192 \
	--arg i32:8 --arg u64:256
expect 1 "argument 0 (param 0, 8 bytes at offset 0x0) given as f32 (4 bytes)" \
	"a scalar for a pointer" -- run $S80 $RUN --arg f32:1 --arg zeros:8192 --arg i32:8 --arg i32:256
expect 1 "cannot open '/nonexistent/x.bin'" "buf: of a missing file" -- \
	run $S80 $RUN --arg buf:/nonexistent/x.bin --arg zeros:8192 --arg i32:8 --arg i32:256
expect 1 "is empty" "buf: of an empty file" -- \
	run $S80 $RUN --arg buf:$tmp/empty.bin --arg zeros:8192 --arg i32:8 --arg i32:256
expect 1 "sm_80 code but device 'h100' executes sm_90" "sm_80 code with --arch sm_90" -- \
	run $S80 $RUN $ARGS --arch sm_90
expect 1 "unknown configuration 'v100'" "an unknown --config" -- run $S80 $RUN $ARGS --config v100
printf 'base = a100\nsmz = 4\n' > "$tmp/bad.cfg"
expect 1 "^$tmp/bad.cfg:2:1: error: unknown key 'smz'" "a configuration file with a bad key" -- \
	run $S80 $RUN $ARGS --config "$tmp/bad.cfg"
[ "$(grep -o 'error:' "$tmp/err" | wc -l)" -eq 1 ] && ok "... says error: once" ||
	{ bad "a configuration error says error: more than once"; show "$tmp/err"; }
expect 1 "^--set:1:5: error: 'sms' must be" "a bad --set value" -- run $S80 $RUN $ARGS --set sms=0
[ "$(grep -o 'error:' "$tmp/err" | wc -l)" -eq 1 ] && ok "... says error: once" ||
	{ bad "a --set error says error: more than once"; show "$tmp/err"; }
expect 1 "launch bound of kernel 'softmax_rows' (128 threads)" "a block over the launch bound" -- \
	run $S80 --kernel softmax_rows --grid 2 --block 256 $ARGS
expect 1 "exceeds the limit of device 'a100' (1024 threads)" "a block over the device's limit" -- \
	run $S80 --kernel softmax_rows --grid 2 --block 64,32 $ARGS
expect 1 "shared memory" "too much dynamic shared memory" -- run $S80 $RUN $ARGS --dynamic-smem 1000000
expect 1 "cannot write '/nonexistent/y.bin'" "an --out that cannot be written" -- \
	run $S80 $RUN $ARGS --out 1:/nonexistent/y.bin
expect 1 "cannot write '/nonexistent/s.json'" "a --stats that cannot be written" -- \
	run $S80 $RUN $ARGS --stats /nonexistent/s.json
"$SIM" run $S80 --kernel softmax --grid 1 --block 32 2> "$tmp/err"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && ok "an input error is one line" || bad "an input error is not one line"

# --- real runs ------------------------------------------------------------------------------------
runs() { # runs DESCRIPTION FILE OUT [options]: the run succeeds and OUT is a correct softmax
	d=$1 f=$2 out=$3
	shift 3
	rm -f "$out"
	if ! "$SIM" run "$f" $RUN $ARGS --out "1:$out" "$@" > "$tmp/out" 2> "$tmp/err"; then
		bad "$d: fibersim fails"; show "$tmp/err"
	elif ! "$tmp/ref" check "$tmp/x.bin" "$out" 2> "$tmp/referr"; then
		bad "$d: wrong result"; show "$tmp/referr"
	else
		ok "$d"
	fi
}
runs "softmax sm_80 matches the CPU reference" $S80 "$tmp/y80.bin" --stats "$tmp/s80.json"
runs "softmax sm_90 matches the CPU reference" $S90 "$tmp/y90.bin" --functional
runs "softmax sm_90 with --arch sm_90 --config h100" $S90 "$tmp/y.bin" --arch sm_90 --config h100
printf '# small\nbase = a100\nname = mini\nsms = 2\n' > "$tmp/mini.cfg"
runs "softmax with a configuration file" $S80 "$tmp/y.bin" --config "$tmp/mini.cfg"
runs "softmax from the cuobjdump listing" examples/softmax/softmax.sm_80.cuobjdump.sass "$tmp/ycu.bin"
grep -q 'warning: .*no parameter layout' "$tmp/err" && ok "the cuobjdump run warns that it cannot check" ||
	bad "no warning for the cuobjdump listing"
grep -q 'scoreboard fallback' "$tmp/err" && bad "the summary of a listing with control bits says scoreboard" ||
	ok "a listing with encoding words: no scoreboard note"
sed 's|/\* 0x[0-9a-f]\{16\} \*/||g' $S80 > "$tmp/noenc.sass"     # nvdisasm without -hex
runs "softmax from a listing without encoding words" "$tmp/noenc.sass" "$tmp/ynoenc.bin"
grep -q '^  scoreboard fallback: the listing has no encoding words' "$tmp/err" &&
	ok "... the summary says it ran on the scoreboard fallback" ||
	{ bad "the summary does not mention the scoreboard fallback"; show "$tmp/err"; }
cmp -s "$tmp/y80.bin" "$tmp/ycu.bin" && ok "cuobjdump and nvdisasm listings give the same bytes" ||
	bad "cuobjdump and nvdisasm listings give different bytes"
if [ -x "$root/$B/bin/fiberc" ]; then
	"$root/$B/bin/fiberc" $S80 --emit=sass -o "$tmp/re.sass" 2> /dev/null &&
		"$root/$B/bin/fiberc" $S80 --emit=ir -o "$tmp/re.ir" 2> /dev/null
	runs "softmax from fiberc --emit=sass" "$tmp/re.sass" "$tmp/yre.bin"
	cmp -s "$tmp/y80.bin" "$tmp/yre.bin" && ok "fiberc's SASS gives the same bytes" ||
		bad "fiberc's SASS gives different bytes"
	runs "softmax from fiberc --emit=ir (IR text)" "$tmp/re.ir" "$tmp/yir.bin"
	cmp -s "$tmp/y80.bin" "$tmp/yir.bin" && ok "fiberc's IR text gives the same bytes" ||
		bad "fiberc's IR text gives different bytes"
else
	bad "$root/$B/bin/fiberc is missing (make all): fiberc's SASS and IR text are not run"
fi
# --- the timing model's outputs: statistics JSON, summary, trace, --set, --threads, cpi-svg --------
if [ -f "$tmp/s80.json" ]; then
	missing=
	for k in '"version": 1' '"mode": "timing"' '"cycles": [1-9]' '"warp_instructions": [1-9]' \
	    '"thread_instructions": [1-9]' '"name": "softmax_rows"' '"arch": "sm_80"' \
	    '"grid": \[2, 1, 1\]' '"block": \[128, 1, 1\]' '"ipc": [0-9]' '"ipc_per_sm"' '"time_us"' \
	    '"ctrl_mode": "\(control-bits\|scoreboard\)"' '"hazards"' '"occupancy": {"ctas_per_sm"' \
	    '"cpi_stack": {"issue"' '"cpi_stack_fraction"' '"tensor_utilization"' '"rf": {' \
	    '"shared": {' '"l1": {' '"l2": {' '"dram": {' '"const": {' '"gmem": {' '"per_sm": \[' \
	    '"sampling": {' '"simulator": {"wall_seconds"' '"busy_cycles"'; do
		grep -q -e "$k" "$tmp/s80.json" || missing="$missing $k"
	done
	[ -z "$missing" ] && ok "--stats JSON has the keys" || { bad "--stats JSON lacks:$missing"; show "$tmp/s80.json"; }
	grep -q -i -e 'nan\|inf' "$tmp/s80.json" && bad "--stats JSON has nan or inf" ||
		ok "--stats JSON has no nan or inf"
	# one kernel: its CPI stack covers every sub-partition cycle, so does each SM's; IPC is
	# warp instructions per cycle (awk: no JSON parser needed)
	awk '
	function stacksum(line,    n, a, kv, i, t) {
		sub(/.*"cpi_stack": \{/, "", line); sub(/\}.*/, "", line)
		n = split(line, a, ","); t = 0
		for (i = 1; i <= n; i++) { split(a[i], kv, ":"); t += kv[2] }
		return t
	}
	/^      "cycles": / { c = $2 + 0 }
	/^      "sms": / { s = $2 + 0 }
	/^      "subpartitions": / { p = $2 + 0 }
	/^      "warp_instructions": / { w = $2 + 0 }
	/^      "ipc": / { ipc = $2 + 0 }
	/^      "cpi_stack": / { total = stacksum($0) }
	/^        \{"busy_cycles"/ { nsm++; if (stacksum($0) != c * p) badsm++ }
	END {
		if (c <= 0 || s <= 0 || p <= 0) { print "no cycles, sms or subpartitions"; exit 1 }
		if (total != c * s * p) { printf "CPI stack sums to %d, cycles x SMs x subpartitions = %d\n", total, c * s * p; exit 1 }
		if (nsm != s) { printf "%d per_sm entries for %d SMs\n", nsm, s; exit 1 }
		if (badsm) { printf "%d SMs whose CPI stack is not cycles x subpartitions\n", badsm; exit 1 }
		d = ipc - w / c; if (d < 0) d = -d
		if (d > 1e-4 * (w / c) + 1e-6) { printf "ipc %g, warp_instructions / cycles %g\n", ipc, w / c; exit 1 }
	}' "$tmp/s80.json" > "$tmp/awk" 2>&1 &&
		ok "--stats JSON: CPI stacks cover cycles x SMs x sub-partitions, ipc = instructions / cycles" ||
		{ bad "--stats JSON is inconsistent: $(cat "$tmp/awk")"; }
	out_of_range=$(grep -o -e '"hit_rate": [^,}]*' -e '"tensor_utilization": [^,}]*' \
	    -e '"cpi_stack_fraction": {[^}]*}' "$tmp/s80.json" | grep -o -e '[-0-9.e+]*[0-9]' |
	    awk '$1 < 0 || $1 > 1')
	[ -z "$out_of_range" ] && ok "--stats JSON: hit rates, utilisation and fractions within 0..1" ||
		bad "--stats JSON: ratios out of range: $out_of_range"
else
	bad "--stats wrote nothing"
fi
if command -v python3 > /dev/null 2>&1; then
	python3 -m json.tool "$tmp/s80.json" > /dev/null 2> "$tmp/err" && ok "--stats JSON parses" ||
		{ bad "--stats JSON does not parse"; show "$tmp/err"; }
else
	bad "python3 is needed to parse the --stats JSON"
fi
"$SIM" run $S80 $RUN $ARGS > /dev/null 2> "$tmp/err"
grep -q 'cycles' "$tmp/err" && grep -q 'CPI stack' "$tmp/err" && ok "a timed run prints a summary" ||
	{ bad "no summary on stderr"; show "$tmp/err"; }
"$SIM" run $S80 $RUN $ARGS --quiet > /dev/null 2> "$tmp/err"
[ ! -s "$tmp/err" ] && ok "--quiet prints no summary" || { bad "--quiet prints"; show "$tmp/err"; }
runs "--functional: the same result" $S80 "$tmp/yf.bin" --functional --stats "$tmp/f.json"
cmp -s "$tmp/y80.bin" "$tmp/yf.bin" && ok "--functional gives the same bytes as timing mode" ||
	bad "--functional gives different bytes"
grep -q '"mode": "functional"' "$tmp/f.json" && grep -q '^  "cycles": 0,' "$tmp/f.json" &&
	grep -q '"warp_instructions": [1-9]' "$tmp/f.json" && ! grep -q '"cpi_stack"' "$tmp/f.json" &&
	ok "--functional: cycles 0, no timing sections" || { bad "--functional --stats"; show "$tmp/f.json"; }
runs "--threads 1" $S80 "$tmp/yt1.bin" --threads 1 --stats "$tmp/t1.json"
runs "--threads 2" $S80 "$tmp/yt2.bin" --threads 2 --stats "$tmp/t2.json"
grep -v '"simulator"' "$tmp/t1.json" > "$tmp/t1.cmp"
grep -v '"simulator"' "$tmp/t2.json" > "$tmp/t2.cmp"
cmp -s "$tmp/yt1.bin" "$tmp/yt2.bin" && cmp -s "$tmp/t1.cmp" "$tmp/t2.cmp" &&
	grep -q '"cycles": [1-9]' "$tmp/t1.cmp" &&
	ok "--threads 2 gives the same output bytes and statistics as --threads 1" ||
	{ bad "--threads 2 differs from --threads 1"; diff "$tmp/t1.cmp" "$tmp/t2.cmp" | head -n 8; }
runs "--threads 4 on a grid of 2 CTAs" $S80 "$tmp/yt4.bin" --threads 4 --stats "$tmp/t4.json"
grep -q '"threads": 2, "threads_note": "fewer SMs have work' "$tmp/t4.json" &&
	ok "--threads 4 with 2 SMs with work: 2 threads, and threads_note says why" ||
	{ bad "--threads 4 on 2 CTAs: $(grep -o '"threads": [^,]*, "threads_note": [^,]*' "$tmp/t4.json")"; }
runs "--trace" $S80 "$tmp/ytr.bin" --trace "$tmp/trace.json" --quiet
if [ -s "$tmp/trace.json" ]; then
	grep -q '"traceEvents"' "$tmp/trace.json" && grep -q '"ph": "X"' "$tmp/trace.json" &&
		grep -q '"name": "SM [0-9]' "$tmp/trace.json" && grep -q '"name": "warp [0-9]' "$tmp/trace.json" &&
		ok "--trace: complete events, SM processes, warp threads" || { bad "--trace content"; show "$tmp/trace.json"; }
	if command -v python3 > /dev/null 2>&1; then
		python3 -m json.tool "$tmp/trace.json" > /dev/null 2> "$tmp/err" && ok "--trace JSON parses" ||
			{ bad "--trace JSON does not parse"; show "$tmp/err"; }
	else
		bad "python3 is needed to parse the --trace JSON"
	fi
else
	bad "--trace wrote nothing"
fi
runs "--trace --trace-limit 3" $S80 "$tmp/ytr.bin" --trace "$tmp/trace3.json" --trace-limit 3 --quiet
[ "$(grep -c '"ph": "X"' "$tmp/trace3.json")" -le 3 ] && ok "--trace-limit 3: at most 3 events" ||
	bad "--trace-limit 3 wrote more events"
[ "$(grep -c '"ph": "X"' "$tmp/trace3.json")" -eq 3 ] && ok "--trace-limit 3: the whole budget is used" ||
	bad "--trace-limit 3 kept fewer than 3 spans"
grep -q "warning: trace limit reached: 3 spans kept, [1-9][0-9]* dropped" "$tmp/err" &&
	ok "--trace-limit: a warning says what was dropped" || { bad "no warning about dropped spans"; show "$tmp/err"; }
expect 1 "cannot write the trace '/nonexistent/t.json'" "a --trace that cannot be written" -- \
	run $S80 $RUN $ARGS --trace /nonexistent/t.json
expect 1 "no_such_key" "--set with an unknown key" -- run $S80 $RUN $ARGS --set no_such_key=1
# --set without --config applies to the configuration the listing chose, and the stats JSON
# records every key as it ran
if "$SIM" run $S80 $RUN $ARGS --set lat_dram=1500 --set lat_l2=700 --stats "$tmp/set.json" \
    --quiet > /dev/null 2> "$tmp/err" &&
   grep -q '"lat_dram": 1500' "$tmp/set.json" && grep -q '"lat_l2": 700' "$tmp/set.json"; then
	c0=$(sed -n 's/^  "cycles": \([0-9]*\),*$/\1/p' "$tmp/s80.json")
	c1=$(sed -n 's/^  "cycles": \([0-9]*\),*$/\1/p' "$tmp/set.json")
	[ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt "$c0" ] &&
		ok "--set on the listing's configuration: longer memory latencies, more cycles ($c0 -> $c1)" ||
		bad "--set lat_dram/lat_l2 did not lengthen the run ($c0 -> $c1)"
else
	bad "--set without --config"; show "$tmp/err"
fi
runs "--cpi-svg" $S80 "$tmp/ysvg.bin" --cpi-svg "$tmp/c1.svg" --quiet
grep -q '<svg' "$tmp/c1.svg" && grep -q '</svg>' "$tmp/c1.svg" && grep -q 'issue' "$tmp/c1.svg" &&
	ok "--cpi-svg writes an SVG chart" || { bad "--cpi-svg"; show "$tmp/c1.svg"; }
expect 0 '' "fibersim cpi-svg STATS.json -o OUT.svg" -- cpi-svg "$tmp/s80.json" -o "$tmp/c2.svg"
grep -q '^<svg' "$tmp/c2.svg" && grep -q '<rect' "$tmp/c2.svg" && grep -q 'softmax_rows' "$tmp/c2.svg" &&
	ok "cpi-svg draws the kernel's bar" || { bad "cpi-svg output"; show "$tmp/c2.svg"; }
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/c2.svg" \
	    2> "$tmp/err" && ok "cpi-svg output is well-formed XML" || { bad "cpi-svg XML"; show "$tmp/err"; }
else
	bad "python3 is needed to parse the cpi-svg XML"
fi
expect 1 "no kernel has a CPI stack" "cpi-svg of a functional run" -- cpi-svg "$tmp/f.json" -o "$tmp/c3.svg"

# --cooperative: this_grid().sync() (tests/corpus/coop.cu, gsum) needs it; a grid that cannot be
# resident at once (8 CTAs of 256 threads per SM x 108) is refused
GS="--kernel gsum --block 256 --arg zeros:4096 --arg zeros:4096 --arg zeros:4 --arg i32:1024"
expect 0 "" "--cooperative: grid sync completes" -- run tests/corpus/coop.sm_80.sass $GS --grid 216 --cooperative --quiet
expect 3 "trap" "grid sync without --cooperative traps" -- run tests/corpus/coop.sm_80.sass $GS --grid 4 --functional
expect 3 "COOPERATIVE_LAUNCH_TOO_LARGE" "--cooperative: 865 CTAs do not fit" -- run tests/corpus/coop.sm_80.sass $GS --grid 865 --cooperative --functional
expect 1 "not a statistics JSON" "cpi-svg of something else" -- cpi-svg $S80 -o "$tmp/c3.svg"
expect 1 "cannot open '/nonexistent/s.json'" "cpi-svg of a missing file" -- \
	cpi-svg /nonexistent/s.json -o "$tmp/c3.svg"
"$SIM" run $S80 $RUN $ARGS --out 0:"$tmp/x2.bin" --out 1:"$tmp/y2.bin" > /dev/null 2>&1 &&
	cmp -s "$tmp/x.bin" "$tmp/x2.bin" && cmp -s "$tmp/y80.bin" "$tmp/y2.bin" &&
	ok "two --out options (an input buffer comes back unchanged)" || bad "two --out options"

# --- faults: exit 3, one line naming the fault ---------------------------------------------------
expect 3 'fibersim: error: .*out-of-bounds' "an out-of-bounds read" -- \
	run $S80 $RUN --arg zeros:64 --arg zeros:8192 --arg i32:8 --arg i32:256
[ "$(wc -l < "$tmp/err")" -eq 1 ] && ok "the fault is one line" || bad "the fault is not one line"
printf 'base = a100\nwatchdog = 100\n' > "$tmp/wd.cfg"
expect 3 'fibersim: error: .*watchdog' "the watchdog of a configuration file" -- \
	run $S80 $RUN $ARGS --config "$tmp/wd.cfg"

# --- a runaway kernel: the watchdog, max_cycles, Ctrl-C, the progress line -----------------------
# spin: one warp adding 1 forever (no parameters, no .nv.info: a warning, then it runs)
printf '\t.section\t.text.spin,"ax",@progbits\nspin:\n.L_x_0:\n        IADD3 R0, R0, 0x1, RZ ;\n        BRA `(.L_x_0) ;\n' > "$tmp/spin.sass"
SPIN="run $tmp/spin.sass --kernel spin --grid 1 --block 32 --arch sm_80"
# json_fault FILE NAME: the statistics JSON records the launch's fault NAME
json_fault() { grep -q "\"fault\": \"$2\"" "$1" 2> /dev/null; }
for mode in --functional ""; do
	rm -f "$tmp/wd.json"
	expect 3 'watchdog: kernel .spin.*1000000 warp instructions.*--set watchdog=N' \
		"a runaway kernel ${mode:-(timing)} with --set watchdog=1000000" -- $SPIN $mode \
		--set watchdog=1000000 --stats "$tmp/wd.json"
	json_fault "$tmp/wd.json" watchdog && grep -q '"warp_instructions": 1000000' "$tmp/wd.json" &&
		ok "... still writes --stats, with \"fault\": \"watchdog\"" ||
		{ bad "no --stats with the watchdog fault ${mode:-(timing)}"; show "$tmp/wd.json"; }
done
expect 3 'watchdog: kernel .spin.: [0-9]* cycles .*--set max_cycles=N' "max_cycles stops a timed run" -- \
	$SPIN --set max_cycles=100000 --stats "$tmp/mc.json" --cpi-svg "$tmp/mc.svg" --trace "$tmp/mc.trace"
json_fault "$tmp/mc.json" watchdog && grep -q '<svg' "$tmp/mc.svg" && grep -q '"traceEvents"' "$tmp/mc.trace" &&
	ok "... and the statistics, chart and trace are written" || bad "a timed fault wrote no statistics, chart or trace"
t0=$(date +%s)
expect 3 'watchdog: .*268435456 warp instructions' "the default watchdog (2^28) stops a runaway kernel" -- \
	$SPIN --functional --quiet
t1=$(date +%s)
echo "     (in $((t1 - t0)) s)"
if command -v timeout > /dev/null 2>&1; then
	# the signal must arrive during the launch: on a loaded or sanitized build the start may be
	# slow, so a run that died before its launch began is tried again with a longer delay.
	# --foreground: without it timeout signals the child and then its own process group, which
	# holds the child too, so fibersim got two SIGINTs and the second (by design, as a second
	# Ctrl-C) killed it before it could report the first: the "flaky" failure seen under SAN
	for mode in --functional ""; do
		extra=
		[ -z "$mode" ] && extra="--cpi-svg $tmp/int.svg --trace $tmp/int.trace --trace-limit 10000"
		for delay in 3 8 20; do
			rm -f "$tmp/int.json" "$tmp/int.svg" "$tmp/int.trace"
			timeout --foreground --preserve-status -s INT $delay "$SIM" $SPIN $mode --set watchdog=0x7fffffffffffffff \
				--set max_cycles=0 --stats "$tmp/int.json" $extra > /dev/null 2> "$tmp/err"
			rc=$?
			grep -q 'interrupted: kernel .spin.' "$tmp/err" && break
		done
		if [ "$rc" -eq 130 ] && grep -q 'interrupted: kernel .spin.' "$tmp/err" &&
		    json_fault "$tmp/int.json" interrupted &&
		    { [ -n "$mode" ] || { grep -q '<svg' "$tmp/int.svg" && grep -q '"traceEvents"' "$tmp/int.trace"; }; }; then
			ok "SIGINT ${mode:-(timing)}: exit 130, \"fault\": \"interrupted\", outputs written"
		else
			bad "SIGINT ${mode:-(timing)}: exit $rc"; show "$tmp/err"
		fi
	done
else
	bad "no timeout (coreutils): the SIGINT checks cannot run"
fi
if command -v script > /dev/null 2>&1 && script -qec true /dev/null > /dev/null 2>&1; then
	# 2.5 s of a timed run under a pseudo-terminal, then Ctrl-C: the line appears after 1 s
	long="$SPIN --set watchdog=0x7fffffffffffffff --set max_cycles=0"
	script -qec "timeout --foreground --preserve-status -s INT 2.5 '$SIM' $long" /dev/null > "$tmp/pty" 2>&1
	grep -q 'fibersim: spin: .* cycles, .* warp instructions, CTAs 0/1, .* instructions/s, [0-9]* s' "$tmp/pty" &&
		ok "a progress line on a terminal (script -qc)" || { bad "no progress line on a terminal"; show "$tmp/pty"; }
	script -qec "timeout --foreground --preserve-status -s INT 2.5 '$SIM' $long --quiet" /dev/null > "$tmp/pty" 2>&1
	! grep -q 'warp instructions, CTAs' "$tmp/pty" && ok "--quiet: no progress line" ||
		bad "--quiet still draws the progress line"
else
	skip "progress line on a terminal: no script(1) or no pseudo-terminal here"
fi
timeout --foreground --preserve-status -s INT 2.5 "$SIM" $SPIN --set watchdog=0x7fffffffffffffff \
	--set max_cycles=0 > /dev/null 2> "$tmp/err"
! grep -q 'warp instructions, CTAs' "$tmp/err" && ok "no progress line when standard error is a file" ||
	{ bad "a progress line into a file"; show "$tmp/err"; }

# --- the example host program -----------------------------------------------------------------------
sanflags=
[ "$san" = 1 ] && sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer"
cp -r examples/host "$tmp/host"
rm -f "$tmp/host/softmax_host"
if make --no-print-directory -C "$tmp/host" FIBER_ROOT="$root" FIBER_BUILD="$root/$B" \
    CFLAGS="-O1 -g $sanflags" > "$tmp/log" 2>&1 &&
    "$tmp/host/softmax_host" "$root/$S80" > "$tmp/out" 2>&1 && grep -q ': ok$' "$tmp/out"; then
	ok "examples/host in-tree: $(tail -n 1 "$tmp/out")"
else
	bad "examples/host in-tree"; show "$tmp/log"; show "$tmp/out"
fi
"$tmp/host/softmax_host" "$root/$S90" > "$tmp/out" 2>&1 && grep -q 'sm_90' "$tmp/out" &&
	ok "examples/host on sm_90 code (auto device)" || { bad "examples/host on sm_90"; show "$tmp/out"; }

# --- installed: fibersim, libfiberrt, fiber.h, fiber.pc, fibersim.1 ---------------------------------
p=$tmp/prefix
files="bin/fibersim lib/libfiberrt.a lib/libfiberrt.so lib/libfiberrt.so.0 include/fiber/fiber.h
lib/pkgconfig/fiber.pc share/man/man1/fibersim.1"
if make --no-print-directory install PREFIX="$p" SAN=$san > "$tmp/log" 2>&1; then
	ok "make install PREFIX=\$tmp"
	missing=
	for f in $files; do [ -e "$p/$f" ] || missing="$missing $f"; done
	[ -z "$missing" ] && ok "installed the runtime" || bad "not installed:$missing"
	"$p/bin/fibersim" run $S80 $RUN $ARGS --out 1:"$tmp/yi.bin" > /dev/null 2>&1 &&
		cmp -s "$tmp/y80.bin" "$tmp/yi.bin" && ok "the installed fibersim runs" ||
		bad "the installed fibersim"
	if command -v pkg-config > /dev/null 2>&1; then
		rm -rf "$tmp/host2"
		cp -r examples/host "$tmp/host2"
		rm -f "$tmp/host2/softmax_host"
		# FIBER_ROOT (set by make check) would select the in-tree build instead of pkg-config
		if env -u FIBER_ROOT -u FIBER_BUILD PKG_CONFIG_PATH="$p/lib/pkgconfig" \
		    make --no-print-directory -C "$tmp/host2" \
		    CFLAGS="-O1 -g $sanflags" > "$tmp/log" 2>&1 &&
		    "$tmp/host2/softmax_host" "$root/$S80" > "$tmp/out" 2>&1 && grep -q ': ok$' "$tmp/out"; then
			ok "examples/host through pkg-config (shared library, rpath)"
		else
			bad "examples/host through pkg-config"; show "$tmp/log"; show "$tmp/out"
		fi
		if cc -std=c11 $sanflags -I"$p/include/fiber" -o "$tmp/host2/static" \
		    examples/host/softmax_host.c "$p/lib/libfiberrt.a" -lelf -lm -lpthread > "$tmp/log" 2>&1 &&
		    "$tmp/host2/static" "$root/$S80" > /dev/null 2>&1; then
			ok "a host program linked with the installed libfiberrt.a"
		else
			bad "a host program linked with libfiberrt.a"; show "$tmp/log"
		fi
	else
		bad "no pkg-config (scripts/deps.sh installs it): the installed fiber.pc is not checked"
	fi
	if ! nm -D --defined-only "$p/lib/libfiberrt.so" > "$tmp/syms" 2> "$tmp/err"; then
		bad "nm -D cannot read the installed libfiberrt.so"; show "$tmp/err"
	elif awk '$2 == "T" {print $3}' "$tmp/syms" |
	    grep -v '^fiber[A-Z]' | grep -v '^_' > "$tmp/exports"; then
		bad "libfiberrt.so exports more than fiber*(): $(head -n 5 "$tmp/exports" | tr '\n' ' ')"
	else
		ok "libfiberrt.so exports only fiber*()"
	fi
	make --no-print-directory uninstall PREFIX="$p" SAN=$san > "$tmp/log" 2>&1
	left=
	for f in $files; do [ -e "$p/$f" ] || [ -L "$p/$f" ] && left="$left $f"; done
	[ -z "$left" ] && ok "make uninstall removed the runtime" || bad "left behind:$left"
else
	bad "make install PREFIX=\$tmp"; show "$tmp/log"
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
