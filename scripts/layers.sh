#!/bin/sh
# layers.sh: the include graph follows the layering (docs/architecture.md), checked on the sources
# themselves (headers too, which the compiler sees only through the .c files that include them):
#   - no `#include "..."` names a path ("../sim/sim.h", "sim/sim.h"): a bare header only;
#   - every header a file of LAYER includes is in one of the folders LAYER's include path names
#     (a folder under build/ stands for the parsers generated there: NAME.tab.h for each NAME.y of
#     the source folder of the same name).
#
#   sh scripts/layers.sh LAYER=DIR:DIR:... ...     (the Makefile passes its INC_* lines)
# Prints `layers: ok`, or each offending include and exits 1.
set -u
bad=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for spec in "$@"; do
	layer=${spec%%=*}
	dirs=$(echo "${spec#*=}" | tr ':' ' ')
	files=$(ls "$layer"/*.[chly] 2>/dev/null)
	[ -n "$files" ] || { echo "layers: no sources in $layer/"; bad=1; continue; }
	# the headers LAYER may include
	: > "$tmp/ok"
	for d in $dirs; do
		case $d in
		build/*|*/build/*)
			src=${d#*build/}
			src=${src#san/}
			for y in "$src"/*.y; do
				[ -f "$y" ] && basename "$y" .y | sed 's/$/.tab.h/' >> "$tmp/ok"
			done ;;
		*)
			for h in "$d"/*.h; do [ -f "$h" ] && basename "$h" >> "$tmp/ok"; done ;;
		esac
	done
	# shellcheck disable=SC2086
	grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files > "$tmp/inc"
	while IFS= read -r line; do
		h=$(echo "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
		case $h in
		*/*) echo "$line: includes name a bare header, never a path"; bad=1 ;;
		*) grep -qxF "$h" "$tmp/ok" ||
			{ echo "$line: $layer/ may not include \"$h\" (it builds on: $dirs)"; bad=1; } ;;
		esac
	done < "$tmp/inc"
done
[ "$bad" -eq 0 ] && echo 'layers: ok'
exit "$bad"
