#!/bin/sh
# regen.sh: rebuild the real nvcc cubins under tests/cubins/ and what tests/cubin.sh compares
# them with. Needs nvcc (13.x: $NVCC) and nvdisasm of the same release ($NVDISASM); the tests
# themselves need neither.
#
#   sh tests/cubins/regen.sh         (from the repository root)
#
# For every example kernel (examples/*/*.cu) and tests/corpus/*.cu, and each of sm_80 sm_86
# sm_89 sm_90 sm_90a that nvcc accepts for it (fp8, tma, hopper, more need newer ones):
#   NAME.ARCH.cubin    nvcc -O3 -cubin -arch=ARCH, unstripped (fiber.mk's rule less -lineinfo,
#                      whose line tables would triple the size)
#   NAME.ARCH.params   what nvdisasm prints of each kernel's .nv.info.K section, one line a
#                      kernel: `KERNEL cbank=SIZE p=ORDINAL:OFFSET:SIZE ...` (from the
#                      EIATTR_CBANK_PARAM_SIZE and EIATTR_KPARAM_INFO lines of `nvdisasm -hex`)
# NAME is the example's folder (softmax), folder-file for examples/microbench (microbench-alu),
# corpus-file for the corpus (corpus-misc). The full listings `nvdisasm -hex` of softmax (every
# architecture) and of corpus-misc.sm_90 are kept as NAME.ARCH.sass for the launch tests.
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
NVDISASM=${NVDISASM:-nvdisasm}
out=tests/cubins
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
rm -f "$out"/*.cubin "$out"/*.params "$out"/*.sass

# params LISTING: the parameter lines of an nvdisasm listing
params() {
	awk '
	function num(s) { s = tolower(s); sub(/,$/, "", s); return s ~ /^0x/ ? hex(substr(s, 3)) : s + 0 }
	function hex(s,   v, i) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	function flush() { if (k != "") print k " cbank=" cb p; k = ""; p = ""; cb = "-" }
	/^[ \t]*\.section[ \t]+\.nv\.info\./ { flush(); k = $2; sub(/^\.nv\.info\./, "", k); sub(/,.*/, "", k); next }
	/^[ \t]*\.section[ \t]/ { flush(); next }
	k == "" { next }
	/nvinfo : / { attr = $NF; n = 0; next }
	/\/\*[0-9a-f]+\*\// {
		d = $2; n++
		if (attr == "EIATTR_CBANK_PARAM_SIZE" && n == 2) cb = num($3)
		if (attr == "EIATTR_KPARAM_INFO") {
			if (n == 4) ord = num($3)
			if (n == 5) off = num($3)
			if (n == 6) p = p " p=" ord ":" off ":" int((num($3) + 256 * num($4) + 65536 * num($5) + 16777216 * num($6)) / 262144) % 16384
		}
	}
	END { flush() }' "$1"
}

for cu in examples/*/*.cu tests/corpus/*.cu; do
	dir=$(basename "$(dirname "$cu")") base=$(basename "$cu" .cu)
	case $dir in
	corpus) name=corpus-$base ;;
	"$base") name=$base ;;
	*) name=$dir-$base ;;
	esac
	for arch in sm_80 sm_86 sm_89 sm_90 sm_90a; do
		"$NVCC" -O3 -cubin -arch=$arch -o "$tmp/k.cubin" "$cu" 2>/dev/null || continue
		"$NVDISASM" -hex "$tmp/k.cubin" > "$tmp/k.sass"
		params "$tmp/k.sass" > "$out/$name.$arch.params"
		cp "$tmp/k.cubin" "$out/$name.$arch.cubin"
		case $name.$arch in
		softmax.*|corpus-misc.sm_90) cp "$tmp/k.sass" "$out/$name.$arch.sass" ;;
		esac
	done
done
