#!/usr/bin/env bash
# The tree follows .clang-format (issue 24): scripts/check-format.sh over this repository's
# src/ and tests/host; skipped (77) where clang-format 14 is not installed.
# Args: linkscope binary (unused), fixtures dir (unused).
src=$(cd "$(dirname "$0")/../.." && pwd)
bash "$src/scripts/check-format.sh" "$src"
