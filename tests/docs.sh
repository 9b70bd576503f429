#!/bin/sh
# docs.sh: the documentation agrees with the code it describes, and the project cites nothing
# outside itself. Each check is also run on a broken copy, which it must reject:
#   - docs/opcodes.md's table is what scripts/gen-opcodes.c writes from ir/ops.h (`make docs`):
#     a row changed, missing or added in the doc, or in a copy of ops.h, is a failure;
#   - no tracked file names a machine path or a notes file outside the project (the facts the
#     project relies on are in docs/hardware-facts.md, with their published sources);
#   - the Makefile's per-layer include paths (INC_*) and docs/architecture.md's table of layers
#     name the same dependencies for every layer.
# Prints a line per check, then `N passed, M failed`. Environment: CC (default cc).
set -u
CC=${CC:-cc}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 12; }

# --- docs/opcodes.md against ir/ops.h ----------------------------------------------------------
listings=$(find examples bench tests -name '*.sass' | LC_ALL=C sort)
# gen OPSDIR DOC: compile the generator against OPSDIR/ops.h and write DOC regenerated to $tmp/gen
gen() {
	"$CC" -std=c11 -I"$1" -o "$tmp/gen-opcodes" scripts/gen-opcodes.c > "$tmp/cc.log" 2>&1 ||
		{ cat "$tmp/cc.log"; return 2; }
	# shellcheck disable=SC2086
	"$tmp/gen-opcodes" $listings < "$2" > "$tmp/gen" 2> "$tmp/gen.err"
}
# doc_agrees OPSDIR DOC: the table of DOC is the one OPSDIR/ops.h gives
doc_agrees() { gen "$1" "$2" && cmp -s "$tmp/gen" "$2"; }

if doc_agrees ir docs/opcodes.md; then
	ok "docs/opcodes.md: the table is the one ir/ops.h gives (make docs)"
else
	bad "docs/opcodes.md differs from what ir/ops.h gives: run 'make docs'"
	diff docs/opcodes.md "$tmp/gen" | head -n 12
	show "$tmp/gen.err"
fi
n=$(grep -c '^O(' ir/ops.h)
rows=$(sed -n '/^<!-- generated from ir\/ops.h/,/^<!-- end of the generated table/p' docs/opcodes.md | grep -c '^| [A-Za-z]')
# the header row counts too: one row per opcode, plus the header
[ "$rows" -eq $((n + 1)) ] && ok "docs/opcodes.md: $n opcode rows for the $n rows of ir/ops.h" ||
	bad "docs/opcodes.md has $((rows - 1)) opcode rows, ir/ops.h $n"

# mutants of the doc, each of which the check must reject
mkdir -p "$tmp/ops"
cp ir/ops.h "$tmp/ops/ops.h"
sed 's/^| IADD3 | int | fixed | 1 | pfx |/| IADD3 | fma | fixed | 1 | pfx |/' docs/opcodes.md > "$tmp/unit.md"
sed 's/^| LDG | lsu | var |/| LDG | lsu | fixed |/' docs/opcodes.md > "$tmp/lat.md"
sed 's/^\(| LDSM | .*\)load, shared, collective/\1load, shared/' docs/opcodes.md > "$tmp/flags.md"
sed '/^| SHFL | /d' docs/opcodes.md > "$tmp/missing.md"
sed 's/^\(| NOP | .*\)$/\1\n| NOTANOP | int | fixed | 1 | generic |  |  |/' docs/opcodes.md > "$tmp/extra.md"
for m in unit lat flags missing extra; do
	if cmp -s "$tmp/$m.md" docs/opcodes.md; then
		bad "mutant '$m' of docs/opcodes.md is not a change (the sed missed)"
	elif doc_agrees "$tmp/ops" "$tmp/$m.md"; then
		bad "a doc with a wrong row ($m) passes the check"
	else
		ok "a doc with a wrong row ($m) is rejected"
	fi
done
# mutants of ops.h: the committed doc must then disagree
sed 's/^O(IADD3, *UInt, /O(IADD3, UFma, /' ir/ops.h > "$tmp/ops/ops.h"
doc_agrees "$tmp/ops" docs/opcodes.md && bad "ops.h with IADD3 on another unit still agrees with the doc" ||
	ok "ops.h with IADD3 on another unit disagrees with the doc"
sed 's/^O(SETBUSYBIT,\(.*\))$/O(SETBUSYBIT,\1)\nO(NEWOP, UInt, LFixed, 1, ShGeneric, 0)/' ir/ops.h > "$tmp/ops/ops.h"
doc_agrees "$tmp/ops" docs/opcodes.md && bad "ops.h with a new row still agrees with the doc" ||
	ok "ops.h with a new row disagrees with the doc"
# an nvcc listing (its .cu beside it) with an opcode ops.h lacks: the generator refuses it
mkdir -p "$tmp/nv"
printf '\t.text.k:\n        /*0000*/                   FOOBAR R0, R1 ;\n' > "$tmp/nv/k.sm_80.sass"
: > "$tmp/nv/k.cu"
cp ir/ops.h "$tmp/ops/ops.h"
"$CC" -std=c11 -Iir -o "$tmp/gen-opcodes" scripts/gen-opcodes.c &&
	{ "$tmp/gen-opcodes" "$tmp/nv/k.sm_80.sass" < docs/opcodes.md > /dev/null 2> "$tmp/err"; rc=$?; } || rc=-1
[ "$rc" -eq 1 ] && grep -q 'k.sm_80.sass:2: opcode FOOBAR has no row in ir/ops.h' "$tmp/err" &&
	ok "an nvcc listing with an opcode ops.h lacks: located error" ||
	{ bad "an unknown opcode in an nvcc listing: exit $rc"; show "$tmp/err"; }
