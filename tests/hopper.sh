#!/bin/sh
# hopper.sh: fibersim's --arg tmap: on examples/hopper/tma_copy.sm_90a.sass: a tensor map over a
# buffer of its own (zeros, or buf=PATH) and one over another argument's buffer (of=N) give the
# kernel's values in both modes (--out on a tmap argument writes its buffer); malformed specs
# (exit 2) and maps that break cuTensorMapEncodeTiled's rules (exit 1) are refused, saying why;
# --cluster runs examples/hopper/cluster.sm_90a.sass and refuses what CUDA refuses. The TMA +
# wgmma GEMM (bench/hopper.c) and the FlashAttention-3-style forward (examples/hopper/fa3_demo.c)
# against their CPU references in both modes with 0 hazards, each with a mutant that must fail
# (tensor maps without the swizzle the descriptors name; a corrupted reference element); the
# GEMM's PTX through fiberc on the simulator; fa3_fwd's PTX through fiberc (setmaxnreg, .maxntid).
# Environment: B (build directory). Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
root=$(pwd)
SIM=$root/$B/bin/fibersim
S=examples/hopper/tma_copy.sm_90a.sass
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

# floats of a file, one per line
floats() { od -A n -t f4 -v "$1" | tr -s ' ' '\n' | sed '/^$/d'; }

# the input: 100 x 50 floats k % 7 (exact in binary32; out is 2 (k % 7) + 1)
i=0
while [ $i -lt 5000 ]; do echo $((i % 7)); i=$((i + 1)); done > "$tmp/in.txt"
# binary32 of the small integers 0..6, little-endian
awk 'BEGIN { b[0]="\000\000\000\000"; b[1]="\000\000\200\077"; b[2]="\000\000\000\100";
             b[3]="\000\000\100\100"; b[4]="\000\000\200\100"; b[5]="\000\000\240\100";
             b[6]="\000\000\300\100" } { printf "%s", b[$1] }' "$tmp/in.txt" > "$tmp/in.bin"
for mode in --functional ""; do
	m=${mode:-timing}
	if "$SIM" run $S --kernel tma_tile --grid 4,4 --block 128 $mode --quiet \
	    --arg "tmap:f32,100x50,32x16,swizzle=128,buf=$tmp/in.bin" --arg tmap:f32,100x50,32x16 \
	    --arg i32:3 --out "1:$tmp/out.bin" 2> "$tmp/err" &&
	   floats "$tmp/out.bin" |
	   awk '{ if ($1 != 2 * ((NR - 1) % 7) + 1) bad++ } END { exit NR != 5000 || bad }'; then
		ok "tma_tile ($m): tmap over buf= (128-byte swizzle) into a tmap's own buffer"
	else
		bad "tma_tile ($m): wrong values or exit"
	fi
done
if "$SIM" run $S --kernel tma_box3 --grid 1 --block 32 --functional --quiet \
    --arg "tmap:f32,20x10x4,8x4x2,estrides=1x2x1,oob=nan,of=1" --arg zeros:3200 \
    --arg i32:0 --arg i32:0 --arg i32:3 --out "1:$tmp/o3.bin" 2> "$tmp/err" &&
   [ "$(floats "$tmp/o3.bin" | sed -n '1,32p' | grep -ci nan)" -eq 16 ]; then
	ok "tma_box3: tmap over another argument's buffer (of=1), NaN fill outside (z = 4)"
else
	bad "tma_box3 with of=1"
fi
RUN="--kernel tma_tile --grid 1 --block 128 --functional"
expect 2 "tmap: element type 'f31'" "an unknown element type" -- \
	"$SIM" run $S $RUN --arg tmap:f31,100x50,32x16 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 2 "the box, estrides= and strides= need 2" "a box of another rank" -- \
	"$SIM" run $S $RUN --arg tmap:f32,100x50,32 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 1 "a 32-byte swizzle takes at most 32" "a box too wide for its swizzle (encoder's rule)" -- \
	"$SIM" run $S $RUN --arg tmap:f32,100x50,32x16,swizzle=32 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 1 "globalStrides\[0\] = 200" "a row stride that is no multiple of 16" -- \
	"$SIM" run $S $RUN --arg tmap:f32,50x50,32x16 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 2 "argument 5 is not a buffer" "of= naming no buffer" -- \
	"$SIM" run $S $RUN --arg tmap:f32,100x50,32x16,of=5 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 2 "bad 'wat=1'" "an unknown key" -- \
	"$SIM" run $S $RUN --arg tmap:f32,100x50,32x16,wat=1 --arg tmap:f32,100x50,32x16 --arg i32:0
