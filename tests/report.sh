#!/bin/sh
# report.sh: a sweep's report.html in a real browser (driver/sweephtml.c, docs/sweep.md): the demo
# sweep's page opened by headless Chromium (Debian's chromium, installed if missing, as root):
# the DOM it renders has the points' table and the three charts with a bar per point (speedup,
# CPI stack segments, a sensitivity band per configuration), the browser logs no console message
# (the same check catches a page with a script error), nothing is fetched from the network, and
# a screenshot is a PNG of the page's size. `make sweep-screenshot` makes docs/sweep-report.png
# the same way. Environment: B (build directory). Prints a line per check, then `N passed, M
# failed`.
set -u
B=${B:-build}
SIM=$(pwd)/$B/bin/fibersim
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed "s/^/  | /" "$1" | cut -c1-200 | tail -n 12; }
check() { if eval "$1"; then ok "$2"; else bad "$2"; [ -z "${3:-}" ] || show "$3"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v chromium > /dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
	echo "installing chromium"
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium ||
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends chromium; }; } > "$tmp/apt.log" 2>&1
fi
if ! command -v chromium > /dev/null 2>&1; then
	bad "chromium is not installed and cannot be (root and apt-get needed)"
	echo "$pass passed, $fail failed"
	exit 1
fi

# browse FILE.html OUT ARGS...: headless Chromium (as root it needs --no-sandbox), its console
# messages and network errors in OUT.log
browse() {
	page=$1 out=$2
	shift 2
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --enable-logging=stderr --v=0 "$@" \
		"file://$page" > "$out" 2> "$out.log"
}

D=$tmp/demo
"$SIM" sweep examples/sweep/demo.sweep -o "$D" -j 2 > /dev/null 2> "$tmp/err"
check '[ $? -eq 0 ]' "the demo sweep" "$tmp/err"
browse "$D/report.html" "$tmp/dom" --dump-dom
check '[ $? -eq 0 ] && grep -q "<h1>demo</h1>" "$tmp/dom"' "chromium renders report.html" "$tmp/dom.log"
python3 - "$tmp/dom" > "$tmp/count" 2>&1 <<'EOF'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.svg = None
        self.n = {}
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "svg":
            self.svg = a.get("id") or a.get("class")
        key = (self.svg, tag, a.get("class"))
        self.n[key] = self.n.get(key, 0) + 1
    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
p = P()
p.feed(open(sys.argv[1]).read())
n = lambda svg, tag, cls=None: p.n.get((svg, tag, cls), 0)
print(n(None, "tr"), n("speedup", "rect", "bar"), n("cpi", "rect", "seg"),
      n("sensitivity", "rect", "band"), n("sensitivity", "circle"))
EOF
read -r rows bars segs bands dots < "$tmp/count"
check '[ "${rows:-0}" -eq 7 ]' "the DOM has the points' table: a header and 6 rows (${rows:-none})" "$tmp/count"
check '[ "${bars:-0}" -eq 6 ]' "the speedup chart has a bar per point (${bars:-none})"
check '[ "${segs:-0}" -ge 12 ]' "the CPI chart has the stacks' segments, at least two per point (${segs:-none})"
check '[ "${bands:-0}" -eq 3 ] && [ "${dots:-0}" -eq 6 ]' \
	"the sensitivity chart has a band per configuration and a dot per point (${bands:-none}, ${dots:-none})"
check '! grep -q "CONSOLE" "$tmp/dom.log"' "no console message while rendering" "$tmp/dom.log"
check '! grep -qi "net::ERR\|Failed to load resource" "$tmp/dom.log"' "nothing fetched from the network" \
	"$tmp/dom.log"
# the console check is live: a page with a script error is caught
{ sed 's|</body>|<script>undefined_function();</script></body>|' "$D/report.html"; } > "$tmp/broken.html"
browse "$tmp/broken.html" "$tmp/bdom" --dump-dom
check 'grep -q "CONSOLE.*undefined_function is not defined" "$tmp/bdom.log"' \
	"the console check catches a script error on a broken copy" "$tmp/bdom.log"
browse "$D/report.html" "$tmp/shot.out" --hide-scrollbars --window-size=1000,1250 \
	--screenshot="$tmp/shot.png"
read -r pw ph pn <<EOF
$(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
print(*struct.unpack(">II", b[16:24]), len(b))' "$tmp/shot.png" 2> /dev/null)
EOF
check '[ "${pw:-0}" -eq 1000 ] && [ "${ph:-0}" -eq 1250 ] && [ "${pn:-0}" -gt 20000 ]' \
	"a screenshot: a 1000x1250 PNG of ${pn:-no} bytes" "$tmp/shot.out.log"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
