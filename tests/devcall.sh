#!/bin/sh
# devcall.sh: CUDA's device runtime in fibersim (sim/devcall.c, runtime/devio.c, docs/sim.md):
# the kernels of tests/devcall/devcall.cu (a release build with asserts) on sm_80 and sm_90, from
# nvcc's listing, its cubin (the listing through a FIBER_NVDISASM stub, and nvdisasm itself when
# one is on PATH), fiberc's CUDA-native output and fiberc's PTX output, functional and timed:
# a passing assert leaves the results right; a failing one prints CUDA's line for each failing
# thread and ends the launch with the fault "device-side assert" (exit 3, statistics written);
# printf prints what the host's printf prints for the same format and values; __trap() and
# __brkpt() end the launch with "trap"; a relocation against a routine the device runtime does
# not have is a load error. Prints a line per check, then `N passed, M failed`.
# Environment: B (build directory).
set -u
B=${B:-build}
root=$(pwd)
SIM=$root/$B/bin/fibersim
FC=$root/$B/bin/fiberc
D=tests/devcall
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 8; }

if [ ! -x "$SIM" ] || [ ! -x "$FC" ]; then
	bad "$SIM or $FC is missing (make all)"
	echo "$pass passed, $fail failed"
	exit 1
fi

# --- inputs and references ------------------------------------------------------------------------
cat > "$tmp/ref.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ref gen FILE N [NEG...]: N ints k, those at the NEG indices -5 | ref twice IN OUT N,
 * ref plus1 IN OUT N: OUT holds 2 in[k] or in[k] + 1 | ref say IN NBLOCK NTHREAD: the lines of
 * devcall.cu's say, by the host's printf */
static int in[4096], out[4096];

static int
load(const char *path, int *v, int n)
{
	FILE *f = fopen(path, "rb");
	int ok = f && fread(v, 4, (size_t)n, f) == (size_t)n && fgetc(f) == EOF;
	if (f)
		fclose(f);
	return ok;
}

int
main(int argc, char **argv)
{
	int n;
	FILE *f;

	if (argc >= 4 && strcmp(argv[1], "gen") == 0) {
		n = atoi(argv[3]);
		for (int k = 0; k < n; k++)
			in[k] = k;
		for (int a = 4; a < argc; a++)
			in[atoi(argv[a])] = -5;
		return !(f = fopen(argv[2], "wb")) || fwrite(in, 4, (size_t)n, f) != (size_t)n ||
		       fclose(f) != 0;
	}
	if (argc == 5 && (strcmp(argv[1], "twice") == 0 || strcmp(argv[1], "plus1") == 0)) {
		n = atoi(argv[4]);
		if (!load(argv[2], in, n) || !load(argv[3], out, n))
			return 2;
		for (int k = 0; k < n; k++)
			if (out[k] != (argv[1][0] == 't' ? 2 * in[k] : in[k] + 1)) {
				fprintf(stderr, "out[%d] = %d for in %d\n", k, out[k], in[k]);
				return 1;
			}
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "say") == 0) {
		int nb = atoi(argv[3]), nt = atoi(argv[4]);
		if (!load(argv[2], in, nb * nt))
			return 2;
		for (int b = 0; b < nb; b++)
			for (int t = 0; t < nt; t++) {
				int v = in[b * nt + t];
				long long big = (long long)v << 33;
				printf("t%d b%d: in=%d u=%u x=%#x f=%.2f e=%e g=%g s=%s c=%c ll=%lld w=[%5d] "
				       "p=[%-4d] star=[%*d] 100%%\n", t, b, v, (unsigned)v, v, v * 0.5, v * 1e6,
				       (double)(v * 0.25f), "str", 'A' + (v & 15), big, v, v, 3, v);
			}
		return 0;
	}
	return 2;
}
C
if cc -std=c11 -O1 -o "$tmp/ref" "$tmp/ref.c" && "$tmp/ref" gen "$tmp/pos.bin" 64 &&
   "$tmp/ref" gen "$tmp/neg.bin" 64 37 && "$tmp/ref" gen "$tmp/neg2.bin" 64 9 3 &&
   "$tmp/ref" gen "$tmp/say.bin" 80; then
	ok "reference program built, inputs written"
