#!/bin/sh
# fibermk.sh: examples/Makefile and the rules of mk/fiber.mk, run on a copy of the tree (so the
# checks can touch files): the .fsass and .ir of every examples/*/*.sm_80.sass are built, each
# .fsass equals its input after scripts/sass-normalize.sh, a second make is a no-op, touching a
# listing remakes only its outputs, a new fiberc remakes all, failed steps leave no output, and
# `make -n` of a .cubin prints nvcc with -arch=$(NVCC_ARCH) (nvcc itself is not needed); the PTX
# rules: fiberc builds a .sass from a .ptx with FIBER_BACKEND=fiberc, ptxas + nvdisasm otherwise;
# FIBERC_MODE=fiber-native: a .fsass from a .cu through PTX of sm_80 (fiber_device.cuh).
# Environment: FIBERC (default build/bin/fiberc).
# Prints a line per check, then `N passed, M failed`.
set -u
FIBERC=${FIBERC:-build/bin/fiberc}
unset MAKEFLAGS MFLAGS MAKELEVEL
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() { # check DESCRIPTION COMMAND...: ok if the command succeeds
	d=$1; shift
	if "$@" > "$tmp/log" 2>&1; then ok "$d"; else bad "$d"; sed -n '1,12s/^/  | /p' "$tmp/log"; fi
}

# --- a copy of the parts of the tree the example rules use -------------------------------------
w=$tmp/tree
mkdir -p "$w/mk" "$w/examples" "$w/scripts" "$w/bin"
cp mk/fiber.mk "$w/mk/"
cp examples/Makefile "$w/examples/"
cp scripts/sass-normalize.sh "$w/scripts/"
cp "$FIBERC" "$w/bin/fiberc"
for d in examples/*/; do
	k=$(basename "$d")
	mkdir -p "$w/examples/$k"
	cp "$d"*.sass "$d"*.cu "$w/examples/$k/" 2>/dev/null
done
o=$w/out
M="make --no-print-directory -C $w/examples O=$o FIBERC=$w/bin/fiberc FIBERC_MODE=none"
sass=$(cd "$w/examples" && ls */*.sm_80.sass | LC_ALL=C sort)
n=$(echo "$sass" | wc -l)

# --- build and compare ---------------------------------------------------------------------------
check "make -C examples builds the outputs" $M
nf=$(find "$o" -name '*.sm_80.fsass' | wc -l)
ni=$(find "$o" -name '*.sm_80.ir' | wc -l)
if [ "$nf" -eq "$n" ] && [ "$ni" -eq "$n" ]; then
	ok "$n .fsass and $n .ir files in build/examples"
else
	bad "expected $n .fsass and $n .ir, found $nf and $ni"
fi
[ -z "$(find "$w/examples" -name '*.fsass' -o -name '*.ir' -o -name '*.tmp')" ] &&
	ok "nothing generated inside examples/" || bad "generated files inside examples/"
for f in $sass; do
	k=${f%.sass}
	sh scripts/sass-normalize.sh "$w/examples/$f" > "$tmp/in.norm"
	if [ -f "$o/$k.fsass" ] && sh scripts/sass-normalize.sh "$o/$k.fsass" > "$tmp/out.norm" &&
	    cmp -s "$tmp/in.norm" "$tmp/out.norm"; then
		ok "$k.fsass re-emits $f (normalised)"
	else
		bad "$k.fsass differs from $f (normalised; - input, + output):"
		[ -f "$o/$k.fsass" ] && diff -u "$tmp/in.norm" "$tmp/out.norm" | sed -n '3,20s/^/  | /p'
	fi
done

# --- incremental behaviour -----------------------------------------------------------------------
check "a second make is a no-op (make -q)" $M -q
first=$(echo "$sass" | head -1)
k=${first%.sass}
sleep 1
touch "$w/examples/$first"
$M -n > "$tmp/plan" 2>&1
runs=$(grep -c -- '--emit=' "$tmp/plan")
mine=$(grep -- '--emit=' "$tmp/plan" | grep -c -- "$k")
if [ "$runs" -eq 2 ] && [ "$mine" -eq 2 ]; then
	ok "touching $first remakes only its 2 outputs"
