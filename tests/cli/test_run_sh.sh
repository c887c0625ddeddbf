#!/usr/bin/env bash
# scripts/run.sh on a machine without a GPU (issue 27): linkscope run says so (exit 3),
# then a short first screen: the "no GPU here" banner, the bundled document's verdict and
# headline, and the command for its full report, which is kept in a file. LS_BIN skips
# the install and the build. Skips (77) where a GPU answers: there run.sh measures.
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: a GPU answers here; run.sh would measure it"
    exit 77
fi
LS_BIN="$bin" LS_EXAMPLE_REPORT="$tmp/full.txt" bash "$src/scripts/run.sh" -o "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && ok || bad "run.sh exited $rc, expected 3 (no GPU)"
grep -q "no usable GPU" "$tmp/err" && ok || bad "no 'no usable GPU' line on stderr"
lines=$(wc -l <"$tmp/out")
[ "$lines" -le 40 ] && ok || bad "the first screen is $lines lines"
head -3 "$tmp/out" | grep -q "^=== no GPU here" && ok || bad "the banner is not on top: $(head -3 "$tmp/out")"
grep -q "NOT this machine" "$tmp/out" && ok || bad "the example is not labelled as another machine"
grep -q "^Verdict: " "$tmp/out" && ok || bad "no verdict on the first screen"
grep -q "^Headline figures" "$tmp/out" && ok || bad "no headline on the first screen"
grep -q "report examples/h200x2-run.json" "$tmp/out" && ok || bad "no command for the full report"
grep -q "^== Collectives" "$tmp/out" && bad "the full report went to the screen" || ok
grep -q "^== Collectives" "$tmp/full.txt" && ok || bad "the full report is not in the file"
grep -q "$tmp/full.txt" "$tmp/out" && ok || bad "the file is not named"
echo "test_run_sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
