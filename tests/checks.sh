#!/bin/sh
# checks.sh: fibersim --racecheck and --synccheck (sim/check.c, sim/racecheck.c, sim/synccheck.c,
# docs/sim.md "Checks"). racecheck: on the
# kernels of tests/checks/racy.cu and warprace.cu (hazards between lanes of one warp: sm_80 and
# sm_90, functional and timed) it reports each racy
# kernel's hazard in compute-sanitizer's words (the pair of instructions, the kind, a CTA, threads
# and the __shared__ offset) and exits 4; it is silent, with exit 0 and the same outputs as an
# unchecked run, on the same kernel with its barrier and on the softmax example; the report is the
# same for any --threads. synccheck (tests/checks/sync.cu): __syncthreads() in divergent code
# and a __syncwarp mask without the caller are reported (exit 4; the second then deadlocks: 3),
# and so is a named barrier whose warps name different thread counts (tests/checks/barcount.cu;
# it then deadlocks), correct barriers are not. initcheck (tests/checks/uninit.cu): the reads of an uninit: buffer are
# reported, of a zeroed one or of what the kernel wrote first are not. --warp-order (functional):
# check:N finds that the racy kernel's result depends on the order and the fixed one's does not;
# random:SEED is repeatable. Prints a line per check, then `N passed, M failed`.
# Environment: B (build directory).
set -u
B=${B:-build}
root=$(pwd)
SIM=$root/$B/bin/fibersim
D=tests/checks
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 8; }

if [ ! -x "$SIM" ]; then
	bad "$SIM is missing (make all)"
	echo "$pass passed, $fail failed"
	exit 1
fi
# inputs: 256 floats k / 64 - 2, then the ints 0 and 1
cat > "$tmp/gen.c" <<'C'
#include <stdio.h>
int
main(int argc, char **argv)
{
	if (argc > 1) {               /* i256: the ints 0..255 */
		for (int k = 0; k < 256; k++)
			fwrite(&k, 4, 1, stdout);
		return 0;
	}
	(void)argv;
	for (int k = 0; k < 256; k++) {
		float v = (float)k / 64 - 2;
		fwrite(&v, 4, 1, stdout);
	}
	for (int k = 0; k < 2; k++)
		fwrite(&k, 4, 1, stdout);
	return 0;
}
C
if cc -std=c11 -o "$tmp/gen" "$tmp/gen.c" && "$tmp/gen" > "$tmp/all.bin"; then
	head -c 1024 "$tmp/all.bin" > "$tmp/x.bin"
	tail -c 8 "$tmp/all.bin" > "$tmp/i.bin"
	ok "inputs written"
else
	bad "cannot build the input generator"
fi

