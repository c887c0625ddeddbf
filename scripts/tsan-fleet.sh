#!/usr/bin/env bash
# ThreadSanitizer run of fleet (docs/safety.md): builds linkscope with
# -DLINKSCOPE_TSAN=ON (no CUDA, no tests) in ${LS_TSAN_DIR:-build-tsan}, then runs fleet
# over 200 documents (one forged, one not JSON, so the skip path runs too) with --json
# and --html, 8 reader threads at least. Exits 1 on any ThreadSanitizer report, 0 clean.
# ctest's cli_tsan_fleet runs it (label tsan; `ctest -LE tsan` leaves it out).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${LS_TSAN_DIR:-build-tsan}
cmake -S . -B "$build" -DLINKSCOPE_TSAN=ON -DLINKSCOPE_TESTS=OFF -DLINKSCOPE_CUDA=OFF >/dev/null
cmake --build "$build" --target linkscope -j"$(nproc)" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/fleet" examples/h200x2-run.json <<'PY'
import json, os, sys
out, src = sys.argv[1], sys.argv[2]
os.mkdir(out)
base = json.load(open(src))
for n in range(200):
    d = json.loads(json.dumps(base))
    d["host"]["hostname"] = "node%03d" % n
    for m in d["measurements"]:
        if isinstance(m.get("value"), (int, float)) and m["value"] > 0:
            m["value"] = round(m["value"] * (1 - (n % 13) / 100.0), 3)
    if n == 77:
        d["measurements"][0]["dst"] = 2000000000
    json.dump(d, open(os.path.join(out, "n%03d.json" % n), "w"))
open(os.path.join(out, "n150.json"), "w").write('{"schema": "linkscope.run/1"')
PY
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 report_signal_unsafe=0"
rc=0
"$build/linkscope" fleet "$tmp/fleet" --json --html "$tmp/fleet.html" >"$tmp/out" 2>"$tmp/err" || rc=$?
if grep -q "ThreadSanitizer" "$tmp/err" || [ "$rc" = 66 ]; then
    grep -A30 "WARNING: ThreadSanitizer" "$tmp/err" | head -60
    echo "tsan fleet: ThreadSanitizer report (exit $rc)"
    exit 1
fi
[ "$rc" = 2 ] || { echo "tsan fleet: exit $rc, expected 2 (two documents skipped)"; head -5 "$tmp/err"; exit 1; }
[ "$(grep -c '; skipped$' "$tmp/err")" = 2 ] || { echo "tsan fleet: skipped lines:"; cat "$tmp/err"; exit 1; }
echo "tsan fleet: clean (200 documents, 2 skipped)"
