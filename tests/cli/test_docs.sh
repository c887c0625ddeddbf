#!/usr/bin/env bash
# Docs that cannot drift: every fenced block in docs/*.md and README.md that starts with
# "$ linkscope ..." is run and its output compared with the lines under it. The block runs
# in a fresh folder where examples/ and tests/ are the repository's (so the commands name
# the bundled document and the fixtures); several "$ " lines run in turn, their outputs
# concatenated. A line "..." in the block stands for any number of output lines. Blocks
# of measuring commands (run, p2p, latency, hbm, host, nccl, inventory without
# --sysfs-root, tp --measure) were measured on hardware: they are counted, not run
# (their --help is run).
bin=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
python3 - "$bin" "$src" <<'PY'
import glob, os, re, shlex, subprocess, sys, tempfile
bin, src = sys.argv[1], sys.argv[2]
measuring = {"run", "p2p", "latency", "hbm", "host", "nccl"}

def blocks(path):
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            body = lines[i + 1:j]
            if body and body[0].startswith("$ linkscope "):
                yield i + 1, body
            i = j
        i += 1

def offline(cmd):
    words = shlex.split(cmd)[1:]
    if "--help" in words:
        return True
    if not words or words[0] in measuring or "--measure" in words:
        return False
    return not (words[0] == "inventory" and "--sysfs-root" not in words)

def matches(want, got):
    """want's lines in order in got; '...' skips any lines."""
    gi = 0
    for k, w in enumerate(want):
        if w == "...":
            nxt = next((x for x in want[k + 1:] if x != "..."), None)
            if nxt is None:
                return True, ""
            while gi < len(got) and got[gi] != nxt:
                gi += 1
            continue
        if gi >= len(got) or got[gi] != w:
            return False, "expected %r, got %r" % (w, got[gi] if gi < len(got) else "<end>")
        gi += 1
    return gi == len(got), "" if gi == len(got) else "unexpected %r" % got[gi]

ran = skipped = failed = 0
files = sorted(glob.glob(os.path.join(src, "docs", "*.md"))) + [os.path.join(src, "README.md")]
for path in files:
    for line, body in blocks(path):
        cmds = [l[2:] for l in body if l.startswith("$ ")]
        want = [l.rstrip() for l in body if not l.startswith("$ ")]
        where = "%s:%d" % (os.path.relpath(path, src), line)
        if not all(offline(c) for c in cmds):
            skipped += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for d in ("examples", "tests"):
                os.symlink(os.path.join(src, d), os.path.join(tmp, d))
            out = []
            for c in cmds:
                words = shlex.split(c)
                p = subprocess.run([bin] + words[1:], cwd=tmp, capture_output=True, text=True)
                out += p.stdout.rstrip("\n").split("\n") if p.stdout else []
        got = [l.rstrip() for l in out]
        ok, why = matches(want, got)
        ran += 1
        if not ok:
            failed += 1
            print("FAIL: %s: %s: %s" % (where, cmds[-1], why))
print("test_docs: %d blocks run, %d failed, %d measured on hardware (not run)" % (ran, failed, skipped))
sys.exit(1 if failed or not ran else 0)
PY
