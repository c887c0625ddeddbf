#!/usr/bin/env bash
# The MPI plumbing of linkscope nccl on CPU: under mpirun -np 2, libmpi is opened at
# run time, the 128-byte unique id is broadcast from rank 0 and every rank's record is
# gathered to rank 0 (no GPU, no NCCL). Skipped (77) where mpirun is absent or broken.
set -u
bin=$1
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's own allocations are not ours to chase under LeakSanitizer.
export ASAN_OPTIONS=detect_leaks=0
if ! timeout 60 mpirun --oversubscribe -np 1 true >/dev/null 2>&1; then
    echo "skipped: mpirun cannot start processes here"
    exit 77
fi
out=$(timeout 120 mpirun --oversubscribe -np 2 "$bin" nccl --mpi-selftest 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
echo "$out" | grep -q "mpi self-test: 2 ranks through .*broadcast and gather ok" || { echo "FAIL: no success line"; exit 1; }
echo "$out" | grep -q "rank 1: node-local rank 1, unique id broadcast ok" || { echo "FAIL: rank 1 missing"; exit 1; }
exit 0
