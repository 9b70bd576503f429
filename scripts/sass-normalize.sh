#!/bin/sh
# sass-normalize.sh: print a SASS listing (nvdisasm, cuobjdump -sass or fiber IR) in a canonical
# form so that two listings can be compared with diff: `//` comments and `/*0040*/` address
# comments are removed, runs of blanks become one space, blank lines go. The `/* 0x... */`
# encoding words stay, so the control bits are compared too.
#   sh scripts/sass-normalize.sh [FILE...]     (standard input when no FILE)
LC_ALL=C
export LC_ALL
exec sed -e 's|/\*[0-9a-fA-F]\{1,\}\*/||g' \
	-e 's,//.*$,,' \
	-e 's/[[:space:]]\{1,\}/ /g' \
	-e 's/^ //' \
	-e 's/ $//' \
	-e '/^$/d' \
	"$@"
