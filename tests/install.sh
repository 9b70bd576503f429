#!/bin/sh
# install.sh: `make install PREFIX=...` puts fiberc, libfiber.a, the headers, fiber.mk and the man
# page in place; a user Makefile that includes the installed fiber.mk builds a .fsass from an
# example with the installed fiberc; a C program builds against the installed headers and
# library; the README's `cc prog.c $(pkg-config --cflags --libs fiber)` builds the example host
# program, and libfiberrt.a links with `pkg-config --static --libs fiber`; DESTDIR stages;
# `make uninstall` removes it all.
# Environment: B (build directory; build/san means a SAN=1 build). Prints a line per check, then
# `N passed, M failed`.
set -u
B=${B:-build}
# the installed fiber.mk must find its own fiberc, not the one make check exports
unset MAKEFLAGS MFLAGS MAKELEVEL FIBERC FIBERCFLAGS FIBER_PREFIX
case $B in */san | san) san=1 ;; *) san=0 ;; esac
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() { # check DESCRIPTION COMMAND...: ok if the command succeeds
	d=$1; shift
	if "$@" > "$tmp/log" 2>&1; then ok "$d"; else bad "$d"; tail -n 12 "$tmp/log" | sed 's/^/  | /'; fi
}
p=$tmp/prefix
files="bin/fiberc lib/libfiber.a include/fiber/ir.h include/fiber/arch.h include/fiber/ops.h include/fiber/latkeys.h include/fiber/regs.h include/fiber/frontend.h
include/fiber/fiber_device.cuh share/fiber/fiber.mk share/man/man1/fiberc.1"

check "make install PREFIX=\$tmp" make --no-print-directory install PREFIX="$p" SAN=$san
missing=
for f in $files; do [ -f "$p/$f" ] || missing="$missing $f"; done
[ -z "$missing" ] && ok "installed: $(echo $files)" || bad "not installed:$missing"
[ -x "$p/bin/fiberc" ] && check "the installed fiberc runs (--version)" "$p/bin/fiberc" --version

# --- a user's Makefile that includes the installed fiber.mk ------------------------------------
u=$tmp/user
mkdir -p "$u"
cp examples/gemm_tc/gemm_tc.sm_80.sass "$u/gemm.sass"
printf 'int main(void) { return 0; }\n' > "$u/saxpy.cu"
cat > "$u/Makefile" <<MK
FIBERC_MODE = none
include $p/share/fiber/fiber.mk
all: gemm.fsass gemm.ir
MK
check "a user Makefile including the installed fiber.mk builds gemm.fsass" \
	make --no-print-directory -C "$u"
grep -q "^$p/bin/fiberc .*--emit=sass" "$tmp/log" && ok "it runs the installed fiberc" ||
	bad "it does not run $p/bin/fiberc"
sh scripts/sass-normalize.sh "$u/gemm.sass" > "$tmp/in.norm"
if [ -f "$u/gemm.fsass" ] &&
    sh scripts/sass-normalize.sh "$u/gemm.fsass" | cmp -s - "$tmp/in.norm"; then
	ok "gemm.fsass re-emits gemm.sass (normalised)"
else
	bad "gemm.fsass differs from gemm.sass"
fi
[ -s "$u/gemm.ir" ] && ok "gemm.ir built" || bad "gemm.ir missing"
check "a second make is a no-op (make -q)" make --no-print-directory -q -C "$u"
make --no-print-directory -n -C "$u" saxpy.cubin > "$tmp/plan" 2>&1
grep -q '^nvcc -O3 -lineinfo -cubin -arch=sm_80 .*saxpy.cu' "$tmp/plan" &&
	ok "make -n saxpy.cubin prints nvcc ... -arch=sm_80" ||
	{ bad "make -n saxpy.cubin:"; sed 's/^/  | /' "$tmp/plan"; }
make --no-print-directory -n -C "$u" saxpy.fsass NVCC_ARCH=sm_86 FIBERC_MODE=cuda-native \
	> "$tmp/plan" 2>&1
grep -q -- '-arch=sm_86' "$tmp/plan" && grep -q -- '-hex saxpy.cubin' "$tmp/plan" &&
	grep -q -- '--mode=cuda-native' "$tmp/plan" &&
	ok "make -n saxpy.fsass chains nvcc, nvdisasm -hex and fiberc" ||
	{ bad "make -n saxpy.fsass does not chain the three tools:"; sed 's/^/  | /' "$tmp/plan"; }

