#!/bin/sh
# deps.sh: make sure the build's packages are present (Debian 12). As root, install what is
# missing with apt-get; otherwise say which packages to install. A stamp skips the check later.
set -e
stamp=build/.deps-ok
[ -f "$stamp" ] && exit 0
missing=
command -v flex >/dev/null 2>&1 || missing="$missing flex"
command -v bison >/dev/null 2>&1 || missing="$missing bison"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v cc >/dev/null 2>&1 || missing="$missing gcc make"
pkg-config --exists check 2>/dev/null || missing="$missing check"
[ -f /usr/include/libelf.h ] || [ -f /usr/include/libelf/libelf.h ] || missing="$missing libelf-dev"
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "deps: installing$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null
	else
		echo "deps: missing packages:$missing" >&2
		echo "deps: install them with: sudo apt-get install$missing" >&2
		exit 1
	fi
fi
mkdir -p build
touch "$stamp"
