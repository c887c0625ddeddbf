#!/usr/bin/env bash
# linkscope run --dry-run --from FILE: the plan of a machine without a GPU, on the fixture
# topologies and a run document (docs/run.md, docs/schedule.md). Args: linkscope binary,
# fixtures dir.
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"

last_line() { tail -n 1 "$tmp/out"; }

# FIXTURE ROUNDS: exit 0, every step printed, the rounds listed, the last line's form.
plans() {
    local file=$1 rounds=$2
    run 0 run --dry-run --from "$file" || return
    last_line | grep -Eq "^projected: [0-9]+ s, rounds $rounds, cut: " && ok ||
        bad "$file: last line '$(last_line)', expected rounds $rounds"
    [ "$(grep -c '^  round ' "$tmp/out")" -eq "$rounds" ] && ok ||
        bad "$file: $(grep -c '^  round ' "$tmp/out") rounds listed, expected $rounds"
    for step in "inventory and topology" "p2p ce, one way and both ways" "hbm" "host copies" \
        "latency, every definition"; do
        grep -q "^$step" "$tmp/out" && ok || bad "$file: step '$step' missing"
    done
}

plans "$fx/topo/hgx-h100x8-nic8.txt" 7
plans "$fx/topo/dgx1-v100x8.txt" 12
plans "$fx/topo/seed000-gv100x11.txt" 35
plans "$fx/topo/pcie-4gpu-2switch.txt" 5

# The 8-GPU HGX board under the default quick budget (120 s): nothing cut.
run 0 run --dry-run --from "$fx/topo/hgx-h100x8-nic8.txt"
last_line | grep -q "cut: none$" && ok || bad "HGX quick: '$(last_line)', expected nothing cut"
# A tighter budget cuts the last steps down, never drops one.
run 0 run --dry-run --budget 100 --from "$fx/topo/hgx-h100x8-nic8.txt"
last_line | grep -q "cut: .*latency, every definition" && ok || bad "HGX 100 s: '$(last_line)'"
[ "$(grep -c 'cut down' "$tmp/out")" -ge 1 ] && ok || bad "HGX 100 s: no step shown cut down"
grep -q "^p2p ce, one way and both ways .*full$" "$tmp/out" && ok || bad "HGX 100 s: P2P CE cut"
# Thorough projects more than quick.
run 0 run --dry-run --level thorough --from "$fx/topo/hgx-h100x8-nic8.txt"
grep -q "thorough level, budget 600 s" "$tmp/out" && ok || bad "thorough header: $(head -1 "$tmp/out")"

# A run document: the bundled 2 x H200 run, one pair, one round.
plans "$fx/../../examples/h200x2-run.json" 1

# Refusals: one line, exit 2.
run 2 run --from "$fx/topo/hgx-h100x8-nic8.txt"
grep -q "needs --dry-run" "$tmp/err" && ok || bad "--from without --dry-run: $(cat "$tmp/err")"
run 2 run --dry-run --from "$tmp/none.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "missing file: $(cat "$tmp/err")"
run 2 run --dry-run --from "$fx/topo/malformed-unknown-word.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "malformed file: $(cat "$tmp/err")"
# a cut matrix reads as import reads it (issue 22): one warning line naming the cut
run 0 run --dry-run --from "$fx/topo/malformed-columns.txt"
grep -q "incomplete paste: row NIC3 cut" "$tmp/err" && ok || bad "cut matrix: $(cat "$tmp/err")"
run 2 run --dry-run --gpus 0,1 --from "$fx/topo/hgx-h100x8-nic8.txt"

# This machine without a GPU: one line, exit 3.
if ! nvidia-smi -L >/dev/null 2>&1; then
    run 3 run --dry-run
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "dry run without a GPU: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
