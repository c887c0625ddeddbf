#!/usr/bin/env bash
# linkscope run --dry-run --from FILE: the plan of a machine without a GPU, on the fixture
# topologies and a run document (docs/run.md, docs/schedule.md). Args: linkscope binary,
# fixtures dir.
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"

last_line() { tail -n 1 "$tmp/out"; }

# FIXTURE ROUNDS [RC]: exit RC (0; 4 where even cut down the run does not fit the default
# budget), every step printed, the rounds listed, the last line's form.
plans() {
    local file=$1 rounds=$2 rc=${3:-0}
    run "$rc" run --dry-run --from "$file" || return
    last_line | grep -Eq "^projected: [0-9]+ s, rounds $rounds, cut: " && ok ||
        bad "$file: last line '$(last_line)', expected rounds $rounds"
    [ "$(grep -c '^  round ' "$tmp/out")" -eq "$rounds" ] && ok ||
        bad "$file: $(grep -c '^  round ' "$tmp/out") rounds listed, expected $rounds"
    for step in "inventory and topology" "p2p ce, one way and both ways" "hbm" "host copies" \
        "latency, every definition" "spec" "total"; do
        grep -q "^$step" "$tmp/out" && ok || bad "$file: step '$step' missing"
    done
}

plans "$fx/topo/hgx-h100x8-nic8.txt" 7
plans "$fx/topo/dgx1-v100x8.txt" 12 4
plans "$fx/topo/seed000-gv100x11.txt" 35 4
plans "$fx/topo/pcie-4gpu-2switch.txt" 5

# The 8-GPU HGX board under the default quick budget (120 s): it fits, the total at most
# the budget.
run 0 run --dry-run --from "$fx/topo/hgx-h100x8-nic8.txt"
total=$(awk '$1 == "total" { print $2 }' "$tmp/out")
awk -v t="$total" 'BEGIN { exit !(t > 0 && t <= 120) }' && ok || bad "HGX quick: total '$total' over 120 s"
# A tighter budget cuts the last steps down, never drops one.
run 0 run --dry-run --budget 90 --from "$fx/topo/hgx-h100x8-nic8.txt"
last_line | grep -q "cut: .*latency, every definition" && ok || bad "HGX 90 s: '$(last_line)'"
[ "$(grep -c 'cut down' "$tmp/out")" -ge 1 ] && ok || bad "HGX 90 s: no step shown cut down"
grep -q "^p2p ce, one way and both ways .*full$" "$tmp/out" && ok || bad "HGX 90 s: P2P CE cut"
# Each collective is its own step, cut on its own; the plan's groups and spec are steps.
for step in "nccl all_reduce on 8 GPUs" "nccl all_gather on 8 GPUs" "nccl reduce_scatter on 8 GPUs" \
    "nccl alltoall on 8 GPUs" "nccl all_reduce on the plan's groups" "spec"; do
    grep -q "^$step " "$tmp/out" && ok || bad "HGX: step '$step' missing"
done
# Thorough projects more than quick, burn included (the burn is the first step cut).
run 0 run --dry-run --level thorough --from "$fx/topo/hgx-h100x8-nic8.txt"
grep -q "thorough level, budget 600 s" "$tmp/out" && ok || bad "thorough header: $(head -1 "$tmp/out")"
grep -Eq "^burn +8 +1 +60\.8 " "$tmp/out" && ok || bad "thorough: no 60.8 s burn step"
grep -q "^fabric stress" "$tmp/out" && ok || bad "thorough: no fabric stress step"

# The budget is a hard cap (issue 26): the 11-GPU GV100 seed at 60 s cannot fit even cut
# down: the plan is printed, one line on stderr says what cannot fit, exit 4.
run 4 run --dry-run --budget 60 --from "$fx/topo/seed000-gv100x11.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "11 GPUs at 60 s: $(cat "$tmp/err")"
grep -q "the 60 s budget cannot hold the run of 11 GPUs: cut down as far as it goes it projects [0-9]* s (largest: [a-z]" "$tmp/err" &&
    ok || bad "11 GPUs at 60 s: '$(cat "$tmp/err")'"
last_line | grep -q "over the budget even cut down: the run would not start" && ok || bad "11 GPUs at 60 s: '$(last_line)'"
# the same machine from its run document (tests/fixtures/analyze/seed000-gv100x11.json)
run 4 run --dry-run --budget 60 --from "$fx/analyze/seed000-gv100x11.json"
grep -q "the 60 s budget cannot hold the run of 11 GPUs" "$tmp/err" && ok || bad "seed000 document at 60 s: $(cat "$tmp/err")"
# ... and at the budget the line names, it fits and the total is at most that budget.
need=$(grep -o 'give --budget [0-9]*' "$tmp/err" | awk '{ print $3 }')
run 0 run --dry-run --budget "$need" --from "$fx/topo/seed000-gv100x11.txt"
total=$(awk '$1 == "total" { print $2 }' "$tmp/out")
awk -v t="$total" -v b="$need" 'BEGIN { exit !(t <= b) }' && ok || bad "11 GPUs at $need s: total $total"

# --gpus plans the GPUs the run would take: two GPUs of the HGX board, one pair, one round.
run 0 run --dry-run --gpus 0,1 --from "$fx/topo/hgx-h100x8-nic8.txt"
head -1 "$tmp/out" | grep -q "^dry run: 2 GPUs" && ok || bad "--gpus 0,1: $(head -1 "$tmp/out")"
last_line | grep -q "rounds 1," && ok || bad "--gpus 0,1: '$(last_line)'"
run 0 run --dry-run --gpus 0-3 --from "$fx/topo/seed000-gv100x11.txt"
head -1 "$tmp/out" | grep -q "^dry run: 4 GPUs" && ok || bad "--gpus 0-3: $(head -1 "$tmp/out")"
# --no-nccl: no collective projected
run 0 run --dry-run --no-nccl --from "$fx/topo/hgx-h100x8-nic8.txt"
grep -q "^nccl" "$tmp/out" && bad "--no-nccl: a collective projected" || ok

# A run document: the bundled 2 x H200 run, one pair, one round.
plans "$fx/../../examples/h200x2-run.json" 1

# Refusals: one line, exit 2.
run 2 run --from "$fx/topo/hgx-h100x8-nic8.txt"
grep -q "needs --dry-run" "$tmp/err" && ok || bad "--from without --dry-run: $(cat "$tmp/err")"
run 2 run --dry-run --from "$tmp/none.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "missing file: $(cat "$tmp/err")"
run 2 run --dry-run --from "$fx/topo/malformed-unknown-word.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "malformed file: $(cat "$tmp/err")"
run 2 run --dry-run --gpus 0,9 --from "$fx/topo/hgx-h100x8-nic8.txt"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "GPU 9 is not on" "$tmp/err" && ok || bad "--gpus 0,9: $(cat "$tmp/err")"
# a cut matrix reads as import reads it (issue 22): one warning line naming the cut
run 0 run --dry-run --from "$fx/topo/malformed-columns.txt"
grep -q "incomplete paste: row NIC3 cut" "$tmp/err" && ok || bad "cut matrix: $(cat "$tmp/err")"

# This machine without a GPU: one line, exit 3.
if ! nvidia-smi -L >/dev/null 2>&1; then
    run 3 run --dry-run
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "dry run without a GPU: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