# --- a C program against the installed headers and library ------------------------------------
cat > "$u/count.c" <<'C'
#include <fiber/frontend.h>
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
	Diag d;
	Src *src;
	Module *m;
	unsigned n = 0;

	diag_init(&d, NULL, stderr);
	if (argc != 2 || !(src = src_read(argv[1], &d)))
		return 1;
	d.src = src;
	if (!(m = sass_parse(src, &d)))
		return 1;
	for (unsigned k = 0; k < m->nfn; k++)
		n += m->fn[k]->nins;
	printf("%u functions, %u instructions\n", m->nfn, n);
	module_free(m);
	src_free(src);
	return 0;
}
C
sanflags=
[ "$san" = 1 ] && sanflags="-fsanitize=address,undefined"
check "a C program compiles against include/fiber and lib/libfiber.a" \
	cc -std=c11 $sanflags -I"$p/include" -o "$u/count" "$u/count.c" "$p/lib/libfiber.a" -lm
if [ -x "$u/count" ] && "$u/count" "$u/gemm.sass" > "$tmp/out" 2>&1 &&
    grep -q '^[1-9][0-9]* functions' "$tmp/out"; then
	ok "it parses gemm.sass: $(cat "$tmp/out")"
else
	bad "it does not parse gemm.sass"; sed 's/^/  | /' "$tmp/out" 2>/dev/null
fi

# --- a host program with the README's command: cc prog.c $(pkg-config --cflags --libs fiber) ---
readme_cmd='cc prog.c $(pkg-config --cflags --libs fiber)'
grep -qF "$readme_cmd" README.md && ok "README.md gives the command: $readme_cmd" ||
	bad "README.md no longer says '$readme_cmd' (keep this test in step)"
if ! command -v pkg-config > /dev/null 2>&1; then
	bad "no pkg-config: cannot check the README's command"
elif [ ! -f "$p/lib/pkgconfig/fiber.pc" ]; then
	bad "make install did not install lib/pkgconfig/fiber.pc"
else
	cp examples/host/softmax_host.c "$u/prog.c"
	rm -f "$u/a.out"
	# exactly the README's command (with the sanitizers of a SAN=1 build, which libfiberrt needs)
	if (cd "$u" && PKG_CONFIG_PATH="$p/lib/pkgconfig" sh -c "cc $sanflags prog.c \$(pkg-config --cflags --libs fiber)") \
	    > "$tmp/log" 2>&1 && "$u/a.out" examples/softmax/softmax.sm_80.sass > "$tmp/out" 2>&1 &&
	    grep -q ': ok$' "$tmp/out"; then
		ok "the README's command builds examples/host/softmax_host.c, which runs: $(tail -n 1 "$tmp/out")"
	else
		bad "the README's command on examples/host/softmax_host.c:"; tail -n 8 "$tmp/log" "$tmp/out" | sed 's/^/  | /'
	fi
	st=$(PKG_CONFIG_PATH="$p/lib/pkgconfig" pkg-config --static --libs fiber)
	missing=
	for l in -lelf -lm -pthread; do
		case " $st " in *" $l "*) ;; *) missing="$missing $l" ;; esac
	done
	[ -z "$missing" ] && ok "pkg-config --static --libs fiber has what libfiberrt.a needs: $st" ||
		bad "pkg-config --static --libs fiber lacks$missing: $st"
	if cc -std=c11 $sanflags -I"$p/include/fiber" -o "$u/static" "$u/prog.c" "$p/lib/libfiberrt.a" $st \
	    > "$tmp/log" 2>&1 && "$u/static" examples/softmax/softmax.sm_80.sass > /dev/null 2>&1; then
		ok "libfiberrt.a links with pkg-config --static --libs fiber"
	else
		bad "libfiberrt.a with pkg-config --static --libs fiber:"; tail -n 8 "$tmp/log" | sed 's/^/  | /'
	fi
fi

# --- DESTDIR, uninstall --------------------------------------------------------------------------
check "make install DESTDIR=\$tmp/stage PREFIX=/opt/fiber" \
	make --no-print-directory install DESTDIR="$tmp/stage" PREFIX=/opt/fiber SAN=$san
[ -x "$tmp/stage/opt/fiber/bin/fiberc" ] && [ -f "$tmp/stage/opt/fiber/share/fiber/fiber.mk" ] &&
	[ ! -e /opt/fiber/bin/fiberc ] && ok "DESTDIR stages under \$DESTDIR\$PREFIX" ||
	bad "DESTDIR did not stage under \$DESTDIR\$PREFIX"
check "make uninstall PREFIX=\$tmp" make --no-print-directory uninstall PREFIX="$p" SAN=$san
left=
for f in $files; do [ -e "$p/$f" ] && left="$left $f"; done
[ -d "$p/include/fiber" ] && left="$left include/fiber/"
[ -d "$p/share/fiber" ] && left="$left share/fiber/"
[ -z "$left" ] && ok "uninstall removed everything it installed" || bad "left behind:$left"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
