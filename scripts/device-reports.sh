#!/usr/bin/env bash
# The GPU check of issue 27 (reports), in one call, from out/dev (scripts/stage-device.sh):
# `linkscope run` on the machine, then the TP verdict it printed against report,
# check --spec and tp --verdict of the document it wrote (one verdict, four commands),
# the headline of the fresh document at 80 columns (no line over 80), and run.sh's first
# screen is not needed there (a GPU answers). Everything under OUT_DIR.
# usage: device-reports.sh OUT_DIR
set -u
out=${1:?usage: device-reports.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
tp_lines() { awk '/^tensor parallelism/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' "$1"; }
{
nvidia-smi -L
timeout 300 ./linkscope run -o "$out/run.json" > "$out/run.txt" 2>&1
echo "run rc=$?"
tp_lines "$out/run.txt" > "$out/tp-run.txt"
./linkscope report "$out/run.json" --fail-on never > "$out/report.txt"
tp_lines "$out/report.txt" > "$out/tp-report.txt"
./linkscope check --spec "$out/run.json" --fail-on never > "$out/check.txt"
tp_lines "$out/check.txt" > "$out/tp-check.txt"
./linkscope tp --verdict "$out/run.json" > "$out/tp.txt"
tp_lines "$out/tp.txt" > "$out/tp-tp.txt"
echo "=== the TP lines of run (the reference):"; cat "$out/tp-run.txt"
for c in report check tp; do
  cmp -s "$out/tp-run.txt" "$out/tp-$c.txt" && echo "$c: same TP lines" || { echo "$c: DIFFERENT"; diff "$out/tp-run.txt" "$out/tp-$c.txt"; }
done
COLUMNS=80 ./linkscope report "$out/run.json" --fail-on never > "$out/report80.txt"
echo "report at 80 columns: $(awk 'length($0) > 80' "$out/report80.txt" | wc -l) lines over 80"
sed -n '/^Headline/,/^$/p' "$out/report80.txt"
} 2>&1 | tee "$out/log.txt"
