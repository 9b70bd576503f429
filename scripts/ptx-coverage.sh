#!/bin/sh
# ptx-coverage.sh: the PTX coverage table of docs/ptx-coverage.md (issue 23). Every instruction
# and directive of the PTX ISA listed in docs/ptx-isa.txt (the manual's, one a line with a sample)
# is lowered in a small kernel by `fiberc --emit=isel`; the table says what fiberc answered:
# `selected`, or refused with fiberc's own first message (the selection's reason, the target's,
# or the front end's). The list must name every opcode the front end reads
# (frontend/ptx/ptxops.h) and every opcode with a selection row (fiberc --list-isel): an opcode
# missing from it is an error (status 1), so the table cannot silently leave one out.
#
#   sh scripts/ptx-coverage.sh [LIST] > TABLE       (FIBERC: the binary, default build/bin/fiberc;
#                                                    PTX_COVERAGE_PARTIAL=1: LIST is a part, not
#                                                    checked for every opcode: tests/docs.sh)
set -eu
list=${1:-docs/ptx-isa.txt}
fc=${FIBERC:-build/bin/fiberc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every opcode of the front end and of the selection rows is some entry: NAME or NAME.<form>
sed -n 's/^P(\([a-z0-9_]*\),.*/\1/p' frontend/ptx/ptxops.h > "$tmp/ops"
"$fc" --list-isel | awk -F'|' 'NR > 2 { gsub(/[` ]/, "", $3); print $3 }' >> "$tmp/ops"
grep -v '^#' "$list" | awk 'NF { print $2 }' > "$tmp/names"
miss=0
[ "${PTX_COVERAGE_PARTIAL:-0}" = 1 ] && : > "$tmp/ops"
for op in $(sort -u "$tmp/ops"); do
	if ! grep -q -e "^$op\$" -e "^$op\\." "$tmp/names"; then
		echo "ptx-coverage: $list has no entry for the opcode '$op' (front end or selection)" >&2
		miss=1
	fi
done
[ "$miss" -eq 0 ] || exit 1

# kernel TARGET TOP KATTR BODY: the sample kernel (docs/ptx-isa.txt says what it declares; `\n`
# in TOP and BODY a new line)
kernel() {
	printf '.version 9.0\n.target %s\n.address_size 64\n.global .align 4 .b8 gv[64];\n%b\n' "$1" "$2"
	printf '.visible .entry k(.param .u64 k_p0, .param .u64 k_p1) %s\n{\n' "$3"
	printf '\t.reg .pred %%p<8>;\n\t.reg .b16 %%rs<8>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<8>;\n'
	printf '\t.reg .f32 %%f<16>;\n\t.reg .f64 %%fd<8>;\n\t.reg .b128 %%q<2>;\n'
	printf '\t.shared .align 16 .b8 sm[1024];\n\tld.param.u64 %%rd1, [k_p0];\n'
	printf '\tcvta.to.global.u64 %%rd1, %%rd1;\n\t%b\nL:\n\tret;\n}\n' "$4"
}

# the answer of fiberc to the kernel in $tmp/k.ptx: selected, or its first message, classified
answer() {
	if "$fc" "$tmp/k.ptx" --emit=isel -o "$tmp/k.isel" > /dev/null 2> "$tmp/err"; then
		echo "selected"
		return
	fi
	m=$(grep -m1 ': error: ' "$tmp/err" | sed 's/^[^ ]*: error: //')
	case $m in
	*"is not supported yet: "*) echo "refused: ${m#*is not supported yet: }" ;;
	*"does not generate code"*|*"not an architecture"*) echo "refused (target): $m" ;;
	"") echo "refused: $(head -n 1 "$tmp/err")" ;;
	*) echo "not read (front end): $m" ;;
	esac
}

echo '| family | PTX | sample | fiberc |'
echo '|---|---|---|---|'
grep -v '^#' "$list" | while read -r fam name target sample; do
	[ -n "$fam" ] || continue
	top='' kattr='' body=$sample
	case $sample in
	template) body='' ;;
	top:*) s=${sample#top: }; top=${s%%|*}; body=''
	       case $s in *'|'*) body=${s#*| } ;; esac ;;
	kattr:*) kattr=${sample#kattr: }; body='' ;;
	esac
	kernel "$target" "$top" "$kattr" "$body" > "$tmp/k.ptx"
	a=$(answer)
	shown=$(printf '%s' "$sample" | sed 's/|/\\|/g')
	printf '| %s | `%s` | `%s` (%s) | %s |\n' "$fam" "$name" "$shown" "$target" \
		"$(printf '%s' "$a" | sed 's/|/\\|/g')"
done > "$tmp/rows"
cat "$tmp/rows"
echo
awk -F' [|] ' '{ n++; if ($4 ~ /^selected/) s++; else if ($4 ~ /^not read/) r++; else f++ }
     END { printf "%d entries: %d selected, %d refused by the code generator, %d not read by the front end\n", n, s, f, r }' "$tmp/rows"
