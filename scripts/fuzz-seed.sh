#!/bin/sh
# fuzz-seed.sh: cut SASS listings into small, mostly valid pieces for the fuzzer's seed corpus.
# Each piece is the listing's header (.target, .elftype, or cuobjdump's `code for` lines) plus
# one section; a long section is also cut at instruction boundaries into runs of about 64
# lines, each kept with the section's own header lines.
# Pieces stay below 60 KiB (libFuzzer -max_len).
#   sh scripts/fuzz-seed.sh OUTDIR FILE...
set -eu
[ $# -ge 1 ] || { echo "usage: fuzz-seed.sh OUTDIR FILE..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
n=0
for f in "$@"; do
	[ -f "$f" ] || continue
	base=$(echo "$f" | tr '/' '_' | sed 's/\.sass$//')
	LC_ALL=C awk -v out="$out" -v base="$base" -v chunk=64 -v maxb=61440 '
	function flush_piece(body,   name) {
		if (body == "" || length(hdr) + length(body) > maxb)
			return
		name = sprintf("%s/%s-%04d.sass", out, base, ++npiece)
		printf "%s%s", hdr, body > name
		close(name)
	}
	function end_section(   i, k, run, nrun, isnew) {
		if (nsec == 0)
			return
		all = ""
		for (i = 1; i <= nsec; i++)
			all = all sec[i] "\n"
		if (length(all) <= 16384) {
			flush_piece(all)
		} else {
			flush_piece(all)	# whole, when it fits
			# header lines of the section: up to the first instruction or data line
			pre = ""
			for (k = 1; k <= nsec && sec[k] !~ /\/\*[0-9a-f]+\*\//; k++)
				pre = pre sec[k] "\n"
			run = ""; nrun = 0
			for (i = k; i <= nsec; i++) {
				isnew = sec[i] ~ /^[ \t]*\/\*[0-9a-f]+\*\// || sec[i] ~ /^[.$A-Za-z_][^ \t]*:$/
				if (nrun >= chunk && isnew) {
					flush_piece(pre run)
					run = ""; nrun = 0
				}
				run = run sec[i] "\n"; nrun++
			}
			flush_piece(pre run)
		}
		nsec = 0
	}
	BEGIN { hdr = ""; insec = 0; nsec = 0; npiece = 0 }
	/^\/\/-----/ || /Function :/ { end_section(); insec = 1 }
	{
		if (!insec)
			hdr = hdr $0 "\n"
		else
			sec[++nsec] = $0
	}
	END { end_section(); print npiece }
	' "$f" > "$out/.count"
	n=$((n + $(cat "$out/.count")))
done
rm -f "$out/.count"
echo "fuzz-seed: $n pieces in $out"
