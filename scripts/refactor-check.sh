#!/bin/sh
# refactor-check.sh: everything a refactor must leave byte-identical, written into OUTDIR so that
# two builds compare with `diff -r`:
#   - every example on a100/h100/b200 in timing mode: outputs and the statistics JSON
#     (scripts/example-stats.sh, host speed removed);
#   - fiberc --emit=ir, --emit=sass and --stats of every committed listing (examples, tests);
#   - every example in functional mode (--mode=functional): outputs and statistics;
#   - the code generator: fiberc on every committed .ptx (SASS, --mode=cuda-native, --emit=isel,
#     --stats), and every example compiled from its PTX run on a100/h100 (timing) and a100
#     (functional);
#   - the FIBER passes and SM: --mode=cuda-native --stats of every listing, --mode=fiber-native of
#     every .vfsass, every example's cuda-native output on a100-fiber/h100-fiber, and the
#     FIBER-native examples on a100-fiber/h100-fiber and under each ablation (timing and
#     functional).
#
#   sh scripts/refactor-check.sh OUTDIR [BUILD]      # BUILD defaults to build
#   diff -r BEFORE AFTER
set -eu
out=${1:?usage: refactor-check.sh OUTDIR [BUILD]}
b=${2:-build}
mkdir -p "$out/stats" "$out/fiberc"
sh scripts/example-stats.sh "$out/stats" "$b/bin/fibersim" >/dev/null
# the same runs in functional mode, through a wrapper that adds --functional
mkdir -p "$out/functional"
sim=$(cd "$b/bin" && pwd)/fibersim
printf '#!/bin/sh\nexec "%s" "$@" --functional\n' "$sim" > "$out/functional/fsim"
chmod +x "$out/functional/fsim"
sh scripts/example-stats.sh "$out/functional/runs" "$out/functional/fsim" >/dev/null
rm -f "$out/functional/fsim"
find examples tests -name '*.sass' | LC_ALL=C sort | while read -r f; do
	t=$out/fiberc/$(echo "$f" | tr '/' '_')
	"$b/bin/fiberc" "$f" --emit=ir -o "$t.ir" >"$t.ir.log" 2>&1 || echo "exit $?" >>"$t.ir.log"
	"$b/bin/fiberc" "$f" --emit=sass -o "$t.sass" >"$t.sass.log" 2>&1 || echo "exit $?" >>"$t.sass.log"
done
# the code generator: PTX -> SASS (the file's own target), through the FIBER passes, the selection
mkdir -p "$out/ptx"
find examples tests -name '*.ptx' | LC_ALL=C sort | while read -r f; do
	t=$out/ptx/$(echo "$f" | tr '/' '_')
	"$b/bin/fiberc" "$f" --stats -o "$t.sass" >"$t.sass.log" 2>&1 || echo "exit $?" >>"$t.sass.log"
	"$b/bin/fiberc" "$f" --mode=cuda-native --stats -o "$t.fsass" >"$t.fsass.log" 2>&1 ||
		echo "exit $?" >>"$t.fsass.log"
	"$b/bin/fiberc" "$f" --emit=isel -o "$t.isel" >"$t.isel.log" 2>&1 || echo "exit $?" >>"$t.isel.log"
done
# the examples from fiberc's SASS (the listings named as examples/%s/%s.%a.sass would be)
mkdir -p "$out/ptxlist/examples"
for d in $(grep -v '^#' examples/kernels.txt | awk 'NF { print $1 }' | sort -u); do
	mkdir -p "$out/ptxlist/examples/$d"
	for a in sm_80 sm_90; do
		cp "$out/ptx/examples_${d}_$d.$a.ptx.sass" "$out/ptxlist/examples/$d/$d.$a.sass" 2>/dev/null || true
	done
done
PAIRS="sm_80 a100,sm_90 h100" LISTING="$out/ptxlist/examples/%s/%s.%a.sass" \
	sh scripts/example-stats.sh "$out/ptxruns" "$b/bin/fibersim" >/dev/null
PAIRS="sm_80 a100" LISTING="$out/ptxlist/examples/%s/%s.%a.sass" SIM_ARGS=--functional \
	sh scripts/example-stats.sh "$out/ptxruns-functional" "$b/bin/fibersim" >/dev/null
# the FIBER passes: cuda-native of every listing, fiber-native of every .vfsass
mkdir -p "$out/fiber" "$out/fiberlist"
find examples tests -name '*.sass' | LC_ALL=C sort | while read -r f; do
	t=$out/fiber/$(echo "$f" | tr '/' '_')
	"$b/bin/fiberc" "$f" --mode=cuda-native --stats -o "$t.fsass" >"$t.log" 2>&1 || echo "exit $?" >>"$t.log"
done
find examples tests -name '*.vfsass' | LC_ALL=C sort | while read -r f; do
	t=$out/fiber/$(echo "$f" | tr '/' '_')
	"$b/bin/fiberc" "$f" --mode=fiber-native --stats -o "$t.fsass" >"$t.log" 2>&1 || echo "exit $?" >>"$t.log"
done
# the examples' cuda-native output on the FIBER SM, told the launch's grid (as fiber-bench does)
for d in $(grep -v '^#' examples/kernels.txt | awk 'NF { print $1 }' | sort -u); do
	g=$(grep -v '^#' examples/kernels.txt | awk -v d="$d" '$1 == d { split($3, x, ",");
		n = x[1] * x[2] * x[3]; if (n > m) m = n } END { print m }')
	mkdir -p "$out/fiberlist/$d"
	for a in sm_80 sm_90; do
		"$b/bin/fiberc" "examples/$d/$d.$a.sass" --mode=cuda-native --fiber-grid="$g" \
			-o "$out/fiberlist/$d/$d.$a.fsass" >/dev/null 2>&1 || true
	done
done
PAIRS="sm_80 a100-fiber,sm_90 h100-fiber" LISTING="$out/fiberlist/%s/%s.%a.fsass" \
	sh scripts/example-stats.sh "$out/fiberruns" "$b/bin/fibersim" >/dev/null
# the FIBER-native examples, plain, under each ablation, and in functional mode
fk=examples/fiber-native/kernels.txt
PAIRS="sm_80 a100-fiber,sm_90 h100-fiber" LISTING="examples/fiber-native/%s.%a.fsass" KERNELS=$fk \
	sh scripts/example-stats.sh "$out/fnative" "$b/bin/fibersim" >/dev/null
for abl in fiber_dp fiber_fs fiber_rs; do
	PAIRS="sm_80 a100-fiber" LISTING="examples/fiber-native/%s.%a.fsass" KERNELS=$fk \
		SIM_ARGS="--set $abl=0" sh scripts/example-stats.sh "$out/fnative-$abl" "$b/bin/fibersim" >/dev/null
done
PAIRS="sm_80 a100-fiber" LISTING="examples/fiber-native/%s.%a.fsass" KERNELS=$fk SIM_ARGS=--functional \
	sh scripts/example-stats.sh "$out/fnative-functional" "$b/bin/fibersim" >/dev/null
# fiberc --stats prints host seconds per pass: not part of the result
find "$out" -name '*.log' | while read -r f; do
	sed -E '/^    [a-z][a-z-]* +[0-9]+\.[0-9]+$/d' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
ls "$out"/* | wc -l