else
	bad "cannot build the reference program"
fi

# the CUDA line of a failing assert (devcall.cu:13) in thread THREAD of block BLOCK
aline() {
	echo "devcall.cu:13: void check_pos(const int *, int *, int): block: [$1,0,0], thread: [$2,0,0] Assertion \`in[i] >= 0\` failed."
}

# checks FILE WHAT [fibersim options]: every kernel of devcall.cu from FILE
checks() {
	checks_assert "$@"
	checks_printf "$@"
}

# checks_assert FILE WHAT [fibersim options]: check_pos, trap_if and brkpt_if from FILE
checks_assert() {
	f=$1 w=$2
	shift 2
	A="--grid 2 --block 32 --quiet $*"
	"$SIM" run "$f" --kernel check_pos $A --arg buf:$tmp/pos.bin --arg zeros:256 --arg i32:64 \
		--out 1:$tmp/o.bin > "$tmp/out" 2> "$tmp/err" && "$tmp/ref" twice "$tmp/pos.bin" "$tmp/o.bin" 64 &&
		[ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] &&
		ok "$w: a passing assert: exit 0, right results, nothing printed" ||
		{ bad "$w: a passing assert"; show "$tmp/err"; }
	"$SIM" run "$f" --kernel check_pos $A --arg buf:$tmp/neg.bin --arg zeros:256 --arg i32:64 \
		--stats $tmp/s.json > "$tmp/out" 2> "$tmp/err"
	rc=$?
	aline 1 5 > "$tmp/want"
	if [ $rc -eq 3 ] && head -n 1 "$tmp/err" | cmp -s - "$tmp/want" &&
	   grep -q "^fibersim: error: device-side assert: kernel 'check_pos' CTA (1,0,0) warp 0 lane 5" "$tmp/err" &&
	   grep -q '"fault": "device-side assert"' "$tmp/s.json"; then
		ok "$w: a failing assert prints CUDA's line, exit 3, the fault in --stats"
	else
		bad "$w: a failing assert (exit $rc)"; show "$tmp/err"
	fi
	"$SIM" run "$f" --kernel check_pos $A --arg buf:$tmp/neg2.bin --arg zeros:256 --arg i32:64 \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	{ aline 0 3; aline 0 9; } > "$tmp/want"
	[ $rc -eq 3 ] && head -n 2 "$tmp/err" | cmp -s - "$tmp/want" &&
		ok "$w: two threads of a warp fail: a line each, in thread order" ||
		{ bad "$w: two failing threads (exit $rc)"; show "$tmp/err"; }
	for k in trap_if brkpt_if; do
		"$SIM" run "$f" --kernel $k $A --arg buf:$tmp/pos.bin --arg zeros:256 --arg i32:64 \
			--out 1:$tmp/o.bin > "$tmp/out" 2> "$tmp/err" && "$tmp/ref" plus1 "$tmp/pos.bin" "$tmp/o.bin" 64 &&
			ok "$w: $k not taken: exit 0, right results" || { bad "$w: $k not taken"; show "$tmp/err"; }
		"$SIM" run "$f" --kernel $k $A --arg buf:$tmp/neg.bin --arg zeros:256 --arg i32:64 \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 3 ] && grep -q "^fibersim: error: trap: kernel '$k' CTA (1,0,0) warp 0 lane 5 .*BPT.TRAP 0x1" "$tmp/err" &&
			ok "$w: $k taken: the fault trap, exit 3" || { bad "$w: $k taken (exit $rc)"; show "$tmp/err"; }
	done
}

