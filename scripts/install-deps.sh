#!/usr/bin/env bash
# Makes sure linkscope can be built here, asking apt only for what is really missing.
# Tools already on PATH count, wherever they came from (cmake from pip, environment
# modules, Spack, a toolkit in /usr/local): a GPU node without network or root is fine
# as long as cmake, a C compiler and jansson's header and library are there.
# With --tests, also cmocka (the host tests) and scripts/packages-test.txt (Chromium,
# promtool: optional, their tests skip themselves without them).
# Without root or apt, and something missing: one line naming it, exit 2.
set -uo pipefail
cd "$(dirname "$0")/.."
cc=${CC:-cc}
has_header() { echo "#include <$1>" | "$cc" ${CFLAGS:-} -E -x c - >/dev/null 2>&1; }
has_lib() { echo 'int main(void){return 0;}' | "$cc" -x c - -o /dev/null ${LDFLAGS:-} "-l$1" >/dev/null 2>&1; }

missing=()   # what is missing, in words
packages=()  # the Debian package that brings it
command -v cmake >/dev/null || { missing+=(cmake); packages+=(cmake); }
command -v "$cc" >/dev/null || { missing+=("a C compiler ($cc)"); packages+=(build-essential); }
command -v make >/dev/null || command -v ninja >/dev/null || { missing+=("make or ninja"); packages+=(build-essential); }
if command -v "$cc" >/dev/null && ! { has_header jansson.h && has_lib jansson; }; then
    missing+=("jansson (jansson.h and libjansson)"); packages+=(libjansson-dev)
fi
optional=()
if [ "${1:-}" = "--tests" ]; then
    command -v "$cc" >/dev/null && ! has_header cmocka.h && { missing+=(cmocka); packages+=(libcmocka-dev); }
    # MPI: optional (loaded at run time); its tests run where mpirun and mpi.h are
    command -v mpirun >/dev/null || optional+=(openmpi-bin)
    command -v "$cc" >/dev/null && ! has_header mpi.h && ! has_header openmpi/mpi.h && optional+=(libopenmpi-dev)
    for p in $(cat scripts/packages-test.txt); do
        tool=$p
        [ "$p" = prometheus ] && tool=promtool
        command -v "$tool" >/dev/null || optional+=("$p")
    done
fi
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
if [ ${#missing[@]} -gt 0 ] && { [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; }; then
    echo "linkscope: cannot build here, missing: ${missing[*]} (install them, put them on PATH, or build elsewhere and copy the binary: README)" >&2
    exit 2
fi
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || exit 0 # optional ones only: their tests skip
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
if [ ${#packages[@]} -gt 0 ]; then
    apt-get install -y -q --no-install-recommends $(printf '%s\n' "${packages[@]}" | sort -u) >/dev/null || {
        echo "linkscope: apt-get could not install: ${packages[*]} (for ${missing[*]})" >&2
        exit 2
    }
fi
if [ ${#optional[@]} -gt 0 ]; then
    apt-get install -y -q --no-install-recommends "${optional[@]}" >/dev/null ||
        echo "linkscope: could not install ${optional[*]}: their tests will be skipped" >&2
fi
exit 0
