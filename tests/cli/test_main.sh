#!/usr/bin/env bash
# linkscope's command table (src/cli/commands.c): help, --help per command, --version, and
# the one-line errors for an unknown command.
# usage: test_main.sh LINKSCOPE FIXTURES_DIR
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
main_c=$here/../../src/cli/commands.c
. "$(dirname "$0")/lib.sh"

# one_line FILE WHAT: FILE holds exactly one line
one_line() {
    local n
    n=$(wc -l <"$1")
    if [ "$n" -eq 1 ]; then ok; else bad "$2: $n lines, expected one: $(head -c 300 "$1")"; fi
}

# The command names, from the table itself: {.name = "name", ...
mapfile -t commands < <(sed -n 's/^ *{\.name = "\([a-z0-9]*\)",.*/\1/p' "$main_c")
if [ "${#commands[@]}" -ge 10 ]; then ok; else bad "read only ${#commands[@]} commands from $main_c"; fi

# Unknown command: one line on stderr naming it, nothing on stdout, exit 2.
if run 2 nosuch; then
    one_line "$tmp/err" "linkscope nosuch"
    grep -q "'nosuch' is not a linkscope command" "$tmp/err" && ok || bad "unknown command: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] && ok || bad "unknown command wrote to stdout"
fi
if run 2 --nosuch; then one_line "$tmp/err" "linkscope --nosuch"; fi

# --version, -V and version: version and git commit.
for v in --version -V version; do
    if run 0 "$v"; then
        grep -Eq '^linkscope [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-zA-Z]+, schema linkscope\.run/1\)$' "$tmp/out" &&
            ok || bad "linkscope $v printed: $(cat "$tmp/out")"
        one_line "$tmp/out" "linkscope $v"
    fi
done
if run 2 version extra; then one_line "$tmp/err" "linkscope version extra"; fi

# help (and no command, -h, --help) lists every command of the table; no command is a
# usage error (exit 2) that still prints the list.
for h in help -h --help ""; do
    if [ -n "$h" ]; then run 0 "$h" || continue; else run 2 || continue; fi
    for c in "${commands[@]}"; do
        grep -Eq "^  $c +[^ ]" "$tmp/out" && ok || bad "linkscope $h does not list '$c'"
    done
    grep -q "exit codes: 0 ok, 1 check failed, 2 usage or input error, 3 no usable GPU" "$tmp/out" &&
        ok || bad "linkscope $h: no exit codes line"
done

# COMMAND --help and help COMMAND: exit 0, its usage on stdout, nothing on stderr; the
# usage must not run the command (no GPU is needed for any of them).
for c in "${commands[@]}"; do
    if run 0 "$c" --help; then
        head -1 "$tmp/out" | grep -q "^usage: linkscope $c" && ok ||
            bad "linkscope $c --help: first line is '$(head -1 "$tmp/out")'"
        [ ! -s "$tmp/err" ] && ok || bad "linkscope $c --help wrote to stderr: $(head -c 200 "$tmp/err")"
        cp "$tmp/out" "$tmp/usage"
        if run 0 help "$c"; then
            cmp -s "$tmp/out" "$tmp/usage" && ok || bad "linkscope help $c differs from $c --help"
        fi
    fi
done
# --help after other options, but not after "--".
if run 0 topo --json --help; then head -1 "$tmp/out" | grep -q "^usage: linkscope topo" && ok || bad "topo --json --help"; fi

# help with a bad name or too many names: one line, exit 2.
if run 2 help nosuch; then
    one_line "$tmp/err" "linkscope help nosuch"
    grep -q "'nosuch' is not a linkscope command" "$tmp/err" && ok || bad "help nosuch: $(cat "$tmp/err")"
fi
if run 2 help topo inventory; then one_line "$tmp/err" "linkscope help topo inventory"; fi

# The commands help names as needing a GPU (the table's LS_CMD_GPU) are refused by the
# dispatcher with no GPU visible: one line, exit 3, nothing written; tp where it measures.
run 0 help || true
mapfile -t measuring < <(sed -n '/^need a GPU where they measure:/,/^GPU numbers/p' "$tmp/out" |
    sed 's/^need a GPU where they measure://; /^GPU numbers/d' | tr ', ' '\n\n' | grep .)
[ "${#measuring[@]}" -ge 7 ] && ok || bad "help names ${#measuring[@]} commands that need a GPU"
for c in "${measuring[@]}"; do
    args=()
    [ "$c" = tp ] && args=(--model llama3-8b --tp 2 --prompt 1 --measure --gpus 0,1)
    if CUDA_VISIBLE_DEVICES='' run 3 "$c" "${args[@]}" -o "$tmp/none.json"; then
        one_line "$tmp/err" "linkscope $c without a GPU"
        grep -q "no usable GPU: " "$tmp/err" && ok || bad "$c without a GPU: $(cat "$tmp/err")"
        [ ! -e "$tmp/none.json" ] && ok || bad "$c without a GPU wrote its document"
    fi
done

echo "test_main: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