else
	bad "touching $first: make plans $runs fiberc runs ($mine for it), expected 2:"
	sed -n '1,10s/^/  | /p' "$tmp/plan"
fi
check "make after the touch" $M
newer=$(find "$o" -newer "$w/examples/$first" -type f \( -name '*.fsass' -o -name '*.ir' \) | wc -l)
[ "$newer" -eq 2 ] && ok "only $k.fsass and $k.ir were rewritten" ||
	bad "$newer files rewritten after touching $first, expected 2"
check "make -q is a no-op again" $M -q
sleep 1
touch "$w/bin/fiberc"
if $M -q > /dev/null 2>&1; then bad "a new fiberc does not make the outputs out of date"
else ok "a new fiberc makes every output out of date"; fi
$M -n > "$tmp/plan" 2>&1
runs=$(grep -c -- '--emit=' "$tmp/plan")
[ "$runs" -eq $((2 * n)) ] && ok "a new fiberc remakes all $((2 * n)) outputs" ||
	bad "a new fiberc: $runs fiberc runs planned, expected $((2 * n))"
check "make after the new fiberc" $M

# --- FIBERC_MODE: cuda-native by default, fiber-native for .vfsass ------------------------------
make --no-print-directory -C "$w/examples" O="$o" FIBERC="$w/bin/fiberc" -B -n "$o/$k.fsass" \
	> "$tmp/plan" 2>&1
grep -q -- '--mode=cuda-native' "$tmp/plan" && ok "%.fsass: %.sass runs fiberc --mode=cuda-native by default" ||
	{ bad "the default .fsass rule does not run --mode=cuda-native"; sed -n '1,4s/^/  | /p' "$tmp/plan"; }
check "FIBERC_MODE=cuda-native builds $k.fsass" make --no-print-directory -C "$w/examples" O="$o" \
	FIBERC="$w/bin/fiberc" -B "$o/$k.fsass"
grep -q 'SHF\|IMAD\|MOV' "$o/$k.fsass" && ok "the cuda-native $k.fsass holds the kernel's code" ||
	bad "the cuda-native $k.fsass holds no code"
mkdir -p "$w/v"
printf 'include %s/mk/fiber.mk\n' "$w" > "$w/v/Makefile"
: > "$w/v/k.vfsass"
make --no-print-directory -C "$w/v" FIBERC="$w/bin/fiberc" -n k.fsass > "$tmp/plan" 2>&1
grep -q -- '--mode=fiber-native' "$tmp/plan" && ok "%.fsass: %.vfsass runs fiberc --mode=fiber-native" ||
	{ bad "the .vfsass rule does not run --mode=fiber-native"; sed -n '1,4s/^/  | /p' "$tmp/plan"; }

# --- failures leave nothing behind ---------------------------------------------------------------
cat > "$w/bin/bad" <<'STUB'
#!/bin/sh
# writes part of an output, then fails
out=
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift 2;; *) shift;; esac; done
[ -n "$out" ] && echo partial > "$out"
echo "bad: failing on purpose" >&2
exit 1
STUB
chmod +x "$w/bin/bad"
sleep 1
touch "$w/examples/$first"
before=$(cksum < "$o/$k.fsass")
if make --no-print-directory -C "$w/examples" O="$o" FIBERC="$w/bin/bad" "$o/$k.fsass" \
    > "$tmp/log" 2>&1; then
	bad "make succeeds with a failing fiberc"
else
	ok "make fails when fiberc fails"
fi
[ "$(cksum < "$o/$k.fsass")" = "$before" ] && [ -z "$(find "$o" -name '*.tmp')" ] &&
	ok "a failed fiberc leaves no partial .fsass" || bad "a failed fiberc left a partial output"