NORM="--grid 2 --block 256 --arg buf:$tmp/x.bin --arg zeros:1024 --arg i32:256 --quiet"
for a in 80 90; do
	L=$D/racy.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		w="sm_$a $m"
		"$SIM" run $L --kernel norm_racy $NORM $mo --racecheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		if [ $rc -eq 4 ] &&
		   grep -q "^========= Error: Race reported between [RW][a-z]* access at 0x[0-9a-f]* \`.*\` in 'norm_racy'$" "$tmp/err" &&
		   grep -q "^=========     and [RW][a-z]* access at 0x[0-9a-f]* \`.*\` in 'norm_racy' \[[0-9]* hazards*, \(RAW\|WAR\)\]$" "$tmp/err" &&
		   grep -q "^=========     for example: __shared__ 0x[0-9a-f]* in block ([01],0,0): \(read\|write\) by thread ([0-9]*,0,0) (warp [0-7] lane [0-9]*), then \(read\|write\) by thread" "$tmp/err" &&
		   grep -q '^========= RACECHECK SUMMARY: [1-9][0-9]* hazards* displayed' "$tmp/err" &&
		   grep -q '^fibersim: error: the checks reported [1-9][0-9]* findings* (above)$' "$tmp/err"; then
			ok "$w: norm_racy: the hazard on s[0], exit 4"
		else
			bad "$w: norm_racy (exit $rc)"; show "$tmp/err"
		fi
		"$SIM" run $L --kernel norm_fixed $NORM $mo --racecheck --out 1:$tmp/y1.bin > "$tmp/out" 2> "$tmp/err"
		rc=$?
		"$SIM" run $L --kernel norm_fixed $NORM $mo --out 1:$tmp/y0.bin > /dev/null 2>&1
		[ $rc -eq 0 ] && cmp -s "$tmp/y0.bin" "$tmp/y1.bin" &&
			grep -q '^========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)$' "$tmp/err" &&
			! grep -q 'Race reported' "$tmp/err" &&
			ok "$w: norm_fixed: nothing reported, exit 0, the outputs of an unchecked run" ||
			{ bad "$w: norm_fixed (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel publish_racy --grid 2 --block 128 --arg buf:$tmp/i.bin --arg zeros:1024 \
			--quiet $mo --racecheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 4 ] && grep -q "STS .* in 'publish_racy'" "$tmp/err" && grep -q "LDS .* in 'publish_racy'" "$tmp/err" &&
			ok "$w: publish_racy: the store and the loads of the flag, exit 4" ||
			{ bad "$w: publish_racy (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel store_racy --grid 2 --block 128 --arg zeros:1024 --quiet $mo --racecheck \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 4 ] && grep -q 'hazards*, WAW\]$' "$tmp/err" &&
			ok "$w: store_racy: WAW, exit 4" || { bad "$w: store_racy (exit $rc)"; show "$tmp/err"; }
	done
	"$SIM" run $L --kernel norm_racy $NORM --racecheck --threads 1 > /dev/null 2> "$tmp/t1"
	"$SIM" run $L --kernel norm_racy $NORM --racecheck --threads 2 > /dev/null 2> "$tmp/t2"
	cmp -s "$tmp/t1" "$tmp/t2" && grep -q 'Race reported' "$tmp/t1" &&
		ok "sm_$a: the same report for --threads 1 and 2" || { bad "sm_$a: --threads changes the report"; diff "$tmp/t1" "$tmp/t2" | head; }
done

# racecheck between lanes of one warp (tests/checks/warprace.cu): a store another lane of the warp
# reads with no __syncwarp() is a hazard (same warp, different lanes); with __syncwarp() (a NOP
# in converged code; a WARPSYNC that waits for the other half of the warp in split_fixed) it is
# not; a __syncwarp() of the reading lanes only does not order them with the writing ones
WR="--grid 2 --block 64 --arg buf:$tmp/x.bin --arg zeros:256 --quiet"
for a in 80 90; do
	L=$D/warprace.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		w="sm_$a $m"
		# kernel:hazards of a pair (one per word, 4 warps):pairs
		for kn in lane_racy:128:1 half_racy:64:1 split_racy:64:2; do
			k=${kn%%:*} n=${kn#*:} p=${n#*:} n=${n%:*}
			"$SIM" run $L --kernel $k $WR $mo --racecheck > "$tmp/out" 2> "$tmp/err"
			rc=$?
			[ $rc -eq 4 ] &&
				grep -q "^=========     and [RW][a-z]* access at 0x[0-9a-f]* \`\(@!*P[0-9] \)*\(LDS\|STS\) .*\` in '$k' \[$n hazards, \(RAW\|WAR\)\]$" "$tmp/err" &&
				grep -q "^=========     for example: __shared__ 0x[0-9a-f]* in block (0,0,0): \(read\|write\) by thread ([0-9]*,0,0) (warp 0 lane \([0-9]*\)), then \(read\|write\) by thread ([0-9]*,0,0) (warp 0 lane [0-9]*)$" "$tmp/err" &&
				! grep -q "(warp 0 lane \([0-9]*\)), then .* (warp 0 lane \1)$" "$tmp/err" &&
				grep -q "^========= RACECHECK SUMMARY: $p hazards* displayed ($p errors*, 0 warnings)$" "$tmp/err" &&
				ok "$w: $k: $p hazard(s) between two lanes of warp 0, exit 4" ||
				{ bad "$w: $k (exit $rc)"; show "$tmp/err"; }
		done
		for k in lane_fixed lane_tree half_fixed split_fixed mask_fixed; do
			a3=
			[ $k = mask_fixed ] && a3="--arg u32:0xffffffff"
			"$SIM" run $L --kernel $k $WR $a3 $mo --racecheck --out 1:$tmp/y1.bin > "$tmp/out" 2> "$tmp/err"
			rc=$?
			"$SIM" run $L --kernel $k $WR $a3 $mo --out 1:$tmp/y0.bin > /dev/null 2>&1
			[ $rc -eq 0 ] && cmp -s "$tmp/y0.bin" "$tmp/y1.bin" &&
				grep -q '^========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)$' "$tmp/err" &&
				ok "$w: $k: ordered by __syncwarp(), nothing reported, exit 0" ||
				{ bad "$w: $k (exit $rc)"; show "$tmp/err"; }
		done
	done
done

# --synccheck on tests/checks/sync.cu
I256="--arg buf:$tmp/i256.bin --arg zeros:1024"
"$tmp/gen" i256 > "$tmp/i256.bin" 2>/dev/null
for a in 80 90; do
	L=$D/sync.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		w="sm_$a $m"
		"$SIM" run $L --kernel bar_divergent --grid 2 --block 256 $I256 --quiet $mo --synccheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 4 ] && grep -q '^========= Barrier error detected\. Divergent thread(s) in warp$' "$tmp/err" &&
			grep -q "^=========     at 0x[0-9a-f]* \`.*\(WARPSYNC 0xffffffff\|BAR.SYNC.DEFER_BLOCKING 0x0\) ;\` in 'bar_divergent' \[[0-9]* times*\]$" "$tmp/err" &&
			grep -q '^========= SYNCCHECK SUMMARY: 1 error$' "$tmp/err" &&
			ok "$w: bar_divergent: __syncthreads() in divergent code, exit 4" ||
			{ bad "$w: bar_divergent (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel warpsync_bad --grid 2 --block 64 $I256 --arg u32:0xffff --quiet $mo --synccheck \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		# the report, then the deadlock the plain semantics come to (a fault: exit 3)
		[ $rc -eq 3 ] && grep -q '^========= Barrier error detected\. Invalid arguments$' "$tmp/err" &&
			grep -q 'lane 16) in block (0,0,0): WARPSYNC mask 0x0000ffff does not include the calling thread$' "$tmp/err" &&
			grep -q '^fibersim: error: deadlock' "$tmp/err" &&
			ok "$w: warpsync_bad: a mask without the caller, then the deadlock" ||
			{ bad "$w: warpsync_bad (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel warpsync_bad --grid 2 --block 64 $I256 --arg u32:0xffff0000 --quiet $mo \
			--synccheck --racecheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^========= SYNCCHECK SUMMARY: 0 errors$' "$tmp/err" &&
			ok "$w: warpsync_bad with the right mask: silent" || { bad "$w: warpsync_bad, right mask (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel sync_ok --grid 2 --block 256 $I256 --quiet $mo --synccheck --racecheck \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^========= SYNCCHECK SUMMARY: 0 errors$' "$tmp/err" &&
			grep -q '^========= RACECHECK SUMMARY: 0 hazards' "$tmp/err" &&
			ok "$w: sync_ok: silent under both checks" || { bad "$w: sync_ok (exit $rc)"; show "$tmp/err"; }
	done
done

# --synccheck on tests/checks/barcount.cu: warp 1 names 64 threads at barrier 1, the others 128
"$tmp/gen" i256 | head -c 512 > "$tmp/i128.bin" 2>/dev/null
for a in 80 90; do
	L=$D/barcount.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		w="sm_$a $m"
		BC="--kernel bar_count --grid 2 --block 128 --arg buf:$tmp/i128.bin --arg zeros:512 --quiet $mo"
		"$SIM" run $L $BC --arg i32:64 --synccheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		# the report, then the deadlock: the 64 go on, and the last two warps wait for 128
		[ $rc -eq 3 ] && grep -q '^========= Barrier error detected\. Mismatched barrier thread counts$' "$tmp/err" &&
			grep -q "^=========     at 0x[0-9a-f]* \`BAR.SYNC.DEFER_BLOCKING 0x1, R0 ;\` in 'bar_count' \[[0-9]* times*\]$" "$tmp/err" &&
			grep -q 'by thread (32,0,0) (warp 1 lane 0) in block (0,0,0): count 64, other threads wait with another$' "$tmp/err" &&
			grep -q '^========= SYNCCHECK SUMMARY: 1 error$' "$tmp/err" &&
			ok "$w: bar_count 64 among 128: mismatched barrier counts, then the deadlock" ||
			{ bad "$w: bar_count 64 (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L $BC --arg i32:128 --synccheck --racecheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^========= SYNCCHECK SUMMARY: 0 errors$' "$tmp/err" &&
			ok "$w: bar_count 128 everywhere: silent" || { bad "$w: bar_count 128 (exit $rc)"; show "$tmp/err"; }
	done
done

# --initcheck on tests/checks/uninit.cu: uninit: is a buffer the host never writes
for a in 80 90; do
	L=$D/uninit.sm_$a.sass
	for m in functional timing; do
		mo=
		[ $m = functional ] && mo=--functional
		w="sm_$a $m"
		"$SIM" run $L --kernel add_scratch --grid 2 --block 128 --arg buf:$tmp/i256.bin --arg uninit:1024 \
			--arg zeros:1024 --quiet $mo --initcheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 4 ] && grep -q '^========= Uninitialized __global__ memory read of size 4 bytes$' "$tmp/err" &&
			grep -q "^=========     at 0x[0-9a-f]* \`LDG.E .*\` in 'add_scratch' \[256 times\]$" "$tmp/err" &&
			grep -q '^=========     by thread (0,0,0) (warp 0 lane 0) in block (0,0,0): address 0x[0-9a-f]*$' "$tmp/err" &&
			grep -q '^========= INITCHECK SUMMARY: 1 error$' "$tmp/err" &&
			ok "$w: add_scratch: 256 reads of a buffer never written, exit 4" ||
			{ bad "$w: add_scratch (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel add_scratch --grid 2 --block 128 --arg buf:$tmp/i256.bin --arg zeros:1024 \
			--arg zeros:1024 --quiet $mo --initcheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^========= INITCHECK SUMMARY: 0 errors$' "$tmp/err" &&
			ok "$w: add_scratch on a zeroed buffer: silent" || { bad "$w: add_scratch, zeros (exit $rc)"; show "$tmp/err"; }
		"$SIM" run $L --kernel fill_then_add --grid 2 --block 128 --arg buf:$tmp/i256.bin --arg uninit:1024 \
			--arg uninit:1024 --quiet $mo --initcheck --racecheck --synccheck > "$tmp/out" 2> "$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^========= INITCHECK SUMMARY: 0 errors$' "$tmp/err" &&
			ok "$w: fill_then_add: reads only what the kernel wrote, silent under all three checks" ||
			{ bad "$w: fill_then_add (exit $rc)"; show "$tmp/err"; }
	done
done

# --warp-order (functional): the racy softmax's result depends on the order, the fixed one's not
for a in 80 90; do
	L=$D/racy.sm_$a.sass
	"$SIM" run $L --kernel norm_racy $NORM --functional --warp-order check:8 > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 4 ] && grep -q "^fibersim: error: --warp-order: argument 1 (zeros:1024) differs between the first launch and the warp order random:[0-9]*, first at byte [0-9]* (0x[0-9a-f]*, then 0x[0-9a-f]*): the result depends on how warps interleave$" "$tmp/err" &&
		ok "sm_$a: --warp-order check:8 finds that norm_racy depends on the warp order, exit 4" ||
		{ bad "sm_$a: --warp-order check on norm_racy (exit $rc)"; show "$tmp/err"; }
	"$SIM" run $L --kernel norm_fixed $NORM --functional --warp-order check:8 --out 1:$tmp/w1.bin > "$tmp/out" 2> "$tmp/err"
	rc=$?
	"$SIM" run $L --kernel norm_fixed $NORM --functional --out 1:$tmp/w0.bin > /dev/null 2>&1
	[ $rc -eq 0 ] && grep -q '^fibersim: --warp-order: 8 random warp orders give the first launch.s buffers$' "$tmp/err" &&
		cmp -s "$tmp/w0.bin" "$tmp/w1.bin" &&
		ok "sm_$a: norm_fixed: the same buffers in 8 random orders, --out the first launch's" ||
		{ bad "sm_$a: --warp-order check on norm_fixed (exit $rc)"; show "$tmp/err"; }
	"$SIM" run $L --kernel norm_racy $NORM --functional --out 1:$tmp/r0.bin > /dev/null 2>&1
	"$SIM" run $L --kernel norm_racy $NORM --functional --warp-order random:5 --out 1:$tmp/r5.bin > /dev/null 2>&1
	"$SIM" run $L --kernel norm_racy $NORM --functional --warp-order random:5 --out 1:$tmp/r5b.bin > /dev/null 2>&1
	! cmp -s "$tmp/r0.bin" "$tmp/r5.bin" && cmp -s "$tmp/r5.bin" "$tmp/r5b.bin" &&
		ok "sm_$a: --warp-order random:5 changes norm_racy's result, the same for the same seed" ||
		bad "sm_$a: --warp-order random:5 on norm_racy"
done
"$SIM" run $D/racy.sm_80.sass --kernel norm_fixed $NORM --warp-order random:1 > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] && grep -q -- '--warp-order needs --functional' "$tmp/err" && ok "--warp-order without --functional: usage error" ||
	{ bad "--warp-order without --functional"; show "$tmp/err"; }
for bad_spec in random:0 check:0 check:1001 sometimes; do
	"$SIM" run $D/racy.sm_80.sass --kernel norm_fixed $NORM --functional --warp-order $bad_spec > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] && grep -q -- "--warp-order" "$tmp/err" && ok "--warp-order $bad_spec: usage error" ||
		{ bad "--warp-order $bad_spec"; show "$tmp/err"; }
done
"$SIM" run examples/softmax/softmax.sm_80.sass --kernel softmax_rows --grid 2 --block 128 \
	--arg buf:$tmp/all.bin --arg zeros:8192 --arg i32:8 --arg i32:32 --functional --warp-order check:4 --quiet \
	> "$tmp/out" 2> "$tmp/err" && ok "softmax example: the same in 4 random warp orders" ||
	{ bad "softmax example under --warp-order check:4"; show "$tmp/err"; }

# the softmax example, checked: silent (every example and corpus kernel: tests/check_checks.c)
"$SIM" run examples/softmax/softmax.sm_80.sass --kernel softmax_rows --grid 2 --block 128 \
	--arg buf:$tmp/all.bin --arg zeros:8192 --arg i32:8 --arg i32:32 --racecheck --quiet > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] && ! grep -q 'Race reported' "$tmp/err" && ok "softmax example: silent, exit 0" ||
	{ bad "softmax example (exit $rc)"; show "$tmp/err"; }
"$SIM" run --help 2>&1 | grep -q -- "--racecheck" && "$SIM" run --help 2>&1 | grep -q -- "--synccheck" && ok "run --help names --racecheck and --synccheck" ||
	bad "run --help lacks --racecheck"
grep -q 'racecheck' man/fibersim.1 && grep -q 'synccheck' man/fibersim.1 && grep -q 'initcheck' man/fibersim.1 &&
	grep -q 'uninit:' man/fibersim.1 &&
	ok "fibersim(1) names --racecheck, --synccheck, --initcheck, uninit:" || bad "fibersim(1) lacks a check"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
