#!/usr/bin/env bash
# The one output writer (docs/safety.md): -o onto a FIFO, a symlink, a dangling symlink,
# a read-only file, a folder, the input itself; the mode of a rewritten file kept; no
# temporary file left; two concurrent import --into both kept; stdout to /dev/full exit 2.
# args: LINKSCOPE_BINARY FIXTURES_DIR
bin=$1
fx=$2
. "$(dirname "$0")/lib.sh"
doc=$fx/analyze/seed000-gv100x11.json
cp "$doc" "$tmp/run.json"

# the input itself: refused, the input unchanged
cp "$tmp/run.json" "$tmp/keep.json"
run 2 report "$tmp/run.json" -o "$tmp/run.json" && grep -q "one of the inputs" "$tmp/err" && ok ||
    bad "report -o INPUT: $(cat "$tmp/err")"
cmp -s "$tmp/run.json" "$tmp/keep.json" && ok || bad "report -o INPUT changed the input"
ln -s run.json "$tmp/alias.json"
run 2 report "$tmp/alias.json" -o "$tmp/run.json" && ok
run 2 baseline "$tmp/run.json" -o "$tmp/alias.json" && ok
cmp -s "$tmp/run.json" "$tmp/keep.json" && ok || bad "an input reached through a link was overwritten"

# a symlink: its target replaced, the link kept
echo old >"$tmp/target.md"
ln -s target.md "$tmp/link.md"
run 0 report "$tmp/run.json" -o "$tmp/link.md"
[ -L "$tmp/link.md" ] && ok || bad "the symlink was replaced by a file"
grep -q "^# " "$tmp/target.md" && ok || bad "the symlink's target was not written"
# a dangling symlink: refused with one line
ln -s nowhere/x.md "$tmp/dangling.md"
run 2 report "$tmp/run.json" -o "$tmp/dangling.md" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok ||
    bad "dangling link: $(cat "$tmp/err")"

# a FIFO: written through, not replaced
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
run 0 report "$tmp/run.json" -o "$tmp/fifo"
wait "$reader"
[ -p "$tmp/fifo" ] && ok || bad "the FIFO was replaced"
grep -q "GPU" "$tmp/fifo.out" && ok || bad "nothing came through the FIFO"

# a device: written through (never replaced, even as root)
run 0 report "$tmp/run.json" -o /dev/null
[ -c /dev/null ] && ok || bad "/dev/null is no longer a device"

# /dev/stdout into a pipe (a link to pipe:[N], no path): written through
"$bin" report "$tmp/run.json" -o /dev/stdout 2>"$tmp/err" | cat >"$tmp/piped"
grep -q "GPU" "$tmp/piped" && ok || bad "-o /dev/stdout into a pipe: $(cat "$tmp/err")"

# a folder: refused
mkdir "$tmp/dir.md"
run 2 report "$tmp/run.json" -o "$tmp/dir.md" && ok

# the mode of a rewritten file kept (0600 stays 0600), no temporary file left
printf 'x' >"$tmp/private.md"
chmod 600 "$tmp/private.md"
run 0 report "$tmp/run.json" -o "$tmp/private.md"
[ "$(stat -c %a "$tmp/private.md")" = 600 ] && ok || bad "mode became $(stat -c %a "$tmp/private.md")"
ls -a "$tmp" | grep -q '\.tmp\.' && bad "a temporary file was left: $(ls -a "$tmp")" || ok

# a read-only file in a writable folder is replaced as the folder allows (as rm would);
# in a read-only folder it is refused with one line and left as it was
if [ "$(id -u)" != 0 ]; then
    mkdir "$tmp/ro"
    echo old >"$tmp/ro/r.md"
    chmod 555 "$tmp/ro"
    run 2 report "$tmp/run.json" -o "$tmp/ro/r.md" && [ "$(cat "$tmp/ro/r.md")" = old ] && ok ||
        bad "read-only folder: $(cat "$tmp/err")"
    ls -a "$tmp/ro" | grep -q '\.tmp\.' && bad "temporary file left in a read-only folder" || ok
    chmod 755 "$tmp/ro"
fi
echo old >"$tmp/readonly.md"
chmod 444 "$tmp/readonly.md"
run 0 report "$tmp/run.json" -o "$tmp/readonly.md"
[ "$(stat -c %a "$tmp/readonly.md")" = 444 ] && ok || bad "read-only file's mode changed"

# stdout to a full device: one line, exit 2, for every command that prints
"$bin" baseline "$doc" -o "$tmp/base.json" 2>/dev/null
if [ -w /dev/full ]; then
    for args in "report $doc" "plan $doc" "compare $doc $doc" "check $doc --baseline $tmp/base.json" \
        "tp --model llama3-70b --tp 2 --prompt 1024 --run $fx/tp/h200x2-allreduce.json" "topo --from $fx/topo/hgx-h100x8-nic8.txt" "help"; do
        # shellcheck disable=SC2086
        "$bin" $args >/dev/full 2>"$tmp/err"
        rc=$?
        [ "$rc" -eq 2 ] && grep -q "stdout: write failed" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok ||
            bad "$args >/dev/full: exit $rc, stderr: $(cat "$tmp/err")"
    done
    "$bin" report "$doc" -o /dev/full 2>"$tmp/err"
    [ $? -eq 2 ] && ok || bad "report -o /dev/full did not exit 2"
fi

# two import --into at once on one document: both entries kept
nlog=$fx/h200x2/nccl-tests-all_reduce.txt
"$bin" import "$fx/h200x2/nvidia-smi-topo.txt" -o "$tmp/into.json" 2>/dev/null
for trial in 1 2 3 4 5; do
    cp "$tmp/into.json" "$tmp/race.json"
    "$bin" import "$nlog" --into "$tmp/race.json" --variant a 2>/dev/null &
    p1=$!
    "$bin" import "$nlog" --into "$tmp/race.json" --variant b 2>/dev/null &
    p2=$!
    wait $p1; r1=$?
    wait $p2; r2=$?
    na=$(grep -c '"variant": "a"' "$tmp/race.json")
    nb=$(grep -c '"variant": "b"' "$tmp/race.json")
    [ "$r1$r2" = 00 ] && [ "$na" -gt 0 ] && [ "$nb" -gt 0 ] && ok ||
        bad "concurrent --into, trial $trial: exits $r1 $r2, variant a $na entries, b $nb"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
