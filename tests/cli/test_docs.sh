#!/usr/bin/env bash
# Docs that cannot drift: every fenced block in docs/*.md and README.md that starts with
# "$ linkscope ..." is run and its output compared with the lines under it. The block runs
# in a fresh folder where examples/ and tests/ are the repository's (so the commands name
# the bundled document and the fixtures); several "$ " lines run in turn, their outputs
# concatenated. A line "..." in the block stands for any number of output lines; a wall
# time ("checked in 0.0 s") is compared as any. Blocks
# of measuring commands (run, p2p, latency, hbm, host, nccl, inventory without
# --sysfs-root, tp --measure) were measured on hardware: they are counted, not run
# (their --help is run).
# Also, over the same pages (docs/acceptance.md included): every `--option` written after
# `linkscope COMMAND` is in that command's --help; every repository path named
# (src/, tests/, scripts/, examples/, data/, packaging/, cmake/, docs/) exists; every
# ls_*/LS_* name is in src/ (or tests/, scripts/); every rule id of docs/analysis.md's
# tables is written by src/; a constant quoted as "`LS_NAME` VALUE" has that value in its
# #define. A section "How to add ..." names files and symbols that a
# worked example would create: its paths and names are not checked.
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

def timeless(lines):
    """A wall time ("checked in 0.0 s") varies with the machine's load: compared as N."""
    return [re.sub(r"\bchecked in [0-9]+\.[0-9]+ s\b", "checked in N s", l) for l in lines]

def matches(want, got):
    """want's lines in order in got; '...' skips any lines."""
    want, got = timeless(want), timeless(got)
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

# --- names in the docs that must exist ---------------------------------------------
commands = ("run inventory topo p2p latency hbm host burn nccl report plan compare check "
            "baseline import fleet tp help version").split()
helps = {}
def help_of(c):
    if c not in helps:
        p = subprocess.run([bin, c, "--help"], capture_output=True, text=True)
        helps[c] = p.stdout + p.stderr
    return helps[c]

def code_text():
    out = []
    for d in ("src", "tests", "scripts", "cmake"):
        for root, _, names in os.walk(os.path.join(src, d)):
            for n in names:
                try:
                    out.append(open(os.path.join(root, n), errors="replace").read())
                except OSError:
                    pass
    out.append(open(os.path.join(src, "CMakeLists.txt")).read())
    return "\n".join(out)

code = code_text()
src_only = "\n".join(open(os.path.join(r, n), errors="replace").read()
                     for r, _, ns in os.walk(os.path.join(src, "src")) for n in ns)
opt_re = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
cmd_re = re.compile(r"linkscope (%s)\b([^`\n]*)" % "|".join(commands))
path_re = re.compile(r"(?<![\w./-])((?:src|tests|scripts|examples|data|packaging|cmake|docs)/[A-Za-z0-9_./*-]*[A-Za-z0-9_/*])")
name_re = re.compile(r"\b((?:ls|LS)_[A-Za-z0-9_]*[A-Za-z0-9])\b(?!_)")
bad_names = 0
def wrong(where, what):
    global bad_names
    bad_names += 1
    print("FAIL: %s: %s" % (where, what))

for path in files:
    rel = os.path.relpath(path, src)
    worked_example = False
    for n, line in enumerate(open(path).read().split("\n"), 1):
        if line.startswith("#"):
            worked_example = line.lstrip("# ").startswith("How to add")
        where = "%s:%d" % (rel, n)
        for m in cmd_re.finditer(line):
            for o in opt_re.findall(m.group(2)):
                if o != "--help" and not re.search(re.escape(o) + r"(?![a-z0-9-])", help_of(m.group(1))):
                    wrong(where, "linkscope %s %s: not in its --help" % (m.group(1), o))
        if worked_example:
            continue
        for p in path_re.findall(line):
            if p.endswith("/NAME") or "NAME/" in p:
                continue
            if "*" in p:
                if not glob.glob(os.path.join(src, p)):
                    wrong(where, "%s matches no file" % p)
                continue
            if not os.path.exists(os.path.join(src, p)):
                wrong(where, "%s does not exist" % p)
        for name in name_re.findall(line):
            if re.fullmatch(r"ls_[A-Z]+", name):  # a placeholder: ls_PART
                continue
            if not re.search(r"\b%s\b" % re.escape(name), code):
                wrong(where, "%s is not in src/, tests/ or scripts/" % name)

defines = dict(re.findall(r"#define (LS_[A-Z0-9_]+) \(?(-?[0-9.]+)", src_only))
for path in files:
    for n, line in enumerate(open(path), 1):
        for name, value in re.findall(r"`(LS_[A-Z0-9_]+)` (\d+(?:\.\d+)?)\b", line):
            if name in defines and float(defines[name]) != float(value):
                wrong("%s:%d" % (os.path.relpath(path, src), n),
                      "%s is %s in the docs, %s in src/" % (name, value, defines[name]))

for line in open(os.path.join(src, "docs", "analysis.md")):
    m = re.match(r"\| `([a-z_]+)`(?:, `([a-z_]+)`)*(?:, `([a-z_]+)`)? \|", line)
    if m:
        for rule in re.findall(r"`([a-z_]+)`", line.split("|")[1]):
            if '"%s"' % rule not in src_only:
                wrong("docs/analysis.md", "rule %s is not written by src/" % rule)

print("test_docs: %d blocks run, %d failed, %d measured on hardware (not run); %d names, paths "
      "or constants untrue" % (ran, failed, skipped, bad_names))
sys.exit(1 if failed or not ran or bad_names else 0)
PY
