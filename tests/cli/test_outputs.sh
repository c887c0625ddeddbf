#!/usr/bin/env bash
# Every command that writes a file checks its output path before any work (issue 10):
# an output in a folder that does not exist is one line naming the option and the path,
# exit 2, and nothing else happens (no measuring, no discovery, no GPU asked for: the
# measuring commands would exit 3 on a machine without one if they got that far).
# Args: linkscope binary, fixtures dir.
set -u
bin=$1
fx=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
run_doc="$fx/../../examples/h200x2-run.json"
bad_path=/nonexistent-linkscope/x.json

# refused OPTION ARGS...: exit 2, one line on stderr naming OPTION and the bad folder.
refused() {
    local opt=$1
    shift
    if run 2 "$@"; then
        [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "linkscope $*: $(wc -l <"$tmp/err") lines on stderr"
        grep -q -- "$opt /nonexistent-linkscope.*cannot write into the folder /nonexistent-linkscope" "$tmp/err" &&
            ok || bad "linkscope $*: stderr '$(cat "$tmp/err")'"
    fi
}

for cmd in p2p latency hbm host; do
    refused -o $cmd -o $bad_path
    refused --into $cmd --into $bad_path
done
refused --csv host --csv /nonexistent-linkscope/dir
refused -o run -o $bad_path
refused -o nccl all_reduce -o $bad_path
refused --into nccl all_reduce --into $bad_path
refused -o inventory -o $bad_path
refused -o topo --from "$fx/topo/hgx-h100x8-nic8.txt" -o $bad_path
refused -o report "$run_doc" -o /nonexistent-linkscope/r.md
refused -o report "$run_doc" --format csv -o /nonexistent-linkscope/dir
refused -o baseline "$run_doc" -o $bad_path
refused -o import "$fx/h200x2/nccl-tests-all_reduce.txt" -o $bad_path
refused -o tp --model llama3-8b --tp 2 --prompt 1000 --link bw=100,lat=5 -o $bad_path
refused --into tp --model llama3-8b --tp 2 --prompt 1000 --link bw=100,lat=5 --into $bad_path

# An output that is a folder where a file is wanted: refused the same way.
if run 2 report "$run_doc" -o "$tmp"; then
    grep -q -- "-o $tmp: expected a file, not a folder" "$tmp/err" && ok || bad "report -o DIR: $(cat "$tmp/err")"
fi
# Nothing was written by the refused report (its file would be there otherwise).
[ ! -e /nonexistent-linkscope ] && ok || bad "a refused output created /nonexistent-linkscope"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
