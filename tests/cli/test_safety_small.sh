#!/usr/bin/env bash
# The smaller defects of issue 25 (docs/safety.md), one check each: fleet --prom with two
# documents of one hostname gives no duplicate series; Markdown keeps no live link or
# image from an imported name; an error line that quotes a document shows its escape
# characters as \xNN; import --collective takes only nccl-tests' collectives; a bad
# LINKSCOPE_MAX_INPUT_MB is said in one line; the CSV set under -o DIR is written as
# one set (a file that cannot be written leaves the other five old), no temporary file; with
# stdout closed, a report written to a file exits 0; nvidia-smi -q's memory size past
# 2^63 bytes is no signed overflow.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
doc=$fx/../../examples/h200x2-run.json
esc=$(printf '\033')

# fleet --prom: one series per node, also when two documents name one host
mkdir "$tmp/fleet" && cp "$doc" "$tmp/fleet/a.json" && cp "$doc" "$tmp/fleet/b.json"
run 0 fleet "$tmp/fleet" --prom
dups=$(grep -v '^#' "$tmp/out" | sed 's/ [^ ]*$//' | sort | uniq -d | wc -l)
[ "$dups" = 0 ] && ok || bad "fleet --prom: $dups duplicate series: $(grep -v '^#' "$tmp/out" | sed 's/ [^ ]*$//' | sort | uniq -d | head -2)"

# Markdown: a hostname and a GPU name with a link and an image stay text
python3 - "$doc" "$tmp/md.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["host"]["hostname"] = "[click](http://evil.example/)"
d["gpus"][0]["name"] = "![x](http://evil.example/x.png)"
json.dump(d, open(sys.argv[2], "w"))
PY
run 0 report "$tmp/md.json" --format md
grep -q '](http' "$tmp/out" && bad "Markdown: a live link or image: $(grep -m1 '](http' "$tmp/out")" || ok
grep -q 'click\]\\(http' "$tmp/out" && ok || bad "Markdown: the name is not shown escaped"

# an error line quoting a forged document: no escape character reaches the terminal
python3 - "$doc" "$tmp/esc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = next(m for m in d["measurements"] if m["family"] == "p2p")
e["id"] = "p2p-\u001b]0;pwned\u0007-\u001b[2J"
e["dst"] = 64
json.dump(d, open(sys.argv[2], "w"))
PY
run 2 report "$tmp/esc.json"
grep -q "$esc" "$tmp/err" && bad "an escape character reached stderr" || ok
grep -q '\\x1b' "$tmp/err" && ok || bad "the escape is not shown as \\x1b: $(cat -v "$tmp/err")"
cp "$tmp/esc.json" "$tmp/fleet/c.json"
run 2 fleet "$tmp/fleet"
grep -q "$esc" "$tmp/err" && bad "fleet: an escape character reached stderr" || ok
rm "$tmp/fleet/c.json"

# import --collective: nccl-tests' names only
run 2 import --collective bogus "$fx/h200x2/nccl-tests-all_reduce.txt" -o "$tmp/x.json"
[ ! -e "$tmp/x.json" ] && ok || bad "--collective bogus: a document was written"
run 0 import --collective all_gather "$fx/h200x2/nccl-tests-all_reduce.txt" -o "$tmp/x.json"

# a bad LINKSCOPE_MAX_INPUT_MB: one warning, the default used
LINKSCOPE_MAX_INPUT_MB=lots "$bin" report "$doc" >/dev/null 2>"$tmp/err"
grep -q "LINKSCOPE_MAX_INPUT_MB=lots is not a whole number" "$tmp/err" && ok || bad "bad LINKSCOPE_MAX_INPUT_MB: $(cat "$tmp/err")"
[ "$(grep -c MAX_INPUT_MB "$tmp/err")" = 1 ] && ok || bad "bad LINKSCOPE_MAX_INPUT_MB said more than once"

# the CSV set: its six files (docs/reports.md), no temporary file left
six="boards_clocks.csv collectives.csv hbm.csv host_copies.csv latency.csv p2p_paths.csv "
run 0 report "$doc" --format csv -o "$tmp/csv"
[ "$(LC_ALL=C ls -A "$tmp/csv" | tr '\n' ' ')" = "$six" ] && ok || bad "CSV set: $(ls -A "$tmp/csv")"
# ... written as one set: another document's report whose last file cannot be written
# (a folder stands there) changes none of the other five (it replaced all five before)
other=$fx/analyze/hgx-h200x8-even.json
cp -r "$tmp/csv" "$tmp/csv-before"
rm "$tmp/csv/latency.csv" && mkdir "$tmp/csv/latency.csv"
run 2 report "$other" --format csv -o "$tmp/csv"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "latency.csv: is a folder" "$tmp/err" && ok || bad "CSV set error: $(cat "$tmp/err")"
for f in boards_clocks collectives hbm host_copies p2p_paths; do
    cmp -s "$tmp/csv/$f.csv" "$tmp/csv-before/$f.csv" && ok || bad "CSV set: $f.csv replaced though the set failed"
done
[ "$(LC_ALL=C ls -A "$tmp/csv" | tr '\n' ' ')" = "$six" ] && ok || bad "CSV set: left $(ls -A "$tmp/csv")"
rmdir "$tmp/csv/latency.csv"
run 0 report "$other" --format csv -o "$tmp/csv"
for f in boards_clocks p2p_paths; do # the other document's GPUs: these differ
    cmp -s "$tmp/csv/$f.csv" "$tmp/csv-before/$f.csv" && bad "CSV set: $f.csv not replaced" || ok
done

# stdout closed, the report goes to a file: written, exit 0
"$bin" report "$doc" -o "$tmp/closed.md" >&- 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "stdout closed, -o FILE: exit $rc ($(cat "$tmp/err"))"
grep -q "linkscope report" "$tmp/closed.md" && ok || bad "stdout closed: the file was not written"

# nvidia-smi -q with a memory size past 2^63 bytes: no overflow (the sanitizer build
# aborts on one), the size unknown, not negative
sed 's/: 143771 MiB/: 99999999999999999 MiB/' "$fx/h200x2/nvidia-smi-q-gpu0.txt" >"$tmp/smi-q.txt"
run 0 import "$tmp/smi-q.txt" -o "$tmp/smi.json"
grep -q "runtime error" "$tmp/err" && bad "smi -q huge memory: $(cat "$tmp/err")" || ok
grep -q '"memory_total_bytes": -' "$tmp/smi.json" && bad "smi -q huge memory: a negative size" || ok

# reals no integer holds where an integer is printed (a CSV cell, an nccl row's size in
# busbw_collapse): the sanitizer build (float-cast-overflow) aborts on the conversion
python3 - "$doc" "$tmp/cast.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["gpus"]:
    g["numa_node"] = 1e300
e = next(m for m in d["measurements"] if m["family"] == "nccl")
e["rows"][-1]["bytes"], e["rows"][-2]["bytes"] = 1e300, -1e300
for r in e["rows"][len(e["rows"]) // 2:]:
    for k in ("oop", "ip"):
        if k in r:
            r[k]["busbw"] = 0.01
json.dump(d, open(sys.argv[2], "w"))
PY
for f in csv term; do
    "$bin" report "$tmp/cast.json" --format "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    { [ "$rc" -le 1 ] && ! grep -q "runtime error" "$tmp/err"; } && ok || bad "1e300 sizes, $f: exit $rc $(head -2 "$tmp/err")"
done

echo "safety small: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
