#!/usr/bin/env bash
# The lead's check on a GPU machine, in one call: `linkscope run` end to end (timed),
# every gpu-labelled test, the collectives under mpirun, linkscope nccl beside
# nccl-tests' figures, and `linkscope tp --measure`. Run from a folder holding the
# linkscope binary, the gpu test binaries and libcmocka, with fixtures/ (the h200x2
# fixtures) and the scripts bench-nccl.sh. Usage: device-check.sh OUT_DIR
set -u
out=${1:?usage: device-check.sh OUT_DIR}
work=$out/work
mkdir -p "$work"
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
export LS_FIXTURES=$PWD/fixtures-all
step() { echo; echo "=== $* ($(date +%T))"; }
{
step machine; nvidia-smi -L; nvidia-smi topo -m; ./linkscope --version
step "linkscope run (default level)"
start=$(date +%s.%N)
timeout 300 ./linkscope run -o "$out/h200x2-run.json"; echo "rc=$?"
end=$(date +%s.%N)
echo "wall time of linkscope run: $(echo "$end - $start" | bc) s"
step "linkscope topo / inventory"
./linkscope topo; ./linkscope inventory
step "gpu tests"
for t in ./test_*; do
  [ -x "$t" ] || continue
  echo "--- $t"; timeout 180 "$t" > "$work/$(basename "$t").log" 2>&1; rc=$?
  tail -3 "$work/$(basename "$t").log"; echo "$t rc=$rc"
done
step "nccl under mpirun -np 2"
timeout 120 mpirun -np 2 ./linkscope nccl all -b 8 -e 256M -f 4 -o "$work/mpi.json" > "$work/mpi.log" 2>&1; echo "rc=$?"
grep -E 'wrong|^#|error' "$work/mpi.log" | head -20; tail -15 "$work/mpi.log"
step "nccl beside nccl-tests"
timeout 200 bash bench-nccl.sh ./linkscope fixtures "$work" > "$out/bench-nccl.txt" 2>&1; echo "rc=$?"
sed -n '/busbw/,$p' "$out/bench-nccl.txt" | tail -60
step "tp --measure"
timeout 120 ./linkscope tp --model llama3.3-70b --tp 2 --prompt 3200,12900,51400 --batch 1,8 \
  --run "$out/h200x2-run.json" --gpus 0,1 --measure --gpus 0,1; echo "rc=$?"
step done
} 2>&1 | tee "$out/log.txt"
tar -C "$out" -czf "$out/work.tar.gz" work && rm -rf "$work"