# the same listing without its .cu is hand-written: not part of the corpus
rm "$tmp/nv/k.cu"
"$tmp/gen-opcodes" "$tmp/nv/k.sm_80.sass" < docs/opcodes.md > /dev/null 2> "$tmp/err" &&
	ok "a hand-written listing (no .cu beside it) is not counted" || { bad "a hand-written listing counted"; show "$tmp/err"; }
grep -v '^<!-- end of the generated table -->$' docs/opcodes.md > "$tmp/nomark.md"
"$tmp/gen-opcodes" < "$tmp/nomark.md" > /dev/null 2>&1 && bad "a doc without the end marker is accepted" ||
	ok "a doc without the end marker is refused"

# --- no citation of files outside the project ----------------------------------------------------
# the patterns are spelt in pieces so that this file does not match itself
pat_work='/wor''k/'
pat_docs='shared''/docs'
pat_tools='shared''/tools'
pat_notes='microarch''\.md'
pattern="$pat_work|$pat_docs|$pat_tools|$pat_notes"
# outside_citations DIR: the files under DIR (tracked ones in a git checkout) that name one
outside_citations() {
	if git -C "$1" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		(cd "$1" && git ls-files -z | xargs -0 grep -lE "$pattern" --)
	else
		(cd "$1" && find . -path ./build -prune -o -type f -print | xargs grep -lE "$pattern" --)
	fi
}
found=$(outside_citations .)
[ -z "$found" ] && ok "no tracked file cites a machine path or a notes file outside the project" ||
	{ bad "files citing something outside the project (put the facts in docs/hardware-facts.md):"; echo "$found" | sed 's/^/  | /'; }
[ -f docs/hardware-facts.md ] && grep -q '^## Sources' docs/hardware-facts.md &&
	ok "docs/hardware-facts.md exists and lists its sources" || bad "docs/hardware-facts.md or its Sources section is missing"
# the check finds a citation planted in a copy (a plain directory: the find branch)
mkdir -p "$tmp/tree/docs"
printf 'numbers from %s%s\n' "/wor" "k/notes.md" > "$tmp/tree/docs/x.md"
printf 'clean\n' > "$tmp/tree/docs/y.md"
[ "$(outside_citations "$tmp/tree")" = "./docs/x.md" ] && ok "a planted citation in a copy is found, and only it" ||
	bad "a planted citation is not found: '$(outside_citations "$tmp/tree")'"

# --- the layering: the Makefile's INC_* lines against docs/architecture.md ------------------------
# layers_make MAKEFILE: "layer: dep dep" per INC_layer line (its own folder and build/ paths left out)
layers_make() {
	sed -n 's/^INC_\([a-z]*\)[[:space:]]*:=\(.*\)$/\1 \2/p' "$1" | grep -v '^all ' |
	while read -r layer incs; do
		deps=$(for i in $incs; do echo "$i"; done | sed -n 's/^-I//p' | grep -v '^\$(B)' |
			grep -vx "$layer" | LC_ALL=C sort -u | tr '\n' ' ')
		echo "$layer: $deps"
	done | LC_ALL=C sort
}
# layers_doc DOC: the same from the table after the marker comment ("nothing of ours": none;
# "every layer": the Makefile's INC_all, written "*")
layers_doc() {
	sed -n '/^<!-- the "builds on" column/,/^$/p' "$1" | grep '^| `[a-z]*/` |' |
	while IFS='|' read -r _ layer deps _; do
		layer=$(echo "$layer" | tr -d ' `/')
		case $deps in
		*"every layer"*) deps='* ' ;;
		*"nothing of ours"*) deps= ;;
		*) deps=$(echo "$deps" | grep -o '`[a-z]*/`' | tr -d '`/' | LC_ALL=C sort -u | tr '\n' ' ') ;;
		esac
		echo "$layer: $deps"
	done | LC_ALL=C sort
}
# layers_agree MAKEFILE DOC: every layer with an INC_* line has the same row in the doc, and the
# doc's other rows are layers built with INC_all
layers_agree() {
	layers_make "$1" > "$tmp/lm"
	layers_doc "$2" | grep -v ': \* $' > "$tmp/ld"
	[ -s "$tmp/lm" ] && cmp -s "$tmp/lm" "$tmp/ld" || { diff "$tmp/lm" "$tmp/ld" > "$tmp/ldiff"; return 1; }
}
if layers_agree Makefile docs/architecture.md; then
	ok "docs/architecture.md and the Makefile's INC_* lines give each layer the same dependencies ($(wc -l < "$tmp/lm") layers)"
else
	bad "docs/architecture.md's layer table and the Makefile's INC_* lines disagree (< Makefile, > doc):"; show "$tmp/ldiff"
fi
sed 's/^\(INC_timing  *:= .*\) -Isim /\1 /' Makefile > "$tmp/Makefile.mut"
cmp -s Makefile "$tmp/Makefile.mut" && bad "the Makefile mutant is no change (the sed missed)" ||
	{ layers_agree "$tmp/Makefile.mut" docs/architecture.md && bad "a Makefile without timing's -Isim still agrees with the doc" ||
		ok "a Makefile without timing's -Isim disagrees with the doc"; }
sed 's/^| `frontend\/` | `ir\/` |/| `frontend\/` | `sim\/`, `ir\/` |/' docs/architecture.md > "$tmp/arch.mut"
cmp -s docs/architecture.md "$tmp/arch.mut" && bad "the doc mutant is no change (the sed missed)" ||
	{ layers_agree Makefile "$tmp/arch.mut" && bad "a doc giving frontend/ sim/ as well still agrees" ||
		ok "a doc giving frontend/ a dependency on sim/ disagrees with the Makefile"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