expect 1 "given as tmap (128 bytes)" "a tmap for a scalar parameter" -- \
	"$SIM" run $S $RUN --arg tmap:f32,100x50,32x16 --arg tmap:f32,100x50,32x16 \
	--arg tmap:f32,100x50,32x16

# --cluster on examples/hopper/cluster.sm_90a.sass (values: tests/check_cluster.c): dsmem_store
# runs in functional mode and in timing mode (same values, same cycles on any thread count);
# malformed and refused shapes, sampled cluster launches, a rank outside the cluster
C=examples/hopper/cluster.sm_90a.sass
CR="--kernel dsmem_store --block 64 --arg zeros:8192"
# CTA 0 (rank 0) receives what rank 3 (CTA 3) stored: word 0 is 3000, word 255 is 3255
if "$SIM" run $C $CR --grid 8 --cluster 4 --functional --out 0:"$tmp/st.bin" 2> "$tmp/err" &&
   [ "$(od -A n -t u4 -j 0 -N 4 "$tmp/st.bin" | tr -d ' ')" = 3000 ] &&
   [ "$(od -A n -t u4 -j 1020 -N 4 "$tmp/st.bin" | tr -d ' ')" = 3255 ]; then
	ok "--cluster 4: distributed shared memory in functional mode"
else
	bad "--cluster 4: distributed shared memory in functional mode"
fi
expect 2 "bad --cluster '0'" "--cluster 0 (exit 2)" -- "$SIM" run $C $CR --grid 8 --cluster 0
expect 3 "multiple of the cluster's" "a grid that is no multiple of the cluster" -- \
	"$SIM" run $C $CR --grid 6 --cluster 4 --functional
# timing mode: the same values as functional mode, the same cycles on 1 and 3 host threads
# (with a trace: SMs made for the first round but given no cluster record no events)
if "$SIM" run $C $CR --grid 8 --cluster 4 --threads 1 --out 0:"$tmp/st1.bin" \
	--stats "$tmp/st1.json" --trace "$tmp/tr.json" 2> "$tmp/err" &&
   cmp -s "$tmp/st.bin" "$tmp/st1.bin" && [ -s "$tmp/tr.json" ] &&
   "$SIM" run $C $CR --grid 8 --cluster 4 --threads 3 --stats "$tmp/st3.json" 2> "$tmp/err" &&
   c1=$(grep -o '"cycles": *[0-9]*' "$tmp/st1.json" | head -1) && [ -n "$c1" ] &&
   [ "$c1" = "$(grep -o '"cycles": *[0-9]*' "$tmp/st3.json" | head -1)" ]; then
	ok "--cluster 4 in timing mode: functional mode's values, the same $c1 on 1 and 3 threads"
else
	bad "--cluster 4 in timing mode: functional mode's values, the same cycles on 1 and 3 threads"
fi
expect 3 "cannot be sampled by SMs yet" "a cluster launch sampled by SMs in timing mode" -- \
	"$SIM" run $C $CR --grid 8 --cluster 4 --sample-sms 2
# sampled by CTAs: whole clusters (2 CTAs asked, the first cluster of 4 runs: CTA 0 receives
# rank 3's words)
if "$SIM" run $C $CR --grid 8 --cluster 4 --sample-ctas 2 --out 0:"$tmp/sc.bin" 2> "$tmp/err" &&
   [ "$(od -A n -t u4 -j 0 -N 4 "$tmp/sc.bin" | tr -d ' ')" = 3000 ] &&
   [ "$(od -A n -t u4 -j 1020 -N 4 "$tmp/sc.bin" | tr -d ' ')" = 3255 ]; then
	ok "--cluster 4 --sample-ctas 2: the first whole cluster runs"
