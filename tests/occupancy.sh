#!/bin/sh
# occupancy.sh: the driver's reserved 1 KiB of shared memory per CTA is counted once in the
# occupancy (sim/launch.c smem_layout, timing/simt.c): on sm_90 nvcc's .nv.shared.<kernel> already
# holds it, and the configuration's smem_reserved_per_cta adds it, so the kernel's own bytes are
# the section less 1 KiB. norm_fixed of tests/checks/racy.cu (128 bytes of its own) with dynamic
# shared memory at the boundary of two CTAs per SM (h100: 228 KiB per SM, 128-byte units; a100:
# 164 KiB): 2 CTAs at the largest size that fits twice, 1 a unit above. Prints a line per check,
# then `N passed, M failed`. Environment: B (build directory).
set -u
B=${B:-build}
SIM=$(pwd)/$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

head -c 1024 /dev/zero > "$tmp/x.bin"
# ctas ARCH DYN: the CTAs per SM of the launch's statistics
ctas() {
	"$SIM" run tests/checks/racy.sm_$1.sass --kernel norm_fixed --grid 8 --block 256 \
		--arg buf:$tmp/x.bin --arg zeros:1024 --arg i32:256 --dynamic-smem $2 --stats "$tmp/s.json" \
		--quiet > /dev/null 2>&1 || { echo "run failed"; return; }
	tr -d ' \n' < "$tmp/s.json" | sed -n 's/.*"occupancy":{"ctas_per_sm":\([0-9]*\),"limit":"\([a-z]*\)".*/\1 \2/p'
}
# sm_90: (128 + DYN + 1024) rounded to 128 bytes, twice within 233472
[ "$(ctas 90 115584)" = "2 shared" ] && ok "sm_90: 116736 bytes a CTA (its 128, 115584 dynamic, 1 KiB reserved once): 2 CTAs per SM" ||
	bad "sm_90, dynamic 115584: $(ctas 90 115584), want 2 shared"
[ "$(ctas 90 115712)" = "1 shared" ] && ok "sm_90: 128 bytes more: 1 CTA per SM" ||
	bad "sm_90, dynamic 115712: $(ctas 90 115712), want 1 shared"
# sm_80 (the reserve above user shared memory, not in the section): 167936 per SM
[ "$(ctas 80 82816)" = "2 shared" ] && ok "sm_80: 83968 bytes a CTA: 2 CTAs per SM" ||
	bad "sm_80, dynamic 82816: $(ctas 80 82816), want 2 shared"
[ "$(ctas 80 82944)" = "1 shared" ] && ok "sm_80: 128 bytes more: 1 CTA per SM" ||
	bad "sm_80, dynamic 82944: $(ctas 80 82944), want 1 shared"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
