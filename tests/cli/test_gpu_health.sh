#!/usr/bin/env bash
# gpu: `linkscope health` on this machine (skipped, 77, without a GPU), issue 23: healthy
# (exit 0) within its budget, state checks and the short probe; the probe's figures in
# the JSON verified, above zero and below their ceilings; on one GPU the pair steps
# (p2p ce, all_reduce) are said to need two GPUs, not failed; --no-probe measures
# nothing. Args: linkscope binary, fixtures dir.
ls_bin=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "skipped: no GPU"; exit 77; }
command -v python3 >/dev/null || { echo "skipped: needs python3 to read the JSON"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NCCL_NVLS_ENABLE=0
budget=10 # health's default --budget, issue 23's 10 s on one GPU
t0=$(date +%s.%N)
"$ls_bin" health --format json >"$tmp/out.json" 2>"$tmp/err"
rc=$?
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "health --format json: exit $rc in $secs s"
[ "$rc" -eq 0 ] || { echo "FAIL: health exit $rc"; cat "$tmp/out.json" "$tmp/err"; exit 1; }
# the hard cap, with half a second for the process to start and end
awk -v s="$secs" -v b="$budget" 'BEGIN { exit !(s < b + 0.5) }' || { echo "FAIL: $secs s over the $budget s budget"; exit 1; }
python3 - "$tmp/out.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
p = d["probe"]
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)
check(d["verdict"] == "ok", "verdict ok: %s" % d["findings"])
check(p["status"] == "ran", "probe ran: %s" % p.get("why"))
n = p.get("gpus", 0)
steps = {s["step"]: s for s in p.get("steps", [])}
kinds = {}
for f in p.get("figures", []):
    kinds.setdefault(f["kind"], []).append(f)
    check(f["status"] == "ok", "%s ok: %s" % (f["kind"], f))
    if f["kind"] == "all_reduce":
        check(f.get("wrong") == 0, "all_reduce #wrong 0: %s" % f)
        check(f.get("busbw", 0) > 0, "all_reduce busbw > 0: %s" % f)
        continue
    check(f.get("verified") is True, "%s verified: %s" % (f["kind"], f))
    check(f.get("gbps", 0) > 0, "%s > 0: %s" % (f["kind"], f))
    check(f.get("ceiling_gbps", 0) > f.get("gbps", 0), "%s below its ceiling: %s" % (f["kind"], f))
hbm = steps.get("probe: hbm copy, one size", {})
check(hbm.get("status") == "ok" and len(kinds.get("hbm_copy", [])) == n, "hbm copy on every GPU: %s" % hbm)
for name, kind, want in (("probe: p2p ce each way, one size", "p2p_ce", n * (n - 1)),
                         ("probe: all_reduce, one size", "all_reduce", 1)):
    s = steps.get(name)
    if n < 2:
        check(s is None and kind not in kinds, "%s not taken on one GPU" % name)
    elif s and s["status"] == "skipped":
        print("note: %s skipped: %s" % (name, s.get("note")))
    else:
        check(s and s["status"] == "ok" and len(kinds.get(kind, [])) == want, "%s: %s" % (name, s))
for f in p.get("figures", []):
    print("  %s %s" % (f["kind"], {k: f[k] for k in f if k in ("src", "dst", "gpu", "gbps", "busbw", "ceiling_gbps", "wrong")}))
print("probe: %d GPUs, %.2f s (finding the GPUs and starting CUDA %.2f s); steps %s" % (n, p.get("seconds", 0), p.get("setup_s", 0),
      ", ".join("%s %s %.2f s (projected %.2f)" % (k, s["status"], s["seconds"], s.get("projected_s", 0)) for k, s in steps.items())))
if fails:
    print("FAIL:\n  " + "\n  ".join(fails))
    sys.exit(1)
PY
# the text says what was probed; on one GPU that the pair steps need two
"$ls_bin" health >"$tmp/out.txt" 2>&1 || { echo "FAIL: health (text) exit $?"; cat "$tmp/out.txt"; exit 1; }
cat "$tmp/out.txt"
grep -q "^  probe in [0-9.]* s; .*hbm copy on" "$tmp/out.txt" || { echo "FAIL: no probe line"; exit 1; }
ngpus=$(nvidia-smi -L | grep -c '^GPU ')
if [ "$ngpus" -eq 1 ]; then
    grep -q "^  not probed; p2p ce and all_reduce need two GPUs" "$tmp/out.txt" || { echo "FAIL: one GPU not said"; exit 1; }
fi
# the probe's steps are the ones health --dry-run prices, under the same names
"$ls_bin" health --dry-run >"$tmp/dry.txt" || { echo "FAIL: health --dry-run exit $?"; exit 1; }
python3 - "$tmp/out.json" "$tmp/dry.txt" <<'PY' || exit 1
import json, sys
steps = [s["step"] for s in json.load(open(sys.argv[1]))["probe"]["steps"]]
dry = [l[:40].rstrip() for l in open(sys.argv[2]) if l.startswith("probe: ")]
if steps != dry:
    print("FAIL: probe steps %s, dry run's %s" % (steps, dry))
    sys.exit(1)
PY
# --no-probe: the state checks only
"$ls_bin" health --no-probe --format json >"$tmp/off.json" || { echo "FAIL: --no-probe exit $?"; exit 1; }
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["probe"]; assert p["status"]=="off" and "figures" not in p, p' "$tmp/off.json" ||
    { echo "FAIL: --no-probe probed"; exit 1; }
echo "PASS: health on $ngpus GPU(s) in $secs s, healthy, probe figures verified and below their ceilings"