else
	bad "--cluster 4 --sample-ctas 2: the first whole cluster runs"
fi
expect 3 "names CTA rank 5, outside the cluster of 2 CTAs" "mapa to rank 5 in clusters of 2" -- \
	"$SIM" run $C --kernel bad_rank --block 32 --grid 4 --cluster 2 --functional \
	--arg zeros:128 --arg u32:5

# --- the TMA + wgmma GEMM and the FlashAttention-3-style forward (docs/hopper-examples.md) ---
case $B in */san | san) sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
*) sanflags= ;; esac
FC=$root/$B/bin/fiberc
# run NAME WANT_STATUS PATTERN -- command...: exit WANT_STATUS, stdout matches PATTERN (grep -E)
run() {
	d=$1 want=$2 pat=$3
	shift 4
	timeout 120 "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		cat "$tmp/out" >> "$tmp/err"
		bad "$d: exit $rc, want $want"
	elif ! grep -q -E -e "$pat" "$tmp/out"; then
		cp "$tmp/out" "$tmp/err"
		bad "$d: output lacks '$pat'"
	else
		ok "$d"
	fi
}
if ${CC:-cc} -O1 -g -std=c11 $sanflags -Iruntime -o "$tmp/hopper" bench/hopper.c \
       "$B/lib/libfiberrt.a" -lelf -lm -lpthread 2> "$tmp/err" &&
   ${CC:-cc} -O1 -g -std=c11 $sanflags -Iruntime -o "$tmp/fa3" examples/hopper/fa3_demo.c \
       "$B/lib/libfiberrt.a" -lelf -lm -lpthread 2>> "$tmp/err"; then
	G="$tmp/hopper --root $root --out $tmp --size 128"
	# every line of the three GEMMs equal to the reference, timing lines with 0 hazards
	run "GEMMs 128^3 (TMA+wgmma, wgmma, mma.sync) equal the CPU reference, both modes" 0 \
		'TMA\+wgmma .* timing: .* 0 hazards, output equals' -- $G
	[ "$(grep -c 'output equals the CPU reference' "$tmp/out")" -eq 6 ] ||
		bad "GEMMs: $(grep -c 'output equals' "$tmp/out") of 6 runs equal the reference"
	run "TMA GEMM mutant: maps without the 128-byte swizzle differ from the reference" 1 \
		'TMA\+wgmma .*functional: .* output DIFFERS' -- $G --swizzle none
	if "$FC" examples/hopper/gemm_tma_wgmma.sm_90a.ptx --emit=sass -o "$tmp/gemm.fc.sass" \
	    2> "$tmp/err"; then
		run "fiberc's compile of gemm_tma_wgmma.sm_90a.ptx equals the reference, both modes" 0 \
			'TMA\+wgmma .* timing: .* 0 hazards, output equals' -- $G --tma-listing "$tmp/gemm.fc.sass"
	else
		bad "fiberc refuses gemm_tma_wgmma.sm_90a.ptx"
	fi
	F="$tmp/fa3 --root $root --only fa3 --heads 2 --kv-heads 1 --seq 256"
	run "fa3_fwd (GQA 2:1, seq 256) equals the double reference, both modes, 0 hazards" 0 \
		'h100 timing .* 0 hazards, equals the CPU reference' -- $F
	[ "$(grep -c 'equals the CPU reference' "$tmp/out")" -eq 2 ] ||
		bad "fa3_fwd: $(grep -c 'equals' "$tmp/out") of 2 runs equal the reference"
	run "fa3_fwd mutant: maps without the 128-byte swizzle differ from the reference" 1 \
		'DIFFERS from the CPU reference' -- $F --functional --swizzle none
	run "fa3_fwd against a reference with one element changed by 0.01: caught" 1 \
		'DIFFERS from the CPU reference' -- $F --functional --corrupt
	# fiberc without setmaxnreg: .maxntid 384 bounds it to 168 registers (it spills), it runs
	sed '/setmaxnreg/d' examples/hopper/fa3_fwd.sm_90a.ptx > "$tmp/fa3n.ptx"
	if "$FC" "$tmp/fa3n.ptx" --emit=sass -o "$tmp/fa3n.sass" 2> "$tmp/err"; then
		run "fiberc's fa3_fwd without setmaxnreg (.maxntid 384) equals the reference, both modes" \
			0 'h100 timing .* 0 hazards, equals the CPU reference' -- $F --listing "$tmp/fa3n.sass"
		[ "$(grep -c 'equals the CPU reference' "$tmp/out")" -eq 2 ] ||
			bad "fiberc's fa3_fwd: $(grep -c 'equals' "$tmp/out") of 2 runs equal the reference"
	else
		bad "fiberc refuses fa3_fwd without setmaxnreg"
	fi
	# with setmaxnreg: the consumers name registers above REGCOUNT (0xa8) after `inc 240`,
	# which runs only because the simulator's windows follow setmaxnreg (docs/sim-wgmma.md)
	if "$FC" examples/hopper/fa3_fwd.sm_90a.ptx --emit=sass -o "$tmp/fa3s.sass" 2> "$tmp/err"; then
		run "fiberc's fa3_fwd with setmaxnreg equals the reference, both modes" \
			0 'h100 timing .* 0 hazards, equals the CPU reference' -- $F --listing "$tmp/fa3s.sass"
		[ "$(grep -c 'equals the CPU reference' "$tmp/out")" -eq 2 ] ||
			bad "fiberc's fa3_fwd with setmaxnreg: $(grep -c 'equals' "$tmp/out") of 2 runs equal the reference"
	else
		bad "fiberc refuses fa3_fwd"
	fi
