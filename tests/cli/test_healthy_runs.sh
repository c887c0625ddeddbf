#!/usr/bin/env bash
# Real run documents of healthy, idle machines (tests/fixtures/runs/README.md, 53 of
# 1 x H200; tests/fixtures/runs-h100/, 14 of 1 x H100): plan must find no warning and no
# error in any of them (healthy machines stay quiet).
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "skipped: needs jq to read the plan"; exit 77; }

docs=0
for t in "$src"/tests/fixtures/runs/*.tgz "$src"/tests/fixtures/runs-h100/*.tgz; do
    d="$tmp/$(basename "$t" .tgz)"
    mkdir -p "$d" && tar xzf "$t" -C "$d"
    for f in "$d"/*.json; do
        docs=$((docs + 1))
        run 0 plan --json "$f" || continue
        loud=$(jq -r '[.findings[] | select(.severity == "warning" or .severity == "error") |
                        "\(.rule) (\(.subject))"] | join(", ")' "$tmp/out")
        [ -z "$loud" ] && ok || bad "$(basename "$t")/$(basename "$f"): $loud"
    done
done
[ "$docs" -ge 64 ] && ok || bad "only $docs healthy run documents found"
echo "$docs healthy run documents; passed $pass, failed $fail"
[ "$fail" -eq 0 ]
