#!/usr/bin/env bash
# The lead's second check on the GPU machine: CUDA-graph mode (the -G hang), the run
# end to end again (its document becomes examples/h200x2-run.json), its gpu test, one
# GPU seen alone, the rooted collectives under mpirun, and tp --measure against the run.
# Usage: device-check2.sh OUT_DIR (from a folder like device-check.sh's).
set -u
out=${1:?usage: device-check2.sh OUT_DIR}
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
export LS_FIXTURES=$PWD/fixtures-all
step() { echo; echo "=== $* ($(date +%T))"; }
{
step "graph test"; timeout 60 ./test_nccl_graph 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"
step "graph test, NCCL_GRAPH_MIXING_SUPPORT=0"; NCCL_GRAPH_MIXING_SUPPORT=0 timeout 60 ./test_nccl_graph 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"
step "graph under mpirun"; timeout 60 mpirun -np 2 ./linkscope nccl all_reduce -b 8 -e 16M -f 8 -G 2 2>&1 | tail -12; echo "rc=${PIPESTATUS[0]}"
step "linkscope run"; timeout 200 ./linkscope run -o "$out/h200x2-run.json" > "$out/run.txt" 2>&1; echo "rc=$?"
grep -E 'elapsed|written' "$out/run.txt"; sed -n '/Findings/,/Keep out/p' "$out/run.txt" | head -40
step "gpu run test"; timeout 200 bash test_gpu_run.sh ./linkscope fixtures 2>&1 | tail -5; echo "rc=${PIPESTATUS[0]}"
step "one GPU"; CUDA_VISIBLE_DEVICES=0 timeout 120 ./linkscope run -o "$out/one-gpu.json" --no-report 2>&1 | grep -E 'error|warning|skipped|written|P2P' | head; echo "rc=${PIPESTATUS[0]}"
step "rooted collectives under mpirun"; timeout 90 mpirun -np 2 ./linkscope nccl broadcast reduce sendrecv -b 8 -e 64M -f 8 -r 1 2>&1 | grep -vE '^\s+[0-9]' | tail -20; echo "rc=${PIPESTATUS[0]}"
step "tp --measure"; timeout 120 ./linkscope tp --model llama3.3-70b --tp 2 --prompt 3200,12900,51400 --batch 1,8 --run "$out/h200x2-run.json" --gpus 0,1 --measure --gpus 0,1 2>&1 | sed -n '/Time of one all-reduce/,/within/p'; echo "rc=${PIPESTATUS[0]}"
step done
} 2>&1 | tee "$out/log.txt"
