#!/usr/bin/env bash
# Forged GPU indices (docs/safety.md "Forged indices"): a P2P entry whose dst is
# 2000000000, 64 or -2 (and a gpus[] item of 64) is refused where the document is read,
# with one line naming the file and the entry, exit 2, by report, plan and fleet (which
# skips that document and reports the others); a latency entry's dst of -1 (host
# memory) is still read.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }

"$bin" import "$fx/h200x2/p2pBandwidthLatencyTest.txt" -o "$tmp/good.json" 2>/dev/null && ok ||
    bad "import of the p2pBandwidthLatencyTest fixture"
forge() { # forge FIELD VALUE OUT: the first p2p entry's FIELD set to VALUE
    python3 - "$tmp/good.json" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = next(m for m in d["measurements"] if m["family"] == "p2p")
v = int(sys.argv[3])
if sys.argv[2] == "gpus":
    e["gpus"] = [0, v]
else:
    e[sys.argv[2]] = v
json.dump(d, open(sys.argv[4], "w"))
PY
}
refused() { # refused WHAT ARGS...: exit 2, one stderr line naming the file and entry
    local what=$1
    shift
    run 2 "$@" || return
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$what: not one line: $(cat "$tmp/err")"
    grep -q "bad.json: measurements\[[0-9]*\] (p2p-" "$tmp/err" && ok ||
        bad "$what: the line names no file and entry: $(cat "$tmp/err")"
    grep -q "AddressSanitizer\|runtime error" "$tmp/err" && bad "$what: sanitizer report" || ok
}
for forged in "dst 2000000000" "dst 64" "dst -2" "dst -1" "src 64" "src -1" "gpus 64"; do
    set -- $forged
    forge "$1" "$2" "$tmp/bad.json"
    refused "report ($forged)" report "$tmp/bad.json"
    refused "plan ($forged)" plan "$tmp/bad.json"
    rm -rf "$tmp/fleet" && mkdir "$tmp/fleet" && cp "$tmp/good.json" "$tmp/fleet/a.json" &&
        cp "$tmp/bad.json" "$tmp/fleet/bad.json"
    refused "fleet ($forged)" fleet "$tmp/fleet"
    grep -q "bad.json: .*; skipped" "$tmp/err" && ok || bad "fleet ($forged): not named as skipped: $(cat "$tmp/err")"
    grep -q "a.json" "$tmp/out" && ok || bad "fleet ($forged): the good document is not reported"
    grep -q "bad.json" "$tmp/out" && bad "fleet ($forged): the forged document is in the report" || ok
done
# every document forged: nothing to report, one line more saying so
rm -f "$tmp/fleet/a.json"
run 2 fleet "$tmp/fleet"
grep -q "none of the 1 documents could be read" "$tmp/err" && ok || bad "fleet of forged only: $(cat "$tmp/err")"

# host memory as a latency entry's dst is a real index (nvbandwidth host_device tests)
"$bin" import "$fx/h200x2/nvbandwidth.json" -o "$tmp/nvb.json" 2>/dev/null && ok || bad "nvbandwidth import"
grep -q '"dst": -1' "$tmp/nvb.json" || echo "note: the nvbandwidth fixture has no host latency entry"
run 0 report "$tmp/nvb.json"

echo "safety indices: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
