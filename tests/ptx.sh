#!/bin/sh
# ptx.sh: fiberc on PTX input (issue 11): `fiberc K.ptx --emit=ptx` prints every committed nvcc
# PTX file back, its output is read again to the same text; a form the code generator does not
# handle (a recursive call) is a located error with status 1 and no output; a bad file gives
# file:line:col and a caret; a kernel with such a form is refused alone (the others written,
# status 1), --max-errors sets the error limit, an unsupported .target is refused. Prints a line per check, then
# `N passed, M failed`. Environment: B (build directory).
set -u
B=${B:-build}
FC=$(pwd)/$B/bin/fiberc
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed 's/^/  | /' "$1" | head -n 8; }

n=0 nbad=0
for f in examples/*/*.ptx tests/corpus/*.ptx bench/ptx/*/*.ptx; do
	n=$((n + 1))
	if ! "$FC" "$f" --emit=ptx -o "$tmp/a.ptx" 2> "$tmp/err" ||
	   ! "$FC" "$tmp/a.ptx" --emit=ptx -o "$tmp/b.ptx" 2>> "$tmp/err" ||
	   ! cmp -s "$tmp/a.ptx" "$tmp/b.ptx"; then
		nbad=$((nbad + 1))
		echo "  $f"; show "$tmp/err"
	fi
done
[ "$nbad" -eq 0 ] && [ "$n" -ge 58 ] && ok "--emit=ptx: $n PTX files print back and read again to the same text" ||
	bad "--emit=ptx: $nbad of $n files fail the round trip"

cat > "$tmp/rec.ptx" <<'EOF2'
.version 9.0
.target sm_80
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	{
	.param .b32 p;
	st.param.b32 [p], %r1;
	.param .b32 q;
	call.uni (q), f, (p);
	ld.param.b32 %r2, [q];
	}
	st.param.b32 [r], %r2;
	ret;
}
.visible .entry k(.param .u32 x)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [x];
	{
	.param .b32 p;
	st.param.b32 [p], %r1;
	.param .b32 q;
	call.uni (q), f, (p);
	ld.param.b32 %r2, [q];
	}
	ret;
}
EOF2
"$FC" "$tmp/rec.ptx" -o "$tmp/k.sass" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^$tmp/rec.ptx:12:2: error: 'call.uni' is not supported yet: a recursive call of 'f'" "$tmp/err" &&
	[ ! -e "$tmp/k.sass" ] && ok "fiberc K.ptx: an unsupported form is a located error, status 1, no output" ||
	{ bad "fiberc K.ptx with a recursive call: status $rc"; show "$tmp/err"; }

printf '.version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfrob.b32 %%r1;\n}\n' > "$tmp/bad.ptx"
"$FC" "$tmp/bad.ptx" --emit=ptx > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(sed -n 1p "$tmp/err")" = "$tmp/bad.ptx:6:2: error: unknown PTX instruction 'frob'" ] &&
	[ "$(sed -n 3p "$tmp/err")" = "      |  ^~~~" ] && ok "an unknown instruction: file:line:col and a caret" ||
	{ bad "unknown instruction report (status $rc)"; show "$tmp/err"; }

# one kernel with an unsupported form is refused alone: the other is written, the refused one
# named, status 1; --kernel compiles the good one with status 0 (issue 23)
cat > "$tmp/two.ptx" <<'EOF2'
.version 9.0
.target sm_80
.address_size 64
.visible .entry good(.param .u64 p)
{
	ret;
}
.visible .entry bad(.param .u64 p)
{
	.reg .b64 %rd<3>;
	cvta.param.u64 %rd1, %rd2;
	ret;
}
EOF2
"$FC" "$tmp/two.ptx" -o "$tmp/two.sass" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^$tmp/two.ptx:11:2: error: 'cvta.param.u64' is not supported yet" "$tmp/err" &&
	grep -q "^$tmp/two.ptx:8:17: note: kernel 'bad' is refused (1 error)" "$tmp/err" &&
	grep -q "1 kernel refused (named above); the output holds the other 1" "$tmp/err" &&
	grep -q '\.text\.good' "$tmp/two.sass" && ! grep -q '\.text\.bad' "$tmp/two.sass" &&
	ok "a kernel with an unsupported form is refused alone, named, status 1; the other is written" ||
	{ bad "two kernels, one refused: status $rc"; show "$tmp/err"; }
"$FC" "$tmp/two.ptx" --kernel=good -o "$tmp/good.sass" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '\.text\.good' "$tmp/good.sass" &&
	ok "--kernel=good compiles it alone, status 0" ||
	{ bad "--kernel=good: status $rc"; show "$tmp/err"; }

# --max-errors: 25 errors, 20 shown by default, N with --max-errors=N, all with 0
{ printf '.version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n'
  i=0; while [ $i -lt 25 ]; do printf '\tfrob.b32 %%r1;\n'; i=$((i + 1)); done; printf '}\n'; } > "$tmp/many.ptx"
nerr() { "$FC" "$tmp/many.ptx" "$@" -o "$tmp/many.sass" 2>&1 | grep -c ': error: '; }
[ "$(nerr)" -eq 20 ] && [ "$(nerr --max-errors=3)" -eq 3 ] && [ "$(nerr --max-errors=0)" -eq 25 ] &&
	"$FC" "$tmp/many.ptx" -o "$tmp/many.sass" 2>&1 | grep -q 'note: stopped at the limit of 20 errors' &&
	ok "--max-errors: 20 errors by default, 3 with =3, all 25 with =0" ||
	bad "--max-errors: $(nerr) by default, $(nerr --max-errors=3) with =3, $(nerr --max-errors=0) with =0"
"$FC" "$tmp/many.ptx" --max-errors=x > /dev/null 2>&1
[ $? -eq 2 ] && ok "--max-errors=x is a usage error (status 2)" || bad "--max-errors=x: not status 2"

# .target against the architecture table: sm_12 refused with status 1 and a located error
sed 's/sm_80/sm_12/' "$tmp/two.ptx" > "$tmp/t12.ptx"
"$FC" "$tmp/t12.ptx" --kernel=good -o "$tmp/t12.sass" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^$tmp/t12.ptx:2:9: error: '.target sm_12' is not an architecture" "$tmp/err" &&
	[ ! -e "$tmp/t12.sass" ] && ok ".target sm_12: a located error, status 1, no output" ||
	{ bad ".target sm_12: status $rc"; show "$tmp/err"; }

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
