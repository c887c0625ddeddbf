#!/usr/bin/env bash
# scripts/calibrate-noisy.py over every kept run document (docs/analysis.md, "Statuses,
# spread, busy GPUs"): no idle figure's robust spread is above its class's limit (the
# noisy rule's statistic keeps healthy machines quiet), and the figures the docs quote
# are the ones the script prints: the figure count, each class's worst robust spread and
# worst CV, and whether any kept document was measured next to another process.
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }

python3 "$src/scripts/calibrate-noisy.py" >"$tmp/cal" 2>"$tmp/err" && ok ||
    bad "calibrate-noisy.py exited $?: $(head -c 300 "$tmp/err")"
# the section of docs/analysis.md that quotes the calibration, up to the next heading
awk '/^## Statuses, spread, busy GPUs/ { on = 1; next } /^## / { on = 0 } on' \
    "$src/docs/analysis.md" >"$tmp/section"
row=$(grep '^| `noisy` |' "$src/docs/analysis.md")

# CLASS STAT: "WORST OVER" of the script's line for it
stat() { awk -v c="$1" -v s="$2" '$1 == c && $4 == s { print $5, $6 }' "$tmp/cal"; }

classes=0
for c in device host_shared cpu_latency; do
    read -r robust over <<<"$(stat "$c" robust)"
    read -r cv _ <<<"$(stat "$c" cv)"
    [ -n "$robust" ] || { bad "$c: no robust line in the script's output"; continue; }
    classes=$((classes + 1))
    [ "$over" = 0 ] && ok || bad "$c: $over idle figures above the limit by the robust spread"
    grep -qF "$robust" "$tmp/section" && ok || bad "$c: worst robust spread $robust not in docs/analysis.md"
    grep -qF "$cv" "$tmp/section" && ok || bad "$c: worst CV $cv not in docs/analysis.md"
done
[ "$classes" -eq 3 ] && ok || bad "only $classes classes in the script's output"

figures=$(awk 'NR == 1 { print $1 }' "$tmp/cal")
grep -qF "$figures figures" "$tmp/section" && ok || bad "$figures figures not in docs/analysis.md"
grep -qF "$figures figures" <<<"$row" && ok || bad "$figures figures not in the rule table's row"
read -r robust _ <<<"$(stat device robust)"
grep -qF "at most $robust" <<<"$row" && ok || bad "device-timed $robust not in the rule table's row"

busy=$(sed -n 's/^busy documents (telemetry.processes): //p' "$tmp/cal")
if [ "$busy" = 0 ]; then
    grep -q "no kept" "$tmp/section" && ok || bad "no busy document kept, and docs/analysis.md does not say so"
else
    ! grep -q "no kept" "$tmp/section" && ok || bad "$busy busy documents kept: docs/analysis.md still says none"
fi
echo "calibrate-noisy: $figures figures, $busy busy documents; passed $pass, failed $fail"
[ "$fail" -eq 0 ]
