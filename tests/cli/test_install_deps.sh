#!/usr/bin/env bash
# scripts/install-deps.sh takes tools from PATH and asks apt only for what is missing:
# with everything here it calls no apt-get; as a non-root user missing a compiler it says
# what is missing in one line and exits 2, calling no apt-get either. apt-get and id are
# stand-ins on PATH (nothing is installed).
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null && command -v cmake >/dev/null || { echo "skipped: needs cc and cmake"; exit 77; }
echo '#include <jansson.h>' | cc -E -x c - >/dev/null 2>&1 || { echo "skipped: no jansson.h here"; exit 77; }
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$@" >>"%s/apt.log"\nexit 0\n' "$tmp" >"$tmp/bin/apt-get"
printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/id"

PATH="$tmp/bin:$PATH" bash "$src/scripts/install-deps.sh" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ok || bad "install-deps.sh with every tool here: exit $?, $(cat "$tmp/err")"
[ -e "$tmp/apt.log" ] && bad "apt-get was called although nothing is missing: $(cat "$tmp/apt.log")" || ok

PATH="$tmp/bin:$PATH" CC=/nonexistent/cc bash "$src/scripts/install-deps.sh" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && ok || bad "non-root without a compiler: exit $rc, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "missing: a C compiler (/nonexistent/cc)" "$tmp/err" && ok ||
    bad "not one line naming the compiler: $(cat "$tmp/err")"
[ -e "$tmp/apt.log" ] && bad "apt-get was called by a non-root user" || ok
echo "test_install_deps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
