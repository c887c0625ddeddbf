#!/usr/bin/env bash
# "Never overwrite an input" past 512 inputs (docs/safety.md "One output writer"): a
# fleet of 600 documents with --html onto the 600th (by name, and through a symlink) is
# refused with one line and the document is untouched; onto a new file it is written.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }

python3 - "$tmp/fleet" <<'PY'
import json, os, sys
out = sys.argv[1]
os.mkdir(out)
for n in range(600):
    d = {"schema": "linkscope.run/1", "created": "2026-01-01T00:00:00Z", "tool": {"version": "t", "commit": "t"},
         "host": {"hostname": "node%03d" % n}, "software": {}, "gpus": [{"index": 0, "name": "GPU"}], "links": [],
         "nics": [], "gpu_nic_links": [], "env": {}, "measurements": []}
    json.dump(d, open(os.path.join(out, "n%03d.json" % n), "w"))
PY
last=$tmp/fleet/n599.json
sum=$(cksum <"$last")
run 2 fleet "$tmp/fleet" --html "$last"
grep -q "n599.json: is one of the inputs" "$tmp/err" && ok || bad "600th input: $(cat "$tmp/err")"
[ "$(cksum <"$last")" = "$sum" ] && ok || bad "the 600th input was overwritten"
ln -s "$last" "$tmp/link.html"
run 2 fleet "$tmp/fleet" --html "$tmp/link.html"
[ "$(cksum <"$last")" = "$sum" ] && ok || bad "the 600th input was overwritten through a link"
run 0 fleet "$tmp/fleet" --html "$tmp/fleet.html" && { grep -q "node599" "$tmp/fleet.html" && ok || bad "no node599 in the HTML"; }

echo "safety inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