c=$o/stub/stub.sm_80
mkdir -p "$(dirname "$c")"
echo cubin > "$c.cubin"
if make --no-print-directory -C "$w/examples" O="$o" NVDISASM="$w/bin/bad" "$c.sass" \
    > "$tmp/log" 2>&1; then
	bad "make succeeds with a failing nvdisasm"
elif [ -e "$c.sass" ] || [ -e "$c.sass.tmp" ]; then
	bad "a failed nvdisasm left $c.sass or its temporary"
else
	ok "a failed nvdisasm leaves no .sass"
fi
# a missing tool: where to get it, not only the shell's "nvdisasm: not found"
make --no-print-directory -C "$w/examples" O="$o" NVDISASM=/nonexistent/nvdisasm "$c.sass" \
	> "$tmp/log" 2>&1
grep -q 'nvdisasm: not found\. nvdisasm is in the CUDA toolkit.*pip install nvidia-cuda-nvdisasm.*NVDISASM=' \
	"$tmp/log" && ok "no nvdisasm: fiber.mk says where to get one" ||
	{ bad "no nvdisasm: no advice"; sed -n '1,4s/^/  | /p' "$tmp/log"; }
printf 'int main(void) { return 0; }\n' > "$o/stub/none.cu"
make --no-print-directory -C "$w/examples" O="$o" NVCC=/nonexistent/nvcc "$o/stub/none.cubin" \
	> "$tmp/log" 2>&1
grep -q 'nvcc: not found\. nvcc is in the CUDA toolkit.*NVCC=' "$tmp/log" &&
	ok "no nvcc: fiber.mk says where to get one" || { bad "no nvcc: no advice"; sed -n '1,4s/^/  | /p' "$tmp/log"; }
check "%.sass: %.cubin runs \$(NVDISASM) -hex" \
	make --no-print-directory -C "$w/examples" O="$o" NVDISASM=echo "$c.sass"
grep -q -- "^-hex .*$(basename "$c").cubin" "$c.sass" 2>/dev/null &&
	ok "the .sass holds nvdisasm's output" ||
	bad "the .sass does not hold nvdisasm's output"

# --- make -n of the cubins -----------------------------------------------------------------------
$M -n cubins > "$tmp/plan" 2>&1
if grep -q -- '^nvcc .*-cubin .*-arch=sm_80 ' "$tmp/plan"; then
	ok "make -n cubins prints nvcc -arch=sm_80"
else
	bad "make -n cubins does not print nvcc -arch=sm_80:"; sed -n '1,6s/^/  | /p' "$tmp/plan"
fi
$M -n cubins NVCC_ARCH=sm_90 NVCC=/opt/cuda/bin/nvcc > "$tmp/plan" 2>&1
if grep -q -- '^/opt/cuda/bin/nvcc .*-arch=sm_90 .*\.sm_90\.cubin' "$tmp/plan"; then
	ok "make -n cubins NVCC_ARCH=sm_90 NVCC=... follows the variables"
else
	bad "NVCC_ARCH=sm_90 NVCC=...: not in the nvcc command:"; sed -n '1,6s/^/  | /p' "$tmp/plan"
fi

# --- PTX: %.ptx: %.cu, %.sass: %.ptx with FIBER_BACKEND=fiberc (fiber's code generator) or
# nvdisasm (ptxas, then nvdisasm) ------------------------------------------------------------------
mkdir -p "$w/p"
cp examples/bias_silu/bias_silu.sm_80.ptx "$w/p/k.ptx"
P="make --no-print-directory -C $w/p -f $w/mk/fiber.mk FIBERC=$w/bin/fiberc"
check "FIBER_BACKEND=fiberc builds k.sass from k.ptx" $P FIBER_BACKEND=fiberc k.sass
grep -q '^\.text\.bias_silu_f32:' "$w/p/k.sass" 2>/dev/null &&
	grep -q 'SHI_REGISTERS=[1-9]' "$w/p/k.sass" && grep -q 'EXIT' "$w/p/k.sass" &&
	ok "fiberc's k.sass holds the kernel, allocated" || bad "fiberc's k.sass lacks the kernel"
