#!/usr/bin/env bash
# Packaging: `cmake --install` puts the binary, the man page and the bash completion
# (generated from the help text at build time) under a prefix; the completion is valid
# bash and completes the commands; the man page holds every command; the binary links
# no libmpi or libjansson (MPI by dlopen, jansson static); the Spack package parses.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$bin")
. "$(dirname "$0")/lib.sh"

[ -f "$build/cmake_install.cmake" ] || { echo "skipped: $build is not a CMake build folder"; exit 77; }
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 && ok || bad "cmake --install: $(tail -3 "$tmp/install.log")"
[ -x "$tmp/prefix/bin/linkscope" ] && ok || bad "no bin/linkscope installed"
man1="$tmp/prefix/share/man/man1/linkscope.1"
comp="$tmp/prefix/share/bash-completion/completions/linkscope"
[ -s "$man1" ] && ok || bad "no man page installed"
[ -s "$comp" ] && ok || bad "no bash completion installed"
for c in $("$bin" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}'); do
    grep -q "^\.SS $c\$" "$man1" && ok || bad "man page lacks command $c"
done
grep -q 'report RUN.json' "$man1" && ok || bad "man page lacks report's usage"
if command -v man >/dev/null && man -l "$man1" >"$tmp/man.txt" 2>/dev/null; then
    grep -q "LINKSCOPE(1)" "$tmp/man.txt" && ok || bad "man -l does not render the page"
fi
bash -n "$comp" && ok || bad "the completion is not valid bash"
words=$(bash -c ". '$comp'; COMP_WORDS=(linkscope rep); COMP_CWORD=1; _linkscope; echo \${COMPREPLY[*]}")
[ "$words" = report ] && ok || bad "completion of 'rep' gave '$words'"
words=$(bash -c ". '$comp'; COMP_WORDS=(linkscope report --fo); COMP_CWORD=2; _linkscope; echo \${COMPREPLY[*]}")
[ "$words" = --format ] && ok || bad "completion of 'report --fo' gave '$words'"

# cpack: a relocatable tarball with the binary, the man page and the completion
if command -v cpack >/dev/null && [ -f "$build/CPackConfig.cmake" ]; then
    (cd "$tmp" && cpack -G TGZ -B "$tmp/pk" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1) && ok ||
        bad "cpack -G TGZ: $(tail -3 "$tmp/cpack.log")"
    tgz=$(ls "$tmp"/pk/linkscope-*.tar.gz 2>/dev/null | head -1)
    for f in bin/linkscope share/man/man1/linkscope.1 share/bash-completion/completions/linkscope; do
        tar tzf "$tgz" 2>/dev/null | grep -q "^linkscope-[^/]*/$f\$" && ok || bad "the tarball lacks $f"
    done
fi
if command -v ldd >/dev/null; then
    ldd "$bin" >"$tmp/ldd" 2>&1
    grep -qE 'libmpi|libjansson' "$tmp/ldd" && bad "the binary links $(grep -oE 'libmpi[^ ]*|libjansson[^ ]*' "$tmp/ldd" | head -1)" || ok
fi
if command -v python3 >/dev/null; then
    python3 -c "import ast,sys; ast.parse(open(sys.argv[1]).read())" "$src/packaging/spack/packages/linkscope/package.py" &&
        ok || bad "packaging/spack/packages/linkscope/package.py does not parse"
    grep -q '^class Linkscope(CMakePackage' "$src/packaging/spack/packages/linkscope/package.py" && ok || bad "no Linkscope class"
fi
echo "test_packaging: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
