#!/bin/sh
# fuzz-seed-ptx.sh: cut PTX files into small, valid pieces for the PTX fuzzer's seed corpus.
# Each piece is the file's header (.version, .target, .address_size and the module-scope
# declarations before the first function) plus one function; pieces stay below 60 KiB
# (libFuzzer -max_len), a longer function is left out.
#   sh scripts/fuzz-seed-ptx.sh OUTDIR FILE...
set -eu
[ $# -ge 1 ] || { echo "usage: fuzz-seed-ptx.sh OUTDIR FILE..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
n=0
for f in "$@"; do
	[ -f "$f" ] || continue
	base=$(echo "$f" | tr '/' '_' | sed 's/\.ptx$//')
	LC_ALL=C awk -v out="$out" -v base="$base" -v maxb=61440 '
	function flush(   name) {
		if (body != "" && length(hdr) + length(body) <= maxb) {
			name = sprintf("%s/%s-%03d.ptx", out, base, ++np)
			printf "%s%s", hdr, body > name
			close(name)
		}
		body = ""
	}
	BEGIN { hdr = ""; body = ""; infn = 0; np = 0 }
	/^(\.visible |\.weak |\.extern )?\.(entry|func)/ { flush(); infn = 1 }
	/^[ \t]*\.file/ || /^[ \t]*\.section/ { flush(); infn = 0 }
	{ if (infn) body = body $0 "\n"; else if (body == "") hdr = hdr $0 "\n" }
	END { flush(); print np }
	' "$f" > "$out/.count"
	n=$((n + $(cat "$out/.count")))
done
rm -f "$out/.count"
echo "fuzz-seed-ptx: $n pieces in $out"
