#!/bin/sh
# refactor-check.sh: everything a refactor must leave byte-identical, written into OUTDIR so that
# two builds compare with `diff -r`:
#   - every example on a100/h100/b200 in timing mode: outputs and the statistics JSON
#     (scripts/example-stats.sh, host speed removed);
#   - fiberc --emit=ir, --emit=sass and --stats of every committed listing (examples, tests);
#   - every example in functional mode (--mode=functional): outputs and statistics.
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
ls "$out/stats" "$out/fiberc" | wc -l