# checks_printf FILE WHAT [fibersim options]: say and say_then_check from FILE
checks_printf() {
	f=$1 w=$2
	shift 2
	A="--grid 2 --block 32 --quiet $*"
	"$SIM" run "$f" --kernel say --grid 2 --block 40 --quiet "$@" --arg buf:$tmp/say.bin --arg i32:80 \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	"$tmp/ref" say "$tmp/say.bin" 2 40 > "$tmp/want"
	sort "$tmp/out" > "$tmp/out.s"
	sort "$tmp/want" > "$tmp/want.s"
	[ $rc -eq 0 ] && cmp -s "$tmp/out.s" "$tmp/want.s" && [ ! -s "$tmp/err" ] &&
		ok "$w: printf prints what the host's printf prints (80 lines, 13 conversions)" ||
		{ bad "$w: printf (exit $rc)"; diff "$tmp/out.s" "$tmp/want.s" | head -n 6; show "$tmp/err"; }
	"$SIM" run "$f" --kernel say_then_check $A --arg buf:$tmp/neg.bin --arg zeros:256 --arg i32:64 \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	printf 'block 0 starts\nblock 1 starts\n' > "$tmp/want"
	[ $rc -eq 3 ] && cmp -s "$tmp/out" "$tmp/want" &&
		grep -q '^devcall.cu:39: void say_then_check(const int \*, int \*, int): block: \[1,0,0\], thread: \[5,0,0\] Assertion `in\[i\] >= 0 && "inputs are non-negative"` failed\.$' "$tmp/err" &&
		ok "$w: printf's text, then a failing assert's line" ||
		{ bad "$w: printf then assert (exit $rc)"; show "$tmp/out"; show "$tmp/err"; }
}

printf '#!/bin/sh\nexec cat "%s"\n' "$root/$D/devcall.sm_80.sass" > "$tmp/dis80"
printf '#!/bin/sh\nexec cat "%s"\n' "$root/$D/devcall.sm_90.sass" > "$tmp/dis90"
chmod +x "$tmp/dis80" "$tmp/dis90"
for a in 80 90; do
	L=$D/devcall.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		checks $L "sm_$a SASS $m" $mo
		FIBER_NVDISASM=$tmp/dis$a checks $D/devcall.sm_$a.cubin "sm_$a cubin $m" $mo
	done
	if command -v nvdisasm > /dev/null 2>&1; then
		FIBER_NVDISASM=$(command -v nvdisasm) checks $D/devcall.sm_$a.cubin "sm_$a cubin (nvdisasm)" --functional
	fi
	if "$FC" $L --mode=cuda-native -o "$tmp/k$a.fsass" 2> "$tmp/err"; then
		ok "sm_$a: fiberc --mode=cuda-native compiles the module"
		checks "$tmp/k$a.fsass" "sm_$a CUDA-native functional" --functional
		checks "$tmp/k$a.fsass" "sm_$a CUDA-native timing"
	else
		bad "sm_$a: fiberc --mode=cuda-native"; show "$tmp/err"
	fi
	# fiberc's code generator on nvcc's PTX: it selects `call.uni __assertfail` and
	# `call.uni (retval0), vprintf` as nvcc's SASS calls them; every kernel compiles and runs
	if "$FC" $D/devcall.sm_$a.ptx --arch=sm_$a -o "$tmp/p$a.sass" 2> "$tmp/err"; then
		ok "sm_$a: fiberc compiles the PTX (all five kernels)"
		checks "$tmp/p$a.sass" "sm_$a PTX functional" --functional
		checks "$tmp/p$a.sass" "sm_$a PTX timing"
	else
		bad "sm_$a: fiberc on the PTX"; show "$tmp/err"
	fi
done

# --- what is not a routine of the device runtime --------------------------------------------------
sed 's/\.dword[[:space:]]*__assertfail/.dword __nosuchfn/' $D/devcall.sm_80.sass > "$tmp/bad.sass"
"$SIM" run "$tmp/bad.sass" --kernel check_pos --grid 1 --block 32 --arg buf:$tmp/pos.bin \
	--arg zeros:256 --arg i32:64 > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q '__nosuchfn' "$tmp/err" &&
	ok "a relocation against a routine the device runtime lacks: exit 1, named" ||
	{ bad "an unknown routine (exit $rc)"; show "$tmp/err"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