else
	bad "building bench/hopper.c and examples/hopper/fa3_demo.c"
fi
# fiberc's setmaxnreg (docs/isel-wgmma.md): nvcc's sequences, the launch's count (0xa8 for
# .maxntid 384), and the producer's code after `dec 24` in R0..R21
if "$FC" examples/hopper/fa3_fwd.sm_90a.ptx --emit=sass -o "$tmp/fa3.fc.sass" 2> "$tmp/err" &&
   grep -q 'USETMAXREG.DEALLOC.CTAPOOL 0x18 ;' "$tmp/fa3.fc.sass" &&
   grep -q 'USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xf0 ;' "$tmp/fa3.fc.sass" &&
   [ "$(grep -A1 'index@(fa3_fwd)' "$tmp/fa3.fc.sass" | sed -n 2p | tr -d ' \t')" = .word0x000000a8 ]
then
	ok "fiberc selects fa3_fwd's setmaxnreg as nvcc does, REGCOUNT 0xa8"
else
	bad "fiberc's fa3_fwd with setmaxnreg: no USETMAXREG pair or REGCOUNT not 0xa8"
fi
# the producer's blocks (laid out from the DEALLOC to the consumers' TRY_ALLOC): nothing above R21
hi=$(sed -n '/USETMAXREG.DEALLOC/,/USETMAXREG.TRY_ALLOC/p' "$tmp/fa3.fc.sass" | grep -o '\bR[0-9][0-9]*' |
     tr -d R | sort -n | tail -1)
if [ -n "$hi" ] && [ "$hi" -le 21 ]; then
	ok "after setmaxnreg.dec 24 the producer names R0..R$hi (at most R21)"
else
	bad "after setmaxnreg.dec 24 the producer names R${hi:-?}"
fi
expect 1 "bad.ptx:104:34: error: .*setmaxnreg's count must be an immediate 24..256" \
	"fiberc refuses setmaxnreg 20, located" -- \
	sh -c "sed 's/u32 24;/u32 20;/' examples/hopper/fa3_fwd.sm_90a.ptx > $tmp/bad.ptx &&
	       exec $FC $tmp/bad.ptx --emit=sass -o $tmp/bad.sass"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
