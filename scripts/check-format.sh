#!/usr/bin/env bash
# Checks that the C sources follow .clang-format (issue 24): src/ and tests/host (*.c, *.h,
# *.cu) under ROOT (default: this repository), each compared with what clang-format makes
# of it. Prints each file that differs and exits 1; exits 0 when none does, 77 when no
# clang-format is installed. The formatting differs between clang-format versions, so
# version 14 (the build machine's, clang-format-14) is used where it is installed;
# CLANG_FORMAT=PATH picks another. Reformat the tree with:
#   find src tests/host \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -print0 | xargs -0 clang-format-14 -i
# Usage: scripts/check-format.sh [ROOT]
set -uo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root" || { echo "check-format: $root: no such folder" >&2; exit 2; }
[ -f .clang-format ] || { echo "check-format: $root has no .clang-format" >&2; exit 2; }
fmt=${CLANG_FORMAT:-}
if [ -z "$fmt" ]; then
    for c in clang-format-14 clang-format; do
        command -v "$c" >/dev/null && { fmt=$c; break; }
    done
fi
[ -n "$fmt" ] || { echo "check-format: skipped: no clang-format installed"; exit 77; }
# another major version formats some constructs otherwise: no verdict from it
major=$("$fmt" --version | sed -n 's/.*version \([0-9]*\).*/\1/p' | head -1)
[ "$major" = 14 ] || [ -n "${CLANG_FORMAT:-}" ] ||
    { echo "check-format: skipped: $fmt is version ${major:-unknown}, the tree follows clang-format 14"; exit 77; }
differ=0
while IFS= read -r -d '' f; do
    if ! "$fmt" --style=file "$f" | cmp -s - "$f"; then
        echo "$f"
        differ=$((differ + 1))
    fi
done < <(find src tests/host \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -print0 2>/dev/null | sort -z)
if [ "$differ" -gt 0 ]; then
    echo "check-format: $differ file(s) differ from $("$fmt" --version | head -1) with .clang-format" >&2
    exit 1
fi
exit 0
