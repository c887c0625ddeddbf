#!/usr/bin/env bash
# gpu: `linkscope run` end to end on this machine (skipped, 77, without a GPU): the
# document is valid and re-readable, every copy verified, every collective row right,
# figures above zero and below their theoretical peak, findings and plan present, the
# HTML report beside it. Args: linkscope binary, fixtures dir.
ls_bin=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: needs python3 to read the document"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NCCL_NVLS_ENABLE=0
"$ls_bin" run -o "$tmp/run.json" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL: run exit $?"; cat "$tmp/err"; exit 1; }
[ -s "$tmp/run.html" ] || { echo "FAIL: no HTML report"; exit 1; }
head -1 "$tmp/out" | grep -q '^Verdict: ' || { echo "FAIL: run's output does not open with the verdict"; exit 1; }
grep -q $'\033' "$tmp/out" "$tmp/err" && { echo "FAIL: colour or progress escapes in a pipe"; exit 1; }
# issue 23: where stderr is no terminal, one timestamped line per step and round
grep -qE '^linkscope: 20[0-9-]+T[0-9:]+Z \+[0-9.]+ s measuring ' "$tmp/err" ||
    { echo "FAIL: no timestamped progress line in a pipe: $(head -c 300 "$tmp/err")"; exit 1; }
# --quiet: the verdict line and what failed on stdout, no progress on stderr
"$ls_bin" run --quiet --no-nccl --budget 20 -o "$tmp/quiet.json" >"$tmp/qout" 2>"$tmp/qerr"
[ $? -le 1 ] && head -1 "$tmp/qout" | grep -q '^Verdict: ' &&
    ! tail -n +2 "$tmp/qout" | grep -vqE '^(error|warning|info) [a-z_0-9]+' &&
    ! grep -q ' s measuring ' "$tmp/qerr" || { echo "FAIL: run --quiet: $(head -c 300 "$tmp/qout")"; exit 1; }
"$ls_bin" report "$tmp/run.json" >/dev/null || { echo "FAIL: the document does not read back"; exit 1; }
python3 - "$tmp/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fails, checks = [], 0
def check(cond, what):
    global checks
    checks += 1
    if not cond:
        fails.append(what)
ngpus = len(d["gpus"])
fams = {m["family"] for m in d["measurements"]}
check({"hbm", "host"} <= fams, "hbm and host measured")
if ngpus >= 2:
    check({"p2p", "latency", "nccl"} <= fams, "p2p, latency and nccl measured")
for m in d["measurements"]:
    if m["status"] != "ok":
        fails.append("%s: %s %s" % (m["id"], m["status"], m.get("error", "")))
        continue
    if m["family"] in ("p2p", "hbm", "host"):
        check(m.get("verified") is True, m["id"] + " verified")
        check(m["value"] > 0, m["id"] + " above zero")
        if m.get("theoretical"):
            limit = m["theoretical"] * (2 if m.get("direction") == "bidir" else 1)
            check(m["value"] < limit, m["id"] + " below its theoretical peak")
    if m["family"] == "nccl":
        for r in m["rows"]:
            for side in ("oop", "ip"):
                if side in r and r[side].get("wrong") is not None:
                    check(r[side]["wrong"] == 0, "%s %d %s wrong == 0" % (m["id"], r["bytes"], side))
        check(m["value"] > 0, m["id"] + " busbw above zero")
check("findings" in d and "plan" in d, "findings and plan stored")
# issue 14: steps in the projection's order, none dropped; P2P in rounds with its stop rule
steps = [s["step"] for s in d["run"]["steps"]]
if ngpus >= 2:
    check(steps[0] == "p2p ce, one way and both ways", "P2P copy engine is the first step: %s" % steps[:2])
    check(all(s["status"] != "skipped" or s["step"] == "nccl" for s in d["run"]["steps"]), "no step dropped")
    for m in d["measurements"]:
        if m["family"] == "p2p" and m["status"] == "ok":
            check("round" in m and m["round"]["pairs"] >= 1, m["id"] + " records its round")
            check(m.get("stop", {}).get("rule") == "median_ci", m["id"] + " records its stop rule")
            check(m["stop"]["samples"] == len(m["samples"]), m["id"] + " stop.samples = samples taken")
for f in fails:
    print("FAIL:", f)
print("%d passed, %d failed" % (checks - len(fails), len(fails)))
sys.exit(1 if fails else 0)
PY
