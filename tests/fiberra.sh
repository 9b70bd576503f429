#!/bin/sh
# fiberra.sh: the allocator of FIBER windows on the examples. Every
# examples/fiber-native/*.vfsass (virtual registers) is allocated by `fiberc X.vfsass
# --mode=fiber-native -o out.fsass` (regalloc's window target: backend/rawin.c, rapin.c), and by
# an explicit --passes pipeline naming fiber-ra (since issue 21 another name of regalloc-window:
# the --passes lines written for the first allocator keep working), then run by fibersim on the FIBER configuration
# of its architecture (sm_80: a100-fiber, sm_90: h100-fiber): both must write output buffers
# byte-identical to the hand-allocated X.fsass beside it, on the same inputs. Prints the window
# sizes (hand-allocated -> fiber-ra, regalloc-window). Environment: B (build directory).
set -u
B=${B:-build}
FIBERC=$B/bin/fiberc SIM=$B/bin/fibersim
pass=0 fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# N halfs (f16) of modest magnitude (|x| in [2^-3, 2^2)), from seed S, into FILE
halfs() {
	LC_ALL=C awk -v n="$1" -v s="$2" 'BEGIN { srand(s); for (k = 0; k < n; k++) {
		b = (rand() < 0.5 ? 32768 : 0) + (12 + int(rand() * 5)) * 1024 + int(rand() * 1024);
		printf "%c%c", b % 256, int(b / 256) } }' > "$3"
}
halfs 2048 1 "$tmp/gate"
halfs 2048 2 "$tmp/up"

# a --passes pipeline that names fiber-ra
FR=cfg,fiber-ra,ssa,verify,liveness,remote-writes,out-of-ssa,mma-banks,ctrl-bits,fverify

# the line of kernels.txt: symbol grid block
for v in examples/fiber-native/*.vfsass; do
	base=${v%.vfsass}
	name=$(basename "$base" | sed 's/\.sm_[0-9]*$//')
	sm=$(basename "$base" | sed 's/.*\.sm_//')
	cfg=a100-fiber
	[ "$sm" = 90 ] && cfg=h100-fiber
	line=$(grep "^$name " examples/fiber-native/kernels.txt)
	sym=$(echo "$line" | cut -d' ' -f2) grid=$(echo "$line" | cut -d' ' -f3)
	block=$(echo "$line" | cut -d' ' -f4)
	if ! "$FIBERC" "$v" --mode=fiber-native -o "$tmp/out.fsass" 2> "$tmp/err"; then
		echo "FAIL $v: fiberc"; cat "$tmp/err"; fail=$((fail + 1)); continue
	fi
	if ! "$FIBERC" "$v" --mode=fiber-native -o "$tmp/fr.fsass" --passes="$FR" 2> "$tmp/err"; then
		echo "FAIL $v: fiberc --passes=$FR"; cat "$tmp/err"; fail=$((fail + 1)); continue
	fi
	case $name in
	silu_mul_*) args="--arg buf:$tmp/gate --arg buf:$tmp/up --arg zeros:4096 --arg i32:1024"
	            out=2 ;;
	*) echo "FAIL $v: no inputs for $name in fiberra.sh"; fail=$((fail + 1)); continue ;;
	esac
	ok=1
	for f in "$base.fsass" "$tmp/out.fsass" "$tmp/fr.fsass"; do
		# shellcheck disable=SC2086
		"$SIM" run "$f" --kernel "$sym" --grid "$grid" --block "$block" --config "$cfg" \
			--quiet $args --out "$out:$tmp/$(basename "$f").bin" 2> "$tmp/err" ||
			{ echo "FAIL $v: fibersim $f"; cat "$tmp/err"; ok=0; }
	done
	hand=$(sed -n 's/.*SHI_REGISTERS=\([0-9]*\).*/\1/p' "$base.fsass")
	fr=$(sed -n 's/.*SHI_REGISTERS=\([0-9]*\).*/\1/p' "$tmp/fr.fsass")
	rw=$(sed -n 's/.*SHI_REGISTERS=\([0-9]*\).*/\1/p' "$tmp/out.fsass")
	if [ $ok = 1 ] && cmp -s "$tmp/$(basename "$base").fsass.bin" "$tmp/out.fsass.bin" &&
	   cmp -s "$tmp/$(basename "$base").fsass.bin" "$tmp/fr.fsass.bin"; then
		echo "ok   $v on $cfg: outputs identical; window $hand (hand) -> $fr (fiber-ra), $rw (regalloc-window)"
		pass=$((pass + 1))
	else
		echo "FAIL $v on $cfg: outputs differ"; fail=$((fail + 1))
	fi
done
echo "fiberra: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
