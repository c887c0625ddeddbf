#!/usr/bin/env bash
# A real one-node Slurm cluster on localhost (munged, slurmctld, slurmd as root,
# proctrack/linuxproc, task/none) whose HealthCheckProgram runs
# `linkscope health --from FIXTURE --slurm --drain` on recorded node state
# (tests/fixtures/health). Asserts: a healthy state leaves the node idle and `srun` runs
# linkscope; a bad state drains the node with linkscope's reason within two health-check
# intervals; the healthy state again resumes it; a drain that is not linkscope's stays.
# The daemons are stopped by their pid files at the end.
# Installs slurmctld, slurmd and munge (Debian packages) when missing and run as root.
# Exit 77 (skipped) when Slurm cannot be had, unless LS_SLURM_REQUIRED=1 (.ci/run).
# args: linkscope binary, fixtures dir
set -u
bin=$(readlink -f "$1")
fx=$(readlink -f "$2")/health
interval=5 # HealthCheckInterval, seconds

skip() {
    echo "skipped: $*"
    [ "${LS_SLURM_REQUIRED:-0}" = 1 ] && exit 1
    exit 77
}
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "no Slurm, and not root with apt-get to install it"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd munge slurm-client >/dev/null ||
        { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurmctld slurmd munge slurm-client >/dev/null; } ||
        skip "apt-get could not install slurmctld slurmd munge"
fi
[ "$(id -u)" = 0 ] || skip "the one-node cluster runs its daemons as root"

dir=$(mktemp -d /tmp/ls-slurm.XXXXXX)
chmod 755 "$dir"
node=$(hostname -s)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

stop_daemons() {
    for f in slurmd slurmctld munged; do
        [ -s "$dir/$f.pid" ] && kill "$(cat "$dir/$f.pid")" 2>/dev/null
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -s "$dir/$f.pid" ] && kill -0 "$(cat "$dir/$f.pid")" 2>/dev/null && kill -9 "$(cat "$dir/$f.pid")" 2>/dev/null
    done
}
show_logs() {
    for f in "$dir"/*.log "$dir/health.out"; do
        echo "--- $f"
        tail -n 20 "$f"
    done
}
trap 'stop_daemons; rm -rf "$dir"' EXIT

mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 711 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
echo "$fx/healthy-h200" >"$dir/fixture"
cat >"$dir/health-check.sh" <<SH
#!/bin/sh
# HealthCheckProgram: linkscope health on the recorded state named in $dir/fixture
# (scontrol, which --drain runs, finds this cluster through SLURM_CONF)
export SLURM_CONF=$dir/slurm.conf
exec "$bin" health --from "\$(cat "$dir/fixture")" --slurm --drain --node "$node" >>"$dir/health.out" 2>&1
SH
chmod 755 "$dir/health-check.sh"
: >"$dir/plugstack.conf"
cat >"$dir/slurm.conf" <<CONF
ClusterName=linkscope-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
HealthCheckProgram=$dir/health-check.sh
HealthCheckInterval=$interval
HealthCheckNodeState=ANY
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" ||
    { show_logs; echo "FAIL: munged did not start"; exit 1; }
slurmctld -f "$dir/slurm.conf" -i || { show_logs; echo "FAIL: slurmctld did not start"; exit 1; }
slurmd -f "$dir/slurm.conf" -N "$node" || { show_logs; echo "FAIL: slurmd did not start"; exit 1; }

node_line() { scontrol show node "$node" -o 2>/dev/null; }
state() { node_line | sed -n 's/.*State=\([^ ]*\).*/\1/p'; }
reason() { node_line | sed -n 's/.* Reason=\(.*\) \[[^]]*\].*/\1/p'; }

# wait_for SECONDS COMMAND...: 0 as soon as the command succeeds
wait_for() {
    local until=$((SECONDS + $1))
    shift
    while [ "$SECONDS" -lt "$until" ]; do
        "$@" && return 0
        sleep 1
    done
    return 1
}
is_idle() { [[ "$(state)" =~ ^IDLE$ ]]; }
is_drained() { [[ "$(state)" == *DRAIN* ]]; }
not_drained() { [[ "$(state)" != *DRAIN* && -n "$(state)" ]]; }
# two intervals, and the few seconds slurmd takes to start one
limit=$((2 * interval + 3))

# 1. healthy: the node comes up idle and stays so; srun runs linkscope
wait_for 30 is_idle && ok || { bad "node not idle with the healthy state: $(node_line)"; show_logs; }
sleep "$limit"
is_idle && ok || bad "healthy state did not leave the node idle: $(node_line)"
out=$(timeout 60 srun -N 1 -n 1 "$bin" health --from "$fx/healthy-h200" --slurm 2>&1)
[ "$out" = "linkscope: healthy" ] && ok || bad "srun linkscope health: '$out'"
out=$(timeout 60 srun -N 1 "$bin" version 2>&1)
[[ "$out" == linkscope* ]] && ok || bad "srun linkscope version: '$out'"

# 2. a bad state: drained with linkscope's reason within two intervals
echo "$fx/nvlink-down" >"$dir/fixture"
t0=$SECONDS
wait_for "$limit" is_drained && ok || bad "not drained within $limit s: $(node_line)"
echo "drained after $((SECONDS - t0)) s (HealthCheckInterval=$interval)"
[ "$(reason)" = "linkscope: GPU3 NVLink 2 of 18 down (isolate)" ] && ok || bad "reason: '$(reason)'"

# 3. healthy again: linkscope resumes its own drain
echo "$fx/healthy-h200" >"$dir/fixture"
wait_for "$limit" not_drained && ok || bad "not resumed within $limit s: $(node_line)"

# 4. a drain that is not linkscope's stays
scontrol update nodename="$node" state=drain reason="admin: disk swap"
sleep "$limit"
is_drained && [ "$(reason)" = "admin: disk swap" ] && ok || bad "linkscope resumed an admin's drain: $(node_line)"
scontrol update nodename="$node" state=resume

[ "$fail" -eq 0 ] || show_logs
echo "slurm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
