#!/usr/bin/env bash
# The document's words are named once (docs/design.md, "The vocabulary"): no part of
# model, measure, render, pipeline, nccl, sample, import or cli matches or writes a family,
# method, direction, memory, flag or source word by literal outside vocab.h and the
# descriptor tables (scripts/vocab-literals.py); and the check sees a literal put back.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

python3 "$src/scripts/vocab-literals.py" "$src" >"$tmp/out" 2>&1 && ok || bad "literal vocabulary words: $(head -5 "$tmp/out")"

# a copy with one literal put back into a render file, one in a #define (allowed)
mkdir -p "$tmp/copy/src"
cp -r "$src/src/model" "$src/src/render" "$tmp/copy/src/"
cat >>"$tmp/copy/src/render/matrix.c" <<'C'
static int seeded(const char *family) { return strcmp(family, "latency") == 0; }
#define SEEDED_OTHER_WORD "latency" /* a #define names a word: allowed */
/* strcmp(x, "p2p") in a comment: not code */
C
python3 "$src/scripts/vocab-literals.py" "$tmp/copy" >"$tmp/out" 2>&1
[ $? -eq 1 ] && ok || bad "the check passed a literal put back"
n=$(wc -l <"$tmp/out")
[ "$n" -eq 1 ] && grep -q 'src/render/matrix.c:[0-9]*: "latency" by literal' "$tmp/out" && ok ||
    bad "expected one line for the seeded literal, got: $(cat "$tmp/out")"

echo "test_vocab_literals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