[ -z "$(find "$w/p" -name '*.tmp')" ] && ok "no temporary left by the PTX rule" ||
	bad "the PTX rule left a temporary"
$P -n -B FIBER_BACKEND=nvdisasm PTXAS=/opt/cuda/bin/ptxas k.sass > "$tmp/plan" 2>&1
grep -q -- '^/opt/cuda/bin/ptxas -arch=sm_80 .*k\.ptx' "$tmp/plan" && grep -q -- 'nvdisasm -hex' "$tmp/plan" &&
	ok "FIBER_BACKEND=nvdisasm: ptxas then nvdisasm" ||
	{ bad "FIBER_BACKEND=nvdisasm plan"; sed -n '1,6s/^/  | /p' "$tmp/plan"; }
printf 'int main(void) { return 0; }\n' > "$w/p/c.cu"
$P -n c.ptx NVCC_ARCH=sm_90 > "$tmp/plan" 2>&1
grep -q -- '^nvcc .*-ptx -arch=sm_90 .*c\.ptx\.tmp c\.cu' "$tmp/plan" &&
	ok "%.ptx: %.cu runs nvcc -ptx -arch=\$(NVCC_ARCH)" ||
	{ bad "%.ptx: %.cu plan"; sed -n '1,6s/^/  | /p' "$tmp/plan"; }
$P -n FIBER_BACKEND=fiberc c.sass > "$tmp/plan" 2>&1
grep -q -- '-ptx' "$tmp/plan" && grep -q -- "fiberc .*--arch=sm_80 .*c\.ptx" "$tmp/plan" &&
	ok "FIBER_BACKEND=fiberc: a .cu goes through PTX" ||
	{ bad "FIBER_BACKEND=fiberc from .cu plan"; sed -n '1,6s/^/  | /p' "$tmp/plan"; }

# --- FIBER-native CUDA (FIBERC_MODE=fiber-native): %.fsass from %.cu through PTX ------------------
mkdir -p "$w/f"
cp examples/fiber-cuda/tour.ptx "$w/f/tour.ptx"
cp examples/fiber-cuda/tour.cu "$w/f/t.cu"
F="make --no-print-directory -C $w/f -f $w/mk/fiber.mk FIBERC=$w/bin/fiberc FIBERC_MODE=fiber-native"
check "FIBERC_MODE=fiber-native builds tour.fsass from the committed tour.ptx (sm_90)" \
	$F NVCC_ARCH=sm_90 tour.fsass
grep -q 'SETFIBERNUM 0x100' "$w/f/tour.fsass" 2>/dev/null && grep -q '\.pool.*pool0' "$w/f/tour.fsass" &&
	! grep -q '%' "$w/f/tour.fsass" && ok "tour.fsass: SETFIBERNUM, the pool, no virtual register left" ||
	bad "tour.fsass lacks the FIBER-native code"
$F -n NVCC_ARCH=sm_90 t.fsass > "$tmp/plan" 2>&1
grep -Eq -- "^nvcc .*-ptx -arch=sm_80 -I[^ ]*(/runtime|/include/fiber) .*t\.cu" "$tmp/plan" &&
	grep -q -- "fiberc .*--mode=fiber-native --arch=sm_90 .*t\.ptx" "$tmp/plan" &&
	! grep -q -- '-cubin' "$tmp/plan" &&
	ok "%.fsass: %.cu (fiber-native) is nvcc -ptx -arch=sm_80 -I(fiber_device.cuh), then fiberc --mode=fiber-native" ||
	{ bad "fiber-native .cu plan"; sed -n '1,6s/^/  | /p' "$tmp/plan"; }
: > "$w/f/bad.ptx"
if $F bad.fsass > "$tmp/log" 2>&1; then bad "an empty .ptx gives a .fsass"
elif [ -e "$w/f/bad.fsass" ] || [ -e "$w/f/bad.fsass.tmp" ]; then bad "a failed fiber-native compile left output"
else ok "a failed fiber-native compile leaves no .fsass"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
