#!/bin/sh
# fiberdoc.sh: the hand-written kernel of docs/fiber-isa.md section 10 ("Writing a FIBER-native
# kernel by hand") is taken from the page itself (its ```fsass block), accepted by fiberc, and run
# by fibersim on a100-fiber in both modes: out[i] must be 3i + 3(i mod 32) for the 128 fibers,
# as the page says. A page that drifts from the tools fails here. Its timed run's summary gives
# the occupancy decision of section 2 (one CTA per SM: the kernel owns its SM), a SIMT listing on
# a100-fiber the FIBER limits without ownership, and a SIMT configuration no such line.
# Environment: FIBERC, FIBERSIM (defaults build/bin/fiberc, build/bin/fibersim).
fiberc=${FIBERC:-build/bin/fiberc}
fibersim=${FIBERSIM:-build/bin/fibersim}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

sed -n '/^## 10\. Writing a FIBER-native kernel by hand/,$p' docs/fiber-isa.md |
	sed -n '/^```fsass$/,/^```$/p' | sed '1d;$d' > "$tmp/triple.fsass"
if grep -q 'SETFIBERNUM' "$tmp/triple.fsass" && grep -q '^triple:' "$tmp/triple.fsass"; then
	ok "docs/fiber-isa.md section 10 holds a listing ($(wc -l < "$tmp/triple.fsass") lines)"
else
	bad "no \`\`\`fsass listing with kernel 'triple' in docs/fiber-isa.md section 10"
fi
if "$fiberc" "$tmp/triple.fsass" --emit=sass -o "$tmp/out.fsass" 2> "$tmp/err"; then
	ok "fiberc accepts the listing"
else
	bad "fiberc refuses the listing"; head -5 "$tmp/err"
fi
for mode in --functional ""; do
	rm -f "$tmp/out.bin"
	if "$fibersim" run "$tmp/triple.fsass" --kernel triple --config a100-fiber --grid 1 --block 32 \
	     --arg zeros:512 --out "0:$tmp/out.bin" --quiet $mode 2> "$tmp/err" &&
	   od -An -tu4 -v -w4 "$tmp/out.bin" | awk '
		{ i = NR - 1; if ($1 != 3 * i + 3 * (i % 32)) { bad++; if (bad == 1) print "  out[" i "] = " $1 } }
		END { exit (NR != 128 || bad) }'; then
		ok "fibersim runs it ${mode:-timing}: out[i] = 3i + 3(i mod 32) for 128 fibers"
	else
		bad "fibersim ${mode:-timing} run of the listing"; head -5 "$tmp/err"
	fi
done
"$fibersim" run "$tmp/triple.fsass" --kernel triple --config a100-fiber --grid 1 --block 32 \
	--arg zeros:512 2> "$tmp/sum"
if grep -qF "FIBER occupancy: 1 CTA/SM (limit: fiber); a CTA takes 4 wefts (max(.maxfibers 128, 32 threads) / 32), 1 of the 64 weft contexts of each sub-partition; the kernel owns its SM (SETFIBERNUM, an SM-wide sync): one CTA per SM, 1 of 108 SMs busy" "$tmp/sum"; then
	ok "the summary gives the occupancy decision: the kernel owns its SM"
else
	bad "the summary lacks the occupancy decision"; grep -i occupancy "$tmp/sum"
fi
for cfg in a100-fiber a100; do
	"$fibersim" run examples/softmax/softmax.sm_80.sass --kernel softmax_rows --config $cfg \
		--grid 2 --block 128 --arg zeros:8192 --arg zeros:8192 --arg i32:8 --arg i32:256 2> "$tmp/sum"
	n=$(grep -c "FIBER occupancy:.*the SIMT limits on warps and threads per SM do not apply" "$tmp/sum")
	if { [ $cfg = a100-fiber ] && [ "$n" = 1 ]; } || { [ $cfg = a100 ] && ! grep -q "FIBER occupancy" "$tmp/sum"; }; then
		ok "softmax (SIMT listing) on $cfg: ${n} FIBER occupancy line"
	else
		bad "softmax on $cfg: FIBER occupancy lines"; grep -i occupancy "$tmp/sum"
	fi
done
# the .nv.info entries without nvdisasm's comment lines declare nothing: the error says why
grep -v '//----- nvinfo' "$tmp/triple.fsass" > "$tmp/nocomment.fsass"
"$fibersim" run "$tmp/nocomment.fsass" --kernel triple --config a100-fiber --grid 1 --block 32 \
	--arg zeros:512 --quiet 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -qF "kernel 'triple' takes 0 parameters but 1 argument was given: argument 0 (zeros:512) has no parameter (a listing's parameters are its .nv.info entries, each after nvdisasm's '//----- nvinfo : EIATTR_...' line" "$tmp/err"; then
	ok "without the nvinfo comment lines: no parameters, and the error says why"
else
	bad "without the nvinfo comment lines (rc $rc)"; head -3 "$tmp/err"
fi
# the check can fail: a listing whose SETFIBERNUM is gone leaves out[32..127] unwritten
sed 's/^\( *\)SETFIBERNUM 0x80 ;.*/\1NOP ;/' "$tmp/triple.fsass" > "$tmp/bad.fsass"
"$fibersim" run "$tmp/bad.fsass" --kernel triple --config a100-fiber --grid 1 --block 32 \
	--arg zeros:512 --out "0:$tmp/bad.bin" --quiet --functional 2> "$tmp/err"
if od -An -tu4 -v -w4 "$tmp/bad.bin" | awk '{ i = NR - 1; if ($1 != 3 * i + 3 * (i % 32)) bad++ }
	END { exit !bad }'; then
	ok "the value check rejects a listing without its SETFIBERNUM"
else
	bad "the value check cannot fail"
fi
echo "fiberdoc: $pass passed, $fail failed"
[ $fail -eq 0 ]
